/*
 * Bind-source resolution (monitor/exchange/pathres.c; policy.md §4.4).
 */
#ifndef CG_MONITOR_EXCHANGE_PATHRES_H
#define CG_MONITOR_EXCHANGE_PATHRES_H

#include "monitor/gateway.h"

/*
 * Resolve an absolute bind source (policy.md §4.4) against gw's roots,
 * with the amendment of 2026-12-07 (no existence oracle): the walk of
 * pathres_walk never looks up a component that is neither below a bind
 * root nor an ancestor of one, and a source that is unresolvable or not
 * under a bind root is CG_PATH_OUTSIDE, whatever exists on the host (the
 * same answer, the same message). Then, for a source under a root: under
 * an excluded root, equal to or above a backend socket. out (CG_PATH_MAX
 * + 1 bytes) receives the resolved path for CG_PATH_ALLOWED, the bind
 * roots joined by ", " for CG_PATH_OUTSIDE, "" otherwise. Never returns
 * CG_PATH_UNRESOLVABLE.
 */
enum cg_path_verdict pathres_resolve(const struct gateway *gw,
    const char *path, char out[CG_PATH_MAX + 1]);

/*
 * Resolve path with the algorithm of policy.md §4.4 step 1 only: path
 * absolute and at most CG_PATH_MAX bytes; symlinks followed (at most 40),
 * components below the first missing one appended lexically, ".." popped
 * (never above "/"). Returns 0 with the result in out (CG_PATH_MAX + 1
 * bytes), or -1 (unresolvable: relative or too long, a lookup error other
 * than ENOENT, a non-directory with components below, too many symlinks,
 * more than 256 lookups or 128 components); out is undefined then.
 */
int pathres_walk(const char *path, char out[CG_PATH_MAX + 1]);

#endif
