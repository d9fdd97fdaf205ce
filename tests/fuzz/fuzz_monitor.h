/*
 * The monitor of the FORWARD fuzz target (fuzz_forward.c) and of its seed
 * maker (seed_forward.c): one gateway (the policy context of
 * fuzz_input.h: project /home/user/project, podman.sock and docker.sock on
 * a podman backend, egress off, that root the only bind root) and one
 * fixed table of what the monitor answered owned in the request. The seed
 * maker answers the child's questions from the same table, so its seeds
 * are FORWARDs the monitor accepts.
 */
#ifndef CG_FUZZ_MONITOR_H
#define CG_FUZZ_MONITOR_H

#include <stdio.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/exchange/backend.h"
#include "monitor/gateway.h"
#include "monitor/exchange/relay.h"

#define FZ_ROOT		"/home/user/project"

/* What the monitor answered owned: kind, the ref as asked, the id. */
static const struct {
	enum cg_fact_kind kind;
	const char *ref, *id;
} fz_facts[] = {
	{ CG_FACT_CONTAINER, "mine",
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
	{ CG_FACT_CONTAINER, "web",
	    "6c81f7cff34ee7aaaf7759c2b355f7d970b215db06e6af9e8d5ddd80424890d2" },
	{ CG_FACT_POD, "mine",
	    "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee" },
	{ CG_FACT_VOLUME, "mine", "mine" },
	{ CG_FACT_NETWORK, "mine",
	    "2222222222222222222222222222222222222222222222222222222222222222" },
	{ CG_FACT_IMAGE, "localhost/busybox",
	    "sha256:5555555555555555555555555555555555555555555555555555555555555555" },
	{ CG_FACT_IMAGE, "mine",
	    "sha256:5555555555555555555555555555555555555555555555555555555555555555" },
	{ CG_FACT_EXEC, "8888888888888888888888888888888888888888888888888888888888888888",
	    "8888888888888888888888888888888888888888888888888888888888888888" },
};

/*
 * The table's answer for kind/ref (by ref or by id): CG_OWNED with the id
 * (for an exec: its container's, as the monitor answers it), else
 * CG_NOT_OWNED.
 */
static inline enum cg_fact_result
fz_owned(enum cg_fact_kind kind, const char *ref, char id_out[CG_ID_MAX + 1])
{
	size_t i;

	for (i = 0; i < sizeof(fz_facts) / sizeof(fz_facts[0]); i++)
		if (fz_facts[i].kind == kind && (strcmp(ref, fz_facts[i].ref) == 0 ||
		    strcmp(ref, fz_facts[i].id) == 0)) {
			snprintf(id_out, CG_ID_MAX + 1, "%s", kind == CG_FACT_EXEC ?
			    fz_facts[0].id : fz_facts[i].id);
			return CG_OWNED;
		}
	return CG_NOT_OWNED;
}

/* The request's fact record as the monitor keeps it (monitor/exchange/facts.c). */
static inline void
fz_fill_facts(struct conn *c)
{
	size_t i;

	c->fq.nfacts = 0;
	if (c->fq.facts_cap < sizeof(fz_facts) / sizeof(fz_facts[0])) {
		c->fq.facts_cap = sizeof(fz_facts) / sizeof(fz_facts[0]);
		c->fq.facts = xrealloc(c->fq.facts, c->fq.facts_cap * sizeof(*c->fq.facts));
	}
	for (i = 0; i < sizeof(fz_facts) / sizeof(fz_facts[0]); i++) {
		c->fq.facts[c->fq.nfacts].kind = (uint8_t)fz_facts[i].kind;
		snprintf(c->fq.facts[c->fq.nfacts].id, sizeof(c->fq.facts[0].id), "%s",
		    fz_facts[i].id);
		snprintf(c->fq.facts[c->fq.nfacts].ref, sizeof(c->fq.facts[0].ref), "%s",
		    fz_facts[i].ref);
		c->fq.nfacts++;
	}
}

/* The gateway: lis[0] podman.sock, lis[1] docker.sock, both on podman. */
static inline void
fz_gateway(struct gateway *gw, struct cg_config *cfg)
{
	static char root[] = FZ_ROOT;
	static char *roots[1] = { root };
	int i;

	memset(gw, 0, sizeof(*gw));
	memset(cfg, 0, sizeof(*cfg));
	cfg->egress = CG_EGRESS_OFF;
	gw->cfg = cfg;
	snprintf(gw->root, sizeof(gw->root), "%s", FZ_ROOT);
	gw->bind_roots[0] = roots[0];
	gw->nbind_roots = 1;
	snprintf(gw->bind_roots_text, sizeof(gw->bind_roots_text), "%s", FZ_ROOT);
	gw->backend_timeout_ms = 60000;
	gw->pid_fd = gw->exe_fd = -1;
	TAILQ_INIT(&gw->conns);
	TAILQ_INIT(&gw->exiting);
	for (i = 0; i < CG_SOCKETS; i++) {
		gw->lis[i].fd = -1;
		gw->lis[i].socket_kind = i == 0 ? CG_PODMAN : CG_DOCKER;
		gw->lis[i].backend_kind = CG_PODMAN;
		snprintf(gw->lis[i].backend_path, sizeof(gw->lis[i].backend_path),
		    "/run/backend/podman.sock");
	}
}

#endif
