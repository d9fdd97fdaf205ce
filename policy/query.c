/*
 * Query parsing and canonical re-encoding (routes.md §4.1-4.2).
 *
 * Why re-encode: the daemons decode the forwarded query with Go's
 * net/url, which reads some inputs differently from us (';', raw bytes,
 * "%zz"). Forwarding a string the gateway rebuilt from the decoded pairs
 * guarantees that the daemon reads exactly the pairs the policy judged.
 */
#include "policy/query.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

/*
 * Decode s[0..len) into a new string ('+' and %XX). Returns NULL with *r
 * set on a bad escape or a control byte in the result.
 */
static char *
decode(const char *s, size_t len, struct cg_refusal *r)
{
	char *out = xmalloc(len + 1);
	size_t i, o = 0;
	int hi, lo;
	unsigned char c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '+')
			c = ' ';
		else if (c == '%') {
			hi = i + 1 < len ? cg_hexval((unsigned char)s[i + 1]) : -1;
			lo = i + 2 < len ? cg_hexval((unsigned char)s[i + 2]) : -1;
			if (hi < 0 || lo < 0) {
				free(out);
				cg_refuse(r, "malformed",
				    "query has an invalid percent-encoding");
				return NULL;
			}
			c = (unsigned char)(hi << 4 | lo);
			i += 2;
		}
		if (c < 0x20 || c == 0x7f) {
			free(out);
			cg_refuse(r, "malformed",
			    "query contains a control character");
			return NULL;
		}
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return out;
}

struct cg_query *
query_new(void)
{
	return xcalloc(1, sizeof(struct cg_query));
}

void
query_free(struct cg_query *q)
{
	size_t i;

	if (q == NULL)
		return;
	for (i = 0; i < q->n; i++) {
		free(q->v[i].key);
		free(q->v[i].value);
	}
	free(q->v);
	free(q);
}

/* Append a pair whose strings are already malloc'd (takes them). */
static void
append_owned(struct cg_query *q, char *key, char *value)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 8;
		q->v = xrealloc(q->v, q->cap * sizeof(q->v[0]));
	}
	q->v[q->n].key = key;
	q->v[q->n].value = value;
	q->n++;
}

/* Parse one "key[=value]" pair of len > 0 bytes into q. */
static int
parse_pair(struct cg_query *q, const char *p, size_t len,
    struct cg_refusal *r)
{
	const char *eq = memchr(p, '=', len);
	size_t klen = eq ? (size_t)(eq - p) : len;
	char *key, *value;

	if ((key = decode(p, klen, r)) == NULL)
		return -1;
	if (eq == NULL)
		value = xstrdup("");
	else if ((value = decode(eq + 1, len - klen - 1, r)) == NULL) {
		free(key);
		return -1;
	}
	/* Empty keys are skipped, after their value was still validated. */
	if (key[0] == '\0') {
		free(key);
		free(value);
		return 0;
	}
	append_owned(q, key, value);
	return 0;
}

struct cg_query *
query_parse(const char *s, size_t len, struct cg_refusal *r)
{
	struct cg_query *q = query_new();
	const char *p = s, *end = s + len, *amp;

	while (p < end) {
		amp = memchr(p, '&', (size_t)(end - p));
		if (amp == NULL)
			amp = end;
		if (amp > p && parse_pair(q, p, (size_t)(amp - p), r) == -1) {
			query_free(q);
			return NULL;
		}
		p = amp + 1;
	}
	return q;
}

static int
unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	    c == '~';
}

/* Encode s at out (room for 3 * strlen(s)); returns bytes written. */
static size_t
encode_to(char *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	for (; *p != '\0'; p++) {
		if (unreserved(*p))
			out[o++] = (char)*p;
		else {
			out[o++] = '%';
			out[o++] = hex[*p >> 4];
			out[o++] = hex[*p & 0xf];
		}
	}
	return o;
}

char *
query_encode(const struct cg_query *q, size_t *len)
{
	size_t i, need = 1, o = 0;
	char *out;

	for (i = 0; i < q->n; i++)
		need += 3 * (strlen(q->v[i].key) + strlen(q->v[i].value)) + 2;
	out = xmalloc(need);
	for (i = 0; i < q->n; i++) {
		if (i > 0)
			out[o++] = '&';
		o += encode_to(out + o, q->v[i].key);
		out[o++] = '=';
		o += encode_to(out + o, q->v[i].value);
	}
	out[o] = '\0';
	if (len != NULL)
		*len = o;
	return out;
}

size_t
query_find(const struct cg_query *q, const char *key, size_t from)
{
	size_t i;

	for (i = from; i < q->n; i++)
		if (strcmp(q->v[i].key, key) == 0)
			return i;
	return QUERY_NONE;
}

const char *
query_get(const struct cg_query *q, const char *key)
{
	size_t i = query_find(q, key, 0);

	return i == QUERY_NONE ? NULL : q->v[i].value;
}

size_t
query_count(const struct cg_query *q, const char *key)
{
	size_t i, n = 0;

	for (i = 0; i < q->n; i++)
		if (strcmp(q->v[i].key, key) == 0)
			n++;
	return n;
}

void
query_append(struct cg_query *q, const char *key, const char *value)
{
	append_owned(q, xstrdup(key), xstrdup(value));
}

void
query_set_at(struct cg_query *q, size_t i, const char *value)
{
	char *v = xstrdup(value);

	free(q->v[i].value);
	q->v[i].value = v;
}

/* Remove every pair named key at index >= from. */
static size_t
query_remove_from(struct cg_query *q, const char *key, size_t from)
{
	size_t i, o = from, removed = 0;

	for (i = from; i < q->n; i++) {
		if (strcmp(q->v[i].key, key) == 0) {
			free(q->v[i].key);
			free(q->v[i].value);
			removed++;
		} else
			q->v[o++] = q->v[i];
	}
	q->n = o;
	return removed;
}

void
query_set(struct cg_query *q, const char *key, const char *value)
{
	size_t i = query_find(q, key, 0);

	if (i == QUERY_NONE) {
		query_append(q, key, value);
		return;
	}
	query_set_at(q, i, value);
	query_remove_from(q, key, i + 1);
}

size_t
query_remove(struct cg_query *q, const char *key)
{
	return query_remove_from(q, key, 0);
}

void
query_remove_at(struct cg_query *q, size_t i)
{
	free(q->v[i].key);
	free(q->v[i].value);
	memmove(&q->v[i], &q->v[i + 1], (q->n - i - 1) * sizeof(q->v[0]));
	q->n--;
}

int
query_key_in(const char *key, const char *const *list, int fold)
{
	for (; *list != NULL; list++)
		if (fold ? ascii_caseeq(key, *list) : strcmp(key, *list) == 0)
			return 1;
	return 0;
}

int
ascii_caseeq(const char *a, const char *b)
{
	unsigned char x, y;

	for (;; a++, b++) {
		x = cg_lower((unsigned char)*a);
		y = cg_lower((unsigned char)*b);
		if (x != y)
			return 0;
		if (x == '\0')
			return 1;
	}
}
