/*
 * The monitor's side of the zygote (doc/privsep.md "Scaling"; privsep.md §2 as
 * amended on 2026-12-01: "a child may be forked from a pre-sandboxed template
 * process ... exec'd once, holding no secrets, never reading a client byte").
 * The zygote is started like the request parsers used to be — a fork that
 * keeps nothing but one socket, then fexecve of this binary with an empty
 * environment — and sandboxes itself once (unpriv/zygote.c). Each new request
 * parser is then one ZYGOTE_SPAWN message carrying the child's end of a fresh
 * socket pair: the zygote forks with CLONE_PARENT, so every child is still the
 * monitor's direct child (reaped and killed by the monitor, seen by `ps
 * --ppid`), and the child finishes its own sandbox with a stricter,
 * precompiled filter before it reads a byte.
 */
#include "monitor/gateway.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/children.h"
#include "monitor/conn.h"
#include "monitor/evloop.h"
#include "monitor/log.h"
#include "monitor/zygote.h"
#include "unpriv/child.h"
#include "unpriv/sanitize.h"

int
zygote_start(struct gateway *gw)
{
	int sv[2], devnull;
	pid_t pid;

	if (ipc_socketpair(sv) < 0) {
		log_msg(LOG_ERROR, "sandbox", "zygote socketpair: %s",
		    strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		log_msg(LOG_ERROR, "sandbox", "zygote fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		/* the pid-file lock goes first (cli.md §6) */
		if (gw->pid_fd >= 0)
			close(gw->pid_fd);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		{
			sigset_t none;	/* the monitor blocks its loop's signals */

			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
		}
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGPIPE, SIG_IGN);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/*
		 * Should the machine run out of memory, the kernel kills the
		 * zygote's children first (they inherit this), not the monitor
		 * (256 parsers each parsing a dense 8 MiB body need
		 * about 300 MiB apiece; the monitor's own memory is bounded by
		 * --memory-budget). Raising one's own value needs no privilege.
		 */
		devnull = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
		if (devnull >= 0) {
			if (write(devnull, "1000", 4) != 4) {
				/* an older kernel's file: the default stays */
			}
			close(devnull);
		}
		if (sv[1] == CHILD_IPC_FD ? fcntl(sv[1], F_SETFD, 0) < 0 :
		    dup2(sv[1], CHILD_IPC_FD) < 0)
			_exit(1);
		devnull = open("/dev/null", O_RDWR);
		/* a sanitizer build keeps stderr for the runtime's reports */
		if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 ||
		    (!CG_SANITIZE_BUILD && dup2(devnull, 2) < 0))
			_exit(1);
		if (dup3(gw->exe_fd, CHILD_EXE_FD, O_CLOEXEC) < 0)
			_exit(1);
		closefrom(CHILD_EXE_FD + 1);
		/*
		 * A fresh image (style.md §8): the zygote, and so every
		 * child forked from it, carries nothing of the monitor's heap
		 * (other connections' heads and bodies, inspect answers about
		 * foreign resources) nor its address layout.
		 */
		{
			char *argv[] = { CHILD_ARGV0, geteuid() == 0 ?
			    gw->sandbox_dir : "-", NULL };

			/* LD_BIND_NOW=1 only (release builds) */
			fexecve(CHILD_EXE_FD, argv, cg_sanitize_child_env());
		}
		_exit(1);
	}
	close(sv[1]);
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	gw->zyg.pid = pid;
	gw->zyg.fd = sv[0];
	ev_watch(gw, sv[0], EV_ZYGOTE, 0, NULL, POLLIN);
	gw->zyg.ready = 0;
	gw->zyg.started_ms = now_ms();
	gw->zyg.status = -1;
	return 0;
}

static void
fail_pending(struct gateway *gw)
{
	struct conn *c;

	while ((c = TAILQ_FIRST(&gw->zyg.pending)) != NULL) {
		TAILQ_REMOVE(&gw->zyg.pending, c, zentry);
		gw->zyg.npending--;
		c->zpending = 0;
		if (c->orphan)
			conn_free(c);	/* dropped already (serve.c) */
		else
			c->dead = 1;
	}
}

void
zygote_stop(struct gateway *gw)
{
	int st;

	ev_close(gw, gw->zyg.fd);
	gw->zyg.fd = -1;
	if (gw->zyg.pid > 0) {
		kill(gw->zyg.pid, SIGKILL);	/* no effect on a dead one */
		gw->zyg.status = waitpid(gw->zyg.pid, &st, 0) == gw->zyg.pid ?
		    st : -1;
	}
	gw->zyg.pid = -1;
	gw->zyg.ready = 0;
	fail_pending(gw);
}

void
zygote_orphan(struct gateway *gw, struct conn *c)
{
	/*
	 * The zygote answers spawns in order: the ZYGOTE_SPAWNED for c is
	 * still to come and must not be taken for the next spawn's (that
	 * child would then carry c's pid, fail its CHILD_READY check, and
	 * the last answer would find no spawn: the zygote would be stopped,
	 * and with it the gateway). The record keeps its place without
	 * descriptors; zygote_on_event frees it and ends its child then,
	 * by the zygote's pid (a pid the child reported is not trusted).
	 */
	conn_close_backend(c);
	ev_close(gw, c->ipc);
	ev_close(gw, c->client);
	c->ipc = c->client = -1;
	c->orphan = 1;
}

struct conn *
zygote_spawn(struct gateway *gw)
{
	struct ipc_msg m = { .type = IPC_ZYGOTE_SPAWN };
	struct conn *c;
	int sv[2], rc;

	if (gw->zyg.fd < 0)
		return NULL;
	if (ipc_socketpair(sv) < 0) {
		log_msg(LOG_ERROR, "child-exit", "socketpair: %s", strerror(errno));
		return NULL;
	}
	m.fd = sv[1];
	/* only the start-up self-test's child reports its finished sandbox */
	m.u.zygote_spawn.ready = (uint8_t)gw->selftest;
	rc = ipc_send(gw->zyg.fd, &m, MSG_DONTWAIT);
	close(sv[1]);
	if (rc != IPC_OK) {
		close(sv[0]);
		if (rc != IPC_EAGAIN)
			log_msg(LOG_ERROR, "child-exit", "cannot ask the zygote "
			    "for a request parser: %s", ipc_strerror(rc));
		return NULL;
	}
	/*
	 * sv[0] stays blocking: every call on it passes MSG_DONTWAIT
	 * (an fcntl less per connection).
	 */
	c = conn_new(gw, 0, sv[0]);
	c->want_ready = m.u.zygote_spawn.ready;
	c->zpending = 1;
	gw->zyg.npending++;
	TAILQ_INSERT_TAIL(&gw->zyg.pending, c, zentry);
	TAILQ_INSERT_TAIL(&gw->conns, c, entry);
	return c;
}

/*
 * ZYGOTE_SPAWNED for c, the oldest spawn: its pid. A child that does not
 * report CHILD_READY (every one but the self-test's) is ready now: its
 * CONN_START waits in its socket until its sandbox is complete, so a
 * client already waiting for it is handed over at once (a
 * message and a wake-up of the monitor less per connection).
 */
static void
spawned(struct gateway *gw, struct conn *c, const struct ipc_msg *m)
{
	if (c->orphan) {
		/* its connection ended before this answer */
		if (m->u.zygote_spawned.pid != 0)
			forget_child(gw, (pid_t)m->u.zygote_spawned.pid, c->id, 1);
		conn_free(c);
		return;
	}
	if (m->u.zygote_spawned.pid == 0) {
		log_msg(LOG_ERROR, "child-exit", "the zygote cannot fork: %s",
		    strerror(m->u.zygote_spawned.err));
		c->dead = 1;
		mark_dirty(gw, c);
		return;
	}
	if (c->pid != 0 && c->pid != (pid_t)m->u.zygote_spawned.pid) {
		/* the self-test's CHILD_READY came first and named another pid */
		(void)conn_violation(c, "CHILD_READY pid %d is not the spawned "
		    "pid %u", (int)c->pid, m->u.zygote_spawned.pid);
		c->dead = 1;
		mark_dirty(gw, c);
		return;
	}
	c->pid = (pid_t)m->u.zygote_spawned.pid;
	if (!c->want_ready) {
		c->ready = 1;
		if (c->client >= 0 && !c->started)
			start_conn(gw, c);
	}
	mark_dirty(gw, c);
}

void
zygote_on_event(struct gateway *gw)
{
	static unsigned char *buf;
	struct ipc_msg m;
	struct conn *c;
	unsigned due;
	int rc, i;

	if (buf == NULL)
		buf = xmalloc(IPC_MSG_MAX + 1);
	/*
	 * The zygote answers each spawn once: no read is tried past the
	 * answers due (one that would only say EAGAIN), but one is always
	 * tried (its socket is readable: an answer nobody asked for, or its
	 * first word, CHILD_READY).
	 */
	due = gw->zyg.npending > 0 ? gw->zyg.npending : 1;
	for (i = 0; i < 64 && gw->zyg.fd >= 0 && (!gw->zyg.ready ||
	    (unsigned)i < due); i++) {
		rc = ipc_recv(gw->zyg.fd, buf, IPC_MSG_MAX + 1, &m, 0,
		    MSG_DONTWAIT);
		if (rc == IPC_EAGAIN)
			return;
		if (rc != IPC_OK) {
			if (rc != IPC_EOF)
				log_msg(LOG_ERROR, "sandbox", "zygote: %s",
				    ipc_strerror(rc));
			zygote_stop(gw);
			return;
		}
		switch (m.type) {
		case IPC_CHILD_READY:
			if (gw->zyg.ready ||
			    m.u.child_ready.pid != (uint32_t)gw->zyg.pid)
				goto bad;
			gw->zyg.ready = 1;
			if (!gw->sandbox_logged) {
				gw->sandbox_logged = 1;
				gw->sandbox_ns = m.u.child_ready.namespaces;
				gw->sandbox_chroot = m.u.child_ready.chroot;
				log_sandbox(m.u.child_ready.namespaces,
				    m.u.child_ready.chroot);
			}
			break;
		case IPC_SANDBOX_FAILED:
			snprintf(gw->sandbox_failure, sizeof(gw->sandbox_failure),
			    "%.*s: %s", (int)m.u.sandbox_failed.step.len,
			    m.u.sandbox_failed.step.p,
			    strerror(m.u.sandbox_failed.err));
			log_msg(LOG_ERROR, "sandbox", "cannot sandbox the "
			    "request parser (%s)", gw->sandbox_failure);
			zygote_stop(gw);
			return;
		case IPC_ZYGOTE_SPAWNED:
			c = TAILQ_FIRST(&gw->zyg.pending);
			if (!gw->zyg.ready || c == NULL)
				goto bad;
			TAILQ_REMOVE(&gw->zyg.pending, c, zentry);
			gw->zyg.npending--;
			c->zpending = 0;
			spawned(gw, c, &m);
			break;
		default:
			goto bad;
		}
	}
	return;
bad:
	log_msg(LOG_ERROR, "sandbox", "zygote sent an unexpected %s; "
	    "stopping it", ipc_type_name(m.type));
	zygote_stop(gw);
}
