/*
 * Unit tests of what the gateway accepts because both daemons do and it
 * carries no policy (doc/leniency.md; policy/lenient.c, http.md §4.1 as
 * amended): which none routes read and discard a body, exec start's legacy and
 * lower-case fields, a name repeated in the create query and body, the legacy
 * empty create fields, commit options repeated in the body. Each accepted
 * request is replayed on its own output (the monitor's fixpoint, privsep.md
 * §9.2); each field that could change a decision has its refusal here. The
 * daemons' own behaviour is measured in tests/integration/libs.sh (scenario
 * measure).
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
#include "tests/policy_ctx.h"

#define ROOT	"/home/u/proj"
#define PROJNET	"cg-p-0123456789abcdef"	/* the project's own network */
#define ID_A	"a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
#define ID_N	"b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"
#define LABELS	"\"Labels\":{\"org.apache.magpie.project\":\"" ROOT "\"}"

/* Containers own1 and ID_A, exec session e1, network n1 (ID_N) are owned. */
static enum cg_fact_result
fake_owned(void *arg, enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, char id_out[CG_ID_MAX + 1])
{
	(void)arg;
	(void)api;
	(void)prefix;
	if ((kind == CG_FACT_CONTAINER && (strcmp(ref, "own1") == 0 ||
	    strcmp(ref, ID_A) == 0)) ||
	    (kind == CG_FACT_EXEC && strcmp(ref, "e1") == 0)) {
		snprintf(id_out, CG_ID_MAX + 1, "%s", ID_A);
		return CG_OWNED;
	}
	if (kind == CG_FACT_NETWORK && (strcmp(ref, "n1") == 0 ||
	    strcmp(ref, ID_N) == 0)) {
		snprintf(id_out, CG_ID_MAX + 1, "%s", ID_N);
		return CG_OWNED;
	}
	if (kind == CG_FACT_PROJNET && strcmp(ref, CG_PROJNET_REF) == 0) {
		snprintf(id_out, CG_ID_MAX + 1, "%s", PROJNET);
		return CG_OWNED;
	}
	return CG_NOT_OWNED;
}

static struct cg_facts facts = { fake_owned, NULL, NULL, NULL };

static int
run(const char *method, const char *target, const char *body,
    struct cg_request *req, struct cg_refusal *r)
{
	struct cg_policy_ctx ctx = policy_test_ctx(ROOT,
	    strstr(target, "/libpod/") ? CG_PODMAN : CG_DOCKER, CG_PODMAN, &facts);

	memset(r, 0, sizeof(*r));
	if (policy_route(&ctx, method, target, strlen(target), 0, req, r) != 0)
		return -1;
	return policy_finish(&ctx, req, body, body ? strlen(body) : 0, r);
}

/*
 * Must pass: forwarded as want_target with body want_body (NULL: no body),
 * and the forwarded request is a fixpoint of the whole policy.
 */
static void
pass(const char *method, const char *target, const char *body,
    const char *want_target, const char *want_body)
{
	struct cg_request req, again;
	struct cg_refusal r;

	if (run(method, target, body, &req, &r) != 0)
		fail_msg("%s %s %s refused: %s: %s", method, target,
		    body ? body : "", r.code, r.detail);
	assert_string_equal(req.target, want_target);
	if (want_body == NULL)
		assert_null(req.body);
	else if (req.body == NULL || strcmp(req.body, want_body) != 0)
		fail_msg("%s %s %s: body\n  %s\nwanted\n  %s", method, target,
		    body, req.body ? req.body : "(none)", want_body);
	if (run(method, req.target, req.body, &again, &r) != 0)
		fail_msg("replay of %s %s refused: %s: %s", req.target,
		    req.body ? req.body : "", r.code, r.detail);
	assert_string_equal(again.target, req.target);
	if (want_body != NULL)
		assert_string_equal(again.body, req.body);
	policy_request_free(&again);
	policy_request_free(&req);
}

static void
refuse(const char *method, const char *target, const char *body,
    const char *code, const char *detail)
{
	struct cg_request req;
	struct cg_refusal r;

	if (run(method, target, body, &req, &r) == 0)
		fail_msg("%s %s %s allowed: %s %s", method, target, body,
		    req.target, req.body ? req.body : "");
	if (strcmp(r.code, code) != 0 || (detail != NULL &&
	    strcmp(r.detail, detail) != 0))
		fail_msg("%s %s %s: %s: %s; wanted %s: %s", method, target,
		    body, r.code, r.detail, code, detail ? detail : "*");
	policy_request_free(&req);
}

/* http.md §4.1 as amended: which none routes read and discard a body. */
static void
test_none_body_discarded(void **state)
{
	static const struct {
		enum cg_kind sock;
		const char *method, *target;
		int discarded;
	} cs[] = {
		/* dockerode repeats its query options as a JSON body here */
		{ CG_DOCKER, "POST", "/containers/c1/stop?t=1", 1 },
		{ CG_DOCKER, "POST", "/containers/c1/restart?t=1", 1 },
		{ CG_DOCKER, "POST", "/containers/c1/kill?signal=KILL", 1 },
		{ CG_DOCKER, "POST", "/containers/c1/rename?name=x", 1 },
		{ CG_DOCKER, "POST", "/containers/c1/resize?h=1&w=2", 1 },
		{ CG_DOCKER, "POST", "/containers/c1/wait", 1 },
		{ CG_DOCKER, "POST", "/containers/prune", 1 },
		{ CG_DOCKER, "POST", "/volumes/prune", 1 },
		{ CG_DOCKER, "POST", "/networks/prune", 1 },
		{ CG_DOCKER, "POST", "/images/prune", 1 },
		{ CG_DOCKER, "DELETE", "/containers/c1?force=1", 1 },
		{ CG_PODMAN, "POST", "/v4.3.1/libpod/pods/p1/stop", 1 },
		{ CG_DOCKER, "POST", "/exec/e1/resize?h=1&w=2", 1 },
		/* B20: a start body stays refused (unless {} / null) */
		{ CG_DOCKER, "POST", "/containers/c1/start", 0 },
		{ CG_DOCKER, "POST", "/v1.24/containers/c1/start", 0 },
		{ CG_PODMAN, "POST", "/v4.3.1/libpod/pods/p1/start", 0 },
		/* hijack: bytes before the upgrade belong to the stream */
		{ CG_DOCKER, "POST", "/containers/c1/attach?stream=1", 0 },
		/* not none routes: their bodies are policed */
		{ CG_DOCKER, "POST", "/containers/create", 0 },
		{ CG_DOCKER, "POST", "/exec/e1/start", 0 },
		{ CG_DOCKER, "PUT", "/containers/c1/archive?path=%2F", 0 },
	};
	struct cg_policy_ctx ctx;
	struct cg_request req;
	struct cg_refusal r;
	size_t i;

	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	ctx.root = ROOT;
	for (i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		ctx.socket_kind = cs[i].sock;
		if (policy_route(&ctx, cs[i].method, cs[i].target,
		    strlen(cs[i].target), 0, &req, &r) != 0)
			fail_msg("%s refused: %s", cs[i].target, r.code);
		if (policy_none_body_discarded(&req) != cs[i].discarded)
			fail_msg("%s %s: discarded %d, wanted %d", cs[i].method,
			    cs[i].target, !cs[i].discarded, cs[i].discarded);
		policy_request_free(&req);
	}
	/* the start body that stays refused (test_policy_driver: more) */
	assert_false(policy_empty_body_ok("{\"HostConfig\":{}}", 17));
}

/* Must pass with the body fields dropped noted as want (NULL: none). */
static void
dropped(const char *method, const char *target, const char *body,
    const char *want)
{
	struct cg_request req;
	struct cg_refusal r;

	if (run(method, target, body, &req, &r) != 0)
		fail_msg("%s %s %s refused: %s: %s", method, target, body,
		    r.code, r.detail);
	if (want == NULL)
		assert_null(req.body_dropped);
	else if (req.body_dropped == NULL ||
	    strcmp(req.body_dropped, want) != 0)
		fail_msg("%s: dropped %s, wanted %s", body,
		    req.body_dropped ? req.body_dropped : "(none)", want);
	policy_request_free(&req);
}

/*
 * Exec start (policy.md §8.2; doc/leniency.md): both daemons decode the
 * body into a struct of Detach, Tty (podman: h, w; docker 1.42: ConsoleSize)
 * and ignore every other member (measured: libs.sh measure): dockerode's
 * hijack and stdin, go-dockerclient's InputStream, OutputStream,
 * ErrorStream and RawTerminal, whatever their values, are dropped; a lone
 * case variant is read as the field (Go's case-insensitive match) and
 * renamed; two spellings of one field stay refused (§0.2); null is no body
 * (forwarded as {}: podman 4.3.1 fails both null and empty).
 */
static void
test_exec_start(void **state)
{
	(void)state;
	pass("POST", "/exec/e1/start", "{\"hijack\":true,\"stdin\":true}",
	    "/exec/e1/start", "{}");
	pass("POST", "/exec/e1/start",
	    "{\"stdin\":true,\"Detach\":false,\"Tty\":false}",
	    "/exec/e1/start", "{\"Detach\":false,\"Tty\":false}");
	pass("POST", "/exec/e1/start", "{\"detach\":true,\"tty\":false,\"H\":1}",
	    "/exec/e1/start", "{\"Detach\":true,\"Tty\":false,\"h\":1}");
	pass("POST", "/exec/e1/start", "{\"Hijack\":1,\"STDIN\":0,\"h\":2}",
	    "/exec/e1/start", "{\"h\":2}");
	/* go-dockerclient's StartExecOptions */
	pass("POST", "/v1.41/exec/e1/start", "{\"InputStream\":null,"
	    "\"OutputStream\":{},\"ErrorStream\":null,\"Detach\":true,"
	    "\"RawTerminal\":false}", "/v1.41/exec/e1/start",
	    "{\"Detach\":true}");
	dropped("POST", "/exec/e1/start", "{\"InputStream\":null,"
	    "\"OutputStream\":{},\"ErrorStream\":null,\"RawTerminal\":true,"
	    "\"Tty\":true}", "InputStream, OutputStream, ErrorStream, "
	    "RawTerminal");
	dropped("POST", "/exec/e1/start", "{\"Tty\":true}", NULL);
	/* exec options are set at create: here both daemons ignore them */
	pass("POST", "/exec/e1/start", "{\"hijack\":true,\"Privileged\":true,"
	    "\"Env\":[\"A=b\"]}", "/exec/e1/start", "{}");
	pass("POST", "/exec/e1/start", "null", "/exec/e1/start", "{}");
	pass("POST", "/exec/e1/start", " null\n", "/exec/e1/start", "{}");
	refuse("POST", "/exec/e1/start", "{\"detach\":true,\"Detach\":false}",
	    "ambiguous-field", "Detach and detach name the same field");
	refuse("POST", "/exec/e1/start", "[]", "malformed", NULL);
	/* exec remove (libpod): Force only */
	pass("POST", "/v4.3.1/libpod/exec/e1/remove",
	    "{\"force\":true,\"Bogus\":1}", "/v4.3.1/libpod/exec/e1/remove",
	    "{\"Force\":true}");
}

/*
 * Network connect and disconnect (policy.md §12.3; doc/leniency.md): both
 * daemons read compat connect as {Container, EndpointConfig}, disconnect
 * (compat and libpod) as {Container, Force} and libpod connect as podman's
 * NetworkConnectOptions. go-dockerclient sends Force on connect too,
 * docker-api (Ruby) a lower-case container: dropped and renamed. The
 * container is still checked and rewritten to its id; a foreign one is
 * 404; per-network options stay refused.
 */
static void
test_connect(void **state)
{
	(void)state;
	pass("POST", "/v1.41/networks/n1/connect",
	    "{\"Container\":\"own1\",\"Force\":false}",
	    "/v1.41/networks/" ID_N "/connect", "{\"Container\":\"" ID_A "\"}");
	pass("POST", "/v1.41/networks/n1/connect",
	    "{\"container\":\"own1\",\"EndpointConfig\":null}",
	    "/v1.41/networks/" ID_N "/connect",
	    "{\"Container\":\"" ID_A "\",\"EndpointConfig\":null}");
	pass("POST", "/v1.41/networks/n1/disconnect",
	    "{\"container\":\"own1\",\"force\":true,\"Bogus\":[1]}",
	    "/v1.41/networks/" ID_N "/disconnect",
	    "{\"Container\":\"" ID_A "\",\"Force\":true}");
	pass("POST", "/v4.3.1/libpod/networks/n1/connect",
	    "{\"Container\":\"own1\",\"Aliases\":[\"a\"],\"Force\":1}",
	    "/v4.3.1/libpod/networks/" ID_N "/connect",
	    "{\"container\":\"" ID_A "\",\"aliases\":[\"a\"]}");
	refuse("POST", "/v1.41/networks/n1/connect",
	    "{\"container\":\"own1\",\"Container\":\"own1\"}",
	    "ambiguous-field", NULL);
	refuse("POST", "/v1.41/networks/n1/connect",
	    "{\"container\":\"victim\",\"Force\":true}", "not-found", NULL);
	refuse("POST", "/v1.41/networks/n1/connect", "null", "malformed",
	    "connect needs a container");
	refuse("POST", "/v4.3.1/libpod/networks/n1/connect",
	    "{\"container\":\"own1\",\"Options\":{\"mtu\":\"1\"}}",
	    "network", NULL);
	refuse("POST", "/v1.41/networks/n1/connect",
	    "{\"Container\":\"own1\",\"endpointconfig\":{\"DriverOpts\":"
	    "{\"a\":\"b\"}}}", "network", NULL);
}

/*
 * Compat create: both daemons name the container after the query and
 * ignore the body's name, so an equal copy is dropped and a different one
 * refused. dockerode's run() sends the legacy top-level Volumes {} and
 * VolumesFrom []: dropped when empty; a non-empty top-level VolumesFrom is
 * read by docker 20.10 as HostConfig.VolumesFrom and refused as such.
 */
static void
test_create(void **state)
{
	(void)state;
	pass("POST", "/containers/create?name=x1",
	    "{\"Image\":\"a\",\"name\":\"x1\"}", "/containers/create?name=x1",
	    "{\"Image\":\"a\"," LABELS ",\"HostConfig\":{\"NetworkMode\":\"" PROJNET "\"}}");
	pass("POST", "/containers/create?name=x1",
	    "{\"Name\":\"x1\",\"Image\":\"a\"}", "/containers/create?name=x1",
	    "{\"Image\":\"a\"," LABELS ",\"HostConfig\":{\"NetworkMode\":\"" PROJNET "\"}}");
	refuse("POST", "/containers/create?name=x1",
	    "{\"Image\":\"a\",\"name\":\"x2\"}", "ambiguous-field",
	    "name in the body (x2) differs from name in the query (x1)");
	refuse("POST", "/containers/create?name=x1",
	    "{\"Image\":\"a\",\"name\":1}", "ambiguous-field",
	    "name in the body (not a string) differs from name in the "
	    "query (x1)");
	refuse("POST", "/containers/create?name=x1",
	    "{\"Image\":\"a\",\"name\":\"x1\",\"Name\":\"x1\"}",
	    "ambiguous-field", "Name and name name the same field");
	/* without a query name: as before (Name is podman's extension) */
	pass("POST", "/containers/create", "{\"Image\":\"a\",\"Name\":\"x1\"}",
	    "/containers/create",
	    "{\"Image\":\"a\",\"Name\":\"x1\"," LABELS ",\"HostConfig\":{\"NetworkMode\":\"" PROJNET "\"}}");
	refuse("POST", "/containers/create", "{\"Image\":\"a\",\"name\":\"x1\"}",
	    "ambiguous-field", "name is not the canonical spelling of Name");
	/* dockerode run()'s defaults */
	pass("POST", "/containers/create?name=r1",
	    "{\"Hostname\":\"\",\"User\":\"\",\"AttachStdin\":false,"
	    "\"AttachStdout\":true,\"AttachStderr\":true,\"Tty\":true,"
	    "\"OpenStdin\":false,\"StdinOnce\":false,\"Env\":null,"
	    "\"Cmd\":[\"true\"],\"Image\":\"a\",\"Volumes\":{},"
	    "\"VolumesFrom\":[],\"name\":\"r1\"}",
	    "/containers/create?name=r1",
	    "{\"Hostname\":\"\",\"User\":\"\",\"AttachStdin\":false,"
	    "\"AttachStdout\":true,\"AttachStderr\":true,\"Tty\":true,"
	    "\"OpenStdin\":false,\"StdinOnce\":false,\"Env\":null,"
	    "\"Cmd\":[\"true\"],\"Image\":\"a\"," LABELS ",\"HostConfig\":{\"NetworkMode\":\"" PROJNET "\"}}");
	pass("POST", "/containers/create",
	    "{\"Image\":\"a\",\"Volumes\":null,\"VolumesFrom\":null}",
	    "/containers/create", "{\"Image\":\"a\"," LABELS ",\"HostConfig\":{\"NetworkMode\":\"" PROJNET "\"}}");
	pass("POST", "/containers/create",
	    "{\"Image\":\"a\",\"Volumes\":{\"/data\":{}}}", "/containers/create",
	    "{\"Image\":\"a\",\"Volumes\":{\"/data\":{}}," LABELS
	    ",\"HostConfig\":{\"NetworkMode\":\"" PROJNET "\"}}");
	refuse("POST", "/containers/create",
	    "{\"Image\":\"a\",\"VolumesFrom\":[\"other\"]}", "volumes-from",
	    "--volumes-from is refused; share a named volume instead");
	refuse("POST", "/containers/create",
	    "{\"Image\":\"a\",\"volumesFrom\":[]}", "unknown-field", NULL);
	/* the rules below still apply to what is left */
	refuse("POST", "/containers/create?name=x1",
	    "{\"Image\":\"a\",\"name\":\"x1\",\"HostConfig\":{\"Privileged\":"
	    "true}}", "privileged", NULL);
}

/*
 * Commit (policy.md §13.1): dockerode sends the query options again as the
 * body; both daemons read the query. Equal copies are dropped (a list must
 * match the repeated query values in order), a different one is refused,
 * and the container in the query is still checked and rewritten.
 */
static void
test_commit(void **state)
{
	(void)state;
	pass("POST", "/commit?repo=localhost%2Fx&tag=v1&container=own1",
	    "{\"repo\":\"localhost/x\",\"tag\":\"v1\",\"container\":\"own1\"}",
	    "/commit?repo=localhost%2Fx&tag=v1&container=" ID_A "&pause=true",
	    "{}");
	pass("POST", "/commit?container=own1&pause=true&changes=ENV+a%3D1"
	    "&changes=CMD+x&author=me",
	    "{\"container\":\"own1\",\"pause\":true,\"changes\":[\"ENV a=1\","
	    "\"CMD x\"],\"author\":\"me\",\"Cmd\":[\"sh\"]}",
	    "/commit?container=" ID_A "&changes=ENV%20a%3D1"
	    "&changes=CMD%20x&author=me&pause=true", "{\"Cmd\":[\"sh\"]}");
	refuse("POST", "/commit?container=own1&repo=a",
	    "{\"container\":\"own1\",\"repo\":\"b\"}", "ambiguous-field",
	    "repo in the body differs from repo in the query");
	refuse("POST", "/commit?container=own1",
	    "{\"repo\":\"b\"}", "ambiguous-field",
	    "repo in the body differs from repo in the query");
	refuse("POST", "/commit?container=own1&changes=CMD+x",
	    "{\"changes\":[\"CMD x\",\"LABEL a=b\"]}", "ambiguous-field", NULL);
	/* the query's pause is true whatever was asked (qp_commit) */
	refuse("POST", "/commit?container=own1&pause=1",
	    "{\"pause\":false}", "ambiguous-field", NULL);
	/* the body's container is only a copy: the query's is checked */
	refuse("POST", "/commit?container=own1",
	    "{\"container\":\"victim\"}", "ambiguous-field",
	    "container in the body differs from container in the query");
	refuse("POST", "/commit?container=victim&repo=r",
	    "{\"container\":\"victim\",\"repo\":\"r\"}", "not-found", NULL);
	/* null is no body; members no daemon reads are dropped (docker
	   reads the Config case-insensitively, podman 4.3.1 not at all) */
	pass("POST", "/commit?container=own1", "null",
	    "/commit?container=" ID_A "&pause=true", NULL);
	pass("POST", "/commit?container=own1",
	    "{\"Bogus\":1,\"labels\":{\"a\":\"b\"}}",
	    "/commit?container=" ID_A "&pause=true",
	    "{\"Labels\":{\"a\":\"b\"}}");
	refuse("POST", "/commit?container=own1&repo=r",
	    "{\"labels\":{\"org.apache.magpie.project\":\"/x\"}}",
	    "commit-label", NULL);
	/* ONBUILD in changes, either reading of the line (a later build
	   would run the triggers from its base image) */
	refuse("POST", "/commit?container=own1&changes=ONBUILD+RUN+x", "null",
	    "denied-build-parameter", NULL);
	refuse("POST", "/commit?container=own1&changes=onbuild%3DRUN", "null",
	    "denied-build-parameter", NULL);
	refuse("POST", "/commit?container=own1&changes=%C2%A0OnBuild+RUN+x",
	    "null", "denied-build-parameter", NULL);
	/* decision 7 still holds for the Config part */
	refuse("POST", "/commit?container=own1&repo=r",
	    "{\"repo\":\"r\",\"Labels\":{\"org.apache.magpie.project\":\"/x\"}}",
	    "commit-label", NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none_body_discarded),
		cmocka_unit_test(test_exec_start),
		cmocka_unit_test(test_connect),
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_commit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
