#!/bin/bash
# tests/boundary.sh — the monitor's layout, kept by grep and scripts/layers.py
# (make check, tests/run-all.sh):
#   1. outside monitor/exchange/, the per-request engine is reached through its one
#      header, monitor/exchange/exchange.h: no other file of monitor/, ops/ or the
#      other modules includes a header of monitor/exchange/ (tests/ are exempt: the
#      unit tests and fuzz targets test the exchange's parts from inside);
#   2. no catch-all header: monitor/loop.h is gone and nobody includes it, and
#      monitor/gateway.h holds the process state's types only (no function);
#   3. the zygote is the event loop's: no file of monitor/exchange/ includes
#      monitor/zygote.h or calls a zygote_ function (comments aside);
#   4. no circle in the include graph of the product's code, every folder the
#      Makefile builds (GRAPH below; scripts/layers.py: a .c and its .h one
#      node): a lower file never includes a higher one.
#      The check first shows, on a circle of two files of its own, that
#      layers.py sees one;
#   5. a slice of struct conn (monitor/gateway.h) is written by its owner file
#      only (SLICES below: slice:owner); the others read it or call the owner.
#      Caught, outside comments, in every file but tests/: an assignment to
#      ->SLICE.field (with subscripts and members: ->SLICE.f[i].g) by = or
#      a compound operator (+= |= <<= ...), ++ or -- on it, and its address
#      taken (&c->SLICE...: a callee could write through it; "&& c->SLICE"
#      is a test, not an address).
#      Not caught: a write through a pointer or macro that hides the
#      "->SLICE." spelling, memcpy over struct conn.
# One line per violation (FILE:LINE: what, or the circle's files); last line
# "N passed, M failed" (one check per file, two for the include graph); exit
# status 1 when any failed.
set -u
cd "$(dirname "$0")/.." || exit 1
passed=0; failed=0

# rule 5's slices of struct conn, each with the one file that writes it
SLICES="ph:monitor/exchange/phase.c im:monitor/exchange/image.c cb:monitor/exchange/createbody.c lf:monitor/exchange/relay.c ans:monitor/exchange/answer.c rp:monitor/exchange/relay.c ul:monitor/exchange/splice.c fq:monitor/exchange/facts.c fw:monitor/exchange/verify.c"

slice_writes() {  # FILE SLICE: FILE's lines that write ->SLICE.<field>
  local fld="->$2\\.[A-Za-z_][A-Za-z0-9_]*(\\[[^]]*\\]|\\.[A-Za-z_][A-Za-z0-9_]*)*[[:space:]]*"
  grep -nE -e "$fld(([-+*/%&|^]|<<|>>)?=([^=]|\$)|\\+\\+|--)|(\\+\\+|--)[[:space:]]*[A-Za-z_(][A-Za-z0-9_()]*->$2\\.|(^|[^&])&[[:space:]]*\\(?[A-Za-z_][A-Za-z0-9_]*\\)?->$2([^A-Za-z0-9_]|\$)" "$1" |
    grep -vE '^[0-9]+:[[:space:]]*(/?\*|//)'
}

# the code of a C file without its comments (string contents stay)
code_of() {
  if command -v cpp >/dev/null; then
    cpp -fpreprocessed -P -w "$1" 2>/dev/null
  else
    cat "$1"
  fi
}

check_file() {  # FILE: prints its violations; returns 1 when it has any
  local f=$1 bad=0 hits
  case $f in
    monitor/exchange/*)
      hits=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"monitor/zygote\.h"' "$f")
      [ -n "$hits" ] && { sed "s|^\([0-9]*\):.*|$f:\1: an exchange file includes monitor/zygote.h (the zygote is the event loop's)|" <<<"$hits"; bad=1; }
      if code_of "$f" | grep -qE '\bzygote_[A-Za-z0-9_]*[[:space:]]*\('; then
        grep -nE '\bzygote_[A-Za-z0-9_]*[[:space:]]*\(' "$f" | grep -vE '^[0-9]+:[[:space:]]*(/?\*|//)' |
          sed "s|^\([0-9]*\):.*|$f:\1: an exchange file calls the zygote (the event loop's)|"
        bad=1
      fi
      ;;
    tests/*) ;;
    *)
      hits=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"monitor/exchange/[^"]*"' "$f" |
        grep -vE '"monitor/exchange/exchange\.h"')
      [ -n "$hits" ] && { sed -E "s|^([0-9]+):.*\"(monitor/exchange/[^\"]*)\".*|$f:\1: includes \2, internal to the exchange (use monitor/exchange/exchange.h)|" <<<"$hits"; bad=1; }
      ;;
  esac
  case $f in
    tests/*) ;;
    *)
      local sl slice owner
      for sl in $SLICES; do
        slice=${sl%%:*}; owner=${sl#*:}
        [ "$f" = "$owner" ] && continue
        hits=$(slice_writes "$f" "$slice")
        [ -n "$hits" ] && { sed "s|^\([0-9]*\):.*|$f:\1: writes c->$slice, which only $owner writes|" <<<"$hits"; bad=1; }
      done
      ;;
  esac
  hits=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"monitor/loop\.h"' "$f")
  [ -n "$hits" ] && { sed "s|^\([0-9]*\):.*|$f:\1: includes monitor/loop.h, a catch-all header that no longer exists|" <<<"$hits"; bad=1; }
  if [ "$f" = monitor/gateway.h ]; then
    hits=$(code_of "$f" | grep -nE '^[A-Za-z_][A-Za-z0-9_ *]*[ *]\**[A-Za-z_][A-Za-z0-9_]*\(' )
    [ -n "$hits" ] && { sed "s|^\([0-9]*\):\(.*\)|$f: declares a function (types only; declare it in its file's header): \2|" <<<"$hits"; bad=1; }
  fi
  return $bad
}

if [ -e monitor/loop.h ]; then
  echo "monitor/loop.h: the catch-all header exists again"; failed=$((failed + 1))
else
  passed=$((passed + 1))
fi
# 4. include circles. layers.py exits 0 (none) or 1 (some); anything else,
# or no count line, means it did not run, which fails too.
layers() {  # DIR...: layers.py's output, run in the current directory
  local out rc
  out=$(python3 "$top/scripts/layers.py" "$@" 2>&1); rc=$?
  if [ "$rc" -gt 1 ] || ! head -1 <<<"$out" | grep -qE '^[0-9]+ nodes, .* circles$'; then
    echo "scripts/layers.py $*: did not run (status $rc): $(head -1 <<<"$out")"
    return 2
  fi
  printf '%s\n' "$out"
}
top=$PWD
selftest=$(mktemp -d) || exit 1
mkdir "$selftest/x"
printf '#include "x/b.h"\n' >"$selftest/x/a.c"
printf '#include "x/a.h"\n' >"$selftest/x/b.c"
touch "$selftest/x/a.h" "$selftest/x/b.h"
out=$(cd "$selftest" && layers x)
rm -rf "$selftest"
if grep -qx 'circle: x/a x/b' <<<"$out"; then
  passed=$((passed + 1))
else
  echo "scripts/layers.py: its self-test's circle x/a <-> x/b is not seen: $(head -1 <<<"$out")"
  failed=$((failed + 1))
fi
# the folders of the product's code (the Makefile's MODULES; monitor/exchange
# is within monitor)
GRAPH="base check http ipc monitor ops policy seccomp unpriv"
if ! out=$(layers $GRAPH); then
  echo "$out"; failed=$((failed + 1))
elif grep -q '^circle:' <<<"$out"; then
  grep '^circle:' <<<"$out" |
    sed "s|^circle: \(.*\)|include circle: \1 (python3 scripts/layers.py $GRAPH: a lower file includes a higher one)|"
  failed=$((failed + $(grep -c '^circle:' <<<"$out")))
else
  passed=$((passed + 1))
fi

while IFS= read -r f; do
  [ -f "$f" ] || continue
  if check_file "$f"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done < <(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -printf '%P\n')
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
