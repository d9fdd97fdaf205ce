/*
 * Bounded buffers for the IPC codec (style.md §4, sshbuf-like), in the
 * wire format of privsep.md §6.3: integers fixed-width in native byte
 * order (the two ends are the same binary on the same host), str/bytes
 * as u32 length + bytes, no padding.
 *
 * A writer never grows past its maximum; a reader never reads past its
 * end. Every put/get returns IPC_OK or a negative IPC_E* code
 * (ipc/wire.h) and leaves the buffer unchanged on error.
 */
#ifndef CG_IPC_BUF_H
#define CG_IPC_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "ipc/wire.h"

/* Writer over caller memory p[0..max). len = bytes written so far. */
struct ipc_wbuf {
	unsigned char *p;
	size_t max;
	size_t len;
};

/* Reader over caller memory p[0..len). off = bytes consumed so far. */
struct ipc_rbuf {
	const unsigned char *p;
	size_t len;
	size_t off;
};

/* Content checks for ipc_put_str/ipc_get_str (bytes fields use none). */
#define IPC_STR_NONUL	0x1	/* no NUL byte (every str field) */
#define IPC_STR_UTF8	0x2	/* valid UTF-8 (catalogue "UTF-8") */

/*
 * Start a writer over p[0..max) / a reader over p[0..len) (caller memory,
 * not copied, must outlive b). Cannot fail.
 */
void ipc_wbuf_init(struct ipc_wbuf *b, unsigned char *p, size_t max);
void ipc_rbuf_init(struct ipc_rbuf *b, const unsigned char *p, size_t len);

/* Bytes not yet consumed by a reader. */
size_t ipc_rbuf_left(const struct ipc_rbuf *b);

/* Append an integer. IPC_ETOOBIG if it does not fit under max. */
int ipc_put_u8(struct ipc_wbuf *b, uint8_t v);
int ipc_put_u16(struct ipc_wbuf *b, uint16_t v);
int ipc_put_u32(struct ipc_wbuf *b, uint32_t v);
int ipc_put_u64(struct ipc_wbuf *b, uint64_t v);
int ipc_put_i32(struct ipc_wbuf *b, int32_t v);

/*
 * Append s as u32 length + bytes. IPC_ETOOBIG if s->len > maxlen or the
 * field does not fit; IPC_ESTR if s->p is NULL with a non-zero length or
 * (put_str) the content fails the checks in flags.
 */
int ipc_put_bytes(struct ipc_wbuf *b, const struct ipc_str *s, size_t maxlen);
int ipc_put_str(struct ipc_wbuf *b, const struct ipc_str *s, size_t maxlen,
    unsigned flags);

/* Consume an integer. IPC_ESHORT if fewer bytes are left. */
int ipc_get_u8(struct ipc_rbuf *b, uint8_t *v);
int ipc_get_u16(struct ipc_rbuf *b, uint16_t *v);
int ipc_get_u32(struct ipc_rbuf *b, uint32_t *v);
int ipc_get_u64(struct ipc_rbuf *b, uint64_t *v);
int ipc_get_i32(struct ipc_rbuf *b, int32_t *v);

/*
 * Consume a u32-length-prefixed field; out points into the reader's
 * memory (zero-copy). IPC_ETOOBIG if the length exceeds maxlen (checked
 * first), IPC_ESHORT if fewer bytes are left, IPC_ESTR if (get_str) the
 * content fails the checks in flags.
 */
int ipc_get_bytes(struct ipc_rbuf *b, struct ipc_str *out, size_t maxlen);
int ipc_get_str(struct ipc_rbuf *b, struct ipc_str *out, size_t maxlen,
    unsigned flags);

/*
 * Check p[0..len) against flags (IPC_STR_NONUL, IPC_STR_UTF8). UTF-8 is
 * strict (RFC 3629): no overlong forms, no surrogates, nothing above
 * U+10FFFF. p may be NULL only when len is 0. Returns IPC_OK or IPC_ESTR.
 */
int ipc_str_check(const void *p, size_t len, unsigned flags);

#endif
