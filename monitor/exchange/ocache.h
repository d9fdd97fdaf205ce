/*
 * Kept ownership verdicts of full ids (monitor/exchange/ocache.c; routes.md
 * §9.3 [S]: labels are immutable and random ids never reused).
 */
#ifndef CG_MONITOR_EXCHANGE_OCACHE_H
#define CG_MONITOR_EXCHANGE_OCACHE_H

#include <stddef.h>

#include "monitor/gateway.h"

/* 1 for the kinds whose full-id verdicts are kept: container, pod (not
 * network: podman's CNI backend derives its id from its name). */
int ocache_kind(int kind);

/* 1 when s[0..len) is a full id: 64 lower-case hex digits. */
int ocache_full_id(const char *s, size_t len);

/*
 * The kept verdict (CG_OWNED or CG_NOT_OWNED) of id (NUL-terminated) of
 * kind, or -1 when none is kept (or kind/id are not kept ones).
 */
int ocache_get(const struct gateway *gw, int kind, const char *id);

/*
 * Keep verdict (CG_OWNED or CG_NOT_OWNED; anything else is ignored) for
 * id of kind, for the gateway's lifetime (at most 4096 entries: a full
 * cache is emptied first). A 404 is never kept: pass only verdicts of a
 * 2xx inspect. Exits through xoom() when out of memory.
 */
void ocache_put(struct gateway *gw, int kind, const char *id, int verdict);

/* Forget id of kind (a 404, or removed through the gateway). */
void ocache_drop(struct gateway *gw, int kind, const char *id);

#endif
