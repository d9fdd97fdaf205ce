#!/usr/bin/env python3
"""tests/fuzz/make-seeds.py — regenerate the committed seed corpora of the fuzz
targets (doc/reliability.md "Fuzzing") from real CLI traffic and the conformance cases:

    tests/fuzz/make-seeds.py [--shared DIR] [--target T]...
                                (default: ../shared of the repository, every target)

reads DIR/cli-traffic/*.txt (request and response heads and JSON bodies recorded
from the docker and podman CLIs) and DIR/conformance/cases/*.json (requests, raw
requests, JSON bodies), and rewrites tests/fuzz/corpus/<target>/ for every target:

    http    request heads (with their JSON body), raw requests, response heads,
            chunked encodings of JSON bodies           -> fuzz_http
    json    request and response JSON bodies          -> fuzz_json
    ipc     FORWARD/ACCESS/LOG/BODY datagrams of those requests and bodies, made
            by the real encoder (tests/fuzz/seed_ipc)  -> fuzz_ipc
    forward flag byte + the FORWARD an honest child sends for each request the
            policy forwards + its JSON body, kept by tests/fuzz/seed_forward
            only when the monitor accepts it            -> fuzz_forward
    routes  flag byte + "METHOD target" (tests/fuzz/fuzz_input.h) -> fuzz_routes
    query   the query strings                         -> fuzz_query
    build   flag byte + "METHOD target" of build requests, and every query
            string as a build query                   -> fuzz_build

Seeds are cut at 65536 bytes (make fuzz's -max_len) and, when the fuzzers are built
(make fuzzers), merged by coverage: only inputs that add coverage are kept (libFuzzer
-merge=1, named by the SHA-1 of their bytes); --no-merge keeps all. The committed corpus
is what `make fuzz` starts from; a clone without ../shared still has it. Needs
`make tests/fuzz/seed_ipc tests/fuzz/seed_forward`.
"""
import argparse
import base64
import glob
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(REPO, "tests", "fuzz", "corpus")
TARGETS = ("http", "json", "ipc", "routes", "query", "build", "forward")
MAX_LEN = 65536
# tests/fuzz/fuzz_input.h flag bits
FZ_DOCKER, FZ_LIBPOD, FZ_PROXY = 0x01, 0x04, 0x20
FZ_INJECT = 1 << 3
# conformance placeholders, with the values of fuzz_input.h's policy context
PLACEHOLDERS = {
    "LABEL_KEY": "org.apache.magpie.project",
    "LABEL_VALUE": "/home/user/project",
    "PROJECT": "/home/user/project",
    "OUTSIDE": "/etc",
    "EGRESS_HOST": "host.containers.internal",
    "EGRESS_PORT": "8899",
    "BACKEND_DIR": "/run/backend",
}


def subst(text):
    return re.sub(r"\$\{([A-Z_]+)\}", lambda m: PLACEHOLDERS.get(m.group(1), m.group(0)), text)


class Seeds:
    def __init__(self):
        self.sets = {t: {} for t in TARGETS}
        self.requests = []   # (head bytes, body bytes or b"", socket) for ipc, forward

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode()
        data = data[:MAX_LEN]
        if data:
            self.sets[target][hashlib.sha1(data).hexdigest()] = data

    def request(self, method, target, headers, body, socket):
        """One request: its head (+ body), route/query/build inputs."""
        head = "%s %s HTTP/1.1\r\n" % (method, target)
        names = {k.lower() for k, _ in headers}
        if "host" not in names:
            head += "Host: %s\r\n" % socket
        for k, v in headers:
            head += "%s: %s\r\n" % (k, v)
        if body and "content-length" not in names and "transfer-encoding" not in names:
            head += "Content-Length: %d\r\n" % len(body)
        head += "\r\n"
        hb = head.encode("utf-8", "surrogateescape")
        self.add("http", hb + body)
        self.requests.append((hb, body, socket))
        flags = (FZ_DOCKER if socket == "docker" else 0) | FZ_INJECT | FZ_PROXY
        if "/libpod/" in target:
            flags |= FZ_LIBPOD
        line = ("%s %s" % (method, target)).encode("utf-8", "surrogateescape")
        self.add("routes", bytes([flags]) + line)
        if "?" in target:
            query = target.split("?", 1)[1]
            self.add("query", query)
            self.add("build", bytes([flags]) + line)
        if re.search(r"/build(\?|$)", target):
            self.add("build", bytes([flags]) + line)
            self.add("build", bytes([flags & ~FZ_PROXY]) + line)

    def json_body(self, text):
        data = text.encode() if isinstance(text, str) else text
        self.add("json", data)
        try:
            compact = json.dumps(json.loads(data), separators=(",", ":")).encode()
        except ValueError:
            return
        self.add("json", compact)
        # the same body chunked, for the chunked decoder of fuzz_http
        half = len(compact) // 2 or 1
        chunked = b"".join(b"%x\r\n%s\r\n" % (len(p), p)
                           for p in (compact[:half], compact[half:]) if p) + b"0\r\n\r\n"
        self.add("http", chunked)


SECTION = re.compile(r"^## \d+\. \[conn \d+[^\]]*\] (\S+) (\S+) HTTP/1\.1$")
RESPONSE = re.compile(r"^-- response \([^)]*\): (HTTP/1\.1 \d{3}.*)$")


def read_block(lines, i):
    """Header lines from i to the next blank line; returns (headers, next index)."""
    hdrs = []
    while i < len(lines) and lines[i] != "":
        if ":" in lines[i]:
            k, v = lines[i].split(":", 1)
            hdrs.append((k, v.strip()))
        i += 1
    return hdrs, i + 1


def read_body(lines, i):
    """A JSON body after '-- ... body (N bytes):' up to the blank line before '-- ' or '===='."""
    out = []
    while i < len(lines) and not (lines[i] == "" and i + 1 < len(lines) and
                                  (lines[i + 1].startswith("-- ") or lines[i + 1].startswith("===="))):
        out.append(lines[i])
        i += 1
    text = "\n".join(out)
    return (text if text.lstrip()[:1] in ("{", "[") else None), i


def head_and_body(seeds, lines, i, kind):
    """Header lines from i, then the '-- <kind> body' that may follow (a JSON one is
    also a json seed); returns (headers, JSON text or None, next index)."""
    hdrs, i = read_block(lines, i)
    text = None
    if i < len(lines) and lines[i].startswith("-- %s body" % kind):
        text, i = read_body(lines, i + 1)
        if text is not None:
            seeds.json_body(text)
    return hdrs, text, i


def cli_traffic(seeds, path):
    socket = "podman" if os.path.basename(path).startswith("podman") else "docker"
    lines = open(path, encoding="utf-8", errors="surrogateescape").read().split("\n")
    i = 0
    while i < len(lines):
        m = SECTION.match(lines[i])
        if not m:
            i += 1
            continue
        method, target = m.group(1), m.group(2)
        hdrs, text, i = head_and_body(seeds, lines, i + 1, "request")
        body = b""
        if text is not None:
            try:
                body = json.dumps(json.loads(text), separators=(",", ":")).encode()
            except ValueError:
                body = text.encode()
            hdrs = [(k, str(len(body)) if k.lower() == "content-length" else v) for k, v in hdrs]
        seeds.request(method, target, hdrs, body, socket)
        # the response head (and JSON body) that follows
        while i < len(lines) and not lines[i].startswith("-- response (") and not SECTION.match(lines[i]):
            i += 1
        if i < len(lines) and lines[i].startswith("-- response ("):
            status = RESPONSE.match(lines[i])
            rh, text, i = head_and_body(seeds, lines, i + 1, "response")
            if status:
                head = status.group(1) + "\r\n" + "".join("%s: %s\r\n" % kv for kv in rh) + "\r\n"
                seeds.add("http", head.encode("utf-8", "surrogateescape") + (text or "").encode())


def conformance(seeds, path):
    for case in json.load(open(path)):
        socket = case.get("socket", "docker")
        if "raw" in case:
            seeds.add("http", subst(case["raw"]).encode("utf-8", "surrogateescape"))
            continue
        req = case.get("request")
        if not req:
            continue
        body = b""
        hdrs = [(k, subst(v)) for k, v in (req.get("headers") or {}).items()]
        if "json" in req:
            body = subst(json.dumps(req["json"], separators=(",", ":"))).encode()
        elif "json_text" in req:
            body = subst(req["json_text"]).encode()
        elif "body_text" in req:
            body = subst(req["body_text"]).encode()
        elif "body_b64" in req:
            body = base64.b64decode(req["body_b64"])[:4096]
        if body and ("json" in req or "json_text" in req):
            seeds.json_body(body)
            if not req.get("omit_content_type") and not any(k.lower() == "content-type" for k, _ in hdrs):
                hdrs.append(("Content-Type", "application/json"))
        seeds.request(req["method"], subst(req["path"]), hdrs, body, socket)


def tool_seeds(seeds, target, docker_kind):
    """Run tests/fuzz/seed_<target> on every request (records: u32 kind, u32
    length, bytes; kind 0 a head, docker_kind a head that came on docker.sock,
    1 its body) and add what it writes (u32 length + seed) to target."""
    tool = os.path.join(REPO, "tests", "fuzz", "seed_" + target)
    if not os.access(tool, os.X_OK):
        sys.exit("make-seeds: %s is missing (make tests/fuzz/seed_%s)" % (tool, target))
    rec = b""
    for head, body, socket in seeds.requests:
        rec += struct.pack("=II", docker_kind if socket == "docker" else 0, len(head)) + head
        if body:
            rec += struct.pack("=II", 1, len(body)) + body
    out = subprocess.run([tool], input=rec, stdout=subprocess.PIPE, check=True).stdout
    off = 0
    while off < len(out):
        (n,) = struct.unpack_from("=I", out, off)
        seeds.add(target, out[off + 4:off + 4 + n])
        off += 4 + n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(REPO), "shared"))
    ap.add_argument("--no-merge", action="store_true",
                    help="keep every input instead of those that add coverage")
    ap.add_argument("--target", action="append", choices=TARGETS,
                    help="rewrite only this target's corpus (repeatable)")
    a = ap.parse_args()
    traffic = sorted(glob.glob(os.path.join(a.shared, "cli-traffic", "*.txt")))
    cases = sorted(glob.glob(os.path.join(a.shared, "conformance", "cases", "*.json")))
    if not traffic or not cases:
        sys.exit("make-seeds: no cli-traffic or conformance cases under %s" % a.shared)
    seeds = Seeds()
    for p in traffic:
        cli_traffic(seeds, p)
    for p in cases:
        conformance(seeds, p)
    targets = a.target or TARGETS
    for t in ("ipc", "forward"):
        if t in targets:
            tool_seeds(seeds, t, 0 if t == "ipc" else 2)
    with tempfile.TemporaryDirectory() as tmp:
        for t in targets:
            raw = os.path.join(tmp, t)
            os.makedirs(raw)
            for name, data in seeds.sets[t].items():
                with open(os.path.join(raw, name), "wb") as f:
                    f.write(data)
            d = os.path.join(CORPUS, t)
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            fuzzer = os.path.join(REPO, "tests", "fuzz", "fuzz_" + t)
            if a.no_merge or not os.access(fuzzer, os.X_OK):
                for name in os.listdir(raw):
                    shutil.copy(os.path.join(raw, name), d)
                how = "all kept" if a.no_merge else "all kept (no %s to merge with)" % fuzzer
            else:
                # keep the seeds that add coverage (libFuzzer names them by SHA-1)
                subprocess.run([fuzzer, "-merge=1", "-max_len=%d" % MAX_LEN, d, raw],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
                how = "merged by coverage"
            kept = os.listdir(d)
            print("make-seeds: %-7s %4d inputs -> %4d seeds (%s), %d bytes" %
                  (t, len(seeds.sets[t]), len(kept), how,
                   sum(os.path.getsize(os.path.join(d, n)) for n in kept)))


if __name__ == "__main__":
    main()
