/*
 * The image step of the named-resource phase (spec README, amendments of
 * 2026-12-07: annotations and labels are policed on every road, the image
 * a container is created from included): before a container or pod create
 * is forwarded, the monitor reads the configuration of the image it names
 * (policy/imagecfg.h) and refuses it when the image carries what the
 * create body could not, or another project's label (image_config_check;
 * red team rt10 F1: a name moved onto another project's image ran that
 * project's code in this project's containers and pods, podman's default
 * infra image included).
 *
 * Which image the daemon will use, as it resolves it:
 *   - compat create on podman: the compat inspect of the name (podman
 *     normalises short names to Docker Hub there, as its create does),
 *     then the libpod inspect of the id it answered (only libpod shows
 *     annotations);
 *   - compat create on dockerd: the compat inspect (no image annotations);
 *   - libpod create, pod create with infra_image: the libpod inspect;
 *   - pod create without infra_image (and with an infra container):
 *     podman's default infra image, localhost/podman-pause:<Version>-<Built>
 *     (pkg/specgen/generate/pause_image.go), from GET /libpod/version
 *     (a backend whose answer names neither, which no podman is, gets a
 *     WARNING and no check).
 * The exposed ports it read are kept for a create that publishes them all
 * (monitor/exchange/publish.h).
 * A missing image (404) passes: the daemon refuses the create itself, or
 * builds its default infra image afresh; except a named infra image,
 * which podman would pull unchecked (PullPolicyMissing): refused.
 * Requests use the libpod version prefix /v4.0.0 (podman takes any).
 */
#include "monitor/gateway.h"
#include "monitor/exchange/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/image.h"
#include "monitor/log.h"
#include "policy/imagecfg.h"
#include "policy/imageref.h"
#include "policy/json.h"

#define LIBPOD_PREFIX	"/v4.0.0/libpod"

enum im_step {
	IM_NONE = 0,
	IM_RESOLVE,	/* compat inspect of the name (podman: for the id) */
	IM_INSPECT,	/* the inspect whose configuration is checked */
	IM_VERSION,	/* GET /libpod/version: the default infra image */
};

static void
im_request(struct conn *c, enum im_step step, const char *fmt,
    const char *arg)
{
	char *path, *req;
	int n;

	c->im.step = step;
	if (asprintf(&path, fmt, arg) < 0)
		xoom();
	n = asprintf(&req, "GET %s HTTP/1.1\r\nHost: docker\r\n\r\n", path);
	free(path);
	if (n < 0)
		xoom();
	if (backend_internal(c, req, (size_t)n, 1) < 0)
		backend_refuse_transport(c, 0);
}

static int
podman_backend(const struct conn *c)
{
	return c->gw->lis[c->lis].backend_kind == CG_PODMAN;
}

/* The compat inspect path of c's ref, with the client's version prefix. */
static void
start_compat(struct conn *c, enum im_step step)
{
	char fmt[64];

	snprintf(fmt, sizeof(fmt), "%s/images/%%s/json", c->q_prefix);
	im_request(c, step, fmt, c->im.ref);
}

void
image_free(struct conn *c)
{
	free(c->im.ref);
	free(c->im.id);
	c->im.ref = c->im.id = NULL;
	c->im.step = IM_NONE;
	cJSON_Delete(c->im.exposed);
	c->im.exposed = NULL;
}

void
image_reset(struct conn *c)
{
	image_free(c);
	c->im.pod = 0;
	c->im.default_infra = 0;
}

int
image_step_start(struct conn *c, const char *ref, int default_infra,
    int pod)
{
	image_reset(c);
	free(c->im_pin);
	c->im_pin = NULL;
	c->im.pod = pod;
	c->im.default_infra = ref == NULL;
	if (ref == NULL && !(default_infra && podman_backend(c)))
		return 0;
	if (ref != NULL) {
		/* an honest child refused anything else (image_field_check) */
		if (!image_ref_path_safe(ref, strlen(ref))) {
			backend_refuse(c, "malformed", "the image reference is "
			    "not a valid path segment");
			return -1;
		}
		c->im.ref = xstrdup(ref);
	}
	c->rs = RS_PHASE;
	if (ref == NULL)
		im_request(c, IM_VERSION, "%s/version", LIBPOD_PREFIX);
	else if (c->api == IPC_API_COMPAT && !pod)
		start_compat(c, podman_backend(c) ? IM_RESOLVE : IM_INSPECT);
	else
		im_request(c, IM_INSPECT, LIBPOD_PREFIX "/images/%s/json",
		    c->im.ref);
	return 1;
}

/*
 * Days from 1970-01-01 to the proleptic Gregorian date y-m-d (Howard
 * Hinnant's days_from_civil): timegm() would read the time zone files,
 * which the confined monitor may not open.
 */
static long long
days_from_civil(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

/*
 * Seconds since the epoch of an RFC 3339 time s ("1970-01-01T00:00:00Z"
 * or with a +hh:mm / -hh:mm offset: podman formats its build time in the
 * service's time zone), or -1.
 */
static long long
rfc3339_seconds(const char *s)
{
	int y, mo, d, h, mi, sec, off = 0, oh, om, n = 0;
	char sign;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec,
	    &n) != 6 || mo < 1 || mo > 12 || d < 1 || d > 31)
		return -1;
	s += n;
	if (strcmp(s, "Z") != 0) {
		if (sscanf(s, "%c%2d:%2d%n", &sign, &oh, &om, &n) != 3 ||
		    s[n] != '\0' || (sign != '+' && sign != '-'))
			return -1;
		off = (sign == '-' ? -1 : 1) * (oh * 3600 + om * 60);
	}
	return days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 +
	    h * 3600 + mi * 60 + sec - off;
}

/*
 * The default infra image name from a GET /libpod/version answer, into
 * c->im.ref: "localhost/podman-pause:<Version>-<Built>". 0, or -1 when the
 * answer lacks Version or Components[0].Details.BuildTime.
 */
static int
default_infra_name(struct conn *c, const char *body, size_t len)
{
	char err[128], *name;
	const cJSON *v, *comp, *bt;
	cJSON *tree = json_parse(body, len, err, sizeof(err));
	long long built;
	int rc = -1;

	v = json_get(tree, "Version");
	comp = json_get(tree, "Components");
	bt = json_get(json_get(cJSON_IsArray(comp) ? comp->child : NULL,
	    "Details"), "BuildTime");
	if (cJSON_IsString(v) && cJSON_IsString(bt) &&
	    (built = rfc3339_seconds(bt->valuestring)) >= 0 &&
	    asprintf(&name, "localhost/podman-pause:%s-%lld", v->valuestring,
	    built) > 0) {
		if (image_ref_path_safe(name, strlen(name))) {
			free(c->im.ref);
			c->im.ref = name;
			rc = 0;
		} else
			free(name);
	}
	cJSON_Delete(tree);
	return rc;
}

/*
 * podman's systemd mode (image_systemd_check) for a compat or pod create
 * on podman, from c's create body (its words in c->cb.sd, createbody.c)
 * and the image's configuration ic (NULL: no image). Libpod creates carry systemd=false (policy/create.c), and
 * dockerd has no systemd mode. 0, or -1 after refusing c.
 */
static int
systemd_step(struct conn *c, const struct image_config *ic)
{
	struct cg_refusal r;
	int rc;

	if (!podman_backend(c) || (!c->im.pod && c->api != IPC_API_COMPAT))
		return 0;
	/* the body's words, as the phase's read of it kept them */
	memset(&r, 0, sizeof(r));
	rc = c->cb.sd == NULL ? cg_refuse(&r, "malformed", "the create body "
	    "is not JSON") : image_systemd_decide(ic, c->cb.sd, c->im.pod, &r);
	if (rc < 0)
		backend_refuse_r(c, &r);
	return rc;
}

/*
 * The image's configuration in body: checked. Returns 1 when it passed
 * (the phase goes on), 0 when another request runs or c was refused.
 */
static int
check_config(struct conn *c, const char *body, size_t len)
{
	struct image_config ic;
	struct cg_refusal r;

	if (image_config_parse(body, len, &ic) < 0) {
		backend_refuse(c, "backend-unreachable", "unexpected image "
		    "inspect response");
		return 0;
	}
	if (c->im.step == IM_RESOLVE) {
		/* podman: the id the compat lookup resolved, inspected whole */
		if (!image_ref_path_safe(ic.id, strlen(ic.id))) {
			image_config_free(&ic);
			backend_refuse(c, "backend-unreachable", "unexpected "
			    "image inspect response");
			return 0;
		}
		free(c->im.id);
		c->im.id = xstrdup(ic.id);
		image_config_free(&ic);
		im_request(c, IM_INSPECT, LIBPOD_PREFIX "/images/%s/json",
		    c->im.id);
		return 0;
	}
	memset(&r, 0, sizeof(r));
	if (image_config_check(&ic, c->im.ref, c->gw->root, &r) < 0) {
		image_config_free(&ic);
		backend_refuse_r(c, &r);
		return 0;
	}
	if (systemd_step(c, &ic) < 0) {
		image_config_free(&ic);
		return 0;
	}
	/* publish.h: the ports a publish-all create binds on 127.0.0.1 */
	if (c->ph.pub_all && ic.exposed_ports != NULL)
		c->im.exposed = json_checked(cJSON_Duplicate(ic.exposed_ports,
		    1));
	/* the body will name exactly this image (backend_forward pins it) */
	free(c->im_pin);
	c->im_pin = !c->im.default_infra && image_ref_path_safe(ic.id,
	    strlen(ic.id)) ? xstrdup(ic.id) : NULL;
	image_config_free(&ic);
	c->im.step = IM_NONE;
	return 1;
}

/*
 * The daemon answered the image's inspect with an error (not 404): fail
 * closed, naming the image and quoting the daemon's own message, which
 * says what is wrong with it. Measured on podman 4.3.1: an image whose
 * EXPOSE names sctp answers the compat inspect with 500 "invalid port
 * proto \"sctp\"", and the daemon refuses to create a container from it
 * on both APIs anyway ("protocol SCTP is not allowed for exposed ports").
 */
static void
inspect_refused(struct conn *c, int status, const char *body, size_t len)
{
	char err[64], qr[260], qm[260];
	cJSON *tree = json_parse(body, len, err, sizeof(err));
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(tree, "message");
	const char *m = cJSON_IsString(msg) ? msg->valuestring : "";
	size_t ml = strlen(m) > 200 ? 200 : strlen(m);

	backend_refuse(c, "backend-unreachable", "the daemon cannot inspect "
	    "image %s (status %d%s%s): it cannot create a container from it "
	    "either", c->im.ref != NULL ? cg_quote(c->im.ref,
	    strlen(c->im.ref), qr) : "-", status, ml > 0 ? ": " : "",
	    ml > 0 ? cg_quote(m, ml, qm) : "");
	cJSON_Delete(tree);
}

int
image_step_done(struct conn *c, int ok, int timeout)
{
	char *body = NULL;
	size_t body_len;
	int status, passed = 0;

	if (backend_internal_done(c, ok, &status, &body, &body_len) < 0) {
		backend_refuse_transport(c, timeout);
		return 0;
	}
	if (c->im.step == IM_VERSION) {
		if (status < 200 || status > 299)
			backend_refuse(c, "backend-unreachable", "unexpected "
			    "version response");
		else if (default_infra_name(c, body, body_len) == 0)
			im_request(c, IM_INSPECT, LIBPOD_PREFIX
			    "/images/%s/json", c->im.ref);
		else {
			/* podman always names them; another backend has no
			 * default infra image of podman's to check */
			log_msg(LOG_WARNING, "image-step", "the backend's "
			    "/libpod/version names no Version and BuildTime: "
			    "the default infra image of pod creates is not "
			    "checked");
			c->im.step = IM_NONE;
			passed = 1;
		}
	} else if (status == 404 && c->im.pod && !c->im.default_infra) {
		backend_refuse(c, "pod", "infra image %s is not present; pull "
		    "it first (the daemon would pull it unchecked)", c->im.ref);
	} else if (status == 404) {
		/* a default infra image podman builds afresh still runs
		 * infra_command */
		c->im.step = IM_NONE;
		passed = systemd_step(c, NULL) == 0;
	} else if (status < 200 || status > 299) {
		inspect_refused(c, status, body, body_len);
	} else
		passed = check_config(c, body, body_len);
	free(body);
	return passed;
}
