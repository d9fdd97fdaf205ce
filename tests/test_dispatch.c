/*
 * The monitor's IPC state machine (privsep.md §6-§10, style.md §16
 * "state-machine matrix", monitor/exchange/dispatch.c and the stages below it).
 * The world (a dummy child, a client socket, an in-process fake backend)
 * is tests/monitor_fixture.h; the response relay has its own program,
 * tests/test_relay.c.
 *
 * Covered: every message type in every request state (handled, or the
 * child killed), request numbering, FACT_QUERY checks and the 64-question
 * limit, BODY framing limits, FORWARD verification (canonical target,
 * route tables, owned ids, the header list as a fixpoint of the policy's
 * header rules), the policy replay, crafted datagrams, descriptors
 * attached to a message, the start-up messages and end-of-file; the bypass
 * row of policy.md §14 decided by the monitor's phase (B34 named
 * networks; tests/BYPASSES.md).
 */
#include "monitor/budget.h"
#include "monitor/conn.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/projnet.h"
#include "monitor/exchange/relay.h"
#include "monitor/log.h"
#include "policy/json.h"
#include "tests/monitor_fixture.h"

/* Request bodies of the tests, by the framing the FORWARD declares. */
enum { FWD_NONE, FWD_JSON, FWD_LENGTH, FWD_CHUNKED };

/*
 * A FORWARD whose header list is the policy's framing for a body of kind
 * (one of FWD_*) and len bytes: Content-Type and Content-Length for
 * JSON, Content-Length or Transfer-Encoding for streams, Content-Length: 0
 * for a POST or PUT without a body (policy/headers.h).
 */
static struct ipc_msg
m_forward(uint32_t req, const char *method, const char *target, int kind,
    uint64_t len)
{
	static char num[4][24];
	static int i;
	int post_put = strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0;

	i = (i + 1) % 4;
	snprintf(num[i], sizeof(num[i]), "%llu", (unsigned long long)len);
	switch (kind) {
	case FWD_JSON:
		if (len > 0)
			return m_fwd(req, method, target, "Content-Type",
			    "application/json", "Content-Length", num[i], NULL);
		break;
	case FWD_LENGTH:
		return m_fwd(req, method, target, "Content-Length", num[i], NULL);
	case FWD_CHUNKED:
		return m_fwd(req, method, target, "Transfer-Encoding", "chunked",
		    NULL);
	}
	return post_put ? m_fwd(req, method, target, "Content-Length", "0",
	    NULL) : m_fwd(req, method, target, NULL);
}

/* ---------------------------------------------------------------- states */

enum st {
	S_IDLE, S_FACT, S_BODY, S_PHASE, S_SENDING, S_STREAM, S_RESPONSE,
	S_SWITCHED, S_WAIT, S_WAIT_STREAM, S_N
};

static const char *const st_names[S_N] = {
	"idle", "fact", "body", "phase", "sending", "stream", "response",
	"switched", "wait-done", "wait-done(stream)",
};

/* Bring a fresh t into state s (request 1 unless idle). */
static void
to_state(struct t *t, enum st s)
{
	struct ipc_msg m;
	static const char vol[] = VOL_BODY("v1");

	t_open(t, s == S_WAIT ? sock_missing : sock_up);
	switch (s) {
	case S_IDLE:
		break;
	case S_FACT:		/* an inspect the backend does not answer */
		fb_queue(NULL, 0);
		m = m_fact(1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1.41", "c1");
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_FACT);
		break;
	case S_BODY:		/* JSON body announced, 1 of 20 bytes sent */
		m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, 20);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_BODY);
		break;
	case S_PHASE:		/* volume create name check, not answered */
		fb_queue(NULL, 0);
		m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, strlen(vol));
		assert_int_equal(t_send_run(t, &m), 0);
		m = m_data(IPC_BODY, 1, vol, strlen(vol));
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_PHASE);
		break;
	case S_SENDING:		/* connected, head not written yet */
		m = m_forward(1, "GET", "/v1.41/info", FWD_NONE, 0);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_SENDING);
		break;
	case S_STREAM:		/* streamed request body after VERDICT */
	case S_WAIT_STREAM:	/* ... and the response already complete */
		fb_queue(s == S_WAIT_STREAM ? http_resp(200, "{}") : NULL, 0);
		m = m_forward(1, "POST", IMPORT, FWD_CHUNKED, 0);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_true(drive_until(t->c, RS_STREAM));
		if (s == S_WAIT_STREAM) {
			/* the response waits for the body's first bytes */
			m = m_data(IPC_BODY, 1, "ab", 2);
			assert_int_equal(t_send_run(t, &m), 0);
			assert_true(drive_until(t->c, RS_WAIT_DONE));
		}
		break;
	case S_RESPONSE:	/* head written, no response yet */
		fb_queue(NULL, 0);
		m = m_forward(1, "GET", "/v1.41/info", FWD_NONE, 0);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_true(drive_until(t->c, RS_RESPONSE));
		break;
	case S_SWITCHED:	/* attach after an owned answer and a 101 */
		ask(t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
		    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
		fb_queue("HTTP/1.1 101 UPGRADED\r\nContent-Type: application/"
		    "vnd.docker.raw-stream\r\nConnection: Upgrade\r\nUpgrade: "
		    "tcp\r\n\r\n", 0);
		/* the early bytes are not ended yet: CLIENT_DATA may come */
		m = m_fwd(1, "POST", "/v1.41/containers/c1id/attach?stream=1"
		    "&stdout=1", "Content-Length", "0", "Connection", "Upgrade",
		    "Upgrade", "tcp", NULL);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_true(drive_until(t->c, RS_SWITCHED));
		break;
	case S_WAIT:		/* refused by the monitor: backend missing */
		m = m_forward(1, "GET", "/v1.41/info", FWD_NONE, 0);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_WAIT_DONE);
		break;
	case S_N:
		fail();
	}
	t_drain(t);
	log_reset();
}

/* ---------------------------------------------------------------- matrix */

enum mt {
	M_LOG, M_BYE, M_ACCESS, M_FACT_QUERY, M_PATH_QUERY, M_FORWARD, M_BODY,
	M_BODY_END, M_CLIENT_DATA, M_DONE, M_CHILD_READY,
	M_SANDBOX_FAILED, M_CONN_START, M_FACT_ANSWER, M_PATH_ANSWER,
	M_VERDICT, M_RESPONSE_END, M_N
};

/*
 * Expected outcome per state, in enum st order: H handled, V violation
 * (child killed), B normal exit (BYE).
 * idle fact body phase sending stream response switched wait wait(stream)
 */
static const struct {
	const char *name;
	const char *want;
} matrix[M_N] = {
	[M_LOG] =		{ "LOG",		"HHHHHHHHHH" },
	[M_BYE] =		{ "BYE",		"BBBBBBBBBB" },
	[M_ACCESS] =		{ "ACCESS",		"HVVVVVVVVV" },
	[M_FACT_QUERY] =	{ "FACT_QUERY",		"HVVVVVVVVV" },
	[M_PATH_QUERY] =	{ "PATH_QUERY",		"HVVVVVVVVV" },
	[M_FORWARD] =		{ "FORWARD",		"HVVVVVVVVV" },
	/* wait(stream): a streamed body that crossed RESPONSE_END */
	[M_BODY] =		{ "BODY",		"VVHVVHVVVH" },
	[M_BODY_END] =		{ "BODY_END",		"VVVVVHVVVH" },
	/* early stream bytes: hijack routes only (switched is an attach) */
	[M_CLIENT_DATA] =	{ "CLIENT_DATA",	"VVVVVVVHVV" },
	/* stream: the child gave up on the body */
	[M_DONE] =		{ "DONE",		"VVVVVHVVHH" },
	[M_CHILD_READY] =	{ "CHILD_READY",	"VVVVVVVVVV" },
	[M_SANDBOX_FAILED] =	{ "SANDBOX_FAILED",	"VVVVVVVVVV" },
	[M_CONN_START] =	{ "CONN_START",		"VVVVVVVVVV" },
	[M_FACT_ANSWER] =	{ "FACT_ANSWER",	"VVVVVVVVVV" },
	[M_PATH_ANSWER] =	{ "PATH_ANSWER",	"VVVVVVVVVV" },
	[M_VERDICT] =		{ "VERDICT",		"VVVVVVVVVV" },
	[M_RESPONSE_END] =	{ "RESPONSE_END",	"VVVVVVVVVV" },
};

/* Send one valid message of type mt for the current request of t. */
static void
send_matrix_msg(struct t *t, enum mt mt)
{
	uint32_t req = t->c->rs == RS_IDLE ? t->c->req + 1 : t->c->req;
	unsigned char buf[IPC_MSG_MAX];
	struct ipc_msg m = { .fd = -1, .req = req };
	int len;

	switch (mt) {
	case M_LOG:
		m = m_simple(IPC_LOG, 0);
		m.u.log.level = IPC_LOG_INFO;
		m.u.log.text = S("hello from the child");
		break;
	case M_BYE:
		m = m_simple(IPC_BYE, 0);
		m.u.bye.reason = IPC_BYE_CLIENT_CLOSED;
		break;
	case M_ACCESS:
		m = m_access(req, "denied-endpoint", 403);
		break;
	case M_FACT_QUERY:	/* the backend is missing or never answers */
		m = m_fact(req, 7, CG_FACT_VOLUME, IPC_API_COMPAT, "", "v9");
		break;
	case M_PATH_QUERY:
		m = m_path(req, 7, datadir);
		break;
	case M_FORWARD:
		m = m_forward(req, "GET", "/_ping", FWD_NONE, 0);
		break;
	case M_BODY:
		m = m_data(IPC_BODY, req, "x", 1);
		break;
	case M_BODY_END:
		m = m_simple(IPC_BODY_END, req);
		break;
	case M_CLIENT_DATA:
		m = m_data(IPC_CLIENT_DATA, req, "x", 1);
		break;
	case M_DONE:
		m = m_simple(IPC_DONE, req);
		break;
	case M_CHILD_READY:
		m = m_simple(IPC_CHILD_READY, 0);
		m.u.child_ready.pid = (uint32_t)t->pid;
		break;
	case M_SANDBOX_FAILED:
		m = m_simple(IPC_SANDBOX_FAILED, 0);
		m.u.sandbox_failed.step = S("seccomp");
		m.u.sandbox_failed.err = EPERM;
		break;
	case M_CONN_START:	/* no descriptor: encode and send raw */
		m = m_simple(IPC_CONN_START, 0);
		m.u.conn_start.conn = 1;
		m.u.conn_start.root = S(ROOT);
		len = ipc_encode(&m, buf, sizeof(buf));
		assert_true(len > 0);
		assert_int_equal(send(t->ch, buf, (size_t)len, 0), len);
		return;
	case M_FACT_ANSWER:
		m = m_simple(IPC_FACT_ANSWER, req);
		m.u.fact_answer.result = IPC_FACT_OWNED;
		m.u.fact_answer.id = S("c1");
		break;
	case M_PATH_ANSWER:
		m = m_simple(IPC_PATH_ANSWER, req);
		m.u.path_answer.verdict = IPC_PATH_ALLOWED;
		m.u.path_answer.resolved = S("/");
		break;
	case M_VERDICT:
		m = m_simple(IPC_VERDICT, req);
		m.u.verdict.outcome = IPC_OUTCOME_FORWARDING;
		break;
	case M_RESPONSE_END:
		m = m_simple(IPC_RESPONSE_END, req);
		m.u.response_end.mode = IPC_END_CLOSE;
		break;
	case M_N:
		fail();
	}
	t_send(t, &m);
}

static void
test_matrix(void **state)
{
	struct t t;
	int s, mt, rc, bad = 0;
	char want;

	(void)state;
	for (mt = 0; mt < M_N; mt++) {
		for (s = 0; s < S_N; s++) {
			to_state(&t, (enum st)s);
			send_matrix_msg(&t, (enum mt)mt);
			rc = conn_on_ipc(t.c);
			want = matrix[mt].want[s];
			if ((want == 'H' && rc != 0) || (want != 'H' && rc != -1) ||
			    (want == 'B' && !t.c->dead)) {
				print_error("%s in state %s: conn_on_ipc %d, want %c\n"
				    "%s\n", matrix[mt].name, st_names[s], rc, want,
				    log_text());
				bad++;
			}
			/* the dummy's fate must match too (t_close asserts) */
			if (rc == -1 && !t.c->dead)
				t_close(&t, KILLED);
			else
				t_close(&t, rc == -1 ? BYE_EXIT : HANDLED);
		}
	}
	assert_int_equal(bad, 0);
}

/* ---------------------------------------------------------------- requests */

static void
test_req_numbers(void **state)
{
	struct t t;
	struct ipc_msg m;
	int i;

	(void)state;
	/* the first request is 1: 2 and 0 are refused */
	t_open(&t, sock_missing);
	m = m_forward(2, "GET", "/_ping", FWD_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("FORWARD for request 2 while at request 0");

	t_open(&t, sock_missing);
	m = m_forward(1, "GET", "/_ping", FWD_NONE, 0);
	t_expect(&t, t_send_req_run(&t, &m, 0), KILLED, __LINE__);

	/* a request number is not reused after DONE */
	t_open(&t, sock_missing);
	m = m_forward(1, "GET", "/_ping", FWD_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.req, 1);
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_IDLE);
	m = m_forward(1, "GET", "/_ping", FWD_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* questions then FORWARD in the same request; then request 2 */
	t_open(&t, sock_missing);
	m = m_path(1, 1, datadir);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_path(1, 2, "/etc");
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_forward(1, "GET", "/_ping", FWD_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_PATH_ANSWER, &m);
	assert_int_equal(m.req, 1);
	assert_int_equal(m.u.path_answer.qid, 1);
	assert_int_equal(m.u.path_answer.verdict, IPC_PATH_ALLOWED);
	assert_true(str_is(&m.u.path_answer.resolved, datadir));
	t_expect_msg(&t, IPC_PATH_ANSWER, &m);
	assert_int_equal(m.u.path_answer.qid, 2);
	assert_int_equal(m.u.path_answer.verdict, IPC_PATH_OUTSIDE);
	t_expect_msg(&t, IPC_VERDICT, &m);
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	/* DONE for a request already done */
	m = m_simple(IPC_DONE, 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* a request that asked questions cannot be dropped for the next one */
	t_open(&t, sock_missing);
	m = m_path(1, 1, datadir);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_PATH_ANSWER, &m);
	m = m_path(2, 1, datadir);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("request 1 abandoned after its questions");

	/* ACCESS: code and status agree; a refusal ends the connection */
	t_open(&t, sock_missing);
	m = m_access(1, "denied-endpoint", 403);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_log("decision=deny code=denied-endpoint status=403");
	m = m_access(2, "malformed", 400);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("request 2 after the connection's end");
	t_open(&t, sock_missing);
	m = m_access(1, "denied-endpoint", 400);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("ACCESS code and status disagree");

	/* the method is logged unquoted: a forged log line is a violation */
	t_open(&t, sock_missing);
	m = m_access(1, "denied-endpoint", 403);
	m.u.access.method = S("GET\nINFO forged");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("ACCESS method is not a method");

	t_open(&t, sock_missing);
	m = m_access(1, "no-such-code", 403);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* BODY for the next request while a body is being received */
	to_state(&t, S_BODY);
	m = m_data(IPC_BODY, 2, "x", 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* DONE for an older request while one is running */
	to_state(&t, S_RESPONSE);
	m = m_simple(IPC_DONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	to_state(&t, S_RESPONSE);
	m = m_simple(IPC_DONE, 2);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* a LOG carries req 0 (connection level) */
	t_open(&t, sock_missing);
	m = m_simple(IPC_LOG, 0);
	m.u.log.text = S("x");
	t_expect(&t, t_send_req_run(&t, &m, 1), KILLED, __LINE__);

	/* 32 LOG lines per request are logged; the 33rd is a flood */
	t_open(&t, sock_missing);
	for (i = 0; i < 32; i++) {
		m = m_simple(IPC_LOG, 0);
		m.u.log.level = IPC_LOG_INFO;
		m.u.log.text = S("line");
		assert_int_equal(t_send_run(&t, &m), 0);
	}
	m = m_simple(IPC_LOG, 0);
	m.u.log.level = IPC_LOG_INFO;
	m.u.log.text = S("line");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("more than 32 LOG lines");
}

/* ---------------------------------------------------------------- facts */

static void
test_fact_query(void **state)
{
	static const struct {
		uint8_t kind, api;
		const char *prefix, *ref;
	} bad[] = {
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a/b" },
		{ CG_FACT_VOLUME, IPC_API_LIBPOD, "", "a/b" },
		{ CG_FACT_EXEC, IPC_API_COMPAT, "", "e1/json" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", ".." },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "." },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", ".." },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "a/../b" },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "a/./b" },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "a//b" },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "/a" },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "a/" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a b" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a%2fb" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a?b" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a#b" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a\\b" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a\r\nb" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "\xc3\xa9" },
		{ CG_FACT_POD, IPC_API_COMPAT, "", "p1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "v1.41", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1.41/x", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/x1.41", "c1" },
		/* the prefix is spliced into the inspect head: no CR/LF, space */
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v\r\nX-A: b\r\n\r\nGET ", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1.41 HTTP", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1.041", "c1" },
	};
	unsigned char raw[IPC_MSG_MAX];
	struct t t;
	struct ipc_msg m;
	size_t i;
	int len;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t_open(&t, sock_missing);
		m = m_fact(1, 1, bad[i].kind, bad[i].api, bad[i].prefix, bad[i].ref);
		t_send(&t, &m);
		if (conn_on_ipc(t.c) != -1) {
			print_error("FACT_QUERY %d/%d prefix \"%s\" ref \"%s\" was "
			    "accepted\n", bad[i].kind, bad[i].api, bad[i].prefix,
			    bad[i].ref);
			fail();
		}
		t_close(&t, KILLED);
	}
	/* an out-of-range kind does not even decode */
	t_open(&t, sock_missing);
	m = m_fact(1, 1, CG_FACT_EXEC, IPC_API_COMPAT, "", "c1");
	len = ipc_encode(&m, raw, sizeof(raw));
	assert_true(len > 0);
	raw[IPC_HDR_LEN + 4] = 6;	/* kind follows the u32 qid */
	assert_int_equal(send(t.ch, raw, (size_t)len, 0), len);
	t_expect(&t, conn_on_ipc(t.c), KILLED, __LINE__);

	/* accepted refs: images span segments; exact inspect bytes */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_IMAGE, IPC_API_COMPAT, "quay.io/podman/hello:latest",
	    http_resp(200, "{\"Id\":\"sha256:ab\",\"Config\":{\"Labels\":{\"" KEY
	    "\":\"" ROOT "\"}}}"), IPC_FACT_OWNED, "sha256:ab");
	assert_string_equal(fb_read(0), "GET /v1.41/images/quay.io/podman/"
	    "hello:latest/json HTTP/1.1\r\nHost: docker\r\n\r\n");
	/* libpod pod, prefix as sent */
	m = m_fact(1, 2, CG_FACT_POD, IPC_API_LIBPOD, "/v5.0.0-rc1", "p1");
	fb_queue(http_resp(200, "{\"Id\":\"p1id\",\"Labels\":{\"" KEY "\":\""
	    ROOT "\"}}"), 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_IDLE));
	t_expect_msg(&t, IPC_FACT_ANSWER, &m);
	assert_int_equal(m.u.fact_answer.qid, 2);
	assert_int_equal(m.u.fact_answer.result, IPC_FACT_OWNED);
	assert_true(str_is(&m.u.fact_answer.id, "p1id"));
	assert_string_equal(fb_read(1), "GET /v5.0.0-rc1/libpod/pods/p1/json "
	    "HTTP/1.1\r\nHost: docker\r\n\r\n");
	/* the other answers */
	ask(&t, 1, 3, CG_FACT_CONTAINER, IPC_API_COMPAT, "c2",
	    http_resp(404, "{\"message\":\"no such container\"}"),
	    IPC_FACT_NOT_OWNED, NULL);
	ask(&t, 1, 4, CG_FACT_CONTAINER, IPC_API_COMPAT, "c3",
	    http_resp(200, "{\"Id\":\"c3\",\"Config\":{\"Labels\":{\"" KEY
	    "\":\"/other\"}}}"), IPC_FACT_NOT_OWNED, NULL);
	ask(&t, 1, 5, CG_FACT_CONTAINER, IPC_API_COMPAT, "c4",
	    http_resp(500, "{}"), IPC_FACT_UNEXPECTED, NULL);
	ask(&t, 1, 6, CG_FACT_CONTAINER, IPC_API_COMPAT, "c5",
	    http_resp(200, "{\"Id\":\"c5\",\"Id\":\"c5\",\"Config\":{\"Labels\":"
	    "{\"" KEY "\":\"" ROOT "\"}}}"), IPC_FACT_UNEXPECTED, NULL);
	ask(&t, 1, 7, CG_FACT_CONTAINER, IPC_API_COMPAT, "c6",
	    "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}",
	    IPC_FACT_UNREACHABLE, NULL);
	/* exec: the exec's container is checked next (routes.md §9.4) */
	fb_queue(http_resp(200, "{\"ID\":\"e1\",\"ContainerID\":\"c7id\"}"), 1);
	ask(&t, 1, 8, CG_FACT_EXEC, IPC_API_COMPAT, "e1",
	    http_resp(200, OWNED_BODY("c7id")), IPC_FACT_OWNED, "c7id");
	assert_true(strstr(fb_read(fb.nfds - 2), "GET /v1.41/exec/e1/json ") != NULL);
	assert_true(strstr(fb_read(fb.nfds - 1), "GET /v1.41/containers/c7id/json ")
	    != NULL);
	fb_queue(http_resp(200, "{\"ID\":\"e2\",\"ContainerID\":\"c8id\"}"), 1);
	ask(&t, 1, 9, CG_FACT_EXEC, IPC_API_COMPAT, "e2",
	    http_resp(200, "{\"Id\":\"c8id\",\"Config\":{}}"),
	    IPC_FACT_NOT_OWNED, NULL);
	t_close(&t, HANDLED);

	/* a missing backend: unreachable */
	t_open(&t, sock_missing);
	ask(&t, 1, 1, CG_FACT_VOLUME, IPC_API_LIBPOD, "v1", NULL,
	    IPC_FACT_UNREACHABLE, NULL);
	t_close(&t, HANDLED);

	/* a backend that does not answer in time: timeout */
	t_open(&t, sock_up);
	fb_queue(NULL, 0);
	m = m_fact(1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "", "c1");
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_FACT);
	assert_int_equal(conn_on_timer(t.c, t.c->bc.deadline - 1), 0);
	assert_int_equal(t.c->rs, RS_FACT);
	assert_int_equal(conn_on_timer(t.c, t.c->bc.deadline), 0);
	t_expect_msg(&t, IPC_FACT_ANSWER, &m);
	assert_int_equal(m.u.fact_answer.result, IPC_FACT_TIMEOUT);
	assert_int_equal(t.c->rs, RS_IDLE);
	t_close(&t, HANDLED);
}

/* At most 64 FACT_QUERY and 64 PATH_QUERY per request. */
static void
test_question_limits(void **state)
{
	struct t t;
	struct ipc_msg m;
	char ref[16];
	int i;

	(void)state;
	t_open(&t, sock_missing);
	for (i = 1; i <= IPC_FACT_QUERIES_MAX; i++) {
		snprintf(ref, sizeof(ref), "c%d", i);
		m = m_fact(1, (uint32_t)i, CG_FACT_CONTAINER, IPC_API_COMPAT, "", ref);
		assert_int_equal(t_send_run(&t, &m), 0);
		t_expect_msg(&t, IPC_FACT_ANSWER, &m);
		assert_int_equal(m.u.fact_answer.qid, (uint32_t)i);
		assert_int_equal(m.u.fact_answer.result, IPC_FACT_UNREACHABLE);
	}
	m = m_fact(1, 65, CG_FACT_CONTAINER, IPC_API_COMPAT, "", "c65");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("more than 64 FACT_QUERY");

	/* the count is per request (request 1 answered and kept alive) */
	t_open(&t, sock_missing);
	for (i = 1; i <= IPC_FACT_QUERIES_MAX; i++) {
		m = m_fact(1, (uint32_t)i, CG_FACT_CONTAINER, IPC_API_COMPAT, "", "c");
		assert_int_equal(t_send_run(&t, &m), 0);
	}
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_up);
	fb_queue(http_resp(200, "{}"), 0);
	m = m_forward(1, "GET", "/_ping", FWD_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	/* light, kept alive: over with RESPONSE_END, no DONE (privsep.md §8) */
	assert_true(drive_until_end(t.c));
	assert_int_equal(t.c->rs, RS_IDLE);
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	for (i = 1; i <= IPC_FACT_QUERIES_MAX; i++) {
		m = m_fact(2, (uint32_t)i, CG_FACT_CONTAINER, IPC_API_COMPAT, "", "c");
		assert_int_equal(t_send_run(&t, &m), 0);
	}
	t_drain(&t);
	t_close(&t, HANDLED);

	t_open(&t, sock_missing);
	for (i = 1; i <= IPC_PATH_QUERIES_MAX; i++) {
		m = m_path(1, (uint32_t)i, "/");
		assert_int_equal(t_send_run(&t, &m), 0);
		t_drain(&t);
	}
	m = m_path(1, 65, "/");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("more than 64 PATH_QUERY");
}

/* ---------------------------------------------------------------- bodies */

/*
 * A streamed IMPORT on a fresh connection to sock_up (no response queued
 * yet): the FORWARD with framing kind and length len is accepted and the
 * request reaches RS_STREAM, waiting for BODY messages.
 */
static void
t_open_import(struct t *t, int kind, uint64_t len)
{
	struct ipc_msg m;

	t_open(t, sock_up);
	fb_queue(NULL, 0);
	m = m_forward(1, "POST", IMPORT, kind, len);
	assert_int_equal(t_send_run(t, &m), 0);
	assert_true(drive_until(t->c, RS_STREAM));
}

static void
test_body_limits(void **state)
{
	static const char body[] = VOL_BODY("");	/* no name check */
	struct t t;
	struct ipc_msg m;
	size_t n = strlen(body);

	(void)state;
	/* JSON: exactly body_len bytes, then the monitor proceeds */
	t_open(&t, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, n);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, body, 4);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_BODY);
	m = m_data(IPC_BODY, 1, body + 4, n - 4);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);	/* backend missing: 502 */
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
	assert_int_equal(m.u.verdict.status, 502);
	assert_true(str_is(&m.u.verdict.code, "backend-unreachable"));
	/* more BODY after the JSON body is complete */
	m = m_data(IPC_BODY, 1, "x", 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY on a request without a streamed body");

	/* JSON: one byte beyond body_len */
	t_open(&t, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, n);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, body, n - 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, "}}", 2);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY beyond the declared JSON length");

	/* JSON over 8 MiB is refused before any byte */
	t_open(&t, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, (8u << 20) + 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* a forwarded JSON body that does not parse */
	t_open(&t, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, 3);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, "{{}", 3);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* stream with a Content-Length: framed by the monitor */
	t_open(&t, sock_up);
	fb_queue(NULL, 0);
	m = m_forward(1, "POST", IMPORT, FWD_LENGTH, 5);
	assert_int_equal(t_send_run(&t, &m), 0);
	/* BODY before VERDICT forwarding */
	m = m_data(IPC_BODY, 1, "ab", 2);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	t_open_import(&t, FWD_LENGTH, 5);
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_FORWARDING);
	m = m_data(IPC_BODY, 1, "ab", 2);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_BODY_END, 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY_END before the declared length");

	t_open_import(&t, FWD_LENGTH, 5);
	m = m_data(IPC_BODY, 1, "abc", 3);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, "def", 3);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY beyond the declared Content-Length");

	/* the exact length, BODY_END; the backend saw head + 5 bytes */
	t_open_import(&t, FWD_LENGTH, 5);
	m = m_data(IPC_BODY, 1, "abc", 3);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, "de", 2);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_BODY_END, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	pump(t.c);
	assert_string_equal(fb_read(0), "POST " IMPORT " HTTP/1.1\r\n"
	    "Host: docker\r\nContent-Length: 5\r\n\r\nabcde");
	m = m_simple(IPC_BODY_END, 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY_END not allowed now");

	/* chunked: framed by the monitor; BODY after BODY_END */
	t_open_import(&t, FWD_CHUNKED, 0);
	m = m_data(IPC_BODY, 1, "0123456789abcdefX", 17);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_BODY_END, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	pump(t.c);
	assert_string_equal(fb_read(0), "POST " IMPORT " HTTP/1.1\r\n"
	    "Host: docker\r\nTransfer-Encoding: chunked\r\n"
	    "\r\n11\r\n0123456789abcdefX\r\n0\r\n\r\n");
	m = m_data(IPC_BODY, 1, "x", 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY not allowed now");
}

/* ---------------------------------------------------------------- forward */

/* A FORWARD that passes verification: with no backend, VERDICT 502. */
static void
expect_forward_ok(struct ipc_msg *fwd, int line)
{
	struct t t;
	struct ipc_msg m;

	t_open(&t, sock_missing);
	if (t_send_run(&t, fwd) != 0) {
		print_error("line %d: FORWARD %.*s refused:\n%s\n", line,
		    (int)fwd->u.forward.target.len, fwd->u.forward.target.p,
		    log_text());
		fail();
	}
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.req, fwd->req);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
	assert_int_equal(m.u.verdict.status, 502);
	assert_true(str_is(&m.u.verdict.code, "backend-unreachable"));
	assert_int_equal(t.c->rs, RS_WAIT_DONE);
	assert_log("decision=error code=backend-unreachable status=502");
	m = m_simple(IPC_DONE, fwd->req);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_close(&t, HANDLED);
}

static void
expect_forward_bad(struct ipc_msg *fwd, const char *why, int line)
{
	struct t t;

	t_open(&t, sock_missing);
	if (t_send_run(&t, fwd) != -1) {
		print_error("line %d: FORWARD %.*s accepted\n", line,
		    (int)fwd->u.forward.target.len, fwd->u.forward.target.p);
		fail();
	}
	if (why != NULL)
		assert_log(why);
	assert_int_equal(t_recv(&t, fwd), IPC_EAGAIN);	/* no VERDICT */
	t_close(&t, KILLED);
}

#define FWD_OK(m)		expect_forward_ok(&(m), __LINE__)
#define FWD_BAD(m, why)		expect_forward_bad(&(m), why, __LINE__)

static void
test_forward_target(void **state)
{
	struct ipc_msg m;

	(void)state;
	m = m_forward(1, "GET", "/v1.41/containers/json?all=1&" LABEL_FILTER,
	    FWD_NONE, 0);
	FWD_OK(m);
	m = m_forward(1, "GET", "/_ping", FWD_NONE, 0);
	FWD_OK(m);
	m = m_forward(1, "HEAD", "/_ping", FWD_NONE, 0);
	FWD_OK(m);
	m = m_forward(1, "GET", "/v4.0.0/libpod/info", FWD_NONE, 0);
	FWD_OK(m);
	m = m_forward(1, "POST", IMPORT, FWD_LENGTH, 0);
	FWD_OK(m);

	/* not canonical: the child did not re-encode the query */
	m = m_forward(1, "GET", "/v1.41/containers/json?all=1&filters=",
	    FWD_NONE, 0);
	FWD_BAD(m, "FORWARD target is not canonical");
	m = m_forward(1, "GET", "/v1.41/containers/json?all=1",
	    FWD_NONE, 0);
	FWD_BAD(m, "FORWARD target is not canonical");
	m = m_forward(1, "GET", "/v1.41/containers/json?" LABEL_FILTER "&all=1&",
	    FWD_NONE, 0);
	FWD_BAD(m, NULL);
	/* refused by the route tables */
	m = m_forward(1, "GET", "/v1.41/swarm", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "/v1.41/containers/c1%2fjson", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	/* an image name's %2F is decoded by the child, never forwarded */
	m = m_forward(1, "GET", "/v1.41/images/localhost%2Fx/json", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD target is not canonical");
	m = m_forward(1, "GET", "/v1.41//info", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "/v1.23/info", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "info", FWD_NONE, 0);
	FWD_BAD(m, NULL);
	/* a fragment in the path, which no HTTP parser forwards (fuzz_forward) */
	m = m_forward(1, "GET", "/v1.41/images/localhost/bus#bo*/json", FWD_NONE,
	    0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "", FWD_NONE, 0);
	FWD_BAD(m, NULL);
	/* methods */
	m = m_forward(1, "PATCH", "/_ping", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD method is not allowed");
	m = m_forward(1, "get", "/_ping", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD method is not allowed");
	m = m_forward(1, "GETX", "/_ping", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD method is not allowed");
	/* body kinds: the framing is the route's (the monitor derives it) */
	m = m_forward(1, "GET", "/v1.41/info", FWD_JSON, 2);
	FWD_BAD(m, "FORWARD headers are not the list the policy forwards");
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_CHUNKED, 0);
	FWD_BAD(m, "FORWARD headers are not the list the policy forwards");
	m = m_forward(1, "POST", IMPORT, FWD_NONE, 0);
	FWD_OK(m);		/* an empty stream: Content-Length: 0 */
	/* libpod only on podman.sock */
	gw.lis[0].socket_kind = CG_DOCKER;
	m = m_forward(1, "GET", "/v4.0.0/libpod/info", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "/_ping", FWD_NONE, 0);
	FWD_OK(m);
	gw.lis[0].socket_kind = CG_PODMAN;
}

/*
 * The header list is the policy's (privsep.md §9.2 amendment): the monitor
 * runs the same rules on it (policy/headers.c) and the list must come back
 * unchanged. Anything else is a violation.
 */
#define NOT_THE_LIST	"FORWARD headers are not the list the policy forwards"

/* The canonical target of method target as the route policy writes it. */
static const char *
canon_target(const char *method, const char *target)
{
	static char out[4][1024];
	static int k;
	struct cg_policy_ctx ctx = { 0 };
	struct cg_request req;
	struct cg_refusal r;
	char *t;

	ctx.root = gw.root;
	ctx.socket_kind = gw.lis[0].socket_kind;
	ctx.backend_kind = gw.lis[0].backend_kind;
	memset(&req, 0, sizeof(req));
	assert_int_equal(policy_route(&ctx, method, target, strlen(target), 0,
	    &req, &r), 0);
	t = policy_route_target(&req, NULL);
	k = (k + 1) % 4;
	snprintf(out[k], sizeof(out[k]), "%s", t);
	free(t);
	policy_request_free(&req);
	return out[k];
}

static void
test_forward_headers(void **state)
{
	static const char *const lies[] = { "Host", "Connection",
	    "Content-Length", "Transfer-Encoding", "X-Forwarded-For",
	    "Authorization", "Cookie", "Proxy-Authorization", "user-agent",
	    "User-Agent ", "", "Expect", "Keep-Alive", "TE", "Trailer",
	    "X-Registry-Auth", "X-Registry-Config", "Content-Type", "Upgrade",
	    "Accept-Charset" };
	struct ipc_msg m;
	size_t i;

	(void)state;
	/* the client fields, in the policy's order */
	m = m_fwd(1, "GET", "/v1.41/info", "User-Agent", "docker/28.2.2",
	    "Accept", "v\tx y", "Accept-Encoding", "gzip", NULL);
	FWD_OK(m);
	m = m_fwd(1, "GET", "/v1.41/info", "Connection", "close", NULL);
	FWD_OK(m);
	/* a field the policy does not forward, or one more after the list */
	for (i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		m = m_fwd(1, "GET", "/v1.41/info", "User-Agent", "docker", NULL);
		m_header(&m, lies[i], "x");
		FWD_BAD(m, "FORWARD headers ");
	}
	/* order, repetition, spelling */
	m = m_fwd(1, "GET", "/v1.41/info", "Accept", "*", "User-Agent", "d", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "GET", "/v1.41/info", "User-Agent", "d", "User-Agent", "e",
	    NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "GET", "/v1.41/info", "ACCEPT", "*", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	/* values the head cannot carry */
	m = m_fwd(1, "GET", "/v1.41/info", "User-Agent", "a\r\nX-Injected: 1",
	    NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "GET", "/v1.41/info", "Accept", "a\x7f", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "GET", "/v1.41/info", "Accept", " a", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	/* framing: exactly the policy's */
	m = m_fwd(1, "POST", "/v1.41/containers/c1id/stop", NULL);
	FWD_BAD(m, NULL);
	m = m_fwd(1, "POST", IMPORT, "Content-Length", "007", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "POST", IMPORT, "Content-Length", "7",
	    "Transfer-Encoding", "chunked", NULL);
	FWD_BAD(m, "FORWARD headers refused by the policy (malformed");
	m = m_fwd(1, "POST", IMPORT, "Transfer-Encoding", "gzip",
	    NULL);
	FWD_BAD(m, "FORWARD headers refused by the policy (malformed");
	m = m_fwd(1, "GET", "/v1.41/info", "Content-Length", "0", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "POST", "/v1.41/volumes/create", "Content-Type", "text/x",
	    "Content-Length", "2", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "POST", "/v1.41/volumes/create", "Content-Length",
	    "8388609", NULL);
	FWD_BAD(m, "not a JSON body length of at most 8 MiB");
	/* Content-Type: a media type, on stream routes; gRPC never (B40) */
	m = m_fwd(1, "GET", "/v1.41/info", "Content-Type", "application/json",
	    NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "POST", IMPORT, "Content-Type",
	    "application/x-tar", "Transfer-Encoding", "chunked", NULL);
	FWD_OK(m);
	m = m_fwd(1, "POST", IMPORT, "Content-Type",
	    "application x-tar", "Transfer-Encoding", "chunked", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "POST", IMPORT, "Content-Type",
	    "application/grpc", "Transfer-Encoding", "chunked", NULL);
	FWD_BAD(m, "FORWARD headers refused by the policy (denied-endpoint");
	/* registry credentials on pull and build only (http.md §7.3) */
	m = m_fwd(1, "POST", "/v4.3.1/libpod/images/pull?reference=localhost%2F"
	    "busybox", "X-Registry-Auth", "e30=", "Content-Length", "0", NULL);
	FWD_OK(m);
	m = m_fwd(1, "POST", canon_target("POST", "/v1.41/build?networkmode=none"), "Content-Type",
	    "application/x-tar",
	    "X-Registry-Auth", "e30=", "X-Registry-Config", "e30=",
	    "Content-Length", "4", NULL);
	FWD_OK(m);
	m = m_fwd(1, "GET", "/v1.41/info", "X-Registry-Auth", "e30=", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "POST", IMPORT, "X-Registry-Auth", "e30=",
	    "Transfer-Encoding", "chunked", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "POST", "/v4.3.1/libpod/images/pull?reference=localhost%2F"
	    "busybox", "X-Registry-Config", "e30=", "Content-Length", "0", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	/* Upgrade only on attach and exec start, with Connection: Upgrade */
	m = m_fwd(1, "GET", "/v1.41/info", "Connection", "Upgrade", "Upgrade",
	    "tcp", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "POST", IMPORT, "Transfer-Encoding",
	    "chunked", "Upgrade", "tcp", NULL);
	FWD_BAD(m, NOT_THE_LIST);
	m = m_fwd(1, "POST", "/v1.41/exec/e1/start", "Content-Length", "0",
	    "Upgrade", "tcp", NULL);
	FWD_BAD(m, NULL);
}

/* Path and query refs must be ids this monitor answered owned (item 4). */
static void
test_forward_owned(void **state)
{
	struct t t;
	struct ipc_msg m;

	(void)state;
	/* never asked */
	m = m_forward(1, "POST", "/v1.41/containers/c1/start", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD names a resource the monitor did not answer owned");
	m = m_forward(1, "GET", "/v1.41/volumes/v1", FWD_NONE, 0);
	FWD_BAD(m, "FORWARD names a resource the monitor did not answer owned");
	m = m_forward(1, "POST", "/v1.41/exec/e1/start", FWD_JSON, 0);
	FWD_BAD(m, "did not answer owned");
	m = m_forward(1, "DELETE", "/v1.41/images/foo", FWD_NONE, 0);
	FWD_BAD(m, "did not answer owned");
	m = m_forward(1, "POST", "/v1.41/commit?container=c1&pause=true", FWD_JSON, 0);
	FWD_BAD(m, "FORWARD query container: c1 was not answered owned");

	/* owned: the id is forwarded, not the ref */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	m = m_forward(1, "POST", "/v1.41/containers/c1id/start", FWD_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.status, 502);
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	/* request 2: the answer of request 1 is gone */
	m = m_forward(2, "POST", "/v1.41/containers/c1id/start", FWD_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	m = m_forward(1, "POST", "/v1.41/containers/c1/start", FWD_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* another id, a prefix of it, a longer one */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	m = m_forward(1, "POST", "/v1.41/containers/c1i/start", FWD_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	m = m_forward(1, "POST", "/v1.41/containers/c1idx/start", FWD_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* answered not owned */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c2",
	    http_resp(200, "{\"Id\":\"c2id\",\"Config\":{}}"), IPC_FACT_NOT_OWNED,
	    NULL);
	m = m_forward(1, "POST", "/v1.41/containers/c2id/start", FWD_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* owned, but of another kind */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_POD, IPC_API_LIBPOD, "p1",
	    http_resp(200, "{\"Id\":\"p1id\",\"Labels\":{\"" KEY "\":\"" ROOT
	    "\"}}"), IPC_FACT_OWNED, "p1id");
	m = m_forward(1, "POST", "/v4.0.0/libpod/containers/p1id/start",
	    FWD_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* volumes keep the ref; exec start names the exec id */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_VOLUME, IPC_API_COMPAT, "v1",
	    http_resp(200, "{\"Name\":\"v1\",\"Labels\":{\"" KEY "\":\"" ROOT
	    "\"}}"), IPC_FACT_OWNED, "v1");
	fb_queue(http_resp(200, "{\"ID\":\"e1\",\"ContainerID\":\"c7id\"}"), 1);
	ask(&t, 1, 2, CG_FACT_EXEC, IPC_API_COMPAT, "e1",
	    http_resp(200, OWNED_BODY("c7id")), IPC_FACT_OWNED, "c7id");
	ask(&t, 1, 3, CG_FACT_CONTAINER, IPC_API_COMPAT, "c3",
	    http_resp(200, OWNED_BODY("c3id")), IPC_FACT_OWNED, "c3id");
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	m = m_forward(1, "POST", "/v1.41/exec/e1/start", FWD_JSON, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.status, 502);
	t_close(&t, HANDLED);

	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_VOLUME, IPC_API_COMPAT, "v1",
	    http_resp(200, "{\"Name\":\"v1\",\"Labels\":{\"" KEY "\":\"" ROOT
	    "\"}}"), IPC_FACT_OWNED, "v1");
	ask(&t, 1, 2, CG_FACT_CONTAINER, IPC_API_COMPAT, "c3",
	    http_resp(200, OWNED_BODY("c3id")), IPC_FACT_OWNED, "c3id");
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	m = m_forward(1, "GET", "/v1.41/volumes/v1", FWD_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_close(&t, HANDLED);

	/* query ref: commit's container is the owned id */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	m = m_forward(1, "POST", "/v1.41/commit?container=c1id&pause=true", FWD_JSON, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	t_close(&t, HANDLED);
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	m = m_forward(1, "POST", "/v1.41/commit?container=c1&pause=true", FWD_JSON, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
}

/* ---------------------------------------------------------------- replay */

/* A JSON FORWARD on an allowed route: body sent, then run. */
static int
forward_json(struct t *t, const char *target, const char *body)
{
	struct ipc_msg m;

	m = m_forward(1, "POST", target, FWD_JSON, strlen(body));
	if (t_send_run(t, &m) != 0)
		return -1;
	m = m_data(IPC_BODY, 1, body, strlen(body));
	return t_send_run(t, &m);
}

/*
 * privsep.md §9.2: the monitor replays the policy on the forwarded body, so
 * a compromised child cannot forward what the policy refuses, nor a body
 * the policy would have rewritten, nor a pod it never had answered owned.
 */
static void
test_replay(void **state)
{
	static const struct {
		const char *target, *body, *log;
		uint8_t api;
	} bad[] = {
		{ "/v1.41/containers/create", "{\"Image\":\"a\",\"HostConfig\":"
		    "{\"Privileged\":true},\"Labels\":{\"" KEY "\":\"" ROOT "\"}}",
		    "privileged: drop --privileged", IPC_API_COMPAT },
		{ "/v1.41/containers/create", "{\"Image\":\"a\",\"HostConfig\":"
		    "{\"Binds\":[\"/etc:/x\"]},\"Labels\":{\"" KEY "\":\"" ROOT "\"}}",
		    "bind-mount", IPC_API_COMPAT },
		/* allowed, but not the policy's own output: the label is missing */
		{ "/v1.41/containers/create", "{\"Image\":\"a\",\"HostConfig\":"
		    "{\"NetworkMode\":\"none\"}}",
		    "the policy rewrites the forwarded body", IPC_API_COMPAT },
		/* the default network without the monitor's answer for it */
		{ "/v1.41/containers/create", "{\"Image\":\"a\",\"HostConfig\":"
		    "{},\"Labels\":{\"" KEY "\":\"" ROOT "\"}}",
		    "did not answer owned", IPC_API_COMPAT },
		{ "/v4.3.1/libpod/containers/create", "{\"image\":\"a\",\"pod\":"
		    "\"p1id\",\"labels\":{\"" KEY "\":\"" ROOT "\"},"
		    "\"privileged\":false}", "did not answer owned", IPC_API_LIBPOD },
		{ "/v1.41/volumes/create", "{\"Name\":\"v\",\"Driver\":\"x\","
		    "\"Labels\":{\"" KEY "\":\"" ROOT "\"}}", "volume-driver",
		    IPC_API_COMPAT },
	};
	struct t t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t_open(&t, sock_missing);
		t_expect(&t, forward_json(&t, bad[i].target, bad[i].body),
		    KILLED, __LINE__);
		assert_log(bad[i].log);
	}
	/* the policy's own output passes the replay (and then finds no backend) */
	t_open(&t, sock_missing);
	assert_int_equal(forward_json(&t, "/v1.41/containers/create",
	    "{\"Image\":\"a\",\"HostConfig\":{\"NetworkMode\":\"none\"},"
	    "\"Labels\":{\"" KEY "\":\"" ROOT "\"}}"), 0);
	{
		struct ipc_msg m;

		t_expect_msg(&t, IPC_VERDICT, &m);
		assert_int_equal(m.u.verdict.status, 502);
	}
	t_close(&t, HANDLED);
}

/*
 * The replay runs with the child's context (usability.sh u_commit): on a
 * backend measured to need a commit body, the policy's empty body is {}; the
 * monitor, knowing it too, reproduces {} and refuses an empty one.
 */
static void
test_replay_context(void **state)
{
	struct ipc_msg m;
	struct t t;

	(void)state;
	gw.lis[0].commit_needs_body = 1;
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	assert_int_equal(forward_json(&t, "/v1.41/commit?container=c1id&pause=true", "{}"), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.status, 502);	/* replayed, then no backend */
	t_close(&t, HANDLED);

	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	m = m_forward(1, "POST", "/v1.41/commit?container=c1id&pause=true", FWD_JSON, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("the policy rewrites the forwarded body");
	gw.lis[0].commit_needs_body = 0;
}

/*
 * A create naming a missing volume and another project's volume is refused
 * before the missing one is pre-created: a refused request leaves nothing.
 */
static void
test_phase_checks_before_creating(void **state)
{
	struct ipc_msg m;
	struct t t;
	int i;

	(void)state;
	t_open(&t, sock_up);
	fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
	fb_queue(http_resp(404, "{\"message\":\"no such volume\"}"), 1);
	fb_queue(http_resp(200, "{\"Name\":\"foreignvol\",\"Labels\":{\"" KEY
	    "\":\"/srv/other\"}}"), 1);
	assert_int_equal(forward_json(&t, "/v1.41/containers/create",
	    "{\"Image\":\"a\",\"HostConfig\":{\"Binds\":"
	    "[\"newvol:/a\",\"foreignvol:/b\"],\"NetworkMode\":\"none\"},"
	    "\"Labels\":{\"" KEY "\":\"" ROOT "\"}}"), 0);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
	assert_int_equal(m.u.verdict.status, 403);
	assert_true(str_is(&m.u.verdict.code, "bind-mount"));
	assert_int_equal(fb.nfds, 3);	/* image, then both volumes */
	assert_true(strncmp(fb_read(0), "GET /v1.41/images/a/json ", 25) == 0);
	for (i = 1; i < fb.nfds; i++)
		assert_true(strncmp(fb_read(i), "GET /v1.41/volumes/", 19) == 0);
	t_close(&t, HANDLED);
}

/* A libpod network inspect's answer: this project's network, isolated. */
#define OWNED_ISOLATED "{\"name\":\"n\",\"id\":\"n1\",\"driver\":" \
	"\"bridge\",\"labels\":{\"" KEY "\":\"" ROOT "\"},\"options\":" \
	"{\"isolate\":\"true\"}}"

/*
 * The create BODY on T reaches the backend as the NFDS-th request (the
 * ones before are the monitor's own), answered 201; CLOSE_AFTER as
 * fb_queue's.
 */
static void
create_reaches_backend(struct t *t, const char *body, int nfds,
    int close_after)
{
	fb_queue(http_resp(201, "{\"Id\":\"c\"}"), close_after);
	assert_int_equal(forward_json(t, "/v1.41/containers/create", body), 0);
	assert_true(drive_until(t->c, RS_WAIT_DONE));
	assert_int_equal(fb.nfds, nfds);
	assert_true(strstr(fb_read(nfds - 1), body) != NULL);
	t_close(t, HANDLED);
}

/*
 * §14 B34 (policy.md §5.1): a create naming a network is forwarded only
 * when the monitor's inspect says the network is this project's; another
 * project's network or a missing one is 403 network, before anything is
 * forwarded. On a podman backend the inspect is libpod's, and the network
 * must be isolated too (amendment of 2026-12-07: a network without the
 * isolate option reaches other projects' isolated ones). The allowed
 * neighbour reaches the backend with the body.
 */
static void
test_bypass_b34_named_networks(void **state)
{
	static const char *const not_ours[] = {
		"{\"name\":\"n\",\"id\":\"n9\",\"labels\":{\"" KEY "\":"
		    "\"/srv/other\"},\"options\":{\"isolate\":\"true\"}}",
		"{\"name\":\"n\",\"id\":\"n9\",\"labels\":{}}",
		NULL,	/* 404: missing networks are never created */
	};
	/* the project's, but a bridge without isolation, before and after
	 * podman re-read its network files */
	static const char *const open_bridges[] = {
		"{\"name\":\"n\",\"id\":\"n9\",\"driver\":\"bridge\","
		    "\"labels\":{\"" KEY "\":\"" ROOT "\"}}",
		"{\"name\":\"n\",\"id\":\"n9\",\"driver\":\"bridge\","
		    "\"internal\":false,\"labels\":{\"" KEY "\":\"" ROOT "\"},"
		    "\"options\":{\"isolate\":\"false\"}}",
	};
	char resp[1024];
	static const char body[] = "{\"Image\":\"a\",\"HostConfig\":"
	    "{\"NetworkMode\":\"n\"},\"Labels\":{\"" KEY "\":\"" ROOT "\"}}";
	struct ipc_msg m;
	struct t t;
	size_t i;

	(void)state;
	gw.lis[0].backend_ident = BACKEND_LIBPOD;	/* a podman that says so */
	for (i = 0; i < sizeof(not_ours) / sizeof(not_ours[0]); i++) {
		t_open(&t, sock_up);
		fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
		fb_queue(not_ours[i] != NULL ? http_resp(200, not_ours[i]) :
		    http_resp(404, "{\"message\":\"no such network\"}"), 1);
		assert_int_equal(forward_json(&t, "/v1.41/containers/create", body), 0);
		assert_true(drive_until(t.c, RS_WAIT_DONE));
		t_expect_msg(&t, IPC_VERDICT, &m);
		assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
		assert_int_equal(m.u.verdict.status, 403);
		assert_true(str_is(&m.u.verdict.code, "network"));
		assert_int_equal(fb.nfds, 2);	/* the inspects only */
		assert_true(strncmp(fb_read(1),
		    "GET /v4.0.0/libpod/networks/n/json ", 35) == 0);
		t_close(&t, HANDLED);
	}
	for (i = 0; i < sizeof(open_bridges) / sizeof(open_bridges[0]); i++) {
		t_open(&t, sock_up);
		snprintf(resp, sizeof(resp), "%s", http_resp(200, open_bridges[i]));
		fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
		fb_queue(resp, 1);
		fb_queue(http_resp(200, "{}"), 1);	/* throwaway create */
		fb_queue(http_resp(200, "{}"), 1);	/* ... and removal */
		fb_queue(resp, 1);			/* still not isolated */
		assert_int_equal(forward_json(&t, "/v1.41/containers/create", body), 0);
		assert_true(drive_until(t.c, RS_WAIT_DONE));
		t_expect_msg(&t, IPC_VERDICT, &m);
		assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
		assert_true(str_is(&m.u.verdict.code, "network"));
		assert_int_equal(fb.nfds, 5);
		snprintf(resp, sizeof(resp), "%s", fb_read(2));
		assert_true(strncmp(resp, "POST /v4.0.0/libpod/networks/create ",
		    36) == 0 && strstr(resp, "cg-reload-") != NULL);
		assert_true(strncmp(fb_read(3), "DELETE /v4.0.0/libpod/networks/"
		    "cg-reload-", 41) == 0);
		t_close(&t, HANDLED);
	}
	/* held stripped by podman, isolated once its files are read again */
	t_open(&t, sock_up);
	snprintf(resp, sizeof(resp), "%s", http_resp(200, open_bridges[0]));
	fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
	fb_queue(resp, 1);
	fb_queue(http_resp(409, "{}"), 1);	/* another one's reload */
	fb_queue(http_resp(200, OWNED_ISOLATED), 1);
	create_reaches_backend(&t, body, 5, 1);
	/* allowed: an owned, isolated network; the create reaches the backend */
	t_open(&t, sock_up);
	fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
	fb_queue(http_resp(200, OWNED_ISOLATED), 1);
	create_reaches_backend(&t, body, 3, 0);
	/* a backend that did not say it is podman: its isolation unmeasured,
	 * the bridge is joined on its ownership alone */
	gw.lis[0].backend_ident = BACKEND_UNKNOWN;
	t_open(&t, sock_up);
	snprintf(resp, sizeof(resp), "%s", http_resp(200, open_bridges[0]));
	fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
	fb_queue(resp, 1);
	fb_queue(http_resp(201, "{\"Id\":\"c\"}"), 1);
	assert_int_equal(forward_json(&t, "/v1.41/containers/create", body), 0);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	assert_int_equal(fb.nfds, 3);
	t_close(&t, HANDLED);
}

/*
 * Project-first resolution (monitor/exchange/facts.c, amendments of 2026-12-07):
 * another project's container named after this project's short id
 * answers the inspect; the monitor then lists the project's containers
 * (label filter) and answers owned with the one full id that starts with
 * the ref. Nothing of the project's with that prefix, two of them, or a
 * ref that is no id prefix: the first answer stands, without a list.
 */
static void
test_own_id_prefix(void **state)
{
	static const char own[] = "0123456789abcdef0123456789abcdef"
	    "0123456789abcdef0123456789abcdef";
	static const char foreign[] = "{\"Id\":\"ffff\",\"Config\":{\"Labels\":"
	    "{\"" KEY "\":\"/srv/other\"}}}";
	char list[512], two[1024];
	struct t t;

	(void)state;
	snprintf(list, sizeof(list), "[{\"Id\":\"%s\",\"Labels\":{\"" KEY
	    "\":\"" ROOT "\"}},{\"Id\":\"0123456789ff\",\"Labels\":{}}]", own);
	snprintf(two, sizeof(two), "[{\"Id\":\"%s\",\"Labels\":{\"" KEY
	    "\":\"" ROOT "\"}},{\"Id\":\"0123456789abff\",\"Labels\":{\"" KEY
	    "\":\"" ROOT "\"}}]", own);
	t_open(&t, sock_up);
	fb_queue(http_resp(200, foreign), 1);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "0123456789ab",
	    http_resp(200, list), IPC_FACT_OWNED, own);
	assert_int_equal(fb.nfds, 2);
	assert_true(strncmp(fb_read(0), "GET /v1.41/containers/0123456789ab/json ",
	    40) == 0);
	assert_true(strncmp(fb_read(1), "GET /v1.41/containers/json?all=true&"
	    "filters=%7B%22label%22%3A%5B%22org.apache.magpie.project%3D", 60) == 0);
	t_close(&t, HANDLED);

	/* two of the project's share the prefix: ambiguous, not owned */
	t_open(&t, sock_up);
	fb_queue(http_resp(200, foreign), 1);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "0123456789ab",
	    http_resp(200, two), IPC_FACT_NOT_OWNED, NULL);
	t_close(&t, HANDLED);

	/* not id-shaped (a g, 11 digits, upper case): one inspect only */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "0123456789ag",
	    http_resp(200, foreign), IPC_FACT_NOT_OWNED, NULL);
	ask(&t, 1, 2, CG_FACT_CONTAINER, IPC_API_COMPAT, "0123456789a",
	    http_resp(200, foreign), IPC_FACT_NOT_OWNED, NULL);
	ask(&t, 1, 3, CG_FACT_CONTAINER, IPC_API_COMPAT, "0123456789AB",
	    http_resp(200, foreign), IPC_FACT_NOT_OWNED, NULL);
	assert_int_equal(fb.nfds, 3);
	t_close(&t, HANDLED);
}

/*
 * The image step (monitor/exchange/image.c): a compat create on podman resolves the
 * name with the compat inspect, then reads the annotations with the libpod
 * inspect of that id; a reserved one refuses the create before any network
 * or volume is looked at or created, and nothing is forwarded. A libpod
 * create asks the libpod inspect at once; a clean image is forwarded.
 */
static void
test_image_step(void **state)
{
	static const char body[] = "{\"Image\":\"localhost/i\",\"HostConfig\":"
	    "{\"Binds\":[\"newvol:/a\"],\"NetworkMode\":\"none\"},\"Labels\":"
	    "{\"" KEY "\":\"" ROOT "\"}}";
	static const char lbody[] = "{\"image\":\"localhost/i\",\"netns\":"
	    "{\"nsmode\":\"none\"},\"labels\":{\"" KEY "\":\"" ROOT "\"},"
	    "\"privileged\":false,\"systemd\":\"false\"}";
	struct ipc_msg m;
	const char *fwd;
	struct t t;

	(void)state;
	t_open(&t, sock_up);
	fb_queue(http_resp(200, "{\"Id\":\"i1\",\"Config\":{}}"), 1);
	fb_queue(http_resp(200, "{\"Id\":\"i1\",\"Config\":{},\"Annotations\":"
	    "{\"io.containers.trace-syscall\":\"of:/tmp/x\"}}"), 1);
	assert_int_equal(forward_json(&t, "/v1.41/containers/create", body), 0);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.status, 403);
	assert_true(str_is(&m.u.verdict.code, "annotations"));
	assert_int_equal(fb.nfds, 2);
	assert_true(strncmp(fb_read(0), "GET /v1.41/images/localhost/i/json ",
	    35) == 0);
	assert_true(strncmp(fb_read(1), "GET /v4.0.0/libpod/images/i1/json ",
	    34) == 0);
	t_close(&t, HANDLED);

	t_open(&t, sock_up);
	fb_queue(http_resp(200, "{\"Id\":\"i1\",\"Config\":{},\"Annotations\":"
	    "{\"org.example\":\"x\"}}"), 1);
	fb_queue(http_resp(201, "{\"Id\":\"c\"}"), 0);
	assert_int_equal(forward_json(&t, "/v4.3.1/libpod/containers/create",
	    lbody), 0);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	assert_int_equal(fb.nfds, 2);
	assert_true(strncmp(fb_read(0), "GET /v4.0.0/libpod/images/localhost/i/"
	    "json ", 40) == 0);
	/*
	 * the create names the image that was checked, by its id: a retag in
	 * between swaps nothing in (red team rt9 F6); only the value changes
	 */
	fwd = fb_read(1);
	assert_null(strstr(fwd, lbody));
	assert_non_null(strstr(fwd, "\r\nContent-Length: 131\r\n"));
	assert_non_null(strstr(fwd, "\r\n\r\n{\"image\":\"i1\",\"netns\":"
	    "{\"nsmode\":\"none\"},\"labels\":{\"" KEY "\":\"" ROOT "\"},"
	    "\"privileged\":false,\"systemd\":\"false\"}"));
	t_close(&t, HANDLED);
}

/*
 * The project's own network (amendment of 2026-12-07, monitor/exchange/projnet.c):
 * the monitor answers its name; a create naming it while it is missing
 * creates it (labelled, isolated) after every check, and only then is
 * forwarded; a 409 (a concurrent create) is re-inspected. A name another
 * project holds gives way to the project's labelled network, or to the
 * name with the start-up suffix.
 */
#define STARTS(s, p)	(strncmp((s), (p), strlen(p)) == 0)
#define PN_FOREIGN(n)	"{\"name\":\"" n "\",\"id\":\"f1\",\"labels\":{\"" \
	KEY "\":\"/srv/other\"}}"
#define PN_OWN(n)	"{\"name\":\"" n "\",\"id\":\"p1\",\"labels\":{\"" \
	KEY "\":\"" ROOT "\",\"org.apache.magpie.network\":\"default\"}," \
	"\"options\":{\"isolate\":\"true\"}}"

static void
pn_ask(struct t *t, const char *want)
{
	struct ipc_msg m = m_fact(1, 1, CG_FACT_PROJNET, IPC_API_COMPAT, "/v1.41",
	    CG_PROJNET_REF);

	assert_int_equal(t_send_run(t, &m), 0);
	assert_true(drive_until(t->c, RS_IDLE));
	t_expect_msg(t, IPC_FACT_ANSWER, &m);
	assert_int_equal(m.u.fact_answer.result, IPC_FACT_OWNED);
	if (!str_is(&m.u.fact_answer.id, want))
		fail_msg("project network %.*s, expected %s",
		    (int)m.u.fact_answer.id.len, m.u.fact_answer.id.p, want);
}

/*
 * A first use of the project network NAME, missing, on a new connection:
 * the question answers NAME; the create's phase will find no image and no
 * network and get CREATED (an HTTP response) for its network create.
 */
static void
pn_first_use(struct t *t, const char *name, const char *created)
{
	char *answer = xstrdup(created);	/* http_resp reuses its buffers */

	t_open(t, sock_up);
	fb_queue(http_resp(404, "{\"message\":\"no such network\"}"), 1);
	pn_ask(t, name);
	fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
	fb_queue(http_resp(404, "{\"message\":\"no such network\"}"), 1);
	fb_queue(answer, 1);
	free(answer);
}

/*
 * Pod p1id, answered owned, then the project-network question about it:
 * the pod's inspect answers with INFRA (its infra and shared-namespace
 * members), then MORE, when not NULL; the answer into *M.
 */
static void
pn_pod_ask(struct t *t, const char *infra, const char *more, struct ipc_msg *m)
{
	char resp[512], *after = more != NULL ? xstrdup(more) : NULL;

	ask(t, 1, 1, CG_FACT_POD, IPC_API_LIBPOD, "p1", http_resp(200,
	    "{\"Id\":\"p1id\",\"Labels\":{\"" KEY "\":\"" ROOT "\"}}"),
	    IPC_FACT_OWNED, "p1id");
	snprintf(resp, sizeof(resp), "{\"Id\":\"p1id\",\"Labels\":{\"" KEY
	    "\":\"" ROOT "\"},%s}", infra);
	fb_queue(http_resp(200, resp), 1);
	if (after != NULL)
		fb_queue(after, 1);
	free(after);
	*m = m_fact(1, 2, CG_FACT_PROJNET, IPC_API_LIBPOD, "/v4.3.1", "p1id");
	assert_int_equal(t_send_run(t, m), 0);
	assert_true(drive_until(t->c, RS_IDLE));
	t_expect_msg(t, IPC_FACT_ANSWER, m);
}

/* Forward the policy's create body on network name, phase run to its end. */
static void
pn_create(struct t *t, const char *name)
{
	char body[512];

	snprintf(body, sizeof(body), "{\"Image\":\"a\",\"HostConfig\":"
	    "{\"NetworkMode\":\"%s\"},\"Labels\":{\"" KEY "\":\"" ROOT
	    "\"}}", name);
	assert_int_equal(forward_json(t, "/v1.41/containers/create", body), 0);
	assert_true(drive_until(t->c, RS_WAIT_DONE));
}

static void
test_project_network(void **state)
{
	char name[PROJNET_NAME_MAX + 1], own[PROJNET_NAME_MAX + 1];
	char alt[PROJNET_NAME_MAX + 16], resp[1024];
	struct ipc_msg m;
	struct t t;

	(void)state;
	projnet_name(ROOT, name);
	assert_true(strncmp(name, "cg-", 3) == 0 && strlen(name) <= 52);
	snprintf(gw.pn_salt, sizeof(gw.pn_salt), "0badc0de");

	/* missing: its name; the create makes it, then the forward */
	pn_first_use(&t, name, http_resp(200, "{}"));
	fb_queue(http_resp(201, "{\"Id\":\"c\"}"), 1);
	pn_create(&t, name);
	assert_int_equal(fb.nfds, 5);
	snprintf(resp, sizeof(resp), "%s", fb_read(3));	/* read once */
	assert_true(STARTS(resp, "POST /v4.0.0/libpod/networks/create "));
	assert_true(strstr(resp, "\"options\":{\"isolate\":\"true\"}") != NULL);
	assert_true(strstr(resp, "\"org.apache.magpie.network\":\"default\"")
	    != NULL);
	assert_true(strstr(resp, "\"" KEY "\":\"" ROOT "\"") != NULL);
	assert_true(STARTS(fb_read(4), "POST /v1.41/containers/create "));
	assert_null(gw.pn_holder);
	t_close(&t, HANDLED);

	/* created concurrently (409): re-inspected, then forwarded */
	t_open(&t, sock_up);
	fb_queue(http_resp(404, "{\"message\":\"no such network\"}"), 1);
	pn_ask(&t, name);
	snprintf(resp, sizeof(resp), "%s", http_resp(200, PN_OWN("x")));
	fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
	fb_queue(http_resp(404, "{\"message\":\"no such network\"}"), 1);
	fb_queue(http_resp(409, "{\"message\":\"network already exists\"}"), 1);
	fb_queue(resp, 1);
	fb_queue(http_resp(201, "{\"Id\":\"c\"}"), 1);
	pn_create(&t, name);
	assert_int_equal(fb.nfds, 6);
	assert_true(STARTS(fb_read(5), "POST /v1.41/containers/create "));
	t_close(&t, HANDLED);

	/* another create is running: this one waits, then re-inspects */
	t_open(&t, sock_up);
	fb_queue(http_resp(404, "{\"message\":\"no such network\"}"), 1);
	pn_ask(&t, name);
	gw.pn_holder = (struct conn *)&t;	/* any other connection */
	fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
	fb_queue(http_resp(404, "{\"message\":\"no such network\"}"), 1);
	{
		char b[512];

		snprintf(b, sizeof(b), "{\"Image\":\"a\",\"HostConfig\":"
		    "{\"NetworkMode\":\"%s\"},\"Labels\":{\"" KEY "\":\"" ROOT
		    "\"}}", name);
		assert_int_equal(forward_json(&t, "/v1.41/containers/create", b), 0);
	}
	assert_false(drive_until(t.c, RS_WAIT_DONE));	/* it waits */
	assert_int_equal(fb.nfds, 3);
	snprintf(resp, sizeof(resp), "%s", http_resp(200, PN_OWN("x")));
	fb_queue(resp, 1);
	fb_queue(http_resp(201, "{\"Id\":\"c\"}"), 1);
	gw.pn_holder = NULL;
	TAILQ_INSERT_TAIL(&gw.conns, t.c, entry);	/* as serve.c holds it */
	phase_wake(&gw);
	TAILQ_REMOVE(&gw.conns, t.c, entry);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	assert_int_equal(fb.nfds, 5);
	assert_true(STARTS(fb_read(3), "GET /v4.0.0/libpod/networks/"));
	assert_true(STARTS(fb_read(4), "POST /v1.41/containers/create "));
	t_close(&t, HANDLED);

	/* the name is another project's: the labelled list, first name */
	t_open(&t, sock_up);
	fb_queue(http_resp(200, PN_FOREIGN("x")), 1);
	snprintf(resp, sizeof(resp), "%s", http_resp(200, "[" PN_FOREIGN("z") ","
	    PN_OWN("cg-own-b") "," PN_OWN("cg-own-a") "]"));
	fb_queue(resp, 1);
	snprintf(own, sizeof(own), "cg-own-a");
	pn_ask(&t, own);
	assert_true(STARTS(fb_read(1), "GET /v4.0.0/libpod/networks/json?filters="));
	t_close(&t, HANDLED);

	/* ... and none labelled: the name with the start-up suffix */
	t_open(&t, sock_up);
	fb_queue(http_resp(200, PN_FOREIGN("x")), 1);
	fb_queue(http_resp(200, "[]"), 1);
	snprintf(alt, sizeof(alt), "%s-0badc0de", name);
	pn_ask(&t, alt);
	t_close(&t, HANDLED);

	/* in a pod: the pod's network when its infra shares it, else the
	 * project's; only about a pod answered owned in this request */
	t_open(&t, sock_up);
	pn_pod_ask(&t, "\"InfraContainerID\":\"i1\",\"SharedNamespaces\":"
	    "[\"ipc\",\"net\"]", NULL, &m);
	assert_true(str_is(&m.u.fact_answer.id, CG_PROJNET_POD));
	assert_true(STARTS(fb_read(1), "GET /v4.0.0/libpod/pods/p1id/json "));
	t_close(&t, HANDLED);
	t_open(&t, sock_up);
	pn_pod_ask(&t, "\"InfraContainerID\":\"\",\"SharedNamespaces\":null",
	    http_resp(404, "{\"message\":\"no such network\"}"), &m);
	assert_true(str_is(&m.u.fact_answer.id, name));
	t_close(&t, HANDLED);
	t_open(&t, sock_up);
	m = m_fact(1, 1, CG_FACT_PROJNET, IPC_API_LIBPOD, "/v4.3.1", "p1id");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("project-network question about another ref");

	/* a failed create is a refusal; nothing is forwarded */
	pn_first_use(&t, name, http_resp(500, "{\"message\":\"no subnet left\"}"));
	pn_create(&t, name);
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
	assert_true(str_is(&m.u.verdict.code, "network"));
	assert_int_equal(fb.nfds, 4);
	assert_null(gw.pn_holder);
	t_close(&t, HANDLED);
	gw.pn_salt[0] = '\0';
}

/* ---------------------------------------------------------------- raw */

static void
put_hdr(unsigned char *b, uint32_t magic, uint16_t type, uint16_t flags,
    uint32_t req, uint32_t len)
{
	memcpy(b, &magic, 4);
	memcpy(b + 4, &type, 2);
	memcpy(b + 6, &flags, 2);
	memcpy(b + 8, &req, 4);
	memcpy(b + 12, &len, 4);
}

static void
raw_case(const unsigned char *b, size_t len, int line)
{
	struct t t;

	t_open(&t, sock_missing);
	assert_int_equal(send(t.ch, b, len, 0), (ssize_t)len);
	t_expect(&t, conn_on_ipc(t.c), KILLED, line);
}

static void
test_raw_datagrams(void **state)
{
	static unsigned char b[IPC_MSG_MAX + 64];
	struct ipc_msg m;
	int len;

	(void)state;
	/* an unknown type, with and without payload */
	put_hdr(b, IPC_MAGIC, 99, 0, 1, 0);
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, 0, 0, 0, 0);
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, IPC_TYPE_MAX + 1, 0, 1, 4);
	raw_case(b, 20, __LINE__);
	/* a valid DONE, then header damage */
	put_hdr(b, IPC_MAGIC, IPC_DONE, 0, 1, 0);
	put_hdr(b, IPC_MAGIC ^ 1, IPC_DONE, 0, 1, 0);
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, IPC_DONE, 1, 1, 0);	/* flags */
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, IPC_DONE, 0, 1, 1);	/* len > payload */
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, IPC_DONE, 0, 1, 0);	/* payload > len */
	raw_case(b, 17, __LINE__);
	raw_case(b, 15, __LINE__);			/* short header */
	raw_case(b, 1, __LINE__);
	/* a LOG with a trailing byte, an out-of-range level, bad UTF-8 */
	m = m_simple(IPC_LOG, 0);
	m.u.log.text = S("x");
	len = ipc_encode(&m, b, IPC_MSG_MAX);
	assert_true(len > 0);
	b[len] = 0;
	put_hdr(b, IPC_MAGIC, IPC_LOG, 0, 0, (uint32_t)len + 1 - 16);
	raw_case(b, (size_t)len + 1, __LINE__);
	len = ipc_encode(&m, b, IPC_MSG_MAX);
	b[16] = 4;
	raw_case(b, (size_t)len, __LINE__);
	len = ipc_encode(&m, b, IPC_MSG_MAX);
	b[len - 1] = 0xff;
	raw_case(b, (size_t)len, __LINE__);
	/* a datagram over 256 KiB: truncated on receipt */
	memset(b, 0, sizeof(b));
	put_hdr(b, IPC_MAGIC, IPC_BODY, 0, 1, IPC_MSG_MAX + 1 - 16);
	raw_case(b, IPC_MSG_MAX + 1, __LINE__);

	/*
	 * An empty datagram reads like end-of-file on a SOCK_SEQPACKET
	 * socket, but the child is still there: a violation (tests/hostile row
	 * datagram-empty; it used to drop the connection without a word).
	 */
	raw_case(b, 0, __LINE__);
}

/* A descriptor attached to any child message: closed, and a violation. */
static void
test_fd_attached(void **state)
{
	struct t t;
	struct ipc_msg m;
	unsigned char buf[IPC_MSG_MAX];
	union {
		struct cmsghdr h;
		unsigned char b[CMSG_SPACE(2 * sizeof(int))];
	} cm;
	struct msghdr mh;
	struct iovec iov;
	struct cmsghdr *cmh;
	int p[2], q[2], fds[2], len, nfd;
	char x;

	(void)state;
	for (nfd = 1; nfd <= 2; nfd++) {
		t_open(&t, sock_missing);
		assert_int_equal(pipe2(p, O_CLOEXEC), 0);
		assert_int_equal(pipe2(q, O_CLOEXEC), 0);
		m = m_simple(IPC_LOG, 0);
		m.u.log.text = S("with a descriptor");
		len = ipc_encode(&m, buf, sizeof(buf));
		assert_true(len > 0);
		memset(&mh, 0, sizeof(mh));
		memset(&cm, 0, sizeof(cm));
		iov.iov_base = buf;
		iov.iov_len = (size_t)len;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = cm.b;
		mh.msg_controllen = CMSG_SPACE((size_t)nfd * sizeof(int));
		cmh = CMSG_FIRSTHDR(&mh);
		cmh->cmsg_level = SOL_SOCKET;
		cmh->cmsg_type = SCM_RIGHTS;
		cmh->cmsg_len = CMSG_LEN((size_t)nfd * sizeof(int));
		fds[0] = p[1];
		fds[1] = q[1];
		memcpy(CMSG_DATA(cmh), fds, (size_t)nfd * sizeof(int));
		assert_int_equal(sendmsg(t.ch, &mh, 0), len);
		/* only the copies in flight keep the write ends open now */
		close(p[1]);
		close(q[1]);
		t_expect(&t, conn_on_ipc(t.c), KILLED, __LINE__);
		assert_int_equal(read(p[0], &x, 1), 0);	/* EOF: closed */
		assert_int_equal(read(q[0], &x, 1), 0);
		close(p[0]);
		close(q[0]);
	}
}

/* ---------------------------------------------------------------- start */

static void
test_startup(void **state)
{
	struct t t;
	struct ipc_msg m;

	(void)state;
	/* the self-test's child, asked for it (want_ready) */
	t_open(&t, sock_missing);
	t.c->started = t.c->ready = 0;
	t.c->want_ready = 1;
	m = m_simple(IPC_CHILD_READY, 0);
	m.u.child_ready.pid = (uint32_t)t.pid;
	m.u.child_ready.namespaces = 1;
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(t.c->ready);
	/* a second CHILD_READY */
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	t_open(&t, sock_missing);
	t.c->started = t.c->ready = 0;
	t.c->want_ready = 1;
	m = m_simple(IPC_CHILD_READY, 0);
	m.u.child_ready.pid = (uint32_t)t.pid + 1;
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* a child not asked for it (every other one: ready when spawned) */
	t_open(&t, sock_missing);
	t.c->started = 0;
	m = m_simple(IPC_CHILD_READY, 0);
	m.u.child_ready.pid = (uint32_t)t.pid;
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);


	/* anything else before CONN_START */
	t_open(&t, sock_missing);
	t.c->started = t.c->ready = 0;
	m = m_simple(IPC_LOG, 0);
	m.u.log.text = S("early");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	t_open(&t, sock_missing);
	t.c->started = 0;
	m = m_forward(1, "GET", "/_ping", FWD_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* SANDBOX_FAILED: the child exits by itself */
	t_open(&t, sock_missing);
	t.c->started = t.c->ready = 0;
	m = m_simple(IPC_SANDBOX_FAILED, 0);
	m.u.sandbox_failed.step = S("seccomp");
	m.u.sandbox_failed.err = EINVAL;
	t_expect(&t, t_send_run(&t, &m), BYE_EXIT, __LINE__);
	assert_true(1);

	/* end-of-file: the child is gone, nothing to kill */
	t_open(&t, sock_missing);
	close(t.ch);
	t.ch = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(conn_on_ipc(t.c), -1);
	assert_true(t.c->dead);
	t_close(&t, BYE_EXIT);

	/* nothing to read: handled, nothing happens */
	t_open(&t, sock_missing);
	assert_int_equal(conn_on_ipc(t.c), 0);
	t_close(&t, HANDLED);
}

/* ---------------------------------------------------------------- budget */

/*
 * The memory budget (monitor/budget.c): a FORWARD takes its head and
 * twice its JSON body from the pool before a byte is read; one that does
 * not fit waits in line (its child not read) and is admitted when room is
 * given back; one that waited too long, or could never fit, is read to
 * its end and answered 503 by the monitor; a body whose parse would not
 * fit the parse area gets a 503 too. Every byte taken is given back.
 */
/*
 * x's JSON body of n bytes after its admitted FORWARD: the monitor answers
 * VERDICT forwarding (a refused body is read and dropped); what the
 * client then got.
 */
static char *
body_answer(struct t *x, const char *body, size_t n, size_t *len, int *eof)
{
	struct ipc_msg m = m_data(IPC_BODY, 1, body, n);

	assert_int_equal(t_send_run(x, &m), 0);
	t_expect_msg(x, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_FORWARDING);
	relay_progress(x->c);
	return cl_read(x, len, eof);
}

static void
test_budget(void **state)
{
	static const char body[] = VOL_BODY("");	/* no name check */
	struct t a, b, d;
	struct ipc_msg m;
	size_t n = strlen(body), len;
	uint64_t need;
	char *got;
	int eof;

	(void)state;
	memset(&gw.budget, 0, sizeof(gw.budget));
	TAILQ_INIT(&gw.budget.waiting);
	gw.budget.limit = 64u << 20;
	gw.budget.parse = 64u << 20;
	gw.budget.pool = 64u << 20;

	/* a is admitted and holds its share while its body is out */
	t_open(&a, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, n);
	assert_int_equal(t_send_run(&a, &m), 0);
	assert_int_equal(a.c->rs, RS_BODY);
	need = a.c->held;
	assert_true(need >= 2 * n + 1);
	assert_int_equal(gw.budget.used, need);

	/* b does not fit beside it: in line, its child not read */
	gw.budget.pool = 2 * need - 1;
	t_open(&b, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, n);
	assert_int_equal(t_send_run(&b, &m), 0);
	assert_int_equal(b.c->rs, RS_BUDGET);
	assert_int_equal(b.c->held, 0);
	m = m_data(IPC_BODY, 1, body, n);
	t_send(&b, &m);			/* stays in its socket */
	{
		struct pollfd pfd[CONN_POLLFDS];

		assert_true(conn_pollfds(b.c, pfd) >= 1);
		assert_int_equal(pfd[0].fd, b.c->ipc);
		assert_false(pfd[0].events & POLLIN);
	}

	/* a's exchange ends (backend missing: 502): b is admitted */
	m = m_data(IPC_BODY, 1, body, n);
	assert_int_equal(t_send_run(&a, &m), 0);
	t_expect_msg(&a, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.status, 502);
	assert_true(drive_until(a.c, RS_WAIT_DONE) || a.c->rs == RS_WAIT_DONE ||
	    a.c->rs == RS_IDLE);
	conn_end_request(a.c);
	assert_int_equal(a.c->held, 0);
	assert_true(gw.budget.admit_due);
	budget_admit(&gw);
	assert_int_equal(b.c->rs, RS_BODY);
	assert_int_equal(b.c->held, need);
	assert_int_equal(conn_on_ipc(b.c), 0);	/* its body, read now */
	t_expect_msg(&b, IPC_VERDICT, &m);
	t_close(&a, HANDLED);

	/* d waits while b holds its share, past its deadline: 503 */
	conn_end_request(b.c);
	assert_true(b.c->held == 0);
	t_close(&b, HANDLED);
	gw.budget.pool = need - 1;		/* never fits now */
	t_open(&d, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, n);
	assert_int_equal(t_send_run(&d, &m), 0);
	assert_int_equal(d.c->rs, RS_BODY);	/* read and dropped */
	assert_true(d.c->brefused);
	got = body_answer(&d, body, n, &len, &eof);
	assert_non_null(strstr(got, "HTTP/1.1 503 Service Unavailable"));
	assert_non_null(strstr(got, "too-many-connections: the gateway's memory "
	    "budget (64 MiB)"));
	assert_non_null(strstr(got, "raise --memory-budget"));
	t_close(&d, HANDLED);

	/* waiting past the deadline */
	gw.budget.pool = 2 * need - 1;
	gw.budget.used = 0;
	t_open(&a, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, n);
	assert_int_equal(t_send_run(&a, &m), 0);	/* admitted, holds */
	t_open(&d, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, n);
	assert_int_equal(t_send_run(&d, &m), 0);
	assert_int_equal(d.c->rs, RS_BUDGET);
	assert_int_equal(budget_expire(&gw, mono_ms()), d.c->bdeadline);
	assert_int_equal(budget_expire(&gw, d.c->bdeadline), -1);
	assert_int_equal(d.c->rs, RS_BODY);
	assert_true(d.c->brefused);
	m = m_data(IPC_BODY, 1, body, n);
	assert_int_equal(t_send_run(&d, &m), 0);
	t_expect_msg(&d, IPC_VERDICT, &m);
	t_close(&d, HANDLED);
	t_close(&a, HANDLED);
	assert_int_equal(gw.budget.used, 0);

	/* a body whose parse would not fit the parse area */
	gw.budget.parse = json_tree_bound(body, n) - 1;
	t_open(&a, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", FWD_JSON, n);
	assert_int_equal(t_send_run(&a, &m), 0);
	got = body_answer(&a, body, n, &len, &eof);
	assert_non_null(strstr(got, "too dense for the gateway's memory budget"));
	t_close(&a, HANDLED);
	assert_int_equal(gw.budget.used, 0);
	memset(&gw.budget, 0, sizeof(gw.budget));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_req_numbers),
		cmocka_unit_test(test_fact_query),
		cmocka_unit_test(test_question_limits),
		cmocka_unit_test(test_body_limits),
		cmocka_unit_test(test_forward_target),
		cmocka_unit_test(test_forward_headers),
		cmocka_unit_test(test_forward_owned),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_replay_context),
		cmocka_unit_test(test_phase_checks_before_creating),
		cmocka_unit_test(test_bypass_b34_named_networks),
		cmocka_unit_test(test_image_step),
		cmocka_unit_test(test_own_id_prefix),
		cmocka_unit_test(test_project_network),
		cmocka_unit_test(test_raw_datagrams),
		cmocka_unit_test(test_fd_attached),
		cmocka_unit_test(test_startup),
		cmocka_unit_test(test_budget),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
