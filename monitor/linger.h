/*
 * Clients refused with 503 at the connection limit, lingering until they
 * are done sending (monitor/linger.c; http.md §1.2).
 */
#ifndef CG_MONITOR_LINGER_H
#define CG_MONITOR_LINGER_H

#include "monitor/gateway.h"

/*
 * Refuse the client fd accepted on listener li with the 503 of http.md
 * §1.2 (written without blocking, its access line), half-close it and
 * keep it lingering: read and discarded, closed at end-of-file, after 2 s
 * without a byte, 10 s in all or 16 MiB (doc/reliability.md "Fault table", the
 * connection limit reached); closed at once when LINGER_SLOTS are lingering
 * already. Takes fd.
 */
void linger_refuse(struct gateway *gw, int li, int fd);

/* Read and drop what lingering client fd sent (revents from ev_wait). */
void linger_on_event(struct gateway *gw, int fd, short revents, long long now);

/* Close the lingering clients whose bounds passed at now (ms). */
void linger_tick(struct gateway *gw, long long now);

/* Close every lingering client (graceful exit). */
void linger_close_all(struct gateway *gw);

#endif
