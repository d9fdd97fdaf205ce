#!/bin/bash
# tests/ops/timeouts.sh — the client head timeout (http.md §1.3): 30 s for the
# whole head counted from its first byte, even when the client drips a byte now
# and then (a per-read timeout would let a head take days), also when only urgent
# (MSG_OOB) bytes wake the request parser. ~35 s.
# Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
ops_git_project to
ops_bg "$GW" serve --project "$P" --backend podman --podman-socket "$FAKE" --egress off 2>"$OPS_TMP/to.log"
ops_wait_for "[ -S '$R/docker.sock' ]" 10
# A byte every 8 s (a per-read timeout would never fire); the client notices the close
# within 0.2 s, so the measure is the gateway's, not the client's polling period.
# Alongside, a second client sends the head's start, then only urgent bytes (MSG_OOB,
# AF_UNIX since Linux 5.15) every 8 s: each wakes the request parser's poll() and is
# gone when it reads (recv() says EAGAIN); they must not restart its 30 s either.
out=$(timeout 90 python3 - "$R/docker.sock" <<'PY'
import socket, sys, threading, time

def drip(oob, res):
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
    t0 = time.monotonic()
    head = b"GET /v1.41/version HTTP/1.1\r\nHost: d\r\n"
    s.settimeout(0.2)
    if oob:
        s.sendall(head)
    closed = False
    for b in head:               # never the blank line; at most 60 s
        if time.monotonic() - t0 > 60:
            break
        try:
            s.send(b"!", socket.MSG_OOB) if oob else s.send(bytes([b]))
        except OSError:
            break
        next_byte = time.monotonic() + 8
        while time.monotonic() < next_byte:
            try:
                if s.recv(1) == b"":
                    closed = True
                    break
            except socket.timeout:
                pass
            except OSError:
                closed = True
                break
        if closed:
            break
    res[oob] = round(time.monotonic() - t0)

res = {}
ts = [threading.Thread(target=drip, args=(o, res)) for o in (False, True)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(res[False], res[True])
PY
)
read -r secs oob_secs <<<"$out"
if [ -n "$secs" ] && [ "$secs" -ge 29 ] && [ "$secs" -le 45 ]; then
  pass "a dripped head is closed 30 s after its first byte (closed after ${secs} s)"
else fail "a dripped head is closed 30 s after its first byte" "closed after '${secs}' s"; fi
if [ -n "$oob_secs" ] && [ "$oob_secs" -ge 29 ] && [ "$oob_secs" -le 45 ]; then
  pass "a head kept awake by urgent (MSG_OOB) bytes is closed 30 s after its start (closed after ${oob_secs} s)"
else fail "a head kept awake by urgent (MSG_OOB) bytes is closed 30 s after its start" "closed after '${oob_secs}' s"; fi
ops_summary
