/*
 * libFuzzer entry point: the route classifier (policy/classify.c) and the
 * whole of policy stage 1 (policy_route: path rules, version and API,
 * route lookup, policed query keys, the route query policies). Input
 * layout: fuzz_input.h. Aborts on a result outside the contract, and when
 * the canonical target of an accepted request is not a fixpoint: the
 * monitor re-routes every FORWARD target and requires it to come back
 * unchanged (privsep.md §9.1 item 2), so a request the child accepts but
 * the monitor would not reproduce is a bug either way.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/routes.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
classify(const struct fz_request *in)
{
	const char *q = memchr(in->target, '?', in->target_len);
	size_t plen = q != NULL ? (size_t)(q - in->target) : in->target_len;
	struct route_match m;
	struct cg_refusal r;
	unsigned maj, min;
	size_t seglen;

	/* the first segment as a version (§3) */
	for (seglen = 0; 1 + seglen < plen && in->target[1 + seglen] != '/';
	    seglen++)
		;
	if (plen > 1)
		(void)route_version(in->target + 1, seglen, &maj, &min);
	if (!route_path_valid(in->target, plen))
		return;
	if (route_classify(in->ctx.socket_kind, in->method, in->target, plen,
	    (in->flags & FZ_GRPC) != 0, &m, &r) != 0) {
		fz_check_refusal(&r);
		return;
	}
	if (m.route == NULL || m.prefix_len > plen || m.prefix_len >= 48 ||
	    (m.ref_nseg > 0 && m.ref_kind < 0) ||
	    (m.api != CG_API_COMPAT && m.api != CG_API_LIBPOD))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_request req, again;
	struct cg_refusal r;
	struct fz_request in;
	char *c1, *c2;
	size_t l1, l2;

	if (fz_split(data, size, &in) != 0)
		return 0;
	classify(&in);

	if (policy_route(&in.ctx, in.method, in.target, in.target_len,
	    (in.flags & FZ_GRPC) != 0, &req, &r) != 0) {
		fz_check_refusal(&r);
		return 0;
	}
	c1 = policy_route_target(&req, &l1);
	if (strlen(c1) != l1)
		abort();
	/* the monitor's re-check of the FORWARD target */
	if (policy_route(&in.ctx, in.method, c1, l1, 0, &again, &r) != 0)
		abort();
	c2 = policy_route_target(&again, &l2);
	if (l1 != l2 || memcmp(c1, c2, l1) != 0 ||
	    again.route != req.route || again.body_kind != req.body_kind)
		abort();
	free(c1);
	free(c2);
	policy_request_free(&req);
	policy_request_free(&again);
	return 0;
}
