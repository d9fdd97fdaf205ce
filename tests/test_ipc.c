/*
 * IPC codec and transport tests (privsep.md §6-§7, style.md §16).
 *
 * The catalogue below is restated from privsep.md §7 independently of
 * ipc/proto.c's table: field order, wire widths, limits and enumeration
 * sizes are checked against the encoder's actual output by walking the
 * bytes, not by asking the codec. Per message type: round trip, trailing
 * bytes, every truncation, oversize fields (both sides), enumeration
 * ranges, NUL / UTF-8 in str fields, req rules. Then header checks, the
 * real socket pair with descriptor passing, the 256 KiB limit, the audit
 * formatter and a mutation loop.
 *
 * CG_TEST_FAST=1 shortens the mutation loop.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sys/socket.h>
#include <sys/uio.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipc/buf.h"
#include "ipc/proto.h"
#include "ipc/queue.h"

/* Test-side catalogue (privsep.md §7) */

enum tk { T_BOOL, T_ENUM, T_U16, T_U32, T_U64, T_I32, T_STR, T_UTF8,
	T_BYTES, T_HDRS };

struct tf {
	const char *name;
	enum tk k;
	size_t off;
	uint32_t lim;		/* str/bytes max, enum count, header count */
};

struct tmsg {
	uint16_t type;
	const char *name;
	int conn;		/* connection level: req must be 0 */
	size_t nf;
	struct tf f[11];
};

#define O(m)	offsetof(struct ipc_msg, u.m)

static const struct tmsg cat[] = {
	{ IPC_CHILD_READY, "CHILD_READY", 1, 3, {
		{ "pid", T_U32, O(child_ready.pid), 0 },
		{ "namespaces", T_BOOL, O(child_ready.namespaces), 2 },
		{ "chroot", T_BOOL, O(child_ready.chroot), 2 } } },
	{ IPC_SANDBOX_FAILED, "SANDBOX_FAILED", 1, 2, {
		{ "step", T_STR, O(sandbox_failed.step), 32 },
		{ "errno", T_I32, O(sandbox_failed.err), 0 } } },
	{ IPC_CONN_START, "CONN_START", 1, 11, {
		{ "conn", T_U64, O(conn_start.conn), 0 },
		{ "socket_kind", T_ENUM, O(conn_start.socket_kind), 2 },
		{ "backend_kind", T_ENUM, O(conn_start.backend_kind), 2 },
		{ "root", T_UTF8, O(conn_start.root), 4096 },
		{ "egress", T_ENUM, O(conn_start.egress), 3 },
		{ "proxy", T_STR, O(conn_start.proxy), 512 },
		{ "noproxy", T_STR, O(conn_start.noproxy), 1024 },
		{ "proxy_available", T_BOOL, O(conn_start.proxy_available), 2 },
		{ "backend_timeout_ms", T_U32, O(conn_start.backend_timeout_ms), 0 },
		{ "commit_needs_body", T_BOOL, O(conn_start.commit_needs_body), 2 },
		{ "backend_rootless", T_BOOL, O(conn_start.backend_rootless), 2 } } },
	{ IPC_LOG, "LOG", 1, 2, {
		{ "level", T_ENUM, O(log.level), 4 },
		{ "text", T_UTF8, O(log.text), 1024 } } },
	{ IPC_BYE, "BYE", 1, 1, {
		{ "reason", T_ENUM, O(bye.reason), 3 } } },
	{ IPC_ACCESS, "ACCESS", 0, 6, {
		{ "method", T_STR, O(access.method), 16 },
		{ "path", T_STR, O(access.path), 8192 },
		{ "code", T_STR, O(access.code), 32 },
		{ "status", T_U16, O(access.status), 0 },
		{ "duration_ms", T_U32, O(access.duration_ms), 0 },
		{ "detail", T_STR, O(access.detail), 1024 } } },
	{ IPC_FACT_QUERY, "FACT_QUERY", 0, 5, {
		{ "qid", T_U32, O(fact_query.qid), 0 },
		{ "kind", T_ENUM, O(fact_query.kind), 7 },
		{ "api", T_ENUM, O(fact_query.api), 2 },
		{ "prefix", T_STR, O(fact_query.prefix), 32 },
		{ "ref", T_STR, O(fact_query.ref), 1024 } } },
	{ IPC_FACT_ANSWER, "FACT_ANSWER", 0, 3, {
		{ "qid", T_U32, O(fact_answer.qid), 0 },
		{ "result", T_ENUM, O(fact_answer.result), 5 },
		{ "id", T_STR, O(fact_answer.id), 255 } } },
	{ IPC_PATH_QUERY, "PATH_QUERY", 0, 2, {
		{ "qid", T_U32, O(path_query.qid), 0 },
		{ "path", T_STR, O(path_query.path), 4096 } } },
	{ IPC_PATH_ANSWER, "PATH_ANSWER", 0, 3, {
		{ "qid", T_U32, O(path_answer.qid), 0 },
		{ "verdict", T_ENUM, O(path_answer.verdict), 5 },
		{ "resolved", T_STR, O(path_answer.resolved), 4096 } } },
	{ IPC_FORWARD, "FORWARD", 0, 3, {
		{ "method", T_STR, O(forward.method), 16 },
		{ "target", T_STR, O(forward.target), 196608 },
		{ "headers", T_HDRS, O(forward.nheaders), 32 } } },
	{ IPC_BODY, "BODY", 0, 1, {
		{ "data", T_BYTES, O(body.data), 65000 } } },
	{ IPC_BODY_END, "BODY_END", 0, 0, { { NULL, T_BOOL, 0, 0 } } },
	{ IPC_VERDICT, "VERDICT", 0, 5, {
		{ "outcome", T_ENUM, O(verdict.outcome), 2 },
		{ "code", T_STR, O(verdict.code), 32 },
		{ "status", T_U16, O(verdict.status), 0 },
		{ "detail", T_STR, O(verdict.detail), 1024 },
		{ "hint", T_STR, O(verdict.hint), 512 } } },
	{ IPC_RESPONSE_END, "RESPONSE_END", 0, 1, {
		{ "mode", T_ENUM, O(response_end.mode), 2 } } },
	{ IPC_CLIENT_DATA, "CLIENT_DATA", 0, 1, {
		{ "data", T_BYTES, O(client_data.data), 65000 } } },
	{ IPC_DONE, "DONE", 0, 0, { { NULL, T_BOOL, 0, 0 } } },
	{ IPC_ZYGOTE_SPAWN, "ZYGOTE_SPAWN", 1, 1, {
		{ "ready", T_BOOL, O(zygote_spawn.ready), 2 } } },
	{ IPC_ZYGOTE_SPAWNED, "ZYGOTE_SPAWNED", 1, 2, {
		{ "pid", T_U32, O(zygote_spawned.pid), 0 },
		{ "errno", T_I32, O(zygote_spawned.err), 0 } } },
	{ IPC_REQUEST_BEGIN, "REQUEST_BEGIN", 0, 0, { { NULL, T_BOOL, 0, 0 } } },
	{ IPC_BODY_PIPE, "BODY_PIPE", 0, 0, { { NULL, T_BOOL, 0, 0 } } },
	{ IPC_BODY_SPLICED, "BODY_SPLICED", 0, 1, {
		{ "len", T_U32, O(body_spliced.len), 0 } } },
};
#define NCAT	(sizeof(cat) / sizeof(cat[0]))

static const struct tmsg *
tcat(uint16_t type)
{
	assert_true(type >= 1 && type <= NCAT);
	assert_int_equal(cat[type - 1].type, type);
	return &cat[type - 1];
}

/* Helpers */

#define S(lit)	((struct ipc_str){ (lit), (uint32_t)(sizeof(lit) - 1) })

static unsigned char ebuf[IPC_MSG_MAX * 2];	/* encodings */
static unsigned char wbuf[IPC_MSG_MAX * 2];	/* spliced variants */
static unsigned char rbuf[IPC_MSG_MAX + 1];	/* ipc_recv */
static char big[IPC_MSG_MAX * 2];		/* 'a' * lots */

static int
fast_mode(void)
{
	const char *e = getenv("CG_TEST_FAST");

	return e != NULL && *e != '\0' && strcmp(e, "0") != 0;
}

static void *
fp(struct ipc_msg *m, const struct tf *f)
{
	return (unsigned char *)m + f->off;
}

static struct ipc_str *
fstr(struct ipc_msg *m, const struct tf *f)
{
	return fp(m, f);
}

/* A valid message of each type, every field distinct and non-default. */
static void
sample(uint16_t type, struct ipc_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	m->fd = -1;
	m->req = 100 + type;
	switch (type) {
	case IPC_CHILD_READY:
		m->req = 0;
		m->u.child_ready.pid = 4242;
		m->u.child_ready.namespaces = 1;
		m->u.child_ready.chroot = 1;
		break;
	case IPC_ZYGOTE_SPAWN:
		m->req = 0;
		m->u.zygote_spawn.ready = 1;
		break;
	case IPC_ZYGOTE_SPAWNED:
		m->req = 0;
		m->u.zygote_spawned.pid = 4242;
		m->u.zygote_spawned.err = 11;
		break;
	case IPC_SANDBOX_FAILED:
		m->req = 0;
		m->u.sandbox_failed.step = S("seccomp_load");
		m->u.sandbox_failed.err = -22;
		break;
	case IPC_CONN_START:
		m->req = 0;
		m->u.conn_start.conn = 0x0123456789abcdefULL;
		m->u.conn_start.socket_kind = IPC_KIND_DOCKER;
		m->u.conn_start.backend_kind = IPC_KIND_PODMAN;
		m->u.conn_start.root = S("/srv/projets/\xc3\xa9t\xc3\xa9");
		m->u.conn_start.egress = IPC_EGRESS_REQUIRE;
		m->u.conn_start.proxy = S("http://10.88.0.1:3128");
		m->u.conn_start.noproxy = S("localhost,127.0.0.1,10.88.0.1");
		m->u.conn_start.proxy_available = 1;
		m->u.conn_start.backend_timeout_ms = 30000;
		m->u.conn_start.commit_needs_body = 1;
		m->u.conn_start.backend_rootless = 1;
		break;
	case IPC_LOG:
		m->req = 0;
		m->u.log.level = IPC_LOG_DEBUG;
		m->u.log.text = S("parsed \xc2\xabrequest\xc2\xbb \xf0\x9f\x98\x80 ok");
		break;
	case IPC_BYE:
		m->req = 0;
		m->u.bye.reason = IPC_BYE_ERROR;
		break;
	case IPC_ACCESS:
		m->u.access.method = S("POST");
		m->u.access.path = S("/v1.41/containers/create");
		m->u.access.code = S("privileged");
		m->u.access.status = 403;
		m->u.access.duration_ms = 12;
		m->u.access.detail = S("drop --privileged");
		break;
	case IPC_FACT_QUERY:
		m->u.fact_query.qid = 9;
		m->u.fact_query.kind = IPC_FACT_EXEC;
		m->u.fact_query.api = IPC_API_LIBPOD;
		m->u.fact_query.prefix = S("cg-proj");
		m->u.fact_query.ref = S("abc123");
		break;
	case IPC_FACT_ANSWER:
		m->u.fact_answer.qid = 9;
		m->u.fact_answer.result = IPC_FACT_TIMEOUT;
		m->u.fact_answer.id = S("0123abcd");
		break;
	case IPC_PATH_QUERY:
		m->u.path_query.qid = 2;
		m->u.path_query.path = S("/home/u/proj/data");
		break;
	case IPC_PATH_ANSWER:
		m->u.path_answer.qid = 3;
		m->u.path_answer.verdict = IPC_PATH_UNRESOLVABLE;
		m->u.path_answer.resolved = S("/home/u/proj/data2");
		break;
	case IPC_FORWARD:
		m->u.forward.method = S("GET");
		m->u.forward.target = S("/v1.41/containers/json?all=1");
		m->u.forward.nheaders = 2;
		m->u.forward.headers[0].name = S("Host");
		m->u.forward.headers[0].value = S("d");
		m->u.forward.headers[1].name = S("X-Registry-Auth");
		m->u.forward.headers[1].value = S("e30=");
		break;
	case IPC_BODY:
		m->u.body.data = S("\0\x01\xff{}");
		break;
	case IPC_VERDICT:
		m->u.verdict.outcome = IPC_OUTCOME_REFUSED;
		m->u.verdict.code = S("backend-timeout");
		m->u.verdict.status = 504;
		m->u.verdict.detail = S("no answer within 30000 ms");
		m->u.verdict.hint = S("check the daemon");
		break;
	case IPC_RESPONSE_END:
		m->u.response_end.mode = IPC_END_CLOSE;
		break;
	case IPC_CLIENT_DATA:
		m->u.client_data.data = S("\0\x01\x02");
		break;
	case IPC_BODY_SPLICED:
		m->u.body_spliced.len = 65536;
		break;
	default:
		break;
	}
}

static void
assert_str_eq(const struct ipc_str *a, const struct ipc_str *b)
{
	assert_int_equal(a->len, b->len);
	if (a->len > 0)
		assert_memory_equal(a->p, b->p, a->len);
}

/* Compare every field of two messages of type t->type. */
static void
compare(const struct tmsg *t, struct ipc_msg *a, struct ipc_msg *b)
{
	size_t i, j;

	assert_int_equal(a->type, b->type);
	assert_int_equal(a->req, b->req);
	for (i = 0; i < t->nf; i++) {
		const struct tf *f = &t->f[i];
		void *pa = fp(a, f), *pb = fp(b, f);

		switch (f->k) {
		case T_BOOL:
		case T_ENUM:
			assert_int_equal(*(uint8_t *)pa, *(uint8_t *)pb);
			break;
		case T_U16:
			assert_int_equal(*(uint16_t *)pa, *(uint16_t *)pb);
			break;
		case T_U32:
			assert_int_equal(*(uint32_t *)pa, *(uint32_t *)pb);
			break;
		case T_U64:
			assert_true(*(uint64_t *)pa == *(uint64_t *)pb);
			break;
		case T_I32:
			assert_int_equal(*(int32_t *)pa, *(int32_t *)pb);
			break;
		case T_STR:
		case T_UTF8:
		case T_BYTES:
			assert_str_eq(pa, pb);
			break;
		case T_HDRS:
			assert_int_equal(a->u.forward.nheaders,
			    b->u.forward.nheaders);
			for (j = 0; j < a->u.forward.nheaders; j++) {
				assert_str_eq(&a->u.forward.headers[j].name,
				    &b->u.forward.headers[j].name);
				assert_str_eq(&a->u.forward.headers[j].value,
				    &b->u.forward.headers[j].value);
			}
			break;
		}
	}
}

static uint32_t
rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void
wr32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static uint16_t
rd16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void
wr16(unsigned char *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void
fix_len(unsigned char *b, size_t n)
{
	wr32(b + 12, (uint32_t)(n - IPC_HDR_LEN));
}

/*
 * Walk an encoding by the test catalogue: offs[i] = offset of field i
 * (of its length prefix for str/bytes, of the u16 count for headers).
 * Returns the end offset.
 */
static size_t
walk(const struct tmsg *t, const unsigned char *b, size_t n, size_t *offs)
{
	size_t o = IPC_HDR_LEN, i, j;
	uint16_t h;

	for (i = 0; i < t->nf; i++) {
		offs[i] = o;
		switch (t->f[i].k) {
		case T_BOOL:
		case T_ENUM:
			o += 1;
			break;
		case T_U16:
			o += 2;
			break;
		case T_U32:
		case T_I32:
			o += 4;
			break;
		case T_U64:
			o += 8;
			break;
		case T_STR:
		case T_UTF8:
		case T_BYTES:
			assert_true(o + 4 <= n);
			o += 4 + rd32(b + o);
			break;
		case T_HDRS:
			assert_true(o + 2 <= n);
			memcpy(&h, b + o, 2);
			o += 2;
			for (j = 0; j < 2u * h; j++) {
				assert_true(o + 4 <= n);
				o += 4 + rd32(b + o);
			}
			break;
		}
		assert_true(o <= n);
	}
	return o;
}

/* Decode b[0..n) from an exactly sized heap copy (so overreads show). */
static int
decode_exact(const unsigned char *b, size_t n, struct ipc_msg *m)
{
	unsigned char *c = malloc(n ? n : 1);
	int r;

	assert_non_null(c);
	memcpy(c, b, n);
	r = ipc_decode(c, n, m);
	free(c);	/* m's pointers dangle now; callers only use r */
	return r;
}

/*
 * Replace the str/bytes field whose length prefix is at b+at by newlen
 * bytes of fill (length prefix newlen_hdr), into wbuf; fix the header
 * length; return the new size.
 */
static size_t
splice_field(const unsigned char *b, size_t n, size_t at, uint32_t newlen_hdr,
    const char *fill, size_t newlen)
{
	size_t old = 4 + rd32(b + at), m;

	memcpy(wbuf, b, at);
	wr32(wbuf + at, newlen_hdr);
	memcpy(wbuf + at + 4, fill, newlen);
	memcpy(wbuf + at + 4 + newlen, b + at + old, n - at - old);
	m = n - old + 4 + newlen;
	fix_len(wbuf, m);
	return m;
}

static int
encode_sample(const struct tmsg *t, size_t *n)
{
	struct ipc_msg m;
	int r;

	sample(t->type, &m);
	r = ipc_encode(&m, ebuf, sizeof(ebuf));
	assert_true(r >= IPC_HDR_LEN);
	*n = (size_t)r;
	return r;
}

/* Per-type tests (state: const struct tmsg *) */

static void
t_roundtrip(void **state)
{
	const struct tmsg *t = *state;
	struct ipc_msg m, d;
	size_t n, offs[11], i;
	int r;

	sample(t->type, &m);
	r = ipc_encode(&m, ebuf, IPC_MSG_MAX);
	assert_true(r >= IPC_HDR_LEN);
	n = (size_t)r;
	/* Header, independently of the decoder. */
	assert_int_equal(rd32(ebuf), IPC_MAGIC);
	assert_int_equal(rd16(ebuf + 4), t->type);
	assert_int_equal(rd16(ebuf + 6), 0);
	assert_int_equal(rd32(ebuf + 8), m.req);
	assert_int_equal(rd32(ebuf + 12), n - IPC_HDR_LEN);
	/* Payload layout per privsep.md §7. */
	assert_int_equal(walk(t, ebuf, n, offs), n);

	memset(&d, 0xA5, sizeof(d));
	assert_int_equal(ipc_decode(ebuf, n, &d), IPC_OK);
	assert_int_equal(d.fd, -1);
	compare(t, &m, &d);
	/* Zero-copy: str fields point into the datagram. */
	for (i = 0; i < t->nf; i++) {
		if (t->f[i].k == T_STR || t->f[i].k == T_UTF8 ||
		    t->f[i].k == T_BYTES) {
			const struct ipc_str *s = fstr(&d, &t->f[i]);

			assert_ptr_equal(s->p, (const char *)ebuf + offs[i] + 4);
		}
	}
	/* Canonical: re-encoding gives the same bytes. */
	assert_int_equal(ipc_encode(&d, wbuf, IPC_MSG_MAX), (int)n);
	assert_memory_equal(ebuf, wbuf, n);
	assert_string_equal(ipc_type_name(t->type), t->name);
}

static void
t_trailing(void **state)
{
	const struct tmsg *t = *state;
	struct ipc_msg d;
	size_t n;

	encode_sample(t, &n);
	/* One trailing byte with a consistent header: trailing data. */
	ebuf[n] = 0;
	fix_len(ebuf, n + 1);
	assert_int_equal(decode_exact(ebuf, n + 1, &d), IPC_ELONG);
	/* Datagram longer than the header says: length mismatch. */
	fix_len(ebuf, n);
	assert_int_equal(decode_exact(ebuf, n + 1, &d), IPC_ELONG);
	/* Header claims more than the datagram holds. */
	fix_len(ebuf, n + 1);
	assert_int_equal(decode_exact(ebuf, n, &d), IPC_ELONG);
}

static void
t_short(void **state)
{
	const struct tmsg *t = *state;
	struct ipc_msg d;
	size_t n, cut;

	encode_sample(t, &n);
	memcpy(wbuf, ebuf, n);
	/* Every truncation of the payload, header length kept consistent. */
	for (cut = IPC_HDR_LEN; cut < n; cut++) {
		fix_len(wbuf, cut);
		assert_int_equal(decode_exact(wbuf, cut, &d), IPC_ESHORT);
	}
	/* Every truncation of the header. */
	for (cut = 0; cut < IPC_HDR_LEN; cut++)
		assert_int_equal(decode_exact(ebuf, cut, &d), IPC_ESHORT);
	assert_int_equal(ipc_decode(NULL, 0, &d), IPC_ESHORT);
}

static void
t_oversize(void **state)
{
	const struct tmsg *t = *state;
	struct ipc_msg m, d;
	size_t n, m2, offs[11], i, j;
	uint32_t lim;
	int r;

	encode_sample(t, &n);
	walk(t, ebuf, n, offs);
	for (i = 0; i < t->nf; i++) {
		const struct tf *f = &t->f[i];

		lim = f->lim;
		if (f->k == T_STR || f->k == T_UTF8 || f->k == T_BYTES) {
			/* Exactly the maximum is fine. */
			sample(t->type, &m);
			*fstr(&m, f) = (struct ipc_str){ big, lim };
			assert_true(ipc_encode(&m, ebuf, IPC_MSG_MAX) > 0);
			/* One more is refused by the encoder... */
			*fstr(&m, f) = (struct ipc_str){ big, lim + 1 };
			assert_int_equal(ipc_encode(&m, ebuf, IPC_MSG_MAX),
			    IPC_ETOOBIG);
			/* ...and by the decoder. */
			encode_sample(t, &n);
			m2 = splice_field(ebuf, n, offs[i], lim, big, lim);
			assert_int_equal(decode_exact(wbuf, m2, &d), IPC_OK);
			m2 = splice_field(ebuf, n, offs[i], lim + 1, big,
			    lim + 1);
			assert_int_equal(decode_exact(wbuf, m2, &d),
			    IPC_ETOOBIG);
			/* A huge length is refused before it is used. */
			m2 = splice_field(ebuf, n, offs[i], 0xffffffffu, big, 0);
			assert_int_equal(decode_exact(wbuf, m2, &d),
			    IPC_ETOOBIG);
		} else if (f->k == T_HDRS) {
			sample(t->type, &m);
			m.u.forward.nheaders = IPC_FORWARD_HDRS_MAX + 1;
			assert_int_equal(ipc_encode(&m, ebuf, IPC_MSG_MAX),
			    IPC_ETOOBIG);
			m.u.forward.nheaders = 0xffff;
			assert_int_equal(ipc_encode(&m, ebuf, IPC_MSG_MAX),
			    IPC_ETOOBIG);
			sample(t->type, &m);
			m.u.forward.headers[1].name = (struct ipc_str){ big, 64 };
			assert_true(ipc_encode(&m, ebuf, IPC_MSG_MAX) > 0);
			m.u.forward.headers[1].name = (struct ipc_str){ big, 65 };
			assert_int_equal(ipc_encode(&m, ebuf, IPC_MSG_MAX),
			    IPC_ETOOBIG);
			sample(t->type, &m);
			m.u.forward.headers[0].value =
			    (struct ipc_str){ big, 8192 };
			assert_true(ipc_encode(&m, ebuf, IPC_MSG_MAX) > 0);
			m.u.forward.headers[0].value =
			    (struct ipc_str){ big, 8193 };
			assert_int_equal(ipc_encode(&m, ebuf, IPC_MSG_MAX),
			    IPC_ETOOBIG);
			/* Decoder: count 33, then a 65-byte name. */
			encode_sample(t, &n);
			memcpy(wbuf, ebuf, n);
			wr16(wbuf + offs[i], IPC_FORWARD_HDRS_MAX + 1);
			assert_int_equal(decode_exact(wbuf, n, &d),
			    IPC_ETOOBIG);
			m2 = splice_field(ebuf, n, offs[i] + 2, 65, big, 65);
			assert_int_equal(decode_exact(wbuf, m2, &d),
			    IPC_ETOOBIG);
			m2 = splice_field(ebuf, n, offs[i] + 2, 64, big, 64);
			assert_int_equal(decode_exact(wbuf, m2, &d), IPC_OK);
			/* 32 real pairs are fine, 33 real pairs are not. */
			sample(t->type, &m);
			for (j = 0; j < IPC_FORWARD_HDRS_MAX; j++) {
				m.u.forward.headers[j].name = S("N");
				m.u.forward.headers[j].value = S("v");
			}
			m.u.forward.nheaders = IPC_FORWARD_HDRS_MAX;
			r = ipc_encode(&m, ebuf, IPC_MSG_MAX);
			assert_true(r > 0);
			n = (size_t)r;
			assert_int_equal(decode_exact(ebuf, n, &d), IPC_OK);
			/* Insert one more "N: v" pair after the count. */
			memcpy(wbuf, ebuf, offs[i] + 2);
			wr16(wbuf + offs[i], IPC_FORWARD_HDRS_MAX + 1);
			memcpy(wbuf + offs[i] + 2, ebuf + offs[i] + 2, 10);
			memcpy(wbuf + offs[i] + 12, ebuf + offs[i] + 2,
			    n - offs[i] - 2);
			fix_len(wbuf, n + 10);
			assert_int_equal(decode_exact(wbuf, n + 10, &d),
			    IPC_ETOOBIG);
		}
	}
	/* Any type: a datagram over IPC_MSG_MAX is refused whole. */
	encode_sample(t, &n);
	memset(ebuf + n, 0, IPC_MSG_MAX + 1 - n);
	fix_len(ebuf, IPC_MSG_MAX + 1);
	assert_int_equal(decode_exact(ebuf, IPC_MSG_MAX + 1, &d), IPC_ETOOBIG);
	/* A capacity below the message is refused, not overrun. */
	sample(t->type, &m);
	assert_int_equal(ipc_encode(&m, ebuf, n - 1), IPC_ETOOBIG);
	assert_int_equal(ipc_encode(&m, ebuf, n), (int)n);
}

static void
t_enum(void **state)
{
	const struct tmsg *t = *state;
	struct ipc_msg m, d;
	size_t n, offs[11], i;
	unsigned v;

	encode_sample(t, &n);
	walk(t, ebuf, n, offs);
	for (i = 0; i < t->nf; i++) {
		const struct tf *f = &t->f[i];
		uint8_t *p;

		if (f->k != T_BOOL && f->k != T_ENUM)
			continue;
		for (v = 0; v < 256; v++) {
			int want = v < f->lim ? IPC_OK : IPC_ERANGE;
			int r;

			sample(t->type, &m);
			p = fp(&m, f);
			*p = (uint8_t)v;
			r = ipc_encode(&m, wbuf, IPC_MSG_MAX);
			if (want == IPC_OK) {
				assert_int_equal(r, (int)n);
				assert_int_equal(ipc_decode(wbuf, n, &d), IPC_OK);
				assert_int_equal(*(uint8_t *)fp(&d, f), v);
			} else
				assert_int_equal(r, IPC_ERANGE);
			memcpy(wbuf, ebuf, n);
			wbuf[offs[i]] = (uint8_t)v;
			assert_int_equal(decode_exact(wbuf, n, &d), want);
		}
	}
}

static void
t_str(void **state)
{
	const struct tmsg *t = *state;
	struct ipc_msg m, d;
	size_t n, offs[11], i;
	char tmp[64];

	encode_sample(t, &n);
	walk(t, ebuf, n, offs);
	for (i = 0; i < t->nf; i++) {
		const struct tf *f = &t->f[i];
		struct ipc_str *s;
		int is_str = f->k == T_STR || f->k == T_UTF8;

		if (f->k == T_HDRS) {
			/* NUL in a header name or value; 0xFF is fine. */
			sample(t->type, &m);
			m.u.forward.headers[1].value = S("a\0b");
			assert_int_equal(ipc_encode(&m, wbuf, IPC_MSG_MAX),
			    IPC_ESTR);
			m.u.forward.headers[1].value = S("a\xff" "b");
			assert_true(ipc_encode(&m, wbuf, IPC_MSG_MAX) > 0);
			m.u.forward.headers[0].name = S("\0");
			assert_int_equal(ipc_encode(&m, wbuf, IPC_MSG_MAX),
			    IPC_ESTR);
			memcpy(wbuf, ebuf, n);
			wbuf[offs[i] + 2 + 4] = '\0';	/* first name byte */
			assert_int_equal(decode_exact(wbuf, n, &d), IPC_ESTR);
			continue;
		}
		if (!is_str && f->k != T_BYTES)
			continue;
		sample(t->type, &m);
		s = fstr(&m, f);
		assert_true(s->len >= 2 && s->len < sizeof(tmp));
		memcpy(tmp, s->p, s->len);

		/* NUL inside: str refused both ways, bytes accepted. */
		tmp[1] = '\0';
		s->p = tmp;
		assert_int_equal(ipc_encode(&m, wbuf, IPC_MSG_MAX),
		    is_str ? IPC_ESTR : (int)n);
		memcpy(wbuf, ebuf, n);
		wbuf[offs[i] + 4 + 1] = '\0';
		assert_int_equal(decode_exact(wbuf, n, &d),
		    is_str ? IPC_ESTR : IPC_OK);

		/* A stray 0xFF: refused only where UTF-8 is required. */
		tmp[1] = (char)0xff;
		assert_int_equal(ipc_encode(&m, wbuf, IPC_MSG_MAX),
		    f->k == T_UTF8 ? IPC_ESTR : (int)n);
		memcpy(wbuf, ebuf, n);
		wbuf[offs[i] + 4 + 1] = 0xff;
		assert_int_equal(decode_exact(wbuf, n, &d),
		    f->k == T_UTF8 ? IPC_ESTR : IPC_OK);

		/* An empty value is fine; NULL with a length is not. */
		*s = (struct ipc_str){ NULL, 0 };
		assert_true(ipc_encode(&m, wbuf, IPC_MSG_MAX) > 0);
		*s = (struct ipc_str){ NULL, 1 };
		assert_true(ipc_encode(&m, wbuf, IPC_MSG_MAX) < 0);
	}
}

static void
t_req(void **state)
{
	const struct tmsg *t = *state;
	struct ipc_msg m, d;
	size_t n;

	sample(t->type, &m);
	m.req = 1;
	if (t->conn) {
		assert_int_equal(ipc_encode(&m, ebuf, IPC_MSG_MAX), IPC_ERANGE);
		encode_sample(t, &n);
		wr32(ebuf + 8, 1);
		assert_int_equal(decode_exact(ebuf, n, &d), IPC_ERANGE);
		wr32(ebuf + 8, 0x80000000u);
		assert_int_equal(decode_exact(ebuf, n, &d), IPC_ERANGE);
	} else {
		/* Any req: the state machine, not the codec, checks it. */
		uint32_t reqs[] = { 0, 1, 0xffffffffu };
		size_t i;

		for (i = 0; i < 3; i++) {
			m.req = reqs[i];
			assert_true(ipc_encode(&m, ebuf, IPC_MSG_MAX) > 0);
			assert_int_equal(ipc_decode(ebuf, rd32(ebuf + 12) +
			    IPC_HDR_LEN, &d), IPC_OK);
			assert_int_equal(d.req, reqs[i]);
		}
	}
}

static void
t_header(void **state)
{
	const struct tmsg *t = *state;
	struct ipc_msg d;
	size_t n;
	uint16_t bad[] = { 0, IPC_TYPE_MAX + 1, 0xffff };
	size_t i;

	encode_sample(t, &n);
	memcpy(wbuf, ebuf, n);
	wr32(wbuf, IPC_MAGIC ^ 1);
	assert_int_equal(decode_exact(wbuf, n, &d), IPC_ETYPE);
	wr32(wbuf, 0x31504743u);	/* byte-swapped magic */
	assert_int_equal(decode_exact(wbuf, n, &d), IPC_ETYPE);
	memcpy(wbuf, ebuf, n);
	wr16(wbuf + 6, 1);		/* flags */
	assert_int_equal(decode_exact(wbuf, n, &d), IPC_ETYPE);
	wr16(wbuf + 6, 0x8000);
	assert_int_equal(decode_exact(wbuf, n, &d), IPC_ETYPE);
	for (i = 0; i < 3; i++) {
		memcpy(wbuf, ebuf, n);
		wr16(wbuf + 4, bad[i]);
		assert_int_equal(decode_exact(wbuf, n, &d), IPC_ETYPE);
	}
	memcpy(wbuf, ebuf, n);
	fix_len(wbuf, n - 1);
	assert_int_equal(decode_exact(wbuf, n, &d), IPC_ELONG);
	wr32(wbuf + 12, 0xffffffffu);
	assert_int_equal(decode_exact(wbuf, n, &d), IPC_ELONG);
}

/* Not per type */

static void
t_unknown_type_encode(void **state)
{
	struct ipc_msg m;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = 0;
	assert_int_equal(ipc_encode(&m, ebuf, IPC_MSG_MAX), IPC_ETYPE);
	m.type = IPC_TYPE_MAX + 1;
	assert_int_equal(ipc_encode(&m, ebuf, IPC_MSG_MAX), IPC_ETYPE);
	assert_string_equal(ipc_type_name(0), "UNKNOWN");
	assert_string_equal(ipc_type_name(IPC_TYPE_MAX + 1), "UNKNOWN");
	assert_string_equal(ipc_type_name(IPC_FORWARD), "FORWARD");
}

static void
t_strerror(void **state)
{
	int e;

	(void)state;
	for (e = IPC_EAGAIN; e <= IPC_OK; e++) {
		assert_non_null(ipc_strerror(e));
		assert_string_not_equal(ipc_strerror(e), "unknown error");
	}
	assert_string_equal(ipc_strerror(-99), "unknown error");
	assert_string_equal(ipc_strerror(1), "unknown error");
}

static void
t_utf8(void **state)
{
	static const struct {
		const char *s;
		size_t n;
		int ok;
	} v[] = {
		{ "plain", 5, 1 },
		{ "\xc3\xa9", 2, 1 },
		{ "\xe2\x82\xac", 3, 1 },
		{ "\xf0\x9f\x98\x80", 4, 1 },
		{ "\xf4\x8f\xbf\xbf", 4, 1 },		/* U+10FFFF */
		{ "\xed\x9f\xbf", 3, 1 },		/* U+D7FF */
		{ "\xee\x80\x80", 3, 1 },		/* U+E000 */
		{ "\xc0\x80", 2, 0 },			/* overlong NUL */
		{ "\xc1\xbf", 2, 0 },
		{ "\xe0\x80\x80", 3, 0 },		/* overlong */
		{ "\xe0\x9f\xbf", 3, 0 },
		{ "\xf0\x8f\xbf\xbf", 4, 0 },		/* overlong */
		{ "\xed\xa0\x80", 3, 0 },		/* surrogate */
		{ "\xed\xbf\xbf", 3, 0 },
		{ "\xf4\x90\x80\x80", 4, 0 },		/* > U+10FFFF */
		{ "\xf5\x80\x80\x80", 4, 0 },
		{ "\xff", 1, 0 },
		{ "\x80", 1, 0 },			/* lone continuation */
		{ "\xc3", 1, 0 },			/* truncated */
		{ "\xe2\x82", 2, 0 },
		{ "\xf0\x9f\x98", 3, 0 },
		{ "\xc3\x28", 2, 0 },			/* bad continuation */
		{ "\xe2\x28\xa1", 3, 0 },
		{ "\xf0\x9f\x28\x80", 4, 0 },
		{ "a\0b", 3, 0 },			/* NUL */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_int_equal(ipc_str_check(v[i].s, v[i].n,
		    IPC_STR_NONUL | IPC_STR_UTF8), v[i].ok ? IPC_OK : IPC_ESTR);
	assert_int_equal(ipc_str_check("a\0b", 3, IPC_STR_UTF8), IPC_OK);
	assert_int_equal(ipc_str_check("\xff", 1, IPC_STR_NONUL), IPC_OK);
	assert_int_equal(ipc_str_check(NULL, 0, IPC_STR_UTF8), IPC_OK);
}

static void
t_buf(void **state)
{
	unsigned char b[8];
	struct ipc_wbuf w;
	struct ipc_rbuf r;
	struct ipc_str s = S("abcd"), o;
	uint64_t v64;
	uint8_t v8;

	(void)state;
	ipc_wbuf_init(&w, b, sizeof(b));
	assert_int_equal(ipc_put_u32(&w, 7), IPC_OK);
	/* A str that does not fit leaves the buffer unchanged. */
	assert_int_equal(ipc_put_str(&w, &s, 16, IPC_STR_NONUL), IPC_ETOOBIG);
	assert_int_equal(w.len, 4);
	assert_int_equal(ipc_put_u64(&w, 1), IPC_ETOOBIG);
	assert_int_equal(w.len, 4);
	assert_int_equal(ipc_put_u32(&w, 0), IPC_OK);
	assert_int_equal(ipc_put_u8(&w, 1), IPC_ETOOBIG);

	ipc_rbuf_init(&r, b, sizeof(b));
	assert_int_equal(ipc_get_u64(&r, &v64), IPC_OK);
	assert_int_equal(ipc_get_u8(&r, &v8), IPC_ESHORT);
	ipc_rbuf_init(&r, b, sizeof(b));
	assert_int_equal(ipc_get_bytes(&r, &o, 6), IPC_ETOOBIG);	/* 7 > 6 */
	assert_int_equal(r.off, 0);
	assert_int_equal(ipc_get_bytes(&r, &o, 7), IPC_ESHORT);	/* 7 > 4 */
	assert_int_equal(r.off, 0);
}

/* Audit formatting (cli.md §14.4) */

static void
expect_fmt(const struct ipc_msg *m, const char *want)
{
	char out[1024];
	int n = ipc_format_fields(m, out, sizeof(out));

	assert_string_equal(out, want);
	assert_int_equal(n, strlen(want));
}

static void
t_format(void **state)
{
	struct ipc_msg m;

	(void)state;
	sample(IPC_CHILD_READY, &m);
	m.u.child_ready.chroot = 0;
	expect_fmt(&m, " pid=4242 namespaces=1 chroot=0");
	sample(IPC_SANDBOX_FAILED, &m);
	expect_fmt(&m, " step=seccomp_load errno=-22");
	sample(IPC_CONN_START, &m);
	expect_fmt(&m, " conn=81985529216486895 socket_kind=docker"
	    " backend_kind=podman root=\"/srv/projets/\\xC3\\xA9t\\xC3\\xA9\""
	    " egress=require proxy=http://10.88.0.1:3128"
	    " noproxy=localhost,127.0.0.1,10.88.0.1 proxy_available=1"
	    " backend_timeout_ms=30000 commit_needs_body=1 backend_rootless=1");
	sample(IPC_BYE, &m);
	m.u.bye.reason = IPC_BYE_CLIENT_CLOSED;
	expect_fmt(&m, " reason=client-closed");
	sample(IPC_ACCESS, &m);
	expect_fmt(&m, " method=POST path=/v1.41/containers/create"
	    " code=privileged status=403 duration_ms=12"
	    " detail=\"drop --privileged\"");
	sample(IPC_FACT_QUERY, &m);
	m.u.fact_query.kind = IPC_FACT_CONTAINER;
	expect_fmt(&m, " qid=9 kind=container api=libpod prefix=cg-proj"
	    " ref=abc123");
	sample(IPC_FACT_ANSWER, &m);
	m.u.fact_answer.result = IPC_FACT_NOT_OWNED;
	m.u.fact_answer.id = S("");
	expect_fmt(&m, " qid=9 result=not-owned id=\"\"");
	sample(IPC_PATH_ANSWER, &m);
	expect_fmt(&m, " qid=3 verdict=unresolvable"
	    " resolved=/home/u/proj/data2");
	sample(IPC_FORWARD, &m);
	/* '=' inside a value is escaped: it only separates names and values */
	expect_fmt(&m, " method=GET target=\"/v1.41/containers/json?all\\x3D1\""
	    " headers_n=2");
	sample(IPC_BODY, &m);
	expect_fmt(&m, " data_len=5");
	sample(IPC_VERDICT, &m);
	m.u.verdict.outcome = IPC_OUTCOME_FORWARDING;
	expect_fmt(&m, " outcome=forwarding code=backend-timeout status=504"
	    " detail=\"no answer within 30000 ms\" hint=\"check the daemon\"");
	sample(IPC_RESPONSE_END, &m);
	expect_fmt(&m, " mode=close");
	m.u.response_end.mode = IPC_END_KEEP_ALIVE;
	expect_fmt(&m, " mode=keep-alive");
	sample(IPC_CLIENT_DATA, &m);
	expect_fmt(&m, " data_len=3");
	sample(IPC_DONE, &m);
	expect_fmt(&m, "");
	/* Escaping: quote, backslash, control, high bytes, space. */
	sample(IPC_LOG, &m);
	m.u.log.level = IPC_LOG_WARNING;
	m.u.log.text = S("a\"b\\c\x01\x7f\xff d=e");
	expect_fmt(&m, " level=warning text=\"a\\\"b\\\\c\\x01\\x7F\\xFF d\\x3De\"");
	/* An out-of-range enumeration (unvalidated message) as a number. */
	m.u.log.level = 200;
	m.u.log.text = S("x");
	expect_fmt(&m, " level=200 text=x");
	/* Unknown type. */
	m.type = 0;
	expect_fmt(&m, "");
}

static void
t_format_trunc(void **state)
{
	struct ipc_msg m;
	char full[1024], out[1024];
	size_t sz;
	int n, len;

	(void)state;
	sample(IPC_LOG, &m);
	m.u.log.text = S("\x01\x02\x03 abc \"q\"");
	len = ipc_format_fields(&m, full, sizeof(full));
	assert_true(len > 0);
	assert_int_equal(ipc_format_fields(&m, NULL, 0), 0);
	for (sz = 1; sz <= (size_t)len + 2; sz++) {
		memset(out, 'Z', sizeof(out));
		n = ipc_format_fields(&m, out, sz);
		assert_true(n >= 0 && (size_t)n < sz);
		assert_int_equal(strlen(out), n);
		assert_memory_equal(out, full, (size_t)n);
		assert_int_equal(out[sz], 'Z');		/* no overrun */
		/* Never cut inside an escape sequence. */
		if (n >= 1)
			assert_true(out[n - 1] != '\\');
		if (n >= 2 && out[n - 2] == '\\')
			assert_true(out[n - 1] == '"' || out[n - 1] == '\\');
		if (n >= 3 && out[n - 3] == '\\')
			assert_true(out[n - 2] != 'x');
		if (sz > (size_t)len)
			assert_int_equal(n, len);
	}
	/* A 196608-byte target into a small buffer. */
	sample(IPC_FORWARD, &m);
	m.u.forward.target = (struct ipc_str){ big, 196608 };
	n = ipc_format_fields(&m, out, 100);
	assert_int_equal(strlen(out), n);
	assert_true(n < 100);
}

/* Socket pair */

static int
count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static int
fd_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

/* sendmsg of raw bytes with nfds descriptors attached. */
static void
raw_send(int s, const void *b, size_t n, const int *fds, size_t nfds)
{
	union {
		struct cmsghdr h;
		unsigned char b[CMSG_SPACE(32 * sizeof(int))];
	} cm;
	struct msghdr mh;
	struct iovec iov;
	struct cmsghdr *c;

	assert_true(nfds <= 32);
	memset(&mh, 0, sizeof(mh));
	memset(&cm, 0, sizeof(cm));
	iov.iov_base = (void *)(uintptr_t)b;
	iov.iov_len = n;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (nfds > 0) {
		mh.msg_control = cm.b;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	assert_int_equal(sendmsg(s, &mh, MSG_NOSIGNAL), (ssize_t)n);
}

static int sv[2] = { -1, -1 };

static int
sp_setup(void **state)
{
	(void)state;
	return ipc_socketpair(sv);
}

static int
sp_teardown(void **state)
{
	(void)state;
	close(sv[0]);
	close(sv[1]);
	sv[0] = sv[1] = -1;
	return 0;
}

static void
t_sp_options(void **state)
{
	int i, v, t, can_force;
	socklen_t l;

	(void)state;
	/* Without CAP_NET_ADMIN the size is capped by net.core.wmem_max. */
	t = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	assert_true(t >= 0);
	v = IPC_SOCKBUF;
	can_force = setsockopt(t, SOL_SOCKET, SO_SNDBUFFORCE, &v,
	    sizeof(v)) == 0;
	close(t);
	for (i = 0; i < 2; i++) {
		assert_true(fcntl(sv[i], F_GETFD) & FD_CLOEXEC);
		l = sizeof(v);
		assert_int_equal(getsockopt(sv[i], SOL_SOCKET, SO_TYPE, &v, &l), 0);
		assert_int_equal(v, SOCK_SEQPACKET);
		l = sizeof(v);
		assert_int_equal(getsockopt(sv[i], SOL_SOCKET, SO_SNDBUF, &v, &l), 0);
		assert_true(v > IPC_MSG_MAX);
		if (can_force)
			assert_true(v >= IPC_SOCKBUF);
		l = sizeof(v);
		assert_int_equal(getsockopt(sv[i], SOL_SOCKET, SO_RCVBUF, &v, &l), 0);
		assert_true(v > IPC_MSG_MAX);
	}
}

static void
t_sp_conn_start_fd(void **state)
{
	struct ipc_msg m, d;
	int p[2];
	char c[8];

	(void)state;
	assert_int_equal(pipe(p), 0);
	sample(IPC_CONN_START, &m);
	m.fd = p[1];
	assert_int_equal(ipc_send(sv[0], &m, 0), IPC_OK);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 1, 0), IPC_OK);
	compare(tcat(IPC_CONN_START), &m, &d);
	assert_true(d.fd >= 0);
	assert_true(d.fd != p[1]);
	assert_true(fcntl(d.fd, F_GETFD) & FD_CLOEXEC);	/* MSG_CMSG_CLOEXEC */
	close(p[1]);
	/* The received descriptor works: write through it. */
	assert_int_equal(write(d.fd, "hello", 5), 5);
	close(d.fd);
	assert_int_equal(read(p[0], c, sizeof(c)), 5);
	assert_memory_equal(c, "hello", 5);
	close(p[0]);
}

static void
t_sp_conn_start_nofd(void **state)
{
	struct ipc_msg m, d;
	size_t n;
	int r, before, p[2], fds[3];

	(void)state;
	sample(IPC_CONN_START, &m);
	m.fd = -1;
	assert_int_equal(ipc_send(sv[0], &m, 0), IPC_EFD);
	/* A bad descriptor number is the kernel's EBADF. */
	m.fd = 1000;
	assert_false(fd_open(1000));
	assert_int_equal(ipc_send(sv[0], &m, 0), IPC_ESYS);
	assert_int_equal(errno, EBADF);

	/* Without a descriptor: refused when one is expected. */
	r = ipc_encode(&m, ebuf, IPC_MSG_MAX);
	assert_true(r > 0);
	n = (size_t)r;
	raw_send(sv[0], ebuf, n, NULL, 0);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 1, 0), IPC_EFD);
	assert_int_equal(d.fd, -1);
	/* ...accepted when none is (the monitor's side never expects one). */
	raw_send(sv[0], ebuf, n, NULL, 0);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, 0), IPC_OK);
	assert_int_equal(d.fd, -1);

	/* Two descriptors: refused, both closed. */
	assert_int_equal(pipe(p), 0);
	fds[0] = p[0];
	fds[1] = p[1];
	before = count_fds();
	raw_send(sv[0], ebuf, n, fds, 2);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 1, 0), IPC_EFD);
	assert_int_equal(d.fd, -1);
	assert_int_equal(count_fds(), before);

	/* One descriptor when none is accepted: refused and closed. */
	raw_send(sv[0], ebuf, n, fds, 1);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, 0), IPC_EFD);
	assert_int_equal(d.fd, -1);
	assert_int_equal(count_fds(), before);
	close(p[0]);
	close(p[1]);
}

static void
t_sp_fd_on_other(void **state)
{
	struct ipc_msg m, d;
	int r, before, p[2], fds[12], i;

	(void)state;
	assert_int_equal(pipe(p), 0);
	/* ipc_send attaches m->fd only to the messages that carry one */

	sample(IPC_LOG, &m);
	m.fd = p[1];
	before = count_fds();
	assert_int_equal(ipc_send(sv[0], &m, 0), IPC_OK);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 1, 0), IPC_OK);
	assert_int_equal(d.fd, -1);
	assert_int_equal(count_fds(), before);

	/* A LOG carrying a descriptor: refused, descriptor closed. */
	r = ipc_encode(&m, ebuf, IPC_MSG_MAX);
	assert_true(r > 0);
	raw_send(sv[0], ebuf, (size_t)r, &p[1], 1);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 1, 0), IPC_EFD);
	assert_int_equal(d.fd, -1);
	assert_int_equal(count_fds(), before);
	/* The lowest free number (where it was installed) is free again. */
	i = dup(0);
	assert_true(i >= 0);
	close(i);

	/* Every type with a descriptor, either accept_fd. */
	for (i = 0; i < (int)NCAT; i++) {
		size_t n;

		if (ipc_type_carries_fd(cat[i].type))
			continue;
		encode_sample(&cat[i], &n);
		raw_send(sv[0], ebuf, n, &p[0], 1);
		assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, i & 1,
		    0), IPC_EFD);
		assert_int_equal(count_fds(), before);
	}

	/* More descriptors than the control buffer holds: MSG_CTRUNC. */
	sample(IPC_LOG, &m);
	r = ipc_encode(&m, ebuf, IPC_MSG_MAX);
	assert_true(r > 0);
	for (i = 0; i < 12; i++)
		fds[i] = p[i & 1];
	raw_send(sv[0], ebuf, (size_t)r, fds, 12);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 1, 0),
	    IPC_ETRUNC);
	assert_int_equal(count_fds(), before);
	close(p[0]);
	close(p[1]);
}

/* Fill FORWARD m up to exactly total bytes using target and headers. */
static void
forward_of_size(struct ipc_msg *m, size_t total)
{
	size_t base, rem, k, i, per, vtot;
	int r;

	sample(IPC_FORWARD, m);
	m->u.forward.target = (struct ipc_str){ big, 196608 };
	m->u.forward.nheaders = 0;
	r = ipc_encode(m, ebuf, sizeof(ebuf));
	assert_true(r > 0);
	base = (size_t)r;
	assert_true(total > base);
	rem = total - base;
	/* Each header "X-Fill: v..." costs 4 + 6 + 4 + len(v). */
	k = (rem + 14 + 8192 - 1) / (14 + 8192);
	assert_true(k <= IPC_FORWARD_HDRS_MAX && rem >= 14 * k);
	vtot = rem - 14 * k;
	for (i = 0; i < k; i++) {
		per = vtot / (k - i);
		assert_true(per <= 8192);
		m->u.forward.headers[i].name = S("X-Fill");
		m->u.forward.headers[i].value = (struct ipc_str){ big,
		    (uint32_t)per };
		vtot -= per;
	}
	m->u.forward.nheaders = (uint16_t)k;
}

static void
t_sp_max_forward(void **state)
{
	struct ipc_msg m, d;
	int r;

	(void)state;
	forward_of_size(&m, IPC_MSG_MAX);
	assert_int_equal(ipc_encode(&m, ebuf, sizeof(ebuf)), IPC_MSG_MAX);
	assert_int_equal(ipc_send(sv[0], &m, 0), IPC_OK);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, 0), IPC_OK);
	compare(tcat(IPC_FORWARD), &m, &d);

	/* One byte more: the encoder refuses, whatever its capacity. */
	m.u.forward.headers[0].value.len++;
	assert_int_equal(ipc_encode(&m, ebuf, sizeof(ebuf)), IPC_ETOOBIG);
	assert_int_equal(ipc_send(sv[0], &m, 0), IPC_ETOOBIG);
	m.u.forward.headers[0].value.len += 5000;
	assert_int_equal(ipc_send(sv[0], &m, 0), IPC_ETOOBIG);

	/* A 262145-byte datagram from a peer: decoder refuses it. */
	m.u.forward.headers[0].value.len -= 5001;
	r = ipc_encode(&m, ebuf, sizeof(ebuf));
	assert_int_equal(r, IPC_MSG_MAX);
	ebuf[IPC_MSG_MAX] = 0;
	fix_len(ebuf, IPC_MSG_MAX + 1);
	raw_send(sv[0], ebuf, IPC_MSG_MAX + 1, NULL, 0);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, 0),
	    IPC_ETOOBIG);
	/* 262146 bytes do not even fit the receive buffer: MSG_TRUNC. */
	fix_len(ebuf, IPC_MSG_MAX + 2);
	raw_send(sv[0], ebuf, IPC_MSG_MAX + 2, NULL, 0);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, 0),
	    IPC_ETRUNC);
	/* The next datagram is intact: boundaries are kept. */
	sample(IPC_DONE, &m);
	assert_int_equal(ipc_send(sv[0], &m, 0), IPC_OK);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, 0), IPC_OK);
	assert_int_equal(d.type, IPC_DONE);
	/* A receive buffer below IPC_MSG_MAX + 1 is a caller error. */
	assert_int_equal(ipc_recv(sv[1], rbuf, IPC_MSG_MAX, &d, 0, 0),
	    IPC_ESYS);
	assert_int_equal(errno, EINVAL);
}

static void
t_sp_all_types(void **state)
{
	struct ipc_msg m, d;
	size_t i;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	for (i = 0; i < NCAT; i++) {
		sample(cat[i].type, &m);
		if (ipc_type_carries_fd(cat[i].type))
			m.fd = p[0];
		assert_int_equal(ipc_send(sv[i & 1], &m, 0), IPC_OK);
		assert_int_equal(ipc_recv(sv[!(i & 1)], rbuf, sizeof(rbuf), &d,
		    1, 0), IPC_OK);
		compare(&cat[i], &m, &d);
		if (ipc_type_carries_fd(cat[i].type)) {
			assert_true(d.fd >= 0);
			close(d.fd);
		} else
			assert_int_equal(d.fd, -1);
	}
	close(p[0]);
	close(p[1]);
}

static void
t_sp_eagain_eof(void **state)
{
	struct ipc_msg m, d;
	int i, r = IPC_OK, sent = 0;

	(void)state;
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0,
	    MSG_DONTWAIT), IPC_EAGAIN);
	/* Fill the pipe with maximal datagrams until the kernel says no. */
	forward_of_size(&m, IPC_MSG_MAX);
	for (i = 0; i < 64 && r == IPC_OK; i++)
		if ((r = ipc_send(sv[0], &m, MSG_DONTWAIT)) == IPC_OK)
			sent++;
	assert_int_equal(r, IPC_EAGAIN);
	assert_true(sent >= 1);
	for (i = 0; i < sent; i++)
		assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, 0),
		    IPC_OK);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0,
	    MSG_DONTWAIT), IPC_EAGAIN);
	/*
	 * A zero-length datagram is no end-of-file while the peer is there
	 * (tests/hostile row datagram-empty): recvmsg() returns 0 for both.
	 */
	assert_int_equal(send(sv[0], "", 0, 0), 0);
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, 0),
	    IPC_ESHORT);
	/* Peer closed: EOF; sending to it: EPIPE without SIGPIPE. */
	close(sv[0]);
	sv[0] = -1;
	assert_int_equal(ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, 0), IPC_EOF);
	sample(IPC_DONE, &m);
	assert_int_equal(ipc_send(sv[1], &m, 0), IPC_ESYS);
	assert_int_equal(errno, EPIPE);
}

/*
 * The write queue (ipc/queue.h): what the socket does not take waits, in
 * order, and goes out as the peer reads; a broken socket is reported.
 */
static void
t_sp_queue(void **state)
{
	struct ipc_queue q;
	struct ipc_msg m, d;
	size_t one;
	int i, got = 0, n = 16;

	(void)state;
	ipc_queue_init(&q);
	assert_true(ipc_queue_empty(&q));
	assert_int_equal(ipc_queue_flush(&q, sv[0]), IPC_OK);
	/* an invalid message is not queued */
	sample(IPC_LOG, &m);
	m.u.log.level = 9;
	assert_int_equal(ipc_queue_add(&q, &m), IPC_ERANGE);
	assert_true(ipc_queue_empty(&q));
	/* 16 maximal FORWARDs (4 MiB): more than the socket takes */
	forward_of_size(&m, IPC_MSG_MAX);
	for (i = 0; i < n; i++) {
		m.req = (uint32_t)i + 1;
		assert_int_equal(ipc_queue_add(&q, &m), IPC_OK);
	}
	one = q.bytes / (size_t)n;
	assert_int_equal(one, IPC_MSG_MAX);
	assert_int_equal(ipc_queue_flush(&q, sv[0]), IPC_OK);
	assert_false(ipc_queue_empty(&q));
	assert_true(q.bytes < (size_t)n * one);
	/* the reader drains; each flush sends more; the order is kept */
	while (got < n) {
		int r = ipc_recv(sv[1], rbuf, sizeof(rbuf), &d, 0, MSG_DONTWAIT);

		if (r == IPC_EAGAIN) {
			assert_false(ipc_queue_empty(&q));
			assert_int_equal(ipc_queue_flush(&q, sv[0]), IPC_OK);
			continue;
		}
		assert_int_equal(r, IPC_OK);
		assert_int_equal(d.type, IPC_FORWARD);
		assert_int_equal(d.req, (uint32_t)++got);
	}
	assert_true(ipc_queue_empty(&q));
	assert_int_equal(q.bytes, 0);
	/* a broken socket: the message stays queued, the error is reported */
	sample(IPC_DONE, &m);
	assert_int_equal(ipc_queue_add(&q, &m), IPC_OK);
	close(sv[1]);
	sv[1] = -1;
	assert_int_equal(ipc_queue_flush(&q, sv[0]), IPC_ESYS);
	assert_int_equal(errno, EPIPE);
	assert_false(ipc_queue_empty(&q));
	ipc_queue_clear(&q);
	assert_true(ipc_queue_empty(&q));
	assert_int_equal(q.bytes, 0);
}

/* Mutation loop (style.md §16) */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint32_t
rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static void
t_mutate(void **state)
{
	size_t iters = fast_mode() ? 500 : 20000, ti, it, n, len, k, j;
	unsigned long ok = 0, bad = 0;
	struct ipc_msg d;
	char fmt[512];
	int r;

	(void)state;
	for (ti = 0; ti < NCAT; ti++) {
		encode_sample(&cat[ti], &n);
		for (it = 0; it < iters; it++) {
			memcpy(wbuf, ebuf, n);
			len = n;
			k = 1 + rnd() % 4;
			for (j = 0; j < k; j++) {
				size_t pos;

				switch (rnd() % 6) {
				case 0:		/* bit flip, payload mostly */
				case 1:
					pos = (rnd() % 8 == 0 || len <= IPC_HDR_LEN) ?
					    rnd() % len : IPC_HDR_LEN +
					    rnd() % (len - IPC_HDR_LEN);
					wbuf[pos] ^= (unsigned char)(1u << (rnd() % 8));
					break;
				case 2:		/* byte set */
					pos = rnd() % len;
					wbuf[pos] = (unsigned char)rnd();
					break;
				case 3:		/* truncate the end, header fixed */
					len -= rnd() % len;
					if (len >= IPC_HDR_LEN)
						fix_len(wbuf, len);
					break;
				case 4:		/* truncate the front */
					pos = rnd() % len;
					memmove(wbuf, wbuf + pos, len - pos);
					len -= pos;
					break;
				default:	/* grow, header fixed */
					if (len + 8 <= sizeof(wbuf)) {
						memset(wbuf + len, (int)rnd(), 8);
						len += rnd() % 9;
						if (len >= IPC_HDR_LEN)
							fix_len(wbuf, len);
					}
					break;
				}
				if (len == 0)
					break;
			}
			r = decode_exact(wbuf, len, &d);
			assert_true(r <= IPC_OK && r >= IPC_ESTR);
			if (r != IPC_OK) {
				bad++;
				continue;
			}
			ok++;
			/* Accepted input re-encodes to the same bytes. */
			assert_int_equal(ipc_decode(wbuf, len, &d), IPC_OK);
			assert_int_equal(ipc_encode(&d, ebuf + IPC_MSG_MAX,
			    IPC_MSG_MAX), (int)len);
			assert_memory_equal(ebuf + IPC_MSG_MAX, wbuf, len);
			(void)ipc_format_fields(&d, fmt, sizeof(fmt));
		}
	}
	print_message("mutations: %lu accepted, %lu rejected\n", ok, bad);
	assert_true(ok > 0 && bad > 0);
}

#define PER_TYPE	8
#define OTHER		17

int
main(void)
{
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} per[PER_TYPE] = {
		{ "roundtrip", t_roundtrip },
		{ "trailing", t_trailing },
		{ "short", t_short },
		{ "oversize", t_oversize },
		{ "enum", t_enum },
		{ "str", t_str },
		{ "req", t_req },
		{ "header", t_header },
	};
	static char names[PER_TYPE * NCAT][48];
	struct CMUnitTest tests[PER_TYPE * NCAT + OTHER];
	struct CMUnitTest other[] = {
		cmocka_unit_test(t_unknown_type_encode),
		cmocka_unit_test(t_strerror),
		cmocka_unit_test(t_utf8),
		cmocka_unit_test(t_buf),
		cmocka_unit_test(t_format),
		cmocka_unit_test(t_format_trunc),
		cmocka_unit_test_setup_teardown(t_sp_options, sp_setup,
		    sp_teardown),
		cmocka_unit_test_setup_teardown(t_sp_conn_start_fd, sp_setup,
		    sp_teardown),
		cmocka_unit_test_setup_teardown(t_sp_conn_start_nofd, sp_setup,
		    sp_teardown),
		cmocka_unit_test_setup_teardown(t_sp_fd_on_other, sp_setup,
		    sp_teardown),
		cmocka_unit_test_setup_teardown(t_sp_max_forward, sp_setup,
		    sp_teardown),
		cmocka_unit_test_setup_teardown(t_sp_all_types, sp_setup,
		    sp_teardown),
		cmocka_unit_test_setup_teardown(t_sp_eagain_eof, sp_setup,
		    sp_teardown),
		cmocka_unit_test_setup_teardown(t_sp_queue, sp_setup,
		    sp_teardown),
		cmocka_unit_test(t_mutate),
	};
	size_t i, j, n = 0;

	memset(big, 'a', sizeof(big));
	memset(tests, 0, sizeof(tests));
	for (j = 0; j < PER_TYPE; j++)
		for (i = 0; i < NCAT; i++) {
			snprintf(names[n], sizeof(names[n]), "%s/%s",
			    per[j].name, cat[i].name);
			tests[n].name = names[n];
			tests[n].test_func = per[j].fn;
			tests[n].initial_state = (void *)(uintptr_t)&cat[i];
			n++;
		}
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		tests[n++] = other[i];
	return _cmocka_run_group_tests("ipc", tests, n, NULL, NULL);
}
