#!/usr/bin/env python3
"""tests/integration/version_count_proxy.py UPSTREAM PATH LOG: a unix-socket
proxy at PATH in front of the daemon socket UPSTREAM that passes every byte
both ways and appends one line to LOG for each "GET /version " request it
carries (usability.sh u_version_shared: how many times the daemon was asked).
Runs until killed."""
import os
import socket
import sys
import threading

up, path, log = sys.argv[1:4]
try:
    os.unlink(path)
except FileNotFoundError:
    pass
srv = socket.socket(socket.AF_UNIX)
srv.bind(path)
srv.listen(512)
lock = threading.Lock()


def pump(a, b, count):
    tail = b""
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            if count:
                w = tail + d
                n = w.count(b"GET /version ")
                if n:
                    with lock, open(log, "a") as f:
                        f.write("GET /version\n" * n)
                tail = w[-16:]
            b.sendall(d)
    except OSError:
        pass
    try:
        b.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def serve(c):
    u = socket.socket(socket.AF_UNIX)
    try:
        u.connect(up)
    except OSError:
        c.close()
        return
    threading.Thread(target=pump, args=(c, u, True), daemon=True).start()
    pump(u, c, False)


while True:
    conn, _ = srv.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
