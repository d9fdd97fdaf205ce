/*
 * Keep-alive backend connections and kept ownership verdicts (doc/privsep.md
 * "Scaling"; monitor/exchange/backend.c "pool", monitor/exchange/ocache.c).
 *
 * The backend here is a small keep-alive HTTP server in a forked process
 * (kb_main): it answers every request head it reads on a connection with
 * the next canned answer, and counts connections and requests in shared
 * memory; a script can make it close a connection instead of answering,
 * as a server does with an idle keep-alive connection. The monitor side
 * is the world of tests/monitor_fixture.h, with pooling turned on.
 */
#include "monitor/conn.h"
#include "monitor/evloop.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/ocache.h"
#include "monitor/log.h"
#include "tests/monitor_fixture.h"

#include <sys/mman.h>

#define KB_MAX	16
/* a POST the policy forwards as it is (the label filter in place) */
#define PRUNE	"/v1.41/containers/prune?" LABEL_FILTER

/* What the keep-alive backend does and saw (shared with its process). */
struct kb {
	int conns;			/* connections accepted */
	int reqs;			/* request heads read */
	char heads[KB_MAX][512];	/* their first lines */
	int close_next;			/* close instead of answering, once */
	pid_t conn_pid[KB_MAX];		/* the process serving connection i */
};

static struct kb *kb;
static pid_t kb_pid;
static char kb_path[108];

static const char kb_answer[] = "HTTP/1.1 200 OK\r\nContent-Type: "
    "application/json\r\nContent-Length: 2\r\n\r\n{}";

/* One connection: answer each head (requests here carry no body). */
static void
kb_conn(int fd)
{
	char buf[8192], *e;
	size_t len = 0;
	ssize_t n;

	for (;;) {
		while ((e = memmem(buf, len, "\r\n\r\n", 4)) == NULL) {
			n = recv(fd, buf + len, sizeof(buf) - len, 0);
			if (n <= 0)
				_exit(0);
			len += (size_t)n;
		}
		if (kb->reqs < KB_MAX) {
			char *eol = memmem(buf, len, "\r\n", 2);

			snprintf(kb->heads[kb->reqs], sizeof(kb->heads[0]), "%.*s",
			    (int)(eol - buf), buf);
		}
		kb->reqs++;
		if (kb->close_next) {
			kb->close_next = 0;
			_exit(0);
		}
		if (send(fd, kb_answer, sizeof(kb_answer) - 1, MSG_NOSIGNAL) < 0)
			_exit(0);
		len -= (size_t)(e + 4 - buf);
		memmove(buf, e + 4, len);
	}
}

static void
kb_main(int lfd_kb)
{
	pid_t pid;
	int fd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGCHLD, SIG_IGN);	/* its connection processes */
	for (;;) {
		fd = accept(lfd_kb, NULL, NULL);
		if (fd < 0)
			continue;
		pid = fork();
		if (pid == 0) {
			close(lfd_kb);
			kb_conn(fd);
		}
		if (kb->conns < KB_MAX)
			kb->conn_pid[kb->conns] = pid;
		kb->conns++;
		close(fd);
	}
}

static int
kb_setup(void **state)
{
	int l;

	if (setup(state) != 0)
		return -1;
	kb = mmap(NULL, sizeof(*kb), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (kb == MAP_FAILED)
		return -1;
	snprintf(kb_path, sizeof(kb_path), "%s/kb.sock", tmpdir);
	if ((l = listen_unix(kb_path)) < 0)
		return -1;
	kb_pid = fork();
	if (kb_pid < 0)
		return -1;
	if (kb_pid == 0)
		kb_main(l);
	close(l);
	gw.pool_max = POOL_MAX;
	return 0;
}

static int
kb_teardown(void **state)
{
	int st;

	backend_pool_close(&gw);
	ocache_free(&gw);
	kill(kb_pid, SIGKILL);
	waitpid(kb_pid, &st, 0);
	munmap(kb, sizeof(*kb));
	return teardown(state);
}

/* Forward method target on t; run the exchange to RESPONSE_END (, DONE). */
static void
exchange(struct t *t, uint32_t req, const char *method, const char *target)
{
	/* a POST without a body is framed with Content-Length: 0 */
	struct ipc_msg m = strcmp(method, "POST") == 0 ?
	    m_fwd(req, method, target, "Content-Length", "0", NULL) :
	    m_fwd(req, method, target, NULL);
	long long end;

	if (t_send_run(t, &m) != 0)
		fail_msg("FORWARD %s %s refused:\n%s", method, target, log_text());
	end = mono_ms() + 2000;
	while (!t->c->end_sent && t->c->rs != RS_WAIT_DONE && mono_ms() < end)
		pump(t->c);
	assert_true(t->c->end_sent || t->c->rs == RS_WAIT_DONE);
	t_drain(t);
	/* a light exchange kept alive is over already (privsep.md §8) */
	if (t->c->rs == RS_WAIT_DONE) {
		assert_int_equal(t->c->rs, RS_WAIT_DONE);
		m = m_simple(IPC_DONE, req);
		assert_int_equal(t_send_run(t, &m), 0);
	}
	assert_int_equal(t->c->rs, RS_IDLE);
}

/* Wait until the backend counted n requests (its process is separate). */
static void
kb_wait_reqs(int n)
{
	long long end = mono_ms() + 2000;

	while (kb->reqs < n && mono_ms() < end)
		usleep(1000);
	assert_int_equal(kb->reqs, n);
}

static void
test_pool_reuse(void **state)
{
	struct t t;
	int i;

	(void)state;
	memset(kb, 0, sizeof(*kb));
	backend_pool_close(&gw);
	t_open(&t, kb_path);
	/* GETs one after another share one backend connection */
	exchange(&t, 1, "GET", "/v1.41/info");
	exchange(&t, 2, "GET", "/_ping");
	exchange(&t, 3, "GET", "/v1.41/version");
	kb_wait_reqs(3);
	assert_int_equal(kb->conns, 1);
	assert_string_equal(kb->heads[1], "GET /_ping HTTP/1.1");
	assert_int_equal(gw.pools[0].n, 1);
	/* a POST is never sent on a kept connection (it may not be sent
	   twice), but its connection is kept afterwards */
	exchange(&t, 4, "POST", PRUNE);
	kb_wait_reqs(4);
	assert_int_equal(kb->conns, 2);
	assert_int_equal(gw.pools[0].n, 2);
	for (i = 0; i < 4; i++)
		assert_non_null(strstr(kb->heads[i], " HTTP/1.1"));
	t_close(&t, HANDLED);
}

/*
 * A fresh backend and an empty pool, then a connection whose first GET
 * leaves exactly one backend connection kept in the pool.
 */
static void
t_open_kept(struct t *t)
{
	memset(kb, 0, sizeof(*kb));
	backend_pool_close(&gw);
	t_open(t, kb_path);
	exchange(t, 1, "GET", "/v1.41/info");
	kb_wait_reqs(1);
	assert_int_equal(gw.pools[0].n, 1);
}

static void
test_pool_stale(void **state)
{
	struct t t;

	(void)state;
	t_open_kept(&t);
	/*
	 * The backend closes the kept connection when the next request
	 * arrives (an idle timeout racing the request): the GET goes again,
	 * once, on a new connection, and the client sees only the answer.
	 */
	kb->close_next = 1;
	exchange(&t, 2, "GET", "/v1.41/info");
	kb_wait_reqs(3);
	assert_int_equal(kb->conns, 2);
	assert_log("method=GET path=/v1.41/info decision=allow code=- status=200");
	assert_int_equal(log_count("decision=error"), 0);
	t_close(&t, HANDLED);
}

/*
 * The backend's socket file goes away while a kept connection still
 * works (a daemon stopping: its listener is gone first; the conformance
 * kit's http-backend-down does exactly this): the kept connection is
 * dropped and the client gets 502 backend-unreachable, not an answer from
 * the old daemon. With the socket back, requests are served again, on a
 * new connection.
 */
static void
test_pool_socket_gone(void **state)
{
	char moved[sizeof(kb_path) + 8];
	struct t t;

	(void)state;
	t_open_kept(&t);
	snprintf(moved, sizeof(moved), "%s.old", kb_path);
	assert_int_equal(rename(kb_path, moved), 0);
	exchange(&t, 2, "GET", "/v1.41/info");
	assert_log("method=GET path=/v1.41/info decision=error "
	    "code=backend-unreachable status=502");
	assert_int_equal(gw.pools[0].n, 0);
	assert_int_equal(kb->reqs, 1);		/* the old connection saw nothing */
	t_close(&t, HANDLED);
	assert_int_equal(rename(moved, kb_path), 0);
	t_open(&t, kb_path);
	exchange(&t, 1, "GET", "/v1.41/info");
	kb_wait_reqs(2);
	assert_int_equal(kb->conns, 2);
	t_close(&t, HANDLED);
}

/*
 * A kept connection stays in the epoll set (EV_POOL): when the backend
 * closes it while idle (its keep-alive timeout, a daemon stopping), the
 * event drops it from the pool at once, not at the next request.
 */
static void
test_pool_hangup(void **state)
{
	struct ev_event evs[8];
	long long end;
	struct t t;
	int n, i;

	(void)state;
	memset(kb, 0, sizeof(*kb));
	backend_pool_close(&gw);
	assert_int_equal(ev_init(&gw), 0);
	t_open(&t, kb_path);
	exchange(&t, 1, "GET", "/v1.41/info");
	kb_wait_reqs(1);
	assert_int_equal(gw.pools[0].n, 1);
	/* nothing to report while the backend keeps it */
	n = ev_wait(&gw, evs, 8, 50, NULL);
	assert_int_equal(n, 0);
	kill(kb->conn_pid[0], SIGKILL);
	end = mono_ms() + 2000;
	while (gw.pools[0].n > 0 && mono_ms() < end) {
		n = ev_wait(&gw, evs, 8, 50, NULL);
		for (i = 0; i < n; i++) {
			assert_int_equal(evs[i].kind, EV_POOL);
			if (ev_current(&gw, &evs[i]))
				backend_pool_event(&gw, evs[i].index, evs[i].fd);
		}
	}
	assert_int_equal(gw.pools[0].n, 0);
	/* the next GET goes on a new connection, with no retry */
	exchange(&t, 2, "GET", "/v1.41/info");
	kb_wait_reqs(2);
	assert_int_equal(kb->conns, 2);
	t_close(&t, HANDLED);
	backend_pool_close(&gw);
	ev_free(&gw);
}

static void
test_pool_bounded(void **state)
{
	struct t t[POOL_MAX + 2];
	int i;

	(void)state;
	memset(kb, 0, sizeof(*kb));
	backend_pool_close(&gw);
	/* more connections at once than the pool keeps */
	for (i = 0; i < POOL_MAX + 2; i++) {
		t_open(&t[i], kb_path);
		exchange(&t[i], 1, "POST", PRUNE);
	}
	assert_int_equal(gw.pools[0].n, POOL_MAX);
	for (i = 0; i < POOL_MAX + 2; i++)
		t_close(&t[i], HANDLED);
	/* idle too long: closed */
	backend_pool_expire(&gw, mono_ms() + POOL_IDLE_MS);
	assert_int_equal(gw.pools[0].n, 0);
}

static void
test_ocache(void **state)
{
	static const char a[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	static const char b[] = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

	(void)state;
	ocache_free(&gw);
	assert_int_equal(ocache_get(&gw, CG_FACT_CONTAINER, a), -1);
	ocache_put(&gw, CG_FACT_CONTAINER, a, CG_OWNED);
	ocache_put(&gw, CG_FACT_CONTAINER, b, CG_NOT_OWNED);
	assert_int_equal(ocache_get(&gw, CG_FACT_CONTAINER, a), CG_OWNED);
	assert_int_equal(ocache_get(&gw, CG_FACT_CONTAINER, b), CG_NOT_OWNED);
	/* per kind */
	assert_int_equal(ocache_get(&gw, CG_FACT_POD, a), -1);
	/* names, prefixes, upper case, volumes, images, execs: never kept */
	ocache_put(&gw, CG_FACT_CONTAINER, "web", CG_OWNED);
	assert_int_equal(ocache_get(&gw, CG_FACT_CONTAINER, "web"), -1);
	ocache_put(&gw, CG_FACT_CONTAINER, "aaaaaaaaaaaa", CG_OWNED);
	assert_int_equal(ocache_get(&gw, CG_FACT_CONTAINER, "aaaaaaaaaaaa"), -1);
	ocache_put(&gw, CG_FACT_VOLUME, a, CG_OWNED);
	assert_int_equal(ocache_get(&gw, CG_FACT_VOLUME, a), -1);
	ocache_put(&gw, CG_FACT_IMAGE, a, CG_OWNED);
	assert_int_equal(ocache_get(&gw, CG_FACT_IMAGE, a), -1);
	/* only the two verdicts */
	ocache_put(&gw, CG_FACT_POD, a, CG_UNEXPECTED);
	assert_int_equal(ocache_get(&gw, CG_FACT_POD, a), -1);
	/*
	 * networks: never kept, podman's CNI backend gives a network the id
	 * sha256(name), so a name created again by another project has the
	 * same full id ("foo": 2c26b46b...)
	 */
	ocache_put(&gw, CG_FACT_NETWORK, a, CG_OWNED);
	assert_int_equal(ocache_get(&gw, CG_FACT_NETWORK, a), -1);
	/* dropped (404, removed) */
	ocache_drop(&gw, CG_FACT_CONTAINER, a);
	assert_int_equal(ocache_get(&gw, CG_FACT_CONTAINER, a), -1);
	assert_int_equal(ocache_get(&gw, CG_FACT_CONTAINER, b), CG_NOT_OWNED);
	ocache_free(&gw);
}

/*
 * A FACT_QUERY for a full id inspects once; the next one, in another
 * request, is answered from what was kept; a 404 for it forgets it.
 */
static void
test_ocache_facts(void **state)
{
	static const char id[] =
	    "c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1";
	char body[512], path[128];
	struct ipc_msg m;
	struct t t;
	long long end;

	(void)state;
	ocache_free(&gw);
	memset(kb, 0, sizeof(*kb));
	snprintf(body, sizeof(body), "{\"Id\":\"%s\",\"Config\":{\"Labels\":"
	    "{\"org.apache.magpie.project\":\"%s\"}}}", id, ROOT);
	t_open(&t, sock_up);
	fb_queue(http_resp(200, body), 1);
	m = m_fact(1, 1, CG_FACT_CONTAINER, CG_API_COMPAT, "/v1.41", id);
	assert_int_equal(t_send_run(&t, &m), 0);
	end = mono_ms() + 2000;
	while (t.c->rs != RS_IDLE && mono_ms() < end)
		pump(t.c);
	t_expect_msg(&t, IPC_FACT_ANSWER, &m);
	assert_int_equal(m.u.fact_answer.result, IPC_FACT_OWNED);
	assert_int_equal(ocache_get(&gw, CG_FACT_CONTAINER, id), CG_OWNED);
	t_close(&t, HANDLED);

	/* another connection: answered at once, no backend connection */
	t_open(&t, sock_missing);
	m = m_fact(1, 1, CG_FACT_CONTAINER, CG_API_COMPAT, "/v1.41", id);
	assert_int_equal(t_send_run(&t, &m), 0);
	assert_int_equal(t.c->rs, RS_IDLE);
	assert_int_equal(t.c->bc.fd, -1);
	t_expect_msg(&t, IPC_FACT_ANSWER, &m);
	assert_int_equal(m.u.fact_answer.result, IPC_FACT_OWNED);
	assert_int_equal(m.u.fact_answer.id.len, 64);
	t_close(&t, HANDLED);

	/* the container is gone: its inspect forwarded answers 404 */
	t_open(&t, sock_up);
	m = m_fact(1, 1, CG_FACT_CONTAINER, CG_API_COMPAT, "/v1.41", id);
	assert_int_equal(t_send_run(&t, &m), 0);
	t_drain(&t);
	snprintf(path, sizeof(path), "/v1.41/containers/%s/json", id);
	fb_queue(http_resp(404, "{\"message\":\"no such container\"}"), 1);
	m = m_fwd(1, "GET", path, NULL);
	assert_int_equal(t_send_run(&t, &m), 0);
	end = mono_ms() + 2000;
	while (!t.c->end_sent && mono_ms() < end)
		pump(t.c);
	assert_true(t.c->end_sent);
	assert_int_equal(ocache_get(&gw, CG_FACT_CONTAINER, id), -1);
	t_close(&t, HANDLED);
	ocache_free(&gw);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_reuse),
		cmocka_unit_test(test_pool_stale),
		cmocka_unit_test(test_pool_socket_gone),
		cmocka_unit_test(test_pool_hangup),
		cmocka_unit_test(test_pool_bounded),
		cmocka_unit_test(test_ocache),
		cmocka_unit_test(test_ocache_facts),
	};

	return cmocka_run_group_tests(tests, kb_setup, kb_teardown);
}
