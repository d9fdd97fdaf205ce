/*
 * Request bodies in the request parser (unpriv/body.c; http.md §4, §7.4,
 * privsep.md §8): buffered JSON bodies, streamed bodies as BODY messages
 * or through the monitor's body pipe (doc/privsep.md "Uploads"). Internal to
 * unpriv/.
 */
#ifndef CG_UNPRIV_BODY_H
#define CG_UNPRIV_BODY_H

#include <stddef.h>
#include <stdint.h>

struct child;
struct http_request;
struct cg_refusal;

/*
 * Read a buffered body (Content-Length n or chunked) of at most max bytes
 * into *out (malloc'ed, *outlen bytes, one spare byte after them; the
 * caller frees it). Returns 0, or -1 with *r set (413 when over max, 400
 * on a chunk grammar error); a client that stalls BODY_MS (120 s, http.md
 * §1.3) or leaves ends the child, after the request's access line
 * (child_abandon).
 */
int body_read(struct child *c, const struct http_request *hr, size_t max,
    char **out, size_t *outlen, struct cg_refusal *r);

/*
 * Send p[0..len) for the current request as BODY or CLIENT_DATA (type)
 * messages of at most IPC_DATA_MAX bytes each.
 */
void body_send(struct child *c, uint16_t type, const char *p, size_t len);

/*
 * Stream a request body (http.md §4.3, §7.4) as BODY messages, or through
 * the body pipe once the monitor offered one (BODY_PIPE, announced by
 * BODY_SPLICED), then BODY_END. The monitor may end the exchange first
 * (the backend answered before the body was complete): returns that
 * RESPONSE_END's mode, or -1 when the body was sent whole. A client that
 * leaves, stalls BODY_MS or sends an invalid chunk ends the child
 * (body_give_up).
 */
int body_stream(struct child *c, const struct http_request *hr);

/*
 * The client or its body failed mid-exchange (privsep.md §8 v2): DONE
 * before RESPONSE_END, so the monitor abandons the exchange (the backend
 * sees a truncated body and acts on nothing); then its RESPONSE_END, and
 * exit with reason: after a linger (child_linger_exit), so that a client
 * still sending reads what the monitor answered, except on a timeout
 * (child_exit).
 */
void body_give_up(struct child *c, uint8_t reason) __attribute__((noreturn));

#endif
