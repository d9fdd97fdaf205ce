/*
 * The pinner (monitor/pinner.c, seccomp/pinner.c; doc/privsep.md "The
 * pinner"):
 * - pin names and pinnable paths, as the pinner checks them (its golden
 *   filter is checked with the others by tests/test_sandbox.c);
 * - as root, in a private mount namespace of a child process (nothing
 *   reaches the host's mounts): a pin keeps showing the directory that was
 *   pinned after the path is swapped for a symlink to another directory;
 *   a symlink on the way, a path outside the roots or below an excluded
 *   one is refused; a missing directory is created only when asked; a
 *   file pins as a file; LIST and UNPIN; the pins of a run directory
 *   that no longer exists go at the next set-up; the mount(2) fallback for
 *   kernels without open_tree(); and the real, confined process: READY,
 *   its capabilities, no_new_privs, its seccomp mode, a pin through its
 *   socket, a forbidden call killing it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "monitor/pin.h"
#include "seccomp/filter.h"

static void
test_names(void **state)
{
	(void)state;
	assert_true(pin_name_ok("19a3f0c2e1b-1"));
	assert_true(pin_name_ok("a"));
	assert_false(pin_name_ok(""));
	assert_false(pin_name_ok("-a"));
	assert_false(pin_name_ok("A"));
	assert_false(pin_name_ok("a/b"));
	assert_false(pin_name_ok(".."));
	assert_false(pin_name_ok("0123456789012345678901234567890123456789x"));
	assert_true(pin_name_ok("0123456789012345678901234567890123456789"));
}

static void
test_paths(void **state)
{
	static const char *const roots[] = { "/srv/p", "/data" };
	static const char *const excl[] = { "/srv/p/.git/apache-magpie/run" };
	struct pinner_conf c = { .base = "/run/container-gateway",
	    .key = "k", .roots = roots, .nroots = 2, .excluded = excl,
	    .nexcluded = 1 };

	(void)state;
	assert_true(pin_path_ok(&c, "/srv/p"));
	assert_true(pin_path_ok(&c, "/srv/p/a/b"));
	assert_true(pin_path_ok(&c, "/data/x"));
	assert_false(pin_path_ok(&c, "/srv/px"));
	assert_false(pin_path_ok(&c, "/srv"));
	assert_false(pin_path_ok(&c, "srv/p/a"));
	assert_false(pin_path_ok(&c, "/srv/p/a/"));
	assert_false(pin_path_ok(&c, "/srv/p//a"));
	assert_false(pin_path_ok(&c, "/srv/p/./a"));
	assert_false(pin_path_ok(&c, "/srv/p/../etc"));
	assert_false(pin_path_ok(&c, "/srv/p/.git/apache-magpie/run"));
	assert_false(pin_path_ok(&c, "/srv/p/.git/apache-magpie/run/x"));
	assert_true(pin_path_ok(&c, "/srv/p/.git/apache-magpie/runx"));
	/* a root that holds the staging directory never pins it */
	{
		static const char *const all[] = { "/" };
		struct pinner_conf r = c;

		r.roots = all;
		r.nroots = 1;
		assert_true(pin_path_ok(&r, "/etc"));
		assert_false(pin_path_ok(&r, "/run/container-gateway/pins/k/1"));
		assert_false(pin_path_ok(&r, "/run/container-gateway"));
		assert_false(pin_path_ok(&r, "/run"));
		assert_false(pin_path_ok(&r, "/"));
	}
}

/* ---------------------------------------------------------------- live */

static char tmp[] = "/tmp/cg-test-pin-XXXXXX";
static char base[128], proj[128], other[128];
static const char *roots[1];
static const char *excluded[1];

/* The check ran in the child: a failed expectation exits 1 with a line. */
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s (errno " \
	"%d)\n", __FILE__, __LINE__, #cond, errno); _exit(1); } } while (0)

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
}

static int
has(const char *path, const char *text)
{
	char buf[64] = "";
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return 0;
	if (fgets(buf, sizeof(buf), f) == NULL)
		buf[0] = '\0';
	fclose(f);
	return strcmp(buf, text) == 0;
}

static void
request(const struct pinner_conf *c, int keyfd, int op, const char *name,
    const char *path, unsigned flags, struct pin_msg *ans)
{
	static struct pin_msg req;

	memset(&req, 0, sizeof(req));
	req.magic = PIN_MAGIC;
	req.op = (uint32_t)op;
	req.seq = 7;
	req.flags = flags;
	snprintf(req.name, sizeof(req.name), "%s", name);
	snprintf(req.path, sizeof(req.path), "%s", path);
	pinner_handle(c, keyfd, &req, ans);
	CHECK(ans->seq == 7 && ans->op == PIN_OP_ANSWER);
}

/* Run body in a child in a private mount namespace; it must exit 0. */
static void
in_private_ns(void (*body)(void))
{
	int st;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		CHECK(unshare(CLONE_NEWNS) == 0);
		CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
		body();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("the check in the private mount namespace failed "
		    "(status 0x%x)", st);
}

static void
ops_body(int no_open_tree)
{
	static struct pin_msg ans;
	struct pinner_conf c = { .roots = roots, .nroots = 1,
	    .excluded = excluded, .nexcluded = 1,
	    .no_open_tree = no_open_tree };
	char why[160], p[512], q[512];
	struct stat st;
	int keyfd;

	snprintf(c.base, sizeof(c.base), "%s", base);
	snprintf(c.key, sizeof(c.key), "k%d", no_open_tree);
	keyfd = pinner_setup(&c, why, sizeof(why), NULL);
	CHECK(keyfd >= 0);
	/* the staging chain: root's, 0700 */
	snprintf(p, sizeof(p), "%s/pins/%s", base, c.key);
	CHECK(lstat(p, &st) == 0 && (st.st_mode & 07777) == 0700);

	/* pin, then swap the path for a symlink to another directory */
	snprintf(p, sizeof(p), "%s/d", proj);
	request(&c, keyfd, PIN_OP_PIN, "p1", p, 0, &ans);
	CHECK(ans.err == 0 && (ans.flags & PIN_F_DIR));
	snprintf(q, sizeof(q), "%s/d.old", proj);
	CHECK(rename(p, q) == 0);
	CHECK(symlink(other, p) == 0);
	snprintf(q, sizeof(q), "%s/pins/%s/p1/f", base, c.key);
	CHECK(has(q, "checked\n"));
	/* a second pin of the path now: refused, a symlink */
	request(&c, keyfd, PIN_OP_PIN, "p2", p, 0, &ans);
	CHECK(ans.err == ELOOP);
	/* a symlink on the way */
	snprintf(p, sizeof(p), "%s/d/f", proj);
	request(&c, keyfd, PIN_OP_PIN, "p2", p, 0, &ans);
	CHECK(ans.err == ENOTDIR);
	/* outside the roots, below an excluded one, a bad name */
	request(&c, keyfd, PIN_OP_PIN, "p2", other, 0, &ans);
	CHECK(ans.err == EINVAL);
	request(&c, keyfd, PIN_OP_PIN, "p2", excluded[0], 0, &ans);
	CHECK(ans.err == EINVAL);
	snprintf(p, sizeof(p), "%s/d.old", proj);
	request(&c, keyfd, PIN_OP_PIN, "../p2", p, 0, &ans);
	CHECK(ans.err == EINVAL);
	/* missing: only with PIN_F_CREATE, then 0755 */
	snprintf(p, sizeof(p), "%s/new/sub", proj);
	request(&c, keyfd, PIN_OP_PIN, "p3", p, 0, &ans);
	CHECK(ans.err == ENOENT);
	request(&c, keyfd, PIN_OP_PIN, "p3", p, PIN_F_CREATE, &ans);
	CHECK(ans.err == 0);
	CHECK(lstat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
	    (st.st_mode & 07777) == 0755);
	/* a file pins as a file */
	snprintf(p, sizeof(p), "%s/file", proj);
	put(p, "file\n");
	request(&c, keyfd, PIN_OP_PIN, "p4", p, 0, &ans);
	CHECK(ans.err == 0 && !(ans.flags & PIN_F_DIR));
	snprintf(q, sizeof(q), "%s/pins/%s/p4", base, c.key);
	CHECK(has(q, "file\n"));
	/* a name taken */
	snprintf(p, sizeof(p), "%s/d.old", proj);
	request(&c, keyfd, PIN_OP_PIN, "p1", p, 0, &ans);
	CHECK(ans.err == EEXIST);
	/* LIST, UNPIN */
	request(&c, keyfd, PIN_OP_LIST, "", "", 0, &ans);
	CHECK(ans.err == 0 && !(ans.flags & PIN_F_MORE));
	CHECK(strstr(ans.path, "p1\n") && strstr(ans.path, "p3\n") &&
	    strstr(ans.path, "p4\n") && !strstr(ans.path, "p2"));
	request(&c, keyfd, PIN_OP_UNPIN, "p1", "", 0, &ans);
	CHECK(ans.err == 0);
	request(&c, keyfd, PIN_OP_UNPIN, "p4", "", 0, &ans);
	CHECK(ans.err == 0);
	snprintf(q, sizeof(q), "%s/pins/%s/p1", base, c.key);
	CHECK(lstat(q, &st) < 0 && errno == ENOENT);
	request(&c, keyfd, PIN_OP_UNPIN, "p3", "", 0, &ans);
	request(&c, keyfd, PIN_OP_LIST, "", "", 0, &ans);
	CHECK(ans.err == 0 && ans.path[0] == '\0');
	/* the pinned directory itself was never touched */
	snprintf(q, sizeof(q), "%s/d.old/f", proj);
	CHECK(has(q, "checked\n"));
	close(keyfd);
	/* back for the next round */
	snprintf(p, sizeof(p), "%s/d", proj);
	CHECK(unlink(p) == 0);
	snprintf(q, sizeof(q), "%s/d.old", proj);
	CHECK(rename(q, p) == 0);
	snprintf(p, sizeof(p), "%s/new/sub", proj);
	CHECK(rmdir(p) == 0);
	snprintf(p, sizeof(p), "%s/new", proj);
	CHECK(rmdir(p) == 0);
}

/* Pins of a run directory that no longer exists go at the next set-up. */
static void
reclaim_body(void)
{
	static struct pin_msg ans;
	struct pinner_conf dead = { .roots = roots, .nroots = 1 }, live = dead,
	    next = dead;
	char why[160], p[512];
	unsigned n = 99;
	struct stat st;
	int fd;

	snprintf(dead.base, sizeof(dead.base), "%s", base);
	live = next = dead;
	snprintf(dead.key, sizeof(dead.key), "dead");
	snprintf(dead.rundir, sizeof(dead.rundir), "%s/gone-run", tmp);
	snprintf(live.key, sizeof(live.key), "live");
	snprintf(live.rundir, sizeof(live.rundir), "%s", proj);
	snprintf(next.key, sizeof(next.key), "next");
	snprintf(next.rundir, sizeof(next.rundir), "%s", proj);
	snprintf(p, sizeof(p), "%s/d", proj);
	fd = pinner_setup(&dead, why, sizeof(why), NULL);
	CHECK(fd >= 0);
	request(&dead, fd, PIN_OP_PIN, "x1", p, 0, &ans);
	CHECK(ans.err == 0);
	close(fd);
	/* the next set-up, of another key, reclaims it */
	fd = pinner_setup(&live, why, sizeof(why), &n);
	CHECK(fd >= 0 && n == 1);
	request(&live, fd, PIN_OP_PIN, "y1", p, 0, &ans);
	CHECK(ans.err == 0);
	close(fd);
	/* a run directory that exists keeps its pins */
	fd = pinner_setup(&next, why, sizeof(why), &n);
	CHECK(fd >= 0 && n == 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/pins/dead", base);
	CHECK(lstat(p, &st) < 0 && errno == ENOENT);
	snprintf(p, sizeof(p), "%s/pins/live/y1/f", base);
	CHECK(has(p, "checked\n"));
}

static void ops_open_tree(void) { ops_body(0); }
static void ops_fallback(void) { ops_body(1); }

static int
live_setup(void **state)
{
	char p[512];

	(void)state;
	if (mkdtemp(tmp) == NULL)
		return -1;
	snprintf(base, sizeof(base), "%s/base", tmp);
	snprintf(proj, sizeof(proj), "%s/proj", tmp);
	snprintf(other, sizeof(other), "%s/other", tmp);
	roots[0] = proj;
	snprintf(p, sizeof(p), "%s/run", proj);
	excluded[0] = strdup(p);
	if (mkdir(proj, 0755) < 0 || mkdir(other, 0755) < 0 ||
	    mkdir(excluded[0], 0700) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/d", proj);
	if (mkdir(p, 0755) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/d/f", proj);
	put(p, "checked\n");
	snprintf(p, sizeof(p), "%s/f", other);
	put(p, "other\n");
	return 0;
}

static int
live_teardown(void **state)
{
	char cmd[256];

	(void)state;
	free((void *)excluded[0]);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_ops(void **state)
{
	(void)state;
	in_private_ns(ops_open_tree);
	in_private_ns(ops_fallback);
	in_private_ns(reclaim_body);
}

/* One "Name:\tvalue" line of /proc/<pid>/status. */
static void
proc_field(pid_t pid, const char *name, char *out, size_t outsz)
{
	char path[64], line[256];
	size_t n = strlen(name);
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, name, n) == 0 && line[n] == ':') {
			snprintf(out, outsz, "%s", line + n + 1 +
			    strspn(line + n + 1, " \t"));
			out[strcspn(out, "\n")] = '\0';
		}
	fclose(f);
}

static void
process_body(void)
{
	static struct pin_msg m;
	struct pinner_conf c = { .roots = roots, .nroots = 1,
	    .excluded = excluded, .nexcluded = 1 };
	char v[64], p[512];
	int fd, st;
	pid_t pid;

	snprintf(c.base, sizeof(c.base), "%s", base);
	snprintf(c.key, sizeof(c.key), "proc");
	pid = pinner_start(&c, &fd);
	CHECK(pid > 0);
	CHECK(recv(fd, &m, sizeof(m), 0) == (ssize_t)sizeof(m));
	CHECK(m.op == PIN_OP_READY && m.err == 0);
	/* CAP_DAC_OVERRIDE (1) and CAP_SYS_ADMIN (21) only, none bounding */
	proc_field(pid, "CapEff", v, sizeof(v));
	CHECK(strcmp(v, "0000000000200002") == 0);
	proc_field(pid, "CapPrm", v, sizeof(v));
	CHECK(strcmp(v, "0000000000200002") == 0);
	proc_field(pid, "CapBnd", v, sizeof(v));
	CHECK(strcmp(v, "0000000000000000") == 0);
	proc_field(pid, "NoNewPrivs", v, sizeof(v));
	CHECK(strcmp(v, "1") == 0);
	proc_field(pid, "Seccomp", v, sizeof(v));
	CHECK(strcmp(v, "2") == 0);
	/* a pin through the socket */
	memset(&m, 0, sizeof(m));
	m.magic = PIN_MAGIC;
	m.op = PIN_OP_PIN;
	m.seq = 3;
	snprintf(m.name, sizeof(m.name), "x1");
	snprintf(m.path, sizeof(m.path), "%s/d", proj);
	CHECK(send(fd, &m, sizeof(m), 0) == (ssize_t)sizeof(m));
	CHECK(recv(fd, &m, sizeof(m), 0) == (ssize_t)sizeof(m));
	CHECK(m.op == PIN_OP_ANSWER && m.seq == 3 && m.err == 0);
	snprintf(p, sizeof(p), "%s/pins/proc/x1/f", base);
	CHECK(has(p, "checked\n"));
	/* a datagram of another size ends it */
	CHECK(send(fd, "x", 1, 0) == 1);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	close(fd);
}

static void
test_process(void **state)
{
	(void)state;
	in_private_ns(process_body);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_paths),
	};
	const struct CMUnitTest live[] = {
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_process),
	};
	int rc;

	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (geteuid() != 0) {
		printf("SKIP the live pinner tests: not root\n");
		return rc;
	}
	return rc | cmocka_run_group_tests(live, live_setup, live_teardown);
}
