/*
 * The zero-copy side of the relay (doc/privsep.md "Relaying"): large response
 * bodies and a switched stream's backend direction move from the backend
 * socket into the connection's relay pipe (c->dp) and from there to the client
 * (monitor/exchange/relay.c to_client), the monitor following the backend's framing by
 * counting: Content-Length, until close, chunk sizes read with MSG_PEEK. A
 * streamed request body comes the other way through the body pipe (c->up) the
 * child fills from its client and announces with BODY_SPLICED; the monitor
 * frames what was announced and moves exactly that many bytes to the backend.
 * The client's bytes are never looked at here.
 */
#include "monitor/conn.h"
#include "monitor/exchange/backend.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/splice.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#define PEEK_MAX	64	/* bytes peeked at for chunk lines */

/*
 * Open c's relay pipe (splice_open); the first time on this connection
 * also raise the client's SO_SNDBUF to RELAY_DOWN_MAX (fewer wake-ups of
 * the client; it stays for the connection's lifetime). The client socket
 * is non-blocking for good (accept.c; the child's filter has no
 * F_SETFL), so splices to it never wait. Returns 0, or -1 (c->sp_off
 * set) when no pipe can be made.
 */
static int
pipe_open(struct conn *c)
{
	int sz = (int)RELAY_DOWN_MAX;

	if (rpipe_open(&c->dp, RPIPE_SIZE) < 0) {
		c->sp_off = 1;
		return -1;
	}
	if (!c->sp_sized)
		(void)setsockopt(c->client, SOL_SOCKET, SO_SNDBUF, &sz,
		    sizeof(sz));
	c->sp_sized = 1;
	return 0;
}

int
splice_open(struct conn *c)
{
	if (c->lf.on || c->lf.ev_on || c->sp_off || c->framing == FR_NONE || c->client < 0)
		return 0;
	/* chunked: opened by chunk_ahead at the first large chunk */
	if (c->dp.fd[0] >= 0 || c->framing == FR_CHUNKED)
		return 1;
	if (c->framing == FR_LENGTH && c->remaining < RELAY_SPLICE_MIN)
		return 0;
	return pipe_open(c) == 0;
}

/*
 * Chunked: look at the next backend bytes without taking them (MSG_PEEK)
 * and let the decoder count the chunk lines there (http.md §8.4). When
 * they end inside a chunk with at least RELAY_SPLICE_MIN data bytes, or
 * end the body, those bytes and the rest of that chunk's data are counted
 * (c->sp_known) for the pipe: SPLICE_MOVED. SPLICE_NONE when nothing is
 * there, SPLICE_EOF/SPLICE_ERROR when the backend ended, SPLICE_COPY when
 * these bytes are copied instead (small chunks, a line split across the
 * backend's writes, invalid framing: the copy path relays the valid
 * prefix and ends the body as before).
 */
static int
chunk_ahead(struct conn *c)
{
	struct http_chunked ch = c->chunk;
	char pk[PEEK_MAX];
	size_t used, wrote = 0;
	uint64_t data;
	ssize_t n;

	do
		n = recv(c->bc.fd, pk, sizeof(pk), MSG_PEEK | MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return SPLICE_NONE;
	if (n <= 0)
		return n == 0 ? SPLICE_EOF : SPLICE_ERROR;
	if (http_chunked_feed(&ch, pk, (size_t)n, NULL, &wrote, &used) < 0)
		return SPLICE_COPY;
	data = http_chunked_skip_data(&ch);
	if ((!ch.done && data < RELAY_SPLICE_MIN) ||
	    (c->dp.fd[0] < 0 && (ch.done || pipe_open(c) < 0)))
		return SPLICE_COPY;
	if (ch.done && used < (size_t)n)
		c->bc.keep = 0;	/* bytes past the end */
	c->chunk = ch;
	c->sp_known = used + data;
	return SPLICE_MOVED;
}

int
splice_from_backend(struct conn *c)
{
	uint64_t want = RELAY_DOWN_MAX - c->down.len - c->dp.len;
	ssize_t n;
	int rc;

	if (c->framing == FR_CHUNKED && c->sp_known == 0 &&
	    (rc = chunk_ahead(c)) != SPLICE_MOVED)
		return rc;
	if (c->framing == FR_CHUNKED && want > c->sp_known)
		want = c->sp_known;
	else if (c->framing == FR_LENGTH && want > c->remaining)
		want = c->remaining;
	n = rpipe_fill(&c->dp, c->bc.fd, (size_t)want);
	if (n < 0 && errno == EAGAIN)
		return SPLICE_NONE;
	if (n <= 0)
		return n == 0 ? SPLICE_EOF : SPLICE_ERROR;
	if (c->framing == FR_LENGTH && (c->remaining -= (uint64_t)n) == 0)
		c->resp_done = 1;
	if (c->framing == FR_CHUNKED && (c->sp_known -= (uint64_t)n) == 0 &&
	    c->chunk.done)
		c->resp_done = 1;
	if (c->resp_done)
		backend_release(c);
	return (uint64_t)n < want ? SPLICE_SHORT : SPLICE_MOVED;
}

/* ---------------------------------------------------------------- uploads */

void
splice_offer_body_pipe(struct conn *c)
{
	struct ipc_msg m = { .type = IPC_BODY_PIPE, .req = c->req };
	/* a checked upload: the child fills its own pipe (check.c) */
	struct rpipe *p = c->ck.kind != CK_NONE ? &c->ck.in : &c->up;
	int rc;

	if (c->up_given || c->pid < 0 || !ipc_queue_empty(&c->outq) ||
	    c->ck.state == CK_REFUSED || rpipe_open(p, RPIPE_UP_SIZE) < 0)
		return;
	m.fd = p->fd[1];
	ipc_audit(c, "to-child", &m);
	rc = ipc_send(c->ipc, &m, MSG_DONTWAIT);
	/* the child's copy travels in the message; the monitor only reads */
	close(p->fd[1]);
	p->fd[1] = -1;
	if (rc != IPC_OK) {
		rpipe_close(p);
		return;
	}
	c->up_given = 1;
	c->up_next = 0;
}

int
splice_on_body_spliced(struct conn *c, const struct ipc_msg *m)
{
	uint32_t n = m->u.body_spliced.len;
	int k;

	if (c->body_kind != FB_LENGTH && c->body_kind != FB_CHUNKED)
		return conn_violation(c, "BODY_SPLICED on a request without a "
		    "streamed body");
	if (!c->up_given)
		return conn_violation(c, "BODY_SPLICED without a body pipe");
	if (c->stream_done)
		return conn_violation(c, "BODY_SPLICED after BODY_END");
	if (n == 0 || n > IPC_SPLICED_MAX)
		return conn_violation(c, "BODY_SPLICED of %u bytes", n);
	if (c->body_kind == FB_LENGTH && c->body_got + n > c->body_len)
		return conn_violation(c, "BODY_SPLICED beyond the declared "
		    "Content-Length");
	c->body_got += n;
	c->stream_started = 1;
	if (c->ck.kind != CK_NONE)
		return SPLICE_CHECKED;	/* the checker moves them (dispatch.c) */
	if (c->rs == RS_WAIT_DONE || c->upload_failed || c->bc.fd < 0 ||
	    c->up.fd[0] < 0) {
		rpipe_close(&c->up);	/* the exchange is over: dropped */
		c->up_next = 0;
		return 0;
	}
	/*
	 * After the bytes announced before: the child's socket
	 * stays readable while they go out, so announcements that come
	 * meanwhile make one batch, framed as one chunk.
	 */
	c->up_next += n;
	if (c->up.len > 0)
		return 0;
	/* at once when the backend takes it: no wake-up per announcement */
	k = splice_upload(c);
	return k == -2 ? -1 : k == -1 ? 1 : 0;
}

/* Frame the next batch of announced bytes: one chunk line for it. */
static void
next_batch(struct conn *c)
{
	char hex[32];
	int k;

	if (c->body_kind == FB_CHUNKED) {
		k = snprintf(hex, sizeof(hex), "%s%llx\r\n", c->up_crlf ?
		    "\r\n" : "", (unsigned long long)c->up_next);
		fifo_put(&c->bc.out, hex, (size_t)k);
		c->up_crlf = 0;
	}
	c->up.len = c->up_next;
	c->up_next = 0;
}

int
splice_upload(struct conn *c)
{
	int k, moved = 0;

	for (;;) {
		if (c->bc.out.len > 0) {
			if (backend_write(c) < 0)
				return -1;
			if (c->bc.out.len > 0)
				return moved;	/* the backend is full */
		}
		if (c->up.len == 0) {
			if (c->up_next == 0)
				return moved;
			next_batch(c);
			continue;
		}
		k = splice_to_backend(c);
		if (k < 0)
			return k;
		moved |= k;
		if (c->up.len > 0)
			return moved;		/* the backend is full */
	}
}

int
splice_to_backend(struct conn *c)
{
	struct pollfd p = { .fd = c->up.fd[0], .events = POLLIN };
	ssize_t n;
	int moved = 0;

	while ((n = rpipe_drain(&c->up, c->bc.fd, c->up.len)) > 0) {
		moved = 1;
		if (c->up.len == 0) {
			/* the chunk's CRLF goes with what follows (c->up_crlf) */
			c->up_crlf = c->body_kind == FB_CHUNKED;
			return 1;
		}
	}
	if (n < 0 && errno == EAGAIN && poll(&p, 1, 0) == 1)
		return moved;		/* the backend is full */
	if (n < 0 && errno != EAGAIN)
		return -1;
	/* an empty pipe (or its end) with announced bytes: a lie */
	(void)conn_violation(c, "BODY_SPLICED beyond the bytes in the body "
	    "pipe");
	c->dead = 1;
	return -2;
}
