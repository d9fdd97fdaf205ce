/*
 * Backend discovery (cli.md §8): explicit sockets, else the candidates of
 * §8.1, never the gateway's own sockets and never another gateway (issue
 * 10 item 1). A gateway is recognised by the Container-Gateway header that
 * every one of its answers carries (http.md §11 as amended), on a
 * GET /_ping probe made by the monitor at start-up.
 */
#include "ops/rundir.h"

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
#include "base/xmalloc.h"
#include "http/http.h"
#include "monitor/advisory.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"
#include "monitor/pin.h"
#include "monitor/task.h"
#include "ops/instance.h"
#include "ops/oneshot.h"
#include "ops/vershare.h"
#include "policy/json.h"

#define PROBE_MS	2000	/* the whole probe: connect, ask, read the head */
#define PROBE_HEAD_MAX	16384	/* a daemon's _ping head is < 1 KiB */
#define VERSION_MS	5000	/* podman 4.3.1 takes 0.9 s to answer it */

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
	if (!oneshot_wait(fd, POLLOUT, deadline) ||
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
		else if (n < 0 && errno == EAGAIN && oneshot_wait(fd, POLLOUT, deadline))
			continue;
		else {
			close(fd);
			return n < 0 && errno == EAGAIN ? -1 : 0;
		}
	}
	while (rc == -2 && len < bufsz) {
		if (!oneshot_wait(fd, POLLIN, deadline))
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

/* What a daemon's answers at start-up said about it besides being no gateway. */
struct probe_facts {
	int libpod;			/* Libpod-Api-Version: a podman service */
	enum backend_ident ident;	/* by its Server field */
	int podman;			/* identify(): a podman marker anywhere */
	char server[64];		/* its Server field, for the log */
	char version[48];		/* its version there ("4.3.1"), or "" */
};

/*
 * Which daemon a Server field value v[0..len) names (usability.sh u_prune,
 * u_df): "Libpod/<version> ..." podman, "Docker/<version> ..." dockerd (both
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
	pf->podman = 0;
	pf->ident = BACKEND_UNKNOWN;
	pf->server[0] = '\0';
	pf->version[0] = '\0';
	n = exchange(path, req, buf, sizeof(buf), &resp);
	if (n < 0)
		return PROBE_SILENT;
	for (i = 0; n > 0 && i < resp.nfields; i++) {
		const struct http_field *f = &resp.fields[i];

		if (field_is(f, "Libpod-Api-Version"))
			pf->libpod = 1;
		if (field_is(f, "Server")) {
			pf->ident = server_ident(f->value, f->value_len);
			snprintf(pf->server, sizeof(pf->server), "%.*s",
			    (int)f->value_len, f->value);
			/* "Libpod/4.3.1 (linux)": the daemon's version */
			if (pf->ident != BACKEND_UNKNOWN)
				snprintf(pf->version, sizeof(pf->version), "%.*s",
				    (int)strcspn(f->value + 7, " \r\n"),
				    f->value + 7);
		}
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
 * Does the GET /version body v name podman? Podman 4.3.1 (rootful and
 * rootless alike) lists a component named "Podman Engine"; dockerd 20.10
 * lists "Engine", "containerd", "runc", "docker-init" (measured).
 */
static int
version_is_podman(const char *v)
{
	char err[64];
	const cJSON *c, *name;
	cJSON *t = v != NULL ? json_parse(v, strlen(v), err, sizeof(err)) : NULL;
	int podman = 0;

	cJSON_ArrayForEach(c, json_get(t, "Components")) {
		name = json_get(c, "Name");
		if (cJSON_IsString(name) &&
		    strcmp(name->valuestring, "Podman Engine") == 0)
			podman = 1;
	}
	cJSON_Delete(t);
	return podman;
}

/*
 * Which daemon answers on path, from what it says, never from the
 * variable, flag or path that named it: podman when its GET /_ping
 * carries Libpod-Api-Version or "Server: Libpod/...", or its GET /version
 * lists "Podman Engine"; dockerd when the Server field says "Docker/..."
 * and no podman marker is there (measured on podman 4.3.1 rootful and
 * rootless and dockerd 20.10: tests/integration/rootless.sh). A podman
 * marker wins: podman's policy refuses the filters podman would widen.
 * GET /version is asked only when GET /_ping named neither daemon:
 * podman 4.3.1 takes 0.9 s to answer it (it runs conmon and runc for
 * their versions). Sets pf->podman; pf->ident stays the Server field's
 * (the answers the monitor writes itself need a daemon it was measured on:
 * monitor/exchange/answer.c).
 */
static void
identify(const char *path, struct probe_facts *pf)
{
	char *v;
	int status;

	pf->podman = pf->libpod || pf->ident == BACKEND_LIBPOD;
	if (pf->podman || pf->ident != BACKEND_UNKNOWN)
		return;
	v = oneshot(path, "GET", "/version", VERSION_MS, &status, NULL);
	pf->podman = status == 200 && version_is_podman(v);
	free(v);
}

/*
 * Does the backend at path need a body on a compat commit (usability.sh
 * u_commit)? Measured, not assumed: a commit of a container that cannot exist,
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

/* Log the advisories of l in mask (WARNING each), q its quoted path. */
static void
log_advisories(const struct listener *l, unsigned mask, const char *q,
    FILE *rf)
{
	const struct advisory *a;
	char what[160];
	size_t i;

	advisory_describe(&l->ver, l->backend_ident == BACKEND_LIBPOD, what,
	    sizeof(what));
	for (i = 0; i < ADV_COUNT; i++) {
		if (!(mask & (1u << i)))
			continue;
		a = advisory_at(i);
		log_msg(LOG_WARNING, "backend-advisory", "advisory %s applies to "
		    "%s (%s): %s %s: %s; what the gateway does: %s", a->id, q,
		    what, a->component, a->affected, a->flaw, a->gateway);
		/* no release fixes it; the gateway's refusals close it */
		if (rf != NULL && i != ADV_ROOTFS_WALK)
			fprintf(rf, "%s%s (%s)", ftell(rf) > 0 ? ", " : "", a->id,
			    what);
	}
}

/* Each listener's share of its backend's answer (ops/vershare.h). */
#define SHARE_POLL_MS	500	/* a waiter looks at the lock this often */
static struct {
	enum vershare_role role;
	int fd;
	struct stat st;
	char *body;		/* VS_READ: the answer read */
	size_t len;
	long age_s;
	long long since;	/* VS_WAIT: when the wait began */
	long long next;		/* VS_WAIT: its next look */
} share[CG_SOCKETS];

/* Start-up, before confinement: the role of listener k's question. */
static void
share_open(int k, const char *path)
{
	share[k].role = vershare_open(PIN_BASE, path, &share[k].fd,
	    &share[k].st, &share[k].body, &share[k].len, &share[k].age_s);
}

/* l's version from a GET /version body (else its _ping's), its advisories. */
static void
apply_version(struct listener *l, const char *body, size_t len)
{
	int podman = l->backend_ident == BACKEND_LIBPOD;

	if (body != NULL)
		advisory_parse_version(body, len, &l->ver);
	if (!l->ver.known && l->ver_ping[0] != '\0') {
		/* the version its GET /_ping named (Server field) */
		l->ver.engine = podman ? ENGINE_PODMAN : ENGINE_DOCKERD;
		snprintf(l->ver.version, sizeof(l->ver.version), "%s",
		    l->ver_ping);
		l->ver.known = 1;
	}
	l->advisories = advisory_applies(&l->ver, podman);
}

int
rundir_advisories(struct gateway *gw)
{
	char what[160], *body, *refused = NULL, *q;
	struct listener *l;
	size_t len = 0, rlen = 0;
	FILE *rf = open_memstream(&refused, &rlen);
	int k, status = 0;

	if (rf == NULL)
		xoom();
	for (k = 0; k < CG_SOCKETS; k++) {
		l = &gw->lis[k];
		if (l->backend_path[0] == '\0' || (k == 1 &&
		    strcmp(l->backend_path, gw->lis[0].backend_path) == 0))
			continue;
		q = log_quote(l->backend_path, strlen(l->backend_path));
		if (l->backend_ident == BACKEND_UNKNOWN) {
			/* no podman, no dockerd: the table says nothing */
			log_msg(LOG_INFO, "backend-version", "%s did not identify "
			    "itself as podman or dockerd: no backend advisory is "
			    "known for it", q);
			fprintf(rf, "%s%s is neither podman nor dockerd",
			    ftell(rf) > 0 ? ", " : "", q);
			free(q);
			continue;
		}
		/*
		 * The runtime's version is in GET /version, which podman 4.3.1
		 * answers in about a second (it runs conmon and runc): asked
		 * now only when --require-patched-backend needs it; else after
		 * start-up (rundir_advisories_async), its row counted as
		 * applying until then.
		 */
		body = NULL;
		if (gw->cfg->require_patched)
			body = oneshot(l->backend_path, "GET", "/version",
			    VERSION_MS, &status, &len);
		apply_version(l, body != NULL && status == 200 ? body : NULL,
		    len);
		free(body);
		l->ver_pending = !gw->cfg->require_patched;
		if (l->ver_pending)
			share_open(k, l->backend_path);
		advisory_describe(&l->ver, l->backend_ident == BACKEND_LIBPOD,
		    what, sizeof(what));
		log_msg(LOG_INFO, "backend-version", "%s is %s%s", q, what,
		    l->ver_pending ? " (the runtime's version is asked after "
		    "start-up)" : "");
		log_advisories(l, l->advisories & (l->ver_pending ?
		    ~(1u << ADV_RUNC_DEV) : ~0u), q, rf);
		free(q);
	}
	fclose(rf);
	if (gw->cfg->require_patched && rlen > 0) {
		fprintf(stderr, "container-gateway: refusing to serve "
		    "(--require-patched-backend): the backend is not known to "
		    "be patched: %s (tool.md \"Backend advisories\"); upgrade "
		    "the backend or start without the flag\n", refused);
		free(refused);
		return 1;
	}
	free(refused);
	for (k = 0; k < CG_SOCKETS; k++)
		if (k == 1 && gw->lis[0].backend_path[0] != '\0' &&
		    strcmp(gw->lis[1].backend_path, gw->lis[0].backend_path) == 0) {
			gw->lis[1].ver = gw->lis[0].ver;	/* the same daemon */
			gw->lis[1].advisories = gw->lis[0].advisories;
		}
	return 0;
}

static struct mtask version_task[CG_SOCKETS];

/* A backend's GET /version answered after start-up (or not). */
static void
version_done(struct gateway *gw, struct mtask *t, int ok, int status,
    const char *body, size_t len)
{
	int k = (int)(t - version_task), done = 1;
	struct listener *l = &gw->lis[k];
	char *q = log_quote(l->backend_path, strlen(l->backend_path));

	if (share[k].role == VS_ASK) {
		/* the answer for the gateways that wait; closing lets them go */
		if (ok && status == 200)
			(void)vershare_write(share[k].fd, &share[k].st, body, len);
		close(share[k].fd);
		share[k].fd = -1;
		share[k].role = VS_ALONE;
	}
	apply_version(l, ok && status == 200 ? body : NULL, len);
	l->ver_pending = 0;
	if (l->advisories & (1u << ADV_RUNC_DEV))
		log_advisories(l, 1u << ADV_RUNC_DEV, q, NULL);
	else
		log_msg(LOG_INFO, "backend-version", "%s runs %s %s: no runtime "
		    "advisory applies", q, l->ver.runtime,
		    l->ver.runtime_version);
	free(q);
	if (k == 0 && strcmp(gw->lis[1].backend_path, l->backend_path) == 0) {
		gw->lis[1].ver = l->ver;
		gw->lis[1].advisories = l->advisories;
	}
	for (k = 0; k < CG_SOCKETS; k++)
		done &= !gw->lis[k].ver_pending;
	if (done)
		instance_record_advisories(gw);
}

/* Ask listener k's backend itself (version_done when answered or not). */
static void
version_ask(struct gateway *gw, int k)
{
	version_task[k].fd = -1;
	version_task[k].done = version_done;
	version_task[k].max = 1 << 20;
	version_task[k].timeout_ms = 0;
	if (mtask_get(gw, &version_task[k], MTASK_VERSION0 + k,
	    gw->lis[k].backend_path, "/version") < 0)
		version_done(gw, &version_task[k], 0, 0, NULL, 0);
}

/* Listener k's answer read from the shared file: as if it had asked. */
static void
version_read(struct gateway *gw, int k)
{
	char *q = log_quote(gw->lis[k].backend_path,
	    strlen(gw->lis[k].backend_path));

	log_msg(LOG_INFO, "backend-version", "%s: the GET /version another "
	    "gateway asked %ld s ago (shared under %s/versions)", q,
	    share[k].age_s, PIN_BASE);
	free(q);
	share[k].role = VS_ALONE;
	version_done(gw, &version_task[k], 1, 200, share[k].body,
	    share[k].len);
	free(share[k].body);
	share[k].body = NULL;
}

void
rundir_advisories_async(struct gateway *gw)
{
	long long now = now_ms();
	int k;

	for (k = 0; k < CG_SOCKETS; k++) {
		if (!gw->lis[k].ver_pending)
			continue;
		if (share[k].role == VS_READ)
			version_read(gw, k);
		else if (share[k].role == VS_WAIT)
			share[k].since = share[k].next = now;
		else
			version_ask(gw, k);
	}
	(void)rundir_version_tick(gw, now);
}

int
rundir_version_tick(struct gateway *gw, long long now)
{
	long long wait_max = 2LL * gw->backend_timeout_ms + 5000;
	int k, r, next = 60000;

	for (k = 0; k < CG_SOCKETS; k++) {
		if (share[k].role != VS_WAIT)
			continue;
		if (now < share[k].next) {
			if (share[k].next - now < next)
				next = (int)(share[k].next - now);
			continue;
		}
		r = vershare_try(share[k].fd, &share[k].st, &share[k].body,
		    &share[k].len, &share[k].age_s);
		if (r == 0 && now - share[k].since < wait_max) {
			share[k].next = now + SHARE_POLL_MS;
			if (SHARE_POLL_MS < next)
				next = SHARE_POLL_MS;
			continue;
		}
		close(share[k].fd);
		share[k].fd = -1;
		share[k].role = VS_ALONE;
		if (r == 1) {
			version_read(gw, k);
		} else {
			/* its asker failed or hangs: ask as if alone */
			version_ask(gw, k);
		}
	}
	return next;
}

long long
rundir_version_wake_at(void)
{
	long long at = -1;
	int k;

	for (k = 0; k < CG_SOCKETS; k++)
		if (share[k].role == VS_WAIT && (at < 0 || share[k].next < at))
			at = share[k].next;
	return at;
}

/*
 * First candidate of kind that is a socket, not our own and not another
 * gateway (each gateway skipped with a WARNING that says so; a candidate
 * that does not answer in time is used, with a WARNING). NULL when none.
 * origin[i] says where cand[i] came from, for the message; a NULL
 * cand[i] is a candidate that could not be formed, why[i] says why. Each
 * candidate not used is appended to tried ("<path> (<origin>): <why>",
 * "; "-separated) for the no-backend message.
 */
static const char *
discover(const struct gateway *gw, const char *kind,
    const char *const *cand, const char *const *origin,
    const char *const *why, size_t n, struct probe_facts *pf, FILE *tried)
{
	char version[64], *q;
	struct stat st;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *skip = NULL;

		if (cand[i] == NULL)
			skip = why[i];
		else if (stat(cand[i], &st) < 0)
			skip = errno == ENOENT ? "no such file" : strerror(errno);
		else if (!S_ISSOCK(st.st_mode))
			skip = "not a socket";
		else if (is_own_socket(gw, cand[i]))
			skip = "one of this gateway's own sockets";
		if (skip != NULL) {
			fprintf(tried, "%s%s (%s): %s", ftell(tried) > 0 ? "; " :
			    "", cand[i] != NULL ? cand[i] : "-", origin[i], skip);
			continue;
		}
		q = log_quote(cand[i], strlen(cand[i]));
		switch (probe(cand[i], version, sizeof(version), pf)) {
		case PROBE_GATEWAY:
			log_msg(LOG_WARNING, "backend-skipped", "skipping %s "
			    "(%s): it is another container-gateway "
			    "(Container-Gateway: %s), not a %s daemon; a gateway "
			    "never uses another gateway as its backend", q,
			    origin[i], version[0] ? version : "?", kind);
			fprintf(tried, "%s%s (%s): another container-gateway",
			    ftell(tried) > 0 ? "; " : "", cand[i], origin[i]);
			free(q);
			continue;
		case PROBE_SILENT:
			log_msg(LOG_WARNING, "backend-skipped", "%s (%s) did not "
			    "answer GET /_ping within %d s; using it as the %s "
			    "backend", q, origin[i], PROBE_MS / 1000, kind);
			break;
		case PROBE_DAEMON:
			identify(cand[i], pf);
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
		identify(path, pf);
		break;
	}
	return 0;
}

/*
 * The backend of one kind (cli.md §8.1): the explicit socket (flag, path;
 * checked), else the first usable candidate (why and tried as for
 * discover()). Returns 0 with *out set (NULL when none), or RD_REFUSED.
 * *pf as for probe() and identify().
 */
static int
pick(const struct gateway *gw, const char *kind, const char *flag,
    const char *explicit, const char *const *cand, const char *const *origin,
    const char *const *why, const char **out, struct probe_facts *pf,
    FILE *tried)
{
	*out = NULL;
	if (explicit == NULL) {
		*out = discover(gw, kind, cand, origin, why, 2, pf, tried);
		return 0;
	}
	if (check_explicit(gw, flag, kind, explicit, pf) != 0)
		return RD_REFUSED;
	*out = explicit;
	return 0;
}

/*
 * The policy kind of a backend (cli.md §8.2 as amended: what answers on
 * the socket decides, not the variable or the path that named it): the
 * identified daemon's kind; named, the kind it was named for, when the
 * daemon did not say which it is (then with a WARNING). path names it
 * (from origin) for the log lines.
 */
static enum cg_kind
kind_of(const struct probe_facts *pf, enum cg_kind named, const char *path,
    const char *origin)
{
	static const char *const names[] = { "podman", "docker" };
	enum cg_kind k = pf->podman ? CG_PODMAN :
	    pf->ident == BACKEND_DOCKERD ? CG_DOCKER : named;
	char *q = log_quote(path, strlen(path));

	if (!pf->podman && pf->ident == BACKEND_UNKNOWN)
		log_msg(LOG_WARNING, "backend-kind", "%s (%s) did not say which "
		    "daemon it is (no Libpod-Api-Version, no Server: Libpod/ or "
		    "Docker/, no Podman Engine in GET /version); applying the %s "
		    "rules it was named for", q, origin, names[named]);
	else if (k != named)
		log_msg(LOG_INFO, "backend-kind", "%s (%s) is a %s daemon "
		    "(Server: %s); its clients get the %s rules", q, origin,
		    names[k], pf->server[0] ? pf->server : "-", names[k]);
	free(q);
	return k;
}

/*
 * Is the daemon behind path rootless? A rootless podman service runs as
 * its user, so its socket is that user's; a rootful one's is root's
 * (systemd's podman.socket, podman system service as root). Measured on
 * podman 4.3.1; GET /libpod/info (host.security.rootless) says the same
 * but takes 0.5 s. Used for the build network (policy.md §10 as amended).
 */
static int
socket_rootless(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_uid != 0;
}

/*
 * The WARNINGs of a gateway with no backend: that line (cli.md §7), what
 * was tried (tried: the candidates' report, NULL or empty for none) and
 * how to start one.
 */
static void
log_no_backend(const char *tried)
{
	log_msg(LOG_WARNING, "no-backend", "no podman or docker backend "
	    "found; nothing to serve");
	/* what was tried and what to do (cli.md §7 has the line above) */
	if (tried != NULL && tried[0] != '\0') {
		char *q = log_quote(tried, strlen(tried));

		log_msg(LOG_WARNING, "no-backend", "tried %s", q);
		free(q);
	}
	log_msg(LOG_WARNING, "no-backend", "start one: rootless podman "
	    "with systemctl --user enable --now podman.socket (its "
	    "socket is $XDG_RUNTIME_DIR/podman/podman.sock), rootful "
	    "podman with systemctl enable --now podman.socket as root; "
	    "or scripts/podman-up.sh DIR from the gateway's source tree; "
	    "or name one with --podman-socket PATH or --docker-socket "
	    "PATH");
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
	const char *pwhy[2] = { NULL, NULL }, *dwhy[2] = { NULL, NULL };
	struct probe_facts pf = { 0, BACKEND_UNKNOWN, 0, "", "" }, df = pf;
	char *tried = NULL;
	size_t triedlen = 0;
	FILE *tf;
	int i, rc = 0;

	env = getenv("XDG_RUNTIME_DIR");
	if (env != NULL && env[0] == '/')
		snprintf(xdg, sizeof(xdg), "%s/podman/podman.sock", env);
	else
		pwhy[0] = env == NULL || env[0] == '\0' ? "XDG_RUNTIME_DIR is "
		    "not set (a login session sets it to /run/user/<uid>)" :
		    "XDG_RUNTIME_DIR is not an absolute path";
	pc[0] = xdg[0] ? xdg : NULL;
	pc[1] = "/run/podman/podman.sock";
	env = getenv("DOCKER_HOST");
	if (env != NULL && strncmp(env, "unix://", 7) == 0 && env[7] == '/')
		snprintf(dh, sizeof(dh), "%s", env + 7);
	else
		dwhy[0] = env == NULL || env[0] == '\0' ? "DOCKER_HOST is not "
		    "set" : "DOCKER_HOST is not unix:// and an absolute path";
	dc[0] = dh[0] ? dh : NULL;
	dc[1] = "/var/run/docker.sock";
	if ((tf = open_memstream(&tried, &triedlen)) == NULL)
		xoom();
	if ((cfg->backend_podman && pick(gw, "podman", "--podman-socket",
	    cfg->podman_socket, pc, porigin, pwhy, &podman, &pf, tf) != 0) ||
	    (cfg->backend_docker && pick(gw, "docker", "--docker-socket",
	    cfg->docker_socket, dc, dorigin, dwhy, &docker, &df, tf) != 0))
		rc = RD_REFUSED;
	fclose(tf);
	if (rc == 0 && podman == NULL && docker == NULL) {
		log_no_backend(tried);
		rc = RD_BUSY;
	}
	free(tried);
	if (rc != 0)
		return rc;
	/* §8.2 mapping; the kinds from what answered (kind_of) */
	if (podman != NULL) {
		snprintf(gw->lis[0].backend_path, sizeof(gw->lis[0].backend_path),
		    "%s", podman);
		gw->lis[0].backend_kind = kind_of(&pf, CG_PODMAN, podman,
		    cfg->podman_socket != NULL ? "--podman-socket" :
		    podman == pc[0] ? porigin[0] : porigin[1]);
		gw->lis[0].backend_ident = pf.ident;
	}
	if (docker != NULL) {
		snprintf(gw->lis[1].backend_path,
		    sizeof(gw->lis[1].backend_path), "%s", docker);
		gw->lis[1].backend_kind = kind_of(&df, CG_DOCKER, docker,
		    cfg->docker_socket != NULL ? "--docker-socket" :
		    docker == dc[0] ? dorigin[0] : dorigin[1]);
		gw->lis[1].backend_ident = df.ident;
	} else {
		snprintf(gw->lis[1].backend_path,
		    sizeof(gw->lis[1].backend_path), "%s", podman);
		gw->lis[1].backend_kind = gw->lis[0].backend_kind;
		gw->lis[1].backend_ident = pf.ident;
	}
	for (i = 0; i < CG_SOCKETS; i++)
		gw->lis[i].backend_rootless = gw->lis[i].backend_path[0] != '\0' &&
		    socket_rootless(gw->lis[i].backend_path);
	snprintf(gw->lis[0].ver_ping, sizeof(gw->lis[0].ver_ping), "%s",
	    pf.version);
	snprintf(gw->lis[1].ver_ping, sizeof(gw->lis[1].ver_ping), "%s",
	    docker != NULL ? df.version : pf.version);
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
