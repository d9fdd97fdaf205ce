/*
 * A streamed request body's pipe (doc/privsep.md "Uploads"): the body pipe
 * (c->up) the child fills from its client and announces with BODY_SPLICED;
 * the monitor frames what was announced and moves exactly that many bytes
 * to the backend with splice(2). The response's own pipe, the other way,
 * is the relay's (monitor/exchange/relay.c, c->rp.dp). The client's bytes
 * are never looked at here.
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
