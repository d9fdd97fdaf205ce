/*
 * A create's JSON body, parsed once by the monitor's phase (createbody.h).
 * Only this file writes c->cb (tests/boundary.sh rule 5).
 */
#include "monitor/gateway.h"
#include "monitor/exchange/createbody.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"
#include "policy/imagecfg.h"

void
createbody_free(struct conn *c)
{
	int i;

	if (c->cb.sd != NULL) {
		image_systemd_body_free(c->cb.sd);
		free(c->cb.sd);
		c->cb.sd = NULL;
	}
	for (i = 0; i < c->cb.nbind; i++)
		free(c->cb.binds[i].path);
	free(c->cb.binds);
	c->cb.binds = NULL;
	c->cb.nbind = 0;
	c->cb.read = 0;
}

void
createbody_begin(struct conn *c)
{
	createbody_free(c);
	c->cb.parses = 0;
}

void
createbody_parsed(struct conn *c)
{
	c->cb.parses++;
}

void
createbody_log(const struct conn *c)
{
	log_msg(LOG_DEBUG, "body-parses", "the monitor parsed the forwarded "
	    "JSON body %u time%s (conn %llu)", c->cb.parses,
	    c->cb.parses == 1 ? "" : "s", (unsigned long long)c->id);
}
