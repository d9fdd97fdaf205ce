#!/bin/bash
# tests/ops/confine.sh — the monitor confines itself once it serves (doc/privsep.md
# "The monitor's confinement"): /proc shows its seccomp filter, no_new_privs and the
# capabilities it keeps; a forbidden system call made inside the live monitor (injected
# with gdb, as an exploit would make it) is refused, logged as an ERROR and ends the
# gateway with SIGSYS; Landlock keeps file removal inside the run directory; the death of
# the zygote stops the gateway cleanly (the confined monitor cannot start another); a
# daemon is confined too. Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
SERVE=(--backend podman --podman-socket "$FAKE" --egress off)
REPORTED='ERROR the monitor made a system call its seccomp filter forbids: number'

alive() { kill -0 "$1" 2>/dev/null; }
# start_fg LOG ARGS...: serve in the foreground (background job) until it is confined
start_fg() {
  local log=$1; shift
  ops_bg "$GW" serve "$@" 2>"$log"
  GWPID=$OPS_BG_PID
  ops_wait_for "grep -q 'monitor confined' '$log'" 30
}
# wait_exit PID SECS: wait for a background job; its status in $WRC
wait_exit() {
  ops_wait_for "! alive $1" "$2" || { WRC=timeout; return 1; }
  wait "$1" 2>/dev/null; WRC=$?
}
field() { sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status"; }
# the capabilities the monitor keeps (monitor/confine.c): CAP_KILL as root, CAP_NET_ADMIN
# when the host caps socket buffers below the IPC pairs' 512 KiB
want_caps() {
  local c=0
  if [ "$(id -u)" = 0 ]; then
    c=$((1 << 5))
    if [ "$(cat /proc/sys/net/core/wmem_max)" -lt 524288 ] || [ "$(cat /proc/sys/net/core/rmem_max)" -lt 524288 ]; then
      c=$((c | 1 << 12)); fi
  fi
  printf '%016x' "$c"
}
# inject EXPR into the live monitor PID with gdb; SIGSYS goes to the monitor's handler
inject() {
  timeout 30 gdb -p "$1" -batch -ex 'handle SIGSYS nostop noprint pass' -ex "$2" \
    >"$OPS_TMP/gdb.out" 2>&1
}

if ! command -v gdb >/dev/null; then fail "gdb is installed (scripts/install-deps.sh)" "no gdb"; ops_summary; exit; fi

# ---- /proc of a serving monitor ----------------------------------------------------------
ops_git_project proc
start_fg "$OPS_TMP/proc.log" --project "$P" "${SERVE[@]}"
check "confined: the start-up line says so" grep -qE "INFO monitor confined: seccomp=on no_new_privs=on capabilities=[a-z_,]+ landlock=" "$OPS_TMP/proc.log"
check "confined: Seccomp 2 (filter)" [ "$(field "$GWPID" Seccomp)" = 2 ]
check "confined: NoNewPrivs 1" [ "$(field "$GWPID" NoNewPrivs)" = 1 ]
check "confined: CapEff is only what the loop uses ($(want_caps))" [ "$(field "$GWPID" CapEff)" = "$(want_caps)" ]
check "confined: CapPrm = CapEff" [ "$(field "$GWPID" CapPrm)" = "$(want_caps)" ]
check "confined: CapInh and CapAmb empty" [ "$(field "$GWPID" CapInh)" = 0000000000000000 -a "$(field "$GWPID" CapAmb)" = 0000000000000000 ]
if [ "$(id -u)" = 0 ]; then
  check "confined: bounding set empty (root)" [ "$(field "$GWPID" CapBnd)" = 0000000000000000 ]
fi
# no descriptor of start-up left over: the binary (fexecve) is closed once the zygote runs
check "confined: /proc/self/exe is not held open" bash -c "! ls -l /proc/$GWPID/fd | grep -q -- '-> $(realpath "$GW")\$'"
run curl -sf -m 5 --unix-socket "$R/docker.sock" http://d/_ping
check "confined: serves (_ping)" [ "$RC" = 0 -a "$OUT" = OK ]

# Landlock: unlink outside the run directory fails with EACCES, the gateway goes on
LL=$(sed -n 's/.*landlock=run-directory (ABI \([0-9]*\)).*/\1/p' "$OPS_TMP/proc.log")
if [ -n "$LL" ]; then
  : >"$OPS_TMP/victim"
  inject "$GWPID" "print (long)syscall(87, \"$OPS_TMP/victim\")"      # unlink
  check "landlock: unlink outside the run directory refused" test -e "$OPS_TMP/victim"
  check "landlock: the gateway still serves" alive "$GWPID"
  # openat with exactly the flags of the log reopen (seccomp lets them through)
  inject "$GWPID" "print (long)syscall(257, -100, \"$OPS_TMP/planted\", 0xa0c41, 0600)"
  check "landlock: no file created outside the run directory" test ! -e "$OPS_TMP/planted"
else
  pass "landlock: this kernel has none; the filter allows no open at all (tests/test_confine.c)"
fi
expect "graceful stop still removes what it created" 0 "" "" "$GW" stop --project "$P"
wait_exit "$GWPID" 20
check "graceful stop: exit 0, sockets and pid file removed" [ "$WRC" = 0 -a ! -e "$R/docker.sock" -a ! -e "$R/container-gateway.pid" ]

# ---- a forbidden call in the live monitor -------------------------------------------------
n=0
for call in execve fork socket openat ptrace; do
  case $call in
    execve) expr='call (long)syscall(59, "/bin/sh", 0, 0)'; nr=59 ;;
    fork) expr='call (long)syscall(57)'; nr=57 ;;
    socket) expr='call (long)syscall(41, 2, 1, 0)'; nr=41 ;;   # AF_INET, SOCK_STREAM
    openat) expr='call (long)syscall(257, -100, "/etc/passwd", 0)'; nr=257 ;;
    ptrace) expr='call (long)syscall(101, 16, 1, 0, 0)'; nr=101 ;;   # PTRACE_ATTACH to init
  esac
  n=$((n + 1))
  ops_git_project "kill$n"
  start_fg "$OPS_TMP/kill$n.log" --project "$P" "${SERVE[@]}"
  ZYG=$(for k in $(ps -o pid= --ppid "$GWPID"); do [ "$(cat /proc/$k/comm 2>/dev/null)" = cg-zygote ] && echo $k; done)
  inject "$GWPID" "$expr"
  wait_exit "$GWPID" 20
  check "$call in the monitor: the gateway dies of SIGSYS (exit 159)" [ "$WRC" = 159 ]
  check "$call in the monitor: ERROR line naming system call $nr" grep -q "$REPORTED $nr " "$OPS_TMP/kill$n.log"
  check "$call in the monitor: the zygote went with it" ops_wait_for "! alive ${ZYG:-0}" 10
  if [ $call = execve ]; then
    # what it left behind (sockets, pid file) does not keep the next one from starting
    start_fg "$OPS_TMP/kill$n-again.log" --project "$P" "${SERVE[@]}"
    check "after a SIGSYS death: the next serve starts over the stale files" grep -q 'monitor confined' "$OPS_TMP/kill$n-again.log"
    "$GW" stop --project "$P" >/dev/null; wait_exit "$GWPID" 20
  fi
done

# ---- the zygote dies: the gateway stops, cleanly ----------------------------------------
ops_git_project zyg
start_fg "$OPS_TMP/zyg.log" --project "$P" "${SERVE[@]}"
# a client connected and handed to a request parser; it ends when the gateway closes it
ops_bg python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); open(sys.argv[2], "w").close()
s.settimeout(60); s.recv(1)' "$R/docker.sock" "$OPS_TMP/zyg-connected"
HELD=$OPS_BG_PID
ops_wait_for "[ -e '$OPS_TMP/zyg-connected' ]" 20
ZYG=$(for k in $(ps -o pid= --ppid "$GWPID"); do [ "$(cat /proc/$k/comm 2>/dev/null)" = cg-zygote ] && echo $k; done)
check "zygote: one among the monitor's children" [ -n "$ZYG" ]
kill -KILL $ZYG
wait_exit "$GWPID" 20
check "zygote killed: the gateway stops with exit 1" [ "$WRC" = 1 ]
check "zygote killed: one ERROR line says how it ended and that the gateway stops" \
  grep -q 'ERROR the zygote ended (SIGKILL); the confined monitor cannot start another, so the gateway stops' "$OPS_TMP/zyg.log"
check "zygote killed: sockets and pid file removed" test ! -e "$R/docker.sock" -a ! -e "$R/podman.sock" -a ! -e "$R/container-gateway.pid"
check "zygote killed: the held client connection is closed" ops_wait_for "! alive $HELD" 10

# ---- the pinner dies: the gateway stops as well (doc/privsep.md "The pinner") -----------
if [ "$(id -u)" = 0 ]; then
  ops_git_project pinr
  start_fg "$OPS_TMP/pinr.log" --project "$P" "${SERVE[@]}"
  PIN=$(for k in $(ps -o pid= --ppid "$GWPID"); do [ "$(cat /proc/$k/comm 2>/dev/null)" = cg-pinner ] && echo $k; done)
  check "pinner: one among the monitor's children" [ -n "$PIN" ]
  check "pinner: CapEff CAP_DAC_OVERRIDE and CAP_SYS_ADMIN, Seccomp 2, NoNewPrivs 1" \
    [ "$(field "$PIN" CapEff)" = 0000000000200002 -a "$(field "$PIN" Seccomp)" = 2 -a "$(field "$PIN" NoNewPrivs)" = 1 ]
  kill -KILL $PIN
  wait_exit "$GWPID" 20
  check "pinner killed: the gateway stops with exit 1" [ "$WRC" = 1 ]
  check "pinner killed: one ERROR line says so" \
    grep -q 'ERROR the pinner ended (SIGKILL); the confined monitor cannot start another, so the gateway stops' "$OPS_TMP/pinr.log"
fi

# ---- daemon mode ----------------------------------------------------------------------
ops_git_project daemon
expect "--daemon: starts" 0 "" "" "$GW" serve --daemon --project "$P" "${SERVE[@]}"
DPID=$(cat "$R/container-gateway.pid")
check "--daemon: confined before it reported ready" grep -q 'monitor confined' "$R/container-gateway.log"
check "--daemon: Seccomp 2, CapEff $(want_caps)" [ "$(field "$DPID" Seccomp)" = 2 -a "$(field "$DPID" CapEff)" = "$(want_caps)" ]
mv "$R/container-gateway.log" "$R/container-gateway.log.1"
kill -HUP "$DPID"
check "--daemon: SIGHUP reopens the log in the confined daemon (Landlock)" ops_wait_for "[ -e '$R/container-gateway.log' ]" 20
check "--daemon: alive after SIGHUP, no forbidden call" [ -n "$(alive "$DPID" && echo y)" -a -z "$(grep -h forbids "$R"/container-gateway.log*)" ]
expect "--daemon: stop" 0 "" "" "$GW" stop --project "$P"
check "--daemon: gone after stop" ops_wait_for "! alive $DPID" 20

ops_summary
