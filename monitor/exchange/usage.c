/*
 * The project's disk usage (routes.md §7.2 as amended, doc/answers.md
 * "system/df"). Neither daemon filters its df by label, and podman's compat df
 * even answers empty Labels for every container and volume (measured), so the
 * project's elements are taken from the label-filtered, post-filtered lists
 * and only the sizes the lists lack (volume usage, an image's shared size)
 * from the backend's df.
 */
#include "monitor/exchange/usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/exchange/listfilter.h"
#include "policy/json.h"

/* An object with no colliding keys (policy.md §0.2), else NULL. */
static const cJSON *
object(const cJSON *v)
{
	const char *a, *b;

	return cJSON_IsObject(v) && !json_find_collision(v, 1, &a, &b) ? v : NULL;
}

/* Integer value of a number node into *out; -1 when v is not a number. */
static int
num_of(const cJSON *v, long long *out)
{
	char *end;
	double d;

	if (!json_is_number(v))
		return -1;
	if (cJSON_IsRaw(v)) {
		d = strtod(v->valuestring, &end);
		if (*end != '\0')
			return -1;
	} else {
		d = v->valuedouble;
	}
	if (d < -9e15 || d > 9e15)
		return -1;
	*out = (long long)d;
	return 0;
}

/* Set member key of o to item (replacing the first one of that name). */
static void
put(cJSON *o, const char *key, cJSON *item)
{
	if (item == NULL)
		xoom();
	if (json_get(o, key) != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(o, key, item);
	else if (!cJSON_AddItemToObject(o, key, item))
		xoom();
}

static cJSON *
number(long long v)
{
	return cJSON_CreateNumber((double)v);
}

/* Image ids compare without their "sha256:" prefix (podman drops it). */
static int
same_id(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return 0;
	if (strncmp(a, "sha256:", 7) == 0)
		a += 7;
	if (strncmp(b, "sha256:", 7) == 0)
		b += 7;
	return a[0] != '\0' && strcmp(a, b) == 0;
}

/* The element of array list whose string member key equals val, or NULL. */
static const cJSON *
find(const cJSON *list, const char *key, const char *val, int image_id)
{
	const cJSON *e;
	const char *s;

	cJSON_ArrayForEach(e, list) {
		s = object(e) != NULL ? json_str(e, key) : NULL;
		if (s != NULL && (image_id ? same_id(s, val) : strcmp(s, val) == 0))
			return e;
	}
	return NULL;
}

/* Parse a list answer kept to the project's elements (listfilter.c). */
static cJSON *
project_list(enum lf_kind kind, enum cg_api api, enum cg_kind bk,
    const char *root, const char *body, size_t len)
{
	char *text;
	size_t tlen;
	cJSON *tree;

	if (body == NULL || listfilter_apply(kind, api, bk, root, body, len,
	    &text, &tlen) == -1)
		return NULL;
	tree = json_parse(text, tlen, NULL, 0);
	free(text);
	return tree;
}

/* An image built in the project: its labels hold KEY=root exactly. */
static int
own_image(const cJSON *img, const char *root)
{
	const cJSON *labels = object(json_get(img, "Labels"));
	const char *v = labels != NULL ? json_str(labels, CG_LABEL_KEY) : NULL;

	return v != NULL && strcmp(v, root) == 0;
}

/* How many of the project's containers (array ctrs) use image id. */
static long long
users(const cJSON *ctrs, const char *ctr_image_key, const char *id)
{
	const cJSON *c;
	long long n = 0;

	cJSON_ArrayForEach(c, ctrs)
		if (same_id(json_str(c, ctr_image_key), id))
			n++;
	return n;
}

/* An array member of the df (null counts as empty), or NULL. */
static const cJSON *
df_list(const cJSON *df, const char *key, int *bad)
{
	const cJSON *v = json_get(df, key);

	if (cJSON_IsArray(v) || cJSON_IsNull(v))
		return v;
	*bad = 1;
	return NULL;
}

/*
 * Mark each image of array imgs for the project (compat or libpod keys):
 * Containers = the project's users, wholly shared unless built in the
 * project. own_from: the list whose elements say whose the image is (by
 * idkey), NULL when imgs carry their own labels; df_imgs: the df's images
 * for an own image's SharedSize (compat), or NULL. Adds Size - SharedSize
 * of every image to *layers. Returns 0 or -1 (unexpected element).
 */
static int
mark_images(cJSON *imgs, const char *idkey, const cJSON *own_from,
    const cJSON *ctrs, const char *ctr_image_key, const cJSON *df_imgs,
    const char *root, long long *layers)
{
	const cJSON *from, *dfi;
	long long size, shared;
	cJSON *img;
	const char *id;

	cJSON_ArrayForEach(img, imgs) {
		if (object(img) == NULL || (id = json_str(img, idkey)) == NULL ||
		    num_of(json_get(img, "Size"), &size) == -1)
			return -1;
		put(img, "Containers", number(users(ctrs, ctr_image_key, id)));
		from = own_from != NULL ? find(own_from, "Id", id, 1) : img;
		if (from == NULL || !own_image(from, root)) {
			put(img, "SharedSize", number(size));
			if (json_get(img, "UniqueSize") != NULL)
				put(img, "UniqueSize", number(0));
		} else if (df_imgs != NULL &&
		    (dfi = find(df_imgs, "Id", id, 1)) != NULL &&
		    num_of(json_get(dfi, "SharedSize"), &shared) == 0) {
			put(img, "SharedSize", number(shared));
		}
		if (num_of(json_get(img, "SharedSize"), &shared) == 0 &&
		    shared >= 0 && size >= shared)
			*layers += size - shared;
	}
	return 0;
}

/* Compat: the project's lists, sizes from the df (see usage.h). */
static cJSON *
df_compat(enum cg_kind bk, const char *root, const struct usage_src *in,
    const cJSON *df)
{
	cJSON *res = NULL, *ctrs, *vdoc, *vols, *imgs, *v;
	const cJSON *dfv, *dfi, *e, *u;
	long long layers = 0;
	int bad = 0;
	const char *name;

	dfv = df_list(df, "Volumes", &bad);
	dfi = df_list(df, "Images", &bad);
	(void)df_list(df, "Containers", &bad);
	ctrs = project_list(LF_CONTAINERS, CG_API_COMPAT, bk, root,
	    in->containers, in->containers_len);
	vdoc = project_list(LF_VOLUMES, CG_API_COMPAT, bk, root, in->volumes,
	    in->volumes_len);
	imgs = in->images != NULL ? json_parse(in->images, in->images_len,
	    NULL, 0) : NULL;
	vols = vdoc != NULL ? cJSON_DetachItemFromObjectCaseSensitive(vdoc,
	    "Volumes") : NULL;
	if (bad || vdoc == NULL || !cJSON_IsArray(ctrs) || !cJSON_IsArray(imgs) ||
	    (vols != NULL && !cJSON_IsArray(vols) && !cJSON_IsNull(vols)))
		goto out;
	if (vols == NULL || cJSON_IsNull(vols)) {
		cJSON_Delete(vols);
		vols = cJSON_CreateArray();
	}
	cJSON_ArrayForEach(v, vols) {
		if ((name = json_str(v, "Name")) == NULL)
			goto out;
		e = find(dfv, "Name", name, 0);
		u = e != NULL ? object(json_get(e, "UsageData")) : NULL;
		if (u != NULL) {
			put(v, "UsageData", cJSON_Duplicate(u, 1));
		} else {
			cJSON *none = cJSON_CreateObject();

			if (none == NULL)
				xoom();
			put(none, "RefCount", number(-1));
			put(none, "Size", number(-1));
			put(v, "UsageData", none);
		}
	}
	if (mark_images(imgs, "Id", NULL, ctrs, "ImageID", dfi, root,
	    &layers) == -1)
		goto out;
	if ((res = cJSON_CreateObject()) == NULL)
		xoom();
	put(res, "LayersSize", number(layers));
	put(res, "Images", imgs);
	put(res, "Containers", ctrs);
	put(res, "Volumes", vols);
	put(res, "BuildCache", cJSON_CreateArray());
	put(res, "BuilderSize", number(0));
	imgs = ctrs = vols = NULL;
out:
	cJSON_Delete(ctrs);
	cJSON_Delete(vdoc);
	cJSON_Delete(vols);
	cJSON_Delete(imgs);
	return res;
}

/* Drop the elements of array list whose key is not in array keep's. */
static int
keep_listed(cJSON *list, const char *key, const cJSON *keep,
    const char *keep_key)
{
	cJSON *e, *next;
	const char *s;

	for (e = list->child; e != NULL; e = next) {
		next = e->next;
		if (object(e) == NULL || (s = json_str(e, key)) == NULL)
			return -1;
		if (find(keep, keep_key, s, 0) == NULL)
			cJSON_Delete(cJSON_DetachItemViaPointer(list, e));
	}
	return 0;
}

/* Libpod: the backend's df kept to the project's (see usage.h). */
static cJSON *
df_libpod(enum cg_kind bk, const char *root, const struct usage_src *in,
    cJSON *df)
{
	cJSON *ctrs, *vols, *imgs, *res = NULL, *dc, *dv, *di;
	long long layers = 0;

	ctrs = project_list(LF_CONTAINERS, CG_API_LIBPOD, bk, root,
	    in->containers, in->containers_len);
	vols = project_list(LF_VOLUMES, CG_API_LIBPOD, bk, root, in->volumes,
	    in->volumes_len);
	imgs = in->images != NULL ? json_parse(in->images, in->images_len,
	    NULL, 0) : NULL;
	dc = json_get(df, "Containers");
	dv = json_get(df, "Volumes");
	di = json_get(df, "Images");
	if (!cJSON_IsArray(ctrs) || !cJSON_IsArray(vols) ||
	    !cJSON_IsArray(imgs) || !cJSON_IsArray(dc) || !cJSON_IsArray(dv) ||
	    !cJSON_IsArray(di) ||
	    keep_listed(dc, "ContainerID", ctrs, "Id") == -1 ||
	    keep_listed(dv, "VolumeName", vols, "Name") == -1 ||
	    mark_images(di, "ImageID", imgs, dc, "Image", NULL, root,
	    &layers) == -1)
		goto out;
	if ((res = cJSON_CreateObject()) == NULL)
		xoom();
	put(res, "Images", cJSON_DetachItemViaPointer(df, di));
	put(res, "Containers", cJSON_DetachItemViaPointer(df, dc));
	put(res, "Volumes", cJSON_DetachItemViaPointer(df, dv));
out:
	cJSON_Delete(ctrs);
	cJSON_Delete(vols);
	cJSON_Delete(imgs);
	return res;
}

int
usage_df(enum cg_api api, enum cg_kind backend_kind, const char *root,
    const struct usage_src *in, char **out, size_t *out_len)
{
	cJSON *df, *res;

	if (in->df == NULL ||
	    (api == CG_API_LIBPOD && backend_kind != CG_PODMAN))
		return -1;
	df = json_parse(in->df, in->df_len, NULL, 0);
	if (object(df) == NULL) {
		cJSON_Delete(df);
		return -1;
	}
	res = api == CG_API_LIBPOD ? df_libpod(backend_kind, root, in, df) :
	    df_compat(backend_kind, root, in, df);
	cJSON_Delete(df);
	if (res == NULL)
		return -1;
	*out = json_serialize(res, out_len);
	cJSON_Delete(res);
	return 0;
}

int
usage_foreign_pods(enum cg_kind backend_kind, const char *root,
    const char *body, size_t len, unsigned *n)
{
	cJSON *all, *own;
	int rc = -1;

	if (backend_kind != CG_PODMAN)
		return -1;
	all = json_parse(body, len, NULL, 0);
	own = cJSON_IsArray(all) ? project_list(LF_PODS, CG_API_LIBPOD,
	    backend_kind, root, body, len) : NULL;
	if (cJSON_IsArray(own)) {
		*n = (unsigned)(cJSON_GetArraySize(all) - cJSON_GetArraySize(own));
		rc = 0;
	}
	cJSON_Delete(all);
	cJSON_Delete(own);
	return rc;
}
