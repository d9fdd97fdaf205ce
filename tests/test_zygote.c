/*
 * The monitor's spawn queue (monitor/zygote.c): the zygote answers
 * ZYGOTE_SPAWN requests in order with ZYGOTE_SPAWNED <pid>, so a spawn
 * whose connection ends before its answer arrives must keep its place
 * (zygote_orphan). Before that fix the answer went to the next spawn,
 * whose child then failed its CHILD_READY check, and the last answer found
 * no spawn: the zygote was stopped. A confined monitor cannot start
 * another, so the gateway stopped (make check-asan, cli.sh s_sandbox:
 * "expected CHILD_READY", "zygote sent an unexpected ZYGOTE_SPAWNED").
 *
 * The test plays the zygote on the other end of gw->zyg.fd; forked
 * sleepers play the children it would have cloned (CLONE_PARENT makes
 * them the monitor's children, as these are the test's).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "monitor/conn.h"
#include "monitor/gateway.h"
#include "monitor/zygote.h"

static struct cg_config cfg;
static struct gateway gw;
static int zside = -1;		/* the test's end: the zygote */
static unsigned char buf[IPC_MSG_MAX + 1];
static pid_t sleepers[8];	/* killed by teardown whatever happened */
static int nsleepers;
static int childside[8];	/* the children's ends the spawns brought */
static int nchildside;

/* A child that only waits to be killed. */
static pid_t
sleeper(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		for (;;)
			pause();
	}
	assert_true(nsleepers < 8);
	sleepers[nsleepers++] = pid;
	return pid;
}

static int
setup(void **state)
{
	int sv[2];

	(void)state;
	memset(&gw, 0, sizeof(gw));
	gw.cfg = &cfg;
	TAILQ_INIT(&gw.conns);
	TAILQ_INIT(&gw.exiting);
	TAILQ_INIT(&gw.zyg.pending);
	if (ipc_socketpair(sv) < 0)
		return -1;
	gw.zyg.fd = sv[0];
	zside = sv[1];
	gw.zyg.pid = sleeper();
	gw.zyg.ready = 1;
	gw.zyg.status = -1;
	return 0;
}

static int
teardown(void **state)
{
	struct exiting *x;
	struct conn *c;

	(void)state;
	zygote_stop(&gw);	/* kills and reaps the dummy zygote */
	while ((c = TAILQ_FIRST(&gw.conns)) != NULL) {
		TAILQ_REMOVE(&gw.conns, c, entry);
		if (c->pid > 0) {
			kill(c->pid, SIGKILL);
			waitpid(c->pid, NULL, 0);
		}
		conn_free(c);
	}
	while ((x = TAILQ_FIRST(&gw.exiting)) != NULL) {
		TAILQ_REMOVE(&gw.exiting, x, entry);
		free(x);
	}
	while (nsleepers > 0) {
		kill(sleepers[--nsleepers], SIGKILL);
		(void)waitpid(sleepers[nsleepers], NULL, 0);
	}
	while (nchildside > 0)
		close(childside[--nchildside]);
	close(zside);
	return 0;
}

/*
 * The zygote reads one ZYGOTE_SPAWN; the child's socket end it brings is
 * kept (childside) and returned.
 */
static int
zygote_reads_spawn(int want_ready)
{
	struct ipc_msg m;

	assert_int_equal(ipc_recv(zside, buf, sizeof(buf), &m, 1, 0), IPC_OK);
	assert_int_equal(m.type, IPC_ZYGOTE_SPAWN);
	assert_true(m.fd >= 0);
	assert_int_equal(m.u.zygote_spawn.ready, want_ready);
	assert_true(nchildside < 8);
	childside[nchildside++] = m.fd;
	return m.fd;
}

static void
zygote_answers(pid_t pid)
{
	struct ipc_msg m = { .type = IPC_ZYGOTE_SPAWNED, .fd = -1 };

	m.u.zygote_spawned.pid = (uint32_t)pid;
	assert_int_equal(ipc_send(zside, &m, 0), IPC_OK);
}

/* The drop_conn of serve.c for a connection still waiting for its pid. */
static void
drop_pending(struct conn *c)
{
	TAILQ_REMOVE(&gw.conns, c, entry);
	zygote_orphan(&gw, c);
}

static void
test_answers_keep_their_order(void **state)
{
	struct conn *a, *b;
	pid_t pa, pb;
	int st;

	(void)state;
	a = zygote_spawn(&gw);
	b = zygote_spawn(&gw);
	assert_non_null(a);
	assert_non_null(b);
	zygote_reads_spawn(0);
	zygote_reads_spawn(0);
	pa = sleeper();
	pb = sleeper();
	/* a's child died before the zygote's answer was read (a killed
	 * spare): its connection is dropped first */
	drop_pending(a);
	zygote_answers(pa);
	zygote_answers(pb);
	zygote_on_event(&gw);

	assert_true(gw.zyg.fd >= 0);		/* the zygote still runs */
	assert_true(TAILQ_EMPTY(&gw.zyg.pending));
	assert_int_equal(b->pid, pb);		/* not a's pid */
	assert_false(b->dead);
	assert_true(b->ready);			/* no CHILD_READY to wait for */
	/* a's child is ended by the pid the zygote gave */
	assert_int_equal(waitpid(pa, &st, 0), pa);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
	assert_false(TAILQ_EMPTY(&gw.exiting));	/* reap() logs it */
}

/* A record left waiting is freed when the zygote stops (ASan: no leak). */
static void
test_orphan_freed_with_the_zygote(void **state)
{
	struct conn *a;

	(void)state;
	a = zygote_spawn(&gw);
	assert_non_null(a);
	zygote_reads_spawn(0);
	drop_pending(a);
	zygote_stop(&gw);
	assert_true(TAILQ_EMPTY(&gw.zyg.pending));
	assert_true(TAILQ_EMPTY(&gw.conns));
}

/*
 * A connection accepted before its parser was spawned is handed over
 * when ZYGOTE_SPAWNED names the parser: CONN_START with the client
 * descriptor, no CHILD_READY awaited (it is not asked for).
 */
static void
test_spawned_hands_over(void **state)
{
	struct ipc_msg m;
	struct conn *a;
	int cl[2], child;

	(void)state;
	gw.root[0] = '/';
	a = zygote_spawn(&gw);
	assert_non_null(a);
	child = zygote_reads_spawn(0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, cl), 0);
	a->client = cl[0];
	zygote_on_event(&gw);			/* nothing yet: EAGAIN */
	assert_false(a->started);
	zygote_answers(sleeper());
	zygote_on_event(&gw);
	assert_true(a->ready);
	assert_true(a->started);
	assert_false(a->dead);
	assert_int_equal(ipc_recv(child, buf, sizeof(buf), &m, 1, MSG_DONTWAIT),
	    IPC_OK);
	assert_int_equal(m.type, IPC_CONN_START);
	assert_true(m.fd >= 0);
	close(m.fd);
	close(cl[1]);
}

/* The self-test's child is asked for CHILD_READY and waits for it. */
static void
test_selftest_child_reports(void **state)
{
	struct conn *a;

	(void)state;
	gw.selftest = 1;
	a = zygote_spawn(&gw);
	gw.selftest = 0;
	assert_non_null(a);
	zygote_reads_spawn(1);
	zygote_answers(sleeper());
	zygote_on_event(&gw);
	assert_true(a->pid > 0);
	assert_false(a->ready);			/* until its CHILD_READY */
}

/* A zygote that answers a spawn nobody asked for is still stopped. */
static void
test_extra_answer_stops_the_zygote(void **state)
{
	(void)state;
	zygote_answers(12345);
	zygote_on_event(&gw);
	assert_int_equal(gw.zyg.fd, -1);
	assert_int_equal(gw.zyg.pid, -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_answers_keep_their_order,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_orphan_freed_with_the_zygote,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_extra_answer_stops_the_zygote,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_spawned_hands_over,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_selftest_child_reports,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
