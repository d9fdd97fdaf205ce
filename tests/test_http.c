/*
 * Tests for http/: request heads (http.md §2–§3), response heads
 * (§8.1, §9.1) and the chunked decoder (§5.1).
 *
 * Every head case runs from a buffer that ends right before a PROT_NONE
 * page (picohttpparser's test style), so reading one byte past len
 * crashes. The mutation loops flip, replace and truncate bytes of valid
 * inputs; the parser must return a defined result. Set CG_TEST_FAST=1 for
 * a reduced mutation set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "http/http.h"

#define S(lit)	lit, sizeof(lit) - 1

static int
test_is_fast(void)
{
	const char *e = getenv("CG_TEST_FAST");

	return e != NULL && *e != '\0' && strcmp(e, "0") != 0;
}

/* ---- guard page ---- */

struct guard {
	char *map;
	size_t maplen;
	char *p;
};

/* Copy s[0..len) so that it ends exactly at a PROT_NONE page. */
static char *
guard_put(struct guard *g, const char *s, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t data = (len + pg - 1) / pg * pg;

	if (data == 0)
		data = pg;
	g->maplen = data + pg;
	g->map = mmap(NULL, g->maplen, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(g->map != MAP_FAILED);
	assert_int_equal(mprotect(g->map + data, pg, PROT_NONE), 0);
	g->p = g->map + data - len;
	if (len > 0)
		memcpy(g->p, s, len);
	return g->p;
}

static void
guard_free(struct guard *g)
{
	munmap(g->map, g->maplen);
}

/*
 * Parse from a guarded copy. The copy stays mapped until the next call, so
 * the zero-copy outputs can be inspected.
 */
static struct guard last_req, last_resp;

static int
greq(const char *s, size_t len, struct http_request *req,
    struct cg_refusal *err)
{
	if (last_req.map != NULL)
		guard_free(&last_req);
	return http_parse_request(guard_put(&last_req, s, len), len, req, err);
}

static int
gresp(const char *s, size_t len, struct http_response *resp)
{
	if (last_resp.map != NULL)
		guard_free(&last_resp);
	return http_parse_response(guard_put(&last_resp, s, len), len, resp);
}

/* ---- request table ---- */

#define OK	1	/* returns the whole input length */
#define MORE	(-2)

struct req_case {
	const char *raw;
	size_t len;
	int want;		/* OK, MORE, 400 or 431 */
	const char *detail;	/* exact detail, or NULL */
};

#define RL	"GET / HTTP/1.1\r\n"
#define H	"Host: docker\r\n"
#define CLTE	"Content-Length and Transfer-Encoding both present"
#define V11	"only HTTP/1.1 is supported"

static const struct req_case req_cases[] = {
	/* accepted */
	{ S(RL H "\r\n"), OK, NULL },
	{ S("GET /v1.41/containers/json?all=1&x=%2F HTTP/1.1\r\nHost: \r\n\r\n"),
	    OK, NULL },
	{ S("POST /x HTTP/1.1\r\nHost: [::1]:2375\r\n\r\n"), OK, NULL },
	{ S("POST /x HTTP/1.1\r\nHost: a-b.c_d:1\r\n\r\n"), OK, NULL },
	{ S("DELETE /x HTTP/1.1\r\nhost: a\r\nContent-Length: 0\r\n\r\n"),
	    OK, NULL },
	{ S("PUT /x HTTP/1.1\r\n" H "content-length: 000000000000000005\r\n\r\n"),
	    OK, NULL },
	{ S("PUT /x HTTP/1.1\r\n" H "Content-Length:\t 5 \t\r\n\r\n"), OK, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: ChUnKeD\r\n\r\n"),
	    OK, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: \tchunked \r\n\r\n"),
	    OK, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Expect: 100-Continue\r\n\r\n"), OK, NULL },
	{ S("ABCDEFGHIJKLMNOP / HTTP/1.1\r\n" H "\r\n"), OK, NULL },
	{ S("PATCH / HTTP/1.1\r\n" H "\r\n"), OK, NULL },
	{ S("GET http://docker/v1.41/info HTTP/1.1\r\n" H "\r\n"), OK, NULL },
	{ S("GET http://[::1]:80/ HTTP/1.1\r\n" H "\r\n"), OK, NULL },
	{ S("GET HTTP://Docker/x HTTP/1.1\r\n" H "\r\n"), OK, NULL },
	{ S("GET /a?b=c~!$&'()*+,;=:@/ HTTP/1.1\r\n" H "\r\n"), OK, NULL },
	{ S(RL H "X-Empty:\r\n\r\n"), OK, NULL },
	{ S(RL H "X-Obs: \x80\xff caf\xc3\xa9\r\n\r\n"), OK, NULL },
	{ S(RL H "X!#$%&'*+-.^_`|~9: v\r\n\r\n"), OK, NULL },
	{ S(RL H "X: a\tb c\r\n\r\n"), OK, NULL },
	{ S(RL H "Connection: keep-alive, Upgrade\r\nUpgrade: tcp\r\n\r\n"),
	    OK, NULL },
	{ S(RL H "Connection: ,close,,\r\n\r\n"), OK, NULL },
	{ S(RL H "Connection:\r\n\r\n"), OK, NULL },
	{ S(RL H "Upgrade: h2c\r\n\r\n"), OK, NULL },
	{ S(RL H "Content-Type: application/grpc+proto\r\n\r\n"), OK, NULL },

	/* B01c / B45: framing ambiguities */
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length: 5\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n"), 400, CLTE },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: chunked\r\n"
	    "Content-Length: 5\r\n\r\n"), 400, CLTE },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: chunked\r\n"
	    "Content-Length: 0\r\n\r\n"), 400, CLTE },
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length: 5\r\n"
	    "Content-Length: 5\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length: 5\r\n"
	    "content-length: 6\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length: 5, 5\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length: +5\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length: -1\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length:\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length: 0x5\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length: 5 5\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Content-Length: 5.0\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H
	    "Content-Length: 0000000000000000001\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H
	    "Content-Length: 99999999999999999999\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H
	    "Transfer-Encoding: chunked, identity\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: xchunked\r\n\r\n"),
	    400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: chunkedx\r\n\r\n"),
	    400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: gzip\r\n\r\n"),
	    400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: identity\r\n\r\n"),
	    400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: chunked;q=1\r\n\r\n"),
	    400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding:\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding: chunked\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n"), 400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Transfer-Encoding : chunked\r\n\r\n"),
	    400, NULL },
	/* obs-fold (B45) */
	{ S(RL H "X: a\r\n b\r\n\r\n"), 400, NULL },
	{ S(RL H "X: a\r\n\tb\r\n\r\n"), 400, NULL },
	{ S(RL " Host: docker\r\n\r\n"), 400, NULL },
	/* bare LF / bare CR / NUL (B45) */
	{ S("GET / HTTP/1.1\nHost: a\n\n"), 400, NULL },
	{ S(RL "Host: a\n\r\n"), 400, NULL },
	{ S(RL H "\n"), 400, NULL },
	{ S(RL H "\r\r\n"), 400, NULL },
	{ S(RL "Host: a\rb\r\n\r\n"), 400, NULL },
	{ S("GET /\r HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S(RL "X: a\0b\r\n" H "\r\n"), 400, NULL },
	{ S("GET /\0 HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("\0"), 400, NULL },
	/* request line */
	{ S("get / HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("Get / HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("ABCDEFGHIJKLMNOPQ / HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("G3T / HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("M-SEARCH / HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S(" / HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S(" GET / HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET  / HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET /  HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET / HTTP/1.1 \r\n" H "\r\n"), 400, NULL },
	{ S("GET\t/ HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET /\tHTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET / HTTP/1.1 x\r\n" H "\r\n"), 400, NULL },
	{ S("GET /\r\n" H "\r\n"), 400, NULL },
	{ S("GET\r\n" H "\r\n"), 400, NULL },
	{ S("GET / \r\n" H "\r\n"), 400, NULL },
	{ S("GET / HTTP/1.0\r\n" H "\r\n"), 400, V11 },
	{ S("GET / HTTP/1.2\r\n" H "\r\n"), 400, V11 },
	{ S("GET / HTTP/2.0\r\n" H "\r\n"), 400, V11 },
	{ S("GET / http/1.1\r\n" H "\r\n"), 400, V11 },
	{ S("GET / HTTP/1.10\r\n" H "\r\n"), 400, V11 },
	{ S("GET / HTTP/1\r\n" H "\r\n"), 400, V11 },
	{ S("\r\n" RL H "\r\n"), 400, NULL },
	/* request target */
	{ S("OPTIONS * HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("CONNECT docker:2375 HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET https://docker/x HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET unix:///x HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET http://docker HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET http:///x HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET http://u@docker/x HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET http://docker?x=/y HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET http:/x HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET x/y HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET /a#b HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET /a\\b HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET /a\x7f HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET /a\x80 HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	{ S("GET /a\x01 HTTP/1.1\r\n" H "\r\n"), 400, NULL },
	/* Host */
	{ S(RL "\r\n"), 400, NULL },
	{ S(RL "X: y\r\n\r\n"), 400, NULL },
	{ S(RL H H "\r\n"), 400, NULL },
	{ S(RL "Host: a\r\nHOST: a\r\n\r\n"), 400, NULL },
	{ S(RL "Host: a b\r\n\r\n"), 400, NULL },
	{ S(RL "Host: a/b\r\n\r\n"), 400, NULL },
	{ S(RL "Host: u@a\r\n\r\n"), 400, NULL },
	{ S(RL "Host: a,b\r\n\r\n"), 400, NULL },
	{ S(RL "Host: \xc3\xa9\r\n\r\n"), 400, NULL },
	/* field syntax */
	{ S(RL "Host : docker\r\n\r\n"), 400, NULL },
	{ S(RL "Host\t: docker\r\n\r\n"), 400, NULL },
	{ S(RL H ": v\r\n\r\n"), 400, NULL },
	{ S(RL H "NoColon\r\n\r\n"), 400, NULL },
	{ S(RL H "No Colon\r\n\r\n"), 400, NULL },
	{ S(RL H "Na(me: v\r\n\r\n"), 400, NULL },
	{ S(RL H "Na/me: v\r\n\r\n"), 400, NULL },
	{ S(RL H "N\x80: v\r\n\r\n"), 400, NULL },
	{ S(RL H "X: a\x01" "b\r\n\r\n"), 400, NULL },
	{ S(RL H "X: a\x1f\r\n\r\n"), 400, NULL },
	{ S(RL H "X: a\x7f" "b\r\n\r\n"), 400, NULL },
	{ S(RL H "X: \x0b\r\n\r\n"), 400, NULL },
	/* Expect */
	{ S("POST /x HTTP/1.1\r\n" H "Expect: 100-continue, x\r\n\r\n"),
	    400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Expect: 102-processing\r\n\r\n"),
	    400, NULL },
	{ S("POST /x HTTP/1.1\r\n" H "Expect:\r\n\r\n"), 400, NULL },
	/* Connection */
	{ S(RL H "Connection: clo se\r\n\r\n"), 400, NULL },
	{ S(RL H "Connection: close;x\r\n\r\n"), 400, NULL },
	{ S(RL H "Connection: \"close\"\r\n\r\n"), 400, NULL },

	/* incomplete */
	{ S(""), MORE, NULL },
	{ S("G"), MORE, NULL },
	{ S("GET / HTTP/1.1"), MORE, NULL },
	{ S("GET / HTTP/1.1\r"), MORE, NULL },
	{ S(RL), MORE, NULL },
	{ S(RL H), MORE, NULL },
	{ S(RL H "\r"), MORE, NULL },
	{ S(RL "Host: doc"), MORE, NULL },
	/* ... but errors in complete lines are reported at once */
	{ S("get / HTTP/1.1\r\n"), 400, NULL },
	{ S("GET / HTTP/1.0\r\n"), 400, V11 },
	{ S(RL "X: a\r\n b\r\n"), 400, NULL },
	{ S(RL "Content-Length: 1\r\nTransfer-Encoding: chunked\r\n"), 400,
	    CLTE },
	{ S(RL "Content-Length: 1\r\nContent-Length: 1\r\n"), 400, NULL },
	{ S(RL "X: y\n"), 400, NULL },
	{ S(RL "X: y\rz"), 400, NULL },
	{ S(RL "X: \0"), 400, NULL },
};

static void
test_request_table(void **state)
{
	struct http_request req;
	struct cg_refusal err;
	size_t i;
	int r;

	(void)state;
	for (i = 0; i < sizeof(req_cases) / sizeof(req_cases[0]); i++) {
		const struct req_case *c = &req_cases[i];

		memset(&err, 0, sizeof(err));
		r = greq(c->raw, c->len, &req, &err);
		if (c->want == OK && r != (int)c->len)
			fail_msg("case %zu (%.*s): got %d (%s), want %zu", i,
			    (int)c->len, c->raw, r, err.detail, c->len);
		else if (c->want == MORE && r != -2)
			fail_msg("case %zu (%.*s): got %d, want -2", i,
			    (int)c->len, c->raw, r);
		else if (c->want >= 400) {
			if (r != -1 || err.status != c->want)
				fail_msg("case %zu (%.*s): got %d status %d, "
				    "want -1 status %d", i, (int)c->len, c->raw,
				    r, err.status, c->want);
			assert_string_equal(err.code, c->want == 400 ?
			    "malformed" : "header-too-large");
			assert_true(err.detail[0] != '\0');
			if (c->detail != NULL &&
			    strcmp(c->detail, err.detail) != 0)
				fail_msg("case %zu: detail \"%s\", want \"%s\"",
				    i, err.detail, c->detail);
		}
	}
}

/*
 * Every proper prefix of an accepted head is incomplete, and bytes after
 * the head (a pipelined request, body) do not change the result.
 */
static void
test_request_prefixes_and_suffix(void **state)
{
	struct http_request req;
	struct cg_refusal err;
	char *buf;
	size_t i, n;
	int r;

	(void)state;
	for (i = 0; i < sizeof(req_cases) / sizeof(req_cases[0]); i++) {
		const struct req_case *c = &req_cases[i];

		if (c->want != OK)
			continue;
		for (n = 0; n < c->len; n++) {
			r = greq(c->raw, n, &req, &err);
			if (r != -2)
				fail_msg("case %zu prefix %zu: got %d (%s)", i, n,
				    r, err.detail);
		}
		buf = malloc(c->len + 64);
		assert_non_null(buf);
		memcpy(buf, c->raw, c->len);
		memcpy(buf + c->len, "GET / HTTP/1.1\r\n\0\n\r garbage\0", 29);
		for (n = c->len; n <= c->len + 29; n++)
			assert_int_equal(greq(buf, n, &req, &err), (int)c->len);
		free(buf);
	}
}

static void
test_request_values(void **state)
{
	struct http_request req;
	struct cg_refusal err;
	const struct http_field *f;
	static const char r1[] = "POST /v1.41/containers/create?name=x "
	    "HTTP/1.1\r\nHost: docker\r\nUser-Agent:  Docker-Client/28 \t\r\n"
	    "Content-Type: application/json; charset=utf-8\r\n"
	    "Content-Length: 0042\r\nConnection: Keep-Alive, CLOSE\r\n"
	    "Expect: 100-continue\r\n\r\n";
	static const char r2[] = "POST http://localhost:2375/v1.41/exec/x/start"
	    " HTTP/1.1\r\nHost: localhost:2375\r\nTransfer-Encoding: chunked\r\n"
	    "Connection: Upgrade\r\nUpgrade: TCP\r\n"
	    "Content-Type: APPLICATION/GRPC\r\n\r\n";
	static const char r3[] = "GET / HTTP/1.1\r\nHost: d\r\n"
	    "Content-Type: text/plain\r\nContent-Type: "
	    " application/grpc-web ; x=y\r\nUpgrade: tcp, h2c\r\n\r\n";

	(void)state;
	assert_int_equal(greq(S(r1), &req, &err), (int)sizeof(r1) - 1);
	assert_int_equal(req.method_len, 4);
	assert_memory_equal(req.method, "POST", 4);
	assert_int_equal(req.target_len, strlen("/v1.41/containers/create?name=x"));
	assert_memory_equal(req.target, "/v1.41/containers/create?name=x",
	    req.target_len);
	assert_int_equal(req.nfields, 6);
	assert_true(req.has_content_length);
	assert_int_equal(req.content_length, 42);
	assert_false(req.chunked);
	assert_true(req.expect_continue);
	assert_true(req.conn_close);
	assert_false(req.conn_upgrade);
	assert_false(req.upgrade_tcp);
	assert_false(req.grpc);
	assert_int_equal(req.content_type_len,
	    strlen("application/json; charset=utf-8"));
	assert_memory_equal(req.content_type, "application/json; charset=utf-8",
	    req.content_type_len);
	f = http_find_field(req.fields, req.nfields, "user-agent");
	assert_non_null(f);
	assert_int_equal(f->name_len, 10);
	assert_memory_equal(f->name, "User-Agent", 10);
	assert_int_equal(f->value_len, strlen("Docker-Client/28"));
	assert_memory_equal(f->value, "Docker-Client/28", f->value_len);
	assert_null(http_find_field(req.fields, req.nfields, "User-Agen"));
	assert_null(http_find_field(req.fields, req.nfields, "User-Agent2"));
	assert_null(http_find_field(req.fields, req.nfields, "Accept"));
	f = http_find_field(req.fields, req.nfields, "HOST");
	assert_non_null(f);
	assert_memory_equal(f->value, "docker", 6);

	assert_int_equal(greq(S(r2), &req, &err), (int)sizeof(r2) - 1);
	assert_int_equal(req.target_len, strlen("/v1.41/exec/x/start"));
	assert_memory_equal(req.target, "/v1.41/exec/x/start", req.target_len);
	assert_false(req.has_content_length);
	assert_true(req.chunked);
	assert_false(req.expect_continue);
	assert_false(req.conn_close);
	assert_true(req.conn_upgrade);
	assert_true(req.upgrade_tcp);
	assert_true(req.grpc);

	assert_int_equal(greq(S(r3), &req, &err), (int)sizeof(r3) - 1);
	assert_true(req.grpc);	/* any Content-Type naming gRPC */
	assert_memory_equal(req.content_type, "text/plain", 10);
	assert_false(req.upgrade_tcp);

	/* "application/grp" is not gRPC; media type before ';' counts */
	assert_true(greq(S(RL H "Content-Type: application/grp\r\n\r\n"), &req,
	    &err) > 0);
	assert_false(req.grpc);
	assert_true(greq(S(RL H "Content-Type: text/x;a=application/grpc\r\n\r\n"),
	    &req, &err) > 0);
	assert_false(req.grpc);
	assert_true(greq(S(RL H "Content-Type: \tApplication/gRPC;v=1\r\n\r\n"),
	    &req, &err) > 0);
	assert_true(req.grpc);

	/* 18 nines fit */
	assert_true(greq(S("PUT / HTTP/1.1\r\n" H
	    "Content-Length: 999999999999999999\r\n\r\n"), &req, &err) > 0);
	assert_int_equal(req.content_length, 999999999999999999ULL);
}

/*
 * §14 bypass rows at the parser (policy.md §14). B01: a body hidden behind
 * "Content-Length: 0" is not part of the request; the hidden bytes are the
 * start of the next request and are refused as such (never forwarded as a
 * body). B03, B40, B46: the flags the router gets from the head; only a
 * gRPC media type sets grpc (refused at routing, test_routes test_grpc),
 * other Content-Types set nothing (the route decides inspection,
 * test_policy_driver test_bypass_b03_b46_headers), and Upgrade is only
 * reported, never acted on here (http.md §3.7).
 */
static void
test_bypass_heads(void **state)
{
	static const char smuggle[] = "POST /v1.41/containers/create?x=/auth "
	    "HTTP/1.1\r\nHost: d\r\nContent-Length: 0\r\n\r\n"
	    "{\"HostConfig\":{\"Privileged\":true}}";
	static const char head2[] = "POST /v1.41/containers/create HTTP/1.1\r\n"
	    "Host: d\r\nContent-Length: 0\r\n\r\n";
	struct http_request req;
	struct cg_refusal err;
	size_t headlen = sizeof(head2) - 1 + strlen("?x=/auth");
	char next[sizeof(smuggle) + 2];
	int n;

	(void)state;
	/* B01: the head ends at the blank line; Content-Length 0 */
	n = greq(S(smuggle), &req, &err);
	assert_int_equal(n, (int)headlen);
	assert_true(req.has_content_length);
	assert_int_equal(req.content_length, 0);
	assert_false(req.chunked);
	/* ... the hidden body is read as the next request head: incomplete
	   until a line ends, then malformed */
	assert_int_equal(greq(smuggle + headlen, sizeof(smuggle) - 1 - headlen,
	    &req, &err), -2);
	memcpy(next, smuggle + headlen, sizeof(smuggle) - 1 - headlen);
	memcpy(next + sizeof(smuggle) - 1 - headlen, "\r\n", 2);
	memset(&err, 0, sizeof(err));
	assert_int_equal(greq(next, sizeof(smuggle) + 1 - headlen, &req, &err),
	    -1);
	assert_int_equal(err.status, 400);
	assert_string_equal(err.code, "malformed");
	/* B01 allowed neighbour: a chunked body is announced as such */
	assert_true(greq(S("POST /v1.41/containers/create HTTP/1.1\r\nHost: d"
	    "\r\nTransfer-Encoding: chunked\r\n\r\n"), &req, &err) > 0);
	assert_true(req.chunked);
	assert_false(req.has_content_length);
	/* B01c / B45 refused: both framings (also in the request table) */
	assert_int_equal(greq(S("POST /x HTTP/1.1\r\nHost: d\r\nContent-Length: 0"
	    "\r\nTransfer-Encoding: chunked\r\n\r\n"), &req, &err), -1);
	assert_string_equal(err.detail, CLTE);

	/* B03: non-JSON types are recorded, not acted on; grpc stays 0 */
	assert_true(greq(S("POST /x HTTP/1.1\r\nHost: d\r\nContent-Type: "
	    "text/plain; charset=utf-8\r\n\r\n"), &req, &err) > 0);
	assert_false(req.grpc);
	assert_true(greq(S("POST /x HTTP/1.1\r\nHost: d\r\nContent-Type: "
	    "multipart/form-data; boundary=application/grpc\r\n\r\n"), &req,
	    &err) > 0);
	assert_false(req.grpc);
	/* B40: every spelling of a gRPC media type sets grpc */
	assert_true(greq(S("POST /x HTTP/1.1\r\nHost: d\r\nContent-Type: "
	    "APPLICATION/GRPC-WEB+PROTO\r\n\r\n"), &req, &err) > 0);
	assert_true(req.grpc);
	assert_true(greq(S("POST /x HTTP/1.1\r\nHost: d\r\nContent-Type: "
	    "application/json\r\nContent-Type: application/grpc\r\n\r\n"),
	    &req, &err) > 0);
	assert_true(req.grpc);

	/* B46 / B27: Upgrade is reported only with Connection: upgrade */
	assert_true(greq(S("POST /v1.41/containers/create HTTP/1.1\r\nHost: d"
	    "\r\nUpgrade: tcp\r\n\r\n"), &req, &err) > 0);
	assert_true(req.upgrade_tcp);
	assert_false(req.conn_upgrade);
	assert_true(greq(S("POST /v1.41/containers/create HTTP/1.1\r\nHost: d"
	    "\r\nConnection: upgrade\r\nUpgrade: h2c\r\n\r\n"), &req,
	    &err) > 0);
	assert_true(req.conn_upgrade);
	assert_false(req.upgrade_tcp);
}

/* Build "GET / HTTP/1.1\r\nHost: d\r\n" + filler fields to total head size. */
static char *
big_head(size_t total, size_t *len)
{
	static const char start[] = "GET / HTTP/1.1\r\nHost: d\r\n";
	char *b = malloc(total + 16);
	size_t n = sizeof(start) - 1, room;

	assert_non_null(b);
	memcpy(b, start, n);
	/* one field "X: aaaa...\r\n" filling all but the final CRLF */
	room = total - n - 2;
	assert_true(room >= 5);
	memcpy(b + n, "X: ", 3);
	memset(b + n + 3, 'a', room - 5);
	memcpy(b + n + room - 2, "\r\n\r\n", 4);
	*len = total;
	return b;
}

static void
test_request_size_limits(void **state)
{
	struct http_request req;
	struct cg_refusal err;
	char *b, *f;
	size_t len, n, i;

	(void)state;
	/* exactly 64 KiB including the final CRLF: accepted */
	b = big_head(HTTP_HEAD_MAX, &len);
	assert_int_equal(greq(b, len, &req, &err), HTTP_HEAD_MAX);
	/* ... also with pipelined bytes behind it */
	b = realloc(b, len + 100);
	assert_non_null(b);
	memset(b + len, 'Z', 100);
	assert_int_equal(greq(b, len + 100, &req, &err), HTTP_HEAD_MAX);
	/* every prefix is incomplete (not 431) */
	assert_int_equal(greq(b, HTTP_HEAD_MAX - 1, &req, &err), -2);
	assert_int_equal(greq(b, HTTP_HEAD_MAX - 2, &req, &err), -2);
	free(b);

	/* 64 KiB + 1 */
	b = big_head(HTTP_HEAD_MAX + 1, &len);
	assert_int_equal(greq(b, len, &req, &err), -1);
	assert_int_equal(err.status, 431);
	assert_string_equal(err.code, "header-too-large");
	assert_string_equal(err.detail, "request head exceeds 64 KiB");
	/* certain once 64 KiB are there without the end */
	assert_int_equal(greq(b, HTTP_HEAD_MAX, &req, &err), -1);
	assert_int_equal(err.status, 431);
	assert_int_equal(greq(b, HTTP_HEAD_MAX - 1, &req, &err), -2);
	free(b);

	/* a much longer head: 431, never -2 */
	b = big_head(200000, &len);
	for (n = HTTP_HEAD_MAX; n <= len; n += 4099) {
		assert_int_equal(greq(b, n, &req, &err), -1);
		assert_int_equal(err.status, 431);
	}
	free(b);

	/* 64 KiB of one line without any CR */
	b = malloc(HTTP_HEAD_MAX + 10);
	assert_non_null(b);
	memcpy(b, "GET /", 5);
	memset(b + 5, 'a', HTTP_HEAD_MAX + 5);
	assert_int_equal(greq(b, HTTP_HEAD_MAX + 10, &req, &err), -1);
	assert_int_equal(err.status, 431);
	/* CR as byte 65536: its LF would be beyond the limit */
	b[HTTP_HEAD_MAX - 1] = '\r';
	assert_int_equal(greq(b, HTTP_HEAD_MAX, &req, &err), -1);
	assert_int_equal(err.status, 431);
	b[HTTP_HEAD_MAX] = '\n';
	assert_int_equal(greq(b, HTTP_HEAD_MAX + 1, &req, &err), -1);
	assert_int_equal(err.status, 431);
	free(b);

	/* 100 fields accepted, 101 refused */
	f = malloc(64 * 110);
	assert_non_null(f);
	n = (size_t)sprintf(f, "GET / HTTP/1.1\r\nHost: d\r\n");
	for (i = 1; i < HTTP_FIELDS_MAX; i++)
		n += (size_t)sprintf(f + n, "X-%zu: v\r\n", i);
	memcpy(f + n, "\r\n", 2);
	assert_int_equal(greq(f, n + 2, &req, &err), (int)n + 2);
	assert_int_equal(req.nfields, HTTP_FIELDS_MAX);
	assert_memory_equal(req.fields[99].name, "X-99", 4);
	n += (size_t)sprintf(f + n, "X-100: v\r\n");
	memcpy(f + n, "\r\n", 2);
	assert_int_equal(greq(f, n + 2, &req, &err), -1);
	assert_int_equal(err.status, 431);
	assert_string_equal(err.detail, "too many header fields");
	/* reported as soon as the 101st field line is complete */
	assert_int_equal(greq(f, n, &req, &err), -1);
	assert_int_equal(err.status, 431);
	assert_int_equal(greq(f, n - 1, &req, &err), -2);
	free(f);
}

/* ---- responses ---- */

struct resp_case {
	const char *raw;
	size_t len;
	int want;	/* OK, MORE, -1 */
	int status;
	int switches;
};

#define RAW	"Content-Type: application/vnd.docker.raw-stream\r\n"
#define MUX	"Content-Type: application/vnd.docker.multiplexed-stream\r\n"

/*
 * switches: http.md §9.1, the B27 / B28 relay decision (the monitor also
 * requires an attach or exec-start route: test_dispatch test_bypass_relay).
 * A real 101 or a length-less 200 raw/multiplexed stream switches (B28);
 * a framed or non-stream 200, 201, or a raw-streamx type does not (B27).
 */
static const struct resp_case resp_cases[] = {
	{ S("HTTP/1.1 200 OK\r\n\r\n"), OK, 200, 0 },
	{ S("HTTP/1.0 404 Not Found\r\nContent-Length: 3\r\n\r\n"), OK, 404, 0 },
	{ S("HTTP/1.1 101 UPGRADED\r\n" RAW
	    "Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n"), OK, 101, 1 },
	{ S("HTTP/1.1 101 Switching Protocols\r\n\r\n"), OK, 101, 1 },
	{ S("HTTP/1.1 200 OK\r\n" RAW "\r\n"), OK, 200, 1 },
	{ S("HTTP/1.1 200 OK\r\n" MUX "Api-Version: 1.41\r\n\r\n"), OK, 200, 1 },
	{ S("HTTP/1.1 200 OK\r\nContent-Type: Application/VND.Docker.Raw-Stream"
	    " ; x=1\r\n\r\n"), OK, 200, 1 },
	{ S("HTTP/1.1 200 OK\r\n" RAW "Content-Length: 0\r\n\r\n"), OK, 200, 0 },
	{ S("HTTP/1.1 200 OK\r\n" MUX "Transfer-Encoding: chunked\r\n\r\n"),
	    OK, 200, 0 },
	{ S("HTTP/1.1 201 Created\r\n" RAW "\r\n"), OK, 201, 0 },
	{ S("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n"),
	    OK, 200, 0 },
	{ S("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.docker.raw-streamx"
	    "\r\n\r\n"), OK, 200, 0 },
	{ S("HTTP/1.1 200 OK\r\n\r\n"), OK, 200, 0 },
	{ S("HTTP/1.1 204\r\n\r\n"), OK, 204, 0 },
	{ S("HTTP/1.1 200 \r\n\r\n"), OK, 200, 0 },
	{ S("HTTP/1.1 599 a\tb \x80\xff~\r\n\r\n"), OK, 599, 0 },
	{ S("HTTP/1.1 100 Continue\r\n\r\n"), OK, 100, 0 },
	{ S("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n"), OK, 200, 0 },
	{ S("HTTP/1.1 200 OK\r\ncontent-length: 007\r\n\r\n"), OK, 200, 0 },
	{ S("HTTP/1.1 200 OK\r\nX: \r\n\r\n"), OK, 200, 0 },

	{ S("HTTP/1.2 200 OK\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/2 200 OK\r\n\r\n"), -1, 0, 0 },
	{ S("http/1.1 200 OK\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 099 X\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 600 X\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 20 X\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 2000 X\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 2x0 X\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1  200 OK\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200OK\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200\tOK\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 O\x01K\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 O\x7fK\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n"),
	    -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nContent-Length: 1, 1\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"),
	    -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
	    "Content-Length: 5\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\nX: a\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nX: a\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nX : a\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nX\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nX: \0\r\n\r\n"), -1, 0, 0 },
	{ S("\r\nHTTP/1.1 200 OK\r\n\r\n"), -1, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\n\r\r\n"), -1, 0, 0 },

	{ S(""), MORE, 0, 0 },
	{ S("HTTP/1.1 200 OK"), MORE, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\n"), MORE, 0, 0 },
	{ S("HTTP/1.1 200 OK\r\nX: y\r\n\r"), MORE, 0, 0 },
};

static void
test_response_table(void **state)
{
	struct http_response resp;
	size_t i, n;
	int r;

	(void)state;
	for (i = 0; i < sizeof(resp_cases) / sizeof(resp_cases[0]); i++) {
		const struct resp_case *c = &resp_cases[i];

		r = gresp(c->raw, c->len, &resp);
		if (c->want == OK) {
			if (r != (int)c->len)
				fail_msg("resp case %zu (%.*s): got %d", i,
				    (int)c->len, c->raw, r);
			assert_int_equal(resp.status, c->status);
			if (http_response_switches(&resp) != c->switches)
				fail_msg("resp case %zu: switches", i);
			for (n = 0; n < c->len; n++)
				if (gresp(c->raw, n, &resp) != -2)
					fail_msg("resp case %zu prefix %zu", i,
					    n);
		} else if (r != c->want) {
			fail_msg("resp case %zu (%.*s): got %d, want %d", i,
			    (int)c->len, c->raw, r, c->want);
		}
	}
}

static void
test_response_values(void **state)
{
	struct http_response resp;
	static const char r1[] = "HTTP/1.0 200 OK\r\nContent-Type:  "
	    "application/json \r\nContent-Length: 12\r\nApi-Version: 1.41\r\n"
	    "\r\n{\"x\":1}";
	char *b;
	size_t n, i;

	(void)state;
	assert_int_equal(gresp(S(r1), &resp),
	    (int)(sizeof(r1) - 1 - strlen("{\"x\":1}")));
	assert_int_equal(resp.minor_version, 0);
	assert_int_equal(resp.status, 200);
	assert_int_equal(resp.nfields, 3);
	assert_true(resp.has_content_length);
	assert_int_equal(resp.content_length, 12);
	assert_false(resp.chunked);
	assert_int_equal(resp.content_type_len, strlen("application/json"));
	assert_memory_equal(resp.content_type, "application/json", 16);
	assert_non_null(http_find_field(resp.fields, resp.nfields,
	    "api-version"));

	/* size and count limits */
	b = malloc(HTTP_HEAD_MAX + 100);
	assert_non_null(b);
	n = (size_t)sprintf(b, "HTTP/1.1 200 OK\r\nX: ");
	memset(b + n, 'a', HTTP_HEAD_MAX - n - 4);
	memcpy(b + HTTP_HEAD_MAX - 4, "\r\n\r\n", 4);
	assert_int_equal(gresp(b, HTTP_HEAD_MAX, &resp), HTTP_HEAD_MAX);
	memcpy(b + HTTP_HEAD_MAX - 4, "a\r\n\r\n", 5);
	assert_int_equal(gresp(b, HTTP_HEAD_MAX + 1, &resp), -1);
	assert_int_equal(gresp(b, HTTP_HEAD_MAX, &resp), -1);
	assert_int_equal(gresp(b, HTTP_HEAD_MAX - 1, &resp), -2);
	n = (size_t)sprintf(b, "HTTP/1.1 200 OK\r\n");
	for (i = 0; i < HTTP_FIELDS_MAX; i++)
		n += (size_t)sprintf(b + n, "X-%zu: v\r\n", i);
	memcpy(b + n, "\r\n", 2);
	assert_int_equal(gresp(b, n + 2, &resp), (int)n + 2);
	n += (size_t)sprintf(b + n, "Y: v\r\n\r\n");
	assert_int_equal(gresp(b, n, &resp), -1);
	free(b);
}

/* ---- chunked ---- */

struct chunk_case {
	const char *raw;
	size_t len;
	const char *want;	/* decoded data, NULL when invalid */
	size_t wantlen;
	int response_mode;
};

#define CV(raw, out)	{ S(raw), out, sizeof(out) - 1, 0 }
#define CVR(raw, out)	{ S(raw), out, sizeof(out) - 1, 1 }
#define CE(raw)		{ S(raw), NULL, 0, 0 }
#define CER(raw)	{ S(raw), NULL, 0, 1 }

static const struct chunk_case chunk_cases[] = {
	CV("5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n", "hello world"),
	CV("A\r\n0123456789\r\n0000\r\nX-Trailer: v\r\nY: \r\n\r\n",
	    "0123456789"),
	CV("a\r\n0123456789\r\n1\r\n\0\r\n0;x\r\n\r\n", "0123456789\0"),
	CV("00000003\r\nabc\r\n00000000\r\n\r\n", "abc"),
	CV("0\r\n\r\n", ""),
	CV("1;a=\"b c\"\t;d\r\nx\r\n0;\r\n\r\n", "x"),
	CV("2\r\n\r\n\r\n0\r\nX: \x80\xff\r\n\r\n", "\r\n"),
	CV("3\r\na\nb\r\n0\r\nT!#$%&'*+-.^_`|~: a b\tc\r\n\r\n", "a\nb"),
	CV("1;\x80\x01\r\nx\r\n0\r\n\r\n", "x"),
	CVR("0000000000000003\r\nabc\r\n0\r\n\r\n", "abc"),
	CVR("0000000000000000\r\n\r\n", ""),
	CVR("3;x\r\nabc\r\n0\r\nX: y\r\n\r\n", "abc"),

	CE(""),		/* never valid: incomplete (checked separately) */
	CE("g\r\n"),
	CE("\r\n"),
	CE(";x\r\n"),
	CE("-5\r\nhello\r\n0\r\n\r\n"),
	CE("0x5\r\nhello\r\n0\r\n\r\n"),
	CE(" 5\r\nhello\r\n0\r\n\r\n"),
	CE("5 \r\nhello\r\n0\r\n\r\n"),
	CE("5\t;x\r\nhello\r\n0\r\n\r\n"),
	CE("123456789\r\n"),
	CE("000000005\r\nhello\r\n0\r\n\r\n"),
	CE("000000000\r\n\r\n"),
	CER("00000000000000005\r\nhello\r\n0\r\n\r\n"),
	CE("5\r\nhelloX\r\n0\r\n\r\n"),
	CE("5\r\nhello\n0\r\n\r\n"),
	CE("5\r\nhello\r\r\n0\r\n\r\n"),
	CE("5\r\nhello0\r\n\r\n"),
	CE("5\nhello\r\n0\r\n\r\n"),
	CE("5\r\rhello\r\n0\r\n\r\n"),
	CE("5;a\nb\r\nhello\r\n0\r\n\r\n"),
	CE("5;a\0b\r\nhello\r\n0\r\n\r\n"),
	CE("5;a\rb\r\nhello\r\n0\r\n\r\n"),
	CE("0\r\n folded: x\r\n\r\n"),
	CE("0\r\n\tfolded: x\r\n\r\n"),
	CE("0\r\nX: a\r\n b\r\n\r\n"),
	CE("0\r\n: v\r\n\r\n"),
	CE("0\r\nX : v\r\n\r\n"),
	CE("0\r\nX v\r\n\r\n"),
	CE("0\r\nX\r\n\r\n"),
	CE("0\r\nX: a\x01\r\n\r\n"),
	CE("0\r\nX: a\x7f\r\n\r\n"),
	CE("0\r\nX: a\0\r\n\r\n"),
	CE("0\r\nX: v\n\r\n"),
	CE("0\r\nX: v\r\r\n"),
	CE("0\r\n\n"),
	CE("0\r\n\rX"),
	CE("0\r\n\r\r"),
	CE("0\n\r\n"),
};

/*
 * Decode in pieces of at most step bytes with an output buffer of outcap
 * bytes (outcap 0: validate-only). Returns 0 when the body completed
 * exactly at len, 1 when incomplete, -1 on error; *total = consumed.
 */
static int
decode(const char *in, size_t len, int response_mode, size_t step,
    size_t outcap, char *dec, size_t *declen, size_t *total)
{
	struct http_chunked c;
	char out[64];
	size_t pos = 0, n, olen, used;
	int r;

	http_chunked_init(&c, response_mode);
	*declen = 0;
	while (!c.done) {
		n = len - pos < step ? len - pos : step;
		olen = outcap;
		r = http_chunked_feed(&c, in + pos, n, outcap ? out : NULL,
		    &olen, &used);
		assert_true(used <= n);
		assert_true(olen <= outcap);
		if (dec != NULL)
			memcpy(dec + *declen, out, olen);
		*declen += olen;
		pos += used;
		if (r < 0) {
			*total = pos;
			return -1;
		}
		if (used == 0 && olen == 0 && !c.done) {
			/* no progress: only legal when the input is exhausted */
			assert_int_equal(pos, len);
			break;
		}
	}
	*total = pos;
	return c.done ? 0 : 1;
}

static void
check_chunk_case(size_t idx, const struct chunk_case *cc, const char *in,
    size_t len)
{
	static const size_t steps[] = { 1, 2, 3, 7, 64, (size_t)-1 };
	static const size_t caps[] = { 1, 3, 64 };
	char dec[256];
	size_t declen, total, si, ci, want_err_at = 0;
	int r, r0 = 0;

	for (si = 0; si < sizeof(steps) / sizeof(steps[0]); si++) {
		for (ci = 0; ci < sizeof(caps) / sizeof(caps[0]); ci++) {
			r = decode(in, len, cc->response_mode, steps[si],
			    caps[ci], dec, &declen, &total);
			if (cc->want != NULL) {
				if (r != 0 || total != len ||
				    declen != cc->wantlen ||
				    memcmp(dec, cc->want, declen) != 0)
					fail_msg("chunk case %zu step %zu cap %zu:"
					    " r %d total %zu declen %zu", idx,
					    steps[si], caps[ci], r, total,
					    declen);
			} else {
				if (si == 0 && ci == 0) {
					r0 = r;
					want_err_at = total;
				}
				if (r == 0)
					fail_msg("chunk case %zu accepted", idx);
				/* same verdict and position at every split */
				if (r != r0 || total != want_err_at)
					fail_msg("chunk case %zu step %zu: r %d at"
					    " %zu vs %d at %zu", idx, steps[si],
					    r, total, r0, want_err_at);
			}
		}
		/* validate-only */
		r = decode(in, len, cc->response_mode, steps[si], 0, NULL,
		    &declen, &total);
		if (cc->want != NULL) {
			assert_int_equal(r, 0);
			assert_int_equal(total, len);
			assert_int_equal(declen, 0);
		} else if (r != r0 || total != want_err_at) {
			fail_msg("chunk case %zu validate-only differs", idx);
		}
	}
}

static void
test_chunked_table(void **state)
{
	struct guard g;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(chunk_cases) / sizeof(chunk_cases[0]); i++) {
		const struct chunk_case *cc = &chunk_cases[i];

		check_chunk_case(i, cc, guard_put(&g, cc->raw, cc->len),
		    cc->len);
		guard_free(&g);
	}
}

/* Split at every byte position, and at every pair of positions. */
static void
test_chunked_every_split(void **state)
{
	static const char body[] = "5;e=1\r\nhello\r\n1\r\n \r\n000005\r\n"
	    "world\r\n0\r\nTrailer: x\r\nB: \r\n\r\n";
	struct http_chunked c;
	char out[64];
	size_t len = sizeof(body) - 1, a, b, olen, used, pos, declen;
	const size_t cuts_max = test_is_fast() ? 8 : len;

	(void)state;
	for (a = 0; a <= len; a++) {
		for (b = a; b <= len && b <= a + cuts_max; b++) {
			size_t cuts[3] = { a, b, len };
			int k;

			http_chunked_init(&c, 0);
			pos = 0;
			declen = 0;
			for (k = 0; k < 3; k++) {
				while (pos < cuts[k] && !c.done) {
					olen = sizeof(out) - declen;
					assert_int_equal(http_chunked_feed(&c,
					    body + pos, cuts[k] - pos,
					    out + declen, &olen, &used), 0);
					declen += olen;
					pos += used;
					if (used == 0)
						break;
				}
			}
			assert_true(c.done);
			assert_int_equal(pos, len);
			assert_int_equal(declen, 11);
			assert_memory_equal(out, "hello world", 11);
		}
	}
}

static void
test_chunked_stops_at_end(void **state)
{
	static const char in[] = "3\r\nabc\r\n0\r\n\r\nGET / HTTP/1.1\r\n";
	struct http_chunked c;
	char out[16];
	size_t olen = sizeof(out), used, i;

	(void)state;
	memset(&c, 0, sizeof(c));	/* zeroed struct == request mode init */
	assert_int_equal(http_chunked_feed(&c, S(in), out, &olen, &used), 0);
	assert_true(c.done);
	assert_int_equal(used, strlen("3\r\nabc\r\n0\r\n\r\n"));
	assert_int_equal(olen, 3);
	/* further calls consume nothing */
	olen = sizeof(out);
	assert_int_equal(http_chunked_feed(&c, in + used, sizeof(in) - 1 - used,
	    out, &olen, &used), 0);
	assert_int_equal(used, 0);
	assert_int_equal(olen, 0);

	/* byte at a time: done exactly at the final LF */
	http_chunked_init(&c, 0);
	for (i = 0; !c.done; i++) {
		olen = sizeof(out);
		assert_int_equal(http_chunked_feed(&c, in + i, 1, out, &olen,
		    &used), 0);
		assert_int_equal(used, 1);
	}
	assert_int_equal(i, strlen("3\r\nabc\r\n0\r\n\r\n"));

	/* output full: stops before data, resumes later */
	http_chunked_init(&c, 0);
	olen = 2;
	assert_int_equal(http_chunked_feed(&c, S(in), out, &olen, &used), 0);
	assert_int_equal(olen, 2);
	assert_int_equal(used, 5);
	assert_false(c.done);
	olen = 0;
	assert_int_equal(http_chunked_feed(&c, in + 5, sizeof(in) - 6, out,
	    &olen, &i), 0);
	assert_int_equal(i, 0);

	/* sticky error */
	http_chunked_init(&c, 0);
	olen = sizeof(out);
	assert_int_equal(http_chunked_feed(&c, S("x\r\n"), out, &olen, &used),
	    -1);
	assert_int_equal(used, 0);
	olen = sizeof(out);
	assert_int_equal(http_chunked_feed(&c, S("0\r\n\r\n"), out, &olen,
	    &used), -1);
}

static void
test_chunked_limits(void **state)
{
	struct http_chunked c;
	char *b;
	size_t n, olen, used;

	(void)state;
	/* 8 hex digits in request mode: ffffffff is a valid size */
	http_chunked_init(&c, 0);
	olen = 0;
	assert_int_equal(http_chunked_feed(&c, S("ffffffff\r\nab"), NULL, &olen,
	    &used), 0);
	assert_int_equal(used, 12);
	assert_int_equal(c.remaining, 0xffffffffULL - 2);
	/* 16 in response mode */
	http_chunked_init(&c, 1);
	olen = 0;
	assert_int_equal(http_chunked_feed(&c, S("FFFFFFFFFFFFFFFF\r\n"), NULL,
	    &olen, &used), 0);
	assert_int_equal(c.remaining, UINT64_MAX);
	http_chunked_init(&c, 1);
	olen = 0;
	assert_int_equal(http_chunked_feed(&c, S("10000000000000000\r\n"), NULL,
	    &olen, &used), -1);
	assert_int_equal(used, 16);
	http_chunked_init(&c, 0);
	olen = 0;
	assert_int_equal(http_chunked_feed(&c, S("100000000\r\n"), NULL,
	    &olen, &used), -1);
	assert_int_equal(used, 8);

	/* trailer section (incl. final CRLF) of exactly 64 KiB is accepted */
	b = malloc(HTTP_TRAILER_MAX + 16);
	assert_non_null(b);
	memcpy(b, "0\r\nX: ", 6);
	n = 3 + HTTP_TRAILER_MAX;	/* end of the trailer section */
	memset(b + 6, 'v', n - 4 - 6);
	memcpy(b + n - 4, "\r\n\r\n", 4);
	http_chunked_init(&c, 0);
	olen = 0;
	assert_int_equal(http_chunked_feed(&c, b, n, NULL, &olen, &used), 0);
	assert_true(c.done);
	assert_int_equal(used, n);
	/* one more byte: refused, in both modes */
	memcpy(b + n - 4, "v\r\n\r\n", 5);
	http_chunked_init(&c, 0);
	assert_int_equal(http_chunked_feed(&c, b, n + 1, NULL, &olen, &used), -1);
	http_chunked_init(&c, 1);
	assert_int_equal(http_chunked_feed(&c, b, n + 1, NULL, &olen, &used), -1);
	/* many small trailer lines count too */
	for (n = 3; n + 8 <= 3 + HTTP_TRAILER_MAX + 8; n += 6)
		memcpy(b + n, "X: y\r\n", 6);
	memcpy(b + n, "\r\n", 2);
	http_chunked_init(&c, 0);
	assert_int_equal(http_chunked_feed(&c, b, n + 2, NULL, &olen, &used), -1);
	free(b);
}

/* ---- mutation loops ---- */

static const char *const mut_reqs[] = {
	"GET /v1.41/containers/json?all=1 HTTP/1.1\r\nHost: docker\r\n"
	    "User-Agent: Docker-Client/28.0.1 (linux)\r\n\r\n",
	"POST /v1.41/containers/create?name=web HTTP/1.1\r\nHost: api.moby."
	    "localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
	    "Expect: 100-continue\r\nConnection: keep-alive\r\n\r\n{}",
	"POST http://d/v1.41/exec/abc/start HTTP/1.1\r\nHost: d\r\n"
	    "Connection: Upgrade\r\nUpgrade: tcp\r\nTransfer-Encoding: chunked\r\n"
	    "\r\n2\r\n{}\r\n0\r\n\r\n",
};

/* Accepted-result invariants: everything points into the buffer. */
static void
check_accepted(const char *buf, size_t len, int r,
    const struct http_request *req)
{
	size_t i;

	assert_true(r > 0 && (size_t)r <= len && r <= HTTP_HEAD_MAX);
	assert_memory_equal(buf + r - 4, "\r\n\r\n", 4);
	assert_true(req->method == buf);
	assert_true(req->method_len >= 1 && req->method_len <= 16);
	assert_true(req->target > buf && req->target + req->target_len <=
	    buf + r);
	assert_int_equal(req->target[0], '/');
	assert_true(req->nfields <= HTTP_FIELDS_MAX);
	for (i = 0; i < req->nfields; i++) {
		assert_true(req->fields[i].name_len > 0);
		assert_true(req->fields[i].name > buf &&
		    req->fields[i].value + req->fields[i].value_len <= buf + r);
	}
	assert_false(req->has_content_length && req->chunked);
	assert_non_null(http_find_field(req->fields, req->nfields, "host"));
}

static void
mutant(const char *buf, size_t len, unsigned *counts)
{
	struct http_request req;
	struct cg_refusal err;
	int r;

	memset(&err, 0, sizeof(err));
	r = http_parse_request(buf, len, &req, &err);
	if (r == -1) {
		assert_true(err.status == 400 || err.status == 431);
		assert_int_equal(err.status, cg_code_status(err.code));
		counts[0]++;
	} else if (r == -2) {
		assert_true(len < HTTP_HEAD_MAX);
		counts[1]++;
	} else {
		check_accepted(buf, len, r, &req);
		counts[2]++;
	}
}

static void
test_request_mutations(void **state)
{
	static const unsigned char fast_bytes[] = { 0, '\t', '\n', '\r', ' ',
	    ',', ':', ';', '/', 'A', 'a', '0', '#', '\\', 0x7f, 0x80, 0xff };
	unsigned counts[3] = { 0, 0, 0 };
	struct guard g;
	size_t k, i, n, nv;
	unsigned v, bit, seed = 12345;
	char *p;
	int fast = test_is_fast();

	(void)state;
	for (k = 0; k < sizeof(mut_reqs) / sizeof(mut_reqs[0]); k++) {
		size_t len = strlen(mut_reqs[k]);

		p = guard_put(&g, mut_reqs[k], len);
		/* byte replacement at every position */
		nv = fast ? sizeof(fast_bytes) : 256;
		for (i = 0; i < len; i++) {
			char orig = p[i];

			for (v = 0; v < nv; v++) {
				p[i] = (char)(fast ? fast_bytes[v] : v);
				mutant(p, len, counts);
			}
			for (bit = 0; bit < 8; bit++) {
				p[i] = (char)(orig ^ (1u << bit));
				mutant(p, len, counts);
				/* and every prefix of the flipped input */
				if (!fast)
					for (n = 0; n < len; n++)
						mutant(p, n, counts);
			}
			p[i] = orig;
		}
		/* truncation from the end: prefix ends at the guard page */
		for (n = 0; n <= len; n++) {
			struct guard g2;
			char *q = guard_put(&g2, mut_reqs[k], n);

			mutant(q, n, counts);
			guard_free(&g2);
		}
		/* truncation from the front */
		for (n = 0; n <= len; n++)
			mutant(p + n, len - n, counts);
		/* random multi-byte mutations */
		for (n = 0; n < (fast ? 2000u : 50000u); n++) {
			char save[4];
			size_t pos[4];
			int j;

			for (j = 0; j < 4; j++) {
				seed = seed * 1103515245u + 12345u;
				pos[j] = (seed >> 8) % len;
				save[j] = p[pos[j]];
				seed = seed * 1103515245u + 12345u;
				p[pos[j]] = (char)(seed >> 16);
			}
			mutant(p, len, counts);
			for (j = 3; j >= 0; j--)
				p[pos[j]] = save[j];
		}
		guard_free(&g);
	}
	/* sanity: the loop produced all three outcomes */
	assert_true(counts[0] > 0 && counts[1] > 0 && counts[2] > 0);
}

static void
test_response_mutations(void **state)
{
	static const char base[] = "HTTP/1.1 101 UPGRADED\r\nContent-Type: "
	    "application/vnd.docker.raw-stream\r\nConnection: Upgrade\r\n"
	    "Upgrade: tcp\r\nContent-Length: 0\r\n\r\n";
	struct http_response resp;
	struct guard g;
	size_t len = sizeof(base) - 1, i, n;
	unsigned v;
	char *p;
	int r;

	(void)state;
	p = guard_put(&g, base, len);
	for (i = 0; i < len; i++) {
		char orig = p[i];

		for (v = 0; v < 256; v++) {
			p[i] = (char)v;
			r = http_parse_response(p, len, &resp);
			assert_true(r == -1 || r == -2 ||
			    (r > 0 && (size_t)r <= len));
			if (r > 0) {
				assert_true(resp.status >= 100 &&
				    resp.status <= 599);
				assert_false(resp.has_content_length &&
				    resp.chunked);
				(void)http_response_switches(&resp);
			}
		}
		p[i] = orig;
	}
	for (n = 0; n <= len; n++) {
		r = http_parse_response(p + n, len - n, &resp);
		assert_true(r >= -2);
	}
	guard_free(&g);
}

static void
test_chunked_mutations(void **state)
{
	static const char base[] = "5;e\r\nhello\r\n0A\r\n0123456789\r\n0\r\n"
	    "T: v\r\n\r\n";
	struct guard g;
	char dec1[256], dec2[256];
	size_t len = sizeof(base) - 1, i, l1, l2, t1, t2;
	unsigned v;
	int r1, r2, mode;
	char *p;

	(void)state;
	p = guard_put(&g, base, len);
	for (mode = 0; mode < 2; mode++) {
		for (i = 0; i < len; i++) {
			char orig = p[i];

			for (v = 0; v < 256; v += test_is_fast() ? 7 : 1) {
				p[i] = (char)v;
				/* whole vs. byte at a time: same verdict */
				r1 = decode(p, len, mode, (size_t)-1, 64, dec1,
				    &l1, &t1);
				r2 = decode(p, len, mode, 1, 1, dec2, &l2, &t2);
				assert_int_equal(r1, r2);
				assert_int_equal(t1, t2);
				assert_int_equal(l1, l2);
				assert_memory_equal(dec1, dec2, l1);
			}
			p[i] = orig;
		}
	}
	guard_free(&g);
}

/* Whole chunked bodies and head copies (the monitor's list post-filter). */
static void
test_decode_all_and_head_copy(void **state)
{
	static const char head[] = "HTTP/1.1 200 OK\r\n"
	    "X-A: 1\r\nTRANSFER-ENCODING: chunked\r\nX-B: 2\r\n\r\n";
	static const char *const drop[] = { "Content-Length", "Transfer-Encoding", NULL };
	struct http_response resp;
	char *out, copy[sizeof(head)];
	size_t len;

	(void)state;
	assert_int_equal(http_chunked_decode_all("3\r\nabc\r\n1;e\r\nd\r\n0\r\n\r\nXX",
	    28, &out, &len), 0);
	assert_int_equal(len, 4);
	assert_string_equal(out, "abcd");
	free(out);
	assert_int_equal(http_chunked_decode_all("3\r\nabc\r\n", 8, &out, &len), -1);
	assert_null(out);
	assert_int_equal(http_chunked_decode_all("g\r\n\r\n", 5, &out, &len), -1);
	assert_int_equal(http_chunked_decode_all("", 0, &out, &len), -1);
	assert_int_equal(http_parse_response(head, sizeof(head) - 1, &resp),
	    (int)sizeof(head) - 1);
	len = http_head_copy(head, sizeof(head) - 1, &resp, drop, copy);
	assert_int_equal(len, strlen("HTTP/1.1 200 OK\r\nX-A: 1\r\nX-B: 2\r\n"));
	assert_memory_equal(copy, "HTTP/1.1 200 OK\r\nX-A: 1\r\nX-B: 2\r\n", len);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_table),
		cmocka_unit_test(test_request_prefixes_and_suffix),
		cmocka_unit_test(test_request_values),
		cmocka_unit_test(test_bypass_heads),
		cmocka_unit_test(test_request_size_limits),
		cmocka_unit_test(test_response_table),
		cmocka_unit_test(test_response_values),
		cmocka_unit_test(test_chunked_table),
		cmocka_unit_test(test_chunked_every_split),
		cmocka_unit_test(test_chunked_stops_at_end),
		cmocka_unit_test(test_chunked_limits),
		cmocka_unit_test(test_request_mutations),
		cmocka_unit_test(test_response_mutations),
		cmocka_unit_test(test_chunked_mutations),
		cmocka_unit_test(test_decode_all_and_head_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
