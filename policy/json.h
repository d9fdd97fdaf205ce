/*
 * Strict JSON for every JSON the gateway reads (policy.md §0): request
 * bodies, JSON-valued query parameters, backend inspect responses.
 *
 * The tree is cJSON's (a well-kept DOM with insertion-ordered members),
 * but parsing and printing are our own, because cJSON's stock parser keeps
 * the first duplicate, accepts trailing bytes and NUL escapes, and
 * re-prints numbers from doubles (policy.md §0.1 non-goals):
 *   - numbers are cJSON_Raw nodes whose valuestring is the original lexeme;
 *   - object members keep input order and duplicates are kept (collision
 *     rules run on the tree, json_find_collision);
 *   - strings are decoded (escapes resolved) and are valid UTF-8 without NUL.
 */
#ifndef CG_JSON_H
#define CG_JSON_H

#include <stddef.h>
#include <cjson/cJSON.h>

#define JSON_MAX_DEPTH	64		/* arrays + objects (policy.md §0.1) */
#define JSON_MAX_TEXT	(8u << 20)	/* bytes (http.md §4.2) */

/*
 * Parse text[0..len) (len <= JSON_MAX_TEXT) per RFC 8259 and policy.md
 * §0.1: invalid syntax, invalid UTF-8, \u0000 or a raw NUL, a lone or
 * mis-paired surrogate escape, nesting deeper than JSON_MAX_DEPTH, or any
 * non-whitespace byte after the value fail.
 * Returns the tree (free with cJSON_Delete) or NULL with a short English
 * reason in err (errlen bytes, NUL-terminated), e.g. "unexpected end of
 * input at byte 12". Any top-level value is accepted (callers check type).
 */
cJSON *json_parse(const char *text, size_t len, char *err, size_t errlen);

/*
 * Serialise compactly (policy.md §0.6): members in tree order, strings
 * escaped minimally ('"', '\\', bytes < 0x20 as \u00xx lower-case hex,
 * 0x7f and all else raw), numbers as their lexeme. Returns a malloc'd
 * NUL-terminated string and its length (bytes) in *len; aborts on OOM.
 */
char *json_serialize(const cJSON *node, size_t *len);

/*
 * Go-compatible key fold (policy.md §0.2): ASCII lower-case, U+017F -> 's',
 * U+212A -> 'k', other bytes unchanged. Writes a NUL-terminated fold of key
 * into out (outsz bytes; the fold is never longer than the key) and
 * returns its length.
 */
size_t json_fold(const char *key, char *out, size_t outsz);

/* 1 when the folds of a and b are equal. */
int json_fold_eq(const char *a, const char *b);

/*
 * Find a colliding pair of members in object obj (policy.md §0.2):
 * identical keys always; with fold != 0 also keys with equal folds.
 * Returns 1 and sets *a, *b to the two keys sorted bytewise, else 0.
 */
int json_find_collision(const cJSON *obj, int fold, const char **a,
    const char **b);

/* Truthiness (policy.md §0.4). NULL (absent) is falsy. */
int json_truthy(const cJSON *v);

/* 1 for a number node (cJSON_Raw holding a lexeme). */
int json_is_number(const cJSON *v);

/* 1 for a number whose value is negative and non-zero. */
int json_number_negative(const cJSON *v);

/* Member of obj whose key equals key exactly (first one), or NULL. */
cJSON *json_get(const cJSON *obj, const char *key);

/* New number node from a lexeme (must be a valid JSON number). */
cJSON *json_new_number(const char *lexeme);

#endif
