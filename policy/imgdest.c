/*
 * The image names a request creates or moves (policy/imgdest.h). Query
 * keys as on the wire: compat and libpod tag and commit `repo`/`tag`
 * (podman 4.3.1 pkg/api/handlers, dockerd 20.10), build `t` (both APIs,
 * repeated) and libpod build `manifest`, compat import `repo`/`tag`,
 * libpod import `reference`.
 */
#include "policy/imgdest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/imageref.h"
#include "policy/query.h"

/* podman's default infra image repository (pkg/specgen/generate/pause_image.go) */
static const char *const infra_repos[] = {
	"localhost/podman-pause", "podman-pause", NULL
};

int
image_name_infra(const char *name)
{
	const char *at = strchr(name, '@'), *slash, *colon;
	size_t len = at != NULL ? (size_t)(at - name) : strlen(name);
	size_t i;

	slash = memrchr(name, '/', len);
	colon = memrchr(slash != NULL ? slash : name, ':', len -
	    (size_t)((slash != NULL ? slash : name) - name));
	if (colon != NULL)
		len = (size_t)(colon - name);
	for (i = 0; infra_repos[i] != NULL; i++)
		if (strlen(infra_repos[i]) == len &&
		    memcmp(infra_repos[i], name, len) == 0)
			return 1;
	return 0;
}

/* 1 when repo names its own tag or digest (a ':' after the last '/', or '@'). */
static int
has_tag(const char *repo)
{
	const char *slash = strrchr(repo, '/');

	return strchr(repo, '@') != NULL ||
	    strchr(slash != NULL ? slash : repo, ':') != NULL;
}

static int
add(struct image_dests *d, const char *key, const char *name,
    struct cg_refusal *r)
{
	char q[260];

	if (d->n == IMGDEST_MAX)
		return cg_refuse(r, d->code, "more than %d image names in one "
		    "request", IMGDEST_MAX);
	if (!image_ref_path_safe(name, strlen(name)))
		return cg_refuse(r, d->code, "%s=%s is not an image name", key,
		    cg_quote(name, strlen(name), q));
	if (image_name_infra(name))
		return cg_refuse_hint(r, d->code, "choose another name; podman "
		    "builds its infra image itself", "%s=%s names podman's "
		    "default infra image, which every project's pods run", key,
		    cg_quote(name, strlen(name), q));
	d->key[d->n] = key;
	d->name[d->n++] = xstrdup(name);
	return 0;
}

/* repo[:tag] from a repo/tag pair of the query (none: repo empty). */
static int
add_repo_tag(struct image_dests *d, const struct cg_query *q,
    const char *repo_key, struct cg_refusal *r)
{
	const char *repo = query_get(q, repo_key), *tag = query_get(q, "tag");
	char *name;
	int rc;

	if (repo == NULL || repo[0] == '\0')
		return 0;
	if (has_tag(repo))
		name = xstrdup(repo);
	else if (asprintf(&name, "%s:%s", repo, tag != NULL && tag[0] !=
	    '\0' ? tag : "latest") < 0)
		xoom();
	rc = add(d, repo_key, name, r);
	free(name);
	return rc;
}

int
image_dests_parse(const char *action, const char *query, size_t qlen,
    struct image_dests *d, struct cg_refusal *r)
{
	static const char *const build_keys[] = { "t", "manifest", NULL };
	struct cg_query *q;
	size_t i, k;
	int rc = 0, build = strcmp(action, "build") == 0;

	memset(d, 0, sizeof(*d));
	d->code = build ? "denied-build-parameter" : "denied-query";
	if (!build && strcmp(action, "tag") != 0 &&
	    strcmp(action, "commit") != 0 && strcmp(action, "import") != 0)
		return 0;
	if ((q = query_parse(query, qlen, r)) == NULL)
		return -1;
	if (build) {
		for (k = 0; build_keys[k] != NULL && rc == 0; k++)
			for (i = query_find(q, build_keys[k], 0); i < q->n &&
			    rc == 0; i = query_find(q, build_keys[k], i + 1))
				if (q->v[i].value[0] != '\0')
					rc = add(d, build_keys[k],
					    q->v[i].value, r);
	} else if (strcmp(action, "import") == 0) {
		/* libpod reference; compat images/create?fromSrc=- repo, tag */
		if (query_get(q, "reference") != NULL &&
		    query_get(q, "reference")[0] != '\0')
			rc = add(d, "reference", query_get(q, "reference"), r);
		if (rc == 0)
			rc = add_repo_tag(d, q, "repo", r);
	} else
		rc = add_repo_tag(d, q, "repo", r);
	query_free(q);
	if (rc != 0)
		image_dests_free(d);
	return rc;
}

void
image_dests_free(struct image_dests *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->name[i]);
	d->n = 0;
}
