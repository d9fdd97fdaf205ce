/*
 * The response to a forwarded request, written to the client by the
 * monitor itself (privsep.md §1 amendment; http.md §8, §9): the backend's
 * head validated, logged and rewritten; its body relayed as raw bytes
 * while the monitor follows the framing to its end; after a protocol
 * switch, both directions relayed with their own backpressure and
 * half-closes. The monitor interprets no client byte: in a switched
 * stream it only moves them. RESPONSE_END tells the child the exchange is
 * over (the sync point; the child answers DONE, except after a light
 * exchange kept alive: privsep.md §8).
 */
#include "monitor/exchange/relay.h"
#include "monitor/exchange/backend.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/budget.h"
#include "monitor/conn.h"
#include "monitor/exchange/audit.h"
#include "monitor/exchange/evfilter.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/listfilter.h"
#include "monitor/exchange/ocache.h"
#include "monitor/exchange/splice.h"
#include "monitor/log.h"
#include "monitor/pins.h"

#define RHEAD_MAX	(HTTP_HEAD_MAX + IPC_DATA_MAX)	/* bytes read for a head */

/*
 * How many bytes c's relay buffer f may hold in the monitor's heap: the
 * larger bound max with a stream reserve (budget_stream), else
 * RELAY_FLOOR (the memory budget). The relay pipes' bytes are
 * the kernel's and keep their own bounds.
 */
static size_t
heap_limit(const struct conn *c, size_t max)
{
	return c->stream_big ? max : RELAY_FLOOR;
}

/* Ask for the stream reserve once a buffer is half-way to the floor. */
static void
want_reserve(struct conn *c, const struct fifo *f)
{
	if (!c->stream_big && f->len >= RELAY_FLOOR / 2)
		(void)budget_stream(c);
}

/* The client is gone (hang-up, reset, broken pipe): end everything. */
static void
client_gone(struct conn *c)
{
	conn_abandon_exchange(c, "the client left before the response "
	    "ended");
}

static void write_error(struct conn *c, enum audit_outcome o,
    const struct cg_refusal *r);

/*
 * A gateway error instead of the response (no usable head, 502; none in
 * time, 504: http.md §8.1, §10; no room in the memory budget, 503),
 * written by the monitor, with what to do (hint; NULL: the code's own);
 * then close.
 */
static void
fail_hint(struct conn *c, const char *code, const char *hint,
    const char *detail)
{
	struct cg_refusal r;

	if (hint != NULL)
		cg_refuse_hint(&r, code, hint, "%s", detail);
	else
		cg_refuse(&r, code, "%s", detail);
	write_error(c, AO_ERROR, &r);
}

/*
 * r's error response instead of the backend's (the record's outcome o:
 * AO_ERROR for 502/504, AO_REFUSED for a checker's refusal); then close.
 */
static void
write_error(struct conn *c, enum audit_outcome o, const struct cg_refusal *r)
{
	char *resp;
	size_t len;

	if (c->rec.deferred)
		audit_flush(c);
	else if (!c->logged)
		audit_write(c, o, c->fw.method, c->fw.log_path, r->code, r->status,
		    conn_duration_ms(c), r->detail);
	conn_close_backend(c);
	c->closing = 1;
	c->rp.resp_done = 1;
	c->rp.head_done = 1;
	c->lf.on = 0;
	c->lf.ev_on = 0;
	c->rp.framing = FR_NONE;
	resp = cg_error_response(r, c->fw.is_head, &len);
	fifo_free(&c->rp.down);
	fifo_put(&c->rp.down, resp, len);
	free(resp);
}

/* fail_hint with the code's own hint. */
static void
fail(struct conn *c, const char *code, const char *detail)
{
	fail_hint(c, code, NULL, detail);
}

/* The body ends early (http.md §8.5): what was relayed stays, then close. */
static void
truncated(struct conn *c, const char *detail)
{
	if (c->lf.on) {		/* nothing of it was written yet: a 502 */
		c->lf.on = 0;
		fail(c, "backend-unreachable", "the backend's list answer ended "
		    "early or has invalid chunked framing");
		return;
	}
	log_msg(LOG_INFO, "truncated", "backend response body truncated: %s",
	    detail);
	conn_close_backend(c);
	c->closing = 1;
	c->rp.resp_done = 1;
}

static void emit_filtered(struct conn *c);

/* Filtered event lines out[0..len) as one chunk of the client's answer. */
static void
put_chunk(struct conn *c, char *out, size_t len)
{
	char line[24];
	int w;

	if (len > 0) {
		w = snprintf(line, sizeof(line), "%zx\r\n", len);
		fifo_put(&c->rp.down, line, (size_t)w);
		fifo_put(&c->rp.down, out, len);
		fifo_put(&c->rp.down, "\r\n", 2);
	}
	free(out);
}

/* The filtered events answer ends: its last line, then the last chunk. */
static void
events_end(struct conn *c)
{
	char *out = NULL;
	size_t len = 0;

	evfilter_end(c->fw.ef, &out, &len);
	put_chunk(c, out, len);
	fifo_put(&c->rp.down, "0\r\n\r\n", 5);
	c->lf.ev_on = 0;
}

/*
 * The last n bytes of c->rp.down are new body bytes of an events answer
 * (evfilter.h): they are taken out, decoded from the backend's framing,
 * and only the kept event lines go back, as a chunk of the client's
 * chunked answer.
 */
static void
events_body(struct conn *c, size_t n)
{
	const char *in = fifo_data(&c->rp.down) + c->rp.down.len - n;
	char *data = xmalloc(n + 1), *out = NULL;
	size_t dlen = 0, used = n, olen = 0, raw = n;

	/*
	 * A partial line is held, and parsed once whole: up to 1 MiB (about
	 * as much again for its parse: attributes are strings) within the
	 * stream reserve of the memory budget, else within RELAY_FLOOR
	 * (podman's event lines are well under 4 KiB).
	 */
	evfilter_limit(c->fw.ef, budget_stream(c) ? EVFILTER_LINE_MAX :
	    RELAY_FLOOR);

	switch (c->rp.framing) {
	case FR_LENGTH:
		if (n > c->rp.remaining) {
			n = used = (size_t)c->rp.remaining;
			c->bc.keep = 0;
		}
		c->rp.remaining -= n;
		if (c->rp.remaining == 0)
			c->rp.resp_done = 1;
		memcpy(data, in, n);
		dlen = n;
		break;
	case FR_CHUNKED:
		dlen = n;
		if (http_chunked_feed(&c->rp.chunk, in, n, data, &dlen,
		    &used) < 0) {
			free(data);
			fifo_unput(&c->rp.down, n);
			c->lf.ev_on = 0;	/* what was relayed stays; no last chunk */
			truncated(c, "invalid chunked framing");
			return;
		}
		if (used < n)
			c->bc.keep = 0;
		if (c->rp.chunk.done)
			c->rp.resp_done = 1;
		break;
	case FR_EOF:
		memcpy(data, in, n);
		dlen = n;
		break;
	default:		/* no body where none belongs */
		if (n > 0)
			c->bc.keep = 0;
		break;
	}
	fifo_unput(&c->rp.down, raw);
	evfilter_feed(c->fw.ef, data, dlen, &out, &olen);
	free(data);
	put_chunk(c, out, olen);
	if (c->rp.resp_done) {
		events_end(c);
		audit_flush(c);
		backend_release(c);
	}
}

/*
 * The last n bytes of c->rp.down are new body bytes: keep those that belong
 * to the response (http.md §8.4) and see whether it is complete. A list
 * answer that is post-filtered (doc/filters.md) collects them instead, bounded.
 */
static void
take_body(struct conn *c, size_t n)
{
	size_t used, wrote = 0;

	if (c->lf.ev_on) {
		events_body(c, n);
		return;
	}

	switch (c->rp.framing) {
	case FR_NONE:
		if (n > 0)
			c->bc.keep = 0;	/* bytes where none belong */
		fifo_unput(&c->rp.down, n);
		n = 0;
		break;
	case FR_LENGTH:
		if (n > c->rp.remaining) {
			/* bytes past the end: dropped, the connection not reused */
			fifo_unput(&c->rp.down, n - (size_t)c->rp.remaining);
			n = (size_t)c->rp.remaining;
			c->bc.keep = 0;
		}
		c->rp.remaining -= n;
		if (c->rp.remaining == 0)
			c->rp.resp_done = 1;
		break;
	case FR_CHUNKED:
		if (http_chunked_feed(&c->rp.chunk, fifo_data(&c->rp.down) +
		    c->rp.down.len - n, n, NULL, &wrote, &used) < 0) {
			fifo_unput(&c->rp.down, n - used);
			truncated(c, "invalid chunked framing");
			return;
		}
		if (used < n)
			c->bc.keep = 0;	/* bytes past the end */
		fifo_unput(&c->rp.down, n - used);
		n = used;
		if (c->rp.chunk.done)
			c->rp.resp_done = 1;
		break;
	case FR_EOF:
	case FR_SWITCHED:
		break;
	}
	/* a create's answer names the new id (its record waits for it) */
	if (c->rec.deferred && n > 0)
		audit_body(c, fifo_data(&c->rp.down) + c->rp.down.len - n, n,
		    c->rp.framing == FR_CHUNKED);
	if (c->lf.on && n > 0) {
		if (c->lf.len - c->lf.headlen + n > LISTFILTER_RAW_MAX) {
			fail(c, "backend-unreachable", "the backend's list answer "
			    "could not be filtered");
			return;
		}
		/* held three times: as received, decoded, rebuilt (budget.c) */
		if (budget_take(c, 3 * (uint64_t)n) < 0) {
			char detail[256];

			budget_detail(c->gw, detail, sizeof(detail));
			fail_hint(c, "too-many-connections", budget_hint(), detail);
			return;
		}
		c->lf.buf = xrealloc(c->lf.buf, c->lf.len + n);
		memcpy(c->lf.buf + c->lf.len, fifo_data(&c->rp.down) +
		    c->rp.down.len - n, n);
		c->lf.len += n;
		fifo_unput(&c->rp.down, n);
	}
	if (c->rp.resp_done && c->lf.on)
		emit_filtered(c);
	if (c->rp.resp_done)
		audit_flush(c);
	/* nothing past the end is relayed; a clean end may be reused */
	if (c->rp.resp_done && c->rp.framing != FR_SWITCHED)
		backend_release(c);
}

/*
 * Write the final head p[0..headlen) (parsed into resp) for the client
 * (http.md §8.3): the status line and fields as received, without Connection, Keep-Alive and
 * Proxy-Connection and a backend's Container-Gateway, plus Connection:
 * close when the connection ends after this response (§5.6) and our own
 * Container-Gateway (usability.sh u_chain).
 */
static void
put_head(struct conn *c, const char *p, size_t headlen,
    const struct http_response *resp, int rechunk)
{
	const char *eol, *le;
	size_t i;

	/* a parsed head: every line ends in CRLF, and no LF comes alone */
	eol = memchr(p, '\n', headlen);
	fifo_put(&c->rp.down, p, (size_t)(eol - p) + 1);
	for (i = 0; i < resp->nfields; i++) {
		const struct http_field *f = &resp->fields[i];

		/* ours replaces any the backend sent (exactly one: u_chain) */
		if (cg_ci_eq(f->name, f->name_len, "Connection") ||
		    cg_ci_eq(f->name, f->name_len, "Keep-Alive") ||
		    cg_ci_eq(f->name, f->name_len, "Proxy-Connection") ||
		    cg_ci_eq(f->name, f->name_len, CG_HEADER_NAME))
			continue;
		if (rechunk && (cg_ci_eq(f->name, f->name_len,
		    "Content-Length") || cg_ci_eq(f->name, f->name_len,
		    "Transfer-Encoding")))
			continue;
		le = memchr(f->name, '\n', headlen - (size_t)(f->name - p));
		fifo_put(&c->rp.down, f->name, (size_t)(le - f->name) + 1);
	}
	if (rechunk)
		fifo_put(&c->rp.down, "Transfer-Encoding: chunked\r\n", 28);
	if (c->closing)
		fifo_put(&c->rp.down, "Connection: close\r\n", 19);
	fifo_put(&c->rp.down, CG_HEADER_LINE "\r\n",
	    sizeof(CG_HEADER_LINE "\r\n") - 1);
}

/*
 * A post-filtered list answer is complete (doc/filters.md): keep the project's
 * elements (monitor/exchange/listfilter.c) and write the rebuilt answer with its
 * Content-Length, or a 502 when it cannot be filtered. Its access line is
 * written now, with the status the client gets.
 */
static void
emit_filtered(struct conn *c)
{
	struct http_response resp;
	char *out;
	size_t len;
	int n;

	c->lf.on = 0;
	if (listfilter_response(c->fw.lf_kind, c->fw.lf_api,
	    c->gw->lis[c->lis].backend_kind, c->gw->root, c->lf.buf,
	    c->lf.headlen, c->rp.framing == FR_CHUNKED,
	    c->lf.buf + c->lf.headlen, c->lf.len - c->lf.headlen, &out,
	    &len) == -1) {
		fail(c, "backend-unreachable", "the backend's list answer could "
		    "not be filtered");
		return;
	}
	n = http_parse_response(out, len, &resp);
	if (n <= 0) {		/* the rebuilt head: a broken invariant */
		free(out);
		fail(c, "backend-unreachable", "the backend's list answer could "
		    "not be filtered");
		return;
	}
	audit_write(c, AO_ALLOWED, c->fw.method, c->fw.log_path, NULL, c->rp.status,
	    conn_duration_ms(c), NULL);
	/* a Content-Length answer now, whatever the backend's framing */
	c->closing = c->fw.client_close || !c->ul.stream_done;
	put_head(c, out, (size_t)n, &resp, 0);
	fifo_put(&c->rp.down, out + n, len - (size_t)n);
	free(out);
	free(c->lf.buf);
	c->lf.buf = NULL;
	c->lf.len = c->lf.headlen = 0;
}

/*
 * Parse what c->rp.rhead holds (http.md §8.1-8.2, §9.1): interim responses
 * are dropped, the final head is logged and written to c->rp.down with its
 * framing set, the bytes after it taken as body. Returns 0 (done or need
 * more), -1 after a 502.
 */
static int
head_bytes(struct conn *c)
{
	struct http_response resp;
	int n;

	for (;;) {
		n = http_parse_response(c->rp.rhead, c->rp.rheadlen, &resp);
		if (n == -2 && c->rp.rheadlen < RHEAD_MAX)
			return 0;
		/* a protocol switch nobody asked for is no valid answer */
		if (n < 0 || (resp.status == 101 && !c->fw.hijack)) {
			fail(c, "backend-unreachable", "the backend sent an "
			    "invalid response");
			return -1;
		}
		if (resp.status >= 200 || resp.status == 101)
			break;
		if (++c->rp.interim > HTTP_INTERIM_MAX) {
			fail(c, "backend-unreachable", "the backend sent too "
			    "many interim responses");
			return -1;
		}
		memmove(c->rp.rhead, c->rp.rhead + n,
		    c->rp.rheadlen - (size_t)n);
		c->rp.rheadlen -= (size_t)n;
	}
	c->rp.head_done = 1;
	c->rp.sp_known = 0;
	c->rp.sp_off = c->rp.sp_wait = 0;
	c->rp.status = resp.status;
	conn_settle(c, resp.status);	/* a create's pins stay or go */
	c->bc.deadline = 0;
	c->bc.keep = backend_keeps_alive(&resp);
	/* a kept ownership ends with its resource (ocache.c) */
	if (c->fw.oc_kind >= 0 && (resp.status == 404 || (resp.status >= 200 &&
	    resp.status < 300 && c->fw.op == FOP_REMOVE)))
		ocache_drop(c->gw, c->fw.oc_kind, c->fw.oc_id);
	/* a list answer is post-filtered whole, then logged (filters.md) */
	c->lf.on = c->fw.lf_kind != LF_NONE && resp.status == 200 && !c->fw.is_head &&
	    !(c->fw.hijack && http_response_switches(&resp));
	/* an events answer is filtered line by line, re-chunked */
	c->lf.ev_on = c->fw.ef != NULL && resp.status == 200 && !c->fw.is_head;
	/* a create's record waits for the id in its body (audit.c) */
	if (!audit_head(c, resp.status) && !c->lf.on)
		audit_write(c, AO_ALLOWED, c->fw.method, c->fw.log_path, NULL,
		    resp.status, conn_duration_ms(c), NULL);
	if (c->fw.hijack && http_response_switches(&resp)) {
		c->rp.framing = FR_SWITCHED;
		c->rs = RS_SWITCHED;
		c->closing = 1;
		/* relayed byte for byte (§9.2); the early bytes go first */
		fifo_put(&c->rp.down, c->rp.rhead, (size_t)n);
		splice_early_ready(c);
	} else {
		c->rp.framing = backend_framing(&resp, c->fw.is_head);
		c->rp.remaining = resp.content_length;
		http_chunked_init(&c->rp.chunk, 1);
		/* §5.6; a request body still arriving ends the connection too */
		if (c->fw.client_close || c->rp.framing == FR_EOF ||
		    !c->ul.stream_done)
			c->closing = 1;
		if (c->lf.on) {
			c->lf.buf = xmalloc((size_t)n);
			memcpy(c->lf.buf, c->rp.rhead, (size_t)n);
			c->lf.len = c->lf.headlen = (size_t)n;
		} else {
			put_head(c, c->rp.rhead, (size_t)n, &resp, c->lf.ev_on);
		}
		if (c->rp.framing == FR_NONE || (c->rp.framing == FR_LENGTH &&
		    c->rp.remaining == 0)) {
			c->rp.resp_done = 1;
			if (c->lf.on)
				emit_filtered(c);
			if (c->lf.ev_on)
				events_end(c);
		}
	}
	if (c->rp.rheadlen > (size_t)n && !c->rp.resp_done) {
		fifo_put(&c->rp.down, c->rp.rhead + n,
		    c->rp.rheadlen - (size_t)n);
		take_body(c, c->rp.rheadlen - (size_t)n);
	} else if (c->rp.rheadlen > (size_t)n) {
		c->bc.keep = 0;	/* bytes past a response without a body */
	}
	free(c->rp.rhead);
	c->rp.rhead = NULL;
	c->rp.rheadlen = 0;
	if (c->rp.resp_done) {
		audit_flush(c);
		backend_release(c);
	}
	return 0;
}

/* The backend closed its side, or its connection failed (err). */
static void
backend_ended(struct conn *c, int err)
{
	/* a pooled connection the backend had closed: once more, afresh */
	if (!c->rp.head_done && c->rp.rheadlen == 0 && backend_retry(c) == 0)
		return;
	if (!c->rp.head_done) {
		fail(c, "backend-unreachable", err ? "the backend connection "
		    "failed" : "the backend closed without a response");
	} else if (c->rp.framing == FR_SWITCHED) {
		c->rp.backend_eof = 1;
	} else if (c->rp.framing == FR_EOF && !err) {
		c->rp.resp_done = 1;
		conn_close_backend(c);
		if (c->lf.on)
			emit_filtered(c);
		if (c->lf.ev_on)
			events_end(c);
	} else if (!c->rp.resp_done) {
		truncated(c, "the backend closed early");
	}
}

/* ------------------------------------------------------- the relay pipe */

/*
 * Large response bodies and a switched stream's backend direction move
 * from the backend socket into c's relay pipe (c->rp.dp) and from there
 * to the client (to_client), the monitor following the backend's framing
 * by counting: Content-Length, until close, chunk sizes read with
 * MSG_PEEK (doc/privsep.md "Relaying"). The client's bytes are never
 * looked at here.
 */

#define PEEK_MAX	64	/* bytes peeked at for chunk lines */

/* pipe_from_backend() outcomes */
enum { PIPE_NONE, PIPE_MOVED, PIPE_COPY, PIPE_EOF, PIPE_ERROR, PIPE_SHORT };

/*
 * Open c's relay pipe (pipe_usable); the first time on this connection
 * also raise the client's SO_SNDBUF to RELAY_DOWN_MAX (fewer wake-ups of
 * the client; it stays for the connection's lifetime). The client socket
 * is non-blocking for good (accept.c; the child's filter has no
 * F_SETFL), so splices to it never wait. Returns 0, or -1 (c->rp.sp_off
 * set) when no pipe can be made.
 */
static int
pipe_open(struct conn *c)
{
	int sz = (int)RELAY_DOWN_MAX;

	if (rpipe_open(&c->rp.dp, RPIPE_SIZE) < 0) {
		c->rp.sp_off = 1;
		return -1;
	}
	if (!c->rp.sp_sized)
		(void)setsockopt(c->client, SOL_SOCKET, SO_SNDBUF, &sz,
		    sizeof(sz));
	c->rp.sp_sized = 1;
	return 0;
}

/*
 * 1 when the response body's next bytes may go through c's relay pipe
 * (doc/privsep.md "Relaying"), opening it on first use (a chunked body's at
 * its first chunk of RELAY_SPLICE_MIN data): not a list answer being
 * collected, not a Content-Length body under RELAY_SPLICE_MIN, not when no
 * pipe can be opened (c->rp.sp_off: the exchange copies through
 * c->rp.down, as before). Splices to the client go as soon as bytes are
 * in the pipe, POLLOUT waited for only after EAGAIN (pipe_open;
 * doc/privsep.md "Relaying").
 */
static int
pipe_usable(struct conn *c)
{
	if (c->lf.on || c->lf.ev_on || c->rp.sp_off ||
	    c->rp.framing == FR_NONE || c->client < 0)
		return 0;
	/* chunked: opened by chunk_ahead at the first large chunk */
	if (c->rp.dp.fd[0] >= 0 || c->rp.framing == FR_CHUNKED)
		return 1;
	if (c->rp.framing == FR_LENGTH && c->rp.remaining < RELAY_SPLICE_MIN)
		return 0;
	return pipe_open(c) == 0;
}

/*
 * Chunked: look at the next backend bytes without taking them (MSG_PEEK)
 * and let the decoder count the chunk lines there (http.md §8.4). When
 * they end inside a chunk with at least RELAY_SPLICE_MIN data bytes, or
 * end the body, those bytes and the rest of that chunk's data are counted
 * (c->rp.sp_known) for the pipe: PIPE_MOVED. PIPE_NONE when nothing is
 * there, PIPE_EOF/PIPE_ERROR when the backend ended, PIPE_COPY when
 * these bytes are copied instead (small chunks, a line split across the
 * backend's writes, invalid framing: the copy path relays the valid
 * prefix and ends the body as before).
 */
static int
chunk_ahead(struct conn *c)
{
	struct http_chunked ch = c->rp.chunk;
	char pk[PEEK_MAX];
	size_t used, wrote = 0;
	uint64_t data;
	ssize_t n;

	do
		n = recv(c->bc.fd, pk, sizeof(pk), MSG_PEEK | MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return PIPE_NONE;
	if (n <= 0)
		return n == 0 ? PIPE_EOF : PIPE_ERROR;
	if (http_chunked_feed(&ch, pk, (size_t)n, NULL, &wrote, &used) < 0)
		return PIPE_COPY;
	data = http_chunked_skip_data(&ch);
	if ((!ch.done && data < RELAY_SPLICE_MIN) ||
	    (c->rp.dp.fd[0] < 0 && (ch.done || pipe_open(c) < 0)))
		return PIPE_COPY;
	if (ch.done && used < (size_t)n)
		c->bc.keep = 0;	/* bytes past the end */
	c->rp.chunk = ch;
	c->rp.sp_known = used + data;
	return PIPE_MOVED;
}

/*
 * Move the body's next bytes from the backend into the relay pipe,
 * bounded by RELAY_DOWN_MAX with c->rp.down, following the framing by
 * counting so that nothing past the end is taken (http.md §8.4); sets
 * c->rp.resp_done and releases the backend at the end. Returns PIPE_MOVED
 * after progress (PIPE_SHORT: fewer bytes than asked for, the socket is
 * empty for now), PIPE_NONE when there is nothing now, PIPE_COPY when
 * these bytes must go through c->rp.down instead (small chunks, a chunk line
 * split across writes, invalid framing), PIPE_EOF or PIPE_ERROR when
 * the backend's side ended (the caller handles it as for recv).
 */
static int
pipe_from_backend(struct conn *c)
{
	uint64_t want = RELAY_DOWN_MAX - c->rp.down.len - c->rp.dp.len;
	ssize_t n;
	int rc;

	if (c->rp.framing == FR_CHUNKED && c->rp.sp_known == 0 &&
	    (rc = chunk_ahead(c)) != PIPE_MOVED)
		return rc;
	if (c->rp.framing == FR_CHUNKED && want > c->rp.sp_known)
		want = c->rp.sp_known;
	else if (c->rp.framing == FR_LENGTH && want > c->rp.remaining)
		want = c->rp.remaining;
	n = rpipe_fill(&c->rp.dp, c->bc.fd, (size_t)want);
	if (n < 0 && errno == EAGAIN)
		return PIPE_NONE;
	if (n <= 0)
		return n == 0 ? PIPE_EOF : PIPE_ERROR;
	if (c->rp.framing == FR_LENGTH && (c->rp.remaining -= (uint64_t)n) == 0)
		c->rp.resp_done = 1;
	if (c->rp.framing == FR_CHUNKED &&
	    (c->rp.sp_known -= (uint64_t)n) == 0 && c->rp.chunk.done)
		c->rp.resp_done = 1;
	if (c->rp.resp_done)
		backend_release(c);
	return (uint64_t)n < want ? PIPE_SHORT : PIPE_MOVED;
}
int
relay_backend_wants_read(const struct conn *c)
{
	if (c->bc.fd < 0 || c->rs < RS_STREAM || c->rs == RS_WAIT_DONE ||
	    c->rp.resp_done || c->rp.backend_eof)
		return 0;
	if (!c->rp.head_done)
		return 1;
	/* a full pipe, or copied bytes that must follow the pipe's */
	if (c->rp.dp.len > 0 && (c->rp.dp.full || c->rp.sp_wait))
		return 0;
	return c->rp.down.len + c->rp.dp.len < RELAY_DOWN_MAX &&
	    c->rp.down.len < heap_limit(c, RELAY_DOWN_MAX);
}

int
relay_from_backend(struct conn *c)
{
	ssize_t n;
	int rc;

	if (!c->rp.head_done) {
		if (c->rp.rhead == NULL)
			c->rp.rhead = xmalloc(RHEAD_MAX);
		n = recv(c->bc.fd, c->rp.rhead + c->rp.rheadlen,
		    RHEAD_MAX - c->rp.rheadlen, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n <= 0) {
			backend_ended(c, n < 0);
			return 0;
		}
		c->rp.rheadlen += (size_t)n;
		(void)head_bytes(c);
		return 1;
	}
	if (pipe_usable(c)) {
		rc = pipe_from_backend(c);
		if (rc == PIPE_EOF || rc == PIPE_ERROR)
			backend_ended(c, rc == PIPE_ERROR);
		if (rc != PIPE_COPY)
			return rc == PIPE_MOVED ? 1 : rc == PIPE_SHORT ? 2 : 0;
	}
	if (c->rp.dp.len > 0) {	/* copied bytes go after the pipe's */
		c->rp.sp_wait = 1;
		return 0;
	}
	want_reserve(c, &c->rp.down);
	{
		size_t room = (c->rp.down.len < heap_limit(c, RELAY_DOWN_MAX) ?
		    heap_limit(c, RELAY_DOWN_MAX) - c->rp.down.len : 0);

		if (c->rp.framing == FR_LENGTH && c->rp.remaining < room)
			room = (size_t)c->rp.remaining;
		n = fifo_recv(&c->rp.down, c->bc.fd, room);
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		backend_ended(c, n < 0);
		return 0;
	}
	take_body(c, (size_t)n);
	return 1;
}

/*
 * Move client bytes towards the backend in a switched stream (§9.3): the
 * early bytes first, then what the client sends, while the backend's
 * buffer has room: through c->ul.up with splice(2) once the early bytes are
 * out (doc/privsep.md "Uploads"; the monitor holds both ends, nothing is
 * interpreted), through c->bc.out when no pipe can be made.
 */
static void
client_to_backend(struct conn *c)
{
	size_t room = RELAY_UP_MAX - c->bc.out.len - c->ul.up.len;
	ssize_t n;
	int failed;

	if (c->bc.out.len == 0 && !c->rp.sp_off && splice_client_pipe(c)) {
		n = splice_from_client(c, room, &failed);
		if (failed)
			relay_backend_write_failed(c);
	} else {
		want_reserve(c, &c->bc.out);
		if (c->bc.out.len >= heap_limit(c, RELAY_UP_MAX))
			return;
		if (room > heap_limit(c, RELAY_UP_MAX) - c->bc.out.len)
			room = heap_limit(c, RELAY_UP_MAX) - c->bc.out.len;
		n = fifo_recv(&c->bc.out, c->client, room);
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n < 0) {
		client_gone(c);
		return;
	}
	if (n == 0)
		c->rp.client_eof = 1;
}

/*
 * After progress in a switched stream: propagate the half-closes and end
 * the exchange when both directions are done (http.md §9.3).
 */
static void
switched_progress(struct conn *c)
{
	if (c->rp.client_eof && !c->rp.backend_shut && c->bc.out.len == 0 &&
	    c->ul.up.len == 0 &&
	    c->bc.fd >= 0) {
		shutdown(c->bc.fd, SHUT_WR);
		c->rp.backend_shut = 1;
	}
	if ((c->rp.backend_eof || c->bc.fd < 0) && !c->rp.client_shut &&
	    c->rp.down.len == 0 && c->rp.dp.len == 0) {
		shutdown(c->client, SHUT_WR);
		c->rp.client_shut = 1;
	}
	if (c->rp.client_shut && (c->rp.backend_shut || c->bc.fd < 0))
		conn_end_exchange(c);
}

/*
 * Write what waits for the client, c->rp.down then the relay pipe, as much
 * as the socket takes now (it is non-blocking: pipe_open; what
 * is left waits for POLLOUT); end the exchange when all is out.
 */
static void
to_client(struct conn *c)
{
	ssize_t n;

	if (c->rp.down.len > 0) {
		n = fifo_send(&c->rp.down, c->client);
		if (n < 0 && errno != EAGAIN) {
			client_gone(c);
			return;
		}
		if (c->rp.down.len > 0)
			return;
	}
	if (c->rp.dp.len > 0) {
		n = rpipe_drain(&c->rp.dp, c->client, c->rp.dp.len);
		if (n < 0 && errno != EAGAIN) {
			client_gone(c);
			return;
		}
		if (c->rp.dp.len > 0)
			return;
		c->rp.sp_wait = 0;
	}
	if (c->rp.framing == FR_SWITCHED)
		switched_progress(c);
	else if (c->rp.resp_done)
		conn_end_exchange(c);
}

/* 1 when the monitor may write to the client now (see relay_events). */
static int
may_write(const struct conn *c)
{
	/*
	 * On stream routes the child writes "100 Continue" after VERDICT and
	 * before its first BODY (http.md §5.5): nothing of ours goes first.
	 */
	return !splice_streamed(c) || c->ul.stream_started;
}

short
relay_client_events(const struct conn *c)
{
	short ev = 0;

	if (c->client < 0)
		return -1;
	/*
	 * The monitor asks the backend on the request's behalf (an ownership
	 * question, the named-resource phase): a client that leaves meanwhile
	 * ends the request at once (doc/reliability.md "Fault table"), not
	 * when the backend answers (up to --backend-timeout).
	 */
	if (c->rs == RS_FACT || c->rs == RS_PHASE || c->rs == RS_BUDGET)
		return 0;
	if (c->end_sent || (c->rs != RS_STREAM && c->rs != RS_RESPONSE &&
	    c->rs != RS_SWITCHED))
		return -1;
	if ((c->rp.down.len > 0 || c->rp.dp.len > 0) && may_write(c))
		ev |= POLLOUT;
	if (c->rp.framing == FR_SWITCHED && !c->rp.client_eof &&
	    c->ul.early_done && c->bc.out.len + c->ul.up.len < RELAY_UP_MAX &&
	    !c->ul.up.full &&
	    c->bc.out.len < heap_limit(c, RELAY_UP_MAX) &&
	    c->bc.fd >= 0 && !c->rp.backend_shut)
		ev |= POLLIN;
	/*
	 * With its direction towards the client done, a client that closes
	 * is no hang-up to watch for; its POLLHUP would only spin the loop
	 * while the bytes it sent wait for room.
	 */
	if (ev == 0 && c->rp.client_shut)
		return -1;
	return ev;
}

void
relay_on_client(struct conn *c, short revents)
{
	if ((c->rs == RS_FACT || c->rs == RS_PHASE || c->rs == RS_BUDGET) &&
	    (revents & (POLLHUP | POLLERR))) {
		/* its child, waiting for the answer, leaves with the connection */
		conn_abandon(c, "the client left before the response");
		c->dead = 1;
		return;
	}
	if (revents & POLLOUT)
		to_client(c);
	if (c->end_sent || c->client < 0)
		return;
	if ((revents & POLLERR) ||
	    ((revents & POLLHUP) && !c->rp.client_shut)) {
		/*
		 * Gone: a half-close (http.md §1.4) raises no POLLHUP on a
		 * unix socket, a close does (unless we shut ours first).
		 */
		client_gone(c);
		return;
	}
	if ((revents & (POLLIN | POLLHUP)) && c->rp.framing == FR_SWITCHED &&
	    (relay_client_events(c) & POLLIN)) {
		client_to_backend(c);
		if (!c->end_sent)
			switched_progress(c);
	}
}

void
relay_progress(struct conn *c)
{
	if (c->end_sent || c->client < 0 || c->rs < RS_STREAM)
		return;
	if ((c->rp.down.len > 0 || c->rp.dp.len > 0) && may_write(c))
		to_client(c);
	else if (c->rp.framing == FR_SWITCHED)
		switched_progress(c);
	else if (c->rp.resp_done && c->rp.down.len == 0 && c->rp.dp.len == 0 &&
	    may_write(c))
		conn_end_exchange(c);
}

void
relay_backend_write_failed(struct conn *c)
{
	/* the upward direction is over; the backend may still answer */
	splice_upload_failed(c);
	if (c->rp.framing == FR_SWITCHED) {
		c->rp.client_eof = 1;
		c->rp.backend_shut = 1;
		switched_progress(c);
	}
}

void
relay_answer(struct conn *c, const char *decision, const char *code,
    int status, const char *detail, int closing, char *resp, size_t len)
{
	conn_close_backend(c);
	audit_write(c, strcmp(decision, "allow") == 0 ? AO_ALLOWED :
	    strcmp(decision, "deny") == 0 ? AO_REFUSED : AO_ERROR, c->fw.method,
	    c->fw.log_path, code, status, conn_duration_ms(c), detail);
	c->rp.status = status;
	conn_settle(c, status);
	c->rp.head_done = c->rp.resp_done = 1;
	c->rp.framing = FR_LENGTH;
	c->rp.remaining = 0;
	c->closing = closing || c->fw.client_close;
	fifo_free(&c->rp.down);
	fifo_put(&c->rp.down, resp, len);
	free(resp);
	c->rs = RS_RESPONSE;
	relay_progress(c);
}

void
relay_refuse(struct conn *c, const struct cg_refusal *r)
{
	write_error(c, AO_REFUSED, r);
	relay_progress(c);
}

void
relay_head_timeout(struct conn *c)
{
	struct cg_refusal r;

	cg_refuse_timeout(&r, conn_backend_name(c), c->gw->backend_timeout_ms);
	fail(c, "backend-timeout", r.detail);
	relay_progress(c);
}

void
relay_filter_reset(struct conn *c)
{
	free(c->lf.buf);
	c->lf.buf = NULL;
	c->lf.len = c->lf.headlen = 0;
	c->lf.on = 0;
	c->lf.ev_on = 0;
}

void
relay_init(struct conn *c)
{
	rpipe_init(&c->rp.dp);
}

void
relay_reset(struct conn *c)
{
	c->rp.head_done = c->rp.interim = c->rp.resp_done = 0;
	relay_filter_reset(c);
	c->rp.framing = FR_NONE;
	c->rp.client_eof = c->rp.backend_eof = 0;
	c->rp.client_shut = c->rp.backend_shut = 0;
}

void
relay_free(struct conn *c)
{
	fifo_free(&c->rp.down);
	rpipe_close(&c->rp.dp);
	free(c->rp.rhead);
	c->rp.rhead = NULL;
	c->rp.rheadlen = 0;
}
