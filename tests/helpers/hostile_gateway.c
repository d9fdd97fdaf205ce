/*
 * The hostile request parser of tests/hostile/run.py: a test binary, never
 * installed. tests/helpers/hostile_gateway is the gateway itself
 * (monitor/main.o and libcg.a, unchanged) linked with this file and
 * -Wl,--wrap=child_run, so the zygote's call of child_run() lands in
 * __wrap_child_run below. Nothing in the release binary knows about it:
 * no hook, switch or environment variable.
 *
 * Each request parser the (real, sandboxed) zygote forks still finishes
 * its own sandbox (sandbox_finish_child) before it gets here, so the
 * puppet has exactly the powers of a compromised child. It takes
 * CONN_START like an honest child (child_await_conn), then looks at
 * its client's first bytes: a client that begins with "LIE " turns it
 * into a puppet; any other client is served by the honest child_serve().
 *
 * The puppet protocol, on the client socket after the line "LIE <row>\n"
 * (integers little-endian, as the IPC of the machines we run on):
 *   'S' u8 nfds, u32 repeat, u32 len, len bytes: send those bytes as one
 *       datagram on the IPC socket, repeat times, each with nfds copies of
 *       the client descriptor attached (SCM_RIGHTS); answered with 'K'
 *       (u32 datagrams sent, i32 errno of the send that failed or 0)
 *   'R' u32 ms: wait that long for one datagram from the monitor; answered
 *       with 'M' (its bytes), 'T' (none came) or 'E' (text: end-of-file,
 *       an error, a truncated datagram)
 *   'W' u32 ms: wait that long (no answer)
 *   'F' u32 flags: fcntl(client, F_SETFL, flags) on the client descriptor
 *       the monitor shares (clear O_NONBLOCK); the child's filter kills it
 *       (SIGSYS, hostile row client-clear-nonblock)
 *   'X' u32 how: shutdown(client, how); no answer
 *   'Y' u32 ms: for that long, write to the client behind the monitor's
 *       back whenever it takes bytes (MSG_DONTWAIT); no answer
 *   'P' u32 len: write len bytes "HOSTILE..." into the descriptor the last
 *       message from the monitor brought (the body pipe's write end, kept
 *       instead of closed); answered with 'K' (u32 written, i32 errno)
 *   end-of-file: exit 0, without BYE
 * Every answer is a frame "\0CGH", kind (1 byte), u32 length, payload
 * (dropped once the client socket takes no more);
 * the first one, 'H', says "conn=<id> pid=<pid>". The monitor writes
 * forwarded responses to the same client socket, between the frames.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "ipc/proto.h"
#include "unpriv/child.h"
#include "unpriv/checker.h"

#define FDS_MAX		16	/* descriptors one 'S' may attach */
#define PEEK_MS		30000	/* for the first four client bytes */

void __wrap_child_run(const struct sandbox_result *sr, unsigned char *buf)
    __attribute__((noreturn));

static int client = -1;
static int kept = -1;		/* the last descriptor the monitor sent */

static void
put_u32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* 1 once the client socket has events (POLLIN/POLLOUT) within ms (-1: no limit). */
static int
wait_client(short events, int ms)
{
	struct pollfd p = { .fd = client, .events = events };

	return poll(&p, 1, ms) == 1;
}

/*
 * One answer frame to the driver. When the client socket no longer takes
 * bytes (the monitor shut it down for writing after a response that closes
 * the connection) the puppet goes on without reporting: the driver may
 * have queued more instructions.
 */
static void
frame(char kind, const void *p, uint32_t len)
{
	unsigned char *f = xmalloc((size_t)len + 9), *q = f;
	size_t left = (size_t)len + 9;
	ssize_t n;

	memcpy(f, "\0CGH", 4);
	f[4] = (unsigned char)kind;
	put_u32(f + 5, len);
	if (len > 0)
		memcpy(f + 9, p, len);
	while (left > 0) {
		n = send(client, q, left, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		/* the client socket is non-blocking (the monitor's) */
		if (n < 0 && errno == EAGAIN && wait_client(POLLOUT, 10000))
			continue;
		if (n <= 0)
			break;
		q += n;
		left -= (size_t)n;
	}
	free(f);
}

static void
frame_text(char kind, const char *text)
{
	frame(kind, text, (uint32_t)strlen(text));
}

/* Read exactly n bytes of instructions; end-of-file ends the puppet. */
static void
read_full(void *p, size_t n)
{
	ssize_t k;

	while (n > 0) {
		k = recv(client, p, n, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN && wait_client(POLLIN, -1))
			continue;
		if (k <= 0)
			_exit(0);
		p = (char *)p + k;
		n -= (size_t)k;
	}
}

static uint32_t
read_u32(void)
{
	uint32_t v;

	read_full(&v, 4);
	return v;
}

/*
 * Wait until the IPC socket takes a datagram again (the monitor does not
 * read a child that does not read its answers); the driver hanging up
 * ends the puppet meanwhile.
 */
static void
wait_writable(void)
{
	struct pollfd p[2] = { { .fd = CHILD_IPC_FD, .events = POLLOUT },
	    { .fd = client, .events = POLLRDHUP } };

	while (poll(p, 2, -1) < 0 && errno == EINTR)
		;
	if (p[1].revents & (POLLRDHUP | POLLHUP | POLLERR))
		_exit(0);
}

static void
op_send(void)
{
	union {
		struct cmsghdr hdr;
		unsigned char b[CMSG_SPACE(FDS_MAX * sizeof(int))];
	} cm;
	unsigned char nfds, ack[8];
	uint32_t repeat, len, sent = 0;
	int32_t err = 0;
	struct msghdr mh;
	struct iovec iov;
	unsigned char *data;
	int fds[FDS_MAX];

	read_full(&nfds, 1);
	repeat = read_u32();
	len = read_u32();
	if (nfds > FDS_MAX || len > 4 * IPC_MSG_MAX)
		_exit(2);
	data = xmalloc(len + 1);
	read_full(data, len);
	memset(&mh, 0, sizeof(mh));
	iov.iov_base = data;
	iov.iov_len = len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (nfds > 0) {
		memset(&cm, 0, sizeof(cm));
		for (int i = 0; i < nfds; i++)
			fds[i] = client;
		mh.msg_control = cm.b;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		CMSG_FIRSTHDR(&mh)->cmsg_level = SOL_SOCKET;
		CMSG_FIRSTHDR(&mh)->cmsg_type = SCM_RIGHTS;
		CMSG_FIRSTHDR(&mh)->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(CMSG_FIRSTHDR(&mh)), fds, nfds * sizeof(int));
	}
	while (sent < repeat) {
		if (sendmsg(CHILD_IPC_FD, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				wait_writable();
				continue;
			}
			err = errno;
			break;
		}
		sent++;
	}
	free(data);
	put_u32(ack, sent);
	memcpy(ack + 4, &err, 4);
	frame('K', ack, sizeof(ack));
}

static void
op_recv(unsigned char *buf)
{
	union {
		struct cmsghdr hdr;
		unsigned char b[CMSG_SPACE(FDS_MAX * sizeof(int))];
	} cm;
	struct pollfd p = { .fd = CHILD_IPC_FD, .events = POLLIN };
	uint32_t ms = read_u32();
	struct cmsghdr *c;
	struct msghdr mh;
	struct iovec iov = { buf, IPC_MSG_MAX + 1 };
	ssize_t n;
	int rc;

	do
		rc = poll(&p, 1, (int)ms);
	while (rc < 0 && errno == EINTR);
	if (rc == 0) {
		frame('T', NULL, 0);
		return;
	}
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.b;
	mh.msg_controllen = sizeof(cm.b);
	n = recvmsg(CHILD_IPC_FD, &mh, MSG_DONTWAIT);
	/* the monitor never sends a puppet a descriptor; close any */
	for (c = CMSG_FIRSTHDR(&mh); n >= 0 && c != NULL; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_type == SCM_RIGHTS)
			for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) /
			    sizeof(int); i++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
				if (kept >= 0)
					close(kept);
				kept = fd;
			}
	if (n < 0)
		frame_text('E', strerror(errno));
	else if (n == 0)
		frame_text('E', "end-of-file");
	else if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))
		frame_text('E', "truncated");
	else
		frame('M', buf, (uint32_t)n);
}

/* 'Y': keep the client's send buffer full for ms milliseconds. */
static void
op_flood(uint32_t ms)
{
	static const char junk[4096];
	struct timespec t0, t;
	long long el;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		(void)send(client, junk, sizeof(junk), MSG_DONTWAIT | MSG_NOSIGNAL);
		clock_gettime(CLOCK_MONOTONIC, &t);
		el = (t.tv_sec - t0.tv_sec) * 1000LL + (t.tv_nsec - t0.tv_nsec) /
		    1000000;
	} while (el < (long long)ms);
}

/* 'P': bytes into the kept descriptor (the body pipe). */
static void
op_pipe(uint32_t len)
{
	unsigned char ack[8];
	char *d = xmalloc(len + 1);
	uint32_t done = 0;
	int32_t err = 0;
	ssize_t n;

	for (uint32_t i = 0; i < len; i++)
		d[i] = "HOSTILE"[i % 7];
	while (done < len) {
		n = write(kept, d + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		done += (uint32_t)n;
	}
	free(d);
	put_u32(ack, done);
	memcpy(ack + 4, &err, 4);
	frame('K', ack, sizeof(ack));
}

static void __attribute__((noreturn))
puppet(const struct ipc_msg *start, unsigned char *buf)
{
	char line[128], hello[64];
	size_t n = 0;
	unsigned char op;

	/* the "LIE <row>" line: the row's name is the driver's business */
	do
		read_full(&line[n], 1);
	while (line[n] != '\n' && ++n < sizeof(line));
	snprintf(hello, sizeof(hello), "conn=%llu pid=%d",
	    (unsigned long long)start->u.conn_start.conn, (int)getpid());
	frame_text('H', hello);
	for (;;) {
		read_full(&op, 1);
		if (op == 'S')
			op_send();
		else if (op == 'R')
			op_recv(buf);
		else if (op == 'W')
			(void)poll(NULL, 0, (int)read_u32());
		else if (op == 'F')
			(void)fcntl(client, F_SETFL, (int)read_u32());
		else if (op == 'X')
			(void)shutdown(client, (int)read_u32());
		else if (op == 'Y')
			op_flood(read_u32());
		else if (op == 'P')
			op_pipe(read_u32());
		else
			_exit(2);
	}
}

/*
 * 1 when the client's first four bytes are "LIE " (looked at with
 * MSG_PEEK: an honest request stays unread), 0 otherwise or after
 * PEEK_MS without them.
 */
static int
wants_puppet(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char b[4];
	ssize_t n;
	int waited = 0;

	while (waited < PEEK_MS) {
		if (poll(&p, 1, PEEK_MS) <= 0)
			return 0;
		n = recv(fd, b, sizeof(b), MSG_PEEK | MSG_DONTWAIT);
		if (n <= 0)
			return 0;
		if (memcmp(b, "LIE ", (size_t)n) != 0)
			return 0;
		if (n == 4)
			return 1;
		(void)poll(NULL, 0, 5);	/* the rest of the word is coming */
		waited += 5;
	}
	return 0;
}

void
__wrap_child_run(const struct sandbox_result *sr, unsigned char *buf)
{
	struct ipc_msg m;

	if (child_await_conn(sr, buf, &m) < 0)
		_exit(1);
	if (m.type == IPC_CHECK_START)	/* a checker: always the honest one */
		checker_main(&m, buf);
	client = m.fd;
	if (!wants_puppet(client))
		child_serve(&m, buf);
	puppet(&m, buf);
}
