/*
 * The monitor's side of one request-parser child (privsep.md §7-§10): the
 * dispatch table with the states in which each message is legal, the
 * handlers that answer the child, and the routing of backend events to
 * the stage they belong to (facts, phase, relay). The monitor never
 * parses client bytes: it sees typed fields, the canonical target and the
 * re-serialised JSON body.
 */
#include "monitor/gateway.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/log.h"

static int
on_path_query(struct conn *c, const struct ipc_msg *m)
{
	struct ipc_msg a = { .type = IPC_PATH_ANSWER, .req = c->req };
	char path[CG_PATH_MAX + 1], out[CG_PATH_MAX + 1];
	enum cg_path_verdict v;

	if (++c->npath_q > IPC_PATH_QUERIES_MAX)
		return conn_violation(c, "more than %d PATH_QUERY", IPC_PATH_QUERIES_MAX);
	memcpy(path, m->u.path_query.path.p, m->u.path_query.path.len);
	path[m->u.path_query.path.len] = '\0';
	v = pathres_resolve(c->gw, path, out);
	a.u.path_answer.qid = m->u.path_query.qid;
	a.u.path_answer.verdict = (uint8_t)v;
	a.u.path_answer.resolved = ipc_cstr(v == CG_PATH_ALLOWED || v == CG_PATH_OUTSIDE ?
	    out : "");
	conn_send(c, &a);
	return 0;
}

/*
 * The monitor-side phase (policy.md §5, §11; privsep.md §9.1 item 7):
 * inputs taken from the forwarded body itself.
 */
static void
start_phase(struct conn *c)
{
	if (verify_replay(c) < 0)
		return;
	phase_start(c);
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
	free(c->lf_buf);
	c->lf_buf = NULL;
	c->lf_len = 0;
	c->lf_on = 0;
	backend_build_head(c, m);
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
			return conn_violation(c, "BODY beyond the declared JSON length");
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
		return conn_violation(c, "BODY on a request without a streamed body");
	if (c->stream_done)
		return conn_violation(c, "BODY after BODY_END");
	if (c->body_kind == IPC_BODY_STREAM_LENGTH) {
		if (c->body_got + d->len > c->body_len)
			return conn_violation(c, "BODY beyond the declared Content-Length");
		c->body_got += d->len;
		if (c->bc.fd >= 0)
			backend_append(&c->bc, d->p, d->len);
	} else if (d->len > 0 && c->bc.fd >= 0) {
		n = snprintf(hex, sizeof(hex), "%x\r\n", d->len);
		backend_append(&c->bc, hex, (size_t)n);
		backend_append(&c->bc, d->p, d->len);
		backend_append(&c->bc, "\r\n", 2);
	}
	return 0;
}

static int
on_body_end(struct conn *c, const struct ipc_msg *m)
{
	(void)m;
	if (c->body_kind != IPC_BODY_STREAM_LENGTH &&
	    c->body_kind != IPC_BODY_STREAM_CHUNKED)
		return conn_violation(c, "BODY_END on a request without a streamed body");
	if (c->stream_done)
		return conn_violation(c, "second BODY_END");
	if (c->body_kind == IPC_BODY_STREAM_LENGTH && c->body_got != c->body_len)
		return conn_violation(c, "BODY_END before the declared length");
	c->stream_done = 1;
	if (c->body_kind == IPC_BODY_STREAM_CHUNKED && c->bc.fd >= 0)
		backend_append(&c->bc, "0\r\n\r\n", 5);
	if (!c->no_head_timeout && !c->head_done)
		c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
	return 0;
}

static int
on_client_data(struct conn *c, const struct ipc_msg *m)
{
	if (c->client_eof)
		return conn_violation(c, "CLIENT_DATA after CLIENT_EOF");
	if (c->bc.fd >= 0)
		backend_append(&c->bc, m->u.client_data.data.p, m->u.client_data.data.len);
	return 0;
}

static int
on_client_eof(struct conn *c, const struct ipc_msg *m)
{
	(void)m;
	if (c->client_eof)
		return conn_violation(c, "second CLIENT_EOF");
	c->client_eof = 1;
	if (c->bc.fd >= 0 && c->bc.outoff == c->bc.outlen)
		shutdown(c->bc.fd, SHUT_WR);
	return 0;
}

static void
end_request(struct conn *c)
{
	conn_close_backend(c);
	conn_free_phase_tree(c);
	free(c->json);
	free(c->head);
	free(c->rhead);
	free(c->lf_buf);
	c->json = c->head = c->rhead = c->lf_buf = NULL;
	c->rheadlen = c->lf_len = 0;
	c->lf_on = 0;
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
		return conn_violation(c, "ACCESS method is not a method");
	memcpy(code, m->u.access.code.p, m->u.access.code.len);
	code[m->u.access.code.len] = '\0';
	if (cg_code_status(code) != st)
		return conn_violation(c, "ACCESS code and status disagree");
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
		return conn_violation(c, "more than %d LOG lines", LOG_LINES_MAX);
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
	{ IPC_FACT_QUERY, ST(RS_IDLE), 1, facts_on_query },
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
				return conn_violation(c, "request %u abandoned after "
				    "its questions", c->req);
			c->req = m->req;
			c->nfacts = c->nfact_q = c->npath_q = 0;
		}
		return 0;
	}
	if (d->type == IPC_DONE && m->req == c->req)
		return 0;
	return conn_violation(c, "%s for request %u while at request %u",
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
		return conn_violation(c, "unexpected %s", ipc_type_name(m->type));
	if (!(dispatch[i].states & ST(c->rs)))
		return conn_violation(c, "%s not allowed now", ipc_type_name(m->type));
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
	if (m->type != IPC_CHILD_READY || c->ready)
		return conn_violation(c, "expected CHILD_READY");
	/* the zygote's ZYGOTE_SPAWNED may still be on its way */
	if (c->zpending)
		zygote_on_event(c->gw);
	if (c->zpending) {
		/* not read a client byte yet: its word is good until then */
		c->pid = (pid_t)m->u.child_ready.pid;
	} else if (m->u.child_ready.pid != (uint32_t)c->pid) {
		return conn_violation(c, "expected CHILD_READY");
	}
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
			return conn_violation(c, "%s", ipc_strerror(rc));
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

/* ---------------------------------------------------------------- backend */

/* An internal exchange finished: the stage that started it goes on. */
static void
internal_done(struct conn *c, int ok, int timeout)
{
	if (c->rs == RS_FACT)
		facts_done(c, ok, timeout);
	else if (c->rs == RS_PHASE)
		phase_done(c, ok, timeout);
}

/* The forwarded head (and JSON body) is written: VERDICT forwarding. */
static void
forward_written(struct conn *c)
{
	backend_verdict(c, 0, NULL, 0, NULL);
	if (c->body_kind == IPC_BODY_STREAM_LENGTH ||
	    c->body_kind == IPC_BODY_STREAM_CHUNKED) {
		c->rs = RS_STREAM;
		c->bc.deadline = 0;
	} else {
		c->rs = RS_RESPONSE;
		c->bc.deadline = c->no_head_timeout ? 0 :
		    now_ms() + c->gw->backend_timeout_ms;
	}
}

int
conn_on_backend(struct conn *c, short revents)
{
	char buf[IPC_DATA_MAX];
	ssize_t n;
	int rc;

	if (c->bc.fd < 0)
		return 0;
	if ((revents & (POLLOUT | POLLERR | POLLHUP)) && c->bc.outoff < c->bc.outlen) {
		rc = backend_write(c);
		if (rc < 0) {
			if (c->bc.internal)
				internal_done(c, 0, 0);
			else if (c->rs == RS_SENDING)
				backend_refuse_transport(c, 0);
			else
				relay_backend_eof(c);
			return 0;
		}
		if (rc == 1 && c->rs == RS_SENDING)
			forward_written(c);
		else if (rc == 1 && c->client_eof && c->rs == RS_SWITCHED)
			shutdown(c->bc.fd, SHUT_WR);
	}
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return 0;
	if (c->bc.internal) {
		if (c->bc.outoff < c->bc.outlen)
			return 0;
		rc = backend_read_internal(c);
		if (rc != 0)
			internal_done(c, rc == 1, 0);
		return 0;
	}
	if (!(conn_backend_events(c) & POLLIN))
		return 0;
	n = recv(c->bc.fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		relay_backend_eof(c);
		return 0;
	}
	relay_response(c, buf, (size_t)n);
	return 0;
}

int
conn_on_timer(struct conn *c, long long now)
{
	if (c->bc.fd < 0 || c->bc.deadline == 0 || now < c->bc.deadline)
		return 0;
	if (c->bc.internal)
		internal_done(c, 0, 1);
	else if (c->rs == RS_SENDING)
		backend_refuse_transport(c, 1);
	else if (!c->head_done)
		relay_head_timeout(c, now);
	return 0;
}
