"""tests/hostile/ipc.py - the test's own IPC codec and the puppet's remote control.

The encoder is the test's, not the gateway's (ipc/codec.c): it must write what the
real encoder refuses (a 33rd header, a NUL in a string, a wrong length, an unknown
type), so it follows the wire format of privsep.md §6 and the catalogue of
doc/privsep.md (protocol v2) independently. Native byte order is little-endian on
every machine the gateway is built for (x86_64, aarch64).
"""
import socket
import struct
import time

MAGIC = 0x43475031
TYPES = ["CHILD_READY", "SANDBOX_FAILED", "CONN_START", "LOG", "BYE", "ACCESS",
         "FACT_QUERY", "FACT_ANSWER", "PATH_QUERY", "PATH_ANSWER", "FORWARD", "BODY",
         "BODY_END", "VERDICT", "RESPONSE_END", "CLIENT_DATA", "DONE", "ZYGOTE_SPAWN",
         "ZYGOTE_SPAWNED", "REQUEST_BEGIN", "BODY_PIPE", "BODY_SPLICED", "CHECK_START",
         "CHECK_PROGRESS", "CHECK_VERDICT", "CHECK_FLUSH", "CHECK_IMAGE", "CHECK_CONFIG",
         "CHECK_SKIP", "CHECK_SKIP_AT"]
T = {name: i + 1 for i, name in enumerate(TYPES)}
KINDS = ["container", "pod", "volume", "network", "image", "exec", "project-network"]
RESULTS = ["owned", "not-owned", "unreachable", "timeout", "unexpected"]
VERDICTS = ["allowed", "outside", "excluded", "socket", "unresolvable"]


def u8(v):
    return struct.pack("<B", v)


def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v)


def u64(v):
    return struct.pack("<Q", v)


def i32(v):
    return struct.pack("<i", v)


def s(v):
    """A str or bytes field: u32 length, the bytes."""
    b = v.encode() if isinstance(v, str) else v
    return u32(len(b)) + b


def dgram(typ, req, payload=b"", magic=MAGIC, flags=0, length=None):
    """One datagram: the 16-byte header (length: override the payload length)."""
    t = T[typ] if isinstance(typ, str) else typ
    n = len(payload) if length is None else length
    return struct.pack("<IHHII", magic, t, flags, req, n) + payload


# --- the messages a child sends (fields in catalogue order) ---

def forward(req, method, target, headers=()):
    return dgram("FORWARD", req, s(method) + s(target) + u16(len(headers)) +
                 b"".join(s(n) + s(v) for n, v in headers))


def body(req, data):
    return dgram("BODY", req, s(data))


def client_data(req, data):
    return dgram("CLIENT_DATA", req, s(data))


def body_end(req):
    return dgram("BODY_END", req)


def body_spliced(req, n):
    return dgram("BODY_SPLICED", req, u32(n))


def done(req):
    return dgram("DONE", req)


def log(text, level=2, req=0):
    return dgram("LOG", req, u8(level) + s(text))


def bye(reason=0, req=0):
    return dgram("BYE", req, u8(reason))


def access(req, method, path, code, status, detail="", duration=1):
    return dgram("ACCESS", req, s(method) + s(path) + s(code) + u16(status) +
                 u32(duration) + s(detail))


def fact_query(req, qid, kind, ref, api=0, prefix="/v1.41"):
    return dgram("FACT_QUERY", req, u32(qid) + u8(KINDS.index(kind)) + u8(api) +
                 s(prefix) + s(ref))


def path_query(req, qid, path):
    return dgram("PATH_QUERY", req, u32(qid) + s(path))


def child_ready(pid, namespaces=0, chroot=1):
    return dgram("CHILD_READY", 0, u32(pid) + u8(namespaces) + u8(chroot))


# --- what the monitor sends ---

class Reader:
    def __init__(self, b):
        self.b, self.i = b, 0

    def take(self, fmt):
        v = struct.unpack_from(fmt, self.b, self.i)[0]
        self.i += struct.calcsize(fmt)
        return v

    def str(self):
        n = self.take("<I")
        v = self.b[self.i:self.i + n]
        self.i += n
        return v.decode("utf-8", "replace")


def decode(d):
    """(type name, req, fields) of a datagram from the monitor."""
    magic, typ, _flags, req, n = struct.unpack_from("<IHHII", d)
    if magic != MAGIC or n != len(d) - 16 or not 1 <= typ <= len(TYPES):
        return ("BAD", 0, {"raw": d})
    name, r, f = TYPES[typ - 1], Reader(d[16:]), {}
    if name == "FACT_ANSWER":
        f = {"qid": r.take("<I"), "result": RESULTS[r.take("<B")], "id": r.str()}
    elif name == "PATH_ANSWER":
        f = {"qid": r.take("<I"), "verdict": VERDICTS[r.take("<B")], "resolved": r.str()}
    elif name == "VERDICT":
        f = {"outcome": ["forwarding", "refused"][r.take("<B")], "code": r.str(),
             "status": r.take("<H"), "detail": r.str()}
    elif name == "RESPONSE_END":
        f = {"mode": ["keep-alive", "close"][r.take("<B")]}
    return (name, req, f)


class Gone(Exception):
    """The puppet's connection ended (the monitor killed it, or it exited)."""


class Puppet:
    """The remote control of one hostile child (tests/helpers/hostile_gateway.c)."""

    def __init__(self, sock_path, row):
        self.c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.c.settimeout(10)
        self.c.connect(sock_path)
        self.c.sendall(("LIE %s\n" % row).encode())
        self.buf, self.http, self.eof = b"", b"", False
        kind, hello = self.frame(10)
        if kind != "H":
            raise Gone("no hello from the puppet (got %r)" % kind)
        f = dict(kv.split("=") for kv in hello.decode().split())
        self.conn, self.pid = int(f["conn"]), int(f["pid"])

    def _fill(self, deadline):
        self.c.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            d = self.c.recv(1 << 20)
        except socket.timeout:
            return False
        except OSError:
            d = b""
        if not d:
            self.eof = True
            return False
        self.buf += d
        return True

    def frame(self, timeout):
        """The next answer frame (kind, payload); bytes the monitor wrote to the
        client in between are collected in self.http. Gone at end-of-file,
        None when nothing came in time."""
        deadline = time.monotonic() + timeout
        while True:
            i = self.buf.find(b"\0CGH")
            if i < 0:
                keep = 3 if len(self.buf) >= 3 else len(self.buf)
                self.http += self.buf[:len(self.buf) - keep]
                self.buf = self.buf[len(self.buf) - keep:]
            else:
                self.http += self.buf[:i]
                self.buf = self.buf[i:]
                if len(self.buf) >= 9:
                    n = struct.unpack_from("<I", self.buf, 5)[0]
                    if len(self.buf) >= 9 + n:
                        kind, payload = chr(self.buf[4]), self.buf[9:9 + n]
                        self.buf = self.buf[9 + n:]
                        return kind, payload
            if self.eof:
                self.http += self.buf
                self.buf = b""
                raise Gone("the puppet's connection ended")
            if time.monotonic() >= deadline:
                return None, None
            self._fill(deadline)

    def send(self, d, repeat=1, nfds=0, ack=True):
        """Have the puppet send d (repeat times, with nfds descriptors attached).
        With ack, returns how many went out (the monitor may kill it first: Gone)."""
        try:
            self.c.sendall(b"S" + struct.pack("<BII", nfds, repeat, len(d)) + d)
        except OSError:
            raise Gone("the puppet's connection ended")
        if not ack:
            return None
        kind, p = self.frame(30)
        if kind != "K":
            raise Gone("no acknowledgement (got %r)" % kind)
        return struct.unpack("<I", p[:4])[0]

    def recv(self, timeout=10, wait=True):
        """The next message from the monitor, decoded; None when none came. Without
        wait, only queue the instruction (its report is not read)."""
        try:
            self.c.sendall(b"R" + u32(int(timeout * 1000)))
        except OSError:
            raise Gone("the puppet's connection ended")
        if not wait:
            return None
        kind, p = self.frame(timeout + 10)
        if kind == "M":
            return decode(p)
        if kind == "E":
            raise Gone("the puppet's IPC socket: %s" % p.decode())
        return None

    def expect(self, typ, timeout=10, **want):
        """The next message must be typ with the given fields; returns its fields."""
        m = self.recv(timeout)
        if m is None or m[0] != typ or any(m[2].get(k) != v for k, v in want.items()):
            raise AssertionError("expected %s %s, got %r" % (typ, want or "", m))
        return m[2]

    def pause(self, ms):
        """Have the puppet wait ms before its next instruction."""
        self.c.sendall(b"W" + u32(ms))

    def wait_gone(self, timeout=10):
        """True once the connection ends within timeout (collecting what comes)."""
        deadline = time.monotonic() + timeout
        while not self.eof and time.monotonic() < deadline:
            self._fill(deadline)
        self.http += self.buf
        self.buf = b""
        return self.eof

    def close(self):
        """Hang up (also under a send blocked in another thread)."""
        try:
            self.c.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.c.close()
