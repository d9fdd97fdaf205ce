/*
 * The monitor's log (cli.md §14): text or JSON lines on stderr (or the
 * daemon's log file), level-filtered. Every value that may come from a
 * client, a child or the filesystem is escaped (cli.md §14.1).
 */
#ifndef CG_LOG_H
#define CG_LOG_H

#include <stddef.h>

enum log_level { LOG_ERROR = 0, LOG_WARNING, LOG_INFO, LOG_DEBUG };
enum log_format { LOG_TEXT = 0, LOG_JSON };

/* Set the threshold and format; lines above the level are dropped. */
void log_init(enum log_level level, enum log_format format, int fd);

/* 1 when lines of this level are written. */
int log_enabled(enum log_level level);

/*
 * A typed field of an event line: text values are escaped; in JSON
 * numbers (is_num) are written bare, NULL text as null.
 */
struct log_field {
	const char *name;
	const char *text;	/* NULL with is_num 0: JSON null, omitted in text */
	long long num;
	int is_num;
	int hidden_in_text;	/* JSON-only field (already part of msg) */
};

#define LF_STR(n, v)	{ (n), (v), 0, 0, 1 }
#define LF_NUM(n, v)	{ (n), NULL, (long long)(v), 1, 1 }

/*
 * Write one line: event name, human message msg (already composed, used
 * verbatim in text format: callers escape untrusted parts with
 * log_quote), then fields for JSON. nfields may be 0.
 */
void log_event(enum log_level level, const char *event, const char *msg,
    const struct log_field *fields, size_t nfields);

/* printf-style shorthand without JSON fields. */
void log_msg(enum log_level level, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Escape s[0..len) for a text-format message (cli.md §14.1): returned as
 * is when it has only bytes 0x21-0x7e other than '"' and '\\', else
 * quoted "..." with \" \\ and \xHH. Returns a malloc'd string.
 */
char *log_quote(const char *s, size_t len);

/*
 * The start-up and exit events of cli.md §14.2 with their JSON fields.
 * Paths are escaped per §14.1 in the text message. kind values are
 * "podman" or "docker".
 */
/* start: "container-gateway <version> serving <ROOT> (run directory <dir>)" */
void log_start(const char *version, const char *root, const char *run_dir);
/* listen: "<kind> clients -> <socket> (backend <bkind> at <bsocket>)" */
void log_listen(const char *kind, const char *socket, const char *backend_kind,
    const char *backend_socket);
/* sandbox: the request parser's sandbox line; namespaces, chroot 0/1. */
void log_sandbox(int namespaces, int chroot);
/*
 * egress (cli.md §15): INFO reachable / WARNING unreachable. mode is the
 * --egress text, port the egress port, proxy the PROXY value when
 * available (else NULL), socket_kind the served socket's kind, kind the
 * backend kind named in the reachable message.
 */
void log_egress(const char *socket_kind, const char *kind, const char *mode,
    unsigned port, int available, const char *proxy);
/* idle-exit: "idle for <text>s; exiting", field seconds (a JSON number). */
void log_idle_exit(const char *text, double seconds);

/* Current UTC time as YYYY-MM-DDTHH:MM:SS.mmmZ into out (64-byte buffer). */
void log_timestamp(char out[64]);

#endif
