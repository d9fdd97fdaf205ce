/*
 * Input layout shared by the policy fuzz targets (fuzz_routes.c,
 * fuzz_build.c) and their seeds (tests/fuzz/make-seeds.py):
 *
 *	byte 0		flags: FZ_DOCKER socket kind docker (else podman),
 *			FZ_GRPC the request asked for gRPC, FZ_LIBPOD the
 *			libpod API (fuzz_build), bits 3-4 egress (0 off,
 *			1 inject, 2 require), FZ_PROXY a proxy is available
 *	bytes 1..	"METHOD TARGET": the method up to the first space
 *			(at most 16 bytes), then the request target
 *
 * A fixed policy context (the project root, proxy and no-proxy values of
 * a typical gateway) completes what CONN_START would bring. Also the
 * checks the policy targets share.
 */
#ifndef CG_FUZZ_INPUT_H
#define CG_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"
#include "policy/query.h"

#define FZ_DOCKER	0x01u
#define FZ_GRPC		0x02u
#define FZ_LIBPOD	0x04u
#define FZ_EGRESS(f)	(((f) >> 3) & 3u)
#define FZ_PROXY	0x20u

struct fz_request {
	unsigned flags;
	char method[17];	/* NUL-terminated */
	const char *target;	/* not NUL-terminated */
	size_t target_len;
	struct cg_policy_ctx ctx;
};

/* Split data[0..size) into *in; 0, or -1 when it has no method part. */
static inline int
fz_split(const uint8_t *data, size_t size, struct fz_request *in)
{
	const uint8_t *sp;
	size_t mlen;

	if (size < 2)
		return -1;
	in->flags = data[0];
	sp = memchr(data + 1, ' ', size - 1);
	if (sp == NULL)
		return -1;
	mlen = (size_t)(sp - (data + 1));
	if (mlen == 0 || mlen >= sizeof(in->method) ||
	    memchr(data + 1, '\0', mlen) != NULL)
		return -1;
	memcpy(in->method, data + 1, mlen);
	in->method[mlen] = '\0';
	in->target = (const char *)sp + 1;
	in->target_len = size - 1 - mlen - 1;

	memset(&in->ctx, 0, sizeof(in->ctx));
	in->ctx.root = "/home/user/project";
	in->ctx.socket_kind = (in->flags & FZ_DOCKER) ? CG_DOCKER : CG_PODMAN;
	in->ctx.backend_kind = CG_PODMAN;
	in->ctx.egress = FZ_EGRESS(in->flags) > 2 ? CG_EGRESS_OFF :
	    (enum cg_egress)FZ_EGRESS(in->flags);
	in->ctx.proxy_available = (in->flags & FZ_PROXY) != 0;
	in->ctx.proxy = "http://host.containers.internal:8899";
	in->ctx.noproxy = "localhost,127.0.0.1,host.containers.internal";
	in->ctx.facts = NULL;	/* every question fails closed */
	return 0;
}

/* A refusal must carry a code of the vocabulary with a 4xx status. */
static inline void
fz_check_refusal(const struct cg_refusal *r)
{
	int st = cg_code_status(r->code);

	if (st < 400 || st > 499 || r->status != st)
		abort();
}

/*
 * The monitor's re-check (privsep.md §9.1 item 2) of a query policy that
 * accepted a query and rewrote it to once[0..len): parse once, run policy
 * on it again, and abort unless it accepts and re-encodes to once itself.
 */
static inline void
fz_query_fixpoint(const char *once, size_t len,
    int (*policy)(struct cg_query *, const void *), const void *arg)
{
	struct cg_refusal r;
	struct cg_query *q;
	char *twice;
	size_t l2;

	q = query_parse(once, len, &r);
	if (q == NULL || policy(q, arg) != 0)
		abort();
	twice = query_encode(q, &l2);
	if (l2 != len || memcmp(once, twice, len) != 0)
		abort();
	query_free(q);
	free(twice);
}

#endif
