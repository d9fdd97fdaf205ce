/* Command line and environment (cli.md §1-§3). */
#include "monitor/config.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/xmalloc.h"

enum opt_id {
	O_PROJECT, O_RUN_DIR, O_PID_FILE, O_BACKEND, O_PODMAN_SOCKET,
	O_DOCKER_SOCKET, O_EGRESS, O_EGRESS_PORT, O_EGRESS_HOST,
	O_EXTRA_BIND_ROOT, O_IDLE_TIMEOUT, O_BACKEND_TIMEOUT, O_LOG_LEVEL,
	O_LOG_FORMAT, O_MAX_CONNECTIONS, O_DAEMON,
};

/* One flag: name, environment variable, serve-only, boolean, repeatable. */
static const struct opt {
	enum opt_id id;
	const char *flag;
	const char *env;
	int serve_only;
	int boolean;
	int repeatable;
} opts[] = {
	{ O_PROJECT, "--project", "CONTAINER_GATEWAY_PROJECT", 0, 0, 0 },
	{ O_RUN_DIR, "--run-dir", "CONTAINER_GATEWAY_RUN_DIR", 0, 0, 0 },
	{ O_PID_FILE, "--pid-file", "CONTAINER_GATEWAY_PID_FILE", 0, 0, 0 },
	{ O_BACKEND, "--backend", "CONTAINER_GATEWAY_BACKEND", 1, 0, 1 },
	{ O_PODMAN_SOCKET, "--podman-socket", "CONTAINER_GATEWAY_PODMAN_SOCKET", 1, 0, 0 },
	{ O_DOCKER_SOCKET, "--docker-socket", "CONTAINER_GATEWAY_DOCKER_SOCKET", 1, 0, 0 },
	{ O_EGRESS, "--egress", "CONTAINER_GATEWAY_EGRESS", 1, 0, 0 },
	{ O_EGRESS_PORT, "--egress-port", "CONTAINER_GATEWAY_EGRESS_PORT", 1, 0, 0 },
	{ O_EGRESS_HOST, "--egress-host", "CONTAINER_GATEWAY_EGRESS_HOST", 1, 0, 0 },
	{ O_EXTRA_BIND_ROOT, "--extra-bind-root", "CONTAINER_GATEWAY_EXTRA_BIND_ROOT", 1, 0, 1 },
	{ O_IDLE_TIMEOUT, "--idle-timeout", "CONTAINER_GATEWAY_IDLE_TIMEOUT", 1, 0, 0 },
	{ O_BACKEND_TIMEOUT, "--backend-timeout", "CONTAINER_GATEWAY_BACKEND_TIMEOUT", 1, 0, 0 },
	{ O_LOG_LEVEL, "--log-level", "CONTAINER_GATEWAY_LOG_LEVEL", 1, 0, 0 },
	{ O_LOG_FORMAT, "--log-format", "CONTAINER_GATEWAY_LOG_FORMAT", 1, 0, 0 },
	{ O_MAX_CONNECTIONS, "--max-connections", "CONTAINER_GATEWAY_MAX_CONNECTIONS", 1, 0, 0 },
	{ O_DAEMON, "--daemon", "CONTAINER_GATEWAY_DAEMON", 1, 1, 0 },
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

void
cli_usage(void)
{
	fputs("usage: container-gateway serve  [--project PATH] [--run-dir PATH] [--pid-file PATH]\n"
	    "                                [--backend podman|docker|auto] [--podman-socket PATH]\n"
	    "                                [--docker-socket PATH] [--egress inject-if-available|require|off]\n"
	    "                                [--egress-port N] [--egress-host HOST] [--extra-bind-root PATH]\n"
	    "                                [--idle-timeout SECONDS] [--backend-timeout SECONDS]\n"
	    "                                [--log-level error|warn|info|debug] [--log-format text|json]\n"
	    "                                [--max-connections N] [--daemon]\n"
	    "       container-gateway stop   [--project PATH] [--run-dir PATH] [--pid-file PATH]\n"
	    "       container-gateway status [--project PATH] [--run-dir PATH] [--pid-file PATH]\n"
	    "       container-gateway version\n", stdout);
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

/* Apply one value; from names the flag or variable for messages. */
static int
apply(struct cg_config *c, const struct opt *o, const char *v,
    const char *from, int replace_list)
{
	unsigned u;
	double d;
	char *copy, *tok, *save;

	switch (o->id) {
	case O_PROJECT:
		free(c->project);
		c->project = xstrdup(v);
		return 0;
	case O_RUN_DIR:
		free(c->run_dir);
		c->run_dir = absolute(v);
		return 0;
	case O_PID_FILE:
		free(c->pid_file);
		c->pid_file = absolute(v);
		return 0;
	case O_BACKEND:
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
	case O_PODMAN_SOCKET:
	case O_DOCKER_SOCKET:
		if (v[0] != '/')
			return usage_error("invalid value \"%s\" for %s "
			    "(expected an absolute path)", v, from);
		copy = xstrdup(v);
		if (o->id == O_PODMAN_SOCKET) {
			free(c->podman_socket);
			c->podman_socket = copy;
		} else {
			free(c->docker_socket);
			c->docker_socket = copy;
		}
		return 0;
	case O_EGRESS:
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
	case O_EGRESS_PORT:
		if (parse_uint(v, 1, 65535, &u) < 0)
			return usage_error("invalid value \"%s\" for %s "
			    "(expected an integer 1-65535)", v, from);
		c->egress_port = u;
		return 0;
	case O_EGRESS_HOST:
		if (!valid_host(v))
			return usage_error("invalid value \"%s\" for %s (expected "
			    "a host name or IP address)", v, from);
		free(c->egress_host);
		c->egress_host = xstrdup(v);
		return 0;
	case O_EXTRA_BIND_ROOT:
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
	case O_IDLE_TIMEOUT:
		if (parse_seconds(v, &d) < 0)
			return usage_error("invalid value \"%s\" for %s "
			    "(expected seconds, e.g. 600 or 0.5)", v, from);
		c->idle_timeout = d;
		free(c->idle_timeout_text);
		c->idle_timeout_text = xstrdup(v);
		return 0;
	case O_BACKEND_TIMEOUT:
		if (parse_seconds(v, &d) < 0 || d <= 0)
			return usage_error("invalid value \"%s\" for %s "
			    "(expected seconds > 0)", v, from);
		c->backend_timeout = d;
		return 0;
	case O_LOG_LEVEL:
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
	case O_LOG_FORMAT:
		if (strcmp(v, "text") == 0)
			c->log_format = LOG_TEXT;
		else if (strcmp(v, "json") == 0)
			c->log_format = LOG_JSON;
		else
			return usage_error("invalid value \"%s\" for %s "
			    "(expected text or json)", v, from);
		return 0;
	case O_MAX_CONNECTIONS:
		if (parse_uint(v, 1, 65535, &u) < 0)
			return usage_error("invalid value \"%s\" for %s "
			    "(expected an integer 1-65535)", v, from);
		c->max_connections = u;
		return 0;
	case O_DAEMON:
		if (strcasecmp(v, "1") == 0 || strcasecmp(v, "true") == 0 ||
		    strcasecmp(v, "yes") == 0)
			c->daemon = 1;
		else if (strcasecmp(v, "0") == 0 ||
		    strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0)
			c->daemon = 0;
		else
			return usage_error("invalid value \"%s\" for %s "
			    "(expected 1, true, yes, 0, false or no)", v, from);
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
	memset(c, 0, sizeof(*c));
}

static int
parse(int argc, char **argv, struct cg_config *c)
{
	const char *sub, *arg, *val, *eq;
	int seen[NOPTS] = { 0 };
	size_t i, namelen;
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
	if (cmd == CMD_VERSION || cmd == CMD_HELP) {
		if (argc > 2)
			return usage_error("unexpected argument \"%s\"", argv[2]);
		return 0;
	}

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
		if (opts[i].serve_only && cmd != CMD_SERVE)
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
	}
	/* Environment for the flags not given (cli.md §2.3). */
	for (i = 0; i < NOPTS; i++) {
		val = getenv(opts[i].env);
		if (seen[i] || val == NULL || val[0] == '\0')
			continue;
		if (opts[i].serve_only && cmd != CMD_SERVE)
			continue;
		rc = apply(c, &opts[i], val, opts[i].env, 1);
		if (rc != 0)
			return rc;
	}
	if (c->podman_socket != NULL && !c->backend_podman)
		return usage_error("--podman-socket needs podman in the backend set");
	if (c->docker_socket != NULL && !c->backend_docker)
		return usage_error("--docker-socket needs docker in the backend set");
	if (c->project == NULL)
		c->project = absolute(".");
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
