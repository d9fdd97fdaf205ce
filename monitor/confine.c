/*
 * The monitor's own confinement (doc/privsep.md "The monitor's confinement";
 * monitor/confine.h): capabilities with libcap, no_new_privs, Landlock for the
 * run directory, the SIGSYS reporter and the seccomp filter of
 * seccomp/monitor.c.
 *
 * Why so late, and in two steps: the zygote is exec'd by the monitor and
 * needs root's capabilities to chroot and change ids (unpriv/sandbox.c),
 * so the capabilities go right after it started (confine_caps). Backend
 * discovery, the egress probe and bind() then run with the capabilities
 * the monitor keeps, so a backend it could not reach later is not found
 * at start-up either. The filter comes last (confine_monitor), once no
 * socket is bound and no file opened any more. A zygote that dies later
 * cannot be replaced (no exec, no fork, no capabilities for it): the
 * gateway then stops (serve.c).
 */
#include "monitor/confine.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/landlock.h>
#include <linux/securebits.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND	0
#endif

#include "base/xmalloc.h"
#include "ipc/proto.h"
#include "ops/daemon.h"
#include "monitor/log.h"
#include "seccomp/filter.h"
#include "unpriv/sandbox.h"
#include "unpriv/sanitize.h"

static int
fail(struct confine_result *cr, const char *step, int err)
{
	cr->step = step;
	cr->err = err;
	return -1;
}

static int
have_cap(cap_value_t cap, cap_flag_t set)
{
	cap_flag_value_t v = CAP_CLEAR;
	cap_t caps = cap_get_proc();

	if (caps == NULL)
		return 0;
	(void)cap_get_flag(caps, cap, set, &v);
	cap_free(caps);
	return v == CAP_SET;
}

long
confine_sysctl_bytes(const char *name)
{
	char path[64];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/net/core/%s", name);
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * SO_SNDBUF/SO_RCVBUF are capped at net.core.wmem_max/rmem_max; only
 * SO_*BUFFORCE (CAP_NET_ADMIN) reaches IPC_SOCKBUF beyond them
 * (ipc/msg.c). Unknown limits count as too small.
 */
static int
ipc_needs_force(void)
{
	long w = confine_sysctl_bytes("wmem_max");
	long r = confine_sysctl_bytes("rmem_max");

	return w < IPC_SOCKBUF || r < IPC_SOCKBUF;
}

int
confine_caps(struct confine_result *cr)
{
	cap_value_t keep[2];
	int nkeep = 0;

	memset(cr, 0, sizeof(*cr));
	if (geteuid() == 0 && have_cap(CAP_KILL, CAP_PERMITTED)) {
		keep[nkeep++] = CAP_KILL;
		cr->kept_kill = 1;
	}
	if (have_cap(CAP_NET_ADMIN, CAP_PERMITTED) && ipc_needs_force()) {
		keep[nkeep++] = CAP_NET_ADMIN;
		cr->kept_net_admin = 1;
	}
	return confine_keep_caps(keep, nkeep, cr);
}

int
confine_keep_caps(const cap_value_t *keep, int nkeep,
    struct confine_result *cr)
{
	cap_value_t cap, max;
	cap_t want, cur;
	int same;

	/* bounding set and securebits first: they need CAP_SETPCAP */
	if (have_cap(CAP_SETPCAP, CAP_EFFECTIVE)) {
		max = cap_max_bits();
		for (cap = 0; cap < max; cap++)
			if (cap_drop_bound(cap) != 0)
				return fail(cr, "bounding", errno);
		if (cap_set_secbits(cap_get_secbits() | CG_LOCKED_SECBITS) != 0)
			return fail(cr, "securebits", errno);
		cr->bounding_dropped = 1;
	}
	if (cap_reset_ambient() != 0 && errno != EINVAL)
		return fail(cr, "capabilities", errno);
	want = cap_init();	/* all clear */
	if (want == NULL)
		return fail(cr, "capabilities", errno);
	if (nkeep > 0 &&
	    (cap_set_flag(want, CAP_PERMITTED, nkeep, keep, CAP_SET) != 0 ||
	    cap_set_flag(want, CAP_EFFECTIVE, nkeep, keep, CAP_SET) != 0)) {
		cap_free(want);
		return fail(cr, "capabilities", errno);
	}
	if (cap_set_proc(want) != 0) {
		cap_free(want);
		return fail(cr, "capabilities", errno);
	}
	cur = cap_get_proc();
	same = cur != NULL && cap_compare(cur, want) == 0;
	cap_free(cur);
	cap_free(want);
	if (!same)
		return fail(cr, "capabilities", EPERM);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return fail(cr, "no_new_privs", errno);
	return 0;
}

/* ---------------------------------------------------------------- Landlock */

/*
 * The kernel headers of Debian 12 stop at Landlock ABI 2: the later
 * fields and bits, as in the kernel's uapi (ABI 3: truncate; 4: TCP;
 * 5: ioctl on devices; 6: scopes).
 */
struct cg_landlock_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};
#define CG_LL_FS_TRUNCATE	(1ULL << 14)
#define CG_LL_FS_IOCTL_DEV	(1ULL << 15)
#define CG_LL_NET_BIND_TCP	(1ULL << 0)
#define CG_LL_NET_CONNECT_TCP	(1ULL << 1)
#define CG_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)

/* What the monitor may still do beneath the run directory. */
#define CG_LL_RUN_DIR	(LANDLOCK_ACCESS_FS_REMOVE_FILE | \
	LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_WRITE_FILE)

/* Every file-system right the kernel's ABI abi knows. */
static uint64_t
fs_rights(int abi)
{
	uint64_t r = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;	/* ABI 1 */

	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= CG_LL_FS_TRUNCATE;
	if (abi >= 5)
		r |= CG_LL_FS_IOCTL_DEV;
	return r;
}

/*
 * Restrict the process with Landlock: run_dir gets CG_LL_RUN_DIR, the
 * rest of the file system nothing that Landlock controls (reads, writes,
 * creation, removal, execution; lstat, readlink and connect() to a unix
 * socket are not Landlock rights and stay possible). Returns the ABI in
 * force, 0 when the kernel has no Landlock, or -errno.
 */
static int
landlock_run_dir(const char *run_dir)
{
	struct cg_landlock_attr attr;
	struct landlock_path_beneath_attr pb;
	int abi, rs, dir, err = 0;

	abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 0)
		return errno == ENOSYS || errno == EOPNOTSUPP ? 0 : -errno;
	memset(&attr, 0, sizeof(attr));
	attr.handled_access_fs = fs_rights(abi);
	if (abi >= 4)
		attr.handled_access_net = CG_LL_NET_BIND_TCP |
		    CG_LL_NET_CONNECT_TCP;
	if (abi >= 6)
		attr.scoped = CG_LL_SCOPE_ABSTRACT_UNIX;
	rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (rs < 0)
		return -errno;
	dir = open(run_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		err = errno;
		goto out;
	}
	memset(&pb, 0, sizeof(pb));
	pb.allowed_access = CG_LL_RUN_DIR;
	pb.parent_fd = dir;
	if (syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH,
	    &pb, 0) != 0 || syscall(SYS_landlock_restrict_self, rs, 0) != 0)
		err = errno;
	close(dir);
out:
	close(rs);
	return err != 0 ? -err : abi;
}

/* ---------------------------------------------------------------- SIGSYS */

/* Decimal text of v into buf (at least 24 bytes); async-signal-safe. */
static char *
utoa(unsigned long v, char *buf, size_t sz)
{
	char *p = buf + sz - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0 && p > buf);
	return p;
}

/* Append s to buf (sz bytes); async-signal-safe. */
static void
append(char *buf, size_t sz, const char *s)
{
	size_t n = strlen(buf);

	while (*s != '\0' && n + 1 < sz)
		buf[n++] = *s++;
	buf[n] = '\0';
}

/*
 * A system call the filter refuses (SCMP_ACT_TRAP): it did not run. Say
 * which in the log, then die of SIGSYS (SA_RESETHAND made the action the
 * default one; SA_NODEFER lets the signal through at once).
 */
static void
on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	char msg[320] = "", num[24];

	(void)ctx;
	append(msg, sizeof(msg), "the monitor made a system call its "
	    "seccomp filter forbids: number ");
	append(msg, sizeof(msg), utoa((unsigned long)si->si_syscall, num,
	    sizeof(num)));
	append(msg, sizeof(msg), " (scmp_sys_resolver ");
	append(msg, sizeof(msg), utoa((unsigned long)si->si_syscall, num,
	    sizeof(num)));
	append(msg, sizeof(msg), " names it); it was refused and the gateway "
	    "stops now with SIGSYS (doc/privsep.md, the monitor's confinement)");
	log_event_signal_safe(LOG_ERROR, "seccomp", msg);
	(void)syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), sig);
	_exit(128 + sig);
}

int
confine_monitor(const char *run_dir, struct confine_result *cr)
{
	struct sigaction sa;
	int rc;

	cr->landlock_abi = 0;
	cr->log_reopen = 0;
	cr->seccomp = 0;
	if (RUNNING_ON_VALGRIND) {
		/* valgrind maps code and opens files from inside the process */
		log_msg(LOG_WARNING, "sandbox", "running under valgrind: the "
		    "monitor's Landlock rules and seccomp filter are not loaded");
		daemon_allow_reopen(1);
		return 0;
	}
	cg_sanitize_before_sandbox();	/* release builds: nothing */
	/*
	 * Lazy libc state the filter would refuse later (style.md §9 step
	 * 1): glibc's malloc draws its tcache key with getrandom() when it
	 * first initialises. A release build did that at its first malloc;
	 * under ASan, which replaces malloc, the first glibc malloc call is
	 * dispatch.c's malloc_trim() after a large request.
	 */
	(void)malloc_trim(0);
	rc = landlock_run_dir(run_dir);
	if (rc < 0)
		return fail(cr, "landlock", -rc);
	cr->landlock_abi = rc;
	cr->log_reopen = rc > 0;
	daemon_allow_reopen(cr->log_reopen);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) != 0)
		return fail(cr, "sigaction", errno);
	rc = cg_seccomp_load_monitor(cr->log_reopen ? CG_MONITOR_LOG_REOPEN : 0);
	if (rc < 0)
		return fail(cr, "seccomp", -rc);
	cr->seccomp = 1;
	return 0;
}

void
confine_log(const struct confine_result *cr)
{
	const char *caps = cr->kept_kill ? (cr->kept_net_admin ?
	    "kill,net_admin" : "kill") : cr->kept_net_admin ? "net_admin" :
	    "none";
	char abi[16], *msg;
	struct log_field f[] = {
		LF_STR("{seccomp", cr->seccomp ? "true" : "false"),
		LF_STR("capabilities", caps),
		LF_STR("{landlock_abi", abi),
		LF_STR("{log_reopen", cr->log_reopen ? "true" : "false"),
	};

	snprintf(abi, sizeof(abi), "%d", cr->landlock_abi);
	if (asprintf(&msg, "monitor confined: seccomp=%s no_new_privs=on "
	    "capabilities=%s landlock=%s%s%s", cr->seccomp ? "on" : "off", caps,
	    cr->landlock_abi > 0 ? "run-directory (ABI " : "off",
	    cr->landlock_abi > 0 ? abi : "", cr->landlock_abi > 0 ? ")" : "") < 0)
		xoom();
	log_event(LOG_INFO, "sandbox", msg, f, 4);
	free(msg);
}

int
confine_under_valgrind(void)
{
	return RUNNING_ON_VALGRIND ? 1 : 0;
}
