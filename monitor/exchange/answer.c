/*
 * What the monitor answers itself (routes.md §7.2 as amended) and the libpod
 * system prune pre-check (routes.md §8.2 as amended; doc/answers.md has the
 * measurements behind each).
 *
 * The routes are the monitor's own classification of the FORWARD (the
 * RF_ANSWER rows of policy/routes.c, verify.c), never a flag of the
 * child, and what is written is computed here from the monitor's own
 * internal requests: a compromised child can ask for these answers but
 * can put nothing into them. Such a request never reaches the backend.
 *   build prune  {"CachesDeleted":[],"SpaceReclaimed":0}: the gateway's
 *                builds are legacy builds, which leave nothing in
 *                dockerd's build cache (BuildKit's) and podman 4.3 keeps
 *                no build cache besides images; forwarding would prune
 *                other users' BuildKit cache.
 *   system df    the project's containers and volumes and the (shared)
 *                images, from four internal requests (monitor/exchange/usage.c).
 * Both only for the daemons they were measured on (podman, dockerd,
 * recognised by the Server field of their GET /_ping at start-up); any
 * other backend gets the refusal with the reason.
 *   libpod system prune  forwarded only when a pod list shows no pod that
 *                is not the project's: podman 4.3 prunes every project's
 *                stopped pods (and their containers) whatever the filter.
 *   compat network inspect and list on a podman backend  written from
 *                podman's libpod answers (monitor/exchange/netcompat.c): podman
 *                4.3.1's own compat handlers strip the isolate option from
 *                the networks it keeps in memory, and every later
 *                container of those networks is set up without isolation.
 */
#include "monitor/gateway.h"
#include "monitor/exchange/backend.h"
#include "monitor/exchange/relay.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/conn.h"
#include "monitor/exchange/answer.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/netcompat.h"
#include "monitor/exchange/projnet.h"
#include "monitor/exchange/usage.h"
#include "monitor/log.h"
#include "policy/json.h"
#include "policy/query.h"


#define BUILD_PRUNE_EMPTY	"{\"CachesDeleted\":[],\"SpaceReclaimed\":0}"
#define UNMEASURED	"this backend did not identify itself as either " \
	"(the Server field of its GET /_ping at start-up)"

/* The internal requests of a df, in the order of struct usage_src. */
static const struct {
	const char *path;
	const char *query[2];	/* compat, libpod */
	int labelled;		/* with the project's label filter */
} df_parts[ANSWER_PARTS] = {
	{ "/containers/json", { "all=1&size=1", "all=true" }, 1 },
	{ NULL, { NULL, NULL }, 1 },	/* volumes: the path differs */
	{ "/images/json", { "", "all=true" }, 0 },
	{ "/system/df", { "", "" }, 0 },
};

/* VERDICT for an answer the monitor writes: the child waits for its end. */
static void
answered_verdict(struct conn *c, const char *code)
{
	struct ipc_msg m = { .type = IPC_VERDICT, .req = c->req };

	m.u.verdict.outcome = IPC_OUTCOME_FORWARDING;
	m.u.verdict.code = ipc_cstr("");
	m.u.verdict.detail = ipc_cstr("");
	if (c->fw.synced)		/* a light exchange waits for the end only */
		conn_send(c, &m);
	c->fwd_pending = 0;
	ipc_audit_verdict(c, "answered", code);
}

/* 200 with the JSON body[0..len): the answer of an answered route. */
static void
answer_json(struct conn *c, const char *body, size_t len)
{
	char head[256], *resp;
	int n, closing = c->fw.client_close;

	n = snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\nContent-Type: "
	    "application/json\r\nContent-Length: %zu\r\n%s" CG_HEADER_LINE
	    "\r\n", len, closing ? "Connection: close\r\n" : "");
	resp = xmalloc((size_t)n + len);
	memcpy(resp, head, (size_t)n);
	memcpy(resp + n, body, len);
	answer_free(c);
	answered_verdict(c, NULL);
	relay_answer(c, "allow", NULL, 200, NULL, closing, resp, (size_t)n + len);
}

/*
 * A refusal the monitor writes itself, with what to do instead (hint):
 * the child's rendering of a refused VERDICT carries only the code's
 * generic hint. The connection ends after it (http.md §5.4).
 */
void
answer_refuse(struct conn *c, const char *code, const char *hint,
    const char *fmt, ...)
{
	char detail[CG_DETAIL_MAX], *resp;
	struct cg_refusal r;
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	cg_refuse_hint(&r, code, hint, "%s", detail);
	resp = cg_error_response(&r, c->fw.is_head, &len);
	answer_free(c);
	answered_verdict(c, r.code);
	relay_answer(c, r.status >= 500 ? "error" : "deny", r.code, r.status,
	    r.detail, 1, resp, len);
}

void
answer_empty_stream(struct conn *c, const char *code, const char *detail)
{
	static const char head[] = "HTTP/1.1 101 UPGRADED\r\nContent-Type: "
	    "application/vnd.docker.raw-stream\r\nConnection: Upgrade\r\n"
	    "Upgrade: tcp\r\n" CG_HEADER_LINE "\r\n";
	char *resp = xmalloc(sizeof(head) - 1);

	memcpy(resp, head, sizeof(head) - 1);
	answer_free(c);
	answered_verdict(c, code);
	/* logged as the refusal it stands for */
	relay_answer(c, "deny", code, 403, detail, 1, resp, sizeof(head) - 1);
}

/* The backend's answers cannot be used: 502, as for a broken inspect. */
static void
answer_unreadable(struct conn *c, const char *what)
{
	answer_free(c);
	backend_refuse(c, "backend-unreachable", "the %s backend's %s could "
	    "not be read", conn_backend_name(c), what);
}

/* Start the internal request req[0..n) (n < 0: out of memory) for c's
 * answer (c->rs RS_PHASE); a failed connect is a 502. */
static void
send_request(struct conn *c, char *req, int n)
{
	if (n < 0)
		xoom();
	c->rs = RS_PHASE;
	if (backend_internal(c, req, (size_t)n, 1) < 0) {
		answer_free(c);
		backend_refuse_transport(c, 0);
	}
}

/*
 * Start the internal GET <prefix>[/libpod]<path>[?query] for c's answer
 * (c->rs RS_PHASE); a failed connect is a 502.
 */
static void
ask(struct conn *c, const char *path, const char *query)
{
	char *req;
	int n;

	n = asprintf(&req, "GET %s%s%s%s%s HTTP/1.1\r\nHost: docker\r\n"
	    "User-Agent: container-gateway/" CG_VERSION "\r\n\r\n",
	    c->q_prefix,
	    c->api == IPC_API_LIBPOD ? "/libpod" : "", path,
	    query[0] != '\0' ? "?" : "", query);
	send_request(c, req, n);
}

/*
 * A compat network inspect or list on a podman backend (netcompat.h):
 * 1 for the list, 2 for the inspect of the (verified, owned) id whose
 * segment starts at *id (length *idlen), 0 for every other route.
 */
static int
network_route(const struct conn *c, const char **id, size_t *idlen)
{
	const char *p = c->fw.target + strlen(c->q_prefix), *end;

	if (c->api != IPC_API_COMPAT || !projnet_measured_podman(c) ||
	    strncmp(p, "/networks", 9) != 0)
		return 0;
	p += 9;
	if (c->fw.op == FOP_LIST && (*p == '\0' || *p == '?'))
		return 1;
	if (c->fw.op != FOP_INSPECT || *p != '/')
		return 0;
	*id = ++p;
	end = p + strcspn(p, "/?");
	if (*end == '/' || end == p)
		return 0;
	*idlen = (size_t)(end - p);
	return 2;
}

/* The internal requests of a network answer: the libpod network(s), then
 * the project's containers (their endpoints). */
static void
net_ask(struct conn *c)
{
	const char *id = NULL, *q;
	size_t idlen = 0;
	char *req, *cq;
	int kind = network_route(c, &id, &idlen), n;

	if (c->ans.step == 1) {
		cq = facts_label_query(c->gw->root, "all=1");
		ask(c, "/containers/json", cq);
		free(cq);
		return;
	}
	q = strchr(c->fw.target, '?');
	n = kind == 2 ?
	    asprintf(&req, "GET /v4.0.0/libpod/networks/%.*s/json HTTP/1.1\r\n"
	    "Host: docker\r\n\r\n", (int)idlen, id) :
	    asprintf(&req, "GET /v4.0.0/libpod/networks/json%s HTTP/1.1\r\n"
	    "Host: docker\r\n\r\n", q != NULL ? q : "");
	send_request(c, req, n);
}

static void
net_compose(struct conn *c)
{
	const char *id;
	size_t idlen;
	char *out;
	size_t len;
	int rc = netcompat_answer(c->ans.body[0], c->ans.len[0],
	    network_route(c, &id, &idlen) == 2, c->ans.body[1], c->ans.len[1],
	    c->gw->root, &out, &len);

	if (rc == -2) {
		answer_free(c);
		backend_refuse(c, "not-found", "no such network");
		return;
	}
	if (rc != 0) {
		answer_unreadable(c, "network answers");
		return;
	}
	answer_json(c, out, len);
	free(out);
}

/* The next internal request of a df (c->ans.step of them done). */
static void
df_ask(struct conn *c)
{
	int lib = c->api == IPC_API_LIBPOD;
	unsigned i = c->ans.step;
	const char *path = df_parts[i].path, *extra = df_parts[i].query[lib];
	char *q;

	if (path == NULL) {
		path = lib ? "/volumes/json" : "/volumes";
		extra = "";
	}
	q = df_parts[i].labelled ? facts_label_query(c->gw->root, extra) : xstrdup(extra);
	ask(c, path, q);
	free(q);
}

static void
df_compose(struct conn *c)
{
	const struct listener *l = &c->gw->lis[c->lis];
	struct usage_src in = {
		.containers = c->ans.body[0], .containers_len = c->ans.len[0],
		.volumes = c->ans.body[1], .volumes_len = c->ans.len[1],
		.images = c->ans.body[2], .images_len = c->ans.len[2],
		.df = c->ans.body[3], .df_len = c->ans.len[3],
	};
	char *out;
	size_t len;

	if (usage_df((enum cg_api)c->api, l->backend_kind, c->gw->root, &in,
	    &out, &len) == -1) {
		answer_unreadable(c, "disk usage answers");
		return;
	}
	answer_json(c, out, len);
	free(out);
}

/*
 * The pod list of a libpod system prune's pre-check is in: forward the
 * prune when every pod is the project's, else refuse and say why. A
 * foreign pod created and stopped between this list and the prune is
 * still removed (the residual, doc/answers.md).
 */
static void
prune_checked(struct conn *c)
{
	const struct listener *l = &c->gw->lis[c->lis];
	unsigned n;

	if (usage_foreign_pods(l->backend_kind, c->gw->root, c->ans.body[0],
	    c->ans.len[0], &n) == -1) {
		answer_unreadable(c, "pod list");
		return;
	}
	answer_free(c);
	if (n > 0) {
		answer_refuse(c, "denied-endpoint", "prune by kind: docker "
		    "system prune, or podman --remote container prune, image "
		    "prune, network prune and volume prune; remove your own pods "
		    "with podman --remote pod rm", "system prune is refused while "
		    "pods that are not this project's exist on this podman: "
		    "podman 4.3 removes every project's stopped pods and their "
		    "containers whatever the filter");
		return;
	}
	backend_forward(c);	/* no body: no named-resource phase */
}

/* build prune: the empty answer where the builder was measured. */
static void
build_prune(struct conn *c)
{
	if (c->gw->lis[c->lis].backend_ident == BACKEND_UNKNOWN) {
		answer_refuse(c, "denied-endpoint", "remove the project's images "
		    "with docker rmi", "build/prune is answered only for a podman "
		    "or docker daemon, whose builders the gateway was measured "
		    "on; " UNMEASURED);
		return;
	}
	answer_json(c, BUILD_PRUNE_EMPTY, strlen(BUILD_PRUNE_EMPTY));
}

static void
df_start(struct conn *c)
{
	if (c->gw->lis[c->lis].backend_ident == BACKEND_UNKNOWN) {
		answer_refuse(c, "denied-endpoint", "see the project's usage with "
		    "docker ps -a --size, docker images and docker volume ls",
		    "system/df is answered per project only for a podman or "
		    "docker daemon, whose df answers the gateway was measured on; "
		    UNMEASURED);
		return;
	}
	c->ans.kind = ANS_DF;
	df_ask(c);
}

int
answer_start(struct conn *c)
{
	answer_free(c);
	if (c->fw.answer) {
		if (c->fw.op == FOP_BUILD_PRUNE)
			build_prune(c);
		else if (c->fw.op == FOP_SYSTEM_DF)
			df_start(c);
		else		/* a row without an answer here: never forwarded */
			answer_refuse(c, "denied-endpoint", CG_HINT_IN_DETAIL,
			    "%s is not available through the gateway", c->fw.action);
		return 1;
	}
	{
		const char *id;
		size_t idlen;

		if (network_route(c, &id, &idlen) != 0) {
			c->ans.kind = ANS_NETWORKS;
			net_ask(c);
			return 1;
		}
	}
	if (c->api == IPC_API_LIBPOD && c->fw.op == FOP_SYSTEM_PRUNE) {
		c->ans.kind = ANS_PRUNE_CHECK;
		ask(c, "/pods/json", "");
		return 1;
	}
	return 0;
}

void
answer_done(struct conn *c, int ok, int timeout)
{
	char *body = NULL;
	size_t len;
	int status;

	/* the connection goes back to the pool, for the next part */
	if (backend_internal_done(c, ok, &status, &body, &len) < 0) {
		answer_free(c);
		backend_refuse_transport(c, timeout);
		return;
	}
	if (c->ans.kind == ANS_NETWORKS && c->ans.step == 0 && status == 404) {
		free(body);	/* removed since the ownership check */
		answer_free(c);
		backend_refuse(c, "not-found", "no such network");
		return;
	}
	if (status != 200 || c->ans.step >= ANSWER_PARTS) {
		free(body);
		answer_free(c);
		backend_refuse(c, "backend-unreachable", "the %s backend answered "
		    "the gateway's own request with status %d",
		    conn_backend_name(c), status);
		return;
	}
	c->ans.body[c->ans.step] = body;
	c->ans.len[c->ans.step] = len;
	c->ans.step++;
	if (c->ans.kind == ANS_PRUNE_CHECK)
		prune_checked(c);
	else if (c->ans.kind == ANS_NETWORKS)
		c->ans.step < 2 ? net_ask(c) : net_compose(c);
	else if (c->ans.step < ANSWER_PARTS)
		df_ask(c);
	else
		df_compose(c);
}

void
answer_free(struct conn *c)
{
	size_t i;

	for (i = 0; i < ANSWER_PARTS; i++) {
		free(c->ans.body[i]);
		c->ans.body[i] = NULL;
		c->ans.len[i] = 0;
	}
	c->ans.kind = ANS_NONE;
	c->ans.step = 0;
}
