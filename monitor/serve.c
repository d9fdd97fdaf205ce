/*
 * `serve`: start-up sequence (cli.md §7) and the monitor's event loop
 * (privsep.md §2-§3, §10): listening sockets, children, backend
 * connections, signals and the idle timer, one epoll loop (evloop.c).
 */
#include "monitor/serve.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
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
#include "monitor/accept.h"
#include "monitor/budget.h"
#include "monitor/children.h"
#include "monitor/confine.h"
#include "monitor/conn.h"
#include "monitor/evloop.h"
#include "monitor/exchange/exchange.h"
#include "monitor/linger.h"
#include "monitor/listen.h"
#include "monitor/log.h"
#include "monitor/pins.h"
#include "monitor/task.h"
#include "monitor/zygote.h"
#include "ops/daemon.h"
#include "ops/instance.h"
#include "ops/rundir.h"
#include "unpriv/child.h"
#include "unpriv/sanitize.h"

#define IDLE_TRIM_MS	100	/* quiet this long: trim the heap (idle_trim) */

static struct gateway *the_gw;	/* for the signal handler only */


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

static void
drop_conn(struct gateway *gw, struct conn *c)
{
	if (c == gw->spare)
		gw->spare = NULL;
	if ((c->started || c->client >= 0) && !c->reclaimed) {
		gw->nclients--;
		if (gw->nclients == 0)
			gw->idle_since = now_ms();
	}
	if (c->reclaimed)
		gw->nreclaimed--;
	/* a request still open gets its access line */
	conn_abandon(c, "the request parser ended");
	TAILQ_REMOVE(&gw->conns, c, entry);
	if (c->zpending) {
		zygote_orphan(gw, c);	/* its ZYGOTE_SPAWNED is to come */
		return;
	}
	if (c->pid > 0) {
		/* exiting (BYE, end-of-file) or killed for a violation */
		forget_child(gw, c->pid, c->id, 0);
		c->pid = -1;
	}
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
		if (pins_reaped(gw, pid, st))
			continue;	/* the event loop stops the gateway */
		if (pid == gw->zyg.pid) {
			/* the zygote never exits on its own: the loop stops */
			gw->zyg.pid = -1;
			zygote_stop(gw);
			gw->zyg.status = st;
			continue;
		}
		TAILQ_FOREACH(x, &gw->exiting, entry)
			if (x->pid == pid)
				break;
		if (x != NULL) {
			log_child_exit(x->conn, pid, st, gw->stopping ||
			    x->expected);
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
		 * (cli.md §14.3: one access line per request).
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
 * (a process that died must not read as a timeout: doc/reliability.md
 * "AddressSanitizer"): wait status st as "SIGSYS (a system call its seccomp
 * filter forbids)" or "exit status 1", into buf (sz bytes, NUL-terminated).
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
	gw->selftest = 1;	/* this child reports its finished sandbox */
	if (gw->zyg.ready)
		c = spawn_child(gw);
	gw->selftest = 0;
	while (c != NULL && !c->ready && !c->dead && now_ms() < deadline) {

		p[0] = (struct pollfd){ .fd = c->ipc, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = gw->zyg.fd, .events = POLLIN };
		if (poll(p, 2, 100) > 0) {
			if (p[1].revents)
				zygote_on_event(gw);
			if (p[0].revents) {
				/*
				 * its CHILD_READY is checked against the pid the
				 * zygote names: a ZYGOTE_SPAWNED on its way is
				 * read first (the exchange does not read the
				 * zygote)
				 */
				if (c->zpending)
					zygote_on_event(gw);
				(void)conn_on_ipc(c);
			}
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

/*
 * Why unprivileged user namespaces are missing, as far as the kernel's
 * knobs tell (into buf, bufsz bytes): user.max_user_namespaces 0,
 * Debian's kernel.unprivileged_userns_clone 0, Ubuntu's
 * kernel.apparmor_restrict_unprivileged_userns 1; else a seccomp profile
 * (a container's) or a security module refused unshare(CLONE_NEWUSER).
 */
static void
userns_hint(char *buf, size_t bufsz)
{
	static const struct { const char *file, *sysctl, *bad; } knobs[] = {
		{ "/proc/sys/user/max_user_namespaces",
		  "user.max_user_namespaces", "0" },
		{ "/proc/sys/kernel/unprivileged_userns_clone",
		  "kernel.unprivileged_userns_clone", "0" },
		{ "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
		  "kernel.apparmor_restrict_unprivileged_userns", "1" },
	};
	char v[32];
	size_t i, off = 0;
	ssize_t n;
	int fd;

	buf[0] = '\0';
	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		fd = open(knobs[i].file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, v, sizeof(v) - 1);
		close(fd);
		if (n <= 0)
			continue;
		v[n] = '\0';
		v[strcspn(v, "\n")] = '\0';
		if (strcmp(v, knobs[i].bad) == 0 && off < bufsz)
			off += (size_t)snprintf(buf + off, bufsz - off, "%s%s is %s",
			    off ? ", " : "", knobs[i].sysctl, v);
	}
	if (off == 0)
		snprintf(buf, bufsz, "unshare(CLONE_NEWUSER) was refused, by a "
		    "seccomp profile (a container's) or a security module");
}

/*
 * The request parser's sandbox level (tool.md "The request parser's
 * sandbox"), from the first CHILD_READY: full as root (uid 65534 in an
 * empty chroot; privsep.md §4 makes that fatal when it fails) and, not
 * root, with its own user, mount and network namespaces and an empty
 * read-only root; degraded when not root without them (privsep.md §4
 * step 2 lets it go on). A degraded sandbox is a WARNING that says what
 * is missing and what it costs, and with --require-full-sandbox a
 * refusal to serve (stderr, exit 1). Returns 0, or -1 when refused.
 */
static int
sandbox_level(struct gateway *gw)
{
	char why[256], *missing;

	gw->sandbox_full = gw->sandbox_chroot &&
	    (geteuid() == 0 || gw->sandbox_ns);
	if (gw->sandbox_full)
		return 0;
	if (!gw->sandbox_ns)
		userns_hint(why, sizeof(why));
	else
		snprintf(why, sizeof(why), "its empty read-only root could "
		    "not be mounted");
	if (asprintf(&missing, "request parser sandbox degraded: "
	    "namespaces=%s chroot=%s (%s%s)", gw->sandbox_ns ? "on" : "off",
	    gw->sandbox_chroot ? "on" : "off", gw->sandbox_ns ? "" :
	    "no unprivileged user namespaces: ", why) < 0)
		xoom();
	if (gw->cfg->require_full_sandbox) {
		log_msg(LOG_ERROR, "sandbox", "%s; --require-full-sandbox is set: "
		    "not serving", missing);
		fprintf(stderr, "container-gateway: %s; refusing to serve "
		    "(--require-full-sandbox)\n", missing);
		free(missing);
		return -1;
	}
	log_msg(LOG_WARNING, "sandbox", "%s; the request parser runs as uid %u "
	    "in the host's namespaces and sees / and the host's network, held "
	    "only by seccomp, no_new_privs and no capabilities: a flaw in "
	    "either would hand client input this user's files and network. "
	    "Enable unprivileged user namespaces or run the gateway as root; "
	    "--require-full-sandbox refuses to serve without them", missing,
	    (unsigned)geteuid());
	free(missing);
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
	pins_stop(gw);
	linger_close_all(gw);
	drain_close_all(gw);
	backend_pool_close(gw);
	while ((c = TAILQ_FIRST(&gw->conns)) != NULL) {
		TAILQ_REMOVE(&gw->conns, c, entry);
		conn_free(c);
	}
	rundir_release_pid(gw);
}

/* Drop the dirty connections that died, sync the others. */
static void
settle_dirty(struct gateway *gw)
{
	struct pollfd pfd[CONN_POLLFDS];
	struct conn *c;
	size_t i;
	int n;

	for (i = 0; i < gw->ndirty; i++) {
		c = gw->dirty[i];
		c->dirty = 0;
		if (c->dead) {
			drop_conn(gw, c);
		} else {
			n = conn_pollfds(c, pfd);
			ev_sync(c, pfd, n);
		}
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
	long long next_deadline = now + 1000, d, t;

	/* FORWARDs waiting for room in the memory budget (budget.c) */
	t = budget_expire(gw, now);
	if (t >= 0 && t < next_deadline)
		next_deadline = t;

	/* orphaned answers whose time is up (drain.c) */
	d = drain_tick(gw, now);
	if (d > 0 && d < next_deadline)
		next_deadline = d;
	for (c = TAILQ_FIRST(&gw->conns); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		/* a reclaimed slot's parser that outstays its end (accept.c) */
		if (!c->dead && c->reclaim_kill_ms > 0) {
			if (now >= c->reclaim_kill_ms)
				accept_reclaim_expired(c);
			else if (c->reclaim_kill_ms < next_deadline)
				next_deadline = c->reclaim_kill_ms;
		}
		/* a request body the child stopped moving (dispatch.c) */
		if (!c->dead && c->body_deadline > 0) {
			d = conn_on_body_timer(c, now);
			if (c->dead)
				mark_dirty(gw, c);
			else if (d > 0 && d < next_deadline)
				next_deadline = d;
		}
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
	/* the monitor's own GETs (task.c), the pins' sweep (pins.c) */
	t = mtask_tick(gw, now);
	if (now + t < next_deadline)
		next_deadline = now + t;
	t = pins_tick(gw, now);
	if (now + t < next_deadline)
		next_deadline = now + t;
	t = rundir_version_tick(gw, now);
	if (now + t < next_deadline)
		next_deadline = now + t;
	return (int)(next_deadline - now);
}

/*
 * The loop's wait when nothing needs a timer: no connection but idle
 * spares, no lingering 503, no child on its way out, accepting. Then it
 * sleeps until an event, the next kept backend connection's expiry or
 * the idle timeout, instead of waking every second for the sweep
 * (every idle gateway woke once a second; 1,000 idle gateways
 * on one machine, 1,000 wake-ups a second). Returns that wait in ms, -1
 * for none, or -2 when something does need the sweep.
 */
static int
quiet_wait(struct gateway *gw, long long now)
{
	const struct conn *c;
	long long until = -1, t;
	int i, k;

	if (gw->nlingers > 0 || gw->nreclaimed > 0 || !TAILQ_EMPTY(&gw->exiting) ||
	    gw->ndrains > 0 || now < gw->accept_paused_until)
		return -2;
	TAILQ_FOREACH(c, &gw->conns, entry)
		if (c->client >= 0 || c->started || c->dead || c->bc.fd >= 0)
			return -2;
	for (i = 0; i < CG_SOCKETS; i++)
		for (k = 0; k < gw->pools[i].n; k++) {
			t = gw->pools[i].since[k] + POOL_IDLE_MS;
			if (until < 0 || t < until)
				until = t;
		}
	t = pins_wake_at(gw);
	if (t == -2)
		return -2;
	if (t >= 0 && (until < 0 || t < until))
		until = t;
	t = mtask_next_deadline();
	if (t >= 0 && (until < 0 || t < until))
		until = t;
	t = rundir_version_wake_at();
	if (t >= 0 && (until < 0 || t < until))
		until = t;
	if (gw->cfg->idle_timeout > 0 && gw->idle_since >= 0) {
		t = gw->idle_since + (long long)(gw->cfg->idle_timeout * 1000);
		if (until < 0 || t < until)
			until = t;
	}
	if (until < 0)
		return -1;
	return until <= now ? 0 : (int)(until - now > INT_MAX ? INT_MAX :
	    until - now);
}

/*
 * Once the loop has been quiet (quiet_wait) for IDLE_TRIM_MS, the heap's
 * free pages go back to the kernel, once per quiet spell: what start-up,
 * the start-up tasks and the last connections freed stayed resident
 * otherwise (an idle monitor held 132 KiB of heap with 41 KB in use,
 * 68-76 KiB once trimmed; idle PSS, bench/bench.py). Not at every
 * connection's end: a client that opens a connection per request would
 * fault the pages in again each time. Takes the loop's quiet wait q (ms, -1 for none) and returns the
 * wait to use, at most until the trim is due. gw->trim_at: 0 armed,
 * > 0 when due (monotonic ms), -1 done for this quiet spell.
 */
static int
idle_trim(struct gateway *gw, long long now, int q)
{
	if (gw->trim_at == 0)
		gw->trim_at = now + IDLE_TRIM_MS;
	if (gw->trim_at > 0 && now >= gw->trim_at) {
		(void)malloc_trim(0);
		gw->trim_at = -1;
	}
	if (gw->trim_at > 0 && (q < 0 || gw->trim_at - now < q))
		q = (int)(gw->trim_at - now);
	return q;
}

/*
 * Whether the loop stops for a signal or the idle timeout: takes the
 * gateway and the time now; logs why and exits gracefully, then returns
 * 1, else 0 (the loop stops with status 0 either way).
 */
static int
stop_asked(struct gateway *gw, long long now)
{
	if (gw->stop_signal) {
		log_event(LOG_INFO, "signal-exit", gw->stop_signal == SIGINT ?
		    "received SIGINT; exiting" : "received SIGTERM; exiting",
		    (struct log_field[]){ LF_STR("signal",
		    gw->stop_signal == SIGINT ? "SIGINT" : "SIGTERM") }, 1);
		graceful_exit(gw);
		return 1;
	}
	if (gw->cfg->idle_timeout > 0 && gw->idle_since >= 0 &&
	    now - gw->idle_since >= (long long)(gw->cfg->idle_timeout * 1000)) {
		log_idle_exit(gw->cfg->idle_timeout_text,
		    gw->cfg->idle_timeout);
		graceful_exit(gw);
		return 1;
	}
	return 0;
}

/*
 * No zygote, no request parser: the confined monitor cannot start
 * another (no exec, no fork, no capabilities for its sandbox;
 * doc/privsep.md). Fail closed: stop the gateway. The pinner likewise
 * (monitor/pins.c). Returns 1 when one of them ended (logged, the gateway
 * exited gracefully), else 0.
 */
static int
zygote_or_pinner_gone(struct gateway *gw)
{
	char how[96] = "its control socket failed";
	int zyg, st;

	if (!(gw->zyg.pid < 0 || pins_dead(gw, &st)))
		return 0;
	zyg = gw->zyg.pid < 0;
	if (!zyg || gw->zyg.status != -1)
		describe_end(zyg ? gw->zyg.status : st, how, sizeof(how));
	log_msg(LOG_ERROR, "child-exit", "the %s ended (%s); "
	    "the confined monitor cannot start another, so the "
	    "gateway stops (start it again)", zyg ? "zygote" :
	    "pinner", how);
	graceful_exit(gw);
	return 1;
}

/*
 * The loop's wait for this turn in ms: takes the time now, the sweep's
 * times (updated here: last_sweep once per millisecond, last_full once
 * a second) and the previous turn's timeout; the sweep runs at most
 * once per millisecond (sweep), a quiet gateway sleeps longer
 * (quiet_wait) until its heap trim is due (idle_trim), and a paused
 * accept waits 100 ms at most. Also sets the
 * listeners' registrations for the turn.
 */
static int
loop_timeout(struct gateway *gw, long long now, long long *last_sweep,
    long long *last_full, int timeout)
{
	int i, q;

	if (now != *last_sweep) {
		*last_sweep = now;
		timeout = sweep(gw, now, now - *last_full >= 1000);
		if (now - *last_full >= 1000)
			*last_full = now;
	}
	if (timeout < 0 || gw->pn_wake)	/* set by a drop above */
		timeout = 0;
	q = quiet_wait(gw, now);
	if (q >= -1)
		timeout = idle_trim(gw, now, q);
	else
		gw->trim_at = 0;	/* busy: trim when quiet again */
	/* out of descriptors: stop listening a while (accept_client) */
	for (i = 0; i < CG_SOCKETS; i++)
		ev_watch(gw, gw->lis[i].fd, EV_LISTENER, i, NULL,
		    now < gw->accept_paused_until ? 0 : POLLIN);
	if (now < gw->accept_paused_until && timeout > 100)
		timeout = 100;
	return timeout;
}

/*
 * Hand the n events of evs (from ev_wait at time now) to their owners:
 * listeners, the zygote, lingering closes, the backend pool, drains,
 * the monitor's tasks, or a connection (started once its child is
 * ready).
 */
static void
dispatch_events(struct gateway *gw, struct ev_event *evs, int n,
    long long now)
{
	struct ev_event *e;
	struct pollfd pfd;
	struct conn *c;
	int i, k;

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
		case EV_POOL:
			backend_pool_event(gw, e->index, e->fd);
			break;
		case EV_DRAIN:
			drain_on_event(gw, e->index, e->fd);
			break;
		case EV_TASK:
			mtask_event(gw, e->index, e->revents);
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
}

/*
 * The monitor's event loop (privsep.md §2-§3): runs until a signal, the
 * idle timeout, the end of the zygote or the pinner, or a failed wait.
 * Returns the gateway's exit status: 0 for a signal or the idle timeout,
 * 1 otherwise.
 */
static int
event_loop(struct gateway *gw)
{
	struct ev_event evs[256];
	long long now, last_sweep = -1, last_full = 0;
	int timeout = 0, rc, n;

	for (;;) {
		now = now_ms();
		if (stop_asked(gw, now)) {
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
		if (zygote_or_pinner_gone(gw)) {
			rc = 1;
			break;
		}
		check_adopt(gw);	/* a ready spare for a waiting upload */
		if (gw->spare == NULL) {
			gw->spare = spawn_child(gw);
			mark_dirty(gw, gw->spare);
		}
		/* the project network's create ended: its waiters go on */
		if (gw->pn_wake) {
			gw->pn_wake = 0;
			phase_wake(gw);
		}
		if (gw->budget.admit_due)
			budget_admit(gw);
		settle_dirty(gw);
		timeout = loop_timeout(gw, now, &last_sweep, &last_full,
		    timeout);
		n = ev_wait(gw, evs, 256, timeout, &gw->loop_mask);
		if (n < 0 && errno != EINTR) {
			log_msg(LOG_ERROR, "signal-exit", "epoll_wait: %s",
			    strerror(errno));
			graceful_exit(gw);
			rc = 1;
			break;
		}
		now = now_ms();
		dispatch_events(gw, evs, n, now);
		settle_dirty(gw);
	}
	free(gw->dirty);	/* LeakSanitizer, make check-asan */
	gw->dirty = NULL;
	gw->ndirty = gw->capdirty = 0;
	return rc;
}

/*
 * The gateway gw (zero: serve_main's static state) before start-up, for
 * configuration cfg: every descriptor closed (-1), empty lists, no
 * zygote yet; logging to stderr at cfg's level and format; glibc's mmap
 * threshold fixed.
 */
static void
gateway_init(struct gateway *gw, struct cg_config *cfg)
{
	int i;

	gw->cfg = cfg;
	gw->pid_fd = -1;
	TAILQ_INIT(&gw->conns);
	TAILQ_INIT(&gw->zyg.pending);
	TAILQ_INIT(&gw->exiting);
	gw->pool_max = POOL_MAX;
	gw->zyg.pid = -1;
	gw->zyg.fd = -1;
	gw->zyg.status = -1;
	gw->backend_timeout_ms = (unsigned)(cfg->backend_timeout * 1000);
	projnet_init(gw);
	for (i = 0; i < CG_SOCKETS; i++)
		gw->lis[i].fd = -1;
	log_init(cfg->log_level, cfg->log_format, 2);
	/*
	 * Blocks from 128 KiB on always come from mmap and go back at free:
	 * a connection record (164 KiB, mostly its room for ownership
	 * answers) then costs only the pages it touches, and bodies' 8 MiB
	 * buffers never stay in the heap. glibc's default raises the
	 * threshold after the first such free, and 256 connections then
	 * kept 40 MB resident after they closed (doc/reliability.md "Memory
	 * bounds").
	 */
	(void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}

/*
 * The signal handlers for gw (SIGTERM, SIGINT: stop; SIGCHLD: reap),
 * blocked outside the loop's wait (gw->loop_mask: the mask the wait
 * uses); SIGPIPE and SIGHUP ignored; the process not dumpable.
 */
static void
install_signals(struct gateway *gw)
{
	struct sigaction sa;
	sigset_t block;

	the_gw = gw;
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
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &gw->loop_mask);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	prctl(PR_SET_DUMPABLE, 0);
}

/*
 * The binary the request parsers are started from (fexecve) into
 * gw->exe_fd, at fd 10 or above. Returns 0, or -1 after a message on
 * stderr.
 */
static int
open_self_exe(struct gateway *gw)
{
	gw->exe_fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (gw->exe_fd >= 0 && gw->exe_fd < 10) {
		int high = fcntl(gw->exe_fd, F_DUPFD_CLOEXEC, 10);

		close(gw->exe_fd);
		gw->exe_fd = high;
	}
	if (gw->exe_fd < 0) {
		fprintf(stderr, "container-gateway: cannot open /proc/self/exe: "
		    "%s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The event loop's epoll set, before the first descriptor it holds, then
 * step 7: the sandbox self-test, and its level. Returns 0, or -1 after
 * the error is reported.
 */
static int
loop_and_sandbox_init(struct gateway *gw)
{
	if (ev_init(gw) < 0) {
		fprintf(stderr, "container-gateway: epoll_create1: %s\n",
		    strerror(errno));
		return -1;
	}
	if (sandbox_selftest(gw) < 0 || sandbox_level(gw) < 0)
		return -1;
	return 0;
}

/*
 * The pinner, then what the request parsers need: the binary
 * (open_self_exe), the loop's epoll set and the sandbox self-test
 * (loop_and_sandbox_init). Returns 0, or -1 after the error is reported
 * and the pinner stopped.
 */
static int
start_children(struct gateway *gw)
{
	/*
	 * The pinner needs root's capabilities, so it is forked before
	 * confine_caps; and as early as its configuration is known (bind
	 * roots, run directory), because it is a fork: every page of the
	 * monitor's heap, stack and data that either of them writes later
	 * is a copy the pinner keeps for good (forked after the zygote and
	 * the self-test: idle PSS ~25 KiB more, bench/bench.py).
	 */
	(void)pins_init(gw);
	if (open_self_exe(gw) < 0 || loop_and_sandbox_init(gw) < 0) {
		pins_stop(gw);
		return -1;
	}
	return 0;
}

/*
 * Confine the monitor (confine.h) and log how; warns when the daemon's
 * log cannot be rotated under this confinement. Returns 0, or -1 after
 * the error is logged.
 */
static int
confine_and_log(struct gateway *gw)
{
	const struct cg_config *cfg = gw->cfg;
	struct confine_result conf;

	if (confine_monitor(gw->run_dir, &conf) < 0) {
		log_msg(LOG_ERROR, "sandbox", "cannot confine the monitor (%s: %s)",
		    conf.step, strerror(conf.err));
		return -1;
	}
	confine_log(&conf);
	if (cfg->daemon && cfg->log_max_size > 0 && !conf.log_reopen)
		log_msg(LOG_WARNING, "log", "the log file is not rotated: the "
		    "confined monitor may rename it only under Landlock, which "
		    "this kernel lacks; rotate it with copytruncate");
	gw->record_append = conf.log_reopen;
	return 0;
}

/*
 * Every socket with a backend: its egress probe first (all of them),
 * then bind and listen, each logged. Returns 0, or bind_socket's
 * non-zero status for the first that fails.
 */
static int
listen_all(struct gateway *gw)
{
	int i, rc;

	for (i = 0; i < CG_SOCKETS; i++)
		if (gw->lis[i].backend_path[0] != '\0')
			egress_probe(gw, &gw->lis[i]);
	for (i = 0; i < CG_SOCKETS; i++) {
		if (gw->lis[i].backend_path[0] == '\0')
			continue;
		rc = bind_socket(&gw->lis[i]);
		if (rc != 0)
			return rc;
		log_listen(gw->lis[i].socket_kind == CG_DOCKER ? "docker" :
		    "podman", gw->lis[i].path,
		    gw->lis[i].backend_kind == CG_DOCKER ? "docker" : "podman",
		    gw->lis[i].backend_path);
	}
	return 0;
}

int
serve_main(struct cg_config *cfg)
{
	/*
	 * The gateway's state (41 KB, mostly path buffers) is static and
	 * zero from the start, not a memset frame on the stack: the pages
	 * it never writes stay unmapped, and the stack the monitor (and the
	 * pinner, a fork) keeps resident for good is shallower. Measured
	 * idle (bench/bench.py): the monitor's stack 92 -> 44 KiB, its data
	 * 12 -> 52 KiB. serve_main runs once per process.
	 */
	static struct gateway gw;
	struct confine_result conf;
	int rc;

	gateway_init(&gw, cfg);

	/* steps 2-4: root, run directory, sockets' lengths, lock probe */
	rc = rundir_prepare(&gw);
	if (rc != 0) {
		rc = rc == 3 ? 0 : rc;
		goto out;
	}
	/* the memory budget fits the connection limit (budget.c) */
	if (budget_setup(&gw) < 0) {
		rc = 2;
		goto out;
	}
	/* step 5: detach (cli.md §10); the original process ends here */
	if (cfg->daemon && (rc = daemon_detach(gw.run_dir)) >= 0)
		goto out;
	daemon_log_rotation(cfg->log_max_size);	/* the daemon's log only */
	/* step 6: take the lock */
	rc = rundir_take_pid(&gw);
	if (rc != 0) {
		rc = rc == 3 ? 0 : rc;
		goto out;
	}
	install_signals(&gw);

	log_start(CG_VERSION, gw.root, gw.run_dir);
	if (start_children(&gw) < 0) {
		rundir_release_pid(&gw);
		rc = 1;
		goto out;
	}
	/* the last exec is done: keep only what the loop uses (confine.h) */
	close(gw.exe_fd);
	gw.exe_fd = -1;
	if (confine_caps(&conf) < 0) {
		fprintf(stderr, "container-gateway: cannot drop the monitor's "
		    "capabilities (%s: %s)\n", conf.step, strerror(conf.err));
		graceful_exit(&gw);
		rc = 1;
		goto out;
	}
	/* step 8-9: backends */
	rc = rundir_discover(&gw);
	if (rc != 0) {
		graceful_exit(&gw);
		/* nothing to serve: a daemon's start failed (u_cli) */
		rc = rc == 3 ? (cfg->daemon ? 1 : 0) : rc;
		goto out;
	}
	/* backend advisories: WARNINGs, --require-patched-backend */
	if (rundir_advisories(&gw) != 0) {
		graceful_exit(&gw);
		rc = 1;
		goto out;
	}
	rc = listen_all(&gw);
	if (rc != 0) {
		graceful_exit(&gw);
		goto out;
	}
	instance_record(&gw);	/* for a second serve's report (u_cli) */
	fit_max_connections(&gw);
	(void)budget_setup(&gw);	/* again: the limit may have been lowered */
	daemon_arm_hup();
	if (confine_and_log(&gw) < 0) {
		graceful_exit(&gw);
		rc = 1;
		goto out;
	}
	/* the runtimes' versions, in the loop (discover.c) */
	rundir_advisories_async(&gw);
	daemon_ready();		/* step 12: readiness (cli.md §10) */
	gw.idle_since = now_ms();
	rc = event_loop(&gw);
out:
	the_gw = NULL;
	ev_free(&gw);
	ocache_free(&gw);
	rundir_free(&gw);	/* what rundir_prepare allocated */
	return rc;
}
