#!/bin/bash
# tests/integration/filters.sh — re-measures, straight on the backend socket, how the
# backend combines list, prune and events filters, and fails when a row of the table in
# doc/filters.md no longer holds (the gateway's filter rules rest on it).
#
#   tests/integration/filters.sh                      private podman (scripts/podman-up.sh)
#   CG_BACKEND=docker tests/integration/filters.sh    private dockerd (run by dockerd.sh)
#
# No gateway is involved: tests/integration/isolation.sh proves the gateway's outcome.
# Needs root (rootful backend) and python3. Exit status 77 = skipped (not root);
# otherwise non-zero when any row changed. Last line: "N passed, M failed".
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP integration: needs root (rootful backend)"
  exit 77
fi
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

if ! cg_require python3 curl; then fail "prerequisites" "missing tools"; cg_summary; exit; fi
if ! cg_backend_up; then fail "$CG_BACKEND backend" "backend start-up failed"; cg_summary; exit; fi
# the probe prints PASS/FAIL lines and its own "N passed, M failed"; fold them into ours
while IFS= read -r line; do
  case $line in
    "PASS "*) pass "${line#PASS }" ;;
    "FAIL "*) fail "${line#FAIL }" "" quiet ;;
    *" passed, "*" failed") ;;
    "probe exit 0") ;;
    "probe exit "*) fail "filters probe" "${line#probe } (124: timed out)" quiet ;;
    *) echo "$line" ;;
  esac
done < <(timeout -k 5 300 python3 "$HERE/filters_probe.py" --socket "$CG_BACKEND_SOCK" \
           --backend "$CG_BACKEND" --expect "$CG_REPO/doc/filters.md" 2>&1; echo "probe exit $?")
cg_summary
