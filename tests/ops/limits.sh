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
start "$OPS_TMP/mc.log" --backend podman --podman-socket "$FAKE" --egress off --max-connections 2 \
  --log-level debug
# two connections with a request in flight (the fake backend never answers it), then a
# third: 503 without reading, connection closed (a connection with a request in flight is
# never given up for a new one; idle ones are, below). After a close, the slot frees once
# the monitor has seen it, so the last step retries until it has.
run python3 - "$R/docker.sock" "$OPS_TMP/mc.log" <<'PY'
import socket, sys, time
held = []
for _ in range(2):
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); held.append(s)
    s.sendall(b"GET /v1.41/containers/json HTTP/1.1\r\nHost: d\r\n\r\n")
deadline = time.monotonic() + 30     # until both are forwarded (in flight)
while time.monotonic() < deadline and open(sys.argv[2]).read().count("verdict=forwarded") < 2:
    time.sleep(0.05)
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

# ---- idle connections give their slot to new clients ---------------------------------
ops_git_project mi
start "$OPS_TMP/mi.log" --backend podman --podman-socket "$FAKE" --egress off --max-connections 2
run python3 - "$R/docker.sock" <<'PY'
import socket, subprocess, sys, time
ping = b"GET /_ping HTTP/1.1\r\nHost: d\r\n\r\n"
def get(s):
    buf = b""
    while b"\r\n\r\nOK" not in buf:
        d = s.recv(4096)
        if not d: return buf
        buf += d
    return buf
a = socket.socket(socket.AF_UNIX); a.connect(sys.argv[1]); a.sendall(ping); get(a)  # kept alive, idle
time.sleep(0.05)
b = socket.socket(socket.AF_UNIX); b.connect(sys.argv[1])   # idle, no request yet
# the newcomer is another process (one holding half the slots at the limit gets the 503)
third = subprocess.run(["curl", "-s", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}",
                        "--unix-socket", sys.argv[1], "http://d/_ping"],
                       capture_output=True, text=True).stdout
print("third:", third)
a.settimeout(10)
print("oldest:", "closed" if a.recv(1) == b"" else "open")
b.settimeout(10); b.sendall(ping)
print("second:", get(b).split(b"\r\n")[0].decode())
PY
check "idle slots: a third client is served at --max-connections 2" grep -qx 'third: 200' "$OPS_TMP/.out"
check "idle slots: the longest idle connection gave its slot" grep -qx 'oldest: closed' "$OPS_TMP/.out"
check "idle slots: the newer idle one kept its slot" grep -qx 'second: HTTP/1.1 200 OK' "$OPS_TMP/.out"
if grep -q "gives its slot to a new client (--max-connections 2)" "$OPS_TMP/mi.log"; then
  pass "idle slots: the reclaim is logged"
else fail "idle slots: the reclaim is logged" "$(tail -n 3 "$OPS_TMP/mi.log")"; fi
stop_gw

# ---- a slowloris of 500 connections: the owner still gets through ---------------------
ops_git_project sl
start "$OPS_TMP/sl.log" --backend podman --podman-socket "$FAKE" --egress off
run python3 - "$R/docker.sock" <<'PY'
import socket, subprocess, sys, time, select
path = sys.argv[1]
slow = []
def open_slow():
    s = socket.socket(socket.AF_UNIX); s.setblocking(False)
    try:
        s.connect(path)
    except BlockingIOError:
        pass
    try:
        s.send(b"GET /v1.41/containers/json HTTP/1.1\r\nHost: d\r\n")   # never ends
    except OSError:
        pass
    return s
for _ in range(500):
    slow.append(open_slow())
ok = failed = 0
end = time.monotonic() + 12
i = 0
while time.monotonic() < end:
    # the attacker keeps 500 connections open and trickles bytes
    for k, s in enumerate(slow):
        try:
            r, _, _ = select.select([s], [], [], 0)
            if r and s.recv(4096) == b"":
                s.close(); slow[k] = open_slow()
            else:
                s.send(b"X")
        except OSError:
            s.close(); slow[k] = open_slow()
    # the owner, another process: each request must be answered
    r = subprocess.run(["curl", "-s", "-m", "5", "-o", "/dev/null", "-w", "%{http_code}",
                        "--unix-socket", path, "http://d/_ping"], capture_output=True, text=True)
    if r.stdout == "200": ok += 1
    else: failed += 1; print("owner got:", r.stdout, r.stderr[:80])
    i += 1
    time.sleep(0.2)
print("owner ok", ok, "failed", failed)
PY
if grep -qE '^owner ok [1-9][0-9]* failed 0$' "$OPS_TMP/.out"; then
  pass "slowloris of 500: every owner request answered ($(grep '^owner ok' "$OPS_TMP/.out"))"
else fail "slowloris of 500: every owner request answered" "$(tail -n 4 "$OPS_TMP/.out")"; fi
check "slowloris of 500: the gateway keeps running" alive "$GWPID"
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
check "egress: podman backend alias host.containers.internal" grep -q "INFO egress gateway reachable on 127.0.0.1:$PORT; podman containers get HTTP_PROXY=http://host.containers.internal:$PORT" "$OPS_TMP/eg1.log"
stop_gw

FAKE_D=$OPS_TMP/fake-docker.sock
ops_fake_backend "$FAKE_D" docker
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
