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

/*
 * Set the threshold (lines of a higher, more verbose level are dropped),
 * the format and the descriptor lines are written to (2 in the
 * foreground). Defaults before the call: LOG_INFO, LOG_TEXT, fd 2.
 */
void log_init(enum log_level level, enum log_format format, int fd);

/* 1 when lines of this level are written. */
int log_enabled(enum log_level level);

/*
 * A typed field of an event line, written in JSON format only (text lines
 * carry only msg): name as is, text JSON-escaped, numbers (is_num) bare,
 * NULL text as null. A name starting with '{' marks raw JSON: the member
 * is named without the '{' and text is written unescaped (callers pass
 * true/false or a number).
 */
struct log_field {
	const char *name;
	const char *text;	/* NULL with is_num 0: JSON null */
	long long num;
	int is_num;
	int hidden_in_text;	/* XXX never read: every field is JSON-only */
};

#define LF_STR(n, v)	{ (n), (v), 0, 0, 1 }
#define LF_NUM(n, v)	{ (n), NULL, (long long)(v), 1, 1 }

/*
 * Write one line (cli.md §14.1) if level is enabled: event name (a plain
 * token, not escaped), human message msg (NUL-terminated, used verbatim in
 * text format: callers escape untrusted parts with log_quote), then
 * fields[0..nfields) in JSON format. One write(2) per line; write and
 * memory-stream failures drop the line silently; exits through xoom() on
 * allocation failure in the escaper.
 */
void log_event(enum log_level level, const char *event, const char *msg,
    const struct log_field *fields, size_t nfields);

/*
 * printf-style shorthand for log_event without JSON fields. The formatted
 * text is used verbatim: escape untrusted values with log_quote first.
 */
void log_msg(enum log_level level, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Escape s[0..len) for a text-format message (cli.md §14.1): a copy of s
 * when it is non-empty and has only bytes 0x21-0x7e other than '"', '\\'
 * and '=', else "..." with \" \\ and \xhh (lower-case hex) for '=' and
 * for bytes outside 0x20-0x7e. '=' beyond cli.md §14.1 (doc/audit.md): in
 * a text line it then only ever separates a field's name from its value,
 * so text from a client or a child cannot carry "decision=allow" or
 * "access conn=" into a line. Returns a malloc'd NUL-terminated string
 * (the caller frees it; at most 4 * len + 3 bytes); exits through xoom()
 * on allocation failure.
 */
char *log_quote(const char *s, size_t len);

/*
 * Escape s[0..len) inside a message without quoting it: '\\', '=' and
 * bytes outside 0x20-0x7e as \xhh (so no line break and no "name=value"
 * survives). Returns a malloc'd string (at most 4 * len + 1 bytes); exits
 * through xoom() on allocation failure.
 */
char *log_escape(const char *s, size_t len);

/*
 * Size-capped rotation of the log file (daemon mode, doc/audit.md):
 * before a line would take the file past max_bytes, rotate() is called;
 * it returns 0 once the log descriptor (log_init's fd) names a fresh,
 * empty file, -1 when it could not (rotation then stops, with one
 * WARNING). A line is never split across files; each file stays at or
 * under max_bytes unless a single line is longer. rotate NULL or
 * max_bytes 0: no rotation. The file's size is read (fstat) before the
 * next line.
 */
void log_set_rotation(unsigned long long max_bytes, int (*rotate)(void));
/*
 * The log descriptor now names another file (the SIGHUP reopen):
 * async-signal-safe; its size is read again before the next line.
 */
void log_reopened(void);

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

/*
 * Current UTC time as YYYY-MM-DDTHH:MM:SS.mmmZ (cli.md §14.1) into out
 * (64 bytes, NUL-terminated). XXX only used inside log.c.
 */
void log_timestamp(char out[64]);

/*
 * Async-signal-safe: write one line of event at level with message msg
 * (NUL-terminated, plain printable ASCII without '"' or '\\': used
 * verbatim in both formats) with one write(2), no allocation, no lock, no
 * gmtime (the date is computed here). For signal handlers (the monitor's
 * SIGSYS reporter, monitor/confine.c; the SIGHUP handler). Lines over 1 KiB
 * are cut. Ignores the level threshold: callers only report errors.
 */
void log_event_signal_safe(enum log_level level, const char *event,
    const char *msg);

#endif
