/*
 * One blocking HTTP/1.1 exchange on a new connection to a unix socket
 * (ops/oneshot.c), for start-up and the stop command: never inside
 * the event loop.
 */
#ifndef CG_MONITOR_ONESHOT_H
#define CG_MONITOR_ONESHOT_H

#include <stddef.h>

#define ONESHOT_MAX	(1024 * 1024)	/* bytes of response read at most */

/*
 * poll() fd for events until deadline (now_ms() clock, ms), through
 * EINTR. Returns 1 when an event came, 0 at the deadline or on an error.
 */
int oneshot_wait(int fd, short events, long long deadline);

/*
 * Send "<method> <target> HTTP/1.1" with Host: docker, our User-Agent,
 * Connection: close and no body to the socket at path, and read the
 * answer to its end, at most ONESHOT_MAX bytes within timeout_ms. Returns
 * the decoded body (chunked or by length; malloc'd, NUL-terminated, the
 * caller frees it; *len its length when len is not NULL) and sets
 * *status; NULL when the connection failed, timed out or the answer is
 * not an HTTP response.
 */
char *oneshot(const char *path, const char *method, const char *target,
    int timeout_ms, int *status, size_t *len);

#endif
