/*
 * The request parser's sandbox (privsep.md §4, §12; style.md §16), as
 * shipped: a zygote sandboxed once (sandbox_enter_zygote) and each
 * request parser cloned from it with CLONE_PARENT, then finished with the
 * final filter (sandbox_finish_child; doc/privsep.md "Scaling").
 *
 * - syscall tests: tests/helpers/try_syscall enters the real sandbox and
 *   makes one call (bubblewrap's try-syscall), in a child cloned from the
 *   zygote (the request parser) and, with --zygote, in the zygote itself;
 *   forbidden calls must die of SIGSYS, allowed calls must exit 0;
 * - the observable result in /proc/<pid>/status of the zygote and of a
 *   child (Seccomp 2, NoNewPrivs 1, no capabilities, uid/gid 65534 as
 *   root) and their rlimits;
 * - the non-root path (user namespaces), the parent-death signal of both,
 *   and the failure reports;
 * - the golden filters: cg_seccomp_export_child() (the allow-list of a
 *   request parser, its two stacked filters together) must match
 *   tests/golden/child.pfc, cg_seccomp_export_zygote()
 *   tests/golden/zygote.pfc and cg_seccomp_export_final() (the final
 *   filter itself: the zygote's extras taken back) tests/golden/final.pfc.
 *   After an intended policy change regenerate them and review the diff:
 *	./tests/helpers/try_syscall --export-pfc child > tests/golden/child.pfc
 *	./tests/helpers/try_syscall --export-pfc zygote > tests/golden/zygote.pfc
 *	./tests/helpers/try_syscall --export-pfc final > tests/golden/final.pfc
 *   A CG_SANITIZE build (make check-asan) compares with
 *   tests/golden/child-sanitize.pfc and zygote-sanitize.pfc instead, made
 *   the same way in build/asan/src;
 * - a release build grants none of the sanitizer build's allowances,
 *   neither in its filters nor in its binary (doc/reliability.md);
 *
 * Run from the repository root (paths are relative to it), e.g.
 *	make tests/helpers/try_syscall tests/test_sandbox && ./tests/test_sandbox
 * Most cases need root (chroot, uid 65534); without root the chroot is
 * skipped and the sandbox takes its non-root path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <grp.h>
#include <cmocka.h>

#include "seccomp/filter.h"
#include "tests/spawn_stderr.h"
#include "unpriv/sandbox.h"
#include "unpriv/sanitize.h"

#define HELPER		"tests/helpers/try_syscall"
#define GATEWAY		"container-gateway"
#define RELEASE_GOLDEN	"tests/golden/child.pfc"
#define RELEASE_GOLDEN_ZYGOTE "tests/golden/zygote.pfc"
/* the same in either build: it names calls, the allowances are the zygote's */
#define GOLDEN_FINAL	"tests/golden/final.pfc"
#define SANITIZE_GOLDEN	"tests/golden/child-sanitize.pfc"
#define SANITIZE_GOLDEN_ZYGOTE "tests/golden/zygote-sanitize.pfc"
#define RELEASE_GOLDEN_PINNER "tests/golden/pinner.pfc"
#define SANITIZE_GOLDEN_PINNER "tests/golden/pinner-sanitize.pfc"
#ifdef CG_SANITIZE
#define GOLDEN		SANITIZE_GOLDEN
#define GOLDEN_ZYGOTE	SANITIZE_GOLDEN_ZYGOTE
#define GOLDEN_PINNER	SANITIZE_GOLDEN_PINNER
#else
#define GOLDEN		RELEASE_GOLDEN
#define GOLDEN_ZYGOTE	RELEASE_GOLDEN_ZYGOTE
#define GOLDEN_PINNER	RELEASE_GOLDEN_PINNER
#endif

/* The empty root-owned 0500 directory the monitor would create. */
#define CHROOT_TEMPLATE	"/tmp/cg-test-sandbox-XXXXXX"
static char chroot_dir[sizeof(CHROOT_TEMPLATE)];
static int have_chroot_dir;

enum expect {
	DIES_SIGSYS,
	EXITS_0,
	DIES_SIGABRT,
};

struct syscall_case {
	const char *name;
	enum expect expect;
};

/* Forbidden by privsep.md §4 step 6 (and a few more kinds of escape). */
static const struct syscall_case forbidden[] = {
#ifdef __NR_open
	{ "open", DIES_SIGSYS },
#endif
	{ "openat", DIES_SIGSYS },
	{ "socket", DIES_SIGSYS },
	{ "socketpair", DIES_SIGSYS },
	{ "connect", DIES_SIGSYS },
	{ "bind", DIES_SIGSYS },
	{ "listen", DIES_SIGSYS },
	{ "accept4", DIES_SIGSYS },
	{ "execve", DIES_SIGSYS },
	{ "execveat", DIES_SIGSYS },
#ifdef __NR_fork
	{ "fork", DIES_SIGSYS },
#endif
	{ "clone", DIES_SIGSYS },
	{ "clone3", DIES_SIGSYS },
	{ "ptrace", DIES_SIGSYS },
	{ "kill", DIES_SIGSYS },
	{ "tkill", DIES_SIGSYS },
	{ "tgkill_other", DIES_SIGSYS },
	{ "rt_sigaction", DIES_SIGSYS },
	{ "mount", DIES_SIGSYS },
	{ "umount2", DIES_SIGSYS },
	{ "unshare", DIES_SIGSYS },
	{ "setns", DIES_SIGSYS },
	{ "chroot", DIES_SIGSYS },
	{ "setuid", DIES_SIGSYS },
	{ "setresuid", DIES_SIGSYS },
	{ "setgid", DIES_SIGSYS },
	{ "setgroups", DIES_SIGSYS },
	{ "getuid", DIES_SIGSYS },
	{ "setpriority_other", DIES_SIGSYS },	/* back up: never */
	{ "setpriority_pgrp", DIES_SIGSYS },	/* another process: never */
	{ "capset", DIES_SIGSYS },
	{ "prctl", DIES_SIGSYS },
	{ "seccomp", DIES_SIGSYS },
	{ "ioctl", DIES_SIGSYS },
	{ "mmap_exec", DIES_SIGSYS },
	{ "mmap_rwx", DIES_SIGSYS },
	{ "mprotect_exec", DIES_SIGSYS },
	{ "pkey_mprotect", DIES_SIGSYS },
	{ "fcntl_dupfd", DIES_SIGSYS },
	{ "fcntl_dupfd_cloexec", DIES_SIGSYS },
	{ "fcntl_setown", DIES_SIGSYS },
	{ "fcntl_setlk", DIES_SIGSYS },
	{ "fcntl_setfl", DIES_SIGSYS },	/* O_NONBLOCK of the shared client socket */
	{ "madvise_other", DIES_SIGSYS },
	{ "sigaltstack_set", DIES_SIGSYS },
#ifndef CG_SANITIZE
	/* the sanitizer runtime's needs: killed in release builds */
	{ "sigaltstack_query", DIES_SIGSYS },
	{ "madvise_nohugepage", DIES_SIGSYS },
#endif
	{ "dup", DIES_SIGSYS },
	{ "dup3", DIES_SIGSYS },
	{ "pipe2", DIES_SIGSYS },
	{ "epoll_create1", DIES_SIGSYS },
	{ "eventfd2", DIES_SIGSYS },
	{ "memfd_create", DIES_SIGSYS },
	{ "userfaultfd", DIES_SIGSYS },
	{ "io_uring_setup", DIES_SIGSYS },
	{ "bpf", DIES_SIGSYS },
	{ "perf_event_open", DIES_SIGSYS },
	{ "pidfd_open", DIES_SIGSYS },
	{ "pidfd_getfd", DIES_SIGSYS },
	{ "process_vm_readv", DIES_SIGSYS },
	{ "keyctl", DIES_SIGSYS },
	{ "personality", DIES_SIGSYS },
	{ "statx", DIES_SIGSYS },
	{ "nanosleep", DIES_SIGSYS },
	{ "clock_nanosleep", DIES_SIGSYS },
	{ "lseek", DIES_SIGSYS },
	{ "uname", DIES_SIGSYS },
	{ "sysinfo", DIES_SIGSYS },		/* host facts; qsort is prewarmed */
#if defined(__x86_64__)
	{ "x32_getpid", DIES_SIGSYS },		/* other ABI: bad arch */
	{ "int80_getpid", DIES_SIGSYS },	/* i386 ABI: bad arch */
#endif
};

/* Allowed (or, for fstat/newfstatat, denied with EACCES): exit 0. */
static const struct syscall_case allowed[] = {
	{ "qsort_large", EXITS_0 },	/* regression: qsort probed sysinfo */
	{ "getpid", EXITS_0 },
	{ "gettid", EXITS_0 },
	{ "setpriority_exit", EXITS_0 },	/* its exit (filter.h) */
	{ "write", EXITS_0 },
	{ "read", EXITS_0 },
	{ "readv_writev", EXITS_0 },
	{ "sendmsg_recvmsg", EXITS_0 },
	{ "sendto_recvfrom", EXITS_0 },
	{ "shutdown", EXITS_0 },
	{ "close", EXITS_0 },
#ifdef __NR_poll
	{ "poll", EXITS_0 },
#endif
	{ "ppoll", EXITS_0 },
	{ "epoll", EXITS_0 },
	{ "fcntl_flags", EXITS_0 },
	{ "brk", EXITS_0 },
	{ "mmap_rw", EXITS_0 },
	{ "malloc", EXITS_0 },
	{ "futex", EXITS_0 },
	{ "clock_gettime", EXITS_0 },
	{ "gettimeofday", EXITS_0 },
	{ "getrandom", EXITS_0 },
	{ "rt_sigprocmask", EXITS_0 },
#ifdef __NR_fstat
	{ "fstat", EXITS_0 },
#endif
#ifdef __NR_newfstatat
	{ "newfstatat", EXITS_0 },
#endif
	{ "stdio", EXITS_0 },
#ifdef CG_SANITIZE
	/* seccomp/filter.c sanitizer_rules[], CG_SANITIZE builds only */
	{ "sigaltstack_query", EXITS_0 },
	{ "madvise_nohugepage", EXITS_0 },
#endif
	{ "exit", EXITS_0 },
};

/*
 * A request parser's final filter also kills what only the zygote may
 * do, and any tgkill: its pid was not known when the filter was compiled
 * (seccomp/filter.h), so abort() ends it with SIGSYS.
 */
static const struct syscall_case child_only[] = {
	{ "tgkill_self", DIES_SIGSYS },
	{ "abort", DIES_SIGSYS },
	{ "clone_parent", DIES_SIGSYS },
	{ "dup3_ipc", DIES_SIGSYS },
	{ "prlimit_nproc", DIES_SIGSYS },
	{ "prctl_pdeathsig", DIES_SIGSYS },
	{ "prctl_name", DIES_SIGSYS },
	{ "getppid", DIES_SIGSYS },
	{ "seccomp_filter", DIES_SIGSYS },
};

/*
 * The zygote: everything in forbidden[] dies there too (each of its
 * extra rules is argument-checked, so the forbidden variants still die),
 * everything in allowed[] works, plus what forking a child takes.
 */
static const struct syscall_case zygote_only[] = {
	{ "tgkill_self", EXITS_0 },
	{ "abort", DIES_SIGABRT },	/* abort() works: it is not SIGSYS */
	{ "clone_parent", EXITS_0 },
	{ "dup3_ipc", EXITS_0 },
	{ "prlimit_nproc", EXITS_0 },
	{ "prctl_pdeathsig", EXITS_0 },
	{ "prctl_name", EXITS_0 },
	{ "getppid", EXITS_0 },
	{ "seccomp_filter", EXITS_0 },
	{ "clone_newuser", DIES_SIGSYS },
	{ "dup3_cloexec", DIES_SIGSYS },
	{ "prlimit_nofile", DIES_SIGSYS },
	{ "prlimit_other_pid", DIES_SIGSYS },
	{ "prctl_pdeathsig_other", DIES_SIGSYS },
	{ "seccomp_tsync", DIES_SIGSYS },
};

/* Which process the syscall cases run in (set per group in main()). */
static int in_zygote;

static const char *
expect_name(enum expect e)
{
	switch (e) {
	case DIES_SIGSYS:
		return "death by SIGSYS";
	case EXITS_0:
		return "exit 0";
	case DIES_SIGABRT:
		return "death by SIGABRT";
	default:
		return "?";
	}
}

/*
 * fork + exec HELPER [--zygote] NAME CHROOT_DIR with stdin/stdout on
 * /dev/null (RLIMIT_FSIZE 0 would kill a write to a regular file) and
 * stderr on a pipe, collected into err until every writer is gone.
 * Without --zygote the call runs in a child the helper cloned with
 * CLONE_PARENT, so it is ours: the helper names it ("child-pid N") and
 * its status is the one returned. Returns a wait status.
 */
static int
run_helper(const char *name, char *err, size_t errsz)
{
	char *dir = have_chroot_dir ? chroot_dir : (char *)"-";
	char *zyg[] = { HELPER, "--zygote", (char *)name, dir, NULL };
	char *plain[] = { HELPER, (char *)name, dir, NULL };
	int status;
	pid_t pid, child;
	const char *cp;

	pid = spawn_stderr(in_zygote ? zyg : plain, err, errsz);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!in_zygote && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		cp = strstr(err, "child-pid ");
		if (cp == NULL)
			fail_msg("%s: the helper named no child: %s", name, err);
		child = (pid_t)atoi(cp + 10);
		assert_int_equal(waitpid(child, &status, 0), child);
	}
	/* what the case itself cloned (clone_parent) is ours to reap too */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return status;
}

static void
describe(int status, char *buf, size_t sz)
{
	if (WIFSIGNALED(status))
		snprintf(buf, sz, "killed by signal %d (%s)", WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(buf, sz, "exit %d", WEXITSTATUS(status));
	else
		snprintf(buf, sz, "status 0x%x", (unsigned)status);
}

static void
test_syscall(void **state)
{
	const struct syscall_case *c = *state;
	char err[2048], got[128];
	int status, ok;

	status = run_helper(c->name, err, sizeof(err));
	switch (c->expect) {
	case DIES_SIGSYS:
		ok = WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS;
		break;
	case DIES_SIGABRT:
		ok = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
		break;
	case EXITS_0:
	default:
		ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
		break;
	}
	if (!ok) {
		describe(status, got, sizeof(got));
		fail_msg("%s%s: expected %s, got %s; helper stderr: %s",
		    in_zygote ? "zygote: " : "", c->name,
		    expect_name(c->expect), got, err);
	}
}

/* ---- the zygote and a request parser seen from outside (§4 result) ---- */

/* Which process spawn_sandboxed() leaves for inspection. */
enum who { ZYGOTE, CHILD };

struct child {
	pid_t pid;		/* the sandboxed process to look at */
	int release;		/* write end: closing it lets it exit */
	int namespaces;
	int chroot;
};

/*
 * Report from a sandboxed process: after the filter only write(2) and
 * _exit are used. Fixed layout: ok, pid, namespaces, chroot, err, step.
 */
struct report {
	int ok;
	int pid;
	int namespaces;
	int chroot;
	int err;
	char step[32];
};

static void
child_report(int fd, int rc, const struct sandbox_result *res)
{
	struct report r;

	memset(&r, 0, sizeof(r));
	r.ok = rc == 0;
	r.pid = (int)getpid();
	r.namespaces = res->namespaces;
	r.chroot = res->chroot;
	r.err = res->err;
	if (res->step != NULL)
		strncpy(r.step, res->step, sizeof(r.step) - 1);
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(3);
}

/*
 * Fork a process that (optionally first becomes uid 65534 itself, to take
 * the non-root path) enters the zygote's sandbox with dir and nofile,
 * exactly as unpriv/zygote.c does. who ZYGOTE: that process reports and
 * blocks on a pipe read until released. who CHILD: it clones a request
 * parser with CLONE_PARENT (so the parser is this test's child, as a real
 * one is the monitor's) and exits; the parser finishes its sandbox,
 * reports and blocks. A failure is reported by the process it happened in,
 * which then blocks the same way. Returns the report.
 */
static struct report
spawn_sandboxed(const char *dir, int nofile, int as_nobody, enum who who,
    struct child *ch)
{
	struct sandbox_result res;
	struct sock_fprog final;
	int ready[2], hold[2], status;
	struct report r;
	pid_t pid, test = getpid(), c;
	char b;

	assert_int_equal(pipe2(ready, O_CLOEXEC), 0);
	assert_int_equal(pipe2(hold, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		close(hold[1]);
		if (as_nobody && (setgroups(0, NULL) != 0 ||
		    setresgid(65534, 65534, 65534) != 0 ||
		    setresuid(65534, 65534, 65534) != 0))
			_exit(4);
		if (cg_seccomp_final_prog(&final) != 0)
			_exit(4);
		memset(&res, 0, sizeof(res));
		if (sandbox_enter_zygote(dir, nofile, &res) != 0 ||
		    who == ZYGOTE) {
			child_report(ready[1], res.step == NULL ? 0 : -1, &res);
			if (read(hold[0], &b, 1) < 0)
				_exit(5);
			_exit(0);
		}
		c = (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, NULL,
		    NULL, 0);
		if (c < 0)
			_exit(6);
		if (c > 0)
			_exit(0);
		child_report(ready[1], sandbox_finish_child(&final, test, &res),
		    &res);
		if (read(hold[0], &b, 1) < 0)
			_exit(5);
		_exit(0);
	}
	close(ready[1]);
	close(hold[0]);
	memset(&r, 0, sizeof(r));
	assert_int_equal(read(ready[0], &r, sizeof(r)), (ssize_t)sizeof(r));
	close(ready[0]);
	if (r.pid != (int)pid) {
		/* the cloned parser reported; its zygote has exited */
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	ch->pid = (pid_t)r.pid;
	ch->release = hold[1];
	ch->namespaces = r.namespaces;
	ch->chroot = r.chroot;
	return r;
}

/* Let the process exit and check that it exited want_exit. */
static void
reap(struct child *ch, int want_exit)
{
	int status;

	close(ch->release);
	assert_int_equal(waitpid(ch->pid, &status, 0), ch->pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != want_exit) {
		char got[128];

		describe(status, got, sizeof(got));
		fail_msg("sandboxed process: expected exit %d, got %s",
		    want_exit, got);
	}
}

/* The value after "Key:\t" in /proc/<pid>/status, or NULL. */
static char *
status_field(const char *status, const char *key, char *out, size_t sz)
{
	char pat[64];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "\n%s:\t", key);
	p = strstr(status, pat);
	if (p == NULL)
		return NULL;
	p += strlen(pat);
	e = strchr(p, '\n');
	if (e == NULL || (size_t)(e - p) >= sz)
		return NULL;
	/* Some lines end in a space ("Groups:\t \n" when empty). */
	while (e > p && e[-1] == ' ')
		e--;
	memcpy(out, p, (size_t)(e - p));
	out[e - p] = '\0';
	return out;
}

static void
read_status(pid_t pid, char *buf, size_t sz)
{
	char path[64];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	assert_non_null(f);
	buf[0] = '\n';		/* so that every key is preceded by \n */
	n = fread(buf + 1, 1, sz - 2, f);
	buf[n + 1] = '\0';
	fclose(f);
}

static void
assert_field(const char *status, const char *key, const char *want)
{
	char val[256];

	if (status_field(status, key, val, sizeof(val)) == NULL)
		fail_msg("no %s line in /proc/<pid>/status", key);
	if (strcmp(val, want) != 0)
		fail_msg("%s: got \"%s\", want \"%s\"", key, val, want);
}

static void
assert_common_status(const char *st)
{
	assert_field(st, "Seccomp", "2");
	assert_field(st, "NoNewPrivs", "1");
	assert_field(st, "CapInh", "0000000000000000");
	assert_field(st, "CapPrm", "0000000000000000");
	assert_field(st, "CapEff", "0000000000000000");
	assert_field(st, "CapAmb", "0000000000000000");
}

/* CAP_SETPCAP (bit 8) in the effective set of this test process. */
static int
self_has_setpcap(void)
{
	char st[8192], val[64];
	unsigned long long eff;

	read_status(getpid(), st, sizeof(st));
	if (status_field(st, "CapEff", val, sizeof(val)) == NULL)
		return 0;
	eff = strtoull(val, NULL, 16);
	return (eff >> 8) & 1;
}

static void
check_status(enum who who)
{
	struct child ch;
	struct report r;
	char st[8192];

	r = spawn_sandboxed(have_chroot_dir ? chroot_dir : NULL, 8, 0, who, &ch);
	if (!r.ok)
		fail_msg("%s: sandbox failed at %s: %s", who == ZYGOTE ?
		    "zygote" : "child", r.step, strerror(r.err));
	read_status(ch.pid, st, sizeof(st));
	assert_common_status(st);
	/* a request parser runs under the zygote's filter and its own */
	assert_field(st, "Seccomp_filters", who == ZYGOTE ? "1" : "2");
	if (geteuid() == 0) {
		char root[PATH_MAX], link[64];
		ssize_t n;

		assert_field(st, "Uid", "65534\t65534\t65534\t65534");
		assert_field(st, "Gid", "65534\t65534\t65534\t65534");
		assert_field(st, "Groups", "");
		/* Dropped while still root, before setresuid (only
		 * possible with CAP_SETPCAP, which a container's root
		 * may lack). */
		if (self_has_setpcap())
			assert_field(st, "CapBnd", "0000000000000000");
		assert_int_equal(ch.chroot, 1);
		assert_int_equal(ch.namespaces, 0);
		snprintf(link, sizeof(link), "/proc/%d/root", (int)ch.pid);
		n = readlink(link, root, sizeof(root) - 1);
		assert_true(n > 0);
		root[n] = '\0';
		assert_string_equal(root, chroot_dir);
	}
	reap(&ch, 0);
}

static void
test_status(void **state)
{
	(void)state;
	check_status(ZYGOTE);
	check_status(CHILD);
}

/*
 * Rlimits of a request parser, soft = hard; the zygote has the same
 * except RLIMIT_NPROC, which it keeps so that it can fork.
 */
static void
check_rlimits(enum who who)
{
	static const struct {
		const char *name;
		const char *value;
	} want[] = {
		{ "Max open files", "8" },
		{ "Max processes", "0" },
		{ "Max core file size", "0" },
		{ "Max locked memory", "0" },
#ifndef CG_SANITIZE
		/* lifted in sanitizer builds (unpriv/sanitize.h) */
		{ "Max file size", "0" },
		{ "Max address space", "536870912" },
#endif
	};
	char path[64], line[256], soft[32], hard[32];
	struct child ch;
	struct report r;
	size_t i, found = 0, nwant = sizeof(want) / sizeof(want[0]);
	FILE *f;

	if (CG_SANITIZE_BUILD && who == ZYGOTE)
		print_message("sanitizer build: RLIMIT_AS and RLIMIT_FSIZE are "
		    "lifted (shadow memory needs terabytes of address space, "
		    "reports go to a file; unpriv/sanitize.h), not checked here; "
		    "the release build checks them\n");
	r = spawn_sandboxed(have_chroot_dir ? chroot_dir : NULL, 8, 0, who, &ch);
	assert_true(r.ok);
	snprintf(path, sizeof(path), "/proc/%d/limits", (int)ch.pid);
	f = fopen(path, "re");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			size_t len = strlen(want[i].name);

			if (strncmp(line, want[i].name, len) != 0 ||
			    line[len] != ' ')
				continue;
			if (who == ZYGOTE &&
			    strcmp(want[i].name, "Max processes") == 0)
				continue;
			assert_int_equal(sscanf(line + 26, "%31s %31s",
			    soft, hard), 2);
			assert_string_equal(soft, want[i].value);
			assert_string_equal(hard, want[i].value);
			found++;
		}
	}
	fclose(f);
	assert_int_equal(found, who == ZYGOTE ? nwant - 1 : nwant);
	reap(&ch, 0);
}

static void
test_rlimits(void **state)
{
	(void)state;
	check_rlimits(ZYGOTE);
	check_rlimits(CHILD);
}

/*
 * Non-root path, taken by a child that made itself uid 65534 first:
 * namespaces when the kernel allows unprivileged user namespaces, and
 * the same observable result either way.
 */
static void
test_nonroot(void **state)
{
	char st[8192], a[64], b[64], link[64];
	struct child ch;
	struct report r;
	ssize_t n;

	(void)state;
	if (geteuid() != 0) {
		print_message("not root: the other tests take this path\n");
		skip();
	}
	r = spawn_sandboxed(NULL, 8, 1, CHILD, &ch);
	if (!r.ok)
		fail_msg("sandbox failed at %s: %s", r.step,
		    strerror(r.err));
	read_status(ch.pid, st, sizeof(st));
	assert_common_status(st);
	if (!ch.namespaces) {
		print_message("no unprivileged user namespaces here: "
		    "namespaces=off chroot=off\n");
		assert_int_equal(ch.chroot, 0);
		reap(&ch, 0);
		return;
	}
	/* Own network (and user) namespace, an empty root, no caps in it. */
	assert_field(st, "CapBnd", "0000000000000000");
	assert_int_equal(ch.chroot, 1);
	snprintf(link, sizeof(link), "/proc/%d/ns/net", (int)ch.pid);
	n = readlink(link, a, sizeof(a) - 1);
	assert_true(n > 0);
	a[n] = '\0';
	n = readlink("/proc/self/ns/net", b, sizeof(b) - 1);
	assert_true(n > 0);
	b[n] = '\0';
	assert_string_not_equal(a, b);
	reap(&ch, 0);
}

/*
 * Both die with the monitor: A plays the monitor. It forks zygote B,
 * which sets PR_SET_PDEATHSIG SIGKILL after the fork (as monitor/zygote.c
 * does; the kernel clears it on the uid change and the sandbox re-arms
 * it), enters the zygote's sandbox and clones request parser C with
 * CLONE_PARENT, so that C is A's child and sets its own parent-death
 * signal in sandbox_finish_child (a fork does not inherit it). When A
 * exits, B and C must die; the test sees that as end-of-file on a pipe
 * only B and C hold.
 */
static void
test_pdeathsig(void **state)
{
	int ready[2], alive[2], hold[2], go[2], status;
	struct sandbox_result res;
	struct sock_fprog final;
	struct pollfd pfd;
	struct report r;
	pid_t a, b;
	char c;

	(void)state;
	assert_int_equal(pipe2(ready, O_CLOEXEC), 0);
	assert_int_equal(pipe2(alive, O_CLOEXEC), 0);
	assert_int_equal(pipe2(hold, O_CLOEXEC), 0);
	assert_int_equal(pipe2(go, O_CLOEXEC), 0);
	a = fork();
	assert_true(a >= 0);
	if (a == 0) {
		pid_t monitor = getpid();

		b = fork();
		if (b < 0)
			_exit(2);
		if (b == 0) {
			close(ready[0]);
			close(alive[0]);
			close(hold[1]);
			close(go[0]);
			close(go[1]);
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 ||
			    getppid() != monitor ||
			    cg_seccomp_final_prog(&final) != 0)
				_exit(3);
			memset(&res, 0, sizeof(res));
			if (sandbox_enter_zygote(have_chroot_dir ? chroot_dir :
			    NULL, 8, &res) != 0) {
				child_report(ready[1], -1, &res);
				_exit(3);
			}
			child_report(ready[1], 0, &res);
			if (syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, NULL,
			    NULL, 0) == 0) {
				child_report(ready[1], sandbox_finish_child(
				    &final, monitor, &res), &res);
			}
			/* B and C: wait here until killed */
			if (read(hold[0], &c, 1) < 0)
				_exit(5);
			_exit(0);
		}
		/* A: exit when the test says so (B and C are its children) */
		close(go[1]);
		close(hold[1]);
		close(alive[1]);
		if (read(go[0], &c, 1) < 0)
			_exit(4);
		_exit(0);
	}
	close(ready[1]);
	close(alive[1]);
	close(hold[0]);
	close(go[0]);
	assert_int_equal(read(ready[0], &r, sizeof(r)), (ssize_t)sizeof(r));
	if (!r.ok)
		fail_msg("zygote sandbox failed at %s: %s", r.step,
		    strerror(r.err));
	assert_int_equal(read(ready[0], &r, sizeof(r)), (ssize_t)sizeof(r));
	if (!r.ok)
		fail_msg("child sandbox failed at %s: %s", r.step,
		    strerror(r.err));
	close(ready[0]);

	close(go[1]);			/* A exits */
	assert_int_equal(waitpid(a, &status, 0), a);
	pfd.fd = alive[0];
	pfd.events = POLLIN;
	pfd.revents = 0;
	if (poll(&pfd, 1, 5000) != 1 || read(alive[0], &c, 1) != 0) {
		close(alive[0]);
		close(hold[1]);
		fail_msg("zygote or request parser outlived the monitor: "
		    "PR_SET_PDEATHSIG was lost");
	}
	close(alive[0]);
	close(hold[1]);
}

/* Failure reports: step name and errno; the child would exit 1. */
static void
expect_failure(const char *dir, int nofile, const char *step, int err)
{
	struct child ch;
	struct report r;

	r = spawn_sandboxed(dir, nofile, 0, ZYGOTE, &ch);
	assert_false(r.ok);
	assert_string_equal(r.step, step);
	assert_int_equal(r.err, err);
	reap(&ch, 0);
}

static void
test_fail_nofile(void **state)
{
	(void)state;
	expect_failure(have_chroot_dir ? chroot_dir : NULL, 0, "rlimit",
	    EINVAL);
}

static void
test_fail_chroot(void **state)
{
	char writable[] = "/tmp/cg-test-writable-XXXXXX";

	(void)state;
	if (geteuid() != 0)
		skip();
	expect_failure(NULL, 8, "chroot", EINVAL);
	expect_failure("/nonexistent/cg-sandbox", 8, "chroot", ENOENT);
	/* A root the child could write to is refused (vsftpd's check). */
	assert_non_null(mkdtemp(writable));
	assert_int_equal(chmod(writable, 01777), 0);
	expect_failure(writable, 8, "chroot", EPERM);
	assert_int_equal(rmdir(writable), 0);
}

/* ---- golden filter (style.md §16) ---- */

static char *
slurp(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0, r;
	char *buf = malloc(cap);

	assert_non_null(buf);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The whole file at path (NUL-terminated, *len bytes), or NULL. */
static char *
slurp_path(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf;

	if (f == NULL)
		return NULL;
	buf = slurp(f, len);
	fclose(f);
	return buf;
}

static void
check_golden(int (*export)(FILE *), const char *golden, const char *which)
{
	char *got, *want;
	size_t glen, wlen, line = 1, i;
	int same;
	FILE *tmp;

	tmp = tmpfile();
	assert_non_null(tmp);
	assert_int_equal(export(tmp), 0);
	rewind(tmp);
	got = slurp(tmp, &glen);
	fclose(tmp);

	want = slurp_path(golden, &wlen);
	if (want == NULL) {
		free(got);
		fail_msg("%s: %s (run from the repository root; regenerate "
		    "with ./" HELPER " --export-pfc %s > %s)", golden,
		    strerror(errno), which, golden);
	}
	same = glen == wlen && memcmp(got, want, glen) == 0;
	for (i = 0; !same && i < glen && i < wlen && got[i] == want[i]; i++)
		if (got[i] == '\n')
			line++;
	free(got);
	free(want);
	if (!same)
		fail_msg("seccomp filter differs from %s at line %zu; if the "
		    "change is intended, regenerate with ./" HELPER
		    " --export-pfc %s > %s and review the diff", golden, line,
		    which, golden);
}

static void
test_golden(void **state)
{
	(void)state;
	check_golden(cg_seccomp_export_child, GOLDEN, "child");
	check_golden(cg_seccomp_export_zygote, GOLDEN_ZYGOTE, "zygote");
	check_golden(cg_seccomp_export_final, GOLDEN_FINAL, "final");
	check_golden(cg_seccomp_export_pinner, GOLDEN_PINNER, "pinner");
}

/*
 * ---- no sanitizer allowance in a release build ----
 *
 * What seccomp/filter.c allows in CG_SANITIZE builds only, written down
 * here independently of it: a syscall, and the argument test of its rule
 * in libseccomp's PFC text.
 */
static const struct {
	const char *syscall;
	const char *test;	/* NULL: any rule for the syscall */
} sanitizer_allowances[] = {
	{ "sigaltstack", NULL },
	{ "madvise", "$a2.lo32 == 15)" },	/* MADV_NOHUGEPAGE */
};

#define NALLOWANCES	(sizeof(sanitizer_allowances) / \
			    sizeof(sanitizer_allowances[0]))

/*
 * How many allowances the PFC text in file path grants; their names in
 * found (sz bytes).
 */
static size_t
find_allowances(const char *path, char *found, size_t sz)
{
	char head[96], *pfc;
	const char *sec, *end, *t;
	size_t i, n = 0, len;

	pfc = slurp_path(path, &len);
	if (pfc == NULL)
		fail_msg("%s: %s (run from the repository root)", path,
		    strerror(errno));
	found[0] = '\0';
	for (i = 0; i < NALLOWANCES; i++) {
		snprintf(head, sizeof(head), "# filter for syscall \"%s\"",
		    sanitizer_allowances[i].syscall);
		sec = strstr(pfc, head);
		if (sec == NULL)
			continue;
		end = strstr(sec + 1, "# filter for syscall");
		if (sanitizer_allowances[i].test != NULL) {
			t = strstr(sec, sanitizer_allowances[i].test);
			if (t == NULL || (end != NULL && t > end))
				continue;
		}
		snprintf(found + strlen(found), sz - strlen(found), " %s%s%s",
		    sanitizer_allowances[i].syscall,
		    sanitizer_allowances[i].test != NULL ? " " : "",
		    sanitizer_allowances[i].test != NULL ?
		    sanitizer_allowances[i].test : "");
		n++;
	}
	free(pfc);
	return n;
}

/*
 * The release filters (test_golden proves a release build exports exactly
 * them) grant none of the sanitizer allowances; the sanitizer goldens
 * grant every one, so the search itself is proven.
 */
static void
test_release_filter_clean(void **state)
{
	static const char *const release[] = {
		RELEASE_GOLDEN, RELEASE_GOLDEN_ZYGOTE, RELEASE_GOLDEN_PINNER,
	};
	static const char *const sanitize[] = {
		SANITIZE_GOLDEN, SANITIZE_GOLDEN_ZYGOTE, SANITIZE_GOLDEN_PINNER,
	};
	char found[512];
	size_t i, got;

	(void)state;
	for (i = 0; i < sizeof(release) / sizeof(release[0]); i++) {
		got = find_allowances(release[i], found, sizeof(found));
		if (got != 0)
			fail_msg("%s, a release filter, grants what only "
			    "sanitizer builds may:%s", release[i], found);
		got = find_allowances(sanitize[i], found, sizeof(found));
		if (got != NALLOWANCES)
			fail_msg("%s grants only%s of the %zu sanitizer "
			    "allowances this test knows; update one or the "
			    "other", sanitize[i], found[0] != '\0' ? found :
			    " none", NALLOWANCES);
	}
}

/*
 * The built binary: a release build links no sanitizer runtime and holds
 * none of the CG_SANITIZE code (its start-up line); a sanitizer build
 * holds all three, which shows the search works.
 */
static void
test_binary_build_kind(void **state)
{
	static const char *const marks[] = {
		"__asan_init",			/* ASan runtime */
		"__ubsan_handle_",		/* UBSan runtime */
		"sanitizer build (CG_SANITIZE)",	/* monitor/serve.c */
	};
	size_t len, i;
	char *bin;
	int has;

	(void)state;
	bin = slurp_path(GATEWAY, &len);
	if (bin == NULL)
		fail_msg("%s: %s (make all first)", GATEWAY, strerror(errno));
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		has = memmem(bin, len, marks[i], strlen(marks[i])) != NULL;
		if (has != CG_SANITIZE_BUILD) {
			free(bin);
			fail_msg("%s %s \"%s\" (a %s build)", GATEWAY,
			    has ? "contains" : "lacks", marks[i],
			    CG_SANITIZE_BUILD ? "sanitizer" : "release");
		}
	}
	free(bin);
}

#ifdef CG_SANITIZE
/*
 * Sanitizer builds: a heap overflow in a sandboxed request parser gives a
 * whole report (up to its summary line) and exit status 1, not a seccomp
 * kill half-way: what the sanitizer rules and unpriv/sanitize.c are for.
 * The report goes to the helper's stderr here, not to log_path (it is
 * meant, and check-asan counts every report file).
 */
static void
test_sanitizer_report(void **state)
{
	/* every variable the runtime reads log_path from (the last wins) */
	static const char *const vars[] = {
		"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
	};
	char *saved[3], err[16384], got[128];
	const char *old;
	size_t i;
	int status;

	(void)state;
	for (i = 0; i < 3; i++) {
		old = getenv(vars[i]);
		saved[i] = old != NULL ? strdup(old) : NULL;
		/* the options a request parser gets (unpriv/sanitize.c) */
		setenv(vars[i], "log_path=stderr:detect_leaks=0:symbolize=0:"
		    "color=never", 1);
	}
	in_zygote = 0;
	status = run_helper("asan_report", err, sizeof(err));
	for (i = 0; i < 3; i++) {
		if (saved[i] != NULL)
			setenv(vars[i], saved[i], 1);
		else
			unsetenv(vars[i]);
		free(saved[i]);
	}
	describe(status, got, sizeof(got));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 1)
		fail_msg("expected exit 1 after the report, got %s: %s", got,
		    err);
	if (strstr(err, "ERROR: AddressSanitizer: heap-buffer-overflow") ==
	    NULL || strstr(err, "SUMMARY: AddressSanitizer") == NULL)
		fail_msg("no whole report on stderr: %s", err);
}
#endif

/* ---- setup ---- */

static int
setup(void **state)
{
	(void)state;
	if (access(HELPER, X_OK) != 0) {
		fprintf(stderr, "%s: %s (run from the repository root after "
		    "make %s)\n", HELPER, strerror(errno), HELPER);
		return -1;
	}
	if (geteuid() == 0) {
		memcpy(chroot_dir, CHROOT_TEMPLATE, sizeof(chroot_dir));
		if (mkdtemp(chroot_dir) == NULL ||
		    chmod(chroot_dir, 0500) != 0) {
			perror("chroot dir");
			return -1;
		}
		have_chroot_dir = 1;
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	if (have_chroot_dir)
		(void)rmdir(chroot_dir);
	have_chroot_dir = 0;
	return 0;
}

static int
run_cases(const char *group, const struct syscall_case *cases, size_t n)
{
	struct CMUnitTest *tests;
	size_t i;
	int rc;

	tests = calloc(n, sizeof(*tests));
	if (tests == NULL)
		return 1;
	for (i = 0; i < n; i++) {
		tests[i].name = cases[i].name;
		tests[i].test_func = test_syscall;
		tests[i].initial_state = (void *)&cases[i];
	}
	rc = _cmocka_run_group_tests(group, tests, n, setup, teardown);
	free(tests);
	return rc;
}

int
main(void)
{
	const struct CMUnitTest sandbox_tests[] = {
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_rlimits),
		cmocka_unit_test(test_nonroot),
		cmocka_unit_test(test_pdeathsig),
		cmocka_unit_test(test_fail_nofile),
		cmocka_unit_test(test_fail_chroot),
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_release_filter_clean),
		cmocka_unit_test(test_binary_build_kind),
#ifdef CG_SANITIZE
		cmocka_unit_test(test_sanitizer_report),
#endif
	};
	int rc = 0;

	in_zygote = 0;
	rc += run_cases("request parser: forbidden syscalls (SIGSYS)",
	    forbidden, sizeof(forbidden) / sizeof(forbidden[0]));
	rc += run_cases("request parser: allowed syscalls", allowed,
	    sizeof(allowed) / sizeof(allowed[0]));
	rc += run_cases("request parser: the zygote's calls and tgkill",
	    child_only, sizeof(child_only) / sizeof(child_only[0]));
	in_zygote = 1;
	rc += run_cases("zygote: forbidden syscalls (SIGSYS)",
	    forbidden, sizeof(forbidden) / sizeof(forbidden[0]));
	rc += run_cases("zygote: allowed syscalls", allowed,
	    sizeof(allowed) / sizeof(allowed[0]));
	rc += run_cases("zygote: its own calls", zygote_only,
	    sizeof(zygote_only) / sizeof(zygote_only[0]));
	rc += cmocka_run_group_tests_name("sandbox", sandbox_tests, setup,
	    teardown);
	return rc != 0;
}
