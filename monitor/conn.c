/*
 * One connection of the monitor (privsep.md §3, §10): its record, the
 * messages it sends to its child, and what happens when the child breaks
 * the protocol. The stages above (dispatch, verify, phase, facts, relay,
 * backend) all come down here; nothing here calls up.
 */
#include "monitor/gateway.h"

#include <cjson/cJSON.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/log.h"

struct conn *
conn_new(struct gateway *gw, pid_t pid, int ipc)
{
	struct conn *c = xcalloc(1, sizeof(*c));

	c->gw = gw;
	c->pid = pid;
	c->ipc = ipc;
	c->client = -1;
	c->bc.fd = -1;
	c->wfd[0] = c->wfd[1] = c->wfd[2] = -1;
	c->oc_kind = -1;
	rpipe_init(&c->dp);
	rpipe_init(&c->up);
	c->rs = RS_IDLE;
	ipc_queue_init(&c->outq);
	return c;
}

void
conn_free(struct conn *c)
{
	conn_close_backend(c);
	ev_close(c->gw, c->ipc);
	ev_close(c->gw, c->client);
	ipc_queue_clear(&c->outq);
	fifo_free(&c->down);
	rpipe_close(&c->dp);
	rpipe_close(&c->up);
	fifo_free(&c->early);
	conn_free_phase_tree(c);
	answer_free(c);
	free(c->facts);
	free(c->target);
	free(c->log_path);
	free(c->json);
	free(c->head);
	free(c->rhead);
	free(c->lf_buf);
	free(c);
}

void
conn_close_backend(struct conn *c)
{
	ev_close(c->gw, c->bc.fd);
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

int
conn_violation(struct conn *c, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	log_msg(LOG_ERROR, "child-exit", "protocol violation from request parser "
	    "for connection %llu (pid %d): %s", (unsigned long long)c->id,
	    (int)c->pid, what);
	/* the request it was on still gets its line (issue 11 item 3) */
	conn_abandon(c, "abandoned: the request parser broke the protocol");
	if (c->fwd_pending) {
		c->fwd_pending = 0;
		ipc_audit_verdict(c, "violation", NULL);
	}
	if (c->pid > 0)
		kill(c->pid, SIGKILL);
	return -1;
}

const char *
conn_backend_name(const struct conn *c)
{
	return c->gw->lis[c->lis].backend_kind == CG_DOCKER ? "docker" : "podman";
}

void
conn_free_phase_tree(struct conn *c)
{
	free(c->ph_names_mem);
	c->ph_names_mem = NULL;
	c->ph_n[0] = c->ph_n[1] = 0;
}

void
conn_abandon(struct conn *c, const char *why)
{
	/* before its FORWARD a request is known by its questions, its
	   REQUEST_BEGIN, or the FORWARD being verified */
	int asked = c->rs == RS_IDLE && (c->nfact_q + c->npath_q > 0 ||
	    c->begun || c->fwd_pending);
	int forwarded = c->rs != RS_IDLE && c->rs != RS_FACT &&
	    c->rs != RS_WAIT_DONE;

	if ((asked || c->rs == RS_FACT || forwarded) && !c->logged) {
		c->logged = 1;
		access_line(c, forwarded ? c->method : "-", forwarded &&
		    c->log_path != NULL ? c->log_path : "-", "error", NULL, 0,
		    conn_duration_ms(c), why);
	}
	relay_abandon(c, why);
}

unsigned
conn_duration_ms(const struct conn *c)
{
	return (unsigned)(now_ms() - c->req_ms);
}
