#!/bin/bash
# tests/ops/stdio.sh — serve started with some of its standard descriptors closed
# (a supervisor or a shell that closed them: `2>&-`). Whatever the gateway opens first
# must not land on 0-2: the pid file on 2 gets the log written over the pid (status
# then says "not running" and stop refuses to signal), and the pinner's socket on 1 or 2
# gets what the monitor writes there. Each case: the pid file holds "<pid>\n" while it
# serves, status finds it running, stop stops it. Red team rt13. Last line:
# "N passed, M failed".
. "$(dirname "$0")/lib.sh"

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
SERVE=(--backend podman --podman-socket "$FAKE" --egress off --log-level debug)

alive() { kill -0 "$1" 2>/dev/null; }

# closed NAME REDIR: serve with the shell redirections REDIR (e.g. "2>&-")
closed() {
  local n=$1 redir=$2 pid
  ops_git_project "$n"
  eval "\"\$GW\" serve --project \"\$P\" \"\${SERVE[@]}\" $redir &"
  pid=$!; OPS_PIDS+=("$pid")
  if ! ops_wait_for "[ -S '$R/docker.sock' ] || ! alive $pid" 20 || ! alive "$pid"; then
    fail "$n: serve with $redir serves" "it exited or never bound its sockets"
    return
  fi
  check "$n: pid file holds <pid>\\n" [ "$(cat "$R/container-gateway.pid")" = "$pid" ]
  run "$GW" status --project "$P"
  check "$n: status finds it running" [ "$RC" = 0 ]
  run "$GW" stop --project "$P"
  check "$n: stop stops it" ops_wait_for "! alive $pid" 20
}

closed stderr "</dev/null >/dev/null 2>&-"
closed stdout-stderr "</dev/null 1>&- 2>&-"
closed all "0<&- 1>&- 2>&-"
ops_summary
