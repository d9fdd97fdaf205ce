/*
 * Unit tests of monitor/exchange/usage.c (doc/answers.md): the per-project df computed
 * from the backends' own answers, in the shapes measured on podman 4.3.1 and
 * dockerd 20.10 (tests/integration/usability.sh u_measure keeps those shapes
 * as a live test), and the pod count of the system prune pre-check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "monitor/exchange/usage.h"

#define ROOT	"/home/u/proj"
#define OWN	"{\"org.apache.magpie.project\":\"/home/u/proj\"}"
#define OTHER	"{\"org.apache.magpie.project\":\"/home/u/proj2\"}"

#define C	CG_API_COMPAT
#define L	CG_API_LIBPOD
#define P	CG_PODMAN
#define D	CG_DOCKER

/* usage_df on the four bodies; compare with want (NULL: must be -1). */
static void
check(enum cg_api api, enum cg_kind be, const char *ctrs, const char *vols,
    const char *imgs, const char *df, const char *want)
{
	struct usage_src in = {
		.containers = ctrs, .containers_len = ctrs ? strlen(ctrs) : 0,
		.volumes = vols, .volumes_len = vols ? strlen(vols) : 0,
		.images = imgs, .images_len = imgs ? strlen(imgs) : 0,
		.df = df, .df_len = df ? strlen(df) : 0,
	};
	char *out = NULL;
	size_t len = 0;
	int rc = usage_df(api, be, ROOT, &in, &out, &len);

	if (want == NULL) {
		if (rc != -1)
			fail_msg("accepted:\n  df %s\n  -> %s", df, out);
		free(out);
		return;
	}
	if (rc != 0)
		fail_msg("refused: df %s", df);
	assert_int_equal(len, strlen(out));
	if (strcmp(out, want) != 0)
		fail_msg("\n  got  %s\n  want %s", out, want);
	free(out);
}

/*
 * Compat on podman (shapes as measured): the compat df answers empty
 * Labels and tag-only RepoTags and ids without "sha256:"; the lists are
 * right. Our container and volume come from the lists, the volume's
 * usage from the df; the shared image is marked wholly shared and counts
 * only our container; our built image keeps the df's shared size.
 */
static void
test_compat_podman(void **state)
{
	static const char ctrs[] = "[{\"Id\":\"c1\",\"Names\":[\"/own\"],"
	    "\"ImageID\":\"sha256:i1\",\"SizeRw\":102412,\"SizeRootFs\":1984230,"
	    "\"Labels\":" OWN "},{\"Id\":\"c2\",\"Names\":[\"/theirs\"],"
	    "\"ImageID\":\"sha256:i1\",\"Labels\":" OTHER "}]";
	static const char vols[] = "{\"Volumes\":[{\"Name\":\"va\",\"Labels\":"
	    OWN "},{\"Name\":\"vb\",\"Labels\":" OTHER "}],\"Warnings\":[]}";
	static const char imgs[] = "[{\"Id\":\"sha256:i1\",\"RepoTags\":"
	    "[\"localhost/busybox:latest\"],\"Labels\":null,\"Containers\":2,"
	    "\"SharedSize\":0,\"Size\":2131015},{\"Id\":\"sha256:i2\","
	    "\"RepoTags\":[\"localhost/built:1\"],\"Labels\":" OWN ","
	    "\"Containers\":0,\"SharedSize\":0,\"Size\":2140660}]";
	static const char df[] = "{\"LayersSize\":0,\"Images\":[{\"Id\":\"i1\","
	    "\"RepoTags\":[\"latest\"],\"Labels\":{},\"SharedSize\":0,"
	    "\"Size\":2131015},{\"Id\":\"i2\",\"RepoTags\":[\"1\"],\"Labels\":{},"
	    "\"SharedSize\":2140488,\"Size\":2140660}],\"Containers\":[{\"Id\":"
	    "\"c1\",\"Names\":[\"own\"],\"Labels\":{}},{\"Id\":\"c2\",\"Names\":"
	    "[\"theirs\"],\"Labels\":{}}],\"Volumes\":[{\"Name\":\"vb\",\"Labels\":"
	    "{},\"UsageData\":{\"RefCount\":1,\"Size\":512000}},{\"Name\":\"va\","
	    "\"Labels\":{},\"UsageData\":{\"RefCount\":1,\"Size\":307200}}],"
	    "\"BuildCache\":[],\"BuilderSize\":0}";
	static const char want[] = "{\"LayersSize\":172,\"Images\":[{\"Id\":"
	    "\"sha256:i1\",\"RepoTags\":[\"localhost/busybox:latest\"],"
	    "\"Labels\":null,\"Containers\":1,\"SharedSize\":2131015,"
	    "\"Size\":2131015},{\"Id\":\"sha256:i2\",\"RepoTags\":"
	    "[\"localhost/built:1\"],\"Labels\":" OWN ",\"Containers\":0,"
	    "\"SharedSize\":2140488,\"Size\":2140660}],\"Containers\":[{\"Id\":"
	    "\"c1\",\"Names\":[\"/own\"],\"ImageID\":\"sha256:i1\",\"SizeRw\":"
	    "102412,\"SizeRootFs\":1984230,\"Labels\":" OWN "}],\"Volumes\":"
	    "[{\"Name\":\"va\",\"Labels\":" OWN ",\"UsageData\":{\"RefCount\":1,"
	    "\"Size\":307200}}],\"BuildCache\":[],\"BuilderSize\":0}";

	(void)state;
	check(C, P, ctrs, vols, imgs, df, want);
}

/*
 * Compat on dockerd (shapes as measured): the list leaves Containers and
 * SharedSize at -1 (not computed), the df has them; BuildCache null. A
 * volume the df does not know (created meanwhile) gets usage -1.
 */
static void
test_compat_dockerd(void **state)
{
	static const char ctrs[] = "[{\"Id\":\"c1\",\"Names\":[\"/own\"],"
	    "\"ImageID\":\"sha256:i2\",\"SizeRootFs\":2086630,\"Labels\":" OWN
	    "}]";
	static const char vols[] = "{\"Volumes\":[{\"Name\":\"va\",\"Labels\":"
	    OWN "}],\"Warnings\":null}";
	static const char imgs[] = "[{\"Containers\":-1,\"Id\":\"sha256:i1\","
	    "\"Labels\":null,\"SharedSize\":-1,\"Size\":1984230},{\"Containers\":"
	    "-1,\"Id\":\"sha256:i2\",\"Labels\":" OWN ",\"SharedSize\":-1,"
	    "\"Size\":1984238}]";
	static const char df[] = "{\"LayersSize\":1984238,\"Images\":[{\"Id\":"
	    "\"sha256:i2\",\"SharedSize\":1984230,\"Size\":1984238}],"
	    "\"Containers\":[],\"Volumes\":null,\"BuildCache\":null,"
	    "\"BuilderSize\":0}";
	static const char want[] = "{\"LayersSize\":8,\"Images\":[{\"Containers\":"
	    "0,\"Id\":\"sha256:i1\",\"Labels\":null,\"SharedSize\":1984230,"
	    "\"Size\":1984230},{\"Containers\":1,\"Id\":\"sha256:i2\",\"Labels\":"
	    OWN ",\"SharedSize\":1984230,\"Size\":1984238}],\"Containers\":[{"
	    "\"Id\":\"c1\",\"Names\":[\"/own\"],\"ImageID\":\"sha256:i2\","
	    "\"SizeRootFs\":2086630,\"Labels\":" OWN "}],\"Volumes\":[{\"Name\":"
	    "\"va\",\"Labels\":" OWN ",\"UsageData\":{\"RefCount\":-1,\"Size\":"
	    "-1}}],\"BuildCache\":[],\"BuilderSize\":0}";

	(void)state;
	check(C, D, ctrs, vols, imgs, df, want);
	/* a volume list answered null: no volume of ours */
	check(C, D, "[]", "{\"Volumes\":null,\"Warnings\":null}", "[]",
	    "{\"Images\":[],\"Containers\":[],\"Volumes\":[]}",
	    "{\"LayersSize\":0,\"Images\":[],\"Containers\":[],\"Volumes\":[],"
	    "\"BuildCache\":[],\"BuilderSize\":0}");
}

/*
 * Libpod (podman --remote system df; shapes as measured): the df's
 * containers and volumes kept to ours by ContainerID and VolumeName;
 * images as the df has them, the shared ones wholly shared.
 */
static void
test_libpod(void **state)
{
	static const char ctrs[] = "[{\"Id\":\"c1\",\"Names\":[\"own\"],"
	    "\"Labels\":" OWN "},{\"Id\":\"c2\",\"Labels\":" OTHER "}]";
	static const char vols[] = "[{\"Name\":\"va\",\"Labels\":" OWN "},"
	    "{\"Name\":\"vb\",\"Labels\":" OTHER "}]";
	static const char imgs[] = "[{\"Id\":\"i1\",\"Labels\":null},{\"Id\":"
	    "\"i2\",\"Labels\":" OWN "}]";
	static const char df[] = "{\"Images\":[{\"Repository\":"
	    "\"localhost/busybox\",\"Tag\":\"latest\",\"ImageID\":\"i1\","
	    "\"Size\":2131015,\"SharedSize\":0,\"UniqueSize\":2131015,"
	    "\"Containers\":2},{\"Repository\":\"localhost/built\",\"Tag\":\"1\","
	    "\"ImageID\":\"i2\",\"Size\":2140660,\"SharedSize\":2140488,"
	    "\"UniqueSize\":172,\"Containers\":0}],\"Containers\":[{"
	    "\"ContainerID\":\"c1\",\"Image\":\"i1\",\"RWSize\":102412,"
	    "\"Names\":\"own\"},{\"ContainerID\":\"c2\",\"Image\":\"i1\","
	    "\"RWSize\":12,\"Names\":\"theirs\"}],\"Volumes\":[{\"VolumeName\":"
	    "\"va\",\"Links\":1,\"Size\":307200,\"ReclaimableSize\":0},{"
	    "\"VolumeName\":\"vb\",\"Links\":1,\"Size\":512000,"
	    "\"ReclaimableSize\":0}]}";
	static const char want[] = "{\"Images\":[{\"Repository\":"
	    "\"localhost/busybox\",\"Tag\":\"latest\",\"ImageID\":\"i1\","
	    "\"Size\":2131015,\"SharedSize\":2131015,\"UniqueSize\":0,"
	    "\"Containers\":1},{\"Repository\":\"localhost/built\",\"Tag\":\"1\","
	    "\"ImageID\":\"i2\",\"Size\":2140660,\"SharedSize\":2140488,"
	    "\"UniqueSize\":172,\"Containers\":0}],\"Containers\":[{"
	    "\"ContainerID\":\"c1\",\"Image\":\"i1\",\"RWSize\":102412,"
	    "\"Names\":\"own\"}],\"Volumes\":[{\"VolumeName\":\"va\",\"Links\":1,"
	    "\"Size\":307200,\"ReclaimableSize\":0}]}";

	(void)state;
	check(L, P, ctrs, vols, imgs, df, want);
	/* libpod is podman's API only */
	check(L, D, ctrs, vols, imgs, df, NULL);
}

/* Answers that are not the measured shapes: refused, never guessed. */
static void
test_unexpected(void **state)
{
	static const char ok_df[] = "{\"Images\":[],\"Containers\":[],"
	    "\"Volumes\":[]}";

	(void)state;
	/* the conformance kit's fake daemon answers df with {} */
	check(C, P, "[]", "{\"Volumes\":[]}", "[]", "{}", NULL);
	check(L, P, "[]", "[]", "[]", "{}", NULL);
	check(C, P, "[]", "{\"Volumes\":[]}", "[]", "[]", NULL);
	check(C, P, "[]", "{\"Volumes\":[]}", "[]", "not json", NULL);
	check(C, P, "[]", "{\"Volumes\":[]}", "[]", NULL, NULL);
	check(C, P, "[]", "{\"Volumes\":[]}", "[]",
	    "{\"Images\":[],\"Containers\":[],\"Volumes\":{}}", NULL);
	check(C, P, "[]", "{\"Volumes\":[]}", "[]",
	    "{\"Images\":[],\"images\":[],\"Containers\":[],\"Volumes\":[]}",
	    NULL);
	/* lists that are not lists, or that the list filter refuses */
	check(C, P, "{}", "{\"Volumes\":[]}", "[]", ok_df, NULL);
	check(C, P, "[]", "[]", "[]", ok_df, NULL);
	check(C, P, "[]", "{\"Warnings\":[]}", "[]", ok_df, NULL);
	check(C, P, "[]", "{\"Volumes\":[]}", "{}", ok_df, NULL);
	check(C, P, "[{\"Id\":\"c\",\"id\":\"d\",\"Labels\":" OWN "}]",
	    "{\"Volumes\":[]}", "[]", ok_df, NULL);
	/* an image without a numeric Size or an id, a volume without a name */
	check(C, P, "[]", "{\"Volumes\":[]}", "[{\"Id\":\"i\",\"Size\":\"1\"}]",
	    ok_df, NULL);
	check(C, P, "[]", "{\"Volumes\":[]}", "[{\"Size\":1}]", ok_df, NULL);
	check(C, P, "[]", "{\"Volumes\":[{\"Labels\":" OWN "}]}", "[]", ok_df,
	    NULL);
	check(L, P, "[]", "[]", "[]", "{\"Images\":[],\"Containers\":[{}],"
	    "\"Volumes\":[]}", NULL);
}

static void
pods(const char *body, int want_rc, unsigned want_n, enum cg_kind be)
{
	unsigned n = 12345;
	int rc = usage_foreign_pods(be, ROOT, body, strlen(body), &n);

	assert_int_equal(rc, want_rc);
	if (rc == 0)
		assert_int_equal(n, want_n);
}

/* The system prune pre-check's count: every pod that is not ours. */
static void
test_foreign_pods(void **state)
{
	(void)state;
	pods("[]", 0, 0, P);
	pods("[{\"Name\":\"a\",\"Labels\":" OWN "}]", 0, 0, P);
	pods("[{\"Name\":\"a\",\"Labels\":" OWN "},{\"Name\":\"b\",\"Labels\":"
	    OTHER "},{\"Name\":\"u\",\"Labels\":null},{\"Name\":\"v\"}]", 0, 3, P);
	/* a label key spelled otherwise is not ours */
	pods("[{\"Name\":\"a\",\"Labels\":{\"ORG.apache.magpie.project\":"
	    "\"/home/u/proj\"}}]", 0, 1, P);
	pods("{}", -1, 0, P);
	pods("[1]", -1, 0, P);
	pods("[{\"Name\":\"a\",\"name\":\"b\"}]", -1, 0, P);
	pods("nope", -1, 0, P);
	pods("[]", -1, 0, D);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compat_podman),
		cmocka_unit_test(test_compat_dockerd),
		cmocka_unit_test(test_libpod),
		cmocka_unit_test(test_unexpected),
		cmocka_unit_test(test_foreign_pods),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
