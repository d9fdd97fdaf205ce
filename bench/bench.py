#!/usr/bin/env python3
"""make bench: the gateway side by side with direct podman (issue 9).

Starts a private podman (scripts/podman-up.sh) and one gateway in front of
it, then measures each figure through the gateway and directly against the
podman socket, interleaving the rounds (gateway, direct, gateway, ...) so
that drift of the machine hits both sides alike. Writes doc/performance.md
(or --out) with the machine, the date, each figure, its ratio
gateway/direct and the issue's bar.

usage: bench/bench.py [--quick] [--out FILE] [--only SECTION,...]
  sections: latency cli stream conc memory gateways
Needs root (a private rootful podman). Every process it starts is stopped by
pid at the end, also on failure.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import re
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
LABEL = "org.apache.magpie.project"
MIB = 1 << 20

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


# ---------------------------------------------------------------- figures

def loadgen(mode, sock, **kw):
    cmd = [LOADGEN, mode, "--sock", sock]
    for k, v in kw.items():
        if v is True:
            cmd.append("--" + k)
        elif v is not False and v is not None:
            cmd += ["--" + k, str(v)]
    r = run(cmd, timeout=900)
    return json.loads(r.stdout)


def interleave(rounds, fn, failures=None, sides=("gateway", "direct")):
    """fn(side) for each side, the order rotating every round; lists per
    side. With failures (a dict), a side whose fn raises gets its error
    recorded there and is not run again; the other sides go on."""
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
    def __init__(self):
        self.rows = []      # (section, figure, direct, gateway, ratio, bar, met, unit)
        self.notes = []
        self.cols = {}      # section -> (first column, second column) when not direct/gateway
        self.intro = {}     # section -> lines printed above its table

    def add(self, section, figure, direct, gateway, unit, bar=None, higher_better=False):
        ratio = None
        if direct and gateway is not None and direct > 0:
            ratio = gateway / direct
        met = None
        if bar is not None and ratio is not None:
            met = ratio >= bar if higher_better else ratio <= bar
        self.rows.append((section, figure, direct, gateway, ratio, bar, met, unit, higher_better))
        r = f"{ratio:.2f}x" if ratio is not None else "-"
        log(f"{section}: {figure}: direct {fmt(direct, unit)} gateway {fmt(gateway, unit)} ({r})")

    def add_abs(self, section, figure, value, unit, bar=None, lower_better=True):
        met = None
        if bar is not None and value is not None:
            met = value <= bar if lower_better else value >= bar
        self.rows.append((section, figure, None, value, None, bar, met, unit, not lower_better))
        log(f"{section}: {figure}: {fmt(value, unit)}")


def fmt(v, unit):
    if v is None:
        return "failed"
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
    return f"{v:.2f} {unit}"


def section_latency(rep, socks, cid, args):
    n = 400 if args.quick else 2000
    rounds = 2 if args.quick else 6
    cases = [
        ("new connection + GET /_ping", dict(path="/_ping", newconn=True), 2.0),
        ("keep-alive GET /_ping", dict(path="/_ping"), 1.5),
        ("keep-alive GET /containers/<id>/json", dict(path=f"/v1.41/containers/{cid}/json"), 1.3),
        ("keep-alive GET /containers/json", dict(path="/v1.41/containers/json"), 1.2),
    ]
    for name, kw, bar in cases:
        res = interleave(rounds, lambda side: loadgen("lat", socks[side], n=n, warmup=50, **kw))
        for side in res:
            errs = sum(r["errors"] for r in res[side])
            if errs:
                rep.notes.append(f"{name}: {errs} errors through {side}")
        for p, label in (("p50_us", "p50"), ("p90_us", "p90"), ("p99_us", "p99")):
            d = statistics.median(r[p] for r in res["direct"])
            g = statistics.median(r[p] for r in res["gateway"])
            rep.add("API latency", f"{name}, {label}", d, g, "us", bar if label == "p50" else None)


def section_cpu(rep, socks, gw_pid, pm_pid, args):
    n = 2000 if args.quick else 10000
    hz = os.sysconf("SC_CLK_TCK")
    res = {}
    for side in ("direct", "gateway"):
        g0, p0 = cpu_ticks(gw_pid), cpu_ticks(pm_pid)
        loadgen("lat", socks[side], n=n, warmup=0, path="/_ping")
        g1, p1 = cpu_ticks(gw_pid), cpu_ticks(pm_pid)
        scale = 10000 / n * 1000 / hz
        res[side] = ((g1 - g0) * scale, (p1 - p0) * scale)
    rep.add_abs("CPU per 10k keep-alive /_ping", "gateway tree, through the gateway",
                res["gateway"][0], "ms")
    rep.add("CPU per 10k keep-alive /_ping", "podman service", res["direct"][1],
            res["gateway"][1], "ms")
    n2 = 500 if args.quick else 2000
    g0 = cpu_ticks(gw_pid)
    loadgen("lat", socks["gateway"], n=n2, warmup=0, path="/_ping", newconn=True)
    g1 = cpu_ticks(gw_pid)
    rep.add_abs("CPU per 10k keep-alive /_ping", "gateway tree, new connection per request",
                (g1 - g0) * 10000 / n2 * 1000 / hz, "ms")


def cli_time(cmd, env, stdin=None, timeout=120):
    t0 = time.monotonic()
    r = subprocess.run(cmd, env=env, stdin=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=timeout)
    dt = (time.monotonic() - t0) * 1000
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:4])}: exit {r.returncode}: "
                           f"{r.stderr.decode(errors='replace')[-300:]}")
    return dt


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
        res = interleave(rounds, lambda side: cli_time(cmd, envs[side]), failures)
        for side, err in failures.items():
            rep.notes.append(f"{name} through {side}: {err}")
        rep.add("CLI wall time", name, median_or_none(res["direct"]),
                median_or_none(res["gateway"]), "ms", bar)


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


def section_stream(rep, envs, cid, logcid, tmp, args, gw_pid, pm_pid, relay_pid):
    """Streaming throughput through the gateway, directly, and through
    bench/rawrelay (relay_pid, envs["relay"]): the floor of any interposed
    process, so that the gateway's ratio can be read against it."""
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
        d = os.path.join(tmp, "cpout")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        t = cli_time(["docker", "cp", f"{cid}:/tmp/blob", d], envs[side], timeout=300)
        ok = sha256_file(os.path.join(d, "blob")) == want
        shutil.rmtree(d, ignore_errors=True)
        if not ok:
            raise RuntimeError("cp out: bytes differ")
        return size / MIB / (t / 1000)

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
        # CPU of each process in the path during one run, ms: the gateway tree,
        # the podman service, the docker CLI (conmon is the same either way)
        def f(side):
            mid = {"gateway": gw_pid, "relay": relay_pid}.get(side)
            g0, p0 = cpu_ticks(mid) if mid else 0, cpu_ticks(pm_pid)
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            mibs = fn(side)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            g1, p1 = cpu_ticks(mid) if mid else 0, cpu_ticks(pm_pid)
            cli = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000
            return mibs, ((g1 - g0) * 1000 / hz, (p1 - p0) * 1000 / hz, cli)
        return f

    cpus, rates = [], []
    for name, fn in cases:
        failures = {}
        res = interleave(rounds, with_cpu(fn), failures, ("gateway", "direct", "relay"))
        for side, err in failures.items():
            rep.notes.append(f"{name} ({size // MIB} MiB) through {side}: {err}")
        rate = {k: median_or_none([r[0] for r in v]) for k, v in res.items()}
        rep.add("Streaming throughput", f"{name}, {size // MIB} MiB", rate["direct"],
                rate["gateway"], "MiB/s", 0.95, True)
        rates.append((name, rate))
        if all(res.values()):
            cpus.append((name, {k: [median_or_none([r[1][i] for r in v]) for i in range(3)]
                                for k, v in res.items()}))
    # the floor: the same runs through a relay that parses and checks nothing
    sec = "Streaming floor: a bare splice relay instead of the gateway"
    rep.cols[sec] = ("direct", "bare relay")
    rep.intro[sec] = [
        "bench/rawrelay.c: one process per connection splicing both ways through 1 MiB "
        "pipes, no parsing, no policy; its rounds are interleaved with the two above. "
        "What any interposed process costs on this machine; the last table reads the "
        "gateway against it.", ""]
    for name, rate in rates:
        rep.add(sec, f"{name}, {size // MIB} MiB", rate["direct"], rate["relay"], "MiB/s",
                higher_better=True)
    sec2 = "Streaming: the gateway against the bare relay"
    rep.cols[sec2] = ("bare relay", "gateway")
    for name, rate in rates:
        rep.add(sec2, f"{name}, {size // MIB} MiB", rate["relay"], rate["gateway"], "MiB/s",
                higher_better=True)
    # after the throughput table: where the CPU of the same runs went
    sec = f"Streaming CPU per {size // MIB} MiB (medians of the same runs)"
    for name, cpu in cpus:
        rep.add_abs(sec, f"{name}: gateway tree", cpu["gateway"][0], "ms")
        rep.add_abs(sec, f"{name}: bare relay (instead of the gateway)", cpu["relay"][0], "ms")
        rep.add(sec, f"{name}: podman service, through the bare relay", cpu["direct"][1],
                cpu["relay"][1], "ms")
        rep.add(sec, f"{name}: podman service", cpu["direct"][1], cpu["gateway"][1], "ms")
        rep.add(sec, f"{name}: docker CLI", cpu["direct"][2], cpu["gateway"][2], "ms")
        rep.add(sec, f"{name}: the three together", cpu["direct"][1] + cpu["direct"][2],
                sum(cpu["gateway"]), "ms")
    try:
        os.unlink(out)
    except OSError:
        pass


def section_uploads(rep, pm_sock, tmp, args, base):
    """Checked uploads (doc/privsep.md "Builds and archives"): a legacy docker build of
    a 64 MiB context and a docker cp of 256 MiB in, through this binary ("after") and
    --gateway-before ("before", e.g. main's binary built in a scratch copy), each with
    its own project on the same podman, rounds interleaved; ratio = after / before."""
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

    def build(side):
        t = cli_time(["docker", "build", "-q", "-t", f"localhost/cgb-up:{side}", ctx],
                     envs[side], timeout=600)
        return csize / MIB / (t / 1000)

    def cp_in(side):
        t = cli_time(["docker", "cp", src, f"{cids[side]}:/tmp/blob"], envs[side], timeout=300)
        return size / MIB / (t / 1000)

    rep.cols[sec] = ("before", "after")
    rep.intro[sec] = [
        "The build and the copy in go through the checker (a spare request parser reading "
        "the tee'd body); --gateway-before: " + args.gateway_before + ".", ""]
    try:
        for name, fn in ((f"docker build (legacy), {csize // MIB} MiB context", build),
                         (f"docker cp in, {size // MIB} MiB", cp_in)):
            failures = {}
            res = interleave(rounds, fn, failures, ("after", "before"))
            for side, err in failures.items():
                rep.notes.append(f"{name} through {side}: {err}")
            rep.add(sec, name, median_or_none(res["before"]), median_or_none(res["after"]),
                    "MiB/s", 0.95, True)
    finally:
        for side in gws:
            run(["docker", "rm", "-f", cids[side]], env=envs[side], check=False)
            run(["docker", "rmi", "-f", f"localhost/cgb-up:{side}"], env=envs[side], check=False)
            stop_pid(gws[side].pid, "gateway " + side)


def section_conc(rep, socks, gw_pid, args):
    secs = 3 if args.quick else 10
    rounds = 1 if args.quick else 2
    peak = {"pss": 0}
    for clients in (64, 256):
        def one(side):
            if side == "direct":
                return loadgen("conc", socks[side], clients=clients, seconds=secs)
            # sample the gateway tree's PSS while the load runs
            p = subprocess.Popen([LOADGEN, "conc", "--sock", socks[side], "--clients",
                                  str(clients), "--seconds", str(secs)], stdout=subprocess.PIPE)
            procs.append((p.pid, "loadgen"))
            while p.poll() is None:
                peak["pss"] = max(peak["pss"], pss_kib(tree(gw_pid)))
                time.sleep(0.5)
            return json.loads(p.stdout.read())
        res = interleave(rounds, one)
        d = statistics.median(r["rps"] for r in res["direct"])
        g = statistics.median(r["rps"] for r in res["gateway"])
        errs = {s: sum(r["errors"] for r in res[s]) for s in res}
        rep.add("Concurrent keep-alive clients", f"{clients} clients on /_ping", d, g, "req/s",
                0.7 if clients == 256 else None, True)
        rep.add_abs("Concurrent keep-alive clients", f"{clients} clients, errors through the gateway",
                    errs["gateway"], "n", 0 if clients == 256 else None)
        if errs["direct"]:
            rep.notes.append(f"{clients} clients: {errs['direct']} errors directly against podman")
        if clients == 256:
            rep.add_abs("Memory (PSS, whole gateway tree)", "under 256 keep-alive clients (peak)",
                        peak["pss"] / 1024, "MiB", 64)


def section_gateways(rep, pm_sock, tmp, args):
    count = 10 if args.quick else 100
    gws = []
    try:
        for i in range(count):
            proj = os.path.join(tmp, f"p{i:03d}")
            gws.append((start_gateway(proj, os.path.join(tmp, f"r{i:03d}"), pm_sock), proj, i))
        for p, proj, i in gws:
            sock = os.path.join(tmp, f"r{i:03d}", "docker.sock")
            wait_for(lambda: ping_ok(sock), 30, f"gateway {i}")
        time.sleep(1)
        total = sum(pss_kib(tree(p.pid)) for p, _, _ in gws)
        rep.add_abs(f"{count} idle gateways, one podman", "total PSS of all gateway trees",
                    total / 1024, "MiB", 400 * count / 100)
        direct = loadgen("lat", pm_sock, n=200, warmup=10, path="/_ping", newconn=True)["p50_us"]
        worst = 0
        lat = []
        for p, proj, i in gws:
            sock = os.path.join(tmp, f"r{i:03d}", "docker.sock")
            r = loadgen("lat", sock, n=20, warmup=2, path="/_ping", newconn=True)
            lat.append(r["p50_us"])
            worst = max(worst, r["p50_us"])
        rep.add(f"{count} idle gateways, one podman", "new connection + /_ping p50, median gateway",
                direct, statistics.median(lat), "us", 2.0)
        rep.add(f"{count} idle gateways, one podman", "new connection + /_ping p50, slowest gateway",
                direct, worst, "us", 2.0)
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
    return {
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "host": f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB, Linux {platform.release()}",
        "podman": ver(["podman", "--version"]),
        "docker": ver(["docker", "--version"]),
        "gateway": run([GW_BIN, "version"], check=False).stdout.decode().strip(),
        "commit": run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], check=False).stdout.decode().strip(),
    }


def write_report(rep, m, path, args):
    lines = ["# Performance: the gateway side by side with direct podman", "",
             "Generated by `make bench` (bench/bench.py); do not edit by hand.", "",
             f"* date: {m['date']}; commit {m['commit']} ({m['gateway']})",
             f"* machine: {m['host']}",
             f"* backend: private rootful {m['podman']} (scripts/podman-up.sh); client {m['docker']}",
             "* method: every figure is measured through the gateway's docker.sock and directly "
             "on the podman socket, rounds interleaved (gateway, direct, direct, gateway, ...), "
             "medians over the rounds; ratio = gateway / direct." +
             (" **Quick run (--quick): fewer rounds, smaller sizes.**" if args.quick else ""), ""]
    section = None
    for (sec, fig, d, g, ratio, bar, met, unit, hb) in rep.rows:
        if sec != section:
            section = sec
            c1, c2 = rep.cols.get(sec, ("direct", "gateway"))
            lines += ["", f"## {sec}", ""] + rep.intro.get(sec, []) + [
                      f"| figure | {c1} | {c2} | ratio | bar | met |",
                      "|---|---:|---:|---:|---:|:-:|"]
        r = f"{ratio:.2f}×" if ratio is not None else ""
        b = ""
        if bar is not None:
            if d is None and ratio is None and unit != "us" and unit not in ("MiB/s", "req/s") and g is not None:
                b = ("≤ " if not hb else "≥ ") + fmt(bar, unit)
            else:
                b = ("≥ " if hb else "≤ ") + f"{bar}×"
        mt = "" if met is None else ("yes" if met else "**no**")
        lines.append(f"| {fig} | {fmt(d, unit) if d is not None else ''} | {fmt(g, unit)} | {r} | {b} | {mt} |")
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
    ap.add_argument("--only", default="memory,latency,cpu,cli,stream,uploads,conc,gateways")
    ap.add_argument("--gateway-before", help="another gateway binary (e.g. main's, built in a "
                    "scratch copy) to compare the checked uploads with (section uploads)")
    ap.add_argument("--podman-dir", help="reuse a podman started with scripts/podman-up.sh DIR")
    args = ap.parse_args()
    only = set(args.only.split(","))
    if os.geteuid() != 0:
        sys.exit("bench: needs root (a private rootful podman)")
    tmp = tempfile.mkdtemp(prefix="cgb.", dir="/tmp")
    pm_dir = args.podman_dir or os.path.join(tmp, "pm")
    own_podman = args.podman_dir is None
    rep = Report()
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
        socks = {"gateway": gw_sock, "direct": pm_sock}
        base = {k: v for k, v in os.environ.items()
                if k in ("PATH", "HOME", "LANG", "TERM")}
        envs = {s: dict(base, DOCKER_HOST="unix://" + socks[s]) for s in socks}
        time.sleep(0.5)
        idle_pss = pss_kib(tree(gw.pid)) / 1024
        # resources owned by the project (created through the gateway)
        cid = run(["docker", "run", "-d", "--network", "none", "localhost/busybox", "sleep", "100000"],
                  env=envs["gateway"]).stdout.decode().strip()
        if "memory" in only:
            rep.add_abs("Memory (PSS, whole gateway tree)", "idle (monitor and spare child)",
                        idle_pss, "MiB", 4)
        if "latency" in only:
            section_latency(rep, socks, cid, args)
        if "cpu" in only:
            section_cpu(rep, socks, gw.pid, pm_pid, args)
        if "cli" in only:
            section_cli(rep, envs, cid, args)
        if "stream" in only:
            logmb = 32 if args.quick else 256
            logcid = run(["docker", "run", "-d", "--network", "none", "localhost/busybox", "sh", "-c",
                          f"head -c {logmb * 3 // 4 * MIB} /dev/urandom | base64 -w 4096"],
                         env=envs["gateway"]).stdout.decode().strip()
            run(["docker", "wait", logcid], env=envs["direct"], timeout=300)
            relay_sock = os.path.join(tmp, "relay.sock")
            relay = subprocess.Popen([RAWRELAY, relay_sock, pm_sock], stdout=subprocess.DEVNULL)
            procs.append((relay.pid, "rawrelay"))
            envs["relay"] = dict(base, DOCKER_HOST="unix://" + relay_sock)
            wait_for(lambda: ping_ok(relay_sock), 30, "the bare relay")
            section_stream(rep, envs, cid, logcid, tmp, args, gw.pid, pm_pid, relay.pid)
            stop_pid(relay.pid, "rawrelay")
        if "uploads" in only:
            section_uploads(rep, pm_sock, tmp, args, base)
        if "conc" in only:
            section_conc(rep, socks, gw.pid, args)
        run(["docker", "rm", "-f", cid], env=envs["direct"], check=False)
        if "stream" in only:
            run(["docker", "rm", "-f", logcid], env=envs["direct"], check=False)
        stop_pid(gw.pid, "gateway")
        if "gateways" in only:
            section_gateways(rep, pm_sock, tmp, args)
        write_report(rep, machine(), args.out, args)
    finally:
        for pid, name in procs:
            stop_pid(pid, name)
        if own_podman:
            run(["bash", os.path.join(REPO, "scripts", "podman-down.sh"), pm_dir], check=False, timeout=300)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
