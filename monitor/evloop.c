/*
 * The monitor's epoll set (doc/privsep.md "Scaling": an event loop that scales
 * with the number of connections). The old loop rebuilt and passed every
 * connection's three poll entries to the kernel on each turn, O(n) per event;
 * here each descriptor is registered once and changed only when what the
 * connection waits for changes.
 *
 * What a connection waits for is still decided in one place,
 * conn_pollfds() (monitor/exchange/dispatch.c); ev_sync() turns its answer into
 * epoll_ctl() calls for the three roles (the child's socket, the backend,
 * the client). Level-triggered, like poll(), so a handler that leaves
 * bytes unread is simply called again.
 *
 * Two rules keep a stale registration from ever reaching the wrong
 * connection:
 *   - every descriptor the set may hold is closed through ev_close(),
 *     which removes it first: the client descriptor is shared with the
 *     child (SCM_RIGHTS), and epoll only forgets a descriptor when the
 *     last reference to its open file is gone;
 *   - each registration carries a generation in the event's data, so an
 *     event for a descriptor closed (and its number reused) earlier in the
 *     same batch is recognised and dropped.
 */
#include "monitor/gateway.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "monitor/evloop.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"

struct watch {
	uint32_t gen;		/* of the current registration; 0 = none */
	uint32_t events;	/* EPOLL* registered */
	int kind;		/* enum ev_kind */
	int index;		/* listener / linger index */
	struct conn *c;		/* EV_CONN_* */
};

struct evloop {
	int ep;
	struct watch *w;	/* indexed by descriptor */
	size_t nw;
	uint32_t gen;
};

static uint32_t
to_epoll(short ev)
{
	return (ev & POLLIN ? EPOLLIN : 0) | (ev & POLLOUT ? EPOLLOUT : 0);
}

static short
to_poll(uint32_t ev)
{
	return (short)((ev & EPOLLIN ? POLLIN : 0) | (ev & EPOLLOUT ? POLLOUT : 0) |
	    (ev & EPOLLHUP ? POLLHUP : 0) | (ev & EPOLLERR ? POLLERR : 0));
}

int
ev_init(struct gateway *gw)
{
	struct evloop *ev = xcalloc(1, sizeof(*ev));

	ev->ep = epoll_create1(EPOLL_CLOEXEC);
	if (ev->ep < 0) {
		free(ev);
		return -1;
	}
	gw->ev = ev;
	return 0;
}

void
ev_free(struct gateway *gw)
{
	if (gw->ev == NULL)
		return;
	close(gw->ev->ep);
	free(gw->ev->w);
	free(gw->ev);
	gw->ev = NULL;
}

static struct watch *
slot(struct evloop *ev, int fd)
{
	size_t n;

	if ((size_t)fd >= ev->nw) {
		n = ev->nw ? ev->nw : 256;
		while (n <= (size_t)fd)
			n *= 2;
		ev->w = xrealloc(ev->w, n * sizeof(*ev->w));
		memset(ev->w + ev->nw, 0, (n - ev->nw) * sizeof(*ev->w));
		ev->nw = n;
	}
	return &ev->w[fd];
}

/* Drop fd's registration, if any (the descriptor is still open). */
static void
unwatch(struct evloop *ev, int fd)
{
	struct watch *w;

	if (fd < 0 || (size_t)fd >= ev->nw || ev->w[fd].gen == 0)
		return;
	w = &ev->w[fd];
	(void)epoll_ctl(ev->ep, EPOLL_CTL_DEL, fd, NULL);
	memset(w, 0, sizeof(*w));
}

void
ev_watch(struct gateway *gw, int fd, int kind, int index, struct conn *c,
    short events)
{
	struct evloop *ev = gw->ev;
	struct epoll_event e;
	struct watch *w;
	uint32_t want;
	int op;

	if (ev == NULL || fd < 0)
		return;
	w = slot(ev, fd);
	want = to_epoll(events);
	if (w->gen != 0) {
		/*
		 * A new owner of a registered descriptor (a kept backend
		 * connection going to or from the pool) takes the
		 * registration over: no system call when the events stay
		 * (doc/privsep.md "Scaling"). Events fetched for the old owner
		 * are left out by ev_current(), which compares the owner too.
		 */
		w->kind = kind;
		w->index = index;
		w->c = c;
		if (w->events == want)
			return;
		op = EPOLL_CTL_MOD;
	} else {
		op = EPOLL_CTL_ADD;
		if (++ev->gen == 0)
			ev->gen = 1;
		w->gen = ev->gen;
		w->kind = kind;
		w->index = index;
		w->c = c;
	}
	memset(&e, 0, sizeof(e));
	e.events = want;
	e.data.u64 = (uint64_t)w->gen << 32 | (uint32_t)fd;
	/* a descriptor closed behind the set's back left no registration */
	if (epoll_ctl(ev->ep, op, fd, &e) != 0 && (op != EPOLL_CTL_MOD ||
	    errno != ENOENT || epoll_ctl(ev->ep, EPOLL_CTL_ADD, fd, &e) != 0)) {
		/* cannot happen for a valid open descriptor: say so, go on */
		log_msg(LOG_ERROR, "listen", "epoll_ctl %d: %s", fd,
		    strerror(errno));
		memset(w, 0, sizeof(*w));
		return;
	}
	w->events = want;
}

void
ev_unwatch(struct gateway *gw, int fd)
{
	if (gw->ev != NULL)
		unwatch(gw->ev, fd);
}

void
ev_close(struct gateway *gw, int fd)
{
	if (fd < 0)
		return;
	if (gw != NULL && gw->ev != NULL)
		unwatch(gw->ev, fd);
	close(fd);
}

void
ev_close_sole(struct gateway *gw, int fd)
{
	if (fd < 0)
		return;
	/* close() ends the registration: the open file has no other reference */
	if (gw != NULL && gw->ev != NULL && (size_t)fd < gw->ev->nw)
		memset(&gw->ev->w[fd], 0, sizeof(gw->ev->w[fd]));
	close(fd);
}


/* Which of c's descriptors pfd names. */
static int
role_of(const struct conn *c, int fd)
{
	if (fd == c->ipc)
		return EV_CONN_IPC;
	if (fd == c->bc.fd)
		return EV_CONN_BACKEND;
	if (fd == c->ck.ipc)
		return EV_CONN_CHECK;
	return EV_CONN_CLIENT;
}

void
ev_sync(struct conn *c, const struct pollfd *pfd, int n)
{
	struct gateway *gw = c->gw;
	int want[4] = { -1, -1, -1, -1 }, i, r;

	if (gw->ev == NULL)
		return;
	for (i = 0; i < n; i++) {
		r = role_of(c, pfd[i].fd) - EV_CONN_IPC;
		want[r] = pfd[i].fd;
		ev_watch(gw, pfd[i].fd, EV_CONN_IPC + r, 0, c, pfd[i].events);
	}
	/*
	 * The client stays registered for hang-ups only between exchanges,
	 * until one is reported while the monitor is not answering
	 * (conn_on_poll sets client_unwatch): one registration per
	 * connection, not two epoll_ctl per request (privsep.md "Scaling").
	 */
	r = EV_CONN_CLIENT - EV_CONN_IPC;
	if (want[r] < 0 && c->wfd[r] >= 0 && c->wfd[r] == c->client &&
	    !c->client_unwatch && (size_t)c->client < gw->ev->nw &&
	    gw->ev->w[c->client].c == c &&
	    gw->ev->w[c->client].kind == EV_CONN_CLIENT &&
	    gw->ev->w[c->client].events == 0)
		want[r] = c->client;
	/* a role no longer waited for: its descriptor leaves the set */
	for (r = 0; r < 4; r++) {
		int old = c->wfd[r];

		if (old >= 0 && old != want[r] && (size_t)old < gw->ev->nw &&
		    gw->ev->w[old].c == c && gw->ev->w[old].kind == EV_CONN_IPC + r)
			unwatch(gw->ev, old);
		c->wfd[r] = want[r];
	}
}

void
ev_forget(struct conn *c)
{
	struct gateway *gw = c->gw;
	int r, fd;

	if (gw->ev == NULL)
		return;
	for (r = 0; r < 4; r++) {
		fd = c->wfd[r];
		if (fd >= 0 && (size_t)fd < gw->ev->nw && gw->ev->w[fd].c == c)
			unwatch(gw->ev, fd);
		c->wfd[r] = -1;
	}
}

/*
 * c changed this turn: its registrations are synced at the turn's end, or
 * it is dropped (serve.c settle_dirty). The dirty list lives with the
 * epoll set it feeds.
 */
void
mark_dirty(struct gateway *gw, struct conn *c)
{
	if (c == NULL || c->dirty)
		return;
	if (gw->ndirty == gw->capdirty) {
		gw->capdirty = gw->capdirty ? gw->capdirty * 2 : 64;
		gw->dirty = xrealloc(gw->dirty, gw->capdirty * sizeof(*gw->dirty));
	}
	c->dirty = 1;
	gw->dirty[gw->ndirty++] = c;
}

int
ev_wait(struct gateway *gw, struct ev_event *out, int max, int timeout_ms,
    const sigset_t *mask)
{
	struct epoll_event e[256];
	struct evloop *ev = gw->ev;
	struct watch *w;
	int n, i, k = 0, fd;

	if (max > 256)
		max = 256;
	n = epoll_pwait(ev->ep, e, max, timeout_ms, mask);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		fd = (int)(uint32_t)e[i].data.u64;
		if ((size_t)fd >= ev->nw)
			continue;
		w = &ev->w[fd];
		if (w->gen != (uint32_t)(e[i].data.u64 >> 32))
			continue;	/* closed (and reused) meanwhile */
		out[k].fd = fd;
		out[k].gen = w->gen;
		out[k].kind = w->kind;
		out[k].index = w->index;
		out[k].c = w->c;
		out[k].revents = to_poll(e[i].events);
		k++;
	}
	return k;
}

int
ev_current(const struct gateway *gw, const struct ev_event *e)
{
	const struct evloop *ev = gw->ev;
	const struct watch *w;

	if ((size_t)e->fd >= ev->nw)
		return 0;
	w = &ev->w[e->fd];
	/* level-triggered: an event left out comes again if it still holds */
	return w->gen == e->gen && w->kind == e->kind && w->c == e->c &&
	    w->index == e->index;
}
