/*
 * stop and status (cli.md §11, §12). This slice supports an explicit
 * --run-dir or --pid-file and the default run directory of a git or
 * adopted project; the read-only component checks are issue 4's.
 */
#include "monitor/status.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipc/xmalloc.h"

/* Locate the pid file without creating anything. */
static int
pid_path(const struct cg_config *cfg, char *out, size_t outsz, char *dir,
    size_t dirsz)
{
	char *root, p[4200];
	struct stat st;

	if (cfg->pid_file != NULL && cfg->run_dir == NULL) {
		snprintf(out, outsz, "%s", cfg->pid_file);
		snprintf(dir, dirsz, "%s", cfg->pid_file);
		snprintf(dir, dirsz, "%s", dirname(dir));
		return 0;
	}
	if (cfg->run_dir != NULL) {
		snprintf(dir, dirsz, "%s", cfg->run_dir);
	} else {
		root = realpath(cfg->project, NULL);
		if (root == NULL)
			return -1;
		snprintf(p, sizeof(p), "%s/.apache-magpie.lock", root);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			snprintf(dir, dirsz, "%s/.apache-magpie-local/run", root);
		else {
			snprintf(p, sizeof(p), "%s/.git", root);
			if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
				snprintf(dir, dirsz, "%s/.git/apache-magpie/run/main", root);
			else
				snprintf(dir, dirsz, "%s/.apache-magpie-local/run", root);
		}
		free(root);
	}
	if (cfg->pid_file != NULL)
		snprintf(out, outsz, "%s", cfg->pid_file);
	else
		snprintf(out, outsz, "%s/container-gateway.pid", dir);
	return 0;
}

/* pid held by the lock owner, 0 when not locked, -1 invalid content. */
static long
locked_pid(const char *path, int *fd_out)
{
	char buf[32];
	ssize_t n;
	long pid;
	char *end;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	*fd_out = -1;
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		/* nobody holds it: stale (cli.md §11.4) */
		unlink(path);
		close(fd);
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	*fd_out = fd;
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	if (n < 1 || n > 10)
		return -1;
	pid = strtol(buf, &end, 10);
	if (*end != '\0' || pid <= 1)
		return -1;
	return pid;
}

int
status_main(struct cg_config *cfg)
{
	char pidf[4200], dir[4200], ps[4300], ds[4300];
	struct stat st;
	int fd, hp, hd;
	long pid;

	if (pid_path(cfg, pidf, sizeof(pidf), dir, sizeof(dir)) < 0 ||
	    (pid = locked_pid(pidf, &fd)) <= 0) {
		puts("{\"running\": false, \"pid\": null, \"sockets\": {\"podman\": "
		    "null, \"docker\": null}, \"serving\": []}");
		return 3;
	}
	close(fd);
	snprintf(ps, sizeof(ps), "%s/podman.sock", dir);
	snprintf(ds, sizeof(ds), "%s/docker.sock", dir);
	hp = lstat(ps, &st) == 0 && S_ISSOCK(st.st_mode);
	hd = lstat(ds, &st) == 0 && S_ISSOCK(st.st_mode);
	printf("{\"running\": true, \"pid\": %ld, \"sockets\": {\"podman\": "
	    "%s%s%s, \"docker\": %s%s%s}, \"serving\": [%s%s%s]}\n", pid,
	    hp ? "\"" : "", hp ? ps : "null", hp ? "\"" : "",
	    hd ? "\"" : "", hd ? ds : "null", hd ? "\"" : "",
	    hp ? "\"podman\"" : "", hp && hd ? ", " : "", hd ? "\"docker\"" : "");
	return 0;
}

int
stop_main(struct cg_config *cfg)
{
	char pidf[4200], dir[4200], exe[64], cmd[4096];
	long pid;
	ssize_t n;
	int fd, i, cfd;
	const char *base;

	if (pid_path(cfg, pidf, sizeof(pidf), dir, sizeof(dir)) < 0) {
		printf("container-gateway: no project root at %s: nothing to stop\n",
		    cfg->project);
		return 0;
	}
	pid = locked_pid(pidf, &fd);
	if (pid == 0)
		return 0;
	if (pid < 0) {
		fprintf(stderr, "container-gateway: %s is locked but holds no valid "
		    "pid; refusing to signal\n", pidf);
		close(fd);
		return 1;
	}
	snprintf(exe, sizeof(exe), "/proc/%ld/cmdline", pid);
	cfd = open(exe, O_RDONLY | O_CLOEXEC);
	n = cfd >= 0 ? read(cfd, cmd, sizeof(cmd) - 1) : -1;
	if (cfd >= 0)
		close(cfd);
	if (n > 0) {
		cmd[n] = '\0';
		base = strrchr(cmd, '/') != NULL ? strrchr(cmd, '/') + 1 : cmd;
	} else {
		base = "";
	}
	if (strcmp(base, "container-gateway") != 0) {
		fprintf(stderr, "container-gateway: pid %ld does not look like a "
		    "container-gateway process; refusing to signal\n", pid);
		close(fd);
		return 1;
	}
	kill((pid_t)pid, SIGTERM);
	for (i = 0; i < 50; i++) {
		usleep(100000);
		if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
			close(fd);
			return 0;
		}
	}
	fprintf(stderr, "container-gateway: pid %ld still holds the lock 5s after "
	    "SIGTERM (pid_alive=%s)\n", pid, kill((pid_t)pid, 0) == 0 ? "true" :
	    "false");
	close(fd);
	return 1;
}
