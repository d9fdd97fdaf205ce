/*
 * Container create, compat and libpod shapes (policy.md §1-§6), and the
 * rule helpers pod create shares with it.
 *
 * Rules run in the order of policy.md §3 and the first failure answers.
 * Every field that can reach the host (namespaces, devices, bind sources,
 * log drivers, runtimes, engine annotations) is refused unless it is on a
 * short allow-list; bind sources are resolved by the monitor and the
 * resolved path is what the daemon sees (B26).
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/body_int.h"
#include "policy/json.h"
#include "policy/schema.h"

#define D_PRIVILEGED	"drop --privileged; the gateway never grants it"
#define D_OOM		"a negative OOM score adjustment is refused"
#define D_CAPADD	"added capabilities are refused; run without --cap-add"
#define D_DEVICES	"host devices are refused; run without --device / --gpus"
#define D_SYSCTLS	"kernel parameters are refused"
#define D_CGPARENT	"custom cgroup parents are refused"
#define D_RUNTIME	"alternative OCI runtimes are refused"
#define D_PUBLISH_ALL	"publishing every exposed port binds 0.0.0.0; " \
			"publish ports explicitly"
#define D_PUBLISH_NONE	"published ports would be discarded with --network none"
#define D_VOLUMES_FROM	"--volumes-from is refused; share a named volume instead"
#define D_LINKS		"--link reaches another project's container and is refused"
#define D_VOLUME_DRIVER	"a volume driver configuration is refused; " \
			"use a named volume"
#define D_MOUNT_TYPE	"every mount needs an explicit type of bind, " \
			"volume or tmpfs"
#define D_NS_ALLOWED	"only private, pod, auto, keep-id, nomap and shareable " \
			"are allowed"
/* What to do instead (issue 10 item 7), where the code's default is vague. */
#define REL_HINT	"give an absolute path inside the project, e.g. " \
			"-v \"$PWD/data:/data\""
#define NETMODE_HINT	"publish the ports you need with -p HOST:CONTAINER " \
			"on the default network, or use --network none or a " \
			"network created with docker network create NAME"

/* ==================================================================== */
/* Small helpers                                                        */
/* ==================================================================== */

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
ci_eq(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++)
		if (lower((unsigned char)*a) != lower((unsigned char)*b))
			return 0;
	return *a == *b;
}

int
ci_prefix(const char *s, const char *prefix)
{
	for (; *prefix != '\0'; s++, prefix++)
		if (*s == '\0' ||
		    lower((unsigned char)*s) != lower((unsigned char)*prefix))
			return 0;
	return 1;
}

static int
name_char(int c, int first)
{
	if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return !first && (c == '_' || c == '.' || c == '-');
}

int
is_resource_name(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > 255)
		return 0;
	for (i = 0; i < len; i++)
		if (!name_char((unsigned char)s[i], i == 0))
			return 0;
	return 1;
}

int
netmode_keyword(const char *v, int podman_words)
{
	static const char *const words[] = { "", "default", "bridge", "none" };
	static const char *const pwords[] = {
		"private", "slirp4netns", "pasta", "pod",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (ci_eq(v, words[i]))
			return 1;
	if (podman_words)
		for (i = 0; i < sizeof(pwords) / sizeof(pwords[0]); i++)
			if (ci_eq(v, pwords[i]))
				return 1;
	return 0;
}

int
netmode_refused_prefix(const char *v)
{
	static const char *const prefixes[] = {
		"host", "container", "ns", "path", "from",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (ci_prefix(v, prefixes[i]))
			return 1;
	return 0;
}

int
builtin_network(const char *name, enum cg_kind backend)
{
	return ci_eq(name, "bridge") || ci_eq(name, "default") ||
	    (backend == CG_PODMAN && ci_eq(name, "podman"));
}

const char *
q(const char *s, char buf[260])
{
	return cg_quote(s, strlen(s), buf);
}

const char *
jstr(const cJSON *obj, const char *key)
{
	const cJSON *v = json_get(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *
jstr0(const cJSON *obj, const char *key)
{
	const char *s = jstr(obj, key);

	return s != NULL ? s : "";
}

/* "Not null" (§3.1 step 19): present with a value other than null. */
static int
not_null(const cJSON *v)
{
	return v != NULL && !cJSON_IsNull(v);
}

cJSON *
xj_string(const char *s)
{
	cJSON *n = cJSON_CreateString(s);

	if (n == NULL)
		xoom();
	return n;
}

cJSON *
xj_object(void)
{
	cJSON *n = cJSON_CreateObject();

	if (n == NULL)
		xoom();
	return n;
}

cJSON *
xj_array(void)
{
	cJSON *n = cJSON_CreateArray();

	if (n == NULL)
		xoom();
	return n;
}

static cJSON *
xj_false(void)
{
	cJSON *n = cJSON_CreateFalse();

	if (n == NULL)
		xoom();
	return n;
}

static void
xj_set_string(cJSON *item, const char *s)
{
	if (cJSON_SetValuestring(item, s) == NULL)
		xoom();
}

void
replace_member(cJSON *obj, cJSON *item, cJSON *repl)
{
	/* Keys are unique here (collisions were refused), so the first
	 * exact match is item; cJSON copies the key onto repl. */
	if (!cJSON_ReplaceItemInObjectCaseSensitive(obj, item->string, repl) ||
	    repl->string == NULL)
		xoom();
}

void
set_member(cJSON *obj, const char *key, cJSON *value)
{
	cJSON *old = json_get(obj, key);

	if (old != NULL)
		replace_member(obj, old, value);
	else if (!cJSON_AddItemToObject(obj, key, value))
		xoom();
}

/* ==================================================================== */
/* Facts                                                                */
/* ==================================================================== */

static const char *
backend_name(const struct cg_policy_ctx *ctx)
{
	return ctx->backend_kind == CG_DOCKER ? "docker" : "podman";
}

int
fact_failure(const struct cg_policy_ctx *ctx, enum cg_fact_result res,
    const char *kind, struct cg_refusal *r)
{
	switch (res) {
	case CG_TIMEOUT:
		return cg_refuse_timeout(r, backend_name(ctx),
		    ctx->backend_timeout_ms ? ctx->backend_timeout_ms : 60000);
	case CG_UNEXPECTED:
		return cg_refuse(r, "backend-unreachable",
		    "unexpected %s inspect response", kind);
	case CG_OWNED:
	case CG_NOT_OWNED:
	case CG_UNREACHABLE:
		break;
	}
	return cg_refuse(r, "backend-unreachable",
	    "the %s backend is unreachable", backend_name(ctx));
}

enum cg_fact_result
ask_owned(const struct cg_policy_ctx *ctx, const struct cg_request *req,
    enum cg_fact_kind kind, const char *ref, char id_out[CG_ID_MAX + 1])
{
	enum cg_fact_result res;

	id_out[0] = '\0';
	if (ctx->facts == NULL || ctx->facts->owned == NULL)
		return CG_UNREACHABLE;
	res = ctx->facts->owned(ctx->facts->arg, kind, req->api, req->prefix,
	    ref, id_out);
	id_out[CG_ID_MAX] = '\0';
	if (res == CG_OWNED && id_out[0] == '\0')
		return CG_UNEXPECTED;
	return res;
}

/*
 * §4.4: resolve an absolute bind source through the monitor. On success
 * out holds the resolved path.
 */
static int
resolve_bind(const struct cg_policy_ctx *ctx, const char *src,
    char out[CG_PATH_MAX + 1], struct cg_refusal *r)
{
	enum cg_path_verdict v = CG_PATH_UNRESOLVABLE;
	char qs[260];

	out[0] = '\0';
	if (ctx->facts != NULL && ctx->facts->resolve != NULL &&
	    strlen(src) <= CG_PATH_MAX) {
		v = ctx->facts->resolve(ctx->facts->arg, src, out);
		out[CG_PATH_MAX] = '\0';
	}
	switch (v) {
	case CG_PATH_ALLOWED:
		if (out[0] == '/')
			return 0;
		break;
	case CG_PATH_OUTSIDE:
		cg_refuse(r, "bind-mount",
		    "%s is outside the allowed roots (%s)", q(src, qs), out);
		cg_hint(r, "to allow it, start the gateway with --extra-bind-root "
		    "%s; or keep the data in a named volume (-v NAME:/path)",
		    qs);
		return -1;
	case CG_PATH_EXCLUDED:
		return cg_refuse_hint(r, "bind-mount", "bind another directory "
		    "of the project, or use a named volume (-v NAME:/path)",
		    "%s is the gateway's run directory or the personal config "
		    "layer", q(src, qs));
	case CG_PATH_SOCKET:
		return cg_refuse_hint(r, "bind-mount", "never bind a container "
		    "engine's socket; talk to this gateway's socket from outside "
		    "the container", "%s would expose the container engine's "
		    "socket", q(src, qs));
	case CG_PATH_UNRESOLVABLE:
		break;
	}
	return cg_refuse_hint(r, "bind-mount", "bind an existing directory or "
	    "file inside the project", "%s cannot be resolved", q(src, qs));
}

/* ==================================================================== */
/* Shared rules                                                         */
/* ==================================================================== */

static int
ns_mode_allowed(const char *mode)
{
	static const char *const modes[] = {
		"", "private", "pod", "auto", "keep-id", "nomap", "shareable",
	};
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (ci_eq(mode, modes[i]))
			return 1;
	return 0;
}

/* §3.2, libpod namespace objects. */
int
rule_ns_libpod(const cJSON *body, const char *field, struct cg_refusal *r)
{
	const cJSON *ns = json_get(body, field);
	const char *mode, *value, *p;
	char qb[260];

	if (!cJSON_IsObject(ns))
		return 0;
	mode = jstr0(ns, "nsmode");
	value = jstr0(ns, "value");
	if (!ns_mode_allowed(mode))
		return cg_refuse_hint(r, "namespace", CG_HINT_IN_DETAIL, "%s.nsmode=%s is refused; "
		    D_NS_ALLOWED, field, q(mode, qb));
	if (value[0] == '\0')
		return 0;
	if (strcmp(field, "userns") == 0 &&
	    (ci_eq(mode, "auto") || ci_eq(mode, "keep-id"))) {
		for (p = value; *p != '\0'; p++)
			if (!name_char((unsigned char)*p, 1) && *p != '=' &&
			    *p != ',' && *p != ':' && *p != '_' && *p != '-')
				break;
		if (*p == '\0')
			return 0;
	}
	return cg_refuse(r, "namespace", "%s.value is refused", field);
}

/* §3.3.1, libpod netns. */
int
rule_netns_libpod(const cJSON *body, struct cg_refusal *r)
{
	const cJSON *ns = json_get(body, "netns");
	const char *mode;
	char qb[260];

	if (!cJSON_IsObject(ns))
		return 0;
	mode = jstr0(ns, "nsmode");
	if (!netmode_keyword(mode, 1))
		return cg_refuse_hint(r, "network", NETMODE_HINT,
		    "netns.nsmode=%s is refused",
		    q(mode, qb));
	if (jstr0(ns, "value")[0] != '\0')
		return cg_refuse(r, "network", "netns.value is refused");
	return 0;
}

/* §3.3.2: a key of EndpointsConfig / Networks. */
static int
rule_endpoint_key(const struct cg_policy_ctx *ctx, const char *key,
    struct cg_refusal *r)
{
	char qb[260];

	if (builtin_network(key, ctx->backend_kind))
		return 0;
	if (ci_eq(key, "host") || ci_eq(key, "none") ||
	    netmode_refused_prefix(key))
		return cg_refuse(r, "network", "network name %s is refused",
		    q(key, qb));
	if (!is_resource_name(key, strlen(key)))
		return cg_refuse(r, "network", "%s is not a valid network name",
		    q(key, qb));
	return 0;
}

/* §3.3.3 */
int
rule_endpoint_settings(const cJSON *es, struct cg_refusal *r)
{
	if (!cJSON_IsObject(es))
		return 0;
	if (json_truthy(json_get(es, "DriverOpts")))
		return cg_refuse(r, "network",
		    "endpoint driver options are refused");
	if (json_truthy(json_get(es, "NetworkID")))
		return cg_refuse(r, "network", "NetworkID is refused");
	if (json_truthy(json_get(es, "EndpointID")))
		return cg_refuse(r, "network", "EndpointID is refused");
	if (json_truthy(json_get(es, "Links")))
		return cg_refuse(r, "links", D_LINKS);
	return 0;
}

/* §3.3.2-3, libpod Networks. */
int
rule_networks_libpod(const struct cg_policy_ctx *ctx, const cJSON *body,
    struct cg_refusal *r)
{
	const cJSON *nets = json_get(body, "Networks"), *n;

	if (!cJSON_IsObject(nets))
		return 0;
	for (n = nets->child; n != NULL; n = n->next) {
		if (rule_endpoint_key(ctx, n->string, r) != 0)
			return -1;
		if (json_truthy(json_get(n, "options")))
			return cg_refuse(r, "network",
			    "per-network options are refused");
	}
	return 0;
}

/* Copy s[0..n), trimmed of blanks and lower-cased. */
static char *
trim_lower(const char *s, size_t n)
{
	char *out;
	size_t i;

	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	out = xstrndup(s, n);
	for (i = 0; i < n; i++)
		out[i] = (char)lower((unsigned char)out[i]);
	return out;
}

/* label=type:<t> with t spc_t or containing "unconfined" (§3.4). */
static int
label_refused(const char *v)
{
	char *t;
	int bad;

	if (strcmp(v, "disable") == 0)
		return 1;
	if (strncmp(v, "type:", 5) != 0)
		return 0;
	t = trim_lower(v + 5, strlen(v + 5));
	bad = strcmp(t, "spc_t") == 0 || strstr(t, "unconfined") != NULL;
	free(t);
	return bad;
}

static int
security_opt_ok(const char *entry)
{
	size_t sep = strcspn(entry, "=:");
	char *key = trim_lower(entry, sep);
	char *val = trim_lower(entry[sep] ? entry + sep + 1 : "",
	    entry[sep] ? strlen(entry + sep + 1) : 0);
	int ok = 0;

	if (strcmp(key, "seccomp") == 0)
		ok = val[0] == '\0' || strcmp(val, "default") == 0;
	else if (strcmp(key, "apparmor") == 0)
		ok = strcmp(val, "unconfined") != 0;
	else if (strcmp(key, "label") == 0)
		ok = !label_refused(val);
	else if (strcmp(key, "no-new-privileges") == 0)
		ok = val[0] == '\0' || strcmp(val, "true") == 0;
	else if (strcmp(key, "systempaths") == 0)
		ok = val[0] == '\0';
	free(key);
	free(val);
	return ok;
}

/* §3.4, compat SecurityOpt and pod security_opt. */
int
rule_security_opts(const cJSON *list, struct cg_refusal *r)
{
	const cJSON *e;
	char qb[260];

	if (!cJSON_IsArray(list))
		return 0;
	for (e = list->child; e != NULL; e = e->next)
		if (cJSON_IsString(e) && !security_opt_ok(e->valuestring))
			return cg_refuse(r, "security-opt", "%s is refused",
			    q(e->valuestring, qb));
	return 0;
}

/* §3.4, libpod security fields. */
static int
rule_security_libpod(const cJSON *body, struct cg_refusal *r)
{
	const cJSON *list = json_get(body, "selinux_opts"), *e;
	const char *v;
	char qb[260], *t;
	int bad;

	if (cJSON_IsArray(list))
		for (e = list->child; e != NULL; e = e->next) {
			if (!cJSON_IsString(e))
				continue;
			t = trim_lower(e->valuestring, strlen(e->valuestring));
			bad = label_refused(t);
			free(t);
			if (bad)
				return cg_refuse(r, "security-opt",
				    "selinux_opts=%s is refused",
				    q(e->valuestring, qb));
		}
	v = jstr0(body, "apparmor_profile");
	if (ci_eq(v, "unconfined"))
		return cg_refuse(r, "security-opt",
		    "apparmor_profile=%s is refused", q(v, qb));
	v = jstr0(body, "seccomp_policy");
	if (v[0] != '\0' && strcmp(v, "default") != 0)
		return cg_refuse(r, "security-opt",
		    "seccomp_policy=%s is refused", q(v, qb));
	v = jstr0(body, "seccomp_profile_path");
	if (v[0] != '\0')
		return cg_refuse(r, "security-opt",
		    "seccomp_profile_path=%s is refused", q(v, qb));
	return 0;
}

/*
 * §3.6, plus org.systemd.property.*: runc hands those to systemd as unit
 * properties of the container's scope under the systemd cgroup driver
 * (DeviceAllow= would grant host devices); hardening beyond the spec.
 */
static int
rule_annotations(const cJSON *ann, struct cg_refusal *r)
{
	static const char *const reserved[] = {
		"io.podman.annotations.", "run.oci.", "io.containers.",
		"cdi.k8s.io/", "org.systemd.property.",
	};
	const cJSON *a;
	size_t i;
	char qb[260];

	if (!cJSON_IsObject(ann))
		return 0;
	for (a = ann->child; a != NULL; a = a->next)
		for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
			if (ci_prefix(a->string, reserved[i]))
				return cg_refuse(r, "annotations",
				    "%s is reserved for the container engine "
				    "and is refused", q(a->string, qb));
	return 0;
}

/* §3.7.2: empty or an IPv4/IPv6 literal. */
static int
ip_literal_ok(const char *ip)
{
	unsigned char buf[16];

	return ip[0] == '\0' || inet_pton(AF_INET, ip, buf) == 1 ||
	    inet_pton(AF_INET6, ip, buf) == 1;
}

/* §3.7.3: 127.0.0.0/8 and ::1. */
static int
ip_loopback(const char *ip)
{
	unsigned char buf[16];
	static const unsigned char v6lo[16] = { [15] = 1 };

	if (inet_pton(AF_INET, ip, buf) == 1)
		return buf[0] == 127;
	if (inet_pton(AF_INET6, ip, buf) == 1)
		return memcmp(buf, v6lo, 16) == 0;
	return 0;
}

static void
warn(const struct cg_policy_ctx *ctx, const char *port, const char *ip)
{
	char msg[CG_DETAIL_MAX], qp[260], qi[260];

	if (ctx->facts == NULL || ctx->facts->warn == NULL)
		return;
	snprintf(msg, sizeof(msg), "container create publishes %s on "
	    "non-loopback address %s", q(port, qp), q(ip, qi));
	ctx->facts->warn(ctx->facts->arg, msg);
}

/* §3.7.1-2, libpod portmappings (container and pod create). */
int
rule_publish_libpod(const cJSON *body, struct cg_refusal *r)
{
	const cJSON *pm = json_get(body, "portmappings"), *e;
	const char *ip;
	char qb[260];

	if (json_truthy(pm) &&
	    ci_eq(jstr0(json_get(body, "netns"), "nsmode"), "none"))
		return cg_refuse(r, "publish", D_PUBLISH_NONE);
	if (!cJSON_IsArray(pm))
		return 0;
	for (e = pm->child; e != NULL; e = e->next) {
		ip = jstr0(e, "host_ip");
		if (!ip_literal_ok(ip))
			return cg_refuse(r, "publish",
			    "%s is not an IP address", q(ip, qb));
	}
	return 0;
}

void
warn_publish_libpod(const struct cg_policy_ctx *ctx, const cJSON *body)
{
	const cJSON *pm = json_get(body, "portmappings"), *e, *port;
	const char *ip, *proto;
	char buf[300];

	if (!cJSON_IsArray(pm))
		return;
	for (e = pm->child; e != NULL; e = e->next) {
		ip = jstr0(e, "host_ip");
		if (ip[0] == '\0' || ip_loopback(ip))
			continue;
		port = json_get(e, "container_port");
		proto = jstr0(e, "protocol");
		snprintf(buf, sizeof(buf), "%.40s/%.40s",
		    json_is_number(port) ? port->valuestring : "?",
		    proto[0] ? proto : "tcp");
		warn(ctx, buf, ip);
	}
}

void
rewrite_host_ips_libpod(cJSON *body)
{
	cJSON *pm = json_get(body, "portmappings"), *e, *ip;

	if (!cJSON_IsArray(pm))
		return;
	for (e = pm->child; e != NULL; e = e->next) {
		if (!cJSON_IsObject(e))
			continue;
		ip = json_get(e, "host_ip");
		if (ip == NULL || cJSON_IsNull(ip) ||
		    (cJSON_IsString(ip) && ip->valuestring[0] == '\0'))
			set_member(e, "host_ip", xj_string("127.0.0.1"));
	}
}

/* §4.2 Subpath / §4.3 SubPath: empty, or relative without "..". */
static int
subpath_ok(const char *p)
{
	const char *c = p;
	size_t n;

	if (p[0] == '\0')
		return 1;
	if (p[0] == '/')
		return 0;
	while (*c != '\0') {
		n = strcspn(c, "/");
		if (n == 2 && c[0] == '.' && c[1] == '.')
			return 0;
		c += n;
		if (*c == '/')
			c++;
	}
	return 1;
}

/*
 * §4.2 bind source (Mounts Source, libpod mounts source): present,
 * absolute, resolved; on success the member is replaced by the resolved
 * path.
 */
static int
bind_source(const struct cg_policy_ctx *ctx, cJSON *mount, const char *key,
    struct cg_refusal *r)
{
	cJSON *src = json_get(mount, key);
	char out[CG_PATH_MAX + 1], qb[260];

	if (!cJSON_IsString(src) || src->valuestring[0] == '\0')
		return cg_refuse(r, "bind-mount", "a bind mount needs a source");
	if (src->valuestring[0] != '/')
		return cg_refuse_hint(r, "bind-mount", REL_HINT,
		    "relative source %s is refused", q(src->valuestring, qb));
	if (resolve_bind(ctx, src->valuestring, out, r) != 0)
		return -1;
	if (strcmp(out, src->valuestring) != 0)
		xj_set_string(src, out);
	return 0;
}

static int
propagation_refused(const char *opt)
{
	char *t = trim_lower(opt, strlen(opt));
	int bad = strcmp(t, "shared") == 0 || strcmp(t, "rshared") == 0;

	free(t);
	return bad;
}

/*
 * Hardening beyond policy.md §4.1/§4.3: the mount options a bind or a
 * named volume may carry, compared case-sensitively as both daemons do.
 * Everything else is refused: podman reads "O" with "upperdir=<host
 * dir>,workdir=..." as an overlay whose upper layer is an unchecked host
 * directory, and "idmap...", "key=value" options configure the mount on
 * the host side.
 */
static const char *const bind_options[] = {
	"ro", "rw", "z", "Z", "nocopy", "copy", "private", "rprivate",
	"slave", "rslave", "bind", "rbind", "nosuid", "suid", "nodev", "dev",
	"noexec", "exec", "U", NULL
};

/*
 * One mount option opt[0..len): shared/rshared keep their propagation
 * refusal (§4.1, B25), then the allow-list. An empty item carries no
 * option and passes (docker accepts an empty mode; podman rejects it).
 */
static int
rule_bind_option(const char *opt, size_t len, struct cg_refusal *r)
{
	const char *const *a;
	char *o;
	char qb[260];
	int rc = 0;

	if (len == 0)
		return 0;
	o = xstrndup(opt, len);
	if (propagation_refused(o)) {
		rc = cg_refuse(r, "bind-mount", "propagation %s is refused",
		    q(o, qb));
	} else {
		for (a = bind_options; *a != NULL; a++)
			if (strcmp(o, *a) == 0)
				break;
		if (*a == NULL)
			rc = cg_refuse(r, "bind-mount",
			    "bind option %s is refused", q(o, qb));
	}
	free(o);
	return rc;
}

/* The allow-list on every string of a libpod options list. */
static int
rule_bind_option_list(const cJSON *opts, struct cg_refusal *r)
{
	const cJSON *o;

	if (!cJSON_IsArray(opts))
		return 0;
	for (o = opts->child; o != NULL; o = o->next)
		if (cJSON_IsString(o) && rule_bind_option(o->valuestring,
		    strlen(o->valuestring), r) != 0)
			return -1;
	return 0;
}

/* §4.3 libpod mounts and volumes. */
int
rule_mounts_libpod(const struct cg_policy_ctx *ctx, cJSON *body,
    struct cg_refusal *r)
{
	cJSON *list = json_get(body, "mounts"), *m;
	const cJSON *opts, *o;
	const char *type, *name;
	char qb[260];

	if (cJSON_IsArray(list))
		for (m = list->child; m != NULL; m = m->next) {
			type = jstr0(m, "type");
			if (type[0] == '\0')
				return cg_refuse(r, "mount-type", D_MOUNT_TYPE);
			if (ci_eq(type, "tmpfs"))
				continue;
			if (!ci_eq(type, "bind"))
				return cg_refuse(r, "mount-type", "%s is refused",
				    q(type, qb));
			if (bind_source(ctx, m, "source", r) != 0)
				return -1;
			if (rule_bind_option_list(json_get(m, "options"),
			    r) != 0)
				return -1;
		}
	list = json_get(body, "volumes");
	if (!cJSON_IsArray(list))
		return 0;
	for (m = list->child; m != NULL; m = m->next) {
		opts = json_get(m, "Options");
		if (cJSON_IsArray(opts))
			for (o = opts->child; o != NULL; o = o->next) {
				const char *s = cJSON_IsString(o) ?
				    o->valuestring : "";
				char *k = trim_lower(s, strcspn(s, "="));
				int bad = strcmp(k, "volume-opt") == 0 ||
				    strcmp(k, "volume-driver") == 0 ||
				    strcmp(k, "driver") == 0;

				free(k);
				if (bad)
					return cg_refuse(r, "volume-driver",
					    D_VOLUME_DRIVER);
			}
		if (rule_bind_option_list(opts, r) != 0)
			return -1;
		name = jstr0(m, "SubPath");
		if (!subpath_ok(name))
			return cg_refuse(r, "bind-mount",
			    "volume subpath %s is refused", q(name, qb));
		name = jstr0(m, "Name");
		if (name[0] != '\0' && !is_resource_name(name, strlen(name)))
			return cg_refuse(r, "bind-mount",
			    "invalid volume name %s", q(name, qb));
	}
	return 0;
}

/*
 * Hardening beyond policy.md §1/§13.1: the keys of the compat top-level
 * Volumes map (create and commit) are anonymous-volume destinations, but
 * podman feeds each key to its -v parser, so "/host/dir:/y" becomes a
 * bind of an unchecked host directory and "othervol:/x" mounts another
 * project's volume. Each key must be an absolute container path without
 * ':' and without a ".." component; each value {} (or null, which Go
 * decodes to the same empty struct).
 */
int
rule_config_volumes(const cJSON *body, struct cg_refusal *r)
{
	const cJSON *vols = json_get(body, "Volumes"), *v;
	const char *k, *c;
	char qb[260];
	size_t n;

	if (!cJSON_IsObject(vols))
		return 0;
	for (v = vols->child; v != NULL; v = v->next) {
		k = v->string;
		if (k[0] != '/' || strchr(k, ':') != NULL)
			goto bad;
		for (c = k; *c != '\0'; ) {
			n = strcspn(c, "/");
			if (n == 2 && c[0] == '.' && c[1] == '.')
				goto bad;
			c += n;
			if (*c == '/')
				c++;
		}
		if (!cJSON_IsNull(v) &&
		    !(cJSON_IsObject(v) && v->child == NULL))
			return cg_refuse(r, "bind-mount",
			    "Volumes key %s must map to {}", q(k, qb));
	}
	return 0;
bad:
	return cg_refuse(r, "bind-mount",
	    "Volumes key %s must be a container path", q(k, qb));
}

/* §3.8: idmappings.AutoUserNsOpts.PasswdFile / GroupFile. */
int
rule_idmappings_paths(const cJSON *body, struct cg_refusal *r)
{
	const cJSON *o = json_get(json_get(body, "idmappings"),
	    "AutoUserNsOpts");

	if (json_truthy(json_get(o, "PasswdFile")))
		return cg_refuse(r, "host-path", "PasswdFile is refused");
	if (json_truthy(json_get(o, "GroupFile")))
		return cg_refuse(r, "host-path", "GroupFile is refused");
	return 0;
}

/*
 * Issue 7 item 4: libpod timezone is "", "local" or a zone name, never a
 * path (podman copies /usr/share/zoneinfo/<timezone> from the host into
 * the container; 4.3 refuses a traversal only when the container starts).
 * A zone name: at most 64 bytes of segments of [A-Za-z0-9_+-] joined by
 * single '/', no leading or trailing '/' (so no empty, "." or ".."
 * segment: dots are outside the set). Else 403 host-path.
 */
int
rule_timezone(const char *tz, struct cg_refusal *r)
{
	size_t i, n = strlen(tz);
	int ok = n <= 64 && tz[0] != '/' && (n == 0 || tz[n - 1] != '/');
	char qb[260];

	for (i = 0; ok && i < n; i++)
		if (tz[i] == '/')
			ok = tz[i + 1] != '/';
		else
			ok = strchr("_+-", tz[i]) != NULL ||
			    (tz[i] >= '0' && tz[i] <= '9') ||
			    (tz[i] >= 'a' && tz[i] <= 'z') ||
			    (tz[i] >= 'A' && tz[i] <= 'Z');
	if (ok)
		return 0;
	return cg_refuse(r, "host-path", "timezone=%s is not a zone name "
	    "(such as Europe/Berlin, or local)", q(tz, qb));
}

/* §3.8: a working directory at or below /proc after lexical clean-up
 * (relative directories are taken from /, as a daemon would). */
int
rule_workdir(const char *dir, struct cg_refusal *r)
{
	const char *c = dir;
	char *stack = xmalloc(strlen(dir) + 2);
	size_t len = 0, n, first_len;
	int bad;
	char qb[260];

	stack[0] = '\0';
	while (*c != '\0') {
		n = strcspn(c, "/");
		if (n == 0 || (n == 1 && c[0] == '.')) {
			/* skip */
		} else if (n == 2 && c[0] == '.' && c[1] == '.') {
			while (len > 0 && stack[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
		} else {
			stack[len++] = '/';
			memcpy(stack + len, c, n);
			len += n;
		}
		c += n;
		if (*c == '/')
			c++;
	}
	stack[len] = '\0';
	first_len = len > 0 ? strcspn(stack + 1, "/") : 0;
	bad = first_len == 4 && memcmp(stack + 1, "proc", 4) == 0;
	free(stack);
	if (bad)
		return cg_refuse(r, "host-path", "working directory %s is refused",
		    q(dir, qb));
	return 0;
}

/* §3.1 step 25 */
int
rule_egress_required(const struct cg_policy_ctx *ctx, struct cg_refusal *r)
{
	if (ctx->egress == CG_EGRESS_REQUIRE && !ctx->proxy_available)
		return cg_refuse(r, "egress-required", "the egress gateway is "
		    "unreachable and --egress require is set");
	return 0;
}

/* §6: obj[member][KEY] = ROOT; member created when absent or null if
 * create, else only set when member is an object. */
void
rewrite_label(const struct cg_policy_ctx *ctx, cJSON *obj, const char *member,
    int create)
{
	cJSON *labels = json_get(obj, member);

	if (!cJSON_IsObject(labels)) {
		if (!create || (labels != NULL && !cJSON_IsNull(labels)))
			return;
		labels = xj_object();
		set_member(obj, member, labels);
	}
	set_member(labels, CG_LABEL_KEY, xj_string(ctx->root));
}

/* §6.3: the variables egress injection owns. */
static int
proxy_name(const char *entry, size_t n)
{
	static const char *const names[] = {
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n) {
			size_t k;

			for (k = 0; k < n; k++)
				if (lower((unsigned char)entry[k]) !=
				    lower((unsigned char)names[i][k]))
					break;
			if (k == n)
				return 1;
		}
	return 0;
}

/* Drop "NAME=..." entries of an env list whose name is a proxy name. */
static void
drop_proxy_entries(cJSON *list)
{
	cJSON *e, *next;

	if (!cJSON_IsArray(list))
		return;
	for (e = list->child; e != NULL; e = next) {
		next = e->next;
		if (cJSON_IsString(e) &&
		    proxy_name(e->valuestring, strcspn(e->valuestring, "=")))
			cJSON_Delete(cJSON_DetachItemViaPointer(list, e));
	}
}

static int
egress_active(const struct cg_policy_ctx *ctx)
{
	return ctx->egress != CG_EGRESS_OFF && ctx->proxy_available &&
	    ctx->proxy != NULL && ctx->noproxy != NULL;
}

static const char *const proxy_vars[] = {
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
	"http_proxy", "https_proxy", "no_proxy",
};

static const char *
proxy_value(const struct cg_policy_ctx *ctx, size_t i)
{
	return i % 3 == 2 ? ctx->noproxy : ctx->proxy;
}

/* §6.3 compat: Env and EnvMerge. */
static void
egress_compat(const struct cg_policy_ctx *ctx, cJSON *body)
{
	cJSON *env = json_get(body, "Env");
	size_t i, len;
	char *s;

	if (!cJSON_IsArray(env)) {
		env = xj_array();
		set_member(body, "Env", env);
	}
	drop_proxy_entries(env);
	for (i = 0; i < sizeof(proxy_vars) / sizeof(proxy_vars[0]); i++) {
		len = strlen(proxy_vars[i]) + strlen(proxy_value(ctx, i)) + 2;
		s = xmalloc(len);
		snprintf(s, len, "%s=%s", proxy_vars[i], proxy_value(ctx, i));
		cJSON_AddItemToArray(env, xj_string(s));
		free(s);
	}
	drop_proxy_entries(json_get(body, "EnvMerge"));
}

/* §6.3 libpod: env, envmerge, httpproxy. */
static void
egress_libpod(const struct cg_policy_ctx *ctx, cJSON *body)
{
	cJSON *env = json_get(body, "env"), *m, *next;
	size_t i;

	if (!cJSON_IsObject(env)) {
		env = xj_object();
		set_member(body, "env", env);
	}
	for (m = env->child; m != NULL; m = next) {
		next = m->next;
		if (proxy_name(m->string, strlen(m->string)))
			cJSON_Delete(cJSON_DetachItemViaPointer(env, m));
	}
	for (i = 0; i < sizeof(proxy_vars) / sizeof(proxy_vars[0]); i++)
		if (!cJSON_AddItemToObject(env, proxy_vars[i],
		    xj_string(proxy_value(ctx, i))))
			xoom();
	drop_proxy_entries(json_get(body, "envmerge"));
	set_member(body, "httpproxy", xj_false());
}

/* ==================================================================== */
/* Compat create                                                        */
/* ==================================================================== */

/* §3.2 compat */
static int
rule_ns_compat(const cJSON *hc, struct cg_refusal *r)
{
	static const char *const fields[] = {
		"PidMode", "IpcMode", "UTSMode", "UsernsMode", "CgroupnsMode",
	};
	size_t i;
	const char *mode;
	char qb[260];

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		mode = jstr0(hc, fields[i]);
		if (!ns_mode_allowed(mode))
			return cg_refuse_hint(r, "namespace", CG_HINT_IN_DETAIL, "%s=%s is refused; "
			    D_NS_ALLOWED, fields[i], q(mode, qb));
	}
	return 0;
}

/* §3.3 compat */
static int
rule_network_compat(const struct cg_policy_ctx *ctx, const cJSON *body,
    const cJSON *hc, struct cg_refusal *r)
{
	const char *mode = jstr0(hc, "NetworkMode");
	const cJSON *ec, *e;
	char qb[260];

	if (!netmode_keyword(mode, ctx->backend_kind == CG_PODMAN)) {
		if (netmode_refused_prefix(mode))
			return cg_refuse_hint(r, "network", NETMODE_HINT,
			    "NetworkMode=%s is refused", q(mode, qb));
		if (!is_resource_name(mode, strlen(mode)))
			return cg_refuse(r, "network",
			    "%s is not a valid network name", q(mode, qb));
	}
	ec = json_get(json_get(body, "NetworkingConfig"), "EndpointsConfig");
	if (!cJSON_IsObject(ec))
		return 0;
	for (e = ec->child; e != NULL; e = e->next) {
		if (rule_endpoint_key(ctx, e->string, r) != 0 ||
		    rule_endpoint_settings(e, r) != 0)
			return -1;
	}
	return 0;
}

/* §3.5 */
static int
rule_log_config(const cJSON *hc, struct cg_refusal *r)
{
	static const char *const types[] = { "", "json-file", "local", "none" };
	static const char *const keys[] = {
		"compress", "env", "env-regex", "labels", "labels-regex",
		"max-buffer-size", "max-file", "max-size", "mode", "size", "tag",
	};
	const cJSON *lc = json_get(hc, "LogConfig"), *cfg, *c;
	const char *type;
	size_t i;
	char qb[260], *k;
	int ok;

	if (!cJSON_IsObject(lc))
		return 0;
	type = jstr0(lc, "Type");
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (ci_eq(type, types[i]))
			break;
	if (i == sizeof(types) / sizeof(types[0]))
		return cg_refuse(r, "log-configuration",
		    "log driver %s is refused", q(type, qb));
	cfg = json_get(lc, "Config");
	if (!json_truthy(cfg))
		return 0;
	if (ci_eq(type, "none"))
		return cg_refuse(r, "log-configuration",
		    "log-driver options are refused");
	for (c = cfg->child; c != NULL; c = c->next) {
		k = trim_lower(c->string, strlen(c->string));
		for (i = 0, ok = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strcmp(k, keys[i]) == 0)
				ok = 1;
		free(k);
		if (!ok)
			return cg_refuse(r, "log-configuration",
			    "log-driver option %s is refused",
			    q(c->string, qb));
	}
	return 0;
}

/* §3.7.1-2 compat */
static int
rule_publish_compat(const cJSON *hc, struct cg_refusal *r)
{
	const cJSON *pb = json_get(hc, "PortBindings"), *p, *b;
	const char *ip;
	char qb[260];
	int any = 0;

	if (!cJSON_IsObject(pb))
		return 0;
	for (p = pb->child; p != NULL; p = p->next)
		if (json_truthy(p))
			any = 1;
	if (any && ci_eq(jstr0(hc, "NetworkMode"), "none"))
		return cg_refuse(r, "publish", D_PUBLISH_NONE);
	for (p = pb->child; p != NULL; p = p->next) {
		if (!cJSON_IsArray(p))
			continue;
		for (b = p->child; b != NULL; b = b->next) {
			ip = jstr0(b, "HostIp");
			if (!ip_literal_ok(ip))
				return cg_refuse(r, "publish",
				    "%s is not an IP address", q(ip, qb));
		}
	}
	return 0;
}

/* §4.1 one Binds entry; rewritten to the resolved source. */
static int
rule_bind_entry(const struct cg_policy_ctx *ctx, cJSON *e,
    struct cg_refusal *r)
{
	const char *entry = e->valuestring, *c1, *c2, *opts, *o;
	char out[CG_PATH_MAX + 1], qb[260], *src, *rebuilt;
	size_t n, len;

	c1 = strchr(entry, ':');
	c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
	if (c1 == NULL || (c2 != NULL && strchr(c2 + 1, ':') != NULL))
		return cg_refuse(r, "bind-mount",
		    "invalid bind specification %s", q(entry, qb));
	src = xstrndup(entry, (size_t)(c1 - entry));
	out[0] = '\0';
	if (src[0] == '/') {
		if (resolve_bind(ctx, src, out, r) != 0) {
			free(src);
			return -1;
		}
	} else if (!is_resource_name(src, strlen(src))) {
		cg_refuse_hint(r, "bind-mount", REL_HINT,
		    "relative source %s is refused", q(src, qb));
		free(src);
		return -1;
	}
	free(src);
	for (opts = c2 != NULL ? c2 + 1 : NULL, o = opts; o != NULL; ) {
		n = strcspn(o, ",");
		if (rule_bind_option(o, n, r) != 0)
			return -1;
		o = o[n] == ',' ? o + n + 1 : NULL;
	}
	if (out[0] != '\0' &&
	    (strlen(out) != (size_t)(c1 - entry) ||
	    memcmp(out, entry, strlen(out)) != 0)) {
		len = strlen(out) + strlen(c1) + 1;	/* R + ":dst[:opts]" */
		rebuilt = xmalloc(len);
		snprintf(rebuilt, len, "%s%s", out, c1);
		xj_set_string(e, rebuilt);
		free(rebuilt);
	}
	return 0;
}

/* §4.2 one Mounts entry. */
static int
rule_mount_entry(const struct cg_policy_ctx *ctx, cJSON *m,
    struct cg_refusal *r)
{
	const char *type = jstr0(m, "Type"), *v;
	const cJSON *vo;
	char qb[260];

	if (type[0] == '\0')
		return cg_refuse(r, "mount-type", D_MOUNT_TYPE);
	if (ci_eq(type, "image") || ci_eq(type, "npipe") ||
	    ci_eq(type, "cluster") ||
	    not_null(json_get(m, "ImageOptions")) ||
	    not_null(json_get(m, "ClusterOptions")))
		return cg_refuse(r, "mount-type", "%s is refused", q(type, qb));
	if (ci_eq(type, "bind")) {
		if (bind_source(ctx, m, "Source", r) != 0)
			return -1;
		v = jstr0(json_get(m, "BindOptions"), "Propagation");
		if (ci_eq(v, "shared") || ci_eq(v, "rshared"))
			return cg_refuse(r, "bind-mount",
			    "propagation %s is refused", q(v, qb));
		return 0;
	}
	if (ci_eq(type, "volume")) {
		vo = json_get(m, "VolumeOptions");
		if (json_truthy(json_get(vo, "DriverConfig")))
			return cg_refuse_hint(r, "volume-driver", CG_HINT_IN_DETAIL, D_VOLUME_DRIVER);
		v = jstr0(vo, "Subpath");
		if (!subpath_ok(v))
			return cg_refuse(r, "bind-mount",
			    "volume subpath %s is refused", q(v, qb));
		v = jstr0(m, "Source");
		if (v[0] != '\0' && !is_resource_name(v, strlen(v)))
			return cg_refuse(r, "bind-mount",
			    "invalid volume name %s", q(v, qb));
		return 0;
	}
	if (ci_eq(type, "tmpfs"))
		return 0;
	return cg_refuse(r, "mount-type", D_MOUNT_TYPE);
}

/* §4.1-4.2 */
static int
rule_mounts_compat(const struct cg_policy_ctx *ctx, cJSON *hc,
    struct cg_refusal *r)
{
	cJSON *list, *e;

	list = json_get(hc, "Binds");
	if (cJSON_IsArray(list))
		for (e = list->child; e != NULL; e = e->next)
			if (cJSON_IsString(e) && rule_bind_entry(ctx, e, r) != 0)
				return -1;
	list = json_get(hc, "Mounts");
	if (cJSON_IsArray(list))
		for (e = list->child; e != NULL; e = e->next)
			if (cJSON_IsObject(e) && rule_mount_entry(ctx, e, r) != 0)
				return -1;
	return 0;
}

static void
warn_publish_compat(const struct cg_policy_ctx *ctx, const cJSON *hc)
{
	const cJSON *pb = json_get(hc, "PortBindings"), *p, *b;
	const char *ip;

	if (!cJSON_IsObject(pb))
		return;
	for (p = pb->child; p != NULL; p = p->next) {
		if (!cJSON_IsArray(p))
			continue;
		for (b = p->child; b != NULL; b = b->next) {
			ip = jstr0(b, "HostIp");
			if (ip[0] != '\0' && !ip_loopback(ip))
				warn(ctx, p->string, ip);
		}
	}
}

/* §6.1 rewrites. */
static void
rewrite_compat(const struct cg_policy_ctx *ctx, cJSON *body)
{
	cJSON *hc, *pb, *p, *b, *ip, *mounts, *m, *vl;

	rewrite_label(ctx, body, "Labels", 1);
	hc = json_get(body, "HostConfig");
	if (!cJSON_IsObject(hc)) {
		hc = xj_object();
		set_member(body, "HostConfig", hc);
	}
	pb = json_get(hc, "PortBindings");
	if (cJSON_IsObject(pb))
		for (p = pb->child; p != NULL; p = p->next) {
			if (!cJSON_IsArray(p))
				continue;
			for (b = p->child; b != NULL; b = b->next) {
				ip = json_get(b, "HostIp");
				if (ip == NULL || cJSON_IsNull(ip) ||
				    (cJSON_IsString(ip) &&
				    ip->valuestring[0] == '\0'))
					set_member(b, "HostIp",
					    xj_string("127.0.0.1"));
			}
		}
	mounts = json_get(hc, "Mounts");
	if (cJSON_IsArray(mounts))
		for (m = mounts->child; m != NULL; m = m->next) {
			vl = json_get(json_get(m, "VolumeOptions"), "Labels");
			if (json_get(vl, CG_LABEL_KEY) != NULL)
				set_member(vl, CG_LABEL_KEY,
				    xj_string(ctx->root));
		}
	if (egress_active(ctx))
		egress_compat(ctx, body);
}

int
create_compat(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r)
{
	cJSON *hc;

	if (lenient_create_compat(req, body, r) != 0)	/* issue 12 */
		return -1;
	if (schema_check(&sc_compat_create, body, r) != 0)	/* steps 3-6 */
		return -1;
	hc = json_get(body, "HostConfig");
	if (!cJSON_IsObject(hc))
		hc = NULL;	/* json_get(NULL, ...) is NULL below */

	/* 7: privileged */
	if (json_truthy(json_get(hc, "Privileged")))
		return cg_refuse_hint(r, "privileged", CG_HINT_IN_DETAIL, D_PRIVILEGED);
	if (json_number_negative(json_get(hc, "OomScoreAdj")))
		return cg_refuse_hint(r, "privileged", "leave the OOM score adjustment at 0 or above", D_OOM);
	/* 8: cap-add, capabilities (B17) */
	if (json_truthy(json_get(hc, "CapAdd")))
		return cg_refuse_hint(r, "cap-add", CG_HINT_IN_DETAIL, D_CAPADD);
	if (json_truthy(json_get(hc, "Capabilities")))
		return cg_refuse(r, "capabilities",
		    "an explicit capability set is refused");
	/* 9: devices (B23) */
	if (json_truthy(json_get(hc, "Devices")) ||
	    json_truthy(json_get(hc, "DeviceRequests")) ||
	    json_truthy(json_get(hc, "DeviceCgroupRules")))
		return cg_refuse_hint(r, "devices", CG_HINT_IN_DETAIL, D_DEVICES);
	/* 10: namespaces (§3.2, B22) */
	if (rule_ns_compat(hc, r) != 0)
		return -1;
	/* 11: network (§3.3) */
	if (rule_network_compat(ctx, body, hc, r) != 0)
		return -1;
	/* 12: security options (§3.4, B18) */
	if (rule_security_opts(json_get(hc, "SecurityOpt"), r) != 0)
		return -1;
	/* 13: log configuration (§3.5, B24) */
	if (rule_log_config(hc, r) != 0)
		return -1;
	/* 14: annotations (§3.6) */
	if (rule_annotations(json_get(hc, "Annotations"), r) != 0)
		return -1;
	/* 15-18 */
	if (json_truthy(json_get(hc, "Sysctls")))
		return cg_refuse(r, "sysctls", D_SYSCTLS);
	if (json_truthy(json_get(hc, "CgroupParent")))
		return cg_refuse(r, "cgroup-parent", D_CGPARENT);
	if (json_truthy(json_get(hc, "Runtime")))
		return cg_refuse(r, "runtime", D_RUNTIME);
	if (json_truthy(json_get(hc, "Isolation")))
		return cg_refuse(r, "isolation", "the Isolation field is refused");
	/* 19: not null, [] too (B19) */
	if (not_null(json_get(hc, "MaskedPaths")))
		return cg_refuse(r, "masked-paths", "MaskedPaths is refused");
	if (not_null(json_get(hc, "ReadonlyPaths")))
		return cg_refuse(r, "readonly-paths", "ReadonlyPaths is refused");
	/* 20: publishing (§3.7) */
	if (json_truthy(json_get(hc, "PublishAllPorts")))
		return cg_refuse_hint(r, "publish-all", CG_HINT_IN_DETAIL, D_PUBLISH_ALL);
	if (rule_publish_compat(hc, r) != 0)
		return -1;
	/* 21: mounts and binds (§4; sources rewritten in place) */
	if (rule_mounts_compat(ctx, hc, r) != 0 ||
	    rule_config_volumes(body, r) != 0)
		return -1;
	/* 22: volumes-from (B09) */
	if (json_truthy(json_get(hc, "VolumesFrom")))
		return cg_refuse_hint(r, "volumes-from", CG_HINT_IN_DETAIL, D_VOLUMES_FROM);
	/* 23: host paths (§3.8, B21) */
	if (rule_workdir(jstr0(body, "WorkingDir"), r) != 0)
		return -1;
	/* 25: egress-required */
	if (rule_egress_required(ctx, r) != 0)
		return -1;
	warn_publish_compat(ctx, hc);
	rewrite_compat(ctx, body);				/* §6.1 */
	return 0;
}

/* ==================================================================== */
/* Libpod create                                                        */
/* ==================================================================== */

/* §3.9 */
static int
rule_pod_deps(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r)
{
	cJSON *pod = json_get(body, "pod"), *deps, *e;
	enum cg_fact_result res;
	char id[CG_ID_MAX + 1], qb[260];

	if (cJSON_IsString(pod) && pod->valuestring[0] != '\0') {
		res = ask_owned(ctx, req, CG_FACT_POD, pod->valuestring, id);
		if (res == CG_NOT_OWNED)
			return cg_refuse(r, "pod", "%s is not a pod of this "
			    "project", q(pod->valuestring, qb));
		if (res != CG_OWNED)
			return fact_failure(ctx, res, "pod", r);
		if (strcmp(id, pod->valuestring) != 0)
			xj_set_string(pod, id);
	}
	deps = json_get(body, "dependencyContainers");
	if (!cJSON_IsArray(deps))
		return 0;
	for (e = deps->child; e != NULL; e = e->next) {
		if (!cJSON_IsString(e))
			continue;
		res = e->valuestring[0] != '\0' ?
		    ask_owned(ctx, req, CG_FACT_CONTAINER, e->valuestring, id) :
		    CG_NOT_OWNED;
		if (res == CG_NOT_OWNED)
			return cg_refuse(r, "dependency-containers",
			    "%s is not a container of this project",
			    q(e->valuestring, qb));
		if (res != CG_OWNED)
			return fact_failure(ctx, res, "container", r);
		if (strcmp(id, e->valuestring) != 0)
			xj_set_string(e, id);
	}
	return 0;
}

int
create_libpod(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r)
{
	static const char *const namespaces[] = {
		"pidns", "ipcns", "utsns", "userns", "cgroupns",
	};
	const cJSON *priv;
	const char *v;
	size_t i;
	char qb[260];

	if (schema_check(&sc_libpod_create, body, r) != 0)	/* steps 3-6 */
		return -1;
	/* 7 */
	if (json_truthy(json_get(body, "privileged")))
		return cg_refuse_hint(r, "privileged", CG_HINT_IN_DETAIL, D_PRIVILEGED);
	if (json_number_negative(json_get(body, "oom_score_adj")))
		return cg_refuse_hint(r, "privileged", "leave the OOM score adjustment at 0 or above", D_OOM);
	/* 8 */
	if (json_truthy(json_get(body, "cap_add")))
		return cg_refuse_hint(r, "cap-add", CG_HINT_IN_DETAIL, D_CAPADD);
	/* 9 (B23) */
	if (json_truthy(json_get(body, "devices")) ||
	    json_truthy(json_get(body, "device_cgroup_rule")) ||
	    json_truthy(json_get(json_get(body, "resource_limits"), "devices")))
		return cg_refuse_hint(r, "devices", CG_HINT_IN_DETAIL, D_DEVICES);
	/* 10 (§3.2) */
	for (i = 0; i < sizeof(namespaces) / sizeof(namespaces[0]); i++)
		if (rule_ns_libpod(body, namespaces[i], r) != 0)
			return -1;
	/* 11 (§3.3) */
	if (rule_netns_libpod(body, r) != 0 ||
	    rule_networks_libpod(ctx, body, r) != 0)
		return -1;
	/* 12 (§3.4) */
	if (rule_security_libpod(body, r) != 0)
		return -1;
	/* 13: log_configuration is in the refused table (step 6) */
	/* 14 (§3.6) */
	if (rule_annotations(json_get(body, "annotations"), r) != 0)
		return -1;
	/* 15-17 */
	if (json_truthy(json_get(body, "sysctl")))
		return cg_refuse(r, "sysctls", D_SYSCTLS);
	if (json_truthy(json_get(body, "cgroup_parent")))
		return cg_refuse(r, "cgroup-parent", D_CGPARENT);
	if (json_truthy(json_get(body, "oci_runtime")))
		return cg_refuse(r, "runtime", D_RUNTIME);
	/* 19 */
	if (not_null(json_get(body, "mask")))
		return cg_refuse(r, "masked-paths", "mask is refused");
	if (not_null(json_get(body, "unmask")))
		return cg_refuse(r, "security-opt", "unmask is refused");
	/* 20 */
	if (json_truthy(json_get(body, "publish_image_ports")))
		return cg_refuse_hint(r, "publish-all", CG_HINT_IN_DETAIL, D_PUBLISH_ALL);
	if (rule_publish_libpod(body, r) != 0)
		return -1;
	/* 21 (§4.3) */
	if (rule_mounts_libpod(ctx, body, r) != 0)
		return -1;
	/* 22 */
	if (json_truthy(json_get(body, "volumes_from")))
		return cg_refuse_hint(r, "volumes-from", CG_HINT_IN_DETAIL, D_VOLUMES_FROM);
	/* 23 (§3.8) */
	v = jstr0(body, "healthLogDestination");
	if (v[0] != '\0' && strcmp(v, "local") != 0 &&
	    strcmp(v, "events_logger") != 0)
		return cg_refuse(r, "host-path",
		    "healthLogDestination=%s is refused", q(v, qb));
	if (rule_workdir(jstr0(body, "work_dir"), r) != 0 ||
	    rule_idmappings_paths(body, r) != 0 ||
	    rule_timezone(jstr0(body, "timezone"), r) != 0)
		return -1;
	/* 24 (§3.9; ids rewritten in place) */
	if (rule_pod_deps(ctx, req, body, r) != 0)
		return -1;
	/* 25 */
	if (rule_egress_required(ctx, r) != 0)
		return -1;

	/* §6.2 rewrites */
	warn_publish_libpod(ctx, body);
	rewrite_label(ctx, body, "labels", 1);
	priv = json_get(body, "privileged");
	if (priv == NULL || cJSON_IsNull(priv))
		set_member(body, "privileged", xj_false());
	rewrite_host_ips_libpod(body);
	if (egress_active(ctx))
		egress_libpod(ctx, body);
	return 0;
}
