/*
 * try_monitor: confine this process exactly as the monitor confines
 * itself after start-up (monitor/confine.c: confine_caps, then
 * confine_monitor), then make one system call (bubblewrap's
 * try-syscall.c pattern; tests/test_confine.c drives it).
 *
 *   try_monitor NAME RUN_DIR OUTSIDE_DIR
 *	Prepare what NAME needs before the confinement (a socket pair, a
 *	unix listening socket in RUN_DIR, a child to signal, an epoll fd),
 *	confine, print "confined caps=<CapEff hex> landlock=<abi>
 *	reopen=<0|1>" on stderr, then make the call NAME with raw
 *	syscall(2). RUN_DIR plays the run directory (Landlock allows
 *	removing and creating files in it), OUTSIDE_DIR any other directory.
 *
 *   try_monitor --export-pfc [reopen]
 *	Write the monitor's filter (with the log-reopen rule: "reopen") as
 *	PFC text to stdout; this regenerates the golden file:
 *	    ./tests/helpers/try_monitor --export-pfc reopen > tests/golden/monitor.pfc
 *
 * Exit status: 0 the call returned what it should; 2 usage; 3 the
 * confinement failed; 4 a call returned something else than expected;
 * 5 the preparation failed. A call the filter refuses never returns: the
 * monitor's SIGSYS reporter writes its ERROR line on stderr and the
 * process dies of SIGSYS.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "monitor/confine.h"
#include "seccomp/filter.h"
#include "tests/helpers/try_report.h"

#define PAGE	4096

struct prep {
	const char *run_dir, *outside;
	char in_file[512], out_file[512];	/* existing files */
	char in_file1[512];		/* RUN_DIR/inside.1, existing */
	int sv[2];		/* connected AF_UNIX stream pair */
	int lis;		/* listening socket RUN_DIR/l.sock */
	struct sockaddr_un sun;	/* its address */
	pid_t kid;		/* a child to signal and reap */
	int ep;			/* epoll instance */
	void *rw;		/* a read-write page */
};

/* ---- refused by the filter: the process dies of SIGSYS ---- */

static int t_execve(struct prep *p) { char *a[] = { "/bin/true", NULL }; (void)p; syscall(SYS_execve, a[0], a, a + 1); return 0; }
static int t_execveat(struct prep *p) { char *a[] = { "/bin/true", NULL }; (void)p; syscall(SYS_execveat, AT_FDCWD, a[0], a, a + 1, 0); return 0; }
static int t_clone(struct prep *p) { (void)p; syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0); return 0; }
#ifdef SYS_fork
static int t_fork(struct prep *p) { (void)p; syscall(SYS_fork); return 0; }
#endif
static int t_ptrace(struct prep *p) { syscall(SYS_ptrace, PTRACE_ATTACH, p->kid, 0, 0); return 0; }
static int t_socket_inet(struct prep *p) { (void)p; syscall(SYS_socket, AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0); return 0; }
static int t_socket_unix_dgram(struct prep *p) { (void)p; syscall(SYS_socket, AF_UNIX, SOCK_DGRAM, 0); return 0; }
static int t_socket_netlink(struct prep *p) { (void)p; syscall(SYS_socket, AF_NETLINK, SOCK_RAW, 0); return 0; }
static int t_socketpair_stream(struct prep *p) { int sv[2]; (void)p; syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, sv); return 0; }
static int t_bind(struct prep *p) { syscall(SYS_bind, p->sv[0], &p->sun, sizeof(p->sun)); return 0; }
static int t_listen(struct prep *p) { syscall(SYS_listen, p->sv[0], 1); return 0; }
#ifdef SYS_open
static int t_open(struct prep *p) { syscall(SYS_open, p->out_file, O_RDONLY); return 0; }
#endif
static int t_openat_read(struct prep *p) { syscall(SYS_openat, AT_FDCWD, p->out_file, O_RDONLY | O_CLOEXEC); return 0; }
static int t_openat_path(struct prep *p) { syscall(SYS_openat, AT_FDCWD, p->outside, O_PATH | O_CLOEXEC); return 0; }
static int t_mount(struct prep *p) { (void)p; syscall(SYS_mount, "none", "/", "tmpfs", 0, NULL); return 0; }
static int t_chroot(struct prep *p) { syscall(SYS_chroot, p->outside); return 0; }
static int t_setuid(struct prep *p) { (void)p; syscall(SYS_setuid, 0); return 0; }
static int t_capset(struct prep *p) { (void)p; syscall(SYS_capset, NULL, NULL); return 0; }
static int t_prctl(struct prep *p) { (void)p; syscall(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0); return 0; }
static int t_seccomp(struct prep *p) { (void)p; syscall(SYS_seccomp, 2 /* GET_ACTION_AVAIL */, 0, NULL); return 0; }
static int t_rt_sigaction(struct prep *p) { (void)p; syscall(SYS_rt_sigaction, SIGSYS, NULL, NULL, sizeof(uint64_t)); return 0; }
static int t_kill_all(struct prep *p) { (void)p; syscall(SYS_kill, -1, 0); return 0; }
static int t_kill_group(struct prep *p) { syscall(SYS_kill, -p->kid, SIGKILL); return 0; }
static int t_kill_usr1(struct prep *p) { syscall(SYS_kill, p->kid, SIGUSR1); return 0; }
static int t_tgkill_other(struct prep *p) { syscall(SYS_tgkill, p->kid, p->kid, SIGKILL); return 0; }
static int t_mmap_exec(struct prep *p) { (void)p; syscall(SYS_mmap, NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); return 0; }
static int t_mprotect_exec(struct prep *p) { syscall(SYS_mprotect, p->rw, PAGE, PROT_READ | PROT_EXEC); return 0; }
static int t_getsockopt_other(struct prep *p) { int v; socklen_t l = sizeof(v); syscall(SYS_getsockopt, p->sv[0], SOL_SOCKET, SO_TYPE, &v, &l); return 0; }
/* no send timeout any more: the client socket is non-blocking (relay) */
static int t_setsockopt_sndtimeo(struct prep *p) { struct timeval t = { 0, 1 }; syscall(SYS_setsockopt, p->sv[0], SOL_SOCKET, SO_SNDTIMEO, &t, sizeof(t)); return 0; }
static int t_setsockopt_other(struct prep *p) { int v = 1; syscall(SYS_setsockopt, p->sv[0], SOL_SOCKET, SO_REUSEADDR, &v, sizeof(v)); return 0; }
static int t_fcntl_dupfd(struct prep *p) { (void)p; syscall(SYS_fcntl, 2, F_DUPFD_CLOEXEC, 0); return 0; }
static int t_dup2_other(struct prep *p) { syscall(SYS_dup2, p->sv[0], 7); return 0; }
static int t_ioctl(struct prep *p) { int n; syscall(SYS_ioctl, p->sv[0], FIONREAD, &n); return 0; }
static int t_pipe2(struct prep *p) { int fd[2]; (void)p; syscall(SYS_pipe2, fd, O_CLOEXEC); return 0; }
static int t_memfd_create(struct prep *p) { (void)p; syscall(SYS_memfd_create, "x", 0); return 0; }
static int t_bpf(struct prep *p) { (void)p; syscall(SYS_bpf, 0, NULL, 0); return 0; }
static int t_io_uring_setup(struct prep *p) { (void)p; syscall(SYS_io_uring_setup, 1, NULL); return 0; }
static int t_process_vm_readv(struct prep *p) { syscall(SYS_process_vm_readv, p->kid, NULL, 0, NULL, 0, 0); return 0; }
static int t_pidfd_open(struct prep *p) { syscall(SYS_pidfd_open, p->kid, 0); return 0; }
static int t_rename(struct prep *p) { syscall(SYS_renameat2, AT_FDCWD, p->in_file, AT_FDCWD, p->out_file, 0); return 0; }
static int t_unlinkat_dir(struct prep *p) { syscall(SYS_unlinkat, AT_FDCWD, p->outside, AT_REMOVEDIR); return 0; }
#if defined(__x86_64__)
static int t_x32_getpid(struct prep *p) { (void)p; syscall(SYS_getpid | 0x40000000); return 0; }
#endif

/* ---- allowed, and what they must return ---- */

static int t_write(struct prep *p) { (void)p; return syscall(SYS_write, 2, "", 0) == 0 ? 0 : want_ok(-1); }
static int
t_socket_unix(struct prep *p)
{
	long fd = syscall(SYS_socket, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, 0);

	if (fd < 0)
		return want_ok(fd);
	/* connect() to a unix socket is not a Landlock right */
	if (syscall(SYS_connect, fd, &p->sun, sizeof(p->sun)) != 0)
		return want_ok(-1);
	return want_ok(syscall(SYS_accept4, p->lis, NULL, NULL, SOCK_CLOEXEC));
}
static int t_socketpair_ipc(struct prep *p) { int sv[2]; (void)p; return want_ok(syscall(SYS_socketpair, AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)); }
static int
t_sockopts(struct prep *p)
{
	int v = 1 << 19, got = 0;
	socklen_t l = sizeof(got);

	if (syscall(SYS_setsockopt, p->sv[0], SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) != 0)
		return want_ok(-1);
	return want_ok(syscall(SYS_getsockopt, p->sv[0], SOL_SOCKET, SO_ERROR, &got, &l));
}
static int
t_sendmsg_recvmsg(struct prep *p)
{
	char out = 'm', in = 0;
	struct iovec o = { &out, 1 }, i = { &in, 1 };
	struct msghdr mo = { .msg_iov = &o, .msg_iovlen = 1 };
	struct msghdr mi = { .msg_iov = &i, .msg_iovlen = 1 };

	if (syscall(SYS_sendmsg, p->sv[0], &mo, MSG_NOSIGNAL) != 1 ||
	    syscall(SYS_recvmsg, p->sv[1], &mi, MSG_CMSG_CLOEXEC) != 1)
		return want_ok(-1);
	return in == 'm' ? 0 : 4;
}
/* SIGTERM to a child, then reap it: the graceful exit */
static int
t_kill_child(struct prep *p)
{
	int st;

	if (syscall(SYS_kill, p->kid, SIGTERM) != 0)
		return want_ok(-1);
	if (syscall(SYS_wait4, p->kid, &st, 0, NULL) != p->kid)
		return want_ok(-1);
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM ? 0 : 4;
}
static int
t_pathres(struct prep *p)
{
	struct stat st;
	char buf[64];

	/* bind sources are resolved anywhere: lstat and readlink */
	if (syscall(SYS_newfstatat, AT_FDCWD, p->out_file, &st,
	    AT_SYMLINK_NOFOLLOW) != 0)
		return want_ok(-1);
	return want_errno(syscall(SYS_readlink, p->out_file, buf, sizeof(buf)),
	    EINVAL);	/* not a symlink */
}
static int t_unlink_inside(struct prep *p) { return want_ok(syscall(SYS_unlink, p->in_file)); }
/* the log rotation (ops/daemon.c rotate_log): rename within the run
   directory over an existing file, with glibc's rename() */
static int t_rename_inside(struct prep *p) { return want_ok(rename(p->in_file, p->in_file1)); }
/* Landlock: nothing renamed out of the run directory (EXDEV: a change of
   directory; EACCES: no right there), nor anywhere else */
static int
t_rename_out(struct prep *p)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/stolen", p->outside);
	if (rename(p->in_file, path) == -1 && (errno == EXDEV ||
	    errno == EACCES))
		return 0;
	return want_errno(-1, EXDEV);
}
static int
t_rename_outside(struct prep *p)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/moved", p->outside);
	return want_errno(rename(p->out_file, path), EACCES);
}
/* Landlock: outside the run directory nothing is removed */
static int t_unlink_outside(struct prep *p) { return want_errno(syscall(SYS_unlink, p->out_file), EACCES); }
static int
t_log_reopen_inside(struct prep *p)
{
	char path[600];
	long fd;

	snprintf(path, sizeof(path), "%s/container-gateway.log", p->run_dir);
	fd = syscall(SYS_openat, AT_FDCWD, path, CG_LOG_OPEN_FLAGS, 0600);
	if (fd < 0)
		return want_ok(fd);
	if (syscall(SYS_dup2, fd, 1) != 1)
		return want_ok(-1);
	return want_ok(syscall(SYS_geteuid));
}
static int
t_log_reopen_outside(struct prep *p)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/planted.log", p->outside);
	return want_errno(syscall(SYS_openat, AT_FDCWD, path, CG_LOG_OPEN_FLAGS,
	    0600), EACCES);
}
static int
t_epoll(struct prep *p)
{
	struct epoll_event ev = { .events = EPOLLOUT }, got;

	if (syscall(SYS_epoll_ctl, p->ep, EPOLL_CTL_ADD, p->sv[0], &ev) != 0)
		return want_ok(-1);
	return syscall(SYS_epoll_pwait, p->ep, &got, 1, 0, NULL, 8) == 1 ? 0 : 4;
}
static int t_fcntl_flags(struct prep *p) { return want_ok(syscall(SYS_fcntl, p->sv[0], F_SETFL, O_NONBLOCK)); }
/* the relay pipe (base/rpipe.c): made, grown, spliced through both ways */
static int
t_relay_pipe(struct prep *p)
{
	int fd[2];
	char c = 0;

	if (syscall(SYS_pipe2, fd, O_CLOEXEC | O_NONBLOCK) != 0 ||
	    syscall(SYS_fcntl, fd[1], F_SETPIPE_SZ, 1 << 20) < 0 ||
	    syscall(SYS_sendto, p->sv[1], "r", 1, 0, NULL, 0) != 1 ||
	    syscall(SYS_splice, p->sv[0], NULL, fd[1], NULL, 1,
	    SPLICE_F_NONBLOCK) != 1 ||
	    syscall(SYS_splice, fd[0], NULL, p->sv[0], NULL, 1,
	    SPLICE_F_NONBLOCK) != 1 ||
	    syscall(SYS_recvfrom, p->sv[1], &c, 1, 0, NULL, NULL) != 1)
		return want_ok(-1);
	return c == 'r' ? 0 : 4;
}
static int
t_sleep_time(struct prep *p)
{
	struct timespec ts = { 0, 1000 };
	struct sysinfo si;

	(void)p;
	if (syscall(SYS_clock_nanosleep, CLOCK_REALTIME, 0, &ts, NULL) != 0 ||
	    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) != 0)
		return want_ok(-1);
	return want_ok(syscall(SYS_sysinfo, &si));
}
static int
t_malloc(struct prep *p)
{
	char *a = malloc(32 << 20), *b, *small[64];
	size_t i;

	(void)p;
	if (a == NULL)
		return 4;
	memset(a, 1, 32 << 20);
	b = realloc(a, 64 << 20);
	if (b == NULL)
		return 4;
	free(b);
	/* dispatch.c gives memory back after a large request (madvise) */
	for (i = 0; i < 64; i++)
		small[i] = malloc(4096);
	for (i = 0; i < 64; i += 2)
		free(small[i]);
	(void)malloc_trim(0);
	for (i = 1; i < 64; i += 2)
		free(small[i]);
	return 0;
}
static int t_tgkill_self(struct prep *p) { (void)p; return want_ok(syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), 0)); }

static const struct {
	const char *name;
	int (*fn)(struct prep *);
} cases[] = {
	{ "execve", t_execve }, { "execveat", t_execveat },
	{ "clone", t_clone },
#ifdef SYS_fork
	{ "fork", t_fork },
#endif
	{ "ptrace", t_ptrace },
	{ "socket_inet", t_socket_inet }, { "socket_unix_dgram", t_socket_unix_dgram },
	{ "socket_netlink", t_socket_netlink },
	{ "socketpair_stream", t_socketpair_stream },
	{ "bind", t_bind }, { "listen", t_listen },
#ifdef SYS_open
	{ "open", t_open },
#endif
	{ "openat_read", t_openat_read }, { "openat_path", t_openat_path },
	{ "mount", t_mount }, { "chroot", t_chroot }, { "setuid", t_setuid },
	{ "capset", t_capset }, { "prctl", t_prctl }, { "seccomp", t_seccomp },
	{ "rt_sigaction", t_rt_sigaction },
	{ "kill_all", t_kill_all }, { "kill_group", t_kill_group },
	{ "kill_usr1", t_kill_usr1 }, { "tgkill_other", t_tgkill_other },
	{ "mmap_exec", t_mmap_exec }, { "mprotect_exec", t_mprotect_exec },
	{ "getsockopt_other", t_getsockopt_other },
	{ "setsockopt_other", t_setsockopt_other },
	{ "setsockopt_sndtimeo", t_setsockopt_sndtimeo },
	{ "fcntl_dupfd", t_fcntl_dupfd }, { "dup2_other", t_dup2_other },
	{ "ioctl", t_ioctl }, { "pipe2", t_pipe2 },
	{ "memfd_create", t_memfd_create }, { "bpf", t_bpf },
	{ "io_uring_setup", t_io_uring_setup },
	{ "process_vm_readv", t_process_vm_readv },
	{ "pidfd_open", t_pidfd_open }, { "rename", t_rename },
	{ "unlinkat_dir", t_unlinkat_dir },
#if defined(__x86_64__)
	{ "x32_getpid", t_x32_getpid },
#endif

	{ "write", t_write }, { "socket_unix", t_socket_unix },
	{ "socketpair_ipc", t_socketpair_ipc }, { "sockopts", t_sockopts },
	{ "sendmsg_recvmsg", t_sendmsg_recvmsg }, { "kill_child", t_kill_child },
	{ "pathres", t_pathres }, { "unlink_inside", t_unlink_inside },
	{ "unlink_outside", t_unlink_outside },
	{ "log_reopen_inside", t_log_reopen_inside },
	{ "log_reopen_outside", t_log_reopen_outside },
	{ "rename_inside", t_rename_inside }, { "rename_out", t_rename_out },
	{ "rename_outside", t_rename_outside },
	{ "epoll", t_epoll }, { "fcntl_flags", t_fcntl_flags },
	{ "relay_pipe", t_relay_pipe },
	{ "sleep_time", t_sleep_time }, { "malloc", t_malloc },
	{ "tgkill_self", t_tgkill_self },
};

/* An existing empty file dir/name, its path into out. */
static int
touch(const char *dir, const char *name, char *out, size_t sz)
{
	int fd;

	snprintf(out, sz, "%s/%s", dir, name);
	fd = open(out, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int
prepare(struct prep *p)
{
	int ready[2];
	pid_t parent;
	char b;

	if (touch(p->run_dir, "inside", p->in_file, sizeof(p->in_file)) != 0 ||
	    touch(p->run_dir, "inside.1", p->in_file1, sizeof(p->in_file1)) != 0 ||
	    touch(p->outside, "outside", p->out_file, sizeof(p->out_file)) != 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p->sv) != 0)
		return -1;
	p->sun.sun_family = AF_UNIX;
	snprintf(p->sun.sun_path, sizeof(p->sun.sun_path), "%s/l.sock",
	    p->run_dir);
	unlink(p->sun.sun_path);
	p->lis = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p->lis < 0 || bind(p->lis, (struct sockaddr *)&p->sun,
	    sizeof(p->sun)) != 0 || listen(p->lis, 4) != 0)
		return -1;
	p->ep = epoll_create1(EPOLL_CLOEXEC);
	p->rw = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->ep < 0 || p->rw == MAP_FAILED)
		return -1;
	/* a child that dies with us: armed before we go on (no race) */
	if (pipe2(ready, O_CLOEXEC) != 0)
		return -1;
	parent = getpid();
	p->kid = fork();
	if (p->kid < 0)
		return -1;
	if (p->kid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(1);
		close(ready[0]);
		close(ready[1]);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &b, 1) != 0)	/* EOF once the child is armed */
		return -1;
	close(ready[0]);
	return 0;
}

/* CapEff of /proc/self/status (read before the filter forbids open). */
static void
cap_eff(char out[17])
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	snprintf(out, 17, "?");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "CapEff:\t", 8) == 0)
			snprintf(out, 17, "%.16s", line + 8);
	if (f != NULL)
		fclose(f);
}

int
main(int argc, char **argv)
{
	struct confine_result cr;
	char caps[17], line[96];
	struct prep p;
	size_t i;

	if (argc >= 2 && strcmp(argv[1], "--export-pfc") == 0)
		return cg_seccomp_export_monitor(stdout, argc == 3 &&
		    strcmp(argv[2], "reopen") == 0 ? CG_MONITOR_LOG_REOPEN : 0)
		    != 0 || fflush(stdout) != 0 ? 5 : 0;
	if (argc != 4) {
		fprintf(stderr, "usage: try_monitor NAME RUN_DIR OUTSIDE_DIR\n"
		    "       try_monitor --export-pfc [reopen]\n");
		return 2;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(cases[i].name, argv[1]) == 0)
			break;
	if (i == sizeof(cases) / sizeof(cases[0])) {
		fprintf(stderr, "try_monitor: unknown call %s\n", argv[1]);
		return 2;
	}
	memset(&p, 0, sizeof(p));
	p.run_dir = argv[2];
	p.outside = argv[3];
	if (prepare(&p) != 0) {
		perror("try_monitor: prepare");
		return 5;
	}
	/* the order of monitor/serve.c */
	if (confine_caps(&cr) != 0)
		goto failed;
	cap_eff(caps);
	if (confine_monitor(p.run_dir, &cr) != 0)
		goto failed;
	snprintf(line, sizeof(line), "caps=%s landlock=%d reopen=%d", caps,
	    cr.landlock_abi, cr.log_reopen);
	say("confined ", line);
	return cases[i].fn(&p);
failed:
	fprintf(stderr, "try_monitor: confinement failed at %s: %s\n", cr.step,
	    strerror(cr.err));
	return 3;
}
