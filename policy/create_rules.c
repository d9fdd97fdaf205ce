/*
 * The rules of container create that policy.md §3 numbers, for both
 * shapes: namespaces (§3.2), network (§3.3), security options (§3.4), log
 * configuration (§3.5, compat), annotations (§3.6), publishing (§3.7),
 * host paths (§3.8) and egress-required (§3.1 step 25). Pod create (§7,
 * create.c) shares the libpod ones; network create and the named
 * networks of §5 (body.c) share the network keywords. Contracts in
 * body_int.h.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "policy/body.h"
#include "policy/body_int.h"
#include "policy/json.h"
#include "policy/query.h"

#define D_PUBLISH_NONE	"published ports would be discarded with --network none"
#define D_LINKS		"--link reaches another project's container and is refused"
#define D_NS_ALLOWED	"only private, pod, auto, keep-id, nomap and shareable " \
			"are allowed"
/* What to do instead (test_gwerror.c), where the code's default is vague. */
#define D_APPARMOR_HINT	"keep the default AppArmor profile (no option, " \
			"docker-default or containers-default-<version>)"
#define D_SECCOMP_HINT	"drop the seccomp option: the default profile " \
			"applies without it"
#define NETMODE_HINT	"publish the ports you need with -p HOST:CONTAINER " \
			"on the default network, or use --network none or a " \
			"network created with docker network create NAME"
/*
 * Measured on podman 4.3.1 (tests/integration/isolation.sh i_network_projects):
 * slirp4netns connects from the host's own network stack, which no
 * isolation rule filters, so a container reached another project's
 * container on its isolated network.
 */
#define D_SLIRP		"slirp4netns is refused: it connects from the host, " \
			"past the isolation between projects' networks"

/* ---- §3.2 Namespaces ---- */

static int
ns_mode_allowed(const char *mode)
{
	static const char *const modes[] = {
		"", "private", "pod", "auto", "keep-id", "nomap", "shareable",
	};
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (ascii_caseeq(mode, modes[i]))
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
	    (ascii_caseeq(mode, "auto") || ascii_caseeq(mode, "keep-id"))) {
		for (p = value; *p != '\0'; p++)
			if (!name_char((unsigned char)*p, 1) && *p != '=' &&
			    *p != ',' && *p != ':' && *p != '_' && *p != '-')
				break;
		if (*p == '\0')
			return 0;
	}
	return cg_refuse(r, "namespace", "%s.value is refused", field);
}

/* §3.2 compat */
int
rule_ns_compat(const cJSON *hc, struct cg_refusal *r)
{
	/* each field with the docker run flag that sets it: the hint names
	 * the flag a docker user typed (the modes libpod adds mean nothing
	 * to them; found by a new user's trial of --pid host) */
	static const char *const fields[][2] = {
		{ "PidMode", "--pid" }, { "IpcMode", "--ipc" },
		{ "UTSMode", "--uts" }, { "UsernsMode", "--userns" },
		{ "CgroupnsMode", "--cgroupns" },
	};
	size_t i;
	const char *mode;
	char qb[260], hint[64];

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		mode = jstr0(hc, fields[i][0]);
		if (ns_mode_allowed(mode))
			continue;
		snprintf(hint, sizeof(hint), "drop %s: the container gets a "
		    "namespace of its own", fields[i][1]);
		return cg_refuse_hint(r, "namespace", hint, "%s=%s is refused; "
		    D_NS_ALLOWED, fields[i][0], q(mode, qb));
	}
	return 0;
}

/* ---- §3.3 Network ---- */

/*
 * Both daemons compare network modes and built-in network names exactly, and
 * read every other spelling ("Default", "BRIDGE", "None", "Private") as the
 * name of a network, which any project can create (measured on podman 4.3.1
 * and dockerd 20.10: tests/integration/isolation.sh i_network_name_case;
 * redteam5 F2). So do these tables, or another project's network "Default"
 * would pass as the default network, unchecked. "pasta" is no mode on podman
 * 4.3.1 but a network name, and "podman" is the stock podman's default
 * network (network_create() keeps projects from owning one of that name).
 */
int
netmode_keyword(const char *v, int podman_words)
{
	static const char *const words[] = { "", "default", "bridge", "none" };
	static const char *const pwords[] = { "private", "slirp4netns", "pod" };
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(v, words[i]) == 0)
			return 1;
	if (podman_words)
		for (i = 0; i < sizeof(pwords) / sizeof(pwords[0]); i++)
			if (strcmp(v, pwords[i]) == 0)
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
	return strcmp(name, "bridge") == 0 || strcmp(name, "default") == 0 ||
	    (backend == CG_PODMAN && strcmp(name, "podman") == 0);
}

enum cg_netclass
network_class(const char *v, int mode, enum cg_kind backend)
{
	/* a mode may also name a built-in network: docker run --network
	 * podman on a podman backend */
	if ((mode && netmode_keyword(v, backend == CG_PODMAN)) ||
	    builtin_network(v, backend))
		return CG_NET_BUILTIN;
	if (netmode_refused_prefix(v) || (!mode && strcmp(v, "none") == 0))
		return CG_NET_REFUSED;
	if (!is_resource_name(v, strlen(v)))
		return CG_NET_INVALID;
	return CG_NET_NAMED;
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
	if (strcmp(mode, "slirp4netns") == 0)
		return cg_refuse_hint(r, "network", NETMODE_HINT, D_SLIRP);
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

	switch (network_class(key, 0, ctx->backend_kind)) {
	case CG_NET_REFUSED:
		return cg_refuse(r, "network", "network name %s is refused",
		    q(key, qb));
	case CG_NET_INVALID:
		return cg_refuse(r, "network", "%s is not a valid network name",
		    q(key, qb));
	default:
		return 0;
	}
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

/* §3.3 compat */
int
rule_network_compat(const struct cg_policy_ctx *ctx, const cJSON *body,
    const cJSON *hc, struct cg_refusal *r)
{
	const char *mode = jstr0(hc, "NetworkMode");
	const cJSON *ec, *e;
	char qb[260];

	switch (network_class(mode, 1, ctx->backend_kind)) {
	case CG_NET_REFUSED:
		return cg_refuse_hint(r, "network", NETMODE_HINT,
		    "NetworkMode=%s is refused", q(mode, qb));
	case CG_NET_INVALID:
		return cg_refuse(r, "network",
		    "%s is not a valid network name", q(mode, qb));
	default:
		break;
	}
	if (ctx->backend_kind == CG_PODMAN && strcmp(mode, "slirp4netns") == 0)
		return cg_refuse_hint(r, "network", NETMODE_HINT, D_SLIRP);
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

/* ---- The project's own network (amendment of 2026-12-07) ---- */

/*
 * A compat NetworkMode that means the daemon's default network: "",
 * default and bridge on both daemons; on podman 4.3.1 also private
 * (specgen.ParseNetworkFlag: "", default and private are its default
 * network) and podman (the stock default network's name, builtin_network()).
 */
static int
default_mode_compat(const char *v, enum cg_kind backend)
{
	return v[0] == '\0' || strcmp(v, "default") == 0 ||
	    strcmp(v, "bridge") == 0 || (backend == CG_PODMAN &&
	    (strcmp(v, "private") == 0 || strcmp(v, "podman") == 0));
}

/* A libpod netns mode that joins podman's default network when no
 * Networks are given (podman 4.3.1 container_validate.go: private and
 * default become bridge for a rootful service). */
static int
default_mode_libpod(const char *v)
{
	return v[0] == '\0' || strcmp(v, "default") == 0 ||
	    strcmp(v, "private") == 0 || strcmp(v, "bridge") == 0;
}

/* 1 when the object map has a key naming a built-in network. */
static int
has_builtin_key(const cJSON *map, enum cg_kind backend)
{
	const cJSON *e;

	if (!cJSON_IsObject(map))
		return 0;
	for (e = map->child; e != NULL; e = e->next)
		if (builtin_network(e->string, backend))
			return 1;
	return 0;
}

/*
 * Rename every key of map that names a built-in network to net, keeping
 * its endpoint settings (aliases). Two keys for one network (default and
 * bridge, or one of them and net itself) are refused: the daemon would
 * read only one of them.
 */
static int
rename_builtin_keys(cJSON *map, enum cg_kind backend, const char *net,
    struct cg_refusal *r)
{
	cJSON *e, *other;

	if (!cJSON_IsObject(map))
		return 0;
	for (e = map->child; e != NULL; e = e->next) {
		if (!builtin_network(e->string, backend))
			continue;
		other = json_get(map, net);
		if (other != NULL && other != e)
			return cg_refuse(r, "network", "the default network "
			    "is named twice");
		rename_member(e, net);
	}
	return 0;
}

/*
 * The name of the project's network (CG_FACT_PROJNET) into net; with a
 * pod's id as ref, CG_PROJNET_POD when the container joins the pod's.
 */
static int
project_network(const struct cg_policy_ctx *ctx, const struct cg_request *req,
    const char *ref, char net[CG_ID_MAX + 1], struct cg_refusal *r)
{
	enum cg_fact_result res;

	res = ask_owned(ctx, req, CG_FACT_PROJNET, ref, net);
	if (res == CG_OWNED && (is_resource_name(net, strlen(net)) ||
	    (strcmp(ref, CG_PROJNET_REF) != 0 &&
	    strcmp(net, CG_PROJNET_POD) == 0)))
		return 0;
	return fact_failure(ctx, res == CG_OWNED || res == CG_NOT_OWNED ?
	    CG_UNEXPECTED : res, "network", r);
}

int
rewrite_project_network_compat(const struct cg_policy_ctx *ctx,
    const struct cg_request *req, cJSON *body, struct cg_refusal *r)
{
	cJSON *hc = json_get(body, "HostConfig"), *ec;
	const cJSON *m = json_get(hc, "NetworkMode");
	const char *mode = cJSON_IsString(m) ? m->valuestring : "";
	char net[CG_ID_MAX + 1];
	int dm = default_mode_compat(mode, ctx->backend_kind);

	ec = json_get(json_get(body, "NetworkingConfig"), "EndpointsConfig");
	if (!dm && !has_builtin_key(ec, ctx->backend_kind))
		return 0;
	if (project_network(ctx, req, CG_PROJNET_REF, net, r) != 0)
		return -1;
	if (dm) {
		if (!cJSON_IsObject(hc)) {
			hc = xj_object();
			set_member(body, "HostConfig", hc);
		}
		set_member(hc, "NetworkMode", xj_string(net));
	}
	return rename_builtin_keys(ec, ctx->backend_kind, net, r);
}

int
rewrite_project_network_libpod(const struct cg_policy_ctx *ctx,
    const struct cg_request *req, cJSON *body, int pod, struct cg_refusal *r)
{
	cJSON *nets = json_get(body, "Networks"), *ns;
	const char *mode = jstr0(json_get(body, "netns"), "nsmode");
	int empty = !cJSON_IsObject(nets) || nets->child == NULL;
	int dm = default_mode_libpod(mode);
	char net[CG_ID_MAX + 1];

	/*
	 * A container in a pod whose infra container shares its network joins
	 * that network (made on the project's network when the pod was
	 * created): "pod" says so. In any other pod podman would put it on its
	 * default network (podman 4.3.1 GetDefaultNamespaceMode): it gets the
	 * project's network like a container of its own. The monitor tells
	 * which (the pod's id was answered owned before, rule_pod_deps).
	 */
	if (!pod && jstr0(body, "pod")[0] != '\0' &&
	    (mode[0] == '\0' || strcmp(mode, "default") == 0)) {
		if (project_network(ctx, req, jstr0(body, "pod"), net, r) != 0)
			return -1;
		if (strcmp(net, CG_PROJNET_POD) == 0) {
			ns = xj_object();
			set_member(ns, "nsmode", xj_string("pod"));
			set_member(body, "netns", ns);
			return 0;
		}
	} else {
		if (pod && json_truthy(json_get(body, "no_infra")))
			return 0;	/* no network of its own */
		if (!(dm && empty) && !has_builtin_key(nets, ctx->backend_kind))
			return 0;
		if (project_network(ctx, req, CG_PROJNET_REF, net, r) != 0)
			return -1;
	}
	if (dm) {
		ns = xj_object();
		set_member(ns, "nsmode", xj_string("bridge"));
		set_member(body, "netns", ns);
	}
	if (empty && dm) {
		nets = xj_object();
		set_member(nets, net, xj_object());
		set_member(body, "Networks", nets);
		return 0;
	}
	return rename_builtin_keys(nets, ctx->backend_kind, net, r);
}

/* ---- §3.4 Security options ---- */

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

/*
 * An AppArmor profile name, as sent: "" (the daemon's default),
 * docker-default or containers-default-<version> (the daemons' own
 * defaults). An allow-list (spec README, amendments of 2026-12-07;
 * policy.md §3.4's "anything but unconfined" is withdrawn): AppArmor 4
 * hosts ship profiles named runc, crun and podman with flags=(unconfined).
 * Profile names are exact: another case or blanks name another profile.
 */
int
apparmor_profile_ok(const char *v)
{
	static const char cd[] = "containers-default-";
	const char *rest;

	if (v[0] == '\0' || strcmp(v, "docker-default") == 0)
		return 1;
	if (strncmp(v, cd, sizeof(cd) - 1) != 0)
		return 0;
	rest = v + sizeof(cd) - 1;
	return rest[0] != '\0' && rest[strspn(rest,
	    "abcdefghijklmnopqrstuvwxyz0123456789._-")] == '\0';
}

/*
 * One SecurityOpt entry: 1 allowed, 0 refused, -1 refused as a seccomp
 * "default" (any case, blanks around). Key and value are split, trimmed
 * and lower-cased as policy.md §3.4 says, but a seccomp value must be
 * empty as sent: podman 4.3.1 opens every value but "unconfined" as a
 * profile file relative to the service's working directory ("default",
 * "Default" and " default" are files there; an allow-all file named
 * default unconfined the container), and dockerd 20.10 decodes it as an
 * inline JSON profile and fails the start. Measured by
 * tests/integration/tools.sh t_seccomp_default; hardening beyond §3.4,
 * which allows "default".
 */
static int
security_opt_ok(const char *entry)
{
	size_t sep = strcspn(entry, "=:");
	char *key = trim_lower(entry, sep);
	char *val = trim_lower(entry[sep] ? entry + sep + 1 : "",
	    entry[sep] ? strlen(entry + sep + 1) : 0);
	int ok = 0;

	if (strcmp(key, "seccomp") == 0)
		ok = entry[sep] == '\0' || entry[sep + 1] == '\0' ? 1 :
		    strcmp(val, "default") == 0 ? -1 : 0;
	else if (strcmp(key, "apparmor") == 0)
		ok = apparmor_profile_ok(entry[sep] ? entry + sep + 1 : "");
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
	int ok;

	if (!cJSON_IsArray(list))
		return 0;
	for (e = list->child; e != NULL; e = e->next) {
		if (!cJSON_IsString(e) ||
		    (ok = security_opt_ok(e->valuestring)) == 1)
			continue;
		if (ok == 0 && strncasecmp(e->valuestring, "apparmor", 8) == 0)
			return cg_refuse_hint(r, "security-opt", D_APPARMOR_HINT,
			    "%s is refused", q(e->valuestring, qb));
		if (ok == -1)
			return cg_refuse_hint(r, "security-opt", D_SECCOMP_HINT,
			    "%s is refused: the daemon reads a seccomp value as "
			    "a profile file or an inline profile",
			    q(e->valuestring, qb));
		return cg_refuse(r, "security-opt", "%s is refused",
		    q(e->valuestring, qb));
	}
	return 0;
}

/* §3.4, libpod security fields. */
int
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
	if (!apparmor_profile_ok(v))
		return cg_refuse_hint(r, "security-opt", D_APPARMOR_HINT,
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

/* ---- §3.5 Log configuration, §3.6 annotations ---- */

/* §3.5 */
int
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
		if (ascii_caseeq(type, types[i]))
			break;
	if (i == sizeof(types) / sizeof(types[0]))
		return cg_refuse(r, "log-configuration",
		    "log driver %s is refused", q(type, qb));
	cfg = json_get(lc, "Config");
	if (!json_truthy(cfg))
		return 0;
	if (ascii_caseeq(type, "none"))
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

/*
 * §3.6, plus org.systemd.property.*: runc hands those to systemd as unit
 * properties of the container's scope under the systemd cgroup driver
 * (DeviceAllow= would grant host devices); hardening beyond the spec.
 * The one list of reserved annotation keys: create bodies, build
 * annotations and the image a container is created from all use it.
 */
const char *
annotation_reserved(const char *key)
{
	static const char *const reserved[] = {
		"io.podman.annotations.", "run.oci.", "io.containers.",
		"cdi.k8s.io/", "org.systemd.property.",
	};
	size_t i;

	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (ci_prefix(key, reserved[i]))
			return reserved[i];
	return NULL;
}

int
rule_annotations(const cJSON *ann, struct cg_refusal *r)
{
	const cJSON *a;
	char qb[260];

	if (!cJSON_IsObject(ann))
		return 0;
	for (a = ann->child; a != NULL; a = a->next)
		if (annotation_reserved(a->string) != NULL)
			return cg_refuse(r, "annotations",
			    "%s is reserved for the container engine "
			    "and is refused", q(a->string, qb));
	return 0;
}

/* ---- allow-lists of 2026-12-07: hook variables, cgroup files ---- */

/*
 * Environment variables that runtime hooks read as device requests: the
 * NVIDIA container runtime hook hands the host's GPUs to a container whose
 * environment holds NVIDIA_VISIBLE_DEVICES (CVE-2025-23266), and reads
 * NVIDIA_DRIVER_CAPABILITIES and the other NVIDIA_* variables. Refused
 * like Devices (spec README, amendments of 2026-12-07); the name is
 * compared ignoring ASCII case. 1 when name[0..len) is one.
 */
int
env_name_hooked(const char *name, size_t len)
{
	return len >= 7 && strncasecmp(name, "NVIDIA_", 7) == 0;
}

int
rule_env_hooks(const cJSON *env, const char *field, struct cg_refusal *r)
{
	const cJSON *e;
	const char *name, *eq;
	size_t len;
	char qb[260];

	if (!cJSON_IsArray(env) && !cJSON_IsObject(env))
		return 0;
	for (e = env->child; e != NULL; e = e->next) {
		if (cJSON_IsObject(env))
			name = e->string;
		else if (cJSON_IsString(e))
			name = e->valuestring;
		else
			continue;
		eq = strchr(name, '=');
		len = cJSON_IsObject(env) || eq == NULL ? strlen(name) :
		    (size_t)(eq - name);
		if (env_name_hooked(name, len))
			return cg_refuse_hint(r, "devices", "containers get no "
			    "host devices through the gateway; drop the "
			    "variable", "%s variable %s is refused: a runtime "
			    "hook reads it as a device request (the NVIDIA "
			    "hook hands the host's GPUs to the container)",
			    field, cg_quote(name, len, qb));
	}
	return 0;
}

/*
 * A key of a cgroup map (libpod resource_limits.unified, unified): runc
 * writes each value into the file of that name in the container's cgroup,
 * and on cgroup v2 cgroup.procs or cgroup.kill there move or kill any
 * host process by pid (measured with runc 1.1.5 on cgroup v2 by the red
 * team; podman 4.3.1 refuses unified itself on cgroup v1 only). Controller
 * files only (spec README, amendments of 2026-12-07): memory.*, cpu.*,
 * cpuset.*, io.*, hugetlb.* (a name after the dot of [A-Za-z0-9_.-], as
 * in hugetlb.2MB.max) and pids.max; the controller prefix exactly as
 * spelled (cgroup files are named in lower case).
 */
static int
cgroup_key_ok(const char *k)
{
	static const char *const prefixes[] = {
		"memory.", "cpu.", "cpuset.", "io.", "hugetlb.",
	};
	size_t i, n;
	const char *rest;

	if (strcmp(k, "pids.max") == 0)
		return 1;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		n = strlen(prefixes[i]);
		if (strncmp(k, prefixes[i], n) != 0)
			continue;
		rest = k + n;
		return rest[0] != '\0' &&
		    rest[strspn(rest, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")]
		    == '\0';
	}
	return 0;
}

int
rule_cgroup_map(const cJSON *map, const char *field, struct cg_refusal *r)
{
	const cJSON *e;
	char qb[260];

	if (!cJSON_IsObject(map))
		return 0;
	for (e = map->child; e != NULL; e = e->next)
		if (!cgroup_key_ok(e->string))
			return cg_refuse_hint(r, "cgroup-parent", "set limits "
			    "with --memory, --cpus or --pids-limit, or name a "
			    "controller file (memory.*, cpu.*, cpuset.*, io.*, "
			    "hugetlb.*, pids.max)", "%s key %s is refused: "
			    "only cgroup controller files may be set", field,
			    q(e->string, qb));
	return 0;
}

/*
 * resource_limits.hugepageLimits: runc writes hugetlb.<pageSize>.max (v2)
 * or .limit_in_bytes (v1) in the container's cgroup, so pageSize is part
 * of a cgroup file name: only the OCI format <size><unit>B (64KB, 2MB,
 * 1GB) passes, no '/' or other file (as the unified keys above).
 */
int
rule_hugepage_limits(const cJSON *list, struct cg_refusal *r)
{
	const cJSON *e, *ps;
	const char *v;
	size_t n;
	char qb[260];

	if (!cJSON_IsArray(list))
		return 0;
	for (e = list->child; e != NULL; e = e->next) {
		ps = json_get(e, "pageSize");
		if (ps == NULL || cJSON_IsNull(ps))
			continue;
		v = cJSON_IsString(ps) ? ps->valuestring : "";
		n = strspn(v, "0123456789");
		if (n == 0 || strchr("KMGTP", v[n]) == NULL || v[n] == '\0' ||
		    strcmp(v + n + 1, "B") != 0)
			return cg_refuse(r, "cgroup-parent", "hugepageLimits "
			    "pageSize %s is refused: it names a cgroup file; "
			    "give a size such as 2MB", q(v, qb));
	}
	return 0;
}

/* ---- §3.7 Publishing ---- */

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
	    strcmp(jstr0(json_get(body, "netns"), "nsmode"), "none") == 0)
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

/* §3.7.1-2 compat */
int
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
	if (any && strcmp(jstr0(hc, "NetworkMode"), "none") == 0)
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

/* ---- §3.8 Host paths, §3.1 step 25 egress ---- */

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
 * libpod timezone is "", "local" or a zone name, never a path (podman copies
 * /usr/share/zoneinfo/<timezone> from the host into the container; 4.3 refuses
 * a traversal only when the container starts). A zone name: at most 64 bytes
 * of segments of [A-Za-z0-9_+-] joined by single '/', no leading or trailing
 * '/' (so no empty, "." or ".." segment: dots are outside the set). Else 403
 * host-path.
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
	char *clean = cg_path_clean(dir, 1);
	int bad;
	char qb[260];

	bad = strcmp(clean, "/proc") == 0 || strncmp(clean, "/proc/", 6) == 0;
	free(clean);
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
