#!/bin/bash
# tests/ops/spares.sh — the spare request parser (doc/privsep.md "What a new
# connection costs"): an idle gateway holds exactly one spare besides the zygote and its
# monitor sleeps (no wake-up in 3 idle seconds: it woke every second before); every
# connection is served by a fresh process of its own, never the zygote, never one that
# served another connection; a spare SIGKILLed is replaced and the next client is served;
# after a burst of connections the gateway is back to one spare.
# Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
alive() { kill -0 "$1" 2>/dev/null; }

# children of the monitor: the zygote (comm cg-zygote) and the request parsers
zygote() { for k in $(cat /proc/"$GWPID"/task/*/children 2>/dev/null); do
  [ "$(cat /proc/$k/comm 2>/dev/null)" = cg-zygote ] && echo "$k"; done; }
parsers() { for k in $(cat /proc/"$GWPID"/task/*/children 2>/dev/null); do
  [ "$(cat /proc/$k/comm 2>/dev/null)" = cg-conn ] && echo "$k"; done; }
nparsers() { parsers | wc -l; }

# pings N: N clients one after the other, each on a connection of its own; one line
# per answer's status line in $OUT
pings() {
  timeout -k 2 60 python3 - "$R/docker.sock" "$1" >"$OPS_TMP/.out" 2>"$OPS_TMP/.err" <<'PY'
import socket, sys
for _ in range(int(sys.argv[2])):
    s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1])
    s.sendall(b"GET /_ping HTTP/1.1\r\nHost: d\r\nConnection: close\r\n\r\n")
    buf = b""
    while True:
        d = s.recv(4096)
        if not d: break
        buf += d
    print(buf.split(b"\r\n", 1)[0].decode())
    s.close()
PY
  OUT=$(cat "$OPS_TMP/.out"); ERR=$(cat "$OPS_TMP/.err")
}

ops_git_project sp
ops_bg "$GW" serve --project "$P" --backend podman --podman-socket "$FAKE" --egress off \
  --log-level debug 2>"$OPS_TMP/sp.log"
GWPID=$OPS_BG_PID
ops_wait_for "[ -S '$R/docker.sock' ]" 10

# ---- idle: one spare -----------------------------------------------------------------
if ops_wait_for '[ "$(nparsers)" -eq 1 ]' 10; then pass "idle: exactly one spare request parser"
else fail "idle: exactly one spare request parser" "$(parsers | tr '\n' ' ')"; fi
spare=$(parsers | head -n 1)
# out of memory, the kernel kills request parsers before the monitor
if [ "$(cat /proc/"$spare"/oom_score_adj)" = 1000 ] && [ "$(cat /proc/"$(zygote)"/oom_score_adj)" = 1000 ] &&
   [ "$(cat /proc/"$GWPID"/oom_score_adj)" = 0 ]; then pass "oom_score_adj: parsers and zygote 1000, monitor 0"
else fail "oom_score_adj: parsers and zygote 1000, monitor 0" "$(cat /proc/"$spare"/oom_score_adj) $(cat /proc/"$GWPID"/oom_score_adj)"; fi
wakeups() { awk '/^voluntary_ctxt_switches/ {print $2}' /proc/"$GWPID"/status; }
w0=$(wakeups); sleep 3; w1=$(wakeups)
if [ $((w1 - w0)) -le 1 ]; then pass "idle: the monitor sleeps ($((w1 - w0)) wake-ups in 3 s)"
else fail "idle: the monitor sleeps" "$((w1 - w0)) wake-ups in 3 s"; fi

# ---- every connection its own fresh process ------------------------------------------
pings 5
if [ "$(grep -c '^HTTP/1.1 200' "$OPS_TMP/.out")" = 5 ]; then pass "five connections answered"
else fail "five connections answered" "$OUT"; fi
# the monitor logs each parser's exit with its connection and pid (DEBUG child-exit)
ops_wait_for '[ "$(grep -c "child-exit conn=[0-9]* pid=[0-9]* status=0" "$OPS_TMP/sp.log")" -ge 5 ]' 10
pids=$(grep -o 'child-exit conn=[0-9]* pid=[0-9]*' "$OPS_TMP/sp.log" | awk -F'pid=' '{print $2}')
conns=$(grep -o 'child-exit conn=[0-9]* pid=[0-9]*' "$OPS_TMP/sp.log" | awk '{print $2}' | sort -u | wc -l)
if [ "$(echo "$pids" | wc -l)" -ge 5 ] && [ "$(echo "$pids" | sort -u | wc -l)" = "$conns" ] &&
   ! echo "$pids" | grep -qx "$(zygote)"; then
  pass "each connection was served by a process of its own, none the zygote"
else fail "each connection was served by a process of its own, none the zygote" "pids: $(echo $pids)"; fi
if echo "$pids" | grep -qx "$spare"; then pass "the first client got the spare that was waiting"
else fail "the first client got the spare that was waiting" "spare $spare, served by: $(echo $pids)"; fi

# a request the child refuses itself (cJSON's calls resolved lazily in the child): its 403
out=$(timeout 20 python3 - "$R/docker.sock" <<'PY'
import socket, sys
body = b'{"Image":"busybox","HostConfig":{"Privileged":true}}'
s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1])
s.sendall(b"POST /v1.41/containers/create HTTP/1.1\r\nHost: d\r\nContent-Type: application/json\r\n"
          b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
print(s.recv(12).decode())
PY
)
if [ "$out" = "HTTP/1.1 403" ] && ! grep -q 'died: SIG' "$OPS_TMP/sp.log"; then
  pass "a refused create gets its 403 from a child that does not crash"
else fail "a refused create gets its 403 from a child that does not crash" "$out $(grep 'died' "$OPS_TMP/sp.log" | head -n 1)"; fi

# ---- a dead spare is replaced --------------------------------------------------------
ops_wait_for '[ "$(nparsers)" -eq 1 ]' 10
old=$(parsers | head -n 1)
kill -KILL "$old"
if ops_wait_for "[ \"\$(nparsers)\" -eq 1 ] && [ \"\$(parsers | head -n 1)\" != '$old' ]" 10; then
  pass "a SIGKILLed spare is replaced by a new one"
else fail "a SIGKILLed spare is replaced by a new one" "parsers: $(parsers | tr '\n' ' ')"; fi
pings 1
if [ "$OUT" = "HTTP/1.1 200 OK" ]; then pass "the next client is served after the spare died"
else fail "the next client is served after the spare died" "$OUT $ERR"; fi

# ---- a burst, then one spare again ---------------------------------------------------
run python3 - "$R/docker.sock" <<'PY'
import socket, sys
held = []
for _ in range(20):
    s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1])
    s.sendall(b"GET /_ping HTTP/1.1\r\nHost: d\r\n\r\n"); held.append(s)
ok = sum(1 for s in held if s.recv(12) == b"HTTP/1.1 200")
print(ok)
for s in held: s.close()
PY
if [ "$OUT" = 20 ]; then pass "twenty kept-alive connections at once answered"
else fail "twenty kept-alive connections at once answered" "$OUT $ERR"; fi
if ops_wait_for '[ "$(nparsers)" -eq 1 ]' 15; then pass "after the burst: one spare request parser again"
else fail "after the burst: one spare request parser again" "$(nparsers) parsers"; fi
check "the gateway keeps running" alive "$GWPID"
kill "$GWPID"; ops_wait_for "! alive $GWPID" 10

ops_summary
