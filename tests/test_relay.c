/*
 * The monitor writes forwarded responses and relays switched streams
 * itself (privsep.md §1 amendment; monitor/exchange/relay.c): framing followed to the
 * byte, heads rewritten, gateway errors after forwarding, both directions of a
 * switched stream with their own backpressure, early stream bytes, hang-ups, a
 * child that gives up, and one access line per request whatever happens
 * (cli.md §14.3). The world is tests/monitor_fixture.h: the test plays the
 * child and the client.
 */
#include "monitor/conn.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"
#include "tests/monitor_fixture.h"

#define ATTACH	"/v1.41/containers/c1id/attach?stream=1&stdin=1&stdout=1"
#define RAW_CT	"Content-Type: application/vnd.docker.raw-stream\r\n"
#define MUX_CT	"Content-Type: application/vnd.docker.multiplexed-stream\r\n"
#define UPGRADED "HTTP/1.1 101 UPGRADED\r\n" RAW_CT "Connection: Upgrade\r\n" \
	"Upgrade: tcp\r\n\r\n"

/* What the client reads within ms (until end-of-file or quiet). */
static char *
client_gets(struct t *t, int ms, size_t *len, int *eof)
{
	static char acc[1 << 23];
	size_t n = 0, got;
	long long end = mono_ms() + ms;
	char *p;

	*eof = 0;
	while (mono_ms() < end && !*eof) {
		pump(t->c);
		p = cl_read(t, &got, eof);
		assert_true(n + got < sizeof(acc));
		memcpy(acc + n, p, got);
		n += got;
	}
	acc[n] = '\0';
	if (len != NULL)
		*len = n;
	return acc;
}

/* The RESPONSE_END the child must get now; returns its mode. */
static int
expect_end(struct t *t)
{
	struct ipc_msg m;

	t_expect_end(t, &m);
	assert_int_equal(m.req, t->c->req);
	return m.u.response_end.mode;
}

/*
 * VERDICT forwarding for the current request when its exchange is synced;
 * a light one (no body, no hijack: privsep.md §8) gets none, which the
 * caller's next t_expect_msg (RESPONSE_END) checks.
 */
static void
expect_forwarding(struct t *t)
{
	struct ipc_msg m;

	if (!t->c->fw.synced)
		return;
	t_expect_msg(t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_FORWARDING);
}

/*
 * The child's DONE after a RESPONSE_END of mode: none after a light
 * exchange kept alive (its next request stands for it), which is then
 * over already.
 */
static void
child_done(struct t *t, int mode)
{
	struct ipc_msg m = m_simple(IPC_DONE, t->c->req);

	if (!t->c->fw.synced && mode == IPC_END_KEEP_ALIVE) {
		assert_int_equal(t->c->rs, RS_IDLE);
		return;
	}
	assert_int_equal(t->c->rs, RS_WAIT_DONE);
	assert_int_equal(t_send_run(t, &m), 0);
	assert_int_equal(t->c->rs, RS_IDLE);
}

/*
 * method target answered by resp (then the backend half-closes when
 * backend_close): run until the response is out (RESPONSE_END sent) and
 * return what the client got.
 */
static char *
get(struct t *t, const char *method, const char *target, const char *resp,
    int backend_close, int client_close, int *mode, int *eof)
{
	struct ipc_msg m = client_close ?
	    m_fwd(1, method, target, "Connection", "close", NULL) :
	    m_fwd(1, method, target, NULL);
	char *got;

	fb_queue(resp, backend_close);
	assert_int_equal(t_send_run(t, &m), 0);
	assert_true(drive_until_end(t->c));
	expect_forwarding(t);
	*mode = expect_end(t);
	got = client_gets(t, 50, NULL, eof);
	return got;
}

/* ---------------------------------------------------------------- framing */

static void
test_framing(void **state)
{
	struct t t;
	struct ipc_msg m;
	char *got;
	int mode, eof;

	(void)state;
	/*
	 * Content-Length: exactly that many bytes; hop fields dropped, the
	 * backend's Container-Gateway replaced by ours (one: u_chain)
	 */
	t_open(&t, sock_up);
	got = get(&t, "GET", "/v1.41/info", "HTTP/1.1 200 OK\r\nContent-Type: "
	    "application/json\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5"
	    "\r\nProxy-Connection: x\r\ncontainer-gateway: another\r\n"
	    "Content-Length: 8\r\n\r\n{\"ok\":1}EXTRA", 0, 0, &mode, &eof);
	assert_string_equal(got, "HTTP/1.1 200 OK\r\nContent-Type: "
	    "application/json\r\nContent-Length: 8\r\n" CGV "\r\n{\"ok\":1}");
	assert_int_equal(mode, IPC_END_KEEP_ALIVE);
	assert_false(eof);
	assert_int_equal(t.c->bc.fd, -1);	/* nothing past the end is read */
	assert_log("access conn=");
	assert_log("method=GET path=/v1.41/info decision=allow code=- status=200");
	/* a light exchange kept alive: no VERDICT (get() saw RESPONSE_END
	   first), no DONE, the request is over with RESPONSE_END */
	assert_false(t.c->fw.synced);
	assert_int_equal(t.c->rs, RS_IDLE);
	assert_int_equal(t_recv(&t, &m), IPC_EAGAIN);
	/* a DONE now is a DONE out of state */
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(ipc_send(t.ch, &m, 0), IPC_OK);
	m = m_fwd(2, "GET", "/_ping", NULL);
	fb_queue("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK", 0);
	assert_int_equal(t_send_run(&t, &m), -1);
	assert_log("DONE not allowed now");
	t_close(&t, KILLED);

	/* the next request on the kept connection, without a DONE */
	t_open(&t, sock_up);
	(void)get(&t, "GET", "/v1.41/info", "HTTP/1.1 200 OK\r\nContent-"
	    "Length: 1\r\n\r\nx", 0, 0, &mode, &eof);
	assert_int_equal(mode, IPC_END_KEEP_ALIVE);
	child_done(&t, mode);
	m = m_fwd(2, "GET", "/_ping", NULL);
	fb_queue("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK", 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until_end(t.c));
	assert_string_equal(client_gets(&t, 50, NULL, &eof), "HTTP/1.1 200 OK"
	    "\r\nContent-Length: 2\r\n" CGV "\r\nOK");
	assert_int_equal(log_count("access conn="), 2);
	t_close(&t, HANDLED);

	/* chunked: verbatim through the last chunk and trailers, no further */
	t_open(&t, sock_up);
	got = get(&t, "GET", "/v1.41/info", "HTTP/1.1 200 OK\r\nTransfer-Encoding:"
	    " chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: 1\r\n\r\nGARBAGE", 0, 0,
	    &mode, &eof);
	assert_string_equal(got, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked"
	    "\r\n" CGV "\r\n5;x=y\r\nhello\r\n0\r\nT: 1\r\n\r\n");
	assert_int_equal(mode, IPC_END_KEEP_ALIVE);
	t_close(&t, HANDLED);

	/* no length: until the backend closes, then the connection closes */
	t_open(&t, sock_up);
	got = get(&t, "GET", "/v1.41/info", "HTTP/1.1 200 OK\r\nContent-Type: "
	    "text/plain\r\n\r\nall of it", 1, 0, &mode, &eof);
	assert_int_equal(mode, IPC_END_CLOSE);
	assert_string_equal(got, "HTTP/1.1 200 OK\r\nContent-Type: text/plain"
	    "\r\nConnection: close\r\n" CGV "\r\nall of it");
	assert_true(eof);
	assert_int_equal(t.c->client, -1);
	t_close(&t, HANDLED);

	/* HEAD, 204, 304: no body whatever the fields say */
	t_open(&t, sock_up);
	got = get(&t, "HEAD", "/_ping", "HTTP/1.1 200 OK\r\nContent-Length: 99"
	    "\r\n\r\nbody", 0, 0, &mode, &eof);
	assert_string_equal(got, "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n"
	    CGV "\r\n");
	assert_int_equal(mode, IPC_END_KEEP_ALIVE);
	t_close(&t, HANDLED);
	t_open(&t, sock_up);
	got = get(&t, "GET", "/v1.41/info", "HTTP/1.1 204 No Content\r\n\r\nX",
	    0, 0, &mode, &eof);
	assert_string_equal(got, "HTTP/1.1 204 No Content\r\n" CGV "\r\n");
	t_close(&t, HANDLED);

	/* interim responses are not relayed; the client asked to close */
	t_open(&t, sock_up);
	got = get(&t, "GET", "/v1.41/info", "HTTP/1.1 100 Continue\r\n\r\n"
	    "HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: "
	    "1\r\n\r\nx", 0, 1, &mode, &eof);
	assert_string_equal(got, "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n"
	    "Connection: close\r\n" CGV "\r\nx");
	assert_int_equal(mode, IPC_END_CLOSE);
	assert_true(eof);
	t_close(&t, HANDLED);
}

/* A body larger than the relay buffer arrives whole, in order. */
static void
test_large_body(void **state)
{
	static char resp[(3u << 20) + 128];
	size_t body = 3u << 20, hl, len, i;
	struct ipc_msg m;
	struct t t;
	char *got;
	int eof;

	(void)state;
	hl = (size_t)snprintf(resp, sizeof(resp), "HTTP/1.1 200 OK\r\n"
	    "Content-Length: %zu\r\n\r\n", body);
	for (i = 0; i < body; i++)
		resp[hl + i] = (char)('a' + i % 26);
	resp[hl + body] = '\0';
	t_open(&t, sock_up);
	fb_queue(resp, 0);
	m = m_fwd(1, "GET", "/v1.41/info", NULL);
	assert_int_equal(t_send_run(&t, &m), 0);
	got = client_gets(&t, 2000, &len, &eof);
	assert_int_equal(len, hl + body + strlen(CGV));
	for (i = 0; i < body; i++)
		if (got[len - body + i] != (char)('a' + i % 26))
			fail_msg("byte %zu differs", i);
	assert_true(t.c->end_sent);
	assert_int_equal(t.c->rs, RS_IDLE);	/* light, kept alive: over */
	/* the monitor held at most its buffer, never the whole body */
	assert_true(t.c->rp.down.cap <= RELAY_DOWN_MAX + HTTP_HEAD_MAX + IPC_DATA_MAX);
	t_close(&t, HANDLED);
}

/* ---------------------------------------------------------------- errors */

/* The monitor's own answer after forwarding (http.md §8.1, §10). */
static void
test_gateway_errors(void **state)
{
	int mode;
	static const struct {
		const char *resp;	/* NULL: backend closes at once */
		const char *detail;
	} bad[] = {
		{ "", "the backend closed without a response" },
		{ "HTTP/1.1 2000 OK\r\n\r\n", "the backend sent an invalid response" },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		    "the backend sent an invalid response" },
		/* B27: a switch nobody asked for */
		{ UPGRADED, "the backend sent an invalid response" },
	};
	struct ipc_msg m;
	struct t t;
	size_t i;
	char *got;
	int eof;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t_open(&t, sock_up);
		fb_queue(bad[i].resp, 1);
		m = m_fwd(1, "GET", "/v1.41/info", NULL);
		assert_int_equal(t_send_run(&t, &m), 0);
		assert_true(drive_until_end(t.c));
		expect_forwarding(&t);
		assert_int_equal(expect_end(&t), IPC_END_CLOSE);
		got = client_gets(&t, 50, NULL, &eof);
		if (strncmp(got, "HTTP/1.1 502 Bad Gateway\r\n", 26) != 0 ||
		    strstr(got, "container-gateway: backend-unreachable: ") == NULL)
			fail_msg("case %zu: %s", i, got);
		assert_true(eof);
		assert_log(bad[i].detail);
		assert_int_equal(log_count("access conn="), 1);
		assert_log("decision=error code=backend-unreachable status=502");
		t_close(&t, HANDLED);
	}

	/* no head in time: 504 (conn_on_timer) */
	t_open(&t, sock_up);
	unanswered_get(&t);
	assert_int_equal(conn_on_timer(t.c, t.c->bc.deadline), 0);
	assert_true(drive_until_end(t.c));
	got = client_gets(&t, 50, NULL, &eof);
	assert_true(strncmp(got, "HTTP/1.1 504 Gateway Timeout\r\n", 30) == 0);
	assert_log("decision=error code=backend-timeout status=504");
	assert_int_equal(log_count("access conn="), 1);
	t_close(&t, HANDLED);

	/* a body cut short: what came is relayed, then the connection closes */
	t_open(&t, sock_up);
	got = get(&t, "GET", "/v1.41/info", "HTTP/1.1 200 OK\r\nContent-Length: "
	    "100\r\n\r\nonly this", 1, 0, &mode, &eof);
	assert_int_equal(mode, IPC_END_CLOSE);
	assert_string_equal(got, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n"
	    CGV "\r\nonly this");
	assert_true(eof);
	assert_log("backend response body truncated: the backend closed early");
	t_close(&t, HANDLED);

	/* an invalid chunk: relayed up to it, then closed (the head was out) */
	t_open(&t, sock_up);
	fb_queue("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	    "3\r\nabc\r\nzz\r\n", 0);
	m = m_fwd(1, "GET", "/v1.41/info", NULL);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until_end(t.c));
	got = client_gets(&t, 50, NULL, &eof);
	assert_string_equal(got, "HTTP/1.1 200 OK\r\nTransfer-Encoding: "
	    "chunked\r\n" CGV "\r\n3\r\nabc\r\n");
	assert_true(eof);
	assert_log("truncated: invalid chunked framing");
	t_close(&t, HANDLED);
}

/*
 * doc/filters.md: a list answer reaches the client post-filtered to the
 * project's elements, its framing decoded and a new Content-Length written, on
 * the monitor's own routing of the target; an answer it cannot filter is a 502
 * before any byte of it reaches the client.
 */
static void
test_list_postfilter(void **state)
{
#define VOL(n, v)	"{\"Name\":\"" n "\",\"Labels\":{\"" KEY "\":\"" v "\"}}"
	static const char *const target = "/v1.41/volumes?filters=%7B%22label%22"
	    "%3A%5B%22org.apache.magpie.project%3D%2Fhome%2Fu%2Fproj%22%5D%7D";
	static const char body[] = "{\"Volumes\":[" VOL("vb", "/srv/b") ","
	    VOL("va", ROOT) ",{\"Name\":\"vu\",\"Labels\":null}],\"Warnings\":null}";
	static const char want_body[] = "{\"Volumes\":[" VOL("va", ROOT)
	    "],\"Warnings\":null}";
	static char chunked[1024];
	char want[1024], *got;
	struct ipc_msg m;
	struct t t;
	int i, eof;

	(void)state;
	snprintf(want, sizeof(want), "HTTP/1.1 200 X\r\nContent-Type: "
	    "application/json\r\nContent-Length: %zu\r\n" CGV "\r\n%s",
	    sizeof(want_body) - 1, want_body);
	snprintf(chunked, sizeof(chunked), "HTTP/1.1 200 X\r\nContent-Type: "
	    "application/json\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n%.7s\r\n"
	    "%zx\r\n%s\r\n0\r\n\r\n", body, sizeof(body) - 1 - 7, body + 7);
	t_open(&t, sock_up);
	fb_queue(http_resp(200, body), 0);
	fb_queue(chunked, 0);
	fb_queue(http_resp(200, "[]"), 0);
	for (i = 0; i < 3; i++) {
		log_reset();
		m = m_fwd((uint32_t)i + 1, "GET", target, NULL);
		assert_int_equal(t_send_run(&t, &m), 0);
		assert_true(drive_until_end(t.c));
		expect_forwarding(&t);
		got = client_gets(&t, 30, NULL, &eof);
		if (i < 2) {
			assert_string_equal(got, want);
			assert_int_equal(expect_end(&t), IPC_END_KEEP_ALIVE);
			assert_log("decision=allow code=- status=200");
		} else {
			assert_true(strncmp(got, "HTTP/1.1 502 ", 13) == 0);
			assert_int_equal(expect_end(&t), IPC_END_CLOSE);
			assert_log("the backend's list answer could not be filtered");
		}
		assert_int_equal(log_count("access conn="), 1);
		child_done(&t, i < 2 ? IPC_END_KEEP_ALIVE : IPC_END_CLOSE);
	}
	t_close(&t, HANDLED);
#undef VOL
}

/* ---------------------------------------------------------------- switch */

/* Ask for c1 (owned as c1id) so that attach routes verify. */
static void
own_c1(struct t *t)
{
	ask(t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
}

/* An attach with an Upgrade, the early bytes early[0..n) and their end. */
static void
attach(struct t *t, const char *target, const char *early, size_t n)
{
	struct ipc_msg m = m_fwd(1, "POST", target, "Content-Length", "0",
	    "Connection", "Upgrade", "Upgrade", "tcp", NULL);
	long long end = mono_ms() + 1000;

	assert_int_equal(t_send_run(t, &m), 0);
	/* the monitor reads its child again once the head is written */
	while (t->c->rs == RS_SENDING && mono_ms() < end)
		(void)drive(t->c, -1, 1);
	if (n > 0) {
		m = m_data(IPC_CLIENT_DATA, 1, early, n);
		assert_int_equal(t_send_run(t, &m), 0);
	}
	m = m_data(IPC_CLIENT_DATA, 1, "", 0);
	assert_int_equal(t_send_run(t, &m), 0);
}

/*
 * §14 B27, B28 (http.md §9.1): a raw relay only on attach / exec start and
 * only on the backend's 101 or a length-less 200 raw/multiplexed stream.
 * Anything else stays an HTTP response, and the early bytes are dropped.
 */
static void
relay_case(const char *what, const char *resp, int want_switch)
{
	struct t t;
	char *got;
	size_t len;
	int eof;

	t_open(&t, sock_up);
	own_c1(&t);
	fb_queue(resp, 0);
	attach(&t, ATTACH, "early", 5);
	if (want_switch) {
		if (!drive_until(t.c, RS_SWITCHED))
			fail_msg("%s: not switched (state %d)", what, t.c->rs);
		/* the head verbatim (§9.2), the early bytes first */
		got = client_gets(&t, 30, &len, &eof);
		if (strcmp(got, resp) != 0)
			fail_msg("%s: head %s", what, got);
		assert_int_equal(send(t.cl, "stdin", 5, 0), 5);
		pump(t.c);
		if (strstr(fb_read(1), "\r\n\r\nearlystdin") == NULL)
			fail_msg("%s: client bytes not relayed in order", what);
		t_close(&t, HANDLED);
		return;
	}
	(void)drive(t.c, -1, 200);
	if (t.c->rs == RS_SWITCHED)
		fail_msg("%s: switched", what);
	/* the early bytes never reached the backend */
	if (strstr(fb_read(1), "early") != NULL)
		fail_msg("%s: early bytes forwarded without a switch", what);
	t_close(&t, HANDLED);
}

static void
test_bypass_relay(void **state)
{
	(void)state;
	/* B27 on attach: an ordinary response (framed, or not a stream type) */
	relay_case("B27 attach 404 JSON", http_resp(404, "{\"message\":\"no such "
	    "container\"}"), 0);
	relay_case("B27 attach raw with a length",
	    "HTTP/1.1 200 OK\r\n" RAW_CT "Content-Length: 3\r\n\r\nabc", 0);
	relay_case("B27 attach mux chunked",
	    "HTTP/1.1 200 OK\r\n" MUX_CT "Transfer-Encoding: chunked\r\n\r\n", 0);
	relay_case("B27 attach 200 JSON without a length",
	    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n", 0);
	/* allowed: the real switches on attach (B28: 200 raw stream, and 101) */
	relay_case("B28 attach raw 200", "HTTP/1.1 200 OK\r\n" RAW_CT "\r\n", 1);
	relay_case("B28 attach multiplexed 200", "HTTP/1.1 200 OK\r\n" MUX_CT
	    "\r\n", 1);
	relay_case("B27 attach 101", UPGRADED, 1);
}

/*
 * The stdin stall (doc/privsep.md), as a test: both directions of a switched
 * stream at once, 8 MiB each way, through a backend that reads only while
 * it can write (like podman behind `cat`). The monitor must keep each
 * direction moving on its own; a relay that stops reading the backend
 * while the other direction is blocked deadlocks here and fails the
 * deadline. Then the half-closes travel both ways and the stream ends.
 */
static void
test_switched_duplex(void **state)
{
	const size_t total = 8u << 20;
	char *out = xmalloc(total), *in = xmalloc(total), buf[65536];
	size_t sent = 0, got = 0, i;
	long long end;
	struct t t;
	ssize_t n;
	int shut = 0, eof = 0;

	(void)state;
	for (i = 0; i < total; i++)
		out[i] = (char)(i * 7 + i / 4096);
	t_open(&t, sock_up);
	own_c1(&t);
	fb_queue_echo(UPGRADED);
	attach(&t, ATTACH, NULL, 0);
	assert_true(drive_until(t.c, RS_SWITCHED));
	n = recv(t.cl, buf, sizeof(buf), MSG_DONTWAIT);	/* the 101 head */
	assert_int_equal(n, (ssize_t)strlen(UPGRADED));
	end = mono_ms() + 20000;
	while (!eof && mono_ms() < end) {
		if (sent < total) {
			n = send(t.cl, out + sent, total - sent, MSG_DONTWAIT);
			if (n > 0)
				sent += (size_t)n;
		} else if (!shut) {
			shutdown(t.cl, SHUT_WR);	/* stdin ends */
			shut = 1;
		}
		while ((n = recv(t.cl, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
			assert_true(got + (size_t)n <= total);
			memcpy(in + got, buf, (size_t)n);
			got += (size_t)n;
		}
		if (n == 0)
			eof = 1;
		(void)drive(t.c, -1, 1);
	}
	if (got != total || !eof)
		fail_msg("stalled: %zu of %zu bytes sent, %zu echoed, eof %d",
		    sent, total, got, eof);
	assert_memory_equal(in, out, total);
	/* both directions done: the exchange ended, the child is told */
	assert_true(drive_until_end(t.c));
	assert_true(t.c->fw.synced);		/* a hijack route */
	expect_forwarding(&t);
	assert_int_equal(expect_end(&t), IPC_END_CLOSE);
	assert_int_equal(t.c->bc.fd, -1);
	assert_int_equal(t.c->client, -1);
	/* the buffers stayed bounded */
	assert_int_equal(log_count("access conn="), 1);
	free(out);
	free(in);
	t_close(&t, HANDLED);
}

/* The early bytes: bounded, ended once, on hijack routes only. */
static void
test_early_bytes(void **state)
{
	static char big[IPC_DATA_MAX];
	struct ipc_msg m;
	struct t t;
	int i;

	(void)state;
	t_open(&t, sock_up);
	own_c1(&t);
	fb_queue(NULL, 0);
	m = m_fwd(1, "POST", ATTACH, "Content-Length", "0", "Connection",
	    "Upgrade", "Upgrade", "tcp", NULL);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_RESPONSE));
	for (i = 0; i < IPC_EARLY_MAX / IPC_DATA_MAX; i++) {
		m = m_data(IPC_CLIENT_DATA, 1, big, sizeof(big));
		assert_int_equal(t_send_run(&t, &m), 0);
	}
	m = m_data(IPC_CLIENT_DATA, 1, big, sizeof(big));
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("more than 262144 early stream bytes");

	t_open(&t, sock_up);
	own_c1(&t);
	fb_queue(NULL, 0);
	attach(&t, ATTACH, "x", 1);
	m = m_data(IPC_CLIENT_DATA, 1, "y", 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("CLIENT_DATA after its end");

	/* a route that does not hijack */
	t_open(&t, sock_up);
	unanswered_get(&t);
	m = m_data(IPC_CLIENT_DATA, 1, "GET /x HTTP/1.1\r\n\r\n", 19);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("CLIENT_DATA on a route that does not hijack");
}

/* ---------------------------------------------------------------- hang-ups */

static void
test_client_gone(void **state)
{
	struct ipc_msg m;
	struct t t;
	int eof;

	(void)state;
	/* a quiet stream (logs -f): the client leaves, everything goes */
	t_open(&t, sock_up);
	fb_queue("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	    "5\r\nline\n\r\n", 0);
	m = m_fwd(1, "GET", "/v1.41/info", NULL);
	assert_int_equal(t_send_run(&t, &m), 0);
	(void)client_gets(&t, 50, NULL, &eof);
	assert_int_equal(t.c->rs, RS_RESPONSE);
	close(t.cl);
	t.cl = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(drive_until_end(t.c));
	expect_forwarding(&t);
	assert_int_equal(expect_end(&t), IPC_END_CLOSE);
	assert_int_equal(t.c->bc.fd, -1);
	assert_int_equal(t.c->client, -1);
	(void)fb_read(0);			/* the forwarded head */
	assert_int_equal(recv(fb.fds[0], rbuf, 1, MSG_DONTWAIT), 0);
	assert_int_equal(log_count("access conn="), 1);	/* at the head */
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	/* the connection is over: no further request */
	m = m_fwd(2, "GET", "/_ping", NULL);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* before any head: the exchange is abandoned, and logged once */
	t_open(&t, sock_up);
	unanswered_get(&t);
	close(t.cl);
	t.cl = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(drive_until_end(t.c));
	assert_log("decision=error code=- status=0 duration_ms=");
	/* forwarded: the backend may have acted on it, never "abandoned" */
	assert_log("detail=\"the client left before the response ended; the "
	    "request was forwarded: the backend may have acted on it\" "
	    "outcome=allowed forwarded=yes by=monitor");
	assert_int_equal(log_count("abandoned"), 0);
	assert_int_equal(log_count("access conn="), 1);
	t_close(&t, HANDLED);

	/* a half-close is no hang-up (http.md §1.4): the answer still comes */
	t_open(&t, sock_up);
	unanswered_get(&t);
	shutdown(t.cl, SHUT_WR);
	pump(t.c);
	assert_int_equal(t.c->rs, RS_RESPONSE);
	assert_int_equal(write(fb.fds[0], "HTTP/1.1 200 OK\r\nContent-Length: 1"
	    "\r\n\r\nz", 39), 39);
	assert_true(drive_until_end(t.c));
	assert_true(strstr(client_gets(&t, 30, NULL, &eof), "\r\n\r\nz") != NULL);
	t_close(&t, HANDLED);

	/* the child's end: the exchange is abandoned and logged */
	t_open(&t, sock_up);
	unanswered_get(&t);
	conn_abandon_exchange(t.c, "the request parser ended");
	assert_log("the request parser ended; the request was forwarded");
	assert_log("outcome=allowed forwarded=yes");
	conn_abandon_exchange(t.c, "twice");
	assert_int_equal(log_count("access conn="), 1);
	t_close(&t, HANDLED);
}

/*
 * The client is the monitor's concern only while it answers a forwarded
 * request: a refused VERDICT or a request served and kept alive leaves it
 * to the child (no POLLHUP to spin on meanwhile).
 */
static void
test_client_watched(void **state)
{
	struct pollfd p[CONN_POLLFDS];
	struct ipc_msg m;
	struct t t;
	int eof, mode;

	(void)state;
	t_open(&t, sock_missing);
	m = m_fwd(1, "GET", "/v1.41/info", NULL);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_WAIT_DONE);	/* 502 before forwarding */
	close(t.cl);				/* even a hang-up is not ours */
	t.cl = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(conn_pollfds(t.c, p), 1);
	t_close(&t, HANDLED);

	t_open(&t, sock_up);
	unanswered_get(&t);
	assert_int_equal(conn_pollfds(t.c, p), 3);
	assert_int_equal(p[2].fd, t.c->client);
	assert_int_equal(p[2].events, 0);		/* hang-ups only */
	t_close(&t, HANDLED);

	t_open(&t, sock_up);
	(void)get(&t, "GET", "/_ping", "HTTP/1.1 200 OK\r\nContent-Length: 2"
	    "\r\n\r\nOK", 0, 0, &mode, &eof);
	assert_int_equal(mode, IPC_END_KEEP_ALIVE);
	assert_int_equal(conn_pollfds(t.c, p), 1);
	t_close(&t, HANDLED);
}

/*
 * The child breaks the protocol after the whole create was forwarded and
 * before the answer: it is killed at once, but the backend's answer is
 * still read (monitor/exchange/drain.c) and the record says forwarded, with the
 * backend's status and the new container's id; never "abandoned".
 */
static void
test_orphaned_answer(void **state)
{
	static const char ans[] = "HTTP/1.1 201 Created\r\nContent-Type: "
	    "application/json\r\nContent-Length: 13\r\n\r\n{\"Id\":\"c9id\"}";
	static const char body[] = "{\"Image\":\"a\",\"HostConfig\":"
	    "{\"NetworkMode\":\"none\"},\"Labels\":{\"" KEY "\":\"" ROOT "\"}}";
	struct ipc_msg m;
	struct t t;

	(void)state;
	t_open(&t, sock_up);
	/* the image step's inspect (monitor/exchange/image.c): a missing image passes */
	fb_queue(http_resp(404, "{\"message\":\"no such image\"}"), 1);
	fb_queue(NULL, 0);
	m = m_fwd_json(1, "/v1.41/containers/create?name=web", strlen(body));
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, body, strlen(body));
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_RESPONSE));
	m = m_fwd(1, "GET", "/_ping", NULL);	/* FORWARD not allowed now */
	assert_int_equal(t_send_run(&t, &m), -1);
	assert_log("protocol violation from request parser");
	assert_int_equal(log_count("access conn="), 0);	/* not yet */
	assert_int_equal(gw.ndrains, 1);
	/* the backend answers after all: the record names what it did */
	fb_accept();
	assert_int_equal(send(fb.fds[fb.nfds - 1], ans, sizeof(ans) - 1, 0),
	    (ssize_t)sizeof(ans) - 1);
	assert_int_equal(drain_tick(&gw, mono_ms() + 3600000), 0);
	assert_int_equal(gw.ndrains, 0);
	assert_log("method=POST path=/v1.41/containers/create decision=error "
	    "code=- status=0");
	assert_log("detail=\"FORWARD not allowed now\" outcome=violation "
	    "forwarded=yes by=monitor req=1 api=compat route=containers/create "
	    "kind=container name=web id=c9id image=a label=" ROOT
	    " backend_status=201 target=");
	assert_int_equal(log_count("access conn="), 1);
	assert_int_equal(log_count("abandoned"), 0);
	t_close(&t, KILLED);

	/* the child ends (no violation), the backend never answers: allowed,
	   forwarded, no status, once the deadline passes */
	t_open(&t, sock_up);
	unanswered_get(&t);
	conn_abandon(t.c, "the request parser ended");
	assert_int_equal(gw.ndrains, 1);
	assert_true(drain_tick(&gw, mono_ms()) > 0);	/* waits */
	assert_int_equal(log_count("access conn="), 0);
	assert_int_equal(drain_tick(&gw, mono_ms() + 3600000), 0);
	assert_log("the request parser ended; the request was forwarded: the "
	    "backend may have acted on it\" outcome=allowed forwarded=yes");
	assert_int_equal(log_count("access conn="), 1);
	t_close(&t, HANDLED);
}

/* ---------------------------------------------------------------- uploads */

/*
 * A chunked upload to the owned c1 forwarded to a backend that never
 * answers, its first 9 body bytes relayed (RS_STREAM).
 */
static void
upload_begun(struct t *t, const char *method, const char *target)
{
	struct ipc_msg m;

	t_open(t, sock_up);
	own_c1(t);
	fb_queue(NULL, 0);
	m = m_fwd(1, method, target, "Transfer-Encoding", "chunked", NULL);
	assert_int_equal(t_send_run(t, &m), 0);
	assert_true(drive_until(t->c, RS_STREAM));
	m = m_data(IPC_BODY, 1, "tar bytes", 9);
	assert_int_equal(t_send_run(t, &m), 0);
	pump(t->c);
}

/* A streamed upload the child gives up on: truncated, logged once. */
static void
test_child_gives_up(void **state)
{
	struct ipc_msg m;
	struct t t;

	(void)state;
	upload_begun(&t, "PUT", "/v1.41/containers/c1id/archive?path=%2Ftmp");
	m = m_simple(IPC_DONE, 1);		/* the client left mid-body */
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_IDLE);
	expect_forwarding(&t);
	assert_int_equal(expect_end(&t), IPC_END_CLOSE);
	/*
	 * The backend got no last chunk: it acts on nothing (http.md §5.1).
	 * An archive's bytes wait for a checker's approval (doc/privsep.md
	 * "Builds and archives"; this fixture has no spare to make one), so
	 * not even they went out.
	 */
	assert_true(strstr(fb_read(1), "tar bytes") == NULL);
	assert_int_equal(recv(fb.fds[1], rbuf, 1, MSG_DONTWAIT), 0);
	assert_log("the request body did not complete; the request was "
	    "forwarded");
	assert_int_equal(log_count("method=PUT"), 1);
	m = m_fwd(2, "GET", "/_ping", NULL);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
}

/*
 * An upload whose child stops moving body bytes: ended once the backend
 * timeout passes while the monitor waits for it (not while the monitor
 * itself holds the body back), with a record that says forwarded.
 */
static void
test_upload_stalls(void **state)
{
	struct ipc_msg m;
	struct t t;
	long long d;

	(void)state;
	/*
	 * an image import, which no checker reads: archive puts, builds and
	 * loads wait for theirs, and with no spare in this fixture the
	 * monitor would hold their bytes itself
	 */
	upload_begun(&t, "POST", IMPORT);
	d = t.c->body_deadline;
	assert_true(d > 0);
	/* not yet: nothing happens */
	assert_int_equal(conn_on_body_timer(t.c, d - 1), d);
	assert_false(t.c->dead);
	/* the monitor holds bytes back itself: the deadline moves on */
	fifo_put(&t.c->bc.out, "x", 1);
	assert_true(conn_on_body_timer(t.c, d) > d);
	assert_false(t.c->dead);
	fifo_free(&t.c->bc.out);
	/* the child is late: ended, its record says forwarded */
	assert_int_equal(conn_on_body_timer(t.c, t.c->body_deadline), 0);
	assert_true(t.c->dead);
	assert_log("moved no request body bytes for");
	assert_log("method=POST path=/v4.0.0/libpod/images/import "
	    "decision=error code=- status=0");
	assert_log("outcome=allowed forwarded=yes");
	assert_int_equal(log_count("access conn="), 1);
	t_close(&t, KILLED);

	/* a JSON body that stops halfway: never forwarded, abandoned */
	t_open(&t, sock_up);
	m = m_fwd_json(1, "/v1.41/volumes/create", 20);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, "{\"Name\":", 8);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_BODY);
	assert_int_equal(conn_on_body_timer(t.c, t.c->body_deadline), 0);
	assert_true(t.c->dead);
	assert_log("detail=\"abandoned: the request parser moved no request "
	    "body bytes for");
	assert_log("outcome=abandoned forwarded=no");
	t_close(&t, KILLED);
}

/*
 * The backend answers before the upload is complete: the answer reaches
 * the client (after the child's first body message, which follows its
 * "100 Continue"), the connection closes after it, and what the child
 * still sends crosses RESPONSE_END and is dropped.
 */
static void
test_early_answer(void **state)
{
	struct ipc_msg m;
	struct t t;
	char *got;
	int eof;

	(void)state;
	t_open(&t, sock_up);
	fb_queue("HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\nno", 0);
	m = m_fwd(1, "POST", IMPORT, "Transfer-Encoding",
	    "chunked", NULL);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_STREAM));
	(void)drive(t.c, -1, 50);
	/* nothing before the child's first BODY (its 100 Continue goes first) */
	assert_int_equal(recv(t.cl, rbuf, 1, MSG_DONTWAIT), -1);
	assert_int_equal(t.c->rs, RS_STREAM);
	m = m_data(IPC_BODY, 1, "abc", 3);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until_end(t.c));
	assert_true(t.c->fw.synced);		/* a streamed body */
	expect_forwarding(&t);
	assert_int_equal(expect_end(&t), IPC_END_CLOSE);
	got = client_gets(&t, 30, NULL, &eof);
	assert_string_equal(got, "HTTP/1.1 400 Bad Request\r\nContent-Length: 2"
	    "\r\nConnection: close\r\n" CGV "\r\nno");
	assert_true(eof);
	/* crossing messages are dropped, DONE is the sync point */
	m = m_data(IPC_BODY, 1, "def", 3);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_BODY_END, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_IDLE);
	assert_int_equal(log_count("access conn="), 1);
	t_close(&t, HANDLED);
}

/*
 * doc/reliability.md "Memory bounds": an upload the backend does not take
 * stays bounded in the monitor: the child's socket is not read while
 * RELAY_UP_MAX waits.
 */
static void
test_upload_bounded(void **state)
{
	static char chunk[IPC_DATA_MAX];
	struct pollfd p[CONN_POLLFDS];
	struct ipc_msg m;
	struct t t;
	int i, n, reads = 1;

	(void)state;
	memset(chunk, 'u', sizeof(chunk));
	t_open(&t, sock_up);
	/* a backend that accepts and never reads: a tiny receive buffer */
	fb_queue(NULL, 0);
	m = m_fwd(1, "POST", IMPORT, "Content-Length",
	    "1073741824", NULL);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_STREAM));
	for (i = 0; i < 200 && reads; i++) {
		m = m_data(IPC_BODY, 1, chunk, sizeof(chunk));
		assert_int_equal(t_send_run(&t, &m), 0);
		pump(t.c);
		n = conn_pollfds(t.c, p);
		assert_true(n >= 1 && p[0].fd == t.c->ipc);
		reads = (p[0].events & POLLIN) != 0;
		assert_true(t.c->bc.out.len <= RELAY_UP_MAX + sizeof(chunk));
	}
	assert_false(reads);
	assert_true(t.c->bc.out.cap <= 2 * (RELAY_UP_MAX + sizeof(chunk)));
	t_close(&t, HANDLED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_framing),
		cmocka_unit_test(test_large_body),
		cmocka_unit_test(test_gateway_errors),
		cmocka_unit_test(test_list_postfilter),
		cmocka_unit_test(test_bypass_relay),
		cmocka_unit_test(test_switched_duplex),
		cmocka_unit_test(test_early_bytes),
		cmocka_unit_test(test_client_gone),
		cmocka_unit_test(test_orphaned_answer),
		cmocka_unit_test(test_client_watched),
		cmocka_unit_test(test_child_gives_up),
		cmocka_unit_test(test_upload_stalls),
		cmocka_unit_test(test_early_answer),
		cmocka_unit_test(test_upload_bounded),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
