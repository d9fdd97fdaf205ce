#!/bin/bash
# tests/integration/after_check.sh — isolation holds after the check (spec amendment of
# 2026-12-07), live: project 1 (P1) against project 2 (P2) and the host, two gateways on one
# private podman (CG_BACKEND=docker: the private dockerd, the podman-only rows skipped).
#
#   a_swap_before_start  a bind source swapped for a symlink to P2 between create and start:
#                        20 starts in 20 mount the directory that was checked (pins)
#   a_swap_stop_start    the same swap between a stop and a start, 20 times in 20
#   a_cp_after_swap      docker cp into a stopped container after the swap writes into P1
#   a_pins_lifecycle     inspect shows the pin; removal (client, --rm, gateway down) unpins;
#                        podman --remote -v and a pod's mounts are pinned too
#   a_workdir_w          -w through an image symlink (/hostroot -> /): refused, nothing made
#                        in P2 (podman < 5.7.1 joins it on the host, containers/podman#27672)
#   a_workdir_image      the same as the image's WORKDIR
#   a_workdir_planted    a running container replaces its working directory's parent with a
#                        symlink to P2: docker restart and stop+start are refused
#   a_restart_policy     --restart always with a writable root file system and a working
#                        directory podman resolves: refused before the first start (the daemon
#                        restarts without asking); --read-only and -w / pass
#   a_volume_target      a new named volume mounted through an image symlink (/hostroot -> /):
#                        podman gives it the host path's owner and mode (measured on the
#                        backend); through the gateway the start is refused, the volume
#                        keeps its own
#   a_dev_mounts         volumes and binds over /dev, /dev/pts (any spelling), an image VOLUME
#                        /dev/pts: refused (runc CVE-2025-31133, CVE-2025-52565)
#   a_tmpfs_source       a compat tmpfs mount with a Source: refused, nothing made on the host
#                        (podman's compat create mkdir -p's it: containers/podman#9510)
#
#   tests/integration/after_check.sh            all scenarios
#   tests/integration/after_check.sh a_...      only the named ones
#
# Each scenario failed on the gateway before this change (CG_GATEWAY=<old binary>).
# Needs root. Exit 77 = skipped (not root). Last line: "N passed, M failed".
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP integration: needs root (rootful backend)"
  exit 77
fi
. "$(dirname "$0")/lib.sh"

ROUNDS=${AFTER_ROUNDS:-20}

# gw METHOD PATH [BODY]: raw curl through project 1's docker.sock
gw() {
  if [ -n "${3:-}" ]; then
    curl -s -m 60 -i -X "$1" -H 'Content-Type: application/json' -d "$3" --unix-socket "$R1/docker.sock" "http://d$2"
  else curl -s -m 60 -i -X "$1" --unix-socket "$R1/docker.sock" "http://d$2"; fi
}
# pins: mounts under the gateways' staging directory
pins() { grep -c ' /run/container-gateway/pins/' /proc/self/mountinfo; }

# swap DIR: DIR (in P1, holding "checked") becomes a symlink to P2 (holding "secret");
# unswap DIR puts it back
swap()   { mv "$1" "$1.real" && ln -s "$P2" "$1"; }
unswap() { rm -f "$1" && mv "$1.real" "$1"; }

setup() {
  mkdir -p "$P2" && echo "B-SECRET" > "$P2/secret" || return 1
  mkdir -p "$CG_TMP/ctx-sym" "$CG_TMP/ctx-wd" "$CG_TMP/ctx-vol" || return 1
  printf 'FROM %s\nRUN ln -s / /hostroot\n' "$IMG" > "$CG_TMP/ctx-sym/Dockerfile"
  printf 'FROM localhost/aftersym\nWORKDIR /hostroot%s/made-img\n' "$P2" > "$CG_TMP/ctx-wd/Dockerfile"
  printf 'FROM %s\nVOLUME /dev/pts\n' "$IMG" > "$CG_TMP/ctx-vol/Dockerfile"
  dk build -q -t localhost/aftersym "$CG_TMP/ctx-sym" >/dev/null &&
    dk build -q -t localhost/afterwd "$CG_TMP/ctx-wd" >/dev/null &&
    dk build -q -t localhost/aftervol "$CG_TMP/ctx-vol" >/dev/null
}

# ---- pins -------------------------------------------------------------------------
a_swap_before_start() {
  local i ok=0 leak=0 d=$P1/sw
  mkdir -p "$d" && echo checked > "$d/f"
  for i in $(seq "$ROUNDS"); do
    dk create --name "afs$i" --network none -v "$d:/x" $IMG sh -c 'cat /x/f /x/secret 2>/dev/null' >/dev/null || continue
    swap "$d"
    cg_run dk start -a "afs$i"
    [[ $CG_OUT == *checked* && $CG_OUT != *B-SECRET* ]] && ok=$((ok + 1))
    [[ $CG_OUT == *B-SECRET* ]] && leak=$((leak + 1))
    unswap "$d"
    dk rm -f "afs$i" >/dev/null
  done
  if [ $ok = "$ROUNDS" ]; then pass "swap before start: $ok starts in $ROUNDS mount the checked directory"
  else fail "swap before start: $ROUNDS starts in $ROUNDS mount the checked directory" "$ok did, $leak showed P2's secret" quiet; fi
}

a_swap_stop_start() {
  local i ok=0 leak=0 d=$P1/sw2
  mkdir -p "$d" && echo checked > "$d/f"
  dk create --name afss --network none -v "$d:/x" $IMG sh -c 'cat /x/f /x/secret 2>/dev/null' >/dev/null
  cg_run dk start -a afss
  if [[ $CG_OUT != *checked* ]]; then fail "swap between stop and start: set-up" "first start: $CG_OUT"; return; fi
  for i in $(seq "$ROUNDS"); do
    swap "$d"
    cg_run dk start -a afss
    [[ $CG_OUT == *checked* && $CG_OUT != *B-SECRET* ]] && ok=$((ok + 1))
    [[ $CG_OUT == *B-SECRET* ]] && leak=$((leak + 1))
    unswap "$d"
  done
  if [ $ok = "$ROUNDS" ]; then pass "swap between a stop and a start: $ok starts in $ROUNDS mount the checked directory"
  else fail "swap between a stop and a start: $ROUNDS in $ROUNDS" "$ok did, $leak showed P2's secret" quiet; fi
  dk rm -f afss >/dev/null
}

a_cp_after_swap() {
  local d=$P1/cpd
  mkdir -p "$d" && echo "copied-by-p1" > "$CG_TMP/cpfile"
  dk create --name afcp --network none -v "$d:/x" $IMG true >/dev/null
  swap "$d"
  cg_run dk cp "$CG_TMP/cpfile" afcp:/x/cpfile
  if [ -e "$P2/cpfile" ]; then fail "docker cp after a swap stays in project 1" "it wrote $P2/cpfile" quiet
  elif [ $CG_RC -eq 0 ] && [ -f "$d.real/cpfile" ]; then pass "docker cp into a stopped container after a swap writes the checked directory"
  else fail "docker cp after a swap writes the checked directory" "exit $CG_RC, $d.real/cpfile missing"; fi
  unswap "$d"
  rm -f "$P2/cpfile"
  dk rm -f afcp >/dev/null
}

a_pins_lifecycle() {
  local d=$P1/lc n0 src
  mkdir -p "$d"
  n0=$(pins)
  dk create --name aflc --network none -v "$d:/x" $IMG true >/dev/null
  src=$(bk inspect -f '{{range .Mounts}}{{.Source}}{{end}}' aflc)
  if [[ $src == /run/container-gateway/pins/*/* ]]; then pass "inspect shows the pin as the source ($src)"
  else fail "inspect shows the pin as the source" "source $src"; fi
  if grep -q " $src " /proc/self/mountinfo && [ "$(stat -c %i "$src")" = "$(stat -c %i "$d")" ]; then
    pass "the pin is a mount of the checked directory"
  else fail "the pin is a mount of the checked directory" "$(grep -c " $src " /proc/self/mountinfo) mounts"; fi
  dk rm aflc >/dev/null
  if cg_wait_for 5000 sh -c "[ \$(grep -c ' /run/container-gateway/pins/' /proc/self/mountinfo) -le $n0 ]"; then
    pass "docker rm unpins within 5 s"
  else fail "docker rm unpins within 5 s" "$(pins) pins, $n0 before"; fi
  # a failed create leaves no pin
  cg_run dk create --name aflc2 --network none -v "$d:/x" localhost/no-such-image true
  if [ "$(pins)" -le "$n0" ]; then pass "a failed create leaves no pin"
  else fail "a failed create leaves no pin" "$(pins) pins, $n0 before"; fi
  # --rm: the daemon removes it; the minute's sweep is too slow for a test, a remove
  # through the gateway sweeps within a second
  dk run --rm --name aflc3 --network none -v "$d:/x" $IMG true >/dev/null
  dk create --name aflc4 --network none $IMG true >/dev/null && dk rm aflc4 >/dev/null
  if cg_wait_for 5000 sh -c "[ \$(grep -c ' /run/container-gateway/pins/' /proc/self/mountinfo) -le $n0 ]"; then
    pass "a --rm container's pin goes with the next sweep"
  else fail "a --rm container's pin goes with the next sweep" "$(pins) pins, $n0 before"; fi
  # removed while the gateway was down: the next gateway's start-up sweep
  dk create --name aflc5 --network none -v "$d:/x" $IMG true >/dev/null
  cg_gateway_stop "$GW1"
  bk rm aflc5 >/dev/null
  if cg_gateway_start "$P1" "$R1"; then GW1=$CG_GW_PID; else fail "gateway 1 restarts" "see above"; return; fi
  if cg_wait_for 5000 sh -c "[ \$(grep -c ' /run/container-gateway/pins/' /proc/self/mountinfo) -le $n0 ]"; then
    pass "a pin whose container went while the gateway was down goes at the next start"
  else fail "a pin whose container went while the gateway was down goes" "$(pins) pins, $n0 before"; fi
  if [ "$CG_BACKEND" = podman ]; then
    cg_run pm create --name aflc6 --network none -v "$d:/x" $IMG true
    src=$(bk inspect -f '{{range .Mounts}}{{.Source}}{{end}}' aflc6)
    if [[ $src == /run/container-gateway/pins/*/* ]]; then pass "podman --remote -v (libpod mounts) is pinned"
    else fail "podman --remote -v (libpod mounts) is pinned" "source $src"; fi
    pm rm -f aflc6 >/dev/null
    cg_run pm pod create --name aflcp -v "$d:/x"
    src=$(curl -s -m 20 --unix-socket "$CG_BACKEND_SOCK" http://d/v4.3.1/libpod/pods/aflcp/json |
          python3 -c 'import json,sys; print(json.load(sys.stdin).get("InfraContainerID",""))')
    src=$(bk inspect -f '{{range .Mounts}}{{.Source}}{{end}}' "$src" 2>/dev/null)
    if [[ $src == /run/container-gateway/pins/*/* ]]; then pass "a pod's mounts are pinned"
    else fail "a pod's mounts are pinned" "infra source $src"; fi
    pm pod rm -f aflcp >/dev/null
  fi
}

# ---- working directories (podman below 5.7.1) --------------------------------------
a_workdir_w() {
  podman_only "workdir -w" || return
  rm -rf "$P2/made-w"
  expect_fail_with "-w through an image symlink: refused" "host-path: working directory /hostroot$P2/made-w" \
    dk run --rm --network none -w "/hostroot$P2/made-w" localhost/aftersym true
  if [ -e "$P2/made-w" ]; then fail "-w through an image symlink: nothing made in project 2" "$P2/made-w exists" quiet
  else pass "-w through an image symlink: nothing made in project 2"; fi
  if [ -z "$(bk ps -aq --filter ancestor=localhost/aftersym)" ]; then pass "the refused --rm container is removed, as a failed start's"
  else fail "the refused --rm container is removed" "$(bk ps -a --filter ancestor=localhost/aftersym --format '{{.Names}} {{.Status}}')"; fi
  expect_ok "-w to a real directory of the image passes" dk run --rm --network none -w /usr/made localhost/aftersym pwd
}

a_workdir_image() {
  podman_only "workdir WORKDIR" || return
  rm -rf "$P2/made-img"
  expect_fail_with "image WORKDIR through a symlink: refused" "host-path: working directory /hostroot$P2/made-img" \
    dk run --network none --name afwi localhost/afterwd true
  if [ -e "$P2/made-img" ]; then fail "image WORKDIR: nothing made in project 2" "$P2/made-img exists" quiet
  else pass "image WORKDIR through a symlink: nothing made in project 2"; fi
  dk rm -f afwi >/dev/null 2>&1
}

a_workdir_planted() {
  podman_only "workdir planted" || return
  rm -rf "$P2/sub" "$P2/sub2"
  # the container replaces its working directory's parent with a symlink to P2
  dk run -d --name afpl --network none -w /w/sub $IMG sh -c "cd /; rm -rf /w; ln -s $P2 /w; touch /planted; sleep 600" >/dev/null
  cg_wait_for 10000 sh -c "DOCKER_HOST=unix://$R1/docker.sock docker exec -w / afpl test -e /planted" >/dev/null
  expect_fail_with "planted before docker restart: refused" "host-path: working directory /w/sub of container" \
    dk restart -t 1 afpl
  if [ -e "$P2/sub" ]; then fail "planted before docker restart: nothing made in project 2" "$P2/sub exists" quiet
  else pass "planted before docker restart: nothing made in project 2"; fi
  expect_fail_with "planted, then docker start: refused" "goes through the symlink /w" dk start afpl
  dk rm -f afpl >/dev/null
  # a symlink whose target is missing inside the container (podman answers 404 and the
  # link's own stat) counts as well
  dk run -d --name afpl2 --network none -w /v/sub2 $IMG sh -c "cd /; rm -rf /v; ln -s $P2/nowhere /v; touch /planted; sleep 600" >/dev/null
  cg_wait_for 10000 sh -c "DOCKER_HOST=unix://$R1/docker.sock docker exec -w / afpl2 test -e /planted" >/dev/null
  expect_fail_with "planted dangling symlink before docker restart: refused" "goes through the symlink /v" \
    dk restart -t 1 afpl2
  dk rm -f afpl2 >/dev/null
}

# ---- volume targets (podman-volume-chown) -----------------------------------------------
a_volume_target() {
  local mp
  podman_only "volume target" || return
  mkdir -p "$P2/vdir" && chown 4242:4243 "$P2/vdir" && chmod 0701 "$P2/vdir"
  bk run --rm --network none -v afvm:/hostroot$P2/vdir localhost/aftersym true >/dev/null 2>&1
  mp=$(bk volume inspect -f '{{.Mountpoint}}' afvm 2>/dev/null)
  if [ -n "$mp" ] && [ "$(stat -c '%u:%g %a' "$mp")" = "4242:4243 701" ]; then
    pass "measured (podman): a new volume takes the owner and mode of the host path its target names"
  else fail "measured (podman): a new volume takes the host path's owner and mode" "volume dir '$mp': $(stat -c '%u:%g %a' "$mp" 2>&1)"; fi
  expect_fail_with "a volume target through an image symlink: refused" \
    "host-path: volume target /hostroot$P2/vdir of container" \
    dk run --rm --network none -v afvg:/hostroot$P2/vdir localhost/aftersym true
  mp=$(bk volume inspect -f '{{.Mountpoint}}' afvg 2>/dev/null)
  if [ -z "$mp" ] || [ "$(stat -c '%u' "$mp")" = 0 ]; then pass "the refused start gave the volume nothing of the host path"
  else fail "the refused start gave the volume nothing of the host path" "$(stat -c '%u:%g %a' "$mp")"; fi
  # podman run exits 126 when the start fails (its code for "cannot be invoked")
  cg_run pm run --rm --network none -v afvp:/hostroot$P2/vdir localhost/aftersym true
  if [ $CG_RC -ne 0 ] && [[ $CG_OUT == *"goes through the symlink /hostroot"* ]]; then
    pass "podman --remote: a volume target through an image symlink: refused (exit $CG_RC)"
  else fail "podman --remote: a volume target through an image symlink: refused" "exit $CG_RC: ${CG_OUT:0:200}"; fi
  expect_ok "a volume at a real directory of the image passes" \
    dk run --rm --network none -v afvok:/usr/vol localhost/aftersym true
  bk volume rm -f afvm afvg afvp afvok >/dev/null 2>&1
  rm -rf "$P2/vdir"
}

a_restart_policy() {
  podman_only "restart policy" || return
  rm -rf "$P2/sub3"
  # it plants, exits 1, and the daemon restarts it by itself
  expect_fail_with "--restart always, writable root, -w /w/sub3: refused before it runs" "restarts by itself (--restart always)" \
    dk run -d --name afrp --network none --restart always -w /w/sub3 $IMG sh -c \
    "if [ ! -L /w ]; then cd /; rm -rf /w; ln -s $P2 /w; exit 1; fi; sleep 600"
  # a restart the daemon made would make sub3 within these 3 s (the old gateway: measured)
  if cg_wait_for 3000 test -e "$P2/sub3"; then fail "--restart always: nothing made in project 2" "$P2/sub3 exists" quiet
  else pass "--restart always: nothing made in project 2"; fi
  dk rm -f afrp >/dev/null 2>&1
  expect_ok "--restart always --read-only passes" dk run -d --name afrp2 --network none --restart always --read-only -w /w $IMG sleep 600
  expect_ok "--restart unless-stopped -w / passes" dk run -d --name afrp3 --network none --restart unless-stopped -w / $IMG sleep 600
  dk rm -f afrp2 afrp3 >/dev/null 2>&1
}

# ---- mount targets, tmpfs sources ----------------------------------------------------
a_dev_mounts() {
  local t
  for t in /dev /dev/pts //dev /dev/./pts /a/../dev/pts /proc/sys /sys/; do
    expect_fail_with "volume over $t: refused" "is at or below /dev, /proc or /sys" \
      dk run --rm --network none -v "afdev:$t" $IMG true
  done
  expect_fail_with "--mount volume over /dev/pts: refused" "mount Target /dev/pts is at or below" \
    dk run --rm --network none --mount type=volume,source=afdev,target=/dev/pts $IMG true
  expect_fail_with "bind over /dev: refused" "bind target /dev is at or below" \
    dk run --rm --network none -v "$P1/data:/dev" $IMG true
  if [ "$CG_BACKEND" = podman ]; then
    expect_fail_with "podman --remote -v volume over /dev: refused" "is at or below /dev" \
      pm run --rm --network none -v afdev:/dev $IMG true
  fi
  expect_fail_with "image VOLUME /dev/pts: refused at start" "has a volume or bind at /dev/pts" \
    dk run --rm --network none localhost/aftervol true
  expect_ok "a tmpfs over /dev/shm still passes" dk run --rm --network none --tmpfs /dev/shm $IMG true
  bk volume rm -f afdev >/dev/null 2>&1
}

a_tmpfs_source() {
  rm -rf "$P2/tmpfs-made"
  cg_run gw POST "/v1.41/containers/create?name=aftm" "{\"Image\":\"$IMG\",\"Cmd\":[\"true\"],\"HostConfig\":{\"NetworkMode\":\"none\",\"Mounts\":[{\"Type\":\"tmpfs\",\"Source\":\"$P2/tmpfs-made\",\"Target\":\"/t\"}]}}"
  if [[ $CG_OUT == "HTTP/1.1 403"* && $CG_OUT == *"a tmpfs mount takes no Source"* ]]; then
    pass "tmpfs with a Source: 403"
  else fail "tmpfs with a Source: 403" "$(head -n 1 <<<"$CG_OUT")"; fi
  if [ -e "$P2/tmpfs-made" ]; then fail "tmpfs with a Source: nothing made in project 2" "$P2/tmpfs-made exists" quiet
  else pass "tmpfs with a Source: nothing made in project 2"; fi
  bk rm -f aftm >/dev/null 2>&1
}

cleanup() {
  local v
  for v in $(bk ps -aq --filter name=af 2>/dev/null); do bk rm -f "$v" >/dev/null 2>&1; done
  [ "$CG_BACKEND" = podman ] && curl -s -m 30 -X DELETE --unix-socket "$CG_BACKEND_SOCK" \
    "http://d/v4.3.1/libpod/pods/aflcp?force=true" >/dev/null
  for v in localhost/afterwd localhost/aftervol localhost/aftersym; do bk rmi -f "$v" >/dev/null 2>&1; done
  bk volume rm -f afdev >/dev/null 2>&1
  return 0
}

ALL=(a_swap_before_start a_swap_stop_start a_cp_after_swap a_pins_lifecycle a_workdir_w a_workdir_image
     a_workdir_planted a_volume_target a_restart_policy a_dev_mounts a_tmpfs_source)

# ---- main -------------------------------------------------------------------------
if [ "$CG_BACKEND" = docker ]; then need=(docker dockerd containerd curl); else need=(docker podman curl); fi
cg_need "${need[@]}"
cg_need_gateway
cg_two_gateways || exit
cleanup
if ! setup; then fail "after-check set-up" "could not build the images"; cleanup; cg_summary; exit; fi
cg_run_scenarios "$@"
cleanup
cg_summary
