/*
 * The monitor's event loop and what it drives outside a connection's own
 * exchange: the dirty list (evloop.c), accepting (accept.c), the listening
 * sockets (listen.c), the epoll set (evloop.c), kept ownership verdicts
 * (ocache.c), the zygote (zygote.c), the 503's linger (linger.c).
 * Included by monitor/gateway.h after its types; include that instead.
 */
#ifndef CG_MONITOR_LOOP_H
#define CG_MONITOR_LOOP_H

#include <stdint.h>
#include <sys/types.h>

struct gateway;
struct conn;
struct listener;
struct ev_event;

/* ---- monitor/evloop.c: the dirty list */

/* c changed this event-loop turn: its epoll registrations are synced at
 * the turn's end, or it is dropped when dead (no-op for NULL). */
void mark_dirty(struct gateway *gw, struct conn *c);


/* ---- monitor/accept.c */

/* Hand client connection c (c->client, c->lis set) to its ready request
 * parser with CONN_START (privsep.md §8 step 1); a failed send kills the
 * child and marks c dead. */
void start_conn(struct gateway *gw, struct conn *c);

/* Accept one client on listener li: a request parser for it, the slot of
 * an idle connection at the limit, or the 503 (linger.c). Returns 1 when
 * a connection was taken (another may wait), 0 when none was. */
int accept_client(struct gateway *gw, int li);

/* End connection c, whose slot was given to a newcomer, when its request
 * parser is still there at c->reclaim_kill_ms (monotonic ms, now >= it): a
 * protocol violation (SIGKILL), c marked dead. A compromised parser that
 * ignores its client's end-of-file would otherwise hold a connection the
 * limit no longer counts (hostile row reclaimed-stays). */
void accept_reclaim_expired(struct conn *c);

/* ---- monitor/listen.c */

/* Bind listener l's socket at l->path, mode 0600 (cli.md §7 step 11).
 * Returns 0, 2 (refused configuration, message printed: a non-socket or
 * a live socket in the way) or 1 (runtime failure). */
int bind_socket(struct listener *l);

/* Probe the egress proxy for listener l (cli.md §15) and fill l->proxy,
 * l->noproxy, l->proxy_available; logged once per backend. */
void egress_probe(struct gateway *gw, struct listener *l);

/* Raise RLIMIT_NOFILE to its hard limit and lower --max-connections,
 * with a WARNING, when even that cannot hold every connection's
 * descriptors (http.md §1.2). */
void fit_max_connections(struct gateway *gw);

/* ---- monitor/evloop.c */

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

/* ---- monitor/exchange/ocache.c: kept ownership verdicts of full ids (routes.md
 * §9.3 [S]: labels are immutable and random ids never reused) */

/* 1 for the kinds whose full-id verdicts are kept: container, pod (not
 * network: podman's CNI backend derives its id from its name). */
int ocache_kind(int kind);
/* 1 when s[0..len) is a full id: 64 lower-case hex digits. */
int ocache_full_id(const char *s, size_t len);
/*
 * The kept verdict (CG_OWNED or CG_NOT_OWNED) of id (NUL-terminated) of
 * kind, or -1 when none is kept (or kind/id are not kept ones).
 */
int ocache_get(const struct gateway *gw, int kind, const char *id);
/*
 * Keep verdict (CG_OWNED or CG_NOT_OWNED; anything else is ignored) for
 * id of kind, for the gateway's lifetime (at most 4096 entries: a full
 * cache is emptied first). A 404 is never kept: pass only verdicts of a
 * 2xx inspect. Exits through xoom() when out of memory.
 */
void ocache_put(struct gateway *gw, int kind, const char *id, int verdict);
/* Forget id of kind (a 404, or removed through the gateway). */
void ocache_drop(struct gateway *gw, int kind, const char *id);
/* Forget everything (and free it). */
void ocache_free(struct gateway *gw);

/* ---- monitor/zygote.c */

/*
 * Start the zygote (privsep.md, amended: children forked from a
 * pre-sandboxed template): fork, keep only a control socket (fd 3) and
 * /dev/null on 0-2, fexecve gw->exe_fd as CHILD_ARGV0 with the sandbox
 * directory and an empty environment. The zygote sandboxes itself and
 * reports CHILD_READY on gw->zyg.fd (zygote_on_event). Returns 0 or -1
 * (socketpair or fork failed; logged).
 */
int zygote_start(struct gateway *gw);
/*
 * A new request parser: a socket pair, one end sent to the zygote with
 * ZYGOTE_SPAWN (it forks a child on it with CLONE_PARENT, so the child is
 * the monitor's), the other end in a new conn record linked into
 * gw->conns and, until the zygote reports its pid, into gw->zyg.pending.
 * Returns the record, or NULL (no zygote, its socket full or broken;
 * logged).
 */
struct conn *zygote_spawn(struct gateway *gw);
/*
 * Read the zygote's messages without blocking: CHILD_READY (ready),
 * SANDBOX_FAILED (its step in gw->sandbox_failure), ZYGOTE_SPAWNED (the
 * pid of the oldest pending spawn, or its fork errno: that record dies).
 * On end-of-file or a malformed message the zygote is stopped
 * (zygote_stop) and the pending records die; the event loop then stops
 * the gateway (the confined monitor cannot start another: monitor/confine.h).
 */
void zygote_on_event(struct gateway *gw);
/*
 * c (removed from gw->conns, still pending) ended before the zygote said
 * which pid it got: its descriptors are closed now, the record waits in
 * the queue for that answer, then zygote_on_event frees it and ends the
 * child (forget_child with a kill). zygote_stop frees it too.
 */
void zygote_orphan(struct gateway *gw, struct conn *c);
/*
 * A request parser (pid, of connection conn) the monitor no longer
 * follows: reaped now if it has exited, else SIGKILLed first when
 * kill_it, and left to serve.c's reap() (which logs its end) with a
 * SIGKILL after one second. Only for a pid that is still the monitor's
 * unreaped child.
 */
void forget_child(struct gateway *gw, pid_t pid, uint64_t conn, int kill_it);
/*
 * Log how request parser pid of connection conn ended, from its wait
 * status st (privsep.md §10, cli.md §14.2 child-exit): DEBUG for exit 0
 * or when expected (a graceful exit told it to go), else ERROR "request
 * parser for connection <id> (pid <pid>) died: <SIGNAME | exit status N>".
 */
void log_child_exit(unsigned long long conn, pid_t pid, int st, int expected);
/* Kill and reap the zygote, close its socket, fail pending spawns. */
void zygote_stop(struct gateway *gw);

/* ---- monitor/linger.c */

/*
 * Refuse the client fd accepted on listener li with the 503 of http.md
 * §1.2 (written without blocking, its access line), half-close it and
 * keep it lingering: read and discarded, closed at end-of-file, after 2 s
 * without a byte, 10 s in all or 16 MiB (doc/reliability.md "Fault table", the
 * connection limit reached); closed at once when LINGER_SLOTS are lingering
 * already. Takes fd.
 */
void linger_refuse(struct gateway *gw, int li, int fd);
/* Read and drop what lingering client fd sent (revents from ev_wait). */
void linger_on_event(struct gateway *gw, int fd, short revents, long long now);
/* Close the lingering clients whose bounds passed at now (ms). */
void linger_tick(struct gateway *gw, long long now);
/* Close every lingering client (graceful exit). */
void linger_close_all(struct gateway *gw);

/* ---- monitor/exchange/drain.c */

enum audit_outcome;
/*
 * c's request parser broke the protocol (o AO_VIOLATION, code NULL, why
 * the reason) or ended (o AO_ALLOWED, why) after the monitor wrote the
 * whole request to the backend and before its answer's head: when a slot
 * is free (DRAIN_SLOTS), the backend connection leaves c for a drain,
 * which reads the answer (a create's body for the new id) until
 * --backend-timeout and then writes the request's record with the
 * backend's status (doc/audit.md). Returns 1 (c->logged set, c->bc.fd -1,
 * c's record fields moved), 0 when c's exchange does not qualify (not
 * forwarded whole, head seen, a stream, no slot): the caller writes the
 * record now.
 */
int drain_take(struct conn *c, enum audit_outcome o, const char *code,
    const char *why);
/* Read drain slot i's backend connection fd (EV_DRAIN events). */
void drain_on_event(struct gateway *gw, int i, int fd);
/* Finish the drains whose deadline passed at now (ms); returns the next
   deadline, 0 for none. */
long long drain_tick(struct gateway *gw, long long now);
/* Finish every drain with what it read (graceful exit). */
void drain_close_all(struct gateway *gw);

#endif
