/*
 * The listening sockets at start-up (monitor/listen.c): binding, the
 * egress probe, the descriptor limit.
 */
#ifndef CG_MONITOR_LISTEN_H
#define CG_MONITOR_LISTEN_H

#include "monitor/gateway.h"

/* Bind listener l's socket at l->path, mode 0600 (cli.md §7 step 11).
 * Returns 0, 2 (refused configuration, message printed: a non-socket or
 * a live socket in the way) or 1 (runtime failure). */
int bind_socket(struct listener *l);

/* Probe the egress proxy for listener l (cli.md §15) and fill l->proxy,
 * l->noproxy, l->proxy_available; logged once per backend. */
void egress_probe(struct gateway *gw, struct listener *l);

/* Raise RLIMIT_NOFILE to its hard limit and lower --max-connections,
 * with a WARNING, when even that cannot hold every connection's
 * descriptors (http.md §1.2). */
void fit_max_connections(struct gateway *gw);

#endif
