/* Text and JSON log lines (cli.md §14). */
#include "monitor/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http/gwerror.h"
#include "ipc/xmalloc.h"

static enum log_level log_level = LOG_INFO;
static enum log_format log_format = LOG_TEXT;
static int log_fd = 2;

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

void
log_timestamp(char out[64])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(out, 64, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
}

char *
log_quote(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out, *o;
	size_t i;
	int plain = len > 0;

	for (i = 0; i < len; i++)
		if (p[i] < 0x21 || p[i] > 0x7e || p[i] == '"' || p[i] == '\\')
			plain = 0;
	if (plain)
		return xstrndup(s, len);
	out = o = xmalloc(len * 4 + 3);
	*o++ = '"';
	for (i = 0; i < len; i++) {
		if (p[i] == '"' || p[i] == '\\') {
			*o++ = '\\';
			*o++ = (char)p[i];
		} else if (p[i] < 0x20 || p[i] > 0x7e) {
			o += sprintf(o, "\\x%02x", p[i]);
		} else {
			*o++ = (char)p[i];
		}
	}
	*o++ = '"';
	*o = '\0';
	return out;
}

static void
write_all(const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(log_fd, buf, len);
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
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
				esc = cg_json_escape(fields[i].text,
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
