/*
 * The forwarded header list (policy/headers.h). Every rule reads the
 * fields the way the HTTP parser does (http/http.c), so that the child's
 * list, built from the client's head, is also the list the same rules
 * build from that list: the monitor checks exactly that.
 */
#include "policy/headers.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "policy/assemble.h"

/* A value the gateway may copy into the forwarded head (http.md §2.4). */
static int
value_ok(const struct http_field *f)
{
	size_t i;

	if (f->value_len > CG_FWD_VALUE_MAX || (f->value_len > 0 &&
	    (f->value[0] == ' ' || f->value[0] == '\t' ||
	    f->value[f->value_len - 1] == ' ' ||
	    f->value[f->value_len - 1] == '\t')))
		return 0;
	for (i = 0; i < f->value_len; i++) {
		unsigned char c = (unsigned char)f->value[i];

		if (c != '\t' && c != ' ' && (c < 0x21 || c == 0x7f))
			return 0;
	}
	return 1;
}

static int
is_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') ||
	    (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* type "/" subtype token grammar, parameters after ';' (http.md §7.3). */
static int
media_type_ok(const char *v, size_t len)
{
	size_t i = 0, n;
	int part;

	for (part = 0; part < 2; part++) {
		for (n = 0; i < len && is_tchar((unsigned char)v[i]); i++)
			n++;
		if (n == 0)
			return 0;
		if (part == 0) {
			if (i >= len || v[i] != '/')
				return 0;
			i++;
		}
	}
	return i == len || v[i] == ';' || v[i] == ' ' || v[i] == '\t';
}

/* 1 when the Connection value v[0..len) lists the token tok. */
static int
has_token(const char *v, size_t len, const char *tok)
{
	const char *el;
	size_t start = 0, i, ellen;

	for (;;) {
		for (i = start; i < len && v[i] != ','; i++)
			;
		el = v + start;
		ellen = i - start;
		cg_trim_ows(&el, &ellen);
		if (cg_ci_eq(el, ellen, tok))
			return 1;
		if (i >= len)
			return 0;
		start = i + 1;
	}
}

static void
put(struct cg_fwd_headers *out, const char *name, const char *value,
    size_t len)
{
	out->f[out->n].name = name;
	out->f[out->n].name_len = strlen(name);
	out->f[out->n].value = value;
	out->f[out->n].value_len = len;
	out->n++;
}

/* Copy the first field named name when its value may be forwarded. */
static void
copy_first(struct cg_fwd_headers *out, const struct http_field *in,
    size_t nin, const char *name)
{
	const struct http_field *f = http_find_field(in, nin, name);

	if (f != NULL && value_ok(f))
		put(out, name, f->value, f->value_len);
}

/*
 * The framing headers of in: at most one Content-Length (a valid value)
 * and at most one Transfer-Encoding (chunked), not both (http.md §3.2-3.4).
 * Returns 0 with *has_len / *len / *chunked set, or -1 with *r set.
 */
static int
request_framing(const struct http_field *in, size_t nin, int *has_len,
    uint64_t *len, int *chunked, struct cg_refusal *r)
{
	size_t i;

	*has_len = *chunked = 0;
	*len = 0;
	for (i = 0; i < nin; i++) {
		if (cg_ci_eq(in[i].name, in[i].name_len, "Content-Length")) {
			if (*has_len || http_content_length(in[i].value,
			    in[i].value_len, len) < 0)
				return cg_refuse(r, "malformed",
				    "invalid Content-Length header");
			*has_len = 1;
		} else if (cg_ci_eq(in[i].name, in[i].name_len,
		    "Transfer-Encoding")) {
			if (*chunked || !cg_ci_eq(in[i].value, in[i].value_len,
			    "chunked"))
				return cg_refuse(r, "malformed",
				    "unsupported Transfer-Encoding");
			*chunked = 1;
		}
	}
	if (*has_len && *chunked)
		return cg_refuse(r, "malformed", "Content-Length and "
		    "Transfer-Encoding both present");
	return 0;
}

int
policy_forward_headers(const struct cg_request *req, uint64_t json_len,
    const struct http_field *in, size_t nin, struct cg_fwd_headers *out,
    struct cg_refusal *r)
{
	const struct http_field *ct = http_find_field(in, nin, "Content-Type");
	int has_len, chunked, conn_close = 0, conn_upgrade = 0, upgrade_tcp = 0;
	int json = req->body_kind == CG_BODY_JSON ||
	    req->body_kind == CG_BODY_JSON_OPTIONAL;
	int post_put = strcmp(req->method, "POST") == 0 ||
	    strcmp(req->method, "PUT") == 0;
	uint64_t len;
	const char *mt;
	size_t i, mtlen;

	memset(out, 0, sizeof(*out));
	if (request_framing(in, nin, &has_len, &len, &chunked, r) < 0)
		return -1;
	for (i = 0; i < nin; i++) {
		if (cg_ci_eq(in[i].name, in[i].name_len, "Content-Type")) {
			/* any Content-Type naming gRPC counts (B40) */
			http_media_type(in[i].value, in[i].value_len, &mt, &mtlen);
			if (cg_ci_prefix(mt, mtlen, "application/grpc"))
				return cg_refuse(r, "denied-endpoint",
				    "application/grpc requests are not "
				    "available through the gateway");
		} else if (cg_ci_eq(in[i].name, in[i].name_len, "Connection")) {
			conn_close |= has_token(in[i].value, in[i].value_len,
			    "close");
			conn_upgrade |= has_token(in[i].value, in[i].value_len,
			    "upgrade");
		} else if (cg_ci_eq(in[i].name, in[i].name_len, "Upgrade")) {
			upgrade_tcp |= cg_ci_eq(in[i].value, in[i].value_len,
			    "tcp");
		}
	}

	/*
	 * A form body is query values to the daemons (policy/assemble.h):
	 * dockerd 20.10 read fromSrc and changes of an import from it, ahead
	 * of the query the policy checked. On a stream route it is refused
	 * (spec README, amendments of 2026-12-07); elsewhere the type is not
	 * forwarded.
	 */
	if (req->body_kind == CG_BODY_STREAM && ct != NULL &&
	    asm_form_body(ct->value, ct->value_len))
		return cg_refuse_hint(r, "denied-query", "send the body as "
		    "application/x-tar (or without a Content-Type)",
		    "a form body (Content-Type application/x-www-form-"
		    "urlencoded or multipart/form-data) is refused: the daemon "
		    "reads its values as query parameters");
	copy_first(out, in, nin, "User-Agent");
	copy_first(out, in, nin, "Accept");
	copy_first(out, in, nin, "Accept-Encoding");
	if (json && json_len > 0)
		put(out, "Content-Type", "application/json", 16);
	else if (req->body_kind == CG_BODY_STREAM && ct != NULL &&
	    value_ok(ct) && media_type_ok(ct->value, ct->value_len))
		put(out, "Content-Type", ct->value, ct->value_len);
	if (strcmp(req->action, "pull") == 0 || strcmp(req->action, "build") == 0)
		copy_first(out, in, nin, "X-Registry-Auth");
	if (strcmp(req->action, "build") == 0)
		copy_first(out, in, nin, "X-Registry-Config");

	if (req->body_kind == CG_BODY_STREAM && chunked) {
		out->chunked = 1;
		put(out, "Transfer-Encoding", "chunked", 7);
	} else {
		out->length = req->body_kind == CG_BODY_STREAM ? len :
		    json ? json_len : 0;
		if (out->length > 0 || post_put) {
			snprintf(out->num, sizeof(out->num), "%llu",
			    (unsigned long long)out->length);
			put(out, "Content-Length", out->num, strlen(out->num));
		}
	}

	/*
	 * A body before the upgrade on a hijack route is left for the stream
	 * (http.md §4.1 amended): the connection cannot carry another request.
	 */
	out->close = conn_close || (req->hijack && req->body_kind ==
	    CG_BODY_NONE && has_len && len > 0);
	out->upgrade = req->hijack && upgrade_tcp && conn_upgrade;
	if (out->upgrade || out->close)
		put(out, "Connection", out->upgrade ? (out->close ?
		    "Upgrade, close" : "Upgrade") : "close",
		    out->upgrade ? (out->close ? 14 : 7) : 5);
	if (out->upgrade)
		put(out, "Upgrade", "tcp", 3);
	return 0;
}

int
policy_exchange_synced(const struct cg_request *req,
    const struct cg_fwd_headers *fh)
{
	size_t i;

	if (req->hijack || req->body_kind == CG_BODY_STREAM || fh->chunked ||
	    fh->length > 0)
		return 1;
	for (i = 0; i < fh->n; i++)
		if (cg_ci_eq(fh->f[i].name, fh->f[i].name_len, "Content-Length") ||
		    cg_ci_eq(fh->f[i].name, fh->f[i].name_len,
		    "Transfer-Encoding"))
			return 1;
	return 0;
}

int
policy_headers_equal(const struct http_field *a, size_t na,
    const struct cg_fwd_headers *b)
{
	size_t i;

	if (na != b->n)
		return 0;
	for (i = 0; i < na; i++)
		if (a[i].name_len != b->f[i].name_len ||
		    a[i].value_len != b->f[i].value_len ||
		    memcmp(a[i].name, b->f[i].name, a[i].name_len) != 0 ||
		    memcmp(a[i].value, b->f[i].value, a[i].value_len) != 0)
			return 0;
	return 1;
}
