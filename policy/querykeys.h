/*
 * The allow-list of query keys of every route (routes.md §4.4 as amended
 * 2026-12-01): the keys the Docker Engine API (v1.41, plus the harmless
 * additions of later versions that newer CLIs send) and the libpod API (4.x)
 * document for the route, and the spellings real clients send. A key outside
 * the list and outside the route's policed keys is not forwarded. Kept apart
 * from the route table of routes.c, keyed by the row's family and action. No
 * I/O.
 */
#ifndef CG_POLICY_QUERYKEYS_H
#define CG_POLICY_QUERYKEYS_H

#include <stddef.h>

#include "policy/types.h"
#include "policy/query.h"

struct cg_route;

/* The list of a route whose every key goes to its own query policy. */
extern const char *const query_any_key[];

/*
 * The non-policed keys allowed on route rt reached through API api: a
 * NULL-terminated list of canonical spellings (compared ignoring ASCII
 * case), an empty list when the route takes none, query_any_key when every
 * key is left to the route's query policy (build: policy.md §10.2 refuses
 * unknown keys itself), or NULL when the route has no row (then
 * query_drop_unknown keeps only policed keys: fail closed).
 */
const char *const *query_allowed_keys(const struct cg_route *rt,
    enum cg_api api);

/*
 * Append key (NUL-terminated) to the ", "-joined text *out (malloc'd or
 * NULL) of *n bytes, cut with "..." at QUERY_DROPPED_MAX bytes: the debug
 * text of what was not forwarded (query keys here, body fields in
 * policy/lenient.c). Exits through xoom() on allocation failure.
 */
void note_dropped(char **out, size_t *n, const char *key);

/*
 * routes.md §4.4 (amended): remove from q, in place, every pair whose key
 * is neither a policed key of rt (route_qspec, exact spelling: case variants
 * were refused before) nor equal ignoring ASCII case to a key of
 * query_allowed_keys(rt, api); a kept case variant of an allowed key is
 * respelled as the list spells it (what the policies read). Repeats of an
 * allowed key are kept. Returns
 * NULL when nothing was removed, else a malloc'd NUL-terminated list of the
 * distinct removed keys joined by ", " (at most QUERY_DROPPED_MAX bytes,
 * cut with "..."), for the debug log; the caller frees it. Exits through
 * xoom() on allocation failure.
 */
char *query_drop_unknown(const struct cg_route *rt, enum cg_api api,
    struct cg_query *q);

#define QUERY_DROPPED_MAX	512	/* bytes of the dropped-keys text */

#endif
