#!/bin/bash
# tests/ops/docs.sh — the man page renders without warnings (MANWIDTH=80 man
# --warnings), it documents every flag; troubleshooting.md lists every reason
# code of the spec's closed vocabulary; the hook is executable and parses.
# Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"
MAN=$OPS_REPO/doc/container-gateway.8
TS=$OPS_REPO/doc/troubleshooting.md

if command -v man >/dev/null 2>&1; then
  W=$(MANWIDTH=80 man --warnings -l "$MAN" 2>&1 >/dev/null)
  check "man page renders without warnings" [ -z "$W" ]
  [ -z "$W" ] || echo "$W" | head -5
  R=$(sed 's/\\-/-/g' "$MAN")   # the source: rendering may break lines at hyphens
  nmiss=0
  for f in --project --run-dir --pid-file --backend --podman-socket --docker-socket --egress \
           --egress-port --egress-host --extra-bind-root --idle-timeout --backend-timeout \
           --log-level --log-format --max-connections --daemon --require-full-sandbox --session \
           --session-pid --stop-containers --log-max-size --require-patched-backend; do
    env_name=CONTAINER_GATEWAY_$(echo "${f#--}" | tr a-z- A-Z_)
    grep -q -- "$f" <<<"$R" && grep -q -- "$env_name" <<<"$R" || { nmiss=1; echo "  man page: missing $f or $env_name"; }
  done
  check "man page documents every flag and its variable" [ "$nmiss" = 0 ]
  # the audit subcommand and its own flags (no variables: they describe one report)
  nmiss=0
  for f in '^\.SS Audit flags' --since --decision --json --log-file; do
    grep -q -- "$f" <<<"$R" || { nmiss=1; echo "  man page: missing $f"; }
  done
  check "man page documents the audit subcommand and its flags" [ "$nmiss" = 0 ]
else
  echo "SKIP man: man(1) not installed"
fi
if command -v groff >/dev/null 2>&1; then
  check "groff -ww: no warnings" [ -z "$(groff -ww -z -man -Tutf8 "$MAN" 2>&1)" ]
fi

CODES="malformed too-large header-too-large ambiguous-field unknown-field denied-endpoint
unknown-endpoint denied-query denied-build-parameter privileged cap-add cap-drop capabilities
devices namespace network security-opt log-configuration annotations sysctls cgroup-parent
runtime systemd isolation masked-paths readonly-paths publish-all publish bind-mount mount-type
volume-driver volumes-from egress-required rootfs overlay-volumes env-host secrets
chroot-directories init-path pid-file container-id-file links pod dependency-containers
host-path remove-image commit-label not-found backend-unreachable too-many-connections backend-timeout"
missing=
for c in $CODES; do grep -q "^| \`$c\`" "$TS" || missing="$missing $c"; done
check "troubleshooting.md has a row for every reason code" [ -z "$missing" ]
[ -z "$missing" ] || echo "  missing:$missing"

HOOK=$OPS_REPO/contrib/hooks/container-gateway-hook
check "hook is executable" test -x "$HOOK"
check "hook parses (bash -n)" bash -n "$HOOK"
if command -v shellcheck >/dev/null 2>&1; then check "hook: shellcheck" shellcheck -S warning "$HOOK"; fi
check "doc/hooks.md exists" test -s "$OPS_REPO/doc/hooks.md"

# the audit record: its page names every outcome with an example, its schema parses,
# and `container-gateway help` lists the audit subcommand
AU=$OPS_REPO/doc/audit.md
nmiss=0
for o in allowed refused replay-refused violation error abandoned; do
  grep -q "^### \`$o\`" "$AU" && grep -q "\"outcome\":\"$o\"" "$AU" || { nmiss=1; echo "  doc/audit.md: no example of $o"; }
done
check "doc/audit.md has an example of every outcome" [ "$nmiss" = 0 ]
check "doc/audit-record.schema.json is JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OPS_REPO/doc/audit-record.schema.json"
check "help lists the audit subcommand" sh -c '"$1" help | grep -q "container-gateway audit"' _ "$GW"

# the backend scripts: --help prints their comment; an option-like DIR is refused (a new
# user's `podman-up.sh --help` started a real service in ./--help)
for sc in podman-up podman-down dockerd-up dockerd-down; do
  out=$(cd "$OPS_TMP" && bash "$OPS_REPO/scripts/$sc.sh" --help 2>&1); rc=$?
  check "$sc.sh --help: exit 0, its usage, no ./--help made" \
    sh -c '[ "$1" = 0 ] && printf "%s" "$2" | head -n 1 | grep -q "^$3.sh DIR" && [ ! -e "$4/--help" ]' _ "$rc" "$out" "$sc" "$OPS_TMP"
  (cd "$OPS_TMP" && bash "$OPS_REPO/scripts/$sc.sh" -x >/dev/null 2>&1); rc=$?
  check "$sc.sh -x: usage error (exit 2), no ./-x made" sh -c '[ "$1" = 2 ] && [ ! -e "$2/-x" ]' _ "$rc" "$OPS_TMP"
done

ops_summary
