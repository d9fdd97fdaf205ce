/*
 * Schema tables and the schema checker (policy.md §0.2-§0.5, §3 steps 3-6).
 *
 * The tables below are the allow-lists of policy.md written out: a key, its
 * type guard, and how the checker descends into its value. The daemons
 * decode with Go (case-insensitive field matching, last duplicate wins), so
 * a key is accepted only in its canonical spelling, and any key the gateway
 * does not know is refused rather than forwarded: a field we cannot see is
 * a field we cannot police.
 */
#include "policy/schema.h"

#include <stdio.h>
#include <string.h>

#include "policy/json.h"
#include "policy/policy.h"

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
	/* issue 7 item 4: host account names and ids into the container */
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

/* ==================================================================== */
/* The checker                                                          */
/* ==================================================================== */

#define SC_PATH_MAX 600

enum sc_pass { PASS_GUARDS, PASS_SPELLING, PASS_KEYS };

struct walk {
	enum sc_pass pass;
	int group;
	struct cg_refusal *r;
	size_t len;
	char path[SC_PATH_MAX];
};

static const struct sc_member *
find_member(const struct sc_schema *s, const char *key)
{
	const struct sc_member *m;

	if (s == NULL || key == NULL)
		return NULL;
	for (m = s->members; m->key != NULL; m++)
		if (strcmp(m->key, key) == 0)
			return m;
	return NULL;
}

static const struct sc_refused *
find_refused(const struct sc_schema *s, const char *key, int by_fold)
{
	const struct sc_refused *f;

	if (s->refused == NULL)
		return NULL;
	for (f = s->refused; f->key != NULL; f++)
		if (by_fold ? json_fold_eq(key, f->key) : strcmp(key, f->key) == 0)
			return f;
	return NULL;
}

static int
is_known(const struct sc_schema *s, const char *key)
{
	const char *const *k;

	if (s->known == NULL)
		return 0;
	for (k = s->known; *k != NULL; k++)
		if (strcmp(*k, key) == 0)
			return 1;
	return 0;
}

/* The known key whose fold equals key's but which is spelled otherwise. */
static const char *
fold_twin(const struct sc_schema *s, const char *key)
{
	const struct sc_member *m;
	const struct sc_refused *f;
	const char *const *k;

	for (m = s->members; m->key != NULL; m++)
		if (json_fold_eq(key, m->key))
			return m->key;
	if (s->refused != NULL && !s->refused_by_fold)
		for (f = s->refused; f->key != NULL; f++)
			if (json_fold_eq(key, f->key))
				return f->key;
	if (s->known != NULL)
		for (k = s->known; *k != NULL; k++)
			if (json_fold_eq(key, *k))
				return *k;
	return NULL;
}

static void
path_push(struct walk *w, const char *key)
{
	char q[260];
	int n;

	cg_quote(key, strlen(key), q);
	n = snprintf(w->path + w->len, sizeof(w->path) - w->len, "%s%s",
	    w->len ? "." : "", q);
	if (n > 0)
		w->len += (size_t)n < sizeof(w->path) - w->len ?
		    (size_t)n : sizeof(w->path) - w->len - 1;
}

static void
path_push_index(struct walk *w, int i)
{
	int n;

	n = snprintf(w->path + w->len, sizeof(w->path) - w->len, "[%d]", i);
	if (n > 0)
		w->len += (size_t)n < sizeof(w->path) - w->len ?
		    (size_t)n : sizeof(w->path) - w->len - 1;
}

static void
path_pop(struct walk *w, size_t len)
{
	w->len = len;
	w->path[len] = '\0';
}

static int
all_children(const cJSON *v, int type)
{
	const cJSON *c;

	for (c = v->child; c != NULL; c = c->next)
		if ((c->type & 0xff) != type)
			return 0;
	return 1;
}

/* §0.5: null always passes. */
static int
type_ok(enum sc_type t, const cJSON *v)
{
	if (cJSON_IsNull(v))
		return 1;
	switch (t) {
	case SC_ANY:
		return 1;
	case SC_OBJ:
		return cJSON_IsObject(v);
	case SC_LIST:
		return cJSON_IsArray(v);
	case SC_LIST_STR:
		return cJSON_IsArray(v) && all_children(v, cJSON_String);
	case SC_LIST_OBJ:
		return cJSON_IsArray(v) && all_children(v, cJSON_Object);
	case SC_MAP_STR:
		return cJSON_IsObject(v) && all_children(v, cJSON_String);
	case SC_STR:
		return cJSON_IsString(v);
	case SC_BOOL:
		return cJSON_IsBool(v);
	case SC_NUM:
		return json_is_number(v);
	}
	return 0;
}

/* Values of a map whose values are schema objects (or arrays of them). */
static int
map_values_ok(const struct sc_member *d, const cJSON *v)
{
	const cJSON *c;

	if (!cJSON_IsObject(v))
		return 1;	/* the member's own guard decides */
	for (c = v->child; c != NULL; c = c->next) {
		if (cJSON_IsNull(c))
			continue;
		if (d->shape == SC_MAP_SUB && !cJSON_IsObject(c))
			return 0;
		if (d->shape == SC_MAP_SUB_EACH &&
		    !(cJSON_IsArray(c) && all_children(c, cJSON_Object)))
			return 0;
	}
	return 1;
}

static int
refuse_path(struct walk *w, const char *code, const char *fmt_tail,
    const char *key)
{
	size_t save = w->len;
	int rc;

	path_push(w, key);
	if (strcmp(fmt_tail, "type") == 0)
		rc = cg_refuse(w->r, code, "%s has the wrong type", w->path);
	else
		rc = cg_refuse(w->r, code, "%s is not accepted by the gateway",
		    w->path);
	path_pop(w, save);
	return rc;
}

/* One schema-checked object, for the current pass. */
static int
check_object(struct walk *w, const struct sc_schema *s, const cJSON *obj)
{
	const cJSON *m;
	const struct sc_member *d;
	const struct sc_refused *f;
	const char *twin;
	char q[260];

	for (m = obj->child; m != NULL; m = m->next) {
		const char *key = m->string;

		switch (w->pass) {
		case PASS_GUARDS:	/* §0.5 */
			d = find_member(s, key);
			if (d != NULL && (!type_ok(d->type, m) ||
			    !map_values_ok(d, m)))
				return refuse_path(w, "malformed", "type", key);
			break;
		case PASS_SPELLING:	/* §0.3.1 */
			if (find_member(s, key) != NULL || is_known(s, key) ||
			    (!s->refused_by_fold && find_refused(s, key, 0)))
				break;
			twin = fold_twin(s, key);
			if (twin != NULL)
				return cg_refuse(w->r, "ambiguous-field",
				    "%s is not the canonical spelling of %s",
				    cg_quote(key, strlen(key), q), twin);
			break;
		case PASS_KEYS:		/* §0.3.2-3 */
			f = NULL;
			if (!s->refused_by_fold) {
				f = find_refused(s, key, 0);
				if (f != NULL && json_truthy(m))
					goto refused;
			}
			if (find_member(s, key) != NULL)
				break;
			if (s->refused_by_fold) {
				f = find_refused(s, key, 1);
				if (f != NULL && json_truthy(m))
					goto refused;
			}
			if (f != NULL && !is_known(s, key))
				break;	/* refused-table key, falsy */
			return refuse_path(w, "unknown-field", "key", key);
refused:
			if (f->detail == NULL)
				return cg_refuse(w->r, f->code, "%s is refused",
				    cg_quote(key, strlen(key), q));
			/* a detail with "; " already says what to do */
			return cg_refuse_hint(w->r, f->code,
			    strstr(f->detail, "; ") != NULL ? CG_HINT_IN_DETAIL :
			    "", "%s", f->detail);
		}
	}
	return 0;
}

static int visit(struct walk *w, const struct sc_schema *s, const cJSON *obj,
    int group);

static int
visit_member(struct walk *w, const struct sc_member *d, const cJSON *v,
    int group)
{
	const cJSON *c, *e;
	int i, j;
	size_t save;

	switch (d->shape) {
	case SC_SUB:
		if (cJSON_IsObject(v))
			return visit(w, d->sub, v, group);
		return 0;
	case SC_SUB_EACH:
		if (!cJSON_IsArray(v))
			return 0;
		for (c = v->child, i = 0; c != NULL; c = c->next, i++) {
			if (!cJSON_IsObject(c))
				continue;
			save = w->len;
			path_push_index(w, i);
			if (visit(w, d->sub, c, group) != 0)
				return -1;
			path_pop(w, save);
		}
		return 0;
	case SC_MAP_SUB:
	case SC_MAP_SUB_EACH:
		if (!cJSON_IsObject(v))
			return 0;
		for (c = v->child; c != NULL; c = c->next) {
			save = w->len;
			path_push(w, c->string);
			if (d->shape == SC_MAP_SUB && cJSON_IsObject(c)) {
				if (visit(w, d->sub, c, group) != 0)
					return -1;
			} else if (d->shape == SC_MAP_SUB_EACH &&
			    cJSON_IsArray(c)) {
				for (e = c->child, j = 0; e != NULL;
				    e = e->next, j++) {
					size_t save2 = w->len;

					if (!cJSON_IsObject(e))
						continue;
					path_push_index(w, j);
					if (visit(w, d->sub, e, group) != 0)
						return -1;
					path_pop(w, save2);
				}
			}
			path_pop(w, save);
		}
		return 0;
	case SC_LEAF:
	case SC_MAP:
	case SC_LABELS:
		return 0;
	}
	return 0;
}

/* Check obj if it belongs to the current group, then descend. */
static int
visit(struct walk *w, const struct sc_schema *s, const cJSON *obj, int group)
{
	const cJSON *m;
	const struct sc_member *d;
	size_t save;

	if (!s->opaque && group == w->group && check_object(w, s, obj) != 0)
		return -1;
	for (m = obj->child; m != NULL; m = m->next) {
		d = find_member(s, m->string);
		if (d == NULL || d->sub == NULL)
			continue;
		save = w->len;
		path_push(w, m->string);
		if (visit_member(w, d, m, d->group ? d->group : group) != 0)
			return -1;
		path_pop(w, save);
	}
	return 0;
}

/* ---- §0.2 collisions, over every object of the tree ---- */

enum ckind { C_STRUCT, C_MAP, C_LABELS };

struct cctx {
	enum ckind kind;
	const struct sc_schema *s;	/* struct: its schema (NULL opaque);
					 * map: schema of its values */
};

static int collide(const cJSON *node, struct cctx cx, struct cg_refusal *r);

static struct cctx
member_ctx(const struct sc_member *d)
{
	struct cctx cx = { C_STRUCT, NULL };

	if (d == NULL)
		return cx;
	switch (d->shape) {
	case SC_SUB:
	case SC_SUB_EACH:
		cx.s = d->sub;
		break;
	case SC_MAP:
		cx.kind = C_MAP;
		break;
	case SC_LABELS:
		cx.kind = C_LABELS;
		break;
	case SC_MAP_SUB:
	case SC_MAP_SUB_EACH:
		cx.kind = C_MAP;
		cx.s = d->sub;
		break;
	case SC_LEAF:
		break;
	}
	return cx;
}

static int
collide(const cJSON *node, struct cctx cx, struct cg_refusal *r)
{
	const cJSON *c;
	const char *a, *b;
	char qa[260], qb[260];
	struct cctx child = { C_STRUCT, NULL };

	if (cJSON_IsArray(node)) {
		for (c = node->child; c != NULL; c = c->next)
			if (collide(c, cx, r) != 0)
				return -1;
		return 0;
	}
	if (!cJSON_IsObject(node))
		return 0;
	if (json_find_collision(node, cx.kind == C_STRUCT, &a, &b))
		return cg_refuse(r, "ambiguous-field", "%s and %s name the same field",
		    cg_quote(a, strlen(a), qa), cg_quote(b, strlen(b), qb));
	if (cx.kind == C_LABELS)
		for (c = node->child; c != NULL; c = c->next)
			if (json_fold_eq(c->string, CG_LABEL_KEY) &&
			    strcmp(c->string, CG_LABEL_KEY) != 0)
				return cg_refuse(r, "ambiguous-field",
				    "%s is not the canonical spelling of %s",
				    cg_quote(c->string, strlen(c->string), qa),
				    CG_LABEL_KEY);
	for (c = node->child; c != NULL; c = c->next) {
		if (cx.kind == C_STRUCT) {
			child = member_ctx(find_member(cx.s, c->string));
		} else {
			child.kind = C_STRUCT;
			child.s = cx.s;
		}
		if (collide(c, child, r) != 0)
			return -1;
	}
	return 0;
}

int
schema_check(const struct sc_schema *root, const cJSON *obj,
    struct cg_refusal *r)
{
	static const enum sc_pass passes[] = {
		PASS_GUARDS, PASS_SPELLING, PASS_KEYS,
	};
	struct cctx top = { C_STRUCT, root };
	struct walk w;
	size_t p;
	int g, groups;

	if (collide(obj, top, r) != 0)		/* §3 step 3 */
		return -1;
	if (root == NULL)
		return 0;
	groups = root->groups > 0 ? root->groups : 1;
	for (p = 0; p < sizeof(passes) / sizeof(passes[0]); p++) {
		for (g = 1; g <= groups; g++) {	/* steps 4, 5, 6 */
			memset(&w, 0, sizeof(w));
			w.pass = passes[p];
			w.group = g;
			w.r = r;
			if (visit(&w, root, obj, 1) != 0)
				return -1;
		}
	}
	return 0;
}
