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
ops_git_project follow; mkdir -p "$P/data"
IDLE=2
# Nothing races the idle timer (it once failed make check on
# a loaded machine): a connection opened the moment the
# gateway listens holds it up during the set-up; it is released only once logs -f is
# attached, and the container ends when the test says so, not after a fixed time.
ops_hold_conn "$R/docker.sock" "$OPS_TMP/release"
HOLDER=$OPS_BG_PID
"$GW" serve --project "$P" --backend podman --podman-socket "$PM/podman.sock" --egress off \
  --idle-timeout $IDLE 2>"$OPS_TMP/gw.log" &
GWPID=$!; OPS_PIDS+=("$GWPID")
ops_wait_for "[ -S '$R/docker.sock' ]" 60
dk() { DOCKER_HOST="unix://$R/docker.sock" timeout 60 docker "$@"; }
bk() { DOCKER_HOST="unix://$PM/podman.sock" timeout 60 docker "$@"; }
ID=$(dk run -d --network none -v "$P/data:/data" localhost/busybox \
  sh -c 'echo tick 1; while [ ! -e /data/stop ]; do sleep 0.2; done; echo tick end')
check "docker run -d through the gateway" [ -n "$ID" ]
dk logs -f "$ID" >"$OPS_TMP/follow.out" 2>&1 &
FOLLOW=$!; OPS_PIDS+=("$FOLLOW")
check "logs -f attached (its access line)" ops_wait_for \
  "grep -qE 'access conn=[0-9]+ socket=docker method=GET path=/v[0-9.]+/containers/$ID/logs decision=allow code=- status=200' '$OPS_TMP/gw.log'" 60
: > "$OPS_TMP/release"
ops_wait_for "! kill -0 $HOLDER 2>/dev/null" 30
sleep $((2 * IDLE))   # the property is about time: alive for twice the timeout
check "gateway alive past --idle-timeout $IDLE while logs -f is attached" kill -0 "$GWPID"
: > "$P/data/stop"
wait "$FOLLOW"
check "logs -f got every line" grep -q 'tick end' "$OPS_TMP/follow.out"
ops_wait_for "! kill -0 $GWPID 2>/dev/null" 60
check "gateway exits after the last connection closed" bash -c "! kill -0 $GWPID 2>/dev/null"
check "idle-exit logged" grep -q "INFO idle for ${IDLE}s; exiting$" "$OPS_TMP/gw.log"
bk rm -f "$ID" >/dev/null 2>&1   # cleanup on the backend itself: the gateway is gone
ops_summary
