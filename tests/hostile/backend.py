"""tests/hostile/backend.py - a backend that records every byte the gateway sends it.

Each connection the monitor opens is recorded whole (every byte, whether or not it
forms a request) and marked closed when the monitor closes it. Two modes:
  * fake: answers like a small podman (the project's resources, another project's,
    unmanaged ones, missing ones; lists; _ping); never answers an upgrade request or
    a target naming "hold" (the rows that need the monitor to wait for a head);
  * relay: passes every connection on to a real backend socket (a private podman)
    and records what went up.
"""
import json
import re
import socket
import threading
import time

KEY = "org.apache.magpie.project"


class Conn:
    def __init__(self):
        self.data = bytearray()
        self.closed = False

    def requests(self):
        """The request lines in the recorded bytes ("METHOD target")."""
        return [m.group(1).decode("latin-1") for m in
                re.finditer(rb"(?:^|\r\n\r\n|\n)((?:GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS)"
                            rb" \S+) HTTP/1\.[01]\r\n", bytes(self.data))]


class Recorder:
    def __init__(self, path, world=None, upstream=None):
        """world: the fake's resources (fake mode); upstream: a real socket path."""
        self.path, self.world, self.upstream = path, world, upstream
        self.lock = threading.Lock()
        self.conns = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        self.sock.listen(128)
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self.sock.close()

    def mark(self):
        with self.lock:
            return len(self.conns)

    def since(self, mark):
        with self.lock:
            return list(self.conns[mark:])

    def settle(self, mark, timeout=5, want=None):
        """Wait until every connection opened since mark is closed and, with want
        (bytes), until one of them holds want; returns them. want is for the rows
        whose request must reach the backend: on a loaded machine the recorder may
        accept the monitor's connection after the row's last report, and an empty
        list counts as settled (make check saw "the backend got -1 body bytes")."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            conns = self.since(mark)
            if all(c.closed for c in conns) and \
                    (want is None or any(want in c.data for c in conns)):
                return conns
            time.sleep(0.02)
        return self.since(mark)

    def _accept(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            rec = Conn()
            with self.lock:
                self.conns.append(rec)
            target = self._relay if self.upstream else self._fake
            threading.Thread(target=target, args=(c, rec), daemon=True).start()

    def _read(self, c, rec):
        try:
            d = c.recv(1 << 16)
        except OSError:
            d = b""
        if d:
            with self.lock:
                rec.data += d
        return d

    # ---- relay mode

    def _relay(self, c, rec):
        up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            up.connect(self.upstream)
        except OSError:
            c.close()
            rec.closed = True
            return

        def down():
            try:
                while True:
                    d = up.recv(1 << 16)
                    if not d:
                        break
                    c.sendall(d)
            except OSError:
                pass
            try:
                c.shutdown(socket.SHUT_WR)
            except OSError:
                pass

        t = threading.Thread(target=down, daemon=True)
        t.start()
        while True:
            d = self._read(c, rec)
            if not d:
                break
            try:
                up.sendall(d)
            except OSError:
                break
        rec.closed = True
        try:
            up.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        t.join(10)
        up.close()
        c.close()

    # ---- fake mode

    def _fake(self, c, rec):
        answered = False
        while True:
            if not answered:
                data = bytes(rec.data)
                end = data.find(b"\r\n\r\n")
                if end >= 0 and self._complete(data, end):
                    answered = True
                    head = data[:end].decode("latin-1").split("\r\n")
                    # upgrades and targets naming "hold" are never answered
                    if "hold" not in head[0] and \
                            not any(h.lower().startswith("upgrade:") for h in head[1:]):
                        try:
                            c.sendall(self._answer(head[0]))
                            c.shutdown(socket.SHUT_WR)
                        except OSError:
                            pass
                        break
            if not self._read(c, rec):
                break
        # the monitor closes its end after the answer (Connection: close)
        try:
            while self._read(c, rec):
                pass
        except OSError:
            pass
        rec.closed = True
        c.close()

    @staticmethod
    def _complete(data, end):
        m = re.search(rb"\r\ncontent-length: *(\d+)", data[:end], re.I)
        if m:
            return len(data) - end - 4 >= int(m.group(1))
        if re.search(rb"\r\ntransfer-encoding: *chunked", data[:end], re.I):
            return data.endswith(b"0\r\n\r\n")
        return True

    def _answer(self, line):
        method, target, _ = line.split(" ", 2)
        status, obj = self.world.answer(method, target.split("?", 1)[0])
        # podman's Server field: the monitor's measured-daemon steps (the
        # base images of a build, monitor/exchange/baseimg.c) run for it
        if status == 204:
            return (b"HTTP/1.1 204 No Content\r\nServer: Libpod/4.3.1 (linux)\r\n"
                    b"Connection: close\r\n\r\n")
        b = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        ctype = "text/plain" if isinstance(obj, bytes) else "application/json"
        reason = {200: "OK", 201: "Created", 404: "Not Found"}.get(status, "Status")
        return ("HTTP/1.1 %d %s\r\nServer: Libpod/4.3.1 (linux)\r\nContent-Type: %s\r\n"
                "Content-Length: %d\r\nConnection: close\r\n\r\n" %
                (status, reason, ctype, len(b))).encode() + b


def export_archive(onbuild):
    """A docker-archive of one image whose config.OnBuild is onbuild (bytes)."""
    import io
    import tarfile
    b = io.BytesIO()
    t = tarfile.open(fileobj=b, mode="w")
    for name, data in (("c0.json", json.dumps({"config": {"OnBuild": onbuild}})),
                       ("manifest.json", json.dumps([{"Config": "c0.json", "Layers": []}]))):
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data.encode()))
    t.close()
    return b.getvalue()


class World:
    """The fake backend's resources: the project's (owned), another project's
    (theirs), unmanaged ones (no label) and the probe container of the honest
    requests; every other ref is missing (404)."""

    def __init__(self, root, other_root):
        self.root, self.other = root, other_root
        h = lambda ch: ch * 64
        self.ids = {"container": {"mine": h("a"), "theirs": h("b"), "unmanaged": h("c"),
                                  "probe": h("d")},
                    "pod": {"mine": h("e"), "theirs": h("f"), "unmanaged": h("1")},
                    "network": {"mine": h("2"), "theirs": h("3"), "unmanaged": h("4")},
                    "image": {"mine": "sha256:" + h("5"), "theirs": "sha256:" + h("6"),
                              "unmanaged": "sha256:" + h("7"),
                              "annotated": "sha256:" + h("0"),
                              "onbuild": "sha256:" + "ab" * 32},
                    "volume": {"mine": "mine", "theirs": "theirs", "unmanaged": "unmanaged"},
                    "exec": {"mine": h("8"), "theirs": h("9")}}

    def labels(self, who):
        return {"mine": {KEY: self.root}, "probe": {KEY: self.root},
                "theirs": {KEY: self.other}}.get(who, {})

    def find(self, kind, ref):
        for who, i in self.ids[kind].items():
            if ref in (who, i) or (len(ref) >= 12 and i.replace("sha256:", "").startswith(ref)):
                return who, i
        return None, None

    def answer(self, method, path):
        p = re.sub(r"^/v[0-9.]+", "", path)
        libpod = p.startswith("/libpod/")
        seg = (p[len("/libpod"):] if libpod else p).strip("/").split("/")
        if seg[-1] == "_ping":
            return 200, b"OK"
        if libpod and seg == ["version"]:
            return 200, {"Version": "4.3.1",
                         "Components": [{"Details": {"BuildTime": "1970-01-01T00:00:00Z"}}]}
        if method in ("GET", "HEAD"):
            if seg == ["volumes"]:
                return 200, {"Volumes": [], "Warnings": []}
            if seg in (["containers", "json"], ["pods", "json"], ["volumes", "json"],
                       ["networks"], ["networks", "json"], ["images", "json"]):
                return 200, []
            kinds = {"containers": "container", "pods": "pod", "volumes": "volume",
                     "networks": "network", "images": "image", "exec": "exec"}
            kind = kinds.get(seg[0])
            inspect = kind is not None and len(seg) >= 2 and (
                seg[-1] == "json" or (not libpod and kind in ("volume", "network")))
            if kind == "image" and len(seg) >= 3 and seg[-1] == "get":
                # an export (monitor/exchange/baseimg.c): a docker-archive whose
                # configuration holds an ONBUILD cache-mount trigger
                who, i = self.find(kind, "/".join(seg[1:-1]))
                if who is None:
                    return 404, {"message": "no such image"}
                return 200, export_archive(["RUN --mount=type=cache,id=../../x,"
                                            "target=/c true"] if who == "onbuild" else [])
            if inspect:
                ref = "/".join(seg[1:-1] if seg[-1] == "json" else seg[1:])
                who, i = self.find(kind, ref)
                if who is None:
                    return 404, {"message": "no such %s" % kind}
                lab = self.labels(who)
                if kind == "exec":
                    return 200, {"ID": i, "ContainerID": self.ids["container"][who]}
                if kind == "volume":
                    return 200, {"Name": i, "Labels": lab}
                if kind == "network":
                    return 200, ({"id": i, "name": who, "labels": lab} if libpod else
                                 {"Id": i, "Name": who, "Labels": lab})
                if kind == "image" and who == "annotated":
                    # loaded or pulled with an annotation podman copies into
                    # every container made from it (monitor/exchange/image.c)
                    return 200, {"Id": i, "Config": {"Labels": lab}, "Annotations":
                                 {"run.oci.keep_original_groups": "1"}}
                if kind in ("container", "image"):
                    return 200, {"Id": i, "Config": {"Labels": lab}}
                return 200, {"Id": i, "Labels": lab}
            return 200, {}
        if seg[-1] in ("start", "stop", "kill", "restart", "pause", "unpause"):
            return 204, None
        return 200, {}
