/*
 * The request parser's streamed body (unpriv/body.c body_stream) when the
 * monitor closes the body pipe in the middle of a chunk: a checker's
 * refusal or a backend that stopped reading does (monitor/exchange/check.c
 * refuse, relay.c relay_backend_write_failed), and the parser may splice
 * once more before the monitor's RESPONSE_END reaches it. The rest of
 * that chunk must still be decoded as data (sent as BODY, which the
 * monitor drops), never taken for a malformed chunk: that ended the
 * parser at once, without its linger, and a client still sending lost
 * the monitor's 403 to a broken pipe (measured: 12 of 20 refused loads of
 * 16 MiB in 1 MiB chunks; tests/forwarded/run.py has the end-to-end
 * case). The test plays the client and the monitor around body_stream,
 * run in a forked process as in the parser (SIGPIPE ignored).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/xmalloc.h"
#include "http/http.h"
#include "ipc/proto.h"
#include "unpriv/body.h"
#include "unpriv/child_io.h"

#define CHUNK	(1u << 20)	/* one chunk: the pipe closes inside it */
#define FIRST	(16u << 10)	/* of it sent before the close (< a pipe) */

static unsigned char mbuf[IPC_MSG_MAX + 1];
static char data[CHUNK];
static pid_t procs[2];		/* the parser, the client's writer */

/* Stop what the test started (also after a failed assertion). */
static int
stop_procs(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 2; i++)
		if (procs[i] > 0) {
			kill(procs[i], SIGKILL);
			(void)waitpid(procs[i], NULL, 0);
			procs[i] = 0;
		}
	return 0;
}

/* 1 when every byte went out, 0 on a failed write (EPIPE). */
static int
send_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return 0;
		p += w;
		n -= (size_t)w;
	}
	return 1;
}

/*
 * The client still sending, in a process of its own (the parser's IPC is
 * read meanwhile): the rest of the chunk, the body's end, then 1 MiB more
 * as a client does that has not read the answer yet; exits 0 when every
 * write succeeded.
 */
static pid_t
writer(int fd)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	_exit(send_all(fd, data + FIRST, CHUNK - FIRST) &&
	    send_all(fd, "\r\n0\r\n\r\n", 7) && send_all(fd, data, CHUNK) &&
	    shutdown(fd, SHUT_WR) == 0 ? 0 : 1);
}

/* The parser's side: body_stream, then its end as serve_request has it. */
static void __attribute__((noreturn))
parser(int ipc, int client, int up)
{
	struct http_request hr;
	struct child c;
	int mode;

	signal(SIGPIPE, SIG_IGN);	/* as the zygote's children */
	memset(&c, 0, sizeof(c));
	memset(&hr, 0, sizeof(hr));
	hr.chunked = 1;
	c.ipc = ipc;
	c.client = client;
	c.up = up;
	c.req = 1;
	c.msgbuf = xmalloc(IPC_MSG_MAX + 1);
	mode = body_stream(&c, &hr);
	if (mode < 0) {
		struct ipc_msg m;

		child_recv(&c, &m);
		mode = child_response_end(&c, &m);
	}
	child_send_done(&c);
	child_linger_exit(&c, IPC_BYE_CLIENT_CLOSED);
}

/* The next message from the parser (5 s at most); its type, -1 none. */
static int
next(int ipc, struct ipc_msg *m)
{
	struct pollfd p = { .fd = ipc, .events = POLLIN };

	if (poll(&p, 1, 5000) != 1)
		return -1;
	if (ipc_recv(ipc, mbuf, sizeof(mbuf), m, 0, 0) != IPC_OK)
		return -1;
	return m->type;
}

static void
test_pipe_closed_mid_chunk(void **state)
{
	int ipc[2], cl[2], pp[2], st, t;
	uint64_t spliced = 0, body = 0;
	struct ipc_msg m;
	char line[32];
	pid_t pid;
	ssize_t r;

	(void)state;
	memset(data, 'x', sizeof(data));
	assert_int_equal(ipc_socketpair(ipc), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
	    cl), 0);
	assert_int_equal(pipe2(pp, O_NONBLOCK), 0);
	pid = procs[0] = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ipc[0]);
		close(cl[0]);
		close(pp[0]);
		parser(ipc[1], cl[1], pp[1]);
	}
	close(ipc[1]);
	close(cl[1]);
	close(pp[1]);
	(void)fcntl(cl[0], F_SETFL, 0);

	/* the chunk's line and its first bytes: spliced into the pipe */
	snprintf(line, sizeof(line), "%x\r\n", CHUNK);
	assert_true(send_all(cl[0], line, strlen(line)));
	assert_true(send_all(cl[0], data, FIRST));
	while (spliced < FIRST) {
		t = next(ipc[0], &m);
		assert_int_equal(t, IPC_BODY_SPLICED);
		spliced += m.u.body_spliced.len;
	}
	assert_int_equal(spliced, FIRST);
	/* the monitor refuses: the pipe closes, RESPONSE_END comes later */
	close(pp[0]);
	procs[1] = writer(cl[0]);
	assert_true(procs[1] > 0);
	/* the rest of the chunk as BODY, then the body's end */
	for (;;) {
		t = next(ipc[0], &m);
		if (t == IPC_BODY) {
			body += m.u.body.data.len;
			continue;
		}
		if (t == IPC_BODY_SPLICED) {
			spliced += m.u.body_spliced.len;
			continue;
		}
		break;
	}
	if (t == IPC_DONE) {	/* the bug: it gave up; let it go */
		m = (struct ipc_msg){ .type = IPC_RESPONSE_END, .fd = -1,
		    .req = 1 };
		m.u.response_end.mode = IPC_END_CLOSE;
		(void)ipc_send(ipc[0], &m, 0);
	}
	assert_int_equal(t, IPC_BODY_END);
	assert_int_equal(spliced + body, CHUNK);
	/* the end of the exchange: DONE, then the linger's BYE at our close */
	m = (struct ipc_msg){ .type = IPC_RESPONSE_END, .fd = -1, .req = 1 };
	m.u.response_end.mode = IPC_END_CLOSE;
	assert_int_equal(ipc_send(ipc[0], &m, 0), IPC_OK);
	assert_int_equal(next(ipc[0], &m), IPC_DONE);
	/* lingering: what the client still sends is read, not refused */
	assert_int_equal(next(ipc[0], &m), IPC_BYE);
	assert_int_equal(m.u.bye.reason, IPC_BYE_CLIENT_CLOSED);
	do
		r = waitpid(pid, &st, 0);
	while (r < 0 && errno == EINTR);
	assert_int_equal(r, pid);
	procs[0] = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	do
		r = waitpid(procs[1], &st, 0);
	while (r < 0 && errno == EINTR);
	assert_int_equal(r, procs[1]);
	procs[1] = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);	/* no EPIPE */
	close(ipc[0]);
	close(cl[0]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pipe_closed_mid_chunk,
		    stop_procs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
