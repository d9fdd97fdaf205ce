/* The IPC write queue (ipc/queue.h). */
#include "ipc/queue.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/xmalloc.h"

/* One encoded datagram. */
struct ipc_qmsg {
	TAILQ_ENTRY(ipc_qmsg) entry;
	size_t len;
	unsigned char data[];
};

void
ipc_queue_init(struct ipc_queue *q)
{
	TAILQ_INIT(&q->msgs);
	q->bytes = 0;
}

int
ipc_queue_add(struct ipc_queue *q, const struct ipc_msg *m)
{
	static unsigned char *buf;	/* single-threaded, like ipc_send */
	struct ipc_qmsg *o;
	int len;

	if (buf == NULL)
		buf = xmalloc(IPC_MSG_MAX);
	len = ipc_encode(m, buf, IPC_MSG_MAX);
	if (len < 0)
		return len;
	o = xmalloc(sizeof(*o) + (size_t)len);
	memcpy(o->data, buf, (size_t)len);
	o->len = (size_t)len;
	TAILQ_INSERT_TAIL(&q->msgs, o, entry);
	q->bytes += (size_t)len;
	return IPC_OK;
}

int
ipc_queue_flush(struct ipc_queue *q, int fd)
{
	struct ipc_qmsg *o;
	ssize_t n;

	while ((o = TAILQ_FIRST(&q->msgs)) != NULL) {
		do
			n = send(fd, o->data, o->len, MSG_DONTWAIT | MSG_NOSIGNAL);
		while (n < 0 && errno == EINTR);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return IPC_OK;
		if (n < 0)
			return IPC_ESYS;
		TAILQ_REMOVE(&q->msgs, o, entry);
		q->bytes -= o->len;
		free(o);
	}
	return IPC_OK;
}

int
ipc_queue_empty(const struct ipc_queue *q)
{
	return TAILQ_EMPTY(&q->msgs);
}

void
ipc_queue_clear(struct ipc_queue *q)
{
	struct ipc_qmsg *o;

	while ((o = TAILQ_FIRST(&q->msgs)) != NULL) {
		TAILQ_REMOVE(&q->msgs, o, entry);
		free(o);
	}
	q->bytes = 0;
}
