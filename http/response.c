/*
 * The backend's response head (http.md §8.1): status line and fields,
 * whether it switches to a raw stream (§9.1), and the copy of it the
 * monitor relays without the fields it drops (§8.3). Parsed by the monitor;
 * the line and field syntax it shares with the request head is in http.c.
 */
#include "http/http.h"
#include "http/http_int.h"
#include "base/util.h"

#include <string.h>
#include <strings.h>


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
		if ((r = http_next_line(buf, len, pos, &eol, &err)) != 1)
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
			if (http_parse_field(buf + pos, eol - pos, f, &err) < 0)
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
