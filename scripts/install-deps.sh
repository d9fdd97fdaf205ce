#!/bin/bash
# install-deps.sh [--if-missing] [--dry-run] [--bench]
#
# Installs the Debian packages that the build, the tests and the demo need.
#   build:        gcc make pkg-config libseccomp-dev libcap-dev libcjson-dev libcmocka-dev
#                 zlib1g-dev liblzma-dev libbz2-dev (the checker's gzip, xz, bzip2 decoders)
#                 nettle-dev (the checker's SHA-256 of a loaded image's config: its id)
#   backend:      podman runc catatonit netavark aardvark-dns iptables busybox-static
#                 (runc named so that crun, unusable here, stays out; catatonit for pods)
#   test tools:   python3 curl procps util-linux gdb; clang libclang-rt-14-dev (make fuzz,
#                 make check-asan); valgrind (make check-valgrind); python3-jsonschema
#                 (tests/integration/audit.py validates the audit records); golang-go
#                 (Go 1.19, the daemons' archive/tar: tests/tarparity/run.py compares
#                 the checker's tar reader with it)
#   compose flow: docker-compose python3-docker
#   rootless:     uidmap (newuidmap, newgidmap) and slirp4netns for a user's rootless
#                 podman (tests/integration/rootless.sh); passt is not used: podman
#                 4.3.1 has no pasta network mode; bubblewrap for tool.md's sandboxed
#                 agent (rootless.sh r_sandboxed_agent)
#   old API versions: skopeo (its docker-daemon: transport speaks v1.22; tools.sh)
#   client matrix (make check-clients, tests/integration/clients.sh): golang-go with
#                 golang-github-docker-docker-dev and golang-github-fsouza-go-dockerclient-dev
#                 (built in GOPATH mode), ruby-docker-api (and ruby-multi-json, which it
#                 requires but does not depend on), podman-compose
#   dockerd:      docker.io (dockerd 20.10, containerd, and the docker client when no
#                 other `docker` is on PATH). tests/integration/dockerd.sh starts a
#                 private dockerd + containerd with scripts/dockerd-up.sh; nothing else
#                 starts them, and the install must not start them either: when the machine has
#                 no /usr/sbin/policy-rc.d, one answering 101 ("action forbidden") is
#                 put in place for the duration of the install and removed afterwards
#                 (docker.io's postinst runs `invoke-rc.d docker start || exit 1` on a
#                 machine without systemd; invoke-rc.d and deb-systemd-invoke obey it).
#
#   make bench:   haproxy, with --bench only (bench/bench.py measures it as a peer of the
#                 gateway; make check does not need it). Its package does not start it
#                 either (the same policy-rc.d below).
#
# --if-missing: ask dpkg which packages are missing and run apt-get only for them
# (prints one line either way). Without it, apt-get update + install run always.
# --dry-run: print what would be installed and change nothing.
# Uses sudo only when not root.
set -euo pipefail

IF_MISSING=0
DRY=0
BENCH=0
for a in "$@"; do
  case $a in
    --if-missing) IF_MISSING=1 ;;
    --dry-run) DRY=1 ;;
    --bench) BENCH=1 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--if-missing] [--dry-run] [--bench]" >&2; exit 2 ;;
  esac
done

PKGS=(gcc make pkg-config libseccomp-dev libcap-dev libcjson-dev libcmocka-dev
      zlib1g-dev liblzma-dev libbz2-dev nettle-dev
      podman runc catatonit netavark aardvark-dns iptables busybox-static
      git iproute2 python3 curl procps util-linux gdb clang libclang-rt-14-dev valgrind
      python3-jsonschema docker-compose python3-docker docker.io containerd uidmap slirp4netns
      bubblewrap skopeo golang-go golang-github-docker-docker-dev
      golang-github-fsouza-go-dockerclient-dev ruby ruby-docker-api ruby-multi-json podman-compose)
[ $BENCH = 1 ] && PKGS+=(haproxy)

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: not root and no sudo" >&2; exit 1; }
  SUDO=sudo
fi

want=("${PKGS[@]}")
if [ $IF_MISSING = 1 ]; then
  want=()
  for p in "${PKGS[@]}"; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$st" = "install ok installed" ] || want+=("$p")
  done
  if [ ${#want[@]} -eq 0 ]; then
    echo "install-deps: nothing missing (${#PKGS[@]} packages checked)"
    exit 0
  fi
fi

if [ $DRY = 1 ]; then echo "install-deps: would install ${want[*]}"; exit 0; fi

# keep package maintainer scripts from starting daemons (docker.io, containerd)
POLICY=/usr/sbin/policy-rc.d
added_policy=0
cleanup() { [ $added_policy = 1 ] && $SUDO rm -f "$POLICY"; return 0; }
trap cleanup EXIT
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\n# temporary, from container-gateway scripts/install-deps.sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
  $SUDO chmod 0755 "$POLICY"
  added_policy=1
fi

$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
if [ $IF_MISSING = 1 ]; then
  echo "install-deps: installed ${want[*]}"
else
  echo "install-deps: installed or up to date: ${want[*]}"
fi
if printf '%s\n' "${want[@]}" | grep -qx docker.io && pgrep -x dockerd >/dev/null 2>&1; then
  echo "install-deps: warning: a dockerd is running (started by the docker.io package?); the tests do not use it" >&2
fi
