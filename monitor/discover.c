/*
 * Backend discovery (cli.md §8): explicit sockets, else the candidates of
 * §8.1, never the gateway's own sockets and never another gateway (issue
 * 10 item 1). A gateway is recognised by the Container-Gateway header that
 * every one of its answers carries (http.md §11 as amended), on a
 * GET /_ping probe made by the monitor at start-up.
 */
#include "monitor/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/gwerror.h"
#include "base/util.h"
#include "http/http.h"
#include "monitor/backend.h"
#include "monitor/log.h"

#define PROBE_MS	2000	/* the whole probe: connect, ask, read the head */
#define PROBE_HEAD_MAX	16384	/* a daemon's _ping head is < 1 KiB */

static int
is_socket(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* One of the gateway's own sockets, with its directory resolved (§8.1). */
static int
is_own_socket(const struct gateway *gw, const char *path)
{
	char dir[CG_PATH_MAX + 1], *slash, *rp;
	int own = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		return 0;
	*slash = '\0';
	rp = realpath(dir[0] ? dir : "/", NULL);
	if (rp != NULL && strcmp(rp, gw->run_dir_resolved) == 0 &&
	    (strcmp(slash + 1, "podman.sock") == 0 ||
	    strcmp(slash + 1, "docker.sock") == 0))
		own = 1;
	free(rp);
	return own;
}

/* Wait for events on fd until deadline (monotonic ms); 1 ready, 0 not. */
static int
wait_fd(int fd, short events, long long deadline)
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

enum probe_result { PROBE_DAEMON, PROBE_GATEWAY, PROBE_SILENT };

/*
 * Send req (NUL-terminated) to the socket at path and read the answer's
 * head into buf (bufsz bytes) within PROBE_MS; *resp points into buf.
 * Returns the head's length; 0 when the socket refused the connection,
 * closed or answered something that is not an HTTP head; -1 when no
 * complete head came in time.
 */
static int
exchange(const char *path, const char *req, char *buf, size_t bufsz,
    struct http_response *resp)
{
	long long deadline = now_ms() + PROBE_MS;
	size_t len = 0, off = 0, reqlen = strlen(req);
	ssize_t n;
	int fd, err = 0, rc = -2;
	socklen_t el = sizeof(err);

	fd = backend_connect(path);
	if (fd < 0)
		return 0;
	if (!wait_fd(fd, POLLOUT, deadline) ||
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0 || err != 0) {
		close(fd);
		return err != 0 ? 0 : -1;
	}
	while (off < reqlen) {
		n = send(fd, req + off, reqlen - off, MSG_NOSIGNAL);
		if (n > 0)
			off += (size_t)n;
		else if (n < 0 && errno == EINTR)
			continue;
		else if (n < 0 && errno == EAGAIN && wait_fd(fd, POLLOUT, deadline))
			continue;
		else {
			close(fd);
			return n < 0 && errno == EAGAIN ? -1 : 0;
		}
	}
	while (rc == -2 && len < bufsz) {
		if (!wait_fd(fd, POLLIN, deadline))
			break;
		n = recv(fd, buf + len, bufsz - len, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			rc = -1;
			break;
		}
		len += (size_t)n;
		rc = http_parse_response(buf, len, resp);
	}
	close(fd);
	if (rc == -2)
		return len < bufsz ? -1 : 0;
	return rc > 0 ? rc : 0;
}

/* Is f the field named name (case-insensitive)? */
static int
field_is(const struct http_field *f, const char *name)
{
	return f->name_len == strlen(name) &&
	    strncasecmp(f->name, name, f->name_len) == 0;
}

/* What a daemon's GET /_ping said about it besides being no gateway. */
struct probe_facts {
	int libpod;			/* Libpod-Api-Version: a podman service */
	enum backend_ident ident;	/* by its Server field */
};

/*
 * Which daemon a Server field value v[0..len) names (issue 10 items 2, 9):
 * "Libpod/<version> ..." podman, "Docker/<version> ..." dockerd (both
 * send it on every answer), anything else unknown.
 */
static enum backend_ident
server_ident(const char *v, size_t len)
{
	if (len > 7 && strncmp(v, "Libpod/", 7) == 0)
		return BACKEND_LIBPOD;
	if (len > 7 && strncmp(v, "Docker/", 7) == 0)
		return BACKEND_DOCKERD;
	return BACKEND_UNKNOWN;
}

/*
 * Ask the socket at path GET /_ping and look for a Container-Gateway
 * field in the answer's head (at most PROBE_HEAD_MAX bytes within
 * PROBE_MS). PROBE_GATEWAY copies the field's value (cut to vsz - 1
 * bytes) into version. A refused connection or any other answer is
 * PROBE_DAEMON (the relay reports a dead daemon later, as before); no
 * complete head in time is PROBE_SILENT. pf->libpod is set to 1 when the
 * answer carries Libpod-Api-Version (a podman service), else 0;
 * pf->ident from its Server field (BACKEND_UNKNOWN without an answer).
 */
static enum probe_result
probe(const char *path, char *version, size_t vsz, struct probe_facts *pf)
{
	static const char req[] = "GET /_ping HTTP/1.1\r\nHost: docker\r\n"
	    "User-Agent: container-gateway/" CG_VERSION "\r\n"
	    "Connection: close\r\n\r\n";
	struct http_response resp;
	char buf[PROBE_HEAD_MAX];
	size_t i;
	int n;

	pf->libpod = 0;
	pf->ident = BACKEND_UNKNOWN;
	n = exchange(path, req, buf, sizeof(buf), &resp);
	if (n < 0)
		return PROBE_SILENT;
	for (i = 0; n > 0 && i < resp.nfields; i++) {
		if (field_is(&resp.fields[i], "Libpod-Api-Version"))
			pf->libpod = 1;
		if (field_is(&resp.fields[i], "Server"))
			pf->ident = server_ident(resp.fields[i].value,
			    resp.fields[i].value_len);
	}
	for (i = 0; n > 0 && i < resp.nfields; i++) {
		const struct http_field *f = &resp.fields[i];

		if (field_is(f, CG_HEADER_NAME)) {
			snprintf(version, vsz, "%.*s", (int)f->value_len, f->value);
			return PROBE_GATEWAY;
		}
	}
	return PROBE_DAEMON;
}

/*
 * Does the backend at path need a body on a compat commit (issue 10 item
 * 3)? Measured, not assumed: a commit of a container that cannot exist,
 * once without a body and once with "{}". Podman 4.3 answers the first
 * with 500 "Decode(): EOF" (it decodes the body before it looks for the
 * container) and the second with 404; dockerd answers 404 to both. Nothing
 * is committed either way. 1 when only the empty one fails with 5xx.
 */
static int
commit_needs_body(const char *path)
{
	char name[48], req[2][512], buf[PROBE_HEAD_MAX];	/* "cg-probe-" + 32 hex */
	struct http_response resp;
	unsigned char rnd[16];
	int st[2], i, fd;

	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, rnd, sizeof(rnd)) != (ssize_t)sizeof(rnd)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	close(fd);
	strcpy(name, "cg-probe-");
	for (i = 0; i < 16; i++)
		sprintf(name + 9 + 2 * i, "%02x", rnd[i]);
	for (i = 0; i < 2; i++) {
		snprintf(req[i], sizeof(req[i]), "POST /v1.41/commit?container=%s "
		    "HTTP/1.1\r\nHost: docker\r\nUser-Agent: container-gateway/"
		    CG_VERSION "\r\n%sContent-Length: %d\r\nConnection: close"
		    "\r\n\r\n%s", name, i ? "Content-Type: application/json\r\n" :
		    "", i ? 2 : 0, i ? "{}" : "");
		st[i] = exchange(path, req[i], buf, sizeof(buf), &resp) > 0 ?
		    resp.status : 0;
	}
	return st[0] >= 500 && st[1] > 0 && st[1] < 500;
}

/*
 * First candidate of kind that is a socket, not our own and not another
 * gateway (each gateway skipped with a WARNING that says so; a candidate
 * that does not answer in time is used, with a WARNING). NULL when none.
 * origin[i] says where cand[i] came from, for the message.
 */
static const char *
discover(const struct gateway *gw, const char *kind,
    const char *const *cand, const char *const *origin, size_t n,
    struct probe_facts *pf)
{
	char version[64], *q;
	size_t i;

	for (i = 0; i < n; i++) {
		if (cand[i] == NULL || !is_socket(cand[i]) ||
		    is_own_socket(gw, cand[i]))
			continue;
		q = log_quote(cand[i], strlen(cand[i]));
		switch (probe(cand[i], version, sizeof(version), pf)) {
		case PROBE_GATEWAY:
			log_msg(LOG_WARNING, "backend-skipped", "skipping %s "
			    "(%s): it is another container-gateway "
			    "(Container-Gateway: %s), not a %s daemon; a gateway "
			    "never uses another gateway as its backend", q,
			    origin[i], version[0] ? version : "?", kind);
			free(q);
			continue;
		case PROBE_SILENT:
			log_msg(LOG_WARNING, "backend-skipped", "%s (%s) did not "
			    "answer GET /_ping within %d s; using it as the %s "
			    "backend", q, origin[i], PROBE_MS / 1000, kind);
			break;
		case PROBE_DAEMON:
			break;
		}
		free(q);
		return cand[i];
	}
	return NULL;
}

/*
 * An explicit --podman-socket / --docker-socket (cli.md §8.1, §7 step 9):
 * a socket, not one of ours, not another gateway. Returns 0 or RD_REFUSED
 * after printing the refusal on stderr.
 */
static int
check_explicit(const struct gateway *gw, const char *flag, const char *kind,
    const char *path, struct probe_facts *pf)
{
	char version[64], *q;

	if (!is_socket(path)) {
		fprintf(stderr, "container-gateway: %s %s is not a socket\n", flag,
		    path);
		return RD_REFUSED;
	}
	if (is_own_socket(gw, path)) {
		fprintf(stderr, "container-gateway: backend socket %s is one of the "
		    "gateway's own sockets; pass another --run-dir\n", path);
		return RD_REFUSED;
	}
	switch (probe(path, version, sizeof(version), pf)) {
	case PROBE_GATEWAY:
		fprintf(stderr, "container-gateway: %s %s is another "
		    "container-gateway (Container-Gateway: %s), not a %s daemon; "
		    "a gateway never uses another gateway as its backend: pass "
		    "the daemon's own socket\n", flag, path,
		    version[0] ? version : "?", kind);
		return RD_REFUSED;
	case PROBE_SILENT:
		q = log_quote(path, strlen(path));
		log_msg(LOG_WARNING, "backend-skipped", "%s %s did not answer "
		    "GET /_ping within %d s; using it as the %s backend", flag,
		    q, PROBE_MS / 1000, kind);
		free(q);
		break;
	case PROBE_DAEMON:
		break;
	}
	return 0;
}

/*
 * The backend of one kind (cli.md §8.1): the explicit socket (flag, path;
 * checked), else the first usable candidate. Returns 0 with *out set (NULL
 * when none), or RD_REFUSED. *pf as for probe().
 */
static int
pick(const struct gateway *gw, const char *kind, const char *flag,
    const char *explicit, const char *const *cand, const char *const *origin,
    const char **out, struct probe_facts *pf)
{
	*out = NULL;
	if (explicit == NULL) {
		*out = discover(gw, kind, cand, origin, 2, pf);
		return 0;
	}
	if (check_explicit(gw, flag, kind, explicit, pf) != 0)
		return RD_REFUSED;
	*out = explicit;
	return 0;
}

int
rundir_discover(struct gateway *gw)
{
	static const char *const porigin[] = {
		"from XDG_RUNTIME_DIR", "the rootful podman socket"
	};
	static const char *const dorigin[] = {
		"from DOCKER_HOST", "the default docker socket"
	};
	struct cg_config *cfg = gw->cfg;
	char xdg[CG_PATH_MAX + 32] = "", dh[CG_PATH_MAX + 1] = "";
	const char *env, *podman = NULL, *docker = NULL, *pc[2], *dc[2];
	struct probe_facts pf = { 0, BACKEND_UNKNOWN }, df = pf;

	env = getenv("XDG_RUNTIME_DIR");
	if (env != NULL && env[0] == '/')
		snprintf(xdg, sizeof(xdg), "%s/podman/podman.sock", env);
	pc[0] = xdg[0] ? xdg : NULL;
	pc[1] = "/run/podman/podman.sock";
	env = getenv("DOCKER_HOST");
	if (env != NULL && strncmp(env, "unix://", 7) == 0 && env[7] == '/')
		snprintf(dh, sizeof(dh), "%s", env + 7);
	dc[0] = dh[0] ? dh : NULL;
	dc[1] = "/var/run/docker.sock";
	if ((cfg->backend_podman && pick(gw, "podman", "--podman-socket",
	    cfg->podman_socket, pc, porigin, &podman, &pf) != 0) ||
	    (cfg->backend_docker && pick(gw, "docker", "--docker-socket",
	    cfg->docker_socket, dc, dorigin, &docker, &df) != 0))
		return RD_REFUSED;
	if (podman == NULL && docker == NULL) {
		log_msg(LOG_WARNING, "no-backend", "no podman or docker backend "
		    "found; nothing to serve");
		/* what to do (issue 10 item 7; the line above is cli.md §7's) */
		log_msg(LOG_WARNING, "no-backend", "start one (systemctl start "
		    "podman.socket, or scripts/podman-up.sh DIR from the "
		    "gateway's source tree) or name it with --podman-socket PATH "
		    "or --docker-socket PATH");
		return RD_BUSY;
	}
	/* §8.2 mapping */
	if (podman != NULL) {
		snprintf(gw->lis[0].backend_path, sizeof(gw->lis[0].backend_path),
		    "%s", podman);
		gw->lis[0].backend_kind = CG_PODMAN;
	}
	snprintf(gw->lis[1].backend_path, sizeof(gw->lis[1].backend_path), "%s",
	    docker != NULL ? docker : podman);
	gw->lis[1].backend_kind = docker != NULL ? CG_DOCKER : CG_PODMAN;
	gw->lis[0].backend_ident = pf.ident;
	gw->lis[1].backend_ident = docker != NULL ? df.ident : pf.ident;
	/* podman services only: dockerd takes an empty body (measured) */
	if (podman != NULL && pf.libpod)
		gw->lis[0].commit_needs_body = commit_needs_body(podman);
	gw->lis[1].commit_needs_body = docker == NULL ?
	    gw->lis[0].commit_needs_body :
	    df.libpod ? commit_needs_body(docker) : 0;
	log_msg(LOG_DEBUG, "listen", "the docker.sock backend %s a compat "
	    "commit without a body", gw->lis[1].commit_needs_body ? "refuses" :
	    "takes");
	return 0;
}
