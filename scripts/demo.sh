#!/bin/bash
# scripts/demo.sh [--podman-socket PATH] [--stop]
#
# From a fresh machine to a running gateway, shown with the real docker CLI:
#   1. installs missing Debian packages (scripts/install-deps.sh --if-missing), builds (make);
#   2. uses the podman API socket given with --podman-socket (or $DEMO_PODMAN_SOCKET), else
#      starts (or reuses) a private rootful podman service in /tmp/cg-demo-podman
#      (scripts/podman-up.sh; needs root);
#   3. makes the demo project /tmp/cg-demo-project (data/hello.txt) and starts the gateway
#      for it in the background with run directory /tmp/cg-demo-run (reused if running);
#   4. runs, through the gateway's docker.sock:
#        docker run --rm -v /tmp/cg-demo-project/data:/data localhost/busybox cat /data/hello.txt   (works)
#        docker run --rm --privileged localhost/busybox true                                      (refused)
#   5. prints the DOCKER_HOST line to use it yourself and how to stop everything.
# Idempotent: run it again and it reuses what is running. --stop tears the demo down.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PM_DIR=/tmp/cg-demo-podman
PROJECT=/tmp/cg-demo-project
RUN_DIR=/tmp/cg-demo-run
GW_LOG=/tmp/cg-demo-gateway.log
GW_PIDFILE=$RUN_DIR/container-gateway.pid
PODMAN_SOCK=${DEMO_PODMAN_SOCKET:-}
STOP=0
while [ $# -gt 0 ]; do
  case $1 in
    --podman-socket) PODMAN_SOCK=${2:?--podman-socket needs a value}; shift 2 ;;
    --stop) STOP=1; shift ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--podman-socket PATH] [--stop]" >&2; exit 2 ;;
  esac
done
unset CONTAINER_HOST DOCKER_CONFIG
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
ping_ok() { curl -sf -m 2 --unix-socket "$1" http://d/_ping >/dev/null 2>&1; }
gw_pid() {  # pid of the demo gateway if it is running
  local p
  p=$(cat "$GW_PIDFILE" 2>/dev/null) || return 1
  case $p in ''|*[!0-9]*) return 1 ;; esac
  tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -qF -- "--run-dir $RUN_DIR" || return 1
  echo "$p"
}
stop_gateway() {
  local p
  p=$(gw_pid) || return 0
  kill "$p" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$p" 2>/dev/null || true
}

if [ $STOP = 1 ]; then
  stop_gateway
  [ -e "$PM_DIR" ] && "$REPO/scripts/podman-down.sh" "$PM_DIR"
  rm -rf "$RUN_DIR" "$PROJECT" "$GW_LOG"
  echo "demo stopped and removed"
  exit 0
fi

step "1. dependencies and build"
"$REPO/scripts/install-deps.sh" --if-missing
make -C "$REPO" --no-print-directory

step "2. podman backend"
if [ -n "$PODMAN_SOCK" ]; then
  ping_ok "$PODMAN_SOCK" || { echo "demo: no podman API answers on $PODMAN_SOCK" >&2; exit 1; }
  echo "using the podman API socket $PODMAN_SOCK"
  if ! curl -sf --unix-socket "$PODMAN_SOCK" http://d/v1.41/images/localhost/busybox:latest/json >/dev/null; then
    echo "importing localhost/busybox:latest into it (from the host's busybox-static)"
    "$REPO/scripts/mk-busybox-tar.sh" /tmp/cg-demo-busybox.tar
    DOCKER_HOST=unix://$PODMAN_SOCK docker import /tmp/cg-demo-busybox.tar localhost/busybox:latest >/dev/null
    rm -f /tmp/cg-demo-busybox.tar
  fi
else
  [ "$(id -u)" -eq 0 ] || { echo "demo: a private podman service needs root; or pass --podman-socket PATH" >&2; exit 1; }
  "$REPO/scripts/podman-up.sh" "$PM_DIR"
  PODMAN_SOCK=$PM_DIR/podman.sock
fi

step "3. demo project and gateway"
mkdir -p "$PROJECT/data"
echo "hello from $PROJECT/data/hello.txt" > "$PROJECT/data/hello.txt"
if p=$(gw_pid) && ping_ok "$RUN_DIR/docker.sock"; then
  echo "reusing the gateway already running (pid $p)"
  GW=$p
else
  stop_gateway
  setsid nohup "$REPO/container-gateway" serve --project "$PROJECT" --run-dir "$RUN_DIR" \
    --podman-socket "$PODMAN_SOCK" --backend podman --egress off \
    </dev/null >"$GW_LOG" 2>&1 &
  GW=$!
  for _ in $(seq 500); do
    ping_ok "$RUN_DIR/docker.sock" && ping_ok "$RUN_DIR/podman.sock" && break
    kill -0 "$GW" 2>/dev/null || { echo "demo: the gateway exited; $GW_LOG:" >&2; tail -n 20 "$GW_LOG" >&2; exit 1; }
    sleep 0.02
  done
  ping_ok "$RUN_DIR/docker.sock" || { echo "demo: the gateway did not answer within 10 s; see $GW_LOG" >&2; exit 1; }
  echo "gateway pid $GW serving $PROJECT; log $GW_LOG"
fi
export DOCKER_HOST=unix://$RUN_DIR/docker.sock

show() { printf '\n$ %s\n' "$*"; }
step "4. the real docker CLI through the gateway (DOCKER_HOST=$DOCKER_HOST)"
show docker run --rm --network none -v "$PROJECT/data:/data" localhost/busybox cat /data/hello.txt
timeout 60 docker run --rm --network none -v "$PROJECT/data:/data" localhost/busybox cat /data/hello.txt ||
  { echo "demo: this allowed run failed; see $GW_LOG" >&2; exit 1; }
show docker run --rm --network none --privileged localhost/busybox true
if timeout 60 docker run --rm --network none --privileged localhost/busybox true; then
  echo "demo: --privileged was NOT refused" >&2; exit 1
else
  echo "(refused, exit $?)"
fi
show docker run --rm --network none -v /etc:/host-etc localhost/busybox true
timeout 60 docker run --rm --network none -v /etc:/host-etc localhost/busybox true || echo "(refused, exit $?)"

step "5. use it yourself"
cat <<EOF
  export DOCKER_HOST=unix://$RUN_DIR/docker.sock          # docker CLI, docker-compose
  podman --url unix://$RUN_DIR/podman.sock ps -a         # podman (remote)

stop:
  $REPO/container-gateway stop --run-dir $RUN_DIR     # the gateway (log: $GW_LOG)
EOF
if [ "$PODMAN_SOCK" = "$PM_DIR/podman.sock" ]; then
  echo "  $REPO/scripts/podman-down.sh $PM_DIR     # the private podman service"
fi
echo "  (or: $REPO/scripts/demo.sh --stop)"
