/*
 * Tests for ops/cli.c (cli.md §1-§2: flags, environment, usage errors)
 * and instance_parse_pid (cli.md §6: the pid file content rule).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "monitor/config.h"
#include "ops/cli.h"
#include "ops/instance.h"
#include "ops/rundir.h"

#define ARGV(...)	((char *[]){ "container-gateway", __VA_ARGS__, NULL })
#define ARGC(...)	((int)(sizeof((char *[]){ "container-gateway", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(c, ...)	reparse((c), ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

/* cli_parse() into c after freeing what an earlier parse left in it. */
static int
reparse(struct cg_config *c, int argc, char **argv)
{
	cli_free(c);
	return cli_parse(argc, argv, c);
}

/* mkdir -p for the tests: 0 or -1. */
static int
mkdir_p(const char *path)
{
	char p[4200];
	size_t i;

	snprintf(p, sizeof(p), "%s", path);
	for (i = 1; p[i] != '\0'; i++)
		if (p[i] == '/') {
			p[i] = '\0';
			if (mkdir(p, 0700) < 0 && errno != EEXIST)
				return -1;
			p[i] = '/';
		}
	return mkdir(p, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

static int
clear_env(void **state)
{
	extern char **environ;
	char **e, name[256];

	(void)state;
	for (;;) {
		for (e = environ; *e != NULL; e++)
			if (strncmp(*e, "CONTAINER_GATEWAY_", 18) == 0)
				break;
		if (*e == NULL)
			return 0;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(*e, "="), *e);
		unsetenv(name);
	}
}

static void
test_defaults(void **state)
{
	struct cg_config c = { 0 };

	(void)state;
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_int_equal(c.command, CMD_SERVE);
	assert_true(c.backend_podman && c.backend_docker);
	assert_int_equal(c.egress, CG_EGRESS_INJECT);
	assert_int_equal(c.egress_port, 8899);
	assert_true(c.idle_timeout == 14400);
	assert_true(c.backend_timeout == 60);
	assert_int_equal(c.log_level, LOG_INFO);
	assert_int_equal(c.log_format, LOG_TEXT);
	assert_int_equal(c.max_connections, 256);
	assert_true(c.memory_budget == 512ull << 20);
	assert_int_equal(c.daemon, 0);
	assert_non_null(c.project);
	assert_true(c.project[0] == '/');
	assert_null(c.run_dir);
	cli_free(&c);
}

/* --memory-budget and its variable: sizes with binary suffixes */
static void
test_memory_budget(void **state)
{
	struct cg_config c = { 0 };

	(void)state;
	assert_int_equal(PARSE(&c, "serve", "--memory-budget", "1G"), 0);
	assert_true(c.memory_budget == 1ull << 30);
	cli_free(&c);
	assert_int_equal(PARSE(&c, "serve", "--memory-budget", "96MiB"), 0);
	assert_true(c.memory_budget == 96ull << 20);
	cli_free(&c);
	assert_int_equal(PARSE(&c, "serve", "--memory-budget", "33554432"), 0);
	assert_true(c.memory_budget == 32ull << 20);
	cli_free(&c);
	setenv("CONTAINER_GATEWAY_MEMORY_BUDGET", "2GiB", 1);
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_true(c.memory_budget == 2ull << 30);
	cli_free(&c);
	assert_int_equal(PARSE(&c, "serve", "--memory-budget", "64M"), 0);
	assert_true(c.memory_budget == 64ull << 20);	/* the flag wins */
	cli_free(&c);
	unsetenv("CONTAINER_GATEWAY_MEMORY_BUDGET");
}

static void
test_usage_errors(void **state)
{
	struct cg_config c = { 0 };
	int argc;

	(void)state;
	argc = 1;
	assert_int_equal(cli_parse(argc, ARGV("x") , &c), 2);	/* no subcommand */
	assert_int_equal(PARSE(&c, "foo"), 2);
	assert_int_equal(PARSE(&c, "serve", "--foo"), 2);
	assert_int_equal(PARSE(&c, "serve", "--egress-port"), 2);
	assert_int_equal(PARSE(&c, "serve", "--egress-port", "abc"), 2);
	assert_int_equal(PARSE(&c, "serve", "--egress-port", "65536"), 2);
	assert_int_equal(PARSE(&c, "serve", "--daemon=1"), 2);
	assert_int_equal(PARSE(&c, "stop", "--backend", "podman"), 2);
	assert_int_equal(PARSE(&c, "status", "--log-level", "debug"), 2);
	assert_int_equal(PARSE(&c, "serve", "x"), 2);
	assert_int_equal(PARSE(&c, "serve", "--log-level", "loud"), 2);
	assert_int_equal(PARSE(&c, "serve", "--idle-timeout", "1."), 2);
	assert_int_equal(PARSE(&c, "serve", "--idle-timeout", "-1"), 2);
	assert_int_equal(PARSE(&c, "serve", "--backend-timeout", "0"), 2);
	/* the memory budget: 32 MiB to 1024 GiB, binary suffixes only */
	assert_int_equal(PARSE(&c, "serve", "--memory-budget", "31MiB"), 2);
	assert_int_equal(PARSE(&c, "serve", "--memory-budget", "2TiB"), 2);
	assert_int_equal(PARSE(&c, "serve", "--memory-budget", "512MB"), 2);
	assert_int_equal(PARSE(&c, "serve", "--memory-budget", "-1G"), 2);
	assert_int_equal(PARSE(&c, "serve", "--memory-budget", "1025G"), 2);
	assert_int_equal(PARSE(&c, "serve", "--backend", "docker",
	    "--podman-socket", "/x.sock"), 2);
	assert_int_equal(PARSE(&c, "serve", "--podman-socket", "rel.sock"), 2);
	assert_int_equal(PARSE(&c, "version", "--project", "/"), 2);
	/* a usage error frees what the parse had allocated (make check-asan
	 * found these leaks) */
	assert_int_equal(PARSE(&c, "serve", "--project", "/p", "--run-dir",
	    "r", "--extra-bind-root", "/a", "--foo"), 2);
	assert_null(c.project);
	assert_null(c.run_dir);
	assert_null(c.idle_timeout_text);
	assert_int_equal(c.nextra_roots, 0);
	cli_free(&c);
}

static void
test_flags(void **state)
{
	struct cg_config c = { 0 };

	(void)state;
	assert_int_equal(PARSE(&c, "serve", "--egress-port", "1",
	    "--egress-port=2", "--log-level", "WARNING", "--log-format=json",
	    "--daemon", "--idle-timeout", "0.5", "--backend", "docker",
	    "--backend", "podman", "--run-dir", "/r/", "--extra-bind-root", "/a",
	    "--extra-bind-root", "/b"), 0);
	assert_int_equal(c.egress_port, 2);	/* the last one wins */
	assert_int_equal(c.log_level, LOG_WARNING);
	assert_int_equal(c.log_format, LOG_JSON);
	assert_int_equal(c.daemon, 1);
	assert_true(c.idle_timeout == 0.5);
	assert_string_equal(c.idle_timeout_text, "0.5");
	assert_true(c.backend_podman && c.backend_docker);	/* the union */
	assert_int_equal(c.nextra_roots, 2);
	assert_string_equal(c.extra_roots[1], "/b");
	assert_int_equal(PARSE(&c, "version"), 0);
	assert_int_equal(c.command, CMD_VERSION);
	assert_int_equal(PARSE(&c, "--version"), 0);
	assert_int_equal(c.command, CMD_VERSION);
	assert_int_equal(PARSE(&c, "-h"), 0);
	assert_int_equal(c.command, CMD_HELP);
	cli_free(&c);
}

/* serve --help, help serve (cli.md): usage, never a usage error. */
static void
test_help(void **state)
{
	struct cg_config c = { 0 };

	(void)state;
	assert_int_equal(PARSE(&c, "serve", "--help"), 0);
	assert_int_equal(c.command, CMD_HELP);
	assert_string_equal(c.help_topic, "serve");
	assert_int_equal(PARSE(&c, "serve", "--project", "/x", "-h"), 0);
	assert_string_equal(c.help_topic, "serve");
	assert_int_equal(PARSE(&c, "status", "--help"), 0);
	assert_string_equal(c.help_topic, "status");
	assert_int_equal(PARSE(&c, "help", "serve"), 0);
	assert_int_equal(c.command, CMD_HELP);
	assert_string_equal(c.help_topic, "serve");
	assert_int_equal(PARSE(&c, "help"), 0);
	assert_null(c.help_topic);
	assert_int_equal(PARSE(&c, "help", "bogus"), 2);
	assert_int_equal(PARSE(&c, "help", "serve", "x"), 2);
	cli_free(&c);
}

/* Which flags were given (flag or environment), for a second serve. */
static void
test_explicit(void **state)
{
	struct cg_config c = { 0 };

	(void)state;
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_int_equal(c.explicit_mask, 0);
	setenv("CONTAINER_GATEWAY_EGRESS", "off", 1);
	assert_int_equal(PARSE(&c, "serve", "--idle-timeout", "5"), 0);
	assert_int_equal(c.explicit_mask,
	    (1u << CGO_IDLE_TIMEOUT) | (1u << CGO_EGRESS));
	unsetenv("CONTAINER_GATEWAY_EGRESS");
	cli_free(&c);
}

/*
 * --project defaults to the top of the git working tree holding the
 * current directory (cli.md §2.1 as amended), a linked worktree's .git
 * file included; else an adopted directory; else the current directory.
 */
static void
test_default_project(void **state)
{
	char tmpl[] = "/tmp/cgt-cli.XXXXXX", old[4096], p[4200], *top;
	struct cg_config c = { 0 };
	FILE *f;

	(void)state;
	assert_non_null(getcwd(old, sizeof(old)));
	top = mkdtemp(tmpl);
	assert_non_null(top);
	snprintf(p, sizeof(p), "%s/repo/.git", top);
	assert_int_equal(mkdir_p(p), 0);
	snprintf(p, sizeof(p), "%s/repo/.git/HEAD", top);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("ref: refs/heads/main\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/repo/src/deep", top);
	assert_int_equal(mkdir_p(p), 0);
	assert_int_equal(chdir(p), 0);
	assert_int_equal(PARSE(&c, "status"), 0);
	snprintf(p, sizeof(p), "%s/repo", top);
	assert_string_equal(c.project, p);
	/* an explicit --project wins */
	assert_int_equal(PARSE(&c, "stop", "--project", "/x"), 0);
	assert_string_equal(c.project, "/x");
	/* a linked worktree: .git is a "gitdir: " file */
	snprintf(p, sizeof(p), "%s/wt/sub", top);
	assert_int_equal(mkdir_p(p), 0);
	snprintf(p, sizeof(p), "%s/wt/.git", top);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "gitdir: %s/repo/.git/worktrees/wt\n", top);
	fclose(f);
	snprintf(p, sizeof(p), "%s/wt/sub", top);
	assert_int_equal(chdir(p), 0);
	assert_int_equal(PARSE(&c, "serve"), 0);
	snprintf(p, sizeof(p), "%s/wt", top);
	assert_string_equal(c.project, p);
	/* no repository: an adopted directory above, else the cwd itself */
	snprintf(p, sizeof(p), "%s/plain/a/b", top);
	assert_int_equal(mkdir_p(p), 0);
	assert_int_equal(chdir(p), 0);
	assert_int_equal(PARSE(&c, "status"), 0);
	assert_string_equal(c.project, p);
	snprintf(p, sizeof(p), "%s/plain/.apache-magpie.lock", top);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(PARSE(&c, "status"), 0);
	snprintf(p, sizeof(p), "%s/plain", top);
	assert_string_equal(c.project, p);
	cli_free(&c);
	assert_int_equal(chdir(old), 0);
	snprintf(p, sizeof(p), "rm -rf '%s'", top);
	assert_int_equal(system(p), 0);
}

static void
test_environment(void **state)
{
	struct cg_config c = { 0 };

	(void)state;
	setenv("CONTAINER_GATEWAY_EGRESS_PORT", "x", 1);
	assert_int_equal(PARSE(&c, "serve"), 2);		/* validated */
	assert_int_equal(PARSE(&c, "status"), 0);		/* serve-only: ignored */
	assert_int_equal(PARSE(&c, "serve", "--egress-port", "7"), 0); /* flag wins */
	assert_int_equal(c.egress_port, 7);
	setenv("CONTAINER_GATEWAY_EGRESS_PORT", "", 1);	/* empty = unset */
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_int_equal(c.egress_port, 8899);
	unsetenv("CONTAINER_GATEWAY_EGRESS_PORT");

	setenv("CONTAINER_GATEWAY_BACKEND", "docker", 1);
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_true(!c.backend_podman && c.backend_docker);
	assert_int_equal(PARSE(&c, "serve", "--podman-socket", "/p.sock"), 2);
	assert_int_equal(PARSE(&c, "serve", "--backend", "podman",
	    "--podman-socket", "/p.sock"), 0);	/* the flag replaces the list */
	assert_true(c.backend_podman && !c.backend_docker);
	unsetenv("CONTAINER_GATEWAY_BACKEND");

	setenv("CONTAINER_GATEWAY_EXTRA_BIND_ROOT", "/a:/b:/c", 1);
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_int_equal(c.nextra_roots, 3);
	assert_int_equal(PARSE(&c, "serve", "--extra-bind-root", "/z"), 0);
	assert_int_equal(c.nextra_roots, 1);
	unsetenv("CONTAINER_GATEWAY_EXTRA_BIND_ROOT");

	setenv("CONTAINER_GATEWAY_DAEMON", "YES", 1);
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_int_equal(c.daemon, 1);
	setenv("CONTAINER_GATEWAY_DAEMON", "maybe", 1);
	assert_int_equal(PARSE(&c, "serve"), 2);
	assert_int_equal(PARSE(&c, "stop"), 0);
	unsetenv("CONTAINER_GATEWAY_DAEMON");

	setenv("CONTAINER_GATEWAY_RUN_DIR", "rel/run", 1);
	assert_int_equal(PARSE(&c, "status"), 0);
	assert_true(c.run_dir[0] == '/');	/* made absolute */
	assert_non_null(strstr(c.run_dir, "/rel/run"));
	unsetenv("CONTAINER_GATEWAY_RUN_DIR");
	cli_free(&c);
}

/*
 * Flags beyond cli.md: sessions and the sandbox level (README, tool.md).
 * A session id names a file in the run directory, so only a plain name
 * passes; each flag applies to its subcommands only.
 */
static void
test_sessions_and_sandbox(void **state)
{
	struct cg_config c = { 0 };
	char long_id[130];

	(void)state;
	assert_int_equal(PARSE(&c, "serve", "--session", "0b1c-uuid_x.y",
	    "--session-pid", "4242", "--require-full-sandbox"), 0);
	assert_string_equal(c.session, "0b1c-uuid_x.y");
	assert_int_equal(c.session_pid, 4242);
	assert_int_equal(c.require_full_sandbox, 1);
	assert_int_equal(PARSE(&c, "stop", "--session=s1", "--stop-containers"), 0);
	assert_string_equal(c.session, "s1");
	assert_int_equal(c.stop_containers, 1);
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_null(c.session);
	assert_int_equal(c.require_full_sandbox, 0);
	/* names only: no path, no dot names, 1-128 bytes */
	assert_int_equal(PARSE(&c, "serve", "--session", "../x"), 2);
	assert_int_equal(PARSE(&c, "serve", "--session", ".."), 2);
	assert_int_equal(PARSE(&c, "serve", "--session", "a/b"), 2);
	assert_int_equal(PARSE(&c, "serve", "--session="), 2);
	memset(long_id, 'a', 128);
	long_id[128] = '\0';
	assert_int_equal(PARSE(&c, "serve", "--session", long_id), 0);
	long_id[128] = 'a';
	long_id[129] = '\0';
	assert_int_equal(PARSE(&c, "serve", "--session", long_id), 2);
	/* subcommands */
	assert_int_equal(PARSE(&c, "status", "--session", "s1"), 2);
	assert_int_equal(PARSE(&c, "stop", "--session-pid", "42"), 2);
	assert_int_equal(PARSE(&c, "serve", "--stop-containers"), 2);
	assert_int_equal(PARSE(&c, "stop", "--require-full-sandbox"), 2);
	assert_int_equal(PARSE(&c, "serve", "--session-pid", "42"), 2);	/* needs --session */
	assert_int_equal(PARSE(&c, "serve", "--session", "s", "--session-pid", "1"), 2);
	assert_int_equal(PARSE(&c, "serve", "--require-full-sandbox=1"), 2);
	/* environment: booleans as --daemon's */
	setenv("CONTAINER_GATEWAY_REQUIRE_FULL_SANDBOX", "yes", 1);
	setenv("CONTAINER_GATEWAY_SESSION", "env-s", 1);
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_int_equal(c.require_full_sandbox, 1);
	assert_string_equal(c.session, "env-s");
	setenv("CONTAINER_GATEWAY_REQUIRE_FULL_SANDBOX", "maybe", 1);
	assert_int_equal(PARSE(&c, "serve"), 2);
	unsetenv("CONTAINER_GATEWAY_REQUIRE_FULL_SANDBOX");
	unsetenv("CONTAINER_GATEWAY_SESSION");
	cli_free(&c);
}

/*
 * --log-max-size (doc/audit.md "Log files"): bytes or K/M/G (KiB...),
 * 0 or at least 4096; audit's flags belong to audit only, have no
 * variable, and --since becomes the log's time format.
 */
static void
test_log_and_audit(void **state)
{
	struct cg_config c = { 0 };

	(void)state;
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_int_equal(c.log_max_size, 16ULL << 20);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size", "4096"), 0);
	assert_int_equal(c.log_max_size, 4096);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size=64K"), 0);
	assert_int_equal(c.log_max_size, 64 << 10);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size", "2MiB"), 0);
	assert_int_equal(c.log_max_size, 2 << 20);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size", "1g"), 0);
	assert_int_equal(c.log_max_size, 1ULL << 30);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size", "0"), 0);
	assert_int_equal(c.log_max_size, 0);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size", "4095"), 2);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size", "1T"), 2);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size", "2048G"), 2);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size", "M"), 2);
	assert_int_equal(PARSE(&c, "serve", "--log-max-size", "1MB"), 2);
	assert_int_equal(PARSE(&c, "status", "--log-max-size", "1M"), 2);
	setenv("CONTAINER_GATEWAY_LOG_MAX_SIZE", "8M", 1);
	assert_int_equal(PARSE(&c, "serve"), 0);
	assert_int_equal(c.log_max_size, 8 << 20);
	unsetenv("CONTAINER_GATEWAY_LOG_MAX_SIZE");

	assert_int_equal(PARSE(&c, "audit"), 0);
	assert_int_equal(c.command, CMD_AUDIT);
	assert_int_equal(c.audit_part, AUDIT_ALL);
	assert_null(c.since);
	assert_int_equal(PARSE(&c, "audit", "--decision", "refused", "--json",
	    "--since", "2026-12-01"), 0);
	assert_int_equal(c.audit_part, AUDIT_REFUSED);
	assert_true(c.json);
	assert_string_equal(c.since, "2026-12-01T00:00:00.000Z");
	assert_int_equal(PARSE(&c, "audit", "--since", "2026-12-01T13:04:05.6Z"),
	    2);
	assert_int_equal(PARSE(&c, "audit", "--since", "2026-12-01T13:04:05.600Z"),
	    0);
	assert_string_equal(c.since, "2026-12-01T13:04:05.600Z");
	assert_int_equal(PARSE(&c, "audit", "--since", "2026-12-01T13:04"), 0);
	assert_string_equal(c.since, "2026-12-01T13:04:00.000Z");
	assert_int_equal(PARSE(&c, "audit", "--since", "2h"), 0);
	assert_int_equal(strlen(c.since), 24);
	assert_int_equal(PARSE(&c, "audit", "--since", "yesterday"), 2);
	assert_int_equal(PARSE(&c, "audit", "--since", "2026-13-01"), 2);
	assert_int_equal(PARSE(&c, "audit", "--since", "h"), 2);
	assert_int_equal(PARSE(&c, "audit", "--decision", "allowed"), 2);
	assert_int_equal(PARSE(&c, "audit", "--json=1"), 2);
	assert_int_equal(PARSE(&c, "audit", "--daemon"), 2);
	assert_int_equal(PARSE(&c, "serve", "--json"), 2);
	assert_int_equal(PARSE(&c, "status", "--since", "2h"), 2);
	assert_int_equal(PARSE(&c, "audit", "--log-file", "x.log"), 0);
	assert_true(c.log_file[0] == '/');
	assert_int_equal(PARSE(&c, "audit", "--run-dir", "/r", "--project", "/p"),
	    0);
	/* no variable: a stray one changes nothing */
	setenv("CONTAINER_GATEWAY_JSON", "1", 1);
	setenv("CONTAINER_GATEWAY_DECISION", "bogus", 1);
	assert_int_equal(PARSE(&c, "audit"), 0);
	assert_false(c.json);
	unsetenv("CONTAINER_GATEWAY_JSON");
	unsetenv("CONTAINER_GATEWAY_DECISION");
	assert_int_equal(PARSE(&c, "help", "audit"), 0);
	assert_string_equal(c.help_topic, "audit");
	assert_int_equal(PARSE(&c, "audit", "--help"), 0);
	assert_string_equal(c.help_topic, "audit");
	cli_free(&c);
}

static void
test_parse_pid(void **state)
{
	(void)state;
	assert_true(instance_parse_pid("4242\n", 5) == 4242);
	assert_true(instance_parse_pid("4242", 4) == 4242);
	assert_true(instance_parse_pid("2", 1) == 2);
	assert_true(instance_parse_pid("9999999999\n", 11) == 9999999999LL);
	assert_true(instance_parse_pid("0042\n", 5) == 42);
	assert_true(instance_parse_pid("1\n", 2) == -1);	/* value > 1 */
	assert_true(instance_parse_pid("0\n", 2) == -1);
	assert_true(instance_parse_pid("", 0) == -1);
	assert_true(instance_parse_pid("\n", 1) == -1);
	assert_true(instance_parse_pid("12345678901", 11) == -1);	/* 11 digits */
	assert_true(instance_parse_pid("-5", 2) == -1);
	assert_true(instance_parse_pid(" 42", 3) == -1);
	assert_true(instance_parse_pid("42\n\n", 4) == -1);
	assert_true(instance_parse_pid("42 ", 3) == -1);
	assert_true(instance_parse_pid("4\0002", 3) == -1);
}

static int saved_stderr = -1;

/*
 * Usage errors print one line each on stderr: silence them during the
 * tests, and give stderr back before cmocka prints its summary there.
 */
static int
quiet_stderr(void **state)
{
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);

	(void)state;
	fflush(stderr);
	saved_stderr = dup(2);
	if (devnull < 0 || saved_stderr < 0 || dup2(devnull, 2) < 0)
		return -1;
	close(devnull);
	return 0;
}

static int
restore_stderr(void **state)
{
	(void)state;
	fflush(stderr);
	if (saved_stderr >= 0 && dup2(saved_stderr, 2) >= 0)
		close(saved_stderr);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_defaults, clear_env),
		cmocka_unit_test_setup(test_usage_errors, clear_env),
		cmocka_unit_test_setup(test_memory_budget, clear_env),
		cmocka_unit_test_setup(test_flags, clear_env),
		cmocka_unit_test_setup(test_environment, clear_env),
		cmocka_unit_test_setup(test_help, clear_env),
		cmocka_unit_test_setup(test_explicit, clear_env),
		cmocka_unit_test_setup(test_default_project, clear_env),
		cmocka_unit_test_setup(test_sessions_and_sandbox, clear_env),
		cmocka_unit_test_setup(test_log_and_audit, clear_env),
		cmocka_unit_test(test_parse_pid),
	};

	return cmocka_run_group_tests(tests, quiet_stderr, restore_stderr);
}
