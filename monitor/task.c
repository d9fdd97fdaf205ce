/*
 * The monitor's own backend exchanges, outside any client's connection
 * (monitor/task.h): one GET at a time per task, in the event loop
 * (EV_TASK), never a wait. Used by the pins' sweep (pins.c) and the
 * backends' GET /version after start-up (discover.c).
 */
#include "monitor/task.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/evloop.h"
#include "monitor/exchange/exchange.h"

/* The task registered as index i (EV_TASK). */
static struct mtask *tasks[MTASK_MAX];

static void
finish(struct gateway *gw, struct mtask *t, int ok)
{
	struct http_response resp;
	char *body = NULL;
	size_t blen = 0;
	int head, status = 0;

	if (t->fd >= 0)
		ev_close(gw, t->fd);
	t->fd = -1;
	tasks[t->index] = NULL;
	head = ok && t->inlen > 0 ? http_parse_response(t->in, t->inlen,
	    &resp) : -1;
	if (head > 0) {
		status = resp.status;
		if (resp.chunked) {
			if (http_chunked_decode_all(t->in + head, t->inlen -
			    (size_t)head, &body, &blen) == -1)
				body = NULL;
		} else if (!resp.has_content_length ||
		    resp.content_length == t->inlen - (size_t)head) {
			blen = t->inlen - (size_t)head;
			body = xmalloc(blen + 1);
			memcpy(body, t->in + head, blen);
			body[blen] = '\0';
		}
	}
	free(t->req);
	free(t->in);
	t->req = t->in = NULL;
	t->inlen = t->incap = 0;
	t->done(gw, t, body != NULL, status, body, blen);
	free(body);
}

int
mtask_get(struct gateway *gw, struct mtask *t, int index, const char *socket,
    const char *target)
{
	if (index < 0 || index >= MTASK_MAX || tasks[index] != NULL)
		return -1;
	t->index = index;
	t->fd = backend_connect(socket);
	if (t->fd < 0)
		return -1;
	if (asprintf(&t->req, "GET %s HTTP/1.1\r\nHost: docker\r\nUser-Agent: "
	    "container-gateway/" CG_VERSION "\r\nConnection: close\r\n\r\n",
	    target) < 0)
		xoom();
	t->reqlen = strlen(t->req);
	t->reqoff = 0;
	t->inlen = t->incap = 0;
	t->in = NULL;
	t->connected = 0;
	t->deadline = now_ms() + (t->timeout_ms > 0 ? t->timeout_ms :
	    gw->backend_timeout_ms);
	tasks[index] = t;
	ev_watch(gw, t->fd, EV_TASK, index, NULL, POLLOUT);
	return 0;
}

void
mtask_event(struct gateway *gw, int index, short revents)
{
	struct mtask *t = index >= 0 && index < MTASK_MAX ? tasks[index] : NULL;
	int err = 0;
	socklen_t el = sizeof(err);
	ssize_t n;

	if (t == NULL || t->fd < 0)
		return;
	if (!t->connected) {
		if (getsockopt(t->fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0 ||
		    err != 0) {
			finish(gw, t, 0);
			return;
		}
		t->connected = 1;
	}
	if (t->reqoff < t->reqlen) {
		n = send(t->fd, t->req + t->reqoff, t->reqlen - t->reqoff,
		    MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			finish(gw, t, 0);
			return;
		}
		if (n > 0)
			t->reqoff += (size_t)n;
		if (t->reqoff == t->reqlen)
			ev_watch(gw, t->fd, EV_TASK, index, NULL, POLLIN);
		return;
	}
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	for (;;) {
		if (t->inlen == t->incap) {
			if (t->incap >= t->max) {
				finish(gw, t, 0);
				return;
			}
			t->incap = t->incap ? t->incap * 2 : 65536;
			if (t->incap > t->max)
				t->incap = t->max;
			t->in = xrealloc(t->in, t->incap + 1);
		}
		n = recv(t->fd, t->in + t->inlen, t->incap - t->inlen,
		    MSG_DONTWAIT);
		if (n > 0) {
			t->inlen += (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		finish(gw, t, n == 0);
		return;
	}
}

int
mtask_tick(struct gateway *gw, long long now)
{
	long long next = now + 60000;
	int i;

	for (i = 0; i < MTASK_MAX; i++) {
		if (tasks[i] == NULL)
			continue;
		if (now >= tasks[i]->deadline)
			finish(gw, tasks[i], 0);
		else if (tasks[i]->deadline < next)
			next = tasks[i]->deadline;
	}
	return (int)(next - now);
}

long long
mtask_next_deadline(void)
{
	long long next = -1;
	int i;

	for (i = 0; i < MTASK_MAX; i++)
		if (tasks[i] != NULL && (next < 0 || tasks[i]->deadline < next))
			next = tasks[i]->deadline;
	return next;
}

int
mtask_running(const struct mtask *t)
{
	return t->fd >= 0 && t->index >= 0 && t->index < MTASK_MAX &&
	    tasks[t->index] == t;
}

void
mtask_cancel(struct gateway *gw, struct mtask *t)
{
	if (!mtask_running(t))
		return;
	ev_close(gw, t->fd);
	t->fd = -1;
	tasks[t->index] = NULL;
	free(t->req);
	free(t->in);
	t->req = t->in = NULL;
	t->inlen = t->incap = 0;
}
