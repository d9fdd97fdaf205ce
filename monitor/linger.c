/*
 * The 503 at --max-connections (http.md §1.2, §11) and its linger: the
 * monitor writes the refusal, half-closes, and reads and discards what
 * the client still sends, without looking at it, until end-of-file or a
 * bound, so that the client reads the 503 instead of a reset
 * (doc/reliability.md "Fault table", the connection limit reached). The
 * lingering descriptors are few and bounded in time.
 */
#include "monitor/gateway.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"
#include "monitor/evloop.h"
#include "monitor/exchange/exchange.h"
#include "monitor/linger.h"

#define LINGER_IDLE_MS		2000	/* without a byte */
#define LINGER_TOTAL_MS		10000
#define LINGER_BYTES_MAX	(16u << 20)

void
linger_refuse(struct gateway *gw, int li, int fd)
{
	struct conn tmp = { .gw = gw, .lis = li, .id = ++gw->next_conn_id };
	struct cg_refusal r;
	struct lingering *l;
	char *resp;
	size_t len;

	cg_refuse(&r, "too-many-connections", "more than %u connections are "
	    "open", gw->cfg->max_connections);
	resp = cg_error_response(&r, 0, &len);
	(void)!send(fd, resp, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	free(resp);
	audit_rec_clear(&tmp);
	audit_write(&tmp, AO_ERROR, "-", "-", r.code, r.status, 0, r.detail);
	shutdown(fd, SHUT_WR);
	if (gw->nlingers == LINGER_SLOTS) {	/* no room: close at once */
		close(fd);
		return;
	}
	l = &gw->lingers[gw->nlingers++];
	l->fd = fd;
	l->start = l->last = now_ms();
	l->bytes = 0;
	ev_watch(gw, fd, EV_LINGER, 0, NULL, POLLIN);
}

static void
drop(struct gateway *gw, int i)
{
	ev_close(gw, gw->lingers[i].fd);
	gw->lingers[i] = gw->lingers[--gw->nlingers];
}

void
linger_on_event(struct gateway *gw, int fd, short revents, long long now)
{
	static char sink[65536];
	struct lingering *l;
	ssize_t got;
	int i;

	for (i = 0; i < gw->nlingers && gw->lingers[i].fd != fd; i++)
		;
	if (i == gw->nlingers || revents == 0)
		return;
	l = &gw->lingers[i];
	got = recv(l->fd, sink, sizeof(sink), MSG_DONTWAIT);
	if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
		drop(gw, i);
		return;
	}
	if (got > 0) {
		l->bytes += (size_t)got;
		l->last = now;
		if (l->bytes >= LINGER_BYTES_MAX)
			drop(gw, i);
	}
}

void
linger_tick(struct gateway *gw, long long now)
{
	struct lingering *l;
	int i;

	/* backwards: drop() moves the last entry into the hole */
	for (i = gw->nlingers - 1; i >= 0; i--) {
		l = &gw->lingers[i];
		if (now - l->last >= LINGER_IDLE_MS ||
		    now - l->start >= LINGER_TOTAL_MS ||
		    l->bytes >= LINGER_BYTES_MAX)
			drop(gw, i);
	}
}

void
linger_close_all(struct gateway *gw)
{
	while (gw->nlingers > 0)
		drop(gw, gw->nlingers - 1);
}
