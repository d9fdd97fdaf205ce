/*
 * seed_forward: seeds of the fuzz_forward corpus (tests/fuzz/make-seeds.py):
 * for each real request, the FORWARD an honest request parser sends, made
 * the way unpriv/child.c makes it (policy_route, policy_finish and
 * policy_forward_headers, the questions answered from the fact table of
 * fuzz_monitor.h and the monitor's own bind-source resolution), then kept
 * only when the monitor's verify_forward and verify_replay accept it, as
 * they must.
 *
 *   seed_forward < records > seeds
 *
 * Input: records of u32 kind, u32 length (native order), bytes: kind 0 a
 * request head that came on podman.sock, kind 2 one on docker.sock (each
 * parsed with http/request.c), kind 1 the decoded body of the head before.
 * Output: u32 length + seed for every request the policy forwards, the
 * seed laid out as fuzz_forward.c reads it: flag byte, FORWARD datagram,
 * JSON body; on stderr the number of requests and of forwarded ones. A
 * body on a route without one is discarded, as the child does, and a
 * streamed one is not part of the seed. Exit status 0, or 1 on a
 * malformed record, an encode error, or a FORWARD the monitor refuses.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/http.h"
#include "ipc/proto.h"
#include "monitor/conn.h"
#include "monitor/exchange/pathres.h"
#include "monitor/exchange/verify.h"
#include "monitor/log.h"
#include "policy/headers.h"
#include "tests/fuzz/fuzz_monitor.h"

#define FF_DOCKER	0x01u	/* fuzz_forward.c's flag bits */
#define FF_KEEP_LENGTH	0x02u

static struct gateway gw;
static struct cg_config cfg;
static unsigned long nreq, nfwd;

static enum cg_fact_result
owned(void *arg, enum cg_fact_kind kind, enum cg_api api, const char *prefix,
    const char *ref, char id_out[CG_ID_MAX + 1])
{
	(void)arg;
	(void)api;
	(void)prefix;
	return fz_owned(kind, ref, id_out);
}

static enum cg_path_verdict
resolve(void *arg, const char *path, char out[CG_PATH_MAX + 1])
{
	(void)arg;
	return pathres_resolve(&gw, path, out);
}

static void
warn(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* The monitor's checks on m and body: 0 when it would forward them. */
static int
monitor_accepts(int lis, const struct ipc_msg *m, const char *body,
    size_t len)
{
	struct cg_fwd_headers fh;
	struct conn *c = conn_new(&gw, 0, -1);
	int rc = -1;

	c->lis = lis;
	c->id = 1;
	c->req = m->req;
	fz_fill_facts(c);
	if (verify_forward(c, m, &fh) == 0) {
		if (len > 0) {
			c->json = malloc(len + 1);
			if (c->json == NULL)
				abort();
			memcpy(c->json, body, len);
			c->json[len] = '\0';
		}
		rc = verify_replay(c);
	}
	conn_free(c);
	return rc;
}

/* The seed of one request: 0 (forwarded or refused by the policy), -1. */
static int
request(int lis, const char *head, size_t hlen, const char *body, size_t blen)
{
	struct cg_facts facts = { owned, resolve, warn, NULL };
	struct cg_policy_ctx ctx = { 0 };
	static unsigned char out[1 + IPC_MSG_MAX];
	struct http_request hr;
	struct cg_fwd_headers fh;
	struct cg_request req;
	struct cg_refusal r;
	struct ipc_msg m;
	char method[17];
	uint32_t len;
	size_t i;
	int n, rc = 0;

	nreq++;
	if (http_parse_request(head, hlen, &hr, &r) <= 0 || hr.chunked ||
	    hr.method_len >= sizeof(method))
		return 0;
	memcpy(method, hr.method, hr.method_len);
	method[hr.method_len] = '\0';
	/* what CONN_START tells the child about lis (verify.c policy_ctx) */
	ctx.root = gw.root;
	ctx.socket_kind = gw.lis[lis].socket_kind;
	ctx.backend_kind = gw.lis[lis].backend_kind;
	ctx.egress = cfg.egress;
	ctx.proxy_available = gw.lis[lis].proxy_available;
	ctx.proxy = gw.lis[lis].proxy;
	ctx.noproxy = gw.lis[lis].noproxy;
	ctx.backend_timeout_ms = gw.backend_timeout_ms;
	ctx.commit_needs_body = gw.lis[lis].commit_needs_body;
	ctx.facts = &facts;
	memset(&req, 0, sizeof(req));
	if (policy_route(&ctx, method, hr.target, hr.target_len, hr.grpc, &req,
	    &r) < 0 || policy_finish(&ctx, &req, body, req.body_kind ==
	    CG_BODY_NONE || req.body_kind == CG_BODY_STREAM ? 0 : blen,
	    &r) < 0 || policy_forward_headers(&req, req.body != NULL ?
	    req.body_len : 0, hr.fields, hr.nfields, &fh, &r) < 0)
		goto out;
	memset(&m, 0, sizeof(m));
	m.type = IPC_FORWARD;
	m.req = 1;
	m.fd = -1;
	m.u.forward.method = (struct ipc_str){ hr.method, (uint32_t)hr.method_len };
	m.u.forward.target = (struct ipc_str){ req.target, (uint32_t)req.target_len };
	for (i = 0; i < fh.n; i++) {
		m.u.forward.headers[i].name = (struct ipc_str){ fh.f[i].name,
		    (uint32_t)fh.f[i].name_len };
		m.u.forward.headers[i].value = (struct ipc_str){ fh.f[i].value,
		    (uint32_t)fh.f[i].value_len };
	}
	m.u.forward.nheaders = (uint16_t)fh.n;
	if (monitor_accepts(lis, &m, req.body, req.body_len) < 0) {
		fprintf(stderr, "seed_forward: the monitor refuses the FORWARD of "
		    "%s %.*s\n", method, (int)req.target_len, req.target);
		rc = -1;
		goto out;
	}
	/* a streamed body's length stays in the FORWARD as it is */
	out[0] = (uint8_t)((lis == 1 ? FF_DOCKER : 0) |
	    (req.body_kind == CG_BODY_STREAM ? FF_KEEP_LENGTH : 0));
	n = ipc_encode(&m, out + 1, IPC_MSG_MAX);
	if (n < 0) {
		fprintf(stderr, "seed_forward: FORWARD: %s\n", ipc_strerror(n));
		rc = -1;
		goto out;
	}
	len = (uint32_t)(1 + (size_t)n + (req.body != NULL ? req.body_len : 0));
	if (fwrite(&len, sizeof(len), 1, stdout) != 1 ||
	    fwrite(out, 1, 1 + (size_t)n, stdout) != 1 + (size_t)n ||
	    (req.body != NULL && fwrite(req.body, 1, req.body_len, stdout) !=
	    req.body_len))
		rc = -1;
	nfwd++;
out:
	policy_request_free(&req);
	return rc;
}

int
main(void)
{
	uint32_t hdr[2];
	char *head = NULL, *buf;
	size_t hlen = 0;
	int lis = 0, rc = 0;

	fz_gateway(&gw, &cfg);
	log_init(LOG_ERROR, LOG_TEXT, 2);
	while (rc == 0 && fread(hdr, sizeof(hdr), 1, stdin) == 1) {
		buf = malloc(hdr[1] + 1u);
		if (buf == NULL || (hdr[1] > 0 &&
		    fread(buf, 1, hdr[1], stdin) != hdr[1])) {
			free(buf);
			rc = -1;
			break;
		}
		if (hdr[0] == 1 && head != NULL) {
			rc = request(lis, head, hlen, buf, hdr[1]);
			free(head);
			free(buf);
			head = NULL;
			continue;
		}
		if (head != NULL)
			rc = request(lis, head, hlen, NULL, 0);
		free(head);
		head = NULL;
		if (hdr[0] != 0 && hdr[0] != 2) {
			free(buf);
			rc = -1;
			break;
		}
		head = buf;
		hlen = hdr[1];
		lis = hdr[0] == 2 ? 1 : 0;
	}
	if (rc == 0 && head != NULL)
		rc = request(lis, head, hlen, NULL, 0);
	free(head);
	fprintf(stderr, "seed_forward: %lu requests, %lu forwarded\n", nreq, nfwd);
	return rc < 0 || fflush(stdout) != 0;
}
