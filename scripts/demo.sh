#!/bin/bash
# scripts/demo.sh [--podman-socket PATH] [--dir DIR]
# scripts/demo.sh --stop [DIR]
#
# From a fresh machine to a running gateway, shown with the real docker CLI:
#   1. installs missing Debian packages (scripts/install-deps.sh --if-missing), builds (make);
#   2. makes a demo directory of its own (mktemp -d /tmp/cg-demo.XXXXXX, or --dir DIR: a
#      new or empty directory) and prints it; everything the demo makes lives there:
#        DEMO/podman    the private rootful podman service (scripts/podman-up.sh; needs
#                       root), unless --podman-socket PATH (or $DEMO_PODMAN_SOCKET) is given
#        DEMO/project   the demo project (data/hello.txt)
#        DEMO/run       the gateway's run directory (sockets, pid file, log)
#        DEMO/demo.env  what --stop needs
#   3. starts the gateway for DEMO/project in the background;
#   4. runs, through the gateway's docker.sock:
#        docker run --rm -v DEMO/project/data:/data localhost/busybox cat /data/hello.txt   (works)
#        docker run --rm --privileged localhost/busybox true                              (refused)
#   5. prints the DOCKER_HOST line to use it yourself and how to stop everything.
# Run it again and it reuses the demo it started last (restarting what is not running).
# --stop tears down the demo in DIR, or the one started last: the path of the last demo
# directory is kept in ${XDG_RUNTIME_DIR:-$HOME/.cache}/container-gateway-demo (0600).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PODMAN_SOCK=${DEMO_PODMAN_SOCKET:-}
STOP=0
DEMO=
while [ $# -gt 0 ]; do
  case $1 in
    --podman-socket) PODMAN_SOCK=${2:?--podman-socket needs a value}; shift 2 ;;
    --dir) DEMO=${2:?--dir needs a value}; shift 2 ;;
    --stop) STOP=1; shift; if [ $# -gt 0 ] && [[ $1 != -* ]]; then DEMO=$1; shift; fi ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--podman-socket PATH] [--dir DIR] | --stop [DIR]" >&2; exit 2 ;;
  esac
done
unset CONTAINER_HOST DOCKER_CONFIG
POINTER_DIR=${XDG_RUNTIME_DIR:-$HOME/.cache}
case $POINTER_DIR in /*) ;; *) POINTER_DIR=$HOME/.cache ;; esac
POINTER=$POINTER_DIR/container-gateway-demo
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
ping_ok() { curl -sf -m 2 --unix-socket "$1" http://d/_ping >/dev/null 2>&1; }

# A demo directory we made: owned by us, not a symlink, with our demo.env.
is_demo_dir() {
  [ -n "$1" ] && [ -d "$1" ] && [ ! -L "$1" ] && [ -O "$1" ] && [ -f "$1/demo.env" ] && [ -O "$1/demo.env" ]
}
# The demo started last, from the pointer file (ours, 0600), if it is still a demo dir.
last_demo() {
  local d
  [ -f "$POINTER" ] && [ ! -L "$POINTER" ] && [ -O "$POINTER" ] || return 1
  d=$(head -n 1 "$POINTER")
  is_demo_dir "$d" || return 1
  echo "$d"
}
gw() { "$REPO/container-gateway" "$@" --project "$DEMO/project" --run-dir "$DEMO/run"; }

if [ $STOP = 1 ]; then
  if [ -z "$DEMO" ]; then
    DEMO=$(last_demo) || { echo "demo: no demo to stop (pass its directory: $0 --stop DIR)"; exit 0; }
  fi
  DEMO=$(realpath -e -- "$DEMO") || { echo "demo: $DEMO does not exist" >&2; exit 1; }
  is_demo_dir "$DEMO" || { echo "demo: $DEMO is not a demo directory (no demo.env of yours); refusing" >&2; exit 1; }
  if [ -x "$REPO/container-gateway" ]; then gw stop || echo "demo: the gateway did not stop; removing its directory anyway" >&2; fi
  [ -e "$DEMO/podman" ] && "$REPO/scripts/podman-down.sh" "$DEMO/podman"
  rm -rf -- "$DEMO"
  if [ -f "$POINTER" ] && [ -O "$POINTER" ] && [ "$(head -n 1 "$POINTER")" = "$DEMO" ]; then
    rm -f -- "$POINTER"
  fi
  echo "demo in $DEMO stopped and removed"
  exit 0
fi

step "1. dependencies and build"
"$REPO/scripts/install-deps.sh" --if-missing
make -C "$REPO" --no-print-directory

step "2. the demo directory"
if [ -z "$DEMO" ]; then DEMO=$(last_demo) || DEMO=; fi
if [ -n "$DEMO" ] && is_demo_dir "$DEMO"; then
  echo "reusing the demo in $DEMO"
  # shellcheck disable=SC1091
  . "$DEMO/demo.env"
  PODMAN_SOCK=${PODMAN_SOCK:-$DEMO_PODMAN_SOCK}
else
  if [ -n "$DEMO" ]; then
    mkdir -p -- "$DEMO"
    DEMO=$(realpath -e -- "$DEMO")
    [ -O "$DEMO" ] && [ -z "$(ls -A -- "$DEMO")" ] ||
      { echo "demo: --dir $DEMO must be a new or empty directory of yours" >&2; exit 1; }
  else
    DEMO=$(mktemp -d /tmp/cg-demo.XXXXXX)
  fi
  chmod 0755 "$DEMO"
fi
printf 'DEMO_PODMAN_SOCK=%q\n' "$PODMAN_SOCK" > "$DEMO/demo.env"
mkdir -p "$POINTER_DIR"
(umask 077; echo "$DEMO" > "$POINTER.tmp.$$" && mv -f -- "$POINTER.tmp.$$" "$POINTER")
echo "demo directory: $DEMO"

step "3. podman backend"
if [ -n "$PODMAN_SOCK" ]; then
  ping_ok "$PODMAN_SOCK" || { echo "demo: no podman API answers on $PODMAN_SOCK" >&2; exit 1; }
  echo "using the podman API socket $PODMAN_SOCK"
  if ! curl -sf --unix-socket "$PODMAN_SOCK" http://d/v1.41/images/localhost/busybox:latest/json >/dev/null; then
    echo "importing localhost/busybox:latest into it (from the host's busybox-static)"
    "$REPO/scripts/mk-busybox-tar.sh" "$DEMO/busybox.tar"
    DOCKER_HOST=unix://$PODMAN_SOCK docker import "$DEMO/busybox.tar" localhost/busybox:latest >/dev/null
    rm -f "$DEMO/busybox.tar"
  fi
else
  [ "$(id -u)" -eq 0 ] || { echo "demo: a private podman service needs root; or pass --podman-socket PATH" >&2; exit 1; }
  "$REPO/scripts/podman-up.sh" "$DEMO/podman"
  PODMAN_SOCK=$DEMO/podman/podman.sock
fi

step "4. demo project and gateway"
mkdir -p "$DEMO/project/data"
echo "hello from $DEMO/project/data/hello.txt" > "$DEMO/project/data/hello.txt"
GW_LOG=$DEMO/run/container-gateway.log
# --daemon returns once the sockets listen (a running one: "already running (pid N)"),
# or prints why it cannot start
gw serve --daemon --podman-socket "$PODMAN_SOCK" --backend podman --egress off
echo "gateway pid $(cat "$DEMO/run/container-gateway.pid") serving $DEMO/project; log $GW_LOG"
export DOCKER_HOST=unix://$DEMO/run/docker.sock

show() { printf '\n$ %s\n' "$*"; }
step "5. the real docker CLI through the gateway (DOCKER_HOST=$DOCKER_HOST)"
show docker run --rm --network none -v "$DEMO/project/data:/data" localhost/busybox cat /data/hello.txt
timeout 60 docker run --rm --network none -v "$DEMO/project/data:/data" localhost/busybox cat /data/hello.txt ||
  { echo "demo: this allowed run failed; see $GW_LOG" >&2; exit 1; }
show docker run --rm --network none --privileged localhost/busybox true
if timeout 60 docker run --rm --network none --privileged localhost/busybox true; then
  echo "demo: --privileged was NOT refused" >&2; exit 1
else
  echo "(refused, exit $?)"
fi
show docker run --rm --network none -v /etc:/host-etc localhost/busybox true
timeout 60 docker run --rm --network none -v /etc:/host-etc localhost/busybox true || echo "(refused, exit $?)"

step "6. use it yourself"
cat <<EOF
  export DOCKER_HOST=unix://$DEMO/run/docker.sock          # docker CLI, docker-compose
  podman --url unix://$DEMO/run/podman.sock ps -a         # podman (remote)

the demo's gateway serves $DEMO/project from its own run directory:
  $REPO/container-gateway status --project $DEMO/project --run-dir $DEMO/run
(the demo's containers run with --network none: this machine may have no
egress; drop it where yours has)

stop everything (gateway, private podman, $DEMO):
  $REPO/scripts/demo.sh --stop $DEMO
EOF
