/*
 * The chunked transfer coding (http.md §5.1 for request bodies, §8.4 for
 * response bodies): an incremental decoder that checks chunk sizes,
 * extensions and trailers and copies only the data, and a whole-body
 * decode on top of it.
 */
#include "http/http.h"
#include "http/http_int.h"
#include "base/util.h"
#include "base/xmalloc.h"

#include <stdlib.h>
#include <string.h>

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

/*
 * One byte ch of the coding's framing into c->state: takes any state but
 * CH_DATA (whose bytes http_chunked_feed copies) and maxdig, the most
 * chunk-size hex digits. Returns 0, or -1 when ch may not come there.
 */
static int
chunked_step(struct http_chunked *c, unsigned char ch, unsigned maxdig)
{
	int h;

	switch (c->state) {
	case CH_SIZE:
		if ((h = cg_hexval(ch)) >= 0) {
			if (c->digits == maxdig)
				return -1;
			c->remaining = (c->remaining << 4) | (unsigned)h;
			c->digits++;
		} else if (c->digits == 0) {
			return -1;
		} else if (ch == ';') {
			c->state = CH_EXT;
		} else if (ch == '\r') {
			c->state = CH_SIZE_LF;
		} else {
			return -1;
		}
		return 0;
	case CH_EXT:
		if (ch == '\r')
			c->state = CH_SIZE_LF;
		else if (ch == '\n' || ch == '\0')
			return -1;
		return 0;
	case CH_SIZE_LF:
		if (ch != '\n')
			return -1;
		c->digits = 0;
		if (c->remaining == 0) {
			c->state = CH_TRAILER_START;
			c->trailer_len = 0;
		} else {
			c->state = CH_DATA;
		}
		return 0;
	case CH_DATA_CR:
		if (ch != '\r')
			return -1;
		c->state = CH_DATA_LF;
		return 0;
	case CH_DATA_LF:
		if (ch != '\n')
			return -1;
		c->state = CH_SIZE;
		return 0;
	case CH_TRAILER_START:
		if (ch == '\r')
			c->state = CH_FINAL_LF;
		else if (is_tchar(ch))	/* no obs-fold, no empty name */
			c->state = CH_TRAILER_NAME;
		else
			return -1;
		return 0;
	case CH_TRAILER_NAME:
		if (ch == ':')
			c->state = CH_TRAILER_VALUE;
		else if (!is_tchar(ch))
			return -1;
		return 0;
	case CH_TRAILER_VALUE:
		if (ch == '\r')
			c->state = CH_TRAILER_LF;
		else if (!is_value_byte(ch))
			return -1;
		return 0;
	case CH_TRAILER_LF:
		if (ch != '\n')
			return -1;
		c->state = CH_TRAILER_START;
		return 0;
	case CH_FINAL_LF:
		if (ch != '\n')
			return -1;
		c->state = CH_DONE;
		c->done = 1;
		return 0;
	default:
		return -1;
	}
}

int
http_chunked_feed(struct http_chunked *c, const char *in, size_t inlen,
    char *out, size_t *outlen, size_t *consumed)
{
	size_t i = 0, o = 0, cap = *outlen, n;
	unsigned maxdig = c->response_mode ? 16 : 8;

	*outlen = 0;
	*consumed = 0;
	if (c->state == CH_ERROR)
		return -1;
	while (i < inlen && !c->done) {
		int in_trailer = c->state >= CH_TRAILER_START;

		if (c->state == CH_DATA) {
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
		}
		if (chunked_step(c, (unsigned char)in[i], maxdig) < 0)
			goto bad;
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

void
http_chunked_unskip(struct http_chunked *c, uint64_t n)
{
	if (n == 0 || c->state != CH_DATA_CR)
		return;
	c->remaining = n;
	c->state = CH_DATA;
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
