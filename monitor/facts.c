/* Ownership inspects and their verdicts (routes.md §9.2-§9.4). */
#include "monitor/gateway.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/json.h"

/* Inspect paths per kind (routes.md §9.2); NULL where none exists. */
static const struct {
	const char *compat;
	const char *libpod;
} inspect_paths[] = {
	[CG_FACT_CONTAINER] = { "/containers/%s/json", "/libpod/containers/%s/json" },
	[CG_FACT_POD] = { NULL, "/libpod/pods/%s/json" },
	[CG_FACT_VOLUME] = { "/volumes/%s", "/libpod/volumes/%s/json" },
	[CG_FACT_NETWORK] = { "/networks/%s", "/libpod/networks/%s/json" },
	[CG_FACT_IMAGE] = { "/images/%s/json", "/libpod/images/%s/json" },
	[CG_FACT_EXEC] = { "/exec/%s/json", "/libpod/exec/%s/json" },
};

char *
facts_inspect_request(enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, size_t *len)
{
	const char *fmt = api == CG_API_LIBPOD || inspect_paths[kind].compat == NULL ?
	    inspect_paths[kind].libpod : inspect_paths[kind].compat;
	char *path, *req;
	int n;

	if (asprintf(&path, fmt, ref) < 0)
		xoom();
	n = asprintf(&req, "GET %s%s HTTP/1.1\r\nHost: docker\r\n"
	    "Connection: close\r\n\r\n", prefix, path);
	free(path);
	if (n < 0)
		xoom();
	*len = (size_t)n;
	return req;
}

/* [A-Za-z0-9][A-Za-z0-9_.:@-]{0,254} (routes.md §9.3). */
static int
valid_id(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 255)
		return 0;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		int alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9');

		if (!alnum && (i == 0 || strchr("_.:@-", ch) == NULL))
			return 0;
	}
	return 1;
}

/*
 * The key-collision rules of policy.md §0.2 on an inspect body (routes.md
 * §9.2: "a body that violates them counts as unexpected"). Identical keys
 * are refused in every object; fold-equal keys only in the struct-typed
 * objects whose members are read here (the top level and Config), since
 * the nested objects of an inspect answer include maps (labels,
 * annotations, ports, networks...) whose keys are exact.
 */
static int
has_duplicate(const cJSON *node)
{
	const cJSON *ch;
	const char *a, *b;

	if (cJSON_IsObject(node) && json_find_collision(node, 0, &a, &b))
		return 1;
	for (ch = node->child; ch != NULL; ch = ch->next)
		if ((cJSON_IsObject(ch) || cJSON_IsArray(ch)) && has_duplicate(ch))
			return 1;
	return 0;
}

/* A label map key spelled like KEY but not exactly KEY (policy.md §0.2). */
static int
has_key_variant(const cJSON *labels)
{
	const cJSON *ch;

	for (ch = labels->child; ch != NULL; ch = ch->next)
		if (ch->string != NULL && strcmp(ch->string, CG_LABEL_KEY) != 0 &&
		    json_fold_eq(ch->string, CG_LABEL_KEY))
			return 1;
	return 0;
}

enum cg_fact_result
facts_verdict(enum cg_fact_kind kind, enum cg_api api, int status,
    const char *body, size_t body_len, const char *root,
    char id_out[CG_ID_MAX + 1])
{
	const char *labels_key, *id_key, *ka, *kb;
	const cJSON *labels, *id, *val, *cfg;
	enum cg_fact_result res = CG_NOT_OWNED;
	char err[128];
	cJSON *tree;

	if (status == 404)
		return CG_NOT_OWNED;
	if (status < 200 || status > 299)
		return CG_UNEXPECTED;
	tree = json_parse(body, body_len, err, sizeof(err));
	if (tree == NULL || !cJSON_IsObject(tree) || has_duplicate(tree) ||
	    json_find_collision(tree, 1, &ka, &kb) ||
	    json_find_collision(json_get(tree, "Config"), 1, &ka, &kb)) {
		cJSON_Delete(tree);
		return CG_UNEXPECTED;
	}
	switch (kind) {
	case CG_FACT_VOLUME:
		id_key = "Name";
		labels_key = "Labels";
		break;
	case CG_FACT_NETWORK:
		id_key = api == CG_API_LIBPOD ? "id" : "Id";
		labels_key = api == CG_API_LIBPOD ? "labels" : "Labels";
		break;
	case CG_FACT_EXEC:
		id_key = "ContainerID";
		labels_key = NULL;
		break;
	default:
		id_key = "Id";
		labels_key = "Labels";
		break;
	}
	id = json_get(tree, id_key);
	if (!cJSON_IsString(id) || !valid_id(id->valuestring)) {
		cJSON_Delete(tree);
		return CG_UNEXPECTED;
	}
	if (labels_key == NULL) {	/* exec: the container is checked next */
		snprintf(id_out, CG_ID_MAX + 1, "%s", id->valuestring);
		cJSON_Delete(tree);
		return CG_OWNED;
	}
	labels = NULL;
	if (kind == CG_FACT_CONTAINER || kind == CG_FACT_IMAGE) {
		cfg = json_get(tree, "Config");
		if (cJSON_IsObject(cfg))
			labels = json_get(cfg, "Labels");
		if (kind == CG_FACT_IMAGE && !cJSON_IsObject(labels))
			labels = json_get(tree, "Labels");
	} else {
		labels = json_get(tree, labels_key);
	}
	if (cJSON_IsObject(labels)) {
		if (has_key_variant(labels)) {
			cJSON_Delete(tree);
			return CG_UNEXPECTED;
		}
		val = json_get(labels, CG_LABEL_KEY);
		if (cJSON_IsString(val) && strcmp(val->valuestring, root) == 0) {
			snprintf(id_out, CG_ID_MAX + 1, "%s", id->valuestring);
			res = CG_OWNED;
		}
	}
	cJSON_Delete(tree);
	return res;
}
