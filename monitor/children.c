/*
 * Request parsers and checkers the monitor no longer follows: reaped at
 * once when they have exited, else left to serve.c's reap() with a SIGKILL
 * after one second; and how each one's end is logged (privsep.md §10,
 * cli.md §14.2 child-exit). The zygote, the event loop and a checked
 * upload's end (monitor/exchange/check.c) all hand children over here.
 */
#include "monitor/children.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/log.h"

void
log_child_exit(unsigned long long conn, pid_t pid, int st, int expected)
{
	char status[32];
	struct log_field f[4] = {
		LF_NUM("conn", conn), LF_NUM("pid", pid),
		LF_NUM("status", WIFEXITED(st) ? WEXITSTATUS(st) : -1),
		LF_STR("signal", NULL),
	};

	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		char *msg;

		if (asprintf(&msg, "child-exit conn=%llu pid=%d status=0", conn,
		    (int)pid) < 0)
			xoom();
		log_event(LOG_DEBUG, "child-exit", msg, f, 4);
		free(msg);
		return;
	}
	if (WIFSIGNALED(st))
		snprintf(status, sizeof(status), "SIG%s",
		    sigabbrev_np(WTERMSIG(st)) != NULL ?
		    sigabbrev_np(WTERMSIG(st)) : "UNKNOWN");
	else
		snprintf(status, sizeof(status), "exit status %d", WEXITSTATUS(st));
	f[3].text = WIFSIGNALED(st) ? status : NULL;
	{
		char *msg;

		if (asprintf(&msg, "request parser for connection %llu (pid %d) "
		    "died: %s", conn, (int)pid, status) < 0)
			xoom();
		/* children told to go by a graceful exit are not errors */
		log_event(expected ? LOG_DEBUG : LOG_ERROR, "child-exit", msg, f, 4);
		free(msg);
	}
}

void
forget_child(struct gateway *gw, pid_t pid, uint64_t conn, int kill_it)
{
	struct exiting *x;
	pid_t w;
	int st;

	/*
	 * Never wait for it here (that cost every new connection a
	 * millisecond in make bench): reap() logs its exit with its connection
	 * when it comes, and one that lingers for a second is killed from
	 * the event loop. A pid to kill is first checked to be our child
	 * (the zygote's word); one that leaves by itself is simply
	 * expected (a wait4 less per connection, the SIGCHLD
	 * brings it anyway).
	 */
	if (kill_it) {
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid) {
			log_child_exit(conn, pid, st, gw->stopping);
			return;
		}
		if (w != 0)
			return;	/* not (or no longer) our child: hands off */
		kill(pid, SIGKILL);
	}

	x = xcalloc(1, sizeof(*x));
	x->pid = pid;
	x->conn = conn;
	x->kill_ms = now_ms() + 1000;
	TAILQ_INSERT_TAIL(&gw->exiting, x, entry);
}
