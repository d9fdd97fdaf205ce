/*
 * Unit tests of the monitor's PublishAllPorts / publish_image_ports rewrite
 * (monitor/exchange/publish.c; policy.md rule 20 as amended on 2026-12-07): every
 * exposed port of the image and of the container becomes an explicit
 * 127.0.0.1 binding with an ephemeral host port; ports the client bound
 * keep their binding; nothing else changes; a port the gateway cannot
 * place is refused. The daemons' behaviour is measured live by
 * tests/integration/clients.sh (dockertest's create) and
 * tests/integration/cli.sh s_publish_all (docker run -P, docker port).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "monitor/exchange/publish.h"
#include "policy/json.h"

#define LOOP	"[{\"HostIp\":\"127.0.0.1\",\"HostPort\":\"\"}]"

/* The ExposedPorts of an image inspect answer (what the image step keeps). */
static cJSON *
image_ports(const char *inspect, cJSON **tree)
{
	char err[100];

	*tree = inspect ? json_parse(inspect, strlen(inspect), err,
	    sizeof(err)) : NULL;
	return json_get(json_get(*tree, "Config"), "ExposedPorts");
}

static cJSON *
rewrite(enum cg_api api, const char *body, const char *inspect)
{
	char *out = NULL, detail[200], err[100];
	size_t len;
	cJSON *t, *img;

	if (publish_all_rewrite(api, body, strlen(body), image_ports(inspect,
	    &img), &out, &len, detail) != 0)
		fail_msg("%s refused: %s", body, detail);
	cJSON_Delete(img);
	t = json_parse(out, len, err, sizeof(err));
	assert_non_null(t);
	free(out);
	return t;
}

static void
assert_json(const cJSON *v, const char *want)
{
	char *s = cJSON_PrintUnformatted(v);

	assert_non_null(s);
	if (strcmp(s, want) != 0)
		fail_msg("got %s, wanted %s", s, want);
	free(s);
}

static void
test_compat(void **state)
{
	cJSON *t, *pb;

	(void)state;
	t = rewrite(CG_API_COMPAT, "{\"Image\":\"x\",\"ExposedPorts\":"
	    "{\"80/tcp\":{}},\"HostConfig\":{\"PublishAllPorts\":true,"
	    "\"PortBindings\":{\"81\":[{\"HostIp\":\"127.0.0.1\","
	    "\"HostPort\":\"8081\"}]},\"Memory\":1}}",
	    "{\"Id\":\"sha256:1\",\"Config\":{\"ExposedPorts\":{\"5432/tcp\":{},"
	    "\"53/udp\":{},\"81/tcp\":{},\"80\":{}}}}");
	pb = json_get(json_get(t, "HostConfig"), "PortBindings");
	assert_null(json_get(json_get(t, "HostConfig"), "PublishAllPorts"));
	assert_json(json_get(pb, "5432/tcp"), LOOP);
	assert_json(json_get(pb, "53/udp"), LOOP);
	assert_json(json_get(pb, "80/tcp"), LOOP);
	/* the client's own binding stays; "81" is 81/tcp */
	assert_json(json_get(pb, "81"),
	    "[{\"HostIp\":\"127.0.0.1\",\"HostPort\":\"8081\"}]");
	assert_null(json_get(pb, "81/tcp"));
	assert_int_equal(cJSON_GetArraySize(pb), 4);
	assert_non_null(json_get(json_get(t, "ExposedPorts"), "5432/tcp"));
	assert_json(json_get(json_get(t, "HostConfig"), "Memory"), "1");
	cJSON_Delete(t);

	/* no image (404): the container's own ports */
	t = rewrite(CG_API_COMPAT, "{\"Image\":\"x\",\"ExposedPorts\":"
	    "{\"8080/tcp\":{}},\"HostConfig\":{\"PublishAllPorts\":true,"
	    "\"PortBindings\":null}}", NULL);
	assert_json(json_get(t, "HostConfig"),
	    "{\"PortBindings\":{\"8080/tcp\":" LOOP "}}");
	cJSON_Delete(t);

	/* --network none publishes nothing (the daemon would not either) */
	t = rewrite(CG_API_COMPAT, "{\"Image\":\"x\",\"HostConfig\":"
	    "{\"PublishAllPorts\":true,\"NetworkMode\":\"none\"}}",
	    "{\"Config\":{\"ExposedPorts\":{\"80/tcp\":{}}}}");
	assert_json(json_get(t, "HostConfig"), "{\"NetworkMode\":\"none\"}");
	cJSON_Delete(t);

	/* not asked: unchanged */
	t = rewrite(CG_API_COMPAT, "{\"Image\":\"x\",\"HostConfig\":"
	    "{\"PublishAllPorts\":false}}",
	    "{\"Config\":{\"ExposedPorts\":{\"80/tcp\":{}}}}");
	assert_json(json_get(t, "HostConfig"), "{\"PublishAllPorts\":false}");
	cJSON_Delete(t);
}

static void
test_libpod(void **state)
{
	cJSON *t, *pm;

	(void)state;
	t = rewrite(CG_API_LIBPOD, "{\"image\":\"x\",\"expose\":{\"80\":\"tcp\","
	    "\"53\":\"tcp,udp\"},\"publish_image_ports\":true,\"portmappings\":"
	    "[{\"container_port\":80,\"host_port\":8080,\"host_ip\":"
	    "\"127.0.0.1\"},{\"container_port\":6000,\"range\":3,"
	    "\"protocol\":\"tcp,udp\"}]}",
	    "{\"Config\":{\"ExposedPorts\":{\"5432/tcp\":{},\"6001/udp\":{}}}}");
	assert_null(json_get(t, "publish_image_ports"));
	pm = json_get(t, "portmappings");
	assert_json(pm, "[{\"container_port\":80,\"host_port\":8080,"
	    "\"host_ip\":\"127.0.0.1\"},{\"container_port\":6000,\"range\":3,"
	    "\"protocol\":\"tcp,udp\"},"
	    "{\"container_port\":5432,\"protocol\":\"tcp\",\"host_ip\":\"127.0.0.1\"},"
	    "{\"container_port\":53,\"protocol\":\"tcp\",\"host_ip\":\"127.0.0.1\"},"
	    "{\"container_port\":53,\"protocol\":\"udp\",\"host_ip\":\"127.0.0.1\"}]");
	cJSON_Delete(t);
	t = rewrite(CG_API_LIBPOD, "{\"image\":\"x\",\"publish_image_ports\":true,"
	    "\"netns\":{\"nsmode\":\"none\"}}",
	    "{\"Config\":{\"ExposedPorts\":{\"80/tcp\":{}}}}");
	assert_null(json_get(t, "portmappings"));
	assert_null(json_get(t, "publish_image_ports"));
	cJSON_Delete(t);
}

/* Ports the gateway cannot place, and answers it cannot read, are refused. */
static void
test_refused(void **state)
{
	static const struct {
		enum cg_api api;
		const char *body, *inspect;
	} cs[] = {
		{ CG_API_COMPAT, "{\"HostConfig\":{\"PublishAllPorts\":true}}",
		  "{\"Config\":{\"ExposedPorts\":{\"80-81/tcp\":{}}}}" },
		{ CG_API_COMPAT, "{\"HostConfig\":{\"PublishAllPorts\":true}}",
		  "{\"Config\":{\"ExposedPorts\":{\"0/tcp\":{}}}}" },
		{ CG_API_COMPAT, "{\"HostConfig\":{\"PublishAllPorts\":true}}",
		  "{\"Config\":{\"ExposedPorts\":{\"65536\":{}}}}" },
		{ CG_API_COMPAT, "{\"HostConfig\":{\"PublishAllPorts\":true}}",
		  "{\"Config\":{\"ExposedPorts\":{\"80/TCP\":{}}}}" },
		{ CG_API_COMPAT, "{\"ExposedPorts\":{\"80/icmp\":{}},"
		  "\"HostConfig\":{\"PublishAllPorts\":true}}", NULL },
		{ CG_API_LIBPOD, "{\"publish_image_ports\":true,\"expose\":"
		  "{\"80\":\"tcp,quic\"}}", NULL },
		{ CG_API_LIBPOD, "{\"publish_image_ports\":true,\"expose\":"
		  "{\"123456\":\"tcp\"}}", NULL },
		{ CG_API_COMPAT, "[", NULL },
	};
	char *out = NULL, detail[200];
	size_t i, len;
	cJSON *img;

	(void)state;
	for (i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		if (publish_all_rewrite(cs[i].api, cs[i].body, strlen(cs[i].body),
		    image_ports(cs[i].inspect, &img), &out, &len, detail) != -1)
			fail_msg("%s / %s allowed: %s", cs[i].body,
			    cs[i].inspect ? cs[i].inspect : "-", out);
		cJSON_Delete(img);
	}
}

/* publish_all_wanted on a NUL-terminated body */
static int
wanted(enum cg_api api, const char *body)
{
	char err[100];
	cJSON *t = json_parse(body, strlen(body), err, sizeof(err));
	int w = publish_all_wanted(api, t);

	cJSON_Delete(t);
	return w;
}

static void
test_wanted(void **state)
{
	(void)state;
	assert_true(wanted(CG_API_COMPAT, "{\"Image\":\"localhost/x:1\","
	    "\"HostConfig\":{\"PublishAllPorts\":true}}"));
	assert_true(wanted(CG_API_LIBPOD, "{\"publish_image_ports\":true}"));
	assert_false(wanted(CG_API_COMPAT, "{\"Image\":\"x\","
	    "\"HostConfig\":{\"PublishAllPorts\":false}}"));
	assert_false(wanted(CG_API_COMPAT, "{\"Image\":\"x\"}"));
	assert_false(wanted(CG_API_COMPAT, "{\"publish_image_ports\":true}"));
	assert_false(wanted(CG_API_LIBPOD, "{\"publish_image_ports\":1}"));
	assert_false(wanted(CG_API_COMPAT, "not json"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compat),
		cmocka_unit_test(test_libpod),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_wanted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
