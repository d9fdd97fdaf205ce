/*
 * One backend's GET /version answer shared by the gateways of a machine
 * (doc/performance.md "idle gateways"; ops/vershare.c).
 *
 * Podman 4.3.1 answers GET /version with its whole Info(): it runs conmon,
 * the OCI runtime and dpkg-query for their versions, about 1 s of CPU and
 * a dozen processes per answer. Every gateway asked it once after
 * start-up, so 300 gateways started together had podman run thousands of
 * processes for minutes (load average 60 on 2 cores), most gateways gave
 * up at --backend-timeout with the runtime unknown, and new connections
 * through every gateway took 4 ms instead of 0.4 ms meanwhile (measured).
 *
 * Now, for a root gateway, the answer is kept in a file per backend
 * socket under PIN_BASE/versions (a root-only directory): the first
 * gateway to take the file's lock asks and writes the answer; the others
 * wait for the lock and read it, as long as it is for the same socket
 * (device, inode and change time: a restarted daemon binds a new one) and
 * at most VERSHARE_TTL_S old. --require-patched-backend never reads it
 * (it asks at start, synchronously). Without the directory (not root),
 * every gateway asks, as before.
 */
#ifndef CG_OPS_VERSHARE_H
#define CG_OPS_VERSHARE_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * Seconds an answer is reused: a runtime upgraded under a running daemon
 * is seen at most this late (a gateway used to keep its own answer for
 * its whole life); gateways started in one burst are minutes apart at
 * most (the 1,000 of bench/bench.py: 2.5 minutes in all).
 */
#define VERSHARE_TTL_S		600
#define VERSHARE_BODY_MAX	(1 << 20)	/* bytes of a kept answer */

/* What becomes of a backend's version question at start-up. */
enum vershare_role {
	VS_ALONE,	/* no shared file: ask, keep nothing */
	VS_READ,	/* a fresh answer was read: nothing to ask */
	VS_ASK,		/* this gateway holds the lock: ask, then write */
	VS_WAIT,	/* another gateway holds it: read when it lets go */
};

/*
 * Start-up (root, before the monitor is confined): open base/versions/<key>
 * for the backend socket at sock_path (key: 16 hex digits of its path's
 * hash) and decide the role. base/versions is created 0700 where missing
 * and used only when it is a real directory owned by root and not group-
 * or world-writable, and the file only when it is a regular file owned by
 * root with one link. Files of that directory older than a day are
 * removed on the way (one per backend socket ever used).
 * Returns the role; *fd is the file (lock held for VS_ASK, the file then
 * empty) for VS_ASK and VS_WAIT, else -1; *st the socket's stat (for
 * vershare_write, vershare_read); for VS_READ *body (malloc'd,
 * NUL-terminated) and *len the answer, *age_s how old it is.
 */
enum vershare_role vershare_open(const char *base, const char *sock_path,
    int *fd, struct stat *st, char **body, size_t *len, long *age_s);

/*
 * A waiter's turn (VS_WAIT, in the loop): 1 with *body, *len and *age_s
 * set when the lock was free and the file holds a fresh answer for st;
 * 0 when the lock is still held (wait on); -1 when it was let go without
 * a fresh answer (the asker failed: ask yourself). Uses flock and pread
 * only (both in the monitor's seccomp filter).
 */
int vershare_try(int fd, const struct stat *st, char **body, size_t *len,
    long *age_s);

/*
 * The asker's answer (VS_ASK): body[0..len) written after a header naming
 * st and the time, in one write at the file's start. Returns 0, or -1
 * (the file stays empty or short, which readers take as no answer).
 * The caller then closes fd, which lets the lock go.
 */
int vershare_write(int fd, const struct stat *st, const char *body,
    size_t len);

/*
 * Parse a kept file's bytes buf[0..n): 1 when it is an answer for st
 * written at most VERSHARE_TTL_S before now_s (seconds since the epoch),
 * with *off and *len its body's place in buf and *age_s its age; else 0.
 * Exposed for tests/test_vershare.c.
 */
int vershare_parse(const char *buf, size_t n, const struct stat *st,
    long long now_s, size_t *off, size_t *len, long *age_s);

#endif
