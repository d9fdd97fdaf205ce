#!/bin/bash
# tests/integration/isolation.sh — routes.md §8.2 as amended, live: two gateways (projects p1 and
# p2) on one private podman, or with CG_BACKEND=docker on the private dockerd (run by
# dockerd.sh). Project 1 can neither list nor prune project 2's volumes, networks,
# containers, pods or images, nor unmanaged ones, whatever the filter key or form (list
# form, map form, label!, name, id, dangling, until, driver, status), through the docker
# CLI, podman --remote and raw curl; its own prunes still remove its unused resources.
# Plus the libpod host-fact fields (hostusers, timezone) through podman --remote, and the
# libpod system prune pre-check: other projects' stopped pods survive it (i_system_prune).
# And no network id of project 2 through short all-hex network names, 12 hex digits
# allowed (i_hex_network_names), and project 2's short ids stay its own whatever project
# 1 names its containers and pods (i_short_id_names).
# And no host path through mount text podman re-reads (i_mount_text).
# And no network of project 2 through case variants of built-in network names and modes
# (i_network_name_case, redteam5 F2). And no forced image removal through a force value
# dockerd reads as true (i_force_falsy). And no image store at a host path through a
# reference the daemon joins from two query values (i_split_transport), and nothing of
# project 2's through filter keys spelled with '=' (i_filter_key_split), nor through a
# form body on dockerd (i_form_body). And allow-lists for cgroup maps, runtime hook
# variables and AppArmor names (i_allow_lists), and for top ps_args on dockerd
# (i_docker_ps_args). And no existence oracle in bind-source resolution (i_bind_oracle).
# And no network shared between projects: each project's own, isolated, on both
# daemons (i_network_projects).
# And no systemd mode, which mounts the host's cgroup tree writable (i_systemd_mode).
# And no image name another project runs moved onto project 1's image (i_image_names).
#
#   tests/integration/isolation.sh               all scenarios
#   tests/integration/isolation.sh i_lists ...   only the named scenario functions
#
# Which filters the gateway refuses and which it forwards depends on the backend
# (doc/filters.md); this suite asserts the outcome, not the route: nothing foreign is
# ever listed or removed. Needs root, docker, curl, python3 (podman for the podman
# backend). Exit 77 = skipped (not root). Last line: "N passed, M failed".
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP integration: needs root (rootful backend)"
  exit 77
fi
. "$(dirname "$0")/lib.sh"

# urlenc STRING: percent-encode for a query value
urlenc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
# gw METHOD PATH [FILTERS-JSON]: raw curl through project 1's socket for PATH
# (podman.sock for /libpod/ paths), the answer's status line and body on stdout
gw() {
  local sock=$R1/docker.sock q=
  case $2 in */libpod/*) sock=$R1/podman.sock ;; esac
  [ -n "${3:-}" ] && q="$( [[ $2 == *\?* ]] && echo '&' || echo '?')filters=$(urlenc "$3")"
  curl -s -m 20 -i -X "$1" --unix-socket "$sock" "http://d$2$q"
}
# backend METHOD PATH [BODY]: raw curl to the backend itself (set-up and checks)
backend() {
  if [ -n "${3:-}" ]; then
    curl -s -m 60 -X "$1" -H 'Content-Type: application/json' -d "$3" --unix-socket "$CG_BACKEND_SOCK" "http://d$2"
  else
    curl -s -m 60 -X "$1" --unix-socket "$CG_BACKEND_SOCK" "http://d$2"
  fi
}

# Names and ids of everything that is not project 1's; filled by setup.
FOREIGN=()
FUTURE=$(( $(date +%s) + 7200 ))

# no_foreign NAME CMD...: CMD answered (listed, filtered to nothing, or refused: any
# status but a timeout) and its output names nothing of project 2 and nothing unmanaged
no_foreign() {
  local name=$1 f how; shift
  cg_run "$@"
  if _cg_badrc >/dev/null; then fail "$name" "$(_cg_badrc)"; return; fi
  if [ -z "$CG_OUT" ] && [ "$CG_RC" -ne 0 ]; then fail "$name" "exit $CG_RC without output"; return; fi
  for f in "${FOREIGN[@]}"; do
    if [[ $CG_OUT == *"$f"* ]]; then fail "$name" "lists $f"; return; fi
  done
  # how it was kept out: a gateway refusal, a backend error, or filtered
  how=$(grep -oE 'container-gateway: [a-z-]+|[Ii]nvalid filter|"cause":"[^"]*"' <<<"$CG_OUT" | head -n 1)
  if [[ $CG_OUT == HTTP/* ]]; then how="HTTP $(head -n 1 <<<"$CG_OUT" | cut -d' ' -f2) ${how}"
  elif [ "$CG_RC" -ne 0 ]; then how="exit $CG_RC ${how}"
  else how=answered; fi
  pass "$name (${how% })"
}

# ---- set-up -----------------------------------------------------------------------
# resources of project 1 (through its gateway), project 2 (through its own) and
# unmanaged ones (straight on the backend), all unused
mk_image() {  # mk_image TAG LABEL-VALUE|"" -> prints the dangling image's id
  local cid id ch=
  cid=$(backend POST "/v1.41/containers/create?name=isomk-$1" "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"]}" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["Id"])')
  [ -n "$2" ] && ch="&changes=$(urlenc "LABEL $KEY=$2")"
  id=$(backend POST "/v1.41/commit?container=$cid$ch&changes=$(urlenc "LABEL iso.fixture=$1")" '{}' |
       python3 -c 'import json,sys; print(json.load(sys.stdin)["Id"])')
  backend DELETE "/v1.41/containers/$cid?force=1" >/dev/null
  echo "${id#sha256:}"
}
setup() {
  local u
  dk volume create isova >/dev/null && dk2 volume create isovb >/dev/null &&
    bk volume create isovu >/dev/null && bk volume create --label tier=1 isovt >/dev/null || return 1
  dk network create isona >/dev/null && dk2 network create isonb >/dev/null &&
    bk network create isonu >/dev/null || return 1
  dk create --name isoca --network none $IMG true >/dev/null &&
    dk2 create --name isocb --network none $IMG true >/dev/null &&
    bk create --name isocu --network none $IMG true >/dev/null || return 1
  IMA=$(mk_image a "$P1"); IMB=$(mk_image b "$P2"); IMU=$(mk_image u "")
  [ -n "$IMA" ] && [ -n "$IMB" ] && [ -n "$IMU" ] || return 1
  if [ "$CG_BACKEND" = podman ]; then
    pm pod create --name isopa --infra=false >/dev/null && pm2 pod create --name isopb --infra=false >/dev/null &&
      backend POST /v4.3.1/libpod/pods/create '{"name":"isopu","no_infra":true}' >/dev/null || return 1
  fi
  FOREIGN=(isovb isovu isovt isonb isonu isocb isocu isopb isopu "${IMB:0:12}" "${IMU:0:12}"
           "$(bk network inspect -f '{{.Id}}' isonb | cut -c1-12)"
           "$(bk inspect -f '{{.Id}}' isocb | cut -c1-12)")
  u=$(bk inspect -f '{{.Id}}' isocu); FOREIGN+=("${u:0:12}")
  return 0
}
# survivors: every foreign resource still exists on the backend
survivors() {  # NAME [nopods]: with nopods the foreign pods are not checked (removed on purpose)
  local name=$1 missing=() v
  for v in isovb isovu isovt; do bk volume inspect $v >/dev/null 2>&1 || missing+=("$v"); done
  for v in isonb isonu; do bk network inspect $v >/dev/null 2>&1 || missing+=("$v"); done
  for v in isocb isocu; do bk container inspect $v >/dev/null 2>&1 || missing+=("$v"); done
  for v in "$IMB" "$IMU"; do bk image inspect "$v" >/dev/null 2>&1 || missing+=("image ${v:0:12}"); done
  if [ "$CG_BACKEND" = podman ] && [ "${2:-}" != nopods ]; then
    for v in isopb isopu; do
      [ "$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$CG_BACKEND_SOCK" "http://d/v4.3.1/libpod/pods/$v/exists")" = 204 ] || missing+=("$v")
    done
  fi
  if [ ${#missing[@]} -eq 0 ]; then pass "$name: every foreign resource survives"
  else fail "$name: every foreign resource survives" "removed: ${missing[*]}" quiet; fi
}

# try_prune CMD...: a prune whose outcome survivors() judges; only a hang fails here
try_prune() {
  cg_run "$@"
  if _cg_badrc >/dev/null; then fail "$*" "$(_cg_badrc)"; fi
  return 0
}

# ---- scenarios ----------------------------------------------------------------------
i_lists() {
  local lB="$KEY=$P2" lA="$KEY=$P1" idB
  idB=$(bk inspect -f '{{.Id}}' isocb)
  expect_output "own volume listed" isova dk volume ls -q
  no_foreign "volume ls" dk volume ls
  for f in "label=$lB" "name=isovb" "name=isovu" "dangling=true" "driver=local" "label=tier=1" "label!=$lA"; do
    no_foreign "volume ls -f $f" dk volume ls -f "$f"
  done
  expect_output "own network listed" isona dk network ls
  for f in "label=$lB" "name=isonb" "id=$(bk network inspect -f '{{.Id}}' isonb)" "driver=bridge" "label!=$lA"; do
    no_foreign "network ls -f $f" dk network ls -f "$f"
  done
  expect_output "own container listed" isoca dk ps -a
  for f in "label=$lB" "name=isocb" "id=$idB" "status=created" "label!=$lA"; do
    no_foreign "ps -a -f $f" dk ps -a -f "$f"
  done
  # raw: map form, list form, label!, until, on compat and libpod paths
  no_foreign "raw compat volumes, map form label" gw GET /v1.41/volumes "{\"label\":{\"$lB\":true}}"
  no_foreign "raw compat volumes, list form name" gw GET /v1.41/volumes '{"name":["isovb"]}'
  no_foreign "raw compat volumes, until" gw GET /v1.41/volumes "{\"until\":[\"$FUTURE\"]}"
  no_foreign "raw compat volumes, label! map" gw GET /v1.41/volumes "{\"label!\":{\"$lA\":true}}"
  no_foreign "raw compat containers, label! list" gw GET '/v1.41/containers/json?all=1' "{\"label!\":[\"$lA\"]}"
  no_foreign "raw compat networks, until" gw GET /v1.41/networks "{\"until\":[\"$FUTURE\"]}"
  no_foreign "raw compat events, foreign label" gw GET "/v1.41/events?since=$(( $(date +%s) - 600 ))&until=$(date +%s)" "{\"label\":[\"$lB\"]}"
  if podman_only "libpod lists"; then
    no_foreign "raw libpod volumes, label list" gw GET /v4.3.1/libpod/volumes/json "{\"label\":[\"$lB\"]}"
    no_foreign "raw libpod volumes, dangling" gw GET /v4.3.1/libpod/volumes/json '{"dangling":["true"]}'
    no_foreign "raw libpod pods, label map" gw GET /v4.3.1/libpod/pods/json "{\"label\":{\"$lB\":true}}"
    no_foreign "raw libpod pods, name" gw GET /v4.3.1/libpod/pods/json '{"name":["isopb"]}'
    no_foreign "raw libpod networks, label!" gw GET /v4.3.1/libpod/networks/json "{\"label!\":[\"$lA\"]}"
    expect_output "podman volume ls lists own" isova pm volume ls
    for f in "label=$lB" "name=isovb" "dangling=true" "until=$FUTURE"; do
      no_foreign "podman volume ls --filter $f" pm volume ls --filter "$f"
    done
    expect_output "podman pod ps lists own" isopa pm pod ps
    for f in "label=$lB" "name=isopb" "status=created"; do
      no_foreign "podman pod ps --filter $f" pm pod ps --filter "$f"
    done
    no_foreign "podman ps -a --filter label=<p2>" pm ps -a --filter "label=$lB"
    no_foreign "podman network ls --filter name=isonb" pm network ls --filter name=isonb
    no_foreign "podman events --filter label=<p2>" pm events --since 10m --stream=false --filter "label=$lB"
  fi
  # the client's own filters still select among the project's volumes (podman:
  # forwarded without the label, the answer post-filtered; dockerd: ANDed)
  expect_output "volume ls -f name=isova lists own" isova dk volume ls -q -f name=isova
  expect_output "volume ls -f dangling=true lists own" isova dk volume ls -q -f dangling=true
  cg_run dk volume ls -q -f name=isovb
  if [ "$CG_RC" -eq 0 ] && [ -z "$CG_OUT" ]; then pass "volume ls -f name=<p2's> lists nothing"
  else fail "volume ls -f name=<p2's> lists nothing" "exit $CG_RC: $CG_OUT" quiet; fi
  if podman_only "podman volume ls --filter name=isova"; then
    expect_output "podman volume ls --filter name=isova lists own" isova pm volume ls -q --filter name=isova
  fi
}

i_prunes() {
  local lB="$KEY=$P2" lA="$KEY=$P1" f
  for f in "label=$lB" "label!=$lA" "label=tier=1"; do
    try_prune dk volume prune -f --filter "$f"
  done
  for f in "label=$lB" "label!=$lA" "until=1s"; do
    try_prune dk network prune -f --filter "$f"
    try_prune dk container prune -f --filter "$f"
    try_prune dk image prune -a -f --filter "$f"
  done
  survivors "docker CLI prunes with filters"
  no_foreign "raw volume prune, map form label" gw POST /v1.41/volumes/prune "{\"label\":{\"$lB\":true}}"
  no_foreign "raw volume prune, until" gw POST /v1.41/volumes/prune "{\"until\":[\"$FUTURE\"]}"
  no_foreign "raw volume prune, name" gw POST /v1.41/volumes/prune '{"name":["isovb"]}'
  no_foreign "raw image prune, label! map" gw POST /v1.41/images/prune "{\"label!\":{\"$lA\":true},\"dangling\":[\"false\"]}"
  no_foreign "raw image prune, two labels" gw POST /v1.41/images/prune "{\"label\":[\"$lB\",\"$lA\"]}"
  no_foreign "raw container prune, label! list" gw POST /v1.41/containers/prune "{\"label!\":[\"$lA\"]}"
  no_foreign "raw network prune, until" gw POST /v1.41/networks/prune "{\"until\":[\"$FUTURE\"]}"
  if podman_only "libpod prunes"; then
    no_foreign "raw libpod volume prune, label" gw POST /v4.3.1/libpod/volumes/prune "{\"label\":[\"$lB\"]}"
    no_foreign "raw libpod image prune, label first" gw POST /v4.3.1/libpod/images/prune "{\"label\":[\"$lB\"]}"
    no_foreign "raw libpod system prune, until" gw POST '/v4.3.1/libpod/system/prune?volumes=true' "{\"until\":[\"$FUTURE\"]}"
    no_foreign "raw libpod system prune, two labels" gw POST '/v4.3.1/libpod/system/prune?volumes=true' "{\"label\":[\"$lB\",\"$lA\"]}"
    no_foreign "raw libpod pod prune" gw POST /v4.3.1/libpod/pods/prune
    for f in "label=$lB" "until=$FUTURE"; do
      try_prune pm volume prune -f --filter "$f"
      try_prune pm image prune -a -f --filter "$f"
      try_prune pm system prune -f --volumes --filter "$f"
    done
    try_prune pm container prune -f --filter "label=$lB"
    try_prune pm network prune -f --filter "label=$lB"
    expect_fail_with "podman volume prune --filter refused with the reason" \
      "podman ORs volume prune filters" pm volume prune -f --filter "label=$lB"
    expect_fail_with "podman pod prune refused" "container-gateway: denied-endpoint" pm pod prune -f
  fi
  survivors "every filtered prune"
  # own prunes without filters remove project 1's unused resources, nothing else
  # (made afresh: a filtered prune above may have removed them already)
  bk volume inspect isova >/dev/null 2>&1 || dk volume create isova >/dev/null
  bk network inspect isona >/dev/null 2>&1 || dk network create isona >/dev/null
  bk container inspect isoca >/dev/null 2>&1 || dk create --name isoca --network none $IMG true >/dev/null
  bk image inspect "$IMA" >/dev/null 2>&1 || IMA=$(mk_image a2 "$P1")
  expect_ok "docker volume prune -f" dk volume prune -f
  expect_ok "docker network prune -f" dk network prune -f
  expect_ok "docker container prune -f" dk container prune -f
  expect_ok "docker image prune -a -f" dk image prune -a -f
  local left=()
  bk volume inspect isova >/dev/null 2>&1 && left+=(isova)
  bk network inspect isona >/dev/null 2>&1 && left+=(isona)
  bk container inspect isoca >/dev/null 2>&1 && left+=(isoca)
  bk image inspect "$IMA" >/dev/null 2>&1 && left+=("image ${IMA:0:12}")
  if [ ${#left[@]} -eq 0 ]; then pass "own prunes removed project 1's unused volume, network, container, image"
  else fail "own prunes removed project 1's unused resources" "left: ${left[*]}" quiet; fi
  # podman's system prune removes every project's stopped pods whatever the filter:
  # refused while any pod that is not project 1's exists (i_system_prune)
  if podman_only "podman system prune (own)"; then
    dk volume create isova2 >/dev/null
    expect_fail_with "podman system prune refused while other projects' pods exist" \
      "system prune is refused while pods that are not this project's exist on this podman" \
      pm system prune -f --volumes
    if bk volume inspect isova2 >/dev/null 2>&1; then pass "the refused system prune changed nothing"
    else fail "the refused system prune changed nothing" "isova2 removed" quiet; fi
  fi
  survivors "own prunes"
}

# libpod system prune prunes every project's stopped pods (and their
# containers) whatever the filter (measured: doc/filters.md, re-measured by
# filters.sh). The monitor lists every pod first and refuses while one is not project
# 1's, running or not (a running one could stop before the prune); with only its own
# pods the prune is forwarded (conformance routes-system-prune-rewritten).
pod_exists() { [ "$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$CG_BACKEND_SOCK" "http://d/v4.3.1/libpod/pods/$1/exists")" = 204 ]; }
i_system_prune() {
  podman_only "libpod system prune pre-check" || return 0
  local p left=()
  # project 2: a pod whose container ran and exited, and a running one; an unmanaged
  # stopped pod; project 1: its own stopped pod and an unused volume
  if ! { pm2 pod create --name isopx --infra=false && pm2 run --pod isopx --name isopxc $IMG true &&
         pm2 pod create --name isopr --infra=false && pm2 run -d --pod isopr --name isoprc $IMG sleep 300 &&
         backend POST /v4.3.1/libpod/pods/create '{"name":"isopy","no_infra":true}' &&
         backend POST /v4.3.1/libpod/containers/create '{"name":"isopyc","image":"'$IMG'","command":["true"],"pod":"isopy"}' &&
         backend POST /v4.3.1/libpod/pods/isopy/start &&
         pm pod create --name isopa2 --infra=false && pm run --pod isopa2 --name isopa2c $IMG true &&
         dk volume create isova3; } >/dev/null 2>&1; then
    fail "system prune pre-check: set-up" "could not create the pods"; return
  fi
  for _ in $(seq 100); do  # until the unmanaged pod's container has exited
    [ "$(bk inspect -f '{{.State.Status}}' isopyc 2>/dev/null)" = exited ] && break; sleep 0.1
  done
  expect_fail_with "podman system prune refused: project 2's and unmanaged pods exist" \
    "container-gateway: denied-endpoint: system prune is refused while pods that are not this project's exist on this podman: podman 4.3 removes every project's stopped pods and their containers whatever the filter; prune by kind" \
    pm system prune -f --volumes
  no_foreign "raw libpod system prune refused" gw POST '/v4.3.1/libpod/system/prune?volumes=true'
  if [[ $CG_OUT == "HTTP/1.1 403 "* ]]; then pass "raw libpod system prune: 403"; else fail "raw libpod system prune: 403" "" ; fi
  for p in isopx isopr isopy isopa2; do pod_exists $p || left+=("pod $p"); done
  for p in isopxc isoprc isopyc isopa2c; do bk container inspect $p >/dev/null 2>&1 || left+=("$p"); done
  bk volume inspect isova3 >/dev/null 2>&1 || left+=(isova3)
  if [ ${#left[@]} -eq 0 ]; then pass "the refused system prune removed nothing (stopped pods of project 2 and unmanaged survive)"
  else fail "the refused system prune removed nothing" "removed: ${left[*]}" quiet; fi
  # the stopped foreign pods gone, the running one alone still refuses
  pm2 pod rm -f isopx isopb >/dev/null 2>&1
  backend DELETE '/v4.3.1/libpod/pods/isopy?force=true' >/dev/null
  backend DELETE '/v4.3.1/libpod/pods/isopu?force=true' >/dev/null
  expect_fail_with "podman system prune refused: project 2's running pod exists" \
    "system prune is refused while pods that are not this project's exist" pm system prune -f --volumes
  pm2 pod kill isopr >/dev/null 2>&1; pm2 pod rm -f isopr >/dev/null 2>&1
  # only project 1's pods left: forwarded, and it prunes project 1's stopped pod and volume
  expect_ok "podman system prune -f --volumes with only the project's pods" pm system prune -f --volumes
  left=()
  pod_exists isopa2 && left+=("pod isopa2")
  bk volume inspect isova3 >/dev/null 2>&1 && left+=(isova3)
  if [ ${#left[@]} -eq 0 ]; then pass "podman system prune removed project 1's stopped pod and unused volume"
  else fail "podman system prune removed project 1's stopped pod and unused volume" "left: ${left[*]}" quiet; fi
  survivors "system prune with only the project's pods" nopods
}

# host facts through libpod fields (hostusers, timezone)
i_host_facts() {
  podman_only "libpod hostusers / timezone" || return 0
  expect_fail_with "podman run --hostuser refused" "container-gateway: host-path" \
    pm run --rm --network none --hostuser root $IMG true
  expect_fail_with "podman run --tz=<path> refused" "container-gateway: host-path" \
    pm run --rm --network none --tz=../../../../etc/shadow $IMG true
  expect_fail_with "podman run --tz=/etc/shadow refused" "container-gateway: host-path" \
    pm run --rm --network none --tz=/etc/shadow $IMG true
  if [ -e /usr/share/zoneinfo/Europe/Berlin ]; then
    expect_output "podman run --tz=Europe/Berlin" CET pm run --rm --network none --tz=Europe/Berlin $IMG date +%Z
  else
    skip "podman run --tz=Europe/Berlin" "no /usr/share/zoneinfo on this host"
  fi
}

# A reference the daemon joins from two query values (spec README, amendments of
# 2026-12-07): podman joins fromImage+tag on pull and repo+tag on commit and tag, so
# fromImage=containers-storage&tag=[vfs@DIR+DIR]x opens a root-owned image store at DIR,
# though each value alone names no transport. Measured on podman (the store appears even
# though the request then fails), then refused through project 1's gateway on every route
# that joins, with DIR inside project 2: nothing is created.
i_split_transport() {
  local d n=0 t
  if podman_only "measure (podman): a split transport reference opens a store"; then
    d=$CG_TMP/split-measure
    cg_run backend POST "/v1.41/images/create?fromImage=containers-storage&tag=$(urlenc "[vfs@$d/r+$d/s]x")"
    if [ -d "$d/r" ]; then pass "measure (podman): pull fromImage=containers-storage&tag=[vfs@..] made $d/r"
    else fail "measure (podman): pull fromImage=containers-storage&tag=[vfs@..] made a store" "answered: ${CG_OUT:0:200}"; fi
    rm -rf "$d"
  fi
  dk create --name isost $IMG true >/dev/null 2>&1
  for t in "POST /v1.41/images/create?fromImage=containers-storage&tag=%s" \
           "POST /v1.41/images/create?fromImage=dir&TAG=%s" \
           "POST /v1.41/commit?container=isost&repo=containers-storage&tag=%s" \
           "POST /v4.3.1/libpod/commit?container=isost&repo=containers-storage&tag=%s" \
           "POST /v1.41/images/$IMG/tag?repo=containers-storage&tag=%s" \
           "POST /v4.3.1/libpod/images/$IMG/tag?repo=containers-storage&tag=%s" \
           "POST /v4.3.1/libpod/images/$IMG/untag?repo=containers-storage&tag=%s"; do
    n=$((n + 1)); d=$P2/split$n
    [[ $t == *libpod* ]] && { podman_only "split transport: ${t%%\?*}" || continue; }
    if [[ $t == *TAG=* ]]; then
      # shellcheck disable=SC2059
      cg_run gw ${t%% *} "$(printf "${t#* }" "$(urlenc "$d")")"
    else
      # shellcheck disable=SC2059
      cg_run gw ${t%% *} "$(printf "${t#* }" "$(urlenc "[vfs@$d/r+$d/s]x")")"
    fi
    # TAG= is a case variant of the policed tag: refused before it is joined
    want="container-gateway: host-path"*"names an image transport"
    [[ $t == *TAG=* ]] && want="container-gateway: denied-query: TAG is not the canonical spelling of tag"
    # shellcheck disable=SC2053  # $want is a glob on purpose
    if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *$want* ]]; then
      pass "split transport refused (403): ${t%%\?*}"
    else fail "split transport refused (403): ${t%%\?*}" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
    if [ -e "$d" ]; then fail "split transport created nothing: ${t%%\?*}" "$d exists"
    else pass "split transport created nothing: ${t%%\?*}"; fi
  done
  bk rm -f isost >/dev/null 2>&1
}

# Filter keys holding '=' (spec README, amendments of 2026-12-07): podman joins each
# filter key and value with '=' and splits at the first '=', so {"label=KEY":[P2]} is
# the label filter KEY=P2, which image prune ORs with the project's label. Measured on
# podman (project 2's dangling image removed by that prune), then through project 1's
# gateway: image, volume and system prunes with '='- and '!='-spelled keys remove
# nothing of project 2's, and events with them show nothing of project 2's.
i_filter_key_split() {
  local lB="$KEY=$P2" lA="$KEY=$P1" im f
  if podman_only "measure (podman): a =-spelled label key on image prune"; then
    im=$(mk_image ks "$P2/ks")
    cg_run backend POST "/v1.41/images/prune?filters=$(urlenc "{\"label=$KEY\":[\"$P2/ks\"],\"label\":[\"$lA\"],\"dangling\":[\"true\"]}")"
    if ! bk image inspect "$im" >/dev/null 2>&1; then
      pass "measure (podman): images/prune {\"label=$KEY\":[v]} removed the image labelled v (ORed)"
    else
      fail "measure (podman): images/prune {\"label=$KEY\":[v]} removed the image labelled v" "answered: ${CG_OUT:0:200}"
      bk rmi -f "$im" >/dev/null 2>&1
    fi
  fi
  for f in "{\"label=$KEY\":[\"$P2\"]}" "{\"label=$KEY\":{\"$P2\":true}}" "{\"label!=$KEY\":[\"$P1\"]}"; do
    no_foreign "raw image prune, key spelled $f" gw POST /v1.41/images/prune "$f"
    no_foreign "raw volume prune, key spelled $f" gw POST /v1.41/volumes/prune "$f"
    no_foreign "raw container prune, key spelled $f" gw POST /v1.41/containers/prune "$f"
    no_foreign "raw events, key spelled $f" gw GET "/v1.41/events?since=$(( $(date +%s) - 600 ))&until=$(date +%s)" "$f"
    if [ "$CG_BACKEND" = podman ]; then
      no_foreign "raw libpod image prune, key spelled $f" gw POST /v4.3.1/libpod/images/prune "$f"
      no_foreign "raw libpod system prune, key spelled $f" gw POST '/v4.3.1/libpod/system/prune?volumes=true' "$f"
      no_foreign "raw libpod events, key spelled $f" gw GET "/v4.3.1/libpod/events?stream=false&since=$(( $(date +%s) - 600 ))&until=$(date +%s)" "$f"
    fi
  done
  survivors "prunes with =-spelled filter keys" nopods   # i_system_prune removes the foreign pods
}

# A form body is query values to dockerd (spec README, amendments of 2026-12-07): its
# import reads fromSrc, repo and changes of an application/x-www-form-urlencoded body
# ahead of the query. Measured on the private dockerd (it fetched a URL from the body and
# stamped the image with project 2's label), then refused through project 1's gateway:
# nothing fetched, no image. Docker backend only; the unit rows (tests/test_assemble.c)
# cover every stream route.
i_form_body() {
  [ "$CG_BACKEND" = docker ] || { skip "form-body import" "docker only (CG_BACKEND=$CG_BACKEND)"; return 0; }
  local d=$CG_TMP/formsrv port body lbl
  mkdir -p "$d" && bk export isocu > "$d/img.tar" || { fail "form body: set-up" "no tar"; return; }
  cg_bg python3 -u -m http.server --bind 127.0.0.1 0 --directory "$d" >"$d.log" 2>&1
  cg_wait_for 10000 grep -q 'Serving HTTP' "$d.log"
  port=$(grep -oE 'port [0-9]+' "$d.log" | head -n 1 | cut -d' ' -f2)
  if [ -z "$port" ]; then fail "form body: a local HTTP server" "no port"; return; fi
  body="fromSrc=$(urlenc "http://127.0.0.1:$port/img.tar")&repo=localhost%2Fisoform&changes=$(urlenc "LABEL $KEY=$P2")"
  cg_run curl -s -m 60 -X POST -H 'Content-Type: application/x-www-form-urlencoded' --data-binary "$body" \
    --unix-socket "$CG_BACKEND_SOCK" "http://d/v1.41/images/create?fromSrc=-"
  lbl=$(bk image inspect -f "{{index .Config.Labels \"$KEY\"}}" localhost/isoform 2>/dev/null)
  if [ "$lbl" = "$P2" ]; then pass "measure (docker): a form body's fromSrc URL is fetched and its changes applied"
  else fail "measure (docker): a form body's fromSrc URL is fetched and its changes applied" "label '$lbl': ${CG_OUT:0:200}"; fi
  bk rmi -f localhost/isoform >/dev/null 2>&1
  cg_run curl -s -i -m 60 -X POST -H 'Content-Type: application/x-www-form-urlencoded' --data-binary "$body" \
    --unix-socket "$R1/docker.sock" "http://d/v1.41/images/create?fromSrc=-"
  if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *"container-gateway: denied-query: a form body"* ]]; then
    pass "form-body import refused (403 denied-query)"
  else fail "form-body import refused (403 denied-query)" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  if bk image inspect localhost/isoform >/dev/null 2>&1; then fail "form-body import made no image" "localhost/isoform exists"
    bk rmi -f localhost/isoform >/dev/null 2>&1
  else pass "form-body import made no image"; fi
  if [ "$(grep -c 'GET /img.tar' "$d.log")" = 1 ]; then pass "form-body import fetched nothing (one GET: the measurement's)"
  else fail "form-body import fetched nothing" "$(grep -c 'GET /img.tar' "$d.log") GETs"; fi
  kill "$CG_BG_PID" 2>/dev/null
  cg_run curl -s -i -m 60 -X POST -H 'Content-Type: multipart/form-data; boundary=b' \
    --data-binary $'--b\r\nContent-Disposition: form-data; name="networkmode"\r\n\r\nhost\r\n--b--\r\n' \
    --unix-socket "$R1/docker.sock" "http://d/v1.41/build?t=isoform"
  if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *"container-gateway: denied-query: a form body"* ]]; then
    pass "multipart form-body build refused (403 denied-query)"
  else fail "multipart form-body build refused (403 denied-query)" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
}

# Allow-lists where a deny-list was (spec README, amendments of 2026-12-07). cgroup maps:
# podman forwards resource_limits.unified with any key (on this cgroup v1 host it fails
# every key alike, measured; on cgroup v2 runc writes cgroup.procs and cgroup.kill), so
# the gateway takes controller files only: cgroup.* is its 403 before podman sees it.
# Runtime hook variables (NVIDIA_*, CVE-2025-23266) on every road that sets the
# container's environment: run -e, exec -e, a build argument, a commit change, and the
# image's own ENV (measured: it reaches the container's environment). AppArmor profile
# names other than the daemons' defaults.
i_allow_lists() {
  local d=$CG_TMP/envctx
  if podman_only "cgroup maps"; then
    cg_run backend POST /v4.3.1/libpod/containers/create \
      "{\"image\":\"$IMG\",\"command\":[\"true\"],\"name\":\"isoug\",\"resource_limits\":{\"unified\":{\"cgroup.procs\":\"1\"}}}"
    if [[ $CG_OUT == *'cgroup v2'* ]]; then pass "measured (podman): unified cgroup.procs is refused only for want of cgroup v2"
    elif [[ $CG_OUT == *'"Id"'* ]]; then pass "measured (podman): unified cgroup.procs is taken (cgroup v2 host)"
    else fail "measured (podman): unified cgroup.procs" "answered: ${CG_OUT:0:200}"; fi
    backend DELETE '/v4.3.1/libpod/containers/isoug?force=true' >/dev/null
    for b in '{"resource_limits":{"unified":{"cgroup.procs":"1"}}}' '{"unified":{"cgroup.kill":"1"}}' \
             '{"resource_limits":{"unified":{"memory.max":"1","cgroup.subtree_control":"+memory"}}}'; do
      cg_run gwpost podman.sock /v4.3.1/libpod/containers/create "{\"image\":\"$IMG\",\"command\":[\"true\"],${b:1}"
      if [[ $CG_OUT == "HTTP/1.1 403"*"container-gateway: cgroup-parent:"*"only cgroup controller files may be set"* ]]; then
        pass "libpod create $b: the gateway's 403"
      else fail "libpod create $b: the gateway's 403" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
    done
    cg_run gwpost podman.sock /v4.3.1/libpod/pods/create '{"name":"isopu2","resource_limits":{"unified":{"cgroup.procs":"1"}}}'
    if [[ $CG_OUT == "HTTP/1.1 403"*"cgroup-parent"* ]]; then pass "pod create with unified cgroup.procs: the gateway's 403"
    else fail "pod create with unified cgroup.procs: the gateway's 403" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
    # a controller file passes the gateway and gets podman's own answer
    cg_run gwpost podman.sock /v4.3.1/libpod/containers/create "{\"image\":\"$IMG\",\"command\":[\"true\"],\"name\":\"isoug\",\"resource_limits\":{\"unified\":{\"memory.max\":\"100000000\"}}}"
    if [[ $CG_OUT != *"container-gateway"* ]]; then pass "libpod create with unified memory.max reaches podman"
    else fail "libpod create with unified memory.max reaches podman" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
    backend DELETE '/v4.3.1/libpod/containers/isoug?force=true' >/dev/null
    expect_fail_with "podman --remote run --security-opt apparmor=podman refused" \
      "container-gateway: security-opt: apparmor_profile=podman is refused" \
      pm run --rm --network none --security-opt apparmor=podman $IMG true
    expect_fail_with "podman --remote run -e NVIDIA_VISIBLE_DEVICES=all refused" \
      "container-gateway: devices: env variable NVIDIA_VISIBLE_DEVICES is refused" \
      pm run --rm --network none -e NVIDIA_VISIBLE_DEVICES=all $IMG true
  fi
  expect_fail_with "docker run --security-opt apparmor=runc refused" \
    "container-gateway: security-opt: apparmor=runc is refused" dk run --rm --network none --security-opt apparmor=runc $IMG true
  expect_fail_with "docker run -e NVIDIA_VISIBLE_DEVICES=all refused" \
    "container-gateway: devices: Env variable NVIDIA_VISIBLE_DEVICES is refused" \
    dk run --rm --network none -e NVIDIA_VISIBLE_DEVICES=all $IMG true
  dk create --name isoenv --network none $IMG sleep 300 >/dev/null && dk start isoenv >/dev/null
  expect_fail_with "docker exec -e NVIDIA_DRIVER_CAPABILITIES=all refused" \
    "container-gateway: devices:" dk exec -e NVIDIA_DRIVER_CAPABILITIES=all isoenv true
  expect_fail_with "docker commit --change 'ENV NVIDIA_VISIBLE_DEVICES=all' refused" \
    "container-gateway: devices: ENV NVIDIA_VISIBLE_DEVICES is refused" \
    dk commit --change 'ENV NVIDIA_VISIBLE_DEVICES=all' isoenv localhost/isoenv:c
  mkdir -p "$d" && printf 'FROM %s\nARG NVIDIA_VISIBLE_DEVICES\nRUN true\n' "$IMG" > "$d/Dockerfile"
  expect_fail_with "docker build --build-arg NVIDIA_VISIBLE_DEVICES=all refused" \
    "container-gateway: devices: build argument NVIDIA_VISIBLE_DEVICES is refused" \
    env DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$R1/docker.sock" timeout -k 5 "$CG_TIMEOUT" \
    docker build -q --build-arg NVIDIA_VISIBLE_DEVICES=all -t localhost/isoenv:b "$d"
  # the image's own ENV: measured to reach the container, then refused at create
  printf 'FROM %s\nENV NVIDIA_VISIBLE_DEVICES=all\n' "$IMG" > "$d/Dockerfile"
  DOCKER_BUILDKIT=0 bk build -q -t localhost/isoenv:i "$d" >/dev/null 2>&1
  expect_output "measured: an image's ENV NVIDIA_VISIBLE_DEVICES is in its container's environment" \
    NVIDIA_VISIBLE_DEVICES=all bk run --rm --network none localhost/isoenv:i env
  expect_fail_with "docker run of an image with ENV NVIDIA_VISIBLE_DEVICES refused" \
    "container-gateway: devices: image localhost/isoenv:i sets Env variable NVIDIA_VISIBLE_DEVICES is refused" \
    dk run --rm --network none localhost/isoenv:i true
  bk rm -f isoenv >/dev/null 2>&1
  for v in c b i; do bk rmi -f "localhost/isoenv:$v" >/dev/null 2>&1; done
  rm -rf "$d"
}

# dockerd 20.10 runs ps on the host for top and keeps the lines whose PID column holds
# a container pid, finding that column by counting blank-separated fields: with a
# free-text column before PID ("-C sleep -o args,pid --forest") a host process whose
# arguments hold a container pid was returned (measured). Through the gateway such
# ps_args are refused; formats that keep the PID column first pass. Docker only.
i_docker_ps_args() {
  [ "$CG_BACKEND" = docker ] || { skip "top ps_args" "docker only (CG_BACKEND=$CG_BACKEND)"; return 0; }
  local cpid hp
  dk run -d --name isotop --network none $IMG sleep 300 >/dev/null || { fail "top: set-up" "no container"; return; }
  cpid=$(bk inspect -f '{{.State.Pid}}' isotop)
  # the host process runs under a name of its own: dockerd parses every line ps prints, and
  # any other host "sleep 0.1" selected by -C sleep would break its PID column (seen under load)
  mkdir -p "$CG_TMP/topprobe"; cp "$(command -v sleep)" "$CG_TMP/topprobe/cgtopprobe"
  # argv[0] short too: ps cuts the args column at its width (a long path hid the pid behind it)
  cg_bg bash -c 'exec -a cgtopprobe "$0" "$1"' "$CG_TMP/topprobe/cgtopprobe" "$cpid"; hp=$CG_BG_PID
  # ps -C selects by the name after exec: wait until the forked shell has become the probe
  cg_wait_for 10000 grep -qx cgtopprobe "/proc/$hp/comm" || { fail "top: host probe" "pid $hp never ran cgtopprobe"; }
  cg_run backend GET "/v1.41/containers/isotop/top?ps_args=$(urlenc '-C cgtopprobe -o args,pid --forest')"
  if [[ $CG_OUT == *"\"$cpid $hp\""* || $CG_OUT == *"$hp"* ]]; then
    pass "measured (docker): top ps_args='-C cgtopprobe -o args,pid --forest' shows host process $hp"
  else fail "measured (docker): top ps_args='-C cgtopprobe -o args,pid --forest' shows a host process" "answered: ${CG_OUT:0:200}"; fi
  for a in '-C sleep -o args,pid --forest' '-o args,pid' '-eo user,pid' '-eM'; do
    cg_run gw GET "/v1.41/containers/isotop/top?ps_args=$(urlenc "$a")"
    if [[ $CG_OUT == "HTTP/1.1 403"*"container-gateway: denied-query: ps_args"* && $CG_OUT != *"$hp"* ]]; then
      pass "top ps_args='$a' refused (403)"
    else fail "top ps_args='$a' refused (403)" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  done
  expect_fail_with "docker top isotop -C sleep -o args,pid --forest refused" "container-gateway: denied-query: ps_args" \
    dk top isotop -C sleep -o args,pid --forest
  expect_output "docker top isotop -ef" "sleep 300" dk top isotop -ef
  expect_output "docker top isotop -eo pid,args --forest" "sleep 300" dk top isotop -eo pid,args --forest
  cg_run dk top isotop -eo pid,args
  if [[ $CG_OUT == *"sleep 300"* && $CG_OUT != *"$hp"* ]]; then pass "docker top -eo pid,args shows only the container's processes"
  else fail "docker top -eo pid,args shows only the container's processes" "$CG_OUT"; fi
  kill "$hp" 2>/dev/null
  bk rm -f isotop >/dev/null 2>&1
}

# No existence oracle in bind-source resolution (spec README, amendments of 2026-12-07):
# the monitor resolves bind sources as root, and answered "cannot be resolved" for an
# existing non-directory (/etc/passwd/x) but "outside the allowed roots" for a missing
# path, so a project could tell whether any host path exists. Now the two answers are
# byte-identical but for the path itself (sources of equal length), directly and through
# a symlink in the project.
i_bind_oracle() {
  local a b ra rb
  oracle_create() {  # SOURCE: the raw answer to a create binding it, the source replaced
    cg_timeout curl -s -i -m 30 -X POST -H 'Content-Type: application/json' --unix-socket "$R1/docker.sock" \
      -d "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"HostConfig\":{\"Binds\":[\"$1:/x\"]}}" \
      http://d/v1.41/containers/create | sed "s|$1|SOURCE|g"
  }
  for pair in "/etc/passwd/x /etc/passwq/x" "/etc/passwd /nonexist/x" "$P1/orf $P1/orm"; do
    a=${pair% *}; b=${pair#* }
    if [[ $a == "$P1"/* ]]; then ln -sfn /etc/passwd/x "$a"; ln -sfn /etc/passwq/x "$b"; fi
    ra=$(oracle_create "$a"); rb=$(oracle_create "$b")
    if [[ $ra == "HTTP/1.1 403"*"container-gateway: bind-mount: SOURCE is outside the allowed roots"* ]] && [ "$ra" = "$rb" ]; then
      pass "bind $a and $b: byte-identical 403s (but for the source)"
    else fail "bind $a and $b: byte-identical 403s (but for the source)" "$(head -n 1 <<<"$ra") / $(head -n 1 <<<"$rb"): $(diff <(echo "$ra") <(echo "$rb") | head -n 4 | tr '\n' ' ')"; fi
  done
  rm -f "$P1/orf" "$P1/orm"
}

# Red-team finding: with the bind option U podman walks the source on the host as root at
# each start and chowns every entry by path, following a directory a second container
# swapped for a symlink meanwhile (host files outside every project changed owner).
# Measured on podman itself: U chowns the bound directory's files to the container's
# user. Through the gateway U is refused on binds and volumes, docker and podman CLIs.
i_chown_option() {
  local d=$P1/isochown
  mkdir -p "$d/sub" && touch "$d/sub/f" && chown -R 0:0 "$d"
  if podman_only "the U option"; then
    bk run --rm --network none -u 4321:4321 -v "$d:/x:U" $IMG true >/dev/null 2>&1
    if [ "$(stat -c %u "$d/sub/f")" = 4321 ]; then pass "measured (podman): U chowns the bound files on the host"
    else fail "measured (podman): U chowns the bound files on the host" "owner $(stat -c %u "$d/sub/f")"; fi
    expect_fail_with "podman --remote run -v SRC:/x:U refused" \
      "container-gateway: bind-mount: bind option U is refused" pm run --rm --network none -v "$d:/x:U" $IMG true
    expect_fail_with "podman --remote run --mount type=volume,U=true refused" \
      "container-gateway: bind-mount: bind option U is refused" \
      pm run --rm --network none --mount type=volume,src=isochownv,dst=/x,U=true $IMG true
  fi
  expect_fail_with "docker run -v SRC:/x:U refused" \
    "container-gateway: bind-mount: bind option U is refused" dk run --rm --network none -v "$d:/x:U" $IMG true
  expect_fail_with "docker run -v VOLUME:/x:U refused" \
    "container-gateway: bind-mount: bind option U is refused" dk run --rm --network none -v isochownv:/x:U $IMG true
  rm -rf "$d"
  bk volume rm -f isochownv >/dev/null 2>&1
  return 0
}

# Red-team finding: podman refuses a new network whose name is a prefix of an
# existing network's id, so short all-hex names would tell project 1 project 2's network
# ids, one hex digit per at most 16 creates. Measured on podman itself (the oracle), then
# through the gateway: names of fewer than 12 hex digits are refused (one answer, nothing
# created); from 12 on a refusal tells only what the client guessed whole, and
# testcontainers' new Network() names networks with 12 hex digits: they pass
# (amendments of 2026-12-07: hex names are not refused for being hex).
i_hex_network_names() {
  local id pre other n msg
  id=$(backend GET /v1.41/networks/isonb | python3 -c 'import json,sys; print(json.load(sys.stdin)["Id"])')
  if [[ ! $id =~ ^[0-9a-f]{64}$ ]]; then fail "hex network names: project 2's network id" "got '$id'"; return; fi
  pre=${id:0:12}
  other=$( [ "${pre:0:1}" = 0 ] && echo 1 || echo 0 )${pre:1}    # differs in the first digit: prefixes no id
  if podman_only "measure (podman): a network name that prefixes an id"; then
    cg_run backend POST /v4.3.1/libpod/networks/create "{\"name\":\"${pre:0:3}\"}"
    if [[ $CG_OUT == *"network name ${pre:0:3} already used"* ]]; then
      pass "measure (podman): a network name that prefixes another network's id is refused"
    else fail "measure (podman): a network name that prefixes another network's id is refused" "answered: $CG_OUT"; fi
    cg_run backend POST /v4.3.1/libpod/networks/create "{\"name\":\"${other:0:3}\"}"
    if [[ $CG_OUT == *"\"name\":\"${other:0:3}\""* ]]; then
      pass "measure (podman): an all-hex name that prefixes no id is created (the two answers differ)"
    else fail "measure (podman): an all-hex name that prefixes no id is created (the two answers differ)" "answered: $CG_OUT"; fi
    backend DELETE "/v4.3.1/libpod/networks/${other:0:3}" >/dev/null
  fi
  for n in "${pre:0:3}" "${other:0:3}" 0abc "${pre:0:11}"; do
    msg="container-gateway: network: network name $n is refused: short names made only of hex digits can match other networks' ids; use at least 12 hex digits, or a character other than 0-9 and a-f"
    expect_fail_with "docker network create $n refused (403)" "$msg" dk network create "$n"
  done
  if [ "$CG_BACKEND" = podman ]; then
    expect_fail_with "podman --remote network create 0abc refused (403)" \
      "container-gateway: network: network name 0abc is refused: short names made only of hex digits" \
      pm network create 0abc
    cg_run curl -s -i -m 20 -X POST -H 'Content-Type: application/json' -d '{"name":"DEADBEEF"}' \
      --unix-socket "$R1/podman.sock" http://d/v4.3.1/libpod/networks/create
    if [[ $CG_OUT == "HTTP/1.1 403 Forbidden"* && $CG_OUT == *"network name DEADBEEF is refused"* ]]; then
      pass "libpod network create DEADBEEF: 403"
    else fail "libpod network create DEADBEEF: 403" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  fi
  cg_run bk network ls --format '{{.Name}}'
  if grep -qxE "0abc|DEADBEEF|${pre:0:3}|${other:0:3}|${pre:0:11}" <<<"$CG_OUT"; then
    fail "refused hex names created nothing" "backend has: $(echo $CG_OUT)"
    for n in 0abc DEADBEEF "${pre:0:3}" "${other:0:3}" "${pre:0:11}"; do bk network rm "$n" >/dev/null 2>&1; done
  else pass "refused hex names created nothing"; fi
  # 12 hex digits (testcontainers' names) and one character outside 0-9a-f pass
  expect_ok "docker network create $other (12 hex digits)" dk network create "$other"
  bk network rm "$other" >/dev/null 2>&1
  expect_ok "docker network create 0abg" dk network create 0abg
  bk network rm 0abg >/dev/null 2>&1
}

# Names shaped like ids (amendments of 2026-12-07): podman 4.3.1 and dockerd 20.10
# resolve a name before an id prefix (measured), so project 1's container named after
# project 2's short id took it: project 2's own `docker stop <short id>` answered 404
# through its gateway. Now the project's own id prefix wins: the monitor finds the
# project's resource with that prefix and forwards its full id.
i_short_id_names() {
  local b s
  dk2 create --name isosb --network none $IMG sleep 300 >/dev/null || { fail "short ids: set-up" "no container"; return; }
  b=$(bk inspect -f '{{.Id}}' isosb); s=${b:0:12}
  expect_ok "project 1 may name its container $s (names are one namespace per daemon)" \
    dk create --name "$s" --network none $IMG true
  cg_run backend GET "/v1.41/containers/$s/json"
  if [[ $CG_OUT == *'"Name":"/'"$s"'"'* ]]; then pass "measured ($CG_BACKEND): $s resolves to the container of that name, not the id prefix"
  else fail "measured ($CG_BACKEND): $s resolves to the container of that name" "answered: ${CG_OUT:0:160}"; fi
  expect_ok "project 2: docker start $s (its own short id)" dk2 start "$s"
  expect_ok "project 2: docker stop $s (its own short id)" dk2 stop -t 1 "$s"
  expect_output "project 2: docker inspect $s is its own container" "$b" dk2 inspect -f '{{.Id}}' "$s"
  expect_output "project 1: docker inspect $s is its own container (the name)" "/$s" dk inspect -f '{{.Name}}' "$s"
  if [ "$(bk inspect -f '{{.State.Status}}' "$s")" = created ]; then pass "project 1's container named $s was not touched"
  else fail "project 1's container named $s was not touched" "$(bk inspect -f '{{.State.Status}}' "$s")"; fi
  if podman_only "short ids: libpod and pods"; then
    expect_ok "project 2: podman --remote start $s" pm2 start "$s"
    expect_output "project 2: podman --remote inspect $s" "$b" pm2 inspect -f '{{.Id}}' "$s"
    pm2 pod create --name isopsb --infra=false >/dev/null
    b=$(curl -s --unix-socket "$CG_BACKEND_SOCK" http://d/v4.3.1/libpod/pods/isopsb/json | python3 -c 'import json,sys; print(json.load(sys.stdin)["Id"])')
    expect_ok "project 1 may name its pod ${b:0:12}" pm pod create --name "${b:0:12}" --infra=false
    expect_output "project 2: podman --remote pod inspect ${b:0:12} is its own pod" "$b" pm2 pod inspect -f '{{.ID}}' "${b:0:12}"
    backend DELETE "/v4.3.1/libpod/pods/${b:0:12}?force=true" >/dev/null
    backend DELETE '/v4.3.1/libpod/pods/isopsb?force=true' >/dev/null
  fi
  if [ "$CG_BACKEND" = docker ]; then   # podman refuses a network name that prefixes an id
    dk2 network create isonsb >/dev/null
    b=$(bk network inspect -f '{{.Id}}' isonsb)
    expect_ok "project 1 may name its network ${b:0:12}" dk network create "${b:0:12}"
    expect_output "project 2: docker network inspect ${b:0:12} is its own network" "$b" \
      dk2 network inspect -f '{{.Id}}' "${b:0:12}"
    bk network rm isonsb "${b:0:12}" >/dev/null 2>&1
  fi
  bk rm -f isosb "$s" >/dev/null 2>&1
}

# Mount fields are text to podman (red team s5 F1, F5). Podman 4.3 rebuilds a compat
# Mounts entry as "type=..,source=..,target=.." and parses it as CSV, the last key
# winning; a libpod mount type is compared exactly ("TMPFS" is no tmpfs to podman, and
# with rbind runc bound its source). Measured first, then refused through the gateway.
# gwpost SOCKET PATH BODY: raw POST through project 1's gateway, status line and body
gwpost() { curl -s -i -m 30 -X POST -H 'Content-Type: application/json' -d "$3" --unix-socket "$R1/$1" "http://d$2"; }
i_mount_text() {
  local d=$P1/mt body
  mkdir -p "$d"
  if podman_only "measure (podman): mount text"; then
    cg_run backend POST '/v1.41/containers/create?name=isomt1' \
      "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"HostConfig\":{\"Mounts\":[{\"Type\":\"bind\",\"Source\":\"$d\",\"Target\":\"/x,source=/etc\"}]}}"
    cg_run backend GET /v1.41/containers/isomt1/json
    if [[ $(python3 -c 'import json,sys; print(json.load(sys.stdin)["Mounts"][0]["Source"])' <<<"$CG_OUT" 2>/dev/null) == /etc ]]; then
      pass "measure (podman): a compat mount whose Target holds ',source=/etc' binds /etc"
    else fail "measure (podman): a compat mount whose Target holds ',source=/etc' binds /etc" "inspect: ${CG_OUT:0:300}"; fi
    bk rm -f isomt1 >/dev/null 2>&1
    cg_run backend POST /v4.3.1/libpod/containers/create \
      "{\"image\":\"$IMG\",\"command\":[\"true\"],\"name\":\"isomt2\",\"mounts\":[{\"type\":\"tmpfs\",\"source\":\"/etc\",\"destination\":\"/x\",\"options\":[\"rbind\"]}]}"
    if [[ $CG_OUT == *"not allowed with tmpfs"* ]]; then
      pass "measure (podman): an exact tmpfs mount with rbind is refused by podman"
    else fail "measure (podman): an exact tmpfs mount with rbind is refused by podman" "answered: ${CG_OUT:0:300}"; fi
    cg_run backend POST /v4.3.1/libpod/containers/create \
      "{\"image\":\"$IMG\",\"command\":[\"true\"],\"name\":\"isomt3\",\"mounts\":[{\"type\":\"TMPFS\",\"source\":\"/etc\",\"destination\":\"/x\",\"options\":[\"rbind\"]}]}"
    if [[ $CG_OUT == *'"Id"'* ]]; then
      pass "measure (podman): a TMPFS mount with rbind is accepted (the type is compared exactly)"
    else fail "measure (podman): a TMPFS mount with rbind is accepted (the type is compared exactly)" "answered: ${CG_OUT:0:300}"; fi
    bk rm -f isomt2 isomt3 >/dev/null 2>&1
  fi
  expect_fail_with "docker run --mount with a quoted target holding ',source=/' refused (403)" \
    "container-gateway: bind-mount: mount Target holds a comma, a quote or a line break, which podman would read as more mount options; name the path without them" \
    dk run --rm --name isomt4 --mount "type=bind,source=$d,\"target=/x,source=/\"" "$IMG" true
  # what that hint offers: -v binds a project directory whose name holds a comma (Binds are not
  # re-read as mount text)
  mkdir -p "$d/a,b" && echo comma-ok >"$d/a,b/f"
  expect_output "docker run -v with a comma in the project path works (the F1 hint)" "comma-ok" \
    dk run --rm -v "$d/a,b:/x" "$IMG" cat /x/f
  # red team s7 F3: a project symlink to such a directory resolves to a path the monitor's
  # replay refuses; the child refuses it first, so the client gets a 403, not a closed
  # connection (and the child is not killed as a protocol violation)
  mkdir -p "$d/c:d" && ln -sfn "$d/a,b" "$d/lnk1" && ln -sfn "$d/c:d" "$d/lnk2"
  cg_run gwpost docker.sock /v1.41/containers/create \
    "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"HostConfig\":{\"Mounts\":[{\"Type\":\"bind\",\"Source\":\"$d/lnk1\",\"Target\":\"/x\"}]}}"
  if [[ $CG_OUT == "HTTP/1.1 403"*"bind-mount"*"resolves to"* ]]; then pass "compat mount whose source resolves to a comma path: 403 bind-mount"
  else fail "compat mount whose source resolves to a comma path: 403 bind-mount" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  cg_run gwpost docker.sock /v1.41/containers/create \
    "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"HostConfig\":{\"Binds\":[\"$d/lnk2:/x\"]}}"
  if [[ $CG_OUT == "HTTP/1.1 403"*"bind-mount"*"resolves to"* ]]; then pass "compat bind whose source resolves to a path with ':': 403 bind-mount"
  else fail "compat bind whose source resolves to a path with ':': 403 bind-mount" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  for body in "\"Target\":\"/x\",\"Consistency\":\"consistent,source=/etc\"" \
              "\"Target\":\"/x\",\"BindOptions\":{\"Propagation\":\"rprivate,source=/etc\"}" \
              "\"Target\":\"/x\\n\""; do
    cg_run gwpost docker.sock /v1.41/containers/create \
      "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"HostConfig\":{\"Mounts\":[{\"Type\":\"bind\",\"Source\":\"$d\",$body}]}}"
    if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *"bind-mount"* ]]; then pass "compat mount {$body}: 403 bind-mount"
    else fail "compat mount {$body}: 403 bind-mount" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  done
  if podman_only "libpod mount types"; then
    for body in TMPFS Tmpfs Bind; do
      cg_run gwpost podman.sock /v4.3.1/libpod/containers/create \
        "{\"image\":\"$IMG\",\"command\":[\"true\"],\"mounts\":[{\"type\":\"$body\",\"source\":\"/etc\",\"destination\":\"/x\",\"options\":[\"rbind\"]}]}"
      if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *"mount-type"* ]]; then pass "libpod mount type $body: 403 mount-type"
      else fail "libpod mount type $body: 403 mount-type" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
    done
    expect_output "podman --remote run --mount type=tmpfs still works" "tmpfs" \
      pm run --rm --mount type=tmpfs,destination=/t "$IMG" sh -c 'grep " /t " /proc/mounts | cut -d" " -f3'
  fi
  expect_output "docker run --mount type=bind inside the project still works" "ok" \
    dk run --rm --mount "type=bind,source=$d,target=/x" "$IMG" sh -c 'echo ok'
  cg_run bk ps -a --format '{{.Names}}'
  if grep -qE '^isomt' <<<"$CG_OUT"; then fail "refused mounts created nothing" "backend has: $(grep isomt <<<"$CG_OUT" | tr '\n' ' ')"
  else pass "refused mounts created nothing"; fi
}

# redteam5 F2: both daemons compare network modes and built-in network names exactly, so
# "Default", "BRIDGE", "None" (and "Podman", "Private", "pasta" on podman 4.3.1) are plain
# network names that any project can create. Measured first on the backend itself; then
# project 1 cannot join project 2's networks of those names through either CLI, while the
# real keywords still pass.
i_network_name_case() {
  local names=(Default BRIDGE None) n nets c=0
  [ "$CG_BACKEND" = podman ] && names+=(Podman Private pasta)
  expect_fail_match "measure ($CG_BACKEND): a network named bridge cannot be created" \
    'conflicts with a valid network mode|predefined bridge network' bk network create bridge
  for n in "${names[@]}"; do
    expect_ok "project 2 creates network $n" dk2 network create "$n"
    c=$((c + 1))
    cg_run bk create --name "isonc$c" --network "$n" $IMG true
    nets=$(bk inspect -f '{{range $k, $v := .NetworkSettings.Networks}}{{$k}} {{end}}' "isonc$c" 2>&1)
    if [ "$nets" = "$n " ]; then pass "measure ($CG_BACKEND): --network $n joins the network named $n"
    else fail "measure ($CG_BACKEND): --network $n joins the network named $n" "joined: $nets ($CG_OUT)"; fi
    bk rm -f "isonc$c" >/dev/null 2>&1
    expect_fail_with "docker run --network $n: project 2's network refused" \
      "network $n is not a network of this project" dk create --name "isonc${c}d" --network "$n" $IMG true
    if [ "$CG_BACKEND" = podman ]; then
      expect_fail_with "podman --remote run --network $n: project 2's network refused" \
        "network $n is not a network of this project" pm create --name "isonc${c}p" --network "$n" $IMG true
    fi
  done
  cg_run curl -s -i -m 20 -X POST -H 'Content-Type: application/json' --unix-socket "$R1/docker.sock" \
    -d "{\"Image\":\"$IMG\",\"NetworkingConfig\":{\"EndpointsConfig\":{\"Default\":{}}}}" http://d/v1.41/containers/create
  if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *"network Default is not a network of this project"* ]]; then
    pass "compat EndpointsConfig Default: 403"
  else fail "compat EndpointsConfig Default: 403" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  if [ "$CG_BACKEND" = podman ]; then
    expect_fail_with "podman --remote pod create --network Default refused" \
      "network Default is not a network of this project" pm pod create --name isopn --network Default
    expect_fail_with "project 1 cannot create a network named podman" \
      "network name podman is refused" dk network create podman
    # the stock podman's default network: unlabelled, joined without a check
    bk network create podman >/dev/null
  fi
  # the keywords themselves still pass
  for n in none bridge default $( [ "$CG_BACKEND" = podman ] && echo podman); do
    c=$((c + 1))
    expect_ok "docker run --network $n" dk create --name "isonc$c" --network "$n" $IMG true
    bk rm -f "isonc$c" >/dev/null 2>&1
  done
  if [ "$CG_BACKEND" = podman ]; then
    for n in none bridge default private podman; do
      c=$((c + 1))
      expect_ok "podman --remote run --network $n" pm create --name "isonc$c" --network "$n" $IMG true
      bk rm -f "isonc$c" >/dev/null 2>&1
    done
    bk network rm podman >/dev/null 2>&1
  fi
  # what a wrongly accepted create left behind holds the networks
  for n in $(bk ps -aq --filter name=isonc); do bk rm -f "$n" >/dev/null 2>&1; done
  [ "$CG_BACKEND" = podman ] && backend DELETE "/v4.3.1/libpod/pods/isopn?force=true" >/dev/null
  for n in "${names[@]}"; do bk network rm "$n" >/dev/null 2>&1; done
}

# dockerd 20.10 reads every boolean query value but "", 0, no, false and none (trimmed, any
# case) as true; podman refuses null, [] and {}. The gateway took those for "no force", so
# force=null on image remove was a forced removal on dockerd, past the force rule: project 1's
# image was deleted while project 2's container used it. Measured first, then refused.
i_force_falsy() {
  local v n=0 tag
  mk_image fm "$P1" | xargs -I{} curl -s -m 30 -X POST --unix-socket "$CG_BACKEND_SOCK" \
    "http://d/v1.41/images/{}/tag?repo=localhost/isoff&tag=m" >/dev/null
  bk create --name isoff0 localhost/isoff:m true >/dev/null 2>&1
  cg_run backend DELETE "/v1.41/images/localhost/isoff:m?force=null"
  if [ "$CG_BACKEND" = docker ]; then
    if [[ $CG_OUT == *'"Deleted"'* ]]; then pass "measured (docker): force=null removes an image a container uses"
    else fail "measured (docker): force=null removes an image a container uses" "answered: ${CG_OUT:0:300}"; fi
  elif [[ $CG_OUT == *"error converting value for \\\"force\\\""* ]]; then
    pass "measured (podman): force=null is no boolean to podman"
  else fail "measured (podman): force=null is no boolean to podman" "answered: ${CG_OUT:0:300}"; fi
  bk rm -f isoff0 >/dev/null 2>&1; bk rmi -f localhost/isoff:m >/dev/null 2>&1
  for v in null NULL %5B%5D %7B%7D; do
    n=$((n + 1)); tag=f$n
    mk_image "ff$n" "$P1" | xargs -I{} curl -s -m 30 -X POST --unix-socket "$CG_BACKEND_SOCK" \
      "http://d/v1.41/images/{}/tag?repo=localhost/isoff&tag=$tag" >/dev/null
    # project 2's container (made on the backend: project 2's own creates refuse project
    # 1's labelled image since red team rt10 F1)
    bk create --label "$KEY=$P2" --name "isoff$n" "localhost/isoff:$tag" true >/dev/null 2>&1
    cg_run gw DELETE "/v1.41/images/localhost/isoff:$tag?force=$v"
    if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *"force removes containers of other projects"* ]]; then
      pass "image remove force=$v: 403 denied-query"
    else fail "image remove force=$v: 403 denied-query" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
    if bk image inspect "localhost/isoff:$tag" >/dev/null 2>&1; then pass "force=$v: the image project 2 uses survives"
    else fail "force=$v: the image project 2 uses survives" "localhost/isoff:$tag is gone"; fi
  done
  cg_run gw DELETE "/v1.41/images/localhost/isoff:f1?force=false"
  if [[ $CG_OUT == "HTTP/1.1 409"* ]]; then pass "image remove force=false reaches the daemon (409: in use)"
  else fail "image remove force=false reaches the daemon (409: in use)" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
  for v in 1 2 3 4; do bk rm -f "isoff$v" >/dev/null 2>&1; bk rmi -f "localhost/isoff:f$v" >/dev/null 2>&1; done
}

# ---- projects do not share a network (spec amendment of 2026-12-07) ----------------
# A tiny TCP service per container: busybox nc answers each connection with a word.
# probe CLI [RUN-ARGS...] -- TARGET...: a new container of CLI's project (docker run
# --rm, or podman --remote) connects to each TARGET's port 8000 (1 s to connect) and
# prints "eth0" when it has an address, then "TARGET=<answer>" per target.
probe() {
  local cli=$1 args=() t script='ip -4 -o addr show eth0 2>/dev/null | grep -q inet && echo eth0;'; shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done; shift
  for t in "$@"; do script="$script echo $t=\$(nc -w 1 $t 8000 </dev/null 2>/dev/null);"; done
  $cli run --rm "${args[@]}" $IMG sh -c "$script" 2>&1
}
svc() {  # svc CLI NAME WORD [RUN-ARGS...]: a detached service container of CLI's project
  local cli=$1 name=$2 word=$3; shift 3
  $cli run -d --name "$name" "$@" $IMG nc -ll -p 8000 -e echo "$word" >/dev/null 2>&1
}
svc_ip() { bk inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}' "$1" 2>/dev/null | awk '{print $1}'; }
ctr_nets() { bk inspect -f '{{range $k, $v := .NetworkSettings.Networks}}{{$k}} {{end}}' "$1" 2>/dev/null; }
svc_listening() { [ "$(bk exec "$1" nc -w 1 127.0.0.1 8000 </dev/null 2>/dev/null)" = "$2" ]; }
# reached NAME WANT CLI [RUN-ARGS...] -- TARGET: TARGET answers WANT (five tries: a
# new address takes a moment to be resolvable and reachable)
reached() {
  local name=$1 want=$2 cli=$3 i; shift 3
  for i in 1 2 3 4 5; do   # three were not enough at a load average of 20
    cg_run probe "$cli" "$@"
    [[ $CG_OUT == *"=$want"* ]] && { pass "$name"; return; }
  done
  fail "$name" "answer: $(tr '\n' ' ' <<<"$CG_OUT")"
}
# blocked NAME CLI [RUN-ARGS...] -- TARGET...: the probe ran with an address and no
# TARGET answered
blocked() {
  local name=$1 cli=$2; shift 2
  cg_run probe "$cli" "$@"
  if [[ $CG_OUT != eth0* ]]; then fail "$name" "the probe did not run with an address: $(tr '\n' ' ' <<<"$CG_OUT")"
  elif [[ $CG_OUT == *=iso-* ]]; then fail "$name" "reached: $(grep '=iso-' <<<"$CG_OUT" | tr '\n' ' ')"
  else pass "$name"; fi
}
labels_of() { bk network inspect -f '{{range $k, $v := .Labels}}{{$k}}={{$v}} {{end}}' "$1" 2>/dev/null; }
# the project network of project 1: labelled with the project and as its default one
own_net_ok() { [[ $(labels_of "$1") == *"$KEY=$P1 "* && $(labels_of "$1") == *"org.apache.magpie.network=default "* ]]; }
libpod_isolate() { backend GET "/v4.3.1/libpod/networks/$1/json" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("options", {}).get("isolate", "-"))' 2>/dev/null; }

# Measured on podman 4.3.1 (netavark 1.4) and dockerd 20.10 (iptables on): a container
# of project 1, on the default network or any network the gateway lets it join, reaches
# no service of project 2, by address; inside one project containers reach each other
# by address and by name, and -p publishes on 127.0.0.1. Podman isolates two bridges
# only when both carry isolate=true, and slirp4netns connects from the host itself:
# measured first on the backend. The project network is pruned like any other of the
# project's and made again on next use, once for concurrent first uses, and a name
# another project took gives way to another.
i_network_projects() {
  local ip2 ipo ip1 pn1 port got n nets i pids
  svc dk2 isons2 iso-secret-2 && dk2 network create isonp2 >/dev/null &&
    svc dk2 isons2o iso-secret-2o --network isonp2
  if ! cg_wait_for 20000 svc_listening isons2 iso-secret-2 || ! cg_wait_for 20000 svc_listening isons2o iso-secret-2o; then
    fail "project 2's services start" "$(bk logs isons2 2>&1 | tail -n 2)"; return
  fi
  ip2=$(svc_ip isons2); ipo=$(svc_ip isons2o)
  if [ -z "$ip2" ] || [ -z "$ipo" ]; then fail "project 2's services have addresses" "default '$ip2', own '$ipo'"; return; fi
  reached "project 2 reaches its own service by address" iso-secret-2 dk2 -- "$ip2"
  reached "project 2 reaches its own service by name" iso-secret-2 dk2 -- isons2
  blocked "project 1 on the default network reaches no service of project 2" dk -- "$ip2" "$ipo"
  dk network create isonp1 >/dev/null
  # podman 4.3.1's own compat network inspect and list drop the isolate option it holds
  # (until a network file changes): the gateway answers them from its libpod API
  dk network inspect isonp1 >/dev/null; dk network ls >/dev/null
  if [ "$CG_BACKEND" = podman ]; then
    [ "$(libpod_isolate isonp1)" = true ] && pass "docker network inspect and ls leave project 1's network isolated" ||
      fail "docker network inspect and ls leave project 1's network isolated" "isolate=$(libpod_isolate isonp1)"
  fi
  blocked "project 1 on a network of its own reaches no service of project 2" dk --network isonp1 -- "$ip2" "$ipo"
  if [ "$CG_BACKEND" = podman ]; then
    blocked "podman --remote: project 1 reaches no service of project 2" pm -- "$ip2" "$ipo"
    pm pod create --name isopn1 >/dev/null
    blocked "a container in a pod of project 1 reaches no service of project 2" pm --pod isopn1 -- "$ip2" "$ipo"
    # a build's RUN steps: on podman's default network they reached project 2's service
    mkdir -p "$P1/isonb"
    printf 'FROM %s\nRUN ip -4 -o addr show eth0 | grep -q inet && echo run-eth0; echo got=$(nc -w 1 %s 8000 </dev/null 2>/dev/null)\n' \
      "$IMG" "$ipo" > "$P1/isonb/Dockerfile"
    cg_run env DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$R1/docker.sock" timeout -k 5 "$CG_TIMEOUT" \
      docker build --no-cache -t localhost/isonb:1 "$P1/isonb"
    if [[ $CG_OUT == *run-eth0* && $CG_OUT == *got=* && $CG_OUT != *got=iso-* ]]; then
      pass "a build's RUN step of project 1 reaches no service of project 2"
    else fail "a build's RUN step of project 1 reaches no service of project 2" "$(grep -E 'run-eth0|got=|rror' <<<"$CG_OUT" | tr '\n' ' ')"; fi
  fi
  # project 1's own network, inside the project, and -p from the host
  svc dk isons1 iso-secret-1 -p 127.0.0.1::8000
  cg_wait_for 20000 svc_listening isons1 iso-secret-1 || fail "project 1's service starts" "$(bk logs isons1 2>&1 | tail -n 2)"
  pn1=$(ctr_nets isons1); pn1=${pn1% }; ip1=$(svc_ip isons1)
  if own_net_ok "$pn1"; then pass "project 1's default network is $pn1, labelled as its own"
  else fail "project 1's default network is its own" "joined '$pn1': $(labels_of "$pn1")"; fi
  reached "project 1 reaches its own service by address" iso-secret-1 dk -- "$ip1"
  reached "project 1 reaches its own service by name" iso-secret-1 dk -- isons1
  port=$(dk port isons1 8000/tcp 2>/dev/null | head -n 1); port=${port##*:}
  if cg_wait_for 10000 eval '[ "$(timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port && cat <&3" 2>/dev/null)" = iso-secret-1 ]'; then
    pass "docker run -p 127.0.0.1::8000: the host reaches project 1's service"
  else fail "docker run -p: the host reaches project 1's service" "port '$port'"; fi
  for n in bridge default $( [ "$CG_BACKEND" = podman ] && echo podman private); do
    dk create --name "isonm-$n" --network "$n" $IMG true >/dev/null 2>&1
    nets=$(ctr_nets "isonm-$n")
    if [ "$nets" = "$pn1 " ]; then pass "docker run --network $n joins project 1's network"
    else fail "docker run --network $n joins project 1's network" "joined '$nets'"; fi
  done
  if [ "$CG_BACKEND" = podman ]; then
    for n in bridge private; do
      pm create --name "isonm-p$n" --network "$n" $IMG true >/dev/null 2>&1
      nets=$(ctr_nets "isonm-p$n")
      if [ "$nets" = "$pn1 " ]; then pass "podman --remote run --network $n joins project 1's network"
      else fail "podman --remote run --network $n joins project 1's network" "joined '$nets'"; fi
    done
    # what it takes on podman: both bridges isolated, and no compat inspect of them
    backend POST /v4.3.1/libpod/networks/create '{"name":"isonstrip","options":{"isolate":"true"}}' >/dev/null
    backend GET /v1.41/networks/isonstrip >/dev/null
    [ "$(libpod_isolate isonstrip)" = - ] && pass "measure (podman): its own compat network inspect drops the isolate option" ||
      fail "measure (podman): its own compat network inspect drops the isolate option" "isolate=$(libpod_isolate isonstrip)"
    got=$(dk network inspect -f '{{.Name}} {{.Driver}} {{range $k, $v := .Containers}}{{$v.Name}} {{end}}' "$pn1" 2>&1)
    [[ $got == "$pn1 bridge "*isons1* ]] && pass "docker network inspect (answered from libpod) lists project 1's service" ||
      fail "docker network inspect lists project 1's service" "$got"
    backend POST /v4.3.1/libpod/networks/create '{"name":"isonplain"}' >/dev/null
    reached "measure (podman): a bridge without isolate=true reaches project 2's isolated one" iso-secret-2o \
      bk --network isonplain -- "$ipo"
    backend POST /v4.3.1/libpod/networks/create "{\"name\":\"isonlegacy\",\"labels\":{\"$KEY\":\"$P1\"}}" >/dev/null
    expect_fail_with "project 1's own bridge without isolate=true is refused" "network isonlegacy is not isolated" \
      dk create --name isonl --network isonlegacy $IMG true
    expect_ok "podman --remote network create (libpod)" pm network create isonp1l
    [ "$(libpod_isolate isonp1l)" = true ] && pass "a libpod network create is isolated (isolate=true)" ||
      fail "a libpod network create is isolated" "isolate=$(libpod_isolate isonp1l)"
    expect_fail_with "podman --remote network create --opt isolate=false refused" "isolate=false is refused" \
      pm network create --opt isolate=false isonp1f
    reached "measure (podman): slirp4netns reaches project 2's isolated service" iso-secret-2 \
      bk --network slirp4netns -- "$ip2"
    expect_fail_with "docker run --network slirp4netns refused" "slirp4netns is refused" dk create --network slirp4netns $IMG true
    expect_fail_with "podman --remote run --network slirp4netns refused" "slirp4netns is refused" pm create --network slirp4netns $IMG true
  else
    cg_run probe bk --network bridge -- "$ipo"
    if [[ $CG_OUT == eth0* && $CG_OUT != *=iso-* ]]; then pass "measure (docker): dockerd's own rules keep its default bridge from project 2's network"
    else fail "measure (docker): dockerd isolates its bridges" "$(tr '\n' ' ' <<<"$CG_OUT")"; fi
  fi
  # pruned when unused, made again on next use; concurrent first uses make one
  # (what other scenarios left of project 1 on it goes first)
  bk rm -f $(bk ps -aq --filter "network=$pn1") >/dev/null 2>&1
  [ "$CG_BACKEND" = podman ] && backend DELETE "/v4.3.1/libpod/pods/isopn1?force=true" >/dev/null
  expect_ok "docker network prune" dk network prune -f
  if bk network inspect "$pn1" >/dev/null 2>&1; then fail "the prune removes project 1's unused network" "$pn1 is still there"
  else pass "the prune removes project 1's unused network"; fi
  pids=()
  for i in 1 2 3 4; do dk create --name "isonk$i" $IMG true >"$CG_TMP/isonk$i.out" 2>&1 & pids+=($!); done
  wait "${pids[@]}"   # these, not the gateways
  got=0
  for i in 1 2 3 4; do [ "$(ctr_nets "isonk$i")" = "$pn1 " ] && got=$((got + 1)); done
  n=$(bk network ls -q --filter "label=$KEY=$P1" --filter label=org.apache.magpie.network=default | wc -l)
  if [ "$got" = 4 ] && [ "$n" = 1 ]; then pass "4 concurrent first uses: all created, on one network $pn1"
  else fail "4 concurrent first uses: all on one network" "$got on $pn1, $n default networks: $(cat "$CG_TMP"/isonk*.out | tr '\n' ' ')"; fi
  bk rm -f isonk1 isonk2 isonk3 isonk4 >/dev/null 2>&1
  expect_ok "docker system prune" dk system prune -f
  if bk network inspect "$pn1" >/dev/null 2>&1; then fail "docker system prune removes project 1's unused network" "$pn1 is still there"
  else pass "docker system prune removes project 1's unused network"; fi
  # project 2 takes project 1's name: project 1 gets another network, and reaches nothing there
  dk2 network create "$pn1" >/dev/null && svc dk2 isons2q iso-secret-2q --network "$pn1"
  cg_wait_for 20000 svc_listening isons2q iso-secret-2q || fail "project 2's service on the taken name starts" ""
  dk create --name isonq1 $IMG true >/dev/null 2>&1
  nets=$(ctr_nets isonq1); nets=${nets% }
  if [ -n "$nets" ] && [ "$nets" != "$pn1" ] && own_net_ok "$nets"; then pass "project 2 holds project 1's network name: project 1 uses its own $nets"
  else fail "project 2 holds project 1's network name: project 1 uses another of its own" "joined '$nets'"; fi
  blocked "project 1 reaches nothing on the network project 2 named like project 1's" dk -- "$(svc_ip isons2q)"
}

# cli.md §15's egress proxy as a container of the project network sees it: a listener on
# every host address stands for the proxy (the gateway probes 127.0.0.1:<port>), and a
# gateway with injection on gives a container and a build's RUN step HTTP_PROXY; what
# answers there must be that listener. Podman's default alias, 10.88.0.1, is the podman0
# bridge's: no container is on it now, and the address left by the default route
# (measured: another host answered "426 Upgrade Required").
i_egress_alias() {
  podman_only "egress alias" || return
  local port pid p3 r3 gw3 tok=egress-$$-$RANDOM got
  cg_listener "$tok" || { fail "egress alias: the stand-in proxy listens" ""; return; }
  port=$CG_LISTENER_PORT; pid=$CG_BG_PID
  cg_project p3; p3=$P; r3=$R
  local -a CG_GW_EXTRA=(--egress inject-if-available --egress-port "$port")   # this gateway's
  if ! cg_gateway_start "$p3" "$r3"; then
    fail "egress alias: gateway with injection starts" "see above"; kill "$pid"; return
  fi
  gw3=$CG_GW_PID
  cg_run timeout -k 5 "$CG_TIMEOUT" env DOCKER_HOST="unix://$r3/docker.sock" docker run --rm $IMG \
    sh -c 'h=${HTTP_PROXY#http://}; echo "proxy=$HTTP_PROXY"; echo "got=$(nc -w 2 "${h%:*}" "${h##*:}" </dev/null 2>/dev/null)"'
  got=$CG_OUT
  if [[ $got == *"got=$tok"* ]]; then pass "a container of the project network reaches the egress proxy at its HTTP_PROXY"
  else fail "a container of the project network reaches the egress proxy at its HTTP_PROXY" "$(tr '\n' ' ' <<<"$got")"; fi
  mkdir -p "$p3/egb"
  printf 'FROM %s\nRUN h=${HTTP_PROXY#http://}; echo "got=$(nc -w 2 "${h%%:*}" "${h##*:}" </dev/null 2>/dev/null)"\n' "$IMG" > "$p3/egb/Dockerfile"
  cg_run env DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$r3/docker.sock" timeout -k 5 "$CG_TIMEOUT" \
    docker build --no-cache -t localhost/isoegb:1 "$p3/egb"
  if [[ $CG_OUT == *"got=$tok"* ]]; then pass "a build's RUN step reaches the egress proxy at its HTTP_PROXY"
  else fail "a build's RUN step reaches the egress proxy at its HTTP_PROXY" "$(grep -E 'got=|rror' <<<"$CG_OUT" | tr '\n' ' ')"; fi
  bk rmi -f localhost/isoegb:1 >/dev/null 2>&1
  bk rm -f $(bk ps -aq --filter "label=$KEY=$p3") >/dev/null 2>&1
  bk network rm $(bk network ls -q --filter "label=$KEY=$p3") >/dev/null 2>&1
  cg_gateway_stop "$gw3"
  kill "$pid"; wait "$pid" 2>/dev/null
}

# Red team rt10 F2: podman 4.3.1's systemd mode bind-mounts the root of the host's
# name=systemd cgroup hierarchy read-write (cgroup v1; only release_agent masked), and it
# turns on by itself for an init command. Measured straight on podman first (a compat
# create of an image whose ENTRYPOINT is /sbin/init gets it); through the gateway libpod
# systemd=always is refused, other libpod creates run the init without it (read-only tree),
# compat and pod creates that would get it are refused. Dockerd has no systemd mode.
i_systemd_mode() {
  local d=$CG_TMP/sdctx img=localhost/isosd:init i
  # wr NAME: rw when the container can make a directory in its /sys/fs/cgroup/systemd
  wr() { bk exec "$1" sh -c 'mkdir /sys/fs/cgroup/systemd/isosd-probe 2>/dev/null &&
    rmdir /sys/fs/cgroup/systemd/isosd-probe && echo rw || echo ro' 2>&1; }
  sdmode() { backend GET "/v4.3.1/libpod/containers/$1/json" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["Config"].get("SystemdMode", False))' 2>&1; }
  mkdir -p "$d" && printf '#!/bin/sh\necho INIT-RAN\nexec sleep 300\n' >"$d/init" &&
    printf 'FROM %s\nCOPY init /sbin/init\nRUN chmod 755 /sbin/init\nENTRYPOINT ["/sbin/init"]\n' "$IMG" >"$d/Dockerfile"
  if ! DOCKER_BUILDKIT=0 bk build -q -t $img "$d" >/dev/null 2>&1; then fail "systemd mode: set-up" "build failed"; return; fi
  if [ "$CG_BACKEND" = docker ]; then
    expect_ok "docker run -d of an /sbin/init image (dockerd has no systemd mode)" dk run -d --name isosd4 --network none $img
    if [ "$(wr isosd4)" = ro ]; then pass "dockerd: the container's cgroup tree is read-only"
    else fail "dockerd: the container's cgroup tree is read-only" "$(wr isosd4)"; fi
  else
    bk create --name isosd1 --network none $img >/dev/null 2>&1 && bk start isosd1 >/dev/null 2>&1
    if [ "$(sdmode isosd1)" = True ] && [ "$(wr isosd1)" = rw ]; then
      pass "measured (podman): a compat create of an /sbin/init image gets systemd mode, the host's cgroup tree writable"
    else fail "measured (podman): a compat create of an /sbin/init image gets systemd mode" "SystemdMode $(sdmode isosd1), $(wr isosd1)"; fi
    cg_run gwpost podman.sock /v4.3.1/libpod/containers/create "{\"image\":\"$IMG\",\"command\":[\"true\"],\"name\":\"isosd6\",\"systemd\":\"always\"}"
    if [[ $CG_OUT == "HTTP/1.1 403"*"container-gateway: systemd: systemd=always is refused"* ]]; then
      pass "libpod create with systemd always: the gateway's 403"
    else fail "libpod create with systemd always: the gateway's 403" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
    expect_fail_with "podman --remote create --systemd=always refused" "container-gateway: systemd:" \
      pm create --name isosd5 --network none --systemd=always $IMG true
    expect_ok "podman --remote run -d of an /sbin/init image" pm run -d --name isosd2 --network none $img
    for i in $(seq 100); do [[ $(bk logs isosd2 2>&1) == *INIT-RAN* ]] && break; sleep 0.1; done
    if [ "$(sdmode isosd2)" = False ] && [ "$(wr isosd2)" = ro ] && [[ $(bk logs isosd2 2>&1) == *INIT-RAN* ]]; then
      pass "libpod: the init runs without systemd mode (systemd false), the cgroup tree read-only"
    else fail "libpod: the init runs without systemd mode" "SystemdMode $(sdmode isosd2), $(wr isosd2), log: $(bk logs isosd2 2>&1 | head -c 100)"; fi
    expect_fail_with "docker create of an /sbin/init image refused" \
      "container-gateway: systemd: podman would run /sbin/init in systemd mode" dk create --name isosd3 --network none $img
    expect_fail_with "docker create --entrypoint /lib/systemd/systemd refused" \
      "container-gateway: systemd: podman would run /lib/systemd/systemd in systemd mode" \
      dk create --name isosd3 --network none --entrypoint /lib/systemd/systemd $IMG
    expect_ok "docker create --entrypoint sh of the /sbin/init image passes" dk create --name isosd3 --network none --entrypoint sh $img -c true
    cg_run gwpost podman.sock /v4.3.1/libpod/pods/create "{\"name\":\"isopsd\",\"infra_image\":\"$img\"}"
    if [[ $CG_OUT == "HTTP/1.1 403"*"container-gateway: systemd: podman would run the infra command /sbin/init"* ]]; then
      pass "pod create with an /sbin/init infra image: the gateway's 403"
    else fail "pod create with an /sbin/init infra image: the gateway's 403" "answered: $(head -n 1 <<<"$CG_OUT")"; fi
    expect_fail_with "podman --remote pod create --infra-command /sbin/init refused" "container-gateway: systemd:" \
      pm pod create --name isopsd2 --infra-command /sbin/init
  fi
  bk rm -f isosd1 isosd2 isosd3 isosd4 isosd5 isosd6 >/dev/null 2>&1
  [ "$CG_BACKEND" = podman ] && for i in isopsd isopsd2; do backend DELETE "/v4.3.1/libpod/pods/$i?force=true" >/dev/null; done
  bk rmi -f $img >/dev/null 2>&1
  rmdir /sys/fs/cgroup/systemd/isosd-probe 2>/dev/null
  rm -rf "$d"
  return 0
}

cleanup() {
  local v
  for v in isoca isocb isocu isost isoenv isotop isoug isomt1 isomt2 isomt3 isomt4 isoff0 isoff1 isoff2 isoff3 isoff4 \
           $(bk ps -aq --filter name=isonc 2>/dev/null) $(bk ps -aq --filter name=ison 2>/dev/null); do bk rm -f $v >/dev/null 2>&1; done
  [ "$CG_BACKEND" = podman ] && for v in isopa isopb isopu isopx isopr isopy isopa2 isopn isopn1; do backend DELETE "/v4.3.1/libpod/pods/$v?force=true" >/dev/null; done
  for v in isova isova2 isova3 isovb isovu isovt; do bk volume rm -f $v >/dev/null 2>&1; done
  for v in isona isonb isonu 0abg Default BRIDGE None Podman Private pasta isonp1 isonp2 isonp1l isonplain isonstrip \
           isonlegacy $(bk network ls -q --filter "label=$KEY=$P1" 2>/dev/null) \
           $(bk network ls -q --filter "label=$KEY=$P2" 2>/dev/null); do bk network rm $v >/dev/null 2>&1; done
  for v in ${IMA:-} ${IMB:-} ${IMU:-} localhost/isonb:1 localhost/isoff:m localhost/isoff:f1 localhost/isoff:f2 localhost/isoff:f3 \
           localhost/isoff:f4; do bk rmi -f "$v" >/dev/null 2>&1; done
  return 0
}

# routes.md §8 as amended: a client's label filter on events gets the intersection, which
# the monitor applies to the stream (podman ORs label values with the project label)
i_events_labels() {
  local t0 f want out api path sock
  t0=$(( $(date +%s) - 1 ))
  dk create --name isoe-a --label e.x=1 --network none $IMG true >/dev/null &&
    dk create --name isoe-b --label e.x=2 --network none $IMG true >/dev/null &&
    dk2 create --name isoe-f --label e.x=1 --network none $IMG true >/dev/null &&
    bk create --name isoe-u --label e.x=1 --network none $IMG true >/dev/null ||
    { fail "events labels: set-up" "create failed"; return; }
  # evs SOCK PATH FILTERS: the events since t0 (sent at once), for 1.5 s (podman 4.3 answers
  # nothing with until)
  evs() { curl -s -m 1.5 -N --unix-socket "$1" "http://d$2?since=$t0&filters=$(urlenc "$3")"; }
  for api in compat libpod; do
    if [ $api = libpod ]; then podman_only "libpod events" || continue; path=/v4.3.1/libpod/events; sock=$R1/podman.sock
    else path=/v1.41/events; sock=$R1/docker.sock; fi
    out=$(evs "$sock" $path '{"label":["e.x=1"]}')
    if [[ $out == *isoe-a* ]] && [[ $out != *isoe-b* ]] && [[ $out != *isoe-f* ]] && [[ $out != *isoe-u* ]]; then
      pass "$api events, label e.x=1: the project's isoe-a only"
    else fail "$api events, label e.x=1: the project's isoe-a only" "got: $(grep -oE 'isoe-[a-z]' <<<"$out" | sort -u | tr '\n' ' ')" quiet; fi
    out=$(evs "$sock" $path '{"label":["e.x=1","e.x=2"],"type":["container"]}')
    if [ "$CG_BACKEND" = podman ]; then want="isoe-a isoe-b "; else want=""; fi
    if [ "$(grep -oE 'isoe-[a-z]' <<<"$out" | sort -u | tr '\n' ' ')" = "$want" ]; then
      pass "$api events, label e.x=1 or e.x=2 (as the backend combines them): ${want:-nothing}"
    else fail "$api events, label e.x=1 or e.x=2" "got: $(grep -oE 'isoe-[a-z]' <<<"$out" | sort -u | tr '\n' ' '), wanted ${want:-nothing}" quiet; fi
    # the spellings podman reads as label filters (doc/filters.md; compat and libpod read
    # them alike, dockerd ignores them): once, on compat
    [ $api = compat ] && [ "$CG_BACKEND" = podman ] || continue
    for f in "{\"Label\":[\"$KEY=$P2\"]}" "{\"label=$KEY\":[\"$P2\"]}" \
             "{\"LABEL=e.x\":[\"1\"]}" "{\"label\":[\"$KEY=$P2\",\"e.x=1\"]}"; do
      out=$(evs "$sock" $path "$f")
      if [[ $out != *isoe-f* ]] && [[ $out != *isoe-u* ]]; then pass "$api events, filters $f: nothing of another project"
      else fail "$api events, filters $f: nothing of another project" "got: $(grep -oE 'isoe-[a-z]' <<<"$out" | sort -u | tr '\n' ' ')" quiet; fi
    done
  done
  cg_run timeout 2 env DOCKER_HOST="unix://$R1/docker.sock" docker events --since "$t0" --filter label=e.x=1 --format '{{.Actor.Attributes.name}}'
  if [[ $CG_OUT == *isoe-a* ]] && [[ $CG_OUT != *isoe-[bfu]* ]]; then pass "docker events --filter label=e.x=1: isoe-a only"
  else fail "docker events --filter label=e.x=1: isoe-a only" "got: $CG_OUT" quiet; fi
  bk rm -f isoe-a isoe-b isoe-f isoe-u >/dev/null 2>&1
}

# Red team rt10 F1: image names are shared by every project on a daemon, and the tag,
# build, commit and import routes checked only the source. Project 1 moved
# localhost/busybox and project 2's own tag onto its image (project 2's next create ran
# project 1's code), and built podman's default infra image name (project 2's pods ran
# it). Now a name that exists and is not the project's is refused as a destination, the
# infra image's repository is refused outright, and a create or pod create whose image
# carries another project's label is refused (the image step, also for podman's default
# infra image). A rebuild under the project's own tag keeps working.
img_id() { bk image inspect -f '{{.Id}}' "$1" 2>/dev/null; }
dkb() { DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$R1/docker.sock" cg_timeout docker build -q "$@"; }
# retag_archive SRC NAME DST: the docker-archive SRC with manifest.json's RepoTags = [NAME]
# and no "repositories" file, written to DST
retag_archive() {
  python3 - "$1" "$2" "$3" <<'PY'
import io, json, sys, tarfile
src = tarfile.open(sys.argv[1]); out = tarfile.open(sys.argv[3], "w", format=tarfile.USTAR_FORMAT)
for m in src.getmembers():
    if m.name in ("repositories", "./repositories"):
        continue
    data = src.extractfile(m).read() if m.isfile() else None
    if m.name in ("manifest.json", "./manifest.json"):
        j = json.loads(data); j[0]["RepoTags"] = [sys.argv[2]]; data = json.dumps(j).encode(); m.size = len(data)
    out.addfile(m, io.BytesIO(data) if data is not None else None)
out.close()
PY
}

i_image_names() {
  local bb ib ctx pause porig short
  # fixtures of their own: i_prunes removes the set-up's unused images
  bk tag "$(mk_image ina "$P1")" localhost/isoin-a:1 && bk tag "$(mk_image inb "$P2")" localhost/isoin-b:1 ||
    { fail "image names: fixtures" "could not tag the fixtures"; return; }
  bb=$(img_id $IMG); ib=$(img_id localhost/isoin-b:1)
  expect_fail_with "tag of project 1's image over the shared $IMG: refused" "denied-query" \
    dk tag localhost/isoin-a:1 $IMG
  expect_fail_with "tag of project 1's image over project 2's image: refused" "denied-query" \
    dk tag localhost/isoin-a:1 localhost/isoin-b:1
  # the monitor's refusal keeps its own hint (VERDICT hint), not the code's generic one
  if grep -qF "names an image that is not this project's (pulled, or another project's); choose a name of this project's own, or one no image has yet" <<<"$CG_OUT"; then
    pass "the tag's refusal ends with its own hint"
  else fail "the tag's refusal ends with its own hint" "$(head -n 1 <<<"$CG_OUT")"; fi
  if [ "$CG_BACKEND" = podman ]; then
    expect_fail_with "libpod tag over project 2's image: refused" "denied-query" \
      pm tag localhost/isoin-a:1 localhost/isoin-b:1
  fi
  ctx=$CG_TMP/isoin-ctx; mkdir -p "$ctx"
  printf 'FROM %s\nCMD ["echo","P1-CODE"]\n' $IMG >"$ctx/Dockerfile"
  expect_fail_with "build -t over project 2's image: refused" "denied-build-parameter" \
    dkb -t localhost/isoin-b:1 "$ctx"
  dk create --name isoin-c --network none $IMG true >/dev/null
  expect_fail_with "commit of project 1's container over project 2's image: refused" "denied-query" \
    dk commit isoin-c localhost/isoin-b:1
  bk rm -f isoin-c >/dev/null 2>&1
  tar -cf "$CG_TMP/isoin-root.tar" -C "$ctx" Dockerfile
  expect_fail_with "import over project 2's image: refused" "denied-query" \
    dk import "$CG_TMP/isoin-root.tar" localhost/isoin-b:1
  # nor through a load whose archive gives those names (manifest.json RepoTags; the
  # checker reports them, the monitor inspects each as the daemon resolves it)
  dk save -o "$CG_TMP/isoin-a.tar" localhost/isoin-a:1
  retag_archive "$CG_TMP/isoin-a.tar" localhost/isoin-b:1 "$CG_TMP/isoin-tob.tar"
  expect_fail_with "load of an archive naming project 2's image: refused" "denied-build-parameter" \
    dk load -i "$CG_TMP/isoin-tob.tar"
  retag_archive "$CG_TMP/isoin-a.tar" $IMG "$CG_TMP/isoin-toi.tar"
  expect_fail_with "load of an archive naming the shared $IMG: refused" "denied-build-parameter" \
    dk load -i "$CG_TMP/isoin-toi.tar"
  # the same image under its own name again moves nothing (docker save, then load: the
  # Go SDK, docker-api and go-dockerclient flows); the checker hashes the config
  dk save -o "$CG_TMP/isoin-bb.tar" $IMG
  expect_ok "load of the shared $IMG's own archive (the name already names it)" \
    dk load -i "$CG_TMP/isoin-bb.tar"
  # an import is project 1's image: under a name no image had (a short name's
  # localhost/ candidate), project 2's create of the short name must not run it
  expect_ok "import of a new name" dk import "$CG_TMP/isoin-root.tar" localhost/isoin-imp:1
  if [ "$(bk image inspect -f '{{index .Config.Labels "org.apache.magpie.project"}}' localhost/isoin-imp:1)" = "$P1" ]; then
    pass "the imported image carries project 1's label"
  else fail "the imported image carries project 1's label" "labels: $(bk image inspect -f '{{json .Config.Labels}}' localhost/isoin-imp:1)"; fi
  # podman resolves the short name to localhost/ first; dockerd to docker.io
  short=localhost/isoin-imp:1; [ "$CG_BACKEND" = podman ] && short=isoin-imp:1
  expect_fail_with "create of project 2 from project 1's import: refused" "commit-label" \
    dk2 create --network none "$short" true
  if [ "$(img_id $IMG)" = "$bb" ] && [ "$(img_id localhost/isoin-b:1)" = "$ib" ]; then
    pass "$IMG and project 2's tag still name their images"
  else fail "$IMG and project 2's tag still name their images" "moved: $IMG $(img_id $IMG | cut -c1-19), isoin-b $(img_id localhost/isoin-b:1 | cut -c1-19)"; fi
  # the project's own names: a new one, then a rebuild over it (compose, testcontainers)
  expect_ok "build -t of a new name" dkb -t localhost/isoin-own:1 "$ctx"
  printf 'LABEL x=2\n' >>"$ctx/Dockerfile"
  expect_ok "build -t again, over the project's own image" dkb -t localhost/isoin-own:1 "$ctx"
  expect_ok "tag of the project's own image over its own tag" dk tag localhost/isoin-own:1 localhost/isoin-own:2
  # a load under a new name, and one over the project's own (labelled) image
  retag_archive "$CG_TMP/isoin-a.tar" localhost/isoin-new:1 "$CG_TMP/isoin-new.tar"
  expect_ok "load of an archive under a new name" dk load -i "$CG_TMP/isoin-new.tar"
  retag_archive "$CG_TMP/isoin-a.tar" localhost/isoin-own:2 "$CG_TMP/isoin-own.tar"
  expect_ok "load of project 1's labelled image over its own tag" dk load -i "$CG_TMP/isoin-own.tar"
  expect_fail_with "create of project 2 from project 1's labelled image: refused" "commit-label" \
    dk2 create localhost/isoin-a:1 true
  if [ "$CG_BACKEND" = podman ]; then
    pause=$(backend GET /v4.0.0/libpod/version | python3 -c 'import json,sys,datetime as d;j=json.load(sys.stdin);print("localhost/podman-pause:"+j["Version"]+"-"+str(int(d.datetime.fromisoformat(j["BuildTime"].replace("Z","+00:00")).timestamp())))')
    expect_fail_with "build -t $pause (podman's default infra image): refused" "denied-build-parameter" \
      dkb -t "$pause" "$ctx"
    # nor through an archive that names it (manifest.json RepoTags)
    retag_archive "$CG_TMP/isoin-a.tar" "$pause" "$CG_TMP/isoin-a.tar.2"
    porig=$(img_id "$pause")
    expect_fail_with "load of an archive naming $pause: refused" "denied-build-parameter" \
      dk load -i "$CG_TMP/isoin-a.tar.2"
    [ "$(img_id "$pause")" = "$porig" ] || { fail "$pause unchanged by the load" "now $(img_id "$pause" | cut -c1-19)"; bk rmi "$pause" >/dev/null 2>&1; }
    # however the name came to be project 1's image: project 2's pods do not run it
    porig=$(img_id "$pause")
    bk tag localhost/isoin-a:1 "$pause"
    expect_fail_with "pod create of project 2 while $pause is project 1's image: refused" "commit-label" \
      pm2 pod create --name isopi
    if [ -n "$porig" ]; then bk tag "$porig" "$pause"; else bk rmi "$pause" >/dev/null 2>&1; fi
  fi
  bk rmi localhost/isoin-a:1 localhost/isoin-b:1 localhost/isoin-own:1 localhost/isoin-own:2 localhost/isoin-new:1 >/dev/null 2>&1
  bk rmi localhost/isoin-a:1 localhost/isoin-b:1 localhost/isoin-own:1 localhost/isoin-own:2 localhost/isoin-imp:1 >/dev/null 2>&1
  [ "$CG_BACKEND" = podman ] && backend DELETE "/v4.3.1/libpod/pods/isopi?force=true" >/dev/null
  return 0
}

ALL=(i_lists i_prunes i_host_facts i_system_prune i_hex_network_names i_mount_text i_network_name_case
     i_force_falsy i_split_transport i_filter_key_split i_form_body i_allow_lists
     i_docker_ps_args i_bind_oracle i_short_id_names i_events_labels i_network_projects
     i_egress_alias i_systemd_mode i_image_names i_chown_option)

# ---- main -------------------------------------------------------------------------
if [ "$CG_BACKEND" = docker ]; then need=(docker dockerd containerd curl python3); else need=(docker podman curl python3); fi
cg_need "${need[@]}"
cg_need_gateway
cg_two_gateways || exit
cleanup
if ! setup; then fail "isolation set-up" "could not create the fixtures"; cleanup; cg_summary; exit; fi
cg_run_scenarios "$@"
cleanup
cg_summary
