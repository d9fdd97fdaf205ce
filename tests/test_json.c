/*
 * Unit tests of policy/json_parse.c and json.c: strict parsing (policy.md
 * §0.1), key folds and collisions (§0.2), truthiness (§0.4), canonical
 * output and fixpoint (§0.6).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "base/xmalloc.h"
#include "policy/json.h"

#define S(lit)	lit, sizeof(lit) - 1	/* literal with its exact length */

/* ---- helpers ---------------------------------------------------------- */

/* Parse or fail the test, printing the input and the error. */
static cJSON *
must_parse(const char *in, size_t len)
{
	char err[128];
	cJSON *t = json_parse(in, len, err, sizeof(err));

	if (t == NULL)
		fail_msg("rejected %.*s: %s", (int)len, in, err);
	return t;
}

static char *
ser(const cJSON *t)
{
	size_t n;
	char *s = json_serialize(t, &n);

	assert_int_equal(strlen(s), n);
	return s;
}

/* serialize(parse(in)); also checks the fixpoint on the way. */
static char *
canon(const char *in, size_t len)
{
	cJSON *t = must_parse(in, len), *t2;
	char *s1 = ser(t), *s2;

	t2 = must_parse(s1, strlen(s1));
	s2 = ser(t2);
	if (strcmp(s1, s2) != 0)
		fail_msg("no fixpoint: %s -> %s", s1, s2);
	free(s2);
	cJSON_Delete(t2);
	cJSON_Delete(t);
	return s1;
}

/* ---- accepted documents ---------------------------------------------- */

struct accept_case {
	const char *in;
	size_t len;
	const char *out;	/* canonical serialisation */
};

static const struct accept_case accepts[] = {
	/* any top-level value, whitespace around it */
	{ S("{}"), "{}" },
	{ S("[]"), "[]" },
	{ S(" \t\r\n{ }\n"), "{}" },
	{ S("[ ]"), "[]" },
	{ S("1"), "1" },
	{ S("\"x\""), "\"x\"" },
	{ S("true"), "true" },
	{ S("false"), "false" },
	{ S("null"), "null" },
	{ S(" { \"a\" : [ 1 , 2 ,\n3 ] , \"b\" :{ } } "), "{\"a\":[1,2,3],\"b\":{}}" },
	/* numbers keep their lexeme byte for byte */
	{ S("9223372036854775807"), "9223372036854775807" },
	{ S("-9223372036854775809"), "-9223372036854775809" },
	{ S("123456789012345678901234567890"), "123456789012345678901234567890" },
	{ S("1e400"), "1e400" },
	{ S("-0.0e+1"), "-0.0e+1" },
	{ S("-0"), "-0" },
	{ S("0"), "0" },
	{ S("1E5"), "1E5" },
	{ S("0.5e-10"), "0.5e-10" },
	{ S("[1.000,2e0,-3.25E+02]"), "[1.000,2e0,-3.25E+02]" },
	{ S("{\"n\":0.10}"), "{\"n\":0.10}" },
	/* member order and duplicates are kept (collisions run on the tree) */
	{ S("{\"b\":1,\"a\":2,\"b\":3}"), "{\"b\":1,\"a\":2,\"b\":3}" },
	{ S("{\"Privileged\":false,\"privileged\":true}"),
	  "{\"Privileged\":false,\"privileged\":true}" },
	/* escapes are decoded and re-escaped minimally (§0.6) */
	{ S("\"Privil\\u0065ged\""), "\"Privileged\"" },
	{ S("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""), "\"\\\"\\\\/\\u0008\\u000c\\u000a\\u000d\\u0009\"" },
	{ S("\"\\u001f\\u001F\\u0001\""), "\"\\u001f\\u001f\\u0001\"" },
	{ S("\"\\u007f\x7f\""), "\"\x7f\x7f\"" },
	{ S("\"a/b\""), "\"a/b\"" },
	{ S("\"\\u00e9\\u00E9\""), "\"\xc3\xa9\xc3\xa9\"" },
	{ S("\"\\u20ac\""), "\"\xe2\x82\xac\"" },
	{ S("\"\\ud83d\\ude00\""), "\"\xf0\x9f\x98\x80\"" },
	{ S("\"\\uD83D\\uDE00\""), "\"\xf0\x9f\x98\x80\"" },
	{ S("\"\\udbff\\udfff\""), "\"\xf4\x8f\xbf\xbf\"" },
	{ S("\"\\ud800\\udc00\""), "\"\xf0\x90\x80\x80\"" },
	{ S("\"\\uffff\\ufeff\""), "\"\xef\xbf\xbf\xef\xbb\xbf\"" },
	{ S("{\"k\\u0065y\":\"v\"}"), "{\"key\":\"v\"}" },
	{ S("{\"\\n\":1}"), "{\"\\u000a\":1}" },
	/* raw UTF-8: every boundary of the RFC 3629 table */
	{ S("\"\xc2\x80\xdf\xbf\""), "\"\xc2\x80\xdf\xbf\"" },
	{ S("\"\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\""),
	  "\"\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\"" },
	{ S("\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\xf3\xbf\xbf\xbf\""),
	  "\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\xf3\xbf\xbf\xbf\"" },
	{ S("\"Bind\xc5\xbf\""), "\"Bind\xc5\xbf\"" },
	{ S("\"\""), "\"\"" },
	{ S("[[[]],{\"a\":[{}]}]"), "[[[]],{\"a\":[{}]}]" },
	{ S("[true,false,null,\"\",0]"), "[true,false,null,\"\",0]" },
};

static void
test_accept(void **state)
{
	size_t i;
	char *s;

	(void)state;
	for (i = 0; i < sizeof(accepts) / sizeof(accepts[0]); i++) {
		s = canon(accepts[i].in, accepts[i].len);
		if (strcmp(s, accepts[i].out) != 0)
			fail_msg("case %zu: %s -> %s, want %s", i,
			    accepts[i].in, s, accepts[i].out);
		free(s);
	}
}

/* ---- rejected documents ---------------------------------------------- */

struct reject_case {
	const char *in;
	size_t len;
	const char *err;	/* substring of the error */
};

static const struct reject_case rejects[] = {
	/* empty input, trailing data, multiple values (B16) */
	{ S(""), "empty input" },
	{ S("  \n\t"), "empty input" },
	{ S("{} {}"), "unexpected data after the value at byte 3" },
	{ S("{}x"), "unexpected data after the value at byte 2" },
	{ S("[]]"), "at byte 2" },
	{ S("1 2"), "at byte 2" },
	{ S("{}\0"), "at byte 2" },
	{ S("\"a\"\"b\""), "at byte 3" },
	{ S("\xef\xbb\xbf{}"), "unexpected byte 0xef at byte 0" },
	/* syntax */
	{ S("{"), "unexpected end of input at byte 1" },
	{ S("["), "unexpected end of input" },
	{ S("[1,]"), "unexpected ']' at byte 3" },
	{ S("{\"a\":1,}"), "unexpected '}' at byte 7" },
	{ S("[1 2]"), "unexpected '2'" },
	{ S("{\"a\" 1}"), "unexpected '1'" },
	{ S("{\"a\":1 \"b\":2}"), "unexpected '\"'" },
	{ S("{1:2}"), "unexpected '1' at byte 1" },
	{ S("{'a':1}"), "unexpected byte 0x27 at byte 1" },
	{ S("{\"a\"}"), "unexpected '}'" },
	{ S("{\"a\":}"), "unexpected '}'" },
	{ S("[,]"), "unexpected ','" },
	{ S("tru"), "unexpected end of input at byte 3" },
	{ S("trUe"), "unexpected 'U' at byte 2" },
	{ S("nul"), "unexpected end of input" },
	{ S("nulll"), "at byte 4" },
	{ S("False"), "unexpected 'F'" },
	{ S("NaN"), "unexpected 'N'" },
	{ S("Infinity"), "unexpected 'I'" },
	{ S("\"abc"), "unexpected end of input at byte 4" },
	{ S("\"abc\\"), "unexpected end of input" },
	{ S("[\x01]"), "unexpected byte 0x01 at byte 1" },
	{ S("[1]\x0b"), "at byte 3" },	/* VT is not JSON whitespace */
	{ S("\xc2\xa0[]"), "unexpected byte 0xc2" },
	/* numbers */
	{ S("01"), "at byte 1" },
	{ S("-"), "invalid number at byte 0" },
	{ S("-a"), "invalid number" },
	{ S("1."), "invalid number" },
	{ S("1.e5"), "invalid number" },
	{ S(".5"), "unexpected '.'" },
	{ S("1e"), "invalid number" },
	{ S("1e+"), "invalid number" },
	{ S("+1"), "unexpected '+'" },
	{ S("0x10"), "at byte 1" },
	{ S("-01"), "at byte 2" },
	{ S("[1,-]"), "invalid number at byte 3" },
	/* escapes */
	{ S("\"\\u0000\""), "\\u0000 escape at byte 1" },
	{ S("{\"a\\u0000\":1}"), "\\u0000 escape" },
	{ S("\"\\a\""), "invalid escape at byte 1" },
	{ S("\"\\x41\""), "invalid escape" },
	{ S("\"\\U0041\""), "invalid escape" },
	{ S("\"\\'\""), "invalid escape" },
	{ S("\"\\u12\""), "invalid \\u escape" },
	{ S("\"\\u12"), "invalid \\u escape" },
	{ S("\"\\uzzzz\""), "invalid \\u escape" },
	{ S("\"\\u+123\""), "invalid \\u escape" },
	{ S("\"\\ud83d\""), "lone surrogate escape at byte 1" },
	{ S("\"\\ud83dx\""), "lone surrogate" },
	{ S("\"\\ude00\""), "lone surrogate" },
	{ S("\"\\ude00\\ud83d\""), "lone surrogate" },
	{ S("\"\\ud83d\\ud83d\""), "lone surrogate" },
	{ S("\"\\ud83d\\u0041\""), "lone surrogate" },
	{ S("\"\\ud83d\\n\""), "lone surrogate" },
	{ S("\"\\ud83d\\ude0\""), "lone surrogate" },
	{ S("\"x\\udbff\""), "lone surrogate escape at byte 2" },
	/* raw NUL and control characters */
	{ S("\"a\0b\""), "NUL byte at byte 2" },
	{ S("[1,\0]"), "NUL byte at byte 3" },
	{ S("\0"), "NUL byte at byte 0" },
	{ S("\"a\tb\""), "control character 0x09 in string at byte 2" },
	{ S("\"a\nb\""), "control character 0x0a" },
	{ S("\"\x1f\""), "control character 0x1f" },
	{ S("{\"a\x01\":1}"), "control character 0x01" },
	/* invalid UTF-8 */
	{ S("\"\x80\""), "invalid UTF-8 at byte 1" },
	{ S("\"\xbf\""), "invalid UTF-8" },
	{ S("\"\xc0\x80\""), "invalid UTF-8" },		/* overlong NUL */
	{ S("\"\xc1\xbf\""), "invalid UTF-8" },		/* overlong */
	{ S("\"\xe0\x80\x80\""), "invalid UTF-8" },	/* overlong */
	{ S("\"\xe0\x9f\xbf\""), "invalid UTF-8" },	/* overlong */
	{ S("\"\xf0\x8f\xbf\xbf\""), "invalid UTF-8" },	/* overlong */
	{ S("\"\xed\xa0\x80\""), "invalid UTF-8" },	/* U+D800 */
	{ S("\"\xed\xbf\xbf\""), "invalid UTF-8" },	/* U+DFFF */
	{ S("\"\xed\xa0\xbd\xed\xb8\x80\""), "invalid UTF-8" },	/* CESU-8 */
	{ S("\"\xf4\x90\x80\x80\""), "invalid UTF-8" },	/* U+110000 */
	{ S("\"\xf5\x80\x80\x80\""), "invalid UTF-8" },
	{ S("\"\xf8\x88\x80\x80\x80\""), "invalid UTF-8" },
	{ S("\"\xfe\""), "invalid UTF-8" },
	{ S("\"\xff\""), "invalid UTF-8" },
	{ S("\"\xc3\""), "invalid UTF-8" },		/* cut before '"' */
	{ S("\"\xc3"), "invalid UTF-8" },		/* cut at the end */
	{ S("\"\xe2\x82\""), "invalid UTF-8" },
	{ S("\"\xf0\x9f\x98\""), "invalid UTF-8" },
	{ S("\"\xc3\xa9\xa9\""), "invalid UTF-8 at byte 3" },
	{ S("{\"\xe2\x84\":1}"), "invalid UTF-8" },
};

static void
test_reject(void **state)
{
	char err[128];
	size_t i;
	cJSON *t;

	(void)state;
	for (i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		memset(err, 'Z', sizeof(err));
		t = json_parse(rejects[i].in, rejects[i].len, err,
		    sizeof(err));
		if (t != NULL) {
			cJSON_Delete(t);
			fail_msg("case %zu accepted: %.*s", i,
			    (int)rejects[i].len, rejects[i].in);
		}
		if (memchr(err, '\0', sizeof(err)) == NULL || err[0] == '\0')
			fail_msg("case %zu: no error text", i);
		if (strstr(err, rejects[i].err) == NULL)
			fail_msg("case %zu: error \"%s\", want \"%s\"", i, err,
			    rejects[i].err);
	}
}

static void
test_error_buffer(void **state)
{
	char err[8];

	(void)state;
	/* err is optional, and a short one is cut and still terminated */
	assert_null(json_parse(S("{]"), NULL, 0));
	memset(err, 'Z', sizeof(err));
	assert_null(json_parse(S("{]"), err, sizeof(err)));
	assert_int_equal(strlen(err), sizeof(err) - 1);
	memset(err, 'Z', sizeof(err));
	assert_null(json_parse(S("{]"), err, 1));
	assert_int_equal(err[0], '\0');
	/* NULL text with length 0 is an empty input */
	assert_null(json_parse(NULL, 0, NULL, 0));
}

static void
test_too_large(void **state)
{
	char err[128];

	(void)state;
	/* the length is checked before any byte is read */
	assert_null(json_parse("{}", (size_t)JSON_MAX_TEXT + 1, err,
	    sizeof(err)));
	assert_non_null(strstr(err, "larger than"));
}

/* ---- nesting depth --------------------------------------------------- */

static char *
nested(int depth, int objects)
{
	char *s = xmalloc((size_t)depth * 6 + 8), *p = s;
	int i;

	for (i = 0; i < depth; i++) {
		if (objects && i % 2) {
			memcpy(p, "{\"a\":", 5);
			p += 5;
		} else
			*p++ = '[';
	}
	*p++ = '0';
	for (i = depth - 1; i >= 0; i--)
		*p++ = objects && i % 2 ? '}' : ']';
	*p = '\0';
	return s;
}

static void
test_depth(void **state)
{
	char err[128], *s, *z, *p;
	cJSON *t;
	int objects;

	(void)state;
	for (objects = 0; objects < 2; objects++) {
		s = nested(JSON_MAX_DEPTH, objects);
		t = json_parse(s, strlen(s), err, sizeof(err));
		assert_non_null(t);
		free(s);
		cJSON_Delete(t);

		s = nested(JSON_MAX_DEPTH + 1, objects);
		assert_null(json_parse(s, strlen(s), err, sizeof(err)));
		assert_non_null(strstr(err, "nesting deeper than 64"));
		free(s);

		/* deeper than that never recurses further */
		s = nested(100000, objects);
		assert_null(json_parse(s, strlen(s), err, sizeof(err)));
		assert_non_null(strstr(err, "nesting deeper than 64"));
		free(s);
	}
	/* depth counts open containers, not all seen ones */
	s = nested(JSON_MAX_DEPTH - 1, 1);
	z = nested(JSON_MAX_DEPTH - 1, 0);
	p = xmalloc(strlen(s) * 2 + strlen(z) + 8);
	sprintf(p, "[%s,%s,%s]", s, z, s);
	t = json_parse(p, strlen(p), err, sizeof(err));
	assert_non_null(t);
	cJSON_Delete(t);
	free(p);
	free(s);
	free(z);
}

/* ---- tree shape ------------------------------------------------------- */

static void
test_tree(void **state)
{
	cJSON *t, *v;

	(void)state;
	/* B12: escapes in keys are decoded before any comparison */
	t = must_parse(S("{\"HostConfig\":{\"Privil\\u0065ged\":true}}"));
	v = json_get(json_get(t, "HostConfig"), "Privileged");
	assert_non_null(v);
	assert_true(cJSON_IsTrue(v));
	cJSON_Delete(t);

	/* json_get is exact and returns the first duplicate */
	t = must_parse(S("{\"a\":1,\"A\":2,\"a\":3,\"b\":\"x\\u0041\"}"));
	v = json_get(t, "a");
	assert_non_null(v);
	assert_true(json_is_number(v));
	assert_string_equal(v->valuestring, "1");
	assert_string_equal(json_get(t, "A")->valuestring, "2");
	assert_null(json_get(t, "B"));
	assert_null(json_get(t, ""));
	assert_string_equal(json_get(t, "b")->valuestring, "xA");
	assert_true(cJSON_IsString(json_get(t, "b")));
	assert_int_equal(cJSON_GetArraySize(t), 4);
	assert_null(json_get(NULL, "a"));
	cJSON_Delete(t);

	/* arrays have no members */
	t = must_parse(S("[{\"a\":1}]"));
	assert_null(json_get(t, "a"));
	assert_true(cJSON_IsArray(t));
	assert_true(cJSON_IsObject(t->child));
	cJSON_Delete(t);

	/* numbers are Raw nodes holding the lexeme */
	t = must_parse(S("[ -0.0e+1 ]"));
	assert_int_equal(t->child->type & 0xff, cJSON_Raw);
	assert_string_equal(t->child->valuestring, "-0.0e+1");
	cJSON_Delete(t);
}

/* ---- serialiser -------------------------------------------------------- */

static void
test_serialize_escaping(void **state)
{
	char all[128], want[1024], *s, *w;
	cJSON *t;
	int c;

	(void)state;
	/* every byte 0x01..0x7f: controls as \u00xx lower-case, '"' and '\\' */
	for (c = 1; c < 128; c++)
		all[c - 1] = (char)c;
	all[127] = '\0';
	w = want;
	*w++ = '"';
	for (c = 1; c < 128; c++) {
		if (c < 0x20)
			w += sprintf(w, "\\u%04x", c);
		else if (c == '"' || c == '\\') {
			*w++ = '\\';
			*w++ = (char)c;
		} else
			*w++ = (char)c;
	}
	*w++ = '"';
	*w = '\0';
	t = cJSON_CreateString(all);
	s = ser(t);
	assert_string_equal(s, want);
	assert_non_null(strstr(s, "\\u001b"));
	assert_non_null(strstr(s, "\\u000a"));
	assert_null(strstr(s, "\\n"));
	assert_null(strstr(s, "\\/"));
	free(s);
	cJSON_Delete(t);

	/* UTF-8 stays raw; keys are escaped like strings */
	t = cJSON_CreateObject();
	cJSON_AddItemToObject(t, "k\"\\\x01\xc3\xa9", cJSON_CreateString(
	    "\xf0\x9f\x98\x80\x7f/"));
	s = ser(t);
	assert_string_equal(s, "{\"k\\\"\\\\\\u0001\xc3\xa9\":"
	    "\"\xf0\x9f\x98\x80\x7f/\"}");
	free(s);
	cJSON_Delete(t);
}

static void
test_serialize_nodes(void **state)
{
	cJSON *t;
	char *s;
	size_t n;

	(void)state;
	t = cJSON_CreateArray();
	cJSON_AddItemToArray(t, cJSON_CreateNumber(3));
	cJSON_AddItemToArray(t, cJSON_CreateNumber(-42));
	cJSON_AddItemToArray(t, cJSON_CreateNumber(2.5));
	cJSON_AddItemToArray(t, cJSON_CreateNumber(0.1));
	cJSON_AddItemToArray(t, cJSON_CreateNumber(1e300));
	cJSON_AddItemToArray(t, json_new_number("9223372036854775807"));
	cJSON_AddItemToArray(t, json_new_number("-1.5e-7"));
	cJSON_AddItemToArray(t, cJSON_CreateTrue());
	cJSON_AddItemToArray(t, cJSON_CreateFalse());
	cJSON_AddItemToArray(t, cJSON_CreateBool(1));
	cJSON_AddItemToArray(t, cJSON_CreateNull());
	cJSON_AddItemToArray(t, cJSON_CreateString(""));
	cJSON_AddItemToArray(t, cJSON_CreateObject());
	cJSON_AddItemToArray(t, cJSON_CreateArray());
	s = json_serialize(t, &n);
	assert_string_equal(s, "[3,-42,2.5,0.10000000000000001,"
	    "1.0000000000000001e+300,9223372036854775807,-1.5e-7,true,false,"
	    "true,null,\"\",{},[]]");
	assert_int_equal(n, strlen(s));
	free(s);
	cJSON_Delete(t);

	/* members appended by a rewrite go at the end, in tree order */
	t = must_parse(S("{\"b\":1,\"a\":{}}"));
	cJSON_AddItemToObject(json_get(t, "a"), "z", cJSON_CreateString("q"));
	cJSON_AddItemToObject(t, "Labels", cJSON_CreateObject());
	s = json_serialize(t, NULL);
	assert_string_equal(s, "{\"b\":1,\"a\":{\"z\":\"q\"},\"Labels\":{}}");
	free(s);
	cJSON_Delete(t);

	s = json_serialize(NULL, &n);
	assert_string_equal(s, "null");
	assert_int_equal(n, 4);
	free(s);
}

/* ---- folds and collisions ---------------------------------------------- */

static void
test_fold(void **state)
{
	char out[64];
	cJSON *t;

	(void)state;
	assert_int_equal(json_fold("HostConfig", out, sizeof(out)), 10);
	assert_string_equal(out, "hostconfig");
	/* B13: U+017F long s, U+212A Kelvin sign */
	assert_int_equal(json_fold("Bind\xc5\xbf", out, sizeof(out)), 5);
	assert_string_equal(out, "binds");
	json_fold("Networ\xe2\x84\xaaMode", out, sizeof(out));
	assert_string_equal(out, "networkmode");
	/* other non-ASCII is left as it is (no Unicode lower-casing) */
	json_fold("\xc3\x89T\xc3\xa9", out, sizeof(out));
	assert_string_equal(out, "\xc3\x89t\xc3\xa9");
	json_fold("\xe2\x84\xab", out, sizeof(out));	/* Angstrom sign */
	assert_string_equal(out, "\xe2\x84\xab");
	json_fold("\xc5\xbe", out, sizeof(out));	/* U+017E */
	assert_string_equal(out, "\xc5\xbe");
	json_fold("A-Z_az09@[`{", out, sizeof(out));
	assert_string_equal(out, "a-z_az09@[`{");
	assert_int_equal(json_fold("", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	/* a short buffer gets a cut, terminated fold; the length is whole */
	assert_int_equal(json_fold("ABCDEF", out, 4), 6);
	assert_string_equal(out, "abc");

	assert_true(json_fold_eq("Binds", "bind\xc5\xbf"));
	assert_true(json_fold_eq("NETWORKMODE", "Networ\xe2\x84\xaaMode"));
	assert_true(json_fold_eq("", ""));
	assert_false(json_fold_eq("Binds", "Bind"));
	assert_false(json_fold_eq("Bind", "Binds"));
	assert_false(json_fold_eq("\xc3\xa9", "\xc3\x89"));
	assert_false(json_fold_eq("s", "\xc5\xbe"));
	assert_false(json_fold_eq("k", "\xe2\x84\xab"));

	/* B13 through the parser: the escaped key decodes, then folds */
	t = must_parse(S("{\"Bind\\u017f\":[],\"Networ\\u212aMode\":\"host\"}"));
	assert_true(json_fold_eq(t->child->string, "binds"));
	assert_true(json_fold_eq(t->child->next->string, "NetworkMode"));
	cJSON_Delete(t);
}

struct collision_case {
	const char *in;
	int fold;
	int found;
	const char *a, *b;
};

static const struct collision_case collisions[] = {
	{ "{}", 1, 0, NULL, NULL },
	{ "{\"a\":1}", 1, 0, NULL, NULL },
	{ "{\"a\":1,\"b\":2,\"c\":3}", 1, 0, NULL, NULL },
	/* B14: identical keys always collide */
	{ "{\"Privileged\":false,\"Privileged\":true}", 0, 1, "Privileged", "Privileged" },
	{ "{\"Privileged\":false,\"Privileged\":true}", 1, 1, "Privileged", "Privileged" },
	{ "{\"HostConfig\":{},\"x\":1,\"HostConfig\":{}}", 0, 1, "HostConfig", "HostConfig" },
	{ "{\"a\\u0062\":1,\"ab\":2}", 0, 1, "ab", "ab" },
	/* case variants collide only with fold, sorted bytewise */
	{ "{\"privileged\":true,\"Privileged\":false}", 0, 0, NULL, NULL },
	{ "{\"privileged\":true,\"Privileged\":false}", 1, 1, "Privileged", "privileged" },
	{ "{\"Binds\":[],\"Bind\\u017f\":[]}", 1, 1, "Binds", "Bind\xc5\xbf" },
	{ "{\"Bind\\u017f\":[],\"binds\":[]}", 1, 1, "Bind\xc5\xbf", "binds" },
	{ "{\"Bind\\u017f\":[],\"binds\":[]}", 0, 0, NULL, NULL },
	{ "{\"Networ\\u212aMode\":\"\",\"NetworkMode\":\"\"}", 1, 1, "NetworkMode", "Networ\xe2\x84\xaaMode" },
	/* map-typed objects: HTTP_PROXY and http_proxy are different keys */
	{ "{\"HTTP_PROXY\":\"x\",\"http_proxy\":\"x\"}", 0, 0, NULL, NULL },
	{ "{\"HTTP_PROXY\":\"x\",\"http_proxy\":\"x\"}", 1, 1, "HTTP_PROXY", "http_proxy" },
	/* no Unicode folding beyond the two mappings */
	{ "{\"\\u00e9\":1,\"\\u00c9\":2}", 1, 0, NULL, NULL },
	{ "{\"\\u212b\":1,\"\\u00e5\":2}", 1, 0, NULL, NULL },
	/* several pairs: the earliest member that repeats an earlier one */
	{ "{\"z\":1,\"y\":2,\"Y\":3,\"Z\":4}", 1, 1, "Y", "y" },
	{ "{\"z\":1,\"y\":2,\"y\":3,\"z\":4}", 0, 1, "y", "y" },
	{ "{\"b\":1,\"B\":2,\"a\":3,\"a\":4}", 1, 1, "B", "b" },
	{ "{\"b\":1,\"B\":2,\"a\":3,\"a\":4}", 0, 1, "a", "a" },
	{ "{\"k\":1,\"x\":2,\"K\":3,\"\\u212a\":4}", 1, 1, "K", "k" },
	/* empty keys */
	{ "{\"\":1,\"\":2}", 0, 1, "", "" },
};

static void
test_collisions(void **state)
{
	const char *a, *b;
	cJSON *t;
	size_t i;
	int r;

	(void)state;
	for (i = 0; i < sizeof(collisions) / sizeof(collisions[0]); i++) {
		t = must_parse(collisions[i].in, strlen(collisions[i].in));
		a = b = NULL;
		r = json_find_collision(t, collisions[i].fold, &a, &b);
		if (r != collisions[i].found)
			fail_msg("case %zu: %s fold=%d: got %d", i,
			    collisions[i].in, collisions[i].fold, r);
		if (r) {
			assert_non_null(a);
			assert_non_null(b);
			if (strcmp(a, collisions[i].a) != 0 ||
			    strcmp(b, collisions[i].b) != 0)
				fail_msg("case %zu: got %s / %s", i, a, b);
		}
		cJSON_Delete(t);
	}

	/* only objects have collisions */
	t = must_parse(S("[1,1]"));
	assert_int_equal(json_find_collision(t, 1, &a, &b), 0);
	cJSON_Delete(t);
	assert_int_equal(json_find_collision(NULL, 1, &a, &b), 0);
}

/* 100k members: collisions must not be quadratic. */
static void
test_collisions_big(void **state)
{
	enum { N = 100000 };
	char *s = xmalloc((size_t)N * 20 + 64), *p = s;
	const char *a, *b;
	cJSON *t;
	int i;

	(void)state;
	*p++ = '{';
	for (i = 0; i < N; i++)
		p += sprintf(p, "%s\"Key%d\":%d", i ? "," : "", i, i);
	strcpy(p, "}");
	t = must_parse(s, strlen(s));
	assert_int_equal(json_find_collision(t, 1, &a, &b), 0);
	assert_int_equal(json_find_collision(t, 0, &a, &b), 0);
	cJSON_AddItemToObject(t, "KEY77777", cJSON_CreateNull());
	assert_int_equal(json_find_collision(t, 0, &a, &b), 0);
	assert_int_equal(json_find_collision(t, 1, &a, &b), 1);
	assert_string_equal(a, "KEY77777");
	assert_string_equal(b, "Key77777");
	cJSON_AddItemToObject(t, "Key5", cJSON_CreateNull());
	assert_int_equal(json_find_collision(t, 0, &a, &b), 1);
	assert_string_equal(a, "Key5");
	assert_string_equal(b, "Key5");
	cJSON_Delete(t);
	free(s);
}

/* ---- truthiness and numbers -------------------------------------------- */

struct truthy_case {
	const char *in;
	int truthy;
	int negative;
};

static const struct truthy_case truthies[] = {
	{ "null", 0, 0 },
	{ "false", 0, 0 },
	{ "true", 1, 0 },
	{ "0", 0, 0 },
	{ "-0", 0, 0 },
	{ "0.0", 0, 0 },
	{ "0e3", 0, 0 },
	{ "0E-3", 0, 0 },
	{ "-0.000e-5", 0, 0 },
	{ "-0.0e+1", 0, 0 },
	{ "0.00000000000000000000000000001", 1, 0 },
	{ "1e-400", 1, 0 },
	{ "1", 1, 0 },
	{ "-1", 1, 1 },
	{ "-0.5", 1, 1 },
	{ "-0.0001e10", 1, 1 },
	{ "10", 1, 0 },
	{ "0.1", 1, 0 },
	{ "1e400", 1, 0 },
	{ "-1e-400", 1, 1 },
	{ "9223372036854775807", 1, 0 },
	{ "\"\"", 0, 0 },
	{ "\"0\"", 1, 0 },
	{ "\"false\"", 1, 0 },
	{ "\" \"", 1, 0 },
	{ "[]", 0, 0 },
	{ "[0]", 1, 0 },
	{ "[null]", 1, 0 },
	{ "{}", 0, 0 },
	{ "{\"a\":null}", 1, 0 },
};

static void
test_truthy(void **state)
{
	cJSON *t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(truthies) / sizeof(truthies[0]); i++) {
		t = must_parse(truthies[i].in, strlen(truthies[i].in));
		if (json_truthy(t) != truthies[i].truthy)
			fail_msg("truthy(%s) != %d", truthies[i].in,
			    truthies[i].truthy);
		if (json_number_negative(t) != truthies[i].negative)
			fail_msg("negative(%s) != %d", truthies[i].in,
			    truthies[i].negative);
		if (json_is_number(t) != (truthies[i].in[0] == '-' ||
		    (truthies[i].in[0] >= '0' && truthies[i].in[0] <= '9')))
			fail_msg("is_number(%s)", truthies[i].in);
		cJSON_Delete(t);
	}
	assert_false(json_truthy(NULL));
	assert_false(json_is_number(NULL));
	assert_false(json_number_negative(NULL));

	/* real cJSON numbers (not made by our code) are understood too */
	t = cJSON_CreateNumber(0);
	assert_false(json_truthy(t));
	assert_true(json_is_number(t));
	cJSON_Delete(t);
	t = cJSON_CreateNumber(-2);
	assert_true(json_truthy(t));
	assert_true(json_number_negative(t));
	cJSON_Delete(t);

	t = json_new_number("-0.0");
	assert_true(json_is_number(t));
	assert_false(json_truthy(t));
	assert_false(json_number_negative(t));
	cJSON_Delete(t);
}

/* ---- mutations: every flipped byte / cut never crashes ----------------- */

static const char *const seeds[] = {
	"{\"Image\":\"alpine\",\"Cmd\":[\"sh\",\"-c\",\"echo \\\"hi\\\"\"],"
	"\"HostConfig\":{\"Binds\":[\"/p:/p:ro\"],\"Memory\":0,"
	"\"Privileged\":false,\"Dns\":null,\"CpuQuota\":-1.5e+3}}",
	"[\"\\u00e9\\ud83d\\ude00\xc3\xa9\xf0\x9f\x98\x80\xe2\x84\xaa\","
	"true,false,null,0.25,-0,{\"a\\nb\":{\"\":[[]]}}]",
	"{\"Labels\":{\"org.apache.magpie.project\":\"/home/u/p\"},"
	"\"Env\":[\"A=1\",\"B=\\t\"],\"n\":12345678901234567890}",
};

static void
check_mutant(const char *in, size_t len)
{
	char err[128], *s1, *s2;
	cJSON *t, *t2;

	err[0] = 'Z';
	t = json_parse(in, len, err, sizeof(err));
	if (t == NULL) {
		if (err[0] == '\0' || err[0] == 'Z' ||
		    memchr(err, '\0', sizeof(err)) == NULL)
			fail_msg("mutant rejected without a reason");
		return;
	}
	s1 = json_serialize(t, NULL);
	t2 = json_parse(s1, strlen(s1), err, sizeof(err));
	if (t2 == NULL)
		fail_msg("output of a mutant does not parse: %s: %s", s1, err);
	s2 = json_serialize(t2, NULL);
	if (strcmp(s1, s2) != 0)
		fail_msg("mutant has no fixpoint: %s / %s", s1, s2);
	free(s1);
	free(s2);
	cJSON_Delete(t);
	cJSON_Delete(t2);
}

static void
test_mutations(void **state)
{
	static const unsigned char subst[] = {
		0x00, 0x01, 0x1f, ' ', '"', '\\', '/', '{', '}', '[', ']',
		',', ':', '0', '-', 'e', '.', 'u', 'd', 0x7f, 0x80, 0xbf,
		0xc3, 0xed, 0xf4, 0xff,
	};
	size_t i, k, m, len;
	char *buf;

	(void)state;
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		len = strlen(seeds[i]);
		/* the seeds themselves are valid */
		free(canon(seeds[i], len));
		buf = xmalloc(len + 1);
		for (k = 0; k <= len; k++) {	/* every cut, in a tight buffer */
			char *cut = xmalloc(k ? k : 1);

			memcpy(cut, seeds[i], k);
			check_mutant(cut, k);
			free(cut);
		}
		for (k = 0; k < len; k++) {
			memcpy(buf, seeds[i], len);
			for (m = 0; m < 8; m++) {	/* each bit */
				buf[k] = (char)(seeds[i][k] ^ (1 << m));
				check_mutant(buf, len);
			}
			for (m = 0; m < sizeof(subst); m++) {
				buf[k] = (char)subst[m];
				check_mutant(buf, len);
			}
			/* a deleted byte */
			memcpy(buf, seeds[i], k);
			memcpy(buf + k, seeds[i] + k + 1, len - k - 1);
			check_mutant(buf, len - 1);
		}
		free(buf);
	}
}

/* ---- speed ------------------------------------------------------------- */

/* A few MiB of mixed JSON; fails only if it is grossly slow. */
static void
test_large(void **state)
{
	enum { ITEMS = 40000 };
	size_t cap = (size_t)ITEMS * 160, n = 0, outlen;
	char *s = xmalloc(cap), *out;
	clock_t t0;
	cJSON *t;
	int i;

	(void)state;
	s[n++] = '[';
	for (i = 0; i < ITEMS; i++)
		n += (size_t)snprintf(s + n, cap - n,
		    "%s{\"id\":%d,\"name\":\"item \\u00e9 %d\",\"v\":-1.5e3,"
		    "\"ok\":true,\"tags\":[\"a\",\"b\",null],\"s\":\"\xc3\xa9"
		    "xxxxxxxxxxxx\"}", i ? "," : "", i, i);
	s[n++] = ']';
	t0 = clock();
	t = must_parse(s, n);
	out = json_serialize(t, &outlen);
	if ((double)(clock() - t0) / CLOCKS_PER_SEC > 20)
		fail_msg("parsing %zu bytes is too slow", n);
	assert_int_equal(cJSON_GetArraySize(t), ITEMS);
	assert_true(outlen < n);	/* \u00e9 became 2 raw bytes */
	free(out);
	cJSON_Delete(t);
	free(s);
}

/*
 * The parse-size bound of the monitor's memory budget (json_tree_bound):
 * it is at least what the parse takes for the densest texts (measured
 * with mallinfo2 around the parse), and json_parse() refuses a text over
 * the limit set with json_set_tree_limit().
 */
static void
test_tree_bound(void **state)
{
	static const char *const dense[] = { "0,", "\"\",", "[],", "{},",
	    "{\"a\":0},", "true," };
	char *text, err[128];
	size_t i, k, n = 20000, len;
	struct mallinfo2 a, b;
	cJSON *t;

	(void)state;
	for (i = 0; i < sizeof(dense) / sizeof(dense[0]); i++) {
		len = strlen(dense[i]);
		text = xmalloc(n * len + 3);
		text[0] = '[';
		for (k = 0; k < n; k++)
			memcpy(text + 1 + k * len, dense[i], len);
		text[n * len] = ']';	/* over the last comma */
		text[n * len + 1] = '\0';
		a = mallinfo2();
		t = json_parse(text, n * len + 1, err, sizeof(err));
		b = mallinfo2();
		assert_non_null(t);
		/* what the tree holds (arena and mmap'd) stays within the bound */
		assert_true(b.uordblks + b.hblkhd - a.uordblks - a.hblkhd <=
		    json_tree_bound(text, n * len + 1));
		cJSON_Delete(t);
		/* over the limit: refused, nothing allocated for it */
		json_set_tree_limit(json_tree_bound(text, n * len + 1) - 1);
		assert_null(json_parse(text, n * len + 1, err, sizeof(err)));
		assert_non_null(strstr(err, "too dense"));
		json_set_tree_limit(SIZE_MAX);
		free(text);
	}
	assert_true(json_tree_bound("0", 1) >= 112);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_reject),
		cmocka_unit_test(test_error_buffer),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_serialize_escaping),
		cmocka_unit_test(test_serialize_nodes),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_collisions_big),
		cmocka_unit_test(test_truthy),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_tree_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
