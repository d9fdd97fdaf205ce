/*
 * The event loop's epoll set and dirty list (monitor/evloop.c): what the
 * loop, the connections and the exchange register and close through.
 */
#ifndef CG_MONITOR_EVLOOP_H
#define CG_MONITOR_EVLOOP_H

#include <signal.h>
#include <poll.h>

#include "monitor/gateway.h"

/* c changed this event-loop turn: its epoll registrations are synced at
 * the turn's end, or it is dropped when dead (no-op for NULL). */
void mark_dirty(struct gateway *gw, struct conn *c);

/* Create gw's epoll set (gw->ev). Returns 0, or -1 with errno. */
int ev_init(struct gateway *gw);

/* Close and free gw's epoll set; gw->ev = NULL. */
void ev_free(struct gateway *gw);

/*
 * Register fd (open, not yet closed) for events (POLLIN/POLLOUT; 0 still
 * reports hang-ups and errors) as belonging to kind/index/c, or change an
 * existing registration of the same owner. No-op without gw->ev.
 */
void ev_watch(struct gateway *gw, int fd, int kind, int index,
    struct conn *c, short events);

/* Remove fd from the set (it stays open). */
void ev_unwatch(struct gateway *gw, int fd);

/*
 * Remove fd from the set, then close it: the only way the monitor closes
 * a descriptor the set may hold (a client descriptor shared with the
 * child would otherwise stay in the set). gw may be NULL; fd < 0 no-op.
 */
void ev_close(struct gateway *gw, int fd);

/*
 * Close fd, whose open file no other descriptor anywhere refers to (a
 * child's IPC end, a backend connection: the monitor's alone), without
 * EPOLL_CTL_DEL: its last close ends the registration (epoll(7)), and
 * its slot is cleared so that events already fetched for it are dropped
 * (an epoll_ctl less per connection). Never for a client
 * descriptor (the child holds it too). gw may be NULL; fd < 0 no-op.
 */
void ev_close_sole(struct gateway *gw, int fd);

/*
 * Bring c's registrations in line with what it waits for now, pfd[0..n)
 * as conn_pollfds() wrote them (n <= CONN_POLLFDS): add, change or remove
 * its child's socket, backend connection and client. No-op without gw->ev.
 */
void ev_sync(struct conn *c, const struct pollfd *pfd, int n);

/* Remove every registration of c (its descriptors stay open). */
void ev_forget(struct conn *c);

/*
 * Wait up to timeout_ms (-1: forever) with signal mask mask for ready
 * descriptors; writes at most max (<= 256) to out. Events of
 * registrations that no longer exist are left out. Returns how many, or
 * -1 with errno (EINTR).
 */
int ev_wait(struct gateway *gw, struct ev_event *out, int max,
    int timeout_ms, const sigset_t *mask);

/*
 * 1 while e's registration still exists (an earlier event of the same
 * batch may have closed its descriptor), else 0.
 */
int ev_current(const struct gateway *gw, const struct ev_event *e);

#endif
