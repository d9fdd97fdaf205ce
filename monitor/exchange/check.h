/*
 * A checked upload (monitor/exchange/check.c; doc/privsep.md "Builds and
 * archives"): the checker, the hold pipe, the approved bytes.
 */
#ifndef CG_MONITOR_EXCHANGE_CHECK_H
#define CG_MONITOR_EXCHANGE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "monitor/gateway.h"

/* CK_BUILD, CK_ARCHIVE or CK_LOAD for a verified streamed upload to be
   checked; CK_NONE for any other. */
int check_kind_of(const struct conn *c);

/*
 * After VERDICT forwarding of a streamed body: when c's route is checked,
 * open the hold pipe (c->ul.up) and the checker's pipe and give c the spare
 * request parser as its checker (now, or once one is ready:
 * check_adopt). Refuses with 503 when no descriptor is left.
 */
void check_begin(struct conn *c);

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

#endif
