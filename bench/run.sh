#!/bin/bash
# bench/run.sh — throughput, latency and memory of the gateway against a real
# private podman service, measured the same way each time:
#   * N sequential GET /_ping on one kept-alive connection (the per-request cost
#     of parse + route + IPC + relay), through the gateway and directly;
#   * N sequential connections each doing one GET /v1.41/containers/json (the
#     per-connection cost: spare child hand-over, filter injection);
#   * a 4 MiB JSON create body refused for an unknown field (the JSON path);
#   * RSS of the monitor and of one idle request parser.
# usage: bench/run.sh [N]   (default 2000). Needs root (private podman).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
make -s container-gateway
T=$(mktemp -d /tmp/cg-bench.XXXXXX)
PM=$T/pm
cleanup() {
  [ -n "${GW:-}" ] && kill "$GW" 2>/dev/null && wait "$GW" 2>/dev/null
  bash scripts/podman-down.sh "$PM" >/dev/null 2>&1 || true
  rm -rf "$T"
}
trap cleanup EXIT
bash scripts/podman-up.sh "$PM" auto >/dev/null
mkdir -p "$T/proj"
./container-gateway serve --project "$T/proj" --run-dir "$T/run" --podman-socket "$PM/podman.sock" \
  --backend podman --egress off --log-level warn 2>"$T/gw.log" &
GW=$!
for _ in $(seq 100); do [ -S "$T/run/docker.sock" ] && break; sleep 0.05; done
python3 - "$N" "$T/run/docker.sock" "$PM/podman.sock" "$GW" <<'PY'
import os, socket, sys, time
n, gw_sock, pm_sock, gw_pid = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])

def read_response(s, buf):
    while b"\r\n\r\n" not in buf:
        buf += s.recv(65536)
    head, rest = buf.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v)
    while len(rest) < length:
        rest += s.recv(65536)
    return head, rest[length:]

def keepalive(path):
    s = socket.socket(socket.AF_UNIX); s.connect(path)
    req = b"GET /_ping HTTP/1.1\r\nHost: d\r\n\r\n"
    buf = b""; t0 = time.perf_counter()
    for _ in range(n):
        s.sendall(req); _, buf = read_response(s, buf)
    dt = time.perf_counter() - t0; s.close(); return dt

def per_connection(path, count):
    req = b"GET /v1.41/containers/json HTTP/1.1\r\nHost: d\r\nConnection: close\r\n\r\n"
    t0 = time.perf_counter()
    for _ in range(count):
        s = socket.socket(socket.AF_UNIX); s.connect(path); s.sendall(req)
        while s.recv(65536): pass
        s.close()
    return time.perf_counter() - t0

def big_body(path):
    body = b'{"Image":"x","Env":[' + b",".join([b'"A=%d"' % i for i in range(400000)]) + b'],"Bogus":1}'
    s = socket.socket(socket.AF_UNIX); s.connect(path)
    t0 = time.perf_counter()
    s.sendall(b"POST /v1.41/containers/create HTTP/1.1\r\nHost: d\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n" % len(body) + body)
    head, _ = read_response(s, b"")
    dt = time.perf_counter() - t0; s.close()
    return dt, len(body), head.split(b"\r\n")[0].decode()

def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0

gw = keepalive(gw_sock); direct = keepalive(pm_sock)
print(f"keep-alive GET /_ping x{n}: gateway {n/gw:8.0f} req/s ({gw/n*1e6:6.0f} us/req), "
      f"direct {n/direct:8.0f} req/s ({direct/n*1e6:6.0f} us/req)")
m = max(200, n // 10)
gw = per_connection(gw_sock, m); direct = per_connection(pm_sock, m)
print(f"new connection + GET containers/json x{m}: gateway {gw/m*1e3:6.2f} ms/conn, direct {direct/m*1e3:6.2f} ms/conn")
dt, size, status = big_body(gw_sock)
print(f"{size/1048576:.1f} MiB create body parsed and refused in {dt*1e3:.0f} ms ({status})")
time.sleep(0.3)
kids = [int(k) for k in open(f"/proc/{gw_pid}/task/{gw_pid}/children").read().split()]
print(f"RSS: monitor {rss(gw_pid)} KiB, idle request parser(s) {[rss(k) for k in kids]} KiB")
PY
