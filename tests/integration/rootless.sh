#!/bin/bash
# tests/integration/rootless.sh — the gateway as most developers run it: an ordinary
# user, that user's rootless podman service, the hook.
#
# As root, it makes a throwaway user (useradd: its own subordinate uid/gid ranges),
# /run/user/<uid> for its XDG_RUNTIME_DIR, and starts that user's rootless podman
# service (setpriv, no login session: cgroupfs, runc, vfs storage under the run's
# tmp dir). Then, as that user (tests/integration/rootless_user.sh, from a copy of
# the binaries and scripts the user can read):
#   * the rootless scenarios: backend identity and the cross-project prune through
#     DOCKER_HOST, --docker-socket and discovery; builds (docker build, podman
#     --remote build) whose RUN steps work without the host's network; each project's
#     own network (no container of another reached) and the egress proxy from it; the hook's
#     hand-over (CLAUDE_ENV_FILE); two sessions of one project; the degraded
#     sandbox (user namespaces refused by tests/helpers/no_userns); the discovery
#     messages; a worktree's run directory; status's warning about the backend
#     socket;
#   * the everyday CLI suite, tests/integration/cli.sh, against the rootless podman
#     (all but its two scenarios that inspect the request parsers from outside).
# Everything it started is stopped by pid (the service, and every process left with
# the user's uid: conmon, slirp4netns, podman's pause process); the user is removed
# with userdel, /run/user/<uid> and the tmp dir with rm, /dev/net/tun gets back its
# group and mode. Nothing else on the machine is changed. cgroup v1: rootless podman
# ignores resource limits there (--memory, --cpus, --pids-limit run, with podman's
# warning), so cli.sh's flows that set them test only that they are accepted.
#
#   tests/integration/rootless.sh            rootless scenarios, then cli.sh
#   tests/integration/rootless.sh r_build    only the named scenarios (no cli.sh)
#   CG_GATEWAY=/path/to/old/container-gateway tests/integration/rootless.sh
#
# Needs root, podman, newuidmap/newgidmap (uidmap), slirp4netns, setpriv, useradd;
# exit status 77 = skipped (not root, or a tool missing). Last line: "N passed, M
# failed". CG_KEEP=1 keeps the tmp dir (the user is removed all the same).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
GATEWAY=${CG_GATEWAY:-$REPO/container-gateway}
if [ "$(id -u)" -ne 0 ]; then echo "SKIP rootless: needs root (makes a throwaway user)"; exit 77; fi
for c in podman newuidmap newgidmap slirp4netns setpriv useradd userdel curl docker git python3; do
  command -v "$c" >/dev/null 2>&1 || { echo "SKIP rootless: $c not found (scripts/install-deps.sh)"; exit 77; }
done
[ -x "$GATEWAY" ] && [ -x "$REPO/tests/helpers/no_userns" ] ||
  { echo "rootless: build first (make all test-programs)"; echo "0 passed, 1 failed"; exit 1; }

T=$(mktemp -d /tmp/cgr.XXXXXX); T=$(realpath "$T"); chmod 0755 "$T"
U=cgrl${T##*.}; U=$(echo "$U" | tr 'A-Z' 'a-z')
UID_=; XDG=; SVC_PID=; TUN_STAT=
teardown() {
  local rc=$? p left
  trap - EXIT INT TERM
  [ -n "$SVC_PID" ] && kill -TERM "$SVC_PID" 2>/dev/null
  if [ -n "$UID_" ]; then
    # every process of the throwaway user, by pid: the service's conmon, slirp4netns,
    # aardvark-dns and podman's pause process (it holds the user namespace)
    for sig in TERM KILL; do
      left=
      for p in /proc/[0-9]*; do
        [ "$(awk '/^Uid:/ { print $2 }' "$p/status" 2>/dev/null)" = "$UID_" ] && left="$left ${p#/proc/}"
      done
      [ -n "$left" ] || break
      # shellcheck disable=SC2086
      kill -"$sig" $left 2>/dev/null
      for _ in $(seq 50); do
        p=; for q in $left; do [ -e "/proc/$q" ] && p=1; done
        [ -z "$p" ] && break; sleep 0.1
      done
    done
    # netns and runtime files the user made below its XDG_RUNTIME_DIR (some are mounts)
    if [ -n "$XDG" ] && [ -d "$XDG" ]; then
      findmnt -rn -o TARGET | grep -F "$XDG/" | sort -r | xargs -r umount -l 2>/dev/null
      rm -rf "$XDG"
    fi
  fi
  findmnt -rn -o TARGET | grep -F "$T/" | sort -r | xargs -r umount -l 2>/dev/null
  # what the user left in the shared temporary directories (a suite killed by its
  # timeout leaves its tmp dir; podman without XDG_RUNTIME_DIR writes there too)
  [ -n "$UID_" ] && find /tmp /var/tmp -maxdepth 1 -mindepth 1 -uid "$UID_" -exec rm -rf {} + 2>/dev/null
  id "$U" >/dev/null 2>&1 && userdel "$U" 2>/dev/null
  if [ -n "$TUN_STAT" ]; then chgrp "${TUN_STAT#* }" /dev/net/tun; chmod "${TUN_STAT%% *}" /dev/net/tun; fi
  if [ "${CG_KEEP:-0}" = 1 ]; then echo "# kept $T" >&2; else rm -rf "$T"; fi
  exit "$rc"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
t0=$(date +%s)

# ---- the user and its runtime directory ------------------------------------------------
useradd -M -d "$T/home" -s /bin/bash "$U" || { echo "rootless: useradd failed"; echo "0 passed, 1 failed"; exit 1; }
UID_=$(id -u "$U"); GID_=$(id -g "$U")
grep -q "^$U:" /etc/subuid && grep -q "^$U:" /etc/subgid ||
  { echo "rootless: useradd gave $U no subordinate ids (/etc/subuid, /etc/subgid)"; echo "0 passed, 1 failed"; exit 1; }
XDG=/run/user/$UID_
[ -e "$XDG" ] && { echo "rootless: $XDG exists already"; XDG=; echo "0 passed, 1 failed"; exit 1; }
mkdir -p /run/user && mkdir -m 0700 "$XDG" && chown "$U:" "$XDG"
mkdir -m 0700 "$T/home" "$T/tmp" && chown "$U:" "$T/home" "$T/tmp"
# slirp4netns opens /dev/net/tun as the user: Debian's udev makes it 0666; this kind of
# machine has it 0600 (no udev). Let the user's group have it for the run.
if ! setpriv --reuid="$UID_" --regid="$GID_" --clear-groups sh -c ': <>/dev/net/tun' 2>/dev/null; then
  TUN_STAT=$(stat -c '%a %g' /dev/net/tun)
  chgrp "$GID_" /dev/net/tun && chmod g+rw /dev/net/tun
fi

# ---- what the user runs: a copy it can read ------------------------------------------------
mkdir -p "$T/repo"
(cd "$REPO" && cp --parents tests/integration/lib.sh tests/integration/cli.sh \
   tests/integration/rootless_user.sh contrib/hooks/container-gateway-hook \
   tests/helpers/no_userns tests/helpers/hook_harness.py "$T/repo/") && cp "$GATEWAY" "$T/repo/container-gateway"
"$REPO/scripts/mk-busybox-tar.sh" "$T/busybox.tar"
chmod -R a+rX "$T/repo" "$T/busybox.tar"

# as_user CMD...: run as the user, in its home, with a login-like environment
as_user() {
  (cd "$T/home" && setpriv --reuid="$UID_" --regid="$GID_" --init-groups \
    env -i HOME="$T/home" USER="$U" LOGNAME="$U" PATH=/usr/local/bin:/usr/bin:/bin \
    XDG_RUNTIME_DIR="$XDG" TMPDIR="$T/tmp" LANG=C.UTF-8 "$@")
}

# ---- its rootless podman --------------------------------------------------------------------
as_user mkdir -p "$T/home/.config/containers"
as_user sh -c "cat > '$T/home/.config/containers/containers.conf'" <<CONF
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
image_copy_tmp_dir = "$T/tmp"
CONF
if ! as_user podman import -q "$T/busybox.tar" localhost/busybox:latest >"$T/import.log" 2>&1; then
  echo "rootless: podman import as $U failed:"; sed 's/^/    /' "$T/import.log"; echo "0 passed, 1 failed"; exit 1
fi
SOCK=$XDG/podman/podman.sock
as_user mkdir -p "$XDG/podman"
(cd "$T/home" && exec setpriv --reuid="$UID_" --regid="$GID_" --init-groups \
  env -i HOME="$T/home" USER="$U" PATH=/usr/local/bin:/usr/bin:/bin XDG_RUNTIME_DIR="$XDG" \
  TMPDIR="$T/tmp" podman system service --time=0 "unix://$SOCK") </dev/null >"$T/service.log" 2>&1 &
SVC_PID=$!
for _ in $(seq 1000); do
  curl -sf -m 2 --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1 && break
  kill -0 "$SVC_PID" 2>/dev/null || break
  sleep 0.02
done
if ! curl -sf -m 2 --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1; then
  echo "rootless: $U's podman service did not answer:"; tail -5 "$T/service.log" | sed 's/^/    /'
  echo "0 passed, 1 failed"; exit 1
fi
echo "# rootless podman of $U (uid $UID_) on $SOCK, pid $SVC_PID, ready in $(( $(date +%s) - t0 )) s"

# ---- the suites, as the user ------------------------------------------------------------------------
passed=0; failed=0
tally() {  # LOGFILE: add its "N passed, M failed"
  local last; last=$(tail -n 1 "$1")
  if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
  else failed=$((failed + 1)); echo "FAIL $1: no summary line"; fi
}
as_user env CG_PODMAN_SOCKET="$SOCK" CG_KEEP="${CG_KEEP:-0}" \
  timeout -k 10 420 bash "$T/repo/tests/integration/rootless_user.sh" "$@" 2>&1 | tee "$T/scenarios.log"
tally "$T/scenarios.log"
if [ $# -eq 0 ]; then
  # not s_sandbox and s_sandbox_syscalls: they read the request parsers' /proc entries
  # and attach gdb to them, which a user cannot do to non-dumpable processes in user
  # namespaces of their own (r_degraded and tests/test_sandbox cover that sandbox)
  echo "# tests/integration/cli.sh as $U, rootless"
  as_user env CG_PODMAN_SOCKET="$SOCK" CG_KEEP="${CG_KEEP:-0}" \
    timeout -k 10 420 bash "$T/repo/tests/integration/cli.sh" s_run_rm s_detached_lifecycle \
    s_bind_inside s_refusals s_isolation s_cp s_stdin s_podman_remote s_abandoned_streams 2>&1 | tee "$T/cli.log"
  tally "$T/cli.log"
fi
echo "rootless: $(( $(date +%s) - t0 )) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
