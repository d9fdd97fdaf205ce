/*
 * Accepting clients (privsep.md §8 step 1; http.md §1.2 --max-connections;
 * doc/reliability.md "Fault table", a slowloris of 500): a request parser per
 * connection, the 503 at the limit, idle slots given to newcomers.
 */
#include "monitor/gateway.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"
#include "monitor/accept.h"
#include "monitor/conn.h"
#include "monitor/evloop.h"
#include "monitor/exchange/exchange.h"
#include "monitor/linger.h"
#include "monitor/log.h"
#include "monitor/zygote.h"

/*
 * 1 when c holds a slot without a request in flight: waiting for its
 * request parser, or with it between requests (or reading a head).
 */
static int
idle_conn(const struct conn *c)
{
	return !c->dead && !c->reclaimed && c->client >= 0 &&
	    c->rs == RS_IDLE && c->fq.nfact_q + c->npath_q == 0;
}

/*
 * At the limit, a client process that already holds half the slots (at
 * least one) gets the 503 rather than another's idle slot: a process that
 * opens hundreds of connections (a slowloris) is refused cheaply, without
 * churning request parsers, and the other half stays for everyone else,
 * the project's owner among them (tests/ops/limits.sh). Below the limit any
 * process may hold any number (a library's connection pool).
 */
static unsigned
peer_max(const struct gateway *gw)
{
	return gw->cfg->max_connections > 1 ? gw->cfg->max_connections / 2 : 1;
}

/* The pid of the process at the other end of client socket fd, or -1. */
static pid_t
peer_of_fd(int fd)
{
	struct ucred cr;
	socklen_t crl = sizeof(cr);

	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crl) == 0 &&
	    cr.pid > 0 ? cr.pid : -1;
}

/*
 * c's client process (SO_PEERCRED), asked only once the connection limit
 * is reached, the one time it matters, and then kept (a system
 * call less for every other connection). -1 when unknown.
 */
static pid_t
peer_of(struct conn *c)
{
	if (c->peer_pid == 0)
		c->peer_pid = c->client >= 0 ? peer_of_fd(c->client) : -1;
	return c->peer_pid;
}

/* How many slots client process pid holds now. */
static unsigned
peer_holds(struct gateway *gw, pid_t pid)
{
	struct conn *c;
	unsigned n = 0;

	TAILQ_FOREACH(c, &gw->conns, entry)
		if (c->client >= 0 && !c->reclaimed && peer_of(c) == pid)
			n++;
	return n;
}

/*
 * At --max-connections, a new client may take the slot of an idle
 * connection (tests/ops/limits.sh): a keep-alive connection between requests,
 * one whose head is still arriving (a slowloris), which the monitor
 * cannot tell apart, or one still waiting for its request parser; none
 * has a request in flight. The one given up belongs to the client process
 * that holds the most connections (its peer pid, SO_PEERCRED at accept),
 * the one idle longest among them: a process that opens hundreds of
 * connections loses its own slots to newcomers, while the project's
 * owner, holding a few, keeps them. Its client socket is shut down both
 * ways: its child sees end-of-file and leaves as after any client close.
 * A connection with a request in flight (an inspect, a forward, a stream)
 * is never taken. Returns 1 when a slot was freed, 0 when none is idle.
 */
static int
reclaim_idle(struct gateway *gw)
{
	struct conn *c, *victim = NULL;
	unsigned held, victim_held = 0;

	/*
	 * An honest request parser leaves within milliseconds of its
	 * client's end-of-file; one that does not still holds its
	 * descriptors and its process, uncounted. Without this bound a
	 * compromised parser that ignores the end-of-file kept any number
	 * of connections past --max-connections (each newcomer took a slot
	 * the limit no longer counted).
	 */
	if (gw->nreclaimed >= RECLAIMED_MAX)
		return 0;
	TAILQ_FOREACH(c, &gw->conns, entry) {
		if (!idle_conn(c))
			continue;
		held = peer_of(c) > 0 ? peer_holds(gw, c->peer_pid) : 1;
		if (victim == NULL || held > victim_held ||
		    (held == victim_held && c->idle_ms < victim->idle_ms)) {
			victim = c;
			victim_held = held;
		}
	}
	if (victim == NULL)
		return 0;
	log_msg(LOG_INFO, "listen", "connection %llu (client pid %d, %u "
	    "connections) idle for %lld ms gives its slot to a new client "
	    "(--max-connections %u)", (unsigned long long)victim->id,
	    (int)victim->peer_pid, victim_held, now_ms() - victim->idle_ms,
	    gw->cfg->max_connections);
	shutdown(victim->client, SHUT_RDWR);
	victim->reclaimed = 1;
	victim->reclaim_kill_ms = now_ms() + RECLAIM_KILL_MS;
	gw->nclients--;
	gw->nreclaimed++;
	return 1;
}

void
accept_reclaim_expired(struct conn *c)
{
	/*
	 * An honest parser leaves at its client's end-of-file (privsep.md).
	 * One that never had its client (no CONN_START yet: the zygote was
	 * slow) read no client byte: it is simply let go, and killed from
	 * the exiting list if it stays (serve.c drop_conn).
	 */
	if (c->started)
		(void)conn_violation(c, "still runs %d ms after its slot was given "
		    "to a new client", RECLAIM_KILL_MS);
	c->reclaim_kill_ms = 0;
	c->dead = 1;
}

/*
 * Accept one client on listener li: a request parser for it, or the 503
 * (linger.c). Returns 1 when a connection was taken (another may wait),
 * 0 when none was (nothing pending, or out of descriptors).
 */
int
accept_client(struct gateway *gw, int li)
{
	struct conn *c;
	pid_t peer_pid = 0;
	int fd;

	fd = accept4(gw->lis[li].fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0) {
		/* out of descriptors: the listener stays readable; wait a bit */
		if (errno == EMFILE || errno == ENFILE) {
			gw->accept_paused_until = now_ms() + 100;
			log_msg(LOG_WARNING, "listen", "accept: %s; pausing new "
			    "connections for 100 ms", strerror(errno));
		}
		return 0;
	}
	if (gw->nclients >= gw->cfg->max_connections &&
	    (((peer_pid = peer_of_fd(fd)) > 0 &&
	    peer_holds(gw, peer_pid) >= peer_max(gw)) || !reclaim_idle(gw))) {
		linger_refuse(gw, li, fd);
		return 1;
	}
	c = gw->spare;
	gw->spare = NULL;
	if (c == NULL)
		c = zygote_spawn(gw);
	if (c == NULL) {
		close(fd);
		return 1;
	}
	gw->nclients++;
	gw->idle_since = -1;
	c->client = fd;
	c->lis = li;
	c->accepted_ms = c->idle_ms = now_ms();
	c->peer_pid = peer_pid;
	if (c->ready)
		start_conn(gw, c);
	mark_dirty(gw, c);
	gw->spare = zygote_spawn(gw);
	mark_dirty(gw, gw->spare);
	return 1;
}

