/*
 * The monitor's side of one request-parser child (privsep.md §3, §7-§10):
 * the message dispatch table with legal states, fact answers, FORWARD
 * verification, the monitor-side named-resource phase, and the relay of
 * the backend exchange. The monitor never parses client bytes: it sees
 * typed fields, the canonical target and the re-serialised JSON body.
 */
#include "monitor/gateway.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "monitor/log.h"
#include "policy/body.h"
#include "policy/json.h"
#include "policy/query.h"
#include "policy/routes.h"

#define INTERNAL_RESPONSE_MAX	((8u << 20) + HTTP_HEAD_MAX)
#define STREAM_BUFFER_MAX	(1u << 20)	/* pause the child above this */

static int violation(struct conn *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A child broke the protocol: log, kill, drop (privsep.md §10). */
static int
violation(struct conn *c, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	log_msg(LOG_ERROR, "child-exit", "protocol violation from request parser "
	    "for connection %llu (pid %d): %s", (unsigned long long)c->id,
	    (int)c->pid, what);
	if (c->fwd_pending) {
		c->fwd_pending = 0;
		ipc_audit_verdict(c, "violation", NULL);
	}
	if (c->pid > 0)
		kill(c->pid, SIGKILL);
	return -1;
}

static const char *
kind_name(const struct conn *c)
{
	return c->gw->lis[c->lis].backend_kind == CG_DOCKER ? "docker" : "podman";
}

static struct ipc_str
S(const char *s)
{
	struct ipc_str v = { s, s != NULL ? (uint32_t)strlen(s) : 0 };

	return v;
}

/* ---------------------------------------------------------------- sending */

int
conn_flush(struct conn *c)
{
	struct outmsg *o;
	ssize_t n;

	while ((o = TAILQ_FIRST(&c->outq)) != NULL) {
		n = send(c->ipc, o->data, o->len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0)
			return -1;
		TAILQ_REMOVE(&c->outq, o, entry);
		free(o);
	}
	return 0;
}

/* Queue m for the child, sending at once when nothing is waiting. */
static void
send_child(struct conn *c, struct ipc_msg *m)
{
	struct outmsg *o;
	int len;

	static unsigned char *buf;

	if (buf == NULL)
		buf = xmalloc(IPC_MSG_MAX);
	m->fd = -1;
	ipc_audit(c, "to-child", m);
	len = ipc_encode(m, buf, IPC_MSG_MAX);
	if (len < 0) {		/* our own message: an invariant is broken */
		log_msg(LOG_ERROR, "ipc", "cannot encode %s: %s",
		    ipc_type_name(m->type), ipc_strerror(len));
		abort();
	}
	o = xmalloc(sizeof(*o) + (size_t)len);
	memcpy(o->data, buf, (size_t)len);
	o->len = (size_t)len;
	TAILQ_INSERT_TAIL(&c->outq, o, entry);
	(void)conn_flush(c);
}

static void
send_verdict(struct conn *c, int refused, const char *code, int status,
    const char *detail)
{
	struct ipc_msg m = { .type = IPC_VERDICT, .req = c->req };

	m.u.verdict.outcome = refused ? IPC_OUTCOME_REFUSED : IPC_OUTCOME_FORWARDING;
	m.u.verdict.code = S(refused ? code : "");
	m.u.verdict.status = (uint16_t)(refused ? status : 0);
	m.u.verdict.detail = S(refused ? detail : "");
	send_child(c, &m);
	c->fwd_pending = 0;
	ipc_audit_verdict(c, refused ? "refused" : "forwarded",
	    refused ? code : NULL);
}

/* The body tree of the named-resource phase, if one is kept. */
static void
free_phase_tree(struct conn *c)
{
	if (c->ph_tree != NULL)
		cJSON_Delete(c->ph_tree);
	c->ph_tree = NULL;
}

static void
close_backend(struct conn *c)
{
	if (c->bc.fd >= 0)
		close(c->bc.fd);
	c->bc.fd = -1;
	free(c->bc.out);
	free(c->bc.in);
	memset(&c->bc, 0, sizeof(c->bc));
	c->bc.fd = -1;
}

/* Refuse the FORWARD from the monitor side (phase, 502, 504). */
static void
refuse_forward(struct conn *c, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
refuse_forward(struct conn *c, const char *code, const char *fmt, ...)
{
	struct cg_refusal r;
	va_list ap;
	char detail[CG_DETAIL_MAX];

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	cg_refuse(&r, code, "%s", detail);
	access_line(c, c->method, c->log_path, r.status >= 500 ? "error" : "deny",
	    r.code, r.status, c->elapsed_ms + (unsigned)(now_ms() - c->fwd_ms),
	    r.detail);
	close_backend(c);
	free_phase_tree(c);
	send_verdict(c, 1, r.code, r.status, r.detail);
	c->rs = RS_WAIT_DONE;
}

static void
send_backend_end(struct conn *c, uint8_t reason)
{
	struct ipc_msg m = { .type = IPC_BACKEND_END, .req = c->req };

	if (c->sent_end)
		return;
	c->sent_end = 1;
	m.u.backend_end.reason = reason;
	send_child(c, &m);
}

static void
send_backend_data(struct conn *c, const char *p, size_t len)
{
	struct ipc_msg m = { .type = IPC_BACKEND_DATA, .req = c->req };
	size_t n;

	while (len > 0) {
		n = len > IPC_DATA_MAX ? IPC_DATA_MAX : len;
		m.u.backend_data.data.p = p;
		m.u.backend_data.data.len = (uint32_t)n;
		send_child(c, &m);
		p += n;
		len -= n;
	}
}

/* ---------------------------------------------------------------- backend */

static void
bc_append(struct bcall *b, const char *p, size_t len)
{
	b->out = xrealloc(b->out, b->outlen + len);
	memcpy(b->out + b->outlen, p, len);
	b->outlen += len;
}

/* Start an internal exchange: connect and queue the request bytes. */
static int
start_internal(struct conn *c, char *request, size_t len)
{
	close_backend(c);
	c->bc.fd = backend_connect(c->gw->lis[c->lis].backend_path);
	c->bc.internal = 1;
	c->bc.out = request;
	c->bc.outlen = len;
	c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
	return c->bc.fd < 0 ? -1 : 0;
}

/*
 * Parse a complete internal response (http.md §10.2): status and decoded
 * body. Returns 0, or -1 when it is not a valid HTTP response.
 */
static int
parse_internal(struct conn *c, int *status, char **body, size_t *body_len)
{
	struct http_response resp;
	struct http_chunked ch;
	size_t used, wrote;
	char *in = c->bc.in;
	size_t inlen = c->bc.inlen;
	int n;

	for (;;) {
		n = in != NULL ? http_parse_response(in, inlen, &resp) : -1;
		if (n < 0)
			return -1;
		if (resp.status >= 200 || resp.status == 101)
			break;
		in += n;	/* interim response: skip */
		inlen -= (size_t)n;
	}
	*status = resp.status;
	in += n;
	inlen -= (size_t)n;
	if (resp.chunked) {
		*body = xmalloc(inlen + 1);
		http_chunked_init(&ch, 1);
		wrote = inlen;
		if (http_chunked_feed(&ch, in, inlen, *body, &wrote, &used) < 0 ||
		    !ch.done) {
			free(*body);
			return -1;
		}
		*body_len = wrote;
	} else {
		if (resp.has_content_length) {
			if (resp.content_length > inlen)
				return -1;
			inlen = (size_t)resp.content_length;
		}
		*body = xmalloc(inlen + 1);
		memcpy(*body, in, inlen);
		*body_len = inlen;
	}
	(*body)[*body_len] = '\0';
	return 0;
}

/* ---------------------------------------------------------------- facts */

static void
answer_fact(struct conn *c, uint8_t result, const char *id)
{
	struct ipc_msg m = { .type = IPC_FACT_ANSWER, .req = c->req };

	m.u.fact_answer.qid = c->qid;
	m.u.fact_answer.result = result;
	m.u.fact_answer.id = S(result == IPC_FACT_OWNED ? id : "");
	if (result == IPC_FACT_OWNED && c->nfacts < CG_FACTS_MAX) {
		c->facts[c->nfacts].kind = c->q_kind;
		snprintf(c->facts[c->nfacts].id, sizeof(c->facts[0].id), "%.255s",
		    c->q_kind == CG_FACT_EXEC ? c->q_ref : id);
		snprintf(c->facts[c->nfacts].ref, sizeof(c->facts[0].ref), "%s",
		    c->q_ref);
		c->nfacts++;
	}
	c->q_stage = FS_NONE;
	c->rs = RS_IDLE;
	send_child(c, &m);
}

static void
start_fact(struct conn *c, enum cg_fact_kind kind, const char *ref)
{
	char *req;
	size_t len;

	req = facts_inspect_request(kind, (enum cg_api)c->q_api, c->q_prefix,
	    ref, &len);
	if (start_internal(c, req, len) < 0) {
		close_backend(c);
		answer_fact(c, IPC_FACT_UNREACHABLE, NULL);
	}
}

/* An internal exchange for a fact question finished (ok: complete). */
static void
fact_done(struct conn *c, int ok)
{
	char id[CG_ID_MAX + 1], *body = NULL;
	size_t body_len;
	int status;
	enum cg_fact_result v;
	enum cg_fact_kind kind = c->q_stage == FS_EXEC_CONTAINER ?
	    CG_FACT_CONTAINER : (enum cg_fact_kind)c->q_kind;

	if (!ok) {
		close_backend(c);
		answer_fact(c, IPC_FACT_UNREACHABLE, NULL);
		return;
	}
	if (parse_internal(c, &status, &body, &body_len) < 0) {
		close_backend(c);
		answer_fact(c, IPC_FACT_UNREACHABLE, NULL);
		return;
	}
	close_backend(c);
	v = facts_verdict(kind, (enum cg_api)c->q_api, status, body, body_len,
	    c->gw->root, id);
	free(body);
	if (v == CG_OWNED && c->q_stage == FS_INSPECT && c->q_kind == CG_FACT_EXEC) {
		/* the exec's container must be owned (routes.md §9.4) */
		snprintf(c->q_exec_container, sizeof(c->q_exec_container), "%s", id);
		c->q_stage = FS_EXEC_CONTAINER;
		start_fact(c, CG_FACT_CONTAINER, c->q_exec_container);
		return;
	}
	answer_fact(c, (uint8_t)v, id);
}

/*
 * A ref the monitor splices into an inspect path: one segment (images:
 * one or more, routes.md §10.1) of bytes 0x21-0x7e without '%', '?',
 * '#', '\\', and no empty, "." or ".." segment.
 */
static int
ref_is_path_safe(const struct ipc_str *ref, int multi)
{
	size_t i, seg = 0;

	if (ref->len == 0)
		return 0;
	for (i = 0; i <= ref->len; i++) {
		unsigned char ch = i < ref->len ? (unsigned char)ref->p[i] : '/';

		if (ch == '/') {
			if ((i > 0 && !multi && i < ref->len) || i == seg ||
			    (i - seg == 1 && ref->p[seg] == '.') ||
			    (i - seg == 2 && ref->p[seg] == '.' && ref->p[seg + 1] == '.'))
				return 0;
			seg = i + 1;
			continue;
		}
		if (ch < 0x21 || ch > 0x7e || strchr("%?#\\", ch) != NULL)
			return 0;
	}
	return 1;
}

static int
on_fact_query(struct conn *c, const struct ipc_msg *m)
{
	const struct ipc_str *pfx = &m->u.fact_query.prefix, *ref = &m->u.fact_query.ref;
	unsigned vmaj, vmin;

	if (++c->nfact_q > IPC_FACT_QUERIES_MAX)
		return violation(c, "more than %d FACT_QUERY", IPC_FACT_QUERIES_MAX);
	if (m->u.fact_query.kind == CG_FACT_POD && m->u.fact_query.api != IPC_API_LIBPOD)
		return violation(c, "pod question on the compat API");
	if (!ref_is_path_safe(ref, m->u.fact_query.kind == CG_FACT_IMAGE))
		return violation(c, "FACT_QUERY ref is not a valid path segment");
	/*
	 * the prefix is "" or a canonical version segment (routes.md §3): it
	 * is spliced into the inspect request head, so no CR, LF or space
	 */
	if (pfx->len > 0 && (pfx->len < 2 || pfx->p[0] != '/' ||
	    route_version(pfx->p + 1, pfx->len - 1, &vmaj, &vmin) == 0))
		return violation(c, "FACT_QUERY prefix is not a version prefix");
	c->qid = m->u.fact_query.qid;
	c->q_kind = m->u.fact_query.kind;
	c->q_api = m->u.fact_query.api;
	memcpy(c->q_prefix, pfx->p, pfx->len);
	c->q_prefix[pfx->len] = '\0';
	memcpy(c->q_ref, ref->p, ref->len);
	c->q_ref[ref->len] = '\0';
	c->q_stage = FS_INSPECT;
	c->rs = RS_FACT;
	start_fact(c, (enum cg_fact_kind)c->q_kind, c->q_ref);
	return 0;
}

static int
on_path_query(struct conn *c, const struct ipc_msg *m)
{
	struct ipc_msg a = { .type = IPC_PATH_ANSWER, .req = c->req };
	char path[CG_PATH_MAX + 1], out[CG_PATH_MAX + 1];
	enum cg_path_verdict v;

	if (++c->npath_q > IPC_PATH_QUERIES_MAX)
		return violation(c, "more than %d PATH_QUERY", IPC_PATH_QUERIES_MAX);
	memcpy(path, m->u.path_query.path.p, m->u.path_query.path.len);
	path[m->u.path_query.path.len] = '\0';
	v = pathres_resolve(c->gw, path, out);
	a.u.path_answer.qid = m->u.path_query.qid;
	a.u.path_answer.verdict = (uint8_t)v;
	a.u.path_answer.resolved = S(v == CG_PATH_ALLOWED || v == CG_PATH_OUTSIDE ?
	    out : "");
	send_child(c, &a);
	return 0;
}

/* ---------------------------------------------------------------- forward */

static const char *const forwardable[] = {
	"User-Agent", "Accept", "Accept-Encoding", "Content-Type",
	"X-Registry-Auth", "X-Registry-Config", "Upgrade",
};

/*
 * 1 when this request's facts hold an owned answer of kind whose id (when
 * the route rewrites to the id) or ref as asked (when it does not)
 * equals s[0..len).
 */
static int
owned_id(const struct conn *c, uint8_t kind, int by_id, const char *s,
    size_t len)
{
	const char *v;
	unsigned i;

	for (i = 0; i < c->nfacts; i++) {
		v = by_id ? c->facts[i].id : c->facts[i].ref;
		if (c->facts[i].kind == kind && strlen(v) == len &&
		    memcmp(v, s, len) == 0)
			return 1;
	}
	return 0;
}

/*
 * The query refs of a routed FORWARD (privsep.md §9.1 item 4, routes.md
 * §9.5) must be values this monitor answered owned in this request: ids
 * for commit `container` and stats `containers`/`namesOrIDs`, the refs as
 * asked for bulk image remove `images`. Returns 0 or -1 (violation).
 */
static int
verify_query_refs(struct conn *c, const struct cg_request *req)
{
	const char *key = NULL;
	uint8_t kind = CG_FACT_CONTAINER;
	int by_id = 1;
	size_t i;

	if (strcmp(req->action, "commit") == 0) {
		key = "container";
	} else if (strcmp(req->action, "stats-all") == 0) {
		if (strcmp(req->family, "pods") == 0) {
			key = "namesOrIDs";
			kind = CG_FACT_POD;
		} else {
			key = "containers";
		}
	} else if (strcmp(req->action, "remove-bulk") == 0) {
		key = "images";
		kind = CG_FACT_IMAGE;
		by_id = 0;
	}
	if (key == NULL || req->query == NULL)
		return 0;
	for (i = 0; i < req->query->n; i++) {
		const char *v = req->query->v[i].value;

		if (strcmp(req->query->v[i].key, key) == 0 &&
		    !owned_id(c, kind, by_id, v, strlen(v)))
			return violation(c, "FORWARD query %s=%s was not answered "
			    "owned", key, v);
	}
	return 0;
}

/*
 * Verify a FORWARD (privsep.md §9.1): method, canonical target classified
 * by the monitor's own tables, body kind, path ref owned, headers.
 * Returns 0, or -1 after a violation.
 */
static int
verify_forward(struct conn *c, const struct ipc_msg *m)
{
	const struct listener *l = &c->gw->lis[c->lis];
	struct cg_policy_ctx ctx = { 0 };
	struct cg_request req;
	struct cg_refusal r;
	static const char *const methods[] = { "GET", "HEAD", "POST", "PUT", "DELETE" };
	const char *seg;
	char *canon, *target;
	size_t canon_len, i, j, start;
	int ok_method = 0, want_body, rc = 0;

	for (i = 0; i < 5; i++)
		if (m->u.forward.method.len == strlen(methods[i]) &&
		    memcmp(m->u.forward.method.p, methods[i], m->u.forward.method.len) == 0)
			ok_method = 1;
	if (!ok_method)
		return violation(c, "FORWARD method is not allowed");
	ctx.root = c->gw->root;
	ctx.socket_kind = l->socket_kind;
	ctx.backend_kind = l->backend_kind;
	ctx.egress = c->gw->cfg->egress;
	ctx.proxy_available = l->proxy_available;
	ctx.proxy = l->proxy;
	ctx.noproxy = l->noproxy;
	ctx.backend_timeout_ms = c->gw->backend_timeout_ms;
	memcpy(c->method, m->u.forward.method.p, m->u.forward.method.len);
	c->method[m->u.forward.method.len] = '\0';
	target = xstrndup(m->u.forward.target.p, m->u.forward.target.len);
	memset(&req, 0, sizeof(req));
	if (policy_route(&ctx, c->method, target, m->u.forward.target.len, 0,
	    &req, &r) < 0) {
		free(target);
		return violation(c, "FORWARD target refused by the route tables "
		    "(%s: %s)", r.code, r.detail);
	}
	canon = policy_route_target(&req, &canon_len);
	if (canon_len != m->u.forward.target.len ||
	    memcmp(canon, target, canon_len) != 0)
		rc = violation(c, "FORWARD target is not canonical");
	free(canon);
	want_body = req.body_kind == CG_BODY_NONE ? IPC_BODY_NONE :
	    req.body_kind == CG_BODY_STREAM ? -1 : IPC_BODY_JSON;
	if (rc == 0 && !(want_body == m->u.forward.body_kind || (want_body == -1 &&
	    (m->u.forward.body_kind == IPC_BODY_STREAM_LENGTH ||
	    m->u.forward.body_kind == IPC_BODY_STREAM_CHUNKED))))
		rc = violation(c, "FORWARD body kind does not match the route");
	if (rc == 0 && m->u.forward.body_kind == IPC_BODY_JSON &&
	    m->u.forward.body_len > HTTP_BODY_JSON_MAX)
		rc = violation(c, "FORWARD JSON body over 8 MiB");
	/* the path ref must be an id this monitor answered owned (item 4) */
	if (rc == 0 && req.path_ref_kind >= 0 &&
	    (req.path_ref_rewrite || req.path_ref_kind == CG_FACT_EXEC ||
	    req.path_ref_kind == CG_FACT_IMAGE || req.path_ref_kind == CG_FACT_VOLUME)) {
		seg = target + 1;
		for (i = 0; i < req.path_ref_seg && seg != NULL; i++) {
			seg = strchr(seg, '/');
			if (seg != NULL)
				seg++;
		}
		start = seg != NULL ? (size_t)(seg - target) : 0;
		/* the ref spans path_ref_nseg segments */
		for (j = start, i = 0; seg != NULL && j < m->u.forward.target.len &&
		    target[j] != '?'; j++)
			if (target[j] == '/' && ++i == req.path_ref_nseg)
				break;
		if (seg == NULL || !owned_id(c, (uint8_t)req.path_ref_kind,
		    req.path_ref_rewrite, seg, j - start))
			rc = violation(c, "FORWARD names a %s the monitor did not "
			    "answer owned", req.path_ref_kind == CG_FACT_EXEC ?
			    "exec session" : "resource");
	}
	/* policed query refs (item 4): commit, stats, bulk image remove */
	if (rc == 0)
		rc = verify_query_refs(c, &req);
	/* headers (item 5) */
	for (i = 0; rc == 0 && i < m->u.forward.nheaders; i++) {
		const struct ipc_header_pair *h = &m->u.forward.headers[i];
		int known = 0;

		for (j = 0; j < sizeof(forwardable) / sizeof(forwardable[0]); j++)
			if (h->name.len == strlen(forwardable[j]) &&
			    memcmp(h->name.p, forwardable[j], h->name.len) == 0)
				known = 1;
		for (j = 0; known && j < h->value.len; j++) {
			unsigned char ch = (unsigned char)h->value.p[j];

			if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
				known = 0;
		}
		if (!known)
			rc = violation(c, "FORWARD header is not forwardable");
		else if (h->name.len == 7 && memcmp(h->name.p, "Upgrade", 7) == 0 &&
		    (!req.hijack || h->value.len != 3 || memcmp(h->value.p, "tcp", 3) != 0))
			rc = violation(c, "Upgrade on a route that does not hijack");
		else if (h->name.len == 12 && memcmp(h->name.p, "Content-Type", 12) == 0 &&
		    req.body_kind != CG_BODY_STREAM)
			rc = violation(c, "Content-Type on a non-stream route");
	}
	if (rc == 0) {
		c->hijack = req.hijack;
		c->no_head_timeout = req.no_head_timeout;
		snprintf(c->action, sizeof(c->action), "%s", req.action);
	}
	policy_request_free(&req);
	free(target);
	return rc;
}

/* Serialise the forwarded head (http.md §7.2-§7.4). */
static void
build_head(struct conn *c, const struct ipc_msg *m)
{
	char *head = NULL;
	size_t len = 0, i;
	int upgrade = 0;
	FILE *f = open_memstream(&head, &len);

	if (f == NULL)
		xoom();
	fprintf(f, "%s %.*s HTTP/1.1\r\nHost: docker\r\n", c->method,
	    (int)c->target_len, c->target);
	/* client fields in the order of http.md §7.3 */
	for (i = 0; i < sizeof(forwardable) / sizeof(forwardable[0]) - 1; i++) {
		unsigned k;

		if (strcmp(forwardable[i], "Content-Type") == 0 &&
		    c->body_kind == IPC_BODY_JSON) {
			if (c->body_len > 0)
				fputs("Content-Type: application/json\r\n", f);
			continue;
		}
		for (k = 0; k < m->u.forward.nheaders; k++) {
			const struct ipc_header_pair *h = &m->u.forward.headers[k];

			if (h->name.len == strlen(forwardable[i]) &&
			    memcmp(h->name.p, forwardable[i], h->name.len) == 0) {
				fprintf(f, "%s: %.*s\r\n", forwardable[i],
				    (int)h->value.len, h->value.p);
				break;
			}
		}
	}
	for (i = 0; i < m->u.forward.nheaders; i++)
		if (m->u.forward.headers[i].name.len == 7 &&
		    memcmp(m->u.forward.headers[i].name.p, "Upgrade", 7) == 0)
			upgrade = 1;
	switch (c->body_kind) {
	case IPC_BODY_NONE:
		if (strcmp(c->method, "POST") == 0 || strcmp(c->method, "PUT") == 0)
			fputs("Content-Length: 0\r\n", f);
		break;
	case IPC_BODY_JSON:
		if (c->body_len > 0 || strcmp(c->method, "POST") == 0 ||
		    strcmp(c->method, "PUT") == 0)
			fprintf(f, "Content-Length: %llu\r\n",
			    (unsigned long long)c->body_len);
		break;
	case IPC_BODY_STREAM_LENGTH:
		fprintf(f, "Content-Length: %llu\r\n", (unsigned long long)c->body_len);
		break;
	case IPC_BODY_STREAM_CHUNKED:
		fputs("Transfer-Encoding: chunked\r\n", f);
		break;
	}
	if (upgrade)
		fputs("Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n", f);
	else
		fputs("Connection: close\r\n\r\n", f);
	fclose(f);
	c->head = head;
	c->head_len = len;
}

/* Connect to the backend and queue the head (and JSON body). */
static void
start_forward(struct conn *c)
{
	close_backend(c);
	c->bc.fd = backend_connect(c->gw->lis[c->lis].backend_path);
	if (c->bc.fd < 0) {
		refuse_forward(c, "backend-unreachable", "the %s backend is "
		    "unreachable", kind_name(c));
		return;
	}
	bc_append(&c->bc, c->head, c->head_len);
	if (c->json != NULL) {
		bc_append(&c->bc, c->json, (size_t)c->body_len);
		free(c->json);	/* replayed and queued: one copy is enough */
		c->json = NULL;
	}
	c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
	c->rs = RS_SENDING;
}

/* ---------------------------------------------------------------- phase */

static void phase_next(struct conn *c);

/* The name the phase is at: networks in stage 0, volumes in stages 1-2. */
#define PH_NAME(c)	((c)->ph_names[(c)->ph_kind == 0 ? 0 : 1][(c)->ph_i])
static void start_named_phase(struct conn *c);

static void
phase_start_inspect(struct conn *c)
{
	char *req;
	size_t len;

	req = facts_inspect_request(c->ph_kind == 0 ? CG_FACT_NETWORK : CG_FACT_VOLUME,
	    (enum cg_api)c->api, c->q_prefix, PH_NAME(c), &len);
	c->ph_step = 0;
	if (start_internal(c, req, len) < 0)
		refuse_forward(c, "backend-unreachable", "the %s backend is "
		    "unreachable", kind_name(c));
}

static void
phase_start_precreate(struct conn *c)
{
	const char *name = PH_NAME(c);
	char *body, *req, *ename, *eroot;
	size_t len;
	int n;

	ename = cg_json_escape(name, strlen(name));
	eroot = cg_json_escape(c->gw->root, strlen(c->gw->root));
	n = asprintf(&body, "{\"Name\":\"%s\",\"Labels\":{\"%s\":\"%s\"}}", ename,
	    CG_LABEL_KEY, eroot);
	free(ename);
	free(eroot);
	if (n < 0)
		xoom();
	n = asprintf(&req, "POST %s%s/volumes/create HTTP/1.1\r\nHost: docker\r\n"
	    "Content-Type: application/json\r\nContent-Length: %zu\r\n"
	    "Connection: close\r\n\r\n%s", c->q_prefix,
	    c->api == IPC_API_LIBPOD ? "/libpod" : "", strlen(body), body);
	free(body);
	if (n < 0)
		xoom();
	len = (size_t)n;
	c->ph_step = 1;
	if (start_internal(c, req, len) < 0)
		refuse_forward(c, "backend-unreachable", "the %s backend is "
		    "unreachable", kind_name(c));
}

/* Refuse with the 504 of http.md §10 (same detail as the child's). */
static void
refuse_timeout(struct conn *c)
{
	struct cg_refusal r;

	cg_refuse_timeout(&r, kind_name(c), c->gw->backend_timeout_ms);
	refuse_forward(c, "backend-timeout", "%s", r.detail);
}

/* Refuse after a failed internal exchange: 504 or 502 (http.md §10). */
static void
refuse_transport(struct conn *c, int timeout)
{
	if (timeout)
		refuse_timeout(c);
	else
		refuse_forward(c, "backend-unreachable", "the %s backend is "
		    "unreachable", kind_name(c));
}

/* An internal exchange of the monitor phase finished. */
static void
phase_done(struct conn *c, int ok, int timeout)
{
	char id[CG_ID_MAX + 1], *body = NULL;
	size_t body_len;
	int status;
	const char *name = PH_NAME(c);
	enum cg_fact_result v;

	if (!ok || parse_internal(c, &status, &body, &body_len) < 0) {
		refuse_transport(c, timeout);
		return;
	}
	close_backend(c);
	if (c->ph_kind == 0) {		/* network: must be owned (§5.1) */
		v = facts_verdict(CG_FACT_NETWORK, (enum cg_api)c->api, status,
		    body, body_len, c->gw->root, id);
		free(body);
		if (v == CG_UNEXPECTED)
			refuse_forward(c, "backend-unreachable", "unexpected "
			    "network inspect response");
		else if (v != CG_OWNED)
			refuse_forward(c, "network", "network %s is not a network "
			    "of this project", name);
		else {
			c->ph_i++;
			phase_next(c);
		}
		return;
	}
	if (c->ph_step == 0) {		/* volume inspect (§5.2) */
		v = facts_verdict(CG_FACT_VOLUME, (enum cg_api)c->api, status,
		    body, body_len, c->gw->root, id);
		free(body);
		if (v == CG_OWNED || status == 404) {
			/* missing ones are created once all are checked (F9) */
			c->ph_missing[c->ph_i] = status == 404;
			c->ph_i++;
			phase_next(c);
		} else if (v == CG_NOT_OWNED) {
			refuse_forward(c, "bind-mount", "volume %s is not a volume "
			    "of this project", name);
		} else {
			refuse_forward(c, "backend-unreachable", "unexpected "
			    "volume inspect response");
		}
		return;
	}
	if (c->ph_step == 1) {		/* pre-create answer */
		if (status == 409) {
			log_msg(LOG_INFO, "volume-precreate", "volume %s was created "
			    "concurrently; re-checking its ownership", name);
		} else if (status < 200 || status > 299) {
			log_msg(LOG_WARNING, "volume-precreate", "pre-creating volume "
			    "%s returned %d; refusing the request", name, status);
			free(body);
			refuse_forward(c, "bind-mount", "volume %s could not be "
			    "prepared", name);
			return;
		} else {
			v = facts_verdict(CG_FACT_VOLUME, CG_API_COMPAT, status,
			    body, body_len, c->gw->root, id);
			if (v == CG_OWNED) {
				free(body);
				log_msg(LOG_INFO, "volume-precreate", "pre-created "
				    "volume %s for this project", name);
				c->ph_i++;
				phase_next(c);
				return;
			}
		}
		free(body);
		/* re-inspect: must be owned now */
		phase_start_inspect(c);
		c->ph_step = 2;
		return;
	}
	v = facts_verdict(CG_FACT_VOLUME, (enum cg_api)c->api, status, body,
	    body_len, c->gw->root, id);
	free(body);
	if (v != CG_OWNED) {
		refuse_forward(c, "bind-mount", "volume %s is not a volume of "
		    "this project", name);
		return;
	}
	c->ph_i++;
	phase_next(c);
}

/*
 * Next step of the phase: every named network, then every named volume is
 * inspected; only when all passed are the missing volumes pre-created, so
 * a create refused for one volume creates none (tool.md guarantee 3; the
 * spec's step order of policy.md §5.2 would leave earlier ones behind).
 */
static void
phase_next(struct conn *c)
{
	for (; c->ph_kind < 3; c->ph_kind++, c->ph_i = 0) {
		if (c->ph_kind < 2 && c->ph_i < c->ph_n[c->ph_kind]) {
			phase_start_inspect(c);
			return;
		}
		if (c->ph_kind == 2) {
			while (c->ph_i < c->ph_n[1] && !c->ph_missing[c->ph_i])
				c->ph_i++;
			if (c->ph_i < c->ph_n[1]) {
				phase_start_precreate(c);
				return;
			}
		}
	}
	if (c->ph_tree != NULL) {
		cJSON_Delete(c->ph_tree);
		c->ph_tree = NULL;
	}
	start_forward(c);
}

/* Version prefix of the target (the first segment if it is v<digit>...). */
static void
target_prefix(const struct conn *c, char out[33])
{
	size_t n = 1;

	out[0] = '\0';
	if (c->target_len < 3 || c->target[1] != 'v' || c->target[2] < '0' ||
	    c->target[2] > '9')
		return;
	while (n < c->target_len && c->target[n] != '/' && c->target[n] != '?')
		n++;
	if (n > 32)
		return;
	memcpy(out, c->target, n);
	out[n] = '\0';
}

/* ---------------------------------------------------------------- replay */

/*
 * Facts for the replay (privsep.md §9.2): a ref equal to an id or ref the
 * monitor answered owned in this request is owned with that id. Anything
 * else is a fact the honest child never needs (its FORWARD carries only
 * answered refs), so it is refused here rather than looked up again.
 */
static enum cg_fact_result
replay_owned(void *arg, enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, char id_out[CG_ID_MAX + 1])
{
	struct conn *c = arg;
	unsigned i;

	(void)api;
	(void)prefix;
	for (i = 0; i < c->nfacts; i++) {
		if (c->facts[i].kind != (uint8_t)kind)
			continue;
		if (strcmp(c->facts[i].id, ref) == 0 ||
		    strcmp(c->facts[i].ref, ref) == 0) {
			snprintf(id_out, CG_ID_MAX + 1, "%s", c->facts[i].id);
			return CG_OWNED;
		}
	}
	c->replay_unknown_fact = 1;
	return CG_NOT_OWNED;
}

/* Paths are resolved afresh: the monitor's own resolution is cheap. */
static enum cg_path_verdict
replay_resolve(void *arg, const char *path, char out[CG_PATH_MAX + 1])
{
	struct conn *c = arg;

	/* the child could ask no more than this either (privsep.md §6.6) */
	if (++c->replay_paths > IPC_PATH_QUERIES_MAX)
		return CG_PATH_UNRESOLVABLE;
	return pathres_resolve(c->gw, path, out);
}

/* Publishing WARNINGs come from the replay, the monitor's own view. */
static void
replay_warn(void *arg, const char *msg)
{
	struct conn *c = arg;

	log_msg(LOG_WARNING, "publish-warning", "%s (conn %llu)", msg,
	    (unsigned long long)c->id);
}

/*
 * Run the whole policy on the FORWARD (privsep.md §9.2): it must allow
 * the request and reproduce target and body byte for byte (the fixpoint of
 * policy.md §0.6). Returns 0, or -1 after a violation.
 */
static int
replay_policy(struct conn *c)
{
	const struct listener *l = &c->gw->lis[c->lis];
	struct cg_facts facts = { replay_owned, replay_resolve, replay_warn, c };
	struct cg_policy_ctx ctx = { 0 };
	struct cg_request req;
	struct cg_refusal r;
	int rc = 0;

	ctx.root = c->gw->root;
	ctx.socket_kind = l->socket_kind;
	ctx.backend_kind = l->backend_kind;
	ctx.egress = c->gw->cfg->egress;
	ctx.proxy_available = l->proxy_available;
	ctx.proxy = l->proxy;
	ctx.noproxy = l->noproxy;
	ctx.facts = &facts;
	ctx.backend_timeout_ms = c->gw->backend_timeout_ms;
	c->replay_unknown_fact = 0;
	c->replay_paths = 0;
	memset(&req, 0, sizeof(req));
	if (policy_route(&ctx, c->method, c->target, c->target_len, 0, &req,
	    &r) < 0 || policy_finish(&ctx, &req, c->json,
	    c->json != NULL ? (size_t)c->body_len : 0, &r) < 0) {
		rc = violation(c, "the policy refuses the forwarded request (%s: "
		    "%s)%s", r.code, r.detail, c->replay_unknown_fact ?
		    " with a reference the monitor did not answer owned" : "");
	} else if (req.target_len != c->target_len ||
	    memcmp(req.target, c->target, c->target_len) != 0) {
		rc = violation(c, "the policy rewrites the forwarded target");
	} else if ((req.body != NULL ? req.body_len : 0) !=
	    (c->json != NULL ? c->body_len : 0) || (req.body != NULL &&
	    memcmp(req.body, c->json, req.body_len) != 0)) {
		rc = violation(c, "the policy rewrites the forwarded body");
	}
	policy_request_free(&req);
	if (rc < 0)
		c->dead = 1;
	return rc;
}

/*
 * The monitor-side phase (policy.md §5, §11; privsep.md §9.1 item 7):
 * inputs taken from the forwarded body itself.
 */
static void
start_phase(struct conn *c)
{
	if (replay_policy(c) < 0)
		return;
	start_named_phase(c);
}

static void
start_named_phase(struct conn *c)
{
	char err[128];
	cJSON *tree = NULL;
	const cJSON *name;
	int pod = strcmp(c->action, "pod-create") == 0 ||
	    (c->api == IPC_API_LIBPOD && strcmp(c->action, "create") == 0 &&
	    strstr(c->target, "/pods/create") != NULL);
	int ctr = strcmp(c->action, "create") == 0 &&
	    strstr(c->target, "/containers/create") != NULL;
	int vol = strcmp(c->action, "create") == 0 &&
	    strstr(c->target, "/volumes/create") != NULL;

	target_prefix(c, c->q_prefix);
	c->ph_n[0] = c->ph_n[1] = 0;
	memset(c->ph_missing, 0, sizeof(c->ph_missing));
	c->ph_i = 0;
	c->ph_kind = 0;
	if ((ctr || pod || vol) && c->json != NULL) {
		tree = json_parse(c->json, (size_t)c->body_len, err, sizeof(err));
		if (tree == NULL) {
			violation(c, "forwarded JSON body does not parse");
			c->dead = 1;
			return;
		}
	}
	if (tree != NULL && (ctr || pod)) {
		if (body_named_resources((enum cg_api)c->api,
		    c->gw->lis[c->lis].backend_kind, pod, tree, c->ph_names[0],
		    &c->ph_n[0], c->ph_names[1], &c->ph_n[1], 64) < 0) {
			cJSON_Delete(tree);
			refuse_forward(c, "bind-mount", "too many named volumes "
			    "or networks");
			return;
		}
	} else if (tree != NULL && vol) {
		/* volume create name check (policy.md §11) */
		name = json_get(tree, "Name");
		if (cJSON_IsString(name) && name->valuestring[0] != '\0') {
			c->ph_names[1][0] = name->valuestring;
			c->ph_n[1] = 1;
			c->ph_kind = 1;
			c->ph_tree = tree;
			c->rs = RS_PHASE;
			c->ph_step = 3;	/* name check only */
			{
				char *req;
				size_t len;

				req = facts_inspect_request(CG_FACT_VOLUME,
				    (enum cg_api)c->api, c->q_prefix,
				    name->valuestring, &len);
				if (start_internal(c, req, len) < 0)
					refuse_forward(c, "backend-unreachable",
					    "the %s backend is unreachable",
					    kind_name(c));
			}
			return;
		}
	}
	c->ph_tree = tree;
	c->rs = RS_PHASE;
	phase_next(c);
}

/* Volume create name check answer (policy.md §11). */
static void
volume_name_done(struct conn *c, int ok, int timeout)
{
	char id[CG_ID_MAX + 1], *body = NULL;
	size_t body_len;
	int status;
	enum cg_fact_result v;
	const char *name = c->ph_names[1][0];

	if (!ok || parse_internal(c, &status, &body, &body_len) < 0) {
		refuse_transport(c, timeout);
		return;
	}
	close_backend(c);
	v = facts_verdict(CG_FACT_VOLUME, (enum cg_api)c->api, status, body,
	    body_len, c->gw->root, id);
	free(body);
	if (status != 404 && v == CG_NOT_OWNED) {
		refuse_forward(c, "volume-driver", "volume %s exists and is not a "
		    "volume of this project", name);
		return;
	}
	if (v == CG_UNEXPECTED && status != 404) {
		refuse_forward(c, "backend-unreachable", "unexpected volume "
		    "inspect response");
		return;
	}
	cJSON_Delete(c->ph_tree);
	c->ph_tree = NULL;
	start_forward(c);
}

static int
on_forward(struct conn *c, const struct ipc_msg *m)
{
	c->fwd_pending = 1;
	if (verify_forward(c, m) < 0)
		return -1;
	free(c->target);
	free(c->log_path);
	free(c->json);
	free(c->head);
	c->json = NULL;
	c->target = xstrndup(m->u.forward.target.p, m->u.forward.target.len);
	c->target_len = m->u.forward.target.len;
	c->log_path = xstrndup(m->u.forward.log_path.p, m->u.forward.log_path.len);
	c->api = m->u.forward.api;
	c->body_kind = m->u.forward.body_kind;
	c->body_len = m->u.forward.body_len;
	c->body_got = 0;
	c->elapsed_ms = m->u.forward.elapsed_ms;
	c->fwd_ms = now_ms();
	c->is_head = strcmp(c->method, "HEAD") == 0;
	c->stream_done = 0;
	c->head_done = c->interim = c->framing = 0;
	c->backend_eof = c->client_eof = c->sent_end = 0;
	free(c->rhead);
	c->rhead = NULL;
	c->rheadlen = 0;
	build_head(c, m);
	if (c->body_kind == IPC_BODY_JSON && c->body_len > 0) {
		c->json = xmalloc((size_t)c->body_len + 1);
		c->rs = RS_BODY;
		return 0;
	}
	start_phase(c);
	return c->dead ? -1 : 0;
}

static int
on_body(struct conn *c, const struct ipc_msg *m)
{
	const struct ipc_str *d = &m->u.body.data;
	char hex[32];
	int n;

	if (c->rs == RS_BODY) {
		if (c->body_got + d->len > c->body_len)
			return violation(c, "BODY beyond the declared JSON length");
		memcpy(c->json + c->body_got, d->p, d->len);
		c->body_got += d->len;
		if (c->body_got == c->body_len) {
			c->json[c->body_len] = '\0';
			start_phase(c);
			if (c->dead)
				return -1;
		}
		return 0;
	}
	/* after the JSON body only a streamed body continues (§9.1 item 6) */
	if (c->body_kind != IPC_BODY_STREAM_LENGTH &&
	    c->body_kind != IPC_BODY_STREAM_CHUNKED)
		return violation(c, "BODY on a request without a streamed body");
	if (c->stream_done)
		return violation(c, "BODY after BODY_END");
	if (c->body_kind == IPC_BODY_STREAM_LENGTH) {
		if (c->body_got + d->len > c->body_len)
			return violation(c, "BODY beyond the declared Content-Length");
		c->body_got += d->len;
		if (c->bc.fd >= 0)
			bc_append(&c->bc, d->p, d->len);
	} else if (d->len > 0 && c->bc.fd >= 0) {
		n = snprintf(hex, sizeof(hex), "%x\r\n", d->len);
		bc_append(&c->bc, hex, (size_t)n);
		bc_append(&c->bc, d->p, d->len);
		bc_append(&c->bc, "\r\n", 2);
	}
	return 0;
}

static int
on_body_end(struct conn *c, const struct ipc_msg *m)
{
	(void)m;
	if (c->body_kind != IPC_BODY_STREAM_LENGTH &&
	    c->body_kind != IPC_BODY_STREAM_CHUNKED)
		return violation(c, "BODY_END on a request without a streamed body");
	if (c->stream_done)
		return violation(c, "second BODY_END");
	if (c->body_kind == IPC_BODY_STREAM_LENGTH && c->body_got != c->body_len)
		return violation(c, "BODY_END before the declared length");
	c->stream_done = 1;
	if (c->body_kind == IPC_BODY_STREAM_CHUNKED && c->bc.fd >= 0)
		bc_append(&c->bc, "0\r\n\r\n", 5);
	if (!c->no_head_timeout && !c->head_done)
		c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
	return 0;
}

static int
on_client_data(struct conn *c, const struct ipc_msg *m)
{
	if (c->client_eof)
		return violation(c, "CLIENT_DATA after CLIENT_EOF");
	if (c->bc.fd >= 0)
		bc_append(&c->bc, m->u.client_data.data.p, m->u.client_data.data.len);
	return 0;
}

static int
on_client_eof(struct conn *c, const struct ipc_msg *m)
{
	(void)m;
	if (c->client_eof)
		return violation(c, "second CLIENT_EOF");
	c->client_eof = 1;
	if (c->bc.fd >= 0 && c->bc.outoff == c->bc.outlen)
		shutdown(c->bc.fd, SHUT_WR);
	return 0;
}

static void
end_request(struct conn *c)
{
	close_backend(c);
	free_phase_tree(c);
	free(c->json);
	free(c->head);
	free(c->rhead);
	c->json = c->head = c->rhead = NULL;
	c->rheadlen = 0;
	c->rs = RS_IDLE;
	c->nfacts = c->nfact_q = c->npath_q = c->nlogs = 0;
}

static int
on_done(struct conn *c, const struct ipc_msg *m)
{
	(void)m;
	end_request(c);
	return 0;
}

static int
on_access(struct conn *c, const struct ipc_msg *m)
{
	char method[17], code[33], *path, *detail;
	int st = m->u.access.status;

	memcpy(method, m->u.access.method.p, m->u.access.method.len);
	method[m->u.access.method.len] = '\0';
	/* the method is logged unquoted: 1-16 upper-case letters or "-" */
	if (strcmp(method, "-") != 0 && (method[0] == '\0' ||
	    strspn(method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(method)))
		return violation(c, "ACCESS method is not a method");
	memcpy(code, m->u.access.code.p, m->u.access.code.len);
	code[m->u.access.code.len] = '\0';
	if (cg_code_status(code) != st)
		return violation(c, "ACCESS code and status disagree");
	path = xstrndup(m->u.access.path.p, m->u.access.path.len);
	detail = xstrndup(m->u.access.detail.p, m->u.access.detail.len);
	access_line(c, method, path, st >= 500 ? "error" : "deny", code, st,
	    m->u.access.duration_ms, detail);
	free(path);
	free(detail);
	end_request(c);
	return 0;
}

#define LOG_LINES_MAX	32	/* per request: a child cannot flood the log */

static int
on_log(struct conn *c, const struct ipc_msg *m)
{
	if (++c->nlogs > LOG_LINES_MAX)
		return violation(c, "more than %d LOG lines", LOG_LINES_MAX);
	char *text = log_quote(m->u.log.text.p, m->u.log.text.len);
	enum log_level lv = (enum log_level)m->u.log.level;

	log_msg(lv, "child", "child: conn=%llu %s", (unsigned long long)c->id, text);
	free(text);
	return 0;
}

static int
on_bye(struct conn *c, const struct ipc_msg *m)
{
	(void)m;
	c->dead = 1;
	return -1;
}

/* ---------------------------------------------------------------- dispatch */

/* States in which each message may arrive (style.md §1: one const table). */
#define ST(s)		(1u << (s))
#define ST_ANY_REQ	(ST(RS_IDLE) | ST(RS_BODY) | ST(RS_STREAM) | \
    ST(RS_RESPONSE) | ST(RS_SWITCHED) | ST(RS_WAIT_DONE))

static const struct dispatch {
	uint16_t type;
	unsigned states;
	int new_request;	/* may open request c->req + 1 */
	int (*handler)(struct conn *, const struct ipc_msg *);
} dispatch[] = {
	{ IPC_LOG, ST_ANY_REQ | ST(RS_FACT) | ST(RS_PHASE) | ST(RS_SENDING), 0, on_log },
	/* a child may end whenever its client goes; it reports why */
	{ IPC_BYE, ST_ANY_REQ | ST(RS_FACT) | ST(RS_PHASE) | ST(RS_SENDING), 0, on_bye },
	{ IPC_ACCESS, ST(RS_IDLE), 1, on_access },
	{ IPC_FACT_QUERY, ST(RS_IDLE), 1, on_fact_query },
	{ IPC_PATH_QUERY, ST(RS_IDLE), 1, on_path_query },
	{ IPC_FORWARD, ST(RS_IDLE), 1, on_forward },
	{ IPC_BODY, ST(RS_BODY) | ST(RS_STREAM) | ST(RS_RESPONSE) | ST(RS_WAIT_DONE), 0, on_body },
	{ IPC_BODY_END, ST(RS_STREAM) | ST(RS_RESPONSE) | ST(RS_WAIT_DONE), 0, on_body_end },
	/* RS_WAIT_DONE is never a switched state: client bytes only after 101 */
	{ IPC_CLIENT_DATA, ST(RS_SWITCHED), 0, on_client_data },
	{ IPC_CLIENT_EOF, ST(RS_SWITCHED), 0, on_client_eof },
	{ IPC_DONE, ST(RS_RESPONSE) | ST(RS_SWITCHED) | ST(RS_WAIT_DONE) | ST(RS_STREAM), 0, on_done },
};

/* Per-request bookkeeping shared by every request-level message. */
static int
check_req(struct conn *c, const struct dispatch *d, const struct ipc_msg *m)
{
	if (d->type == IPC_LOG || d->type == IPC_BYE)
		return 0;
	if (m->req == c->req && c->rs != RS_IDLE)
		return 0;
	if (d->new_request && c->rs == RS_IDLE &&
	    (m->req == c->req + 1 || (m->req == c->req && c->nfact_q + c->npath_q > 0))) {
		if (m->req == c->req + 1) {
			/* a request that asked questions ends with ACCESS or FORWARD */
			if (c->nfact_q + c->npath_q > 0)
				return violation(c, "request %u abandoned after "
				    "its questions", c->req);
			c->req = m->req;
			c->nfacts = c->nfact_q = c->npath_q = 0;
		}
		return 0;
	}
	if (d->type == IPC_DONE && m->req == c->req)
		return 0;
	return violation(c, "%s for request %u while at request %u",
	    ipc_type_name(m->type), m->req, c->req);
}

static int
dispatch_msg(struct conn *c, const struct ipc_msg *m)
{
	size_t i;

	for (i = 0; i < sizeof(dispatch) / sizeof(dispatch[0]); i++)
		if (dispatch[i].type == m->type)
			break;
	if (i == sizeof(dispatch) / sizeof(dispatch[0]))
		return violation(c, "unexpected %s", ipc_type_name(m->type));
	if (!(dispatch[i].states & ST(c->rs)))
		return violation(c, "%s not allowed now", ipc_type_name(m->type));
	if (check_req(c, &dispatch[i], m) < 0)
		return -1;
	return dispatch[i].handler(c, m);
}

/* Messages before CONN_START: CHILD_READY or SANDBOX_FAILED only. */
static int
on_startup_msg(struct conn *c, const struct ipc_msg *m)
{
	if (m->type == IPC_SANDBOX_FAILED) {
		snprintf(c->gw->sandbox_failure, sizeof(c->gw->sandbox_failure),
		    "%.*s: %s", (int)m->u.sandbox_failed.step.len,
		    m->u.sandbox_failed.step.p, strerror(m->u.sandbox_failed.err));
		log_msg(LOG_ERROR, "sandbox", "cannot sandbox the request parser "
		    "(%s)", c->gw->sandbox_failure);
		c->dead = 1;
		return -1;
	}
	if (m->type != IPC_CHILD_READY || c->ready ||
	    m->u.child_ready.pid != (uint32_t)c->pid)
		return violation(c, "expected CHILD_READY");
	c->ready = 1;
	if (!c->gw->sandbox_logged) {	/* once: every child is alike */
		c->gw->sandbox_logged = 1;
		log_sandbox(m->u.child_ready.namespaces, m->u.child_ready.chroot);
	}
	return 0;
}

int
conn_on_ipc(struct conn *c)
{
	static unsigned char *buf;
	struct ipc_msg m;
	int rc, i;

	if (buf == NULL)
		buf = xmalloc(IPC_MSG_MAX + 1);
	for (i = 0; i < 16 && !c->dead; i++) {
		rc = ipc_recv(c->ipc, buf, IPC_MSG_MAX + 1, &m, 0, MSG_DONTWAIT);
		if (rc == IPC_EAGAIN)
			return 0;
		/*
		 * End-of-file, or a reset because the child exited with
		 * messages of ours still unread (its client went away): the
		 * child is gone, which is no violation.
		 */
		if (rc == IPC_EOF || (rc == IPC_ESYS && errno == ECONNRESET)) {
			c->dead = 1;
			return -1;
		}
		if (rc != IPC_OK)
			return violation(c, "%s", ipc_strerror(rc));
		if (!c->started) {
			if (on_startup_msg(c, &m) < 0)
				return -1;
			continue;
		}
		ipc_audit(c, "to-monitor", &m);
		if (dispatch_msg(c, &m) < 0)
			return -1;
		/* stop reading while the monitor works for this child */
		if (c->rs == RS_FACT || c->rs == RS_PHASE || c->rs == RS_SENDING)
			return 0;
	}
	return 0;
}

/* ---------------------------------------------------------------- response */

/*
 * A framed response is complete: tell the child, and close the backend so
 * that bytes after the declared end (a HEAD answer with a body, extra
 * bytes past Content-Length) are never relayed (http.md §8.4).
 */
static void
finish_framed(struct conn *c)
{
	send_backend_end(c, IPC_END_EOF);
	close_backend(c);
	c->rs = RS_WAIT_DONE;
}

/*
 * No usable response head (http.md §8.1-8.2): 502 to the child, its
 * access line, and the backend closed.
 */
static void
fail_head(struct conn *c, const char *detail)
{
	access_line(c, c->method, c->log_path, "error", "backend-unreachable",
	    502, c->elapsed_ms + (unsigned)(now_ms() - c->fwd_ms), detail);
	send_backend_end(c, IPC_END_ERROR);
	close_backend(c);
	c->rs = RS_WAIT_DONE;
}

/* Handle backend bytes of a forwarded exchange (http.md §8, §9). */
static void
response_bytes(struct conn *c, const char *p, size_t len)
{
	struct http_response resp;
	size_t used, wrote, take;
	int n;

	if (!c->head_done) {
		c->rhead = xrealloc(c->rhead, c->rheadlen + len);
		memcpy(c->rhead + c->rheadlen, p, len);
		c->rheadlen += len;
		for (;;) {
			n = http_parse_response(c->rhead, c->rheadlen, &resp);
			if (n == -2 && c->rheadlen <= HTTP_HEAD_MAX)
				return;
			/* a protocol switch nobody asked for is no valid answer */
			if (n < 0 || (resp.status == 101 && !c->hijack)) {
				fail_head(c, "the backend sent an invalid response");
				return;
			}
			if (resp.status < 200 && resp.status != 101) {
				if (++c->interim > HTTP_INTERIM_MAX) {
					fail_head(c, "the backend sent too many "
					    "interim responses");
					return;
				}
				memmove(c->rhead, c->rhead + n, c->rheadlen - (size_t)n);
				c->rheadlen -= (size_t)n;
				continue;
			}
			break;
		}
		c->head_done = 1;
		c->status = resp.status;
		access_line(c, c->method, c->log_path, "allow", NULL, resp.status,
		    c->elapsed_ms + (unsigned)(now_ms() - c->fwd_ms), NULL);
		if (c->hijack && http_response_switches(&resp)) {
			c->rs = RS_SWITCHED;
			c->framing = 3;
		} else if (c->is_head || resp.status == 204 || resp.status == 304) {
			c->framing = 0;
		} else if (resp.chunked) {
			c->framing = 2;
			http_chunked_init(&c->chunk, 1);
		} else if (resp.has_content_length) {
			c->framing = 1;
			c->remaining = resp.content_length;
		} else {
			c->framing = 3;
		}
		c->bc.deadline = 0;
		send_backend_data(c, c->rhead, (size_t)n);
		p = c->rhead + n;
		len = c->rheadlen - (size_t)n;
		if (c->framing == 0) {
			finish_framed(c);
			return;
		}
	}
	switch (c->framing) {
	case 1:
		take = len < c->remaining ? len : (size_t)c->remaining;
		send_backend_data(c, p, take);
		c->remaining -= take;
		if (c->remaining == 0)
			finish_framed(c);
		break;
	case 2:
		wrote = 0;
		if (http_chunked_feed(&c->chunk, p, len, NULL, &wrote, &used) < 0) {
			log_msg(LOG_INFO, "truncated", "backend response body "
			    "truncated: invalid chunked framing");
			send_backend_end(c, IPC_END_ERROR);
			close_backend(c);
			c->rs = RS_WAIT_DONE;
			return;
		}
		send_backend_data(c, p, used);
		if (c->chunk.done)
			finish_framed(c);
		break;
	default:
		send_backend_data(c, p, len);
		break;
	}
}

static void
backend_eof(struct conn *c)
{
	c->backend_eof = 1;
	if (c->rs == RS_SWITCHED) {
		send_backend_end(c, IPC_END_EOF);
		return;
	}
	if (!c->head_done) {
		access_line(c, c->method, c->log_path, "error", "backend-unreachable",
		    502, c->elapsed_ms + (unsigned)(now_ms() - c->fwd_ms),
		    "the backend closed without a response");
		send_backend_end(c, IPC_END_ERROR);
	} else if (c->framing == 3) {
		send_backend_end(c, IPC_END_EOF);
	} else if (!c->sent_end) {
		log_msg(LOG_INFO, "truncated", "backend response body truncated: "
		    "the backend closed early");
		send_backend_end(c, IPC_END_ERROR);
	}
	close_backend(c);
	c->rs = RS_WAIT_DONE;
}

/* Internal exchange finished: read whole, dispatch by state. */
static void
internal_done(struct conn *c, int ok, int timeout)
{
	if (c->rs == RS_FACT) {
		if (timeout) {
			close_backend(c);
			answer_fact(c, IPC_FACT_TIMEOUT, NULL);
		} else {
			fact_done(c, ok);
		}
	} else if (c->rs == RS_PHASE) {
		if (c->ph_step == 3)
			volume_name_done(c, ok, timeout);
		else
			phase_done(c, ok, timeout);
	}
}

short
conn_backend_events(const struct conn *c)
{
	short ev = 0;

	if (c->bc.fd < 0)
		return 0;
	if (c->bc.outoff < c->bc.outlen)
		ev |= POLLOUT;
	if (c->bc.internal) {
		if (c->bc.outoff == c->bc.outlen)
			ev |= POLLIN;
		return ev;
	}
	/* backpressure: read only when the child keeps up */
	if (TAILQ_EMPTY(&c->outq) && c->rs != RS_SENDING && !c->backend_eof)
		ev |= POLLIN;
	return ev;
}

int
conn_on_backend(struct conn *c, short revents)
{
	char buf[IPC_DATA_MAX];
	ssize_t n;

	if (c->bc.fd < 0)
		return 0;
	if ((revents & (POLLOUT | POLLERR | POLLHUP)) && c->bc.outoff < c->bc.outlen) {
		n = send(c->bc.fd, c->bc.out + c->bc.outoff, c->bc.outlen - c->bc.outoff,
		    MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			/* nothing more can be written: do not retry it */
			free(c->bc.out);
			c->bc.out = NULL;
			c->bc.outlen = c->bc.outoff = 0;
			if (c->bc.internal) {
				internal_done(c, 0, 0);
			} else if (c->rs == RS_SENDING) {
				refuse_forward(c, "backend-unreachable", "the %s "
				    "backend is unreachable", kind_name(c));
			} else {
				backend_eof(c);
			}
			return 0;
		}
		if (n > 0)
			c->bc.outoff += (size_t)n;
		if (c->bc.outoff == c->bc.outlen) {
			free(c->bc.out);
			c->bc.out = NULL;
			c->bc.outlen = c->bc.outoff = 0;
			if (c->rs == RS_SENDING) {
				send_verdict(c, 0, NULL, 0, NULL);
				if (c->body_kind == IPC_BODY_STREAM_LENGTH ||
				    c->body_kind == IPC_BODY_STREAM_CHUNKED) {
					c->rs = RS_STREAM;
					c->bc.deadline = 0;
				} else {
					c->rs = RS_RESPONSE;
					c->bc.deadline = c->no_head_timeout ? 0 :
					    now_ms() + c->gw->backend_timeout_ms;
				}
			} else if (c->client_eof && c->rs == RS_SWITCHED) {
				shutdown(c->bc.fd, SHUT_WR);
			}
		}
	}
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return 0;
	if (c->bc.internal) {
		if (c->bc.outoff < c->bc.outlen)
			return 0;
		if (c->bc.incap - c->bc.inlen < sizeof(buf)) {
			c->bc.incap = c->bc.inlen + 4 * sizeof(buf);
			c->bc.in = xrealloc(c->bc.in, c->bc.incap + 1);
		}
		n = recv(c->bc.fd, c->bc.in + c->bc.inlen, c->bc.incap - c->bc.inlen,
		    MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n <= 0) {
			internal_done(c, n == 0, 0);
			return 0;
		}
		c->bc.inlen += (size_t)n;
		if (c->bc.inlen > INTERNAL_RESPONSE_MAX)
			internal_done(c, 0, 0);
		return 0;
	}
	if (!(conn_backend_events(c) & POLLIN))
		return 0;
	n = recv(c->bc.fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		backend_eof(c);
		return 0;
	}
	response_bytes(c, buf, (size_t)n);
	return 0;
}

int
conn_on_timer(struct conn *c, long long now)
{
	if (c->bc.fd < 0 || c->bc.deadline == 0 || now < c->bc.deadline)
		return 0;
	if (c->bc.internal) {
		internal_done(c, 0, 1);
	} else if (c->rs == RS_SENDING) {
		refuse_timeout(c);
	} else if (!c->head_done) {
		access_line(c, c->method, c->log_path, "error", "backend-timeout",
		    504, c->elapsed_ms + (unsigned)(now - c->fwd_ms),
		    "the backend did not answer in time");
		send_backend_end(c, IPC_END_TIMEOUT);
		close_backend(c);
		c->rs = RS_WAIT_DONE;
	}
	return 0;
}

void
conn_free(struct conn *c)
{
	struct outmsg *o;

	close_backend(c);
	if (c->ipc >= 0)
		close(c->ipc);
	if (c->client >= 0)
		close(c->client);
	while ((o = TAILQ_FIRST(&c->outq)) != NULL) {
		TAILQ_REMOVE(&c->outq, o, entry);
		free(o);
	}
	if (c->ph_tree != NULL)
		cJSON_Delete(c->ph_tree);
	free(c->target);
	free(c->log_path);
	free(c->json);
	free(c->head);
	free(c->rhead);
	free(c);
}
