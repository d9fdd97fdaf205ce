"""tests/hostile/table.py - the table of a compromised request parser's lies.

A row drives the puppet (ipc.Puppet) against the real monitor and says what must
follow (tests/hostile/run.py checks it):
  violation  regex of the reason in "protocol violation from request parser for
             connection N (pid P): <reason>"; the child must then die of SIGKILL.
             None: the row ends normally (its function asserts the answers) and
             no violation may be logged for it;
  backend    regexes of request lines that may reach the backend besides the
             inspects of the refs the row asked about ({C} {L} and the ids of the
             run's World are filled in); nothing else may, and no byte "HOSTILE";
  real       the row runs against the private podman too (its state must not change);
  dies       the child's own filter kills it (e.g. "SIGSYS"): that death must be logged,
             no violation, and the client connection must end.
The docstring of each row is its line in doc/privsep.md. The rows are in
rows_forward.py (FORWARD, bodies, stream bytes, DONE), rows_rtchild.py (the image pin, facts after a refusal, Content-Length spellings) and rows_ipc.py (ACCESS, LOG,
questions, request numbers, datagrams, descriptors, floods).
"""
from ipc import body, done, fact_query, forward


class Row:
    def __init__(self, name, sock, fn, violation, backend, real, doc, dies=None):
        self.name, self.sock, self.fn, self.violation = name, sock, fn, violation
        self.backend, self.real, self.doc = backend, real, " ".join(doc.split())
        self.dies = dies


ROWS = []


def row(name, violation=None, sock="podman", backend=(), real=False, dies=None):
    def reg(fn):
        ROWS.append(Row(name, sock, fn, violation, backend, real, fn.__doc__, dies))
        return fn
    return reg


JSON = ("Content-Type", "application/json")


def ask(p, x, kind, who, req=1, qid=1, api=0, prefix="/v1.41"):
    """FACT_QUERY for the World's kind/who; the inspect it causes may reach the
    backend. Returns the answer's fields."""
    ref = x.name(kind, who)
    p.asked.append(x.inspect_line(kind, api, prefix, ref))
    if kind == "exec" and who != "missing":    # then its container (routes.md §9.4)
        p.asked.append(x.inspect_line("container", api, prefix, x.id("container", who)))
    p.send(fact_query(req, qid, kind, ref, api, prefix))
    return p.expect("FACT_ANSWER", qid=qid)


def owned(p, x, kind="container", who="mine", req=1, qid=1, api=0, prefix="/v1.41"):
    a = ask(p, x, kind, who, req, qid, api, prefix)
    if a["result"] != "owned":
        raise AssertionError("%s %s answered %s" % (kind, who, a))
    return a["id"]


def create(p, x, doc, req=1, target=None, headers=None):
    """FORWARD a compat container create with doc (bytes) as its body."""
    hdrs = headers if headers is not None else [JSON, ("Content-Length", str(len(doc)))]
    p.send(forward(req, "POST", target or x.C + "/containers/create", hdrs))
    p.send(body(req, doc))


def verdict_forwarding(p, req=1, light=False):
    """An honest child's end of a forwarded exchange: VERDICT forwarding, RESPONSE_END,
    DONE; a light exchange (no Content-Length/Transfer-Encoding forwarded, no hijack:
    privsep.md §8) gets no VERDICT and, kept alive, no RESPONSE_END unless a DONE asks
    for it, as here: the end is known when the row goes on."""
    if light:
        p.send(done(req))
        p.expect("RESPONSE_END")
        return
    p.expect("VERDICT", outcome="forwarding")
    p.expect("RESPONSE_END")
    p.send(done(req))


def archive(p, x, length, path="tmp"):
    """An upload to the owned container; path "hold": the fake never answers it."""
    cid = owned(p, x)
    p.send(forward(1, "PUT", x.C + "/containers/%s/archive?path=%%2F%s" % (cid, path),
                   [("Content-Type", "application/x-tar"), ("Content-Length", str(length))]))
    p.expect("VERDICT", outcome="forwarding")
    # the body pipe's write end: the puppet closes every descriptor it gets
    p.expect("BODY_PIPE")


def attach(p, x):
    cid = owned(p, x)
    p.send(forward(1, "POST", x.C + "/containers/%s/attach?stdin=1&stream=1" % cid,
                   [("Content-Length", "0"), ("Connection", "Upgrade"),
                    ("Upgrade", "tcp")]))
