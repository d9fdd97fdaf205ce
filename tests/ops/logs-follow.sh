#!/bin/bash
# tests/ops/logs-follow.sh — with a real private podman service (scripts/podman-up.sh):
# the gateway stays up past --idle-timeout while `docker logs -f` is attached and
# exits after it ends (cli.md §9.2); each request gets its access line (§14.3).
# Needs root, podman, runc and the docker CLI; exit 77 (skip) otherwise, or when
# the podman service cannot start here. Reuses $CG_PODMAN_DIR when set.
# Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ] || ! command -v docker >/dev/null || ! command -v podman >/dev/null; then
  echo "SKIP logs-follow: needs root, docker and podman"; exit 77
fi
if [ -n "${CG_PODMAN_DIR:-}" ]; then PM=$CG_PODMAN_DIR; OWN=0; else PM=$OPS_TMP/pm; OWN=1; fi
if [ $OWN = 1 ]; then
  if ! timeout 300 "$OPS_REPO/scripts/podman-up.sh" "$PM" auto >"$OPS_TMP/pm-up.log" 2>&1; then
    echo "SKIP logs-follow: podman service did not start (see scripts/podman-up.sh)"
    tail -5 "$OPS_TMP/pm-up.log"
    "$OPS_REPO/scripts/podman-down.sh" "$PM" >/dev/null 2>&1
    exit 77
  fi
  trap '"$OPS_REPO/scripts/podman-down.sh" "$PM" >/dev/null 2>&1; ops_cleanup' EXIT
fi
export DOCKER_CONFIG=$OPS_TMP/dc; mkdir -p "$DOCKER_CONFIG"; echo '{}' >"$DOCKER_CONFIG/config.json"
ops_git_project follow
"$GW" serve --project "$P" --backend podman --podman-socket "$PM/podman.sock" --egress off \
  --idle-timeout 2 2>"$OPS_TMP/gw.log" &
GWPID=$!; OPS_PIDS+=("$GWPID")
ops_wait_for "[ -S '$R/docker.sock' ]" 15
dk() { DOCKER_HOST="unix://$R/docker.sock" timeout 60 docker "$@"; }
ID=$(dk run -d --network none localhost/busybox sh -c 'for i in 1 2 3 4 5 6; do echo tick $i; sleep 1; done')
check "docker run -d through the gateway" [ -n "$ID" ]
dk logs -f "$ID" >"$OPS_TMP/follow.out" 2>&1 &
FOLLOW=$!; OPS_PIDS+=("$FOLLOW")
sleep 4.5
check "gateway alive past --idle-timeout 2 while logs -f is attached" kill -0 "$GWPID"
wait "$FOLLOW"
check "logs -f got every line" grep -q 'tick 6' "$OPS_TMP/follow.out"
dk rm -f "$ID" >/dev/null 2>&1
ops_wait_for "! kill -0 $GWPID 2>/dev/null" 8
check "gateway exits after the last connection closed" bash -c "! kill -0 $GWPID 2>/dev/null"
check "idle-exit logged" grep -q 'INFO idle for 2s; exiting$' "$OPS_TMP/gw.log"
check "access line for the logs request" grep -qE "access conn=[0-9]+ socket=docker method=GET path=/v[0-9.]+/containers/$ID/logs decision=allow code=- status=200" "$OPS_TMP/gw.log"
ops_summary
