#!/bin/bash
# tests/sanitize/check-valgrind.sh — `make check-valgrind` (doc/reliability.md): valgrind
# memcheck of the release build (the binary `make all` ships, -O2 -g):
#
#   1. the monitor of a gateway under valgrind (--trace-children=no) through a scripted
#      session of the real docker and podman CLIs against a private podman: version,
#      run, run -d, exec (with stdin), logs, cp both ways, inspect, ps, stop, rm,
#      volumes, networks, a classic build, refusals; then SIGTERM and the leak check;
#   2. every unit test program under valgrind, except test_sandbox (it loads the
#      seccomp filter into itself, and the filter kills valgrind's own system calls).
#
# Not under valgrind: the zygote and the request parsers. They run under their seccomp
# filter from their first instructions on, and valgrind needs what the filter forbids
# (executable mappings for its translations, open, ...); their code is checked by
# make check-asan (the same sandbox, with the sanitizer rules) and by the unit tests here.
#
# Pass: no memcheck error and no definitely lost block in any process. Logs in
# build/valgrind/ (vg.<pid>.log per process). Results: doc/results/valgrind.env.
# Last line: "N passed, M failed, E errors, D bytes definitely lost".
set -u
. "$(dirname "$0")/lib.sh"
cd "$SAN_REPO" || exit 1

command -v valgrind >/dev/null || { echo "check-valgrind: valgrind is not installed (scripts/install-deps.sh)"; exit 1; }
V=$SAN_REPO/build/valgrind
rm -rf "$V"
mkdir -p "$V"
SAN_SUITES=$V/suites.tsv
: >"$SAN_SUITES"
T0=$(date +%s)
VG=(valgrind --tool=memcheck --trace-children=no --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite --track-origins=yes --error-exitcode=99 --num-callers=30)

# The gateway under valgrind, as the integration helpers start it (CG_GATEWAY): exec
# keeps the pid the helpers wait for and signal.
cat >"$V/gateway" <<EOF
#!/bin/sh
exec ${VG[*]} --log-file=$V/vg.%p.log $SAN_REPO/container-gateway "\$@"
EOF
chmod +x "$V/gateway"

# 1. the scripted CLI session
session() {
  CG_GATEWAY=$V/gateway CG_TIMEOUT=120 bash "$SAN_REPO/tests/sanitize/valgrind-session.sh"
}
san_suite "valgrind: CLI session through the monitor" session

# 2. unit tests
for t in tests/test_*; do
  case $t in *.c|*.o|*.d|*.h) continue ;; esac
  [ -x "$t" ] || continue
  if [ "$t" = tests/test_sandbox ]; then
    echo "== valgrind $t: not run (it loads the seccomp filter into itself, which kills valgrind's own calls; make check-asan runs it)"
    continue
  fi
  san_suite "valgrind $t" "${VG[@]}" --log-file="$V/vg.%p.log" "./$t"
done

# every process's summary: errors, definite and indirect losses
errors=0; definite=0; indirect=0; procs=0
for f in "$V"/vg.*.log; do
  # a process that forked and then exec'd left valgrind (--trace-children=no): no summary
  grep -q 'ERROR SUMMARY' "$f" || continue
  procs=$((procs + 1))
  e=$(sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$f" | tail -n 1 | tr -d ,)
  d=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$f" | tail -n 1 | tr -d ,)
  i=$(sed -n 's/.*indirectly lost: \([0-9,]*\) bytes.*/\1/p' "$f" | tail -n 1 | tr -d ,)
  if [ "${e:-0}" != 0 ] || [ "${d:-0}" != 0 ]; then
    echo "== valgrind findings in $f (${e:-0} errors, ${d:-0} bytes definitely lost):"
    grep -E '^==[0-9]+== (Invalid|Conditional|Use of|Syscall param|Mismatched|Source and|Argument|[0-9,]+ bytes in [0-9,]+ blocks are definitely)|^==[0-9]+==    (at|by) ' "$f" | head -n 40
  fi
  errors=$((errors + ${e:-0})); definite=$((definite + ${d:-0})); indirect=$((indirect + ${i:-0}))
done
monitors=$(grep -l 'ERROR SUMMARY' $(grep -l 'container-gateway serve' "$V"/vg.*.log) 2>/dev/null | wc -l)
secs=$(( $(date +%s) - T0 ))
san_record valgrind "passed=$SAN_PASSED" "failed=$SAN_FAILED" "errors=$errors" \
  "definitely_lost=$definite" "indirectly_lost=$indirect" "processes=$procs" \
  "monitors=$monitors" "seconds=$secs" "valgrind=$(valgrind --version)"
cp "$SAN_SUITES" "$SAN_RESULTS/valgrind-suites.tsv"
[ ${#SAN_FAILED_NAMES[@]} -eq 0 ] || echo "failed suites: ${SAN_FAILED_NAMES[*]}"
echo "check-valgrind: $procs processes checked ($monitors gateway monitors), $((secs / 60)) min $((secs % 60)) s"
echo "$SAN_PASSED passed, $SAN_FAILED failed, $errors errors, $definite bytes definitely lost"
[ "$SAN_FAILED" -eq 0 ] && [ "$errors" -eq 0 ] && [ "$definite" -eq 0 ]
