/*
 * Internal interface of the body policies: the per-route policies (body.c
 * dispatches to create.c and resources.c), the lenient rules (lenient.c),
 * and what they share: helpers (body_util.c), the create rules of
 * policy.md §3 (create_rules.c), mounts (§4, mounts.c) and rewrites (§6,
 * rewrite.c). Not for use outside policy/.
 */
#ifndef CG_POLICY_BODY_INT_H
#define CG_POLICY_BODY_INT_H

#include <cjson/cJSON.h>

#include "base/gwerror.h"
#include "policy/types.h"

/*
 * Per-route body policies. Each takes the parsed top-level object (type
 * already checked), runs the schema checker and the route's rules in the
 * order of policy.md, rewrites body in place and returns 0, or -1 with *r
 * set. Facts are asked through ctx->facts (NULL: fail closed).
 */
int create_compat(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r);			/* §1, §3-§6 */
int create_libpod(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r);			/* §2, §3-§6 */
int pod_create(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r);			/* §7 */
int exec_create(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r);			/* §8.1 */
int update_policy(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r);			/* §9 */
int volume_create(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r);			/* §11 */
int network_create(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r);			/* §12.1-12.2 */
int network_connect(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, int disconnect, struct cg_refusal *r);	/* §12.3 */
int commit_policy(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r);			/* §13.1 */

/*
 * Lenient rules (lenient.c; doc/leniency.md), run before the route's
 * schema check; each rewrites body in place and is a no-op on its own
 * output. lenient_small_body: every top-level member whose key names no
 * key of s under Go's fold (schema_fold_key) is removed and its key noted
 * in req->body_dropped; a lone case variant of a key of s is renamed to
 * it (two spellings of one field are left for the schema check's
 * ambiguous-field). lenient_create_compat: a body member
 * folding to "name" is removed when the query has the same name (403
 * ambiguous-field when it differs); a top-level legacy VolumesFrom is
 * removed when falsy (403 volumes-from otherwise), a falsy top-level
 * Volumes is removed. lenient_commit: members folding to a commit query
 * option (container repo tag comment author pause changes squash) are
 * removed when they equal the query's values, else 403 ambiguous-field.
 * The int ones return 0 or -1 with *r set.
 */
struct sc_schema;
void lenient_small_body(struct cg_request *req, cJSON *body,
    const struct sc_schema *s);
int lenient_create_compat(const struct cg_request *req, cJSON *body,
    struct cg_refusal *r);
int lenient_commit(const struct cg_request *req, cJSON *body,
    struct cg_refusal *r);

/* ---- Helpers (body_util.c) ---- */

/*
 * A client string quoted for a detail (http.md §11.3, cg_quote); s is
 * NUL-terminated, buf 260 bytes; returns buf. XXX a one-letter global name
 * in a library.
 */
const char *q(const char *s, char buf[260]);
/* String member of obj, or NULL when absent, null or not a string. */
const char *jstr(const cJSON *obj, const char *key);
/* String member of obj, "" when absent, null or not a string. */
const char *jstr0(const cJSON *obj, const char *key);
/* "Not null" (policy.md §3.1 step 19): 1 when v is present and not null. */
int not_null(const cJSON *v);

/*
 * 1 when s starts with prefix, ignoring ASCII case (both NUL-terminated;
 * equality is ascii_caseeq() of query.h).
 */
int ci_prefix(const char *s, const char *prefix);
/*
 * A malloc'd copy of s[0..n) without leading and trailing blanks (space,
 * tab), ASCII lower-cased; the caller frees it. Exits through xoom() on
 * allocation failure.
 */
char *trim_lower(const char *s, size_t n);

/*
 * 1 when byte c may stand in a resource name: [A-Za-z0-9], and unless
 * first also '_', '.', '-' (§3.3, §4).
 */
int name_char(int c, int first);
/*
 * 1 when s[0..len) matches [A-Za-z0-9][A-Za-z0-9_.-]{0,254}: volume and
 * network names (§3.3, §4).
 */
int is_resource_name(const char *s, size_t len);

/* Replace obj's member (found by pointer) with repl, keeping its position. */
void replace_member(cJSON *obj, cJSON *item, cJSON *repl);
/* Set obj[key] to value (in place if present, else appended). */
void set_member(cJSON *obj, const char *key, cJSON *value);
/*
 * Give obj's member item (found by pointer) the key key (copied); the
 * caller makes sure no other member has that key.
 */
void rename_member(cJSON *item, const char *key);
/* Set a string node's value to a copy of s. */
void xj_set_string(cJSON *item, const char *s);
/* New nodes. All of these exit through xoom() on allocation failure. */
cJSON *xj_string(const char *s);
cJSON *xj_object(void);
cJSON *xj_array(void);
cJSON *xj_false(void);

/*
 * Map a failed ownership question to its refusal (routes.md §9.3):
 * timeout -> 504 backend-timeout (without the T of http.md §10),
 * unexpected -> 502 "unexpected <kind> inspect response", anything else
 * -> 502 backend-unreachable. kind names the resource kind ("pod",
 * "container"). Always returns -1. XXX duplicates check_ref() in
 * ownership.c, whose 504 detail names T.
 */
int fact_failure(const struct cg_policy_ctx *ctx, enum cg_fact_result res,
    const char *kind, struct cg_refusal *r);

/*
 * Ask ctx->facts->owned about ref (kind, req's API and version prefix).
 * CG_UNREACHABLE when there are no facts (fail closed); CG_OWNED with an
 * empty id becomes CG_UNEXPECTED. id_out (CG_ID_MAX + 1 bytes) is always
 * NUL-terminated and holds the id only on CG_OWNED.
 */
enum cg_fact_result ask_owned(const struct cg_policy_ctx *ctx,
    const struct cg_request *req, enum cg_fact_kind kind, const char *ref,
    char id_out[CG_ID_MAX + 1]);

/*
 * ---- Create rules (create_rules.c; policy.md §3) ----
 * The rule_ functions return 0, or -1 with *r set. hc is a compat body's
 * HostConfig object or NULL; body the whole top-level object.
 */

/*
 * §3.3.1 network-mode keywords: "", default, bridge, none, plus private,
 * slirp4netns, pod when podman_words (libpod, or compat on a podman
 * backend). Exact, as the daemons compare (not pasta: a network name on
 * podman 4.3.1). v NUL-terminated; returns 1 for a keyword, else 0.
 */
int netmode_keyword(const char *v, int podman_words);
/* §3.3.1: lower-case form starts with host, container, ns, path or from. */
int netmode_refused_prefix(const char *v);
/* §3.3.2: exactly bridge, default, and podman on a podman backend. */
int builtin_network(const char *name, enum cg_kind backend);
/* What a network value is to the rules of §3.3 and to the monitor (§5). */
enum cg_netclass {
	CG_NET_BUILTIN,		/* a mode keyword or built-in network: no check */
	CG_NET_REFUSED,		/* host, none (endpoint key), refused prefix */
	CG_NET_INVALID,		/* not the network-name grammar */
	CG_NET_NAMED,		/* a named network, ownership-checked (§5) */
};
/*
 * Classify v (NUL-terminated): a compat NetworkMode when mode is 1, else an
 * endpoint key (EndpointsConfig / Networks), for a backend of kind backend;
 * a mode may also be a built-in network name.
 * Every comparison is exact but the refused prefixes' (§3.3; measured:
 * isolation.sh i_network_name_case). The one place both the rules and
 * body_named_resources() decide what is built in.
 */
enum cg_netclass network_class(const char *v, int mode, enum cg_kind backend);

int rule_ns_libpod(const cJSON *body, const char *field,
    struct cg_refusal *r);				/* §3.2 */
int rule_ns_compat(const cJSON *hc, struct cg_refusal *r);	/* §3.2 */
int rule_netns_libpod(const cJSON *body, struct cg_refusal *r);	/* §3.3.1 */
int rule_networks_libpod(const struct cg_policy_ctx *ctx, const cJSON *body,
    struct cg_refusal *r);				/* §3.3.2-3 */
int rule_network_compat(const struct cg_policy_ctx *ctx, const cJSON *body,
    const cJSON *hc, struct cg_refusal *r);		/* §3.3 */
int rule_endpoint_settings(const cJSON *es, struct cg_refusal *r); /* §3.3.3 */
/*
 * The project's own network (spec amendment of 2026-12-07, "Projects do
 * not share a network"): a compat create whose NetworkMode asks for the
 * default network ("", default, bridge; private and podman on a podman
 * backend) or whose EndpointsConfig names a built-in network, a libpod
 * container or pod create whose netns is the default one ("", default,
 * private, bridge) without Networks or whose Networks name a built-in
 * network, is rewritten onto the network the monitor answers for
 * CG_FACT_PROJNET (a libpod container in a pod joins the pod's network
 * instead: netns "pod"). Run after every check of the create, so that a
 * refused request asks nothing. body is the whole create body (compat:
 * with its HostConfig object); pod is 1 for a pod create. 0, or -1 with
 * *r set (`network`, or the failed question's 502/504).
 */
int rewrite_project_network_compat(const struct cg_policy_ctx *ctx,
    const struct cg_request *req, cJSON *body, struct cg_refusal *r);
int rewrite_project_network_libpod(const struct cg_policy_ctx *ctx,
    const struct cg_request *req, cJSON *body, int pod, struct cg_refusal *r);
int rule_security_opts(const cJSON *list, struct cg_refusal *r);   /* §3.4 */
int rule_security_libpod(const cJSON *body, struct cg_refusal *r); /* §3.4 */
int rule_log_config(const cJSON *hc, struct cg_refusal *r);	/* §3.5 */
int rule_annotations(const cJSON *ann, struct cg_refusal *r);
/*
 * The reserved prefix (§3.6 plus org.systemd.property.*, compared ignoring
 * ASCII case) that the annotation key starts with, or NULL: the one list
 * for create bodies, build annotations and image annotations.
 */
const char *annotation_reserved(const char *key);
/*
 * Allow-lists of the amendments of 2026-12-07 (create_rules.c).
 * env_name_hooked: 1 when the variable name[0..len) is one a runtime hook
 * reads as a device request (NVIDIA_*, any case). rule_env_hooks: env is a
 * list of "NAME=value" strings or an object of names (field names it in
 * the detail); 0, or -1 with *r set (403 devices). rule_cgroup_map: every
 * key of the cgroup map is a controller file (memory.*, cpu.*, cpuset.*,
 * io.*, hugetlb.*, pids.max); 0, or -1 (403 cgroup-parent).
 * apparmor_profile_ok: 1 for "", docker-default, containers-default-*.
 */
int env_name_hooked(const char *name, size_t len);
int rule_env_hooks(const cJSON *env, const char *field, struct cg_refusal *r);
int rule_cgroup_map(const cJSON *map, const char *field, struct cg_refusal *r);
/* resource_limits.hugepageLimits: every pageSize <digits>[KMGTP]B; 0 or -1 (403 cgroup-parent). */
int rule_hugepage_limits(const cJSON *list, struct cg_refusal *r);
int apparmor_profile_ok(const char *v);
    /* §3.6 on an annotations object, plus org.systemd.property.* */
int rule_publish_libpod(const cJSON *body, struct cg_refusal *r);  /* §3.7 */
int rule_publish_compat(const cJSON *hc, struct cg_refusal *r);	/* §3.7 */
int rule_idmappings_paths(const cJSON *body, struct cg_refusal *r); /* §3.8 */
int rule_workdir(const char *dir, struct cg_refusal *r);	/* §3.8 */
int rule_timezone(const char *tz, struct cg_refusal *r);	/* libpod */
int rule_egress_required(const struct cg_policy_ctx *ctx,
    struct cg_refusal *r);				/* §3.1 step 25 */
/*
 * §3.7.3: a WARNING through ctx->facts->warn (if any) for each published
 * port bound to a non-loopback address.
 */
void warn_publish_libpod(const struct cg_policy_ctx *ctx, const cJSON *body);
void warn_publish_compat(const struct cg_policy_ctx *ctx, const cJSON *hc);

/* ---- Mounts (mounts.c; policy.md §4); 0, or -1 with *r set ---- */

/*
 * Binds and Mounts of a compat HostConfig hc (§4.1-4.2) and libpod
 * mounts and volumes (§4.3); bind sources are resolved through
 * ctx->facts->resolve (§4.4) and rewritten in place to the resolved path.
 */
int rule_mounts_compat(const struct cg_policy_ctx *ctx, cJSON *hc,
    struct cg_refusal *r);
int rule_mounts_libpod(const struct cg_policy_ctx *ctx, cJSON *body,
    struct cg_refusal *r);
int rule_config_volumes(const cJSON *body, struct cg_refusal *r);
    /* compat Volumes keys (create, commit): hardening beyond the spec */

/* ---- Rewrites (rewrite.c; policy.md §6) ---- */

/*
 * §6: obj[member][KEY] = ROOT; member created when absent or null if
 * create, else only set when member is an object.
 */
void rewrite_label(const struct cg_policy_ctx *ctx, cJSON *obj,
    const char *member, int create);
/* §6.1 on a compat create body: label, HostIp, volume labels, egress. */
void rewrite_compat(const struct cg_policy_ctx *ctx, cJSON *body);
/* §6.2: an empty or null portmappings host_ip becomes 127.0.0.1. */
void rewrite_host_ips_libpod(cJSON *body);
/* §6.3: 1 when egress injection is on and the proxy is available. */
int egress_active(const struct cg_policy_ctx *ctx);
/* §6.3 libpod: env, envmerge, httpproxy. */
void egress_libpod(const struct cg_policy_ctx *ctx, cJSON *body);

#endif
