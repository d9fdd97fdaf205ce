/*
 * The monitor's IPC state machine (privsep.md §6-§10, style.md §16
 * "state-machine matrix", monitor/dispatch.c and the stages below it).
 *
 * The test plays the request-parser child on one end of an
 * ipc_socketpair; the other end is a hand-built struct conn. c->pid is a
 * forked dummy that only sleeps: a violation must SIGKILL exactly it.
 * The backend is a listening unix socket of the test, served in-process:
 * every accepted connection gets the next canned response, so every
 * exchange is deterministic and single-threaded.
 *
 * Covered: every message type in every request state (handled, or the
 * child killed), request numbering, FACT_QUERY checks and the 64-question
 * limit, BODY framing limits, CLIENT_DATA before a protocol switch,
 * FORWARD verification (canonical target, route tables, owned ids,
 * headers, Upgrade), crafted datagrams, descriptors attached to a
 * message, the start-up messages and end-of-file; the bypass rows of
 * policy.md §14 decided by the monitor (B27/B28 relay switch, B34 named
 * networks; tests/BYPASSES.md).
 *
 * The monitor's log goes to a memory file; violation reasons are checked
 * against it (CG_TEST_VERBOSE=1 copies it to stderr).
 */
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
#include "monitor/gateway.h"
#include "monitor/log.h"

#define ROOT	"/home/u/proj"
#define KEY	"org.apache.magpie.project"
#define LABEL_FILTER \
	"filters=%7B%22label%22%3A%5B%22org.apache.magpie.project%3D%2Fhome%2Fu%2Fproj%22%5D%7D"

/* ---------------------------------------------------------------- world */

static struct cg_config cfg;
static struct gateway gw;
static char tmpdir[PATH_MAX];
static char sock_up[108], sock_missing[108], datadir[PATH_MAX];
static int lfd = -1;		/* the fake backend's listener */
static int logfd = -1;		/* memfd holding the monitor's log */
static unsigned char rbuf[IPC_MSG_MAX + 1];

/* The fake backend: canned responses handed out per accepted connection. */
#define FB_MAX	16
static struct {
	char *resp[FB_MAX];	/* NULL: accept but do not answer */
	int close_after[FB_MAX];
	int nresp, next;
	int fds[FB_MAX];
	int nfds;
} fb;

/* One connection under test. */
struct t {
	struct conn *c;
	int ch;			/* the child's end of the socket pair */
	pid_t pid;		/* the dummy child */
};

static long long
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void
fb_queue(const char *resp, int close_after)
{
	assert_true(fb.nresp < FB_MAX);
	fb.resp[fb.nresp] = resp != NULL ? xstrdup(resp) : NULL;
	fb.close_after[fb.nresp] = close_after;
	fb.nresp++;
}

/* An HTTP response with a Content-Length body. */
static char *
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

/* Accept pending backend connections and answer them. */
static void
fb_accept(void)
{
	int fd;

	while (fb.nfds < FB_MAX &&
	    (fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
		fb.fds[fb.nfds++] = fd;
		if (fb.next < fb.nresp) {
			const char *r = fb.resp[fb.next];

			if (r != NULL)
				assert_int_equal(write(fd, r, strlen(r)),
				    (ssize_t)strlen(r));
			if (fb.close_after[fb.next])
				shutdown(fd, SHUT_WR);
			fb.next++;
		}
	}
}

/* What the backend connection i has received so far. */
static char *
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

static void
fb_reset(void)
{
	int i, fd;

	fb_accept();
	for (i = 0; i < fb.nfds; i++)
		close(fb.fds[i]);
	for (i = 0; i < fb.nresp; i++)
		free(fb.resp[i]);
	while ((fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0)
		close(fd);
	memset(&fb, 0, sizeof(fb));
}

/*
 * Run the monitor's backend side (and the fake backend) until c reaches
 * state want, for at most a second. Returns 1 when reached.
 */
static int
drive(struct conn *c, int want, int ms)
{
	long long end = mono_ms() + ms;
	struct pollfd p;
	short ev;

	while (mono_ms() < end) {
		fb_accept();
		if ((int)c->rs == want)
			return 1;
		ev = conn_backend_events(c);
		if (c->bc.fd < 0 || ev == 0) {
			usleep(1000);
			continue;
		}
		p = (struct pollfd){ .fd = c->bc.fd, .events = ev };
		if (poll(&p, 1, 10) > 0)
			(void)conn_on_backend(c, p.revents);
	}
	return (int)c->rs == want;
}

static int
drive_until(struct conn *c, enum req_state want)
{
	return drive(c, (int)want, 1000);
}

/* Let the backend side run for a moment (writes flushed). */
static void
pump(struct conn *c)
{
	(void)drive(c, -1, 20);
}

/* ---------------------------------------------------------------- log */

static void
log_reset(void)
{
	assert_int_equal(ftruncate(logfd, 0), 0);
	assert_int_equal(lseek(logfd, 0, SEEK_SET), 0);
}

static char *
log_text(void)
{
	static char buf[1 << 16];
	off_t end = lseek(logfd, 0, SEEK_CUR);
	ssize_t n;

	n = pread(logfd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	(void)end;
	if (getenv("CG_TEST_VERBOSE") != NULL)
		fputs(buf, stderr);
	return buf;
}

#define assert_log(s) do { \
	const char *lt_ = log_text(); \
	if (strstr(lt_, (s)) == NULL) { \
		print_error("log lacks \"%s\":\n%s\n", (s), lt_); \
		fail(); \
	} \
} while (0)

/* ---------------------------------------------------------------- conns */

static void
t_open(struct t *t, const char *backend)
{
	int sv[2];

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
	t->c = conn_new(&gw, t->pid, sv[0]);
	t->c->id = ++gw.next_conn_id;
	t->c->lis = 0;
	t->c->ready = 1;
	t->c->started = 1;
	t->ch = sv[1];
	log_reset();
}

enum outcome { HANDLED = 'H', KILLED = 'V', BYE_EXIT = 'B' };

/* Check the dummy's fate, then release everything of t. */
static void
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
	close(t->ch);
	fb_reset();
	t->c = NULL;
}

/* conn_on_ipc's result matches o; then close t. */
static void
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

static void
t_send(struct t *t, struct ipc_msg *m)
{
	m->fd = -1;
	assert_int_equal(ipc_send(t->ch, m, 0), IPC_OK);
}

/* Send m with its header's req replaced (the encoder refuses bad ones). */
static int
t_send_req_run(struct t *t, struct ipc_msg *m, uint32_t req)
{
	static unsigned char b[IPC_MSG_MAX];
	int len = ipc_encode(m, b, sizeof(b));

	assert_true(len > 0);
	memcpy(b + 8, &req, 4);
	assert_int_equal(send(t->ch, b, (size_t)len, 0), len);
	return conn_on_ipc(t->c);
}

static int
t_send_run(struct t *t, struct ipc_msg *m)
{
	t_send(t, m);
	return conn_on_ipc(t->c);
}

/* Receive the next message for the child, or IPC_EAGAIN. */
static int
t_recv(struct t *t, struct ipc_msg *m)
{
	return ipc_recv(t->ch, rbuf, sizeof(rbuf), m, 0, MSG_DONTWAIT);
}

static void
t_drain(struct t *t)
{
	struct ipc_msg m;

	while (t_recv(t, &m) == IPC_OK)
		;
}

/* The next message for the child must be of type type (returned in m). */
static void
t_expect_msg(struct t *t, uint16_t type, struct ipc_msg *m)
{
	int rc = t_recv(t, m);

	if (rc != IPC_OK || m->type != type) {
		print_error("want %s, got rc %d type %s\n", ipc_type_name(type),
		    rc, rc == IPC_OK ? ipc_type_name(m->type) : "-");
		fail();
	}
}

static int
str_is(const struct ipc_str *s, const char *lit)
{
	return s->len == strlen(lit) && memcmp(s->p, lit, s->len) == 0;
}

/* ---------------------------------------------------------------- messages */

#define S(s)	ipc_cstr(s)

static struct ipc_msg
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

static struct ipc_msg
m_path(uint32_t req, uint32_t qid, const char *path)
{
	struct ipc_msg m = { .type = IPC_PATH_QUERY, .req = req, .fd = -1 };

	m.u.path_query.qid = qid;
	m.u.path_query.path = S(path);
	return m;
}

static struct ipc_msg
m_forward(uint32_t req, const char *method, const char *target, uint8_t api,
    uint8_t body_kind, uint64_t body_len)
{
	struct ipc_msg m = { .type = IPC_FORWARD, .req = req, .fd = -1 };
	const char *q = strchr(target, '?');

	m.u.forward.method = S(method);
	m.u.forward.target = S(target);
	m.u.forward.api = api;
	m.u.forward.action = S("x");
	m.u.forward.log_path.p = target;
	m.u.forward.log_path.len = (uint32_t)(q != NULL ? (size_t)(q - target) :
	    strlen(target));
	m.u.forward.body_kind = body_kind;
	m.u.forward.body_len = body_len;
	return m;
}

static void
m_header(struct ipc_msg *m, const char *name, const char *value)
{
	uint16_t n = m->u.forward.nheaders++;

	m->u.forward.headers[n].name = S(name);
	m->u.forward.headers[n].value = S(value);
}

static struct ipc_msg
m_simple(uint16_t type, uint32_t req)
{
	struct ipc_msg m = { .type = type, .req = req, .fd = -1 };

	return m;
}

static struct ipc_msg
m_data(uint16_t type, uint32_t req, const char *data, size_t len)
{
	struct ipc_msg m = { .type = type, .req = req, .fd = -1 };

	m.u.body.data.p = data;		/* same layout for the data types */
	m.u.body.data.len = (uint32_t)len;
	if (type == IPC_CLIENT_DATA)
		m.u.client_data.data = m.u.body.data;
	return m;
}

static struct ipc_msg
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
static void
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

static int
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

static int
rm_cb(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

static int fds_at_start;

/* Open descriptors of this process (to check that nothing leaks). */
static int
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

static int
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

static int
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

/* ---------------------------------------------------------------- states */

enum st {
	S_IDLE, S_FACT, S_BODY, S_PHASE, S_SENDING, S_STREAM, S_RESPONSE,
	S_SWITCHED, S_WAIT, S_WAIT_STREAM, S_N
};

static const char *const st_names[S_N] = {
	"idle", "fact", "body", "phase", "sending", "stream", "response",
	"switched", "wait-done", "wait-done(stream)",
};

/* Bring a fresh t into state s (request 1 unless idle). */
static void
to_state(struct t *t, enum st s)
{
	struct ipc_msg m;
	static const char vol[] = VOL_BODY("v1");

	t_open(t, s == S_WAIT ? sock_missing : sock_up);
	switch (s) {
	case S_IDLE:
		break;
	case S_FACT:		/* an inspect the backend does not answer */
		fb_queue(NULL, 0);
		m = m_fact(1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1.41", "c1");
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_FACT);
		break;
	case S_BODY:		/* JSON body announced, 1 of 20 bytes sent */
		m = m_forward(1, "POST", "/v1.41/volumes/create", IPC_API_COMPAT,
		    IPC_BODY_JSON, 20);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_BODY);
		break;
	case S_PHASE:		/* volume create name check, not answered */
		fb_queue(NULL, 0);
		m = m_forward(1, "POST", "/v1.41/volumes/create", IPC_API_COMPAT,
		    IPC_BODY_JSON, strlen(vol));
		assert_int_equal(t_send_run(t, &m), 0);
		m = m_data(IPC_BODY, 1, vol, strlen(vol));
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_PHASE);
		break;
	case S_SENDING:		/* connected, head not written yet */
		m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT,
		    IPC_BODY_NONE, 0);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_SENDING);
		break;
	case S_STREAM:		/* streamed request body after VERDICT */
	case S_WAIT_STREAM:	/* ... and the response already complete */
		fb_queue(s == S_WAIT_STREAM ? http_resp(200, "{}") : NULL, 0);
		m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
		    IPC_BODY_STREAM_CHUNKED, 0);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_true(drive_until(t->c, RS_STREAM));
		if (s == S_WAIT_STREAM)
			assert_true(drive_until(t->c, RS_WAIT_DONE));
		break;
	case S_RESPONSE:	/* head written, no response yet */
		fb_queue(NULL, 0);
		m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT,
		    IPC_BODY_NONE, 0);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_true(drive_until(t->c, RS_RESPONSE));
		break;
	case S_SWITCHED:	/* attach after an owned answer and a 101 */
		ask(t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
		    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
		fb_queue("HTTP/1.1 101 UPGRADED\r\nContent-Type: application/"
		    "vnd.docker.raw-stream\r\nConnection: Upgrade\r\nUpgrade: "
		    "tcp\r\n\r\n", 0);
		m = m_forward(1, "POST", "/v1.41/containers/c1id/attach?stream=1"
		    "&stdout=1", IPC_API_COMPAT, IPC_BODY_NONE, 0);
		m_header(&m, "Upgrade", "tcp");
		assert_int_equal(t_send_run(t, &m), 0);
		assert_true(drive_until(t->c, RS_SWITCHED));
		break;
	case S_WAIT:		/* refused by the monitor: backend missing */
		m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT,
		    IPC_BODY_NONE, 0);
		assert_int_equal(t_send_run(t, &m), 0);
		assert_int_equal(t->c->rs, RS_WAIT_DONE);
		break;
	case S_N:
		fail();
	}
	t_drain(t);
	log_reset();
}

/* ---------------------------------------------------------------- matrix */

enum mt {
	M_LOG, M_BYE, M_ACCESS, M_FACT_QUERY, M_PATH_QUERY, M_FORWARD, M_BODY,
	M_BODY_END, M_CLIENT_DATA, M_CLIENT_EOF, M_DONE, M_CHILD_READY,
	M_SANDBOX_FAILED, M_CONN_START, M_FACT_ANSWER, M_PATH_ANSWER,
	M_VERDICT, M_BACKEND_DATA, M_BACKEND_END, M_N
};

/*
 * Expected outcome per state, in enum st order: H handled, V violation
 * (child killed), B normal exit (BYE).
 * idle fact body phase sending stream response switched wait wait(stream)
 */
static const struct {
	const char *name;
	const char *want;
} matrix[M_N] = {
	[M_LOG] =		{ "LOG",		"HHHHHHHHHH" },
	[M_BYE] =		{ "BYE",		"BVVVVVVVVV" },
	[M_ACCESS] =		{ "ACCESS",		"HVVVVVVVVV" },
	[M_FACT_QUERY] =	{ "FACT_QUERY",		"HVVVVVVVVV" },
	[M_PATH_QUERY] =	{ "PATH_QUERY",		"HVVVVVVVVV" },
	[M_FORWARD] =		{ "FORWARD",		"HVVVVVVVVV" },
	[M_BODY] =		{ "BODY",		"VVHVVHVVVH" },
	[M_BODY_END] =		{ "BODY_END",		"VVVVVHVVVH" },
	[M_CLIENT_DATA] =	{ "CLIENT_DATA",	"VVVVVVVHVV" },
	[M_CLIENT_EOF] =	{ "CLIENT_EOF",		"VVVVVVVHVV" },
	[M_DONE] =		{ "DONE",		"VVVVVHHHHH" },
	[M_CHILD_READY] =	{ "CHILD_READY",	"VVVVVVVVVV" },
	[M_SANDBOX_FAILED] =	{ "SANDBOX_FAILED",	"VVVVVVVVVV" },
	[M_CONN_START] =	{ "CONN_START",		"VVVVVVVVVV" },
	[M_FACT_ANSWER] =	{ "FACT_ANSWER",	"VVVVVVVVVV" },
	[M_PATH_ANSWER] =	{ "PATH_ANSWER",	"VVVVVVVVVV" },
	[M_VERDICT] =		{ "VERDICT",		"VVVVVVVVVV" },
	[M_BACKEND_DATA] =	{ "BACKEND_DATA",	"VVVVVVVVVV" },
	[M_BACKEND_END] =	{ "BACKEND_END",	"VVVVVVVVVV" },
};

/* Send one valid message of type mt for the current request of t. */
static void
send_matrix_msg(struct t *t, enum mt mt)
{
	uint32_t req = t->c->rs == RS_IDLE ? t->c->req + 1 : t->c->req;
	unsigned char buf[IPC_MSG_MAX];
	struct ipc_msg m = { .fd = -1, .req = req };
	int len;

	switch (mt) {
	case M_LOG:
		m = m_simple(IPC_LOG, 0);
		m.u.log.level = IPC_LOG_INFO;
		m.u.log.text = S("hello from the child");
		break;
	case M_BYE:
		m = m_simple(IPC_BYE, 0);
		m.u.bye.reason = IPC_BYE_CLIENT_CLOSED;
		break;
	case M_ACCESS:
		m = m_access(req, "denied-endpoint", 403);
		break;
	case M_FACT_QUERY:	/* the backend is missing or never answers */
		m = m_fact(req, 7, CG_FACT_VOLUME, IPC_API_COMPAT, "", "v9");
		break;
	case M_PATH_QUERY:
		m = m_path(req, 7, datadir);
		break;
	case M_FORWARD:
		m = m_forward(req, "GET", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
		break;
	case M_BODY:
		m = m_data(IPC_BODY, req, "x", 1);
		break;
	case M_BODY_END:
		m = m_simple(IPC_BODY_END, req);
		break;
	case M_CLIENT_DATA:
		m = m_data(IPC_CLIENT_DATA, req, "x", 1);
		break;
	case M_CLIENT_EOF:
		m = m_simple(IPC_CLIENT_EOF, req);
		break;
	case M_DONE:
		m = m_simple(IPC_DONE, req);
		break;
	case M_CHILD_READY:
		m = m_simple(IPC_CHILD_READY, 0);
		m.u.child_ready.pid = (uint32_t)t->pid;
		break;
	case M_SANDBOX_FAILED:
		m = m_simple(IPC_SANDBOX_FAILED, 0);
		m.u.sandbox_failed.step = S("seccomp");
		m.u.sandbox_failed.err = EPERM;
		break;
	case M_CONN_START:	/* no descriptor: encode and send raw */
		m = m_simple(IPC_CONN_START, 0);
		m.u.conn_start.conn = 1;
		m.u.conn_start.root = S(ROOT);
		len = ipc_encode(&m, buf, sizeof(buf));
		assert_true(len > 0);
		assert_int_equal(send(t->ch, buf, (size_t)len, 0), len);
		return;
	case M_FACT_ANSWER:
		m = m_simple(IPC_FACT_ANSWER, req);
		m.u.fact_answer.result = IPC_FACT_OWNED;
		m.u.fact_answer.id = S("c1");
		break;
	case M_PATH_ANSWER:
		m = m_simple(IPC_PATH_ANSWER, req);
		m.u.path_answer.verdict = IPC_PATH_ALLOWED;
		m.u.path_answer.resolved = S("/");
		break;
	case M_VERDICT:
		m = m_simple(IPC_VERDICT, req);
		m.u.verdict.outcome = IPC_OUTCOME_FORWARDING;
		break;
	case M_BACKEND_DATA:
		m = m_data(IPC_BACKEND_DATA, req, "x", 1);
		m.u.backend_data.data = m.u.body.data;
		break;
	case M_BACKEND_END:
		m = m_simple(IPC_BACKEND_END, req);
		m.u.backend_end.reason = IPC_END_EOF;
		break;
	case M_N:
		fail();
	}
	t_send(t, &m);
}

static void
test_matrix(void **state)
{
	struct t t;
	int s, mt, rc, bad = 0;
	char want;

	(void)state;
	for (mt = 0; mt < M_N; mt++) {
		for (s = 0; s < S_N; s++) {
			to_state(&t, (enum st)s);
			send_matrix_msg(&t, (enum mt)mt);
			rc = conn_on_ipc(t.c);
			want = matrix[mt].want[s];
			if ((want == 'H' && rc != 0) || (want != 'H' && rc != -1) ||
			    (want == 'B' && !t.c->dead)) {
				print_error("%s in state %s: conn_on_ipc %d, want %c\n"
				    "%s\n", matrix[mt].name, st_names[s], rc, want,
				    log_text());
				bad++;
			}
			/* the dummy's fate must match too (t_close asserts) */
			if (rc == -1 && !t.c->dead)
				t_close(&t, KILLED);
			else
				t_close(&t, rc == -1 ? BYE_EXIT : HANDLED);
		}
	}
	assert_int_equal(bad, 0);
}

/* ---------------------------------------------------------------- requests */

static void
test_req_numbers(void **state)
{
	struct t t;
	struct ipc_msg m;
	int i;

	(void)state;
	/* the first request is 1: 2 and 0 are refused */
	t_open(&t, sock_missing);
	m = m_forward(2, "GET", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("FORWARD for request 2 while at request 0");

	t_open(&t, sock_missing);
	m = m_forward(1, "GET", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	t_expect(&t, t_send_req_run(&t, &m, 0), KILLED, __LINE__);

	/* a request number is not reused after DONE */
	t_open(&t, sock_missing);
	m = m_forward(1, "GET", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.req, 1);
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_IDLE);
	m = m_forward(1, "GET", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* questions then FORWARD in the same request; then request 2 */
	t_open(&t, sock_missing);
	m = m_path(1, 1, datadir);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_path(1, 2, "/etc");
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_forward(1, "GET", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_PATH_ANSWER, &m);
	assert_int_equal(m.req, 1);
	assert_int_equal(m.u.path_answer.qid, 1);
	assert_int_equal(m.u.path_answer.verdict, IPC_PATH_ALLOWED);
	assert_true(str_is(&m.u.path_answer.resolved, datadir));
	t_expect_msg(&t, IPC_PATH_ANSWER, &m);
	assert_int_equal(m.u.path_answer.qid, 2);
	assert_int_equal(m.u.path_answer.verdict, IPC_PATH_OUTSIDE);
	t_expect_msg(&t, IPC_VERDICT, &m);
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	/* DONE for a request already done */
	m = m_simple(IPC_DONE, 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* a request that asked questions cannot be dropped for the next one */
	t_open(&t, sock_missing);
	m = m_path(1, 1, datadir);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_PATH_ANSWER, &m);
	m = m_path(2, 1, datadir);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("request 1 abandoned after its questions");

	/* ACCESS: next request number, code and status agree */
	t_open(&t, sock_missing);
	m = m_access(1, "denied-endpoint", 403);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_log("decision=deny code=denied-endpoint status=403");
	m = m_access(2, "malformed", 400);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_access(3, "denied-endpoint", 400);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("ACCESS code and status disagree");

	/* the method is logged unquoted: a forged log line is a violation */
	t_open(&t, sock_missing);
	m = m_access(1, "denied-endpoint", 403);
	m.u.access.method = S("GET\nINFO forged");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("ACCESS method is not a method");

	t_open(&t, sock_missing);
	m = m_access(1, "no-such-code", 403);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* BODY for the next request while a body is being received */
	to_state(&t, S_BODY);
	m = m_data(IPC_BODY, 2, "x", 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* DONE for an older request while one is running */
	to_state(&t, S_RESPONSE);
	m = m_simple(IPC_DONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	to_state(&t, S_RESPONSE);
	m = m_simple(IPC_DONE, 2);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* a LOG carries req 0 (connection level) */
	t_open(&t, sock_missing);
	m = m_simple(IPC_LOG, 0);
	m.u.log.text = S("x");
	t_expect(&t, t_send_req_run(&t, &m, 1), KILLED, __LINE__);

	/* 32 LOG lines per request are logged; the 33rd is a flood */
	t_open(&t, sock_missing);
	for (i = 0; i < 32; i++) {
		m = m_simple(IPC_LOG, 0);
		m.u.log.level = IPC_LOG_INFO;
		m.u.log.text = S("line");
		assert_int_equal(t_send_run(&t, &m), 0);
	}
	m = m_simple(IPC_LOG, 0);
	m.u.log.level = IPC_LOG_INFO;
	m.u.log.text = S("line");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("more than 32 LOG lines");
}

/* ---------------------------------------------------------------- facts */

static void
test_fact_query(void **state)
{
	static const struct {
		uint8_t kind, api;
		const char *prefix, *ref;
	} bad[] = {
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a/b" },
		{ CG_FACT_VOLUME, IPC_API_LIBPOD, "", "a/b" },
		{ CG_FACT_EXEC, IPC_API_COMPAT, "", "e1/json" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", ".." },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "." },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", ".." },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "a/../b" },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "a/./b" },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "a//b" },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "/a" },
		{ CG_FACT_IMAGE, IPC_API_COMPAT, "", "a/" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a b" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a%2fb" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a?b" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a#b" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a\\b" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "a\r\nb" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "", "\xc3\xa9" },
		{ CG_FACT_POD, IPC_API_COMPAT, "", "p1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "v1.41", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1.41/x", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/x1.41", "c1" },
		/* the prefix is spliced into the inspect head: no CR/LF, space */
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v\r\nX-A: b\r\n\r\nGET ", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1.41 HTTP", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1", "c1" },
		{ CG_FACT_CONTAINER, IPC_API_COMPAT, "/v1.041", "c1" },
	};
	unsigned char raw[IPC_MSG_MAX];
	struct t t;
	struct ipc_msg m;
	size_t i;
	int len;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t_open(&t, sock_missing);
		m = m_fact(1, 1, bad[i].kind, bad[i].api, bad[i].prefix, bad[i].ref);
		t_send(&t, &m);
		if (conn_on_ipc(t.c) != -1) {
			print_error("FACT_QUERY %d/%d prefix \"%s\" ref \"%s\" was "
			    "accepted\n", bad[i].kind, bad[i].api, bad[i].prefix,
			    bad[i].ref);
			fail();
		}
		t_close(&t, KILLED);
	}
	/* an out-of-range kind does not even decode */
	t_open(&t, sock_missing);
	m = m_fact(1, 1, CG_FACT_EXEC, IPC_API_COMPAT, "", "c1");
	len = ipc_encode(&m, raw, sizeof(raw));
	assert_true(len > 0);
	raw[IPC_HDR_LEN + 4] = 6;	/* kind follows the u32 qid */
	assert_int_equal(send(t.ch, raw, (size_t)len, 0), len);
	t_expect(&t, conn_on_ipc(t.c), KILLED, __LINE__);

	/* accepted refs: images span segments; exact inspect bytes */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_IMAGE, IPC_API_COMPAT, "quay.io/podman/hello:latest",
	    http_resp(200, "{\"Id\":\"sha256:ab\",\"Config\":{\"Labels\":{\"" KEY
	    "\":\"" ROOT "\"}}}"), IPC_FACT_OWNED, "sha256:ab");
	assert_string_equal(fb_read(0), "GET /v1.41/images/quay.io/podman/"
	    "hello:latest/json HTTP/1.1\r\nHost: docker\r\nConnection: close\r\n\r\n");
	/* libpod pod, prefix as sent */
	m = m_fact(1, 2, CG_FACT_POD, IPC_API_LIBPOD, "/v5.0.0-rc1", "p1");
	fb_queue(http_resp(200, "{\"Id\":\"p1id\",\"Labels\":{\"" KEY "\":\""
	    ROOT "\"}}"), 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_IDLE));
	t_expect_msg(&t, IPC_FACT_ANSWER, &m);
	assert_int_equal(m.u.fact_answer.qid, 2);
	assert_int_equal(m.u.fact_answer.result, IPC_FACT_OWNED);
	assert_true(str_is(&m.u.fact_answer.id, "p1id"));
	assert_string_equal(fb_read(1), "GET /v5.0.0-rc1/libpod/pods/p1/json "
	    "HTTP/1.1\r\nHost: docker\r\nConnection: close\r\n\r\n");
	/* the other answers */
	ask(&t, 1, 3, CG_FACT_CONTAINER, IPC_API_COMPAT, "c2",
	    http_resp(404, "{\"message\":\"no such container\"}"),
	    IPC_FACT_NOT_OWNED, NULL);
	ask(&t, 1, 4, CG_FACT_CONTAINER, IPC_API_COMPAT, "c3",
	    http_resp(200, "{\"Id\":\"c3\",\"Config\":{\"Labels\":{\"" KEY
	    "\":\"/other\"}}}"), IPC_FACT_NOT_OWNED, NULL);
	ask(&t, 1, 5, CG_FACT_CONTAINER, IPC_API_COMPAT, "c4",
	    http_resp(500, "{}"), IPC_FACT_UNEXPECTED, NULL);
	ask(&t, 1, 6, CG_FACT_CONTAINER, IPC_API_COMPAT, "c5",
	    http_resp(200, "{\"Id\":\"c5\",\"Id\":\"c5\",\"Config\":{\"Labels\":"
	    "{\"" KEY "\":\"" ROOT "\"}}}"), IPC_FACT_UNEXPECTED, NULL);
	ask(&t, 1, 7, CG_FACT_CONTAINER, IPC_API_COMPAT, "c6",
	    "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}",
	    IPC_FACT_UNREACHABLE, NULL);
	/* exec: the exec's container is checked next (routes.md §9.4) */
	fb_queue(http_resp(200, "{\"ID\":\"e1\",\"ContainerID\":\"c7id\"}"), 1);
	ask(&t, 1, 8, CG_FACT_EXEC, IPC_API_COMPAT, "e1",
	    http_resp(200, OWNED_BODY("c7id")), IPC_FACT_OWNED, "c7id");
	assert_true(strstr(fb_read(fb.nfds - 2), "GET /v1.41/exec/e1/json ") != NULL);
	assert_true(strstr(fb_read(fb.nfds - 1), "GET /v1.41/containers/c7id/json ")
	    != NULL);
	fb_queue(http_resp(200, "{\"ID\":\"e2\",\"ContainerID\":\"c8id\"}"), 1);
	ask(&t, 1, 9, CG_FACT_EXEC, IPC_API_COMPAT, "e2",
	    http_resp(200, "{\"Id\":\"c8id\",\"Config\":{}}"),
	    IPC_FACT_NOT_OWNED, NULL);
	t_close(&t, HANDLED);

	/* a missing backend: unreachable */
	t_open(&t, sock_missing);
	ask(&t, 1, 1, CG_FACT_VOLUME, IPC_API_LIBPOD, "v1", NULL,
	    IPC_FACT_UNREACHABLE, NULL);
	t_close(&t, HANDLED);

	/* a backend that does not answer in time: timeout */
	t_open(&t, sock_up);
	fb_queue(NULL, 0);
	m = m_fact(1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "", "c1");
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_FACT);
	assert_int_equal(conn_on_timer(t.c, t.c->bc.deadline - 1), 0);
	assert_int_equal(t.c->rs, RS_FACT);
	assert_int_equal(conn_on_timer(t.c, t.c->bc.deadline), 0);
	t_expect_msg(&t, IPC_FACT_ANSWER, &m);
	assert_int_equal(m.u.fact_answer.result, IPC_FACT_TIMEOUT);
	assert_int_equal(t.c->rs, RS_IDLE);
	t_close(&t, HANDLED);
}

/* At most 64 FACT_QUERY and 64 PATH_QUERY per request. */
static void
test_question_limits(void **state)
{
	struct t t;
	struct ipc_msg m;
	char ref[16];
	int i;

	(void)state;
	t_open(&t, sock_missing);
	for (i = 1; i <= IPC_FACT_QUERIES_MAX; i++) {
		snprintf(ref, sizeof(ref), "c%d", i);
		m = m_fact(1, (uint32_t)i, CG_FACT_CONTAINER, IPC_API_COMPAT, "", ref);
		assert_int_equal(t_send_run(&t, &m), 0);
		t_expect_msg(&t, IPC_FACT_ANSWER, &m);
		assert_int_equal(m.u.fact_answer.qid, (uint32_t)i);
		assert_int_equal(m.u.fact_answer.result, IPC_FACT_UNREACHABLE);
	}
	m = m_fact(1, 65, CG_FACT_CONTAINER, IPC_API_COMPAT, "", "c65");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("more than 64 FACT_QUERY");

	/* the count is per request */
	t_open(&t, sock_missing);
	for (i = 1; i <= IPC_FACT_QUERIES_MAX; i++) {
		m = m_fact(1, (uint32_t)i, CG_FACT_CONTAINER, IPC_API_COMPAT, "", "c");
		assert_int_equal(t_send_run(&t, &m), 0);
	}
	m = m_access(1, "not-found", 404);
	assert_int_equal(t_send_run(&t, &m), 0);
	for (i = 1; i <= IPC_FACT_QUERIES_MAX; i++) {
		m = m_fact(2, (uint32_t)i, CG_FACT_CONTAINER, IPC_API_COMPAT, "", "c");
		assert_int_equal(t_send_run(&t, &m), 0);
	}
	t_drain(&t);
	t_close(&t, HANDLED);

	t_open(&t, sock_missing);
	for (i = 1; i <= IPC_PATH_QUERIES_MAX; i++) {
		m = m_path(1, (uint32_t)i, "/");
		assert_int_equal(t_send_run(&t, &m), 0);
		t_drain(&t);
	}
	m = m_path(1, 65, "/");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("more than 64 PATH_QUERY");
}

/* ---------------------------------------------------------------- bodies */

static void
test_body_limits(void **state)
{
	static const char body[] = VOL_BODY("");	/* no name check */
	struct t t;
	struct ipc_msg m;
	size_t n = strlen(body);

	(void)state;
	/* JSON: exactly body_len bytes, then the monitor proceeds */
	t_open(&t, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", IPC_API_COMPAT,
	    IPC_BODY_JSON, n);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, body, 4);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_BODY);
	m = m_data(IPC_BODY, 1, body + 4, n - 4);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);	/* backend missing: 502 */
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
	assert_int_equal(m.u.verdict.status, 502);
	assert_true(str_is(&m.u.verdict.code, "backend-unreachable"));
	/* more BODY after the JSON body is complete */
	m = m_data(IPC_BODY, 1, "x", 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY on a request without a streamed body");

	/* JSON: one byte beyond body_len */
	t_open(&t, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", IPC_API_COMPAT,
	    IPC_BODY_JSON, n);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, body, n - 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, "}}", 2);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY beyond the declared JSON length");

	/* JSON over 8 MiB is refused before any byte */
	t_open(&t, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", IPC_API_COMPAT,
	    IPC_BODY_JSON, (8u << 20) + 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* a forwarded JSON body that does not parse */
	t_open(&t, sock_missing);
	m = m_forward(1, "POST", "/v1.41/volumes/create", IPC_API_COMPAT,
	    IPC_BODY_JSON, 3);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, "{{}", 3);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* stream with a Content-Length: framed by the monitor */
	t_open(&t, sock_up);
	fb_queue(NULL, 0);
	m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
	    IPC_BODY_STREAM_LENGTH, 5);
	assert_int_equal(t_send_run(&t, &m), 0);
	/* BODY before VERDICT forwarding */
	m = m_data(IPC_BODY, 1, "ab", 2);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	t_open(&t, sock_up);
	fb_queue(NULL, 0);
	m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
	    IPC_BODY_STREAM_LENGTH, 5);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_STREAM));
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_FORWARDING);
	m = m_data(IPC_BODY, 1, "ab", 2);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_BODY_END, 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY_END before the declared length");

	t_open(&t, sock_up);
	fb_queue(NULL, 0);
	m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
	    IPC_BODY_STREAM_LENGTH, 5);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_STREAM));
	m = m_data(IPC_BODY, 1, "abc", 3);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, "def", 3);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY beyond the declared Content-Length");

	/* the exact length, BODY_END; the backend saw head + 5 bytes */
	t_open(&t, sock_up);
	fb_queue(NULL, 0);
	m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
	    IPC_BODY_STREAM_LENGTH, 5);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_STREAM));
	m = m_data(IPC_BODY, 1, "abc", 3);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_data(IPC_BODY, 1, "de", 2);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_BODY_END, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	pump(t.c);
	assert_string_equal(fb_read(0), "POST /v1.41/images/load HTTP/1.1\r\n"
	    "Host: docker\r\nContent-Length: 5\r\nConnection: close\r\n\r\nabcde");
	m = m_simple(IPC_BODY_END, 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("second BODY_END");

	/* chunked: framed by the monitor; BODY after BODY_END */
	t_open(&t, sock_up);
	fb_queue(NULL, 0);
	m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
	    IPC_BODY_STREAM_CHUNKED, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_STREAM));
	m = m_data(IPC_BODY, 1, "0123456789abcdefX", 17);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_BODY_END, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	pump(t.c);
	assert_string_equal(fb_read(0), "POST /v1.41/images/load HTTP/1.1\r\n"
	    "Host: docker\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n"
	    "\r\n11\r\n0123456789abcdefX\r\n0\r\n\r\n");
	m = m_data(IPC_BODY, 1, "x", 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("BODY after BODY_END");
}

/* CLIENT_DATA only after the monitor saw the backend switch protocols. */
static void
test_client_data(void **state)
{
	struct t t;
	struct ipc_msg m;

	(void)state;
	/* an attach whose backend answers 200 with a length: no switch */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	fb_queue(http_resp(200, "{}"), 0);
	m = m_forward(1, "POST", "/v1.41/containers/c1id/attach?stream=1&stdout=1",
	    IPC_API_COMPAT, IPC_BODY_NONE, 0);
	m_header(&m, "Upgrade", "tcp");
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	m = m_data(IPC_CLIENT_DATA, 1, "GET /x HTTP/1.1\r\n\r\n", 19);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	t_open(&t, sock_up);
	fb_queue(http_resp(200, "{}"), 0);
	m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	m = m_simple(IPC_CLIENT_EOF, 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* after a 101: relayed both ways; then half-close */
	to_state(&t, S_SWITCHED);
	m = m_data(IPC_CLIENT_DATA, 1, "hello", 5);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_CLIENT_EOF, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	pump(t.c);
	assert_true(strstr(fb_read(1), "\r\nConnection: Upgrade\r\nUpgrade: tcp"
	    "\r\n\r\nhello") != NULL);
	assert_int_equal(recv(fb.fds[1], rbuf, 1, MSG_DONTWAIT), 0);	/* EOF */
	m = m_data(IPC_CLIENT_DATA, 1, "more", 4);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("CLIENT_DATA after CLIENT_EOF");

	to_state(&t, S_SWITCHED);
	m = m_simple(IPC_CLIENT_EOF, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	m = m_simple(IPC_CLIENT_EOF, 1);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	assert_log("second CLIENT_EOF");
}

/*
 * §14 B27, B28 (http.md §9.1): the monitor switches to a raw relay only on
 * attach / exec start (the route's hijack flag) and only on the backend's
 * 101 or a length-less 200 raw/multiplexed stream. Anything else stays an
 * HTTP response, and client bytes after the request are a violation.
 */
#define RAW_CT	"Content-Type: application/vnd.docker.raw-stream\r\n"
#define MUX_CT	"Content-Type: application/vnd.docker.multiplexed-stream\r\n"

static void
relay_case(const char *what, const char *method, const char *target,
    int owned, const char *resp, int want_switch)
{
	struct t t;
	struct ipc_msg m;

	t_open(&t, sock_up);
	if (owned)	/* the path names c1id: the monitor must have said so */
		ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
		    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	fb_queue(resp, 0);
	m = m_forward(1, method, target, IPC_API_COMPAT, IPC_BODY_NONE, 0);
	if (strstr(target, "/attach") != NULL)
		m_header(&m, "Upgrade", "tcp");
	assert_int_equal(t_send_run(&t, &m), 0);
	if (want_switch) {
		if (!drive_until(t.c, RS_SWITCHED))
			fail_msg("%s: not switched (state %d)", what, t.c->rs);
		m = m_data(IPC_CLIENT_DATA, 1, "stdin", 5);
		assert_int_equal(t_send_run(&t, &m), 0);
		pump(t.c);
		if (strstr(fb_read(owned), "\r\n\r\nstdin") == NULL)
			fail_msg("%s: client bytes not relayed", what);
		m = m_simple(IPC_CLIENT_EOF, 1);
		assert_int_equal(t_send_run(&t, &m), 0);
		t_close(&t, HANDLED);
		return;
	}
	/*
	 * The head is relayed (or, for a 101 nobody asked for, answered as an
	 * invalid response: 502), and the connection stays HTTP.
	 */
	(void)drive(t.c, -1, 200);
	if (t.c->rs == RS_SWITCHED || (!t.c->head_done && t.c->rs != RS_WAIT_DONE))
		fail_msg("%s: head_done %d state %d", what, t.c->head_done,
		    t.c->rs);
	m = m_data(IPC_CLIENT_DATA, 1, "GET /x HTTP/1.1\r\n\r\n", 19);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
}

static void
test_bypass_relay(void **state)
{
	(void)state;
	/* B27: a backend "upgrade" on a route that does not hijack */
	relay_case("B27 101 on info", "GET", "/v1.41/info", 0,
	    "HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\nUpgrade: tcp"
	    "\r\n\r\n", 0);
	/* B28 shape on a route that does not hijack */
	relay_case("B27 raw 200 on info", "GET", "/v1.41/info", 0,
	    "HTTP/1.1 200 OK\r\n" RAW_CT "\r\n", 0);
	relay_case("B27 multiplexed 200 on start", "POST",
	    "/v1.41/containers/c1id/start", 1,
	    "HTTP/1.1 200 OK\r\n" MUX_CT "\r\n", 0);
	/* B27 on attach: an ordinary response (framed, or not a stream type) */
	relay_case("B27 attach 404 JSON", "POST",
	    "/v1.41/containers/c1id/attach?stream=1", 1,
	    http_resp(404, "{\"message\":\"no such container\"}"), 0);
	relay_case("B27 attach raw with a length", "POST",
	    "/v1.41/containers/c1id/attach?stream=1", 1,
	    "HTTP/1.1 200 OK\r\n" RAW_CT "Content-Length: 3\r\n\r\nabc", 0);
	relay_case("B27 attach mux chunked", "POST",
	    "/v1.41/containers/c1id/attach?stream=1", 1,
	    "HTTP/1.1 200 OK\r\n" MUX_CT "Transfer-Encoding: chunked\r\n\r\n",
	    0);
	relay_case("B27 attach 200 JSON without a length", "POST",
	    "/v1.41/containers/c1id/attach?stream=1", 1,
	    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n", 0);
	/* allowed: the real switches on attach (B28: 200 raw stream, and 101) */
	relay_case("B28 attach raw 200", "POST",
	    "/v1.41/containers/c1id/attach?stream=1", 1,
	    "HTTP/1.1 200 OK\r\n" RAW_CT "\r\n", 1);
	relay_case("B28 attach multiplexed 200", "POST",
	    "/v1.41/containers/c1id/attach?stream=1", 1,
	    "HTTP/1.1 200 OK\r\n" MUX_CT "\r\n", 1);
	relay_case("B27 attach 101", "POST",
	    "/v1.41/containers/c1id/attach?stream=1", 1,
	    "HTTP/1.1 101 UPGRADED\r\n" RAW_CT "Connection: Upgrade\r\n"
	    "Upgrade: tcp\r\n\r\n", 1);
}

/* ---------------------------------------------------------------- forward */

/* A FORWARD that passes verification: with no backend, VERDICT 502. */
static void
expect_forward_ok(struct ipc_msg *fwd, int line)
{
	struct t t;
	struct ipc_msg m;

	t_open(&t, sock_missing);
	if (t_send_run(&t, fwd) != 0) {
		print_error("line %d: FORWARD %.*s refused:\n%s\n", line,
		    (int)fwd->u.forward.target.len, fwd->u.forward.target.p,
		    log_text());
		fail();
	}
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.req, fwd->req);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
	assert_int_equal(m.u.verdict.status, 502);
	assert_true(str_is(&m.u.verdict.code, "backend-unreachable"));
	assert_int_equal(t.c->rs, RS_WAIT_DONE);
	assert_log("decision=error code=backend-unreachable status=502");
	m = m_simple(IPC_DONE, fwd->req);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_close(&t, HANDLED);
}

static void
expect_forward_bad(struct ipc_msg *fwd, const char *why, int line)
{
	struct t t;

	t_open(&t, sock_missing);
	if (t_send_run(&t, fwd) != -1) {
		print_error("line %d: FORWARD %.*s accepted\n", line,
		    (int)fwd->u.forward.target.len, fwd->u.forward.target.p);
		fail();
	}
	if (why != NULL)
		assert_log(why);
	assert_int_equal(t_recv(&t, fwd), IPC_EAGAIN);	/* no VERDICT */
	t_close(&t, KILLED);
}

#define FWD_OK(m)		expect_forward_ok(&(m), __LINE__)
#define FWD_BAD(m, why)		expect_forward_bad(&(m), why, __LINE__)

static void
test_forward_target(void **state)
{
	struct ipc_msg m;

	(void)state;
	m = m_forward(1, "GET", "/v1.41/containers/json?all=1&" LABEL_FILTER,
	    IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_OK(m);
	m = m_forward(1, "GET", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_OK(m);
	m = m_forward(1, "HEAD", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_OK(m);
	m = m_forward(1, "GET", "/v4.0.0/libpod/info", IPC_API_LIBPOD,
	    IPC_BODY_NONE, 0);
	FWD_OK(m);
	m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
	    IPC_BODY_STREAM_LENGTH, 0);
	FWD_OK(m);

	/* not canonical: the child did not re-encode the query */
	m = m_forward(1, "GET", "/v1.41/containers/json?all=1&filters=",
	    IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD target is not canonical");
	m = m_forward(1, "GET", "/v1.41/containers/json?all=1",
	    IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD target is not canonical");
	m = m_forward(1, "GET", "/v1.41/containers/json?" LABEL_FILTER "&all=1&",
	    IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, NULL);
	/* refused by the route tables */
	m = m_forward(1, "GET", "/v1.41/swarm", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "/v1.41/containers/c1%2fjson", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "/v1.41//info", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "/v1.23/info", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "info", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, NULL);
	m = m_forward(1, "GET", "", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, NULL);
	/* methods */
	m = m_forward(1, "PATCH", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD method is not allowed");
	m = m_forward(1, "get", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD method is not allowed");
	m = m_forward(1, "GETX", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD method is not allowed");
	/* body kinds */
	m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT, IPC_BODY_JSON, 2);
	FWD_BAD(m, "FORWARD body kind does not match the route");
	m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD body kind does not match the route");
	m = m_forward(1, "POST", "/v1.41/volumes/create", IPC_API_COMPAT,
	    IPC_BODY_STREAM_CHUNKED, 0);
	FWD_BAD(m, "FORWARD body kind does not match the route");
	/* libpod only on podman.sock */
	gw.lis[0].socket_kind = CG_DOCKER;
	m = m_forward(1, "GET", "/v4.0.0/libpod/info", IPC_API_LIBPOD,
	    IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD target refused by the route tables");
	m = m_forward(1, "GET", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	FWD_OK(m);
	gw.lis[0].socket_kind = CG_PODMAN;
}

static void
test_forward_headers(void **state)
{
	static const char *const ok_names[] = { "User-Agent", "Accept",
	    "Accept-Encoding", "X-Registry-Auth", "X-Registry-Config" };
	static const char *const bad_names[] = { "Host", "Connection",
	    "Content-Length", "Transfer-Encoding", "X-Forwarded-For",
	    "Authorization", "Cookie", "Proxy-Authorization", "user-agent",
	    "User-Agent ", "", "Expect", "Keep-Alive", "TE", "Trailer" };
	struct ipc_msg m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok_names) / sizeof(ok_names[0]); i++) {
		m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT,
		    IPC_BODY_NONE, 0);
		m_header(&m, ok_names[i], "v\tx y");
		FWD_OK(m);
	}
	for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
		m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT,
		    IPC_BODY_NONE, 0);
		m_header(&m, "User-Agent", "docker");
		m_header(&m, bad_names[i], "x");
		FWD_BAD(m, "FORWARD header is not forwardable");
	}
	/* values with control bytes */
	m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	m_header(&m, "User-Agent", "a\r\nX-Injected: 1");
	FWD_BAD(m, "FORWARD header is not forwardable");
	m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	m_header(&m, "Accept", "a\x7f");
	FWD_BAD(m, "FORWARD header is not forwardable");
	/* Content-Type only on stream routes */
	m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	m_header(&m, "Content-Type", "application/json");
	FWD_BAD(m, "Content-Type on a non-stream route");
	m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
	    IPC_BODY_STREAM_CHUNKED, 0);
	m_header(&m, "Content-Type", "application/x-tar");
	FWD_OK(m);
	/* Upgrade only on attach and exec start */
	m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	m_header(&m, "Upgrade", "tcp");
	FWD_BAD(m, "Upgrade on a route that does not hijack");
	m = m_forward(1, "POST", "/v1.41/images/load", IPC_API_COMPAT,
	    IPC_BODY_STREAM_CHUNKED, 0);
	m_header(&m, "Upgrade", "tcp");
	FWD_BAD(m, "Upgrade on a route that does not hijack");
}

/* Path and query refs must be ids this monitor answered owned (item 4). */
static void
test_forward_owned(void **state)
{
	struct t t;
	struct ipc_msg m;

	(void)state;
	/* never asked */
	m = m_forward(1, "POST", "/v1.41/containers/c1/start", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD names a resource the monitor did not answer owned");
	m = m_forward(1, "GET", "/v1.41/volumes/v1", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	FWD_BAD(m, "FORWARD names a resource the monitor did not answer owned");
	m = m_forward(1, "POST", "/v1.41/exec/e1/start", IPC_API_COMPAT,
	    IPC_BODY_JSON, 0);
	FWD_BAD(m, "did not answer owned");
	m = m_forward(1, "DELETE", "/v1.41/images/foo", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	FWD_BAD(m, "did not answer owned");
	m = m_forward(1, "POST", "/v1.41/commit?container=c1", IPC_API_COMPAT,
	    IPC_BODY_JSON, 0);
	FWD_BAD(m, "FORWARD query container=c1 was not answered owned");

	/* owned: the id is forwarded, not the ref */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	m = m_forward(1, "POST", "/v1.41/containers/c1id/start", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.status, 502);
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	/* request 2: the answer of request 1 is gone */
	m = m_forward(2, "POST", "/v1.41/containers/c1id/start", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	m = m_forward(1, "POST", "/v1.41/containers/c1/start", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* another id, a prefix of it, a longer one */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	m = m_forward(1, "POST", "/v1.41/containers/c1i/start", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	m = m_forward(1, "POST", "/v1.41/containers/c1idx/start", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* answered not owned */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c2",
	    http_resp(200, "{\"Id\":\"c2id\",\"Config\":{}}"), IPC_FACT_NOT_OWNED,
	    NULL);
	m = m_forward(1, "POST", "/v1.41/containers/c2id/start", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* owned, but of another kind */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_POD, IPC_API_LIBPOD, "p1",
	    http_resp(200, "{\"Id\":\"p1id\",\"Labels\":{\"" KEY "\":\"" ROOT
	    "\"}}"), IPC_FACT_OWNED, "p1id");
	m = m_forward(1, "POST", "/v4.0.0/libpod/containers/p1id/start",
	    IPC_API_LIBPOD, IPC_BODY_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* volumes keep the ref; exec start names the exec id */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_VOLUME, IPC_API_COMPAT, "v1",
	    http_resp(200, "{\"Name\":\"v1\",\"Labels\":{\"" KEY "\":\"" ROOT
	    "\"}}"), IPC_FACT_OWNED, "v1");
	fb_queue(http_resp(200, "{\"ID\":\"e1\",\"ContainerID\":\"c7id\"}"), 1);
	ask(&t, 1, 2, CG_FACT_EXEC, IPC_API_COMPAT, "e1",
	    http_resp(200, OWNED_BODY("c7id")), IPC_FACT_OWNED, "c7id");
	ask(&t, 1, 3, CG_FACT_CONTAINER, IPC_API_COMPAT, "c3",
	    http_resp(200, OWNED_BODY("c3id")), IPC_FACT_OWNED, "c3id");
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	m = m_forward(1, "POST", "/v1.41/exec/e1/start", IPC_API_COMPAT,
	    IPC_BODY_JSON, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.status, 502);
	t_close(&t, HANDLED);

	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_VOLUME, IPC_API_COMPAT, "v1",
	    http_resp(200, "{\"Name\":\"v1\",\"Labels\":{\"" KEY "\":\"" ROOT
	    "\"}}"), IPC_FACT_OWNED, "v1");
	ask(&t, 1, 2, CG_FACT_CONTAINER, IPC_API_COMPAT, "c3",
	    http_resp(200, OWNED_BODY("c3id")), IPC_FACT_OWNED, "c3id");
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	m = m_forward(1, "GET", "/v1.41/volumes/v1", IPC_API_COMPAT,
	    IPC_BODY_NONE, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_close(&t, HANDLED);

	/* query ref: commit's container is the owned id */
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	snprintf(gw.lis[0].backend_path, sizeof(gw.lis[0].backend_path), "%s",
	    sock_missing);
	m = m_forward(1, "POST", "/v1.41/commit?container=c1id", IPC_API_COMPAT,
	    IPC_BODY_JSON, 0);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_expect_msg(&t, IPC_VERDICT, &m);
	t_close(&t, HANDLED);
	t_open(&t, sock_up);
	ask(&t, 1, 1, CG_FACT_CONTAINER, IPC_API_COMPAT, "c1",
	    http_resp(200, OWNED_BODY("c1id")), IPC_FACT_OWNED, "c1id");
	m = m_forward(1, "POST", "/v1.41/commit?container=c1", IPC_API_COMPAT,
	    IPC_BODY_JSON, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);
}

/* A verified FORWARD reaches the backend as a head the monitor wrote. */
static void
test_forward_backend(void **state)
{
	struct t t;
	struct ipc_msg m;

	(void)state;
	t_open(&t, sock_up);
	fb_queue(http_resp(200, "{\"ok\":1}"), 0);
	m = m_forward(1, "GET", "/v1.41/info", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	m_header(&m, "Accept", "*/*");
	m_header(&m, "User-Agent", "docker/27");
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_SENDING);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	assert_string_equal(fb_read(0), "GET /v1.41/info HTTP/1.1\r\nHost: docker\r\n"
	    "User-Agent: docker/27\r\nAccept: */*\r\nConnection: close\r\n\r\n");
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_FORWARDING);
	t_expect_msg(&t, IPC_BACKEND_DATA, &m);
	assert_true(m.u.backend_data.data.len > 8 &&
	    memcmp(m.u.backend_data.data.p, "HTTP/1.1 200", 12) == 0);
	while (t_recv(&t, &m) == IPC_OK && m.type == IPC_BACKEND_DATA)
		;
	assert_int_equal(m.type, IPC_BACKEND_END);
	assert_int_equal(m.u.backend_end.reason, IPC_END_EOF);
	assert_log("decision=allow code=- status=200");
	m = m_simple(IPC_DONE, 1);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_IDLE);
	assert_int_equal(t.c->bc.fd, -1);
	t_close(&t, HANDLED);
}


/* Every BACKEND_DATA of the current response, up to BACKEND_END. */
static char *
t_collect(struct t *t, uint8_t *end_reason)
{
	static char buf[65536];
	struct ipc_msg m;
	size_t len = 0;

	while (t_recv(t, &m) == IPC_OK && m.type == IPC_BACKEND_DATA) {
		assert_true(len + m.u.backend_data.data.len < sizeof(buf));
		memcpy(buf + len, m.u.backend_data.data.p, m.u.backend_data.data.len);
		len += m.u.backend_data.data.len;
	}
	assert_int_equal(m.type, IPC_BACKEND_END);
	*end_reason = m.u.backend_end.reason;
	buf[len] = '\0';
	return buf;
}

/*
 * Issue 7 (doc/filters.md): a list answer reaches the child post-filtered
 * to the project's elements, with its framing decoded and a new
 * Content-Length, on the monitor's own routing of the target (the FORWARD
 * below claims libpod for a compat path: the compat shape is still read);
 * an answer it cannot filter is a 502 before any byte reaches the child.
 */
static void
test_forward_list_postfilter(void **state)
{
#define VOL(n, v)	"{\"Name\":\"" n "\",\"Labels\":{\"" KEY "\":\"" v "\"}}"
	static const char *const target = "/v1.41/volumes?filters=%7B%22label%22%3A%5B%22"
	    "org.apache.magpie.project%3D%2Fhome%2Fu%2Fproj%22%5D%7D";
	static const char body[] = "{\"Volumes\":[" VOL("vb", "/srv/b") "," VOL("va", ROOT)
	    ",{\"Name\":\"vu\",\"Labels\":null}],\"Warnings\":null}";
	static const char want_body[] = "{\"Volumes\":[" VOL("va", ROOT) "],\"Warnings\":null}";
	static char chunked[1024];
	char want[1024];
	struct t t;
	struct ipc_msg m;
	uint8_t end;
	int i;

	(void)state;
	snprintf(want, sizeof(want), "HTTP/1.1 200 X\r\nContent-Type: application/json\r\n"
	    "Content-Length: %zu\r\n\r\n%s", sizeof(want_body) - 1, want_body);
	snprintf(chunked, sizeof(chunked), "HTTP/1.1 200 X\r\nContent-Type: application/json\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n7\r\n%.7s\r\n%zx\r\n%s\r\n0\r\n\r\n",
	    body, sizeof(body) - 1 - 7, body + 7);
	t_open(&t, sock_up);
	fb_queue(http_resp(200, body), 0);
	fb_queue(chunked, 0);
	fb_queue(http_resp(200, "[]"), 0);
	for (i = 0; i < 3; i++) {
		m = m_forward((uint32_t)i + 1, "GET", target, IPC_API_LIBPOD,
		    IPC_BODY_NONE, 0);
		assert_int_equal(t_send_run(&t, &m), 0);
		assert_true(drive_until(t.c, RS_WAIT_DONE));
		t_expect_msg(&t, IPC_VERDICT, &m);
		assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_FORWARDING);
		if (i < 2) {
			assert_string_equal(t_collect(&t, &end), want);
			assert_int_equal(end, IPC_END_EOF);
			assert_log("decision=allow code=- status=200");
		} else {
			assert_string_equal(t_collect(&t, &end), "");
			assert_int_equal(end, IPC_END_ERROR);
			assert_log("the backend's list answer could not be filtered");
		}
		m = m_simple(IPC_DONE, (uint32_t)i + 1);
		assert_int_equal(t_send_run(&t, &m), 0);
		assert_int_equal(t.c->rs, RS_IDLE);
	}
	t_close(&t, HANDLED);
#undef VOL
}

/* ---------------------------------------------------------------- replay */

/* A JSON FORWARD on an allowed route: body sent, then run. */
static int
forward_json(struct t *t, const char *target, uint8_t api, const char *body)
{
	struct ipc_msg m;

	m = m_forward(1, "POST", target, api, IPC_BODY_JSON, strlen(body));
	if (t_send_run(t, &m) != 0)
		return -1;
	m = m_data(IPC_BODY, 1, body, strlen(body));
	return t_send_run(t, &m);
}

/*
 * privsep.md §9.2: the monitor replays the policy on the forwarded body, so
 * a compromised child cannot forward what the policy refuses, nor a body
 * the policy would have rewritten, nor a pod it never had answered owned.
 */
static void
test_replay(void **state)
{
	static const struct {
		const char *target, *body, *log;
		uint8_t api;
	} bad[] = {
		{ "/v1.41/containers/create", "{\"Image\":\"a\",\"HostConfig\":"
		    "{\"Privileged\":true},\"Labels\":{\"" KEY "\":\"" ROOT "\"}}",
		    "privileged: drop --privileged", IPC_API_COMPAT },
		{ "/v1.41/containers/create", "{\"Image\":\"a\",\"HostConfig\":"
		    "{\"Binds\":[\"/etc:/x\"]},\"Labels\":{\"" KEY "\":\"" ROOT "\"}}",
		    "bind-mount", IPC_API_COMPAT },
		/* allowed, but not the policy's own output: the label is missing */
		{ "/v1.41/containers/create", "{\"Image\":\"a\",\"HostConfig\":{}}",
		    "the policy rewrites the forwarded body", IPC_API_COMPAT },
		{ "/v4.3.1/libpod/containers/create", "{\"image\":\"a\",\"pod\":"
		    "\"p1id\",\"labels\":{\"" KEY "\":\"" ROOT "\"},"
		    "\"privileged\":false}", "did not answer owned", IPC_API_LIBPOD },
		{ "/v1.41/volumes/create", "{\"Name\":\"v\",\"Driver\":\"x\","
		    "\"Labels\":{\"" KEY "\":\"" ROOT "\"}}", "volume-driver",
		    IPC_API_COMPAT },
	};
	struct t t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t_open(&t, sock_missing);
		t_expect(&t, forward_json(&t, bad[i].target, bad[i].api,
		    bad[i].body), KILLED, __LINE__);
		assert_log(bad[i].log);
	}
	/* the policy's own output passes the replay (and then finds no backend) */
	t_open(&t, sock_missing);
	assert_int_equal(forward_json(&t, "/v1.41/containers/create",
	    IPC_API_COMPAT, "{\"Image\":\"a\",\"HostConfig\":{},"
	    "\"Labels\":{\"" KEY "\":\"" ROOT "\"}}"), 0);
	{
		struct ipc_msg m;

		t_expect_msg(&t, IPC_VERDICT, &m);
		assert_int_equal(m.u.verdict.status, 502);
	}
	t_close(&t, HANDLED);
}

/*
 * A create naming a missing volume and another project's volume is refused
 * before the missing one is pre-created: a refused request leaves nothing.
 */
static void
test_phase_checks_before_creating(void **state)
{
	struct ipc_msg m;
	struct t t;
	int i;

	(void)state;
	t_open(&t, sock_up);
	fb_queue(http_resp(404, "{\"message\":\"no such volume\"}"), 1);
	fb_queue(http_resp(200, "{\"Name\":\"foreignvol\",\"Labels\":{\"" KEY
	    "\":\"/srv/other\"}}"), 1);
	assert_int_equal(forward_json(&t, "/v1.41/containers/create",
	    IPC_API_COMPAT, "{\"Image\":\"a\",\"HostConfig\":{\"Binds\":"
	    "[\"newvol:/a\",\"foreignvol:/b\"]},\"Labels\":{\"" KEY "\":\""
	    ROOT "\"}}"), 0);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	t_expect_msg(&t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
	assert_int_equal(m.u.verdict.status, 403);
	assert_true(str_is(&m.u.verdict.code, "bind-mount"));
	assert_int_equal(fb.nfds, 2);
	for (i = 0; i < fb.nfds; i++)
		assert_true(strncmp(fb_read(i), "GET ", 4) == 0);
	t_close(&t, HANDLED);
}

/*
 * §14 B34 (policy.md §5.1): a create naming a network is forwarded only
 * when the monitor's inspect says the network is this project's; another
 * project's network or a missing one is 403 network, before anything is
 * forwarded. The allowed neighbour reaches the backend with the body.
 */
static void
test_bypass_b34_named_networks(void **state)
{
	static const char *const not_ours[] = {
		"{\"Name\":\"n\",\"Id\":\"n9\",\"Labels\":{\"" KEY "\":"
		    "\"/srv/other\"}}",
		"{\"Name\":\"n\",\"Id\":\"n9\",\"Labels\":{}}",
		NULL,	/* 404: missing networks are never created */
	};
	static const char body[] = "{\"Image\":\"a\",\"HostConfig\":"
	    "{\"NetworkMode\":\"n\"},\"Labels\":{\"" KEY "\":\"" ROOT "\"}}";
	struct ipc_msg m;
	struct t t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(not_ours) / sizeof(not_ours[0]); i++) {
		t_open(&t, sock_up);
		fb_queue(not_ours[i] != NULL ? http_resp(200, not_ours[i]) :
		    http_resp(404, "{\"message\":\"no such network\"}"), 1);
		assert_int_equal(forward_json(&t, "/v1.41/containers/create",
		    IPC_API_COMPAT, body), 0);
		assert_true(drive_until(t.c, RS_WAIT_DONE));
		t_expect_msg(&t, IPC_VERDICT, &m);
		assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
		assert_int_equal(m.u.verdict.status, 403);
		assert_true(str_is(&m.u.verdict.code, "network"));
		assert_int_equal(fb.nfds, 1);	/* the inspect only */
		assert_true(strncmp(fb_read(0), "GET /v1.41/networks/n ", 22) == 0);
		t_close(&t, HANDLED);
	}
	/* allowed: an owned network; the create reaches the backend */
	t_open(&t, sock_up);
	fb_queue(http_resp(200, "{\"Name\":\"n\",\"Id\":\"n1\",\"Labels\":"
	    "{\"" KEY "\":\"" ROOT "\"}}"), 1);
	fb_queue(http_resp(201, "{\"Id\":\"c\"}"), 0);
	assert_int_equal(forward_json(&t, "/v1.41/containers/create",
	    IPC_API_COMPAT, body), 0);
	assert_true(drive_until(t.c, RS_WAIT_DONE));
	assert_int_equal(fb.nfds, 2);
	assert_true(strstr(fb_read(1), body) != NULL);
	t_close(&t, HANDLED);
}

/* ---------------------------------------------------------------- raw */

static void
put_hdr(unsigned char *b, uint32_t magic, uint16_t type, uint16_t flags,
    uint32_t req, uint32_t len)
{
	memcpy(b, &magic, 4);
	memcpy(b + 4, &type, 2);
	memcpy(b + 6, &flags, 2);
	memcpy(b + 8, &req, 4);
	memcpy(b + 12, &len, 4);
}

static void
raw_case(const unsigned char *b, size_t len, int line)
{
	struct t t;

	t_open(&t, sock_missing);
	assert_int_equal(send(t.ch, b, len, 0), (ssize_t)len);
	t_expect(&t, conn_on_ipc(t.c), KILLED, line);
}

static void
test_raw_datagrams(void **state)
{
	static unsigned char b[IPC_MSG_MAX + 64];
	struct ipc_msg m;
	struct t t;
	int len;

	(void)state;
	/* an unknown type, with and without payload */
	put_hdr(b, IPC_MAGIC, 99, 0, 1, 0);
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, 0, 0, 0, 0);
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, IPC_TYPE_MAX + 1, 0, 1, 4);
	raw_case(b, 20, __LINE__);
	/* a valid DONE, then header damage */
	put_hdr(b, IPC_MAGIC, IPC_DONE, 0, 1, 0);
	put_hdr(b, IPC_MAGIC ^ 1, IPC_DONE, 0, 1, 0);
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, IPC_DONE, 1, 1, 0);	/* flags */
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, IPC_DONE, 0, 1, 1);	/* len > payload */
	raw_case(b, 16, __LINE__);
	put_hdr(b, IPC_MAGIC, IPC_DONE, 0, 1, 0);	/* payload > len */
	raw_case(b, 17, __LINE__);
	raw_case(b, 15, __LINE__);			/* short header */
	raw_case(b, 1, __LINE__);
	/* a LOG with a trailing byte, an out-of-range level, bad UTF-8 */
	m = m_simple(IPC_LOG, 0);
	m.u.log.text = S("x");
	len = ipc_encode(&m, b, IPC_MSG_MAX);
	assert_true(len > 0);
	b[len] = 0;
	put_hdr(b, IPC_MAGIC, IPC_LOG, 0, 0, (uint32_t)len + 1 - 16);
	raw_case(b, (size_t)len + 1, __LINE__);
	len = ipc_encode(&m, b, IPC_MSG_MAX);
	b[16] = 4;
	raw_case(b, (size_t)len, __LINE__);
	len = ipc_encode(&m, b, IPC_MSG_MAX);
	b[len - 1] = 0xff;
	raw_case(b, (size_t)len, __LINE__);
	/* a datagram over 256 KiB: truncated on receipt */
	memset(b, 0, sizeof(b));
	put_hdr(b, IPC_MAGIC, IPC_BODY, 0, 1, IPC_MSG_MAX + 1 - 16);
	raw_case(b, IPC_MSG_MAX + 1, __LINE__);

	/*
	 * An empty datagram cannot be told from end-of-file on a
	 * SOCK_SEQPACKET socket: the connection is dropped like a child
	 * that exited (no SIGKILL).
	 */
	t_open(&t, sock_missing);
	assert_int_equal(send(t.ch, b, 0, 0), 0);
	assert_int_equal(conn_on_ipc(t.c), -1);
	assert_true(t.c->dead);
	t_close(&t, BYE_EXIT);
}

/* A descriptor attached to any child message: closed, and a violation. */
static void
test_fd_attached(void **state)
{
	struct t t;
	struct ipc_msg m;
	unsigned char buf[IPC_MSG_MAX];
	union {
		struct cmsghdr h;
		unsigned char b[CMSG_SPACE(2 * sizeof(int))];
	} cm;
	struct msghdr mh;
	struct iovec iov;
	struct cmsghdr *cmh;
	int p[2], q[2], fds[2], len, nfd;
	char x;

	(void)state;
	for (nfd = 1; nfd <= 2; nfd++) {
		t_open(&t, sock_missing);
		assert_int_equal(pipe2(p, O_CLOEXEC), 0);
		assert_int_equal(pipe2(q, O_CLOEXEC), 0);
		m = m_simple(IPC_LOG, 0);
		m.u.log.text = S("with a descriptor");
		len = ipc_encode(&m, buf, sizeof(buf));
		assert_true(len > 0);
		memset(&mh, 0, sizeof(mh));
		memset(&cm, 0, sizeof(cm));
		iov.iov_base = buf;
		iov.iov_len = (size_t)len;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = cm.b;
		mh.msg_controllen = CMSG_SPACE((size_t)nfd * sizeof(int));
		cmh = CMSG_FIRSTHDR(&mh);
		cmh->cmsg_level = SOL_SOCKET;
		cmh->cmsg_type = SCM_RIGHTS;
		cmh->cmsg_len = CMSG_LEN((size_t)nfd * sizeof(int));
		fds[0] = p[1];
		fds[1] = q[1];
		memcpy(CMSG_DATA(cmh), fds, (size_t)nfd * sizeof(int));
		assert_int_equal(sendmsg(t.ch, &mh, 0), len);
		/* only the copies in flight keep the write ends open now */
		close(p[1]);
		close(q[1]);
		t_expect(&t, conn_on_ipc(t.c), KILLED, __LINE__);
		assert_int_equal(read(p[0], &x, 1), 0);	/* EOF: closed */
		assert_int_equal(read(q[0], &x, 1), 0);
		close(p[0]);
		close(q[0]);
	}
}

/* ---------------------------------------------------------------- start */

static void
test_startup(void **state)
{
	struct t t;
	struct ipc_msg m;

	(void)state;
	t_open(&t, sock_missing);
	t.c->started = t.c->ready = 0;
	m = m_simple(IPC_CHILD_READY, 0);
	m.u.child_ready.pid = (uint32_t)t.pid;
	m.u.child_ready.namespaces = 1;
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_true(t.c->ready);
	/* a second CHILD_READY */
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	t_open(&t, sock_missing);
	t.c->started = t.c->ready = 0;
	m = m_simple(IPC_CHILD_READY, 0);
	m.u.child_ready.pid = (uint32_t)t.pid + 1;
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* anything else before CONN_START */
	t_open(&t, sock_missing);
	t.c->started = t.c->ready = 0;
	m = m_simple(IPC_LOG, 0);
	m.u.log.text = S("early");
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	t_open(&t, sock_missing);
	t.c->started = 0;
	m = m_forward(1, "GET", "/_ping", IPC_API_COMPAT, IPC_BODY_NONE, 0);
	t_expect(&t, t_send_run(&t, &m), KILLED, __LINE__);

	/* SANDBOX_FAILED: the child exits by itself */
	t_open(&t, sock_missing);
	t.c->started = t.c->ready = 0;
	m = m_simple(IPC_SANDBOX_FAILED, 0);
	m.u.sandbox_failed.step = S("seccomp");
	m.u.sandbox_failed.err = EINVAL;
	t_expect(&t, t_send_run(&t, &m), BYE_EXIT, __LINE__);
	assert_true(1);

	/* end-of-file: the child is gone, nothing to kill */
	t_open(&t, sock_missing);
	close(t.ch);
	t.ch = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(conn_on_ipc(t.c), -1);
	assert_true(t.c->dead);
	t_close(&t, BYE_EXIT);

	/* nothing to read: handled, nothing happens */
	t_open(&t, sock_missing);
	assert_int_equal(conn_on_ipc(t.c), 0);
	t_close(&t, HANDLED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_req_numbers),
		cmocka_unit_test(test_fact_query),
		cmocka_unit_test(test_question_limits),
		cmocka_unit_test(test_body_limits),
		cmocka_unit_test(test_client_data),
		cmocka_unit_test(test_bypass_relay),
		cmocka_unit_test(test_forward_target),
		cmocka_unit_test(test_forward_headers),
		cmocka_unit_test(test_forward_owned),
		cmocka_unit_test(test_forward_backend),
		cmocka_unit_test(test_forward_list_postfilter),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_phase_checks_before_creating),
		cmocka_unit_test(test_bypass_b34_named_networks),
		cmocka_unit_test(test_raw_datagrams),
		cmocka_unit_test(test_fd_attached),
		cmocka_unit_test(test_startup),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
