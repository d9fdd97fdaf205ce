/*
 * Query-key allow-lists (routes.md §4.4 as amended 2026-12-01).
 *
 * Sources, per row: the Docker Engine API v1.41 reference (api/swagger.yaml
 * and the keys dockerd 20.10's routers read with r.Form), later Engine API
 * versions where a newer docker CLI sends a harmless key (stop/restart
 * signal, image platform and manifests), the libpod API 4.x reference
 * (podman's register_*.go swagger and the option structs of pkg/bindings,
 * which podman-remote sends lower-cased), and ../shared/cli-traffic.
 * Keys are compared ignoring ASCII case: podman decodes query keys that way
 * (gorilla/schema), docker reads the exact spelling and ignores the others,
 * so a case variant of an allowed key can only mean the same thing or
 * nothing. A non-ASCII look-alike (U+017F, U+212A) is never allowed.
 *
 * Left out on purpose (dropped, never forwarded), although a daemon reads
 * them, because each reaches beyond the named, owned resource:
 *   containers/{c}/start  checkpoint, checkpoint-dir (restore from a host
 *                         directory; checkpoint/restore are denied, §7.2)
 *   containers/{c}/kill   all (podman 5: signal every container)
 *   containers/{c} DELETE depend (libpod: also removes the containers that
 *                         depend on it, whoever owns them)
 *   images/search         authfile (a file on the daemon's host)
 * Policed keys (routes.c qspecs) are allowed on their route implicitly and
 * keep their own rules; they are not repeated here.
 */
#include "policy/querykeys.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/routes.h"

#define KEYS(...)	((const char *const[]){ __VA_ARGS__, NULL })
#define NOKEYS		((const char *const[]){ NULL })
#define ANYKEY		query_any_key

struct qallow {
	unsigned apis;		/* ROUTE_C, ROUTE_L or both */
	const char *family;	/* route row family */
	const char *action;	/* route row action (before query policies) */
	const char *const *keys;
};

/* Shared lists. */
#define LOGS_KEYS	"follow", "stdout", "stderr", "since", "until", \
	"timestamps", "tail"
#define ATTACH_KEYS	"detachKeys", "logs", "stream", "stdin", "stdout", \
	"stderr"
#define PULL_KEYS	"quiet", "compatMode", "Arch", "OS", "Variant", \
	"policy", "tlsVerify", "allTags", "username", "password"
#define SEARCH_KEYS	"term", "limit", "filters", "tlsVerify", "listTags", \
	"noTrunc"

/* First matching row wins; rows are grouped as in routes.md §6. */
static const struct qallow allow[] = {
	/* §6.1 System */
	{ ROUTE_CL, "_ping", "ping", NOKEYS },
	{ ROUTE_CL, "version", "version", NOKEYS },
	{ ROUTE_CL, "info", "info", NOKEYS },
	{ ROUTE_C, "events", "events", KEYS("since", "until") },
	{ ROUTE_L, "events", "events", KEYS("since", "until", "stream") },
	{ ROUTE_L, "system", "system-prune", KEYS("volumes") },
	/* answered by the monitor: no key changes its answer */
	{ ROUTE_CL, "system", "system-df", NOKEYS },

	/* §6.2 Containers */
	{ ROUTE_C, "containers", "list",
	    KEYS("all", "limit", "size", "before", "since", "external") },
	{ ROUTE_L, "containers", "list",
	    KEYS("all", "limit", "last", "namespace", "pod", "size", "sync",
	    "external") },
	{ ROUTE_C, "containers", "create", KEYS("name", "platform") },
	{ ROUTE_L, "containers", "create", NOKEYS },
	{ ROUTE_CL, "containers", "prune", NOKEYS },
	{ ROUTE_L, "containers", "stats-all", KEYS("stream", "interval") },
	{ ROUTE_C, "containers", "remove", KEYS("force", "v", "link") },
	{ ROUTE_L, "containers", "remove",
	    KEYS("force", "ignore", "timeout", "v", "volumes") },
	{ ROUTE_CL, "containers", "inspect", KEYS("size") },
	{ ROUTE_L, "containers", "exists", KEYS("external") },
	{ ROUTE_C, "containers", "start", KEYS("detachKeys") },
	{ ROUTE_L, "containers", "start", KEYS("detachKeys", "recursive") },
	{ ROUTE_C, "containers", "stop", KEYS("t", "signal") },
	{ ROUTE_L, "containers", "stop", KEYS("t", "timeout", "ignore") },
	{ ROUTE_C, "containers", "restart", KEYS("t", "signal") },
	{ ROUTE_L, "containers", "restart", KEYS("t", "timeout") },
	{ ROUTE_CL, "containers", "kill", KEYS("signal") },
	{ ROUTE_CL, "containers", "wait", KEYS("condition", "interval") },
	{ ROUTE_CL, "containers", "resize", KEYS("h", "w", "running") },
	{ ROUTE_CL, "containers", "rename", KEYS("name") },
	{ ROUTE_C, "containers", "update", NOKEYS },
	{ ROUTE_L, "containers", "update",
	    KEYS("restartPolicy", "restartRetries") },
	{ ROUTE_CL, "containers", "attach", KEYS(ATTACH_KEYS) },
	{ ROUTE_CL, "containers", "exec-create", NOKEYS },
	{ ROUTE_C, "containers", "logs", KEYS(LOGS_KEYS, "details") },
	{ ROUTE_L, "containers", "logs", KEYS(LOGS_KEYS) },
	/* ps_args is policed (QP_TOP) */
	{ ROUTE_C, "containers", "top", NOKEYS },
	{ ROUTE_L, "containers", "top", KEYS("stream", "delay") },
	{ ROUTE_C, "containers", "stats", KEYS("stream", "one-shot") },
	{ ROUTE_L, "containers", "stats", KEYS("stream", "interval") },
	{ ROUTE_C, "containers", "changes", NOKEYS },
	{ ROUTE_L, "containers", "changes", KEYS("parent", "diffType") },
	{ ROUTE_CL, "containers", "export", NOKEYS },
	{ ROUTE_C, "containers", "archive-get", KEYS("path") },
	{ ROUTE_L, "containers", "archive-get", KEYS("path", "rename") },
	{ ROUTE_C, "containers", "archive-put",
	    KEYS("path", "noOverwriteDirNonDir", "copyUIDGID") },
	{ ROUTE_L, "containers", "archive-put",
	    KEYS("path", "pause", "rename", "noOverwriteDirNonDir",
	    "copyUIDGID") },
	{ ROUTE_CL, "containers", "pause", NOKEYS },
	{ ROUTE_CL, "containers", "unpause", NOKEYS },
	{ ROUTE_L, "containers", "init", NOKEYS },
	{ ROUTE_L, "containers", "healthcheck", NOKEYS },
	{ ROUTE_L, "containers", "mount", NOKEYS },
	{ ROUTE_L, "containers", "unmount", NOKEYS },
	{ ROUTE_L, "containers", "shouldrestart", NOKEYS },

	/* §6.3 Exec sessions */
	{ ROUTE_CL, "exec", "exec-start", NOKEYS },
	{ ROUTE_CL, "exec", "exec-resize", KEYS("h", "w", "running") },
	{ ROUTE_CL, "exec", "exec-inspect", NOKEYS },
	{ ROUTE_L, "exec", "exec-remove", NOKEYS },

	/* §6.4 Images */
	{ ROUTE_C, "images", "list",
	    KEYS("all", "filters", "digests", "filter", "shared-size",
	    "manifests") },
	{ ROUTE_L, "images", "list", KEYS("all", "filters") },
	{ ROUTE_C, "images", "pull",	/* images/create: pull or import */
	    KEYS("repo", "tag", "message", "platform") },
	{ ROUTE_L, "images", "pull", KEYS(PULL_KEYS) },
	{ ROUTE_C, "images", "load", KEYS("quiet", "platform") },
	{ ROUTE_L, "images", "load", KEYS("reference") },
	{ ROUTE_L, "images", "import",
	    KEYS("message", "reference", "os", "architecture", "variant") },
	{ ROUTE_CL, "images", "search", KEYS(SEARCH_KEYS) },
	{ ROUTE_C, "images", "save", KEYS("names", "platform") },
	{ ROUTE_L, "images", "save",
	    KEYS("format", "references", "compress",
	    "ociAcceptUncompressedLayers") },
	{ ROUTE_CL, "images", "prune", KEYS("all", "external") },
	{ ROUTE_L, "images", "remove-bulk",
	    KEYS("ignore", "lookupManifest", "noprune") },
	{ ROUTE_C, "images", "inspect", KEYS("manifests", "platform") },
	{ ROUTE_L, "images", "inspect", KEYS("size") },
	{ ROUTE_C, "images", "history", KEYS("platform") },
	{ ROUTE_L, "images", "history", NOKEYS },
	{ ROUTE_L, "images", "exists", NOKEYS },
	{ ROUTE_L, "images", "read", KEYS("whatrequires", "parent", "diffType") },
	{ ROUTE_CL, "images", "tag", KEYS("repo", "tag") },
	{ ROUTE_L, "images", "untag", KEYS("repo", "tag") },
	{ ROUTE_C, "images", "remove", KEYS("noprune", "platforms") },
	{ ROUTE_L, "images", "remove", KEYS("ignore") },

	/* §6.5 Volumes */
	{ ROUTE_CL, "volumes", "list", NOKEYS },
	{ ROUTE_CL, "volumes", "create", NOKEYS },
	{ ROUTE_CL, "volumes", "prune", NOKEYS },
	{ ROUTE_CL, "volumes", "inspect", NOKEYS },
	{ ROUTE_L, "volumes", "exists", NOKEYS },
	{ ROUTE_CL, "volumes", "remove", KEYS("force") },

	/* §6.6 Networks */
	{ ROUTE_CL, "networks", "list", NOKEYS },
	{ ROUTE_CL, "networks", "create", NOKEYS },
	{ ROUTE_CL, "networks", "prune", NOKEYS },
	{ ROUTE_C, "networks", "inspect", KEYS("verbose", "scope") },
	{ ROUTE_L, "networks", "inspect", NOKEYS },
	{ ROUTE_L, "networks", "exists", NOKEYS },
	{ ROUTE_C, "networks", "remove", NOKEYS },
	{ ROUTE_L, "networks", "remove", KEYS("force") },
	{ ROUTE_CL, "networks", "connect", NOKEYS },
	{ ROUTE_CL, "networks", "disconnect", NOKEYS },

	/* §6.7 Pods (libpod only); the verb rows' action is the verb */
	{ ROUTE_L, "pods", "list", NOKEYS },
	{ ROUTE_L, "pods", "create", NOKEYS },
	{ ROUTE_L, "pods", "stats-all", NOKEYS },
	{ ROUTE_L, "pods", "remove", KEYS("force", "timeout") },
	{ ROUTE_L, "pods", "json", NOKEYS },
	{ ROUTE_L, "pods", "exists", NOKEYS },
	{ ROUTE_L, "pods", "start", NOKEYS },
	{ ROUTE_L, "pods", "pause", NOKEYS },
	{ ROUTE_L, "pods", "unpause", NOKEYS },
	{ ROUTE_L, "pods", "restart", NOKEYS },
	{ ROUTE_L, "pods", "stop", KEYS("t", "timeout") },
	{ ROUTE_L, "pods", "kill", KEYS("signal") },
	{ ROUTE_L, "pods", "top", KEYS("ps_args", "stream", "delay") },

	/* §6.8 Build and commit */
	{ ROUTE_CL, "build", "build", ANYKEY },
	{ ROUTE_C, "build", "build-prune", NOKEYS },
	{ ROUTE_C, "commit", "commit",
	    KEYS("repo", "tag", "comment", "author", "pause", "squash") },
	{ ROUTE_L, "commit", "commit",
	    KEYS("repo", "tag", "comment", "author", "pause", "squash",
	    "format", "stream") },
};

const char *const query_any_key[] = { "", NULL };
static const char *const no_keys[] = { NULL };

const char *const *
query_allowed_keys(const struct cg_route *rt, enum cg_api api)
{
	unsigned mask = api == CG_API_LIBPOD ? ROUTE_L : ROUTE_C;
	size_t i;

	for (i = 0; i < sizeof(allow) / sizeof(allow[0]); i++)
		if ((allow[i].apis & mask) &&
		    strcmp(allow[i].family, rt->family) == 0 &&
		    strcmp(allow[i].action, rt->action) == 0)
			return allow[i].keys;
	return NULL;
}

/* 1 when pair i of q is forwarded on a route with these lists. */
static int
kept(const struct cg_query *q, size_t i, const char *const *policed,
    const char *const *allowed)
{
	return query_key_in(q->v[i].key, policed, 0) ||
	    query_key_in(q->v[i].key, allowed, 1);
}

/*
 * Pair i's key, kept as a case variant of an allowed key, spelled as the
 * list spells it: the spelling every policy reads (query_get and the
 * like compare exactly) and the one docker reads; podman folds case, so
 * to it the key is the same. Before, "Pause=false" on a commit passed the
 * list but not qp_commit's removal, and "Repo=" passed it but not the
 * image-destination check (red team, measured on podman 4.3.1).
 */
static void
canonical_key(struct cg_query *q, size_t i, const char *const *allowed)
{
	for (; *allowed != NULL; allowed++)
		if (strcmp(q->v[i].key, *allowed) != 0 &&
		    ascii_caseeq(q->v[i].key, *allowed)) {
			free(q->v[i].key);
			q->v[i].key = xstrdup(*allowed);
			return;
		}
}

void
note_dropped(char **out, size_t *n, const char *key)
{
	size_t klen = strlen(key), at = *n + (*n ? 2 : 0);

	if (*n >= QUERY_DROPPED_MAX)
		return;			/* already cut */
	if (at + klen > QUERY_DROPPED_MAX - 4) {
		*out = xrealloc(*out, *n + 4);
		memcpy(*out + *n, "...", 4);
		*n = QUERY_DROPPED_MAX;
		return;
	}
	*out = xrealloc(*out, at + klen + 1);
	if (*n)
		memcpy(*out + *n, ", ", 2);
	memcpy(*out + at, key, klen + 1);
	*n = at + klen;
}

char *
query_drop_unknown(const struct cg_route *rt, enum cg_api api,
    struct cg_query *q)
{
	const char *const *allowed = query_allowed_keys(rt, api);
	const char *const *policed = route_qspec(rt->qpolicy)->policed;
	char *dropped = NULL;
	size_t n = 0, i, j;

	if (allowed == query_any_key)
		return NULL;
	if (allowed == NULL)
		allowed = no_keys;
	/* the text first (each dropped key once), then the removal */
	for (i = 0; i < q->n; i++) {
		if (kept(q, i, policed, allowed))
			continue;
		for (j = 0; j < i; j++)
			if (strcmp(q->v[j].key, q->v[i].key) == 0)
				break;
		if (j == i)
			note_dropped(&dropped, &n, q->v[i].key);
	}
	for (i = 0; i < q->n; )
		if (kept(q, i, policed, allowed))
			canonical_key(q, i++, allowed);
		else
			query_remove_at(q, i);
	return dropped;
}
