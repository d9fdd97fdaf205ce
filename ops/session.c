/*
 * Sessions of a project's gateway. One gateway serves a project, and
 * several agent sessions may use it at once: the first start starts it,
 * the others find it running. Each session is a file in
 * <run-dir>/sessions named after its id; a stop with --session removes its
 * own file and stops the gateway only when no other live session is left.
 * A session whose process is gone (a harness that crashed and never ran
 * its stop) no longer counts: its file names the process's pid and start
 * time (/proc/PID/stat field 22), so a reused pid is told apart. All of
 * it happens in the serve and stop commands, never in the confined
 * monitor; the gateway's own idle timeout still ends it when every session
 * has crashed.
 */
#include "ops/session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ops/dirsafe.h"

/* The start time of pid (clock ticks since boot), or 0 when it is gone. */
static unsigned long long
start_time(unsigned pid)
{
	char path[64], buf[1024], *p;
	unsigned long long st = 0;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) state ppid ...": comm may hold spaces and ')' */
	p = strrchr(buf, ')');
	for (i = 0; p != NULL && i < 20; i++)	/* to field 22 */
		p = strchr(p + 1, ' ');
	if (p != NULL)
		st = strtoull(p + 1, NULL, 10);
	return st;
}

/* Open and lock (LOCK_EX, blocking) the sessions directory; -1 if none. */
static int
lock_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0 && flock(fd, LOCK_EX) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int
session_join(const struct gateway *gw)
{
	char dir[CG_PATH_MAX + 16], line[64];
	unsigned pid = gw->cfg->session_pid;
	unsigned long long st = pid != 0 ? start_time(pid) : 0;
	int dfd, fd, rc;

	snprintf(dir, sizeof(dir), "%s/sessions", gw->run_dir);
	rc = rundir_component(dir, "sessions directory", 1);
	if (rc != 0)
		return rc;
	if ((dfd = lock_dir(dir)) < 0) {
		fprintf(stderr, "container-gateway: sessions directory (%s) cannot "
		    "be locked: %s; refusing\n", dir, strerror(errno));
		return RD_REFUSED;
	}
	if (pid != 0 && st == 0)
		pid = 0;	/* already gone: it counts until its stop */
	snprintf(line, sizeof(line), "%u %llu\n", pid, st);
	fd = openat(dfd, gw->cfg->session, O_WRONLY | O_CREAT | O_TRUNC |
	    O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line)) {
		fprintf(stderr, "container-gateway: cannot register session %s in "
		    "%s: %s; refusing\n", gw->cfg->session, dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		close(dfd);
		return RD_REFUSED;
	}
	close(fd);
	close(dfd);
	return 0;
}

/* Does the session file name (in the directory dfd) hold a live session? */
static int
alive(int dfd, const char *name)
{
	char buf[64];
	unsigned long long st;
	unsigned pid;
	struct stat sb;
	ssize_t n;
	int fd;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	n = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ?
	    read(fd, buf, sizeof(buf) - 1) : -1;
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%u %llu", &pid, &st) != 2)
		return 0;
	return pid == 0 || start_time(pid) == st;
}

int
session_leave(const struct gateway *gw, int *lock_fd)
{
	char dir[CG_PATH_MAX + 16];
	struct dirent *e;
	DIR *d;
	int dfd, rc, others = 0;

	*lock_fd = -1;
	snprintf(dir, sizeof(dir), "%s/sessions", gw->run_dir);
	rc = rundir_component(dir, "sessions directory", 0);
	if (rc == RD_NO_RUNDIR)
		return 0;
	if (rc != 0)
		return -1;
	if ((dfd = lock_dir(dir)) < 0 || (rc = dup(dfd)) < 0 ||
	    (d = fdopendir(rc)) == NULL) {
		fprintf(stderr, "container-gateway: sessions directory (%s) cannot "
		    "be read: %s; refusing\n", dir, strerror(errno));
		if (rc >= 0)
			close(rc);
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	(void)unlinkat(dfd, gw->cfg->session, 0);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (alive(dfd, e->d_name))
			others++;
		else
			(void)unlinkat(dfd, e->d_name, 0);
	}
	closedir(d);
	*lock_fd = dfd;
	return others;
}
