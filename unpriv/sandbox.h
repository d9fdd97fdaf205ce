/*
 * The request parser's sandbox (privsep.md §4): one demotion function,
 * every step fatal on failure.
 */
#ifndef CG_SANDBOX_H
#define CG_SANDBOX_H

struct sandbox_result {
	int namespaces;		/* 1 when new user/mount/net/ipc/uts namespaces */
	int chroot;		/* 1 when chrooted */
	const char *step;	/* failed step name (<= 31 bytes), else NULL */
	int err;		/* errno of the failed step */
};

/*
 * Enter the sandbox, in this order (privsep.md §4 steps 1-6): rlimits
 * (NOFILE = nofile, NPROC/FSIZE/CORE/MEMLOCK 0, AS 512 MiB unless built
 * with CG_SANITIZE), then when euid is 0: chroot(chroot_dir), chdir("/"),
 * setgroups(0), setresgid/setresuid 65534 and a check that uid 0 cannot
 * be regained; when not root: unshare user+mount+net+ipc+uts namespaces
 * if available (skipped, not fatal, when the kernel refuses); capabilities
 * cleared with libcap (all sets, ambient, bounding where permitted);
 * PR_SET_NO_NEW_PRIVS; PR_SET_DUMPABLE 0; the seccomp allow-list of
 * seccomp/filter.h loaded last.
 * The caller has already closed every descriptor it must not keep.
 * chroot_dir: an empty root-owned directory (mode 0500) when euid is 0;
 * may be NULL otherwise. Returns 0, or -1 with res->step / res->err set.
 */
int sandbox_enter(const char *chroot_dir, int nofile,
    struct sandbox_result *res);

#endif
