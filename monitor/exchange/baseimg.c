/*
 * The base images of a checked build (doc/privsep.md "Builds and
 * archives"): podman 4.3.1 runs the ONBUILD triggers of the image a stage
 * starts FROM (a loaded, imported or pulled image's config.OnBuild;
 * red team rt9 F4: a trigger's cache mount wrote the host as root), and
 * the checker reads only the Dockerfile that was sent. So before the end
 * of an approved build goes to the daemon, every base image the checker
 * named (CHECK_IMAGE) is:
 *   1. inspected (libpod on podman, which resolves names as its builder
 *      does; compat on dockerd), for its id;
 *   2. when missing, pulled by the monitor (the daemon would pull it
 *      unchecked; a pull is what the project may ask for itself, and
 *      docker build, docker-compose build and podman-remote build all
 *      rely on the daemon's implicit pull), then inspected again;
 *   3. exported by the daemon (GET images/{id}/get, over HTTP/1.0 so that
 *      the answer runs to the end of the stream) into a pipe the checker
 *      reads (CHECK_CONFIG): the checker, not the monitor, reads the
 *      archive, finds the configuration and checks its triggers with the
 *      Dockerfile rules (check/onbuild.h). No inspect answer of podman
 *      shows OnBuild (measured), so the export is the only way to them.
 * The monitor only splices the answer's bytes into the pipe. An id whose
 * triggers passed a build without buildargs is remembered for the
 * gateway's lifetime (an image's id is the digest of its configuration,
 * which holds the triggers and the Env they see), so such an image is
 * exported once. The build's own backend connection is parked
 * meanwhile (its approved bytes all written, its end held): podman reads
 * the whole body before it builds and neither daemon times a body out.
 * All of this was measured on podman 4.3.1 and dockerd 20.10 only: behind
 * a backend that is neither (the Server field of its _ping, discover.c),
 * check.c lets the end go with a WARNING instead.
 *
 * An approved load's names (check/load.h) take the same road with one
 * step: each is inspected, and one that names an image other than this
 * project's is refused (load_name_inspected), as a tag to it is.
 */
#include "monitor/gateway.h"
#include "monitor/exchange/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/rpipe.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "check/dockerfile.h"
#include "monitor/conn.h"
#include "monitor/evloop.h"
#include "monitor/exchange/baseimg.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/facts.h"
#include "monitor/log.h"
#include "policy/imagecfg.h"
#include "policy/imageref.h"

#define LIBPOD_PREFIX	"/v4.0.0/libpod"
#define OB_CACHE_MAX	256	/* ids whose triggers passed, kept */
#define PULL_TIMEOUTS	10	/* a pull may take this many --backend-timeout */
#define EXPORT_PIPE	(1u << 20)

_Static_assert(CK_IMAGES_MAX == DF_BASES_MAX, "one bound for both sides");

static int
podman(const struct conn *c)
{
	return c->gw->lis[c->lis].backend_kind == CG_PODMAN;
}

/*
 * A reference the monitor puts in a path and a query as it is: the
 * characters of image names, tags and digests only (the checker refused
 * transports; a compromised one gets nothing else through).
 */
static int
ref_plain(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > 1024 || !image_ref_path_safe(s, len) ||
	    image_ref_transport_n(s, len))
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    strchr("._/:@-", s[i]) != NULL))
			return 0;
	return 1;
}

int
baseimg_named(struct conn *c, const char *ref, size_t len, const char *id,
    size_t idlen)
{
	size_t i;

	if ((c->ck.kind != CK_BUILD && c->ck.kind != CK_LOAD) ||
	    c->ck.nimg == CK_IMAGES_MAX || !ref_plain(ref, len) ||
	    (idlen != 0 && (c->ck.kind != CK_LOAD || idlen != 64)))
		return -1;
	for (i = 0; i < idlen; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' &&
		    id[i] <= 'f')))
			return -1;
	memcpy(c->ck.img_want[c->ck.nimg], id, idlen);
	c->ck.img_want[c->ck.nimg][idlen] = '\0';
	c->ck.img[c->ck.nimg++] = xstrndup(ref, len);
	return 0;
}

/*
 * A verdict on an id holds for builds without buildargs only: a trigger's
 * ARG takes the build's value (imagebuilder), so the same image may pass
 * one build and not another. The forwarded query is the policy's
 * canonical one: buildargs absent, empty or {} (%7B%7D) is none.
 */
static int
cacheable(const struct conn *c)
{
	const char *q = memchr(c->fw.target, '?', c->fw.target_len), *p, *v;
	const char *end = c->fw.target + c->fw.target_len;
	size_t n;

	for (p = q != NULL ? q + 1 : end; p < end; p += n + 1) {
		n = strcspn(p, "&");
		if (p + n > end)
			n = (size_t)(end - p);
		if (n >= 10 && strncmp(p, "buildargs=", 10) == 0) {
			v = p + 10;
			if (!(n == 10 || (n == 16 && strncasecmp(v, "%7B%7D", 6) ==
			    0)))
				return 0;
		}
	}
	return 1;
}

static int
cache_has(const struct gateway *gw, const char *id)
{
	unsigned i;

	for (i = 0; i < gw->ob_n; i++)
		if (strcmp(gw->ob_ids[i], id) == 0)
			return 1;
	return 0;
}

static void
cache_add(struct gateway *gw, const char *id)
{
	if (cache_has(gw, id))
		return;
	if (gw->ob_ids == NULL)
		gw->ob_ids = xcalloc(OB_CACHE_MAX, sizeof(*gw->ob_ids));
	snprintf(gw->ob_ids[gw->ob_next], sizeof(gw->ob_ids[0]), "%s", id);
	gw->ob_next = (gw->ob_next + 1) % OB_CACHE_MAX;
	if (gw->ob_n < OB_CACHE_MAX)
		gw->ob_n++;
}

static void
refuse(struct conn *c, const char *code, const char *hint, const char *fmt,
    const char *ref)
{
	struct cg_refusal r;
	char q[260];

	cg_refuse_hint(&r, code, hint, fmt, cg_quote(ref, strlen(ref), q));
	c->ck.img_over(c, &r);
}

/* The checker cannot tell: fail closed (400 malformed, as check.c). */
static void
checker_failed(struct conn *c, const char *what)
{
	struct cg_refusal r;

	cg_refuse_hint(&r, "malformed", "build again", "the gateway could not "
	    "check the build's base images: its checker %s", what);
	c->ck.img_over(c, &r);
}

/* What img[] holds, in refusals: "%s" stands for the name. */
static const char *
noun(const struct conn *c)
{
	return c->ck.kind == CK_LOAD ? "the image name %s the load gives" :
	    "base image %s";
}

/* Send req (malloc'd) on a new connection of c->bc; deadline in ms. */
static void
ask(struct conn *c, int step, char *req, size_t len, long long timeout_ms)
{
	char fmt[128];

	c->ck.img_step = step;
	if (backend_internal(c, req, len, 0) < 0) {
		snprintf(fmt, sizeof(fmt), "the gateway could not reach the "
		    "daemon to read %s", noun(c));
		refuse(c, "backend-unreachable", "check the daemon", fmt,
		    c->ck.img[c->ck.img_i]);
		return;
	}
	c->bc.deadline = now_ms() + timeout_ms;
	mark_dirty(c->gw, c);
}

static void
inspect(struct conn *c)
{
	const char *ref = c->ck.img[c->ck.img_i];
	char *req;
	int n;

	if (podman(c))
		n = asprintf(&req, "GET " LIBPOD_PREFIX "/images/%s/json "
		    "HTTP/1.1\r\nHost: docker\r\n\r\n", ref);
	else
		n = asprintf(&req, "GET %s/images/%s/json HTTP/1.1\r\nHost: "
		    "docker\r\n\r\n", c->q_prefix, ref);
	if (n < 0)
		xoom();
	ask(c, IMG_INSPECT, req, (size_t)n, c->gw->backend_timeout_ms);
}

/* The registry-config header of the build, for podman's pull (it reads
   X-Registry-Config on pulls too; dockerd reads only X-Registry-Auth). */
static void
pull(struct conn *c)
{
	const char *ref = c->ck.img[c->ck.img_i];
	const char *slash = strrchr(ref, '/'), *at = strchr(ref, '@');
	const char *colon = strrchr(slash != NULL ? slash : ref, ':');
	char *req, *auth = NULL;
	int n;

	c->ck.img_pulled = 1;
	log_msg(LOG_INFO, "build", "connection %llu: base image %s %s: the "
	    "gateway pulls it before the build uses it",
	    (unsigned long long)c->id, ref, c->build_pull ? "asked fresh" :
	    "is not present");
	if (podman(c)) {
		if (c->reg_config != NULL && asprintf(&auth, "X-Registry-Config: "
		    "%s\r\n", c->reg_config) < 0)
			xoom();
		n = asprintf(&req, "POST " LIBPOD_PREFIX "/images/pull?reference="
		    "%s&quiet=true HTTP/1.1\r\nHost: docker\r\n%s"
		    "Content-Length: 0\r\n\r\n", ref, auth != NULL ? auth : "");
	} else if (at != NULL || colon != NULL) {
		/* fromImage with its tag or digest: one image, not every tag */
		n = asprintf(&req, "POST %s/images/create?fromImage=%s HTTP/1.1\r\n"
		    "Host: docker\r\nContent-Length: 0\r\n\r\n", c->q_prefix, ref);
	} else {
		n = asprintf(&req, "POST %s/images/create?fromImage=%s&tag=latest "
		    "HTTP/1.1\r\nHost: docker\r\nContent-Length: 0\r\n\r\n",
		    c->q_prefix, ref);
	}
	free(auth);
	if (n < 0)
		xoom();
	ask(c, IMG_PULL, req, (size_t)n,
	    (long long)c->gw->backend_timeout_ms * PULL_TIMEOUTS);
}

static void
export(struct conn *c)
{
	struct rpipe p;
	struct ipc_msg m = { .type = IPC_CHECK_CONFIG };
	char *req;
	int n, rc;

	rpipe_init(&p);
	if (rpipe_open(&p, EXPORT_PIPE) < 0) {
		struct cg_refusal r;

		cg_refuse(&r, "too-many-connections", "the gateway has no "
		    "descriptor left to check the build's base images with");
		c->ck.img_over(c, &r);
		return;
	}
	m.fd = p.fd[0];
	m.u.check_image.ref = ipc_cstr(c->ck.img[c->ck.img_i]);
	ipc_audit(c, "to-checker", &m);
	rc = ipc_send(c->ck.ipc, &m, MSG_DONTWAIT);
	close(p.fd[0]);
	c->ck.xfeed = p.fd[1];
	c->ck.xfull = 0;
	if (rc != IPC_OK) {
		checker_failed(c, "stopped answering");
		return;
	}
	/* HTTP/1.0: no chunks, the archive runs to the end of the stream */
	if (podman(c))
		n = asprintf(&req, "GET " LIBPOD_PREFIX "/images/%s/get?format="
		    "docker-archive HTTP/1.0\r\nHost: docker\r\n\r\n", c->ck.img_id);
	else
		n = asprintf(&req, "GET %s/images/%s/get HTTP/1.0\r\nHost: "
		    "docker\r\n\r\n", c->q_prefix, c->ck.img_id);
	if (n < 0)
		xoom();
	ask(c, IMG_EXPORT, req, (size_t)n, c->gw->backend_timeout_ms);
}

/* The next image, or the build's end once every one passed. */
static void
next_image(struct conn *c)
{
	if (c->ck.img_i < c->ck.nimg) {
		c->ck.img_pulled = 0;
		if (c->ck.kind == CK_LOAD)
			inspect(c);	/* a name the load moves: no pull */
		else if (c->build_pull)
			pull(c);	/* the build asked for fresh ones */
		else
			inspect(c);
		return;
	}
	/* the build's own connection back: its end goes now */
	conn_close_backend(c);
	c->bc = c->ck.parked;
	c->ck.parked_on = 0;
	memset(&c->ck.parked, 0, sizeof(c->ck.parked));
	c->ck.parked.fd = -1;
	c->ck.img_step = IMG_NONE;
	c->ck.approved = c->ck.fed;	/* the checker approved all but the end */
	c->ck.state = CK_OK;
	c->ck.img_over(c, NULL);	/* every image passed: the end goes */
}

void
baseimg_start(struct conn *c)
{
	c->ck.parked = c->bc;
	c->ck.parked_on = 1;
	memset(&c->bc, 0, sizeof(c->bc));
	c->bc.fd = -1;
	c->ck.img_i = 0;
	mark_dirty(c->gw, c);
	next_image(c);
}

/*
 * A name a load gives, inspected as the daemon resolves it (libpod on
 * podman: measured, podman 4.3.1 names a docker-archive's short RepoTags
 * localhost/, as its libpod lookup tries first; compat on dockerd, which
 * normalises to docker.io as its load does): free (404) or this
 * project's own image passes; an image of another project, or pulled or
 * loaded unlabelled, is refused, as a tag to it is (monitor/exchange/imgdest.c,
 * red team rt10 F1: the load would move a name other projects' creates
 * and builds resolve).
 */
static void
load_name_inspected(struct conn *c, int status, const char *body, size_t len)
{
	const char *ref = c->ck.img[c->ck.img_i];
	const char *want = c->ck.img_want[c->ck.img_i];
	char id[CG_ID_MAX + 1];
	enum cg_fact_result v = CG_NOT_OWNED;
	struct image_config ic;
	int same = 0;

	if (status != 404)
		v = facts_verdict(CG_FACT_IMAGE, podman(c) ? CG_API_LIBPOD :
		    CG_API_COMPAT, status, body, len, c->gw->root, id);
	if (status != 404 && v == CG_UNEXPECTED) {
		refuse(c, "backend-unreachable", "check the daemon", "unexpected "
		    "image inspect answer for the image name %s the load gives",
		    ref);
		return;
	}
	/*
	 * The name already names the image the archive gives it (its id is
	 * the SHA-256 of the config both daemons read, which the checker
	 * hashed): the load moves nothing (docker save, then load, of a
	 * shared image: go-dockerclient, docker-api, the Go SDK).
	 */
	if (status >= 200 && status < 300 && v != CG_OWNED && want[0] != '\0' &&
	    image_config_parse(body, len, &ic) == 0) {
		same = strcmp(ic.id + (strncmp(ic.id, "sha256:", 7) == 0 ? 7 : 0),
		    want) == 0;
		image_config_free(&ic);
	}
	if (same)
		log_msg(LOG_DEBUG, "check", "connection %llu: %s already names "
		    "the image the load gives it (%.12s)", (unsigned long long)
		    c->id, ref, want);
	if (status != 404 && v != CG_OWNED && !same) {
		refuse(c, "denied-build-parameter", "load the image under a name "
		    "of this project's own (edit RepoTags in the archive's "
		    "manifest.json, or docker tag it before docker save)", "the "
		    "image archive names the image %s, which is not this "
		    "project's (pulled, or another project's): loading would "
		    "move that name", ref);
		return;
	}
	c->ck.img_i++;
	next_image(c);
}

/* An inspect answered: the id, then the cache, a pull or the export. */
static void
inspected(struct conn *c, int status, const char *body, size_t len)
{
	const char *ref = c->ck.img[c->ck.img_i];
	struct image_config ic;
	const char *id;

	if (c->ck.kind == CK_LOAD) {
		load_name_inspected(c, status, body, len);
		return;
	}

	if (status == 404 && !c->ck.img_pulled) {
		pull(c);
		return;
	}
	if (status == 404) {
		refuse(c, "denied-build-parameter", "pull the image (docker pull) "
		    "and read its error", "base image %s is not present and the "
		    "gateway could not pull it", ref);
		return;
	}
	if (status < 200 || status > 299 ||
	    image_config_parse(body, len, &ic) < 0) {
		refuse(c, "backend-unreachable", "check the daemon", "unexpected "
		    "image inspect answer for base image %s", ref);
		return;
	}
	id = ic.id;
	if (strncmp(id, "sha256:", 7) == 0)
		id += 7;
	if (strlen(id) != 64 || strspn(id, "0123456789abcdef") != 64) {
		image_config_free(&ic);
		refuse(c, "backend-unreachable", "check the daemon", "unexpected "
		    "image id for base image %s", ref);
		return;
	}
	memcpy(c->ck.img_id, id, 65);
	image_config_free(&ic);
	if (cacheable(c) && cache_has(c->gw, c->ck.img_id)) {
		c->ck.img_i++;
		next_image(c);
		return;
	}
	export(c);
}

void
baseimg_done(struct conn *c, int ok, int timeout)
{
	char *body = NULL;
	size_t len;
	int status;

	if (c->ck.img_step == IMG_EXPORT) {
		/* only a timeout ends an export here (its end is EOF) */
		conn_close_backend(c);
		refuse(c, timeout ? "backend-timeout" : "backend-unreachable",
		    "check the daemon", "the daemon's export of base image %s "
		    "stalled or failed", c->ck.img[c->ck.img_i]);
		return;
	}
	if (backend_internal_done(c, ok, &status, &body, &len) < 0) {
		char fmt[128];

		conn_close_backend(c);
		snprintf(fmt, sizeof(fmt), "no answer from the daemon about %s",
		    noun(c));
		refuse(c, timeout ? "backend-timeout" : "backend-unreachable",
		    "check the daemon", fmt, c->ck.img[c->ck.img_i]);
		return;
	}
	if (c->ck.img_step == IMG_PULL)
		inspect(c);	/* whatever the pull said: is it there now? */
	else
		inspected(c, status, body, len);
	free(body);
}

/* Move the export's bytes into the checker's pipe, as far as they go. */
static void
pump(struct conn *c)
{
	struct pollfd p = { .fd = c->ck.xfeed, .events = POLLOUT };
	ssize_t n;
	int i;

	for (i = 0; i < 64 && c->ck.xfeed >= 0 && c->bc.fd >= 0; i++) {
		n = splice(c->bc.fd, NULL, c->ck.xfeed, NULL, EXPORT_PIPE,
		    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0) {
			c->bc.deadline = now_ms() + c->gw->backend_timeout_ms;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (poll(&p, 1, 0) == 0)
				c->ck.xfull = 1;	/* the checker reads on */
			break;
		}
		/* the end of the export (or an error): the checker's verdict
		   follows what it read */
		conn_close_backend(c);
		close(c->ck.xfeed);
		c->ck.xfeed = -1;
		c->ck.img_step = IMG_VERDICT;
		break;
	}
	mark_dirty(c->gw, c);
}

void
baseimg_on_backend(struct conn *c, short revents)
{
	int rc;

	if ((revents & (POLLOUT | POLLERR | POLLHUP)) && c->bc.out.len > 0) {
		rc = backend_write(c);
		if (rc < 0) {
			conn_close_backend(c);
			refuse(c, "backend-unreachable", "check the daemon", "the "
			    "gateway could not ask the daemon for base image %s",
			    c->ck.img[c->ck.img_i]);
			return;
		}
	}
	if (c->bc.out.len == 0 && !c->ck.xfull &&
	    (revents & (POLLIN | POLLHUP | POLLERR)))
		pump(c);
}

short
baseimg_events(const struct conn *c)
{
	if (c->bc.out.len > 0)
		return POLLOUT;
	return c->ck.xfull || c->ck.xfeed < 0 ? 0 : POLLIN;
}

void
baseimg_progress(struct conn *c)
{
	if (c->ck.img_step != IMG_EXPORT)
		return;
	c->ck.xfull = 0;
	pump(c);
}

void
baseimg_verdict(struct conn *c, const struct cg_refusal *r)
{
	if (c->ck.img_step != IMG_EXPORT && c->ck.img_step != IMG_VERDICT) {
		checker_failed(c, "broke the protocol");
		return;
	}
	conn_close_backend(c);
	if (c->ck.xfeed >= 0) {
		close(c->ck.xfeed);
		c->ck.xfeed = -1;
	}
	if (r != NULL) {
		char *d = log_quote(r->detail, strlen(r->detail));

		log_msg(LOG_INFO, "check", "connection %llu: base image %s (id "
		    "%.12s) refused: %s", (unsigned long long)c->id,
		    c->ck.img[c->ck.img_i], c->ck.img_id, d);
		free(d);
		c->ck.img_over(c, r);
		return;
	}
	if (cacheable(c))
		cache_add(c->gw, c->ck.img_id);
	c->ck.img_i++;
	next_image(c);
}

void
baseimg_end(struct conn *c)
{
	size_t i;

	if (c->ck.parked_on) {
		ev_close(c->gw, c->ck.parked.fd);
		fifo_free(&c->ck.parked.out);
		free(c->ck.parked.in);
		free(c->ck.parked.retry);
		c->ck.parked_on = 0;
	}
	if (c->ck.xfeed >= 0)
		close(c->ck.xfeed);
	c->ck.xfeed = -1;
	for (i = 0; i < c->ck.nimg; i++)
		free(c->ck.img[i]);
	c->ck.nimg = 0;
	c->ck.img_step = IMG_NONE;
}
