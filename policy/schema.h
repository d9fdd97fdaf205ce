/*
 * Table-driven schema checker for JSON request bodies (policy.md §0.2-§0.5,
 * §3 steps 3-6). One const struct sc_schema per object kind holds its
 * allow-list (with type guards and how to descend into members), its
 * refused-when-truthy table and its known-but-not-accepted keys. Objects
 * not described by a schema are opaque: only the collision rules apply.
 */
#ifndef CG_POLICY_SCHEMA_H
#define CG_POLICY_SCHEMA_H

#include <cjson/cJSON.h>

#include "base/gwerror.h"

/* Type guards (policy.md §0.5); SC_ANY: no guard. null always passes. */
enum sc_type {
	SC_ANY = 0,
	SC_OBJ,		/* object */
	SC_LIST,	/* array */
	SC_LIST_STR,	/* array of strings */
	SC_LIST_OBJ,	/* array of objects */
	SC_MAP_STR,	/* object whose values are strings */
	SC_STR,
	SC_BOOL,
	SC_NUM,
};

/* How the checker descends into a member's value. */
enum sc_shape {
	SC_LEAF = 0,	/* nothing below is schema-checked (opaque) */
	SC_SUB,		/* object checked against sub */
	SC_SUB_EACH,	/* array; each object element checked against sub */
	SC_MAP,		/* map-typed object (§0.2: only identical keys collide) */
	SC_LABELS,	/* map-typed label map (§0.2 project-label spelling rule) */
	SC_MAP_SUB,	/* map-typed object whose values are checked against sub */
	SC_MAP_SUB_EACH, /* map-typed object whose values are arrays of sub */
};

struct sc_schema;

/* One allow-listed key. */
struct sc_member {
	const char *key;
	enum sc_type type;
	enum sc_shape shape;
	const struct sc_schema *sub;
	/*
	 * Traversal group of the objects below this member (§3 step 6 order):
	 * 0 = checked together with the parent, in document order; N > 0 =
	 * checked in the N-th pass over the tree.
	 */
	int group;
};

/* A refused-when-truthy key. detail NULL means "<key> is refused". */
struct sc_refused {
	const char *key;
	const char *code;
	const char *detail;
};

struct sc_schema {
	const char *name;			/* for debugging only */
	const struct sc_member *members;	/* allow-list, {NULL} ended */
	const struct sc_refused *refused;	/* or NULL; {NULL} ended */
	const char *const *known;		/* known, not accepted; or NULL */
	int refused_by_fold;	/* refused keys are matched by their fold
				 * (policy.md §8.1 table) and are not
				 * canonical spellings */
	int opaque;		/* keys unchecked: members only describe maps
				 * below for the collision rules */
	int groups;		/* root only: highest group number used */
};

/*
 * Run policy.md §3 steps 3-6 on obj (an object) against root: key
 * collisions in every object of the tree (§0.2, map-typed objects by the
 * tables), then type guards (§0.5), canonical spelling (§0.3.1) and key
 * rules (§0.3.2-3) on the schema-checked objects in the traversal order of
 * the tables. root NULL: only the collision rules, every object treated
 * as a struct. Returns 0, or -1 with *r set (malformed, ambiguous-field,
 * unknown-field or a refused-table code). Does not modify the tree.
 */
int schema_check(const struct sc_schema *root, const cJSON *obj,
    struct cg_refusal *r);

/*
 * The key of s (an allow-listed member, a refused-table key unless
 * refused_by_fold, a known key) that key (NUL-terminated) names under Go's
 * case-insensitive field match (json_fold_eq), checked in that order; NULL
 * when none does. Used for the canonical spelling (policy.md §0.3.1) and
 * the leniency rule (doc/leniency.md).
 */
const char *schema_fold_key(const struct sc_schema *s, const char *key);

/* The object kinds of policy.md §1, §2, §7-§13 (schema_tables.c). */
extern const struct sc_schema sc_compat_create;		/* §1 */
extern const struct sc_schema sc_libpod_create;		/* §2 */
extern const struct sc_schema sc_pod_create;		/* §7 */
extern const struct sc_schema sc_exec_create;		/* §8.1 */
extern const struct sc_schema sc_exec_start;		/* §8.2 */
extern const struct sc_schema sc_exec_remove;		/* §8.3 */
extern const struct sc_schema sc_compat_update;		/* §9 */
extern const struct sc_schema sc_libpod_update;		/* §9 */
extern const struct sc_schema sc_compat_volume_create;	/* §11 */
extern const struct sc_schema sc_libpod_volume_create;	/* §11 */
extern const struct sc_schema sc_compat_network_create;	/* §12.1 */
extern const struct sc_schema sc_libpod_network_create;	/* §12.2 */
extern const struct sc_schema sc_compat_connect;	/* §12.3 */
extern const struct sc_schema sc_disconnect;		/* §12.3 */
extern const struct sc_schema sc_libpod_connect;	/* §12.3 */
extern const struct sc_schema sc_commit;		/* §13.1 */

#endif
