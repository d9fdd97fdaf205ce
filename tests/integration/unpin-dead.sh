#!/bin/bash
# tests/integration/unpin-dead.sh — the pins of gateways whose run directory is gone are
# unmounted and removed, as the next gateway's pinner would at its set-up (monitor/pinner.c
# reclaim_dead; doc/privsep.md "The pinner"). The suites' teardowns run it after removing
# their run directories, so that a suite leaves no mount behind (a container the daemon
# removes by itself, --rm on podman, keeps its pin until the gateway's next sweep).
# Run directories that exist (other gateways, running or kept) are left alone. Exit 0.
PINS=${CG_PINS_DIR:-/run/container-gateway/pins}
for k in "$PINS"/*/; do
  [ -f "$k.rundir" ] || continue
  d=$(cat "$k.rundir") || continue
  [[ $d == /* ]] && [ ! -e "$d" ] || continue
  for p in "$k"*; do
    [ -e "$p" ] || continue
    umount -l "$p" 2>/dev/null
    rmdir "$p" 2>/dev/null || rm -f "$p"
  done
  rm -f "$k.rundir"; rmdir "$k" 2>/dev/null
done
exit 0
