/*
 * The monitor's side of one request-parser child (privsep.md §7-§10): the
 * dispatch table with the states in which each message is legal, the
 * handlers that answer the child, and the events of the connection's
 * three descriptors (the child's socket, the backend, the client), each
 * routed to the stage it belongs to (facts, phase, relay). The monitor
 * never interprets a client byte: it sees typed fields, the canonical
 * target and the re-serialised JSON body, and relays response and
 * stream bytes as they are.
 */
#include "monitor/gateway.h"
#include "monitor/exchange/backend.h"
#include "monitor/exchange/relay.h"
#include "monitor/pins.h"

#include <errno.h>
#include <stdarg.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/budget.h"
#include "monitor/conn.h"
#include "monitor/exchange/answer.h"
#include "monitor/exchange/audit.h"
#include "monitor/exchange/baseimg.h"
#include "monitor/exchange/check.h"
#include "monitor/exchange/createbody.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/facts.h"
#include "monitor/exchange/pathres.h"
#include "monitor/exchange/phase.h"
#include "monitor/exchange/projnet.h"
#include "monitor/exchange/splice.h"
#include "monitor/exchange/verify.h"
#include "monitor/log.h"
#include "policy/headers.h"
#include "policy/json.h"

#define LOG_LINES_MAX	32	/* per request: a child cannot flood the log */

/* ---------------------------------------------------------------- requests */

/*
 * FACT_QUERY (monitor/exchange/facts.c); one about the project network is
 * projnet.c's, which asks its own questions through facts.c.
 */
static int
on_fact_query(struct conn *c, const struct ipc_msg *m)
{
	int rc = facts_on_query(c, m);

	if (rc != FACTS_PROJNET)
		return rc;
	projnet_fact_start(c);
	return 0;
}

static int
on_path_query(struct conn *c, const struct ipc_msg *m)
{
	struct ipc_msg a = { .type = IPC_PATH_ANSWER, .req = c->req };
	char path[CG_PATH_MAX + 1], out[CG_PATH_MAX + 1];
	enum cg_path_verdict v;

	if (++c->npath_q > IPC_PATH_QUERIES_MAX)
		return conn_violation(c, "more than %d PATH_QUERY",
		    IPC_PATH_QUERIES_MAX);
	memcpy(path, m->u.path_query.path.p, m->u.path_query.path.len);
	path[m->u.path_query.path.len] = '\0';
	v = pathres_resolve(c->gw, path, out);
	a.u.path_answer.qid = m->u.path_query.qid;
	a.u.path_answer.verdict = (uint8_t)v;
	a.u.path_answer.resolved = ipc_cstr(v == CG_PATH_ALLOWED ||
	    v == CG_PATH_OUTSIDE ? out : "");
	conn_send(c, &a);
	return 0;
}

/* A refusal for want of memory (monitor/budget.c). */
static void __attribute__((format(printf, 2, 3)))
budget_refuse(struct conn *c, const char *fmt, ...)
{
	char detail[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	c->gw->budget.refused++;
	answer_refuse(c, "too-many-connections", budget_hint(), "%s", detail);
}

/* Verified, body complete: replay, then the named-resource phase. */
static void
start_phase(struct conn *c)
{
	size_t tree;

	/*
	 * The replay and the phase parse the body, one tree at a time; one
	 * that may not fit the budget's parse area is refused here, where
	 * its client still gets an answer (json_parse() would refuse it
	 * too, and the replay take that for a lie of the child).
	 */
	if (c->json != NULL && c->gw->budget.limit != 0 &&
	    (tree = json_tree_bound(c->json,
	    (size_t)c->body_len)) > c->gw->budget.parse) {
		budget_refuse(c, "the body is too dense for the gateway's memory "
		    "budget: its parse may take %zu MiB, and %llu MiB are kept "
		    "for one", tree >> 20,
		    (unsigned long long)(c->gw->budget.parse >> 20));
		return;
	}
	conn_free_phase_tree(c);	/* the previous request's phase */
	if (verify_replay(c) < 0)
		return;
	phase_start(c);
	createbody_drop_tree(c);	/* the replay's, if the phase took none */
}

/* The child moved request body bytes: its deadline starts again. */
static void
body_moved(struct conn *c)
{
	c->body_deadline = now_ms() + c->gw->backend_timeout_ms;
}

/*
 * What c's verified FORWARD takes from the budget's pool before anything
 * is read for it: its forwarded head; a JSON body twice (as received,
 * then queued for the backend with the head); a hijack route's relay
 * buffers and early bytes (STREAM_RESERVE).
 */
static uint64_t
forward_need(const struct conn *c)
{
	return c->head_len + (c->fw.body_kind == FB_JSON ? 2 * c->body_len + 1 :
	    0) + (c->fw.hijack ? STREAM_RESERVE : 0);
}

void
forward_admitted(struct conn *c)
{
	if (c->fw.hijack)
		c->stream_big = 1;	/* forward_need() took it */
	if (c->fw.body_kind == FB_JSON) {
		c->json = xmalloc((size_t)c->body_len + 1);
		c->rs = RS_BODY;
		body_moved(c);
		return;
	}
	c->rs = RS_IDLE;
	start_phase(c);
}

void
forward_refused(struct conn *c)
{
	char detail[256];

	if (c->fw.body_kind == FB_JSON && c->body_got < c->body_len) {
		/* read and dropped: the child sent it after its FORWARD */
		c->brefused = 1;
		c->rs = RS_BODY;
		body_moved(c);
		return;
	}
	c->rs = RS_IDLE;
	budget_detail(c->gw, detail, sizeof(detail));
	budget_refuse(c, "%s", detail);
}

static int
on_forward(struct conn *c, const struct ipc_msg *m)
{
	struct cg_fwd_headers fh;

	c->fwd_pending = 1;
	conn_settle(c, -1);	/* the previous request's, if it had no head */
	if (verify_forward(c, m, &fh) < 0)
		return -1;
	/* the exchange starts afresh: its JSON body, record and end */
	free(c->json);
	c->json = NULL;
	c->body_got = 0;
	c->brefused = 0;
	c->logged = 0;
	c->end_sent = 0;
	c->client_unwatch = 0;
	relay_reset(c);		/* the response (relay.c) */
	splice_reset(c);	/* the upload (splice.c) */
	backend_build_head(c, &fh);
	/* memory first (monitor/budget.c): in line until there is room */
	if (budget_take(c, forward_need(c)) < 0) {
		if (forward_need(c) > c->gw->budget.pool)
			forward_refused(c);	/* it never will fit */
		else
			budget_wait(c, forward_need(c));
	} else {
		forward_admitted(c);
	}
	/* a replay after this routes again (verify_replay) */
	verify_route_free(c);
	return c->dead ? -1 : 0;
}

static int
on_body(struct conn *c, const struct ipc_msg *m)
{
	const struct ipc_str *d = &m->u.body.data;
	int rc;

	if (c->rs == RS_BODY) {
		if (c->body_got + d->len > c->body_len)
			return conn_violation(c, "BODY beyond the declared "
			    "JSON length");
		if (c->json != NULL)
			memcpy(c->json + c->body_got, d->p, d->len);
		c->body_got += d->len;
		body_moved(c);
		if (c->body_got == c->body_len && c->brefused) {
			c->body_deadline = 0;
			forward_refused(c);	/* the body read and dropped */
			return 0;
		}
		if (c->body_got == c->body_len) {
			c->body_deadline = 0;
			c->json[c->body_len] = '\0';
			start_phase(c);
			if (c->dead)
				return -1;
		}
		return 0;
	}
	/* a streamed body's (monitor/exchange/splice.c) */
	rc = splice_on_body(c, d->p, d->len);
	if (rc < 0)
		return -1;
	if (c->body_deadline > 0)
		body_moved(c);
	if (rc == SPLICE_CHECKED)	/* a checked upload's: its checker's */
		return check_on_body(c, d->p, d->len);
	return 0;
}

static int
on_body_end(struct conn *c, const struct ipc_msg *m)
{
	(void)m;
	if (splice_on_body_end(c) < 0)	/* checked, the stream done */
		return -1;
	c->body_deadline = 0;
	if (c->rs == RS_WAIT_DONE)
		return 0;
	if (c->ck.kind != CK_NONE) {
		check_on_body_end(c);	/* the end goes when all is approved */
		return 0;
	}
	if (c->fw.body_kind == FB_CHUNKED && !c->ul.upload_failed && c->bc.fd >= 0)
		splice_last_chunk(c);
	if (c->rs == RS_STREAM)
		c->rs = RS_RESPONSE;
	if (!c->fw.no_head_timeout && !c->rp.head_done)
		c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
	return 0;
}

/* BODY_SPLICED (monitor/exchange/splice.c); a failed write ends the upload. */
static int
on_body_spliced(struct conn *c, const struct ipc_msg *m)
{
	int rc = splice_on_body_spliced(c, m);

	if (rc == SPLICE_CHECKED)	/* a checked upload's: its checker's */
		rc = check_on_spliced(c, m->u.body_spliced.len);
	if (rc >= 0 && c->body_deadline > 0)
		body_moved(c);
	if (rc == 1)
		relay_backend_write_failed(c);
	return rc < 0 ? -1 : 0;
}

/*
 * Early stream bytes of a hijack route (monitor/exchange/splice.c); once
 * they are complete the relay goes on.
 */
static int
on_client_data(struct conn *c, const struct ipc_msg *m)
{
	int rc = splice_on_client_data(c, m);

	if (rc == 1)
		relay_progress(c);
	return rc < 0 ? -1 : 0;
}

/*
 * DONE: the sync point after RESPONSE_END or a refused VERDICT. Before
 * RESPONSE_END (the child gave up on the body: client gone, timeout,
 * invalid chunk) the exchange is abandoned: the backend sees a truncated
 * body and acts on nothing (http.md §5.1).
 */
static int
on_done(struct conn *c, const struct ipc_msg *m)
{
	(void)m;
	splice_child_done(c);
	c->body_deadline = 0;
	if (c->rs == RS_STREAM)
		conn_abandon_exchange(c, "the request body did not complete");
	conn_end_request(c);
	return 0;
}

/*
 * Is path[0..n) what an honest request parser reports in an ACCESS: "-"
 * (no request line to take it from) or the path of a target its HTTP parser
 * accepted (http/request.c: '/' then bytes 0x21-0x7e but '#' and '\\', cut
 * at '?')? Anything else is a lie, and could paint rows into a report that
 * prints it (red-team rt10 F4).
 */
static int
access_path_ok(const char *path, size_t n)
{
	size_t i;

	if (n == 1 && path[0] == '-')
		return 1;
	if (n == 0 || path[0] != '/')
		return 0;
	for (i = 1; i < n; i++)
		if ((unsigned char)path[i] < 0x21 ||
		    (unsigned char)path[i] > 0x7e ||
		    strchr("#\\?", path[i]) != NULL)
			return 0;
	return 1;
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
	if (!access_path_ok(m->u.access.path.p, m->u.access.path.len))
		return conn_violation(c, "ACCESS path is not a request path");
	memcpy(code, m->u.access.code.p, m->u.access.code.len);
	code[m->u.access.code.len] = '\0';
	/*
	 * No code and status 0: a request the child began to read and gave
	 * up (the client left or stalled; unpriv/child.c abandon()), logged
	 * like the monitor's own abandoned exchanges (cli.md §14.3: one access
	 * line per request).
	 */
	if (!(code[0] == '\0' && st == 0) && cg_code_status(code) != st)
		return conn_violation(c, "ACCESS code and status disagree");
	path = xstrndup(m->u.access.path.p, m->u.access.path.len);
	detail = xstrndup(m->u.access.detail.p, m->u.access.detail.len);
	audit_child_access(c, method, path, code[0] != '\0' ? code : NULL, st,
	    m->u.access.duration_ms, detail);
	free(path);
	free(detail);
	conn_end_request(c);
	c->closing = 1;		/* a gateway error closes (http.md §5.4) */
	return 0;
}

/* The child began a request and awaits the rest of it (cli.md §14.3). */
static int
on_begin(struct conn *c, const struct ipc_msg *m)
{
	(void)m;
	if (c->begun)
		return conn_violation(c, "REQUEST_BEGIN twice for request %u",
		    c->req);
	c->begun = 1;
	return 0;
}

/*
 * A request parser's own line: DEBUG whatever level it asks, under its
 * own event and source, escaped, cut and rate-limited (audit.c): it can
 * never pass for one of the monitor's lines (doc/audit.md).
 */
static int
on_log(struct conn *c, const struct ipc_msg *m)
{
	if (++c->nlogs > LOG_LINES_MAX)
		return conn_violation(c, "more than %d LOG lines", LOG_LINES_MAX);
	audit_child_log(c, m->u.log.text.p, m->u.log.text.len);
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
#define ST_ALL		(ST(RS_IDLE) | ST(RS_FACT) | ST(RS_BODY) | ST(RS_PHASE) | ST(RS_BUDGET) | \
    ST(RS_SENDING) | ST(RS_STREAM) | ST(RS_RESPONSE) | ST(RS_SWITCHED) | \
    ST(RS_WAIT_DONE))

static const struct dispatch {
	uint16_t type;
	unsigned states;
	int new_request;	/* may open request c->req + 1 */
	int (*handler)(struct conn *, const struct ipc_msg *);
} dispatch[] = {
	{ IPC_LOG, ST_ALL, 0, on_log },
	/* a child may end whenever its client goes; it reports why */
	{ IPC_BYE, ST_ALL, 0, on_bye },
	{ IPC_REQUEST_BEGIN, ST(RS_IDLE), 1, on_begin },
	{ IPC_ACCESS, ST(RS_IDLE), 1, on_access },
	{ IPC_FACT_QUERY, ST(RS_IDLE), 1, on_fact_query },
	{ IPC_PATH_QUERY, ST(RS_IDLE), 1, on_path_query },
	{ IPC_FORWARD, ST(RS_IDLE), 1, on_forward },
	/* RS_WAIT_DONE: a streamed body that crossed RESPONSE_END */
	{ IPC_BODY, ST(RS_BODY) | ST(RS_STREAM) | ST(RS_WAIT_DONE), 0, on_body },
	{ IPC_BODY_END, ST(RS_STREAM) | ST(RS_WAIT_DONE), 0, on_body_end },
	{ IPC_BODY_SPLICED, ST(RS_STREAM) | ST(RS_WAIT_DONE), 0,
	    on_body_spliced },
	/* sent right after FORWARD: read once the head is out */
	{ IPC_CLIENT_DATA, ST(RS_RESPONSE) | ST(RS_SWITCHED) | ST(RS_WAIT_DONE),
	    0, on_client_data },
	{ IPC_DONE, ST(RS_STREAM) | ST(RS_WAIT_DONE), 0, on_done },
};

/* Per-request bookkeeping shared by every request-level message. */
static int
check_req(struct conn *c, const struct dispatch *d, const struct ipc_msg *m)
{
	if (d->type == IPC_LOG || d->type == IPC_BYE)
		return 0;
	if (m->req == c->req && c->rs != RS_IDLE)
		return 0;
	if (d->new_request && c->rs == RS_IDLE && (m->req == c->req + 1 ||
	    (m->req == c->req && (c->fq.nfact_q + c->npath_q > 0 || c->begun)))) {
		if (m->req == c->req && c->begun && c->fq.nfact_q + c->npath_q == 0)
			c->req_ms = now_ms();	/* its first message after the
						   announcement: the head's end */
		if (m->req == c->req + 1) {
			/* a request that asked questions ends with ACCESS or FORWARD */
			if (c->fq.nfact_q + c->npath_q > 0 || c->begun)
				return conn_violation(c, "request %u abandoned "
				    "after its %s", c->req, c->begun ?
				    "REQUEST_BEGIN" : "questions");
			if (c->closing)
				return conn_violation(c, "request %u after the "
				    "connection's end", m->req);
			c->req = m->req;
			c->req_ms = now_ms();
			facts_reset(c);
			c->npath_q = 0;
			c->logged = 0;
		}
		return 0;
	}
	return conn_violation(c, "%s for request %u while at request %u",
	    ipc_type_name(m->type), m->req, c->req);
}

/*
 * A light exchange kept alive ends without RESPONSE_END: a DONE for it
 * asks for it (its child would write to the client itself, or leave),
 * once. Messages of the next request that crossed the end of a
 * light exchange the monitor closed or refused (the child was reading its
 * client meanwhile) are dropped until that DONE.
 */
static int
light_end(struct conn *c, const struct ipc_msg *m)
{
	struct ipc_msg e = { .type = IPC_RESPONSE_END, .req = m->req };

	if (m->type == IPC_DONE && c->light_req != 0 && m->req == c->light_req) {
		c->light_req = 0;
		e.u.response_end.mode = IPC_END_KEEP_ALIVE;
		conn_send(c, &e);
		return 1;
	}
	if (c->rs == RS_WAIT_DONE && !c->fw.synced && c->closing &&
	    m->req == c->req + 1 && m->type != IPC_LOG && m->type != IPC_BYE) {
		log_msg(LOG_DEBUG, "ipc", "connection %llu: %s of request %u "
		    "after the end of request %u: dropped",
		    (unsigned long long)c->id, ipc_type_name(m->type), m->req,
		    c->req);
		return 1;
	}
	return 0;
}

static int
dispatch_msg(struct conn *c, const struct ipc_msg *m)
{
	size_t i;

	if (light_end(c, m))
		return 0;
	for (i = 0; i < sizeof(dispatch) / sizeof(dispatch[0]); i++)
		if (dispatch[i].type == m->type)
			break;
	if (i == sizeof(dispatch) / sizeof(dispatch[0]))
		return conn_violation(c, "unexpected %s", ipc_type_name(m->type));
	if (!(dispatch[i].states & ST(c->rs)))
		return conn_violation(c, "%s not allowed now",
		    ipc_type_name(m->type));
	if (check_req(c, &dispatch[i], m) < 0)
		return -1;
	return dispatch[i].handler(c, m);
}

/*
 * Messages before CONN_START: SANDBOX_FAILED, or CHILD_READY from the
 * self-test's child only (want_ready: the others are ready when the
 * zygote reports them).
 */
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
	if (m->type != IPC_CHILD_READY || !c->want_ready || c->ready)
		return conn_violation(c, "unexpected %s", ipc_type_name(m->type));
	/*
	 * The event loop read the zygote's ZYGOTE_SPAWNED, if it was there,
	 * before c's messages (serve.c sandbox_selftest): still pending, the
	 * child's own pid stands until the zygote names it.
	 */
	if (c->zpending) {
		/* not read a client byte yet: its word is good until then */
		c->pid = (pid_t)m->u.child_ready.pid;
	} else if (m->u.child_ready.pid != (uint32_t)c->pid) {
		return conn_violation(c, "expected CHILD_READY");
	}
	c->ready = 1;

	if (!c->gw->sandbox_logged) {	/* once: every child is alike */
		c->gw->sandbox_logged = 1;
		c->gw->sandbox_ns = m->u.child_ready.namespaces;
		c->gw->sandbox_chroot = m->u.child_ready.chroot;
		log_sandbox(m->u.child_ready.namespaces, m->u.child_ready.chroot);
	}
	return 0;
}

/* A light exchange's response is going out (no VERDICT, no DONE owed). */
static int
light_going(const struct conn *c)
{
	return c->rs == RS_RESPONSE && !c->fw.synced;
}

/*
 * 1 while the monitor reads its child: not while it works for it (one
 * question at a time), not while messages for it wait in its queue (a
 * child that asks without reading the answers would make the queue grow
 * without bound: tests/hostile row unread-answers; an honest child reads every
 * answer before it asks again) and not while a streamed body waits for the
 * backend (backpressure). A child that has exited is read to the end: its last
 * messages (ACCESS) still count (cli.md §14.3).
 */
static int
reads_child(const struct conn *c)
{
	if (c->pid < 0)
		return 1;
	if (c->rs == RS_FACT || c->rs == RS_PHASE || c->rs == RS_SENDING ||
	    c->rs == RS_BUDGET || !ipc_queue_empty(&c->outq))
		return 0;
	/*
	 * More announcements may come while announced bytes go out (they
	 * make the next batch); any other message waits in c->stash for
	 * them, and reading stops until it is handled.
	 */
	if (c->stash != NULL)
		return 0;
	/* a light response going out: the child waits for nothing */
	if (c->ipc_paused && light_going(c))
		return 0;
	if (c->rs == RS_STREAM && c->ck.kind != CK_NONE)
		return check_reads_child(c);
	return c->rs != RS_STREAM || c->bc.out.len < (c->stream_big ?
	    RELAY_UP_MAX : RELAY_FLOOR);
}

/*
 * Announced body pipe bytes of an unchecked upload not yet moved to the
 * backend (splice.c; a checked upload keeps its order itself: check.c
 * stops reading its child while bytes wait to be fed).
 */
static int
pipe_pending(const struct conn *c)
{
	return c->ck.kind == CK_NONE && c->ul.up_given &&
	    (c->ul.up.len > 0 || c->ul.up_next > 0);
}

/* Audit and dispatch m; 0, or -1 when c must be dropped. */
static int
handle_msg(struct conn *c, const struct ipc_msg *m)
{
	int rc;

	ipc_audit(c, "to-monitor", m);
	c->rec.msg = m;		/* what a violation tried (audit.c) */
	rc = dispatch_msg(c, m);
	c->rec.msg = NULL;
	return rc;
}

/*
 * The message kept while announced bytes were still in the body pipe,
 * handled once they are out (or the pipe was closed). Returns 0, or -1
 * when c must be dropped.
 */
static int
run_stash(struct conn *c)
{
	struct ipc_msg m;
	int rc;

	if (c->stash == NULL || pipe_pending(c))
		return 0;
	rc = ipc_decode(c->stash, c->stash_len, &m);
	rc = rc == IPC_OK ? handle_msg(c, &m) : conn_violation(c, "%s",
	    ipc_strerror(rc));
	free(c->stash);
	c->stash = NULL;
	c->stash_len = 0;
	return rc;
}

int
conn_on_ipc(struct conn *c)
{
	static unsigned char *buf;
	struct ipc_msg m;
	uint32_t len;
	int rc, i;

	if (buf == NULL)
		buf = xmalloc(IPC_MSG_MAX + 1);
	for (i = 0; i < 16 && !c->dead && c->stash == NULL; i++) {
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
		/*
		 * Behind announced pipe bytes: kept (a copy of the datagram,
		 * at most a BODY's size: no message legal here is larger)
		 * until they are out.
		 */
		memcpy(&len, buf + 12, sizeof(len));
		if (pipe_pending(c) && m.type != IPC_BODY_SPLICED &&
		    len <= IPC_DATA_MAX + 64) {
			c->stash_len = IPC_HDR_LEN + (size_t)len;
			c->stash = xmalloc(c->stash_len);
			memcpy(c->stash, buf, c->stash_len);
			return 0;
		}
		if (handle_msg(c, &m) < 0)
			return -1;
		/*
		 * A light exchange's response is going out: what the child
		 * sends now (its next request, read from a client that did not
		 * wait) waits until it is over (conn_on_poll).
		 */
		if (!reads_child(c) || light_going(c))
			return 0;
	}
	return 0;
}

/* ---------------------------------------------------------------- events */

/* An internal exchange finished: the stage that started it goes on. */
static void
internal_done(struct conn *c, int ok, int timeout)
{
	if (c->rs == RS_FACT && c->fq.q_kind == CG_FACT_PROJNET)
		projnet_fact_done(c, ok, timeout);
	else if (c->rs == RS_FACT)
		facts_done(c, ok, timeout);
	else if (c->rs == RS_PHASE)
		phase_done(c, ok, timeout);
	else if (c->ck.img_step != IMG_NONE)
		baseimg_done(c, ok, timeout);
}

/* The forwarded head (and JSON body) is written: VERDICT forwarding. */
static void
forward_written(struct conn *c)
{
	audit_forwarded(c);
	backend_verdict(c, NULL);
	if (!c->ul.stream_done) {
		c->rs = RS_STREAM;
		c->bc.deadline = 0;
		body_moved(c);		/* the upload's deadline (privsep.md) */
		check_begin(c);
		splice_offer_body_pipe(c);
	} else {
		c->rs = RS_RESPONSE;
		c->bc.deadline = c->fw.no_head_timeout ? 0 :
		    now_ms() + c->gw->backend_timeout_ms;
	}
}

#define BACKEND_READS	8	/* backend reads per wake-up, at most */

static void
on_backend(struct conn *c, short revents)
{
	int rc, i, more;

	if (c->bc.fd < 0)
		return;
	if (c->ck.img_step == IMG_EXPORT) {
		baseimg_on_backend(c, revents);
		return;
	}
	if ((revents & (POLLOUT | POLLERR | POLLHUP)) && c->bc.out.len > 0) {
		rc = backend_write(c);
		if (rc < 0 && (c->bc.internal || c->rs == RS_SENDING) &&
		    backend_retry(c) == 0)
			return;		/* a stale pooled connection */
		if (rc < 0) {
			if (c->bc.internal)
				internal_done(c, 0, 0);
			else if (c->rs == RS_SENDING)
				backend_refuse_transport(c, 0);
			else
				relay_backend_write_failed(c);
			return;
		}
		if (rc == 1 && c->rs == RS_SENDING)
			forward_written(c);
		relay_progress(c);
	}
	if ((revents & (POLLOUT | POLLERR | POLLHUP)) && c->bc.fd >= 0 &&
	    c->bc.out.len == 0 && (c->ul.up.len > 0 || c->ul.up_next > 0)) {
		rc = c->ul.up_given ? splice_upload(c) : splice_to_backend(c);
		if (rc == -2)
			return;
		if (rc == -1)
			relay_backend_write_failed(c);
		else if (c->ck.kind != CK_NONE)
			check_pump(c);	/* room in the hold pipe, more approved */
		else if (c->rp.framing == FR_SWITCHED)
			relay_progress(c);	/* a client's end waited for this */
	}
	if (c->bc.fd < 0 || !(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	if (c->bc.internal) {
		if (c->bc.out.len > 0)
			return;
		rc = backend_read_internal(c);
		if (rc != 0 && c->bc.inlen == 0 && backend_retry(c) == 0)
			return;		/* a stale pooled connection */
		if (rc != 0)
			internal_done(c, rc == 1, 0);
		return;
	}
	/*
	 * While the backend has more, read on (a few times) instead of
	 * returning to epoll for each piece (a chunked answer comes in 32 KiB
	 * chunks, each a peek and a splice), then write it to the client at
	 * once: one wake-up of the client per batch, not per chunk. A splice
	 * that got less than it asked for emptied the socket: no read that
	 * would find nothing.
	 */
	more = -1;
	for (i = 0; i < BACKEND_READS && relay_backend_wants_read(c); i++) {
		more = relay_from_backend(c);
		if (more != 1 || c->rp.down.len > 0)
			break;
	}
	if (more >= 0)		/* read at least once */
		relay_progress(c);
}

/* poll() events on c's backend connection; 0 when none. */
static short
backend_events(const struct conn *c)
{
	short ev = 0;

	if (c->bc.fd < 0)
		return 0;
	if (c->ck.img_step == IMG_EXPORT)
		return baseimg_events(c);
	if (c->bc.out.len > 0 || c->ul.up.len > 0 || c->ul.up_next > 0)
		ev |= POLLOUT;
	if (c->bc.internal)
		return c->bc.out.len == 0 ? POLLIN : ev;
	if (relay_backend_wants_read(c))
		ev |= POLLIN;
	return ev;
}

int
conn_pollfds(struct conn *c, struct pollfd pfd[CONN_POLLFDS])
{
	short ev = 0;
	int n = 0;

	if (reads_child(c))
		ev |= POLLIN;
	if (!ipc_queue_empty(&c->outq))
		ev |= POLLOUT;
	/* always there: POLLHUP says the child is gone */
	pfd[n++] = (struct pollfd){ .fd = c->ipc, .events = ev };
	/*
	 * Only descriptors with something to wait for: a hung-up backend the
	 * monitor does not read any more would otherwise report POLLHUP
	 * (which cannot be masked) in a busy loop.
	 */
	if ((ev = backend_events(c)) != 0)
		pfd[n++] = (struct pollfd){ .fd = c->bc.fd, .events = ev };
	/* while the monitor answers: even with no events, for POLLHUP */
	if ((ev = relay_client_events(c)) >= 0)
		pfd[n++] = (struct pollfd){ .fd = c->client, .events = ev };
	if ((c->ck.state == CK_RUNNING || c->ck.state == CK_IMAGES) &&
	    c->ck.ipc >= 0)
		pfd[n++] = (struct pollfd){ .fd = c->ck.ipc, .events = POLLIN };
	return n;
}

void
conn_on_poll(struct conn *c, const struct pollfd *pfd, int n)
{
	int i;

	for (i = 0; i < n && !c->dead; i++) {
		if (pfd[i].revents == 0)
			continue;
		if (pfd[i].fd == c->ipc) {
			if ((pfd[i].revents & POLLOUT) && conn_flush(c) < 0)
				c->dead = 1;
			/*
			 * The child writes during a light response: read once
			 * it is over (conn_end_exchange), unless it is gone.
			 */
			if ((pfd[i].revents & POLLIN) && !(pfd[i].revents &
			    (POLLHUP | POLLERR)) && light_going(c) &&
			    c->started) {
				c->ipc_paused = 1;
				continue;
			}
			if ((pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    !c->dead && conn_on_ipc(c) < 0)
				c->dead = 1;
		} else if (pfd[i].fd == c->bc.fd) {
			on_backend(c, pfd[i].revents);
		} else if (pfd[i].fd == c->ck.ipc) {
			check_on_ipc(c);
		} else if (pfd[i].fd == c->client) {
			/* a hang-up between exchanges is the child's to see */
			if (relay_client_events(c) < 0)
				c->client_unwatch = 1;
			else
				relay_on_client(c, pfd[i].revents);
		}
	}
	/* a message kept behind announced pipe bytes that are out now */
	if (!c->dead && c->stash != NULL && run_stash(c) < 0)
		c->dead = 1;
	/*
	 * A request just queued for the backend (a forward, an inspect) is
	 * written now rather than after another turn of the loop: a unix
	 * socket takes it at once, and the backend's descriptor is then
	 * registered for its answer only (doc/privsep.md "Scaling": fewer
	 * epoll_ctl calls and wake-ups per request). EAGAIN leaves it queued
	 * for POLLOUT.
	 */
	if (!c->dead && c->bc.fd >= 0 && (c->bc.out.len > 0 || c->ul.up.len > 0) &&
	    !(c->bc.fd == c->wfd[EV_CONN_BACKEND - EV_CONN_IPC]))
		on_backend(c, POLLOUT);
}

long long
conn_on_body_timer(struct conn *c, long long now)
{
	char why[128];
	pid_t pid = c->pid;

	if ((c->rs != RS_BODY && c->rs != RS_STREAM) ||
	    (c->rs == RS_STREAM && c->ul.stream_done) ||
	    (c->rs == RS_BODY && c->body_got == c->body_len)) {
		c->body_deadline = 0;
		return 0;
	}
	if (now < c->body_deadline)
		return c->body_deadline;
	/* the monitor holds the body back itself: the child is not late */
	if (!reads_child(c) || c->bc.out.len > 0 || c->ul.up.len > 0) {
		body_moved(c);
		return c->body_deadline;
	}
	snprintf(why, sizeof(why), "the request parser moved no request body "
	    "bytes for %u ms", c->gw->backend_timeout_ms);
	log_msg(LOG_WARNING, "child-exit", "request parser for connection %llu "
	    "(pid %d): %s; it is ended", (unsigned long long)c->id, (int)pid, why);
	c->body_deadline = 0;
	conn_abandon(c, why);
	if (pid > 0)
		kill(pid, SIGKILL);
	c->dead = 1;
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
	else if (!c->rp.head_done)
		relay_head_timeout(c);
	return 0;
}
