#!/bin/sh
# mk-busybox-tar.sh OUT.tar
# Builds a minimal root filesystem tar from the host's busybox-static:
# /bin/busybox plus one symlink per applet, /tmp (1777), /etc/passwd and /etc/group.
# Import it with `podman import -q OUT.tar localhost/busybox:latest`.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 OUT.tar" >&2; exit 2; }
OUT=$1
BB=
for b in /bin/busybox /usr/bin/busybox; do [ -x "$b" ] && { BB=$b; break; }; done
[ -n "$BB" ] || { echo "$0: busybox not found (install busybox-static)" >&2; exit 1; }
# A dynamically linked busybox would not run inside the image.
if command -v file >/dev/null 2>&1 && file -L "$BB" | grep -q 'dynamically linked'; then
  echo "$0: $BB is dynamically linked; install busybox-static" >&2; exit 1
fi
R=$(mktemp -d "${TMPDIR:-/tmp}/bbroot.XXXXXX")
trap 'rm -rf "$R"' EXIT
mkdir -p "$R/bin" "$R/tmp" "$R/etc" "$R/root" "$R/proc" "$R/sys" "$R/dev"
chmod 1777 "$R/tmp"
cp "$BB" "$R/bin/busybox"
for a in $("$BB" --list); do [ "$a" = busybox ] || ln -s busybox "$R/bin/$a"; done
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$R/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$R/etc/group"
tar -C "$R" -cf "$OUT.tmp.$$" .
mv -f "$OUT.tmp.$$" "$OUT"
