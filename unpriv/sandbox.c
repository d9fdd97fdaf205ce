/*
 * The request parser's sandbox (privsep.md §4 steps 1-6), in two parts
 * since children are forked from a pre-sandboxed zygote (privsep.md §2 as
 * amended):
 *
 *   sandbox_enter_zygote(): the whole demotion, once, in the zygote the
 *   monitor exec'd: one function, in one file, in a fixed order, where
 *   every mandatory step is fatal (style.md §9). The caller has already
 *   closed every descriptor it must not keep and reset its signals
 *   (step 0). The zygote never reads a client byte.
 *
 *   sandbox_finish_child(): in each child the zygote forks, before its
 *   first client byte: the parent-death signal (not inherited by a fork),
 *   RLIMIT_NPROC 0, and the final filter, which allows no fork, no
 *   further filter, no dup and no prctl.
 *
 * Order actually used, and why it differs from the list in privsep.md §4:
 *
 *   1. rlimits (first, as privsep.md §4 step 1; lowering needs no
 *      privilege, and nothing below needs more than one descriptor);
 *      RLIMIT_NPROC only in sandbox_finish_child (the zygote forks).
 *   2. euid 0: chroot(chroot_dir), chdir("/"), refuse a writable root;
 *      then empty the capability BOUNDING set and set/lock the
 *      securebits while still root, because PR_CAPBSET_DROP and
 *      PR_SET_SECUREBITS need CAP_SETPCAP, which setresuid() takes
 *      away (style.md §9: chroot -> bounding set -> ids -> verify);
 *      then setgroups(0), setresgid, setresuid 65534, and verify that
 *      uid/gid 0 cannot be regained.
 *      not root: unshare user+mount+net+ipc+uts namespaces, map our
 *      uid/gid, and chroot into an empty read-only tmpfs, when the
 *      kernel allows it (optional, privsep.md §4 step 2); inside the
 *      new user namespace we hold CAP_SETPCAP, so the bounding set and
 *      the securebits are done there the same way.
 *      Either way, a PR_SET_PDEATHSIG set by the caller is re-armed
 *      afterwards (the kernel clears it when the euid changes).
 *   3. the remaining capability sets: effective, permitted, inheritable
 *      cleared with one cap_set_proc() and verified empty; ambient set
 *      cleared and verified empty; bounding set verified empty when it
 *      could be dropped.
 *   4. PR_SET_NO_NEW_PRIVS.
 *   5. PR_SET_DUMPABLE 0.
 *   6. the zygote's seccomp allow-list, last: after it none of the
 *      calls above would be allowed any more.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/securebits.h>
#include <sys/capability.h>

#include "seccomp/filter.h"
#include "unpriv/sandbox.h"
#include "unpriv/sanitize.h"

/* The unprivileged ids of the child (privsep.md §4 step 2). */
#define SANDBOX_UID	((uid_t)65534)
#define SANDBOX_GID	((gid_t)65534)

/* RLIMIT_AS of release builds: an 8 MiB body and its parse tree. */
#define SANDBOX_AS_BYTES	((rlim_t)512 * 1024 * 1024)


/* Record the failed step; always returns -1 for "return fail(...)". */
static int
fail(struct sandbox_result *res, const char *step, int err)
{
	res->step = step;
	res->err = err != 0 ? err : EPERM;
	return -1;
}

/*
 * Step 1: soft = hard, never above the current hard limit. RLIMIT_NPROC
 * is left alone: the zygote must fork; each child it forks lowers it to 0
 * in sandbox_finish_child().
 */
static int
set_rlimits(int nofile, struct sandbox_result *res)
{
	const struct {
		int resource;
		rlim_t value;
	} limits[] = {
		{ RLIMIT_NOFILE, (rlim_t)nofile },	/* stdio, IPC, client */
		{ RLIMIT_CORE, 0 },		/* no core file of client data */
		{ RLIMIT_MEMLOCK, 0 },		/* no locked memory */
#ifndef CG_SANITIZE
		/* Sanitizer builds (unpriv/sanitize.h) only: shadow memory
		 * needs terabytes of address space, and the runtime writes
		 * its reports to a log file. Release builds keep both. */
		{ RLIMIT_FSIZE, 0 },		/* no file growth (SIGXFSZ) */
		{ RLIMIT_AS, SANDBOX_AS_BYTES },
#endif
	};
	struct rlimit rl;
	rlim_t want;
	size_t i;

	if (nofile < 1)
		return fail(res, "rlimit", EINVAL);
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		if (getrlimit(limits[i].resource, &rl) != 0)
			return fail(res, "rlimit", errno);
		/* Raising a hard limit needs CAP_SYS_RESOURCE; a lower
		 * limit set by the supervisor is kept. */
		want = limits[i].value;
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
			want = rl.rlim_max;
		rl.rlim_cur = rl.rlim_max = want;
		if (setrlimit(limits[i].resource, &rl) != 0)
			return fail(res, "rlimit", errno);
	}
	return 0;
}

/* 1 if CAP_SETPCAP is in our effective set, 0 if not, -1 on error. */
static int
have_setpcap(void)
{
	cap_flag_value_t v = CAP_CLEAR;
	cap_t caps;
	int rc;

	caps = cap_get_proc();
	if (caps == NULL)
		return -1;
	rc = cap_get_flag(caps, CAP_SETPCAP, CAP_EFFECTIVE, &v);
	cap_free(caps);
	if (rc != 0)
		return -1;
	return v == CAP_SET;
}

/*
 * Empty the bounding set and set/lock the securebits, both of which need
 * CAP_SETPCAP: as root before setresuid(), or inside our own user
 * namespace. Without CAP_SETPCAP (not root, no user namespace) neither is
 * possible; that is what privsep.md §4 step 3 calls "where the process is
 * allowed to". The bounding set only limits what execve() could gain,
 * and execve is killed by seccomp and neutralised by NO_NEW_PRIVS.
 * Sets *dropped to 1 when the bounding set was emptied.
 */
static int
drop_bounding(struct sandbox_result *res, int *dropped)
{
	cap_value_t cap, max;
	int setpcap;

	*dropped = 0;
	setpcap = have_setpcap();
	if (setpcap < 0)
		return fail(res, "caps", errno);
	if (!setpcap)
		return 0;

	/* cap_max_bits() is what the running kernel knows, which may be
	 * more than the CAP_LAST_CAP libcap was built with. */
	max = cap_max_bits();
	for (cap = 0; cap < max; cap++) {
		if (cap_drop_bound(cap) != 0)
			return fail(res, "cap_bound", errno);
	}
	if (cap_set_secbits(cap_get_secbits() | CG_LOCKED_SECBITS) != 0)
		return fail(res, "securebits", errno);
	*dropped = 1;
	return 0;
}

/*
 * Root: chroot into the empty, root-owned, non-writable directory the
 * monitor created (mode 0500), and refuse anything else (vsftpd's
 * check): a root the child can write to would let it plant files.
 */
static int
enter_chroot(const char *dir, struct sandbox_result *res)
{
	struct stat st;

	if (dir == NULL || dir[0] == '\0')
		return fail(res, "chroot", EINVAL);
	if (chroot(dir) != 0)
		return fail(res, "chroot", errno);
	if (chdir("/") != 0)
		return fail(res, "chroot", errno);
	res->chroot = 1;
	if (stat("/", &st) != 0)
		return fail(res, "chroot", errno);
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return fail(res, "chroot", EPERM);
	return 0;
}

/*
 * Root: become 65534 for good. setgroups first (it needs CAP_SETGID),
 * then the gid, then the uid (which takes the privilege away). Then
 * check, as OpenSSH's permanently_set_uid() does, that every id is
 * 65534 and that none of the ways back to 0 works.
 */
static int
drop_ids(struct sandbox_result *res)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (setgroups(0, NULL) != 0)
		return fail(res, "setgroups", errno);
	if (setresgid(SANDBOX_GID, SANDBOX_GID, SANDBOX_GID) != 0)
		return fail(res, "setresgid", errno);
	if (setresuid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID) != 0)
		return fail(res, "setresuid", errno);

	if (getresuid(&ru, &eu, &su) != 0 || getresgid(&rg, &eg, &sg) != 0)
		return fail(res, "verify_ids", errno);
	if (ru != SANDBOX_UID || eu != SANDBOX_UID || su != SANDBOX_UID ||
	    rg != SANDBOX_GID || eg != SANDBOX_GID || sg != SANDBOX_GID ||
	    getgroups(0, NULL) != 0)
		return fail(res, "verify_ids", EPERM);
	/* Each of these must fail; success would mean we are root again,
	 * and the caller exits without serving anything. */
	if (setuid(0) != -1 || setresuid(0, 0, 0) != -1 ||
	    seteuid(0) != -1 || setgid(0) != -1 ||
	    setresgid(0, 0, 0) != -1)
		return fail(res, "regain_root", EPERM);
	/* The chroot must not be writable by the new ids either. */
	if (access("/", W_OK) == 0)
		return fail(res, "writable_root", EPERM);
	return 0;
}

/* Write a short string to a /proc file (uid_map, gid_map, setgroups). */
static int
write_proc(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, saved;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, text, len);
	saved = errno;
	close(fd);
	if (n != (ssize_t)len) {
		errno = n < 0 ? saved : EIO;
		return -1;
	}
	return 0;
}

/*
 * Not root: new user, mount, network, IPC and UTS namespaces when the
 * kernel allows unprivileged user namespaces ([S]; privsep.md §4 step 2
 * says a refusal is not fatal, the later steps still hold). The network
 * namespace has only a down loopback; the mount namespace gets an empty
 * read-only tmpfs as its root so no host file is reachable by path.
 * Failures after a successful unshare are not fatal either: an unmapped
 * uid is the overflow uid (more restricted, not less), and a missing
 * empty root leaves chroot = 0 for the monitor's start-up line.
 */
static void
enter_namespaces(const char *chroot_dir, struct sandbox_result *res)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	const char *target;
	int mapped;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET |
	    CLONE_NEWIPC | CLONE_NEWUTS) != 0)
		return;
	res->namespaces = 1;

	/*
	 * A non-dumpable process (the monitor sets PR_SET_DUMPABLE 0,
	 * privsep.md §5, and the child inherits it) has its /proc/self
	 * files owned by root, so it cannot open its own uid_map. Be
	 * dumpable only for the three writes, before any untrusted byte
	 * is read; step 5 makes it non-dumpable for good.
	 */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)
		return;
	/* "deny" must precede gid_map for an unprivileged writer. */
	(void)snprintf(map, sizeof(map), "%lu %lu 1\n",
	    (unsigned long)uid, (unsigned long)uid);
	mapped = write_proc("/proc/self/uid_map", map) == 0 &&
	    write_proc("/proc/self/setgroups", "deny") == 0;
	if (mapped) {
		(void)snprintf(map, sizeof(map), "%lu %lu 1\n",
		    (unsigned long)gid, (unsigned long)gid);
		mapped = write_proc("/proc/self/gid_map", map) == 0;
	}
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);	/* checked in step 5 */
	if (!mapped)
		return;

	/*
	 * Empty root: keep our mounts from propagating to the host, put a
	 * read-only tmpfs over a directory (chroot_dir if the monitor gave
	 * one, else /tmp; only this namespace sees it) and chroot into it.
	 * "/" itself cannot be used: a mount on top of the current root is
	 * not entered by chdir("/").
	 */
	target = chroot_dir != NULL ? chroot_dir : "/tmp";
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return;
	if (mount("tmpfs", target, "tmpfs",
	    MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0555") != 0)
		return;
	if (chdir(target) != 0 || chroot(".") != 0 || chdir("/") != 0)
		return;
	res->chroot = 1;
}

/*
 * Step 3: clear effective, permitted and inheritable with one
 * cap_set_proc() (lowering is always allowed) and read them back; clear
 * and check the ambient set; check the bounding set if we emptied it.
 */
static int
clear_caps(int bounding_dropped, struct sandbox_result *res)
{
	cap_value_t cap, max;
	cap_t empty, cur;
	int same;

	empty = cap_init();	/* all three sets clear */
	if (empty == NULL)
		return fail(res, "caps", errno);
	if (cap_set_proc(empty) != 0) {
		int saved = errno;

		cap_free(empty);
		return fail(res, "caps", saved);
	}
	cur = cap_get_proc();
	if (cur == NULL) {
		int saved = errno;

		cap_free(empty);
		return fail(res, "caps", saved);
	}
	same = cap_compare(cur, empty);
	cap_free(cur);
	cap_free(empty);
	if (same != 0)
		return fail(res, "caps", EPERM);

	if (cap_reset_ambient() != 0)
		return fail(res, "cap_ambient", errno);
	max = cap_max_bits();
	for (cap = 0; cap < max; cap++) {
		if (cap_get_ambient(cap) != 0)
			return fail(res, "cap_ambient", EPERM);
		if (bounding_dropped && cap_get_bound(cap) != 0)
			return fail(res, "cap_bound", EPERM);
	}
	return 0;
}

static int
cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * Lazy libc state the sandbox would refuse later (style.md §9 step 1):
 * glibc's qsort asks sysinfo() for the memory size the first time it
 * sorts more than 1 KiB, and caches the answer; sysinfo kills the child
 * under the filter. One sort now fills the cache.
 */
static void
prewarm_libc(void)
{
	int v[1024];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		v[i] = (int)(sizeof(v) / sizeof(v[0]) - i);
	qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), cmp_int);
}

int
sandbox_enter_zygote(const char *chroot_dir, int nofile,
    struct sandbox_result *res)
{
	struct sandbox_result dummy;
	int bounding_dropped = 0;
	int pdeath = 0;
	pid_t ppid;
	int rc;

	if (res == NULL)
		res = &dummy;
	prewarm_libc();
	cg_sanitize_before_sandbox();	/* release builds: nothing */
	res->namespaces = 0;
	res->chroot = 0;
	res->step = NULL;
	res->err = 0;

	/* 1. Resource limits. */
	if (set_rlimits(nofile, res) != 0)
		return -1;

	/*
	 * A change of euid/egid clears PR_SET_PDEATHSIG (the caller may
	 * have set it in step 0, [S]), and prctl is not allowed after the
	 * filter: remember it here, re-arm it after the id change.
	 */
	if (prctl(PR_GET_PDEATHSIG, &pdeath, 0, 0, 0) != 0)
		return fail(res, "pdeathsig", errno);
	ppid = getppid();

	/* 2. Root directory, ids, namespaces; bounding set + securebits
	 * while CAP_SETPCAP is still ours (see the comment on top). */
	if (geteuid() == 0) {
		if (enter_chroot(chroot_dir, res) != 0)
			return -1;
		if (drop_bounding(res, &bounding_dropped) != 0)
			return -1;
		if (drop_ids(res) != 0)
			return -1;
	} else {
		enter_namespaces(chroot_dir, res);
		if (drop_bounding(res, &bounding_dropped) != 0)
			return -1;
	}

	if (pdeath != 0) {
		if (prctl(PR_SET_PDEATHSIG, pdeath, 0, 0, 0) != 0)
			return fail(res, "pdeathsig", errno);
		/* The parent died before the re-arm: no signal will come. */
		if (getppid() != ppid)
			return fail(res, "pdeathsig", ESRCH);
	}

	/* 3. Capabilities: effective, permitted, inheritable, ambient. */
	if (clear_caps(bounding_dropped, res) != 0)
		return -1;

	/* 4. No privilege gain through execve, ever. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return fail(res, "no_new_privs", errno);

	/* 5. No core dumps, no ptrace attach by same-uid processes. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		return fail(res, "dumpable", errno);

	/* 6. The allow-list, last. */
	rc = cg_seccomp_load_zygote();
	if (rc < 0)
		return fail(res, "seccomp", -rc);
	return 0;
}

int
sandbox_finish_child(const struct sock_fprog *final, pid_t monitor,
    struct sandbox_result *res)
{
	struct rlimit rl = { 0, 0 };
	int rc;

	cg_sanitize_after_fork();	/* release builds: nothing */
	/* a fork does not inherit the parent-death signal */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
		return fail(res, "pdeathsig", errno);
	if (getppid() != monitor)	/* it died before the signal was armed */
		return fail(res, "pdeathsig", ESRCH);
	if (setrlimit(RLIMIT_NPROC, &rl) != 0)
		return fail(res, "rlimit", errno);
	rc = cg_seccomp_load_prog(final);
	if (rc < 0)
		return fail(res, "seccomp", -rc);
	return 0;
}
