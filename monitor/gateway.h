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
	volatile int stop_signal;
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
	unsigned nfacts, nfact_q, npath_q;
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

/* Handle readable IPC on c; returns 0, or -1 when c must be dropped. */
int conn_on_ipc(struct conn *c);
/* Drive the backend side of c after poll; -1 when c must be dropped. */
int conn_on_backend(struct conn *c, short revents);
/* Flush queued messages to the child; -1 on a broken socket. */
int conn_flush(struct conn *c);
/* Check deadlines at now (ms); -1 when c must be dropped. */
int conn_on_timer(struct conn *c, long long now);
/* Events to poll for on the backend fd (0 when none). */
short conn_backend_events(const struct conn *c);
/* Close every descriptor of c and free it (does not kill the child). */
void conn_free(struct conn *c);

/* ---- monitor/serve.c */
long long now_ms(void);
/* Write the INFO access line (cli.md §14.3). */
void access_line(struct conn *c, const char *method, const char *path,
    const char *decision, const char *code, int status, unsigned duration_ms,
    const char *detail);
/* Debug IPC audit line (cli.md §14.4). */
void ipc_audit(const struct conn *c, const char *dir, const struct ipc_msg *m);

/* ---- monitor/facts.c */

/*
 * Verdict of an inspect response (routes.md §9.3): status and body of
 * the inspect, ROOT. Returns CG_OWNED with the id in id_out, CG_NOT_OWNED
 * (2xx not owned, or 404) or CG_UNEXPECTED.
 */
enum cg_fact_result facts_verdict(enum cg_fact_kind kind, enum cg_api api,
    int status, const char *body, size_t body_len, const char *root,
    char id_out[CG_ID_MAX + 1]);

/*
 * The internal inspect request for kind/api/prefix/ref (routes.md §9.2,
 * http.md §7.5). Returns a malloc'd request, its length in *len.
 */
char *facts_inspect_request(enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, size_t *len);

/* ---- monitor/pathres.c */

/*
 * Resolve an absolute bind source (policy.md §4.4) against gw's roots,
 * excluded roots and protected sockets. out: CG_PATH_MAX + 1 bytes, the
 * resolved path when allowed, the roots text when outside.
 */
enum cg_path_verdict pathres_resolve(const struct gateway *gw,
    const char *path, char out[CG_PATH_MAX + 1]);

/*
 * Resolve path with the algorithm of policy.md §4.4 step 1 only. Returns 0
 * with the result in out (CG_PATH_MAX + 1 bytes) or -1 (unresolvable).
 */
int pathres_walk(const char *path, char out[CG_PATH_MAX + 1]);

/* ---- monitor/backend.c */

/*
 * Start a non-blocking connection to the backend socket path. Returns the
 * fd, or -1 (unreachable).
 */
int backend_connect(const char *path);

#endif
