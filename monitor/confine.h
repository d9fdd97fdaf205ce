/*
 * The monitor confines itself once start-up is over (doc/privsep.md "The
 * monitor's confinement"; privsep.md §5; style.md §11): it keeps only the
 * capabilities it uses, sets no_new_privs, limits what it may change on the
 * filesystem to the run directory (Landlock) and loads its own seccomp
 * allow-list (seccomp/monitor.c). doc/privsep.md lists every capability and
 * system call kept, and why.
 */
#ifndef CG_CONFINE_H
#define CG_CONFINE_H

#include <sys/capability.h>

/* What the confinement did (start-up log line, tests). */
struct confine_result {
	int kept_kill;		/* CAP_KILL kept: children run as 65534 */
	int kept_net_admin;	/* CAP_NET_ADMIN kept for the IPC buffers */
	int bounding_dropped;	/* bounding set emptied, securebits locked */
	int landlock_abi;	/* Landlock ABI in force; 0: none */
	int log_reopen;		/* SIGHUP may reopen the log (needs Landlock) */
	int seccomp;		/* the filter is loaded (0 only under valgrind) */
	const char *step;	/* on failure: the step that failed */
	int err;		/* on failure: its errno */
};

/*
 * Keep only the capabilities the monitor uses after start-up and set
 * PR_SET_NO_NEW_PRIVS. Called once the zygote has been exec'd (the last
 * exec; the zygote needed the monitor's capabilities to enter its own
 * sandbox). As root: CAP_KILL (the children and the zygote run as
 * 65534; privsep.md §10 kills them), plus CAP_NET_ADMIN only when
 * net.core.wmem_max or rmem_max is below IPC_SOCKBUF (the IPC pairs'
 * 512 KiB of privsep.md §6.1 then need SO_SNDBUFFORCE); everything else
 * leaves the effective, permitted and inheritable sets, the ambient set
 * is cleared, and with CAP_SETPCAP the bounding set is emptied and the
 * securebits NOROOT, NO_CAP_AMBIENT_RAISE are set and locked (style.md
 * §9 step 3). Not root: whatever the process has is dropped. The result
 * is read back and compared. Fills *cr; returns 0, or -1 with
 * cr->step/err set ("capabilities", "bounding", "securebits",
 * "no_new_privs").
 */
int confine_caps(struct confine_result *cr);

/*
 * The second half of confine_caps() for any process: keep exactly the
 * nkeep capabilities keep[] (effective and permitted; they must be in
 * the permitted set), empty the bounding set and lock the securebits
 * when CAP_SETPCAP allows, clear ambient and inheritable, read the
 * result back, set PR_SET_NO_NEW_PRIVS. Used by the monitor and the
 * pinner (monitor/pinner.c). Returns 0, or -1 with cr->step/err set;
 * cr->bounding_dropped tells whether the bounding set went.
 */
int confine_keep_caps(const cap_value_t *keep, int nkeep,
    struct confine_result *cr);

/*
 * The value of /proc/sys/net/core/<name> (a short file name such as
 * "wmem_max"), in bytes. Returns -1 when the file cannot be opened or
 * does not start with a number. confine_caps() reads wmem_max and
 * rmem_max to decide on CAP_NET_ADMIN (socket(7): SO_SNDBUF/SO_RCVBUF
 * are capped there); tests/test_confine.c reads them through this
 * function to know which capabilities to expect.
 */
long confine_sysctl_bytes(const char *name);

/* 1 under valgrind (make check-valgrind): no seccomp filter is loaded. */
int confine_under_valgrind(void);

/*
 * Confine the monitor for its event loop; the last step of start-up,
 * after the sockets are bound. In order: the sanitizer runtime's lazy
 * state (sanitizer builds; unpriv/sanitize.h), Landlock (when the kernel
 * has it): of all file-system writes only removing files, creating
 * regular files and opening files for writing, and those only beneath
 * run_dir (graceful exit, the daemon's log reopen); TCP bind/connect and
 * abstract unix sockets refused where the ABI knows them; then the
 * SIGSYS reporter and the seccomp filter (SIGHUP's log reopen is
 * allowed only under Landlock). Under valgrind (check-valgrind) neither
 * Landlock nor the filter is loaded: valgrind's own calls would be
 * refused. Fills *cr; returns 0, or -1 with cr->step/err set
 * ("landlock", "sigaction", "seccomp").
 */
int confine_monitor(const char *run_dir, struct confine_result *cr);

/*
 * The INFO "sandbox" line saying how the monitor is confined (cli.md §14:
 * text, and JSON fields seccomp, capabilities, landlock_abi, log_reopen).
 */
void confine_log(const struct confine_result *cr);

#endif
