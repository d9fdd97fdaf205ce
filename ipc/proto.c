/*
 * The monitor <-> request-parser message codec (privsep.md §6-§7).
 *
 * One const table describes every message: its fields in catalogue
 * order, each with its wire kind, limit and place in struct ipc_msg.
 * The encoder, the decoder and the audit formatter all walk the same
 * table, so the three cannot disagree about order, width or limits, and
 * the encoder applies exactly the checks the decoder applies: a caller
 * can never emit a message its peer would treat as a violation.
 *
 * The decoder trusts nothing in the datagram: header fields are checked
 * before any payload byte is looked at, every length is compared with
 * its maximum before it is used, and the payload must be consumed
 * exactly (privsep.md §6.3).
 */
#include "ipc/proto.h"
#include "base/gwerror.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/buf.h"

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

#define OFF(member)	offsetof(struct ipc_msg, u.member)
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

#define HDR_NAME_MAX	64
#define HDR_VALUE_MAX	8192

/* Enumeration names, indexed by value (privsep.md §7). */
static const char *const n_level[] = { "error", "warning", "info", "debug" };
static const char *const n_bye[] = { "client-closed", "timeout", "error" };
static const char *const n_api[] = { "compat", "libpod" };
static const char *const n_kind[] = { "podman", "docker" };
static const char *const n_egress[] = { "off", "inject", "require" };
static const char *const n_fact_kind[] = { "container", "pod", "volume",
	"network", "image", "exec" };
static const char *const n_fact_result[] = { "owned", "not-owned",
	"unreachable", "timeout", "unexpected" };
static const char *const n_path_verdict[] = { "allowed", "outside",
	"excluded", "socket", "unresolvable" };
static const char *const n_outcome[] = { "forwarding", "refused" };
static const char *const n_end[] = { "keep-alive", "close" };

#define BOOL(n, m)	{ n, F_BOOL, OFF(m), 1, 0, NULL }
#define ENUM(n, m, t)	{ n, F_ENUM, OFF(m), NELEM(t), 0, t }
#define U16(n, m)	{ n, F_U16, OFF(m), 0, 0, NULL }
#define U32(n, m)	{ n, F_U32, OFF(m), 0, 0, NULL }
#define U64(n, m)	{ n, F_U64, OFF(m), 0, 0, NULL }
#define I32(n, m)	{ n, F_I32, OFF(m), 0, 0, NULL }
#define STR(n, m, max)	{ n, F_STR, OFF(m), max, IPC_STR_NONUL, NULL }
#define UTF8(n, m, max)	{ n, F_STR, OFF(m), max, IPC_STR_NONUL | IPC_STR_UTF8, NULL }
#define BYTES(n, m, max) { n, F_BYTES, OFF(m), max, 0, NULL }

/* 7.1 Connection level */
static const struct field f_child_ready[] = {
	U32("pid", child_ready.pid),
	BOOL("namespaces", child_ready.namespaces),
	BOOL("chroot", child_ready.chroot),
};
static const struct field f_sandbox_failed[] = {
	STR("step", sandbox_failed.step, 32),
	I32("errno", sandbox_failed.err),
};
static const struct field f_conn_start[] = {
	U64("conn", conn_start.conn),
	ENUM("socket_kind", conn_start.socket_kind, n_kind),
	ENUM("backend_kind", conn_start.backend_kind, n_kind),
	UTF8("root", conn_start.root, 4096),
	ENUM("egress", conn_start.egress, n_egress),
	STR("proxy", conn_start.proxy, 512),
	STR("noproxy", conn_start.noproxy, 1024),
	BOOL("proxy_available", conn_start.proxy_available),
	U32("backend_timeout_ms", conn_start.backend_timeout_ms),
	BOOL("commit_needs_body", conn_start.commit_needs_body),
};
static const struct field f_log[] = {
	ENUM("level", log.level, n_level),
	UTF8("text", log.text, 1024),
};
static const struct field f_bye[] = {
	ENUM("reason", bye.reason, n_bye),
};
static const struct field f_zygote_spawned[] = {
	U32("pid", zygote_spawned.pid),
	I32("errno", zygote_spawned.err),
};

/* 7.2 Per request */
static const struct field f_access[] = {
	STR("method", access.method, 16),
	STR("path", access.path, 8192),
	STR("code", access.code, 32),
	U16("status", access.status),
	U32("duration_ms", access.duration_ms),
	STR("detail", access.detail, 1024),
};
static const struct field f_fact_query[] = {
	U32("qid", fact_query.qid),
	ENUM("kind", fact_query.kind, n_fact_kind),
	ENUM("api", fact_query.api, n_api),
	STR("prefix", fact_query.prefix, 32),
	STR("ref", fact_query.ref, 1024),
};
static const struct field f_fact_answer[] = {
	U32("qid", fact_answer.qid),
	ENUM("result", fact_answer.result, n_fact_result),
	STR("id", fact_answer.id, 255),
};
static const struct field f_path_query[] = {
	U32("qid", path_query.qid),
	STR("path", path_query.path, 4096),
};
static const struct field f_path_answer[] = {
	U32("qid", path_answer.qid),
	ENUM("verdict", path_answer.verdict, n_path_verdict),
	STR("resolved", path_answer.resolved, 4096),
};
static const struct field f_forward[] = {
	STR("method", forward.method, 16),
	STR("target", forward.target, 196608),
	{ "headers", F_HEADERS, OFF(forward.nheaders), IPC_FORWARD_HDRS_MAX,
	    IPC_STR_NONUL, NULL },
};
static const struct field f_body[] = {
	BYTES("data", body.data, IPC_DATA_MAX),
};
static const struct field f_verdict[] = {
	ENUM("outcome", verdict.outcome, n_outcome),
	STR("code", verdict.code, 32),
	U16("status", verdict.status),
	STR("detail", verdict.detail, 1024),
};
static const struct field f_response_end[] = {
	ENUM("mode", response_end.mode, n_end),
};
static const struct field f_client_data[] = {
	BYTES("data", client_data.data, IPC_DATA_MAX),
};
static const struct field f_body_spliced[] = {
	U32("len", body_spliced.len),
};

#define MSG(t, conn, f)	[IPC_##t] = { #t, conn, f, NELEM(f) }
#define MSG0(t)		[IPC_##t] = { #t, 0, NULL, 0 }

static const struct msgdesc msgs[IPC_TYPE_MAX + 1] = {
	MSG(CHILD_READY, 1, f_child_ready),
	MSG(SANDBOX_FAILED, 1, f_sandbox_failed),
	MSG(CONN_START, 1, f_conn_start),
	MSG(LOG, 1, f_log),
	MSG(BYE, 1, f_bye),
	MSG(ACCESS, 0, f_access),
	MSG(FACT_QUERY, 0, f_fact_query),
	MSG(FACT_ANSWER, 0, f_fact_answer),
	MSG(PATH_QUERY, 0, f_path_query),
	MSG(PATH_ANSWER, 0, f_path_answer),
	MSG(FORWARD, 0, f_forward),
	MSG(BODY, 0, f_body),
	MSG0(BODY_END),
	MSG(VERDICT, 0, f_verdict),
	MSG(RESPONSE_END, 0, f_response_end),
	MSG(CLIENT_DATA, 0, f_client_data),
	MSG0(DONE),
	[IPC_ZYGOTE_SPAWN] = { "ZYGOTE_SPAWN", 1, NULL, 0 },
	MSG(ZYGOTE_SPAWNED, 1, f_zygote_spawned),
	MSG0(REQUEST_BEGIN),
	MSG0(BODY_PIPE),
	MSG(BODY_SPLICED, 0, f_body_spliced),
};

int
ipc_type_carries_fd(unsigned type)
{
	return type == IPC_CONN_START || type == IPC_ZYGOTE_SPAWN ||
	    type == IPC_BODY_PIPE;
}

static const struct msgdesc *
lookup(unsigned type)
{
	if (type == 0 || type > IPC_TYPE_MAX || msgs[type].name == NULL)
		return NULL;
	return &msgs[type];
}

struct ipc_str
ipc_cstr(const char *s)
{
	struct ipc_str v = { s != NULL ? s : "", s != NULL ? (uint32_t)strlen(s) : 0 };

	return v;
}

const char *
ipc_type_name(unsigned type)
{
	const struct msgdesc *d = lookup(type);

	return d != NULL ? d->name : "UNKNOWN";
}

const char *
ipc_strerror(int err)
{
	switch (err) {
	case IPC_OK:
		return "success";
	case IPC_ESHORT:
		return "message shorter than its fields";
	case IPC_ELONG:
		return "trailing bytes or length mismatch";
	case IPC_ETYPE:
		return "unknown message type or bad header";
	case IPC_ERANGE:
		return "value out of range";
	case IPC_ETOOBIG:
		return "field or message too big";
	case IPC_ESTR:
		return "invalid string (NUL or bad UTF-8)";
	case IPC_EFD:
		return "descriptor missing or not allowed";
	case IPC_ESYS:
		return "system call failed";
	case IPC_EOF:
		return "peer closed the connection";
	case IPC_ETRUNC:
		return "message or control data truncated";
	case IPC_EAGAIN:
		return "operation would block";
	default:
		return "unknown error";
	}
}

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
	const struct msgdesc *d = lookup(m->type);
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
	if (magic != IPC_MAGIC || flags != 0 || (d = lookup(type)) == NULL)
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

/* Audit formatting (cli.md §14.4) */

struct out {
	char *p;
	size_t sz;		/* capacity including the NUL */
	size_t len;
	int full;		/* something did not fit: write nothing more */
	int json;		/* JSON members instead of name=value */
	int nfields;		/* members written so far (JSON commas) */
};

/* Append s[0..n) whole or not at all, so a cut never splits a unit. */
static void
out_raw(struct out *o, const char *s, size_t n)
{
	if (o->full)
		return;
	if (n > o->sz - 1 - o->len) {
		o->full = 1;
		return;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static void
out_cstr(struct out *o, const char *s)
{
	out_raw(o, s, strlen(s));
}

static void
out_name(struct out *o, const char *name, const char *suffix)
{
	char tmp[64];
	int n = o->json ? snprintf(tmp, sizeof(tmp), "%s\"%s%s\":",
	    o->nfields++ > 0 ? "," : "", name, suffix) :
	    snprintf(tmp, sizeof(tmp), " %s%s=", name, suffix);

	if (n > 0 && (size_t)n < sizeof(tmp))
		out_raw(o, tmp, (size_t)n);
	else
		o->full = 1;
}

static void
out_u64(struct out *o, uint64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v);

	out_raw(o, tmp, (size_t)n);
}

static void
out_i64(struct out *o, int64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" PRId64, v);

	out_raw(o, tmp, (size_t)n);
}

/* A str value: bare when it is a plain token, else quoted and escaped. */
static void
out_escaped(struct out *o, const struct ipc_str *s)
{
	const unsigned char *p = (const unsigned char *)s->p;
	int quote = s->len == 0;
	char tmp[5];
	uint32_t i;

	if (p == NULL && s->len > 0) {	/* invalid message: say so, safely */
		out_raw(o, o->json ? "null" : "<null>", o->json ? 4 : 6);
		return;
	}
	if (o->json) {			/* a JSON string (cli.md §14.1) */
		char *e = cg_json_escape(s->p != NULL ? s->p : "", s->len);

		out_raw(o, "\"", 1);
		out_cstr(o, e);
		out_raw(o, "\"", 1);
		free(e);
		return;
	}
	for (i = 0; i < s->len && !quote; i++)
		if (p[i] < 0x21 || p[i] > 0x7E || p[i] == '"' || p[i] == '\\')
			quote = 1;
	if (!quote) {
		out_raw(o, s->p, s->len);
		return;
	}
	out_raw(o, "\"", 1);
	for (i = 0; i < s->len; i++) {
		if (p[i] == '"' || p[i] == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)p[i];
			out_raw(o, tmp, 2);
		} else if (p[i] >= 0x20 && p[i] <= 0x7E)
			out_raw(o, (const char *)&p[i], 1);
		else {
			(void)snprintf(tmp, sizeof(tmp), "\\x%02X", p[i]);
			out_raw(o, tmp, 4);
		}
	}
	out_raw(o, "\"", 1);
}

static void
out_field(struct out *o, const struct ipc_msg *m, const struct field *f)
{
	const unsigned char *p = (const unsigned char *)m + f->off;

	switch (f->kind) {
	case F_BOOL:
		out_name(o, f->name, "");
		out_u64(o, *p);
		break;
	case F_ENUM:
		out_name(o, f->name, "");
		if (*p < f->max) {
			if (o->json)
				out_raw(o, "\"", 1);
			out_cstr(o, f->names[*p]);
			if (o->json)
				out_raw(o, "\"", 1);
		} else {
			out_u64(o, *p);
		}
		break;
	case F_U16:
		out_name(o, f->name, "");
		out_u64(o, *(const uint16_t *)(const void *)p);
		break;
	case F_U32:
		out_name(o, f->name, "");
		out_u64(o, *(const uint32_t *)(const void *)p);
		break;
	case F_U64:
		out_name(o, f->name, "");
		out_u64(o, *(const uint64_t *)(const void *)p);
		break;
	case F_I32:
		out_name(o, f->name, "");
		out_i64(o, *(const int32_t *)(const void *)p);
		break;
	case F_STR:
		out_name(o, f->name, "");
		out_escaped(o, (const struct ipc_str *)(const void *)p);
		break;
	case F_BYTES:
		out_name(o, f->name, "_len");
		out_u64(o, ((const struct ipc_str *)(const void *)p)->len);
		break;
	case F_HEADERS:
		out_name(o, f->name, "_n");
		out_u64(o, m->u.forward.nheaders);
		break;
	}
}

int
ipc_format_fields_json(const struct ipc_msg *m, char *out, size_t outsz)
{
	const struct msgdesc *d = lookup(m->type);
	struct out o = { out, outsz, 0, 0, 1, 0 };
	size_t i;

	if (outsz < 3)
		return -1;
	out[0] = '\0';
	out_raw(&o, "{", 1);
	for (i = 0; d != NULL && i < d->nf && !o.full; i++)
		out_field(&o, m, &d->f[i]);
	if (o.full) {		/* keep it valid JSON: drop the fields */
		snprintf(out, outsz, "{}");
		return 2;
	}
	out_raw(&o, "}", 1);
	return o.full ? -1 : (int)o.len;
}

int
ipc_format_fields(const struct ipc_msg *m, char *out, size_t outsz)
{
	const struct msgdesc *d = lookup(m->type);
	struct out o = { out, outsz, 0, 0, 0, 0 };
	size_t i;

	if (outsz == 0)
		return 0;
	out[0] = '\0';
	if (d == NULL)
		return 0;
	for (i = 0; i < d->nf && !o.full; i++)
		out_field(&o, m, &d->f[i]);
	return (int)o.len;
}
