#!/bin/bash
# tests/integration/tools.sh — the everyday tools through the gateway:
# docker-compose 1.29, the Python Docker SDK, the classic builder of the docker CLI and
# `podman --remote build` (and its refusal of a dockerfile podman would run through the
# host's cpp, measured: t_build_cpp), and three refusals (volume driver options, network connect of
# another project's container, an inline seccomp profile), seccomp values the daemons read as
# profile files (t_seccomp_default, t_build_seccomp_case, measured), engine-reserved
# annotations through a build or the image a container is made from (t_image_annotations,
# measured), skopeo's docker-daemon: transport on API v1.22 (t_old_api_versions), against
# a private rootful
# podman service, or with CG_BACKEND=docker against a private dockerd (podman-only
# checks are skipped then: the gateway serves docker.sock alone).
#
#   tests/integration/tools.sh             all scenarios
#   tests/integration/tools.sh t_compose   only the named scenario functions
#   CG_BACKEND=docker tests/integration/tools.sh
#
# Needs root, the docker CLI, docker-compose, python3-docker, curl (and podman for the
# podman backend). Exit status 77 = skipped (not root); otherwise non-zero when any
# check failed. Last line: "N passed, M failed". See lib.sh for the environment.
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP integration: needs root (rootful backend)"
  exit 77
fi
. "$(dirname "$0")/lib.sh"

# the docker CLI has no pod command: t_image_annotations' pod goes through the libpod API
rm_annpod() { curl -s -o /dev/null -m 30 -X DELETE --unix-socket "$CG_BACKEND_SOCK" \
  'http://d/v4.3.1/libpod/pods/cgt-annpod?force=true'; return 0; }

# ---- docker-compose 1.29 ------------------------------------------------------------
t_compose() {
  local d=$P1/compose cp=cgtc
  mkdir -p "$d"
  cat > "$d/docker-compose.yml" <<YML
version: "3.7"
services:
  web:
    image: $IMG
    command: sleep 300
    volumes:
      - data:/data
    networks:
      - net
  worker:
    image: $IMG
    command: sleep 300
    volumes:
      - data:/shared
    networks:
      - net
    depends_on:
      - web
volumes:
  data: {}
networks:
  net: {}
YML
  dc() { ( cd "$d" && DOCKER_HOST="unix://$R1/docker.sock" COMPOSE_HTTP_TIMEOUT=60 cg_timeout docker-compose -p $cp "$@" ); }
  expect_ok "compose up -d" dc up -d
  cg_run dc ps
  if [ $CG_RC -ne 0 ]; then fail "compose ps" "exit $CG_RC"
  elif [ "$(grep -cE "^${cp}_(web|worker)_1 .* Up" <<<"$CG_OUT")" -ne 2 ]; then fail "compose ps lists both services Up" "$(echo $CG_OUT)" quiet
  else pass "compose ps lists both services Up"; fi
  # compose's objects are the project's: labelled, and on the backend
  expect_output "compose network carries the project label" "$P1" \
    bk network inspect -f "{{index .Labels \"$KEY\"}}" ${cp}_net
  expect_output "compose volume carries the project label" "$P1" \
    bk volume inspect -f "{{index .Labels \"$KEY\"}}" ${cp}_data
  expect_output "compose container carries the project label" "$P1" \
    bk inspect -f "{{index .Config.Labels \"$KEY\"}}" ${cp}_web_1
  # the two services share the volume and the network
  expect_output "compose exec (docker-py exec body)" compose-exec dc exec -T web echo compose-exec
  expect_ok "compose: write to the shared volume" dk exec ${cp}_web_1 sh -c 'echo vol-ok > /data/f'
  expect_output "compose: the other service reads it" vol-ok dk exec ${cp}_worker_1 cat /shared/f
  expect_output "compose: service on the project network" "${cp}_net" \
    dk inspect -f '{{range $k, $v := .NetworkSettings.Networks}}{{$k}} {{end}}' ${cp}_worker_1
  # another project sees none of it
  cg_run dk2 ps -a --format '{{.Names}}'
  if [ $CG_RC -eq 0 ] && [[ $CG_OUT != *${cp}_* ]]; then pass "compose: second project does not see the services"
  else fail "compose: second project does not see the services" "exit $CG_RC: $(echo $CG_OUT)" quiet; fi
  expect_ok "compose down -v" dc down -v -t 1
  cg_run bk ps -aq --filter "label=com.docker.compose.project=$cp"
  local left=$CG_OUT
  cg_run bk network ls -q --filter "name=${cp}_net"
  left="$left$CG_OUT"
  cg_run bk volume ls -q --filter "name=${cp}_data"
  left="$left$CG_OUT"
  if [ -z "$left" ]; then pass "compose down -v left no container, network or volume"
  else fail "compose down -v left no container, network or volume" "backend has: $(echo $left)" quiet; fi
  bk_q rm -f ${cp}_web_1 ${cp}_worker_1; bk_q network rm ${cp}_net; bk_q volume rm ${cp}_data
}

# ---- Python Docker SDK ----------------------------------------------------------------
t_sdk() {
  local out
  out=$(cg_timeout "$PY3" - "$R1/docker.sock" "$IMG" "$KEY" "$P1" <<'PY' 2>&1
import sys, docker
sock, img, key, root = sys.argv[1:5]
c = docker.DockerClient(base_url="unix://" + sock, timeout=60)
def say(ok, name, why=""):
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + why), flush=True)
print("# docker SDK " + docker.__version__ + " from " + docker.__file__, flush=True)
try:
    ctr = c.containers.create(img, ["sleep", "300"], name="sdk1", network_mode="none")
    say(True, "sdk: containers.create")
except Exception as e:
    say(False, "sdk: containers.create", repr(e)); sys.exit(0)
try:
    ctr.start(); ctr.reload()
    say(ctr.status == "running", "sdk: start", "status " + ctr.status)
    ids = [x.id for x in c.containers.list(all=True)]
    say(ctr.id in ids, "sdk: containers.list has it", str(ids))
    say(ctr.labels.get(key) == root, "sdk: container carries the project label", str(ctr.labels))
    r = ctr.exec_run(["echo", "sdk-exec"])
    say(r.exit_code == 0 and b"sdk-exec" in r.output, "sdk: exec_run", repr(r))
    out = c.containers.run(img, ["echo", "sdk-run"], network_mode="none", remove=True)
    say(b"sdk-run" in out, "sdk: containers.run(remove=True)", repr(out))
    try:
        c.containers.run(img, "true", privileged=True, network_mode="none", remove=True)
        say(False, "sdk: privileged refused", "succeeded")
    except docker.errors.APIError as e:
        say(e.status_code == 403 and "container-gateway: privileged" in str(e), "sdk: privileged refused", str(e))
finally:
    try:
        ctr.remove(force=True)
        say(True, "sdk: remove")
    except Exception as e:
        say(False, "sdk: remove", repr(e))
try:
    c.containers.get("sdk1")
    say(False, "sdk: gone after remove", "still there")
except docker.errors.NotFound:
    say(True, "sdk: gone after remove")
PY
)
  local rc=$? l
  while IFS= read -r l; do
    case $l in
      "PASS "*) pass "${l#PASS }" ;;
      "FAIL "*) fail "${l#FAIL }" "" quiet ;;
      "# "*) echo "$l" ;;
      *) [ -n "$l" ] && echo "    | $l" ;;
    esac
  done <<<"$out"
  [ $rc -eq 0 ] || fail "sdk: python exits 0" "exit $rc" quiet
  bk_q rm -f sdk1
}

# ---- builds ---------------------------------------------------------------------------
t_build() {
  local d=$P1/build
  mkdir -p "$d"
  printf 'FROM %s\nRUN echo hi > /x\nLABEL a=b\n' "$IMG" > "$d/Dockerfile"
  expect_ok "DOCKER_BUILDKIT=0 docker build" \
    env DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$R1/docker.sock" timeout -k 5 "$CG_TIMEOUT" docker build -q -t localhost/cgt-dbuild:1 "$d"
  expect_output "docker build: the image has the project label" "$P1" \
    dk image inspect -f "{{index .Config.Labels \"$KEY\"}}" localhost/cgt-dbuild:1
  expect_output "docker build: the image has LABEL a=b" "b" \
    dk image inspect -f '{{index .Config.Labels "a"}}' localhost/cgt-dbuild:1
  expect_output "docker build: RUN ran" hi dk run --rm --network none localhost/cgt-dbuild:1 cat /x
  # (docker CLI 28 with DOCKER_BUILDKIT=1 stops by itself when buildx is missing, so the
  # request BuildKit would send is made with curl)
  cg_run curl -s -m 10 --unix-socket "$R1/docker.sock" -X POST -H 'Content-Type: application/x-tar' \
    --data-binary '' 'http://d/v1.41/build?t=localhost%2Fcgt-bk%3A1&version=2'
  if [[ $CG_OUT == *"container-gateway: denied-endpoint: "*"DOCKER_BUILDKIT=0"* ]]; then pass "BuildKit build (version=2) refused with the DOCKER_BUILDKIT=0 hint"
  else fail "BuildKit build (version=2) refused with the DOCKER_BUILDKIT=0 hint" "got: $CG_OUT" quiet; fi
  expect_ok "docker rmi of the built image" dk rmi localhost/cgt-dbuild:1
  bk_q rmi -f localhost/cgt-dbuild:1
  if podman_only "podman --remote build"; then
    local pid
    expect_ok "podman --remote build" pm build -q -t localhost/cgt-pbuild:1 "$d"
    pid=$(tail -n 1 <<<"$CG_OUT")
    # by id: podman-remote sends a name with a slash as images/localhost%2F…/json, and
    # the gateway refuses any percent-encoding in a path (routes.md §2, B04)
    expect_output "podman build: the image has the project label" "$P1" \
      pm image inspect -f "{{index .Config.Labels \"$KEY\"}}" "$pid"
    expect_output "podman build: the image has LABEL a=b" "b" \
      pm image inspect -f '{{index .Config.Labels "a"}}' "$pid"
    expect_output "podman build: docker CLI sees the project label" "$P1" \
      dk image inspect -f "{{index .Config.Labels \"$KEY\"}}" localhost/cgt-pbuild:1
    expect_output "podman build: RUN ran" hi pm run --rm --network none localhost/cgt-pbuild:1 cat /x
    expect_ok "podman rmi of the built image" pm rmi localhost/cgt-pbuild:1
    bk_q rmi -f localhost/cgt-pbuild:1
  fi
}

# ---- redteam5 F3: a dockerfile named *.in is run through cpp on the host ----------------
# The measurement (podman only): buildah preprocesses a dockerfile whose name ends in ".in"
# (exactly that case, after podman cleans the path; list form too) with the host's cpp, so
# `#include "<host file>"` streams a root-readable host file back in the parse error.
# Through the gateway every such name is refused (denied-build-parameter), nothing leaks;
# ".IN" is no template for podman and builds as a plain Dockerfile.
# cpp_build SOCK API DOCKERFILE: raw build of the context tar $CG_TMP/cpp.tar
cpp_build() {
  curl -s -m 60 -i -X POST -H 'Content-Type: application/x-tar' --data-binary @"$CG_TMP/cpp.tar" \
    --unix-socket "$1" "http://d$2/build?t=localhost%2Fcgt-cpp%3A1&dockerfile=$(python3 -c \
    'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$3")"
}
t_build_cpp() {
  local d=$P1/buildcpp secret=$CG_TMP/host-secret tok="TOPSECRET-$RANDOM$RANDOM" f
  mkdir -p "$d/sub"
  echo "$tok" > "$secret"; chmod 600 "$secret"
  printf 'FROM %s\n#include "%s"\n' "$IMG" "$secret" > "$d/Containerfile.in"
  cp "$d/Containerfile.in" "$d/Containerfile.IN"; cp "$d/Containerfile.in" "$d/sub/x.in"
  tar -C "$d" -cf "$CG_TMP/cpp.tar" .
  if podman_only "podman runs cpp on *.in dockerfiles (measurement)"; then
    for f in Containerfile.in '["sub/x.in/"]' ./sub/x.in/.; do
      cpp_build "$CG_BACKEND_SOCK" /v1.41 "$f" > "$CG_TMP/cpp.out"
      if grep -q "$tok" "$CG_TMP/cpp.out"; then pass "measured: podman runs cpp on the host for dockerfile $f"
      else fail "measured: podman runs cpp on the host for dockerfile $f" "$(head -c 300 "$CG_TMP/cpp.out")" quiet; fi
    done
    cpp_build "$CG_BACKEND_SOCK" /v1.41 Containerfile.IN > "$CG_TMP/cpp.out"
    if grep -q "^HTTP/1.1 200" "$CG_TMP/cpp.out" && ! grep -q "$tok" "$CG_TMP/cpp.out"; then
      pass "measured: podman does not run cpp for dockerfile Containerfile.IN"
    else fail "measured: podman does not run cpp for dockerfile Containerfile.IN" "$(head -c 300 "$CG_TMP/cpp.out")" quiet; fi
    bk_q rmi -f localhost/cgt-cpp:1
  fi
  cg_run env DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$R1/docker.sock" timeout -k 5 "$CG_TIMEOUT" \
    docker build -t localhost/cgt-cpp:1 -f "$d/Containerfile.in" "$d"
  if [ $CG_RC -ne 0 ] && [[ $CG_OUT == *"container-gateway: denied-build-parameter: dockerfile Containerfile.in is refused: podman runs a *.in file through cpp on the host; rename it"* ]] &&
     [[ $CG_OUT != *"$tok"* ]]; then pass "docker build -f Containerfile.in refused, nothing leaked"
  else fail "docker build -f Containerfile.in refused, nothing leaked" "exit $CG_RC"; fi
  for f in '["sub/x.in/"]' sub/x.in/. .in; do
    cg_run cpp_build "$R1/docker.sock" /v1.41 "$f"
    if [[ $CG_OUT == "HTTP/1.1 403"*"denied-build-parameter"* ]] && [[ $CG_OUT != *"$tok"* ]]; then pass "compat build dockerfile=$f refused"
    else fail "compat build dockerfile=$f refused" "$(head -c 200 <<<"$CG_OUT")" quiet; fi
  done
  if podman_only "podman --remote build -f Containerfile.in"; then
    expect_fail_with "podman --remote build -f Containerfile.in refused" \
      "container-gateway: denied-build-parameter: dockerfile Containerfile.in is refused" \
      pm build -t localhost/cgt-cpp:1 -f "$d/Containerfile.in" "$d"
    [[ $CG_OUT != *"$tok"* ]] && pass "podman --remote build: nothing leaked" || fail "podman --remote build: nothing leaked" "" quiet
    cg_run cpp_build "$R1/podman.sock" /v4.3.1/libpod '["sub/x.in/"]'
    if [[ $CG_OUT == "HTTP/1.1 403"*"denied-build-parameter"* ]]; then pass "libpod build dockerfile=[\"sub/x.in/\"] refused"
    else fail "libpod build dockerfile=[\"sub/x.in/\"] refused" "$(head -c 200 <<<"$CG_OUT")" quiet; fi
  fi
  if cg_run bk image inspect localhost/cgt-cpp:1; then fail "refused cpp builds left no image" "localhost/cgt-cpp:1 exists" quiet
  else pass "refused cpp builds left no image"; fi
  expect_ok "docker build -f Containerfile.IN builds (podman runs no cpp on it)" \
    env DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$R1/docker.sock" timeout -k 5 "$CG_TIMEOUT" \
    docker build -q -t localhost/cgt-cpp:1 -f "$d/Containerfile.IN" "$d"
  bk_q rmi -f localhost/cgt-cpp:1
  rm -f "$secret" "$CG_TMP/cpp.tar" "$CG_TMP/cpp.out"
}

# ---- refusals -------------------------------------------------------------------------
t_volume_driver() {
  expect_fail_with "volume create -o type=none -o o=bind -o device=/ refused" "container-gateway: volume-driver" \
    dk volume create -o type=none -o o=bind -o device=/ cgtv
  cg_run bk volume ls -q --filter name=cgtv
  if [ $CG_RC -eq 0 ] && [ -z "$CG_OUT" ]; then pass "refused volume create left no volume"
  else fail "refused volume create left no volume" "backend has: $(echo $CG_OUT)" quiet; bk_q volume rm -f cgtv; fi
  expect_ok "plain volume create" dk volume create cgtv2
  expect_output "plain volume carries the project label" "$P1" \
    bk volume inspect -f "{{index .Labels \"$KEY\"}}" cgtv2
  expect_ok "volume rm" dk volume rm cgtv2
  bk_q volume rm -f cgtv2
}

t_network_connect() {
  cg_run dk2 create --name cgt-other --network none $IMG sleep 300
  if [ $CG_RC -ne 0 ]; then fail "network connect: setup (project 2 container)" "exit $CG_RC"; return; fi
  local other=$CG_OUT
  if ! cg_run dk network create cgtn1; then fail "network connect: setup (network create)" "exit $CG_RC"; bk_q rm -f cgt-other; return; fi
  pass "network create"
  expect_output "network carries the project label" "$P1" \
    bk network inspect -f "{{index .Labels \"$KEY\"}}" cgtn1
  expect_fail_match "network connect of another project's container refused (404)" "$NOTFOUND" \
    dk network connect cgtn1 cgt-other
  expect_fail_match "network connect of another project's container by id refused (404)" "$NOTFOUND" \
    dk network connect cgtn1 "${other:0:12}"
  cg_run bk inspect -f '{{range $k, $v := .NetworkSettings.Networks}}{{$k}} {{end}}' cgt-other
  if [[ $CG_OUT != *cgtn1* ]]; then pass "refused connect changed nothing"
  else fail "refused connect changed nothing" "cgt-other is on cgtn1" quiet; fi
  # the own container may be connected and disconnected
  if cg_run dk create --name cgt-own $IMG sleep 300; then
    expect_ok "network connect of an own container" dk network connect cgtn1 cgt-own
    expect_ok "network disconnect of an own container" dk network disconnect cgtn1 cgt-own
  else fail "network connect: setup (own container)" "exit $CG_RC"; fi
  expect_fail_match "other project: network connect to our network is 404" '[Nn]o such network|not-found|not found' \
    dk2 network connect cgtn1 cgt-other
  dk rm -f cgt-own >/dev/null 2>&1
  expect_ok "network rm" dk network rm cgtn1
  bk_q rm -f cgt-own cgt-other; bk_q network rm cgtn1
}

t_seccomp() {
  local prof=$CG_TMP/allow-all.json
  echo '{"defaultAction":"SCMP_ACT_ALLOW"}' > "$prof"
  expect_fail_with "run --security-opt seccomp=<allow-all profile> refused" "container-gateway: security-opt" \
    dk run --rm --network none --security-opt "seccomp=$prof" $IMG true
  expect_fail_with "run --security-opt seccomp=unconfined refused" "container-gateway: security-opt" \
    dk run --rm --network none --security-opt seccomp=unconfined $IMG true
  cg_run bk ps -aq --filter "label=$KEY=$P1"
  if [ $CG_RC -eq 0 ] && [ -z "$CG_OUT" ]; then pass "refused runs left no container"
  else fail "refused runs left no container" "backend has: $(echo $CG_OUT)" quiet; [ -z "$CG_OUT" ] || bk_q rm -f $CG_OUT; fi
}

# A seccomp value is a profile file to podman 4.3.1, opened relative to the service's
# working directory ("default" and its case variants too: an allow-all file named default
# there unconfines the container), and inline JSON to dockerd 20.10, which then fails the
# start. Measured on the backend itself; through the gateway only an empty value passes
# (tool.md "Hardening beyond the spec"; policy.md §3.4 allowed "default" in any case).
# sd_create SOCKET NAME SECURITYOPT-JSON: raw compat create, status line and body
sd_create() {
  curl -s -i -m 30 -X POST -H 'Content-Type: application/json' --unix-socket "$1" \
    -d "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"HostConfig\":{\"SecurityOpt\":$3}}" \
    "http://d/v1.41/containers/create?name=$2"
}
# red team s7 F1/F2/F2b/F4: build t and from, and pod infra_image, must not name a transport
# (podman reads or writes that host path as root), and a refused build key passes only when
# empty as podman reads it (remote=null made podman delete its own working directory).
tr_build() {   # SOCK PREFIX QUERY: a build of a one-line Containerfile, the answer on stdout
  curl -s -m 120 -i -X POST -H 'Content-Type: application/x-tar' --data-binary @"$CG_TMP/tr.tar" \
    --unix-socket "$1" "http://d$2/build?$3"
}
t_build_transports() {
  local d=$CG_TMP/trctx w=$CG_TMP/trw cwd= q v enc
  mkdir -p "$d" && printf 'FROM %s\n' "$IMG" > "$d/Containerfile"
  tar -C "$d" -cf "$CG_TMP/tr.tar" .
  enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
  if podman_only "libpod build transports"; then
    rm -rf "$w"
    tr_build "$CG_BACKEND_SOCK" /v4.3.1/libpod "dockerfile=Containerfile&t=$(enc "dir:$w")" >/dev/null
    if [ -f "$w/manifest.json" ]; then pass "measured (podman): libpod build t=dir:PATH writes the image to that host path"
    else fail "measured (podman): libpod build t=dir:PATH writes the image to that host path" "no $w/manifest.json" quiet; fi
    rm -rf "$w"
    for v in "dir:$w" "DIR:$w" "oci:$w:x" "oci-archive:$w.tar" "docker-archive:$w.tar"; do
      cg_run tr_build "$R1/podman.sock" /v4.3.1/libpod "dockerfile=Containerfile&t=localhost%2Fcgt-tr%3A1&t=$(enc "$v")"
      if [[ $CG_OUT == "HTTP/1.1 403"*"denied-build-parameter"*"names a transport"* ]] && [ ! -e "$w" ] && [ ! -e "$w.tar" ]; then
        pass "libpod build t=${v%%:*}:… refused, nothing written"
      else fail "libpod build t=${v%%:*}:… refused, nothing written" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    done
    cg_run tr_build "$R1/podman.sock" /v4.3.1/libpod "dockerfile=Containerfile&from=$(enc "docker-archive:$CG_TMP/none.tar")"
    if [[ $CG_OUT == "HTTP/1.1 403"*"denied-build-parameter"* ]]; then pass "libpod build from=docker-archive:… refused"
    else fail "libpod build from=docker-archive:… refused" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    # red team s8: any image lookup opens containers-storage:[driver@ROOT+RUNROOT] as a store
    curl -s -m 30 -g --unix-socket "$CG_BACKEND_SOCK" "http://d/v4.3.1/libpod/images/containers-storage:[vfs@$w+$w-run]x/json" >/dev/null
    if [ -d "$w" ]; then pass "measured (podman): an image lookup of containers-storage:[vfs@DIR+RUN]x creates DIR"
    else fail "measured (podman): an image lookup of containers-storage:[vfs@DIR+RUN]x creates DIR" "no $w" quiet; fi
    rm -rf "$w" "$w-run"
    for q in "images/containers-storage:[vfs@$w+$w-run]x/get" "images/containers-storage:[vfs@$w+$w-run]x/json" \
             "images/export?references=containers-storage:[vfs@$w%2B$w-run]x"; do
      cg_run curl -s -m 30 -g -i --unix-socket "$R1/podman.sock" "http://d/v4.3.1/libpod/$q"
      if [[ $CG_OUT == "HTTP/1.1 403"*"host-path"*"transport"* ]] && [ ! -e "$w" ]; then pass "libpod ${q%%\?*}: 403 host-path, no store made"
      else fail "libpod ${q%%\?*}: 403 host-path, no store made" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    done
    cg_run curl -s -m 30 -i --unix-socket "$R1/docker.sock" "http://d/v1.41/images/docker:dind/json"
    if [[ $CG_OUT != *"host-path"* ]]; then pass "docker:dind is an image name, not the docker transport"
    else fail "docker:dind is an image name, not the docker transport" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    cg_run curl -s -m 30 -i -X POST -H 'Content-Type: application/json' --unix-socket "$R1/podman.sock" \
      -d "{\"name\":\"cgt-trpod\",\"infra_image\":\"docker-archive:$CG_TMP/none.tar\"}" http://d/v4.3.1/libpod/pods/create
    if [[ $CG_OUT == "HTTP/1.1 403"*"host-path"*"names a transport"* ]]; then pass "libpod pod create infra_image=docker-archive:… refused"
    else fail "libpod pod create infra_image=docker-archive:… refused" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    # remote: podman takes any non-empty value as a context folder and deletes its parent
    cwd=$(readlink "/proc/$(cat "$CG_PM_DIR/service.pid" 2>/dev/null)/cwd" 2>/dev/null)
    [ -n "$cwd" ] && [ "$cwd" = "$CG_PM_CWD" ] && echo keep > "$cwd/marker"
    for v in null 0 false '[]' ' '; do
      cg_run tr_build "$R1/podman.sock" /v4.3.1/libpod "dockerfile=Containerfile&remote=$(enc "$v")"
      if [[ $CG_OUT == "HTTP/1.1 403"*"denied-build-parameter"*"(remote) is refused"* ]]; then pass "libpod build remote='$v' refused"
      else fail "libpod build remote='$v' refused" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    done
    if [ -n "$cwd" ] && [ "$cwd" = "$CG_PM_CWD" ]; then
      [ -f "$cwd/marker" ] && pass "podman's working directory is intact" || fail "podman's working directory is intact" "$cwd/marker is gone" quiet
      rm -f "$cwd/marker"
    fi
    cg_run tr_build "$R1/podman.sock" /v4.3.1/libpod "dockerfile=Containerfile&t=localhost%2Fcgt-tr%3A1&cgroupparent=null"
    if [[ $CG_OUT == "HTTP/1.1 403"*"denied-build-parameter"* ]]; then pass "libpod build cgroupparent=null refused"
    else fail "libpod build cgroupparent=null refused" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    cg_run tr_build "$R1/podman.sock" /v4.3.1/libpod "dockerfile=Containerfile&t=localhost%2Fcgt-tr%3A1&remote=&ulimits=null"
    if [[ $CG_OUT == "HTTP/1.1 200"* ]]; then pass "libpod build with remote= and ulimits=null (empty) still builds"
    else fail "libpod build with remote= and ulimits=null (empty) still builds" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
  fi
  cg_run tr_build "$R1/docker.sock" /v1.41 "dockerfile=Containerfile&t=$(enc "dir:$w")"
  if [[ $CG_OUT == "HTTP/1.1 403"*"denied-build-parameter"* ]] && [ ! -e "$w" ]; then pass "compat build t=dir:… refused"
  else fail "compat build t=dir:… refused" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
  expect_ok "docker build -t NAME:TAG still builds" env DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$R1/docker.sock" \
    timeout -k 5 "$CG_TIMEOUT" docker build -q -t localhost/cgt-tr:2 -f "$d/Containerfile" "$d"
  bk_q rmi -f localhost/cgt-tr:1 localhost/cgt-tr:2
  bk_q pod rm -f cgt-trpod
  rm -rf "$w" "$w.tar" "$d" "$CG_TMP/tr.tar"
}

# Annotations through the image (spec README, amendments of 2026-12-07). Measured on
# podman: a libpod build with annotations=[...] writes them into the image, and podman
# copies an image's annotations into the runtime config (config.json) of every container
# made from it, run.oci.*, org.systemd.property.* and io.containers.trace-syscall
# included. Through the gateway: such a build is refused (both APIs), and a create from
# an image that carries them (loaded, pulled or built elsewhere: made here straight on
# the backend) is refused by the monitor's image step: docker run, podman run, a pod
# whose infra image it is, and a pod whose default infra image it has become.
# Also measured: the image's project label never reaches the container (the gateway's
# label wins), so an image of another project ran with this project's label: now
# refused (red team rt10 F1).
t_image_annotations() {
  podman_only "image annotations" || return 0
  local d=$CG_TMP/anctx an cid cfg root pause built img=localhost/cgt-ann
  mkdir -p "$d" && printf 'FROM %s\n' "$IMG" > "$d/Containerfile" && tar -C "$d" -cf "$CG_TMP/tr.tar" .
  an=$(python3 -c 'import json, urllib.parse; print(urllib.parse.quote(json.dumps(["run.oci.keep_original_groups=1", "org.systemd.property.CPUQuota=50%", "io.containers.trace-syscall=of:/tmp/cgt-ann.json"]), safe=""))')
  tr_build "$CG_BACKEND_SOCK" /v4.3.1/libpod "dockerfile=Containerfile&t=$img&annotations=$an" >/dev/null
  cid=$(curl -s -m 60 -X POST -H 'Content-Type: application/json' --unix-socket "$CG_BACKEND_SOCK" \
        -d "{\"image\":\"$img\",\"command\":[\"true\"],\"name\":\"cgt-ann-direct\"}" \
        http://d/v4.3.1/libpod/containers/create | python3 -c 'import json,sys; print(json.load(sys.stdin).get("Id",""))')
  curl -s -m 60 -X POST --unix-socket "$CG_BACKEND_SOCK" "http://d/v4.3.1/libpod/containers/$cid/init" >/dev/null
  root=$(curl -s -m 30 --unix-socket "$CG_BACKEND_SOCK" http://d/v4.3.1/libpod/info |
         python3 -c 'import json,sys; print(json.load(sys.stdin)["store"]["graphRoot"])')
  cfg=$(find "$root" -path "*/$cid/userdata/config.json" 2>/dev/null | head -n 1)
  if [ -n "$cfg" ] && python3 - "$cfg" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])).get("annotations", {})
sys.exit(0 if all(k in a for k in ("run.oci.keep_original_groups", "org.systemd.property.CPUQuota",
                                   "io.containers.trace-syscall")) else 1)
PY
  then pass "measured (podman): an image's run.oci.*, org.systemd.property.* and trace-syscall annotations reach the container's runtime config"
  else fail "measured (podman): image annotations reach the container's runtime config" "config.json: ${cfg:-none}" quiet; fi
  bk_q rm -f cgt-ann-direct
  # a build with them is refused, on both APIs
  cg_run tr_build "$R1/podman.sock" /v4.3.1/libpod "dockerfile=Containerfile&t=localhost%2Fcgt-ann2&annotations=$an"
  if [[ $CG_OUT == "HTTP/1.1 403"*"container-gateway: annotations: build annotation run.oci.keep_original_groups is reserved"* ]]
  then pass "libpod build with reserved annotations: 403 annotations"
  else fail "libpod build with reserved annotations: 403 annotations" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
  cg_run tr_build "$R1/docker.sock" /v1.41 "dockerfile=Containerfile&t=localhost%2Fcgt-ann2&annotations=$an"
  if [[ $CG_OUT == "HTTP/1.1 403"*"container-gateway: annotations:"* ]]; then pass "compat build with reserved annotations: 403 annotations"
  else fail "compat build with reserved annotations: 403 annotations" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
  if bk image inspect localhost/cgt-ann2 >/dev/null 2>&1; then fail "the refused builds built nothing" "localhost/cgt-ann2 exists"
  else pass "the refused builds built nothing"; fi
  # no container from an image that carries them
  expect_fail_with "docker run of an image with reserved annotations refused" \
    "container-gateway: annotations: image $img carries the annotation" dk run --rm --network none "$img" true
  expect_fail_with "podman --remote run of an image with reserved annotations refused" \
    "container-gateway: annotations: image $img carries the annotation" pm run --rm --network none "$img" true
  cg_run curl -s -m 30 -i -X POST -H 'Content-Type: application/json' --unix-socket "$R1/podman.sock" \
    -d "{\"name\":\"cgt-annpod\",\"infra_image\":\"$img\"}" http://d/v4.3.1/libpod/pods/create
  if [[ $CG_OUT == "HTTP/1.1 403"*"container-gateway: annotations: image $img carries"* ]]; then pass "pod create with that infra image: 403 annotations"
  else fail "pod create with that infra image: 403 annotations" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
  # podman's default infra image, replaced by that image (a load can overwrite any tag)
  built=$(curl -s -m 30 --unix-socket "$CG_BACKEND_SOCK" http://d/v4.3.1/libpod/version |
          python3 -c 'import datetime,json,sys; d=json.load(sys.stdin); print(d["Version"] + "-%d" % datetime.datetime.fromisoformat(d["Components"][0]["Details"]["BuildTime"].replace("Z", "+00:00")).timestamp())')
  pause=localhost/podman-pause:$built
  if ! bk image inspect "$pause" >/dev/null 2>&1; then
    bk tag "$img" "$pause" >/dev/null
    cg_run curl -s -m 30 -i -X POST -H 'Content-Type: application/json' --unix-socket "$R1/podman.sock" \
      -d '{"name":"cgt-annpod"}' http://d/v4.3.1/libpod/pods/create
    if [[ $CG_OUT == "HTTP/1.1 403"*"container-gateway: annotations: image $pause carries"* ]]; then
      pass "pod create whose default infra image ($pause) carries them: 403 annotations"
    else fail "pod create whose default infra image carries them: 403 annotations" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    bk_q rmi "$pause"
  else skip "default infra image replaced" "$pause exists already on this podman"; fi
  if curl -s -o /dev/null -w '%{http_code}' --unix-socket "$CG_BACKEND_SOCK" http://d/v4.3.1/libpod/pods/cgt-annpod/exists | grep -q 204
  then fail "the refused pod creates made no pod" "cgt-annpod exists"; rm_annpod
  else pass "the refused pod creates made no pod"; fi
  expect_ok "podman --remote pod create with the default infra image" pm pod create --name cgt-annpod
  rm_annpod
  # the image's project label: another project's image runs with this project's label
  bk tag "$img" localhost/cgt-anp >/dev/null
  bk_q rmi "$img"
  printf 'FROM %s\nLABEL %s=%s\n' "$IMG" "$KEY" "$P2" > "$d/Containerfile"
  DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$CG_BACKEND_SOCK" timeout -k 5 "$CG_TIMEOUT" docker build -q -t localhost/cgt-anl \
    -f "$d/Containerfile" "$d" >/dev/null 2>&1
  # measured: the container would carry this project's label, not the image's, and run
  # the other project's image; refused since red team rt10 F1
  expect_fail_with "docker create from an image labelled with another project's root: refused" \
    "container-gateway: commit-label: image localhost/cgt-anl belongs to another project" \
    dk create --name cgt-anl --network none localhost/cgt-anl true
  if bk container inspect cgt-anl >/dev/null 2>&1; then fail "the refused create made no container" "cgt-anl exists"
  else pass "the refused create made no container"; fi
  bk_q rm -f cgt-anl
  bk_q rmi localhost/cgt-anl localhost/cgt-anp
  rm -rf "$d" "$CG_TMP/tr.tar"
}

# the image a create names is checked, then used by id (red team rt9 F6): a retag racing the
# create from a second connection never gets the daemon to use an unchecked image. The name
# flips between a clean image and one the image step refuses (Env NVIDIA_VISIBLE_DEVICES) as
# fast as the daemon tags; 20 creates through the gateway, compat and (podman) libpod.
t_image_pin() {
  local d=$CG_TMP/pin clean bad out
  mkdir -p "$d" && printf 'FROM %s\nENV NVIDIA_VISIBLE_DEVICES=all\n' "$IMG" > "$d/Dockerfile"
  DOCKER_BUILDKIT=0 bk build -q -t localhost/cgt-pin-bad:1 "$d" >/dev/null 2>&1
  clean=$(bk image inspect -f '{{.Id}}' "$IMG"); bad=$(bk image inspect -f '{{.Id}}' localhost/cgt-pin-bad:1)
  if [ -z "$bad" ] || [ "$clean" = "$bad" ]; then fail "image pin: test images" "clean=$clean bad=$bad" quiet; return; fi
  out=$(timeout 300 python3 - "$CG_BACKEND_SOCK" "$R1/docker.sock" "$R1/podman.sock" "$clean" "$bad" "$CG_BACKEND" <<'PY'
import json, socket, sys, threading
back, gwd, gwp, clean, bad, kind = sys.argv[1:7]
def req(sock, method, path, body=None):
    # the daemons answer HTTP/1.0 unchunked; the gateway takes HTTP/1.1 only
    s = socket.socket(socket.AF_UNIX); s.settimeout(60); s.connect(sock)
    b = json.dumps(body).encode() if body is not None else b""
    s.sendall(b"%s %s HTTP/1.%d\r\nHost: d\r\nConnection: close\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (method.encode(), path.encode(), sock != back, len(b), b))
    data = b""
    while True:
        x = s.recv(65536)
        if not x: break
        data += x
    s.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), rest
stop = threading.Event()
flips = [0]
def flip():
    while not stop.is_set():
        for img in (bad, clean):
            req(back, "POST", "/v1.41/images/%s/tag?repo=localhost/cgt-pin&tag=1" % img)
            flips[0] += 1
req(back, "POST", "/v1.41/images/%s/tag?repo=localhost/cgt-pin&tag=1" % clean)
t = threading.Thread(target=flip, daemon=True); t.start()
created = refused = swapped = 0
for i in range(20):
    name = "cgt-pin-%d" % i
    if kind == "podman" and i % 2:
        st, body = req(gwp, "POST", "/v4.3.1/libpod/containers/create",
                       {"name": name, "image": "localhost/cgt-pin:1", "command": ["true"]})
    else:
        st, body = req(gwd, "POST", "/v1.41/containers/create?name=" + name,
                       {"Image": "localhost/cgt-pin:1", "Cmd": ["true"]})
    if st == 201:
        created += 1
        st2, ins = req(back, "GET", "/v1.41/containers/%s/json" % name)
        img = json.loads(ins).get("Image", "")
        if img.replace("sha256:", "") != clean.replace("sha256:", ""):
            swapped += 1
        req(back, "DELETE", "/v1.41/containers/%s?force=1" % name)
    elif st == 403:
        refused += 1
stop.set(); t.join(30)
print("created=%d refused=%d swapped=%d flips=%d" % (created, refused, swapped, flips[0]))
PY
)
  echo "# image pin race: $out"
  if [[ $out == *" swapped=0 "* ]] && [[ $out != *"created=0 "* ]]; then
    pass "a retag racing 20 creates never makes the daemon use an image other than the one checked"
  else fail "a retag racing 20 creates never makes the daemon use an image other than the one checked" "$out" quiet; fi
  bk_q rmi -f localhost/cgt-pin:1 localhost/cgt-pin-bad:1
}

t_seccomp_default() {
  local cwd= v n=0 sd left
  if [ "$CG_BACKEND" = podman ]; then
    cwd=$(readlink "/proc/$(cat "$CG_PM_DIR/service.pid" 2>/dev/null)/cwd" 2>/dev/null)
    if [ -n "$cwd" ] && [ "$cwd" = "$CG_PM_CWD" ]; then
      echo '{"defaultAction":"SCMP_ACT_ALLOW"}' > "$cwd/default"
      sd_create "$CG_BACKEND_SOCK" cgt-sd0 '["seccomp=default"]' >/dev/null
      curl -s -m 30 -X POST --unix-socket "$CG_BACKEND_SOCK" http://d/v4.3.1/libpod/containers/cgt-sd0/init >/dev/null
      sd=$(curl -s -m 30 --unix-socket "$CG_BACKEND_SOCK" http://d/v4.3.1/libpod/containers/cgt-sd0/json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["StaticDir"])' 2>/dev/null)
      if [ -n "$sd" ] && python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["linux"].get("seccomp") != {"defaultAction": "SCMP_ACT_ALLOW"})' "$sd/config.json" 2>/dev/null; then
        pass "measured (podman): seccomp=default loads the file default of the service's working directory"
      else fail "measured (podman): seccomp=default loads the file default of the service's working directory" \
        "no allow-all profile in ${sd:-?}/config.json" quiet; fi
    else
      skip "measured (podman): seccomp=default loads a file" "the service runs in ${cwd:-?}, not $CG_PM_CWD"
    fi
    cg_run sd_create "$CG_BACKEND_SOCK" cgt-sd00 '["seccomp=Default"]'
    if [[ $CG_OUT == *"open Default: no such file or directory"* ]]; then
      pass "measured (podman): seccomp=Default is the file Default, another one"
    else fail "measured (podman): seccomp=Default is the file Default, another one" "$(head -c 300 <<<"$CG_OUT")" quiet; fi
  else
    sd_create "$CG_BACKEND_SOCK" cgt-sd0 '["seccomp=default"]' >/dev/null
    cg_run curl -s -m 30 -X POST --unix-socket "$CG_BACKEND_SOCK" http://d/v1.41/containers/cgt-sd0/start
    if [[ $CG_OUT == *"Decoding seccomp profile failed"* ]]; then
      pass "measured (docker): seccomp=default is decoded as an inline profile and the start fails"
    else fail "measured (docker): seccomp=default is decoded as an inline profile and the start fails" "$(head -c 300 <<<"$CG_OUT")" quiet; fi
  fi
  for v in seccomp=default seccomp=Default seccomp=DEFAULT 'seccomp= default' seccomp:default; do
    n=$((n + 1))
    cg_run sd_create "$R1/docker.sock" "cgt-sd$n" "[\"$v\"]"
    if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *"security-opt"*"the daemon reads a seccomp value as a profile file"* ]]; then
      pass "compat SecurityOpt [$v]: 403 security-opt"
    else fail "compat SecurityOpt [$v]: 403 security-opt" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  done
  if podman_only "libpod pod create security_opt seccomp=default"; then
    cg_run curl -s -i -m 30 -X POST -H 'Content-Type: application/json' --unix-socket "$R1/podman.sock" \
      -d '{"name":"cgt-sdpod","security_opt":["seccomp=default"]}' http://d/v4.3.1/libpod/pods/create
    if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *"security-opt"* ]]; then pass "libpod pod create security_opt seccomp=default: 403"
    else fail "libpod pod create security_opt seccomp=default: 403" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
    curl -s -m 30 -X DELETE --unix-socket "$CG_BACKEND_SOCK" "http://d/v4.3.1/libpod/pods/cgt-sdpod?force=true" >/dev/null
  fi
  cg_run sd_create "$R1/docker.sock" cgt-sdok '["seccomp=","no-new-privileges"]'
  if [[ $CG_OUT == "HTTP/1.1 201"* ]]; then pass "compat SecurityOpt [seccomp=, no-new-privileges] still creates"
  else fail "compat SecurityOpt [seccomp=, no-new-privileges] still creates" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  left=$(bk ps -a --format '{{.Names}}' 2>/dev/null | grep -E '^cgt-sd[1-9]$' | tr '\n' ' ')
  if [ -z "$left" ]; then pass "refused seccomp values created nothing"
  else fail "refused seccomp values created nothing" "backend has: $left"; fi
  bk_q rm -f cgt-sd0 cgt-sd00 cgt-sdok cgt-sd1 cgt-sd2 cgt-sd3 cgt-sd4 cgt-sd5
  [ -n "$cwd" ] && [ "$cwd" = "$CG_PM_CWD" ] && rm -f "$cwd/default"
  return 0
}

# A build seccomp value is a profile path buildah opens: paths are case-sensitive, so
# only the two listed paths pass, exactly (measured on podman 4.3.1: /USR/share/... is
# another file).
# sc_build SOCKET SECCOMP: libpod build of $CG_TMP/sc.tar, status line and stream
sc_build() {
  curl -s -m 120 -i -X POST -H 'Content-Type: application/x-tar' --data-binary @"$CG_TMP/sc.tar" \
    --unix-socket "$1" "http://d/v4.3.1/libpod/build?t=localhost%2Fcgt-sc%3A1&seccomp=$(python3 -c \
    'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$2")"
}
t_build_seccomp_case() {
  local d=$P1/buildsc p
  podman_only "build seccomp paths compared exactly" || return 0
  mkdir -p "$d"
  printf 'FROM %s\nRUN true\n' "$IMG" > "$d/Dockerfile"
  tar -C "$d" -cf "$CG_TMP/sc.tar" .
  cg_run sc_build "$CG_BACKEND_SOCK" /USR/share/containers/seccomp.json
  if [[ $CG_OUT == *"open /USR/share/containers/seccomp.json: no such file or directory"* ]]; then
    pass "measured (podman): build seccomp=/USR/share/containers/seccomp.json opens that other file"
  else fail "measured (podman): build seccomp=/USR/share/containers/seccomp.json opens that other file" "$(head -c 300 <<<"$CG_OUT")" quiet; fi
  for p in /USR/share/containers/seccomp.json /usr/share/containers/SECCOMP.json /ETC/containers/seccomp.json; do
    cg_run sc_build "$R1/podman.sock" "$p"
    if [[ $CG_OUT == "HTTP/1.1 403"*"denied-build-parameter"*"a seccomp profile (seccomp) is refused"* ]]; then
      pass "libpod build seccomp=$p: 403 denied-build-parameter"
    else fail "libpod build seccomp=$p: 403 denied-build-parameter" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  done
  cg_run sc_build "$R1/podman.sock" /usr/share/containers/seccomp.json
  if [[ $CG_OUT == "HTTP/1.1 200"* ]] && bk image inspect localhost/cgt-sc:1 >/dev/null 2>&1; then
    pass "libpod build seccomp=/usr/share/containers/seccomp.json (what podman --remote sends) builds"
  else fail "libpod build seccomp=/usr/share/containers/seccomp.json (what podman --remote sends) builds" "$(head -c 300 <<<"$CG_OUT")" quiet; fi
  bk_q rmi -f localhost/cgt-sc:1
  rm -f "$CG_TMP/sc.tar"
}

# ---- API versions below v1.24 (routes.md §1 as amended): skopeo's docker-daemon: transport ----
t_old_api_versions() {
  local v st ver_dir=$CG_TMP/skopeo-dir out
  # the measurement: the daemon serves v1.22 on these routes as on v1.41
  for v in _ping version "images/get?names=localhost%2Fbusybox"; do
    st=$(curl -s -m 30 -o /dev/null -w '%{http_code}' --unix-socket "$CG_BACKEND_SOCK" "http://d/v1.22/$v")
    if [ "$st" = 200 ]; then pass "measured: $CG_BACKEND serves GET /v1.22/${v%%\?*}"
    else fail "measured: $CG_BACKEND serves GET /v1.22/${v%%\?*}" "status $st" quiet; fi
  done
  expect_output "GET /v1.22/version through the gateway" '"ApiVersion"' \
    curl -s -m 30 --unix-socket "$R1/docker.sock" "http://d/v1.22/version"
  expect_output "GET /v1.22/containers/json stays refused" "API version v1.22 is not supported" \
    curl -s -m 30 --unix-socket "$R1/docker.sock" "http://d/v1.22/containers/json"
  rm -rf "$ver_dir"
  expect_ok "skopeo copy docker-daemon:localhost/busybox (v1.22 images/get) through the gateway" \
    skopeo copy --src-daemon-host "unix://$R1/docker.sock" docker-daemon:$IMG:latest "dir:$ver_dir"
  expect_ok "skopeo copy to docker-daemon:localhost/cg-skopeo:1 (v1.22 images/load) through the gateway" \
    skopeo copy --dest-daemon-host "unix://$R1/docker.sock" "dir:$ver_dir" docker-daemon:localhost/cg-skopeo:1
  out=$(bk image inspect -f '{{.Id}}' localhost/cg-skopeo:1 2>&1)
  if [ -n "$out" ] && [ "$out" = "$(bk image inspect -f '{{.Id}}' $IMG 2>&1)" ]; then pass "the loaded image is busybox"
  else fail "the loaded image is busybox" "$out" quiet; fi
  bk_q rmi localhost/cg-skopeo:1
  rm -rf "$ver_dir"
}

ALL=(t_compose t_sdk t_build t_build_cpp t_build_transports t_volume_driver t_network_connect t_seccomp t_seccomp_default t_image_pin
     t_build_seccomp_case t_image_annotations t_old_api_versions)

# ---- main -------------------------------------------------------------------------
# the Python SDK under test is Debian's python3-docker: /usr/bin/python3, not whatever
# python3 comes first on PATH (it may carry another docker SDK)
PY3=${CG_PYTHON:-/usr/bin/python3}
need=(docker docker-compose "$PY3" curl timeout skopeo)
if [ "$CG_BACKEND" = docker ]; then need+=(dockerd containerd); else need+=(podman); fi
cg_need "${need[@]}"
if ! "$PY3" -c 'import docker' 2>/dev/null; then fail "prerequisites" "python3-docker is not installed"; cg_summary; exit; fi
cg_need_gateway
cg_two_gateways || exit
cg_run_scenarios "$@"
cg_summary
