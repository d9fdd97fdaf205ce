/*
 * Strict JSON (policy.md §0) on a parsed tree (json_parse.c parses): the
 * canonical serialiser (§0.6), key folding and collisions (§0.2), and
 * truthiness and the other value tests (§0.4-§0.5). See policy/json.h for
 * the contracts.
 */
#include "policy/json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

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

const char *
json_str(const cJSON *obj, const char *key)
{
	const cJSON *v = json_get(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

cJSON *
json_checked(cJSON *item)
{
	if (item == NULL)
		xoom();
	return item;
}
