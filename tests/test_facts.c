/*
 * Ownership verdicts and inspect requests (routes.md §9.2-§9.4,
 * monitor/exchange/facts.c): label and id locations per kind and API, owned /
 * other value / no label / labels of the wrong type, status classes,
 * bodies that break the JSON rules of policy.md §0 (syntax, trailing
 * bytes, key collisions), the id grammar, and the exact bytes of every
 * internal inspect request.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/exchange/facts.h"
#include "monitor/gateway.h"
#include "policy/imagecfg.h"
#include "policy/imageref.h"
#include "policy/imgdest.h"
#include "policy/json.h"

#define ROOT	"/home/u/proj"
#define KEY	"org.apache.magpie.project"
#define OWNED_LABELS	"{\"" KEY "\":\"" ROOT "\"}"
#define OTHER_LABELS	"{\"" KEY "\":\"/home/v/proj\"}"

#define C	CG_FACT_CONTAINER
#define POD	CG_FACT_POD
#define VOL	CG_FACT_VOLUME
#define NET	CG_FACT_NETWORK
#define IMG	CG_FACT_IMAGE
#define EXEC	CG_FACT_EXEC
#define COMPAT	CG_API_COMPAT
#define LIBPOD	CG_API_LIBPOD

static const char *
rname(enum cg_fact_result r)
{
	static const char *const n[] = { "owned", "not-owned", "unreachable",
	    "timeout", "unexpected" };

	return (unsigned)r < 5 ? n[r] : "?";
}

#define V(kind, api, status, body, want, want_id) \
	check_verdict(kind, api, status, body, strlen(body), want, want_id, \
	    __LINE__)
#define VN(kind, api, status, body, len, want, want_id) \
	check_verdict(kind, api, status, body, len, want, want_id, __LINE__)

/*
 * facts_verdict with ROOT; the id must be want_id when owned and id_out
 * is left alone otherwise.
 */
static void
check_verdict(enum cg_fact_kind kind, enum cg_api api, int status,
    const char *body, size_t len, enum cg_fact_result want,
    const char *want_id, int line)
{
	char id[CG_ID_MAX + 1];
	char *copy = malloc(len + 1);	/* exact length: no reading past it */
	enum cg_fact_result r;

	assert_non_null(copy);
	memcpy(copy, body, len);
	copy[len] = '\0';
	strcpy(id, "untouched");
	r = facts_verdict(kind, api, status, copy, len, ROOT, id);
	free(copy);
	if (r != want) {
		print_error("line %d: kind %d api %d status %d: %s, want %s "
		    "(body %.300s)\n", line, kind, api, status, rname(r),
		    rname(want), body);
		fail();
	}
	if (want == CG_OWNED) {
		if (strcmp(id, want_id) != 0) {
			print_error("line %d: id \"%s\", want \"%s\"\n", line, id,
			    want_id);
			fail();
		}
	} else if (strcmp(id, "untouched") != 0) {
		print_error("line %d: id_out written on %s\n", line, rname(r));
		fail();
	}
}

/* ---------------------------------------------------------------- kinds */

static void
test_container(void **state)
{
	enum cg_api apis[] = { COMPAT, LIBPOD };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		enum cg_api a = apis[i];

		V(C, a, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":" OWNED_LABELS
		    "}}", CG_OWNED, "c1");
		V(C, a, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":" OTHER_LABELS
		    "}}", CG_NOT_OWNED, NULL);
		/* labels only at the top level do not count for containers */
		V(C, a, 200, "{\"Id\":\"c1\",\"Labels\":" OWNED_LABELS
		    ",\"Config\":{}}", CG_NOT_OWNED, NULL);
		V(C, a, 200, "{\"Id\":\"c1\",\"Labels\":" OWNED_LABELS "}",
		    CG_NOT_OWNED, NULL);
		/* lower-case keys are other keys */
		V(C, a, 200, "{\"Id\":\"c1\",\"Config\":{\"labels\":" OWNED_LABELS
		    "}}", CG_NOT_OWNED, NULL);
		V(C, a, 200, "{\"Id\":\"c1\",\"config\":{\"Labels\":" OWNED_LABELS
		    "}}", CG_NOT_OWNED, NULL);
		/* the id is Id, not ID or id */
		V(C, a, 200, "{\"ID\":\"c1\",\"Config\":{\"Labels\":" OWNED_LABELS
		    "}}", CG_UNEXPECTED, NULL);
		V(C, a, 200, "{\"id\":\"c1\",\"Config\":{\"Labels\":" OWNED_LABELS
		    "}}", CG_UNEXPECTED, NULL);
		/* a realistic answer with other members and labels */
		V(C, a, 200, "{\"Id\":\"de9d76480123456789abcdef0123456789abcdef"
		    "0123456789abcdef01234567\",\"Name\":\"/t1\",\"State\":"
		    "{\"Running\":true,\"Pid\":42},\"Config\":{\"Hostname\":\"h\","
		    "\"Env\":[\"A=1\"],\"Labels\":{\"com.example\":\"x\",\"" KEY
		    "\":\"" ROOT "\",\"z\":\"\"},\"StopTimeout\":10},"
		    "\"HostConfig\":{\"Binds\":null}}", CG_OWNED,
		    "de9d76480123456789abcdef0123456789abcdef0123456789abcdef01234567");
	}
}

static void
test_image(void **state)
{
	enum cg_api apis[] = { COMPAT, LIBPOD };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		enum cg_api a = apis[i];

		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Config\":{\"Labels\":"
		    OWNED_LABELS "}}", CG_OWNED, "sha256:abc");
		/* Config.Labels, else Labels */
		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Labels\":" OWNED_LABELS
		    "}", CG_OWNED, "sha256:abc");
		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Config\":{},\"Labels\":"
		    OWNED_LABELS "}", CG_OWNED, "sha256:abc");
		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Config\":{\"Labels\":null},"
		    "\"Labels\":" OWNED_LABELS "}", CG_OWNED, "sha256:abc");
		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Config\":null,\"Labels\":"
		    OWNED_LABELS "}", CG_OWNED, "sha256:abc");
		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Config\":[],\"Labels\":"
		    OWNED_LABELS "}", CG_OWNED, "sha256:abc");
		/* an object at Config.Labels wins, even without the label */
		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Config\":{\"Labels\":{}},"
		    "\"Labels\":" OWNED_LABELS "}", CG_NOT_OWNED, NULL);
		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Config\":{\"Labels\":"
		    OTHER_LABELS "},\"Labels\":" OWNED_LABELS "}", CG_NOT_OWNED,
		    NULL);
		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Config\":{\"Labels\":"
		    OWNED_LABELS "},\"Labels\":" OTHER_LABELS "}", CG_OWNED,
		    "sha256:abc");
		V(IMG, a, 200, "{\"Id\":\"sha256:abc\",\"Config\":{\"Labels\":null},"
		    "\"Labels\":null}", CG_NOT_OWNED, NULL);
	}
}

static void
test_volume(void **state)
{
	enum cg_api apis[] = { COMPAT, LIBPOD };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		enum cg_api a = apis[i];

		V(VOL, a, 200, "{\"Name\":\"v1\",\"Driver\":\"local\",\"Labels\":"
		    OWNED_LABELS "}", CG_OWNED, "v1");
		V(VOL, a, 200, "{\"Name\":\"v1\",\"Labels\":" OTHER_LABELS "}",
		    CG_NOT_OWNED, NULL);
		V(VOL, a, 200, "{\"Name\":\"v1\",\"Labels\":{}}", CG_NOT_OWNED,
		    NULL);
		V(VOL, a, 200, "{\"Name\":\"v1\",\"Labels\":null}", CG_NOT_OWNED,
		    NULL);
		/* the id is Name; an Id member does not stand in for it */
		V(VOL, a, 200, "{\"Id\":\"v1\",\"Labels\":" OWNED_LABELS "}",
		    CG_UNEXPECTED, NULL);
		V(VOL, a, 200, "{\"Name\":\"v1\",\"labels\":" OWNED_LABELS "}",
		    CG_NOT_OWNED, NULL);
		V(VOL, a, 200, "{\"Name\":\"v1\",\"Config\":{\"Labels\":"
		    OWNED_LABELS "}}", CG_NOT_OWNED, NULL);
	}
}

static void
test_network(void **state)
{
	(void)state;
	/* compat: Labels / Id */
	V(NET, COMPAT, 200, "{\"Name\":\"n\",\"Id\":\"n1\",\"Labels\":"
	    OWNED_LABELS "}", CG_OWNED, "n1");
	V(NET, COMPAT, 200, "{\"Id\":\"n1\",\"Labels\":" OTHER_LABELS "}",
	    CG_NOT_OWNED, NULL);
	V(NET, COMPAT, 200, "{\"Id\":\"n1\",\"labels\":" OWNED_LABELS "}",
	    CG_NOT_OWNED, NULL);
	V(NET, COMPAT, 200, "{\"id\":\"n1\",\"Labels\":" OWNED_LABELS "}",
	    CG_UNEXPECTED, NULL);
	/* libpod: labels / id */
	V(NET, LIBPOD, 200, "{\"name\":\"n\",\"id\":\"n1\",\"driver\":\"bridge\","
	    "\"labels\":" OWNED_LABELS "}", CG_OWNED, "n1");
	V(NET, LIBPOD, 200, "{\"id\":\"n1\",\"labels\":" OTHER_LABELS "}",
	    CG_NOT_OWNED, NULL);
	V(NET, LIBPOD, 200, "{\"id\":\"n1\",\"Labels\":" OWNED_LABELS "}",
	    CG_NOT_OWNED, NULL);
	V(NET, LIBPOD, 200, "{\"Id\":\"n1\",\"labels\":" OWNED_LABELS "}",
	    CG_UNEXPECTED, NULL);
	V(NET, LIBPOD, 200, "{\"id\":\"n1\"}", CG_NOT_OWNED, NULL);
}

static void
test_pod(void **state)
{
	(void)state;
	V(POD, LIBPOD, 200, "{\"Id\":\"p1\",\"Name\":\"pod\",\"Labels\":"
	    OWNED_LABELS "}", CG_OWNED, "p1");
	V(POD, LIBPOD, 200, "{\"Id\":\"p1\",\"Labels\":" OTHER_LABELS "}",
	    CG_NOT_OWNED, NULL);
	V(POD, LIBPOD, 200, "{\"Id\":\"p1\",\"labels\":" OWNED_LABELS "}",
	    CG_NOT_OWNED, NULL);
	V(POD, LIBPOD, 200, "{\"Id\":\"p1\",\"Config\":{\"Labels\":"
	    OWNED_LABELS "}}", CG_NOT_OWNED, NULL);
	V(POD, LIBPOD, 200, "{\"id\":\"p1\",\"Labels\":" OWNED_LABELS "}",
	    CG_UNEXPECTED, NULL);
}

static void
test_exec(void **state)
{
	enum cg_api apis[] = { COMPAT, LIBPOD };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		enum cg_api a = apis[i];

		/* exec: the container id, checked next (routes.md §9.4) */
		V(EXEC, a, 200, "{\"ID\":\"e1\",\"Running\":false,\"ContainerID\":"
		    "\"c1\",\"Pid\":0}", CG_OWNED, "c1");
		V(EXEC, a, 200, "{\"ContainerID\":\"c1\",\"Labels\":" OTHER_LABELS
		    "}", CG_OWNED, "c1");
		V(EXEC, a, 200, "{\"ID\":\"e1\"}", CG_UNEXPECTED, NULL);
		V(EXEC, a, 200, "{\"ContainerId\":\"c1\"}", CG_UNEXPECTED, NULL);
		V(EXEC, a, 200, "{\"ContainerID\":\"\"}", CG_UNEXPECTED, NULL);
		V(EXEC, a, 200, "{\"ContainerID\":\"../c1\"}", CG_UNEXPECTED, NULL);
		V(EXEC, a, 200, "{\"ContainerID\":\"c1/json\"}", CG_UNEXPECTED,
		    NULL);
		V(EXEC, a, 200, "{\"ContainerID\":12}", CG_UNEXPECTED, NULL);
		V(EXEC, a, 404, "{\"ContainerID\":\"c1\"}", CG_NOT_OWNED, NULL);
		V(EXEC, a, 500, "{\"ContainerID\":\"c1\"}", CG_UNEXPECTED, NULL);
	}
}

/* ---------------------------------------------------------------- values */

static void
test_label_values(void **state)
{
	(void)state;
#define CB(labels)	"{\"Id\":\"c1\",\"Config\":{\"Labels\":" labels "}}"
	V(C, COMPAT, 200, CB("{}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("null"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("[]"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("[\"" KEY "=" ROOT "\"]"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("\"" KEY "=" ROOT "\""), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("1"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("true"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\"}", CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":null}", CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":\"x\"}", CG_NOT_OWNED, NULL);
	/* the value must be the string ROOT, byte for byte */
	V(C, COMPAT, 200, CB("{\"" KEY "\":null}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"" KEY "\":1}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"" KEY "\":[\"" ROOT "\"]}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"" KEY "\":{\"" ROOT "\":1}}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"" KEY "\":\"\"}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"" KEY "\":\"" ROOT "/\"}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"" KEY "\":\"" ROOT "/sub\"}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"" KEY "\":\"/home/u/pro\"}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"" KEY "\":\"/HOME/U/PROJ\"}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"" KEY "\":\" " ROOT "\"}"), CG_NOT_OWNED, NULL);
	/* the key must be exact; other keys do not count */
	V(C, COMPAT, 200, CB("{\"" KEY ".x\":\"" ROOT "\"}"), CG_NOT_OWNED, NULL);
	V(C, COMPAT, 200, CB("{\"org.apache.magpie\":\"" ROOT "\"}"),
	    CG_NOT_OWNED, NULL);
	/* escapes are decoded before comparing (policy.md §0.1) */
	V(C, COMPAT, 200, CB("{\"" KEY "\":\"\\/home\\/u\\/proj\"}"), CG_OWNED,
	    "c1");
	V(C, COMPAT, 200, CB("{\"org.apache.magpie.projec\\u0074\":\"" ROOT "\"}"),
	    CG_OWNED, "c1");
	/* other labels, also fold-equal ones, are a map's own business */
	V(C, COMPAT, 200, CB("{\"a\":\"1\",\"A\":\"2\",\"" KEY "\":\"" ROOT "\"}"),
	    CG_OWNED, "c1");
#undef CB
}

static void
test_status(void **state)
{
	static const int unexpected[] = { 0, 100, 101, 199, 300, 301, 304, 400,
	    401, 403, 409, 410, 499, 500, 502, 503, 599, 600, 999, -1 };
	const char *owned = "{\"Id\":\"c1\",\"Config\":{\"Labels\":" OWNED_LABELS
	    "}}";
	size_t i;

	(void)state;
	V(C, COMPAT, 200, owned, CG_OWNED, "c1");
	V(C, COMPAT, 201, owned, CG_OWNED, "c1");
	V(C, COMPAT, 204, owned, CG_OWNED, "c1");
	V(C, COMPAT, 299, owned, CG_OWNED, "c1");
	/* 404 is "not owned" whatever the body says */
	V(C, COMPAT, 404, owned, CG_NOT_OWNED, NULL);
	V(C, COMPAT, 404, "{\"message\":\"no such container: t1\"}",
	    CG_NOT_OWNED, NULL);
	V(C, COMPAT, 404, "not json at all", CG_NOT_OWNED, NULL);
	V(C, COMPAT, 404, "", CG_NOT_OWNED, NULL);
	V(VOL, LIBPOD, 404, "", CG_NOT_OWNED, NULL);
	for (i = 0; i < sizeof(unexpected) / sizeof(unexpected[0]); i++) {
		V(C, COMPAT, unexpected[i], owned, CG_UNEXPECTED, NULL);
		V(NET, LIBPOD, unexpected[i], "{\"id\":\"n1\"}", CG_UNEXPECTED,
		    NULL);
	}
}

static void
test_invalid_json(void **state)
{
	static const char *const bad[] = {
		"",
		" ",
		"{",
		"{\"Id\":\"c1\"",
		"{\"Id\":\"c1\",}",
		"{\"Id\":'c1'}",
		"{Id:\"c1\"}",
		"{\"Id\":\"c1\"} x",
		"{\"Id\":\"c1\"}{}",
		"{\"Id\":\"c1\"}\n{\"Id\":\"c2\"}",
		"{\"Id\":\"c\\u0000\"}",
		"{\"Id\":\"c1\",\"Config\":{\"Labels\":{\"" KEY "\":\"\\ud800\"}}}",
		"{\"Id\":\"c1\",\"x\":01}",
		"{\"Id\":\"c1\",\"x\":NaN}",
		"\"c1\"",
		"[{\"Id\":\"c1\"}]",
		"null",
		"42",
	};
	char deep[300], *p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		V(C, COMPAT, 200, bad[i], CG_UNEXPECTED, NULL);
		V(VOL, LIBPOD, 200, bad[i], CG_UNEXPECTED, NULL);
	}
	/* raw NUL and invalid UTF-8 */
	VN(C, COMPAT, 200, "{\"Id\":\"c1\"}\0", 12, CG_UNEXPECTED, NULL);
	VN(C, COMPAT, 200, "{\"Id\":\"c\0\"}", 10, CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"x\":\"\xff\"}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"x\":\"\xc0\xaf\"}", CG_UNEXPECTED,
	    NULL);
	/* nesting: 64 levels parse, 65 do not */
	p = deep;
	p += sprintf(p, "{\"Id\":\"c1\",\"x\":");
	for (i = 0; i < 63; i++)
		*p++ = '[';
	for (i = 0; i < 63; i++)
		*p++ = ']';
	strcpy(p, "}");
	V(C, COMPAT, 200, deep, CG_NOT_OWNED, NULL);
	p = deep;
	p += sprintf(p, "{\"Id\":\"c1\",\"x\":");
	for (i = 0; i < 64; i++)
		*p++ = '[';
	for (i = 0; i < 64; i++)
		*p++ = ']';
	strcpy(p, "}");
	V(C, COMPAT, 200, deep, CG_UNEXPECTED, NULL);
	/* only len bytes count: a valid prefix of a longer buffer */
	VN(C, COMPAT, 200, "{\"Id\":\"c1\"}garbage", 11, CG_NOT_OWNED, NULL);
}

/*
 * Key collisions in the inspect body (policy.md §0.2 via routes.md §9.2):
 * the body counts as unexpected, whichever duplicate a reader would pick.
 */
static void
test_collisions(void **state)
{
	(void)state;
	/* identical keys at the top level */
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Id\":\"c2\",\"Config\":{\"Labels\":"
	    OWNED_LABELS "}}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":" OTHER_LABELS
	    "},\"Config\":{\"Labels\":" OWNED_LABELS "}}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":" OWNED_LABELS
	    "},\"Config\":{\"Labels\":" OTHER_LABELS "}}", CG_UNEXPECTED, NULL);
	/* in Config */
	V(C, LIBPOD, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":" OTHER_LABELS
	    ",\"Labels\":" OWNED_LABELS "}}", CG_UNEXPECTED, NULL);
	/* in the label map, in both orders and with equal values */
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":{\"" KEY "\":\""
	    ROOT "\",\"" KEY "\":\"/x\"}}}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":{\"" KEY
	    "\":\"/x\",\"" KEY "\":\"" ROOT "\"}}}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":{\"" KEY "\":\""
	    ROOT "\",\"" KEY "\":\"" ROOT "\"}}}", CG_UNEXPECTED, NULL);
	V(VOL, COMPAT, 200, "{\"Name\":\"v1\",\"Labels\":{\"" KEY "\":\"" ROOT
	    "\",\"" KEY "\":\"" ROOT "\"}}", CG_UNEXPECTED, NULL);
	V(NET, LIBPOD, 200, "{\"id\":\"n1\",\"labels\":" OWNED_LABELS
	    ",\"labels\":" OWNED_LABELS "}", CG_UNEXPECTED, NULL);
	V(POD, LIBPOD, 200, "{\"Id\":\"p1\",\"Id\":\"p1\",\"Labels\":"
	    OWNED_LABELS "}", CG_UNEXPECTED, NULL);
	V(EXEC, COMPAT, 200, "{\"ContainerID\":\"c1\",\"ContainerID\":\"c2\"}",
	    CG_UNEXPECTED, NULL);
	/* an escaped spelling of the same key is the same key */
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"I\\u0064\":\"c2\",\"Config\":"
	    "{\"Labels\":" OWNED_LABELS "}}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":{\"" KEY "\":\""
	    ROOT "\",\"org.apache.magpie.projec\\u0074\":\"/x\"}}}",
	    CG_UNEXPECTED, NULL);
	/* identical keys anywhere in the tree, also inside arrays */
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"State\":{\"Pid\":1,\"Pid\":2},"
	    "\"Config\":{\"Labels\":" OWNED_LABELS "}}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Mounts\":[{\"a\":1},{\"b\":1,\"b\":2}],"
	    "\"Config\":{\"Labels\":" OWNED_LABELS "}}", CG_UNEXPECTED, NULL);
	/* fold-equal keys in the struct objects read: top level, Config */
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"id\":\"c2\",\"Config\":{\"Labels\":"
	    OWNED_LABELS "}}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":" OWNED_LABELS
	    "},\"config\":{}}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":" OWNED_LABELS
	    ",\"labels\":{}}}", CG_UNEXPECTED, NULL);
	V(NET, LIBPOD, 200, "{\"id\":\"n1\",\"labels\":" OWNED_LABELS
	    ",\"Labels\":{}}", CG_UNEXPECTED, NULL);
	V(NET, COMPAT, 200, "{\"Id\":\"n1\",\"ID\":\"n1\",\"Labels\":"
	    OWNED_LABELS "}", CG_UNEXPECTED, NULL);
	/* a label key spelled like KEY but not exactly KEY */
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"Config\":{\"Labels\":{\"" KEY "\":\""
	    ROOT "\",\"Org.Apache.Magpie.Project\":\"/x\"}}}", CG_UNEXPECTED,
	    NULL);
	V(VOL, LIBPOD, 200, "{\"Name\":\"v1\",\"Labels\":{\"ORG.APACHE.MAGPIE."
	    "PROJECT\":\"" ROOT "\"}}", CG_UNEXPECTED, NULL);
	/* fold-equal keys in nested maps are legitimate (exact keys) */
	V(C, COMPAT, 200, "{\"Id\":\"c1\",\"NetworkSettings\":{\"Networks\":"
	    "{\"Net\":{},\"net\":{}}},\"Config\":{\"Env\":[\"A=1\",\"a=1\"],"
	    "\"Volumes\":{\"/a\":{},\"/A\":{}},\"Labels\":" OWNED_LABELS "}}",
	    CG_OWNED, "c1");
	/* a 404 body is never read */
	V(C, COMPAT, 404, "{\"Id\":\"c1\",\"Id\":\"c2\"}", CG_NOT_OWNED, NULL);
}

/* [A-Za-z0-9][A-Za-z0-9_.:@-]{0,254} (routes.md §9.3) */
static void
test_id_grammar(void **state)
{
	static const char *const good[] = {
		"a", "Z", "0", "a_b", "a.b", "a:b", "a@b", "a-b", "0_.:@-",
		"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"my-volume.1", "n@1",
	};
	static const char *const badids[] = {
		"", "_a", ".a", ":a", "@a", "-a", "a/b", "a b", " a", "a ", "a%2f",
		"a?b", "a#b", "a\\\\b", "a+b", "a=b", "a,b", "a\\tb", "\\u00e9",
		"a\\u00e9", "..", "a\\nb", "a~b", "a!b", "a$b", "a\\\"b",
	};
	char body[1024], id[300];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(body, sizeof(body), "{\"Id\":\"%s\",\"Config\":{\"Labels\":"
		    OWNED_LABELS "}}", good[i]);
		V(C, COMPAT, 200, body, CG_OWNED, good[i]);
		snprintf(body, sizeof(body), "{\"Name\":\"%s\",\"Labels\":"
		    OWNED_LABELS "}", good[i]);
		V(VOL, LIBPOD, 200, body, CG_OWNED, good[i]);
	}
	for (i = 0; i < sizeof(badids) / sizeof(badids[0]); i++) {
		snprintf(body, sizeof(body), "{\"Id\":\"%s\",\"Config\":{\"Labels\":"
		    OWNED_LABELS "}}", badids[i]);
		V(C, COMPAT, 200, body, CG_UNEXPECTED, NULL);
		/* not owned is no excuse for an invalid id */
		snprintf(body, sizeof(body), "{\"id\":\"%s\",\"labels\":{}}",
		    badids[i]);
		V(NET, LIBPOD, 200, body, CG_UNEXPECTED, NULL);
		snprintf(body, sizeof(body), "{\"ContainerID\":\"%s\"}", badids[i]);
		V(EXEC, LIBPOD, 200, body, CG_UNEXPECTED, NULL);
	}
	/* the id must be a string */
	V(C, COMPAT, 200, "{\"Id\":1,\"Config\":{\"Labels\":" OWNED_LABELS "}}",
	    CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":null,\"Config\":{\"Labels\":" OWNED_LABELS "}}",
	    CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Id\":[\"c1\"],\"Config\":{\"Labels\":" OWNED_LABELS
	    "}}", CG_UNEXPECTED, NULL);
	V(C, COMPAT, 200, "{\"Config\":{\"Labels\":" OWNED_LABELS "}}",
	    CG_UNEXPECTED, NULL);
	/* length: 255 bytes pass, 256 do not */
	memset(id, 'a', 255);
	id[255] = '\0';
	snprintf(body, sizeof(body), "{\"Id\":\"%s\",\"Config\":{\"Labels\":"
	    OWNED_LABELS "}}", id);
	V(C, COMPAT, 200, body, CG_OWNED, id);
	id[255] = 'b';
	id[256] = '\0';
	snprintf(body, sizeof(body), "{\"Id\":\"%s\",\"Config\":{\"Labels\":"
	    OWNED_LABELS "}}", id);
	V(C, COMPAT, 200, body, CG_UNEXPECTED, NULL);
	memset(id, '-', 255);
	id[0] = '9';
	id[255] = '\0';
	snprintf(body, sizeof(body), "{\"ContainerID\":\"%s\"}", id);
	V(EXEC, COMPAT, 200, body, CG_OWNED, id);
}

/* A ROOT with bytes that need escaping in JSON. */
static void
test_root_bytes(void **state)
{
	const char *root = "/home/u/my \"proj\"/\xc3\xa9";
	const char *body = "{\"Id\":\"c1\",\"Config\":{\"Labels\":{\"" KEY
	    "\":\"/home/u/my \\\"proj\\\"/\\u00e9\"}}}";
	char id[CG_ID_MAX + 1];

	(void)state;
	assert_int_equal(facts_verdict(C, COMPAT, 200, body, strlen(body), root,
	    id), CG_OWNED);
	assert_string_equal(id, "c1");
	assert_int_equal(facts_verdict(C, COMPAT, 200, body, strlen(body),
	    "/home/u/my \"proj\"/e", id), CG_NOT_OWNED);
}

/* ---------------------------------------------------------------- requests */

static void
check_request(enum cg_fact_kind kind, enum cg_api api, const char *prefix,
    const char *ref, const char *want_path)
{
	char want[2048];
	size_t len = 12345;
	char *req;

	/* keep-alive: no Connection field (backend.c pool) */
	snprintf(want, sizeof(want), "GET %s HTTP/1.1\r\nHost: docker\r\n"
	    "\r\n", want_path);
	req = facts_inspect_request(kind, api, prefix, ref, &len);
	assert_non_null(req);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(req, want, len);
	assert_int_equal(req[len], '\0');
	free(req);
}

static void
test_inspect_request(void **state)
{
	(void)state;
	check_request(C, COMPAT, "", "t1", "/containers/t1/json");
	check_request(C, COMPAT, "/v1.41", "t1", "/v1.41/containers/t1/json");
	check_request(C, LIBPOD, "", "t1", "/libpod/containers/t1/json");
	check_request(C, LIBPOD, "/v5.0.0", "t1",
	    "/v5.0.0/libpod/containers/t1/json");
	check_request(IMG, COMPAT, "/v1.45", "quay.io/podman/hello:latest",
	    "/v1.45/images/quay.io/podman/hello:latest/json");
	check_request(IMG, LIBPOD, "", "sha256:abc",
	    "/libpod/images/sha256:abc/json");
	check_request(VOL, COMPAT, "/v1.41", "v1", "/v1.41/volumes/v1");
	check_request(VOL, LIBPOD, "/v4.9.3", "v1", "/v4.9.3/libpod/volumes/v1/json");
	check_request(NET, COMPAT, "", "n1", "/networks/n1");
	check_request(NET, LIBPOD, "/v4.0.0", "n1", "/v4.0.0/libpod/networks/n1/json");
	check_request(POD, LIBPOD, "/v4.0.0", "p1", "/v4.0.0/libpod/pods/p1/json");
	/* no compat pod inspect: the libpod path is used */
	check_request(POD, COMPAT, "", "p1", "/libpod/pods/p1/json");
	check_request(EXEC, COMPAT, "/v1.41", "e1", "/v1.41/exec/e1/json");
	check_request(EXEC, LIBPOD, "", "e1", "/libpod/exec/e1/json");
	/* the ref bytes exactly as received, a '%' in a ref is not a format */
	check_request(C, COMPAT, "", "a%sb%n", "/containers/a%sb%n/json");
	check_request(C, COMPAT, "", "my_ctr.1-x@y:z", "/containers/my_ctr.1-x@y:z/json");
}

/*
 * The image step's parse of inspect answers (policy/imagecfg.h): the
 * libpod shape (top-level Annotations, measured on podman 4.3.1) and the
 * compat shape (Config only), and what image_config_check refuses.
 */
static void
test_image_config(void **state)
{
	static const char libpod[] = "{\"Id\":\"abc\",\"Config\":{\"User\":\"1000\","
	    "\"ExposedPorts\":{\"80/tcp\":{}},\"Env\":[\"PATH=/bin\"],"
	    "\"WorkingDir\":\"/w\",\"Labels\":{\"a\":\"b\"}},\"Annotations\":"
	    "{\"org.opencontainers.image.base.name\":\"x\"},\"Labels\":{\"c\":\"d\"}}";
	static const char reserved[] = "{\"Id\":\"abc\",\"Config\":{},"
	    "\"Annotations\":{\"a\":\"b\",\"Run.OCI.keep_original_groups\":\"1\"}}";
	static const char compat[] = "{\"Id\":\"sha256:abc\",\"Config\":"
	    "{\"Labels\":null,\"Env\":null}}";
	struct image_config ic;
	struct cg_refusal r;

	(void)state;
	assert_int_equal(image_config_parse(libpod, strlen(libpod), &ic), 0);
	assert_string_equal(ic.id, "abc");
	assert_string_equal(ic.user, "1000");
	assert_string_equal(ic.working_dir, "/w");
	assert_non_null(json_get(ic.labels, "a"));
	assert_non_null(json_get(ic.exposed_ports, "80/tcp"));
	assert_int_equal(cJSON_GetArraySize(ic.env), 1);
	assert_int_equal(image_config_check(&ic, "x", "/p", &r), 0);
	image_config_free(&ic);

	assert_int_equal(image_config_parse(reserved, strlen(reserved), &ic), 0);
	assert_int_equal(image_config_check(&ic, "x", "/p", &r), -1);
	assert_string_equal(r.code, "annotations");
	assert_non_null(strstr(r.detail, "Run.OCI.keep_original_groups"));
	image_config_free(&ic);

	/* the project label: this project's passes, another's is refused */
	{
		static const char own[] = "{\"Id\":\"a\",\"Config\":{\"Labels\":"
		    "{\"org.apache.magpie.project\":\"/p\"}}}";
		static const char other[] = "{\"Id\":\"a\",\"Labels\":"
		    "{\"org.apache.magpie.project\":\"/q\"}}";
		static const char odd[] = "{\"Id\":\"a\",\"Labels\":"
		    "{\"org.apache.magpie.project\":1}}";

		assert_int_equal(image_config_parse(own, strlen(own), &ic), 0);
		assert_int_equal(image_config_check(&ic, "x", "/p", &r), 0);
		image_config_free(&ic);
		assert_int_equal(image_config_parse(other, strlen(other), &ic), 0);
		assert_int_equal(image_config_check(&ic, "x", "/p", &r), -1);
		assert_string_equal(r.code, "commit-label");
		assert_null(strstr(r.detail, "/q"));
		image_config_free(&ic);
		assert_int_equal(image_config_parse(odd, strlen(odd), &ic), 0);
		assert_int_equal(image_config_check(&ic, "x", "/p", &r), -1);
		image_config_free(&ic);
	}

	assert_int_equal(image_config_parse(compat, strlen(compat), &ic), 0);
	assert_null(ic.labels);
	assert_null(ic.annotations);
	assert_null(ic.env);
	assert_string_equal(ic.user, "");
	image_config_free(&ic);

	/* not an inspect answer */
	assert_int_equal(image_config_parse("[]", 2, &ic), -1);
	assert_int_equal(image_config_parse("{\"Id\":1}", 8, &ic), -1);
	assert_int_equal(image_config_parse("{\"Id\":\"a\",\"Config\":[]}", 22, &ic), -1);
	assert_int_equal(image_config_parse("{\"Id\":\"a\",\"Annotations\":[]}",
	    27, &ic), -1);
	assert_int_equal(image_config_parse("{\"Id\":\"a\",\"id\":\"b\"}", 19, &ic), -1);
	assert_null(ic.tree);

	/* what the monitor splices into the inspect path */
	assert_true(image_ref_path_safe("localhost/x:1", 13));
	assert_true(image_ref_path_safe("sha256:ab", 9));
	assert_false(image_ref_path_safe("", 0));
	assert_false(image_ref_path_safe("a/../b", 6));
	assert_false(image_ref_path_safe("./a", 3));
	assert_false(image_ref_path_safe("a//b", 4));
	assert_false(image_ref_path_safe("a/", 2));
	assert_false(image_ref_path_safe("a%2Fb", 5));
	assert_false(image_ref_path_safe("a b", 3));
	assert_false(image_ref_path_safe("a\r\nb", 4));
}

/*
 * podman 4.3.1's systemd-mode decision as image_systemd_check reads it:
 * each row measured through the gateway on podman 4.3.1 (inspect
 * .Config.SystemdMode of the create the old gateway forwarded).
 */
static void
test_image_systemd(void **state)
{
	static const char init_ep[] = "{\"Id\":\"a\",\"Config\":{\"Entrypoint\":"
	    "[\"/sbin/init\"],\"Cmd\":null}}";
	static const char init_sh[] = "{\"Id\":\"a\",\"Config\":{\"Cmd\":"
	    "[\"/bin/sh\",\"-c\",\"/sbin/init\"]}}";
	static const char plain[] = "{\"Id\":\"a\",\"Config\":{\"Cmd\":[\"sh\"]}}";
	static const struct {
		const char *image, *body;
		int pod, refused;
	} rows[] = {
		{ init_ep, "{}", 0, 1 },
		{ init_sh, "{}", 0, 1 },
		{ init_sh, "{\"Cmd\":[\"sleep\",\"30\"]}", 0, 0 },
		{ init_ep, "{\"Entrypoint\":[\"sh\"],\"Cmd\":[\"-c\",\"x\"]}", 0, 0 },
		{ init_ep, "{\"Entrypoint\":[\"\"],\"Cmd\":[\"sleep\"]}", 0, 0 },
		{ init_ep, "{\"Entrypoint\":\"null\",\"Cmd\":[\"sleep\"]}", 0, 1 },
		{ init_ep, "{\"Entrypoint\":\"[]\",\"Cmd\":[\"/sbin/init\"]}", 0, 1 },
		{ plain, "{\"Entrypoint\":[\"[\\\"/usr/sbin/init\\\"]\"]}", 0, 1 },
		{ plain, "{\"Entrypoint\":\"/lib/systemd/systemd\"}", 0, 1 },
		{ plain, "{\"Entrypoint\":[\"/bin/sh\",\"-c\",\"systemd\"]}", 0, 1 },
		{ plain, "{\"Cmd\":[\"/usr/local/sbin/init/\"]}", 0, 0 },
		{ plain, "{\"Cmd\":[\"/usr/local/sbin/init\"]}", 0, 1 },
		{ plain, "{\"Cmd\":[\"/x/systemd//\"]}", 0, 1 },
		{ plain, "{\"Cmd\":[\"ls\",\"/sbin/init\"]}", 0, 0 },
		{ init_ep, "{}", 1, 1 },
		{ plain, "{\"infra_command\":[\"/sbin/init\"]}", 1, 1 },
		{ NULL, "{\"infra_command\":[\"/sbin/init\"]}", 1, 1 },
		{ NULL, "{\"infra_command\":[\"sleep\",\"30\"]}", 1, 0 },
		{ init_ep, "{\"infra_command\":[\"sleep\",\"30\"]}", 1, 0 },
	};
	struct image_config ic;
	struct cg_refusal r;
	cJSON *body;
	size_t i;
	char err[128];

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&ic, 0, sizeof(ic));
		if (rows[i].image != NULL)
			assert_int_equal(image_config_parse(rows[i].image,
			    strlen(rows[i].image), &ic), 0);
		body = json_parse(rows[i].body, strlen(rows[i].body), err,
		    sizeof(err));
		assert_non_null(body);
		memset(&r, 0, sizeof(r));
		if (image_systemd_check(rows[i].image != NULL ? &ic : NULL,
		    body, rows[i].pod, &r) != -rows[i].refused)
			fail_msg("row %zu (%s) refused=%d expected", i,
			    rows[i].body, rows[i].refused);
		if (rows[i].refused)
			assert_string_equal(r.code, "systemd");
		cJSON_Delete(body);
		image_config_free(&ic);
	}
	/* podman would take neither: 400 malformed */
	body = json_parse("{\"Entrypoint\":[\"[1]\"]}", 22, err, sizeof(err));
	assert_int_equal(image_systemd_check(NULL, body, 0, &r), -1);
	assert_string_equal(r.code, "malformed");
	cJSON_Delete(body);
	body = json_parse("{\"Cmd\":{}}", 10, err, sizeof(err));
	assert_non_null(body);
	assert_int_equal(image_systemd_check(NULL, body, 0, &r), -1);
	assert_string_equal(r.code, "malformed");
	cJSON_Delete(body);
	assert_int_equal(image_config_parse("{\"Id\":\"a\",\"Config\":"
	    "{\"Cmd\":\"x\"}}", 31, &ic), -1);
}

/*
 * The image names a request moves (policy/imgdest.h; red team rt10 F1):
 * which keys of which routes, the tag the daemons add, podman's infra
 * image repository refused outright.
 */
static void
dests(const char *action, const char *q, int rc, size_t n, const char *first)
{
	struct image_dests d;
	struct cg_refusal r;

	assert_int_equal(image_dests_parse(action, q, strlen(q), &d, &r), rc);
	assert_int_equal(d.n, n);
	if (first != NULL)
		assert_string_equal(d.name[0], first);
	image_dests_free(&d);
}

static void
test_image_dests(void **state)
{
	struct image_dests d;
	struct cg_refusal r;

	(void)state;
	dests("tag", "repo=localhost/busybox", 0, 1, "localhost/busybox:latest");
	dests("tag", "repo=localhost/x&tag=2", 0, 1, "localhost/x:2");
	dests("tag", "repo=reg:5000/x", 0, 1, "reg:5000/x:latest");
	dests("tag", "repo=x:1&tag=2", 0, 1, "x:1");
	dests("commit", "container=c&repo=localhost%2Fb&tag=1", 0, 1, "localhost/b:1");
	dests("commit", "container=c", 0, 0, NULL);
	dests("build", "t=a:1&t=b&manifest=m", 0, 3, "a:1");
	dests("build", "t=&q=1", 0, 0, NULL);
	dests("pull", "fromImage=busybox&tag=1", 0, 0, NULL);
	dests("import", "fromSrc=-&repo=i", 0, 1, "i:latest");
	dests("import", "reference=localhost/i:1", 0, 1, "localhost/i:1");
	dests("load", "", 0, 0, NULL);
	dests("create", "name=x", 0, 0, NULL);
	/* podman's default infra image, every spelling of its repository */
	assert_int_equal(image_dests_parse("build", "t=localhost/podman-pause:4.3.1-0",
	    32, &d, &r), -1);
	assert_string_equal(r.code, "denied-build-parameter");
	assert_int_equal(image_dests_parse("tag", "repo=podman-pause&tag=x", 23,
	    &d, &r), -1);
	assert_string_equal(r.code, "denied-query");
	dests("tag", "repo=localhost/podman-pause2", 0, 1, NULL);
	dests("tag", "repo=a/../b", -1, 0, NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_container),
		cmocka_unit_test(test_image),
		cmocka_unit_test(test_volume),
		cmocka_unit_test(test_network),
		cmocka_unit_test(test_pod),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_label_values),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_invalid_json),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_id_grammar),
		cmocka_unit_test(test_root_bytes),
		cmocka_unit_test(test_inspect_request),
		cmocka_unit_test(test_image_config),
		cmocka_unit_test(test_image_systemd),
		cmocka_unit_test(test_image_dests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
