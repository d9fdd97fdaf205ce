/*
 * Route classification (routes.md §2, §3, §5-§7, §10.1): path validation,
 * the version prefix and API selection, grpc, the denied families and
 * BuildKit paths (§7.1, §7.3), and the lookup of a request in the route
 * table of routes.c by API, method and segment shape, denied verbs (§7.2)
 * included. The child's policy and the monitor's re-check both classify
 * here (privsep.md §9.1 item 3).
 */
#include "policy/routes.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/query.h"

#define BUILDKIT_DETAIL	"BuildKit is not available through the gateway; " \
	"build with DOCKER_BUILDKIT=0"

#define SWARM_HINT	"swarm mode is not available; run containers with " \
	"docker run or docker-compose"
#define KUBE_HINT	"create the pod and its containers with podman " \
	"--remote pod create and podman --remote run --pod POD"

/* Longest version segment taken as a version: the prefix ("/" + segment)
   must fit struct cg_request.prefix. Longer ones are ordinary segments. */
#define VERSION_SEG_MAX	46

/*
 * §7.1: denied families (first segment after the version or "libpod",
 * any method, any further segments), each with what to do instead.
 */
static const struct {
	const char *name;
	const char *hint;
} denied_families[] = {
	{ "auth", "log in without the gateway (unset DOCKER_HOST, then docker "
	    "login); docker pull through the gateway sends the credentials it "
	    "stored" },
	{ "swarm", SWARM_HINT }, { "services", SWARM_HINT },
	{ "tasks", SWARM_HINT }, { "nodes", SWARM_HINT },
	{ "configs", SWARM_HINT },
	{ "plugins", "plugins are managed on the daemon's host, not through the "
	    "gateway" },
	{ "secrets", "pass values with -e or in a file inside the project" },
	{ "distribution", "pull the image (docker pull) and inspect it" },
	{ "debug", "use docker logs, docker inspect and docker events" },
	{ "kube", KUBE_HINT }, { "play", KUBE_HINT },
	{ "generate", "write the YAML yourself from podman --remote inspect; "
	    "generate reads state the gateway does not show" },
	{ "local", "use the everyday docker and podman commands" },
	{ "quadlets", "write quadlet files on the host, outside the gateway" },
	{ "artifacts", "keep files in the project or in a named volume" },
	{ "manifests", "build one image per platform; assemble and push the "
	    "manifest outside the gateway" },
};

/* §7.1: denied two-segment paths (and anything below them). */
static const struct {
	const char *first, *second, *hint;
} denied_paths[] = {
	{ "system", "dial-stdio", "connect to the gateway's socket itself "
	    "(DOCKER_HOST=unix://<run-dir>/docker.sock)" },
	{ "system", "check", "check the storage on the daemon's host" },
};

/* §7.3: BuildKit's own endpoints. */
static const char *const buildkit_families[] = { "session", "grpc", NULL };

static const struct {
	const char *name;
	unsigned mask;
} methods[] = {
	{ "GET", RM_GET }, { "HEAD", RM_HEAD }, { "POST", RM_POST },
	{ "PUT", RM_PUT }, { "DELETE", RM_DELETE },
};

/* ---- §2 path validation --------------------------------------------- */

int
route_path_valid(const char *path, size_t len)
{
	size_t i, seg = 1;	/* start of the current segment */
	unsigned char c;

	if (len == 0 || path[0] != '/')
		return 0;
	if (len == 1)
		return 1;
	for (i = 1; i <= len; i++) {
		if (i == len || path[i] == '/') {
			/* segment path[seg..i) */
			if (i == seg)
				return 0;	/* "//" or trailing "/" */
			if ((i - seg == 1 && path[seg] == '.') ||
			    (i - seg == 2 && path[seg] == '.' &&
			    path[seg + 1] == '.'))
				return 0;
			seg = i + 1;
			continue;
		}
		c = (unsigned char)path[i];
		/*
		 * '#' is http.md §2's (no fragment in a request-target): the
		 * child's HTTP parser refuses it first, the monitor's replay
		 * of a FORWARD has only this check (found by fuzz_forward)
		 */
		if (c < 0x21 || c > 0x7e || c == '%' || c == '\\' || c == '#')
			return 0;
	}
	return 1;
}

/* ---- §3 version ----------------------------------------------------- */

/* Parse 0|[1-9][0-9]{0,3} at s[*i..len); returns -1 if absent. */
static long
version_number(const char *s, size_t len, size_t *i)
{
	size_t start = *i;
	long v = 0;

	if (start >= len || s[start] < '0' || s[start] > '9')
		return -1;
	if (s[start] == '0') {
		*i = start + 1;
		return 0;
	}
	while (*i < len && s[*i] >= '0' && s[*i] <= '9' && *i - start < 4)
		v = v * 10 + (s[(*i)++] - '0');
	return v;
}

static int
alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z');
}

int
route_version(const char *s, size_t len, unsigned *maj, unsigned *min)
{
	size_t i = 1;
	long a, b, c;

	if (len < 4 || len > VERSION_SEG_MAX || s[0] != 'v')
		return 0;
	if ((a = version_number(s, len, &i)) < 0 || i >= len || s[i++] != '.')
		return 0;
	if ((b = version_number(s, len, &i)) < 0)
		return 0;
	if (i == len) {
		*maj = (unsigned)a;
		*min = (unsigned)b;
		return 2;
	}
	if (s[i++] != '.' || (c = version_number(s, len, &i)) < 0)
		return 0;
	(void)c;
	if (i == len)
		return 3;
	if (s[i++] != '-' || i == len)
		return 0;
	for (; i < len; i++)
		if (!alnum(s[i]))
			return 0;
	return 3;
}

/* ---- §5, §6 classification ------------------------------------------ */

struct seg {
	const char *p;
	size_t len;
};

#define SEG_PIECES_MAX	8	/* segments of the longest pattern */

static int
seg_is(const struct seg *s, const char *lit)
{
	size_t n = strlen(lit);

	return s->len == n && memcmp(s->p, lit, n) == 0;
}

static int
seg_in(const struct seg *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (seg_is(s, *list))
			return 1;
	return 0;
}

/*
 * Match segs[0..n) against pattern. On success returns 1 and sets
 * *ref_i / *ref_n to the placeholder's span relative to segs (0/0 when
 * the pattern has none).
 */
static int
pattern_match(const char *pattern, const struct seg *segs, size_t n,
    size_t *ref_i, size_t *ref_n)
{
	struct seg pc[SEG_PIECES_MAX];
	size_t k = 0, t, multi = (size_t)-1, at;
	const char *p = pattern, *slash;

	while (k < SEG_PIECES_MAX) {
		slash = strchr(p, '/');
		pc[k].p = p;
		pc[k].len = slash ? (size_t)(slash - p) : strlen(p);
		if (pc[k].len == 3 && memcmp(p, "{i}", 3) == 0)
			multi = k;
		k++;
		if (slash == NULL)
			break;
		p = slash + 1;
	}
	if (multi == (size_t)-1 ? n != k : n < k)
		return 0;
	*ref_i = *ref_n = 0;
	for (t = 0; t < k; t++) {
		at = (multi != (size_t)-1 && t > multi) ? n - (k - t) : t;
		if (t == multi) {
			*ref_i = t;
			*ref_n = n - k + 1;
		} else if (pc[t].len == 3 && pc[t].p[0] == '{') {
			*ref_i = at;
			*ref_n = 1;
		} else if (pc[t].len != segs[at].len ||
		    memcmp(pc[t].p, segs[at].p, pc[t].len) != 0)
			return 0;
	}
	return 1;
}

/* Split a validated path into segments; returns the count (caller frees). */
static size_t
split_path(const char *path, size_t len, struct seg **out)
{
	size_t i, n = 0, start;
	struct seg *s;

	for (i = 1; i < len; i++)
		if (path[i] == '/')
			n++;
	n = len > 1 ? n + 1 : 0;
	s = xcalloc(n ? n : 1, sizeof(*s));
	for (i = 0, start = 1; i < n; i++) {
		const char *slash = memchr(path + start, '/', len - start);
		size_t end = slash ? (size_t)(slash - path) : len;

		s[i].p = path + start;
		s[i].len = end - start;
		start = end + 1;
	}
	*out = s;
	return n;
}

static int
unknown(struct cg_refusal *r, const char *method, const char *path,
    size_t len)
{
	char q[260];

	return cg_refuse(r, "unknown-endpoint",
	    "%s %s is not available through the gateway", method,
	    cg_quote(path, len, q));
}

/*
 * §1 as amended on 2026-12-07: the routes served below v1.24, whose
 * meaning did not change, each measured on podman 4.3.1 and dockerd 20.10
 * (tests/integration/tools.sh t_old_api_versions; skopeo's docker-daemon:
 * transport asks v1.22 for images/get and images/load), from v1.12, the
 * oldest dockerd 20.10 serves. Elsewhere the refusal stays (B20: a start
 * body of an old version carried a HostConfig).
 */
#define OLD_VERSION_MIN	12
static const char *const old_version_routes[] = {
	"_ping", "version", "images/get", "images/{i}/get", "images/load", NULL
};

static int
old_version(struct cg_refusal *r, unsigned maj, unsigned min)
{
	return cg_refuse(r, "malformed", "API version v%u.%u is not supported "
	    "(minimum v1.24; from v1.%u for _ping, version, images get and "
	    "load)", maj, min, OLD_VERSION_MIN);
}

/*
 * §3: version prefix and API; sets *base to the first route segment and
 * *old to 1 for a compat version below v1.24 that only some routes take.
 */
static int
classify_api(enum cg_kind socket_kind, const struct seg *segs, size_t n,
    struct route_match *m, size_t *base, int *old, struct cg_refusal *r)
{
	unsigned maj = 0, min = 0;
	int form = n > 0 ? route_version(segs[0].p, segs[0].len, &maj, &min) : 0;

	m->api = CG_API_COMPAT;
	m->prefix_len = 0;
	*base = 0;
	*old = 0;
	if (form == 0)
		return 0;
	if (form == 2 && (maj < 1 || (maj == 1 && min < 24))) {
		if (maj < 1 || min < OLD_VERSION_MIN)
			return old_version(r, maj, min);
		*old = 1;
	}
	m->prefix_len = segs[0].len + 1;
	*base = 1;
	if (n > 1 && seg_is(&segs[1], "libpod")) {
		if (socket_kind == CG_DOCKER)
			return cg_refuse(r, "unknown-endpoint",
			    "the libpod API is only available on podman.sock");
		m->api = CG_API_LIBPOD;
		*base = 2;
	}
	return 0;
}

/* §7.1, §7.3: families refused whatever the method. */
static int
classify_denied(const struct seg *segs, size_t n, struct cg_refusal *r)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < sizeof(denied_families) / sizeof(denied_families[0]);
	    i++)
		if (seg_is(&segs[0], denied_families[i].name))
			return cg_refuse_hint(r, "denied-endpoint",
			    denied_families[i].hint,
			    "%.*s is not available through the gateway",
			    (int)segs[0].len, segs[0].p);
	if (seg_in(&segs[0], buildkit_families))
		return cg_refuse_hint(r, "denied-endpoint", CG_HINT_IN_DETAIL,
		    "%s", BUILDKIT_DETAIL);
	for (i = 0; i < sizeof(denied_paths) / sizeof(denied_paths[0]); i++)
		if (n >= 2 && seg_is(&segs[0], denied_paths[i].first) &&
		    seg_is(&segs[1], denied_paths[i].second))
			return cg_refuse_hint(r, "denied-endpoint",
			    denied_paths[i].hint,
			    "%s/%s is not available through the gateway",
			    denied_paths[i].first, denied_paths[i].second);
	return 0;
}

static unsigned
method_mask(const char *method)
{
	size_t i;

	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(methods[i].name, method) == 0)
			return methods[i].mask;
	return 0;
}

/* §6 table lookup on segs[0..n) (after the version / libpod). */
static const struct cg_route *
lookup(unsigned api, unsigned mm, const struct seg *segs, size_t n,
    size_t *ref_i, size_t *ref_n)
{
	size_t i, nroutes;
	const struct cg_route *routes = route_table(&nroutes);

	for (i = 0; i < nroutes; i++) {
		if (!(routes[i].apis & api) || !(routes[i].methods & mm))
			continue;
		if (pattern_match(routes[i].pattern, segs, n, ref_i, ref_n))
			return &routes[i];
	}
	return NULL;
}

static int
classify_segs(enum cg_kind socket_kind, const char *method, const char *path,
    size_t len, int grpc, const struct seg *segs, size_t n,
    struct route_match *m, struct cg_refusal *r)
{
	const struct cg_route *rt;
	size_t base, ref_i, ref_n;
	unsigned mm, maj = 0, min = 0;
	int old;

	if (classify_api(socket_kind, segs, n, m, &base, &old, r) == -1)
		return -1;
	if (old) {
		(void)route_version(segs[0].p, segs[0].len, &maj, &min);
		if (m->api != CG_API_COMPAT ||
		    (mm = method_mask(method)) == 0 ||
		    (rt = lookup(ROUTE_C, mm, segs + base, n - base, &ref_i,
		    &ref_n)) == NULL ||
		    !query_key_in(rt->pattern, old_version_routes, 0))
			return old_version(r, maj, min);
	}
	if (grpc)
		return cg_refuse_hint(r, "denied-endpoint", "build with "
		    "DOCKER_BUILDKIT=0", "application/grpc requests are not "
		    "available through the gateway");
	/*
	 * §7.2 amended: compat plugin inspect is 404, so that the docker
	 * CLI's inspect, which tries each object type in turn, ends with its
	 * usual "No such object" (usability.sh u_inspect).
	 */
	if (m->api == CG_API_COMPAT && strcmp(method, "GET") == 0 &&
	    n - base == 3 && seg_is(&segs[base], "plugins") &&
	    seg_is(&segs[base + 2], "json"))
		return cg_refuse_hint(r, "not-found", "plugins are managed on "
		    "the daemon's host; none is visible through the gateway",
		    "no such plugin: %.*s", (int)segs[base + 1].len,
		    segs[base + 1].p);
	if (classify_denied(segs + base, n - base, r) == -1)
		return -1;
	if ((mm = method_mask(method)) == 0)
		return unknown(r, method, path, len);
	rt = lookup(m->api == CG_API_LIBPOD ? ROUTE_L : ROUTE_C, mm,
	    segs + base, n - base, &ref_i, &ref_n);
	if (rt == NULL)
		return unknown(r, method, path, len);
	if (rt->flags & RF_DENIED)
		return rt->deny_detail != NULL ?
		    cg_refuse_hint(r, "denied-endpoint", rt->deny_hint, "%s",
		    rt->deny_detail) :
		    cg_refuse_hint(r, "denied-endpoint", rt->deny_hint,
		    "%s is not available through the gateway", rt->action);
	m->route = rt;
	if (strchr(rt->pattern, '{') != NULL) {
		m->name_seg = base + ref_i;
		m->name_nseg = ref_n;
	}
	m->ref_kind = rt->owner;
	m->ref_seg = rt->owner >= 0 ? base + ref_i : 0;
	m->ref_nseg = rt->owner >= 0 ? ref_n : 0;
	return 0;
}

int
route_classify(enum cg_kind socket_kind, const char *method,
    const char *path, size_t len, int grpc, struct route_match *m,
    struct cg_refusal *r)
{
	struct seg *segs;
	size_t n;
	int rc;

	memset(m, 0, sizeof(*m));
	m->ref_kind = -1;
	n = split_path(path, len, &segs);
	rc = classify_segs(socket_kind, method, path, len, grpc, segs, n, m, r);
	free(segs);
	return rc;
}

/* ---- §2 amended: %2F in an image name -------------------------------- */

#define DECODED_SLASHES_MAX	32

int
route_decode_image_name(enum cg_kind socket_kind, const char *method,
    const char *path, size_t len, char **out, size_t *outlen)
{
	size_t at[DECODED_SLASHES_MAX], nat = 0, i, k, seg, n = 0;
	struct route_match m;
	struct cg_refusal r;
	char *d;

	*out = NULL;
	d = xmalloc(len + 1);
	for (i = 0; i < len; i++) {
		if (path[i] != '%') {
			d[n++] = path[i];
			continue;
		}
		if (i + 2 >= len || path[i + 1] != '2' ||
		    (path[i + 2] != 'F' && path[i + 2] != 'f') ||
		    nat == DECODED_SLASHES_MAX)
			goto no;
		at[nat++] = n;
		d[n++] = '/';
		i += 2;
	}
	d[n] = '\0';
	if (nat == 0 || !route_path_valid(d, n))
		goto no;
	if (route_classify(socket_kind, method, d, n, 0, &m, &r) == -1 ||
	    strcmp(m.route->family, "images") != 0 || m.name_nseg == 0)
		goto no;
	/* the segment each decoded '/' ends (segment 0: after the first '/') */
	for (i = 0; i < nat; i++) {
		for (k = 1, seg = 0; k < at[i]; k++)
			if (d[k] == '/')
				seg++;
		if (seg < m.name_seg || seg + 1 >= m.name_seg + m.name_nseg)
			goto no;
	}
	*out = d;
	*outlen = n;
	return 1;
no:
	free(d);
	return 0;
}
