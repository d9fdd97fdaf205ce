/*
 * The monitor's state (privsep.md §3): one struct gateway for the
 * process, one struct conn per request-parser child.
 */
#ifndef CG_GATEWAY_H
#define CG_GATEWAY_H

#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include "base/fifo.h"
#include "base/rpipe.h"
#include "http/http.h"
#include "ipc/proto.h"
#include "ipc/queue.h"
#include "monitor/exchange/audit.h"
#include "monitor/advisory.h"
#include "monitor/config.h"
#include "policy/imgdest.h"
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
	/*
	 * The backend fails a compat commit without a body (podman 4.3:
	 * 500 "Decode(): EOF"), measured at start-up (ops/discover.c):
	 * an empty compat commit body is then sent as "{}" (usability.sh
	 * u_commit).
	 */
	int commit_needs_body;
	/*
	 * A rootless podman service (its socket is not root's; measured at
	 * start-up, ops/discover.c): builds get no network (policy.md §10
	 * as amended, policy/build.c).
	 */
	int backend_rootless;
	/*
	 * The daemon behind it, by the Server field of its GET /_ping at
	 * start-up (ops/discover.c). The monitor answers system df and
	 * build prune itself only for the daemons whose answers and builders
	 * it was measured on (monitor/exchange/answer.c, doc/answers.md).
	 */
	enum backend_ident {
		BACKEND_UNKNOWN = 0,	/* no or another Server field */
		BACKEND_LIBPOD,		/* "Server: Libpod/..." (podman) */
		BACKEND_DOCKERD,	/* "Server: Docker/..." (dockerd) */
	} backend_ident;
	/* its GET /version at start-up, and the advisories that apply
	   (bits 1 << enum advisory_id; monitor/advisory.c) */
	struct backend_version ver;
	unsigned advisories;
	char ver_ping[48];	/* the version in its _ping's Server field */
	int ver_pending;	/* its runtime is asked after start-up */
};

/* A client refused with 503, lingering (monitor/linger.c). */
struct lingering {
	int fd;
	long long start, last;		/* ms: accepted, last byte read */
	size_t bytes;			/* read and discarded */
};
#define LINGER_SLOTS	64

/*
 * Forwarded requests whose connection ended before the answer, whose
 * answer is still read for their record (monitor/exchange/drain.c), at most.
 */
#define DRAIN_SLOTS	16
struct drain;

/*
 * Connections whose slot was given to a newcomer (accept.c) but whose
 * request parser has not ended yet, at most; each is ended RECLAIM_KILL_MS
 * after its slot was taken.
 */
#define RECLAIMED_MAX	16
#define RECLAIM_KILL_MS	2000

/*
 * Idle keep-alive connections to one backend socket (doc/privsep.md
 * "Scaling"). Bounded; a connection idle longer than POOL_IDLE_MS is closed.
 * They stay in the epoll set (EV_POOL, for input): one the backend closes or
 * sends stray bytes on is dropped when that is reported (backend_pool_event).
 */
#define POOL_MAX	32
#define POOL_IDLE_MS	30000
struct bpool {
	int n;
	int fd[POOL_MAX];
	long long since[POOL_MAX];	/* ms: put back */
	dev_t dev;			/* the backend socket file the kept */
	ino_t ino;			/* connections reached (backend.c) */
};

struct evloop;
struct conn;

/*
 * The monitor's memory budget (monitor/budget.c): the limit
 * split into a fixed part (the program, every connection slot's small
 * state), the area of the one parse tree at a time, and the pool that
 * bodies, answers and large relay buffers are taken from.
 */
struct budget {
	uint64_t limit;			/* --memory-budget, bytes */
	uint64_t fixed;			/* reserved at start-up */
	uint64_t parse;			/* json_set_tree_limit() */
	uint64_t pool;			/* the rest: taken and given back */
	uint64_t used;			/* of pool, now */
	uint64_t peak;			/* of pool, the most so far */
	unsigned long refused;		/* requests answered 503 for it */
	int admitting;			/* budget_admit() runs */
	int admit_due;			/* room was given back: the loop admits */
	TAILQ_HEAD(, conn) waiting;	/* FORWARDs waiting for room, oldest
					   first */
};

/* What an epoll registration belongs to (monitor/evloop.c). */
enum ev_kind {
	EV_NONE = 0,
	EV_LISTENER,		/* index: gw->lis[] */
	EV_ZYGOTE,
	EV_LINGER,		/* a 503 being lingered on */
	EV_POOL,		/* a kept backend connection; index: gw->pools[] */
	EV_DRAIN,		/* an orphaned answer; index: gw->drains[] */
	EV_TASK,		/* the monitor's own GETs; index: slot (task.c) */
	EV_CONN_IPC,		/* the three roles of a connection, in order */
	EV_CONN_BACKEND,
	EV_CONN_CLIENT,
	EV_CONN_CHECK,		/* the checker of its upload (check.c) */
};

/* One ready descriptor, as ev_wait() reports it. */
struct ev_event {
	int fd;
	uint32_t gen;		/* its registration (ev_current) */
	int kind;		/* enum ev_kind */
	int index;
	struct conn *c;		/* EV_CONN_* */
	short revents;		/* POLLIN, POLLOUT, POLLHUP, POLLERR */
};

struct gateway {
	struct cg_config *cfg;
	struct evloop *ev;		/* NULL: no epoll set (unit tests) */
	struct conn **dirty;		/* touched this turn: sync or drop */
	size_t ndirty, capdirty;
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
	/* children whose connection ended, not yet reaped (serve.c) */
	TAILQ_HEAD(exiting_head, exiting) exiting;
	/* the zygote children are forked from (monitor/zygote.c) */
	struct {
		pid_t pid;		/* -1 when none runs */
		int fd;			/* its control socket; -1 */
		int ready;		/* its CHILD_READY seen */
		long long started_ms;	/* when it was started */
		int status;		/* wait status zygote_stop() reaped; -1 */
		TAILQ_HEAD(, conn) pending;	/* spawns awaiting a pid */
		unsigned npending;		/* their number */
	} zyg;
	int selftest;			/* the start-up self-test runs: its
					   child reports CHILD_READY */
	unsigned nclients;		/* connections with a client (§1.2) */
	unsigned nreclaimed;		/* reclaimed ones not dropped yet */
	uint64_t next_conn_id;
	struct conn *spare;		/* a sandboxed child waiting for work */
	unsigned ck_waiting;		/* uploads waiting for a checker */
	long long idle_since;		/* ms; -1 while a client is connected */
	long long accept_paused_until;	/* ms; after EMFILE */
	volatile int stop_signal;
	volatile int child_exited;	/* SIGCHLD seen: reap */
	sigset_t loop_mask;		/* the mask inside epoll_pwait (serve.c) */
	char sandbox_failure[160];	/* "<step>: <error>" of a failed child */
	int sandbox_logged;		/* the sandbox INFO line was written */
	int sandbox_ns, sandbox_chroot;	/* what the first CHILD_READY said */
	int sandbox_full;		/* monitor/serve.c sandbox_level() */
	int egress_explained;		/* the egress WARNING was explained */
	int stopping;			/* graceful exit: children are told to go */
	struct lingering lingers[LINGER_SLOTS];
	int nlingers;
	struct drain *drains[DRAIN_SLOTS];
	int ndrains;
	/* keep-alive backend connections, per listener (a listener whose
	   backend is another's shares that one's: backend.c pool_of()) */
	struct bpool pools[CG_SOCKETS];
	int pool_max;			/* <= POOL_MAX; 0: no pooling */
	void *ocache;			/* ownership of full ids (ocache.c) */
	unsigned nocache;
	/* ids of images whose ONBUILD triggers passed (baseimg.c) */
	char (*ob_ids)[65];
	unsigned ob_n, ob_next;
	/* the project's own network (projnet.c) */
	struct conn *pn_holder;		/* creating it now; others wait */
	int pn_wake;			/* it was released: waiters go on */
	char pn_salt[9];		/* a squatted name's suffix (8 hex) */
	int pn_warned;			/* its squatting was logged */
	struct budget budget;		/* memory (monitor/budget.c) */
	struct pins *pins;		/* pinned bind sources (pins.c); NULL
					   when the gateway is not root */
	int record_append;		/* the confined monitor may append to
					   its record (Landlock: the log
					   reopen's open is allowed) */
};

/*
 * Bounds of one connection's relay buffers (doc/reliability.md "Memory
 * bounds"; doc/privsep.md "Memory"): the monitor reads a socket only while the
 * buffer it fills is below its bound.
 */
#define RELAY_DOWN_MAX	(256u << 10)	/* backend -> client bytes waiting */
#define RELAY_UP_MAX	(256u << 10)	/* client/child -> backend bytes waiting */
/*
 * A response body from this many bytes on (Content-Length), until close,
 * a chunk with this much data, and a switched stream's backend direction
 * go through the relay pipe (splice(2), base/rpipe.h; doc/privsep.md
 * "Relaying"): fewer copies and system calls than through c->down. Smaller
 * pieces are copied.
 */
#define RELAY_SPLICE_MIN	(16u << 10)
/*
 * Without a stream reserve (budget_stream), a connection's relay
 * buffers in the monitor's heap stay below this (the relay pipe's bytes
 * are the kernel's); with one, below RELAY_DOWN_MAX and RELAY_UP_MAX.
 * STREAM_RESERVE is what the larger bounds may take (membounds
 * stream_exchange): taken from the budget's pool once, given back at
 * the end of the request.
 */
#define RELAY_FLOOR	(32u << 10)
#define STREAM_RESERVE	(2u << 20)

/* An internal or forwarded exchange with the backend. */
struct bcall {
	int fd;
	struct fifo out;		/* bytes to write */
	char *in;			/* internal calls: the whole response */
	size_t inlen, incap;
	long long deadline;		/* ms, monotonic; 0 = none */
	int internal;
	int head_only;			/* an internal HEAD: its answer has
					   no body whatever its framing says */
	/* keep-alive (monitor/exchange/backend.c "pool") */
	int reused;			/* fd came from the pool */
	char *retry;			/* the request, for one retry when a
					   pooled connection turns out closed */
	size_t retry_len;
	int keep;			/* the response leaves it reusable */
	int sknown;			/* the backend socket file it came */
	dev_t sdev;			/* through (pool: a replaced or gone */
	ino_t sino;			/* file drops the kept ones) */
	/* internal calls: where the response ends (backend_read_internal) */
	int in_head;			/* head length once parsed; 0 */
	int in_framing;			/* enum framing of the response */
	uint64_t in_clen;
	size_t in_scan;			/* body bytes fed to in_chunk */
	struct http_chunked in_chunk;
};


enum fact_stage { FS_NONE, FS_INSPECT, FS_EXEC_CONTAINER, FS_OWN_PREFIX,
	FS_PN_POD,
	FS_PN_INSPECT, FS_PN_LIST };

/* A checked upload (monitor/exchange/check.c; doc/privsep.md "Builds and archives"). */
enum { CK_NONE = 0, CK_BUILD, CK_ARCHIVE, CK_LOAD };
enum { CK_OFF = 0, CK_WAITING, CK_RUNNING, CK_OK, CK_REFUSED,
	CK_IMAGES };		/* approved; its base images (a load: its
				   names) are being checked */
#define CK_IMAGES_MAX	16	/* base images per build (DF_BASES_MAX) */
/* the step of a build's base image (monitor/exchange/baseimg.c) */
enum { IMG_NONE = 0, IMG_INSPECT, IMG_PULL, IMG_EXPORT, IMG_VERDICT };
struct ckstate {
	int kind;			/* CK_NONE, CK_BUILD, CK_ARCHIVE, CK_LOAD */
	int state;			/* CK_OFF ... */
	pid_t pid;			/* the checker; -1 */
	int ipc;			/* its socket; -1 */
	int feed, feed_rd;		/* its pipe: the monitor's end, and the
					   one for CHECK_START; -1 */
	struct rpipe in;		/* the request parser's body pipe
					   (len: announced, not yet moved) */
	size_t in_teed;			/* bytes at in's head already teed */
	struct fifo pend;		/* BODY bytes not yet fed and held */
	size_t pend_fed, pend_held;	/* of pend: in the feed, in the hold */
	uint64_t fed;			/* body bytes in the hold pipe */
	uint64_t given;			/* body bytes in the checker's pipe */
	uint64_t consumed, approved;	/* the checker's CHECK_PROGRESS */
	uint64_t skip_to;		/* the end of the last gap the checker
					   asked for (CHECK_SKIP): the bytes
					   from given up to it go to the hold
					   pipe only */
	uint64_t released;		/* framed for the backend */
	int flushed;			/* CHECK_FLUSH sent, no approval since */
	int end_seen;			/* BODY_END */
	int final_sent;			/* the body's end is queued */
	/* an approved build's base images (monitor/exchange/baseimg.c) */
	char *img[CK_IMAGES_MAX];	/* as the checker named them */
	char img_want[CK_IMAGES_MAX][65];	/* a load's: the id of the
					   image the archive gives img[i],
					   "" unknown */
	size_t nimg, img_i;		/* how many; the one being checked */
	int img_step;			/* enum in baseimg.c; 0: none runs */
	int img_pulled;			/* img[img_i] was pulled for the build */
	char img_id[65];		/* its id, as the inspect answered */
	struct bcall parked;		/* the build's own backend connection,
					   its end held, while c->bc asks */
	int parked_on;
	int xfeed;			/* the export's pipe to the checker: the
					   monitor's end; -1 */
	int xfull;			/* that pipe was full: wait for the
					   checker's CHECK_PROGRESS */
};
enum req_state {
	RS_IDLE,		/* waiting for the next FORWARD or question */
	RS_FACT,		/* an inspect for a FACT_QUERY is running */
	RS_BODY,		/* receiving the JSON body of a FORWARD */
	RS_PHASE,		/* monitor-side named-resource phase */
	RS_BUDGET,		/* a FORWARD waiting for room in the memory
				   budget (monitor/budget.c) */
	RS_SENDING,		/* writing the forwarded head (and JSON body) */
	RS_STREAM,		/* relaying a streamed body; response may start */
	RS_RESPONSE,		/* writing the response to the client */
	RS_SWITCHED,		/* raw two-way relay (http.md §9) */
	RS_WAIT_DONE,		/* RESPONSE_END or VERDICT refused sent; DONE due */
};

/*
 * A request parser whose connection record is gone but which has not
 * been reaped yet: its exit is logged with its connection when it comes,
 * and one still running at kill_ms is killed.
 */
struct exiting {
	TAILQ_ENTRY(exiting) entry;
	pid_t pid;
	uint64_t conn;
	long long kill_ms;
	int expected;		/* killed by the monitor as planned (a
				   checker whose upload ended): DEBUG */
};

/* The body of a forwarded request, as the monitor derives it. */
enum fwd_body { FB_NONE, FB_JSON, FB_LENGTH, FB_CHUNKED };

/* How the response body ends (http.md §8.4, §9). */
enum framing { FR_NONE, FR_LENGTH, FR_CHUNKED, FR_EOF, FR_SWITCHED };

/* Internal answers a gateway-made answer is computed from (answer.c). */
#define ANSWER_PARTS	4
enum answer_kind { ANS_NONE = 0, ANS_DF, ANS_PRUNE_CHECK, ANS_NETWORKS };

struct fact {
	uint8_t kind;
	char id[CG_ID_MAX + 1];		/* owned id (exec: the exec id) */
	char ref[1025];			/* the ref as asked */
};

struct conn {
	TAILQ_ENTRY(conn) entry;
	TAILQ_ENTRY(conn) zentry;	/* in gw->zyg.pending while zpending */
	int zpending;			/* spawned, pid not yet reported */
	int orphan;			/* dropped while zpending: only its
					 * place in gw->zyg.pending is left */
	struct gateway *gw;
	uint64_t id;			/* 0 until CONN_START */
	pid_t pid;			/* -1 once reaped */
	int ipc;
	int client;			/* the monitor's copy of the client
					   (privsep.md §1 amendment); -1 once
					   the client is gone */
	int lis;			/* index into gw->lis */
	int wfd[4];			/* descriptors in the epoll set per role
					   (ipc, backend, client, checker); -1 */
	int client_unwatch;		/* a hang-up came between exchanges: the
					   client leaves the set (evloop.c) */
	int dirty;			/* in gw->dirty */
	int ready;			/* may be handed its connection: its
					   ZYGOTE_SPAWNED came (or, with
					   want_ready, its CHILD_READY) */
	int want_ready;			/* its CHILD_READY is due (the
					   start-up self-test's child) */

	int started;			/* CONN_START sent */
	int dead;
	long long accepted_ms;
	long long idle_ms;		/* since when it has no request (its
					   last one ended, or it was accepted) */
	int reclaimed;			/* its slot was given to a newer client */
	long long reclaim_kill_ms;	/* its child is killed if still there */
	pid_t peer_pid;			/* the client process (SO_PEERCRED), asked
					   at the limit only (accept.c peer_of):
					   0 not yet, -1 unknown */
	struct ipc_queue outq;		/* messages for the child */
	/* the memory budget (monitor/budget.c) */
	uint64_t held;			/* taken from the pool */
	uint64_t bneed;			/* RS_BUDGET: what the FORWARD needs */
	long long bdeadline;		/* RS_BUDGET: ms, then a 503 */
	int bwait;			/* in gw->budget.waiting */
	TAILQ_ENTRY(conn) bentry;
	int stream_big;			/* holds STREAM_RESERVE */
	int brefused;			/* the JSON body is read and dropped:
					   the budget had no room in time */

	/* the current request */
	uint32_t req;
	int begun;			/* REQUEST_BEGIN seen: its rest awaited */
	enum req_state rs;
	long long req_ms;		/* its first message arrived */
	int closing;			/* the connection ends after it */
	/* the request's owned facts: grown on demand up to CG_FACTS_MAX
	   (facts.c), not 164 KiB in every record (doc/privsep.md
	   "Memory") */
	struct fact *facts;
	unsigned facts_cap;
	unsigned nfacts, nfact_q, npath_q, nlogs;
	/* running fact question */
	uint32_t qid;
	uint8_t q_kind, q_api;
	enum fact_stage q_stage;
	char q_prefix[33], q_ref[1025];
	char q_exec_container[CG_ID_MAX + 1];

	/* the FORWARD being served, as the monitor derives it (verify.c) */
	char method[17];
	char *target;
	size_t target_len;
	char *log_path;			/* the target's path, at most 8192 */
	char action[33];
	uint8_t api;
	enum fwd_body body_kind;
	uint64_t body_len, body_got;
	int hijack, no_head_timeout, is_head, client_close;
	int synced;			/* VERDICT forwarding and DONE belong to
					   the exchange (policy_exchange_synced) */
	char *json;			/* the JSON body as received */
	char *reg_config;		/* a build's X-Registry-Config value, for
					   the pulls of its base images */
	int build_pull;			/* the build asked for fresh base images:
					   the monitor pulls them (baseimg.c) */
	char *head;			/* the serialised forwarded head */
	size_t head_len;
	/* monitor phase */
	const char *ph_names[2][64];
	size_t ph_n[2];
	size_t ph_i;
	int ph_kind;			/* 0 networks, 1 volumes, 2 pre-creates */
	unsigned char ph_missing[64];	/* volume i answered 404 */
	int ph_step;
	int ph_pub_all;			/* a create that publishes every
					   exposed port (monitor/exchange/publish.h) */
	struct cJSON *ph_exposed;	/* then its image's ExposedPorts, as
					   the image step read them, or NULL */
	int ph_pn;			/* the project network: 1 missing,
					   to be created; 0 otherwise */
	int ph_reloaded;		/* podman re-read its network files */
	int ph_pn_tries;		/* its creates that met podman's
					   interface race (phase.c) */
	int ph_create;			/* 1 container create, 2 pod create */
	int ph_pinned;			/* its bind sources are pinned */
	struct startcheck *sc;		/* a start being checked (startcheck.c) */
	char (*pin_names)[41];		/* pins made for this create (pins.c;
					   PIN_NAME_MAX + 1 bytes each) */
	unsigned npins;
	char *ph_names_mem;		/* the names above, copied out of the
					   body's tree (freed at once: a parse
					   of 8 MiB can take 300 MB:
					   doc/reliability.md) */
	/* the image step of the phase (monitor/exchange/image.c) */
	char *im_ref;			/* the image being checked, malloc'd */
	char *im_id;			/* its id (compat on podman), malloc'd */
	char *im_pin;			/* the id of the image that passed the
					   check, which the forwarded body is
					   made to name (image.c), malloc'd */
	int im_step;			/* its internal request, 0: none */
	int im_pod;			/* a pod create's infra image */
	int im_default;			/* podman's default infra image */
	/* the image names the request moves (monitor/exchange/imgdest.c) */
	struct image_dests dn;		/* names, malloc'd (conn_free_phase_tree) */
	size_t dn_i;			/* the one being inspected */
	int dn_step;			/* an inspect of dn runs */
	int replay_unknown_fact;	/* the replay asked an unanswered fact */
	unsigned replay_paths;		/* bind sources the replay resolved */
	int fwd_pending;		/* a FORWARD awaits its VERDICT line */

	struct bcall bc;		/* the backend exchange */
	long long body_deadline;	/* ms: the child must move request body
					   bytes by then (RS_BODY, RS_STREAM,
					   while the monitor waits for it);
					   0: none */
	int stream_started;		/* first BODY/BODY_END of a stream seen */
	int stream_done;		/* BODY_END seen, or no streamed body */
	int upload_failed;		/* the backend takes no more request bytes */
	struct fifo early;		/* hijack: client bytes read past the
					   request (CLIENT_DATA), not yet
					   written to the backend */
	size_t early_total;
	int early_done;			/* the empty CLIENT_DATA seen */

	/* response relay (relay.c) */
	int logged;			/* this request's record is out */
	struct audit_rec rec;		/* what its record gathers (audit.c) */
	char *rhead;			/* backend bytes until the final head */
	size_t rheadlen;
	int head_done, interim, status;
	enum framing framing;
	uint64_t remaining;
	struct http_chunked chunk;
	struct fifo down;		/* bytes for the client */
	struct rpipe dp;		/* bytes for the client after down's,
					   spliced (closed unless in use) */
	uint64_t sp_known;		/* chunked: bytes the decoder counted,
					   still in the backend socket */
	int sp_off;			/* no relay pipe for this exchange */
	int sp_wait;			/* copied bytes wait for dp to drain */
	int sp_sized;			/* the client's SO_SNDBUF raised
					   (once per connection) */
	struct rpipe up;		/* the body pipe offered to the child
					   (read end; len: bytes announced by
					   BODY_SPLICED, framed, not yet
					   written); for a checked upload the
					   hold pipe (both ends; len: released
					   bytes) */
	uint64_t up_next;		/* announced after them: the next
					   batch, framed as one chunk when
					   up.len is out (monitor/exchange/splice.c;
					   unchecked uploads) */
	unsigned char *stash;		/* a message of the child read while
					   announced bytes were still in the
					   pipe: handled once they are out
					   (order), reading stops till then */
	size_t stash_len;
	struct ckstate ck;		/* a checked upload (check.c) */
	int up_given;			/* BODY_PIPE sent for this request */
	int up_crlf;			/* a spliced chunk's CRLF is owed */
	int resp_done;			/* everything for the client is in down */
	int end_sent;			/* RESPONSE_END sent, or owed only
					   when asked (light_req) */
	/*
	 * Light exchanges kept alive end without RESPONSE_END:
	 * the child goes on reading its client meanwhile. light_req is the
	 * last such request over, whose RESPONSE_END keep-alive a DONE for
	 * it still asks for (0: none). ipc_paused: the child wrote while a
	 * light response was still going out; read once it is over.
	 */
	uint32_t light_req;
	int ipc_paused;
	int client_eof, backend_eof;	/* switched: directions read to EOF */
	int client_shut, backend_shut;	/* switched: write sides shut down */
	/* the forwarded path's full id, if its ownership is kept (ocache.c) */
	int oc_kind;			/* enum cg_fact_kind, or -1 */
	char oc_id[65];
	/* a post-filtered list answer (doc/filters.md, listfilter.c) */
	int lf_kind;			/* enum lf_kind of the verified route */
	enum cg_api lf_api;		/* its API, from the monitor's routing */
	int lf_on;			/* collecting this answer */
	char *lf_buf;			/* final head, then the wire body */
	size_t lf_len, lf_headlen;
	/* a filtered events stream (monitor/exchange/evfilter.c) */
	struct evfilter *ef;		/* the verified events route's filter */
	int ef_on;			/* filtering this answer, re-chunked */
	/* a route the monitor answers or pre-checks itself (answer.c) */
	int answer;			/* an RF_ANSWER route (verify.c) */
	int ans_kind;			/* enum answer_kind while one runs */
	unsigned ans_step;		/* internal answers collected so far */
	char *ans_body[ANSWER_PARTS];	/* their decoded bodies */
	size_t ans_len[ANSWER_PARTS];
};

/*
 * The monitor's files, from the event loop down (no file calls a file
 * above it):
 *   serve.c     start-up, the event loop, children, reaping
 *   accept.c    accepting clients, the connection limit, idle slots
 *   listen.c    binding the sockets, the egress probe (start-up)
 *   evloop.c    the epoll set behind the loop
 *   dispatch.c  the child's messages: state table, handlers, answers;
 *               routes backend events to the stage they belong to
 *   verify.c    FORWARD verification and the policy replay (§9)
 *   phase.c     the named-resource phase (policy.md §5, §11)
 *   facts.c     ownership questions: inspects and their verdicts
 *   relay.c     the backend's response, relayed towards the client
 *   splice.c    its large bodies moved through a pipe (splice(2))
 *   answer.c    routes the monitor answers itself (system df, build
 *               prune) and the libpod system prune pre-check
 *   listfilter.c list answers kept to the project's elements (pure)
 *   usage.c     the per-project df computed from backend answers (pure)
 *   ocache.c    ownership verdicts of full ids kept
 *   backend.c   backend connections, the forwarded head, VERDICT
 *   conn.c      one connection: sending to its child, violations, freeing
 *   audit.c     the audit record (access line), the IPC audit, the
 *               request parsers' LOG lines
 *   pathres.c   bind-source resolution
 */

/* ---- monitor/exchange/dispatch.c */

#define CONN_POLLFDS	4	/* the child's socket, the backend, the client,
				   the checker's socket */
/*
 * Descriptors per connection for the RLIMIT_NOFILE fit: the child's
 * socket, the backend, the client, the relay pipe and the body pipe's
 * read end (rpipe.h). A checked upload's five more (the checker's socket
 * and pipe, the hold pipe) are not counted: few uploads run at once, and
 * one that finds no descriptor is answered 503 (check.c).
 */
#define CONN_FDS	6

/*
 * Read up to 16 pending datagrams from c's child (non-blocking) and
 * dispatch them by state (privsep.md §7-§10). Returns 0, or -1 when c
 * must be dropped: the child ended (EOF, BYE, SANDBOX_FAILED; c->dead
 * set) or broke the protocol (logged, child SIGKILLed; the caller sets
 * c->dead).
 */
int conn_on_ipc(struct conn *c);
/*
 * The poll() entries c waits on, written to pfd: its child's socket
 * (always: POLLHUP says the child is gone), its backend connection and,
 * while the monitor answers a forwarded request, its client (always then,
 * for POLLHUP). Returns how many (1 to CONN_POLLFDS).
 */
int conn_pollfds(struct conn *c, struct pollfd pfd[CONN_POLLFDS]);
/*
 * Handle the revents poll() returned for the n entries conn_pollfds
 * wrote. Sets c->dead when c must be dropped (child gone or violation).
 */
void conn_on_poll(struct conn *c, const struct pollfd *pfd, int n);
/*
 * Apply c's backend deadline at now (monotonic ms, now_ms()): a TIMEOUT
 * answer to the child's question, a 504 refusal or response. Always
 * returns 0.
 */
int conn_on_timer(struct conn *c, long long now);
/*
 * Apply c's body deadline at now (monotonic ms): a request parser that
 * moved no request body bytes for --backend-timeout while the monitor
 * waited for them (a JSON body after FORWARD, a streamed upload) is ended
 * (SIGKILL, c->dead) after a WARNING and its request's record (an upload
 * it began: forwarded); a deadline reached while the monitor itself holds
 * the body back (backend not reading) is pushed on. Returns the next
 * deadline, or 0 for none.
 */
long long conn_on_body_timer(struct conn *c, long long now);

/* ---- monitor/exchange/check.c (doc/privsep.md "Builds and archives") */

/* CK_BUILD, CK_ARCHIVE or CK_LOAD for a verified streamed upload to be
   checked; CK_NONE for any other. */
int check_kind_of(const struct conn *c);
/* c->ck closed (no checker, no pipes); called by conn_new. */
void check_init(struct conn *c);
/*
 * After VERDICT forwarding of a streamed body: when c's route is checked,
 * open the hold pipe (c->up) and the checker's pipe and give c the spare
 * request parser as its checker (now, or once one is ready:
 * check_adopt). Refuses with 503 when no descriptor is left.
 */
void check_begin(struct conn *c);
/* Give a ready spare to an upload that waits for its checker. */
void check_adopt(struct gateway *gw);
/* 1 when c's child may be read: every announced byte fed and held. */
int check_reads_child(const struct conn *c);
/* A streamed BODY's bytes (p[0..n)) of a checked upload. Returns 0. */
int check_on_body(struct conn *c, const char *p, size_t n);
/* n more announced bytes in the child's pipe. Returns 0, -1 after a
   violation (c->dead). */
int check_on_spliced(struct conn *c, uint32_t n);
/* BODY_END of a checked upload: its end goes once all is approved. */
void check_on_body_end(struct conn *c);
/*
 * Move what can move: announced bytes into the checker's pipe and the
 * hold pipe, approved bytes framed to the backend, the body's end after
 * the checker approved the whole; CHECK_FLUSH when the hold pipe is full
 * and nothing is approved.
 */
void check_pump(struct conn *c);
/* The checker's messages: progress, verdict; a broken one refuses. */
void check_on_ipc(struct conn *c);
/* The request is over: the checker killed, its pipes closed. */
void check_end(struct conn *c);

/* ---- monitor/exchange/baseimg.c (doc/privsep.md "Builds and archives") */

/*
 * The checker named base image ref[0..len) (CHECK_IMAGE) before its
 * verdict on c's build, or an image name c's load gives, with id[0..
 * idlen) the id (64 hex digits) of the image the archive gives it, or
 * empty. Returns 0, or -1 when the checker broke the protocol (another
 * upload, too many, a ref the monitor would not put in a request, an id
 * that is not one, or an id for a build).
 */
int baseimg_named(struct conn *c, const char *ref, size_t len,
    const char *id, size_t idlen);
/*
 * Every approved byte of c's build but its end is with the backend and
 * the checker named base images: park the build's connection, and for
 * each image inspect it (pull it first when it is missing), have the
 * daemon export it to the checker unless its id passed before; then the
 * end goes (check_pump). Refusals answer the client (check_refuse).
 */
void baseimg_start(struct conn *c);
/* The internal exchange of the step ended (ok, timeout: as phase_done). */
void baseimg_done(struct conn *c, int ok, int timeout);
/* Events on c->bc while an export runs; its poll events. */
void baseimg_on_backend(struct conn *c, short revents);
short baseimg_events(const struct conn *c);
/* The checker's CHECK_PROGRESS and CHECK_VERDICT while images run. */
void baseimg_progress(struct conn *c);
void baseimg_verdict(struct conn *c, const struct cg_refusal *r);
/* Close what the image step holds (parked connection, pipe, names). */
void baseimg_end(struct conn *c);
/* The checker failed or refused c's upload: answer the client. */
void check_refuse(struct conn *c, const struct cg_refusal *r);

/* ---- monitor/exchange/verify.c */

/*
 * Verify a FORWARD m from c's child (privsep.md §9.1 and its 2026-12-01
 * amendment): method, canonical target classified by the monitor's own
 * route tables, path and query refs answered owned in this request, and
 * the header list, which the policy's header rules must give back
 * unchanged (policy/headers.h). On success the monitor's own view is set
 * (c->method, target, log_path, api, action, hijack, no_head_timeout,
 * is_head, client_close, body_kind, body_len, synced), *fh holds the list (its
 * values point into m) and 0 is returned; otherwise -1 after
 * conn_violation().
 */
struct cg_fwd_headers;
int verify_forward(struct conn *c, const struct ipc_msg *m,
    struct cg_fwd_headers *fh);
/*
 * Replay the whole policy on c's FORWARD (privsep.md §9.2): it must allow
 * c->method/c->target with c->json and reproduce target and body byte for
 * byte (policy.md §0.6). Facts: refs answered owned in this request; bind
 * paths resolved afresh (at most IPC_PATH_QUERIES_MAX). Returns 0, or -1
 * after conn_violation() (c->dead set).
 */
int verify_replay(struct conn *c);

/* ---- monitor/exchange/phase.c */

/*
 * Start the monitor-side named-resource phase of c's verified, replayed
 * FORWARD (policy.md §5, §11; privsep.md §9.1 item 7), its inputs taken
 * from c->json: network and volume inspects, volume pre-creates, the
 * volume-create name check; then the forward itself (backend_forward).
 * Refusals go to the child as VERDICT (backend_refuse). Sets c->rs to
 * RS_PHASE while an inspect runs; c->dead after a violation (a body that
 * does not parse).
 */
void phase_start(struct conn *c);
/*
 * The internal exchange of c's phase ended: ok = a complete response was
 * read, timeout = the backend deadline passed. Goes on to the next step.
 */
void phase_done(struct conn *c, int ok, int timeout);
/*
 * The project network's create lock was released: every connection of gw
 * waiting for it inspects the network again (and creates it if it is
 * still missing). Called by the event loop when gw->pn_wake is set.
 */
void phase_wake(struct gateway *gw);

/*
 * c's request reached its end as far as the phase's state goes: the
 * final head of the forwarded request arrived with status, or the
 * monitor refused or answered it (its status; 0 for a refused VERDICT),
 * or the exchange ended unseen (-1: a new FORWARD, the connection's
 * end). A create's pins are kept or removed (pins_settle), a start's
 * locks released (startcheck_settle).
 */
void phase_settle(struct conn *c, int status);

/*
 * Go on with c's phase after a step that ran outside phase.c (the image
 * step): the next network or volume, or the forward.
 */
void phase_continue(struct conn *c);
/*
 * The phase of c after its destination image names passed (imgdest.c):
 * the project network, named networks and volumes, the image step, then
 * the forward. Called by phase_start() and imgdest_done().
 */
void phase_resume(struct conn *c);

/* ---- monitor/exchange/image.c */

/*
 * Start the image step of c's container or pod create (pod: 1 for a pod
 * create): ref is the image the forwarded body names (NULL: none), and
 * default_infra says that a pod create uses podman's default infra image.
 * Returns 1 when an internal request runs (c->rs RS_PHASE; image_step_done
 * follows), 0 when there is nothing to check, -1 when c was refused.
 */
int image_step_start(struct conn *c, const char *ref, int default_infra,
    int pod);
/*
 * The internal exchange of c's image step ended (ok, timeout as for
 * phase_done): the next request, a refusal (annotations, pod, 502, 504),
 * or phase_continue().
 */
void image_step_done(struct conn *c, int ok, int timeout);
/*
 * The forwarded create's image field (Image, image or infra_image) made
 * to name the id c's image step checked (c->im_pin), so that the daemon
 * uses exactly that image: a retag between the check and the daemon's
 * lookup swapped in an unchecked one (red team rt9 F6). c->json and the
 * Content-Length of c->head are replaced. No-op without a pin. Returns
 * 0, or -1 when the body does not parse or names no image (a broken
 * invariant: the phase read the same body).
 */
int image_pin_body(struct conn *c);

/* ---- monitor/exchange/imgdest.c */

/*
 * Called by phase_start() for c's verified, replayed FORWARD: when its
 * route moves image names (policy/imgdest.h), inspect each with the
 * request's API. Returns 1 when it took c over (c->rs RS_PHASE, then
 * imgdest_done, then the forward or a refusal), -1 when c was refused,
 * 0 when the request moves no name.
 */
int imgdest_start(struct conn *c);
/* The internal inspect of c's destination name ended (ok, timeout as for
 * phase_done). */
void imgdest_done(struct conn *c, int ok, int timeout);

/* ---- monitor/exchange/answer.c */

/*
 * Called by phase_start() for c's verified, replayed FORWARD before the
 * named-resource phase. Routes the monitor answers itself (RF_ANSWER:
 * system df, build prune; routes.md §7.2 as amended) are never forwarded:
 * the answer is computed from the monitor's own internal requests and
 * written by it (relay_answer). A libpod system prune is forwarded only
 * after a pod list shows no pod that is not the project's (routes.md §8.2 as
 * amended; doc/filters.md). Returns 1 when it took c over (c->rs is then
 * RS_PHASE while an internal request runs, RS_RESPONSE or RS_WAIT_DONE after),
 * 0 when the ordinary phase applies.
 */
int answer_start(struct conn *c);
/*
 * The query "<extra>&filters={"label":["<KEY>=<root>"]}", encoded as
 * the monitor sends it (malloc'd; the caller frees it). extra is the
 * monitor's own constant pairs (e.g. "all=1").
 */
char *answer_label_query(const char *root, const char *extra);
/*
 * Refuse c's request with a response the monitor writes itself (code,
 * its specific hint, the detail from fmt): VERDICT forwarding to the
 * child, then the error body; the connection ends after it (http.md
 * §5.4). For refusals whose hint the code's generic one would not carry.
 */
void answer_refuse(struct conn *c, const char *code, const char *hint,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Answer c's attach (a hijack route) with a switched stream that ends at
 * once, logged as the refusal code/detail: the docker CLI prints no body
 * of a refused attach ("unable to upgrade to tcp, received 403"), but it
 * goes on to the start, whose refusal it prints (startcheck.c).
 */
void answer_empty_stream(struct conn *c, const char *code,
    const char *detail);

/* ---- monitor/exchange/startcheck.c */

/*
 * Called by phase_start() for c's verified FORWARD: a container start,
 * restart or libpod init, or a pod start or restart, is checked before
 * it is forwarded (startcheck.c: mounts at or below /dev, /proc, /sys;
 * on a podman with the podman-workdir advisory the working directory
 * inside the root file system, restart policies, a stop before a
 * restart). Returns 1 when it took c over (refused or forwarded later),
 * 0 otherwise.
 */
int startcheck_start(struct conn *c);
/* The internal exchange of c's start check ended (phase_done). */
void startcheck_done(struct conn *c, int ok, int timeout);
/*
 * An archive upload (docker cp into a container) on a podman with the
 * podman-workdir advisory: refused (1, the refusal written) while a
 * start of that container is in flight, else held until it ends (0).
 */
int startcheck_lock(struct conn *c);
/* c's request ended (head, refusal, end): its locks and state go. */
void startcheck_settle(struct conn *c);
/*
 * The internal exchange of c's answer ended (ok: a complete response;
 * timeout: the deadline passed): the next request, the computed answer,
 * the forward, or a refusal. Called by phase_done() while c->ans_kind is
 * set.
 */
void answer_done(struct conn *c, int ok, int timeout);
/*
 * Answer c's verified FORWARD with a refusal the monitor writes itself
 * (code from http.md §11.1, hint what to do instead, the detail
 * printf-formatted): VERDICT forwarding for a synced exchange, the error,
 * RESPONSE_END close after it (relay_answer). The child's rendering of a
 * refused VERDICT could only carry the code's generic hint.
 */
void answer_refuse(struct conn *c, const char *code, const char *hint,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- monitor/budget.c */

/*
 * Bytes each connection slot is given outside the pool (its record with
 * CG_FACTS_MAX ownership answers, an IPC queue in use, a response head,
 * relay buffers up to RELAY_FLOOR, an internal answer's first
 * allocation): budget.fixed holds --max-connections of them.
 */
uint64_t budget_fixed_per_conn(void);
/*
 * Split cfg->memory_budget (bytes) for cfg->max_connections into fixed,
 * parse and pool, and give json_parse() the parse area as its limit.
 * Returns 0, or -1 with a usage line on stderr when the budget is too
 * small for the connection limit (at start-up, before serving).
 */
int budget_setup(struct gateway *gw);
/*
 * Take n bytes of the pool for c (held until budget_give or
 * budget_release). Returns 0, or -1 (nothing taken) when the pool has
 * not that much left.
 */
int budget_take(struct conn *c, uint64_t n);
/*
 * Give back n of what c holds (at most all); the event loop then admits
 * who waits (budget_admit, at a point where no connection is half-way
 * through a change).
 */
void budget_give(struct conn *c, uint64_t n);
/* Give back all c holds, leave the waiting line: its request ended. */
void budget_release(struct conn *c);
/*
 * Put c's verified FORWARD, which needs need bytes, in line (c->rs
 * RS_BUDGET; its child is not read meanwhile): forward_admitted() when
 * there is room, forward_refused() at --backend-timeout.
 */
void budget_wait(struct conn *c, uint64_t need);
/* Admit waiting FORWARDs, oldest first, while the next one fits. */
void budget_admit(struct gateway *gw);
/*
 * Refuse the waiting FORWARDs whose deadline passed at now (ms). Returns
 * the next deadline, or -1 when nobody waits.
 */
long long budget_expire(struct gateway *gw, long long now);
/*
 * 1 when c may use the larger relay bounds (RELAY_DOWN_MAX, RELAY_UP_MAX):
 * it holds STREAM_RESERVE, taken now if the pool has it; 0: keep below
 * RELAY_FLOOR.
 */
int budget_stream(struct conn *c);
/* What to do about a budget refusal; the refusal's detail into out. */
const char *budget_hint(void);
void budget_detail(const struct gateway *gw, char *out, size_t outsz);

/* ---- monitor/exchange/dispatch.c: the budget's continuations */

/*
 * c's FORWARD got its room: a JSON body is read now (RS_BODY), any other
 * request goes on to its replay and phase.
 */
void forward_admitted(struct conn *c);
/*
 * c's FORWARD did not get room within --backend-timeout: 503
 * too-many-connections with the budget's hint; a JSON body is read and
 * dropped first (the child sent it right after its FORWARD).
 */
void forward_refused(struct conn *c);

/* ---- monitor/exchange/facts.c */

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

/*
 * Handle a FACT_QUERY m (privsep.md §7.2, §6.6): at most
 * IPC_FACT_QUERIES_MAX per request, a ref that is a path segment (images:
 * segments), a prefix that is "" or a canonical version. Starts the
 * inspect (c->rs = RS_FACT) or answers unreachable at once. Returns 0, or
 * -1 after conn_violation().
 */
int facts_on_query(struct conn *c, const struct ipc_msg *m);
/*
 * The inspect of c's running FACT_QUERY ended (ok: a complete response;
 * timeout: the deadline passed): answer FACT_ANSWER, or first inspect the
 * container of an exec session (routes.md §9.4). Owned answers are kept in
 * c->facts for the FORWARD's verification.
 */
void facts_done(struct conn *c, int ok, int timeout);

/*
 * The answer to c's running FACT_QUERY: result (enum ipc_fact_result) and,
 * when owned, id (NUL-terminated, kept in c->facts for the FORWARD's
 * verification and the replay). c goes back to RS_IDLE.
 */
void facts_answer(struct conn *c, uint8_t result, const char *id);
/*
 * The internal answer of c's running FACT_QUERY (ok, timeout as for
 * facts_done): 0 with its status and decoded body (malloc'd, the caller
 * frees it), the connection released; -1 after answering the child
 * timeout or unreachable.
 */
int facts_internal_answer(struct conn *c, int ok, int timeout, int *status,
    char **body, size_t *body_len);

/* ---- monitor/exchange/answer.c */


/* ---- monitor/exchange/projnet.c: the project's own network (doc/privsep.md) */

#define PROJNET_NAME_MAX	64
/* The libpod API version of the monitor's own libpod requests on a compat
 * connection: network create wants 4.0.0 or later (podman 4.3.1). */
#define CG_LIBPOD_PREFIX	"/v4.0.0"
#define PROJNET_LABEL		"org.apache.magpie.network"	/* = default */

/* Pick the suffix of a squatted name (getrandom; at start-up). */
void projnet_init(struct gateway *gw);
/*
 * The project network's own name for ROOT root into out:
 * "cg-<last path component, other bytes than [A-Za-z0-9_.-] as '-', at
 * most 32>-<FNV-1a 64 of root, 16 hex>", at most 52 bytes.
 */
void projnet_name(const char *root, char out[PROJNET_NAME_MAX + 1]);
/*
 * The network inspect the monitor makes about any network (ownership
 * questions, the project network, the named-resource phase), and its API:
 * libpod on a podman backend (only its answer shows the isolate option,
 * and podman's compat inspect strips that option: monitor/exchange/netcompat.h),
 * compat with the client's version prefix on dockerd. Returns a malloc'd
 * request, its length in *len.
 */
char *projnet_inspect_request(const struct conn *c, const char *name,
    size_t *len);
enum cg_api projnet_inspect_api(const struct conn *c);
/*
 * 1 when c's backend is a podman that said so (Server: Libpod/... in its
 * GET /_ping at start-up): the daemon whose isolate option and compat
 * network handlers were measured (4.3.1, netavark 1.4). Only there does
 * the monitor answer compat network inspect and list itself
 * (monitor/exchange/netcompat.h) and refuse a bridge without isolation.
 */
int projnet_measured_podman(const struct conn *c);
/*
 * Answer c's FACT_QUERY about the project network (CG_FACT_PROJNET): its
 * own name when that is missing or the project's; else the first of the
 * project's networks labelled as its default one, by a labelled list;
 * else the own name with the start-up suffix. Asked about a pod (its id
 * as ref, answered owned before), first the pod's libpod inspect:
 * CG_PROJNET_POD when it has an infra container and shares "net". Failures answer
 * unreachable, timeout or unexpected. projnet_fact_start starts it (c->rs
 * RS_FACT), projnet_fact_done takes each internal answer (ok, timeout as
 * for facts_done).
 */
void projnet_fact_start(struct conn *c);
void projnet_fact_done(struct conn *c, int ok, int timeout);
/* The project network named in c's answers of this request, or NULL. */
const char *projnet_answered(const struct conn *c);
/*
 * The create request of the project network name: labelled with the
 * project and PROJNET_LABEL=default; on podman through libpod with
 * isolate=true and DNS, on dockerd through compat with CheckDuplicate.
 * malloc'd, its length in *len.
 */
char *projnet_create_request(const struct conn *c, const char *name,
    size_t *len);
/*
 * A request that writes podman's network directory, after which podman
 * reads every network file again (its in-memory networks are re-read only
 * when the directory changed; podman 4.3.1, common/libnetwork/netavark
 * loadNetworks): the create (remove = 0) or the removal (remove = 1) of a
 * throwaway network "cg-reload-<start-up suffix>", labelled with the
 * project. malloc'd, its length in *len.
 */
char *projnet_reload_request(const struct conn *c, int remove, size_t *len);
/*
 * 1 when a libpod network inspect answer body[0..len) shows a bridge
 * network that is not isolated from other projects' networks: driver
 * "bridge", not internal (an internal one has no route out) and no
 * options.isolate "true"; also for an answer that does not parse. Such a
 * bridge reaches every isolated one (measured on podman 4.3.1 with
 * netavark 1.4 and with CNI: tests/integration/isolation.sh
 * i_network_projects); only bridges can be made through the gateway
 * (policy.md §12), and a network made before it forced the option is one.
 */
int projnet_unisolated(const char *body, size_t len);
/*
 * One create of the project network at a time per gateway (dockerd
 * 20.10's CheckDuplicate is no lock: 8 concurrent creates of one name
 * made 3 networks, and the name then matched none). projnet_lock returns
 * 1 when c may create it now, 0 when another connection is creating it
 * (c then waits for phase_wake); projnet_unlock releases it if c holds it
 * and has the event loop wake the waiters (gw->pn_wake).
 */
int projnet_lock(struct conn *c);
void projnet_unlock(struct conn *c);

/* ---- monitor/conn.c */

/*
 * A connection record for a freshly forked child pid with IPC socket ipc
 * (non-blocking), in state RS_IDLE, not yet linked into gw->conns.
 * Exits through xoom() when out of memory.
 */
struct conn *conn_new(struct gateway *gw, pid_t pid, int ipc);
/*
 * Close every descriptor of c and free c and everything it owns. Does not
 * kill or reap the child, and does not unlink c from gw->conns (the
 * caller does both first).
 */
void conn_free(struct conn *c);
/* Close c's backend connection and free its buffers (c->bc reset). */
void conn_close_backend(struct conn *c);
/*
 * c's request is over for the monitor (DONE, its ACCESS, or a light
 * exchange's keep-alive RESPONSE_END: privsep.md §8): back to RS_IDLE with
 * nothing of it kept, idle from now (accept.c reclaims).
 */
void conn_end_request(struct conn *c);
/*
 * c's exchange is over for the client: backend closed, relay buffers
 * freed, the client shut and closed when c->closing, RESPONSE_END (close
 * or keep-alive) sent once; a light exchange kept alive ends its request
 * (conn_end_request), any other waits for DONE (RS_WAIT_DONE).
 */
void conn_end_exchange(struct conn *c);
/*
 * End c's forwarded exchange now (client gone, child gave up or gone):
 * the access line if none was written (decision error, code -, status 0,
 * detail why), backend and client closed, RESPONSE_END close. No-op
 * outside RS_STREAM, RS_RESPONSE and RS_SWITCHED.
 */
void conn_abandon_exchange(struct conn *c, const char *why);
/* Free what c's answer collected (conn_free, a finished answer). */
void conn_free_answer(struct conn *c);
/*
 * Audit m (to-child), queue it for c's child and send what the socket
 * takes now. m->fd is ignored. An m the encoder refuses is a broken
 * invariant of the monitor: logged, abort().
 */
void conn_send(struct conn *c, struct ipc_msg *m);
/*
 * Send c's queued datagrams without blocking; stops at EAGAIN. Returns 0,
 * or -1 on any other send error (the socket is broken).
 */
int conn_flush(struct conn *c);
/*
 * c's child broke the protocol (privsep.md §10): ERROR line with the
 * printf-formatted reason, a pending FORWARD's VERDICT audit line, the
 * child SIGKILLed. Always returns -1 (the caller drops c).
 */
int conn_violation(struct conn *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * c's FORWARD failed the policy replay (privsep.md §9.2): as
 * conn_violation (the same ERROR line, the child SIGKILLed), but its
 * record says replay-refused with the policy's reason code (NULL: the
 * replay rewrote the request). Always returns -1.
 */
int conn_replay_refused(struct conn *c, const char *code, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));
/* "docker" or "podman": the kind of c's backend (error details). */
const char *conn_backend_name(const struct conn *c);
/*
 * c's request cannot go on: its child ended, or its client left while the
 * monitor asked the backend on the request's behalf (an ownership question,
 * the named-resource phase). The request's access line if it has none yet
 * (decision error, code -, status 0, detail why; method and path "-" before
 * its FORWARD), then a forwarded exchange is ended (conn_abandon_exchange). No line
 * when no request is open: between requests, or once its line is out
 * (cli.md §14.3: exactly one per request; doc/reliability.md "Fault table").
 */
void conn_abandon(struct conn *c, const char *why);
/* Free the names c's named-resource phase keeps, if any. */
void conn_free_phase_tree(struct conn *c);
/* Milliseconds since the end of c's request head (the access line's). */
unsigned conn_duration_ms(const struct conn *c);

/* ---- monitor/exchange/pathres.c */

/*
 * Resolve an absolute bind source (policy.md §4.4) against gw's roots,
 * with the amendment of 2026-12-07 (no existence oracle): the walk of
 * pathres_walk never looks up a component that is neither below a bind
 * root nor an ancestor of one, and a source that is unresolvable or not
 * under a bind root is CG_PATH_OUTSIDE, whatever exists on the host (the
 * same answer, the same message). Then, for a source under a root: under
 * an excluded root, equal to or above a backend socket. out (CG_PATH_MAX
 * + 1 bytes) receives the resolved path for CG_PATH_ALLOWED, the bind
 * roots joined by ", " for CG_PATH_OUTSIDE, "" otherwise. Never returns
 * CG_PATH_UNRESOLVABLE.
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

#include "monitor/loop.h"	/* the loop's parts, after the types */

#endif
