/*
 * The write queue of one IPC socket (OpenBSD imsg's msgbuf, style.md §4:
 * the write queue lives with the protocol). The monitor never blocks on a
 * child: messages it cannot send at once wait here, encoded, in order.
 */
#ifndef CG_IPC_QUEUE_H
#define CG_IPC_QUEUE_H

#include <stddef.h>
#include <sys/queue.h>

#include "ipc/proto.h"

struct ipc_qmsg;

struct ipc_queue {
	TAILQ_HEAD(, ipc_qmsg) msgs;
	size_t bytes;		/* encoded bytes waiting */
};

/* An empty queue. Cannot fail. */
void ipc_queue_init(struct ipc_queue *q);

/*
 * Encode m (ipc_encode; m->fd is ignored: no descriptor travels through a
 * queue) and append it. Returns IPC_OK or the encode error (nothing
 * queued then); exits through xoom() when out of memory.
 */
int ipc_queue_add(struct ipc_queue *q, const struct ipc_msg *m);

/*
 * Send queued datagrams on fd without blocking (MSG_DONTWAIT |
 * MSG_NOSIGNAL), oldest first, until the queue is empty or the socket is
 * full. Returns IPC_OK (empty or would block), or IPC_ESYS with errno when
 * the socket is broken (the queue is left as it was).
 */
int ipc_queue_flush(struct ipc_queue *q, int fd);

/* 1 when nothing waits. */
int ipc_queue_empty(const struct ipc_queue *q);

/* Drop every queued message. */
void ipc_queue_clear(struct ipc_queue *q);

#endif
