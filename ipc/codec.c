/*
 * The message codec (privsep.md §6.3, §7): ipc_encode() and
 * ipc_decode(), both walking the catalogue table of proto.c field by
 * field, so the encoder applies exactly the checks the decoder applies.
 *
 * The decoder trusts nothing in the datagram: header fields are checked
 * before any payload byte is looked at, every length is compared with
 * its maximum before it is used, and the payload must be consumed
 * exactly (privsep.md §6.3).
 */
#include "ipc/proto.h"
#include "ipc/proto_int.h"

#include <string.h>

#include "ipc/buf.h"

#define HDR_NAME_MAX	64
#define HDR_VALUE_MAX	8192

/* Encoding */

static int
put_headers(struct ipc_wbuf *b, const struct ipc_msg *m)
{
	uint16_t i, n = m->u.forward.nheaders;
	int r;

	if (n > IPC_FORWARD_HDRS_MAX)
		return IPC_ETOOBIG;
	if ((r = ipc_put_u16(b, n)) != IPC_OK)
		return r;
	for (i = 0; i < n; i++) {
		const struct ipc_header_pair *h = &m->u.forward.headers[i];

		if ((r = ipc_put_str(b, &h->name, HDR_NAME_MAX,
		    IPC_STR_NONUL)) != IPC_OK ||
		    (r = ipc_put_str(b, &h->value, HDR_VALUE_MAX,
		    IPC_STR_NONUL)) != IPC_OK)
			return r;
	}
	return IPC_OK;
}

static int
put_field(struct ipc_wbuf *b, const struct ipc_msg *m, const struct field *f)
{
	const unsigned char *p = (const unsigned char *)m + f->off;

	switch (f->kind) {
	case F_BOOL:
	case F_ENUM:
		if (*p >= (f->kind == F_BOOL ? 2 : f->max))
			return IPC_ERANGE;
		return ipc_put_u8(b, *p);
	case F_U16:
		return ipc_put_u16(b, *(const uint16_t *)(const void *)p);
	case F_U32:
		return ipc_put_u32(b, *(const uint32_t *)(const void *)p);
	case F_U64:
		return ipc_put_u64(b, *(const uint64_t *)(const void *)p);
	case F_I32:
		return ipc_put_i32(b, *(const int32_t *)(const void *)p);
	case F_STR:
		return ipc_put_str(b, (const struct ipc_str *)(const void *)p,
		    f->max, f->flags);
	case F_BYTES:
		return ipc_put_bytes(b, (const struct ipc_str *)(const void *)p,
		    f->max);
	case F_HEADERS:
		return put_headers(b, m);
	}
	return IPC_ETYPE;	/* not reached: table error */
}

int
ipc_encode(const struct ipc_msg *m, unsigned char *buf, size_t cap)
{
	const struct msgdesc *d = ipc_msgdesc(m->type);
	struct ipc_wbuf b, h;
	size_t i;
	int r;

	if (d == NULL)
		return IPC_ETYPE;
	if (d->conn_level && m->req != 0)
		return IPC_ERANGE;
	if (buf == NULL || cap < IPC_HDR_LEN)
		return IPC_ETOOBIG;
	/* The datagram limit is the protocol's, whatever the capacity. */
	ipc_wbuf_init(&b, buf, cap < IPC_MSG_MAX ? cap : IPC_MSG_MAX);
	b.len = IPC_HDR_LEN;
	for (i = 0; i < d->nf; i++)
		if ((r = put_field(&b, m, &d->f[i])) != IPC_OK)
			return r;

	ipc_wbuf_init(&h, buf, IPC_HDR_LEN);
	(void)ipc_put_u32(&h, IPC_MAGIC);
	(void)ipc_put_u16(&h, m->type);
	(void)ipc_put_u16(&h, 0);
	(void)ipc_put_u32(&h, m->req);
	(void)ipc_put_u32(&h, (uint32_t)(b.len - IPC_HDR_LEN));
	return (int)b.len;
}

/* Decoding */

static int
get_headers(struct ipc_rbuf *b, struct ipc_msg *m)
{
	uint16_t i, n;
	int r;

	if ((r = ipc_get_u16(b, &n)) != IPC_OK)
		return r;
	if (n > IPC_FORWARD_HDRS_MAX)
		return IPC_ETOOBIG;
	m->u.forward.nheaders = n;
	for (i = 0; i < n; i++) {
		struct ipc_header_pair *h = &m->u.forward.headers[i];

		if ((r = ipc_get_str(b, &h->name, HDR_NAME_MAX,
		    IPC_STR_NONUL)) != IPC_OK ||
		    (r = ipc_get_str(b, &h->value, HDR_VALUE_MAX,
		    IPC_STR_NONUL)) != IPC_OK)
			return r;
	}
	return IPC_OK;
}

static int
get_field(struct ipc_rbuf *b, struct ipc_msg *m, const struct field *f)
{
	unsigned char *p = (unsigned char *)m + f->off;
	uint8_t v;
	int r;

	switch (f->kind) {
	case F_BOOL:
	case F_ENUM:
		if ((r = ipc_get_u8(b, &v)) != IPC_OK)
			return r;
		if (v >= (f->kind == F_BOOL ? 2 : f->max))
			return IPC_ERANGE;
		*p = v;
		return IPC_OK;
	case F_U16:
		return ipc_get_u16(b, (uint16_t *)(void *)p);
	case F_U32:
		return ipc_get_u32(b, (uint32_t *)(void *)p);
	case F_U64:
		return ipc_get_u64(b, (uint64_t *)(void *)p);
	case F_I32:
		return ipc_get_i32(b, (int32_t *)(void *)p);
	case F_STR:
		return ipc_get_str(b, (struct ipc_str *)(void *)p, f->max,
		    f->flags);
	case F_BYTES:
		return ipc_get_bytes(b, (struct ipc_str *)(void *)p, f->max);
	case F_HEADERS:
		return get_headers(b, m);
	}
	return IPC_ETYPE;	/* not reached: table error */
}

int
ipc_decode(const unsigned char *buf, size_t len, struct ipc_msg *m)
{
	const struct msgdesc *d;
	struct ipc_rbuf b;
	uint32_t magic, req, plen;
	uint16_t type, flags;
	size_t i;
	int r;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	if (buf == NULL || len < IPC_HDR_LEN)
		return IPC_ESHORT;
	ipc_rbuf_init(&b, buf, len);
	(void)ipc_get_u32(&b, &magic);
	(void)ipc_get_u16(&b, &type);
	(void)ipc_get_u16(&b, &flags);
	(void)ipc_get_u32(&b, &req);
	(void)ipc_get_u32(&b, &plen);
	if (magic != IPC_MAGIC || flags != 0 || (d = ipc_msgdesc(type)) == NULL)
		return IPC_ETYPE;
	if (plen != len - IPC_HDR_LEN)
		return IPC_ELONG;
	if (len > IPC_MSG_MAX)
		return IPC_ETOOBIG;
	m->type = type;
	m->req = req;
	if (d->conn_level && req != 0)
		return IPC_ERANGE;
	for (i = 0; i < d->nf; i++)
		if ((r = get_field(&b, m, &d->f[i])) != IPC_OK)
			return r;
	if (ipc_rbuf_left(&b) != 0)
		return IPC_ELONG;
	return IPC_OK;
}
