/*
 * The relay (doc/privsep.md "Relaying"): the backend's answer to the client,
 * by copy or through the relay pipe with splice(2), a switched stream both
 * ways, and a streamed request body from the child's body pipe to the backend
 * (monitor/exchange/relay.c, with the relay pipe of large bodies; an upload's
 * body pipe: monitor/exchange/splice.h; http.md §8, §9).
 * The client's bytes are moved, never interpreted.
 */
#ifndef CG_MONITOR_EXCHANGE_RELAY_H
#define CG_MONITOR_EXCHANGE_RELAY_H

#include "monitor/gateway.h"

/* 1 when c's forwarded exchange wants backend bytes now (backpressure). */
int relay_backend_wants_read(const struct conn *c);
/*
 * Read backend bytes of c's forwarded exchange (http.md §8, §9): interim
 * responses skipped, the final head validated (502 when unusable), logged
 * and rewritten for the client, the framing followed so that nothing past
 * the response's end is relayed; a switch (101, raw 200 on hijack routes)
 * enters RS_SWITCHED. Returns 1 when bytes were read, 2 when bytes were
 * spliced and the socket had fewer than asked for (it is empty now: no
 * need to read again before epoll says so), 0 otherwise (none there yet,
 * end-of-file, an error).
 */
int relay_from_backend(struct conn *c);
/*
 * poll() events wanted on c->client while the monitor answers c's request
 * (RS_STREAM, RS_RESPONSE, RS_SWITCHED until RESPONSE_END; POLLOUT: bytes
 * wait; POLLIN: a switched stream may read), 0 to watch for hang-ups
 * only, -1 when the client is not the monitor's concern now.
 */
short relay_client_events(const struct conn *c);
/* Handle revents on c->client: write, read (switched), hang-up. */
void relay_on_client(struct conn *c, short revents);
/*
 * Write what can be written and move the exchange on after progress
 * elsewhere (backend bytes read or written, early bytes complete); ends it
 * with RESPONSE_END when the response is out.
 */
void relay_progress(struct conn *c);
/* Writing to the backend failed: the upload is over, its answer may come. */
void relay_backend_write_failed(struct conn *c);
/*
 * Write resp[0..len) (malloc'd; taken), a complete response the monitor
 * made itself for c's FORWARD, which never reached the backend
 * (monitor/exchange/answer.c): the access line (decision "allow" or "deny", code
 * NULL for "-", status, detail NULL to omit), then the bytes to the client
 * and RESPONSE_END (close when closing or the client asked). The caller
 * has sent the VERDICT; c->rs becomes RS_RESPONSE.
 */
void relay_answer(struct conn *c, const char *decision, const char *code,
    int status, const char *detail, int closing, char *resp, size_t len);
/* No response head within --backend-timeout: 504 to the client. */
void relay_head_timeout(struct conn *c);
/*
 * The monitor's own refusal r instead of the response, after VERDICT
 * forwarding (a checker refused the upload, monitor/exchange/check.c): the access
 * line (decision deny), the backend connection closed (the daemon reads
 * a truncated body), the error with r's hint written (once the child's
 * 100 Continue is out), then RESPONSE_END close.
 */
void relay_refuse(struct conn *c, const struct cg_refusal *r);

#endif
