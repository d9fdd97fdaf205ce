#!/bin/bash
# tests/integration/cli.sh — the real docker and podman CLIs through the gateway's
# sockets, against a private rootful podman service (scripts/podman-up.sh), or with
# CG_BACKEND=docker against a private dockerd (scripts/dockerd-up.sh; podman-only
# checks are skipped then: the gateway serves docker.sock alone).
#
#   tests/integration/cli.sh            all scenarios
#   tests/integration/cli.sh s_cp ...   only the named scenario functions
#   CG_BACKEND=docker tests/integration/cli.sh s_run_rm ...
#
# Needs root (rootful podman), the docker CLI, podman, curl; or, as any user,
# CG_PODMAN_SOCKET naming a running podman service (tests/integration/rootless.sh runs
# it so, as a throwaway user against that user's rootless podman). Exit status 77 =
# skipped (neither); otherwise non-zero when any check failed. Last line: "N passed,
# M failed". See lib.sh for CG_GATEWAY, CG_PODMAN_DIR, CG_DIRECT (debugging only), CG_KEEP.
set -u
if [ "$(id -u)" -ne 0 ] && [ -z "${CG_PODMAN_SOCKET:-}" ]; then
  echo "SKIP integration: needs root (rootful podman backend) or CG_PODMAN_SOCKET"
  exit 77
fi
. "$(dirname "$0")/lib.sh"

# ---- scenarios ------------------------------------------------------------------

s_run_rm() {
  expect_output "docker run --rm echo" hi dk run --rm --network none $IMG echo hi
}

s_detached_lifecycle() {
  expect_ok "docker run -d --name t1" dk run -d --name t1 --network none $IMG sh -c 'echo started; exec sleep 300'
  expect_output "docker exec t1 echo" in dk exec t1 echo in
  expect_output "docker logs t1" started dk logs t1
  expect_output "container carries the project label" "$P1" \
    dk inspect -f "{{index .Config.Labels \"$KEY\"}}" t1
  expect_ok "docker stop -t 1 t1" dk stop -t 1 t1
  expect_ok "docker rm t1" dk rm t1
  bk_rm t1
}

s_bind_inside() {
  echo data-ok > "$P1/data/f"
  expect_output "bind inside the project" data-ok \
    dk run --rm --network none -v "$P1/data:/data" $IMG cat /data/f
}

s_refusals() {
  expect_fail_with "bind outside the project refused" "container-gateway: bind-mount" \
    dk run --rm --network none -v /etc:/x $IMG true
  expect_fail_with "--privileged refused" "container-gateway: privileged" \
    dk run --rm --network none --privileged $IMG true
  expect_fail_with "--cap-add refused" "container-gateway: cap-add" \
    dk run --rm --network none --cap-add SYS_ADMIN $IMG true
  if podman_only "podman --privileged refused"; then
    expect_fail_with "podman --privileged refused" "container-gateway: privileged" \
      pm run --rm --network none --privileged $IMG true
  fi
  # nothing may have been created by the refused requests
  cg_run bk ps -aq --filter "label=$KEY=$P1"
  if [ -z "$CG_OUT" ]; then pass "refused runs left no container"
  else fail "refused runs left no container" "backend has: $(echo $CG_OUT)" quiet; bk_rm $CG_OUT; fi
}

s_isolation() {
  local id
  cg_run dk run -d --name iso1 --network none $IMG sleep 300
  id=$CG_OUT
  if [ $CG_RC -ne 0 ]; then fail "isolation: setup" "docker run -d failed"; return; fi
  # a container made behind the gateways' backs (no project label)
  cg_run bk create --name foreign1 --network none $IMG true
  expect_output "ps -a lists own container" iso1 dk ps -a --format '{{.Names}}'
  cg_run dk ps -a --format '{{.Names}}'
  if [[ $CG_OUT == *foreign1* ]]; then fail "ps -a hides unlabelled container" "listed foreign1" quiet
  else pass "ps -a hides unlabelled container"; fi
  cg_run dk2 ps -a --format '{{.Names}}'
  if [ $CG_RC -ne 0 ]; then fail "second project: ps -a" "exit $CG_RC"
  elif [[ $CG_OUT == *iso1* ]]; then fail "second project: ps -a does not list it" "listed iso1" quiet
  else pass "second project: ps -a does not list it"; fi
  expect_fail_match "second project: inspect is 404" "$NOTFOUND" \
    dk2 container inspect iso1
  expect_fail_match "second project: inspect by id is 404" "$NOTFOUND" \
    dk2 container inspect "${id:0:12}"
  # (not `rm -f`: the docker CLI turns a 404 into success when forcing)
  expect_fail_match "second project: rm is 404" "$NOTFOUND" \
    dk2 rm iso1
  expect_fail_match "second project: kill is 404" "$NOTFOUND" \
    dk2 kill iso1
  expect_fail_match "second project: exec is 404" "$NOTFOUND" \
    dk2 exec iso1 true
  expect_fail_match "first project: inspect foreign container is 404" "$NOTFOUND" \
    dk container inspect foreign1
  expect_output "first project: container survived" running dk inspect -f '{{.State.Status}}' iso1
  expect_ok "first project: rm -f" dk rm -f iso1
  bk_rm iso1 foreign1
}

s_cp() {
  local src=$CG_TMP/cp-src out=$CG_TMP/cp-out
  head -c 3000 /dev/urandom | base64 > "$src"
  cg_run dk run -d --name tcp --network none $IMG sleep 300
  if [ $CG_RC -ne 0 ]; then fail "docker cp: setup" "docker run -d failed"; return; fi
  expect_ok "docker cp into container" dk cp "$src" tcp:/tmp/f
  expect_ok "docker cp out of container" dk cp tcp:/tmp/f "$out"
  if cmp -s "$src" "$out"; then pass "docker cp round trip content"
  else fail "docker cp round trip content" "files differ" quiet; fi
  dk rm -f tcp >/dev/null 2>&1; bk_rm tcp
}

s_stdin() {
  cg_run dk run -d -i --name t2 --network none $IMG sleep 300
  if [ $CG_RC -ne 0 ]; then fail "stdin: setup" "docker run -d failed"; return; fi
  expect_output "echo hello | docker exec -i cat" hello sh -c "echo hello | DOCKER_HOST=unix://$R1/docker.sock docker exec -i t2 cat"
  dk rm -f t2 >/dev/null 2>&1; bk_rm t2
  # docker run -i: attach (101 upgrade) with stdin, then start
  expect_output "docker run -i --rm cat <<< hello" hello \
    sh -c "echo hello | DOCKER_HOST=unix://$R1/docker.sock docker run -i --rm --network none $IMG cat"
  # docker attach to a running container, stdin closed after one line. podman closes the
  # container's stdin when the attach's stdin ends (cat exits). dockerd instead ends the
  # whole attach at once when its stdin ends (the output may be lost), so there the
  # container reads one line and exits while stdin is still open.
  # The inner timeout without signal proxying: a docker attach that outlived the outer
  # timeout would keep the output pipe open and hang the suite.
  local t3cmd=cat feed="echo attach-x"
  if [ "$CG_BACKEND" = docker ]; then t3cmd="head -n 1"; feed="(echo attach-x; sleep 1)"; fi
  cg_run dk run -d -i --name t3 --network none $IMG $t3cmd
  if [ $CG_RC -ne 0 ]; then fail "attach: setup" "docker run -d -i failed"; return; fi
  expect_output "echo x | docker attach" attach-x \
    sh -c "$feed | DOCKER_HOST=unix://$R1/docker.sock timeout -k 2 $((CG_TIMEOUT - 5)) docker attach --sig-proxy=false t3"
  dk rm -f t3 >/dev/null 2>&1; bk_rm t3
}

s_podman_remote() {
  podman_only "podman --remote" || return 0
  expect_output "podman --remote run --rm echo" hi pm run --rm --network none $IMG echo hi
  expect_ok "podman --remote pod create" pm pod create --name p1 --network none
  expect_output "podman --remote pod ps" p1 pm pod ps --format '{{.Name}}'
  expect_ok "podman --remote pod rm" pm pod rm -f p1
  bk_rm p1
}

# routes.md §2 as amended: podman --remote escapes an image name's '/' as %2F on every image
# route; both daemons decode it once and read the plain name (measured here first, directly)
s_encoded_image_names() {
  local a b img=localhost/cg-enc tar=$CG_TMP/cg-enc.tar
  a=$(curl -s -m 30 --unix-socket "$CG_BACKEND_SOCK" "http://d/v1.41/images/localhost%2Fbusybox/json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Id"])' 2>&1)
  b=$(curl -s -m 30 --unix-socket "$CG_BACKEND_SOCK" "http://d/v1.41/images/localhost/busybox/json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Id"])' 2>&1)
  if [ -n "$a" ] && [ "$a" = "$b" ]; then pass "measured: $CG_BACKEND reads images/localhost%2Fbusybox as images/localhost/busybox"
  else fail "measured: $CG_BACKEND reads images/localhost%2Fbusybox as images/localhost/busybox" "$a vs $b" quiet; fi
  expect_output "inspect with %2F through the gateway" "$b" \
    curl -s -m 30 --unix-socket "$R1/docker.sock" "http://d/v1.41/images/localhost%2Fbusybox/json"
  expect_output "a %2F outside an image name stays refused" "path is not normalised" \
    curl -s -m 30 --unix-socket "$R1/docker.sock" "http://d/v1.41/containers%2Fjson"
  podman_only "podman --remote image commands with a '/' in the name" || return 0
  dk create --name cg-enc --network none $IMG true >/dev/null 2>&1
  expect_ok "podman --remote commit localhost/cg-enc:1" pm commit cg-enc $img:1
  expect_output "podman --remote image inspect localhost/cg-enc:1" "$img:1" pm image inspect --format '{{.RepoTags}}' $img:1
  expect_ok "podman --remote image exists localhost/cg-enc:1" pm image exists $img:1
  expect_output "podman --remote image history localhost/cg-enc:1" "FROM $IMG" pm image history --no-trunc $img:1
  expect_ok "podman --remote tag localhost/cg-enc:1 localhost/cg-enc:2" pm tag $img:1 $img:2
  expect_ok "podman --remote untag localhost/cg-enc:2" pm untag $img:2 $img:2
  expect_ok "podman --remote save localhost/cg-enc:1" pm save -o "$tar" $img:1
  expect_fail_match "podman --remote push stays refused" "container-gateway: (denied-endpoint|malformed)" \
    pm push $img:1 dir:$CG_TMP/pushed
  expect_fail_match "podman --remote tag of a shared image is not found" "$NOTFOUND" pm tag $IMG localhost/cg-enc-bb:1
  expect_ok "podman --remote rmi localhost/cg-enc:1" pm rmi $img:1
  cg_run bk image inspect $img:1
  if [ $CG_RC -ne 0 ]; then pass "the image is gone"; else fail "the image is gone" "still there" quiet; fi
  bk_rm cg-enc
  rm -f "$tar"
}

# policy.md rule 20 as amended: docker run -P publishes every exposed port on 127.0.0.1 with an
# ephemeral host port (the monitor rewrites PublishAllPorts); docker port shows them; nothing
# listens beyond 127.0.0.1. The private dockerd has no default bridge: there on a project network.
s_publish_all() {
  local ctx=$CG_TMP/pub-ctx net=() p q
  mkdir -p "$ctx"
  printf 'FROM %s\nEXPOSE 8080 9090/udp\nCMD ["sh","-c","echo pub-ok > /tmp/i; exec httpd -f -p 8080 -h /tmp"]\n' "$IMG" >"$ctx/Dockerfile"
  expect_ok "docker build of an image exposing 8080 and 9090/udp" env DOCKER_BUILDKIT=0 \
    DOCKER_HOST="unix://$R1/docker.sock" timeout 120 docker build -q -t localhost/cg-pub:1 "$ctx"
  if [ "$CG_BACKEND" = docker ]; then dk network create cg-pubnet >/dev/null; net=(--network cg-pubnet); fi
  expect_ok "docker run -d -P" dk run -d -P "${net[@]}" --name cg-pub localhost/cg-pub:1
  expect_output "docker port: 8080/tcp on 127.0.0.1" "8080/tcp -> 127.0.0.1:" dk port cg-pub
  expect_output "docker port: 9090/udp on 127.0.0.1" "9090/udp -> 127.0.0.1:" dk port cg-pub
  cg_run bk inspect -f '{{.HostConfig.PublishAllPorts}} {{json .HostConfig.PortBindings}}' cg-pub
  if [[ $CG_OUT == "false "* ]] && [[ $CG_OUT == *'"8080/tcp":[{"HostIp":"127.0.0.1"'* ]] && [[ $CG_OUT != *0.0.0.0* ]]; then
    pass "the daemon got explicit 127.0.0.1 bindings, no PublishAllPorts"
  else fail "the daemon got explicit 127.0.0.1 bindings, no PublishAllPorts" "$CG_OUT" quiet; fi
  p=$(dk port cg-pub 8080/tcp 2>/dev/null | head -n 1); p=${p##*:}
  q=$(dk port cg-pub 9090/udp 2>/dev/null | head -n 1); q=${q##*:}
  cg_run ss -Htlnu
  if [ -n "$p" ] && grep -qE "127\.0\.0\.1:$p " <<<"$CG_OUT" && ! grep -qE "(0\.0\.0\.0|\*|\[::\]):($p|$q) " <<<"$CG_OUT"; then
    pass "ss: ports $p/tcp and $q/udp listen on 127.0.0.1 only"
  else fail "ss: ports $p/tcp and $q/udp listen on 127.0.0.1 only" "$(grep -E ":($p|$q) " <<<"$CG_OUT")" quiet; fi
  if [ "$CG_BACKEND" = podman ]; then
    expect_output "the published port answers on 127.0.0.1" pub-ok cg_wait_http "http://127.0.0.1:$p/i"
    expect_ok "podman --remote run -d -P" pm run -d -P --name cg-pub-p localhost/cg-pub:1
    expect_output "podman --remote port: 8080/tcp on 127.0.0.1" "8080/tcp -> 127.0.0.1:" pm port cg-pub-p
  fi
  bk_rm cg-pub cg-pub-p
  [ "$CG_BACKEND" = docker ] && dk network rm cg-pubnet >/dev/null 2>&1
  bk image rm localhost/cg-pub:1 >/dev/null 2>&1
  rm -rf "$ctx"
}
# An image whose EXPOSE names sctp (measured, podman 4.3.1: its compat inspect answers 500
# "invalid port proto", and the daemon refuses a container from it on both APIs, "protocol
# SCTP is not allowed for exposed ports"): the refusal names the image and quotes the daemon,
# instead of "unexpected image inspect response".
s_expose_sctp() {
  if [ "$CG_BACKEND" != podman ]; then skip "expose sctp" "podman's inspect only"; return; fi
  local ctx=$CG_TMP/sctp-ctx
  mkdir -p "$ctx"; printf 'FROM %s\nEXPOSE 7003/sctp\n' "$IMG" >"$ctx/Dockerfile"
  expect_ok "build of an image exposing 7003/sctp" env DOCKER_BUILDKIT=0 \
    DOCKER_HOST="unix://$CG_BACKEND_SOCK" timeout 120 docker build -q -t localhost/cg-sctp:1 "$ctx"
  expect_fail_with "docker create from it: the daemon's own reason" \
    'cannot inspect image localhost/cg-sctp:1 (status 500: ' dk create localhost/cg-sctp:1 true
  bk image rm localhost/cg-sctp:1 >/dev/null 2>&1
  rm -rf "$ctx"
}
# cg_wait_http URL: the body, once the URL answers (10 s)
cg_wait_http() {
  local i
  for i in $(seq 1 100); do curl -sf -m 2 "$1" && return 0; sleep 0.1; done
  return 1
}

s_sandbox() {
  if [ "$CG_DIRECT" = 1 ]; then skip "sandbox" "CG_DIRECT=1 (no gateway)"; return; fi
  local gw=$GW1 kids k st ok=0 bad=0 held
  # hold a client connection open (sends nothing; exits when the gateway closes it)
  cg_bg timeout 120 python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
print("connected", flush=True)
s.recv(1)' "$R1/docker.sock" >"$CG_TMP/held.out" 2>&1
  held=$CG_BG_PID
  for _ in $(seq 300); do grep -q connected "$CG_TMP/held.out" 2>/dev/null && break; sleep 0.1; done
  # until the monitor has handed the connection to a child (it holds the client as fd 4)
  for _ in $(seq 300); do
    for k in $(cg_children "$gw"); do [ -e /proc/$k/fd/4 ] && break 2; done
    sleep 0.1
  done
  kids=$(cg_children "$gw")
  if [ -z "$kids" ]; then fail "sandbox: monitor has children while a connection is open" "none" quiet; return; fi
  pass "sandbox: monitor has children while a connection is open ($(echo $kids))"
  for k in $kids; do
    # a spare child forked an instant ago may still be setting up its sandbox
    for _ in $(seq 200); do
      st=$(cat /proc/$k/status 2>/dev/null) || break
      grep -q '^Seccomp:[[:space:]]*2$' <<<"$st" && break
      sleep 0.05
    done
    [ -n "$st" ] || continue
    if grep -q '^Seccomp:[[:space:]]*2$' <<<"$st" && grep -q '^NoNewPrivs:[[:space:]]*1$' <<<"$st" &&
       grep -q '^CapEff:[[:space:]]*0000000000000000$' <<<"$st" && grep -q '^CapPrm:[[:space:]]*0000000000000000$' <<<"$st"; then
      ok=$((ok + 1))
      # root: uid 65534 in an empty chroot; not root: its own user namespace
      if [ "$(id -u)" = 0 ] && ! grep -qE '^Uid:[[:space:]]+65534[[:space:]]+65534' <<<"$st"; then
        fail "sandbox: child $k runs as 65534" "$(grep '^Uid' <<<"$st")" quiet
      elif [ "$(id -u)" != 0 ] && [ "$(readlink /proc/$k/ns/user)" = "$(readlink /proc/self/ns/user)" ]; then
        fail "sandbox: child $k has a user namespace of its own" "$(readlink /proc/$k/ns/user)" quiet
      fi
    else
      bad=$((bad + 1))
      fail "sandbox: child $k is sandboxed" "$(grep -E '^(Seccomp|NoNewPrivs|CapEff|CapPrm):' <<<"$st" | tr '\n\t' '  ')" quiet
    fi
  done
  if [ $ok -gt 0 ] && [ $bad -eq 0 ]; then pass "sandbox: children have Seccomp 2, NoNewPrivs 1, CapEff/CapPrm 0"; fi
  # the pinner (doc/privsep.md "The pinner"): CAP_DAC_OVERRIDE and CAP_SYS_ADMIN only, an
  # empty bounding set, no_new_privs, its own seccomp filter
  local pin
  pin=$(cg_pinner "$gw")
  st=$(cat /proc/"$pin"/status 2>/dev/null)
  if [ -n "$pin" ] && grep -q '^Seccomp:[[:space:]]*2$' <<<"$st" && grep -q '^NoNewPrivs:[[:space:]]*1$' <<<"$st" &&
     grep -q '^CapEff:[[:space:]]*0000000000200002$' <<<"$st" && grep -q '^CapPrm:[[:space:]]*0000000000200002$' <<<"$st" &&
     grep -q '^CapBnd:[[:space:]]*0000000000000000$' <<<"$st"; then
    pass "sandbox: the pinner keeps CAP_DAC_OVERRIDE and CAP_SYS_ADMIN only, Seccomp 2, NoNewPrivs 1"
  else fail "sandbox: the pinner is confined" "pid ${pin:-none}: $(grep -E '^(Seccomp|NoNewPrivs|CapEff|CapPrm|CapBnd):' <<<"$st" | tr '\n\t' '  ')" quiet; fi
  # a fresh image (the zygote, fexecve'd once) and forks of it, not forks carrying the
  # monitor's heap: its argv, an empty environment; one zygote, the rest request parsers
  local fresh=1 nz=0
  for k in $kids; do
    [ -r /proc/$k/cmdline ] || continue
    case $(tr '\0' ' ' < /proc/$k/cmdline) in container-gateway-request-parser\ *) ;; *) fresh=0 ;; esac
    [ -s /proc/$k/environ ] && fresh=0
    [ "$(cat /proc/$k/comm 2>/dev/null)" = cg-zygote ] && nz=$((nz + 1))
  done
  if [ $fresh = 1 ]; then pass "sandbox: children come from a fresh image (argv container-gateway-request-parser, no environment)"
  else fail "sandbox: children come from a fresh image" "$(for k in $kids; do tr '\0' ' ' < /proc/$k/cmdline; echo; done)" quiet; fi
  if [ $nz = 1 ]; then pass "sandbox: one zygote among the monitor's children"
  else fail "sandbox: one zygote among the monitor's children" "$nz zygotes: $(for k in $kids; do cat /proc/$k/comm; done | tr '\n' ' ')" quiet; fi
  # SIGKILL every request parser: the held connection must close, the gateway must keep
  # serving (the zygote forks new ones). The zygote's own death stops the gateway (the
  # confined monitor cannot start another; tests/ops/confine.sh)
  kill -KILL $(cg_parsers "$gw") 2>/dev/null
  for _ in $(seq 300); do kill -0 "$held" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$held" 2>/dev/null; then fail "sandbox: client connection closes with its child" "still open 30 s after SIGKILL" quiet
  else pass "sandbox: client connection closes with its child"; fi
  if kill -0 "$gw" 2>/dev/null; then pass "sandbox: gateway survives SIGKILL of its request parsers"
  else fail "sandbox: gateway survives SIGKILL of its request parsers" "gateway pid $gw gone" quiet; fi
  expect_ok "sandbox: docker ps after the kill" dk ps
}

# A live request parser that calls open(), socket() or execve() (injected with gdb, as a
# compromised parser would) dies of SIGSYS; the monitor logs it and keeps serving.
s_sandbox_syscalls() {
  if [ "$CG_DIRECT" = 1 ]; then skip "sandbox syscalls" "CG_DIRECT=1 (no gateway)"; return; fi
  if ! command -v gdb >/dev/null; then fail "sandbox syscalls" "gdb is not installed" quiet; return; fi
  local gw=$GW1 call nr expr held k child log="$R1.log"
  for call in open socket execve; do
    case $call in
      open) expr='call (long)syscall(2, "/etc/passwd", 0)' ;;
      socket) expr='call (long)syscall(41, 1, 1, 0)' ;;
      execve) expr='call (long)syscall(59, "/bin/sh", 0, 0)' ;;
    esac
    cg_bg timeout 60 python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
print("connected", flush=True)
s.recv(1)' "$R1/docker.sock" >"$CG_TMP/held-$call.out" 2>&1
    held=$CG_BG_PID
    for _ in $(seq 300); do grep -q connected "$CG_TMP/held-$call.out" 2>/dev/null && break; sleep 0.1; done
    child=
    for _ in $(seq 300); do   # the child that holds a client socket as fd 4
      for k in $(cg_children "$gw"); do
        [ -e /proc/$k/fd/4 ] && child=$k
      done
      [ -n "$child" ] && break; sleep 0.1
    done
    if [ -z "$child" ]; then fail "sandbox: $call in a live parser" "no child holds the connection" quiet; continue; fi
    timeout 30 gdb -p "$child" -batch -ex "$expr" >"$CG_TMP/gdb-$call.out" 2>&1
    for _ in $(seq 300); do grep -q "(pid $child) died: SIGSYS" "$log" && break; sleep 0.1; done
    if grep -q "(pid $child) died: SIGSYS" "$log"; then pass "sandbox: $call in a live parser is killed by SIGSYS"
    else fail "sandbox: $call in a live parser is killed by SIGSYS" "$(grep -E "pid $child" "$log" | tail -n 2)" quiet; fi
    for _ in $(seq 300); do kill -0 "$held" 2>/dev/null || break; sleep 0.1; done
  done
  expect_ok "sandbox: the gateway serves other connections after the kills" dk ps
}

# Streamed responses nobody reads any more (events, logs -f, wait) end with their client:
# the parser notices the hang-up and the monitor drops the backend exchange. A client that
# only half-closes still gets its whole response (http.md §1.4).
s_abandoned_streams() {
  if [ "$CG_DIRECT" = 1 ]; then skip "abandoned streams" "CG_DIRECT=1 (no gateway)"; return; fi
  local gw=$GW1 n
  if timeout 30 python3 - "$R1/docker.sock" <<'PY'
import socket, sys, time
socks = []
for _ in range(5):
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
    s.sendall(b"GET /v1.41/events HTTP/1.1\r\nHost: d\r\n\r\n")
    socks.append(s)
for s in socks:
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += s.recv(4096)
    assert buf.startswith(b"HTTP/1.1 200"), buf[:40]
for s in socks:
    s.close()
PY
  then pass "abandoned streams: five event streams opened and closed"
  else fail "abandoned streams: five event streams opened and closed" "client failed" quiet; return; fi
  for _ in $(seq 300); do
    n=$(cg_parsers "$gw" | wc -w)
    [ "$n" -le 1 ] && break; sleep 0.1
  done
  if [ "$n" -le 1 ]; then pass "abandoned streams: their request parsers exit (children left: $n)"
  else fail "abandoned streams: their request parsers exit" "$n children 30 s after the clients left" quiet; fi
  if timeout 20 python3 - "$R1/docker.sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b"GET /v1.41/version HTTP/1.1\r\nHost: d\r\n\r\n")
s.shutdown(socket.SHUT_WR)
buf = b""
while True:
    d = s.recv(65536)
    if not d: break
    buf += d
assert buf.startswith(b"HTTP/1.1 200") and b"ApiVersion" in buf, buf[:80]
PY
  then pass "half-closed client still gets the whole response"
  else fail "half-closed client still gets the whole response" "no complete response" quiet; fi
}

ALL=(s_run_rm s_detached_lifecycle s_bind_inside s_refusals s_isolation s_cp s_stdin
     s_podman_remote s_encoded_image_names s_publish_all s_expose_sctp s_sandbox s_sandbox_syscalls s_abandoned_streams)

# ---- main -------------------------------------------------------------------------
if [ "$CG_BACKEND" = docker ]; then need=(docker dockerd containerd curl timeout); else need=(docker podman curl timeout); fi
cg_need "${need[@]}"
cg_need_gateway
cg_two_gateways || exit
cg_run_scenarios "$@"
cg_summary
