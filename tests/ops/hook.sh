#!/bin/bash
# tests/ops/hook.sh — contrib/hooks/container-gateway-hook: started and stopped from
# a JSON payload, project root discovery, never runs code from the project, flag
# whitelist, always exit 0, the sockets handed over (CLAUDE_ENV_FILE, stdout, env,
# settings), sessions counted. Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"
HOOK=$OPS_REPO/contrib/hooks/container-gateway-hook

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
FLAGS=(--backend podman --podman-socket "$FAKE" --egress off)
mkdir -p "$OPS_TMP/bin"; ln -s "$GW" "$OPS_TMP/bin/container-gateway"
BASEPATH=$OPS_TMP/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
MARK=$OPS_TMP/pwned

hook() {  # PAYLOAD ARGS... (env from the caller)
  local payload=$1; shift
  printf '%s' "$payload" | timeout 90 env PATH="${HPATH:-$BASEPATH}" "$HOOK" "$@" >"$OPS_TMP/.hout" 2>"$OPS_TMP/.herr"
  HRC=$?; HOUT=$(cat "$OPS_TMP/.hout"); HERR=$(cat "$OPS_TMP/.herr")
}
running() { "$GW" status --project "$1" >/dev/null 2>&1; }

# ---- start and stop from a payload, git project, cwd in a subdirectory -------------------
ops_git_project proj; mkdir -p "$P/src/deep"
hook "{\"session_id\":\"s1\",\"cwd\":\"$P/src/deep\",\"hook_event_name\":\"SessionStart\"}" start "${FLAGS[@]}"
check "start: exit 0" [ "$HRC" = 0 ]
check "start: stdout is the export lines, nothing else" [ "$HOUT" = "export DOCKER_HOST=unix://$R/docker.sock
export CONTAINER_HOST=unix://$R/podman.sock" ]
check "start: gateway running for the git toplevel" running "$P"
check "start: sockets in the default run dir" test -S "$R/docker.sock"
check "start: logs on stderr" grep -q "container-gateway-hook: gateway for $P is running" "$OPS_TMP/.herr"
FIRST=$(cat "$R/container-gateway.pid")
hook "{\"cwd\":\"$P/src\"}" start "${FLAGS[@]}"
check "start again: exit 0, still the same gateway" [ "$HRC" = 0 -a "$(cat "$R/container-gateway.pid")" = "$FIRST" ]
hook "{\"session_id\":\"s1\",\"cwd\":\"$P/src/deep\",\"hook_event_name\":\"SessionEnd\"}" stop
check "stop: exit 0" [ "$HRC" = 0 ]
check "stop: gateway stopped" bash -c "! '$GW' status --project '$P' >/dev/null"

# ---- the sockets handed to the agent ------------------------------------------------------------
ops_git_project envf
EF=$OPS_TMP/session-env/sessionstart-hook-0.sh; mkdir -p "${EF%/*}"
CLAUDE_ENV_FILE=$EF hook "{\"session_id\":\"e1\",\"cwd\":\"$P\"}" start "${FLAGS[@]}"
check "CLAUDE_ENV_FILE: the export lines written" [ "$(cat "$EF" 2>/dev/null)" = "export DOCKER_HOST=unix://$R/docker.sock
export CONTAINER_HOST=unix://$R/podman.sock" ]
check "CLAUDE_ENV_FILE: created 0600" [ "$(stat -c %a "$EF")" = 600 ]
check "CLAUDE_ENV_FILE: sourced, it sets DOCKER_HOST" [ "$(env -i bash -c ". '$EF'; echo \$DOCKER_HOST")" = "unix://$R/docker.sock" ]
CLAUDE_ENV_FILE=$EF hook "{\"session_id\":\"e1\",\"cwd\":\"$P\",\"source\":\"resume\"}" start "${FLAGS[@]}"
check "CLAUDE_ENV_FILE: a resumed session adds no second copy" [ "$(wc -l < "$EF")" = 2 ]
ln -s "$OPS_TMP/elsewhere" "$OPS_TMP/envlink"
CLAUDE_ENV_FILE=$OPS_TMP/envlink hook "{\"session_id\":\"e1\",\"cwd\":\"$P\"}" start "${FLAGS[@]}"
check "CLAUDE_ENV_FILE: a symlink is not followed" [ ! -e "$OPS_TMP/elsewhere" ] && grep -q "ignoring CLAUDE_ENV_FILE=$OPS_TMP/envlink: not a regular file" "$OPS_TMP/.herr"
hook "{\"session_id\":\"e1\",\"cwd\":\"$P\"}" start "${FLAGS[@]}" --no-export
check "--no-export: stdout empty" [ "$HRC" = 0 -a -z "$HOUT" ]
hook "{\"cwd\":\"$P\"}" env
check "env: the export lines, exit 0" [ "$HRC" = 0 -a "$HOUT" = "export DOCKER_HOST=unix://$R/docker.sock
export CONTAINER_HOST=unix://$R/podman.sock" ]
hook "{\"cwd\":\"$P\"}" settings
check "settings: the env object of a settings file" python3 -c '
import json, sys
d = json.loads(sys.argv[1]); r = sys.argv[2]
assert d == {"env": {"DOCKER_HOST": "unix://" + r + "/docker.sock", "CONTAINER_HOST": "unix://" + r + "/podman.sock"}}, d' "$HOUT" "$R"
hook "{\"session_id\":\"e1\",\"cwd\":\"$P\"}" stop
hook "{\"cwd\":\"$P\"}" env
check "env: not running, exit 1 and nothing on stdout" [ "$HRC" = 1 -a -z "$HOUT" ]

# ---- sessions: the gateway stops with the last live one ------------------------------------------
# a harness: a process (not a shell) that runs the hook and lives until NAME.end exists
harness() {  # NAME PAYLOAD ARGS...
  local name=$1 payload=$2; shift 2
  ops_bg python3 "$OPS_REPO/tests/helpers/hook_harness.py" "$OPS_TMP/$name" "$payload" env PATH="$BASEPATH" "$HOOK" "$@"
  HPID=$OPS_BG_PID
  ops_wait_for "[ -e '$OPS_TMP/$name.done' ]" 60
}
ops_git_project sess
harness h1 "{\"session_id\":\"s-1\",\"cwd\":\"$P\"}" start "${FLAGS[@]}"; H1=$HPID
harness h2 "{\"session_id\":\"s-2\",\"cwd\":\"$P\"}" start "${FLAGS[@]}"; H2=$HPID
check "sessions: both registered, with their harness's pid" [ "$(cut -d' ' -f1 "$R/sessions/s-1")" = "$H1" -a "$(cut -d' ' -f1 "$R/sessions/s-2")" = "$H2" ]
check "sessions: one gateway" grep -q "already running" "$OPS_TMP/h2.err"
hook "{\"session_id\":\"s-1\",\"cwd\":\"$P\",\"hook_event_name\":\"SessionEnd\"}" stop
check "sessions: the first stop leaves the gateway to the other" running "$P"
check "sessions: ... and says so" grep -q "container-gateway: 1 other session still uses the gateway of $P; not stopping it" "$OPS_TMP/.herr"
check "sessions: its file is gone" test ! -e "$R/sessions/s-1" -a -e "$R/sessions/s-2"
# a harness that crashes without its stop no longer counts
harness h3 "{\"session_id\":\"s-3\",\"cwd\":\"$P\"}" start "${FLAGS[@]}"; H3=$HPID
kill -9 "$H3"; ops_wait_for "! kill -0 $H3 2>/dev/null" 5
hook "{\"session_id\":\"s-2\",\"cwd\":\"$P\"}" stop
check "sessions: the last live session's stop stops it (a crashed one does not count)" bash -c "! '$GW' status --project '$P' >/dev/null"
check "sessions: the crashed session's file is removed" test ! -e "$R/sessions/s-3"
touch "$OPS_TMP/h1.end" "$OPS_TMP/h2.end"
# without a session id (another harness, or by hand) stop stops, whatever is registered
harness h4 "{\"session_id\":\"s-4\",\"cwd\":\"$P\"}" start "${FLAGS[@]}"
hook "{\"cwd\":\"$P\"}" stop
check "sessions: stop without a session id stops the gateway" bash -c "! '$GW' status --project '$P' >/dev/null"
touch "$OPS_TMP/h4.end"
hook "{\"session_id\":\"../x\",\"cwd\":\"$P\"}" start "${FLAGS[@]}"
check "sessions: an unusable session id is not passed on" [ ! -e "$P/.git/apache-magpie/run/x" ] && ! ls "$R/sessions" 2>/dev/null | grep -q x
hook "{\"cwd\":\"$P\"}" stop

# ---- adopted project, not git -----------------------------------------------------------------
A=$OPS_TMP/adopted; mkdir -p "$A/sub"; : > "$A/.apache-magpie.lock"
hook "{\"cwd\":\"$A/sub\"}" start "${FLAGS[@]}"
check "adopted: gateway for the directory with .apache-magpie.lock" test -S "$A/.apache-magpie-local/run/podman.sock"
hook "{\"cwd\":\"$A/sub\"}" stop
check "adopted: stopped" test ! -e "$A/.apache-magpie-local/run/podman.sock"

# ---- neither: cwd itself (serve refuses without --run-dir; the hook still exits 0) --------------
N=$OPS_TMP/plain; mkdir -p "$N"
hook "{\"cwd\":\"$N\"}" start "${FLAGS[@]}"
check "plain dir: hook exits 0 although serve refused" [ "$HRC" = 0 ]
check "plain dir: the refusal is on stderr" grep -q "has not adopted Magpie and is not a git repository" "$OPS_TMP/.herr"
hook "{\"cwd\":\"$N\"}" start "${FLAGS[@]}" --run-dir "$OPS_TMP/plainrun"
check "plain dir: --run-dir passed through" test -S "$OPS_TMP/plainrun/podman.sock"
hook "{\"cwd\":\"$N\"}" stop --run-dir "$OPS_TMP/plainrun"
check "plain dir: stop with --run-dir" test ! -e "$OPS_TMP/plainrun/podman.sock"

# ---- never run code from the project --------------------------------------------------------------
ops_git_project evil; mkdir -p "$P/bin"
printf '#!/bin/sh\ntouch %s\n' "$MARK" > "$P/bin/container-gateway"; chmod +x "$P/bin/container-gateway"
printf 'import os\nopen("%s", "w")\n' "$MARK" > "$P/json.py"
cp "$P/json.py" "$P/os.py"
git -C "$P" config core.fsmonitor "touch $MARK"
git -C "$P" config core.hooksPath "$P/bin"
HPATH=$P/bin:.:bin:$BASEPATH hook "{\"cwd\":\"$P\"}" start "${FLAGS[@]}"
check "project-local binary on PATH not run" test ! -e "$MARK"
check "the real gateway was used instead" running "$P"
HPATH=$P/bin hook "{\"cwd\":\"$P\"}" stop
check "only a project-local binary on PATH: nothing run, exit 0" test "$HRC" = 0 -a ! -e "$MARK"
CONTAINER_GATEWAY_BIN=$P/bin/container-gateway hook "{\"cwd\":\"$P\"}" stop
check "CONTAINER_GATEWAY_BIN inside the project refused" test ! -e "$MARK"
check "CONTAINER_GATEWAY_BIN inside the project: gateway not stopped" running "$P"
CONTAINER_GATEWAY_BIN=bin/container-gateway HPATH=/usr/bin:/bin hook "{\"cwd\":\"$P\"}" stop
check "relative CONTAINER_GATEWAY_BIN ignored" test ! -e "$MARK" -a "$HRC" = 0
CONTAINER_GATEWAY_BIN=$GW HPATH=/usr/bin:/bin hook "{\"cwd\":\"$P\"}" stop
check "absolute CONTAINER_GATEWAY_BIN used" bash -c "! '$GW' status --project '$P' >/dev/null"
(cd "$P" && HPATH=$BASEPATH hook '{}' start "${FLAGS[@]}")
check "no cwd in the payload: the current directory" running "$P"
(cd "$P" && hook '{}' stop)
check "payload ran no project python module or git hook" test ! -e "$MARK"

# ---- hostile payloads and arguments ------------------------------------------------------------------
hook "{\"cwd\":\"\$(touch $MARK)\"}" start "${FLAGS[@]}"
check "command substitution in cwd is not evaluated" test ! -e "$MARK" -a "$HRC" = 0
hook "{\"cwd\":\"$OPS_TMP/\`touch $MARK\`\"}" start "${FLAGS[@]}"
check "backquotes in cwd are not evaluated" test ! -e "$MARK" -a "$HRC" = 0
hook 'not json at all' start "${FLAGS[@]}"; check "invalid JSON: exit 0" [ "$HRC" = 0 -a -z "$HOUT" ]
hook '["a"]' stop; check "JSON array payload: exit 0" [ "$HRC" = 0 ]
hook '{"cwd": 42}' stop; check "non-string cwd: exit 0" [ "$HRC" = 0 ]
hook "{\"cwd\":\"$OPS_TMP/missing\"}" start; check "missing cwd dir: exit 0" [ "$HRC" = 0 ]
hook '{}' bogus; check "unknown action: exit 0 with a usage line" [ "$HRC" = 0 ] && grep -q usage "$OPS_TMP/.herr"
ops_git_project flags
hook "{\"cwd\":\"$P\"}" start "${FLAGS[@]}" --project /etc --daemon=no --log-level=-x --idle-timeout 600 stray
check "whitelist: --project ignored" grep -q "ignoring flag --project" "$OPS_TMP/.herr"
check "whitelist: --daemon ignored" grep -q "ignoring flag --daemon" "$OPS_TMP/.herr"
check "whitelist: unsafe value ignored" grep -q "ignoring --log-level: unsafe value" "$OPS_TMP/.herr"
check "whitelist: stray argument ignored" grep -q "ignoring unexpected argument 'stray'" "$OPS_TMP/.herr"
check "whitelist: allowed flags still passed" bash -c "grep -q -- '--idle-timeout=600' /proc/\$(cat '$R/container-gateway.pid')/cmdline"
check "gateway runs for the payload's project, not /etc" running "$P"
hook "{\"cwd\":\"$P\"}" stop --backend docker
check "stop: serve-only flags are not passed to stop" grep -q "ignoring flag --backend (not allowed for stop)" "$OPS_TMP/.herr"
check "stop: still stopped" bash -c "! '$GW' status --project '$P' >/dev/null"

# ---- a harness that exports DOCKER_HOST at another gateway (u_chain) ---------------------------
FAKEGW=$OPS_TMP/fakegw.sock
ops_fake_backend "$FAKEGW" gateway
ops_git_project chain
DOCKER_HOST=unix://$FAKEGW hook "{\"cwd\":\"$P\"}" start --podman-socket "$FAKE" --egress off
check "DOCKER_HOST at another gateway: the hook still starts one" running "$P"
check "DOCKER_HOST at another gateway: docker.sock is served by podman, not the other gateway" \
  grep -qF "docker clients -> $R/docker.sock (backend podman at $FAKE)" "$R/container-gateway.log"
check "DOCKER_HOST at another gateway: the hook repeats the gateway's WARNING" grep -qF \
  "container-gateway-hook: gateway: WARNING: skipping $FAKEGW (from DOCKER_HOST): it is another container-gateway" "$OPS_TMP/.herr"
hook "{\"cwd\":\"$P\"}" stop

ops_summary
