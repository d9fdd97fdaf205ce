/*
 * Unit tests of the monitor's events stream filter (monitor/exchange/evfilter.c;
 * routes.md §8 as amended on 2026-12-07): only the project's events, and
 * among them those matching the client's label filter as podman 4.3.1
 * reads it (ORed values, keys read case-insensitively before their first
 * '=', a value without '=' matching nothing: measured by
 * tests/integration/filters.sh), line by line across any split of the
 * stream.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "monitor/exchange/evfilter.h"
#include "monitor/exchange/exchange.h"

#define ROOT	"/home/u/proj"
#define OWN	"\"org.apache.magpie.project\":\"" ROOT "\""
#define EV(attrs) "{\"status\":\"create\",\"id\":\"c1\",\"Type\":\"container\"," \
	"\"Action\":\"create\",\"Actor\":{\"ID\":\"c1\",\"Attributes\":{" attrs \
	"}},\"time\":1}"

static int
keep(enum cg_kind be, const char *filters, const char *line)
{
	struct evfilter *f = evfilter_new(be, ROOT, filters);
	int k = evfilter_keep(f, line, strlen(line));

	evfilter_free(f);
	return k;
}

/* Only the project's events, whatever the filters. */
static void
test_project(void **state)
{
	static const char *const fs[] = {
		NULL, "{}", "{\"label\":[\"org.apache.magpie.project=" ROOT "\"]}",
		"not json", "[]",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		assert_true(keep(CG_PODMAN, fs[i], EV(OWN ",\"name\":\"x\"")));
		assert_true(keep(CG_DOCKER, fs[i], EV(OWN)));
		assert_false(keep(CG_PODMAN, fs[i],
		    EV("\"org.apache.magpie.project\":\"/srv/other\"")));
		assert_false(keep(CG_DOCKER, fs[i],
		    EV("\"org.apache.magpie.project\":\"/srv/other\"")));
		assert_false(keep(CG_PODMAN, fs[i], EV("\"name\":\"x\"")));
		/* spellings and shapes the project label is not */
		assert_false(keep(CG_PODMAN, fs[i],
		    EV("\"ORG.apache.magpie.project\":\"" ROOT "\"")));
		assert_false(keep(CG_PODMAN, fs[i],
		    EV("\"org.apache.magpie.project\":\"" ROOT "/\"")));
		assert_false(keep(CG_PODMAN, fs[i],
		    EV(OWN ",\"org.apache.magpie.project\":\"/srv/o\"")));
		assert_false(keep(CG_PODMAN, fs[i],
		    EV("\"org.apache.magpie.project\":1")));
		assert_false(keep(CG_PODMAN, fs[i],
		    "{\"Actor\":{\"Attributes\":{" OWN "}},\"Actor\":{}}"));
		assert_false(keep(CG_PODMAN, fs[i], "{\"Attributes\":{" OWN
		    "}}"));
		assert_false(keep(CG_PODMAN, fs[i], "[" EV(OWN) "]"));
		assert_false(keep(CG_PODMAN, fs[i], ""));
		assert_false(keep(CG_PODMAN, fs[i], "{"));
	}
}

/* podman: the client's label values are ORed, read as podman reads them. */
static void
test_podman_labels(void **state)
{
	static const char ab[] = "{\"label\":[\"a=x\",\"b=y\"]}";

	(void)state;
	assert_true(keep(CG_PODMAN, ab, EV(OWN ",\"a\":\"x\"")));
	assert_true(keep(CG_PODMAN, ab, EV(OWN ",\"b\":\"y\"")));
	assert_true(keep(CG_PODMAN, ab, EV(OWN ",\"a\":\"x\",\"b\":\"z\"")));
	assert_false(keep(CG_PODMAN, ab, EV(OWN)));
	assert_false(keep(CG_PODMAN, ab, EV(OWN ",\"a\":\"xx\"")));
	assert_false(keep(CG_PODMAN, ab, EV(OWN ",\"A\":\"x\"")));
	assert_false(keep(CG_PODMAN, ab,
	    EV("\"org.apache.magpie.project\":\"/srv/o\",\"a\":\"x\"")));
	/* a value without '=' matches nothing on podman */
	assert_false(keep(CG_PODMAN, "{\"label\":[\"a\"]}",
	    EV(OWN ",\"a\":\"x\"")));
	/* keys podman reads as label */
	assert_true(keep(CG_PODMAN, "{\"Label\":[\"a=x\"]}",
	    EV(OWN ",\"a\":\"x\"")));
	assert_false(keep(CG_PODMAN, "{\"Label\":[\"a=x\"]}", EV(OWN)));
	assert_true(keep(CG_PODMAN, "{\"label=a\":[\"x\"]}",
	    EV(OWN ",\"a\":\"x\"")));
	assert_false(keep(CG_PODMAN, "{\"label=a\":[\"x\"]}", EV(OWN)));
	assert_true(keep(CG_PODMAN, "{\"label\":[\"a=x=y\"]}",
	    EV(OWN ",\"a\":\"x=y\"")));
	/* other keys are the backend's: not applied here */
	assert_true(keep(CG_PODMAN, "{\"type\":[\"image\"],\"labels\":[\"a=x\"]}",
	    EV(OWN)));
	/* another project's label as a client value widens nothing */
	assert_false(keep(CG_PODMAN,
	    "{\"label\":[\"org.apache.magpie.project=/srv/o\"]}",
	    EV("\"org.apache.magpie.project\":\"/srv/o\"")));
	assert_false(keep(CG_PODMAN,
	    "{\"label\":[\"org.apache.magpie.project=/srv/o\"]}", EV(OWN)));
	/* docker ANDs the labels itself: only the project is checked here */
	assert_true(keep(CG_DOCKER, ab, EV(OWN)));
}

/* Line by line across any split of the stream. */
static void
test_stream(void **state)
{
	static const char s[] = EV(OWN ",\"n\":\"1\"") "\n"
	    EV("\"n\":\"2\"") "\n\n"
	    EV(OWN ",\"n\":\"3\"") "\n" EV(OWN ",\"n\":\"4\"");
	static const char want[] = EV(OWN ",\"n\":\"1\"") "\n"
	    EV(OWN ",\"n\":\"3\"") "\n" EV(OWN ",\"n\":\"4\"") "\n";
	struct evfilter *f;
	char *out;
	size_t outlen, i, step;

	(void)state;
	for (step = 1; step <= sizeof(s); step++) {
		f = evfilter_new(CG_PODMAN, ROOT, NULL);
		out = NULL;
		outlen = 0;
		for (i = 0; i < sizeof(s) - 1; i += step)
			evfilter_feed(f, s + i, i + step < sizeof(s) - 1 ?
			    step : sizeof(s) - 1 - i, &out, &outlen);
		evfilter_end(f, &out, &outlen);
		assert_int_equal(outlen, sizeof(want) - 1);
		assert_memory_equal(out, want, outlen);
		free(out);
		evfilter_free(f);
	}
}

/* A line over EVFILTER_LINE_MAX is dropped whole; the next one is judged. */
static void
test_long_line(void **state)
{
	static const char next[] = EV(OWN) "\n";
	size_t n = EVFILTER_LINE_MAX + 10, i;
	char *big = malloc(n), *out = NULL;
	struct evfilter *f = evfilter_new(CG_PODMAN, ROOT, NULL);
	size_t outlen = 0;

	(void)state;
	assert_non_null(big);
	/* an own event padded with spaces past the limit */
	memset(big, ' ', n);
	memcpy(big, EV(OWN), sizeof(EV(OWN)) - 1);
	for (i = 0; i < n; i += 4096)
		evfilter_feed(f, big + i, n - i < 4096 ? n - i : 4096, &out,
		    &outlen);
	evfilter_feed(f, "\n", 1, &out, &outlen);
	assert_int_equal(outlen, 0);
	evfilter_feed(f, next, sizeof(next) - 1, &out, &outlen);
	assert_int_equal(outlen, sizeof(next) - 1);
	assert_memory_equal(out, next, outlen);
	free(out);
	free(big);
	evfilter_free(f);
}

/* A lower limit (a connection without its stream reserve) drops sooner. */
static void
test_limit(void **state)
{
	static const char next[] = EV(OWN) "\n";
	char big[300], *out = NULL;
	struct evfilter *f = evfilter_new(CG_PODMAN, ROOT, NULL);
	size_t outlen = 0;

	(void)state;
	memset(big, ' ', sizeof(big));
	memcpy(big, EV(OWN), sizeof(EV(OWN)) - 1);
	evfilter_limit(f, sizeof(big) + 1);
	evfilter_feed(f, big, sizeof(big), &out, &outlen);
	evfilter_feed(f, "\n", 1, &out, &outlen);
	assert_int_equal(outlen, sizeof(big) + 1);	/* within: kept */
	free(out);
	out = NULL;
	outlen = 0;
	evfilter_limit(f, sizeof(big) - 1);
	evfilter_feed(f, big, sizeof(big), &out, &outlen);
	evfilter_feed(f, "\n", 1, &out, &outlen);
	assert_int_equal(outlen, 0);
	evfilter_feed(f, next, sizeof(next) - 1, &out, &outlen);
	assert_int_equal(outlen, sizeof(next) - 1);
	free(out);
	evfilter_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_project),
		cmocka_unit_test(test_podman_labels),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
