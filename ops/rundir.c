/*
 * Project root, run directory, pid file, backend discovery (cli.md §4-§8).
 * Every filesystem step of start-up lives here, in the monitor.
 */
#include "ops/rundir.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "ops/instance.h"
#include "monitor/log.h"
#include "monitor/pin.h"
#include "ops/session.h"

#define SOCK_PATH_MAX	103	/* cli.md §5.4 */


/* Valid UTF-8 without control bytes (cli.md §4.2). */
static int
label_safe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p) {
		if (*p < 0x20 || *p == 0x7f)
			return 0;
		if (*p < 0x80) {
			p++;
			continue;
		}
		n = *p >= 0xf0 ? 3 : *p >= 0xe0 ? 2 : *p >= 0xc2 ? 1 : 0;
		if (n == 0 || *p > 0xf4)
			return 0;
		while (n-- > 0)
			if ((*++p & 0xc0) != 0x80)
				return 0;
		p++;
	}
	return 1;
}

/* Where the run directory is and which checks apply (cli.md §5.1, §5.3). */
enum loc_kind {
	LOC_CUSTOM,	/* --run-dir: parent resolved, only the run dir checked */
	LOC_ROOT,	/* below ROOT: adopted, main checkout, or read-only fallback */
	LOC_GIT,	/* below a git common dir outside the worktree */
};

struct loc {
	enum loc_kind kind;
	char anchor[CG_PATH_MAX + 1];	/* trust anchor of the chain */
	char common[CG_PATH_MAX + 1];	/* git common dir, "" when not git */
	char gitdir[CG_PATH_MAX + 1];	/* LOC_GIT: the worktree's gitdir */
	char id[CG_PATH_MAX + 1];	/* LOC_GIT: "main" or the worktree name */
	int fallback;			/* read-only: never servable (§5.1) */
};

/*
 * Create/check every component of dir below anchor, top-down, one at a
 * time, never "make parents" (cli.md §5.3). Read-only: stops at the
 * first missing component with RD_NO_RUNDIR.
 */
static int
make_chain(const char *anchor, const char *dir, int create)
{
	char path[CG_PATH_MAX + 1];
	size_t alen = strlen(anchor), i;
	int rc;

	if (strncmp(dir, anchor, alen) != 0 || dir[alen] != '/')
		return rd_refuse("run directory (%s) is not below %s; refusing", dir,
		    anchor);
	snprintf(path, sizeof(path), "%s", dir);
	for (i = alen + 1; ; i++) {
		if (path[i] == '/' || path[i] == '\0') {
			char save = path[i];

			path[i] = '\0';
			rc = rundir_component(path, save == '\0' ? "run directory" :
			    "run directory component", create);
			path[i] = save;
			if (rc != 0)
				return rc;
			if (save == '\0')
				return 0;
		}
	}
}

/* Read the first line of a regular file into out; 0 or -1. */
static int
read_line(const char *path, char *out, size_t outsz)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (f == NULL)
		return -1;
	if (fgets(out, (int)outsz, f) == NULL) {
		fclose(f);
		out[0] = '\0';
		return 0;	/* empty file */
	}
	fclose(f);
	n = strlen(out);
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r'))
		out[--n] = '\0';
	return 0;
}

static int
valid_worktree_id(const char *id)
{
	size_t i;

	if (id[0] == '\0' || strcmp(id, ".") == 0 || strcmp(id, "..") == 0)
		return 0;
	for (i = 0; id[i]; i++)
		if (!((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= 'A' && id[i] <= 'Z') ||
		    (id[i] >= '0' && id[i] <= '9') || strchr("._-", id[i]) != NULL))
			return 0;
	return 1;
}

/* realpath(rel against base) into out; 0, or -1 when it does not exist. */
static int
resolve_against(const char *base, const char *rel, char *out, size_t outsz)
{
	char tmp[2 * CG_PATH_MAX + 2], *rp;

	if (rel[0] == '/')
		snprintf(tmp, sizeof(tmp), "%s", rel);
	else
		snprintf(tmp, sizeof(tmp), "%s/%s", base, rel);
	rp = realpath(tmp, NULL);
	if (rp == NULL)
		return -1;
	snprintf(out, outsz, "%s", rp);
	free(rp);
	return 0;
}

/*
 * The run directory of a linked worktree or a submodule (cli.md §5.1 as
 * amended here): <runtime>/container-gateway/<id>-<hash of ROOT>, where
 * <runtime> is $XDG_RUNTIME_DIR, or /run for root without it. The spec's
 * <common>/apache-magpie/run/<id> lies in the main checkout's (or the
 * superproject's) .git, so containers that bind that checkout reached
 * the worktree's gateway; below the worktree itself is no better, as a
 * worktree often lies inside the main checkout (.claude/worktrees/...).
 * The id (cut to 24 bytes) is for people; the hash makes the name one
 * project's: two projects of a user share it only by a 64-bit collision,
 * and whoever could arrange one already runs as that user and reaches
 * both gateways' sockets anyway. <runtime> is the chain's trust anchor: a
 * directory owned by the effective uid and closed to others (tmpfs
 * /run/user/<uid> from a login session). Read-only (stop, status): a
 * missing or unusable <runtime> means never served.
 */
static int
runtime_run_dir(struct gateway *gw, struct loc *l, int create)
{
	const char *base = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if ((base == NULL || base[0] == '\0') && geteuid() == 0)
		base = "/run";
	/* what stop and status name when it cannot be used */
	snprintf(gw->run_dir, sizeof(gw->run_dir),
	    "$XDG_RUNTIME_DIR/container-gateway/%.24s-%016llx", l->id,
	    (unsigned long long)fnv1a64(gw->root));
	if (base == NULL || base[0] != '/') {
		if (!create)
			return RD_NO_RUNDIR;
		return rd_refuse("a linked worktree's run directory goes below "
		    "XDG_RUNTIME_DIR, which is %s (a login session sets it to "
		    "/run/user/<uid>); refusing (pass --run-dir)",
		    base == NULL || base[0] == '\0' ? "not set" :
		    "not an absolute path");
	}
	if (stat(base, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022) != 0) {
		if (!create)
			return RD_NO_RUNDIR;
		return rd_refuse("runtime directory (%s) is not a directory owned "
		    "by the current user and closed to others; refusing (pass "
		    "--run-dir)", base);
	}
	snprintf(l->anchor, sizeof(l->anchor), "%s", base);
	snprintf(gw->run_dir, sizeof(gw->run_dir),
	    "%s/container-gateway/%.24s-%016llx", strcmp(base, "/") == 0 ? "" :
	    base, l->id, (unsigned long long)fnv1a64(gw->root));
	return 0;
}

/*
 * Default run directory (cli.md §5.1). Fills gw->run_dir and l. serve
 * (create) refuses a non-repository and a bad worktree id; stop and status
 * fall back to <ROOT>/.apache-magpie-local/run read-only (l->fallback).
 */
static int
default_run_dir(struct gateway *gw, struct loc *l, int create)
{
	char p[CG_PATH_MAX + 32], line[CG_PATH_MAX + 16];
	const char *id;
	struct stat st;

	l->kind = LOC_ROOT;
	snprintf(l->anchor, sizeof(l->anchor), "%s", gw->root);
	snprintf(p, sizeof(p), "%s/.apache-magpie.lock", gw->root);
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(gw->run_dir, sizeof(gw->run_dir),
		    "%s/.apache-magpie-local/run", gw->root);
		return 0;
	}
	snprintf(p, sizeof(p), "%s/.git", gw->root);
	if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
		/* a symlinked .git is refused by the component check */
		snprintf(gw->run_dir, sizeof(gw->run_dir),
		    "%s/.git/apache-magpie/run/main", gw->root);
		snprintf(l->common, sizeof(l->common), "%s/.git", gw->root);
		return 0;
	}
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
	    read_line(p, line, sizeof(line)) == 0 &&
	    strncmp(line, "gitdir: ", 8) == 0 && line[8] != '\0' &&
	    resolve_against(gw->root, line + 8, l->gitdir, sizeof(l->gitdir)) == 0) {
		snprintf(p, sizeof(p), "%s/commondir", l->gitdir);
		if (read_line(p, line, sizeof(line)) == 0 && line[0] != '\0') {
			if (resolve_against(l->gitdir, line, l->common,
			    sizeof(l->common)) < 0)
				goto neither;
		} else {
			snprintf(l->common, sizeof(l->common), "%s", l->gitdir);
		}
		id = strcmp(l->gitdir, l->common) == 0 ? "main" :
		    strrchr(l->gitdir, '/') + 1;
		if (!valid_worktree_id(id)) {
			if (!create)
				goto neither;
			return rd_refuse("worktree git directory name '%s' is not "
			    "[A-Za-z0-9._-]+; refusing — pass --run-dir", id);
		}
		snprintf(l->id, sizeof(l->id), "%s", id);
		l->kind = LOC_GIT;
		return runtime_run_dir(gw, l, create);
	}
neither:
	if (create)
		return rd_refuse("%s has not adopted Magpie and is not a git "
		    "repository; pass --run-dir", gw->root);
	l->kind = LOC_ROOT;
	l->common[0] = l->gitdir[0] = '\0';
	l->fallback = 1;
	snprintf(gw->run_dir, sizeof(gw->run_dir), "%s/.apache-magpie-local/run",
	    gw->root);
	return 0;
}

/*
 * The git common dir of a worktree or submodule (cli.md §5.3): owned by
 * the real uid, not group/world-writable, with HEAD and objects/; for a
 * linked worktree the gitdir must be <common>/worktrees/<name> and point
 * back to <ROOT>/.git. Read-only. Returns 0 or RD_REFUSED.
 */
static int
check_git_common(const struct gateway *gw, const struct loc *l)
{
	char p[CG_PATH_MAX + 32], want[CG_PATH_MAX + 32], line[CG_PATH_MAX + 16],
	    back[CG_PATH_MAX + 1];
	struct stat st, st2;

	if (stat(l->common, &st) < 0 || !S_ISDIR(st.st_mode))
		return rd_refuse("git common directory (%s) has no HEAD file or "
		    "objects directory; refusing (pass --run-dir)", l->common);
	if (st.st_uid != getuid())
		return rd_refuse("git common directory (%s) is not owned by the "
		    "current user; refusing (pass --run-dir)", l->common);
	if (st.st_mode & 022)
		return rd_refuse("git common directory (%s) is group- or "
		    "world-writable; refusing (pass --run-dir)", l->common);
	snprintf(p, sizeof(p), "%s/HEAD", l->common);
	snprintf(want, sizeof(want), "%s/objects", l->common);
	if (stat(p, &st) < 0 || !S_ISREG(st.st_mode) || stat(want, &st2) < 0 ||
	    !S_ISDIR(st2.st_mode))
		return rd_refuse("git common directory (%s) has no HEAD file or "
		    "objects directory; refusing (pass --run-dir)", l->common);
	if (strcmp(l->gitdir, l->common) == 0)
		return 0;	/* a submodule: its gitdir is its common dir */
	snprintf(want, sizeof(want), "%s/worktrees/%s", l->common, l->id);
	if (strcmp(l->gitdir, want) != 0)
		return rd_refuse("worktree git directory (%s) is not %s; refusing "
		    "(pass --run-dir)", l->gitdir, want);
	snprintf(p, sizeof(p), "%s/gitdir", l->gitdir);
	snprintf(want, sizeof(want), "%s/.git", gw->root);
	if (read_line(p, line, sizeof(line)) < 0 || line[0] == '\0' ||
	    (strcmp(line, want) != 0 &&
	    (resolve_against(l->gitdir, line, back, sizeof(back)) < 0 ||
	    strcmp(back, want) != 0)))
		return rd_refuse("worktree git directory (%s) does not point back to "
		    "%s; refusing (pass --run-dir)", l->gitdir, want);
	return 0;
}

/*
 * cli.md §4.1-§4.2 and §5.1: ROOT and where the run directory is. Touches
 * nothing. Socket paths are checked against 103 bytes when create.
 */
static int
locate_paths(struct gateway *gw, struct loc *l, int create)
{
	struct cg_config *cfg = gw->cfg;
	char *rp;
	size_t n;
	int i, rc;

	memset(l, 0, sizeof(*l));
	rp = realpath(cfg->project, NULL);
	if (rp == NULL) {
		snprintf(gw->root, sizeof(gw->root), "%s", cfg->project);
		if (!create)
			return RD_NO_ROOT;
		return rd_refuse("project root (%s) does not exist", cfg->project);
	}
	snprintf(gw->root, sizeof(gw->root), "%s", rp);
	free(rp);
	if (!label_safe(gw->root))
		return rd_refuse("project root (%s) cannot be used as a label value; "
		    "refusing", gw->root);
	if (cfg->run_dir != NULL) {
		l->kind = LOC_CUSTOM;
		snprintf(gw->run_dir, sizeof(gw->run_dir), "%s", cfg->run_dir);
		n = strlen(gw->run_dir);
		while (n > 1 && gw->run_dir[n - 1] == '/')
			gw->run_dir[--n] = '\0';
	} else {
		rc = default_run_dir(gw, l, create);
		if (rc != 0)
			return rc;
	}
	/* §5.4, before anything is created */
	for (i = 0; i < CG_SOCKETS; i++) {
		char sp[CG_PATH_MAX + 32];

		n = (size_t)snprintf(sp, sizeof(sp), "%s/%s", gw->run_dir,
		    i == 0 ? "podman.sock" : "docker.sock");
		if (n > SOCK_PATH_MAX && create)
			return rd_refuse("socket path too long (%zu bytes > %d: %s); "
			    "pass a shorter --run-dir", n, SOCK_PATH_MAX, sp);
		if (n < sizeof(gw->lis[i].path))
			snprintf(gw->lis[i].path, sizeof(gw->lis[i].path), "%s", sp);
		gw->lis[i].socket_kind = i == 0 ? CG_PODMAN : CG_DOCKER;
	}
	if (cfg->pid_file != NULL)
		snprintf(gw->pid_file, sizeof(gw->pid_file), "%s", cfg->pid_file);
	else
		snprintf(gw->pid_file, sizeof(gw->pid_file),
		    "%s/container-gateway.pid", gw->run_dir);
	return 0;
}

/* cli.md §5.3: create (or only check) the chain of l. */
static int
check_chain(struct gateway *gw, const struct loc *l, int create)
{
	char parent[CG_PATH_MAX + 1], path[CG_PATH_MAX + 1], *slash, *rp;
	int rc;

	switch (l->kind) {
	case LOC_CUSTOM:
		snprintf(parent, sizeof(parent), "%s", gw->run_dir);
		slash = strrchr(parent, '/');
		if (slash == parent)
			slash[1] = '\0';
		else
			*slash = '\0';
		rp = realpath(parent, NULL);
		if (rp == NULL) {
			if (!create)
				return RD_NO_RUNDIR;
			return rd_refuse("the run directory's parent (%s) does not exist",
			    parent);
		}
		slash = strrchr(gw->run_dir, '/');
		snprintf(path, sizeof(path), "%s%s", strcmp(rp, "/") == 0 ? "" : rp,
		    slash);
		free(rp);
		rc = rundir_component(path, "run directory", create);
		break;
	case LOC_GIT:
		rc = check_git_common(gw, l);
		if (rc == 0)
			rc = make_chain(l->anchor, gw->run_dir, create);
		break;
	case LOC_ROOT:
	default:
		rc = make_chain(l->anchor, gw->run_dir, create);
		break;
	}
	if (rc != 0)
		return rc;
	rp = realpath(gw->run_dir, NULL);
	snprintf(gw->run_dir_resolved, sizeof(gw->run_dir_resolved), "%s",
	    rp != NULL ? rp : gw->run_dir);
	free(rp);
	return 0;
}

int
rundir_locate(struct gateway *gw, int create)
{
	struct loc l;
	int rc;

	rc = locate_paths(gw, &l, create);
	if (rc != 0)
		return rc;
	return check_chain(gw, &l, create);
}

/* Is the pid lock held by another process? Retries briefly (see below). */
static int
lock_busy(const char *pid_file)
{
	int fd, i, busy = 0;

	fd = open(pid_file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	/*
	 * stop and status hold the lock for a few microseconds when they find
	 * it free; a real instance holds it for its whole life. Retrying for
	 * 200 ms keeps a concurrent status from turning a start into a no-op.
	 */
	for (i = 0; i < 10; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			close(fd);
			return 0;
		}
		busy = errno == EWOULDBLOCK;
		if (!busy)
			break;
		usleep(20000);
	}
	close(fd);
	return busy;
}

int
rundir_prepare(struct gateway *gw)
{
	struct cg_config *cfg = gw->cfg;
	struct loc l;
	char *rp;
	struct stat st;
	size_t off;
	int i, rc;

	/* step 2: ROOT, run directory, socket lengths, extra bind roots */
	rc = locate_paths(gw, &l, 1);
	if (rc != 0)
		return rc;
	gw->bind_roots[gw->nbind_roots++] = xstrdup(gw->root);
	off = (size_t)snprintf(gw->bind_roots_text, sizeof(gw->bind_roots_text),
	    "%s", gw->root);
	for (i = 0; i < cfg->nextra_roots; i++) {
		rp = realpath(cfg->extra_roots[i], NULL);
		if (rp == NULL || stat(rp, &st) < 0 || !S_ISDIR(st.st_mode)) {
			free(rp);
			return rd_refuse("extra bind root (%s) is not an existing "
			    "directory", cfg->extra_roots[i]);
		}
		gw->bind_roots[gw->nbind_roots++] = rp;
		if (off < sizeof(gw->bind_roots_text))
			off += (size_t)snprintf(gw->bind_roots_text + off,
			    sizeof(gw->bind_roots_text) - off, ", %s", rp);
	}
	/* step 3: create and check the chain */
	rc = check_chain(gw, &l, 1);
	if (rc != 0)
		return rc;
	/* excluded roots (policy.md §4.4); and the pins' staging directory
	   (another project's pinned sources; monitor/pin.h) */
	gw->excluded[gw->nexcluded++] = xstrdup(gw->run_dir_resolved);
	gw->excluded[gw->nexcluded++] = xstrdup(PIN_BASE);
	if (asprintf(&gw->excluded[gw->nexcluded], "%s/.apache-magpie-local",
	    gw->root) < 0)
		xoom();
	gw->nexcluded++;
	if (l.common[0] != '\0' && cfg->run_dir == NULL) {
		if (asprintf(&gw->excluded[gw->nexcluded], "%s/apache-magpie",
		    l.common) < 0)
			xoom();
		gw->nexcluded++;
	}
	/* the chroot of the request parsers (privsep.md §4 step 2) */
	snprintf(gw->sandbox_dir, sizeof(gw->sandbox_dir), "%s/.sandbox",
	    gw->run_dir);
	if (geteuid() == 0) {
		if (mkdir(gw->sandbox_dir, 0500) < 0 && errno != EEXIST)
			return rd_refuse("cannot create %s: %s", gw->sandbox_dir,
			    strerror(errno));
		if (lstat(gw->sandbox_dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
		    st.st_uid != 0 || (st.st_mode & 0222) != 0)
			return rd_refuse("%s is not an empty root-owned read-only "
			    "directory; refusing", gw->sandbox_dir);
	}
	/* a session joins before the probe: a stop in between keeps it */
	if (cfg->session != NULL && (rc = session_join(gw)) != 0)
		return rc;
	/* step 4: a running instance makes this start a no-op (it says so) */
	if (lock_busy(gw->pid_file)) {
		instance_report(gw);
		return RD_BUSY;
	}
	return 0;
}

/* INFO lock-lost (cli.md §7 step 6, §14.2: field pid_file). */
static void
log_lock_lost(const char *pid_file)
{
	char *q = log_quote(pid_file, strlen(pid_file)), *msg;
	struct log_field f[] = { LF_STR("pid_file", pid_file) };

	if (asprintf(&msg, "another instance already holds the pid lock at %s; "
	    "exiting", q) < 0)
		xoom();
	log_event(LOG_INFO, "lock-lost", msg, f, 1);
	free(msg);
	free(q);
}

int
rundir_take_pid(struct gateway *gw)
{
	struct stat fst, pst;
	char buf[32];
	int fd, n, attempt, tries;

	for (attempt = 0; attempt < 5; attempt++) {
		/* no O_TRUNC: a losing contender never blanks the winner's pid */
		fd = open(gw->pid_file, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK, 0600);
		if (fd < 0) {
			if (errno == ELOOP)
				return rd_refuse("%s is a symlink; refusing", gw->pid_file);
			fprintf(stderr, "container-gateway: cannot open %s: %s\n",
			    gw->pid_file, strerror(errno));
			return 1;
		}
		if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode) ||
		    fst.st_uid != geteuid()) {
			close(fd);
			return rd_refuse("%s is not a plain, owned, 0600 pid file; "
			    "refusing", gw->pid_file);
		}
		for (tries = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; tries++) {
			if (errno != EWOULDBLOCK || tries == 10) {
				close(fd);
				log_lock_lost(gw->pid_file);
				return RD_BUSY;
			}
			usleep(20000);	/* a stop/status probing it, see lock_busy */
		}
		/* a stale-file removal may have unlinked what we locked: retry */
		if (lstat(gw->pid_file, &pst) == 0 && pst.st_dev == fst.st_dev &&
		    pst.st_ino == fst.st_ino)
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		fprintf(stderr, "container-gateway: %s keeps changing; cannot take "
		    "the lock\n", gw->pid_file);
		return 1;
	}
	fcntl(fd, F_SETFL, 0);
	if ((fst.st_mode & 07777) != 0600)
		(void)fchmod(fd, 0600);
	n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)n, 0) != n ||
	    fsync(fd) < 0) {
		fprintf(stderr, "container-gateway: cannot write %s: %s\n",
		    gw->pid_file, strerror(errno));
		close(fd);
		return 1;
	}
	gw->pid_fd = fd;
	return 0;
}

void
rundir_free(struct gateway *gw)
{
	while (gw->nbind_roots > 0)
		free(gw->bind_roots[--gw->nbind_roots]);
	while (gw->nexcluded > 0)
		free(gw->excluded[--gw->nexcluded]);
}

void
rundir_release_pid(struct gateway *gw)
{
	if (gw->pid_fd < 0)
		return;
	instance_forget(gw);
	unlink(gw->pid_file);
	close(gw->pid_fd);
	gw->pid_fd = -1;
}

