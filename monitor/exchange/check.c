/*
 * Checked uploads (doc/privsep.md "Builds and archives"): the body of a
 * build (compat and libpod POST build), of an archive put into a
 * container (PUT containers/{id}/archive, both APIs) or of an image load
 * (POST images/load, both APIs) reaches the backend only as far as a
 * checker has approved it. The checker is a request
 * parser spare (forked from the zygote, sandboxed alike) given the body
 * instead of a connection (CHECK_START). The monitor never looks at a
 * body byte: the request parser's announced bytes go from its body pipe
 * (c->ck.in) into the checker's pipe with tee(2) and into the hold pipe
 * (c->ul.up) with splice(2); BODY datagrams are written to both. Only the
 * first `approved` bytes of the hold pipe are framed and spliced to the
 * backend (splice.c splice_to_backend). So a compromised request parser
 * cannot skip the check: what the checker reads is what the backend
 * gets, and nothing unread goes out. A refusal ends the backend
 * connection in the middle of the body (the daemon reads a truncated
 * request) and answers the client's 403 with the checker's reason.
 */
#include "monitor/exchange/relay.h"
#include "monitor/exchange/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/children.h"
#include "monitor/conn.h"
#include "monitor/evloop.h"
#include "monitor/exchange/baseimg.h"
#include "monitor/exchange/check.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/splice.h"
#include "monitor/log.h"

/*
 * Archives: bytes approved only this far behind what the checker read,
 * so that a refused entry in an archive of up to this size leaves the
 * daemon nothing extracted (the hold pipe holds 1 MiB when the kernel
 * allows it; CHECK_FLUSH when it holds less).
 */
#define CHECK_HOLD	(768u << 10)

int
check_kind_of(const struct conn *c)
{
	if (!splice_streamed(c))
		return CK_NONE;
	switch (c->fw.op) {
	case FOP_BUILD:
		return CK_BUILD;
	case FOP_ARCHIVE_PUT:
		return CK_ARCHIVE;
	case FOP_LOAD:
		return CK_LOAD;
	default:
		return CK_NONE;
	}
}

/* The checker failed or refused: answer the client, end the upload. */
static void
refuse(struct conn *c, const struct cg_refusal *r)
{
	/* the detail quotes archive entry names: escaped (cli.md §14.1) */
	char *d = log_quote(r->detail, strlen(r->detail));

	log_msg(LOG_INFO, "check", "connection %llu: %s %s refused by the "
	    "checker: %s: %s", (unsigned long long)c->id, c->fw.method,
	    c->fw.log_path != NULL ? c->fw.log_path : "-", r->code, d);
	free(d);
	c->ck.state = CK_REFUSED;
	baseimg_end(c);			/* a held build's connection: truncated */
	rpipe_close(&c->ck.in);		/* the request parser stops splicing */
	splice_pipe_close(c);
	fifo_free(&c->ck.pend);
	if (c->ck.feed >= 0) {
		close(c->ck.feed);
		c->ck.feed = -1;
	}
	if (c->rp.head_done || c->rs != RS_STREAM) {
		conn_close_backend(c);
		conn_abandon_exchange(c, "abandoned: the checker refused the body");
		return;
	}
	relay_refuse(c, r);
}

/*
 * The base images' step ended (baseimg.c, through c->ck.img_over): r NULL
 * when every image passed and the build's end goes, else its refusal.
 */
static void
images_over(struct conn *c, const struct cg_refusal *r)
{
	if (r != NULL)
		refuse(c, r);
	else
		check_pump(c);
}

static void
refuse_failed(struct conn *c, const char *what)
{
	struct cg_refusal r;

	cg_refuse_hint(&r, "malformed", "send a tar archive as the docker and "
	    "podman clients make it", "the gateway could not check the %s: %s",
	    c->ck.kind == CK_BUILD ? "build context" : c->ck.kind == CK_LOAD ?
	    "image archive" : "archive", what);
	refuse(c, &r);
}

void
check_begin(struct conn *c)
{
	struct rpipe feed;

	c->ck.kind = check_kind_of(c);
	if (c->ck.kind == CK_NONE)
		return;
	c->ck.state = CK_WAITING;
	/* both 1 MiB when the kernel allows: fewer rounds per body */
	rpipe_init(&feed);
	if (splice_hold_open(c) < 0 ||
	    rpipe_open(&feed, RPIPE_SIZE) < 0) {
		struct cg_refusal r;

		splice_pipe_close(c);
		cg_refuse(&r, "too-many-connections", "the gateway has no "
		    "descriptor left to check the body with");
		c->ck.state = CK_REFUSED;
		relay_refuse(c, &r);
		return;
	}
	c->ck.feed = feed.fd[1];
	c->ck.feed_rd = feed.fd[0];
	c->gw->ck_waiting++;
	check_adopt(c->gw);
}

/* Give the ready spare to c as its checker. */
static void
adopt(struct conn *c, struct conn *s)
{
	struct gateway *gw = c->gw;
	struct ipc_msg m = { .type = IPC_CHECK_START };
	const char *q = strchr(c->fw.target, '?');
	int rc;

	gw->spare = NULL;
	gw->ck_waiting--;
	c->ck.pid = s->pid;
	c->ck.ipc = s->ipc;
	/* the record goes; its process and socket are c's checker now */
	ev_forget(s);
	s->pid = -1;
	s->ipc = -1;
	s->dead = 1;
	mark_dirty(gw, s);
	m.fd = c->ck.feed_rd;
	m.u.check_start.kind = c->ck.kind == CK_BUILD ? IPC_CHECK_BUILD :
	    c->ck.kind == CK_LOAD ? IPC_CHECK_LOAD : IPC_CHECK_ARCHIVE;
	m.u.check_start.podman = gw->lis[c->lis].backend_kind != CG_DOCKER;
	m.u.check_start.libpod = c->api == CG_API_LIBPOD;
	m.u.check_start.hold = c->ck.kind == CK_ARCHIVE ? CHECK_HOLD : 0;
	m.u.check_start.query = ipc_cstr(q != NULL ? q + 1 : "");
	ipc_audit(c, "to-checker", &m);
	rc = ipc_send(c->ck.ipc, &m, MSG_DONTWAIT);
	close(c->ck.feed_rd);
	c->ck.feed_rd = -1;
	if (rc != IPC_OK) {
		refuse_failed(c, "its checker could not be started");
		return;
	}
	c->ck.state = CK_RUNNING;
	mark_dirty(gw, c);
	check_pump(c);
}

void
check_adopt(struct gateway *gw)
{
	struct conn *c, *s = gw->spare;

	if (gw->ck_waiting == 0 || s == NULL || !s->ready || s->zpending ||
	    s->pid <= 0 || s->started || s->dead)
		return;
	TAILQ_FOREACH(c, &gw->conns, entry)
		if (!c->dead && c->ck.state == CK_WAITING) {
			adopt(c, s);
			return;
		}
	gw->ck_waiting = 0;	/* none left (they ended) */
}

int
check_reads_child(const struct conn *c)
{
	return c->ck.state != CK_WAITING && c->ck.pend.len == 0 &&
	    c->ck.in.len == 0;
}

/* The hold pipe is full and nothing is approved to go: ask for it. */
static void
stuck(struct conn *c)
{
	struct ipc_msg m = { .type = IPC_CHECK_FLUSH, .fd = -1 };

	if (c->ck.flushed || c->ck.state != CK_RUNNING || c->ul.up.len > 0 ||
	    c->ck.approved > c->ck.released)
		return;
	c->ck.flushed = 1;
	ipc_audit(c, "to-checker", &m);
	if (ipc_send(c->ck.ipc, &m, MSG_DONTWAIT) != IPC_OK)
		refuse_failed(c, "its checker stopped answering");
}

/* BODY bytes into the checker's pipe and the hold pipe. */
static int
feed_pend(struct conn *c)
{
	const char *d = fifo_data(&c->ck.pend);
	size_t len = c->ck.pend.len, k;
	ssize_t w;

	while (c->ck.pend_fed < len) {
		if (c->ck.given < c->ck.skip_to) {
			/* in the gap: the checker does not get them */
			k = len - c->ck.pend_fed;
			if (k > c->ck.skip_to - c->ck.given)
				k = (size_t)(c->ck.skip_to - c->ck.given);
			c->ck.pend_fed += k;
			c->ck.given += k;
			continue;
		}
		w = write(c->ck.feed, d + c->ck.pend_fed, len - c->ck.pend_fed);
		if (w <= 0)
			break;
		c->ck.pend_fed += (size_t)w;
		c->ck.given += (uint64_t)w;
	}
	while (c->ck.pend_held < len) {
		w = write(c->ul.up.fd[1], d + c->ck.pend_held,
		    len - c->ck.pend_held);
		if (w <= 0)
			break;
		c->ck.pend_held += (size_t)w;
	}
	k = c->ck.pend_fed < c->ck.pend_held ? c->ck.pend_fed :
	    c->ck.pend_held;
	fifo_consume(&c->ck.pend, k);
	c->ck.pend_fed -= k;
	c->ck.pend_held -= k;
	c->ck.fed += k;
	if (c->ck.pend_held < c->ck.pend.len)
		stuck(c);	/* the hold pipe is full */
	return 0;
}

/*
 * Announced body pipe bytes: tee(2) into the checker's pipe, then exactly
 * those moved into the hold pipe. Returns -1 after a violation.
 */
static int
feed_in(struct conn *c)
{
	struct pollfd p = { .fd = c->ck.in.fd[0], .events = POLLIN };
	ssize_t n;

	for (;;) {
		if (c->ck.in_teed > 0) {
			n = splice(c->ck.in.fd[0], NULL, c->ul.up.fd[1], NULL,
			    c->ck.in_teed, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n <= 0) {
				if (n < 0 && errno == EAGAIN)
					stuck(c);
				return 0;
			}
			c->ck.in_teed -= (size_t)n;
			c->ck.in.len -= (size_t)n;
			c->ck.fed += (uint64_t)n;
			continue;
		}
		if (c->ck.in.len == 0)
			return 0;
		if (c->ck.given < c->ck.skip_to) {
			/* in the gap: straight into the hold pipe */
			size_t k = c->ck.in.len;

			if (k > c->ck.skip_to - c->ck.given)
				k = (size_t)(c->ck.skip_to - c->ck.given);
			n = splice(c->ck.in.fd[0], NULL, c->ul.up.fd[1], NULL, k,
			    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n > 0) {
				c->ck.in.len -= (size_t)n;
				c->ck.given += (uint64_t)n;
				c->ck.fed += (uint64_t)n;
				continue;
			}
			if (n < 0 && errno == EAGAIN && poll(&p, 1, 0) == 1) {
				stuck(c);	/* the hold pipe is full */
				return 0;
			}
			(void)conn_violation(c, "BODY_SPLICED beyond the bytes "
			    "in the body pipe");
			c->dead = 1;
			return -1;
		}
		n = tee(c->ck.in.fd[0], c->ck.feed, c->ck.in.len,
		    SPLICE_F_NONBLOCK);
		if (n > 0) {
			c->ck.in_teed = (size_t)n;
			c->ck.given += (uint64_t)n;
			continue;
		}
		if (n < 0 && errno == EAGAIN && poll(&p, 1, 0) == 1)
			return 0;	/* the checker's pipe is full */
		(void)conn_violation(c, "BODY_SPLICED beyond the bytes in the "
		    "body pipe");
		c->dead = 1;
		return -1;
	}
}

/*
 * Frame and release approved bytes of the hold pipe to the backend, the
 * body's end once all of it is approved. Returns 1 when everything
 * released is written (call again), 0 otherwise.
 */
static int
release_one(struct conn *c)
{
	uint64_t lim = c->ck.approved < c->ck.fed ? c->ck.approved : c->ck.fed;
	uint64_t k;

	if (c->ul.up.len > 0 || c->bc.out.len > 0 || c->bc.fd < 0 ||
	    c->ul.upload_failed || c->rs != RS_STREAM)
		return 0;
	/*
	 * A body of known length ends with its last byte: that byte waits
	 * for the ok verdict whatever the checker approved (a skipped gap
	 * may reach past the body's end; hostile row
	 * check-archive-ends-in-skip saw the whole body forwarded)
	 */
	if (c->ck.state != CK_OK && c->fw.body_kind == FB_LENGTH &&
	    c->body_len > 0 && lim >= c->body_len)
		lim = c->body_len - 1;
	if (lim > c->ck.released) {
		k = lim - c->ck.released;
		if (k > IPC_SPLICED_MAX)
			k = IPC_SPLICED_MAX;
		splice_frame(c, k);	/* its chunk line, if chunked */
		c->ck.released += k;
	} else if (c->ck.state == CK_IMAGES && c->ck.end_seen &&
	    c->ck.released == lim && c->ck.img_step == IMG_NONE) {
		/* all but the end is with the daemon: its base images first */
		baseimg_start(c);
		return 0;
	} else if (c->ck.state == CK_OK && c->ck.end_seen &&
	    c->ck.released == c->ck.fed && !c->ck.final_sent) {
		/* the whole body is approved: now its end (dispatch.c's) */
		c->ck.final_sent = 1;
		if (c->fw.body_kind == FB_CHUNKED)
			splice_last_chunk(c);
		c->rs = RS_RESPONSE;
		if (!c->fw.no_head_timeout && !c->rp.head_done)
			c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
	} else {
		return 0;
	}
	if (c->bc.out.len > 0 && backend_write(c) < 0) {
		relay_backend_write_failed(c);
		return 0;
	}
	if (c->bc.out.len == 0 && c->ul.up.len > 0 && splice_to_backend(c) == -1) {
		relay_backend_write_failed(c);
		return 0;
	}
	return c->bc.out.len == 0 && c->ul.up.len == 0 && !c->ck.final_sent;
}

static void
release(struct conn *c)
{
	int i;

	/* a few rounds at once: an unwritten rest waits for POLLOUT */
	for (i = 0; i < 8 && release_one(c); i++)
		;
}

void
check_pump(struct conn *c)
{
	uint64_t fed, released;
	int i;

	if (c->ck.kind == CK_NONE || c->ck.state == CK_WAITING ||
	    c->ck.state == CK_REFUSED || c->dead || c->ck.parked_on)
		return;
	/*
	 * Until nothing moves: bytes released to the backend free room in the
	 * hold pipe for the next announced ones, which nothing else would
	 * move (the child, the checker and the backend may all be waiting).
	 */
	for (i = 0; i < 16; i++) {
		fed = c->ck.fed;
		released = c->ck.released;
		if (c->ck.feed >= 0) {
			if (c->ck.pend.len > 0)
				(void)feed_pend(c);
			if (c->ck.pend.len == 0 && c->ck.in.len > 0 &&
			    feed_in(c) < 0)
				return;
			/* everything fed: the checker reads the end */
			if (c->ck.end_seen && c->ck.pend.len == 0 &&
			    c->ck.in.len == 0 && c->ck.given < c->ck.skip_to) {
				refuse_failed(c, "it ends inside an entry's data");
				return;
			}
			if (c->ck.end_seen && c->ck.pend.len == 0 &&
			    c->ck.in.len == 0) {
				close(c->ck.feed);
				c->ck.feed = -1;
			}
		}
		if (c->ck.state == CK_REFUSED)
			return;
		release(c);
		if (c->ck.fed == fed && c->ck.released == released)
			break;
	}
	mark_dirty(c->gw, c);
}

int
check_on_body(struct conn *c, const char *p, size_t n)
{
	if (c->ck.state == CK_REFUSED || c->rs == RS_WAIT_DONE)
		return 0;
	fifo_put(&c->ck.pend, p, n);
	check_pump(c);
	return 0;
}

int
check_on_spliced(struct conn *c, uint32_t n)
{
	if (c->ck.state == CK_REFUSED || c->rs == RS_WAIT_DONE ||
	    c->ck.in.fd[0] < 0) {
		rpipe_close(&c->ck.in);	/* the exchange is over: dropped */
		return 0;
	}
	c->ck.in.len += n;
	check_pump(c);
	return c->dead ? -1 : 0;
}

void
check_on_body_end(struct conn *c)
{
	c->ck.end_seen = 1;
	check_pump(c);
}

/*
 * CHECK_SKIP: the checker approves the body's bytes up to `until` without
 * reading them (the rest of an entry's data, chk_skippable). The ones not
 * yet in its pipe stay out of it: the gap starts at the first byte not
 * given (or where the checker is, when an earlier gap has not all
 * arrived) and is told with CHECK_SKIP_AT. Like every approval this is
 * the checker's word; the monitor keeps its counts consistent (a gap
 * only ahead of what the checker read, one at a time, a verdict only once
 * every byte up to the gap's end went by). Returns -1 after a refusal.
 */
static int
on_skip(struct conn *c, const struct ipc_msg *m)
{
	struct ipc_msg a = { .type = IPC_CHECK_SKIP_AT, .fd = -1 };
	uint64_t cons = m->u.check_skip.consumed, until = m->u.check_skip.until;
	uint64_t top = c->ck.given > c->ck.skip_to ? c->ck.given :
	    c->ck.skip_to;

	if (cons < c->ck.consumed || cons < c->ck.skip_to || cons > top ||
	    until <= cons) {
		refuse_failed(c, "its checker broke the protocol");
		return -1;
	}
	if (c->ck.feed < 0 && until > c->ck.given) {
		/* the whole body is in its pipe already */
		refuse_failed(c, "it ends inside an entry's data");
		return -1;
	}
	c->ck.consumed = cons;
	a.u.check_skip_at.from = c->ck.given > cons ? c->ck.given : cons;
	if (a.u.check_skip_at.from > until)
		a.u.check_skip_at.from = until;
	c->ck.skip_to = until;
	ipc_audit(c, "to-checker", &a);
	if (ipc_send(c->ck.ipc, &a, MSG_DONTWAIT) != IPC_OK) {
		refuse_failed(c, "its checker stopped answering");
		return -1;
	}
	return 0;
}

/*
 * The refusal *r of a CHECK_VERDICT *m that is not ok: its code (one of
 * gwerror's, a 4xx or 5xx), detail and hint. Returns 0, or -1 after
 * refusing c for a code that is none.
 */
static int
refusal_of(struct conn *c, const struct ipc_msg *m, struct cg_refusal *r)
{
	char code[33];

	snprintf(code, sizeof(code), "%.*s", (int)m->u.check_verdict.code.len,
	    m->u.check_verdict.code.p);
	if (cg_code_status(code) < 400) {
		refuse_failed(c, "its checker broke the protocol");
		return -1;
	}
	cg_refuse(r, code, "%.*s", (int)m->u.check_verdict.detail.len,
	    m->u.check_verdict.detail.p);
	if (m->u.check_verdict.hint.len > 0)
		cg_hint(r, "%.*s", (int)m->u.check_verdict.hint.len,
		    m->u.check_verdict.hint.p);
	return 0;
}

/*
 * CHECK_PROGRESS *m: the checker's counts of bytes read (or skipped) and
 * approved, which only grow, approvals never past what it read. Returns
 * 0, or -1 after a refusal.
 */
static int
on_progress(struct conn *c, const struct ipc_msg *m)
{
	uint64_t cons = m->u.check_progress.consumed;
	uint64_t appr = m->u.check_progress.approved;

	/* a checker can only approve what it read or skipped, once */
	if (cons > (c->ck.given > c->ck.skip_to ? c->ck.given :
	    c->ck.skip_to) || cons < c->ck.consumed ||
	    appr > cons || appr < c->ck.approved) {
		refuse_failed(c, "its checker broke the protocol");
		return -1;
	}
	c->ck.consumed = cons;
	c->ck.approved = appr;
	if (appr > c->ck.released)
		c->ck.flushed = 0;
	return 0;
}

/*
 * A CHECK_VERDICT that approves, only once every byte went to the
 * checker and it read them all: the body is approved (CK_OK), or its end
 * waits for the build's base images (CK_IMAGES). Returns 0, or -1 after
 * a refusal.
 */
static int
on_approved(struct conn *c)
{
	if (c->ck.feed >= 0 || c->ck.consumed != c->ck.given ||
	    c->ck.given != c->ck.fed) {
		refuse_failed(c, "its checker broke the protocol");
		return -1;
	}
	/*
	 * With base images, the end goes once they passed too:
	 * until then only what the checker approved (the
	 * archive before its end marker).
	 */
	if (c->ck.nimg > 0 && c->ck.kind == CK_BUILD &&
	    c->gw->lis[c->lis].backend_ident == BACKEND_UNKNOWN) {
		/* measured on podman and dockerd only (baseimg.c) */
		log_msg(LOG_WARNING, "check", "connection %llu: the "
		    "backend is neither podman nor dockerd (its "
		    "_ping Server field): the build's base images "
		    "are not read", (unsigned long long)c->id);
		c->ck.approved = c->ck.fed;
		c->ck.state = CK_OK;
	} else if (c->ck.nimg > 0) {
		c->ck.state = CK_IMAGES;
	} else {
		c->ck.approved = c->ck.fed;
		c->ck.state = CK_OK;
	}
	return 0;
}

void
check_on_ipc(struct conn *c)
{
	static unsigned char *buf;
	struct cg_refusal r;
	struct ipc_msg m;
	int rc, i;

	if (buf == NULL)
		buf = xmalloc(IPC_MSG_MAX + 1);
	for (i = 0; i < 16 && c->ck.ipc >= 0 && (c->ck.state == CK_RUNNING ||
	    c->ck.state == CK_IMAGES); i++) {
		rc = ipc_recv(c->ck.ipc, buf, IPC_MSG_MAX + 1, &m, 0, MSG_DONTWAIT);
		if (rc == IPC_EAGAIN)
			break;
		if (rc != IPC_OK) {
			refuse_failed(c, "its checker ended before its verdict");
			return;
		}
		ipc_audit(c, "from-checker", &m);
		if (m.type == IPC_CHECK_VERDICT && !m.u.check_verdict.ok &&
		    refusal_of(c, &m, &r) < 0)
			return;
		if (c->ck.state == CK_IMAGES) {
			/* the checks of the build's base images (baseimg.c) */
			if (m.type == IPC_CHECK_PROGRESS)
				baseimg_progress(c);
			else if (m.type == IPC_CHECK_VERDICT)
				baseimg_verdict(c, m.u.check_verdict.ok ? NULL : &r);
			else
				refuse_failed(c, "its checker broke the protocol");
			if (c->ck.state != CK_IMAGES)
				return;
			continue;
		}
		if (m.type == IPC_CHECK_PROGRESS) {
			if (on_progress(c, &m) < 0)
				return;
		} else if (m.type == IPC_CHECK_IMAGE) {
			/* a base image of the build, named before its verdict */
			if (baseimg_named(c, m.u.check_image.ref.p,
			    m.u.check_image.ref.len, m.u.check_image.id.p,
			    m.u.check_image.id.len) < 0) {
				refuse_failed(c, "its checker broke the protocol");
				return;
			}
		} else if (m.type == IPC_CHECK_SKIP) {
			if (on_skip(c, &m) < 0)
				return;
		} else if (m.type == IPC_CHECK_VERDICT && m.u.check_verdict.ok) {
			if (on_approved(c) < 0)
				return;
		} else if (m.type == IPC_CHECK_VERDICT) {
			refuse(c, &r);
			return;
		} else {
			refuse_failed(c, "its checker broke the protocol");
			return;
		}
	}
	check_pump(c);
}

void
check_end(struct conn *c)
{
	if (c->ck.state == CK_WAITING && c->gw->ck_waiting > 0)
		c->gw->ck_waiting--;
	if (c->ck.pid > 0) {
		struct exiting *x;

		forget_child(c->gw, c->ck.pid, c->id, 1);
		/* its end is the monitor's doing: no ERROR line for it */
		x = TAILQ_LAST(&c->gw->exiting, exiting_head);
		if (x != NULL && x->pid == c->ck.pid)
			x->expected = 1;
	}
	if (c->ck.ipc >= 0)
		ev_close(c->gw, c->ck.ipc);
	if (c->ck.feed >= 0)
		close(c->ck.feed);
	if (c->ck.feed_rd >= 0)
		close(c->ck.feed_rd);
	baseimg_end(c);
	rpipe_close(&c->ck.in);
	fifo_free(&c->ck.pend);
	memset(&c->ck, 0, sizeof(c->ck));
	check_init(c);
}

void
check_init(struct conn *c)
{
	c->ck.pid = -1;
	c->ck.ipc = c->ck.feed = c->ck.feed_rd = c->ck.xfeed = -1;
	c->ck.parked.fd = -1;
	rpipe_init(&c->ck.in);
	c->ck.img_over = images_over;
}
