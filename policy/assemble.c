/*
 * Values the daemons assemble from parts (policy/assemble.h). Each row
 * names the handlers it was read from (podman v4.3.1, moby v20.10.24);
 * tests/test_assemble.c names every route of the table and checks that
 * the rules see the joined value.
 */
#include "policy/assemble.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "policy/routes.h"

static const struct asm_ref_pair ref_pairs[] = {
	/*
	 * compat images/create (a pull): podman CreateImageFromImage joins
	 * fromImage and tag (mergeNameAndTagOrDigest: ':' or, for a digest,
	 * '@'); dockerd postImagesCreate pulls fromImage with tag.
	 */
	{ ROUTE_C, "images", "pull", "fromImage", "tag", NULL,
	  "podman compat CreateImageFromImage, dockerd postImagesCreate" },
	/* the same route as an import: dockerd ImportImage(repo, tag) */
	{ ROUTE_C, "images", "pull", "repo", "tag", "latest",
	  "dockerd postImagesCreate (import)" },
	/*
	 * commit: podman CommitContainer (compat: tag defaults to latest,
	 * joined when repo is longer than one byte; libpod: joined when repo
	 * is set), dockerd postCommit (CreateImageFromContainer).
	 */
	{ ROUTE_CL, "commit", "commit", "repo", "tag", "latest",
	  "podman compat and libpod CommitContainer, dockerd postCommit" },
	/* tag: podman TagImage (both APIs), dockerd postImagesTag */
	{ ROUTE_CL, "images", "tag", "repo", "tag", "latest",
	  "podman TagImage, dockerd postImagesTag" },
	/* libpod untag: podman UntagImage joins repo and tag (latest) */
	{ ROUTE_L, "images", "untag", "repo", "tag", "latest",
	  "podman UntagImage" },
};

const struct asm_ref_pair *
asm_ref_pairs(size_t *n)
{
	*n = sizeof(ref_pairs) / sizeof(ref_pairs[0]);
	return ref_pairs;
}

/* Call fn on name ':' tag (tag "" or NULL: dflt, or name alone). */
static int
join_call(const char *key, const char *name, const char *tag,
    const char *dflt, int (*fn)(void *, const char *, const char *),
    void *arg)
{
	size_t nlen = strlen(name), tlen;
	char *j;
	int rc;

	if (tag == NULL || tag[0] == '\0')
		tag = dflt;
	if (tag == NULL)
		return fn(arg, key, name);
	tlen = strlen(tag);
	j = xmalloc(nlen + 1 + tlen + 1);
	memcpy(j, name, nlen);
	j[nlen] = ':';
	memcpy(j + nlen + 1, tag, tlen + 1);
	rc = fn(arg, key, j);
	free(j);
	return rc;
}

/* Every join of row p on q. */
static int
row_refs(const struct asm_ref_pair *p, const struct cg_query *q,
    int (*fn)(void *, const char *, const char *), void *arg)
{
	size_t i, j;
	int rc, tags;

	for (i = 0; i < q->n; i++) {
		if (!ascii_caseeq(q->v[i].key, p->name_key))
			continue;
		for (j = 0, tags = 0; j < q->n; j++) {
			if (!ascii_caseeq(q->v[j].key, p->tag_key))
				continue;
			tags = 1;
			if ((rc = join_call(q->v[i].key, q->v[i].value,
			    q->v[j].value, p->dflt_tag, fn, arg)) != 0)
				return rc;
		}
		if (!tags && (rc = join_call(q->v[i].key, q->v[i].value, NULL,
		    p->dflt_tag, fn, arg)) != 0)
			return rc;
	}
	return 0;
}

int
asm_each_ref(const struct cg_route *rt, enum cg_api api,
    const struct cg_query *q,
    int (*fn)(void *arg, const char *key, const char *ref), void *arg)
{
	unsigned mask = api == CG_API_LIBPOD ? ROUTE_L : ROUTE_C;
	size_t i;
	int rc;

	if (rt == NULL || q == NULL)
		return 0;
	for (i = 0; i < sizeof(ref_pairs) / sizeof(ref_pairs[0]); i++)
		if ((ref_pairs[i].apis & mask) &&
		    strcmp(ref_pairs[i].family, rt->family) == 0 &&
		    strcmp(ref_pairs[i].action, rt->action) == 0 &&
		    (rc = row_refs(&ref_pairs[i], q, fn, arg)) != 0)
			return rc;
	return 0;
}

void
asm_filter_key(const char *key, size_t klen, size_t *split_klen,
    const char **tail)
{
	const char *eq = memchr(key, '=', klen);

	*split_klen = eq != NULL ? (size_t)(eq - key) : klen;
	*tail = eq != NULL ? eq + 1 : NULL;
}

int
asm_form_body(const char *ct, size_t len)
{
	const char *semi = memchr(ct, ';', len);
	size_t n = semi != NULL ? (size_t)(semi - ct) : len;

	cg_trim_ows(&ct, &n);
	return cg_ci_eq(ct, n, "application/x-www-form-urlencoded") ||
	    cg_ci_eq(ct, n, "multipart/form-data");
}
