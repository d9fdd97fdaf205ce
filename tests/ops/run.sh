#!/bin/bash
# tests/ops/run.sh — every operations test (cli.md: run directory, pid file,
# stop/status, daemon mode, idle timeout, logging, the hook, the docs).
# Each script prints PASS/FAIL lines and "N passed, M failed"; exit 77 = skipped.
# Last line: "N passed, M failed" (checks, summed); non-zero when any failed.
set -u
cd "$(dirname "$0")" || exit 1
total_p=0; total_f=0; bad=()
for t in rundir.sh lifecycle.sh cli.sh limits.sh timeouts.sh hook.sh docs.sh logs-follow.sh confine.sh spares.sh framing.sh logrotate.sh stdio.sh; do
  echo "== tests/ops/$t"
  out=$(timeout -k 10 300 "./$t" 2>&1); rc=$?
  printf '%s\n' "$out"
  last=$(printf '%s\n' "$out" | tail -n 1)
  if [ $rc -eq 77 ]; then continue; fi
  if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    total_p=$((total_p + BASH_REMATCH[1])); total_f=$((total_f + BASH_REMATCH[2]))
  else
    total_f=$((total_f + 1)); echo "FAIL $t: no summary line (exit $rc)"
  fi
  [ $rc -eq 0 ] || bad+=("$t")
done
[ ${#bad[@]} -eq 0 ] || echo "failed: ${bad[*]}"
echo "$total_p passed, $total_f failed"
[ ${#bad[@]} -eq 0 ] && [ "$total_f" -eq 0 ]
