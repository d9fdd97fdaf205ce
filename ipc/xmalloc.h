/* Allocation wrappers: failure is fatal (style.md §13). */
#ifndef CG_XMALLOC_H
#define CG_XMALLOC_H

#include <stddef.h>

/* Each returns non-NULL memory or aborts the process via xoom(). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Report "out of memory" on stderr and _exit(1); never returns. */
void xoom(void) __attribute__((noreturn));

#endif
