/*
 * Pinned bind sources (spec amendment of 2026-12-07, "what was checked is
 * what the daemon uses"; doc/privsep.md "The pinner").
 *
 * A bind source the monitor checked at create is opened and bind-mounted,
 * as it is at that moment, under a root-only staging directory
 * <base>/pins/<key>/<name> (base PIN_BASE, key one per run directory); the
 * container's source is rewritten to that path, so every later start,
 * restart, init and archive call mounts the directory that was checked,
 * whatever happens to the original path. The mounts are made by the
 * pinner, a small privileged process forked before the monitor confines
 * itself (monitor/pinner.c), which takes typed requests over a socket
 * pair and checks each again; the monitor's side is monitor/pins.c.
 */
#ifndef CG_PIN_H
#define CG_PIN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "policy/policy.h"

#define PIN_BASE	"/run/container-gateway"
#define PIN_NAME_MAX	40		/* bytes of a pin's name */
#define PIN_MAGIC	0x4e495043u	/* "CPIN" */

enum pin_op {
	PIN_OP_READY = 1,	/* pinner -> monitor, once: set up (err 0) or not */
	PIN_OP_PIN,		/* bind path at name */
	PIN_OP_UNPIN,		/* unmount and remove name */
	PIN_OP_LIST,		/* the names under the key directory */
	PIN_OP_ANSWER,		/* pinner -> monitor: the answer to seq */
};

#define PIN_F_CREATE	1u	/* PIN: create missing directories (0755) */
#define PIN_F_DIR	2u	/* ANSWER to PIN: the source is a directory */
#define PIN_F_MORE	4u	/* ANSWER to LIST: more names after these */

/*
 * One message, one datagram of exactly sizeof(struct pin_msg) bytes on a
 * SOCK_SEQPACKET pair; strings NUL-terminated within their arrays.
 */
struct pin_msg {
	uint32_t magic;
	uint32_t op;
	uint32_t seq;		/* the answer repeats the request's */
	uint32_t flags;
	int32_t err;		/* ANSWER, READY: 0 or an errno */
	uint32_t start;		/* LIST: names to skip */
	char name[PIN_NAME_MAX + 1];	/* PIN, UNPIN */
	char path[CG_PATH_MAX + 1];	/* PIN: the resolved source; ANSWER
					   to LIST: names, one per line */
	char why[160];		/* ANSWER, READY: what failed */
};

/* What the pinner knows: its directories and the roots it pins from. */
struct pinner_conf {
	char base[CG_PATH_MAX + 1];	/* PIN_BASE, or a test's directory */
	char key[PIN_NAME_MAX + 1];	/* the run directory's key */
	char rundir[CG_PATH_MAX + 1];	/* the run directory, resolved */
	const char *const *roots;	/* the bind roots, resolved */
	int nroots;
	const char *const *excluded;	/* never pinned (run directory, ...) */
	int nexcluded;
	int no_open_tree;		/* tests: use the mount(2) fallback */
};

/*
 * 1 when name is a pin name: 1 to PIN_NAME_MAX bytes of [0-9a-z-], not
 * starting with '-'. The monitor makes the names; the pinner checks them.
 */
int pin_name_ok(const char *name);

/*
 * 1 when path is a pinnable resolved source for conf: absolute, at most
 * CG_PATH_MAX bytes, no empty, "." or ".." component, no trailing '/'
 * (except "/" itself), equal to or below one of conf->roots and not
 * equal to or below any conf->excluded nor conf->base.
 */
int pin_path_ok(const struct pinner_conf *conf, const char *path);

/*
 * Start the pinner (root only): a fork that keeps only fd (its end of a
 * new socket pair), stderr and /dev/null, sets up conf's directories
 * (base, base/pins, base/pins/key: created 0700, each a real directory
 * owned by root and not group- or world-writable), keeps only
 * CAP_SYS_ADMIN and CAP_DAC_OVERRIDE, locks its securebits, sets
 * no_new_privs and loads its seccomp filter (seccomp/pinner.c), then
 * sends READY and serves requests until its socket closes. Returns the
 * pid with *fd set to the monitor's end (blocking, close-on-exec), or -1
 * with errno (socketpair, fork). The caller reads READY.
 */
pid_t pinner_start(const struct pinner_conf *conf, int *fd);

/*
 * The pinner's operations, exposed for tests/test_pin.c (they run in the
 * pinner after its set-up; keyfd is the key directory, opened O_PATH):
 *   pinner_setup  create and check conf's directories, record conf's run
 *                 directory in <key>/.rundir, and remove the pins of
 *                 every other key whose recorded run directory no longer
 *                 exists (no gateway can sweep them again: a test's or a
 *                 removed project's); keyfd, or -errno with why set;
 *                 *reclaimed (may be NULL) the number of such pins;
 *   pinner_handle answer one request in *req (ANSWER in *ans).
 */
int pinner_setup(const struct pinner_conf *conf, char *why, size_t whysz,
    unsigned *reclaimed);
void pinner_handle(const struct pinner_conf *conf, int keyfd,
    const struct pin_msg *req, struct pin_msg *ans);

#endif
