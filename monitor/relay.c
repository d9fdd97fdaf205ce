/*
 * The backend's answer to a forwarded request (http.md §8, §9): the head
 * validated and logged, the body's framing followed to its end, a
 * protocol switch recognised; the bytes travel to the child, which writes
 * them to its client.
 */
#include "monitor/gateway.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/listfilter.h"
#include "monitor/log.h"

static void
send_backend_end(struct conn *c, uint8_t reason)
{
	struct ipc_msg m = { .type = IPC_BACKEND_END, .req = c->req };

	if (c->sent_end)
		return;
	c->sent_end = 1;
	m.u.backend_end.reason = reason;
	conn_send(c, &m);
}

static void
send_backend_data(struct conn *c, const char *p, size_t len)
{
	struct ipc_msg m = { .type = IPC_BACKEND_DATA, .req = c->req };
	size_t n;

	while (len > 0) {
		n = len > IPC_DATA_MAX ? IPC_DATA_MAX : len;
		m.u.backend_data.data.p = p;
		m.u.backend_data.data.len = (uint32_t)n;
		conn_send(c, &m);
		p += n;
		len -= n;
	}
}

/*
 * A post-filtered list answer (issue 7, doc/filters.md) ends: keep the
 * project's elements (monitor/listfilter.c) and send the rebuilt answer
 * with its Content-Length, or a 502 when it cannot be filtered. Its
 * access line is written now, with the status the client gets.
 */
static void
emit_filtered(struct conn *c)
{
	char *out;
	size_t len;

	c->lf_on = 0;
	if (listfilter_response(c->lf_kind, c->lf_api,
	    c->gw->lis[c->lis].backend_kind, c->gw->root, c->lf_buf,
	    c->lf_headlen, c->framing == 2, c->lf_buf + c->lf_headlen,
	    c->lf_len - c->lf_headlen, &out, &len) == -1) {
		access_line(c, c->method, c->log_path, "error",
		    "backend-unreachable", 502, conn_duration_ms(c),
		    "the backend's list answer could not be filtered");
		send_backend_end(c, IPC_END_ERROR);
		return;
	}
	access_line(c, c->method, c->log_path, "allow", NULL, c->status,
	    conn_duration_ms(c), NULL);
	send_backend_data(c, out, len);
	free(out);
}

/* Body bytes towards the child, or into a post-filtered answer (bounded). */
static void
relay_out(struct conn *c, const char *p, size_t len)
{
	if (!c->lf_on) {
		send_backend_data(c, p, len);
		return;
	}
	if (c->lf_len - c->lf_headlen + len > LISTFILTER_RAW_MAX) {
		c->lf_len = c->lf_headlen + LISTFILTER_RAW_MAX + 1;	/* fails */
		return;
	}
	c->lf_buf = xrealloc(c->lf_buf, c->lf_len + len);
	memcpy(c->lf_buf + c->lf_len, p, len);
	c->lf_len += len;
}

/*
 * A framed response is complete: tell the child, and close the backend so
 * that bytes after the declared end (a HEAD answer with a body, extra
 * bytes past Content-Length) are never relayed (http.md §8.4).
 */
static void
finish_framed(struct conn *c)
{
	if (c->lf_on)
		emit_filtered(c);
	send_backend_end(c, IPC_END_EOF);
	conn_close_backend(c);
	c->rs = RS_WAIT_DONE;
}

/*
 * No usable response head (http.md §8.1-8.2): 502 to the child, its
 * access line, and the backend closed.
 */
static void
fail_head(struct conn *c, const char *detail)
{
	access_line(c, c->method, c->log_path, "error", "backend-unreachable",
	    502, conn_duration_ms(c), detail);
	send_backend_end(c, IPC_END_ERROR);
	conn_close_backend(c);
	c->rs = RS_WAIT_DONE;
}

void
relay_response(struct conn *c, const char *p, size_t len)
{
	struct http_response resp;
	size_t used, wrote, take;
	int n;

	if (!c->head_done) {
		c->rhead = xrealloc(c->rhead, c->rheadlen + len);
		memcpy(c->rhead + c->rheadlen, p, len);
		c->rheadlen += len;
		for (;;) {
			n = http_parse_response(c->rhead, c->rheadlen, &resp);
			if (n == -2 && c->rheadlen <= HTTP_HEAD_MAX)
				return;
			/* a protocol switch nobody asked for is no valid answer */
			if (n < 0 || (resp.status == 101 && !c->hijack)) {
				fail_head(c, "the backend sent an invalid response");
				return;
			}
			if (resp.status < 200 && resp.status != 101) {
				if (++c->interim > HTTP_INTERIM_MAX) {
					fail_head(c, "the backend sent too many "
					    "interim responses");
					return;
				}
				memmove(c->rhead, c->rhead + n, c->rheadlen - (size_t)n);
				c->rheadlen -= (size_t)n;
				continue;
			}
			break;
		}
		c->head_done = 1;
		c->status = resp.status;
		/* a list answer is post-filtered whole (issue 7) */
		c->lf_on = c->lf_kind != LF_NONE && resp.status == 200 &&
		    !c->is_head;
		if (!c->lf_on)
			access_line(c, c->method, c->log_path, "allow", NULL,
			    resp.status, conn_duration_ms(c), NULL);
		if (c->hijack && http_response_switches(&resp)) {
			c->rs = RS_SWITCHED;
			c->framing = 3;
		} else if (c->is_head || resp.status == 204 || resp.status == 304) {
			c->framing = 0;
		} else if (resp.chunked) {
			c->framing = 2;
			http_chunked_init(&c->chunk, 1);
		} else if (resp.has_content_length) {
			c->framing = 1;
			c->remaining = resp.content_length;
		} else {
			c->framing = 3;
		}
		c->bc.deadline = 0;
		if (c->lf_on) {
			c->lf_buf = xmalloc((size_t)n);
			memcpy(c->lf_buf, c->rhead, (size_t)n);
			c->lf_len = c->lf_headlen = (size_t)n;
		} else
			send_backend_data(c, c->rhead, (size_t)n);
		p = c->rhead + n;
		len = c->rheadlen - (size_t)n;
		if (c->framing == 0) {
			finish_framed(c);
			return;
		}
	}
	switch (c->framing) {
	case 1:
		take = len < c->remaining ? len : (size_t)c->remaining;
		relay_out(c, p, take);
		c->remaining -= take;
		if (c->remaining == 0)
			finish_framed(c);
		break;
	case 2:
		wrote = 0;
		if (http_chunked_feed(&c->chunk, p, len, NULL, &wrote, &used) < 0) {
			log_msg(LOG_INFO, "truncated", "backend response body "
			    "truncated: invalid chunked framing");
			if (c->lf_on)
				access_line(c, c->method, c->log_path, "error",
				    "backend-unreachable", 502,
				    conn_duration_ms(c), "the backend's list "
				    "answer has invalid chunked framing");
			send_backend_end(c, IPC_END_ERROR);
			conn_close_backend(c);
			c->rs = RS_WAIT_DONE;
			return;
		}
		relay_out(c, p, used);
		if (c->chunk.done)
			finish_framed(c);
		break;
	default:
		relay_out(c, p, len);
		break;
	}
}

void
relay_backend_eof(struct conn *c)
{
	c->backend_eof = 1;
	if (c->rs == RS_SWITCHED) {
		send_backend_end(c, IPC_END_EOF);
		return;
	}
	if (!c->head_done) {
		access_line(c, c->method, c->log_path, "error", "backend-unreachable",
		    502, conn_duration_ms(c),
		    "the backend closed without a response");
		send_backend_end(c, IPC_END_ERROR);
	} else if (c->framing == 3) {
		if (c->lf_on)
			emit_filtered(c);
		send_backend_end(c, IPC_END_EOF);
	} else if (!c->sent_end) {
		if (c->lf_on)
			access_line(c, c->method, c->log_path, "error",
			    "backend-unreachable", 502, conn_duration_ms(c),
			    "the backend's list answer ended early");
		log_msg(LOG_INFO, "truncated", "backend response body truncated: "
		    "the backend closed early");
		send_backend_end(c, IPC_END_ERROR);
	}
	conn_close_backend(c);
	c->rs = RS_WAIT_DONE;
}

void
relay_head_timeout(struct conn *c, long long now)
{
	access_line(c, c->method, c->log_path, "error", "backend-timeout",
	    504, c->elapsed_ms + (unsigned)(now - c->fwd_ms),
	    "the backend did not answer in time");
	send_backend_end(c, IPC_END_TIMEOUT);
	conn_close_backend(c);
	c->rs = RS_WAIT_DONE;
}
