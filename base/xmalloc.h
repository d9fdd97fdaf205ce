/* Allocation wrappers: failure is fatal (style.md §13). */
#ifndef CG_XMALLOC_H
#define CG_XMALLOC_H

#include <stddef.h>

/*
 * Each returns non-NULL memory (a size of 0 counts as 1) that the caller
 * frees, or ends the process through xoom(). xstrndup copies at most n
 * bytes of s and NUL-terminates.
 */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/*
 * Write "container-gateway: out of memory" to fd 2 and _exit(1) (no
 * atexit handlers, no stdio); never returns.
 */
void xoom(void) __attribute__((noreturn));

#endif
