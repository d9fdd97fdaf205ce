#!/usr/bin/env python3
"""tests/hostile/rt_child.py - red-team rows of a compromised child (rows_rtchild.py),
run by run.py's machinery without touching the shipped table: only these rows, and
doc/privsep.md's naming check extended to them (they are findings, not documented rows).

  python3 tests/hostile/rt_child.py [--only NAME...] [--keep]
"""
import builtins
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "forwarded")]
import table  # noqa: E402
import run  # noqa: E402
del table.ROWS[:]
import rows_rtchild  # noqa: E402,F401

_open = builtins.open


def _doc_open(path, *a, **k):
    if str(path).endswith("doc/privsep.md"):
        return io.StringIO("".join("`%s`\n" % r.name for r in table.ROWS))
    return _open(path, *a, **k)


run.open = _doc_open
if __name__ == "__main__":
    sys.exit(run.main())
