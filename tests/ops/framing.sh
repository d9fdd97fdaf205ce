#!/bin/bash
# tests/ops/framing.sh — the response framing relay (splice relay, batched
# backend reads): tests/ops/framing.py puts a fake backend with seeded random framings
# (chunked, Content-Length, until close; split writes; junk past the end) behind the
# real gateway and checks every answer through one kept client connection.
# Seeds 1, 2, 3 with 150 answers each (FRAMING_SEEDS="S:N ..." chooses others).
# Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"

ops_git_project framing
mkdir -p "$OPS_TMP/fr"
# python starts the gateway and stops it by pid; should python be killed (timeout),
# lib.sh's cleanup stops the gateway by its pid file
# shellcheck disable=SC2086
timeout -k 5 150 python3 "$OPS_REPO/tests/ops/framing.py" "$GW" "$P" "$OPS_TMP/fr" \
  ${FRAMING_SEEDS:-1:150 2:150 3:150} >"$OPS_TMP/fr.out" 2>"$OPS_TMP/fr.err"
rc=$?
while IFS= read -r line; do
  case $line in
    "PASS "*) pass "${line#PASS }" ;;
    "FAIL "*) n=${line#FAIL }; fail "${n%%: *}" "${n#*: }" ;;
  esac
done <"$OPS_TMP/fr.out"
if [ $rc -ne 0 ] || [ -s "$OPS_TMP/fr.err" ]; then
  fail "framing.py ran to its end" "exit $rc: $(tail -n 5 "$OPS_TMP/fr.err")"
fi
[ "$OPS_PASSED" -gt 0 ] || fail "framing.py gave verdicts" "none"
ops_summary
