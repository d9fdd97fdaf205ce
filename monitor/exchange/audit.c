/*
 * What the monitor writes about requests (doc/audit.md; cli.md §14.3,
 * §14.4): one audit record per request — the access line with the
 * audit's fields after the spec's — from what the monitor verified,
 * forwarded and received; with --log-level debug one line per IPC message,
 * one per FORWARD verdict, and the request parsers' own LOG lines under
 * their own event and "source": "child".
 *
 * No value a client or a request parser chose can pass for a record or a
 * field of one: in text lines every such value goes through log_quote
 * ('=' and line breaks escaped), in JSON through cg_json_escape_log.
 */
#include "monitor/gateway.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/conn.h"
#include "monitor/exchange/audit.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"
#include "policy/json.h"
#include "policy/query.h"
#include "policy/routes.h"

#define ANSWER_KEEP	8192	/* bytes of a create's answer kept for its id */
#define LIST_MAX	32	/* entries of a create's list kept */
#define ITEM_MAX	4200	/* bytes of one entry (a bind source: 4096) */
#define TARGET_MAX	1024	/* bytes of a violation's target kept */
#define CHILD_TEXT_MAX	512	/* bytes of a child's LOG text written */

static const char *const outcome_name[] = {
	"allowed", "refused", "replay-refused", "violation", "error",
	"abandoned",
};
static const char *const kind_name[] = {
	"container", "pod", "volume", "network", "image", "exec",
};

void
audit_rec_clear(struct conn *c)
{
	struct audit_rec *r = &c->rec;
	const struct ipc_msg *msg = r->msg;

	free(r->res_name);
	free(r->res_id);
	free(r->answer);
	cJSON_Delete(r->create);
	cJSON_Delete(r->pinned);
	memset(r, 0, sizeof(*r));
	r->api = -1;
	r->res_kind = -1;
	r->msg = msg;		/* the message being dispatched stays */
}

static char *
cut_dup(const char *s, size_t len, size_t max)
{
	return xstrndup(s, len > max ? max : len);
}

/* ---------------------------------------------------------------- gathering */

static int
kind_of_family(const char *family)
{
	if (family == NULL)
		return -1;
	if (strcmp(family, "containers") == 0)
		return CG_FACT_CONTAINER;
	if (strcmp(family, "pods") == 0)
		return CG_FACT_POD;
	if (strcmp(family, "volumes") == 0)
		return CG_FACT_VOLUME;
	if (strcmp(family, "networks") == 0)
		return CG_FACT_NETWORK;
	return -1;
}

void
audit_route(struct conn *c, const struct cg_request *req, const char *name,
    const char *id)
{
	struct audit_rec *r = &c->rec;
	const char *qname;

	r->verified = 1;
	r->api = (int)req->api;
	r->route = req->route != NULL ? req->route->pattern : NULL;
	free(r->res_name);
	free(r->res_id);
	r->res_name = r->res_id = NULL;
	r->res_kind = req->path_ref_kind;
	if (name != NULL)
		r->res_name = cut_dup(name, strlen(name), ITEM_MAX);
	if (id != NULL)
		r->res_id = cut_dup(id, strlen(id), ITEM_MAX);
	r->is_create = req->action != NULL &&
	    strcmp(req->action, "create") == 0 &&
	    kind_of_family(req->family) >= 0 && req->path_ref_kind < 0;
	if (r->is_create) {
		r->res_kind = kind_of_family(req->family);
		qname = req->query != NULL ? query_get(req->query, "name") : NULL;
		if (qname != NULL && r->res_name == NULL)
			r->res_name = cut_dup(qname, strlen(qname), ITEM_MAX);
	}
}

void
audit_aimed(struct conn *c, const struct cg_request *req, const char *ref,
    size_t len)
{
	struct audit_rec *r = &c->rec;

	r->api = (int)req->api;
	r->route = req->route != NULL ? req->route->pattern : NULL;
	r->res_kind = req->path_ref_kind;
	free(r->res_name);
	free(r->res_id);
	r->res_name = cut_dup(ref, len, ITEM_MAX);
	r->res_id = NULL;
}

/* Append s (cut at ITEM_MAX) to list a, or count it past LIST_MAX. */
static void
add_item(cJSON *a, const char *s)
{
	int n = cJSON_GetArraySize(a);
	char *t;

	if (n > LIST_MAX)
		return;
	if (n == LIST_MAX) {
		cJSON_AddItemToArray(a, cJSON_CreateString("..."));
		return;
	}
	t = cut_dup(s, strlen(s), ITEM_MAX);
	cJSON_AddItemToArray(a, cJSON_CreateString(t));
	free(t);
}

/* A scalar as text (numbers without a fraction as integers), or "". */
static void
scalar(const cJSON *v, char *out, size_t sz)
{
	if (cJSON_IsString(v))
		snprintf(out, sz, "%s", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(out, sz, "%.15g", v->valuedouble);
	else if (cJSON_IsBool(v))
		snprintf(out, sz, "%s", cJSON_IsTrue(v) ? "true" : "false");
	else
		out[0] = '\0';
}

/* "a:b" plus ":opts" joined by ',' when the list opts has any. */
static void
add_mount(cJSON *a, const char *src, const char *dst, const cJSON *opts,
    int ro)
{
	char *s = NULL;
	size_t len = 0;
	const cJSON *o;
	FILE *f = open_memstream(&s, &len);
	int first = 1;

	if (f == NULL)
		xoom();
	fprintf(f, "%s:%s", src != NULL ? src : "", dst != NULL ? dst : "");
	cJSON_ArrayForEach(o, opts) {
		if (cJSON_IsString(o)) {
			fprintf(f, "%c%s", first ? ':' : ',', o->valuestring);
			first = 0;
		}
	}
	if (ro && first)
		fputs(":ro", f);
	if (fclose(f) != 0)
		xoom();
	add_item(a, s);
	free(s);
}

/* The compat create body's mounts, volumes and ports (policy.md §3-§4). */
static void
compat_create(const cJSON *body, cJSON *binds, cJSON *vols, cJSON *ports)
{
	const cJSON *hc = cJSON_GetObjectItemCaseSensitive(body, "HostConfig");
	const cJSON *v, *m, *b;
	char hp[64];

	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(hc, "Binds")) {
		if (cJSON_IsString(v))
			add_item(v->valuestring[0] == '/' ? binds : vols,
			    v->valuestring);
	}
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(hc, "Mounts")) {
		const char *type = json_str(m, "Type");

		if (type == NULL || (strcmp(type, "bind") != 0 &&
		    strcmp(type, "volume") != 0))
			continue;
		add_mount(strcmp(type, "bind") == 0 ? binds : vols,
		    json_str(m, "Source"), json_str(m, "Target"), NULL,
		    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m,
		    "ReadOnly")));
	}
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(hc,
	    "PortBindings")) {
		cJSON_ArrayForEach(b, v) {
			char *s;

			scalar(cJSON_GetObjectItemCaseSensitive(b, "HostPort"), hp,
			    sizeof(hp));
			if (asprintf(&s, "%s:%s->%s", json_str(b, "HostIp") != NULL ?
			    json_str(b, "HostIp") : "", hp[0] != '\0' ? hp : "0",
			    v->string) < 0)
				xoom();
			add_item(ports, s);
			free(s);
		}
	}
}

/* The libpod create body's (container or pod) mounts, volumes and ports. */
static void
libpod_create(const cJSON *body, cJSON *binds, cJSON *vols, cJSON *ports)
{
	const cJSON *m;
	char hip[256], hp[32], cp[32], range[32];

	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(body, "mounts")) {
		const char *type = json_str(m, "type");

		if (type == NULL || (strcmp(type, "bind") != 0 &&
		    strcmp(type, "volume") != 0))
			continue;
		add_mount(strcmp(type, "bind") == 0 ? binds : vols,
		    json_str(m, "source"), json_str(m, "destination"),
		    cJSON_GetObjectItemCaseSensitive(m, "options"), 0);
	}
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(body, "volumes")) {
		add_mount(vols, json_str(m, "Name"), json_str(m, "Dest"),
		    cJSON_GetObjectItemCaseSensitive(m, "Options"), 0);
	}
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(body,
	    "portmappings")) {
		char *s;

		scalar(cJSON_GetObjectItemCaseSensitive(m, "host_ip"), hip,
		    sizeof(hip));
		scalar(cJSON_GetObjectItemCaseSensitive(m, "host_port"), hp,
		    sizeof(hp));
		scalar(cJSON_GetObjectItemCaseSensitive(m, "container_port"), cp,
		    sizeof(cp));
		scalar(cJSON_GetObjectItemCaseSensitive(m, "range"), range,
		    sizeof(range));
		if (asprintf(&s, "%s:%s->%s%s%s/%s", hip, hp[0] != '\0' ? hp :
		    "0", cp, range[0] != '\0' && strcmp(range, "1") != 0 &&
		    strcmp(range, "0") != 0 ? "+" : "", range[0] != '\0' &&
		    strcmp(range, "1") != 0 && strcmp(range, "0") != 0 ? range :
		    "", json_str(m, "protocol") != NULL ? json_str(m, "protocol") :
		    "tcp") < 0)
			xoom();
		add_item(ports, s);
		free(s);
	}
}

void
audit_pinned(struct conn *c, const char *pin, const char *checked)
{
	struct audit_rec *r = &c->rec;

	if (r->pinned == NULL)
		r->pinned = cJSON_CreateObject();
	if (r->pinned == NULL || cJSON_GetObjectItemCaseSensitive(r->pinned,
	    pin) != NULL)
		return;
	if (cJSON_AddStringToObject(r->pinned, pin, checked) == NULL)
		xoom();
}

/* Each bind "SRC:..." of binds whose SRC is a pin of pinned names its source. */
static void
unpin_binds(cJSON *binds, const cJSON *pinned)
{
	const cJSON *src;
	cJSON *b;
	char *pin, *s, *colon;

	cJSON_ArrayForEach(b, binds) {
		if (!cJSON_IsString(b))
			continue;
		pin = xstrdup(b->valuestring);
		if ((colon = strchr(pin, ':')) != NULL)
			*colon = '\0';
		src = cJSON_GetObjectItemCaseSensitive(pinned, pin);
		if (cJSON_IsString(src)) {
			if (asprintf(&s, "%s%s", src->valuestring, colon != NULL ?
			    b->valuestring + (colon - pin) : "") < 0)
				xoom();
			if (cJSON_SetValuestring(b, s) == NULL)
				xoom();
			free(s);
		}
		free(pin);
	}
}

void
audit_forward_body(struct conn *c, const char *json, size_t len)
{
	struct audit_rec *r = &c->rec;
	cJSON *body, *out, *binds, *vols, *ports;
	const char *s;
	int k;

	if (!r->is_create || json == NULL)
		return;
	body = cJSON_ParseWithLength(json, len);
	if (!cJSON_IsObject(body)) {
		cJSON_Delete(body);
		return;
	}
	if (r->res_name == NULL) {
		s = json_str(body, "Name") != NULL ? json_str(body, "Name") :
		    json_str(body, "name");
		if (s != NULL)
			r->res_name = cut_dup(s, strlen(s), ITEM_MAX);
	}
	k = r->res_kind;
	if (k == CG_FACT_CONTAINER || k == CG_FACT_POD) {
		out = cJSON_CreateObject();
		s = json_str(body, "Image") != NULL ? json_str(body, "Image") :
		    json_str(body, "image");
		if (s != NULL)
			cJSON_AddStringToObject(out, "image", s);
		else
			cJSON_AddNullToObject(out, "image");
		binds = cJSON_AddArrayToObject(out, "binds");
		vols = cJSON_AddArrayToObject(out, "volumes");
		ports = cJSON_AddArrayToObject(out, "ports");
		if (r->api == CG_API_LIBPOD)
			libpod_create(body, binds, vols, ports);
		else
			compat_create(body, binds, vols, ports);
		if (r->pinned != NULL)
			unpin_binds(binds, r->pinned);
		s = json_str(cJSON_GetObjectItemCaseSensitive(body, r->api ==
		    CG_API_LIBPOD ? "labels" : "Labels"), CG_LABEL_KEY);
		if (s != NULL)
			cJSON_AddStringToObject(out, "label", s);
		else
			cJSON_AddNullToObject(out, "label");
		cJSON_Delete(r->create);
		r->create = out;
	}
	cJSON_Delete(body);
}

void
audit_forwarded(struct conn *c)
{
	c->rec.forwarded = 1;
}

int
audit_head(struct conn *c, int status)
{
	struct audit_rec *r = &c->rec;

	r->backend_status = status;
	free(r->answer);
	r->answer = NULL;
	r->answer_len = 0;
	r->deferred = r->is_create && status >= 200 && status < 300 &&
	    !c->fw.is_head;
	return r->deferred;
}

void
audit_body(struct conn *c, const char *p, size_t n, int chunked)
{
	struct audit_rec *r = &c->rec;

	if (!r->deferred || r->answer_len >= ANSWER_KEEP || n == 0)
		return;
	if (n > ANSWER_KEEP - r->answer_len)
		n = ANSWER_KEEP - r->answer_len;
	if (r->answer == NULL)
		r->answer = xmalloc(ANSWER_KEEP + 1);
	memcpy(r->answer + r->answer_len, p, n);
	r->answer_len += n;
	r->answer_chunked = chunked;
}

/* The id a create's answer names: "Id" (any case), a volume's "Name". */
static void
created_id(struct conn *c)
{
	struct audit_rec *r = &c->rec;
	char *body = NULL;
	size_t len = 0;
	const char *s;
	cJSON *j;

	if (r->answer == NULL)
		return;
	if (r->answer_chunked) {
		if (http_chunked_decode_all(r->answer, r->answer_len, &body,
		    &len) == -1)
			return;
	} else {
		body = xstrndup(r->answer, r->answer_len);
		len = r->answer_len;
	}
	j = cJSON_ParseWithLength(body, len);
	s = json_str(j, "Id") != NULL ? json_str(j, "Id") : json_str(j, "ID") !=
	    NULL ? json_str(j, "ID") : json_str(j, "id");
	if (s == NULL && r->res_kind == CG_FACT_VOLUME)
		s = json_str(j, "Name");
	if (s != NULL) {
		free(r->res_id);
		r->res_id = cut_dup(s, strlen(s), ITEM_MAX);
	}
	cJSON_Delete(j);
	free(body);
}

void
audit_settle(struct conn *c)
{
	if (!c->rec.deferred)
		return;
	created_id(c);
	c->rec.deferred = 0;
}

void
audit_flush(struct conn *c)
{
	if (!c->rec.deferred || c->logged)
		return;
	created_id(c);
	audit_write(c, AO_ALLOWED, c->fw.method, c->fw.log_path, NULL, c->rp.status,
	    conn_duration_ms(c), NULL);
}

/* ---------------------------------------------------------------- writing */

/* The spec's decision (cli.md §14.3) of an outcome and status. */
static const char *
decision_of(enum audit_outcome o, int status)
{
	switch (o) {
	case AO_ALLOWED:
		return status > 0 ? "allow" : "error";
	case AO_REFUSED:
		return status >= 500 || status == 0 ? "error" : "deny";
	default:
		return "error";
	}
}

/* " name=value", value escaped (log_quote). */
static void
put_text(FILE *f, const char *name, const char *v)
{
	char *q = log_quote(v, strlen(v));

	fprintf(f, " %s=%s", name, q);
	free(q);
}

/*
 * " name=a,b,c": each entry escaped like log_quote with ',' also as \x2c,
 * the whole quoted when any entry needed it; nothing for an empty list.
 */
static void
put_list(FILE *f, const char *name, const cJSON *a)
{
	const cJSON *v;
	char *s = NULL;
	size_t len = 0;
	FILE *m;
	const unsigned char *p;
	int quote = 0, first = 1;

	if (cJSON_GetArraySize(a) == 0)
		return;
	m = open_memstream(&s, &len);
	if (m == NULL)
		xoom();
	cJSON_ArrayForEach(v, a) {
		if (!cJSON_IsString(v))
			continue;
		if (!first)
			fputc(',', m);
		first = 0;
		if (v->valuestring[0] == '\0')
			quote = 1;
		for (p = (const unsigned char *)v->valuestring; *p != '\0'; p++) {
			if (*p == '"' || *p == '\\') {
				fprintf(m, "\\%c", *p);
				quote = 1;
			} else if (*p == ' ') {
				fputc(' ', m);
				quote = 1;
			} else if (*p < 0x21 || *p > 0x7e || *p == '=' ||
			    *p == ',') {
				fprintf(m, "\\x%02x", *p);
				quote = 1;
			} else {
				fputc(*p, m);
			}
		}
	}
	if (fclose(m) != 0)
		xoom();
	fprintf(f, " %s=%s%s%s", name, quote ? "\"" : "", s, quote ? "\"" : "");
	free(s);
}

/* A JSON string member "name":"v" (or null) into f, after a comma if any. */
static void
put_member(FILE *f, int *n, const char *name, const char *v)
{
	char *e;

	fprintf(f, "%s\"%s\":", (*n)++ > 0 ? "," : "", name);
	if (v == NULL) {
		fputs("null", f);
		return;
	}
	e = cg_json_escape_log(v, strlen(v));
	fprintf(f, "\"%s\"", e);
	free(e);
}

/* The create facts as a JSON object text (malloc'd). */
static char *
create_json(const cJSON *cr)
{
	const char *lists[] = { "binds", "volumes", "ports" };
	const cJSON *v;
	char *s = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&s, &len);
	int n = 0, k;

	if (f == NULL)
		xoom();
	fputc('{', f);
	put_member(f, &n, "image", json_str(cr, "image"));
	for (i = 0; i < 3; i++) {
		fprintf(f, ",\"%s\":[", lists[i]);
		k = 0;
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(cr,
		    lists[i])) {
			char *e = cg_json_escape_log(v->valuestring,
			    strlen(v->valuestring));

			fprintf(f, "%s\"%s\"", k++ > 0 ? "," : "", e);
			free(e);
		}
		fputc(']', f);
	}
	put_member(f, &n, "label", json_str(cr, "label"));
	fputc('}', f);
	if (fclose(f) != 0)
		xoom();
	return s;
}

/* The resource as a JSON object text (malloc'd), or NULL for none. */
static char *
resource_json(const struct audit_rec *r)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f;
	int n = 0;

	if (r->res_kind < 0 || r->res_kind > CG_FACT_EXEC)
		return NULL;
	f = open_memstream(&s, &len);
	if (f == NULL)
		xoom();
	fputc('{', f);
	put_member(f, &n, "kind", kind_name[r->res_kind]);
	put_member(f, &n, "name", r->res_name);
	put_member(f, &n, "id", r->res_id);
	fputc('}', f);
	if (fclose(f) != 0)
		xoom();
	return s;
}

/*
 * The text line's audit fields after its access fields (doc/audit.md
 * "Fields") into t: record r's api (NULL: none), route, resource,
 * create summary and backend status, and target (NULL: none), each only
 * when known.
 */
static void
put_audit_text(FILE *t, const struct audit_rec *r, const char *api,
    const char *target)
{
	if (api != NULL)
		fprintf(t, " api=%s", api);
	if (r->route != NULL)
		put_text(t, "route", r->route);
	if (r->res_kind >= 0 && r->res_kind <= CG_FACT_EXEC) {
		fprintf(t, " kind=%s", kind_name[r->res_kind]);
		if (r->res_name != NULL)
			put_text(t, "name", r->res_name);
		if (r->res_id != NULL)
			put_text(t, "id", r->res_id);
	}
	if (r->create != NULL) {
		if (json_str(r->create, "image") != NULL)
			put_text(t, "image", json_str(r->create, "image"));
		put_list(t, "binds", cJSON_GetObjectItemCaseSensitive(r->create,
		    "binds"));
		put_list(t, "volumes", cJSON_GetObjectItemCaseSensitive(r->create,
		    "volumes"));
		put_list(t, "ports", cJSON_GetObjectItemCaseSensitive(r->create,
		    "ports"));
		if (json_str(r->create, "label") != NULL)
			put_text(t, "label", json_str(r->create, "label"));
	}
	if (r->backend_status > 0)
		fprintf(t, " backend_status=%d", r->backend_status);
	if (target != NULL)
		put_text(t, "target", target);
}

/*
 * The record itself: the spec's access line, then the audit's fields
 * (doc/audit.md "Fields"); target: what a violation tried, or NULL.
 */
static void
write_record(struct conn *c, enum audit_outcome o, int by_child,
    const char *method, const char *path, const char *code, int status,
    unsigned duration_ms, const char *detail, const char *target,
    uint32_t req)
{
	const struct audit_rec *r = &c->rec;
	const char *sock = c->gw->lis[c->lis].socket_kind == CG_DOCKER ?
	    "docker" : "podman";
	const char *decision = decision_of(o, status);
	const char *by = by_child ? "request-parser" : "monitor";
	const char *api = r->api == CG_API_COMPAT ? "compat" :
	    r->api == CG_API_LIBPOD ? "libpod" : NULL;
	char *msg = NULL, *res, *cre = NULL, bst[16];
	size_t len = 0, nf = 0;
	struct log_field f[24];
	FILE *t;

	c->logged = 1;
	c->rec.deferred = 0;
	if (!log_enabled(LOG_INFO))
		return;
	t = open_memstream(&msg, &len);
	if (t == NULL)
		xoom();
	fprintf(t, "access conn=%llu socket=%s", (unsigned long long)c->id,
	    sock);
	put_text(t, "method", method);
	put_text(t, "path", path);
	fprintf(t, " decision=%s code=%s status=%d duration_ms=%u", decision,
	    code != NULL ? code : "-", status, duration_ms);
	if (detail != NULL) {
		/* always in quotes (cli.md §14.3) */
		char *q = log_quote(detail, strlen(detail));

		fprintf(t, " detail=%s%s%s", q[0] == '"' ? "" : "\"", q,
		    q[0] == '"' ? "" : "\"");
		free(q);
	}
	fprintf(t, " outcome=%s forwarded=%s by=%s req=%u", outcome_name[o],
	    r->forwarded ? "yes" : "no", by, req);
	put_audit_text(t, r, api, target);
	if (fclose(t) != 0)
		xoom();

	res = resource_json(r);
	if (r->create != NULL)
		cre = create_json(r->create);
	snprintf(bst, sizeof(bst), "%d", r->backend_status);
	f[nf++] = (struct log_field)LF_NUM("conn", c->id);
	f[nf++] = (struct log_field)LF_STR("socket", sock);
	f[nf++] = (struct log_field)LF_STR("method", method);
	f[nf++] = (struct log_field)LF_STR("path", path);
	f[nf++] = (struct log_field)LF_STR("decision", decision);
	f[nf++] = (struct log_field)LF_STR("code", code);
	f[nf++] = (struct log_field)LF_NUM("status", status);
	f[nf++] = (struct log_field)LF_NUM("duration_ms", duration_ms);
	if (detail != NULL)
		f[nf++] = (struct log_field)LF_STR("detail", detail);
	f[nf++] = (struct log_field)LF_STR("source", "monitor");
	f[nf++] = (struct log_field)LF_NUM("req", req);
	f[nf++] = (struct log_field)LF_STR("outcome", outcome_name[o]);
	f[nf++] = (struct log_field)LF_STR("decided_by", by);
	f[nf++] = (struct log_field)LF_STR("{forwarded", r->forwarded ?
	    "true" : "false");
	f[nf++] = (struct log_field)LF_STR("{backend_status",
	    r->backend_status > 0 ? bst : "null");
	f[nf++] = (struct log_field)LF_STR("api", api);
	f[nf++] = (struct log_field)LF_STR("route", r->route);
	f[nf++] = (struct log_field)LF_STR("{resource", res != NULL ? res :
	    "null");
	f[nf++] = (struct log_field)LF_STR("{create", cre != NULL ? cre :
	    "null");
	f[nf++] = (struct log_field)LF_STR("target", target);
	log_event(LOG_INFO, "access", msg, f, nf);
	free(msg);
	free(res);
	free(cre);
}

void
audit_write(struct conn *c, enum audit_outcome o, const char *method,
    const char *path, const char *code, int status, unsigned duration_ms,
    const char *detail)
{
	write_record(c, o, 0, method, path, code, status, duration_ms, detail,
	    NULL, c->req);
}

void
audit_child_access(struct conn *c, const char *method, const char *path,
    const char *code, int status, unsigned duration_ms, const char *detail)
{
	enum audit_outcome o = status == 0 && code == NULL ? AO_ABANDONED :
	    status >= 500 ? AO_ERROR : AO_REFUSED;

	write_record(c, o, 1, method, path, code, status, duration_ms, detail,
	    NULL, c->req);
}

void
audit_abandon(struct conn *c, const char *method, const char *path,
    const char *why)
{
	char *d;

	if (c->logged)
		return;
	if (c->rec.deferred) {
		audit_flush(c);
		return;
	}
	if (c->rec.forwarded && c->rec.backend_status > 0) {
		if (asprintf(&d, "%s; the request was forwarded and the backend "
		    "answered %d", why, c->rec.backend_status) < 0)
			xoom();
		write_record(c, AO_ALLOWED, 0, method, path, NULL, 0,
		    conn_duration_ms(c), d, NULL, c->req);
	} else if (c->rec.forwarded) {
		if (asprintf(&d, "%s; the request was forwarded: the backend may "
		    "have acted on it", why) < 0)
			xoom();
		write_record(c, AO_ALLOWED, 0, method, path, NULL, 0,
		    conn_duration_ms(c), d, NULL, c->req);
	} else {
		if (asprintf(&d, "abandoned: %s", why) < 0)
			xoom();
		write_record(c, AO_ABANDONED, 0, method, path, NULL, 0,
		    conn_duration_ms(c), d, NULL, c->req);
	}
	free(d);
}

/* "<a> <b>" of two IPC strings, cut at TARGET_MAX (malloc'd). */
static char *
two(const char *a, const struct ipc_str *b)
{
	char *s;
	size_t n = b->len > TARGET_MAX ? TARGET_MAX : b->len;

	if (asprintf(&s, "%s %.*s", a, (int)n, b->p != NULL ? b->p : "") < 0)
		xoom();
	return s;
}

/*
 * What the message being dispatched tried: the method and target of a
 * FORWARD, what an ACCESS claimed, the ref of a question (malloc'd), or
 * NULL for another message. *mp and *pp get the method and path of a
 * FORWARD or ACCESS (malloc'd), else NULL.
 */
static char *
attempt(const struct ipc_msg *m, char **mp, char **pp)
{
	const struct ipc_str *meth = NULL, *path = NULL;
	char kind[16];
	size_t n;

	*mp = *pp = NULL;
	if (m == NULL)
		return NULL;
	switch (m->type) {
	case IPC_FORWARD:
		meth = &m->u.forward.method;
		path = &m->u.forward.target;
		break;
	case IPC_ACCESS:
		meth = &m->u.access.method;
		path = &m->u.access.path;
		break;
	case IPC_FACT_QUERY:
		snprintf(kind, sizeof(kind), "%s", m->u.fact_query.kind <=
		    CG_FACT_EXEC ? kind_name[m->u.fact_query.kind] : "?");
		return two(kind, &m->u.fact_query.ref);
	case IPC_PATH_QUERY:
		return two("path", &m->u.path_query.path);
	default:
		return NULL;
	}
	*mp = cut_dup(meth->p != NULL ? meth->p : "", meth->len, 16);
	for (n = 0; n < path->len && n < TARGET_MAX && path->p[n] != '?'; n++)
		;
	*pp = cut_dup(path->p != NULL ? path->p : "", n, n);
	return two(*mp, path);
}

void
audit_violation(struct conn *c, enum audit_outcome o, const char *code,
    const char *what)
{
	struct audit_rec *r = &c->rec;
	char *mp = NULL, *pp = NULL, *target = NULL;
	const char *method = "-", *path = "-";

	audit_flush(c);		/* an answered create's record first */
	if (r->verified && c->fw.target != NULL) {
		/* its FORWARD was verified: the request is the monitor's */
		method = c->fw.method;
		path = c->fw.log_path;
		if (asprintf(&target, "%s %.*s", c->fw.method, (int)(c->fw.target_len >
		    TARGET_MAX ? TARGET_MAX : c->fw.target_len), c->fw.target) < 0)
			xoom();
	} else {
		target = attempt(r->msg, &mp, &pp);
		if (mp != NULL) {
			method = mp;
			path = pp;
		}
	}
	/* the request the message belongs to (a new one: not yet c->req) */
	write_record(c, o, 0, method, path, code, 0, conn_duration_ms(c),
	    what, target, r->msg != NULL && r->msg->req != 0 ? r->msg->req :
	    c->req);
	free(mp);
	free(pp);
	free(target);
}

/* ---------------------------------------------------------------- child lines */

void
audit_child_log(struct conn *c, const char *text, size_t len)
{
	static long long window;
	static unsigned used, dropped;
	long long now;
	char *q, *cut, *msg;
	size_t n = len > CHILD_TEXT_MAX ? CHILD_TEXT_MAX : len;

	if (!log_enabled(LOG_DEBUG))
		return;
	now = now_ms();
	if (now - window >= 1000) {
		if (dropped > 0)
			log_msg(LOG_DEBUG, "child", "%u LOG lines of request "
			    "parsers dropped (more than %d a second)", dropped,
			    CHILD_LOG_RATE);
		window = now;
		used = dropped = 0;
	}
	if (used >= CHILD_LOG_RATE) {
		dropped++;
		return;
	}
	used++;
	cut = xstrndup(text, n);
	q = log_quote(cut, n);
	if (asprintf(&msg, "child conn=%llu source=child text=%s%s",
	    (unsigned long long)c->id, q, n < len ? " cut=yes" : "") < 0)
		xoom();
	log_event(LOG_DEBUG, "child", msg, (struct log_field[]){
	    LF_NUM("conn", c->id), LF_STR("source", "child"),
	    LF_STR("text", cut) }, 3);
	free(msg);
	free(q);
	free(cut);
}

/* ---------------------------------------------------------------- IPC lines */

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
