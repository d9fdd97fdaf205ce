/*
 * The monitor's per-request engine, as the event loop sees it: the one
 * header files outside monitor/exchange/ include of it (tests/boundary.sh
 * keeps it so). The loop hands a connection's events to the exchange
 * (conn_on_ipc, conn_on_poll, the timers), ends and frees connections with
 * its help (check_init/check_end, drain_take, the record's
 * calls), and runs the exchange's own timers and slots (drains, the
 * backend pool, budget continuations, the project network's wake-up).
 *
 * The files of monitor/exchange/, each with its own header for the others
 * (what their callers inside the exchange need):
 *   dispatch.c   the child's messages: state table, handlers, answers;
 *                routes backend events to the stage they belong to
 *   verify.c     FORWARD verification and the policy replay (§9)
 *   phase.c      the named-resource phase (policy.md §5, §11)
 *   imgdest.c    image names the request moves, inspected first
 *   image.c      a create's image step (annotations, the pinned id)
 *   createbody.c a create's body read once for the later stages
 *   startcheck.c a start checked before it is forwarded
 *   publish.c    a create that publishes every exposed port (pure)
 *   facts.c      ownership questions: inspects and their verdicts
 *   projnet.c    the project's own network
 *   ocache.c     ownership verdicts of full ids kept
 *   pathres.c    bind-source resolution
 *   check.c      a checked upload: the checker, the hold pipe
 *   baseimg.c    a build's base images, checked before its end goes
 *   backend.c    backend connections and their pool, the forwarded head
 *                (a create's image pinned), VERDICT, internal exchanges
 *   relay.c      the backend's response, relayed towards the client
 *                (its large bodies through the relay pipe, splice(2))
 *   splice.c     a streamed request body's pipe to the backend (splice(2))
 *   answer.c     routes the monitor answers itself (system df, build
 *                prune) and the libpod system prune pre-check
 *   listfilter.c list answers kept to the project's elements (pure)
 *   netcompat.c  compat network answers made from libpod's (pure)
 *   evfilter.c   the events stream kept to the project's (pure)
 *   usage.c      the per-project df computed from backend answers (pure)
 *   drain.c      answers read after their connection ended, for the record
 *   audit.c      the audit record (access line), the IPC audit, the
 *                request parsers' LOG lines
 * Their includes make no circle, and no file calls one above it
 * (python3 scripts/layers.py monitor ops draws the floors;
 * tests/boundary.sh fails on a circle): a stage learns that a lower one
 * ended from its return value (image_step_done, imgdest_done,
 * facts_on_query, splice_on_body_spliced) or through a callback it set
 * (c->ck.img_over, c->sc_settle).
 */
#ifndef CG_MONITOR_EXCHANGE_EXCHANGE_H
#define CG_MONITOR_EXCHANGE_EXCHANGE_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "monitor/gateway.h"

/* ---- monitor/exchange/dispatch.c */

#define CONN_POLLFDS	4	/* the child's socket, the backend, the client,
				   the checker's socket */
/*
 * Descriptors per connection for the RLIMIT_NOFILE fit: the child's
 * socket, the backend, the client, the relay pipe and the body pipe's
 * read end (rpipe.h). A checked upload's five more (the checker's socket
 * and pipe, the hold pipe) are not counted: few uploads run at once, and
 * one that finds no descriptor is answered 503 (check.c).
 */
#define CONN_FDS	6

/*
 * Read up to 16 pending datagrams from c's child (non-blocking) and
 * dispatch them by state (privsep.md §7-§10). Returns 0, or -1 when c
 * must be dropped: the child ended (EOF, BYE, SANDBOX_FAILED; c->dead
 * set) or broke the protocol (logged, child SIGKILLed; the caller sets
 * c->dead).
 */
int conn_on_ipc(struct conn *c);

/*
 * The poll() entries c waits on, written to pfd: its child's socket
 * (always: POLLHUP says the child is gone), its backend connection and,
 * while the monitor answers a forwarded request, its client (always then,
 * for POLLHUP). Returns how many (1 to CONN_POLLFDS).
 */
int conn_pollfds(struct conn *c, struct pollfd pfd[CONN_POLLFDS]);

/*
 * Handle the revents poll() returned for the n entries conn_pollfds
 * wrote. Sets c->dead when c must be dropped (child gone or violation).
 */
void conn_on_poll(struct conn *c, const struct pollfd *pfd, int n);

/*
 * Apply c's backend deadline at now (monotonic ms, now_ms()): a TIMEOUT
 * answer to the child's question, a 504 refusal or response. Always
 * returns 0.
 */
int conn_on_timer(struct conn *c, long long now);

/*
 * Apply c's body deadline at now (monotonic ms): a request parser that
 * moved no request body bytes for --backend-timeout while the monitor
 * waited for them (a JSON body after FORWARD, a streamed upload) is ended
 * (SIGKILL, c->dead) after a WARNING and its request's record (an upload
 * it began: forwarded); a deadline reached while the monitor itself holds
 * the body back (backend not reading) is pushed on. Returns the next
 * deadline, or 0 for none.
 */
long long conn_on_body_timer(struct conn *c, long long now);

/*
 * c's FORWARD got its room: a JSON body is read now (RS_BODY), any other
 * request goes on to its replay and phase.
 */
void forward_admitted(struct conn *c);

/*
 * c's FORWARD did not get room within --backend-timeout: 503
 * too-many-connections with the budget's hint; a JSON body is read and
 * dropped first (the child sent it right after its FORWARD).
 */
void forward_refused(struct conn *c);

/* ---- monitor/exchange/check.c */

/* c->ck closed (no checker, no pipes); called by conn_new. */
void check_init(struct conn *c);

/* Give a ready spare to an upload that waits for its checker. */
void check_adopt(struct gateway *gw);

/* The request is over: the checker killed, its pipes closed. */
void check_end(struct conn *c);

/* ---- monitor/exchange/phase.c */

/*
 * The project network's create lock was released: every connection of gw
 * waiting for it inspects the network again (and creates it if it is
 * still missing). Called by the event loop when gw->pn_wake is set.
 */
void phase_wake(struct gateway *gw);

/*
 * Release what c's named-resource phase holds (its names' copy) and
 * forget its names and publish-all: the phase's share of
 * conn_free_phase_tree(), at a phase's start, its forward, the request's
 * end and the connection's. c->ph is phase.c's alone (tests/boundary.sh):
 * the other files call this.
 */
void phase_free(struct conn *c);

/* ---- monitor/exchange/image.c */

/*
 * Release what c's image step holds (the image's ref and id, its exposed
 * ports) and mark no step running: its share of conn_free_phase_tree(),
 * before a request's replay, at its forward, at its end and at the
 * connection's. c->im is image.c's alone (tests/boundary.sh): the other
 * files call this. The pinned id (c->im_pin) stays for the forward.
 */
void image_free(struct conn *c);

/* ---- monitor/exchange/createbody.c */

/*
 * Release what c->cb holds (a create body's command words, its
 * bind-source count, a replay's tree nobody took): its share of
 * conn_free_phase_tree(). Its parse count stays for the forward's debug
 * line. c->cb is createbody.c's alone
 * (tests/boundary.sh): the other files call this.
 */
void createbody_free(struct conn *c);

/* Count one parse of c->json by the monitor (createbody.h). */
void createbody_parsed(struct conn *c);

/* ---- monitor/exchange/relay.c */

/*
 * Release c's filtered-answer state (a list answer's collected bytes) and
 * clear it: no list answer collected, no events answer filtered. Called
 * when a FORWARD starts (on_forward), at the request's end and the
 * connection's. c->lf is relay.c's alone (tests/boundary.sh): the other
 * files call this.
 */
void relay_filter_reset(struct conn *c);
/*
 * c->rp, the response being relayed, is relay.c's alone
 * (tests/boundary.sh): the other files call these. relay_init: its relay
 * pipe marked closed (a new connection, conn_new). relay_reset: a FORWARD
 * starts (on_forward): no head read, no interim answer, nothing done, no
 * framing, a switched stream's directions open, and relay_filter_reset();
 * what the previous response left in its buffers was freed by
 * relay_free. relay_free: the bytes for the client (copied and in the
 * relay pipe) and a head being read are released; at the end of the
 * exchange (conn_end_exchange), of the request and of the connection.
 * The client's SO_SNDBUF raised (c->rp.sp_sized) is the connection's
 * and stays.
 */
void relay_init(struct conn *c);
void relay_reset(struct conn *c);
void relay_free(struct conn *c);

/* ---- monitor/exchange/splice.c */

/*
 * c->ul, the request's upload, is splice.c's alone (tests/boundary.sh):
 * the other files call these. splice_init: its body pipe marked closed
 * (a new connection, conn_new). splice_early_free: a hijack route's early
 * bytes not written released (the exchange's end, conn_end_exchange).
 * splice_free: the body pipe closed, nothing announced, given or owed,
 * the early bytes released (the request's end and the connection's).
 */
void splice_init(struct conn *c);
void splice_early_free(struct conn *c);
void splice_free(struct conn *c);

/* ---- monitor/exchange/verify.c */

/*
 * c->fw, the FORWARD being served as the monitor derives it, is
 * verify.c's alone (tests/boundary.sh): the other files call these.
 * verify_init: a new connection's (conn_new): no ownership kept for its
 * path. verify_detach: g, a record-only copy of c (drain.c), takes the
 * request's method, target, log path and is_head; the target and the
 * log path are moved (c keeps neither). verify_end: the request's end
 * (conn_end_request): its events filter released, no body. verify_free:
 * the connection's end (conn_free, a drain's record): its route, target,
 * log path and events filter released.
 */
void verify_init(struct conn *c);
void verify_detach(struct conn *g, struct conn *c);
void verify_end(struct conn *c);
void verify_free(struct conn *c);

/* ---- monitor/exchange/answer.c */

/*
 * Free what c's answer collected and clear its run (no answer running):
 * at a finished or failed answer, and the connection's end (conn_free).
 * c->ans is answer.c's alone (tests/boundary.sh): the other files call
 * this.
 */
void answer_free(struct conn *c);

/* ---- monitor/exchange/facts.c */

/*
 * c->fq, the request's owned facts and its running question, is facts.c's
 * alone (tests/boundary.sh): the other files call these. facts_reset: no
 * fact answered owned, no FACT_QUERY asked (a request starts, dispatch.c,
 * or ends, conn_end_request); the array stays for the next. facts_free:
 * the array released (the connection's end).
 */
void facts_reset(struct conn *c);
void facts_free(struct conn *c);

/*
 * The query "<extra>&filters={"label":["<KEY>=<root>"]}", encoded as
 * the monitor sends it (malloc'd; the caller frees it). extra is the
 * monitor's own constant pairs (e.g. "all=1"). The project's label
 * filter of the lists the monitor asks for itself (answer.c, projnet.c,
 * monitor/pins.c).
 */
char *facts_label_query(const char *root, const char *extra);

/* ---- monitor/exchange/projnet.c */

/* Pick the suffix of a squatted name (getrandom; at start-up). */
void projnet_init(struct gateway *gw);

/* Release the project network's create lock if c holds it (projnet.h
   projnet_lock), and have the event loop wake the waiters (gw->pn_wake). */
void projnet_unlock(struct conn *c);

/* ---- monitor/exchange/ocache.c */

/* Forget every kept ownership verdict of gw and free them (the
   gateway's end). */
void ocache_free(struct gateway *gw);

/* ---- monitor/exchange/drain.c */

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

/* ---- monitor/exchange/backend.c */

/*
 * Start a non-blocking connection (SOCK_CLOEXEC) to the backend socket at
 * path (NUL-terminated). Returns the fd, possibly still connecting
 * (EINPROGRESS: the caller polls for POLLOUT and checks SO_ERROR), or -1
 * (path longer than sun_path, or socket/connect failed with errno).
 */
int backend_connect(const char *path);

/* Close the pooled connections idle since before now - POOL_IDLE_MS. */
void backend_pool_expire(struct gateway *gw, long long now);

/*
 * Pooled connection fd of gw->pools[pi] was reported readable or hung up
 * while idle (the backend closed it, or sent bytes nobody asked for): it
 * is closed and leaves the pool. No-op when fd is no longer in that pool
 * (taken earlier in the same batch of events).
 */
void backend_pool_event(struct gateway *gw, int pi, int fd);

/* Close every pooled connection (graceful exit). */
void backend_pool_close(struct gateway *gw);

/*
 * Replace the forwarded JSON body with json[0..len) (malloc'd; c takes it)
 * and its Content-Length in the serialised head (backend_build_head), for
 * the monitor's own rewrites of the named-resource phase (publish.h, the
 * pins of pins.h).
 */
void backend_set_json(struct conn *c, char *json, size_t len);

/*
 * Refuse c's FORWARD from the monitor side (phase, 502, 504): access line
 * (deny, or error for a 5xx), backend closed, phase tree freed, VERDICT
 * refused; c->rs = RS_WAIT_DONE. code is of the closed vocabulary.
 */
void backend_refuse(struct conn *c, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- monitor/exchange/audit.c */

/* Free what c's record holds and clear it for the next request. */
void audit_rec_clear(struct conn *c);

/*
 * c's create forwards the pin pin (a path under the pins' staging
 * directory, monitor/pins.c) for the bind source checked (both
 * NUL-terminated): its record names checked, the path the client's bind
 * means, not the pin.
 */
void audit_pinned(struct conn *c, const char *pin, const char *checked);

/* Write c's waiting record (audit_head) now, with the id if the body gave one. */
void audit_flush(struct conn *c);

/*
 * Write c's record (cli.md §14.3, doc/audit.md): outcome o, method and
 * path ("-" when unknown), reason code (NULL: none), the status the client
 * got (0: none), duration_ms, detail (NULL: none). Every text value is
 * escaped (log_quote); sets c->logged. Written at INFO (nothing at
 * --log-level warn or error).
 */
void audit_write(struct conn *c, enum audit_outcome o, const char *method,
    const char *path, const char *code, int status, unsigned duration_ms,
    const char *detail);

/*
 * c's request ends before its record was written (client or child gone,
 * the body not completed): the waiting record of an answered request; a
 * request forwarded but not answered is recorded allowed, forwarded, no
 * status, detail why (the backend may have acted on it: never
 * "abandoned"); any other is abandoned. method and path: "-" or the
 * verified ones.
 */
void audit_abandon(struct conn *c, const char *method, const char *path,
    const char *why);

/*
 * c's request parser broke the protocol (o AO_VIOLATION, what: the
 * reason) or its FORWARD failed the replay (o AO_REPLAY_REFUSED, code:
 * the policy's reason code or NULL, what: why). The record names what was
 * tried: the request as verified, else the method and path of the
 * message (c->rec.msg), and its target in "target". Written even when
 * the request's record is out already (a violation after its answer).
 */
void audit_violation(struct conn *c, enum audit_outcome o, const char *code,
    const char *what);

/*
 * DEBUG IPC audit line (cli.md §14.4) for m; dir is "to-child" or
 * "to-monitor". No-op below debug level. Fields are cut at 2 KiB
 * (ipc_format_fields).
 */
void ipc_audit(const struct conn *c, const char *dir, const struct ipc_msg *m);

/*
 * Debug line after a FORWARD (cli.md §14.4): verdict "forwarded",
 * "refused" (code: its reason code), "answered" or "violation" (code
 * NULL); code is one of the closed vocabulary, so it needs no escaping.
 */
void ipc_audit_verdict(const struct conn *c, const char *verdict,
    const char *code);

/* ---- monitor/exchange/evfilter.c */

struct evfilter;
/* Free a filter of evfilter_new() (NULL: no-op). */
void evfilter_free(struct evfilter *f);

#endif
