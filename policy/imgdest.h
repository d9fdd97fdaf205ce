/*
 * The image names a request creates or moves (red team rt10 F1): the
 * destination of a tag (`repo`, `tag`), of a build (`t`, libpod
 * `manifest`), of a commit (`repo`, `tag`) and of an import (compat
 * `images/create?fromSrc=-` `repo`, `tag`; libpod `reference`). Before
 * such a request is forwarded the monitor inspects each name
 * (monitor/exchange/imgdest.c): a name that exists and is not this project's
 * (another project's image, or an unlabelled one: pulled, podman's own)
 * is refused, so that no project can point a name another project runs
 * at its own image. Pure: no I/O.
 */
#ifndef CG_POLICY_IMGDEST_H
#define CG_POLICY_IMGDEST_H

#include <stddef.h>

#include "base/gwerror.h"
#include "policy/types.h"

#define IMGDEST_MAX	16	/* names one request may move */

struct image_dests {
	char *name[IMGDEST_MAX];	/* as the daemon gets it, malloc'd */
	const char *key[IMGDEST_MAX];	/* the query key that names it */
	size_t n;
	const char *code;		/* refusal code of this route */
};

/*
 * The destination names of a forwarded request: action as the route table
 * names it ("tag", "build", "commit", "import": the compat
 * images/create with fromSrc is classified "import"; a pull moves no name
 * of the project's making), query the
 * target's query string (after '?', qlen bytes, percent-encoded). A
 * `repo` without `tag` gets `latest` unless it names its own tag, as both
 * daemons do. Fills *d (release with image_dests_free; d->n 0 for other
 * routes). Returns 0, or -1 with *r set: a query that does not parse
 * (400 malformed), more than IMGDEST_MAX names, a name that is not a
 * valid path segment (image_ref_path_safe), or one in podman's default
 * infra image repository localhost/podman-pause (every pod create without
 * infra_image runs it; podman builds it itself): 403 denied-query
 * (build: denied-build-parameter).
 */
int image_dests_parse(const char *action, const char *query, size_t qlen,
    struct image_dests *d, struct cg_refusal *r);

/*
 * 1 when the repository of image name name (without its tag or digest) is
 * podman's default infra image's, localhost/podman-pause (or its short
 * form): every pod create without infra_image runs that image
 * (pkg/specgen/generate/pause_image.go, podman 4.3.1) and podman builds it
 * itself, so no project may give that name (red team rt10 F1). Else 0.
 */
int image_name_infra(const char *name);

/* Release the names of d; safe on a zeroed struct. */
void image_dests_free(struct image_dests *d);

#endif
