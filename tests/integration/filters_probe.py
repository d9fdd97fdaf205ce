#!/usr/bin/env python3
"""tests/integration/filters_probe.py — measure how a real backend combines list,
prune and events filters (doc/filters.md holds the table).

    filters_probe.py --socket SOCK --backend podman|docker [--api compat|libpod]...
                     [--only KIND] [--report] [--via GATEWAY_SOCK]

Talks to the backend socket directly (curl-like, HTTP/1.1 over the unix socket). For
each kind (containers, volumes, networks, pods, images, events, system prune) it makes
five fixtures labelled for two fake projects and unmanaged ones:

    <kind>-a1  KEY=/m/a, tier=1       <kind>-a2  KEY=/m/a
    <kind>-b1  KEY=/m/b, tier=1       <kind>-u1  tier=1        <kind>-u2  (no label)

then sends each probe's filters and records which fixtures the backend selected (a list
or events call) or removed (a prune: fixtures gone afterwards). Every probe that carries
KEY=/m/a asks the backend the question the gateway depends on: does it AND the project
label with the client's other filters? "a1 a2" or a subset is confined; anything with
b1, u1 or u2 widened the selection.

With --report it prints one line per probe: `<api> <endpoint> <probe> -> <outcome>`.
With --expect doc/filters.md it compares every line with the fenced block
"```measured <backend>" of that file (the table the gateway's design rests on), prints
one PASS line per endpoint whose rows all hold and one FAIL line per row that does not,
then "N passed, M failed"; exit status 1 when any row no longer holds.
"""
import argparse
import concurrent.futures
import http.client
import json
import socket
import sys
import time
import urllib.parse

KEY = "org.apache.magpie.project"
A = KEY + "=/m/a"
B = KEY + "=/m/b"
FIX = ("a1", "a2", "b1", "u1", "u2")
LABELS = {
    "a1": {KEY: "/m/a", "tier": "1"},
    "a2": {KEY: "/m/a"},
    "b1": {KEY: "/m/b", "tier": "1"},
    "u1": {"tier": "1"},
    "u2": {},
}
FUTURE = str(int(time.time()) + 7200)

# ---------------------------------------------------------------- transport


class UnixConn(http.client.HTTPConnection):
    def __init__(self, path, timeout=120):
        super().__init__("d", timeout=timeout)
        self.path = path

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(self.timeout)
        s.connect(self.path)
        self.sock = s


class Backend:
    def __init__(self, sock, kind):
        self.sock = sock
        self.kind = kind          # podman | docker
        self.version = "?"

    def call(self, method, path, query=None, body=None):
        if query:
            path += "?" + urllib.parse.urlencode(query)
        c = UnixConn(self.sock)
        hdrs = {"Host": "d"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        c.request(method, path, body=data, headers=hdrs)
        r = c.getresponse()
        raw = r.read()
        c.close()
        try:
            val = json.loads(raw) if raw.strip() else None
        except ValueError:
            val = None
            if raw.lstrip()[:1] in (b"{", b"["):   # events: a stream of JSON values
                dec, s, val = json.JSONDecoder(), raw.decode(), []
                i = 0
                while i < len(s):
                    while i < len(s) and s[i].isspace():
                        i += 1
                    if i >= len(s):
                        break
                    v, i = dec.raw_decode(s, i)
                    val.append(v)
        return r.status, val, raw

    def ok(self, method, path, query=None, body=None, want=(200, 201, 204)):
        st, val, raw = self.call(method, path, query, body)
        # podman 4.3.1 lists the host's interfaces to pick a subnet, and fails with
        # "route ip+net: no such network interface" when one goes away meanwhile (a
        # bridge of a network another suite just removed: make check saw it once)
        for _ in range(5):
            if not (st == 500 and b"no such network interface" in raw):
                break
            time.sleep(0.5)
            st, val, raw = self.call(method, path, query, body)
        if st not in want:
            raise RuntimeError(f"{method} {path}: {st} {raw[:300]!r}")
        return val


# ---------------------------------------------------------------- fixtures


def lp(b, path):
    return "/v4.3.1/libpod" + path if b.kind == "podman" else None


def cp(path):
    return "/v1.41" + path


def names_all(b, kind):
    """Every fixture of kind present on the backend: {fixture: id}."""
    out = {}
    if kind == "containers":
        for c in b.ok("GET", cp("/containers/json"), {"all": "1"}) or []:
            for n in c.get("Names") or []:
                out[n.lstrip("/")] = c["Id"]
    elif kind == "volumes":
        for v in (b.ok("GET", cp("/volumes")) or {}).get("Volumes") or []:
            out[v["Name"]] = v["Name"]
    elif kind == "networks":
        for n in b.ok("GET", cp("/networks")) or []:
            out[n["Name"]] = n["Id"]
    elif kind == "pods":
        for p in b.ok("GET", lp(b, "/pods/json")) or []:
            out[p["Name"]] = p["Id"]
    elif kind == "images":
        for i in b.ok("GET", cp("/images/json"), {"all": "1"}) or []:
            n = (i.get("Labels") or {}).get("m.fixture")
            if n:
                out[n] = i["Id"]
    return {k: v for k, v in out.items() if k.startswith(kind[:2] + "-")}


def fixture_name(kind, f):
    return f"{kind[:2]}-{f}"


def make(b, kind, f):
    name, labels = fixture_name(kind, f), LABELS[f]
    if kind == "containers":
        b.ok("POST", cp("/containers/create"), {"name": name},
             {"Image": "localhost/busybox", "Cmd": ["true"], "Labels": labels,
              "HostConfig": {"NetworkMode": "none"}})
    elif kind == "volumes":
        b.ok("POST", cp("/volumes/create"), body={"Name": name, "Labels": labels})
    elif kind == "networks":
        b.ok("POST", cp("/networks/create"), body={"Name": name, "Labels": labels})
    elif kind == "pods":
        # an exited pod (what pod prune removes): one container that exits
        b.ok("POST", lp(b, "/pods/create"),
             body={"name": name, "labels": labels, "no_infra": True})
        b.ok("POST", lp(b, "/containers/create"),
             body={"name": "pc-" + name, "pod": name, "image": "localhost/busybox",
                   "command": ["true"], "netns": {"nsmode": "none"}})
        b.ok("POST", lp(b, f"/pods/{name}/start"), want=(200, 304))
        b.ok("POST", lp(b, f"/containers/pc-{name}/wait"), {"condition": "exited"})
    elif kind == "images":
        # a dangling image (no tag) whose config carries the labels (podman's
        # compat commit ignores a body's Labels: LABEL instructions instead)
        changes = [("changes", f"LABEL {k}={v}")
                   for k, v in dict(labels, **{"m.fixture": name}).items()]
        cid = b.ok("POST", cp("/containers/create"), {"name": "mk-" + name},
                   {"Image": "localhost/busybox", "Cmd": ["true"],
                    "HostConfig": {"NetworkMode": "none"}})["Id"]
        b.ok("POST", cp("/commit"), [("container", cid)] + changes, body={})
        b.ok("DELETE", cp("/containers/" + cid), {"force": "1"})


def remove(b, kind, ident):
    if kind == "containers":
        b.call("DELETE", cp("/containers/" + ident), {"force": "1"})
    elif kind == "volumes":
        b.call("DELETE", cp("/volumes/" + ident), {"force": "1"})
    elif kind == "networks":
        b.call("DELETE", cp("/networks/" + ident))
    elif kind == "pods":
        b.call("DELETE", lp(b, "/pods/" + ident), {"force": "true"})
    elif kind == "images":
        b.call("DELETE", cp("/images/" + ident), {"force": "1"})


def ensure(b, kind):
    """All five fixtures of kind exist; returns {fixture: id}."""
    have = names_all(b, kind)
    for f in FIX:
        if fixture_name(kind, f) not in have:
            make(b, kind, f)
    have = names_all(b, kind)
    return {f: have[fixture_name(kind, f)] for f in FIX}


def clear(b, kind):
    for ident in names_all(b, kind).values():
        remove(b, kind, ident)


# ---------------------------------------------------------------- probes

# Each probe: (name, filters or None, kinds it applies to). "{b1id}" is replaced
# by the id of fixture b1 of the kind; "{b1}" by its name.
PROBES = [
    ("none", None, "*"),
    ("labelA", {"label": [A]}, "*"),
    ("label-A-and-B", {"label": [A, B]}, "*"),
    ("label-map-A-B", {"label": {A: True, B: True}}, "*"),
    ("label-B-then-A", {"label": [B, A]}, "*"),
    ("label-tier-then-A", {"label": ["tier=1", A]}, "*"),
    ("label-A-and-tier", {"label": [A, "tier=1"]}, "*"),
    ("labelA+label!tier", {"label": [A], "label!": ["tier=1"]}, "*"),
    ("labelA+label!A", {"label": [A], "label!": [A]}, "*"),
    ("labelA+label!-map-A", {"label": [A], "label!": {A: True}}, "*"),
    ("labelA+name=b1", {"label": [A], "name": ["{b1}"]}, "containers volumes networks pods"),
    ("labelA+id=b1", {"label": [A], "id": ["{b1id}"]}, "containers networks pods"),
    ("labelA+until", {"label": [A], "until": [FUTURE]}, "*"),
    ("labelA+dangling", {"label": [A], "dangling": ["true"]}, "volumes images"),
    ("labelA+driver", {"label": [A], "driver": ["{driver}"]}, "volumes networks"),
    ("labelA+status", {"label": [A], "status": ["created"]}, "containers pods"),
    ("labelA+type", {"label": [A], "type": ["container"]}, "events"),
    ("labelA+container=b1", {"label": [A], "container": ["{b1}"]}, "events"),
    ("labelA+volume=b1", {"label": [A], "volume": ["vo-b1"]}, "events"),
    ("labelA+bogus", {"label": [A], "bogus": ["x"]}, "*"),
    # how podman reads label keys on events (monitor/exchange/evfilter.c mirrors it)
    ("Label-key-A", {"Label": [A]}, "events"),
    ("label=K-key", {"label=" + KEY: ["/m/a"]}, "events"),
    ("label-key-only", {"label": [KEY]}, "events"),
]

DRIVER = {"volumes": "local", "networks": "bridge"}


def subst(filters, kind, ids):
    if filters is None:
        return None
    text = json.dumps(filters)
    text = text.replace("{b1}", fixture_name(kind if kind != "events" else "containers", "b1"))
    text = text.replace("{b1id}", ids.get("b1", "0" * 64))
    text = text.replace("{driver}", DRIVER.get(kind, "local"))
    return text


def outcome(selected):
    """Fixtures as a sorted word list; '-' for none."""
    s = [f for f in FIX if f in selected]
    return " ".join(s) if s else "-"


def list_path(b, api, kind):
    if api == "libpod":
        return lp(b, {"containers": "/containers/json", "volumes": "/volumes/json",
                      "networks": "/networks/json", "pods": "/pods/json"}[kind])
    return cp({"containers": "/containers/json", "volumes": "/volumes",
               "networks": "/networks"}[kind])


def selected_of_list(kind, val, byid):
    items = val.get("Volumes") if isinstance(val, dict) else val
    got = set()
    for it in items or []:
        names = it.get("Names") or [it.get("Name") or it.get("name") or ""]
        for n in names:
            n = n.lstrip("/")
            for f in FIX:
                if n == fixture_name(kind, f):
                    got.add(f)
        ident = it.get("Id") or it.get("id")
        if ident in byid:
            got.add(byid[ident])
    return got


def run_list(b, api, kind, fjson):
    ids = ensure(b, kind)
    q = {"all": "true" if api == "libpod" else "1"} if kind == "containers" else {}
    if fjson is not None:
        q["filters"] = fjson
    st, val, raw = b.call("GET", list_path(b, api, kind), q)
    if st != 200:
        return f"error {st}"
    return outcome(selected_of_list(kind, val, {v: k for k, v in ids.items()}))


def prune_path(b, api, kind):
    return lp(b, f"/{kind}/prune") if api == "libpod" else cp(f"/{kind}/prune")


def run_prune(b, api, kind, fjson, extra=None):
    ids = ensure(b, kind)
    q = dict(extra or {})
    if fjson is not None:
        q["filters"] = fjson
    st, val, raw = b.call("POST", prune_path(b, api, kind), q)
    after = names_all(b, kind)
    gone = {f for f in FIX if fixture_name(kind, f) not in after}
    res = outcome(gone)
    if st != 200:
        res = f"error {st}" + ("" if not gone else " removed " + res)
    return res


def run_system_prune(b, fjson):
    """libpod system prune with volumes=true: what it removes of every kind."""
    kinds = ("containers", "pods", "volumes", "networks", "images")
    for k in kinds:
        ensure(b, k)
    q = {"volumes": "true"}
    if fjson is not None:
        q["filters"] = fjson
    st, val, raw = b.call("POST", lp(b, "/system/prune"), q)
    parts = []
    for k in kinds:
        after = names_all(b, k)
        gone = {f for f in FIX if fixture_name(k, f) not in after}
        parts.append(f"{k}:{outcome(gone).replace(' ', ',')}")
    res = " ".join(parts)
    return res if st == 200 else f"error {st} {res}"


def read_stream(b, path, query, idle=1.5, limit=30):
    """GET a streamed answer (events) until it stays quiet for idle seconds:
    podman 4.3 returns no events at all when `until` is set (file logger),
    so the stream is read from `since` and cut when it goes quiet.
    Returns (status, [JSON values])."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(b.sock)
    s.sendall(f"GET {path}?{urllib.parse.urlencode(query)} HTTP/1.1\r\n"
              "Host: d\r\n\r\n".encode())
    s.settimeout(idle)
    buf, t0 = b"", time.time()
    while time.time() - t0 < limit:
        try:
            d = s.recv(65536)
        except socket.timeout:
            break
        if not d:
            break
        buf += d
    s.close()
    head, _, body = buf.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    if b"chunked" in head.lower():
        out = b""
        while body:
            line, _, rest = body.partition(b"\r\n")
            try:
                n = int(line.split(b";")[0], 16)
            except ValueError:
                break
            if n == 0:
                break
            out += rest[:n]
            body = rest[n + 2:]
        body = out
    vals, dec, text, i = [], json.JSONDecoder(), body.decode(errors="replace"), 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        try:
            v, i = dec.raw_decode(text, i)
        except ValueError:
            break
        vals.append(v)
    return status, vals


def run_events(b, api, fjson, since):
    q = {"since": since}
    if fjson is not None:
        q["filters"] = fjson
    path = lp(b, "/events") if api == "libpod" else cp("/events")
    st, vals = read_stream(b, path, q)
    if st != 200:
        return f"error {st}"
    got = set()
    for ev in vals:
        if isinstance(ev, dict) and ("cause" in ev or "message" in ev) and "Actor" not in ev:
            return "error in stream"
        actor = ev.get("Actor") or {}
        n = (actor.get("Attributes") or {}).get("name") or actor.get("ID") or ev.get("Name") or ""
        for k in ("containers", "volumes"):
            for f in FIX:
                if n == fixture_name(k, f):
                    got.add(f)
    return outcome(got)


# ---------------------------------------------------------------- the table

ENDPOINTS = [
    # (api, endpoint label, kind, op)
    ("compat", "GET containers/json", "containers", "list"),
    ("libpod", "GET containers/json", "containers", "list"),
    ("compat", "POST containers/prune", "containers", "prune"),
    ("libpod", "POST containers/prune", "containers", "prune"),
    ("compat", "GET volumes", "volumes", "list"),
    ("libpod", "GET volumes/json", "volumes", "list"),
    ("compat", "POST volumes/prune", "volumes", "prune"),
    ("libpod", "POST volumes/prune", "volumes", "prune"),
    ("compat", "GET networks", "networks", "list"),
    ("libpod", "GET networks/json", "networks", "list"),
    ("compat", "POST networks/prune", "networks", "prune"),
    ("libpod", "POST networks/prune", "networks", "prune"),
    ("libpod", "GET pods/json", "pods", "list"),
    ("libpod", "POST pods/prune", "pods", "prune"),
    ("compat", "POST images/prune", "images", "prune"),
    ("libpod", "POST images/prune", "images", "prune"),
    ("compat", "GET events", "events", "events"),
    ("libpod", "GET events", "events", "events"),
    ("libpod", "POST system/prune", "system", "system"),
]


def applies(kinds, kind):
    return kinds == "*" or kind in kinds.split()


def probes_for(kind, op):
    for name, filters, kinds in PROBES:
        k = "containers" if kind == "events" else kind
        if kind in ("events", "system") and not applies(kinds, kind) and kinds != "*":
            continue
        if kind not in ("events", "system") and not applies(kinds, k):
            continue
        if kind == "system" and name not in ("none", "labelA", "label-A-and-B", "label-B-then-A",
                                             "labelA+label!A", "labelA+until"):
            continue
        # pod prune ignores filters altogether (each probe re-makes five exited pods)
        if kind == "pods" and op == "prune" and name not in (
                "none", "labelA", "label-B-then-A", "labelA+label!A", "labelA+bogus"):
            continue
        if op == "prune" and kind == "images" and "dangling" not in (filters or {}) \
                and filters is not None:
            # the gateway always forwards dangling=true on image prune (routes.md §8.3)
            filters = dict(filters, dangling=["true"])
        yield name, filters


def guarded(fn, *args):
    try:
        return fn(*args)
    except (OSError, RuntimeError, http.client.HTTPException) as e:
        return f"exception {e}"


def measure(b, apis, only, report=False):
    out = []
    since = str(int(time.time()) - 1)
    events_ready = False
    for api, ep, kind, op in ENDPOINTS:
        if api not in apis or (only and only != kind):
            continue
        if b.kind == "docker" and (kind in ("pods", "system") or api == "libpod"):
            continue
        if kind == "events" and not events_ready:
            # events of both fixture kinds, produced between since and until
            for k in ("containers", "volumes"):
                clear(b, k)
                ensure(b, k)
            events_ready = True
        probes = list(probes_for(kind, op))
        if op == "events":
            # read-only: every probe's stream at once (each ends when it goes quiet)
            ids = ensure(b, "containers")
            with concurrent.futures.ThreadPoolExecutor(len(probes)) as pool:
                futs = [pool.submit(guarded, run_events, b, api,
                                    subst(f, kind, ids), since) for _, f in probes]
                results = [f.result() for f in futs]
        else:
            results = []
            for name, filters in probes:
                ids = ensure(b, kind) if kind != "system" else ensure(b, "containers")
                fjson = subst(filters, kind, ids)
                if op == "list":
                    results.append(guarded(run_list, b, api, kind, fjson))
                elif op == "prune":
                    results.append(guarded(run_prune, b, api, kind, fjson))
                else:
                    results.append(guarded(run_system_prune, b, fjson))
        for (name, _), res in zip(probes, results):
            out.append((api, ep, name, res))
            if report:
                print(row_line(api, ep, name, res), flush=True)
    for k in ("containers", "pods", "volumes", "networks", "images"):
        if b.kind == "docker" and k == "pods":
            continue
        clear(b, k)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--socket", required=True)
    ap.add_argument("--backend", choices=("podman", "docker"), required=True)
    ap.add_argument("--api", action="append", choices=("compat", "libpod"))
    ap.add_argument("--only")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--expect", metavar="DOC")
    a = ap.parse_args()
    b = Backend(a.socket, a.backend)
    b.version = (b.ok("GET", cp("/version")) or {}).get("Version", "?")
    apis = a.api or (["compat", "libpod"] if a.backend == "podman" else ["compat"])
    print(f"# {a.backend} {b.version}, measured {time.strftime('%Y-%m-%d %H:%M:%S')}")
    for k in ("containers", "pods", "volumes", "networks", "images"):
        if not (b.kind == "docker" and k == "pods"):
            clear(b, k)
    rows = measure(b, apis, a.only, a.report)
    if a.expect:
        sys.exit(compare(rows, expected(a.expect, a.backend)))


def row_line(api, ep, name, res):
    return f"{api:6} {ep:24} {name:22} -> {res}"


def expected(doc, backend):
    """{(api, endpoint, probe): outcome} from the ```measured <backend> block."""
    want, inside = {}, False
    for line in open(doc, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("```"):
            inside = line.split() == ["```measured", backend]
            continue
        if inside and " -> " in line and not line.startswith("#"):
            left, res = line.split(" -> ", 1)
            api, rest = left.split(None, 1)
            method, path, name = rest.split()
            want[(api, f"{method} {path}", name)] = res.strip()
    return want


def compare(rows, want):
    if not want:
        print("FAIL table: no ```measured block for this backend in the doc")
        return 1
    passed = failed = 0
    bad_eps, seen = set(), set()
    for api, ep, name, res in rows:
        key = (api, ep, name)
        seen.add(key)
        if key not in want:
            print(f"FAIL {api} {ep} {name}: not in the table (got {res})")
            bad_eps.add((api, ep))
            failed += 1
        elif want[key] != res:
            print(f"FAIL {api} {ep} {name}: table says {want[key]!r}, backend now {res!r}")
            bad_eps.add((api, ep))
            failed += 1
    for key in sorted(set(want) - seen):
        print(f"FAIL {key[0]} {key[1]} {key[2]}: in the table but not measured")
        failed += 1
    eps = []
    for api, ep, _, _ in rows:
        if (api, ep) not in eps:
            eps.append((api, ep))
    for api, ep in eps:
        if (api, ep) not in bad_eps:
            n = sum(1 for r in rows if (r[0], r[1]) == (api, ep))
            print(f"PASS {api} {ep}: {n} rows as in the table")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    main()
