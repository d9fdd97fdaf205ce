# shellcheck shell=bash
# tests/ops/lib.sh — helpers for the operations tests (cli.md: run directory,
# pid file, stop/status, daemon mode, idle timeout, logging, the hook).
# Source it from a bash script. Everything a test starts lives under one
# temporary directory in /tmp and is killed by pid at exit.
#
#   ops_fake_backend PATH   a listening unix socket (python), killed at exit
#   ops_bg CMD...           run CMD in the background, killed at exit (OPS_BG_PID)
#   ops_wait_for COND SECS  poll a shell condition every 0.1 s
#   pass NAME / fail NAME WHY, check NAME CMD..., ops_summary
set -u
OPS_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
GW=${CG_GATEWAY:-$OPS_REPO/container-gateway}
OPS_PASSED=0
OPS_FAILED=0
OPS_PIDS=()
OPS_TMP=$(mktemp -d /tmp/cgo.XXXXXX)
OPS_TMP=$(realpath "$OPS_TMP")
chmod 0755 "$OPS_TMP"
for _v in $(compgen -v CONTAINER_GATEWAY_ || true); do unset "$_v"; done
unset _v DOCKER_HOST
export XDG_RUNTIME_DIR=$OPS_TMP/xdg-empty
mkdir -p "$XDG_RUNTIME_DIR"

ops_cleanup() {
  local p f
  # gateways started in any project of this run: by the pid in their pid file
  for f in $(find "$OPS_TMP" -name container-gateway.pid 2>/dev/null); do
    p=$(head -c 16 "$f" 2>/dev/null | tr -cd 0-9)
    [ -n "$p" ] && [ -r "/proc/$p/cmdline" ] && tr '\0' ' ' <"/proc/$p/cmdline" | grep -q container-gateway && kill "$p" 2>/dev/null
  done
  for p in "${OPS_PIDS[@]}"; do kill "$p" 2>/dev/null; done
  sleep 0.2
  for p in "${OPS_PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
  if [ "${OPS_KEEP:-0}" = 1 ]; then echo "kept $OPS_TMP" >&2; else
    chmod -R u+w "$OPS_TMP" 2>/dev/null; rm -rf "$OPS_TMP"; fi
}
trap ops_cleanup EXIT

pass() { OPS_PASSED=$((OPS_PASSED + 1)); echo "PASS $1"; }
fail() { OPS_FAILED=$((OPS_FAILED + 1)); echo "FAIL $1: $2"; }

# check NAME CMD... : PASS when CMD succeeds
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n" "$*"; fi; }

# run CMD...: stdout in $OUT, stderr in $ERR, status in $RC (with a timeout)
run() {
  timeout -k 2 30 "$@" >"$OPS_TMP/.out" 2>"$OPS_TMP/.err"; RC=$?
  OUT=$(cat "$OPS_TMP/.out"); ERR=$(cat "$OPS_TMP/.err")
}

# expect NAME RC STDOUT STDERR CMD... : exact exit status and exact outputs
expect() {
  local n=$1 rc=$2 out=$3 err=$4; shift 4
  run "$@"
  if [ "$RC" != "$rc" ]; then fail "$n" "exit $RC, expected $rc (stderr: $ERR)"
  elif [ "$OUT" != "$out" ]; then fail "$n" "stdout '$OUT', expected '$out'"
  elif [ "$ERR" != "$err" ]; then fail "$n" "stderr '$ERR', expected '$err'"
  else pass "$n"; fi
}

# stdout goes to /dev/null: a background job must never hold the caller's pipe
ops_bg() { "$@" >/dev/null & OPS_BG_PID=$!; OPS_PIDS+=("$OPS_BG_PID"); }

ops_fake_backend() {
  ops_bg python3 -c 'import socket,sys,time
s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); time.sleep(600)' "$1" 2>/dev/null
  ops_wait_for "[ -S '$1' ]" 5
}

# expect_line NAME RC LINE CMD... : exact exit status, LINE is one line of stderr
expect_line() {
  local n=$1 rc=$2 line=$3; shift 3
  run "$@"
  if [ "$RC" != "$rc" ]; then fail "$n" "exit $RC, expected $rc (stderr: $ERR)"
  elif ! grep -qxF -- "$line" "$OPS_TMP/.err"; then fail "$n" "no stderr line '$line' in: $ERR"
  else pass "$n"; fi
}

# a lock holder on FILE that is one process (flock(1) would fork a child)
ops_hold_lock() {
  ops_bg python3 -c 'import fcntl,os,sys,time
fd=os.open(sys.argv[1], os.O_RDONLY); fcntl.flock(fd, fcntl.LOCK_EX); time.sleep(600)' "$1" 2>/dev/null
}

ops_wait_for() {  # COND SECONDS
  local i n=$(( $2 * 10 ))
  for ((i = 0; i < n; i++)); do eval "$1" && return 0; sleep 0.1; done
  return 1
}

# a fresh git project: P=<dir>, R=<default run dir>
ops_git_project() {
  P=$OPS_TMP/$1; mkdir -p "$P"; git init -q "$P"; R=$P/.git/apache-magpie/run/main
}

ops_summary() {
  echo "$OPS_PASSED passed, $OPS_FAILED failed"
  [ "$OPS_FAILED" -eq 0 ]
}
