/*
 * Unit tests of monitor/exchange/listfilter.c (doc/filters.md): which routes are
 * post-filtered, and that a list answer keeps exactly the project's elements
 * in every shape the backends answer, refusing the shapes it cannot read
 * unambiguously.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "monitor/exchange/listfilter.h"

#define ROOT	"/home/u/proj"
#define OWN	"{\"org.apache.magpie.project\":\"/home/u/proj\"}"
#define OTHER	"{\"org.apache.magpie.project\":\"/home/u/proj2\"}"

#define C	CG_API_COMPAT
#define L	CG_API_LIBPOD
#define P	CG_PODMAN
#define D	CG_DOCKER

/* Filter body and compare with want (NULL: must be refused). */
static void
check(enum lf_kind kind, enum cg_api api, enum cg_kind be, const char *body,
    const char *want)
{
	char *out = NULL;
	size_t len = 0;
	int rc = listfilter_apply(kind, api, be, ROOT, body, strlen(body),
	    &out, &len);

	if (want == NULL) {
		if (rc != -1)
			fail_msg("accepted: %s -> %s", body, out);
		return;
	}
	if (rc != 0)
		fail_msg("refused: %s", body);
	assert_int_equal(len, strlen(out));
	if (strcmp(out, want) != 0)
		fail_msg("%s\n  got  %s\n  want %s", body, out, want);
	free(out);
}

static void
test_kind(void **state)
{
	static const struct {
		enum cg_kind sock;
		const char *method, *path;
		enum lf_kind want;
	} cases[] = {
		{ D, "GET", "/v1.41/containers/json", LF_CONTAINERS },
		{ P, "GET", "/v4.3.1/libpod/containers/json", LF_CONTAINERS },
		{ D, "GET", "/v1.41/volumes", LF_VOLUMES },
		{ P, "GET", "/v4.3.1/libpod/volumes/json", LF_VOLUMES },
		{ D, "GET", "/networks", LF_NETWORKS },
		{ P, "GET", "/v4.3.1/libpod/networks/json", LF_NETWORKS },
		{ P, "GET", "/v4.3.1/libpod/pods/json", LF_PODS },
		/* not post-filtered: shared images, streams, prunes, inspects */
		{ D, "GET", "/v1.41/images/json", LF_NONE },
		{ D, "GET", "/v1.41/events", LF_NONE },
		{ D, "POST", "/v1.41/volumes/prune", LF_NONE },
		{ D, "GET", "/v1.41/volumes/json", LF_NONE },	/* inspect of "json" */
		{ D, "GET", "/v1.41/containers/c1/json", LF_NONE },
		{ P, "GET", "/v4.3.1/libpod/pods/stats", LF_NONE },
	};
	struct route_match m;
	struct cg_refusal r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (route_classify(cases[i].sock, cases[i].method, cases[i].path,
		    strlen(cases[i].path), 0, &m, &r) != 0)
			fail_msg("%s: %s", cases[i].path, r.detail);
		if (listfilter_kind(m.route) != cases[i].want)
			fail_msg("%s %s: kind %d, want %d", cases[i].method,
			    cases[i].path, listfilter_kind(m.route),
			    cases[i].want);
	}
	assert_int_equal(listfilter_kind(NULL), LF_NONE);
}

static void
test_keeps_own(void **state)
{
	(void)state;
	/* another project (a prefix of ROOT's name), unlabelled, null labels,
	   a key spelled otherwise, a non-string value: dropped */
	check(LF_CONTAINERS, C, D,
	    "[{\"Id\":\"a\",\"Labels\":" OWN ",\"Created\":17961176611234567891},"
	    "{\"Id\":\"b\",\"Labels\":" OTHER "},"
	    "{\"Id\":\"u\",\"Labels\":{}},"
	    "{\"Id\":\"n\",\"Labels\":null},"
	    "{\"Id\":\"m\"},"
	    "{\"Id\":\"v\",\"Labels\":{\"Org.apache.magpie.project\":\"/home/u/proj\"}},"
	    "{\"Id\":\"t\",\"Labels\":{\"org.apache.magpie.project\":[\"/home/u/proj\"]}},"
	    "{\"Id\":\"s\",\"Labels\":{\"org.apache.magpie.project\":\"/home/u/proj/\"}},"
	    "{\"Id\":\"a2\",\"Labels\":{\"x\":\"1\",\"org.apache.magpie.project\":\"/home/u/proj\"}}]",
	    "[{\"Id\":\"a\",\"Labels\":" OWN ",\"Created\":17961176611234567891},"
	    "{\"Id\":\"a2\",\"Labels\":{\"x\":\"1\",\"org.apache.magpie.project\":\"/home/u/proj\"}}]");
	check(LF_CONTAINERS, L, P, "[]", "[]");
	check(LF_PODS, L, P, "[{\"Name\":\"b\",\"Labels\":" OTHER "}]", "[]");
	/* libpod networks: lower-case labels; "Labels" there is not read */
	check(LF_NETWORKS, L, P,
	    "[{\"name\":\"a\",\"labels\":" OWN "},{\"name\":\"b\",\"Labels\":" OWN "}]",
	    "[{\"name\":\"a\",\"labels\":" OWN "}]");
	check(LF_NETWORKS, C, P,
	    "[{\"Name\":\"a\",\"Labels\":" OWN "},{\"Name\":\"b\",\"Labels\":" OTHER "}]",
	    "[{\"Name\":\"a\",\"Labels\":" OWN "}]");
	/* compat volumes: the object keeps its other members */
	check(LF_VOLUMES, C, D,
	    "{\"Volumes\":[{\"Name\":\"vb\",\"Labels\":" OTHER "},{\"Name\":\"va\",\"Labels\":" OWN "}],"
	    "\"Warnings\":null}",
	    "{\"Volumes\":[{\"Name\":\"va\",\"Labels\":" OWN "}],\"Warnings\":null}");
	check(LF_VOLUMES, C, P, "{\"Volumes\":null,\"Warnings\":[]}",
	    "{\"Volumes\":null,\"Warnings\":[]}");
	check(LF_VOLUMES, L, P,
	    "[{\"Name\":\"vu\",\"Labels\":{}},{\"Name\":\"va\",\"Labels\":" OWN "}]",
	    "[{\"Name\":\"va\",\"Labels\":" OWN "}]");
	/* whitespace and escapes as a backend prints them */
	check(LF_PODS, L, P,
	    "[\n {\"Name\": \"p\\u0061\", \"Labels\": {\"org.apache.magpie.project\": \"\\/home\\/u\\/proj\"}}\n]\n",
	    "[{\"Name\":\"pa\",\"Labels\":" OWN "}]");
}

static void
test_unexpected(void **state)
{
	(void)state;
	check(LF_CONTAINERS, C, D, "", NULL);
	check(LF_CONTAINERS, C, D, "[", NULL);
	check(LF_CONTAINERS, C, D, "[] x", NULL);
	check(LF_CONTAINERS, C, D, "{}", NULL);
	check(LF_CONTAINERS, C, D, "null", NULL);
	check(LF_CONTAINERS, C, D, "[1]", NULL);
	check(LF_CONTAINERS, C, D, "[[]]", NULL);
	/* duplicate or fold-equal members: a reader could pick either */
	check(LF_CONTAINERS, C, D,
	    "[{\"Labels\":" OTHER ",\"Labels\":" OWN "}]", NULL);
	check(LF_CONTAINERS, C, D,
	    "[{\"labels\":" OTHER ",\"Labels\":" OWN "}]", NULL);
	check(LF_CONTAINERS, C, D,
	    "[{\"Labels\":{\"org.apache.magpie.project\":\"/home/u/proj2\","
	    "\"org.apache.magpie.project\":\"/home/u/proj\"}}]", NULL);
	/* compat volumes: object with Volumes array or null only */
	check(LF_VOLUMES, C, P, "[]", NULL);
	check(LF_VOLUMES, C, P, "{\"Warnings\":[]}", NULL);
	check(LF_VOLUMES, C, P, "{\"Volumes\":{}}", NULL);
	check(LF_VOLUMES, C, P, "{\"Volumes\":[],\"volumes\":[]}", NULL);
	check(LF_VOLUMES, L, P, "{\"Volumes\":[]}", NULL);
	/* libpod answers come from podman only; LF_NONE is never filtered */
	check(LF_CONTAINERS, L, D, "[]", NULL);
	check(LF_NONE, C, P, "[]", NULL);
}

/* Whole answers: framing decoded, head rebuilt with the new length. */
static void
test_response(void **state)
{
	static const char head_cl[] = "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\n"
	    "Content-Type: application/json\r\nContent-Length: 99\r\n\r\n";
	static const char head_te[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
	    "Transfer-Encoding: chunked\r\nDate: x\r\n\r\n";
	static const char body[] = "[{\"Id\":\"b\",\"Labels\":" OTHER "},{\"Id\":\"a\",\"Labels\":" OWN "}]";
	static const char want_body[] = "[{\"Id\":\"a\",\"Labels\":" OWN "}]";
	char want[512], chunked[512], *out;
	size_t len;

	(void)state;
	assert_int_equal(listfilter_response(LF_CONTAINERS, C, D, ROOT, head_cl,
	    sizeof(head_cl) - 1, 0, body, sizeof(body) - 1, &out, &len), 0);
	snprintf(want, sizeof(want), "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\n"
	    "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
	    sizeof(want_body) - 1, want_body);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(out, want, len);
	free(out);
	/* chunked, split inside the JSON, with an extension and a trailer */
	snprintf(chunked, sizeof(chunked), "a;x=1\r\n%.10s\r\n%zx\r\n%s\r\n0\r\nT: 1\r\n\r\n",
	    body, sizeof(body) - 1 - 10, body + 10);
	assert_int_equal(listfilter_response(LF_CONTAINERS, L, P, ROOT, head_te,
	    sizeof(head_te) - 1, 1, chunked, strlen(chunked), &out, &len), 0);
	snprintf(want, sizeof(want), "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
	    "Date: x\r\nContent-Length: %zu\r\n\r\n%s", sizeof(want_body) - 1, want_body);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(out, want, len);
	free(out);
	/* unfinished or broken chunked framing, a head that is not one */
	assert_int_equal(listfilter_response(LF_CONTAINERS, L, P, ROOT, head_te,
	    sizeof(head_te) - 1, 1, "2\r\n[]\r\n", 7, &out, &len), -1);
	assert_int_equal(listfilter_response(LF_CONTAINERS, L, P, ROOT, head_te,
	    sizeof(head_te) - 1, 1, "zz\r\n[]\r\n0\r\n\r\n", 14, &out, &len), -1);
	assert_int_equal(listfilter_response(LF_CONTAINERS, C, D, ROOT, head_cl,
	    sizeof(head_cl) - 3, 0, "[]", 2, &out, &len), -1);
	/* an answer the list filter refuses */
	assert_int_equal(listfilter_response(LF_CONTAINERS, C, D, ROOT, head_cl,
	    sizeof(head_cl) - 1, 0, "{}", 2, &out, &len), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_keeps_own),
		cmocka_unit_test(test_unexpected),
		cmocka_unit_test(test_response),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
