/*
 * The image step of a container or pod create (monitor/exchange/image.c).
 */
#ifndef CG_MONITOR_EXCHANGE_IMAGE_H
#define CG_MONITOR_EXCHANGE_IMAGE_H

#include "monitor/gateway.h"

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
 * or the image passed. Returns 1 when it passed (the caller, phase_done,
 * goes on with the phase), 0 otherwise.
 */
int image_step_done(struct conn *c, int ok, int timeout);

/*
 * Start c's image step afresh (image_step_start): what it holds released
 * (image_free), not a pod's, not podman's default infra image. The pinned
 * id (c->im_pin) is not the slice's: image_step_start clears it itself.
 */
void image_reset(struct conn *c);

#endif
