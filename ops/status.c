/*
 * stop and status (cli.md §11, §12). Both locate the run directory with
 * the same checks as serve, read-only (rundir_locate(gw, 0)): nothing is
 * created, a missing component means "never served". Liveness is the
 * flock on the pid file, never kill(pid, 0) (cli.md §6).
 */
#include "ops/status.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/gwerror.h"
#include "base/xmalloc.h"
#include "monitor/gateway.h"
#include "ops/instance.h"
#include "ops/oneshot.h"
#include "ops/rundir.h"
#include "ops/session.h"
#include "policy/json.h"

enum pid_state {
	PID_ABSENT,	/* no pid file */
	PID_UNTRUSTED,	/* not a plain, owned, 0600 file (§11.3): left alone */
	PID_STALE,	/* nobody held the lock: removed (§11.4) */
	PID_INVALID,	/* locked, but no valid pid in it (§11.5) */
	PID_LOCKED,	/* locked, with a valid pid */
};

/*
 * Inspect the pid file at path (cli.md §6, §11.2-§11.5). PID_LOCKED
 * leaves the open descriptor in *fd (the caller closes it) and the pid in
 * *pid. A stale file is unlinked while this process holds its lock and
 * only when the path still names the inode it locked.
 */
static enum pid_state
pid_inspect(const char *path, long long *pid, int *fd)
{
	struct stat lst, fst;
	char buf[32];
	ssize_t n;
	int i;

	*fd = -1;
	*pid = -1;
	if (lstat(path, &lst) < 0)
		return errno == ENOENT ? PID_ABSENT : PID_UNTRUSTED;
	if (!S_ISREG(lst.st_mode) || lst.st_uid != geteuid() ||
	    (lst.st_mode & 07777) != 0600)
		return PID_UNTRUSTED;
	*fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0)
		return errno == ENOENT ? PID_ABSENT : PID_UNTRUSTED;
	if (fstat(*fd, &fst) < 0 || fst.st_dev != lst.st_dev ||
	    fst.st_ino != lst.st_ino) {
		close(*fd);
		*fd = -1;
		return PID_UNTRUSTED;	/* replaced under us */
	}
	if (flock(*fd, LOCK_EX | LOCK_NB) == 0) {
		if (lstat(path, &lst) == 0 && lst.st_dev == fst.st_dev &&
		    lst.st_ino == fst.st_ino)
			unlink(path);
		close(*fd);
		*fd = -1;
		return PID_STALE;
	}
	/* the winner truncates and writes after locking: allow it 100 ms */
	for (i = 0; i < 6; i++) {
		n = pread(*fd, buf, sizeof(buf), 0);
		if (n > 0 && (*pid = instance_parse_pid(buf, (size_t)n)) > 0)
			return PID_LOCKED;
		usleep(20000);
	}
	close(*fd);
	*fd = -1;
	return PID_INVALID;
}

/* basename of s (without modifying it). */
static const char *
base_of(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash != NULL ? slash + 1 : s;
}

/* python, pythonN, pythonN.N (cli.md §11.6 [S]). */
static int
is_python(const char *w)
{
	const char *p = base_of(w);

	if (strncmp(p, "python", 6) != 0)
		return 0;
	p += 6;
	if (*p == '\0')
		return 1;
	if (*p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '\0')
		return 1;
	if (*p++ != '.' || *p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '\0';
}

/*
 * Does argv (n words) look like a gateway (cli.md §11.6)? The first word
 * has the basename container-gateway, or the reference's Python form
 * `[uv run] [path/]python[N[.N]] [-flags] -m container_gateway`.
 */
static int
looks_like_gateway(char **w, size_t n)
{
	size_t i = 0;

	if (n == 0)
		return 0;
	if (strcmp(base_of(w[0]), "container-gateway") == 0)
		return 1;
	if (n >= 2 && strcmp(base_of(w[0]), "uv") == 0 &&
	    strcmp(w[1], "run") == 0)
		i = 2;
	if (i >= n || !is_python(w[i]))
		return 0;
	for (i++; i < n && w[i][0] == '-' && strcmp(w[i], "-m") != 0; i++)
		;
	return i + 1 < n && strcmp(w[i], "-m") == 0 &&
	    strcmp(w[i + 1], "container_gateway") == 0;
}

/* The first line of `ps -o command= -p <pid>` into out, "" on failure. */
static void
ps_command(long long pid, char *out, size_t outsz)
{
	static const char *const ps_paths[] = { "/bin/ps", "/usr/bin/ps" };
	char pidtext[24];
	size_t got = 0;
	ssize_t n;
	pid_t child;
	int p[2], devnull, st;
	size_t i;

	out[0] = '\0';
	snprintf(pidtext, sizeof(pidtext), "%lld", pid);
	if (pipe2(p, O_CLOEXEC) < 0)
		return;
	child = fork();
	if (child < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (child == 0) {
		devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (dup2(p[1], 1) < 0 || devnull < 0 || dup2(devnull, 0) < 0 ||
		    dup2(devnull, 2) < 0)
			_exit(127);
		for (i = 0; i < sizeof(ps_paths) / sizeof(ps_paths[0]); i++)
			execl(ps_paths[i], "ps", "-o", "command=", "-p", pidtext,
			    (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while (got + 1 < outsz &&
	    (n = read(p[0], out + got, outsz - 1 - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		got += (size_t)n;
	}
	close(p[0]);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	out[got] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/*
 * cli.md §11.6: the first argv element from /proc/<pid>/cmdline, or when
 * that is unavailable the first line of ps -o command=.
 */
static int
pid_is_gateway(long long pid)
{
	char path[64], buf[8192], *w[64], *save, *tok;
	size_t nw = 0, off;
	ssize_t n = -1;
	int fd;

	if (pid > INT_MAX)
		return 0;
	snprintf(path, sizeof(path), "/proc/%lld/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n > 0) {
		buf[n] = '\0';
		for (off = 0; off < (size_t)n && nw < 64; off += strlen(buf + off) + 1)
			w[nw++] = buf + off;
		return looks_like_gateway(w, nw);
	}
	ps_command(pid, buf, sizeof(buf));
	for (tok = strtok_r(buf, " \t", &save); tok != NULL && nw < 64;
	    tok = strtok_r(NULL, " \t", &save))
		w[nw++] = tok;
	return looks_like_gateway(w, nw);
}

/*
 * Is pid, which holds the lock of the pid file open on fd, the gateway of
 * gw's run directory (instance_served_by)? A start that has the lock but no
 * socket yet (cli.md §7 steps 6-11) is given 5 s, polled every 0.1 s.
 * Returns 0 when proven; 1 when the lock was released meanwhile (the pid
 * file is then left to the next stale check); 2 when the sockets are
 * served from outside this pid namespace, where the pid means nothing;
 * -1 when not proven, with the reason and then verdict (e.g. "refusing to
 * signal") on stderr.
 */
static int
prove_pid(const struct gateway *gw, long long pid, int fd, const char *verdict)
{
	long long other = -1;
	int i;

	for (i = 0; i < 50; i++) {
		switch (instance_served_by(gw, pid, &other)) {
		case PROOF_SERVED:
			return 0;
		case PROOF_UNSEEN:
			return 2;
		case PROOF_OTHER:
			fprintf(stderr, "container-gateway: %s names pid %lld, but "
			    "the run directory's sockets are served by pid %lld: "
			    "the pid file was replaced; %s\n", gw->pid_file, pid, other,
			    verdict);
			return -1;
		case PROOF_NONE:
			break;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			flock(fd, LOCK_UN);
			return 1;
		}
		usleep(100000);
	}
	fprintf(stderr, "container-gateway: pid %lld serves no socket of %s "
	    "(podman.sock, docker.sock): it is not this run directory's "
	    "gateway; %s\n", pid, gw->run_dir, verdict);
	return -1;
}

/* A gateway struct holding only what stop/status need. */
static void
init_gw(struct gateway *gw, struct cg_config *cfg)
{
	memset(gw, 0, sizeof(*gw));
	gw->cfg = cfg;
	gw->pid_fd = -1;
}

/*
 * Can this process connect to the unix socket at path? A connect is
 * what a client would do; a unix socket connects at once or fails.
 */
static int
can_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, ok;

	if (strlen(path) >= sizeof(sa.sun_path))
		return 0;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

/*
 * What status says besides its line (tool.md, rootless): the running
 * instance's sandbox level from its record ("full", "degraded", or NULL
 * without a record), and on stderr a warning for a degraded sandbox and
 * one per backend socket this user can open: the gateway's sockets are
 * 0600, so its clients have this uid, and a client of this uid that is
 * not in a sandbox of its own can talk to the daemon directly. Not for
 * root, which reaches every socket: root clients need a sandbox anyway.
 */
static const char *
status_notes(const struct gateway *gw)
{
	static char level[16];
	char *rec = xmalloc(INSTANCE_RECORD_MAX), path[CG_PATH_MAX + 1];
	const char *ret = NULL;
	int i;

	if (instance_read_record(gw, rec, INSTANCE_RECORD_MAX) == 0 &&
	    instance_recorded(rec, "sandbox", 0, level, sizeof(level)) == 0) {
		ret = level;
		if (strcmp(level, "degraded") == 0)
			fprintf(stderr, "container-gateway: warning: the request "
			    "parser's sandbox is degraded (no namespaces or no "
			    "empty root; the gateway's log says why)\n");
	}
	for (i = 0; ret != NULL && geteuid() != 0 &&
	    instance_recorded(rec, "backend", i, path, sizeof(path)) == 0; i++)
		if (can_connect(path))
			fprintf(stderr, "container-gateway: warning: uid %u can "
			    "connect to the backend socket %s itself: a client "
			    "running as this user outside a sandbox of its own can "
			    "bypass the gateway (tool.md, \"Rootless podman\")\n",
			    (unsigned)geteuid(), path);
	free(rec);
	return ret;
}

int
status_main(struct cg_config *cfg)
{
	struct gateway *gw = xcalloc(1, sizeof(*gw));
	const char *sock[CG_SOCKETS], *level;
	char *esc[CG_SOCKETS] = { NULL, NULL };
	struct stat st;
	long long pid = -1;
	int rc, fd = -1, i;

	init_gw(gw, cfg);
	rc = rundir_locate(gw, 0);
	if (rc == RD_REFUSED) {
		free(gw);
		return 2;
	}
	if (rc != 0 || pid_inspect(gw->pid_file, &pid, &fd) != PID_LOCKED) {
		puts("{\"running\": false, \"pid\": null, \"sockets\": "
		    "{\"podman\": null, \"docker\": null}, \"serving\": [], "
		    "\"sandbox\": null}");
		free(gw);
		return 3;
	}
	/*
	 * A locked pid file that is not this run directory's gateway's counts
	 * as untrustworthy: not running (cli.md §12). Run inside a sandbox
	 * with its own pid namespace (tool.md) the listener is out of sight
	 * and the pid is printed as the file says: nothing there can signal it.
	 */
	rc = prove_pid(gw, pid, fd, "counting it as not running");
	if (rc != 0 && rc != 2) {
		close(fd);
		puts("{\"running\": false, \"pid\": null, \"sockets\": "
		    "{\"podman\": null, \"docker\": null}, \"serving\": [], "
		    "\"sandbox\": null}");
		free(gw);
		return 3;
	}
	close(fd);
	level = status_notes(gw);
	for (i = 0; i < CG_SOCKETS; i++) {
		sock[i] = gw->lis[i].path[0] != '\0' &&
		    lstat(gw->lis[i].path, &st) == 0 && S_ISSOCK(st.st_mode) ?
		    gw->lis[i].path : NULL;
		if (sock[i] != NULL)
			esc[i] = cg_json_escape(sock[i], strlen(sock[i]));
	}
	printf("{\"running\": true, \"pid\": %lld, \"sockets\": {\"podman\": "
	    "%s%s%s, \"docker\": %s%s%s}, \"serving\": [%s%s%s], \"sandbox\": "
	    "%s%s%s", pid,
	    esc[0] ? "\"" : "", esc[0] ? esc[0] : "null", esc[0] ? "\"" : "",
	    esc[1] ? "\"" : "", esc[1] ? esc[1] : "null", esc[1] ? "\"" : "",
	    esc[0] ? "\"podman\"" : "", esc[0] && esc[1] ? ", " : "",
	    esc[1] ? "\"docker\"" : "", level ? "\"" : "", level ? level : "null",
	    level ? "\"" : "");
	instance_status(gw, stdout);
	puts("}");
	free(esc[0]);
	free(esc[1]);
	free(gw);
	return 0;
}

/*
 * stop --stop-containers (README, "Sessions"): ask the running gateway,
 * through its own docker.sock (else podman.sock), for the project's
 * running containers and stop each (t=10), before the gateway itself
 * stops. The gateway's policy keeps it to the project's containers.
 * Prints how many were stopped; best effort.
 */
static void
stop_containers(const struct gateway *gw)
{
	const char *sock = NULL;
	char target[160], err[64];
	const cJSON *c, *id;
	struct stat st;
	cJSON *list;
	char *body;
	int i, status, n = 0, failed = 0;

	for (i = CG_SOCKETS - 1; i >= 0 && sock == NULL; i--)
		if (lstat(gw->lis[i].path, &st) == 0 && S_ISSOCK(st.st_mode))
			sock = gw->lis[i].path;
	if (sock == NULL)
		return;
	body = oneshot(sock, "GET", "/v1.41/containers/json", 30000, &status,
	    NULL);
	list = body != NULL && status == 200 ?
	    json_parse(body, strlen(body), err, sizeof(err)) : NULL;
	free(body);
	cJSON_ArrayForEach(c, list) {
		id = json_get(c, "Id");
		if (!cJSON_IsString(id) || strlen(id->valuestring) > 128 ||
		    strspn(id->valuestring, "0123456789abcdef") !=
		    strlen(id->valuestring))
			continue;
		snprintf(target, sizeof(target), "/v1.41/containers/%s/stop?t=10",
		    id->valuestring);
		free(oneshot(sock, "POST", target, 30000, &status, NULL));
		if (status == 204 || status == 304)
			n++;
		else
			failed++;
	}
	cJSON_Delete(list);
	printf("container-gateway: stopped %d container%s of %s%s\n", n,
	    n == 1 ? "" : "s", gw->root, failed ? " (some could not be "
	    "stopped)" : "");
}

/*
 * The gateway stop may signal: its pid file gw->pid_file locked by a
 * process that is a container-gateway, proven to hold the lock
 * (prove_pid). Returns -1 with *pid and *fd (the pid file, open) for
 * it; else closes what it opened and returns stop's exit status: 0 with
 * nothing to stop, 1 or 2 after a message on stderr.
 */
static int
stoppable_instance(struct gateway *gw, long long *pid, int *fd)
{
	switch (pid_inspect(gw->pid_file, pid, fd)) {
	case PID_ABSENT:
	case PID_STALE:
		return 0;
	case PID_UNTRUSTED:
		fprintf(stderr, "container-gateway: %s is not a plain, owned, 0600 "
		    "pid file; refusing\n", gw->pid_file);
		return 2;
	case PID_INVALID:
		fprintf(stderr, "container-gateway: %s is locked but holds no valid "
		    "pid; refusing to signal\n", gw->pid_file);
		return 1;
	case PID_LOCKED:
		break;
	}
	if (!pid_is_gateway(*pid)) {
		fprintf(stderr, "container-gateway: pid %lld does not look like a "
		    "container-gateway process; refusing to signal\n", *pid);
		close(*fd);
		return 1;
	}
	switch (prove_pid(gw, *pid, *fd, "refusing to signal")) {
	case 0:
		return -1;
	case 2:
		fprintf(stderr, "container-gateway: the gateway of %s runs in "
		    "another pid namespace; stop it from there\n", gw->run_dir);
		close(*fd);
		return 1;
	case 1:		/* it ended while starting: nothing left to stop */
		close(*fd);
		return 0;
	default:
		close(*fd);
		return 1;
	}
}

/*
 * SIGTERM to the gateway pid, then wait up to 5 s for its lock on the
 * pid file fd (closed here); the pid file goes once the lock is ours.
 * Returns 0 when it ended, 1 after a message when it still holds it.
 */
static int
signal_and_wait(struct gateway *gw, long long pid, int fd)
{
	struct stat st, fst;
	int i;

	kill((pid_t)pid, SIGTERM);
	for (i = 0; i < 50; i++) {
		usleep(100000);
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			/* never leave a pid file behind an unlocked instance (§6) */
			if (fstat(fd, &fst) == 0 && lstat(gw->pid_file, &st) == 0 &&
			    st.st_dev == fst.st_dev && st.st_ino == fst.st_ino)
				unlink(gw->pid_file);
			close(fd);
			return 0;
		}
	}
	fprintf(stderr, "container-gateway: pid %lld still holds the lock 5s after "
	    "SIGTERM (pid_alive=%s)\n", pid, kill((pid_t)pid, 0) == 0 ? "true" :
	    "false");
	close(fd);
	return 1;
}

int
stop_main(struct cg_config *cfg)
{
	struct gateway *gw = xcalloc(1, sizeof(*gw));
	long long pid;
	int rc, fd, others, sessions_fd = -1;

	init_gw(gw, cfg);
	rc = rundir_locate(gw, 0);
	switch (rc) {
	case 0:
		break;
	case RD_NO_ROOT:
		printf("container-gateway: no project root at %s: nothing to stop\n",
		    gw->root);
		rc = 0;
		goto out;
	case RD_NO_RUNDIR:
		printf("container-gateway: no run directory at %s: nothing to stop\n",
		    gw->run_dir);
		rc = 0;
		goto out;
	default:
		rc = 2;
		goto out;
	}
	/* a session leaves; the last one stops the gateway (session.c) */
	if (cfg->session != NULL) {
		others = session_leave(gw, &sessions_fd);
		if (others < 0) {
			rc = 2;
			goto out;
		}
		if (others > 0) {
			printf("container-gateway: %d other session%s still use%s "
			    "the gateway of %s; not stopping it\n", others,
			    others == 1 ? "" : "s", others == 1 ? "s" : "",
			    gw->root);
			rc = 0;
			goto out;
		}
	}
	rc = stoppable_instance(gw, &pid, &fd);
	if (rc >= 0)
		goto out;
	if (cfg->stop_containers)
		stop_containers(gw);
	rc = signal_and_wait(gw, pid, fd);
out:
	if (sessions_fd >= 0)
		close(sessions_fd);	/* after the gateway stopped: session.c */
	free(gw);
	return rc;
}
