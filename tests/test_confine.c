/*
 * The monitor's confinement (doc/privsep.md; monitor/confine.c,
 * seccomp/monitor.c):
 * - the golden filter: cg_seccomp_export_monitor() with the log-reopen
 *   rule must match tests/golden/monitor.pfc (monitor-sanitize.pfc in a
 *   CG_SANITIZE build); after an intended policy change regenerate it with
 *	./tests/helpers/try_monitor --export-pfc reopen > tests/golden/monitor.pfc
 *   and review the diff;
 * - without Landlock there is no open at all (no reopen rule);
 * - tests/helpers/try_monitor confines itself exactly as the monitor does
 *   and makes one call: refused calls die of SIGSYS after the reporter's
 *   ERROR line, allowed calls return what they must, Landlock keeps
 *   removal and creation inside the run directory, and the capabilities
 *   left are CAP_KILL (root) plus CAP_NET_ADMIN only where the host's
 *   socket buffer limits need it.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ipc/proto.h"
#include "monitor/confine.h"
#include "seccomp/filter.h"
#include "tests/spawn_stderr.h"

#define HELPER		"tests/helpers/try_monitor"
#ifdef CG_SANITIZE
#define GOLDEN		"tests/golden/monitor-sanitize.pfc"
#define CG_SANITIZE_ON	1
#else
#define GOLDEN		"tests/golden/monitor.pfc"
#define CG_SANITIZE_ON	0
#endif
#define REPORTED	"ERROR the monitor made a system call its seccomp " \
	"filter forbids: number "

static char run_dir[] = "/tmp/cg-test-confine-run-XXXXXX";
static char outside[] = "/tmp/cg-test-confine-out-XXXXXX";

/* Calls the monitor's filter refuses, each named by the helper. */
static const char *const refused[] = {
	"execve", "execveat", "clone",
#ifdef __NR_fork
	"fork",
#endif
	"ptrace", "socket_inet", "socket_unix_dgram", "socket_netlink",
	"socketpair_stream", "bind", "listen",
#ifdef __NR_open
	"open",
#endif
	"openat_read", "openat_path", "mount", "chroot", "setuid", "capset",
	"prctl", "seccomp", "rt_sigaction", "kill_all", "kill_group",
	"kill_usr1", "tgkill_other", "mmap_exec", "mprotect_exec",
	"getsockopt_other", "setsockopt_other", "setsockopt_sndtimeo",
	"fcntl_dupfd", "dup2_other",
	"ioctl", "pipe2", "memfd_create", "bpf", "io_uring_setup",
	"process_vm_readv", "pidfd_open", "rename", "unlinkat_dir",
};

/* Calls the monitor's event loop makes; each checks its own result. */
static const char *const allowed[] = {
	"write", "socket_unix", "socketpair_ipc", "sockopts",
	"sendmsg_recvmsg", "kill_child", "pathres", "unlink_inside", "epoll",
	"fcntl_flags", "relay_pipe", "sleep_time", "malloc", "tgkill_self",
};

struct outcome {
	int status;		/* wait status */
	char err[4096];		/* the helper's stderr */
	int landlock;		/* from its "confined" line; -1: none */
	char caps[17];
};

static void
run_helper(const char *name, struct outcome *o)
{
	char *argv[] = { HELPER, (char *)name, run_dir, outside, NULL };
	const char *c;
	pid_t pid;

	pid = spawn_stderr(argv, o->err, sizeof(o->err));
	assert_int_equal(waitpid(pid, &o->status, 0), pid);
	o->landlock = -1;
	o->caps[0] = '\0';
	c = strstr(o->err, "confined caps=");
	if (c != NULL)
		sscanf(c, "confined caps=%16s landlock=%d", o->caps, &o->landlock);
	if (o->landlock < 0)
		fail_msg("%s: the helper did not confine itself: %s", name, o->err);
}

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(run_dir) == NULL || mkdtemp(outside) == NULL)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", run_dir, outside);
	return system(cmd) == 0 ? 0 : -1;
}

static char *
slurp(FILE *f, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	do {
		cap += 65536;
		buf = realloc(buf, cap + 1);
		assert_non_null(buf);
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (*len == cap);
	buf[*len] = '\0';
	return buf;
}

/* The filter as PFC text, for flags. */
static char *
export(unsigned flags, size_t *len)
{
	FILE *f = tmpfile();
	char *s;

	assert_non_null(f);
	assert_int_equal(cg_seccomp_export_monitor(f, flags), 0);
	rewind(f);
	s = slurp(f, len);
	fclose(f);
	return s;
}

static void
test_golden(void **state)
{
	size_t glen, len;
	char *got, *want;
	int same;
	FILE *f;

	(void)state;
	got = export(CG_MONITOR_LOG_REOPEN, &len);
	f = fopen(GOLDEN, "re");
	if (f == NULL) {
		free(got);
		fail_msg("cannot read %s (regenerate: ./" HELPER " --export-pfc "
		    "reopen > %s)", GOLDEN, GOLDEN);
	}
	want = slurp(f, &glen);
	fclose(f);
	same = len == glen && memcmp(got, want, len) == 0;
	free(got);
	free(want);
	if (!same)
		fail_msg("the monitor's filter differs from %s: regenerate it "
		    "with ./" HELPER " --export-pfc reopen > %s and review the "
		    "diff", GOLDEN, GOLDEN);
}

/*
 * The release golden grants none of the sanitizer runtime's calls
 * (seccomp/filter.c sanitizer_rules[]); the sanitizer golden does.
 */
static void
test_sanitizer_rules_only_in_sanitizer_builds(void **state)
{
	size_t len;
	char *pfc;
	FILE *f;

	(void)state;
	f = fopen("tests/golden/monitor.pfc", "re");
	assert_non_null(f);
	pfc = slurp(f, &len);
	fclose(f);
	assert_null(strstr(pfc, "\"sigaltstack\""));
	free(pfc);
	pfc = export(CG_MONITOR_LOG_REOPEN, &len);
	if (CG_SANITIZE_ON)
		assert_non_null(strstr(pfc, "\"sigaltstack\""));
	else
		assert_null(strstr(pfc, "\"sigaltstack\""));
	free(pfc);
}

/* Without Landlock nothing may be opened: no openat, no geteuid rule. */
static void
test_no_open_without_landlock(void **state)
{
	size_t len;
	char *with, *without;

	(void)state;
	with = export(CG_MONITOR_LOG_REOPEN, &len);
	without = export(0, &len);
	assert_non_null(strstr(with, "\"openat\""));
	assert_null(strstr(without, "\"openat\""));
	assert_null(strstr(without, "\"open\""));
	assert_null(strstr(without, "\"geteuid\""));
	/* and no exec, fork or ptrace in either */
	assert_null(strstr(with, "\"execve\""));
	assert_null(strstr(with, "\"clone\""));
	assert_null(strstr(with, "\"ptrace\""));
	free(with);
	free(without);
}

static void
test_refused(void **state)
{
	struct outcome o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		run_helper(refused[i], &o);
		if (!WIFSIGNALED(o.status) || WTERMSIG(o.status) != SIGSYS)
			fail_msg("%s: the confined monitor was not killed by "
			    "SIGSYS (status 0x%x): %s", refused[i], o.status, o.err);
		if (strstr(o.err, REPORTED) == NULL)
			fail_msg("%s: no ERROR line from the SIGSYS reporter: %s",
			    refused[i], o.err);
	}
}

/* int $0x80 / x32: killed by the bad-architecture action, no line. */
static void
test_other_abi(void **state)
{
#if defined(__x86_64__)
	struct outcome o;

	(void)state;
	run_helper("x32_getpid", &o);
	assert_true(WIFSIGNALED(o.status));
	assert_int_equal(WTERMSIG(o.status), SIGSYS);
	assert_null(strstr(o.err, REPORTED));
#else
	(void)state;
#endif
}

static void
test_allowed(void **state)
{
	struct outcome o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		run_helper(allowed[i], &o);
		if (!WIFEXITED(o.status) || WEXITSTATUS(o.status) != 0)
			fail_msg("%s: expected exit 0 (status 0x%x): %s",
			    allowed[i], o.status, o.err);
	}
}

/*
 * Landlock: removal, the log reopen and the rotation's rename only inside
 * the run directory (EACCES or EXDEV outside; the helper checks the
 * errno). A kernel without it: no reopen and no rename at all (SIGSYS),
 * and unlink is not limited.
 */
static void
test_landlock(void **state)
{
	static const char *const names[] = {
		"unlink_outside", "log_reopen_outside", "log_reopen_inside",
		"rename_inside", "rename_out", "rename_outside",
	};
	struct outcome o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		run_helper(names[i], &o);
		if (o.landlock > 0) {
			if (!WIFEXITED(o.status) || WEXITSTATUS(o.status) != 0)
				fail_msg("%s: expected exit 0 (status 0x%x): %s",
				    names[i], o.status, o.err);
		} else if (i > 0) {
			assert_true(WIFSIGNALED(o.status));
			assert_int_equal(WTERMSIG(o.status), SIGSYS);
		}
	}
}

/*
 * CapEff after the confinement: root keeps CAP_KILL (bit 5) and, when
 * the host caps socket buffers below IPC_SOCKBUF, CAP_NET_ADMIN (bit 12);
 * anyone else keeps nothing.
 */
static void
test_capabilities(void **state)
{
	unsigned long long want = 0;
	struct outcome o;

	(void)state;
	if (geteuid() == 0) {
		want = 1ULL << 5;
		if (confine_sysctl_bytes("wmem_max") < IPC_SOCKBUF ||
		    confine_sysctl_bytes("rmem_max") < IPC_SOCKBUF)
			want |= 1ULL << 12;
	}
	run_helper("write", &o);
	assert_int_equal(strtoull(o.caps, NULL, 16), want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_sanitizer_rules_only_in_sanitizer_builds),
		cmocka_unit_test(test_no_open_without_landlock),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_other_abi),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_landlock),
		cmocka_unit_test(test_capabilities),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
