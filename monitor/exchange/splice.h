/*
 * The body pipe of a streamed request body (monitor/exchange/splice.c;
 * doc/privsep.md "Uploads"): the bytes the child announces moved from it to
 * the backend with splice(2). The response's relay pipe is relay.c's. The
 * client's bytes are moved, never interpreted.
 */
#ifndef CG_MONITOR_EXCHANGE_SPLICE_H
#define CG_MONITOR_EXCHANGE_SPLICE_H

#include "monitor/gateway.h"

/*
 * Offer c's child a pipe for the rest of a streamed request body
 * (doc/privsep.md "Uploads"): BODY_PIPE with its write end, sent at once after
 * VERDICT when nothing else waits for the child (the order of the messages is
 * kept); none when the pipe cannot be made or sent (the child goes on with
 * BODY).
 */
void splice_offer_body_pipe(struct conn *c);
/*
 * BODY_SPLICED: n more body bytes are in the body pipe. Checked like BODY
 * (a streamed body, not after BODY_END, within the declared length), n in
 * 1..IPC_SPLICED_MAX, and a pipe must have been offered. The bytes join
 * the announced ones not framed yet (c->up_next); when the pipe's current
 * batch is out, the monitor frames them all (one chunk line for a chunked
 * body) and moves exactly that many bytes from the pipe to the backend.
 * Any other message of the child that comes meanwhile waits until they
 * are out (c->stash, monitor/exchange/dispatch.c), so BODY and pipe bytes stay in
 * order. A checked upload's bytes (c->ck.kind) are counted here and
 * moved by its checker instead: SPLICE_CHECKED, the caller hands them to
 * check_on_spliced (monitor/exchange/check.h; the relay pipe stays below
 * the checker). Returns 0, SPLICE_CHECKED (2), 1 when writing to the
 * backend failed (the caller ends the upload: relay_backend_write_failed),
 * or -1 after a violation.
 */
#define SPLICE_CHECKED	2
int splice_on_body_spliced(struct conn *c, const struct ipc_msg *m);
/*
 * Write c's upload while the backend takes it: the framing in c->bc.out,
 * the pipe's current batch, the next batch framed and moved in turn.
 * Returns 1 after progress, 0 when there was none (the backend is full),
 * -1 when the backend connection failed, -2 after a violation (the pipe
 * holds fewer bytes than announced; c->dead set).
 */
int splice_upload(struct conn *c);
/*
 * Move announced body bytes from the body pipe to the backend (after
 * c->bc.out is written). Returns 1 after progress, 0 when the backend is
 * full, -1 when the backend connection failed (the caller ends the upload
 * as for a failed write), -2 after a violation (the pipe holds fewer bytes
 * than the child announced; c->dead set).
 */
int splice_to_backend(struct conn *c);

#endif
