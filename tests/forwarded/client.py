"""tests/forwarded/client.py - one HTTP/1.1 request on a unix socket, and stopping a
started process, for the Python test drivers (tests/forwarded/run.py,
tests/hostile/run.py, tests/ops/framing.py). Standard library only."""
import signal
import socket
import subprocess


def stop(proc):
    """SIGTERM to proc (a subprocess.Popen) and wait for it: 10 s, then SIGKILL. Does
    nothing when proc is None or has exited."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def read_head(s, buf=b""):
    """Read from socket s until buf holds a whole HTTP head. Returns (head, rest),
    the bytes before and after the blank line, or None at end-of-file first."""
    while b"\r\n\r\n" not in buf:
        d = s.recv(65536)
        if not d:
            return None
        buf += d
    head, rest = buf.split(b"\r\n\r\n", 1)
    return head, rest


def http(sock_path, method, target, body=None, ctype="application/json", upgrade=False,
         timeout=15):
    """One request on a new connection; returns (status, body bytes), the body
    de-chunked when the answer is chunked. body: bytes or None (a POST or PUT without
    one says Content-Length: 0). With upgrade, asks for a protocol switch and
    half-closes after the request. Reads until the server closes or timeout seconds
    pass without a byte."""
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.settimeout(timeout)
    c.connect(sock_path)
    head = "%s %s HTTP/1.1\r\nHost: docker\r\n" % (method, target)
    head += "Connection: Upgrade\r\nUpgrade: tcp\r\n" if upgrade else "Connection: close\r\n"
    if body is not None:
        head += "Content-Type: %s\r\nContent-Length: %d\r\n" % (ctype, len(body))
    elif method in ("POST", "PUT"):
        head += "Content-Length: 0\r\n"
    c.sendall(head.encode() + b"\r\n" + (body or b""))
    if upgrade:
        c.shutdown(socket.SHUT_WR)
    data = b""
    while True:
        try:
            d = c.recv(65536)
        except socket.timeout:
            break
        if not d:
            break
        data += d
    c.close()
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    head, _, rest = data.partition(b"\r\n\r\n")
    if b"\r\ntransfer-encoding: chunked" not in head.lower():
        return status, rest
    out = b""
    while rest:
        n, _, rest = rest.partition(b"\r\n")
        n = int(n.split(b";")[0], 16)
        out, rest = out + rest[:n], rest[n + 2:]
        if n == 0:
            break
    return status, out
