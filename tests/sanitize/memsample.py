#!/usr/bin/env python3
"""memsample.py PID OUT [INTERVAL]: the memory of a gateway while a test loads it.

Samples every INTERVAL seconds (0.2) until SIGTERM/SIGINT or until PID is gone:
  * the monitor PID: Rss and Pss of /proc/PID/smaps_rollup;
  * the whole gateway (PID and its descendants: the zygote, the request parsers),
    every fifth sample: their number and the sum of their Pss.
Then writes the peaks to OUT as KEY=VALUE lines (kB): rss_kb, pss_kb, tree_pss_kb,
procs_max, samples. Used by tests/sanitize/load.sh (doc/reliability.md: the monitor's memory
under 256 clients and during a 256 MiB docker cp, next to its bounds).
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from bench import tree  # noqa: E402  (pid and its descendants; make bench's)


def rollup(pid):
    """(Rss, Pss) of pid in kB, or None when it is gone."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        return None
    return rss, pss


def main():
    pid, out = int(sys.argv[1]), sys.argv[2]
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 0.2
    peak = {"rss_kb": 0, "pss_kb": 0, "tree_pss_kb": 0, "procs_max": 0, "samples": 0}
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    n = 0
    while not stop:
        m = rollup(pid)
        if m is None:
            break
        peak["rss_kb"] = max(peak["rss_kb"], m[0])
        peak["pss_kb"] = max(peak["pss_kb"], m[1])
        if n % 5 == 0:
            procs = tree(pid)
            total = sum((rollup(p) or (0, 0))[1] for p in procs)
            peak["tree_pss_kb"] = max(peak["tree_pss_kb"], total)
            peak["procs_max"] = max(peak["procs_max"], len(procs))
        n += 1
        peak["samples"] = n
        time.sleep(interval)
    with open(out, "w") as f:
        for k, v in peak.items():
            f.write(f"{k}={v}\n")


if __name__ == "__main__":
    main()
