/*
 * One connection record (monitor/conn.c): sending to its child, protocol
 * violations, ending its exchange and freeing it.
 */
#ifndef CG_MONITOR_CONN_H
#define CG_MONITOR_CONN_H

#include "monitor/gateway.h"

/*
 * A connection record for a freshly forked child pid with IPC socket ipc
 * (non-blocking), in state RS_IDLE, not yet linked into gw->conns.
 * Exits through xoom() when out of memory.
 */
struct conn *conn_new(struct gateway *gw, pid_t pid, int ipc);

/*
 * Hand client connection c (c->client, c->lis set) to its ready request
 * parser with CONN_START (privsep.md §8 step 1): c gets its id, the
 * message carries the client's socket and the listener's settings. A
 * failed send is logged, kills the child and marks c dead. Called when the
 * parser is ready and the client waits (accept.c, serve.c), or when the
 * zygote reports the pid of a parser a client waits for (zygote.c).
 */
void start_conn(struct gateway *gw, struct conn *c);

/*
 * Close every descriptor of c and free c and everything it owns. Does not
 * kill or reap the child, and does not unlink c from gw->conns (the
 * caller does both first).
 */
void conn_free(struct conn *c);

/* Close c's backend connection and free its buffers (c->bc reset). */
void conn_close_backend(struct conn *c);

/*
 * c's request is over for the monitor (DONE, its ACCESS, or a light
 * exchange's keep-alive RESPONSE_END: privsep.md §8): back to RS_IDLE with
 * nothing of it kept, idle from now (accept.c reclaims).
 */
void conn_end_request(struct conn *c);

/*
 * c's exchange is over for the client: backend closed, relay buffers
 * freed, the client shut and closed when c->closing, RESPONSE_END (close
 * or keep-alive) sent once; a light exchange kept alive ends its request
 * (conn_end_request), any other waits for DONE (RS_WAIT_DONE).
 */
void conn_end_exchange(struct conn *c);

/*
 * End c's forwarded exchange now (client gone, child gave up or gone):
 * the access line if none was written (decision error, code -, status 0,
 * detail why), backend and client closed, RESPONSE_END close. No-op
 * outside RS_STREAM, RS_RESPONSE and RS_SWITCHED.
 */
void conn_abandon_exchange(struct conn *c, const char *why);

/*
 * Audit m (to-child), queue it for c's child and send what the socket
 * takes now. m->fd is ignored. An m the encoder refuses is a broken
 * invariant of the monitor: logged, abort().
 */
void conn_send(struct conn *c, struct ipc_msg *m);

/*
 * Send c's queued datagrams without blocking; stops at EAGAIN. Returns 0,
 * or -1 on any other send error (the socket is broken).
 */
int conn_flush(struct conn *c);

/*
 * c's child broke the protocol (privsep.md §10): ERROR line with the
 * printf-formatted reason, a pending FORWARD's VERDICT audit line, the
 * child SIGKILLed. Always returns -1 (the caller drops c).
 */
int conn_violation(struct conn *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * c's FORWARD failed the policy replay (privsep.md §9.2): as
 * conn_violation (the same ERROR line, the child SIGKILLed), but its
 * record says replay-refused with the policy's reason code (NULL: the
 * replay rewrote the request). Always returns -1.
 */
int conn_replay_refused(struct conn *c, const char *code, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

/* "docker" or "podman": the kind of c's backend (error details). */
const char *conn_backend_name(const struct conn *c);

/*
 * c's request cannot go on: its child ended, or its client left while the
 * monitor asked the backend on the request's behalf (an ownership question,
 * the named-resource phase). The request's access line if it has none yet
 * (decision error, code -, status 0, detail why; method and path "-" before
 * its FORWARD), then a forwarded exchange is ended (conn_abandon_exchange). No line
 * when no request is open: between requests, or once its line is out
 * (cli.md §14.3: exactly one per request; doc/reliability.md "Fault table").
 */
void conn_abandon(struct conn *c, const char *why);

/*
 * c's request reached its end as far as what its stages keep goes: the
 * final head of the forwarded request arrived with status, or the
 * monitor refused or answered it (its status; 0 for a refused VERDICT),
 * or the exchange ended unseen (-1: a new FORWARD, the connection's
 * end). A create's pins are kept or removed (pins_settle), a start's
 * locks and state released (c->sc_settle, set by startcheck.c). Here,
 * below the relay and the backend that call it, so that none of them
 * calls up into the stages.
 */
void conn_settle(struct conn *c, int status);

/* Free the names c's named-resource phase keeps, if any. */
void conn_free_phase_tree(struct conn *c);

/* Milliseconds since the end of c's request head (the access line's). */
unsigned conn_duration_ms(const struct conn *c);

#endif
