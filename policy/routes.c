/*
 * Path validation, version prefix, denied families and the route tables
 * (routes.md §2-§7, §10.1). The tables are const data read top to bottom:
 * literal rows come before the placeholder rows of the same family, so
 * "containers/json" is the list and not the inspect of a container named
 * "json" (and on the compat API, where there is no literal "volumes/json"
 * row, GET /volumes/json is the inspect of a volume named "json").
 */
#include "policy/routes.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

#define BUILDKIT_DETAIL	"BuildKit is not available through the gateway; " \
	"build with DOCKER_BUILDKIT=0"

#define NOREF	(-1)

#define SWARM_HINT	"swarm mode is not available; run containers with " \
	"docker run or docker-compose"
#define KUBE_HINT	"create the pod and its containers with podman " \
	"--remote pod create and podman --remote run --pod POD"

/* Longest version segment taken as a version: the prefix ("/" + segment)
   must fit struct cg_request.prefix. Longer ones are ordinary segments. */
#define VERSION_SEG_MAX	46

/* Row helpers: R(apis, methods, pattern, family, action, owner, body, flags, qp) */
#define R(a, m, p, f, act, o, b, fl, qp) \
	{ (a), (m), (p), (f), (act), (o), (b), (fl), (qp), NULL, NULL }
/* A denied verb with what to do instead (issue 10 item 7). */
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
	 * (monitor/answer.c, issue 10 item 9); other methods stay denied.
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
	CV(ROUTE_CL, RM_GET, "top", CG_BODY_NONE, 0),
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
	 * itself, never forwarding it (issue 10 item 2): the gateway's builds
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

/*
 * §7.1: denied families (first segment after the version or "libpod",
 * any method, any further segments), each with what to do instead.
 */
static const struct {
	const char *name;
	const char *hint;
} denied_families[] = {
	{ "auth", "log in without the gateway (unset DOCKER_HOST, then docker "
	    "login); docker pull through the gateway sends the credentials it "
	    "stored" },
	{ "swarm", SWARM_HINT }, { "services", SWARM_HINT },
	{ "tasks", SWARM_HINT }, { "nodes", SWARM_HINT },
	{ "configs", SWARM_HINT },
	{ "plugins", "plugins are managed on the daemon's host, not through the "
	    "gateway" },
	{ "secrets", "pass values with -e or in a file inside the project" },
	{ "distribution", "pull the image (docker pull) and inspect it" },
	{ "debug", "use docker logs, docker inspect and docker events" },
	{ "kube", KUBE_HINT }, { "play", KUBE_HINT },
	{ "generate", "write the YAML yourself from podman --remote inspect; "
	    "generate reads state the gateway does not show" },
	{ "local", "use the everyday docker and podman commands" },
	{ "quadlets", "write quadlet files on the host, outside the gateway" },
	{ "artifacts", "keep files in the project or in a named volume" },
	{ "manifests", "build one image per platform; assemble and push the "
	    "manifest outside the gateway" },
};

/* §7.1: denied two-segment paths (and anything below them). */
static const struct {
	const char *first, *second, *hint;
} denied_paths[] = {
	{ "system", "dial-stdio", "connect to the gateway's socket itself "
	    "(DOCKER_HOST=unix://<run-dir>/docker.sock)" },
	{ "system", "check", "check the storage on the daemon's host" },
};

/* §7.3: BuildKit's own endpoints. */
static const char *const buildkit_families[] = { "session", "grpc", NULL };

static const struct {
	const char *name;
	unsigned mask;
} methods[] = {
	{ "GET", RM_GET }, { "HEAD", RM_HEAD }, { "POST", RM_POST },
	{ "PUT", RM_PUT }, { "DELETE", RM_DELETE },
};

/* ---- §4.4-4.5 policed query keys ------------------------------------ */

static const char *const k_none[] = { NULL };
static const char *const k_filters[] = { "filters", NULL };
static const char *const k_system_prune[] = {
	"filters", "all", "external", NULL
};
static const char *const k_commit[] = { "container", "changes", NULL };
static const char *const k_changes[] = { "changes", NULL };
static const char *const k_images_create[] = {
	"fromImage", "fromSrc", "changes", NULL
};
static const char *const k_images_pull[] = { "reference", "authfile", NULL };
static const char *const k_images_import[] = { "url", "changes", NULL };
static const char *const k_container_stats[] = { "containers", "all", NULL };
static const char *const k_containers[] = { "containers", NULL };
static const char *const k_pod_stats[] = { "namesOrIDs", "all", NULL };
static const char *const k_names_or_ids[] = { "namesOrIDs", NULL };
static const char *const k_images_remove[] = {
	"images", "all", "force", NULL
};
static const char *const k_force[] = { "force", NULL };
static const char *const k_images[] = { "images", NULL };

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

/* ---- §2 path validation --------------------------------------------- */

int
route_path_valid(const char *path, size_t len)
{
	size_t i, seg = 1;	/* start of the current segment */
	unsigned char c;

	if (len == 0 || path[0] != '/')
		return 0;
	if (len == 1)
		return 1;
	for (i = 1; i <= len; i++) {
		if (i == len || path[i] == '/') {
			/* segment path[seg..i) */
			if (i == seg)
				return 0;	/* "//" or trailing "/" */
			if ((i - seg == 1 && path[seg] == '.') ||
			    (i - seg == 2 && path[seg] == '.' &&
			    path[seg + 1] == '.'))
				return 0;
			seg = i + 1;
			continue;
		}
		c = (unsigned char)path[i];
		/*
		 * '#' is http.md §2's (no fragment in a request-target): the
		 * child's HTTP parser refuses it first, the monitor's replay
		 * of a FORWARD has only this check (found by fuzz_forward)
		 */
		if (c < 0x21 || c > 0x7e || c == '%' || c == '\\' || c == '#')
			return 0;
	}
	return 1;
}

/* ---- §3 version ----------------------------------------------------- */

/* Parse 0|[1-9][0-9]{0,3} at s[*i..len); returns -1 if absent. */
static long
version_number(const char *s, size_t len, size_t *i)
{
	size_t start = *i;
	long v = 0;

	if (start >= len || s[start] < '0' || s[start] > '9')
		return -1;
	if (s[start] == '0') {
		*i = start + 1;
		return 0;
	}
	while (*i < len && s[*i] >= '0' && s[*i] <= '9' && *i - start < 4)
		v = v * 10 + (s[(*i)++] - '0');
	return v;
}

static int
alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z');
}

int
route_version(const char *s, size_t len, unsigned *maj, unsigned *min)
{
	size_t i = 1;
	long a, b, c;

	if (len < 4 || len > VERSION_SEG_MAX || s[0] != 'v')
		return 0;
	if ((a = version_number(s, len, &i)) < 0 || i >= len || s[i++] != '.')
		return 0;
	if ((b = version_number(s, len, &i)) < 0)
		return 0;
	if (i == len) {
		*maj = (unsigned)a;
		*min = (unsigned)b;
		return 2;
	}
	if (s[i++] != '.' || (c = version_number(s, len, &i)) < 0)
		return 0;
	(void)c;
	if (i == len)
		return 3;
	if (s[i++] != '-' || i == len)
		return 0;
	for (; i < len; i++)
		if (!alnum(s[i]))
			return 0;
	return 3;
}

/* ---- §5, §6 classification ------------------------------------------ */

struct seg {
	const char *p;
	size_t len;
};

#define SEG_PIECES_MAX	8	/* segments of the longest pattern */

static int
seg_is(const struct seg *s, const char *lit)
{
	size_t n = strlen(lit);

	return s->len == n && memcmp(s->p, lit, n) == 0;
}

static int
seg_in(const struct seg *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (seg_is(s, *list))
			return 1;
	return 0;
}

/*
 * Match segs[0..n) against pattern. On success returns 1 and sets
 * *ref_i / *ref_n to the placeholder's span relative to segs (0/0 when
 * the pattern has none).
 */
static int
pattern_match(const char *pattern, const struct seg *segs, size_t n,
    size_t *ref_i, size_t *ref_n)
{
	struct seg pc[SEG_PIECES_MAX];
	size_t k = 0, t, multi = (size_t)-1, at;
	const char *p = pattern, *slash;

	while (k < SEG_PIECES_MAX) {
		slash = strchr(p, '/');
		pc[k].p = p;
		pc[k].len = slash ? (size_t)(slash - p) : strlen(p);
		if (pc[k].len == 3 && memcmp(p, "{i}", 3) == 0)
			multi = k;
		k++;
		if (slash == NULL)
			break;
		p = slash + 1;
	}
	if (multi == (size_t)-1 ? n != k : n < k)
		return 0;
	*ref_i = *ref_n = 0;
	for (t = 0; t < k; t++) {
		at = (multi != (size_t)-1 && t > multi) ? n - (k - t) : t;
		if (t == multi) {
			*ref_i = t;
			*ref_n = n - k + 1;
		} else if (pc[t].len == 3 && pc[t].p[0] == '{') {
			*ref_i = at;
			*ref_n = 1;
		} else if (pc[t].len != segs[at].len ||
		    memcmp(pc[t].p, segs[at].p, pc[t].len) != 0)
			return 0;
	}
	return 1;
}

/* Split a validated path into segments; returns the count (caller frees). */
static size_t
split_path(const char *path, size_t len, struct seg **out)
{
	size_t i, n = 0, start;
	struct seg *s;

	for (i = 1; i < len; i++)
		if (path[i] == '/')
			n++;
	n = len > 1 ? n + 1 : 0;
	s = xcalloc(n ? n : 1, sizeof(*s));
	for (i = 0, start = 1; i < n; i++) {
		const char *slash = memchr(path + start, '/', len - start);
		size_t end = slash ? (size_t)(slash - path) : len;

		s[i].p = path + start;
		s[i].len = end - start;
		start = end + 1;
	}
	*out = s;
	return n;
}

static int
unknown(struct cg_refusal *r, const char *method, const char *path,
    size_t len)
{
	char q[260];

	return cg_refuse(r, "unknown-endpoint",
	    "%s %s is not available through the gateway", method,
	    cg_quote(path, len, q));
}

/* §3: version prefix and API; sets *base to the first route segment. */
static int
classify_api(enum cg_kind socket_kind, const struct seg *segs, size_t n,
    struct route_match *m, size_t *base, struct cg_refusal *r)
{
	unsigned maj = 0, min = 0;
	int form = n > 0 ? route_version(segs[0].p, segs[0].len, &maj, &min) : 0;

	m->api = CG_API_COMPAT;
	m->prefix_len = 0;
	*base = 0;
	if (form == 0)
		return 0;
	if (form == 2 && (maj < 1 || (maj == 1 && min < 24)))
		return cg_refuse(r, "malformed",
		    "API version v%u.%u is not supported (minimum v1.24)",
		    maj, min);
	m->prefix_len = segs[0].len + 1;
	*base = 1;
	if (n > 1 && seg_is(&segs[1], "libpod")) {
		if (socket_kind == CG_DOCKER)
			return cg_refuse(r, "unknown-endpoint",
			    "the libpod API is only available on podman.sock");
		m->api = CG_API_LIBPOD;
		*base = 2;
	}
	return 0;
}

/* §7.1, §7.3: families refused whatever the method. */
static int
classify_denied(const struct seg *segs, size_t n, struct cg_refusal *r)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < sizeof(denied_families) / sizeof(denied_families[0]);
	    i++)
		if (seg_is(&segs[0], denied_families[i].name))
			return cg_refuse_hint(r, "denied-endpoint",
			    denied_families[i].hint,
			    "%.*s is not available through the gateway",
			    (int)segs[0].len, segs[0].p);
	if (seg_in(&segs[0], buildkit_families))
		return cg_refuse_hint(r, "denied-endpoint", CG_HINT_IN_DETAIL,
		    "%s", BUILDKIT_DETAIL);
	for (i = 0; i < sizeof(denied_paths) / sizeof(denied_paths[0]); i++)
		if (n >= 2 && seg_is(&segs[0], denied_paths[i].first) &&
		    seg_is(&segs[1], denied_paths[i].second))
			return cg_refuse_hint(r, "denied-endpoint",
			    denied_paths[i].hint,
			    "%s/%s is not available through the gateway",
			    denied_paths[i].first, denied_paths[i].second);
	return 0;
}

static unsigned
method_mask(const char *method)
{
	size_t i;

	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(methods[i].name, method) == 0)
			return methods[i].mask;
	return 0;
}

/* §6 table lookup on segs[0..n) (after the version / libpod). */
static const struct cg_route *
lookup(unsigned api, unsigned mm, const struct seg *segs, size_t n,
    size_t *ref_i, size_t *ref_n)
{
	size_t i;

	for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		if (!(routes[i].apis & api) || !(routes[i].methods & mm))
			continue;
		if (pattern_match(routes[i].pattern, segs, n, ref_i, ref_n))
			return &routes[i];
	}
	return NULL;
}

static int
classify_segs(enum cg_kind socket_kind, const char *method, const char *path,
    size_t len, int grpc, const struct seg *segs, size_t n,
    struct route_match *m, struct cg_refusal *r)
{
	const struct cg_route *rt;
	size_t base, ref_i, ref_n;
	unsigned mm;

	if (classify_api(socket_kind, segs, n, m, &base, r) == -1)
		return -1;
	if (grpc)
		return cg_refuse_hint(r, "denied-endpoint", "build with "
		    "DOCKER_BUILDKIT=0", "application/grpc requests are not "
		    "available through the gateway");
	/*
	 * §7.2 amended: compat plugin inspect is 404, so that the docker
	 * CLI's inspect, which tries each object type in turn, ends with its
	 * usual "No such object" (issue 10 item 4).
	 */
	if (m->api == CG_API_COMPAT && strcmp(method, "GET") == 0 &&
	    n - base == 3 && seg_is(&segs[base], "plugins") &&
	    seg_is(&segs[base + 2], "json"))
		return cg_refuse_hint(r, "not-found", "plugins are managed on "
		    "the daemon's host; none is visible through the gateway",
		    "no such plugin: %.*s", (int)segs[base + 1].len,
		    segs[base + 1].p);
	if (classify_denied(segs + base, n - base, r) == -1)
		return -1;
	if ((mm = method_mask(method)) == 0)
		return unknown(r, method, path, len);
	rt = lookup(m->api == CG_API_LIBPOD ? ROUTE_L : ROUTE_C, mm,
	    segs + base, n - base, &ref_i, &ref_n);
	if (rt == NULL)
		return unknown(r, method, path, len);
	if (rt->flags & RF_DENIED)
		return rt->deny_detail != NULL ?
		    cg_refuse_hint(r, "denied-endpoint", rt->deny_hint, "%s",
		    rt->deny_detail) :
		    cg_refuse_hint(r, "denied-endpoint", rt->deny_hint,
		    "%s is not available through the gateway", rt->action);
	m->route = rt;
	m->ref_kind = rt->owner;
	m->ref_seg = rt->owner >= 0 ? base + ref_i : 0;
	m->ref_nseg = rt->owner >= 0 ? ref_n : 0;
	return 0;
}

int
route_classify(enum cg_kind socket_kind, const char *method,
    const char *path, size_t len, int grpc, struct route_match *m,
    struct cg_refusal *r)
{
	struct seg *segs;
	size_t n;
	int rc;

	memset(m, 0, sizeof(*m));
	m->ref_kind = -1;
	n = split_path(path, len, &segs);
	rc = classify_segs(socket_kind, method, path, len, grpc, segs, n, m, r);
	free(segs);
	return rc;
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
	size_t i;

	for (i = 0; i < q->n; i++)
		if (ascii_caseeq(q->v[i].key, "export") ||
		    ascii_caseeq(q->v[i].key, "import"))
			return cg_refuse(r, "denied-query",
			    "%s is not available through the gateway",
			    cg_quote(q->v[i].key, strlen(q->v[i].key), a));
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
