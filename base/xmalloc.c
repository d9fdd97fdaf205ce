/* Allocation wrappers (style.md §13: allocation failure is fatal). */
#include "base/xmalloc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void
xoom(void)
{
	static const char msg[] = "container-gateway: out of memory\n";

	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		xoom();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		xoom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		xoom();
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		xoom();
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		xoom();
	return p;
}
