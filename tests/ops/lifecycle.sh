#!/bin/bash
# tests/ops/lifecycle.sh — pid file and single instance (cli.md §6), stop (§11),
# status (§12), daemon mode (§10), signals, idle timeout (§9), socket binding
# (§7 step 11), backend discovery corner cases (§8). Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
SERVE=(--backend podman --podman-socket "$FAKE" --egress off)
NOTRUN='{"running": false, "pid": null, "sockets": {"podman": null, "docker": null}, "serving": [], "sandbox": null}'

# start_fg LOG ARGS...: serve in the foreground (background job), wait for docker.sock
start_fg() {
  local log=$1; shift
  ops_bg "$GW" serve "$@" 2>"$log"
  GWPID=$OPS_BG_PID
}
alive() { kill -0 "$1" 2>/dev/null; }
# wait_exit PID SECS: wait for a background job; its status in $WRC
wait_exit() {
  ops_wait_for "! alive $1" "$2" || { WRC=timeout; return 1; }
  wait "$1" 2>/dev/null; WRC=$?
}

# ---- status and stop of a running foreground gateway -------------------------------
ops_git_project st
start_fg "$OPS_TMP/st.log" --project "$P" "${SERVE[@]}"
ops_wait_for "[ -S '$R/docker.sock' ]" 10
expect_status "status: running, exact JSON" \
  "{\"running\": true, \"pid\": $GWPID, \"sockets\": {\"podman\": \"$R/podman.sock\", \"docker\": \"$R/docker.sock\"}, \"serving\": [\"podman\", \"docker\"], \"sandbox\": \"full\"}" \
  "$GW" status --project "$P"
check "pid file holds <pid>\\n" [ "$(od -An -c "$R/container-gateway.pid" | tr -s ' ')" = " $(echo "$GWPID" | sed 's/./& /g')\\n" ]
check "pid file 0600" [ "$(stat -c %a "$R/container-gateway.pid")" = 600 ]
LEAK=0
for c in $(ps -o pid= --ppid "$GWPID"); do
  ls -l "/proc/$c/fd" 2>/dev/null | grep -q container-gateway.pid && LEAK=1
done
check "request-parser children do not hold the pid-file lock" [ "$LEAK" = 0 ]
expect "second serve says it is already running (exit 0)" 0 \
  "container-gateway: already running (pid $GWPID)" "" "$GW" serve --project "$P" "${SERVE[@]}"
expect_line "second serve with other flags warns which differ" 0 \
  "container-gateway: warning: the running gateway has other flags than these: --egress=off (not require), --idle-timeout=14400 (not 600); run container-gateway stop first to start it with yours" \
  "$GW" serve --project "$P" "${SERVE[@]}" --idle-timeout 600 --egress require
check "second serve with other flags: still prints the pid on stdout" [ "$OUT" = "container-gateway: already running (pid $GWPID)" ]
# --log-max-size was once left out of the comparison: a second serve with another cap said nothing
expect_line "second serve with another --log-max-size warns" 0 \
  "container-gateway: warning: the running gateway has other flags than these: --log-max-size=16777216 (not 1048576); run container-gateway stop first to start it with yours" \
  "$GW" serve --project "$P" "${SERVE[@]}" --log-max-size 1M
expect "stop: stops it, prints nothing" 0 "" "" "$GW" stop --project "$P"
wait_exit "$GWPID" 20
check "stop: gateway exited 0" [ "$WRC" = 0 ]
check "graceful exit: sockets and pid file removed" test ! -e "$R/podman.sock" -a ! -e "$R/docker.sock" -a ! -e "$R/container-gateway.pid"
check "log: received SIGTERM; exiting" grep -q 'INFO received SIGTERM; exiting$' "$OPS_TMP/st.log"
expect "status: not running" 3 "$NOTRUN" "" "$GW" status --project "$P"
expect "stop: nothing to stop" 0 "" "" "$GW" stop --project "$P"

# ---- SIGINT ---------------------------------------------------------------------------
start_fg "$OPS_TMP/int.log" --project "$P" "${SERVE[@]}"
ops_wait_for "[ -S '$R/docker.sock' ]" 10
kill -INT "$GWPID"; wait_exit "$GWPID" 20
check "SIGINT: exit 0" [ "$WRC" = 0 ]
check "SIGINT: logged" grep -q 'INFO received SIGINT; exiting$' "$OPS_TMP/int.log"

# ---- concurrent starts leave exactly one gateway ---------------------------------------
ops_git_project race
PIDS=()
for i in 1 2 3 4 5; do start_fg "$OPS_TMP/race$i.log" --project "$P" "${SERVE[@]}"; PIDS+=("$GWPID"); done
# the losers exit by themselves; wait for that (and the winner's sockets), not a fixed time
n_alive() { local p n=0; for p in "${PIDS[@]}"; do alive "$p" && n=$((n + 1)); done; echo $n; }
ops_wait_for '[ "$(n_alive)" -le 1 ] && [ -S "$R/docker.sock" ]' 60
NALIVE=0; WINNER=
for p in "${PIDS[@]}"; do if alive "$p"; then NALIVE=$((NALIVE + 1)); WINNER=$p; else wait "$p"; [ $? = 0 ] || NALIVE=99; fi; done
check "5 concurrent serve: exactly one gateway left, the others exit 0" [ "$NALIVE" = 1 ]
check "5 concurrent serve: the pid file names the survivor" [ "$(cat "$R/container-gateway.pid")" = "$WINNER" ]
"$GW" stop --project "$P" >/dev/null
ops_git_project drace
( "$GW" serve --daemon --project "$P" "${SERVE[@]}" & "$GW" serve --daemon --project "$P" "${SERVE[@]}" & wait )
DPID=$(cat "$R/container-gateway.pid")
n_daemons() {  # serve --daemon processes of this project (a loser may still be exiting)
  local p n=0
  for p in $(ps -eo pid=,ppid= | awk '$2 == 1 {print $1}'); do
    tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- "--project $P " && n=$((n + 1)); done
  echo $n
}
ops_wait_for '[ "$(n_daemons)" -le 1 ]' 20
check "2 concurrent serve --daemon: exactly one daemon" [ "$(n_daemons)" = 1 ]
expect "2 concurrent serve --daemon: stop" 0 "" "" "$GW" stop --project "$P"

# ---- stop refuses what it must not signal ------------------------------------------------
ops_git_project foreignpid; mkdir -p "$R"; PF=$R/container-gateway.pid
ops_bg sleep 600; VICTIM=$OPS_BG_PID
(umask 077; echo "$VICTIM" > "$PF")
ops_hold_lock "$PF"; HOLDER=$OPS_BG_PID
ops_wait_for "! flock -n '$PF' true" 5
expect "stop: unrelated process refused" 1 "" \
  "container-gateway: pid $VICTIM does not look like a container-gateway process; refusing to signal" \
  "$GW" stop --project "$P"
check "stop: unrelated process still alive" alive "$VICTIM"
expect "status: locked pid file of another process = not running" 3 "$NOTRUN" \
  "container-gateway: pid $VICTIM serves no socket of $R (podman.sock, docker.sock): it is not this run directory's gateway; counting it as not running" \
  "$GW" status --project "$P"
echo 1 > "$PF"
expect "stop: locked, pid 1 is not a valid pid" 1 "" \
  "container-gateway: $PF is locked but holds no valid pid; refusing to signal" "$GW" stop --project "$P"
printf 'abc\n' > "$PF"
expect "stop: locked, garbage content" 1 "" \
  "container-gateway: $PF is locked but holds no valid pid; refusing to signal" "$GW" stop --project "$P"
expect "status: locked, garbage content = not running" 3 "$NOTRUN" "" "$GW" status --project "$P"
check "status: untrustworthy pid file left alone" test -f "$PF"
printf '12345678901\n' > "$PF"
expect "stop: 11 digits is not a pid" 1 "" \
  "container-gateway: $PF is locked but holds no valid pid; refusing to signal" "$GW" stop --project "$P"
printf '9999999999\n' > "$PF"
expect "stop: 10-digit pid beyond pid_t refused" 1 "" \
  "container-gateway: pid 9999999999 does not look like a container-gateway process; refusing to signal" \
  "$GW" stop --project "$P"
kill "$HOLDER"; ops_wait_for "flock -n '$PF' true" 20   # the lock is free once it died

echo "$VICTIM" > "$PF"; chmod 0644 "$PF"
expect "stop: 0644 pid file refused" 2 "" \
  "container-gateway: $PF is not a plain, owned, 0600 pid file; refusing" "$GW" stop --project "$P"
expect "status: 0644 pid file = not running" 3 "$NOTRUN" "" "$GW" status --project "$P"
check "status: 0644 pid file left alone" test -f "$PF"
chmod 0600 "$PF"; chown 65534 "$PF"
expect "stop: foreign-owned pid file refused" 2 "" \
  "container-gateway: $PF is not a plain, owned, 0600 pid file; refusing" "$GW" stop --project "$P"
rm -f "$PF"; ln -s "$OPS_TMP/elsewhere.pid" "$PF"
expect "stop: symlinked pid file refused" 2 "" \
  "container-gateway: $PF is not a plain, owned, 0600 pid file; refusing" "$GW" stop --project "$P"
run "$GW" serve --project "$P" "${SERVE[@]}"
check "serve: symlinked pid file refused (exit 2)" [ "$RC" = 2 ]
check "serve: symlink target not created" test ! -e "$OPS_TMP/elsewhere.pid"
rm -f "$PF"

(umask 077; echo "$VICTIM" > "$PF")
expect "status: stale pid file" 3 "$NOTRUN" "" "$GW" status --project "$P"
check "status: stale pid file removed" test ! -e "$PF"
(umask 077; echo "$VICTIM" > "$PF")
expect "stop: stale pid file, nothing printed" 0 "" "" "$GW" stop --project "$P"
check "stop: stale pid file removed" test ! -e "$PF"
check "stop: stale pid's process not signalled" alive "$VICTIM"

# ---- stop signals only the gateway serving this run directory (red-team rt10 F3) ----------
# Whoever can write a run directory (a container binding the project, in the default layout)
# swaps the pid file for one naming another project's gateway and holds its lock: stop and
# status must see that the run directory's sockets are served by another pid.
ops_git_project victimgw; VP=$P; VR=$R
start_fg "$OPS_TMP/victimgw.log" --project "$VP" "${SERVE[@]}"; BPID=$GWPID
ops_git_project swapped
start_fg "$OPS_TMP/swapped.log" --project "$P" "${SERVE[@]}"; APID=$GWPID
ops_wait_for "[ -S '$R/docker.sock' ] && [ -S '$VR/docker.sock' ]" 10
PF=$R/container-gateway.pid
mv "$PF" "$PF.real"; (umask 077; echo "$BPID" > "$PF")
ops_hold_lock "$PF"; HOLDER=$OPS_BG_PID
ops_wait_for "! flock -n '$PF' true" 5
expect "stop: a pid file naming another project's gateway is refused" 1 "" \
  "container-gateway: $PF names pid $BPID, but the run directory's sockets are served by pid $APID: the pid file was replaced; refusing to signal" \
  "$GW" stop --project "$P"
check "stop: the other project's gateway was not signalled" alive "$BPID"
check "stop: ... and still serves" bash -c "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' '$VR/docker.sock'"
expect "status: a pid file naming another project's gateway = not running" 3 "$NOTRUN" \
  "container-gateway: $PF names pid $BPID, but the run directory's sockets are served by pid $APID: the pid file was replaced; counting it as not running" \
  "$GW" status --project "$P"
expect "serve: already running, without the forged pid" 0 "container-gateway: already running" "" \
  "$GW" serve --project "$P" "${SERVE[@]}"
# the same with the run directory's sockets replaced by symlinks to the other project's
mv "$R/docker.sock" "$R/docker.sock.real"; mv "$R/podman.sock" "$R/podman.sock.real"
ln -s "$VR/docker.sock" "$R/docker.sock"; ln -s "$VR/podman.sock" "$R/podman.sock"
expect "stop: sockets symlinked to the other project's do not count" 1 "" \
  "container-gateway: pid $BPID serves no socket of $R (podman.sock, docker.sock): it is not this run directory's gateway; refusing to signal" \
  "$GW" stop --project "$P"
check "stop: the other project's gateway still alive" alive "$BPID"
kill "$HOLDER"; ops_wait_for "flock -n '$PF' true" 20
rm -f "$R/docker.sock" "$R/podman.sock"; mv "$R/docker.sock.real" "$R/docker.sock"
mv "$R/podman.sock.real" "$R/podman.sock"; mv -f "$PF.real" "$PF"
# inside an agent's sandbox with its own pid namespace (tool.md) the listener is out of sight:
# status still says running, with the pid file's pid (nothing there can signal it)
if unshare --pid --fork --mount-proc true 2>/dev/null; then
  run unshare --pid --fork --mount-proc "$GW" status --project "$P"
  check "status in another pid namespace: running, the pid file's pid (exit 0)" \
    bash -c "[ $RC = 0 ] && grep -qF '\"running\": true, \"pid\": $APID,' '$OPS_TMP/.out'"
else echo "SKIP status in another pid namespace: unshare --pid not permitted"; fi
expect "stop: the real pid file again: stops its own gateway" 0 "" "" "$GW" stop --project "$P"
wait_exit "$APID" 20
check "stop: its own gateway exited 0" [ "$WRC" = 0 ]
check "stop: the other gateway still alive" alive "$BPID"
"$GW" stop --project "$VP" >/dev/null; wait_exit "$BPID" 20

# ---- idle timeout (§9.2) -------------------------------------------------------------------
# Robust by design: nothing races the timer. The first test only measures that an idle
# gateway ends by itself; the second holds a connection that was opened before the timer
# could fire (the client waits for the socket before the gateway even starts) and measures
# the exit against the moment the connection was released.
ops_git_project idle
start_fg "$OPS_TMP/idle.log" --project "$P" "${SERVE[@]}" --idle-timeout 1
wait_exit "$GWPID" 60
check "--idle-timeout 1: exits by itself with 0" [ "$WRC" = 0 ]
check "--idle-timeout 1: logs 'idle for 1s; exiting'" grep -q 'INFO idle for 1s; exiting$' "$OPS_TMP/idle.log"
check "--idle-timeout 1: sockets and pid file removed" test ! -e "$R/docker.sock" -a ! -e "$R/container-gateway.pid"

IDLE=3
ops_hold_conn "$R/docker.sock" "$OPS_TMP/idle-release" "$OPS_TMP/idle-connected"
CLIENT=$OPS_BG_PID
start_fg "$OPS_TMP/idle2.log" --project "$P" "${SERVE[@]}" --idle-timeout "$IDLE"
ops_wait_for "[ -e '$OPS_TMP/idle-connected' ]" 60
check "idle timeout: the client connected while the gateway was up" alive "$GWPID"
sleep $((2 * IDLE))   # the property is about time: alive for twice the timeout
check "idle timeout: an open connection keeps the gateway alive past the timeout" alive "$GWPID"
T0=$(date +%s%N)
: > "$OPS_TMP/idle-release"
wait_exit "$GWPID" 60
ELAPSED=$(( ($(date +%s%N) - T0) / 1000000 ))
check "idle timeout: exits once the connection closed" [ "$WRC" = 0 ]
check "idle timeout: not before the timeout elapsed after the close (${ELAPSED} ms)" [ "$ELAPSED" -ge $((IDLE * 1000)) ]
check "idle timeout: no access line for a connection that sent nothing" bash -c "! grep -q ' access ' '$OPS_TMP/idle2.log'"
wait "$CLIENT" 2>/dev/null

# ---- daemon mode (§10) ------------------------------------------------------------------------
ops_git_project daemon
expect "--daemon: exits 0, prints nothing" 0 "" "" "$GW" serve --daemon --project "$P" "${SERVE[@]}"
check "--daemon: sockets listen when it returns" test -S "$R/podman.sock" -a -S "$R/docker.sock"
DPID=$(cat "$R/container-gateway.pid")
check "--daemon: daemon alive" alive "$DPID"
check "--daemon: own session, not a session leader" [ "$(ps -o sid= -p "$DPID" | tr -d ' ')" != "$DPID" -a "$(ps -o sid= -p "$DPID" | tr -d ' ')" != "$(ps -o sid= -p $$ | tr -d ' ')" ]
check "--daemon: cwd is /" [ "$(readlink "/proc/$DPID/cwd")" = / ]
check "--daemon: stdin is /dev/null" [ "$(readlink "/proc/$DPID/fd/0")" = /dev/null ]
check "--daemon: stdout and stderr are the log" [ "$(readlink "/proc/$DPID/fd/1")" = "$R/container-gateway.log" -a "$(readlink "/proc/$DPID/fd/2")" = "$R/container-gateway.log" ]
check "--daemon: log file 0600" [ "$(stat -c %a "$R/container-gateway.log")" = 600 ]
check "--daemon: umask 077" grep -q '^Umask:[[:space:]]*0077' "/proc/$DPID/status"
check "--daemon: start line in the log" grep -q "INFO container-gateway [0-9.]* serving $P (run directory $R)" "$R/container-gateway.log"
expect "--daemon: second start says so (exit 0)" 0 "container-gateway: already running (pid $DPID)" "" \
  "$GW" serve --daemon --project "$P" "${SERVE[@]}"
check "--daemon: still the same daemon" [ "$(cat "$R/container-gateway.pid")" = "$DPID" ]
mv "$R/container-gateway.log" "$R/container-gateway.log.1"
kill -HUP "$DPID"; ops_wait_for "[ -e '$R/container-gateway.log' ]" 20   # reopened
check "--daemon: survives SIGHUP" alive "$DPID"
expect "--daemon: stop" 0 "" "" "$GW" stop --project "$P"
check "--daemon: gone after stop" ops_wait_for "! alive $DPID" 20
check "--daemon: SIGHUP reopened the log (exit line in the new file)" grep -q 'received SIGTERM; exiting' "$R/container-gateway.log"
check "--daemon: rotated file kept the old lines" bash -c "grep -q 'serving' '$R/container-gateway.log.1' && ! grep -q 'received SIGTERM' '$R/container-gateway.log.1'"

: > "$OPS_TMP/notasock"
expect_line "--daemon: failure before ready is reported with the daemon's code" 2 \
  "container-gateway: daemon failed to start (exit 2); see $R/container-gateway.log" \
  "$GW" serve --daemon --project "$P" --backend podman --podman-socket "$OPS_TMP/notasock" --egress off
check "--daemon: the reason is on stderr too" grep -qxF "container-gateway: --podman-socket $OPS_TMP/notasock is not a socket" "$OPS_TMP/.err"
check "--daemon: the reason is in the log" grep -q "container-gateway: --podman-socket $OPS_TMP/notasock is not a socket" "$R/container-gateway.log"
check "--daemon: failed start left no pid file" test ! -e "$R/container-gateway.pid"
rm -f "$R/container-gateway.log"; ln -s "$OPS_TMP/elsewhere.log" "$R/container-gateway.log"
run "$GW" serve --daemon --project "$P" "${SERVE[@]}"
check "--daemon: symlinked log file refused (exit 2)" [ "$RC" = 2 ]
check "--daemon: symlinked log target not created" test ! -e "$OPS_TMP/elsewhere.log"
rm -f "$R/container-gateway.log"

# ---- binding (§7 step 11) and backends (§8) ------------------------------------------------------
ops_git_project bind; mkdir -p "$R"
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$R/podman.sock"
start_fg "$OPS_TMP/bind.log" --project "$P" "${SERVE[@]}"
ops_wait_for "[ -S '$R/docker.sock' ]" 10
check "stale socket file is replaced" bash -c "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' '$R/podman.sock'"
"$GW" stop --project "$P" >/dev/null; wait_exit "$GWPID" 5
: > "$R/docker.sock"
expect_line "a regular file at docker.sock is refused" 2 \
  "container-gateway: $R/docker.sock exists and is not a socket; refusing to bind over it" \
  "$GW" serve --project "$P" "${SERVE[@]}"
check "refused bind: podman.sock unlinked again, pid file removed" test ! -e "$R/podman.sock" -a ! -e "$R/container-gateway.pid"
rm -f "$R/docker.sock"
ops_fake_backend "$R/docker.sock"
expect_line "a live socket at docker.sock is refused" 2 \
  "container-gateway: $R/docker.sock is in use by another process; refusing to bind over it" \
  "$GW" serve --project "$P" "${SERVE[@]}"
expect_line "own socket as backend refused" 2 \
  "container-gateway: backend socket $R/docker.sock is one of the gateway's own sockets; pass another --run-dir" \
  "$GW" serve --project "$P" --backend docker --docker-socket "$R/docker.sock" --egress off

ops_git_project nob
if [ -e /run/podman/podman.sock ]; then echo "SKIP no backend: /run/podman/podman.sock exists"; else
  run "$GW" serve --project "$P" --backend podman --egress off
  check "no backend: exit 0" [ "$RC" = 0 ]
  check "no backend: WARNING line" grep -q 'WARNING no podman or docker backend found; nothing to serve$' "$OPS_TMP/.err"
  check "no backend: what to do (systemctl --user for rootless podman, or --podman-socket)" grep -q 'WARNING start one: rootless podman with systemctl --user enable --now podman.socket (its socket is $XDG_RUNTIME_DIR/podman/podman.sock), rootful podman with systemctl enable --now podman.socket as root; .*--podman-socket PATH' "$OPS_TMP/.err"
  check "no backend: the paths tried" grep -qF "WARNING tried \"$XDG_RUNTIME_DIR/podman/podman.sock (from XDG_RUNTIME_DIR): no such file; /run/podman/podman.sock (the rootful podman socket): no such file\"" "$OPS_TMP/.err"
  env -u XDG_RUNTIME_DIR "$GW" serve --project "$P" --backend podman --egress off 2>"$OPS_TMP/.err" >/dev/null
  check "no backend, XDG_RUNTIME_DIR unset: said so" grep -qF "WARNING tried \"- (from XDG_RUNTIME_DIR): XDG_RUNTIME_DIR is not set (a login session sets it to /run/user/<uid>); /run/podman/podman.sock (the rootful podman socket): no such file\"" "$OPS_TMP/.err"
  check "no backend: no socket, no pid file" test ! -e "$R/podman.sock" -a ! -e "$R/docker.sock" -a ! -e "$R/container-gateway.pid"
  # with --daemon the start failed: the reason on stderr, exit non-zero
  expect_line "--daemon, no backend: exit 1, the reason on stderr" 1 \
    "container-gateway: no podman or docker backend found; nothing to serve" \
    "$GW" serve --daemon --project "$P" --backend podman --egress off
  check "--daemon, no backend: then where to read more" grep -qxF \
    "container-gateway: daemon failed to start (exit 1); see $R/container-gateway.log" "$OPS_TMP/.err"
  check "--daemon, no backend: no socket, no pid file" test ! -e "$R/podman.sock" -a ! -e "$R/docker.sock" -a ! -e "$R/container-gateway.pid"
fi
# DOCKER_HOST pointing at the gateway itself is skipped by discovery
start_fg "$OPS_TMP/self.log" --project "$P" "${SERVE[@]}"
ops_wait_for "[ -S '$R/docker.sock' ]" 10
ops_git_project self2
run env DOCKER_HOST="unix://$OPS_TMP/nob/.git/apache-magpie/run/main/docker.sock" \
  "$GW" serve --project "$OPS_TMP/nob" --backend docker --egress off
check "second serve of the same project with DOCKER_HOST at itself: no-op" [ "$RC" = 0 ]
"$GW" stop --project "$OPS_TMP/nob" >/dev/null

# ---- never another gateway as the backend (tool.md) -------------------------------------------
# (a fake whose _ping answer carries Container-Gateway; the real chain through two real
# gateways is tests/integration/usability.sh)
FAKEGW=$OPS_TMP/fakegw.sock
ops_fake_backend "$FAKEGW" gateway
ops_git_project chain
run env DOCKER_HOST="unix://$FAKEGW" "$GW" serve --project "$P" --backend docker --egress off
check "DOCKER_HOST at another gateway: skipped, nothing to serve (exit 0)" [ "$RC" = 0 ]
check "DOCKER_HOST at another gateway: a WARNING says why" grep -qF \
  "WARNING skipping $FAKEGW (from DOCKER_HOST): it is another container-gateway (Container-Gateway: 9.9.9), not a docker daemon; a gateway never uses another gateway as its backend" "$OPS_TMP/.err"
check "DOCKER_HOST at another gateway: no socket served" test ! -e "$R/docker.sock"
run env DOCKER_HOST="unix://$FAKEGW" "$GW" serve --project "$P" --podman-socket "$FAKE" --egress off --idle-timeout 0.1
check "DOCKER_HOST at another gateway: docker.sock served by podman instead" \
  grep -qF "INFO docker clients -> $R/docker.sock (backend podman at $FAKE)" "$OPS_TMP/.err"
expect_line "--docker-socket at another gateway: refused (exit 2)" 2 \
  "container-gateway: --docker-socket $FAKEGW is another container-gateway (Container-Gateway: 9.9.9), not a docker daemon; a gateway never uses another gateway as its backend: pass the daemon's own socket" \
  "$GW" serve --project "$P" --backend docker --docker-socket "$FAKEGW" --egress off
expect_line "--podman-socket at another gateway: refused (exit 2)" 2 \
  "container-gateway: --podman-socket $FAKEGW is another container-gateway (Container-Gateway: 9.9.9), not a podman daemon; a gateway never uses another gateway as its backend: pass the daemon's own socket" \
  "$GW" serve --project "$P" --backend podman --podman-socket "$FAKEGW" --egress off
check "refused explicit gateway socket: no socket, no pid file" test ! -e "$R/podman.sock" -a ! -e "$R/container-gateway.pid"

# ---- the backend's kind is what answers, not what named it ------------------------------------
FAKEV=$OPS_TMP/fake-version.sock; ops_fake_backend "$FAKEV" version-podman
ops_git_project kindv
"$GW" serve --project "$P" --backend docker --docker-socket "$FAKEV" --egress off --idle-timeout 0.3 2>"$OPS_TMP/kind.log"
check "kind: a podman known only by GET /version, named --docker-socket, gets podman's rules" \
  grep -qF "INFO docker clients -> $R/docker.sock (backend podman at $FAKEV)" "$OPS_TMP/kind.log"
check "kind: ... and says so" grep -qF "INFO $FAKEV (--docker-socket) is a podman daemon" "$OPS_TMP/kind.log"
FAKEA=$OPS_TMP/fake-anon.sock; ops_fake_backend "$FAKEA" anonymous
"$GW" serve --project "$P" --backend docker --docker-socket "$FAKEA" --egress off --idle-timeout 0.3 2>"$OPS_TMP/kind.log"
check "kind: a daemon that does not say keeps the kind it was named for, with a WARNING" \
  grep -qF "WARNING $FAKEA (--docker-socket) did not say which daemon it is (no Libpod-Api-Version, no Server: Libpod/ or Docker/, no Podman Engine in GET /version); applying the docker rules it was named for" "$OPS_TMP/kind.log"
check "kind: ... docker" grep -qF "(backend docker at $FAKEA)" "$OPS_TMP/kind.log"

ops_summary
