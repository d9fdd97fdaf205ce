/* Text and JSON log lines (cli.md §14). */
#include "monitor/log.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/gwerror.h"
#include "base/xmalloc.h"

static enum log_level log_level = LOG_INFO;
static enum log_format log_format = LOG_TEXT;
static int log_fd = 2;
/* size-capped rotation (log_set_rotation); 0: none */
static unsigned long long rot_max;
static unsigned long long rot_size;	/* bytes in the current file */
static int (*rot_fn)(void);
static volatile sig_atomic_t rot_stale;	/* re-read the size (SIGHUP) */

static const char *const level_text[] = { "ERROR", "WARNING", "INFO", "DEBUG" };
static const char *const level_json[] = { "error", "warning", "info", "debug" };

void
log_init(enum log_level level, enum log_format format, int fd)
{
	log_level = level;
	log_format = format;
	log_fd = fd;
}

int
log_enabled(enum log_level level)
{
	return level <= log_level;
}

char *
log_quote(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out, *o;
	size_t i;
	int plain = len > 0;

	for (i = 0; i < len; i++)
		if (p[i] < 0x21 || p[i] > 0x7e || p[i] == '"' || p[i] == '\\' ||
		    p[i] == '=')
			plain = 0;
	if (plain)
		return xstrndup(s, len);
	out = o = xmalloc(len * 4 + 3);
	*o++ = '"';
	for (i = 0; i < len; i++) {
		if (p[i] == '"' || p[i] == '\\') {
			*o++ = '\\';
			*o++ = (char)p[i];
		} else if (p[i] < 0x20 || p[i] > 0x7e || p[i] == '=') {
			o += sprintf(o, "\\x%02x", p[i]);
		} else {
			*o++ = (char)p[i];
		}
	}
	*o++ = '"';
	*o = '\0';
	return out;
}

char *
log_escape(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = xmalloc(len * 4 + 1), *o = out;
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] < 0x20 || p[i] > 0x7e || p[i] == '\\' || p[i] == '=')
			o += sprintf(o, "\\x%02x", p[i]);
		else
			*o++ = (char)p[i];
	}
	*o = '\0';
	return out;
}

/* days since 1970-01-01 -> civil date (Howard Hinnant's algorithm) */
static void
civil(long long days, int *y, int *m, int *d)
{
	long long era, doe, yoe, doy, mp;

	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

/* Append s to buf (cap bytes, *n used); async-signal-safe. */
static void
put(char *buf, size_t cap, size_t *n, const char *s)
{
	while (*s != '\0' && *n + 1 < cap)
		buf[(*n)++] = *s++;
}

/* Append v as at least width decimal digits (zero-padded). */
static void
put_num(char *buf, size_t cap, size_t *n, long long v, int width)
{
	char d[24];
	int i = 0;

	if (v < 0)
		v = 0;
	do {
		d[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0 && i < (int)sizeof(d));
	while (i < width && i < (int)sizeof(d))
		d[i++] = '0';
	while (i > 0 && *n + 1 < cap)
		buf[(*n)++] = d[--i];
}

/*
 * The current UTC time as YYYY-MM-DDTHH:MM:SS.mmmZ (cli.md §14.1),
 * appended to buf; async-signal-safe (no gmtime_r, which takes a lock).
 */
static void
put_timestamp(char *buf, size_t cap, size_t *n)
{
	struct timespec ts;
	long long secs;
	int y, m, d;

	clock_gettime(CLOCK_REALTIME, &ts);
	secs = (long long)ts.tv_sec;
	civil(secs / 86400, &y, &m, &d);
	put_num(buf, cap, n, y, 4);
	put(buf, cap, n, "-");
	put_num(buf, cap, n, m, 2);
	put(buf, cap, n, "-");
	put_num(buf, cap, n, d, 2);
	put(buf, cap, n, "T");
	put_num(buf, cap, n, secs % 86400 / 3600, 2);
	put(buf, cap, n, ":");
	put_num(buf, cap, n, secs % 3600 / 60, 2);
	put(buf, cap, n, ":");
	put_num(buf, cap, n, secs % 60, 2);
	put(buf, cap, n, ".");
	put_num(buf, cap, n, ts.tv_nsec / 1000000, 3);
	put(buf, cap, n, "Z");
}

void
log_timestamp(char out[64])
{
	size_t n = 0;

	put_timestamp(out, 64, &n);
	out[n] = '\0';
}

void
log_event_signal_safe(enum log_level level, const char *event,
    const char *msg)
{
	char line[1024];
	size_t n = 0;

	if (log_format == LOG_JSON)
		put(line, sizeof(line), &n, "{\"ts\":\"");
	put_timestamp(line, sizeof(line), &n);
	if (log_format == LOG_JSON) {
		put(line, sizeof(line), &n, "\",\"level\":\"");
		put(line, sizeof(line), &n, level_json[level]);
		put(line, sizeof(line), &n, "\",\"event\":\"");
		put(line, sizeof(line), &n, event);
		put(line, sizeof(line), &n, "\",\"msg\":\"");
		put(line, sizeof(line), &n, msg);
		put(line, sizeof(line), &n, "\"}");
	} else {
		put(line, sizeof(line), &n, " container-gateway ");
		put(line, sizeof(line), &n, level_text[level]);
		put(line, sizeof(line), &n, " ");
		put(line, sizeof(line), &n, msg);
	}
	line[n++] = '\n';
	(void)!write(log_fd, line, n);
}

void
log_set_rotation(unsigned long long max_bytes, int (*rotate)(void))
{
	rot_max = rotate != NULL ? max_bytes : 0;
	rot_fn = rotate;
	rot_stale = 1;
}

void
log_reopened(void)
{
	rot_stale = 1;
}

/*
 * Rotate before a line of len bytes would take the file past rot_max:
 * the line then starts the new file, so no file ever holds more than
 * rot_max bytes (unless one line alone is longer) and no line is split
 * or lost. A failed rotation stops rotating, with one WARNING.
 */
static void
rotate_before(size_t len)
{
	struct stat st;

	if (rot_stale) {
		rot_stale = 0;
		rot_size = fstat(log_fd, &st) == 0 ? (unsigned long long)st.st_size :
		    0;
	}
	if (rot_size == 0 || rot_size + len <= rot_max)
		return;
	if (rot_fn() == 0) {
		rot_size = 0;
		return;
	}
	rot_max = 0;
	log_msg(LOG_WARNING, "log", "the log file could not be rotated; it "
	    "grows without a bound from now on");
}

static void
write_all(const char *buf, size_t len)
{
	ssize_t n;

	if (rot_max > 0)
		rotate_before(len);
	while (len > 0) {
		n = write(log_fd, buf, len);
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
		rot_size += (unsigned long long)n;
	}
}


void
log_event(enum log_level level, const char *event, const char *msg,
    const struct log_field *fields, size_t nfields)
{
	char ts[64], *line = NULL, *esc;
	size_t len = 0, i;
	FILE *f;

	if (!log_enabled(level))
		return;
	log_timestamp(ts);
	f = open_memstream(&line, &len);
	if (f == NULL)
		return;
	if (log_format == LOG_TEXT) {
		fprintf(f, "%s container-gateway %s %s\n", ts,
		    level_text[level], msg);
	} else {
		esc = cg_json_escape(msg, strlen(msg));
		fprintf(f, "{\"ts\":\"%s\",\"level\":\"%s\",\"event\":\"%s\","
		    "\"msg\":\"%s\"", ts, level_json[level], event, esc);
		free(esc);
		for (i = 0; i < nfields; i++) {
			if (fields[i].is_num) {
				fprintf(f, ",\"%s\":%lld", fields[i].name,
				    fields[i].num);
			} else if (fields[i].text == NULL) {
				fprintf(f, ",\"%s\":null", fields[i].name);
			} else if (fields[i].name[0] == '{') {
				/* raw JSON member text ("{name}" convention) */
				fprintf(f, ",\"%s\":%s", fields[i].name + 1,
				    fields[i].text);
			} else {
				esc = cg_json_escape_log(fields[i].text,
				    strlen(fields[i].text));
				fprintf(f, ",\"%s\":\"%s\"", fields[i].name,
				    esc);
				free(esc);
			}
		}
		fputs("}\n", f);
	}
	fclose(f);
	write_all(line, len);
	free(line);
}

void
log_msg(enum log_level level, const char *event, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!log_enabled(level))
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		xoom();
	va_end(ap);
	log_event(level, event, msg, NULL, 0);
	free(msg);
}

/* Compose and write one event; the message is built by the caller. */
static void
emit(enum log_level level, const char *event, char *msg,
    const struct log_field *f, size_t n)
{
	log_event(level, event, msg, f, n);
	free(msg);
}

void
log_start(const char *version, const char *root, const char *run_dir)
{
	char *qr = log_quote(root, strlen(root));
	char *qd = log_quote(run_dir, strlen(run_dir)), *msg;
	struct log_field f[] = {
		LF_STR("version", version),
		LF_STR("project", root),
		LF_STR("run_dir", run_dir),
	};

	if (asprintf(&msg, "container-gateway %s serving %s (run directory %s)",
	    version, qr, qd) < 0)
		xoom();
	emit(LOG_INFO, "start", msg, f, 3);
	free(qr);
	free(qd);
}

void
log_listen(const char *kind, const char *socket, const char *backend_kind,
    const char *backend_socket)
{
	char *qs = log_quote(socket, strlen(socket));
	char *qb = log_quote(backend_socket, strlen(backend_socket)), *msg;
	struct log_field f[] = {
		LF_STR("socket_kind", kind),
		LF_STR("socket", socket),
		LF_STR("backend_kind", backend_kind),
		LF_STR("backend_socket", backend_socket),
	};

	if (asprintf(&msg, "%s clients -> %s (backend %s at %s)", kind, qs,
	    backend_kind, qb) < 0)
		xoom();
	emit(LOG_INFO, "listen", msg, f, 4);
	free(qs);
	free(qb);
}

void
log_sandbox(int namespaces, int chroot)
{
	const char *ns = namespaces ? "on" : "off", *ch = chroot ? "on" : "off";
	struct log_field f[] = {
		LF_STR("namespaces", ns),
		LF_STR("chroot", ch),
	};
	char *msg;

	if (asprintf(&msg, "request parser sandbox: seccomp=on no_new_privs=on "
	    "capabilities=none namespaces=%s chroot=%s", ns, ch) < 0)
		xoom();
	emit(LOG_INFO, "sandbox", msg, f, 2);
}

void
log_egress(const char *socket_kind, const char *kind, const char *mode,
    unsigned port, int available, const char *proxy)
{
	struct log_field f[] = {
		LF_STR("socket_kind", socket_kind),
		LF_STR("mode", mode),
		LF_STR("{available", available ? "true" : "false"),
		LF_STR("proxy", available ? proxy : NULL),
	};
	char *msg;

	if (available) {
		if (asprintf(&msg, "egress gateway reachable on 127.0.0.1:%u; %s "
		    "containers get HTTP_PROXY=%s", port, kind, proxy) < 0)
			xoom();
		emit(LOG_INFO, "egress", msg, f, 4);
	} else if (strcmp(mode, "require") == 0) {
		if (asprintf(&msg, "egress gateway unreachable; every container "
		    "create and build will be refused (--egress require)") < 0)
			xoom();
		emit(LOG_WARNING, "egress", msg, f, 4);
	} else {
		if (asprintf(&msg, "egress gateway not reachable on 127.0.0.1:%u; "
		    "containers get no proxy (--egress %s)", port, mode) < 0)
			xoom();
		emit(LOG_WARNING, "egress", msg, f, 4);
	}
}

void
log_idle_exit(const char *text, double seconds)
{
	char num[64], *msg;
	struct log_field f[] = { LF_STR("{seconds", num) };

	snprintf(num, sizeof(num), "%.15g", seconds);
	if (asprintf(&msg, "idle for %ss; exiting", text) < 0)
		xoom();
	emit(LOG_INFO, "idle-exit", msg, f, 1);
}
