/*
 * A streamed request body's pipe (doc/privsep.md "Uploads"): the body pipe
 * (c->ul.up) the child fills from its client and announces with BODY_SPLICED;
 * the monitor frames what was announced and moves exactly that many bytes
 * to the backend with splice(2). The response's own pipe, the other way,
 * is the relay's (monitor/exchange/relay.c, c->rp.dp). The client's bytes
 * are never looked at here.
 */
#include "monitor/conn.h"
#include "monitor/exchange/backend.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/splice.h"
#include "monitor/budget.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---------------------------------------------------------------- uploads */

void
splice_init(struct conn *c)
{
	rpipe_init(&c->ul.up);
}

int
splice_streamed(const struct conn *c)
{
	return c->fw.body_kind == FB_LENGTH || c->fw.body_kind == FB_CHUNKED;
}

void
splice_reset(struct conn *c)
{
	c->ul.stream_started = c->ul.upload_failed = 0;
	c->ul.stream_done = !splice_streamed(c);
	c->ul.early_total = 0;
	c->ul.early_done = 0;
}

void
splice_early_free(struct conn *c)
{
	fifo_free(&c->ul.early);
}

void
splice_free(struct conn *c)
{
	rpipe_close(&c->ul.up);
	c->ul.up_given = c->ul.up_crlf = 0;
	c->ul.up_next = 0;
	fifo_free(&c->ul.early);
}

void
splice_child_done(struct conn *c)
{
	c->ul.stream_started = 1;
}

/* 1 when c's exchange takes no more request bytes: its response is out,
   its upload failed, or its backend connection is gone. */
static int
upload_over(const struct conn *c)
{
	return c->rs == RS_WAIT_DONE || c->ul.upload_failed || c->bc.fd < 0;
}

/* A streamed body's bytes go to the backend, framed by the monitor. */
static void
stream_bytes(struct conn *c, const char *p, size_t len)
{
	char hex[32];
	int n;

	if (upload_over(c))
		return;		/* the exchange is over: discarded */
	/* the larger bound, when the pool has it (budget.c) */
	if (!c->stream_big && c->bc.out.len + len >= RELAY_FLOOR / 2)
		(void)budget_stream(c);
	if (c->fw.body_kind == FB_LENGTH) {
		fifo_put(&c->bc.out, p, len);
	} else if (len > 0) {
		n = snprintf(hex, sizeof(hex), "%s%zx\r\n", c->ul.up_crlf ?
		    "\r\n" : "", len);
		c->ul.up_crlf = 0;
		fifo_put(&c->bc.out, hex, (size_t)n);
		fifo_put(&c->bc.out, p, len);
		fifo_put(&c->bc.out, "\r\n", 2);
	}
}

/*
 * The checks a streamed body's bytes pass, announced by message msg
 * ("BODY", "BODY_SPLICED"): a request with a streamed body (after the JSON
 * body only a streamed body continues, §9.1 item 6), no BODY_END yet
 * (stream_open); no more than a Content-Length declared, counted
 * (stream_count). 0, or conn_violation()'s -1.
 */
static int
stream_is(struct conn *c, const char *msg)
{
	if (!splice_streamed(c))
		return conn_violation(c, "%s on a request without a streamed "
		    "body", msg);
	return 0;
}

static int
stream_open(struct conn *c, const char *msg)
{
	return c->ul.stream_done ? conn_violation(c, "%s after BODY_END", msg) :
	    0;
}

static int
stream_count(struct conn *c, uint64_t n, const char *msg)
{
	if (c->fw.body_kind == FB_LENGTH && c->body_got + n > c->body_len)
		return conn_violation(c, "%s beyond the declared "
		    "Content-Length", msg);
	c->body_got += n;
	c->ul.stream_started = 1;
	return 0;
}

int
splice_on_body(struct conn *c, const char *p, size_t len)
{
	if (stream_is(c, "BODY") < 0 || stream_open(c, "BODY") < 0 ||
	    stream_count(c, len, "BODY") < 0)
		return -1;
	if (c->ck.kind != CK_NONE)
		return SPLICE_CHECKED;	/* the checker takes them (dispatch.c) */
	stream_bytes(c, p, len);
	return 0;
}

int
splice_on_body_end(struct conn *c)
{
	if (stream_is(c, "BODY_END") < 0)
		return -1;
	if (c->ul.stream_done)
		return conn_violation(c, "second BODY_END");
	if (c->fw.body_kind == FB_LENGTH && c->body_got != c->body_len)
		return conn_violation(c, "BODY_END before the declared length");
	c->ul.stream_done = c->ul.stream_started = 1;
	return 0;
}

void
splice_last_chunk(struct conn *c)
{
	if (c->ul.up_crlf)
		fifo_put(&c->bc.out, "\r\n", 2);
	fifo_put(&c->bc.out, "0\r\n\r\n", 5);
	c->ul.up_crlf = 0;
}

void
splice_upload_failed(struct conn *c)
{
	fifo_free(&c->bc.out);
	rpipe_close(&c->ul.up);
	c->ul.up_next = 0;
	c->ul.upload_failed = 1;
}

int
splice_hold_open(struct conn *c)
{
	return rpipe_open(&c->ul.up, RPIPE_SIZE);
}

void
splice_pipe_close(struct conn *c)
{
	rpipe_close(&c->ul.up);
}

/* ------------------------------------------------------------ early bytes */

int
splice_on_client_data(struct conn *c, const struct ipc_msg *m)
{
	size_t n = m->u.client_data.data.len;

	if (!c->fw.hijack)
		return conn_violation(c, "CLIENT_DATA on a route that does not "
		    "hijack");
	if (c->ul.early_done)
		return conn_violation(c, "CLIENT_DATA after its end");
	if (c->ul.early_total + n > IPC_EARLY_MAX)
		return conn_violation(c, "more than %d early stream bytes",
		    IPC_EARLY_MAX);
	c->ul.early_total += n;
	if (n == 0) {
		c->ul.early_done = 1;
		splice_early_ready(c);
		return 1;
	}
	if (c->rs != RS_WAIT_DONE)
		fifo_put(&c->ul.early, m->u.client_data.data.p, n);
	return 0;
}

void
splice_early_ready(struct conn *c)
{
	if (c->rp.framing != FR_SWITCHED || !c->ul.early_done ||
	    c->ul.early.len == 0)
		return;
	if (!c->ul.upload_failed)
		fifo_put(&c->bc.out, fifo_data(&c->ul.early),
		    c->ul.early.len);
	fifo_free(&c->ul.early);
}

/* ------------------------------------------------------ a switched stream */

int
splice_client_pipe(struct conn *c)
{
	return c->ul.up.fd[0] >= 0 || rpipe_open(&c->ul.up, RPIPE_UP_SIZE) == 0;
}

ssize_t
splice_from_client(struct conn *c, size_t room, int *failed)
{
	ssize_t n = rpipe_fill(&c->ul.up, c->client, room);

	*failed = n > 0 && splice_to_backend(c) == -1;
	return n;
}

/* -------------------------------------------------------------- body pipe */

void
splice_offer_body_pipe(struct conn *c)
{
	struct ipc_msg m = { .type = IPC_BODY_PIPE, .req = c->req };
	/* a checked upload: the child fills its own pipe (check.c) */
	struct rpipe *p = c->ck.kind != CK_NONE ? &c->ck.in : &c->ul.up;
	int rc;

	if (c->ul.up_given || c->pid < 0 || !ipc_queue_empty(&c->outq) ||
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
	c->ul.up_given = 1;
	c->ul.up_next = 0;
}

int
splice_on_body_spliced(struct conn *c, const struct ipc_msg *m)
{
	uint32_t n = m->u.body_spliced.len;
	int k;

	if (stream_is(c, "BODY_SPLICED") < 0)
		return -1;
	if (!c->ul.up_given)
		return conn_violation(c, "BODY_SPLICED without a body pipe");
	if (stream_open(c, "BODY_SPLICED") < 0)
		return -1;
	if (n == 0 || n > IPC_SPLICED_MAX)
		return conn_violation(c, "BODY_SPLICED of %u bytes", n);
	if (stream_count(c, n, "BODY_SPLICED") < 0)
		return -1;
	if (c->ck.kind != CK_NONE)
		return SPLICE_CHECKED;	/* the checker moves them (dispatch.c) */
	if (upload_over(c) || c->ul.up.fd[0] < 0) {
		rpipe_close(&c->ul.up);	/* the exchange is over: dropped */
		c->ul.up_next = 0;
		return 0;
	}
	/*
	 * After the bytes announced before: the child's socket
	 * stays readable while they go out, so announcements that come
	 * meanwhile make one batch, framed as one chunk.
	 */
	c->ul.up_next += n;
	if (c->ul.up.len > 0)
		return 0;
	/* at once when the backend takes it: no wake-up per announcement */
	k = splice_upload(c);
	return k == -2 ? -1 : k == -1 ? 1 : 0;
}

void
splice_frame(struct conn *c, uint64_t k)
{
	char hex[32];
	int n;

	if (c->fw.body_kind == FB_CHUNKED) {
		n = snprintf(hex, sizeof(hex), "%s%llx\r\n", c->ul.up_crlf ?
		    "\r\n" : "", (unsigned long long)k);
		fifo_put(&c->bc.out, hex, (size_t)n);
		c->ul.up_crlf = 0;
	}
	c->ul.up.len = (size_t)k;
}

/* Frame the next batch of announced bytes: one chunk line for it. */
static void
next_batch(struct conn *c)
{
	splice_frame(c, c->ul.up_next);
	c->ul.up_next = 0;
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
		if (c->ul.up.len == 0) {
			if (c->ul.up_next == 0)
				return moved;
			next_batch(c);
			continue;
		}
		k = splice_to_backend(c);
		if (k < 0)
			return k;
		moved |= k;
		if (c->ul.up.len > 0)
			return moved;		/* the backend is full */
	}
}

int
splice_to_backend(struct conn *c)
{
	struct pollfd p = { .fd = c->ul.up.fd[0], .events = POLLIN };
	ssize_t n;
	int moved = 0;

	while ((n = rpipe_drain(&c->ul.up, c->bc.fd, c->ul.up.len)) > 0) {
		moved = 1;
		if (c->ul.up.len == 0) {
			/* the chunk's CRLF goes with what follows (c->ul.up_crlf) */
			c->ul.up_crlf = c->fw.body_kind == FB_CHUNKED;
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
