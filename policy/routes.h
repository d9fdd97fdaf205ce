/*
 * Routing (routes.md §2-§7): path validation, the version prefix and API
 * selection, denied families and verbs, BuildKit refusal (classify.c), and
 * the const route tables with the policed query keys of each route
 * (§4.4-4.5; routes.c); the route query policies that live in their own
 * files (filters.c: §8, build.c: policy.md §10). Shared by the child's
 * policy and the monitor's re-check (privsep.md §9.1 item 3). No I/O, no
 * facts.
 */
#ifndef CG_POLICY_ROUTES_H
#define CG_POLICY_ROUTES_H

#include <stddef.h>

#include "base/gwerror.h"
#include "policy/types.h"
#include "policy/query.h"

/* API masks of a route row. */
#define ROUTE_C		0x1u
#define ROUTE_L		0x2u
#define ROUTE_CL	(ROUTE_C | ROUTE_L)

/* Method masks. */
#define RM_GET		0x01u
#define RM_HEAD		0x02u
#define RM_POST		0x04u
#define RM_PUT		0x08u
#define RM_DELETE	0x10u
#define RM_ANY		0x1fu

/* Row flags. */
#define RF_NHT		0x01u	/* no response-head timeout (http.md §10.3) */
#define RF_HIJACK	0x02u	/* attach / exec start (http.md §9) */
#define RF_DENIED	0x04u	/* denied verb (§7.2): 403 denied-endpoint */
#define RF_REWRITE	0x08u	/* the path ref is rewritten to the id (§9.6) */
#define RF_ANSWER	0x10u	/* answered by the monitor itself, never
				   forwarded (§7.2 as amended; monitor/exchange/answer.c) */

/* Route query policies (§5 step 6); each has a row in routes.c qspecs. */
enum route_qpolicy {
	QP_NONE = 0,
	QP_FILTERS,		/* list / prune / events: label filter (§8.2) */
	QP_IMAGE_PRUNE,		/* §8.3: label filter plus dangling */
	QP_SYSTEM_PRUNE,	/* libpod system prune (§8.4) */
	QP_COMMIT,		/* container required, changes (§9.5) */
	QP_IMAGES_CREATE,	/* compat pull / import (§10.2.1) */
	QP_IMAGES_PULL,		/* libpod pull (§10.2.2) */
	QP_IMAGES_IMPORT,	/* libpod import (§10.2.3) */
	QP_CONTAINER_STATS,	/* libpod containers/stats (§9.5) */
	QP_POD_STATS,		/* libpod pods/stats (§9.5) */
	QP_IMAGES_REMOVE,	/* libpod bulk image remove (§9.5) */
	QP_IMAGE_REMOVE,	/* image remove / untag: force policed */
	QP_BUILD,		/* policy.md §10 */
	QP_TOP,			/* container top: ps_args on docker backends */
	QP_COUNT
};

/*
 * One row of the route tables (§6). pattern is the path after the version
 * and "libpod" segments: literal segments and placeholders {c} {p} {v}
 * {n} {e} (one segment each) and {i} (an image ref, one or more
 * segments, §10.1); at most one placeholder per pattern.
 */
struct cg_route {
	unsigned apis;		/* ROUTE_* */
	unsigned methods;	/* RM_* */
	const char *pattern;
	const char *family;	/* first pattern segment: "containers", ... */
	const char *action;	/* §6 action; for RF_DENIED rows the verb */
	int owner;		/* enum cg_fact_kind of the path ref, or -1 */
	enum cg_body body;
	unsigned flags;		/* RF_* */
	enum route_qpolicy qpolicy;
	const char *deny_detail; /* RF_DENIED rows: the refusal detail, or
				    NULL for "<verb> is not available through
				    the gateway" */
	const char *deny_hint;	/* RF_DENIED rows: what to do instead */
};

/* Policed query keys and query refs of a route query policy (§4.5, §9.5). */
struct route_qspec {
	const char *const *policed;	/* NULL-terminated, canonical */
	const char *const *multi;	/* policed keys allowed to repeat */
	const char *ref_key;		/* query key naming refs, or NULL */
	int ref_kind;			/* enum cg_fact_kind of those refs */
	int ref_rewrite;		/* values replaced by the id */
};

/* The outcome of route_classify(). */
struct route_match {
	enum cg_api api;
	size_t prefix_len;	/* bytes of the version prefix ("/v1.41"), 0 */
	const struct cg_route *route;
	int ref_kind;		/* route->owner, or -1 */
	size_t ref_seg;		/* first segment of the path ref (version and
				   "libpod" segments counted) */
	size_t ref_nseg;	/* segments it spans (0: no ref) */
	size_t name_seg;	/* the pattern's placeholder ({i}, {c}, ...),
				   owned or not: first segment, as ref_seg */
	size_t name_nseg;	/* segments it spans (0: none) */
};

/*
 * 1 when path[0..len) passes §2 (starts with '/', no '%', '\', bytes
 * outside 0x21-0x7e, empty, "." or ".." segments; "/" alone is valid)
 * and http.md §2's request-target bytes (no '#'), which the monitor's
 * FORWARD check has no HTTP parser to enforce.
 */
int route_path_valid(const char *path, size_t len);

/*
 * §3 canonical version segment s[0..len) (without the leading '/'; at
 * most VERSION_SEG_MAX bytes; numbers 0 or 1-4 digits without a leading
 * zero): returns 2 for the compat form v<MAJ>.<MIN> with *maj / *min set,
 * 3 for the libpod form v<MAJ>.<MIN>.<PATCH>[-<alnum suffix>] (*maj, *min
 * untouched), 0 for anything else.
 */
int route_version(const char *s, size_t len, unsigned *maj, unsigned *min);

/*
 * Classify a validated path (route_path_valid) per §5 steps 1-4 on a
 * socket of socket_kind: version and API, libpod on docker.sock, grpc
 * (http.md §3.8), denied families and BuildKit paths (§7.1, §7.3), route
 * lookup by API, method and segment shape (§6, §10.1), denied verbs
 * (§7.2). Returns 0 with *m filled, or -1 with *r set: 400 malformed (API
 * version below v1.24), 403 denied-endpoint, 403 unknown-endpoint.
 */
int route_classify(enum cg_kind socket_kind, const char *method,
    const char *path, size_t len, int grpc, struct route_match *m,
    struct cg_refusal *r);

/*
 * §2 as amended on 2026-12-07: podman --remote sends every path value
 * escaped (Go's url.PathEscape), so an image name's '/' arrives as %2F;
 * both daemons decode it once (podman's router, Go's net/http for
 * dockerd) and read the same image as from the plain form (measured:
 * tests/integration/cli.sh s_encoded_image_names). path[0..len) is a
 * request path that failed route_path_valid(). When its only
 * percent-encodings are %2F or %2f (at most 32), the decoded path is
 * valid, classifies (route_classify on socket_kind and method) as an
 * images route with a name placeholder, and every decoded '/' joins two
 * segments of that placeholder, returns 1 with *out (malloc'd decoded
 * path, *outlen bytes; the caller frees it). Returns 0 otherwise: every
 * other percent-encoding, a %2F anywhere else, and a route refused after
 * decoding (push) stay refused (B04).
 */
int route_decode_image_name(enum cg_kind socket_kind, const char *method,
    const char *path, size_t len, char **out, size_t *outlen);

/*
 * The route table of §6 (every row, denied verbs included), for checks
 * that walk it (tests, the query-key allow-lists); *n is set to its
 * length. Never NULL.
 */
const struct cg_route *route_table(size_t *n);

/*
 * The policed keys and query refs of a query policy; an out-of-range qp
 * gets QP_NONE's. Never NULL; points to a const table.
 */
const struct route_qspec *route_qspec(enum route_qpolicy qp);

/*
 * §4.3-4.4 on a parsed query for route rt: a key equal to export/import
 * ignoring ASCII case, then two spellings of one key (equal ignoring ASCII
 * case) with different values, then for each policed key a differently-cased
 * spelling, then a repeated policed key that is not multi-valued. Returns
 * 0, or -1 with *r set to 403 denied-query.
 */
int route_query_keys(const struct cg_route *rt, const struct cg_query *q,
    struct cg_refusal *r);

/*
 * 1 when query value v (NUL-terminated) is "empty" (policy.md §10): after
 * trimming spaces and tabs and ASCII lower-casing, "", "0", "false",
 * "null", "[]" or "{}"; else 0. Query values that are not empty are
 * truthy.
 */
int query_value_empty(const char *v);

/* query_policy.c ----------------------------------------------------- */

/*
 * §5 step 6: the query policy of req's route (req->route->qpolicy) on
 * req->query: the label filters (filters_apply, filters_system_prune),
 * commit (container required, changes of policy.md §13.2), compat
 * images/create (exactly one of fromImage and fromSrc; fromSrc "-" only,
 * which makes req an import: action, body kind stream, no head timeout),
 * libpod pull and import, stats and bulk image remove (§9.5), build
 * (build_query_policy). Returns 0, or -1 with *r set (400 malformed, 403
 * denied-query, commit-label and the codes of the policies it calls).
 */
int query_policy(const struct cg_policy_ctx *ctx, struct cg_request *req,
    struct cg_refusal *r);

/*
 * Hardening beyond §10.3, after the ownership checks: a truthy force on
 * image remove, libpod bulk remove and untag (QP_IMAGE_REMOVE,
 * QP_IMAGES_REMOVE). Returns 0, or -1 with *r set to 403 denied-query.
 */
int force_policy(const struct cg_request *req, struct cg_refusal *r);

/* filters.c ---------------------------------------------------------- */

/*
 * §8.1-8.3 (amended 2026-12-01; doc/filters.md): the label filter of the list,
 * prune and events route rt. Reads the (single, already policed) filters
 * pair of q, checks it (JSON rules of policy.md §0.1-0.2, object of lists
 * of strings / objects of booleans), converts it to list form, refuses a
 * member that ctx->backend_kind would OR with the project label on this
 * route (doc/filters.md: podman volume prune filters, image prune label
 * and label!, event label values; a label value equal to KEY=ROOT is never
 * refused), appends KEY=ctx->root to label (not on a podman volume list
 * whose client filters select anything: they are forwarded as sent and the
 * monitor post-filters the answer, monitor/exchange/listfilter.c) and, on image prune
 * (QP_IMAGE_PRUNE), sets dangling to ["true"]; writes the compact JSON
 * back in place or appends a filters pair. Returns 0, or -1 with *r set
 * (400 malformed, 403 ambiguous-field, 403 denied-query).
 */
int filters_apply(const struct cg_policy_ctx *ctx, const struct cg_route *rt,
    struct cg_query *q, struct cg_refusal *r);

/*
 * §8.4 libpod system prune on route rt: truthy external -> 403
 * denied-query, all removed, then filters_apply() (which refuses every
 * client filter but KEY=ROOT: podman ORs them on volumes and images).
 * Returns 0 or -1 with *r set.
 */
int filters_system_prune(const struct cg_policy_ctx *ctx,
    const struct cg_route *rt, struct cg_query *q, struct cg_refusal *r);

/* build.c ------------------------------------------------------------ */

/* Every build query key the gateway knows (policy.md §10.2), NULL-ended. */
extern const char *const build_keys[];

/* Multi-valued build keys (t, platform), NULL-ended. */
extern const char *const build_multi_keys[];

/*
 * policy.md §10 on the (policed) query of POST build: BuildKit refusal,
 * allow-list and refused keys in query order, value rules, egress rule,
 * rewrites (labels, buildargs/httpproxy with a proxy, nsoptions default).
 * Returns 0 with q rewritten, or -1 with *r set (403 denied-endpoint,
 * denied-build-parameter, network, egress-required, ambiguous-field,
 * unknown-field, 400 malformed).
 */
int build_query_policy(const struct cg_policy_ctx *ctx, enum cg_api api,
    struct cg_query *q, struct cg_refusal *r);
/*
 * Stage 2 of POST build on req (build.c): on a podman backend the
 * nsoptions network entry gets Path = the project network, asked through
 * ctx->facts (CG_FACT_PROJNET), so RUN steps join it (spec amendment of
 * 2026-12-07, "Projects do not share a network"; tests/integration/
 * isolation.sh i_network_projects). Returns 0, or -1 with *r set (403
 * network for another Path, or the failed question's 502/504).
 */
struct cg_request;
int build_project_network(const struct cg_policy_ctx *ctx,
    const struct cg_request *req, struct cg_refusal *r);

/* build_files.c ------------------------------------------------------ */

/*
 * policy.md §10.3 on the value v (NULL: absent) of dockerfile or
 * ignorefile (key): one path, or a JSON list of path strings (podman),
 * each non-empty, relative, without "..", "\\" or "://"; a dockerfile
 * list of at most one entry, and (hardening, redteam5 F3) no dockerfile
 * that podman runs through the host's cpp (a name ending in ".in").
 * Returns 0, or -1 with *r set (403 denied-build-parameter).
 */
/*
 * On a podman backend, a dockerfile that is a JSON list of one path is
 * forwarded as that path: podman 4.3.1 stats each list entry relative to
 * its own working directory first and reads a host file of that name
 * instead of the context's (measured: dockerfile=["Dockerfile"] built the
 * Dockerfile in podman's working directory), while it joins a plain path
 * to the context. podman-remote sends the list form. Hardening beyond
 * policy.md §10.3; run after build_check_context_path.
 */
struct cg_policy_ctx;
void build_normalise_dockerfile(const struct cg_policy_ctx *ctx,
    struct cg_query *q);
int build_check_context_path(const char *key, const char *v,
    struct cg_refusal *r);

#endif
