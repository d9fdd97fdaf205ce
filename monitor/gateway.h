/*
 * The monitor's state (privsep.md §3): one struct gateway for the
 * process, one struct conn per request-parser child, and the types they
 * hold. Types only: each function is declared by the header of the file
 * that defines it (the per-request engine's, for the event loop:
 * monitor/exchange/exchange.h).
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
	long long trim_at;		/* the idle heap trim (serve.c idle_trim) */
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
 * "Relaying"): fewer copies and system calls than through c->rp.down. Smaller
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
	/* the end of the base images' step, set by check.c (check_init):
	   r NULL when every image passed (the build's end goes), else the
	   refusal; baseimg.c, below the checker, never calls up into it */
	void (*img_over)(struct conn *c, const struct cg_refusal *r);
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

struct cJSON;
struct ipc_msg;

/* The record's "outcome" (doc/audit.md "Outcomes"). */
enum audit_outcome {
	AO_ALLOWED,		/* forwarded, or answered by the monitor */
	AO_REFUSED,		/* refused by the policy (a reason code) */
	AO_REPLAY_REFUSED,	/* the monitor's replay of the policy refused
				   the FORWARD its request parser sent */
	AO_VIOLATION,		/* the request parser broke the protocol */
	AO_ERROR,		/* a gateway error (502, 503, 504) */
	AO_ABANDONED,		/* ended before any decision, never forwarded */
};

/* What the record of a connection's current request gathers
   (monitor/exchange/audit.c). */
struct audit_rec {
	int forwarded;		/* its whole head (and JSON body) reached the
				   backend: the backend may have acted on it */
	int verified;		/* its FORWARD passed verification */
	int is_create;		/* a create whose answer carries the new id */
	int deferred;		/* allowed, head seen: written once the
				   answer's body (the new id) is read */
	int backend_status;	/* the backend's final status; 0: none */
	const char *route;	/* the route row's pattern; NULL */
	int api;		/* enum cg_api; -1 unknown */
	int res_kind;		/* enum cg_fact_kind of its resource; -1 */
	char *res_name;		/* the resource as asked; NULL */
	char *res_id;		/* the id it resolved to or was created with */
	struct cJSON *create;	/* a create's image, binds, volumes, ports,
				   label, as forwarded; NULL */
	struct cJSON *pinned;	/* a create's pins: pin path -> the source
				   checked (monitor/pins.c); NULL */
	char *answer;		/* the beginning of a deferred answer's body */
	size_t answer_len;
	int answer_chunked;
	const struct ipc_msg *msg;	/* the child's message being dispatched
					   (what a violation tried); NULL */
};

/* The body of a forwarded request, as the monitor derives it. */
enum fwd_body { FB_NONE, FB_JSON, FB_LENGTH, FB_CHUNKED };

/*
 * What a verified FORWARD is to the monitor's stages (phase, startcheck,
 * check, backend, answer, relay, pins): one value per request, from its
 * route row and method (fwd_op_of), so that no stage compares strings to
 * learn it. FOP_NONE: a request no stage treats apart.
 */
enum fwd_op {
	FOP_NONE = 0,
	FOP_CONTAINER_CREATE,	/* POST containers/create */
	FOP_POD_CREATE,		/* POST libpod pods/create */
	FOP_VOLUME_CREATE,	/* POST volumes/create */
	FOP_CONNECT,		/* POST networks/{n}/connect */
	FOP_BUILD,		/* POST build */
	FOP_ARCHIVE_PUT,	/* PUT containers/{c}/archive */
	FOP_LOAD,		/* POST images/load */
	FOP_START,		/* POST containers/{c}/start */
	FOP_POD_START,		/* POST libpod pods/{p}/start */
	FOP_RESTART,		/* POST containers/{c}/restart */
	FOP_POD_RESTART,	/* POST libpod pods/{p}/restart */
	FOP_INIT,		/* POST libpod containers/{c}/init */
	FOP_ATTACH,		/* POST containers/{c}/attach */
	FOP_UPDATE,		/* POST containers/{c}/update */
	FOP_COMMIT,		/* POST commit?container= */
	FOP_CHANGES,		/* GET containers/{c}/changes */
	FOP_EXPORT,		/* GET containers/{c}/export */
	FOP_REMOVE,		/* DELETE of a container, image, volume,
				   network or pod (action "remove") */
	FOP_PRUNE,		/* POST <family>/prune (action "prune") */
	FOP_LIST,		/* any list route (action "list") */
	FOP_INSPECT,		/* any inspect route (action "inspect") */
	FOP_SYSTEM_DF,		/* GET system/df (answered, answer.c) */
	FOP_BUILD_PRUNE,	/* compat POST build/prune (answered) */
	FOP_SYSTEM_PRUNE,	/* libpod POST system/prune */
	FOP_EVENTS		/* GET events */
};

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

/*
 * The named-resource phase of the current request (monitor/exchange/
 * phase.c). Only phase.c writes it (tests/boundary.sh); the other stages
 * read it or call phase.c. phase_reset() starts a phase, phase_free()
 * releases what it holds.
 */
struct phase_slice {
	const char *names[2][64];
	size_t n[2];
	size_t i;
	int kind;			/* 0 networks, 1 volumes, 2 pre-creates */
	unsigned char missing[64];	/* volume i answered 404 */
	int step;
	int pub_all;			/* a create that publishes every
					   exposed port (monitor/exchange/publish.h;
					   its image's ports: c->im.exposed) */
	int pn;				/* the project network: 1 missing,
					   to be created; 0 otherwise */
	int reloaded;			/* podman re-read its network files */
	int pn_tries;			/* its creates that met podman's
					   interface race (phase.c) */
	int create;			/* 1 container create, 2 pod create */
	int pinned;			/* its bind sources are pinned */
	char *names_mem;		/* the names above, copied out of the
					   body's tree (freed at once: a parse
					   of 8 MiB can take 300 MB:
					   doc/reliability.md) */
};

/*
 * A create's JSON body as the stages after the phase's read of it need it
 * (monitor/exchange/createbody.c), and how often the monitor parsed this
 * request's body. Only createbody.c writes it (tests/boundary.sh);
 * createbody_begin() starts a request, createbody_free() releases what it
 * holds.
 */
struct systemd_body;
struct create_body {
	unsigned parses;		/* parses of the JSON body (c->json)
					   since the replay began */
	int read;			/* createbody_read() filled what
					   follows */
	struct systemd_body *sd;	/* its command words, for image.c's
					   systemd check, malloc'd */
	struct cJSON *tree;		/* the replay's tree of c->json, from
					   the replay to the phase's read in
					   the same call (start_phase) */
	int nbind;			/* its bind sources (pins.c reads the
					   count): how many; -1: too many */
};

/*
 * The image step of a container or pod create (monitor/exchange/image.c).
 * Only image.c writes it (tests/boundary.sh); the other files read it or
 * call image.c. image_reset() starts a step, image_free() releases what it
 * holds. The id the forwarded body is made to name (c->im_pin) is not
 * here: backend.c, below image.c, uses and frees it.
 */
struct image_slice {
	char *ref;			/* the image being checked, malloc'd */
	char *id;			/* its id (compat on podman), malloc'd */
	int step;			/* its internal request, 0: none */
	int pod;			/* a pod create's infra image */
	int default_infra;		/* podman's default infra image */
	struct cJSON *exposed;		/* a publish-all create's image's
					   ExposedPorts, as the image step read
					   them, or NULL (phase.c publishes
					   them: monitor/exchange/publish.h) */
};

/*
 * A filtered answer as the relay runs it (monitor/exchange/relay.c): a
 * list answer collected whole then filtered (listfilter.c), or an events
 * stream filtered line by line (evfilter.c). Only relay.c writes it
 * (tests/boundary.sh); relay_filter_reset() releases and clears it.
 */
struct filter_slice {
	int on;				/* collecting this list answer */
	char *buf;			/* final head, then the wire body */
	size_t len, headlen;
	int ev_on;			/* filtering this events answer,
					   re-chunked */
};

/*
 * A route the monitor answers or pre-checks itself, as it runs
 * (monitor/exchange/answer.c). Only answer.c writes it
 * (tests/boundary.sh); answer_free() releases and clears it.
 */
struct answer_slice {
	int kind;			/* enum answer_kind while one runs */
	unsigned step;			/* internal answers collected so far */
	char *body[ANSWER_PARTS];	/* their decoded bodies */
	size_t len[ANSWER_PARTS];
};

/*
 * The backend's response to the forwarded request as the relay runs it
 * (monitor/exchange/relay.c; http.md §8, §9): its head being read, its
 * framing followed, the bytes for the client (copied through down, or
 * spliced through the relay pipe dp: doc/privsep.md "Relaying"), a
 * switched stream's directions. Only relay.c writes it
 * (tests/boundary.sh); the other files read it or call relay.c:
 * relay_init() when the connection is made, relay_reset() when a FORWARD
 * starts, relay_free() when its exchange, its request or the connection
 * ends.
 */
struct response_slice {
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
	int resp_done;			/* everything for the client is in down */
	int client_eof, backend_eof;	/* switched: directions read to EOF */
	int client_shut, backend_shut;	/* switched: write sides shut down */
};

/*
 * The request's body towards the backend after its head
 * (monitor/exchange/splice.c; http.md §5.5, §9.3): a streamed body's
 * progress, its body pipe and framing (doc/privsep.md "Uploads"), and a
 * hijack route's early bytes. Only splice.c writes it
 * (tests/boundary.sh); the other files read it or call splice.c:
 * splice_init() when the connection is made, splice_reset() when a
 * FORWARD starts, splice_early_free() when its exchange ends,
 * splice_free() when its request or the connection ends.
 */
struct upload_slice {
	int stream_started;		/* first BODY/BODY_END of a stream seen */
	int stream_done;		/* BODY_END seen, or no streamed body */
	int upload_failed;		/* the backend takes no more request bytes */
	struct rpipe up;		/* the body pipe offered to the child
					   (read end; len: bytes announced by
					   BODY_SPLICED, framed, not yet
					   written); for a checked upload the
					   hold pipe (both ends; len: released
					   bytes: check.c calls splice.c) */
	uint64_t up_next;		/* announced after them: the next
					   batch, framed as one chunk when
					   up.len is out (unchecked uploads) */
	int up_given;			/* BODY_PIPE sent for this request */
	int up_crlf;			/* a spliced chunk's CRLF is owed */
	struct fifo early;		/* hijack: client bytes read past the
					   request (CLIENT_DATA), not yet
					   written to the backend */
	size_t early_total;
	int early_done;			/* the empty CLIENT_DATA seen */
};

/*
 * The request's owned facts (the FACT_QUERY answers its FORWARD is
 * verified against) and its running question (monitor/exchange/facts.c;
 * privsep.md §9.1). Only facts.c writes it (tests/boundary.sh); the other
 * files read it or call facts.c: facts_reset() when a request starts or
 * ends, facts_free() when the connection ends. The question's step
 * (c->q_stage) and its API prefix (c->q_prefix) are not here: projnet.c
 * and phase.c set them too.
 */
struct facts_slice {
	/* grown on demand up to CG_FACTS_MAX, not 164 KiB in every record
	   (doc/privsep.md "Memory") */
	struct fact *facts;
	unsigned facts_cap;
	unsigned nfacts;		/* facts answered owned */
	unsigned nfact_q;		/* FACT_QUERYs of the request */
	/* the running question */
	uint32_t qid;
	uint8_t q_kind, q_api;
	char q_ref[1025];
	char q_exec_container[CG_ID_MAX + 1];
};

/*
 * The FORWARD being served, as the monitor derives it from the verified
 * message and its route (monitor/exchange/verify.c; privsep.md §9.1). Only
 * verify.c writes it (tests/boundary.sh); the other files read it or call
 * verify.c: verify_init() when the connection is made, verify_forward()
 * for each FORWARD, verify_route_free() once on_forward() is over,
 * verify_detach() when an answer is read for the record after the
 * connection ended (drain.c), verify_end() at the request's end,
 * verify_free() at the connection's. Not here: its API, body length and
 * JSON body (c->api, c->body_len, c->json: read and, for the body,
 * rewritten where the create body is parsed: backend.c's image pin), the
 * forwarded head (c->head, built by backend.c).
 */
struct forward_slice {
	char method[17];
	char *target;
	size_t target_len;
	char *log_path;			/* the target's path, at most 8192 */
	size_t ref_off, ref_len;	/* its path ref answered owned (the id
					   of a rewritten one), 0 0: none */
	char action[33];
	enum fwd_op op;			/* what it is to the stages
					   (fwd_op_of) */
	struct cg_request fwd_route;	/* verify_forward's policy_route()
					   of it until on_forward() returns,
					   for a replay run before then
					   (verify_replay); route NULL after */
	enum fwd_body body_kind;
	int hijack, no_head_timeout, is_head, client_close;
	int is_safe;			/* GET or HEAD (RFC 9110 §9.2.1): may
					   be sent twice */
	int synced;			/* VERDICT forwarding and DONE belong to
					   the exchange (policy_exchange_synced) */
	int answer;			/* an RF_ANSWER route: the monitor
					   answers or pre-checks it (answer.c) */
	/* the forwarded path's full id, if its ownership is kept (ocache.c) */
	int oc_kind;			/* enum cg_fact_kind, or -1 */
	char oc_id[65];
	/* a post-filtered list answer (doc/filters.md, listfilter.c) */
	int lf_kind;			/* enum lf_kind of the verified route */
	enum cg_api lf_api;		/* its API, from the monitor's routing */
	/* a filtered events stream (monitor/exchange/evfilter.c) */
	struct evfilter *ef;		/* the verified events route's filter */
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
	/* the request's owned facts and its running question: facts.c's
	   alone (facts_reset, facts_free) */
	struct facts_slice fq;
	unsigned npath_q;		/* its PATH_QUERYs (dispatch.c) */
	unsigned nlogs;			/* its LOG lines (dispatch.c) */
	enum fact_stage q_stage;	/* the running question's step: facts.c
					   sets its own, projnet.c those of a
					   project-network question (FS_PN_*) */
	char q_prefix[33];		/* the API prefix of the monitor's
					   internal requests: set for a
					   question (facts.c) and when a phase
					   starts (phase.c phase_start), read
					   by every stage that asks */

	/* the FORWARD being served, as the monitor derives it: verify.c's
	   alone (verify_init, verify_end, verify_free) */
	struct forward_slice fw;
	uint8_t api;			/* its API (verify.c; read where the
					   create body is parsed) */
	uint64_t body_len;		/* its JSON or Content-Length body's
					   length (verify.c), a JSON body's
					   after the image pin (backend.c) */
	uint64_t body_got;		/* body bytes received: the JSON body's
					   (dispatch.c), a streamed one's
					   (splice.c) */
	char *json;			/* the JSON body as received (dispatch.c;
					   pinned, then queued and freed by
					   backend.c) */
	char *reg_config;		/* a build's X-Registry-Config value, for
					   the pulls of its base images */
	int build_pull;			/* the build asked for fresh base images:
					   the monitor pulls them (baseimg.c) */
	char *head;			/* the serialised forwarded head */
	size_t head_len;
	/* the named-resource phase: phase.c's alone (phase_reset, phase_free) */
	struct phase_slice ph;
	/* the create body's one read: createbody.c's alone */
	struct create_body cb;
	struct startcheck *sc;		/* a start being checked (startcheck.c) */
	/* set by startcheck.c while c holds c->sc or a start lock: what
	   conn_settle calls to release them (startcheck.c stands above
	   the relay and the backend, which settle requests) */
	void (*sc_settle)(struct conn *c, int status);
	char (*pin_names)[41];		/* pins made for this create (pins.c;
					   PIN_NAME_MAX + 1 bytes each) */
	unsigned npins;
	/* the image step of the phase: image.c's alone (image_reset, image_free) */
	struct image_slice im;
	char *im_pin;			/* the id of the image that passed the
					   check, which the forwarded body is
					   made to name, malloc'd: set by
					   image.c, used and freed by
					   backend.c (pin_image), which stands
					   below image.c (scripts/layers.py),
					   so not in the im slice */
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
	/* the request's upload: splice.c's alone (splice_init, splice_reset,
	   splice_free) */
	struct upload_slice ul;

	int logged;			/* this request's record is out */
	struct audit_rec rec;		/* what its record gathers (audit.c) */
	/* the response relay: relay.c's alone (relay_init, relay_reset,
	   relay_free) */
	struct response_slice rp;
	unsigned char *stash;		/* a message of the child read while
					   announced bytes were still in the
					   pipe: handled once they are out
					   (order), reading stops till then
					   (dispatch.c's, which reads the
					   child) */
	size_t stash_len;
	struct ckstate ck;		/* a checked upload (check.c) */
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
	/* the answer being filtered: relay.c's alone (relay_filter_reset) */
	struct filter_slice lf;
	/* a route the monitor answers or pre-checks itself (answer.c) */
	struct answer_slice ans;	/* its run: answer.c's alone
					   (answer_free) */
};

#endif
