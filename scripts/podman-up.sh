#!/bin/bash
# podman-up.sh DIR [overlay|vfs|auto] [busybox.tar]
# podman-up.sh --restart DIR
#
# Starts a private, rootful podman API service whose every piece of state lives
# in DIR (nothing is written to /etc; see README "Tests" for what rootful podman
# still writes under /run and /var/lib/containers/cache). Afterwards:
#
#   DIR/podman.sock   the API socket        DIR/service.pid  the service's pid
#   DIR/env           `. DIR/env` selects this private store for the local
#                     podman CLI and sets DOCKER_HOST/PODMAN_URL to the socket
#
# and the image localhost/busybox:latest (made from the host's busybox-static
# unless a tar is given) is present. Stop everything with podman-down.sh DIR.
#
# Driver: "auto" (default, or $CG_STORAGE_DRIVER) tries overlay and falls back
# to vfs when overlay cannot run a container here.
# --restart: start the service again on the store DIR already holds (after the service
# was killed: tests/sanitize/faults.sh), keeping its containers, images and volumes;
# fails when DIR is not a store podman-up.sh made or its service still answers.
# Idempotent: a DIR whose service answers is reused; a DIR left half-started
# (or by a killed run) is torn down with podman-down.sh and started afresh.
# Its default network is its own (bridge cg<hash>, a 10.x.y.0/24 subnet, and networks
# it creates come from 10.<100-189>.0.0/16), so that several private services run side
# by side. Pitfalls built in (measured on this kind of machine):
#   * runtime must be runc (crun: "cgroups in hybrid mode not supported");
#   * default_ulimits must stay at or below the hard limits, otherwise every
#     container fails with "error setting rlimit type 7/6";
#   * CONTAINER_HOST must never be exported (it makes the local CLI remote).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib/private-daemon.sh"

# -h/--help: the comment above; --restart DIR; any other DIR starting with "-" is a mistake
RESTART=0
case ${1-} in
  -h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
  --restart) RESTART=1; shift; [ $# -eq 1 ] || { echo "usage: $0 --restart DIR" >&2; exit 2; } ;;
  -*) set -- ;;
esac
[ $# -ge 1 ] && [ $# -le 3 ] || { echo "usage: $0 DIR [overlay|vfs|auto] [busybox.tar]" >&2; exit 2; }
T=$(realpath -m -- "$1")
DRV=${2:-${CG_STORAGE_DRIVER:-auto}}
TAR=${3:-}
case $DRV in overlay|vfs|auto) ;; *) echo "$0: driver must be overlay, vfs or auto" >&2; exit 2;; esac
case $T in /|/tmp|/var|/var/tmp|/run|/home|/root|/usr|/etc) echo "$0: refusing DIR $T" >&2; exit 2;; esac
[ -z "$TAR" ] || TAR=$(realpath -- "$TAR")
SOCK=$T/podman.sock
if [ ${#SOCK} -gt 107 ]; then echo "$0: socket path too long: $SOCK" >&2; exit 2; fi
unset CONTAINER_HOST CONTAINER_CONNECTION DOCKER_CONFIG REGISTRY_AUTH_FILE   # podman fails on a DOCKER_CONFIG dir without config.json

for c in podman runc curl; do
  command -v $c >/dev/null 2>&1 || { echo "$0: $c not found (run scripts/install-deps.sh)" >&2; exit 1; }
done

ping_ok() { curl -sf -m 2 --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1; }

service_pid_ok() {  # DIR/service.pid names a live podman service for this DIR
  pid_is "$T/service.pid" "system service --time=0 unix://$SOCK"
}

# start_service WHAT: the API service on DIR's store, in its own session (it outlives
# the caller, e.g. the demo, and ignores its signals); exits 0 once it answers
start_service() {
  . "$T/env"
  setsid podman system service --time=0 "unix://$SOCK" </dev/null >>"$T/service.log" 2>&1 &
  echo $! > "$T/service.pid"
  for _ in $(seq 1 1000); do
    if ping_ok; then
      echo "podman-up: podman service pid $(cat "$T/service.pid") on $SOCK ($1)"
      exit 0
    fi
    kill -0 "$(cat "$T/service.pid")" 2>/dev/null || { echo "$0: podman service died:" >&2; cat "$T/service.log" >&2; exit 1; }
    sleep 0.02
  done
  echo "$0: podman service did not answer on $SOCK within 20 s" >&2
  exit 1
}

# --- restart the service of an existing store ---------------------------------
if [ $RESTART = 1 ]; then
  [ -f "$T/.cg-podman" ] && [ -f "$T/env" ] || { echo "$0: $T holds no store made by podman-up.sh" >&2; exit 1; }
  if ping_ok; then echo "$0: the service on $SOCK still answers" >&2; exit 1; fi
  rm -f "$SOCK"
  start_service "restarted on the existing store"
fi

# --- reuse a running service ------------------------------------------------
if [ -f "$T/env" ] && service_pid_ok && ping_ok; then
  . "$T/env"
  if ! podman image exists localhost/busybox:latest 2>/dev/null; then
    [ -n "$TAR" ] || { TAR=$T/busybox.tar; "$HERE/mk-busybox-tar.sh" "$TAR"; }
    podman import -q "$TAR" localhost/busybox:latest >/dev/null
  fi
  echo "podman-up: reusing the service already running in $T (pid $(cat "$T/service.pid"))"
  exit 0
fi

# --- a stale or half-started DIR: tear it down first -------------------------
claim_dir "$T" .cg-podman      # marks DIR as ours: podman-down.sh refuses other dirs
mkdir -p "$T"/{root,run,libpod,networks,volumes,tmp}

# A default network of this service's own: its own id (hence its own netavark iptables
# chains), bridge and subnet. Several private services on one host (make check beside
# another make check) would otherwise share podman's built-in default network: one id,
# bridge podman0, 10.88.0.0/16, and one service's teardown races another's set-up
# ("netavark: unable to append rule ... No chain/target/match by that name").
NET_ID=$(printf '%s' "$T" | sha256sum | cut -c1-64)
NET_NAME=cg-${NET_ID:0:12}
NET_A=$(( 16#${NET_ID:12:2} % 50 + 200 )); NET_B=$(( 16#${NET_ID:14:2} ))
NET_POOL=$(( 16#${NET_ID:16:2} % 90 + 100 ))
write_net() {
  cat > "$T/networks/$NET_NAME.json" <<NET
{
     "name": "$NET_NAME",
     "id": "$NET_ID",
     "driver": "bridge",
     "network_interface": "cg${NET_ID:0:8}",
     "created": "2026-01-01T00:00:00Z",
     "subnets": [ { "subnet": "10.$NET_A.$NET_B.0/24", "gateway": "10.$NET_A.$NET_B.1" } ],
     "ipv6_enabled": false,
     "internal": false,
     "dns_enabled": false,
     "ipam_options": { "driver": "host-local" }
}
NET
}

write_conf() {
  write_net
  cat > "$T/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$T/libpod"
static_dir = "$T/root/libpod"
volume_path = "$T/volumes"
image_copy_tmp_dir = "$T/tmp"
[network]
network_backend = "netavark"
network_config_dir = "$T/networks"
default_network = "$NET_NAME"
default_subnet_pools = [ { "base" = "10.$NET_POOL.0.0/16", "size" = 24 } ]
CONF
  cat > "$T/storage.conf" <<CONF
[storage]
driver = "$1"
graphroot = "$T/root"
runroot = "$T/run"
CONF
  cat > "$T/env" <<ENV
# generated by podman-up.sh; source it. Never export CONTAINER_HOST.
export CONTAINERS_CONF=$T/containers.conf
export CONTAINERS_STORAGE_CONF=$T/storage.conf
export TMPDIR=$T/tmp
export DOCKER_HOST=unix://$SOCK
export PODMAN_URL=unix://$SOCK
ENV
}

if [ -z "$TAR" ]; then TAR=$T/busybox.tar; "$HERE/mk-busybox-tar.sh" "$TAR"; fi

# import the image and run one container locally: proves storage driver,
# runtime and ulimits before the service starts
try_driver() {
  write_conf "$1"
  ( . "$T/env"
    podman import -q "$TAR" localhost/busybox:latest >/dev/null &&
    timeout 60 podman run --rm --network none localhost/busybox true ) >"$T/smoke.log" 2>&1
}
wipe_storage() {
  findmnt -rn -o TARGET | grep -F "$T/" | sort -r | xargs -r umount 2>/dev/null || true
  rm -rf "$T/root" "$T/run" "$T/libpod" "$T/tmp"; mkdir -p "$T"/{root,run,libpod,tmp}
}
pick_driver overlay wipe_storage "$T/smoke.log"

start_service "driver $DRV"
