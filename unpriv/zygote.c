/*
 * The zygote: the template request parsers are forked from (doc/privsep.md
 * "Scaling"; privsep.md §2 as amended on 2026-12-01). It is exec'd once by the
 * monitor, enters the sandbox once (chroot, uid 65534, no capabilities,
 * no_new_privs, its own seccomp filter), holds no secret and never reads
 * a client byte: it only forks. Each child it forks then installs the
 * final filter, compiled here before the zygote's own filter was loaded,
 * and only then serves a connection. Replaces an exec and a full sandbox
 * set-up per connection (2.4 ms of CPU each, measured with make bench) by a
 * fork of a small process and one seccomp() call.
 *
 * Why clone(CLONE_PARENT): the child's parent is the monitor, which
 * reaps it, sees how it died (privsep.md §10), kills it on a violation,
 * and finds it among its children like before; the zygote never has a
 * child of its own to wait for. The raw clone system call (not fork())
 * is used because glibc's fork() cannot pass CLONE_PARENT; the process
 * is single-threaded and holds no libc lock at that point.
 */
#include "unpriv/child.h"

#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <link.h>
#include <sys/mman.h>

#include "base/xmalloc.h"
#include "ipc/proto.h"
#include "seccomp/filter.h"
#include "unpriv/sandbox.h"
#include "unpriv/sanitize.h"

/* a request larger than any free chunk: malloc sorts all of them */
#define ZYGOTE_SORT_BYTES	(64 * 1024)

static void __attribute__((noreturn))
report_failure(const struct sandbox_result *sr)
{
	struct ipc_msg m = { .type = IPC_SANDBOX_FAILED, .fd = -1 };

	m.u.sandbox_failed.step = ipc_cstr(sr->step != NULL ? sr->step :
	    "unknown");
	m.u.sandbox_failed.err = sr->err;
	(void)ipc_send(CHILD_IPC_FD, &m, 0);
	_exit(1);
}

/*
 * In the new child: the IPC socket onto fd 3, the final sandbox, serve.
 * buf is the zygote's receive buffer (IPC_MSG_MAX + 1 bytes), now the
 * child's own copy: it becomes the child's, so the child maps nothing
 * for it (a mapping less to make and to tear down per child).
 */
static void __attribute__((noreturn))
become_child(int ipc, const struct sock_fprog *final, pid_t monitor,
    struct sandbox_result *sr, unsigned char *buf)
{
	/* replaces the zygote's control socket, which the child must not keep */
	if (dup3(ipc, CHILD_IPC_FD, 0) < 0)
		_exit(1);
	close(ipc);
	(void)prctl(PR_SET_NAME, "cg-conn", 0, 0, 0);
	if (sandbox_finish_child(final, monitor, sr) < 0)
		report_failure(sr);
	child_run(sr, buf);
}

/*
 * dl_iterate_phdr() callback: the segments of libseccomp and libcap get
 * MADV_DONTFORK, so that the children of the zygote do not have them
 *. A request parser calls neither library (its final filter
 * is a program compiled before, loaded with the raw system call), and a
 * fork copies, and an exit tears down, every mapping: 10 of the zygote's
 * 40 go. The zygote is exec'd with LD_BIND_NOW=1
 * (cg_sanitize_child_env), so no lazy symbol lookup in a child walks
 * their tables at run time (it did, and died of SIGSEGV, when this was
 * first tried without it). Not in sanitizer builds, whose runtime keeps
 * its own view of the mappings.
 */
static int
dontfork(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a, e;
	int i;

	(void)size;
	(void)arg;
	if (info->dlpi_name == NULL ||
	    (strstr(info->dlpi_name, "/libseccomp.so") == NULL &&
	    strstr(info->dlpi_name, "/libcap.so") == NULL))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		a = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
		e = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + page - 1) &
		    ~(page - 1);
		(void)madvise((void *)a, e - a, MADV_DONTFORK);
	}
	return 0;
}

void
zygote_main(const char *chroot_dir)
{
	struct sandbox_result sr;
	struct sock_fprog final;
	struct ipc_msg m;
	unsigned char *buf = xmalloc(IPC_MSG_MAX + 1);
	pid_t monitor = getppid(), pid;
	int rc;

	memset(&sr, 0, sizeof(sr));
	(void)prctl(PR_SET_NAME, "cg-zygote", 0, 0, 0);
	/* compiled now: after its own filter the zygote has no memfd */
	rc = cg_seccomp_final_prog(&final);
	if (rc < 0) {
		sr.step = "seccomp";
		sr.err = -rc;
		report_failure(&sr);
	}
	if (sandbox_enter_zygote(chroot_dir, CHILD_NOFILE, &sr) < 0)
		report_failure(&sr);
	m = (struct ipc_msg){ .type = IPC_CHILD_READY, .fd = -1 };
	m.u.child_ready.pid = (uint32_t)getpid();
	m.u.child_ready.namespaces = (uint8_t)sr.namespaces;
	m.u.child_ready.chroot = (uint8_t)sr.chroot;
	if (ipc_send(CHILD_IPC_FD, &m, 0) != IPC_OK)
		_exit(1);
	/*
	 * What building the filters and the sandbox freed goes back to the
	 * kernel before the first fork, and what stays is sorted into
	 * malloc's bins here, once: left in the fast and unsorted lists, it
	 * was consolidated and sorted by each child's first large malloc,
	 * which writes into every free chunk: every page of the heap became a
	 * private copy in every child (19 copy-on-write faults and 76 KiB per
	 * child, measured).
	 */
	(void)malloc_trim(0);
	free(xmalloc(ZYGOTE_SORT_BYTES));
	if (!CG_SANITIZE_BUILD)
		(void)dl_iterate_phdr(dontfork, NULL);

	for (;;) {
		rc = ipc_recv(CHILD_IPC_FD, buf, IPC_MSG_MAX + 1, &m, 1, 0);
		if (rc == IPC_EOF)
			_exit(0);
		if (rc != IPC_OK || m.type != IPC_ZYGOTE_SPAWN)
			_exit(1);
		sr.report_ready = m.u.zygote_spawn.ready;
		pid = (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, NULL,
		    NULL, 0);
		if (pid == 0)
			become_child(m.fd, &final, monitor, &sr, buf);
		rc = errno;
		close(m.fd);
		m = (struct ipc_msg){ .type = IPC_ZYGOTE_SPAWNED, .fd = -1 };
		m.u.zygote_spawned.pid = pid > 0 ? (uint32_t)pid : 0;
		m.u.zygote_spawned.err = pid > 0 ? 0 : rc;
		if (ipc_send(CHILD_IPC_FD, &m, 0) != IPC_OK)
			_exit(1);
	}
}
