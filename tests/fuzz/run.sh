#!/bin/bash
# tests/fuzz/run.sh SECONDS FUZZER... — what `make fuzz FUZZ_SECONDS=N` runs
# (doc/reliability.md "Fuzzing"): every libFuzzer target for SECONDS seconds, one after
# the other, each from a scratch copy of its committed corpus
# tests/fuzz/corpus/<target>/ (the repository is
# never modified; what the run adds stays in $FUZZ_WORK/<target>/corpus, default
# build/fuzz). A crash, leak, timeout or out-of-memory input is kept in
# $FUZZ_WORK/<target>/ (crash-<sha1>, ...);
# minimise it with `tests/fuzz/fuzz_<target> -minimize_crash=1 -runs=10000 FILE` and make
# it a regression test (a unit test case with the input).
# Records doc/results/fuzz-<target>.env (seconds, executions, crashes, corpus sizes;
# tests/sanitize/reliability-report.sh) unless FUZZ_RECORD=0 (make check's short run). One line per target; last line
# "fuzz: N targets, E executions, C crashes"; exit status 1 when C > 0.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/sanitize/lib.sh
secs=$1; shift
total_exec=0; total_crash=0; n=0
for f in "$@"; do
  t=${f##*/fuzz_}
  w=${FUZZ_WORK:-build/fuzz}/$t
  rm -rf "$w"
  mkdir -p "$w/corpus"
  [ -d "tests/fuzz/corpus/$t" ] && cp tests/fuzz/corpus/"$t"/* "$w/corpus/" 2>/dev/null
  seeds=$(find "$w/corpus" -type f | wc -l)
  t0=$(date +%s)
  "./$f" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$w/" "$w/corpus" >"$w/log" 2>&1
  rc=$?
  el=$(( $(date +%s) - t0 ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log" | tail -n 1)
  crashes=$(find "$w" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o \
    -name 'timeout-*' -o -name 'oom-*' -o -name 'slow-unit-*' \) | wc -l)
  # a fuzzer that died without leaving an input is a failure too
  [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ] && crashes=1
  corpus=$(find "$w/corpus" -type f | wc -l)
  printf 'fuzz %-7s %4d s  %11s executions  %d crashes  corpus %d -> %d\n' \
    "$t" "$el" "${execs:-?}" "$crashes" "$seeds" "$corpus"
  [ "$crashes" -gt 0 ] && { grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' "$w/log" | head -n 5; }
  [ "${FUZZ_RECORD:-1}" = 0 ] || san_record "fuzz-$t" "target=$t" "seconds=$el" \
    "executions=${execs:-0}" "crashes=$crashes" "seeds=$seeds" "corpus=$corpus"
  total_exec=$((total_exec + ${execs:-0})); total_crash=$((total_crash + crashes)); n=$((n + 1))
done
echo "fuzz: $n targets, $total_exec executions, $total_crash crashes"
[ "$total_crash" -eq 0 ]
