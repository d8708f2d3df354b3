#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make layering: every #include "..." of the engine runs down the layers.

Usage: layering.py LAYER...   (the folders, lowest first, as the Makefile's LAYERS)

A file in a layer's folder may include headers of its own layer or of
lower ones, and the public API header (include/makedumpfile-extension.h,
which depends on nothing).  The top level (makedumpfile.c and the
compatibility surface for extensions) may include anything; no layer may
include the top level's headers, which are the extensions' surface.
Prints each include that runs the wrong way and exits 1 if there is one.
"""
import os
import re
import sys

PUBLIC = {"makedumpfile-extension.h"}


def main(layers):
    rank = {layer: i for i, layer in enumerate(layers)}
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    wrong = []
    for layer in layers:
        folder = os.path.join(root, layer)
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(layer, name)
            with open(os.path.join(root, path)) as f:
                for no, line in enumerate(f, 1):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m or m.group(1) in PUBLIC:
                        continue
                    target = m.group(1)
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
    for w in wrong:
        print(w)
    print("layering: %d include%s against the layers (%s)" %
          (len(wrong), "" if len(wrong) == 1 else "s", " <- ".join(layers)))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
