#!/bin/bash
# tests/integration/rootless_user.sh — the rootless scenarios, run by
# tests/integration/rootless.sh as a throwaway user against that user's rootless
# podman (CG_PODMAN_SOCKET, its $XDG_RUNTIME_DIR/podman/podman.sock). Each scenario
# failed on the gateway before rootless podman was supported (see rootless.sh).
#
#   rootless_user.sh [SCENARIO...]
set -u
if [ -z "${CG_PODMAN_SOCKET:-}" ] || [ "$(id -u)" = 0 ]; then
  echo "SKIP rootless scenarios: run by tests/integration/rootless.sh (a user, CG_PODMAN_SOCKET)"; exit 77
fi
. "$(dirname "$0")/lib.sh"
S=$CG_PODMAN_SOCKET
HOOK=$CG_REPO/contrib/hooks/container-gateway-hook
NO_USERNS=$CG_REPO/tests/helpers/no_userns
# the backend itself, bypassing every gateway (set-up and checks only)
bk() { env -u DOCKER_CONFIG timeout -k 5 "$CG_TIMEOUT" podman --url "unix://$S" "$@"; }

# gw_start P R [ENV=VALUE...] -- [FLAGS...]: a gateway for P in R, in the background,
# with that environment (besides this one) and flags; waits until docker.sock answers.
# Sets CG_GW_PID (stopped at teardown); its log is R.log.
gw_start() {
  local p=$1 r=$2 envs=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  env ${envs[@]+"${envs[@]}"} "$CG_GATEWAY" serve --project "$p" --run-dir "$r" --egress off \
    --idle-timeout 900 "$@" </dev/null >"$r.log" 2>&1 &
  CG_GW_PID=$!; CG_GW_PIDS+=("$CG_GW_PID")
  cg_wait_for 60000 _cg_ping "$r/docker.sock" && return 0
  echo "# gateway for $p did not start:"; tail -n 5 "$r.log" | sed 's/^/#   /'
  return 1
}

# ---- backend identity: the prune filters podman would widen, whatever named the socket ----
r_identity_prune() {
  local how vol out
  cg_project rb; local PB=$P RB=$R
  gw_start "$PB" "$RB" -- --podman-socket "$S" || { fail "identity: gateway B" "no start"; return; }
  for how in DOCKER_HOST --docker-socket discovery; do
    vol=rl-b-$(echo "$how" | tr 'A-Z' 'a-z' | tr -dc a-z)
    cg_project "rc-${vol#rl-b-}"
    case $how in
      DOCKER_HOST) gw_start "$P" "$R" DOCKER_HOST="unix://$S" -- ;;
      --docker-socket) gw_start "$P" "$R" -- --docker-socket "$S" ;;
      discovery) gw_start "$P" "$R" -- ;;
    esac || { fail "identity via $how: gateway C" "no start"; continue; }
    expect_output "identity via $how: docker.sock's backend is podman" \
      "docker clients -> $R/docker.sock (backend podman at $S)" cat "$R.log"
    DOCKER_HOST=unix://$RB/docker.sock cg_run docker volume create --label foo=bar "$vol"
    expect_fail_with "identity via $how: project C's filtered volume prune is refused" denied-query \
      env DOCKER_HOST="unix://$R/docker.sock" docker volume prune -f --filter label=foo=bar
    expect_ok "identity via $how: project B's volume is still there" bk volume exists "$vol"
    bk volume rm -f "$vol" >/dev/null 2>&1
  done
}

# ---- builds: RUN works and has no network of the host -------------------------------------------
mk_context() {  # DIR: a Dockerfile whose RUN lists the network interfaces it sees
  mkdir -p "$1"
  cat > "$1/Dockerfile" <<'DF'
FROM localhost/busybox
RUN echo "IFACES $(ip -o link | cut -d: -f2 | tr -d ' ' | tr '\n' ' ')"; echo "ROUTES $(ip route | wc -l)"
DF
}
r_build() {
  cg_project rbuild; mk_context "$P/ctx"
  gw_start "$P" "$R" -- --podman-socket "$S" || { fail "build: gateway" "no start"; return; }
  expect_output "docker build: a RUN step succeeds on rootless podman" "IFACES lo " \
    env DOCKER_HOST="unix://$R/docker.sock" DOCKER_BUILDKIT=0 docker build --no-cache -t localhost/rl-build:1 "$P/ctx"
  expect_output "docker build: RUN has no route (no host network, no slirp4netns)" "ROUTES 0" echo "$CG_OUT"
  # podman-remote as a non-root user sends isolation=3 (rootless) on its own
  expect_output "podman --remote build without flags" "IFACES lo " \
    env -u DOCKER_CONFIG podman --url "unix://$R/podman.sock" build --no-cache -t localhost/rl-pbuild:1 "$P/ctx"
  expect_output "podman --remote build: RUN has no route" "ROUTES 0" echo "$CG_OUT"
  expect_fail_with "podman --remote build --isolation chroot (the host's network) is refused" \
    "isolation 2 is refused" env -u DOCKER_CONFIG podman --url "unix://$R/podman.sock" build --isolation chroot "$P/ctx"
  bk rmi -f localhost/rl-build:1 localhost/rl-pbuild:1 >/dev/null 2>&1
}

# ---- the hook hands the socket over; sessions are counted ----------------------------------------
# harness NAME PAYLOAD ACTION ARGS...: a harness process (python, not a shell) runs the hook
# with PAYLOAD and lives on until NAME.end exists (its pid in HPID; killed at teardown)
harness() {
  local name=$1 payload=$2; shift 2
  cg_bg python3 "$CG_REPO/tests/helpers/hook_harness.py" "$CG_TMP/$name" "$payload" \
      env CONTAINER_GATEWAY_BIN="$CG_GATEWAY" \
      CLAUDE_ENV_FILE="$CG_TMP/$name.env" "$HOOK" "$@"
  HPID=$CG_BG_PID
  cg_wait_for 90000 test -e "$CG_TMP/$name.done"
}
# the agent's shell: the harness sources its env file before the command
agent() { local env=$1; shift; env -u DOCKER_HOST -u CONTAINER_HOST bash -c '. "$1"; shift; exec "$@"' _ "$env" "$@"; }
gw_pid_of() { "$CG_GATEWAY" status --project "$1" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"] or "")' 2>/dev/null; }

r_hook_sessions() {
  local P
  cg_project rhook; P=$CG_TMP/rhook; git init -q "$P"
  harness h1 "{\"session_id\":\"sess-1\",\"cwd\":\"$P\",\"hook_event_name\":\"SessionStart\"}" start --podman-socket "$S" --egress off
  local pid1; pid1=$(gw_pid_of "$P"); [ -n "$pid1" ] && CG_GW_PIDS+=("$pid1")
  expect_output "hook: CLAUDE_ENV_FILE holds DOCKER_HOST" \
    "export DOCKER_HOST=unix://$P/.git/apache-magpie/run/main/docker.sock" cat "$CG_TMP/h1.env"
  expect_output "hook: the agent's docker reaches the project's gateway through it" via-env \
    agent "$CG_TMP/h1.env" docker run --rm --network none $IMG echo via-env
  expect_output "hook: the agent's podman too (CONTAINER_HOST)" via-podman \
    agent "$CG_TMP/h1.env" env -u DOCKER_CONFIG podman run --rm --network none $IMG echo via-podman
  expect_fail_with "hook: ... through the gateway (--privileged refused)" "container-gateway: privileged" \
    agent "$CG_TMP/h1.env" env -u DOCKER_CONFIG podman run --rm --privileged --network none $IMG true
  expect_output "hook: the export lines on stdout" "export DOCKER_HOST=unix://$P/.git/apache-magpie/run/main/docker.sock" \
    cat "$CG_TMP/h1.out"
  expect_output "hook: status's warning about the user's own podman socket reaches the harness" \
    "container-gateway-hook: gateway: warning: uid $(id -u) can connect to the backend socket $S itself" cat "$CG_TMP/h1.err"
  # a second session of the same project
  harness h2 "{\"session_id\":\"sess-2\",\"cwd\":\"$P\",\"hook_event_name\":\"SessionStart\"}" start --podman-socket "$S" --egress off
  expect_output "sessions: the second finds the gateway running" "already running" cat "$CG_TMP/h2.err"
  cg_run agent "$CG_TMP/h2.env" docker run -d --network none --name rl-keep $IMG sleep 300
  # the first ends
  harness h1s "{\"session_id\":\"sess-1\",\"cwd\":\"$P\",\"hook_event_name\":\"SessionEnd\"}" stop
  touch "$CG_TMP/h1.end"
  expect_output "sessions: the first stop leaves the gateway to the other" "1 other session still uses" cat "$CG_TMP/h1s.err"
  expect_output "sessions: the other keeps working" still-here \
    agent "$CG_TMP/h2.env" docker run --rm --network none $IMG echo still-here
  # the last ends, with --stop-containers
  harness h2s "{\"session_id\":\"sess-2\",\"cwd\":\"$P\",\"hook_event_name\":\"SessionEnd\"}" stop --stop-containers
  touch "$CG_TMP/h2.end"
  if "$CG_GATEWAY" status --project "$P" >/dev/null 2>&1; then fail "sessions: the last stop stops the gateway" "still running"
  else pass "sessions: the last stop stops the gateway"; fi
  expect_output "sessions: --stop-containers stopped the project's container" "stopped 1 container of $P" cat "$CG_TMP/h2s.err"
  expect_output "sessions: ... it is stopped, not removed" exited bk inspect -f '{{.State.Status}}' rl-keep
  bk rm -f rl-keep >/dev/null 2>&1
}

# ---- a degraded sandbox is loud ----------------------------------------------------------------------
r_degraded() {
  cg_project rdeg
  gw_start "$P" "$R" -- --podman-socket "$S" || { fail "degraded: a normal start" "no start"; return; }
  if grep -q "WARNING request parser sandbox degraded" "$R.log"; then fail "full sandbox: no WARNING" "$(grep degraded "$R.log")"
  else pass "full sandbox: no WARNING (namespaces=on chroot=on as a user)"; fi
  expect_output "full sandbox: status says so" '"sandbox": "full"' "$CG_GATEWAY" status --project "$P" --run-dir "$R"
  cg_gateway_stop "$CG_GW_PID"
  # user namespaces refused, as a container's seccomp profile refuses them
  env "$NO_USERNS" "$CG_GATEWAY" serve --project "$P" --run-dir "$R-2" --podman-socket "$S" \
    --egress off --idle-timeout 900 </dev/null >"$R-2.log" 2>&1 &
  CG_GW_PIDS+=("$!")
  cg_wait_for 60000 _cg_ping "$R-2/docker.sock"
  expect_output "degraded sandbox: a WARNING says what is missing" \
    "WARNING request parser sandbox degraded: namespaces=off chroot=off (no unprivileged user namespaces: " cat "$R-2.log"
  expect_output "degraded sandbox: ... and what it costs" "sees / and the host's network" cat "$R-2.log"
  expect_output "degraded sandbox: status says so" '"sandbox": "degraded"' "$CG_GATEWAY" status --project "$P" --run-dir "$R-2"
  expect_output "degraded sandbox: status warns on stderr" "the request parser's sandbox is degraded" echo "$CG_OUT"
  expect_output "degraded sandbox: it still serves" ok-degraded \
    env DOCKER_HOST="unix://$R-2/docker.sock" docker run --rm --network none $IMG echo ok-degraded
  expect_fail_with "--require-full-sandbox refuses to serve without it" \
    "container-gateway: request parser sandbox degraded: namespaces=off chroot=off" \
    "$NO_USERNS" "$CG_GATEWAY" serve --project "$P" --run-dir "$R-3" --podman-socket "$S" --egress off --require-full-sandbox
  expect_fail_with "CONTAINER_GATEWAY_REQUIRE_FULL_SANDBOX=1 too" "refusing to serve (--require-full-sandbox)" \
    env CONTAINER_GATEWAY_REQUIRE_FULL_SANDBOX=1 "$NO_USERNS" "$CG_GATEWAY" serve --project "$P" --run-dir "$R-3" --podman-socket "$S" --egress off
  if [ -S "$R-3/docker.sock" ]; then fail "--require-full-sandbox: no socket" "$R-3/docker.sock"; else pass "--require-full-sandbox: no socket"; fi
}

# ---- status: the backend socket is the user's ------------------------------------------------------
r_status_reach() {
  cg_project rst
  gw_start "$P" "$R" -- --podman-socket "$S" || { fail "status: gateway" "no start"; return; }
  expect_output "status warns that this uid can connect to the rootless podman socket" \
    "container-gateway: warning: uid $(id -u) can connect to the backend socket $S itself" \
    "$CG_GATEWAY" status --project "$P" --run-dir "$R"
}

# ---- the agent in its own sandbox reaches the gateway and nothing else (tool.md) ------------------
r_sandboxed_agent() {
  if ! command -v bwrap >/dev/null; then skip "sandboxed agent" "bwrap not installed"; return; fi
  cg_project rsbx
  gw_start "$P" "$R" -- --podman-socket "$S" || { fail "sandboxed agent: gateway" "no start"; return; }
  # tool.md's recipe: the project and the run directory let through, the user's runtime
  # directory, container storage and configuration hidden, its processes out of sight
  sbx() { timeout -k 5 "$CG_TIMEOUT" bwrap --ro-bind / / --dev /dev --proc /proc --bind "$P" "$P" \
      --tmpfs "$XDG_RUNTIME_DIR" --tmpfs "$HOME/.local/share/containers" --tmpfs "$HOME/.config/containers" \
      --bind "$R" "$R" --bind "$CG_TMP/docker-config" "$CG_TMP/docker-config" \
      --unshare-pid --unshare-user --die-with-parent --setenv DOCKER_HOST "unix://$R/docker.sock" "$@"; }
  expect_output "sandboxed agent: docker through the gateway" in-sandbox \
    sbx docker run --rm --network none $IMG echo in-sandbox
  expect_fail_with "sandboxed agent: the podman socket is out of reach" "" \
    sbx curl -sf -m 2 --unix-socket "$S" http://d/_ping
  expect_fail_match "sandboxed agent: podman has no storage of the user's" . sbx podman ps
  cg_run sbx "$CG_GATEWAY" status --project "$P" --run-dir "$R"
  if [ $CG_RC -eq 0 ] && ! grep -q "can connect to the backend socket" <<<"$CG_OUT"; then
    pass "sandboxed agent: status run inside warns of nothing"
  else fail "sandboxed agent: status run inside warns of nothing" "exit $CG_RC: $CG_OUT"; fi
}

# ---- discovery messages for a rootless user ------------------------------------------------------------
r_discovery() {
  cg_project rdisc
  expect_output "no backend: XDG_RUNTIME_DIR unset is named" \
    "(from XDG_RUNTIME_DIR): XDG_RUNTIME_DIR is not set (a login session sets it to /run/user/<uid>)" \
    env -u XDG_RUNTIME_DIR "$CG_GATEWAY" serve --project "$P" --run-dir "$R" --backend podman --egress off
  expect_output "no backend: systemctl --user is the way" "systemctl --user enable --now podman.socket" echo "$CG_OUT"
  mkdir -p "$CG_TMP/xdg-other"
  expect_output "no backend: the path tried under XDG_RUNTIME_DIR" \
    "$CG_TMP/xdg-other/podman/podman.sock (from XDG_RUNTIME_DIR): no such file" \
    env XDG_RUNTIME_DIR="$CG_TMP/xdg-other" "$CG_GATEWAY" serve --project "$P" --run-dir "$R" --backend podman --egress off
  # and found by itself where systemctl --user puts it
  gw_start "$P" "$R" -- --backend podman || { fail "discovery: rootless podman found" "no start"; return; }
  expect_output "discovery: the rootless podman under XDG_RUNTIME_DIR" \
    "podman clients -> $R/podman.sock (backend podman at $S)" cat "$R.log"
}

# ---- a worktree's gateway is out of the main checkout's containers' reach ------------------------------
r_worktree() {
  local M=$CG_TMP/rwt-main W out
  git init -q "$M" && git -C "$M" -c user.name=t -c user.email=t@t commit -q --allow-empty -m init
  W=$M/.worktrees/feature
  git -C "$M" worktree add -q "$W" 2>/dev/null
  expect_ok "worktree: its gateway starts (default run directory)" \
    "$CG_GATEWAY" serve --daemon --project "$W" --podman-socket "$S" --egress off
  local pid; pid=$(gw_pid_of "$W"); [ -n "$pid" ] && CG_GW_PIDS+=("$pid")
  out=$("$CG_GATEWAY" status --project "$W" 2>/dev/null)
  case $out in
    *"\"docker\": \"$XDG_RUNTIME_DIR/container-gateway/feature-"*) pass "worktree: run directory below XDG_RUNTIME_DIR" ;;
    *) fail "worktree: run directory below XDG_RUNTIME_DIR" "$out" ;;
  esac
  expect_ok "main checkout: its gateway starts" \
    "$CG_GATEWAY" serve --daemon --project "$M" --podman-socket "$S" --egress off
  pid=$(gw_pid_of "$M"); [ -n "$pid" ] && CG_GW_PIDS+=("$pid")
  # a container of the main checkout binds it whole: it sees its own gateway's sockets, none of the worktree's
  cg_run env DOCKER_HOST="unix://$M/.git/apache-magpie/run/main/docker.sock" \
    docker run --rm --network none -v "$M:/m" $IMG find /m -type s
  if [ $CG_RC -ne 0 ]; then fail "worktree: a main-checkout container lists the sockets it sees" "exit $CG_RC"
  elif grep -q feature <<<"$CG_OUT"; then fail "worktree: its sockets are out of the main checkout's containers' reach" "$CG_OUT"
  else pass "worktree: its sockets are out of the main checkout's containers' reach"; fi
  "$CG_GATEWAY" stop --project "$W" >/dev/null; "$CG_GATEWAY" stop --project "$M" >/dev/null
}

# ---- the project's own network on rootless podman ----------------------------------------------
# Each project's default network is its own isolated netavark bridge, here inside the user's
# rootless network namespace (podman 4.3.1: the first bridge container starts it): a
# container of project 1 reaches its own service by name, and no service of project 2.
r_network() {
  local p1 r1 ip2 i out
  cg_project rnet1; p1=$P; r1=$R
  gw_start "$p1" "$r1" -- --podman-socket "$S" || { fail "network: gateway 1" "no start"; return; }
  cg_project rnet2
  gw_start "$P" "$R" -- --podman-socket "$S" || { fail "network: gateway 2" "no start"; return; }
  DOCKER_HOST=unix://$R/docker.sock cg_run docker run -d --name rlsvc2 $IMG nc -ll -p 8000 -e echo rl-secret-2
  DOCKER_HOST=unix://$r1/docker.sock cg_run docker run -d --name rlsvc1 $IMG nc -ll -p 8000 -e echo rl-secret-1
  for i in rlsvc1:rl-secret-1 rlsvc2:rl-secret-2; do
    cg_wait_for 20000 eval '[ "$(bk exec '"${i%%:*}"' nc -w 1 127.0.0.1 8000 </dev/null 2>/dev/null)" = '"${i#*:}"' ]' ||
      { fail "network: service ${i%%:*} starts" "$(bk logs "${i%%:*}" 2>&1 | tail -n 2)"; bk rm -f rlsvc1 rlsvc2 >/dev/null 2>&1; return; }
  done
  ip2=$(bk inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}' rlsvc2 | awk '{print $1}')
  expect_output "network: project 2's service is on its own network with an address" "." echo "$ip2"
  for i in 1 2 3; do   # a new name takes a moment to resolve
    DOCKER_HOST=unix://$r1/docker.sock cg_run docker run --rm $IMG sh -c 'nc -w 1 rlsvc1 8000 </dev/null'
    [ "$CG_OUT" = rl-secret-1 ] && break
  done
  expect_output "network: project 1 reaches its own service by name" rl-secret-1 echo "$CG_OUT"
  DOCKER_HOST=unix://$r1/docker.sock cg_run docker run --rm $IMG \
    sh -c "ip -4 -o addr show eth0 | grep -q inet && echo eth0; echo got=\$(nc -w 1 $ip2 8000 </dev/null 2>/dev/null)"
  out=$CG_OUT
  if [[ $out == eth0*got=* && $out != *rl-secret-2* ]]; then pass "network: project 1 reaches no service of project 2 ($ip2)"
  else fail "network: project 1 reaches no service of project 2 ($ip2)" "$(tr '\n' ' ' <<<"$out")"; fi
  bk rm -f rlsvc1 rlsvc2 >/dev/null 2>&1
}

# ---- the egress proxy seen from a rootless project network --------------------------------------
# A listener on every host address stands for the egress proxy. Measured (podman 4.3.1):
# in a rootless container host.containers.internal is the host's own address, which the
# project network reaches through the user's network namespace; 10.0.2.2 (slirp4netns
# without host loopback) and 10.88.0.1 (the rootless default bridge) are not the host.
r_egress() {
  local port pid tok=egress-$$-$RANDOM
  cg_listener "$tok" || { fail "egress: the stand-in proxy listens" ""; return; }
  port=$CG_LISTENER_PORT; pid=$CG_BG_PID
  cg_project regress
  if gw_start "$P" "$R" -- --podman-socket "$S" --egress inject-if-available --egress-port "$port"; then
    DOCKER_HOST=unix://$R/docker.sock cg_run docker run --rm $IMG \
      sh -c 'h=${HTTP_PROXY#http://}; echo "proxy=$HTTP_PROXY got=$(nc -w 2 "${h%:*}" "${h##*:}" </dev/null 2>/dev/null)"'
    if [[ $CG_OUT == *"got=$tok"* ]]; then pass "egress: a rootless container reaches the egress proxy at its HTTP_PROXY"
    else fail "egress: a rootless container reaches the egress proxy at its HTTP_PROXY" "$(tr '\n' ' ' <<<"$CG_OUT")"; fi
  else fail "egress: gateway" "no start"; fi
  kill "$pid"; wait "$pid" 2>/dev/null
}

ALL=(r_identity_prune r_build r_network r_egress r_hook_sessions r_degraded r_status_reach r_sandboxed_agent r_discovery r_worktree)
cg_require docker podman curl git python3 || { fail "prerequisites" "missing tools"; cg_summary; exit; }
cg_backend_up || { fail "rootless podman" "not answering"; cg_summary; exit; }
[ $# -gt 0 ] && ALL=("$@")
for s in "${ALL[@]}"; do t0=$(cg_ms); "$s"; echo "# $s: $(( $(cg_ms) - t0 )) ms"; done
cg_summary
