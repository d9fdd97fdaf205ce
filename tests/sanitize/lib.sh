# shellcheck shell=bash
# tests/sanitize/lib.sh — shared by check-asan.sh, check-valgrind.sh and fuzz.sh
# (doc/reliability.md). Source it from a bash script run anywhere in the tree.
#
#   san_copy_tree DEST        a fresh copy of the working tree's sources (tracked files
#                             and untracked ones git does not ignore) in DEST, so that
#                             a sanitizer build never mixes objects with the release
#                             build in the tree itself
#   san_machine               one line: kernel, architecture, cores, CPU model, memory
#   san_suite NAME CMD...     run one suite with a timeout ($SAN_SUITE_TIMEOUT, 1200 s);
#                             prints == PASS/FAIL/SKIP lines (exit 77 = skipped) and
#                             appends "NAME<TAB>pass|fail|skip<TAB>seconds" to $SAN_SUITES
#   san_record NAME K=V...    write doc/results/NAME.env (read by
#                             tests/sanitize/reliability-report.sh)
#
# Results live in doc/results/ of the repository and are committed: they are the
# measurements doc/reliability.md shows (date, machine and commit in each file).
SAN_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SAN_RESULTS=${SAN_RESULTS:-$SAN_REPO/doc/results}
SAN_SUITE_TIMEOUT=${SAN_SUITE_TIMEOUT:-1200}
SAN_PASSED=0
SAN_FAILED=0
SAN_FAILED_NAMES=()
SAN_SUITES=${SAN_SUITES:-/dev/null}

san_copy_tree() {
  local dest=$1
  rm -rf "$dest"
  mkdir -p "$dest"
  if git -C "$SAN_REPO" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$SAN_REPO" && git ls-files -z --cached --others --exclude-standard | sort -zu |
      while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
      xargs -0 cp --parents -t "$dest")
  else
    # a tarball without .git: everything but build products
    (cd "$SAN_REPO" && find . -path ./build -prune -o -type f \
      ! -name '*.o' ! -name '*.d' ! -name '*.a' -print0 | xargs -0 cp --parents -t "$dest")
  fi
}

san_machine() {
  local cpu mem
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
  mem=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
  echo "$(uname -sr) $(uname -m), $(nproc) cores (${cpu:-unknown CPU}), ${mem:-? GiB} RAM"
}

san_suite() {
  local name=$1 rc t0 secs res; shift
  echo "== $name"
  t0=$(date +%s)
  if declare -F "$1" >/dev/null; then "$@"; rc=$?   # a function bounds its own commands
  else timeout -k 10 "$SAN_SUITE_TIMEOUT" "$@"; rc=$?; fi
  secs=$(( $(date +%s) - t0 ))
  if [ $rc -eq 0 ]; then res=pass; SAN_PASSED=$((SAN_PASSED + 1)); echo "== PASS $name (${secs} s)"
  elif [ $rc -eq 77 ]; then res=skip; echo "== SKIP $name (${secs} s)"
  else
    res=fail; SAN_FAILED=$((SAN_FAILED + 1)); SAN_FAILED_NAMES+=("$name")
    [ $rc -eq 124 ] && echo "== $name timed out after ${SAN_SUITE_TIMEOUT} s"
    echo "== FAIL $name (exit $rc, ${secs} s)"
  fi
  printf '%s\t%s\t%s\n' "$name" "$res" "$secs" >>"$SAN_SUITES"
  return 0
}

# the commit measured: "-dirty" when a source differs from it (recorded results and the
# page they make do not count: a run that records several of them stays clean)
san_commit() {
  local c
  c=$(git -C "$SAN_REPO" rev-parse --short HEAD 2>/dev/null) || { echo unknown; return; }
  git -C "$SAN_REPO" diff --quiet HEAD -- . ':(exclude)doc/results' ':(exclude)doc/reliability.md' ||
    c=$c-dirty
  echo "$c"
}

san_record() {
  local name=$1 kv; shift
  mkdir -p "$SAN_RESULTS"
  {
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    echo "machine=$(san_machine)"
    echo "commit=$(san_commit)"
    for kv in "$@"; do echo "$kv"; done
  } >"$SAN_RESULTS/$name.env"
}
