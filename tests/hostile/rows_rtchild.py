"""tests/hostile/rows_rtchild.py - red team (compromised child) against the monitor's
textual image pin (monitor/exchange/createbody.c createbody_set_string, backend.c
pin_image), per-request state on a kept-alive connection, and the replay.
With HOSTILE_VERBOSE=1 each row prints what the backend received (RT lines)."""
import json
import os
import re
import sys

from ipc import body, done, forward
from table import JSON, create, owned, row, verdict_forwarding

C = "/v1.41"
IMG_MINE = "sha256:" + "5" * 64
VIOLATION = {'pin-dup-exact': 'ambiguous-field: Image and Image name the same field', 'pin-dup-case': 'ambiguous-field: Image and image name the same field', 'pin-dup-upper': 'ambiguous-field: IMAGE and Image name the same field', 'pin-lower-only': 'ambiguous-field: image is not the canonical spelling of Image', 'pin-escape-key': 'the policy rewrites the forwarded body', 'pin-ws': 'the policy rewrites the forwarded body', 'pin-kelvin': 'unknown-field', 'rt-cl-leading-zero': 'FORWARD headers are not the list the policy forwards', 'rt-cl-plus': 'FORWARD Content-Length is not a JSON body length', 'rt-cl-space': 'FORWARD Content-Length is not a JSON body length', 'rt-cl-twice': 'invalid Content-Length header'}
IMAGE_STEP = [r"GET {C}/images/[^ ]+/json", r"GET /v4\.0\.0/libpod/images/[^ ]+/json"]


def sent_bodies(x, needle=b"/containers/create"):
    out = []
    for c in x.rec.settle(x.mark, want=needle):
        if needle in c.data:
            out.append(bytes(c.data).split(b"\r\n\r\n", 1)[1])
    return out


def show(name, what):
    if not os.environ.get("HOSTILE_VERBOSE"):
        return
    sys.stdout.write("RT %s: %s\n" % (name, what))
    sys.stdout.flush()


def cbody(x, pre="", post="", image='"Image":"mine"'):
    lab = '"Labels":{"%s":"%s"}' % ("org.apache.magpie.project", json.dumps(x.root)[1:-1])
    parts = [p for p in (pre, image, lab, '"HostConfig":{"NetworkMode":"none"}', post) if p]
    return ("{" + ",".join(parts) + "}").encode()


def probe(name, p, x, doc, target=None):
    """FORWARD the create; report the verdict and the forwarded body."""
    create(p, x, doc, target=target)
    m = p.recv(10)
    show(name, "sent %s" % doc.decode("utf-8", "replace"))
    show(name, "monitor: %r" % (m,))
    if m and m[0] == "VERDICT" and m[2]["outcome"] == "forwarding":
        p.expect("RESPONSE_END")
        p.send(done(1))
    for b in sent_bodies(x):
        show(name, "backend got %s" % b.decode("utf-8", "replace"))
        check_pinned(b, "Image")


def check_pinned(b, key):
    """Go's encoding/json reading b: case-insensitive keys, the last duplicate wins;
    the image it uses must be the id the monitor checked (the World's image mine)."""
    last = None
    for k, v in json.loads(b, object_pairs_hook=lambda kv: kv):
        if k.lower() == key.lower():
            last = v
    if last != IMG_MINE:
        raise AssertionError("the daemon would use image %r, not the checked %s" %
                             (last, IMG_MINE))


EXPLORE = [
    ("pin-control", lambda x: cbody(x)),
    ("pin-dup-exact", lambda x: cbody(x, post='"Image":"theirs"')),
    ("pin-dup-case", lambda x: cbody(x, post='"image":"theirs"')),
    ("pin-dup-upper", lambda x: cbody(x, post='"IMAGE":"theirs"')),
    ("pin-lower-only", lambda x: cbody(x, image='"image":"mine"')),
    ("pin-escape-key", lambda x: cbody(x, image='"\\u0049mage":"mine"')),
    ("pin-ws", lambda x: cbody(x, image='"Image" : "mine"')),
    ("pin-string-mimic", lambda x: cbody(x, pre='"Cmd":["\\",\\"Image\\":\\"theirs\\""]')),
    ("pin-key-quote", lambda x: cbody(x, pre='"Env":["a\\\\"]')),
    ("pin-escaped-key-before", lambda x: cbody(x, pre='"Domainname":"x\\"\\\\"')),
    ("pin-number-before", lambda x: cbody(x, pre='"StopTimeout":10')),
    ("pin-bool-before", lambda x: cbody(x, pre='"Tty":true')),
    ("pin-nested-image", lambda x: cbody(x, pre='"Healthcheck":{"Test":["Image"]}')),
    ("pin-kelvin", lambda x: cbody(x, image='"Image":"mine"', post='"\u0130mage":"theirs"')),
]
for _n, _f in EXPLORE:
    @row(_n, violation=VIOLATION.get(_n), backend=[r"POST {C}/containers/create"] + IMAGE_STEP)
    def _(p, x, n=_n, f=_f):
        """explore"""
        from ipc import Gone
        try:
            probe(n, p, x, f(x))
        except Gone as e:
            show(n, "gone: %s" % e)
            show(n, "log: %s" % (x.log.search(r"protocol violation from request parser for "
                                               r"connection %d[^\n]*" % p.conn) or [None])[0])


def libpod_probe(name, p, x, doc, what):
    p.send(forward(1, "POST", x.L + "/%s/create" % what,
                   [JSON, ("Content-Length", str(len(doc)))]))
    p.send(body(1, doc))
    m = p.recv(10)
    show(name, "sent %s" % doc.decode())
    show(name, "monitor: %r" % (m,))
    if m and m[0] == "VERDICT" and m[2]["outcome"] == "forwarding":
        p.expect("RESPONSE_END")
        p.send(done(1))
    for b in sent_bodies(x, b"/%s/create" % what.encode()):
        show(name, "backend got %s" % b.decode("utf-8", "replace"))
        check_pinned(b, "infra_image" if what == "pods" else "image")


LAB = '"labels":{"org.apache.magpie.project":"%s"}'
LIBPOD = [
    ("rt-pin-libpod-mimic", "containers",
     '{"command":["\\",\\"image\\":\\"theirs\\""],"image":"mine","netns":{"nsmode":"none"},%s,"privileged":false,"systemd":"false"}'),
    ("rt-pin-libpod-raw-name", "containers",
     '{"raw_image_name":"theirs","image":"mine","netns":{"nsmode":"none"},%s,"privileged":false,"systemd":"false"}'),
    ("rt-pin-pod-infra", "pods",
     '{"name":"p","infra_name":"\\"infra_image\\":\\"x","infra_image":"mine",'
     '"netns":{"nsmode":"none"},%s}'),
]
for _n, _w, _b in LIBPOD:
    @row(_n, backend=[r"POST {L}/%s/create" % _w] + IMAGE_STEP +
         [r"GET /v4\.0\.0/libpod/version"])
    def _(p, x, n=_n, w=_w, b=_b):
        """explore"""
        from ipc import Gone
        doc = (b % (LAB % json.dumps(x.root)[1:-1])).encode()
        try:
            libpod_probe(n, p, x, doc, w)
        except Gone as e:
            show(n, "gone: %s" % e)
            show(n, "log: %s" % (x.log.search(r"protocol violation from request parser for "
                                               r"connection %d[^\n]*" % p.conn) or [None])[0])


@row("rt-facts-after-refusal", violation="request 2 after the connection's end",
     backend=[r"POST {C}/containers/create"] + IMAGE_STEP)
def _(p, x):
    """request 1 asks its container owned, then its create is refused by the monitor's
    image step (another project's image); after DONE, request 2 starts the container
    without asking: the answer of request 1 must not stand for it"""
    cid = owned(p, x)
    create(p, x, cbody(x, image='"Image":"theirs"'))
    m = p.recv(10)
    show("rt-facts-after-refusal", "create 1: %r" % (m,))
    if m and m[0] == "VERDICT" and m[2]["outcome"] == "forwarding":
        p.expect("RESPONSE_END")
    p.send(done(1))
    m = p.recv(3)
    show("rt-facts-after-refusal", "after DONE: %r" % (m,))
    p.send(forward(2, "POST", x.C + "/containers/%s/start" % cid, [("Content-Length", "0")]))


for _n, _cl in (("rt-cl-leading-zero", "0%d"), ("rt-cl-plus", "+%d"), ("rt-cl-space", "%d "),
                ("rt-cl-twice", "%d")):
    @row(_n, violation=VIOLATION.get(_n), backend=[r"POST {C}/containers/create"] + IMAGE_STEP)
    def _(p, x, n=_n, cl=_cl):
        """a create whose Content-Length is spelled oddly (or sent twice): what head the
        backend gets"""
        from ipc import Gone
        doc = cbody(x)
        hdrs = [JSON, ("Content-Length", cl % len(doc))]
        if n == "rt-cl-twice":
            hdrs.append(("Content-Length", cl % len(doc)))
        try:
            create(p, x, doc, headers=hdrs)
            m = p.recv(10)
            show(n, "monitor: %r" % (m,))
            if m and m[0] == "VERDICT" and m[2]["outcome"] == "forwarding":
                p.expect("RESPONSE_END")
                p.send(done(1))
            for c in x.rec.settle(x.mark, want=b"/containers/create"):
                if b"/containers/create" in c.data:
                    show(n, "backend head %r" % bytes(c.data).split(b"\r\n\r\n")[0])
        except Gone as e:
            show(n, "gone: %s; log: %s" % (e, (x.log.search(
                r"protocol violation from request parser for connection %d[^\n]*" %
                p.conn) or [None])[0]))
