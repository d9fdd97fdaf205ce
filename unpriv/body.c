/*
 * Request bodies in the request parser (http.md §4, privsep.md §8): a
 * buffered JSON body read into memory for the policy, a streamed body sent
 * as BODY messages or spliced into the monitor's body pipe (doc/privsep.md
 * "Uploads"). See unpriv/body.h.
 */
#include "unpriv/body.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "http/http.h"
#include "ipc/proto.h"
#include "policy/policy.h"
#include "unpriv/child_io.h"

#define BODY_MS			120000	/* http.md §1.3 */
#define CHUNK_GAP		8	/* "\r\n8000\r\n" between chunks */

/* More body bytes into c->in; a client that stalls or leaves ends the child. */
static void
body_more(struct child *c)
{
	ssize_t got;

	child_begin(c, 0);
	got = child_read_client(c, BODY_MS);

	if (got < 0)
		child_abandon(c, 0, IPC_BYE_TIMEOUT, "abandoned: no byte of "
		    "the request body for 120 s");
	if (got == 0)
		child_abandon(c, 0, IPC_BYE_CLIENT_CLOSED, "abandoned: the "
		    "client left before the request body was complete");
}

int
body_read(struct child *c, const struct http_request *hr, size_t max,
    char **out, size_t *outlen, struct cg_refusal *r)
{
	struct http_chunked ch;
	size_t cap = 0, len = 0, used, wrote;
	char *buf = NULL;

	if (!hr->chunked) {
		if (hr->content_length > max)
			return cg_refuse(r, "too-large", "request body exceeds 8 MiB");
		while (c->inlen < hr->content_length)
			body_more(c);
		*outlen = (size_t)hr->content_length;
		*out = xmalloc(*outlen + 1);
		memcpy(*out, c->in, *outlen);
		child_consume(c, *outlen);
		return 0;
	}
	http_chunked_init(&ch, 0);
	for (;;) {
		if (cap - len < READ_CHUNK) {
			cap = len + READ_CHUNK;
			buf = xrealloc(buf, cap + 1);
		}
		wrote = cap - len;
		if (http_chunked_feed(&ch, c->in, c->inlen, buf + len, &wrote,
		    &used) < 0) {
			free(buf);
			return cg_refuse(r, "malformed", "invalid chunked body");
		}
		child_consume(c, used);
		len += wrote;
		if (len > max) {
			free(buf);
			return cg_refuse(r, "too-large", "request body exceeds 8 MiB");
		}
		if (ch.done)
			break;
		if (wrote == 0 && used == 0)
			body_more(c);
	}
	*out = buf != NULL ? buf : xmalloc(1);
	*outlen = len;
	return 0;
}

/* ---------------------------------------------------------------- stream */

void
body_send(struct child *c, uint16_t type, const char *p, size_t len)
{
	struct ipc_msg m = { .type = type, .fd = -1 };
	size_t n;

	m.req = c->req;
	while (len > 0) {
		n = len > IPC_DATA_MAX ? IPC_DATA_MAX : len;
		m.u.body.data = SN(p, n);
		if (type == IPC_CLIENT_DATA)
			m.u.client_data.data = m.u.body.data;
		child_send(c, &m);
		p += n;
		len -= n;
	}
}

void
body_give_up(struct child *c, uint8_t reason)
{
	struct ipc_msg m;

	child_send_done(c);
	child_recv(c, &m);
	(void)child_response_end(c, &m);
	if (reason == IPC_BYE_TIMEOUT)	/* a client silent for BODY_MS */
		child_exit(c, reason);
	/* the monitor may have answered: a client still sending reads it */
	child_linger_exit(c, reason);
}

/* BODY_SPLICED for the bytes spliced into the body pipe so far. */
static void
announce(struct child *c)
{
	struct ipc_msg m = { .type = IPC_BODY_SPLICED, .fd = -1 };

	if (c->up_pending == 0)
		return;
	m.req = c->req;
	m.u.body_spliced.len = c->up_pending;
	c->up_pending = 0;
	child_send(c, &m);
}

/*
 * The body's next bytes from the client into the body pipe (doc/privsep.md
 * "Uploads"), never through the child's memory: a Content-Length body counted
 * (*left), a chunked one's lines read into c->in for the decoder ch
 * (body_stream feeds it), its data spliced (*data: what is left of the current
 * chunk). The monitor frames what BODY_SPLICED announces. Returns 2 when the
 * body is complete, 1 after progress, 0 when the client has nothing or the
 * pipe no room (EAGAIN), -1 when the monitor closed the pipe (the exchange is
 * over; BODY goes on). Gives up on a client gone or an invalid chunk (as
 * body_stream).
 */
static int
splice_body(struct child *c, const struct http_request *hr,
    struct http_chunked *ch, uint64_t *left, uint64_t *data)
{
	uint64_t want;
	ssize_t n;

	if (hr->chunked && *data == 0 &&
	    (*data = http_chunked_skip_data(ch)) == 0) {
		/*
		 * Between chunks: CRLF and the next size line, 8 bytes for the
		 * 32 KiB chunks of Go clients ("\r\n8000\r\n"), read into c->in
		 * for body_stream's decoder; a longer line takes more reads, a
		 * shorter one leaves data bytes (sent as BODY) or the next
		 * request's first bytes (kept) there.
		 */
		if (c->incap - c->inlen < CHUNK_GAP) {
			c->incap = c->inlen + CHUNK_GAP;
			c->in = xrealloc(c->in, c->incap);
		}
		n = recv(c->client, c->in + c->inlen, CHUNK_GAP, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n <= 0)
			body_give_up(c, IPC_BYE_CLIENT_CLOSED);
		c->inlen += (size_t)n;
		return 1;
	}
	want = hr->chunked ? *data : *left;
	if (want > IPC_SPLICED_MAX - c->up_pending)
		want = IPC_SPLICED_MAX - c->up_pending;
	n = splice(c->client, NULL, c->up, NULL, (size_t)want,
	    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n < 0 && errno == EPIPE) {
		/*
		 * The rest of the chunk comes through c->in now: the decoder
		 * reads it again, or it would take its first byte for the
		 * CRLF, call the body invalid and end the child without its
		 * linger, and the client still sending lost the monitor's
		 * answer to a broken pipe (a refused 16 MiB load in 1 MiB
		 * chunks: 12 times in 20, tests/forwarded/run.py).
		 */
		if (hr->chunked)
			http_chunked_unskip(ch, *data);
		*data = 0;
		close(c->up);
		c->up = -1;
		return -1;
	}
	if (n <= 0)
		body_give_up(c, IPC_BYE_CLIENT_CLOSED);
	c->up_pending += (uint32_t)n;
	if (c->up_pending == IPC_SPLICED_MAX)
		announce(c);
	if (hr->chunked)
		*data -= (uint64_t)n;
	else if ((*left -= (uint64_t)n) == 0)
		return 2;
	return 1;
}

int
body_stream(struct child *c, const struct http_request *hr)
{
	struct http_chunked ch;
	struct ipc_msg m;
	struct pollfd p[2];
	uint64_t left = hr->has_content_length ? hr->content_length : 0;
	uint64_t data = 0;
	char *dec = xmalloc(IPC_DATA_MAX);
	size_t used, wrote;
	int done = !hr->chunked && left == 0, rc;
	int readable = 1, full = 0;	/* client known readable; pipe full */

	http_chunked_init(&ch, 0);
	while (!done) {
		/* through the pipe, once offered and the buffer is used */
		if (c->inlen == 0 && c->up >= 0 && !full && readable) {
			rc = splice_body(c, hr, &ch, &left, &data);
			if (rc == 2)
				break;
			if (rc != 0)
				continue;
			/* readable, yet nothing moved: the pipe is full */
			full = readable == 2;
			readable = 0;
		}
		/* use what is buffered first */
		if (c->inlen > 0) {
			/* (pipe bytes announced first: BODY keeps the order) */
			if (hr->chunked) {
				wrote = IPC_DATA_MAX;
				if (http_chunked_feed(&ch, c->in, c->inlen, dec,
				    &wrote, &used) < 0)
					body_give_up(c, IPC_BYE_ERROR);
				child_consume(c, used);
				if (wrote > 0) {
					announce(c);
					body_send(c, IPC_BODY, dec, wrote);
				}
				if (ch.done)
					break;
				if (wrote > 0 || used > 0)
					continue;
			} else {
				wrote = c->inlen < left ? c->inlen : (size_t)left;
				announce(c);
				body_send(c, IPC_BODY, c->in, wrote);
				child_consume(c, wrote);
				left -= wrote;
				if (left == 0)
					break;
				continue;
			}
		}
		announce(c);	/* before waiting: the monitor moves them */
		p[0] = (struct pollfd){ .fd = c->client, .events = POLLIN };
		if (c->up >= 0 && full)
			p[0] = (struct pollfd){ .fd = c->up, .events = POLLOUT };
		p[1] = (struct pollfd){ .fd = c->ipc, .events = POLLIN };
		do
			rc = poll(p, 2, BODY_MS);
		while (rc < 0 && errno == EINTR);
		if (rc <= 0)
			body_give_up(c, IPC_BYE_TIMEOUT);
		if (p[1].revents) {
			child_recv_any(c, &m);
			if (m.type == IPC_BODY_PIPE)
				continue;
			free(dec);
			return child_response_end(c, &m);
		}
		if (!p[0].revents)
			continue;
		if (c->up >= 0 && full) {
			full = 0;
			readable = 1;
		} else if (c->up >= 0 && c->inlen == 0) {
			readable = 2;
		} else if (child_read_client(c, 0) == 0 && c->inlen == 0) {
			body_give_up(c, IPC_BYE_CLIENT_CLOSED);
		}
	}
	free(dec);
	announce(c);
	m = (struct ipc_msg){ .type = IPC_BODY_END, .fd = -1, .req = c->req };
	child_send(c, &m);
	return -1;
}
