#!/bin/bash
# tests/sanitize/check-asan.sh — `make check-asan` (doc/reliability.md): the unit tests and
# the integration suites with AddressSanitizer + UndefinedBehaviorSanitizer.
#
#   1. a copy of the tree in $CG_ASAN_DIR (default build/asan/src) built with clang,
#      -fsanitize=address,undefined -fno-sanitize-recover=undefined and -DCG_SANITIZE
#      (the request parser's sandbox then allows what the runtime needs: unpriv/sanitize.h;
#      the release build in the tree is never touched);
#   2. every unit test program of that build (cmocka; test_sandbox runs the real filter);
#   3. tests/integration/cli.sh and tools.sh (the real docker/podman CLIs against a private
#      podman), tests/ops/run.sh, and the conformance kit when ../shared is there, each
#      with the sanitizer gateway;
#   4. every sanitizer report written meanwhile — monitors, request parsers (they print
#      module+offset frames, symbolised here with llvm-symbolizer), unit tests — is
#      printed; any report fails the run, as does any failed suite.
# Reports are collected with log_path in $CG_ASAN_DIR/reports (empty files are removed).
# Results: doc/results/asan.env and asan-suites.tsv (tests/sanitize/reliability-report.sh).
# Last line: "N passed, M failed, R sanitizer reports"; exit non-zero when M or R > 0.
# Takes 3 to 8 minutes on a 2-core machine (2 min 35 s idle, 7 min 17 s busy; mostly podman).
set -u
. "$(dirname "$0")/lib.sh"
cd "$SAN_REPO" || exit 1

B=${CG_ASAN_DIR:-$SAN_REPO/build/asan}
SRC=$B/src
REPORTS=$B/reports
SAN_SUITES=$B/suites.tsv
T0=$(date +%s)

command -v clang >/dev/null || { echo "check-asan: clang is not installed (scripts/install-deps.sh)"; exit 1; }

echo "== sanitizer build in $SRC"
san_copy_tree "$SRC"
# -fPIE alone: _FORTIFY_SOURCE bypasses ASan's interceptors, and the stack protector
# duplicates what ASan checks.
SAN_FLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
if ! make -s -C "$SRC" -j2 CC=clang HARDEN=-fPIE CFLAGS="$SAN_FLAGS -DCG_SANITIZE" \
     LDFLAGS="-fsanitize=address,undefined" all test-programs >"$B/build.log" 2>&1; then
  tail -n 30 "$B/build.log"
  echo "check-asan: the sanitizer build failed (full log $B/build.log)"
  exit 1
fi

rm -rf "$REPORTS"
mkdir -p "$REPORTS"
chmod 1777 "$REPORTS"   # a parser that drops to uid 65534 first opens its report here
: >"$SAN_SUITES"
# Every process of the run reports into $REPORTS/asan.<pid>: the monitors and the
# unit tests by themselves, the request parsers through the file they open before
# their sandbox (unpriv/sanitize.c). Leak checks on; UBSan findings are fatal.
# Not strict_string_checks: it flags strndup() of length-delimited buffers (legal C,
# and how the parsers copy fields), so every request would "overflow".
export ASAN_OPTIONS="log_path=$REPORTS/asan:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:color=never"
export UBSAN_OPTIONS="log_path=$REPORTS/asan:print_stacktrace=1:halt_on_error=1:color=never"
export LSAN_OPTIONS="log_path=$REPORTS/asan"

# 2. unit tests, from the build copy (they use paths relative to its root)
for t in "$SRC"/tests/test_*; do
  case $t in *.c|*.o|*.d|*.h) continue ;; esac
  [ -x "$t" ] || continue
  san_suite "asan ${t#"$SRC"/}" sh -c 'cd "$1" && exec "./$2"' sh "$SRC" "${t#"$SRC"/}"
done

# 3. integration and operations suites with the sanitizer gateway
export CG_GATEWAY=$SRC/container-gateway
san_suite "asan tests/integration/cli.sh" "$SRC/tests/integration/cli.sh"
san_suite "asan tests/integration/tools.sh" "$SRC/tests/integration/tools.sh"
san_suite "asan tests/ops/run.sh" "$SRC/tests/ops/run.sh"
KIT=$SAN_REPO/../shared/conformance/run.py
if [ -f "$KIT" ]; then
  san_suite "asan conformance" python3 "$KIT" --gateway "$CG_GATEWAY"
else
  echo "== conformance kit not found at ../shared/conformance; not run"
fi

# 3a. the issue's reproduction: a sanitizer build WITHOUT -DCG_SANITIZE cannot sandbox
#     its request parsers (RLIMIT_AS stops the runtime); serve must say how the zygote
#     ended, not that it timed out
selftest_names_the_end() {
  local d=$B/no-cg-sanitize out
  san_copy_tree "$d/src"
  make -s -C "$d/src" -j2 CC=clang HARDEN=-fPIE CFLAGS="$SAN_FLAGS" \
    LDFLAGS="-fsanitize=address,undefined" container-gateway >"$d/build.log" 2>&1 || return 1
  mkdir -p "$d/p"
  out=$(ASAN_OPTIONS=detect_leaks=0 timeout 30 "$d/src/container-gateway" serve --project "$d/p" \
    --run-dir "$d/r" --egress off --backend podman --podman-socket "$d/none.sock" 2>&1)
  echo "$out" | tail -n 1
  grep -qE 'cannot sandbox the request parser \(the zygote ended before CHILD_READY: (exit status [0-9]+|SIG[A-Z]+)' <<<"$out"
}
san_suite "asan self-test names how the zygote ended (no -DCG_SANITIZE)" selftest_names_the_end

# 4. the reports
find "$REPORTS" -type f -empty -delete
mapfile -t files < <(find "$REPORTS" -type f | sort)
for f in "${files[@]}"; do
  echo "== sanitizer report $f"
  # frames of sandboxed parsers read (binary+0xoffset): symbolise them here
  if command -v asan_symbolize >/dev/null; then asan_symbolize <"$f"; else cat "$f"; fi | head -n 80
done
secs=$(( $(date +%s) - T0 ))
san_record asan "passed=$SAN_PASSED" "failed=$SAN_FAILED" "reports=${#files[@]}" \
  "seconds=$secs" "flags=$SAN_FLAGS -DCG_SANITIZE" "compiler=$(clang --version | head -n 1)"
cp "$SAN_SUITES" "$SAN_RESULTS/asan-suites.tsv"
[ ${#SAN_FAILED_NAMES[@]} -eq 0 ] || echo "failed suites: ${SAN_FAILED_NAMES[*]}"
echo "check-asan: $((secs / 60)) min $((secs % 60)) s"
echo "$SAN_PASSED passed, $SAN_FAILED failed, ${#files[@]} sanitizer reports"
[ "$SAN_FAILED" -eq 0 ] && [ ${#files[@]} -eq 0 ]
