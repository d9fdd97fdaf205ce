/*
 * The request parser's seccomp allow-list (privsep.md §4 step 6), written
 * as data tables in chrony's style and compiled by libseccomp.
 *
 * The child parses attacker-controlled bytes, so after this filter is
 * loaded it may only: move bytes over the descriptors it already holds
 * (IPC socket, client socket, epoll instance), manage its own memory
 * without ever making it executable, read the clock and the random pool,
 * signal itself (abort) and exit. Anything else - open/openat, socket,
 * execve, clone/fork, ioctl, ptrace, kill, mount, unshare, set*id, prctl,
 * io_uring, bpf, pidfd_getfd, ... - kills the whole process
 * (SCMP_ACT_KILL_PROCESS), and so does any syscall made through another
 * ABI (i386 int $0x80, x32): only the native architecture is in the
 * filter and the bad-architecture action is kill as well.
 *
 * Syscall names are the x86_64 ones; a name that does not exist on the
 * native architecture (poll, epoll_wait, fstat on aarch64) resolves to a
 * negative libseccomp pseudo number and is skipped: the C library uses
 * the listed replacement (ppoll, epoll_pwait, newfstatat) there.
 *
 * Any policy change shows up in tests/golden/child.pfc (tests/test_sandbox).
 *
 * Sanitizer builds (CG_SANITIZE, `make check-asan` only) add the few calls
 * the ASan/UBSan runtime itself makes after the filter: sanitizer_rules[]
 * below, compiled in only then; their filter is tests/golden/
 * child-sanitize.pfc. tests/test_sandbox.c checks that the release filter
 * and binary carry none of it (privsep.md §4: sanitizer builds may loosen
 * what release builds never do).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <seccomp.h>

#include "seccomp/filter.h"
#include "seccomp/rules.h"

/*
 * Allowed without argument checks, grouped by purpose. One line per
 * syscall with the reason the child needs it.
 */

/* Descriptor I/O on the IPC socket, the client socket and the epoll fd. */
static const int io_syscalls[] = {
	SCMP_SYS(read),		/* client bytes, IPC messages */
	SCMP_SYS(write),	/* responses to the client, IPC messages */
	SCMP_SYS(readv),	/* scatter reads of framed IPC messages */
	SCMP_SYS(writev),	/* header + body in one write; libc fatal msgs */
	SCMP_SYS(recvmsg),	/* IPC with SCM_RIGHTS (CONN_START brings the fd) */
	SCMP_SYS(sendmsg),	/* IPC messages */
	SCMP_SYS(recvfrom),	/* recv() on the connected sockets */
	SCMP_SYS(sendto),	/* send() with MSG_NOSIGNAL on the client socket */
	SCMP_SYS(close),	/* drop the client socket at connection end */
	SCMP_SYS(shutdown),	/* half-close the client connection */
	SCMP_SYS(splice),	/* client -> body pipe (BODY_PIPE) */
};

/* The single-threaded event loop (the epoll fd is created before). */
static const int event_syscalls[] = {
	SCMP_SYS(poll),		/* event loop (x86_64 libc poll()) */
	SCMP_SYS(ppoll),	/* event loop (poll() on aarch64) */
	SCMP_SYS(epoll_wait),	/* event loop (x86_64 libc epoll_wait()) */
	SCMP_SYS(epoll_pwait),	/* event loop (epoll_wait() on aarch64) */
	SCMP_SYS(epoll_ctl),	/* (de)register the client socket */
};

/* Memory management by malloc; mmap/mprotect are in mem_noexec[] below. */
static const int memory_syscalls[] = {
	SCMP_SYS(brk),		/* malloc main arena */
	SCMP_SYS(munmap),	/* free of large chunks, arena trimming */
	SCMP_SYS(mremap),	/* realloc of large chunks (keeps protection) */
};

/* Time, randomness, identity of the process itself. */
static const int misc_syscalls[] = {
	SCMP_SYS(futex),	/* libc internal locks */
	SCMP_SYS(clock_gettime), /* timeouts, when the vDSO falls back */
	SCMP_SYS(gettimeofday),	/* same, older interface */
	SCMP_SYS(getrandom),	/* hash seeds, request ids */
	SCMP_SYS(getpid),	/* abort()/raise() target; tgkill rule below */
	SCMP_SYS(gettid),	/* abort()/raise() target */
};

/* Signals and process end. */
static const int exit_syscalls[] = {
	SCMP_SYS(rt_sigreturn),	/* return from a signal handler */
	SCMP_SYS(rt_sigprocmask), /* libc blocks signals inside abort() */
	SCMP_SYS(restart_syscall), /* kernel restarts an interrupted sleep */
	SCMP_SYS(exit),		/* thread exit */
	SCMP_SYS(exit_group),	/* _exit(), exit() */
};

static const struct cg_scmp_group allowed[] = {
	{ io_syscalls, NELEM(io_syscalls) },
	{ event_syscalls, NELEM(event_syscalls) },
	{ memory_syscalls, NELEM(memory_syscalls) },
	{ misc_syscalls, NELEM(misc_syscalls) },
	{ exit_syscalls, NELEM(exit_syscalls) },
};

/*
 * mmap and mprotect: only without PROT_EXEC (prot is argument 2 of both).
 * Executable memory would turn a memory-safety bug into arbitrary code
 * without needing any further syscall. pkey_mprotect is not allowed.
 */
static const int mem_noexec[] = {
	SCMP_SYS(mmap),		/* malloc arenas, large chunks */
	SCMP_SYS(mprotect),	/* malloc arena growth (PROT_READ|PROT_WRITE) */
};

/*
 * fcntl: flag reads and FD_CLOEXEC only; F_DUPFD, locks, F_SETOWN, ...
 * kill. No F_SETFL (nor ioctl FIONBIO): the client socket's open file is
 * shared with the monitor, which splices to it relying on its O_NONBLOCK
 * (privsep.md "Relaying"); the monitor's filter adds F_SETFL for itself.
 */
static const int fcntl_cmds[] = {
	F_GETFL,		/* read O_NONBLOCK */
	F_GETFD,		/* read FD_CLOEXEC */
	F_SETFD,		/* set FD_CLOEXEC on a received descriptor */
};

/*
 * madvise: only the advice malloc and the libc use (OpenSSH's list);
 * any other advice (MADV_HWPOISON, MADV_PAGEOUT, ...) kills like any
 * other forbidden call. OpenSSH answers the rest with EINVAL instead;
 * in libseccomp an argument-less rule for madvise would replace the
 * argument rules (every madvise would fail), so we kill. Consequence: a
 * libc tunable such as glibc.malloc.hugetlb (MADV_HUGEPAGE) must not
 * reach the child.
 */
static const int madvise_advice[] = {
	MADV_NORMAL,		/* reset advice */
	MADV_DONTNEED,		/* malloc returns freed pages (arena trim) */
	MADV_FREE,		/* lazy free of pages */
	MADV_DONTFORK,		/* libc-internal mappings */
	MADV_DONTDUMP,		/* keep secrets out of core files */
	MADV_WIPEONFORK,	/* libc-internal (random state) */
};

/*
 * Harmless denials (style.md §10, OpenSSH's SC_DENY): calls the C library
 * makes on its own whose failure it tolerates, answered with an error
 * instead of a kill. The child must not use stdio, but if it does (an
 * assert() message, a stray printf), glibc >= 2.33 calls newfstatat(fd,
 * "", AT_EMPTY_PATH) to size the stream buffer and falls back to BUFSIZ
 * when that fails. Allowing newfstatat would let the child stat any path
 * (seccomp cannot check that the path is ""), so it is denied instead;
 * privsep.md §4 step 6 allows fstat/newfstatat only "if the C library
 * needs them", and it does not.
 */
static const struct {
	int nr;
	int err;
} denied[] = {
	{ SCMP_SYS(fstat), EACCES },		/* stdio buffer sizing */
	{ SCMP_SYS(newfstatat), EACCES },	/* same on glibc >= 2.33 */
};

#ifdef CG_SANITIZE
/*
 * Sanitizer builds only: each rule allows one call with one argument equal
 * to one value, as measured under the filter (strace -f of a CLI session
 * and of tests/helpers/try_syscall; the kill shows as "killed by SIGSYS"
 * after the call). Never an argument-less rule: the release list stays
 * the ceiling of what the runtime may do beyond it.
 */
static const struct {
	int nr;
	unsigned arg;		/* argument index compared */
	scmp_datum_t value;	/* allowed only when equal */
} sanitizer_rules[] = {
	/* sigaltstack(NULL, &old): a query, changes nothing; ASan's
	 * __asan_handle_no_return() asks before every noreturn call
	 * (_exit, abort, longjmp) whether it runs on the signal stack. */
	{ SCMP_SYS(sigaltstack), 0, 0 },
	/* madvise(..., MADV_NOHUGEPAGE): the ASan allocator's advice on
	 * every new region of its size classes (first seen with a 6.8 MB
	 * JSON body). */
	{ SCMP_SYS(madvise), 2, MADV_NOHUGEPAGE },
};

int
cg_scmp_add_sanitizer_rules(scmp_filter_ctx ctx)
{
	size_t i;
	int rc;

	for (i = 0; i < NELEM(sanitizer_rules); i++) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, sanitizer_rules[i].nr,
		    1, SCMP_CMP(sanitizer_rules[i].arg, SCMP_CMP_EQ,
		    sanitizer_rules[i].value, 0));
		if (rc < 0)
			return rc;
	}
	return 0;
}
#endif

/*
 * Build the child filter for a process whose pid is self_pid: tgkill is
 * only allowed towards that thread group, so a compromised child cannot
 * signal its siblings (all run as uid 65534) or the monitor (same uid in
 * the non-root case); abort() and raise() only ever target themselves.
 * self_pid < 0: no tgkill rule at all (the final filter of a child forked
 * from the zygote, prepared before its pid exists: abort() then dies of
 * SIGSYS instead of SIGABRT, which ends the process all the same).
 */
static int
build_child(scmp_filter_ctx *out, pid_t self_pid)
{
	scmp_filter_ctx ctx;
	size_t i;
	int rc;

	ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	if (ctx == NULL)
		return -ENOMEM;

	/* Other ABIs (i386 int $0x80, x32) die too; libseccomp's native
	 * arch is the only one in the context. */
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS);
	if (rc < 0)
		goto fail;

	rc = cg_scmp_allow_groups(ctx, allowed, NELEM(allowed));
	if (rc < 0)
		goto fail;

	rc = cg_scmp_add_memory_rules(ctx);
	if (rc < 0)
		goto fail;

	/*
	 * setpriority(PRIO_PROCESS, 0, CG_EXIT_NICE): the child's exit (its
	 * address space torn down) yields to the requests in flight
	 * (doc/privsep.md "Scaling"). Only towards itself and only down to the
	 * lowest priority; raising it back needs CAP_SYS_NICE or RLIMIT_NICE,
	 * which the child has neither of.
	 */
	rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(setpriority), 3,
	    SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)PRIO_PROCESS, 0),
	    SCMP_A1(SCMP_CMP_EQ, 0, 0),
	    SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)CG_EXIT_NICE, 0));
	if (rc < 0)
		goto fail;

	/* tgkill(self, any tid of ours, sig): abort(), raise(). */
	if (self_pid >= 0) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
		    SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)self_pid, 0));
		if (rc < 0)
			goto fail;
	}

	for (i = 0; i < NELEM(denied); i++) {
		if (denied[i].nr < 0)
			continue;	/* not on this architecture */
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(denied[i].err),
		    denied[i].nr, 0);
		if (rc < 0)
			goto fail;
	}

#ifdef CG_SANITIZE
	rc = cg_scmp_add_sanitizer_rules(ctx);
	if (rc < 0)
		goto fail;
#endif
	*out = ctx;
	return 0;
fail:
	seccomp_release(ctx);
	return rc;
}

/* The final filter of a request parser, as text (tests/golden/child.pfc). */
int
cg_seccomp_export_child(FILE *f)
{
	scmp_filter_ctx ctx;
	int rc;

	rc = build_child(&ctx, -1);
	if (rc < 0)
		return rc;
	return cg_scmp_export_release(f, ctx);
}

int
cg_scmp_allow(scmp_filter_ctx ctx, const int *nr, size_t n)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		if (nr[i] < 0)
			continue;	/* not on this architecture */
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr[i], 0);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int
cg_scmp_allow_groups(scmp_filter_ctx ctx, const struct cg_scmp_group *g,
    size_t n)
{
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < n; i++)
		rc = cg_scmp_allow(ctx, g[i].nr, g[i].n);
	return rc;
}

int
cg_scmp_add_memory_rules(scmp_filter_ctx ctx)
{
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < NELEM(mem_noexec); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, mem_noexec[i], 1,
		    SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	for (i = 0; rc == 0 && i < NELEM(fcntl_cmds); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1,
		    SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)fcntl_cmds[i], 0));
	for (i = 0; rc == 0 && i < NELEM(madvise_advice); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(madvise),
		    1, SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)madvise_advice[i], 0));
	return rc;
}

int
cg_scmp_export_release(FILE *f, scmp_filter_ctx ctx)
{
	int fd, rc;

	if (f == NULL)
		rc = -EINVAL;
	else if ((fd = fileno(f)) < 0)
		rc = -EBADF;	/* e.g. a memory stream: no descriptor */
	else if (fflush(f) != 0)
		rc = -errno;
	else
		rc = seccomp_export_pfc(ctx, fd);
	seccomp_release(ctx);
	return rc;
}

/* ---------------------------------------------------------------- zygote */

#define A(i, v)	{ (i), SCMP_CMP_EQ, (scmp_datum_t)(v), 0 }

/*
 * What the zygote may do beyond the request parser's allow-list
 * (privsep.md §2 as amended: children forked from a pre-sandboxed
 * template): exactly what forking a child and finishing its sandbox
 * take. Each rule is argument-checked, so the
 * template can do nothing else with these calls:
 *   clone: only CLONE_PARENT | SIGCHLD (a plain process, the monitor's
 *     child; no threads, no namespaces, no CLONE_PIDFD);
 *   dup3(fd, CG_CHILD_IPC_FD, 0): the new child moves its IPC socket to 3;
 *   prlimit64(0, RLIMIT_NPROC, new, old): the child lowers its limit to 0
 *     (raising needs CAP_SYS_RESOURCE, which nobody here has);
 *   prctl(PR_SET_PDEATHSIG, SIGKILL): a fork does not inherit it;
 *   prctl(PR_SET_NAME, ...): the child's name in ps ("cg-conn");
 *   getppid: the child checks the monitor did not die meanwhile;
 *   seccomp(SECCOMP_SET_MODE_FILTER, 0, prog): the child's final filter.
 * The final filter (cg_seccomp_final_prog) kills every one of these
 * calls, and tgkill, so a child is left with exactly the request
 * parser's allow-list.
 */
static const struct {
	int nr;
	unsigned n;			/* argument comparisons */
	struct scmp_arg_cmp a[3];
} zygote_extra[] = {
	{ SCMP_SYS(clone), 1, { A(0, CLONE_PARENT | SIGCHLD) } },
	{ SCMP_SYS(dup3), 2, { A(1, CG_CHILD_IPC_FD), A(2, 0) } },
	{ SCMP_SYS(prlimit64), 2, { A(0, 0), A(1, RLIMIT_NPROC) } },
	{ SCMP_SYS(prctl), 2, { A(0, PR_SET_PDEATHSIG), A(1, SIGKILL) } },
	{ SCMP_SYS(prctl), 1, { A(0, PR_SET_NAME) } },
	{ SCMP_SYS(getppid), 0, { A(0, 0) } },
	{ SCMP_SYS(seccomp), 2, { A(0, SECCOMP_SET_MODE_FILTER), A(1, 0) } },
};

/* The zygote's filter: build_child(self_pid) plus zygote_extra[]. */
static int
build_zygote(scmp_filter_ctx *out, pid_t self_pid)
{
	scmp_filter_ctx ctx;
	size_t i;
	int rc;

	rc = build_child(&ctx, self_pid);
	if (rc < 0)
		return rc;
	for (i = 0; rc == 0 && i < NELEM(zygote_extra); i++)
		rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW,
		    zygote_extra[i].nr, zygote_extra[i].n, zygote_extra[i].a);
	if (rc < 0) {
		seccomp_release(ctx);
		return rc;
	}
	*out = ctx;
	return 0;
}

int
cg_seccomp_load_zygote(void)
{
	scmp_filter_ctx ctx;
	int rc;

	rc = build_zygote(&ctx, getpid());
	if (rc < 0)
		return rc;
	rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return rc;
}

int
cg_seccomp_export_zygote(FILE *f)
{
	scmp_filter_ctx ctx;
	int rc;

	rc = build_zygote(&ctx, 0);
	if (rc < 0)
		return rc;
	return cg_scmp_export_release(f, ctx);
}

/*
 * The final filter of a request parser: it is stacked on the zygote's,
 * whose allow-list the child inherits (the kernel runs both, and the
 * stricter action wins), so it only has to take back the zygote's extras
 * and tgkill: every call of zygote_extra[] and tgkill kill the process,
 * everything else is left to the zygote's filter. The two together allow
 * exactly build_child()'s list without tgkill (tests/golden/child.pfc;
 * tests/test_sandbox.c runs every call in a child). A short program: the
 * kernel converts and JITs it in each child's seccomp() (the
 * full allow-list, 65 instructions, was most of that call's cost).
 */
static int
build_final(scmp_filter_ctx *out)
{
	scmp_filter_ctx ctx;
	size_t i;
	int rc;

	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL)
		return -ENOMEM;
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS);
	for (i = 0; rc == 0 && i < NELEM(zygote_extra); i++) {
		/* one rule per call: the first one of several for it */
		if (i > 0 && zygote_extra[i].nr == zygote_extra[i - 1].nr)
			continue;
		rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS,
		    zygote_extra[i].nr, 0);
	}
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS,
		    SCMP_SYS(tgkill), 0);
	if (rc < 0) {
		seccomp_release(ctx);
		return rc;
	}
	*out = ctx;
	return 0;
}

int
cg_seccomp_export_final(FILE *f)
{
	scmp_filter_ctx ctx;
	int rc;

	rc = build_final(&ctx);
	if (rc < 0)
		return rc;
	return cg_scmp_export_release(f, ctx);
}

int
cg_seccomp_final_prog(struct sock_fprog *prog)
{
	scmp_filter_ctx ctx;
	struct stat st;
	void *buf = NULL;
	ssize_t n;
	int fd, rc;

	rc = build_final(&ctx);
	if (rc < 0)
		return rc;
	fd = memfd_create("cg-final-filter", MFD_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	rc = seccomp_export_bpf(ctx, fd);
	if (rc < 0)
		goto out;
	if (fstat(fd, &st) < 0 || st.st_size <= 0 ||
	    st.st_size % (off_t)sizeof(struct sock_filter) != 0 ||
	    st.st_size / (off_t)sizeof(struct sock_filter) > BPF_MAXINSNS) {
		rc = -EINVAL;
		goto out;
	}
	buf = malloc((size_t)st.st_size);
	if (buf == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	n = pread(fd, buf, (size_t)st.st_size, 0);
	if (n != (ssize_t)st.st_size) {
		rc = n < 0 ? -errno : -EIO;
		free(buf);
		goto out;
	}
	prog->len = (unsigned short)(st.st_size / (off_t)sizeof(struct sock_filter));
	prog->filter = buf;
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return rc;
}

int
cg_seccomp_load_prog(const struct sock_fprog *prog)
{
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, prog) != 0)
		return -errno;
	return 0;
}

int
cg_scmp_load_release(scmp_filter_ctx ctx)
{
	int rc = seccomp_load(ctx);

	seccomp_release(ctx);
	return rc;
}

scmp_filter_ctx
cg_scmp_init(uint32_t def, int log)
{
	scmp_filter_ctx ctx = seccomp_init(def);

	if (ctx == NULL)
		return NULL;
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS) < 0 ||
	    (log && seccomp_attr_set(ctx, SCMP_FLTATR_CTL_LOG, 1) < 0)) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

int
cg_scmp_finish(scmp_filter_ctx ctx, int rc, scmp_filter_ctx *out)
{
	if (rc == 0)
		rc = cg_scmp_add_memory_rules(ctx);
#ifdef CG_SANITIZE
	if (rc == 0)
		rc = cg_scmp_add_sanitizer_rules(ctx);
#endif
	if (rc < 0) {
		seccomp_release(ctx);
		return rc;
	}
	*out = ctx;
	return 0;
}
