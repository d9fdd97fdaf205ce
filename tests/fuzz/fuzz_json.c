/*
 * libFuzzer entry point: the strict JSON parser (policy/json_parse.c;
 * serialiser and collisions in policy/json.c). Any accepted document must
 * serialise, re-parse, and reach the fixpoint of policy.md §0.6; collision
 * search must not crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
walk(const cJSON *n)
{
	const char *a, *b;

	for (; n != NULL; n = n->next) {
		if (cJSON_IsObject(n))
			(void)json_find_collision(n, 1, &a, &b);
		(void)json_truthy(n);
		walk(n->child);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[128], *s1, *s2;
	size_t l1, l2;
	cJSON *t, *t2;

	t = json_parse((const char *)data, size, err, sizeof(err));
	if (t == NULL)
		return 0;
	walk(t);
	s1 = json_serialize(t, &l1);
	t2 = json_parse(s1, l1, err, sizeof(err));
	if (t2 == NULL)
		abort();
	s2 = json_serialize(t2, &l2);
	if (l1 != l2 || memcmp(s1, s2, l1) != 0)
		abort();
	free(s1);
	free(s2);
	cJSON_Delete(t);
	cJSON_Delete(t2);
	return 0;
}
