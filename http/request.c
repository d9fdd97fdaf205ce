/*
 * The client's request head (http.md §2, §3): request line, header
 * fields and the semantics of the special ones (Host, Content-Length,
 * Transfer-Encoding, Expect, Connection, Upgrade, Content-Type). Parsed
 * only in the sandboxed child. The line and field syntax it shares with
 * the response head is in http.c.
 */
#include "http/http.h"
#include "http/http_int.h"
#include "base/util.h"

#include <string.h>

/* Host value / absolute-form authority byte: [A-Za-z0-9._:\[\]-]. */
static int
is_host_byte(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c != '\0' && strchr("._:[]-", c) != NULL;
}

/*
 * Connection (§3.6): comma-separated list of tokens (empty elements are
 * allowed by RFC 9110 §5.6.1 and skipped). Anything that is not a token
 * list is refused.
 */
static int
parse_connection(const char *v, size_t vlen, struct http_request *req,
    struct cg_refusal *err)
{
	const char *el;
	size_t start = 0, i, j, ellen;

	for (;;) {
		for (i = start; i < vlen && v[i] != ','; i++)
			;
		el = v + start;
		ellen = i - start;
		cg_trim_ows(&el, &ellen);
		for (j = 0; j < ellen; j++)
			if (!is_tchar((unsigned char)el[j]))
				return cg_refuse(err, "malformed",
				    "invalid Connection header");
		if (cg_ci_eq(el, ellen, "close"))
			req->conn_close = 1;
		else if (cg_ci_eq(el, ellen, "upgrade"))
			req->conn_upgrade = 1;
		if (i == vlen)
			return 0;
		start = i + 1;
	}
}

/* Request line (§2.3). */
static int
parse_request_line(const char *line, size_t n, struct http_request *req,
    struct cg_refusal *err)
{
	const char *t, *p, *ver;
	size_t i, tlen, vlen;

	for (i = 0; i < n && line[i] >= 'A' && line[i] <= 'Z'; i++)
		;
	if (i == 0 || i > HTTP_METHOD_MAX || i == n || line[i] != ' ')
		return cg_refuse(err, "malformed", "invalid request method");
	req->method = line;
	req->method_len = i;

	t = line + i + 1;
	for (tlen = 0; t + tlen < line + n && t[tlen] != ' '; tlen++) {
		unsigned char c = (unsigned char)t[tlen];

		if (c < 0x21 || c > 0x7e || c == '#' || c == '\\')
			return cg_refuse(err, "malformed",
			    "invalid byte in request target");
	}
	if (tlen == 0)
		return cg_refuse(err, "malformed", "malformed request line");
	if (t + tlen == line + n)
		return cg_refuse(err, "malformed", "malformed request line");
	ver = t + tlen + 1;
	vlen = (size_t)(line + n - ver);
	if (memchr(ver, ' ', vlen) != NULL)
		return cg_refuse(err, "malformed", "malformed request line");
	if (vlen != 8 || memcmp(ver, "HTTP/1.1", 8) != 0)
		return cg_refuse(err, "malformed", "only HTTP/1.1 is supported");

	if (t[0] == '/') {
		req->target = t;
		req->target_len = tlen;
		return 0;
	}
	/* absolute-form: reduce to origin-form (§2.3). */
	if (!cg_ci_prefix(t, tlen, "http://"))
		return cg_refuse(err, "malformed",
		    "unsupported request target form");
	for (p = t + 7; p < t + tlen && *p != '/'; p++)
		if (!is_host_byte((unsigned char)*p))
			return cg_refuse(err, "malformed",
			    "invalid authority in request target");
	if (p == t + 7 || p == t + tlen)
		return cg_refuse(err, "malformed",
		    "invalid absolute-form request target");
	req->target = p;
	req->target_len = (size_t)(t + tlen - p);
	return 0;
}

/* Semantics of one request field (§3). */
static int
request_field(struct http_request *req, const struct http_field *f,
    int *nhost, int *has_te, struct cg_refusal *err)
{
	const char *mt;
	size_t i, mtlen;

	if (cg_ci_eq(f->name, f->name_len, "Host")) {
		if (++*nhost > 1)
			return cg_refuse(err, "malformed", "repeated Host header");
		for (i = 0; i < f->value_len; i++)
			if (!is_host_byte((unsigned char)f->value[i]))
				return cg_refuse(err, "malformed",
				    "invalid Host header");
	} else if (cg_ci_eq(f->name, f->name_len, "Content-Length")) {
		if (req->has_content_length)
			return cg_refuse(err, "malformed",
			    "repeated Content-Length header");
		if (http_content_length(f->value, f->value_len,
		    &req->content_length) < 0)
			return cg_refuse(err, "malformed",
			    "invalid Content-Length header");
		req->has_content_length = 1;
	} else if (cg_ci_eq(f->name, f->name_len, "Transfer-Encoding")) {
		if (*has_te)
			return cg_refuse(err, "malformed",
			    "repeated Transfer-Encoding header");
		if (!cg_ci_eq(f->value, f->value_len, "chunked"))
			return cg_refuse(err, "malformed",
			    "unsupported Transfer-Encoding");
		*has_te = 1;
		req->chunked = 1;
	} else if (cg_ci_eq(f->name, f->name_len, "Expect")) {
		if (!cg_ci_eq(f->value, f->value_len, "100-continue"))
			return cg_refuse(err, "malformed",
			    "unsupported Expect header");
		req->expect_continue = 1;
	} else if (cg_ci_eq(f->name, f->name_len, "Connection")) {
		return parse_connection(f->value, f->value_len, req, err);
	} else if (cg_ci_eq(f->name, f->name_len, "Upgrade")) {
		if (cg_ci_eq(f->value, f->value_len, "tcp"))
			req->upgrade_tcp = 1;
	} else if (cg_ci_eq(f->name, f->name_len, "Content-Type")) {
		if (req->content_type == NULL) {
			req->content_type = f->value;
			req->content_type_len = f->value_len;
		}
		/* Any Content-Type naming gRPC counts (B40), not only the first. */
		http_media_type(f->value, f->value_len, &mt, &mtlen);
		if (cg_ci_prefix(mt, mtlen, "application/grpc"))
			req->grpc = 1;
	}
	if (req->has_content_length && *has_te)
		return cg_refuse(err, "malformed",
		    "Content-Length and Transfer-Encoding both present");
	return 0;
}

int
http_parse_request(const char *buf, size_t len, struct http_request *req,
    struct cg_refusal *err)
{
	size_t pos = 0, eol;
	int r, nhost = 0, has_te = 0;

	memset(req, 0, sizeof(*req));
	for (;;) {
		if ((r = http_next_line(buf, len, pos, &eol, err)) != 1)
			return r;
		if (eol == pos) {
			if (pos == 0)
				return cg_refuse(err, "malformed",
				    "empty line before request line");
			break;
		}
		if (pos == 0) {
			if (parse_request_line(buf, eol, req, err) < 0)
				return -1;
		} else {
			struct http_field *f;

			if (req->nfields == HTTP_FIELDS_MAX)
				return cg_refuse(err, "header-too-large",
				    "too many header fields");
			f = &req->fields[req->nfields];
			if (http_parse_field(buf + pos, eol - pos, f, err) < 0 ||
			    request_field(req, f, &nhost, &has_te, err) < 0)
				return -1;
			req->nfields++;
		}
		pos = eol + 2;
	}
	if (nhost == 0)
		return cg_refuse(err, "malformed", "missing Host header");
	return (int)(eol + 2);
}
