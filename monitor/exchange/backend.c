/*
 * The backend side of one connection (privsep.md §3, http.md §7, §10):
 * connections to the backend socket, internal exchanges (inspects,
 * volume pre-creates), the forwarded head the monitor serialises itself,
 * and the VERDICT that tells the child whether it was forwarded.
 */
#include "monitor/exchange/backend.h"
#include "monitor/pins.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/budget.h"
#include "monitor/conn.h"
#include "monitor/evloop.h"
#include "monitor/exchange/audit.h"
#include "monitor/exchange/createbody.h"
#include "monitor/exchange/exchange.h"
#include "policy/headers.h"
#include "policy/json.h"

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


/* ---------------------------------------------------------------- pool */

/*
 * The pool of c's listener: the first listener with the same backend
 * socket (podman.sock and docker.sock usually share one podman).
 */
static struct bpool *
pool_of(struct gateway *gw, int li)
{
	int i;

	for (i = 0; i < li; i++)
		if (strcmp(gw->lis[i].backend_path, gw->lis[li].backend_path) == 0)
			return &gw->pools[i];
	return &gw->pools[li];
}

/* Close every kept connection of pool p. */
static void
pool_drop(struct gateway *gw, struct bpool *p)
{
	while (p->n > 0)
		ev_close(gw, p->fd[--p->n]);
}

/*
 * An idle pooled connection, newest first; -1 when none. One the backend
 * closed or sent stray bytes on has left the pool when that was reported
 * (backend_pool_event); one it closes in the meantime fails at the write
 * or gives end-of-file before a head, and the request is sent once more on
 * a new connection (backend_retry). The kept connections are dropped when
 * the backend's socket file is gone or was replaced since they were put
 * back (a stopped or restarted daemon: a connection to the old one must
 * not answer for the new, and a stopped one answers 502
 * backend-unreachable, http.md §5.4), one stat() each.
 */
static int
pool_take(struct gateway *gw, int li)
{
	struct bpool *p = pool_of(gw, li);
	struct stat st;

	if (p->n > 0 && (stat(gw->lis[li].backend_path, &st) < 0 ||
	    st.st_dev != p->dev || st.st_ino != p->ino))
		pool_drop(gw, p);
	return p->n > 0 ? p->fd[--p->n] : -1;
}

void
backend_pool_event(struct gateway *gw, int pi, int fd)
{
	struct bpool *p = &gw->pools[pi];
	int k;

	for (k = 0; k < p->n && p->fd[k] != fd; k++)
		;
	if (k == p->n)
		return;		/* taken meanwhile: the event is not its own */
	ev_close(gw, fd);
	p->n--;
	memmove(p->fd + k, p->fd + k + 1, (size_t)(p->n - k) * sizeof(*p->fd));
	memmove(p->since + k, p->since + k + 1,
	    (size_t)(p->n - k) * sizeof(*p->since));
}

void
backend_pool_expire(struct gateway *gw, long long now)
{
	struct bpool *p;
	int i, k, j;

	for (i = 0; i < CG_SOCKETS; i++) {
		p = &gw->pools[i];
		for (k = j = 0; k < p->n; k++) {
			if (now - p->since[k] >= POOL_IDLE_MS) {
				ev_close(gw, p->fd[k]);
				continue;
			}
			p->fd[j] = p->fd[k];
			p->since[j++] = p->since[k];
		}
		p->n = j;
	}
}

void
backend_pool_close(struct gateway *gw)
{
	int i;

	for (i = 0; i < CG_SOCKETS; i++)
		pool_drop(gw, &gw->pools[i]);
}

/*
 * A new connection to c's backend in c->bc.fd, with the identity of the
 * socket file it went through (kept with the connection if it is pooled).
 * Returns 0, or -1 when the backend is unreachable.
 */
static int
connect_new(struct conn *c)
{
	const char *path = c->gw->lis[c->lis].backend_path;
	struct stat st;

	c->bc.fd = backend_connect(path);
	if (c->bc.fd < 0)
		return -1;
	if (stat(path, &st) == 0) {
		c->bc.sknown = 1;
		c->bc.sdev = st.st_dev;
		c->bc.sino = st.st_ino;
	}
	return 0;
}

/*
 * A connection for c's next exchange: pooled when reuse, else new. The
 * request is kept for a retry when the connection was pooled.
 */
static int
open_backend(struct conn *c, int reuse)
{
	struct bpool *p = pool_of(c->gw, c->lis);

	conn_close_backend(c);
	if (reuse && (c->bc.fd = pool_take(c->gw, c->lis)) >= 0) {
		c->bc.reused = 1;
		c->bc.sknown = 1;	/* pool_take checked the file */
		c->bc.sdev = p->dev;
		c->bc.sino = p->ino;
		return 0;
	}
	return connect_new(c);
}

/* Queue req[0..len) for the backend, and keep it for a retry if pooled. */
static void
queue_request(struct conn *c, const char *req, size_t len)
{
	fifo_put(&c->bc.out, req, len);
	if (c->bc.reused) {
		c->bc.retry = xmalloc(len);
		memcpy(c->bc.retry, req, len);
		c->bc.retry_len = len;
	}
}

int
backend_retry(struct conn *c)
{
	char *req = c->bc.retry;
	size_t len = c->bc.retry_len;
	int internal = c->bc.internal, head_only = c->bc.head_only;
	long long deadline = c->bc.deadline;

	if (!c->bc.reused || req == NULL || c->bc.inlen > 0 ||
	    (!internal && (c->rp.head_done || c->rp.rheadlen > 0)))
		return -1;
	c->bc.retry = NULL;
	conn_close_backend(c);		/* frees the queue, not req */
	(void)connect_new(c);
	c->bc.internal = internal;
	c->bc.head_only = head_only;
	c->bc.deadline = deadline;
	fifo_put(&c->bc.out, req, len);
	free(req);
	return c->bc.fd < 0 ? -1 : 0;
}

void
backend_release(struct conn *c)
{
	struct bpool *p;
	int fd = c->bc.fd;

	/* announced body bytes still in the body pipe: the request is not over */
	if (fd >= 0 && c->bc.keep && c->bc.out.len == 0 && c->ul.up.len == 0 &&
	    (c->bc.internal || (!c->fw.hijack && c->rp.resp_done &&
	    c->ul.stream_done && !c->ul.upload_failed &&
	    (c->rp.framing == FR_LENGTH || c->rp.framing == FR_CHUNKED ||
	    c->rp.framing == FR_NONE)))) {
		p = c->bc.sknown ? pool_of(c->gw, c->lis) : NULL;
		/* the kept ones all came through the same socket file */
		if (p != NULL && p->n > 0 &&
		    (p->dev != c->bc.sdev || p->ino != c->bc.sino))
			pool_drop(c->gw, p);
		if (p != NULL && p->n == 0) {
			p->dev = c->bc.sdev;
			p->ino = c->bc.sino;
		}
		if (p != NULL && p->n < c->gw->pool_max && p->n < POOL_MAX) {
			/* its registration stays, for input (EV_POOL) */
			ev_watch(c->gw, fd, EV_POOL, (int)(p - c->gw->pools),
			    NULL, POLLIN);
			p->fd[p->n] = fd;
			p->since[p->n++] = now_ms();
			c->bc.fd = -1;	/* not closed below */
		}
	}
	conn_close_backend(c);
}

/* ---------------------------------------------------------------- exchanges */

int
backend_internal(struct conn *c, char *request, size_t len, int reuse)
{
	int rc = open_backend(c, reuse);

	c->bc.internal = 1;
	queue_request(c, request, len);
	free(request);
	c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
	return rc;
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

int
backend_internal_done(struct conn *c, int ok, int *status, char **body,
    size_t *body_len)
{
	*body = NULL;
	if (!ok || backend_parse_internal(c, status, body, body_len) < 0)
		return -1;
	backend_release(c);
	return 0;
}

/*
 * A build's request line, its pull options taken out: a daemon that pulls
 * the base images itself (compat pull=1, libpod pullpolicy always or
 * ifnewer) would use an image other than the one whose ONBUILD triggers
 * the checker read (monitor/exchange/baseimg.c). The monitor pulls them itself
 * instead, before they are read (c->build_pull), so the build still gets
 * fresh base images; the daemon then finds them present (PullIfMissing,
 * buildah's default). pullpolicy missing and never stay.
 */
static void
build_target(struct conn *c, FILE *f)
{
	const char *q = memchr(c->fw.target, '?', c->fw.target_len);
	const char *end = c->fw.target + c->fw.target_len, *p, *amp, *eq;
	char sep = '?';
	size_t klen, vlen;

	c->build_pull = 0;
	fprintf(f, "%s %.*s", c->fw.method, (int)(q != NULL ? q - c->fw.target :
	    (ptrdiff_t)c->fw.target_len), c->fw.target);
	for (p = q != NULL ? q + 1 : end; p < end; p = amp + 1) {
		amp = memchr(p, '&', (size_t)(end - p));
		if (amp == NULL)
			amp = end;
		eq = memchr(p, '=', (size_t)(amp - p));
		klen = (size_t)((eq != NULL ? eq : amp) - p);
		vlen = eq != NULL ? (size_t)(amp - eq - 1) : 0;
		if (klen == 4 && memcmp(p, "pull", 4) == 0) {
			/* compat: found and true (Go's ParseBool) pulls */
			if (!(vlen == 0 || (vlen == 1 && (eq[1] == '0' ||
			    eq[1] == 'f' || eq[1] == 'F')) || (vlen == 5 &&
			    strncasecmp(eq + 1, "false", 5) == 0)))
				c->build_pull = 1;
			continue;
		}
		if (klen == 10 && memcmp(p, "pullpolicy", 10) == 0 &&
		    !(vlen == 0 || (vlen == 7 && memcmp(eq + 1, "missing", 7) ==
		    0) || (vlen == 5 && memcmp(eq + 1, "never", 5) == 0))) {
			c->build_pull = 1;
			continue;
		}
		fprintf(f, "%c%.*s", sep, (int)(amp - p), p);
		sep = '&';
	}
	fputs(" HTTP/1.1\r\nHost: docker\r\n", f);
}

/*
 * A build's head, through stdio: its target rewritten (build_target) and
 * its X-Registry-Config kept for the monitor's own pulls.
 */
static void
build_head_build(struct conn *c, const struct cg_fwd_headers *fh)
{
	char *head = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&head, &len);

	if (f == NULL)
		xoom();
	if (c->fw.op == FOP_BUILD)
		build_target(c, f);
	else
		fprintf(f, "%s %.*s HTTP/1.1\r\nHost: docker\r\n", c->fw.method,
		    (int)c->fw.target_len, c->fw.target);
	/* the list is in the order of http.md §7.3; Connection is ours */
	free(c->reg_config);
	c->reg_config = NULL;
	for (i = 0; i < fh->n; i++)
		if (c->fw.op == FOP_BUILD && c->reg_config == NULL &&
		    cg_ci_eq(fh->f[i].name, fh->f[i].name_len,
		    "X-Registry-Config"))
			c->reg_config = xstrndup(fh->f[i].value,
			    fh->f[i].value_len);
	for (i = 0; i < fh->n; i++)
		if (!cg_ci_eq(fh->f[i].name, fh->f[i].name_len, "Connection") &&
		    !cg_ci_eq(fh->f[i].name, fh->f[i].name_len, "Upgrade"))
			fprintf(f, "%.*s: %.*s\r\n", (int)fh->f[i].name_len,
			    fh->f[i].name, (int)fh->f[i].value_len,
			    fh->f[i].value);
	/*
	 * Keep-alive otherwise (HTTP/1.1's default, RFC 9112 §9.3; beyond
	 * http.md §7.1, doc/privsep.md "Scaling"): the connection goes back to the pool if the response allows.
	 */
	if (fh->upgrade)
		fputs("Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n", f);
	else
		fputs("\r\n", f);
	if (fclose(f) != 0)
		xoom();
	c->head = head;
	c->head_len = len;
}

void
backend_build_head(struct conn *c, const struct cg_fwd_headers *fh)
{
	static const char host[] = " HTTP/1.1\r\nHost: docker\r\n";
	static const char upgrade[] = "Connection: Upgrade\r\nUpgrade: tcp\r\n";
	size_t mlen = strlen(c->fw.method), len, i;
	char *p;

	free(c->head);		/* a previous request's, if any */
	c->head = NULL;
	if (c->fw.op == FOP_BUILD) {
		build_head_build(c, fh);
		return;
	}
	free(c->reg_config);
	c->reg_config = NULL;
	/*
	 * Measured, then copied: no stdio stream (open_memstream's 8 KiB
	 * zeroed buffer was a fifth of a keep-alive request's instructions in
	 * the monitor).
	 */
	len = mlen + 1 + c->fw.target_len + sizeof(host) - 1 + 2;
	for (i = 0; i < fh->n; i++)
		len += fh->f[i].name_len + 2 + fh->f[i].value_len + 2;
	if (fh->upgrade)
		len += sizeof(upgrade) - 1;
	p = c->head = xmalloc(len + 1);
	memcpy(p, c->fw.method, mlen);
	p += mlen;
	*p++ = ' ';
	memcpy(p, c->fw.target, c->fw.target_len);
	p += c->fw.target_len;
	memcpy(p, host, sizeof(host) - 1);
	p += sizeof(host) - 1;
	/* the list is in the order of http.md §7.3; Connection is ours */
	for (i = 0; i < fh->n; i++) {
		if (cg_ci_eq(fh->f[i].name, fh->f[i].name_len, "Connection") ||
		    cg_ci_eq(fh->f[i].name, fh->f[i].name_len, "Upgrade"))
			continue;
		memcpy(p, fh->f[i].name, fh->f[i].name_len);
		p += fh->f[i].name_len;
		*p++ = ':';
		*p++ = ' ';
		memcpy(p, fh->f[i].value, fh->f[i].value_len);
		p += fh->f[i].value_len;
		*p++ = '\r';
		*p++ = '\n';
	}
	/*
	 * Keep-alive otherwise (HTTP/1.1's default, RFC 9112 §9.3; beyond
	 * http.md §7.1, doc/privsep.md "Scaling"): the connection goes back to the pool if the response allows.
	 */
	if (fh->upgrade) {
		memcpy(p, upgrade, sizeof(upgrade) - 1);
		p += sizeof(upgrade) - 1;
	}
	*p++ = '\r';
	*p++ = '\n';
	*p = '\0';
	c->head_len = (size_t)(p - c->head);
}

void
backend_set_json(struct conn *c, char *json, size_t len)
{
	static const char field[] = "\r\nContent-Length: ";
	char *at = NULL, *end, *head;
	size_t i, flen = sizeof(field) - 1;
	int n;

	for (i = 0; c->head != NULL && i + flen <= c->head_len; i++)
		if (strncasecmp(c->head + i, field, flen) == 0) {
			at = c->head + i + flen;
			break;
		}
	free(c->json);
	c->json = json;
	c->body_len = len;
	if (at == NULL)		/* every JSON body is framed so (headers.c) */
		return;
	end = strstr(at, "\r\n");
	n = asprintf(&head, "%.*s%zu%s", (int)(at - c->head), c->head, len, end);
	if (n < 0)
		xoom();
	free(c->head);
	c->head = head;
	c->head_len = (size_t)n;
}

/*
 * pin_image() on c->json's parse: the body json_serialize() prints with
 * key's string value made c->im_pin, into *body and *len. 0, or -1 when
 * it names no such string.
 */
static int
pin_image_tree(struct conn *c, const char *key, char **body, size_t *len)
{
	char err[128];
	cJSON *tree, *v;

	createbody_parsed(c);
	tree = json_parse(c->json, (size_t)c->body_len, err, sizeof(err));
	v = cJSON_GetObjectItemCaseSensitive(tree, key);
	if (!cJSON_IsString(v) || cJSON_SetValuestring(v, c->im_pin) == NULL) {
		cJSON_Delete(tree);
		return -1;
	}
	/* the body is the policy's canonical form: only the value changes */
	*body = json_serialize(tree, len);
	cJSON_Delete(tree);
	return 0;
}

/*
 * The forwarded create's image field (Image, image or infra_image) made
 * to name the id c's image step checked (c->im_pin, set by
 * monitor/exchange/image.c), so that the daemon uses exactly that image:
 * a retag between the check and the daemon's lookup swapped in an
 * unchecked one (red team rt9 F6). c->json and the Content-Length of
 * c->head are replaced. No-op without a pin. Returns 0, or -1 when the
 * body does not parse or names no image (a broken invariant: the phase
 * read the same body). Here, below the stages, because the forward is
 * where the body is last rewritten: after its audit record, which names
 * the image as the client did.
 */
static int
pin_image(struct conn *c)
{
	const char *key;
	char *body;
	size_t len;
	int rc;

	if (c->im_pin == NULL || c->json == NULL)
		return 0;
	key = c->im.pod ? "infra_image" : c->api == IPC_API_COMPAT ? "Image" :
	    "image";
	/* the member's bytes replaced, without a parse (createbody.h) */
	rc = createbody_set_string(c->json, (size_t)c->body_len, key,
	    c->im_pin, &body, &len);
	if (rc == -2)	/* a top-level key with an escape: parse */
		rc = pin_image_tree(c, key, &body, &len);
	if (rc < 0)
		return -1;
	backend_set_json(c, body, len);
	free(c->im_pin);	/* used: a later request starts without it */
	c->im_pin = NULL;
	return 0;
}

void
backend_forward(struct conn *c)
{
	/* only a request that may be sent twice goes on a pooled connection */
	int reuse = !c->fw.hijack && c->fw.body_kind == FB_NONE && c->fw.is_safe;

	if (open_backend(c, reuse) < 0) {
		backend_refuse(c, "backend-unreachable", "the %s backend is "
		    "unreachable", conn_backend_name(c));
		return;
	}
	/* the record names the image as the client did, before the pin */
	if (c->json != NULL)
		audit_forward_body(c, c->json, (size_t)c->body_len);
	if (pin_image(c) < 0) {
		backend_refuse(c, "malformed", "the create's image could not be "
		    "pinned to the checked id");
		return;
	}
	queue_request(c, c->head, c->head_len);
	if (c->json != NULL) {
		createbody_log(c);
		fifo_put(&c->bc.out, c->json, (size_t)c->body_len);
		free(c->json);	/* replayed and queued: one copy is enough */
		c->json = NULL;
		budget_give(c, c->body_len + 1);	/* forward_need's first */
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

enum framing
backend_framing(const struct http_response *resp, int is_head)
{
	if (is_head || resp->status == 204 || resp->status == 304)
		return FR_NONE;
	if (resp->chunked)
		return FR_CHUNKED;
	return resp->has_content_length ? FR_LENGTH : FR_EOF;
}

static int
head_keeps(const struct http_response *resp)
{
	const struct http_field *f;
	size_t i;

	if (resp->minor_version != 1)
		return 0;
	for (i = 0; i < resp->nfields; i++) {
		f = &resp->fields[i];
		if (cg_ci_eq(f->name, f->name_len, "Connection") &&
		    memmem(f->value, f->value_len, "close", 5) != NULL)
			return 0;
	}
	return 1;
}

int
backend_keeps_alive(const struct http_response *resp)
{
	return head_keeps(resp);
}

/*
 * Whether c->bc.in holds a whole internal response, by its framing:
 * 1 complete (bytes past its end are an error), 0 not yet, -1 invalid.
 */
static int
internal_complete(struct conn *c)
{
	struct bcall *b = &c->bc;
	struct http_response resp;
	size_t used, wrote, body;
	int n;

	while (b->in_head == 0) {
		n = http_parse_response(b->in, b->inlen, &resp);
		if (n == -2)
			return 0;
		if (n < 0)
			return -1;
		if (resp.status < 200 && resp.status != 101) {
			/* interim: skip it, parse again from there */
			memmove(b->in, b->in + n, b->inlen - (size_t)n);
			b->inlen -= (size_t)n;
			continue;
		}
		b->in_head = n;
		b->keep = head_keeps(&resp);
		b->in_clen = resp.content_length;
		b->in_framing = backend_framing(&resp, b->head_only);
		http_chunked_init(&b->in_chunk, 1);
		b->in_scan = 0;
	}
	body = b->inlen - (size_t)b->in_head;
	switch (b->in_framing) {
	case FR_NONE:
		return body == 0 ? 1 : -1;
	case FR_LENGTH:
		return body < b->in_clen ? 0 : body == b->in_clen ? 1 : -1;
	case FR_CHUNKED:
		wrote = 0;
		if (http_chunked_feed(&b->in_chunk, b->in + b->in_head + b->in_scan,
		    body - b->in_scan, NULL, &wrote, &used) < 0)
			return -1;
		b->in_scan += used;
		if (!b->in_chunk.done)
			return 0;
		return b->in_scan == body ? 1 : -1;
	default:
		b->keep = 0;
		return 0;	/* to end-of-file */
	}
}

int
backend_read_internal(struct conn *c)
{
	ssize_t n;
	int done;

	if (c->bc.incap - c->bc.inlen < IPC_DATA_MAX) {
		/* most answers fit the first, smaller allocation */
		size_t cap = c->bc.inlen + (c->bc.incap == 0 ? IPC_DATA_MAX :
		    4 * IPC_DATA_MAX);

		/*
		 * Beyond its first allocation (budget_fixed_per_conn) an
		 * answer grows from the memory budget's pool, three times
		 * (as received, decoded, what is made of it): without room
		 * the question fails.
		 */
		if (c->bc.incap > 0 && budget_take(c, 3 * (uint64_t)(cap -
		    c->bc.incap)) < 0) {
			c->bc.keep = 0;
			return -1;
		}
		c->bc.incap = cap;
		c->bc.in = xrealloc(c->bc.in, c->bc.incap + 1);
	}
	n = recv(c->bc.fd, c->bc.in + c->bc.inlen, c->bc.incap - c->bc.inlen,
	    MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		c->bc.keep = 0;
		return n == 0 ? 1 : -1;
	}
	c->bc.inlen += (size_t)n;
	if (c->bc.inlen > INTERNAL_RESPONSE_MAX)
		return -1;
	done = internal_complete(c);
	if (done < 0)
		c->bc.keep = 0;
	return done;
}

void
backend_verdict(struct conn *c, const struct cg_refusal *r)
{
	struct ipc_msg m = { .type = IPC_VERDICT, .req = c->req };
	int refused = r != NULL;
	const char *code = refused ? r->code : NULL;

	/* a light exchange is told only a refusal (doc/privsep.md,
	   "The message catalogue") */
	if (refused || c->fw.synced) {
		m.u.verdict.outcome = refused ? IPC_OUTCOME_REFUSED :
		    IPC_OUTCOME_FORWARDING;
		m.u.verdict.code = ipc_cstr(refused ? code : "");
		m.u.verdict.status = (uint16_t)(refused ? r->status : 0);
		m.u.verdict.detail = ipc_cstr(refused ? r->detail : "");
		m.u.verdict.hint = ipc_cstr(refused ? r->hint : "");
		conn_send(c, &m);
	}
	c->fwd_pending = 0;
	ipc_audit_verdict(c, refused ? "refused" : "forwarded",
	    refused ? code : NULL);
}

void
backend_refuse_r(struct conn *c, const struct cg_refusal *r)
{
	audit_write(c, r->status >= 500 ? AO_ERROR : AO_REFUSED, c->fw.method,
	    c->fw.log_path, r->code, r->status, conn_duration_ms(c), r->detail);
	c->closing = 1;		/* the child writes the error and lingers */
	conn_settle(c, 0);	/* nothing was created: its pins go */
	conn_close_backend(c);
	conn_free_phase_tree(c);
	backend_verdict(c, r);
	c->rs = RS_WAIT_DONE;
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
	backend_refuse_r(c, &r);
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
