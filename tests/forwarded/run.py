#!/usr/bin/env python3
"""tests/forwarded/run.py - what reaches the daemon (doc/leniency.md), conformance style.

Starts the real gateway in front of a fake, recording daemon on a unix socket and
checks, per request, the exact target (and body) the daemon receives:

  * query keys outside a route's allow-list (routes.md §4.4 as amended) never reach
    the daemon, whatever the route family and the socket; allowed and policed keys
    do; the child logs the dropped keys at debug level;
  * a JSON body on a `none` route other than start is read and never forwarded
    (http.md §4.1 as amended); on start it is still refused (B20); on attach it is
    the first bytes of the stream after the upgrade;
  * the repeated and legacy body fields of doc/leniency.md are forwarded normalised.

The fake daemon answers the gateway's ownership inspects with objects labelled for
the project (fixed ids below), lists with empty lists in their real shapes (the
monitor post-filters list answers and refuses other shapes) and everything else with
200 {} / 204. Python 3
standard library only; needs no root and no container engine.

  python3 tests/forwarded/run.py [--gateway ./container-gateway] [--verbose]

Prints PASS/FAIL per case and "N passed, M failed" last; exit 1 when any failed.
"""
import argparse
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import http, read_head, stop  # noqa: E402

KEY = "org.apache.magpie.project"
CID = "a1" * 32
NID = "b2" * 32
PID = "c3" * 32
IID = "sha256:" + "d4" * 32
EID = "e5" * 32
RID = "f6" * 32		# a running container (names starting "run")
PRID = "e6" * 32	# a running container in a pod (names starting "runpod")


def stream_then_close(sock_path, target, body, size, timeout=20):
    """POST target asking for a switch; after the 101 head, sends size zero bytes,
    half-closes and reads to the end. Returns (status, what followed the head);
    status 0 when no head came."""
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.settimeout(timeout)
    c.connect(sock_path)
    c.sendall(("POST %s HTTP/1.1\r\nHost: docker\r\nConnection: Upgrade\r\n"
               "Upgrade: tcp\r\nContent-Type: application/json\r\n"
               "Content-Length: %d\r\n\r\n" % (target, len(body))).encode() + body)
    got = read_head(c)
    if got is None:
        c.close()
        return 0, b""
    head, data = got
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
    try:
        c.sendall(bytes(size))
        c.shutdown(socket.SHUT_WR)
        while True:
            d = c.recv(65536)
            if not d:
                break
            data += d
    except OSError:
        pass
    c.close()
    return status, data


def refused_upload(sock_path, method, target, body, chunk):
    """Send body (an upload the checker refuses at its first entry) as fast as the
    socket takes it, in chunks of chunk bytes (0: Content-Length), while another
    thread reads the answer, as Go's net/http does. Returns (answer bytes, the
    OSError of the upload or None)."""
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.settimeout(30)
    c.connect(sock_path)
    got = {"data": b""}

    def reader():
        try:
            while True:
                d = c.recv(65536)
                if not d:
                    return
                got["data"] += d
        except OSError:
            return
    t = threading.Thread(target=reader)
    t.start()
    err = None
    head = "%s %s HTTP/1.1\r\nHost: docker\r\nContent-Type: application/x-tar\r\n" % (
        method, target)
    head += ("Transfer-Encoding: chunked\r\n" if chunk else
             "Content-Length: %d\r\n" % len(body))
    try:
        c.sendall(head.encode() + b"\r\n")
        if not chunk:
            c.sendall(body)
        else:
            for i in range(0, len(body), chunk):
                p = body[i:i + chunk]
                c.sendall(b"%x\r\n" % len(p) + p + b"\r\n")
            c.sendall(b"0\r\n\r\n")
    except OSError as e:
        err = e
    t.join(40)
    c.close()
    return got["data"], err


def refused_tar(first, size):
    """A tar whose first entry is refused by the checker (first: "dev", a device
    node; "link", a symlink to /), then size bytes of a regular file."""
    import io
    import tarfile
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=tarfile.PAX_FORMAT) as t:
        ti = tarfile.TarInfo(first)
        if first == "dev":
            ti.type, ti.devmajor, ti.devminor = tarfile.CHRTYPE, 1, 3
        else:
            ti.type, ti.linkname = tarfile.SYMTYPE, "/"
        t.addfile(ti)
        ti = tarfile.TarInfo("big")
        ti.size = size
        t.addfile(ti, io.BytesIO(bytes(size)))
    return b.getvalue()


class FakeDaemon:
    """A recording HTTP/1.1 daemon on a unix socket, one request per connection."""

    def __init__(self, path, root):
        self.path, self.root = path, root
        self.log = []
        self.count = False	# a switched stream answers its byte count at its end
        self.lock = threading.Lock()
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        self.sock.listen(64)
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.handle, args=(c,), daemon=True).start()

    def reset(self):
        with self.lock:
            self.log = []

    def requests(self):
        with self.lock:
            return list(self.log)

    def handle(self, c):
        try:
            c.settimeout(10)
            got = read_head(c)
            if got is None:
                return
            head, rest = got
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            hdrs = {}
            for ln in lines[1:]:
                k, v = ln.split(":", 1)
                hdrs[k.strip().lower()] = v.strip()
            n = int(hdrs.get("content-length", "0"))
            while len(rest) < n:
                d = c.recv(65536)
                if not d:
                    break
                rest += d
            if hdrs.get("transfer-encoding", "").lower() == "chunked":
                # read to the last chunk, as the daemons read an upload before they
                # answer; a body cut short (a refused upload) gets no answer
                while not rest.endswith(b"0\r\n\r\n"):
                    d = c.recv(65536)
                    if not d:
                        return
                    rest += d
            with self.lock:
                self.log.append((method, target, rest[:n]))
            if "upgrade" in hdrs:	# attach / exec start: switch, then echo
                c.sendall(b"HTTP/1.1 101 UPGRADED\r\nContent-Type: application/"
                          b"vnd.docker.raw-stream\r\nConnection: Upgrade\r\n"
                          b"Upgrade: tcp\r\n\r\n" + (b"" if self.count else rest[n:]))
                if self.count:	# like `wc -c`: a slow reader, one answer at the end
                    time.sleep(0.3)
                    got = len(rest[n:])
                    while True:
                        d = c.recv(65536)
                        if not d:
                            break
                        got += len(d)
                    c.sendall(b"%d" % got)
                    return
                while True:
                    d = c.recv(65536)
                    if not d:
                        break
                    c.sendall(d)
                return
            if "repo=slow" in target:	# a commit that takes its time
                time.sleep(1.5)
            status, body = self.answer(method, target.split("?", 1)[0])
            reason = {200: "OK", 204: "No Content", 404: "Not Found"}[status]
            out = "HTTP/1.1 %d %s\r\nConnection: close\r\n" % (status, reason)
            if status != 204:
                out += "Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
            c.sendall(out.encode() + b"\r\n" + (body if status != 204 else b""))
        except OSError:
            pass
        finally:
            c.close()

    def answer(self, method, path):
        labels = {KEY: self.root}
        p = re.sub(r"^/v[0-9.]+", "", path)
        libpod = p.startswith("/libpod/")
        p = p[len("/libpod"):] if libpod else p
        seg = p.strip("/").split("/")
        obj = None
        if method in ("GET", "HEAD"):
            # lists answer in their real shapes (the monitor post-filters them)
            if seg == ["volumes"]:
                obj = {"Volumes": [], "Warnings": []}
            elif seg in (["containers", "json"], ["pods", "json"], ["volumes", "json"]) or \
                    seg == ["networks"] or (libpod and seg == ["networks", "json"]):
                obj = []
            elif seg[0] == "containers" and len(seg) == 3 and seg[2] in ("json", "exists"):
                # the state the monitor reads before a commit, diff or export
                pod = seg[1].startswith("runpod") or seg[1] == PRID
                run = pod or seg[1].startswith("run") or seg[1] == RID
                obj = {"Id": PRID if pod else RID if run else CID,
                       "Config": {"Labels": labels},
                       "State": {"Status": "running" if run else "exited",
                                 "Running": run, "Pid": 42 if run else 0},
                       "Pod": "e5" * 32 if pod else ""}
            elif seg[0] == "exec" and len(seg) == 3 and seg[2] == "json":
                obj = {"ID": seg[1], "ContainerID": CID}
            elif seg[0] == "volumes" and ((not libpod and len(seg) == 2) or
                                          (libpod and len(seg) == 3 and seg[2] == "json")):
                obj = {"Name": seg[1], "Labels": labels}
            elif seg[0] == "networks" and ((not libpod and len(seg) == 2) or
                                           (libpod and len(seg) == 3 and seg[2] == "json")):
                obj = {"id": NID, "labels": labels} if libpod else {"Id": NID, "Labels": labels}
            elif seg[0] == "pods" and len(seg) == 3 and seg[2] == "json":
                obj = {"Id": PID, "Labels": labels}
            elif seg[0] == "images" and len(seg) >= 3 and seg[-1] == "json":
                obj = {"Id": IID, "Labels": labels}
        if obj is not None:
            return 200, json.dumps(obj).encode()
        if method == "POST" and seg[-1] in ("stop", "start", "restart", "kill", "pause",
                                            "unpause", "rename", "resize"):
            return 204, b""
        return 200, b"{}"


# (name, socket, method, target, body or None, expected status,
#  forwarded target or None (nothing but lookups reaches the daemon),
#  forwarded body or None (not checked), dropped keys in the debug log or None)
C = "/v1.41"
L = "/v4.3.1/libpod"
LBL = "filters=%7B%22label%22%3A%5B%22org.apache.magpie.project%3D{ROOT}%22%5D%7D"
CASES = [
    # --- query allow-lists, one or more per family (routes.md §6) ---
    ("dockerode create repeats its options in the query", "docker", "POST",
     "/containers/create?Image=localhost%2Fbusybox&name=x1&Cmd=true"
     "&HostConfig=%7B%22Privileged%22%3Atrue%7D&foo=bar",
     b'{"Image":"localhost/busybox","Cmd":["true"]}', 200,
     "/containers/create?name=x1", None, "Image, Cmd, HostConfig, foo"),
    ("container list drops trunc_cmd", "docker", "GET",
     C + "/containers/json?all=1&trunc_cmd=0", None, 200,
     C + "/containers/json?all=1&" + LBL, None, "trunc_cmd"),
    ("libpod list keeps podman-remote's keys", "podman", "GET",
     L + "/containers/json?all=true&external=false&last=-1&namespace=false&x=1", None, 200,
     L + "/containers/json?all=true&external=false&last=-1&namespace=false&" + LBL, None, "x"),
    ("stop", "docker", "POST", C + "/containers/c1/stop?t=1&foo=1", None, 204,
     C + "/containers/%s/stop?t=1" % CID, None, "foo"),
    ("start never forwards checkpoint-dir", "docker", "POST",
     C + "/containers/c1/start?checkpoint=c&checkpoint-dir=%2Fetc", None, 204,
     C + "/containers/%s/start" % CID, None, "checkpoint, checkpoint-dir"),
    ("kill never forwards all", "podman", "POST", L + "/containers/c1/kill?all=true&signal=TERM",
     None, 204, L + "/containers/%s/kill?signal=TERM" % CID, None, "all"),
    ("remove never forwards depend", "podman", "DELETE",
     L + "/containers/c1?depend=true&force=true", None, 200,
     L + "/containers/%s?force=true" % CID, None, "depend"),
    ("logs", "docker", "GET", C + "/containers/c1/logs?stdout=1&tail=5&bogus=1", None, 200,
     C + "/containers/%s/logs?stdout=1&tail=5" % CID, None, "bogus"),
    ("archive put", "docker", "PUT",
     C + "/containers/c1/archive?path=%2Ftmp&noOverwriteDirNonDir=&copyUIDGID=&evil=1",
     b"", 200, C + "/containers/%s/archive?path=%%2Ftmp&noOverwriteDirNonDir=&copyUIDGID=" % CID,
     None, "evil"),
    ("exec resize", "docker", "POST", C + "/exec/%s/resize?h=4&w=5&x=1" % EID, None, 204,
     C + "/exec/%s/resize?h=4&w=5" % EID, None, "x"),
    ("image list", "docker", "GET", C + "/images/json?all=0&x=1", None, 200,
     C + "/images/json?all=0", None, "x"),
    ("image pull keeps podman-remote's keys", "podman", "POST",
     L + "/images/pull?reference=localhost%2Fbusybox&policy=missing&quiet=false&x=1",
     None, 200, L + "/images/pull?reference=localhost%2Fbusybox&policy=missing&quiet=false",
     None, "x"),
    ("image search never forwards authfile", "podman", "GET",
     L + "/images/search?term=a&authfile=%2Froot%2Fauth.json", None, 200,
     L + "/images/search?term=a", None, "authfile"),
    ("volume create query from dockerode", "docker", "POST", "/volumes/create?Name=v1",
     b'{"Name":"v1"}', 200, "/volumes/create", None, "Name"),
    ("volume remove", "podman", "DELETE", L + "/volumes/v1?force=false&x=1", None, 200,
     L + "/volumes/v1?force=false", None, "x"),
    ("network inspect", "docker", "GET", C + "/networks/n1?verbose=false&x=1", None, 200,
     C + "/networks/%s?verbose=false" % NID, None, "x"),
    ("network prune", "podman", "POST", L + "/networks/prune?x=1", None, 200,
     L + "/networks/prune?" + LBL, None, "x"),
    ("pod stop", "podman", "POST", L + "/pods/p1/stop?t=1&x=1", None, 204,
     L + "/pods/%s/stop?t=1" % PID, None, "x"),
    ("commit", "docker", "POST", C + "/commit?container=c1&repo=r&tag=t&x=1", None, 200,
     C + "/commit?container=%s&repo=r&tag=t&pause=true" % CID, None, "x"),
    ("events", "docker", "GET", C + "/events?since=1&x=1", None, 200,
     C + "/events?since=1&" + LBL, None, "x"),
    # the child writes the non-ASCII bytes as \xNN; the monitor's log quoting doubles "\"
    ("a Unicode look-alike of a policed key is dropped", "docker", "GET",
     C + "/containers/json?filter%C5%BF=%7B%7D", None, 200,
     C + "/containers/json?" + LBL, None, r"filter\\xc5\\xbf"),
    ("build still refuses unknown keys", "docker", "POST", C + "/build?t=x&foo=1",
     b"", 403, None, None, None),
    # --- bodies on routes that take none (http.md §4.1 as amended) ---
    ("a body on stop is read and not forwarded", "docker", "POST",
     "/containers/c1/stop?t=1", b'{"t":1}', 204, "/containers/%s/stop?t=1" % CID, b"", None),
    ("a body on rename is read and not forwarded", "docker", "POST",
     "/containers/c1/rename?name=n2", b'{"name":"other"}', 204,
     "/containers/%s/rename?name=n2" % CID, b"", None),
    ("a body on prune is read and not forwarded", "docker", "POST",
     "/containers/prune", b'{"filters":{}}', 200, "/containers/prune?" + LBL, b"", None),
    ("a body on libpod pod kill is read and not forwarded", "podman", "POST",
     L + "/pods/p1/kill?signal=KILL", b'{"signal":"KILL"}', 204,
     L + "/pods/%s/kill?signal=KILL" % PID, b"", None),
    ("a body on start is still refused (B20)", "docker", "POST",
     "/containers/c1/start", b'{"HostConfig":{"Privileged":true}}', 400, None, None, None),
    # --- repeated and legacy body fields (policy/lenient.c) ---
    ("exec start without dockerode's hijack and stdin", "docker", "POST",
     "/exec/%s/start" % EID, b'{"hijack":true,"stdin":true,"Detach":false,"tty":false}', 204,
     "/exec/%s/start" % EID, b'{"Detach":false,"Tty":false}', None),
    # the create names the image the monitor checked by its id (doc/privsep.md, image pins)
    ("create: the name repeated in the body is dropped", "docker", "POST",
     "/containers/create?name=x2",
     b'{"Image":"localhost/busybox","name":"x2","Volumes":{},"VolumesFrom":[],'
     b'"HostConfig":{"NetworkMode":"none"}}', 200,
     "/containers/create?name=x2",
     ('{"Image":"%s","HostConfig":{"NetworkMode":"none"},"Labels":{"%s":"{ROOT_RAW}"}}'
      % (IID, KEY)).encode(), None),
    ("create: a different name in the body is refused", "docker", "POST",
     "/containers/create?name=x3", b'{"Image":"localhost/busybox","name":"x4"}', 403,
     None, None, None),
    ("commit: options repeated in the body are dropped", "docker", "POST",
     "/commit?repo=r&tag=t&container=c1", b'{"repo":"r","tag":"t","container":"c1"}', 200,
     "/commit?repo=r&tag=t&container=%s&pause=true" % CID, b"{}", None),
    # advisory podman-rootfs-walk: the daemon walks the root file system on the host;
    # diff and export are refused while the container has processes (State from the
    # daemon), else forwarded; a commit is forwarded with pause=true (whatever the
    # client asked), but not of a running container in a pod (names starting "runpod")
    ("commit of a running container: forwarded paused", "docker", "POST",
     C + "/commit?container=run1&repo=r&pause=false", None, 200,
     C + "/commit?container=%s&repo=r&pause=true" % RID, None, None),
    ("libpod commit of a running container: forwarded paused", "podman", "POST",
     L + "/commit?container=run1&repo=r", None, 200,
     L + "/commit?container=%s&repo=r&pause=true" % RID, None, None),
    ("commit of a running container in a pod is refused", "docker", "POST",
     C + "/commit?container=runpod1&repo=r", None, 403, None, None, None),
    ("diff of a running container is refused", "docker", "GET",
     C + "/containers/run1/changes", None, 403, None, None, None),
    ("libpod diff of a running container is refused", "podman", "GET",
     L + "/containers/run1/changes", None, 403, None, None, None),
    ("export of a running container is refused", "docker", "GET",
     C + "/containers/run1/export", None, 403, None, None, None),
    ("diff of an exited container is forwarded", "docker", "GET",
     C + "/containers/c1/changes", None, 200, C + "/containers/%s/changes" % CID, None, None),
    ("export of an exited container is forwarded", "podman", "GET",
     L + "/containers/c1/export", None, 200, L + "/containers/%s/export" % CID, None, None),
    ("libpod commit of an exited container is forwarded", "podman", "POST",
     L + "/commit?container=c1&repo=r", None, 200,
     L + "/commit?container=%s&repo=r&pause=true" % CID,
     None, None),
    # case variants and repeats of the keys the policy reads (red team, podman 4.3.1:
    # Pause=false ran unpaused past the forced pause, Repo= retagged another project's
    # image past the destination check): refused, nothing forwarded
    ("commit with Pause=false is refused", "docker", "POST",
     C + "/commit?container=run1&repo=r&Pause=false", None, 403, None, None, None),
    ("commit with two spellings of pause is refused", "docker", "POST",
     C + "/commit?container=run1&repo=r&pAuse=false&PAUSE=true", None, 403, None, None, None),
    ("commit with Repo= is refused", "docker", "POST",
     C + "/commit?container=c1&Repo=localhost%2Fv&Tag=1", None, 403, None, None, None),
    ("commit with repo twice is refused", "podman", "POST",
     L + "/commit?container=c1&repo=localhost%2Fm&repo=localhost%2Fv", None, 403,
     None, None, None),
    ("a case variant of an allowed key goes in the list's spelling", "docker", "POST",
     C + "/containers/c1/stop?T=1", None, 204, C + "/containers/%s/stop?t=1" % CID,
     None, None),
]

# (name, socket, target, body, parses of the body by the monitor)
PARSES = [
    ("docker run's create on podman", "docker", C + "/containers/create?name=p1",
     b'{"Image":"localhost/busybox","Cmd":["true"],"HostConfig":{"Binds":["{ROOT_RAW}/data:/d"]}}', 1),
    ("volume create", "podman", L + "/volumes/create", b'{"Name":"pv1"}', 1),
]


def walk_cases(socks, C):
    """Advisory podman-rootfs-walk (tool.md): the refusal's words, and a start of a
    container while a commit of it is in flight is refused, then allowed once the
    commit answered. Returns (passed, failed)."""
    passed = failed = 0
    status, resp = http(socks["docker"], "POST", C + "/commit?container=runpod1&repo=r")
    want = (b"container-gateway: host-path: commit: stop the container first: container "
            b"e6e6e6e6e6e6 is running in a pod, whose containers can reach its files while "
            b"podman reads them on the host, paused or not (advisory podman-rootfs-walk)")
    if status == 403 and want in resp:
        passed += 1
        print("PASS commit of a running container in a pod: the refusal says why")
    else:
        failed += 1
        print("FAIL commit of a running container in a pod: the refusal says why: %d %r" % (
            status, resp[:300]))
    got = {}
    t = threading.Thread(target=lambda: got.update(commit=http(
        socks["docker"], "POST", C + "/commit?container=c1&repo=slow")))
    t.start()
    time.sleep(0.5)
    during = http(socks["docker"], "POST", C + "/containers/c1/start")
    t.join()
    after = http(socks["docker"], "POST", C + "/containers/c1/start")
    if during[0] == 403 and b"commit, diff or export of container a1a1a1a1a1a1 may be " \
            b"in flight" in during[1] and got["commit"][0] == 200 and after[0] == 204:
        passed += 1
        print("PASS a start during a commit of the container is refused, then allowed")
    else:
        failed += 1
        print("FAIL a start during a commit of the container is refused, then allowed: "
              "during %d %r, commit %d, after %d %r" % (during[0], during[1][:200],
                                                       got["commit"][0], after[0], after[1][:200]))
    return passed, failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gateway", default=os.path.join(os.path.dirname(__file__),
                                                      "..", "..", "container-gateway"))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    gw_bin = os.path.realpath(args.gateway)
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="cgfw."))
    root = os.path.join(tmp, "proj")
    run = os.path.join(tmp, "run")
    os.makedirs(os.path.join(root, "data"))
    fake = FakeDaemon(os.path.join(tmp, "fake.sock"), root)
    log_path = os.path.join(tmp, "gw.log")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("CONTAINER_GATEWAY_") and k not in ("DOCKER_HOST",)}
    env["XDG_RUNTIME_DIR"] = tmp
    logf = open(log_path, "wb")
    gw = subprocess.Popen([gw_bin, "serve", "--project", root, "--run-dir", run,
                           "--podman-socket", fake.path, "--backend", "podman",
                           "--egress", "off", "--log-level", "debug"],
                          stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT, env=env)
    passed = failed = 0
    try:
        socks = {"docker": os.path.join(run, "docker.sock"),
                 "podman": os.path.join(run, "podman.sock")}
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if all(http(s, "GET", "/_ping")[0] == 200 for s in socks.values()):
                    break
            except OSError:
                pass
            time.sleep(0.05)
        else:
            print("FAIL gateway start: no answer on %s within 10 s" % run)
            return 1
        # amended http.md §4.1: a body before the upgrade is the stream's first bytes
        fake.reset()
        status, resp = http(socks["docker"], "POST", "/containers/c1/attach?stream=1&stdin=1",
                            b'{"stream":true}EARLY', upgrade=True)
        seen = [r for r in fake.requests() if r[0] == "POST"]
        if status == 101 and resp == b'{"stream":true}EARLY' and seen and seen[-1][2] == b"":
            passed += 1
            print("PASS attach: bytes sent before the upgrade are the stream's first bytes")
        else:
            failed += 1
            print("FAIL attach: bytes sent before the upgrade are the stream's first bytes: "
                  "status %d, stream %r, daemon saw %r" % (status, resp, seen))
        # http.md §9.3: the client's half-close reaches the daemon after its last
        # byte, also when that byte waited for a slow daemon (it was lost then: an
        # exec of `wc -c` never ended)
        # a checker refusal's detail quotes entry names: a newline in one never
        # starts a line of the log (cli.md §14.1; red team rt12)
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
            ti = tarfile.TarInfo("x\nFORGED-LINE container-gateway INFO forged")
            ti.type = tarfile.CHRTYPE
            tf.addfile(ti)
        before = os.path.getsize(log_path)
        status, resp = http(socks["docker"], "POST", "/images/load", buf.getvalue(),
                            ctype="application/x-tar")
        time.sleep(0.2)
        with open(log_path, "rb") as f:
            f.seek(before)
            text = f.read().decode("utf-8", "replace")
        if status == 403 and "refused by the checker" in text and \
                not any(l.startswith("FORGED-LINE") for l in text.splitlines()):
            passed += 1
            print("PASS a refused load's entry name with a newline forges no log line")
        else:
            failed += 1
            print("FAIL a refused load's entry name with a newline forges no log line: "
                  "status %d, log %r" % (status, text[-600:]))
        fake.count = True
        status, resp = stream_then_close(socks["docker"], "/exec/%s/start" % EID,
                                         b'{"Detach":false,"Tty":false}', 8 << 20)
        fake.count = False
        if status == 101 and resp == b"%d" % (8 << 20):
            passed += 1
            print("PASS exec start: the client's end follows 8 MiB to a slow daemon")
        else:
            failed += 1
            print("FAIL exec start: the client's end follows 8 MiB to a slow daemon: "
                  "status %d, daemon counted %r" % (status, resp[:100]))
        # privsep.md "One request": an upload the checker refuses at its first entry
        # while the client still sends; the client must read the 403 and its upload
        # must not fail (Go's net/http reports the failed write then, "broken pipe",
        # and never shows the 403). The parser lost its linger when the monitor
        # closed its body pipe in the middle of a chunk (12 in 20 loads of 16 MiB in
        # 1 MiB chunks); each case runs TRIES times.
        TRIES = 6
        for name, sk, method, target, first, code, chunk in (
                ("load, chunked in 1 MiB", "docker", "POST", C + "/images/load?quiet=1",
                 "dev", "devices", 1 << 20),
                ("load, Content-Length", "podman", "POST", L + "/images/load",
                 "dev", "devices", 0),
                ("build context, chunked in 1 MiB", "docker", "POST",
                 C + "/build?dockerfile=Dockerfile", "link", "host-path", 1 << 20),
                ("libpod build context, chunked in 32 KiB", "podman", "POST",
                 L + "/build?dockerfile=Dockerfile", "link", "host-path", 32 << 10),
                ("archive PUT, chunked in 1 MiB", "docker", "PUT",
                 C + "/containers/c1/archive?path=%2Ftmp", "dev", "devices", 1 << 20)):
            body = refused_tar(first, 16 << 20)
            bad = []
            for _ in range(TRIES):
                data, err = refused_upload(socks[sk], method, target, body, chunk)
                if err is not None or not data.startswith(b"HTTP/1.1 403 ") or \
                        ("container-gateway: %s: " % code).encode() not in data:
                    bad.append("upload %s, answer %r" % (err, data[:60]))
            if not bad:
                passed += 1
                print("PASS refused %s (%s socket): the client still sending reads the "
                      "403 %s, %d of %d" % (name, sk, code, TRIES, TRIES))
            else:
                failed += 1
                print("FAIL refused %s (%s socket): %d of %d lost: %s" % (
                    name, sk, len(bad), TRIES, bad[0]))
        # the monitor parses a create's body once, in the replay; the phase reads
        # the replay's tree and the later stages what the phase kept
        # (monitor/exchange/createbody.h; 5 parses before: the phase, the systemd
        # check, the pins and the image pin parsed it again; the pins still do
        # when they rewrite a source, which this gateway, no pinner for an unknown
        # backend, does not). Its debug line at the forward says how often.
        for name, sk, target, body, want in PARSES:
            fake.reset()
            before = os.path.getsize(log_path)
            status, resp = http(socks[sk], "POST", target,
                                body.replace(b"{ROOT_RAW}", root.encode()))
            # the line is written at the forward, before the answer: waited
            # for all the same, up to 5 s
            deadline = time.monotonic() + 5
            while True:
                with open(log_path, "rb") as f:
                    f.seek(before)
                    text = f.read().decode("utf-8", "replace")
                got = re.findall(r"parsed the forwarded JSON body (\d+) time", text)
                if got or time.monotonic() > deadline:
                    break
                time.sleep(0.01)
            if status in (200, 201) and got == [str(want)]:
                passed += 1
                print("PASS %s: its body parsed %d times by the monitor" % (name, want))
            else:
                failed += 1
                print("FAIL %s: status %d, parse counts %r, wanted [%d]" % (
                    name, status, got, want))
        p, f = walk_cases(socks, C)
        passed += p
        failed += f
        for (name, sk, method, target, body, want_status, want_target, want_body,
             want_dropped) in CASES:
            root_enc = root.replace("/", "%2F")
            want_target = want_target.replace("{ROOT}", root_enc) if want_target else None
            if want_body is not None:
                want_body = want_body.replace(b"{ROOT_RAW}", root.encode())
            fake.reset()
            before = os.path.getsize(log_path)
            status, resp = http(socks[sk], method, target, body)
            seen = [r for r in fake.requests() if r[0] == method]
            why = None
            if status != want_status:
                why = "status %d, wanted %d (%s)" % (status, want_status, resp[:200])
            elif want_target is None:
                if any(r[1].split("?")[0] == target.split("?")[0] for r in seen):
                    why = "forwarded, but should not have been"
            elif not seen or seen[-1][1] != want_target:
                why = "daemon saw %s, wanted %s" % (seen[-1][1] if seen else "nothing",
                                                     want_target)
            elif want_body is not None and seen[-1][2] != want_body:
                why = "daemon got body %r, wanted %r" % (seen[-1][2], want_body)
            if why is None and want_dropped is not None:
                time.sleep(0.05)
                with open(log_path, "rb") as f:
                    f.seek(before)
                    text = f.read().decode("utf-8", "replace")
                if ("query keys not forwarded: " + want_dropped) not in text:
                    why = "no debug line naming the dropped keys '%s'" % want_dropped
            if why is None:
                passed += 1
                print("PASS " + name)
            else:
                failed += 1
                print("FAIL %s: %s" % (name, why))
                if args.verbose:
                    for r in fake.requests():
                        print("    daemon: %s %s %r" % r)
    finally:
        stop(gw)
        logf.close()
        if failed and args.verbose:
            with open(log_path, "rb") as f:
                sys.stdout.write(f.read().decode("utf-8", "replace")[-4000:])
        fake.sock.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
