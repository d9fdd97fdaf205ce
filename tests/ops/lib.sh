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
  "$OPS_REPO/tests/integration/unpin-dead.sh"   # its gateways' pins: no mount left
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

# expect_status NAME JSON CMD...: exit 0, and stdout is JSON (cli.md §12's members and
# "sandbox"; exact, keys in order) followed by the gateway's own members "pins" (a root
# gateway with its record) and "advisories" (monitor/advisory.c), then "}"
expect_status() {
  local n=$1 want=$2; shift 2
  run "$@"
  if [ "$RC" != 0 ]; then fail "$n" "exit $RC, expected 0 (stderr: $ERR)"
  elif [ "${OUT#"${want%\}}"}" = "$OUT" ]; then fail "$n" "stdout '$OUT', expected it to start with '${want%\}}'"
  elif ! python3 -c 'import json,sys; d=json.loads(sys.argv[1]); k=list(d)
assert k[:5] == ["running","pid","sockets","serving","sandbox"] and k[-1] == "advisories", k
assert k[5:-1] in ([], ["pins"]), k
assert all(set(a) == {"id","backend","affected","flaw","gateway"} for a in d["advisories"])' "$OUT" 2>/dev/null
  then fail "$n" "stdout '$OUT': not the spec's members, then pins and advisories"
  elif [ -n "$ERR" ]; then fail "$n" "stderr '$ERR'"
  else pass "$n"; fi
}

# stdout goes to /dev/null: a background job must never hold the caller's pipe
ops_bg() { "$@" >/dev/null & OPS_BG_PID=$!; OPS_PIDS+=("$OPS_BG_PID"); }

# A daemon that answers GET/HEAD /_ping with 200 (the gateway probes its backend at
# start-up) and never answers anything else. Its _ping answer says
# "Server: Libpod/4.3.1 (linux)" like podman's (the gateway takes the backend's kind
# from it), without Libpod-Api-Version (the gateway would then measure commits on it);
# with a second argument "docker" it says "Server: Docker/20.10.24+dfsg1 (linux)" like
# dockerd's, with "gateway" it carries Container-Gateway like a gateway's instead, with
# "anonymous" no Server field at all (and GET /version answers 404), with
# "version-podman" no Server field, but GET /version lists podman's components as
# podman 4.3.1 does. Ready when it listens.
ops_fake_backend() {
  ops_bg python3 -c 'import socket,sys,threading,time
gw = len(sys.argv) > 2 and sys.argv[2] == "gateway"
mode = sys.argv[2] if len(sys.argv) > 2 else "podman"
who = {"gateway": b"Container-Gateway: 9.9.9\r\n", "anonymous": b"", "version-podman": b"",
       "docker": b"Server: Docker/20.10.24+dfsg1 (linux)\r\n"}.get(mode, b"Server: Libpod/4.3.1 (linux)\r\n")
def serve(c):
    buf = b""
    try:
        while True:
            d = c.recv(65536)
            if not d:
                return
            buf += d
            while b"\r\n\r\n" in buf:
                head, _, buf = buf.partition(b"\r\n\r\n")
                line = head.split(b"\r\n", 1)[0].split(b" ")
                if mode in ("anonymous", "version-podman") and len(line) > 1 and line[1] == b"/version":
                    body = b"{\"Components\":[{\"Name\":\"Podman Engine\",\"Version\":\"4.3.1\"}],\"Version\":\"4.3.1\"}"
                    if mode == "anonymous":
                        c.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                    else:
                        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
                elif len(line) > 1 and line[0] in (b"GET", b"HEAD") and line[1].endswith(b"/_ping"):
                    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n" + who + b"\r\n" +
                              (b"" if line[0] == b"HEAD" else b"OK"))
                else:
                    time.sleep(600)    # mute: never answers
    except OSError:
        pass
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(64)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()' "$@" 2>/dev/null
  ops_wait_for "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' '$1' 2>/dev/null" 10
}

# expect_line NAME RC LINE CMD... : exact exit status, LINE is one line of stderr
expect_line() {
  local n=$1 rc=$2 line=$3; shift 3
  run "$@"
  if [ "$RC" != "$rc" ]; then fail "$n" "exit $RC, expected $rc (stderr: $ERR)"
  elif ! grep -qxF -- "$line" "$OPS_TMP/.err"; then fail "$n" "no stderr line '$line' in: $ERR"
  else pass "$n"; fi
}

# ops_hold_conn SOCK RELEASE [CONNECTED]: a client (background, OPS_BG_PID) started
# before the gateway: it connects the moment SOCK accepts (within 120 s), creates the
# file CONNECTED when given, and holds the connection until the file RELEASE exists.
# A test that needs a live connection before an idle timer can fire uses it.
ops_hold_conn() {
  ops_bg python3 -c 'import os, socket, sys, time
path, release = sys.argv[1:3]
deadline = time.monotonic() + 120
while True:
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path); break
    except OSError:
        s.close()
        if time.monotonic() > deadline: sys.exit(1)
        time.sleep(0.005)
if len(sys.argv) > 3:
    open(sys.argv[3], "w").close()
while not os.path.exists(release):
    time.sleep(0.02)
s.close()' "$@"
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
