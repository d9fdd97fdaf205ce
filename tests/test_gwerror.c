/*
 * Tests for base/gwerror.c: the exact gateway error response (http.md §11),
 * its HEAD variant, JSON escaping (§11.3), the code -> status table
 * (§11.1) and reason phrases (§11.4).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <cJSON.h>

#include "base/gwerror.h"
#include "http/http.h"

#define S(lit)	lit, sizeof(lit) - 1

/*
 * The closed vocabulary of http.md §11.1 with each status, copied from the
 * spec (not from the code): the tests hold the code to it.
 */
static const struct {
	const char *code;
	int status;
} spec_codes[] = {
	{ "malformed", 400 },
	{ "ambiguous-field", 403 }, { "unknown-field", 403 },
	{ "denied-endpoint", 403 }, { "unknown-endpoint", 403 },
	{ "denied-query", 403 }, { "denied-build-parameter", 403 },
	{ "privileged", 403 }, { "cap-add", 403 }, { "cap-drop", 403 },
	{ "capabilities", 403 }, { "devices", 403 }, { "namespace", 403 },
	{ "network", 403 }, { "security-opt", 403 },
	{ "log-configuration", 403 }, { "annotations", 403 },
	{ "sysctls", 403 }, { "cgroup-parent", 403 }, { "runtime", 403 },
	{ "systemd", 403 },
	{ "isolation", 403 }, { "masked-paths", 403 },
	{ "readonly-paths", 403 }, { "publish-all", 403 }, { "publish", 403 },
	{ "bind-mount", 403 }, { "mount-type", 403 }, { "volume-driver", 403 },
	{ "volumes-from", 403 }, { "egress-required", 403 }, { "rootfs", 403 },
	{ "overlay-volumes", 403 }, { "env-host", 403 }, { "secrets", 403 },
	{ "chroot-directories", 403 }, { "init-path", 403 },
	{ "pid-file", 403 }, { "container-id-file", 403 }, { "links", 403 },
	{ "pod", 403 }, { "dependency-containers", 403 }, { "host-path", 403 },
	{ "remove-image", 403 }, { "commit-label", 403 },
	{ "not-found", 404 },
	{ "too-large", 413 },
	{ "header-too-large", 431 },
	{ "backend-unreachable", 502 },
	{ "too-many-connections", 503 },
	{ "backend-timeout", 504 },
};
#define NSPEC	(sizeof(spec_codes) / sizeof(spec_codes[0]))


static void
test_response_exact_bytes(void **state)
{
	static const char want[] =
	    "HTTP/1.1 400 Bad Request\r\n"
	    "Content-Type: application/json\r\n"
	    "Content-Length: 53\r\n"
	    "Connection: close\r\n"
	    "Container-Gateway: " CG_VERSION "\r\n"
	    "\r\n"
	    "{\"message\":\"container-gateway: malformed: bad thing\"}";
	struct cg_refusal r;
	char *out;
	size_t len;

	(void)state;
	assert_int_equal(cg_refuse_hint(&r, "malformed", CG_HINT_IN_DETAIL,
	    "bad %s", "thing"), -1);
	out = cg_error_response(&r, 0, &len);
	assert_int_equal(len, sizeof(want) - 1);
	assert_memory_equal(out, want, len);
	assert_int_equal(out[len], '\0');
	free(out);

	/* HEAD: same head, Content-Length of the body it would have had */
	out = cg_error_response(&r, 1, &len);
	assert_int_equal(len, strstr(want, "\r\n\r\n") + 4 - want);
	assert_memory_equal(out, want, len);
	free(out);
}

/* The hint follows the detail after "; ": the code's, or a specific one. */
static void
test_response_hint(void **state)
{
	static const char want[] =
	    "HTTP/1.1 403 Forbidden\r\n"
	    "Content-Type: application/json\r\n"
	    "Content-Length: 113\r\n"
	    "Connection: close\r\n"
	    "Container-Gateway: " CG_VERSION "\r\n"
	    "\r\n"
	    "{\"message\":\"container-gateway: cap-add: CAP_SYS_ADMIN is "
	    "refused; run without --cap-add (--cap-drop is allowed)\"}";
	struct cg_refusal r;
	char *out;
	size_t len;

	(void)state;
	cg_refuse(&r, "cap-add", "%s is refused", "CAP_SYS_ADMIN");
	assert_string_equal(r.detail, "CAP_SYS_ADMIN is refused");
	assert_string_equal(r.hint, "");
	out = cg_error_response(&r, 0, &len);
	assert_int_equal(len, sizeof(want) - 1);
	assert_memory_equal(out, want, len);
	free(out);

	/* a specific hint replaces the default; cg_hint formats one */
	cg_refuse_hint(&r, "cap-add", "do %s", "x");
	assert_string_equal(r.hint, "do %s");
	out = cg_error_response(&r, 0, &len);
	assert_non_null(strstr(out, "\"container-gateway: cap-add: x; do %s\"}"));
	free(out);
	cg_hint(&r, "use --%s", "cap-drop");
	out = cg_error_response(&r, 0, &len);
	assert_non_null(strstr(out, "cap-add: x; use --cap-drop\"}"));
	free(out);
}

static void
test_response_exact_bytes_403_escaped(void **state)
{
	static const char want[] =
	    "HTTP/1.1 403 Forbidden\r\n"
	    "Content-Type: application/json\r\n"
	    "Content-Length: 81\r\n"
	    "Connection: close\r\n"
	    "Container-Gateway: " CG_VERSION "\r\n"
	    "\r\n"
	    "{\"message\":\"container-gateway: bind-mount: "
	    "\\\"/etc\\\" \\\\x \\u000a caf\xc3\xa9 \\ufffd /ok\"}";
	struct cg_refusal r;
	char *out;
	size_t len;

	(void)state;
	cg_refuse_hint(&r, "bind-mount", CG_HINT_IN_DETAIL,
	    "\"%s\" \\x \n caf\xc3\xa9 \xff /ok", "/etc");
	out = cg_error_response(&r, 0, &len);
	assert_int_equal(len, sizeof(want) - 1);
	assert_memory_equal(out, want, len);
	free(out);
}

/*
 * Every status: status line, header order, Content-Length equal to the
 * body, body is a one-member JSON object whose message round-trips, and
 * the head parses with the strict response parser.
 */
static void
test_response_every_status(void **state)
{
	static const struct {
		const char *code;
		int status;
		const char *reason;
	} t[] = {
		{ "malformed", 400, "Bad Request" },
		{ "denied-endpoint", 403, "Forbidden" },
		{ "not-found", 404, "Not Found" },
		{ "too-large", 413, "Payload Too Large" },
		{ "header-too-large", 431, "Request Header Fields Too Large" },
		{ "backend-unreachable", 502, "Bad Gateway" },
		{ "too-many-connections", 503, "Service Unavailable" },
		{ "backend-timeout", 504, "Gateway Timeout" },
	};
	struct http_response resp;
	struct cg_refusal r;
	char line[128], msg[CG_DETAIL_MAX + CG_HINT_MAX + 64], *out,
	    *head_only;
	size_t i, len, hlen;
	int head;
	cJSON *j, *m;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cg_refuse(&r, t[i].code, "detail %zu", i);
		assert_int_equal(r.status, t[i].status);
		out = cg_error_response(&r, 0, &len);
		snprintf(line, sizeof(line), "HTTP/1.1 %d %s\r\n"
		    "Content-Type: application/json\r\nContent-Length: ",
		    t[i].status, t[i].reason);
		assert_memory_equal(out, line, strlen(line));

		head = http_parse_response(out, len, &resp);
		assert_true(head > 0);
		assert_int_equal(resp.status, t[i].status);
		assert_int_equal(resp.nfields, 4);
		assert_memory_equal(resp.fields[0].name, "Content-Type", 12);
		assert_memory_equal(resp.fields[1].name, "Content-Length", 14);
		assert_memory_equal(resp.fields[2].name, "Connection", 10);
		assert_int_equal(resp.fields[2].value_len, 5);
		assert_memory_equal(resp.fields[2].value, "close", 5);
		/* every gateway answer says it is one (usability.sh u_chain) */
		assert_int_equal(resp.fields[3].name_len, 17);
		assert_memory_equal(resp.fields[3].name, "Container-Gateway", 17);
		assert_int_equal(resp.fields[3].value_len, strlen(CG_VERSION));
		assert_memory_equal(resp.fields[3].value, CG_VERSION,
		    strlen(CG_VERSION));
		assert_true(resp.has_content_length);
		assert_int_equal(resp.content_length, len - (size_t)head);

		j = cJSON_ParseWithLength(out + head, len - (size_t)head);
		assert_non_null(j);
		assert_int_equal(cJSON_GetArraySize(j), 1);
		m = cJSON_GetObjectItemCaseSensitive(j, "message");
		assert_true(cJSON_IsString(m));
		snprintf(msg, sizeof(msg), "container-gateway: %s: detail %zu; %s",
		    t[i].code, i, cg_code_hint(t[i].code));
		assert_string_equal(m->valuestring, msg);
		cJSON_Delete(j);

		head_only = cg_error_response(&r, 1, &hlen);
		assert_int_equal(hlen, (size_t)head);
		assert_memory_equal(head_only, out, hlen);
		free(head_only);
		free(out);
	}
}

/* A detail at the CG_DETAIL_MAX limit still gives a consistent response. */
static void
test_response_long_detail(void **state)
{
	struct http_response resp;
	struct cg_refusal r;
	char *big, *out;
	size_t len;
	int head;

	(void)state;
	big = malloc(5000);
	assert_non_null(big);
	memset(big, '"', 4999);
	big[4999] = '\0';
	assert_int_equal(cg_refuse(&r, "malformed", "%s", big), -1);
	assert_int_equal(strlen(r.detail), CG_DETAIL_MAX - 1);
	out = cg_error_response(&r, 0, &len);
	head = http_parse_response(out, len, &resp);
	assert_true(head > 0);
	assert_int_equal(resp.content_length, len - (size_t)head);
	/* every quote escaped; the hint follows */
	assert_int_equal(resp.content_length, strlen("{\"message\":\""
	    "container-gateway: malformed: ; \"}") + 2 * (CG_DETAIL_MAX - 1) +
	    strlen(cg_code_hint("malformed")));
	free(out);
	/* a hint at its limit too */
	memset(big, 'h', 4999);
	cg_hint(&r, "%s", big);
	assert_int_equal(strlen(r.hint), CG_HINT_MAX - 1);
	out = cg_error_response(&r, 0, &len);
	head = http_parse_response(out, len, &resp);
	assert_true(head > 0);
	assert_int_equal(resp.content_length, strlen("{\"message\":\""
	    "container-gateway: malformed: ; \"}") + 2 * (CG_DETAIL_MAX - 1) +
	    CG_HINT_MAX - 1);
	free(out);
	free(big);
}

struct esc_case {
	const char *in;
	size_t len;
	const char *want;
};

static const struct esc_case esc_cases[] = {
	{ S(""), "" },
	{ S("plain text 123 ~!@#$%^&*()_+-={}[]|:;'<>,.?"),
	    "plain text 123 ~!@#$%^&*()_+-={}[]|:;'<>,.?" },
	{ S("a\"b"), "a\\\"b" },
	{ S("a\\b"), "a\\\\b" },
	{ S("\\\""), "\\\\\\\"" },
	{ S("/a/b/"), "/a/b/" },
	{ S("\x01"), "\\u0001" },
	{ S("\x1b[0m"), "\\u001b[0m" },
	{ S("\x1f"), "\\u001f" },
	{ S("\n\r\t\b\f"), "\\u000a\\u000d\\u0009\\u0008\\u000c" },
	{ S("\x7f"), "\\u007f" },
	{ S("a\0b"), "a\\u0000b" },
	{ S(" "), " " },
	/* valid UTF-8 copied */
	{ S("caf\xc3\xa9"), "caf\xc3\xa9" },
	{ S("\xc2\x80"), "\xc2\x80" },
	{ S("\xdf\xbf"), "\xdf\xbf" },
	{ S("\xe0\xa0\x80"), "\xe0\xa0\x80" },
	{ S("\xe2\x82\xac"), "\xe2\x82\xac" },
	{ S("\xed\x9f\xbf"), "\xed\x9f\xbf" },
	{ S("\xee\x80\x80"), "\xee\x80\x80" },
	{ S("\xef\xbf\xbf"), "\xef\xbf\xbf" },
	{ S("\xf0\x90\x80\x80"), "\xf0\x90\x80\x80" },
	{ S("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80" },
	{ S("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf" },
	/* invalid UTF-8: one U+FFFD per offending byte */
	{ S("\x80"), "\\ufffd" },
	{ S("\xbf"), "\\ufffd" },
	{ S("\xff"), "\\ufffd" },
	{ S("\xfe"), "\\ufffd" },
	{ S("\xf5\x80\x80\x80"), "\\ufffd\\ufffd\\ufffd\\ufffd" },
	{ S("\xc0\x80"), "\\ufffd\\ufffd" },
	{ S("\xc1\xbf"), "\\ufffd\\ufffd" },
	{ S("\xe0\x80\x80"), "\\ufffd\\ufffd\\ufffd" },
	{ S("\xe0\x9f\xbf"), "\\ufffd\\ufffd\\ufffd" },
	{ S("\xed\xa0\x80"), "\\ufffd\\ufffd\\ufffd" },
	{ S("\xed\xbf\xbf"), "\\ufffd\\ufffd\\ufffd" },
	{ S("\xf0\x80\x80\x80"), "\\ufffd\\ufffd\\ufffd\\ufffd" },
	{ S("\xf0\x8f\xbf\xbf"), "\\ufffd\\ufffd\\ufffd\\ufffd" },
	{ S("\xf4\x90\x80\x80"), "\\ufffd\\ufffd\\ufffd\\ufffd" },
	{ S("\xc3"), "\\ufffd" },
	{ S("\xe2\x82"), "\\ufffd\\ufffd" },
	{ S("\xf0\x9f\x98"), "\\ufffd\\ufffd\\ufffd" },
	{ S("\xc3("), "\\ufffd(" },
	{ S("\xc3\"x"), "\\ufffd\\\"x" },
	{ S("\xe2\x82\xac\xe2"), "\xe2\x82\xac\\ufffd" },
	{ S("a\xc3\xa9\x80z"), "a\xc3\xa9\\ufffdz" },
};

static void
test_json_escape_table(void **state)
{
	size_t i;
	char *e;

	(void)state;
	for (i = 0; i < sizeof(esc_cases) / sizeof(esc_cases[0]); i++) {
		e = cg_json_escape(esc_cases[i].in, esc_cases[i].len);
		if (strcmp(e, esc_cases[i].want) != 0)
			fail_msg("escape case %zu: got \"%s\", want \"%s\"", i,
			    e, esc_cases[i].want);
		free(e);
	}
}

/* Every single byte: control bytes as lower-case \u00xx, the rest as is. */
static void
test_json_escape_every_byte(void **state)
{
	char in, want[8], *e;
	int b;

	(void)state;
	for (b = 0; b < 256; b++) {
		in = (char)b;
		e = cg_json_escape(&in, 1);
		if (b < 0x20 || b == 0x7f)
			snprintf(want, sizeof(want), "\\u%04x", b);
		else if (b == '"' || b == '\\')
			snprintf(want, sizeof(want), "\\%c", b);
		else if (b >= 0x80)
			snprintf(want, sizeof(want), "\\ufffd");
		else
			snprintf(want, sizeof(want), "%c", b);
		if (strcmp(e, want) != 0)
			fail_msg("byte 0x%02x: got \"%s\", want \"%s\"", b, e,
			    want);
		free(e);
	}
}

/*
 * Round trip through a JSON parser: for valid UTF-8 without NUL the
 * escaped string decodes back to the input; for any input the escaped
 * string is valid JSON.
 */
static void
test_json_escape_roundtrip(void **state)
{
	static const char *const valid[] = {
		"container-gateway: bind-mount: \"/\" is not allowed",
		"tab\there, newline\nthere, bell\a, esc\x1b, del\x7f",
		"\\\\server\\share \"quoted\" /slash/",
		"utf-8: caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf",
	};
	unsigned seed = 4711;
	char buf[64], *e, *doc;
	size_t i, k;
	cJSON *j;

	(void)state;
	for (i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		e = cg_json_escape(valid[i], strlen(valid[i]));
		assert_true(asprintf(&doc, "\"%s\"", e) > 0);
		j = cJSON_Parse(doc);
		assert_non_null(j);
		assert_true(cJSON_IsString(j));
		assert_string_equal(j->valuestring, valid[i]);
		cJSON_Delete(j);
		free(doc);
		free(e);
	}
	/* random bytes: always valid JSON, no raw control byte or quote */
	for (i = 0; i < 20000; i++) {
		for (k = 0; k < sizeof(buf); k++) {
			seed = seed * 1103515245u + 12345u;
			buf[k] = (char)(seed >> 16);
		}
		e = cg_json_escape(buf, 1 + i % sizeof(buf));
		for (k = 0; e[k] != '\0'; k++) {
			assert_true((unsigned char)e[k] >= 0x20);
			assert_true(e[k] != 0x7f);
			if (e[k] == '\\')
				k++;
			else
				assert_true(e[k] != '"');
		}
		assert_true(asprintf(&doc, "\"%s\"", e) > 0);
		j = cJSON_Parse(doc);
		assert_non_null(j);
		cJSON_Delete(j);
		free(doc);
		free(e);
	}
}

static void
test_code_status_table(void **state)
{
	static const char *const outside[] = {
		"", "Malformed", "malformed ", "malforme", "forbidden", "denied",
		"bind_mount", "ok", "backend-unreachable\n",
	};
	struct cg_refusal r;
	size_t i, n403 = 0;

	(void)state;
	for (i = 0; i < NSPEC; i++) {
		if (cg_code_status(spec_codes[i].code) != spec_codes[i].status)
			fail_msg("%s: %d, want %d", spec_codes[i].code,
			    cg_code_status(spec_codes[i].code),
			    spec_codes[i].status);
		assert_int_equal(cg_refuse(&r, spec_codes[i].code, "x"), -1);
		assert_int_equal(r.status, spec_codes[i].status);
		assert_string_equal(r.code, spec_codes[i].code);
		n403 += spec_codes[i].status == 403;
	}
	assert_int_equal(n403, 44);
	for (i = 0; i < sizeof(outside) / sizeof(outside[0]); i++)
		if (cg_code_status(outside[i]) != -1)
			fail_msg("\"%s\": %d, want -1", outside[i],
			    cg_code_status(outside[i]));
}

/*
 * Every reason code of the closed vocabulary (http.md §11.1, copied here
 * from the spec, not from the code) has a hint: what to do instead (issue
 * 10 item 7). Fails when a code is added without one, or when the table
 * and the spec's list drift apart.
 */
static void
test_every_code_has_hint(void **state)
{
	struct cg_refusal r;
	const char *code, *hint;
	char *out, want[CG_HINT_MAX + 8];
	size_t i, len;

	(void)state;
	for (i = 0; i < NSPEC; i++) {
		code = spec_codes[i].code;
		hint = cg_code_hint(code);
		if (hint == NULL || strlen(hint) < 10)
			fail_msg("reason code %s has no hint", code);
		assert_true(hint[0] != ' ' && hint[strlen(hint) - 1] != '.');
		cg_refuse(&r, code, "x");
		out = cg_error_response(&r, 0, &len);
		snprintf(want, sizeof(want), ": x; %s\"}", hint);
		if (strstr(out, want) == NULL)
			fail_msg("%s: the message lacks its hint: %s", code, out);
		free(out);
	}
	/* the table holds exactly the spec's codes */
	for (i = 0; (code = cg_code_at(i)) != NULL; i++) {
		size_t k;

		for (k = 0; k < NSPEC && strcmp(spec_codes[k].code, code) != 0; k++)
			;
		if (k == NSPEC)
			fail_msg("code %s is not in http.md §11.1", code);
		assert_non_null(cg_code_hint(code));
	}
	assert_int_equal(i, NSPEC);
	assert_null(cg_code_hint("no-such-code"));
}

static void
test_reason_phrases(void **state)
{
	(void)state;
	assert_string_equal(cg_reason_phrase(400), "Bad Request");
	assert_string_equal(cg_reason_phrase(403), "Forbidden");
	assert_string_equal(cg_reason_phrase(404), "Not Found");
	assert_string_equal(cg_reason_phrase(413), "Payload Too Large");
	assert_string_equal(cg_reason_phrase(431),
	    "Request Header Fields Too Large");
	assert_string_equal(cg_reason_phrase(502), "Bad Gateway");
	assert_string_equal(cg_reason_phrase(503), "Service Unavailable");
	assert_string_equal(cg_reason_phrase(504), "Gateway Timeout");
	assert_string_equal(cg_reason_phrase(200), "Error");
	assert_string_equal(cg_reason_phrase(500), "Error");
	assert_string_equal(cg_reason_phrase(-1), "Error");
}

static void
test_refuse_unknown_code_aborts(void **state)
{
	struct cg_refusal r;
	pid_t pid;
	int st;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGABRT, SIG_DFL);
		cg_refuse(&r, "no-such-code", "x");
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGABRT);
}

static void
test_quote(void **state)
{
	char in[300], out[260];

	(void)state;
	memset(in, 'q', sizeof(in));
	assert_string_equal(cg_quote(in, 0, out), "");
	assert_true(cg_quote("abc", 3, out) == out);
	assert_string_equal(out, "abc");
	cg_quote(in, 256, out);
	assert_int_equal(strlen(out), 256);
	cg_quote(in, 257, out);
	assert_int_equal(strlen(out), 259);
	assert_memory_equal(out, in, 256);
	assert_string_equal(out + 256, "...");
	cg_quote(in, sizeof(in), out);
	assert_int_equal(strlen(out), 259);
}

/* One 504 detail for child and monitor, T as configured (http.md §10). */
static void
test_refuse_timeout(void **state)
{
	struct cg_refusal r;

	(void)state;
	assert_int_equal(cg_refuse_timeout(&r, "podman", 60000), -1);
	assert_string_equal(r.code, "backend-timeout");
	assert_int_equal(r.status, 504);
	assert_string_equal(r.detail, "the podman backend did not answer within 60s");
	cg_refuse_timeout(&r, "docker", 500);
	assert_string_equal(r.detail, "the docker backend did not answer within 0.5s");
	cg_refuse_timeout(&r, "podman", 1500);
	assert_string_equal(r.detail, "the podman backend did not answer within 1.5s");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_response_exact_bytes),
		cmocka_unit_test(test_response_hint),
		cmocka_unit_test(test_every_code_has_hint),
		cmocka_unit_test(test_response_exact_bytes_403_escaped),
		cmocka_unit_test(test_response_every_status),
		cmocka_unit_test(test_response_long_detail),
		cmocka_unit_test(test_json_escape_table),
		cmocka_unit_test(test_json_escape_every_byte),
		cmocka_unit_test(test_json_escape_roundtrip),
		cmocka_unit_test(test_code_status_table),
		cmocka_unit_test(test_reason_phrases),
		cmocka_unit_test(test_refuse_unknown_code_aborts),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_refuse_timeout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
