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
#include "policy/types.h"
#include "policy/query.h"

struct cg_route;

/*
 * 1 when v (NUL-terminated) starts with the name of a containers/image
 * transport and a ':' (the name compared in any case, which is stricter
 * than podman's exact lookup: no image name holds upper case; "docker"
 * only with "://", as docker:dind is an image name), else 0.
 */
int image_ref_transport(const char *v);

/* image_ref_transport on v[0..len), NUL not required. */
int image_ref_transport_n(const char *v, size_t len);

/*
 * Every segment of the request path path[0..plen), every query value of
 * q (may be NULL) and every reference the daemon joins from two query
 * values of route rt reached through api (policy/assemble.h: fromImage +
 * tag, repo + tag; rt NULL: none): none may name a transport. Podman
 * opens "containers-storage:[vfs@/ROOT+/RUNROOT]name" as a whole image
 * store at that host path on any image lookup (images/{name}/get read
 * another store's image; a lookup created root-owned directories
 * anywhere: red team s8), and fromImage=containers-storage with
 * tag=[vfs@...]x did the same on pull, commit and tag (spec README,
 * amendments of 2026-12-07). Returns 0, or -1 with *r set (403
 * host-path). Run by policy_route, so the monitor's replay runs it too,
 * before any lookup.
 */
int request_check_transports(const char *path, size_t plen,
    const struct cg_route *rt, enum cg_api api, const struct cg_query *q,
    struct cg_refusal *r);

/*
 * The build query's image references: every t, and from. Returns 0, or -1
 * with *r set (403 denied-build-parameter) for the first one that names a
 * transport.
 */
int build_check_image_refs(const struct cg_query *q, struct cg_refusal *r);

/*
 * 1 when v[0..len) can be spliced into an image inspect path as one or
 * more segments: not empty, bytes 0x21-0x7e without '%', '?', '#', '\\',
 * no empty, "." or ".." segment (an image reference never holds them);
 * else 0. The monitor's image step (monitor/exchange/image.c) requires it.
 */
int image_ref_path_safe(const char *v, size_t len);

/*
 * A body's image field (pod create infra_image, container create Image /
 * image; v NULL or "" when absent): 0, or -1 with *r set: 400 malformed
 * when it is not image_ref_path_safe (the monitor inspects it), 403
 * host-path when it names a transport.
 */
int image_field_check(const char *field, const char *v,
    struct cg_refusal *r);

#endif
