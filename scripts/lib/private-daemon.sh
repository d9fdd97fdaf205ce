# Sourced by scripts/{podman,dockerd}-{up,down}.sh: the steps their private daemons
# (a DIR holding every piece of state, ../shared/backend-recipe.md §3) share.
# Functions only; they read no variable of the caller but $0 (for messages); down_args
# sets T, pick_driver reads and sets DRV.

# pid_is FILE NEEDLE: FILE names a live process whose command line has NEEDLE
# (a pid file alone may name a reused pid)
pid_is() {
  local p
  p=$(cat "$1" 2>/dev/null) || return 1
  case $p in ''|*[!0-9]*) return 1;; esac
  tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -qF -- "$2"
}

# claim_dir DIR MARKER: make DIR ours, afresh. A DIR holding MARKER (one that the
# up script made, half-started or left by a killed run) is first torn down with the
# down script beside the caller; an empty DIR is removed; any other DIR is refused
# (exit 1). Then DIR and DIR/MARKER are made: the down script refuses a DIR without it.
claim_dir() {
  local t=$1 marker=$2 up down
  up=$(basename "$0"); down=$(dirname "$0")/${up%-up.sh}-down.sh
  if [ -e "$t" ]; then
    if [ -f "$t/$marker" ]; then
      "$down" "$t" >/dev/null
    elif [ -d "$t" ] && [ -z "$(ls -A "$t")" ]; then
      rmdir "$t"
    else
      echo "$0: $t exists and was not made by $up; refusing to use it" >&2; exit 1
    fi
  fi
  mkdir -p "$t"
  touch "$t/$marker"
}

# down_args ARG...: a down script's command line. -h/--help prints the script's header
# comment and exits 0; one DIR (not starting with "-": a mistyped option is no DIR) sets
# T to its absolute path; anything else is a usage error (exit 2).
down_args() {
  case ${1-} in
    -h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    -*) set -- ;;
  esac
  [ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
  T=$(realpath -m -- "$1")
}

# claimed_dir DIR MARKER: for a down script. Exit 0 when DIR does not exist (nothing to
# undo), 1 when it does without MARKER (not made by the up script: refuse to remove it).
claimed_dir() {
  local t=$1 marker=$2 up
  up=$(basename "$0"); up=${up%-down.sh}-up.sh
  [ -e "$t" ] || exit 0
  if [ ! -f "$t/$marker" ]; then
    echo "$0: $t was not made by $up (no $marker); refusing to remove it" >&2
    exit 1
  fi
}

# kill_naming_dir DIR [gateways]: SIGKILL, until none is left (5 s at most), every
# process whose command line names DIR/ (shims, conmons, clients), but this shell
# and its ancestors; with "gateways", a container-gateway in front of the daemon is
# a client and is spared too
kill_naming_dir() {
  local t=$1 spare=${2-} ancestors=" $$ " p=$$ d cmd left
  while [ "$p" -gt 1 ] 2>/dev/null; do
    p=$(awk '/^PPid:/ {print $2}' "/proc/$p/status" 2>/dev/null) || break
    [ -n "$p" ] || break
    ancestors="$ancestors$p "
  done
  for _ in $(seq 50); do
    left=
    for d in /proc/[0-9]*; do
      p=${d#/proc/}
      case $ancestors in *" $p "*) continue;; esac
      cmd=$({ tr '\0' ' ' < "$d/cmdline"; } 2>/dev/null) || continue
      if [ "$spare" = gateways ]; then
        case ${cmd%% *} in */container-gateway|container-gateway) continue ;; esac
      fi
      case $cmd in *"$t/"*) left="$left $p" ;; esac
    done
    [ -z "$left" ] && break
    kill -9 $left 2>/dev/null
    sleep 0.1
  done
  return 0
}

# unmount_remove DIR LAZY: unmount every mount under DIR, deepest first (from the
# LAZYth of five tries on, lazily), and remove DIR; exit 1 saying which mounts are
# left when DIR stays
unmount_remove() {
  local t=$1 lazy=$2 re i
  re=$(printf '%s' "$t" | sed 's/[][\.*^$+?(){}|/]/\\&/g')
  for i in 1 2 3 4 5; do
    findmnt -rn -o TARGET | grep -E "^$re(/|$)" | sort -r |
      while read -r m; do umount "$m" 2>/dev/null || { [ "$i" -ge "$lazy" ] && umount -l "$m" 2>/dev/null; }; done
    rm -rf "$t" 2>/dev/null && break
    sleep 0.2
  done
  if [ -e "$t" ]; then
    echo "$0: could not remove $t:" >&2
    findmnt -rn -o TARGET | grep -F "$t" >&2
    exit 1
  fi
}

# pick_driver FAST UNDO SMOKE: settle the storage driver DRV. A DRV other than "auto"
# must work as given; "auto" tries FAST and, when it fails, says so, runs UNDO (what the
# failed try left) and tries vfs; DRV is then the driver that works. try_driver NAME is
# the caller's: it proves a driver, leaving its output in the file SMOKE. When no driver
# works, SMOKE goes to stderr and the script exits 1.
pick_driver() {
  local fast=$1 undo=$2 smoke=$3
  case $DRV in
    auto)
      if try_driver "$fast"; then DRV=$fast
      else
        echo "$(basename "$0" .sh): $fast failed ($(tail -1 "$smoke" 2>/dev/null)); using vfs" >&2
        "$undo"
        try_driver vfs || { cat "$smoke" >&2; exit 1; }
        DRV=vfs
      fi ;;
    *) try_driver "$DRV" || { cat "$smoke" >&2; exit 1; } ;;
  esac
}
