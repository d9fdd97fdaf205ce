/*
 * Strict HTTP/1.1 parsing (http.md §2–§5, §8.1, §9.1).
 *
 * The daemon's own HTTP parser sits behind us. Any input that the two
 * parsers could read differently is a request-smuggling or policy-bypass
 * risk (B01c, B45), so everything a real client never sends is refused
 * instead of interpreted: bare CR/LF, NUL, obs-fold, whitespace before the
 * colon, duplicate or list-valued Content-Length, any Transfer-Encoding but
 * a single "chunked", and both framings together.
 *
 * The head parsers are stateless: the caller passes everything it has read
 * so far and gets back the head length, -2 (incomplete) or -1. Every
 * complete line is checked as soon as it is available, so an error is
 * reported as early as it is certain, and the scan never looks past
 * HTTP_HEAD_MAX bytes, so a caller that holds a little more than 64 KiB
 * always gets a definite answer.
 */
#include "http/http.h"
#include "base/util.h"
#include "base/xmalloc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* RFC 9110 tchar. */
static int
is_tchar(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* Field value byte (§2.4): HTAB, SP, 0x21-0x7E, 0x80-0xFF. */
static int
is_value_byte(unsigned char c)
{
	return c == '\t' || c == ' ' || (c >= 0x21 && c != 0x7f);
}

/* Host value / absolute-form authority byte: [A-Za-z0-9._:\[\]-]. */
static int
is_host_byte(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c != '\0' && strchr("._:[]-", c) != NULL;
}

static int
is_ows(char c)
{
	return c == ' ' || c == '\t';
}

void
http_media_type(const char *v, size_t vlen, const char **mt, size_t *mtlen)
{
	const char *semi = memchr(v, ';', vlen);

	*mt = v;
	*mtlen = semi != NULL ? (size_t)(semi - v) : vlen;
	cg_trim_ows(mt, mtlen);
}

/*
 * Find the end of the line starting at pos. Returns 1 with *eol at its CR,
 * -2 when more bytes are needed, -1 with err filled for a bare CR, bare LF
 * or NUL (400) or when the head cannot end within HTTP_HEAD_MAX bytes
 * (431). Bytes at or beyond HTTP_HEAD_MAX are never looked at.
 */
static int
next_line(const char *buf, size_t len, size_t pos, size_t *eol,
    struct cg_refusal *err)
{
	size_t avail = len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX;
	size_t i;

	for (i = pos; i < avail; i++) {
		switch (buf[i]) {
		case '\r':
			if (i + 1 >= avail)
				goto short_;
			if (buf[i + 1] != '\n')
				return cg_refuse(err, "malformed",
				    "bare CR in request head");
			*eol = i;
			return 1;
		case '\n':
			return cg_refuse(err, "malformed",
			    "bare LF in request head");
		case '\0':
			return cg_refuse(err, "malformed",
			    "NUL byte in request head");
		default:
			break;
		}
	}
 short_:
	/*
	 * The line (and so the head) does not end within the first
	 * HTTP_HEAD_MAX bytes: a CR at the last allowed byte would put its
	 * LF beyond the limit.
	 */
	if (len >= HTTP_HEAD_MAX)
		return cg_refuse(err, "header-too-large",
		    "request head exceeds 64 KiB");
	return -2;
}

/*
 * Field line syntax (§2.4): token name, colon, OWS value OWS. The line has
 * no CR, LF or NUL (next_line) and is not empty.
 */
static int
parse_field(const char *line, size_t n, struct http_field *f,
    struct cg_refusal *err)
{
	const char *v;
	size_t i, vlen, namelen;

	if (is_ows(line[0]))
		return cg_refuse(err, "malformed",
		    "obsolete line folding in request head");
	for (i = 0; i < n && is_tchar((unsigned char)line[i]); i++)
		;
	if (i == n)
		return cg_refuse(err, "malformed", "header line without colon");
	if (line[i] != ':') {
		if (is_ows(line[i]))
			return cg_refuse(err, "malformed",
			    "whitespace before colon in header field");
		return cg_refuse(err, "malformed",
		    "invalid character in header field name");
	}
	if (i == 0)
		return cg_refuse(err, "malformed", "empty header field name");
	namelen = i;
	v = line + i + 1;
	vlen = n - i - 1;
	for (i = 0; i < vlen; i++)
		if (!is_value_byte((unsigned char)v[i]))
			return cg_refuse(err, "malformed",
			    "invalid byte in header field value");
	cg_trim_ows(&v, &vlen);
	f->name = line;
	f->name_len = namelen;
	f->value = v;
	f->value_len = vlen;
	return 0;
}

int
http_content_length(const char *v, size_t vlen, uint64_t *out)
{
	uint64_t n = 0;
	size_t i;

	if (vlen < 1 || vlen > 18)
		return -1;
	for (i = 0; i < vlen; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		n = n * 10 + (uint64_t)(v[i] - '0');
	}
	*out = n;
	return 0;
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
		if ((r = next_line(buf, len, pos, &eol, err)) != 1)
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
			if (parse_field(buf + pos, eol - pos, f, err) < 0 ||
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

const struct http_field *
http_find_field(const struct http_field *fields, size_t nfields,
    const char *name)
{
	size_t i;

	for (i = 0; i < nfields; i++)
		if (cg_ci_eq(fields[i].name, fields[i].name_len, name))
			return &fields[i];
	return NULL;
}

/* Status line (§8.1): HTTP/1.0|HTTP/1.1 SP 3DIGIT [SP reason]. */
static int
parse_status_line(const char *line, size_t n, struct http_response *resp)
{
	size_t i;

	if (n < 12 || memcmp(line, "HTTP/1.", 7) != 0 ||
	    (line[7] != '0' && line[7] != '1') || line[8] != ' ')
		return -1;
	resp->minor_version = line[7] - '0';
	if (line[9] < '1' || line[9] > '5' || line[10] < '0' ||
	    line[10] > '9' || line[11] < '0' || line[11] > '9')
		return -1;
	resp->status = (line[9] - '0') * 100 + (line[10] - '0') * 10 +
	    (line[11] - '0');
	if (n == 12)
		return 0;
	if (line[12] != ' ')
		return -1;
	for (i = 13; i < n; i++)
		if (!is_value_byte((unsigned char)line[i]))
			return -1;
	return 0;
}

int
http_parse_response(const char *buf, size_t len, struct http_response *resp)
{
	struct cg_refusal err;
	size_t pos = 0, eol;
	int r, has_te = 0;

	memset(resp, 0, sizeof(*resp));
	for (;;) {
		if ((r = next_line(buf, len, pos, &eol, &err)) != 1)
			return r;
		if (eol == pos) {
			if (pos == 0)
				return -1;
			break;
		}
		if (pos == 0) {
			if (parse_status_line(buf, eol, resp) < 0)
				return -1;
		} else {
			struct http_field *f;

			if (resp->nfields == HTTP_FIELDS_MAX)
				return -1;
			f = &resp->fields[resp->nfields];
			if (parse_field(buf + pos, eol - pos, f, &err) < 0)
				return -1;
			if (cg_ci_eq(f->name, f->name_len, "Content-Length")) {
				if (resp->has_content_length ||
				    http_content_length(f->value, f->value_len,
				    &resp->content_length) < 0)
					return -1;
				resp->has_content_length = 1;
			} else if (cg_ci_eq(f->name, f->name_len,
			    "Transfer-Encoding")) {
				if (has_te || !cg_ci_eq(f->value, f->value_len,
				    "chunked"))
					return -1;
				has_te = 1;
				resp->chunked = 1;
			} else if (cg_ci_eq(f->name, f->name_len, "Content-Type") &&
			    resp->content_type == NULL) {
				resp->content_type = f->value;
				resp->content_type_len = f->value_len;
			}
			if (resp->has_content_length && has_te)
				return -1;
			resp->nfields++;
		}
		pos = eol + 2;
	}
	return (int)(eol + 2);
}

int
http_response_switches(const struct http_response *resp)
{
	const char *mt;
	size_t mtlen;

	if (resp->status == 101)
		return 1;
	if (resp->status != 200 || resp->content_type == NULL ||
	    resp->has_content_length || resp->chunked)
		return 0;
	http_media_type(resp->content_type, resp->content_type_len, &mt, &mtlen);
	return cg_ci_eq(mt, mtlen, "application/vnd.docker.raw-stream") ||
	    cg_ci_eq(mt, mtlen, "application/vnd.docker.multiplexed-stream");
}

/* Chunked decoder states; 0 is the initial one so a zeroed struct works. */
enum {
	CH_SIZE = 0,		/* chunk-size hex digits */
	CH_EXT,			/* ";ext" up to CR, ignored */
	CH_SIZE_LF,		/* LF after the size line */
	CH_DATA,		/* c->remaining data bytes */
	CH_DATA_CR,		/* CR after chunk data */
	CH_DATA_LF,		/* LF after chunk data */
	CH_TRAILER_START,	/* start of a trailer line or the final CRLF */
	CH_TRAILER_NAME,
	CH_TRAILER_VALUE,
	CH_TRAILER_LF,		/* LF ending a trailer field line */
	CH_FINAL_LF,		/* LF of the final CRLF */
	CH_DONE,
	CH_ERROR
};

void
http_chunked_init(struct http_chunked *c, int response_mode)
{
	memset(c, 0, sizeof(*c));
	c->response_mode = response_mode != 0;
	c->state = CH_SIZE;
}

int
http_chunked_feed(struct http_chunked *c, const char *in, size_t inlen,
    char *out, size_t *outlen, size_t *consumed)
{
	size_t i = 0, o = 0, cap = *outlen, n;
	unsigned maxdig = c->response_mode ? 16 : 8;
	int h;

	*outlen = 0;
	*consumed = 0;
	if (c->state == CH_ERROR)
		return -1;
	while (i < inlen && !c->done) {
		unsigned char ch = (unsigned char)in[i];
		int in_trailer = c->state >= CH_TRAILER_START;

		switch (c->state) {
		case CH_DATA:
			n = inlen - i;
			if (n > c->remaining)
				n = (size_t)c->remaining;
			if (out != NULL) {
				if (n > cap - o)
					n = cap - o;
				if (n == 0)
					goto out;	/* out is full */
				memcpy(out + o, in + i, n);
				o += n;
			}
			i += n;
			c->remaining -= n;
			if (c->remaining == 0)
				c->state = CH_DATA_CR;
			continue;
		case CH_SIZE:
			if ((h = cg_hexval(ch)) >= 0) {
				if (c->digits == maxdig)
					goto bad;
				c->remaining = (c->remaining << 4) | (unsigned)h;
				c->digits++;
			} else if (c->digits == 0) {
				goto bad;
			} else if (ch == ';') {
				c->state = CH_EXT;
			} else if (ch == '\r') {
				c->state = CH_SIZE_LF;
			} else {
				goto bad;
			}
			break;
		case CH_EXT:
			if (ch == '\r')
				c->state = CH_SIZE_LF;
			else if (ch == '\n' || ch == '\0')
				goto bad;
			break;
		case CH_SIZE_LF:
			if (ch != '\n')
				goto bad;
			c->digits = 0;
			if (c->remaining == 0) {
				c->state = CH_TRAILER_START;
				c->trailer_len = 0;
			} else {
				c->state = CH_DATA;
			}
			break;
		case CH_DATA_CR:
			if (ch != '\r')
				goto bad;
			c->state = CH_DATA_LF;
			break;
		case CH_DATA_LF:
			if (ch != '\n')
				goto bad;
			c->state = CH_SIZE;
			break;
		case CH_TRAILER_START:
			if (ch == '\r')
				c->state = CH_FINAL_LF;
			else if (is_tchar(ch))	/* no obs-fold, no empty name */
				c->state = CH_TRAILER_NAME;
			else
				goto bad;
			break;
		case CH_TRAILER_NAME:
			if (ch == ':')
				c->state = CH_TRAILER_VALUE;
			else if (!is_tchar(ch))
				goto bad;
			break;
		case CH_TRAILER_VALUE:
			if (ch == '\r')
				c->state = CH_TRAILER_LF;
			else if (!is_value_byte(ch))
				goto bad;
			break;
		case CH_TRAILER_LF:
			if (ch != '\n')
				goto bad;
			c->state = CH_TRAILER_START;
			break;
		case CH_FINAL_LF:
			if (ch != '\n')
				goto bad;
			c->state = CH_DONE;
			c->done = 1;
			break;
		default:
			goto bad;
		}
		/* Trailer section incl. the final CRLF <= HTTP_TRAILER_MAX. */
		if (in_trailer && ++c->trailer_len > HTTP_TRAILER_MAX)
			goto bad;
		i++;
	}
 out:
	*outlen = o;
	*consumed = i;
	return 0;
 bad:
	c->state = CH_ERROR;
	*outlen = o;
	*consumed = i;
	return -1;
}

uint64_t
http_chunked_skip_data(struct http_chunked *c)
{
	uint64_t n;

	if (c->state != CH_DATA)
		return 0;
	n = c->remaining;
	c->remaining = 0;
	c->state = CH_DATA_CR;
	return n;
}

int
http_chunked_decode_all(const char *in, size_t inlen, char **out,
    size_t *outlen)
{
	struct http_chunked ch;
	size_t used, wrote = inlen;

	*out = xmalloc(inlen + 1);
	http_chunked_init(&ch, 1);
	if (http_chunked_feed(&ch, in, inlen, *out, &wrote, &used) < 0 ||
	    !ch.done) {
		free(*out);
		*out = NULL;
		return -1;
	}
	(*out)[wrote] = '\0';
	*outlen = wrote;
	return 0;
}

size_t
http_head_copy(const char *head, size_t headlen,
    const struct http_response *resp, const char *const *drop, char *out)
{
	const char *eol = memmem(head, headlen, "\r\n", 2), *ls, *le;
	const char *const *d;
	size_t olen = (size_t)(eol - head) + 2, i;

	memcpy(out, head, olen);
	for (i = 0; i < resp->nfields; i++) {
		for (d = drop; *d != NULL; d++)
			if (resp->fields[i].name_len == strlen(*d) &&
			    strncasecmp(resp->fields[i].name, *d,
			    resp->fields[i].name_len) == 0)
				break;
		if (*d != NULL)
			continue;
		ls = resp->fields[i].name;
		le = memmem(ls, headlen - (size_t)(ls - head), "\r\n", 2);
		memcpy(out + olen, ls, (size_t)(le - ls) + 2);
		olen += (size_t)(le - ls) + 2;
	}
	return olen;
}
