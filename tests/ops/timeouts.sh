#!/bin/bash
# tests/ops/timeouts.sh — the client head timeout (http.md §1.3): 30 s for the
# whole head counted from its first byte, even when the client drips a byte now
# and then (a per-read timeout would let a head take days). ~35 s.
# Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
ops_git_project to
ops_bg "$GW" serve --project "$P" --backend podman --podman-socket "$FAKE" --egress off 2>"$OPS_TMP/to.log"
ops_wait_for "[ -S '$R/docker.sock' ]" 10
secs=$(timeout 60 python3 - "$R/docker.sock" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
t0 = time.monotonic()
head = b"GET /v1.41/version HTTP/1.1\r\nHost: d\r\n"
for i, b in enumerate(head):
    try:
        s.send(bytes([b]))
    except OSError:
        break
    s.settimeout(8)          # a byte every 8 s, never the blank line
    try:
        if s.recv(1) == b"":
            break
    except socket.timeout:
        pass
print(round(time.monotonic() - t0))
PY
)
if [ -n "$secs" ] && [ "$secs" -ge 28 ] && [ "$secs" -le 40 ]; then
  pass "a dripped head is closed 30 s after its first byte (closed after ${secs} s)"
else fail "a dripped head is closed 30 s after its first byte" "closed after '${secs}' s"; fi
ops_summary
