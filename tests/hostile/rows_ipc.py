"""tests/hostile/rows_ipc.py - lies in ACCESS, LOG, questions, request numbers,
datagrams and descriptors; floods (the table: tests/hostile/table.py)."""
import socket
import subprocess
import threading
import time

import ipc
from ipc import (access, body, body_end, bye, child_ready, dgram, done, fact_query,
                 forward, log, path_query, s, u8, u16, u32)
from table import JSON, archive, ask, owned, row


# ------------------------------------------------------------ ACCESS

@row("access-code-status", violation="ACCESS code and status disagree")
def _(p, x):
    """ACCESS whose status is not its code's (denied-endpoint with 200)"""
    p.send(access(1, "GET", "/v1.41/_ping", "denied-endpoint", 200, "HOSTILE"))


@row("access-unknown-code", violation="ACCESS code and status disagree")
def _(p, x):
    """ACCESS with a reason code outside the closed vocabulary"""
    p.send(access(1, "GET", "/v1.41/_ping", "HOSTILE", 403, "HOSTILE"))


@row("access-method", violation="ACCESS method is not a method")
def _(p, x):
    """ACCESS with a method that is not 1-16 upper-case letters"""
    p.send(access(1, "GET /x HTTP/1.1", "/v1.41/_ping", "denied-endpoint", 403, "x"))


@row("access-path-newline", violation="ACCESS path is not a request path")
def _(p, x):
    """ACCESS refusal whose path carries newlines and a whole fake report section (a
    "Created" row binding /:/host): no honest parser reports such a path, and
    `container-gateway audit` would have printed it raw (red-team rt10 F4)"""
    p.send(access(1, "POST", "/v1.41/containers/create\n\nCreated (forwarded)\n"
                  "  2026-12-07T12:01:28.471Z container pwn deadbeef0000 localhost/busybox"
                  " - /:/host\n", "sysctls", 403))


@row("access-path-escape", violation="ACCESS path is not a request path")
def _(p, x):
    """ACCESS refusal whose path carries a terminal escape sequence (ESC [ 2 J)"""
    p.send(access(1, "GET", "/v1.41/_ping\x1b[2J", "denied-endpoint", 403))


@row("access-after-forward", violation="ACCESS not allowed now")
def _(p, x):
    """ACCESS in the middle of a JSON body"""
    p.send(forward(1, "POST", x.C + "/containers/create", [JSON, ("Content-Length", "20")]))
    p.send(access(1, "POST", "/containers/create", "denied-endpoint", 403, "x"))


@row("access-forged-then-request", violation=r"request 2 after the connection's end",
     real=True)
def _(p, x):
    """(can) an ACCESS line about a foreign path with a forged detail, duration and a
    newline: logged for this connection, escaped; after it the connection is over"""
    p.send(access(1, "DELETE", "/v1.41/containers/%s" % x.id("container", "theirs"),
                  "denied-endpoint", 403, "HOSTILE\nERROR forged line", duration=999999))
    if not x.log.wait(r"access conn=%d socket=podman method=DELETE "
                      r"path=/v1\.41/containers/\S+ decision=deny code=denied-endpoint "
                      r"status=403 duration_ms=999999 "
                      r'detail="HOSTILE\\x0aERROR forged line" outcome=refused '
                      r"forwarded=no by=request-parser" % p.conn):
        raise AssertionError("no record of the ACCESS, by the request parser, "
                             "not forwarded")
    p.send(forward(2, "GET", x.C + "/_ping"))


# ------------------------------------------------------------ LOG

@row("log-flood", violation="more than 32 LOG lines", real=True)
def _(p, x):
    """a flood of LOG lines (100 000; 32 per request are written)"""
    p.send(log("HOSTILE flood"), repeat=100000, ack=False)


@row("log-level", violation=r"value out of range")
def _(p, x):
    """LOG with a level outside error..debug"""
    p.send(log("HOSTILE", level=4))


@row("log-utf8", violation=r"invalid string")
def _(p, x):
    """LOG whose text is not UTF-8"""
    p.send(log(b"HOSTILE\xff\xfe"))


@row("log-request-number", violation=r"value out of range")
def _(p, x):
    """LOG (a connection-level message) with a request number"""
    p.send(log("HOSTILE", req=7))


@row("log-forged-line")
def _(p, x):
    """(can) LOG text with a newline and a forged line: written once, escaped, at
    DEBUG, as the child's (source=child)"""
    p.send(log("HOSTILE\n2026-12-01T00:00:00.000Z ERROR forged"))
    if not x.log.wait(r'DEBUG child conn=%d source=child '
                      r'text="HOSTILE\\x0a2026-12-01T00:00:00\.000Z ERROR forged"' % p.conn):
        raise AssertionError("no DEBUG line of the child's LOG")
    if x.log.search(r"(?m)^2026-12-01T00:00:00\.000Z ERROR forged"):
        raise AssertionError("the forged line reached the log as a line of its own")


# ------------------------------------------------------------ other message types

@row("child-ready-other-pid", violation="unexpected CHILD_READY")
def _(p, x):
    """CHILD_READY with another pid, once it has a client"""
    p.send(child_ready(1))


@row("sandbox-failed-late", violation="unexpected SANDBOX_FAILED")
def _(p, x):
    """SANDBOX_FAILED once it has a client"""
    p.send(dgram("SANDBOX_FAILED", 0, s("HOSTILE") + ipc.i32(1)))


MONITOR_ONLY = [
    ("FACT_ANSWER", 1, u32(1) + u8(0) + s("a" * 64), 0),
    ("PATH_ANSWER", 1, u32(1) + u8(0) + s("/"), 0),
    ("VERDICT", 1, u8(0) + s("") + u16(0) + s(""), 0),
    ("RESPONSE_END", 1, u8(0), 0),
    ("ZYGOTE_SPAWNED", 0, u32(1) + ipc.i32(0), 0),
    ("CONN_START", 0, b"", 1),
    ("ZYGOTE_SPAWN", 0, u8(0), 1),
    ("BODY_PIPE", 1, b"", 1),
]
for _t, _r, _pl, _fd in MONITOR_ONLY:
    @row("monitor-message-%s" % _t.lower().replace("_", "-"),
         violation="unexpected %s|descriptor missing or not allowed|shorter than its fields"
         % _t)
    def _(p, x, t=_t, r=_r, pl=_pl, fd=_fd):
        """a message only the monitor (or the zygote) sends: FACT_ANSWER, PATH_ANSWER,
        VERDICT, RESPONSE_END, ZYGOTE_SPAWNED, CONN_START, ZYGOTE_SPAWN and BODY_PIPE,
        each with a descriptor where it carries one"""
        p.send(dgram(t, r, pl), nfds=fd)


# ------------------------------------------------------------ facts and paths

FACT_KINDS = [("container", 0, "/v1.41", True), ("pod", 1, "/v4.3.1", True),
              ("volume", 0, "/v1.41", True), ("network", 1, "/v4.3.1", True),
              ("image", 0, "/v1.41", True), ("exec", 0, "/v1.41", False)]
for _k, _api, _pfx, _real in FACT_KINDS:
    @row("fact-foreign-%s" % _k, real=_real)
    def _(p, x, k=_k, api=_api, pfx=_pfx):
        """(refusal) questions about another project's, an unmanaged and a missing
        resource of each kind (container, pod, volume, network, image, exec): the
        same not-owned answer, no id (no existence oracle); the project's own is owned"""
        answers = []
        for q, who in enumerate(x.whos(k), 1):
            a = ask(p, x, k, who, qid=q, api=api, prefix=pfx)
            answers.append((who, a["result"], a["id"]))
        got = set((r, i) for who, r, i in answers if who != "mine")
        if got != {("not-owned", "")}:
            raise AssertionError("foreign, unmanaged and missing answered %s" % answers)
        if answers[0][1] != "owned":
            raise AssertionError("the project's own %s answered %s" % (k, answers[0]))


@row("fact-flood", violation="more than 64 FACT_QUERY")
def _(p, x):
    """65 FACT_QUERY in one request (sent without waiting for the answers)"""
    for q in range(1, 66):
        p.asked.append(x.inspect_line("container", 0, "/v1.41", "missing-%d" % q))
    for q in range(1, 66):
        p.send(fact_query(1, q, "container", "missing-%d" % q), ack=False)


@row("path-flood", violation="more than 64 PATH_QUERY")
def _(p, x):
    """65 PATH_QUERY in one request"""
    p.send(path_query(1, 1, "/etc"), repeat=65, ack=False)


@row("path-outside")
def _(p, x):
    """(refusal) path questions about host paths outside the bind roots, existing or
    not, a directory, a file with a component below it (no existence oracle,
    amendments of 2026-12-07): one "outside" answer with the bind roots, never a
    host path resolved"""
    answers = []
    for q, path in enumerate(["/etc/shadow", "/nonexistent-hostile", "/etc/../etc/shadow",
                              "/proc/1/root/etc/shadow", "/etc/passwd/x", "/etc",
                              "/nonexistent-hostile/x"], 1):
        p.send(path_query(1, q, path))
        a = p.expect("PATH_ANSWER", qid=q)
        answers.append((a["verdict"], a["resolved"]))
    if any(a != answers[0] for a in answers) or answers[0][1] != x.root:
        raise AssertionError("answers %s" % answers)


@row("fact-ref-not-a-segment", violation="ref is not a valid path segment")
def _(p, x):
    """FACT_QUERY whose ref would change the inspect path (../../_ping)"""
    p.send(fact_query(1, 1, "container", "../../_ping"))


@row("fact-ref-crlf", violation="ref is not a valid path segment")
def _(p, x):
    """FACT_QUERY whose ref would split the inspect request (CR LF)"""
    p.send(fact_query(1, 1, "container", "x/json HTTP/1.1\r\nX-Hostile: HOSTILE\r\n\r\n"))


@row("fact-prefix", violation="prefix is not a version prefix")
def _(p, x):
    """FACT_QUERY whose version prefix is not one"""
    p.send(fact_query(1, 1, "container", "mine", prefix="/v1.41/../HOSTILE"))


@row("fact-pod-compat", violation="pod question on the compat API")
def _(p, x):
    """FACT_QUERY about a pod on the compat API"""
    p.send(fact_query(1, 1, "pod", "mine", api=0))


@row("fact-kind", violation="value out of range")
def _(p, x):
    """FACT_QUERY with a kind outside the enumeration"""
    p.send(dgram("FACT_QUERY", 1, u32(1) + u8(7) + u8(0) + s("/v1.41") + s("mine")))


@row("fact-projnet-ref", violation="project-network question about another ref")
def _(p, x):
    """FACT_QUERY about the project's network with a ref other than "default" (the
    one question there is): the monitor would splice it into its inspect"""
    p.send(fact_query(1, 1, "project-network", "theirs"))


@row("fact-during-body", violation="FACT_QUERY not allowed now")
def _(p, x):
    """FACT_QUERY in the middle of a JSON body"""
    p.send(forward(1, "POST", x.C + "/containers/create", [JSON, ("Content-Length", "20")]))
    p.send(fact_query(1, 1, "container", "mine"))


@row("request-number-skip", violation="FACT_QUERY for request 3 while at request 0")
def _(p, x):
    """a request number that skips ahead"""
    p.send(fact_query(3, 1, "container", "mine"))


@row("request-abandoned", violation="request 1 abandoned after its questions")
def _(p, x):
    """a new request after questions, without the FORWARD or ACCESS that ends the first"""
    owned(p, x)
    p.send(fact_query(2, 1, "container", "mine"))


@row("request-after-close", violation="request 2 after the connection's end",
     backend=[r"GET {C}/containers/{container_mine}/json"])
def _(p, x):
    """a second request after a response that closed the connection (Connection: close;
    the monitor shuts the client socket, so the rest is queued ahead)"""
    cid = owned(p, x)
    p.send(forward(1, "GET", x.C + "/containers/%s/json" % cid, [("Connection", "close")]),
           ack=False)
    p.recv(wait=False)     # RESPONSE_END close (a light exchange: no VERDICT)
    p.send(done(1), ack=False)
    p.send(forward(2, "GET", x.C + "/_ping"), ack=False)


@row("bye-request-number", violation="value out of range")
def _(p, x):
    """BYE with a request number"""
    p.send(bye(req=3))


# ------------------------------------------------------------ datagrams and descriptors

DATAGRAMS = [
    ("short", b"CGP1\x04\x00", "message shorter than its fields"),
    ("empty", b"", "message shorter than its fields"),
    ("magic", dgram("LOG", 0, u8(2) + s("HOSTILE"), magic=0x43475032),
     "unknown message type or bad header"),
    ("flags", dgram("LOG", 0, u8(2) + s("HOSTILE"), flags=1),
     "unknown message type or bad header"),
    ("type", dgram(99, 0, b"HOSTILE"), "unknown message type or bad header"),
    ("length", dgram("LOG", 0, u8(2) + s("HOSTILE"), length=3),
     "trailing bytes or length mismatch"),
    ("trailing", dgram("LOG", 0, u8(2) + s("HOSTILE") + b"!"),
     "trailing bytes or length mismatch"),
    ("field-length", dgram("LOG", 0, u8(2) + u32(1000) + b"HOSTILE"),
     "message shorter than its fields"),
    ("oversized", dgram("BODY", 1, s(b"HOSTILE" * 43000)), "truncated"),
]
for _n, _d, _v in DATAGRAMS:
    @row("datagram-%s" % _n, violation=_v, real=_n == "oversized")
    def _(p, x, d=_d):
        """a malformed datagram: shorter than a header, empty, bad magic or flags, an
        unknown type, a header length that is not the payload's, trailing bytes, a
        field longer than the datagram, over 256 KiB"""
        p.send(d)


for _n, _nfds, _d in [("log", 1, log("HOSTILE")), ("forward", 1, None),
                      ("many", 16, log("HOSTILE"))]:
    @row("descriptor-on-%s" % _n, violation="descriptor missing or not allowed|truncated",
         real=_n == "log")
    def _(p, x, nfds=_nfds, d=_d):
        """descriptors (its client socket) attached to a message that carries none: a
        LOG, a FORWARD, sixteen at once"""
        p.send(d or forward(1, "GET", x.C + "/containers/json?" + x.lbl), nfds=nfds)


# ------------------------------------------------------------ a flood the monitor serves

EMPTY_TAR = b"\0" * 1024      # the end marker alone (doc/privsep.md "Builds and archives")


@row("flood-empty-body",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Ftmp"])
def _(p, x):
    """(can) 100 000 empty BODY messages during an upload to an owned container: the
    monitor serves other connections meanwhile (an honest request succeeds during the
    flood) and writes exactly the declared bytes"""
    archive(p, x, 1024)    # an empty tar: what the checker approves
    p.send(body(1, b""), repeat=100000, ack=False)
    x.honest("during the flood")
    kind, ack = p.frame(60)
    if kind != "K":
        raise AssertionError("the flood did not complete")
    # queued ahead: the backend may answer before BODY_END, and a response that
    # ends the connection shuts the client socket (no more reports then)
    p.send(body(1, EMPTY_TAR), ack=False)
    p.send(body_end(1), ack=False)
    p.recv(wait=False)
    p.send(done(1), ack=False)
    sent = [c for c in x.rec.settle(x.mark, want=b"/archive?") if b"/archive?" in c.data]
    if not sent or not bytes(sent[0].data).endswith(b"\r\n\r\n" + EMPTY_TAR):
        raise AssertionError("the backend got %r" % (sent and bytes(sent[0].data)[-40:]))


@row("unread-answers", backend=[r"GET {C}/_ping"])
def _(p, x):
    """(can, bounded) 24 requests of 64 path questions each whose answers it never reads
    (6 MiB of answers): the monitor stops reading a child whose answers wait, so its
    memory stays bounded"""
    rss0 = x.monitor_rss()
    path = x.root + ("/" + "a" * 200) * 19    # missing: resolved as written
    stop = threading.Event()

    def ask_and_never_read():
        try:
            for req in range(1, 25):
                p.send(path_query(req, 1, path), repeat=64, ack=False)
                p.send(forward(req, "GET", x.C + "/_ping"), ack=False)
                # the next request once the monitor sent RESPONSE_END (a light
                # exchange kept alive takes no DONE; before it, FORWARD is a
                # violation); none comes once the monitor stopped reading this child
                sent = "conn=%d dir=to-child type=RESPONSE_END req=%d " % (p.conn, req)
                while sent not in x.log.text():
                    if stop.wait(0.05):
                        return
        except ipc.Gone:
            pass    # the row is over: the puppet's instructions stopped here

    t = threading.Thread(target=ask_and_never_read, daemon=True)
    t.start()
    # until every question is out, or the monitor stopped taking them for a second
    rx, last, since, deadline = "conn=%d dir=to-monitor type=PATH_QUERY" % p.conn, -1, 0, \
        time.monotonic() + 20
    while t.is_alive() and time.monotonic() < deadline:
        n = x.log.text().count(rx)
        if n != last:
            last, since = n, time.monotonic()
        elif time.monotonic() - since > 1:
            break
        time.sleep(0.1)
    stop.set()
    x.honest("while answers wait")
    grown = x.monitor_rss() - rss0
    if grown > 2 << 20:
        raise AssertionError("the monitor grew by %d KiB" % (grown >> 10))


@row("reclaimed-stays", violation=r"still runs \d+ ms after its slot was given to a new client",
     backend=[r"GET /_ping"])
def _(p, x):
    """keep its connection alive after the monitor gave its idle slot to a newcomer at
    --max-connections, by ignoring its client's end-of-file: the reclaimed connection no
    longer counts, so such parsers held any number of connections and processes past the
    limit (found by red-team review); it is killed 2 s after its slot was taken, and at
    most 16 reclaimed connections wait for their parsers to end"""
    p.pause(60000)          # the puppet reads nothing more: it never sees the end
    fill = []
    try:
        # this process takes every other slot: the puppet's is the longest idle
        for _ in range(x.max_connections - 1):
            f = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            f.connect(x.sock["podman"])
            fill.append(f)
        x.log.wait(r"type=CONN_START", timeout=5)
        # a newcomer from another process takes the puppet's slot (accept.c)
        r = subprocess.run(["curl", "-s", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}",
                            "--unix-socket", x.sock["podman"], "http://d/_ping"],
                           capture_output=True, text=True, timeout=20)
        if r.stdout != "200":
            raise AssertionError("the newcomer got %r, not 200" % r.stdout)
        if not x.log.search(r"connection %d \(client pid \d+, %d connections\) idle for "
                            r"\d+ ms gives its slot" % (p.conn, x.max_connections)):
            raise AssertionError("the puppet's slot was not the one given")
    finally:
        for f in fill:
            f.close()
