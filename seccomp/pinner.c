/*
 * The pinner's seccomp allow-list (monitor/pinner.c; doc/privsep.md "The
 * pinner"), loaded once its directories are set up. From then on it only
 * reads requests from its socket and answers them, walks a source path
 * one component at a time with O_PATH|O_NOFOLLOW opens, creates missing
 * source directories (0755) and its own mount points (0700 directories,
 * empty 0600 files), clones the opened source with open_tree() and
 * attaches it with move_mount() (or, where the kernel has no open_tree,
 * mount(MS_BIND|MS_REC) of /proc/self/fd/N), detaches and removes its
 * mount points, and lists its key directory.
 *
 * Everything else kills the process (the monitor logs how it ended and
 * the gateway stops): no execve, no fork, no socket, no other open, no
 * other mount call (no remount, no propagation change, no pivot_root),
 * no chmod/chown, no rename, no link, no ptrace, no set*id, no capset,
 * no prctl, no ioctl. Argument limits are exact where the value is not a
 * pointer: the four openat flag sets, the two mkdirat modes, open_tree's,
 * move_mount's, mount's and umount2's flags, unlinkat's. Paths are
 * pointers: monitor/pinner.c checks them itself (pin_path_ok,
 * pin_name_ok). The policy is tests/golden/pinner.pfc (checked by
 * tests/test_sandbox.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

#include <seccomp.h>

#include "seccomp/filter.h"
#include "seccomp/rules.h"

static const int pin_plain[] = {
	SCMP_SYS(recvfrom),	/* a request (recv) */
	SCMP_SYS(sendto),	/* its answer (send) */
	SCMP_SYS(close),	/* each component's descriptor */
	SCMP_SYS(newfstatat),	/* fstat(): the source's type */
	SCMP_SYS(getdents64),	/* LIST: the key directory */
	SCMP_SYS(brk),		/* libc memory (none is asked for) */
	SCMP_SYS(munmap),
	SCMP_SYS(exit_group),	/* its socket closed: the end */
	SCMP_SYS(exit),
};

static int
rule(scmp_filter_ctx ctx, int nr, unsigned arg, scmp_datum_t v)
{
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
	    SCMP_CMP(arg, SCMP_CMP_EQ, v, 0));
}

static int
build_pinner(scmp_filter_ctx *out)
{
	static const scmp_datum_t opens[] = {
		CG_PIN_OPEN_WALK, CG_PIN_OPEN_LAST, CG_PIN_OPEN_MKFILE,
		CG_PIN_OPEN_LIST,
	};
	scmp_filter_ctx ctx;
	size_t i;
	int rc;

	ctx = cg_scmp_init(SCMP_ACT_KILL_PROCESS, 1);
	if (ctx == NULL)
		return -ENOMEM;
	rc = 0;
	if (rc == 0)
		rc = cg_scmp_allow(ctx, pin_plain, NELEM(pin_plain));
	for (i = 0; rc == 0 && i < NELEM(opens); i++)
		rc = rule(ctx, SCMP_SYS(openat), 2, opens[i]);
	if (rc == 0)	/* a missing source directory, as the daemons make it */
		rc = rule(ctx, SCMP_SYS(mkdirat), 2, 0755);
	if (rc == 0)	/* a mount point for a directory */
		rc = rule(ctx, SCMP_SYS(mkdirat), 2, 0700);
	if (rc == 0)
		rc = rule(ctx, SCMP_SYS(open_tree), 2, CG_PIN_OPEN_TREE);
	if (rc == 0)
		rc = rule(ctx, SCMP_SYS(move_mount), 4, MOVE_MOUNT_F_EMPTY_PATH);
	if (rc == 0)	/* kernels before 5.2: bind /proc/self/fd/N */
		rc = rule(ctx, SCMP_SYS(mount), 3, MS_BIND | MS_REC);
	if (rc == 0)
		rc = rule(ctx, SCMP_SYS(umount2), 1, MNT_DETACH | UMOUNT_NOFOLLOW);
	if (rc == 0)
		rc = rule(ctx, SCMP_SYS(unlinkat), 2, 0);
	if (rc == 0)
		rc = rule(ctx, SCMP_SYS(unlinkat), 2, AT_REMOVEDIR);
	/* mmap/mprotect without PROT_EXEC, fcntl flag reads, madvise */
	return cg_scmp_finish(ctx, rc, out);
}

int
cg_seccomp_load_pinner(void)
{
	scmp_filter_ctx ctx;
	int rc;

	rc = build_pinner(&ctx);
	return rc < 0 ? rc : cg_scmp_load_release(ctx);
}

int
cg_seccomp_export_pinner(FILE *f)
{
	scmp_filter_ctx ctx;
	int rc;

	rc = build_pinner(&ctx);
	return rc < 0 ? rc : cg_scmp_export_release(f, ctx);
}
