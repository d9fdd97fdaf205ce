/*
 * The backend exchange (monitor/exchange/backend.c): connections to the daemon's
 * socket and their pool, the forwarded request head, internal exchanges
 * (ownership questions, the named-resource phase) and the refusals when
 * the backend cannot be reached (http.md §5, §10; routes.md §9).
 */
#ifndef CG_MONITOR_EXCHANGE_BACKEND_H
#define CG_MONITOR_EXCHANGE_BACKEND_H

#include "monitor/gateway.h"

struct cg_fwd_headers;

/* ---- monitor/exchange/backend.c */

/*
 * Start an internal exchange for c (routes.md §9, policy.md §5): a
 * keep-alive connection from the pool when reuse (a GET: it may be sent
 * again on a fresh connection when the pooled one turns out closed), else
 * a new one; queue request[0..len) (malloc'd; c->bc takes it), deadline
 * --backend-timeout. Returns 0, or -1 when the connection failed at once
 * (the request is freed with c->bc by the caller's conn_close_backend()).
 */
int backend_internal(struct conn *c, char *request, size_t len, int reuse);
/*
 * c's exchange is over: its backend connection goes back to the pool when
 * the response left it reusable (HTTP/1.1 without Connection: close,
 * framed by length or chunks and read to that end, the whole request
 * written, no protocol switch), else it is closed; c->bc is reset either
 * way (conn_close_backend).
 */
void backend_release(struct conn *c);
/*
 * A pooled connection of c failed before any byte of the response: send
 * the request again on a new connection (the backend closed an idle
 * keep-alive connection; only requests that may be sent twice are ever
 * given a pooled one). Returns 0 when retried, -1 when c's exchange
 * cannot be retried (the caller goes on with the failure).
 */
int backend_retry(struct conn *c);
/*
 * How the body of a backend response with head resp ends (RFC 9112 §6.3):
 * none for an answer to HEAD (is_head) and for 204/304, chunked, a
 * Content-Length, or the connection's end.
 */
enum framing backend_framing(const struct http_response *resp, int is_head);
/*
 * 1 when a backend response head leaves its connection reusable: HTTP/1.1
 * and no "close" in a Connection field.
 */
int backend_keeps_alive(const struct http_response *resp);
/*
 * Parse the complete internal response in c->bc.in (http.md §10.2):
 * interim responses skipped, status in *status, decoded body in *body
 * (malloc'd, NUL-terminated; the caller frees it) and *body_len. Returns
 * 0, or -1 when it is not a valid HTTP response.
 */
int backend_parse_internal(struct conn *c, int *status, char **body,
    size_t *body_len);
/*
 * The end of c's internal exchange, as the event loop reports it (ok: the
 * response is complete; else it failed or timed out): the response parsed
 * as backend_parse_internal() into *status, *body (malloc'd,
 * NUL-terminated; the caller frees it) and *body_len, and the connection
 * released (backend_release). Returns 0, or -1 with *body NULL when the
 * exchange failed or its response is not valid HTTP; c->bc is then left
 * for the caller's refusal to close (backend_refuse, conn_close_backend).
 */
int backend_internal_done(struct conn *c, int ok, int *status, char **body,
    size_t *body_len);
/*
 * Serialise the forwarded head of c's verified FORWARD (http.md
 * §7.2-§7.4) into c->head/c->head_len (malloc'd): request line, Host:
 * docker, the list fh (without its Connection and Upgrade), then
 * "Connection: Upgrade" and "Upgrade: tcp", or "Connection: close".
 * A head c still holds is freed first.
 */
void backend_build_head(struct conn *c, const struct cg_fwd_headers *fh);
/*
 * Connect for c's verified FORWARD and queue the head (and JSON body, then
 * freed); c->rs = RS_SENDING. A failed connect is refused (502).
 */
void backend_forward(struct conn *c);
/*
 * Write queued bytes to c's backend without blocking. Returns 1 when
 * everything queued is written (the buffer is freed), 0 when some is left,
 * -1 when the connection is broken (the buffer is dropped).
 */
int backend_write(struct conn *c);
/*
 * Read what c's backend sent for an internal exchange into c->bc.in.
 * Returns 0 (more to come), 1 (complete: the response's framed end, or
 * end-of-file), or -1 (error, or more than 8 MiB + a head: http.md
 * §10.2).
 */
int backend_read_internal(struct conn *c);
/*
 * Answer c's FORWARD: VERDICT forwarding (r NULL), or refused with r's
 * code, status, detail and hint (the code's own when r->hint is empty);
 * the debug VERDICT audit line.
 */
void backend_verdict(struct conn *c, const struct cg_refusal *r);
/* backend_refuse (exchange.h) with a refusal made already, its own hint
   kept (r->hint). */
void backend_refuse_r(struct conn *c, const struct cg_refusal *r);
/*
 * Refuse after a failed internal exchange: 504 when timeout (http.md §10,
 * same detail as the child's), else 502 backend-unreachable.
 */
void backend_refuse_transport(struct conn *c, int timeout);

#endif
