#!/usr/bin/env python3
"""faultclient.py MODE SOCK ...: the clients of tests/sanitize/faults.sh.

Raw HTTP/1.1 clients whose every request is known, so that the fault table can count
the gateway's access lines exactly. The ones that stop half-way print one line when
they get there and wait for a command on stdin (faults.sh drives them as coprocesses
and causes the fault in between):

  create SOCK NAME            POST /v1.41/containers/create?name=NAME with a JSON body
                              of which only the first half is sent; prints
                              "half PARSER_PID"; then "rest" sends the rest and prints
                              the answer ("answer STATUS MESSAGE" or "closed ERROR"),
                              "exit" leaves without a word (the client gone mid-upload)
  upload SOCK CTR DIR TAR     PUT /v1.41/containers/CTR/archive?path=DIR, the tar file
                              TAR streamed chunked; prints "half BYTES PARSER_PID" after
                              half of it; "exit" leaves
  download SOCK CTR PATH N    GET /v1.41/containers/CTR/archive?path=PATH; prints
                              "read N PARSER_PID" once the head and N body bytes are in;
                              "exit" leaves; "rest" reads to the end and prints
                              "end BYTES complete|truncated"
  hugechunk SOCK CTR          PUT /v1.41/containers/CTR/archive?path=/tmp, chunked, with a
                              chunk size of ffffffffffffff and 256 KiB of it, then leaves
                              (before cli.md §14.3 held, such an upload was forwarded and logged
                              nothing); prints "sent PARSER_PID" before it leaves
  limit SOCK N                N clients one after the other, each a create with a JSON body
                              written whole before reading (as Python's http.client does):
                              prints "saw503 K of N" (K: those that read the 503 and its
                              message, not a reset or a broken pipe)
  keepalive SOCK              GET /v1.41/version on one connection; prints
                              "answered PARSER_PID"; "again" sends the same request on
                              the same connection and prints "answer STATUS" or
                              "closed ERROR"
  exec SOCK CTR               POST /containers/CTR/exec (cat > /dev/null), then its
                              start upgraded to a raw stream; prints "streaming" once
                              4 MiB of stdin went through, then keeps sending zeros
                              until it is killed
  hold SOCK N PATH            N connections, each with POST PATH (a request that is
                              never answered, e.g. a libpod wait); prints "sent";
                              "close" closes one, "exit" leaves
  slowloris SOCK N SECS PATH  N connections from this process sending a head that never
                              ends (one byte more per round), reopened when closed, for
                              SECS seconds; meanwhile GET PATH by curl (other processes,
                              the owner) every 0.2 s. Prints one JSON line: opened, got503,
                              reclaimed, owner_ok, owner_failed, owner_max_ms
A PARSER_PID is the request parser holding the server side of the connection (ss -xp),
or 0 when none is seen.
"""
import json
import os
import re
import select
import socket
import subprocess
import sys
import time


def connect(path):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    return s


def parser_of(s, deadline_s=5):
    """The pid of the cg-conn process holding the peer of socket s (0: none seen)."""
    ino = str(os.fstat(s.fileno()).st_ino)
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        out = subprocess.run(["ss", "-xpn"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) >= 8 and f[7] == ino:
                m = re.search(r'"cg-conn",pid=(\d+)', line)
                if m:
                    return int(m.group(1))
        time.sleep(0.02)
    return 0


def say(*words):
    print(*words, flush=True)


def command():
    return sys.stdin.readline().strip()


def read_answer(s, head_only=False):
    """(status, message, body) of one response on s (message: a gateway or daemon
    error's "message"), or raises OSError/EOFError."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = s.recv(65536)
        if not d:
            raise EOFError("connection closed without an answer" if not buf else
                           "connection closed in the answer's head")
        buf += d
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    clen = None
    for ln in lines[1:]:
        k, _, v = ln.partition(":")
        if k.strip().lower() == "content-length":
            clen = int(v.strip())
    if head_only:
        return status, "", b""
    while clen is not None and len(body) < clen:
        d = s.recv(65536)
        if not d:
            break
        body += d
    msg = ""
    try:
        msg = json.loads(body.decode()).get("message", "")
    except (ValueError, AttributeError):
        msg = body[:200].decode("latin-1")
    return status, msg, body


def mode_create(sock, name):
    body = json.dumps({"Image": "localhost/busybox", "Cmd": ["true"],
                       "HostConfig": {"NetworkMode": "none"}}).encode()
    s = connect(sock)
    s.sendall(b"POST /v1.41/containers/create?name=%s HTTP/1.1\r\nHost: d\r\n"
              b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
              % (name.encode(), len(body)) + body[:len(body) // 2])
    say("half", parser_of(s))
    if command() != "rest":
        os._exit(0)
    try:
        s.sendall(body[len(body) // 2:])
        st, msg, _ = read_answer(s)
        say("answer", st, msg)
    except (OSError, EOFError) as e:
        say("closed", str(e) or type(e).__name__)


def mode_upload(sock, ctr, path, tar):
    data = open(tar, "rb").read()
    half = len(data) // 2
    s = connect(sock)
    s.sendall(b"PUT /v1.41/containers/%s/archive?path=%s HTTP/1.1\r\nHost: d\r\n"
              b"Content-Type: application/x-tar\r\nTransfer-Encoding: chunked\r\n\r\n"
              % (ctr.encode(), path.encode()))
    for i in range(0, half, 65536):
        c = data[i:min(i + 65536, half)]
        s.sendall(b"%x\r\n" % len(c) + c + b"\r\n")
    say("half", half, parser_of(s))
    command()
    os._exit(0)


def mode_download(sock, ctr, path, n):
    s = connect(sock)
    s.sendall(b"GET /v1.41/containers/%s/archive?path=%s HTTP/1.1\r\nHost: d\r\n\r\n"
              % (ctr.encode(), path.encode()))
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += s.recv(65536)
    head, _, body = buf.partition(b"\r\n\r\n")
    got = len(body)
    while got < n:
        d = s.recv(65536)
        if not d:
            break
        got += len(d)
    say("read", got, parser_of(s))
    if command() != "rest":
        os._exit(0)
    # to the end: complete when the framing says so (chunked: the last chunk seen)
    chunked = b"transfer-encoding: chunked" in head.lower()
    tail = body[-16:]
    while True:
        try:
            d = s.recv(1 << 20)
        except OSError:
            d = b""
        if not d:
            break
        got += len(d)
        tail = (tail + d)[-16:]
    m = re.search(rb"content-length: *(\d+)", head.lower())
    complete = tail.endswith(b"0\r\n\r\n") if chunked else (m is not None and got >= int(m.group(1)))
    say("end", got, "complete" if complete else "truncated")


def mode_hugechunk(sock, ctr):
    s = connect(sock)
    s.sendall(b"PUT /v1.41/containers/%s/archive?path=/tmp HTTP/1.1\r\nHost: d\r\n"
              b"Content-Type: application/x-tar\r\nTransfer-Encoding: chunked\r\n\r\n"
              b"ffffffffffffff\r\n" % ctr.encode())
    s.sendall(bytes(256 << 10))
    say("sent", parser_of(s))
    os._exit(0)


def mode_limit(sock, n):
    body = json.dumps({"Image": "localhost/busybox", "Cmd": ["true"]}).encode()
    req = (b"POST /v1.41/containers/create?name=fault-limit HTTP/1.1\r\nHost: d\r\n"
           b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    saw = 0
    for _ in range(n):
        s = connect(sock)
        try:
            s.sendall(req)
            st, msg, _ = read_answer(s)
            if st == 503 and "too-many-connections" in msg:
                saw += 1
        except (OSError, EOFError):
            pass
        s.close()
    say("saw503", saw, "of", n)


def mode_keepalive(sock):
    s = connect(sock)
    req = b"GET /v1.41/version HTTP/1.1\r\nHost: d\r\n\r\n"
    s.sendall(req)
    read_answer(s)
    say("answered", parser_of(s))
    command()
    try:
        s.sendall(req)
        st, _, _ = read_answer(s)
        say("answer", st)
    except (OSError, EOFError) as e:
        say("closed", str(e) or type(e).__name__)


def mode_exec(sock, ctr):
    s = connect(sock)
    body = json.dumps({"AttachStdin": True, "AttachStdout": True, "AttachStderr": True,
                       "Cmd": ["sh", "-c", "cat > /dev/null"]}).encode()
    s.sendall(b"POST /v1.41/containers/%s/exec HTTP/1.1\r\nHost: d\r\n"
              b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
              % (ctr.encode(), len(body)) + body)
    st, msg, answer = read_answer(s)
    if st != 201:
        say("exec-create", st, msg)
        sys.exit(1)
    eid = json.loads(answer)["Id"]
    s.close()
    s = connect(sock)
    start = b'{"Detach":false,"Tty":false}'
    s.sendall(b"POST /v1.41/exec/%s/start HTTP/1.1\r\nHost: d\r\nConnection: Upgrade\r\n"
              b"Upgrade: tcp\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
              % (eid.encode(), len(start)) + start)
    st, _, _ = read_answer(s, head_only=True)
    if st not in (101, 200):
        say("exec-start", st)
        sys.exit(1)
    zeros = bytes(65536)
    sent = 0
    while True:
        s.sendall(zeros)
        sent += len(zeros)
        if sent == 4 << 20:
            say("streaming")


def mode_hold(sock, n, path):
    held = []
    for _ in range(n):
        s = connect(sock)
        s.sendall(b"POST %s HTTP/1.1\r\nHost: d\r\n\r\n" % path.encode())
        held.append(s)
    say("sent")
    while True:
        c = command()
        if c == "close" and held:
            held.pop(0).close()
            say("closed")
        else:
            os._exit(0)


def mode_slowloris(sock, n, secs, path):
    st = {"opened": 0, "got503": 0, "reclaimed": 0, "owner_ok": 0, "owner_failed": 0,
          "owner_max_ms": 0}
    slow = []

    def open_slow():
        s = socket.socket(socket.AF_UNIX)
        s.setblocking(False)
        try:
            s.connect(sock)
        except BlockingIOError:
            pass
        st["opened"] += 1
        try:
            s.send(b"GET /v1.41/containers/json HTTP/1.1\r\nHost: d\r\n")   # never ends
        except OSError:
            pass
        return s

    def gone(s):
        """1 when s was answered (503) or closed (its slot reclaimed)."""
        try:
            d = s.recv(4096)
        except BlockingIOError:
            return 0
        except OSError:
            d = b""
        if d.startswith(b"HTTP/1.1 503"):
            st["got503"] += 1
        else:
            st["reclaimed"] += 1
        return 1

    for _ in range(n):
        slow.append(open_slow())
    end = time.monotonic() + secs
    while time.monotonic() < end:
        for k, s in enumerate(slow):
            r, _, _ = select.select([s], [], [], 0)
            if r and gone(s):
                s.close()
                slow[k] = open_slow()
            else:
                try:
                    s.send(b"X")
                except OSError:
                    pass
        t0 = time.monotonic()
        r = subprocess.run(["curl", "-s", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}",
                            "--unix-socket", sock, "http://d" + path],
                           capture_output=True, text=True)
        dt = int((time.monotonic() - t0) * 1000)
        st["owner_max_ms"] = max(st["owner_max_ms"], dt)
        if r.stdout == "200":
            st["owner_ok"] += 1
        else:
            st["owner_failed"] += 1
        time.sleep(0.2)
    # what was answered meanwhile is counted before the rest closes
    for s in slow:
        r, _, _ = select.select([s], [], [], 0)
        if r:
            gone(s)
        s.close()
    say(json.dumps(st))


def main():
    mode, a = sys.argv[1], sys.argv[2:]
    if mode == "create":
        mode_create(a[0], a[1])
    elif mode == "upload":
        mode_upload(a[0], a[1], a[2], a[3])
    elif mode == "download":
        mode_download(a[0], a[1], a[2], int(a[3]))
    elif mode == "hugechunk":
        mode_hugechunk(a[0], a[1])
    elif mode == "limit":
        mode_limit(a[0], int(a[1]))
    elif mode == "keepalive":
        mode_keepalive(a[0])
    elif mode == "exec":
        mode_exec(a[0], a[1])
    elif mode == "hold":
        mode_hold(a[0], int(a[1]), a[2])
    elif mode == "slowloris":
        mode_slowloris(a[0], int(a[1]), float(a[2]), a[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
