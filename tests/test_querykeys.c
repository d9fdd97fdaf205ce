/*
 * Unit tests of the query-key allow-lists (routes.md §4.4 as amended
 * 2026-12-01; policy/querykeys.c): one table per route family of what is
 * forwarded and what is dropped, the left-out keys that reach beyond the owned
 * resource, ASCII case folding (and no Unicode folding), policed keys keeping
 * their own rules, the dropped-keys text, coverage of every route row, and the
 * fixpoint the monitor's replay relies on (privsep.md §9.1 item 2). Everything
 * here runs policy_route() only.
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
#include "policy/querykeys.h"
#include "policy/routes.h"
#include "tests/policy_ctx.h"

#define ROOT	"/home/u/proj"
#define ENC_LABEL_ONLY \
	"%7B%22label%22%3A%5B%22org.apache.magpie.project%3D%2Fhome%2Fu%2Fproj%22%5D%7D"
#define P	CG_PODMAN
#define D	CG_DOCKER

static int
route(enum cg_kind sock, const char *method, const char *target,
    struct cg_request *req, struct cg_refusal *r)
{
	struct cg_policy_ctx ctx = policy_test_ctx(ROOT, sock, CG_PODMAN, NULL);

	memset(r, 0, sizeof(*r));
	return policy_route(&ctx, method, target, strlen(target), 0, req, r);
}

/*
 * One request: the target policy_route_target() forwards and the dropped
 * keys (NULL: none) it reports for the debug log.
 */
struct qcase {
	enum cg_kind sock;
	const char *method;
	const char *target;
	const char *fwd;
	const char *dropped;
};

static void
run_cases(const struct qcase *cs, size_t n)
{
	struct cg_request req, again;
	struct cg_refusal r;
	size_t i, len;
	char *t, *t2;

	for (i = 0; i < n; i++) {
		const struct qcase *c = &cs[i];

		if (route(c->sock, c->method, c->target, &req, &r) != 0)
			fail_msg("%s %s refused: %s: %s", c->method, c->target,
			    r.code, r.detail);
		t = policy_route_target(&req, &len);
		if (strcmp(t, c->fwd) != 0)
			fail_msg("%s %s forwards\n  %s\nwanted\n  %s", c->method,
			    c->target, t, c->fwd);
		if ((c->dropped == NULL) != (req.query_dropped == NULL) ||
		    (c->dropped != NULL &&
		    strcmp(c->dropped, req.query_dropped) != 0))
			fail_msg("%s %s dropped [%s], wanted [%s]", c->method,
			    c->target, req.query_dropped ? req.query_dropped :
			    "(none)", c->dropped ? c->dropped : "(none)");
		/* the monitor's replay: the forwarded target is a fixpoint */
		if (route(c->sock, c->method, t, &again, &r) != 0)
			fail_msg("replay of %s refused: %s", t, r.code);
		t2 = policy_route_target(&again, NULL);
		assert_string_equal(t2, t);
		assert_null(again.query_dropped);
		free(t2);
		policy_request_free(&again);
		free(t);
		policy_request_free(&req);
	}
}

#define RUN(tbl)	run_cases(tbl, sizeof(tbl) / sizeof(tbl[0]))

/* §6.1: system routes; events keeps its label filter (policed). */
static void
test_system(void **state)
{
	static const struct qcase cs[] = {
		{ D, "GET", "/_ping?x=1", "/_ping", "x" },
		{ D, "GET", "/v1.41/version?verbose=1", "/v1.41/version",
		  "verbose" },
		{ P, "GET", "/v4.3.1/libpod/info?a=b&a=c", "/v4.3.1/libpod/info",
		  "a" },
		{ D, "GET", "/v1.41/events?since=5&until=9&stream=1&type=x",
		  "/v1.41/events?since=5&until=9&filters=" ENC_LABEL_ONLY,
		  "stream, type" },
		{ P, "GET", "/v4.3.1/libpod/events?stream=false&since=5",
		  "/v4.3.1/libpod/events?stream=false&since=5&filters="
		  ENC_LABEL_ONLY, NULL },
		{ P, "POST", "/v4.3.1/libpod/system/prune?all=true&volumes=true"
		  "&external=false&x=1",
		  "/v4.3.1/libpod/system/prune?volumes=true&external=false"
		  "&filters=" ENC_LABEL_ONLY, "x" },
	};

	(void)state;
	RUN(cs);
}

/* §6.2: containers, both APIs, the clients' own spellings. */
static void
test_containers(void **state)
{
	static const struct qcase cs[] = {
		/* dockerode repeats every create option in the query */
		{ D, "POST", "/containers/create?Image=localhost%2Fbusybox"
		  "&name=x1&Cmd=sh&Cmd=-c&HostConfig=%7B%22Privileged%22%3Atrue%7D"
		  "&foo=bar",
		  "/containers/create?name=x1", "Image, Cmd, HostConfig, foo" },
		{ D, "POST", "/v1.41/containers/create?name=a&platform=linux",
		  "/v1.41/containers/create?name=a&platform=linux", NULL },
		{ P, "POST", "/v4.3.1/libpod/containers/create?name=a",
		  "/v4.3.1/libpod/containers/create", "name" },
		{ D, "GET", "/v1.41/containers/json?limit=-1&all=0&size=0"
		  "&trunc_cmd=0",
		  "/v1.41/containers/json?limit=-1&all=0&size=0&filters="
		  ENC_LABEL_ONLY, "trunc_cmd" },
		{ P, "GET", "/v4.3.1/libpod/containers/json?all=true"
		  "&external=false&last=-1&namespace=false&size=false&sync=false",
		  "/v4.3.1/libpod/containers/json?all=true&external=false"
		  "&last=-1&namespace=false&size=false&sync=false&filters="
		  ENC_LABEL_ONLY, NULL },
		{ D, "POST", "/v1.41/containers/c1/stop?t=1&signal=TERM&x=1",
		  "/v1.41/containers/c1/stop?t=1&signal=TERM", "x" },
		{ P, "POST", "/v4.3.1/libpod/containers/c1/stop?timeout=1"
		  "&Ignore=true", "/v4.3.1/libpod/containers/c1/stop?timeout=1"
		  "&ignore=true", NULL },
		{ D, "POST", "/v1.41/containers/c1/kill?signal=KILL",
		  "/v1.41/containers/c1/kill?signal=KILL", NULL },
		{ D, "POST", "/v1.41/containers/c1/resize?h=2&w=3&running=true",
		  "/v1.41/containers/c1/resize?h=2&w=3&running=true", NULL },
		{ D, "POST", "/v1.41/containers/c1/rename?Name=m",
		  "/v1.41/containers/c1/rename?name=m", NULL },
		{ D, "POST", "/v1.41/containers/c1/wait?condition=not-running"
		  "&interval=1s", "/v1.41/containers/c1/wait?condition="
		  "not-running&interval=1s", NULL },
		/* podman-remote sends both spellings, one value: both kept,
		   in the list's spelling */
		{ P, "POST", "/v4.3.1/libpod/containers/c1/attach?detachKeys=a"
		  "&detachkeys=a&stderr=true&stdin=true&stdout=true&stream=true"
		  "&logs=false&x=1",
		  "/v4.3.1/libpod/containers/c1/attach?detachKeys=a"
		  "&detachKeys=a&stderr=true&stdin=true&stdout=true&stream=true"
		  "&logs=false", "x" },
		{ P, "POST", "/v4.3.1/libpod/containers/c1/start?detachkeys=a"
		  "&recursive=true", "/v4.3.1/libpod/containers/c1/start?"
		  "detachKeys=a&recursive=true", NULL },
		{ D, "GET", "/v1.41/containers/c1/logs?follow=1&stdout=1"
		  "&stderr=1&since=0&until=0&timestamps=0&tail=all&details=0",
		  "/v1.41/containers/c1/logs?follow=1&stdout=1&stderr=1&since=0"
		  "&until=0&timestamps=0&tail=all&details=0", NULL },
		{ D, "GET", "/v1.41/containers/c1/top?ps_args=aux&stream=1",
		  "/v1.41/containers/c1/top?ps_args=aux", "stream" },
		{ D, "GET", "/v1.41/containers/c1/stats?stream=0&one-shot=1",
		  "/v1.41/containers/c1/stats?stream=0&one-shot=1", NULL },
		{ D, "PUT", "/v1.41/containers/c1/archive?path=%2F"
		  "&noOverwriteDirNonDir=&copyUIDGID=&x=1",
		  "/v1.41/containers/c1/archive?path=%2F&noOverwriteDirNonDir="
		  "&copyUIDGID=", "x" },
		{ P, "PUT", "/v4.3.1/libpod/containers/c1/archive?copyUIDGID=true"
		  "&nooverwritedirnondir=true&path=%2F.",
		  "/v4.3.1/libpod/containers/c1/archive?copyUIDGID=true"
		  "&noOverwriteDirNonDir=true&path=%2F.", NULL },
		{ D, "GET", "/v1.41/containers/c1/archive?path=%2Fa&rename=x",
		  "/v1.41/containers/c1/archive?path=%2Fa", "rename" },
		{ D, "DELETE", "/v1.41/containers/c1?force=1&v=1&link=0",
		  "/v1.41/containers/c1?force=1&v=1&link=0", NULL },
		{ P, "DELETE", "/v4.3.1/libpod/containers/c1?force=false"
		  "&volumes=true&timeout=3&ignore=false",
		  "/v4.3.1/libpod/containers/c1?force=false&volumes=true"
		  "&timeout=3&ignore=false", NULL },
		{ D, "POST", "/v1.41/containers/c1/pause?x=1",
		  "/v1.41/containers/c1/pause", "x" },
		{ P, "GET", "/v4.3.1/libpod/containers/c1/exists?external=false",
		  "/v4.3.1/libpod/containers/c1/exists?external=false", NULL },
		{ P, "GET", "/v4.3.1/libpod/containers/stats?containers=a"
		  "&stream=false&interval=1&x=1", "/v4.3.1/libpod/containers/"
		  "stats?containers=a&stream=false&interval=1", "x" },
		{ D, "POST", "/v1.41/containers/prune?until=1",
		  "/v1.41/containers/prune?filters=" ENC_LABEL_ONLY, "until" },
	};

	(void)state;
	RUN(cs);
}

/*
 * Keys a daemon reads that reach beyond the named, owned resource are
 * left out of the lists and dropped (policy/querykeys.c header).
 */
static void
test_left_out(void **state)
{
	static const struct qcase cs[] = {
		{ D, "POST", "/v1.41/containers/c1/start?checkpoint=c"
		  "&checkpoint-dir=%2Fhost", "/v1.41/containers/c1/start",
		  "checkpoint, checkpoint-dir" },
		{ D, "POST", "/v1.41/containers/c1/kill?all=true&signal=KILL",
		  "/v1.41/containers/c1/kill?signal=KILL", "all" },
		{ P, "POST", "/v4.3.1/libpod/containers/c1/kill?all=true",
		  "/v4.3.1/libpod/containers/c1/kill", "all" },
		{ P, "DELETE", "/v4.3.1/libpod/containers/c1?depend=true"
		  "&force=true", "/v4.3.1/libpod/containers/c1?force=true",
		  "depend" },
		{ D, "GET", "/v1.41/images/search?term=a&authfile=%2Froot%2Fa",
		  "/v1.41/images/search?term=a", "authfile" },
	};

	(void)state;
	RUN(cs);
}

/* §6.3 */
static void
test_exec(void **state)
{
	static const struct qcase cs[] = {
		{ D, "POST", "/v1.41/exec/e1/start?Detach=1",
		  "/v1.41/exec/e1/start", "Detach" },
		{ D, "POST", "/v1.41/exec/e1/resize?h=40&w=120&x=1",
		  "/v1.41/exec/e1/resize?h=40&w=120", "x" },
		{ P, "GET", "/v4.3.1/libpod/exec/e1/json?size=1",
		  "/v4.3.1/libpod/exec/e1/json", "size" },
		{ P, "POST", "/v4.3.1/libpod/exec/e1/remove?force=1",
		  "/v4.3.1/libpod/exec/e1/remove", "force" },
	};

	(void)state;
	RUN(cs);
}

/* §6.4: images; policed keys (fromImage, reference, images, force) stay. */
static void
test_images(void **state)
{
	static const struct qcase cs[] = {
		{ D, "GET", "/v1.41/images/json?all=0&filters=%7B%7D&digests=1"
		  "&shared-size=1&x=1", "/v1.41/images/json?all=0&filters=%7B%7D"
		  "&digests=1&shared-size=1", "x" },
		{ D, "POST", "/v1.41/images/create?fromImage=a&tag=1&platform=p"
		  "&x=1", "/v1.41/images/create?fromImage=a&tag=1&platform=p",
		  "x" },
		{ D, "POST", "/v1.41/images/create?fromSrc=-&repo=r&message=m"
		  "&changes=ENV+a%3Db", "/v1.41/images/create?fromSrc=-&repo=r"
		  "&message=m&changes=ENV%20a%3Db"
		  "&changes=LABEL%20org.apache.magpie.project%3D%22%2Fhome%2Fu%2Fproj%22", NULL },
		{ P, "POST", "/v4.3.1/libpod/images/pull?alltags=false&arch="
		  "&authfile=&os=&password=&policy=missing&quiet=false"
		  "&reference=localhost%2Fbusybox&username=&variant=&x=1",
		  "/v4.3.1/libpod/images/pull?allTags=false&Arch=&authfile="
		  "&OS=&password=&policy=missing&quiet=false&reference="
		  "localhost%2Fbusybox&username=&Variant=", "x" },
		{ D, "POST", "/v1.41/images/load?quiet=1&x=1",
		  "/v1.41/images/load?quiet=1", "x" },
		{ P, "POST", "/v4.3.1/libpod/images/import?reference=x"
		  "&message=m&url=", "/v4.3.1/libpod/images/import?reference=x"
		  "&message=m&url=&changes=LABEL%20org.apache.magpie.project%3D%22%2Fhome%2Fu%2Fproj%22", NULL },
		{ D, "GET", "/v1.41/images/get?names=a&names=b&x=1",
		  "/v1.41/images/get?names=a&names=b", "x" },
		{ P, "GET", "/v4.3.1/libpod/images/export?references=a&format="
		  "docker-archive&compress=false", "/v4.3.1/libpod/images/export"
		  "?references=a&format=docker-archive&compress=false", NULL },
		{ D, "POST", "/v1.41/images/prune?x=1", "/v1.41/images/prune?"
		  "filters=%7B%22label%22%3A%5B%22org.apache.magpie.project%3D"
		  "%2Fhome%2Fu%2Fproj%22%5D%2C%22dangling%22%3A%5B%22true%22%5D"
		  "%7D", "x" },
		{ P, "DELETE", "/v4.3.1/libpod/images/remove?images=a&force=false"
		  "&ignore=false&x=1", "/v4.3.1/libpod/images/remove?images=a"
		  "&force=false&ignore=false", "x" },
		{ D, "GET", "/v1.41/images/a/json?x=1", "/v1.41/images/a/json",
		  "x" },
		{ P, "GET", "/v4.3.1/libpod/images/a/tree?whatrequires=true",
		  "/v4.3.1/libpod/images/a/tree?whatrequires=true", NULL },
		{ D, "POST", "/v1.41/images/a/tag?repo=r&tag=t&force=1",
		  "/v1.41/images/a/tag?repo=r&tag=t", "force" },
		{ D, "DELETE", "/v1.41/images/a?force=0&noprune=1&x=1",
		  "/v1.41/images/a?force=0&noprune=1", "x" },
		{ D, "GET", "/v1.41/images/search?term=a&limit=5&filters=%7B%7D",
		  "/v1.41/images/search?term=a&limit=5&filters=%7B%7D", NULL },
	};

	(void)state;
	RUN(cs);
}

/* §6.5, §6.6: volumes and networks. */
static void
test_volumes_networks(void **state)
{
	static const struct qcase cs[] = {
		/* dockerode repeats the create body in the query */
		{ D, "POST", "/volumes/create?Name=v1", "/volumes/create", "Name" },
		{ D, "POST", "/networks/create?Name=n1&CheckDuplicate=true",
		  "/networks/create", "Name, CheckDuplicate" },
		{ D, "GET", "/v1.41/volumes?dangling=1", "/v1.41/volumes?filters="
		  ENC_LABEL_ONLY, "dangling" },
		{ D, "DELETE", "/v1.41/volumes/v1?force=1&x=1",
		  "/v1.41/volumes/v1?force=1", "x" },
		{ P, "POST", "/v4.3.1/libpod/volumes/prune?x=1",
		  "/v4.3.1/libpod/volumes/prune?filters=" ENC_LABEL_ONLY, "x" },
		{ D, "GET", "/v1.41/networks/n1?verbose=false&scope=local",
		  "/v1.41/networks/n1?verbose=false&scope=local", NULL },
		{ P, "GET", "/v4.3.1/libpod/networks/n1/json?verbose=1",
		  "/v4.3.1/libpod/networks/n1/json", "verbose" },
		{ D, "DELETE", "/v1.41/networks/n1?force=1", "/v1.41/networks/n1",
		  "force" },
		{ P, "DELETE", "/v4.3.1/libpod/networks/n1?force=false",
		  "/v4.3.1/libpod/networks/n1?force=false", NULL },
		{ D, "POST", "/v1.41/networks/n1/connect?Container=c",
		  "/v1.41/networks/n1/connect", "Container" },
	};

	(void)state;
	RUN(cs);
}

/* §6.7: pods (libpod only). */
static void
test_pods(void **state)
{
	static const struct qcase cs[] = {
		{ P, "DELETE", "/v4.3.1/libpod/pods/p1?force=true&x=1",
		  "/v4.3.1/libpod/pods/p1?force=true", "x" },
		{ P, "POST", "/v4.3.1/libpod/pods/p1/stop?t=1&x=1",
		  "/v4.3.1/libpod/pods/p1/stop?t=1", "x" },
		{ P, "POST", "/v4.3.1/libpod/pods/p1/kill?signal=KILL",
		  "/v4.3.1/libpod/pods/p1/kill?signal=KILL", NULL },
		{ P, "POST", "/v4.3.1/libpod/pods/p1/start?x=1",
		  "/v4.3.1/libpod/pods/p1/start", "x" },
		{ P, "GET", "/v4.3.1/libpod/pods/p1/top?ps_args=aux&delay=2",
		  "/v4.3.1/libpod/pods/p1/top?ps_args=aux&delay=2", NULL },
		{ P, "GET", "/v4.3.1/libpod/pods/stats?namesOrIDs=p1&x=1",
		  "/v4.3.1/libpod/pods/stats?namesOrIDs=p1", "x" },
	};

	(void)state;
	RUN(cs);
}

/* §6.8: commit drops unknown keys; build refuses them (policy.md §10.2). */
static void
test_build_commit(void **state)
{
	static const struct qcase cs[] = {
		{ D, "POST", "/v1.41/commit?container=d1&repo=r&tag=t&comment=c"
		  "&author=a&pause=1&x=1", "/v1.41/commit?container=d1&repo=r"
		  "&tag=t&comment=c&author=a&pause=true", "x" },
		{ P, "POST", "/v4.3.1/libpod/commit?container=d1&format=oci"
		  "&stream=false", "/v4.3.1/libpod/commit?container=d1"
		  "&format=oci&stream=false&pause=true", NULL },
	};
	struct cg_request req;
	struct cg_refusal r;

	(void)state;
	RUN(cs);
	assert_int_equal(route(D, "POST", "/v1.41/build?t=x&foo=1", &req, &r),
	    -1);
	assert_string_equal(r.code, "denied-build-parameter");
	assert_string_equal(r.detail, "foo is not accepted by the gateway");
}

/*
 * Case: an ASCII case variant of an allowed key is kept (podman reads it,
 * docker ignores it); a key that folds to an allowed one only with
 * Unicode simple folding (U+017F) is dropped; a case variant of a policed
 * key is still refused (§4.4 rules first); export/import still refused.
 */
static void
test_case_and_policed(void **state)
{
	static const struct qcase cs[] = {
		{ D, "POST", "/v1.41/containers/c1/stop?T=1",
		  "/v1.41/containers/c1/stop?t=1", NULL },
		{ D, "GET", "/v1.41/containers/json?%C5%BFize=1&filter%C5%BF=%7B%7D",
		  "/v1.41/containers/json?filters=" ENC_LABEL_ONLY,
		  "\xC5\xBFize, filter\xC5\xBF" },
	};
	struct cg_request req;
	struct cg_refusal r;

	(void)state;
	RUN(cs);
	assert_int_equal(route(D, "GET", "/v1.41/containers/json?Filters=%7B%7D",
	    &req, &r), -1);
	assert_string_equal(r.code, "denied-query");
	assert_string_equal(r.detail,
	    "Filters is not the canonical spelling of filters");
	assert_int_equal(route(D, "POST", "/v1.41/containers/c1/stop?Export=1",
	    &req, &r), -1);
	assert_string_equal(r.code, "denied-query");
	assert_int_equal(route(D, "GET", "/v1.41/containers/json?filters=%7B%7D"
	    "&filters=%7B%7D", &req, &r), -1);
	assert_string_equal(r.detail, "filters appears more than once");
}

/*
 * Two spellings of one key with different values are refused: podman reads
 * them as one key and keeps the value it meets last (the same value twice
 * is podman-remote's attach); a case variant alone is forwarded in the
 * list's spelling, the one the policies read. Red team on podman 4.3.1:
 * commit with Pause=false (and 31 variants) ran unpaused past qp_commit,
 * Repo=/Tag= retagged another project's image past the destination check.
 */
static void
test_case_variant_bypass(void **state)
{
	static const struct qcase cs[] = {
		{ D, "POST", "/v1.41/containers/c1/rename?Name=m&name=m",
		  "/v1.41/containers/c1/rename?name=m&name=m", NULL },
	};
	static const char *const refused[] = {
		"/v1.41/commit?container=d1&Pause=false",
		"/v1.41/commit?container=d1&Repo=localhost%2Fv&Tag=1",
		"/v1.41/commit?container=d1&Pause=false&pAuse=false",
		"/v1.41/commit?container=d1&repo=localhost%2Fm&Repo=localhost%2Fv",
		"/v1.41/commit?container=d1&repo=localhost%2Fm&repo=localhost%2Fv",
		"/v1.41/commit?container=d1&pause=false&pause=true",
		"/v1.41/containers/c1/rename?name=n&Name=m",
	};
	struct cg_request req;
	struct cg_refusal r;
	size_t i;

	(void)state;
	/* repo, tag and pause are policed on commit: one spelling, one value */
	assert_int_equal(route(D, "POST", refused[1], &req, &r), -1);
	assert_string_equal(r.detail,
	    "Repo is not the canonical spelling of repo");
	run_cases(cs, 1);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		assert_int_equal(route(D, "POST", refused[i], &req, &r), -1);
		assert_string_equal(r.code, "denied-query");
	}
	assert_int_equal(route(D, "POST", refused[6], &req, &r), -1);
	assert_string_equal(r.detail,
	    "name and Name are one key to podman; send it once");
}

/* The dropped-keys text: each key once, in first-seen order, capped. */
static void
test_dropped_text(void **state)
{
	struct cg_request req;
	struct cg_refusal r;
	char target[2048], *p;
	size_t i;

	(void)state;
	assert_int_equal(route(D, "POST", "/v1.41/containers/c1/stop?b=1&a=2"
	    "&b=3&t=1&a=4", &req, &r), 0);
	assert_string_equal(req.query_dropped, "b, a");
	assert_int_equal(req.query->n, 1);
	policy_request_free(&req);

	p = target + sprintf(target, "/v1.41/containers/c1/stop?t=1");
	for (i = 0; i < 60; i++)
		p += sprintf(p, "&key%02zu_abcdefghij=1", i);
	assert_int_equal(route(D, "POST", target, &req, &r), 0);
	assert_true(strlen(req.query_dropped) <= QUERY_DROPPED_MAX);
	assert_non_null(strstr(req.query_dropped, "key00_abcdefghij, key01"));
	p = req.query_dropped + strlen(req.query_dropped) - 3;
	assert_string_equal(p, "...");
	assert_int_equal(req.query->n, 1);
	assert_string_equal(req.query->v[0].key, "t");
	policy_request_free(&req);
}

/*
 * Coverage: every allowed route row (not a denied verb) has an allow-list
 * row for each API it serves, so no route falls back to "no keys" by
 * omission; build alone takes every key (its own policy refuses unknown
 * ones).
 */
static void
test_every_route_has_a_row(void **state)
{
	static const enum cg_api apis[] = { CG_API_COMPAT, CG_API_LIBPOD };
	const struct cg_route *rt = NULL;
	const char *const *keys;
	size_t n, i, a;

	(void)state;
	rt = route_table(&n);
	assert_true(n > 50);
	for (i = 0; i < n; i++) {
		if (rt[i].flags & RF_DENIED)
			continue;
		for (a = 0; a < 2; a++) {
			if (!(rt[i].apis & (a == 0 ? ROUTE_C : ROUTE_L)))
				continue;
			keys = query_allowed_keys(&rt[i], apis[a]);
			if (keys == NULL)
				fail_msg("no allow-list row for %s %s (%s)",
				    rt[i].family, rt[i].action,
				    a == 0 ? "compat" : "libpod");
			assert_int_equal(keys == query_any_key,
			    strcmp(rt[i].action, "build") == 0);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_system),
		cmocka_unit_test(test_containers),
		cmocka_unit_test(test_left_out),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_images),
		cmocka_unit_test(test_volumes_networks),
		cmocka_unit_test(test_pods),
		cmocka_unit_test(test_build_commit),
		cmocka_unit_test(test_case_and_policed),
		cmocka_unit_test(test_case_variant_bypass),
		cmocka_unit_test(test_dropped_text),
		cmocka_unit_test(test_every_route_has_a_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
