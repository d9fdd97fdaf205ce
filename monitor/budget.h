/*
 * The monitor's memory budget (monitor/budget.c; doc/privsep.md "Memory"):
 * the pool bodies, answers and large relay buffers are taken from, and the
 * line of FORWARDs waiting for room.
 */
#ifndef CG_MONITOR_BUDGET_H
#define CG_MONITOR_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "monitor/gateway.h"

/*
 * Bytes each connection slot is given outside the pool (its record with
 * CG_FACTS_MAX ownership answers, an IPC queue in use, a response head,
 * relay buffers up to RELAY_FLOOR, an internal answer's first
 * allocation): budget.fixed holds --max-connections of them.
 */
uint64_t budget_fixed_per_conn(void);

/*
 * Split cfg->memory_budget (bytes) for cfg->max_connections into fixed,
 * parse and pool, and give json_parse() the parse area as its limit.
 * Returns 0, or -1 with a usage line on stderr when the budget is too
 * small for the connection limit (at start-up, before serving).
 */
int budget_setup(struct gateway *gw);

/*
 * Take n bytes of the pool for c (held until budget_give or
 * budget_release). Returns 0, or -1 (nothing taken) when the pool has
 * not that much left.
 */
int budget_take(struct conn *c, uint64_t n);

/*
 * Give back n of what c holds (at most all); the event loop then admits
 * who waits (budget_admit, at a point where no connection is half-way
 * through a change).
 */
void budget_give(struct conn *c, uint64_t n);

/* Give back all c holds, leave the waiting line: its request ended. */
void budget_release(struct conn *c);

/*
 * Put c's verified FORWARD, which needs need bytes, in line (c->rs
 * RS_BUDGET; its child is not read meanwhile): forward_admitted() when
 * there is room, forward_refused() at --backend-timeout.
 */
void budget_wait(struct conn *c, uint64_t need);

/* Admit waiting FORWARDs, oldest first, while the next one fits. */
void budget_admit(struct gateway *gw);

/*
 * Refuse the waiting FORWARDs whose deadline passed at now (ms). Returns
 * the next deadline, or -1 when nobody waits.
 */
long long budget_expire(struct gateway *gw, long long now);

/*
 * 1 when c may use the larger relay bounds (RELAY_DOWN_MAX, RELAY_UP_MAX):
 * it holds STREAM_RESERVE, taken now if the pool has it; 0: keep below
 * RELAY_FLOOR.
 */
int budget_stream(struct conn *c);

/* What to do about a budget refusal; the refusal's detail into out. */
const char *budget_hint(void);
void budget_detail(const struct gateway *gw, char *out, size_t outsz);

#endif
