/*
 * libFuzzer entry point: the build query (policy/build.c, policy.md §10)
 * on the query of POST build. Input layout: fuzz_input.h (the method part
 * is ignored; the target's query, after '?', is the build query; FZ_LIBPOD
 * selects the libpod API). Aborts on a refusal outside the vocabulary or
 * when an accepted query, re-encoded and run through the policy again,
 * changes (the monitor re-applies it to the FORWARD target, privsep.md
 * §9.1 item 2).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/routes.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* build_query_policy() with the input's context and API */
struct build_arg {
	const struct cg_policy_ctx *ctx;
	enum cg_api api;
	struct cg_refusal *r;
};

static int
build_policy(struct cg_query *q, const void *arg)
{
	const struct build_arg *a = arg;

	return build_query_policy(a->ctx, a->api, q, a->r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_request in;
	struct build_arg a;
	struct cg_refusal r;
	struct cg_query *q;
	const char *qs;
	char *once;
	size_t l1;

	if (fz_split(data, size, &in) != 0)
		return 0;
	a.ctx = &in.ctx;
	a.api = (in.flags & FZ_LIBPOD) ? CG_API_LIBPOD : CG_API_COMPAT;
	a.r = &r;
	qs = memchr(in.target, '?', in.target_len);
	qs = qs != NULL ? qs + 1 : in.target + in.target_len;
	q = query_parse(qs, in.target_len - (size_t)(qs - in.target), &r);
	if (q == NULL)
		return 0;
	if (build_policy(q, &a) != 0) {
		fz_check_refusal(&r);
		query_free(q);
		return 0;
	}
	once = query_encode(q, &l1);
	query_free(q);
	fz_query_fixpoint(once, l1, build_policy, &a);
	free(once);
	return 0;
}
