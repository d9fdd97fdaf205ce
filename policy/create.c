/*
 * Container create, compat and libpod shapes (policy.md §1-§3): the check
 * order of §3.1, step by step, for each shape, and the pod and dependency
 * containers of a libpod create (§3.9), and the pod create (§7), which
 * shares its steps with the libpod create. The rules of the steps are in
 * create_rules.c (§3), mounts.c (§4) and rewrite.c (§6); the lenient
 * rules (lenient.c, doc/leniency.md) run before a compat create's.
 *
 * Rules run in the order of policy.md §3 and the first failure answers.
 * Every field that can reach the host (namespaces, devices, bind sources,
 * log drivers, runtimes, engine annotations) is refused unless it is on a
 * short allow-list; bind sources are resolved by the monitor and the
 * resolved path is what the daemon sees (B26).
 */
#include <string.h>
#include <strings.h>

#include "policy/body_int.h"
#include "policy/imageref.h"
#include "policy/json.h"
#include "policy/schema.h"

#define D_PRIVILEGED	"drop --privileged; the gateway never grants it"
#define D_OOM		"a negative OOM score adjustment is refused"
#define D_CAPADD	"added capabilities are refused; run without --cap-add"
#define D_DEVICES	"host devices are refused; run without --device / --gpus"
#define D_SYSCTLS	"kernel parameters are refused"
#define D_CGPARENT	"custom cgroup parents are refused"
#define D_RUNTIME	"alternative OCI runtimes are refused"
#define D_VOLUMES_FROM	"--volumes-from is refused; share a named volume instead"

/* ==================================================================== */
/* Compat create                                                        */
/* ==================================================================== */

int
create_compat(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r)
{
	cJSON *hc;

	if (lenient_create_compat(req, body, r) != 0)	/* leniency.md */
		return -1;
	if (schema_check(&sc_compat_create, body, r) != 0 ||	/* steps 3-6 */
	    image_field_check("Image", jstr0(body, "Image"), r) != 0)
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
	if (rule_env_hooks(json_get(body, "Env"), "Env", r) != 0 ||
	    rule_env_hooks(json_get(body, "EnvMerge"), "EnvMerge", r) != 0)
		return -1;
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
	/*
	 * 20: publishing (§3.7). PublishAllPorts (a bool: §0.5) passes: the
	 * monitor turns it into 127.0.0.1 bindings of the exposed ports
	 * before forwarding (monitor/exchange/publish.h; rule 20 as amended).
	 */
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
	/* the project's own network, last: a refused create asks nothing */
	return rewrite_project_network_compat(ctx, req, body, r);
}

/* ==================================================================== */
/* Libpod create                                                        */
/* ==================================================================== */

/*
 * The steps of §3.1 a libpod container create and a pod create (§7: "rules
 * in the order of §3 where they apply") both take, each in one place so
 * that the two cannot drift apart. Each returns 0, or -1 with *r set.
 */

/* the libpod namespace fields of §3.2 (a pod has all but cgroupns) */
static const char *const libpod_namespaces[] = {
	"pidns", "ipcns", "utsns", "userns", "cgroupns",
};
#define POD_NAMESPACES	4

/* steps 10-11: the first n of libpod_namespaces (§3.2), then netns and Networks (§3.3) */
static int
rule_namespaces_libpod(const struct cg_policy_ctx *ctx, const cJSON *body,
    size_t n, struct cg_refusal *r)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rule_ns_libpod(body, libpod_namespaces[i], r) != 0)
			return -1;
	return rule_netns_libpod(body, r) != 0 ||
	    rule_networks_libpod(ctx, body, r) != 0 ? -1 : 0;
}

/* steps 15-16 and 17's resource_limits.unified: sysctl, cgroup_parent */
static int
rule_kernel_libpod(const cJSON *body, struct cg_refusal *r)
{
	if (json_truthy(json_get(body, "sysctl")))
		return cg_refuse(r, "sysctls", D_SYSCTLS);
	if (json_truthy(json_get(body, "cgroup_parent")))
		return cg_refuse(r, "cgroup-parent", D_CGPARENT);
	return rule_cgroup_map(json_get(json_get(body, "resource_limits"),
	    "unified"), "resource_limits.unified", r);
}

/* steps 20-22: portmappings (§3.7), mounts and volumes (§4.3), volumes_from */
static int
rule_ports_mounts_libpod(const struct cg_policy_ctx *ctx, cJSON *body,
    struct cg_refusal *r)
{
	if (rule_publish_libpod(body, r) != 0 ||
	    rule_mounts_libpod(ctx, body, r) != 0)
		return -1;
	if (json_truthy(json_get(body, "volumes_from")))
		return cg_refuse_hint(r, "volumes-from", CG_HINT_IN_DETAIL, D_VOLUMES_FROM);
	return 0;
}

/*
 * Step 25, then the project's own network (pod: 1 for a pod's infra
 * container; last, so that a refused create asks nothing), then the
 * rewrites both share (§6.2): the published-port warning and the label.
 */
static int
finish_libpod(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, int pod, struct cg_refusal *r)
{
	if (rule_egress_required(ctx, r) != 0 ||
	    rewrite_project_network_libpod(ctx, req, body, pod, r) != 0)
		return -1;
	warn_publish_libpod(ctx, body);
	rewrite_label(ctx, body, "labels", 1);
	return 0;
}

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
	const cJSON *priv;
	const char *v;
	char qb[260];

	if (schema_check(&sc_libpod_create, body, r) != 0 ||	/* steps 3-6 */
	    image_field_check("image", jstr0(body, "image"), r) != 0)
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
	if (rule_env_hooks(json_get(body, "env"), "env", r) != 0 ||
	    rule_env_hooks(json_get(body, "envmerge"), "envmerge", r) != 0)
		return -1;
	/* 10-11 */
	if (rule_namespaces_libpod(ctx, body, sizeof(libpod_namespaces) /
	    sizeof(libpod_namespaces[0]), r) != 0)
		return -1;
	/* 12 (§3.4) */
	if (rule_security_libpod(body, r) != 0)
		return -1;
	/* 13: log_configuration is in the refused table (step 6) */
	/* 14 (§3.6) */
	if (rule_annotations(json_get(body, "annotations"), r) != 0)
		return -1;
	/* 15-17 */
	if (rule_kernel_libpod(body, r) != 0 ||
	    rule_cgroup_map(json_get(body, "unified"), "unified", r) != 0 ||
	    rule_hugepage_limits(json_get(json_get(body, "resource_limits"),
	    "hugepageLimits"), r) != 0)
		return -1;
	if (json_truthy(json_get(body, "oci_runtime")))
		return cg_refuse(r, "runtime", D_RUNTIME);
	/*
	 * systemd mode: on cgroup v1 podman 4.3.1 bind-mounts the root of the
	 * host's name=systemd hierarchy read-write into the container (red
	 * team rt10 F2: mkdir there, moves into the host's root cgroup). The
	 * client asking for it with "always" is refused; any other value
	 * (podman's default "true": systemd mode when the command is an
	 * init) becomes "false" below, which runs such a command as a plain
	 * process (measured: tests/integration/isolation.sh i_systemd_mode).
	 */
	v = jstr0(body, "systemd");
	if (strcasecmp(v, "always") == 0)
		return cg_refuse(r, "systemd", "systemd=%s is refused: systemd "
		    "mode mounts the host's cgroup tree", q(v, qb));
	/* 19 */
	if (not_null(json_get(body, "mask")))
		return cg_refuse(r, "masked-paths", "mask is refused");
	if (not_null(json_get(body, "unmask")))
		return cg_refuse(r, "security-opt", "unmask is refused");
	/* 20-22; publish_image_ports as PublishAllPorts above */
	if (rule_ports_mounts_libpod(ctx, body, r) != 0)
		return -1;
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
	/* 25, the project's network, the shared §6.2 rewrites */
	if (finish_libpod(ctx, req, body, 0, r) != 0)
		return -1;
	/* the other §6.2 rewrites */
	priv = json_get(body, "privileged");
	if (priv == NULL || cJSON_IsNull(priv))
		set_member(body, "privileged", xj_false());
	rewrite_host_ips_libpod(body);
	set_member(body, "systemd", xj_string("false"));
	if (egress_active(ctx))
		egress_libpod(ctx, body);
	return 0;
}

/* ==================================================================== */
/* Pod create (§7)                                                      */
/* ==================================================================== */

int
pod_create(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON *body, struct cg_refusal *r)
{
	if (schema_check(&sc_pod_create, body, r) != 0)
		return -1;
	/* devices (B23: resource_limits.devices) */
	if (json_truthy(json_get(json_get(body, "resource_limits"), "devices")))
		return cg_refuse_hint(r, "devices", CG_HINT_IN_DETAIL, D_DEVICES);
	/* namespaces (§3.2), network (§3.3) */
	if (rule_namespaces_libpod(ctx, body, POD_NAMESPACES, r) != 0)
		return -1;
	/* security options (§3.4) */
	if (rule_security_opts(json_get(body, "security_opt"), r) != 0)
		return -1;
	/* sysctls, cgroup-parent */
	if (rule_kernel_libpod(body, r) != 0 ||
	    rule_hugepage_limits(json_get(json_get(body, "resource_limits"),
	    "hugepageLimits"), r) != 0)
		return -1;
	/* publishing (§3.7), mounts and volumes (§4.3), volumes-from */
	if (rule_ports_mounts_libpod(ctx, body, r) != 0)
		return -1;
	/* host paths (§3.8; infra_image: red team s7 F2b) */
	if (rule_idmappings_paths(body, r) != 0 ||
	    image_field_check("infra_image", jstr0(body, "infra_image"), r) != 0)
		return -1;
	/* egress-required; the infra container's network: the project's own */
	if (finish_libpod(ctx, req, body, 1, r) != 0)
		return -1;
	/* rewrites: host_ip (label above; bind sources already resolved) */
	rewrite_host_ips_libpod(body);
	return 0;
}
