#!/bin/bash
# tests/ops/logrotate.sh — the daemon's log has a bound (doc/audit.md "Log files"):
# a flood of requests through a daemon started with --log-max-size keeps
# container-gateway.log and container-gateway.log.1 at or under the cap, and no
# record is lost across any rotation (every request's record is in one file or the
# other, once, watched through every generation of .log.1); the foreground's stderr
# is never rotated; bad sizes are usage errors.
# Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"

CAP=16384
N=1500
FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
P=$OPS_TMP/proj; mkdir -p "$P"; R=$OPS_TMP/run
SERVE=(--project "$P" --run-dir "$R" --backend podman --podman-socket "$FAKE" --egress off)

for bad in 100 4095 12X 2T -1; do
  run "$GW" serve "${SERVE[@]}" --log-max-size "$bad"
  check "--log-max-size $bad: usage error" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "^container-gateway: usage: invalid value"' _ "$RC" "$ERR"
done
run env CONTAINER_GATEWAY_LOG_MAX_SIZE=1k "$GW" serve "${SERVE[@]}"
check "CONTAINER_GATEWAY_LOG_MAX_SIZE=1k: usage error naming the variable" \
  sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q CONTAINER_GATEWAY_LOG_MAX_SIZE' _ "$RC" "$ERR"

run "$GW" serve "${SERVE[@]}" --daemon --log-max-size 16K
check "serve --daemon --log-max-size 16K starts" [ "$RC" = 0 ]

# One keep-alive client: N requests, and after every 20 (fewer than a file holds) the
# rotated file is read, so every generation of it is seen before it is replaced.
python3 - "$R" "$N" "$CAP" >"$OPS_TMP/flood.out" 2>&1 <<'PY'
import os, re, socket, sys
run, n, cap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
log, old = run + "/container-gateway.log", run + "/container-gateway.log.1"
rx = re.compile(r"^\S+ container-gateway INFO access conn=1 .* req=(\d+)", re.M)
seen = {}            # a generation of .1 (its first line) -> its text, last read
biggest = 0
def look():
    global biggest
    for p in (log, old):
        try:
            st = os.stat(p)
        except FileNotFoundError:
            continue
        biggest = max(biggest, st.st_size)
        if p == old:
            with open(p) as f:
                t = f.read()
            seen[t.split("\n", 1)[0]] = t
s = socket.socket(socket.AF_UNIX); s.connect(run + "/podman.sock")
buf = b""
for i in range(1, n + 1):
    s.sendall(b"GET /v1.41/_ping HTTP/1.1\r\nHost: d\r\n\r\n")
    while b"\r\n\r\nOK" not in buf:
        buf += s.recv(65536)
    buf = buf.split(b"\r\n\r\nOK", 1)[1]
    if i % 20 == 0:
        look()
s.close()
import time
deadline = time.monotonic() + 10
while time.monotonic() < deadline:      # the last record is written after its answer
    with open(log) as f:
        if ("req=%d " % n) in f.read():
            break
    time.sleep(0.05)
look()
with open(log) as f:
    texts = list(seen.values()) + [f.read()]
got = {}
for t in texts:
    for m in rx.finditer(t):
        got[int(m.group(1))] = got.get(int(m.group(1)), 0) + 1
missing = [i for i in range(1, n + 1) if i not in got]
twice = [i for i, k in got.items() if k > 1]
print("generations=%d biggest=%d missing=%d twice=%d" % (len(seen), biggest, len(missing),
                                                        len(twice)))
if missing:
    print("missing: %s" % missing[:20])
PY
out=$(cat "$OPS_TMP/flood.out")
echo "# $out"
gens=$(sed -n 's/.*generations=\([0-9]*\).*/\1/p' "$OPS_TMP/flood.out")
big=$(sed -n 's/.*biggest=\([0-9]*\).*/\1/p' "$OPS_TMP/flood.out")
check "the flood rotated the log many times (${gens:-?} generations of .log.1 seen)" \
  [ "${gens:-0}" -ge 10 ]
check "no file ever grew past the cap ($CAP bytes; biggest ${big:-?})" \
  [ -n "$big" ] && [ "$big" -le "$CAP" ]
check "no record lost or written twice across the rotations ($N requests)" \
  grep -q "missing=0 twice=0" "$OPS_TMP/flood.out"
check "two files only: container-gateway.log and .log.1" \
  [ "$(ls "$R" | grep -c '^container-gateway\.log')" = 2 ]
check "the rotated file is the monitor's own (0600)" \
  [ "$(stat -c %a "$R/container-gateway.log.1")" = 600 ]
"$GW" stop "${SERVE[@]:0:4}" >/dev/null 2>&1

# the foreground logs to stderr: never rotated, whatever the cap
R2=$OPS_TMP/run2
ops_bg "$GW" serve --project "$P" --run-dir "$R2" --backend podman --podman-socket "$FAKE" \
  --egress off --log-max-size 4096 2>"$OPS_TMP/fg.log"
FG=$OPS_BG_PID
ops_wait_for "[ -S '$R2/podman.sock' ]" 20
python3 - "$R2/podman.sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
buf = b""
for i in range(60):
    s.sendall(b"GET /v1.41/_ping HTTP/1.1\r\nHost: d\r\n\r\n")
    while b"\r\n\r\nOK" not in buf:
        buf += s.recv(65536)
    buf = buf.split(b"\r\n\r\nOK", 1)[1]
PY
ops_wait_for "grep -q 'req=60 ' '$OPS_TMP/fg.log'" 10
check "foreground: stderr keeps every record past the cap, nothing rotated" \
  sh -c '[ "$(grep -c "INFO access conn=1 " "$1")" = 60 ] && [ "$(stat -c %s "$1")" -gt 4096 ] && ! ls "$2" | grep -q "log"' \
  _ "$OPS_TMP/fg.log" "$R2"
kill "$FG" 2>/dev/null

ops_summary
