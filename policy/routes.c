/*
 * The route tables (routes.md §6, §7.2, §10.1) and the policed query keys
 * of each route query policy (§4.3-4.5). The tables are const data read
 * top to bottom (classify.c): literal rows come before the placeholder
 * rows of the same family, so "containers/json" is the list and not the
 * inspect of a container named "json" (and on the compat API, where there
 * is no literal "volumes/json" row, GET /volumes/json is the inspect of a
 * volume named "json").
 */
#include "policy/routes.h"

#include <string.h>

#define NOREF	(-1)

/* Row helpers: R(apis, methods, pattern, family, action, owner, body, flags, qp) */
#define R(a, m, p, f, act, o, b, fl, qp) \
	{ (a), (m), (p), (f), (act), (o), (b), (fl), (qp), NULL, NULL }
/* A denied verb with what to do instead (test_gwerror.c). */
#define DENY(a, m, p, f, verb, hint) \
	{ (a), (m), (p), (f), (verb), NOREF, CG_BODY_NONE, RF_DENIED, \
	    QP_NONE, NULL, (hint) }
/* A denied verb with its own refusal detail and hint. */
#define DENYD(a, m, p, f, verb, detail, hint) \
	{ (a), (m), (p), (f), (verb), NOREF, CG_BODY_NONE, RF_DENIED, \
	    QP_NONE, (detail), (hint) }
/* A container verb on containers/{c}/<verb>, owner container ->id. */
#define CV(a, m, verb, body, fl) \
	R(a, m, "containers/{c}/" verb, "containers", verb, CG_FACT_CONTAINER, \
	    body, RF_REWRITE | (fl), QP_NONE)
#define PV(m, verb, fl) \
	R(ROUTE_L, m, "pods/{p}/" verb, "pods", verb, CG_FACT_POD, \
	    CG_BODY_NONE, RF_REWRITE | (fl), QP_NONE)

static const struct cg_route routes[] = {
	/* §6.1 System */
	R(ROUTE_CL, RM_GET | RM_HEAD, "_ping", "_ping", "ping", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_CL, RM_GET, "version", "version", "version", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_CL, RM_GET, "info", "info", "info", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_CL, RM_GET, "events", "events", "events", NOREF,
	    CG_BODY_NONE, 0, QP_FILTERS),
	/*
	 * Forwarded as §8.4 and the conformance kit require, although podman
	 * 4.3 also prunes pods here without the label filter (residual risk,
	 * tool.md "Hardening beyond the spec").
	 */
	R(ROUTE_L, RM_POST, "system/prune", "system", "system-prune", NOREF,
	    CG_BODY_NONE, RF_NHT, QP_SYSTEM_PRUNE),
	/*
	 * §7.2 as amended: the monitor answers system df per project
	 * (monitor/exchange/answer.c, doc/answers.md); other methods stay denied.
	 */
	R(ROUTE_CL, RM_GET, "system/df", "system", "system-df", NOREF,
	    CG_BODY_NONE, RF_ANSWER, QP_NONE),
	DENY(ROUTE_CL, RM_ANY, "system/df", "system", "system/df",
	    "see the project's usage with docker system df (GET), docker ps "
	    "-a --size and docker volume ls"),

	/* §6.2 Containers */
	R(ROUTE_CL, RM_GET, "containers/json", "containers", "list", NOREF,
	    CG_BODY_NONE, 0, QP_FILTERS),
	R(ROUTE_CL, RM_POST, "containers/create", "containers", "create",
	    NOREF, CG_BODY_JSON, 0, QP_NONE),
	R(ROUTE_CL, RM_POST, "containers/prune", "containers", "prune", NOREF,
	    CG_BODY_NONE, RF_NHT, QP_FILTERS),
	R(ROUTE_L, RM_GET, "containers/stats", "containers", "stats-all",
	    NOREF, CG_BODY_NONE, 0, QP_CONTAINER_STATS),
	R(ROUTE_CL, RM_DELETE, "containers/{c}", "containers", "remove",
	    CG_FACT_CONTAINER, CG_BODY_NONE, RF_REWRITE | RF_NHT, QP_NONE),
	DENY(ROUTE_CL, RM_ANY, "containers/{c}/checkpoint", "containers",
	    "checkpoint", "stop and start the container instead"),
	DENY(ROUTE_CL, RM_ANY, "containers/{c}/restore", "containers",
	    "restore", "stop and start the container instead"),
	DENY(ROUTE_CL, RM_ANY, "containers/{c}/attach/ws", "containers",
	    "attach/ws", "attach with docker attach (or podman attach)"),
	R(ROUTE_CL, RM_GET, "containers/{c}/json", "containers", "inspect",
	    CG_FACT_CONTAINER, CG_BODY_NONE, RF_REWRITE, QP_NONE),
	CV(ROUTE_L, RM_GET, "exists", CG_BODY_NONE, 0),
	CV(ROUTE_CL, RM_POST, "start", CG_BODY_NONE, 0),
	CV(ROUTE_CL, RM_POST, "stop", CG_BODY_NONE, RF_NHT),
	CV(ROUTE_CL, RM_POST, "restart", CG_BODY_NONE, RF_NHT),
	CV(ROUTE_CL, RM_POST, "kill", CG_BODY_NONE, RF_NHT),
	CV(ROUTE_CL, RM_POST, "pause", CG_BODY_NONE, 0),
	CV(ROUTE_CL, RM_POST, "unpause", CG_BODY_NONE, 0),
	CV(ROUTE_CL, RM_POST, "wait", CG_BODY_NONE, RF_NHT),
	CV(ROUTE_L, RM_POST, "init", CG_BODY_NONE, 0),
	CV(ROUTE_CL, RM_POST, "resize", CG_BODY_NONE, 0),
	CV(ROUTE_CL, RM_POST, "rename", CG_BODY_NONE, 0),
	CV(ROUTE_CL, RM_POST, "update", CG_BODY_JSON, 0),
	CV(ROUTE_CL, RM_POST, "attach", CG_BODY_NONE, RF_HIJACK),
	R(ROUTE_CL, RM_POST, "containers/{c}/exec", "containers",
	    "exec-create", CG_FACT_CONTAINER, CG_BODY_JSON, RF_REWRITE, QP_NONE),
	CV(ROUTE_CL, RM_GET, "logs", CG_BODY_NONE, 0),
	R(ROUTE_CL, RM_GET, "containers/{c}/top", "containers", "top",
	    CG_FACT_CONTAINER, CG_BODY_NONE, RF_REWRITE, QP_TOP),
	CV(ROUTE_CL, RM_GET, "stats", CG_BODY_NONE, 0),
	CV(ROUTE_CL, RM_GET, "changes", CG_BODY_NONE, 0),
	CV(ROUTE_CL, RM_GET, "export", CG_BODY_NONE, 0),
	R(ROUTE_CL, RM_GET | RM_HEAD, "containers/{c}/archive", "containers",
	    "archive-get", CG_FACT_CONTAINER, CG_BODY_NONE, RF_REWRITE, QP_NONE),
	R(ROUTE_CL, RM_PUT, "containers/{c}/archive", "containers",
	    "archive-put", CG_FACT_CONTAINER, CG_BODY_STREAM, RF_REWRITE,
	    QP_NONE),
	CV(ROUTE_L, RM_GET, "healthcheck", CG_BODY_NONE, RF_NHT),
	CV(ROUTE_L, RM_POST, "mount", CG_BODY_NONE, 0),
	CV(ROUTE_L, RM_POST, "unmount", CG_BODY_NONE, 0),
	CV(ROUTE_L, RM_POST, "shouldrestart", CG_BODY_NONE, 0),

	/* §6.3 Exec sessions: the exec id is never rewritten. */
	R(ROUTE_CL, RM_POST, "exec/{e}/start", "exec", "exec-start",
	    CG_FACT_EXEC, CG_BODY_JSON_OPTIONAL, RF_HIJACK, QP_NONE),
	R(ROUTE_CL, RM_POST, "exec/{e}/resize", "exec", "exec-resize",
	    CG_FACT_EXEC, CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_CL, RM_GET, "exec/{e}/json", "exec", "exec-inspect",
	    CG_FACT_EXEC, CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_L, RM_POST, "exec/{e}/remove", "exec", "exec-remove",
	    CG_FACT_EXEC, CG_BODY_JSON_OPTIONAL, 0, QP_NONE),

	/* §6.4 Images (reads are never label-checked, decision 9) */
	R(ROUTE_CL, RM_GET, "images/json", "images", "list", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_C, RM_POST, "images/create", "images", "pull", NOREF,
	    CG_BODY_NONE, 0, QP_IMAGES_CREATE),
	R(ROUTE_L, RM_POST, "images/pull", "images", "pull", NOREF,
	    CG_BODY_NONE, 0, QP_IMAGES_PULL),
	R(ROUTE_CL, RM_POST, "images/load", "images", "load", NOREF,
	    CG_BODY_STREAM, RF_NHT, QP_NONE),
	R(ROUTE_L, RM_POST, "images/import", "images", "import", NOREF,
	    CG_BODY_STREAM, RF_NHT, QP_IMAGES_IMPORT),
	R(ROUTE_CL, RM_GET, "images/search", "images", "search", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_C, RM_GET, "images/get", "images", "save", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_L, RM_GET, "images/export", "images", "save", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_CL, RM_POST, "images/prune", "images", "prune", NOREF,
	    CG_BODY_NONE, RF_NHT, QP_IMAGE_PRUNE),
	R(ROUTE_L, RM_DELETE, "images/remove", "images", "remove-bulk", NOREF,
	    CG_BODY_NONE, 0, QP_IMAGES_REMOVE),
	DENY(ROUTE_L, RM_POST, "images/scp/{i}", "images", "scp",
	    "move images with docker save and docker load"),
	R(ROUTE_CL, RM_GET, "images/{i}/json", "images", "inspect", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_CL, RM_GET, "images/{i}/history", "images", "history", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_CL, RM_GET, "images/{i}/get", "images", "save", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_L, RM_GET, "images/{i}/exists", "images", "exists", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_L, RM_GET, "images/{i}/tree", "images", "read", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_L, RM_GET, "images/{i}/changes", "images", "read", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_L, RM_GET, "images/{i}/resolve", "images", "read", NOREF,
	    CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_CL, RM_POST, "images/{i}/tag", "images", "tag",
	    CG_FACT_IMAGE, CG_BODY_NONE, RF_REWRITE, QP_NONE),
	R(ROUTE_L, RM_POST, "images/{i}/untag", "images", "untag",
	    CG_FACT_IMAGE, CG_BODY_NONE, 0, QP_IMAGE_REMOVE),
	DENY(ROUTE_CL, RM_POST, "images/{i}/push", "images", "push",
	    "push from outside the gateway (the daemon's own socket), after "
	    "checking the image"),
	R(ROUTE_CL, RM_DELETE, "images/{i}", "images", "remove",
	    CG_FACT_IMAGE, CG_BODY_NONE, 0, QP_IMAGE_REMOVE),

	/* §6.5 Volumes: names are identities, never rewritten. */
	R(ROUTE_C, RM_GET, "volumes", "volumes", "list", NOREF,
	    CG_BODY_NONE, 0, QP_FILTERS),
	R(ROUTE_L, RM_GET, "volumes/json", "volumes", "list", NOREF,
	    CG_BODY_NONE, 0, QP_FILTERS),
	R(ROUTE_CL, RM_POST, "volumes/create", "volumes", "create", NOREF,
	    CG_BODY_JSON, 0, QP_NONE),
	R(ROUTE_CL, RM_POST, "volumes/prune", "volumes", "prune", NOREF,
	    CG_BODY_NONE, RF_NHT, QP_FILTERS),
	DENY(ROUTE_L, RM_ANY, "volumes/{v}/export", "volumes", "export",
	    "copy files with a container that mounts the volume and docker cp"),
	DENY(ROUTE_L, RM_ANY, "volumes/{v}/import", "volumes", "import",
	    "copy files with a container that mounts the volume and docker cp"),
	R(ROUTE_C, RM_GET, "volumes/{v}", "volumes", "inspect",
	    CG_FACT_VOLUME, CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_L, RM_GET, "volumes/{v}/json", "volumes", "inspect",
	    CG_FACT_VOLUME, CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_L, RM_GET, "volumes/{v}/exists", "volumes", "exists",
	    CG_FACT_VOLUME, CG_BODY_NONE, 0, QP_NONE),
	R(ROUTE_CL, RM_DELETE, "volumes/{v}", "volumes", "remove",
	    CG_FACT_VOLUME, CG_BODY_NONE, 0, QP_NONE),

	/* §6.6 Networks */
	R(ROUTE_C, RM_GET, "networks", "networks", "list", NOREF,
	    CG_BODY_NONE, 0, QP_FILTERS),
	R(ROUTE_L, RM_GET, "networks/json", "networks", "list", NOREF,
	    CG_BODY_NONE, 0, QP_FILTERS),
	R(ROUTE_CL, RM_POST, "networks/create", "networks", "create", NOREF,
	    CG_BODY_JSON, 0, QP_NONE),
	R(ROUTE_CL, RM_POST, "networks/prune", "networks", "prune", NOREF,
	    CG_BODY_NONE, RF_NHT, QP_FILTERS),
	R(ROUTE_C, RM_GET, "networks/{n}", "networks", "inspect",
	    CG_FACT_NETWORK, CG_BODY_NONE, RF_REWRITE, QP_NONE),
	R(ROUTE_L, RM_GET, "networks/{n}/json", "networks", "inspect",
	    CG_FACT_NETWORK, CG_BODY_NONE, RF_REWRITE, QP_NONE),
	R(ROUTE_L, RM_GET, "networks/{n}/exists", "networks", "exists",
	    CG_FACT_NETWORK, CG_BODY_NONE, RF_REWRITE, QP_NONE),
	R(ROUTE_CL, RM_DELETE, "networks/{n}", "networks", "remove",
	    CG_FACT_NETWORK, CG_BODY_NONE, RF_REWRITE, QP_NONE),
	R(ROUTE_CL, RM_POST, "networks/{n}/connect", "networks", "connect",
	    CG_FACT_NETWORK, CG_BODY_JSON, RF_REWRITE, QP_NONE),
	R(ROUTE_CL, RM_POST, "networks/{n}/disconnect", "networks",
	    "disconnect", CG_FACT_NETWORK, CG_BODY_JSON, RF_REWRITE, QP_NONE),

	/* §6.7 Pods (libpod only) */
	R(ROUTE_L, RM_GET, "pods/json", "pods", "list", NOREF,
	    CG_BODY_NONE, 0, QP_FILTERS),
	R(ROUTE_L, RM_POST, "pods/create", "pods", "create", NOREF,
	    CG_BODY_JSON, 0, QP_NONE),
	/*
	 * Hardening beyond routes.md §6.7: podman 4.3 ignores the filters of
	 * pod prune and removes every project's stopped pods and their
	 * containers.
	 */
	DENYD(ROUTE_L, RM_POST, "pods/prune", "pods", "pods/prune",
	    "pod prune removes every project's pods and is refused",
	    "remove your pods by name: podman --remote pod rm NAME"),
	R(ROUTE_L, RM_GET, "pods/stats", "pods", "stats-all", NOREF,
	    CG_BODY_NONE, 0, QP_POD_STATS),
	R(ROUTE_L, RM_DELETE, "pods/{p}", "pods", "remove", CG_FACT_POD,
	    CG_BODY_NONE, RF_REWRITE | RF_NHT, QP_NONE),
	PV(RM_GET, "json", 0),
	PV(RM_GET, "exists", 0),
	PV(RM_POST, "start", 0),
	PV(RM_POST, "pause", 0),
	PV(RM_POST, "unpause", 0),
	PV(RM_POST, "stop", RF_NHT),
	PV(RM_POST, "restart", RF_NHT),
	PV(RM_POST, "kill", RF_NHT),
	PV(RM_GET, "top", 0),

	/* §6.8 Build and commit */
	R(ROUTE_CL, RM_POST, "build", "build", "build", NOREF,
	    CG_BODY_STREAM, 0, QP_BUILD),
	/*
	 * §7.2 as amended: the monitor answers the compat build cache prune
	 * itself, never forwarding it (doc/answers.md): the gateway's builds
	 * are legacy builds, which leave nothing in a backend's build cache
	 * (measured: doc/answers.md), so nothing the project owns is there.
	 */
	R(ROUTE_C, RM_POST, "build/prune", "build", "build-prune", NOREF,
	    CG_BODY_NONE, RF_ANSWER, QP_NONE),
	DENY(ROUTE_CL, RM_ANY, "build/prune", "build", "build/prune",
	    "remove the project's images with docker rmi"),
	R(ROUTE_C, RM_POST, "commit", "commit", "commit", NOREF,
	    CG_BODY_JSON_OPTIONAL, RF_NHT, QP_COMMIT),
	R(ROUTE_L, RM_POST, "commit", "commit", "commit", NOREF,
	    CG_BODY_NONE, RF_NHT, QP_COMMIT),
};

/* ---- §4.4-4.5 policed query keys ------------------------------------ */

static const char *const k_none[] = { NULL };
static const char *const k_filters[] = { "filters", NULL };
static const char *const k_system_prune[] = {
	"filters", "all", "external", NULL
};
/*
 * Keys a policy reads are policed: one spelling, one value (docker reads a
 * repeated key's first value, podman's decoder its last). commit: repo and
 * tag name the image it writes (policy/imgdest.c), pause is forced true
 * (advisory podman-rootfs-walk, query_policy.c qp_commit).
 */
static const char *const k_commit[] = {
	"container", "changes", "repo", "tag", "pause", NULL
};
static const char *const k_changes[] = { "changes", NULL };
static const char *const k_images_create[] = {
	"fromImage", "fromSrc", "changes", "repo", "tag", NULL
};
static const char *const k_images_pull[] = { "reference", "authfile", NULL };
static const char *const k_images_import[] = {
	"url", "changes", "reference", NULL
};
static const char *const k_container_stats[] = { "containers", "all", NULL };
static const char *const k_containers[] = { "containers", NULL };
static const char *const k_pod_stats[] = { "namesOrIDs", "all", NULL };
static const char *const k_names_or_ids[] = { "namesOrIDs", NULL };
static const char *const k_images_remove[] = {
	"images", "all", "force", NULL
};
static const char *const k_force[] = { "force", NULL };
static const char *const k_images[] = { "images", NULL };
static const char *const k_ps_args[] = { "ps_args", NULL };

static const struct route_qspec qspecs[QP_COUNT] = {
	[QP_NONE] = { k_none, k_none, NULL, 0, 0 },
	[QP_FILTERS] = { k_filters, k_none, NULL, 0, 0 },
	[QP_IMAGE_PRUNE] = { k_filters, k_none, NULL, 0, 0 },
	[QP_SYSTEM_PRUNE] = { k_system_prune, k_none, NULL, 0, 0 },
	[QP_COMMIT] = { k_commit, k_changes, "container",
	    CG_FACT_CONTAINER, 1 },
	[QP_IMAGES_CREATE] = { k_images_create, k_changes, NULL, 0, 0 },
	[QP_IMAGES_PULL] = { k_images_pull, k_none, NULL, 0, 0 },
	[QP_IMAGES_IMPORT] = { k_images_import, k_changes, NULL, 0, 0 },
	[QP_CONTAINER_STATS] = { k_container_stats, k_containers,
	    "containers", CG_FACT_CONTAINER, 1 },
	[QP_POD_STATS] = { k_pod_stats, k_names_or_ids, "namesOrIDs",
	    CG_FACT_POD, 1 },
	[QP_IMAGES_REMOVE] = { k_images_remove, k_images, "images",
	    CG_FACT_IMAGE, 0 },
	[QP_IMAGE_REMOVE] = { k_force, k_none, NULL, 0, 0 },
	[QP_BUILD] = { build_keys, build_multi_keys, NULL, 0, 0 },
	[QP_TOP] = { k_ps_args, k_none, NULL, 0, 0 },
};

const struct cg_route *
route_table(size_t *n)
{
	*n = sizeof(routes) / sizeof(routes[0]);
	return routes;
}

const struct route_qspec *
route_qspec(enum route_qpolicy qp)
{
	if ((unsigned)qp >= QP_COUNT)
		return &qspecs[QP_NONE];
	return &qspecs[qp];
}

/* ---- §4.3-4.4 query keys -------------------------------------------- */

static int
in_list(const char *key, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(key, *list) == 0)
			return 1;
	return 0;
}

int
route_query_keys(const struct cg_route *rt, const struct cg_query *q,
    struct cg_refusal *r)
{
	const struct route_qspec *qs = route_qspec(rt->qpolicy);
	const char *const *k;
	char a[260], b[260];
	size_t i, j;

	for (i = 0; i < q->n; i++)
		if (ascii_caseeq(q->v[i].key, "export") ||
		    ascii_caseeq(q->v[i].key, "import"))
			return cg_refuse(r, "denied-query",
			    "%s is not available through the gateway",
			    cg_quote(q->v[i].key, strlen(q->v[i].key), a));
	/*
	 * Two spellings of one key with different values: podman decodes
	 * query keys ignoring case (gorilla/schema) and keeps the value it
	 * meets last, in an order of its own; docker reads one spelling.
	 * Whichever value the policy read, the daemon could use the other
	 * (measured on podman 4.3.1: commit with pause=true and case variants
	 * =false ran unpaused). The same value twice is podman-remote's own
	 * attach (detachKeys=…&detachkeys=…, ../shared/cli-traffic).
	 */
	for (i = 0; i < q->n; i++)
		for (j = 0; j < i; j++)
			if (strcmp(q->v[i].key, q->v[j].key) != 0 &&
			    ascii_caseeq(q->v[i].key, q->v[j].key) &&
			    strcmp(q->v[i].value, q->v[j].value) != 0)
				return cg_refuse(r, "denied-query",
				    "%s and %s are one key to podman; send it "
				    "once", cg_quote(q->v[j].key,
				    strlen(q->v[j].key), a), cg_quote(
				    q->v[i].key, strlen(q->v[i].key), b));
	for (i = 0; i < q->n; i++)
		for (k = qs->policed; *k != NULL; k++)
			if (strcmp(q->v[i].key, *k) != 0 &&
			    ascii_caseeq(q->v[i].key, *k))
				return cg_refuse(r, "denied-query",
				    "%s is not the canonical spelling of %s",
				    cg_quote(q->v[i].key,
				    strlen(q->v[i].key), a),
				    cg_quote(*k, strlen(*k), b));
	for (k = qs->policed; *k != NULL; k++)
		if (!in_list(*k, qs->multi) && query_count(q, *k) > 1)
			return cg_refuse(r, "denied-query",
			    "%s appears more than once", *k);
	return 0;
}

/* ---- helpers shared by the query policies --------------------------- */

int
query_value_empty(const char *v)
{
	static const char *const empties[] = {
		"", "0", "false", "null", "[]", "{}", NULL
	};
	size_t b = 0, e = strlen(v), i;
	char low[8];

	while (b < e && (v[b] == ' ' || v[b] == '\t'))
		b++;
	while (e > b && (v[e - 1] == ' ' || v[e - 1] == '\t'))
		e--;
	if (e - b >= sizeof(low))
		return 0;
	for (i = 0; b + i < e; i++) {
		char c = v[b + i];

		low[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	low[i] = '\0';
	return in_list(low, empties);
}
