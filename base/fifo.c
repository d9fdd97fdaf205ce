/* The relay byte FIFO (base/fifo.h). */
#include "base/fifo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/xmalloc.h"

const char *
fifo_data(const struct fifo *f)
{
	return f->p != NULL ? f->p + f->off : "";
}

char *
fifo_room(struct fifo *f, size_t n)
{
	if (f->cap - f->off - f->len >= n)
		return f->p + f->off + f->len;
	if (f->off > 0) {
		memmove(f->p, f->p + f->off, f->len);
		f->off = 0;
	}
	if (f->cap - f->len < n) {
		f->cap = f->len + n > 2 * f->cap ? f->len + n : 2 * f->cap;
		f->p = xrealloc(f->p, f->cap);
	}
	return f->p + f->len;
}

void
fifo_produced(struct fifo *f, size_t n)
{
	f->len += n;
}

void
fifo_put(struct fifo *f, const void *p, size_t n)
{
	if (n == 0)
		return;
	memcpy(fifo_room(f, n), p, n);
	f->len += n;
}

void
fifo_consume(struct fifo *f, size_t n)
{
	f->off += n;
	f->len -= n;
	if (f->len == 0)
		f->off = 0;
}

void
fifo_unput(struct fifo *f, size_t n)
{
	f->len -= n;
	if (f->len == 0)
		f->off = 0;
}

void
fifo_free(struct fifo *f)
{
	free(f->p);
	memset(f, 0, sizeof(*f));
}

ssize_t
fifo_recv(struct fifo *f, int fd, size_t max)
{
	char *at;
	ssize_t n;

	if (max == 0) {		/* a 0-byte recv would look like end-of-file */
		errno = EAGAIN;
		return -1;
	}
	at = fifo_room(f, max);
	do
		n = recv(fd, at, max, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		f->len += (size_t)n;
	return n;
}

ssize_t
fifo_send(struct fifo *f, int fd)
{
	ssize_t n;

	if (f->len == 0)
		return 0;
	do
		n = send(fd, f->p + f->off, f->len, MSG_DONTWAIT | MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		fifo_consume(f, (size_t)n);
	return n;
}
