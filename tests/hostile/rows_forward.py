"""tests/hostile/rows_forward.py - lies in FORWARD, bodies, stream bytes and DONE
(the table and what a row says: tests/hostile/table.py)."""
import io
import tarfile

from ipc import Gone, body, body_end, body_spliced, client_data, done, forward, u32
from table import JSON, archive, ask, attach, create, owned, row, verdict_forwarding


# The monitor's image step before a create (monitor/exchange/image.c): the compat inspect of the
# image's name and, on podman, the libpod inspect of its id; a pod's default infra image
# is named after GET /libpod/version.
IMAGE_STEP = [r"GET {C}/images/localhost/busybox/json",
              r"GET /v4\.0\.0/libpod/images/(localhost/busybox|[0-9a-f]{{64}})/json"]
INFRA_STEP = [r"GET /v4\.0\.0/libpod/version",
              r"GET /v4\.0\.0/libpod/images/localhost/podman-pause:[^/ ]+/json"]


# ------------------------------------------------------------ controls
# Honest requests through the puppet: the lies below differ from these in one thing.

@row("control-list", backend=[r"GET {C}/containers/json\?{lbl}"])
def _(p, x):
    """(control) the canonical container list is forwarded and answered"""
    p.send(forward(1, "GET", x.C + "/containers/json?" + x.lbl))
    verdict_forwarding(p, light=True)
    if b" 200 " not in p.http.split(b"\r\n", 1)[0]:
        raise AssertionError("no 200 written to the client: %r" % p.http[:80])


# a start (and an attach, which podman's initialises a stopped container for) is checked
# first with the monitor's own inspect (monitor/exchange/startcheck.c)
START_CHECK = r"GET /v4.0.0/libpod/containers/{container_mine}/json"


@row("control-start", backend=[START_CHECK, r"POST {C}/containers/{container_mine}/start"])
def _(p, x):
    """(control) start of a container the monitor answered owned is forwarded"""
    cid = owned(p, x)
    p.send(forward(1, "POST", x.C + "/containers/%s/start" % cid, [("Content-Length", "0")]))
    verdict_forwarding(p)


@row("control-create", backend=[r"POST {C}/containers/create"] + IMAGE_STEP)
def _(p, x):
    """(control) the policy's own create body is forwarded"""
    create(p, x, x.create_body())
    verdict_forwarding(p)


# ------------------------------------------------------------ FORWARD: method

for _n, _m in (("unknown", "PATCH"), ("lower-case", "get"), ("spliced", "GET\r\nX-Hostile:"),
               ("connect", "CONNECT")):
    @row("forward-method-%s" % _n, violation="FORWARD method is not allowed")
    def _(p, x, m=_m):
        """FORWARD with a method outside GET HEAD POST PUT DELETE (lower case, with a
        request line spliced in)"""
        p.send(forward(1, m, x.C + "/containers/json?" + x.lbl))


# ------------------------------------------------------------ FORWARD: target

TARGETS = [
    ("relative", "containers/json", "target refused by the route tables"),
    ("absolute-uri", "http://docker/v1.41/_ping", "target refused by the route tables"),
    ("crlf", "/v1.41/_ping HTTP/1.1\r\nX-Hostile: HOSTILE\r\n\r\nGET /v1.41/_ping",
     "target refused by the route tables"),
    ("dot-segment", "/v1.41/containers/../images/json", "target refused by the route tables"),
    # found by fuzz_forward: no HTTP parser takes it, the route tables did
    ("fragment", "/v1.41/images/localhost/busybox#HOSTILE/json",
     "target refused by the route tables"),
    ("no-project-filter", "/v1.41/containers/json", "target is not canonical"),
    ("extra-query-key", "/v1.41/containers/json?{lbl}&HOSTILE=1", "target is not canonical"),
    ("percent-case", "/v1.41/containers/json?filters=%7b%22label%22%3a%5b%22org.apache"
     ".magpie.project%3d{root_q}%22%5d%7d", "target is not canonical"),
    ("denied-route", "/v1.41/swarm/init", "target refused by the route tables"),
    ("buildkit-session", "/v1.41/session", "target refused by the route tables"),
]
for _n, _t, _v in TARGETS:
    @row("forward-target-%s" % _n, violation=_v)
    def _(p, x, t=_t):
        """FORWARD of a target the monitor's own route tables refuse or do not reproduce
        byte for byte (relative, absolute URI, CR LF, dot segment, a fragment, without
        the project filter, an extra or repeated key, lower-case escapes, a denied or
        BuildKit route)"""
        p.send(forward(1, "POST" if "init" in t or "session" in t else "GET",
                       t.format(**x.fmt)))


@row("forward-target-libpod-on-docker", sock="docker",
     violation="target refused by the route tables")
def _(p, x):
    """FORWARD of a libpod route on docker.sock"""
    p.send(forward(1, "GET", x.L + "/containers/json?" + x.lbl))


@row("forward-id-unasked", violation="names a resource the monitor did not answer owned",
     real=True)
def _(p, x):
    """FORWARD naming the project's own container id without having asked (facts are
    never taken from the child)"""
    p.send(forward(1, "POST", x.C + "/containers/%s/start" % x.id("container", "mine"),
                   [("Content-Length", "0")]))


@row("forward-id-foreign", violation="names a resource the monitor did not answer owned",
     real=True)
def _(p, x):
    """FORWARD of a start of another project's container, after the monitor answered
    not-owned"""
    a = ask(p, x, "container", "theirs")
    if a["result"] != "not-owned":
        raise AssertionError("theirs answered %s" % a)
    p.send(forward(1, "POST", x.C + "/containers/%s/start" % x.id("container", "theirs"),
                   [("Content-Length", "0")]))


@row("forward-id-other-kind", violation="names a resource the monitor did not answer owned")
def _(p, x):
    """FORWARD of a container start with the id of an owned network"""
    nid = owned(p, x, "network")
    p.send(forward(1, "POST", x.C + "/containers/%s/start" % nid, [("Content-Length", "0")]))


@row("forward-id-stale", violation="names a resource the monitor did not answer owned",
     backend=[r"GET {C}/containers/{container_mine}/json"])
def _(p, x):
    """FORWARD in request 2 with an id answered owned in request 1 (answers are not
    kept across requests)"""
    cid = owned(p, x)
    p.send(forward(1, "GET", x.C + "/containers/%s/json" % cid))
    verdict_forwarding(p, light=True)
    p.send(forward(2, "POST", x.C + "/containers/%s/start" % cid, [("Content-Length", "0")]))


@row("forward-exec-foreign", violation="names a exec session the monitor did not answer owned")
def _(p, x):
    """FORWARD of an exec start of another project's exec session (answered not-owned)"""
    a = ask(p, x, "exec", "theirs")
    if a["result"] != "not-owned":
        raise AssertionError("exec theirs answered %s" % a)
    p.send(forward(1, "POST", x.C + "/exec/%s/start" % x.id("exec", "theirs"),
                   [JSON, ("Content-Length", "2")]))


@row("forward-commit-foreign", violation="FORWARD query container: .* was not answered owned",
     real=True)
def _(p, x):
    """FORWARD of a commit of another project's container (query ref)"""
    owned(p, x)
    p.send(forward(1, "POST", x.C + "/commit?container=%s&repo=hostile&pause=true" %
                   x.id("container", "theirs"), [("Content-Length", "0")]))


@row("forward-stats-foreign", violation="FORWARD query containers: .* was not answered owned")
def _(p, x):
    """FORWARD of libpod stats naming another project's container"""
    p.send(forward(1, "GET", x.L + "/containers/stats?containers=%s&stream=false" %
                   x.id("container", "theirs")))


@row("forward-image-remove-foreign",
     violation="names a resource the monitor did not answer owned", real=True)
def _(p, x):
    """FORWARD of a remove of another project's image"""
    p.send(forward(1, "DELETE", x.C + "/images/%s" % x.name("image", "theirs")))


@row("forward-volume-remove-foreign",
     violation="names a resource the monitor did not answer owned", real=True)
def _(p, x):
    """FORWARD of a remove of another project's volume after a not-owned answer"""
    ask(p, x, "volume", "theirs")
    p.send(forward(1, "DELETE", x.C + "/volumes/%s" % x.name("volume", "theirs")))


# ------------------------------------------------------------ FORWARD: headers

HEADERS = [
    ("extra", "GET", "/containers/json?{lbl}", [("X-Hostile", "HOSTILE")]),
    ("host", "GET", "/containers/json?{lbl}", [("Host", "HOSTILE")]),
    ("crlf-value", "GET", "/containers/json?{lbl}",
     [("User-Agent", "x\r\nX-Hostile: HOSTILE")]),
    ("lower-case-name", "GET", "/containers/json?{lbl}", [("user-agent", "HOSTILE")]),
    ("registry-auth-on-list", "GET", "/containers/json?{lbl}",
     [("X-Registry-Auth", "HOSTILE")]),
    ("registry-config-on-pull", "POST", "/images/create?fromImage=busybox",
     [("X-Registry-Config", "HOSTILE"), ("Content-Length", "0")]),
    ("content-length-on-get", "GET", "/containers/json?{lbl}", [("Content-Length", "7")]),
    ("upgrade-on-list", "GET", "/containers/json?{lbl}",
     [("Connection", "Upgrade"), ("Upgrade", "tcp")]),
    ("content-type-on-none-route", "POST", "/containers/{container_mine}/stop",
     [("Content-Type", "application/json"), ("Content-Length", "0")]),
    ("chunked-on-none-route", "POST", "/containers/{container_mine}/stop",
     [("Transfer-Encoding", "chunked")]),
    ("connection-keep-alive", "GET", "/containers/json?{lbl}",
     [("Connection", "keep-alive, HOSTILE")]),
    ("header-order", "POST", "/containers/{container_mine}/stop",
     [("Content-Length", "0"), ("User-Agent", "HOSTILE")]),
]
for _n, _m, _t, _h in HEADERS:
    @row("forward-header-%s" % _n,
         violation="FORWARD headers (are not the list the policy forwards|refused by the policy)")
    def _(p, x, m=_m, t=_t, h=_h):
        """FORWARD whose header list is not the policy's own (an extra field, Host, CR LF
        in a value, a lower-case name, X-Registry-Auth or -Config on the wrong route, a
        body length on GET, an upgrade on a list, a Content-Type or chunked framing on a
        route without a body, Connection tokens, another order)"""
        if "container_mine" in t:
            owned(p, x)
        p.send(forward(1, m, x.C + t.format(**x.fmt), h))


@row("forward-header-registry-auth-on-create", real=True,
     violation="FORWARD headers are not the list the policy forwards")
def _(p, x):
    """FORWARD of a create carrying X-Registry-Auth (http.md §7.3: pull and build only)"""
    create(p, x, x.create_body(), headers=[JSON, ("X-Registry-Auth", "HOSTILE"),
                                          ("Content-Length", str(len(x.create_body())))])


@row("forward-header-grpc", violation=r"refused by the policy \(denied-endpoint")
def _(p, x):
    """FORWARD of a build with Content-Type application/grpc"""
    p.send(forward(1, "POST", x.build_target, [("Content-Type", "application/grpc"),
                                                ("Content-Length", "10")]))


@row("forward-header-form-body", violation=r"refused by the policy \(denied-query")
def _(p, x):
    """FORWARD of a build whose body is a form (dockerd reads its values as query
    values, ahead of the query the policy checked: policy/assemble.h)"""
    p.send(forward(1, "POST", x.build_target,
                   [("Content-Type", "application/x-www-form-urlencoded"),
                    ("Content-Length", "22")]))


@row("forward-target-split-transport", violation="FORWARD target refused by the route")
def _(p, x):
    """FORWARD of a pull whose fromImage and tag join to a containers-storage reference
    at a host path (each value alone names no transport: policy/assemble.h)"""
    p.send(forward(1, "POST", x.C + "/images/create?fromImage=containers-storage&tag="
                   "%5Bvfs%40%2Ftmp%2FHOSTILE%2B%2Ftmp%2FHOSTILE%5Dx",
                   [("Content-Length", "0")]))


@row("forward-header-framing-both", violation=r"refused by the policy \(malformed")
def _(p, x):
    """FORWARD of a build with both Content-Length and Transfer-Encoding"""
    p.send(forward(1, "POST", x.build_target, [("Content-Type", "application/x-tar"),
                                                ("Content-Length", "10"),
                                                ("Transfer-Encoding", "chunked")]))


@row("forward-header-json-over-8mib",
     violation="Content-Length is not a JSON body length of at most 8 MiB")
def _(p, x):
    """FORWARD of a create declaring a JSON body over 8 MiB"""
    p.send(forward(1, "POST", x.C + "/containers/create",
                   [JSON, ("Content-Length", str(9 << 20))]))


@row("forward-header-chunked-json", violation="FORWARD headers are not the list")
def _(p, x):
    """FORWARD of a create whose JSON body is declared chunked"""
    p.send(forward(1, "POST", x.C + "/containers/create",
                   [JSON, ("Transfer-Encoding", "chunked")]))


@row("forward-header-33", violation="field or message too big")
def _(p, x):
    """FORWARD with 33 header pairs (the catalogue's limit is 32)"""
    p.send(forward(1, "GET", x.C + "/_ping", [("Accept", "x")] * 33))


@row("forward-header-nul", violation=r"invalid string \(NUL")
def _(p, x):
    """FORWARD with a NUL byte in a header value"""
    p.send(forward(1, "GET", x.C + "/_ping", [("Accept", "x\0HOSTILE")]))


# ------------------------------------------------------------ BODY and the replay

@row("body-privileged", violation=r"the policy refuses the forwarded request", real=True)
def _(p, x):
    """a create body with "Privileged": true (and the project label)"""
    create(p, x, x.create_body(host='"Privileged":true'))


@row("body-not-the-policys", violation="the policy rewrites the forwarded body")
def _(p, x):
    """a create body that differs from the policy's output (no project label)"""
    create(p, x, b'{"Image":"localhost/busybox","HostConfig":{"NetworkMode":"none"}}')


@row("body-whitespace", violation="the policy rewrites the forwarded body")
def _(p, x):
    """a create body that is the policy's output with one space added"""
    create(p, x, x.create_body().replace(b":{", b": {", 1))


@row("body-foreign-label", violation="the policy rewrites the forwarded body", real=True)
def _(p, x):
    """a create body carrying another project's label"""
    create(p, x, x.create_body(root=x.other))


@row("body-bind-outside", violation="the policy refuses the forwarded request", real=True)
def _(p, x):
    """a create body binding /etc"""
    create(p, x, x.create_body(host='"Binds":["/etc:/x"]'))


@row("body-netmode-foreign", violation="the policy refuses the forwarded request", real=True)
def _(p, x):
    """a create body joining another project's container's network namespace"""
    create(p, x, x.create_body(host='"NetworkMode":"container:%s"' % x.id("container", "theirs")))


@row("body-volume-foreign", real=True,
     backend=[r"GET {C}/volumes/{volume_theirs_n}"] + IMAGE_STEP)
def _(p, x):
    """a create body mounting another project's named volume: the monitor's own phase
    refuses it (VERDICT refused bind-mount), nothing is created"""
    create(p, x, x.create_body(host='"Binds":["%s:/x"]' % x.name("volume", "theirs")))
    p.expect("VERDICT", outcome="refused", code="bind-mount")
    p.send(done(1))


@row("body-network-foreign", real=True,
     backend=[r"GET /v4.0.0/libpod/networks/{network_theirs_n}/json"] + IMAGE_STEP)
def _(p, x):
    """a create body attached to another project's network: refused by the monitor's
    phase (VERDICT refused network)"""
    create(p, x, x.create_body(host='"NetworkMode":"%s"' % x.name("network", "theirs")))
    p.expect("VERDICT", outcome="refused", code="network")
    p.send(done(1))


@row("body-image-annotated",
     backend=[r"GET {C}/images/annotated/json", r"GET /v4\.0\.0/libpod/images/sha256:0{{64}}/json"])
def _(p, x):
    """a create (the policy's own body) of an image that carries an annotation reserved
    for the container engine, which podman would copy into the container: the monitor's
    image step reads it and refuses (VERDICT refused annotations), nothing is created"""
    create(p, x, x.create_body().replace(b"localhost/busybox", b"annotated"))
    p.expect("VERDICT", outcome="refused", code="annotations")
    p.send(done(1))


@row("body-image-not-a-reference", violation="the policy refuses the forwarded request")
def _(p, x):
    """a create whose Image is no image reference (a blank, which the monitor would
    splice into its image inspect): the replay refuses it"""
    create(p, x, x.create_body().replace(b"localhost/busybox", b"a b"))


@row("body-libpod-volume-foreign", real=True,
     backend=[r"GET {L}/volumes/{volume_theirs_n}/json"] + IMAGE_STEP)
def _(p, x):
    """a libpod create body (the policy's own form) with another project's named volume:
    refused by the monitor's phase, which reads the body in the shape of the route it
    classified itself (privsep.md §1 as amended: the child's "api" is gone)"""
    doc = x.libpod_body("containers", x.name("volume", "theirs"))
    create(p, x, doc, target=x.L + "/containers/create")
    p.expect("VERDICT", outcome="refused", code="bind-mount")
    p.send(done(1))


@row("body-pod-volume-foreign", real=True,
     backend=[r"GET {L}/volumes/{volume_theirs_n}/json"] + INFRA_STEP)
def _(p, x):
    """a pod create body whose infra container mounts another project's volume: refused
    by the monitor's phase"""
    doc = x.libpod_body("pods", x.name("volume", "theirs"))
    create(p, x, doc, target=x.L + "/pods/create")
    p.expect("VERDICT", outcome="refused", code="bind-mount")
    p.send(done(1))


@row("body-exec-privileged", violation="the policy refuses the forwarded request", real=True)
def _(p, x):
    """an exec create body with "Privileged": true on an owned container"""
    cid = owned(p, x)
    doc = b'{"Cmd":["sh"],"Privileged":true}'
    create(p, x, doc, target=x.C + "/containers/%s/exec" % cid)


@row("body-exec-env-hook", violation="the policy refuses the forwarded request")
def _(p, x):
    """an exec create body whose Env names a runtime hook's device variable
    (NVIDIA_VISIBLE_DEVICES: the host's GPUs, CVE-2025-23266)"""
    cid = owned(p, x)
    doc = b'{"Cmd":["sh"],"Env":["NVIDIA_VISIBLE_DEVICES=all"]}'
    create(p, x, doc, target=x.C + "/containers/%s/exec" % cid)


@row("body-unified-cgroup-file", violation="the policy refuses the forwarded request")
def _(p, x):
    """a libpod create body (the policy's own form otherwise) whose
    resource_limits.unified names cgroup.procs (runc writes it on cgroup v2)"""
    doc = x.libpod_body("containers", "v").replace(
        b'"privileged":false', b'"privileged":false,"resource_limits":{"unified":'
        b'{"cgroup.procs":"1"}}')
    create(p, x, doc, target=x.L + "/containers/create")


@row("body-libpod-systemd", violation="the policy rewrites the forwarded body")
def _(p, x):
    """a libpod create body (the policy's own form otherwise) that keeps podman's
    default systemd "true", which runs an init command in systemd mode with the host's
    cgroup tree writable (red team rt10 F2): the replay forwards "false" only"""
    doc = x.libpod_body("containers", "v").replace(b'"systemd":"false"', b'"systemd":"true"')
    create(p, x, doc, target=x.L + "/containers/create")


@row("body-apparmor-unconfined-name", violation="the policy refuses the forwarded request")
def _(p, x):
    """a create body whose AppArmor profile is runc (AppArmor 4: flags=(unconfined))"""
    create(p, x, x.create_body(host='"SecurityOpt":["apparmor=runc"]'))


@row("body-volume-create-foreign-name", real=True,
     backend=[r"GET {C}/volumes/{volume_theirs_n}"])
def _(p, x):
    """a volume create naming another project's volume: refused by the monitor's name
    check (VERDICT refused volume-driver)"""
    doc = x.volume_body(x.name("volume", "theirs"))
    create(p, x, doc, target=x.C + "/volumes/create")
    p.expect("VERDICT", outcome="refused", code="volume-driver")
    p.send(done(1))


@row("body-beyond-json-length", violation="BODY beyond the declared JSON length", real=True)
def _(p, x):
    """BODY bytes beyond the declared JSON length"""
    doc = x.create_body()
    p.send(forward(1, "POST", x.C + "/containers/create", [JSON, ("Content-Length", "10")]))
    p.send(body(1, doc))


@row("body-without-forward", violation="BODY not allowed now")
def _(p, x):
    """BODY before any FORWARD"""
    p.send(body(1, b"HOSTILE"))


@row("body-end-in-json", violation="BODY_END not allowed now")
def _(p, x):
    """BODY_END in the middle of a JSON body"""
    p.send(forward(1, "POST", x.C + "/containers/create", [JSON, ("Content-Length", "20")]))
    p.send(body(1, b'{"Image":'))
    p.send(body_end(1))


@row("body-done-in-json", violation="DONE not allowed now")
def _(p, x):
    """DONE in the middle of a JSON body"""
    p.send(forward(1, "POST", x.C + "/containers/create", [JSON, ("Content-Length", "20")]))
    p.send(body(1, b'{"Image":'))
    p.send(done(1))


@row("body-stream-beyond-length", violation="BODY beyond the declared Content-Length",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Fhold"])
def _(p, x):
    """streamed BODY bytes beyond the declared Content-Length (an upload to an owned
    container: the head reached the backend, no byte past the length does)"""
    archive(p, x, 5, "hold")
    p.send(body(1, b"HOSTILE"))


@row("body-spliced-beyond-length",
     violation="BODY_SPLICED beyond the declared Content-Length",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Fhold"])
def _(p, x):
    """BODY_SPLICED announcing more than the declared Content-Length"""
    archive(p, x, 5, "hold")
    p.send(body_spliced(1, 6))


@row("body-spliced-empty-pipe", violation="BODY_SPLICED beyond the bytes in the body pipe",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Fhold"])
def _(p, x):
    """BODY_SPLICED for bytes never put in the body pipe (the puppet closed it): the
    monitor moves only what is there, and the backend gets no byte it did not count"""
    archive(p, x, 5, "hold")
    p.send(body_spliced(1, 5))


@row("body-spliced-zero", violation="BODY_SPLICED of 0 bytes",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Fhold"])
def _(p, x):
    """an empty BODY_SPLICED"""
    archive(p, x, 5, "hold")
    p.send(body_spliced(1, 0))


@row("body-spliced-json", violation="BODY_SPLICED not allowed now|BODY_SPLICED on a request "
     "without a streamed body|BODY_SPLICED without a body pipe")
def _(p, x):
    """BODY_SPLICED for a JSON body (no pipe is offered for one)"""
    doc = x.create_body()
    p.send(forward(1, "POST", x.C + "/containers/create", [JSON, ("Content-Length",
                                                                 str(len(doc)))]))
    p.send(body_spliced(1, 1))


@row("body-stream-end-early", violation="BODY_END before the declared length",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Fhold"])
def _(p, x):
    """BODY_END before the declared Content-Length of a streamed body"""
    archive(p, x, 5, "hold")
    p.send(body(1, b"ab"))
    p.send(body_end(1))


@row("body-stream-after-end", violation="BODY not allowed now|BODY after BODY_END",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Fhold"])
def _(p, x):
    """BODY after the BODY_END of a streamed body"""
    archive(p, x, 2, "hold")
    p.send(body(1, b"ab"))
    p.send(body_end(1))
    p.send(body(1, b"HOSTILE"))


@row("forward-during-stream", violation="FORWARD not allowed now",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Fhold"])
def _(p, x):
    """a second FORWARD while a streamed body is still being relayed"""
    archive(p, x, 5, "hold")
    p.send(forward(1, "GET", x.C + "/_ping"))


@row("body-stream-give-up",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Ftmp"])
def _(p, x):
    """(can) give up a streamed body midway with DONE: the exchange is abandoned
    (RESPONSE_END close), the backend sees a truncated body and nothing more"""
    archive(p, x, 7)
    p.send(body(1, b"pay"))
    p.send(done(1))
    p.expect("RESPONSE_END", mode="close")
    sent = [bytes(c.data) for c in x.rec.settle(x.mark, want=b"/archive?")
            if b"/archive?" in c.data]
    if len(sent) != 1 or not b"pay".startswith(sent[0].split(b"\r\n\r\n", 1)[1]):
        raise AssertionError("the backend got %r" % sent)


@row("body-end-on-none-route",
     violation="BODY_END not allowed now|BODY_END on a request without a streamed body",
     backend=[r"POST {C}/containers/{container_mine}/stop"])
def _(p, x):
    """BODY_END after a request without a body was forwarded"""
    cid = owned(p, x)
    p.send(forward(1, "POST", x.C + "/containers/%s/stop" % cid, [("Content-Length", "0")]))
    p.expect("VERDICT", outcome="forwarding")
    p.send(body_end(1))


# ------------------------------------------------------------ CLIENT_DATA

# A GET is a light exchange (doc/privsep.md, the message catalogue): the
# monitor may have ended it (the backend answered, RESPONSE_END sent) before it reads the CLIENT_DATA, which
# then arrives between requests. Either way it is a violation and the child dies.
@row("client-data-not-hijack",
     violation=r"CLIENT_DATA (on a route that does not hijack|not allowed now)",
     backend=[r"GET {C}/containers/{container_mine}/json"])
def _(p, x):
    """CLIENT_DATA after a FORWARD of a route that does not switch protocols"""
    cid = owned(p, x)
    p.send(forward(1, "GET", x.C + "/containers/%s/json" % cid))
    p.send(client_data(1, b"HOSTILE"))


@row("client-data-idle", violation="CLIENT_DATA not allowed now")
def _(p, x):
    """CLIENT_DATA before any FORWARD"""
    p.send(client_data(1, b"HOSTILE"))


@row("client-data-over-256k", violation="more than 262144 early stream bytes",
     backend=[START_CHECK, r"POST {C}/containers/{container_mine}/attach\?stdin=1&stream=1"])
def _(p, x):
    """more than 256 KiB of early stream bytes on an attach (none is written before the
    backend switches protocols)"""
    attach(p, x)
    p.send(client_data(1, b"HOSTILE" * 9000), repeat=5, ack=False)


@row("client-data-after-end", violation="CLIENT_DATA after its end",
     backend=[START_CHECK, r"POST {C}/containers/{container_mine}/attach\?stdin=1&stream=1"])
def _(p, x):
    """CLIENT_DATA after the empty CLIENT_DATA that ends the early bytes"""
    attach(p, x)
    p.send(client_data(1, b""))
    p.send(client_data(1, b"HOSTILE"))


# ------------------------------------------------------------ the client's file

@row("client-clear-nonblock", dies="SIGSYS")
def _(p, x):
    """clear O_NONBLOCK on the client socket it shares with the monitor, which splices
    to it relying on that flag (its filter has no fcntl F_SETFL and no ioctl: it dies of
    SIGSYS)"""
    p.c.sendall(b"F" + u32(0))


# ------------------------------------------------------------ DONE out of state

@row("done-idle", violation="DONE not allowed now")
def _(p, x):
    """DONE with no exchange open"""
    p.send(done(1))


@row("done-before-response-end", violation="DONE not allowed now",
     backend=[START_CHECK, r"POST {C}/containers/{container_mine}/attach\?stdin=1&stream=1"])
def _(p, x):
    """DONE while the monitor still waits for the response of a synced exchange (an
    attach: the fake never switches)"""
    attach(p, x)
    p.send(client_data(1, b""))
    p.expect("VERDICT", outcome="forwarding")
    p.send(done(1))


@row("done-after-light-end", violation="DONE not allowed now",
     backend=[r"GET {C}/containers/{container_mine}/json"])
def _(p, x):
    """a second DONE after a light exchange (a GET: no body, no hijack), whose first DONE
    asked for its end (privsep.md §8)"""
    cid = owned(p, x)
    p.send(forward(1, "GET", x.C + "/containers/%s/json" % cid))
    p.send(done(1))
    p.expect("RESPONSE_END", mode="keep-alive")
    p.send(done(1))


@row("light-next-before-end",
     backend=[r"GET {C}/containers/{container_mine}/archive\?path=%2Fhold"])
def _(p, x):
    """(can) the next request while a light exchange's response is still owed (a
    client that did not wait): read once it is over, so nothing of it
    happens meanwhile: no answer, the backend sees only the first; the client leaving
    then ends the exchange, and the request that crossed its end is dropped"""
    cid = owned(p, x)
    p.send(forward(1, "GET", x.C + "/containers/%s/archive?path=%%2Fhold" % cid))
    x.log.wait(r"conn=%d dir=monitor type=VERDICT req=1 verdict=forwarded" % p.conn)
    p.send(forward(2, "GET", x.C + "/_ping"))
    try:
        got = p.recv(timeout=0.5)
    except Gone:
        raise AssertionError("the connection ended")
    if got is not None:
        raise AssertionError("the monitor answered %r" % (got,))


@row("synced-skips-done", violation="FORWARD not allowed now",
     backend=[START_CHECK, r"POST {C}/containers/{container_mine}/start"])
def _(p, x):
    """the next request without the DONE that a synced exchange (a Content-Length is
    forwarded) owes after its keep-alive RESPONSE_END"""
    cid = owned(p, x)
    p.send(forward(1, "POST", x.C + "/containers/%s/start" % cid, [("Content-Length", "0")]))
    p.expect("VERDICT", outcome="forwarding")
    p.expect("RESPONSE_END", mode="keep-alive")
    p.send(forward(2, "GET", x.C + "/_ping"))


# ---- the checker (doc/privsep.md "Builds and archives"): the request parser only moves
# the body; what the backend gets is what the monitor's own checker read and approved

def _tar(add):
    b = io.BytesIO()
    t = tarfile.open(fileobj=b, mode="w", format=tarfile.GNU_FORMAT)

    def f(name, data=b"", kind=tarfile.REGTYPE, link="", mode=0o644):
        ti = tarfile.TarInfo(name)
        ti.type, ti.linkname, ti.mode = kind, link, mode
        if kind == tarfile.CHRTYPE:
            ti.devmajor, ti.devminor = 1, 3
        ti.size = len(data) if kind == tarfile.REGTYPE else 0
        t.addfile(ti, io.BytesIO(data) if ti.size else None)
    add(f)
    t.close()
    return b.getvalue()


def _build(p, x, data):
    """FORWARD a build of data (a tar) with the canonical query; its body follows"""
    p.send(forward(1, "POST", x.C + "/build?dockerfile=Dockerfile&" +
                   x.build_target.split("?", 1)[1],
                   [("Content-Type", "application/x-tar"),
                    ("Content-Length", str(len(data)))]))
    p.expect("VERDICT", outcome="forwarding")
    p.expect("BODY_PIPE")


def _refused_upload(p, req, data, code):
    """send data as BODY datagrams, then BODY_END: the monitor answers the client itself
    with the checker's 403 and ends the exchange"""
    try:
        # the monitor ends the client's half after its 403 (Connection: close):
        # the puppet's frames (acks too), which travel on that connection, may
        # stop there, at any of these steps
        for i in range(0, len(data), 65000):
            p.send(body(req, data[i:i + 65000]))
        p.send(body_end(req))
        p.expect("RESPONSE_END", mode="close")
        p.send(done(req))
        p.wait_gone()
    except Gone:
        pass
    if ("container-gateway: %s: " % code).encode() not in p.http:
        raise AssertionError("the client got %r" % p.http[:200])


@row("check-archive-device-body",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Ftmp"])
def _(p, x):
    """have an archive with a device node extracted by sending it as BODY instead of
    through the body pipe: the monitor feeds the same bytes to its checker and frames
    to the backend only what it approved: no byte of the node's entry (named HOSTILE)
    reaches the daemon, the client gets 403 devices"""
    data = _tar(lambda f: (f("ok", b"x" * 3000), f("HOSTILE", kind=tarfile.CHRTYPE)))
    archive(p, x, len(data))
    _refused_upload(p, 1, data, "devices")


@row("check-build-through-link-body", backend=[r"POST {C}/build\?.*"])
def _(p, x):
    """forward a build context whose entry is written through a context symlink (podman
    4.3.1 extracts it on the host) as BODY: refused by the monitor's checker
    (403 host-path), no byte of the entry reaches the daemon"""
    data = _tar(lambda f: (f("Dockerfile", b"FROM localhost/busybox\n"),
                           f("h", kind=tarfile.SYMTYPE, link="/etc"),
                           f("h/HOSTILE", b"x")))
    _build(p, x, data)
    _refused_upload(p, 1, data, "host-path")


@row("check-build-onbuild-base-body", backend=[r"POST {C}/build\?.*",
                                               r"GET /v4.0.0/libpod/images/.*"])
def _(p, x):
    """forward, as BODY, a clean context whose Dockerfile starts FROM an image with an
    ONBUILD cache-mount trigger (podman runs it at FROM), hoping the monitor checks only
    what the context holds: the checker names the base image, the monitor has the daemon
    export it to the checker, which refuses the trigger (403 bind-mount); the daemon never
    gets the context's end"""
    data = _tar(lambda f: (f("Dockerfile", b"FROM onbuild\nRUN true\n"),))
    _build(p, x, data)
    _refused_upload(p, 1, data, "bind-mount")
    sent = [bytes(c.data) for c in x.rec.settle(x.mark, want=b"/build?")
            if b"/build?" in c.data]
    if len(sent) != 1 or len(sent[0].split(b"\r\n\r\n", 1)[1]) > len(data) - 1024:
        raise AssertionError("the backend got the build's end")


@row("check-load-annotation-body", backend=[r"POST {C}/images/load"])
def _(p, x):
    """load an oci-archive whose index gives an image a reserved annotation (podman
    keeps it on the image, a shared one too, and copies it into its containers) by
    sending it as BODY: the monitor's checker reads the archive's JSON documents,
    the client gets 403 annotations and the daemon never the archive's end"""
    idx = (b'{"schemaVersion":2,"manifests":[{"annotations":{'
           b'"io.podman.annotations.privileged":"TRUE"}}]}')
    data = _tar(lambda f: (f("oci-layout", b'{"imageLayoutVersion":"1.0.0"}'),
                           f("index.json", idx)))
    p.send(forward(1, "POST", x.C + "/images/load",
                   [("Content-Type", "application/x-tar"),
                    ("Content-Length", str(len(data)))]))
    p.expect("VERDICT", outcome="forwarding")
    p.expect("BODY_PIPE")
    _refused_upload(p, 1, data, "annotations")
    sent = [bytes(c.data) for c in x.rec.settle(x.mark) if b"/images/load" in c.data]
    if sent and len(sent[0].split(b"\r\n\r\n", 1)[-1]) >= len(data):
        raise AssertionError("the backend got the whole archive")


@row("check-build-end-withheld", backend=[r"POST {C}/build\?.*"])
def _(p, x):
    """give up a clean build context before its end, hoping the daemon builds what it
    got: the monitor withholds the archive's end until the checker approved the whole
    body, so the daemon never reads a complete context (its end marker)"""
    data = _tar(lambda f: (f("Dockerfile", b"FROM localhost/busybox\n"),
                           f("a", b"y" * 5000)))
    _build(p, x, data)
    p.send(body(1, data[:-1]))
    p.send(done(1))
    p.expect("RESPONSE_END", mode="close")
    sent = [bytes(c.data) for c in x.rec.settle(x.mark, want=b"/build?")
            if b"/build?" in c.data]
    if len(sent) != 1 or len(sent[0].split(b"\r\n\r\n", 1)[1]) > len(data) - 1024:
        raise AssertionError("the backend got %d body bytes of %d" %
                             (len(sent[0].split(b"\r\n\r\n", 1)[1]) if sent else -1,
                              len(data)))


@row("check-archive-device-after-skip",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Ftmp"])
def _(p, x):
    """send as BODY an archive whose first entry has 600 KiB of data, which the checker
    takes unread (CHECK_SKIP: the monitor leaves it out of the checker's pipe), and then
    a device node: the header after the gap is still read, the node's entry (HOSTILE)
    never reaches the daemon, the client gets 403 devices"""
    data = _tar(lambda f: (f("big", b"x" * (600 << 10)), f("HOSTILE", kind=tarfile.CHRTYPE)))
    archive(p, x, len(data))
    _refused_upload(p, 1, data, "devices")


@row("check-archive-ends-in-skip",
     backend=[r"PUT {C}/containers/{container_mine}/archive\?path=%2Ftmp"])
def _(p, x):
    """end an archive in the middle of entry data the checker skipped (its gap reaches
    past the body's end): the monitor has no verdict to wait for and refuses the body
    itself (400 malformed); the daemon never gets the whole body"""
    data = _tar(lambda f: (f("big", b"x" * (2 << 20)),))[:1 << 20]
    archive(p, x, len(data))
    _refused_upload(p, 1, data, "malformed")
    if b"ends inside an entry's data" not in p.http:
        raise AssertionError("the client got %r" % p.http[:300])
    sent = [bytes(c.data) for c in x.rec.settle(x.mark) if b"/archive?" in c.data]
    if sent and len(sent[0].split(b"\r\n\r\n", 1)[-1]) >= len(data):
        raise AssertionError("the backend got the whole body")
