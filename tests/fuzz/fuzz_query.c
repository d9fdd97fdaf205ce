/*
 * libFuzzer entry point: the query policy (policy/query.c parsing and
 * canonical encoding, routes.md §4; the policed-key rules of every route
 * query policy, §4.3-4.5; the label filter of list, prune and events
 * routes, filters.c §8) on the bytes after '?'. Aborts when the canonical
 * encoding is not a fixpoint of parse + encode, when a refusal is outside
 * the vocabulary, or when the filter rewrite is not idempotent (the
 * monitor re-applies it to the FORWARD target, privsep.md §9.1 item 2).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/routes.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct cg_policy_ctx ctx = {
	.root = "/home/user/project",
	.socket_kind = CG_PODMAN,
	.backend_kind = CG_PODMAN,
	.egress = CG_EGRESS_INJECT,
	.proxy = "http://host.containers.internal:8899",
	.noproxy = "localhost,127.0.0.1,host.containers.internal",
};

/* Canonical encoding of a parse of s[0..len); aborts if it fails. */
static char *
canon(const char *s, size_t len, size_t *olen)
{
	struct cg_refusal r;
	struct cg_query *q = query_parse(s, len, &r);
	char *e;

	if (q == NULL)
		abort();
	e = query_encode(q, olen);
	query_free(q);
	return e;
}

/*
 * The filter routes: a list the backend ANDs, image prune, libpod system
 * prune, podman's volume list (post-filtered: no label appended to
 * client filters), volume prune and events (client members refused where
 * podman ORs them, doc/filters.md).
 */
static const char *const filter_targets[][2] = {
	{ "GET", "/v1.41/containers/json" },
	{ "POST", "/v1.41/images/prune" },
	{ "POST", "/v4.3.1/libpod/system/prune" },
	{ "GET", "/v4.3.1/libpod/volumes/json" },
	{ "POST", "/v1.41/volumes/prune" },
	{ "GET", "/v1.41/events" },
};
#define NMODES	(sizeof(filter_targets) / sizeof(filter_targets[0]))

/* The filter rewrite of route rt on q; for fz_query_fixpoint(). */
struct filter_arg {
	const struct cg_route *rt;
	struct cg_refusal *r;
};

static int
filters(struct cg_query *q, const void *arg)
{
	const struct filter_arg *a = arg;

	return a->rt->qpolicy == QP_SYSTEM_PRUNE ?
	    filters_system_prune(&ctx, a->rt, q, a->r) :
	    filters_apply(&ctx, a->rt, q, a->r);
}

/* The route row of filter_targets[mode] (classified once). */
static const struct cg_route *
filter_route(size_t mode)
{
	static const struct cg_route *rows[NMODES];
	struct route_match m;
	struct cg_refusal r;
	const char *path = filter_targets[mode][1];

	if (rows[mode] == NULL) {
		if (route_classify(CG_PODMAN, filter_targets[mode][0], path,
		    strlen(path), 0, &m, &r) != 0)
			abort();
		rows[mode] = m.route;
	}
	return rows[mode];
}

/* One filter rewrite of the canonical query e; applied again to its own
 * output it must not change. */
static void
filter_fixpoint(const char *e, size_t elen, size_t mode)
{
	struct cg_refusal r;
	struct filter_arg a = { filter_route(mode), &r };
	struct cg_query *q;
	char *once;
	size_t l1;

	q = query_parse(e, elen, &r);
	if (q == NULL)
		abort();
	if (filters(q, &a) != 0) {
		fz_check_refusal(&r);
		query_free(q);
		return;
	}
	once = query_encode(q, &l1);
	query_free(q);
	fz_query_fixpoint(once, l1, filters, &a);
	free(once);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_route rt;
	struct cg_refusal r;
	struct cg_query *q;
	char *e1, *e2;
	size_t l1, l2, i, mode;
	int qp;

	q = query_parse((const char *)data, size, &r);
	if (q == NULL) {
		fz_check_refusal(&r);
		return 0;
	}
	for (i = 0; i < q->n; i++) {
		if (query_find(q, q->v[i].key, 0) > i ||
		    query_count(q, q->v[i].key) == 0)
			abort();
		(void)query_value_empty(q->v[i].value);
	}
	memset(&rt, 0, sizeof(rt));
	for (qp = 0; qp < QP_COUNT; qp++) {
		rt.qpolicy = (enum route_qpolicy)qp;
		if (route_query_keys(&rt, q, &r) != 0)
			fz_check_refusal(&r);
	}
	e1 = query_encode(q, &l1);
	query_free(q);

	e2 = canon(e1, l1, &l2);
	if (l1 != l2 || memcmp(e1, e2, l1) != 0)
		abort();
	for (mode = 0; mode < NMODES; mode++)
		filter_fixpoint(e1, l1, mode);
	free(e1);
	free(e2);
	return 0;
}
