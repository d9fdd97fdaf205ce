/*
 * One connection of the monitor (privsep.md §3, §10): its record, the
 * messages it sends to its child, what happens when the child breaks the
 * protocol, and how an exchange and a request end. The stages above
 * (dispatch, verify, phase, answer, facts, relay, splice, backend) all
 * come down here; nothing here calls up (no circle: farm-studio look).
 */
#include "monitor/gateway.h"

#include <cjson/cJSON.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/budget.h"
#include "monitor/conn.h"
#include "monitor/evloop.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"
#include "monitor/pins.h"

/* a parsed JSON body or list answer from this size on is trimmed after */
#define TRIM_MIN	(1u << 20)

struct conn *
conn_new(struct gateway *gw, pid_t pid, int ipc)
{
	struct conn *c = xcalloc(1, sizeof(*c));

	c->gw = gw;
	c->pid = pid;
	c->ipc = ipc;
	c->client = -1;
	c->bc.fd = -1;
	c->wfd[0] = c->wfd[1] = c->wfd[2] = c->wfd[3] = -1;
	check_init(c);
	verify_init(c);
	relay_init(c);
	splice_init(c);
	c->rs = RS_IDLE;
	ipc_queue_init(&c->outq);
	audit_rec_clear(c);
	return c;
}

/* Hand the client to a ready child (privsep.md §8 step 1). */
void
start_conn(struct gateway *gw, struct conn *c)
{
	const struct listener *l = &gw->lis[c->lis];
	struct ipc_msg m = { .type = IPC_CONN_START };
	int rc;

	c->id = ++gw->next_conn_id;
	m.fd = c->client;
	m.u.conn_start.conn = c->id;
	m.u.conn_start.socket_kind = l->socket_kind == CG_DOCKER ?
	    IPC_KIND_DOCKER : IPC_KIND_PODMAN;
	m.u.conn_start.backend_kind = l->backend_kind == CG_DOCKER ?
	    IPC_KIND_DOCKER : IPC_KIND_PODMAN;
	m.u.conn_start.root.p = gw->root;
	m.u.conn_start.root.len = (uint32_t)strlen(gw->root);
	m.u.conn_start.egress = (uint8_t)gw->cfg->egress;
	m.u.conn_start.proxy.p = l->proxy;
	m.u.conn_start.proxy.len = (uint32_t)strlen(l->proxy);
	m.u.conn_start.noproxy.p = l->noproxy;
	m.u.conn_start.noproxy.len = (uint32_t)strlen(l->noproxy);
	m.u.conn_start.proxy_available = (uint8_t)l->proxy_available;
	m.u.conn_start.backend_timeout_ms = gw->backend_timeout_ms;
	m.u.conn_start.commit_needs_body = (uint8_t)l->commit_needs_body;
	m.u.conn_start.backend_rootless = (uint8_t)l->backend_rootless;
	ipc_audit(c, "to-child", &m);
	rc = ipc_send(c->ipc, &m, MSG_DONTWAIT);
	/*
	 * The monitor keeps its copy: it writes forwarded responses and
	 * relays switched streams itself (privsep.md §1 amendment).
	 */
	c->started = 1;
	if (rc != IPC_OK) {
		log_msg(LOG_ERROR, "child-exit", "cannot hand connection %llu to "
		    "its request parser: %s", (unsigned long long)c->id,
		    ipc_strerror(rc));
		kill(c->pid, SIGKILL);
		c->dead = 1;
	}
}

void
conn_settle(struct conn *c, int status)
{
	pins_settle(c, status);
	if (c->sc_settle != NULL)
		c->sc_settle(c, status);
}

void
conn_free(struct conn *c)
{
	check_end(c);
	projnet_unlock(c);	/* others waiting to create it go on */
	budget_release(c);
	conn_settle(c, -1);	/* an outcome not seen: the sweep decides */
	free(c->pin_names);
	conn_close_backend(c);
	ev_close_sole(c->gw, c->ipc);
	ev_close(c->gw, c->client);
	ipc_queue_clear(&c->outq);
	relay_free(c);
	splice_free(c);
	free(c->stash);
	conn_free_phase_tree(c);
	answer_free(c);
	facts_free(c);
	verify_free(c);
	free(c->json);
	free(c->reg_config);
	free(c->im_pin);
	free(c->head);
	relay_filter_reset(c);
	c->rec.msg = NULL;
	audit_rec_clear(c);
	free(c);
}

void
conn_close_backend(struct conn *c)
{
	ev_close_sole(c->gw, c->bc.fd);
	fifo_free(&c->bc.out);

	free(c->bc.in);
	free(c->bc.retry);
	memset(&c->bc, 0, sizeof(c->bc));
	c->bc.fd = -1;
}

int
conn_flush(struct conn *c)
{
	return ipc_queue_flush(&c->outq, c->ipc) == IPC_OK ? 0 : -1;
}

void
conn_send(struct conn *c, struct ipc_msg *m)
{
	int rc;

	m->fd = -1;
	ipc_audit(c, "to-child", m);
	rc = ipc_queue_add(&c->outq, m);
	if (rc != IPC_OK) {	/* our own message: an invariant is broken */
		log_msg(LOG_ERROR, "ipc", "cannot encode %s: %s",
		    ipc_type_name(m->type), ipc_strerror(rc));
		abort();
	}
	(void)conn_flush(c);
}

/*
 * The child broke the protocol or failed the replay: the ERROR line
 * (what escaped: it may quote the child's bytes), its record (outcome o),
 * the exchange ended, the child SIGKILLed.
 */
static int
end_child(struct conn *c, enum audit_outcome o, const char *code,
    const char *what)
{
	char *esc = log_escape(what, strlen(what));

	log_msg(LOG_ERROR, "child-exit", "protocol violation from request parser "
	    "for connection %llu (pid %d): %s", (unsigned long long)c->id,
	    (int)c->pid, esc);
	/*
	 * Its record, whatever the state: the request it was on, what it
	 * tried; after its request's record, one more (doc/audit.md).
	 */
	/* forwarded whole, no answer yet: the record waits for it (drain.c) */
	if (c->started && !drain_take(c, o, code, esc))
		audit_violation(c, o, code, esc);
	free(esc);
	conn_abandon_exchange(c, "the request parser broke the protocol");
	if (c->fwd_pending) {
		c->fwd_pending = 0;
		ipc_audit_verdict(c, "violation", NULL);
	}
	if (c->pid > 0)
		kill(c->pid, SIGKILL);
	return -1;
}

/* end_child() with the reason formatted from fmt and ap. */
static int
vend_child(struct conn *c, enum audit_outcome o, const char *code,
    const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

static int
vend_child(struct conn *c, enum audit_outcome o, const char *code,
    const char *fmt, va_list ap)
{
	char what[256];

	vsnprintf(what, sizeof(what), fmt, ap);
	return end_child(c, o, code, what);
}

int
conn_violation(struct conn *c, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vend_child(c, AO_VIOLATION, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int
conn_replay_refused(struct conn *c, const char *code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vend_child(c, AO_REPLAY_REFUSED, code, fmt, ap);
	va_end(ap);
	return rc;
}

const char *
conn_backend_name(const struct conn *c)
{
	return c->gw->lis[c->lis].backend_kind == CG_DOCKER ? "docker" : "podman";
}

void
conn_free_phase_tree(struct conn *c)
{
	phase_free(c);
	image_free(c);
	createbody_free(c);
	image_dests_free(&c->dn);
	c->dn_step = 0;
}

void
conn_abandon(struct conn *c, const char *why)
{
	/* before its FORWARD a request is known by its questions, its
	   REQUEST_BEGIN, or the FORWARD being verified */
	int asked = c->rs == RS_IDLE && (c->fq.nfact_q + c->npath_q > 0 ||
	    c->begun || c->fwd_pending);
	int forwarded = c->rs != RS_IDLE && c->rs != RS_FACT &&
	    c->rs != RS_WAIT_DONE;

	/*
	 * The child ended: a request forwarded whole keeps its backend
	 * exchange until the answer (drain.c), so its record says how the
	 * backend answered; the client is gone either way.
	 */
	if ((asked || c->rs == RS_FACT || forwarded) && !c->logged &&
	    !drain_take(c, AO_ALLOWED, NULL, why))
		audit_abandon(c, forwarded ? c->fw.method : "-", forwarded &&
		    c->fw.log_path != NULL ? c->fw.log_path : "-", why);
	conn_abandon_exchange(c, why);
}

/* ---------------------------------------------------------------- requests */

void
conn_end_request(struct conn *c)
{
	int parsed_big = (c->fw.body_kind == FB_JSON && c->body_len >= TRIM_MIN) ||
	    c->lf.len >= TRIM_MIN;

	conn_close_backend(c);
	conn_free_phase_tree(c);
	check_end(c);
	relay_free(c);
	splice_free(c);
	free(c->json);
	free(c->reg_config);
	free(c->head);
	relay_filter_reset(c);
	free(c->im_pin);
	c->json = c->head = c->reg_config = NULL;
	c->build_pull = 0;
	c->im_pin = NULL;
	verify_end(c);		/* its events filter; no body */
	budget_release(c);	/* all freed above: back to the pool */
	c->rs = RS_IDLE;
	facts_reset(c);
	c->npath_q = c->nlogs = 0;
	c->begun = 0;
	c->body_deadline = 0;
	c->body_len = 0;
	audit_rec_clear(c);
	c->idle_ms = now_ms();	/* idle from here (serve.c reclaims) */
	/*
	 * The trees of a large body's replay (and of a large list answer)
	 * are freed, but in small chunks the heap keeps: hand the free pages
	 * back, or one 8 MiB body leaves the monitor at 230 MB for good
	 * (doc/reliability.md "Memory bounds").
	 */
	if (parsed_big)
		malloc_trim(0);
}

void
conn_end_exchange(struct conn *c)
{
	struct ipc_msg m = { .type = IPC_RESPONSE_END, .req = c->req };

	audit_flush(c);		/* a create's record waiting for its id */
	conn_close_backend(c);
	relay_free(c);
	splice_early_free(c);
	if (c->closing && c->client >= 0) {
		/* the child keeps its copy while it lingers */
		shutdown(c->client, SHUT_WR);
		ev_close(c->gw, c->client);
		c->client = -1;
	}
	/*
	 * A light exchange kept alive is over now, and its child is not told:
	 * it reads its client's next request already, which stands for DONE
	 * (privsep.md §8). A DONE for it (the child would write to its client
	 * or leave) gets the RESPONSE_END keep-alive then (light_req,
	 * dispatch.c). Any other end is sent.
	 */
	if (!c->end_sent) {
		c->end_sent = 1;
		m.u.response_end.mode = c->closing ? IPC_END_CLOSE :
		    IPC_END_KEEP_ALIVE;
		if (c->fw.synced || c->closing || c->rs == RS_IDLE)
			conn_send(c, &m);
	}
	c->ipc_paused = 0;	/* what the child wrote meanwhile is read now */
	if (c->rs != RS_IDLE && !c->fw.synced && !c->closing) {
		conn_end_request(c);
		c->light_req = c->req;
	} else if (c->rs != RS_IDLE) {
		c->rs = RS_WAIT_DONE;
	}
}

void
conn_abandon_exchange(struct conn *c, const char *why)
{
	if (c->rs != RS_STREAM && c->rs != RS_RESPONSE && c->rs != RS_SWITCHED)
		return;
	audit_abandon(c, c->fw.method, c->fw.log_path, why);
	c->closing = 1;
	if (c->client >= 0) {
		ev_close(c->gw, c->client);
		c->client = -1;
	}
	conn_end_exchange(c);
}

unsigned
conn_duration_ms(const struct conn *c)
{
	return (unsigned)(now_ms() - c->req_ms);
}
