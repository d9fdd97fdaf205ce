/*
 * The pinner (monitor/pin.h; doc/privsep.md "The pinner"): the one
 * process of the gateway that mounts. Forked by the monitor at start-up,
 * before the monitor drops its capabilities; it keeps CAP_SYS_ADMIN (the
 * mounts) and CAP_DAC_OVERRIDE (a missing source directory is created in
 * a project directory root does not own, as the daemons would create it),
 * and a seccomp filter of its own (seccomp/pinner.c). It never sees a
 * client byte: its only input is the monitor's fixed-size requests, and
 * it checks each again (pin_name_ok, pin_path_ok, no symlink on the way).
 */
#include "monitor/pin.h"

#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "monitor/confine.h"
#include "seccomp/filter.h"

int
pin_name_ok(const char *name)
{
	size_t i;

	for (i = 0; name[i] != '\0'; i++)
		if (i >= PIN_NAME_MAX || !((name[i] >= '0' && name[i] <= '9') ||
		    (name[i] >= 'a' && name[i] <= 'z') || name[i] == '-'))
			return 0;
	return i > 0 && name[0] != '-';
}

/* path equal to or below base (both clean, absolute), on a '/' boundary. */
static int
at_or_below(const char *path, const char *base)
{
	size_t n = strlen(base);

	if (strcmp(base, "/") == 0)
		return 1;
	return strncmp(path, base, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

int
pin_path_ok(const struct pinner_conf *conf, const char *path)
{
	const char *c;
	size_t n, len = strnlen(path, CG_PATH_MAX + 1);
	int i, in = 0;

	if (len > CG_PATH_MAX || path[0] != '/')
		return 0;
	if (len > 1)
		for (c = path + 1; ; c += n + 1) {
			n = strcspn(c, "/");
			if (n == 0 || (n == 1 && c[0] == '.') ||
			    (n == 2 && c[0] == '.' && c[1] == '.'))
				return 0;
			if (c[n] == '\0')
				break;
		}
	for (i = 0; i < conf->nroots; i++)
		in |= at_or_below(path, conf->roots[i]);
	for (i = 0; i < conf->nexcluded; i++)
		if (at_or_below(path, conf->excluded[i]))
			return 0;
	return in && !at_or_below(path, conf->base) &&
	    !at_or_below(conf->base, path);
}

static void
answer_fail(struct pin_msg *ans, const char *step, int err)
{
	ans->err = err != 0 ? err : EIO;
	snprintf(ans->why, sizeof(ans->why), "%s", step);
}

/*
 * Create (0700) or check one directory of the staging chain: a real
 * directory, owned by root, not group- or world-writable. -errno.
 */
static int
staging_dir(const char *path, char *why, size_t whysz)
{
	struct stat st;

	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		snprintf(why, whysz, "mkdir %s", path);
		return -errno;
	}
	if (lstat(path, &st) < 0) {
		snprintf(why, whysz, "lstat %s", path);
		return -errno;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, whysz, "%s is not a directory owned by root and "
		    "writable only by it", path);
		return -EPERM;
	}
	return 0;
}

/*
 * The pins of key directory dir (below pins/, named name) whose recorded
 * run directory no longer exists: unmounted and removed with the
 * directory. Before the pinner's filter (it reads and lists). Returns how
 * many pins went.
 */
static unsigned
reclaim_dead(int pinsfd, const char *pins, const char *name)
{
	char rundir[CG_PATH_MAX + 1], path[2 * CG_PATH_MAX + 2 * PIN_NAME_MAX];
	struct dirent *d;
	struct stat st;
	unsigned n = 0;
	ssize_t len;
	int fd, dfd;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/.rundir", name);
	fd = openat(pinsfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* no record: not ours to judge */
	len = read(fd, rundir, sizeof(rundir) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	rundir[len] = '\0';
	if (rundir[0] != '/' || stat(rundir, &st) == 0 || errno != ENOENT)
		return 0;
	dfd = openat(pinsfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (dfd < 0 || (dir = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	while ((d = readdir(dir)) != NULL) {
		if (!pin_name_ok(d->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", pins, name, d->d_name);
		(void)umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW);
		if (unlinkat(dirfd(dir), d->d_name, AT_REMOVEDIR) == 0 ||
		    unlinkat(dirfd(dir), d->d_name, 0) == 0)
			n++;
	}
	(void)unlinkat(dirfd(dir), ".rundir", 0);
	closedir(dir);
	(void)unlinkat(pinsfd, name, AT_REMOVEDIR);
	return n;
}

int
pinner_setup(const struct pinner_conf *conf, char *why, size_t whysz,
    unsigned *reclaimed)
{
	char path[CG_PATH_MAX + PIN_NAME_MAX + 16];
	struct dirent *d;
	unsigned n = 0;
	int rc, fd, rd, pinsfd;
	DIR *dir;

	if (!pin_name_ok(conf->key)) {
		snprintf(why, whysz, "invalid key");
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s", conf->base);
	if ((rc = staging_dir(path, why, whysz)) < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/pins", conf->base);
	if ((rc = staging_dir(path, why, whysz)) < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/pins/%s", conf->base, conf->key);
	if ((rc = staging_dir(path, why, whysz)) < 0)
		return rc;
	fd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whysz, "open %s", path);
		return -errno;
	}
	/* whose pins these are: the next pinners may reclaim them */
	snprintf(path, sizeof(path), "%s/pins/%s/.rundir", conf->base,
	    conf->key);
	rd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (rd >= 0) {
		(void)!write(rd, conf->rundir, strlen(conf->rundir));
		close(rd);
	}
	snprintf(path, sizeof(path), "%s/pins", conf->base);
	pinsfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pinsfd >= 0 && (dir = fdopendir(pinsfd)) != NULL) {
		while ((d = readdir(dir)) != NULL)
			if (pin_name_ok(d->d_name) &&
			    strcmp(d->d_name, conf->key) != 0)
				n += reclaim_dead(dirfd(dir), path, d->d_name);
		closedir(dir);
	} else if (pinsfd >= 0) {
		close(pinsfd);
	}
	if (reclaimed != NULL)
		*reclaimed = n;
	return fd;
}

/*
 * Open path (pin_path_ok) one component at a time, never following a
 * symlink; with create, missing directories are made (0755, root's, as
 * podman's and dockerd's MkdirAll would) on the way and at the end.
 * Returns an O_PATH descriptor of the source, or -errno with the step.
 */
static int
walk(const char *path, int create, const char **step)
{
	char comp[CG_PATH_MAX + 1];
	const char *c = path + 1;
	size_t n;
	int fd, nfd, last;
	struct stat st;

	*step = "open /";
	fd = openat(AT_FDCWD, "/", CG_PIN_OPEN_WALK);
	if (fd < 0)
		return -errno;
	while (*c != '\0') {
		n = strcspn(c, "/");
		memcpy(comp, c, n);
		comp[n] = '\0';
		last = c[n] == '\0';
		c += n + (last ? 0 : 1);
		*step = "open a component";
		nfd = openat(fd, comp, last ? CG_PIN_OPEN_LAST : CG_PIN_OPEN_WALK);
		if (nfd < 0 && errno == ENOENT && create) {
			*step = "create a missing directory";
			if (mkdirat(fd, comp, 0755) < 0 && errno != EEXIST) {
				nfd = -errno;
				close(fd);
				return nfd;
			}
			*step = "open a component";
			nfd = openat(fd, comp, CG_PIN_OPEN_WALK);
		}
		if (nfd < 0) {
			/* a symlink on the way: O_DIRECTORY|O_NOFOLLOW -> ENOTDIR */
			nfd = -errno;
			close(fd);
			return nfd;
		}
		close(fd);
		fd = nfd;
	}
	*step = "fstat the source";
	if (fstat(fd, &st) < 0) {
		nfd = -errno;
		close(fd);
		return nfd;
	}
	if (S_ISLNK(st.st_mode)) {
		*step = "the source is a symlink now";
		close(fd);
		return -ELOOP;
	}
	return fd;
}

/* PIN: bind the source at <key>/<name>. */
static void
do_pin(const struct pinner_conf *conf, int keyfd, const struct pin_msg *req,
    struct pin_msg *ans)
{
	char target[CG_PATH_MAX + 2 * PIN_NAME_MAX + 16], proc[40];
	const char *step;
	struct stat st;
	int src, tree, fd, dir, rc = 0;

	if (!pin_name_ok(req->name) || !pin_path_ok(conf, req->path)) {
		answer_fail(ans, "not a pin name or a pinnable path", EINVAL);
		return;
	}
	src = walk(req->path, (req->flags & PIN_F_CREATE) != 0, &step);
	if (src < 0) {
		answer_fail(ans, step, -src);
		return;
	}
	if (fstat(src, &st) < 0) {
		answer_fail(ans, "fstat the source", errno);
		close(src);
		return;
	}
	dir = S_ISDIR(st.st_mode);
	if (dir)
		rc = mkdirat(keyfd, req->name, 0700);
	else if ((fd = openat(keyfd, req->name, CG_PIN_OPEN_MKFILE, 0600)) >= 0)
		close(fd);
	else
		rc = -1;
	if (rc < 0) {
		answer_fail(ans, "make the mount point", errno);
		close(src);
		return;
	}
	snprintf(target, sizeof(target), "%s/pins/%s/%s", conf->base, conf->key,
	    req->name);
	tree = conf->no_open_tree ? -1 : (int)syscall(SYS_open_tree, src, "",
	    CG_PIN_OPEN_TREE);
	if (tree >= 0) {
		rc = (int)syscall(SYS_move_mount, tree, "", keyfd, req->name,
		    MOVE_MOUNT_F_EMPTY_PATH);
		step = "move_mount";
		close(tree);
	} else if (conf->no_open_tree || errno == ENOSYS) {
		/* before Linux 5.2: the magic link names the opened source */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", src);
		rc = mount(proc, target, NULL, MS_BIND | MS_REC, NULL);
		step = "mount --bind";
	} else {
		rc = -1;
		step = "open_tree";
	}
	if (rc < 0) {
		answer_fail(ans, step, errno);
		(void)unlinkat(keyfd, req->name, dir ? AT_REMOVEDIR : 0);
	} else {
		ans->flags = dir ? PIN_F_DIR : 0;
	}
	close(src);
}

/* UNPIN: detach <key>/<name> and remove the mount point. */
static void
do_unpin(const struct pinner_conf *conf, int keyfd, const struct pin_msg *req,
    struct pin_msg *ans)
{
	char target[CG_PATH_MAX + 2 * PIN_NAME_MAX + 16];

	if (!pin_name_ok(req->name)) {
		answer_fail(ans, "not a pin name", EINVAL);
		return;
	}
	snprintf(target, sizeof(target), "%s/pins/%s/%s", conf->base, conf->key,
	    req->name);
	/* EINVAL: not a mount (any more); the mount point still goes */
	if (umount2(target, MNT_DETACH | UMOUNT_NOFOLLOW) < 0 &&
	    errno != EINVAL && errno != ENOENT) {
		answer_fail(ans, "umount", errno);
		return;
	}
	if (unlinkat(keyfd, req->name, AT_REMOVEDIR) < 0 &&
	    (errno != ENOTDIR || unlinkat(keyfd, req->name, 0) < 0) &&
	    errno != ENOENT)
		answer_fail(ans, "remove the mount point", errno);
}

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* LIST: the pin names under the key directory, from req->start on. */
static void
do_list(int keyfd, const struct pin_msg *req, struct pin_msg *ans)
{
	char buf[4096];
	struct linux_dirent64 *d;
	size_t used = 0, len;
	uint32_t seen = 0;
	long n, off;
	int fd;

	fd = openat(keyfd, ".", CG_PIN_OPEN_LIST);
	if (fd < 0) {
		answer_fail(ans, "open the key directory", errno);
		return;
	}
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; off += d->d_reclen) {
			d = (struct linux_dirent64 *)(void *)(buf + off);
			if (!pin_name_ok(d->d_name) || seen++ < req->start)
				continue;
			len = strlen(d->d_name);
			if (used + len + 2 > sizeof(ans->path)) {
				ans->flags = PIN_F_MORE;
				goto out;
			}
			memcpy(ans->path + used, d->d_name, len);
			used += len;
			ans->path[used++] = '\n';
			ans->path[used] = '\0';
		}
	}
	if (n < 0)
		answer_fail(ans, "read the key directory", errno);
out:
	close(fd);
}

void
pinner_handle(const struct pinner_conf *conf, int keyfd,
    const struct pin_msg *req, struct pin_msg *ans)
{
	memset(ans, 0, sizeof(*ans));
	ans->magic = PIN_MAGIC;
	ans->op = PIN_OP_ANSWER;
	ans->seq = req->seq;
	if (req->magic != PIN_MAGIC ||
	    memchr(req->name, '\0', sizeof(req->name)) == NULL ||
	    memchr(req->path, '\0', sizeof(req->path)) == NULL) {
		answer_fail(ans, "malformed request", EINVAL);
		return;
	}
	switch (req->op) {
	case PIN_OP_PIN:
		do_pin(conf, keyfd, req, ans);
		break;
	case PIN_OP_UNPIN:
		do_unpin(conf, keyfd, req, ans);
		break;
	case PIN_OP_LIST:
		do_list(keyfd, req, ans);
		break;
	default:
		answer_fail(ans, "unknown request", EINVAL);
		break;
	}
}

/* Send READY: err 0 (and the pins reclaimed), or what failed. */
static void
ready(int fd, int err, const char *why, unsigned reclaimed)
{
	struct pin_msg m;

	memset(&m, 0, sizeof(m));
	m.magic = PIN_MAGIC;
	m.op = PIN_OP_READY;
	m.err = err;
	m.start = reclaimed;
	snprintf(m.why, sizeof(m.why), "%s", why);
	(void)send(fd, &m, sizeof(m), MSG_NOSIGNAL);
}

/* The pinner's life after the fork; never returns. */
static void __attribute__((noreturn))
pinner_main(const struct pinner_conf *conf, int fd, pid_t parent)
{
	static struct pin_msg req, ans;
	static const cap_value_t keep[] = { CAP_SYS_ADMIN, CAP_DAC_OVERRIDE };
	struct confine_result cr;
	sigset_t all;
	char why[160] = "";
	unsigned reclaimed = 0;
	ssize_t n;
	int keyfd, rc;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(1);
	(void)prctl(PR_SET_NAME, "cg-pinner");
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	umask(022);
	keyfd = pinner_setup(conf, why, sizeof(why), &reclaimed);
	if (keyfd < 0) {
		ready(fd, -keyfd, why, 0);
		_exit(1);
	}
	if (confine_keep_caps(keep, 2, &cr) < 0) {
		snprintf(why, sizeof(why), "%s", cr.step);
		ready(fd, cr.err, why, 0);
		_exit(1);
	}
	/* valgrind's own calls would be refused (as for the monitor) */
	rc = confine_under_valgrind() ? 0 : cg_seccomp_load_pinner();
	if (rc < 0) {
		ready(fd, -rc, "seccomp", 0);
		_exit(1);
	}
	/*
	 * The filter's build (libseccomp) and the set-up freed their memory
	 * in small chunks, and nothing is allocated from here on: give the
	 * free pages back (madvise with malloc's advice, in the filter), or
	 * the pinner kept them resident for the gateway's life (idle PSS,
	 * bench/bench.py).
	 */
	(void)malloc_trim(0);
	ready(fd, 0, "", reclaimed);
	for (;;) {
		n = recv(fd, &req, sizeof(req), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			_exit(0);	/* the monitor is gone or done */
		if (n != (ssize_t)sizeof(req) || req.magic != PIN_MAGIC)
			_exit(3);	/* not the monitor's protocol */
		pinner_handle(conf, keyfd, &req, &ans);
		if (send(fd, &ans, sizeof(ans), MSG_NOSIGNAL) < 0)
			_exit(0);
	}
}

pid_t
pinner_start(const struct pinner_conf *conf, int *fd)
{
	pid_t parent = getpid(), pid;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		/* only its socket (as 3) and 0-2 stay */
		if (dup2(sv[1], 3) < 0)
			_exit(1);
		close_range(4, ~0U, 0);
		pinner_main(conf, 3, parent);
	}
	close(sv[1]);
	*fd = sv[0];
	return pid;
}
