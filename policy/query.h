/*
 * Request-target query strings (routes.md §4): strict parsing into an
 * ordered list of decoded key/value pairs, lookups and in-place edits for
 * the query policies, and canonical re-encoding of the forwarded query.
 * The client's query string is never copied into the forwarded target.
 */
#ifndef CG_POLICY_QUERY_H
#define CG_POLICY_QUERY_H

#include <stddef.h>

#include "base/gwerror.h"

#define QUERY_NONE	((size_t)-1)	/* "no such pair" index */

/* One decoded pair; key and value are NUL-terminated (no byte < 0x20). */
struct cg_qpair {
	char *key;
	char *value;	/* "" when the pair had no '=' */
};

struct cg_query {
	struct cg_qpair *v;	/* pairs in client order, repeats kept */
	size_t n;
	size_t cap;
};

/*
 * Parse s[0..len) (the bytes after the first '?', without it) per
 * routes.md §4.1: split on '&', skip empty pairs and empty keys, split
 * each pair at its first '=', decode '+' to space and %XX (either hex
 * case). Returns a new query (free with query_free; an empty one for
 * len 0), or NULL with *r set to 400 malformed on a '%' not followed by
 * two hex digits or a decoded byte < 0x20 or 0x7f in a key or value.
 * Exits through xoom() on allocation failure.
 */
struct cg_query *query_parse(const char *s, size_t len, struct cg_refusal *r);

/*
 * An empty query (free with query_free). Never NULL: exits through xoom()
 * on allocation failure. XXX only used inside query.c.
 */
struct cg_query *query_new(void);

/* Release q and its strings; NULL is a no-op. */
void query_free(struct cg_query *q);

/*
 * Canonical encoding (routes.md §4.2): "key=value" pairs joined by '&' in
 * order ('=' even for a pair that had none), every byte outside A-Z a-z
 * 0-9 - . _ ~ written as %XX with upper-case hex, keys too. Returns a
 * malloc'd NUL-terminated string ("" for an empty query; the caller frees
 * it), its length in *len (len may be NULL).
 */
char *query_encode(const struct cg_query *q, size_t *len);

/*
 * Index of the first pair at or after from whose key equals key exactly,
 * or QUERY_NONE.
 */
size_t query_find(const struct cg_query *q, const char *key, size_t from);

/* Value of the first pair named key exactly, or NULL. */
const char *query_get(const struct cg_query *q, const char *key);

/* Number of pairs named key exactly. */
size_t query_count(const struct cg_query *q, const char *key);

/* Append a pair (copies key and value; exits through xoom() on OOM). */
void query_append(struct cg_query *q, const char *key, const char *value);

/* Replace the value of pair i (copies value). Requires i < q->n. */
void query_set_at(struct cg_query *q, size_t i, const char *value);

/*
 * Set key to value: the first pair named key gets the value in place
 * (later pairs of that name are removed), else the pair is appended.
 */
void query_set(struct cg_query *q, const char *key, const char *value);

/* Remove every pair named key exactly; returns how many were removed. */
size_t query_remove(struct cg_query *q, const char *key);

/* Remove pair i, keeping the order of the others. Requires i < q->n. */
void query_remove_at(struct cg_query *q, size_t i);

/*
 * 1 when key equals an entry of the NULL-terminated list: exactly, or
 * ignoring ASCII case when fold is non-zero; else 0.
 */
int query_key_in(const char *key, const char *const *list, int fold);

/* 1 when a and b are equal ignoring ASCII case (other bytes exact). */
int ascii_caseeq(const char *a, const char *b);

#endif
