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
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/private-daemon.sh"
down_args "$@"   # -h/--help: the comment above; sets T
unset CONTAINER_HOST CONTAINER_CONNECTION DOCKER_CONFIG REGISTRY_AUTH_FILE   # podman fails on a DOCKER_CONFIG dir without config.json
claimed_dir "$T" .cg-podman

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

# 3. leftovers naming DIR/ (conmons, cleanup processes, clients; a gateway in front
#    of this service is a client, not ours to kill)
kill_naming_dir "$T" gateways

# 4. mounts (lazily from the 4th try), then the directory
unmount_remove "$T" 4
exit 0
