/*
 * libFuzzer entry point: the IPC decoder (ipc/codec.c). Any datagram it
 * accepts must re-encode to the same bytes (exact, canonical encoding,
 * privsep.md §6), and the audit formatter must handle it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char buf[IPC_MSG_MAX];
	struct ipc_msg m;
	char fields[2048];
	int n;

	if (size > IPC_MSG_MAX || ipc_decode(data, size, &m) != IPC_OK)
		return 0;
	m.fd = m.type == IPC_CONN_START ? 0 : -1;
	(void)ipc_format_fields(&m, fields, sizeof(fields));
	n = ipc_encode(&m, buf, sizeof(buf));
	if (n < 0 || (size_t)n != size || memcmp(buf, data, size) != 0)
		abort();
	return 0;
}
