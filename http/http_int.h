/*
 * Internal interface of the HTTP parsers (http.c, request.c, response.c,
 * chunked.c): the byte classes and the line and field-line syntax that
 * the request head, the response head and the chunked trailers share
 * (http.md §2.1, §2.2, §2.4, §5.1; RFC 9110 §5.6.2). Not for use
 * outside http/.
 */
#ifndef CG_HTTP_HTTP_INT_H
#define CG_HTTP_HTTP_INT_H

#include <stddef.h>
#include <string.h>

struct cg_refusal;
struct http_field;

/* RFC 9110 tchar. */
static inline int
is_tchar(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* Field value byte (§2.4): HTAB, SP, 0x21-0x7E, 0x80-0xFF. */
static inline int
is_value_byte(unsigned char c)
{
	return c == '\t' || c == ' ' || (c >= 0x21 && c != 0x7f);
}

/*
 * Find the end of the line starting at pos. Returns 1 with *eol at its CR,
 * -2 when more bytes are needed, -1 with err filled for a bare CR, bare LF
 * or NUL (400) or when the head cannot end within HTTP_HEAD_MAX bytes
 * (431). Bytes at or beyond HTTP_HEAD_MAX are never looked at.
 */
int http_next_line(const char *buf, size_t len, size_t pos, size_t *eol,
    struct cg_refusal *err);

/*
 * Field line syntax (§2.4): token name, colon, OWS value OWS. The line has
 * no CR, LF or NUL (http_next_line) and is not empty. Returns 0 with *f
 * pointing into line, or -1 with err filled (400).
 */
int http_parse_field(const char *line, size_t n, struct http_field *f,
    struct cg_refusal *err);

#endif
