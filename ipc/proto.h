/*
 * The monitor <-> request-parser protocol (privsep.md §6-§7): typed
 * messages, one per SOCK_SEQPACKET datagram, exactly length-checked.
 *
 * Wire format: a 16-byte header in native byte order (u32 magic
 * IPC_MAGIC, u16 type, u16 flags = 0, u32 req, u32 len = payload bytes),
 * then the fields in catalogue order without padding: integers
 * fixed-width native order, str/bytes as u32 length + bytes.
 */
#ifndef CG_IPC_PROTO_H
#define CG_IPC_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "ipc/wire.h"

#define IPC_MAGIC		0x43475031u	/* "CGP1" */
#define IPC_HDR_LEN		16
#define IPC_MSG_MAX		262144		/* bytes per datagram */
#define IPC_DATA_MAX		65000		/* BODY/CLIENT_DATA */
#define IPC_SOCKBUF		(512 * 1024)	/* SO_SNDBUF/SO_RCVBUF asked for */
#define IPC_FORWARD_HDRS_MAX	32
#define IPC_FACT_QUERIES_MAX	64		/* per request */
#define IPC_PATH_QUERIES_MAX	64		/* per request */
#define IPC_EARLY_MAX		262144		/* CLIENT_DATA bytes per request */
#define IPC_SPLICED_MAX		(1u << 20)	/* BODY_SPLICED len, at most */

/* Message types. Values are part of the protocol. */
enum ipc_type {
	IPC_CHILD_READY = 1,
	IPC_SANDBOX_FAILED,
	IPC_CONN_START,
	IPC_LOG,
	IPC_BYE,
	IPC_ACCESS,
	IPC_FACT_QUERY,
	IPC_FACT_ANSWER,
	IPC_PATH_QUERY,
	IPC_PATH_ANSWER,
	IPC_FORWARD,
	IPC_BODY,
	IPC_BODY_END,
	IPC_VERDICT,		/* M->C: FORWARD's outcome; a light exchange
				   (policy_exchange_synced() 0) gets it
				   only when refused */
	IPC_RESPONSE_END,
	IPC_CLIENT_DATA,
	IPC_DONE,		/* C->M: answers RESPONSE_END or a refused
				   VERDICT; none after a light exchange's
				   keep-alive RESPONSE_END (privsep.md) */
	/* monitor <-> zygote (the template children are forked from) */
	IPC_ZYGOTE_SPAWN,	/* M->Z + fd: fork a child on this IPC socket
				   (ready: it sends CHILD_READY) */
	IPC_ZYGOTE_SPAWNED,	/* Z->M: its pid, or the errno of the fork */
	/* C->M, no fields: request req began and its rest is awaited */
	IPC_REQUEST_BEGIN,
	/* M->C + fd, no fields: the write end of request req's body pipe */
	IPC_BODY_PIPE,
	/* C->M: that many more body bytes are in the body pipe */
	IPC_BODY_SPLICED,
	/*
	 * monitor <-> checker (a request parser spare given a body to check
	 * instead of a connection; doc/privsep.md "Builds and archives")
	 */
	IPC_CHECK_START,	/* M->K + fd: the read end of the body's copy */
	IPC_CHECK_PROGRESS,	/* K->M: bytes read, bytes approved */
	IPC_CHECK_VERDICT,	/* K->M: the whole body approved, or refused */
	IPC_CHECK_FLUSH,	/* M->K: no more unapproved bytes fit */
	/*
	 * a build's base images and their ONBUILD triggers (check/onbuild.h):
	 * each base image the approved Dockerfile starts FROM, before the
	 * ok CHECK_VERDICT; then, per image, the daemon's export of it, which
	 * the checker answers with a CHECK_VERDICT of its own
	 */
	IPC_CHECK_IMAGE,	/* K->M: a base image the Dockerfile names;
				   a name a load gives */
	IPC_CHECK_CONFIG,	/* M->K + fd: the read end of its export */
	IPC_CHECK_SKIP,		/* K->M: bytes read, end of entry data the
				   checker approves unread */
	IPC_CHECK_SKIP_AT,	/* M->K: where the gap in its pipe starts */
	IPC_TYPE_MAX = IPC_CHECK_SKIP_AT,
};

/* Enumerations (u8 on the wire). */
enum ipc_log_level { IPC_LOG_ERROR = 0, IPC_LOG_WARNING, IPC_LOG_INFO, IPC_LOG_DEBUG };
enum ipc_bye_reason { IPC_BYE_CLIENT_CLOSED = 0, IPC_BYE_TIMEOUT, IPC_BYE_ERROR };
enum ipc_api { IPC_API_COMPAT = 0, IPC_API_LIBPOD };
enum ipc_kind { IPC_KIND_PODMAN = 0, IPC_KIND_DOCKER };
enum ipc_egress { IPC_EGRESS_OFF = 0, IPC_EGRESS_INJECT, IPC_EGRESS_REQUIRE };
enum ipc_fact_kind { IPC_FACT_CONTAINER = 0, IPC_FACT_POD, IPC_FACT_VOLUME,
	IPC_FACT_NETWORK, IPC_FACT_IMAGE, IPC_FACT_EXEC, IPC_FACT_PROJNET };
enum ipc_fact_result { IPC_FACT_OWNED = 0, IPC_FACT_NOT_OWNED,
	IPC_FACT_UNREACHABLE, IPC_FACT_TIMEOUT, IPC_FACT_UNEXPECTED };
enum ipc_path_verdict { IPC_PATH_ALLOWED = 0, IPC_PATH_OUTSIDE,
	IPC_PATH_EXCLUDED, IPC_PATH_SOCKET, IPC_PATH_UNRESOLVABLE };
enum ipc_outcome { IPC_OUTCOME_FORWARDING = 0, IPC_OUTCOME_REFUSED };
enum ipc_end_mode { IPC_END_KEEP_ALIVE = 0, IPC_END_CLOSE };
enum ipc_check_kind { IPC_CHECK_BUILD = 0, IPC_CHECK_ARCHIVE, IPC_CHECK_LOAD };


struct ipc_header_pair {
	struct ipc_str name;	/* str(64) */
	struct ipc_str value;	/* str(8192) */
};

/* An ipc_str over the NUL-terminated s; NULL gives the empty string. */
struct ipc_str ipc_cstr(const char *s);

/* One decoded or to-be-encoded message. Only the member for type is used. */
struct ipc_msg {
	uint16_t type;
	uint32_t req;
	int fd;			/* CONN_START, ZYGOTE_SPAWN, BODY_PIPE,
				   CHECK_START, CHECK_CONFIG only;
				   -1 otherwise */
	union {
		struct { uint32_t pid; uint8_t namespaces, chroot; } child_ready;
		struct { struct ipc_str step; int32_t err; } sandbox_failed;	/* step str(32) */
		struct {
			uint64_t conn;
			uint8_t socket_kind, backend_kind;	/* enum ipc_kind */
			struct ipc_str root;			/* str(4096, UTF-8) */
			uint8_t egress;				/* enum ipc_egress */
			struct ipc_str proxy;			/* str(512) */
			struct ipc_str noproxy;			/* str(1024) */
			uint8_t proxy_available;
			uint32_t backend_timeout_ms;
			uint8_t commit_needs_body;	/* the backend's, measured */
			uint8_t backend_rootless;	/* a rootless podman service */
		} conn_start;
		struct { uint8_t level; struct ipc_str text; } log;	/* text str(1024, UTF-8) */
		struct { uint8_t reason; } bye;
		struct { uint8_t ready; } zygote_spawn;	/* CHILD_READY wanted */
		struct { uint32_t pid; int32_t err; } zygote_spawned;

		struct {
			struct ipc_str method;		/* str(16) */
			struct ipc_str path;		/* str(8192) */
			struct ipc_str code;		/* str(32) */
			uint16_t status;
			uint32_t duration_ms;
			struct ipc_str detail;		/* str(1024) */
		} access;
		struct {
			uint32_t qid;
			uint8_t kind;			/* enum ipc_fact_kind */
			uint8_t api;			/* enum ipc_api */
			struct ipc_str prefix;		/* str(32) */
			struct ipc_str ref;		/* str(1024) */
		} fact_query;
		struct {
			uint32_t qid;
			uint8_t result;			/* enum ipc_fact_result */
			struct ipc_str id;		/* str(255) */
		} fact_answer;
		struct { uint32_t qid; struct ipc_str path; } path_query;	/* str(4096) */
		struct {
			uint32_t qid;
			uint8_t verdict;		/* enum ipc_path_verdict */
			struct ipc_str resolved;	/* str(4096) */
		} path_answer;
		struct {
			struct ipc_str method;		/* str(16) */
			struct ipc_str target;		/* str(196608) */
			uint16_t nheaders;		/* <= IPC_FORWARD_HDRS_MAX */
			struct ipc_header_pair headers[IPC_FORWARD_HDRS_MAX];
		} forward;
		struct { struct ipc_str data; } body;		/* bytes(65000) */
		struct {
			uint8_t outcome;			/* enum ipc_outcome */
			struct ipc_str code;			/* str(32) */
			uint16_t status;
			struct ipc_str detail;			/* str(1024) */
			struct ipc_str hint;	/* str(512): the refusal's own
						   hint, "" for the code's */
		} verdict;
		struct { uint8_t mode; } response_end;	/* enum ipc_end_mode */
		struct { struct ipc_str data; } client_data;	/* bytes(65000) */
		struct { uint32_t len; } body_spliced;	/* 1..IPC_SPLICED_MAX */
		struct {
			uint8_t kind;			/* enum ipc_check_kind */
			uint8_t podman, libpod;		/* the backend, the API */
			uint32_t hold;			/* archives: bytes held */
			struct ipc_str query;		/* str(196608) */
		} check_start;
		struct { uint64_t consumed, approved; } check_progress;
		/* ref str(1024); id str(64): of a load's name, the id of the
		   image the archive gives it (hex), "" unknown or not a load */
		struct { struct ipc_str ref, id; } check_image;
		struct { uint64_t consumed, until; } check_skip;
		struct { uint64_t from; } check_skip_at;
		struct {
			uint8_t ok;
			struct ipc_str code;		/* str(32) */
			struct ipc_str detail;		/* str(1024, UTF-8) */
			struct ipc_str hint;		/* str(512, UTF-8) */
		} check_verdict;
		/* BODY_END, DONE: no fields */
	} u;
};


/*
 * Static human text for an IPC_E* code (or IPC_OK); "unknown error"
 * otherwise.
 */
const char *ipc_strerror(int err);

/* Static name of a message type ("FORWARD"), or "UNKNOWN". */
const char *ipc_type_name(unsigned type);

/*
 * Encode m into buf (capacity cap bytes; the datagram never exceeds
 * min(cap, IPC_MSG_MAX), so pass IPC_MSG_MAX to encode every legal
 * message). Applies every field limit the decoder applies (privsep.md
 * §6.3, §7). m->fd is ignored. Returns the datagram length (> 0), or
 * IPC_ETYPE (unknown type), IPC_ERANGE (enum/bool out of range, or req != 0
 * on a connection-level type), IPC_ETOOBIG (field over its limit, or the
 * message does not fit), IPC_ESTR (NUL or bad UTF-8 in a str field, NULL
 * data with a length). buf holds garbage after an error.
 */
int ipc_encode(const struct ipc_msg *m, unsigned char *buf, size_t cap);

/*
 * 1 for the message types that carry exactly one descriptor with
 * SCM_RIGHTS (CONN_START, ZYGOTE_SPAWN, BODY_PIPE, CHECK_START,
 * CHECK_CONFIG), 0 for
 * every other type.
 */
int ipc_type_carries_fd(unsigned type);

/*
 * Decode the datagram buf[0..len) into m (cleared first; m->fd = -1).
 * String fields point into buf (which must outlive m). Header checked
 * first, then every field against its limit; exactly len bytes must be
 * consumed (privsep.md §6.3). Does not look at descriptors. Returns
 * IPC_OK, or IPC_ESHORT (shorter than header or fields), IPC_ETYPE (bad
 * magic, flags != 0, unknown type), IPC_ELONG (header len != payload, or
 * trailing bytes), IPC_ETOOBIG (len > IPC_MSG_MAX or a field over its
 * limit), IPC_ERANGE (enum/bool out of range, or req != 0 on a
 * connection-level type), IPC_ESTR.
 */
int ipc_decode(const unsigned char *buf, size_t len, struct ipc_msg *m);

/*
 * Create the per-child socket pair (privsep.md §6.1): socketpair(AF_UNIX,
 * SOCK_SEQPACKET | SOCK_CLOEXEC), both ends blocking. Asks for IPC_SOCKBUF
 * send/receive buffers (SO_*BUFFORCE, else SO_*BUF) and accepts what the
 * kernel grants down to one IPC_MSG_MAX datagram plus 4 KiB (see msg.c).
 * Returns 0 with sv[0], sv[1] set (the caller owns them), or -1 with
 * errno (ENOBUFS when the buffers are smaller); after a buffer failure
 * both ends are closed and sv[] = -1.
 */
int ipc_socketpair(int sv[2]);

/*
 * Encode m (ipc_encode) and send it as one datagram on fd with
 * MSG_NOSIGNAL | flags (MSG_DONTWAIT for a non-blocking send). For
 * IPC_CONN_START, IPC_ZYGOTE_SPAWN and IPC_BODY_PIPE, m->fd (>= 0, still owned by the
 * caller) travels in the same sendmsg with SCM_RIGHTS; for every other
 * type m->fd is ignored.
 * Not reentrant: one static IPC_MSG_MAX buffer (single-threaded processes,
 * never from a signal handler). Returns IPC_OK, IPC_EAGAIN, IPC_EFD
 * (CONN_START, ZYGOTE_SPAWN or BODY_PIPE without a descriptor), IPC_ESYS (errno set), or an encode
 * error.
 */
int ipc_send(int fd, const struct ipc_msg *m, int flags);

/*
 * Receive one datagram on fd into buf (capacity cap >= IPC_MSG_MAX + 1,
 * else IPC_ESYS with EINVAL) and decode it into m (strings point into buf;
 * m->fd = -1 unless stated). Uses MSG_CMSG_CLOEXEC | flags; MSG_TRUNC or
 * MSG_CTRUNC -> IPC_ETRUNC. A descriptor is accepted only with CONN_START
 * ZYGOTE_SPAWN or BODY_PIPE (ipc_type_carries_fd)
 * when accept_fd is set: then exactly one is required and stored in m->fd
 * (the caller owns it). Any other descriptor, or control data other than
 * SCM_RIGHTS, is closed and gives IPC_EFD. Every received descriptor is
 * closed on every error. Returns IPC_OK, IPC_EOF (end-of-file: the peer
 * closed or shut down), IPC_EAGAIN, IPC_ESYS (errno set), IPC_EFD,
 * IPC_ETRUNC, IPC_ESHORT for a zero-length datagram from a peer that is
 * still there (it reads like end-of-file; tests/hostile/rows_ipc.py), or an
 * ipc_decode code.
 */
int ipc_recv(int fd, unsigned char *buf, size_t cap, struct ipc_msg *m,
    int accept_fd, int flags);

/*
 * Render the message's fields for the debug IPC audit line (cli.md
 * §14.4) into out (outsz bytes, always NUL-terminated when outsz > 0):
 * one " name=value" per field, in catalogue order, names as in
 * privsep.md §7 (SANDBOX_FAILED's err is "errno"). Integers in decimal;
 * enumerations by their spec names ("kind=container", "result=not-owned",
 * "body_kind=stream-chunked"; an out-of-range value as its number);
 * str fields escaped: a value that is empty or contains a space, '"',
 * '\\', '=' or a byte outside 0x21-0x7E is written as "..." with \" \\
 * and \xHH (upper-case hex; '=' and bytes outside 0x20-0x7E: '=' only
 * ever separates a name from its value, doc/audit.md); bytes fields as
 * "<name>_len=<n>"; FORWARD's header list as "headers_n=<n>" only (no
 * names or values: they can carry credentials). type and req are not
 * included (the caller prints them). Output that does not fit is cut at
 * a unit boundary (never inside an escape). Returns the number of bytes
 * written, excluding the NUL; 0 for an unknown type.
 */
int ipc_format_fields(const struct ipc_msg *m, char *out, size_t outsz);

/*
 * The same fields as one JSON object for the JSON log (cli.md §14.4
 * "fields"): numbers bare, enumerations and strings as JSON strings
 * (http.md §11.3 escaping, '=' as \u003d: cg_json_escape_log), blobs
 * as <name>_len. Writes at most
 * outsz bytes with the NUL; when the fields do not fit, writes "{}".
 * Returns the length, or -1 when outsz < 3.
 */
int ipc_format_fields_json(const struct ipc_msg *m, char *out, size_t outsz);

#endif
