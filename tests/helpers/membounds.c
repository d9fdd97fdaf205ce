/*
 * membounds: the monitor's memory bounds computed from the code's own
 * constants and types (doc/reliability.md "Memory bounds"), one KEY=VALUE line
 * each, in bytes; tests/sanitize/reliability-report.sh renders them next to
 * the measured peaks, so the page follows the code.
 *
 * Per connection (struct conn and what it points to), each buffer at its
 * largest, counting fifo growth (base/fifo.c doubles a buffer: at most
 * twice its bound is allocated). The IPC messages the monitor queues for a
 * child are encoded by the real encoder at their largest.
 */
#include <stdio.h>
#include <string.h>

#include "base/fifo.h"
#include "http/http.h"
#include "ipc/proto.h"
#include "monitor/budget.h"
#include "monitor/exchange/listfilter.h"
#include "monitor/gateway.h"
#include "policy/headers.h"
#include "policy/json.h"
#include "policy/policy.h"

static unsigned char buf[IPC_MSG_MAX];
static char fill[8192];

/* The encoded size of m, plus the queue's own record (ipc/queue.c). */
static size_t
queued(const struct ipc_msg *m)
{
	int n = ipc_encode(m, buf, sizeof(buf));

	if (n < 0) {
		fprintf(stderr, "membounds: cannot encode type %u\n", m->type);
		return 0;
	}
	return (size_t)n + 3 * sizeof(void *) + sizeof(size_t);
}

static struct ipc_str
str(size_t n)
{
	struct ipc_str s = { fill, (uint32_t)n };

	return s;
}

int
main(void)
{
	struct ipc_msg m;
	size_t fact, path, verdict, end, start, queue, head, up, down, json, list,
	    internal, stream, rhead, early, df, tree8;

	memset(fill, 'a', sizeof(fill));
	memset(&m, 0, sizeof(m));
	m.fd = -1;
	m.type = IPC_FACT_ANSWER;
	m.u.fact_answer.id = str(CG_ID_MAX);
	fact = queued(&m);
	memset(&m.u, 0, sizeof(m.u));
	m.type = IPC_PATH_ANSWER;
	m.u.path_answer.resolved = str(CG_PATH_MAX);
	path = queued(&m);
	memset(&m.u, 0, sizeof(m.u));
	m.type = IPC_VERDICT;
	m.u.verdict.code = str(32);
	m.u.verdict.detail = str(1024);
	verdict = queued(&m);
	memset(&m.u, 0, sizeof(m.u));
	m.type = IPC_RESPONSE_END;
	end = queued(&m);
	memset(&m.u, 0, sizeof(m.u));
	m.type = IPC_CONN_START;
	m.u.conn_start.root = str(CG_PATH_MAX);
	m.u.conn_start.proxy = str(512);
	m.u.conn_start.noproxy = str(1024);
	start = queued(&m);
	/* a request's answers: every question it may ask, its verdict, its end */
	queue = start + IPC_FACT_QUERIES_MAX * fact + IPC_PATH_QUERIES_MAX * path +
	    verdict + end;

	/* the forwarded head: request line, Host, the header list, Upgrade */
	head = 16 + 1 + CG_TARGET_MAX + 11 + 15 +
	    CG_FWD_FIELDS_MAX * (64 + 2 + CG_FWD_VALUE_MAX + 2) + 64;
	rhead = HTTP_HEAD_MAX + IPC_DATA_MAX;
	/* towards the backend: below RELAY_UP_MAX one more BODY and its chunk
	   framing is taken; the fifo may have doubled */
	up = 2 * (RELAY_UP_MAX + IPC_DATA_MAX + 16);
	down = 2 * RELAY_DOWN_MAX;
	early = 2 * IPC_EARLY_MAX;
	/* a JSON body as received (c->json) and, for a moment, its copy queued
	   with the head (backend.c backend_forward) */
	json = 2 * (JSON_MAX_TEXT + 1) + 3 * head;
	/* a list answer collected whole, then the filtered one instead */
	list = LISTFILTER_RAW_MAX + rhead + head;
	/* an inspect or pre-create answer (backend.c INTERNAL_RESPONSE_MAX) */
	internal = (8u << 20) + HTTP_HEAD_MAX + head;
	stream = head + rhead + up + down + early;
	/* a system df answered by the monitor (monitor/exchange/answer.c): the decoded
	   bodies of its ANSWER_PARTS internal requests, kept until all are in */
	df = ANSWER_PARTS * ((8u << 20) + HTTP_HEAD_MAX) + internal;

	/* the record with its facts array at its largest (facts.c) */
	printf("conn_record=%zu\n", sizeof(struct conn) +
	    CG_FACTS_MAX * sizeof(struct fact));
	printf("ipc_fact_answer=%zu\nipc_path_answer=%zu\nipc_verdict=%zu\n",
	    fact, path, verdict);
	printf("ipc_queue=%zu\n", queue);
	printf("forward_head=%zu\nresponse_head=%zu\n", head, rhead);
	printf("relay_up=%zu\nrelay_down=%zu\nearly=%zu\n", up, down, early);
	printf("relay_up_max=%u\nrelay_down_max=%u\n", RELAY_UP_MAX,
	    RELAY_DOWN_MAX);
	printf("json_exchange=%zu\nlist_exchange=%zu\ninternal_exchange=%zu\n"
	    "stream_exchange=%zu\n", json, list, internal, stream);
	printf("json_max=%u\nlist_max=%u\n", JSON_MAX_TEXT, LISTFILTER_RAW_MAX);
	printf("df_exchange=%zu\nanswer_parts=%d\n", df, ANSWER_PARTS);
	{
		size_t x = json;

		if (list > x)
			x = list;
		if (df > x)
			x = df;
		printf("per_conn_max=%zu\n", sizeof(struct conn) +
		    CG_FACTS_MAX * sizeof(struct fact) + queue + x);
	}
	printf("per_conn_stream=%zu\n", sizeof(struct conn) +
	    CG_FACTS_MAX * sizeof(struct fact) + queue + stream);
	/*
	 * One parse at a time (the monitor is one thread, and no tree outlives
	 * its call: phase.c keep_names): a value of the densest text (0,) is
	 * 2 bytes; its node is a cJSON, its number's lexeme a malloc chunk of
	 * 32, each allocation with a 16-byte header.
	 */
	printf("tree_per_value=%zu\n", sizeof(cJSON) + 16 + 32);
	tree8 = (size_t)((8u << 20) + HTTP_HEAD_MAX) / 2 * (sizeof(cJSON) + 16 + 32);
	/* a df computes from its answers' trees at once (monitor/exchange/usage.c) */
	printf("transient_df=%zu\n", ANSWER_PARTS * tree8);
	printf("tree_json=%zu\ntree_list=%zu\n",
	    (size_t)JSON_MAX_TEXT / 2 * (sizeof(cJSON) + 16 + 32),
	    (size_t)LISTFILTER_RAW_MAX / 2 * (sizeof(cJSON) + 16 + 32));
	/* with a list's parse: the wire bytes, decoded, serialised, rebuilt */
	printf("transient_list=%zu\n", 3 * (size_t)LISTFILTER_RAW_MAX +
	    (size_t)LISTFILTER_RAW_MAX / 2 * (sizeof(cJSON) + 16 + 32));
	printf("linger_slots=%d\nlinger_slot=%zu\n", LINGER_SLOTS,
	    sizeof(struct lingering));
	printf("pool_max=%d\n", POOL_MAX);
	printf("gateway_record=%zu\n", sizeof(struct gateway));
	printf("ipc_recv_buffer=%d\n", IPC_MSG_MAX + 1);
	/*
	 * The memory budget (monitor/budget.c) at its default, 512 MiB for
	 * --max-connections 256, split as serve splits it; the densest
	 * text's parse per byte of text (json_tree_bound: "0," is 2 bytes
	 * for a node and a lexeme, 112 bytes).
	 */
	{
		static struct cg_config cfg;
		static struct gateway gw;
		static const char dense[] = "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]";

		cfg.memory_budget = 512ull << 20;
		cfg.max_connections = 256;
		gw.cfg = &cfg;
		if (budget_setup(&gw) < 0)
			return 1;
		printf("budget_default=%llu\nbudget_conns=%u\n",
		    cfg.memory_budget, cfg.max_connections);
		printf("budget_per_conn=%llu\n",
		    (unsigned long long)budget_fixed_per_conn());
		printf("budget_fixed=%llu\nbudget_parse=%llu\nbudget_pool=%llu\n",
		    (unsigned long long)gw.budget.fixed,
		    (unsigned long long)gw.budget.parse,
		    (unsigned long long)gw.budget.pool);
		printf("stream_reserve=%u\nrelay_floor=%u\n", STREAM_RESERVE,
		    RELAY_FLOOR);
		printf("tree_per_byte_max=%zu\n", json_tree_bound(dense,
		    sizeof(dense) - 1) / (sizeof(dense) - 1));
		printf("tree_bound_json=%zu\n", (size_t)(JSON_MAX_TEXT / 2) *
		    112 + 4 * (size_t)JSON_MAX_TEXT);
	}
	return 0;
}
