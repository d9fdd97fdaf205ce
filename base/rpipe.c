/* The relay pipe (base/rpipe.h). */
#include "base/rpipe.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

void
rpipe_init(struct rpipe *p)
{
	p->fd[0] = p->fd[1] = -1;
	p->len = 0;
	p->full = 0;
}

int
rpipe_open(struct rpipe *p, unsigned size)
{
	rpipe_init(p);
	if (pipe2(p->fd, O_CLOEXEC | O_NONBLOCK) < 0) {
		p->fd[0] = p->fd[1] = -1;
		return -1;
	}
	/* best effort: a refused size keeps the default 16 slots */
	(void)fcntl(p->fd[1], F_SETPIPE_SZ, (int)size);
	return 0;
}

void
rpipe_close(struct rpipe *p)
{
	if (p->fd[0] >= 0)
		close(p->fd[0]);
	if (p->fd[1] >= 0)
		close(p->fd[1]);
	rpipe_init(p);
}

ssize_t
rpipe_fill(struct rpipe *p, int fd, size_t max)
{
	ssize_t n;

	do
		n = splice(fd, NULL, p->fd[1], NULL, max,
		    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		p->len += (size_t)n;
	else if (n < 0 && errno == EAGAIN && p->len > 0)
		p->full = 1;	/* or the socket is empty: draining tells */
	return n;
}

ssize_t
rpipe_drain(struct rpipe *p, int fd, size_t max)
{
	ssize_t n;

	do
		n = splice(p->fd[0], NULL, fd, NULL, max,
		    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	while (n < 0 && errno == EINTR);
	if (n > 0) {
		p->len -= (size_t)n < p->len ? (size_t)n : p->len;
		p->full = 0;
	}
	return n;
}
