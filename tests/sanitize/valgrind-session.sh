#!/bin/bash
# tests/sanitize/valgrind-session.sh — the scripted CLI session of make check-valgrind
# (check-valgrind.sh runs it with CG_GATEWAY = the gateway under valgrind): one gateway,
# the real docker and podman CLIs, the everyday commands and a few refusals, then SIGTERM
# so that valgrind's leak check runs at the monitor's exit. PASS/FAIL lines as in the
# integration suites; last line "N passed, M failed". Needs root (rootful podman).
set -u
if [ "$(id -u)" -ne 0 ]; then echo "SKIP valgrind session: needs root"; exit 77; fi
. "$(dirname "$0")/../integration/lib.sh"

dk() { DOCKER_HOST="unix://$R/docker.sock" cg_timeout docker "$@"; }
pm() { env -u DOCKER_CONFIG timeout -k 5 "$CG_TIMEOUT" podman --url "unix://$R/podman.sock" "$@"; }

if ! cg_backend_up; then fail "podman backend" "start-up failed"; cg_summary; exit; fi
cg_project vg
if ! cg_gateway_start "$P" "$R"; then fail "gateway under valgrind starts" "see above"; cg_summary; exit; fi
GW=$CG_GW_PID
pass "gateway under valgrind starts (pid $GW)"

expect_output "docker version" "Server:" dk version
expect_output "docker run --rm echo" hi dk run --rm --network none $IMG echo hi
expect_ok "docker run -d" dk run -d --name vg1 --network none $IMG sh -c 'echo started; exec sleep 300'
expect_output "docker exec" inexec dk exec vg1 echo inexec
expect_output "docker exec -i (stdin)" piped sh -c "echo piped | DOCKER_HOST=unix://$R/docker.sock timeout 60 docker exec -i vg1 cat"
expect_output "docker logs" started dk logs vg1
head -c 2097152 /dev/urandom >"$P/data/blob"
expect_ok "docker cp in (2 MiB)" dk cp "$P/data/blob" vg1:/tmp/blob
expect_ok "docker cp out" dk cp vg1:/tmp/blob "$P/data/blob.back"
if cmp -s "$P/data/blob" "$P/data/blob.back"; then pass "cp round trip is byte-identical"
else fail "cp round trip is byte-identical" "files differ" quiet; fi
expect_output "docker inspect" vg1 dk inspect -f '{{.Name}}' vg1
expect_output "docker ps" vg1 dk ps
expect_ok "docker stop" dk stop -t 1 vg1
expect_ok "docker rm" dk rm vg1
expect_ok "docker volume create" dk volume create vgvol
expect_ok "docker volume rm" dk volume rm vgvol
expect_ok "docker network create" dk network create vgnet
expect_ok "docker network rm" dk network rm vgnet
mkdir -p "$P/ctx"
printf 'FROM %s\nRUN echo built > /built\n' "$IMG" >"$P/ctx/Dockerfile"
expect_ok "docker build (classic builder)" env DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$R/docker.sock" \
  timeout 120 docker build -q -t localhost/vgbuilt "$P/ctx"
expect_ok "docker rmi" dk rmi localhost/vgbuilt
expect_fail_with "bind outside the project refused" "container-gateway: bind-mount" \
  dk run --rm -v /etc:/x $IMG true
expect_fail_with "privileged refused" "container-gateway: privileged" dk run --rm --privileged $IMG true
expect_output "podman --remote run --rm" hi pm run --rm --network none $IMG echo hi
expect_ok "podman --remote ps -a" pm ps -a
expect_fail_with "podman --remote privileged refused" "privileged" pm run --rm --privileged $IMG true

# the monitor exits on SIGTERM; valgrind writes its leak summary then (this takes longer
# than cg_gateway_stop's 5 s grace, so wait here, by pid)
kill -TERM "$GW"
for _ in $(seq 600); do kill -0 "$GW" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$GW" 2>/dev/null; then fail "gateway exits on SIGTERM" "still running after 60 s" quiet
else wait "$GW" 2>/dev/null; pass "gateway exits on SIGTERM"; fi
log=$(dirname "$CG_GATEWAY")/vg.$GW.log
if grep -q 'ERROR SUMMARY' "$log" 2>/dev/null; then pass "valgrind summary of the monitor written ($log)"
else fail "valgrind summary of the monitor written" "none in $log" quiet; fi
cg_summary
