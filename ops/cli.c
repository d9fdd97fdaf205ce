/* Command line and environment (cli.md §1-§3). */
#include "monitor/config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "ops/cli.h"


/* The subcommands a flag applies to (struct opt.cmds). */
#define SERVE	(1u << CMD_SERVE)
#define STOP	(1u << CMD_STOP)
#define AUDIT	(1u << CMD_AUDIT)
#define COMMON	(SERVE | STOP | (1u << CMD_STATUS) | AUDIT)

/*
 * One flag: name, environment variable (NULL: none), subcommands, boolean,
 * repeatable. The audit's own flags describe one report, not the gateway:
 * they have no variable (a stray one would change reports).
 */
static const struct opt {
	enum cg_opt id;
	const char *flag;
	const char *env;
	unsigned cmds;
	int boolean;
	int repeatable;
} opts[] = {
	{ CGO_PROJECT, "--project", "CONTAINER_GATEWAY_PROJECT", COMMON, 0, 0 },
	{ CGO_RUN_DIR, "--run-dir", "CONTAINER_GATEWAY_RUN_DIR", COMMON, 0, 0 },
	{ CGO_PID_FILE, "--pid-file", "CONTAINER_GATEWAY_PID_FILE", COMMON, 0, 0 },
	{ CGO_BACKEND, "--backend", "CONTAINER_GATEWAY_BACKEND", SERVE, 0, 1 },
	{ CGO_PODMAN_SOCKET, "--podman-socket", "CONTAINER_GATEWAY_PODMAN_SOCKET", SERVE, 0, 0 },
	{ CGO_DOCKER_SOCKET, "--docker-socket", "CONTAINER_GATEWAY_DOCKER_SOCKET", SERVE, 0, 0 },
	{ CGO_EGRESS, "--egress", "CONTAINER_GATEWAY_EGRESS", SERVE, 0, 0 },
	{ CGO_EGRESS_PORT, "--egress-port", "CONTAINER_GATEWAY_EGRESS_PORT", SERVE, 0, 0 },
	{ CGO_EGRESS_HOST, "--egress-host", "CONTAINER_GATEWAY_EGRESS_HOST", SERVE, 0, 0 },
	{ CGO_EXTRA_BIND_ROOT, "--extra-bind-root", "CONTAINER_GATEWAY_EXTRA_BIND_ROOT", SERVE, 0, 1 },
	{ CGO_IDLE_TIMEOUT, "--idle-timeout", "CONTAINER_GATEWAY_IDLE_TIMEOUT", SERVE, 0, 0 },
	{ CGO_BACKEND_TIMEOUT, "--backend-timeout", "CONTAINER_GATEWAY_BACKEND_TIMEOUT", SERVE, 0, 0 },
	{ CGO_LOG_LEVEL, "--log-level", "CONTAINER_GATEWAY_LOG_LEVEL", SERVE, 0, 0 },
	{ CGO_LOG_FORMAT, "--log-format", "CONTAINER_GATEWAY_LOG_FORMAT", SERVE, 0, 0 },
	{ CGO_MAX_CONNECTIONS, "--max-connections", "CONTAINER_GATEWAY_MAX_CONNECTIONS", SERVE, 0, 0 },
	{ CGO_MEMORY_BUDGET, "--memory-budget", "CONTAINER_GATEWAY_MEMORY_BUDGET", SERVE, 0, 0 },
	{ CGO_DAEMON, "--daemon", "CONTAINER_GATEWAY_DAEMON", SERVE, 1, 0 },
	/* not in cli.md: sessions and the sandbox level (README, tool.md) */
	{ CGO_REQUIRE_FULL_SANDBOX, "--require-full-sandbox",
	  "CONTAINER_GATEWAY_REQUIRE_FULL_SANDBOX", SERVE, 1, 0 },
	{ CGO_SESSION, "--session", "CONTAINER_GATEWAY_SESSION", SERVE | STOP, 0, 0 },
	{ CGO_SESSION_PID, "--session-pid", "CONTAINER_GATEWAY_SESSION_PID", SERVE, 0, 0 },
	{ CGO_STOP_CONTAINERS, "--stop-containers", "CONTAINER_GATEWAY_STOP_CONTAINERS",
	  STOP, 1, 0 },
	{ CGO_LOG_MAX_SIZE, "--log-max-size", "CONTAINER_GATEWAY_LOG_MAX_SIZE", SERVE, 0, 0 },
	{ CGO_SINCE, "--since", NULL, AUDIT, 0, 0 },
	{ CGO_DECISION, "--decision", NULL, AUDIT, 0, 0 },
	{ CGO_JSON, "--json", NULL, AUDIT, 1, 0 },
	{ CGO_LOG_FILE, "--log-file", NULL, AUDIT, 0, 0 },
	{ CGO_REQUIRE_PATCHED, "--require-patched-backend",
	  "CONTAINER_GATEWAY_REQUIRE_PATCHED_BACKEND", SERVE, 1, 0 },
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static int
usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("container-gateway: usage: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* Per-subcommand usage texts (cli.md §1; `serve --help`, `help serve`). */
static const char usage_serve[] =
    "usage: container-gateway serve [--project PATH] [--run-dir PATH] [--pid-file PATH]\n"
    "                               [--backend podman|docker|auto] [--podman-socket PATH]\n"
    "                               [--docker-socket PATH] [--egress inject-if-available|require|off]\n"
    "                               [--egress-port N] [--egress-host HOST] [--extra-bind-root PATH]\n"
    "                               [--idle-timeout SECONDS] [--backend-timeout SECONDS]\n"
    "                               [--log-level error|warn|info|debug] [--log-format text|json]\n"
    "                               [--max-connections N] [--memory-budget SIZE] [--daemon]\n"
    "                               [--log-max-size SIZE]\n"
    "                               [--require-full-sandbox] [--session ID [--session-pid PID]]\n"
    "                               [--require-patched-backend]\n"
    "\n"
    "Serve <run-dir>/podman.sock and docker.sock for the project, in front of\n"
    "the podman or docker daemon (discovered, or given with --podman-socket /\n"
    "--docker-socket; never another container-gateway).\n"
    "\n"
    "  --project PATH          project root (default: the top of the git working\n"
    "                          tree holding the current directory, else the\n"
    "                          current directory)\n"
    "  --run-dir PATH          where the sockets, pid file and log go\n"
    "  --pid-file PATH         default <run-dir>/container-gateway.pid\n"
    "  --backend KIND          podman, docker or auto (repeatable; default auto)\n"
    "  --podman-socket PATH    the podman API socket, instead of discovery\n"
    "  --docker-socket PATH    the docker API socket, instead of discovery\n"
    "  --egress MODE           proxy injection: inject-if-available, require, off\n"
    "  --egress-port N         egress proxy port on 127.0.0.1 (default 8899)\n"
    "  --egress-host HOST      the proxy's address seen from containers\n"
    "  --extra-bind-root PATH  another directory binds may come from (repeatable)\n"
    "  --idle-timeout SECONDS  exit after this long without a connection\n"
    "                          (default 14400, 0 never)\n"
    "  --backend-timeout SECONDS  wait this long for a response head (default 60)\n"
    "  --log-level LEVEL       error, warn, info (default) or debug\n"
    "  --log-format FORMAT     text (default) or json\n"
    "  --max-connections N     open client connections at most (default 256)\n"
    "  --memory-budget SIZE    the monitor's memory at most, e.g. 512MiB or 2GiB\n"
    "                          (default 512MiB): bodies and answers beyond it\n"
    "                          wait for room or get a 503\n"
    "  --daemon                detach once the sockets listen; log to\n"
    "                          <run-dir>/container-gateway.log\n"
    "  --log-max-size SIZE     rotate the daemon's log at this size, keeping one\n"
    "                          older file (.log.1): bytes, or with K, M or G\n"
    "                          (default 16M; 0 never)\n"
    "  --require-full-sandbox  refuse to serve when the request parser cannot\n"
    "                          get its namespaces and empty root (see tool.md)\n"
    "  --session ID            register this session (an agent harness's); stop\n"
    "                          --session ID stops the gateway after the last one\n"
    "  --session-pid PID       the session's process: once it is gone, the\n"
    "                          session no longer counts\n"
    "  --require-patched-backend  refuse to serve (exit 1) while a backend\n"
    "                          advisory applies (container-gateway status lists them)\n"
    "\n"
    "Every flag has a CONTAINER_GATEWAY_* variable (e.g. CONTAINER_GATEWAY_IDLE_TIMEOUT);\n"
    "the flag wins. A second serve for a running project prints its pid and exits 0.\n";
static const char usage_stop[] =
    "usage: container-gateway stop [--project PATH] [--run-dir PATH] [--pid-file PATH]\n"
    "                              [--session ID] [--stop-containers]\n"
    "\n"
    "Stop the project's gateway (SIGTERM; waits up to 5 s for it to exit).\n"
    "\n"
    "  --session ID        this session leaves; the gateway is stopped only when\n"
    "                      no other live session is registered\n"
    "  --stop-containers   when the gateway stops, stop the project's running\n"
    "                      containers first (off by default)\n";
static const char usage_status[] =
    "usage: container-gateway status [--project PATH] [--run-dir PATH] [--pid-file PATH]\n"
    "\n"
    "Print one JSON line; exit 0 when the project's gateway runs, else 3.\n";
static const char usage_audit[] =
    "usage: container-gateway audit [--project PATH] [--run-dir PATH] [--since TIME]\n"
    "                               [--decision refused|violation|all] [--json]\n"
    "                               [--log-file PATH]\n"
    "\n"
    "Read the gateway's log (and its rotated file) and print what the agent did:\n"
    "refusals by reason code, protocol violations with their targets, the\n"
    "containers created with their images, mounts and ports.\n"
    "\n"
    "  --since TIME            only records from then on: 2026-12-01, 2026-12-01T13:00,\n"
    "                          2026-12-01T13:00:00Z (UTC), or 30s, 10m, 2h, 1d ago\n"
    "  --decision PART         refused, violation or all (default)\n"
    "  --json                  one JSON object instead of aligned columns\n"
    "  --log-file PATH         read this log (and PATH.1) instead of the run\n"
    "                          directory's container-gateway.log (a foreground\n"
    "                          gateway's stderr saved to a file)\n"
    "\n"
    "Exit 0 with a report, 1 when there is no log to read.\n";
static const char usage_version[] =
    "usage: container-gateway version\n";

/* The synopsis part of a usage text (up to its first blank line). */
static void
print_synopsis(const char *text, int first)
{
	const char *end = strstr(text, "\n\n");
	size_t len = end != NULL ? (size_t)(end - text) + 1 : strlen(text);

	if (!first && strncmp(text, "usage: ", 7) == 0) {
		fputs("       ", stdout);
		text += 7;
		len -= 7;
	}
	fwrite(text, 1, len, stdout);
}

void
cli_usage(const char *topic)
{
	if (topic == NULL) {
		print_synopsis(usage_serve, 1);
		print_synopsis(usage_stop, 0);
		print_synopsis(usage_status, 0);
		print_synopsis(usage_audit, 0);
		print_synopsis(usage_version, 0);
		fputs("       container-gateway help [serve|stop|status|audit|version]\n",
		    stdout);
		return;
	}
	fputs(strcmp(topic, "serve") == 0 ? usage_serve :
	    strcmp(topic, "stop") == 0 ? usage_stop :
	    strcmp(topic, "status") == 0 ? usage_status :
	    strcmp(topic, "audit") == 0 ? usage_audit : usage_version, stdout);
}

/* Absolute form of p against the cwd (not resolved). */
static char *
absolute(const char *p)
{
	char cwd[4096], *out;

	if (p[0] == '/')
		return xstrdup(p);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return xstrdup(p);
	if (asprintf(&out, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, p) < 0)
		xoom();
	return out;
}

/* Is dir/.git the top of a git working tree (a directory with HEAD, or a
   "gitdir: " file of a linked worktree or submodule)? */
static int
git_top(const char *dir)
{
	char p[4096 + 16], line[16];
	struct stat st;
	FILE *f;
	int ok = 0;

	snprintf(p, sizeof(p), "%s/.git", dir);
	if (stat(p, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		snprintf(p, sizeof(p), "%s/.git/HEAD", dir);
		return stat(p, &st) == 0 && S_ISREG(st.st_mode);
	}
	if (!S_ISREG(st.st_mode) || (f = fopen(p, "re")) == NULL)
		return 0;
	ok = fgets(line, sizeof(line), f) != NULL &&
	    strncmp(line, "gitdir: ", 8) == 0;
	fclose(f);
	return ok;
}

/* Does dir hold the adoption marker (cli.md §5.1)? */
static int
adopted(const char *dir)
{
	char p[4096 + 32];
	struct stat st;

	snprintf(p, sizeof(p), "%s/.apache-magpie.lock", dir);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * The default project (cli.md §2.1 as amended 2026-12-01): the top of the
 * git working tree holding the current directory, else the nearest
 * directory at or above it holding .apache-magpie.lock, else the current
 * directory — the order the hook uses. Found by walking up the physical
 * path (no git is run: nothing of the project is executed). Returns a
 * malloc'd absolute path.
 */
static char *
default_project(void)
{
	int (*const tests[])(const char *) = { git_top, adopted };
	char cwd[4096], *slash;
	size_t t;

	for (t = 0; t < sizeof(tests) / sizeof(tests[0]); t++) {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			break;
		for (;;) {
			if (tests[t](cwd[0] != '\0' ? cwd : "/"))
				return xstrdup(cwd[0] != '\0' ? cwd : "/");
			if (cwd[0] == '\0')
				break;
			slash = strrchr(cwd, '/');
			*slash = '\0';
		}
	}
	if (getcwd(cwd, sizeof(cwd)) != NULL)
		return xstrdup(cwd);
	return absolute(".");
}

static int
parse_uint(const char *v, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long n;

	if (!isdigit((unsigned char)v[0]))
		return -1;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno != 0 || *end != '\0' || n < lo || n > hi)
		return -1;
	*out = (unsigned)n;
	return 0;
}

/*
 * A size: decimal bytes, optionally with K, M or G (KiB, MiB, GiB: powers
 * of 1024); 0, or from 4096 bytes to 1 TiB. -1 otherwise.
 */
static int
parse_size(const char *v, unsigned long long *out)
{
	static const char *const units[] = { "", "K", "M", "G" };
	unsigned long long n;
	char *end;
	size_t u;

	if (!isdigit((unsigned char)v[0]))
		return -1;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno != 0)
		return -1;
	for (u = 0; u < 4; u++)
		if (strcasecmp(end, units[u]) == 0 || (u > 0 &&
		    strlen(end) == 3 && strncasecmp(end, units[u], 1) == 0 &&
		    strcasecmp(end + 1, "iB") == 0))
			break;
	if (u == 4 || n > (1ULL << 40) >> (10 * u))
		return -1;
	n <<= 10 * u;
	if (n != 0 && n < 4096)
		return -1;
	*out = n;
	return 0;
}

/*
 * --since (doc/audit.md): a UTC date or time, YYYY-MM-DD[THH:MM[:SS[.mmm]]]
 * with an optional Z, or a duration back from now, N followed by s, m, h
 * or d. Returns the time as the log writes it (YYYY-MM-DDTHH:MM:SS.mmmZ,
 * which sorts as text) in out (32 bytes), or -1.
 */
static int
parse_since(const char *v, char out[32])
{
	static const char unit[] = "smhd";
	static const long long secs[] = { 1, 60, 3600, 86400 };
	int y, mo, d, h = 0, mi = 0, se = 0, ms = 0, n = 0;
	unsigned long long num;
	const char *u;
	struct tm tm;
	time_t t;
	char *end;

	if (isdigit((unsigned char)v[0]) && (u = strchr(unit, v[strlen(v) - 1])) !=
	    NULL && v[strlen(v) - 1] != '\0' && strspn(v, "0123456789") ==
	    strlen(v) - 1) {
		errno = 0;
		num = strtoull(v, &end, 10);
		if (errno != 0 || num > 36500ULL * 86400)
			return -1;
		t = time(NULL) - (time_t)(num * (unsigned long long)secs[u - unit]);
		if (gmtime_r(&t, &tm) == NULL)
			return -1;
		strftime(out, 32, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
		return 0;
	}
	if (sscanf(v, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
		return -1;
	v += n;
	if (*v == 'T') {
		if (sscanf(v, "T%2d:%2d%n", &h, &mi, &n) != 2 || n != 6)
			return -1;
		v += n;
		if (*v == ':') {
			if (sscanf(v, ":%2d%n", &se, &n) != 1 || n != 3)
				return -1;
			v += n;
			if (*v == '.') {
				if (sscanf(v, ".%3d%n", &ms, &n) != 1 || n != 4)
					return -1;
				v += n;
			}
		}
	}
	if (*v == 'Z')
		v++;
	if (*v != '\0' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || se > 60 || y < 1970 || h < 0 || mi < 0 || se < 0 ||
	    ms < 0)
		return -1;
	snprintf(out, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", y, mo, d, h, mi,
	    se, ms);
	return 0;
}

/* Decimal "N" or "N.N" (cli.md §2.2). */
static int
parse_seconds(const char *v, double *out)
{
	const char *p = v;
	char *end;

	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p != '\0')
		return -1;
	*out = strtod(v, &end);
	return isfinite(*out) ? 0 : -1;
}

static int
valid_host(const char *h)
{
	size_t n = strlen(h), i;

	if (n == 0 || n > 253)
		return 0;
	if (strchr(h, ':') != NULL) {	/* IPv6 literal, no brackets */
		for (i = 0; i < n; i++)
			if (!isxdigit((unsigned char)h[i]) && h[i] != ':' &&
			    h[i] != '.')
				return 0;
		return 1;
	}
	if (!isalnum((unsigned char)h[0]) || !isalnum((unsigned char)h[n - 1]))
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)h[i]) && h[i] != '.' && h[i] != '-')
			return 0;
	return 1;
}

/* A boolean environment value (cli.md §2.2, --daemon) into *out; 0 or 2. */
static int
parse_bool(const char *v, const char *from, int *out)
{
	if (strcasecmp(v, "1") == 0 || strcasecmp(v, "true") == 0 ||
	    strcasecmp(v, "yes") == 0)
		*out = 1;
	else if (strcasecmp(v, "0") == 0 || strcasecmp(v, "false") == 0 ||
	    strcasecmp(v, "no") == 0)
		*out = 0;
	else
		return usage_error("invalid value \"%s\" for %s "
		    "(expected 1, true, yes, 0, false or no)", v, from);
	return 0;
}

/*
 * A session id names a file in <run-dir>/sessions: 1-128 bytes of
 * [A-Za-z0-9._-], not "." or ".." (Claude Code's session ids are UUIDs).
 */
static int
valid_session_id(const char *v)
{
	size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-");

	return n > 0 && n <= 128 && v[n] == '\0' && strcmp(v, ".") != 0 &&
	    strcmp(v, "..") != 0;
}

/*
 * The handlers of the options that take more than a field store (see
 * stores[] below). Each takes the config, the value v, from (the flag or
 * variable, for messages) and replace_list (a repeatable option's first
 * value: the list starts again); returns 0, or 2 after a usage message.
 */

/* --backend: a ","-separated list of podman, docker, auto. */
static int
apply_backend(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	char *copy, *tok, *save;

	if (replace_list)
		c->backend_podman = c->backend_docker = 0;
	copy = xstrdup(v);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "podman") == 0)
			c->backend_podman = 1;
		else if (strcmp(tok, "docker") == 0)
			c->backend_docker = 1;
		else if (strcmp(tok, "auto") == 0)
			c->backend_podman = c->backend_docker = 1;
		else {
			free(copy);
			return usage_error("invalid value \"%s\" for %s "
			    "(expected podman, docker or auto)", v, from);
		}
	}
	free(copy);
	return 0;
}

/* --egress: the proxy injection mode. */
static int
apply_egress(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	(void)replace_list;
	if (strcmp(v, "inject-if-available") == 0)
		c->egress = CG_EGRESS_INJECT;
	else if (strcmp(v, "require") == 0)
		c->egress = CG_EGRESS_REQUIRE;
	else if (strcmp(v, "off") == 0)
		c->egress = CG_EGRESS_OFF;
	else
		return usage_error("invalid value \"%s\" for %s (expected "
		    "inject-if-available, require or off)", v, from);
	return 0;
}

/* --egress-host: a host name or IP address (valid_host). */
static int
apply_egress_host(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	(void)replace_list;
	if (!valid_host(v))
		return usage_error("invalid value \"%s\" for %s (expected "
		    "a host name or IP address)", v, from);
	free(c->egress_host);
	c->egress_host = xstrdup(v);
	return 0;
}

/* --extra-bind-root: a ":"-separated list, CG_EXTRA_ROOTS_MAX at most. */
static int
apply_extra_roots(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	char *copy, *tok, *save;

	(void)from;
	if (replace_list) {
		while (c->nextra_roots > 0)
			free(c->extra_roots[--c->nextra_roots]);
	}
	copy = xstrdup(v);
	for (tok = strtok_r(copy, ":", &save); tok != NULL;
	    tok = strtok_r(NULL, ":", &save)) {
		if (c->nextra_roots == CG_EXTRA_ROOTS_MAX) {
			free(copy);
			return usage_error("too many extra bind roots "
			    "(at most %d)", CG_EXTRA_ROOTS_MAX);
		}
		c->extra_roots[c->nextra_roots++] = absolute(tok);
	}
	free(copy);
	return 0;
}

/* --idle-timeout: seconds (0 never), kept as given for the exit line. */
static int
apply_idle_timeout(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	double d;

	(void)replace_list;
	if (parse_seconds(v, &d) < 0)
		return usage_error("invalid value \"%s\" for %s "
		    "(expected seconds, e.g. 600 or 0.5)", v, from);
	c->idle_timeout = d;
	free(c->idle_timeout_text);
	c->idle_timeout_text = xstrdup(v);
	return 0;
}

/* --backend-timeout: seconds > 0. */
static int
apply_backend_timeout(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	double d;

	(void)replace_list;
	if (parse_seconds(v, &d) < 0 || d <= 0)
		return usage_error("invalid value \"%s\" for %s "
		    "(expected seconds > 0)", v, from);
	c->backend_timeout = d;
	return 0;
}

/* --log-level: error, warn (or warning), info, debug; any case. */
static int
apply_log_level(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	(void)replace_list;
	if (strcasecmp(v, "error") == 0)
		c->log_level = LOG_ERROR;
	else if (strcasecmp(v, "warn") == 0 ||
	    strcasecmp(v, "warning") == 0)
		c->log_level = LOG_WARNING;
	else if (strcasecmp(v, "info") == 0)
		c->log_level = LOG_INFO;
	else if (strcasecmp(v, "debug") == 0)
		c->log_level = LOG_DEBUG;
	else
		return usage_error("invalid value \"%s\" for %s "
		    "(expected error, warn, info or debug)", v, from);
	return 0;
}

/* --log-format: text or json. */
static int
apply_log_format(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	(void)replace_list;
	if (strcmp(v, "text") == 0)
		c->log_format = LOG_TEXT;
	else if (strcmp(v, "json") == 0)
		c->log_format = LOG_JSON;
	else
		return usage_error("invalid value \"%s\" for %s "
		    "(expected text or json)", v, from);
	return 0;
}

/* --log-max-size: 0 or a size of at least 4096 bytes (parse_size). */
static int
apply_log_max_size(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	(void)replace_list;
	if (parse_size(v, &c->log_max_size) < 0)
		return usage_error("invalid value \"%s\" for %s (expected "
		    "0 or a size of at least 4096 bytes, e.g. 16M)", v,
		    from);
	return 0;
}

/* --since: a UTC time or a duration (parse_since). */
static int
apply_since(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	char since[32];

	(void)replace_list;
	if (parse_since(v, since) < 0)
		return usage_error("invalid value \"%s\" for %s (expected "
		    "a UTC time like 2026-12-01T13:00 or a duration like "
		    "2h)", v, from);
	free(c->since);
	c->since = xstrdup(since);
	return 0;
}

/* --decision: all, refused or violation. */
static int
apply_decision(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	(void)replace_list;
	if (strcmp(v, "all") == 0)
		c->audit_part = AUDIT_ALL;
	else if (strcmp(v, "refused") == 0)
		c->audit_part = AUDIT_REFUSED;
	else if (strcmp(v, "violation") == 0)
		c->audit_part = AUDIT_VIOLATION;
	else
		return usage_error("invalid value \"%s\" for %s (expected "
		    "refused, violation or all)", v, from);
	return 0;
}

/* --json: set by the flag (it has no variable); the value is unused. */
static int
apply_json(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	(void)v;
	(void)from;
	(void)replace_list;
	c->json = 1;
	return 0;
}

/* --memory-budget: a size of 32 MiB at least (parse_size). */
static int
apply_memory_budget(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	(void)replace_list;
	if (parse_size(v, &c->memory_budget) < 0 ||
	    c->memory_budget < (32ull << 20))
		return usage_error("invalid value \"%s\" for %s (expected "
		    "a size of 32MiB to 1024GiB, e.g. 512MiB)", v, from);
	return 0;
}

/* --session: a session id (valid_session_id). */
static int
apply_session(struct cg_config *c, const char *v, const char *from,
    int replace_list)
{
	(void)replace_list;
	if (!valid_session_id(v))
		return usage_error("invalid value \"%s\" for %s (expected "
		    "1-128 of [A-Za-z0-9._-], not . or ..)", v, from);
	free(c->session);
	c->session = xstrdup(v);
	return 0;
}

/* How apply() stores a value: a kind of field, or the option's own handler. */
enum store {
	ST_FN,		/* fn does it all */
	ST_STRING,	/* a char * field: a copy of the value */
	ST_PATH,	/* a char * field: absolute() of the value */
	ST_ABSOLUTE,	/* a char * field: the value, which must start with / */
	ST_BOOL,	/* an int field: parse_bool() of the value */
	ST_UINT,	/* an unsigned field: an integer lo-hi (parse_uint) */
};

#define FIELD(f)	offsetof(struct cg_config, f)

/*
 * What apply() does with each option, indexed by enum cg_opt: kind, the
 * field (FIELD) for the kinds that store one, the range lo-hi and the
 * usage message's "(expected ...)" of an ST_UINT, or fn for ST_FN. An
 * option missing here is an ST_FN without fn: an internal error.
 */
static const struct store_entry {
	enum store kind;
	size_t off;
	unsigned lo, hi;
	const char *expected;
	int (*fn)(struct cg_config *, const char *, const char *, int);
} stores[] = {
	[CGO_PROJECT] = { ST_STRING, FIELD(project), 0, 0, NULL, NULL },
	[CGO_RUN_DIR] = { ST_PATH, FIELD(run_dir), 0, 0, NULL, NULL },
	[CGO_PID_FILE] = { ST_PATH, FIELD(pid_file), 0, 0, NULL, NULL },
	[CGO_BACKEND] = { .fn = apply_backend },
	[CGO_PODMAN_SOCKET] = { ST_ABSOLUTE, FIELD(podman_socket), 0, 0, NULL,
	    NULL },
	[CGO_DOCKER_SOCKET] = { ST_ABSOLUTE, FIELD(docker_socket), 0, 0, NULL,
	    NULL },
	[CGO_EGRESS] = { .fn = apply_egress },
	[CGO_EGRESS_PORT] = { ST_UINT, FIELD(egress_port), 1, 65535,
	    "an integer 1-65535", NULL },
	[CGO_EGRESS_HOST] = { .fn = apply_egress_host },
	[CGO_EXTRA_BIND_ROOT] = { .fn = apply_extra_roots },
	[CGO_IDLE_TIMEOUT] = { .fn = apply_idle_timeout },
	[CGO_BACKEND_TIMEOUT] = { .fn = apply_backend_timeout },
	[CGO_LOG_LEVEL] = { .fn = apply_log_level },
	[CGO_LOG_FORMAT] = { .fn = apply_log_format },
	[CGO_MAX_CONNECTIONS] = { ST_UINT, FIELD(max_connections), 1, 65535,
	    "an integer 1-65535", NULL },
	[CGO_DAEMON] = { ST_BOOL, FIELD(daemon), 0, 0, NULL, NULL },
	[CGO_REQUIRE_FULL_SANDBOX] = { ST_BOOL, FIELD(require_full_sandbox),
	    0, 0, NULL, NULL },
	[CGO_SESSION] = { .fn = apply_session },
	[CGO_SESSION_PID] = { ST_UINT, FIELD(session_pid), 2, 4194304,
	    "a process id", NULL },
	[CGO_STOP_CONTAINERS] = { ST_BOOL, FIELD(stop_containers), 0, 0, NULL,
	    NULL },
	[CGO_LOG_MAX_SIZE] = { .fn = apply_log_max_size },
	[CGO_SINCE] = { .fn = apply_since },
	[CGO_DECISION] = { .fn = apply_decision },
	[CGO_JSON] = { .fn = apply_json },
	[CGO_LOG_FILE] = { ST_PATH, FIELD(log_file), 0, 0, NULL, NULL },
	[CGO_MEMORY_BUDGET] = { .fn = apply_memory_budget },
	[CGO_REQUIRE_PATCHED] = { ST_BOOL, FIELD(require_patched), 0, 0, NULL,
	    NULL },
};

/*
 * Apply one value of option o (stores[o->id]); from names the flag or
 * variable for messages; replace_list: see the handlers above. Returns 0,
 * or 2 after a usage message.
 */
static int
apply(struct cg_config *c, const struct opt *o, const char *v,
    const char *from, int replace_list)
{
	const struct store_entry *s;
	void *field;
	unsigned u;

	if ((size_t)o->id >= sizeof(stores) / sizeof(stores[0]))
		return usage_error("internal: unhandled option");
	s = &stores[o->id];
	field = (char *)c + s->off;
	switch (s->kind) {
	case ST_FN:
		if (s->fn == NULL)
			break;
		return s->fn(c, v, from, replace_list);
	case ST_STRING:
	case ST_PATH:
		free(*(char **)field);
		*(char **)field = s->kind == ST_PATH ? absolute(v) : xstrdup(v);
		return 0;
	case ST_ABSOLUTE:
		if (v[0] != '/')
			return usage_error("invalid value \"%s\" for %s "
			    "(expected an absolute path)", v, from);
		free(*(char **)field);
		*(char **)field = xstrdup(v);
		return 0;
	case ST_BOOL:
		return parse_bool(v, from, (int *)field);
	case ST_UINT:
		if (parse_uint(v, s->lo, s->hi, &u) < 0)
			return usage_error("invalid value \"%s\" for %s "
			    "(expected %s)", v, from, s->expected);
		*(unsigned *)field = u;
		return 0;
	}
	return usage_error("internal: unhandled option");
}

static void
defaults(struct cg_config *c, enum cg_command cmd)
{
	memset(c, 0, sizeof(*c));
	c->command = cmd;
	c->backend_podman = c->backend_docker = 1;
	c->egress = CG_EGRESS_INJECT;
	c->egress_port = 8899;
	c->idle_timeout = 14400;
	c->idle_timeout_text = xstrdup("14400");
	c->backend_timeout = 60;
	c->log_level = LOG_INFO;
	c->log_format = LOG_TEXT;
	c->max_connections = 256;
	c->log_max_size = 16ULL << 20;
	c->memory_budget = 512ull << 20;
}

void
cli_free(struct cg_config *c)
{
	free(c->project);
	free(c->run_dir);
	free(c->pid_file);
	free(c->podman_socket);
	free(c->docker_socket);
	free(c->egress_host);
	while (c->nextra_roots > 0)
		free(c->extra_roots[--c->nextra_roots]);
	free(c->idle_timeout_text);
	free(c->session);
	free(c->since);
	free(c->log_file);
	memset(c, 0, sizeof(*c));
}

/*
 * The flags of subcommand cmd (argv[1]) from argv[2] on, applied in
 * order; sets seen[i] for each opts[i] given. Returns 0, or 2 after a
 * usage message.
 */
static int
parse_flags(int argc, char **argv, struct cg_config *c, enum cg_command cmd,
    int seen[NOPTS])
{
	const char *sub = argv[1], *arg, *val, *eq;
	size_t i, namelen;
	int rc, ai;

	for (ai = 2; ai < argc; ai++) {
		arg = argv[ai];
		if (strncmp(arg, "--", 2) != 0)
			return usage_error("unexpected argument \"%s\"", arg);
		eq = strchr(arg, '=');
		namelen = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
		for (i = 0; i < NOPTS; i++)
			if (strlen(opts[i].flag) == namelen &&
			    strncmp(opts[i].flag, arg, namelen) == 0)
				break;
		if (i == NOPTS)
			return usage_error("unknown flag %.*s", (int)namelen, arg);
		if (!(opts[i].cmds & (1u << cmd)))
			return usage_error("%s is not valid for %s", opts[i].flag, sub);
		if (opts[i].boolean) {
			if (eq != NULL)
				return usage_error("%s takes no value", opts[i].flag);
			val = "1";
		} else if (eq != NULL) {
			val = eq + 1;
		} else {
			if (ai + 1 >= argc)
				return usage_error("%s needs a value", opts[i].flag);
			val = argv[++ai];
		}
		rc = apply(c, &opts[i], val, opts[i].flag,
		    opts[i].repeatable && !seen[i]);
		if (rc != 0)
			return rc;
		seen[i] = 1;
		c->explicit_mask |= 1u << opts[i].id;
	}
	return 0;
}

/*
 * Environment for the flags of subcommand cmd not given (seen[i] unset;
 * cli.md §2.3), in table order. Returns 0, or 2 after a usage message.
 */
static int
apply_environment(struct cg_config *c, enum cg_command cmd,
    const int seen[NOPTS])
{
	const char *val;
	size_t i;
	int rc;

	for (i = 0; i < NOPTS; i++) {
		val = opts[i].env != NULL ? getenv(opts[i].env) : NULL;
		if (seen[i] || val == NULL || val[0] == '\0')
			continue;
		if (!(opts[i].cmds & (1u << cmd)))
			continue;
		rc = apply(c, &opts[i], val, opts[i].env, 1);
		if (rc != 0)
			return rc;
		c->explicit_mask |= 1u << opts[i].id;
	}
	return 0;
}

/*
 * The subcommand, its flags and the environment (cli.md §1-§3) into c,
 * defaults first. Returns 0, or 2 after a usage message.
 */
static int
parse(int argc, char **argv, struct cg_config *c)
{
	const char *sub;
	int seen[NOPTS] = { 0 };
	enum cg_command cmd;
	int rc, ai;

	if (argc < 2)
		return usage_error("missing subcommand (serve, stop, status, version)");
	sub = argv[1];
	if (strcmp(sub, "serve") == 0)
		cmd = CMD_SERVE;
	else if (strcmp(sub, "stop") == 0)
		cmd = CMD_STOP;
	else if (strcmp(sub, "status") == 0)
		cmd = CMD_STATUS;
	else if (strcmp(sub, "audit") == 0)
		cmd = CMD_AUDIT;
	else if (strcmp(sub, "version") == 0 || strcmp(sub, "--version") == 0)
		cmd = CMD_VERSION;
	else if (strcmp(sub, "help") == 0 || strcmp(sub, "--help") == 0 ||
	    strcmp(sub, "-h") == 0)
		cmd = CMD_HELP;
	else if (sub[0] == '-')
		return usage_error("missing subcommand (serve, stop, status, version)");
	else
		return usage_error("unknown subcommand \"%s\"", sub);
	defaults(c, cmd);
	if (cmd == CMD_HELP) {
		/* help [SUBCOMMAND] */
		if (argc > 3)
			return usage_error("unexpected argument \"%s\"", argv[3]);
		if (argc == 3) {
			if (strcmp(argv[2], "serve") != 0 &&
			    strcmp(argv[2], "stop") != 0 &&
			    strcmp(argv[2], "status") != 0 &&
			    strcmp(argv[2], "audit") != 0 &&
			    strcmp(argv[2], "version") != 0)
				return usage_error("unknown subcommand \"%s\"",
				    argv[2]);
			c->help_topic = argv[2];
		}
		return 0;
	}
	/* SUBCOMMAND --help (or -h) anywhere: that subcommand's usage */
	for (ai = 2; ai < argc; ai++)
		if (strcmp(argv[ai], "--help") == 0 || strcmp(argv[ai], "-h") == 0) {
			c->command = CMD_HELP;
			c->help_topic = cmd == CMD_SERVE ? "serve" :
			    cmd == CMD_STOP ? "stop" : cmd == CMD_STATUS ?
			    "status" : cmd == CMD_AUDIT ? "audit" : "version";
			return 0;
		}
	if (cmd == CMD_VERSION) {
		if (argc > 2)
			return usage_error("unexpected argument \"%s\"", argv[2]);
		return 0;
	}

	rc = parse_flags(argc, argv, c, cmd, seen);
	if (rc != 0)
		return rc;
	rc = apply_environment(c, cmd, seen);
	if (rc != 0)
		return rc;
	if (c->podman_socket != NULL && !c->backend_podman)
		return usage_error("--podman-socket needs podman in the backend set");
	if (c->docker_socket != NULL && !c->backend_docker)
		return usage_error("--docker-socket needs docker in the backend set");
	if (c->session_pid != 0 && c->session == NULL)
		return usage_error("--session-pid needs --session");
	if (c->project == NULL)
		c->project = default_project();
	return 0;
}

int
cli_parse(int argc, char **argv, struct cg_config *c)
{
	int rc;

	memset(c, 0, sizeof(*c));
	rc = parse(argc, argv, c);
	if (rc != 0)
		cli_free(c);	/* a usage error leaves nothing allocated */
	return rc;
}
