/* Bounded buffers for the IPC codec (style.md §4, privsep.md §6.3). */
#include "ipc/buf.h"

#include <string.h>

/*
 * Native byte order through memcpy: no alignment assumptions about the
 * received datagram, and both ends are the same binary (privsep.md §6.2).
 */

void
ipc_wbuf_init(struct ipc_wbuf *b, unsigned char *p, size_t max)
{
	b->p = p;
	b->max = max;
	b->len = 0;
}

void
ipc_rbuf_init(struct ipc_rbuf *b, const unsigned char *p, size_t len)
{
	b->p = p;
	b->len = len;
	b->off = 0;
}

size_t
ipc_rbuf_left(const struct ipc_rbuf *b)
{
	return b->len - b->off;
}

static int
put_raw(struct ipc_wbuf *b, const void *v, size_t n)
{
	if (n > b->max - b->len)
		return IPC_ETOOBIG;
	if (n > 0)
		memcpy(b->p + b->len, v, n);
	b->len += n;
	return IPC_OK;
}

static int
get_raw(struct ipc_rbuf *b, void *v, size_t n)
{
	if (n > ipc_rbuf_left(b))
		return IPC_ESHORT;
	memcpy(v, b->p + b->off, n);
	b->off += n;
	return IPC_OK;
}

int
ipc_put_u8(struct ipc_wbuf *b, uint8_t v)
{
	return put_raw(b, &v, sizeof(v));
}

int
ipc_put_u16(struct ipc_wbuf *b, uint16_t v)
{
	return put_raw(b, &v, sizeof(v));
}

int
ipc_put_u32(struct ipc_wbuf *b, uint32_t v)
{
	return put_raw(b, &v, sizeof(v));
}

int
ipc_put_u64(struct ipc_wbuf *b, uint64_t v)
{
	return put_raw(b, &v, sizeof(v));
}

int
ipc_put_i32(struct ipc_wbuf *b, int32_t v)
{
	return put_raw(b, &v, sizeof(v));
}

int
ipc_get_u8(struct ipc_rbuf *b, uint8_t *v)
{
	return get_raw(b, v, sizeof(*v));
}

int
ipc_get_u16(struct ipc_rbuf *b, uint16_t *v)
{
	return get_raw(b, v, sizeof(*v));
}

int
ipc_get_u32(struct ipc_rbuf *b, uint32_t *v)
{
	return get_raw(b, v, sizeof(*v));
}

int
ipc_get_u64(struct ipc_rbuf *b, uint64_t *v)
{
	return get_raw(b, v, sizeof(*v));
}

int
ipc_get_i32(struct ipc_rbuf *b, int32_t *v)
{
	return get_raw(b, v, sizeof(*v));
}

/* Strict UTF-8 (RFC 3629 table 3-7 of Unicode): returns 1 if valid. */
static int
utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0, k, need;
	unsigned char lo, hi;

	while (i < n) {
		unsigned char c = s[i];

		lo = 0x80;
		hi = 0xBF;
		if (c < 0x80) {
			i++;
			continue;
		} else if (c >= 0xC2 && c <= 0xDF)
			need = 1;
		else if (c >= 0xE0 && c <= 0xEF) {
			need = 2;
			if (c == 0xE0)
				lo = 0xA0;	/* no overlong */
			else if (c == 0xED)
				hi = 0x9F;	/* no surrogates */
		} else if (c >= 0xF0 && c <= 0xF4) {
			need = 3;
			if (c == 0xF0)
				lo = 0x90;	/* no overlong */
			else if (c == 0xF4)
				hi = 0x8F;	/* <= U+10FFFF */
		} else
			return 0;	/* 0x80-0xC1, 0xF5-0xFF */
		if (need > n - i - 1)
			return 0;
		/* Only the first continuation byte has a narrowed range. */
		if (s[i + 1] < lo || s[i + 1] > hi)
			return 0;
		for (k = 2; k <= need; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xBF)
				return 0;
		i += need + 1;
	}
	return 1;
}

int
ipc_str_check(const void *p, size_t len, unsigned flags)
{
	if (len == 0)
		return IPC_OK;
	if (p == NULL)
		return IPC_ESTR;
	if ((flags & IPC_STR_NONUL) && memchr(p, '\0', len) != NULL)
		return IPC_ESTR;
	if ((flags & IPC_STR_UTF8) && !utf8_valid(p, len))
		return IPC_ESTR;
	return IPC_OK;
}

int
ipc_put_bytes(struct ipc_wbuf *b, const struct ipc_str *s, size_t maxlen)
{
	if (s->len > maxlen)
		return IPC_ETOOBIG;
	if (s->len > 0 && s->p == NULL)
		return IPC_ESTR;
	/* Check the whole field first so a failure leaves b unchanged. */
	if (b->max - b->len < sizeof(uint32_t) ||
	    s->len > b->max - b->len - sizeof(uint32_t))
		return IPC_ETOOBIG;
	(void)ipc_put_u32(b, s->len);
	return put_raw(b, s->p, s->len);
}

int
ipc_put_str(struct ipc_wbuf *b, const struct ipc_str *s, size_t maxlen,
    unsigned flags)
{
	int r;

	if (s->len > maxlen)
		return IPC_ETOOBIG;
	if ((r = ipc_str_check(s->p, s->len, flags)) != IPC_OK)
		return r;
	return ipc_put_bytes(b, s, maxlen);
}

int
ipc_get_bytes(struct ipc_rbuf *b, struct ipc_str *out, size_t maxlen)
{
	uint32_t n;

	if (ipc_rbuf_left(b) < sizeof(n))
		return IPC_ESHORT;
	memcpy(&n, b->p + b->off, sizeof(n));
	if (n > maxlen)
		return IPC_ETOOBIG;
	if (n > ipc_rbuf_left(b) - sizeof(n))
		return IPC_ESHORT;
	out->p = (const char *)(b->p + b->off + sizeof(n));
	out->len = n;
	b->off += sizeof(n) + n;
	return IPC_OK;
}

int
ipc_get_str(struct ipc_rbuf *b, struct ipc_str *out, size_t maxlen,
    unsigned flags)
{
	struct ipc_rbuf save = *b;
	struct ipc_str s;
	int r;

	if ((r = ipc_get_bytes(b, &s, maxlen)) != IPC_OK)
		return r;
	if ((r = ipc_str_check(s.p, s.len, flags)) != IPC_OK) {
		*b = save;
		return r;
	}
	*out = s;
	return IPC_OK;
}
