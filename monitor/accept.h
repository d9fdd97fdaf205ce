/*
 * Accepting clients (monitor/accept.c): the connection limit, idle slots
 * given to newcomers (the hand-over to a request parser: start_conn,
 * monitor/conn.h).
 */
#ifndef CG_MONITOR_ACCEPT_H
#define CG_MONITOR_ACCEPT_H

#include "monitor/gateway.h"

/* Accept one client on listener li: a request parser for it, the slot of
 * an idle connection at the limit, or the 503 (linger.c). Returns 1 when
 * a connection was taken (another may wait), 0 when none was. */
int accept_client(struct gateway *gw, int li);

/* End connection c, whose slot was given to a newcomer, when its request
 * parser is still there at c->reclaim_kill_ms (monotonic ms, now >= it): a
 * protocol violation (SIGKILL), c marked dead. A compromised parser that
 * ignores its client's end-of-file would otherwise hold a connection the
 * limit no longer counts (hostile row reclaimed-stays). */
void accept_reclaim_expired(struct conn *c);

#endif
