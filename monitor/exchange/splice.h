/*
 * The request's upload (monitor/exchange/splice.c; doc/privsep.md
 * "Uploads"): a streamed body's BODY and BODY_END checked and framed for
 * the backend, the body pipe whose announced bytes move to the backend
 * with splice(2), a hijack route's early bytes, and a switched stream's
 * client bytes on their way to the backend. c->ul is splice.c's alone
 * (tests/boundary.sh): the other files read it or call these. The
 * response's relay pipe is relay.c's. The client's bytes are moved, never
 * interpreted.
 */
#ifndef CG_MONITOR_EXCHANGE_SPLICE_H
#define CG_MONITOR_EXCHANGE_SPLICE_H

#include "monitor/gateway.h"

/* splice_on_body() and splice_on_body_spliced(): a checked upload's bytes */
#define SPLICE_CHECKED	2

/*
 * 1 when c's forwarded request has a streamed body (Content-Length or
 * chunked, as verify_forward derived c->fw.body_kind): the request parser
 * moves it as BODY and BODY_SPLICED (doc/privsep.md "Uploads"), and on
 * such routes it writes "100 Continue" before the first BODY (http.md
 * §5.5). 0 for no body or a JSON one.
 */
int splice_streamed(const struct conn *c);

/*
 * A FORWARD starts (on_forward, after verify_forward set c->fw.body_kind):
 * no streamed body seen, none failed, no early bytes; a request without
 * a streamed body has its stream done at once. The body pipe and the
 * early bytes were released by splice_free at the previous request's end.
 */
void splice_reset(struct conn *c);
/* DONE came: what the monitor writes to the client may go (may_write). */
void splice_child_done(struct conn *c);
/*
 * BODY of a streamed body, p[0..len): checked (a streamed body, not
 * after BODY_END, within the declared Content-Length; else a violation,
 * -1), counted, then framed and queued for the backend (dropped when the
 * exchange is over or the upload failed), or SPLICE_CHECKED: a checked
 * upload's bytes, which the caller hands to check_on_body (the checker
 * stands above the pipe). Returns 0, SPLICE_CHECKED or -1.
 */
int splice_on_body(struct conn *c, const char *p, size_t len);
/*
 * BODY_END: checked (a streamed body, only one, after the declared
 * length; else a violation, -1), the stream marked done. Returns 0 or -1;
 * the caller writes the end (splice_last_chunk, or the checker's).
 */
int splice_on_body_end(struct conn *c);
/* A chunked body's end, after a spliced chunk's owed CRLF, to c->bc.out. */
void splice_last_chunk(struct conn *c);
/*
 * Frame k more bytes of the body pipe for the backend: a chunk line
 * (after an owed CRLF) when the body is chunked; they are moved by
 * splice_to_backend. A checked upload's released bytes (check.c) and the
 * announced batches of an unchecked one.
 */
void splice_frame(struct conn *c, uint64_t k);
/*
 * Writing to the backend failed: the upward direction is over (the
 * queued bytes and the body pipe dropped, no more taken); the backend
 * may still answer (relay_backend_write_failed).
 */
void splice_upload_failed(struct conn *c);
/* A checked upload's hold pipe opened in c->ul.up (check.c): 0, or -1. */
int splice_hold_open(struct conn *c);
/* c's body pipe (or hold pipe) closed, if open. */
void splice_pipe_close(struct conn *c);
/*
 * CLIENT_DATA: early stream bytes of a hijack route (http.md §5.2, §9.3),
 * what the child read past the request, at most IPC_EARLY_MAX, ended by
 * an empty one; written to the backend first after a switch, dropped
 * otherwise. Returns 1 when they are complete (splice_early_ready has
 * run: the caller lets the relay go on), 0, or -1 after a violation.
 */
int splice_on_client_data(struct conn *c, const struct ipc_msg *m);
/* Early stream bytes are complete: after a switch they go out first. */
void splice_early_ready(struct conn *c);
/*
 * A switched stream's client bytes (relay.c client_to_backend): 1 when
 * they may go through c's body pipe, opened on first use, 0 when it
 * cannot be made (the caller copies them through c->bc.out).
 */
int splice_client_pipe(struct conn *c);
/*
 * Move up to room bytes from the client into c's body pipe and on to the
 * backend. Returns what rpipe_fill returned (errno kept when < 0), with
 * *failed 1 when writing to the backend failed (the caller ends the
 * upload: relay_backend_write_failed), 0 otherwise.
 */
ssize_t splice_from_client(struct conn *c, size_t room, int *failed);
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
 * the announced ones not framed yet (c->ul.up_next); when the pipe's current
 * batch is out, the monitor frames them all (one chunk line for a chunked
 * body) and moves exactly that many bytes from the pipe to the backend.
 * Any other message of the child that comes meanwhile waits until they
 * are out (c->stash, monitor/exchange/dispatch.c), so BODY and pipe bytes stay in
 * order. A checked upload's bytes (c->ck.kind) are counted here and
 * moved by its checker instead: SPLICE_CHECKED, the caller hands them to
 * check_on_spliced (monitor/exchange/check.h; the body pipe stays below
 * the checker). Returns 0, SPLICE_CHECKED (2), 1 when writing to the
 * backend failed (the caller ends the upload: relay_backend_write_failed),
 * or -1 after a violation.
 */
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
