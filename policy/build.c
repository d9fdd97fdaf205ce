/*
 * Build query policy (policy.md §10, routes.md §11). The whole query of
 * POST /build is policed: network, namespaces, devices, bind mounts,
 * output to host paths, the project label. The build context and its
 * Dockerfile are read by the checker (check/, doc/privsep.md "Builds and
 * archives"), which gets this query as the monitor forwards it.
 */
#include "policy/routes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xmalloc.h"
#include "policy/body_int.h"
#include "policy/imageref.h"
#include "policy/json.h"
#include "policy/query.h"

#define BUILDKIT_DETAIL	"BuildKit is not available through the gateway; " \
	"build with DOCKER_BUILDKIT=0"

/* §10.2 keys refused when not empty, with what they would do. */
static const struct {
	const char *key;
	const char *what;
} refused[] = {
	{ "addcaps", "added capabilities" },
	{ "addhost", "extra hosts" },
	{ "extrahosts", "extra hosts" },
	{ "additionalbuildcontexts", "additional build contexts" },
	{ "apparmor", "an apparmor profile" },
	{ "cacheto", "a cache export" },
	{ "cgroupparent", "a custom cgroup parent" },
	{ "cppflags", "preprocessor flags" },
	{ "device", "host devices" },
	{ "devices", "host devices" },
	{ "labelopts", "selinux label options" },
	{ "remote", "a remote build context" },
	{ "runtime", "an alternative OCI runtime" },
	{ "runtimeflags", "OCI runtime flags" },
	{ "rusagelogfile", "a host log file" },
	{ "secrets", "build secrets" },
	{ "securityopt", "security options" },
	{ "session", "a buildkit session" },
	{ "sessionid", "a buildkit session" },
	{ "ssh", "an ssh agent forward" },
	{ "ulimits", "ulimits" },
	{ "unmask", "unmasked kernel paths" },
	{ "unsetenv", "unset environment variables" },
	{ "volume", "a host bind mount" },
	{ "volumes", "a host bind mount" },
};
#define NREFUSED	(sizeof(refused) / sizeof(refused[0]))

/*
 * Every key the build route polices (routes.md §4.5): the accepted keys of
 * policy.md §10.2, then the refused ones of the table above. A key that is
 * here and not in refused[] is accepted.
 */
const char *const build_keys[] = {
	"allplatforms", "annotations", "buildargs", "buildid", "buildkit",
	"cachefrom", "cachettl", "compressionFormat", "createdannotation",
	"cpuperiod", "cpuquota", "cpusetcpus", "cpusetmems", "cpushares",
	"dnsoptions", "dnssearch", "dnsservers", "dockerfile", "dropcaps",
	"excludes", "forceCompressionFormat", "forcerm", "from", "httpproxy",
	"identitylabel", "idmappingoptions", "ignorefile",
	"inheritannotations", "isolation", "jobs", "labelannotations",
	"labels", "layerlabels", "layers", "manifest", "memory", "memswap",
	"networkmode", "nocache", "nohosts", "nsoptions", "omithistory",
	"output", "outputformat", "outputs", "platform", "pull",
	"pullpolicy", "q", "quiet", "retry", "retry-delay",
	"rewritetimestamp", "rm", "seccomp", "shmsize", "skipunusedstages",
	"squash", "squashlayers", "t", "tag", "target", "timestamp",
	"unsetlabel", "version",
	"addcaps", "addhost", "extrahosts", "additionalbuildcontexts",
	"apparmor", "cacheto", "cgroupparent", "cppflags", "device",
	"devices", "labelopts", "remote", "runtime", "runtimeflags",
	"rusagelogfile", "secrets", "securityopt", "session", "sessionid",
	"ssh", "ulimits", "unmask", "unsetenv", "volume", "volumes", NULL
};

const char *const build_multi_keys[] = { "t", "platform", NULL };

static const char *const netmodes[] = {
	"", "default", "bridge", "none", NULL
};
/* buildah policies and podman-only modes (docker reads them as names). */
static const char *const netmodes_podman[] = {
	"0", "1", "2", "private", "slirp4netns", "pasta", "pod", NULL
};
/*
 * buildah's numbers: 0 default, 1 OCI, 2 chroot, 3 OCI rootless. Chroot
 * is refused: it keeps the host's network namespace whatever nsoptions
 * say (measured on podman 4.3.1). Rootless (podman-remote's default for a
 * non-root client) runs RUN under slirp4netns, which reaches the host's
 * 127.0.0.1 at 10.0.2.2, so it gets networkmode 1 (rootless_build()).
 */
static const char *const isolations[] = {
	"", "0", "1", "3", "default", "oci", "rootless", NULL
};
static const char *const isolations_rootless[] = { "3", "rootless", NULL };
static const char *const seccomps[] = {
	"", "/usr/share/containers/seccomp.json",
	"/etc/containers/seccomp.json", NULL
};

static const char *const proxy_names[] = {
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", NULL
};

static int
in_list(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static int
in_list_ci(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (ascii_caseeq(s, *list))
			return 1;
	return 0;
}

static const char *
quote(const char *s, char q[260])
{
	return cg_quote(s, strlen(s), q);
}

/* ---- JSON helpers (policy.md §0) ------------------------------------ */

/* Parse the value of key; NULL with *r set when it is not valid JSON. */
static cJSON *
parse_param(const char *key, const char *value, struct cg_refusal *r)
{
	char err[200];
	cJSON *t = json_parse(value, strlen(value), err, sizeof(err));

	if (t == NULL)
		cg_refuse(r, "malformed", "%s is not valid JSON: %s", key, err);
	return t;
}

static int
collision(const cJSON *obj, int fold, struct cg_refusal *r)
{
	const char *a, *b;
	char qa[260], qb[260];

	if (json_find_collision(obj, fold, &a, &b))
		return cg_refuse(r, "ambiguous-field",
		    "%s and %s name the same field", quote(a, qa),
		    quote(b, qb));
	return 0;
}

enum ftype { F_ANY = 0, F_STR, F_OBJ };

struct field {
	const char *name;
	enum ftype type;
};

static int
type_ok(const cJSON *v, enum ftype t)
{
	if (cJSON_IsNull(v) || t == F_ANY)
		return 1;
	return t == F_STR ? cJSON_IsString(v) : cJSON_IsObject(v);
}

/*
 * §0.2-0.3, §0.5 on a schema-checked object: collisions, canonical
 * spelling, allow-list, type guards. path names obj in details.
 */
static int
schema_check(const cJSON *obj, const struct field *fields, const char *path,
    struct cg_refusal *r)
{
	const struct field *f;
	const cJSON *m;
	char qa[260], qp[260];

	if (collision(obj, 1, r) == -1)
		return -1;
	cJSON_ArrayForEach(m, obj) {
		for (f = fields; f->name != NULL; f++)
			if (json_fold_eq(m->string, f->name))
				break;
		if (f->name == NULL)
			return cg_refuse(r, "unknown-field",
			    "%s.%s is not accepted by the gateway",
			    quote(path, qp), quote(m->string, qa));
		if (strcmp(m->string, f->name) != 0)
			return cg_refuse(r, "ambiguous-field",
			    "%s is not the canonical spelling of %s",
			    quote(m->string, qa), f->name);
		if (!type_ok(m, f->type))
			return cg_refuse(r, "malformed",
			    "%s.%s has the wrong type", quote(path, qp),
			    f->name);
	}
	return 0;
}

/* Replace the value of key in q by the compact serialisation of t. */
static void
set_json(struct cg_query *q, const char *key, const cJSON *t)
{
	char *text = json_serialize(t, NULL);

	query_set(q, key, text);
	free(text);
}

/* ---- §10.1 BuildKit and version ------------------------------------- */

static int
check_version(const struct cg_query *q, struct cg_refusal *r)
{
	const char *v = query_get(q, "version");
	const char *bk = query_get(q, "buildkit");
	char qv[260];

	if ((v != NULL && strcmp(v, "2") == 0) ||
	    (bk != NULL && !query_value_empty(bk)))
		return cg_refuse_hint(r, "denied-endpoint", CG_HINT_IN_DETAIL, "%s",
		    BUILDKIT_DETAIL);
	if (v != NULL && strcmp(v, "") != 0 && strcmp(v, "1") != 0)
		return cg_refuse(r, "denied-build-parameter",
		    "version %s is refused", quote(v, qv));
	return 0;
}

/* ---- §10.2 keys ----------------------------------------------------- */

/*
 * A refused key passes only with an empty value (policy.md §10.2), and
 * "empty" is the daemon's reading: podman 4.3.1 takes remote=null, 0 or
 * false as a local context folder and then deletes its parent, its own
 * working directory (red team s7 F4), and cgroupparent=null as a cgroup
 * name. Only "" passes, except for ulimits, which podman decodes as JSON
 * and the docker CLI 20.10 sends as null. Returns 1 when v passes.
 */
static int
refused_value_empty(const char *key, const char *v)
{
	return v[0] == '\0' ||
	    (strcmp(key, "ulimits") == 0 && query_value_empty(v));
}

static int
check_keys(const struct cg_query *q, struct cg_refusal *r)
{
	char qk[260];
	size_t i, j;

	for (i = 0; i < q->n; i++) {
		const struct cg_qpair *p = &q->v[i];

		for (j = 0; j < NREFUSED; j++)
			if (strcmp(p->key, refused[j].key) == 0)
				break;
		if (j == NREFUSED) {
			if (in_list(p->key, build_keys))
				continue;
			return cg_refuse(r, "denied-build-parameter",
			    "%s is not accepted by the gateway",
			    quote(p->key, qk));
		}
		if (!refused_value_empty(refused[j].key, p->value))
			return cg_refuse(r, "denied-build-parameter",
			    "%s (%s) is refused", refused[j].what,
			    refused[j].key);
	}
	return 0;
}

/* ---- §10.3 values --------------------------------------------------- */

static int
check_networkmode(const struct cg_policy_ctx *ctx, const char *v,
    struct cg_refusal *r)
{
	char qv[260];

	/* exact: dockerd's classic builder runs RUN in network "NONE" (F2) */
	if (v == NULL || in_list(v, netmodes) ||
	    (ctx->backend_kind == CG_PODMAN && in_list(v, netmodes_podman)))
		return 0;
	return cg_refuse_hint(r, "network", "build without --network: RUN "
	    "steps get the default network (and the egress proxy)",
	    "build networkmode=%s is refused",
	    quote(v, qv));
}

static const struct field nsoption_fields[] = {
	{ "Name", F_STR }, { "Host", F_ANY }, { "Path", F_STR }, { NULL, 0 },
};

static int
check_nsoption(const cJSON *e, size_t idx, struct cg_refusal *r)
{
	const cJSON *name, *v;
	char path[32], qn[260];
	const char *n;

	if (!cJSON_IsObject(e))
		return cg_refuse(r, "malformed",
		    "build nsoptions entries must be objects");
	snprintf(path, sizeof(path), "nsoptions[%zu]", idx);
	if (schema_check(e, nsoption_fields, path, r) == -1)
		return -1;
	name = json_get(e, "Name");
	n = cJSON_IsString(name) && name->valuestring[0] != '\0' ?
	    name->valuestring : "unnamed";
	if (json_truthy(json_get(e, "Host")) && !ascii_caseeq(n, "user"))
		return cg_refuse(r, "denied-build-parameter",
		    "the host %s namespace is refused", quote(n, qn));
	/*
	 * buildah reads a relative network Path as the names of networks
	 * for RUN (podman 4.3.1, run_linux.go setupNamespaces): the one the
	 * gateway sets, the project's own network, is checked in stage 2
	 * (build_project_network); any other path is refused here
	 */
	v = json_get(e, "Path");
	if (json_truthy(v) && !(strcmp(n, "network") == 0 &&
	    cJSON_IsString(v) && is_resource_name(v->valuestring,
	    strlen(v->valuestring))))
		return cg_refuse(r, "denied-build-parameter",
		    "joining the %s namespace by path is refused",
		    quote(n, qn));
	return 0;
}

static int
check_nsoptions(struct cg_query *q, struct cg_refusal *r)
{
	const char *v = query_get(q, "nsoptions");
	const cJSON *e;
	cJSON *t;
	size_t idx = 0;
	int rc = 0;

	if (v == NULL || v[0] == '\0')
		return 0;
	if ((t = parse_param("nsoptions", v, r)) == NULL)
		return -1;
	if (!cJSON_IsArray(t))
		rc = cg_refuse(r, "malformed",
		    "build nsoptions must be a JSON array");
	cJSON_ArrayForEach(e, t) {
		if (rc == -1 || (rc = check_nsoption(e, idx++, r)) == -1)
			break;
	}
	if (rc == 0)
		set_json(q, "nsoptions", t);
	cJSON_Delete(t);
	return rc;
}

/* §10.3 isolation: buildah reads the names in any case ("OCI"). */
static int
check_isolation(const char *v, struct cg_refusal *r)
{
	char qv[260];

	if (v == NULL || in_list_ci(v, isolations))
		return 0;
	return cg_refuse(r, "denied-build-parameter", "isolation %s is refused",
	    quote(v, qv));
}

/*
 * §10.3 seccomp: one of the listed profile paths, exactly. Buildah opens
 * the value as a file, and paths are case-sensitive: podman 4.3.1 opened
 * /USR/share/containers/seccomp.json as another file (tests/integration/
 * tools.sh t_build_seccomp_case). policy.md §10.3 lists them exactly.
 */
static int
check_seccomp(const char *v, struct cg_refusal *r)
{
	if (v == NULL || in_list(v, seccomps))
		return 0;
	return cg_refuse(r, "denied-build-parameter",
	    "a seccomp profile (seccomp) is refused");
}

static const struct field idmap_fields[] = {
	{ "HostUIDMapping", F_ANY }, { "HostGIDMapping", F_ANY },
	{ "UIDMap", F_ANY }, { "GIDMap", F_ANY }, { "AutoUserNs", F_ANY },
	{ "AutoUserNsOpts", F_OBJ }, { NULL, 0 },
};
static const struct field autouserns_fields[] = {
	{ "Size", F_ANY }, { "InitialSize", F_ANY }, { "PasswdFile", F_STR },
	{ "GroupFile", F_STR }, { "AdditionalUIDMappings", F_ANY },
	{ "AdditionalGIDMappings", F_ANY }, { NULL, 0 },
};

static int
check_idmap_tree(const cJSON *t, struct cg_refusal *r)
{
	static const char *const files[] = { "PasswdFile", "GroupFile", NULL };
	const char *const *f;
	const cJSON *o;

	if (!cJSON_IsObject(t))
		return cg_refuse(r, "malformed",
		    "build idmappingoptions must be a JSON object");
	if (schema_check(t, idmap_fields, "idmappingoptions", r) == -1)
		return -1;
	o = json_get(t, "AutoUserNsOpts");
	if (!cJSON_IsObject(o))
		return 0;
	if (schema_check(o, autouserns_fields,
	    "idmappingoptions.AutoUserNsOpts", r) == -1)
		return -1;
	for (f = files; *f != NULL; f++)
		if (json_truthy(json_get(o, *f)))
			return cg_refuse(r, "denied-build-parameter",
			    "%s is refused", *f);
	return 0;
}

static int
check_idmapping(struct cg_query *q, struct cg_refusal *r)
{
	const char *v = query_get(q, "idmappingoptions");
	cJSON *t;
	int rc;

	if (v == NULL || v[0] == '\0')
		return 0;
	if ((t = parse_param("idmappingoptions", v, r)) == NULL)
		return -1;
	if ((rc = check_idmap_tree(t, r)) == 0)
		set_json(q, "idmappingoptions", t);
	cJSON_Delete(t);
	return rc;
}

static const struct field output_fields[] = {
	{ "Type", F_STR }, { "Attrs", F_ANY }, { NULL, 0 },
};

static int
bad_output(const char *v, struct cg_refusal *r)
{
	char qv[260];

	return cg_refuse(r, "denied-build-parameter",
	    "writing build output to %s is refused", quote(v, qv));
}

/* One JSON output entry: {"Type":"image","Attrs":<empty>}. */
static int
check_output_entry(const cJSON *e, const char *key, size_t idx,
    const char *v, struct cg_refusal *r)
{
	const cJSON *type;
	char path[48];

	if (!cJSON_IsObject(e))
		return bad_output(v, r);
	snprintf(path, sizeof(path), "%s[%zu]", key, idx);
	if (schema_check(e, output_fields, path, r) == -1)
		return -1;
	type = json_get(e, "Type");
	if (!cJSON_IsString(type) || !ascii_caseeq(type->valuestring, "image") ||
	    json_truthy(json_get(e, "Attrs")))
		return bad_output(v, r);
	return 0;
}

static int
check_output_json(const char *key, const char *v, struct cg_refusal *r)
{
	const cJSON *e;
	cJSON *t;
	size_t idx = 0;
	int rc = 0;

	if ((t = parse_param(key, v, r)) == NULL)
		return -1;
	if (cJSON_IsObject(t))
		rc = check_output_entry(t, key, 0, v, r);
	else if (!cJSON_IsArray(t))
		rc = bad_output(v, r);
	else
		cJSON_ArrayForEach(e, t) {
			if ((rc = check_output_entry(e, key, idx++, v, r)) == -1)
				break;
		}
	cJSON_Delete(t);
	return rc;
}

/* Comma form: every non-empty item must be type=image. */
static int
check_output_csv(const char *v, struct cg_refusal *r)
{
	const char *s = v, *comma;
	size_t n;

	for (;;) {
		comma = strchr(s, ',');
		n = comma ? (size_t)(comma - s) : strlen(s);
		if (n > 0 && !(n == 10 && strncasecmp(s, "type=image", 10) == 0))
			return bad_output(v, r);
		if (comma == NULL)
			return 0;
		s = comma + 1;
	}
}

static int
check_output(const char *key, const char *v, struct cg_refusal *r)
{
	if (v == NULL || v[0] == '\0')
		return 0;
	if (v[0] == '[' || v[0] == '{')
		return check_output_json(key, v, r);
	if (strchr(v, '=') != NULL)
		return check_output_csv(v, r);
	if (strcmp(v, "-") == 0 || strchr("/~.\\", v[0]) != NULL)
		return bad_output(v, r);
	return 0;
}

/* policy.md §0.2 label-map key rule for one label key. */
static int
label_key_ok(const char *key, size_t len, struct cg_refusal *r)
{
	char *k = xstrndup(key, len), qk[260];
	int bad = strcmp(k, CG_LABEL_KEY) != 0 && json_fold_eq(k, CG_LABEL_KEY);

	if (bad)
		cg_refuse(r, "ambiguous-field",
		    "%s is not the canonical spelling of " CG_LABEL_KEY,
		    quote(k, qk));
	free(k);
	return bad ? -1 : 0;
}

static int
bad_labels(struct cg_refusal *r)
{
	return cg_refuse(r, "malformed",
	    "build labels must be a JSON object or list");
}

/* labels: object of strings or list of "k=v" strings (podman). */
static int
check_labels_tree(const cJSON *t, struct cg_refusal *r)
{
	const cJSON *e;
	const char *eq;

	if (cJSON_IsObject(t)) {
		if (collision(t, 0, r) == -1)
			return -1;
		cJSON_ArrayForEach(e, t) {
			if (!cJSON_IsString(e))
				return bad_labels(r);
			if (label_key_ok(e->string, strlen(e->string), r) == -1)
				return -1;
		}
		return 0;
	}
	if (!cJSON_IsArray(t))
		return bad_labels(r);
	cJSON_ArrayForEach(e, t) {
		if (!cJSON_IsString(e))
			return bad_labels(r);
		eq = strchr(e->valuestring, '=');
		if (label_key_ok(e->valuestring, eq ? (size_t)(eq -
		    e->valuestring) : strlen(e->valuestring), r) == -1)
			return -1;
	}
	return 0;
}

/* Parse labels ("" or absent: the API's empty form). */
static cJSON *
labels_tree(enum cg_api api, const char *v, struct cg_refusal *r)
{
	cJSON *t;

	if (v == NULL || v[0] == '\0')
		return json_checked(api == CG_API_LIBPOD ? cJSON_CreateArray() :
		    cJSON_CreateObject());
	if ((t = parse_param("labels", v, r)) == NULL)
		return NULL;
	/* doc/leniency.md: the Go SDK's labels=null, no labels to both daemons */
	if (cJSON_IsNull(t)) {
		cJSON_Delete(t);
		return labels_tree(api, NULL, r);
	}
	if (check_labels_tree(t, r) == -1) {
		cJSON_Delete(t);
		return NULL;
	}
	return t;
}

static int
check_unsetlabel(const char *v, struct cg_refusal *r)
{
	if (v != NULL && ascii_caseeq(v, CG_LABEL_KEY))
		return cg_refuse(r, "denied-build-parameter",
		    "unsetting the project label is refused");
	return 0;
}

static cJSON *
buildargs_tree(const char *v, struct cg_refusal *r)
{
	const cJSON *e;
	cJSON *t;
	char qk[260];

	if (v == NULL || v[0] == '\0')
		return json_checked(cJSON_CreateObject());
	if ((t = parse_param("buildargs", v, r)) == NULL)
		return NULL;
	/* doc/leniency.md: the Go SDK's buildargs=null, none to both daemons */
	if (cJSON_IsNull(t)) {
		cJSON_Delete(t);
		return json_checked(cJSON_CreateObject());
	}
	if (!cJSON_IsObject(t))
		goto bad;
	if (collision(t, 0, r) == -1) {
		cJSON_Delete(t);
		return NULL;
	}
	cJSON_ArrayForEach(e, t) {
		if (!cJSON_IsString(e))
			goto bad;
		/* an ARG is in the environment of RUN steps (as Devices) */
		if (env_name_hooked(e->string, strlen(e->string))) {
			cg_refuse_hint(r, "devices", "containers get no host "
			    "devices through the gateway; drop the build "
			    "argument", "build argument %s is refused: a "
			    "runtime hook reads it as a device request in RUN "
			    "steps", quote(e->string, qk));
			cJSON_Delete(t);
			return NULL;
		}
	}
	return t;
bad:
	cJSON_Delete(t);
	cg_refuse(r, "malformed",
	    "build buildargs must be a JSON object of strings");
	return NULL;
}

/*
 * annotations (podman: a JSON list of "key=value"): buildah writes them
 * into the image, and podman copies an image's annotations into every
 * container made from it (measured on podman 4.3.1: run.oci.*,
 * org.systemd.property.* and io.containers.trace-syscall reached the
 * runtime config; tests/integration/tools.sh t_image_annotations). The
 * reserved keys of a create body (annotation_reserved) are refused here
 * too (spec README, amendments of 2026-12-07).
 */
static int
check_annotations(const struct cg_query *q, struct cg_refusal *r)
{
	const cJSON *e;
	const char *eq;
	char qk[260];
	cJSON *t;
	size_t i;
	int rc = 0;

	for (i = 0; i < q->n && rc == 0; i++) {
		if (strcmp(q->v[i].key, "annotations") != 0 ||
		    q->v[i].value[0] == '\0')
			continue;
		if ((t = parse_param("annotations", q->v[i].value, r)) == NULL)
			return -1;
		if (!cJSON_IsArray(t))
			rc = cg_refuse(r, "malformed", "build annotations must "
			    "be a JSON list of key=value strings");
		cJSON_ArrayForEach(e, t) {
			if (rc != 0)
				break;
			if (!cJSON_IsString(e)) {
				rc = cg_refuse(r, "malformed", "build annotations "
				    "must be a JSON list of key=value strings");
				break;
			}
			eq = strchr(e->valuestring, '=');
			if (annotation_reserved(e->valuestring) != NULL)
				rc = cg_refuse(r, "annotations", "build annotation "
				    "%s is reserved for the container engine and "
				    "is refused: podman copies image annotations "
				    "into every container made from the image",
				    cg_quote(e->valuestring, eq ? (size_t)(eq -
				    e->valuestring) : strlen(e->valuestring), qk));
		}
		cJSON_Delete(t);
	}
	return rc;
}

/*
 * layerlabels (podman 5: "key=value" labels of the intermediate images):
 * not the project label, which the gateway sets on the image itself.
 */
static int
check_layer_labels(const char *v, struct cg_refusal *r)
{
	const cJSON *e;
	const char *eq;
	cJSON *t;
	size_t klen;
	int rc = 0;

	if (v == NULL || v[0] == '\0')
		return 0;
	if ((t = parse_param("layerlabels", v, r)) == NULL)
		return -1;
	if (!cJSON_IsArray(t))
		rc = bad_labels(r);
	cJSON_ArrayForEach(e, t) {
		if (rc != 0)
			break;
		if (!cJSON_IsString(e)) {
			rc = bad_labels(r);
			break;
		}
		eq = strchr(e->valuestring, '=');
		klen = eq ? (size_t)(eq - e->valuestring) : strlen(e->valuestring);
		if (klen == strlen(CG_LABEL_KEY) &&
		    strncasecmp(e->valuestring, CG_LABEL_KEY, klen) == 0)
			rc = cg_refuse(r, "denied-build-parameter", "layerlabels "
			    "cannot set the project label");
	}
	cJSON_Delete(t);
	return rc;
}

/* ---- §10.5 rewrites ------------------------------------------------- */

static void
rewrite_labels(const struct cg_policy_ctx *ctx, cJSON *t)
{
	size_t klen = strlen(CG_LABEL_KEY), len;
	cJSON *e, *next;
	char *entry;

	if (cJSON_IsObject(t)) {
		e = json_checked(cJSON_CreateString(ctx->root));
		if (json_get(t, CG_LABEL_KEY) != NULL)
			cJSON_ReplaceItemInObjectCaseSensitive(t, CG_LABEL_KEY,
			    e);
		else
			cJSON_AddItemToObject(t, CG_LABEL_KEY, e);
		return;
	}
	for (e = t->child; e != NULL; e = next) {
		next = e->next;
		if (strncmp(e->valuestring, CG_LABEL_KEY, klen) == 0 &&
		    (e->valuestring[klen] == '=' || e->valuestring[klen] == '\0'))
			cJSON_Delete(cJSON_DetachItemViaPointer(t, e));
	}
	len = klen + strlen(ctx->root) + 2;
	entry = xmalloc(len);
	snprintf(entry, len, "%s=%s", CG_LABEL_KEY, ctx->root);
	cJSON_AddItemToArray(t, json_checked(cJSON_CreateString(entry)));
	free(entry);
}

static void
rewrite_buildargs(const struct cg_policy_ctx *ctx, cJSON *t)
{
	const char *names[] = { "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
		"http_proxy", "https_proxy", "no_proxy" };
	const char *values[] = { ctx->proxy, ctx->proxy, ctx->noproxy,
		ctx->proxy, ctx->proxy, ctx->noproxy };
	cJSON *e, *next;
	size_t i;

	for (e = t->child; e != NULL; e = next) {
		next = e->next;
		if (in_list_ci(e->string, proxy_names))
			cJSON_Delete(cJSON_DetachItemViaPointer(t, e));
	}
	for (i = 0; i < 6; i++)
		cJSON_AddItemToObject(t, names[i],
		    json_checked(cJSON_CreateString(values[i] ? values[i] : "")));
}

static int
proxy_active(const struct cg_policy_ctx *ctx)
{
	return ctx->egress != CG_EGRESS_OFF && ctx->proxy_available;
}

/* ---- driver --------------------------------------------------------- */

static int
check_values(const struct cg_policy_ctx *ctx, struct cg_query *q,
    struct cg_refusal *r)
{
	const char *df = query_get(q, "dockerfile");

	/*
	 * doc/leniency.md: the Go SDK sends dockerfile= (empty) on every
	 * build; both daemons read it as the context's default Dockerfile
	 * (measured: clients.sh, gosdk build), so it is not forwarded.
	 */
	if (df != NULL && df[0] == '\0')
		query_remove(q, "dockerfile");
	if (check_networkmode(ctx, query_get(q, "networkmode"), r) == -1 ||
	    check_nsoptions(q, r) == -1 ||
	    check_isolation(query_get(q, "isolation"), r) == -1 ||
	    check_seccomp(query_get(q, "seccomp"), r) == -1 ||
	    build_check_context_path("dockerfile", query_get(q, "dockerfile"),
	    r) == -1 ||
	    build_check_context_path("ignorefile", query_get(q, "ignorefile"),
	    r) == -1 ||
	    check_idmapping(q, r) == -1 ||
	    check_output("output", query_get(q, "output"), r) == -1 ||
	    check_output("outputs", query_get(q, "outputs"), r) == -1 ||
	    build_check_image_refs(q, r) == -1 ||
	    check_annotations(q, r) == -1 ||
	    check_layer_labels(query_get(q, "layerlabels"), r) == -1)
		return -1;
	return 0;
}

/*
 * §10.3 (build RUN steps kept off the host network): nsoptions always
 * hold {"Name":"network","Host":false}. Podman's compat build and
 * podman-remote (which sends only its "user" entry) otherwise take the
 * network namespace from the host or from containers.conf. The entries
 * already there were checked (check_nsoptions: no host namespace, no
 * path but the project network's, build_project_network), so one named
 * "network" exactly, as buildah compares it, is kept. Returns 0, or -1
 * when nsoptions does not parse (checked before).
 */
static int
network_off_host(struct cg_query *q)
{
	const char *v = query_get(q, "nsoptions");
	struct cg_refusal ignored;
	const cJSON *e, *name;
	cJSON *t, *net;

	if (v == NULL || v[0] == '\0') {
		query_set(q, "nsoptions", "[{\"Name\":\"network\",\"Host\":false}]");
		return 0;
	}
	if ((t = parse_param("nsoptions", v, &ignored)) == NULL)
		return -1;
	cJSON_ArrayForEach(e, t) {
		name = json_get(e, "Name");
		if (cJSON_IsString(name) && strcmp(name->valuestring,
		    "network") == 0)
			break;
	}
	if (e == NULL) {
		net = json_checked(cJSON_CreateObject());
		cJSON_AddItemToObject(net, "Name",
		    json_checked(cJSON_CreateString("network")));
		cJSON_AddItemToObject(net, "Host", json_checked(cJSON_CreateFalse()));
		cJSON_AddItemToArray(t, net);
		set_json(q, "nsoptions", t);
	}
	cJSON_Delete(t);
	return 0;
}

/*
 * Do this build's RUN steps get networkmode 1 (NetworkDisabled: a new
 * network namespace with loopback only)? On podman, when the service is
 * rootless or the isolation is rootless. Measured on podman 4.3.1
 * (tests/integration/rootless.sh, doc/rootless.md): a rootless service
 * fails every RUN in a configured network namespace ("netavark: setns:
 * IO error: Operation not permitted"), and rootless isolation configures
 * it with slirp4netns, which reaches the host's loopback at 10.0.2.2,
 * as root too. Podman has no pasta in 4.3.1, and without nsoptions its
 * compat build runs RUN in the host's network namespace.
 */
static int
rootless_build(const struct cg_policy_ctx *ctx, const struct cg_query *q)
{
	const char *iso = query_get(q, "isolation");

	return ctx->backend_kind == CG_PODMAN && (ctx->backend_rootless ||
	    (iso != NULL && in_list_ci(iso, isolations_rootless)));
}

/* labels, unsetlabel, buildargs checks, egress, then the rewrites. */
static int
labels_and_args(const struct cg_policy_ctx *ctx, enum cg_api api,
    struct cg_query *q, struct cg_refusal *r)
{
	cJSON *labels, *args = NULL;
	int rc = -1;

	if ((labels = labels_tree(api, query_get(q, "labels"), r)) == NULL)
		return -1;
	if (check_unsetlabel(query_get(q, "unsetlabel"), r) == -1 ||
	    (args = buildargs_tree(query_get(q, "buildargs"), r)) == NULL)
		goto out;
	if (ctx->egress == CG_EGRESS_REQUIRE && !ctx->proxy_available) {
		cg_refuse(r, "egress-required", "the egress gateway is "
		    "unreachable and --egress require is set");
		goto out;
	}
	rewrite_labels(ctx, labels);
	set_json(q, "labels", labels);
	if (proxy_active(ctx)) {
		rewrite_buildargs(ctx, args);
		set_json(q, "buildargs", args);
		if (query_find(q, "httpproxy", 0) != QUERY_NONE)
			query_set(q, "httpproxy", "0");
	}
	if (network_off_host(q) == -1)
		goto out;
	if (rootless_build(ctx, q))
		query_set(q, "networkmode", "1");
	rc = 0;
out:
	cJSON_Delete(labels);
	cJSON_Delete(args);
	return rc;
}

int
build_query_policy(const struct cg_policy_ctx *ctx, enum cg_api api,
    struct cg_query *q, struct cg_refusal *r)
{
	if (check_version(q, r) == -1 || check_keys(q, r) == -1 ||
	    check_values(ctx, q, r) == -1)
		return -1;
	build_normalise_dockerfile(ctx, q);
	return labels_and_args(ctx, api, q, r);
}

/*
 * Spec amendment of 2026-12-07 ("Projects do not share a network"): on a
 * podman backend a build's RUN steps join the project's own network, not
 * podman's default one, from which they reached other projects' isolated
 * networks (measured: tests/integration/isolation.sh i_network_projects).
 * The network entry of nsoptions (always there: network_off_host) gets
 * Path = the project network's name, asked through ctx->facts
 * (CG_FACT_PROJNET); a Path already there must be that name. Not with
 * networkmode none or 1 (buildah's NetworkDisabled, also a rootless
 * build's: no network at all).
 * Stage 2 of POST build on req. Returns 0, or -1 with *r set (403 network,
 * or the failed question's 502/504).
 */
int
build_project_network(const struct cg_policy_ctx *ctx,
    const struct cg_request *req, struct cg_refusal *r)
{
	const char *v = query_get(req->query, "nsoptions");
	char net[CG_ID_MAX + 1], qv[260];
	const cJSON *p;
	cJSON *t, *e, *ne = NULL;
	const char *mode = query_get(req->query, "networkmode");
	enum cg_fact_result res;
	int rc = 0;

	if (ctx->backend_kind != CG_PODMAN || v == NULL || v[0] == '\0' ||
	    (mode != NULL && (strcmp(mode, "none") == 0 ||
	    strcmp(mode, "1") == 0)))
		return 0;
	if ((t = parse_param("nsoptions", v, r)) == NULL)
		return -1;
	cJSON_ArrayForEach(e, t)
		if (strcmp(jstr0(e, "Name"), "network") == 0)
			ne = e;		/* a host one was refused in stage 1 */
	if (ne != NULL) {
		res = ask_owned(ctx, req, CG_FACT_PROJNET, CG_PROJNET_REF, net);
		p = json_get(ne, "Path");
		if (res != CG_OWNED)
			rc = fact_failure(ctx, res == CG_NOT_OWNED ?
			    CG_UNEXPECTED : res, "network", r);
		else if (json_truthy(p) && (!cJSON_IsString(p) ||
		    strcmp(p->valuestring, net) != 0))
			rc = cg_refuse_hint(r, "network", "leave the build's "
			    "network out: RUN steps get the project's network",
			    "build nsoptions network %s is refused",
			    cJSON_IsString(p) ? quote(p->valuestring, qv) : "");
		else {
			set_member(ne, "Path", xj_string(net));
			set_json(req->query, "nsoptions", t);
		}
	}
	cJSON_Delete(t);
	return rc;
}

