#!/usr/bin/env python3
"""tests/integration/audit.py - the audit trail through the real podman (doc/audit.md).

A scripted session against a private podman (scripts/podman-up.sh), once with the
gateway's JSON log and once with its text log: the docker CLI makes an allowed create
with a bind and a published port and two creates the policy refuses; the test-only
puppet request parser (tests/helpers/hostile_gateway, tests/hostile/ipc.py) sends a
FORWARD the monitor's replay refuses, a FORWARD naming another project's container,
a create it breaks the protocol after (the backend still creates the container),
forged LOG and ACCESS text dressed as records, and an upload it stops feeding. Then:

  * every decision kind has its record with the documented fields; in JSON every
    record validates against doc/audit-record.schema.json (python3-jsonschema);
  * the record of the create the backend executed says forwarded, with the backend's
    status and the new container's id, and no record of it says abandoned;
  * an auditor's grep of the log finds no forged record (text: lines with
    "access conn=" and "decision=allow"; JSON: records by their top-level fields,
    and a raw grep for "decision":"allow");
  * the stalled upload's parser is ended after --backend-timeout, with its record;
  * `container-gateway audit` (text, --json, --decision, --since) summarises the
    session: refusals by code, violations with their targets, what was created.

  python3 tests/integration/audit.py [--keep]
  CG_PODMAN_DIR=DIR   reuse a service started with scripts/podman-up.sh DIR
  CG_GATEWAY=PATH     the gateway binary for `audit` (default ./container-gateway);
  CG_HOSTILE=PATH     the gateway with the puppet (default tests/helpers/hostile_gateway)

PASS/FAIL per check, "N passed, M failed" last; exit 1 when any failed, 77 when it
cannot run here (not root).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path[:0] = [os.path.join(REPO, "tests", "hostile"), os.path.join(REPO, "tests", "forwarded")]
import client  # noqa: E402
import ipc  # noqa: E402
from ipc import access, body, fact_query, forward, log  # noqa: E402

KEY = "org.apache.magpie.project"
C = "/v1.41"
GW = os.environ.get("CG_GATEWAY", os.path.join(REPO, "container-gateway"))
HOSTILE = os.environ.get("CG_HOSTILE", os.path.join(REPO, "tests/helpers/hostile_gateway"))
SCHEMA = os.path.join(REPO, "doc", "audit-record.schema.json")
TIMEOUT = 5            # --backend-timeout: the stalled upload ends after it
TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

passed = failed = 0


def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("PASS %s" % name)
    else:
        failed += 1
        print("FAIL %s%s" % (name, ": " + why if why else ""))
    sys.stdout.flush()
    return ok


def http(sock, method, target, doc=None, timeout=60):
    return client.http(sock, method, target,
                       json.dumps(doc).encode() if doc is not None else None,
                       timeout=timeout)


# ------------------------------------------------------------ reading the log as an auditor

def unescape(s):
    """A text-log value without its escapes (\\" \\\\ \\xhh)."""
    out, i = bytearray(), 0
    b = s.encode("latin-1", "replace")
    while i < len(b):
        if b[i:i + 1] == b"\\" and b[i + 1:i + 2] in (b'"', b"\\"):
            out += b[i + 1:i + 2]
            i += 2
        elif b[i:i + 2] == b"\\x" and re.match(rb"[0-9a-fA-F]{2}", b[i + 2:i + 4]):
            out.append(int(b[i + 2:i + 4], 16))
            i += 4
        else:
            out.append(b[i])
            i += 1
    return out.decode("utf-8", "replace")


FIELD = re.compile(r'([a-z_]+)=("(?:[^"\\]|\\.)*"|[^ ]*)')
LISTS = ("binds", "volumes", "ports")


def text_records(text):
    """The records of a text log: lines "<ts> container-gateway INFO access k=v ...",
    as dicts shaped like the JSON records (resource and create nested)."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^(\S+) container-gateway INFO access (.*)$", line)
        if not m or not TS.match(m.group(1)):
            continue
        f = {"ts": m.group(1)}
        for k, v in FIELD.findall(m.group(2)):
            raw = v[1:-1] if v.startswith('"') else v
            f[k] = [unescape(x) for x in raw.split(",")] if k in LISTS else unescape(raw)
        r = {k: f.get(k) for k in ("ts", "method", "path", "decision", "detail", "outcome",
                                   "route", "target")}
        for k in ("conn", "req", "status", "duration_ms", "backend_status"):
            r[k] = int(f[k]) if k in f else None
        r["code"] = None if f.get("code") == "-" else f.get("code")
        r["forwarded"] = f.get("forwarded") == "yes"
        r["decided_by"] = f.get("by")
        r["resource"] = {"kind": f["kind"], "name": f.get("name"), "id": f.get("id")} \
            if "kind" in f else None
        r["create"] = {"image": f.get("image"), "label": f.get("label"),
                       **{k: f.get(k, []) for k in LISTS}} \
            if "image" in f or "label" in f else None
        r["_line"] = line
        out.append(r)
    return out


def json_records(text):
    """The records of a JSON log: objects whose top-level event is access, written by
    the monitor. Every line must be one JSON object."""
    out, bad = [], []
    for line in text.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            bad.append(line)
            continue
        if o.get("event") == "access" and o.get("source") == "monitor":
            o["_line"] = line
            out.append(o)
    return out, bad


# ------------------------------------------------------------ the session

def podman_setup(sock, other):
    """A container of another project (the violation's target)."""
    st, b = http(sock, "POST", C + "/containers/create?name=cga-theirs",
                 {"Image": "localhost/busybox", "Cmd": ["true"], "Labels": {KEY: other},
                  "HostConfig": {"NetworkMode": "none"}})
    if st != 201:
        raise RuntimeError("create theirs: %d %r" % (st, b[:200]))
    return json.loads(b)["Id"]


def podman_container(sock, name):
    st, b = http(sock, "GET", "/v4.3.1/libpod/containers/%s/json" % name)
    return json.loads(b)["Id"] if st == 200 else None


def docker(env, *args):
    r = subprocess.run(["docker"] + list(args), env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120)
    return r.returncode, r.stdout.decode("utf-8", "replace").strip()


def create_doc(root, extra=None):
    """A create body as the policy forwards it: on no network, so that it needs no
    project-network question (the policy rewrites the default network onto the project's)."""
    d = {"Image": "localhost/busybox", "Cmd": ["true"], "Labels": {KEY: root},
         "HostConfig": {"NetworkMode": "none"}}
    d.update(extra or {})
    return json.dumps(d, separators=(",", ":")).encode()


def puppet_create(p, root, name=None, doc=None):
    doc = doc if doc is not None else create_doc(root)
    p.send(forward(1, "POST", C + "/containers/create" + ("?name=" + name if name else ""),
                   [("Content-Type", "application/json"), ("Content-Length", str(len(doc)))]))
    p.send(body(1, doc))


def session(fmt, tmp, pm_sock, theirs):
    """One gateway (hostile binary, daemon, log format fmt), the scripted session.
    Returns what the checks need."""
    root = os.path.join(tmp, "p-" + fmt)
    run = os.path.join(tmp, "r-" + fmt)
    os.makedirs(os.path.join(root, "data"))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("CONTAINER_GATEWAY_") and k != "DOCKER_HOST"}
    env["XDG_RUNTIME_DIR"] = tmp
    r = subprocess.run([HOSTILE, "serve", "--project", root, "--run-dir", run,
                        "--podman-socket", pm_sock, "--backend", "podman", "--egress", "off",
                        "--log-level", "debug", "--log-format", fmt, "--daemon",
                        "--backend-timeout", str(TIMEOUT)], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    if r.returncode != 0:
        raise RuntimeError("serve: %s" % r.stdout.decode())
    s = {"fmt": fmt, "root": root, "run": run, "log": os.path.join(run, "container-gateway.log"),
         "pid": int(open(os.path.join(run, "container-gateway.pid")).read().strip())}
    dsock, psock = os.path.join(run, "docker.sock"), os.path.join(run, "podman.sock")
    denv = dict(env, DOCKER_HOST="unix://" + dsock, DOCKER_CONFIG=os.path.join(tmp, "dc"))

    # allowed: a create with a bind inside the project and a published port
    rc, out = docker(denv, "create", "--name", "cga-web-" + fmt, "-v", root + "/data:/data",
                     "-p", "127.0.0.1::80", "localhost/busybox", "true")
    s["web_id"] = out.splitlines()[-1] if rc == 0 else None
    check("%s: docker create with a bind and a port is allowed" % fmt, rc == 0, out)
    # refused by the policy
    rc, out = docker(denv, "run", "--rm", "--privileged", "localhost/busybox", "true")
    check("%s: docker run --privileged is refused" % fmt, rc != 0 and "privileged" in out, out)
    rc, out = docker(denv, "create", "-v", "/etc:/x", "localhost/busybox", "true")
    check("%s: a bind outside the project is refused" % fmt, rc != 0 and "bind-mount" in out,
          out)

    # refused by the monitor's replay: the policy refuses what the child forwards
    p = ipc.Puppet(psock, "audit-replay")
    s["replay_conn"] = p.conn
    try:
        puppet_create(p, root, doc=create_doc(root, {"HostConfig": {"Privileged": True}}))
    except ipc.Gone:
        pass
    check("%s: the replay refusal ends the puppet" % fmt, p.wait_gone())

    # a protocol violation aimed at another project's container
    p = ipc.Puppet(psock, "audit-foreign")
    s["foreign_conn"] = p.conn
    try:
        p.send(forward(1, "DELETE", C + "/containers/" + theirs))
    except ipc.Gone:
        pass
    check("%s: the foreign DELETE ends the puppet" % fmt, p.wait_gone())

    # the case: the child breaks the protocol once its create is forwarded
    p = ipc.Puppet(psock, "audit-executed")
    s["exec_conn"] = p.conn
    name = "cga-exec-" + fmt
    puppet_create(p, root, name)
    v = p.recv(30)
    check("%s: the puppet's create is forwarded" % fmt,
          v is not None and v[0] == "VERDICT" and v[2]["outcome"] == "forwarding", repr(v))
    try:
        p.send(forward(1, "GET", C + "/_ping"))    # FORWARD not allowed now
    except ipc.Gone:
        pass
    check("%s: the violation after forwarding ends the puppet" % fmt, p.wait_gone())
    deadline = time.monotonic() + 30
    while podman_container(pm_sock, name) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    s["exec_id"] = podman_container(pm_sock, name)
    check("%s: the backend created that container" % fmt, s["exec_id"] is not None)

    # forged lines: LOG text and ACCESS fields dressed as records
    p = ipc.Puppet(psock, "audit-forge")
    s["forge_conn"] = p.conn
    fake = ("access conn=%d socket=podman method=DELETE path=/v1.41/containers/FORGED "
            "decision=allow code=- status=204 duration_ms=1 outcome=allowed forwarded=yes "
            "by=monitor req=1" % p.conn)
    p.send(log(fake))
    p.send(log("x\n2026-12-01T00:00:00.000Z container-gateway INFO " + fake))
    p.send(log('{"ts":"2026-12-01T00:00:00.000Z","level":"info","event":"access",'
               '"path":"/v1.41/containers/FORGED","decision":"allow","source":"monitor"}'))
    try:
        # the path is a request path (one with spaces or newlines is a protocol
        # violation: tests/hostile access-path-newline); the detail is forged
        p.send(access(1, "DELETE", "/v1.41/containers/FORGED",
                      "denied-endpoint", 403, "x\n" + fake))
    except ipc.Gone:
        pass
    p.close()

    # an upload the child stops feeding: ended after --backend-timeout, recorded
    p = ipc.Puppet(psock, "audit-stall")
    s["stall_conn"] = p.conn
    p.send(fact_query(1, 1, "container", "cga-web-" + fmt))
    a = p.expect("FACT_ANSWER", qid=1)
    p.send(forward(1, "PUT", C + "/containers/%s/archive?path=%%2Ftmp" % a["id"],
                   [("Content-Type", "application/x-tar"), ("Content-Length", "4096")]))
    p.expect("VERDICT", outcome="forwarding")
    t0 = time.monotonic()
    gone = p.wait_gone(TIMEOUT + 15)
    s["stall_secs"] = time.monotonic() - t0
    check("%s: a stalled upload's parser is ended (after %.1f s)" % (fmt, s["stall_secs"]),
          gone and s["stall_secs"] >= TIMEOUT - 0.5, "gone=%s" % gone)
    # every record of the session is out before the log is read
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with open(s["log"], encoding="utf-8", errors="replace") as f:
            t = f.read()
        if "cga-exec" in t and ("moved no request body bytes" in t or
                                "moved\\x20no" in t):
            break
        time.sleep(0.1)
    with open(s["log"], encoding="utf-8", errors="replace") as f:
        s["text"] = f.read()
    return s


# ------------------------------------------------------------ the checks

def by_conn(recs, conn):
    return [r for r in recs if r.get("conn") == conn]


def check_records(s, recs):
    fmt, root = s["fmt"], s["root"]
    web = [r for r in recs if r.get("route") == "containers/create" and
           (r.get("resource") or {}).get("name") == "cga-web-" + fmt]
    ok = len(web) == 1
    w = web[0] if ok else {}
    cr = w.get("create") or {}
    check("%s: allowed create: outcome, forwarded, resource, id, image, bind, port, label"
          % fmt, ok and w["outcome"] == "allowed" and w["forwarded"] is True and
          w["decision"] == "allow" and w["status"] == 201 and w["backend_status"] == 201 and
          w["resource"]["kind"] == "container" and w["resource"]["id"] == s["web_id"] and
          cr.get("image") == "localhost/busybox" and
          cr.get("binds") == [root + "/data:/data"] and
          cr.get("ports") == ["127.0.0.1:0->80/tcp"] and cr.get("label") == root and
          w["decided_by"] == "monitor", json.dumps({k: v for k, v in w.items() if k != "_line"}))

    ref = [r for r in recs if r["outcome"] == "refused"]
    codes = sorted(r["code"] for r in ref)
    check("%s: policy refusals: privileged, bind-mount (and the forged ACCESS's "
          "denied-endpoint), by the request parser, not forwarded" % fmt,
          codes == ["bind-mount", "denied-endpoint", "privileged"] and
          all(r["decided_by"] == "request-parser" and r["forwarded"] is False and
              r["decision"] == "deny" and r["status"] == 403 and r["detail"] for r in ref),
          repr(codes))

    rr = [r for r in by_conn(recs, s["replay_conn"]) if r["outcome"] == "replay-refused"]
    check("%s: replay refusal: code privileged, why, the create it tried, not forwarded" % fmt,
          len(rr) == 1 and rr[0]["code"] == "privileged" and
          "the policy refuses the forwarded request" in (rr[0]["detail"] or "") and
          rr[0]["forwarded"] is False and rr[0]["path"] == C + "/containers/create" and
          rr[0]["target"] == "POST " + C + "/containers/create",
          repr(rr))

    fv = [r for r in by_conn(recs, s["foreign_conn"]) if r["outcome"] == "violation"]
    check("%s: protocol violation: what it tried and its target (the other project's "
          "container)" % fmt,
          len(fv) == 1 and fv[0]["method"] == "DELETE" and
          fv[0]["path"] == C + "/containers/" + s["theirs"] and
          fv[0]["target"] == "DELETE " + C + "/containers/" + s["theirs"] and
          "did not answer owned" in fv[0]["detail"] and fv[0]["forwarded"] is False,
          repr(fv))

    ex = by_conn(recs, s["exec_conn"])
    exv = [r for r in ex if r["outcome"] == "violation"]
    check("%s: the executed create's record says forwarded, with the backend's status and "
          "the new id, never abandoned" % fmt,
          len(exv) == 1 and exv[0]["forwarded"] is True and
          exv[0]["backend_status"] == 201 and
          (exv[0]["resource"] or {}).get("id") == s["exec_id"] and
          (exv[0]["resource"] or {}).get("name") == "cga-exec-" + fmt and
          exv[0]["detail"] == "FORWARD not allowed now" and
          not any(r["outcome"] == "abandoned" or "abandoned" in (r.get("detail") or "")
                  for r in ex), repr(ex))

    st = [r for r in by_conn(recs, s["stall_conn"]) if r.get("method") == "PUT"]
    check("%s: the stalled upload's record: forwarded, why" % fmt,
          len(st) == 1 and st[0]["forwarded"] is True and st[0]["outcome"] == "allowed" and
          "moved no request body bytes" in (st[0]["detail"] or ""), repr(st))

    # one record per request: the puppets' connections have exactly the ones above
    fg = by_conn(recs, s["forge_conn"])
    check("%s: the forging puppet's connection has one record: its ACCESS, refused" % fmt,
          len(fg) == 1 and fg[0]["outcome"] == "refused" and fg[0]["code"] == "denied-endpoint",
          repr(fg))
    forged = [r for r in recs if "FORGED" in (r.get("path") or "") and
              (r["decision"] == "allow" or r["outcome"] == "allowed" or r["forwarded"])]
    check("%s: no record read from the log says a FORGED path was allowed" % fmt, not forged,
          repr(forged))


def check_grep(s):
    """An auditor's grep over the raw log finds no forged record."""
    fmt, text = s["fmt"], s["text"]
    lines = text.splitlines()
    if fmt == "text":
        hits = [l for l in lines if "access conn=" in l and "FORGED" in l and
                ("decision=allow" in l or "outcome=allowed" in l or "forwarded=yes" in l)]
        starts = [l for l in lines if re.match(r"^2026-12-01T00:00:00\.000Z", l)]
        child = [l for l in lines if " child conn=" in l]
        check("text: grep 'access conn=' ... 'decision=allow' finds no forged record",
              not hits and not starts, repr(hits + starts))
        check("text: the child's lines are DEBUG, source=child, escaped",
              len(child) == 3 and all(" DEBUG child conn=%d source=child text=\"" %
                                      s["forge_conn"] in l for l in child), repr(child))
    else:
        hits = [l for l in lines if "FORGED" in l and
                re.search(r'"(decision|outcome)":"allow', l)]
        raw = [l for l in lines if "FORGED" in l and "access conn=" in l and
               "decision=allow" in l]
        child = [json.loads(l) for l in lines if '"event":"child"' in l]
        check("json: grep '\"decision\":\"allow\"' and 'access conn=' find no forged record",
              not hits and not raw, repr(hits + raw))
        check("json: the child's lines are debug, event child, source child",
              len(child) == 3 and all(c["level"] == "debug" and c["source"] == "child" and
                                      c["conn"] == s["forge_conn"] for c in child),
              repr(child))


def audit(s, *args):
    r = subprocess.run([GW, "audit", "--project", s["root"], "--run-dir", s["run"]] +
                       list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode()


def check_audit(s):
    fmt = s["fmt"]
    rc, out, err = audit(s, "--json")
    try:
        rep = json.loads(out)
    except ValueError:
        rep = None
    check("%s: audit --json prints one JSON object" % fmt, rc == 0 and rep is not None,
          "rc %d: %s %s" % (rc, out[:300], err[:300]))
    if rep is None:
        return None
    refusals = {x["code"]: x["count"] for x in rep.get("refusals", [])}
    check("%s: audit counts refusals by reason code" % fmt,
          refusals == {"privileged": 1, "bind-mount": 1, "denied-endpoint": 1} and
          rep["outcomes"]["refused"] == 3, repr(refusals))
    vio = rep.get("violations", [])
    targets = sorted(v.get("target") or "" for v in vio)
    check("%s: audit lists the violations with their targets" % fmt,
          rep.get("violations_total") == 3 and len(vio) == 3 and
          "DELETE %s/containers/%s" % (C, s["theirs"]) in targets and
          "POST %s/containers/create" % C in targets and
          "POST %s/containers/create?name=cga-exec-%s" % (C, fmt) in targets and
          sorted(v["outcome"] for v in vio) == ["replay-refused", "violation", "violation"],
          repr(targets))
    made = {(c.get("name"), c.get("id")): c for c in rep.get("created", [])}
    web = made.get(("cga-web-" + fmt, s["web_id"]), {})
    check("%s: audit lists the containers created, with image, mounts, ports" % fmt,
          web.get("image") == "localhost/busybox" and
          web.get("binds") == [s["root"] + "/data:/data"] and
          web.get("ports") == ["127.0.0.1:0->80/tcp"] and
          ("cga-exec-" + fmt, s["exec_id"]) in made and
          not any("FORGED" in json.dumps(c) for c in made.values()), repr(list(made)))

    rc, out, err = audit(s)
    lines = out.splitlines()
    check("%s: audit (text): the refusal counts in aligned columns" % fmt,
          rc == 0 and any(re.match(r"^  privileged +1 ", l) for l in lines) and
          any(re.match(r"^  bind-mount +1 ", l) for l in lines) and
          any(re.match(r"^  CODE +COUNT +LAST +EXAMPLE$", l) for l in lines), out[:1500])
    check("%s: audit (text): the violation's target and the created container" % fmt,
          s["theirs"] in out and s["web_id"][:12] in out and
          (s["root"] + "/data:/data") in out and "FORGED" not in out.split("Created")[-1],
          out[-1500:])
    rc, out, _ = audit(s, "--decision", "refused")
    check("%s: audit --decision refused: the refusals only" % fmt,
          rc == 0 and "privileged" in out and "Protocol violations" not in out and
          "Created" not in out, out[:600])
    rc, out, _ = audit(s, "--decision", "violation", "--json")
    v = json.loads(out) if rc == 0 else {}
    check("%s: audit --decision violation --json: the violations only" % fmt,
          "violations" in v and "refusals" not in v and "created" not in v, out[:300])
    rc, out, _ = audit(s, "--since", "2099-01-01", "--json")
    check("%s: audit --since a later time: no record" % fmt,
          rc == 0 and json.loads(out)["records"] == 0, out[:300])
    rc, out, _ = audit(s, "--since", "1h", "--json")
    check("%s: audit --since 1h: the whole session" % fmt,
          rc == 0 and json.loads(out)["records"] == rep["records"], out[:300])
    return rep


# a path a lying request parser (or anyone who can append to the log) would need to
# paint a row: a newline, a whole "Created" row, a terminal escape (red-team rt10 F4)
PAINT = ("/v1.41/containers/create\n\nCreated (forwarded)\n  2026-12-07T12:01:28.471Z "
         "container pwn deadbeef0000 localhost/busybox - /:/host\x1b[2J\x9b1m")


def check_audit_display(s, tmp):
    """`audit` (text) prints every value with control bytes escaped: a refusal record
    whose path carries newlines and escapes (the monitor itself now refuses such an
    ACCESS) reads as one row of the report, not as rows of its own."""
    fmt = s["fmt"]
    lines = s["text"].splitlines()
    if fmt == "text":
        real = [l for l in lines if "access conn=" in l and "code=privileged" in l]
        q = '"' + "".join("\\x%02x" % ord(ch) if ord(ch) < 0x20 or ord(ch) > 0x7e else ch
                          for ch in PAINT) + '"'
        line = re.sub(r"path=\S+", lambda m: "path=" + q, real[0], count=1) if real else ""
    else:
        real = [json.loads(l) for l in lines
                if '"event":"access"' in l and '"code":"privileged"' in l]
        line = json.dumps(dict(real[0], path=PAINT)) if real else ""
    path = os.path.join(tmp, "painted-%s.log" % fmt)
    with open(path, "w") as f:
        f.write(line + "\n")
    r = subprocess.run([GW, "audit", "--log-file", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    out = r.stdout.decode("utf-8", "replace")
    check("%s: audit (text) escapes a record's control bytes: no painted row, no "
          "escape reaches the terminal" % fmt,
          bool(line) and r.returncode == 0 and "create\\x0a\\x0aCreated" in out and
          not any(re.match(r"^ *2026-12-07T12:01:28\.471Z container pwn", l)
                  for l in out.splitlines()) and
          not any(b < 0x20 and b != 0x0a or 0x7f <= b for b in r.stdout),
          out[-1500:])


def schema_check(recs):
    try:
        import jsonschema
    except ImportError:
        check("json: records validate against the schema", False,
              "python3-jsonschema is not installed (scripts/install-deps.sh)")
        return
    with open(SCHEMA) as f:
        schema = json.load(f)
    v = jsonschema.Draft7Validator(schema)
    errs = []
    for r in recs:
        o = {k: x for k, x in r.items() if k != "_line"}
        errs += ["%s: %s" % (o.get("outcome"), e.message) for e in v.iter_errors(o)]
    kinds = sorted(set(r["outcome"] for r in recs))
    check("json: every record validates against doc/audit-record.schema.json "
          "(%d records: %s)" % (len(recs), ", ".join(kinds)),
          not errs and {"allowed", "refused", "replay-refused", "violation"} <= set(kinds),
          "; ".join(errs[:5]))


def main():
    keep = "--keep" in sys.argv
    if os.geteuid() != 0:
        print("SKIP audit: needs root (a rootful private podman)")
        return 77
    if shutil.which("docker") is None:
        print("SKIP audit: no docker CLI")
        return 77
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="cga."))
    os.makedirs(os.path.join(tmp, "dc"))
    with open(os.path.join(tmp, "dc", "config.json"), "w") as f:
        f.write("{}")
    own_pm = "CG_PODMAN_DIR" not in os.environ
    pm = os.environ.get("CG_PODMAN_DIR") or os.path.join(tmp, "pm")
    sessions = []
    try:
        if own_pm:
            os.makedirs(os.path.join(tmp, "pm-cwd"))
            r = subprocess.run([os.path.join(REPO, "scripts/podman-up.sh"), pm],
                               cwd=os.path.join(tmp, "pm-cwd"), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=300)
            if r.returncode != 0:
                check("podman-up", False, r.stdout.decode()[-2000:])
                return 1
        pm_sock = os.path.join(pm, "podman.sock")
        theirs = podman_setup(pm_sock, os.path.join(tmp, "other-project"))
        reports = {}
        for fmt in ("json", "text"):
            s = session(fmt, tmp, pm_sock, theirs)
            s["theirs"] = theirs
            sessions.append(s)
            if fmt == "json":
                recs, bad = json_records(s["text"])
                check("json: every log line is one JSON object", not bad, repr(bad[:2]))
                schema_check(recs)
            else:
                recs = text_records(s["text"])
            check_records(s, recs)
            check_grep(s)
            reports[fmt] = rep = check_audit(s)
            if rep:
                # the audit command counts what an auditor's own reading of this log finds
                mine = {}
                for r in recs:
                    mine[r["outcome"]] = mine.get(r["outcome"], 0) + 1
                check("%s: audit's outcome counts are the log's records" % fmt,
                      all(rep["outcomes"].get(k, 0) == n for k, n in mine.items()) and
                      sum(rep["outcomes"].values()) == len(recs),
                      "%r / %r" % (rep["outcomes"], mine))
            check_audit_display(s, tmp)
        j, t = reports.get("json"), reports.get("text")
        if j and t:
            # "allowed" is left out: the docker CLI's own requests vary in number under
            # load (make check once saw 6 in one session, 5 in the other); each log's
            # count is checked against its records above
            same = {k: v for k, v in j["outcomes"].items() if k != "allowed"} == \
                {k: v for k, v in t["outcomes"].items() if k != "allowed"}
            check("audit: the text log gives the same summary as the JSON log",
                  same and j["refusals"] and
                  [(x["code"], x["count"]) for x in j["refusals"]] ==
                  [(x["code"], x["count"]) for x in t["refusals"]] and
                  j["violations_total"] == t["violations_total"],
                  "%r / %r" % (j["outcomes"], t["outcomes"]))
    except (RuntimeError, OSError, ipc.Gone, AssertionError, subprocess.SubprocessError) as e:
        check("the session ran", False, repr(e))
    finally:
        for s in sessions:
            try:
                os.kill(s["pid"], 15)
                deadline = time.monotonic() + 10
                while os.path.exists("/proc/%d" % s["pid"]) and time.monotonic() < deadline:
                    time.sleep(0.05)
            except OSError:
                pass
        if own_pm and os.path.exists(pm):
            subprocess.run([os.path.join(REPO, "scripts/podman-down.sh"), pm],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        elif not own_pm:
            for n in ["cga-theirs"] + ["cga-%s-%s" % (a, b) for a in ("web", "exec")
                                        for b in ("json", "text")]:
                http(pm_sock, "DELETE", "/v4.3.1/libpod/containers/%s?force=true" % n)
        if keep:
            print("# kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
        # the pins of its gateways, whose run directories are gone now: no mount left
        subprocess.run([os.path.join(REPO, "tests/integration/unpin-dead.sh")], timeout=60)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
