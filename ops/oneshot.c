/* One blocking HTTP/1.1 exchange on a unix socket (ops/oneshot.h). */
#include "ops/oneshot.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "http/http.h"
#include "monitor/exchange/exchange.h"

int
oneshot_wait(int fd, short events, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	long long left;
	int n;

	for (;;) {
		left = deadline - now_ms();
		if (left <= 0)
			return 0;
		n = poll(&p, 1, (int)left);
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return 0;
	}
}

char *
oneshot(const char *path, const char *method, const char *target,
    int timeout_ms, int *status, size_t *len)
{
	long long deadline = now_ms() + timeout_ms;
	struct http_response resp;
	char *req, *buf, *body = NULL;
	size_t got = 0, off = 0, reqlen, blen = 0;
	ssize_t n;
	int fd, hl, err = 0, eof = 0;
	socklen_t el = sizeof(err);

	*status = 0;
	fd = backend_connect(path);
	if (fd < 0)
		return NULL;
	if (asprintf(&req, "%s %s HTTP/1.1\r\nHost: docker\r\nUser-Agent: "
	    "container-gateway/" CG_VERSION "\r\nConnection: close\r\n%s\r\n",
	    method, target, strcmp(method, "POST") == 0 ?
	    "Content-Length: 0\r\n" : "") < 0)
		xoom();
	reqlen = strlen(req);
	buf = xmalloc(ONESHOT_MAX + 1);
	if (!oneshot_wait(fd, POLLOUT, deadline) ||
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0 || err != 0)
		goto out;
	while (off < reqlen) {
		n = send(fd, req + off, reqlen - off, MSG_NOSIGNAL);
		if (n > 0)
			off += (size_t)n;
		else if (n < 0 && (errno == EINTR || (errno == EAGAIN &&
		    oneshot_wait(fd, POLLOUT, deadline))))
			continue;
		else
			goto out;
	}
	while (got < ONESHOT_MAX && oneshot_wait(fd, POLLIN, deadline)) {
		n = recv(fd, buf + got, ONESHOT_MAX - got, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			eof = n == 0;
			break;
		}
		got += (size_t)n;
	}
	hl = http_parse_response(buf, got, &resp);
	if (hl <= 0)
		goto out;
	if (resp.chunked) {
		if (http_chunked_decode_all(buf + hl, got - (size_t)hl, &body,
		    &blen) < 0)
			goto out;
	} else {
		blen = got - (size_t)hl;
		if (resp.has_content_length ? resp.content_length > blen : !eof)
			goto out;	/* cut short */
		if (resp.has_content_length)
			blen = (size_t)resp.content_length;
		body = xmalloc(blen + 1);
		memcpy(body, buf + hl, blen);
		body[blen] = '\0';
	}
	*status = resp.status;
	if (len != NULL)
		*len = blen;
out:
	free(req);
	free(buf);
	close(fd);
	return body;
}
