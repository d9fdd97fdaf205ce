/*
 * The header list of a forwarded request (http.md §3, §7.3-§7.4;
 * privsep.md §9.2 with its 2026-12-01 amendment): one function that the
 * child runs on the client's fields and the monitor replays on the
 * FORWARD's list, which must come back unchanged (a fixpoint).
 */
#ifndef CG_POLICY_HEADERS_H
#define CG_POLICY_HEADERS_H

#include <stddef.h>
#include <stdint.h>

#include "base/gwerror.h"
#include "http/http.h"
#include "policy/types.h"

#define CG_FWD_FIELDS_MAX	10	/* entries of a forwarded list */
#define CG_FWD_VALUE_MAX	8192	/* bytes of a forwarded value (privsep.md §7.2) */

/* The forwarded list and what it says about the exchange. */
struct cg_fwd_headers {
	struct http_field f[CG_FWD_FIELDS_MAX];	/* names canonical, values
						   point into the input, a
						   static string or num */
	size_t n;
	int close;		/* the client asked to close after this exchange */
	int upgrade;		/* Upgrade: tcp is forwarded (hijack routes) */
	int chunked;		/* the body is sent chunked (stream routes) */
	uint64_t length;	/* otherwise: body bytes (0: no body) */
	char num[24];		/* Content-Length digits */
};

/*
 * Build the forwarded list for the routed request req from the fields
 * in[0..nin) (the client's, or a FORWARD's list). json_len is the length
 * of the canonical JSON body on json and json-optional routes (0: none);
 * it is ignored on other routes. Output order and rules:
 *   User-Agent, Accept, Accept-Encoding: the first such field, copied;
 *   Content-Type: application/json for a non-empty JSON body; on stream
 *     routes the client's first value when its media type has the
 *     type/subtype token grammar; never on none routes;
 *   X-Registry-Auth on pull and build routes, X-Registry-Config on build
 *     routes (http.md §7.3), copied;
 *   Content-Length: N (JSON body; stream body framed by length; 0 for a
 *     POST or PUT without a body) or Transfer-Encoding: chunked (stream
 *     body sent chunked);
 *   Connection: "Upgrade" and/or "close" (the client's close token, or a
 *     body sent before the upgrade on a hijack route, which stays for the
 *     stream (http.md §4.1 amended); the upgrade when Upgrade: tcp is
 *     forwarded), then Upgrade: tcp on hijack routes when the client sent
 *     Upgrade: tcp with a Connection upgrade token (http.md §3.7).
 * A copied value is forwarded as given; one over CG_FWD_VALUE_MAX bytes,
 * with a byte outside HTAB, SP, 0x21-0x7E, 0x80-0xFF, or with leading or
 * trailing OWS, is left out. Names of in are compared case-insensitively.
 * Returns 0 with *out filled, or -1 with *r set: 403 denied-endpoint for a
 * Content-Type media type application/grpc* (http.md §3.8), 403
 * denied-query for a form body on a stream route (asm_form_body,
 * policy/assemble.h: a daemon reads its values as query values), 400 malformed
 * for an invalid or repeated Content-Length or Transfer-Encoding, or both.
 */
int policy_forward_headers(const struct cg_request *req, uint64_t json_len,
    const struct http_field *in, size_t nin, struct cg_fwd_headers *out,
    struct cg_refusal *r);

/*
 * 1 when the exchange of the forwarded request req with the list fh is
 * synchronised by VERDICT forwarding and DONE (privsep.md §8): a
 * Content-Length or Transfer-Encoding field is forwarded (a body follows
 * the FORWARD, or a POST/PUT says it has none), the route streams a body
 * or it hijacks. 0 for a light exchange: no VERDICT unless refused, and
 * no DONE after a keep-alive RESPONSE_END (the next request implies it).
 * The child and the monitor both decide by this function, from the same
 * request; a child that does otherwise breaks the protocol.
 */
int policy_exchange_synced(const struct cg_request *req,
    const struct cg_fwd_headers *fh);

/*
 * 1 when a[0..na) and b->f[0..b->n) are the same list: same length, and
 * names and values equal byte for byte in the same order; else 0.
 */
int policy_headers_equal(const struct http_field *a, size_t na,
    const struct cg_fwd_headers *b);

#endif
