/*
 * The monitor's memory budget (doc/reliability.md "Memory
 * bounds"; --memory-budget, CONTAINER_GATEWAY_MEMORY_BUDGET). The monitor
 * is the privileged process: an out-of-memory kill of it takes every
 * connection down. Each connection was bounded (about 41 MiB), the sum
 * was not (11.4 GiB at 256 connections). Now one global budget bounds it:
 *
 *   fixed  the program and, per connection slot, what is bounded by the
 *          code and small: its record with its ownership answers at
 *          their most, its IPC queue, a response head, relay buffers up
 *          to RELAY_FLOOR each (budget_fixed_per_conn());
 *   parse  one JSON parse tree at a time (the monitor is one thread and
 *          no tree outlives the call that made it): json_parse() refuses
 *          a text whose json_tree_bound() does not fit (the densest
 *          8 MiB body takes more than 300 MiB);
 *   pool   everything else, taken before it is allocated and given back
 *          when it is freed: a forwarded request's head and JSON body
 *          (admitted at FORWARD: it waits in line for room, up to
 *          --backend-timeout, then gets a 503), a list answer being
 *          collected and an internal answer beyond its first 63 KiB (a
 *          503 or the inspect's error when there is no room), and a
 *          connection's relay buffers beyond RELAY_FLOOR (STREAM_RESERVE
 *          at once; without room the relay keeps to the floor and reads
 *          more slowly).
 *
 * fixed + parse + pool = the budget: the monitor's resident memory stays
 * within it (tests/sanitize/load.sh measures it; make bench with 256
 * clients). A budget too small for --max-connections is a start-up error.
 */
#include "monitor/gateway.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "monitor/budget.h"
#include "monitor/evloop.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"
#include "policy/json.h"

/*
 * The program itself: text, libraries, static buffers, heap at rest, the
 * ownership cache (448 KiB at most), the orphaned answers being drained
 * (drain.c: 16 of 72 KiB).
 */
#define BUDGET_BASE		(8ull << 20)
/* At least this much pool and parse area, or the budget is too small. */
#define BUDGET_MIN_AREA		(8ull << 20)

uint64_t
budget_fixed_per_conn(void)
{
	/*
	 * The record with CG_FACTS_MAX answers (facts.c grows them on
	 * demand), an IPC queue in use (a child is not read while an
	 * answer waits for it: CONN_START, one answer, VERDICT,
	 * RESPONSE_END), a response head (relay.c RHEAD_MAX), the two
	 * relay buffers below RELAY_FLOOR and one more write (a head
	 * towards the client, a BODY towards the backend), doubled by
	 * base/fifo.c, an internal answer's first allocation
	 * (backend.c backend_read_internal), a message kept behind
	 * announced body-pipe bytes (dispatch.c c->stash) and a checked
	 * upload's BODY bytes waiting to be fed (check.c ck.pend, one BODY,
	 * doubled).
	 */
	return sizeof(struct conn) + CG_FACTS_MAX * sizeof(struct fact) +
	    (8u << 10) + HTTP_HEAD_MAX + IPC_DATA_MAX +
	    2 * (RELAY_FLOOR + HTTP_HEAD_MAX) +
	    2 * (RELAY_FLOOR + IPC_DATA_MAX + 32) +
	    IPC_DATA_MAX + IPC_DATA_MAX + 64 + 2 * IPC_DATA_MAX;
}

int
budget_setup(struct gateway *gw)
{
	struct budget *b = &gw->budget;
	uint64_t limit = gw->cfg->memory_budget, rest;

	memset(b, 0, sizeof(*b));
	TAILQ_INIT(&b->waiting);
	b->limit = limit;
	b->fixed = BUDGET_BASE + (uint64_t)gw->cfg->max_connections *
	    budget_fixed_per_conn();
	if (limit < b->fixed + 2 * BUDGET_MIN_AREA) {
		fprintf(stderr, "container-gateway: --memory-budget %llu MiB is "
		    "too small for --max-connections %u: it needs at least "
		    "%llu MiB (%llu KiB per connection, 8 MiB for the program, "
		    "16 MiB for bodies and parses)\n",
		    (unsigned long long)(limit >> 20), gw->cfg->max_connections,
		    (unsigned long long)((b->fixed + 2 * BUDGET_MIN_AREA +
		    (1u << 20) - 1) >> 20),
		    (unsigned long long)(budget_fixed_per_conn() >> 10));
		return -1;
	}
	rest = limit - b->fixed;
	/*
	 * Most of the rest for the one parse at a time: a tree takes
	 * 5-56 bytes per byte of text, a body held 2 (received, then
	 * queued for the backend).
	 */
	b->parse = rest / 8 * 5;
	b->pool = rest - b->parse;
	json_set_tree_limit((size_t)b->parse);
	return 0;
}

int
budget_take(struct conn *c, uint64_t n)
{
	struct budget *b = &c->gw->budget;

	if (n == 0 || b->limit == 0)	/* no budget set up (unit tests) */
		return 0;
	if (b->used + n > b->pool)
		return -1;
	b->used += n;
	c->held += n;
	if (b->used > b->peak)
		b->peak = b->used;
	return 0;
}

void
budget_give(struct conn *c, uint64_t n)
{
	struct budget *b = &c->gw->budget;

	if (n > c->held)
		n = c->held;
	if (n == 0)
		return;
	c->held -= n;
	b->used -= n;
	/* admitted by the loop, not from inside whoever gave it back */
	if (!TAILQ_EMPTY(&b->waiting))
		b->admit_due = 1;
}

void
budget_release(struct conn *c)
{
	if (c->bwait) {
		TAILQ_REMOVE(&c->gw->budget.waiting, c, bentry);
		c->bwait = 0;
	}
	c->stream_big = 0;
	budget_give(c, c->held);
}

void
budget_wait(struct conn *c, uint64_t need)
{
	c->bneed = need;
	c->bdeadline = now_ms() + c->gw->backend_timeout_ms;
	c->bwait = 1;
	c->rs = RS_BUDGET;
	TAILQ_INSERT_TAIL(&c->gw->budget.waiting, c, bentry);
}

void
budget_admit(struct gateway *gw)
{
	struct budget *b = &gw->budget;
	struct conn *c;

	/*
	 * Oldest first, and no one past a request that does not fit yet:
	 * small requests do not starve a large one. Admission may free
	 * memory again (a request refused at once), hence the loop.
	 */
	b->admit_due = 0;
	while ((c = TAILQ_FIRST(&b->waiting)) != NULL && !b->admitting) {
		if (b->used + c->bneed > b->pool)
			break;
		TAILQ_REMOVE(&b->waiting, c, bentry);
		c->bwait = 0;
		(void)budget_take(c, c->bneed);
		b->admitting = 1;
		forward_admitted(c);
		b->admitting = 0;
		mark_dirty(gw, c);
	}
}

long long
budget_expire(struct gateway *gw, long long now)
{
	struct conn *c;
	long long next = -1;

	while ((c = TAILQ_FIRST(&gw->budget.waiting)) != NULL &&
	    now >= c->bdeadline) {
		TAILQ_REMOVE(&gw->budget.waiting, c, bentry);
		c->bwait = 0;
		gw->budget.refused++;
		forward_refused(c);
		mark_dirty(gw, c);
	}
	/* the queue is in arrival order, so in deadline order */
	if ((c = TAILQ_FIRST(&gw->budget.waiting)) != NULL)
		next = c->bdeadline;
	return next;
}

int
budget_stream(struct conn *c)
{
	if (c->stream_big)
		return 1;
	if (budget_take(c, STREAM_RESERVE) < 0)
		return 0;
	c->stream_big = 1;
	return 1;
}

const char *
budget_hint(void)
{
	return "retry in a moment; if it keeps happening, raise "
	    "--memory-budget or send smaller bodies";
}

void
budget_detail(const struct gateway *gw, char *out, size_t outsz)
{
	snprintf(out, outsz, "the gateway's memory budget (%llu MiB) is taken "
	    "by other requests' bodies and answers",
	    (unsigned long long)(gw->budget.limit >> 20));
}
