/*
 * Label filter injection on list, prune and events routes (routes.md §8,
 * as amended on 2026-12-01; doc/filters.md).
 *
 * Appending KEY=ROOT to "label" confines a call to the project only where
 * the backend ANDs it with the client's other filters. doc/filters.md has
 * the measured table (podman 4.3.1, dockerd 20.10; re-measured by
 * tests/integration/filters.sh): dockerd ANDs everywhere, and so does
 * podman on containers, networks and pods; podman ORs every volume filter,
 * the label values of image prune and events, and label! on image prune,
 * and its system prune ORs them on volumes and images. There the client
 * member is refused (widening[] below) with a reason saying what to do
 * instead, except on podman's volume list and events: their client
 * filters are forwarded without the project label and the monitor
 * filters the answer (monitor/exchange/listfilter.c, monitor/exchange/evfilter.c), which
 * yields the exact intersection. The client's filters are rebuilt into list form rather than
 * forwarded, so the daemon never reads a form the gateway did not check,
 * and repeated or case-variant "filters" keys never reach it
 * (route_query_keys).
 */
#include "policy/routes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/assemble.h"
#include "policy/json.h"

static void
add_string(cJSON *list, const char *s)
{
	cJSON_AddItemToArray(list, json_checked(cJSON_CreateString(s)));
}

static int
collision(const cJSON *obj, struct cg_refusal *r)
{
	const char *a, *b;
	char qa[260], qb[260];

	if (json_find_collision(obj, 0, &a, &b))
		return cg_refuse(r, "ambiguous-field",
		    "%s and %s name the same field", cg_quote(a, strlen(a), qa),
		    cg_quote(b, strlen(b), qb));
	return 0;
}

static int
bad_member(const char *key, struct cg_refusal *r)
{
	char q[260];

	return cg_refuse(r, "malformed",
	    "filters.%s must be a list of strings or an object of booleans",
	    cg_quote(key, strlen(key), q));
}

/*
 * One member of the client's filters as a new list node: a list of
 * strings is copied, a map of booleans becomes its true keys in order.
 */
static int
member_list(const cJSON *m, cJSON **out, struct cg_refusal *r)
{
	const cJSON *e;
	cJSON *list = json_checked(cJSON_CreateArray());

	if (cJSON_IsArray(m)) {
		cJSON_ArrayForEach(e, m) {
			if (!cJSON_IsString(e))
				goto bad;
			add_string(list, e->valuestring);
		}
	} else if (cJSON_IsObject(m)) {
		if (collision(m, r) == -1) {
			cJSON_Delete(list);
			return -1;
		}
		cJSON_ArrayForEach(e, m) {
			if (!cJSON_IsBool(e))
				goto bad;
			if (cJSON_IsTrue(e))
				add_string(list, e->string);
		}
	} else
		goto bad;
	*out = list;
	return 0;
bad:
	cJSON_Delete(list);
	return bad_member(m->string, r);
}

/* Parse the client's filters value into an object ("" -> {}). */
static cJSON *
filters_input(const char *value, struct cg_refusal *r)
{
	char err[200];
	cJSON *in;

	if (value == NULL || value[0] == '\0')
		return json_checked(cJSON_CreateObject());
	if ((in = json_parse(value, strlen(value), err, sizeof(err))) == NULL) {
		cg_refuse(r, "malformed", "filters is not valid JSON: %s", err);
		return NULL;
	}
	if (!cJSON_IsObject(in)) {
		cJSON_Delete(in);
		cg_refuse(r, "malformed", "filters must be a JSON object");
		return NULL;
	}
	if (collision(in, r) == -1) {
		cJSON_Delete(in);
		return NULL;
	}
	return in;
}

/*
 * Client filter members the backend would OR with the project label, per
 * backend (-1: any), route family and action, and filter key ("*": every
 * key). A "label" member only widens through values other than KEY=ROOT.
 */
static const struct widening {
	int backend;
	const char *family, *action, *key;
	const char *detail;	/* after "filters.<key> is refused: ", or
				   NULL: a post-filtered list (below) */
} widening[] = {
	/*
	 * Forwarded as the client sent them, without the project label (ORed,
	 * it would only add the project's other volumes), and the monitor
	 * keeps the project's volumes of the answer (monitor/exchange/listfilter.c).
	 */
	{ CG_PODMAN, "volumes", "list", "*", NULL },
	{ CG_PODMAN, "volumes", "prune", "*",
	  "podman ORs volume prune filters with the project label, so other "
	  "projects' volumes would be removed; prune without filters or "
	  "remove volumes by name" },
	{ CG_PODMAN, "images", "prune", "label",
	  "podman ORs (libpod: replaces) the project label with these "
	  "values on image prune, so other projects' images would be "
	  "removed; prune without label filters or remove images by name" },
	{ CG_PODMAN, "images", "prune", "label!",
	  "podman ORs label! with the project label on image prune, so other "
	  "projects' images would be removed; prune without label filters or "
	  "remove images by name" },
	/*
	 * Forwarded without the project label too: podman ORs label values,
	 * and the monitor keeps only the project's events that match the
	 * client's labels as podman reads them (monitor/exchange/evfilter.c; routes.md
	 * §8 as amended on 2026-12-07).
	 */
	{ CG_PODMAN, "events", "events", "label", NULL },
	{ -1, "system", "system-prune", "*",
	  "podman's system prune ORs filters with the project label on "
	  "volumes and images, so other projects' resources would be "
	  "removed; prune without filters" },
};

/* 1 when list holds a string equal to s. */
static int
list_has(const cJSON *list, const char *s)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, list)
		if (cJSON_IsString(e) && strcmp(e->valuestring, s) == 0)
			return 1;
	return 0;
}

/*
 * The widening[] row that refuses member m (list form, key k) on this
 * route and backend, or NULL. entry is KEY=ROOT.
 */
static const struct widening *
widens(const struct cg_policy_ctx *ctx, const struct cg_route *rt,
    const char *k, const cJSON *m, const char *entry)
{
	const struct widening *w;
	const cJSON *e;
	size_t i;
	int carries = 0;

	cJSON_ArrayForEach(e, m)
		if (strcmp(k, "label") != 0 || strcmp(e->valuestring, entry) != 0)
			carries = 1;
	if (!carries)
		return NULL;
	for (i = 0; i < sizeof(widening) / sizeof(widening[0]); i++) {
		w = &widening[i];
		if ((w->backend == -1 || w->backend == (int)ctx->backend_kind) &&
		    strcmp(w->family, rt->family) == 0 &&
		    strcmp(w->action, rt->action) == 0 &&
		    (strcmp(w->key, "*") == 0 || strcmp(w->key, k) == 0))
			return w;
	}
	return NULL;
}

/*
 * The client's filters as podman reads them (policy/assemble.h): every
 * member in list form, a key holding '=' split at its first '=' with the
 * tail moved in front of each value ("label=k": ["v"] is label "k=v",
 * "label!=k": ["v"] is label! "k=v"), members that end up with the same
 * key merged in document order. Returns a new object, or NULL with *r
 * set (400 malformed: a member of another shape, or an empty key).
 */
static cJSON *
filters_split(const cJSON *in, struct cg_refusal *r)
{
	cJSON *out = json_checked(cJSON_CreateObject()), *list, *dst;
	const cJSON *m, *e;
	const char *tail;
	size_t klen, split;
	char *key, *val, q[260];

	cJSON_ArrayForEach(m, in) {
		if (member_list(m, &list, r) == -1)
			goto fail;
		klen = strlen(m->string);
		asm_filter_key(m->string, klen, &split, &tail);
		if (split == 0) {
			cJSON_Delete(list);
			cg_refuse(r, "malformed", "filters.%s has an empty key",
			    cg_quote(m->string, klen, q));
			goto fail;
		}
		key = xstrndup(m->string, split);
		if ((dst = json_get(out, key)) == NULL) {
			dst = json_checked(cJSON_CreateArray());
			cJSON_AddItemToObject(out, key, dst);
		}
		free(key);
		cJSON_ArrayForEach(e, list) {
			if (tail == NULL) {
				add_string(dst, e->valuestring);
				continue;
			}
			val = xmalloc(strlen(tail) + 1 + strlen(e->valuestring) + 1);
			strcpy(val, tail);
			strcat(val, "=");
			strcat(val, e->valuestring);
			add_string(dst, val);
			free(val);
		}
		cJSON_Delete(list);
	}
	return out;
fail:
	cJSON_Delete(out);
	return NULL;
}

/* Build the forwarded filters object from the checked input. */
static cJSON *
filters_output(const struct cg_policy_ctx *ctx, const struct cg_route *rt,
    const cJSON *in, const char *entry, struct cg_refusal *r)
{
	cJSON *out = json_checked(cJSON_CreateObject()), *list, *label = NULL;
	cJSON *split;
	const struct widening *w;
	const cJSON *m;
	int image_prune = rt->qpolicy == QP_IMAGE_PRUNE, postfiltered = 0;
	char q[260];

	if ((split = filters_split(in, r)) == NULL)
		goto fail;
	cJSON_ArrayForEach(m, split) {
		if (member_list(m, &list, r) == -1)
			goto fail;
		if (image_prune && strcmp(m->string, "dangling") == 0) {
			/* Replaced in place (after the shape check). */
			cJSON_Delete(list);
			list = json_checked(cJSON_CreateArray());
			add_string(list, "true");
		}
		if ((w = widens(ctx, rt, m->string, list, entry)) != NULL &&
		    w->detail != NULL) {
			cJSON_Delete(list);
			cg_refuse(r, "denied-query", "filters.%s is refused: %s",
			    cg_quote(m->string, strlen(m->string), q), w->detail);
			goto fail;
		}
		if (w != NULL)
			postfiltered = 1;
		cJSON_AddItemToObject(out, m->string, list);
		if (strcmp(m->string, "label") == 0)
			label = list;
	}
	cJSON_Delete(split);
	if (postfiltered)
		return out;
	if (label == NULL) {
		label = json_checked(cJSON_CreateArray());
		cJSON_AddItemToObject(out, "label", label);
	}
	if (!list_has(label, entry))
		add_string(label, entry);
	if (image_prune && json_get(out, "dangling") == NULL) {
		list = json_checked(cJSON_CreateArray());
		add_string(list, "true");
		cJSON_AddItemToObject(out, "dangling", list);
	}
	return out;
fail:
	cJSON_Delete(split);
	cJSON_Delete(out);
	return NULL;
}

int
filters_apply(const struct cg_policy_ctx *ctx, const struct cg_route *rt,
    struct cg_query *q, struct cg_refusal *r)
{
	size_t i = query_find(q, "filters", 0), elen;
	cJSON *in, *out;
	char *entry, *text;

	if ((in = filters_input(i == QUERY_NONE ? NULL : q->v[i].value,
	    r)) == NULL)
		return -1;
	elen = strlen(CG_LABEL_KEY) + 1 + strlen(ctx->root) + 1;
	entry = xmalloc(elen);
	snprintf(entry, elen, "%s=%s", CG_LABEL_KEY, ctx->root);
	out = filters_output(ctx, rt, in, entry, r);
	free(entry);
	cJSON_Delete(in);
	if (out == NULL)
		return -1;
	text = json_serialize(out, NULL);
	cJSON_Delete(out);
	if (i == QUERY_NONE)
		query_append(q, "filters", text);
	else
		query_set_at(q, i, text);
	free(text);
	return 0;
}

int
filters_system_prune(const struct cg_policy_ctx *ctx,
    const struct cg_route *rt, struct cg_query *q, struct cg_refusal *r)
{
	const char *ext = query_get(q, "external");

	if (ext != NULL && !query_value_empty(ext))
		return cg_refuse(r, "denied-query",
		    "external is not available through the gateway");
	query_remove(q, "all");
	return filters_apply(ctx, rt, q, r);
}
