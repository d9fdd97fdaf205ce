/*
 * The request parser's sandbox (privsep.md §4): one demotion function,
 * every step fatal on failure.
 */
#ifndef CG_SANDBOX_H
#define CG_SANDBOX_H

#include <sys/types.h>
#include <linux/filter.h>
#include <linux/securebits.h>

/*
 * Securebits set and locked when CAP_SETPCAP allows it (privsep.md §4
 * [S]; the zygote's sandbox and the monitor's confinement):
 * NOROOT: uid 0 (in this user namespace) no longer grants capabilities
 * on execve; NO_CAP_AMBIENT_RAISE: the ambient set stays empty;
 * KEEP_CAPS and NO_SETUID_FIXUP are locked OFF, so that a later
 * set*uid() always clears the capability sets.
 */
#define CG_LOCKED_SECBITS	(SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | \
	SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED | \
	SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_SETUID_FIXUP_LOCKED)

struct sandbox_result {
	int namespaces;		/* 1 when new user/mount/net/ipc/uts namespaces */
	int chroot;		/* 1 when chrooted */
	const char *step;	/* failed step name (<= 31 bytes), else NULL */
	int err;		/* errno of the failed step */
	int report_ready;	/* a child: send CHILD_READY (the monitor's
				   ZYGOTE_SPAWN asked: its start-up
				   self-test) */
};


/*
 * Enter the zygote's sandbox (privsep.md §4 steps 1-6; order and reasons
 * in sandbox.c): rlimits, soft = hard, never raised (NOFILE = nofile >= 1,
 * CORE/MEMLOCK 0; FSIZE 0 and AS 512 MiB unless built with CG_SANITIZE,
 * unpriv/sanitize.h; NPROC is left to sandbox_finish_child); euid 0:
 * chroot(chroot_dir) refusing a
 * writable root, bounding set emptied and securebits locked, setgroups(0),
 * setresgid/setresuid 65534, verified irreversible; not root:
 * user+mount+net+ipc+uts namespaces and an empty read-only root (a tmpfs
 * on chroot_dir, else /tmp) when the kernel allows it (skipped, not fatal,
 * when refused); a caller's PR_SET_PDEATHSIG re-armed; every capability
 * set cleared with libcap and verified; PR_SET_NO_NEW_PRIVS;
 * PR_SET_DUMPABLE 0; the zygote's filter of seccomp/filter.h last.
 * chroot_dir: an empty root-owned directory (mode 0500), required when
 * euid is 0, optional otherwise. res may be NULL. Returns 0 with
 * res->namespaces / res->chroot set, or -1 with res->step (static name:
 * "rlimit", "chroot", "setresuid", "seccomp", ...) and res->err (errno,
 * never 0); on -1 the process is half-demoted and must exit.
 */
int sandbox_enter_zygote(const char *chroot_dir, int nofile,
    struct sandbox_result *res);

/*
 * In a child just cloned from the zygote (with CLONE_PARENT, so monitor
 * is its parent): PR_SET_PDEATHSIG SIGKILL and a check that monitor is
 * still the parent, RLIMIT_NPROC 0, then the final filter final
 * (cg_seccomp_final_prog) on top of the zygote's. Returns 0, or -1 with
 * res->step ("pdeathsig", "rlimit", "seccomp") and res->err set; the
 * process must then exit.
 */
int sandbox_finish_child(const struct sock_fprog *final, pid_t monitor,
    struct sandbox_result *res);

#endif
