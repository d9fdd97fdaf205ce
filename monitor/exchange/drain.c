/*
 * The answer to a forwarded request whose connection ended before it came
 * (doc/audit.md "A request the backend executed"): the request parser
 * broke the protocol or ended after the monitor had written the whole
 * request to the backend. The backend may act on it whatever happens to
 * the client, so the monitor does not cut the exchange short: it keeps
 * the backend connection, reads the answer's head (and a create's body,
 * for the new id) up to --backend-timeout, and only then writes the
 * request's record, with the backend's status. Nothing is written to the
 * client (it is gone); at most DRAIN_SLOTS at a time, the rest closed as
 * before. The request passed verification and the replay: letting the
 * backend finish it grants nothing the policy did not allow.
 */
#include "monitor/gateway.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "http/http.h"
#include "monitor/evloop.h"
#include "monitor/exchange/audit.h"
#include "monitor/exchange/exchange.h"

#define DRAIN_READ_MAX	(HTTP_HEAD_MAX + 8192)	/* head and a create's body */

struct drain {
	int fd;
	long long deadline;		/* ms, monotonic */
	struct conn *g;			/* the request's record, detached */
	char *buf;
	size_t len;
	enum audit_outcome o;		/* the record to write */
	char code[33];
	char *why;
};

/* A record-only copy of c's request; c keeps nothing of its record. */
static struct conn *
detach(struct conn *c)
{
	struct conn *g = xcalloc(1, sizeof(*g));

	g->gw = c->gw;
	g->lis = c->lis;
	g->id = c->id;
	g->req = c->req;
	g->req_ms = c->req_ms;
	verify_detach(g, c);	/* its method, target, path (moved) */
	g->rec = c->rec;
	g->rec.msg = NULL;
	memset(&c->rec, 0, sizeof(c->rec));
	audit_rec_clear(c);
	return g;
}

int
drain_take(struct conn *c, enum audit_outcome o, const char *code,
    const char *why)
{
	struct gateway *gw = c->gw;
	struct drain *d;

	if (!c->rec.forwarded || c->rp.head_done || c->bc.fd < 0 ||
	    c->bc.internal || c->rs != RS_RESPONSE || !c->ul.stream_done ||
	    c->bc.out.len > 0 || c->ul.up.len > 0 || c->fw.hijack ||
	    gw->ndrains == DRAIN_SLOTS || c->fw.log_path == NULL)
		return 0;
	d = xcalloc(1, sizeof(*d));
	d->fd = c->bc.fd;
	c->bc.fd = -1;		/* not closed with the connection */
	d->deadline = now_ms() + gw->backend_timeout_ms;
	d->o = o;
	snprintf(d->code, sizeof(d->code), "%s", code != NULL ? code : "");
	d->why = xstrdup(why);
	d->buf = xmalloc(DRAIN_READ_MAX + 1);
	if (c->rp.rheadlen > 0) {
		d->len = c->rp.rheadlen > DRAIN_READ_MAX ? DRAIN_READ_MAX :
		    c->rp.rheadlen;
		memcpy(d->buf, c->rp.rhead, d->len);
	}
	d->g = detach(c);
	c->logged = 1;		/* its record is the drain's now */
	gw->drains[gw->ndrains] = d;
	/* the registration passes to the drain (ev_watch takes it over) */
	ev_watch(gw, d->fd, EV_DRAIN, gw->ndrains, NULL, POLLIN);
	gw->ndrains++;
	return 1;
}

/* Write slot i's record (status: the backend's, 0 none) and free it. */
static void
finish(struct gateway *gw, int i, int status, const char *body, size_t len,
    int chunked)
{
	struct drain *d = gw->drains[i];
	struct conn *g = d->g;

	if (audit_head(g, status) && body != NULL) {
		audit_body(g, body, len, chunked);
	}
	audit_settle(g);
	if (d->o == AO_ALLOWED)
		audit_abandon(g, g->fw.method, g->fw.log_path, d->why);
	else
		audit_violation(g, d->o, d->code[0] != '\0' ? d->code : NULL,
		    d->why);
	ev_close(gw, d->fd);
	audit_rec_clear(g);
	verify_free(g);
	free(g);
	free(d->buf);
	free(d->why);
	free(d);
	gw->drains[i] = gw->drains[--gw->ndrains];
	if (i < gw->ndrains)
		ev_watch(gw, gw->drains[i]->fd, EV_DRAIN, i, NULL, POLLIN);
}

/*
 * What slot i read so far: 1 and finished when the answer is known (its
 * head, and for a create its whole body when it fits), 0 to read on.
 */
static int
progress(struct gateway *gw, int i, int eof)
{
	struct drain *d = gw->drains[i];
	struct http_response resp;
	char *body = NULL;
	size_t blen = 0, off = 0;
	int n;

	for (;;) {
		n = http_parse_response(d->buf + off, d->len - off, &resp);
		if (n == -2 && !eof && d->len < DRAIN_READ_MAX)
			return 0;
		if (n < 0) {
			finish(gw, i, 0, NULL, 0, 0);
			return 1;
		}
		if (resp.status >= 200 || resp.status == 101)
			break;
		off += (size_t)n;	/* an interim answer */
	}
	off += (size_t)n;
	if (!d->g->rec.is_create || resp.status < 200 || resp.status >= 300) {
		finish(gw, i, resp.status, NULL, 0, 0);
		return 1;
	}
	if (resp.chunked) {
		if (http_chunked_decode_all(d->buf + off, d->len - off, &body,
		    &blen) == -1 && !eof && d->len < DRAIN_READ_MAX)
			return 0;
		free(body);
	} else if (resp.has_content_length && resp.content_length >
	    d->len - off && !eof && d->len < DRAIN_READ_MAX) {
		return 0;
	} else if (!resp.has_content_length && !eof &&
	    d->len < DRAIN_READ_MAX) {
		return 0;	/* to the end of the connection */
	}
	finish(gw, i, resp.status, d->buf + off, d->len - off, resp.chunked);
	return 1;
}

/* Read what slot i's connection holds: 1 at its end or an error. */
static int
fill(struct drain *d)
{
	ssize_t n;

	if (d->len >= DRAIN_READ_MAX)
		return 0;
	n = recv(d->fd, d->buf + d->len, DRAIN_READ_MAX - d->len, MSG_DONTWAIT);
	if (n > 0)
		d->len += (size_t)n;
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
}

void
drain_on_event(struct gateway *gw, int i, int fd)
{
	if (i < 0 || i >= gw->ndrains || gw->drains[i]->fd != fd)
		return;
	(void)progress(gw, i, fill(gw->drains[i]));
}

long long
drain_tick(struct gateway *gw, long long now)
{
	long long next = 0;
	int i;

	/* backwards: finish() moves the last slot into the hole */
	for (i = gw->ndrains - 1; i >= 0; i--) {
		if (now >= gw->drains[i]->deadline) {
			(void)fill(gw->drains[i]);	/* what came last */
			(void)progress(gw, i, 1);
		} else if (next == 0 || gw->drains[i]->deadline < next) {
			next = gw->drains[i]->deadline;
		}
	}
	return next;
}

void
drain_close_all(struct gateway *gw)
{
	/* with eof set, progress() always finishes the slot */
	while (gw->ndrains > 0)
		(void)progress(gw, gw->ndrains - 1, 1);
}
