#!/bin/bash
# tests/ops/rundir.sh — run directory resolution and checks (cli.md §4, §5):
# adopted projects, git checkouts, linked worktrees, custom --run-dir; symlinked,
# foreign-owned, group-writable and non-directory components refused with the
# exact messages by serve, stop and status; the 103-byte socket path limit with
# nothing created; stop/status create nothing. Needs root (chown). Last line:
# "N passed, M failed".
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then echo "SKIP rundir: needs root (chown)"; exit 77; fi

FAKE=$OPS_TMP/fake.sock
ops_fake_backend "$FAKE"
SERVE=(--backend podman --podman-socket "$FAKE" --egress off)
NOTRUN='{"running": false, "pid": null, "sockets": {"podman": null, "docker": null}, "serving": [], "sandbox": null}'
GITC=(git -c user.name=t -c user.email=t@t -c init.defaultBranch=main)

# refused NAME MESSAGE SETUP-DIR-ARGS... : serve, stop and status all refuse with MESSAGE
refused_by_all() {
  local n=$1 msg=$2; shift 2
  expect "$n: serve" 2 "" "container-gateway: $msg" "$GW" serve "$@" "${SERVE[@]}"
  expect "$n: stop" 2 "" "container-gateway: $msg" "$GW" stop "$@"
  expect "$n: status" 2 "" "container-gateway: $msg" "$GW" status "$@"
}

# ---- component checks (git main checkout) -------------------------------------
ops_git_project sym; mkdir "$OPS_TMP/elsewhere"; ln -s "$OPS_TMP/elsewhere" "$P/.git/apache-magpie"
refused_by_all "symlinked component" \
  "run directory component ($P/.git/apache-magpie) is a symlink; refusing" --project "$P"

ops_git_project symrd; mkdir -p "$P/.git/apache-magpie/run"; ln -s "$OPS_TMP/elsewhere" "$R"
refused_by_all "symlinked run directory" "run directory ($R) is a symlink; refusing" --project "$P"

ops_git_project foreign; mkdir -p "$P/.git/apache-magpie"; chown 65534:65534 "$P/.git/apache-magpie"
refused_by_all "foreign-owned component" \
  "run directory component ($P/.git/apache-magpie) is not owned by the current user; refusing" --project "$P"

ops_git_project foreignrd; mkdir -p "$R"; chown 65534 "$R"
refused_by_all "foreign-owned run directory" \
  "run directory ($R) is not owned by the current user; refusing" --project "$P"

ops_git_project gw; mkdir -p "$P/.git/apache-magpie/run"; chmod 0775 "$P/.git/apache-magpie/run"
refused_by_all "group-writable component" \
  "run directory component ($P/.git/apache-magpie/run) is group- or world-writable; refusing" --project "$P"

ops_git_project ww; mkdir -p "$R"; chmod 0703 "$R"
refused_by_all "world-writable run directory" \
  "run directory ($R) is group- or world-writable; refusing" --project "$P"

ops_git_project dotgit; chmod 0770 "$P/.git"
refused_by_all "group-writable .git" \
  "run directory component ($P/.git) is group- or world-writable; refusing" --project "$P"

ops_git_project notdir; mkdir -p "$P/.git/apache-magpie"; : > "$P/.git/apache-magpie/run"
refused_by_all "file as component" \
  "run directory component ($P/.git/apache-magpie/run) is not a directory; refusing" --project "$P"

# ---- socket path length (§5.4): refused before anything is created -------------
LONG=$OPS_TMP/$(printf 'l%.0s' $(seq 1 60))
mkdir -p "$LONG"; git init -q "$LONG"
LR=$LONG/.git/apache-magpie/run/main
expect "too-long socket path refused" 2 "" \
  "container-gateway: socket path too long ($(( ${#LR} + 12 )) bytes > 103: $LR/podman.sock); pass a shorter --run-dir" \
  "$GW" serve --project "$LONG" "${SERVE[@]}"
check "too-long socket path: nothing created" test ! -e "$LONG/.git/apache-magpie"
CR=$OPS_TMP/$(printf 'r%.0s' $(seq 1 90))
ops_git_project lenrd
expect "too-long --run-dir refused" 2 "" \
  "container-gateway: socket path too long ($(( ${#CR} + 12 )) bytes > 103: $CR/podman.sock); pass a shorter --run-dir" \
  "$GW" serve --project "$P" --run-dir "$CR" "${SERVE[@]}"
check "too-long --run-dir: nothing created" test ! -e "$CR"
# exactly 103 bytes is fine: run dir of 91 bytes
B91=$OPS_TMP/$(printf 'x%.0s' $(seq 1 $(( 91 - ${#OPS_TMP} - 1 ))))
run "$GW" serve --project "$P" --run-dir "$B91" "${SERVE[@]}" --daemon
check "103-byte socket path accepted" test "$RC" = 0 -a -S "$B91/podman.sock"
"$GW" stop --project "$P" --run-dir "$B91" >/dev/null 2>&1

# ---- stop/status of a never-served project create nothing -----------------------
ops_git_project never
expect "stop: never served" 0 "container-gateway: no run directory at $R: nothing to stop" "" "$GW" stop --project "$P"
expect "status: never served" 3 "$NOTRUN" "" "$GW" status --project "$P"
check "stop/status created nothing" test ! -e "$P/.git/apache-magpie"
mkdir -p "$P/.git/apache-magpie"
expect "stop: run dir partly there" 0 "container-gateway: no run directory at $R: nothing to stop" "" "$GW" stop --project "$P"
check "stop created no component" test ! -e "$P/.git/apache-magpie/run"

expect "stop: no project root" 0 "container-gateway: no project root at $OPS_TMP/nope: nothing to stop" "" \
  "$GW" stop --project "$OPS_TMP/nope"
expect "status: no project root" 3 "$NOTRUN" "" "$GW" status --project "$OPS_TMP/nope"
expect "serve: no project root" 2 "" "container-gateway: project root ($OPS_TMP/nope) does not exist" \
  "$GW" serve --project "$OPS_TMP/nope" "${SERVE[@]}"

# ---- neither adopted nor git -----------------------------------------------------
P=$OPS_TMP/plain; mkdir "$P"
expect "serve: not adopted, not git" 2 "" \
  "container-gateway: $P has not adopted Magpie and is not a git repository; pass --run-dir" \
  "$GW" serve --project "$P" "${SERVE[@]}"
expect "stop: not adopted, not git" 0 "container-gateway: no run directory at $P/.apache-magpie-local/run: nothing to stop" "" \
  "$GW" stop --project "$P"
expect "status: not adopted, not git" 3 "$NOTRUN" "" "$GW" status --project "$P"
check "plain project: nothing created" test ! -e "$P/.apache-magpie-local"

# ---- adopted project -------------------------------------------------------------
P=$OPS_TMP/adopted; mkdir "$P"; : > "$P/.apache-magpie.lock"
run "$GW" serve --project "$P" "${SERVE[@]}" --daemon
AR=$P/.apache-magpie-local/run
check "adopted: serve --daemon" [ "$RC" = 0 ]
expect_status "adopted: status" "{\"running\": true, \"pid\": $(cat "$AR/container-gateway.pid" 2>/dev/null), \"sockets\": {\"podman\": \"$AR/podman.sock\", \"docker\": \"$AR/docker.sock\"}, \"serving\": [\"podman\", \"docker\"], \"sandbox\": \"full\"}" \
  "$GW" status --project "$P"
check "adopted: run dir 0700" [ "$(stat -c %a "$AR")" = 700 -a "$(stat -c %a "$P/.apache-magpie-local")" = 700 ]
check "adopted: sockets and pid file 0600" [ "$(stat -c %a "$AR/podman.sock" "$AR/docker.sock" "$AR/container-gateway.pid" | sort -u)" = 600 ]
expect "adopted: stop" 0 "" "" "$GW" stop --project "$P"
check "adopted: sockets and pid file removed" test ! -e "$AR/podman.sock" -a ! -e "$AR/docker.sock" -a ! -e "$AR/container-gateway.pid"

# ---- linked worktree ---------------------------------------------------------------
ops_git_project repo; MAIN=$P
"${GITC[@]}" -C "$MAIN" commit -q --allow-empty -m init
"${GITC[@]}" -C "$MAIN" worktree add -q "$OPS_TMP/wt1" 2>/dev/null
# a linked worktree's run directory: $XDG_RUNTIME_DIR/container-gateway/<name>-<FNV-1a 64 of
# ROOT>, outside every checkout (the main checkout's containers may bind its .git)
fnv() { python3 -c 'import sys
h = 14695981039346656037
for b in sys.argv[1].encode(): h = ((h ^ b) * 1099511628211) % 2**64
print("%016x" % h)' "$1"; }
WR=$XDG_RUNTIME_DIR/container-gateway/wt1-$(fnv "$OPS_TMP/wt1")
run "$GW" serve --project "$OPS_TMP/wt1" "${SERVE[@]}" --daemon
check "worktree: serve --daemon" [ "$RC" = 0 ]
check "worktree: run dir is \$XDG_RUNTIME_DIR/container-gateway/<name>-<hash>" test -S "$WR/docker.sock"
check "worktree: nothing in the main checkout's .git" test ! -e "$MAIN/.git/apache-magpie"
check "worktree: run dir and its parent 0700" [ "$(stat -c %a "$WR" "$XDG_RUNTIME_DIR/container-gateway" | sort -u)" = 700 ]
run "$GW" status --project "$OPS_TMP/wt1"
check "worktree: status running" [ "$RC" = 0 ]
case $OUT in *"\"podman\": \"$WR/podman.sock\""*) pass "worktree: status names its sockets";; *) fail "worktree: status names its sockets" "$OUT";; esac
expect "worktree: main checkout not running" 3 "$NOTRUN" "" "$GW" status --project "$MAIN"
expect "worktree: stop" 0 "" "" "$GW" stop --project "$OPS_TMP/wt1"

"${GITC[@]}" -C "$MAIN" worktree add -q "$OPS_TMP/wt2" 2>/dev/null
echo "$OPS_TMP/other/.git" > "$MAIN/.git/worktrees/wt2/gitdir"
refused_by_all "worktree: gitdir does not point back" \
  "worktree git directory ($MAIN/.git/worktrees/wt2) does not point back to $OPS_TMP/wt2/.git; refusing (pass --run-dir)" \
  --project "$OPS_TMP/wt2"
echo "$OPS_TMP/wt2/.git" > "$MAIN/.git/worktrees/wt2/gitdir"

# a forged layout: gitdir outside <common>/worktrees
mkdir -p "$OPS_TMP/forge/wt" "$OPS_TMP/wt3"
echo "$MAIN/.git" > "$OPS_TMP/forge/wt/commondir"
echo "$OPS_TMP/wt3/.git" > "$OPS_TMP/forge/wt/gitdir"
echo "gitdir: $OPS_TMP/forge/wt" > "$OPS_TMP/wt3/.git"
refused_by_all "worktree: gitdir not below <common>/worktrees" \
  "worktree git directory ($OPS_TMP/forge/wt) is not $MAIN/.git/worktrees/wt; refusing (pass --run-dir)" \
  --project "$OPS_TMP/wt3"

# a bad worktree name
mkdir -p "$MAIN/.git/worktrees/bad name" "$OPS_TMP/wt4"
echo "../.." > "$MAIN/.git/worktrees/bad name/commondir"
echo "$OPS_TMP/wt4/.git" > "$MAIN/.git/worktrees/bad name/gitdir"
echo "gitdir: $MAIN/.git/worktrees/bad name" > "$OPS_TMP/wt4/.git"
expect "worktree: bad name refused" 2 "" \
  "container-gateway: worktree git directory name 'bad name' is not [A-Za-z0-9._-]+; refusing — pass --run-dir" \
  "$GW" serve --project "$OPS_TMP/wt4" "${SERVE[@]}"

# common dir checks
chmod 0775 "$MAIN/.git"
refused_by_all "worktree: group-writable common dir" \
  "git common directory ($MAIN/.git) is group- or world-writable; refusing (pass --run-dir)" --project "$OPS_TMP/wt2"
chmod 0755 "$MAIN/.git"; chown 65534 "$MAIN/.git"
refused_by_all "worktree: foreign-owned common dir" \
  "git common directory ($MAIN/.git) is not owned by the current user; refusing (pass --run-dir)" --project "$OPS_TMP/wt2"
chown 0 "$MAIN/.git"
mv "$MAIN/.git/objects" "$MAIN/.git/objects.x"
refused_by_all "worktree: common dir without objects" \
  "git common directory ($MAIN/.git) has no HEAD file or objects directory; refusing (pass --run-dir)" --project "$OPS_TMP/wt2"
mv "$MAIN/.git/objects.x" "$MAIN/.git/objects"
# a relative gitdir: line is resolved against ROOT
"${GITC[@]}" -C "$MAIN" worktree add -q "$OPS_TMP/wt5" 2>/dev/null
echo "gitdir: ../repo/.git/worktrees/wt5" > "$OPS_TMP/wt5/.git"
run "$GW" serve --project "$OPS_TMP/wt5" "${SERVE[@]}" --daemon
check "worktree: relative gitdir line" [ "$RC" = 0 -a -S "$XDG_RUNTIME_DIR/container-gateway/wt5-$(fnv "$OPS_TMP/wt5")/podman.sock" ]
"$GW" stop --project "$OPS_TMP/wt5" >/dev/null
# the runtime directory must be set, absolute, the user's and closed to others
expect "worktree: XDG_RUNTIME_DIR relative" 2 "" \
  "container-gateway: a linked worktree's run directory goes below XDG_RUNTIME_DIR, which is not an absolute path (a login session sets it to /run/user/<uid>); refusing (pass --run-dir)" \
  env XDG_RUNTIME_DIR=run/user "$GW" serve --project "$OPS_TMP/wt5" "${SERVE[@]}"
mkdir -p "$OPS_TMP/xdg-open"; chmod 0777 "$OPS_TMP/xdg-open"
expect "worktree: XDG_RUNTIME_DIR world-writable" 2 "" \
  "container-gateway: runtime directory ($OPS_TMP/xdg-open) is not a directory owned by the current user and closed to others; refusing (pass --run-dir)" \
  env XDG_RUNTIME_DIR="$OPS_TMP/xdg-open" "$GW" serve --project "$OPS_TMP/wt5" "${SERVE[@]}"
expect "worktree: status with XDG_RUNTIME_DIR world-writable: not running" 3 "$NOTRUN" "" \
  env XDG_RUNTIME_DIR="$OPS_TMP/xdg-open" "$GW" status --project "$OPS_TMP/wt5"
check "worktree: nothing created below a refused runtime directory" test ! -e "$OPS_TMP/xdg-open/container-gateway"

# ---- custom --run-dir ------------------------------------------------------------------
ops_git_project custom
expect "custom run dir: missing parent" 2 "" \
  "container-gateway: the run directory's parent ($OPS_TMP/no/such) does not exist" \
  "$GW" serve --project "$P" --run-dir "$OPS_TMP/no/such/run" "${SERVE[@]}"
check "custom run dir: parent not created" test ! -e "$OPS_TMP/no"
expect "custom run dir: stop with missing parent" 0 \
  "container-gateway: no run directory at $OPS_TMP/no/such/run: nothing to stop" "" \
  "$GW" stop --project "$P" --run-dir "$OPS_TMP/no/such/run"
mkdir -p "$OPS_TMP/cr"; ln -s "$OPS_TMP/cr" "$OPS_TMP/crlink"
run "$GW" serve --project "$P" --run-dir "$OPS_TMP/crlink/run" "${SERVE[@]}" --daemon
check "custom run dir: symlinked parent followed" [ "$RC" = 0 -a -S "$OPS_TMP/cr/run/podman.sock" ]
check "custom run dir: default run dir untouched" test ! -e "$P/.git/apache-magpie"
expect "custom run dir: stop" 0 "" "" "$GW" stop --project "$P" --run-dir "$OPS_TMP/crlink/run"
ln -s "$OPS_TMP/cr" "$OPS_TMP/crrun"
refused_by_all "custom run dir: symlink refused" "run directory ($OPS_TMP/crrun) is a symlink; refusing" \
  --project "$P" --run-dir "$OPS_TMP/crrun"

ops_summary
