/*
 * The project's own network (monitor/exchange/projnet.c; doc/privsep.md).
 */
#ifndef CG_MONITOR_EXCHANGE_PROJNET_H
#define CG_MONITOR_EXCHANGE_PROJNET_H

#include <stddef.h>

#include "monitor/gateway.h"

#define PROJNET_NAME_MAX	64
#define PROJNET_LABEL		"org.apache.magpie.network"	/* = default */

/*
 * The project network's own name for ROOT root into out:
 * "cg-<last path component, other bytes than [A-Za-z0-9_.-] as '-', at
 * most 32>-<FNV-1a 64 of root, 16 hex>", at most 52 bytes.
 */
void projnet_name(const char *root, char out[PROJNET_NAME_MAX + 1]);

/*
 * 1 when c's backend is a podman that said so (Server: Libpod/... in its
 * GET /_ping at start-up): the daemon whose isolate option and compat
 * network handlers were measured (4.3.1, netavark 1.4). Only there does
 * the monitor answer compat network inspect and list itself
 * (monitor/exchange/netcompat.h) and refuse a bridge without isolation.
 */
int projnet_measured_podman(const struct conn *c);

/*
 * Answer c's FACT_QUERY about the project network (CG_FACT_PROJNET): its
 * own name when that is missing or the project's; else the first of the
 * project's networks labelled as its default one, by a labelled list;
 * else the own name with the start-up suffix. Asked about a pod (its id
 * as ref, answered owned before), first the pod's libpod inspect:
 * CG_PROJNET_POD when it has an infra container and shares "net". Failures answer
 * unreachable, timeout or unexpected. projnet_fact_start starts it (c->rs
 * RS_FACT), projnet_fact_done takes each internal answer (ok, timeout as
 * for facts_done).
 */
void projnet_fact_start(struct conn *c);
void projnet_fact_done(struct conn *c, int ok, int timeout);

/* The project network named in c's answers of this request, or NULL. */
const char *projnet_answered(const struct conn *c);

/*
 * The create request of the project network name: labelled with the
 * project and PROJNET_LABEL=default; on podman through libpod with
 * isolate=true and DNS, on dockerd through compat with CheckDuplicate.
 * malloc'd, its length in *len.
 */
char *projnet_create_request(const struct conn *c, const char *name,
    size_t *len);

/*
 * A request that writes podman's network directory, after which podman
 * reads every network file again (its in-memory networks are re-read only
 * when the directory changed; podman 4.3.1, common/libnetwork/netavark
 * loadNetworks): the create (remove = 0) or the removal (remove = 1) of a
 * throwaway network "cg-reload-<start-up suffix>", labelled with the
 * project. malloc'd, its length in *len.
 */
char *projnet_reload_request(const struct conn *c, int remove, size_t *len);

/*
 * 1 when a libpod network inspect answer body[0..len) shows a bridge
 * network that is not isolated from other projects' networks: driver
 * "bridge", not internal (an internal one has no route out) and no
 * options.isolate "true"; also for an answer that does not parse. Such a
 * bridge reaches every isolated one (measured on podman 4.3.1 with
 * netavark 1.4 and with CNI: tests/integration/isolation.sh
 * i_network_projects); only bridges can be made through the gateway
 * (policy.md §12), and a network made before it forced the option is one.
 */
int projnet_unisolated(const char *body, size_t len);

/*
 * One create of the project network at a time per gateway (dockerd
 * 20.10's CheckDuplicate is no lock: 8 concurrent creates of one name
 * made 3 networks, and the name then matched none). Returns 1 when c may
 * create it now, 0 when another connection is creating it (c then waits
 * for phase_wake); projnet_unlock (exchange.h) releases it.
 */
int projnet_lock(struct conn *c);

#endif
