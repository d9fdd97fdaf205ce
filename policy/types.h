/*
 * The policy's vocabulary (policy.md, routes.md, privsep.md §7): the
 * limits, the enumerations shared with the IPC catalogue, the fact
 * callbacks, the connection context and a request as the policy sees it.
 * Types and constants only: the policy's stages (policy/body.h,
 * policy/routes.h, ...) stand on them, and policy/policy.h, the entry
 * that calls those stages, includes them too.
 */
#ifndef CG_POLICY_TYPES_H
#define CG_POLICY_TYPES_H

#include <stddef.h>

#define CG_LABEL_KEY	"org.apache.magpie.project"
#define CG_ID_MAX	255	/* bytes of a resource id (privsep.md §7.2) */
#define CG_PATH_MAX	4096	/* bytes of a bind source / root */
#define CG_TARGET_MAX	196608	/* bytes of a forwarded target */
#define CG_REFS_MAX	64	/* fact questions per request */

enum cg_api { CG_API_COMPAT = 0, CG_API_LIBPOD = 1 };
enum cg_kind { CG_PODMAN = 0, CG_DOCKER = 1 };	/* socket and backend kinds */
enum cg_body {
	CG_BODY_NONE = 0,
	CG_BODY_JSON,
	CG_BODY_JSON_OPTIONAL,
	CG_BODY_STREAM,
};
/* Enumerations shared with the IPC catalogue (privsep.md §7): same order. */
enum cg_fact_kind {
	CG_FACT_CONTAINER = 0, CG_FACT_POD, CG_FACT_VOLUME, CG_FACT_NETWORK,
	CG_FACT_IMAGE, CG_FACT_EXEC,
	/*
	 * The project's own network (spec amendment of 2026-12-07, "Projects
	 * do not share a network"): asked with ref CG_PROJNET_REF, answered
	 * owned with the name of the network that stands for the default one
	 * (monitor/exchange/projnet.c), which may not exist yet. Asked with the id of
	 * a pod answered owned in the same request: CG_PROJNET_POD when the
	 * pod's infra container shares its network with the pod's containers,
	 * else that name.
	 */
	CG_FACT_PROJNET,
};
#define CG_PROJNET_REF	"default"
#define CG_PROJNET_POD	"-pod"	/* never a network name (they start
				   with a letter or digit) */

enum cg_fact_result {
	CG_OWNED = 0, CG_NOT_OWNED, CG_UNREACHABLE, CG_TIMEOUT, CG_UNEXPECTED,
};
enum cg_path_verdict {
	CG_PATH_ALLOWED = 0, CG_PATH_OUTSIDE, CG_PATH_EXCLUDED, CG_PATH_SOCKET,
	CG_PATH_UNRESOLVABLE,
};
enum cg_egress { CG_EGRESS_OFF = 0, CG_EGRESS_INJECT, CG_EGRESS_REQUIRE };

/* Answers to the policy's questions; arg is passed back unchanged. */
struct cg_facts {
	/*
	 * Is ref (NUL-terminated, bytes as received) of this kind owned by the
	 * project (routes.md §9.2-9.3)? prefix is the client's version prefix
	 * ("" or e.g. "/v1.41"). On CG_OWNED the resolved id is written to
	 * id_out (CG_ID_MAX + 1 bytes; for exec: the exec's container id).
	 */
	enum cg_fact_result (*owned)(void *arg, enum cg_fact_kind kind,
	    enum cg_api api, const char *prefix, const char *ref,
	    char id_out[CG_ID_MAX + 1]);
	/*
	 * Resolve an absolute bind source (policy.md §4.4). On
	 * CG_PATH_ALLOWED the resolved path is in out; on CG_PATH_OUTSIDE out
	 * holds the allowed roots joined by ", " for the refusal detail.
	 * out: CG_PATH_MAX + 1 bytes.
	 */
	enum cg_path_verdict (*resolve)(void *arg, const char *path,
	    char out[CG_PATH_MAX + 1]);
	/* A WARNING line for the log (policy.md §3.7). */
	void (*warn)(void *arg, const char *msg);
	void *arg;
};

/* What the policy knows about the connection (CONN_START, privsep.md §7.1). */
struct cg_policy_ctx {
	const char *root;		/* ROOT, the label value */
	enum cg_kind socket_kind;	/* podman.sock or docker.sock */
	enum cg_kind backend_kind;
	enum cg_egress egress;
	int proxy_available;
	const char *proxy;		/* "http://alias:port" */
	const char *noproxy;		/* "localhost,127.0.0.1,alias" */
	const struct cg_facts *facts;	/* NULL: every question fails closed */
	unsigned backend_timeout_ms;	/* --backend-timeout for 504 details; 0 = 60 s */
	/*
	 * The backend fails a compat commit without a body (podman 4.3:
	 * 500 "Decode(): EOF"), as the monitor measured at start-up
	 * (struct listener.commit_needs_body): an empty compat commit body
	 * is then forwarded as "{}" (usability.sh u_commit). 0 keeps http.md
	 * §4.1.
	 */
	int commit_needs_body;
	/*
	 * The backend is a rootless podman service (its socket is not
	 * root's; struct listener.backend_rootless): build RUN steps get no
	 * network there (policy/build.c, measured on podman 4.3.1).
	 */
	int backend_rootless;
};

struct cg_route;	/* a row of the route tables (policy/routes.c) */
struct cg_query;	/* parsed query pairs (policy/query.h) */

/* One request as the policy sees it, filled in two stages. */
struct cg_request {
	/* Set by policy_route(). */
	char method[17];
	char *path;		/* client's path (no query), malloc'd */
	size_t path_len;
	char prefix[48];	/* version prefix as sent: "" or "/v1.41" */
	enum cg_api api;
	const struct cg_route *route;
	const char *action;	/* route action name, e.g. "create" */
	const char *family;	/* route family: "containers", "volumes",
				   "networks", "pods", "exec", "images",
				   "commit", "build", "system", ... */
	enum cg_body body_kind;	/* of this request (images/create: by query) */
	int hijack;		/* attach or exec start (http.md §9) */
	int no_head_timeout;	/* "NHT" routes (http.md §10.3) */
	struct cg_query *query;	/* parsed, then rewritten in place */
	char *query_dropped;	/* query keys not forwarded (routes.md §4.4,
				   amended), ", "-joined, or NULL; malloc'd */
	char *body_dropped;	/* body fields not forwarded (leniency rule,
				   doc/leniency.md), the same form; set by
				   policy_finish() */
	size_t body_dropped_len;
	/*
	 * The ref in the path, if the route names one (routes.md §6): its
	 * kind (-1: none), the index of its first segment in the client path
	 * (segment 0 is the first after the leading '/', version included),
	 * the number of segments it spans, and whether it is rewritten to the
	 * id (->id). The monitor re-checks these (privsep.md §9.1 item 4).
	 */
	int path_ref_kind;
	size_t path_ref_seg;
	size_t path_ref_nseg;
	int path_ref_rewrite;

	/* Set by policy_finish(): the canonical request to forward. */
	char *target;		/* path + "?" + re-encoded query, malloc'd */
	size_t target_len;
	char *body;		/* canonical JSON body or NULL, malloc'd */
	size_t body_len;
	/*
	 * Asked for before policy_finish() (keep_tree = 1): the body's final
	 * tree, whose serialisation is body, for a caller that reads the
	 * body after the policy without parsing it again (the monitor's
	 * replay, monitor/exchange/createbody.h); NULL otherwise. Deleted by
	 * policy_request_free() unless the caller took it (set it NULL).
	 */
	int keep_tree;
	struct cJSON *tree;
};

#endif
