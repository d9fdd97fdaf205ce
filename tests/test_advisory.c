/*
 * Unit tests of monitor/advisory.c: the GET /version answers of podman
 * 4.3.1 and dockerd 20.10.24 as measured (Debian 12), and which
 * advisories apply to which versions (the fixed releases named in the
 * table).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "monitor/advisory.h"

#define WORKDIR	(1u << ADV_PODMAN_WORKDIR)
#define RUNC	(1u << ADV_RUNC_DEV)
#define BUILDAH	(1u << ADV_BUILDAH_1753)
#define NETAVARK	(1u << ADV_NETAVARK_TEARDOWN)
#define VOLCHOWN	(1u << ADV_PODMAN_VOLUME_CHOWN)
#define WALK	(1u << ADV_ROOTFS_WALK)

/* podman 4.3.1's GET /version, cut to the members read */
static const char podman_431[] =
    "{\"Platform\":{\"Name\":\"linux/amd64/debian-12\"},\"Components\":["
    "{\"Name\":\"Podman Engine\",\"Version\":\"4.3.1\",\"Details\":"
    "{\"APIVersion\":\"4.3.1\"}},{\"Name\":\"Conmon\",\"Version\":\"conmon "
    "version 2.1.6, commit: unknown\"},{\"Name\":\"OCI Runtime (runc)\","
    "\"Version\":\"runc version 1.1.5+ds1\\ncommit: 1.1.5+ds1-1+deb12u1\\n"
    "spec: 1.0.2-dev\\ngo: go1.19.8\\nlibseccomp: 2.5.4\",\"Details\":"
    "{\"Package\":\"runc_1.1.5+ds1-1+deb12u1_amd64\"}}],\"Version\":"
    "\"4.3.1\",\"ApiVersion\":\"1.41\"}";
/* dockerd 20.10.24's */
static const char dockerd_2010[] =
    "{\"Platform\":{\"Name\":\"\"},\"Components\":[{\"Name\":\"Engine\","
    "\"Version\":\"20.10.24+dfsg1\"},{\"Name\":\"containerd\",\"Version\":"
    "\"1.6.20~ds1\"},{\"Name\":\"runc\",\"Version\":\"1.1.5+ds1\","
    "\"Details\":{\"GitCommit\":\"1.1.5+ds1-1+deb12u1\"}},{\"Name\":"
    "\"docker-init\",\"Version\":\"0.19.0\"}],\"Version\":\"20.10.24+dfsg1\"}";

static void
test_parse(void **state)
{
	struct backend_version v;
	char d[160];

	(void)state;
	advisory_parse_version(podman_431, strlen(podman_431), &v);
	assert_true(v.known);
	assert_int_equal(v.engine, ENGINE_PODMAN);
	assert_string_equal(v.version, "4.3.1");
	assert_string_equal(v.runtime, "runc");
	assert_string_equal(v.runtime_version, "1.1.5+ds1");
	assert_int_equal(advisory_applies(&v, 1), WORKDIR | RUNC | BUILDAH |
	    NETAVARK | VOLCHOWN | WALK);
	advisory_describe(&v, 1, d, sizeof(d));
	assert_string_equal(d, "podman 4.3.1, runc 1.1.5+ds1");
	/* no control byte of the backend's words reaches a log line or the
	   line-based instance record (red team: "runc\nsandbox=full") */
	advisory_parse_version("{\"Components\":[{\"Name\":\"Podman Engine\","
	    "\"Version\":\"4.3.1\\u001b[2J\"},{\"Name\":\"OCI Runtime (runc\\n"
	    "sandbox=full)\",\"Version\":\"runc version 1.1.5\\rx\"}]}", 146, &v);
	assert_string_equal(v.version, "4.3.1");
	assert_string_equal(v.runtime, "runc");
	assert_string_equal(v.runtime_version, "1.1.5");

	advisory_parse_version(dockerd_2010, strlen(dockerd_2010), &v);
	assert_true(v.known);
	assert_int_equal(v.engine, ENGINE_DOCKERD);
	assert_string_equal(v.version, "20.10.24+dfsg1");
	assert_string_equal(v.runtime_version, "1.1.5+ds1");
	assert_int_equal(advisory_applies(&v, 0), RUNC | WALK);

	/* nothing readable: a podman (by its _ping) counts as affected */
	advisory_parse_version("not json", 8, &v);
	assert_false(v.known);
	assert_int_equal(advisory_applies(&v, 1), WORKDIR | RUNC | BUILDAH |
	    NETAVARK | VOLCHOWN | WALK);
	assert_int_equal(advisory_applies(&v, 0), RUNC | WALK);
	advisory_describe(&v, 1, d, sizeof(d));
	assert_string_equal(d, "podman, version unknown");
}

/* version, runtime, runtime version -> the bits that apply */
static unsigned
applies(const char *engine, const char *version, const char *runtime,
    const char *rv)
{
	struct backend_version v;

	memset(&v, 0, sizeof(v));
	v.known = 1;
	v.engine = strcmp(engine, "podman") == 0 ? ENGINE_PODMAN :
	    ENGINE_DOCKERD;
	snprintf(v.version, sizeof(v.version), "%s", version);
	snprintf(v.runtime, sizeof(v.runtime), "%s", runtime);
	snprintf(v.runtime_version, sizeof(v.runtime_version), "%s", rv);
	/* podman-rootfs-walk applies to every version of both (test_parse) */
	assert_true(advisory_applies(&v, 0) & WALK);
	return advisory_applies(&v, 0) & ~WALK;
}

static void
test_ranges(void **state)
{
	(void)state;
	/* podman: workdir fixed in 5.7.1, buildah in 4.9.4 and 5.0.1 */
	assert_int_equal(applies("podman", "5.7.0", "crun", "1.14"),
	    WORKDIR | NETAVARK | VOLCHOWN);
	assert_int_equal(applies("podman", "5.7.1", "crun", "1.14"),
	    NETAVARK | VOLCHOWN);
	assert_int_equal(applies("podman", "5.7.1-rc1", "crun", "1.14"),
	    WORKDIR | NETAVARK | VOLCHOWN);
	assert_int_equal(applies("podman", "4.9.4", "crun", "1"),
	    WORKDIR | NETAVARK | VOLCHOWN);
	assert_int_equal(applies("podman", "4.9.3", "crun", "1"),
	    WORKDIR | BUILDAH | NETAVARK | VOLCHOWN);
	assert_int_equal(applies("podman", "5.0.0", "crun", "1"),
	    WORKDIR | BUILDAH | NETAVARK | VOLCHOWN);
	assert_int_equal(applies("podman", "5.0.1", "crun", "1"),
	    WORKDIR | NETAVARK | VOLCHOWN);
	/* runc: fixed in 1.2.8, 1.3.3, 1.4.0-rc.3 */
	assert_int_equal(applies("docker", "28.0.0", "runc", "1.2.7"), RUNC);
	assert_int_equal(applies("docker", "28.0.0", "runc", "1.2.8"), 0);
	assert_int_equal(applies("docker", "28.0.0", "runc", "1.3.0"), RUNC);
	assert_int_equal(applies("docker", "28.0.0", "runc", "1.3.2"), RUNC);
	assert_int_equal(applies("docker", "28.0.0", "runc", "1.3.3"), 0);
	assert_int_equal(applies("docker", "28.0.0", "runc", "1.4.0-rc.2"),
	    RUNC);
	assert_int_equal(applies("docker", "28.0.0", "runc", "1.4.0-rc.3"), 0);
	assert_int_equal(applies("docker", "28.0.0", "runc", "1.4.0"), 0);
	assert_int_equal(applies("docker", "28.0.0", "runc", "garbage"), RUNC);
	assert_int_equal(applies("docker", "28.0.0", "", ""), RUNC);
	assert_int_equal(applies("docker", "28.0.0", "crun", "1.0"), 0);
}

static void
test_status(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	advisory_status_json("--backend=auto\nadvisory=runc-dev-mounts dockerd "
	    "20.10, runc 1.1.5 at /d.sock\nadvisory=bogus x\n", f);
	fclose(f);
	assert_non_null(strstr(buf, "[{\"id\": \"runc-dev-mounts\", "
	    "\"backend\": \"dockerd 20.10, runc 1.1.5 at /d.sock\", "
	    "\"affected\": \"below 1.2.8"));
	assert_null(strstr(buf, "bogus"));
	assert_int_equal(buf[len - 1], ']');
	free(buf);
	f = open_memstream(&buf, &len);
	advisory_status_json("", f);
	fclose(f);
	assert_string_equal(buf, "[]");
	free(buf);
	/* the block appended after start-up replaces the first */
	f = open_memstream(&buf, &len);
	advisory_status_json("advisory=runc-dev-mounts podman (runtime not "
	    "asked yet) at /p.sock\nadvisory=podman-workdir podman at /p.sock\n"
	    "advisories=final\nadvisory=podman-workdir podman 4.3.1 at "
	    "/p.sock\n", f);
	fclose(f);
	assert_null(strstr(buf, "runc-dev-mounts"));
	assert_non_null(strstr(buf, "\"backend\": \"podman 4.3.1 at /p.sock\""));
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
