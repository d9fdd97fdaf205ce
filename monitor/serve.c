/*
 * `serve`: start-up sequence (cli.md §7) and the monitor's event loop
 * (privsep.md §2-§3, §10): listening sockets, children, backend
 * connections, signals and the idle timer, one epoll loop (evloop.c).
 */
#include "monitor/serve.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/daemon.h"
#include "monitor/instance.h"
#include "monitor/log.h"
#include "monitor/rundir.h"
#include "unpriv/child.h"
#include "unpriv/sanitize.h"

static struct gateway *the_gw;	/* for the signal handler only */

static void mark_dirty(struct gateway *gw, struct conn *c);

static void
on_sigchld(int sig)
{
	(void)sig;
	if (the_gw != NULL)
		the_gw->child_exited = 1;
}

static void
on_signal(int sig)
{
	if (the_gw != NULL && the_gw->stop_signal == 0)
		the_gw->stop_signal = sig;
}

/* ---------------------------------------------------------------- children */

/*
 * A new request parser, forked by the zygote (monitor/zygote.c); NULL
 * when the zygote is not running or cannot take the request now.
 */
static struct conn *
spawn_child(struct gateway *gw)
{
	return zygote_spawn(gw);
}

/* Hand the client to a ready child (privsep.md §8 step 1). */
static void
start_conn(struct gateway *gw, struct conn *c)
{
	const struct listener *l = &gw->lis[c->lis];
	struct ipc_msg m = { .type = IPC_CONN_START };
	int rc;

	c->id = ++gw->next_conn_id;
	m.fd = c->client;
	m.u.conn_start.conn = c->id;
	m.u.conn_start.socket_kind = l->socket_kind == CG_DOCKER ?
	    IPC_KIND_DOCKER : IPC_KIND_PODMAN;
	m.u.conn_start.backend_kind = l->backend_kind == CG_DOCKER ?
	    IPC_KIND_DOCKER : IPC_KIND_PODMAN;
	m.u.conn_start.root.p = gw->root;
	m.u.conn_start.root.len = (uint32_t)strlen(gw->root);
	m.u.conn_start.egress = (uint8_t)gw->cfg->egress;
	m.u.conn_start.proxy.p = l->proxy;
	m.u.conn_start.proxy.len = (uint32_t)strlen(l->proxy);
	m.u.conn_start.noproxy.p = l->noproxy;
	m.u.conn_start.noproxy.len = (uint32_t)strlen(l->noproxy);
	m.u.conn_start.proxy_available = (uint8_t)l->proxy_available;
	m.u.conn_start.backend_timeout_ms = gw->backend_timeout_ms;
	m.u.conn_start.commit_needs_body = (uint8_t)l->commit_needs_body;
	ipc_audit(c, "to-child", &m);
	rc = ipc_send(c->ipc, &m, 0);
	/*
	 * The monitor keeps its copy: it writes forwarded responses and
	 * relays switched streams itself (privsep.md §1 amendment).
	 */
	c->started = 1;
	if (rc != IPC_OK) {
		log_msg(LOG_ERROR, "child-exit", "cannot hand connection %llu to "
		    "its request parser: %s", (unsigned long long)c->id,
		    ipc_strerror(rc));
		kill(c->pid, SIGKILL);
		c->dead = 1;
	}
}

/*
 * 1 when c holds a slot without a request in flight: waiting for its
 * request parser, or with it between requests (or reading a head).
 */
static int
idle_conn(const struct conn *c)
{
	return !c->dead && !c->reclaimed && c->client >= 0 &&
	    c->rs == RS_IDLE && c->nfact_q + c->npath_q == 0;
}

/*
 * At the limit, a client process that already holds half the slots (at
 * least one) gets the 503 rather than another's idle slot: a process that
 * opens hundreds of connections (a slowloris) is refused cheaply, without
 * churning request parsers, and the other half stays for everyone else,
 * the project's owner among them (issue 11 item 5). Below the limit any
 * process may hold any number (a library's connection pool).
 */
static unsigned
peer_max(const struct gateway *gw)
{
	return gw->cfg->max_connections > 1 ? gw->cfg->max_connections / 2 : 1;
}

/* How many slots client process pid holds now. */
static unsigned
peer_holds(const struct gateway *gw, pid_t pid)
{
	const struct conn *c;
	unsigned n = 0;

	TAILQ_FOREACH(c, &gw->conns, entry)
		if (c->peer_pid == pid && c->client >= 0 && !c->reclaimed)
			n++;
	return n;
}

/*
 * At --max-connections, a new client may take the slot of an idle
 * connection (issue 11 item 5): a keep-alive connection between requests,
 * one whose head is still arriving (a slowloris), which the monitor
 * cannot tell apart, or one still waiting for its request parser; none
 * has a request in flight. The one given up belongs to the client process
 * that holds the most connections (its peer pid, SO_PEERCRED at accept),
 * the one idle longest among them: a process that opens hundreds of
 * connections loses its own slots to newcomers, while the project's
 * owner, holding a few, keeps them. Its client socket is shut down both
 * ways: its child sees end-of-file and leaves as after any client close.
 * A connection with a request in flight (an inspect, a forward, a stream)
 * is never taken. Returns 1 when a slot was freed, 0 when none is idle.
 */
static int
reclaim_idle(struct gateway *gw)
{
	struct conn *c, *victim = NULL;
	unsigned held, victim_held = 0;

	TAILQ_FOREACH(c, &gw->conns, entry) {
		if (!idle_conn(c))
			continue;
		held = c->peer_pid > 0 ? peer_holds(gw, c->peer_pid) : 1;
		if (victim == NULL || held > victim_held ||
		    (held == victim_held && c->idle_ms < victim->idle_ms)) {
			victim = c;
			victim_held = held;
		}
	}
	if (victim == NULL)
		return 0;
	log_msg(LOG_INFO, "listen", "connection %llu (client pid %d, %u "
	    "connections) idle for %lld ms gives its slot to a new client "
	    "(--max-connections %u)", (unsigned long long)victim->id,
	    (int)victim->peer_pid, victim_held, now_ms() - victim->idle_ms,
	    gw->cfg->max_connections);
	shutdown(victim->client, SHUT_RDWR);
	victim->reclaimed = 1;
	gw->nclients--;
	return 1;
}

/*
 * Accept one client on listener li: a request parser for it, or the 503
 * (linger.c). Returns 1 when a connection was taken (another may wait),
 * 0 when none was (nothing pending, or out of descriptors).
 */
static int
accept_client(struct gateway *gw, int li)
{
	struct ucred cr;
	socklen_t crl = sizeof(cr);
	struct conn *c;
	pid_t peer_pid;
	int fd;

	fd = accept4(gw->lis[li].fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0) {
		/* out of descriptors: the listener stays readable; wait a bit */
		if (errno == EMFILE || errno == ENFILE) {
			gw->accept_paused_until = now_ms() + 100;
			log_msg(LOG_WARNING, "listen", "accept: %s; pausing new "
			    "connections for 100 ms", strerror(errno));
		}
		return 0;
	}
	peer_pid = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crl) == 0 ?
	    cr.pid : 0;
	if (gw->nclients >= gw->cfg->max_connections &&
	    ((peer_pid > 0 && peer_holds(gw, peer_pid) >= peer_max(gw)) ||
	    !reclaim_idle(gw))) {
		linger_refuse(gw, li, fd);
		return 1;
	}
	c = gw->spare;
	gw->spare = NULL;
	if (c == NULL)
		c = spawn_child(gw);
	if (c == NULL) {
		close(fd);
		return 1;
	}
	gw->nclients++;
	gw->idle_since = -1;
	c->client = fd;
	c->lis = li;
	c->accepted_ms = c->idle_ms = now_ms();
	c->peer_pid = peer_pid;
	if (c->ready)
		start_conn(gw, c);
	mark_dirty(gw, c);
	gw->spare = spawn_child(gw);
	mark_dirty(gw, gw->spare);
	return 1;
}

/* Log how a request parser ended (privsep.md §10, cli.md §14.2 child-exit). */
static void
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

static void
drop_conn(struct gateway *gw, struct conn *c)
{
	int st;

	if (c == gw->spare)
		gw->spare = NULL;
	if (c->zpending) {
		TAILQ_REMOVE(&gw->zyg.pending, c, zentry);
		c->zpending = 0;
	}
	if ((c->started || c->client >= 0) && !c->reclaimed) {
		gw->nclients--;
		if (gw->nclients == 0)
			gw->idle_since = now_ms();
	}
	/* a forwarded exchange still open gets its access line */
	relay_abandon(c, "abandoned: the request parser ended");
	if (c->pid > 0) {
		/*
		 * It is exiting (BYE, end-of-file) or was killed for a
		 * violation. Never wait for it here (that cost every new
		 * connection a millisecond, issue 9): reap() logs its exit
		 * with its connection when it comes, and one that lingers for
		 * a second is killed from the event loop.
		 */
		if (waitpid(c->pid, &st, WNOHANG) == c->pid) {
			log_child_exit(c->id, c->pid, st, gw->stopping);
		} else {
			struct exiting *x = xcalloc(1, sizeof(*x));

			x->pid = c->pid;
			x->conn = c->id;
			x->kill_ms = now_ms() + 1000;
			TAILQ_INSERT_TAIL(&gw->exiting, x, entry);
		}
		c->pid = -1;
	}
	TAILQ_REMOVE(&gw->conns, c, entry);
	conn_free(c);
}

/* Reap children that exited on their own and log how (privsep.md §10). */
static void
reap(struct gateway *gw)
{
	struct exiting *x;
	struct conn *c;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (pid == gw->zyg.pid) {
			/* the zygote never exits on its own while we run */
			if (!gw->stopping)
				log_msg(LOG_ERROR, "child-exit", "the zygote (pid %d) "
				    "died: %s%d; starting a new one", (int)pid,
				    WIFSIGNALED(st) ? "signal " : "exit status ",
				    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			gw->zyg.pid = -1;
			zygote_stop(gw);
			continue;
		}
		TAILQ_FOREACH(x, &gw->exiting, entry)
			if (x->pid == pid)
				break;
		if (x != NULL) {
			log_child_exit(x->conn, pid, st, gw->stopping);
			TAILQ_REMOVE(&gw->exiting, x, entry);
			free(x);
			continue;
		}
		TAILQ_FOREACH(c, &gw->conns, entry)
			if (c->pid == pid)
				break;
		log_child_exit(c != NULL ? c->id : 0, pid, st, gw->stopping);
		/*
		 * Not dropped yet: its socket is read to end-of-file first, so
		 * that messages it sent before it went (ACCESS) count
		 * (issue 11 item 3).
		 */
		if (c != NULL)
			c->pid = -1;
	}
}

/* SIGKILL the exiting children that outstayed their second. */
static void
kill_lingering(struct gateway *gw, long long now)
{
	struct exiting *x;

	TAILQ_FOREACH(x, &gw->exiting, entry)
		if (now >= x->kill_ms) {
			kill(x->pid, SIGKILL);
			x->kill_ms = now + 1000;
		}
}

/* ---------------------------------------------------------------- start-up */

/*
 * How a process of the sandbox self-test ended, for the start-up error
 * (issue 11 item 6: a process that died must not read as a timeout):
 * wait status st as "SIGSYS (a system call its seccomp filter forbids)"
 * or "exit status 1", into buf (sz bytes, NUL-terminated).
 */
static void
describe_end(int st, char *buf, size_t sz)
{
	const char *sig;

	if (WIFSIGNALED(st)) {
		sig = sigabbrev_np(WTERMSIG(st));
		snprintf(buf, sz, "SIG%s%s", sig != NULL ? sig : "UNKNOWN",
		    WTERMSIG(st) == SIGSYS ?
		    " (a system call its seccomp filter forbids)" : "");
	} else {
		snprintf(buf, sz, "exit status %d", WEXITSTATUS(st));
	}
}

/*
 * Why the self-test gave no CHILD_READY: the failed sandbox step the
 * zygote or child reported, how the zygote (c NULL) or the first child
 * ended, or that it still runs. Waits up to 1 s for a dead child's exit
 * status (reaping it). Writes a NUL-terminated reason into buf.
 */
static void
selftest_reason(struct gateway *gw, struct conn *c, char *buf, size_t sz)
{
	long long until = now_ms() + 1000;
	char how[96];
	pid_t w = 0;
	int st;

	if (gw->sandbox_failure[0] != '\0') {
		snprintf(buf, sz, "%s", gw->sandbox_failure);
		return;
	}
	if (c == NULL) {
		if (gw->zyg.fd >= 0 || gw->zyg.status == -1) {
			snprintf(buf, sz, "the zygote did not answer within 5 s");
			return;
		}
		describe_end(gw->zyg.status, how, sizeof(how));
		snprintf(buf, sz, "the zygote ended before CHILD_READY: %s", how);
		return;
	}
	while (c->pid > 0 && (w = waitpid(c->pid, &st, WNOHANG)) == 0 &&
	    c->dead && now_ms() < until)
		usleep(1000);
	if (c->pid <= 0 || w != c->pid) {
		snprintf(buf, sz, "no answer from the first request parser "
		    "within 5 s");
		return;
	}
	c->pid = -1;		/* reaped */
	describe_end(st, how, sizeof(how));
	snprintf(buf, sz, "the first request parser ended before CHILD_READY: "
	    "%s", how);
}

/*
 * Start the zygote, spawn the first child from it and wait up to 5 s in
 * all for both CHILD_READY messages (privsep.md §4, cli.md §7 step 7).
 * Returns 0, or -1 with the reason printed: the failed step and errno
 * (SANDBOX_FAILED), how the zygote or the child ended, or that it still
 * runs without an answer.
 */
static int
sandbox_selftest(struct gateway *gw)
{
	struct conn *c = NULL;
	struct pollfd p[2];
	long long deadline = now_ms() + 5000;
	char why[160];

	if (zygote_start(gw) < 0)
		return -1;
	while (gw->zyg.fd >= 0 && !gw->zyg.ready && now_ms() < deadline) {
		p[0] = (struct pollfd){ .fd = gw->zyg.fd, .events = POLLIN };
		if (poll(p, 1, 100) > 0)
			zygote_on_event(gw);
	}
	if (gw->zyg.ready)
		c = spawn_child(gw);
	while (c != NULL && !c->ready && !c->dead && now_ms() < deadline) {
		p[0] = (struct pollfd){ .fd = c->ipc, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = gw->zyg.fd, .events = POLLIN };
		if (poll(p, 2, 100) > 0) {
			if (p[1].revents)
				zygote_on_event(gw);
			if (p[0].revents)
				(void)conn_on_ipc(c);
		}
	}
	if (c == NULL || !c->ready) {
		selftest_reason(gw, c, why, sizeof(why));
		fprintf(stderr, "container-gateway: cannot sandbox the request "
		    "parser (%s)\n", why);
		if (c != NULL)
			drop_conn(gw, c);
		zygote_stop(gw);
		return -1;
	}
	gw->spare = c;
	if (CG_SANITIZE_BUILD)
		log_msg(LOG_INFO, "sandbox", "sanitizer build (CG_SANITIZE): "
		    "the request parser's sandbox is loosened for the "
		    "ASan/UBSan runtime; for tests only, never deploy it");
	return 0;
}

/* ---------------------------------------------------------------- loop */

static void
graceful_exit(struct gateway *gw)
{
	struct exiting *x;
	struct conn *c;
	struct stat st;
	long long deadline;
	int i;

	for (i = 0; i < CG_SOCKETS; i++) {
		if (gw->lis[i].fd < 0)
			continue;
		ev_close(gw, gw->lis[i].fd);
		if (lstat(gw->lis[i].path, &st) == 0 && S_ISSOCK(st.st_mode) &&
		    st.st_dev == gw->lis[i].dev && st.st_ino == gw->lis[i].ino)
			unlink(gw->lis[i].path);
	}
	gw->stopping = 1;
	TAILQ_FOREACH(c, &gw->conns, entry)
		if (c->pid > 0)
			kill(c->pid, SIGTERM);
	deadline = now_ms() + 5000;
	while (now_ms() < deadline) {
		int alive = 0;

		reap(gw);
		TAILQ_FOREACH(c, &gw->conns, entry)
			if (c->pid > 0)
				alive = 1;
		if (!alive && TAILQ_EMPTY(&gw->exiting))
			break;
		usleep(20000);
	}
	TAILQ_FOREACH(c, &gw->conns, entry)
		if (c->pid > 0)
			kill(c->pid, SIGKILL);
	while ((x = TAILQ_FIRST(&gw->exiting)) != NULL) {
		kill(x->pid, SIGKILL);
		(void)waitpid(x->pid, NULL, 0);
		TAILQ_REMOVE(&gw->exiting, x, entry);
		free(x);
	}
	zygote_stop(gw);
	linger_close_all(gw);
	backend_pool_close(gw);
	while ((c = TAILQ_FIRST(&gw->conns)) != NULL) {
		TAILQ_REMOVE(&gw->conns, c, entry);
		conn_free(c);
	}
	rundir_release_pid(gw);
}

/* c changed this turn: its registrations are synced (or it is dropped). */
static void
mark_dirty(struct gateway *gw, struct conn *c)
{
	if (c == NULL || c->dirty)
		return;
	if (gw->ndirty == gw->capdirty) {
		gw->capdirty = gw->capdirty ? gw->capdirty * 2 : 64;
		gw->dirty = xrealloc(gw->dirty, gw->capdirty * sizeof(*gw->dirty));
	}
	c->dirty = 1;
	gw->dirty[gw->ndirty++] = c;
}

/* Drop the dirty connections that died, sync the others. */
static void
settle_dirty(struct gateway *gw)
{
	struct conn *c;
	size_t i;

	for (i = 0; i < gw->ndirty; i++) {
		c = gw->dirty[i];
		c->dirty = 0;
		if (c->dead)
			drop_conn(gw, c);
		else
			ev_sync(c);
	}
	gw->ndirty = 0;
}

/*
 * Once per millisecond at most: backend deadlines of every connection,
 * connections that died outside their own events (their zygote failed,
 * a graceful stop), and the next deadline for the wait. Every second, a
 * full re-sync of every connection's registrations as a safety net.
 */
static int
sweep(struct gateway *gw, long long now, int full)
{
	struct conn *c, *next;
	long long next_deadline = now + 1000;

	for (c = TAILQ_FIRST(&gw->conns); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		if (!c->dead && c->bc.fd >= 0 && c->bc.deadline > 0) {
			if (now >= c->bc.deadline) {
				(void)conn_on_timer(c, now);
				mark_dirty(gw, c);
			} else if (c->bc.deadline < next_deadline) {
				next_deadline = c->bc.deadline;
			}
		}
		if (c->dead || full)
			mark_dirty(gw, c);
	}
	settle_dirty(gw);
	return (int)(next_deadline - now);
}

static int
event_loop(struct gateway *gw)
{
	struct ev_event evs[256], *e;
	struct pollfd pfd;
	struct conn *c;
	long long now, last_sweep = -1, last_full = 0;
	int timeout = 0, rc, n, i, k;

	for (;;) {
		if (gw->stop_signal) {
			log_event(LOG_INFO, "signal-exit", gw->stop_signal == SIGINT ?
			    "received SIGINT; exiting" : "received SIGTERM; exiting",
			    (struct log_field[]){ LF_STR("signal",
			    gw->stop_signal == SIGINT ? "SIGINT" : "SIGTERM") }, 1);
			graceful_exit(gw);
			rc = 0;
			break;
		}
		now = now_ms();
		if (gw->cfg->idle_timeout > 0 && gw->idle_since >= 0 &&
		    now - gw->idle_since >= (long long)(gw->cfg->idle_timeout * 1000)) {
			log_idle_exit(gw->cfg->idle_timeout_text,
			    gw->cfg->idle_timeout);
			graceful_exit(gw);
			rc = 0;
			break;
		}
		/* a wait per turn would cost a system call per relayed read */
		if (gw->child_exited) {
			gw->child_exited = 0;
			reap(gw);
		}
		kill_lingering(gw, now);
		linger_tick(gw, now);
		backend_pool_expire(gw, now);
		/* a zygote that died is started again, at most once a second */
		if (gw->zyg.pid < 0 && now - gw->zyg.started_ms >= 1000)
			(void)zygote_start(gw);
		if (gw->spare == NULL) {
			gw->spare = spawn_child(gw);
			mark_dirty(gw, gw->spare);
		}
		settle_dirty(gw);
		if (now != last_sweep) {
			last_sweep = now;
			timeout = sweep(gw, now, now - last_full >= 1000);
			if (now - last_full >= 1000)
				last_full = now;
		}
		if (timeout < 0)
			timeout = 0;
		/* out of descriptors: stop listening a while (accept_client) */
		for (i = 0; i < CG_SOCKETS; i++)
			ev_watch(gw, gw->lis[i].fd, EV_LISTENER, i, NULL,
			    now < gw->accept_paused_until ? 0 : POLLIN);
		if (now < gw->accept_paused_until && timeout > 100)
			timeout = 100;
		n = ev_wait(gw, evs, 256, timeout, &gw->loop_mask);
		if (n < 0 && errno != EINTR) {
			log_msg(LOG_ERROR, "signal-exit", "epoll_wait: %s",
			    strerror(errno));
			graceful_exit(gw);
			rc = 1;
			break;
		}
		now = now_ms();
		for (i = 0; i < n; i++) {
			e = &evs[i];
			if (!ev_current(gw, e))
				continue;	/* closed by an earlier event */
			switch (e->kind) {
			case EV_LISTENER:
				/* drain a burst, a bounded number at a time */
				for (k = 0; k < 64 && accept_client(gw, e->index);
				    k++)
					;
				break;
			case EV_ZYGOTE:
				zygote_on_event(gw);
				break;
			case EV_LINGER:
				linger_on_event(gw, e->fd, e->revents, now);
				break;
			default:
				c = e->c;
				if (c->dead)
					break;
				pfd = (struct pollfd){ .fd = e->fd, .revents = e->revents };
				pfd.events = pfd.revents;
				conn_on_poll(c, &pfd, 1);
				if (c->ready && !c->started && c->client >= 0 && !c->dead)
					start_conn(gw, c);
				mark_dirty(gw, c);
				break;
			}
		}
		settle_dirty(gw);
	}
	free(gw->dirty);	/* LeakSanitizer, make check-asan */
	gw->dirty = NULL;
	gw->ndirty = gw->capdirty = 0;
	return rc;
}

/* ---------------------------------------------------------------- listen */

/*
 * Bind one gateway socket (cli.md §7 step 11). Returns 0, 2 (refused
 * configuration, message printed) or 1 (runtime failure).
 */
static int
bind_socket(struct listener *l)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stat st;
	mode_t old;
	int fd, probe;

	if (lstat(l->path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			fprintf(stderr, "container-gateway: %s exists and is not a "
			    "socket; refusing to bind over it\n", l->path);
			return 2;
		}
		probe = backend_connect(l->path);
		if (probe >= 0) {
			struct pollfd p = { .fd = probe, .events = POLLOUT };
			int err = 0;
			socklen_t el = sizeof(err);

			poll(&p, 1, 200);
			getsockopt(probe, SOL_SOCKET, SO_ERROR, &err, &el);
			close(probe);
			if (err == 0) {
				fprintf(stderr, "container-gateway: %s is in use by "
				    "another process; refusing to bind over it\n",
				    l->path);
				return 2;
			}
		}
		unlink(l->path);
	}
	strcpy(sun.sun_path, l->path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return 1;
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		umask(old);
		fprintf(stderr, "container-gateway: cannot bind %s: %s\n", l->path,
		    strerror(errno));
		close(fd);
		return 1;
	}
	umask(old);
	chmod(l->path, 0600);
	/* a deep backlog: a burst (a slowloris) must not shut out the owner */
	if (listen(fd, SOMAXCONN) < 0 || stat(l->path, &st) < 0) {
		close(fd);
		unlink(l->path);
		return 1;
	}
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->fd = fd;
	return 0;
}

/*
 * Egress probe per served socket (cli.md §15), logged once per backend:
 * docker.sock on the same backend as podman.sock takes podman.sock's
 * result (the alias is a function of the backend kind).
 */
static void
egress_probe(struct gateway *gw, struct listener *l)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	const char *alias, *kind = l->backend_kind == CG_DOCKER ? "docker" : "podman";
	struct pollfd p;
	int fd, err = 1;
	socklen_t el = sizeof(err);

	l->proxy_available = 0;
	l->proxy[0] = l->noproxy[0] = '\0';
	if (gw->cfg->egress == CG_EGRESS_OFF)
		return;
	/* once per backend, not per socket (issue 10 item 8) */
	if (l == &gw->lis[1] && gw->lis[0].backend_path[0] != '\0' &&
	    strcmp(gw->lis[0].backend_path, l->backend_path) == 0) {
		l->proxy_available = gw->lis[0].proxy_available;
		memcpy(l->proxy, gw->lis[0].proxy, sizeof(l->proxy));
		memcpy(l->noproxy, gw->lis[0].noproxy, sizeof(l->noproxy));
		return;
	}
	alias = gw->cfg->egress_host != NULL ? gw->cfg->egress_host :
	    l->backend_kind == CG_DOCKER ? "172.17.0.1" : "10.88.0.1";
	sin.sin_port = htons((uint16_t)gw->cfg->egress_port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd >= 0) {
		if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0) {
			err = 0;
		} else if (errno == EINPROGRESS) {
			p.fd = fd;
			p.events = POLLOUT;
			if (poll(&p, 1, 1000) == 1)
				getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
		}
		close(fd);
	}
	if (err == 0) {
		l->proxy_available = 1;
		snprintf(l->proxy, sizeof(l->proxy), strchr(alias, ':') != NULL ?
		    "http://[%s]:%u" : "http://%s:%u", alias, gw->cfg->egress_port);
		snprintf(l->noproxy, sizeof(l->noproxy), "localhost,127.0.0.1,%s",
		    alias);
	}
	log_egress(l->socket_kind == CG_DOCKER ? "docker" : "podman", kind,
	    gw->cfg->egress == CG_EGRESS_REQUIRE ? "require" :
	    "inject-if-available", gw->cfg->egress_port, l->proxy_available,
	    l->proxy);
}

/*
 * The monitor holds three descriptors per connection (its child's IPC
 * end, the client, a backend connection), up to LINGER_SLOTS refused
 * clients and a few of its own: raise the soft
 * RLIMIT_NOFILE to the hard limit, and lower --max-connections with a
 * WARNING when even that is too small (beyond http.md §1.2: a limit the
 * process cannot honour would make accept() or poll() fail for everyone).
 */
static void
fit_max_connections(struct gateway *gw)
{
	struct rlimit rl;
	rlim_t need = CONN_POLLFDS * (rlim_t)gw->cfg->max_connections +
	    LINGER_SLOTS + 32;
	unsigned fit;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
		(void)getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return;
	fit = rl.rlim_cur > LINGER_SLOTS + 40 ? (unsigned)((rl.rlim_cur -
	    LINGER_SLOTS - 32) / CONN_POLLFDS) : 4;
	log_msg(LOG_WARNING, "listen", "RLIMIT_NOFILE %llu is too small for "
	    "--max-connections %u; serving at most %u connections",
	    (unsigned long long)rl.rlim_cur, gw->cfg->max_connections, fit);
	gw->cfg->max_connections = fit;
}

int
serve_main(struct cg_config *cfg)
{
	struct gateway gw;
	struct sigaction sa;
	int rc, i;

	memset(&gw, 0, sizeof(gw));
	gw.cfg = cfg;
	gw.pid_fd = -1;
	TAILQ_INIT(&gw.conns);
	TAILQ_INIT(&gw.zyg.pending);
	TAILQ_INIT(&gw.exiting);
	gw.pool_max = POOL_MAX;
	gw.zyg.pid = -1;
	gw.zyg.fd = -1;
	gw.zyg.status = -1;
	gw.backend_timeout_ms = (unsigned)(cfg->backend_timeout * 1000);
	for (i = 0; i < CG_SOCKETS; i++)
		gw.lis[i].fd = -1;
	log_init(cfg->log_level, cfg->log_format, 2);

	/* steps 2-4: root, run directory, sockets' lengths, lock probe */
	rc = rundir_prepare(&gw);
	if (rc != 0) {
		rc = rc == 3 ? 0 : rc;
		goto out;
	}
	/* step 5: detach (cli.md §10); the original process ends here */
	if (cfg->daemon && (rc = daemon_detach(gw.run_dir)) >= 0)
		goto out;
	/* step 6: take the lock */
	rc = rundir_take_pid(&gw);
	if (rc != 0) {
		rc = rc == 3 ? 0 : rc;
		goto out;
	}
	the_gw = &gw;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_sigchld;
	sigaction(SIGCHLD, &sa, NULL);
	/*
	 * The loop's signals arrive only inside epoll_pwait(): no wake-up is lost
	 * between a check of the flags and the wait.
	 */
	{
		sigset_t block;

		sigemptyset(&block);
		sigaddset(&block, SIGCHLD);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGINT);
		sigprocmask(SIG_BLOCK, &block, &gw.loop_mask);
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	prctl(PR_SET_DUMPABLE, 0);

	log_start(CG_VERSION, gw.root, gw.run_dir);
	/* the binary the request parsers are started from (fexecve) */
	gw.exe_fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (gw.exe_fd >= 0 && gw.exe_fd < 10) {
		int high = fcntl(gw.exe_fd, F_DUPFD_CLOEXEC, 10);

		close(gw.exe_fd);
		gw.exe_fd = high;
	}
	if (gw.exe_fd < 0) {
		fprintf(stderr, "container-gateway: cannot open /proc/self/exe: "
		    "%s\n", strerror(errno));
		rundir_release_pid(&gw);
		rc = 1;
		goto out;
	}
	/* the event loop's epoll set, before the first descriptor it holds */
	if (ev_init(&gw) < 0) {
		fprintf(stderr, "container-gateway: epoll_create1: %s\n",
		    strerror(errno));
		rundir_release_pid(&gw);
		rc = 1;
		goto out;
	}
	/* step 7: the sandbox self-test */
	if (sandbox_selftest(&gw) < 0) {
		rundir_release_pid(&gw);
		rc = 1;
		goto out;
	}
	/* step 8-9: backends */
	rc = rundir_discover(&gw);
	if (rc != 0) {
		graceful_exit(&gw);
		/* nothing to serve: a daemon's start failed (issue 10 item 8) */
		rc = rc == 3 ? (cfg->daemon ? 1 : 0) : rc;
		goto out;
	}
	for (i = 0; i < CG_SOCKETS; i++)
		if (gw.lis[i].backend_path[0] != '\0')
			egress_probe(&gw, &gw.lis[i]);
	for (i = 0; i < CG_SOCKETS; i++) {
		if (gw.lis[i].backend_path[0] == '\0')
			continue;
		rc = bind_socket(&gw.lis[i]);
		if (rc != 0) {
			graceful_exit(&gw);
			goto out;
		}
		log_listen(gw.lis[i].socket_kind == CG_DOCKER ? "docker" : "podman",
		    gw.lis[i].path, gw.lis[i].backend_kind == CG_DOCKER ?
		    "docker" : "podman", gw.lis[i].backend_path);
	}
	instance_record(&gw);	/* for a second serve's report (issue 10) */
	daemon_ready();		/* step 12: readiness (cli.md §10) */
	gw.idle_since = now_ms();
	fit_max_connections(&gw);
	rc = event_loop(&gw);
out:
	the_gw = NULL;
	ev_free(&gw);
	ocache_free(&gw);
	rundir_free(&gw);	/* what rundir_prepare allocated */
	return rc;
}
