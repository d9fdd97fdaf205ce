#!/bin/bash
# podman-down.sh DIR
#
# Undoes podman-up.sh DIR: removes the pods and containers of the private store,
# stops the service by its pid, SIGKILLs every process whose command line names
# DIR/ (conmons of exec sessions linger 300 s after their container is gone and
# would otherwise re-mount storage while DIR is being removed), unmounts every
# mount under DIR (deepest first) and removes DIR.
# Safe to run twice, on a half-started DIR, or on a DIR that no longer exists.
# Refuses a directory that podman-up.sh did not make (no DIR/.cg-podman).
set -uo pipefail
# -h/--help: the comment above; any other DIR starting with "-" is a mistake
case ${1-} in
  -h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
  -*) set -- ;;
esac
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
T=$(realpath -m -- "$1")
unset CONTAINER_HOST CONTAINER_CONNECTION DOCKER_CONFIG REGISTRY_AUTH_FILE   # podman fails on a DOCKER_CONFIG dir without config.json
[ -e "$T" ] || exit 0
if [ ! -f "$T/.cg-podman" ]; then
  echo "$0: $T was not made by podman-up.sh (no .cg-podman); refusing to remove it" >&2
  exit 1
fi

ancestors=" $$ "
p=$$
while [ "$p" -gt 1 ] 2>/dev/null; do
  p=$(awk '/^PPid:/ {print $2}' "/proc/$p/status" 2>/dev/null) || break
  [ -n "$p" ] || break
  ancestors="$ancestors$p "
done
pids_of_T() {  # processes whose command line names this private dir
  local d p cmd
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    case $ancestors in *" $p "*) continue;; esac
    cmd=$({ tr '\0' ' ' < "$d/cmdline"; } 2>/dev/null) || continue
    # a gateway in front of this service is a client, not ours to kill
    case ${cmd%% *} in */container-gateway|container-gateway) continue ;; esac
    case $cmd in *"$T/"*) echo "$p" ;; esac
  done
  return 0
}

# 1. containers and pods, with the local CLI on the private store only (never
#    without our own conf files: that would act on the system's store)
if [ -f "$T/containers.conf" ] && [ -f "$T/storage.conf" ] && [ -f "$T/env" ]; then
  (
    . "$T/env"
    timeout 60 podman pod rm -af -t 0 >/dev/null 2>&1
    timeout 60 podman rm -af -t 0 >/dev/null 2>&1
  ) || true
fi

# 2. the service, by pid (only if that pid still is our service)
pid=$(cat "$T/service.pid" 2>/dev/null || true)
case $pid in ''|*[!0-9]*) pid= ;; esac
if [ -n "$pid" ] && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "unix://$T/podman.sock"; then
  kill "$pid" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  kill -9 "$pid" 2>/dev/null
fi

# 3. leftovers naming DIR/ (conmons, cleanup processes, clients)
for _ in $(seq 50); do
  left=$(pids_of_T)
  [ -z "$left" ] && break
  kill -9 $left 2>/dev/null
  sleep 0.1
done

# 4. mounts, then the directory
for i in 1 2 3 4 5; do
  findmnt -rn -o TARGET | grep -E "^$(printf '%s' "$T" | sed 's/[][\.*^$+?(){}|/]/\\&/g')(/|$)" | sort -r |
    while read -r m; do umount "$m" 2>/dev/null || { [ "$i" -ge 4 ] && umount -l "$m" 2>/dev/null; }; done
  rm -rf "$T" 2>/dev/null && break
  sleep 0.2
done
if [ -e "$T" ]; then
  echo "$0: could not remove $T:" >&2
  findmnt -rn -o TARGET | grep -F "$T" >&2
  exit 1
fi
exit 0
