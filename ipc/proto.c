/*
 * The monitor <-> request-parser message catalogue (privsep.md §7).
 *
 * One const table describes every message: its fields in catalogue
 * order, each with its wire kind, limit and place in struct ipc_msg.
 * The encoder and the decoder (codec.c) and the audit formatter
 * (format.c) all walk this table, so the three cannot disagree about
 * order, width or limits, and the encoder applies exactly the checks the
 * decoder applies: a caller can never emit a message its peer would
 * treat as a violation. Also here: the names of types and error codes.
 */
#include "ipc/proto.h"
#include "ipc/proto_int.h"

#include <string.h>

#include "ipc/buf.h"

#define OFF(member)	offsetof(struct ipc_msg, u.member)
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* Enumeration names, indexed by value (privsep.md §7). */
static const char *const n_level[] = { "error", "warning", "info", "debug" };
static const char *const n_bye[] = { "client-closed", "timeout", "error" };
static const char *const n_api[] = { "compat", "libpod" };
static const char *const n_kind[] = { "podman", "docker" };
static const char *const n_egress[] = { "off", "inject", "require" };
static const char *const n_fact_kind[] = { "container", "pod", "volume",
	"network", "image", "exec", "project-network" };
static const char *const n_fact_result[] = { "owned", "not-owned",
	"unreachable", "timeout", "unexpected" };
static const char *const n_path_verdict[] = { "allowed", "outside",
	"excluded", "socket", "unresolvable" };
static const char *const n_outcome[] = { "forwarding", "refused" };
static const char *const n_end[] = { "keep-alive", "close" };
static const char *const n_check[] = { "build", "archive", "load" };

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
	BOOL("backend_rootless", conn_start.backend_rootless),
};
static const struct field f_log[] = {
	ENUM("level", log.level, n_level),
	UTF8("text", log.text, 1024),
};
static const struct field f_bye[] = {
	ENUM("reason", bye.reason, n_bye),
};
static const struct field f_zygote_spawn[] = {
	BOOL("ready", zygote_spawn.ready),
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
	STR("hint", verdict.hint, 512),
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

/* the checker (doc/privsep.md "Builds and archives") */
static const struct field f_check_start[] = {
	ENUM("kind", check_start.kind, n_check),
	BOOL("podman", check_start.podman),
	BOOL("libpod", check_start.libpod),
	U32("hold", check_start.hold),
	STR("query", check_start.query, 196608),
};
static const struct field f_check_progress[] = {
	U64("consumed", check_progress.consumed),
	U64("approved", check_progress.approved),
};
static const struct field f_check_skip[] = {
	U64("consumed", check_skip.consumed),
	U64("until", check_skip.until),
};
static const struct field f_check_skip_at[] = {
	U64("from", check_skip_at.from),
};
static const struct field f_check_verdict[] = {
	BOOL("ok", check_verdict.ok),
	STR("code", check_verdict.code, 32),
	UTF8("detail", check_verdict.detail, 1024),
	UTF8("hint", check_verdict.hint, 512),
};

static const struct field f_check_image[] = {
	STR("ref", check_image.ref, 1024),
	STR("id", check_image.id, 64),
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
	MSG(ZYGOTE_SPAWN, 1, f_zygote_spawn),

	MSG(ZYGOTE_SPAWNED, 1, f_zygote_spawned),
	MSG0(REQUEST_BEGIN),
	MSG0(BODY_PIPE),
	MSG(BODY_SPLICED, 0, f_body_spliced),
	MSG(CHECK_START, 1, f_check_start),
	MSG(CHECK_PROGRESS, 1, f_check_progress),
	MSG(CHECK_VERDICT, 1, f_check_verdict),
	[IPC_CHECK_FLUSH] = { "CHECK_FLUSH", 1, NULL, 0 },
	MSG(CHECK_IMAGE, 1, f_check_image),
	/* the same field: the image whose export the descriptor reads */
	[IPC_CHECK_CONFIG] = { "CHECK_CONFIG", 1, f_check_image,
	    NELEM(f_check_image) },
	MSG(CHECK_SKIP, 1, f_check_skip),
	MSG(CHECK_SKIP_AT, 1, f_check_skip_at),
};

int
ipc_type_carries_fd(unsigned type)
{
	return type == IPC_CONN_START || type == IPC_ZYGOTE_SPAWN ||
	    type == IPC_BODY_PIPE || type == IPC_CHECK_START ||
	    type == IPC_CHECK_CONFIG;
}

const struct msgdesc *
ipc_msgdesc(unsigned type)
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
	const struct msgdesc *d = ipc_msgdesc(type);

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
