/*
 * Unit tests of policy_finish() (routes.md §9, http.md §4): ownership of
 * path and query refs through a fake struct cg_facts, rewriting by
 * segment position, the verdicts (404 / 502 / 504), JSON body handling,
 * the connect/disconnect order, and policy_empty_body_ok().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/policy.h"
#include "policy/query.h"

#define ROOT	"/home/u/proj"
#define ID_A	"a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
#define ID_N	"f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1"
#define ID_I	"sha256:9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c"
#define ID_P	"d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1"

/* ---- the fake facts -------------------------------------------------- */

struct fact {
	enum cg_fact_kind kind;
	const char *ref;
	enum cg_fact_result result;
	const char *id;
};

static const struct fact facts_table[] = {
	{ CG_FACT_CONTAINER, "own1", CG_OWNED, ID_A },
	{ CG_FACT_CONTAINER, "a1a1a1", CG_OWNED, ID_A },
	{ CG_FACT_CONTAINER, "containers", CG_OWNED, ID_A },
	{ CG_FACT_CONTAINER, "libpod", CG_OWNED, ID_A },
	{ CG_FACT_CONTAINER, "v1.45", CG_OWNED, ID_A },
	{ CG_FACT_CONTAINER, "down", CG_UNREACHABLE, NULL },
	{ CG_FACT_CONTAINER, "slow", CG_TIMEOUT, NULL },
	{ CG_FACT_CONTAINER, "weird", CG_UNEXPECTED, NULL },
	{ CG_FACT_CONTAINER, "badid", CG_OWNED, "../../x" },
	{ CG_FACT_NETWORK, "ownnet", CG_OWNED, ID_N },
	{ CG_FACT_VOLUME, "ownvol", CG_OWNED, "ownvol" },
	{ CG_FACT_IMAGE, "localhost/built:1", CG_OWNED, ID_I },
	{ CG_FACT_IMAGE, "foo/json", CG_OWNED, ID_I },
	{ CG_FACT_POD, "ownpod", CG_OWNED, ID_P },
	{ CG_FACT_EXEC, "e1", CG_OWNED, ID_A },
};

#define LOG_MAX	16

struct fake {
	size_t n;
	enum cg_fact_kind kinds[LOG_MAX];
	char refs[LOG_MAX][64];
	char prefixes[LOG_MAX][48];
	enum cg_api apis[LOG_MAX];
};

static enum cg_fact_result
fake_owned(void *arg, enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, char id_out[CG_ID_MAX + 1])
{
	struct fake *f = arg;
	size_t i;

	if (f->n < LOG_MAX) {
		f->kinds[f->n] = kind;
		f->apis[f->n] = api;
		snprintf(f->refs[f->n], sizeof(f->refs[0]), "%s", ref);
		snprintf(f->prefixes[f->n], sizeof(f->prefixes[0]), "%s",
		    prefix);
		f->n++;
	}
	for (i = 0; i < sizeof(facts_table) / sizeof(facts_table[0]); i++) {
		if (facts_table[i].kind != kind ||
		    strcmp(facts_table[i].ref, ref) != 0)
			continue;
		if (facts_table[i].id != NULL)
			snprintf(id_out, CG_ID_MAX + 1, "%s", facts_table[i].id);
		return facts_table[i].result;
	}
	return CG_NOT_OWNED;
}

static struct fake fake;
static struct cg_facts facts = { fake_owned, NULL, NULL, &fake };

static struct cg_policy_ctx
make_ctx(enum cg_kind sock)
{
	struct cg_policy_ctx c;

	memset(&c, 0, sizeof(c));
	c.root = ROOT;
	c.socket_kind = sock;
	c.backend_kind = CG_PODMAN;
	c.facts = &facts;
	c.backend_timeout_s = 60;
	return c;
}

/*
 * Route and finish one request. Returns policy_finish's result (the route
 * stage must pass); req is left for the caller to inspect and free.
 */
static int
run_ctx(const struct cg_policy_ctx *ctx, const char *method,
    const char *target, const char *body, struct cg_request *req,
    struct cg_refusal *r)
{
	memset(&fake, 0, sizeof(fake));
	if (policy_route(ctx, method, target, strlen(target), 0, req, r) != 0)
		fail_msg("%s %s refused at route: %s: %s", method, target,
		    r->code, r->detail);
	return policy_finish(ctx, req, body, body ? strlen(body) : 0, r);
}

static int
run(enum cg_kind sock, const char *method, const char *target,
    const char *body, struct cg_request *req, struct cg_refusal *r)
{
	struct cg_policy_ctx ctx = make_ctx(sock);

	return run_ctx(&ctx, method, target, body, req, r);
}

/* A request that must pass, forwarded to want. */
static void
pass(enum cg_kind sock, const char *method, const char *target,
    const char *body, const char *want)
{
	struct cg_request req;
	struct cg_refusal r;

	if (run(sock, method, target, body, &req, &r) != 0)
		fail_msg("%s %s refused: %d %s: %s", method, target, r.status,
		    r.code, r.detail);
	if (strcmp(req.target, want) != 0 || req.target_len != strlen(want))
		fail_msg("%s %s:\n  target %s\n  wanted %s", method, target,
		    req.target, want);
	policy_request_free(&req);
}

/* A request that must be refused with code and (if non-NULL) detail. */
static void
refuse(enum cg_kind sock, const char *method, const char *target,
    const char *body, const char *code, const char *detail)
{
	struct cg_request req;
	struct cg_refusal r;

	if (run(sock, method, target, body, &req, &r) == 0)
		fail_msg("%s %s allowed as %s", method, target, req.target);
	if (strcmp(r.code, code) != 0 || r.status != cg_code_status(code) ||
	    (detail != NULL && strcmp(r.detail, detail) != 0))
		fail_msg("%s %s: got %d %s: %s; wanted %s: %s", method,
		    target, r.status, r.code, r.detail, code,
		    detail ? detail : "*");
	policy_request_free(&req);
}

/* ---- tests ----------------------------------------------------------- */

static void
test_path_rewrite(void **state)
{
	(void)state;
	pass(CG_DOCKER, "GET", "/v1.41/containers/own1/json?size=false", NULL,
	    "/v1.41/containers/" ID_A "/json?size=false");
	assert_int_equal(fake.n, 1);
	assert_int_equal(fake.kinds[0], CG_FACT_CONTAINER);
	assert_string_equal(fake.refs[0], "own1");
	assert_string_equal(fake.prefixes[0], "/v1.41");
	assert_int_equal(fake.apis[0], CG_API_COMPAT);
	pass(CG_DOCKER, "POST", "/v1.41/containers/a1a1a1/start", NULL,
	    "/v1.41/containers/" ID_A "/start");
	pass(CG_DOCKER, "DELETE", "/containers/own1?force=1", NULL,
	    "/containers/" ID_A "?force=1");
	assert_string_equal(fake.prefixes[0], "");
	/* by position, never by text (§9.6) */
	pass(CG_DOCKER, "POST", "/v1.41/containers/containers/start", NULL,
	    "/v1.41/containers/" ID_A "/start");
	pass(CG_PODMAN, "GET", "/v4.3.1/libpod/containers/libpod/json", NULL,
	    "/v4.3.1/libpod/containers/" ID_A "/json");
	assert_int_equal(fake.apis[0], CG_API_LIBPOD);
	assert_string_equal(fake.prefixes[0], "/v4.3.1");
	pass(CG_DOCKER, "GET", "/v1.45/containers/v1.45/logs?stdout=1", NULL,
	    "/v1.45/containers/" ID_A "/logs?stdout=1");
	/* networks and pods ->id */
	pass(CG_DOCKER, "GET", "/v1.41/networks/ownnet?verbose=false", NULL,
	    "/v1.41/networks/" ID_N "?verbose=false");
	pass(CG_PODMAN, "POST", "/v4.3.1/libpod/pods/ownpod/start", NULL,
	    "/v4.3.1/libpod/pods/" ID_P "/start");
	/* volumes are never rewritten */
	pass(CG_DOCKER, "DELETE", "/v1.41/volumes/ownvol", NULL,
	    "/v1.41/volumes/ownvol");
	/* images: tag ->id (multi-segment ref), remove checked not rewritten */
	pass(CG_DOCKER, "POST",
	    "/v1.41/images/localhost/built:1/tag?repo=localhost%2Fbuilt&tag=2",
	    NULL, "/v1.41/images/" ID_I "/tag?repo=localhost%2Fbuilt&tag=2");
	assert_string_equal(fake.refs[0], "localhost/built:1");
	pass(CG_DOCKER, "DELETE", "/v1.41/images/localhost/built:1", NULL,
	    "/v1.41/images/localhost/built:1");
	pass(CG_DOCKER, "DELETE", "/images/foo/json", NULL, "/images/foo/json");
	assert_int_equal(fake.kinds[0], CG_FACT_IMAGE);
	assert_string_equal(fake.refs[0], "foo/json");
	/* image reads are never checked */
	pass(CG_DOCKER, "GET", "/v1.41/images/localhost/busybox/json", NULL,
	    "/v1.41/images/localhost/busybox/json");
	assert_int_equal(fake.n, 0);
	/* unfiltered, ref-less routes ask nothing */
	pass(CG_DOCKER, "GET", "/v1.41/containers/json?all=1", NULL,
	    "/v1.41/containers/json?all=1&filters=%7B%22label%22%3A%5B%22"
	    "org.apache.magpie.project%3D%2Fhome%2Fu%2Fproj%22%5D%7D");
	assert_int_equal(fake.n, 0);
}

static void
test_exec(void **state)
{
	(void)state;
	pass(CG_DOCKER, "POST", "/v1.41/exec/e1/resize?h=40&w=120", NULL,
	    "/v1.41/exec/e1/resize?h=40&w=120");
	assert_int_equal(fake.kinds[0], CG_FACT_EXEC);
	pass(CG_PODMAN, "GET", "/v4.3.1/libpod/exec/e1/json", NULL,
	    "/v4.3.1/libpod/exec/e1/json");
	refuse(CG_DOCKER, "GET", "/v1.41/exec/e2/json", NULL, "not-found",
	    "no such exec session: e2");
}

static void
test_verdicts(void **state)
{
	struct cg_policy_ctx ctx = make_ctx(CG_DOCKER);
	struct cg_request req;
	struct cg_refusal r;

	(void)state;
	refuse(CG_DOCKER, "GET", "/v1.41/containers/x/json", NULL,
	    "not-found", "no such container: x");
	refuse(CG_PODMAN, "DELETE", "/v4.3.1/libpod/containers/victim?force=true",
	    NULL, "not-found", "no such container: victim");
	refuse(CG_DOCKER, "GET", "/v1.41/volumes/othervol", NULL, "not-found",
	    "no such volume: othervol");
	refuse(CG_DOCKER, "DELETE", "/v1.41/networks/othernet", NULL,
	    "not-found", "no such network: othernet");
	refuse(CG_PODMAN, "DELETE", "/v4.3.1/libpod/pods/otherpod", NULL,
	    "not-found", "no such pod: otherpod");
	refuse(CG_DOCKER, "DELETE", "/v1.41/images/localhost/busybox", NULL,
	    "not-found", "no such image: localhost/busybox");
	refuse(CG_DOCKER, "POST", "/v1.41/containers/down/start", NULL,
	    "backend-unreachable", "the podman backend is unreachable");
	refuse(CG_DOCKER, "POST", "/v1.41/containers/slow/start", NULL,
	    "backend-timeout", "the podman backend did not answer within 60s");
	refuse(CG_DOCKER, "POST", "/v1.41/containers/weird/start", NULL,
	    "backend-unreachable", "unexpected container inspect response");
	refuse(CG_DOCKER, "POST", "/v1.41/containers/badid/start", NULL,
	    "backend-unreachable", "unexpected container inspect response");

	ctx.backend_kind = CG_DOCKER;
	ctx.backend_timeout_s = 7;
	assert_int_equal(run_ctx(&ctx, "POST", "/v1.41/containers/slow/stop",
	    NULL, &req, &r), -1);
	assert_string_equal(r.detail, "the docker backend did not answer within 7s");
	policy_request_free(&req);
	assert_int_equal(run_ctx(&ctx, "POST", "/v1.41/containers/down/stop",
	    NULL, &req, &r), -1);
	assert_string_equal(r.detail, "the docker backend is unreachable");
	policy_request_free(&req);

	/* no facts: fail closed */
	ctx.facts = NULL;
	assert_int_equal(run_ctx(&ctx, "POST", "/v1.41/containers/own1/start",
	    NULL, &req, &r), -1);
	assert_string_equal(r.code, "backend-unreachable");
	assert_null(req.target);
	policy_request_free(&req);
}

static void
test_query_refs(void **state)
{
	(void)state;
	pass(CG_DOCKER, "POST",
	    "/v1.41/commit?author=&comment=&container=own1&repo=localhost%2Fcommitted&tag=1",
	    NULL, "/v1.41/commit?author=&comment=&container=" ID_A
	    "&repo=localhost%2Fcommitted&tag=1");
	refuse(CG_DOCKER, "POST", "/v1.41/commit?container=victim&repo=x", "{}",
	    "not-found", "no such container: victim");
	pass(CG_PODMAN, "POST", "/v4.3.1/libpod/commit?container=a1a1a1", NULL,
	    "/v4.3.1/libpod/commit?container=" ID_A);
	pass(CG_PODMAN, "GET",
	    "/v4.3.1/libpod/containers/stats?containers=own1&stream=false&containers=a1a1a1",
	    NULL, "/v4.3.1/libpod/containers/stats?containers=" ID_A
	    "&stream=false&containers=" ID_A);
	assert_int_equal(fake.n, 2);
	refuse(CG_PODMAN, "GET",
	    "/v4.3.1/libpod/containers/stats?containers=own1&containers=x",
	    NULL, "not-found", "no such container: x");
	refuse(CG_PODMAN, "GET", "/v4.3.1/libpod/containers/stats?containers=",
	    NULL, "not-found", "no such container: ");
	pass(CG_PODMAN, "GET", "/v4.3.1/libpod/pods/stats?namesOrIDs=ownpod",
	    NULL, "/v4.3.1/libpod/pods/stats?namesOrIDs=" ID_P);
	refuse(CG_PODMAN, "GET", "/v4.3.1/libpod/pods/stats?namesOrIDs=p9",
	    NULL, "not-found", "no such pod: p9");
	pass(CG_PODMAN, "DELETE",
	    "/v4.3.1/libpod/images/remove?images=localhost%2Fbuilt%3A1",
	    NULL, "/v4.3.1/libpod/images/remove?images=localhost%2Fbuilt%3A1");
	refuse(CG_PODMAN, "DELETE",
	    "/v4.3.1/libpod/images/remove?images=localhost%2Fbuilt%3A1&images=busybox",
	    NULL, "not-found", "no such image: busybox");
	/* path refs are checked before query refs */
	refuse(CG_PODMAN, "GET", "/v4.3.1/libpod/containers/x/json?containers=y",
	    NULL, "not-found", "no such container: x");
}

static void
test_bodies(void **state)
{
	struct cg_request req;
	struct cg_refusal r;

	(void)state;
	/* json: empty refused, invalid JSON refused before ownership */
	refuse(CG_DOCKER, "POST", "/v1.41/containers/create", NULL,
	    "malformed", "request body must be a JSON object");
	refuse(CG_DOCKER, "POST", "/v1.41/containers/create",
	    "{\"Image\": \"alpine\",", "malformed", NULL);
	refuse(CG_DOCKER, "POST", "/v1.41/containers/own1/update", "{\"a\":1} {}",
	    "malformed", NULL);
	assert_int_equal(fake.n, 0);
	assert_int_equal(run(CG_DOCKER, "POST", "/v1.41/containers/create",
	    "[1", &req, &r), -1);
	assert_int_equal(strncmp(r.detail, "invalid JSON body: ", 19), 0);
	policy_request_free(&req);
	/* json-optional: empty forwarded empty */
	assert_int_equal(run(CG_DOCKER, "POST", "/v1.41/exec/e1/start", NULL,
	    &req, &r), 0);
	assert_null(req.body);
	assert_int_equal(req.body_len, 0);
	assert_string_equal(req.target, "/v1.41/exec/e1/start");
	policy_request_free(&req);
	/* json: the canonical re-serialisation is forwarded */
	assert_int_equal(run(CG_DOCKER, "POST", "/v1.41/exec/e1/start",
	    " {\"Detach\" : false, \"Tty\":false} ", &req, &r), 0);
	assert_string_equal(req.body, "{\"Detach\":false,\"Tty\":false}");
	assert_int_equal(req.body_len, strlen(req.body));
	policy_request_free(&req);
	/* none: any body ignored here (the HTTP layer applies §4.1) */
	assert_int_equal(run(CG_DOCKER, "POST", "/v1.41/containers/own1/start",
	    "{}", &req, &r), 0);
	assert_null(req.body);
	policy_request_free(&req);
}

static void
test_connect_order(void **state)
{
	(void)state;
	/* the path network is asked first (policy.md §12.3) */
	refuse(CG_DOCKER, "POST", "/v1.41/networks/othernet/connect",
	    "{\"Container\":\"own1\"}", "not-found", "no such network: othernet");
	assert_int_equal(fake.kinds[0], CG_FACT_NETWORK);
	refuse(CG_DOCKER, "POST", "/v1.41/networks/othernet/disconnect",
	    "{\"Container\":\"victim\"}", "not-found",
	    "no such network: othernet");
	assert_int_equal(fake.kinds[0], CG_FACT_NETWORK);
	/* owned network and container: both rewritten to ids */
	pass(CG_DOCKER, "POST", "/v1.41/networks/ownnet/connect",
	    "{\"Container\":\"own1\"}", "/v1.41/networks/" ID_N "/connect");
	assert_int_equal(fake.kinds[0], CG_FACT_NETWORK);
	refuse(CG_DOCKER, "POST", "/v1.41/networks/ownnet/connect",
	    "{\"Container\":\"victim\"}", "not-found",
	    "no such container: victim");
	assert_int_equal(fake.kinds[0], CG_FACT_NETWORK);
	/* for other json routes the body comes first */
	refuse(CG_DOCKER, "POST", "/v1.41/containers/victim/update", "[",
	    "malformed", NULL);
	assert_int_equal(fake.n, 0);
}

static void
test_empty_body_ok(void **state)
{
	(void)state;
	assert_true(policy_empty_body_ok("", 0));
	assert_true(policy_empty_body_ok("{}", 2));
	assert_true(policy_empty_body_ok(" \r\n\t{ }\n", 8));
	assert_true(policy_empty_body_ok("null", 4));
	assert_true(policy_empty_body_ok("  null  ", 8));
	assert_true(policy_empty_body_ok("  ", 2));
	assert_false(policy_empty_body_ok("{\"Binds\":[\"/:/host\"]}", 21));
	assert_false(policy_empty_body_ok("[]", 2));
	assert_false(policy_empty_body_ok("{}{}", 4));
	assert_false(policy_empty_body_ok("nul", 3));
	assert_false(policy_empty_body_ok("nullx", 5));
	assert_false(policy_empty_body_ok("\"\"", 2));
	assert_false(policy_empty_body_ok("{", 1));
	assert_false(policy_empty_body_ok("\v{}", 3));
	assert_false(policy_empty_body_ok("{}\0", 3));
}

#define D_FORCE	"force removes containers of other projects and is refused"

/* Hardening beyond the spec, F4: a truthy force on image remove / untag. */
static void
test_image_force(void **state)
{
	(void)state;
	/* the attacks: compat and libpod rmi -f, bulk remove, untag */
	refuse(CG_DOCKER, "DELETE", "/v1.41/images/localhost/built:1?force=1",
	    NULL, "denied-query", D_FORCE);
	refuse(CG_PODMAN, "DELETE",
	    "/v4.3.1/libpod/images/localhost/built:1?force=true", NULL,
	    "denied-query", D_FORCE);
	refuse(CG_PODMAN, "DELETE", "/v4.3.1/libpod/images/remove?"
	    "images=localhost%2Fbuilt%3A1&force=true&ignore=false", NULL,
	    "denied-query", D_FORCE);
	refuse(CG_PODMAN, "POST",
	    "/v4.3.1/libpod/images/localhost/built:1/untag?force=1", NULL,
	    "denied-query", D_FORCE);
	refuse(CG_DOCKER, "DELETE", "/v1.41/images/foo/json?force=yes", NULL,
	    "denied-query", D_FORCE);
	/* ownership first: another project's image is still 404 */
	refuse(CG_DOCKER, "DELETE", "/v1.41/images/localhost/victimimg?force=1",
	    NULL, "not-found", "no such image: localhost/victimimg");
	assert_int_equal(fake.kinds[0], CG_FACT_IMAGE);
	refuse(CG_PODMAN, "DELETE", "/v4.3.1/libpod/images/remove?"
	    "images=localhost%2Fbuilt%3A1&images=busybox&force=true", NULL,
	    "not-found", "no such image: busybox");
	/* falsy force and no force pass */
	pass(CG_DOCKER, "DELETE",
	    "/v1.41/images/localhost/built:1?force=0&noprune=0", NULL,
	    "/v1.41/images/localhost/built:1?force=0&noprune=0");
	pass(CG_DOCKER, "DELETE", "/v1.41/images/localhost/built:1", NULL,
	    "/v1.41/images/localhost/built:1");
	pass(CG_PODMAN, "DELETE", "/v4.3.1/libpod/images/remove?"
	    "images=localhost%2Fbuilt%3A1&force=false", NULL,
	    "/v4.3.1/libpod/images/remove?images=localhost%2Fbuilt%3A1"
	    "&force=false");
	pass(CG_PODMAN, "POST",
	    "/v4.3.1/libpod/images/localhost/built:1/untag?force=False", NULL,
	    "/v4.3.1/libpod/images/localhost/built:1/untag?force=False");
	/* force elsewhere is not this rule (container remove keeps it) */
	pass(CG_DOCKER, "DELETE", "/v1.41/containers/own1?force=1", NULL,
	    "/v1.41/containers/" ID_A "?force=1");
}

/*
 * Compat commit bodies (the F10 review finding). http.md §4.1 and the
 * conformance case img-commit-own require an empty json-optional body to
 * be forwarded empty, so the gateway does not substitute {} (podman 4.3
 * answers such a docker commit with 500 "Decode(): EOF"; see tool.md).
 * A client's {} is forwarded unchanged (fixpoint).
 */
static void
test_commit_body(void **state)
{
	struct cg_request req;
	struct cg_refusal r;
	static const char t[] = "/v1.41/commit?author=&comment=&container=own1"
	    "&repo=localhost%2Fcommitted&tag=1";

	(void)state;
	/* the docker CLI's request (cli-traffic/docker-commit.txt) */
	assert_int_equal(run(CG_DOCKER, "POST", t, NULL, &req, &r), 0);
	assert_null(req.body);
	assert_int_equal(req.body_len, 0);
	assert_string_equal(req.target, "/v1.41/commit?author=&comment="
	    "&container=" ID_A "&repo=localhost%2Fcommitted&tag=1");
	policy_request_free(&req);
	/* {} comes out unchanged */
	assert_int_equal(run(CG_DOCKER, "POST", t, "{}", &req, &r), 0);
	assert_string_equal(req.body, "{}");
	assert_int_equal(req.body_len, 2);
	policy_request_free(&req);
	/* a body is policed, ownership applies to the empty form too */
	refuse(CG_DOCKER, "POST", t, "{\"HostConfig\":{}}", "unknown-field",
	    NULL);
	refuse(CG_DOCKER, "POST", "/v1.41/commit?container=victim", NULL,
	    "not-found", "no such container: victim");
}

static void
test_refs_limit(void **state)
{
	char target[4096];
	size_t i, o;

	(void)state;
	o = (size_t)snprintf(target, sizeof(target),
	    "/v4.3.1/libpod/containers/stats?");
	for (i = 0; i < CG_REFS_MAX + 1; i++)
		o += (size_t)snprintf(target + o, sizeof(target) - o,
		    "%scontainers=own1", i ? "&" : "");
	refuse(CG_PODMAN, "GET", target, NULL, "denied-query", NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_rewrite),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_query_refs),
		cmocka_unit_test(test_bodies),
		cmocka_unit_test(test_connect_order),
		cmocka_unit_test(test_empty_body_ok),
		cmocka_unit_test(test_refs_limit),
		cmocka_unit_test(test_image_force),
		cmocka_unit_test(test_commit_body),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
