/*
 * A test world for the monitor's per-connection code (monitor/exchange/dispatch.c
 * and the stages below it), shared by test_dispatch.c and test_relay.c.
 *
 * The test plays the request-parser child on one end of an
 * ipc_socketpair and the client on one end of a socketpair whose other
 * end is the monitor's client descriptor; the struct conn is built with
 * conn_new(). c->pid is a forked dummy that only sleeps: a violation must
 * SIGKILL exactly it. The backend is a listening unix socket of the test,
 * served in-process: every accepted connection gets the next canned
 * response (or echoes what it reads, for switched streams), so every
 * exchange is deterministic and single-threaded.
 *
 * The monitor's log goes to a memory file; tests check it (CG_TEST_VERBOSE=1
 * copies it to stderr).
 */
#ifndef CG_TEST_MONITOR_FIXTURE_H
#define CG_TEST_MONITOR_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "monitor/accept.h"
#include "monitor/conn.h"
#include "monitor/exchange/backend.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/relay.h"
#include "monitor/gateway.h"
#include "monitor/log.h"

#define FX	static __attribute__((unused))

#define ROOT	"/home/u/proj"
#define KEY	"org.apache.magpie.project"
#define LABEL_FILTER \
	"filters=%7B%22label%22%3A%5B%22org.apache.magpie.project%3D%2Fhome%2Fu%2Fproj%22%5D%7D"
/* a streamed upload's canonical target: the policy labels every import */
#define IMPORT	"/v4.0.0/libpod/images/import?changes=LABEL%20" \
	"org.apache.magpie.project%3D%22%2Fhome%2Fu%2Fproj%22"
#define S(s)	ipc_cstr(s)
#define CGV	"Container-Gateway: " CG_VERSION "\r\n"

/* ---------------------------------------------------------------- world */

static struct cg_config cfg;
static struct gateway gw;
static char tmpdir[PATH_MAX];
static char sock_up[108], sock_missing[108], datadir[PATH_MAX];
static int lfd = -1;		/* the fake backend's listener */
static int logfd = -1;		/* memfd holding the monitor's log */
static unsigned char rbuf[IPC_MSG_MAX + 1];
/* the write end of the last BODY_PIPE the monitor sent, -1 (t_recv) */
static int fx_body_pipe = -1;
static int fds_at_start;

/* The fake backend: canned responses handed out per accepted connection. */
#define FB_MAX		16
static struct {
	char *resp[FB_MAX];	/* NULL: accept but do not answer */
	int close_after[FB_MAX];
	int resp_echo[FB_MAX];	/* by response: then echo */
	int echo[FB_MAX];	/* by connection: echo mode */
	int head_seen[FB_MAX];	/* by connection: forwarded head read */
	char *pend[FB_MAX];	/* by connection: response bytes to write */
	size_t plen[FB_MAX], poff[FB_MAX];
	int pclose[FB_MAX];	/* half-close once written */
	int nresp, next;
	int fds[FB_MAX];
	int nfds;
	char *ebuf;		/* echo: bytes read, not yet written back */
	size_t elen;
	int eof[FB_MAX];	/* echo: end-of-file read */
} fb;

/* One connection under test. */
struct t {
	struct conn *c;
	int ch;			/* the child's end of the IPC socket pair */
	int cl;			/* the client's end of the client socket */
	pid_t pid;		/* the dummy child */
};

FX long long
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * Queue the answer for the next backend connection: an HTTP response
 * (then half-close when close_after), or NULL (accept, never answer).
 */
FX void
fb_queue(const char *resp, int close_after)
{
	assert_true(fb.nresp < FB_MAX);
	fb.resp[fb.nresp] = resp != NULL ? xstrdup(resp) : NULL;
	fb.close_after[fb.nresp] = close_after;
	fb.nresp++;
}

/* A response head that switches, then echo (FB mode for streams). */
FX void
fb_queue_echo(const char *head)
{
	fb_queue(head, 0);
	fb.resp_echo[fb.nresp - 1] = 1;
}

/* An HTTP response with a Content-Length body. */
FX char *
http_resp(int status, const char *body)
{
	static char out[4][8192];
	static int i;

	i = (i + 1) % 4;
	snprintf(out[i], sizeof(out[i]), "HTTP/1.1 %d X\r\nContent-Type: "
	    "application/json\r\nContent-Length: %zu\r\n\r\n%s", status,
	    strlen(body), body);
	return out[i];
}

/* Write what the fake backend still owes its connections. */
FX void
fb_flush(void)
{
	ssize_t n;
	int i;

	for (i = 0; i < fb.nfds; i++) {
		while (fb.poff[i] < fb.plen[i] && (n = send(fb.fds[i],
		    fb.pend[i] + fb.poff[i], fb.plen[i] - fb.poff[i],
		    MSG_DONTWAIT | MSG_NOSIGNAL)) > 0)
			fb.poff[i] += (size_t)n;
		if (fb.poff[i] == fb.plen[i] && fb.pclose[i]) {
			shutdown(fb.fds[i], SHUT_WR);
			fb.pclose[i] = 0;
		}
	}
}

/* Accept pending backend connections and answer them. */
FX void
fb_accept(void)
{
	int fd;

	while (fb.nfds < FB_MAX &&
	    (fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
		fb.fds[fb.nfds++] = fd;
		if (fb.next < fb.nresp) {
			const char *r = fb.resp[fb.next];
			int i = fb.nfds - 1;

			if (r != NULL) {
				fb.pend[i] = xstrdup(r);
				fb.plen[i] = strlen(r);
			}
			fb.pclose[i] = fb.close_after[fb.next];
			fb.echo[i] = fb.resp_echo[fb.next];
			fb.next++;
		}
	}
	fb_flush();
}

/*
 * Echo connections: read what arrived (after the request head) and write
 * it back; at end-of-file, half-close. The first bytes up to the blank
 * line are the forwarded head and are not echoed.
 */
FX void
fb_echo(void)
{
	char buf[65536], *p;
	ssize_t n, w;
	int i;

	fb_flush();
	for (i = 0; i < fb.nfds; i++) {
		if (!fb.echo[i] || fb.eof[i] || fb.poff[i] < fb.plen[i])
			continue;
		/* it reads only while it can write (podman behind cat) */
		n = -1;
		while (fb.elen < sizeof(buf) &&
		    (n = recv(fb.fds[i], buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
			p = buf;
			if (!fb.head_seen[i]) {
				char *e = memmem(buf, (size_t)n, "\r\n\r\n", 4);

				assert_non_null(e);	/* heads arrive whole */
				fb.head_seen[i] = 1;
				p = e + 4;
				n -= p - buf;
			}
			fb.ebuf = xrealloc(fb.ebuf, fb.elen + (size_t)n + 1);
			memcpy(fb.ebuf + fb.elen, p, (size_t)n);
			fb.elen += (size_t)n;
		}
		if (n == 0)
			fb.eof[i] = 1;
		while (fb.elen > 0 && (w = send(fb.fds[i], fb.ebuf, fb.elen,
		    MSG_DONTWAIT | MSG_NOSIGNAL)) > 0) {
			memmove(fb.ebuf, fb.ebuf + w, fb.elen - (size_t)w);
			fb.elen -= (size_t)w;
		}
		if (fb.eof[i] && fb.elen == 0) {
			shutdown(fb.fds[i], SHUT_WR);
			fb.head_seen[i] = 0;
		}
	}
}

/* What the backend connection i has received so far. */
FX char *
fb_read(int i)
{
	static char buf[65536];
	size_t len = 0;
	ssize_t n;

	assert_true(i < fb.nfds);
	while (len < sizeof(buf) - 1 &&
	    (n = recv(fb.fds[i], buf + len, sizeof(buf) - 1 - len, MSG_DONTWAIT)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	return buf;
}

FX void
fb_reset(void)
{
	int i, fd;

	fb_accept();
	for (i = 0; i < fb.nfds; i++)
		close(fb.fds[i]);
	for (i = 0; i < fb.nresp; i++)
		free(fb.resp[i]);
	for (i = 0; i < FB_MAX; i++)
		free(fb.pend[i]);
	free(fb.ebuf);
	while ((fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0)
		close(fd);
	memset(&fb, 0, sizeof(fb));
}

#define WANT_END	(-2)	/* drive(): until RESPONSE_END is sent */

/*
 * Run the monitor's backend and client sides (and the fake backend) the
 * way the event loop does, for at most ms, until c reaches state want
 * (-1: never; WANT_END: until the exchange's RESPONSE_END is out, which
 * leaves a light exchange kept alive in RS_IDLE and any other in
 * RS_WAIT_DONE, privsep.md §8). The child's socket is left alone: the
 * test sends and runs conn_on_ipc itself. Returns 1 when reached.
 */
FX int
drive(struct conn *c, int want, int ms)
{
	long long end = mono_ms() + ms;
	struct pollfd p[CONN_POLLFDS];
	int n, i;

	while (mono_ms() < end) {
		fb_accept();
		fb_echo();
		if ((int)c->rs == want || (want == WANT_END && c->end_sent))
			return 1;
		n = conn_pollfds(c, p);
		for (i = 0; i < n; i++)
			if (p[i].fd == c->ipc)
				p[i].events = 0;
		if (poll(p, (nfds_t)n, 5) > 0) {
			for (i = 0; i < n; i++)
				if (p[i].fd == c->ipc)
					p[i].revents = 0;
			conn_on_poll(c, p, n);
		}
	}
	return (int)c->rs == want || (want == WANT_END && c->end_sent);
}

FX int
drive_until(struct conn *c, enum req_state want)
{
	return drive(c, (int)want, 1000);
}

/* Drive until the exchange's RESPONSE_END is sent (see drive()). */
FX int
drive_until_end(struct conn *c)
{
	return drive(c, WANT_END, 1000);
}

/* Let the backend and client sides run for a moment (writes flushed). */
FX void
pump(struct conn *c)
{
	(void)drive(c, -1, 20);
}

/* ---------------------------------------------------------------- log */

FX void
log_reset(void)
{
	assert_int_equal(ftruncate(logfd, 0), 0);
	assert_int_equal(lseek(logfd, 0, SEEK_SET), 0);
}

FX char *
log_text(void)
{
	static char buf[1 << 16];
	ssize_t n;

	n = pread(logfd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	if (getenv("CG_TEST_VERBOSE") != NULL)
		fputs(buf, stderr);
	return buf;
}

/* How often s occurs in the log. */
FX int
log_count(const char *s)
{
	const char *p = log_text();
	int n = 0;

	while ((p = strstr(p, s)) != NULL) {
		n++;
		p += strlen(s);
	}
	return n;
}

#define assert_log(s) do { \
	const char *lt_ = log_text(); \
	if (strstr(lt_, (s)) == NULL) { \
		print_error("log lacks \"%s\":\n%s\n", (s), lt_); \
		fail(); \
	} \
} while (0)

/* ---------------------------------------------------------------- conns */

FX void
t_open(struct t *t, const char *backend)
{
	int sv[2], cs[2];

	memset(t, 0, sizeof(*t));
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    backend);
	/* the dummy child first, so it holds none of the test's sockets */
	t->pid = fork();
	assert_true(t->pid >= 0);
	if (t->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	assert_int_equal(ipc_socketpair(sv), 0);
	assert_int_equal(fcntl(sv[0], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, cs), 0);
	/* as accept_client() makes it: the relay splices to it */
	assert_int_equal(fcntl(cs[0], F_SETFL, O_NONBLOCK), 0);
	t->c = conn_new(&gw, t->pid, sv[0]);
	t->c->id = ++gw.next_conn_id;
	t->c->lis = 0;
	t->c->ready = 1;
	t->c->started = 1;
	t->c->client = cs[0];
	t->ch = sv[1];
	t->cl = cs[1];
	log_reset();
}

enum outcome { HANDLED = 'H', KILLED = 'V', BYE_EXIT = 'B' };

/* Check the dummy's fate, then release everything of t. */
FX void
t_close(struct t *t, enum outcome o)
{
	int st = 0;
	pid_t r;

	if (o == KILLED) {
		assert_int_equal(waitpid(t->pid, &st, 0), t->pid);
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), SIGKILL);
	} else {
		r = waitpid(t->pid, &st, WNOHANG);
		if (r != 0)
			print_error("dummy child %d died (status %#x) without a "
			    "violation\n", (int)t->pid, st);
		assert_int_equal(r, 0);
		kill(t->pid, SIGKILL);
		assert_int_equal(waitpid(t->pid, &st, 0), t->pid);
	}
	conn_free(t->c);
	/* an answer still awaited for a record (monitor/exchange/drain.c) */
	drain_close_all(&gw);
	close(t->ch);
	close(t->cl);
	if (fx_body_pipe >= 0)
		close(fx_body_pipe);
	fx_body_pipe = -1;
	fb_reset();
	t->c = NULL;
}

/* conn_on_ipc's result matches o; then close t. */
FX void
t_expect(struct t *t, int rc, enum outcome o, int line)
{
	if ((o == HANDLED && rc != 0) || (o != HANDLED && rc != -1)) {
		print_error("line %d: conn_on_ipc returned %d, want %c (state "
		    "%d)\n%s\n", line, rc, (char)o, t->c->rs, log_text());
		fail();
	}
	if (o == BYE_EXIT)
		assert_true(t->c->dead);
	t_close(t, o);
}

FX void
t_send(struct t *t, struct ipc_msg *m)
{
	m->fd = -1;
	assert_int_equal(ipc_send(t->ch, m, 0), IPC_OK);
}

/* Send m with its header's req replaced (the encoder refuses bad ones). */
FX int
t_send_req_run(struct t *t, struct ipc_msg *m, uint32_t req)
{
	static unsigned char b[IPC_MSG_MAX];
	int len = ipc_encode(m, b, sizeof(b));

	assert_true(len > 0);
	memcpy(b + 8, &req, 4);
	assert_int_equal(send(t->ch, b, (size_t)len, 0), len);
	return conn_on_ipc(t->c);
}

FX int
t_send_run(struct t *t, struct ipc_msg *m)
{
	t_send(t, m);
	return conn_on_ipc(t->c);
}

/* Receive the next message for the child, or IPC_EAGAIN. */
FX int
t_recv(struct t *t, struct ipc_msg *m)
{
	int rc;

	/* a body pipe is kept aside (fx_body_pipe), as the child does */
	while ((rc = ipc_recv(t->ch, rbuf, sizeof(rbuf), m, 1,
	    MSG_DONTWAIT)) == IPC_OK && m->type == IPC_BODY_PIPE) {
		if (fx_body_pipe >= 0)
			close(fx_body_pipe);
		fx_body_pipe = m->fd;
	}
	return rc;
}

FX void
t_drain(struct t *t)
{
	struct ipc_msg m;

	while (t_recv(t, &m) == IPC_OK)
		;
}

/* The next message for the child must be of type type (returned in m). */
FX void
t_expect_msg(struct t *t, uint16_t type, struct ipc_msg *m)
{
	int rc = t_recv(t, m);

	if (rc != IPC_OK || m->type != type) {
		print_error("want %s, got rc %d type %s\n", ipc_type_name(type),
		    rc, rc == IPC_OK ? ipc_type_name(m->type) : "-");
		fail();
	}
}

/*
 * The current request's RESPONSE_END (in m): a light exchange kept alive
 * sends none by itself, so the child's DONE asks for it first,
 * as a request parser does before it writes to its client or leaves.
 */
FX void t_expect_end(struct t *t, struct ipc_msg *m);

/*
 * What the client has received so far (NUL-terminated; *len bytes), read
 * without blocking; *eof set when the monitor closed its side.
 */
FX char *
cl_read(struct t *t, size_t *len, int *eof)
{
	static char buf[1 << 20];
	size_t got = 0;
	ssize_t n;

	*eof = 0;
	while (got < sizeof(buf) - 1 &&
	    (n = recv(t->cl, buf + got, sizeof(buf) - 1 - got, MSG_DONTWAIT)) != 0) {
		if (n < 0)
			break;
		got += (size_t)n;
	}
	if (n == 0)
		*eof = 1;
	buf[got] = '\0';
	if (len != NULL)
		*len = got;
	return buf;
}

FX int
str_is(const struct ipc_str *s, const char *lit)
{
	return s->len == strlen(lit) && memcmp(s->p, lit, s->len) == 0;
}

/* ---------------------------------------------------------------- messages */

FX struct ipc_msg
m_fact(uint32_t req, uint32_t qid, uint8_t kind, uint8_t api,
    const char *prefix, const char *ref)
{
	struct ipc_msg m = { .type = IPC_FACT_QUERY, .req = req, .fd = -1 };

	m.u.fact_query.qid = qid;
	m.u.fact_query.kind = kind;
	m.u.fact_query.api = api;
	m.u.fact_query.prefix = S(prefix);
	m.u.fact_query.ref = S(ref);
	return m;
}

FX struct ipc_msg
m_path(uint32_t req, uint32_t qid, const char *path)
{
	struct ipc_msg m = { .type = IPC_PATH_QUERY, .req = req, .fd = -1 };

	m.u.path_query.qid = qid;
	m.u.path_query.path = S(path);
	return m;
}

FX void
m_header(struct ipc_msg *m, const char *name, const char *value)
{
	uint16_t n = m->u.forward.nheaders++;

	m->u.forward.headers[n].name = S(name);
	m->u.forward.headers[n].value = S(value);
}

/*
 * A FORWARD with the header list given as name, value pairs, NULL-ended:
 * exactly what the policy forwards (policy/headers.h), or the test's lie.
 */
FX struct ipc_msg
m_fwd(uint32_t req, const char *method, const char *target, ...)
{
	struct ipc_msg m = { .type = IPC_FORWARD, .req = req, .fd = -1 };
	const char *name, *value;
	va_list ap;

	m.u.forward.method = S(method);
	m.u.forward.target = S(target);
	va_start(ap, target);
	while ((name = va_arg(ap, const char *)) != NULL) {
		value = va_arg(ap, const char *);
		m_header(&m, name, value);
	}
	va_end(ap);
	return m;
}

/* A FORWARD of a JSON body of len bytes (its canonical list). */
FX struct ipc_msg
m_fwd_json(uint32_t req, const char *target, size_t len)
{
	static char num[4][24];
	static int i;

	i = (i + 1) % 4;
	snprintf(num[i], sizeof(num[i]), "%zu", len);
	if (len == 0)
		return m_fwd(req, "POST", target, "Content-Length", "0", NULL);
	return m_fwd(req, "POST", target, "Content-Type", "application/json",
	    "Content-Length", num[i], NULL);
}

FX struct ipc_msg
m_simple(uint16_t type, uint32_t req)
{
	struct ipc_msg m = { .type = type, .req = req, .fd = -1 };

	return m;
}

FX void
t_expect_end(struct t *t, struct ipc_msg *m)
{
	struct ipc_msg d = m_simple(IPC_DONE, t->c->req);

	if (t->c->light_req != 0 && t->c->light_req == t->c->req)
		assert_int_equal(t_send_run(t, &d), 0);
	t_expect_msg(t, IPC_RESPONSE_END, m);
}

FX struct ipc_msg
m_data(uint16_t type, uint32_t req, const char *data, size_t len)
{
	struct ipc_msg m = { .type = type, .req = req, .fd = -1 };

	m.u.body.data.p = data;		/* same layout for the data types */
	m.u.body.data.len = (uint32_t)len;
	if (type == IPC_CLIENT_DATA)
		m.u.client_data.data = m.u.body.data;
	return m;
}

/* A GET forwarded to a backend that has not answered yet (RS_RESPONSE). */
FX void
unanswered_get(struct t *t)
{
	struct ipc_msg m = m_fwd(1, "GET", "/v1.41/info", NULL);

	fb_queue(NULL, 0);
	assert_int_equal(t_send_run(t, &m), 0);
	assert_true(drive_until(t->c, RS_RESPONSE));
}

FX struct ipc_msg
m_access(uint32_t req, const char *code, uint16_t status)
{
	struct ipc_msg m = { .type = IPC_ACCESS, .req = req, .fd = -1 };

	m.u.access.method = S("GET");
	m.u.access.path = S("/v1.41/swarm");
	m.u.access.code = S(code);
	m.u.access.status = status;
	m.u.access.duration_ms = 1;
	m.u.access.detail = S("refused by the test");
	return m;
}

/* Volume create bodies as the policy writes them (a fixpoint). */
#define VOL_BODY(name) \
	"{\"Name\":\"" name "\",\"Labels\":{\"" KEY "\":\"" ROOT "\"}}"

#define OWNED_BODY(id) \
	"{\"Id\":\"" id "\",\"Config\":{\"Labels\":{\"" KEY "\":\"" ROOT "\"}}}"

/*
 * Ask a FACT_QUERY that the fake backend answers with resp (an HTTP
 * response; NULL: backend missing) and check the FACT_ANSWER.
 */
FX void
ask(struct t *t, uint32_t req, uint32_t qid, uint8_t kind, uint8_t api,
    const char *ref, const char *resp, uint8_t want, const char *want_id)
{
	struct ipc_msg m = m_fact(req, qid, kind, api, "/v1.41", ref);

	if (resp != NULL)
		fb_queue(resp, 1);
	assert_int_equal(t_send_run(t, &m), 0);
	assert_true(drive_until(t->c, RS_IDLE));
	t_expect_msg(t, IPC_FACT_ANSWER, &m);
	assert_int_equal(m.req, req);
	assert_int_equal(m.u.fact_answer.qid, qid);
	assert_int_equal(m.u.fact_answer.result, want);
	assert_true(str_is(&m.u.fact_answer.id, want_id != NULL ? want_id : ""));
}

/* ---------------------------------------------------------------- setup */

FX int
listen_unix(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return -1;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
	    listen(fd, 64) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

FX int
rm_cb(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

/* Open descriptors of this process (to check that nothing leaks). */
FX int
count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the directory's own descriptor */
}

FX int
setup(void **state)
{
	char tmpl[] = "/tmp/cg-dispatch-XXXXXX";
	static char root0[PATH_MAX];

	(void)state;
	fds_at_start = count_fds();
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(tmpl) == NULL || realpath(tmpl, tmpdir) == NULL)
		return -1;
	snprintf(sock_up, sizeof(sock_up), "%s/backend.sock", tmpdir);
	snprintf(sock_missing, sizeof(sock_missing), "%s/missing.sock", tmpdir);
	snprintf(datadir, sizeof(datadir), "%s/data", tmpdir);
	if (mkdir(datadir, 0755) < 0)
		return -1;
	if ((lfd = listen_unix(sock_up)) < 0)
		return -1;
	if ((logfd = memfd_create("cg-log", MFD_CLOEXEC)) < 0)
		return -1;
	log_init(LOG_INFO, LOG_TEXT, logfd);

	memset(&cfg, 0, sizeof(cfg));
	cfg.egress = CG_EGRESS_OFF;
	cfg.max_connections = 16;
	memset(&gw, 0, sizeof(gw));
	gw.cfg = &cfg;
	snprintf(gw.root, sizeof(gw.root), "%s", ROOT);
	snprintf(root0, sizeof(root0), "%s", tmpdir);
	gw.bind_roots[0] = root0;
	gw.nbind_roots = 1;
	snprintf(gw.bind_roots_text, sizeof(gw.bind_roots_text), "%s", root0);
	gw.pid_fd = -1;
	gw.backend_timeout_ms = 5000;
	gw.lis[0].fd = -1;
	gw.lis[0].socket_kind = CG_PODMAN;
	gw.lis[0].backend_kind = CG_PODMAN;
	gw.lis[1].fd = -1;
	gw.lis[1].socket_kind = CG_DOCKER;
	gw.lis[1].backend_kind = CG_PODMAN;
	TAILQ_INIT(&gw.conns);
	return 0;
}

FX int
teardown(void **state)
{
	(void)state;
	fb_reset();
	close(lfd);
	close(logfd);
	if (count_fds() != fds_at_start) {
		fprintf(stderr, "descriptors leaked: %d open, %d at start\n",
		    count_fds(), fds_at_start);
		return -1;
	}
	if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD) {
		fprintf(stderr, "a child process was left behind\n");
		return -1;
	}
	return nftw(tmpdir, rm_cb, 8, FTW_DEPTH | FTW_PHYS);
}

#endif
