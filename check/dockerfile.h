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

#define DF_BASES_MAX	16	/* base images a Dockerfile may name */

/*
 * The base images a Dockerfile's stages start FROM (dockerfile_check
 * fills it): each FROM value after ARG substitution that is not "scratch"
 * nor exactly the name of an earlier stage (buildah 1.28 matches stage
 * names exactly; a stage without AS is named by its index), in both
 * readings, each once. Only FROM runs a base image's ONBUILD triggers
 * (imagebuilder's FromImage; measured on podman 4.3.1: COPY --from and
 * RUN --mount from= of an image with a trigger did not run it).
 */
struct df_bases {
	size_t n;
	char *ref[DF_BASES_MAX];	/* malloc'd */
	int over;			/* more than DF_BASES_MAX were named */
	/*
	 * A load's names (check/load.h) only: the archive entry holding the
	 * configuration of the image ref[i] names (malloc'd; NULL unknown),
	 * cfg_bad[i] when two disagree, and id[i] its SHA-256 in hex (the
	 * image's id), "" unknown, filled by chk_finish.
	 */
	char *cfg[DF_BASES_MAX];
	int cfg_bad[DF_BASES_MAX];
	char id[DF_BASES_MAX][65];
};

struct df_params {
	const struct cJSON *buildargs;	/* object of strings, or NULL */
	struct df_bases *bases;		/* out: filled when not NULL */
	/*
	 * A base image's ONBUILD triggers instead of a Dockerfile: the text
	 * is read as a stage already begun (imagebuilder parses the
	 * triggers joined by newlines and runs them right after FROM), whose
	 * environment is env[0..nenv) ("NAME=value", the image's Env), and
	 * refusals name origin ("Dockerfile" when NULL).
	 */
	int triggers;
	const char *const *env;
	size_t nenv;
	const char *origin;
};

/* Free what bases holds (bases->n back to 0). */
void df_bases_free(struct df_bases *bases);
/* Add ref to bases unless it is there (over set when full). */
void df_bases_add(struct df_bases *bases, const char *ref);

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
 * buildah. p->bases, when set, gets the base images (its over flag is
 * not a refusal: the caller decides). Returns 0, or -1 with *r set.
 */
int dockerfile_check(const char *text, size_t len, const struct df_params *p,
    struct cg_refusal *r);

#endif
