#!/usr/bin/env python3
"""make bench: the gateway side by side with direct podman, a bare relay and
HAProxy.

Starts a private podman (scripts/podman-up.sh) and, in front of it, one
gateway, one bare splice relay (bench/rawrelay.c: what any process that
forks per connection costs) and one HAProxy configured the way Tecnativa's
docker-socket-proxy configures it (HTTP mode, a regular expression per API
family, the server side closed after each request). Each figure is
measured on all four sides, the rounds interleaved (the order rotating
every round) so that drift of the machine hits every side alike, and
written to doc/performance.md (or --out) with the machine, the date, the
commit, every ratio of the same run and the bars.

usage: bench/bench.py [--quick] [--out FILE] [--only SECTION,...] [--gateways N]
                      [--gateway-before BINARY]
  sections: memory latency refusal cpu cli stream uploads conc budget gateways
Needs root (a private rootful podman) and haproxy (make bench installs it).
Every process it starts is stopped by pid at the end, also on failure.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
GW_BIN = os.path.join(REPO, "container-gateway")
LOADGEN = os.path.join(REPO, "bench", "loadgen")
RAWRELAY = os.path.join(REPO, "bench", "rawrelay")
MIB = 1 << 20

# every side of a figure, in the order of the first round; the order
# rotates every round (interleave)
SIDES = ("gateway", "direct", "relay", "haproxy")
NAMES = {"direct": "direct", "gateway": "gateway", "relay": "bare relay",
         "haproxy": "HAProxy", "before": "--gateway-before", "after": "this binary"}
# the ratios a table shows when it has both sides
RATIOS = (("gateway", "direct"), ("relay", "direct"), ("haproxy", "direct"),
          ("gateway", "relay"), ("gateway", "haproxy"), ("after", "before"),
          ("after", "direct"))

procs = []          # (pid, name): stopped at exit


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def run(cmd, env=None, timeout=600, stdin=None, check=True, capture=True):
    r = subprocess.run(cmd, env=env, timeout=timeout, stdin=stdin,
                       stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                       stderr=subprocess.PIPE if capture else subprocess.DEVNULL)
    if check and r.returncode != 0:
        raise RuntimeError(f"{cmd[:4]} exit {r.returncode}: "
                           f"{(r.stderr or b'').decode(errors='replace')[-400:]}")
    return r


def ping_ok(sock):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(2)
        s.connect(sock)
        s.sendall(b"GET /_ping HTTP/1.1\r\nHost: d\r\nConnection: close\r\n\r\n")
        data = s.recv(4096)
        s.close()
        return data.startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def wait_for(cond, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.02)
    raise RuntimeError(f"timed out waiting for {what}")


# ---------------------------------------------------------------- processes

def tree(pid):
    """pid and all its descendants (via /proc/*/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{t}/children") as f:
                    todo.extend(int(x) for x in f.read().split())
        except OSError:
            pass
    return out


def pss_kib(pids):
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            pass
    return total


def rss_kib(pid, key="VmRSS"):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_ticks(pid):
    """utime+stime of pid and its reaped children, plus live descendants."""
    total = 0
    for i, p in enumerate(tree(pid)):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            # fields[0] is state (field 3): utime=14 stime=15 cutime=16 cstime=17
            total += int(fields[11]) + int(fields[12])
            if i == 0:
                total += int(fields[13]) + int(fields[14])
        except OSError:
            pass
    return total


def switches(pid):
    """{tid: voluntary context switches} of every thread of pid's live
    tree: how often each went to sleep and was woken."""
    out = {}
    for p in tree(pid):
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{t}/status") as f:
                    for line in f:
                        if line.startswith("voluntary_ctxt_switches:"):
                            out[int(t)] = int(line.split()[1])
        except OSError:
            pass
    return out


class WakeupSampler:
    """Wake-ups of pid's tree while something runs: its threads' voluntary
    context switches, sampled every 20 ms, so that a process that ends
    during the run (a request parser whose client closed) still counts
    up to its last sample; one that starts during it counts from 0."""

    def __init__(self, pid):
        self.pid = pid
        self.start = switches(pid)
        self.last = dict(self.start)

    def sample(self):
        self.last.update(switches(self.pid))

    def total(self):
        return sum(v - self.start.get(t, 0) for t, v in self.last.items())


def stop_pid(pid, name):
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        except ChildProcessError:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
        time.sleep(0.02)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    log(f"{name} (pid {pid}) needed SIGKILL")


def start_gateway(proj, rundir, backend_sock, extra=(), binary=None):
    os.makedirs(proj, exist_ok=True)
    logf = open(os.path.join(os.path.dirname(rundir), os.path.basename(rundir) + ".log"), "w")
    p = subprocess.Popen([binary or GW_BIN, "serve", "--project", proj, "--run-dir", rundir,
                          "--podman-socket", backend_sock, "--backend", "podman",
                          "--egress", "off", "--log-level", "warn", *extra],
                         stdout=subprocess.DEVNULL, stderr=logf,
                         env={"PATH": os.environ["PATH"]})
    procs.append((p.pid, "gateway"))
    return p


# The API families of the HAProxy peer's rules, in the order of Tecnativa's
# docker-socket-proxy haproxy.cfg: first the container sub-resources it
# gates behind their own flags, then one allow rule per family, then a deny.
HAPROXY_GATED = ("exec", "kill", "attach", "archive", "export", "logs")
HAPROXY_FAMILIES = ("auth", "build", "commit", "configs", "containers", "distribution",
                    "events", "exec", "grpc", "images", "info", "networks", "nodes",
                    "_ping", "plugins", "secrets", "services", "session", "swarm",
                    "system", "tasks", "version", "volumes")


def haproxy_config(listen, backend):
    """An HAProxy configuration in front of backend (a unix socket path),
    listening on the unix socket listen, the way docker-socket-proxy's is
    written: HTTP mode, `option http-server-close` (a new server
    connection per request), a regular expression on the decoded path per
    rule, each gated by an environment flag (all set: everything the
    gateway serves passes). No log: the gateway runs at --log-level warn,
    which writes no access line either."""
    rx = r"^(/v[\d\.]+)?(/\w+)?/"
    lines = [
        "global", "    maxconn 4000", "",
        "defaults", "    mode http", "    option http-server-close", "    option redispatch",
        "    retries 3", "    timeout http-request 10s", "    timeout queue 1m",
        "    timeout connect 10s", "    timeout client 10m", "    timeout server 10m",
        "    timeout http-keep-alive 10s", "    maxconn 3000", "",
        "backend dockerbackend", f"    server dockersocket {backend}", "",
        "backend docker-events", f"    server dockersocket {backend}", "    timeout server 0", "",
        "frontend dockerfrontend", f"    bind unix@{listen} mode 666",
        "    http-request deny unless METH_GET || { method POST } { env(POST) -m bool } || "
        "{ method DELETE } { env(DELETE) -m bool } || { method PUT } { env(PUT) -m bool }",
    ]
    for g in HAPROXY_GATED:
        lines.append(f"    http-request deny if {{ path,url_dec -m reg -i {rx}containers/"
                     f"[a-zA-Z0-9_.-]+/{g} }} !{{ env(ALLOW_{g.upper()}) -m bool }}")
    for fam in HAPROXY_FAMILIES:
        lines.append(f"    http-request allow if {{ path,url_dec -m reg -i {rx}{fam} }} "
                     f"{{ env({fam.strip('_').upper()}) -m bool }}")
    lines += ["    http-request deny", "    default_backend dockerbackend",
              f"    use_backend docker-events if {{ path,url_dec -m reg -i {rx}events }}", ""]
    return "\n".join(lines)


def start_haproxy(tmp, backend):
    listen = os.path.join(tmp, "haproxy.sock")
    cfg = os.path.join(tmp, "haproxy.cfg")
    with open(cfg, "w") as f:
        f.write(haproxy_config(listen, backend))
    env = {"PATH": os.environ["PATH"]}
    for k in ("POST", "DELETE", "PUT") + tuple("ALLOW_" + g.upper() for g in HAPROXY_GATED) + \
            tuple(f.strip("_").upper() for f in HAPROXY_FAMILIES):
        env[k] = "1"
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    run([haproxy, "-c", "-q", "-f", cfg], env=env)
    p = subprocess.Popen([haproxy, "-db", "-f", cfg], env=env, stdout=subprocess.DEVNULL,
                         stderr=open(os.path.join(tmp, "haproxy.log"), "w"))
    procs.append((p.pid, "haproxy"))
    wait_for(lambda: ping_ok(listen), 30, "HAProxy")
    return p, listen


def start_relay(tmp, backend):
    listen = os.path.join(tmp, "relay.sock")
    p = subprocess.Popen([RAWRELAY, listen, backend], stdout=subprocess.DEVNULL)
    procs.append((p.pid, "rawrelay"))
    wait_for(lambda: ping_ok(listen), 30, "the bare relay")
    return p, listen


# ---------------------------------------------------------------- figures

def loadgen(mode, sock, **kw):
    cmd = [LOADGEN, mode, "--sock", sock]
    for k, v in kw.items():
        if v is True:
            cmd.append("--" + k)
        elif v is not False and v is not None:
            cmd += ["--" + k.replace("_", "-"), str(v)]
    r = run(cmd, timeout=900)
    return json.loads(r.stdout)


def interleave(rounds, fn, sides, failures=None):
    """fn(side) for each side, the order rotating every round; lists per
    side. With failures (a dict), a side whose fn raises gets its error
    recorded there and is not run again; the other sides go on."""
    sides = tuple(sides)
    out = {s: [] for s in sides}
    for i in range(rounds):
        k = i % len(sides)
        order = sides[k:] + sides[:k]
        for side in order:
            if failures is not None and side in failures:
                continue
            if failures is None:
                out[side].append(fn(side))
                continue
            try:
                out[side].append(fn(side))
            except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
                failures[side] = str(e)[:300]
    return out


def median_or_none(values):
    return statistics.median(values) if values else None


class Report:
    """Rows of figures, one value per side; each section is one table whose
    columns are the sides it measured, then the ratios between them, the
    bars and whether they are met."""

    def __init__(self):
        self.rows = []      # (section, figure, {side: value}, unit, bars, higher_better)
        self.notes = []
        self.intro = {}     # section -> lines printed above its table
        self.summary = []   # (what, figure, bar text, met)

    def add(self, section, figure, vals, unit, bars=(), higher_better=False):
        """vals: {side: value or None}. bars: (side, ref, limit): the
        ratio side/ref within limit, or with ref None the value itself
        (in unit) within limit; within is >= for higher_better rows."""
        vals = dict(vals)
        self.rows.append((section, figure, vals, unit, tuple(bars), higher_better))
        parts = [f"{NAMES.get(s, s)} {fmt(v, unit)}" for s, v in vals.items()]
        log(f"{section}: {figure}: " + ", ".join(parts))
        for b in bars:
            self.summary.append((section, figure, bar_text(b, unit, higher_better),
                                 bar_met(b, vals, higher_better)))


def ratio(vals, a, b):
    x, y = vals.get(a), vals.get(b)
    if x is None or y is None or y <= 0:
        return None
    return x / y


def bar_met(bar, vals, higher_better):
    side, ref, limit = bar
    v = vals.get(side) if ref is None else ratio(vals, side, ref)
    if v is None:
        return None
    return v >= limit if higher_better else v <= limit


def bar_text(bar, unit, higher_better):
    side, ref, limit = bar
    op = "≥" if higher_better else "≤"
    if ref is None:
        return f"{op} {fmt(limit, unit)}"
    return f"{NAMES[side]} {op} {limit}× {NAMES[ref]}"


def fmt(v, unit):
    if v is None:
        return "–"
    if unit == "us":
        return f"{v:.0f} µs"
    if unit == "ms":
        return f"{v:.0f} ms"
    if unit == "MiB/s":
        return f"{v:.0f} MiB/s"
    if unit == "req/s":
        return f"{v:.0f} req/s"
    if unit == "MiB":
        return f"{v:.1f} MiB"
    if unit == "n":
        return f"{v:.0f}"
    if unit == "x":
        return f"{v:.1f}"
    return f"{v:.2f} {unit}"


# ---------------------------------------------------------------- sections

def section_latency(rep, socks, cid, args):
    n = 400 if args.quick else 2000
    rounds = 2 if args.quick else 6
    sec = "API latency"
    cases = [
        ("new connection + GET /_ping", dict(path="/_ping", newconn=True),
         [("gateway", "direct", 2.0), ("gateway", "relay", 1.05)]),
        ("keep-alive GET /_ping", dict(path="/_ping"), [("gateway", "direct", 1.5)]),
        ("keep-alive GET /containers/<id>/json", dict(path=f"/v1.41/containers/{cid}/json"),
         [("gateway", "direct", 1.3)]),
        ("keep-alive GET /containers/json", dict(path="/v1.41/containers/json"),
         [("gateway", "direct", 1.2)]),
    ]
    for name, kw, bars in cases:
        res = interleave(rounds, lambda side: loadgen("lat", socks[side], n=n, warmup=50, **kw),
                         SIDES)
        for side in res:
            errs = sum(r["errors"] for r in res[side])
            if errs:
                rep.notes.append(f"{name}: {errs} errors through {NAMES[side]}")
        for p, label in (("p50_us", "p50"), ("p90_us", "p90"), ("p99_us", "p99")):
            vals = {s: statistics.median(r[p] for r in res[s]) for s in SIDES}
            rep.add(sec, f"{name}, {label}", vals, "us", bars if label == "p50" else ())


def section_refusal(rep, gw_sock, gw_pid, args):
    """A 4 MiB create body with an unknown field, parsed by the request
    parser and refused (403): the JSON path's cost, and the monitor's RSS
    after it (it never holds the body). Gateway only: the backend would
    not refuse it."""
    rounds = 3 if args.quick else 7
    body = (b'{"Image":"x","Env":[' + b",".join(b'"A=%d"' % i for i in range(400000))
            + b'],"Bogus":1}')
    head = (b"POST /v1.41/containers/create HTTP/1.1\r\nHost: d\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
    times = []
    for _ in range(rounds):
        s = socket.socket(socket.AF_UNIX)
        s.connect(gw_sock)
        t0 = time.perf_counter()
        s.sendall(head + body)
        got = b""
        while b"\r\n\r\n" not in got:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
        times.append((time.perf_counter() - t0) * 1e3)
        s.close()
        if not got.startswith(b"HTTP/1.1 403"):
            rep.notes.append("4 MiB refused create: answered "
                             + got.split(b"\r\n", 1)[0].decode(errors="replace"))
    sec = "JSON refusal"
    rep.add(sec, f"{len(body) / MIB:.1f} MiB create body parsed and refused, median ms",
            {"gateway": statistics.median(times)}, "ms")
    rep.add(sec, "the monitor's RSS after it", {"gateway": rss_kib(gw_pid) / 1024}, "MiB")


def section_cpu(rep, socks, pids, pm_pid, args):
    """CPU of the process(es) in the path and of podman per 10k requests,
    and their wake-ups per request; rounds interleaved, medians."""
    n = 2000 if args.quick else 10000
    n2 = 500 if args.quick else 2000
    rounds = 1 if args.quick else 3
    hz = os.sysconf("SC_CLK_TCK")
    sec = "CPU per 10k requests"
    rep.intro[sec] = [
        "CPU time (utime + stime from /proc, reaped children included) of the process "
        "tree in the path (the gateway: monitor, zygote, request parsers; the bare relay "
        "and its per-connection processes; HAProxy's threads) and of the podman service, "
        "per 10,000 requests; wake-ups: voluntary context switches of the tree's threads "
        "per request, sampled every 20 ms while the run lasts (a process that ends counts "
        "up to its last sample).", ""]

    def measure(path_kw, count):
        def f(side):
            mid = pids.get(side)
            g0, p0 = (cpu_ticks(mid) if mid else 0), cpu_ticks(pm_pid)
            ws = WakeupSampler(mid) if mid else None
            p = subprocess.Popen([LOADGEN, "lat", "--sock", socks[side], "--n", str(count),
                                  "--warmup", "0", "--path", "/_ping"] +
                                 (["--newconn"] if path_kw.get("newconn") else []),
                                 stdout=subprocess.PIPE)
            procs.append((p.pid, "loadgen"))
            while p.poll() is None:
                if ws:
                    ws.sample()
                time.sleep(0.02)
            if json.loads(p.stdout.read())["errors"]:
                rep.notes.append(f"CPU per 10k requests: errors through {NAMES[side]}")
            g1, p1 = (cpu_ticks(mid) if mid else 0), cpu_ticks(pm_pid)
            scale = 10000 / count * 1000 / hz
            return ((g1 - g0) * scale if mid else None, (p1 - p0) * scale,
                    ws.total() / count if ws else None)
        return f

    ka = interleave(rounds, measure({}, n), SIDES)
    nc = interleave(rounds, measure({"newconn": True}, n2), SIDES)

    def med(res, i):
        return {s: median_or_none([r[i] for r in res[s] if r[i] is not None]) for s in SIDES}

    rep.add(sec, "keep-alive /_ping: the tree in the path", med(ka, 0), "ms",
            [("gateway", "haproxy", 2.0)])
    rep.add(sec, "keep-alive /_ping: podman service", med(ka, 1), "ms")
    rep.add(sec, "keep-alive /_ping: wake-ups per request, the tree in the path", med(ka, 2), "x")
    rep.add(sec, "new connection per /_ping: wake-ups per request, the tree in the path",
            med(nc, 2), "x")
    rep.add(sec, "new connection per /_ping: the tree in the path", med(nc, 0), "ms")
    rep.add(sec, "new connection per /_ping: podman service", med(nc, 1), "ms")


def cli_time(cmd, env, stdin=None, timeout=120):
    t0 = time.monotonic()
    r = subprocess.run(cmd, env=env, stdin=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=timeout)
    dt = (time.monotonic() - t0) * 1000
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:4])}: exit {r.returncode}: "
                           f"{r.stderr.decode(errors='replace')[-300:]}")
    return dt


HAPROXY_EXEC_NOTE = ("HAProxy's docker exec cells are empty: the exec start is an HTTP/1.1 "
                     "upgrade request with a JSON body, which HAProxy does not upgrade from "
                     "2.4 on (Debian 12 ships 2.6; fixed in 3.1, backported to 3.0 and 2.9: "
                     "haproxy/haproxy#2684, Tecnativa/docker-socket-proxy#132), so the CLI "
                     "fails through it; attach, which sends no body, passes.")


def note_failures(rep, name, failures):
    for side, err in failures.items():
        rep.notes.append(f"{name} through {NAMES[side]}: {err}")
        if side == "haproxy" and "exec" in name and HAPROXY_EXEC_NOTE not in rep.notes:
            rep.notes.append(HAPROXY_EXEC_NOTE)


def section_cli(rep, envs, cid, args):
    rounds = 4 if args.quick else 12
    cases = [
        ("docker run --rm busybox true",
         ["docker", "run", "--rm", "localhost/busybox", "true"], 1.05),
        ("docker run --rm --network none busybox true",
         ["docker", "run", "--rm", "--network", "none", "localhost/busybox", "true"], None),
        ("docker exec <c> true", ["docker", "exec", cid, "true"], 1.05),
        ("docker ps", ["docker", "ps"], 1.1),
    ]
    for name, cmd, bar in cases:
        failures = {}
        res = interleave(rounds, lambda side: cli_time(cmd, envs[side]), SIDES, failures)
        note_failures(rep, name, failures)
        rep.add("CLI wall time", name, {s: median_or_none(res[s]) for s in SIDES}, "ms",
                [("gateway", "direct", bar)] if bar else ())


def random_file(path, size):
    """path holding size random bytes (made once per run); returns path."""
    if not os.path.exists(path) or os.path.getsize(path) != size:
        with open(path, "wb") as f:
            left = size
            while left:
                b = os.urandom(min(left, 4 * MIB))
                f.write(b)
                left -= len(b)
    return path


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def cp_out_rate(cid, env, d, size, want):
    """docker cp of the container's /tmp/blob (size bytes, sha256 want) into the
    scratch directory d: MiB/s; RuntimeError when the bytes differ."""
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    t = cli_time(["docker", "cp", f"{cid}:/tmp/blob", d], env, timeout=300)
    ok = sha256_file(os.path.join(d, "blob")) == want
    shutil.rmtree(d, ignore_errors=True)
    if not ok:
        raise RuntimeError("cp out: bytes differ")
    return size / MIB / (t / 1000)


def section_stream(rep, envs, cid, logcid, tmp, args, pids, pm_pid):
    """Streaming throughput on every side, and the CPU of each process in
    the path during the same runs."""
    size = (32 if args.quick else 256) * MIB
    rounds = 1 if args.quick else 5
    hz = os.sysconf("SC_CLK_TCK")
    src = random_file(os.path.join(tmp, "blob"), size)
    want = sha256_file(src)
    out = os.path.join(tmp, "blob.out")

    def cp_in(side):
        t = cli_time(["docker", "cp", src, f"{cid}:/tmp/blob"], envs[side], timeout=300)
        return size / MIB / (t / 1000)

    def cp_out(side):
        return cp_out_rate(cid, envs[side], os.path.join(tmp, "cpout"), size, want)

    def logs(side):
        t = cli_time(["docker", "logs", logcid], envs[side], timeout=300)
        return logsize / MIB / (t / 1000)

    def echo(cmd):
        def f(side):
            with open(src, "rb") as fin, open(out, "wb") as fout:
                t0 = time.monotonic()
                r = subprocess.run(cmd, env=envs[side], stdin=fin, stdout=fout,
                                   stderr=subprocess.PIPE, timeout=120)
                t = time.monotonic() - t0
            if r.returncode != 0:
                raise RuntimeError(f"exit {r.returncode}: {r.stderr.decode(errors='replace')[-200:]}")
            if sha256_file(out) != want:
                raise RuntimeError(f"echo: {os.path.getsize(out)} bytes back of {size}, or bytes differ")
            return size / MIB / t
        return f

    r = run(["docker", "logs", logcid], env=envs["direct"], timeout=300)
    logsize = len(r.stdout) + len(r.stderr)
    cases = [
        ("docker cp in", cp_in),
        ("docker cp out", cp_out),
        (f"docker logs ({logsize // MIB} MiB)", logs),
        ("docker exec -i cat (stdin echo)", echo(["docker", "exec", "-i", cid, "cat"])),
        ("docker run -i cat (attach echo)",
         echo(["docker", "run", "-i", "--rm", "--network", "none", "localhost/busybox", "cat"])),
    ]

    def with_cpu(fn):
        # CPU of each process in the path during one run, ms: the tree in the
        # path, the podman service, the docker CLI (conmon is the same either way)
        def f(side):
            mid = pids.get(side)
            g0, p0 = cpu_ticks(mid) if mid else 0, cpu_ticks(pm_pid)
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            mibs = fn(side)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            g1, p1 = cpu_ticks(mid) if mid else 0, cpu_ticks(pm_pid)
            cli = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000
            return mibs, ((g1 - g0) * 1000 / hz if mid else None, (p1 - p0) * 1000 / hz, cli)
        return f

    sec = "Streaming throughput"
    rep.intro[sec] = [
        "Each figure through every side, rounds interleaved, medians; the bare relay "
        "(bench/rawrelay.c: a process per connection splicing both ways through 1 MiB "
        "pipes, no parsing, no policy) is the floor of any interposed process on this "
        "machine.", ""]
    cpus = []
    for name, fn in cases:
        failures = {}
        res = interleave(rounds, with_cpu(fn), SIDES, failures)
        note_failures(rep, f"{name} ({size // MIB} MiB)", failures)
        rate = {k: median_or_none([r[0] for r in v]) for k, v in res.items()}
        rep.add(sec, f"{name}, {size // MIB} MiB", rate, "MiB/s",
                [("gateway", "relay", 0.95)], higher_better=True)
        cpus.append((name, {k: [median_or_none([r[1][i] for r in v if r[1][i] is not None])
                                for i in range(3)] for k, v in res.items()}))
    sec = f"Streaming CPU per {size // MIB} MiB (medians of the same runs)"
    for name, cpu in cpus:
        rep.add(sec, f"{name}: the tree in the path", {s: cpu[s][0] for s in SIDES}, "ms",
                [("gateway", "relay", 1.25)])
        rep.add(sec, f"{name}: podman service", {s: cpu[s][1] for s in SIDES}, "ms")
        rep.add(sec, f"{name}: docker CLI", {s: cpu[s][2] for s in SIDES}, "ms")
        rep.add(sec, f"{name}: all of them", {
            s: sum(x for x in cpu[s] if x is not None) if cpu[s][1] is not None else None
            for s in SIDES}, "ms")
    try:
        os.unlink(out)
    except OSError:
        pass


def section_uploads(rep, pm_sock, tmp, args, base):
    """Checked uploads (doc/privsep.md "Builds and archives"): a legacy docker build of
    a 64 MiB context and a docker cp of 256 MiB in and out, through this binary
    ("after"), --gateway-before ("before", e.g. main's binary before the checker, built
    in a scratch copy), each with its own project on the same podman, and directly,
    rounds interleaved; ratio = after / before; with the gateway tree's CPU per run."""
    sec = "Checked uploads: this binary against --gateway-before"
    if not args.gateway_before:
        rep.notes.append("uploads: skipped (no --gateway-before BINARY to compare with)")
        return
    rounds = 2 if args.quick else 9     # a shared machine: more rounds, medians
    ctx = os.path.join(tmp, "ctx64")
    csize = (16 if args.quick else 64) * MIB
    if not os.path.isdir(ctx):
        os.makedirs(ctx)
        blob, left, i = os.urandom(MIB), csize, 0
        sizes = (100, 4000, 30000, 300000, MIB)
        while left > 0:
            n = min(sizes[i % len(sizes)], left)
            d = os.path.join(ctx, f"d{i % 50}")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, f"f{i}"), "wb") as f:
                f.write(blob[:n])
            left -= n
            i += 1
        with open(os.path.join(ctx, "Dockerfile"), "w") as f:
            f.write("FROM localhost/busybox\nRUN true\n")
    size = (32 if args.quick else 256) * MIB
    src = random_file(os.path.join(tmp, "blob"), size)
    gws, envs, cids = {}, {}, {}
    for side, binary in (("after", GW_BIN), ("before", args.gateway_before)):
        proj, rundir = os.path.join(tmp, "up-" + side), os.path.join(tmp, "upr-" + side)
        gws[side] = start_gateway(proj, rundir, pm_sock, binary=binary)
        sock = os.path.join(rundir, "docker.sock")
        wait_for(lambda: ping_ok(sock), 30, f"the {side} gateway")
        envs[side] = dict(base, DOCKER_HOST="unix://" + sock, DOCKER_BUILDKIT="0")
        cids[side] = run(["docker", "create", "--network", "none", "localhost/busybox", "sleep",
                          "100000"], env=envs[side]).stdout.decode().strip()

    envs["direct"] = dict(base, DOCKER_HOST="unix://" + pm_sock, DOCKER_BUILDKIT="0")
    cids["direct"] = run(["docker", "create", "--network", "none", "localhost/busybox", "sleep",
                          "100000"], env=envs["direct"]).stdout.decode().strip()
    want = sha256_file(src)
    hz = os.sysconf("SC_CLK_TCK")

    def build(side):
        t = cli_time(["docker", "build", "-q", "-t", f"localhost/cgb-up:{side}", ctx],
                     envs[side], timeout=600)
        return csize / MIB / (t / 1000)

    def cp_in(side):
        t = cli_time(["docker", "cp", src, f"{cids[side]}:/tmp/blob"], envs[side], timeout=300)
        return size / MIB / (t / 1000)

    def cp_out(side):
        return cp_out_rate(cids[side], envs[side], os.path.join(tmp, "up-cpout"), size, want)

    def with_cpu(fn):
        # the gateway tree's CPU during the run (the checker is the monitor's child)
        def f(side):
            mid = gws[side].pid if side in gws else None
            c0 = cpu_ticks(mid) if mid else 0
            mibs = fn(side)
            return mibs, (cpu_ticks(mid) - c0) * 1000 / hz if mid else None
        return f

    rep.intro[sec] = [
        "The build and the copy in go through the checker (a spare request parser reading "
        "the tar headers of the tee'd body, the entries' data left out of its pipe); the "
        "copy out does not; --gateway-before: " + args.gateway_before + ".", ""]
    sides = ("after", "before", "direct")
    try:
        for name, fn in ((f"docker build (legacy), {csize // MIB} MiB context", build),
                         (f"docker cp in, {size // MIB} MiB", cp_in),
                         (f"docker cp out, {size // MIB} MiB", cp_out)):
            failures = {}
            res = interleave(rounds, with_cpu(fn), sides, failures)
            for side, err in failures.items():
                rep.notes.append(f"{name} through {side}: {err}")
            rep.add(sec, name, {s: median_or_none([r[0] for r in res[s]]) for s in sides},
                    "MiB/s", [("after", "before", 0.95)], higher_better=True)
            rep.add(sec, name + ": the gateway tree's CPU",
                    {s: median_or_none([r[1] for r in res[s]]) for s in ("before", "after")},
                    "ms")
    finally:
        for side in envs:
            run(["docker", "rm", "-f", cids[side]], env=envs[side], check=False)
            run(["docker", "rmi", "-f", f"localhost/cgb-up:{side}"], env=envs[side], check=False)
        for side in gws:
            stop_pid(gws[side].pid, "gateway " + side)


def section_conc(rep, socks, pids, args):
    secs = 3 if args.quick else 10
    rounds = 1 if args.quick else 2
    peak = {s: 0 for s in SIDES}
    sec = "Concurrent keep-alive clients"
    for clients in (64, 256):
        def one(side):
            mid = pids.get(side)
            if mid is None:
                return loadgen("conc", socks[side], clients=clients, seconds=secs)
            # sample the tree's PSS while the load runs
            p = subprocess.Popen([LOADGEN, "conc", "--sock", socks[side], "--clients",
                                  str(clients), "--seconds", str(secs)], stdout=subprocess.PIPE)
            procs.append((p.pid, "loadgen"))
            while p.poll() is None:
                if clients == 256:
                    peak[side] = max(peak[side], pss_kib(tree(mid)))
                time.sleep(0.5)
            return json.loads(p.stdout.read())
        res = interleave(rounds, one, SIDES)
        rps = {s: statistics.median(r["rps"] for r in res[s]) for s in SIDES}
        errs = {s: sum(r["errors"] for r in res[s]) for s in SIDES}
        bars = [("gateway", "relay", 1.0)] if clients == 256 else []
        rep.add(sec, f"{clients} clients on /_ping", rps, "req/s", bars, higher_better=True)
        rep.add(sec, f"{clients} clients, errors", errs, "n",
                [("gateway", None, 0)] if clients == 256 else [])
    rep.add("Memory (PSS)", "the tree in the path under 256 keep-alive clients (peak)",
            {s: peak[s] / 1024 if pids.get(s) else None for s in SIDES}, "MiB",
            [("gateway", None, 32)])


def section_budget(rep, pm_sock, tmp, args):
    """256 clients (32 with --quick) send an 8 MiB create body at once to a
    gateway with the default memory budget (512 MiB): the monitor's peak
    RSS stays within it, and every client gets the backend's answer (404:
    the image is missing, nothing is created) or the gateway's 503. Then
    8 clients send the densest 8 MiB body (2.8 million empty strings),
    whose parse does not fit the budget's parse area: a 503 each. (Not
    256 of the densest: each request parser parses its own body, about
    300 MiB each, which is the machine's memory, not the monitor's.)"""
    clients = 32 if args.quick else 256
    budget_mib = 512
    sec = "Memory budget of the monitor"
    strbody = os.path.join(tmp, "str.json")
    dense = os.path.join(tmp, "dense.json")
    head = '{"Image":"localhost/cg-missing:none","Env":["A='
    with open(strbody, "w") as f:
        f.write(head + "x" * ((8 << 20) - 4096 - len(head) - 4) + '"]}')
    head = '{"Image":"localhost/cg-missing:none","Cmd":['
    n = ((8 << 20) - 4096 - len(head)) // 3
    with open(dense, "w") as f:
        f.write(head + ",".join(['""'] * n) + "]}")
    gw = start_gateway(os.path.join(tmp, "bproj"), os.path.join(tmp, "brun"), pm_sock)
    sock = os.path.join(tmp, "brun", "docker.sock")
    try:
        wait_for(lambda: ping_ok(sock), 30, "the budget gateway")
        before = rss_kib(gw.pid)
        with open(f"/proc/{gw.pid}/clear_refs", "w") as f:
            f.write("5")
        t0 = time.monotonic()
        r = loadgen("post", sock, clients=clients, body=strbody,
                    path="/v1.41/containers/create", timeout_s=900)
        wall = time.monotonic() - t0
        rd = loadgen("post", sock, clients=8, body=dense,
                     path="/v1.41/containers/create", timeout_s=300)
        peak = rss_kib(gw.pid, "VmHWM")
    finally:
        stop_pid(gw.pid, "gateway")
    st = r.get("status", {})
    answered = sum(v for k, v in st.items() if k != "503")
    rep.intro[sec] = [
        f"{clients} clients send an 8 MiB create body (one long Env string; its image is "
        "missing, so podman answers 404 and creates nothing) at once to a gateway with the "
        f"default --memory-budget ({budget_mib} MiB); then 8 clients the densest 8 MiB body "
        "(2.8 million empty strings), whose parse does not fit the budget's parse area.", ""]
    rep.add(sec, "monitor RSS before", {"gateway": before / 1024}, "MiB")
    rep.add(sec, "monitor peak RSS", {"gateway": peak / 1024}, "MiB",
            [("gateway", None, budget_mib)])
    rep.add(sec, "8 MiB bodies answered by the backend", {"gateway": answered}, "n")
    rep.add(sec, "8 MiB bodies answered 503 by the gateway", {"gateway": st.get("503", 0)}, "n")
    rep.add(sec, "8 MiB bodies without an answer (reset, closed, timed out)",
            {"gateway": r.get("failed", 0)}, "n", [("gateway", None, 0)])
    rep.add(sec, "seconds until the last 8 MiB body's answer", {"gateway": wall}, "s")
    rep.add(sec, "densest bodies answered 503", {"gateway": rd.get("status", {}).get("503", 0)},
            "n")
    rep.add(sec, "densest bodies without an answer", {"gateway": rd.get("failed", 0)}, "n",
            [("gateway", None, 0)])
    os.unlink(strbody)
    os.unlink(dense)


def section_gateways(rep, pm_sock, tmp, args):
    count = args.gateways or (10 if args.quick else 1000)
    sec = f"{count} idle gateways, one podman"
    rep.intro[sec] = [
        "Started at once, then idle; each is measured in turn (its first use since it "
        "started), with 20 new connections + GET /_ping, right after 20 directly on "
        "podman; the median and the slowest of the gateways' p50 against the median of "
        "the direct p50s; then the slowest one once more, to tell a slow gateway from "
        "a slow moment of the machine.", ""]
    gws = []
    try:
        for i in range(count):
            proj = os.path.join(tmp, f"p{i:04d}")
            gws.append((start_gateway(proj, os.path.join(tmp, f"r{i:04d}"), pm_sock), proj, i))
        for p, proj, i in gws:
            sock = os.path.join(tmp, f"r{i:04d}", "docker.sock")
            wait_for(lambda: ping_ok(sock), 60, f"gateway {i}")
        time.sleep(1)
        total = sum(pss_kib(tree(p.pid)) for p, _, _ in gws)
        rep.add(sec, "total PSS of all gateway trees", {"gateway": total / 1024}, "MiB",
                [("gateway", None, 1024 * count / 1000)])
        lat, direct = [], []
        for p, proj, i in gws:
            sock = os.path.join(tmp, f"r{i:04d}", "docker.sock")
            direct.append(loadgen("lat", pm_sock, n=20, warmup=2, path="/_ping",
                                  newconn=True)["p50_us"])
            lat.append(loadgen("lat", sock, n=20, warmup=2, path="/_ping",
                               newconn=True)["p50_us"])
        d = statistics.median(direct)
        rep.add(sec, "new connection + /_ping p50, median gateway",
                {"direct": d, "gateway": statistics.median(lat)}, "us", [("gateway", "direct", 2.0)])
        rep.add(sec, "new connection + /_ping p50, slowest gateway",
                {"direct": d, "gateway": max(lat)}, "us", [("gateway", "direct", 3.0)])
        # the slowest one again, at once: slow itself, or slow at that moment?
        k = lat.index(max(lat))
        sock = os.path.join(tmp, f"r{k:04d}", "docker.sock")
        d2 = loadgen("lat", pm_sock, n=20, warmup=2, path="/_ping", newconn=True)["p50_us"]
        g2 = loadgen("lat", sock, n=20, warmup=2, path="/_ping", newconn=True)["p50_us"]
        rep.add(sec, "the slowest gateway measured again at once (direct: measured right before)",
                {"direct": d2, "gateway": g2}, "us")
    finally:
        for p, _, _ in gws:
            stop_pid(p.pid, "gateway")


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30)
    ver = lambda c: run(c, check=False).stdout.decode().strip().splitlines()[0] if shutil.which(c[0]) else "-"
    hap = shutil.which("haproxy") or "/usr/sbin/haproxy"
    return {
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "host": f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB, Linux {platform.release()}",
        "podman": ver(["podman", "--version"]),
        "docker": ver(["docker", "--version"]),
        "haproxy": ver([hap, "-v"]) if os.path.exists(hap) else "-",
        "gateway": run([GW_BIN, "version"], check=False).stdout.decode().strip(),
        "commit": run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], check=False).stdout.decode().strip(),
        "load": open("/proc/loadavg").read().split()[:3],
    }


def write_report(rep, m, path, args):
    lines = ["# Performance: the gateway beside direct podman, a bare relay and HAProxy", "",
             "Generated by `make bench` (bench/bench.py); do not edit by hand.", "",
             f"* date: {m['date']}; commit {m['commit']} ({m['gateway']}); load average at "
             f"the start {' '.join(m['load0'])}, at the end {' '.join(m['load'])}",
             f"* machine: {m['host']}",
             f"* backend: private rootful {m['podman']} (scripts/podman-up.sh); client {m['docker']}",
             f"* peers, on unix sockets in front of the same podman: the bare relay "
             f"(bench/rawrelay.c, a process per connection splicing both ways) and "
             f"{m['haproxy'].split(' - ')[0]} configured like Tecnativa's docker-socket-proxy "
             "(HTTP mode, a regular expression per API family, `option http-server-close`, "
             "no log; bench.py haproxy_config)",
             "* method: every figure is measured on every side in the same run, rounds "
             "interleaved (the order rotating every round), medians over the rounds; "
             "a ratio a/b is side a's figure over side b's (for throughput higher is "
             "better, for everything else lower)." +
             (" **Quick run (--quick): fewer rounds, smaller sizes.**" if args.quick else ""), ""]
    if rep.summary:
        lines += ["", "## The bars", "", "| section | figure | bar | met |", "|---|---|---|:-:|"]
        for sec, fig, text, met in rep.summary:
            mt = "–" if met is None else ("yes" if met else "**no**")
            lines.append(f"| {sec} | {fig} | {text} | {mt} |")
    order = []
    for r in rep.rows:
        if r[0] not in order:
            order.append(r[0])
    for sec in order:
        rows = [r for r in rep.rows if r[0] == sec]
        sides = [s for s in ("direct", "gateway", "relay", "haproxy", "before", "after")
                 if any(s in r[2] for r in rows)]
        ratios = [(a, b) for a, b in RATIOS if a in sides and b in sides]
        head = ["figure"] + [NAMES[s] for s in sides] + \
            [f"{NAMES[a]} ÷ {NAMES[b]}" for a, b in ratios] + ["bar", "met"]
        lines += ["", f"## {sec}", ""] + rep.intro.get(sec, []) + [
            "| " + " | ".join(head) + " |",
            "|---|" + "---:|" * (len(sides) + len(ratios)) + "---|:-:|"]
        for (_, fig, vals, unit, bars, hb) in rows:
            cells = [fig] + [fmt(vals[s], unit) if s in vals else "" for s in sides]
            for a, b in ratios:
                r = ratio(vals, a, b)
                cells.append(f"{r:.2f}×" if r is not None else "")
            cells.append("; ".join(bar_text(b, unit, hb) for b in bars))
            mets = [bar_met(b, vals, hb) for b in bars]
            cells.append(" · ".join("–" if x is None else ("yes" if x else "**no**")
                                    for x in mets))
            lines.append("| " + " | ".join(cells) + " |")
    if rep.notes:
        lines += ["", "## Notes", ""] + [f"* {n}" for n in rep.notes]
    lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    log(f"wrote {path}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=os.path.join(REPO, "doc", "performance.md"))
    ap.add_argument("--only", default="memory,latency,refusal,cpu,cli,stream,uploads,conc,budget,gateways")
    ap.add_argument("--gateway-before", help="another gateway binary (e.g. main's, built in a "
                    "scratch copy) to compare the checked uploads with (section uploads)")
    ap.add_argument("--gateways", type=int, default=0,
                    help="idle gateways of the last section (default 1000; 10 with --quick)")
    ap.add_argument("--podman-dir", help="reuse a podman started with scripts/podman-up.sh DIR")
    args = ap.parse_args()
    only = set(args.only.split(","))
    if os.geteuid() != 0:
        sys.exit("bench: needs root (a private rootful podman)")
    if not (shutil.which("haproxy") or os.path.exists("/usr/sbin/haproxy")):
        sys.exit("bench: needs haproxy (make bench installs it: scripts/install-deps.sh --bench)")
    tmp = tempfile.mkdtemp(prefix="cgb.", dir="/tmp")
    pm_dir = args.podman_dir or os.path.join(tmp, "pm")
    own_podman = args.podman_dir is None
    rep = Report()
    load0 = open("/proc/loadavg").read().split()[:3]
    try:
        if own_podman:
            log("starting a private podman")
            run(["bash", os.path.join(REPO, "scripts", "podman-up.sh"), pm_dir, "auto"], timeout=300)
        pm_sock = os.path.join(pm_dir, "podman.sock")
        pm_pid = int(open(os.path.join(pm_dir, "service.pid")).read())
        proj = os.path.join(tmp, "proj")
        rundir = os.path.join(tmp, "run")
        gw = start_gateway(proj, rundir, pm_sock)
        gw_sock = os.path.join(rundir, "docker.sock")
        wait_for(lambda: ping_ok(gw_sock), 30, "the gateway")
        relay, relay_sock = start_relay(tmp, pm_sock)
        hap, hap_sock = start_haproxy(tmp, pm_sock)
        socks = {"gateway": gw_sock, "direct": pm_sock, "relay": relay_sock, "haproxy": hap_sock}
        pids = {"gateway": gw.pid, "relay": relay.pid, "haproxy": hap.pid}
        base = {k: v for k, v in os.environ.items()
                if k in ("PATH", "HOME", "LANG", "TERM")}
        envs = {s: dict(base, DOCKER_HOST="unix://" + socks[s]) for s in socks}
        time.sleep(0.5)
        idle = {s: pss_kib(tree(pids[s])) / 1024 for s in pids}
        # resources owned by the project (created through the gateway)
        cid = run(["docker", "run", "-d", "--network", "none", "localhost/busybox", "sleep", "100000"],
                  env=envs["gateway"]).stdout.decode().strip()
        if "memory" in only:
            rep.add("Memory (PSS)", "idle (the gateway: monitor, zygote and spare child)", idle,
                    "MiB", [("gateway", None, 2)])
        if "latency" in only:
            section_latency(rep, socks, cid, args)
        if "refusal" in only:
            section_refusal(rep, gw_sock, gw.pid, args)
        if "cpu" in only:
            section_cpu(rep, socks, pids, pm_pid, args)
        if "cli" in only:
            section_cli(rep, envs, cid, args)
        if "stream" in only:
            logmb = 32 if args.quick else 256
            logcid = run(["docker", "run", "-d", "--network", "none", "localhost/busybox", "sh", "-c",
                          f"head -c {logmb * 3 // 4 * MIB} /dev/urandom | base64 -w 4096"],
                         env=envs["gateway"]).stdout.decode().strip()
            run(["docker", "wait", logcid], env=envs["direct"], timeout=300)
            section_stream(rep, envs, cid, logcid, tmp, args, pids, pm_pid)
        if "uploads" in only:
            section_uploads(rep, pm_sock, tmp, args, base)
        if "conc" in only:
            section_conc(rep, socks, pids, args)
        run(["docker", "rm", "-f", cid], env=envs["direct"], check=False)
        if "stream" in only:
            run(["docker", "rm", "-f", logcid], env=envs["direct"], check=False)
        for p, name in ((gw, "gateway"), (relay, "rawrelay"), (hap, "haproxy")):
            stop_pid(p.pid, name)
        if "budget" in only:
            section_budget(rep, pm_sock, tmp, args)
        if "gateways" in only:
            section_gateways(rep, pm_sock, tmp, args)
        m = machine()
        m["load0"] = load0
        write_report(rep, m, args.out, args)
    finally:
        for pid, name in procs:
            stop_pid(pid, name)
        if own_podman:
            run(["bash", os.path.join(REPO, "scripts", "podman-down.sh"), pm_dir], check=False, timeout=300)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
