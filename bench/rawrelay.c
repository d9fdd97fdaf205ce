/*
 * rawrelay: the floor of `make bench`'s streaming figures
 * (doc/performance.md). The least any interposed process can cost: it accepts
 * on a unix socket and, in one forked process per connection, splices bytes
 * both ways between the client and the daemon socket through two 1 MiB pipes
 * (the size of the monitor's relay pipe, base/rpipe.h). It parses nothing and
 * checks nothing; half-close is passed on with shutdown(SHUT_WR).
 *
 *   rawrelay LISTEN_PATH DAEMON_PATH
 *
 * Runs until killed (SIGTERM); bench/bench.py starts and stops it by pid.
 * A bench tool, never installed: it is what the gateway's ratio would be
 * if policy were free, so a figure of the gateway close to this one says
 * the gap to direct is the cost of interposing a process at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define PIPE_SIZE	(1 << 20)

struct dir {
	int	src, dst;
	int	p[2];
	size_t	inpipe;		/* bytes in p, bytes */
	int	eof;		/* src read 0 */
	int	shut;		/* dst shut down for writing */
};

/* Reap the connection processes, so that their CPU time adds to this
 * process's cutime/cstime, which bench.py reads. */
static void
reap(int sig)
{
	int e = errno;

	(void)sig;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	errno = e;
}

static int
unix_addr(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -1;
	strcpy(sa->sun_path, path);
	return 0;
}

/* One splice step of d after poll: fill from src, drain to dst, pass on
 * the end. Returns -1 when the direction failed (reset, broken pipe). */
static int
step(struct dir *d, short src_ev, short dst_ev)
{
	ssize_t n;

	if (!d->eof && d->inpipe < PIPE_SIZE && (src_ev & (POLLIN | POLLHUP | POLLERR))) {
		n = splice(d->src, NULL, d->p[1], NULL, PIPE_SIZE - d->inpipe,
		    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n == 0)
			d->eof = 1;
		else if (n > 0)
			d->inpipe += (size_t)n;
		else if (errno != EAGAIN && errno != EINTR)
			return -1;
	}
	if (d->inpipe > 0 && (dst_ev & (POLLOUT | POLLERR))) {
		n = splice(d->p[0], NULL, d->dst, NULL, d->inpipe,
		    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0)
			d->inpipe -= (size_t)n;
		else if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
	}
	if (d->eof && d->inpipe == 0 && !d->shut) {
		(void)shutdown(d->dst, SHUT_WR);
		d->shut = 1;
	}
	return 0;
}

static void
relay(int cfd, const char *daemon_path)
{
	struct sockaddr_un sa;
	struct dir d[2];
	struct pollfd pf[2];
	int bfd, i;

	bfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (bfd < 0 || unix_addr(&sa, daemon_path) < 0 ||
	    connect(bfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		_exit(1);
	(void)fcntl(cfd, F_SETFL, fcntl(cfd, F_GETFL) | O_NONBLOCK);
	memset(d, 0, sizeof(d));
	d[0].src = cfd, d[0].dst = bfd;		/* requests */
	d[1].src = bfd, d[1].dst = cfd;		/* answers */
	for (i = 0; i < 2; i++) {
		if (pipe2(d[i].p, O_NONBLOCK) < 0)
			_exit(1);
		(void)fcntl(d[i].p[1], F_SETPIPE_SZ, PIPE_SIZE);
	}
	while (!(d[0].shut && d[1].shut)) {
		pf[0] = (struct pollfd){ .fd = cfd };
		pf[1] = (struct pollfd){ .fd = bfd };
		for (i = 0; i < 2; i++) {
			struct pollfd *s = &pf[i], *t = &pf[1 - i];

			if (!d[i].eof && d[i].inpipe < PIPE_SIZE)
				s->events |= POLLIN;
			if (d[i].inpipe > 0)
				t->events |= POLLOUT;
		}
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			_exit(1);
		if (step(&d[0], pf[0].revents, pf[1].revents) < 0 ||
		    step(&d[1], pf[1].revents, pf[0].revents) < 0)
			_exit(0);
		/* both ends hung up with nothing left to move: done */
		if ((pf[0].revents & (POLLHUP | POLLERR)) && d[0].eof && d[1].inpipe == 0 &&
		    (pf[1].revents & (POLLHUP | POLLERR)))
			_exit(0);
	}
	_exit(0);
}

int
main(int argc, char **argv)
{
	struct sigaction sig = { .sa_handler = reap, .sa_flags = SA_RESTART };
	struct sockaddr_un sa;
	int lfd, cfd;

	if (argc != 3 || unix_addr(&sa, argv[1]) < 0) {
		fprintf(stderr, "usage: rawrelay LISTEN_PATH DAEMON_PATH\n");
		return 2;
	}
	sigaction(SIGCHLD, &sig, NULL);
	(void)unlink(argv[1]);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lfd, 128) < 0) {
		perror("rawrelay: listen");
		return 1;
	}
	for (;;) {
		cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (cfd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			perror("rawrelay: accept");
			return 1;
		}
		switch (fork()) {
		case 0:
			close(lfd);
			relay(cfd, argv[2]);
			break;
		case -1:
			perror("rawrelay: fork");
			break;
		}
		close(cfd);
	}
}
