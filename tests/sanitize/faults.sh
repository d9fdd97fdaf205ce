#!/bin/bash
# tests/sanitize/faults.sh — the fault table of doc/reliability.md against a real private podman:
# each fault is caused for real (the podman service SIGKILLed and restarted, clients
# that leave half-way, a request parser SIGKILLed, 500 slow connections, oversized
# heads and bodies, the connection limit, a client killed mid-exec), and each row
# asserts
#   * the client's clear error (the status and message, or the client's error text);
#   * that the gateway keeps serving: a following request is answered;
#   * that nothing was half-forwarded: the backend's state is what it was (no container
#     created, nothing forwarded), or, where the backend itself acts on what it got,
#     what it did, measured direct too;
#   * exactly one access line per request: the rows' clients are raw HTTP clients
#     (tests/sanitize/faultclient.py, curl) whose every request is known, and the
#     gateway log's access lines are counted.
# and, where a client left, that its request parser and the monitor's descriptors
# (kept backend connections aside) are back to their counts within a second.
#
#   tests/sanitize/faults.sh              every row (make check)
#   tests/sanitize/faults.sh r_slowloris  only the named row functions
#   FAULTS_RECORD=1 ...                   also write doc/results/faults.env and
#                                         faults.tsv (make reliability-report)
# Exit 77 = skipped (not root). Last line: "N passed, M failed".
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP faults: needs root (rootful podman backend)"
  exit 77
fi
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../integration/lib.sh"
. "$HERE/lib.sh"
FC=$HERE/faultclient.py
MIB=$((1 << 20))
declare -A FC_PID FC_FD
ROWS=()

bk() { curl -s -m 10 --unix-socket "$CG_BACKEND_SOCK" "http://d$1"; }
bk_status() { curl -s -m 10 -o /dev/null -w '%{http_code}' --unix-socket "$CG_BACKEND_SOCK" "http://d$1"; }
# a command in a container, run by the backend directly (not through the gateway)
bk_exec() { DOCKER_HOST="unix://$CG_BACKEND_SOCK" timeout 30 docker exec "$@" 2>&1; }
parsers() { cg_parsers "$GW1" | wc -w; }
own_fds() { cg_monitor_own_fds "$GW1" "$CG_BACKEND_SOCK"; }
settled() { [ "$(parsers)" -le 1 ]; }   # only the spare parser

# ---- fault clients: faultclient.py in the background, driven through a fifo ---------
fc_start() {  # NAME MODE ARGS...
  local name=$1 fd; shift
  rm -f "$CG_TMP/$name.in" "$CG_TMP/$name.out"
  mkfifo "$CG_TMP/$name.in"
  python3 "$FC" "$@" <"$CG_TMP/$name.in" >"$CG_TMP/$name.out" 2>&1 &
  FC_PID[$name]=$!
  CG_BG_PIDS+=("$!")
  exec {fd}>"$CG_TMP/$name.in"
  FC_FD[$name]=$fd
}
fc_line() {  # NAME ERE MS: wait for an output line matching ERE; it is left in FC_LINE
  local until=$(( $(cg_ms) + $3 ))
  while :; do
    FC_LINE=$(grep -E -m 1 -- "$2" "$CG_TMP/$1.out" 2>/dev/null) && return 0
    if [ "$(cg_ms)" -ge "$until" ] || ! kill -0 "${FC_PID[$1]}" 2>/dev/null; then
      FC_LINE=$(grep -E -m 1 -- "$2" "$CG_TMP/$1.out" 2>/dev/null) && return 0
      FC_LINE="(no '$2' from the client: $(tail -n 2 "$CG_TMP/$1.out" | tr '\n' ' '))"
      return 1
    fi
    sleep 0.02
  done
}
fc_say() { echo "$2" >&"${FC_FD[$1]}"; }
# fc_kill_parser NAME FIELD WORD: SIGKILL the request parser whose pid is field FIELD of
# the client's last line (FC_LINE), then tell the client WORD
fc_kill_parser() { kill -KILL "$(awk -v f="$2" '{print $f}' <<<"$FC_LINE")"; fc_say "$1" "$3"; }
fc_end() {  # NAME: close its stdin, wait for it (5 s), then kill it
  local fd=${FC_FD[$1]} pid=${FC_PID[$1]}
  exec {fd}>&-
  cg_wait_for 5000 sh -c "! kill -0 $pid 2>/dev/null" || kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}

# ---- rows -------------------------------------------------------------------------
row() {  # NAME FAULT: start a row (and its access-line count) on gateway 1
  ROW=$1 ROW_FAULT=$2 ROW_ERR= ROW_SERVE= ROW_HALF= ROW_LINES= ROW_OK=1 ROW_T0=$(cg_ms)
  ROW_LOG=$R1.log; MARK=$(stat -c %s "$ROW_LOG"); NREQ=0
}
ok() { pass "$ROW: $1"; }
bad() { fail "$ROW: $1" "$2" quiet; ROW_OK=0; }
row_end() {
  ROWS+=("$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$ROW" "$ROW_FAULT" "$ROW_ERR" "$ROW_SERVE" \
    "$ROW_HALF" "$ROW_LINES" "$([ "$ROW_OK" = 1 ] && echo pass || echo FAIL)" "$(( $(cg_ms) - ROW_T0 ))")")
}
access_since() { tail -c +$((MARK + 1)) "$ROW_LOG" | grep -c ' INFO access conn='; }
# lines_exact: the row's NREQ requests have exactly NREQ access lines (waits up to 5 s
# for the last ones: a connection's line may come when it is freed)
lines_exact() {
  local got
  cg_wait_for 5000 sh -c "[ \$(tail -c +$((MARK + 1)) '$ROW_LOG' | grep -c ' INFO access conn=') -ge $NREQ ]"
  got=$(access_since)
  ROW_LINES="$got for $NREQ requests"
  if [ "$got" -eq "$NREQ" ]; then ok "exactly one access line per request ($got for $NREQ)"
  else
    bad "exactly one access line per request" "$got access lines for $NREQ requests"
    tail -c +$((MARK + 1)) "$ROW_LOG" | grep ' INFO access conn=' | sed 's/^/    | /' | tail -n 12
  fi
}
# follow: a following request (GET /_ping, forwarded) through gateway 1; its status in
# FOLLOW; one more request for the row
follow() {
  FOLLOW=$(curl -s -m 30 -o /dev/null -w '%{http_code}' --unix-socket "$R1/docker.sock" http://d/_ping)
  NREQ=$((NREQ + 1))
}
serves() {  # NAME [WANT]: assert the following request got WANT (200)
  local want=${2:-200}
  follow
  ROW_SERVE="${ROW_SERVE:+$ROW_SERVE; }$1: GET /_ping → $FOLLOW"
  if [ "$FOLLOW" = "$want" ]; then ok "the gateway keeps serving ($1: $want)"
  else bad "the gateway keeps serving ($1: $want)" "GET /_ping → $FOLLOW"; fi
}
# freed_since WHAT: the client is gone (its process reaped): within 1 s its request
# parser is gone, and then the monitor's descriptors (counted with ss, which itself
# takes a while on a busy machine: not part of the second) are back to P0/F0
freed_since() {
  local t0=$(cg_ms) dt
  if cg_wait_for 1000 cg_nchildren "$GW1" -le $((P0 + 1)); then
    dt=$(( $(cg_ms) - t0 ))
    fds_back() { [ "$(own_fds)" -le "$F0" ]; }
    if cg_wait_for 2000 fds_back; then
      ok "$1: its request parser gone within $dt ms, the monitor's descriptors back to $F0"
    else bad "$1: the monitor's descriptors back" "$(own_fds), was $F0"; fi
  else bad "$1: its request parser gone within 1 s" "parsers $(parsers) (was $P0)"; fi
}
baseline() { cg_wait_for 10000 settled; P0=$(parsers); F0=$(own_fds); }
no_container() {  # NAME: the backend has no container NAME
  local st; st=$(bk_status "/v1.41/containers/$1/json")
  ROW_HALF="${ROW_HALF:+$ROW_HALF; }no container $1 (backend inspect: $st)"
  if [ "$st" = 404 ]; then ok "nothing forwarded: no container $1 on the backend"
  else bad "nothing forwarded: no container $1 on the backend" "the backend's inspect answered $st"; fi
}
pm_kill() { kill -KILL "$(cat "$CG_PM_DIR/service.pid")"; cg_wait_for 5000 sh -c "! curl -sf -m 1 --unix-socket '$CG_BACKEND_SOCK' http://d/_ping >/dev/null 2>&1"; }
pm_restart() {
  if "$CG_REPO/scripts/podman-up.sh" --restart "$CG_PM_DIR" >>"$CG_TMP/podman-up.log" 2>&1; then return 0; fi
  bad "podman restarts" "$(tail -n 3 "$CG_TMP/podman-up.log")"; return 1
}
# served_after_restart: 10 requests on one kept-alive connection, then one on a new
# one: every one answered 200 (the pool's connections to the old service never show)
served_after_restart() {
  local out
  out=$("$CG_REPO/bench/loadgen" lat --sock "$R1/docker.sock" --n 10 --warmup 0 --path /_ping)
  NREQ=$((NREQ + 10))
  if grep -q '"n":10,"sent":10,"errors":0' <<<"$out"; then
    ROW_SERVE="${ROW_SERVE:+$ROW_SERVE; }after the restart: 10 of 10 on a kept-alive connection → 200"
    ok "after the restart: 10 requests on a kept-alive connection answered 200"
  else bad "after the restart: 10 requests answered 200" "$out"; fi
}

# ---- the rows ----------------------------------------------------------------------

# The backend SIGKILLed (a) while a client is still sending a create body: the body is
# checked whole before anything is sent, so nothing reaches the backend; (b) with a
# request forwarded and not answered yet (a libpod wait); then restarted.
r_backend_mid_request() {
  row "backend killed mid-request, then restarted" \
      "podman SIGKILLed (a) while a client sends a create body, (b) with a libpod wait forwarded and unanswered; then restarted"
  baseline
  fc_start cr create "$R1/docker.sock" fault-br
  fc_line cr '^half ' 10000
  pm_kill
  fc_say cr rest
  fc_line cr '^(answer|closed)' 30000
  fc_end cr
  NREQ=$((NREQ + 1))
  ROW_ERR="(a) ${FC_LINE#answer }"
  if [[ $FC_LINE == "answer 502 container-gateway: backend-unreachable: the podman backend is unreachable"* ]]; then
    ok "(a) the client reads 502 backend-unreachable"
  else bad "(a) the client reads 502 backend-unreachable" "$FC_LINE"; fi
  serves "(a) while the backend is down" 502
  pm_restart || return
  serves "(a) after the restart"
  served_after_restart
  no_container fault-br
  # (b) forwarded, no answer yet
  local markb; markb=$(stat -c %s "$ROW_LOG")
  fc_start wt hold "$R1/podman.sock" 1 "/v4.0.0/libpod/containers/fc/wait?condition=exited"
  fc_line wt '^sent' 10000
  cg_wait_for 10000 sh -c "tail -c +$((markb + 1)) '$ROW_LOG' | grep -q 'type=VERDICT .*verdict=forwarded'"
  pm_kill
  local t0=$(cg_ms) ans
  cg_wait_for 10000 sh -c "tail -c +$((MARK + 1)) '$ROW_LOG' | grep -q 'path=/v4.0.0/libpod/containers/[0-9a-f]*/wait decision=error'"
  ans=$(tail -c +$((MARK + 1)) "$ROW_LOG" | grep -o 'path=/v4.0.0/libpod/containers/[0-9a-f]*/wait decision=error.*' | head -n 1)
  NREQ=$((NREQ + 1))
  fc_end wt
  ROW_ERR="$ROW_ERR; (b) 502 ${ans##*detail=}"
  if [[ $ans == *"code=backend-unreachable status=502"*"the backend closed without a response"* ]]; then
    ok "(b) the forwarded request ends with 502 backend-unreachable within $(( $(cg_ms) - t0 )) ms"
  else bad "(b) the forwarded request ends with 502 backend-unreachable" "${ans:-no access line}"; fi
  pm_restart || return
  serves "(b) after the restart"
  local state; state=$(bk /v1.41/containers/fc/json | python3 -c 'import json,sys; print(json.load(sys.stdin)["State"]["Status"])' 2>&1)
  ROW_HALF="$ROW_HALF; (b) the waited-on container is $state"
  if [ "$state" = running ]; then ok "(b) the waited-on container is still running"
  else bad "(b) the waited-on container is still running" "$state"; fi
  lines_exact
  row_end
}

# The backend SIGKILLed while a 64 MiB download is being relayed, then restarted: the
# client sees the answer end early (never a complete-looking one); its parser is gone.
r_backend_mid_stream() {
  row "backend killed mid-stream, then restarted" \
      "podman SIGKILLed while the monitor relays a 64 MiB archive download (GET /containers/{id}/archive); then restarted"
  baseline
  fc_start dl download "$R1/docker.sock" fc /tmp/dl $((4 * MIB))
  fc_line dl '^read ' 30000
  pm_kill
  fc_say dl rest
  fc_line dl '^end ' 30000
  fc_end dl
  NREQ=$((NREQ + 1))
  local got=${FC_LINE#end }
  ROW_ERR="the body ends after $(( ${got%% *} / MIB )) MiB of 64 ($(cut -d' ' -f2 <<<"$got"): no last chunk), then the connection closes"
  if [[ $FC_LINE == "end "*" truncated" ]]; then ok "the client sees a truncated answer, never a complete one"
  else bad "the client sees a truncated answer" "$FC_LINE"; fi
  ROW_HALF="a read: the backend's state is unchanged; the client is told by the framing that the body did not end"
  freed_since "the relayed download"
  pm_restart || return
  serves "after the restart"
  served_after_restart
  lines_exact
  row_end
}

# A client that leaves mid-upload: (a) half a create body (the child reads JSON bodies
# whole first: nothing is forwarded); (b) half of a 64 MiB archive upload (streamed:
# the backend gets the bytes sent, never a completed body).
r_client_gone_upload() {
  row "client gone mid-upload" \
      "the client exits after (a) half of a create body, (b) 32 MiB of a 64 MiB chunked archive upload (PUT /containers/{id}/archive), (c) 256 KiB of an upload whose chunk size is ffffffffffffff"
  baseline
  fc_start cu create "$R1/docker.sock" fault-cu
  fc_line cu '^half ' 10000
  fc_say cu exit
  fc_end cu
  NREQ=$((NREQ + 1))
  freed_since "(a) the half create"
  no_container fault-cu
  baseline
  fc_start up upload "$R1/docker.sock" fc /tmp "$TAR"
  fc_line up '^half ' 60000
  fc_say up exit
  fc_end up
  NREQ=$((NREQ + 1))
  freed_since "(b) the half upload"
  # podman writes an archive as it reads it: what it got stays (direct podman too)
  local gw direct
  cg_wait_for 10000 sh -c "[ \"\$(DOCKER_HOST=unix://$CG_BACKEND_SOCK timeout 10 docker exec fc sh -c 'wc -c < /tmp/up; sleep 0.3; wc -c < /tmp/up' 2>/dev/null | uniq | wc -l)\" = 1 ]"
  gw=$(bk_exec fc sh -c 'wc -c < /tmp/up')
  python3 "$FC" upload "$CG_BACKEND_SOCK" fc /tmp/direct "$TAR" </dev/null >/dev/null 2>&1
  cg_wait_for 10000 sh -c "[ \"\$(DOCKER_HOST=unix://$CG_BACKEND_SOCK timeout 10 docker exec fc sh -c 'wc -c < /tmp/direct/up; sleep 0.3; wc -c < /tmp/direct/up' 2>/dev/null | uniq | wc -l)\" = 1 ]"
  direct=$(bk_exec fc sh -c 'wc -c < /tmp/direct/up')
  ROW_HALF="(a) no container; (b) podman keeps the $(( gw / MIB )) MiB it had extracted of the 32 MiB sent (direct podman: $(( direct / MIB )) MiB), the last chunk never came"
  if [ "$gw" -lt $((64 * MIB)) ] && [ "$direct" -lt $((64 * MIB)) ]; then
    ok "(b) the backend never got a complete body: $gw bytes of the file kept (direct: $direct), of 64 MiB"
  else bad "(b) the backend never got a complete body" "file sizes $gw (direct $direct)"; fi
  baseline
  fc_start hc hugechunk "$R1/docker.sock" fc
  fc_line hc '^sent ' 30000
  fc_end hc
  NREQ=$((NREQ + 1))
  freed_since "(c) the huge chunk"
  ROW_ERR="none to read: the client is gone (access lines: $(tail -c +$((MARK + 1)) "$ROW_LOG" | grep ' INFO access conn=' | grep -o 'detail="[^"]*"' | sort -u | tr '\n' ' '))"
  serves "afterwards"
  lines_exact
  row_end
}

# A client that leaves mid-download: 4 MiB of a 64 MiB archive read, then gone.
r_client_gone_download() {
  row "client gone mid-download" "the client exits after reading 4 MiB of a 64 MiB archive download"
  baseline
  fc_start cd download "$R1/docker.sock" fc /tmp/dl $((4 * MIB))
  fc_line cd '^read ' 30000
  fc_say cd exit
  fc_end cd
  NREQ=$((NREQ + 1))
  freed_since "the download"
  ROW_ERR="none to read: the client is gone; its exchange ends, the backend connection is closed, not kept"
  ROW_HALF="a read: the backend's state is unchanged"
  serves "afterwards"
  lines_exact
  row_end
}

# A request parser SIGKILLed (a) while its client sends a create body, (b) while the
# monitor relays a download to its client, (c) between two requests of a kept-alive
# connection.
r_child_killed() {
  row "a request parser killed" \
      "the parser SIGKILLed (a) while its client sends a create body, (b) while the monitor relays a 64 MiB download, (c) between two requests on a kept-alive connection"
  baseline
  fc_start ck create "$R1/docker.sock" fault-ck
  fc_line ck '^half ' 10000
  fc_kill_parser ck 2 rest
  fc_line ck '^(answer|closed)' 10000
  fc_end ck
  NREQ=$((NREQ + 1))
  ROW_ERR="(a) $FC_LINE"
  if [[ $FC_LINE == closed* ]]; then ok "(a) the client sees its connection closed without an answer"
  else bad "(a) the client sees its connection closed" "$FC_LINE"; fi
  freed_since "(a) the killed parser"
  no_container fault-ck
  baseline
  fc_start kd download "$R1/docker.sock" fc /tmp/dl $((4 * MIB))
  fc_line kd '^read ' 30000
  fc_kill_parser kd 3 rest
  fc_line kd '^end ' 30000
  fc_end kd
  NREQ=$((NREQ + 1))
  ROW_ERR="$ROW_ERR; (b) the body ends after $(( $(awk '{print $2}' <<<"$FC_LINE") / MIB )) MiB, $(awk '{print $3}' <<<"$FC_LINE")"
  if [[ $FC_LINE == "end "*" truncated" ]]; then ok "(b) the client sees a truncated answer"
  else bad "(b) the client sees a truncated answer" "$FC_LINE"; fi
  freed_since "(b) the killed parser"
  baseline
  fc_start ka keepalive "$R1/docker.sock"
  fc_line ka '^answered ' 30000
  NREQ=$((NREQ + 1))
  fc_kill_parser ka 2 again
  fc_line ka '^(answer |closed)' 10000
  fc_end ka
  NREQ=$((NREQ + 1))
  ROW_ERR="$ROW_ERR; (c) the next request on the connection: $FC_LINE"
  if [[ $FC_LINE == closed* ]]; then
    NREQ=$((NREQ - 1))   # never read by the gateway: it has no access line
    ok "(c) the next request on that connection finds it closed"
  else bad "(c) the next request finds the connection closed" "$FC_LINE"; fi
  freed_since "(c) the killed idle parser"
  ROW_HALF="(a) no container; (b), (c) reads"
  serves "afterwards"
  lines_exact
  row_end
}

# 500 slow-header connections from one process for 10 s while the owner (curl, other
# processes) sends a request every 0.2 s.
r_slowloris() {
  row "a slowloris of 500" \
      "one process keeps 500 connections sending a head that never ends (one byte more per round, reopened when closed) for 10 s; the owner sends GET /_ping every 0.2 s"
  local out o503 opened owner_ok owner_failed worst fwd
  baseline
  out=$(python3 "$FC" slowloris "$R1/docker.sock" 500 10 /_ping 2>&1 | tail -n 1)
  echo "    slowloris: $out"
  read -r opened o503 owner_ok owner_failed worst < <(python3 -c 'import json,sys; v=json.loads(sys.argv[1]); print(v["opened"], v["got503"], v["owner_ok"], v["owner_failed"], v["owner_max_ms"])' "$out" 2>/dev/null || echo "0 0 0 1 0")
  ROW_ERR="the attacker: 503 too-many-connections on $o503 of its $opened connections (it holds half the slots); the owner: none"
  if [ "$owner_failed" -eq 0 ] && [ "$owner_ok" -gt 0 ]; then
    ROW_SERVE="the owner: $owner_ok of $owner_ok answered 200 (slowest $worst ms)"
    ok "every owner request answered 200 ($owner_ok, slowest $worst ms)"
  else bad "every owner request answered 200" "$owner_ok ok, $owner_failed failed"; fi
  # the owner's requests: one line each; the attacker's connections: one each (its 503,
  # or the head it began, logged when the connection ends)
  NREQ=$((owner_ok + owner_failed + opened))
  cg_wait_for 5000 settled
  fwd=$(tail -c +$((MARK + 1)) "$ROW_LOG" | grep -c 'path=/v1.41/containers/json')
  ROW_HALF="no slow request reached the backend ($fwd forwarded)"
  if [ "$fwd" -eq 0 ]; then ok "no slow request was forwarded"
  else bad "no slow request was forwarded" "$fwd"; fi
  freed_since "the attacker's connections, once it left,"
  serves "afterwards"
  lines_exact
  row_end
}

# Oversized heads and bodies: a 70 KiB head; a 9 MiB create body with Content-Length
# (refused before it is read, the client still sending reads the 413); a chunked 9 MiB one.
r_oversized() {
  row "oversized heads and bodies" \
      "a 70 KiB request head; a 9 MiB create body (Content-Length); a 9 MiB chunked create body"
  local out
  baseline
  out=$(curl -s -m 30 -w ' %{http_code}' --unix-socket "$R1/docker.sock" -H "X-Big: $(head -c 70000 /dev/zero | tr '\0' x)" http://d/v1.41/version)
  NREQ=$((NREQ + 1))
  ROW_ERR="head: ${out##* } $(sed 's/.*"message":"\([^"]*\)".*/\1/' <<<"$out")"
  if [[ $out == *'header-too-large: request head exceeds 64 KiB'*' 431' ]]; then ok "70 KiB head: 431 header-too-large"
  else bad "70 KiB head: 431 header-too-large" "$out"; fi
  python3 -c 'import json; print(json.dumps({"Image":"localhost/busybox","Cmd":["true"],"Env":["X="+"x"*(9<<20)]}))' >"$CG_TMP/big.json"
  out=$(curl -s -m 60 -w ' %{http_code}' --unix-socket "$R1/docker.sock" -H 'Content-Type: application/json' \
    --data-binary @"$CG_TMP/big.json" 'http://d/v1.41/containers/create?name=fault-big')
  NREQ=$((NREQ + 1))
  ROW_ERR="$ROW_ERR; body: ${out##* } $(sed 's/.*"message":"\([^"]*\)".*/\1/' <<<"$out")"
  if [[ $out == *'too-large: request body exceeds 8 MiB'*' 413' ]]; then ok "9 MiB body: 413 too-large, read by a client still sending"
  else bad "9 MiB body: 413 too-large" "$out"; fi
  out=$(curl -s -m 60 -w ' %{http_code}' --unix-socket "$R1/docker.sock" -H 'Content-Type: application/json' \
    -H 'Transfer-Encoding: chunked' --data-binary @"$CG_TMP/big.json" 'http://d/v1.41/containers/create?name=fault-bigc')
  NREQ=$((NREQ + 1))
  ROW_ERR="$ROW_ERR; chunked body: ${out##* }"
  if [[ $out == *'too-large: request body exceeds 8 MiB'*' 413' ]]; then ok "9 MiB chunked body: 413 too-large"
  else bad "9 MiB chunked body: 413 too-large" "$out"; fi
  rm -f "$CG_TMP/big.json"
  no_container fault-big
  no_container fault-bigc
  serves "afterwards"
  lines_exact
  row_end
}

# The connection limit: gateway 2 (--max-connections 4) with 4 requests in flight; a
# create from another process gets the 503; a slot frees when one of the 4 leaves.
r_conn_limit() {
  row "the connection limit reached (503)" \
      "gateway 2 runs with --max-connections 4; 4 connections hold libpod waits in flight; another process sends a create"
  ROW_LOG=$R2.log; MARK=$(stat -c %s "$ROW_LOG")
  local out i st
  fc_start ho hold "$R2/podman.sock" 4 "/v4.0.0/libpod/containers/fl/wait?condition=exited"
  fc_line ho '^sent' 10000
  NREQ=$((NREQ + 4))
  cg_wait_for 20000 sh -c "[ \$(tail -c +$((MARK + 1)) '$ROW_LOG' | grep -c 'type=VERDICT .*verdict=forwarded') -ge 4 ]"
  out=$(curl -s -m 30 -w ' %{http_code}' --unix-socket "$R2/docker.sock" -H 'Content-Type: application/json' \
    -d '{"Image":"localhost/busybox","Cmd":["true"]}' 'http://d/v1.41/containers/create?name=fault-limit')
  NREQ=$((NREQ + 1))
  ROW_ERR="${out##* } $(sed 's/.*"message":"\([^"]*\)".*/\1/' <<<"$out")"
  if [[ $out == *'too-many-connections: more than 4 connections are open'*' 503' ]]; then ok "the fifth connection reads the 503 too-many-connections"
  else bad "the fifth connection reads the 503" "$out"; fi
  # the issue's counts: Python 13 of 100, curl 22 of 50, the docker CLI 1 of 20 saw it
  local py cu=0 dcli=0 out
  py=$(python3 "$FC" limit "$R2/docker.sock" 100 2>&1)
  NREQ=$((NREQ + 100))
  for i in $(seq 50); do
    out=$(curl -s -m 30 --unix-socket "$R2/docker.sock" -H 'Content-Type: application/json' \
      -d '{"Image":"localhost/busybox","Cmd":["true"]}' 'http://d/v1.41/containers/create?name=fault-limit')
    NREQ=$((NREQ + 1))
    [[ $out == *'too-many-connections: more than 4 connections are open'* ]] && cu=$((cu + 1))
  done
  local L503; L503=$(tail -c +$((MARK + 1)) "$ROW_LOG" | grep -c 'code=too-many-connections')
  for i in $(seq 20); do
    out=$(DOCKER_HOST="unix://$R2/docker.sock" timeout 30 docker ps 2>&1)
    [[ $out == *'too-many-connections: more than 4 connections are open'* ]] && dcli=$((dcli + 1))
  done
  # the docker CLI's connections are its own business: counted from the log
  NREQ=$((NREQ + $(tail -c +$((MARK + 1)) "$ROW_LOG" | grep -c 'code=too-many-connections') - L503))
  ROW_ERR="$ROW_ERR; and so it read by Python ${py#saw503 }, curl $cu of 50, the docker CLI $dcli of 20"
  if [ "$py" = "saw503 100 of 100" ] && [ "$cu" = 50 ] && [ "$dcli" = 20 ]; then
    ok "the 503 is read by Python 100 of 100, curl 50 of 50, the docker CLI 20 of 20"
  else bad "the 503 is read by every client" "Python ${py#saw503 }, curl $cu of 50, the docker CLI $dcli of 20"; fi
  no_container fault-limit
  fc_say ho close
  fc_line ho '^closed' 5000
  # the slot frees once the monitor has seen the close: retried until then
  for i in $(seq 50); do
    st=$(curl -s -m 30 -o /dev/null -w '%{http_code}' --unix-socket "$R2/docker.sock" http://d/_ping)
    NREQ=$((NREQ + 1))
    [ "$st" = 503 ] || break
    sleep 0.05
  done
  ROW_SERVE="after one of the 4 left: GET /_ping → $st (after $((i - 1)) more 503)"
  if [ "$st" = 200 ]; then ok "a slot frees when one of the 4 leaves: 200"
  else bad "a slot frees when one of the 4 leaves" "$st"; fi
  fc_end ho
  lines_exact
  row_end
}

# A client SIGKILLed while it streams stdin into an exec (docker exec -i, raw).
r_killed_exec() {
  row "a client killed mid-exec" \
      "a raw client creates an exec (cat > /dev/null), starts it upgraded and streams zeros into it; SIGKILLed after 4 MiB"
  local n0
  baseline
  n0=$(bk '/v1.41/containers/json?all=1' | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
  fc_start ex exec "$R1/docker.sock" fc
  fc_line ex '^streaming' 30000
  kill -KILL "${FC_PID[ex]}"
  fc_end ex
  NREQ=$((NREQ + 2))
  ROW_ERR="none to read: the client is killed; its stream is torn down"
  freed_since "the killed exec"
  local n1; n1=$(bk '/v1.41/containers/json?all=1' | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
  ROW_HALF="$n1 containers on the backend, as before ($n0); the exec session itself outlives its client on podman 4.3.1, direct too"
  if [ "$n1" = "$n0" ]; then ok "the backend's containers are as before ($n0)"
  else bad "the backend's containers are as before" "$n1, was $n0"; fi
  serves "afterwards"
  lines_exact
  row_end
}

ALL=(r_backend_mid_request r_backend_mid_stream r_client_gone_upload r_client_gone_download
     r_child_killed r_slowloris r_oversized r_conn_limit r_killed_exec)

# ---- main -------------------------------------------------------------------------
if ! cg_require docker curl python3 timeout ss; then fail "prerequisites" "missing tools"; cg_summary; exit; fi
if [ ! -x "$CG_REPO/bench/loadgen" ]; then fail "loadgen" "no bench/loadgen (make bench/loadgen)"; cg_summary; exit; fi
if ! cg_backend_up; then fail "podman backend" "start-up failed"; cg_summary; exit; fi
cg_project f1; P1=$P; R1=$R
if ! cg_gateway_start "$P1" "$R1"; then fail "gateway 1 starts" "see above"; cg_summary; exit; fi
GW1=$CG_GW_PID
cg_project f2; P2=$P; R2=$R
CG_GW_EXTRA=(--max-connections 4)
if ! cg_gateway_start "$P2" "$R2"; then fail "gateway 2 starts" "see above"; cg_summary; exit; fi
GW2=$CG_GW_PID
CG_GW_EXTRA=()
cg_run dk run -d --name fc --network none $IMG sleep 600
if [ $CG_RC -ne 0 ]; then fail "setup: a container" "docker run -d failed"; cg_summary; exit; fi
cg_run env DOCKER_HOST="unix://$R2/docker.sock" timeout 60 docker run -d --name fl --network none $IMG sleep 600
if [ $CG_RC -ne 0 ]; then fail "setup: a container of project 2" "docker run -d failed"; cg_summary; exit; fi
cg_run dk exec fc sh -c "head -c $((64 * MIB)) /dev/urandom > /tmp/dl && mkdir -p /tmp/direct"
mkdir -p "$CG_TMP/tar" && head -c $((64 * MIB)) /dev/urandom > "$CG_TMP/tar/up"
TAR=$CG_TMP/up.tar
tar -C "$CG_TMP/tar" -cf "$TAR" up && rm -rf "$CG_TMP/tar"
echo "# gateway 1 pid $GW1 ($R1), gateway 2 pid $GW2 (--max-connections 4)"
T0=$(cg_ms)
if [ $# -gt 0 ]; then SEL=("$@"); else SEL=("${ALL[@]}"); fi
for s in "${SEL[@]}"; do
  t0=$(_cg_ms); "$s"; echo "# $s: $(( $(_cg_ms) - t0 )) ms"
done
SECS=$(( ($(cg_ms) - T0) / 1000 ))
if [ "$CG_FAILED" -gt 0 ]; then
  grep -E ' (ERROR|WARNING) ' "$R1.log" "$R2.log" | tail -n 20 | sed 's/^/    log| /'
fi
if [ "${FAULTS_RECORD:-0}" = 1 ]; then
  printf '%s\n' "${ROWS[@]}" >"$SAN_RESULTS/faults.tsv"
  san_record faults rows="${#ROWS[@]}" checks_passed="$CG_PASSED" checks_failed="$CG_FAILED" seconds="$SECS" \
    podman="$(podman --version | awk '{print $3}')" load_avg="$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# recorded doc/results/faults.env and faults.tsv"
fi
cg_summary
