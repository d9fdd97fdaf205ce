/*
 * The request parser's two channels (privsep.md §8): the monitor's IPC
 * (send, receive, BYE, the access line of an abandoned request) and the
 * client socket (read into c->in, write). Used by unpriv/child.c and
 * unpriv/body.c; see unpriv/child_io.h.
 */
#include "unpriv/child_io.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/gwerror.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "seccomp/filter.h"

uint32_t
child_ms_since(const struct timespec *t0)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (now.tv_sec - t0->tv_sec) * 1000LL +
	    (now.tv_nsec - t0->tv_nsec) / 1000000;
	return ms < 0 ? 0 : (uint32_t)ms;
}

/* ---------------------------------------------------------------- monitor */

void
child_send(struct child *c, struct ipc_msg *m)
{
	if (ipc_send(c->ipc, m, 0) != IPC_OK)
		_exit(1);
}

static void
recv_one(struct child *c, struct ipc_msg *m)
{
	int rc = ipc_recv(c->ipc, c->msgbuf, IPC_MSG_MAX + 1, m, 1, 0);

	if (rc != IPC_OK)
		_exit(rc == IPC_EOF ? 0 : 1);
	if (m->type != IPC_BODY_PIPE)
		return;
	if (m->req == c->req && c->up < 0)
		c->up = m->fd;
	else
		close(m->fd);
}

void
child_recv_any(struct child *c, struct ipc_msg *m)
{
	do
		recv_one(c, m);
	while (child_light_msg(c, m));
}

void
child_settle(struct child *c)
{
	struct ipc_msg m = { .type = IPC_DONE, .fd = -1 };

	if (c->light == 0)
		return;
	if (!c->light_done) {
		m.req = c->light;
		child_send(c, &m);
		c->light_done = 1;
	}
	while (c->light != 0) {
		recv_one(c, &m);
		if (!child_light_msg(c, &m))
			_exit(1);
	}
}

void
child_recv(struct child *c, struct ipc_msg *m)
{
	do
		child_recv_any(c, m);
	while (m->type == IPC_BODY_PIPE);
}

void
child_exit(struct child *c, uint8_t reason)
{
	struct ipc_msg m = { .type = IPC_BYE, .fd = -1 };

	child_settle(c);	/* not while a light response goes out */
	m.u.bye.reason = reason;
	(void)ipc_send(c->ipc, &m, 0);
	/* the teardown of this process waits for the requests in flight */
	(void)setpriority(PRIO_PROCESS, 0, CG_EXIT_NICE);
	_exit(0);
}

void
child_abandon(struct child *c, int head, uint8_t reason, const char *why)
{
	struct ipc_msg m = { .type = IPC_ACCESS, .fd = -1 };

	child_settle(c);
	m.req = head ? c->req + 1 : c->req;
	m.u.access.method = c->rmethod_len ? SN(c->rmethod, c->rmethod_len) :
	    ipc_cstr("-");
	m.u.access.path = c->rpath_len ? SN(c->rpath, c->rpath_len) :
	    ipc_cstr("-");
	m.u.access.code = ipc_cstr("");
	m.u.access.status = 0;
	m.u.access.duration_ms = child_ms_since(head ? &c->head_start :
	    &c->head_end);
	m.u.access.detail = ipc_cstr(why);
	child_send(c, &m);
	child_exit(c, reason);
}

void
child_begin(struct child *c, int head)
{
	struct ipc_msg m = { .type = IPC_REQUEST_BEGIN, .fd = -1 };

	if (c->begun)
		return;
	c->begun = 1;
	m.req = head ? c->req + 1 : c->req;
	child_send(c, &m);
}

void
child_send_done(struct child *c)
{
	struct ipc_msg m = { .type = IPC_DONE, .fd = -1 };

	m.req = c->req;
	child_send(c, &m);
}

uint8_t
child_response_end(struct child *c, const struct ipc_msg *m)
{
	if (m->type != IPC_RESPONSE_END || m->req != c->req)
		_exit(1);
	return m->u.response_end.mode;
}

/* ---------------------------------------------------------------- linger */

/* linger after the last answer (privsep.md "One request"): idle, total, bytes */
#define LINGER_IDLE_MS		5000
#define LINGER_TOTAL_MS		60000
#define LINGER_BYTES_MAX	(1ull << 30)

void
child_linger_exit(struct child *c, uint8_t reason)
{
	struct pollfd p = { .fd = c->client, .events = POLLIN };
	long long start = now_ms(), last = start, now, wait;
	uint64_t total = 0;
	ssize_t n;

	shutdown(c->client, SHUT_WR);
	c->inlen = 0;
	while (!c->client_eof && total < LINGER_BYTES_MAX) {
		now = now_ms();
		wait = LINGER_IDLE_MS - (now - last);
		if (LINGER_TOTAL_MS - (now - start) < wait)
			wait = LINGER_TOTAL_MS - (now - start);
		if (wait <= 0)
			break;
		if (poll(&p, 1, (int)wait) <= 0)
			continue;
		n = recv(c->client, c->in, c->incap, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			break;
		total += (uint64_t)n;
		last = now_ms();
	}
	child_exit(c, reason);
}

/* ---------------------------------------------------------------- client */

int
child_write_client(struct child *c, const char *buf, size_t len)
{
	struct pollfd p = { .fd = c->client, .events = POLLOUT };
	ssize_t n;

	child_settle(c);	/* after the light response going out */
	while (len > 0) {
		n = send(c->client, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (poll(&p, 1, WRITE_MS) == 1)
				continue;
			return -1;
		}
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t
child_read_client(struct child *c, int timeout_ms)
{
	struct pollfd p[2] = {
		{ .fd = c->client, .events = POLLIN },
		{ .fd = c->ipc, .events = POLLIN },
	};
	long long deadline = now_ms() + timeout_ms, left;
	struct ipc_msg m;
	ssize_t n;
	int rc;

	if (c->client_eof)
		return 0;
	if (c->incap - c->inlen < READ_CHUNK) {
		c->incap = c->inlen + READ_CHUNK;
		c->in = xrealloc(c->in, c->incap);
	}
	/*
	 * One deadline for the whole wait: a wake-up with nothing to read (an
	 * urgent MSG_OOB byte, which recv() drops: EAGAIN) must not restart
	 * it, or a client could hold the parser past HEAD_MS/IDLE_MS forever.
	 */
	/*
	 * While a light exchange may be going out the monitor's
	 * socket is watched too: a close or a refusal of that exchange ends
	 * the child; the deadline counts from its end (child_settle).
	 */
	do {
		do {
			left = deadline - now_ms();
			rc = poll(p, c->light ? 2 : 1, left > 0 ? (int)left : 0);
			if (rc == 0 && c->light) {
				child_settle(c);
				deadline = now_ms() + timeout_ms;
				rc = -1;
				errno = EINTR;
			} else if (rc > 0 && c->light && p[1].revents) {
				recv_one(c, &m);
				if (!child_light_msg(c, &m))
					_exit(1);
				if (p[0].revents == 0) {
					rc = -1;
					errno = EINTR;
				}
			}
		} while (rc < 0 && errno == EINTR);
		if (rc == 0)
			return -1;
		n = recv(c->client, c->in + c->inlen, READ_CHUNK, MSG_DONTWAIT);
	} while (n < 0 && (errno == EINTR || errno == EAGAIN));
	if (n <= 0) {
		c->client_eof = 1;
		return 0;
	}
	c->inlen += (size_t)n;
	return n;
}

void
child_consume(struct child *c, size_t n)
{
	memmove(c->in, c->in + n, c->inlen - n);
	c->inlen -= n;
}

void
child_verdict_refused(struct child *c, const struct ipc_msg *m, int is_head)
{
	struct cg_refusal r;
	char code[33], *resp;
	size_t len;

	if (m->u.verdict.code.len >= sizeof(code))
		_exit(1);
	memcpy(code, m->u.verdict.code.p, m->u.verdict.code.len);
	code[m->u.verdict.code.len] = '\0';
	if (cg_code_status(code) < 0)
		_exit(1);
	cg_refuse(&r, code, "%.*s", (int)m->u.verdict.detail.len,
	    m->u.verdict.detail.p);
	if (m->u.verdict.hint.len > 0)
		cg_hint(&r, "%.*s", (int)m->u.verdict.hint.len,
		    m->u.verdict.hint.p);
	resp = cg_error_response(&r, is_head, &len);
	(void)child_write_client(c, resp, len);
	free(resp);
}

int
child_light_msg(struct child *c, const struct ipc_msg *m)
{
	struct ipc_msg d = { .type = IPC_DONE, .fd = -1, .req = c->light };
	int done = c->light_done;

	if (c->light == 0 || m->type == IPC_BODY_PIPE)
		return 0;
	if (m->req != c->light) {
		/* an answer for a later request: the light one is over */
		if (m->req > c->light)
			c->light = 0;
		return 0;
	}
	c->light = 0;
	if (m->type == IPC_RESPONSE_END &&
	    m->u.response_end.mode == IPC_END_KEEP_ALIVE) {
		if (!done)	/* sent only when asked */
			_exit(1);
		return 1;
	}
	if (m->type == IPC_RESPONSE_END) {
		if (!done)
			child_send(c, &d);
		child_linger_exit(c, IPC_BYE_CLIENT_CLOSED);
	}
	if (m->type != IPC_VERDICT ||
	    m->u.verdict.outcome != IPC_OUTCOME_REFUSED)
		_exit(1);
	/* nothing of it, nor of any later request, was written yet */
	child_verdict_refused(c, m, c->light_head);
	if (!done)
		child_send(c, &d);
	child_linger_exit(c, IPC_BYE_ERROR);
}
