/*
 * The checker's reader of a base image's ONBUILD triggers (doc/privsep.md
 * "Builds and archives"). Podman 4.3.1 runs the triggers of a build's
 * base image (config.OnBuild of the image's configuration blob, read as
 * Docker's V2Image: buildah's initConfig) right after FROM, and no
 * inspect answer of podman shows them (measured: compat and libpod image
 * inspect answered "OnBuild": null and no field for an image whose
 * configuration holds a trigger; libimage reads only Comment and
 * HealthCheck of the Docker configuration). So the monitor has the
 * daemon export the image (GET images/{id}/get, a docker-archive, asked
 * over HTTP/1.0: the body runs to the end of the stream) and hands the
 * raw answer to the checker, which finds the configuration that
 * manifest.json names, reads its config.OnBuild and config.Env as Go's
 * encoding/json does (keys matched ignoring case with Unicode folding;
 * an object where two keys fold alike is refused rather than guessed at),
 * and checks the triggers with the Dockerfile rules (check/dockerfile.h,
 * in a stage whose environment is the image's Env). Pure: no I/O.
 */
#ifndef CG_CHECK_ONBUILD_H
#define CG_CHECK_ONBUILD_H

#include <stddef.h>

#include "base/gwerror.h"

struct cJSON;
struct ob_reader;

/*
 * A reader for the export of image ref (as the Dockerfile names it: for
 * messages), whose triggers are checked with the build's buildargs
 * (object of strings, or NULL; kept by the caller until ob_free).
 */
struct ob_reader *ob_new(const char *ref, const struct cJSON *buildargs);
/* Free o and all it holds; NULL is a no-op. */
void ob_free(struct ob_reader *o);
/* The answer's next bytes p[0..n). 0, or -1 once refused. */
int ob_feed(struct ob_reader *o, const unsigned char *p, size_t n);
/*
 * The answer ended. 0 when the image's configuration was found and its
 * triggers pass; -1 with ob_refusal() set otherwise: 502
 * backend-unreachable for an answer that is not a 200 holding a
 * complete docker-archive with that configuration (or a configuration of
 * an unexpected shape), the Dockerfile rules' refusal for a trigger.
 */
int ob_finish(struct ob_reader *o);
/* The refusal after -1 from ob_feed or ob_finish; o keeps it until ob_free. */
const struct cg_refusal *ob_refusal(const struct ob_reader *o);

#endif
