/*
 * The backend side of one connection (privsep.md §3, http.md §7, §10):
 * connections to the backend socket, internal exchanges (inspects,
 * volume pre-creates), the forwarded head the monitor serialises itself,
 * and the VERDICT that tells the child whether it was forwarded.
 */
#include "monitor/gateway.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "policy/headers.h"

#define INTERNAL_RESPONSE_MAX	((8u << 20) + HTTP_HEAD_MAX)

int
backend_connect(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sun.sun_path))
		return -1;
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 &&
	    errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}


int
backend_internal(struct conn *c, char *request, size_t len)
{
	conn_close_backend(c);
	c->bc.fd = backend_connect(c->gw->lis[c->lis].backend_path);
	c->bc.internal = 1;
	fifo_put(&c->bc.out, request, len);
	free(request);
	c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
	return c->bc.fd < 0 ? -1 : 0;
}

int
backend_parse_internal(struct conn *c, int *status, char **body,
    size_t *body_len)
{
	struct http_response resp;
	char *in = c->bc.in;
	size_t inlen = c->bc.inlen;
	int n;

	for (;;) {
		n = in != NULL ? http_parse_response(in, inlen, &resp) : -1;
		if (n < 0)
			return -1;
		if (resp.status >= 200 || resp.status == 101)
			break;
		in += n;	/* interim response: skip */
		inlen -= (size_t)n;
	}
	*status = resp.status;
	in += n;
	inlen -= (size_t)n;
	if (resp.chunked) {
		if (http_chunked_decode_all(in, inlen, body, body_len) == -1)
			return -1;
	} else {
		if (resp.has_content_length) {
			if (resp.content_length > inlen)
				return -1;
			inlen = (size_t)resp.content_length;
		}
		*body = xmalloc(inlen + 1);
		memcpy(*body, in, inlen);
		*body_len = inlen;
	}
	(*body)[*body_len] = '\0';
	return 0;
}

void
backend_build_head(struct conn *c, const struct cg_fwd_headers *fh)
{
	char *head = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&head, &len);

	if (f == NULL)
		xoom();
	fprintf(f, "%s %.*s HTTP/1.1\r\nHost: docker\r\n", c->method,
	    (int)c->target_len, c->target);
	/* the list is in the order of http.md §7.3; Connection is ours */
	for (i = 0; i < fh->n; i++)
		if (!cg_ci_eq(fh->f[i].name, fh->f[i].name_len, "Connection") &&
		    !cg_ci_eq(fh->f[i].name, fh->f[i].name_len, "Upgrade"))
			fprintf(f, "%.*s: %.*s\r\n", (int)fh->f[i].name_len,
			    fh->f[i].name, (int)fh->f[i].value_len,
			    fh->f[i].value);
	if (fh->upgrade)
		fputs("Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n", f);
	else
		fputs("Connection: close\r\n\r\n", f);
	if (fclose(f) != 0)
		xoom();
	c->head = head;
	c->head_len = len;
}

void
backend_forward(struct conn *c)
{
	conn_close_backend(c);
	c->bc.fd = backend_connect(c->gw->lis[c->lis].backend_path);
	if (c->bc.fd < 0) {
		backend_refuse(c, "backend-unreachable", "the %s backend is "
		    "unreachable", conn_backend_name(c));
		return;
	}
	fifo_put(&c->bc.out, c->head, c->head_len);
	if (c->json != NULL) {
		fifo_put(&c->bc.out, c->json, (size_t)c->body_len);
		free(c->json);	/* replayed and queued: one copy is enough */
		c->json = NULL;
	}
	c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
	c->rs = RS_SENDING;
}

int
backend_write(struct conn *c)
{
	if (fifo_send(&c->bc.out, c->bc.fd) < 0 && errno != EAGAIN) {
		/* nothing more can be written: do not retry it */
		fifo_free(&c->bc.out);
		return -1;
	}
	return c->bc.out.len > 0 ? 0 : 1;
}

int
backend_read_internal(struct conn *c)
{
	ssize_t n;

	if (c->bc.incap - c->bc.inlen < IPC_DATA_MAX) {
		c->bc.incap = c->bc.inlen + 4 * IPC_DATA_MAX;
		c->bc.in = xrealloc(c->bc.in, c->bc.incap + 1);
	}
	n = recv(c->bc.fd, c->bc.in + c->bc.inlen, c->bc.incap - c->bc.inlen,
	    MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return n == 0 ? 1 : -1;
	c->bc.inlen += (size_t)n;
	return c->bc.inlen > INTERNAL_RESPONSE_MAX ? -1 : 0;
}

void
backend_verdict(struct conn *c, int refused, const char *code, int status,
    const char *detail)
{
	struct ipc_msg m = { .type = IPC_VERDICT, .req = c->req };

	m.u.verdict.outcome = refused ? IPC_OUTCOME_REFUSED : IPC_OUTCOME_FORWARDING;
	m.u.verdict.code = ipc_cstr(refused ? code : "");
	m.u.verdict.status = (uint16_t)(refused ? status : 0);
	m.u.verdict.detail = ipc_cstr(refused ? detail : "");
	conn_send(c, &m);
	c->fwd_pending = 0;
	ipc_audit_verdict(c, refused ? "refused" : "forwarded",
	    refused ? code : NULL);
}

void
backend_refuse(struct conn *c, const char *code, const char *fmt, ...)
{
	struct cg_refusal r;
	va_list ap;
	char detail[CG_DETAIL_MAX];

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	cg_refuse(&r, code, "%s", detail);
	access_line(c, c->method, c->log_path, r.status >= 500 ? "error" : "deny",
	    r.code, r.status, conn_duration_ms(c), r.detail);
	c->logged = 1;
	c->closing = 1;		/* the child writes the error and lingers */
	conn_close_backend(c);
	conn_free_phase_tree(c);
	backend_verdict(c, 1, r.code, r.status, r.detail);
	c->rs = RS_WAIT_DONE;
}

void
backend_refuse_transport(struct conn *c, int timeout)
{
	struct cg_refusal r;

	if (timeout) {
		cg_refuse_timeout(&r, conn_backend_name(c),
		    c->gw->backend_timeout_ms);
		backend_refuse(c, "backend-timeout", "%s", r.detail);
	} else {
		backend_refuse(c, "backend-unreachable", "the %s backend is "
		    "unreachable", conn_backend_name(c));
	}
}
