"""tests/ops/framing.py - the monitor's response framing relay (the splice
relay and the batched backend reads of monitor/exchange/dispatch.c on_backend, monitor/exchange/relay.c).

A fake backend answers GET /version with seeded random framings: chunked (random chunk
sizes around the splice and batch limits, chunk extensions, upper-case and zero-padded
sizes, trailers), Content-Length, or read-until-close; its writes split at random points
and a little apart in time; in a quarter of the length and chunked answers junk follows
the end (in the same write as the last bytes: junk the backend sends later cannot be
told from a next answer by anyone) and the backend closes. The real gateway stands in
front of it. One client connection, kept as long as the gateway keeps it (it closes
after a read-until-close answer, announced with Connection: close), checks for every
answer: status 200, its own X-Framing-Seq, the body byte-exact; that nothing past an
answer's end reaches the client (a stray byte would sit before the next answer's status
line, or before the _ping sent after the last one) and that no bytes are left over.

Usage: framing.py GATEWAY PROJECT TMPDIR SEED:N...  (run by tests/ops/framing.sh)
Prints "PASS name" / "FAIL name: why", one check per seed and one for the gateway;
each wrong answer is reported with its seed and index.
"""
import os
import random
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "forwarded"))
from client import read_head, stop  # noqa: E402

SIZES = [1, 2, 3, 5, 9, 15, 16, 17, 63, 64, 65, 100, 1000, 4095, 4096, 16383, 16384,
         16385, 32768, 40000, 65535, 65536, 100000, 262143, 262144, 262145, 300000]
JUNK = [b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nEVIL!", b"JUNKJUNK", b"\r\n"]


def answer(rng, tag):
    """One random answer: (kind, head + framed body, junk, body)."""
    kind = rng.choice(["chunked", "chunked", "chunked", "length", "length", "eof"])
    framed = []
    if kind == "chunked":
        body = []
        for _ in range(rng.randint(0, 10)):
            n = rng.choice(SIZES) if rng.random() < 0.7 else rng.randint(1, 70000)
            data = rng.randbytes(n)
            size = b"%x" % n
            if rng.random() < 0.1:
                size = size.upper()
            if rng.random() < 0.05:
                size = b"0" + size
            ext = b";x=1" if rng.random() < 0.1 else b""
            framed += [size, ext, b"\r\n", data, b"\r\n"]
            body.append(data)
        framed.append(b"0\r\n" + (b"X-T: 1\r\n" if rng.random() < 0.2 else b"") + b"\r\n")
        body = b"".join(body)
        frame = b"Transfer-Encoding: chunked\r\n"
    else:
        n = rng.choice(SIZES + [0]) if rng.random() < 0.7 else rng.randint(0, 1 << 20)
        body = rng.randbytes(n)
        framed.append(body)
        frame = b"Content-Length: %d\r\n" % n if kind == "length" else b"Connection: close\r\n"
    junk = b""
    if kind != "eof" and rng.random() < 0.25:
        junk = rng.choice(JUNK + [rng.randbytes(rng.choice([1, 100, 70000]))])
    head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
            b"X-Framing-Seq: " + tag + b"\r\n" + frame + b"\r\n")
    return kind, head + b"".join(framed), junk, body


class Backend:
    """The fake backend: _ping and the like get a small 200; GET .../version gets the
    answer the client put in self.next (one outstanding request at a time)."""

    def __init__(self, path):
        self.next = None
        self.lock = threading.Lock()
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.bind(path)
        self.sock.listen(64)
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            c, _ = self.sock.accept()
            threading.Thread(target=self.serve, args=(c,), daemon=True).start()

    def serve(self, s):
        buf = b""
        try:
            while True:
                got = read_head(s, buf)
                if got is None:
                    return
                head, buf = got
                method, target = head.split(b"\r\n", 1)[0].split(b" ")[:2]
                if method != b"GET" or not target.endswith(b"/version"):
                    s.sendall(b"HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\n"
                              b"Content-Type: text/plain\r\nContent-Length: 2\r\n\r\nOK")
                    continue
                with self.lock:
                    ans, self.next = self.next, None
                if ans is None:
                    s.sendall(b"HTTP/1.1 500 Internal Server Error\r\n"
                              b"Content-Length: 19\r\n\r\nno answer was ready")
                    continue
                kind, raw, junk, _, split = ans
                self.send_split(s, raw, junk, split)
                if junk or kind == "eof":
                    return
        except OSError:
            return
        finally:
            s.close()

    @staticmethod
    def send_split(s, raw, junk, rng):
        """raw in writes of random sizes, a few of them 5 ms apart; junk with the last."""
        i = 0
        while i < len(raw):
            r = rng.random()
            n = rng.randint(1, 8) if r < 0.1 else rng.randint(1, 3000) if r < 0.4 \
                else rng.randint(1, 400000)
            piece = raw[i:i + n]
            i += n
            s.sendall(piece + junk if i >= len(raw) else piece)
            if rng.random() < 0.05:
                time.sleep(0.005)
        if not raw:
            s.sendall(junk)


class Client:
    """One connection to the gateway, read as HTTP/1.1 answers."""

    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.settimeout(20)
        self.s.connect(path)
        self.buf = b""

    def fill(self):
        d = self.s.recv(1 << 20)
        if not d:
            raise EOFError("end of file")
        self.buf += d

    def line(self):
        while b"\r\n" not in self.buf:
            self.fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def take(self, n):
        while len(self.buf) < n:
            self.fill()
        d, self.buf = self.buf[:n], self.buf[n:]
        return d

    def answer(self):
        """(status line, headers lower-cased, body)."""
        status = self.line()
        if not status.startswith(b"HTTP/1.1 "):
            raise ValueError("status line %r" % status[:60])
        h = {}
        while True:
            line = self.line()
            if not line:
                break
            k, v = line.split(b":", 1)
            h[k.strip().lower().decode()] = v.strip().decode()
        if h.get("transfer-encoding", "").lower() == "chunked":
            body = []
            while True:
                n = int(self.line().split(b";")[0], 16)
                if n == 0:
                    while self.line():
                        pass
                    break
                body.append(self.take(n))
                if self.take(2) != b"\r\n":
                    raise ValueError("chunk without its CRLF")
            return status, h, b"".join(body)
        if "content-length" in h:
            return status, h, self.take(int(h["content-length"]))
        while True:
            try:
                self.fill()
            except EOFError:
                break
        body, self.buf = self.buf, b""
        return status, h, body

    def request(self, target):
        self.s.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: d\r\n\r\n")
        return self.answer()


def run_seed(backend, sock, seed, n):
    """The wrong answers of one seed, as 'seed S index I: why' strings."""
    rng = random.Random(seed)
    bad = []
    c = Client(sock)
    for i in range(n):
        ans = answer(rng, b"%d.%d" % (seed, i))
        kind, body = ans[0], ans[3]
        backend.next = ans + (random.Random(seed * 1000003 + i),)
        where = "seed %d index %d (%s, %d bytes%s)" % (seed, i, kind, len(body),
                                                     ", junk" if ans[2] else "")
        try:
            status, h, got = c.request(b"/v1.41/version")
        except (OSError, ValueError, EOFError) as e:
            bad.append("%s: %r" % (where, e))
            c = Client(sock)
            continue
        if not status.startswith(b"HTTP/1.1 200 "):
            bad.append("%s: %r" % (where, status))
        elif h.get("x-framing-seq") != "%d.%d" % (seed, i):
            bad.append("%s: the answer of %r" % (where, h.get("x-framing-seq")))
        elif got != body:
            k = next((j for j in range(min(len(got), len(body))) if got[j] != body[j]),
                     min(len(got), len(body)))
            bad.append("%s: body of %d bytes, first difference at byte %d" %
                       (where, len(got), k))
        closes = h.get("connection", "").lower() == "close"
        if closes != (kind == "eof"):
            bad.append("%s: Connection: %s" % (where, h.get("connection")))
        if c.buf:
            bad.append("%s: %d bytes past its end: %r" % (where, len(c.buf), c.buf[:40]))
        if closes:
            c = Client(sock)
    try:
        status, h, got = c.request(b"/_ping")
        if not status.startswith(b"HTTP/1.1 200 ") or got != b"OK" or c.buf:
            bad.append("seed %d after the last: _ping %r %r, %d bytes left" %
                       (seed, status, got[:40], len(c.buf)))
    except (OSError, ValueError, EOFError) as e:
        bad.append("seed %d after the last: _ping %r" % (seed, e))
    c.s.close()
    return bad


def main():
    gateway, project, tmp = sys.argv[1:4]
    seeds = [tuple(int(x) for x in a.split(":")) for a in sys.argv[4:]]
    rundir = os.path.join(tmp, "run")
    fake = os.path.join(tmp, "backend.sock")
    backend = Backend(fake)
    sock = os.path.join(rundir, "docker.sock")
    log = open(os.path.join(tmp, "gateway.log"), "wb")
    gw = subprocess.Popen([gateway, "serve", "--project", project, "--run-dir", rundir,
                           "--backend", "podman", "--podman-socket", fake, "--egress", "off"],
                          stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while not os.path.exists(sock) and gw.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        if not os.path.exists(sock):
            print("FAIL the gateway listens: no %s (exit %r)" % (sock, gw.poll()))
            return
        for seed, n in seeds:
            t0 = time.monotonic()
            bad = run_seed(backend, sock, seed, n)
            name = "seed %d, %d answers byte-exact on a kept connection, nothing past an end" \
                   % (seed, n)
            if bad:
                print("FAIL %s: %d wrong; %s" % (name, len(bad), "; ".join(bad[:8])))
            else:
                print("PASS %s (%.1f s)" % (name, time.monotonic() - t0))
        if gw.poll() is None:
            print("PASS the gateway is still running after every seed")
        else:
            print("FAIL the gateway is still running after every seed: exit %r" % gw.returncode)
    finally:
        stop(gw)


if __name__ == "__main__":
    main()
