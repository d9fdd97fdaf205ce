/*
 * try_syscall: enter the real sandbox, then make one system call
 * (bubblewrap's try-syscall.c, used by tests/test_sandbox.c).
 *
 *   try_syscall [--zygote] NAME [CHROOT_DIR|-]
 *	Prepare what NAME needs (a socket pair, an epoll fd, a mapping),
 *	enter the zygote's sandbox exactly as unpriv/zygote.c does
 *	(sandbox_enter_zygote with the final filter compiled first), then:
 *	by default, fork a request parser from it the way the zygote does
 *	(clone(CLONE_PARENT), sandbox_finish_child) and make the call NAME
 *	in that child; with --zygote, make the call in the zygote itself.
 *	The call is made with raw syscall(2) where possible, so that the
 *	syscall tested is the one named and not whatever the libc wrapper
 *	uses. CHROOT_DIR is required when run as root ("-" = none).
 *	Without --zygote the child is the caller's child (CLONE_PARENT):
 *	this process prints "child-pid <pid>" on stderr and exits 0, and
 *	the caller waits for that pid.
 *
 *   try_syscall --export-pfc child|zygote|final|pinner
 *	Write the request parser's final filter, the zygote's, the final
 *	one or the pinner's filter as PFC text to stdout; this regenerates the golden files, e.g.
 *	    ./tests/helpers/try_syscall --export-pfc child > tests/golden/child.pfc
 *
 * Exit status: 0 the call returned (and, for the calls the filter allows,
 * returned what it should); 2 usage; 3 the sandbox failed; 4 an allowed
 * call returned an unexpected result; 5 the preparation failed. A call
 * the filter forbids never returns: the process dies of SIGSYS.
 * stdin and stdout should be /dev/null (RLIMIT_FSIZE is 0, so a write to
 * a regular file would raise SIGXFSZ), stderr a pipe or a terminal.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "seccomp/filter.h"
#include "tests/helpers/try_report.h"
#include "unpriv/sandbox.h"

#define PAGE	4096

/* Resources made before the sandbox, as the child makes its epoll fd. */
struct prep {
	int sv[2];		/* connected AF_UNIX stream pair */
	int ep;			/* epoll instance */
	void *rw;		/* one read-write anonymous page */
};

/* ---- calls the filter must kill (the result is irrelevant) ---- */

#ifdef SYS_open
static int t_open(struct prep *p) { (void)p; syscall(SYS_open, "/etc/passwd", O_RDONLY); return 0; }
#endif
static int t_openat(struct prep *p) { (void)p; syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY); return 0; }
static int t_socket(struct prep *p) { (void)p; syscall(SYS_socket, AF_INET, SOCK_STREAM, 0); return 0; }
static int t_socketpair(struct prep *p) { int sv[2]; (void)p; syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, sv); return 0; }
static int t_connect(struct prep *p) { syscall(SYS_connect, p->sv[0], NULL, 0); return 0; }
static int t_bind(struct prep *p) { syscall(SYS_bind, p->sv[0], NULL, 0); return 0; }
static int t_listen(struct prep *p) { syscall(SYS_listen, p->sv[0], 1); return 0; }
static int t_accept4(struct prep *p) { syscall(SYS_accept4, p->sv[0], NULL, NULL, 0); return 0; }
static int t_execve(struct prep *p)
{
	char *argv[] = { "/bin/true", NULL };
	char *envp[] = { NULL };

	(void)p;
	syscall(SYS_execve, argv[0], argv, envp);
	return 0;
}
static int t_execveat(struct prep *p)
{
	char *argv[] = { "/bin/true", NULL };
	char *envp[] = { NULL };

	(void)p;
	syscall(SYS_execveat, AT_FDCWD, argv[0], argv, envp, 0);
	return 0;
}
#ifdef SYS_fork
static int t_fork(struct prep *p) { (void)p; syscall(SYS_fork); return 0; }
#endif
static int t_clone(struct prep *p) { (void)p; syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0); return 0; }
static int t_clone3(struct prep *p)
{
	struct clone_args ca;

	(void)p;
	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	syscall(SYS_clone3, &ca, sizeof(ca));
	return 0;
}
static int t_ptrace(struct prep *p) { (void)p; syscall(SYS_ptrace, 0 /* TRACEME */, 0, 0, 0); return 0; }
static int t_kill(struct prep *p) { (void)p; syscall(SYS_kill, getpid(), 0); return 0; }
static int t_tkill(struct prep *p) { (void)p; syscall(SYS_tkill, syscall(SYS_gettid), 0); return 0; }
/* tgkill towards another process (pid 1): the A0 == self rule kills. */
static int t_tgkill_other(struct prep *p) { (void)p; syscall(SYS_tgkill, 1, 1, 0); return 0; }
static int t_rt_sigaction(struct prep *p)
{
	(void)p;
	syscall(SYS_rt_sigaction, SIGUSR1, NULL, NULL, sizeof(uint64_t));
	return 0;
}
static int t_mount(struct prep *p) { (void)p; syscall(SYS_mount, "none", "/", "tmpfs", 0, NULL); return 0; }
static int t_umount2(struct prep *p) { (void)p; syscall(SYS_umount2, "/", 0); return 0; }
static int t_unshare(struct prep *p) { (void)p; syscall(SYS_unshare, 0); return 0; }
static int t_setns(struct prep *p) { (void)p; syscall(SYS_setns, -1, 0); return 0; }
static int t_chroot(struct prep *p) { (void)p; syscall(SYS_chroot, "/"); return 0; }
static int t_setuid(struct prep *p) { (void)p; syscall(SYS_setuid, 0); return 0; }
static int t_setresuid(struct prep *p) { (void)p; syscall(SYS_setresuid, 0, 0, 0); return 0; }
static int t_setgid(struct prep *p) { (void)p; syscall(SYS_setgid, 0); return 0; }
static int t_setgroups(struct prep *p) { (void)p; syscall(SYS_setgroups, 0, NULL); return 0; }
static int t_getuid(struct prep *p) { (void)p; syscall(SYS_getuid); return 0; }
/* only setpriority(PRIO_PROCESS, 0, CG_EXIT_NICE) is allowed (filter.h) */
static int t_setpriority_other(struct prep *p) { (void)p; syscall(SYS_setpriority, PRIO_PROCESS, 0, 0); return 0; }
static int t_setpriority_pgrp(struct prep *p) { (void)p; syscall(SYS_setpriority, PRIO_PGRP, 0, CG_EXIT_NICE); return 0; }
static int t_setpriority_exit(struct prep *p) { (void)p; return want_ok(syscall(SYS_setpriority, PRIO_PROCESS, 0, CG_EXIT_NICE)); }
static int t_capset(struct prep *p) { (void)p; syscall(SYS_capset, NULL, NULL); return 0; }
static int t_prctl(struct prep *p) { (void)p; syscall(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0); return 0; }
static int t_seccomp(struct prep *p) { (void)p; syscall(SYS_seccomp, 2 /* GET_ACTION_AVAIL */, 0, NULL); return 0; }
static int t_ioctl(struct prep *p) { (void)p; syscall(SYS_ioctl, 1, FIONREAD, NULL); return 0; }
static int t_mmap_exec(struct prep *p)
{
	(void)p;
	syscall(SYS_mmap, NULL, PAGE, PROT_READ | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return 0;
}
static int t_mmap_rwx(struct prep *p)
{
	(void)p;
	syscall(SYS_mmap, NULL, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return 0;
}
static int t_mprotect_exec(struct prep *p) { syscall(SYS_mprotect, p->rw, PAGE, PROT_READ | PROT_EXEC); return 0; }
static int t_pkey_mprotect(struct prep *p) { syscall(SYS_pkey_mprotect, p->rw, PAGE, PROT_READ, -1); return 0; }
static int t_fcntl_dupfd(struct prep *p) { (void)p; syscall(SYS_fcntl, 1, F_DUPFD, 0); return 0; }
static int t_fcntl_dupfd_cloexec(struct prep *p) { (void)p; syscall(SYS_fcntl, 1, F_DUPFD_CLOEXEC, 0); return 0; }
static int t_fcntl_setown(struct prep *p) { syscall(SYS_fcntl, p->sv[0], F_SETOWN, 1); return 0; }
static int t_fcntl_setlk(struct prep *p) { struct flock fl = { 0 }; (void)p; syscall(SYS_fcntl, 1, F_SETLK, &fl); return 0; }
/* madvise outside the allowed advice list. */
static int t_madvise_other(struct prep *p) { syscall(SYS_madvise, p->rw, PAGE, MADV_HUGEPAGE); return 0; }
/* The sanitizer runtime's needs (seccomp/filter.c sanitizer_rules[]):
 * allowed in CG_SANITIZE builds only, killed in release builds. */
static int t_madvise_nohugepage(struct prep *p) { return want_ok(syscall(SYS_madvise, p->rw, PAGE, MADV_NOHUGEPAGE)); }
static int
t_sigaltstack_query(struct prep *p)
{
	stack_t old;

	(void)p;
	return want_ok(syscall(SYS_sigaltstack, NULL, &old));
}
/* Setting a signal stack stays forbidden in every build. */
static int
t_sigaltstack_set(struct prep *p)
{
	stack_t ss = { .ss_sp = p->rw, .ss_size = PAGE, .ss_flags = 0 };

	syscall(SYS_sigaltstack, &ss, NULL);
	return 0;
}
static int t_dup(struct prep *p) { (void)p; syscall(SYS_dup, 1); return 0; }
static int t_dup3(struct prep *p) { (void)p; syscall(SYS_dup3, 1, 7, 0); return 0; }
static int t_pipe2(struct prep *p) { int fd[2]; (void)p; syscall(SYS_pipe2, fd, 0); return 0; }
static int t_epoll_create1(struct prep *p) { (void)p; syscall(SYS_epoll_create1, 0); return 0; }
static int t_eventfd2(struct prep *p) { (void)p; syscall(SYS_eventfd2, 0, 0); return 0; }
static int t_memfd_create(struct prep *p) { (void)p; syscall(SYS_memfd_create, "x", 0); return 0; }
static int t_userfaultfd(struct prep *p) { (void)p; syscall(SYS_userfaultfd, 0); return 0; }
static int t_io_uring_setup(struct prep *p) { (void)p; syscall(SYS_io_uring_setup, 1, NULL); return 0; }
static int t_bpf(struct prep *p) { (void)p; syscall(SYS_bpf, 0, NULL, 0); return 0; }
static int t_perf_event_open(struct prep *p) { (void)p; syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0); return 0; }
static int t_pidfd_open(struct prep *p) { (void)p; syscall(SYS_pidfd_open, 1, 0); return 0; }
static int t_pidfd_getfd(struct prep *p) { (void)p; syscall(SYS_pidfd_getfd, 0, 0, 0); return 0; }
static int t_process_vm_readv(struct prep *p) { (void)p; syscall(SYS_process_vm_readv, 1, NULL, 0, NULL, 0, 0); return 0; }
static int t_keyctl(struct prep *p) { (void)p; syscall(SYS_keyctl, 0, 0, 0, 0, 0); return 0; }
static int t_personality(struct prep *p) { (void)p; syscall(SYS_personality, 0xffffffff); return 0; }
static int t_statx(struct prep *p) { struct statx sx; (void)p; syscall(SYS_statx, AT_FDCWD, "/", 0, 0, &sx); return 0; }
static int t_nanosleep(struct prep *p) { struct timespec ts = { 0, 1 }; (void)p; syscall(SYS_nanosleep, &ts, NULL); return 0; }
static int t_clock_nanosleep(struct prep *p)
{
	struct timespec ts = { 0, 1 };

	(void)p;
	syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL);
	return 0;
}
static int t_lseek(struct prep *p) { (void)p; syscall(SYS_lseek, 0, 0, SEEK_SET); return 0; }
static int t_uname(struct prep *p) { char buf[512]; (void)p; syscall(SYS_uname, buf); return 0; }
#if defined(__x86_64__)
/* x32 ABI number of getpid: another architecture for the filter. */
static int t_x32_getpid(struct prep *p) { (void)p; syscall(SYS_getpid | 0x40000000); return 0; }
/* i386 ABI getpid (20) through int $0x80: another architecture. */
static int t_int80_getpid(struct prep *p)
{
	long rc;

	(void)p;
	__asm__ volatile ("int $0x80" : "=a"(rc) : "a"(20L) : "memory");
	(void)rc;
	return 0;
}
#endif

/* ---- calls the filter must allow (or deny harmlessly) ---- */

static int t_getpid(struct prep *p) { (void)p; return want_ok(syscall(SYS_getpid)); }
static int t_gettid(struct prep *p) { (void)p; return want_ok(syscall(SYS_gettid)); }
static int t_write(struct prep *p) { (void)p; return syscall(SYS_write, 1, "x", 1) == 1 ? 0 : want_ok(-1); }
static int t_read(struct prep *p) { char c; (void)p; return want_ok(syscall(SYS_read, 0, &c, 1)); }
static int t_readv_writev(struct prep *p)
{
	char out[] = "ab", in[2];
	struct iovec o = { out, 2 }, i = { in, 2 };

	if (syscall(SYS_writev, p->sv[0], &o, 1) != 2)
		return want_ok(-1);
	return syscall(SYS_readv, p->sv[1], &i, 1) == 2 ? 0 : want_ok(-1);
}
static int t_sendmsg_recvmsg(struct prep *p)
{
	char out = 'm', in = 0;
	struct iovec o = { &out, 1 }, i = { &in, 1 };
	struct msghdr mo = { .msg_iov = &o, .msg_iovlen = 1 };
	struct msghdr mi = { .msg_iov = &i, .msg_iovlen = 1 };

	if (syscall(SYS_sendmsg, p->sv[0], &mo, 0) != 1)
		return want_ok(-1);
	if (syscall(SYS_recvmsg, p->sv[1], &mi, MSG_CMSG_CLOEXEC) != 1)
		return want_ok(-1);
	return in == 'm' ? 0 : 4;
}
static int t_sendto_recvfrom(struct prep *p)
{
	char in = 0;

	if (syscall(SYS_sendto, p->sv[0], "s", 1, MSG_NOSIGNAL, NULL, 0) != 1)
		return want_ok(-1);
	if (syscall(SYS_recvfrom, p->sv[1], &in, 1, 0, NULL, NULL) != 1)
		return want_ok(-1);
	return in == 's' ? 0 : 4;
}
static int t_shutdown(struct prep *p) { return want_ok(syscall(SYS_shutdown, p->sv[0], SHUT_WR)); }
static int t_close(struct prep *p) { return want_ok(syscall(SYS_close, p->sv[1])); }
#ifdef SYS_poll
static int t_poll(struct prep *p)
{
	struct pollfd pf = { .fd = p->sv[0], .events = POLLOUT };

	return want_ok(syscall(SYS_poll, &pf, 1, 0));
}
#endif
static int t_ppoll(struct prep *p)
{
	struct pollfd pf = { .fd = p->sv[0], .events = POLLOUT };
	struct timespec ts = { 0, 0 };

	return want_ok(syscall(SYS_ppoll, &pf, 1, &ts, NULL, 0));
}
static int t_epoll(struct prep *p)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.fd = p->sv[0] };
	struct epoll_event got;

	if (syscall(SYS_epoll_ctl, p->ep, EPOLL_CTL_ADD, p->sv[0], &ev) != 0)
		return want_ok(-1);
#ifdef SYS_epoll_wait
	if (syscall(SYS_epoll_wait, p->ep, &got, 1, 0) != 1)
		return want_ok(-1);
#endif
	if (syscall(SYS_epoll_pwait, p->ep, &got, 1, 0, NULL, 0) != 1)
		return want_ok(-1);
	return want_ok(syscall(SYS_epoll_ctl, p->ep, EPOLL_CTL_DEL, p->sv[0],
	    NULL));
}
static int t_fcntl_flags(struct prep *p)
{
	long fl, fd;

	fl = syscall(SYS_fcntl, p->sv[0], F_GETFL);
	if (fl < 0)
		return want_ok(-1);
	fd = syscall(SYS_fcntl, p->sv[0], F_GETFD);
	if (fd < 0)
		return want_ok(-1);
	return want_ok(syscall(SYS_fcntl, p->sv[0], F_SETFD, fd | FD_CLOEXEC));
}
/* the client socket's O_NONBLOCK is the monitor's to rely on (relay) */
static int t_fcntl_setfl(struct prep *p) { return want_ok(syscall(SYS_fcntl, p->sv[0], F_SETFL, 0)); }
static int t_brk(struct prep *p) { (void)p; return syscall(SYS_brk, 0) != 0 ? 0 : 4; }
static int t_mmap_rw(struct prep *p)
{
	long m;

	(void)p;
	m = syscall(SYS_mmap, NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == -1)
		return want_ok(-1);
	if (syscall(SYS_mprotect, (void *)m, 2 * PAGE, PROT_READ) != 0)
		return want_ok(-1);
	if (syscall(SYS_madvise, (void *)m, PAGE, MADV_DONTNEED) != 0)
		return want_ok(-1);
	m = syscall(SYS_mremap, (void *)m, 2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE);
	if (m == -1)
		return want_ok(-1);
	return want_ok(syscall(SYS_munmap, (void *)m, 4 * PAGE));
}
/* malloc/realloc/free through glibc: brk, mmap, mremap, munmap. */
static int t_malloc(struct prep *p)
{
	char *a, *b;
	size_t i;

	(void)p;
	for (i = 1; i < 64; i++) {
		a = malloc(i * 1024);
		if (a == NULL)
			return 4;
		memset(a, 1, i * 1024);
		free(a);
	}
	a = malloc(32 << 20);		/* above the mmap threshold */
	if (a == NULL)
		return 4;
	memset(a, 2, 32 << 20);
	b = realloc(a, 64 << 20);	/* mremap */
	if (b == NULL)
		return 4;
	free(b);
	return 0;
}
static int t_futex(struct prep *p)
{
	uint32_t word = 0;

	(void)p;
	return want_ok(syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1,
	    NULL, NULL, 0));
}
static int t_clock_gettime(struct prep *p)
{
	struct timespec ts;

	(void)p;
	return want_ok(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts));
}
static int t_gettimeofday(struct prep *p)
{
	struct timeval tv;

	(void)p;
	return want_ok(syscall(SYS_gettimeofday, &tv, NULL));
}
static int t_getrandom(struct prep *p)
{
	char buf[16];

	(void)p;
	return syscall(SYS_getrandom, buf, sizeof(buf), 0) == 16 ? 0 : 4;
}
static int t_rt_sigprocmask(struct prep *p)
{
	uint64_t set = 0;

	(void)p;
	return want_ok(syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL,
	    sizeof(set)));
}
/* tgkill towards ourselves with signal 0: permission check only. */
static int t_tgkill_self(struct prep *p)
{
	(void)p;
	return want_ok(syscall(SYS_tgkill, syscall(SYS_getpid),
	    syscall(SYS_gettid), 0));
}
/* fstat/newfstatat are denied with EACCES, not killed. */
#ifdef SYS_fstat
static int t_fstat(struct prep *p) { struct stat st; (void)p; return want_errno(syscall(SYS_fstat, 1, &st), EACCES); }
#endif
#ifdef SYS_newfstatat
static int t_newfstatat(struct prep *p)
{
	struct stat st;

	(void)p;
	return want_errno(syscall(SYS_newfstatat, AT_FDCWD, "/etc/passwd",
	    &st, 0), EACCES);
}
#endif
/* Accidental stdio still works (the buffer-size probe is denied). */
static int t_stdio(struct prep *p)
{
	(void)p;
	if (printf("stdio %d\n", 42) < 0 || fflush(stdout) != 0)
		return 4;
	return 0;
}
/* abort(): rt_sigprocmask, getpid, gettid, tgkill -> dies of SIGABRT. */
static int t_abort(struct prep *p) { (void)p; abort(); }
/* exit of the only thread ends the process with status 0. */
static int t_exit(struct prep *p) { (void)p; syscall(SYS_exit, 0); return 4; }
/* A heap overflow: in a sanitizer build the report must get out of the
 * sandbox whole (tests/test_sandbox.c test_sanitizer_report). */
static int
t_asan_report(struct prep *p)
{
	volatile char *b = malloc(8);
	volatile size_t past = 8;	/* hidden from -Warray-bounds */

	(void)p;
	if (b == NULL)
		return 5;
	b[past] = 1;
	free((void *)b);
	return 0;
}

/* ---- what only the zygote may do (seccomp/filter.c build_zygote) ---- */

/* The one clone the zygote makes; the new process exits at once. */
static int
t_clone_parent(struct prep *p)
{
	long pid;

	(void)p;
	pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, NULL, NULL, 0);
	if (pid == 0)
		syscall(SYS_exit_group, 0);
	return want_ok(pid);
}
/* Any other clone flags: a new user namespace. */
static int t_clone_newuser(struct prep *p) { (void)p; syscall(SYS_clone, CLONE_PARENT | SIGCHLD | CLONE_NEWUSER, 0, NULL, NULL, 0); return 0; }
/* sv[0] is fd 3 itself (dup3 refuses equal fds): move sv[1] onto it */
static int t_dup3_ipc(struct prep *p) { return want_ok(syscall(SYS_dup3, p->sv[1], 3, 0)); }
static int t_dup3_cloexec(struct prep *p) { syscall(SYS_dup3, p->sv[0], 3, O_CLOEXEC); return 0; }
static int t_prlimit_nproc(struct prep *p)
{
	struct rlimit rl;

	(void)p;
	return want_ok(syscall(SYS_prlimit64, 0, RLIMIT_NPROC, NULL, &rl));
}
static int t_prlimit_nofile(struct prep *p)
{
	struct rlimit rl;

	(void)p;
	syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &rl);
	return 0;
}
static int t_prlimit_other_pid(struct prep *p)
{
	struct rlimit rl;

	(void)p;
	syscall(SYS_prlimit64, 1, RLIMIT_NPROC, NULL, &rl);
	return 0;
}
static int t_prctl_pdeathsig(struct prep *p) { (void)p; return want_ok(syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)); }
static int t_prctl_pdeathsig_other(struct prep *p) { (void)p; syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0); return 0; }
static int t_prctl_name(struct prep *p) { (void)p; return want_ok(syscall(SYS_prctl, PR_SET_NAME, "cg-test", 0, 0, 0)); }
static int t_getppid(struct prep *p) { (void)p; return want_ok(syscall(SYS_getppid)); }
/* A further filter on top: allowed (the final filter is one). */
static int
t_seccomp_filter(struct prep *p)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };

	(void)p;
	return want_ok(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog));
}
/* TSYNC or any flag, or strict mode: not the zygote's call. */
static int
t_seccomp_tsync(struct prep *p)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };

	(void)p;
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
	    &prog);
	return 0;
}

/* glibc's qsort probes sysinfo(); the sandbox prewarms it (sandbox.c). */
static int
t_sysinfo(struct prep *p)
{
	struct sysinfo si;

	(void)p;
	return syscall(SYS_sysinfo, &si) == 0 ? 0 : 1;
}

static int
cmp_desc(const void *a, const void *b)
{
	return *(const int *)b - *(const int *)a;
}

/* A sort above glibc's 1 KiB alloca threshold, as json_find_collision does. */
static int
t_qsort_large(struct prep *p)
{
	static int v[16384];
	size_t i;

	(void)p;
	for (i = 0; i < 16384; i++)
		v[i] = (int)i;
	qsort(v, 16384, sizeof(int), cmp_desc);
	return v[0] == 16383 ? 0 : 4;
}

static const struct {
	const char *name;
	int (*fn)(struct prep *);
} cases[] = {
#ifdef SYS_open
	{ "open", t_open },
#endif
	{ "openat", t_openat },
	{ "socket", t_socket },
	{ "socketpair", t_socketpair },
	{ "connect", t_connect },
	{ "bind", t_bind },
	{ "listen", t_listen },
	{ "accept4", t_accept4 },
	{ "execve", t_execve },
	{ "execveat", t_execveat },
#ifdef SYS_fork
	{ "fork", t_fork },
#endif
	{ "clone", t_clone },
	{ "clone3", t_clone3 },
	{ "ptrace", t_ptrace },
	{ "kill", t_kill },
	{ "tkill", t_tkill },
	{ "tgkill_other", t_tgkill_other },
	{ "rt_sigaction", t_rt_sigaction },
	{ "mount", t_mount },
	{ "umount2", t_umount2 },
	{ "unshare", t_unshare },
	{ "setns", t_setns },
	{ "chroot", t_chroot },
	{ "setuid", t_setuid },
	{ "setresuid", t_setresuid },
	{ "setgid", t_setgid },
	{ "setgroups", t_setgroups },
	{ "getuid", t_getuid },
	{ "setpriority_other", t_setpriority_other },
	{ "setpriority_pgrp", t_setpriority_pgrp },
	{ "capset", t_capset },
	{ "prctl", t_prctl },
	{ "seccomp", t_seccomp },
	{ "ioctl", t_ioctl },
	{ "mmap_exec", t_mmap_exec },
	{ "mmap_rwx", t_mmap_rwx },
	{ "mprotect_exec", t_mprotect_exec },
	{ "pkey_mprotect", t_pkey_mprotect },
	{ "fcntl_dupfd", t_fcntl_dupfd },
	{ "fcntl_dupfd_cloexec", t_fcntl_dupfd_cloexec },
	{ "fcntl_setown", t_fcntl_setown },
	{ "fcntl_setlk", t_fcntl_setlk },
	{ "madvise_other", t_madvise_other },
	{ "madvise_nohugepage", t_madvise_nohugepage },
	{ "sigaltstack_query", t_sigaltstack_query },
	{ "sigaltstack_set", t_sigaltstack_set },
	{ "dup", t_dup },
	{ "dup3", t_dup3 },
	{ "pipe2", t_pipe2 },
	{ "epoll_create1", t_epoll_create1 },
	{ "eventfd2", t_eventfd2 },
	{ "memfd_create", t_memfd_create },
	{ "userfaultfd", t_userfaultfd },
	{ "io_uring_setup", t_io_uring_setup },
	{ "bpf", t_bpf },
	{ "perf_event_open", t_perf_event_open },
	{ "pidfd_open", t_pidfd_open },
	{ "pidfd_getfd", t_pidfd_getfd },
	{ "process_vm_readv", t_process_vm_readv },
	{ "keyctl", t_keyctl },
	{ "personality", t_personality },
	{ "statx", t_statx },
	{ "nanosleep", t_nanosleep },
	{ "clock_nanosleep", t_clock_nanosleep },
	{ "lseek", t_lseek },
	{ "uname", t_uname },
#if defined(__x86_64__)
	{ "x32_getpid", t_x32_getpid },
	{ "int80_getpid", t_int80_getpid },
#endif

	{ "sysinfo", t_sysinfo },
	{ "qsort_large", t_qsort_large },
	{ "getpid", t_getpid },
	{ "gettid", t_gettid },
	{ "setpriority_exit", t_setpriority_exit },
	{ "write", t_write },
	{ "read", t_read },
	{ "readv_writev", t_readv_writev },
	{ "sendmsg_recvmsg", t_sendmsg_recvmsg },
	{ "sendto_recvfrom", t_sendto_recvfrom },
	{ "shutdown", t_shutdown },
	{ "close", t_close },
#ifdef SYS_poll
	{ "poll", t_poll },
#endif
	{ "ppoll", t_ppoll },
	{ "epoll", t_epoll },
	{ "fcntl_flags", t_fcntl_flags },
	{ "fcntl_setfl", t_fcntl_setfl },
	{ "brk", t_brk },
	{ "mmap_rw", t_mmap_rw },
	{ "malloc", t_malloc },
	{ "futex", t_futex },
	{ "clock_gettime", t_clock_gettime },
	{ "gettimeofday", t_gettimeofday },
	{ "getrandom", t_getrandom },
	{ "rt_sigprocmask", t_rt_sigprocmask },
	{ "tgkill_self", t_tgkill_self },
#ifdef SYS_fstat
	{ "fstat", t_fstat },
#endif
#ifdef SYS_newfstatat
	{ "newfstatat", t_newfstatat },
#endif
	{ "stdio", t_stdio },
	{ "abort", t_abort },
	{ "exit", t_exit },
	{ "asan_report", t_asan_report },

	{ "clone_parent", t_clone_parent },
	{ "clone_newuser", t_clone_newuser },
	{ "dup3_ipc", t_dup3_ipc },
	{ "dup3_cloexec", t_dup3_cloexec },
	{ "prlimit_nproc", t_prlimit_nproc },
	{ "prlimit_nofile", t_prlimit_nofile },
	{ "prlimit_other_pid", t_prlimit_other_pid },
	{ "prctl_pdeathsig", t_prctl_pdeathsig },
	{ "prctl_pdeathsig_other", t_prctl_pdeathsig_other },
	{ "prctl_name", t_prctl_name },
	{ "getppid", t_getppid },
	{ "seccomp_filter", t_seccomp_filter },
	{ "seccomp_tsync", t_seccomp_tsync },
};

static int
prepare(struct prep *p)
{
	/* Only 0-2 survive, as in the child (privsep.md §4 step 0). */
	closefrom(3);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p->sv) != 0)
		return -1;
	p->ep = epoll_create1(EPOLL_CLOEXEC);
	if (p->ep < 0)
		return -1;
	p->rw = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->rw == MAP_FAILED)
		return -1;
	return 0;
}

static int
export(const char *which)
{
	int rc;

	if (strcmp(which, "child") == 0)
		rc = cg_seccomp_export_child(stdout);
	else if (strcmp(which, "zygote") == 0)
		rc = cg_seccomp_export_zygote(stdout);
	else if (strcmp(which, "final") == 0)
		rc = cg_seccomp_export_final(stdout);
	else if (strcmp(which, "pinner") == 0)
		rc = cg_seccomp_export_pinner(stdout);
	else
		return 2;
	return rc != 0 || fflush(stdout) != 0 ? 5 : 0;
}

int
main(int argc, char **argv)
{
	struct sandbox_result res;
	struct sock_fprog final;
	struct prep p;
	const char *dir;
	char line[64];
	int zygote = 0, rc;
	pid_t parent, pid;
	size_t i;

	if (argc == 3 && strcmp(argv[1], "--export-pfc") == 0)
		return export(argv[2]);
	if (argc >= 2 && strcmp(argv[1], "--zygote") == 0) {
		zygote = 1;
		argv++;
		argc--;
	}
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: try_syscall [--zygote] NAME "
		    "[CHROOT_DIR|-]\n"
		    "       try_syscall --export-pfc child|zygote|final|pinner\n");
		return 2;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(cases[i].name, argv[1]) == 0)
			break;
	if (i == sizeof(cases) / sizeof(cases[0])) {
		fprintf(stderr, "try_syscall: unknown call %s\n", argv[1]);
		return 2;
	}
	dir = argc == 3 && strcmp(argv[2], "-") != 0 ? argv[2] : NULL;

	if (prepare(&p) != 0) {
		perror("try_syscall: prepare");
		return 5;
	}
	/* as unpriv/zygote.c: the final filter first, then the sandbox */
	if ((rc = cg_seccomp_final_prog(&final)) != 0) {
		say("cg_seccomp_final_prog failed: ", strerrorname_np(-rc));
		return 3;
	}
	parent = getppid();
	if (sandbox_enter_zygote(dir, 8, &res) != 0) {
		say("sandbox_enter_zygote failed at ", res.step);
		say("  errno ", strerrorname_np(res.err));
		return 3;
	}
	if (zygote)
		return cases[i].fn(&p);
	pid = (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, NULL, NULL, 0);
	if (pid < 0) {
		say("clone failed: ", strerrorname_np(errno));
		return 3;
	}
	if (pid == 0) {
		if (sandbox_finish_child(&final, parent, &res) != 0) {
			say("sandbox_finish_child failed at ", res.step);
			say("  errno ", strerrorname_np(res.err));
			return 3;
		}
		return cases[i].fn(&p);
	}
	snprintf(line, sizeof(line), "%d", (int)pid);
	say("child-pid ", line);
	return 0;
}
