#!/bin/bash
# tests/sanitize/load.sh — doc/reliability.md "Load": many keep-alive clients through the
# gateway in front of a real private podman, then everything back where it started.
#
#   LOAD_CLIENTS (256) keep-alive connections of bench/loadgen's conc mode, each sending
#   its next request as soon as its answer is complete, for LOAD_SECONDS (60), cycling
#   through a ping, the image list, the post-filtered container list and an inspect of
#   the project's own container (an ownership question); not /version: podman 4.3.1 runs
#   dpkg-query for each one, and 256 at once stall the machine. Asserted:
#     * 0 errors, every answer 200;
#     * exactly one access line per request written (loadgen's "sent": those cut off at
#       the end too), no ERROR line;
#     * afterwards, within 5 s, the request parsers back to the spare one and the
#       monitor's descriptors (its kept backend connections aside) back to their
#       starting counts, kept backend connections at most the pool's 32; with
#       LOAD_FDS_ALL=1 (make reliability-report) also all of its descriptors, once the
#       pool's idle connections expired (30 s);
#     * a 256 MiB docker cp in and out, byte for byte;
#     * the densest JSON body the gateway takes (a create whose Cmd is 8 MiB of empty
#       strings, about 2.8 million values; its image is missing, so the backend answers
#       404 and creates nothing), alone and four at once: the monitor's peak stays
#       within its bound (tests/helpers/membounds: one parse at a time, plus each
#       connection's body), and its resident memory is given back afterwards;
#     * the memory budget (--memory-budget): 24 clients with 8 MiB bodies at once to a
#       gateway with 96 MiB, each answered by podman or with a 503, the monitor's peak
#       within the budget, the densest bodies refused with a readable 503.
#   The monitor's peak RSS and PSS (tests/sanitize/memsample.py) during the load and
#   during each copy are printed, and with LOAD_RECORD=1 recorded in doc/results/load.env
#   (tests/sanitize/reliability-report.sh shows them next to the monitor's bounds).
#
# make check runs it with LOAD_SECONDS=10 (run-all.sh); make reliability-report with
# the full 60 s, LOAD_FDS_ALL=1 and LOAD_RECORD=1. Exit 77 = skipped (not root).
# Last line: "N passed, M failed".
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP load: needs root (rootful podman backend)"
  exit 77
fi
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../integration/lib.sh"
. "$HERE/lib.sh"
CLIENTS=${LOAD_CLIENTS:-256}
SECONDS_=${LOAD_SECONDS:-60}
CP_MB=${LOAD_CP_MB:-256}
LOADGEN=$CG_REPO/bench/loadgen
export CG_GW_LOG_LEVEL=info         # one access line per request; debug would log every message

procs() { local n=0 k; for k in $(cg_children "$GW"); do n=$((n + 1 + $(cg_children "$k" | wc -l))); done; echo $((n + 1)); }
parsers() { cg_parsers "$GW" | wc -w; }
own_fds() { cg_monitor_own_fds "$GW" "$CG_BACKEND_SOCK"; }
all_fds() { cg_monitor_fds "$GW"; }
access_lines() { grep -c ' INFO access conn=' "$R.log"; }
# sample NAME: start the memory sampler (stopped with sample_end NAME)
sample() { cg_bg python3 "$HERE/memsample.py" "$GW" "$CG_TMP/mem-$1"; SAMPLER=$CG_BG_PID; }
sample_end() { kill -TERM "$SAMPLER"; wait "$SAMPLER" 2>/dev/null; }
mem() { sed -n "s/^$2=//p" "$CG_TMP/mem-$1"; }
json() {  # KEY...: a value of loadgen's JSON line (0 when absent)
  python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    v = v.get(k, 0) if isinstance(v, dict) else 0
print(v)' "$CG_TMP/load.json" "$@" 2>/dev/null || echo 0
}

if ! cg_require docker curl python3 timeout sha256sum ss; then fail "prerequisites" "missing tools"; cg_summary; exit; fi
if [ ! -x "$LOADGEN" ]; then fail "loadgen" "no $LOADGEN (make bench/loadgen)"; cg_summary; exit; fi
if ! cg_backend_up; then fail "podman backend" "start-up failed"; cg_summary; exit; fi
cg_project load; P1=$P
# a budget whose parse area takes the densest 8 MiB body (below: one parse at a time)
CG_GW_EXTRA=(--memory-budget 1GiB)
if ! cg_gateway_start "$P1" "$R"; then fail "gateway starts" "see above"; cg_summary; exit; fi
GW=$CG_GW_PID
dk() { DOCKER_HOST="unix://$R/docker.sock" cg_timeout docker "$@"; }
cg_run dk run -d --name ld1 --network none $IMG sleep 600
if [ $CG_RC -ne 0 ]; then fail "load: setup" "docker run -d failed"; cg_summary; exit; fi

# ---- the load --------------------------------------------------------------------
cg_wait_for 10000 cg_nchildren "$GW" -le 2
P0=$(parsers); F0=$(own_fds); A0=$(all_fds); N0=$(procs); L0=$(access_lines)
echo "# start: gateway processes $N0 (parsers $P0), monitor fds $A0 ($F0 without kept backend connections)"
LOADAVG=$(cut -d' ' -f1-3 /proc/loadavg)
echo 5 > "/proc/$GW/clear_refs"
sample load
t0=$(cg_ms)
timeout -k 5 $((SECONDS_ + 120)) "$LOADGEN" conc --sock "$R/docker.sock" --clients "$CLIENTS" \
  --seconds "$SECONDS_" --path /_ping --path /v1.41/images/json --path '/v1.41/containers/json?all=1' \
  --path /v1.41/containers/ld1/json >"$CG_TMP/load.json" 2>"$CG_TMP/load.err"
rc=$?
sample_end load
cat "$CG_TMP/load.json"
N=$(json n); SENT=$(json sent); ERR=$(json errors); OK200=$(json status 200)
if [ $rc -eq 0 ] && [ "$ERR" = 0 ] && [ "$N" -gt 0 ] && [ "$OK200" = "$N" ]; then
  pass "$CLIENTS keep-alive clients for $SECONDS_ s: $N answers, all 200, 0 errors ($(json rps) requests/s)"
else fail "$CLIENTS keep-alive clients for $SECONDS_ s: 0 errors" "exit $rc, $ERR errors, $OK200 of $N answers 200: $(head -c 300 "$CG_TMP/load.err")" quiet; fi
if [ "$(mem load procs_max)" -ge $((CLIENTS + 2)) ]; then
  pass "load: all $CLIENTS connections were served at once ($(mem load procs_max) gateway processes at the peak)"
else fail "load: all $CLIENTS connections were served at once" "$(mem load procs_max) gateway processes at the peak" quiet; fi

# back where it started
t1=$(cg_ms)
back() { [ "$(parsers)" -le "$P0" ] && [ "$(own_fds)" -le "$F0" ]; }
if cg_wait_for 5000 back; then
  BACK_MS=$(( $(cg_ms) - t1 ))
  pass "load: parsers back to $P0 and monitor fds (kept backend connections aside) back to $F0 within $BACK_MS ms"
else BACK_MS=-1; fail "load: parsers and monitor fds back within 5 s" "parsers $(parsers) (was $P0), fds $(own_fds) (was $F0)" quiet; fi
KEPT=$(( $(all_fds) - $(own_fds) ))
if [ "$KEPT" -le 32 ]; then pass "load: $KEPT kept backend connections (pool bound 32)"
else fail "load: kept backend connections within the pool's bound" "$KEPT" quiet; fi
if [ "$(procs)" -eq "$N0" ]; then pass "load: gateway processes back to $N0"
else fail "load: gateway processes back to $N0" "$(procs)" quiet; fi
ALL_MS=-
if [ "${LOAD_FDS_ALL:-0}" = 1 ]; then
  if cg_wait_for 60000 sh -c "[ \$(ls /proc/$GW/fd | wc -l) -le $A0 ]"; then
    ALL_MS=$(( $(cg_ms) - t1 ))
    pass "load: all monitor fds back to $A0 within $ALL_MS ms (idle pool connections expire after 30 s)"
  else fail "load: all monitor fds back to $A0 within 60 s" "$(all_fds)" quiet; fi
fi
# exactly one access line per request written (those cut off at the end are logged
# when their exchange ends)
lines() { [ $(( $(access_lines) - L0 )) -ge "$SENT" ]; }
cg_wait_for 10000 lines
LINES=$(( $(access_lines) - L0 ))
if [ "$LINES" -eq "$SENT" ]; then pass "load: exactly one access line per request ($LINES for $SENT written, $N answered)"
else fail "load: exactly one access line per request" "$LINES access lines for $SENT requests written ($N answered)" quiet; fi
NERR=$(grep -c ' ERROR ' "$R.log")
if [ "$NERR" -eq 0 ]; then pass "load: no ERROR line"
else fail "load: no ERROR line" "$(grep ' ERROR ' "$R.log" | head -n 3)" quiet; fi

# ---- refusals on new connections: each logged once (2000 once gave 1,827) -----------
M1=$(stat -c %s "$R.log")
since() { tail -c +$((M1 + 1)) "$R.log" | grep ' INFO access conn=' | grep -c -- "${1:-}"; }
out=$("$LOADGEN" lat --sock "$R/docker.sock" --newconn --n 2000 --warmup 0 --path /v1.41/nonexistent)
lines403() { [ "$(since 'decision=deny code=unknown-endpoint status=403')" -ge 2000 ]; }
cg_wait_for 10000 lines403
DENY=$(since 'decision=deny code=unknown-endpoint status=403'); ALLL=$(since)
if grep -q '"n":2000,"sent":2000,"errors":2000' <<<"$out" && grep -q '"403":2000' <<<"$out" &&
   [ "$DENY" -eq 2000 ] && [ "$ALLL" -eq 2000 ]; then
  pass "2000 refused requests on new connections: 2000 answers 403, exactly 2000 deny lines"
else fail "2000 refused requests on new connections: one deny line each" "$DENY deny lines ($ALLL access lines): $out" quiet; fi

# ---- a big copy in and out: the monitor's memory -------------------------------------
head -c $((CP_MB << 20)) /dev/urandom > "$CG_TMP/big"
want=$(sha256sum < "$CG_TMP/big" | cut -d' ' -f1)
echo 5 > "/proc/$GW/clear_refs"
sample cpin
expect_ok "docker cp of $CP_MB MiB into a container" dk cp "$CG_TMP/big" ld1:/tmp/big
sample_end cpin
CPIN_HWM=$(awk '/^VmHWM/ {print $2}' "/proc/$GW/status")
echo 5 > "/proc/$GW/clear_refs"
sample cpout
expect_ok "docker cp of $CP_MB MiB out of a container" dk cp ld1:/tmp/big "$CG_TMP/big.out"
sample_end cpout
CPOUT_HWM=$(awk '/^VmHWM/ {print $2}' "/proc/$GW/status")
if [ "$(sha256sum < "$CG_TMP/big.out" | cut -d' ' -f1)" = "$want" ]; then pass "docker cp round trip of $CP_MB MiB byte for byte"
else fail "docker cp round trip of $CP_MB MiB byte for byte" "files differ" quiet; fi
rm -f "$CG_TMP/big" "$CG_TMP/big.out"
# ---- the densest JSON body: one parse at a time, given back afterwards -----------
bound() { "$CG_REPO/tests/helpers/membounds" | sed -n "s/^$1=//p"; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$GW/status"; }
python3 -c '
import sys
head = "{\"Image\":\"localhost/cg-missing:none\",\"Cmd\":["
n = ((8 << 20) - 4096 - len(head)) // 3
sys.stdout.write(head + ",".join(["\"\""] * n) + "]}")' >"$CG_TMP/dense.json"
dense() { curl -s -m 120 -o /dev/null -w '%{http_code}' --unix-socket "$R/docker.sock" \
  -H 'Content-Type: application/json' --data-binary @"$CG_TMP/dense.json" \
  "http://d/v1.41/containers/create?name=dense$1"; }
D0=$(rss_kb)
echo 5 > "/proc/$GW/clear_refs"
st=$(dense 1)
D1=$(awk '/^VmHWM/ {print $2}' "/proc/$GW/status")
given_back() { [ "$(rss_kb)" -le $((D0 + 8192)) ]; }
cg_wait_for 5000 given_back
DA=$(rss_kb)
LIM1=$(( D0 + ( $(bound tree_json) + 3 * $(bound json_max) ) / 1024 ))
if [ "$st" = 404 ] && [ "$D1" -le "$LIM1" ]; then
  pass "densest JSON body: answered (backend 404), monitor peak $D1 kB (bound $LIM1 kB: its parse and body)"
else fail "densest JSON body within the bound" "status $st, peak $D1 kB, bound $LIM1 kB" quiet; fi
if [ "$DA" -le $((D0 + 8192)) ]; then pass "densest JSON body: the monitor gives its memory back ($DA kB after, $D0 kB before)"
else fail "densest JSON body: the monitor gives its memory back" "$DA kB after, $D0 kB before" quiet; fi
echo 5 > "/proc/$GW/clear_refs"
DP=()
for i in 2 3 4 5; do dense "$i" >"$CG_TMP/dense$i.st" & DP+=($!); done
wait "${DP[@]}"
D4=$(awk '/^VmHWM/ {print $2}' "/proc/$GW/status")
LIM4=$(( D0 + ( $(bound tree_json) + 4 * $(bound json_exchange) ) / 1024 ))
if [ "$(cat "$CG_TMP"/dense[2-5].st | tr -d '\n')" = 404404404404 ] && [ "$D4" -le "$LIM4" ]; then
  pass "four densest bodies at once: monitor peak $D4 kB (bound $LIM4 kB: one parse at a time)"
else fail "four densest bodies at once within the bound" "statuses $(cat "$CG_TMP"/dense[2-5].st | tr '\n' ' '), peak $D4 kB, bound $LIM4 kB" quiet; fi
cg_wait_for 5000 given_back
rm -f "$CG_TMP/dense.json"

# ---- the memory budget: many 8 MiB bodies at once, within --memory-budget -------------
# A second gateway with a small budget (--memory-budget, doc/reliability.md): BUDGET_CLIENTS
# clients send an 8 MiB create body (one long Env string; its image is missing, so podman
# answers 404 and creates nothing) at once, then two of the densest bodies. Asserted: every
# client gets the backend's answer or the gateway's 503, none is left without one; at
# least one gets through; the monitor's peak RSS stays within the budget; a dense body's
# 503 says why (its parse would not fit). make bench runs it with 256 clients and 512 MiB.
BUDGET_MIB=${LOAD_BUDGET_MIB:-96}
BUDGET_CLIENTS=${LOAD_BUDGET_CLIENTS:-24}
python3 -c '
import sys
head = "{\"Image\":\"localhost/cg-missing:none\",\"Env\":[\"A="
sys.stdout.write(head + "x" * ((8 << 20) - 4096 - len(head) - 4) + "\"]}")' >"$CG_TMP/str.json"
python3 -c '
import sys
head = "{\"Image\":\"localhost/cg-missing:none\",\"Cmd\":["
n = ((8 << 20) - 4096 - len(head)) // 3
sys.stdout.write(head + ",".join(["\"\""] * n) + "]}")' >"$CG_TMP/dense.json"
cg_project budget; PB=$P; RB=$CG_TMP/rb
CG_GW_EXTRA=(--memory-budget "${BUDGET_MIB}MiB" --max-connections 32 --backend-timeout 60)
if cg_gateway_start "$PB" "$RB"; then
  GB=$CG_GW_PID
  echo 5 > "/proc/$GB/clear_refs"
  timeout -k 5 300 "$LOADGEN" post --sock "$RB/docker.sock" --clients "$BUDGET_CLIENTS" \
    --body "$CG_TMP/str.json" --path /v1.41/containers/create --timeout-s 240 >"$CG_TMP/budget.json"
  timeout -k 5 120 "$LOADGEN" post --sock "$RB/docker.sock" --clients 2 \
    --body "$CG_TMP/dense.json" --path /v1.41/containers/create --timeout-s 100 >"$CG_TMP/dense2.json"
  BPEAK=$(awk '/^VmHWM/ {print $2}' "/proc/$GB/status")
  bj() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))
for k in sys.argv[2:]: v = v.get(k, 0) if isinstance(v, dict) else 0
print(v)' "$@"; }
  B404=$(bj "$CG_TMP/budget.json" status 404); B503=$(bj "$CG_TMP/budget.json" status 503)
  BFAIL=$(bj "$CG_TMP/budget.json" failed)
  D503=$(bj "$CG_TMP/dense2.json" status 503)
  cat "$CG_TMP/budget.json" "$CG_TMP/dense2.json"
  if [ "$BFAIL" = 0 ] && [ $((B404 + B503)) -eq "$BUDGET_CLIENTS" ] && [ "$B404" -ge 1 ]; then
    pass "memory budget: $BUDGET_CLIENTS clients with 8 MiB bodies at once: $B404 answered by podman, $B503 answered 503, none without an answer"
  else fail "memory budget: every client answered (podman's 404 or the gateway's 503)" "404: $B404, 503: $B503, without an answer: $BFAIL" quiet; fi
  if [ "$BPEAK" -le $((BUDGET_MIB * 1024)) ]; then
    pass "memory budget: the monitor's peak RSS $BPEAK kB stays within its budget ($BUDGET_MIB MiB)"
  else fail "memory budget: the monitor's peak RSS within its budget" "$BPEAK kB, budget $BUDGET_MIB MiB" quiet; fi
  if [ "$D503" = 2 ] && grep -q 'code=too-many-connections status=503 .*too dense for the gateway.s memory budget' "$RB.log"; then
    pass "memory budget: the densest bodies get a 503 that says their parse would not fit"
  else fail "memory budget: the densest bodies get a readable 503" "$(cat "$CG_TMP/dense2.json")" quiet; fi
  kill "$GB"; wait "$GB" 2>/dev/null
else fail "memory budget: the gateway starts with --memory-budget" "see above"; fi
CG_GW_EXTRA=()
rm -f "$CG_TMP/str.json" "$CG_TMP/dense.json"

echo "# monitor peak RSS / PSS (kB): load $(mem load rss_kb) / $(mem load pss_kb) (whole gateway PSS $(mem load tree_pss_kb)); cp in $CPIN_HWM / $(mem cpin pss_kb); cp out $CPOUT_HWM / $(mem cpout pss_kb)"

if [ "${LOAD_RECORD:-0}" = 1 ]; then
  if [ "$CG_FAILED" -eq 0 ]; then
    san_record load clients="$CLIENTS" seconds="$SECONDS_" requests="$N" sent="$SENT" errors="$ERR" \
      rps="$(json rps)" p50_us="$(json p50_us)" p99_us="$(json p99_us)" max_us="$(json max_us)" \
      access_lines="$LINES" procs_start="$N0" procs_peak="$(mem load procs_max)" parsers_start="$P0" \
      fds_start="$A0" own_fds_start="$F0" back_ms="$BACK_MS" all_fds_back_ms="$ALL_MS" kept_backend="$KEPT" \
      rss_kb="$(mem load rss_kb)" pss_kb="$(mem load pss_kb)" tree_pss_kb="$(mem load tree_pss_kb)" \
      cp_mb="$CP_MB" cpin_rss_kb="$CPIN_HWM" cpin_pss_kb="$(mem cpin pss_kb)" \
      cpout_rss_kb="$CPOUT_HWM" cpout_pss_kb="$(mem cpout pss_kb)" \
      dense_before_kb="$D0" dense_peak_kb="$D1" dense_after_kb="$DA" dense4_peak_kb="$D4" \
      budget_mib="$BUDGET_MIB" budget_clients="$BUDGET_CLIENTS" budget_404="${B404:-}" \
      budget_503="${B503:-}" budget_failed="${BFAIL:-}" budget_peak_kb="${BPEAK:-}" \
      podman="$(podman --version | awk '{print $3}')" docker="$(docker --version | sed 's/^Docker version \([^,]*\).*/\1/')" \
      load_avg="$LOADAVG"
    echo "# recorded doc/results/load.env"
  else echo "# not recorded: $CG_FAILED checks failed"; fi
fi
dk rm -f ld1 >/dev/null 2>&1
cg_summary
