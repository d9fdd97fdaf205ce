#!/bin/bash
# tests/ops/cli.sh — command line, environment and logging (cli.md §1-§3, §13-§15):
# usage errors are one stderr line and exit 2 without touching the filesystem; the
# environment rules of §2.3; text and JSON log lines with the start-up events and
# their fields. Last line: "N passed, M failed".
. "$(dirname "$0")/lib.sh"

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
SERVE=(--backend podman --podman-socket "$FAKE" --egress off)
U="container-gateway: usage: "

usage() {  # NAME DETAIL CMD-ARGS... : exit 2, exactly one stderr line "usage: DETAIL"
  local n=$1 d=$2; shift 2
  expect "usage: $n" 2 "" "$U$d" "$@"
}
usage_prefix() {  # NAME PREFIX CMD... : exit 2, one line starting with "usage: PREFIX"
  local n=$1 d=$2; shift 2
  run "$@"
  if [ "$RC" = 2 ] && [ -z "$OUT" ] && [ "$(printf '%s\n' "$ERR" | wc -l)" = 1 ] && [[ $ERR == "$U$d"* ]]; then pass "usage: $n"
  else fail "usage: $n" "exit $RC, stderr '$ERR'"; fi
}

# ---- §1 synopsis, §13 version -------------------------------------------------------
usage "no subcommand" "missing subcommand (serve, stop, status, version)" "$GW"
usage "flag without subcommand" "missing subcommand (serve, stop, status, version)" "$GW" --project /x
usage "unknown subcommand" 'unknown subcommand "foo"' "$GW" foo
usage "unknown flag" "unknown flag --foo" "$GW" serve --foo
usage "unknown flag with value" "unknown flag --foo" "$GW" status --foo=1
usage "missing value" "--egress-port needs a value" "$GW" serve --egress-port
usage "bad integer" 'invalid value "abc" for --egress-port (expected an integer 1-65535)' "$GW" serve --egress-port abc
usage_prefix "port 0" 'invalid value "0" for --egress-port' "$GW" serve --egress-port 0
usage_prefix "port 65536" 'invalid value "65536" for --egress-port' "$GW" serve --egress-port=65536
usage "serve flag on stop" "--backend is not valid for stop" "$GW" stop --backend podman
usage_prefix "serve flag on status" "--daemon is not valid for status" "$GW" status --daemon
usage "positional argument" 'unexpected argument "x"' "$GW" serve x
usage_prefix "boolean with a value" "--daemon" "$GW" serve --daemon=x
usage_prefix "version takes no flags" 'unexpected argument' "$GW" version --project /
usage_prefix "bad log level" 'invalid value "loud" for --log-level' "$GW" serve --log-level loud
usage_prefix "bad log format" 'invalid value "xml" for --log-format' "$GW" serve --log-format xml
usage_prefix "bad egress" 'invalid value "maybe" for --egress' "$GW" serve --egress maybe
usage_prefix "bad backend" 'invalid value "lxc" for --backend' "$GW" serve --backend lxc
usage_prefix "bad idle timeout" 'invalid value "-1" for --idle-timeout' "$GW" serve --idle-timeout -1
usage_prefix "idle timeout 1." 'invalid value "1." for --idle-timeout' "$GW" serve --idle-timeout 1.
usage_prefix "backend timeout 0" 'invalid value "0" for --backend-timeout' "$GW" serve --backend-timeout 0
usage_prefix "max connections 0" 'invalid value "0" for --max-connections' "$GW" serve --max-connections 0
usage_prefix "bad egress host" 'invalid value "-x" for --egress-host' "$GW" serve --egress-host -x
usage_prefix "relative podman socket" 'invalid value "rel.sock" for --podman-socket' "$GW" serve --podman-socket rel.sock
usage_prefix "--podman-socket without podman" "--podman-socket" "$GW" serve --backend docker --podman-socket /x.sock
usage_prefix "--docker-socket without docker" "--docker-socket" "$GW" serve --backend podman --docker-socket /x.sock
ops_git_project untouched
run "$GW" serve --project "$P" --log-level nope
check "usage error touches nothing" test "$RC" = 2 -a ! -e "$P/.git/apache-magpie"
expect "version" 0 "container-gateway 0.1.0" "" "$GW" version
expect "--version" 0 "container-gateway 0.1.0" "" "$GW" --version
for h in help --help -h; do
  run "$GW" $h
  check "$h: usage on stdout, exit 0" [ "$RC" = 0 -a -n "$OUT" -a -z "$ERR" ]
done
# each subcommand's own usage (cli.md): never "unknown flag --help"
for h in "serve --help" "help serve" "serve -h" "serve --project /x --help"; do
  run "$GW" $h
  check "$h: serve's usage on stdout, exit 0" [ "$RC" = 0 -a -z "$ERR" ]
  check "$h: it lists the serve flags" bash -c "grep -q '^usage: container-gateway serve ' '$OPS_TMP/.out' && grep -q -- '--extra-bind-root PATH' '$OPS_TMP/.out'"
done
for sub in stop status version; do
  run "$GW" help $sub
  check "help $sub: its usage, exit 0" [ "$RC" = 0 -a -z "$ERR" ] && [[ $OUT == "usage: container-gateway $sub"* ]]
done
usage "help of an unknown subcommand" 'unknown subcommand "bogus"' "$GW" help bogus

# ---- §2.1 as amended: --project defaults to the git toplevel holding the cwd ------------
ops_git_project sub; mkdir -p "$P/src/deep"
run bash -c "cd '$P/src/deep' && '$GW' serve --daemon --backend podman --podman-socket '$FAKE' --egress off"
check "serve from a subdirectory: exit 0" [ "$RC" = 0 ]
check "serve from a subdirectory: the sockets of the toplevel's run directory" test -S "$R/docker.sock"
run bash -c "cd '$P/src/deep' && '$GW' status"
check "status from a subdirectory: running, the toplevel's sockets" [ "$RC" = 0 ] && [[ $OUT == *"\"docker\": \"$R/docker.sock\""* ]]
run bash -c "cd '$P/src' && '$GW' stop"
check "stop from a subdirectory: stops it" [ "$RC" = 0 -a ! -e "$R/docker.sock" -a ! -e "$R/container-gateway.pid" ]
run bash -c "cd '$P/src/deep' && '$GW' status"
check "status from a subdirectory: not running any more" [ "$RC" = 3 ]

# ---- §2.3 environment ---------------------------------------------------------------------
usage_prefix "bad env value names the variable" \
  'invalid value "x" for CONTAINER_GATEWAY_EGRESS_PORT (' env CONTAINER_GATEWAY_EGRESS_PORT=x "$GW" serve
usage_prefix "bad env log level" 'invalid value "x" for CONTAINER_GATEWAY_LOG_LEVEL' env CONTAINER_GATEWAY_LOG_LEVEL=x "$GW" serve
usage_prefix "bad env daemon" 'invalid value "maybe" for CONTAINER_GATEWAY_DAEMON' env CONTAINER_GATEWAY_DAEMON=maybe "$GW" serve
ops_git_project envp
NOTRUN='{"running": false, "pid": null, "sockets": {"podman": null, "docker": null}, "serving": [], "sandbox": null}'
expect "serve-only variables are ignored by status" 3 "$NOTRUN" "" \
  env CONTAINER_GATEWAY_EGRESS_PORT=x CONTAINER_GATEWAY_DAEMON=maybe "$GW" status --project "$P"
expect "serve-only variables are ignored by stop" 0 "container-gateway: no run directory at $R: nothing to stop" "" \
  env CONTAINER_GATEWAY_BACKEND=lxc "$GW" stop --project "$P"
run env CONTAINER_GATEWAY_EGRESS_PORT= CONTAINER_GATEWAY_LOG_LEVEL= "$GW" serve --project "$OPS_TMP/nope"
check "empty variables count as unset" [ "$RC" = 2 -a "$ERR" = "container-gateway: project root ($OPS_TMP/nope) does not exist" ]
run env CONTAINER_GATEWAY_EGRESS_PORT=x "$GW" serve --egress-port 1 --project "$OPS_TMP/nope"
check "the flag wins over the environment" [ "$RC" = 2 -a "$ERR" = "container-gateway: project root ($OPS_TMP/nope) does not exist" ]
run env CONTAINER_GATEWAY_BACKEND=docker "$GW" serve --backend podman --podman-socket /x.sock --project "$OPS_TMP/nope"
check "a repeatable flag replaces the environment list" [ "$RC" = 2 -a "$ERR" = "container-gateway: project root ($OPS_TMP/nope) does not exist" ]
usage_prefix "environment backend list applies" "--podman-socket" env CONTAINER_GATEWAY_BACKEND=docker "$GW" serve --podman-socket /x.sock
ops_git_project lastwins
"$GW" serve --project "$P" "${SERVE[@]}" --idle-timeout 30 --idle-timeout=0.3 2>"$OPS_TMP/last.log"
check "the last of a repeated flag wins" grep -q "idle for 0.3s; exiting" "$OPS_TMP/last.log"
run env CONTAINER_GATEWAY_LOG_LEVEL=DEBUG CONTAINER_GATEWAY_LOG_FORMAT=json "$GW" serve --log-level Warning --project "$OPS_TMP/nope"
check "log level is case-insensitive, warning is an alias" [ "$RC" = 2 ]
expect "project and run dir from the environment" 0 "container-gateway: no run directory at $OPS_TMP/envrun: nothing to stop" "" \
  env CONTAINER_GATEWAY_PROJECT="$P" CONTAINER_GATEWAY_RUN_DIR="$OPS_TMP/envrun" "$GW" stop
ops_git_project envd
run env CONTAINER_GATEWAY_DAEMON=yes CONTAINER_GATEWAY_PODMAN_SOCKET="$FAKE" CONTAINER_GATEWAY_BACKEND=podman \
  CONTAINER_GATEWAY_EGRESS=off CONTAINER_GATEWAY_PROJECT="$P" "$GW" serve
check "CONTAINER_GATEWAY_DAEMON=yes detaches" [ "$RC" = 0 -a -S "$R/podman.sock" -a -s "$R/container-gateway.log" ]
"$GW" stop --project "$P" >/dev/null

# ---- §14 logging ------------------------------------------------------------------------------
ops_git_project logs
"$GW" serve --project "$P" "${SERVE[@]}" --idle-timeout 0.5 2>"$OPS_TMP/text.log"
TS='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z'
check "text: every line is '<ts> container-gateway <LEVEL> <msg>'" \
  bash -c "[ -s '$OPS_TMP/text.log' ] && ! grep -Evq '^$TS container-gateway (ERROR|WARNING|INFO|DEBUG) .' '$OPS_TMP/text.log'"
check "text: start line" grep -qx "$TS container-gateway INFO container-gateway 0\.1\.0 serving $P \(run directory $R\)" -E "$OPS_TMP/text.log"
check "text: listen lines" grep -qE "INFO podman clients -> $R/podman.sock \(backend podman at $FAKE\)$" "$OPS_TMP/text.log"
check "text: sandbox line" grep -qE "INFO request parser sandbox: seccomp=on no_new_privs=on capabilities=none namespaces=(on|off) chroot=(on|off)$" "$OPS_TMP/text.log"
check "text: idle exit keeps the value as given" grep -qE "INFO idle for 0\.5s; exiting$" "$OPS_TMP/text.log"
"$GW" serve --project "$P" "${SERVE[@]}" --idle-timeout 0.5 --log-level warn 2>"$OPS_TMP/warn.log"
# (a backend that says it is podman 4.3.1 gets its advisories' WARNINGs)
check "--log-level warn drops INFO lines" bash -c "! grep -q ' INFO ' '$OPS_TMP/warn.log'"

"$GW" serve --project "$P" "${SERVE[@]}" --idle-timeout 1 --log-format json 2>"$OPS_TMP/json.log"
cat > "$OPS_TMP/jcheck.py" <<'PY'
import json, re, sys
path, P, R, FAKE = sys.argv[1:5]
lines = open(path, encoding="utf-8").read().splitlines()
bad = []
ev = {}
for l in lines:
    try:
        o = json.loads(l)
    except ValueError:
        bad.append("not json: " + l); continue
    keys = list(o)
    if keys[:4] != ["ts", "level", "event", "msg"]:
        bad.append("member order: " + l)
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", o["ts"]):
        bad.append("ts: " + l)
    if o["level"] not in ("error", "warning", "info", "debug"):
        bad.append("level: " + l)
    ev.setdefault(o["event"], []).append(o)
def need(event, fields):
    if event not in ev:
        bad.append("no %s event" % event); return
    for k, v in fields.items():
        if not any(k in o and (v is None or o[k] == v) for o in ev[event]):
            bad.append("%s: field %s (want %r) in %s" % (event, k, v, ev[event]))
need("start", {"version": "0.1.0", "project": P, "run_dir": R})
need("listen", {"socket_kind": "podman", "socket": R + "/podman.sock", "backend_kind": "podman", "backend_socket": FAKE})
need("listen", {"socket_kind": "docker", "socket": R + "/docker.sock"})
need("sandbox", {"namespaces": None, "chroot": None})
need("idle-exit", {"seconds": 1})
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
check "json: one object per line, ts level event msg first" python3 "$OPS_TMP/jcheck.py" "$OPS_TMP/json.log" "$P" "$R" "$FAKE"

# egress probe lines (§15)
python3 - "$OPS_TMP/port" <<'PY' 2>/dev/null &
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
open(sys.argv[1], "w").write(str(s.getsockname()[1])); time.sleep(60)
PY
OPS_PIDS+=($!)
ops_wait_for "[ -s '$OPS_TMP/port' ]" 5; PORT=$(cat "$OPS_TMP/port")
SE=(--backend podman --podman-socket "$FAKE" --idle-timeout 0.2)
"$GW" serve --project "$P" "${SE[@]}" --egress-port "$PORT" 2>"$OPS_TMP/eg1.log"
check "egress reachable: INFO line (podman alias host.containers.internal)" \
  grep -q "INFO egress gateway reachable on 127.0.0.1:$PORT; podman containers get HTTP_PROXY=http://host.containers.internal:$PORT$" "$OPS_TMP/eg1.log"
check "egress: one line per backend, not per socket (both sockets on podman)" [ "$(grep -c ' egress gateway ' "$OPS_TMP/eg1.log")" = 1 ]
"$GW" serve --project "$P" "${SE[@]}" --egress-port "$PORT" --egress-host fd00::1 2>"$OPS_TMP/eg2.log"
check "egress reachable: IPv6 alias in brackets" grep -q "HTTP_PROXY=http://\[fd00::1\]:$PORT$" "$OPS_TMP/eg2.log"
FREE=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$GW" serve --project "$P" "${SE[@]}" --egress-port "$FREE" 2>"$OPS_TMP/eg3.log"
check "egress unreachable: WARNING (inject-if-available)" \
  grep -q "WARNING egress gateway not reachable on 127.0.0.1:$FREE; containers get no proxy (--egress inject-if-available)$" "$OPS_TMP/eg3.log"
check "egress unreachable: the WARNING once, not once per socket" [ "$(grep -c 'WARNING egress gateway' "$OPS_TMP/eg3.log")" = 1 ]
ops_fake_backend "$OPS_TMP/fake-docker.sock" docker
"$GW" serve --project "$P" --podman-socket "$FAKE" --docker-socket "$OPS_TMP/fake-docker.sock" --idle-timeout 0.2 \
  --egress-port "$FREE" 2>"$OPS_TMP/eg7.log"
check "egress: two backends, one WARNING each" [ "$(grep -c 'WARNING egress gateway' "$OPS_TMP/eg7.log")" = 2 ]
"$GW" serve --project "$P" "${SE[@]}" --egress-port "$FREE" --egress require 2>"$OPS_TMP/eg4.log"
check "egress unreachable: WARNING (require)" \
  grep -q "WARNING egress gateway unreachable; every container create and build will be refused (--egress require)$" "$OPS_TMP/eg4.log"
"$GW" serve --project "$P" "${SE[@]}" --egress-port "$PORT" --egress off 2>"$OPS_TMP/eg5.log"
check "egress off: no probe line" bash -c "! grep -q egress '$OPS_TMP/eg5.log'"
"$GW" serve --project "$P" "${SE[@]}" --egress-port "$PORT" --log-format json 2>"$OPS_TMP/eg6.log"
check "json: egress fields socket_kind mode available proxy" python3 -c '
import json, sys
port = sys.argv[2]
evs = [json.loads(l) for l in open(sys.argv[1]) if "\"egress\"" in l]
ok = any(o.get("event") == "egress" and o.get("socket_kind") in ("podman", "docker") and o.get("mode") == "inject-if-available"
         and o.get("available") is True and o.get("proxy") == "http://host.containers.internal:" + port for o in evs)
sys.exit(0 if ok else 1)' "$OPS_TMP/eg6.log" "$PORT"

ops_summary
