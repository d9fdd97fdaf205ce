#!/bin/bash
# dockerd-down.sh DIR
#
# Undoes dockerd-up.sh DIR:
#   1. while the daemon answers: removes every container (forced) and every user
#      network, remembering the Linux bridges (br-<id12>) of those networks;
#   2. SIGKILLs the init process of every container still running (a daemon that was
#      killed could not remove them; their pid namespaces die with the init, and
#      with them the containers' veth ends), known from containerd's state in DIR;
#   3. stops dockerd, then containerd, by their pids (SIGTERM, then SIGKILL);
#   4. SIGKILLs every process whose command line names DIR/ (containerd shims,
#      left-over clients), then removes the cgroups of the containers of step 2;
#   5. deletes the remembered bridges (and any br-<id12> of a network whose state
#      is still in DIR) that a killed daemon left behind;
#   6. unmounts every mount under DIR (deepest first: overlay2 layers, shm, netns
#      bind mounts) and removes DIR.
#   7. with CG_DOCKERD_NET=stock (DIR/bridge): the default bridge dockerd-up.sh made
#      and, once no other dockerd runs with --iptables=true, the DOCKER* chains and
#      the rules that jump to them.
# dockerd-up.sh never makes docker0; a docker0 is removed only when DIR/docker0 says
# this DIR created it (never the case with the flags of dockerd-up.sh).
# Safe to run twice, on a half-started DIR, or on a DIR that no longer exists.
# Refuses a directory that dockerd-up.sh did not make (no DIR/.cg-dockerd).
set -uo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/private-daemon.sh"
down_args "$@"   # -h/--help: the comment above; sets T
claimed_dir "$T" .cg-dockerd
SOCK=$T/docker.sock
BR=$(cat "$T/bridge" 2>/dev/null)   # step 7; DIR is gone by then
case $BR in cgd[0-9a-f]*) ;; *) BR= ;; esac
unset DOCKER_HOST DOCKER_CONTEXT DOCKER_TLS_VERIFY DOCKER_CERT_PATH
export DOCKER_CONFIG=$T/client
mkdir -p "$DOCKER_CONFIG" 2>/dev/null; [ -f "$DOCKER_CONFIG/config.json" ] || echo '{}' > "$DOCKER_CONFIG/config.json" 2>/dev/null
dk() { DOCKER_HOST=unix://$SOCK timeout 30 docker "$@"; }

stop_pid() {  # FILE NEEDLE: stop the process named in FILE if its command line has NEEDLE
  local pid
  pid=$(cat "$1" 2>/dev/null || true)
  case $pid in ''|*[!0-9]*) return 0 ;; esac
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2" || return 0
  kill "$pid" 2>/dev/null
  for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.05; done
  kill -9 "$pid" 2>/dev/null
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.05; done
}

# 1. containers and user networks, through the daemon while it answers
bridges=()
if curl -sf -m 2 --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1; then
  ids=$(dk ps -aq 2>/dev/null)
  [ -z "$ids" ] || dk rm -f $ids >/dev/null 2>&1
  for n in $(dk network ls -q --filter driver=bridge 2>/dev/null); do
    bridges+=("br-${n:0:12}")
  done
  dk network prune -f >/dev/null 2>&1
fi
# networks whose state survives in DIR (a killed daemon): their ids name the bridges
if [ -d "$T/data/network/files" ]; then
  for n in $(ip -o link show type bridge 2>/dev/null | awk -F': ' '{print $2}' | grep -E '^br-[0-9a-f]{12}$'); do
    grep -qa -- "${n#br-}" "$T/data/network/files/local-kv.db" 2>/dev/null && bridges+=("$n")
  done
fi

# 2. containers still running: containerd's task state names each init pid. A pid is
#    killed only while its cgroup names the container id (never a reused pid).
ctr_ids=()
for f in "$T"/containerd/state/io.containerd.runtime.v2.task/*/*/init.pid; do
  [ -f "$f" ] || continue
  id=$(basename "$(dirname "$f")")
  ctr_ids+=("$id")
  pid=$(cat "$f" 2>/dev/null)
  case $pid in ''|*[!0-9]*) continue ;; esac
  grep -qF -- "$id" "/proc/$pid/cgroup" 2>/dev/null && kill -9 "$pid" 2>/dev/null
done

# 3. the daemons, by pid
stop_pid "$T/dockerd.pid" "unix://$SOCK"
stop_pid "$T/containerd.pid" "$T/containerd.toml"

# 4. leftovers naming DIR/ (shims, clients), then the killed containers' cgroups
kill_naming_dir "$T"
for id in "${ctr_ids[@]}"; do
  case $id in *[!0-9a-f]*|'') continue ;; esac   # a container id, nothing else
  find /sys/fs/cgroup -mindepth 2 -maxdepth 4 -type d -name "$id" 2>/dev/null | sort -r |
    while read -r c; do rmdir "$c" 2>/dev/null; done
done

# 5. bridges left by a daemon that did not get to remove its networks
for b in "${bridges[@]}"; do
  ip link show "$b" >/dev/null 2>&1 && ip link del "$b" 2>/dev/null
done
if [ -f "$T/docker0" ] && ip link show docker0 >/dev/null 2>&1; then ip link del docker0 2>/dev/null; fi

# 6. mounts (lazily from the 3rd try), then the directory
unmount_remove "$T" 3

# 7. the default bridge of CG_DOCKERD_NET=stock, and the iptables chains of dockerd
#    (its networks' rules went with the networks in step 1) unless another dockerd
#    with iptables still uses them
if [ -n "$BR" ]; then
  ip link show "$BR" >/dev/null 2>&1 && ip link del "$BR" 2>/dev/null
  if command -v iptables >/dev/null 2>&1 && ! pgrep -f -- 'dockerd .*--iptables=true' >/dev/null 2>&1; then
    for tc in filter:FORWARD nat:PREROUTING nat:OUTPUT nat:POSTROUTING; do
      t=${tc%%:*}; c=${tc#*:}
      iptables -t "$t" -S "$c" 2>/dev/null | grep -E -- '-j DOCKER(-[A-Z0-9-]+)?( |$)' |
        sed 's/^-A //' | while read -r rule; do eval "iptables -t $t -D $rule" 2>/dev/null; done
    done
    for t in filter nat; do
      for c in $(iptables -t "$t" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^DOCKER/ {print $2}'); do
        iptables -t "$t" -F "$c" 2>/dev/null
      done
      for c in $(iptables -t "$t" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^DOCKER/ {print $2}'); do
        iptables -t "$t" -X "$c" 2>/dev/null
      done
    done
  fi
fi
exit 0
