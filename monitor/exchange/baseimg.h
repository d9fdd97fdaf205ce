/*
 * A build's base images, and a load's image names, checked before the
 * upload's end goes (monitor/exchange/baseimg.c; doc/privsep.md "Builds and
 * archives").
 */
#ifndef CG_MONITOR_EXCHANGE_BASEIMG_H
#define CG_MONITOR_EXCHANGE_BASEIMG_H

#include <stddef.h>

#include "monitor/gateway.h"

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
 * daemon export it to the checker unless its id passed before; then
 * c->ck.img_over(c, NULL): the end goes (check.c). A refusal goes to
 * c->ck.img_over(c, r), which answers the client.
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

#endif
