/*
 * Project root, run directory, pid file, backend discovery (cli.md §4-§8).
 * Every filesystem step of start-up lives here, in the monitor.
 */
#include "monitor/rundir.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ipc/xmalloc.h"
#include "monitor/log.h"

#define SOCK_PATH_MAX	103	/* cli.md §5.4 */

static int
refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
refuse(const char *fmt, ...)
{
	va_list ap;

	fputs("container-gateway: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

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

/*
 * Check one directory component (cli.md §5.3); create it when create
 * and missing. Returns 0, 1 when missing (read-only), 2 after a refusal.
 */
static int
check_component(const char *path, const char *label, int create)
{
	struct stat st;

	for (;;) {
		if (lstat(path, &st) == 0)
			break;
		if (errno != ENOENT)
			return refuse("%s (%s) cannot be inspected: %s; refusing",
			    label, path, strerror(errno));
		if (!create)
			return 1;
		if (mkdir(path, 0700) == 0 || errno == EEXIST)
			continue;	/* a lost race re-checks what is there */
		return refuse("%s (%s) cannot be created: %s; refusing", label,
		    path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return refuse("%s (%s) is a symlink; refusing", label, path);
	if (!S_ISDIR(st.st_mode))
		return refuse("%s (%s) is not a directory; refusing", label, path);
	if (st.st_uid != geteuid())
		return refuse("%s (%s) is not owned by the current user; refusing",
		    label, path);
	if (st.st_mode & 022)
		return refuse("%s (%s) is group- or world-writable; refusing",
		    label, path);
	return 0;
}

/* Create/check every component of dir below anchor (cli.md §5.3). */
static int
make_chain(const char *anchor, const char *dir, int create)
{
	char path[CG_PATH_MAX + 1];
	size_t alen = strlen(anchor), i;
	int rc;

	if (strncmp(dir, anchor, alen) != 0 || dir[alen] != '/')
		return refuse("run directory (%s) is not below %s; refusing", dir,
		    anchor);
	snprintf(path, sizeof(path), "%s", dir);
	for (i = alen + 1; ; i++) {
		if (path[i] == '/' || path[i] == '\0') {
			char save = path[i];

			path[i] = '\0';
			rc = check_component(path, save == '\0' ? "run directory" :
			    "run directory component", create);
			path[i] = save;
			if (rc != 0)
				return rc;
			if (save == '\0')
				return 0;
		}
	}
}

/* Read the first line of a file into out; 0 or -1. */
static int
read_line(const char *path, char *out, size_t outsz)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (f == NULL)
		return -1;
	if (fgets(out, (int)outsz, f) == NULL) {
		fclose(f);
		return -1;
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

/*
 * Default run directory (cli.md §5.1). Fills gw->run_dir and the anchor;
 * returns 0, or 2 after a refusal.
 */
static int
default_run_dir(struct gateway *gw, char *anchor, size_t anchorsz,
    char *common_out)
{
	char p[CG_PATH_MAX + 1], line[CG_PATH_MAX + 16], gitdir[CG_PATH_MAX + 1],
	    common[CG_PATH_MAX + 1], tmp[2 * CG_PATH_MAX + 2], *rp;
	const char *id;
	struct stat st;

	common_out[0] = '\0';
	snprintf(p, sizeof(p), "%s/.apache-magpie.lock", gw->root);
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(gw->run_dir, sizeof(gw->run_dir),
		    "%s/.apache-magpie-local/run", gw->root);
		snprintf(anchor, anchorsz, "%s", gw->root);
		return 0;
	}
	snprintf(p, sizeof(p), "%s/.git", gw->root);
	if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(gw->run_dir, sizeof(gw->run_dir),
		    "%s/.git/apache-magpie/run/main", gw->root);
		snprintf(anchor, anchorsz, "%s", gw->root);
		snprintf(common_out, CG_PATH_MAX + 1, "%s/.git", gw->root);
		return 0;
	}
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
	    read_line(p, line, sizeof(line)) == 0 &&
	    strncmp(line, "gitdir: ", 8) == 0) {
		if (line[8] == '/')
			snprintf(tmp, sizeof(tmp), "%s", line + 8);
		else
			snprintf(tmp, sizeof(tmp), "%s/%s", gw->root, line + 8);
		rp = realpath(tmp, NULL);
		if (rp != NULL) {
			snprintf(gitdir, sizeof(gitdir), "%s", rp);
			free(rp);
			snprintf(tmp, sizeof(tmp), "%s/commondir", gitdir);
			if (read_line(tmp, line, sizeof(line)) == 0 && line[0] != '\0') {
				if (line[0] == '/')
					snprintf(tmp, sizeof(tmp), "%s", line);
				else
					snprintf(tmp, sizeof(tmp), "%s/%s", gitdir, line);
				rp = realpath(tmp, NULL);
				if (rp == NULL)
					goto neither;
				snprintf(common, sizeof(common), "%s", rp);
				free(rp);
			} else {
				snprintf(common, sizeof(common), "%s", gitdir);
			}
			id = strcmp(gitdir, common) == 0 ? "main" :
			    strrchr(gitdir, '/') + 1;
			if (!valid_worktree_id(id))
				return refuse("worktree git directory name '%s' is not "
				    "[A-Za-z0-9._-]+; refusing — pass --run-dir", id);
			snprintf(gw->run_dir, sizeof(gw->run_dir),
			    "%s/apache-magpie/run/%s", common, id);
			snprintf(anchor, anchorsz, "%s", common);
			snprintf(common_out, CG_PATH_MAX + 1, "%s", common);
			return 0;
		}
	}
neither:
	return refuse("%s has not adopted Magpie and is not a git repository; "
	    "pass --run-dir", gw->root);
}

int
rundir_prepare(struct gateway *gw)
{
	struct cg_config *cfg = gw->cfg;
	char anchor[CG_PATH_MAX + 1], common[CG_PATH_MAX + 1], *rp, *parent, *slash;
	struct stat st;
	size_t off;
	int i, rc, fd;

	rp = realpath(cfg->project, NULL);
	if (rp == NULL)
		return refuse("project root (%s) does not exist", cfg->project);
	snprintf(gw->root, sizeof(gw->root), "%s", rp);
	free(rp);
	if (!label_safe(gw->root))
		return refuse("project root (%s) cannot be used as a label value; "
		    "refusing", gw->root);
	if (cfg->run_dir != NULL) {
		snprintf(gw->run_dir, sizeof(gw->run_dir), "%s", cfg->run_dir);
		parent = xstrdup(gw->run_dir);
		slash = strrchr(parent, '/');
		if (slash == parent)
			slash[1] = '\0';
		else
			*slash = '\0';
		rp = realpath(parent, NULL);
		if (rp == NULL) {
			rc = refuse("the run directory's parent (%s) does not exist",
			    parent);
			free(parent);
			return rc;
		}
		free(parent);
		snprintf(anchor, sizeof(anchor), "%s", rp);
		free(rp);
		common[0] = '\0';
	} else {
		rc = default_run_dir(gw, anchor, sizeof(anchor), common);
		if (rc != 0)
			return rc;
	}
	/* §5.4 before anything is created */
	for (i = 0; i < CG_SOCKETS; i++) {
		char sp[CG_PATH_MAX + 32];
		size_t n = (size_t)snprintf(sp, sizeof(sp), "%s/%s", gw->run_dir,
		    i == 0 ? "podman.sock" : "docker.sock");

		if (n > SOCK_PATH_MAX)
			return refuse("socket path too long (%zu bytes > %d: %s); "
			    "pass a shorter --run-dir", n, SOCK_PATH_MAX, sp);
		snprintf(gw->lis[i].path, sizeof(gw->lis[i].path), "%s", sp);
		gw->lis[i].socket_kind = i == 0 ? CG_PODMAN : CG_DOCKER;
	}
	/* extra bind roots (§4 item 4) */
	gw->bind_roots[gw->nbind_roots++] = xstrdup(gw->root);
	off = (size_t)snprintf(gw->bind_roots_text, sizeof(gw->bind_roots_text),
	    "%s", gw->root);
	for (i = 0; i < cfg->nextra_roots; i++) {
		rp = realpath(cfg->extra_roots[i], NULL);
		if (rp == NULL || stat(rp, &st) < 0 || !S_ISDIR(st.st_mode)) {
			free(rp);
			return refuse("extra bind root (%s) is not an existing "
			    "directory", cfg->extra_roots[i]);
		}
		gw->bind_roots[gw->nbind_roots++] = rp;
		if (off < sizeof(gw->bind_roots_text))
			off += (size_t)snprintf(gw->bind_roots_text + off,
			    sizeof(gw->bind_roots_text) - off, ", %s", rp);
	}
	/* §5.3: create and check the chain */
	if (cfg->run_dir != NULL) {
		slash = strrchr(gw->run_dir, '/');
		snprintf(common, sizeof(common), "%s%s", anchor, slash);
		snprintf(gw->run_dir, sizeof(gw->run_dir), "%s", common);
		rc = check_component(gw->run_dir, "run directory", 1);
		common[0] = '\0';
	} else {
		rc = make_chain(anchor, gw->run_dir, 1);
	}
	if (rc != 0)
		return rc;
	rp = realpath(gw->run_dir, NULL);
	snprintf(gw->run_dir_resolved, sizeof(gw->run_dir_resolved), "%s",
	    rp != NULL ? rp : gw->run_dir);
	free(rp);
	/* excluded roots (policy.md §4.4) */
	gw->excluded[gw->nexcluded++] = xstrdup(gw->run_dir_resolved);
	if (asprintf(&gw->excluded[gw->nexcluded], "%s/.apache-magpie-local",
	    gw->root) < 0)
		xoom();
	gw->nexcluded++;
	if (common[0] != '\0') {
		if (asprintf(&gw->excluded[gw->nexcluded], "%s/apache-magpie",
		    common) < 0)
			xoom();
		gw->nexcluded++;
	}
	/* the chroot of the request parsers (privsep.md §4 step 2) */
	snprintf(gw->sandbox_dir, sizeof(gw->sandbox_dir), "%s/.sandbox",
	    gw->run_dir);
	if (geteuid() == 0) {
		if (mkdir(gw->sandbox_dir, 0500) < 0 && errno != EEXIST)
			return refuse("cannot create %s: %s", gw->sandbox_dir,
			    strerror(errno));
		if (lstat(gw->sandbox_dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
		    st.st_uid != 0 || (st.st_mode & 0222) != 0)
			return refuse("%s is not an empty root-owned read-only "
			    "directory; refusing", gw->sandbox_dir);
	}
	if (cfg->pid_file != NULL)
		snprintf(gw->pid_file, sizeof(gw->pid_file), "%s", cfg->pid_file);
	else
		snprintf(gw->pid_file, sizeof(gw->pid_file),
		    "%s/container-gateway.pid", gw->run_dir);
	/* §7 step 4: a running instance makes this start a no-op */
	fd = open(gw->pid_file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		if (flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
			close(fd);
			return 3;
		}
		close(fd);
	}
	return 0;
}

int
rundir_take_pid(struct gateway *gw)
{
	char buf[32];
	int fd, n;

	fd = open(gw->pid_file, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, "container-gateway: cannot open %s: %s\n",
		    gw->pid_file, strerror(errno));
		return 1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);
		log_msg(LOG_INFO, "lock-lost", "another instance already holds the "
		    "pid lock at %s; exiting", gw->pid_file);
		return 3;
	}
	n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) < 0 || write(fd, buf, (size_t)n) != n || fsync(fd) < 0) {
		close(fd);
		return 1;
	}
	gw->pid_fd = fd;
	return 0;
}

void
rundir_release_pid(struct gateway *gw)
{
	if (gw->pid_fd < 0)
		return;
	unlink(gw->pid_file);
	close(gw->pid_fd);
	gw->pid_fd = -1;
}

static int
is_socket(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* One of the gateway's own sockets, with its directory resolved (§8.1). */
static int
is_own_socket(const struct gateway *gw, const char *path)
{
	char dir[CG_PATH_MAX + 1], *slash, *rp;
	int own = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		return 0;
	*slash = '\0';
	rp = realpath(dir[0] ? dir : "/", NULL);
	if (rp != NULL && strcmp(rp, gw->run_dir_resolved) == 0 &&
	    (strcmp(slash + 1, "podman.sock") == 0 ||
	    strcmp(slash + 1, "docker.sock") == 0))
		own = 1;
	free(rp);
	return own;
}

/* First candidate that is a socket and not our own; NULL when none. */
static const char *
discover(const struct gateway *gw, const char *const *cand, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (cand[i] != NULL && is_socket(cand[i]) &&
		    !is_own_socket(gw, cand[i]))
			return cand[i];
	return NULL;
}

int
rundir_discover(struct gateway *gw)
{
	struct cg_config *cfg = gw->cfg;
	char xdg[CG_PATH_MAX + 32] = "", dh[CG_PATH_MAX + 1] = "";
	const char *env, *podman = NULL, *docker = NULL;
	const char *pc[2], *dc[2];

	if (cfg->backend_podman) {
		if (cfg->podman_socket != NULL) {
			if (!is_socket(cfg->podman_socket))
				return refuse("--podman-socket %s is not a socket",
				    cfg->podman_socket);
			if (is_own_socket(gw, cfg->podman_socket))
				return refuse("backend socket %s is one of the "
				    "gateway's own sockets; pass another --run-dir",
				    cfg->podman_socket);
			podman = cfg->podman_socket;
		} else {
			env = getenv("XDG_RUNTIME_DIR");
			if (env != NULL && env[0] == '/')
				snprintf(xdg, sizeof(xdg), "%s/podman/podman.sock", env);
			pc[0] = xdg[0] ? xdg : NULL;
			pc[1] = "/run/podman/podman.sock";
			podman = discover(gw, pc, 2);
		}
	}
	if (cfg->backend_docker) {
		if (cfg->docker_socket != NULL) {
			if (!is_socket(cfg->docker_socket))
				return refuse("--docker-socket %s is not a socket",
				    cfg->docker_socket);
			if (is_own_socket(gw, cfg->docker_socket))
				return refuse("backend socket %s is one of the "
				    "gateway's own sockets; pass another --run-dir",
				    cfg->docker_socket);
			docker = cfg->docker_socket;
		} else {
			env = getenv("DOCKER_HOST");
			if (env != NULL && strncmp(env, "unix://", 7) == 0 &&
			    env[7] == '/')
				snprintf(dh, sizeof(dh), "%s", env + 7);
			dc[0] = dh[0] ? dh : NULL;
			dc[1] = "/var/run/docker.sock";
			docker = discover(gw, dc, 2);
		}
	}
	if (podman == NULL && docker == NULL) {
		log_msg(LOG_WARNING, "no-backend", "no podman or docker backend "
		    "found; nothing to serve");
		return 3;
	}
	/* §8.2 mapping */
	if (podman != NULL) {
		snprintf(gw->lis[0].backend_path, sizeof(gw->lis[0].backend_path),
		    "%s", podman);
		gw->lis[0].backend_kind = CG_PODMAN;
	}
	snprintf(gw->lis[1].backend_path, sizeof(gw->lis[1].backend_path), "%s",
	    docker != NULL ? docker : podman);
	gw->lis[1].backend_kind = docker != NULL ? CG_DOCKER : CG_PODMAN;
	return 0;
}
