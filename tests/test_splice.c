/*
 * Large response bodies and switched streams go through the monitor's
 * relay pipe (splice(2); monitor/exchange/relay.c pipe_from_backend, to_client): the bytes the
 * client gets are exactly the backend's, the framing is followed by counting
 * (chunk lines split across the backend's writes, a body that ends exactly
 * where the pipe's bound does, bytes past the end), and a client that leaves
 * mid-splice ends the exchange once. The world is tests/monitor_fixture.h: the
 * test plays the child, the client and, with writes of its own, the backend.
 */
#include "monitor/conn.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"
#include "tests/monitor_fixture.h"

#define BIG	(3u << 20)

static char body[BIG + 1];	/* 'a'..'z' repeating */
static char acc[BIG + (1u << 16)];

/* What the client has now, appended to acc at *got. */
static void
take(struct t *t, size_t *got)
{
	size_t len;
	int eof;
	char *c;

	c = cl_read(t, &len, &eof);
	assert_true(*got + len < sizeof(acc));
	memcpy(acc + *got, c, len);
	*got += len;
}

/* Let the monitor relay for ms, the client reading into acc at *got. */
static void
drain(struct t *t, size_t *got, int ms)
{
	long long end = mono_ms() + ms;

	while (mono_ms() < end) {
		pump(t->c);
		take(t, got);
	}
}

/*
 * The backend writes p[0..n) on its connection, the monitor relaying
 * meanwhile (a full socket waits for it); the client reads into acc at
 * *got.
 */
static void
fb_write(struct t *t, const char *p, size_t n, size_t *got)
{
	ssize_t w;

	while (n > 0) {
		w = send(fb.fds[0], p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
		}
		pump(t->c);
		take(t, got);
	}
}

/* A GET forwarded, unanswered yet; the forwarded head read. */
static void
forwarded_get(struct t *t)
{
	unanswered_get(t);
	(void)fb_read(0);
}

/* The head the client gets for a backend head of "HTTP/1.1 200 OK" + f. */
static const char *
client_head(const char *f)
{
	static char h[512];

	snprintf(h, sizeof(h), "HTTP/1.1 200 OK\r\n%s" CGV "\r\n", f);
	return h;
}

/*
 * The rest of the exchange after a whole response: RESPONSE_END (a light
 * GET: no VERDICT before it), DONE unless kept alive (privsep.md §8).
 */
static int
finish(struct t *t)
{
	struct ipc_msg m;
	int mode;

	assert_true(drive_until_end(t->c));
	assert_false(t->c->fw.synced);
	t_expect_end(t, &m);
	mode = m.u.response_end.mode;
	assert_int_equal(t->c->rp.dp.fd[0], -1);	/* the pipe is given back */
	if (mode == IPC_END_KEEP_ALIVE) {
		assert_int_equal(t->c->rs, RS_IDLE);
		return mode;
	}
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(t, &m), 0);
	return mode;
}

/*
 * Chunked, with chunk lines split across the backend's writes and large
 * chunks spliced: the client gets the backend's bytes as they were.
 */
static void
test_chunk_lines_split(void **state)
{
	const char *head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
	size_t got = 0, hl;
	char want[256];
	struct t t;
	int used_pipe;

	(void)state;
	t_open(&t, sock_up);
	forwarded_get(&t);
	fb_write(&t, head, strlen(head), &got);
	fb_write(&t, "9c", 2, &got);		/* 40000 = 0x9c40, split */
	fb_write(&t, "40\r", 3, &got);
	fb_write(&t, "\n", 1, &got);
	fb_write(&t, body, 40000, &got);
	used_pipe = t.c->rp.dp.fd[0] >= 0;
	fb_write(&t, "\r", 1, &got);		/* CRLF split from the line */
	fb_write(&t, "\n10000;ext=1\r\n", 14, &got);
	fb_write(&t, body + 40000, 65536, &got);
	fb_write(&t, "\r\n3\r\nxyz\r\n0\r\nTrailer: t\r\n\r\n", 27, &got);
	assert_true(used_pipe);
	drain(&t, &got, 100);
	hl = strlen(client_head("Transfer-Encoding: chunked\r\n"));
	assert_int_equal(got, hl + 6 + 40000 + 15 + 65536 + 27);
	assert_memory_equal(acc, client_head("Transfer-Encoding: chunked\r\n"),
	    hl);
	assert_memory_equal(acc + hl, "9c40\r\n", 6);
	assert_memory_equal(acc + hl + 6, body, 40000);
	snprintf(want, sizeof(want), "\r\n10000;ext=1\r\n");
	assert_memory_equal(acc + hl + 40006, want, 15);
	assert_memory_equal(acc + hl + 40021, body + 40000, 65536);
	assert_memory_equal(acc + hl + 40021 + 65536,
	    "\r\n3\r\nxyz\r\n0\r\nTrailer: t\r\n\r\n", 27);
	assert_int_equal(finish(&t), IPC_END_KEEP_ALIVE);
	t_close(&t, HANDLED);
}

/*
 * Bodies that end exactly where the pipe's bound (RELAY_DOWN_MAX) does:
 * a Content-Length of twice the bound, a chunk of exactly the bound whose
 * end comes in a later write; and bytes past a chunked body's end, in the
 * bytes the monitor peeks at, are never relayed.
 */
static void
test_pipe_boundary(void **state)
{
	const char *head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
	char resp[128], line[32];
	size_t got = 0, hl, n, bl;
	struct t t;

	(void)state;
	/* Content-Length: 2 x RELAY_DOWN_MAX */
	t_open(&t, sock_up);
	forwarded_get(&t);
	n = (size_t)snprintf(resp, sizeof(resp), "HTTP/1.1 200 OK\r\n"
	    "Content-Length: %u\r\n\r\n", 2 * RELAY_DOWN_MAX);
	fb_write(&t, resp, n, &got);
	fb_write(&t, body, 2 * RELAY_DOWN_MAX, &got);
	drain(&t, &got, 100);
	hl = strlen(client_head("Content-Length: 524288\r\n"));
	assert_int_equal(got, hl + 2 * RELAY_DOWN_MAX);
	assert_memory_equal(acc + hl, body, 2 * RELAY_DOWN_MAX);
	assert_int_equal(finish(&t), IPC_END_KEEP_ALIVE);
	t_close(&t, HANDLED);

	/* one chunk of exactly RELAY_DOWN_MAX, its CRLF and the end later */
	t_open(&t, sock_up);
	forwarded_get(&t);
	got = 0;
	fb_write(&t, head, strlen(head), &got);
	bl = (size_t)snprintf(line, sizeof(line), "%x\r\n", RELAY_DOWN_MAX);
	fb_write(&t, line, bl, &got);
	fb_write(&t, body, RELAY_DOWN_MAX, &got);
	drain(&t, &got, 50);
	assert_int_equal(t.c->rs, RS_RESPONSE);	/* not over yet */
	fb_write(&t, "\r\n0\r\n\r\nEXTRA BYTES", 18, &got);
	drain(&t, &got, 100);
	assert_int_equal(finish(&t), IPC_END_KEEP_ALIVE);
	hl = strlen(client_head("Transfer-Encoding: chunked\r\n"));
	assert_int_equal(got, hl + bl + RELAY_DOWN_MAX + 7);
	assert_memory_equal(acc + hl + bl, body, RELAY_DOWN_MAX);
	assert_memory_equal(acc + hl + bl + RELAY_DOWN_MAX, "\r\n0\r\n\r\n", 7);
	t_close(&t, HANDLED);
}

/* A Content-Length body spliced whole, compared byte for byte. */
static void
test_length_exact(void **state)
{
	size_t got = 0, n, hl;
	char resp[128];
	struct t t;

	(void)state;
	t_open(&t, sock_up);
	forwarded_get(&t);
	n = (size_t)snprintf(resp, sizeof(resp), "HTTP/1.1 200 OK\r\n"
	    "Content-Length: %u\r\n\r\n", BIG);
	fb_write(&t, resp, n, &got);
	fb_write(&t, body, 1u << 20, &got);
	assert_true(t.c->rp.dp.fd[0] >= 0);	/* spliced, not copied */
	assert_true(t.c->rp.down.cap <= HTTP_HEAD_MAX + IPC_DATA_MAX);
	fb_write(&t, body + (1u << 20), BIG - (1u << 20), &got);
	drain(&t, &got, 100);
	hl = strlen(client_head("Content-Length: 3145728\r\n"));
	assert_int_equal(got, hl + BIG);
	assert_memory_equal(acc + hl, body, BIG);
	assert_int_equal(finish(&t), IPC_END_KEEP_ALIVE);
	t_close(&t, HANDLED);
}

/*
 * The client leaves while the monitor splices to it: the exchange ends
 * once (one access line, RESPONSE_END close), the backend and the pipe
 * are closed, the monitor goes on (SIGPIPE is ignored, as in serve.c).
 */
static void
test_client_gone_mid_splice(void **state)
{
	size_t got = 0, n;
	char resp[128], buf[65536];
	struct ipc_msg m;
	struct t t;

	(void)state;
	t_open(&t, sock_up);
	forwarded_get(&t);
	n = (size_t)snprintf(resp, sizeof(resp), "HTTP/1.1 200 OK\r\n"
	    "Content-Length: %u\r\n\r\n", 64u << 20);
	fb_write(&t, resp, n, &got);
	/* the backend writes while the client reads a little, then leaves */
	for (n = 0; n < 8; n++) {
		(void)send(fb.fds[0], body, 1u << 20, MSG_DONTWAIT |
		    MSG_NOSIGNAL);
		pump(t.c);
		(void)recv(t.cl, buf, sizeof(buf), MSG_DONTWAIT);
	}
	assert_true(t.c->rp.dp.fd[0] >= 0);
	assert_int_equal(t.c->rs, RS_RESPONSE);
	close(t.cl);
	t.cl = open("/dev/null", O_RDONLY | O_CLOEXEC);
	(void)send(fb.fds[0], body, 1u << 20, MSG_DONTWAIT | MSG_NOSIGNAL);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	t_expect_end(&t, &m);	/* a light GET: no VERDICT */
	assert_int_equal(m.u.response_end.mode, IPC_END_CLOSE);
	assert_int_equal(t.c->client, -1);
	assert_int_equal(t.c->bc.fd, -1);
	assert_int_equal(t.c->rp.dp.fd[0], -1);
	assert_int_equal(log_count("access conn="), 1);
	t_close(&t, HANDLED);
}

/* ---------------------------------------------------------------- uploads */

/* What the backend received on connection 0, appended to out at *n. */
static void
fb_take(char *out, size_t cap, size_t *n)
{
	ssize_t r;

	while (*n < cap && (r = recv(fb.fds[0], out + *n, cap - *n,
	    MSG_DONTWAIT)) > 0)
		*n += (size_t)r;
}

/*
 * An upload (libpod images/import) with the field name: value forwarded, its
 * VERDICT and BODY_PIPE taken: the test plays the child from there.
 */
static void
upload(struct t *t, const char *name, const char *value)
{
	struct ipc_msg m;

	t_open(t, sock_up);
	fb_queue(NULL, 0);
	m = m_fwd(1, "POST", IMPORT, name, value, NULL);
	assert_int_equal(t_send_run(t, &m), 0);
	assert_true(drive_until(t->c, RS_STREAM));
	t_expect_msg(t, IPC_VERDICT, &m);
	(void)t_recv(t, &m);		/* takes the BODY_PIPE aside */
	assert_true(fx_body_pipe >= 0);
}

/* The backend reads for 100 ms while the monitor writes (pump). */
static void
backend_gets(struct t *t, char *out, size_t cap, size_t *n)
{
	long long end = mono_ms() + 100;

	while (mono_ms() < end) {
		pump(t->c);
		fb_take(out, cap, n);
	}
}

/* The test plays the child: body bytes written into the offered pipe. */
static void
pipe_body(struct t *t, const char *p, size_t n)
{
	struct ipc_msg m = m_simple(IPC_BODY_SPLICED, 1);

	assert_true(fx_body_pipe >= 0);
	assert_int_equal(write(fx_body_pipe, p, n), (ssize_t)n);
	m.u.body_spliced.len = (uint32_t)n;
	assert_int_equal(t_send_run(t, &m), 0);
}

/*
 * A streamed request body through the body pipe (BODY_PIPE after VERDICT,
 * BODY_SPLICED): the monitor frames exactly what was announced, mixed
 * with BODY messages in their order, and the backend gets a valid chunked
 * body; a Content-Length body goes through unframed.
 */
static void
test_body_pipe(void **state)
{
	static char got[1 << 20];
	const char *want;
	struct ipc_msg m;
	size_t n = 0, hl;
	struct t t;
	char *e;

	(void)state;
	upload(&t, "Transfer-Encoding", "chunked");
	pipe_body(&t, body, 100000);
	m = m_data(IPC_BODY, 1, "tail", 4);
	assert_int_equal(t_send_run(&t, &m), 0);
	pipe_body(&t, body + 100000, 3);
	m = m_simple(IPC_BODY_END, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	backend_gets(&t, got, sizeof(got), &n);
	e = memmem(got, n, "\r\n\r\n", 4);
	assert_non_null(e);
	hl = (size_t)(e + 4 - got);
	assert_memory_equal(got + hl, "186a0\r\n", 7);
	assert_memory_equal(got + hl + 7, body, 100000);
	want = "\r\n4\r\ntail\r\n3\r\n";
	assert_memory_equal(got + hl + 100007, want, strlen(want));
	assert_memory_equal(got + hl + 100007 + strlen(want), body + 100000, 3);
	assert_int_equal(n, hl + 100007 + strlen(want) + 3 + 7);
	assert_memory_equal(got + n - 7, "\r\n0\r\n\r\n", 7);
	t_close(&t, HANDLED);

	/* Content-Length: the bytes as they are */
	upload(&t, "Content-Length", "70000");
	pipe_body(&t, body, 70000);
	m = m_simple(IPC_BODY_END, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	n = 0;
	backend_gets(&t, got, sizeof(got), &n);
	e = memmem(got, n, "\r\n\r\n", 4);
	assert_non_null(e);
	hl = (size_t)(e + 4 - got);
	assert_int_equal(n, hl + 70000);
	assert_memory_equal(got + hl, body, 70000);
	t_close(&t, HANDLED);
}

/*
 * While announced bytes wait for the backend, the child's socket stays
 * read: further announcements make the next batch, framed as
 * one chunk once the first is out; any other message (BODY, BODY_END)
 * waits in the stash until then, so the backend gets every byte in
 * order.
 */
/* Decode the chunked body p[0..n): its data into out, its chunk count. */
static size_t
dechunk(const char *p, size_t n, char *out, size_t *outlen)
{
	size_t off = 0, chunks = 0, len;
	char *end;

	*outlen = 0;
	for (;;) {
		len = strtoul(p + off, &end, 16);
		assert_true(end > p + off && end + 2 <= p + n);
		assert_memory_equal(end, "\r\n", 2);
		off = (size_t)(end + 2 - p);
		if (len == 0)
			break;
		assert_true(off + len + 2 <= n);
		memcpy(out + *outlen, p + off, len);
		*outlen += len;
		off += len;
		assert_memory_equal(p + off, "\r\n", 2);
		off += 2;
		chunks++;
	}
	assert_int_equal(off + 2, n);		/* the last CRLF */
	return chunks;
}

static void
test_body_pipe_batches(void **state)
{
	static char got[4 << 20], data[4 << 20];
	struct ipc_msg m;
	size_t n = 0, hl, len, sent = 0, announced = 0, chunks;
	struct t t;
	char *e;

	(void)state;
	upload(&t, "Transfer-Encoding", "chunked");
	/* until the backend socket takes no more while its reader sleeps */
	while (t.c->ul.up.len == 0 && sent < 2000000) {
		pipe_body(&t, body + sent, 100000);
		sent += 100000;
		announced++;
	}
	assert_true(t.c->ul.up.len > 0);
	pipe_body(&t, body + sent, 30000);	/* read at once: next batch */
	pipe_body(&t, body + sent + 30000, 20000);
	assert_int_equal(t.c->ul.up_next, 50000);
	sent += 50000;
	announced += 2;
	m = m_data(IPC_BODY, 1, "tail", 4);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_non_null(t.c->stash);		/* after the pipe's bytes */
	m = m_simple(IPC_BODY_END, 1);
	t_send(&t, &m);				/* not read while one waits */
	while (t.c->stash != NULL)
		backend_gets(&t, got, sizeof(got), &n);
	assert_int_equal(conn_on_ipc(t.c), 0);	/* BODY_END now */
	backend_gets(&t, got, sizeof(got), &n);
	e = memmem(got, n, "\r\n\r\n", 4);
	assert_non_null(e);
	hl = (size_t)(e + 4 - got);
	chunks = dechunk(got + hl, n - hl, data, &len);
	assert_int_equal(len, sent + 4);
	assert_memory_equal(data, body, sent);
	assert_memory_equal(data + sent, "tail", 4);
	/* the two announcements that came while bytes waited: one chunk */
	assert_true(chunks <= announced);
	t_close(&t, HANDLED);
}

/*
 * A child that announces bytes it did not put in the pipe, or more than
 * the declared length, or announces without a pipe, is killed: the
 * backend never gets bytes the monitor did not count and frame.
 */
static void
test_body_pipe_lies(void **state)
{
	struct ipc_msg m;
	struct t t;

	(void)state;
	/* announced, never written */
	upload(&t, "Content-Length", "70000");
	assert_int_equal(write(fx_body_pipe, body, 10), 10);
	m = m_simple(IPC_BODY_SPLICED, 1);
	m.u.body_spliced.len = 20;
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY_SPLICED beyond the bytes in the body pipe");

	/* beyond the declared length */
	upload(&t, "Content-Length", "5");
	m = m_simple(IPC_BODY_SPLICED, 1);
	m.u.body_spliced.len = 6;
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY_SPLICED beyond the declared Content-Length");

	/* on a request without a streamed body */
	t_open(&t, sock_up);
	m = m_simple(IPC_BODY_SPLICED, 1);
	m.u.body_spliced.len = 1;
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
}

/*
 * A backend that answers before it has taken the whole body (announced
 * bytes still in the body pipe, BODY_END already read: conn_on_ipc reads
 * on when the child hangs up its IPC socket, whose POLLHUP cannot be
 * masked) is not kept for another request: it would read that request's
 * head as the rest of this body (redteam3).
 */
static void
test_body_pipe_early_answer(void **state)
{
	static const char resp[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
	    "\r\nok";
	int i, kept = 0, small = 4096;
	struct ipc_msg m;
	long long end;
	struct t t;

	(void)state;
	gw.pool_max = POOL_MAX;
	upload(&t, "Content-Length", "120000");
	/* a backend that reads slowly: its socket takes a few KiB */
	assert_int_equal(setsockopt(t.c->bc.fd, SOL_SOCKET, SO_SNDBUF, &small,
	    sizeof(small)), 0);
	pipe_body(&t, body, 60000);	/* one splice may exceed it */
	pipe_body(&t, body + 60000, 60000);
	m = m_simple(IPC_BODY_END, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(t.c->ul.up.len > 0);	/* announced, not yet written */
	assert_int_equal(send(fb.fds[0], resp, sizeof(resp) - 1,
	    MSG_DONTWAIT | MSG_NOSIGNAL), (ssize_t)sizeof(resp) - 1);
	end = mono_ms() + 2000;
	while (!t.c->end_sent && mono_ms() < end)
		pump(t.c);
	assert_true(t.c->end_sent);
	for (i = 0; i < CG_SOCKETS; i++)
		kept += gw.pools[i].n;
	assert_int_equal(kept, 0);
	t_close(&t, HANDLED);
	backend_pool_close(&gw);
	gw.pool_max = 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunk_lines_split),
		cmocka_unit_test(test_pipe_boundary),
		cmocka_unit_test(test_length_exact),
		cmocka_unit_test(test_client_gone_mid_splice),
		cmocka_unit_test(test_body_pipe),
		cmocka_unit_test(test_body_pipe_batches),
		cmocka_unit_test(test_body_pipe_lies),
		cmocka_unit_test(test_body_pipe_early_answer),
	};
	size_t i;

	for (i = 0; i < BIG; i++)
		body[i] = (char)('a' + i % 26);
	return cmocka_run_group_tests(tests, setup, teardown);
}
