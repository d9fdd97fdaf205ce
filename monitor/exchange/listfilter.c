/*
 * Response post-filtering of list routes (routes.md §8.2 as amended,
 * doc/filters.md). Where a backend ORs the client's filters with the project
 * label (podman's volume filters), the label filter alone does not confine a
 * list; this keeps only the project's elements of the answer, and does no harm
 * where the backend ANDs (defence in depth).
 */
#include "monitor/exchange/listfilter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "http/http.h"

enum lf_kind
listfilter_kind(const struct cg_route *rt)
{
	static const struct {
		const char *family;
		enum lf_kind kind;
	} lists[] = {
		{ "containers", LF_CONTAINERS }, { "volumes", LF_VOLUMES },
		{ "networks", LF_NETWORKS }, { "pods", LF_PODS },
	};
	size_t i;

	if (rt == NULL || strcmp(rt->action, "list") != 0)
		return LF_NONE;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (strcmp(rt->family, lists[i].family) == 0)
			return lists[i].kind;
	return LF_NONE;
}

/*
 * 1 when element e is the project's, 0 when not, -1 when its shape is
 * unexpected (not an object, colliding keys).
 */
static int
owned(const cJSON *e, const char *labels_key, const char *root)
{
	const cJSON *labels, *v;
	const char *a, *b;

	if (!cJSON_IsObject(e) || json_find_collision(e, 1, &a, &b))
		return -1;
	labels = json_get(e, labels_key);
	if (!cJSON_IsObject(labels))
		return 0;
	if (json_find_collision(labels, 0, &a, &b))
		return -1;
	v = json_get(labels, CG_LABEL_KEY);
	return cJSON_IsString(v) && strcmp(v->valuestring, root) == 0;
}

/* Drop the elements of array list that are not owned; -1: unexpected. */
static int
filter_array(cJSON *list, const char *labels_key, const char *root)
{
	cJSON *e, *next;
	int o;

	for (e = list->child; e != NULL; e = next) {
		next = e->next;
		if ((o = owned(e, labels_key, root)) == -1)
			return -1;
		if (o == 0)
			cJSON_Delete(cJSON_DetachItemViaPointer(list, e));
	}
	return 0;
}

int
listfilter_apply(enum lf_kind kind, enum cg_api api,
    enum cg_kind backend_kind, const char *root, const char *body,
    size_t len, char **out, size_t *out_len)
{
	const char *labels_key = "Labels", *a, *b;
	cJSON *tree, *list;
	int rc = -1;

	if (kind == LF_NONE || (api == CG_API_LIBPOD && backend_kind == CG_DOCKER))
		return -1;
	if ((tree = json_parse(body, len, NULL, 0)) == NULL)
		return -1;
	list = tree;
	if (kind == LF_VOLUMES && api == CG_API_COMPAT) {
		if (!cJSON_IsObject(tree) || json_find_collision(tree, 1, &a, &b))
			goto done;
		list = json_get(tree, "Volumes");
		if (cJSON_IsNull(list)) {
			rc = 0;
			goto done;
		}
	}
	if (kind == LF_NETWORKS && api == CG_API_LIBPOD)
		labels_key = "labels";
	if (cJSON_IsArray(list))
		rc = filter_array(list, labels_key, root);
done:
	if (rc == 0)
		*out = json_serialize(tree, out_len);
	cJSON_Delete(tree);
	return rc;
}

int
listfilter_response(enum lf_kind kind, enum cg_api api,
    enum cg_kind backend_kind, const char *root, const char *head,
    size_t headlen, int chunked, const char *wire, size_t wirelen,
    char **out, size_t *out_len)
{
	static const char *const framing[] = {
		"Content-Length", "Transfer-Encoding", NULL
	};
	struct http_response resp;
	char *plain = NULL, *body, *o, cl[40];
	size_t plen = wirelen, blen, olen;
	int n;

	n = http_parse_response(head, headlen, &resp);
	if (n < 0 || (size_t)n != headlen || wirelen > LISTFILTER_RAW_MAX)
		return -1;
	if (chunked && http_chunked_decode_all(wire, wirelen, &plain, &plen) == -1)
		return -1;
	if (listfilter_apply(kind, api, backend_kind, root,
	    chunked ? plain : wire, plen, &body, &blen) == -1) {
		free(plain);
		return -1;
	}
	free(plain);
	snprintf(cl, sizeof(cl), "Content-Length: %zu\r\n", blen);
	o = xmalloc(headlen + strlen(cl) + blen);
	olen = http_head_copy(head, headlen, &resp, framing, o);
	memcpy(o + olen, cl, strlen(cl));
	olen += strlen(cl);
	memcpy(o + olen, "\r\n", 2);
	olen += 2;
	memcpy(o + olen, body, blen);
	olen += blen;
	free(body);
	*out = o;
	*out_len = olen;
	return 0;
}
