/*
 * Body policies of the JSON routes (policy.md §1-§13), called by
 * policy_finish() with the parsed body. Each checks in the order the spec
 * gives and rewrites the tree in place (labels, HostIp, bind sources,
 * egress variables, ids of pod/dependency refs).
 */
#ifndef CG_POLICY_BODY_H
#define CG_POLICY_BODY_H

#include <cjson/cJSON.h>

#include "base/gwerror.h"
#include "policy/types.h"

/*
 * Run the body policy of req's route on *tree (the parsed body, never
 * NULL; 400 malformed unless it is an object, policy.md §3 step 2).
 * Routes without a body policy of their own only get the common rules
 * (policy.md §0.2). Rewrites the tree in place (members may be replaced,
 * e.g. a null HostConfig becomes {}); *tree itself is never replaced
 * today. Asks ctx->facts where the spec says (bind sources, pod,
 * dependency containers, connect/disconnect Container). Returns 0 or -1
 * with *r set.
 */
int body_policy(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON **tree, struct cg_refusal *r);

/* One bind source of a create body (body_bind_sources). */
struct cg_bind_src {
	cJSON *node;		/* the string node that holds it */
	size_t len;		/* its bytes at the start of the string: a
				   compat Binds entry is "SRC:DST[:OPTS]" */
	int binds;		/* 1: a compat Binds entry (dockerd and
				   podman create a missing source); 0: a
				   Mounts or libpod mounts source */
};

/*
 * The host paths a container or pod create body binds (policy.md §4),
 * for the monitor's pins (monitor/pins.c): compat HostConfig.Binds
 * entries with an absolute source and HostConfig.Mounts entries of Type
 * "bind" (any case, as the compat decoders read it); libpod (and pod
 * create) mounts of type "bind" exactly (podman compares it so). tree is
 * a body body_policy() accepted, so every source is a resolved path.
 * Fills out[0..max) in document order and returns how many, or -1 when
 * there are more than max.
 */
int body_bind_sources(enum cg_api api, int pod_create, cJSON *tree,
    struct cg_bind_src *out, size_t max);


/*
 * 1 when the container path t, cleaned as the daemons clean it (Go's
 * filepath.Clean; a relative path taken from "/"), is /dev, /proc or /sys
 * or below one of them (spec amendment of 2026-12-07; runc
 * CVE-2025-31133, CVE-2025-52565); else 0. NUL-terminated t. Used by the
 * create policy (policy/mounts.c) and the monitor's start check.
 */
int mount_target_reserved(const char *t);

/*
 * Named networks and volumes of a container or pod create body, for the
 * monitor-side phase (policy.md §3.3.4, §5; privsep.md §9.1 item 7).
 * tree is a body that body_policy() already accepted (the forwarded one).
 * Fills networks[] and volumes[] with up to max names each, deduplicated,
 * in document order, and sets *nnetworks / *nvolumes. The names point into
 * tree and live as long as it: despite the const, a volume name taken
 * from a compat Binds entry is stored in that entry's node (body.c).
 * Returns 0, or -1 if either list has more than max names.
 */
int body_named_resources(enum cg_api api, enum cg_kind backend_kind,
    int pod_create, const cJSON *tree, const char **networks,
    size_t *nnetworks, const char **volumes, size_t *nvolumes, size_t max);

/*
 * The image a create body tree (already accepted by body_policy) makes a
 * container from, for the monitor's image step (monitor/exchange/image.c): compat
 * create Image, libpod create image, pod create infra_image. NULL when
 * the body names none; for a pod create without infra_image whose
 * no_infra is not truthy, *default_infra is set to 1 (podman then uses
 * its default infra image), else 0. The string points into tree.
 */
const char *body_create_image(enum cg_api api, int pod_create,
    const cJSON *tree, int *default_infra);

#endif
