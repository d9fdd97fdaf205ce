/*
 * The monitor's own backend exchanges outside any client connection
 * (monitor/task.c): a GET to a backend socket with Connection: close, read
 * to its end in the event loop (EV_TASK), bounded in time and size.
 */
#ifndef CG_MONITOR_TASK_H
#define CG_MONITOR_TASK_H

#include <stddef.h>

#include "monitor/gateway.h"

/* The task slots (EV_TASK indexes): the pins' sweep, a backend's version. */
enum { MTASK_SWEEP, MTASK_VERSION0, MTASK_VERSION1, MTASK_MAX };

struct mtask {
	int fd;			/* -1 when not running */
	int index;		/* its slot */
	int connected;
	char *req;
	size_t reqlen, reqoff;
	char *in;
	size_t inlen, incap;
	size_t max;		/* wire bytes at most (set by the owner) */
	unsigned timeout_ms;	/* 0: --backend-timeout */
	long long deadline;
	/*
	 * The answer: ok 1 with the status and the decoded body[0..len)
	 * (NUL-terminated, freed after the call), or ok 0 (connection,
	 * timeout, size, framing: body NULL).
	 */
	void (*done)(struct gateway *gw, struct mtask *t, int ok, int status,
	    const char *body, size_t len);
	void *arg;
};

/*
 * Start GET target (the monitor's own constant path and query) on the
 * unix socket at socket for task t in slot index; t->done, t->max and
 * t->timeout_ms set by the caller. Returns 0, or -1 (slot busy, connect
 * failed at once; t->done is not called).
 */
int mtask_get(struct gateway *gw, struct mtask *t, int index,
    const char *socket, const char *target);
/* The event loop's events for slot index (EV_TASK). */
void mtask_event(struct gateway *gw, int index, short revents);
/* End late tasks (their done with ok 0); ms until the next deadline. */
int mtask_tick(struct gateway *gw, long long now);
/* 1 while t runs. */
int mtask_running(const struct mtask *t);
/* The earliest deadline of the running tasks (monotonic ms; the idle
 * loop wakes for it: serve.c quiet_wait), -1 when none runs. */
long long mtask_next_deadline(void);
/* Stop t without calling done (graceful exit). */
void mtask_cancel(struct gateway *gw, struct mtask *t);

#endif
