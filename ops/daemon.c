/*
 * Daemon mode (cli.md §10): double fork, setsid, log file on stdout and
 * stderr, and a readiness pipe so that `serve --daemon` returns only once
 * the sockets listen (or with the daemon's exit code when it could not
 * start). Everything here runs before the lock is taken (§7 step 5), so no
 * process created here ever holds the pid-file lock except the daemon.
 */
#include "ops/daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monitor/log.h"
#include "policy/policy.h"	/* CG_PATH_MAX */
#include "seccomp/filter.h"	/* CG_LOG_OPEN_FLAGS */

static int ready_fd = -1;	/* daemon: write end of the readiness pipe */
static pid_t daemon_pid;	/* the daemon itself, not its children */
static char log_path[CG_PATH_MAX + 32];
/* SIGHUP reopens the log: once ready (cli.md §9.1), and if allowed */
static volatile sig_atomic_t hup_reopens;
/* 0 once the confined monitor may not open files (monitor/confine.c) */
static volatile sig_atomic_t reopen_allowed = 1;

/*
 * Open the log file for appending (cli.md §10); no symlink, a regular
 * file owned by us (O_NONBLOCK so a FIFO planted there cannot block the
 * open). Async-signal-safe: used by the SIGHUP handler. -1 on failure.
 */
static int
open_log(void)
{
	struct stat st;
	int fd;

	fd = open(log_path, CG_LOG_OPEN_FLAGS, 0600);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid()) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* Tell the original process how we ended before being ready. */
static void
report_exit(int status, void *arg)
{
	unsigned char msg[2] = { 'X', (unsigned char)status };

	(void)arg;
	if (ready_fd < 0 || getpid() != daemon_pid)
		return;		/* a forked child inherited this handler */
	(void)!write(ready_fd, msg, sizeof(msg));
	close(ready_fd);
	ready_fd = -1;
}

/*
 * The log file is full (monitor/log.c, between two lines): it becomes
 * container-gateway.log.1, replacing the one before, and a new, empty
 * log is opened onto stdout and stderr. Confined, rename and the open
 * are allowed only under Landlock, which keeps both in the run directory
 * (seccomp/monitor.c, doc/privsep.md). Returns 0, or -1 (nothing was
 * renamed, or the new file could not be opened: the old descriptor,
 * whatever its name now, keeps every line).
 */
static int
rotate_log(void)
{
	char old[sizeof(log_path) + 2];
	int fd;

	if (!reopen_allowed)
		return -1;
	snprintf(old, sizeof(old), "%s.1", log_path);
	if (rename(log_path, old) != 0)
		return -1;
	fd = open_log();
	if (fd < 0)
		return -1;
	if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

void
daemon_log_rotation(unsigned long long max_bytes)
{
	if (ready_fd < 0 || getpid() != daemon_pid)
		return;
	log_set_rotation(max_bytes, max_bytes > 0 ? rotate_log : NULL);
}

/* SIGHUP in daemon mode: reopen the log (rotation). */
static void
on_hup(int sig)
{
	int saved = errno, fd;

	(void)sig;
	if (!hup_reopens)
		;		/* before readiness SIGHUP is ignored */
	else if (!reopen_allowed) {
		log_event_signal_safe(LOG_WARNING, "log", "SIGHUP: the log file "
		    "is not reopened (the confined monitor may open it only "
		    "under Landlock, which this kernel lacks); rotate it with "
		    "copytruncate");
	} else if ((fd = open_log()) >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
		log_reopened();
	}
	errno = saved;
}

/*
 * The original process, after a failed start: copy the reasons the daemon
 * logged since start_off (its ERROR and WARNING lines, and the refusals
 * it printed) to stderr, at most 20 lines, so that `serve --daemon` says
 * why on the terminal (usability.sh u_cli). Text lines lose their timestamp:
 * "<ts> container-gateway WARNING x" becomes "container-gateway: x".
 */
static void
print_reasons(off_t start_off)
{
	char line[2048], *p;
	FILE *f;
	int fd, n = 0;

	fd = open(log_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	f = fdopen(fd, "r");
	if (f == NULL) {
		close(fd);
		return;
	}
	if (fseeko(f, start_off, SEEK_SET) == 0)
		while (n < 20 && fgets(line, sizeof(line), f) != NULL) {
			if ((p = strstr(line, " container-gateway ERROR ")) != NULL)
				p += strlen(" container-gateway ERROR ");
			else if ((p = strstr(line, " container-gateway WARNING ")) !=
			    NULL)
				p += strlen(" container-gateway WARNING ");
			else if (strncmp(line, "container-gateway: ", 19) == 0 ||
			    strstr(line, "\"level\":\"error\"") != NULL ||
			    strstr(line, "\"level\":\"warning\"") != NULL)
				p = line;
			else
				continue;
			fprintf(stderr, "%s%s", p == line ? "" :
			    "container-gateway: ", p);
			n++;
		}
	fclose(f);
}

/* The original process: wait for 'R' or 'X'<code> or EOF. */
static int
wait_ready(int rfd, pid_t mid, off_t start_off)
{
	unsigned char buf[2];
	size_t got = 0;
	ssize_t n;
	int st, code;

	while (got < sizeof(buf)) {
		n = read(rfd, buf + got, sizeof(buf) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
		if (buf[0] == 'R')
			break;
	}
	close(rfd);
	while (waitpid(mid, &st, 0) < 0 && errno == EINTR)
		;
	if (got >= 1 && buf[0] == 'R')
		return 0;
	if (got == 2 && buf[0] == 'X')
		code = buf[1];
	else
		code = 1;	/* killed before it could report */
	if (code != 0) {
		print_reasons(start_off);
		fprintf(stderr, "container-gateway: daemon failed to start (exit "
		    "%d); see %s\n", code, log_path);
	}
	return code;
}

int
daemon_detach(const char *run_dir)
{
	int p[2], logfd, devnull;
	struct stat st;
	off_t start_off;
	pid_t pid;

	snprintf(log_path, sizeof(log_path), "%s/container-gateway.log", run_dir);
	logfd = open_log();
	if (logfd < 0) {
		fprintf(stderr, "container-gateway: %s cannot be opened as the log "
		    "file: %s; refusing\n", log_path, strerror(errno));
		return 2;
	}
	start_off = fstat(logfd, &st) == 0 ? st.st_size : 0;
	if (pipe2(p, O_CLOEXEC) < 0) {
		fprintf(stderr, "container-gateway: pipe: %s\n", strerror(errno));
		close(logfd);
		return 1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "container-gateway: fork: %s\n", strerror(errno));
		close(p[0]);
		close(p[1]);
		close(logfd);
		return 1;
	}
	if (pid > 0) {
		close(p[1]);
		close(logfd);
		return wait_ready(p[0], pid, start_off);
	}
	/* first child: new session, then fork again so we are no leader */
	close(p[0]);
	if (setsid() < 0 || (pid = fork()) < 0) {
		unsigned char msg[2] = { 'X', 1 };

		(void)!write(p[1], msg, sizeof(msg));
		_exit(1);
	}
	if (pid > 0)
		_exit(0);
	/* the daemon */
	if (chdir("/") < 0)
		_exit(1);
	umask(077);
	/* both above 2 first, so that no dup2 below clobbers the other */
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull >= 0 && devnull <= 2)
		devnull = fcntl(devnull, F_DUPFD_CLOEXEC, 3);
	if (logfd <= 2)
		logfd = fcntl(logfd, F_DUPFD_CLOEXEC, 3);
	if (devnull < 0 || logfd < 0 || dup2(devnull, 0) < 0 ||
	    dup2(logfd, 1) < 0 || dup2(logfd, 2) < 0) {
		unsigned char msg[2] = { 'X', 1 };

		(void)!write(p[1], msg, sizeof(msg));
		_exit(1);
	}
	close(devnull);
	close(logfd);
	signal(SIGHUP, SIG_IGN);
	ready_fd = p[1];
	daemon_pid = getpid();
	on_exit(report_exit, NULL);
	return -1;
}

void
daemon_arm_hup(void)
{
	struct sigaction sa;

	if (ready_fd < 0 || getpid() != daemon_pid)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_hup;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, NULL);
}

void
daemon_ready(void)
{
	if (ready_fd < 0 || getpid() != daemon_pid)
		return;
	(void)!write(ready_fd, "R", 1);
	close(ready_fd);
	ready_fd = -1;
	hup_reopens = 1;
}

void
daemon_allow_reopen(int allowed)
{
	reopen_allowed = allowed != 0;
}
