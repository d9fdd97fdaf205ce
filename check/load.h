/*
 * The JSON documents of an image archive loaded into the daemon (compat
 * and libpod POST images/load; doc/privsep.md "Builds and archives"):
 * docker-archive manifest.json, repositories and image configs, OCI
 * index.json, manifests and configs. Internal to the checker
 * (check/check.c decides which archive entries are such documents).
 */
#ifndef CG_CHECK_LOAD_H
#define CG_CHECK_LOAD_H

#include <stddef.h>

#include "base/gwerror.h"

#define LOAD_JSON_MAX	(8u << 20)	/* a document read whole, at most */

/*
 * Check the document text[0..len), an archive entry named name whose
 * data starts (after JSON white space) with '{' or '['. It must parse
 * (strict JSON, policy/json.h: Go's decoder reads more, never a document
 * this refuses to read) and hold, at any depth, under any member name
 * that Go's encoding/json matches to the field (case and Unicode folds):
 *   no "annotations" object with a key of annotation_reserved() (403
 *   annotations: podman 4.3.1 keeps a loaded manifest's annotations on
 *   the image, measured also when the image id is another project's or a
 *   shared image's, and copies them into every container made from it);
 *   no "OnBuild" other than null or [] (403 denied-build-parameter: a
 *   later build runs a base image's triggers, which its checked
 *   Dockerfile does not show);
 *   no image name in podman's default infra image repository
 *   (image_name_infra) in a "RepoTags" array, an
 *   "org.opencontainers.image.ref.name" annotation or a top-level key of
 *   a document (docker-archive "repositories"): 403
 *   denied-build-parameter (red team rt10 F1: every project's pods run
 *   that image).
 * Every image name the document gives the loaded image (each "RepoTags"
 * string, each "org.opencontainers.image.ref.name" and
 * "io.containerd.image.name" annotation, each "repo:tag" of a file named
 * "repositories") is added to names (when not NULL; its over flag set
 * past DF_BASES_MAX), for the monitor to check that the load moves no
 * name other projects resolve (monitor/exchange/baseimg.c, as the destinations of
 * tag and build: policy/imgdest.h), with the archive entry of the config
 * of the image it is given to (a manifest.json entry's "Config"; names
 * given otherwise or to two configs have none: struct df_bases); one
 * that is not a plain image
 * reference (image_ref_path_safe, no transport, at most 255 bytes) is
 * refused here, 403 denied-build-parameter.
 * Returns 0, or -1 with *r set (400 malformed when it does not parse).
 */
struct df_bases;
int load_json_check(const char *text, size_t len, const char *name,
    struct df_bases *names, struct cg_refusal *r);

#endif
