/*
 * Strict HTTP/1.1 parsing, the part the parsers share (http.md §2.1,
 * §2.2, §2.4, §3.2, §3.8): lines, field lines, Content-Length, media types.
 * The request head is parsed in request.c, the backend's response head
 * in response.c, chunked bodies in chunked.c.
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
#include "http/http_int.h"
#include "base/util.h"

#include <string.h>

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

int
http_next_line(const char *buf, size_t len, size_t pos, size_t *eol,
    struct cg_refusal *err)
{
	size_t avail = len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX;
	const char *cr;
	size_t i;

	/*
	 * The common line at once (byte by byte, the head of a
	 * keep-alive answer cost the monitor a tenth of its instructions): a
	 * CR, its LF, and neither LF nor NUL before it.
	 */
	if (pos < avail && (cr = memchr(buf + pos, '\r', avail - pos)) != NULL &&
	    (size_t)(cr - buf) + 1 < avail && cr[1] == '\n' &&
	    memchr(buf + pos, '\n', (size_t)(cr - buf) - pos) == NULL &&
	    memchr(buf + pos, '\0', (size_t)(cr - buf) - pos) == NULL) {
		*eol = (size_t)(cr - buf);
		return 1;
	}
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

int
http_parse_field(const char *line, size_t n, struct http_field *f,
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
