/*
 * Mounts and binds of container create (policy.md §4): compat Binds and
 * HostConfig.Mounts (§4.1-4.2), libpod mounts and volumes (§4.3, shared
 * with pod create, create.c), the allow-list of mount options and the
 * compat Volumes keys (hardening beyond the spec). Bind sources are
 * resolved by the monitor (§4.4, ctx->facts->resolve) and the resolved
 * path replaces the client's (B26). Contracts in body_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "policy/body.h"
#include "policy/body_int.h"
#include "policy/json.h"
#include "policy/query.h"

#define D_VOLUME_DRIVER	"a volume driver configuration is refused; " \
			"use a named volume"
#define D_MOUNT_TYPE	"every mount needs an explicit type of bind, " \
			"volume or tmpfs"
/* What to do instead (test_gwerror.c), where the code's default is vague. */
#define REL_HINT	"give an absolute path inside the project, e.g. " \
			"-v \"$PWD/data:/data\""
#define RESOLVED_HINT	"bind the target directory by a path without ',' " \
			"or ':' (rename it or its symlink target)"

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
		/* one answer for outside and unresolvable (no existence
		 * oracle; monitor/exchange/pathres.c) */
		cg_refuse(r, "bind-mount", "%s is outside the allowed roots "
		    "(%s) or cannot be resolved", q(src, qs), out);
		/* --extra-bind-root takes directories; nothing outside the
		 * roots is looked up, so the hint cannot say which src is */
		cg_hint(r, "to allow it, start the gateway with --extra-bind-root "
		    "%s (a file: its directory); or keep the data in a named "
		    "volume (-v NAME:/path)", qs);
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
 * Mount targets at or below /dev, /proc and /sys (spec amendment of
 * 2026-12-07): a volume or bind there lets the container choose what runc
 * finds at /dev/null, /dev/pts/ptmx or a masked path while it sets up the
 * container (runc CVE-2025-31133, CVE-2025-52565). The target is compared
 * as both daemons clean it (Go's filepath.Clean: "//dev", "/dev/.",
 * "/a/../dev/pts"); a relative one is taken from "/". tmpfs mounts are
 * not checked: they start empty.
 */
int
mount_target_reserved(const char *t)
{
	static const char *const top[] = { "/dev", "/proc", "/sys" };
	char *clean = cg_path_clean(t, 1);
	size_t i, n;
	int bad = 0;

	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		n = strlen(top[i]);
		bad |= strncmp(clean, top[i], n) == 0 &&
		    (clean[n] == '\0' || clean[n] == '/');
	}
	free(clean);
	return bad;
}

/* A bind-mount refusal for a volume or bind target t (what: the field). */
static int
rule_mount_target(const char *t, const char *what, struct cg_refusal *r)
{
	char qb[260];

	if (!mount_target_reserved(t))
		return 0;
	return cg_refuse_hint(r, "bind-mount", "mount it elsewhere, e.g. "
	    "-v NAME:/data; the runtime sets up /dev, /proc and /sys itself",
	    "%s %s is at or below /dev, /proc or /sys", what, q(t, qb));
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
 * the host side. "U" is refused with its own reason (U_REASON).
 */
static const char *const bind_options[] = {
	"ro", "rw", "z", "Z", "nocopy", "copy", "private", "rprivate",
	"slave", "rslave", "bind", "rbind", "nosuid", "suid", "nodev", "dev",
	"noexec", "exec", NULL
};

/*
 * "U" (podman: chown the source to the container's user): at every start
 * podman 4.3.1 walks the source on the host as root and chowns each
 * entry by path. A container that binds the same directory swaps a
 * subdirectory for a symlink during the walk, and podman chowns the
 * host directory it names (measured by the red team on podman 4.3.1:
 * /etc-like targets outside every project changed owner, on a bind and on
 * a named volume alike; tool.md advisory podman-chown-walk).
 */
#define U_REASON	"bind option U is refused: podman chowns the " \
			"source's files on the host at each start, following " \
			"symlinks a container can swap in"
#define U_HINT		"drop U and chown inside the container"

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
	} else if (strcmp(o, "U") == 0) {
		rc = cg_refuse_hint(r, "bind-mount", U_HINT, "%s",
		    U_REASON);
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

/* ---- §4.1-4.2 compat ---- */

/* §4.1 one Binds entry; rewritten to the resolved source. */
static int
rule_bind_entry(const struct cg_policy_ctx *ctx, cJSON *e,
    struct cg_refusal *r)
{
	const char *entry = e->valuestring, *c1, *c2, *opts, *o;
	char out[CG_PATH_MAX + 1], qb[260], *src, *dst, *rebuilt;
	size_t n, len;
	int rc;

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
	dst = xstrndup(c1 + 1, c2 != NULL ? (size_t)(c2 - c1 - 1) :
	    strlen(c1 + 1));
	rc = rule_mount_target(dst, "bind target", r);
	free(dst);
	if (rc != 0)
		return -1;
	/* a ':' in the resolved source would split the entry differently
	 * when the monitor replays it (red team s7 F3) */
	if (strchr(out, ':') != NULL)
		return cg_refuse_hint(r, "bind-mount", RESOLVED_HINT,
		    "bind source resolves to %s, which holds a ':'",
		    q(out, qb));
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

/*
 * 0 when no string in v (a Mounts entry's member named field, walked
 * whole) holds a byte of podman's mount text syntax: ',', '"', CR or LF;
 * else -1 with a bind-mount refusal. Podman 4.3 rebuilds each compat
 * Mounts entry as "type=..,source=..,target=.." text and parses it as CSV,
 * the last key winning: a Target of "/x,source=/" (or a Consistency,
 * Propagation or Source carrying ",source=...") bound the host's / (red
 * team s5 F1, tests/integration/isolation.sh i_mount_text). Hardening
 * beyond policy.md §4.2 (tool.md "Mount text").
 */
static int
mount_text_ok(const cJSON *v, const char *field, struct cg_refusal *r)
{
	const cJSON *e;

	if (cJSON_IsString(v) && v->valuestring[strcspn(v->valuestring,
	    ",\"\r\n")] != '\0')
		return cg_refuse_hint(r, "bind-mount", "name the path "
		    "without them (rename the directory if its name holds "
		    "one), or use -v SOURCE:TARGET", "mount %s holds a "
		    "comma, a quote or a line break, which podman would read "
		    "as more mount options", field);
	if (cJSON_IsObject(v) || cJSON_IsArray(v))
		for (e = v->child; e != NULL; e = e->next)
			if (mount_text_ok(e, field, r) != 0)
				return -1;
	return 0;
}

/* §4.2 one Mounts entry. */
static int
rule_mount_entry(const struct cg_policy_ctx *ctx, cJSON *m,
    struct cg_refusal *r)
{
	const char *type = jstr0(m, "Type"), *v;
	const cJSON *vo, *f;
	char qb[260];

	for (f = m->child; f != NULL; f = f->next)
		if (mount_text_ok(f, f->string, r) != 0)
			return -1;
	if (type[0] == '\0')
		return cg_refuse(r, "mount-type", D_MOUNT_TYPE);
	if (ascii_caseeq(type, "image") || ascii_caseeq(type, "npipe") ||
	    ascii_caseeq(type, "cluster") ||
	    not_null(json_get(m, "ImageOptions")) ||
	    not_null(json_get(m, "ClusterOptions")))
		return cg_refuse(r, "mount-type", "%s is refused", q(type, qb));
	if ((ascii_caseeq(type, "bind") || ascii_caseeq(type, "volume")) &&
	    rule_mount_target(jstr0(m, "Target"), "mount Target", r) != 0)
		return -1;
	if (ascii_caseeq(type, "bind")) {
		if (bind_source(ctx, m, "Source", r) != 0)
			return -1;
		/* the resolved path is what the monitor replays (red team
		 * s7 F3: a project symlink to a directory named "a,b") */
		v = jstr0(m, "Source");
		if (v[strcspn(v, ",\"\r\n")] != '\0')
			return cg_refuse_hint(r, "bind-mount", RESOLVED_HINT,
			    "mount Source resolves to %s, which holds a comma, "
			    "a quote or a line break", q(v, qb));
		v = jstr0(json_get(m, "BindOptions"), "Propagation");
		if (ascii_caseeq(v, "shared") || ascii_caseeq(v, "rshared"))
			return cg_refuse(r, "bind-mount",
			    "propagation %s is refused", q(v, qb));
		return 0;
	}
	if (ascii_caseeq(type, "volume")) {
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
	if (ascii_caseeq(type, "tmpfs")) {
		/*
		 * Podman 4.3's compat create runs mkdir -p as root on every
		 * Mounts Source, a tmpfs's too, before it refuses the tmpfs
		 * (containers/podman#9510; measured: a directory appeared at
		 * the Source, then "500 source is not supported with tmpfs
		 * mounts"); dockerd 20.10 answers 400 "field Source must not
		 * be specified". Both refuse it, and it names a host path:
		 * refused here, before the daemon creates anything (spec
		 * amendment of 2026-12-07).
		 */
		v = jstr0(m, "Source");
		if (v[0] != '\0')
			return cg_refuse_hint(r, "bind-mount", "drop the source "
			    "of the tmpfs mount", "a tmpfs mount takes no Source "
			    "(%s)", q(v, qb));
		return 0;
	}
	return cg_refuse(r, "mount-type", D_MOUNT_TYPE);
}

/* §4.1-4.2 */
int
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

/* ---- §4.3 libpod ---- */

/*
 * A libpod tmpfs mount's source is only the name the kernel shows for the
 * mount: podman 4.3's libpod create creates nothing there (measured: a
 * source "/x/y" showed as "/x/y on /t type tmpfs", and no /x appeared),
 * and podman --remote itself sends "tmpfs". So by the leniency rule it
 * is normalised, not refused: anything but "" or "tmpfs" becomes "tmpfs"
 * (spec amendment of 2026-12-07: a tmpfs mount carries no host Source).
 */
static void
tmpfs_source_libpod(cJSON *m)
{
	cJSON *src = json_get(m, "source");

	if (cJSON_IsString(src) && src->valuestring[0] != '\0' &&
	    strcmp(src->valuestring, "tmpfs") != 0)
		xj_set_string(src, "tmpfs");
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
			/*
			 * Exactly, as podman 4.3 compares them: a "TMPFS"
			 * is no tmpfs to podman, and with "rbind" runc bound
			 * its unchecked source (red team s5 F5); an exact
			 * "tmpfs" with bind or rbind podman refuses itself
			 * (tests/integration/isolation.sh i_mount_text).
			 */
			if (strcmp(type, "tmpfs") == 0) {
				tmpfs_source_libpod(m);
				continue;
			}
			if (strcmp(type, "bind") != 0)
				return cg_refuse(r, "mount-type", "%s is refused",
				    q(type, qb));
			if (rule_mount_target(jstr0(m, "destination"),
			    "mount destination", r) != 0)
				return -1;
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
		if (rule_mount_target(jstr0(m, "Dest"), "volume Dest", r) != 0)
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

/* ---- Volumes keys (create and commit) ---- */

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
		if (rule_mount_target(k, "Volumes key", r) != 0)
			return -1;
	}
	return 0;
bad:
	return cg_refuse(r, "bind-mount",
	    "Volumes key %s must be a container path", q(k, qb));
}

/* ---- the bind sources the monitor pins ---- */

int
body_bind_sources(enum cg_api api, int pod_create, cJSON *tree,
    struct cg_bind_src *out, size_t max)
{
	cJSON *list, *e, *src;
	const char *v;
	size_t n = 0;

	if (api == CG_API_COMPAT && !pod_create) {
		list = json_get(json_get(tree, "HostConfig"), "Binds");
		for (e = cJSON_IsArray(list) ? list->child : NULL; e != NULL;
		    e = e->next) {
			if (!cJSON_IsString(e) || e->valuestring[0] != '/')
				continue;
			if (n == max)
				return -1;
			out[n++] = (struct cg_bind_src){ e,
			    strcspn(e->valuestring, ":"), 1 };
		}
		list = json_get(json_get(tree, "HostConfig"), "Mounts");
		for (e = cJSON_IsArray(list) ? list->child : NULL; e != NULL;
		    e = e->next) {
			src = json_get(e, "Source");
			if (!ascii_caseeq(jstr0(e, "Type"), "bind") ||
			    !cJSON_IsString(src))
				continue;
			if (n == max)
				return -1;
			v = src->valuestring;
			out[n++] = (struct cg_bind_src){ src, strlen(v), 0 };
		}
		return (int)n;
	}
	list = json_get(tree, "mounts");
	for (e = cJSON_IsArray(list) ? list->child : NULL; e != NULL;
	    e = e->next) {
		src = json_get(e, "source");
		if (strcmp(jstr0(e, "type"), "bind") != 0 || !cJSON_IsString(src))
			continue;
		if (n == max)
			return -1;
		out[n++] = (struct cg_bind_src){ src, strlen(src->valuestring),
		    0 };
	}
	return (int)n;
}
