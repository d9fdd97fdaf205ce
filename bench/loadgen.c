/*
 * loadgen: the HTTP load generator of `make bench` (doc/performance.md). It
 * talks HTTP/1.1 over a unix socket to the gateway or, for the side-by-side
 * figure, straight to the daemon, and prints one JSON object per run.
 *
 *   loadgen lat  --sock PATH [--path P] [--method M] [--n N] [--newconn]
 *                [--warmup W]
 *       N requests one after the other, on one kept-alive connection or
 *       (--newconn) one new connection per request; latency per request
 *       from the first byte written to the last byte of the response read.
 *   loadgen conc --sock PATH [--path P] [--clients C] [--seconds S]
 *       C kept-alive connections, each sending its next request as soon as
 *       the previous response is complete, for S seconds (one epoll loop).
 *   loadgen post --sock PATH --body FILE [--path P] [--clients C]
 *                [--timeout-s S]
 *       C connections at once, each sending one POST of FILE's bytes
 *       (application/json, Content-Length, Connection: close) and reading
 *       its answer, all in one epoll loop, within S seconds (600) in all:
 *       the memory budget test of make bench and tests/sanitize/load.sh.
 *
 * --path may be given up to 16 times: the requests cycle through the
 * paths (per connection in conc mode).
 *
 * Output: {"mode":..,"n":requests,"sent":S,"errors":E,"failed":F,"rps":..,"p50_us":..,
 * "p90_us":..,"p99_us":..,"max_us":..,"status":{"200":n,...}}. An error is
 * a failed connect, a reset, a response that does not parse, or a status
 * outside 2xx. "sent" counts every request written whole, answered or
 * not (those in flight when conc mode stops are cut off: sent - n -
 * errors of them; tests/sanitize/load.sh compares it with the gateway's
 * access lines). "failed" counts the requests that got no whole answer
 * (a reset, a close, a deadline), a subset of "errors". Responses are framed with the gateway's own parser
 * (http/response.c, http/chunked.c), so a malformed answer counts as an error, never a hang:
 * every read has a 30 s deadline.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "http/http.h"

#define RBUF_MAX	(1u << 20)
#define IO_TIMEOUT_MS	30000
#define PATHS_MAX	16

struct opts {
	const char *mode, *sock, *method, *body;
	const char *paths[PATHS_MAX];
	int npaths;
	long n, warmup, clients;
	double seconds, timeout_s;
	int newconn;
};

/* One client connection and the response being read on it. */
struct client {
	int fd;
	char *buf;
	size_t len;
	long long t0_ns;	/* when the current request was written */
	int head_done;
	size_t head_len;
	uint64_t body_left;	/* Content-Length framing */
	int chunked;
	struct http_chunked ch;
	int status;
	int next;		/* index of its next path */
};

static long status_count[600];
static long long *samples;
static size_t nsamples, capsamples;
static long errors;
static long failed;		/* no whole answer: reset, close, deadline */
static long sent;		/* requests written whole */

static long long
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void
add_sample(long long ns)
{
	if (nsamples == capsamples) {
		capsamples = capsamples ? capsamples * 2 : 4096;
		samples = realloc(samples, capsamples * sizeof(*samples));
		if (samples == NULL)
			abort();
	}
	samples[nsamples++] = ns;
}

static int
connect_sock(const char *path, int nonblock)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sun.sun_path))
		return -1;
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
	    (nonblock ? SOCK_NONBLOCK : 0), 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 &&
	    errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

static char *
request_text(const struct opts *o, const char *path, int close_conn,
    size_t *len)
{
	char *r;
	int n = asprintf(&r, "%s %s HTTP/1.1\r\nHost: d\r\nUser-Agent: "
	    "cg-loadgen\r\n%s%s\r\n", o->method, path,
	    strcmp(o->method, "POST") == 0 || strcmp(o->method, "PUT") == 0 ?
	    "Content-Length: 0\r\n" : "",
	    close_conn ? "Connection: close\r\n" : "");

	if (n < 0)
		abort();
	*len = (size_t)n;
	return r;
}

static void
client_reset(struct client *c)
{
	c->len = 0;
	c->head_done = 0;
	c->head_len = 0;
	c->body_left = 0;
	c->chunked = 0;
	c->status = 0;
}

/*
 * Look at c->buf: 1 when one whole response is there (it is consumed),
 * 0 when more bytes are needed, -1 when it cannot be parsed. eof: the
 * peer closed (ends an EOF-framed body).
 */
static int
response_complete(struct client *c, int eof, int is_head)
{
	struct http_response resp;
	size_t used, wrote;
	int n;

	if (!c->head_done) {
		n = http_parse_response(c->buf, c->len, &resp);
		if (n == -2)
			return eof ? -1 : 0;
		if (n < 0)
			return -1;
		if (resp.status < 200) {	/* interim: drop it */
			memmove(c->buf, c->buf + n, c->len - (size_t)n);
			c->len -= (size_t)n;
			return response_complete(c, eof, is_head);
		}
		c->head_done = 1;
		c->head_len = (size_t)n;
		c->status = resp.status;
		if (is_head || resp.status == 204 || resp.status == 304) {
			c->body_left = 0;
		} else if (resp.chunked) {
			c->chunked = 1;
			http_chunked_init(&c->ch, 1);
		} else if (resp.has_content_length) {
			c->body_left = resp.content_length;
		} else {
			c->body_left = UINT64_MAX;	/* until EOF */
		}
	}
	if (c->chunked) {
		wrote = 0;
		if (http_chunked_feed(&c->ch, c->buf + c->head_len,
		    c->len - c->head_len, NULL, &wrote, &used) < 0)
			return -1;
		c->head_len += used;
		if (!c->ch.done)
			return eof ? -1 : 0;
		memmove(c->buf, c->buf + c->head_len, c->len - c->head_len);
		c->len -= c->head_len;
		c->head_len = 0;
		return 1;
	}
	if (c->body_left == UINT64_MAX)
		return eof ? 1 : 0;
	if (c->len - c->head_len < c->body_left)
		return eof ? -1 : 0;
	used = c->head_len + (size_t)c->body_left;
	memmove(c->buf, c->buf + used, c->len - used);
	c->len -= used;
	return 1;
}

static void
count_status(int status)
{
	if (status >= 0 && status < 600)
		status_count[status]++;
	if (status < 200 || status > 299)
		errors++;
}

/* Read until one response is complete (blocking, with a deadline). */
static int
read_response(struct client *c, int is_head)
{
	long long deadline = now_ns() + IO_TIMEOUT_MS * 1000000LL;
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	ssize_t n;
	int rc;

	client_reset(c);
	for (;;) {
		if (poll(&p, 1, (int)((deadline - now_ns()) / 1000000)) <= 0)
			return -1;
		if (c->len == RBUF_MAX)
			return -1;
		n = recv(c->fd, c->buf + c->len, RBUF_MAX - c->len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		c->len += (size_t)n;
		rc = response_complete(c, n == 0, is_head);
		if (rc != 0)
			return rc;
		if (n == 0)
			return -1;
	}
}

static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	sent++;
	return 0;
}

/* The request texts of o's paths (request_text), in *lens. */
static char **
request_texts(const struct opts *o, int close_conn, size_t *lens)
{
	char **r = calloc((size_t)o->npaths, sizeof(*r));
	int i;

	if (r == NULL)
		abort();
	for (i = 0; i < o->npaths; i++)
		r[i] = request_text(o, o->paths[i], close_conn, &lens[i]);
	return r;
}

static void
free_texts(const struct opts *o, char **r)
{
	int i;

	for (i = 0; i < o->npaths; i++)
		free(r[i]);
	free(r);
}

static int
run_lat(const struct opts *o)
{
	struct client c = { .fd = -1 };
	size_t lens[PATHS_MAX];
	char **req = request_texts(o, o->newconn, lens);
	int is_head = strcmp(o->method, "HEAD") == 0;
	long i, total = o->n + o->warmup;
	long long t0, wall0 = 0;

	c.buf = malloc(RBUF_MAX);
	for (i = 0; i < total; i++) {
		if (i == o->warmup)
			wall0 = now_ns();
		t0 = now_ns();
		if (c.fd < 0 && (c.fd = connect_sock(o->sock, 0)) < 0) {
			if (i >= o->warmup)
				errors++, failed++;
			continue;
		}
		if (write_all(c.fd, req[i % o->npaths], lens[i % o->npaths]) < 0 ||
		    read_response(&c, is_head) < 0) {
			if (i >= o->warmup)
				errors++, failed++;
			close(c.fd);
			c.fd = -1;
			continue;
		}
		if (i >= o->warmup) {
			add_sample(now_ns() - t0);
			count_status(c.status);
		}
		if (o->newconn) {
			close(c.fd);
			c.fd = -1;
		}
	}
	if (c.fd >= 0)
		close(c.fd);
	free_texts(o, req);
	free(c.buf);
	return (int)((now_ns() - wall0) / 1000000);
}

static int
run_conc(const struct opts *o)
{
	struct client *cl = calloc((size_t)o->clients, sizeof(*cl));
	struct epoll_event ev, evs[256];
	size_t lens[PATHS_MAX];
	char **req = request_texts(o, 0, lens);
	long long start = now_ns(), end = start + (long long)(o->seconds * 1e9);
	long i, live = 0;
	int ep = epoll_create1(EPOLL_CLOEXEC), n, k, rc;

	for (i = 0; i < o->clients; i++) {
		cl[i].buf = malloc(RBUF_MAX);
		cl[i].fd = connect_sock(o->sock, 0);
		if (cl[i].fd < 0) {
			errors++, failed++;
			continue;
		}
		ev.events = EPOLLIN;
		ev.data.ptr = &cl[i];
		epoll_ctl(ep, EPOLL_CTL_ADD, cl[i].fd, &ev);
		client_reset(&cl[i]);
		cl[i].t0_ns = now_ns();
		cl[i].next = (int)(i % o->npaths);
		if (write_all(cl[i].fd, req[cl[i].next], lens[cl[i].next]) < 0) {
			errors++, failed++;
			close(cl[i].fd);
			cl[i].fd = -1;
			continue;
		}
		live++;
	}
	start = now_ns();
	end = start + (long long)(o->seconds * 1e9);
	while (live > 0) {
		long long now = now_ns();
		int tmo = now >= end ? 0 : (int)((end - now) / 1000000) + 1;

		if (now >= end)
			break;
		n = epoll_wait(ep, evs, 256, tmo);
		for (k = 0; k < n; k++) {
			struct client *c = evs[k].data.ptr;
			ssize_t got;

			if (c->len == RBUF_MAX) {
				rc = -1;
			} else {
				got = recv(c->fd, c->buf + c->len, RBUF_MAX - c->len,
				    MSG_DONTWAIT);
				if (got < 0 && (errno == EAGAIN || errno == EINTR))
					continue;
				if (got < 0)
					rc = -1;
				else {
					c->len += (size_t)got;
					rc = response_complete(c, got == 0, 0);
					if (rc == 0 && got == 0)
						rc = -1;
				}
			}
			if (rc == 0)
				continue;
			if (rc < 0) {
				errors++, failed++;
				epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
				close(c->fd);
				c->fd = -1;
				live--;
				continue;
			}
			add_sample(now_ns() - c->t0_ns);
			count_status(c->status);
			c->head_done = 0;	/* keep the bytes already read */
			c->head_len = 0;
			c->chunked = 0;
			c->t0_ns = now_ns();
			c->next = (c->next + 1) % o->npaths;
			if (write_all(c->fd, req[c->next], lens[c->next]) < 0) {
				errors++, failed++;
				epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
				close(c->fd);
				c->fd = -1;
				live--;
			}
		}
	}
	for (i = 0; i < o->clients; i++) {
		if (cl[i].fd >= 0)
			close(cl[i].fd);
		free(cl[i].buf);
	}
	free(cl);
	free_texts(o, req);
	close(ep);
	return (int)((now_ns() - start) / 1000000);
}

/* One client of post mode: its request (head, then the shared body) and
 * its answer. */
struct poster {
	struct client c;
	size_t off;		/* request bytes written (head + body) */
	int done;
};

/* The file's bytes (exits on error). */
static char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p;
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) < 0) {
		perror(path);
		exit(2);
	}
	p = malloc((size_t)n + 1);
	if (p == NULL || fread(p, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*len = (size_t)n;
	return p;
}

/*
 * post mode: o->clients connections at once, each writing one POST of the
 * body and reading its answer while it writes (a server may answer before
 * the body is complete); one epoll loop, o->timeout_s in all.
 */
static int
run_post(const struct opts *o)
{
	struct poster *cl = calloc((size_t)o->clients, sizeof(*cl));
	struct epoll_event ev, evs[256];
	size_t blen, hlen;
	char *body = read_file(o->body, &blen), head[512];
	long long start = now_ns(), end = start + (long long)(o->timeout_s * 1e9);
	long i, live = 0;
	int ep = epoll_create1(EPOLL_CLOEXEC), n, k;

	hlen = (size_t)snprintf(head, sizeof(head), "POST %s HTTP/1.1\r\nHost: d\r\n"
	    "User-Agent: cg-loadgen\r\nContent-Type: application/json\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n\r\n", o->paths[0], blen);
	for (i = 0; i < o->clients; i++) {
		cl[i].c.buf = malloc(RBUF_MAX);
		cl[i].c.fd = connect_sock(o->sock, 0);	/* blocking: the backlog */
		if (cl[i].c.fd < 0) {
			errors++, failed++;
			cl[i].done = 1;
			continue;
		}
		client_reset(&cl[i].c);
		cl[i].c.t0_ns = now_ns();
		ev.events = EPOLLIN | EPOLLOUT;
		ev.data.ptr = &cl[i];
		epoll_ctl(ep, EPOLL_CTL_ADD, cl[i].c.fd, &ev);
		live++;
	}
	while (live > 0 && now_ns() < end) {
		n = epoll_wait(ep, evs, 256, (int)((end - now_ns()) / 1000000) + 1);
		for (k = 0; k < n; k++) {
			struct poster *p = evs[k].data.ptr;
			ssize_t got;
			int rc = 0;

			if (p->done)
				continue;
			if ((evs[k].events & EPOLLOUT) && p->off < hlen + blen) {
				const char *from = p->off < hlen ? head + p->off :
				    body + (p->off - hlen);
				size_t left = p->off < hlen ? hlen - p->off :
				    blen - (p->off - hlen);

				got = send(p->c.fd, from, left, MSG_NOSIGNAL |
				    MSG_DONTWAIT);
				if (got > 0) {
					p->off += (size_t)got;
					if (p->off == hlen + blen) {
						sent++;
						ev.events = EPOLLIN;
						ev.data.ptr = p;
						epoll_ctl(ep, EPOLL_CTL_MOD, p->c.fd, &ev);
					}
				}
				/* EPIPE/ECONNRESET: the answer may be there */
			}
			if (evs[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
				if (p->c.len == RBUF_MAX)
					rc = -1;
				else {
					got = recv(p->c.fd, p->c.buf + p->c.len,
					    RBUF_MAX - p->c.len, MSG_DONTWAIT);
					if (got < 0 && (errno == EAGAIN ||
					    errno == EINTR))
						continue;
					if (got < 0)
						rc = -1;
					else {
						p->c.len += (size_t)got;
						rc = response_complete(&p->c, got == 0, 0);
						if (rc == 0 && got == 0)
							rc = -1;
					}
				}
			}
			if (rc == 0)
				continue;
			if (rc < 0)
				errors++, failed++;
			else {
				add_sample(now_ns() - p->c.t0_ns);
				count_status(p->c.status);
			}
			epoll_ctl(ep, EPOLL_CTL_DEL, p->c.fd, NULL);
			close(p->c.fd);
			p->done = 1;
			live--;
		}
	}
	for (i = 0; i < o->clients; i++) {
		if (!cl[i].done) {	/* the deadline came first */
			errors++, failed++;
			close(cl[i].c.fd);
		}
		free(cl[i].c.buf);
	}
	free(cl);
	free(body);
	close(ep);
	return (int)((now_ns() - start) / 1000000);
}

static int
cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long
pct(double p)
{
	size_t i;

	if (nsamples == 0)
		return 0;
	i = (size_t)(p * (double)(nsamples - 1) + 0.5);
	return samples[i];
}

static void
usage(void)
{
	fprintf(stderr, "usage: loadgen lat|conc|post --sock PATH [--path P] "
	    "[--method M] [--n N] [--warmup W] [--newconn] [--clients C] "
	    "[--seconds S] [--body FILE] [--timeout-s S] (--path up to %d "
	    "times)\n", PATHS_MAX);
	exit(2);
}

int
main(int argc, char **argv)
{
	struct opts o = { .method = "GET", .n = 1000,
	    .warmup = 50, .clients = 64, .seconds = 10, .timeout_s = 600 };
	int i, ms, first = 1;

	if (argc < 2)
		usage();
	o.mode = argv[1];
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--newconn") == 0) {
			o.newconn = 1;
			continue;
		}
		if (v == NULL)
			usage();
		i++;
		if (strcmp(a, "--sock") == 0)
			o.sock = v;
		else if (strcmp(a, "--path") == 0 && o.npaths < PATHS_MAX)
			o.paths[o.npaths++] = v;
		else if (strcmp(a, "--method") == 0)
			o.method = v;
		else if (strcmp(a, "--n") == 0)
			o.n = atol(v);
		else if (strcmp(a, "--warmup") == 0)
			o.warmup = atol(v);
		else if (strcmp(a, "--clients") == 0)
			o.clients = atol(v);
		else if (strcmp(a, "--seconds") == 0)
			o.seconds = atof(v);
		else if (strcmp(a, "--body") == 0)
			o.body = v;
		else if (strcmp(a, "--timeout-s") == 0)
			o.timeout_s = atof(v);
		else
			usage();
	}
	if (o.sock == NULL || o.n < 1 || o.clients < 1 || o.seconds <= 0 ||
	    o.timeout_s <= 0)
		usage();
	if (o.npaths == 0)
		o.paths[o.npaths++] = "/_ping";
	if (strcmp(o.mode, "lat") == 0)
		ms = run_lat(&o);
	else if (strcmp(o.mode, "conc") == 0)
		ms = run_conc(&o);
	else if (strcmp(o.mode, "post") == 0 && o.body != NULL)
		ms = run_post(&o);
	else
		usage();
	qsort(samples, nsamples, sizeof(*samples), cmp_ll);
	printf("{\"mode\":\"%s\",\"n\":%zu,\"sent\":%ld,\"errors\":%ld,"
	    "\"failed\":%ld,\"ms\":%d,"
	    "\"rps\":%.1f,\"p50_us\":%.1f,\"p90_us\":%.1f,\"p99_us\":%.1f,"
	    "\"max_us\":%.1f,\"status\":{", o.mode, nsamples, sent, errors, failed, ms,
	    ms > 0 ? (double)nsamples * 1000.0 / ms : 0.0, pct(0.5) / 1e3,
	    pct(0.9) / 1e3, pct(0.99) / 1e3, pct(1.0) / 1e3);
	for (i = 0; i < 600; i++) {
		if (status_count[i] == 0)
			continue;
		printf("%s\"%d\":%ld", first ? "" : ",", i, status_count[i]);
		first = 0;
	}
	printf("}}\n");
	free(samples);
	return 0;
}
