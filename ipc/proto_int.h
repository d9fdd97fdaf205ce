/*
 * Internal interface of the message codec (proto.c, codec.c, format.c):
 * the message catalogue of privsep.md §7 as one table of field
 * descriptions, which the encoder, the decoder and the audit formatter
 * all walk. Not for use outside ipc/.
 */
#ifndef CG_IPC_PROTO_INT_H
#define CG_IPC_PROTO_INT_H

#include <stddef.h>
#include <stdint.h>

enum fkind {
	F_BOOL,		/* u8, 0 or 1 */
	F_ENUM,		/* u8, < max (names has max entries) */
	F_U16,
	F_U32,
	F_U64,
	F_I32,
	F_STR,		/* u32 len + bytes, len <= max, no NUL */
	F_BYTES,	/* u32 len + bytes, len <= max */
	F_HEADERS,	/* u16 n <= max, n x (name str(64), value str(8192)) */
};

struct field {
	const char *name;		/* privsep.md §7 name */
	enum fkind kind;
	size_t off;			/* offsetof(struct ipc_msg, ...) */
	uint32_t max;			/* str/bytes length, enum count, header count */
	unsigned flags;			/* F_STR: IPC_STR_* */
	const char *const *names;	/* F_ENUM: spec names */
};

struct msgdesc {
	const char *name;
	int conn_level;			/* req must be 0 (privsep.md §7.1) */
	const struct field *f;
	size_t nf;
};

/*
 * The catalogue entry of message type type (privsep.md §7: its name,
 * whether it is connection level, its fields in catalogue order), or
 * NULL for a type the protocol does not have.
 */
const struct msgdesc *ipc_msgdesc(unsigned type);

#endif
