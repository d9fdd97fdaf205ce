/*
 * A relay pipe: bytes moved between two sockets with splice(2) through a
 * pipe, so that the process in the middle never copies them (doc/privsep.md
 * "Relaying"). The owner bounds the bytes waiting (len) the way it bounds a
 * struct fifo; the pipe's slots bound how many pieces. Descriptors are -1
 * while closed.
 */
#ifndef CG_RPIPE_H
#define CG_RPIPE_H

#include <stddef.h>
#include <sys/types.h>

#define RPIPE_SIZE	(1u << 20)	/* responses: 256 slots (F_SETPIPE_SZ) */
#define RPIPE_UP_SIZE	(256u << 10)	/* request bodies: 64 slots */

struct rpipe {
	int fd[2];		/* read end, write end; -1 while closed */
	size_t len;		/* bytes in the pipe */
	int full;		/* the last fill found no room (slots) */
};

/* A closed relay pipe (fd -1, empty). */
void rpipe_init(struct rpipe *p);

/*
 * Open p: a non-blocking, close-on-exec pipe, sized to size bytes when
 * the kernel allows it (fcntl F_SETPIPE_SZ; the default 16 slots stay
 * otherwise: pipe-max-size, the user's pipe-user-pages-soft). Returns 0,
 * or -1 with errno (EMFILE, ENFILE, ENOMEM) and p closed.
 */
int rpipe_open(struct rpipe *p, unsigned size);

/* Close p's descriptors (the bytes in it are dropped); p is closed. */
void rpipe_close(struct rpipe *p);

/*
 * splice(2) up to max bytes (max > 0) from the socket fd into p without
 * blocking (SPLICE_F_NONBLOCK: also on a blocking socket). Returns the
 * bytes moved, 0 at the socket's end-of-file, or -1 with errno: EAGAIN
 * when the socket has nothing or p has no free slot (p->full set when p
 * holds bytes, so that the caller waits for it to drain).
 */
ssize_t rpipe_fill(struct rpipe *p, int fd, size_t max);

/*
 * splice(2) up to max bytes of p's (max > 0) to the socket fd. The pipe
 * side never blocks; the socket must have O_NONBLOCK (SPLICE_F_NONBLOCK
 * does not reach a socket: it would block). Returns the bytes
 * moved, or -1 with errno (EAGAIN, EPIPE and ECONNRESET when the peer is
 * gone). Clears p->full after progress; p->len counts down by the bytes
 * moved (never below 0). SIGPIPE must be ignored.
 */
ssize_t rpipe_drain(struct rpipe *p, int fd, size_t max);

#endif
