/*
 * libFuzzer entry point: the strict HTTP parsers (http/) on any
 * bytes — request head, response head and both chunked modes. A crash,
 * an over-read (ASan) or a result outside its contract aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http/http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct http_request req;
	struct http_response resp;
	struct http_chunked ch;
	struct cg_refusal r;
	char out[4096];
	size_t outlen, used, off;
	int n, mode;

	n = http_parse_request((const char *)data, size, &req, &r);
	if (n > 0 && ((size_t)n > size || req.nfields > HTTP_FIELDS_MAX))
		abort();
	if (n == -1 && cg_code_status(r.code) < 0)
		abort();
	n = http_parse_response((const char *)data, size, &resp);
	if (n > 0 && ((size_t)n > size || resp.status < 100 || resp.status > 599))
		abort();
	for (mode = 0; mode < 2; mode++) {
		http_chunked_init(&ch, mode);
		for (off = 0; off < size && !ch.done;) {
			outlen = sizeof(out);
			if (http_chunked_feed(&ch, (const char *)data + off,
			    size - off, out, &outlen, &used) < 0)
				break;
			if (used > size - off || outlen > sizeof(out))
				abort();
			if (used == 0 && outlen == 0)
				break;
			off += used;
		}
	}
	return 0;
}
