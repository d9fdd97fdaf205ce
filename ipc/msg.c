/*
 * IPC transport: the per-child SOCK_SEQPACKET pair and one-datagram
 * send/receive with descriptor passing (privsep.md §6.1, §6.4, §6.5).
 */
#include "ipc/proto.h"

#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

/*
 * Control buffer room for this many descriptors. Only one is ever legal;
 * the rest is there so a misbehaving peer's extra descriptors are
 * received (and closed) rather than turning into MSG_CTRUNC every time.
 * Descriptors beyond it set MSG_CTRUNC and are dropped by the kernel
 * without being installed.
 */
#define RECV_FDS_MAX	8

/*
 * The smallest buffer we accept from getsockopt. We ask for IPC_SOCKBUF
 * (privsep.md §6.1) with SO_SNDBUFFORCE/SO_RCVBUFFORCE, which needs
 * CAP_NET_ADMIN, and fall back to plain SO_SNDBUF/SO_RCVBUF, which the
 * kernel caps at net.core.wmem_max/rmem_max (Linux then doubles the
 * value for bookkeeping; getsockopt reports the doubled figure, which is
 * the one the kernel enforces). A monitor without CAP_NET_ADMIN on a
 * host with the default wmem_max (212992) gets 425984, less than
 * IPC_SOCKBUF. That still works: AF_UNIX datagram sends fail with
 * EMSGSIZE only when len > sk_sndbuf - 32, and a connected pair is not
 * subject to net.unix.max_dgram_qlen, so one maximal datagram always
 * fits and the sender merely blocks (or gets IPC_EAGAIN) sooner. We
 * therefore require room for one IPC_MSG_MAX datagram plus slack and
 * fail with ENOBUFS below that.
 * XXX: log the degraded size once the monitor has a place for it.
 */
#define SOCKBUF_FLOOR	(IPC_MSG_MAX + 4096)

/*
 * 1 once SO_*BUFFORCE was refused with EPERM: the process lacks
 * CAP_NET_ADMIN and cannot regain it (the monitor drops it for good at
 * start-up, confine.c), so later pairs go straight to the plain option
 * (four refused system calls less per new connection).
 */
static int force_denied;

/*
 * 1 (per option: [0] SO_SNDBUF, [1] SO_RCVBUF) once a plain setsockopt
 * was read back at or above SOCKBUF_FLOOR: the limits it is capped by
 * (net.core.wmem_max, rmem_max) are the host's, so later pairs get the
 * same and are not read back (four system calls less per new
 * connection). Should root lower them below the floor meanwhile, a
 * maximal datagram fails with EMSGSIZE and that connection ends.
 */
static int plain_ok[2];

static int
set_bufsize(int s, int force_opt, int opt)
{
	int v = IPC_SOCKBUF, got = 0, *ok = &plain_ok[opt == SO_RCVBUF];
	socklen_t len = sizeof(got);

	if (!force_denied) {
		if (setsockopt(s, SOL_SOCKET, force_opt, &v, sizeof(v)) == 0)
			return 0;	/* 2 * IPC_SOCKBUF: nothing to check */
		if (errno == EPERM)
			force_denied = 1;
	}
	if (setsockopt(s, SOL_SOCKET, opt, &v, sizeof(v)) == -1)
		return -1;
	if (*ok)
		return 0;
	if (getsockopt(s, SOL_SOCKET, opt, &got, &len) == -1)
		return -1;
	if (got < SOCKBUF_FLOOR) {
		errno = ENOBUFS;
		return -1;
	}
	*ok = 1;
	return 0;
}


int
ipc_socketpair(int sv[2])
{
	int i, save;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == -1)
		return -1;
	for (i = 0; i < 2; i++) {
		if (set_bufsize(sv[i], SO_SNDBUFFORCE, SO_SNDBUF) == -1 ||
		    set_bufsize(sv[i], SO_RCVBUFFORCE, SO_RCVBUF) == -1) {
			save = errno;
			close(sv[0]);
			close(sv[1]);
			sv[0] = sv[1] = -1;
			errno = save;
			return -1;
		}
	}
	return 0;
}

int
ipc_send(int fd, const struct ipc_msg *m, int flags)
{
	/*
	 * One static buffer: no per-message allocation (the sandboxed child
	 * should not need mmap for this after demotion) and no 256 KiB stack
	 * frame. Both processes are single-threaded; ipc_send is therefore
	 * not reentrant (not from signal handlers, not from two threads).
	 */
	static unsigned char buf[IPC_MSG_MAX];
	union {
		struct cmsghdr hdr;
		unsigned char b[CMSG_SPACE(sizeof(int))];
	} cm;
	struct msghdr mh;
	struct iovec iov;
	struct cmsghdr *c;
	ssize_t n;
	int len;

	/* The fd travels with CONN_START (and ZYGOTE_SPAWN) only (§6.5). */
	if (ipc_type_carries_fd(m->type) && m->fd < 0)
		return IPC_EFD;
	if ((len = ipc_encode(m, buf, sizeof(buf))) < 0)
		return len;

	memset(&mh, 0, sizeof(mh));
	iov.iov_base = buf;
	iov.iov_len = (size_t)len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (ipc_type_carries_fd(m->type)) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.b;
		mh.msg_controllen = sizeof(cm.b);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &m->fd, sizeof(int));
	}

	do
		n = sendmsg(fd, &mh, MSG_NOSIGNAL | flags);
	while (n == -1 && errno == EINTR);
	if (n == -1)
		return (errno == EAGAIN || errno == EWOULDBLOCK) ?
		    IPC_EAGAIN : IPC_ESYS;
	if (n != len) {
		/* SEQPACKET sends are atomic; this would be a kernel surprise. */
		errno = EIO;
		return IPC_ESYS;
	}
	return IPC_OK;
}

/*
 * 1 when fd's peer is gone or has shut down its sending side. On a
 * SOCK_SEQPACKET socket recvmsg() returns 0 both at end-of-file and for a
 * zero-length datagram; only the first sets RCV_SHUTDOWN (POLLRDHUP).
 */
static int
peer_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLRDHUP };

	return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP));
}

static void
close_fds(const int *fds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		(void)close(fds[i]);
}

int
ipc_recv(int fd, unsigned char *buf, size_t cap, struct ipc_msg *m,
    int accept_fd, int flags)
{
	union {
		struct cmsghdr hdr;
		unsigned char b[CMSG_SPACE(RECV_FDS_MAX * sizeof(int))];
	} cm;
	int fds[RECV_FDS_MAX];
	size_t nfds = 0, k, cnt;
	int other_cmsg = 0, r;
	struct msghdr mh;
	struct iovec iov;
	struct cmsghdr *c;
	ssize_t n;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	/* A smaller buffer would make a legal maximal datagram look truncated. */
	if (buf == NULL || cap < (size_t)IPC_MSG_MAX + 1) {
		errno = EINVAL;
		return IPC_ESYS;
	}

	memset(&mh, 0, sizeof(mh));
	memset(&cm, 0, sizeof(cm));
	iov.iov_base = buf;
	iov.iov_len = cap;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.b;
	mh.msg_controllen = sizeof(cm.b);

	do
		n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC | flags);
	while (n == -1 && errno == EINTR);
	if (n == -1)
		return (errno == EAGAIN || errno == EWOULDBLOCK) ?
		    IPC_EAGAIN : IPC_ESYS;

	/*
	 * Collect every received descriptor first, whatever else is wrong
	 * with the datagram, so that each error path below closes them all.
	 */
	for (c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(0)) {
			/* We enable no SO_PASSCRED etc.; nothing else is expected. */
			other_cmsg = 1;
			continue;
		}
		cnt = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (k = 0; k < cnt; k++) {
			int rfd;

			memcpy(&rfd, CMSG_DATA(c) + k * sizeof(int), sizeof(int));
			if (nfds < RECV_FDS_MAX)
				fds[nfds++] = rfd;
			else
				(void)close(rfd);	/* cannot happen: buffer bound */
		}
	}

	if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		r = IPC_ETRUNC;
		goto fail;
	}
	if (n == 0) {
		/* an empty datagram from a live peer is no end-of-file
		   (tests/hostile row datagram-empty) */
		r = peer_gone(fd) ? IPC_EOF : IPC_ESHORT;
		goto fail;
	}
	if ((r = ipc_decode(buf, (size_t)n, m)) != IPC_OK)
		goto fail;
	if (other_cmsg) {
		r = IPC_EFD;
		goto fail;
	}
	if (ipc_type_carries_fd(m->type) && accept_fd) {
		if (nfds != 1) {
			r = IPC_EFD;
			goto fail;
		}
		m->fd = fds[0];
		return IPC_OK;
	}
	if (nfds != 0) {
		r = IPC_EFD;
		goto fail;
	}
	return IPC_OK;

 fail:
	close_fds(fds, nfds);
	m->fd = -1;
	return r;
}
