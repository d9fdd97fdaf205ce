/*
 * The strict JSON parser (policy.md §0.1): a purpose-built RFC 8259 parser
 * that builds a cJSON tree, numbers kept as their lexemes (cJSON_Raw), and
 * json_new_number(), which checks a lexeme by the same number grammar.
 * See policy/json.h for the contracts.
 */
#include "policy/json.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
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
 * The escape at p (a backslash and at least one more byte before j->end)
 * of a string: its UTF-8 written to out (4 bytes at most) and added to
 * *len. Returns the escape's length in the input (2, 6, or 12 for a
 * surrogate pair), or 0 with the error set.
 */
static size_t
jp_escape(struct jp *j, const unsigned char *p, char *out, size_t *len)
{
	const unsigned char *end = j->end;
	long cp, lo;

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
			return 0;
		}
		if (cp == 0) {
			jp_fail(j, "\\u0000 escape at byte %zu", jp_off(j, p));
			return 0;
		}
		if (cp >= 0xdc00 && cp <= 0xdfff) {
			jp_fail(j, "lone surrogate escape at byte %zu",
			    jp_off(j, p));
			return 0;
		}
		if (cp < 0xd800 || cp > 0xdbff) {
			*len += utf8_put(out, (unsigned long)cp);
			return 6;
		}
		if (end - p < 12 || p[6] != '\\' || p[7] != 'u' ||
		    (lo = hex4(p + 8)) < 0xdc00 || lo > 0xdfff) {
			jp_fail(j, "lone surrogate escape at byte %zu",
			    jp_off(j, p));
			return 0;
		}
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		*len += utf8_put(out, (unsigned long)cp);
		return 12;
	default:
		jp_fail(j, "invalid escape at byte %zu", jp_off(j, p));
		return 0;
	}
	(*len)++;
	return 2;
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
			n = jp_escape(j, p, out, &len);
			if (n == 0)
				return (size_t)-1;
			p += n;
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
	c = json_checked(is_obj ? cJSON_CreateObject() : cJSON_CreateArray());
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
		return json_checked(cJSON_CreateString(j->buf + j->top));
	case 't':
		return jp_literal(j, "true", 4) ? NULL :
		    json_checked(cJSON_CreateTrue());
	case 'f':
		return jp_literal(j, "false", 5) ? NULL :
		    json_checked(cJSON_CreateFalse());
	case 'n':
		return jp_literal(j, "null", 4) ? NULL :
		    json_checked(cJSON_CreateNull());
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
	return json_checked(cJSON_CreateRaw(j->buf + j->top));
}

static size_t tree_limit = SIZE_MAX;	/* json_set_tree_limit() */

size_t
json_tree_bound(const char *text, size_t len)
{
	size_t values = 1, keys = 0, i;

	for (i = 0; i < len; i++) {
		switch (text[i]) {
		case ',':
		case '[':
		case '{':
			values++;
			break;
		case ':':
			keys++;
			break;
		default:
			break;
		}
	}
	return 112 * values + 32 * keys + 4 * len;
}

void
json_set_tree_limit(size_t bytes)
{
	tree_limit = bytes;
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
	if (tree_limit != SIZE_MAX && json_tree_bound(text, len) > tree_limit) {
		jp_fail(&j, "too dense: its parse may take %zu MiB, more than "
		    "the %zu MiB the memory budget leaves for one",
		    json_tree_bound(text, len) >> 20, tree_limit >> 20);
		return NULL;
	}
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
/* Number nodes                                                        */
/* ------------------------------------------------------------------ */

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
	return json_checked(cJSON_CreateRaw(lexeme));
}
