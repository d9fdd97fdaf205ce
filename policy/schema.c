/*
 * The schema checker (policy.md §0.2-§0.5, §3 steps 3-6): key collisions
 * in every object of the tree, then type guards, canonical spelling and
 * key rules on the schema-checked objects, pass by pass in the traversal
 * order of the tables (schema_tables.c). Reads the tree, never changes it.
 */
#include "policy/schema.h"

#include <stdio.h>
#include <string.h>

#include "base/gwerror.h"
#include "policy/json.h"
#include "policy/types.h"


#define SC_PATH_MAX 600

enum sc_pass { PASS_GUARDS, PASS_SPELLING, PASS_KEYS };

struct walk {
	enum sc_pass pass;
	int group;
	struct cg_refusal *r;
	size_t len;
	char path[SC_PATH_MAX];
};

static const struct sc_member *
find_member(const struct sc_schema *s, const char *key)
{
	const struct sc_member *m;

	if (s == NULL || key == NULL)
		return NULL;
	for (m = s->members; m->key != NULL; m++)
		if (strcmp(m->key, key) == 0)
			return m;
	return NULL;
}

static const struct sc_refused *
find_refused(const struct sc_schema *s, const char *key, int by_fold)
{
	const struct sc_refused *f;

	if (s->refused == NULL)
		return NULL;
	for (f = s->refused; f->key != NULL; f++)
		if (by_fold ? json_fold_eq(key, f->key) : strcmp(key, f->key) == 0)
			return f;
	return NULL;
}

static int
is_known(const struct sc_schema *s, const char *key)
{
	const char *const *k;

	if (s->known == NULL)
		return 0;
	for (k = s->known; *k != NULL; k++)
		if (strcmp(*k, key) == 0)
			return 1;
	return 0;
}

const char *
schema_fold_key(const struct sc_schema *s, const char *key)
{
	const struct sc_member *m;
	const struct sc_refused *f;
	const char *const *k;

	for (m = s->members; m->key != NULL; m++)
		if (json_fold_eq(key, m->key))
			return m->key;
	if (s->refused != NULL && !s->refused_by_fold)
		for (f = s->refused; f->key != NULL; f++)
			if (json_fold_eq(key, f->key))
				return f->key;
	if (s->known != NULL)
		for (k = s->known; *k != NULL; k++)
			if (json_fold_eq(key, *k))
				return *k;
	return NULL;
}

static void
path_push(struct walk *w, const char *key)
{
	char q[260];
	int n;

	cg_quote(key, strlen(key), q);
	n = snprintf(w->path + w->len, sizeof(w->path) - w->len, "%s%s",
	    w->len ? "." : "", q);
	if (n > 0)
		w->len += (size_t)n < sizeof(w->path) - w->len ?
		    (size_t)n : sizeof(w->path) - w->len - 1;
}

static void
path_push_index(struct walk *w, int i)
{
	int n;

	n = snprintf(w->path + w->len, sizeof(w->path) - w->len, "[%d]", i);
	if (n > 0)
		w->len += (size_t)n < sizeof(w->path) - w->len ?
		    (size_t)n : sizeof(w->path) - w->len - 1;
}

static void
path_pop(struct walk *w, size_t len)
{
	w->len = len;
	w->path[len] = '\0';
}

static int
all_children(const cJSON *v, int type)
{
	const cJSON *c;

	for (c = v->child; c != NULL; c = c->next)
		if ((c->type & 0xff) != type)
			return 0;
	return 1;
}

/* §0.5: null always passes. */
static int
type_ok(enum sc_type t, const cJSON *v)
{
	if (cJSON_IsNull(v))
		return 1;
	switch (t) {
	case SC_ANY:
		return 1;
	case SC_OBJ:
		return cJSON_IsObject(v);
	case SC_LIST:
		return cJSON_IsArray(v);
	case SC_LIST_STR:
		return cJSON_IsArray(v) && all_children(v, cJSON_String);
	case SC_LIST_OBJ:
		return cJSON_IsArray(v) && all_children(v, cJSON_Object);
	case SC_MAP_STR:
		return cJSON_IsObject(v) && all_children(v, cJSON_String);
	case SC_STR:
		return cJSON_IsString(v);
	case SC_BOOL:
		return cJSON_IsBool(v);
	case SC_NUM:
		return json_is_number(v);
	}
	return 0;
}

/* Values of a map whose values are schema objects (or arrays of them). */
static int
map_values_ok(const struct sc_member *d, const cJSON *v)
{
	const cJSON *c;

	if (!cJSON_IsObject(v))
		return 1;	/* the member's own guard decides */
	for (c = v->child; c != NULL; c = c->next) {
		if (cJSON_IsNull(c))
			continue;
		if (d->shape == SC_MAP_SUB && !cJSON_IsObject(c))
			return 0;
		if (d->shape == SC_MAP_SUB_EACH &&
		    !(cJSON_IsArray(c) && all_children(c, cJSON_Object)))
			return 0;
	}
	return 1;
}

static int
refuse_path(struct walk *w, const char *code, const char *fmt_tail,
    const char *key)
{
	size_t save = w->len;
	int rc;

	path_push(w, key);
	if (strcmp(fmt_tail, "type") == 0)
		rc = cg_refuse(w->r, code, "%s has the wrong type", w->path);
	else
		rc = cg_refuse(w->r, code, "%s is not accepted by the gateway",
		    w->path);
	path_pop(w, save);
	return rc;
}

/* One schema-checked object, for the current pass. */
static int
check_object(struct walk *w, const struct sc_schema *s, const cJSON *obj)
{
	const cJSON *m;
	const struct sc_member *d;
	const struct sc_refused *f;
	const char *twin;
	char q[260];

	for (m = obj->child; m != NULL; m = m->next) {
		const char *key = m->string;

		switch (w->pass) {
		case PASS_GUARDS:	/* §0.5 */
			d = find_member(s, key);
			if (d != NULL && (!type_ok(d->type, m) ||
			    !map_values_ok(d, m)))
				return refuse_path(w, "malformed", "type", key);
			break;
		case PASS_SPELLING:	/* §0.3.1 */
			if (find_member(s, key) != NULL || is_known(s, key) ||
			    (!s->refused_by_fold && find_refused(s, key, 0)))
				break;
			twin = schema_fold_key(s, key);
			if (twin != NULL)
				return cg_refuse(w->r, "ambiguous-field",
				    "%s is not the canonical spelling of %s",
				    cg_quote(key, strlen(key), q), twin);
			break;
		case PASS_KEYS:		/* §0.3.2-3 */
			f = NULL;
			if (!s->refused_by_fold) {
				f = find_refused(s, key, 0);
				if (f != NULL && json_truthy(m))
					goto refused;
			}
			if (find_member(s, key) != NULL)
				break;
			if (s->refused_by_fold) {
				f = find_refused(s, key, 1);
				if (f != NULL && json_truthy(m))
					goto refused;
			}
			if (f != NULL && !is_known(s, key))
				break;	/* refused-table key, falsy */
			return refuse_path(w, "unknown-field", "key", key);
refused:
			if (f->detail == NULL)
				return cg_refuse(w->r, f->code, "%s is refused",
				    cg_quote(key, strlen(key), q));
			/* a detail with "; " already says what to do */
			return cg_refuse_hint(w->r, f->code,
			    strstr(f->detail, "; ") != NULL ? CG_HINT_IN_DETAIL :
			    "", "%s", f->detail);
		}
	}
	return 0;
}

static int visit(struct walk *w, const struct sc_schema *s, const cJSON *obj,
    int group);

static int
visit_member(struct walk *w, const struct sc_member *d, const cJSON *v,
    int group)
{
	const cJSON *c, *e;
	int i, j;
	size_t save;

	switch (d->shape) {
	case SC_SUB:
		if (cJSON_IsObject(v))
			return visit(w, d->sub, v, group);
		return 0;
	case SC_SUB_EACH:
		if (!cJSON_IsArray(v))
			return 0;
		for (c = v->child, i = 0; c != NULL; c = c->next, i++) {
			if (!cJSON_IsObject(c))
				continue;
			save = w->len;
			path_push_index(w, i);
			if (visit(w, d->sub, c, group) != 0)
				return -1;
			path_pop(w, save);
		}
		return 0;
	case SC_MAP_SUB:
	case SC_MAP_SUB_EACH:
		if (!cJSON_IsObject(v))
			return 0;
		for (c = v->child; c != NULL; c = c->next) {
			save = w->len;
			path_push(w, c->string);
			if (d->shape == SC_MAP_SUB && cJSON_IsObject(c)) {
				if (visit(w, d->sub, c, group) != 0)
					return -1;
			} else if (d->shape == SC_MAP_SUB_EACH &&
			    cJSON_IsArray(c)) {
				for (e = c->child, j = 0; e != NULL;
				    e = e->next, j++) {
					size_t save2 = w->len;

					if (!cJSON_IsObject(e))
						continue;
					path_push_index(w, j);
					if (visit(w, d->sub, e, group) != 0)
						return -1;
					path_pop(w, save2);
				}
			}
			path_pop(w, save);
		}
		return 0;
	case SC_LEAF:
	case SC_MAP:
	case SC_LABELS:
		return 0;
	}
	return 0;
}

/* Check obj if it belongs to the current group, then descend. */
static int
visit(struct walk *w, const struct sc_schema *s, const cJSON *obj, int group)
{
	const cJSON *m;
	const struct sc_member *d;
	size_t save;

	if (!s->opaque && group == w->group && check_object(w, s, obj) != 0)
		return -1;
	for (m = obj->child; m != NULL; m = m->next) {
		d = find_member(s, m->string);
		if (d == NULL || d->sub == NULL)
			continue;
		save = w->len;
		path_push(w, m->string);
		if (visit_member(w, d, m, d->group ? d->group : group) != 0)
			return -1;
		path_pop(w, save);
	}
	return 0;
}

/* ---- §0.2 collisions, over every object of the tree ---- */

enum ckind { C_STRUCT, C_MAP, C_LABELS };

struct cctx {
	enum ckind kind;
	const struct sc_schema *s;	/* struct: its schema (NULL opaque);
					 * map: schema of its values */
};

static int collide(const cJSON *node, struct cctx cx, struct cg_refusal *r);

static struct cctx
member_ctx(const struct sc_member *d)
{
	struct cctx cx = { C_STRUCT, NULL };

	if (d == NULL)
		return cx;
	switch (d->shape) {
	case SC_SUB:
	case SC_SUB_EACH:
		cx.s = d->sub;
		break;
	case SC_MAP:
		cx.kind = C_MAP;
		break;
	case SC_LABELS:
		cx.kind = C_LABELS;
		break;
	case SC_MAP_SUB:
	case SC_MAP_SUB_EACH:
		cx.kind = C_MAP;
		cx.s = d->sub;
		break;
	case SC_LEAF:
		break;
	}
	return cx;
}

static int
collide(const cJSON *node, struct cctx cx, struct cg_refusal *r)
{
	const cJSON *c;
	const char *a, *b;
	char qa[260], qb[260];
	struct cctx child = { C_STRUCT, NULL };

	if (cJSON_IsArray(node)) {
		for (c = node->child; c != NULL; c = c->next)
			if (collide(c, cx, r) != 0)
				return -1;
		return 0;
	}
	if (!cJSON_IsObject(node))
		return 0;
	if (json_find_collision(node, cx.kind == C_STRUCT, &a, &b))
		return cg_refuse(r, "ambiguous-field", "%s and %s name the same field",
		    cg_quote(a, strlen(a), qa), cg_quote(b, strlen(b), qb));
	if (cx.kind == C_LABELS)
		for (c = node->child; c != NULL; c = c->next)
			if (json_fold_eq(c->string, CG_LABEL_KEY) &&
			    strcmp(c->string, CG_LABEL_KEY) != 0)
				return cg_refuse(r, "ambiguous-field",
				    "%s is not the canonical spelling of %s",
				    cg_quote(c->string, strlen(c->string), qa),
				    CG_LABEL_KEY);
	for (c = node->child; c != NULL; c = c->next) {
		if (cx.kind == C_STRUCT) {
			child = member_ctx(find_member(cx.s, c->string));
		} else {
			child.kind = C_STRUCT;
			child.s = cx.s;
		}
		if (collide(c, child, r) != 0)
			return -1;
	}
	return 0;
}

int
schema_check(const struct sc_schema *root, const cJSON *obj,
    struct cg_refusal *r)
{
	static const enum sc_pass passes[] = {
		PASS_GUARDS, PASS_SPELLING, PASS_KEYS,
	};
	struct cctx top = { C_STRUCT, root };
	struct walk w;
	size_t p;
	int g, groups;

	if (collide(obj, top, r) != 0)		/* §3 step 3 */
		return -1;
	if (root == NULL)
		return 0;
	groups = root->groups > 0 ? root->groups : 1;
	for (p = 0; p < sizeof(passes) / sizeof(passes[0]); p++) {
		for (g = 1; g <= groups; g++) {	/* steps 4, 5, 6 */
			memset(&w, 0, sizeof(w));
			w.pass = passes[p];
			w.group = g;
			w.r = r;
			if (visit(&w, root, obj, 1) != 0)
				return -1;
		}
	}
	return 0;
}
