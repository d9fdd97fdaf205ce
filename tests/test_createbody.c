/*
 * createbody_set_string (monitor/exchange/createbody.h): the image pin's
 * byte splice gives the body a parse, cJSON_SetValuestring and
 * json_serialize gave (monitor/exchange/backend.c pin_image_tree), on
 * json_serialize's output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "monitor/exchange/createbody.h"
#include "policy/json.h"

/* The tree's answer: 0 with *out, or -1 (no such string member). */
static int
by_tree(const char *json, const char *key, const char *value, char **out)
{
	cJSON *tree = json_parse(json, strlen(json), NULL, 0);
	cJSON *v = cJSON_GetObjectItemCaseSensitive(tree, key);

	if (!cJSON_IsString(v) || cJSON_SetValuestring(v, value) == NULL) {
		cJSON_Delete(tree);
		return -1;
	}
	*out = json_serialize(tree, NULL);
	cJSON_Delete(tree);
	return 0;
}

static void
test_splice_equals_tree(void **state)
{
	static const char *const bodies[] = {
		"{\"Image\":\"busybox\"}",
		"{\"Cmd\":[\"a\",\"}\\\"]\"],\"Image\":\"localhost/x:1\",\"n\":-1.5e3}",
		"{\"HostConfig\":{\"Image\":\"no\",\"Binds\":[\"/a:/b\"]},\"Image\":\"x\"}",
		"{\"Labels\":{\"k\":\"v\\\\\"},\"Image\":\"\",\"Image\":\"second\"}",
		"{\"a\":true,\"b\":null,\"c\":[1,[2,{}]],\"Image\":\"y\",\"z\":{}}",
		"{\"image\":\"libpod\",\"Image\":5}",
		"{\"Image\":5}",
		"{\"Imag\":\"x\",\"Images\":\"y\"}",
		"{}",
		"[\"Image\"]",
		"{\"Image\":{\"Image\":\"x\"}}",
	};
	const char *pin = "sha256:" "0123456789abcdef0123456789abcdef"
	    "0123456789abcdef0123456789abcdef";
	char *a, *b, *canon;
	size_t i, alen;
	cJSON *t;
	int ra, rb;

	(void)state;
	for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		/* as c->json always is: json_serialize's output */
		t = json_parse(bodies[i], strlen(bodies[i]), NULL, 0);
		assert_non_null(t);
		canon = json_serialize(t, NULL);
		cJSON_Delete(t);
		a = b = NULL;
		ra = createbody_set_string(canon, strlen(canon), "Image", pin,
		    &a, &alen);
		rb = by_tree(canon, "Image", pin, &b);
		assert_int_equal(ra, rb);
		if (ra == 0) {
			assert_int_equal(alen, strlen(b));
			assert_string_equal(a, b);
		}
		free(a);
		free(b);
		free(canon);
	}
}

static void
test_escaped_key_parses(void **state)
{
	const char *j = "{\"Imag\\u0065\":\"x\"}";
	char *out = NULL;
	size_t len;
	cJSON *t = json_parse(j, strlen(j), NULL, 0);
	char *canon = json_serialize(t, NULL);

	(void)state;
	/* the serialiser writes that key plainly; a raw escape asks for a parse */
	assert_int_equal(createbody_set_string(j, strlen(j), "Image", "y", &out,
	    &len), -2);
	assert_int_equal(createbody_set_string(canon, strlen(canon), "Image",
	    "y", &out, &len), 0);
	assert_string_equal(out, "{\"Image\":\"y\"}");
	free(out);
	free(canon);
	cJSON_Delete(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_splice_equals_tree),
		cmocka_unit_test(test_escaped_key_parses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
