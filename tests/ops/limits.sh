#!/bin/bash
# tests/ops/limits.sh — --max-connections (http.md §1.2) and the egress probe
# (cli.md §15): the canned 503 and its access line, the per-backend proxy alias,
# inject-if-available / require / off and their log lines.
# Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
alive() { kill -0 "$1" 2>/dev/null; }

# start LOG ARGS...: a foreground gateway in project $P, waits for its sockets
start() {
  local log=$1; shift
  ops_bg "$GW" serve --project "$P" "$@" 2>"$log"
  GWPID=$OPS_BG_PID
  ops_wait_for "[ -S '$R/docker.sock' ]" 10
}
stop_gw() { kill "$GWPID" 2>/dev/null; ops_wait_for "! alive $GWPID" 10; }

# ---- --max-connections 2 ------------------------------------------------------------
ops_git_project mc
start "$OPS_TMP/mc.log" --backend podman --podman-socket "$FAKE" --egress off --max-connections 2
# two held connections, then a third: 503 without reading, connection closed
# (accept order is connect order: the third is refused without any wait; after a close,
# the slot frees once the monitor has seen it, so the last step retries until it has)
run python3 - "$R/docker.sock" <<'PY'
import socket, sys, time
held = []
for _ in range(2):
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); held.append(s)
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
buf = b""
while True:
    d = s.recv(4096)
    if not d: break
    buf += d
print(buf.decode())
held[0].close()
deadline = time.monotonic() + 30
while True:
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
    s.settimeout(1)
    try:
        s.sendall(b"GET /v1.41/containers/json HTTP/1.1\r\nHost: d\r\n\r\n")
        got = s.recv(12)
    except socket.timeout:
        print("after: waiting")   # accepted and handed to a parser (the fake backend is mute)
        break
    except OSError:               # a 503 written and closed before our request went out
        got = b"HTTP/1.1 503"
    s.close()
    if not got.startswith(b"HTTP/1.1 503") or time.monotonic() > deadline:
        print("after:", got.decode())
        break
    time.sleep(0.05)              # still refused: the close is not seen yet
PY
body='{"message":"container-gateway: too-many-connections: more than 2 connections are open; close idle clients (leftover logs -f or attach sessions) or raise --max-connections"}'
want=$(printf 'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\nContainer-Gateway: 0.1.0\r\n\r\n%s' ${#body} "$body")
if [ "$(head -c ${#want} "$OPS_TMP/.out")" = "$want" ]; then pass "max-connections: the third connection gets the exact canned 503"
else fail "max-connections: the third connection gets the exact canned 503" "$(head -c 300 "$OPS_TMP/.out")"; fi
# the fake backend never answers: the new connection was accepted (and waits), not 503
if grep -q '^after: waiting$' "$OPS_TMP/.out"; then
  pass "max-connections: a slot frees when a connection closes"
else fail "max-connections: a slot frees when a connection closes" "$(grep after "$OPS_TMP/.out")"; fi
if grep -q 'access conn=[0-9]* socket=docker method=- path=- decision=error code=too-many-connections status=503' "$OPS_TMP/mc.log"
then pass "max-connections: one access line for the refused connection"
else fail "max-connections: one access line for the refused connection" "$(grep access "$OPS_TMP/mc.log" | tail -n 2)"; fi
check "max-connections: the gateway keeps running" alive "$GWPID"
stop_gw

# ---- the IPC audit in JSON (cli.md §14.4) ----------------------------------------------
ops_git_project js
start "$OPS_TMP/js.log" --backend podman --podman-socket "$FAKE" --egress off --log-level debug --log-format json
run python3 - "$R/docker.sock" "$OPS_TMP/js.log" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b"GET /v1.41/version HTTP/1.1\r\nHost: d\r\n\r\n")
deadline = time.monotonic() + 30    # until the monitor logged its verdict
while time.monotonic() < deadline and '"dir":"monitor","type":"VERDICT"' not in open(sys.argv[2]).read():
    time.sleep(0.05)
PY
stop_gw
if python3 - "$OPS_TMP/js.log" <<'PY'
import json, sys
fwd = verdict = 0
for line in open(sys.argv[1]):
    e = json.loads(line)                    # every line is one JSON object
    assert list(e)[:4] == ["ts", "level", "event", "msg"], list(e)
    if e["event"] == "ipc":
        assert isinstance(e["conn"], int) and isinstance(e["req"], int) and e["dir"], e
        assert isinstance(e["fields"], dict), e
        if e["type"] == "FORWARD" and e["fields"].get("method") == "GET":
            fwd += 1
            assert e["fields"]["target"] == "/v1.41/version", e
        if e["type"] == "VERDICT" and e["dir"] == "monitor":
            verdict += 1
            assert e["fields"]["verdict"] == "forwarded", e
assert fwd == 1 and verdict == 1, (fwd, verdict)
PY
then pass "json log: ipc lines carry conn, dir, type, req and a fields object; VERDICT after FORWARD"
else fail "json log: ipc lines carry conn, dir, type, req and a fields object; VERDICT after FORWARD" "$(tail -n 5 "$OPS_TMP/js.log")"; fi

# ---- egress probe ---------------------------------------------------------------------
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ops_bg python3 -c 'import socket,sys,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); time.sleep(600)' "$PORT"
LISTENER=$OPS_BG_PID
ops_wait_for "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", $PORT), 1)' 2>/dev/null" 5

ops_git_project eg1
start "$OPS_TMP/eg1.log" --backend podman --podman-socket "$FAKE" --egress-port "$PORT"
check "egress: podman backend alias 10.88.0.1" grep -q "INFO egress gateway reachable on 127.0.0.1:$PORT; podman containers get HTTP_PROXY=http://10.88.0.1:$PORT" "$OPS_TMP/eg1.log"
stop_gw

FAKE_D=$OPS_TMP/fake-docker.sock
ops_fake_backend "$FAKE_D"
ops_git_project eg2
start "$OPS_TMP/eg2.log" --backend docker --docker-socket "$FAKE_D" --egress-port "$PORT"
check "egress: docker backend alias 172.17.0.1" grep -q "INFO egress gateway reachable on 127.0.0.1:$PORT; docker containers get HTTP_PROXY=http://172.17.0.1:$PORT" "$OPS_TMP/eg2.log"
stop_gw

ops_git_project eg3
start "$OPS_TMP/eg3.log" --backend podman --podman-socket "$FAKE" --egress-port "$PORT" --egress-host fd00::1 --log-format json
check "egress: --egress-host wins; an IPv6 alias is bracketed (JSON line)" grep -q "\"event\":\"egress\".*\"proxy\":\"http://\[fd00::1\]:$PORT\"" "$OPS_TMP/eg3.log"
stop_gw

kill "$LISTENER" 2>/dev/null; ops_wait_for "! alive $LISTENER" 5
ops_git_project eg4
start "$OPS_TMP/eg4.log" --backend podman --podman-socket "$FAKE" --egress-port "$PORT"
check "egress: unreachable with inject-if-available warns" grep -q "WARNING egress gateway not reachable on 127.0.0.1:$PORT; containers get no proxy (--egress inject-if-available)" "$OPS_TMP/eg4.log"
stop_gw

ops_git_project eg5
start "$OPS_TMP/eg5.log" --backend podman --podman-socket "$FAKE" --egress-port "$PORT" --egress require
check "egress: unreachable with require warns that creates will be refused" grep -q "WARNING egress gateway unreachable; every container create and build will be refused (--egress require)" "$OPS_TMP/eg5.log"
stop_gw

ops_git_project eg6
start "$OPS_TMP/eg6.log" --backend podman --podman-socket "$FAKE" --egress off
if grep -q 'egress' "$OPS_TMP/eg6.log"; then fail "egress: off probes nothing and logs no egress line" "$(grep egress "$OPS_TMP/eg6.log")"
else pass "egress: off probes nothing and logs no egress line"; fi
stop_gw

ops_summary
