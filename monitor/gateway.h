/*
 * The monitor's state (privsep.md §3): one struct gateway for the
 * process, one struct conn per request-parser child.
 */
#ifndef CG_GATEWAY_H
#define CG_GATEWAY_H

#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include "http/http.h"
#include "ipc/proto.h"
#include "monitor/config.h"
#include "policy/policy.h"

#define CG_SOCKETS	2	/* podman.sock, docker.sock */
#define CG_FACTS_MAX	(IPC_FACT_QUERIES_MAX * 2)

/* One listening socket and the backend it maps to (cli.md §8.2). */
struct listener {
	int fd;			/* -1 when not served */
	enum cg_kind socket_kind;
	enum cg_kind backend_kind;
	char path[256];
	char backend_path[CG_PATH_MAX + 1];
	dev_t dev;		/* the bound inode, for unlinking (§9.3) */
	ino_t ino;
	int proxy_available;
	char proxy[600];
	char noproxy[1100];
};

struct gateway {
	struct cg_config *cfg;
	char root[CG_PATH_MAX + 1];		/* ROOT (cli.md §4) */
	char run_dir[CG_PATH_MAX + 1];
	char run_dir_resolved[CG_PATH_MAX + 1];
	char sandbox_dir[CG_PATH_MAX + 1];	/* <run-dir>/.sandbox when root */
	char pid_file[CG_PATH_MAX + 1];
	int pid_fd;
	int exe_fd;			/* this binary, for fexecve of children */
	/* bind roots: ROOT then --extra-bind-root (policy.md §4.4) */
	char *bind_roots[1 + CG_EXTRA_ROOTS_MAX];
	int nbind_roots;
	char bind_roots_text[CG_PATH_MAX + 1];
	char *excluded[8];
	int nexcluded;
	struct listener lis[CG_SOCKETS];
	unsigned backend_timeout_ms;

	TAILQ_HEAD(, conn) conns;
	unsigned nclients;		/* connections with a client (§1.2) */
	uint64_t next_conn_id;
	struct conn *spare;		/* a sandboxed child waiting for work */
	long long idle_since;		/* ms; -1 while a client is connected */
	long long accept_paused_until;	/* ms; after EMFILE */
	volatile int stop_signal;
	char sandbox_failure[160];	/* "<step>: <error>" of a failed child */
	int sandbox_logged;		/* the sandbox INFO line was written */
	int stopping;			/* graceful exit: children are told to go */
};

/* A datagram queued for a child whose socket is full. */
struct outmsg {
	TAILQ_ENTRY(outmsg) entry;
	size_t len;
	unsigned char data[];
};

/* An internal or forwarded exchange with the backend. */
struct bcall {
	int fd;
	char *out;			/* bytes to write */
	size_t outlen, outoff;
	char *in;			/* internal calls: the whole response */
	size_t inlen, incap;
	long long deadline;		/* ms, monotonic; 0 = none */
	int internal;
};

enum fact_stage { FS_NONE, FS_INSPECT, FS_EXEC_CONTAINER };
enum req_state {
	RS_IDLE,		/* waiting for the next FORWARD or question */
	RS_FACT,		/* an inspect for a FACT_QUERY is running */
	RS_BODY,		/* receiving the JSON body of a FORWARD */
	RS_PHASE,		/* monitor-side named-resource phase */
	RS_SENDING,		/* writing the forwarded head (and JSON body) */
	RS_STREAM,		/* relaying a streamed body; response may start */
	RS_RESPONSE,		/* relaying the response */
	RS_SWITCHED,		/* raw two-way relay (http.md §9) */
	RS_WAIT_DONE,		/* backend finished; waiting for DONE */
};

struct fact {
	uint8_t kind;
	char id[CG_ID_MAX + 1];		/* owned id (exec: the exec id) */
	char ref[1025];			/* the ref as asked */
};

struct conn {
	TAILQ_ENTRY(conn) entry;
	struct gateway *gw;
	uint64_t id;			/* 0 until CONN_START */
	pid_t pid;
	int ipc;
	int client;			/* held until the child is ready */
	int lis;			/* index into gw->lis */
	int ready;			/* CHILD_READY seen */
	int started;			/* CONN_START sent */
	int dead;
	long long accepted_ms;
	TAILQ_HEAD(, outmsg) outq;

	/* the current request */
	uint32_t req;
	enum req_state rs;
	struct fact facts[CG_FACTS_MAX];
	unsigned nfacts, nfact_q, npath_q, nlogs;
	/* running fact question */
	uint32_t qid;
	uint8_t q_kind, q_api;
	enum fact_stage q_stage;
	char q_prefix[33], q_ref[1025];
	char q_exec_container[CG_ID_MAX + 1];

	/* the FORWARD being served */
	char method[17];
	char *target;
	size_t target_len;
	char *log_path;
	char action[33];
	uint8_t api, body_kind;
	uint64_t body_len, body_got;
	int hijack, no_head_timeout, is_head;
	char *json;			/* the JSON body as received */
	char *head;			/* the serialised forwarded head */
	size_t head_len;
	uint32_t elapsed_ms;
	long long fwd_ms;		/* when FORWARD arrived */
	/* monitor phase */
	const char *ph_names[2][64];
	size_t ph_n[2];
	size_t ph_i;
	int ph_kind;			/* 0 networks, 1 volumes, 2 pre-creates */
	unsigned char ph_missing[64];	/* volume i answered 404 */
	int ph_step;
	void *ph_tree;
	int replay_unknown_fact;	/* the replay asked an unanswered fact */
	unsigned replay_paths;		/* bind sources the replay resolved */
	int fwd_pending;		/* a FORWARD awaits its VERDICT line */

	struct bcall bc;		/* the backend exchange */
	int stream_done;		/* BODY_END seen */
	/* response relay */
	char *rhead;
	size_t rheadlen;
	int head_done, interim;
	int framing;			/* 0 none, 1 length, 2 chunked, 3 eof */
	uint64_t remaining;
	struct http_chunked chunk;
	int backend_eof, client_eof, sent_end;
	int status;
};

/* ---- monitor/conn.c */

/*
 * Read up to 16 pending datagrams from c's child (non-blocking) and
 * dispatch them by state (privsep.md §7-§10). Returns 0, or -1 when c
 * must be dropped: the child ended (EOF, BYE, SANDBOX_FAILED; c->dead
 * set) or broke the protocol (logged, child SIGKILLed; the caller sets
 * c->dead).
 */
int conn_on_ipc(struct conn *c);
/*
 * Drive c's backend exchange after poll() returned revents on c->bc.fd:
 * write queued bytes, read the answer, relay it to the child. Failures
 * are answered to the child (VERDICT, BACKEND_END). Always returns 0
 * (XXX: c is never dropped from here).
 */
int conn_on_backend(struct conn *c, short revents);
/*
 * Send c's queued datagrams without blocking; stops at EAGAIN. Returns 0,
 * or -1 on any other send error (the socket is broken).
 */
int conn_flush(struct conn *c);
/*
 * Apply c's backend deadline at now (monotonic ms, now_ms()): 504 or a
 * TIMEOUT answer to the child when it passed. Always returns 0 (XXX: the
 * int is kept for a future "drop c").
 */
int conn_on_timer(struct conn *c, long long now);
/* poll() events wanted on c->bc.fd: POLLOUT/POLLIN, 0 when none. */
short conn_backend_events(const struct conn *c);
/*
 * Close every descriptor of c and free c and everything it owns. Does not
 * kill or reap the child, and does not unlink c from gw->conns (the
 * caller does both first).
 */
void conn_free(struct conn *c);

/* ---- monitor/serve.c */

/* CLOCK_MONOTONIC in milliseconds. */
long long now_ms(void);
/*
 * Write the INFO access line (cli.md §14.3) for c. Strings are
 * NUL-terminated; path ("-" when unknown) and detail are escaped for the
 * text format (log_quote), method, decision ("allow", "deny", "error")
 * and code are written as given, so they must be plain tokens; code NULL
 * prints "-" (JSON null); detail NULL omits the field, else it is always
 * in quotes.
 */
void access_line(struct conn *c, const char *method, const char *path,
    const char *decision, const char *code, int status, unsigned duration_ms,
    const char *detail);
/*
 * DEBUG IPC audit line (cli.md §14.4) for m; dir is "to-child" or
 * "to-monitor". No-op below debug level. Fields are cut at 2 KiB
 * (ipc_format_fields). XXX the JSON format gets no conn/dir/type/req/
 * fields members, which §14.4 asks for.
 */
void ipc_audit(const struct conn *c, const char *dir, const struct ipc_msg *m);
/*
 * Debug line after a FORWARD (cli.md §14.4): verdict "forwarded",
 * "refused" (code: its reason code) or "violation" (code NULL); code is
 * one of the closed vocabulary, so it needs no escaping.
 */
void ipc_audit_verdict(const struct conn *c, const char *verdict,
    const char *code);

/* ---- monitor/facts.c */

/*
 * Verdict of an inspect response (routes.md §9.3): status and body
 * body[0..body_len) of the inspect, ROOT as root. Returns CG_OWNED with
 * the id in id_out, CG_NOT_OWNED (404, or a 2xx without the project label
 * = root) or CG_UNEXPECTED (other status, invalid JSON, key collisions
 * (policy.md §0.2), missing or invalid id, label key spelling variant).
 * For CG_FACT_EXEC, CG_OWNED means only "exec found" with its
 * ContainerID in id_out; the caller must check that container next
 * (routes.md §9.4). id_out is written only on CG_OWNED.
 */
enum cg_fact_result facts_verdict(enum cg_fact_kind kind, enum cg_api api,
    int status, const char *body, size_t body_len, const char *root,
    char id_out[CG_ID_MAX + 1]);

/*
 * The internal inspect request for kind/api/prefix/ref (routes.md §9.2,
 * http.md §7.5): "GET <prefix><inspect path> HTTP/1.1", Host: docker,
 * Connection: close. prefix and ref are spliced verbatim: the caller must
 * have validated them (no CR, LF, space, '?', '#', '%'). Pods always use
 * the libpod path. Returns a malloc'd request (the caller frees it), its
 * length in *len; exits through xoom() on allocation failure.
 */
char *facts_inspect_request(enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, size_t *len);

/* ---- monitor/pathres.c */

/*
 * Resolve an absolute bind source (policy.md §4.4) against gw's roots.
 * Checked in order: unresolvable (pathres_walk), under an excluded root,
 * equal to or above a backend socket, under a bind root. out
 * (CG_PATH_MAX + 1 bytes) receives the resolved path for CG_PATH_ALLOWED,
 * the bind roots joined by ", " for CG_PATH_OUTSIDE, "" otherwise.
 */
enum cg_path_verdict pathres_resolve(const struct gateway *gw,
    const char *path, char out[CG_PATH_MAX + 1]);

/*
 * Resolve path with the algorithm of policy.md §4.4 step 1 only: path
 * absolute and at most CG_PATH_MAX bytes; symlinks followed (at most 40),
 * components below the first missing one appended lexically, ".." popped
 * (never above "/"). Returns 0 with the result in out (CG_PATH_MAX + 1
 * bytes), or -1 (unresolvable: relative or too long, a lookup error other
 * than ENOENT, a non-directory with components below, too many symlinks,
 * more than 256 lookups or 128 components); out is undefined then.
 */
int pathres_walk(const char *path, char out[CG_PATH_MAX + 1]);

/* ---- monitor/serve.c (there is no monitor/backend.c) */

/*
 * Start a non-blocking connection (SOCK_CLOEXEC) to the backend socket at
 * path (NUL-terminated). Returns the fd, possibly still connecting
 * (EINPROGRESS: the caller polls for POLLOUT and checks SO_ERROR), or -1
 * (path longer than sun_path, or socket/connect failed with errno).
 */
int backend_connect(const char *path);

#endif
