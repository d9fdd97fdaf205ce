/*
 * Internal interface of the request parser (unpriv/child.c, body.c,
 * child_io.c): its per-connection state and its two channels, the client
 * socket and the monitor's IPC (privsep.md §8). Not for use outside
 * unpriv/.
 */
#ifndef CG_UNPRIV_CHILD_IO_H
#define CG_UNPRIV_CHILD_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "ipc/proto.h"
#include "policy/policy.h"

#define READ_CHUNK		65000	/* = IPC_DATA_MAX */
#define WRITE_MS		120000	/* a client that takes no byte */

struct child {
	int ipc;
	int client;
	uint64_t conn;
	uint32_t req;
	uint32_t qid;
	unsigned nfacts, npaths;
	unsigned backend_timeout_ms;
	struct cg_policy_ctx ctx;
	struct cg_facts facts;
	char *root, *proxy, *noproxy;

	char *in;		/* client bytes read but not yet used */
	size_t inlen, incap;
	int client_eof;

	unsigned char *msgbuf;	/* IPC receive buffer */
	char *head;		/* the current request head */
	struct timespec head_start, head_end;	/* its first byte, its end */
	/* the current request's method and path (into head; 0: not known) */
	const char *rmethod, *rpath;
	size_t rmethod_len, rpath_len;
	int begun;		/* REQUEST_BEGIN sent for it */
	int up;			/* the body pipe's write end (BODY_PIPE), -1 */
	uint32_t up_pending;	/* bytes spliced into it, not yet announced */
	/*
	 * A light exchange whose response may still be going out (the
	 * monitor sends no RESPONSE_END keep-alive for it): its request
	 * (0: none), whether its DONE was sent, whether it was a HEAD.
	 */
	uint32_t light;
	int light_done, light_head;
};

/* s[0..n) as an IPC string (n at most UINT32_MAX; no copy). */
static inline struct ipc_str
SN(const char *s, size_t n)
{
	struct ipc_str v = { s, (uint32_t)n };

	return v;
}

/* Milliseconds since t0 (CLOCK_MONOTONIC), 0 when t0 is in the future. */
uint32_t child_ms_since(const struct timespec *t0);

/* ---------------------------------------------------------------- monitor */

/*
 * Send m to the monitor or die (_exit 1): a child that cannot talk to its
 * monitor has nothing to do.
 */
void child_send(struct child *c, struct ipc_msg *m);

/*
 * Receive one message into *m (decoded from c->msgbuf), BODY_PIPE
 * included (its descriptor kept in c->up when it is for the current
 * request and none is held, else closed); the monitor gone ends the
 * child (_exit 0), a protocol error too (_exit 1).
 */
void child_recv_any(struct child *c, struct ipc_msg *m);

/* Receive one message other than BODY_PIPE (child_recv_any). */
void child_recv(struct child *c, struct ipc_msg *m);

/*
 * A light exchange may still be going out (c->light): before the child
 * writes to its client itself or leaves, it asks for its end (DONE) and
 * waits for it (privsep.md §8). Returns with c->light 0 when
 * the exchange was kept alive; its end by close or refusal ends the child
 * (child_light_msg).
 */
void child_settle(struct child *c);

/*
 * m is the monitor's word on the light exchange c->light (RESPONSE_END,
 * a refusal): acted on (returns 1; a close or a refusal ends the child);
 * 0 for any other message (one for a later request says the light
 * exchange was kept alive: c->light cleared). unpriv/child.c.
 */
int child_light_msg(struct child *c, const struct ipc_msg *m);

/*
 * Write the refusal of VERDICT *m (its code, detail and hint; the monitor
 * logged it: privsep.md §8 step 3) to the client, as the answer to a HEAD
 * when is_head. A code outside the vocabulary ends the child (_exit 1).
 */
void child_verdict_refused(struct child *c, const struct ipc_msg *m,
    int is_head);

/*
 * BYE with reason (an IPC_BYE_* of ipc/proto.h) to the monitor, then
 * exit 0 at CG_EXIT_NICE (seccomp/filter.h).
 */
void child_exit(struct child *c, uint8_t reason) __attribute__((noreturn));

/*
 * End the connection so that the client reads what was written to it (a
 * refusal, the last response) even while it is still sending: half-close,
 * then read and discard until end-of-file, at most 5 s without a byte,
 * 60 s and 1 GiB in all; then child_exit(reason). A close with unread
 * bytes makes the client's next write fail (EPIPE on a unix socket, a
 * reset on TCP) before it reads the answer: privsep.md "One request",
 * tests/integration/streams.sh, tests/forwarded/run.py. The idle bound is
 * nginx's lingering_timeout (5 s), the total twice its lingering_time;
 * the connection stays counted against --max-connections meanwhile.
 */
void child_linger_exit(struct child *c, uint8_t reason)
    __attribute__((noreturn));

/*
 * The client left, or stalled past its deadline, in the middle of a request
 * the child had begun to read (its head, or its body before FORWARD): the
 * request's access line all the same (cli.md §14.3: one per request read
 * whole or in part), as an ACCESS with status 0 and no code, which the monitor
 * logs as "decision=error code=- status=0 detail=<why>"; then exit with reason
 * (child_exit). The request is c->req + 1 while its head is incomplete (head
 * 1), c->req after (head 0).
 */
void child_abandon(struct child *c, int head, uint8_t reason, const char *why)
    __attribute__((noreturn));

/*
 * Announce the current request to the monitor (REQUEST_BEGIN, once) before
 * the child blocks in its middle, waiting for the rest of its head (head 1:
 * it is c->req + 1 then) or body: killed meanwhile, the request still gets
 * its access line, from the monitor (cli.md §14.3). A request that arrives
 * whole goes straight to its first message (a question, FORWARD or ACCESS) and
 * costs no announcement.
 */
void child_begin(struct child *c, int head);

/* DONE for the current request (privsep.md §8). */
void child_send_done(struct child *c);

/*
 * The monitor's RESPONSE_END for this request in *m (anything else is a
 * protocol error: _exit 1): returns its mode (IPC_END_*).
 */
uint8_t child_response_end(struct child *c, const struct ipc_msg *m);

/* ---------------------------------------------------------------- client */

/*
 * Write all of buf[0..len) to the client: 0, or -1 when it is gone or
 * takes no byte for WRITE_MS. The client socket is non-blocking for good
 * (the monitor accepts it so and the child's filter has no F_SETFL: the
 * monitor splices to it, privsep.md "Relaying"), so a full socket is
 * waited for here.
 */
int child_write_client(struct child *c, const char *buf, size_t len);

/*
 * Wait up to timeout_ms (>= 0; one deadline, however often the socket
 * wakes with nothing to read) for the client's bytes and append what it
 * sends (at most READ_CHUNK bytes) to c->in. Returns bytes read, 0 at
 * end-of-file (c->client_eof set), -1 on timeout (http.md §1.3). While a
 * light exchange may be going out, the monitor's word on it is taken
 * meanwhile (child_light_msg), and the deadline starts again once it is
 * over (child_settle).
 */
ssize_t child_read_client(struct child *c, int timeout_ms);

/* Drop the first n (at most c->inlen) bytes of c->in. */
void child_consume(struct child *c, size_t n);

#endif
