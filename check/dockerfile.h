/*
 * The Dockerfile reader of the checker: reads a Dockerfile as podman
 * 4.3.1's builder (buildah 1.28 with openshift/imagebuilder's parser) and
 * dockerd 20.10's classic builder do, and refuses what would reach the
 * host (doc/privsep.md "Builds and archives"; tool.md).
 */
#ifndef CG_CHECK_DOCKERFILE_H
#define CG_CHECK_DOCKERFILE_H

#include <stddef.h>

#include "base/gwerror.h"

struct cJSON;

#define DOCKERFILE_MAX	(8u << 20)	/* bytes read, at most */

struct df_params {
	const struct cJSON *buildargs;	/* object of strings, or NULL */
};

/*
 * Check the Dockerfile text[0..len) (NUL not required). It is read in
 * every way one of the builders reads it: lines joined at the escape
 * token (backslash, or the one a "# escape=" directive names, with and
 * without "# syntax=" counting as a directive before it), comments and
 * empty continuation lines dropped, heredoc bodies read line by line as
 * instructions (buildah 1.28 and dockerd 20.10 have no heredocs: measured,
 * a body line is run as an instruction), JSON and shell forms, ONBUILD
 * triggers, ARG and ENV substituted as imagebuilder's ProcessWord does
 * (global ARGs and the build's buildargs for FROM; the stage's ARGs and
 * ENV for flags). Refused, in any reading, raw or substituted:
 *   FROM, COPY/ADD --from and RUN --mount from= naming an image transport
 *     (host-path: the daemon opens that host path as root);
 *   RUN --mount type=cache (bind-mount: podman 4.3.1 joins the id or
 *     target to a cache directory shared by every build and follows
 *     symlinks there, measured: id=../../../tmp/x wrote the host's /tmp/x);
 *   RUN --mount type=bind with from= and a source below the image's root
 *     (bind-mount: podman 4.3.1 joins it to the image's mount point on the
 *     host and follows the image's symlinks: CVE-2024-1753).
 * The mount type carries over to the next --mount of the same RUN, as in
 * buildah. Returns 0, or -1 with *r set.
 */
int dockerfile_check(const char *text, size_t len, const struct df_params *p,
    struct cg_refusal *r);

#endif
