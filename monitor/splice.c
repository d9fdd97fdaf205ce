/*
 * The zero-copy side of the relay (issue 8: "splice(2) through a pipe"):
 * large response bodies and a switched stream's backend direction move
 * from the backend socket into the connection's relay pipe (c->dp) and
 * from there to the client (monitor/relay.c to_client), the monitor
 * following the backend's framing by counting: Content-Length, until
 * close, chunk sizes read with MSG_PEEK. The client's bytes are never
 * looked at here.
 */
#include "monitor/gateway.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/time.h>

#define PEEK_MAX	64	/* bytes peeked at for chunk lines */

int
splice_open(struct conn *c)
{
	static const struct timeval tick = { 0, 1 };
	int sz = (int)RELAY_DOWN_MAX;
	socklen_t len = sizeof(sz);

	if (c->lf_on || c->sp_off || c->framing == FR_NONE || c->client < 0)
		return 0;
	if (c->dp.fd[0] >= 0)
		return 1;
	if (c->framing == FR_LENGTH && c->remaining < RELAY_SPLICE_MIN)
		return 0;
	if (rpipe_open(&c->dp) < 0 || setsockopt(c->client, SOL_SOCKET,
	    SO_SNDTIMEO, &tick, sizeof(tick)) < 0) {
		rpipe_close(&c->dp);
		c->sp_off = 1;
		return 0;
	}
	(void)setsockopt(c->client, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (getsockopt(c->client, SOL_SOCKET, SO_SNDBUF, &sz, &len) < 0 ||
	    sz < 2)
		sz = 2;
	c->sp_max = (size_t)sz / 2;
	return 1;
}

void
splice_close(struct conn *c)
{
	static const struct timeval none;

	if (c->dp.fd[0] < 0)
		return;
	rpipe_close(&c->dp);
	if (c->client >= 0)
		(void)setsockopt(c->client, SOL_SOCKET, SO_SNDTIMEO, &none,
		    sizeof(none));
}

/*
 * Chunked: look at the next backend bytes without taking them (MSG_PEEK)
 * and let the decoder count the chunk lines there (http.md §8.4). When
 * they end inside a chunk with at least RELAY_SPLICE_MIN data bytes, or
 * end the body, those bytes and the rest of that chunk's data are counted
 * (c->sp_known) for the pipe: SPLICE_MOVED. SPLICE_NONE when nothing is
 * there, SPLICE_EOF/SPLICE_ERROR when the backend ended, SPLICE_COPY when
 * these bytes are copied instead (small chunks, a line split across the
 * backend's writes, invalid framing: the copy path relays the valid
 * prefix and ends the body as before).
 */
static int
chunk_ahead(struct conn *c)
{
	struct http_chunked ch = c->chunk;
	char pk[PEEK_MAX];
	size_t used, wrote = 0;
	uint64_t data;
	ssize_t n;

	do
		n = recv(c->bc.fd, pk, sizeof(pk), MSG_PEEK | MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return SPLICE_NONE;
	if (n <= 0)
		return n == 0 ? SPLICE_EOF : SPLICE_ERROR;
	if (http_chunked_feed(&ch, pk, (size_t)n, NULL, &wrote, &used) < 0)
		return SPLICE_COPY;
	data = http_chunked_skip_data(&ch);
	if (!ch.done && data < RELAY_SPLICE_MIN)
		return SPLICE_COPY;
	if (ch.done && used < (size_t)n)
		c->bc.keep = 0;	/* bytes past the end */
	c->chunk = ch;
	c->sp_known = used + data;
	return SPLICE_MOVED;
}

int
splice_from_backend(struct conn *c)
{
	uint64_t want = RELAY_DOWN_MAX - c->down.len - c->dp.len;
	ssize_t n;
	int rc;

	if (c->framing == FR_CHUNKED && c->sp_known == 0 &&
	    (rc = chunk_ahead(c)) != SPLICE_MOVED)
		return rc;
	if (c->framing == FR_CHUNKED && want > c->sp_known)
		want = c->sp_known;
	else if (c->framing == FR_LENGTH && want > c->remaining)
		want = c->remaining;
	n = rpipe_fill(&c->dp, c->bc.fd, (size_t)want);
	if (n < 0 && errno == EAGAIN)
		return SPLICE_NONE;
	if (n <= 0)
		return n == 0 ? SPLICE_EOF : SPLICE_ERROR;
	if (c->framing == FR_LENGTH && (c->remaining -= (uint64_t)n) == 0)
		c->resp_done = 1;
	if (c->framing == FR_CHUNKED && (c->sp_known -= (uint64_t)n) == 0 &&
	    c->chunk.done)
		c->resp_done = 1;
	if (c->resp_done)
		backend_release(c);
	return SPLICE_MOVED;
}
