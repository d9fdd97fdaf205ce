/* The gateway's configuration from flags and environment (cli.md §2). */
#ifndef CG_CONFIG_H
#define CG_CONFIG_H

#include "monitor/log.h"
#include "policy/policy.h"

#define CG_EXTRA_ROOTS_MAX	16

enum cg_command { CMD_SERVE, CMD_STOP, CMD_STATUS, CMD_VERSION, CMD_HELP,
	CMD_AUDIT };

/* The flags of cli.md §2 (bit numbers of cg_config.explicit_mask). */
enum cg_opt {
	CGO_PROJECT, CGO_RUN_DIR, CGO_PID_FILE, CGO_BACKEND, CGO_PODMAN_SOCKET,
	CGO_DOCKER_SOCKET, CGO_EGRESS, CGO_EGRESS_PORT, CGO_EGRESS_HOST,
	CGO_EXTRA_BIND_ROOT, CGO_IDLE_TIMEOUT, CGO_BACKEND_TIMEOUT, CGO_LOG_LEVEL,
	CGO_LOG_FORMAT, CGO_MAX_CONNECTIONS, CGO_DAEMON, CGO_REQUIRE_FULL_SANDBOX,
	CGO_SESSION, CGO_SESSION_PID, CGO_STOP_CONTAINERS, CGO_LOG_MAX_SIZE,
	CGO_SINCE, CGO_DECISION, CGO_JSON, CGO_LOG_FILE, CGO_MEMORY_BUDGET,
	CGO_REQUIRE_PATCHED,
};

/* `audit --decision`: which part of the report. */
enum cg_audit_part { AUDIT_ALL = 0, AUDIT_REFUSED, AUDIT_VIOLATION };

struct cg_config {
	enum cg_command command;
	char *project;		/* as given (default: cwd) */
	char *run_dir;		/* absolute, not resolved; NULL = default */
	char *pid_file;		/* absolute; NULL = <run-dir>/container-gateway.pid */
	int backend_podman, backend_docker;	/* the backend set */
	char *podman_socket, *docker_socket;	/* explicit, absolute */
	enum cg_egress egress;
	unsigned egress_port;
	char *egress_host;	/* NULL = per backend */
	char *extra_roots[CG_EXTRA_ROOTS_MAX];
	int nextra_roots;
	double idle_timeout;	/* seconds, 0 disables */
	char *idle_timeout_text;	/* as given, for the exit line */
	double backend_timeout;	/* seconds > 0 */
	enum log_level log_level;
	enum log_format log_format;
	unsigned max_connections;
	unsigned long long memory_budget;	/* bytes: the monitor's at most
					   (monitor/budget.c) */
	int daemon;
	int require_full_sandbox;	/* refuse to serve with a degraded sandbox */
	char *session;		/* --session ID: serve registers, stop leaves */
	unsigned session_pid;	/* the session's process (0: none given) */
	int stop_containers;	/* stop: the project's containers too */
	unsigned long long log_max_size;	/* bytes per daemon log file
						   before rotation; 0: none */
	/* audit (doc/audit.md "The audit command") */
	char *since;		/* records from this UTC time on
				   (YYYY-MM-DDTHH:MM:SS.mmmZ); NULL: all */
	enum cg_audit_part audit_part;
	int json;		/* --json */
	char *log_file;		/* --log-file; NULL: <run-dir>'s log */
	int require_patched;	/* --require-patched-backend (monitor/advisory.c) */
	unsigned explicit_mask;	/* bit 1 << enum cg_opt: given by flag or
				   environment, not defaulted */
	const char *help_topic;	/* CMD_HELP: "serve", ... or NULL for all */
};

#endif
