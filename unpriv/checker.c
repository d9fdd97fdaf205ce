/*
 * The checker (doc/privsep.md "Builds and archives"): a request parser
 * spare, forked from the zygote and sandboxed like every request parser
 * (the same final filter: no file, no socket, no exec), that the monitor
 * gives a build context or an archive to read instead of a connection.
 * The monitor copies the body's bytes into a pipe for it with tee(2) (the
 * bytes the backend gets, never what the request parser says they are);
 * the checker reads them with check/check.c and reports how far they are
 * approved. One body per checker; it exits when the monitor closes its
 * socket.
 */
#include "unpriv/checker.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/gwerror.h"
#include "base/xmalloc.h"
#include "check/check.h"
#include "check/dockerfile.h"
#include "check/onbuild.h"
#include "ipc/proto.h"
#include "unpriv/layout.h"

#define READ_MAX	(256u << 10)
#define REPORT_EVERY	(256u << 10)	/* bytes read between reports */

static void
send_or_exit(const struct ipc_msg *m)
{
	if (ipc_send(CHILD_IPC_FD, m, 0) != IPC_OK)
		_exit(1);
}

static void
progress(uint64_t consumed, uint64_t approved)
{
	struct ipc_msg m = { .type = IPC_CHECK_PROGRESS, .fd = -1 };

	m.u.check_progress.consumed = consumed;
	m.u.check_progress.approved = approved;
	send_or_exit(&m);
}

static void
send_verdict(const struct cg_refusal *r)
{
	struct ipc_msg m = { .type = IPC_CHECK_VERDICT, .fd = -1 };

	m.u.check_verdict.ok = r == NULL;
	if (r != NULL) {
		m.u.check_verdict.code = ipc_cstr(r->code);
		m.u.check_verdict.detail = ipc_cstr(r->detail);
		m.u.check_verdict.hint = ipc_cstr(r->hint);
	}
	send_or_exit(&m);
}

/*
 * The export of base image ref on fd in (check/onbuild.h): read to its
 * end, a CHECK_PROGRESS after every read (the monitor moves the next
 * bytes into the pipe when it hears of room), then its CHECK_VERDICT.
 */
static void
check_export(int in, const char *ref, const struct cJSON *buildargs,
    unsigned char *data)
{
	struct ob_reader *o = ob_new(ref, buildargs);
	uint64_t consumed = 0;
	ssize_t n;
	int rc = 0;

	for (;;) {
		struct pollfd p = { .fd = in, .events = POLLIN };

		/* the pipe is non-blocking (the monitor's rpipe) */
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			_exit(1);
		n = read(in, data, READ_MAX);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			_exit(1);
		if (n == 0)
			break;
		consumed += (uint64_t)n;
		progress(consumed, consumed);
		if (rc == 0 && ob_feed(o, data, (size_t)n) < 0)
			rc = -1;	/* read on: the monitor closes the pipe */
	}
	close(in);
	if (rc == 0)
		rc = ob_finish(o);
	send_verdict(rc == 0 ? NULL : ob_refusal(o));
	ob_free(o);
}

/*
 * The verdict; then, for an approved build, the base images it names
 * and the check of each export the monitor hands over (CHECK_CONFIG),
 * until the monitor closes the socket.
 */
static void __attribute__((noreturn))
verdict(const struct cg_refusal *r, unsigned char *buf, struct chk *c,
    unsigned char *data)
{
	const struct df_bases *b = c != NULL && r == NULL ? chk_bases(c) : NULL;
	struct ipc_msg m = { .type = IPC_CHECK_IMAGE, .fd = -1 };
	char *ref;
	size_t i;

	for (i = 0; b != NULL && i < b->n; i++) {
		m.u.check_image.ref = ipc_cstr(b->ref[i]);
		m.u.check_image.id = ipc_cstr(b->id[i]);
		send_or_exit(&m);
	}
	send_verdict(r);
	for (;;) {
		if (ipc_recv(CHILD_IPC_FD, buf, IPC_MSG_MAX + 1, &m, b != NULL,
		    0) != IPC_OK)
			_exit(0);
		if (m.type != IPC_CHECK_CONFIG || b == NULL || m.fd < 0)
			_exit(1);
		ref = xstrndup(m.u.check_image.ref.p, m.u.check_image.ref.len);
		check_export(m.fd, ref, chk_buildargs(c), data);
		free(ref);
	}
}

/*
 * Entry data worth a round trip to the monitor: below it, reading is as
 * cheap as asking (a 256 MiB docker cp in is one entry; bench/bench.py
 * "Checked uploads").
 */
#define SKIP_MIN	(256u << 10)

/* Ask the monitor to keep n bytes from consumed on out of the pipe. */
static void
ask_skip(uint64_t consumed, uint64_t n)
{
	struct ipc_msg m = { .type = IPC_CHECK_SKIP, .fd = -1 };

	m.u.check_skip.consumed = consumed;
	m.u.check_skip.until = consumed + n;
	send_or_exit(&m);
}

/*
 * The checker's parameters *p from CHECK_START start (p->query a copy,
 * kept for the process's life).
 */
static void
params_of(const struct ipc_msg *start, struct chk_params *p)
{
	p->kind = start->u.check_start.kind == IPC_CHECK_BUILD ? CHK_BUILD :
	    start->u.check_start.kind == IPC_CHECK_LOAD ? CHK_LOAD : CHK_ARCHIVE;
	p->podman = start->u.check_start.podman;
	p->libpod = start->u.check_start.libpod;
	p->hold = start->u.check_start.hold;
	p->query = xstrndup(start->u.check_start.query.p,
	    start->u.check_start.query.len);
}

/*
 * The end of the body in pipe in, consumed bytes read: the checker c
 * finishes, the last progress is reported, and its verdict ends the
 * process (buf, data: verdict's).
 */
static void __attribute__((noreturn))
input_ended(struct chk *c, uint64_t consumed, int in, unsigned char *buf,
    unsigned char *data)
{
	uint64_t before = chk_approved(c);

	/* the last report first: the monitor counts every byte */
	if (chk_finish(c) == -1) {
		progress(consumed, chk_approved(c));
		verdict(chk_refusal(c), buf, c, data);
	}
	/*
	 * With base images to check, the end stays unapproved:
	 * the monitor lets it go once they passed too.
	 */
	progress(consumed, chk_bases(c)->n > 0 ? before : consumed);
	close(in);
	verdict(NULL, buf, c, data);
}

void
checker_main(const struct ipc_msg *start, unsigned char *buf)
{
	struct chk_params p = { 0 };
	struct cg_refusal r;
	struct pollfd pfd[2];
	struct ipc_msg m;
	struct chk *c;
	unsigned char *data = xmalloc(READ_MAX);
	/*
	 * consumed: the body's offset of the next byte in the pipe. A gap
	 * (asked with CHECK_SKIP, placed by CHECK_SKIP_AT) makes the pipe
	 * jump from gap_at to gap_end: the bytes between are approved unread.
	 */
	uint64_t consumed = 0, reported = 0, asked = 0;
	uint64_t gap_at = UINT64_MAX, gap_end = 0;
	size_t want;
	ssize_t n;
	int in = start->fd, rc, asking = 0;

	params_of(start, &p);
	c = chk_new(&p, &r);
	if (c == NULL)
		verdict(&r, buf, NULL, data);
	for (;;) {
		if (consumed == gap_at) {
			/* the pipe's next byte is gap_end's */
			if (chk_skip(c, gap_end - gap_at) == -1)
				_exit(1);
			consumed = reported = gap_end;
			gap_at = UINT64_MAX;
			progress(consumed, chk_approved(c));
		}
		if (!asking && gap_at == UINT64_MAX &&
		    chk_skippable(c) >= SKIP_MIN) {
			asked = chk_skippable(c);
			ask_skip(consumed, asked);
			asking = 1;
		}
		/* while asking, no read: the gap may start at any byte */
		pfd[0] = (struct pollfd){ .fd = in, .events = asking ? 0 : POLLIN };
		pfd[1] = (struct pollfd){ .fd = CHILD_IPC_FD, .events = POLLIN };
		do
			rc = poll(pfd, 2, -1);
		while (rc < 0 && errno == EINTR);
		if (rc < 0)
			_exit(1);
		if (pfd[1].revents) {
			if (ipc_recv(CHILD_IPC_FD, buf, IPC_MSG_MAX + 1, &m, 0, 0) !=
			    IPC_OK)
				_exit(0);
			if (m.type == IPC_CHECK_SKIP_AT && asking &&
			    m.u.check_skip_at.from >= consumed &&
			    m.u.check_skip_at.from <= consumed + asked) {
				asking = 0;
				gap_at = m.u.check_skip_at.from;
				gap_end = consumed + asked;
				continue;
			}
			if (m.type != IPC_CHECK_FLUSH)
				_exit(1);
			chk_flush(c);
			progress(consumed, chk_approved(c));
			continue;
		}
		if (asking || !pfd[0].revents)
			continue;
		want = READ_MAX;
		if (gap_at != UINT64_MAX && gap_at - consumed < want)
			want = (size_t)(gap_at - consumed);
		n = read(in, data, want);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			_exit(1);
		if (n == 0)
			input_ended(c, consumed, in, buf, data);
		consumed += (uint64_t)n;
		if (chk_feed(c, data, (size_t)n) == -1)
			verdict(chk_refusal(c), buf, c, data);
		/*
		 * One report, one wake-up of the monitor, per REPORT_EVERY bytes
		 * read, not per read: the checker reads faster than the client
		 * sends, so it would report every few KiB. The monitor asks for
		 * one (CHECK_FLUSH) when it can hold no more unapproved bytes,
		 * and the end is reported at once.
		 */
		if (consumed - reported < REPORT_EVERY)
			continue;
		reported = consumed;
		progress(consumed, chk_approved(c));
	}
}
