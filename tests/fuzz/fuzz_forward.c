/*
 * libFuzzer entry point: the monitor's FORWARD path (privsep.md §9): the
 * datagram decoded (ipc/codec.c), verified (verify_forward: method, canonical
 * target, owned refs, the header list as a fixpoint), the forwarded head
 * serialised (backend_build_head) and the policy replayed on target and JSON
 * body (verify_replay), as monitor/exchange/dispatch.c does it, against the fixed fact
 * table of fuzz_monitor.h.
 *
 * Input: byte 0 flags (FF_DOCKER: the request came on docker.sock;
 * FF_KEEP_LENGTH: leave the FORWARD's Content-Length as it is, else its
 * first Content-Length field is set to the length of the body part, so
 * that mutated bodies still reach the replay), then one datagram (its
 * header's length says where it ends), then the JSON body.
 *
 * Checked beyond "no crash, no leak, no undefined behaviour": a head the
 * monitor would write parses back (http/request.c) to exactly one request
 * with the verified method and target, nothing after it (no smuggled
 * request); the JSON body it would forward is at most 8 MiB; and a
 * request the replay accepted is accepted again (no state leaks between
 * the verification steps).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/conn.h"
#include "monitor/exchange/backend.h"
#include "monitor/exchange/verify.h"
#include "monitor/log.h"
#include "policy/headers.h"
#include "tests/fuzz/fuzz_monitor.h"

#define FF_DOCKER	0x01u
#define FF_KEEP_LENGTH	0x02u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The head the monitor serialised must be one request, as verified. */
static void
check_head(const struct conn *c)
{
	struct http_request hr;
	struct cg_refusal r;

	if (http_parse_request(c->head, c->head_len, &hr, &r) != (int)c->head_len ||
	    hr.method_len != strlen(c->fw.method) ||
	    memcmp(hr.method, c->fw.method, hr.method_len) != 0 ||
	    hr.target_len != c->fw.target_len ||
	    memcmp(hr.target, c->fw.target, c->fw.target_len) != 0)
		abort();
}

/* The replay of a JSON body; an accepted one must be accepted again. */
static void
replay(struct conn *c)
{
	if (verify_replay(c) < 0)
		return;
	c->dead = 0;
	if (verify_replay(c) < 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gateway gw;
	static struct cg_config cfg;
	static int ready;
	struct cg_fwd_headers fh;
	struct ipc_msg m;
	struct conn *c;
	const uint8_t *body;
	char num[24];
	uint32_t plen;
	size_t dlen, blen, i;

	if (!ready) {
		fz_gateway(&gw, &cfg);
		log_init(LOG_ERROR, LOG_TEXT, -1);	/* violations are expected */
		ready = 1;
	}
	if (size < 1 + IPC_HDR_LEN)
		return 0;
	memcpy(&plen, data + 1 + 12, sizeof(plen));
	dlen = (size_t)plen + IPC_HDR_LEN;
	if (plen > IPC_MSG_MAX || dlen > size - 1 ||
	    ipc_decode(data + 1, dlen, &m) != IPC_OK || m.type != IPC_FORWARD)
		return 0;
	body = data + 1 + dlen;
	blen = size - 1 - dlen;
	if (!(data[0] & FF_KEEP_LENGTH)) {
		snprintf(num, sizeof(num), "%zu", blen);
		for (i = 0; i < m.u.forward.nheaders; i++)
			if (cg_ci_eq(m.u.forward.headers[i].name.p,
			    m.u.forward.headers[i].name.len, "Content-Length")) {
				m.u.forward.headers[i].value = ipc_cstr(num);
				break;
			}
	}

	c = conn_new(&gw, 0, -1);	/* pid 0: a violation kills no one */
	c->lis = (data[0] & FF_DOCKER) ? 1 : 0;
	c->id = 1;
	c->req = m.req;
	fz_fill_facts(c);
	/* monitor/exchange/dispatch.c on_forward, then on_body / start_phase */
	if (verify_forward(c, &m, &fh) == 0) {
		backend_build_head(c, &fh);
		check_head(c);
		if (c->fw.body_kind == FB_JSON) {
			if (c->body_len > HTTP_BODY_JSON_MAX)
				abort();
			if (blen == c->body_len) {
				c->json = xmalloc(blen + 1);
				memcpy(c->json, body, blen);
				c->json[blen] = '\0';
				replay(c);
			}
		} else {
			replay(c);
		}
	}
	conn_free(c);
	return 0;
}
