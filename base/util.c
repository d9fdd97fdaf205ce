/* Small helpers of the ground floor. */
#include "base/util.h"

#include <stdlib.h>

#include <string.h>
#include <time.h>

#include "base/xmalloc.h"

int
cg_hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

unsigned char
cg_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c;
}

int
cg_ci_eq(const char *s, size_t len, const char *lit)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (lit[i] == '\0' || cg_lower((unsigned char)s[i]) !=
		    cg_lower((unsigned char)lit[i]))
			return 0;
	return lit[len] == '\0';
}

int
cg_ci_prefix(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && cg_ci_eq(s, n, lit);
}

void
cg_trim_ows(const char **s, size_t *len)
{
	while (*len > 0 && ((*s)[0] == ' ' || (*s)[0] == '\t')) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
		(*len)--;
}

long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

char *
cg_path_clean(const char *p, int abs)
{
	char *out = xmalloc(strlen(p) + 2);
	size_t len = 0, n;

	while (*p != '\0') {
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (len == 0 && !abs) {
				free(out);
				return NULL;
			}
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--;		/* the slash */
		} else {
			if (abs || len > 0)
				out[len++] = '/';
			memcpy(out + len, p, n);
			len += n;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	if (len == 0 && abs)
		out[len++] = '/';
	out[len] = '\0';
	return out;
}

uint64_t
fnv1a64(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}
