/*
 * Values the daemons assemble from parts (policy/assemble.h), table by
 * table: every route that joins an image reference from two query values
 * (each asm_ref_pairs row has a case here, checked by test_every_row),
 * filter keys split the way podman splits them, on every filter route
 * whose answer depends on the label rules, and form bodies on every
 * stream route. Each case runs the real policy_route (or
 * policy_forward_headers) on the request a client would send.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/assemble.h"
#include "policy/headers.h"
#include "policy/policy.h"
#include "policy/query.h"
#include "policy/routes.h"
#include "tests/policy_ctx.h"

#define ROOT	"/home/u/proj"
#define P	CG_PODMAN
#define D	CG_DOCKER

/* ---- references -------------------------------------------------------- */

struct ref_case {
	enum cg_kind sock;
	const char *method;
	const char *target;
	const char *code;	/* NULL: routed */
	const char *detail;	/* a substring of the detail, or NULL */
};

/* [vfs@/tmp/x+/tmp/y]x, encoded */
#define VFS	"%5Bvfs%40%2Ftmp%2Fx%2B%2Ftmp%2Fy%5Dx"

static const struct ref_case ref_cases[] = {
	/* compat images/create, a pull: fromImage + tag */
	{ D, "POST", "/v1.41/images/create?fromImage=containers-storage&tag=" VFS,
	  "host-path", "fromImage joined with its tag is containers-storage:" },
	{ D, "POST", "/v1.41/images/create?fromImage=dir&tag=%2Fetc%2Fx", "host-path",
	  "dir:/etc/x" },
	/* tag is policed: a case variant is refused before the assembly */
	{ D, "POST", "/v1.41/images/create?fromImage=OCI&TAG=%2Fx", "denied-query",
	  "TAG is not the canonical spelling of tag" },
	{ D, "POST", "/v1.41/images/create?fromImage=docker&tag=%2F%2Fhost%2Fx",
	  "host-path", NULL },
	{ D, "POST", "/v1.41/images/create?fromImage=docker&tag=dind", NULL, NULL },
	{ D, "POST", "/v1.41/images/create?fromImage=busybox&tag=latest", NULL, NULL },
	{ D, "POST", "/v1.41/images/create?fromImage=dir", NULL, NULL },
	/* the same route as an import: repo + tag (dockerd), repo alone is latest */
	{ D, "POST", "/v1.41/images/create?fromSrc=-&repo=dir&tag=%2Fx", "host-path", NULL },
	{ D, "POST", "/v1.41/images/create?fromSrc=-&repo=sif", "host-path", "sif:latest" },
	{ D, "POST", "/v1.41/images/create?fromSrc=-&repo=mine&tag=v1", NULL, NULL },
	/* commit, both APIs: repo + tag, tag defaulting to latest */
	{ D, "POST", "/v1.41/commit?container=c&repo=containers-storage&tag=" VFS,
	  "host-path", NULL },
	{ D, "POST", "/v1.41/commit?container=c&repo=dir", "host-path", "dir:latest" },
	{ D, "POST", "/v1.41/commit?container=c&repo=oci&tag=", "host-path", NULL },
	{ D, "POST", "/v1.41/commit?container=c&repo=mine&tag=v1", NULL, NULL },
	{ P, "POST", "/v4.3.1/libpod/commit?container=c&repo=containers-storage&tag=" VFS,
	  "host-path", NULL },
	/* tag is policed on commit: a case variant is refused first */
	{ P, "POST", "/v4.3.1/libpod/commit?container=c&repo=oci-archive&Tag=%2Fx",
	  "denied-query", "Tag is not the canonical spelling of tag" },
	{ P, "POST", "/v4.3.1/libpod/commit?container=c&repo=oci-archive&tag=%2Fx",
	  "host-path", NULL },
	{ P, "POST", "/v4.3.1/libpod/commit?container=c&repo=mine", NULL, NULL },
	/* tag, both APIs; libpod untag */
	{ D, "POST", "/v1.41/images/abc/tag?repo=containers-storage&tag=" VFS,
	  "host-path", NULL },
	{ D, "POST", "/v1.41/images/abc/tag?repo=mine&tag=v2", NULL, NULL },
	{ P, "POST", "/v4.3.1/libpod/images/abc/tag?repo=dir&tag=%2Fx", "host-path", NULL },
	{ P, "POST", "/v4.3.1/libpod/images/abc/untag?repo=docker-archive&tag=%2Fx",
	  "host-path", NULL },
	{ P, "POST", "/v4.3.1/libpod/images/abc/untag?repo=mine&tag=v2", NULL, NULL },
};

static struct cg_policy_ctx
make_ctx(enum cg_kind sock, enum cg_kind backend)
{
	return policy_test_ctx(ROOT, sock, backend, NULL);
}

static void
test_refs(void **state)
{
	const struct ref_case *c;
	struct cg_policy_ctx ctx;
	struct cg_request req;
	struct cg_refusal r;
	size_t i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(ref_cases) / sizeof(ref_cases[0]); i++) {
		c = &ref_cases[i];
		ctx = make_ctx(c->sock, CG_PODMAN);
		memset(&r, 0, sizeof(r));
		rc = policy_route(&ctx, c->method, c->target, strlen(c->target),
		    0, &req, &r);
		if ((c->code == NULL) != (rc == 0) || (c->code != NULL &&
		    strcmp(r.code, c->code) != 0) || (c->detail != NULL &&
		    strstr(r.detail, c->detail) == NULL))
			fail_msg("%s: got %d %s: %s", c->target, rc,
			    rc == 0 ? "" : r.code, rc == 0 ? "" : r.detail);
		policy_request_free(&req);
	}
}

/* Every row of the assembly table has a refused case above. */
static void
test_every_row(void **state)
{
	const struct asm_ref_pair *rows;
	const struct ref_case *c;
	struct route_match m;
	struct cg_refusal r;
	size_t n, i, j;
	int found;

	(void)state;
	rows = asm_ref_pairs(&n);
	assert_true(n >= 5);
	for (i = 0; i < n; i++) {
		found = 0;
		for (j = 0; j < sizeof(ref_cases) / sizeof(ref_cases[0]); j++) {
			c = &ref_cases[j];
			if (c->code == NULL || strstr(c->target,
			    rows[i].name_key) == NULL)
				continue;
			/* which route row is it? */
			if (route_classify(c->sock, c->method, c->target,
			    strcspn(c->target, "?"), 0, &m, &r) == 0 &&
			    (rows[i].apis & (m.api == CG_API_LIBPOD ?
			    ROUTE_L : ROUTE_C)) &&
			    strcmp(m.route->family, rows[i].family) == 0 &&
			    strcmp(m.route->action, rows[i].action) == 0)
				found = 1;
		}
		if (!found)
			fail_msg("no refused case for %s/%s %s+%s",
			    rows[i].family, rows[i].action, rows[i].name_key,
			    rows[i].tag_key);
	}
}

/* ---- filter keys ------------------------------------------------------- */

struct filter_case {
	enum cg_kind backend;
	const char *target;	/* before the filters value */
	const char *filters;	/* JSON, encoded by the test */
	const char *code;	/* NULL: routed, forwarded filters below */
	const char *fwd;	/* the forwarded filters JSON, or NULL */
};

#define KEY	"org.apache.magpie.project"
#define BROOT	"/home/u/other"

static const struct filter_case filter_cases[] = {
	/* podman ORs label values on image prune: the split key is label */
	{ P, "/v1.41/images/prune", "{\"label=" KEY "\":[\"" BROOT "\"]}", "denied-query", NULL },
	{ P, "/v4.3.1/libpod/images/prune", "{\"label=" KEY "\":[\"" BROOT "\"]}",
	  "denied-query", NULL },
	{ P, "/v1.41/images/prune", "{\"label!=" KEY "\":[\"" ROOT "\"]}", "denied-query", NULL },
	{ P, "/v1.41/images/prune", "{\"label=" KEY "\":{\"" BROOT "\":true}}",
	  "denied-query", NULL },
	/* events: label values are ORed; forwarded split, without the project label, and
	   the monitor keeps the project's events among the answer (test_evfilter) */
	{ P, "/v1.41/events", "{\"label=" KEY "\":[\"" BROOT "\"]}", NULL,
	  "{\"label\":[\"" KEY "=" BROOT "\"]}" },
	{ P, "/v4.3.1/libpod/events", "{\"label=x\":[\"y\"]}", NULL, "{\"label\":[\"x=y\"]}" },
	/* volume prune: every filter is ORed on podman */
	{ P, "/v1.41/volumes/prune", "{\"label=" KEY "\":[\"" BROOT "\"]}", "denied-query", NULL },
	/* system prune: only the project's own label passes, however spelled */
	{ P, "/v4.3.1/libpod/system/prune", "{\"label=" KEY "\":[\"" BROOT "\"]}",
	  "denied-query", NULL },
	{ P, "/v4.3.1/libpod/system/prune", "{\"label=" KEY "\":[\"" ROOT "\"]}", NULL,
	  "{\"label\":[\"" KEY "=" ROOT "\"]}" },
	/* ANDed routes: the split form is forwarded, with the project label */
	{ P, "/v1.41/containers/json", "{\"label=" KEY "\":[\"" BROOT "\"]}", NULL,
	  "{\"label\":[\"" KEY "=" BROOT "\",\"" KEY "=" ROOT "\"]}" },
	{ P, "/v1.41/containers/prune", "{\"label\":[\"a=b\"],\"label=c\":[\"d\"]}", NULL,
	  "{\"label\":[\"a=b\",\"c=d\",\"" KEY "=" ROOT "\"]}" },
	{ P, "/v4.3.1/libpod/pods/json", "{\"label!=" KEY "\":[\"" ROOT "\"]}", NULL,
	  "{\"label!\":[\"" KEY "=" ROOT "\"],\"label\":[\"" KEY "=" ROOT "\"]}" },
	{ D, "/v1.41/images/prune", "{\"label=" KEY "\":[\"" BROOT "\"]}", NULL,
	  "{\"label\":[\"" KEY "=" BROOT "\",\"" KEY "=" ROOT "\"],\"dangling\":[\"true\"]}" },
	{ D, "/v1.41/images/prune", "{\"dangling=false\":[\"x\"]}", NULL,
	  "{\"dangling\":[\"true\"],\"label\":[\"" KEY "=" ROOT "\"]}" },
	{ D, "/v1.41/networks/prune", "{\"until=1\":[\"2\"]}", NULL,
	  "{\"until\":[\"1=2\"],\"label\":[\"" KEY "=" ROOT "\"]}" },
	/* an empty key is no filter */
	{ P, "/v1.41/containers/json", "{\"=x\":[\"y\"]}", "malformed", NULL },
};

static void
test_filter_keys(void **state)
{
	const struct filter_case *c;
	struct cg_policy_ctx ctx;
	struct cg_request req;
	struct cg_refusal r;
	char target[1024];
	const char *got;
	size_t i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(filter_cases) / sizeof(filter_cases[0]); i++) {
		struct cg_query *q = query_new();
		char *enc;

		c = &filter_cases[i];
		query_append(q, "filters", c->filters);
		enc = query_encode(q, NULL);
		query_free(q);
		snprintf(target, sizeof(target), "%s?%s", c->target, enc);
		free(enc);
		ctx = make_ctx(P, c->backend);
		rc = policy_route(&ctx, strstr(c->target, "json") ||
		    strstr(c->target, "events") ? "GET" : "POST", target,
		    strlen(target), 0, &req, &r);
		if (c->code != NULL) {
			if (rc == 0 || strcmp(r.code, c->code) != 0)
				fail_msg("%s %s: got %d %s", c->target,
				    c->filters, rc, rc == 0 ? "routed" : r.code);
			continue;
		}
		if (rc != 0)
			fail_msg("%s %s: refused %s: %s", c->target, c->filters,
			    r.code, r.detail);
		got = query_get(req.query, "filters");
		if (got == NULL || strcmp(got, c->fwd) != 0)
			fail_msg("%s %s: forwarded %s, want %s", c->target,
			    c->filters, got ? got : "(none)", c->fwd);
		policy_request_free(&req);
	}
}

static void
test_filter_key_split(void **state)
{
	size_t k;
	const char *tail;

	(void)state;
	asm_filter_key("label", 5, &k, &tail);
	assert_int_equal(k, 5);
	assert_null(tail);
	asm_filter_key("label=a=b", 9, &k, &tail);
	assert_int_equal(k, 5);
	assert_string_equal(tail, "a=b");
	asm_filter_key("label!=a", 8, &k, &tail);
	assert_int_equal(k, 6);
	assert_string_equal(tail, "a");
}

/* ---- form bodies ------------------------------------------------------- */

struct form_case {
	const char *method;
	const char *target;
	const char *ct;
	int refused;
};

static const struct form_case form_cases[] = {
	{ "POST", "/v1.41/images/create?fromSrc=-", "application/x-www-form-urlencoded", 1 },
	{ "POST", "/v1.41/images/create?fromSrc=-", "Application/X-WWW-Form-Urlencoded; charset=utf-8", 1 },
	{ "POST", "/v1.41/images/create?fromSrc=-", "application/x-tar", 0 },
	{ "POST", "/v1.41/build", "multipart/form-data; boundary=x", 1 },
	{ "POST", "/v1.41/build", "MULTIPART/FORM-DATA", 1 },
	{ "POST", "/v1.41/build", "application/x-tar", 0 },
	{ "POST", "/v1.41/build", "multipart/mixed", 0 },
	{ "POST", "/v1.41/images/load", "application/x-www-form-urlencoded", 1 },
	{ "PUT", "/v1.41/containers/c/archive?path=%2F", "application/x-www-form-urlencoded", 1 },
	{ "POST", "/v4.3.1/libpod/images/import", "application/x-www-form-urlencoded", 1 },
	/* not a stream route: the type is not forwarded at all */
	{ "POST", "/v1.41/images/abc/tag?repo=a", "application/x-www-form-urlencoded", 0 },
};

static void
test_form_bodies(void **state)
{
	const struct form_case *c;
	struct cg_policy_ctx ctx;
	struct cg_request req;
	struct cg_refusal r;
	struct cg_fwd_headers fh;
	struct http_field f[2];
	size_t i, j;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(form_cases) / sizeof(form_cases[0]); i++) {
		c = &form_cases[i];
		ctx = make_ctx(strstr(c->target, "libpod") ? P : D, CG_DOCKER);
		if (policy_route(&ctx, c->method, c->target, strlen(c->target),
		    0, &req, &r) != 0)
			fail_msg("%s: not routed: %s", c->target, r.detail);
		f[0] = (struct http_field){ "Content-Type", 12, c->ct,
		    strlen(c->ct) };
		f[1] = (struct http_field){ "Content-Length", 14, "3", 1 };
		rc = policy_forward_headers(&req, 0, f, 2, &fh, &r);
		if (c->refused != (rc != 0) || (rc != 0 &&
		    strcmp(r.code, "denied-query") != 0))
			fail_msg("%s %s: got %d", c->target, c->ct, rc);
		for (j = 0; rc == 0 && j < fh.n; j++)
			if (strncmp(fh.f[j].name, "Content-Type", 12) == 0 &&
			    asm_form_body(fh.f[j].value, fh.f[j].value_len))
				fail_msg("%s: a form type is forwarded",
				    c->target);
		policy_request_free(&req);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refs),
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_filter_keys),
		cmocka_unit_test(test_filter_key_split),
		cmocka_unit_test(test_form_bodies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
