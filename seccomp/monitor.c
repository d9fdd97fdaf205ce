/*
 * The monitor's own seccomp allow-list (doc/privsep.md "The monitor's
 * confinement"; style.md §10-11: a strict table for the request parser, a
 * looser one for the monitor), loaded by monitor/confine.c once start-up is
 * over: the listening sockets are bound, the zygote runs, the backends are
 * known. From then on the monitor only moves bytes between descriptors it
 * holds or accepts, connects to the backend's unix socket, creates socket
 * pairs for new request parsers, answers path questions with lstat/readlink,
 * signals and reaps its children, writes its log and, at the end, unlinks what
 * it created in the run directory.
 *
 * Everything else is refused, notably: execve/execveat, clone/fork (a
 * zygote that died is not restarted, doc/privsep.md), ptrace, open of
 * any file (except the log reopen below), socket() other than AF_UNIX
 * stream, bind/listen, mount, chroot, set*id, capset, prctl, bpf,
 * io_uring, process_vm_*, pidfd_getfd.
 *
 * Default action: SCMP_ACT_TRAP, not KILL_PROCESS. The call never runs
 * either way; TRAP delivers SIGSYS to the handler monitor/confine.c
 * installs before loading (rt_sigaction is refused afterwards, so nobody
 * replaces it), which writes one ERROR line naming the system call to
 * the log and then dies of SIGSYS itself (SA_RESETHAND + tgkill). A
 * killed monitor takes the gateway down; without that line the only
 * trace would be the kernel's audit record. Another ABI (int $0x80, x32)
 * is killed outright (bad-architecture action).
 *
 * Argument limits where they are cheap and exact: socket and socketpair
 * only AF_UNIX with the one type the code uses, getsockopt/setsockopt
 * only the SOL_SOCKET options used, fcntl flag commands and
 * F_SETPIPE_SZ only, pipe2 only with the relay pipe's flags, kill only
 * SIGKILL/SIGTERM to a pid >= 0, tgkill only towards the monitor itself,
 * dup2 only onto stdout/stderr, mmap/mprotect never with PROT_EXEC,
 * madvise with malloc's advice only, openat only with the exact flags
 * of the log reopen. Paths cannot be checked by seccomp (they are
 * pointers): unlink, the log reopen and the log rotation's rename are
 * limited to the run directory by Landlock (monitor/confine.c); without
 * Landlock neither the reopen nor the rename is allowed at all.
 *
 * Names are the x86_64 ones; where aarch64 only has the *at form
 * (unlinkat, readlinkat, dup3) that form is added with the same limits.
 * The policy is tests/golden/monitor.pfc (tests/test_confine.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <seccomp.h>

#include "seccomp/filter.h"
#include "seccomp/rules.h"

/* Moving bytes over the descriptors the monitor holds. */
static const int mon_io[] = {
	SCMP_SYS(write),	/* log lines (stderr or the daemon's log file) */
	SCMP_SYS(recvmsg),	/* IPC from children and the zygote (fds) */
	SCMP_SYS(sendmsg),	/* IPC: CONN_START, ZYGOTE_SPAWN carry an fd */
	SCMP_SYS(recvfrom),	/* recv(): backend answers, client bytes */
	SCMP_SYS(sendto),	/* send(): backend requests, client answers */
	SCMP_SYS(close),	/* connection end, backend keep-alive pool */
	SCMP_SYS(shutdown),	/* half-close propagation, lingering 503s */
	SCMP_SYS(accept4),	/* new clients on the two listening sockets */
	SCMP_SYS(connect),	/* the backend's unix socket, per request */
	SCMP_SYS(splice),	/* relay pipe: backend/client <-> pipe */
	SCMP_SYS(tee),		/* a checked upload: body pipe -> checker (check.c) */
};

/* The event loop. */
static const int mon_events[] = {
	SCMP_SYS(epoll_pwait),	/* the epoll loop's wait, signals open in it */
	SCMP_SYS(epoll_ctl),	/* (de)register client/backend/IPC fds */
	SCMP_SYS(poll),		/* ipc_recv(): is a peer that sent 0 bytes gone? */
};

/* Children: reap, watch; signals: handlers return, masks. */
static const int mon_process[] = {
	SCMP_SYS(wait4),	/* waitpid(): SIGCHLD reaping, graceful exit */
	SCMP_SYS(getpid),	/* raise(), abort() */
	SCMP_SYS(gettid),	/* raise(), abort() */
	SCMP_SYS(rt_sigreturn),	/* return from SIGCHLD/TERM/INT/HUP handlers */
	SCMP_SYS(rt_sigprocmask), /* raise(), abort() block signals */
	SCMP_SYS(restart_syscall), /* an interrupted sleep restarts */
	SCMP_SYS(exit),		/* thread exit */
	SCMP_SYS(exit_group),	/* exit(), _exit() */
};

/* The filesystem, by path: metadata only, and the run directory. */
static const int mon_files[] = {
	SCMP_SYS(newfstatat),	/* lstat() of pathres.c, stat(), fstat() */
	SCMP_SYS(readlink),	/* pathres.c: symlinks of a bind source */
	SCMP_SYS(unlink),	/* graceful exit: sockets, pid file, flags */
	SCMP_SYS(flock),	/* a backend's shared GET /version answer:
				   its lock, held or waited for (ops/vershare.c) */
	SCMP_SYS(pread64),	/* the same answer, read once the lock is free */
};

/* Memory (mmap/mprotect: mon_noexec[]), time, libc internals. */
static const int mon_misc[] = {
	SCMP_SYS(brk),		/* malloc main arena */
	SCMP_SYS(munmap),	/* free of large chunks */
	SCMP_SYS(mremap),	/* realloc of large chunks */
	SCMP_SYS(futex),	/* libc internal locks */
	SCMP_SYS(clock_gettime), /* timeouts, log time stamps (vDSO fallback) */
	SCMP_SYS(gettimeofday),	/* same, older interface */
	SCMP_SYS(clock_nanosleep), /* usleep() in the graceful exit's wait */
	SCMP_SYS(sysinfo),	/* glibc qsort() (the JSON replay) asks once */
};

static const struct cg_scmp_group mon_allowed[] = {
	{ mon_io, NELEM(mon_io) },
	{ mon_events, NELEM(mon_events) },
	{ mon_process, NELEM(mon_process) },
	{ mon_files, NELEM(mon_files) },
	{ mon_misc, NELEM(mon_misc) },
};

/* getsockopt/setsockopt at SOL_SOCKET: the options the code uses. */
static const int sockopt_get[] = {
	SO_ERROR,		/* outcome of a non-blocking connect */
	SO_PEERCRED,		/* the client's pid (--max-connections) */
	SO_SNDBUF,		/* IPC socket pair buffer check (ipc/msg.c) */
	SO_RCVBUF,
};
static const int sockopt_set[] = {
	SO_SNDBUF,		/* IPC socket pair buffers (ipc/msg.c) */
	SO_RCVBUF,
	SO_SNDBUFFORCE,		/* tried first; EPERM without CAP_NET_ADMIN */
	SO_RCVBUFFORCE,
};

/* kill(): the two signals the monitor sends its children. */
static const int mon_signals[] = { SIGKILL, SIGTERM };

/* socket(), socketpair(), getsockopt(), setsockopt() with their limits. */
static int
add_socket_rules(scmp_filter_ctx ctx)
{
	size_t i;
	int rc;

	/* backend_connect(): one non-blocking unix stream socket */
	rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 3,
	    SCMP_A0(SCMP_CMP_EQ, AF_UNIX, 0),
	    SCMP_A1(SCMP_CMP_EQ, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0),
	    SCMP_A2(SCMP_CMP_EQ, 0, 0));
	/* ipc_socketpair(): a request parser's IPC pair */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socketpair),
		    3, SCMP_A0(SCMP_CMP_EQ, AF_UNIX, 0),
		    SCMP_A1(SCMP_CMP_EQ, SOCK_SEQPACKET | SOCK_CLOEXEC, 0),
		    SCMP_A2(SCMP_CMP_EQ, 0, 0));
	for (i = 0; rc == 0 && i < NELEM(sockopt_get); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(getsockopt),
		    2, SCMP_A1(SCMP_CMP_EQ, SOL_SOCKET, 0),
		    SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)sockopt_get[i], 0));
	for (i = 0; rc == 0 && i < NELEM(sockopt_set); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(setsockopt),
		    2, SCMP_A1(SCMP_CMP_EQ, SOL_SOCKET, 0),
		    SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)sockopt_set[i], 0));
	return rc;
}

/*
 * The relay pipe (base/rpipe.c): pipe2 with exactly its flags, fcntl
 * F_SETPIPE_SZ to grow it; splice itself is in mon_io. And fcntl F_SETFL,
 * O_NONBLOCK on a new IPC pair (zygote.c), which the shared flag rules
 * (filter.c) leave out for the child.
 */
static int
add_pipe_rules(scmp_filter_ctx ctx)
{
	int rc;

	rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(pipe2), 1,
	    SCMP_A1(SCMP_CMP_EQ, O_CLOEXEC | O_NONBLOCK, 0));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1,
		    SCMP_A1(SCMP_CMP_EQ, F_SETPIPE_SZ, 0));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1,
		    SCMP_A1(SCMP_CMP_EQ, F_SETFL, 0));
	return rc;
}

/*
 * kill(pid, SIGKILL|SIGTERM) with bit 31 of pid clear: no -1 (every
 * process) and no negative process groups. libseccomp cannot put two
 * comparisons on one argument, so pid 0 (the monitor's own process
 * group) stays possible; with CAP_KILL a compromised monitor can signal
 * any pid anyway (doc/privsep.md). tgkill: towards the monitor only.
 */
static int
add_signal_rules(scmp_filter_ctx ctx, pid_t self)
{
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < NELEM(mon_signals); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 2,
		    SCMP_A0(SCMP_CMP_MASKED_EQ, 0x80000000, 0),
		    SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)mon_signals[i], 0));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
		    SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)self, 0));
	return rc;
}

/*
 * The forms aarch64 has instead of unlink, readlink and dup2, with the
 * same limits; nothing on x86_64, where the plain names exist.
 */
static int
add_at_forms(scmp_filter_ctx ctx)
{
	int rc = 0;

	if (SCMP_SYS(unlink) < 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(unlinkat), 1,
		    SCMP_A2(SCMP_CMP_EQ, 0, 0));	/* no AT_REMOVEDIR */
	if (rc == 0 && SCMP_SYS(readlink) < 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(readlinkat),
		    0);
	return rc;
}

/*
 * The daemon's SIGHUP log reopen and its size-capped rotation
 * (ops/daemon.c open_log, rotate_log; cli.md §10, doc/audit.md):
 * openat with exactly its flags, geteuid (the file must be ours), dup2
 * (dup3 on aarch64) onto 1 and 2, rename of the full log to .log.1
 * (renameat on aarch64, renameat2 with no flags where neither exists);
 * fstat is allowed anyway. Only with CG_MONITOR_LOG_REOPEN: Landlock
 * keeps the open and both names of the rename in the run directory.
 */
static int
add_log_reopen(scmp_filter_ctx ctx)
{
	int fd, rc;

	rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
	    SCMP_A2(SCMP_CMP_EQ, CG_LOG_OPEN_FLAGS, 0));
	if (rc == 0 && SCMP_SYS(rename) >= 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rename), 0);
	else if (rc == 0 && SCMP_SYS(renameat) >= 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(renameat), 0);
	else if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(renameat2),
		    1, SCMP_A4(SCMP_CMP_EQ, 0, 0));
	/* open_log() checks the file is ours */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(geteuid), 0);
	for (fd = 1; rc == 0 && fd <= 2; fd++) {
		if (SCMP_SYS(dup2) >= 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(dup2),
			    1, SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)fd, 0));
		else
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(dup3),
			    2, SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)fd, 0),
			    SCMP_A2(SCMP_CMP_EQ, 0, 0));
	}
	return rc;
}

/* The monitor's filter for a process whose pid is self (tgkill rule). */
static int
build_monitor(scmp_filter_ctx *out, pid_t self, unsigned flags)
{
	scmp_filter_ctx ctx;
	int rc;

	ctx = seccomp_init(SCMP_ACT_TRAP);
	if (ctx == NULL)
		return -ENOMEM;
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS);
	/* the kernel's audit log records a trapped call too (type 1326) */
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_LOG, 1);
	if (rc == 0)
		rc = cg_scmp_allow_groups(ctx, mon_allowed, NELEM(mon_allowed));
	if (rc == 0)
		rc = add_socket_rules(ctx);
	if (rc == 0)
		rc = add_pipe_rules(ctx);
	if (rc == 0)
		rc = add_signal_rules(ctx, self);
	if (rc == 0)
		rc = add_at_forms(ctx);
	if (rc == 0 && (flags & CG_MONITOR_LOG_REOPEN))
		rc = add_log_reopen(ctx);
	/* no PROT_EXEC, malloc's madvise, fcntl flag commands (filter.c) */
	return cg_scmp_finish(ctx, rc, out);
}

int
cg_seccomp_load_monitor(unsigned flags)
{
	scmp_filter_ctx ctx;
	int rc;

	rc = build_monitor(&ctx, getpid(), flags);
	if (rc < 0)
		return rc;
	rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return rc;
}

int
cg_seccomp_export_monitor(FILE *f, unsigned flags)
{
	scmp_filter_ctx ctx;
	int rc;

	rc = build_monitor(&ctx, 0, flags);
	if (rc < 0)
		return rc;
	return cg_scmp_export_release(f, ctx);
}
