/*
 * The schema tables (policy.md §0.3, §3 steps 3-6): the allow-lists of
 * policy.md §1, §2, §7-§13 written out, one const struct sc_schema per
 * object kind: a key, its type guard, and how the checker (schema.c)
 * descends into its value; the refused-when-truthy keys with their codes
 * and details; the known keys that are not accepted.
 *
 * The daemons decode with Go (case-insensitive field matching, last
 * duplicate wins), so a key is accepted only in its canonical spelling,
 * and any key the gateway does not know is refused rather than forwarded:
 * a field we cannot see is a field we cannot police.
 */
#include "policy/schema.h"

#include <stddef.h>


#define M(k)		{ k, SC_ANY, SC_LEAF, NULL, 0 }
#define MT(k, t)	{ k, t, SC_LEAF, NULL, 0 }
#define MS(k, t, shape, sub, g)	{ k, t, shape, sub, g }
#define MEND		{ NULL, SC_ANY, SC_LEAF, NULL, 0 }
#define REND		{ NULL, NULL, NULL }

/* ---- Shared details (policy.md §2, §3.1, §8.1) ---- */

#define D_DEVICES	"host devices are refused; run without --device / --gpus"
#define D_CAPADD	"added capabilities are refused; run without --cap-add"
#define D_CGPARENT	"custom cgroup parents are refused"
#define D_PIDFILE	"writing a pid file on the host is refused"
#define D_OVERLAY	"overlay mounts of host paths are refused"

/* ---- Compat container create (policy.md §1) ---- */

static const struct sc_member ipam_config_m[] = {
	M("IPv4Address"), M("IPv6Address"), M("LinkLocalIPs"), MEND,
};
static const struct sc_schema ipam_config_s = {
	"IPAMConfig", ipam_config_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member endpoint_m[] = {
	MS("IPAMConfig", SC_OBJ, SC_SUB, &ipam_config_s, 0),
	MT("Links", SC_LIST),
	MT("Aliases", SC_LIST_STR),
	MS("DriverOpts", SC_OBJ, SC_MAP, NULL, 0),
	M("GwPriority"),
	MT("NetworkID", SC_STR),
	MT("EndpointID", SC_STR),
	M("Gateway"), M("IPAddress"), M("MacAddress"), M("IPPrefixLen"),
	M("IPv6Gateway"), M("GlobalIPv6Address"), M("GlobalIPv6PrefixLen"),
	M("DNSNames"),
	MEND,
};
static const struct sc_schema endpoint_s = {
	"EndpointSettings", endpoint_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member networking_m[] = {
	MS("EndpointsConfig", SC_OBJ, SC_MAP_SUB, &endpoint_s, 4),
	MEND,
};
static const struct sc_schema networking_s = {
	"NetworkingConfig", networking_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member bind_options_m[] = {
	MT("Propagation", SC_STR), M("NonRecursive"), M("CreateMountpoint"),
	M("ReadOnlyNonRecursive"), M("ReadOnlyForceRecursive"), MEND,
};
static const struct sc_schema bind_options_s = {
	"BindOptions", bind_options_m, NULL, NULL, 0, 0, 0,
};

/* DriverConfig is opaque; only its Options map matters for §0.2. */
static const struct sc_member driver_config_m[] = {
	MS("Options", SC_ANY, SC_MAP, NULL, 0), MEND,
};
static const struct sc_schema driver_config_s = {
	"DriverConfig", driver_config_m, NULL, NULL, 0, 1, 0,
};

static const struct sc_member volume_options_m[] = {
	M("NoCopy"),
	MS("Labels", SC_MAP_STR, SC_LABELS, NULL, 0),
	MT("Subpath", SC_STR),
	MS("DriverConfig", SC_OBJ, SC_SUB, &driver_config_s, 0),
	MEND,
};
static const struct sc_schema volume_options_s = {
	"VolumeOptions", volume_options_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member tmpfs_options_m[] = {
	M("SizeBytes"), M("Mode"), M("Options"), MEND,
};
static const struct sc_schema tmpfs_options_s = {
	"TmpfsOptions", tmpfs_options_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member mount_m[] = {
	MT("Type", SC_STR), MT("Source", SC_STR), MT("Target", SC_STR),
	M("ReadOnly"), M("Consistency"),
	MS("BindOptions", SC_OBJ, SC_SUB, &bind_options_s, 0),
	MS("VolumeOptions", SC_OBJ, SC_SUB, &volume_options_s, 0),
	MT("ImageOptions", SC_OBJ),
	MS("TmpfsOptions", SC_OBJ, SC_SUB, &tmpfs_options_s, 0),
	MT("ClusterOptions", SC_OBJ),
	MEND,
};
static const struct sc_schema mount_s = {
	"Mount", mount_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member port_binding_m[] = {
	MT("HostIp", SC_STR), MT("HostPort", SC_STR), MEND,
};
static const struct sc_schema port_binding_s = {
	"PortBinding", port_binding_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member log_config_m[] = {
	MT("Type", SC_STR), MS("Config", SC_MAP_STR, SC_MAP, NULL, 0), MEND,
};
static const struct sc_schema log_config_s = {
	"LogConfig", log_config_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member restart_policy_m[] = {
	M("Name"), M("MaximumRetryCount"), MEND,
};
static const struct sc_schema restart_policy_s = {
	"RestartPolicy", restart_policy_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member ulimit_m[] = {
	M("Name"), M("Soft"), M("Hard"), MEND,
};
static const struct sc_schema ulimit_s = {
	"Ulimit", ulimit_m, NULL, NULL, 0, 0, 0,
};

/*
 * Groups (§3 step 6): 1 top level, 2 HostConfig, 3 NetworkingConfig,
 * 4 EndpointSettings (+IPAMConfig), 5 Mounts entries (+option objects),
 * 6 PortBindings, 7 LogConfig, 8 RestartPolicy, 9 Ulimits entries.
 */
static const struct sc_member host_config_m[] = {
	MS("Annotations", SC_MAP_STR, SC_MAP, NULL, 0),
	M("AutoRemove"),
	MT("Binds", SC_LIST_STR),
	M("BlkioDeviceReadBps"), M("BlkioDeviceReadIOps"),
	M("BlkioDeviceWriteBps"), M("BlkioDeviceWriteIOps"),
	M("BlkioWeight"), M("BlkioWeightDevice"),
	MT("CapAdd", SC_LIST_STR), MT("CapDrop", SC_LIST_STR),
	MT("Capabilities", SC_LIST),
	MT("CgroupParent", SC_STR), MT("CgroupnsMode", SC_STR),
	M("ConsoleSize"), M("CpuCount"), M("CpuPercent"), M("CpuPeriod"),
	M("CpuQuota"), M("CpuRealtimePeriod"), M("CpuRealtimeRuntime"),
	M("CpuShares"), M("CpusetCpus"), M("CpusetMems"),
	MT("DeviceCgroupRules", SC_LIST), MT("DeviceRequests", SC_LIST),
	MT("Devices", SC_LIST),
	M("Dns"), M("DnsOptions"), M("DnsSearch"), M("ExtraHosts"),
	M("GroupAdd"), M("IOMaximumBandwidth"), M("IOMaximumIOps"), M("Init"),
	MT("IpcMode", SC_STR), MT("Isolation", SC_STR),
	M("KernelMemory"), M("KernelMemoryTCP"),
	MS("LogConfig", SC_OBJ, SC_SUB, &log_config_s, 7),
	MT("MaskedPaths", SC_LIST_STR),
	M("Memory"), M("MemoryReservation"), M("MemorySwap"),
	M("MemorySwappiness"),
	MS("Mounts", SC_LIST_OBJ, SC_SUB_EACH, &mount_s, 5),
	M("NanoCpus"),
	MT("NetworkMode", SC_STR),
	M("OomKillDisable"),
	MT("OomScoreAdj", SC_NUM),
	MT("PidMode", SC_STR),
	M("PidsLimit"),
	MS("PortBindings", SC_OBJ, SC_MAP_SUB_EACH, &port_binding_s, 6),
	MT("Privileged", SC_BOOL), MT("PublishAllPorts", SC_BOOL),
	MT("ReadonlyPaths", SC_LIST_STR),
	M("ReadonlyRootfs"),
	MS("RestartPolicy", SC_OBJ, SC_SUB, &restart_policy_s, 8),
	MT("Runtime", SC_STR), MT("SecurityOpt", SC_LIST_STR),
	M("ShmSize"),
	MS("StorageOpt", SC_MAP_STR, SC_MAP, NULL, 0),
	MS("Sysctls", SC_MAP_STR, SC_MAP, NULL, 0),
	MS("Tmpfs", SC_MAP_STR, SC_MAP, NULL, 0),
	MT("UTSMode", SC_STR),
	MS("Ulimits", SC_LIST_OBJ, SC_SUB_EACH, &ulimit_s, 9),
	MT("UsernsMode", SC_STR), MT("VolumesFrom", SC_LIST_STR),
	MEND,
};
static const struct sc_refused host_config_r[] = {
	{ "Cgroup", "cgroup-parent",
	  "joining another container's cgroup is refused" },
	{ "ContainerIDFile", "container-id-file",
	  "writing a container id file on the host is refused" },
	{ "Links", "links",
	  "--link reaches another project's container and is refused" },
	{ "VolumeDriver", "volume-driver", "a custom volume driver is refused" },
	REND,
};
static const struct sc_schema host_config_s = {
	"HostConfig", host_config_m, host_config_r, NULL, 0, 0, 0,
};

/* The container Config keys shared by create and commit (§1, §13.1). */
#define COMPAT_CONFIG_MEMBERS \
	M("Hostname"), M("Domainname"), M("User"), M("AttachStdin"), \
	M("AttachStdout"), M("AttachStderr"), \
	MS("ExposedPorts", SC_OBJ, SC_MAP, NULL, 0), \
	M("Tty"), M("OpenStdin"), M("StdinOnce"), \
	MT("Env", SC_LIST_STR), M("Cmd"), M("Healthcheck"), M("ArgsEscaped"), \
	MT("Image", SC_STR), \
	MS("Volumes", SC_OBJ, SC_MAP, NULL, 0), \
	MT("WorkingDir", SC_STR), M("Entrypoint"), M("NetworkDisabled"), \
	M("MacAddress"), M("OnBuild"), \
	MS("Labels", SC_MAP_STR, SC_LABELS, NULL, 0), \
	M("StopSignal"), M("StopTimeout"), M("Shell"), M("Platform")

static const struct sc_member compat_create_m[] = {
	COMPAT_CONFIG_MEMBERS,
	MS("HostConfig", SC_OBJ, SC_SUB, &host_config_s, 2),
	MS("NetworkingConfig", SC_OBJ, SC_SUB, &networking_s, 3),
	/* podman's compat extensions */
	M("Name"), MT("EnvMerge", SC_LIST_STR), MT("UnsetEnv", SC_LIST_STR),
	M("UnsetEnvAll"),
	MEND,
};
const struct sc_schema sc_compat_create = {
	"compat create", compat_create_m, NULL, NULL, 0, 0, 9,
};

/* ---- Libpod container create (policy.md §2) ---- */

static const struct sc_member namespace_m[] = {
	MT("nsmode", SC_STR), MT("value", SC_STR), MEND,
};
static const struct sc_schema namespace_s = {
	"Namespace", namespace_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member portmapping_m[] = {
	M("container_port"), MT("host_ip", SC_STR), M("host_port"),
	M("protocol"), M("range"), MEND,
};
static const struct sc_schema portmapping_s = {
	"portmappings", portmapping_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member oci_mount_m[] = {
	M("destination"), MT("type", SC_STR), MT("source", SC_STR),
	MT("options", SC_LIST_STR), M("uidMappings"), M("gidMappings"), MEND,
};
static const struct sc_schema oci_mount_s = {
	"mounts", oci_mount_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member named_volume_m[] = {
	MT("Name", SC_STR), M("Dest"), MT("Options", SC_LIST_STR),
	M("IsAnonymous"), MT("SubPath", SC_STR), MEND,
};
static const struct sc_schema named_volume_s = {
	"volumes", named_volume_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member per_network_m[] = {
	M("static_ips"), M("aliases"), M("static_mac"), M("interface_name"),
	MT("options", SC_OBJ), MEND,
};
static const struct sc_schema per_network_s = {
	"Networks", per_network_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member auto_userns_m[] = {
	M("Size"), M("InitialSize"), MT("PasswdFile", SC_STR),
	MT("GroupFile", SC_STR), M("AdditionalUIDMappings"),
	M("AdditionalGIDMappings"), MEND,
};
static const struct sc_schema auto_userns_s = {
	"AutoUserNsOpts", auto_userns_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member idmappings_m[] = {
	M("HostUIDMapping"), M("HostGIDMapping"), M("UIDMap"), M("GIDMap"),
	M("AutoUserNs"),
	MS("AutoUserNsOpts", SC_OBJ, SC_SUB, &auto_userns_s, 13),
	MEND,
};
static const struct sc_schema idmappings_s = {
	"idmappings", idmappings_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member resource_limits_m[] = {
	M("memory"), M("cpu"), M("pids"), M("blockIO"), M("hugepageLimits"),
	MS("unified", SC_ANY, SC_MAP, NULL, 0),
	MT("devices", SC_LIST),
	MEND,
};
static const char *const resource_limits_k[] = { "network", "rdma", NULL };
static const struct sc_schema resource_limits_s = {
	"resource_limits", resource_limits_m, NULL, resource_limits_k, 0, 0, 0,
};

/*
 * Groups (§3 step 6): 1 top level, 2-7 pidns ipcns utsns userns cgroupns
 * netns, 8 portmappings, 9 mounts, 10 volumes, 11 Networks values,
 * 12 idmappings, 13 AutoUserNsOpts, 14 resource_limits. Pod create uses
 * the same numbers.
 */
static const struct sc_member libpod_create_m[] = {
	M("name"), MT("pod", SC_STR), M("entrypoint"), M("command"),
	MT("httpproxy", SC_BOOL),
	MS("env", SC_MAP_STR, SC_MAP, NULL, 0),
	M("terminal"), M("stdin"),
	MS("labels", SC_MAP_STR, SC_LABELS, NULL, 0),
	MS("annotations", SC_MAP_STR, SC_MAP, NULL, 0),
	M("stop_signal"), M("stop_timeout"), M("timeout"), M("restart_policy"),
	M("restart_tries"), M("systemd"), M("sdnotifyMode"),
	MS("pidns", SC_OBJ, SC_SUB, &namespace_s, 2),
	MS("utsns", SC_OBJ, SC_SUB, &namespace_s, 4),
	M("hostname"), M("remove"),
	M("containerCreateCommand"), MT("timezone", SC_STR),
	MT("dependencyContainers", SC_LIST_STR),
	M("init_container_type"), M("personality"),
	MT("envmerge", SC_LIST_STR),
	M("unsetenv"), M("unsetenvall"), M("manage_password"),
	M("passwd_entry"), M("group_entry"), M("image"), M("raw_image_name"),
	M("image_os"), M("image_arch"), M("image_variant"),
	M("image_volume_mode"), M("init"),
	MS("mounts", SC_LIST_OBJ, SC_SUB_EACH, &oci_mount_s, 9),
	MS("volumes", SC_LIST_OBJ, SC_SUB_EACH, &named_volume_s, 10),
	MS("ipcns", SC_OBJ, SC_SUB, &namespace_s, 3),
	M("shm_size"), M("shm_size_systemd"),
	MT("work_dir", SC_STR),
	M("create_working_dir"), M("volatile"), M("user"), M("groups"),
	MT("cap_add", SC_LIST_STR), MT("cap_drop", SC_LIST_STR),
	M("no_new_privileges"),
	MT("selinux_opts", SC_LIST_STR), MT("apparmor_profile", SC_STR),
	MT("seccomp_policy", SC_STR), MT("seccomp_profile_path", SC_STR),
	MS("userns", SC_OBJ, SC_SUB, &namespace_s, 5),
	MS("idmappings", SC_OBJ, SC_SUB, &idmappings_s, 12),
	M("read_only_filesystem"), M("read_write_tmpfs"), M("umask"),
	MT("mask", SC_LIST_STR), MT("unmask", SC_LIST_STR),
	MS("cgroupns", SC_OBJ, SC_SUB, &namespace_s, 6),
	M("cgroups_mode"),
	MT("cgroup_parent", SC_STR),
	MS("netns", SC_OBJ, SC_SUB, &namespace_s, 7),
	MS("portmappings", SC_LIST_OBJ, SC_SUB_EACH, &portmapping_s, 8),
	MT("publish_image_ports", SC_BOOL),
	MS("expose", SC_ANY, SC_MAP, NULL, 0),
	M("networkOrder"), M("use_image_resolve_conf"), M("dns_server"),
	M("dns_search"), M("dns_option"), M("use_image_hostname"),
	M("use_image_hosts"), M("hostadd"),
	MS("Networks", SC_OBJ, SC_MAP_SUB, &per_network_s, 11),
	MS("resource_limits", SC_OBJ, SC_SUB, &resource_limits_s, 14),
	M("r_limits"),
	MT("oom_score_adj", SC_NUM),
	MS("weightDevice", SC_ANY, SC_MAP, NULL, 0),
	MS("throttleReadBpsDevice", SC_ANY, SC_MAP, NULL, 0),
	MS("throttleWriteBpsDevice", SC_ANY, SC_MAP, NULL, 0),
	MS("throttleReadIOPSDevice", SC_ANY, SC_MAP, NULL, 0),
	MS("throttleWriteIOPSDevice", SC_ANY, SC_MAP, NULL, 0),
	MS("unified", SC_ANY, SC_MAP, NULL, 0),
	M("healthconfig"), M("health_check_on_failure_action"),
	M("startupHealthConfig"),
	MT("healthLogDestination", SC_STR),
	M("healthMaxLogCount"), M("healthMaxLogSize"),
	MT("privileged", SC_BOOL),
	MT("devices", SC_LIST), MT("device_cgroup_rule", SC_LIST),
	MS("sysctl", SC_MAP_STR, SC_MAP, NULL, 0),
	MT("oci_runtime", SC_STR),
	MT("volumes_from", SC_LIST_STR),
	M("cpu_period"), M("cpu_quota"), M("static_ip"), M("static_ipv6"),
	M("static_mac"),
	MEND,
};
static const struct sc_refused libpod_create_r[] = {
	{ "rootfs", "rootfs",
	  "a host path as the container root filesystem is refused" },
	{ "rootfs_mapping", "rootfs",
	  "a host path as the container root filesystem is refused" },
	{ "rootfs_propagation", "rootfs",
	  "a host path as the container root filesystem is refused" },
	{ "rootfs_overlay", "rootfs",
	  "an overlay over a host root filesystem is refused" },
	{ "overlay_volumes", "overlay-volumes", D_OVERLAY },
	{ "image_volumes", "mount-type", NULL },
	{ "artifact_volumes", "mount-type", NULL },
	{ "env_host", "env-host",
	  "exporting the host environment into the container is refused" },
	{ "log_configuration", "log-configuration",
	  "a custom log driver can write to a host path and is refused" },
	{ "secret_env", "secrets", "daemon secrets are refused" },
	{ "secrets", "secrets", "daemon secrets are refused" },
	{ "cni_networks", "network",
	  "cni_networks is refused; attach networks through Networks" },
	{ "chroot_directories", "chroot-directories",
	  "host directories to chroot into are refused" },
	{ "init_path", "init-path",
	  "a host path as the container init binary is refused" },
	{ "conmon_pid_file", "pid-file", D_PIDFILE },
	{ "devices_from", "devices", D_DEVICES },
	{ "host_device_list", "devices", D_DEVICES },
	{ "gpus", "devices", D_DEVICES },
	{ "base_hosts_file", "host-path", NULL },
	/* host account names and ids into the container (test_body.c) */
	{ "hostusers", "host-path",
	  "hostusers copies host accounts into the container and is refused" },
	{ "removeImage", "remove-image",
	  "removing the image with the container is refused" },
	REND,
};
static const char *const libpod_create_k[] = {
	"namespace", "storage_opts", "network_options", "procfs_opts",
	"label_nested", "intelRdt", NULL,
};
const struct sc_schema sc_libpod_create = {
	"libpod create", libpod_create_m, libpod_create_r, libpod_create_k,
	0, 0, 14,
};

/* ---- Pod create (policy.md §7) ---- */

static const struct sc_member pod_create_m[] = {
	M("name"), M("hostname"), M("exit_policy"),
	MS("labels", SC_MAP_STR, SC_LABELS, NULL, 0),
	M("no_infra"), M("infra_command"), M("infra_image"), M("infra_name"),
	MS("ipcns", SC_OBJ, SC_SUB, &namespace_s, 3),
	M("shared_namespaces"), M("restart_policy"), M("restart_tries"),
	M("share_parent"), M("pod_create_command"),
	MS("pidns", SC_OBJ, SC_SUB, &namespace_s, 2),
	MS("userns", SC_OBJ, SC_SUB, &namespace_s, 5),
	MS("utsns", SC_OBJ, SC_SUB, &namespace_s, 4),
	MS("netns", SC_OBJ, SC_SUB, &namespace_s, 7),
	MS("portmappings", SC_LIST_OBJ, SC_SUB_EACH, &portmapping_s, 8),
	M("no_manage_resolv_conf"), M("dns_server"), M("dns_search"),
	M("dns_option"), M("no_manage_hostname"), M("no_manage_hosts"),
	M("hostadd"),
	MS("Networks", SC_OBJ, SC_MAP_SUB, &per_network_s, 11),
	MS("mounts", SC_LIST_OBJ, SC_SUB_EACH, &oci_mount_s, 9),
	MS("volumes", SC_LIST_OBJ, SC_SUB_EACH, &named_volume_s, 10),
	M("shm_size"), M("shm_size_systemd"),
	MS("resource_limits", SC_OBJ, SC_SUB, &resource_limits_s, 14),
	MT("security_opt", SC_LIST_STR),
	MS("idmappings", SC_OBJ, SC_SUB, &idmappings_s, 12),
	MS("sysctl", SC_MAP_STR, SC_MAP, NULL, 0),
	MT("cgroup_parent", SC_STR),
	MT("volumes_from", SC_LIST_STR),
	MEND,
};
static const struct sc_refused pod_create_r[] = {
	{ "infra_conmon_pid_file", "pid-file", D_PIDFILE },
	{ "pod_devices", "devices", D_DEVICES },
	{ "hostsFile", "host-path", NULL },
	{ "overlay_volumes", "overlay-volumes", D_OVERLAY },
	{ "image_volumes", "mount-type", NULL },
	{ "serviceContainerID", "dependency-containers", NULL },
	REND,
};
static const char *const pod_create_k[] = { "network_options", NULL };
const struct sc_schema sc_pod_create = {
	"pod create", pod_create_m, pod_create_r, pod_create_k, 0, 0, 14,
};

/* ---- Exec (policy.md §8) ---- */

/* Named refusals of exec and compat update, matched by fold (§8.1). */
static const struct sc_refused exec_fold_r[] = {
	{ "capadd", "cap-add", D_CAPADD },
	{ "cap_add", "cap-add", D_CAPADD },
	{ "capdrop", "cap-drop", "capability changes are not accepted on exec" },
	{ "cap_drop", "cap-drop", "capability changes are not accepted on exec" },
	{ "devices", "devices", D_DEVICES },
	{ "devicerequests", "devices", D_DEVICES },
	{ "devicecgrouprules", "devices", D_DEVICES },
	{ "device_cgroup_rule", "devices", D_DEVICES },
#define NS_EXEC "a namespace change is not accepted on exec"
	{ "pidmode", "namespace", NS_EXEC }, { "ipcmode", "namespace", NS_EXEC },
	{ "utsmode", "namespace", NS_EXEC },
	{ "usernsmode", "namespace", NS_EXEC },
	{ "cgroupnsmode", "namespace", NS_EXEC },
	{ "pidns", "namespace", NS_EXEC }, { "ipcns", "namespace", NS_EXEC },
	{ "utsns", "namespace", NS_EXEC }, { "userns", "namespace", NS_EXEC },
	{ "cgroupns", "namespace", NS_EXEC },
#undef NS_EXEC
	{ "networkmode", "network", "a network change is not accepted on exec" },
	{ "netns", "network", "a network change is not accepted on exec" },
	{ "securityopt", "security-opt",
	  "security options are not accepted on exec" },
	{ "security_opt", "security-opt",
	  "security options are not accepted on exec" },
	{ "cgroupparent", "cgroup-parent", D_CGPARENT },
	{ "cgroup_parent", "cgroup-parent", D_CGPARENT },
	{ "unmask", "security-opt", "unmask is refused" },
	REND,
};

/*
 * Container: docker-py (the Python SDK, docker-compose 1.29's `exec`) sends
 * the container's id or name in the body as well as in the path. Neither
 * daemon reads it; exec_create() drops it before forwarding. Not in the
 * allow-list of policy.md §8.1 (deviation: without it the SDK's exec_run
 * and `docker-compose exec` are refused as unknown-field).
 */
static const struct sc_member exec_create_m[] = {
	MT("Container", SC_STR),
	MT("User", SC_STR), MT("Privileged", SC_BOOL), M("Tty"),
	M("ConsoleSize"), M("AttachStdin"), M("AttachStderr"),
	M("AttachStdout"), M("Detach"), M("DetachKeys"),
	MT("Env", SC_LIST_STR), MT("WorkingDir", SC_STR), M("Cmd"),
	MEND,
};
const struct sc_schema sc_exec_create = {
	"exec create", exec_create_m, exec_fold_r, NULL, 1, 0, 1,
};

static const struct sc_member exec_start_m[] = {
	M("Detach"), M("Tty"), M("ConsoleSize"), M("h"), M("w"), MEND,
};
const struct sc_schema sc_exec_start = {
	"exec start", exec_start_m, NULL, NULL, 0, 0, 1,
};

static const struct sc_member exec_remove_m[] = { M("Force"), MEND };
const struct sc_schema sc_exec_remove = {
	"exec remove", exec_remove_m, NULL, NULL, 0, 0, 1,
};

/* ---- Update (policy.md §9) ---- */

static const struct sc_member compat_update_m[] = {
	M("BlkioDeviceReadBps"), M("BlkioDeviceReadIOps"),
	M("BlkioDeviceWriteBps"), M("BlkioDeviceWriteIOps"), M("BlkioWeight"),
	M("BlkioWeightDevice"), M("CpuCount"), M("CpuPercent"), M("CpuPeriod"),
	M("CpuQuota"), M("CpuRealtimePeriod"), M("CpuRealtimeRuntime"),
	M("CpuShares"), M("CpusetCpus"), M("CpusetMems"),
	M("IOMaximumBandwidth"), M("IOMaximumIOps"), M("KernelMemory"),
	M("KernelMemoryTCP"), M("Memory"), M("MemoryReservation"),
	M("MemorySwap"), M("MemorySwappiness"), M("NanoCpus"),
	M("OomKillDisable"), M("PidsLimit"), M("RestartPolicy"), M("Ulimits"),
	MEND,
};
const struct sc_schema sc_compat_update = {
	"compat update", compat_update_m, exec_fold_r, NULL, 1, 0, 1,
};

static const struct sc_member libpod_update_m[] = {
	M("cpu"), M("memory"), M("pids"), M("blockIO"), M("hugepageLimits"),
	M("BlkIOWeightDevice"), M("DeviceReadBPs"), M("DeviceWriteBPs"),
	M("DeviceReadIOPs"), M("DeviceWriteIOPs"), M("Env"), M("UnsetEnv"),
	M("r_limits"), M("health_cmd"), M("health_interval"),
	M("health_retries"), M("health_timeout"), M("health_start_period"),
	M("health_startup_cmd"), M("health_startup_interval"),
	M("health_startup_retries"), M("health_startup_timeout"),
	M("health_startup_success"), M("health_on_failure"),
	M("no_healthcheck"), M("health_max_log_size"),
	M("health_max_log_count"), MT("health_log_destination", SC_STR),
	MEND,
};
static const struct sc_refused libpod_update_r[] = {
	{ "devices", "devices", D_DEVICES }, REND,
};
static const char *const libpod_update_k[] = {
	"unified", "rdma", "network", NULL,
};
const struct sc_schema sc_libpod_update = {
	"libpod update", libpod_update_m, libpod_update_r, libpod_update_k,
	0, 0, 1,
};

/* ---- Volume create (policy.md §11) ---- */

static const struct sc_member compat_volume_m[] = {
	MT("Name", SC_STR), MT("Driver", SC_STR),
	MS("DriverOpts", SC_MAP_STR, SC_MAP, NULL, 0),
	MS("Labels", SC_MAP_STR, SC_LABELS, NULL, 0),
	M("ClusterVolumeSpec"),
	MEND,
};
const struct sc_schema sc_compat_volume_create = {
	"compat volume create", compat_volume_m, NULL, NULL, 0, 0, 1,
};

static const struct sc_member libpod_volume_m[] = {
	MT("Name", SC_STR), MT("Driver", SC_STR),
	MS("Label", SC_MAP_STR, SC_LABELS, NULL, 0),
	MS("Labels", SC_MAP_STR, SC_LABELS, NULL, 0),
	MS("Options", SC_MAP_STR, SC_MAP, NULL, 0),
	M("UID"), M("GID"),
	MEND,
};
static const char *const libpod_volume_k[] = { "IgnoreIfExists", NULL };
const struct sc_schema sc_libpod_volume_create = {
	"libpod volume create", libpod_volume_m, NULL, libpod_volume_k,
	0, 0, 1,
};

/* ---- Network create (policy.md §12) ---- */

static const struct sc_member ipam_pool_m[] = {
	M("Subnet"), M("IPRange"), M("Gateway"),
	MS("AuxiliaryAddresses", SC_ANY, SC_MAP, NULL, 0),
	MEND,
};
static const struct sc_schema ipam_pool_s = {
	"IPAM.Config", ipam_pool_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member ipam_m[] = {
	MT("Driver", SC_STR),
	MS("Options", SC_MAP_STR, SC_MAP, NULL, 0),
	MS("Config", SC_LIST_OBJ, SC_SUB_EACH, &ipam_pool_s, 3),
	MEND,
};
static const struct sc_schema ipam_s = {
	"IPAM", ipam_m, NULL, NULL, 0, 0, 0,
};

static const struct sc_member compat_network_m[] = {
	MT("Name", SC_STR), M("CheckDuplicate"), MT("Driver", SC_STR),
	MT("Scope", SC_STR), M("EnableIPv4"), M("EnableIPv6"),
	MS("IPAM", SC_OBJ, SC_SUB, &ipam_s, 2),
	M("Internal"), M("Attachable"), M("Ingress"), M("ConfigOnly"),
	M("ConfigFrom"),
	MS("Options", SC_MAP_STR, SC_MAP, NULL, 0),
	MS("Labels", SC_MAP_STR, SC_LABELS, NULL, 0),
	MEND,
};
const struct sc_schema sc_compat_network_create = {
	"compat network create", compat_network_m, NULL, NULL, 0, 0, 3,
};

static const struct sc_member libpod_network_m[] = {
	M("name"), M("id"), MT("driver", SC_STR),
	MT("network_interface", SC_STR), M("created"), M("subnets"),
	M("routes"), M("ipv6_enabled"), M("internal"), M("dns_enabled"),
	M("network_dns_servers"),
	MS("labels", SC_MAP_STR, SC_LABELS, NULL, 0),
	MS("options", SC_MAP_STR, SC_MAP, NULL, 0),
	MS("ipam_options", SC_MAP_STR, SC_MAP, NULL, 0),
	MEND,
};
const struct sc_schema sc_libpod_network_create = {
	"libpod network create", libpod_network_m, NULL, NULL, 0, 0, 1,
};

/* ---- Connect and disconnect (policy.md §12.3) ---- */

static const struct sc_member compat_connect_m[] = {
	MT("Container", SC_STR),
	MS("EndpointConfig", SC_OBJ, SC_SUB, &endpoint_s, 2),
	MEND,
};
const struct sc_schema sc_compat_connect = {
	"compat connect", compat_connect_m, NULL, NULL, 0, 0, 2,
};

static const struct sc_member disconnect_m[] = {
	MT("Container", SC_STR), M("Force"), MEND,
};
const struct sc_schema sc_disconnect = {
	"disconnect", disconnect_m, NULL, NULL, 0, 0, 1,
};

static const struct sc_member libpod_connect_m[] = {
	MT("container", SC_STR), M("static_ips"), M("aliases"),
	M("static_mac"), M("interface_name"), MT("options", SC_OBJ), MEND,
};
const struct sc_schema sc_libpod_connect = {
	"libpod connect", libpod_connect_m, NULL, NULL, 0, 0, 1,
};

/* ---- Commit (policy.md §13.1) ---- */

static const struct sc_member commit_m[] = { COMPAT_CONFIG_MEMBERS, MEND };
const struct sc_schema sc_commit = {
	"commit", commit_m, NULL, NULL, 0, 0, 1,
};
