/*
 * Image references that podman would read as a containers/image transport
 * ("docker-archive:/path", "dir:/path", "oci:…"): a host path the daemon
 * opens as root, for reading (build from, pod infra_image) or for writing
 * the built image (build t). Hardening beyond policy.md §7 and §10 (red
 * team s7 F1, F2, F2b; tests/integration/tools.sh t_build_transports).
 */
#ifndef CG_POLICY_IMAGEREF_H
#define CG_POLICY_IMAGEREF_H

#include "base/gwerror.h"
#include "policy/query.h"

/*
 * 1 when v (NUL-terminated) starts with the name of a containers/image
 * transport and a ':' (the name compared in any case, which is stricter
 * than podman's exact lookup: no image name holds upper case), else 0.
 */
int image_ref_transport(const char *v);

/*
 * The build query's image references: every t, and from. Returns 0, or -1
 * with *r set (403 denied-build-parameter) for the first one that names a
 * transport.
 */
int build_check_image_refs(const struct cg_query *q, struct cg_refusal *r);

/*
 * Pod create's infra_image (a string or absent/null in body). Returns 0,
 * or -1 with *r set (403 host-path) when it names a transport.
 */
int pod_check_infra_image(const char *v, struct cg_refusal *r);

#endif
