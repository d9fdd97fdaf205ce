/*
 * What the monitor writes about connections (cli.md §14.3, §14.4): one
 * access line per request, and with --log-level debug one line per IPC
 * message and one per FORWARD verdict.
 */
#include "monitor/gateway.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/log.h"

void
access_line(struct conn *c, const char *method, const char *path,
    const char *decision, const char *code, int status, unsigned duration_ms,
    const char *detail)
{
	const char *sock = c->gw->lis[c->lis].socket_kind == CG_DOCKER ?
	    "docker" : "podman";
	char *qpath, *qdetail = NULL, *msg;
	struct log_field f[9] = {
		LF_NUM("conn", c->id),
		LF_STR("socket", sock),
		LF_STR("method", method),
		LF_STR("path", path),
		LF_STR("decision", decision),
		LF_STR("code", code),
		LF_NUM("status", status),
		LF_NUM("duration_ms", duration_ms),
		LF_STR("detail", detail),
	};

	/* nothing to format below INFO (issue 9: per request, in the hot path) */
	if (!log_enabled(LOG_INFO))
		return;
	qpath = log_quote(path, strlen(path));
	if (detail != NULL)
		qdetail = log_quote(detail, strlen(detail));
	if (asprintf(&msg, "access conn=%llu socket=%s method=%s path=%s "
	    "decision=%s code=%s status=%d duration_ms=%u%s%s%s",
	    (unsigned long long)c->id, sock, method, qpath, decision,
	    code != NULL ? code : "-", status, duration_ms,
	    detail != NULL ? " detail=" : "",
	    detail != NULL && qdetail[0] != '"' ? "\"" : "",
	    detail != NULL ? qdetail : "") < 0)
		xoom();
	if (detail != NULL && qdetail[0] != '"') {
		/* always quote the detail (cli.md §14.3) */
		size_t n = strlen(msg);

		msg = xrealloc(msg, n + 2);
		msg[n] = '"';
		msg[n + 1] = '\0';
	}
	log_event(LOG_INFO, "access", msg, f, detail != NULL ? 9 : 8);
	free(msg);
	free(qpath);
	free(qdetail);
}

void
ipc_audit(const struct conn *c, const char *dir, const struct ipc_msg *m)
{
	char fields[2048], json[4096], *msg;

	if (!log_enabled(LOG_DEBUG))
		return;
	ipc_format_fields(m, fields, sizeof(fields));
	ipc_format_fields_json(m, json, sizeof(json));
	if (asprintf(&msg, "ipc conn=%llu dir=%s type=%s req=%u%s",
	    (unsigned long long)c->id, dir, ipc_type_name(m->type), m->req,
	    fields) < 0)
		xoom();
	log_event(LOG_DEBUG, "ipc", msg, (struct log_field[]){
	    LF_NUM("conn", c->id), LF_STR("dir", dir),
	    LF_STR("type", ipc_type_name(m->type)), LF_NUM("req", m->req),
	    LF_STR("{fields", json) }, 5);
	free(msg);
}

void
ipc_audit_verdict(const struct conn *c, const char *verdict, const char *code)
{
	char *msg, json[128];

	if (!log_enabled(LOG_DEBUG))
		return;
	if (asprintf(&msg, "ipc conn=%llu dir=monitor type=VERDICT req=%u "
	    "verdict=%s%s%s", (unsigned long long)c->id, c->req, verdict,
	    code != NULL ? " code=" : "", code != NULL ? code : "") < 0)
		xoom();
	snprintf(json, sizeof(json), "{\"verdict\":\"%s\"%s%s%s}", verdict,
	    code != NULL ? ",\"code\":\"" : "", code != NULL ? code : "",
	    code != NULL ? "\"" : "");
	log_event(LOG_DEBUG, "ipc", msg, (struct log_field[]){
	    LF_NUM("conn", c->id), LF_STR("dir", "monitor"),
	    LF_STR("type", "VERDICT"), LF_NUM("req", c->req),
	    LF_STR("{fields", json) }, 5);
	free(msg);
}
