/*
 * seed_ipc: IPC datagrams for the fuzz_ipc corpus, made by the real
 * encoder (ipc/codec.c) from real requests (tests/fuzz/make-seeds.py).
 *
 *   seed_ipc < records > datagrams
 *
 * Input: records of u32 kind, u32 length (native order), bytes: kind 0 a
 * request head (parsed with http/request.c: FORWARD with its method, target
 * and headers, then ACCESS and LOG about it), kind 1 a body (BODY, in
 * pieces of at most IPC_DATA_MAX bytes). Output: u32 length + datagram
 * for every message, plus one of each connection-level type at the end.
 * Exit status 0, or 1 on a malformed input record or an encode error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/http.h"
#include "ipc/proto.h"

static unsigned char out[IPC_MSG_MAX];

static int
emit(const struct ipc_msg *m)
{
	uint32_t len;
	int n;

	n = ipc_encode(m, out, sizeof(out));
	if (n < 0) {
		fprintf(stderr, "seed_ipc: %s: %s\n", ipc_type_name(m->type),
		    ipc_strerror(n));
		return -1;
	}
	len = (uint32_t)n;
	if (fwrite(&len, sizeof(len), 1, stdout) != 1 ||
	    fwrite(out, 1, len, stdout) != len)
		return -1;
	return 0;
}

static struct ipc_str
str(const char *p, size_t len, size_t max)
{
	struct ipc_str s = { p, (uint32_t)(len < max ? len : max) };

	return s;
}

/* FORWARD, ACCESS and LOG for one request head; 0 when it did not parse. */
static int
request(const char *buf, size_t len)
{
	struct http_request hr;
	struct cg_refusal r;
	struct ipc_msg m;
	size_t i, plen;

	if (http_parse_request(buf, len, &hr, &r) <= 0)
		return 0;
	memset(&m, 0, sizeof(m));
	m.type = IPC_FORWARD;
	m.req = 1;
	m.fd = -1;
	m.u.forward.method = str(hr.method, hr.method_len, 16);
	m.u.forward.target = str(hr.target, hr.target_len, 196608);
	for (i = 0; i < hr.nfields && i < IPC_FORWARD_HDRS_MAX; i++) {
		m.u.forward.headers[i].name = str(hr.fields[i].name,
		    hr.fields[i].name_len, 64);
		m.u.forward.headers[i].value = str(hr.fields[i].value,
		    hr.fields[i].value_len, 8192);
	}
	m.u.forward.nheaders = (uint16_t)i;
	if (emit(&m) < 0)
		return -1;

	for (plen = 0; plen < hr.target_len && hr.target[plen] != '?'; plen++)
		;
	memset(&m, 0, sizeof(m));
	m.type = IPC_ACCESS;
	m.req = 1;
	m.fd = -1;
	m.u.access.method = str(hr.method, hr.method_len, 16);
	m.u.access.path = str(hr.target, plen, 8192);
	m.u.access.code = ipc_cstr("denied-endpoint");
	m.u.access.status = 403;
	m.u.access.detail = str(hr.target, hr.target_len, 1024);
	if (emit(&m) < 0)
		return -1;

	memset(&m, 0, sizeof(m));
	m.type = IPC_LOG;
	m.fd = -1;
	m.u.log.level = IPC_LOG_DEBUG;
	m.u.log.text = str(hr.target, hr.target_len, 1024);
	return emit(&m);
}

static int
body(const char *buf, size_t len)
{
	struct ipc_msg m;
	size_t off, n;

	for (off = 0; off < len; off += n) {
		n = len - off < IPC_DATA_MAX ? len - off : IPC_DATA_MAX;
		memset(&m, 0, sizeof(m));
		m.type = IPC_BODY;
		m.req = 1;
		m.fd = -1;
		m.u.body.data = str(buf + off, n, IPC_DATA_MAX);
		if (emit(&m) < 0)
			return -1;
	}
	return 0;
}

/* One of each message that needs no request: start, end, answers. */
static int
fixed(void)
{
	struct ipc_msg m[8];
	size_t i;

	memset(m, 0, sizeof(m));
	m[0].type = IPC_CHILD_READY;
	m[0].u.child_ready.pid = 4242;
	m[0].u.child_ready.chroot = 1;
	m[1].type = IPC_CONN_START;
	m[1].u.conn_start.conn = 1;
	m[1].u.conn_start.socket_kind = IPC_KIND_DOCKER;
	m[1].u.conn_start.root = ipc_cstr("/home/user/project");
	m[1].u.conn_start.egress = IPC_EGRESS_INJECT;
	m[1].u.conn_start.proxy = ipc_cstr("http://host.containers.internal:8899");
	m[1].u.conn_start.noproxy = ipc_cstr("localhost,127.0.0.1");
	m[1].u.conn_start.backend_timeout_ms = 60000;
	m[2].type = IPC_FACT_QUERY;
	m[2].req = 1;
	m[2].u.fact_query.qid = 1;
	m[2].u.fact_query.prefix = ipc_cstr("/v1.41");
	m[2].u.fact_query.ref = ipc_cstr("web");
	m[3].type = IPC_FACT_ANSWER;
	m[3].req = 1;
	m[3].u.fact_answer.qid = 1;
	m[3].u.fact_answer.id = ipc_cstr("6c81f7cff34ee7aaaf7759c2b355f7d9"
	    "70b215db06e6af9e8d5ddd80424890d2");
	m[4].type = IPC_PATH_QUERY;
	m[4].req = 1;
	m[4].u.path_query.qid = 2;
	m[4].u.path_query.path = ipc_cstr("/home/user/project/data");
	m[5].type = IPC_VERDICT;
	m[5].req = 1;
	m[5].u.verdict.code = ipc_cstr("-");
	m[5].u.verdict.status = 200;
	m[6].type = IPC_BODY_END;
	m[6].req = 1;
	m[7].type = IPC_BYE;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		m[i].fd = -1;
		if (emit(&m[i]) < 0)
			return -1;
	}
	return 0;
}

int
main(void)
{
	uint32_t hdr[2];
	char *buf;
	int rc;

	while (fread(hdr, sizeof(hdr), 1, stdin) == 1) {
		buf = malloc(hdr[1] + 1u);
		if (buf == NULL || (hdr[1] > 0 &&
		    fread(buf, 1, hdr[1], stdin) != hdr[1])) {
			free(buf);
			return 1;
		}
		rc = hdr[0] == 0 ? request(buf, hdr[1]) :
		    hdr[0] == 1 ? body(buf, hdr[1]) : -1;
		free(buf);
		if (rc < 0)
			return 1;
	}
	return fixed() < 0 || fflush(stdout) != 0;
}
