/*
 * Strict JSON (policy.md §0): a purpose-built RFC 8259 parser that builds a
 * cJSON tree, the canonical serialiser, key folding and collisions, and
 * truthiness. See policy/json.h for the contracts.
 */
#include "policy/json.h"
#include "base/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

/* ------------------------------------------------------------------ */
/* Parser                                                              */
/* ------------------------------------------------------------------ */

/*
 * Parser state. buf is a scratch stack for decoded strings and number
 * lexemes: the key of every object being parsed stays reserved at
 * buf[off..] (below top) until its value is parsed, so nested parsing
 * writes above it. Offsets, not pointers, because buf may move.
 */
struct jp {
	const unsigned char *start;
	const unsigned char *p;
	const unsigned char *end;
	char *err;
	size_t errlen;
	char *buf;
	size_t cap;
	size_t top;
	int depth;
};

static void jp_fail(struct jp *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
jp_fail(struct jp *j, const char *fmt, ...)
{
	va_list ap;

	if (j->err == NULL || j->errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(j->err, j->errlen, fmt, ap);
	va_end(ap);
}

static size_t
jp_off(const struct jp *j, const unsigned char *at)
{
	return (size_t)(at - j->start);
}

/* "unexpected ..." for the byte at at (or the end of the input). */
static void
jp_unexpected(struct jp *j, const unsigned char *at)
{
	if (at >= j->end)
		jp_fail(j, "unexpected end of input at byte %zu", jp_off(j, at));
	else if (*at == 0)
		jp_fail(j, "NUL byte at byte %zu", jp_off(j, at));
	else if (*at > 0x20 && *at < 0x7f && *at != '\'')
		jp_fail(j, "unexpected '%c' at byte %zu", *at, jp_off(j, at));
	else
		jp_fail(j, "unexpected byte 0x%02x at byte %zu", *at,
		    jp_off(j, at));
}

/* Make room for n more bytes above top. */
static void
jp_reserve(struct jp *j, size_t n)
{
	size_t need = j->top + n;

	if (need <= j->cap)
		return;
	if (need < j->cap * 2)
		need = j->cap * 2;
	if (need < 256)
		need = 256;
	j->buf = xrealloc(j->buf, need);
	j->cap = need;
}

static void
jp_ws(struct jp *j)
{
	const unsigned char *p = j->p;

	while (p < j->end &&
	    (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	j->p = p;
}

/* Four hex digits at p (bounds checked by the caller); -1 if not hex. */
static long
hex4(const unsigned char *p)
{
	long v = 0;
	int i, d;

	for (i = 0; i < 4; i++) {
		d = cg_hexval(p[i]);
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/*
 * Length of the well-formed UTF-8 sequence starting with a byte >= 0x80 at
 * p (RFC 3629 table: no overlongs, no surrogates, <= U+10FFFF), or 0.
 */
static size_t
utf8_seq(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static size_t
utf8_put(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Plain string bytes, copied as they are: ASCII >= 0x20 except " and \. */
static inline int
plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/*
 * Decode the string whose opening quote is at j->p into buf[top..],
 * NUL-terminated, without moving top. Returns its length, or (size_t)-1
 * with the error set. j->p ends after the closing quote.
 */
static size_t
jp_string(struct jp *j)
{
	const unsigned char *p = j->p + 1, *end = j->end, *q;
	size_t len = 0, n;
	long cp, lo;
	char *out;

	jp_reserve(j, 1);		/* the NUL of an empty string */
	for (;;) {
		q = p;
		while (q < end && plain(*q))
			q++;
		if (q > p) {
			n = (size_t)(q - p);
			jp_reserve(j, len + n + 1);
			memcpy(j->buf + j->top + len, p, n);
			len += n;
			p = q;
		}
		if (p >= end) {
			jp_unexpected(j, p);
			return (size_t)-1;
		}
		if (*p == '"') {
			p++;
			break;
		}
		jp_reserve(j, len + 5);
		out = j->buf + j->top + len;
		if (*p == '\\') {
			if (end - p < 2) {
				jp_unexpected(j, end);
				return (size_t)-1;
			}
			switch (p[1]) {
			case '"': *out = '"'; break;
			case '\\': *out = '\\'; break;
			case '/': *out = '/'; break;
			case 'b': *out = '\b'; break;
			case 'f': *out = '\f'; break;
			case 'n': *out = '\n'; break;
			case 'r': *out = '\r'; break;
			case 't': *out = '\t'; break;
			case 'u':
				if (end - p < 6 || (cp = hex4(p + 2)) < 0) {
					jp_fail(j, "invalid \\u escape at byte %zu",
					    jp_off(j, p));
					return (size_t)-1;
				}
				if (cp == 0) {
					jp_fail(j, "\\u0000 escape at byte %zu",
					    jp_off(j, p));
					return (size_t)-1;
				}
				if (cp >= 0xdc00 && cp <= 0xdfff) {
					jp_fail(j, "lone surrogate escape at "
					    "byte %zu", jp_off(j, p));
					return (size_t)-1;
				}
				if (cp >= 0xd800 && cp <= 0xdbff) {
					if (end - p < 12 || p[6] != '\\' ||
					    p[7] != 'u' ||
					    (lo = hex4(p + 8)) < 0xdc00 ||
					    lo > 0xdfff) {
						jp_fail(j, "lone surrogate escape "
						    "at byte %zu", jp_off(j, p));
						return (size_t)-1;
					}
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					    (lo - 0xdc00);
					p += 6;
				}
				len += utf8_put(out, (unsigned long)cp);
				p += 6;
				continue;
			default:
				jp_fail(j, "invalid escape at byte %zu",
				    jp_off(j, p));
				return (size_t)-1;
			}
			len++;
			p += 2;
			continue;
		}
		if (*p >= 0x80) {
			n = utf8_seq(p, end);
			if (n == 0) {
				jp_fail(j, "invalid UTF-8 at byte %zu",
				    jp_off(j, p));
				return (size_t)-1;
			}
			memcpy(out, p, n);
			len += n;
			p += n;
			continue;
		}
		if (*p == 0)
			jp_fail(j, "NUL byte at byte %zu", jp_off(j, p));
		else
			jp_fail(j, "control character 0x%02x in string at "
			    "byte %zu", *p, jp_off(j, p));
		return (size_t)-1;
	}
	j->buf[j->top + len] = '\0';
	j->p = p;
	return len;
}

/* Length of the RFC 8259 number at p, or 0 if there is none. */
static size_t
number_len(const unsigned char *p, const unsigned char *end)
{
	const unsigned char *q = p;

	if (q < end && *q == '-')
		q++;
	if (q >= end)
		return 0;
	if (*q == '0')
		q++;
	else if (*q >= '1' && *q <= '9')
		while (q < end && *q >= '0' && *q <= '9')
			q++;
	else
		return 0;
	if (q < end && *q == '.') {
		q++;
		if (q >= end || *q < '0' || *q > '9')
			return 0;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		if (q >= end || *q < '0' || *q > '9')
			return 0;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
	}
	return (size_t)(q - p);
}

static cJSON *
oom_check(cJSON *item)
{
	if (item == NULL)
		xoom();
	return item;
}

static cJSON *jp_value(struct jp *j);

static int
jp_literal(struct jp *j, const char *word, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (j->p + i >= j->end || j->p[i] != (unsigned char)word[i]) {
			jp_unexpected(j, j->p + i);
			return -1;
		}
	}
	j->p += n;
	return 0;
}

/* Array or object whose opening bracket is at j->p. */
static cJSON *
jp_container(struct jp *j, int is_obj)
{
	cJSON *c, *v;
	size_t koff = 0, klen;
	unsigned char close = is_obj ? '}' : ']';

	if (++j->depth > JSON_MAX_DEPTH) {
		jp_fail(j, "nesting deeper than %d at byte %zu",
		    JSON_MAX_DEPTH, jp_off(j, j->p));
		return NULL;
	}
	c = oom_check(is_obj ? cJSON_CreateObject() : cJSON_CreateArray());
	j->p++;
	jp_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return c;
	}
	for (;;) {
		if (is_obj) {
			if (j->p >= j->end || *j->p != '"') {
				jp_unexpected(j, j->p);
				goto fail;
			}
			koff = j->top;
			if ((klen = jp_string(j)) == (size_t)-1)
				goto fail;
			j->top += klen + 1;
			jp_ws(j);
			if (j->p >= j->end || *j->p != ':') {
				jp_unexpected(j, j->p);
				j->top = koff;
				goto fail;
			}
			j->p++;
			jp_ws(j);
		}
		v = jp_value(j);
		if (is_obj)
			j->top = koff;
		if (v == NULL)
			goto fail;
		if (is_obj) {
			/* The key at buf[koff] is intact: nothing wrote below top. */
			if (!cJSON_AddItemToObject(c, j->buf + koff, v)) {
				cJSON_Delete(v);
				xoom();
			}
		} else if (!cJSON_AddItemToArray(c, v)) {
			cJSON_Delete(v);
			xoom();
		}
		jp_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			jp_ws(j);
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			break;
		}
		jp_unexpected(j, j->p);
		goto fail;
	}
	j->depth--;
	return c;
fail:
	cJSON_Delete(c);
	return NULL;
}

/* A value at j->p (whitespace already skipped). */
static cJSON *
jp_value(struct jp *j)
{
	size_t n;

	if (j->p >= j->end) {
		jp_unexpected(j, j->p);
		return NULL;
	}
	switch (*j->p) {
	case '{':
		return jp_container(j, 1);
	case '[':
		return jp_container(j, 0);
	case '"':
		if (jp_string(j) == (size_t)-1)
			return NULL;
		return oom_check(cJSON_CreateString(j->buf + j->top));
	case 't':
		return jp_literal(j, "true", 4) ? NULL :
		    oom_check(cJSON_CreateTrue());
	case 'f':
		return jp_literal(j, "false", 5) ? NULL :
		    oom_check(cJSON_CreateFalse());
	case 'n':
		return jp_literal(j, "null", 4) ? NULL :
		    oom_check(cJSON_CreateNull());
	default:
		break;
	}
	if ((n = number_len(j->p, j->end)) == 0) {
		if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
			jp_fail(j, "invalid number at byte %zu",
			    jp_off(j, j->p));
		else
			jp_unexpected(j, j->p);
		return NULL;
	}
	jp_reserve(j, n + 1);
	memcpy(j->buf + j->top, j->p, n);
	j->buf[j->top + n] = '\0';
	j->p += n;
	return oom_check(cJSON_CreateRaw(j->buf + j->top));
}

cJSON *
json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct jp j;
	cJSON *v;

	memset(&j, 0, sizeof(j));
	j.err = err;
	j.errlen = errlen;
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (len > JSON_MAX_TEXT) {
		jp_fail(&j, "input larger than %u bytes", JSON_MAX_TEXT);
		return NULL;
	}
	if (text == NULL)
		text = "";
	j.start = j.p = (const unsigned char *)text;
	j.end = j.start + len;
	jp_ws(&j);
	if (j.p >= j.end) {
		jp_fail(&j, "empty input");
		return NULL;
	}
	v = jp_value(&j);
	if (v != NULL) {
		jp_ws(&j);
		if (j.p < j.end) {
			jp_fail(&j, "unexpected data after the value at byte "
			    "%zu", jp_off(&j, j.p));
			cJSON_Delete(v);
			v = NULL;
		}
	}
	free(j.buf);
	return v;
}

/* ------------------------------------------------------------------ */
/* Serialiser                                                          */
/* ------------------------------------------------------------------ */

struct sbuf {
	char *p;
	size_t len;
	size_t cap;
};

static void
sb_reserve(struct sbuf *b, size_t n)
{
	size_t need = b->len + n;

	if (need <= b->cap)
		return;
	if (need < b->cap * 2)
		need = b->cap * 2;
	if (need < 256)
		need = 256;
	b->p = xrealloc(b->p, need);
	b->cap = need;
}

static void
sb_add(struct sbuf *b, const void *s, size_t n)
{
	sb_reserve(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void
sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

/* Bytes that are escaped: controls, '"' and '\\'. */
static inline int
needs_escape(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\';
}

static void
sb_quoted(struct sbuf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : ""), *q;
	char esc[6];

	sb_add(b, "\"", 1);
	for (;;) {
		q = p;
		while (*q != '\0' && !needs_escape(*q))
			q++;
		sb_add(b, p, (size_t)(q - p));
		if (*q == '\0')
			break;
		if (*q == '"')
			sb_add(b, "\\\"", 2);
		else if (*q == '\\')
			sb_add(b, "\\\\", 2);
		else {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[*q >> 4];
			esc[5] = hex[*q & 0xf];
			sb_add(b, esc, 6);
		}
		p = q + 1;
	}
	sb_add(b, "\"", 1);
}

/* A cJSON_Number built by someone else (our own code uses Raw lexemes). */
static void
sb_double(struct sbuf *b, double d)
{
	char tmp[64];

	if (isnan(d) || isinf(d))
		sb_str(b, "null");	/* NaN, inf: no JSON spelling */
	else if (d > -9.2e18 && d < 9.2e18 && (double)(long long)d == d) {
		snprintf(tmp, sizeof(tmp), "%lld", (long long)d);
		sb_str(b, tmp);
	} else {
		snprintf(tmp, sizeof(tmp), "%.17g", d);
		sb_str(b, tmp);
	}
}

static void
sb_node(struct sbuf *b, const cJSON *n)
{
	const cJSON *c;

	if (n == NULL) {
		sb_str(b, "null");
		return;
	}
	switch (n->type & 0xff) {
	case cJSON_False:
		sb_str(b, "false");
		break;
	case cJSON_True:
		sb_str(b, "true");
		break;
	case cJSON_Number:
		sb_double(b, n->valuedouble);
		break;
	case cJSON_Raw:
		sb_str(b, n->valuestring ? n->valuestring : "null");
		break;
	case cJSON_String:
		sb_quoted(b, n->valuestring);
		break;
	case cJSON_Array:
		sb_add(b, "[", 1);
		for (c = n->child; c != NULL; c = c->next) {
			if (c != n->child)
				sb_add(b, ",", 1);
			sb_node(b, c);
		}
		sb_add(b, "]", 1);
		break;
	case cJSON_Object:
		sb_add(b, "{", 1);
		for (c = n->child; c != NULL; c = c->next) {
			if (c != n->child)
				sb_add(b, ",", 1);
			sb_quoted(b, c->string);
			sb_add(b, ":", 1);
			sb_node(b, c);
		}
		sb_add(b, "}", 1);
		break;
	default:			/* cJSON_NULL, cJSON_Invalid */
		sb_str(b, "null");
		break;
	}
}

char *
json_serialize(const cJSON *node, size_t *len)
{
	struct sbuf b = { NULL, 0, 0 };

	sb_node(&b, node);
	sb_add(&b, "", 1);
	if (len != NULL)
		*len = b.len - 1;
	return b.p;
}

/* ------------------------------------------------------------------ */
/* Key folding and collisions                                          */
/* ------------------------------------------------------------------ */

/*
 * Next folded byte of s at *i (advancing *i past the consumed bytes), or
 * 0 at the end.
 */
static unsigned char
fold_next(const unsigned char *s, size_t *i)
{
	unsigned char c = s[*i];

	if (c == 0)
		return 0;
	if (c >= 'A' && c <= 'Z') {
		(*i)++;
		return (unsigned char)(c - 'A' + 'a');
	}
	if (c == 0xc5 && s[*i + 1] == 0xbf) {
		*i += 2;
		return 's';
	}
	if (c == 0xe2 && s[*i + 1] == 0x84 && s[*i + 2] == 0xaa) {
		*i += 3;
		return 'k';
	}
	(*i)++;
	return c;
}

size_t
json_fold(const char *key, char *out, size_t outsz)
{
	const unsigned char *s = (const unsigned char *)key;
	size_t i = 0, n = 0;
	unsigned char c;

	/* Returns the full fold length; writes what fits (like snprintf). */
	while ((c = fold_next(s, &i)) != 0) {
		if (n + 1 < outsz)
			out[n] = (char)c;
		n++;
	}
	if (outsz > 0)
		out[n < outsz ? n : outsz - 1] = '\0';
	return n;
}

int
json_fold_eq(const char *a, const char *b)
{
	const unsigned char *sa = (const unsigned char *)a;
	const unsigned char *sb = (const unsigned char *)b;
	size_t i = 0, k = 0;
	unsigned char ca, cb;

	do {
		ca = fold_next(sa, &i);
		cb = fold_next(sb, &k);
		if (ca != cb)
			return 0;
	} while (ca != 0);
	return 1;
}

struct member {
	const char *key;	/* as sent */
	const char *cmp;	/* the compared form: key or its fold */
	size_t idx;		/* position in the object */
};

static int
member_cmp(const void *x, const void *y)
{
	const struct member *a = x, *b = y;
	int r = strcmp(a->cmp, b->cmp);

	if (r != 0)
		return r;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/*
 * Sorts the members by compared form (then position) and looks at the
 * runs of equal forms. Among several colliding pairs it reports the one
 * the input reveals first: the earliest member that collides with an
 * earlier one, with the first member it collides with. O(n log n).
 */
int
json_find_collision(const cJSON *obj, int fold, const char **a,
    const char **b)
{
	const cJSON *c;
	struct member *m;
	char *folds = NULL, *f;
	size_t n = 0, total = 0, i, k, best = 0, best_idx = SIZE_MAX;
	int found = 0;

	if (obj == NULL || (obj->type & 0xff) != cJSON_Object)
		return 0;
	for (c = obj->child; c != NULL; c = c->next) {
		n++;
		if (fold)
			total += strlen(c->string ? c->string : "") + 1;
	}
	if (n < 2)
		return 0;
	m = xmalloc(n * sizeof(*m));
	if (fold)
		folds = xmalloc(total);
	f = folds;
	for (c = obj->child, i = 0; c != NULL; c = c->next, i++) {
		m[i].key = c->string ? c->string : "";
		m[i].idx = i;
		if (fold) {
			m[i].cmp = f;
			f += json_fold(m[i].key, f, (size_t)(folds + total - f))
			    + 1;
		} else
			m[i].cmp = m[i].key;
	}
	qsort(m, n, sizeof(*m), member_cmp);
	for (i = 0; i < n; i = k) {
		for (k = i + 1; k < n && strcmp(m[k].cmp, m[i].cmp) == 0; k++)
			;
		/* m[i..k) is a run; m[i+1] is its second member in input order. */
		if (k - i >= 2 && m[i + 1].idx < best_idx) {
			best_idx = m[i + 1].idx;
			best = i;
			found = 1;
		}
	}
	if (found) {
		if (strcmp(m[best].key, m[best + 1].key) <= 0) {
			*a = m[best].key;
			*b = m[best + 1].key;
		} else {
			*a = m[best + 1].key;
			*b = m[best].key;
		}
	}
	free(m);
	free(folds);
	return found;
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

/* 1 when the lexeme's mantissa (integer and fraction digits) is all 0. */
static int
lexeme_zero(const char *s)
{
	if (*s == '-')
		s++;
	for (; *s != '\0' && *s != 'e' && *s != 'E'; s++)
		if (*s != '0' && *s != '.')
			return 0;
	return 1;
}

int
json_is_number(const cJSON *v)
{
	if (v == NULL)
		return 0;
	if ((v->type & 0xff) == cJSON_Raw)
		return v->valuestring != NULL;
	return (v->type & 0xff) == cJSON_Number;
}

int
json_truthy(const cJSON *v)
{
	if (v == NULL)
		return 0;
	switch (v->type & 0xff) {
	case cJSON_True:
		return 1;
	case cJSON_Raw:
		return v->valuestring != NULL && !lexeme_zero(v->valuestring);
	case cJSON_Number:
		return v->valuedouble != 0;
	case cJSON_String:
		return v->valuestring != NULL && v->valuestring[0] != '\0';
	case cJSON_Array:
	case cJSON_Object:
		return v->child != NULL;
	default:			/* false, null, invalid */
		return 0;
	}
}

int
json_number_negative(const cJSON *v)
{
	if (!json_is_number(v))
		return 0;
	if ((v->type & 0xff) == cJSON_Number)
		return v->valuedouble < 0;
	return v->valuestring[0] == '-' && !lexeme_zero(v->valuestring);
}

cJSON *
json_get(const cJSON *obj, const char *key)
{
	cJSON *c;

	if (obj == NULL || (obj->type & 0xff) != cJSON_Object || key == NULL)
		return NULL;
	for (c = obj->child; c != NULL; c = c->next)
		if (c->string != NULL && strcmp(c->string, key) == 0)
			return c;
	return NULL;
}

/* An invalid lexeme is a programming error: abort rather than emit it. */
cJSON *
json_new_number(const char *lexeme)
{
	size_t n = lexeme ? strlen(lexeme) : 0;

	if (n == 0 || number_len((const unsigned char *)lexeme,
	    (const unsigned char *)lexeme + n) != n) {
		fprintf(stderr, "container-gateway: json_new_number: invalid "
		    "lexeme\n");
		abort();
	}
	return oom_check(cJSON_CreateRaw(lexeme));
}
