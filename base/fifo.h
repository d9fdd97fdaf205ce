/*
 * A byte FIFO for relaying between sockets: bytes p[off..off+len) wait to
 * be sent; appending compacts before it grows. The caller bounds it (it
 * reads a socket only while len is below its limit), so the memory of a
 * relay stays bounded whatever the stream's size (doc/reliability.md).
 */
#ifndef CG_FIFO_H
#define CG_FIFO_H

#include <stddef.h>
#include <sys/types.h>

struct fifo {
	char *p;
	size_t cap;		/* bytes allocated */
	size_t off;		/* first byte waiting */
	size_t len;		/* bytes waiting */
};

/* The waiting bytes: fifo_data(f)[0..f->len). */
const char *fifo_data(const struct fifo *f);

/*
 * Make room for n more bytes after the waiting ones (moving them to the
 * front first, then growing; xoom() when out of memory) and return where
 * they go; fifo_produced() then counts what was written there.
 */
char *fifo_room(struct fifo *f, size_t n);
void fifo_produced(struct fifo *f, size_t n);

/* Append p[0..n) (fifo_room + memcpy + fifo_produced). */
void fifo_put(struct fifo *f, const void *p, size_t n);

/* Drop the first n waiting bytes (n <= len). */
void fifo_consume(struct fifo *f, size_t n);

/* Drop the last n waiting bytes (n <= len). */
void fifo_unput(struct fifo *f, size_t n);

/* Drop everything and free the memory; f is empty and usable again. */
void fifo_free(struct fifo *f);

/*
 * recv(2) up to max bytes from the socket fd into f without blocking
 * (MSG_DONTWAIT). Returns the bytes read, 0 at end-of-file, or -1 with
 * errno (EAGAIN when nothing is there).
 */
ssize_t fifo_recv(struct fifo *f, int fd, size_t max);

/*
 * send(2) the waiting bytes to the socket fd without blocking
 * (MSG_DONTWAIT | MSG_NOSIGNAL) and drop what was sent. Returns the bytes
 * sent (0 when f is empty), or -1 with errno (EAGAIN when the socket is
 * full; EPIPE, ECONNRESET when the peer is gone).
 */
ssize_t fifo_send(struct fifo *f, int fd);

#endif
