/*
 * Ownership verdicts of full ids (routes.md §9.3 [S]; doc/privsep.md
 * "Scaling"): a container or pod is created with its labels, which never
 * change, and its full 64-hex id is random, never given to another resource,
 * so what the monitor learned about one stays true for the gateway's lifetime.
 * Networks are not kept: podman's CNI backend derives a network's id from its
 * name (sha256 of the name), so a network removed without the gateway seeing
 * it (a prune, another client) and created again under the same name by
 * another project has the same full id. Inspects of the same id are then
 * answered without asking the backend again (docker run addresses its
 * container by the full id the create returned, a dozen times). Names and id
 * prefixes are never kept: they can be given to another resource at any time
 * (B43).
 *
 * An entry is dropped when the backend answers 404 for its id or removes
 * it through this gateway (relay.c). The tree (libc's tsearch) holds at
 * most OCACHE_MAX entries; a full tree is emptied and filled again.
 */
#include "monitor/gateway.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/ocache.h"

#define OCACHE_MAX	4096

struct oentry {
	uint8_t kind;
	uint8_t verdict;		/* CG_OWNED or CG_NOT_OWNED */
	char id[65];
};

static int
cmp(const void *a, const void *b)
{
	const struct oentry *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->id, y->id);
}

int
ocache_kind(int kind)
{
	return kind == CG_FACT_CONTAINER || kind == CG_FACT_POD;
}

int
ocache_full_id(const char *s, size_t len)
{
	size_t i;

	if (len != 64)
		return 0;
	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

int
ocache_get(const struct gateway *gw, int kind, const char *id)
{
	struct oentry key, **hit;

	if (!ocache_kind(kind) || !ocache_full_id(id, strlen(id)))
		return -1;
	key.kind = (uint8_t)kind;
	memcpy(key.id, id, 65);
	hit = tfind(&key, &gw->ocache, cmp);
	return hit != NULL ? (*hit)->verdict : -1;
}

void
ocache_free(struct gateway *gw)
{
	tdestroy(gw->ocache, free);
	gw->ocache = NULL;
	gw->nocache = 0;
}

void
ocache_put(struct gateway *gw, int kind, const char *id, int verdict)
{
	struct oentry *e, **hit;

	if (!ocache_kind(kind) || !ocache_full_id(id, strlen(id)) ||
	    (verdict != CG_OWNED && verdict != CG_NOT_OWNED))
		return;
	if (gw->nocache >= OCACHE_MAX)
		ocache_free(gw);
	e = xcalloc(1, sizeof(*e));
	e->kind = (uint8_t)kind;
	e->verdict = (uint8_t)verdict;
	memcpy(e->id, id, 65);
	hit = tsearch(e, &gw->ocache, cmp);
	if (hit == NULL)
		xoom();
	if (*hit != e) {		/* there already: the newer verdict */
		(*hit)->verdict = e->verdict;
		free(e);
		return;
	}
	gw->nocache++;
}

void
ocache_drop(struct gateway *gw, int kind, const char *id)
{
	struct oentry key, **hit, *e;

	if (!ocache_kind(kind) || !ocache_full_id(id, strlen(id)))
		return;
	key.kind = (uint8_t)kind;
	memcpy(key.id, id, 65);
	hit = tfind(&key, &gw->ocache, cmp);
	if (hit == NULL)
		return;
	e = *hit;
	tdelete(&key, &gw->ocache, cmp);
	free(e);
	gw->nocache--;
}
