/*
 * fwd_op_of() (monitor/exchange/verify.c): the monitor's stages learn what a
 * verified FORWARD is from c->op, computed once from its route row and
 * method, instead of comparing c->action, c->method and c->target. This
 * program checks, over every row of the route table (policy/routes.c), on
 * each API and method the row serves, that every stage decides as its
 * former string compares did on the canonical target policy_route()
 * builds for that row: the old predicates are kept here verbatim.
 * Placeholders get values chosen to trip a substring test ("pods",
 * "containers/create" inside an image name, '/' inside a query value).
 * Then, on verify_forward itself, that c->ref_off/ref_len name the id
 * the stages read by searching the target for "/<family>/".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "monitor/gateway.h"
#include "monitor/conn.h"
#include "monitor/exchange/verify.h"
#include "monitor/log.h"
#include "policy/headers.h"
#include "policy/policy.h"
#include "policy/routes.h"
#include "tests/fuzz/fuzz_monitor.h"

#define HEXID	"0123456789abcdef0123456789abcdef" \
		"0123456789abcdef0123456789abcdef"

/* What the stages asked of (action, method, target, api) before c->op. */
struct old {
	int phase_pod, phase_ctr, phase_vol, phase_join, build, ck_build,
	    ck_archive, ck_load, list, inspect, build_prune, system_df,
	    system_prune, remove_or_prune, remove, events, attach, start,
	    archive_put, sc_gate, sc_pod, sc_restart, reuse;
};

static struct old
old_of(const char *action, const char *method, const char *target, int api)
{
	struct old o;
	int post = strcmp(method, "POST") == 0;

	memset(&o, 0, sizeof(o));
	/* phase.c phase_resume */
	o.phase_pod = strcmp(action, "pod-create") == 0 ||
	    (api == IPC_API_LIBPOD && strcmp(action, "create") == 0 &&
	    strstr(target, "/pods/create") != NULL);
	o.phase_ctr = strcmp(action, "create") == 0 &&
	    strstr(target, "/containers/create") != NULL;
	o.phase_vol = strcmp(action, "create") == 0 &&
	    strstr(target, "/volumes/create") != NULL;
	o.phase_join = strcmp(action, "connect") == 0;
	/* phase.c, backend.c (three sites) */
	o.build = strcmp(action, "build") == 0;
	/* check.c check_kind_of */
	o.ck_build = strcmp(action, "build") == 0;
	o.ck_archive = !o.ck_build && strcmp(action, "archive-put") == 0;
	o.ck_load = !o.ck_build && !o.ck_archive &&
	    strcmp(action, "load") == 0;
	/* answer.c */
	o.list = strcmp(action, "list") == 0;
	o.inspect = strcmp(action, "inspect") == 0;
	o.build_prune = strcmp(action, "build-prune") == 0;
	o.system_df = strcmp(action, "system-df") == 0;
	o.system_prune = api == IPC_API_LIBPOD &&
	    strcmp(action, "system-prune") == 0;
	/* pins.c, relay.c */
	o.remove_or_prune = strcmp(action, "remove") == 0 ||
	    strcmp(action, "prune") == 0;
	o.remove = strcmp(action, "remove") == 0;
	/* verify.c: the events filter */
	o.events = strcmp(action, "events") == 0;
	/* startcheck.c startcheck_start: the gate (advisories taken as on,
	   an update as one that restarts), then pod and restart behind it */
	o.sc_gate = post && (strcmp(action, "start") == 0 ||
	    strcmp(action, "restart") == 0 || strcmp(action, "attach") == 0 ||
	    strcmp(action, "update") == 0 || strcmp(action, "init") == 0);
	o.sc_pod = o.sc_gate && strstr(target, "/pods/") != NULL;
	o.sc_restart = o.sc_gate && strcmp(action, "restart") == 0;
	/* refuse() and inspected(): reached behind the gate or the lock */
	o.archive_put = strcmp(action, "archive-put") == 0;
	o.attach = (o.sc_gate || o.archive_put) &&
	    strcmp(action, "attach") == 0;
	o.start = o.sc_gate && !o.sc_pod && strcmp(action, "start") == 0;
	/* backend.c backend_forward */
	o.reuse = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	return o;
}

/* The same decisions as the stages now take them from op. */
static struct old
new_of(enum fwd_op op, const char *method, int api)
{
	struct old o;
	int ck = op == FOP_BUILD ? 1 : op == FOP_ARCHIVE_PUT ? 2 :
	    op == FOP_LOAD ? 3 : 0;

	memset(&o, 0, sizeof(o));
	o.phase_pod = op == FOP_POD_CREATE;
	o.phase_ctr = op == FOP_CONTAINER_CREATE;
	o.phase_vol = op == FOP_VOLUME_CREATE;
	o.phase_join = op == FOP_CONNECT;
	o.build = op == FOP_BUILD;
	o.ck_build = ck == 1;
	o.ck_archive = ck == 2;
	o.ck_load = ck == 3;
	o.list = op == FOP_LIST;
	o.inspect = op == FOP_INSPECT;
	o.build_prune = op == FOP_BUILD_PRUNE;
	o.system_df = op == FOP_SYSTEM_DF;
	o.system_prune = api == IPC_API_LIBPOD && op == FOP_SYSTEM_PRUNE;
	o.remove_or_prune = op == FOP_REMOVE || op == FOP_PRUNE;
	o.remove = op == FOP_REMOVE;
	o.events = op == FOP_EVENTS;
	o.sc_gate = op == FOP_START || op == FOP_POD_START ||
	    op == FOP_RESTART || op == FOP_POD_RESTART || op == FOP_ATTACH ||
	    op == FOP_UPDATE || op == FOP_INIT;
	o.sc_pod = op == FOP_POD_START || op == FOP_POD_RESTART;
	o.sc_restart = op == FOP_RESTART || op == FOP_POD_RESTART;
	o.archive_put = op == FOP_ARCHIVE_PUT;
	o.attach = (o.sc_gate || o.archive_put) && op == FOP_ATTACH;
	o.start = o.sc_gate && !o.sc_pod && op == FOP_START;
	o.reuse = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	return o;
}

/* pattern with its placeholder replaced: an id, or a name (variant). */
static void
fill(const char *pattern, int variant, char *out, size_t outsz)
{
	static const char *const names[] = { "pods", "x/pods/create",
	    "containers/create/volumes/create", "alpine" };
	const char *b = strchr(pattern, '{');
	const char *v;

	if (b == NULL) {
		snprintf(out, outsz, "%s", pattern);
		return;
	}
	v = b[1] == 'i' ? names[variant % 4] : b[1] == 'v' ?
	    names[variant % 2 == 0 ? 0 : 3] : HEXID;
	snprintf(out, outsz, "%.*s%s%s", (int)(b - pattern), pattern, v,
	    strchr(b, '}') + 1);
}

/* A query a row needs to route, or one with '/' in a value. */
static const char *
query_for(const struct cg_route *rt, int api)
{
	if (strcmp(rt->family, "images") == 0 && strcmp(rt->action, "pull") == 0)
		return api == IPC_API_LIBPOD ? "?reference=alpine" :
		    "?fromImage=alpine";
	if (strcmp(rt->action, "stats-all") == 0)
		return strcmp(rt->family, "pods") == 0 ?
		    "?namesOrIDs=" HEXID : "?containers=" HEXID;
	if (strcmp(rt->action, "remove-bulk") == 0)
		return "?images=alpine";
	if (strcmp(rt->family, "commit") == 0)
		return "?container=" HEXID;
	if (strcmp(rt->pattern, "containers/create") == 0 &&
	    api == IPC_API_COMPAT)
		return "?name=x%2Fpods%2Fcreate%2Fvolumes%2Fcreate";
	return "";
}

static void
test_every_row(void **state)
{
	static const char *const methods[] = { "GET", "HEAD", "POST", "PUT",
	    "DELETE" };
	const struct cg_route *tab, *rt;
	struct cg_policy_ctx ctx;
	struct cg_request req;
	struct cg_refusal r;
	char path[512], target[1024], *canon;
	size_t n, i, m, checked = 0, v;
	int a, routed;

	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	ctx.root = "/home/u/proj";
	ctx.socket_kind = CG_PODMAN;
	ctx.backend_kind = CG_PODMAN;
	ctx.egress = CG_EGRESS_OFF;
	tab = route_table(&n);
	for (i = 0; i < n; i++) {
		rt = &tab[i];
		for (a = 0; a < 2; a++) {
			int api = a == 0 ? IPC_API_COMPAT : IPC_API_LIBPOD;

			if (!(rt->apis & (a == 0 ? ROUTE_C : ROUTE_L)))
				continue;
			for (m = 0; m < 5; m++) {
				struct old o, nw;

				if (!(rt->methods & (1u << m)))
					continue;
				/* a denied row is never forwarded: op only */
				if (rt->flags & RF_DENIED) {
					o = old_of(rt->action, methods[m], "",
					    api);
					nw = new_of(fwd_op_of(rt, methods[m]),
					    methods[m], api);
					assert_memory_equal(&o, &nw, sizeof(o));
					continue;
				}
				for (routed = 0, v = 0; v < 4; v++) {
					fill(rt->pattern, (int)v, path,
					    sizeof(path));
					snprintf(target, sizeof(target),
					    "%s/%s%s", a == 0 ? "/v1.41" :
					    "/v4.3.1/libpod", path,
					    query_for(rt, api));
					if (policy_route(&ctx, methods[m],
					    target, strlen(target), 0, &req,
					    &r) != 0)
						continue;
					if (req.route != rt) {
						policy_request_free(&req);
						continue;
					}
					routed = 1;
					canon = policy_route_target(&req, NULL);
					o = old_of(req.action, methods[m], canon,
					    (int)req.api);
					nw = new_of(fwd_op_of(req.route,
					    methods[m]), methods[m],
					    (int)req.api);
					if (memcmp(&o, &nw, sizeof(o)) != 0)
						fail_msg("%s %s: the op decides "
						    "apart from the strings",
						    methods[m], canon);
					free(canon);
					policy_request_free(&req);
					checked++;
				}
				if (!routed)
					fail_msg("%s %s routes to no sample "
					    "(%s: %s)", methods[m], target,
					    r.code, r.detail);
			}
		}
	}
	assert_true(checked > 150);
	assert_int_equal(fwd_op_of(NULL, "GET"), FOP_NONE);
}

/* The table's ops, one each: a renamed action would fall to FOP_NONE. */
static void
test_ops_reached(void **state)
{
	static const char *const methods[] = { "GET", "HEAD", "POST", "PUT",
	    "DELETE" };
	const struct cg_route *tab;
	unsigned seen = 0;
	size_t n, i, m;

	(void)state;
	tab = route_table(&n);
	for (i = 0; i < n; i++)
		for (m = 0; m < 5; m++)
			if (tab[i].methods & (1u << m))
				seen |= 1u << fwd_op_of(&tab[i], methods[m]);
	assert_int_equal(seen, (1u << (FOP_EVENTS + 1)) - 1);
}

/*
 * The id a stage read from the target before c->ref_off/ref_len: the
 * segment after the first "/<family>/" (startcheck's target_id, the
 * phase's network join), NULL when there is none.
 */
static char *
old_id(const char *target, const char *family)
{
	char f[32];
	const char *p;

	snprintf(f, sizeof(f), "/%s/", family);
	if ((p = strstr(target, f)) == NULL)
		return NULL;
	p += strlen(f);
	return strndup(p, strcspn(p, "/?"));
}

/*
 * Every row with an owned path ref, verified by verify_forward on the
 * fuzz target's monitor (tests/fuzz/fuzz_monitor.h and its owned
 * answers): c->ref_off/ref_len name the segment the stages found by
 * searching the target for "/<family>/", and c->op is fwd_op_of's. The
 * rows the stages read an id from must all be among them.
 */
static void
test_ref_place(void **state)
{
	static struct gateway gw;
	static struct cg_config cfg;
	static const char *const methods[] = { "GET", "HEAD", "POST", "PUT",
	    "DELETE" };
	/* a placeholder's owned id or name in fz_facts */
	static const struct {
		char ph;
		size_t fact;
	} ids[] = { { 'c', 0 }, { 'p', 2 }, { 'v', 3 }, { 'n', 4 }, { 'e', 7 } };
	const struct cg_route *tab, *rt;
	struct cg_fwd_headers fh;
	struct ipc_msg m;
	struct conn *c;
	char target[512], *old;
	const char *b;
	size_t n, i, k, mi;
	unsigned seen = 0;

	(void)state;
	fz_gateway(&gw, &cfg);
	log_init(LOG_ERROR, LOG_TEXT, -1);
	tab = route_table(&n);
	for (i = 0; i < n; i++) {
		rt = &tab[i];
		if ((rt->flags & RF_DENIED) ||
		    (b = strchr(rt->pattern, '{')) == NULL || b[1] == 'i')
			continue;
		for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++)
			if (ids[k].ph == b[1])
				break;
		assert_true(k < sizeof(ids) / sizeof(ids[0]));
		for (mi = 0; mi < 5; mi++) {
			if (!(rt->methods & (1u << mi)))
				continue;
			snprintf(target, sizeof(target), "%s/%.*s%s%s",
			    (rt->apis & ROUTE_C) ? "/v1.41" : "/v4.0.0/libpod",
			    (int)(b - rt->pattern), rt->pattern,
			    fz_facts[ids[k].fact].id, b + 3);
			memset(&m, 0, sizeof(m));
			m.type = IPC_FORWARD;
			m.req = 1;
			m.fd = -1;
			m.u.forward.method = ipc_cstr(methods[mi]);
			m.u.forward.target = ipc_cstr(target);
			if (strcmp(methods[mi], "POST") == 0 ||
			    strcmp(methods[mi], "PUT") == 0) {
				m.u.forward.headers[0].name =
				    ipc_cstr("Content-Length");
				m.u.forward.headers[0].value = ipc_cstr("0");
				m.u.forward.nheaders = 1;
			}
			c = conn_new(&gw, 0, -1);
			c->id = 1;
			c->req = 1;
			fz_fill_facts(c);
			if (verify_forward(c, &m, &fh) != 0)
				fail_msg("%s %s: not verified", methods[mi],
				    target);
			assert_int_equal(c->fw.op, fwd_op_of(rt, methods[mi]));
			old = old_id(c->fw.target, rt->family);
			assert_non_null(old);
			if (c->fw.ref_len != strlen(old) ||
			    memcmp(old, c->fw.target + c->fw.ref_off,
			    c->fw.ref_len) != 0)
				fail_msg("%s %s: ref at %zu+%zu, the search "
				    "found %s", methods[mi], c->fw.target,
				    c->fw.ref_off, c->fw.ref_len, old);
			seen |= 1u << c->fw.op;
			free(old);
			conn_free(c);
		}
	}
	/* startcheck's and the phase's readers of the id */
	for (k = FOP_CONNECT; k <= FOP_UPDATE; k++)
		if (k != FOP_BUILD && k != FOP_LOAD && !(seen & (1u << k)))
			fail_msg("op %zu has no row with a path ref", k);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_ops_reached),
		cmocka_unit_test(test_ref_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
