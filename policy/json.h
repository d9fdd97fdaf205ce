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
 * Parse text[0..len) per RFC 8259 and policy.md §0.1: invalid syntax,
 * invalid UTF-8, \u0000 or a raw NUL, a lone or mis-paired surrogate
 * escape, nesting deeper than JSON_MAX_DEPTH, len > JSON_MAX_TEXT, empty
 * input or any non-whitespace byte after the value fail. text may be NULL
 * when len is 0. Returns the tree (the caller frees it with cJSON_Delete)
 * or NULL with a short English reason in err (errlen bytes, always
 * NUL-terminated when errlen > 0; err may be NULL), e.g. "unexpected end
 * of input at byte 12". Any top-level value is accepted (callers check
 * the type). Exits through xoom() on allocation failure.
 */
cJSON *json_parse(const char *text, size_t len, char *err, size_t errlen);

/*
 * At most how many bytes json_parse() allocates for text[0..len) at once:
 * 112 bytes per value (a cJSON node, a malloc chunk of 80, and its string
 * or number lexeme, a chunk of 32 for up to 23 bytes), 32 per member key,
 * and 4 bytes per input byte (longer strings and keys, the parser's
 * scratch buffer, a serialisation of the tree). Values are counted from
 * the text without parsing it: at most one per ',', '[' and '{', plus
 * one (keys: one per ':'); bytes inside strings count too, so the bound
 * only errs high. The densest text, "0," or "\"\",", costs 56 or 37
 * bytes per input byte; a JSON create body of everyday size about 5.
 * (the monitor's memory budget parses one tree at a time, in
 * an area of its own.)
 */
size_t json_tree_bound(const char *text, size_t len);

/*
 * Make json_parse() refuse text whose json_tree_bound() exceeds bytes
 * ("too dense for ..."), in this process from now on (the monitor's
 * memory budget, monitor/budget.c; SIZE_MAX: no limit, the default).
 */
void json_set_tree_limit(size_t bytes);

/*
 * Serialise node compactly (policy.md §0.6): members in tree order,
 * strings escaped minimally ('"', '\\', bytes < 0x20 as \u00xx lower-case
 * hex, 0x7f and all else raw), numbers as their lexeme. Returns a
 * malloc'd NUL-terminated string (the caller frees it) and its length in
 * bytes in *len (len may be NULL); exits through xoom() on allocation
 * failure.
 */
char *json_serialize(const cJSON *node, size_t *len);

/*
 * Go-compatible key fold (policy.md §0.2): ASCII lower-case, U+017F -> 's',
 * U+212A -> 'k', other bytes unchanged; key NUL-terminated. Like snprintf:
 * writes at most outsz - 1 bytes plus a NUL into out (when outsz > 0) and
 * returns the full fold length, which is never more than strlen(key).
 */
size_t json_fold(const char *key, char *out, size_t outsz);

/* 1 when the folds (json_fold) of a and b are equal, else 0. */
int json_fold_eq(const char *a, const char *b);

/*
 * Find a colliding pair of members in object obj (policy.md §0.2):
 * identical keys always; with fold != 0 also keys with equal folds. Of
 * several pairs, the one whose later member comes first in the input.
 * Returns 1 and sets *a, *b to the two keys sorted bytewise (pointers into
 * obj), else 0 (also for NULL or a non-object obj).
 */
int json_find_collision(const cJSON *obj, int fold, const char **a,
    const char **b);

/*
 * Truthiness (policy.md §0.4): true, a non-zero number, a non-empty
 * string, array or object. NULL (absent), null and false are falsy.
 */
int json_truthy(const cJSON *v);

/*
 * 1 for a number node: a cJSON_Raw holding a lexeme (from json_parse) or
 * a cJSON_Number; 0 for anything else or NULL.
 */
int json_is_number(const cJSON *v);

/* 1 for a number whose value is negative and non-zero ("-0" is not). */
int json_number_negative(const cJSON *v);

/*
 * First member of obj whose key equals key exactly, or NULL (also when
 * obj is NULL or not an object).
 */
cJSON *json_get(const cJSON *obj, const char *key);
/* The string value of json_get(obj, key), or NULL (none, or not a string). */
const char *json_str(const cJSON *obj, const char *key);

/*
 * item, a node cJSON just made; exits through xoom() when it is NULL (cJSON
 * out of memory). The one NULL check for every cJSON_Create*() call.
 */
cJSON *json_checked(cJSON *item);

/*
 * New number node from a lexeme; abort()s when lexeme is not a valid JSON
 * number (a programming error), exits through xoom() on allocation
 * failure. XXX only used by tests/test_json.c.
 */
cJSON *json_new_number(const char *lexeme);

#endif
