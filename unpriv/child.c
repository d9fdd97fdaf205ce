/*
 * The request parser child (privsep.md §2, §4, §8). Everything here runs
 * after its sandbox is complete (forked from the zygote, unpriv/zygote.c,
 * then sandbox_finish_child()): no files, no sockets, no exec. It blocks
 * freely: it serves exactly one client connection. It reads and parses
 * every request; the monitor writes forwarded responses and relays
 * switched streams itself (privsep.md §1 amendment).
 */
#include "unpriv/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/gwerror.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "http/http.h"
#include "ipc/proto.h"
#include "policy/headers.h"
#include "policy/policy.h"
#include "seccomp/filter.h"
#include "unpriv/sandbox.h"

#define IDLE_MS			120000	/* http.md §1.3 */
#define HEAD_MS			30000
#define BODY_MS			120000
#define READ_CHUNK		65000	/* = IPC_DATA_MAX */
#define CHUNK_GAP		8	/* "\r\n8000\r\n" between chunks */
/* linger after the last answer (issue 8): idle, total, bytes */
#define LINGER_IDLE_MS		5000
#define LINGER_TOTAL_MS		60000
#define LINGER_BYTES_MAX	(1ull << 30)

struct child {
	int ipc;
	int client;
	uint64_t conn;
	uint32_t req;
	uint32_t qid;
	unsigned nfacts, npaths;
	unsigned backend_timeout_ms;
	struct cg_policy_ctx ctx;
	struct cg_facts facts;
	char *root, *proxy, *noproxy;

	char *in;		/* client bytes read but not yet used */
	size_t inlen, incap;
	int client_eof;

	unsigned char *msgbuf;	/* IPC receive buffer */
	char *head;		/* the current request head */
	struct timespec head_start, head_end;	/* its first byte, its end */
	/* the current request's method and path (into head; 0: not known) */
	const char *rmethod, *rpath;
	size_t rmethod_len, rpath_len;
	int begun;		/* REQUEST_BEGIN sent for it */
	int up;			/* the body pipe's write end (BODY_PIPE), -1 */
	uint32_t up_pending;	/* bytes spliced into it, not yet announced */
};

static void child_exit(struct child *c, uint8_t reason) __attribute__((noreturn));

static uint32_t
ms_since(const struct timespec *t0)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (now.tv_sec - t0->tv_sec) * 1000LL +
	    (now.tv_nsec - t0->tv_nsec) / 1000000;
	return ms < 0 ? 0 : (uint32_t)ms;
}

static struct ipc_str
SN(const char *s, size_t n)
{
	struct ipc_str v = { s, (uint32_t)n };

	return v;
}

/* Send or die: a child that cannot talk to its monitor has nothing to do. */
static void
send_msg(struct child *c, struct ipc_msg *m)
{
	if (ipc_send(c->ipc, m, 0) != IPC_OK)
		_exit(1);
}

/*
 * One DEBUG line for the monitor's log: the query keys policy_route()
 * did not forward (routes.md §4.4, amended; issue 12). keys is the
 * ", "-joined text of cg_request.query_dropped (at most 512 bytes); bytes
 * outside printable ASCII are written as \xNN, so the text is valid UTF-8
 * (the LOG text must be) whatever the client sent.
 */
static void
log_dropped_keys(struct child *c, const char *action, const char *keys)
{
	static const char hex[] = "0123456789abcdef";
	struct ipc_msg m = { .type = IPC_LOG, .fd = -1 };
	char text[1024];
	size_t n;
	int w;

	w = snprintf(text, sizeof(text), "%s: query keys not forwarded: ",
	    action);
	if (w < 0 || (size_t)w >= sizeof(text))
		return;
	for (n = (size_t)w; *keys != '\0' && n + 4 < sizeof(text); keys++) {
		unsigned char b = (unsigned char)*keys;

		if (b >= 0x20 && b < 0x7f && b != '\\') {
			text[n++] = (char)b;
			continue;
		}
		text[n++] = '\\';
		text[n++] = 'x';
		text[n++] = hex[b >> 4];
		text[n++] = hex[b & 0xf];
	}
	m.u.log.level = IPC_LOG_DEBUG;	/* connection-level: req stays 0 */
	m.u.log.text = SN(text, n);
	send_msg(c, &m);
}

/*
 * Receive one message, BODY_PIPE included (its descriptor kept in c->up
 * when it is for the current request and none is held, else closed);
 * anything but the expected types ends the child.
 */
static void
recv_any(struct child *c, struct ipc_msg *m)
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

/* Receive one message other than BODY_PIPE (recv_any). */
static void
recv_msg(struct child *c, struct ipc_msg *m)
{
	do
		recv_any(c, m);
	while (m->type == IPC_BODY_PIPE);
}

static void
child_exit(struct child *c, uint8_t reason)
{
	struct ipc_msg m = { .type = IPC_BYE, .fd = -1 };

	m.u.bye.reason = reason;
	(void)ipc_send(c->ipc, &m, 0);
	/* the teardown of this process waits for the requests in flight */
	(void)setpriority(PRIO_PROCESS, 0, CG_EXIT_NICE);
	_exit(0);
}

/*
 * The client left, or stalled past its deadline, in the middle of a request
 * the child had begun to read (its head, or its body before FORWARD): the
 * request's access line all the same (cli.md §14.3: one per request read
 * whole or in part; issue 11 item 3), as an ACCESS with status 0 and no
 * code, which the monitor logs as "decision=error code=- status=0
 * detail=<why>"; then exit. The request is c->req + 1 while its head is
 * incomplete (head 0), c->req after.
 */
static void __attribute__((noreturn))
abandon(struct child *c, int head, uint8_t reason, const char *why)
{
	struct ipc_msg m = { .type = IPC_ACCESS, .fd = -1 };

	m.req = head ? c->req + 1 : c->req;
	m.u.access.method = c->rmethod_len ? SN(c->rmethod, c->rmethod_len) :
	    ipc_cstr("-");
	m.u.access.path = c->rpath_len ? SN(c->rpath, c->rpath_len) :
	    ipc_cstr("-");
	m.u.access.code = ipc_cstr("");
	m.u.access.status = 0;
	m.u.access.duration_ms = ms_since(head ? &c->head_start : &c->head_end);
	m.u.access.detail = ipc_cstr(why);
	send_msg(c, &m);
	child_exit(c, reason);
}

/*
 * Announce the current request to the monitor (REQUEST_BEGIN, once) before
 * the child blocks in its middle, waiting for the rest of its head (head 1:
 * it is c->req + 1 then) or body: killed meanwhile, the request still gets
 * its access line, from the monitor (issue 11 item 3). A request that
 * arrives whole goes straight to its first message (a question, FORWARD or
 * ACCESS) and costs no announcement.
 */
static void
begin(struct child *c, int head)
{
	struct ipc_msg m = { .type = IPC_REQUEST_BEGIN, .fd = -1 };

	if (c->begun)
		return;
	c->begun = 1;
	m.req = head ? c->req + 1 : c->req;
	send_msg(c, &m);
}

/* ---------------------------------------------------------------- client */

/* Write all of buf to the client: 0, or -1 when it is gone. */
static int
write_client(struct child *c, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = send(c->client, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Wait up to timeout_ms for the client to become readable and append what
 * it sends to c->in. Returns bytes read, 0 at end-of-file, -1 on timeout.
 */
static ssize_t
read_client(struct child *c, int timeout_ms)
{
	struct pollfd p = { .fd = c->client, .events = POLLIN };
	ssize_t n;
	int rc;

	if (c->client_eof)
		return 0;
	do
		rc = poll(&p, 1, timeout_ms);
	while (rc < 0 && errno == EINTR);
	if (rc == 0)
		return -1;
	if (c->incap - c->inlen < READ_CHUNK) {
		c->incap = c->inlen + READ_CHUNK;
		c->in = xrealloc(c->in, c->incap);
	}
	do
		n = recv(c->client, c->in + c->inlen, READ_CHUNK, 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		c->client_eof = 1;
		return 0;
	}
	c->inlen += (size_t)n;
	return n;
}

static void
consume_input(struct child *c, size_t n)
{
	memmove(c->in, c->in + n, c->inlen - n);
	c->inlen -= n;
}

/* ---------------------------------------------------------------- facts */

static enum cg_fact_result
fact_owned(void *arg, enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, char id_out[CG_ID_MAX + 1])
{
	struct child *c = arg;
	struct ipc_msg m = { .type = IPC_FACT_QUERY, .fd = -1 };
	uint32_t qid;

	if (c->nfacts >= IPC_FACT_QUERIES_MAX || strlen(ref) > 1024 ||
	    strlen(prefix) > 32)
		return CG_UNEXPECTED;
	c->nfacts++;
	qid = ++c->qid;
	m.req = c->req;
	m.u.fact_query.qid = qid;
	m.u.fact_query.kind = (uint8_t)kind;
	m.u.fact_query.api = (uint8_t)api;
	m.u.fact_query.prefix = ipc_cstr(prefix);
	m.u.fact_query.ref = ipc_cstr(ref);
	send_msg(c, &m);
	recv_msg(c, &m);
	if (m.type != IPC_FACT_ANSWER || m.req != c->req ||
	    m.u.fact_answer.qid != qid)
		_exit(1);
	if (m.u.fact_answer.result == IPC_FACT_OWNED) {
		memcpy(id_out, m.u.fact_answer.id.p, m.u.fact_answer.id.len);
		id_out[m.u.fact_answer.id.len] = '\0';
	}
	return (enum cg_fact_result)m.u.fact_answer.result;
}

static enum cg_path_verdict
fact_resolve(void *arg, const char *path, char out[CG_PATH_MAX + 1])
{
	struct child *c = arg;
	struct ipc_msg m = { .type = IPC_PATH_QUERY, .fd = -1 };
	uint32_t qid;

	if (c->npaths >= IPC_PATH_QUERIES_MAX || strlen(path) > CG_PATH_MAX)
		return CG_PATH_UNRESOLVABLE;
	c->npaths++;
	qid = ++c->qid;
	m.req = c->req;
	m.u.path_query.qid = qid;
	m.u.path_query.path = ipc_cstr(path);
	send_msg(c, &m);
	recv_msg(c, &m);
	if (m.type != IPC_PATH_ANSWER || m.req != c->req ||
	    m.u.path_answer.qid != qid)
		_exit(1);
	memcpy(out, m.u.path_answer.resolved.p, m.u.path_answer.resolved.len);
	out[m.u.path_answer.resolved.len] = '\0';
	return (enum cg_path_verdict)m.u.path_answer.verdict;
}

/*
 * Publishing WARNINGs (policy.md §3.7) are logged by the monitor from its
 * replay of the forwarded request (privsep.md §9.2), not taken from us.
 */
static void
fact_warn(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* ---------------------------------------------------------------- linger */

/*
 * End the connection so that the client reads what we wrote (a refusal,
 * or the last response) even while it is still sending: half-close, then
 * read and discard until end-of-file, at most LINGER_IDLE_MS without a
 * byte, LINGER_TOTAL_MS in all and LINGER_BYTES_MAX bytes (issue 8: a
 * close with unread bytes resets the connection, and the client's next
 * write fails with EPIPE before it reads the answer). Then BYE and exit.
 */
static void __attribute__((noreturn))
linger_exit(struct child *c, uint8_t reason)
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

/* ---------------------------------------------------------------- errors */

/*
 * Answer a request the child refuses itself (http.md §11), report it with
 * ACCESS, and linger: the connection always closes after a gateway error.
 */
static void __attribute__((noreturn))
refuse(struct child *c, const char *method, size_t method_len,
    const char *path, size_t path_len, const struct cg_refusal *r)
{
	struct ipc_msg m = { .type = IPC_ACCESS, .fd = -1 };
	char *resp;
	size_t len;
	int head = method_len == 4 && memcmp(method, "HEAD", 4) == 0;

	resp = cg_error_response(r, head, &len);
	(void)write_client(c, resp, len);	/* logged even if it is gone */
	free(resp);
	m.req = c->req;
	m.u.access.method = method_len ? SN(method, method_len) : ipc_cstr("-");
	m.u.access.path = path_len ? SN(path, path_len > 8192 ? 8192 :
	    path_len) : ipc_cstr("-");
	m.u.access.code = ipc_cstr(r->code);
	m.u.access.status = (uint16_t)r->status;
	m.u.access.duration_ms = ms_since(&c->head_end);
	m.u.access.detail = SN(r->detail, strlen(r->detail));
	send_msg(c, &m);
	linger_exit(c, IPC_BYE_ERROR);
}

/* ---------------------------------------------------------------- bodies */

/* More body bytes into c->in; a client that stalls or leaves ends the child. */
static void
body_more(struct child *c)
{
	ssize_t got;

	begin(c, 0);
	got = read_client(c, BODY_MS);

	if (got < 0)
		abandon(c, 0, IPC_BYE_TIMEOUT, "abandoned: no byte of the "
		    "request body for 120 s");
	if (got == 0)
		abandon(c, 0, IPC_BYE_CLIENT_CLOSED, "abandoned: the client "
		    "left before the request body was complete");
}

/*
 * Read a buffered body (Content-Length n or chunked) of at most max bytes
 * into *out. Returns 0, or -1 with *r set (413 when over max, 400 on a
 * chunk grammar error); a client that stalls or leaves ends the child,
 * after the request's access line (abandon).
 */
static int
read_body(struct child *c, const struct http_request *hr, size_t max,
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
		consume_input(c, *outlen);
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
		consume_input(c, used);
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

/* ---------------------------------------------------------------- forward */

/* Send p[0..len) as BODY or CLIENT_DATA messages of at most IPC_DATA_MAX. */
static void
send_data(struct child *c, uint16_t type, const char *p, size_t len)
{
	struct ipc_msg m = { .type = type, .fd = -1 };
	size_t n;

	m.req = c->req;
	while (len > 0) {
		n = len > IPC_DATA_MAX ? IPC_DATA_MAX : len;
		m.u.body.data = SN(p, n);
		if (type == IPC_CLIENT_DATA)
			m.u.client_data.data = m.u.body.data;
		send_msg(c, &m);
		p += n;
		len -= n;
	}
}

static void
send_done(struct child *c)
{
	struct ipc_msg m = { .type = IPC_DONE, .fd = -1 };

	m.req = c->req;
	send_msg(c, &m);
}

/*
 * The monitor's RESPONSE_END for this request (anything else is a
 * protocol error): returns its mode.
 */
static uint8_t
response_end(struct child *c, const struct ipc_msg *m)
{
	if (m->type != IPC_RESPONSE_END || m->req != c->req)
		_exit(1);
	return m->u.response_end.mode;
}

/*
 * The client or its body failed mid-exchange (privsep.md §8 v2): DONE
 * before RESPONSE_END, so the monitor abandons the exchange (the backend
 * sees a truncated body and acts on nothing); then its RESPONSE_END, and
 * exit.
 */
static void __attribute__((noreturn))
give_up(struct child *c, uint8_t reason)
{
	struct ipc_msg m;

	send_done(c);
	recv_msg(c, &m);
	(void)response_end(c, &m);
	child_exit(c, reason);
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
	send_msg(c, &m);
}

/*
 * The body's next bytes from the client into the body pipe (issue 8),
 * never through the child's memory: a Content-Length body counted
 * (*left), a chunked one's lines read into c->in for the decoder ch
 * (stream_body feeds it), its data spliced (*data: what is left of the
 * current chunk). The monitor frames what
 * BODY_SPLICED announces. Returns 2 when the body is complete, 1 after
 * progress, 0 when the client has nothing or the pipe no room (EAGAIN),
 * -1 when the monitor closed the pipe (the exchange is over; BODY goes
 * on). Gives up on a client gone or an invalid chunk (as stream_body).
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
		 * for stream_body's decoder; a longer line takes more reads, a
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
			give_up(c, IPC_BYE_CLIENT_CLOSED);
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
		close(c->up);
		c->up = -1;
		return -1;
	}
	if (n <= 0)
		give_up(c, IPC_BYE_CLIENT_CLOSED);
	c->up_pending += (uint32_t)n;
	if (c->up_pending == IPC_SPLICED_MAX)
		announce(c);
	if (hr->chunked)
		*data -= (uint64_t)n;
	else if ((*left -= (uint64_t)n) == 0)
		return 2;
	return 1;
}

/*
 * Stream a request body (http.md §4.3, §7.4) as BODY messages, or through
 * the body pipe once the monitor offered one (BODY_PIPE, announced by
 * BODY_SPLICED), then BODY_END. The monitor may end the exchange first
 * (the backend answered before the body was complete): returns that
 * RESPONSE_END's mode, or -1 when the body was sent whole.
 */
static int
stream_body(struct child *c, const struct http_request *hr)
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
					give_up(c, IPC_BYE_ERROR);
				consume_input(c, used);
				if (wrote > 0) {
					announce(c);
					send_data(c, IPC_BODY, dec, wrote);
				}
				if (ch.done)
					break;
				if (wrote > 0 || used > 0)
					continue;
			} else {
				wrote = c->inlen < left ? c->inlen : (size_t)left;
				announce(c);
				send_data(c, IPC_BODY, c->in, wrote);
				consume_input(c, wrote);
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
			give_up(c, IPC_BYE_TIMEOUT);
		if (p[1].revents) {
			recv_any(c, &m);
			if (m.type == IPC_BODY_PIPE)
				continue;
			free(dec);
			return response_end(c, &m);
		}
		if (!p[0].revents)
			continue;
		if (c->up >= 0 && full) {
			full = 0;
			readable = 1;
		} else if (c->up >= 0 && c->inlen == 0) {
			readable = 2;
		} else if (read_client(c, 0) == 0 && c->inlen == 0) {
			give_up(c, IPC_BYE_CLIENT_CLOSED);
		}
	}
	free(dec);
	announce(c);
	m = (struct ipc_msg){ .type = IPC_BODY_END, .fd = -1, .req = c->req };
	send_msg(c, &m);
	return -1;
}

/* ---------------------------------------------------------------- requests */

/*
 * Serve one request (privsep.md §8). Returns 1 to keep the connection
 * for another request; ends the process otherwise.
 */
static int
serve_request(struct child *c)
{
	struct http_request hr;
	struct cg_request req;
	struct cg_refusal r;
	struct cg_fwd_headers fh;
	struct ipc_msg m;
	const char *path;
	size_t pathlen, bodylen = 0, i;
	char *body = NULL, method[HTTP_METHOD_MAX + 1];
	long long head_start;
	int n, mode = -1, is_head, early_bytes = 0, synced;
	ssize_t got;

	/*
	 * 1. the head (http.md §1.3, §2): 120 s for its first byte, then 30 s
	 * for all of it, counted from that byte, not per read.
	 */
	c->rmethod_len = c->rpath_len = 0;
	c->begun = 0;
	head_start = -1;
	for (;;) {
		n = c->inlen > 0 ? http_parse_request(c->in, c->inlen, &hr, &r) : -2;
		if (n != -2)
			break;
		if (c->inlen > 0 && head_start < 0) {
			head_start = now_ms();
			clock_gettime(CLOCK_MONOTONIC, &c->head_start);
		}
		if (c->inlen > 0)
			begin(c, 1);
		got = read_client(c, c->inlen == 0 ? IDLE_MS :
		    (int)(HEAD_MS - (now_ms() - head_start) > 0 ?
		    HEAD_MS - (now_ms() - head_start) : 0));
		/* a head begun and not finished is a request read in part */
		if (got < 0 && c->inlen > 0)
			abandon(c, 1, IPC_BYE_TIMEOUT, "abandoned: the request "
			    "head did not complete within 30 s");
		if (got == 0 && c->inlen > 0)
			abandon(c, 1, IPC_BYE_CLIENT_CLOSED, "abandoned: the "
			    "client left before the request head was complete");
		if (got < 0)
			child_exit(c, IPC_BYE_TIMEOUT);
		if (got == 0)
			child_exit(c, IPC_BYE_CLIENT_CLOSED);
	}
	clock_gettime(CLOCK_MONOTONIC, &c->head_end);
	c->req++;
	c->nfacts = c->npaths = 0;
	if (n < 0) {
		/* the line may be unparseable: report "-" then */
		refuse(c, NULL, 0, NULL, 0, &r);
	}
	/* keep the head apart: hr points into it while c->in moves on */
	free(c->head);
	c->head = xmalloc((size_t)n);
	memcpy(c->head, c->in, (size_t)n);
	consume_input(c, (size_t)n);
	if (http_parse_request(c->head, (size_t)n, &hr, &r) != n)
		_exit(1);
	path = hr.target;
	for (pathlen = 0; pathlen < hr.target_len && path[pathlen] != '?';
	    pathlen++)
		;
	memcpy(method, hr.method, hr.method_len);
	method[hr.method_len] = '\0';
	is_head = strcmp(method, "HEAD") == 0;
	c->rmethod = hr.method;
	c->rmethod_len = hr.method_len;
	c->rpath = path;
	c->rpath_len = pathlen > 8192 ? 8192 : pathlen;

	/* 2. route and query policy (routes.md §5 steps 1-6) */
	memset(&req, 0, sizeof(req));
	if (policy_route(&c->ctx, method,
	    hr.target, hr.target_len, hr.grpc, &req, &r) < 0)
		refuse(c, hr.method, hr.method_len, path, pathlen, &r);
	if (req.query_dropped != NULL)
		log_dropped_keys(c, req.action, req.query_dropped);

	/* 3. the body by route kind (http.md §4) */
	/*
	 * amended §4.1: on a hijack route, bytes sent before the upgrade are
	 * the stream's first bytes, as podman reads them (dockerode's attach
	 * sends its options as a body): left unread, sent as early bytes (5.)
	 * or relayed by the monitor from the socket after the switch; the
	 * connection ends after this exchange either way (the forwarded list
	 * says Connection: close, policy/headers.c).
	 */
	early_bytes = req.body_kind == CG_BODY_NONE && req.hijack &&
	    !hr.chunked && hr.has_content_length && hr.content_length > 0;
	if (req.body_kind == CG_BODY_NONE) {
		if (!early_bytes && ((hr.has_content_length &&
		    hr.content_length > 0) || hr.chunked)) {
			/* amended §4.1: read and discarded, except on start */
			int discard = policy_none_body_discarded(&req);

			if (discard && hr.expect_continue && write_client(c,
			    "HTTP/1.1 100 Continue\r\n\r\n", 25) < 0)
				abandon(c, 0, IPC_BYE_CLIENT_CLOSED, "abandoned: the "
				    "client left before the request body was "
				    "complete");
			if (read_body(c, &hr, HTTP_BODY_JSON_MAX, &body,
			    &bodylen, &r) < 0)
				refuse(c, hr.method, hr.method_len, path, pathlen, &r);
			if (!discard && !policy_empty_body_ok(body, bodylen)) {
				cg_refuse(&r, "malformed", "%s %.*s takes no "
				    "request body", req.method, (int)pathlen, path);
				refuse(c, hr.method, hr.method_len, path, pathlen, &r);
			}
			free(body);
			body = NULL;
			bodylen = 0;
		}
	} else if (req.body_kind != CG_BODY_STREAM) {
		if (!hr.chunked && hr.has_content_length &&
		    hr.content_length > HTTP_BODY_JSON_MAX) {
			cg_refuse(&r, "too-large", "request body exceeds 8 MiB");
			refuse(c, hr.method, hr.method_len, path, pathlen, &r);
		}
		if (hr.expect_continue && write_client(c,
		    "HTTP/1.1 100 Continue\r\n\r\n", 25) < 0)
			abandon(c, 0, IPC_BYE_CLIENT_CLOSED, "abandoned: the client "
			    "left before the request body was complete");
		if (read_body(c, &hr, HTTP_BODY_JSON_MAX, &body, &bodylen, &r) < 0)
			refuse(c, hr.method, hr.method_len, path, pathlen, &r);
	}

	/* 4. body policy and ownership (steps 7-8), the forwarded fields */
	if (policy_finish(&c->ctx, &req, body, bodylen, &r) < 0 ||
	    policy_forward_headers(&req, req.body != NULL ? req.body_len : 0,
	    hr.fields, hr.nfields, &fh, &r) < 0)
		refuse(c, hr.method, hr.method_len, path, pathlen, &r);
	free(body);

	/*
	 * 5. FORWARD (privsep.md §8 step 3): method, target, fields; the JSON
	 * body; on hijack routes the bytes read past the request, which
	 * become the stream's first bytes after a switch (http.md §5.2), ended
	 * by an empty CLIENT_DATA. They stay in c->in: without a switch they
	 * are the next request.
	 */
	m = (struct ipc_msg){ .type = IPC_FORWARD, .fd = -1, .req = c->req };
	m.u.forward.method = SN(hr.method, hr.method_len);
	m.u.forward.target = SN(req.target, req.target_len);
	for (i = 0; i < fh.n; i++) {
		m.u.forward.headers[i].name = SN(fh.f[i].name, fh.f[i].name_len);
		m.u.forward.headers[i].value = SN(fh.f[i].value,
		    fh.f[i].value_len);
	}
	m.u.forward.nheaders = (uint16_t)fh.n;
	send_msg(c, &m);
	if (req.body_len > 0)
		send_data(c, IPC_BODY, req.body, req.body_len);
	if (req.hijack) {
		send_data(c, IPC_CLIENT_DATA, c->in, c->inlen < IPC_EARLY_MAX ?
		    c->inlen : IPC_EARLY_MAX);
		m = (struct ipc_msg){ .type = IPC_CLIENT_DATA, .fd = -1,
		    .req = c->req };
		send_msg(c, &m);
	}

	/*
	 * A light exchange (no body, no hijack: policy_exchange_synced) hears
	 * of its VERDICT only when refused; RESPONSE_END may come first.
	 */
	synced = policy_exchange_synced(&req, &fh);
	recv_msg(c, &m);
	if (!synced && m.type == IPC_RESPONSE_END)
		mode = response_end(c, &m);
	else if (m.type != IPC_VERDICT || m.req != c->req ||
	    (!synced && m.u.verdict.outcome != IPC_OUTCOME_REFUSED))
		_exit(1);
	if (mode < 0 && m.u.verdict.outcome == IPC_OUTCOME_REFUSED) {
		/* the monitor logged it (privsep.md §8 step 3) */
		char code[33], *resp;
		size_t len;

		if (m.u.verdict.code.len >= sizeof(code))
			_exit(1);
		memcpy(code, m.u.verdict.code.p, m.u.verdict.code.len);
		code[m.u.verdict.code.len] = '\0';
		if (cg_code_status(code) < 0)
			_exit(1);
		cg_refuse(&r, code, "%.*s", (int)m.u.verdict.detail.len,
		    m.u.verdict.detail.p);
		resp = cg_error_response(&r, is_head, &len);
		(void)write_client(c, resp, len);	/* the monitor logged it */
		free(resp);
		send_done(c);
		linger_exit(c, IPC_BYE_ERROR);
	}

	/*
	 * 6. the monitor writes the response itself; a streamed body goes on
	 * meanwhile (steps 4-6). RESPONSE_END is the end of the exchange.
	 */
	if (mode < 0 && req.body_kind == CG_BODY_STREAM) {
		if (hr.expect_continue && write_client(c,
		    "HTTP/1.1 100 Continue\r\n\r\n", 25) < 0)
			give_up(c, IPC_BYE_CLIENT_CLOSED);	/* the monitor logs it */
		mode = stream_body(c, &hr);
	}
	policy_request_free(&req);
	if (mode < 0) {
		recv_msg(c, &m);
		mode = response_end(c, &m);
	}
	if (c->up >= 0) {	/* the request's body pipe ends with it */
		close(c->up);
		c->up = -1;
	}
	/* a light exchange kept alive: the next request stands for DONE */
	if (synced || mode != IPC_END_KEEP_ALIVE)
		send_done(c);
	if (mode != IPC_END_KEEP_ALIVE)
		linger_exit(c, IPC_BYE_CLIENT_CLOSED);
	return 1;
}

int
child_await_conn(const struct sandbox_result *sr, unsigned char *buf,
    struct ipc_msg *m)
{
	*m = (struct ipc_msg){ .type = IPC_CHILD_READY, .fd = -1 };
	m->u.child_ready.pid = (uint32_t)getpid();
	m->u.child_ready.namespaces = (uint8_t)sr->namespaces;
	m->u.child_ready.chroot = (uint8_t)sr->chroot;
	if (ipc_send(CHILD_IPC_FD, m, 0) != IPC_OK)
		return -1;
	if (ipc_recv(CHILD_IPC_FD, buf, IPC_MSG_MAX + 1, m, 1, 0) != IPC_OK)
		return -1;
	if (m->type != IPC_CONN_START) {
		if (m->fd >= 0)
			close(m->fd);
		return -1;
	}
	return 0;
}

void
child_serve(const struct ipc_msg *m, unsigned char *buf)
{
	struct child c;

	memset(&c, 0, sizeof(c));
	c.ipc = CHILD_IPC_FD;
	c.incap = 2 * READ_CHUNK;
	c.in = xmalloc(c.incap);
	c.client = m->fd;
	c.up = -1;
	c.conn = m->u.conn_start.conn;
	c.root = xstrndup(m->u.conn_start.root.p, m->u.conn_start.root.len);
	c.proxy = xstrndup(m->u.conn_start.proxy.p, m->u.conn_start.proxy.len);
	c.noproxy = xstrndup(m->u.conn_start.noproxy.p,
	    m->u.conn_start.noproxy.len);
	c.backend_timeout_ms = m->u.conn_start.backend_timeout_ms;
	c.facts.owned = fact_owned;
	c.facts.resolve = fact_resolve;
	c.facts.warn = fact_warn;
	c.facts.arg = &c;
	c.ctx.root = c.root;
	c.ctx.socket_kind = m->u.conn_start.socket_kind == IPC_KIND_DOCKER ?
	    CG_DOCKER : CG_PODMAN;
	c.ctx.backend_kind = m->u.conn_start.backend_kind == IPC_KIND_DOCKER ?
	    CG_DOCKER : CG_PODMAN;
	c.ctx.egress = (enum cg_egress)m->u.conn_start.egress;
	c.ctx.proxy_available = m->u.conn_start.proxy_available;
	c.ctx.proxy = c.proxy;
	c.ctx.noproxy = c.noproxy;
	c.ctx.facts = &c.facts;
	c.ctx.backend_timeout_ms = c.backend_timeout_ms;
	c.ctx.commit_needs_body = m->u.conn_start.commit_needs_body;
	c.msgbuf = buf;		/* m is not used after this point */

	for (;;)
		(void)serve_request(&c);
}

void
child_run(const struct sandbox_result *sr, unsigned char *buf)
{
	struct ipc_msg m;

	if (child_await_conn(sr, buf, &m) < 0)
		_exit(1);
	child_serve(&m, buf);
}
