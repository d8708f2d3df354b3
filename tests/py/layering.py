#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make layering: the engine's dependencies run one way.

Usage: layering.py [--root DIR] [--objects DIR] LAYER...
       (the folders, lowest first: the Makefile's LAYERS, then cli)

Three rules, each printed with the files that break it:

1. Down the layers.  A file in a layer's folder may include headers of
   its own layer or of lower ones, and the public API header
   (include/makedumpfile-extension.h, which depends on nothing).  The top
   level (makedumpfile.c and the compatibility surface for extensions)
   may include anything; no layer may include the top level's headers,
   which are the extensions' surface.

2. No include cycle inside a layer.  A module is a .c file and its .h
   (flat.c and flat.h are the module output/flat); module A depends on
   module B when a file of A includes B's header.  A cycle of such
   dependencies (flat -> elf_writer -> kdump_writer -> dump_file -> flat)
   means no module of it can be understood, or replaced, without the
   others.

3. No link cycle.  With --objects (the build folder holding each
   module's .o), module A depends on module B when A's object uses a
   symbol B's object defines; a cycle there (an opener that calls each
   format, whose files call back into the opener's) is the same knot,
   hidden from the includes by a header that declares both sides.

Exits 1 if any rule is broken.
"""
import os
import re
import subprocess
import sys

PUBLIC = {"makedumpfile-extension.h"}
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def sources(root, layers):
    for layer in layers:
        folder = os.path.join(root, layer)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith((".c", ".h")):
                yield layer, os.path.join(layer, name)


def includes(root, path):
    with open(os.path.join(root, path), errors="replace") as f:
        for no, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield no, m.group(1)


def module_of(path):
    return os.path.splitext(path)[0]


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(node):
        # Iterative, so that a long chain cannot exhaust Python's stack.
        work = [(node, iter(sorted(graph.get(node, ()))))]
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        while work:
            current, edges = work[-1]
            advanced = False
            for succ in edges:
                if succ not in index:
                    index[succ] = low[succ] = counter[0]
                    counter[0] += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, ())))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[current] = min(low[current], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[current])
            if low[current] == index[current]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == current:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def check_layers(root, layers):
    rank = {layer: i for i, layer in enumerate(layers)}
    wrong = []
    for layer, path in sources(root, layers):
        for no, target in includes(root, path):
            if target in PUBLIC:
                continue
            to = target.split("/")[0] if "/" in target else None
            if to is None:
                why = "the top level's headers are for extensions"
            elif to not in rank:
                why = "not a layer's header"
            elif rank[to] > rank[layer]:
                why = "%s is above %s" % (to, layer)
            else:
                continue
            wrong.append("%s:%d: includes %s: %s" % (path, no, target, why))
    return wrong


def check_include_cycles(root, layers):
    graph = {}
    for layer, path in sources(root, layers):
        here = module_of(path)
        graph.setdefault(here, set())
        for _, target in includes(root, path):
            if "/" not in target or target.split("/")[0] != layer:
                continue
            there = module_of(target)
            if there != here:
                graph[here].add(there)
    return ["include cycle: %s" % " <-> ".join(c) for c in cycles(graph)]


def symbols(obj):
    out = subprocess.run(["nm", "--defined-only", "-g", obj], capture_output=True, text=True,
                         check=True).stdout
    defined = {line.split()[-1] for line in out.splitlines() if line.strip()}
    out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, check=True).stdout
    used = {line.split()[-1] for line in out.splitlines() if line.strip()}
    return defined, used


def check_link_cycles(root, layers, objects):
    defined_by, uses = {}, {}
    for _, path in sources(root, layers):
        if not path.endswith(".c"):
            continue
        obj = os.path.join(objects, module_of(path) + ".o")
        if not os.path.exists(obj):
            return ["%s: missing: build the objects first" % obj]
        defined, used = symbols(obj)
        uses[module_of(path)] = used
        for name in defined:
            defined_by[name] = module_of(path)
    graph = {m: {defined_by[s] for s in used if s in defined_by and defined_by[s] != m}
             for m, used in uses.items()}
    return ["link cycle: %s" % " <-> ".join(c) for c in cycles(graph)]


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    objects = None
    while argv and argv[0].startswith("--"):
        if argv[0] == "--root":
            root = argv[1]
        elif argv[0] == "--objects":
            objects = argv[1]
        else:
            print("layering.py: unknown option %s" % argv[0], file=sys.stderr)
            return 2
        argv = argv[2:]
    layers = argv
    wrong = check_layers(root, layers)
    knots = check_include_cycles(root, layers)
    if objects:
        knots += check_link_cycles(root, layers, objects)
    for line in wrong + knots:
        print(line)
    print("layering: %d include%s against the layers (%s), %d cycle%s%s" %
          (len(wrong), "" if len(wrong) == 1 else "s", " <- ".join(layers),
           len(knots), "" if len(knots) == 1 else "s",
           "" if objects else " (includes only: no --objects)"))
    return 1 if wrong or knots else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
