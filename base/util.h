/*
 * Small helpers of the ground floor, shared by the parsers (HTTP, query,
 * JSON), the monitor and the child.
 */
#ifndef CG_UTIL_H
#define CG_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Value 0-15 of an ASCII hex digit (either case), or -1 for any other byte. */
int cg_hexval(unsigned char c);

/* c with A-Z mapped to a-z, any other byte unchanged (no locale). */
unsigned char cg_lower(unsigned char c);

/*
 * s[0..len) equals the NUL-terminated lit, ASCII case-insensitively
 * (HTTP field names and tokens, http.md §2.4). Returns 1 or 0.
 */
int cg_ci_eq(const char *s, size_t len, const char *lit);

/* s[0..len) starts with the NUL-terminated lit, ASCII case-insensitively. */
int cg_ci_prefix(const char *s, size_t len, const char *lit);

/* Trim leading and trailing SP and HTAB (HTTP OWS) off *s[0..*len). */
void cg_trim_ows(const char **s, size_t *len);

/*
 * The slash-separated path p cleaned as Go's path.Clean: repeated '/',
 * "." components dropped, ".." popping the last kept component.
 * abs: cleaned as "/" + p (both daemons clean container paths so; ".."
 * never goes above "/"), never NULL. Otherwise relative to a directory
 * dest, as Go's filepath.Join(dest, p) made relative to dest: "" for dest
 * itself, NULL when a ".." leaves dest (archive entry names and link
 * targets). Returns a malloc'd string (the caller frees it; xoom() on
 * allocation failure).
 */
char *cg_path_clean(const char *p, int abs);

/* CLOCK_MONOTONIC in milliseconds (deadlines and durations; never fails). */
long long now_ms(void);

/*
 * FNV-1a, 64 bits, of the NUL-terminated s
 * (http://www.isthe.com/chongo/tech/comp/fnv/): a short name derived from
 * a path (no secret), e.g. the pins' key of a run directory.
 */
uint64_t fnv1a64(const char *s);

#endif
