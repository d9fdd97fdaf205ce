#!/usr/bin/env python3
"""scripts/layers.py [DIR...]: the include graph of the C files under DIR
(default monitor), run from the top of the tree, a .c and its same-named .h
as one node, the arrows its #include "..." lines. Prints the counts of
nodes, arrows, floors and circles, one "circle:" line per circle (a strongly
connected set: files that reach each other through their includes), then the
floors from the top (a node stands one floor above the highest it includes;
a circle stands as one). Exits 1 when there is a circle, else 0.

`python3 scripts/layers.py monitor ops` redraws the monitor's layers;
tests/boundary.sh fails on any circle there. A lower file never includes a
higher one: a stage that must go on after a lower one ends is told so by a
return value or a callback it set, as monitor/exchange/ does."""
import os, re, signal, sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)	# quiet under head

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

def nodes_of(dirs):
    files = []
    for d in dirs:
        for dp, _, fs in os.walk(d):
            files += [os.path.join(dp, f) for f in fs if f.endswith(('.c', '.h'))]
    return sorted(files)

def main():
    dirs = sys.argv[1:] or ['monitor']
    files = nodes_of(dirs)
    node = lambda p: p[:-2]
    known = {node(f) for f in files}
    arrows = {}
    for f in files:
        src = node(f)
        for inc in INC.findall(open(f, encoding='utf-8', errors='replace').read()):
            dst = node(inc)
            if dst in known and dst != src:
                arrows.setdefault(src, set()).add(dst)
    # Tarjan's strongly connected components
    index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in arrows.get(v, ()):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            sccs.append(comp)
    sys.setrecursionlimit(10000)
    for v in sorted(known):
        if v not in index: visit(v)
    comp_of = {v: i for i, c in enumerate(sccs) for v in c}
    floor = {}
    def fl(ci):
        if ci in floor: return floor[ci]
        floor[ci] = 0
        f = 0
        for v in sccs[ci]:
            for w in arrows.get(v, ()):
                if comp_of[w] != ci: f = max(f, fl(comp_of[w]) + 1)
        floor[ci] = f
        return f
    for ci in range(len(sccs)): fl(ci)
    circles = [sorted(c) for c in sccs if len(c) > 1]
    narrows = sum(len(s) for s in arrows.values())
    print(f"{len(known)} nodes, {narrows} include arrows, "
          f"{max(floor.values()) + 1 if floor else 0} floors, {len(circles)} circles")
    for c in circles:
        print("circle:", " ".join(c))
    by = {}
    for ci, f in floor.items():
        by.setdefault(f, []).extend(sccs[ci])
    for f in sorted(by, reverse=True):
        print(f"floor {f:2d}: " + " ".join(sorted(os.path.relpath(v) for v in by[f])))
    return 1 if circles else 0

sys.exit(main())
