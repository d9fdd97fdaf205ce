#!/usr/bin/env python3
"""bench/cost.py: what one request or one MiB costs the gateway, in counts
that a loaded machine does not change (make bench's wall-clock figures need
a quiet one).

For each scenario, through a gateway (or the bare relay, --target relay) in
front of a private podman:
  * system calls per request (per MiB for copies) of each process class:
    the monitor, the zygote, the request parsers (strace -ff, every process
    of the tree attached, new ones followed), the top calls by name;
  * the monitor's instructions per request (valgrind --tool=callgrind, a
    second run with the monitor under callgrind; the zygote and the
    parsers run natively: their seccomp filters forbid what valgrind
    needs);
  * page faults of the request parsers (reaped children's minflt, read
    from the monitor's cminflt) and of the zygote, per request;
  * wake-ups (voluntary context switches of the tree's threads) and CPU
    per request, from /proc, in a third run without tracing.
Scenarios: ka (keep-alive GET /_ping), newconn (a new connection per GET
/_ping), cpin, cpout (docker cp of --mib MiB into and out of a container:
a checked upload), load (docker load of --mib MiB of random bytes: an
unchecked streamed upload, relayed whole before the daemon refuses it).

usage: bench/cost.py [--gateway BIN] [--target gateway|relay]
                     [--podman-dir DIR] [--only ka,newconn,cpin,cpout,load]
                     [--n N] [--mib M] [--no-callgrind] [--no-strace]
Needs root, strace and valgrind. Prints a markdown table; every process it
starts is stopped by pid.
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

HZ = os.sysconf("SC_CLK_TCK")


def stat_fields(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def faults(pid):
    """(minflt, cminflt) of pid: its own, and its reaped children's."""
    f = stat_fields(pid)
    return int(f[7]), int(f[8])


def split_ticks(root, zyg):
    """(the monitor's own, its reaped children's, the zygote's) CPU ticks."""
    f = stat_fields(root)
    z = stat_fields(zyg) if zyg else None
    return (int(f[11]) + int(f[12]), int(f[13]) + int(f[14]),
            int(z[11]) + int(z[12]) if z else 0)


def zygote_of(gw_pid):
    for p in bench.tree(gw_pid)[1:]:
        try:
            if open(f"/proc/{p}/comm").read().strip() == "cg-zygote":
                return p
        except OSError:
            pass
    return None


class Target:
    """A gateway (or the bare relay) in front of pm_sock, with a container
    its project owns for the copies."""

    def __init__(self, args, tmp, pm_sock, wrap=()):
        self.args, self.tmp, self.pm_sock = args, tmp, pm_sock
        self.proc = None
        if args.target == "relay":
            self.sock = os.path.join(tmp, "relay.sock")
            self.proc = subprocess.Popen([*wrap, bench.RAWRELAY, self.sock, pm_sock],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        else:
            rundir = os.path.join(tmp, "run")
            os.makedirs(os.path.join(tmp, "proj"), exist_ok=True)
            self.sock = os.path.join(rundir, "docker.sock")
            self.proc = subprocess.Popen(
                [*wrap, args.gateway, "serve", "--project", os.path.join(tmp, "proj"),
                 "--run-dir", rundir, "--podman-socket", pm_sock, "--backend", "podman",
                 "--egress", "off", "--log-level", "warn"],
                stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "gw.log"), "a"),
                env={"PATH": os.environ["PATH"]})
        bench.procs.append((self.proc.pid, "target"))
        bench.wait_for(lambda: bench.ping_ok(self.sock), 120, "the target")
        self.env = dict(PATH=os.environ["PATH"], HOME=os.environ.get("HOME", "/root"),
                        DOCKER_HOST="unix://" + self.sock)
        self.cid = None

    def container(self):
        if self.cid is None:
            self.cid = bench.run(["docker", "run", "-d", "--network", "none",
                                  "localhost/busybox", "sleep", "100000"],
                                 env=self.env, timeout=300).stdout.decode().strip()
        return self.cid

    def stop(self):
        if self.cid:
            bench.run(["docker", "rm", "-f", self.cid], env=dict(self.env,
                      DOCKER_HOST="unix://" + self.pm_sock), check=False)
        bench.stop_pid(self.proc.pid, "target")


def scenario(name, t, args, blob):
    """Run scenario name once against t; returns its units (requests or
    MiB)."""
    if name in ("ka", "newconn"):
        r = bench.loadgen("lat", t.sock, n=args.n, warmup=0, path="/_ping",
                          newconn=name == "newconn")
        if r["errors"]:
            raise RuntimeError(f"{name}: {r['errors']} errors")
        return args.n
    if name == "load":
        bench.run(["docker", "load", "-q", "-i", blob], env=t.env, timeout=600,
                  check=False)
        return args.mib
    cid = t.container()
    if name == "cpin":
        bench.run(["docker", "cp", blob, f"{cid}:/tmp/blob"], env=t.env, timeout=600)
    else:
        d = os.path.join(t.tmp, "out")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        bench.run(["docker", "cp", f"{cid}:/tmp/blob", d], env=t.env, timeout=600)
        shutil.rmtree(d, ignore_errors=True)
    return args.mib


def warm(name, t, args, blob):
    """Whatever the scenario needs first, untraced: a connection's parser
    spawned, the container and its file in place."""
    bench.loadgen("lat", t.sock, n=20, warmup=0, path="/_ping")
    if name == "load":
        bench.run(["docker", "load", "-q", "-i", blob], env=t.env, timeout=600,
                  check=False)
    if name in ("cpin", "cpout"):
        cid = t.container()
        bench.run(["docker", "cp", blob, f"{cid}:/tmp/blob"], env=t.env, timeout=600)


SYSCALL = re.compile(r"^([a-z_0-9]+)\(")


def started(name, args, tmp, pm_sock, blob):
    """A target warmed for the scenario: (target, its root pid, its zygote's pid or None)."""
    t = Target(args, tmp, pm_sock)
    try:
        warm(name, t, args, blob)
    except BaseException:
        t.stop()
        raise
    time.sleep(0.3)
    root = t.proc.pid
    return t, root, zygote_of(root) if args.target == "gateway" else None


def strace_counts(name, args, tmp, pm_sock, blob):
    t, root, zyg = started(name, args, tmp, pm_sock, blob)
    try:
        out = os.path.join(tmp, "st")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        cmd = ["strace", "-qq", "-ff", "-o", os.path.join(out, "t")]
        for p in bench.tree(root):
            cmd += ["-p", str(p)]
        st = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        units = scenario(name, t, args, blob)
        time.sleep(0.5)
        st.send_signal(2)
        st.wait(timeout=60)
    finally:
        t.stop()
    per = {"monitor": collections.Counter(), "zygote": collections.Counter(),
           "parsers": collections.Counter()}
    if args.target == "relay":
        per = {"relay": collections.Counter(), "connections": collections.Counter()}
    for f in glob.glob(os.path.join(out, "t.*")):
        pid = int(f.rsplit(".", 1)[1])
        if args.target == "relay":
            cls = "relay" if pid == root else "connections"
        else:
            cls = "monitor" if pid == root else "zygote" if pid == zyg else "parsers"
        for line in open(f, errors="replace"):
            m = SYSCALL.match(line)
            if m:
                per[cls][m.group(1)] += 1
    return units, per


def perf_profile(name, args, tmp, pm_sock, blob):
    """perf record (cpu-clock samples, which need no hardware counter) of the
    whole tree during one run, processes forked meanwhile included; the report
    by process and function goes to PREFIX.<scenario>.txt."""
    t = Target(args, tmp, pm_sock)
    data = f"{args.perf}.{name}.data"
    try:
        warm(name, t, args, blob)
        time.sleep(0.3)
        pids = ",".join(str(p) for p in bench.tree(t.proc.pid))
        ev = ["-e", args.perf_event] + (["-F", "4000"] if args.perf_event == "cpu-clock"
                                          else ["-c", "1"])
        pr = subprocess.Popen(["perf", "record", "-q"] + ev + ["-g", "-o", data, "-p", pids],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        units = scenario(name, t, args, blob)
        time.sleep(0.3)
        pr.send_signal(2)
        pr.wait(timeout=120)
    finally:
        t.stop()
    rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "--stdio",
                          "-g", "none", "--sort", "comm,dso,sym", "--percent-limit", "0.5"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    with open(f"{args.perf}.{name}.txt", "wb") as f:
        f.write(rep.stdout)
    return units


def callgrind_ir(name, args, tmp, pm_sock, blob):
    """The monitor's instructions for one run of the scenario (the relay's:
    its own and its connection processes', which valgrind follows across
    fork)."""
    out = os.path.join(tmp, "cg.out")
    wrap = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out + ".%p"]
    for f in glob.glob(out + ".*"):
        os.unlink(f)
    t = Target(args, tmp, pm_sock, wrap)
    main_pid = t.proc.pid
    try:
        warm(name, t, args, blob)
        time.sleep(1.0)
        bench.run(["callgrind_control", "-z", str(main_pid)], check=False)
        for f in glob.glob(out + ".*"):
            if f != f"{out}.{main_pid}":
                os.unlink(f)      # connections that ended before the zero
        units = scenario(name, t, args, blob)
        time.sleep(0.5)
        bench.run(["callgrind_control", "-d", str(main_pid)], check=False)
        time.sleep(0.5)
    finally:
        t.stop()
    total = 0
    for f in glob.glob(out + ".*"):
        if f == f"{out}.{main_pid}":
            continue    # what came after the dump
        if args.keep_callgrind:
            shutil.copy(f, f"{args.keep_callgrind}.{name}")
        for line in open(f, errors="replace"):
            if line.startswith("summary:") or line.startswith("totals:"):
                total += int(line.split()[1])
                break
    return units, total


def proc_counts(name, args, tmp, pm_sock, blob):
    t, root, zyg = started(name, args, tmp, pm_sock, blob)
    try:
        f0 = faults(root)
        z0 = faults(zyg)[0] if zyg else 0
        c0 = bench.cpu_ticks(root)
        s0 = split_ticks(root, zyg)
        ws = bench.WakeupSampler(root)
        import threading
        done = []

        def sampler():
            while not done:
                ws.sample()
                time.sleep(0.02)
        th = threading.Thread(target=sampler)
        th.start()
        try:
            units = scenario(name, t, args, blob)
        finally:
            done.append(1)
            th.join()
        time.sleep(0.5)
        f1 = faults(root)
        z1 = faults(zyg)[0] if zyg else 0
        c1 = bench.cpu_ticks(root)
        s1 = split_ticks(root, zyg)
    finally:
        t.stop()
    return units, {"parser faults": f1[1] - f0[1], "monitor faults": f1[0] - f0[0],
                   "zygote faults": z1 - z0, "wake-ups": ws.total(),
                   "CPU ms": (c1 - c0) * 1000 / HZ,
                   "CPU ms monitor": (s1[0] - s0[0]) * 1000 / HZ,
                   "CPU ms reaped parsers": (s1[1] - s0[1]) * 1000 / HZ,
                   "CPU ms zygote": (s1[2] - s0[2]) * 1000 / HZ}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gateway", default=bench.GW_BIN)
    ap.add_argument("--target", default="gateway", choices=("gateway", "relay"))
    ap.add_argument("--podman-dir")
    ap.add_argument("--only", default="ka,newconn,cpin,cpout")
    ap.add_argument("--perf", metavar="PREFIX",
                    help="also profile the whole tree with perf record (cpu-clock "
                    "samples): the report goes to PREFIX.<scenario>.txt")
    ap.add_argument("--perf-event", default="cpu-clock",
                    help="the software event --perf samples: cpu-clock, or page-faults "
                    "(every one)")
    ap.add_argument("--keep-callgrind", metavar="PREFIX",
                    help="keep the monitor's callgrind dump as PREFIX.<scenario> "
                    "(callgrind_annotate reads it)")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--mib", type=int, default=64)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--no-strace", action="store_true")
    ap.add_argument("--top", type=int, default=8, help="system calls named per class")
    ap.add_argument("--rounds", type=int, default=1,
                    help="runs of the untraced /proc counts (medians)")
    args = ap.parse_args()
    args.gateway = os.path.realpath(args.gateway)
    if os.geteuid() != 0:
        sys.exit("cost: needs root")
    tmp = tempfile.mkdtemp(prefix="cgc.", dir="/tmp")
    pm_dir = args.podman_dir or os.path.join(tmp, "pm")
    try:
        if not args.podman_dir:
            bench.run(["bash", os.path.join(bench.REPO, "scripts", "podman-up.sh"), pm_dir, "auto"],
                      timeout=300)
        pm_sock = os.path.join(pm_dir, "podman.sock")
        blob = os.path.join(tmp, "blob")
        with open(blob, "wb") as f:
            for _ in range(args.mib):
                f.write(os.urandom(1 << 20))
        print(f"# cost of {args.target} {args.gateway if args.target == 'gateway' else ''}: "
              f"n={args.n}, {args.mib} MiB copies, {time.strftime('%Y-%m-%d %H:%M')}")
        for name in args.only.split(","):
            unit = "MiB" if name in ("cpin", "cpout", "load") else "request"
            row = {}
            if not args.no_strace:
                units, per = strace_counts(name, args, tmp, pm_sock, blob)
                for cls, cnt in per.items():
                    tot = sum(cnt.values())
                    top = ", ".join(f"{k} {v / units:.2f}" for k, v in cnt.most_common(args.top))
                    row[f"syscalls {cls}"] = f"{tot / units:.2f} ({top})"
            if not args.no_callgrind:
                units, ir = callgrind_ir(name, args, tmp, pm_sock, blob)
                row["instructions " + ("monitor" if args.target == "gateway" else "relay")] = \
                    f"{ir / units:,.0f}"
            if args.perf:
                perf_profile(name, args, tmp, pm_sock, blob)
                row["profile"] = f"{args.perf}.{name}.txt"
            runs = [proc_counts(name, args, tmp, pm_sock, blob) for _ in range(args.rounds)]
            for k in runs[0][1]:
                vals = sorted(pc[k] / units for units, pc in runs)
                row[k] = f"{statistics.median(vals):.3f}" + (
                    f" (of {', '.join(f'{v:.3f}' for v in vals)})" if len(vals) > 1 else "")
            print(f"\n## {name}: per {unit}\n")
            for k, v in row.items():
                print(f"* {k}: {v}")
            sys.stdout.flush()
    finally:
        for pid, nm in bench.procs:
            bench.stop_pid(pid, nm)
        if not args.podman_dir:
            bench.run(["bash", os.path.join(bench.REPO, "scripts", "podman-down.sh"), pm_dir],
                      check=False, timeout=300)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
