/*
 * What the IPC codec's two halves share (privsep.md §6.3): a str or bytes
 * field as it is read or written, and the codec's error codes. The
 * buffers (ipc/buf.h) and the messages (ipc/proto.h) both stand on it,
 * so neither includes the other for them.
 */
#ifndef CG_IPC_WIRE_H
#define CG_IPC_WIRE_H

#include <stdint.h>

/*
 * A str or bytes field: points into the received datagram (decode) or
 * into caller memory (encode); not NUL-terminated. Decoded str fields
 * contain no NUL byte.
 */
struct ipc_str {
	const char *p;
	uint32_t len;
};

/* Error codes (negative), never errno values. */
#define IPC_OK		0
#define IPC_ESHORT	-1	/* payload shorter than its fields */
#define IPC_ELONG	-2	/* trailing bytes / len mismatch */
#define IPC_ETYPE	-3	/* unknown type or bad magic/flags */
#define IPC_ERANGE	-4	/* enum out of range */
#define IPC_ETOOBIG	-5	/* field over its maximum / message too big */
#define IPC_ESTR	-6	/* NUL in str, or invalid UTF-8 where required */
#define IPC_EFD		-7	/* descriptor where none allowed or missing */
#define IPC_ESYS	-8	/* system call failed; errno set */
#define IPC_EOF		-9	/* peer closed */
#define IPC_ETRUNC	-10	/* MSG_TRUNC / MSG_CTRUNC */
#define IPC_EAGAIN	-11	/* non-blocking socket would block */

#endif
