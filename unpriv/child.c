/*
 * The request parser child (privsep.md §2, §4, §8). Everything here runs
 * after its sandbox is complete (forked from the zygote, unpriv/zygote.c,
 * then sandbox_finish_child()): no files, no sockets, no exec. It blocks
 * freely: it serves exactly one client connection. It reads and parses
 * every request; the monitor writes forwarded responses and relays
 * switched streams itself (privsep.md §1 amendment). Request bodies are
 * read and streamed by unpriv/body.c; both talk to the client and the
 * monitor through unpriv/child_io.c.
 */
#include "unpriv/child.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/gwerror.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "http/http.h"
#include "ipc/proto.h"
#include "policy/headers.h"
#include "policy/policy.h"
#include "unpriv/body.h"
#include "unpriv/checker.h"
#include "unpriv/child_io.h"
#include "unpriv/sandbox.h"

#define IDLE_MS			120000	/* http.md §1.3 */
#define HEAD_MS			30000

/*
 * One DEBUG line for the monitor's log: the query keys policy_route()
 * did not forward (routes.md §4.4, amended), or the body fields
 * policy_finish() did not (doc/leniency.md); what says which ("query
 * keys", "body fields"). keys is the ", "-joined text of
 * cg_request.query_dropped or body_dropped (at most 512 bytes); bytes
 * outside printable ASCII are written as \xNN, so the text is valid UTF-8
 * (the LOG text must be) whatever the client sent.
 */
static void
log_dropped_keys(struct child *c, const char *action, const char *what,
    const char *keys)
{
	static const char hex[] = "0123456789abcdef";
	struct ipc_msg m = { .type = IPC_LOG, .fd = -1 };
	char text[1024];
	size_t n;
	int w;

	w = snprintf(text, sizeof(text), "%s: %s not forwarded: ", action,
	    what);
	if (w < 0 || (size_t)w >= sizeof(text))
		return;
	for (n = (size_t)w; *keys != '\0' && n + 4 < sizeof(text); keys++) {
		unsigned char b = (unsigned char)*keys;

		if (b >= 0x20 && b < 0x7f && b != '\\') {
			text[n++] = (char)b;
			continue;
		}
		text[n++] = '\\';
		text[n++] = 'x';
		text[n++] = hex[b >> 4];
		text[n++] = hex[b & 0xf];
	}
	m.u.log.level = IPC_LOG_DEBUG;	/* connection-level: req stays 0 */
	m.u.log.text = SN(text, n);
	child_send(c, &m);
}

/* ---------------------------------------------------------------- facts */

static enum cg_fact_result
fact_owned(void *arg, enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, char id_out[CG_ID_MAX + 1])
{
	struct child *c = arg;
	struct ipc_msg m = { .type = IPC_FACT_QUERY, .fd = -1 };
	uint32_t qid;

	if (c->nfacts >= IPC_FACT_QUERIES_MAX || strlen(ref) > 1024 ||
	    strlen(prefix) > 32)
		return CG_UNEXPECTED;
	c->nfacts++;
	qid = ++c->qid;
	m.req = c->req;
	m.u.fact_query.qid = qid;
	m.u.fact_query.kind = (uint8_t)kind;
	m.u.fact_query.api = (uint8_t)api;
	m.u.fact_query.prefix = ipc_cstr(prefix);
	m.u.fact_query.ref = ipc_cstr(ref);
	child_send(c, &m);
	child_recv(c, &m);
	if (m.type != IPC_FACT_ANSWER || m.req != c->req ||
	    m.u.fact_answer.qid != qid)
		_exit(1);
	if (m.u.fact_answer.result == IPC_FACT_OWNED) {
		memcpy(id_out, m.u.fact_answer.id.p, m.u.fact_answer.id.len);
		id_out[m.u.fact_answer.id.len] = '\0';
	}
	return (enum cg_fact_result)m.u.fact_answer.result;
}

static enum cg_path_verdict
fact_resolve(void *arg, const char *path, char out[CG_PATH_MAX + 1])
{
	struct child *c = arg;
	struct ipc_msg m = { .type = IPC_PATH_QUERY, .fd = -1 };
	uint32_t qid;

	if (c->npaths >= IPC_PATH_QUERIES_MAX || strlen(path) > CG_PATH_MAX)
		return CG_PATH_UNRESOLVABLE;
	c->npaths++;
	qid = ++c->qid;
	m.req = c->req;
	m.u.path_query.qid = qid;
	m.u.path_query.path = ipc_cstr(path);
	child_send(c, &m);
	child_recv(c, &m);
	if (m.type != IPC_PATH_ANSWER || m.req != c->req ||
	    m.u.path_answer.qid != qid)
		_exit(1);
	memcpy(out, m.u.path_answer.resolved.p, m.u.path_answer.resolved.len);
	out[m.u.path_answer.resolved.len] = '\0';
	return (enum cg_path_verdict)m.u.path_answer.verdict;
}

/*
 * Publishing WARNINGs (policy.md §3.7) are logged by the monitor from its
 * replay of the forwarded request (privsep.md §9.2), not taken from us.
 */
static void
fact_warn(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* ---------------------------------------------------------------- errors */

/*
 * Answer a request the child refuses itself (http.md §11), report it with
 * ACCESS, and linger: the connection always closes after a gateway error.
 */
static void __attribute__((noreturn))
refuse(struct child *c, const char *method, size_t method_len,
    const char *path, size_t path_len, const struct cg_refusal *r)
{
	struct ipc_msg m = { .type = IPC_ACCESS, .fd = -1 };
	char *resp;
	size_t len;
	int head = method_len == 4 && memcmp(method, "HEAD", 4) == 0;

	resp = cg_error_response(r, head, &len);
	(void)child_write_client(c, resp, len);	/* logged even if it is gone */
	free(resp);
	m.req = c->req;
	m.u.access.method = method_len ? SN(method, method_len) : ipc_cstr("-");
	m.u.access.path = path_len ? SN(path, path_len > 8192 ? 8192 :
	    path_len) : ipc_cstr("-");
	m.u.access.code = ipc_cstr(r->code);
	m.u.access.status = (uint16_t)r->status;
	m.u.access.duration_ms = child_ms_since(&c->head_end);
	m.u.access.detail = SN(r->detail, strlen(r->detail));
	child_send(c, &m);
	child_linger_exit(c, IPC_BYE_ERROR);
}

/* ---------------------------------------------------------------- requests */

/*
 * Step 1 of serve_request: read the head (http.md §1.3, §2): 120 s for its
 * first byte, then 30 s for all of it, counted from that byte, not per
 * read. Takes c with its request fields reset; returns the length of the
 * parsed head in c->in (hr describes it there), or a negative value with
 * *r the refusal of a head that does not parse. Ends the process when
 * the client leaves or times out.
 */
static int
read_head(struct child *c, struct http_request *hr, struct cg_refusal *r)
{
	long long head_start = -1;
	ssize_t got;
	int n;

	for (;;) {
		n = c->inlen > 0 ? http_parse_request(c->in, c->inlen, hr, r) : -2;
		if (n != -2)
			break;
		if (c->inlen > 0 && head_start < 0) {
			head_start = now_ms();
			clock_gettime(CLOCK_MONOTONIC, &c->head_start);
		}
		if (c->inlen > 0)
			child_begin(c, 1);
		got = child_read_client(c, c->inlen == 0 ? IDLE_MS :
		    (int)(HEAD_MS - (now_ms() - head_start) > 0 ?
		    HEAD_MS - (now_ms() - head_start) : 0));
		/* a head begun and not finished is a request read in part */
		if (got < 0 && c->inlen > 0)
			child_abandon(c, 1, IPC_BYE_TIMEOUT, "abandoned: the "
			    "request head did not complete within 30 s");
		if (got == 0 && c->inlen > 0)
			child_abandon(c, 1, IPC_BYE_CLIENT_CLOSED,
			    "abandoned: the client left before the request "
			    "head was complete");
		if (got < 0)
			child_exit(c, IPC_BYE_TIMEOUT);
		if (got == 0)
			child_exit(c, IPC_BYE_CLIENT_CLOSED);
	}
	return n;
}

/*
 * Step 3 of serve_request, a body by route kind (http.md §4): takes the
 * parsed head hr, the routed request req and its path (pathlen bytes,
 * for refusals); sets *body and *bodylen to the JSON body read (NULL, 0
 * when the route takes none or it was discarded). Refuses (and ends the
 * process) on a body the route does not take or cannot read.
 */
static void
read_body(struct child *c, const struct http_request *hr,
    const struct cg_request *req, const char *path, size_t pathlen,
    char **body, size_t *bodylen)
{
	struct cg_refusal r;
	int early_bytes;

	/*
	 * amended §4.1: on a hijack route, bytes sent before the upgrade are
	 * the stream's first bytes, as podman reads them (dockerode's attach
	 * sends its options as a body): left unread, sent as early bytes (5.)
	 * or relayed by the monitor from the socket after the switch; the
	 * connection ends after this exchange either way (the forwarded list
	 * says Connection: close, policy/headers.c).
	 */
	early_bytes = req->body_kind == CG_BODY_NONE && req->hijack &&
	    !hr->chunked && hr->has_content_length && hr->content_length > 0;
	if (req->body_kind == CG_BODY_NONE) {
		if (!early_bytes && ((hr->has_content_length &&
		    hr->content_length > 0) || hr->chunked)) {
			/* amended §4.1: read and discarded, except on start */
			int discard = policy_none_body_discarded(req);

			if (discard && hr->expect_continue &&
			    child_write_client(c,
			    "HTTP/1.1 100 Continue\r\n\r\n", 25) < 0)
				child_abandon(c, 0, IPC_BYE_CLIENT_CLOSED,
				    "abandoned: the client left before the "
				    "request body was complete");
			if (body_read(c, hr, HTTP_BODY_JSON_MAX, body,
			    bodylen, &r) < 0)
				refuse(c, hr->method, hr->method_len, path,
				    pathlen, &r);
			if (!discard && !policy_empty_body_ok(*body, *bodylen)) {
				cg_refuse(&r, "malformed", "%s %.*s takes no "
				    "request body", req->method, (int)pathlen,
				    path);
				refuse(c, hr->method, hr->method_len, path,
				    pathlen, &r);
			}
			free(*body);
			*body = NULL;
			*bodylen = 0;
		}
	} else if (req->body_kind != CG_BODY_STREAM) {
		if (!hr->chunked && hr->has_content_length &&
		    hr->content_length > HTTP_BODY_JSON_MAX) {
			cg_refuse(&r, "too-large", "request body exceeds 8 MiB");
			refuse(c, hr->method, hr->method_len, path, pathlen, &r);
		}
		if (hr->expect_continue && child_write_client(c,
		    "HTTP/1.1 100 Continue\r\n\r\n", 25) < 0)
			child_abandon(c, 0, IPC_BYE_CLIENT_CLOSED, "abandoned: "
			    "the client left before the request body was "
			    "complete");
		if (body_read(c, hr, HTTP_BODY_JSON_MAX, body, bodylen, &r) < 0)
			refuse(c, hr->method, hr->method_len, path, pathlen, &r);
	}
}

/*
 * Step 5 of serve_request, FORWARD (privsep.md §8 step 3): takes the
 * parsed head hr, the finished request req and its forwarded fields fh;
 * sends method, target, fields; the JSON body; on hijack routes the bytes
 * read past the request, which become the stream's first bytes after a
 * switch (http.md §5.2), ended by an empty CLIENT_DATA. They stay in
 * c->in: without a switch they are the next request.
 */
static void
send_forward(struct child *c, const struct http_request *hr,
    const struct cg_request *req, const struct cg_fwd_headers *fh)
{
	struct ipc_msg m;
	size_t i;

	m = (struct ipc_msg){ .type = IPC_FORWARD, .fd = -1, .req = c->req };
	m.u.forward.method = SN(hr->method, hr->method_len);
	m.u.forward.target = SN(req->target, req->target_len);
	for (i = 0; i < fh->n; i++) {
		m.u.forward.headers[i].name = SN(fh->f[i].name,
		    fh->f[i].name_len);
		m.u.forward.headers[i].value = SN(fh->f[i].value,
		    fh->f[i].value_len);
	}
	m.u.forward.nheaders = (uint16_t)fh->n;
	child_send(c, &m);
	if (req->body_len > 0)
		body_send(c, IPC_BODY, req->body, req->body_len);
	if (req->hijack) {
		body_send(c, IPC_CLIENT_DATA, c->in, c->inlen < IPC_EARLY_MAX ?
		    c->inlen : IPC_EARLY_MAX);
		m = (struct ipc_msg){ .type = IPC_CLIENT_DATA, .fd = -1,
		    .req = c->req };
		child_send(c, &m);
	}
}

/*
 * The end of serve_request for a synced exchange: takes the forwarded
 * request req (freed here), its head hr and whether it is a HEAD. Waits
 * for its VERDICT (a refusal is written, and ends the process), then
 * step 6. Returns 1 to keep the connection; ends the process otherwise.
 */
static int
finish_synced(struct child *c, const struct http_request *hr,
    struct cg_request *req, int is_head)
{
	struct ipc_msg m;
	int mode = -1;

	child_recv(c, &m);
	if (m.type != IPC_VERDICT || m.req != c->req)
		_exit(1);
	if (m.u.verdict.outcome == IPC_OUTCOME_REFUSED) {
		child_verdict_refused(c, &m, is_head);
		child_send_done(c);
		child_linger_exit(c, IPC_BYE_ERROR);
	}

	/*
	 * 6. the monitor writes the response itself; a streamed body goes on
	 * meanwhile (steps 4-6). RESPONSE_END is the end of the exchange.
	 */
	if (req->body_kind == CG_BODY_STREAM) {
		if (hr->expect_continue && child_write_client(c,
		    "HTTP/1.1 100 Continue\r\n\r\n", 25) < 0)
			body_give_up(c, IPC_BYE_CLIENT_CLOSED);	/* the monitor logs it */
		mode = body_stream(c, hr);
	}
	policy_request_free(req);
	if (mode < 0) {
		child_recv(c, &m);
		mode = child_response_end(c, &m);
	}
	if (c->up >= 0) {	/* the request's body pipe ends with it */
		close(c->up);
		c->up = -1;
	}
	child_send_done(c);
	if (mode != IPC_END_KEEP_ALIVE)
		child_linger_exit(c, IPC_BYE_CLIENT_CLOSED);
	return 1;
}

/*
 * Serve one request (privsep.md §8). Returns 1 to keep the connection
 * for another request; ends the process otherwise.
 */
static int
serve_request(struct child *c)
{
	struct http_request hr;
	struct cg_request req;
	struct cg_refusal r;
	struct cg_fwd_headers fh;
	const char *path;
	size_t pathlen, bodylen = 0;
	char *body = NULL, method[HTTP_METHOD_MAX + 1];
	int n, is_head, synced;

	/* 1. the head (http.md §1.3, §2) */
	c->rmethod_len = c->rpath_len = 0;
	c->begun = 0;
	n = read_head(c, &hr, &r);
	clock_gettime(CLOCK_MONOTONIC, &c->head_end);
	c->req++;
	c->nfacts = c->npaths = 0;
	if (n < 0) {
		/* the line may be unparseable: report "-" then */
		refuse(c, NULL, 0, NULL, 0, &r);
	}
	/* keep the head apart: hr points into it while c->in moves on */
	free(c->head);
	c->head = xmalloc((size_t)n);
	memcpy(c->head, c->in, (size_t)n);
	child_consume(c, (size_t)n);
	if (http_parse_request(c->head, (size_t)n, &hr, &r) != n)
		_exit(1);
	path = hr.target;
	for (pathlen = 0; pathlen < hr.target_len && path[pathlen] != '?';
	    pathlen++)
		;
	memcpy(method, hr.method, hr.method_len);
	method[hr.method_len] = '\0';
	is_head = strcmp(method, "HEAD") == 0;
	c->rmethod = hr.method;
	c->rmethod_len = hr.method_len;
	c->rpath = path;
	c->rpath_len = pathlen > 8192 ? 8192 : pathlen;

	/* 2. route and query policy (routes.md §5 steps 1-6) */
	memset(&req, 0, sizeof(req));
	if (policy_route(&c->ctx, method,
	    hr.target, hr.target_len, hr.grpc, &req, &r) < 0)
		refuse(c, hr.method, hr.method_len, path, pathlen, &r);
	if (req.query_dropped != NULL)
		log_dropped_keys(c, req.action, "query keys",
		    req.query_dropped);

	/* 3. the body by route kind (http.md §4) */
	read_body(c, &hr, &req, path, pathlen, &body, &bodylen);

	/* 4. body policy and ownership (steps 7-8), the forwarded fields */
	if (policy_finish(&c->ctx, &req, body, bodylen, &r) < 0 ||
	    policy_forward_headers(&req, req.body != NULL ? req.body_len : 0,
	    hr.fields, hr.nfields, &fh, &r) < 0)
		refuse(c, hr.method, hr.method_len, path, pathlen, &r);
	free(body);
	if (req.body_dropped != NULL)
		log_dropped_keys(c, req.action, "body fields", req.body_dropped);

	/* 5. FORWARD (privsep.md §8 step 3) */
	send_forward(c, &hr, &req, &fh);

	/*
	 * A light exchange (no body, no hijack: policy_exchange_synced) hears
	 * of its VERDICT only when refused, and of its end only when the
	 * monitor closes: the child reads its client's next
	 * request at once (child_read_client takes the monitor's word
	 * meanwhile, child_light_msg), and asks for the end with DONE before
	 * it writes to the client itself or leaves (child_settle).
	 */
	synced = policy_exchange_synced(&req, &fh);
	if (!synced) {
		policy_request_free(&req);
		c->light = c->req;
		c->light_done = 0;
		c->light_head = is_head;
		return 1;
	}
	return finish_synced(c, &hr, &req, is_head);
}

int
child_await_conn(const struct sandbox_result *sr, unsigned char *buf,
    struct ipc_msg *m)
{
	/*
	 * Only when asked (the monitor's start-up self-test): the monitor
	 * knows this process from the zygote's ZYGOTE_SPAWNED, and its
	 * CONN_START simply waits in the socket until the sandbox is
	 * complete (a message and a wake-up of the monitor less
	 * per connection).
	 */
	if (sr->report_ready) {
		*m = (struct ipc_msg){ .type = IPC_CHILD_READY, .fd = -1 };
		m->u.child_ready.pid = (uint32_t)getpid();
		m->u.child_ready.namespaces = (uint8_t)sr->namespaces;
		m->u.child_ready.chroot = (uint8_t)sr->chroot;
		if (ipc_send(CHILD_IPC_FD, m, 0) != IPC_OK)
			return -1;
	}

	if (ipc_recv(CHILD_IPC_FD, buf, IPC_MSG_MAX + 1, m, 1, 0) != IPC_OK)
		return -1;
	if (m->type != IPC_CONN_START && m->type != IPC_CHECK_START) {
		if (m->fd >= 0)
			close(m->fd);
		return -1;
	}
	return 0;
}

void
child_serve(const struct ipc_msg *m, unsigned char *buf)
{
	struct child c;

	memset(&c, 0, sizeof(c));
	c.ipc = CHILD_IPC_FD;
	c.incap = 2 * READ_CHUNK;
	c.in = xmalloc(c.incap);
	c.client = m->fd;
	c.up = -1;
	c.conn = m->u.conn_start.conn;
	c.root = xstrndup(m->u.conn_start.root.p, m->u.conn_start.root.len);
	c.proxy = xstrndup(m->u.conn_start.proxy.p, m->u.conn_start.proxy.len);
	c.noproxy = xstrndup(m->u.conn_start.noproxy.p,
	    m->u.conn_start.noproxy.len);
	c.backend_timeout_ms = m->u.conn_start.backend_timeout_ms;
	c.facts.owned = fact_owned;
	c.facts.resolve = fact_resolve;
	c.facts.warn = fact_warn;
	c.facts.arg = &c;
	c.ctx.root = c.root;
	c.ctx.socket_kind = m->u.conn_start.socket_kind == IPC_KIND_DOCKER ?
	    CG_DOCKER : CG_PODMAN;
	c.ctx.backend_kind = m->u.conn_start.backend_kind == IPC_KIND_DOCKER ?
	    CG_DOCKER : CG_PODMAN;
	c.ctx.egress = (enum cg_egress)m->u.conn_start.egress;
	c.ctx.proxy_available = m->u.conn_start.proxy_available;
	c.ctx.proxy = c.proxy;
	c.ctx.noproxy = c.noproxy;
	c.ctx.facts = &c.facts;
	c.ctx.backend_timeout_ms = c.backend_timeout_ms;
	c.ctx.commit_needs_body = m->u.conn_start.commit_needs_body;
	c.ctx.backend_rootless = m->u.conn_start.backend_rootless;
	c.msgbuf = buf;		/* m is not used after this point */

	for (;;)
		(void)serve_request(&c);
}

void
child_run(const struct sandbox_result *sr, unsigned char *buf)
{
	struct ipc_msg m;

	if (child_await_conn(sr, buf, &m) < 0)
		_exit(1);
	if (m.type == IPC_CHECK_START)
		checker_main(&m, buf);
	child_serve(&m, buf);
}
