# shellcheck shell=bash
# tests/integration/lib.sh — helpers for the real-CLI integration suites.
# Source it from a bash script (set -u friendly; do not use set -e in suites).
#
#   cg_backend_up                 start the private backend (once per run): podman, or
#                                 dockerd when CG_BACKEND=docker; sets CG_BACKEND_SOCK;
#                                 a podman it starts runs in the empty dir CG_PM_CWD
#   cg_project NAME               make a project dir P and run dir R under the run's tmp dir
#   cg_gateway_start P R          start `container-gateway serve` for P/R in the background;
#                                 sets CG_GW_PID; waits until both sockets answer _ping
#   cg_gateway_stop PID           SIGTERM, wait up to 5 s, SIGKILL
#   cg_bg CMD...                  run a helper in the background, killed at teardown (CG_BG_PID)
#   cg_listener WORD              a TCP listener on every host address answering WORD (a
#                                 stand-in egress proxy); sets CG_LISTENER_PORT, CG_BG_PID
#   cg_unpin_dead                 unmount the pins of gateways whose run directory is gone
#                                 (teardown runs it)
#   cg_children PID / cg_parsers PID  a monitor's children but its pinner / its request parsers
#                                 (not the zygote); cg_pinner PID its pinner; cg_nchildren PID OP N
#   cg_monitor_fds PID            a monitor's open descriptors
#   cg_monitor_own_fds PID SOCK   the same without its connections to the backend socket SOCK
#                                 (kept keep-alive connections: their number follows
#                                 the clients' concurrency)
#   pass NAME / fail NAME WHY     count and print one PASS/FAIL line
#   skip NAME WHY                 print SKIP (not counted)
#   expect_ok NAME CMD...         PASS when CMD exits 0
#   expect_output NAME STR CMD... PASS when CMD exits 0 and its output contains STR
#   expect_fail_with NAME STR CMD...  PASS when CMD exits non-zero and its output contains STR
#   expect_fail_match NAME ERE CMD... same with an extended regular expression
#   cg_compare_flows LABEL D G    a client's flows, directly (file D) and through a gateway (G)
#   cg_summary                    print "N passed, M failed"; exit 1 when M > 0
#   cg_need TOOL... / cg_need_gateway  end the run with a FAIL when a tool / the gateway
#                                 binary is missing
#   dk dk2 / pm pm2               the docker / podman CLI through project 1's / 2's gateway
#                                 (run dir $R1 / $R2), with the per-command timeout
#   bk, bk_q, bk_rm               the docker CLI on the backend itself, bypassing every
#                                 gateway (setup and verification only); bk_q quietly,
#                                 bk_rm removes containers quietly
#   podman_only NAME              true with the podman backend, else SKIP NAME and false
#   KEY, IMG, NOTFOUND            the project label, the test image, and what the CLIs
#                                 print for a missing (or foreign) container
#   (the wrappers are defaults: a suite that talks to the backend otherwise, e.g. with
#   curl, defines its own after sourcing this file)
#
# Every command run by the expect_* helpers gets `timeout` ($CG_TIMEOUT, 60 s); its
# combined stdout+stderr is left in $CG_OUT and its exit status in $CG_RC.
# A trap tears everything down on any exit: background helpers, gateways (by pid), the
# podman service (podman-down.sh), the temporary directory (kept with CG_KEEP=1).
#
# Environment:
#   CG_GATEWAY      gateway binary (default: <repo>/container-gateway)
#   CG_BACKEND      podman (default) or docker: which daemon is behind the gateways.
#                   docker: a private dockerd (scripts/dockerd-up.sh); each gateway then
#                   runs with --backend docker and serves docker.sock only
#   CG_DOCKER_DIR   with CG_BACKEND=docker: reuse a dockerd started with
#                   scripts/dockerd-up.sh DIR (left running at the end)
#   CG_PODMAN_DIR   reuse a podman service started with scripts/podman-up.sh DIR
#                   (left running at the end); default: a fresh one in the tmp dir
#   CG_PODMAN_SOCKET use the podman service already answering on this socket (e.g. a
#                   rootless one: tests/integration/rootless.sh), left running; it
#                   must hold localhost/busybox
#   CG_DIRECT=1     debugging only: no gateway; R/docker.sock and R/podman.sock are
#                   symlinks to the backend socket (every policy check then fails)
#   CG_GW_LOG_LEVEL the gateways' --log-level (debug: every IPC message is logged)
#   CG_GW_EXTRA     (array) more `serve` options for the gateways cg_gateway_start starts,
#                   e.g. CG_GW_EXTRA=(--max-connections 4)
#   CG_TIMEOUT      per-command timeout in seconds (60)
#   CG_KEEP=1       keep the tmp dir (gateway logs) after the run

CG_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CG_GATEWAY=${CG_GATEWAY:-$CG_REPO/container-gateway}
CG_TIMEOUT=${CG_TIMEOUT:-60}
CG_DIRECT=${CG_DIRECT:-0}
CG_BACKEND=${CG_BACKEND:-podman}
case $CG_BACKEND in podman|docker) ;; *) echo "integration: CG_BACKEND must be podman or docker" >&2; exit 2 ;; esac
CG_PASSED=0
CG_FAILED=0
CG_GW_PIDS=()
CG_BG_PIDS=()
CG_OUT=
CG_RC=0
CG_T0=$(date +%s%N)

# A clean client environment: no CLI talks to a daemon we did not choose, nothing
# from the caller's ~/.docker, and never CONTAINER_HOST (it turns every podman call remote).
unset DOCKER_HOST DOCKER_CONTEXT DOCKER_TLS_VERIFY DOCKER_CERT_PATH CONTAINER_HOST \
      CONTAINER_CONNECTION CONTAINERS_CONF CONTAINERS_STORAGE_CONF
for _v in $(compgen -v CONTAINER_GATEWAY_ || true); do unset "$_v"; done
unset _v

CG_TMP=$(mktemp -d /tmp/cgi.XXXXXX)    # short: socket paths must stay below 104 bytes
CG_TMP=$(realpath "$CG_TMP")
export DOCKER_CONFIG=$CG_TMP/docker-config
mkdir -p "$DOCKER_CONFIG"
echo '{}' > "$DOCKER_CONFIG/config.json"   # podman too reads DOCKER_CONFIG and fails without this file
CG_PM_OWN=1
CG_PM_DIR=$CG_TMP/pm
CG_PM_CWD=$CG_TMP/pm-cwd    # the working directory of a podman service this run starts
CG_DD_OWN=0
CG_DD_DIR=$CG_TMP/dd
CG_BACKEND_SOCK=

_cg_ms() { echo $(( ($(date +%s%N) - CG_T0) / 1000000 )); }
# cg_ms: the wall clock in ms
cg_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# cg_wait_for MS CMD...: poll CMD every 20 ms until it succeeds or MS pass; 0 when it did
cg_wait_for() {
  local until=$(( $(cg_ms) + $1 )); shift
  while :; do "$@" && return 0; [ "$(cg_ms)" -ge "$until" ] && return 1; sleep 0.02; done
}

pass() { CG_PASSED=$((CG_PASSED + 1)); echo "PASS $1"; }
fail() {
  CG_FAILED=$((CG_FAILED + 1)); echo "FAIL $1: ${2:-}"
  if [ -n "$CG_OUT" ] && [ "${3:-}" != "quiet" ]; then
    printf '%s\n' "$CG_OUT" | tail -n 5 | sed 's/^/    | /'
  fi
  return 0
}
skip() { echo "SKIP $1: ${2:-}"; }

cg_timeout() { timeout -k 5 "$CG_TIMEOUT" "$@"; }

# ---- CLI wrappers (defaults; a suite may define its own after sourcing) ------------
KEY=org.apache.magpie.project
IMG=localhost/busybox
NOTFOUND='[Nn]o such (container|object)|not-found'
dk()  { DOCKER_HOST="unix://$R1/docker.sock" cg_timeout docker "$@"; }
dk2() { DOCKER_HOST="unix://$R2/docker.sock" cg_timeout docker "$@"; }
# --url alone implies --remote. DOCKER_CONFIG is unset for podman: podman-remote would
# send `authfile=$DOCKER_CONFIG/config.json` on every pull (run), which the gateway
# refuses (denied-query: a file on the daemon's host).
pm()  { env -u DOCKER_CONFIG timeout -k 5 "$CG_TIMEOUT" podman --url "unix://$R1/podman.sock" "$@"; }
pm2() { env -u DOCKER_CONFIG timeout -k 5 "$CG_TIMEOUT" podman --url "unix://$R2/podman.sock" "$@"; }
bk()  { DOCKER_HOST="unix://$CG_BACKEND_SOCK" cg_timeout docker "$@"; }
bk_q() { timeout 30 env DOCKER_HOST="unix://$CG_BACKEND_SOCK" docker "$@" >/dev/null 2>&1; return 0; }
bk_rm() { timeout 30 env DOCKER_HOST="unix://$CG_BACKEND_SOCK" docker rm -f "$@" >/dev/null 2>&1; return 0; }
# podman-only checks: no podman.sock when the backend is dockerd
podman_only() { [ "$CG_BACKEND" = podman ] && return 0; skip "$1" "podman only (CG_BACKEND=$CG_BACKEND)"; return 1; }

# run CMD with a timeout, capture output and status. A shell function is called as
# is: it must apply cg_timeout itself (timeout(1) cannot run functions).
cg_run() {
  if declare -F "$1" >/dev/null; then CG_OUT=$("$@" 2>&1)
  else CG_OUT=$(cg_timeout "$@" 2>&1); fi
  CG_RC=$?
  return $CG_RC
}
_cg_badrc() {  # non-zero when CG_RC says the command did not really run
  case $CG_RC in
    124) echo "timed out after ${CG_TIMEOUT}s" ;;
    126|127) echo "could not run (exit $CG_RC)" ;;
    137) echo "killed (exit 137)" ;;
    *) return 1 ;;
  esac
}

expect_ok() {
  local name=$1; shift
  if cg_run "$@"; then pass "$name"; else fail "$name" "$(_cg_badrc || echo "exit $CG_RC"): $*"; fi
}
expect_output() {
  local name=$1 want=$2; shift 2
  cg_run "$@"
  if [ $CG_RC -ne 0 ]; then fail "$name" "$(_cg_badrc || echo "exit $CG_RC"): $*"
  elif [[ $CG_OUT != *"$want"* ]]; then fail "$name" "output lacks '$want'"
  else pass "$name"; fi
}
expect_fail_with() {
  local name=$1 want=$2; shift 2
  cg_run "$@"
  if [ $CG_RC -eq 0 ]; then fail "$name" "succeeded but should have been refused: $*"
  elif _cg_badrc >/dev/null; then fail "$name" "$(_cg_badrc)"
  elif [[ $CG_OUT != *"$want"* ]]; then fail "$name" "refused, but output lacks '$want'"
  else pass "$name"; fi
}
expect_fail_match() {
  local name=$1 re=$2; shift 2
  cg_run "$@"
  if [ $CG_RC -eq 0 ]; then fail "$name" "succeeded but should have failed: $*"
  elif _cg_badrc >/dev/null; then fail "$name" "$(_cg_badrc)"
  elif ! grep -qE -- "$re" <<<"$CG_OUT"; then fail "$name" "failed, but output does not match /$re/"
  else pass "$name"; fi
}

cg_summary() {
  echo "integration: $(( $(_cg_ms) / 1000 )).$(( $(_cg_ms) % 1000 / 100 )) s"
  echo "$CG_PASSED passed, $CG_FAILED failed"
  [ "$CG_FAILED" -eq 0 ]
}

# ---- prerequisites -------------------------------------------------------------
cg_require() {
  local missing=() c
  for c in "$@"; do command -v "$c" >/dev/null 2>&1 || missing+=("$c"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "integration: missing ${missing[*]} (run scripts/install-deps.sh)" >&2
    return 1
  fi
}

# cg_need TOOL...: when a tool is missing, FAIL "prerequisites" and end the run (cg_summary)
cg_need() {
  cg_require "$@" && return 0
  fail "prerequisites" "missing tools"; cg_summary; exit
}
# cg_need_gateway: when CG_GATEWAY is no executable (and CG_DIRECT=1 does not do without
# one), FAIL "gateway binary" and end the run (cg_summary)
cg_need_gateway() {
  if [ "$CG_DIRECT" != 1 ] && [ ! -x "$CG_GATEWAY" ]; then
    fail "gateway binary" "no executable at $CG_GATEWAY (make first)"; cg_summary; exit
  fi
}

# ---- backend (podman, or dockerd with CG_BACKEND=docker) -------------------------
cg_backend_up() {
  if [ "$CG_BACKEND" = docker ]; then _cg_dockerd_up; return; fi
  if [ -n "${CG_PODMAN_SOCKET:-}" ]; then
    CG_PM_OWN=0
    CG_PODMAN_SOCK=$CG_PODMAN_SOCKET
    CG_BACKEND_SOCK=$CG_PODMAN_SOCK
    _cg_ping "$CG_PODMAN_SOCK" || { echo "integration: no podman answers on $CG_PODMAN_SOCK" >&2; return 1; }
    echo "# podman backend given: $CG_PODMAN_SOCK"
    return 0
  fi
  if [ -n "${CG_PODMAN_DIR:-}" ]; then
    CG_PM_DIR=$(realpath -m "$CG_PODMAN_DIR"); CG_PM_OWN=0
  fi
  local t0; t0=$(_cg_ms)
  # the service's working directory is an empty one of this run: podman opens relative
  # paths from it (tools.sh t_seccomp_default), never from the caller's directory
  mkdir -p "$CG_PM_CWD"
  if ! ( cd "$CG_PM_CWD" && "$CG_REPO/scripts/podman-up.sh" "$CG_PM_DIR" ) >"$CG_TMP/podman-up.log" 2>&1; then
    echo "integration: podman-up failed:" >&2; sed 's/^/    /' "$CG_TMP/podman-up.log" >&2
    return 1
  fi
  CG_PODMAN_SOCK=$CG_PM_DIR/podman.sock
  CG_BACKEND_SOCK=$CG_PODMAN_SOCK
  echo "# podman backend ready in $(( $(_cg_ms) - t0 )) ms: $CG_PODMAN_SOCK"
}
_cg_dockerd_up() {
  CG_PM_OWN=0   # no podman service in this run
  if [ -n "${CG_DOCKER_DIR:-}" ]; then CG_DD_DIR=$(realpath -m "$CG_DOCKER_DIR"); CG_DD_OWN=0
  else CG_DD_OWN=1; fi
  local t0; t0=$(_cg_ms)
  # networking as a stock dockerd: a default bridge, iptables isolating networks
  if ! CG_DOCKERD_NET=stock "$CG_REPO/scripts/dockerd-up.sh" "$CG_DD_DIR" >"$CG_TMP/dockerd-up.log" 2>&1; then
    echo "integration: dockerd-up failed:" >&2; sed 's/^/    /' "$CG_TMP/dockerd-up.log" >&2
    return 1
  fi
  CG_DOCKER_SOCK=$CG_DD_DIR/docker.sock
  CG_BACKEND_SOCK=$CG_DOCKER_SOCK
  echo "# docker backend ready in $(( $(_cg_ms) - t0 )) ms: $CG_DOCKER_SOCK"
}

# ---- projects and gateways -----------------------------------------------------
# cg_project NAME -> sets P (project root) and R (run dir, not yet created)
cg_project() {
  # shellcheck disable=SC2034  # P and R are for the caller
  P=$CG_TMP/$1
  # shellcheck disable=SC2034
  R=$CG_TMP/$1-run
  mkdir -p "$P/data"
}

_cg_ping() { curl -sf -m 2 --unix-socket "$1" http://d/_ping >/dev/null 2>&1; }

# cg_gateway_start P R -> CG_GW_PID; log in R.log
cg_gateway_start() {
  local p=$1 r=$2 log=$2.log
  CG_GW_PID=
  if [ "$CG_DIRECT" = 1 ]; then
    mkdir -p "$r"; chmod 700 "$r"
    ln -sf "$CG_BACKEND_SOCK" "$r/docker.sock"
    [ "$CG_BACKEND" = docker ] || ln -sf "$CG_PODMAN_SOCK" "$r/podman.sock"
    return 0
  fi
  if [ ! -x "$CG_GATEWAY" ]; then echo "integration: no gateway binary at $CG_GATEWAY" >&2; return 1; fi
  local be
  if [ "$CG_BACKEND" = docker ]; then be=(--docker-socket "$CG_DOCKER_SOCK" --backend docker)
  else be=(--podman-socket "$CG_PODMAN_SOCK" --backend podman); fi
  "$CG_GATEWAY" serve --project "$p" --run-dir "$r" "${be[@]}" \
      --egress off --log-level "${CG_GW_LOG_LEVEL:-debug}" --idle-timeout 900 ${CG_GW_EXTRA[@]+"${CG_GW_EXTRA[@]}"} \
      </dev/null >"$log" 2>&1 &
  CG_GW_PID=$!
  CG_GW_PIDS+=("$CG_GW_PID")
  for _ in $(seq 1 3000); do
    if _cg_ping "$r/docker.sock" && { [ "$CG_BACKEND" = docker ] || _cg_ping "$r/podman.sock"; }; then return 0; fi
    if ! kill -0 "$CG_GW_PID" 2>/dev/null; then
      wait "$CG_GW_PID" 2>/dev/null; local rc=$?
      echo "integration: gateway exited with $rc before answering; log tail:" >&2
      tail -n 20 "$log" | sed 's/^/    /' >&2
      return 1
    fi
    sleep 0.02
  done
  echo "integration: gateway pid $CG_GW_PID did not answer on $r within 60 s; log tail:" >&2
  tail -n 20 "$log" | sed 's/^/    /' >&2
  return 1
}

cg_gateway_stop() {
  local pid=$1
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "integration: gateway pid $pid still alive 5 s after SIGTERM; SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
  return 0
}

# cg_bg CMD... : background helper (e.g. a held connection), killed at teardown
cg_bg() {
  "$@" &
  CG_BG_PID=$!
  CG_BG_PIDS+=("$CG_BG_PID")
}

# cg_listener WORD: a TCP listener on 0.0.0.0 with an ephemeral port that answers every
# connection with WORD and a newline, by cg_bg (stopped by the caller by CG_BG_PID, else at
# teardown); sets CG_LISTENER_PORT. Returns 1 when it does not listen within 10 s.
cg_listener() {
  local f
  f=$(mktemp "$CG_TMP/listener.XXXXXX")
  cg_bg python3 -c 'import socket, sys
s = socket.socket(); s.bind(("0.0.0.0", 0)); s.listen(16)
print(s.getsockname()[1], flush=True); sys.stdout.close()
while True:
    c, _ = s.accept(); c.sendall((sys.argv[1] + "\n").encode()); c.close()' "$1" >"$f" 2>/dev/null
  cg_wait_for 10000 test -s "$f" || return 1
  CG_LISTENER_PORT=$(cat "$f")
}

# children of a pid (direct only)
cg_children() {
  local k
  for k in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    [ "$(cat /proc/$k/comm 2>/dev/null)" = cg-pinner ] || echo "$k"
  done
}
# cg_pinner PID: the monitor's pinner (comm cg-pinner; doc/privsep.md "The pinner"), if any
cg_pinner() {
  local k
  for k in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    [ "$(cat /proc/$k/comm 2>/dev/null)" = cg-pinner ] && echo "$k"
  done
  return 0
}
# cg_nchildren PID OP N: the monitor's zygote and request parsers (cg_children) number OP N
cg_nchildren() { [ "$(cg_children "$1" | wc -w)" "$2" "$3" ]; }

cg_monitor_fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
cg_monitor_own_fds() {
  ss -xpn 2>/dev/null | python3 -c '
import re, sys
mon, backend = sys.argv[1], sys.argv[2]
local, mine = {}, []
for line in sys.stdin:
    f = line.split()
    if len(f) < 8 or not f[0].startswith("u_"): continue
    local[f[5]] = f[4]                       # inode -> bound path (or *)
    if re.search(r"pid=%s," % mon, line): mine.append(f[7])   # peer inode
print(sum(1 for peer in mine if local.get(peer) == backend))' "$1" "$2" |
  { read -r nb; echo $(( $(cg_monitor_fds "$1") - ${nb:-0} )); }
}

# the request parsers among a monitor's children: all but the zygote they are
# forked from (its name is cg-zygote; theirs cg-conn)
cg_parsers() {
  local k
  for k in $(cg_children "$1"); do
    [ "$(cat /proc/$k/comm 2>/dev/null)" = cg-zygote ] || echo "$k"
  done
}

cg_teardown() {
  local rc=$? p
  trap - EXIT INT TERM
  for p in "${CG_BG_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  for p in "${CG_GW_PIDS[@]}"; do cg_gateway_stop "$p"; done
  if [ "$CG_PM_OWN" = 1 ] && [ -e "$CG_PM_DIR" ]; then
    "$CG_REPO/scripts/podman-down.sh" "$CG_PM_DIR" || echo "integration: podman-down failed" >&2
  fi
  if [ "$CG_DD_OWN" = 1 ] && [ -e "$CG_DD_DIR" ]; then
    if [ "${CG_KEEP:-0}" = 1 ] && [ -f "$CG_DD_DIR/dockerd.log" ]; then cp "$CG_DD_DIR/dockerd.log" "$CG_TMP/dockerd.log"; fi
    "$CG_REPO/scripts/dockerd-down.sh" "$CG_DD_DIR" || echo "integration: dockerd-down failed" >&2
  fi
  if [ "${CG_KEEP:-0}" = 1 ]; then echo "# kept $CG_TMP" >&2; else rm -rf "$CG_TMP"; fi
  cg_unpin_dead
  exit "$rc"
}

# cg_unpin_dead: the pins of gateways whose run directory is gone are unmounted
# (tests/integration/unpin-dead.sh; teardown runs it)
# (pins exist only for a root gateway; rootless.sh's user runs a copy without the script)
cg_unpin_dead() {
  [ "$(id -u)" = 0 ] && [ -x "$CG_REPO/tests/integration/unpin-dead.sh" ] || return 0
  "$CG_REPO/tests/integration/unpin-dead.sh"
}
trap cg_teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# cg_two_gateways: the backend, projects p1 and p2, a gateway for each.
# Sets P1 R1 GW1 and P2 R2 GW2; on failure reports it, prints the summary and
# returns 1 (the caller exits).
cg_two_gateways() {
  if ! cg_backend_up; then fail "$CG_BACKEND backend" "backend start-up failed"; cg_summary; return 1; fi
  cg_project p1; P1=$P; R1=$R
  cg_project p2; P2=$P; R2=$R
  if ! cg_gateway_start "$P1" "$R1"; then fail "gateway for project 1 starts" "see above"; cg_summary; return 1; fi
  GW1=$CG_GW_PID
  if ! cg_gateway_start "$P2" "$R2"; then fail "gateway for project 2 starts" "see above"; cg_summary; return 1; fi
  GW2=$CG_GW_PID
  echo "# gateways ready ($CG_BACKEND): p1 pid ${GW1:-direct} ($R1), p2 pid ${GW2:-direct} ($R2)"
}

# cg_compare_flows LABEL DIRECT GATEWAY: judge one client's FLOW lines (FLOW<TAB>name<TAB>ok|fail
# <TAB>ms[<TAB>message]) of a run directly against the backend (file DIRECT) and one through a
# gateway (file GATEWAY): every flow that works directly must work through the gateway; a flow
# named "refused: ..." runs through the gateway only and must pass there. The caller's
# associative arrays (declare -A, may be empty) name the exceptions:
#   KNOWN_DIRECT_FAIL["<backend>:<flow>"]=why          fails against the backend itself (SKIP)
#   PENDING_GATEWAY_FAIL["<flow>"]="<text>|<why>"      refused by the gateway for a reason another
#                                                      change removes: SKIP when the message holds
#                                                      <text>, FAIL otherwise
# Prints a PASS/FAIL/SKIP line per flow and "# LABEL on <backend>: D of N flows work directly, G of N
# through the gateway"; sets CG_FLOWS_N, CG_FLOWS_DIRECT, CG_FLOWS_GATEWAY.
cg_compare_flows() {
  local label=$1 d=$2 g=$3 name res msg dres dmsg known pend
  declare -A direct=()
  CG_FLOWS_N=0; CG_FLOWS_DIRECT=0; CG_FLOWS_GATEWAY=0
  while IFS=$'\t' read -r _ name res _ msg; do direct[$name]="$res"$'\t'"$msg"; done < <(grep '^FLOW' "$d")
  while IFS=$'\t' read -r _ name res _ msg; do
    if [[ $name == refused:* ]]; then
      if [ "$res" = ok ]; then pass "gateway ($CG_BACKEND): $name"; else fail "gateway ($CG_BACKEND): $name" "$msg" quiet; fi
      continue
    fi
    CG_FLOWS_N=$((CG_FLOWS_N + 1))
    dres=${direct[$name]:-missing}; dmsg=${dres#*$'\t'}; dres=${dres%%$'\t'*}
    known=${KNOWN_DIRECT_FAIL[$CG_BACKEND:$name]:-}
    pend=${PENDING_GATEWAY_FAIL[$name]:-}
    [ "$dres" = ok ] && CG_FLOWS_DIRECT=$((CG_FLOWS_DIRECT + 1))
    [ "$res" = ok ] && CG_FLOWS_GATEWAY=$((CG_FLOWS_GATEWAY + 1))
    if [ "$dres" != ok ] && [ -n "$known" ]; then
      skip "$name ($CG_BACKEND)" "fails directly too ($known): $dmsg"
    elif [ "$dres" != ok ]; then
      fail "$name ($CG_BACKEND)" "fails directly against the backend: $dmsg" quiet
    elif [ "$res" = ok ]; then
      pass "$name ($CG_BACKEND): direct and through the gateway"
    elif [ -n "$pend" ] && [[ $msg == *"${pend%%|*}"* ]]; then
      skip "$name ($CG_BACKEND)" "${pend#*|}: $msg"
    else
      fail "$name ($CG_BACKEND)" "works directly, through the gateway: $msg" quiet
    fi
  done < <(grep '^FLOW' "$g")
  [ "$CG_FLOWS_N" -gt 0 ] || fail "$label flows ran" "no FLOW line; stderr: $(tail -n 3 "$g.err" 2>/dev/null)" quiet
  echo "# $label on $CG_BACKEND: $CG_FLOWS_DIRECT of $CG_FLOWS_N flows work directly, $CG_FLOWS_GATEWAY of $CG_FLOWS_N through the gateway"
}

# cg_run_scenarios [NAME...]: run the named scenario functions (default: ${ALL[@]}),
# timing each; after a failure, show the gateways' errors and denials and any
# seccomp kill of this binary the kernel logged.
cg_run_scenarios() {
  local s t0 l
  if [ $# -gt 0 ]; then SEL=("$@"); else SEL=("${ALL[@]}"); fi
  for s in "${SEL[@]}"; do
    t0=$(_cg_ms)
    "$s"
    echo "# $s: $(( $(_cg_ms) - t0 )) ms"
  done
  [ "$CG_FAILED" -gt 0 ] && [ "$CG_DIRECT" != 1 ] || return 0
  for l in "$R1.log" "$R2.log"; do
    [ -f "$l" ] || continue
    echo "# $l: last warnings/errors/denials"
    grep -E ' (ERROR|WARNING) |decision=(deny|error)' "$l" | tail -n 15 | sed 's/^/#   /'
  done
  # a request parser killed by seccomp: the kernel's audit line names the syscall
  if cat "$R1.log" "$R2.log" 2>/dev/null | grep -q 'died: SIGSYS'; then
    echo "# seccomp kills of this binary in the kernel log (count, native syscall number, arch $(uname -m)):"
    dmesg 2>/dev/null | grep 'type=1326' | grep -F "exe=\"$(realpath "$CG_GATEWAY")\"" |
      grep -oE 'syscall=[0-9]+' | sort | uniq -c | sed 's/^/#   /'
  fi
}
