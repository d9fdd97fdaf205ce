#!/usr/bin/env python3
"""tests/hostile/run.py - a compromised request parser against the real monitor (doc/privsep.md
"A compromised child cannot ...").

Starts tests/helpers/hostile_gateway (the gateway itself, whose request parsers turn
into puppets for a client that says "LIE <row>") in front of a backend that records
every byte it gets, and runs every row of the table (tests/hostile/table.py). For each row:
  * the lie is refused: the child is SIGKILLed after a "protocol violation" ERROR line
    naming the lie, or the monitor's answer is the documented refusal;
  * nothing reaches the backend but the inspects the row asked for and the requests
    the row lists; no byte "HOSTILE" ever does;
  * the monitor keeps serving: an honest request on another connection succeeds right
    after, and no descriptor of the monitor is left behind.
Every row must be named in doc/privsep.md ("A compromised child cannot ..."), and the
release binary must not contain the puppet.

  python3 tests/hostile/run.py            every row, fake recording backend (no root)
  python3 tests/hostile/run.py --real     the rows marked real, through a recording relay
                                          to a private podman (scripts/podman-up.sh); the
                                          podman's state must not change (needs root)
  --only NAME...  only these rows;  --list  print the rows (name, expected outcome, doc)

Prints PASS/FAIL per row and "N passed, M failed" last; exit 1 when any failed, 77 when
--real cannot run here.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "forwarded")]
import backend  # noqa: E402
import client  # noqa: E402
import ipc  # noqa: E402
import rows_forward  # noqa: E402,F401  (registers its rows)
import rows_ipc  # noqa: E402,F401
import rows_rtchild  # noqa: E402,F401
from table import ROWS  # noqa: E402

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
KEY = backend.KEY
C, L = "/v1.41", "/v4.3.1/libpod"
MAX_CONNECTIONS = 8     # small, for the rows about the limit (reclaimed-stays)
# A forwarded request whose parser is killed before the answer keeps its backend
# connection until the answer or this deadline (monitor/exchange/drain.c): short, so that each
# row's connections are closed before the next row counts descriptors.
BACKEND_TIMEOUT = 2
# --real: podman 4.3.1 on a loaded 2-core machine took more than 2 s to answer a pod's
# image step (make check: body-pod-volume-foreign got 504 instead of its refusal)
BACKEND_TIMEOUT_REAL = 20
# the log line that ends the start-up's backend identification: its runtime's version
# answered (an advisory or none) or not, or a backend that is neither podman nor dockerd
RUNTIME_KNOWN = (r"advisory runc-dev-mounts applies|no runtime advisory applies|"
                 r"did not identify itself")


def http(sock_path, method, target, body=None, timeout=15):
    """One request (body: a JSON value or None): (status, body bytes)."""
    return client.http(sock_path, method, target,
                       json.dumps(body).encode() if body is not None else None,
                       timeout=timeout)


class LogWatch:
    def __init__(self, path):
        self.path = path

    def text(self):
        with open(self.path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def search(self, rx):
        return re.search(rx, self.text())

    def wait(self, rx, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            m = self.search(rx)
            if m or time.monotonic() >= deadline:
                return m
            time.sleep(0.02)


class Ctx:
    """What the rows see: refs and ids of the backend's world, the canonical bodies,
    the log, the recorder, the honest probe."""

    def __init__(self, root, other, names, ids, whos_missing):
        self.root, self.other = root, other
        self.C, self.L = C, L
        self._names, self._ids, self.missing = names, ids, whos_missing
        self.root_q = urllib.parse.quote(root, safe="")
        self.lbl = "filters=%7B%22label%22%3A%5B%22" + KEY + "%3D" + self.root_q + "%22%5D%7D"
        self.fmt = {"C": C, "L": L, "lbl": self.lbl, "root_q": self.root_q}
        for kind, m in ids.items():
            for who, i in m.items():
                self.fmt["%s_%s" % (kind, who)] = i
                self.fmt["%s_%s_n" % (kind, who)] = names[kind][who]
        self.fmt_re = {k: re.escape(v) for k, v in self.fmt.items()}
        # the canonical build target (the policy adds the label and the network mode)
        # networkmode=none: RUN steps would otherwise join the project's own
        # network, which the policy asks the monitor about (a question)
        self.build_target = C + "/build?networkmode=none&labels=" + urllib.parse.quote(
            json.dumps({KEY: root}, separators=(",", ":")), safe="") + \
            "&nsoptions=%5B%7B%22Name%22%3A%22network%22%2C%22Host%22%3Afalse%7D%5D"

    def name(self, kind, who):
        return self._names[kind].get(who, "%s-missing" % who)

    def id(self, kind, who):
        return self._ids[kind].get(who, "0" * 64)

    def whos(self, kind):
        return [w for w in ("mine", "theirs", "unmanaged") if w in self._names[kind]] + \
            ["missing"]

    @staticmethod
    def inspect_line(kind, api, prefix, ref):
        """The monitor's inspect request line for a FACT_QUERY (monitor/exchange/facts.c); a
        network's is always libpod's on a podman backend (monitor/exchange/netcompat.h)."""
        if kind == "network":
            return "GET /v4.0.0/libpod/networks/%s/json" % ref
        compat = {"container": "/containers/%s/json", "volume": "/volumes/%s",
                  "image": "/images/%s/json", "exec": "/exec/%s/json"}
        path = ("/libpod/%ss/%%s/json" % kind if api == 1 or kind == "pod"
                else compat[kind]) % ref
        return "GET %s%s" % (prefix, path)

    def create_body(self, host="", root=None):
        """A compat create body as the policy writes it; NetworkMode none unless host
        names one (the default network would be the project's own: a question)."""
        if "NetworkMode" not in host:
            host = '"NetworkMode":"none"' + ("," + host if host else "")
        return ('{"Image":"localhost/busybox","Labels":{"%s":"%s"},"HostConfig":{%s}}' %
                (KEY, json.dumps(root or self.root)[1:-1], host)).encode()

    def volume_body(self, name):
        return ('{"Name":"%s","Labels":{"%s":"%s"}}' %
                (name, KEY, json.dumps(self.root)[1:-1])).encode()

    def libpod_body(self, what, volume):
        """The policy's own libpod container or pod create body with a named volume."""
        lab = '"labels":{"%s":"%s"}' % (KEY, json.dumps(self.root)[1:-1])
        vol = '"volumes":[{"Name":"%s","Dest":"/x"}]' % volume
        net = '"netns":{"nsmode":"none"}'	# not the project's network: no question
        if what == "pods":
            return ('{"name":"hostile-pod",%s,%s,%s}' % (net, vol, lab)).encode()
        return ('{"image":"localhost/busybox",%s,%s,%s,"privileged":false,"systemd":"false"}' %
                (net, vol, lab)).encode()

    def honest(self, why="after the row"):
        """An honest request on another connection: owned container inspected."""
        st, b = http(self.sock["podman"], "GET",
                     C + "/containers/%s/json" % self.name("container", "probe"))
        if st != 200 or self.id("container", "probe").encode() not in b:
            raise AssertionError("honest request %s: status %d %r" % (why, st, b[:120]))

    def monitor_rss(self):
        """The monitor's resident memory in bytes."""
        with open("/proc/%d/status" % self.gw_pid) as f:
            return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1)) << 10

    def is_probe(self, line):
        return self.name("container", "probe") in line or \
            self.id("container", "probe") in line


def fake_world(root, other):
    w = backend.World(root, other)
    names = {k: {who: who for who in m} for k, m in w.ids.items()}
    return w, names, w.ids


# ------------------------------------------------------------ the real podman

def real_setup(sock, root, other):
    """Resources on the private podman: the project's, another project's, unmanaged
    ones, the probe. Returns (names, ids)."""
    def call(method, target, body=None):
        st, b = http(sock, method, target, body, timeout=120)
        if st >= 300:
            raise RuntimeError("%s %s: %d %r" % (method, target, st, b[:200]))
        return json.loads(b) if b.strip() else {}

    lab = {"mine": {KEY: root}, "probe": {KEY: root}, "theirs": {KEY: other},
           "unmanaged": {}}
    names = {k: {} for k in ("container", "pod", "volume", "network", "image", "exec")}
    ids = {k: {} for k in names}
    for who in ("mine", "theirs", "unmanaged", "probe"):
        n = "cgh-" + who
        r = call("POST", C + "/containers/create?name=" + n,
                 {"Image": "localhost/busybox", "Cmd": ["true"], "Labels": lab[who],
                  "HostConfig": {"NetworkMode": "none"}})
        names["container"][who], ids["container"][who] = n, r["Id"]
        if who == "probe":
            continue
        call("POST", C + "/volumes/create", {"Name": n, "Labels": lab[who]})
        names["volume"][who] = ids["volume"][who] = n
        r = call("POST", C + "/networks/create", {"Name": n, "Labels": lab[who]})
        names["network"][who], ids["network"][who] = n, r["Id"]
        r = call("POST", L + "/pods/create", {"name": n + "-pod", "labels": lab[who],
                                             "no_infra": True})
        names["pod"][who], ids["pod"][who] = n + "-pod", r["Id"]
        ch = "&changes=" + urllib.parse.quote("LABEL %s=%s" % (KEY, lab[who][KEY])) \
            if lab[who] else ""
        r = call("POST", C + "/commit?container=%s&repo=localhost/%s&tag=1%s" %
                 (ids["container"][who], n, ch), {})
        names["image"][who], ids["image"][who] = "localhost/%s:1" % n, r["Id"]
    return names, ids


def real_state(sock):
    """What must not change: every container (state, labels), volume, network, pod,
    image of the private podman."""
    out = {}
    for what, target, keys in [
            ("containers", L + "/containers/json?all=true", ("Id", "State", "Labels", "Names")),
            ("volumes", L + "/volumes/json", ("Name", "Labels")),
            ("networks", L + "/networks/json", ("id", "labels")),
            ("pods", L + "/pods/json", ("Id", "Status", "Labels")),
            ("images", L + "/images/json?all=true", ("Id", "Labels", "RepoTags"))]:
        st, b = http(sock, "GET", target, timeout=60)
        items = json.loads(b) if st == 200 else b.decode("latin-1")
        out[what] = sorted(json.dumps({k: i.get(k) for k in keys}, sort_keys=True)
                           for i in items) if isinstance(items, list) else items
    return out


# ------------------------------------------------------------ one row

def monitor_fds(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return -1


def run_row(row, x, gw_pid, fd_base, real_sock):
    x.mark = x.rec.mark()
    before = real_state(real_sock) if real_sock else None
    p = None
    try:
        p = ipc.Puppet(x.sock[row.sock], row.name)
        p.asked = []
        try:
            row.fn(p, x)
        except ipc.Gone as e:
            if not row.violation and not row.dies:
                return "the connection ended: %s" % e
    except (AssertionError, ipc.Gone, OSError) as e:
        return str(e) or repr(e)
    who = r"connection %d \(pid %d\)" % (p.conn, p.pid)
    if row.violation:
        m = x.log.wait(r"protocol violation from request parser for %s: (.*)" % who)
        if not m:
            return "no protocol violation logged"
        if not re.search(row.violation, m.group(1)):
            return "violation '%s', wanted /%s/" % (m.group(1), row.violation)
        if not x.log.wait(r"request parser for %s died: SIGKILL" % who):
            return "the child was not killed with SIGKILL"
        if not p.wait_gone():
            return "the client connection stayed open"
    elif row.dies:
        if not x.log.wait(r"request parser for %s died: %s" % (who, row.dies)):
            return "the child did not die of %s" % row.dies
        if not p.wait_gone():
            return "the client connection stayed open"
        m = x.log.search(r"protocol violation from request parser for %s: (.*)" % who)
        if m:
            return "violation '%s' for a row whose child dies by its filter" % m.group(1)
    else:
        p.close()
        if not x.log.wait(r"child-exit conn=%d pid=%d status=0" % (p.conn, p.pid)):
            return "the child did not end when its client left"
        m = x.log.search(r"protocol violation from request parser for %s: (.*)" % who)
        if m:
            return "violation '%s' for a row that must pass" % m.group(1)
    try:
        x.honest()
    except (AssertionError, OSError) as e:
        return str(e)
    # what reached the backend
    allowed = [re.compile(r.format(**x.fmt_re) + "$") for r in row.backend] + \
        [re.compile(re.escape(a) + "$") for a in p.asked]
    for conn in x.rec.settle(x.mark):
        reqs = conn.requests()
        if any(x.is_probe(r) for r in reqs):
            continue
        if not conn.closed:
            return "a backend connection stayed open: %r" % bytes(conn.data[:120])
        if b"HOSTILE" in conn.data:
            return "HOSTILE bytes reached the backend: %r" % bytes(conn.data[:300])
        if conn.data and not reqs:
            return "bytes that are not a request reached the backend: %r" % \
                bytes(conn.data[:120])
        for r in reqs:
            if not any(a.match(r) for a in allowed):
                return "reached the backend: %s" % r
    # no descriptor left behind in the monitor
    deadline = time.monotonic() + 5
    while monitor_fds(gw_pid) != fd_base and time.monotonic() < deadline:
        time.sleep(0.02)
    if monitor_fds(gw_pid) != fd_base:
        return "the monitor holds %d descriptors, %d before" % (monitor_fds(gw_pid), fd_base)
    if real_sock:
        after = real_state(real_sock)
        for k in before:
            if before[k] != after[k]:
                return "the podman's %s changed" % k
    return None


# ------------------------------------------------------------ main

def start_gateway(binary, root, run, backend_sock, log_path, backend_timeout):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("CONTAINER_GATEWAY_") and k != "DOCKER_HOST"}
    env["XDG_RUNTIME_DIR"] = os.path.dirname(run)
    logf = open(log_path, "wb")
    gw = subprocess.Popen([binary, "serve", "--project", root, "--run-dir", run,
                           "--podman-socket", backend_sock, "--backend", "podman",
                           "--egress", "off", "--log-level", "debug",
                           "--max-connections", str(MAX_CONNECTIONS),
                           "--backend-timeout", str(backend_timeout)],
                          stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT,
                          env=env)
    logf.close()
    socks = {"docker": os.path.join(run, "docker.sock"),
             "podman": os.path.join(run, "podman.sock")}
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and gw.poll() is None:
        try:
            if all(http(s_, "GET", "/_ping", timeout=5)[0] == 200 for s_ in socks.values()):
                return gw, socks
        except OSError:
            pass
        time.sleep(0.05)
    return gw, None


def release_has_no_puppet():
    """The release binary knows nothing of the puppet (privsep.md §12)."""
    with open(os.path.join(REPO, "container-gateway"), "rb") as f:
        rel = f.read()
    with open(os.path.join(REPO, "tests/helpers/hostile_gateway"), "rb") as f:
        test = f.read()
    return b"__wrap_child_run" in test and b"__wrap_child_run" not in rel and \
        b"LIE " not in rel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--real", action="store_true")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    rows = [r for r in ROWS if (not args.real or r.real) and
            (not args.only or r.name in args.only)]
    if args.list:
        for r in rows:
            print("%s\t%s\t%s" % (r.name, "violation: " + r.violation if r.violation else
                                  "dies: " + r.dies if r.dies else "answer", r.doc))
        return 0
    if args.real and os.geteuid() != 0:
        print("SKIP hostile --real: needs root (a rootful private podman)")
        return 77
    binary = os.path.join(REPO, "tests/helpers/hostile_gateway")
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="cgh."))
    root, other = os.path.join(tmp, "proj"), os.path.join(tmp, "other-proj")
    os.makedirs(os.path.join(root, "data"))
    log_path = os.path.join(tmp, "gw.log")
    gw = rec = None
    pm_dir = None
    passed = failed = 0
    t0 = time.monotonic()
    try:
        with open(os.path.join(REPO, "doc/privsep.md")) as f:
            doc = f.read()
        unnamed = [r.name for r in ROWS if "`%s`" % r.name not in doc]
        if unnamed:
            print("FAIL doc/privsep.md (\"A compromised child cannot\") names no row %s" %
                  ", ".join(unnamed))
            return 1
        if not release_has_no_puppet():
            print("FAIL the release binary must not contain the puppet, the test binary must")
            return 1
        real_sock = None
        if args.real:
            pm_dir = os.path.join(tmp, "pm")
            r = subprocess.run([os.path.join(REPO, "scripts/podman-up.sh"), pm_dir],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
            if r.returncode != 0:
                print("FAIL podman-up: %s" % r.stdout.decode()[-2000:])
                return 1
            real_sock = os.path.join(pm_dir, "podman.sock")
            names, ids = real_setup(real_sock, root, other)
            rec = backend.Recorder(os.path.join(tmp, "rec.sock"), upstream=real_sock)
        else:
            world, names, ids = fake_world(root, other)
            rec = backend.Recorder(os.path.join(tmp, "rec.sock"), world=world)
        x = Ctx(root, other, names, ids, None)
        x.max_connections = MAX_CONNECTIONS
        x.rec, x.log = rec, LogWatch(log_path)
        gw, x.sock = start_gateway(binary, root, os.path.join(tmp, "run"), rec.path,
                                   log_path, BACKEND_TIMEOUT_REAL if args.real
                                   else BACKEND_TIMEOUT)
        x.gw_pid = gw.pid
        if x.sock is None:
            print("FAIL gateway start:\n" + x.log.text()[-3000:])
            return 1
        x.honest("at start")
        # a podman's runtime version is asked after start-up (ops/discover.c), on
        # a connection of its own: counted only once it is answered or given up
        if not x.log.wait(RUNTIME_KNOWN, timeout=BACKEND_TIMEOUT_REAL + 8):
            print("FAIL gateway start: no backend-version verdict in the log:\n" +
                  x.log.text()[-3000:])
            return 1
        deadline = time.monotonic() + 5
        fd_base = -2
        while time.monotonic() < deadline:   # steady: the same count twice, 100 ms apart
            a = monitor_fds(gw.pid)
            time.sleep(0.1)
            if a == monitor_fds(gw.pid):
                fd_base = a
                break
        for r in rows:
            t1 = time.monotonic()
            why = run_row(r, x, gw.pid, fd_base, real_sock)
            ms = int((time.monotonic() - t1) * 1000)
            if why is None:
                passed += 1
                print("PASS %s (%d ms)" % (r.name, ms))
            else:
                failed += 1
                print("FAIL %s: %s" % (r.name, why))
            if gw.poll() is not None:
                print("FAIL the monitor exited (status %s)" % gw.returncode)
                failed += 1
                break
    finally:
        client.stop(gw)
        if rec is not None:
            rec.close()
        if pm_dir is not None:
            subprocess.run([os.path.join(REPO, "scripts/podman-down.sh"), pm_dir],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
        if failed or args.keep:
            print("# gateway log kept: %s" % log_path)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("# %d rows in %.1f s" % (passed + failed, time.monotonic() - t0))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
