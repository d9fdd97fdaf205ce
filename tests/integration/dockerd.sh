#!/bin/bash
# tests/integration/dockerd.sh — the real-CLI suites with Debian's dockerd (docker.io 20.10)
# behind the gateways' docker.sock instead of podman: proves the compat policy against
# real Docker as well as against podman's compat layer.
#
# Starts one private dockerd + containerd (scripts/dockerd-up.sh, backend-recipe.md §3:
# overlay2 or vfs; CG_DOCKERD_NET=stock: a default bridge of its own and iptables, as a
# stock dockerd, whose rules isolate networks) and runs, each with its own gateways
# (`serve --docker-socket DIR/docker.sock --backend docker`):
#   * cli.sh with the scenarios that concern the daemon (not the podman-only ones, not the
#     sandbox checks, which do not depend on the backend);
#   * tools.sh (docker-compose, the Python SDK, docker build, the refusals), builds.sh
#     (the checked build contexts and archives, dockerd 20.10's classic builder) and
#     usability.sh (gateway chains, hints, inspect, images, the CLI), whose podman
#     checks are skipped;
#   * libs.sh (dockerode and testcontainers, directly and through the gateway);
#   * filters.sh: the dockerd rows of doc/filters.md, re-measured on this dockerd;
#   * isolation.sh: nothing of another project listed or pruned, any filter (routes.md §8.2).
# Then stops the dockerd (scripts/dockerd-down.sh).
#
#   tests/integration/dockerd.sh
#   CG_DOCKER_DIR=/tmp/dd tests/integration/dockerd.sh   reuse a dockerd-up.sh DIR (left running)
#
# Exit status 77 = skipped (not root, or dockerd not installed: scripts/install-deps.sh);
# otherwise non-zero when any check failed. Last line: "N passed, M failed" over both suites.
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP integration: needs root (private dockerd)"
  exit 77
fi
if ! command -v dockerd >/dev/null 2>&1 || ! command -v containerd >/dev/null 2>&1; then
  echo "SKIP integration: dockerd/containerd not installed (package docker.io; run scripts/install-deps.sh)"
  exit 77
fi
HERE=$(cd "$(dirname "$0")" && pwd)
export CG_BACKEND=docker
. "$HERE/lib.sh"

CLI_SCENARIOS=(s_run_rm s_detached_lifecycle s_bind_inside s_refusals s_isolation s_cp s_stdin s_encoded_image_names s_publish_all)

cg_need_gateway
if ! cg_backend_up; then fail "docker backend" "dockerd-up.sh failed"; cg_summary; exit; fi
docker_ver=$(DOCKER_HOST="unix://$CG_DOCKER_SOCK" timeout 10 docker version --format '{{.Server.Version}}' 2>/dev/null)
echo "# dockerd ${docker_ver:-?} ($(grep -o 'driver [a-z0-9]*' "$CG_TMP/dockerd-up.log" | head -n 1))"

# run_sub NAME CMD...: a sub-suite against this dockerd; its PASS/FAIL lines are shown
# prefixed with NAME and its "N passed, M failed" line is added to ours
run_sub() {
  local name=$1 log=$CG_TMP/$1.out rc t0 last np nf; shift
  t0=$(_cg_ms)
  CG_DOCKER_DIR=$CG_DD_DIR "$@" 2>&1 | tee "$log" | sed -u "s/^/[$name] /"
  rc=${PIPESTATUS[0]}
  last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
  if [ -z "$last" ]; then
    fail "$name" "no summary line (exit $rc)" quiet
    return
  fi
  np=${last%% passed*}; nf=${last#*passed, }; nf=${nf%% failed*}
  CG_PASSED=$((CG_PASSED + np)); CG_FAILED=$((CG_FAILED + nf))
  if [ "$nf" -eq 0 ] && [ "$rc" -ne 0 ]; then fail "$name" "exit $rc with no failed check" quiet; fi
  echo "# $name: $last ($(( $(_cg_ms) - t0 )) ms)"
}

run_sub cli "$HERE/cli.sh" "${CLI_SCENARIOS[@]}"
run_sub tools "$HERE/tools.sh"
run_sub builds "$HERE/builds.sh"
run_sub libs "$HERE/libs.sh"
run_sub usability "$HERE/usability.sh"
run_sub filters "$HERE/filters.sh"
run_sub isolation "$HERE/isolation.sh"
cg_summary
