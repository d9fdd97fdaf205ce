#!/bin/bash
# tests/run-all.sh — what `make check` runs after building:
#   1. every unit test program tests/test_* (cmocka), each counted as one suite;
#      tests/boundary.sh (the monitor's layout: grep, scripts/layers.py);
#      then tests/forwarded/run.py (the gateway before a fake, recording daemon) and
#      tests/hostile/run.py (a puppet request parser lying to the real monitor);
#      tests/tarparity/run.py (the checker's tar reader against Go's archive/tar);
#   2. the real-CLI integration suites (each one suite; exit 77 = skipped):
#      tests/integration/cli.sh, tools.sh, libs.sh, usability.sh, streams.sh, isolation.sh and
#      after_check.sh against
#      a private podman service, tests/integration/dockerd.sh (cli, tools, libs and
#      usability again) against a private dockerd, tests/integration/rootless.sh (a
#      throwaway user's rootless podman); tests/hostile/run.py --real;
#      tests/integration/audit.py (the audit trail, with the puppet parser); the fault
#      table and the load test (tests/sanitize/faults.sh, load.sh) against a private podman;
#   3. the operations suite tests/ops/run.sh (one suite); it, the clang build and the
#      fuzzers need no container engine and run beside the dockerd, rootless and fault
#      suites (their output is printed when they end);
#   4. the conformance kit ../shared/conformance/run.py when it is there (one suite);
#      a plain clone has no ../shared: then it says so and goes on.
# Last line: "N passed, M failed" (suites); exit status non-zero when any suite failed.
set -u
cd "$(dirname "$0")/.." || exit 1
SUITE_TIMEOUT=${SUITE_TIMEOUT:-600}
passed=0; failed=0; failed_names=()

run_suite() {  # NAME CMD...
  local name=$1 rc t0 t1; shift
  echo "== $name"
  t0=$(date +%s%N)
  timeout -k 10 "$SUITE_TIMEOUT" "$@"; rc=$?
  t1=$(( ($(date +%s%N) - t0) / 1000000 ))
  if [ $rc -eq 0 ]; then passed=$((passed + 1)); echo "== PASS $name (${t1} ms)"
  elif [ $rc -eq 77 ]; then echo "== SKIP $name (${t1} ms)"
  else
    failed=$((failed + 1)); failed_names+=("$name")
    [ $rc -eq 124 ] && echo "== $name timed out after ${SUITE_TIMEOUT} s"
    echo "== FAIL $name (exit $rc, ${t1} ms)"
  fi
}

# 1. unit tests: executables named tests/test_* (not the .c/.o/.d beside them)
for t in tests/test_*; do
  case $t in *.c|*.o|*.d|*.h) continue ;; esac
  [ -f "$t" ] && [ -x "$t" ] || continue
  run_suite "$t" "./$t"
done

# the monitor's layout: the event loop reaches the per-request engine through
# monitor/exchange/exchange.h only, no catch-all header, the zygote the loop's alone
run_suite tests/boundary.sh ./tests/boundary.sh

# 1a. what reaches the daemon: the real gateway before a fake, recording daemon
#     (query-key allow-lists, bodies on routes that take none; doc/leniency.md)
run_suite tests/forwarded/run.py python3 tests/forwarded/run.py

# 1b. a compromised request parser against the real monitor: every lie of tests/hostile/table.py
#     refused, nothing but the asked inspects reaching a recording backend, the monitor
#     serving the next connection; --real: a subset against a private podman
run_suite tests/hostile/run.py python3 tests/hostile/run.py

# 1c. the checker's tar reader reads ~6,000 odd tars as Go 1.19's archive/tar (the
#     daemons' reader) does, or refuses them on purpose (a few seconds; exit 77 without Go)
run_suite tests/tarparity/run.py python3 tests/tarparity/run.py

# 2. real-CLI integration tests against a private podman service
run_suite tests/integration/cli.sh ./tests/integration/cli.sh
# docker-compose, the Python SDK, builds, volume/network/seccomp refusals
run_suite tests/integration/tools.sh ./tests/integration/tools.sh
# dockerode and testcontainers, directly and through the gateway
run_suite tests/integration/libs.sh ./tests/integration/libs.sh
# everyday use without surprises: chains, hints, inspect, images, the CLI, the demo
run_suite tests/integration/usability.sh ./tests/integration/usability.sh
# build contexts, Dockerfiles and archives read by the checker (doc/privsep.md "Builds and archives")
run_suite tests/integration/builds.sh ./tests/integration/builds.sh
# how podman combines list/prune/events filters: every row of doc/filters.md
run_suite tests/integration/filters.sh ./tests/integration/filters.sh
# two projects on one podman: nothing foreign listed or pruned, any filter (routes.md §8.2)
run_suite tests/integration/isolation.sh ./tests/integration/isolation.sh
# isolation after the check: pinned bind sources, working directories, /dev mounts
run_suite tests/integration/after_check.sh ./tests/integration/after_check.sh
# the hostile child's lies against a private podman: its state never changes
run_suite "tests/hostile/run.py --real" python3 tests/hostile/run.py --real
# the audit trail: a record per decision kind (schema-checked), a forwarded request never
# "abandoned", no forged record, the audit command's summary (doc/audit.md)
run_suite tests/integration/audit.py python3 tests/integration/audit.py
# 256 MiB streams both ways, paused and vanishing clients, refusals mid-upload
run_suite tests/integration/streams.sh ./tests/integration/streams.sh
# 2a-3. The lane that needs no container engine (the clang build, the fuzzers, the
#     operations suite: about 6 minutes, mostly fuzzing and waiting for timeouts) runs
#     beside the dockerd, rootless and fault suites rather than after them, so that make
#     check stays near 20 minutes on 2 cores; its output is printed whole when it ends,
#     and its suites count as any other. Every suite waits for conditions, so the shared
#     CPU makes them slower, not wrong (the guide's loaded 2-core rule).
lane_dir=$(mktemp -d "${TMPDIR:-/tmp}/cg-lane.XXXXXX")
engine_free_lane() {
  # 2a. the same tree built with clang, -Werror (the project is gcc- and clang-clean)
  if command -v clang >/dev/null; then
    cb=$(mktemp -d /tmp/cg-clang.XXXXXX)
    run_suite "clang -Werror build" sh -c "git ls-files -z | xargs -0 cp --parents -t '$cb' && make -s -C '$cb' CC=clang all >/dev/null"
    rm -rf "$cb"
  else
    echo "== clang -Werror build: clang is not installed; not run"
  fi

  # 2b. a short libFuzzer run of every fuzz target (make fuzz: the HTTP, JSON and IPC
  #     parsers, the route classifier, the query policy, the build query, the monitor's
  #     FORWARD verification and replay), when clang
  #     can build fuzzers here (clang with its sanitizer runtime); longer: make fuzz FUZZ_SECONDS=300
  # (per-run names: another make check may run beside this one)
  probe=$(mktemp "${TMPDIR:-/tmp}/cg-fuzz-probe.XXXXXX")
  if echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}' |
     clang -x c -fsanitize=fuzzer,address - -o "$probe" >/dev/null 2>&1; then
    rm -f "$probe"
    # in a scratch directory: build/fuzz keeps what the user's own runs found
    fw=$(mktemp -d /tmp/cg-fuzz.XXXXXX)
    run_suite "make fuzz (5 s each)" make -s fuzz FUZZ_SECONDS=5 FUZZ_RECORD=0 FUZZ_WORK="$fw"
    if [ -n "$(find "$fw" -maxdepth 2 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \))" ]; then
      echo "   fuzz findings kept in $fw"
    else rm -rf "$fw"; fi
  else
    rm -f "$probe"
    echo "== make fuzz: clang cannot build libFuzzer targets here (no clang or no sanitizer runtime); not run"
  fi

  # 3. operations: run directory, pid lock, stop/status, daemon, logs, hook, man page
  run_suite tests/ops/run.sh ./tests/ops/run.sh
  echo "$passed $failed" > "$lane_dir/counts"
  printf '%s\n' "${failed_names[@]}" > "$lane_dir/failed"
}
( passed=0; failed=0; failed_names=(); engine_free_lane ) > "$lane_dir/out" 2>&1 &
lane_pid=$!

# the same CLI and library suites with Debian's dockerd behind docker.sock
run_suite tests/integration/dockerd.sh ./tests/integration/dockerd.sh
# a throwaway user's rootless podman: backend identity, builds, the hook's hand-over,
# sessions, the degraded sandbox, discovery, worktrees; then cli.sh as that user
run_suite tests/integration/rootless.sh ./tests/integration/rootless.sh
# the fault table: podman killed and restarted, clients gone half-way, a parser killed,
# a slowloris of 500, oversized heads and bodies, the 503, a killed exec (doc/reliability.md)
run_suite tests/sanitize/faults.sh ./tests/sanitize/faults.sh
# 256 keep-alive clients (10 s here; 60 s in make reliability-report), everything back
# afterwards, one access line per request; the monitor's memory (doc/reliability.md)
run_suite tests/sanitize/load.sh env LOAD_SECONDS=10 LOAD_CP_MB=64 ./tests/sanitize/load.sh

# the engine-free lane's output and counts (started before dockerd.sh)
wait "$lane_pid"
echo "== the engine-free lane (clang build, fuzzers, operations), run beside the suites above:"
cat "$lane_dir/out"
if read -r lp lf < "$lane_dir/counts" 2>/dev/null; then
  passed=$((passed + lp)); failed=$((failed + lf))
  while IFS= read -r n; do [ -n "$n" ] && failed_names+=("$n"); done < "$lane_dir/failed"
else
  failed=$((failed + 1)); failed_names+=("engine-free lane (no counts)")
fi
rm -rf "$lane_dir"

# 4. conformance kit (one suite; every public case must pass)
KIT=../shared/conformance/run.py
if [ -f "$KIT" ]; then
  echo "== conformance ($KIT)"
  log=$(mktemp "${TMPDIR:-/tmp}/cg-conformance.XXXXXX")   # own file: several checkouts may run at once
  timeout -k 10 1800 python3 "$KIT" --gateway ./container-gateway >"$log" 2>&1
  rc=$?
  nfail=$(grep -c '^FAIL ' "$log")
  if [ "$nfail" -gt 0 ]; then grep '^FAIL ' "$log" | head -n 10 | sed 's/^/   /'; [ "$nfail" -gt 10 ] && echo "   … ($nfail FAIL lines; full log $log)"; fi
  last=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
  [ $rc -eq 124 ] && last="timed out after 1800 s"
  echo "conformance: ${last:-no output (exit $rc)}"
  if [ $rc -eq 0 ]; then passed=$((passed + 1)); rm -f "$log"
  else failed=$((failed + 1)); failed_names+=(conformance); echo "   full log: $log"; fi
else
  echo "conformance kit not found at ../shared/conformance; skipped"
fi

[ ${#failed_names[@]} -eq 0 ] || echo "failed suites: ${failed_names[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
