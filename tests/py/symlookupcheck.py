#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""symlookupcheck.py DUMPREAD DUMP GUEST_KALLSYMS: lookups by name (dumpread
symbol, which announces some kernel names before they are asked and asks
the rest one by one), checked against the guest's own /proc/kallsyms.

Asks a seeded sample of the guest's symbols: kernel names, module names
qualified by their module and unqualified, every name the kernel has
several symbols of (the answer is the first global one, else the first),
and names that exist nowhere.  Prints "ok N names" or the differences,
one per line, and exits 1 on any."""
import random
import subprocess
import sys


def expected(lines, name):
    """The address the preference rule gives among @lines of one name:
    the first global (upper-case type) symbol, else the first; undefined
    symbols name no address."""
    found = [(addr, t) for addr, t, n in lines if n == name and t not in 'Uu']
    for addr, t in found:
        if t.isupper():
            return addr
    return found[0][0] if found else None


def main():
    dumpread, dump, guest = sys.argv[1:4]
    kernel, modules = [], {}
    for line in open(guest):
        fields = line.split()
        addr, t, name = int(fields[0], 16), fields[1], fields[2]
        if len(fields) > 3:
            modules.setdefault(fields[3].strip('[]'), []).append((addr, t, name))
        else:
            kernel.append((addr, t, name))
    rng = random.Random(20261203)
    counts = {}
    for _, _, n in kernel:
        counts[n] = counts.get(n, 0) + 1
    queries = {}
    for _, _, n in rng.sample(kernel, 300):
        queries[n] = expected(kernel, n)
    for n in rng.sample(sorted(n for n, c in counts.items() if c > 1), 40):
        queries[n] = expected(kernel, n)
    for mod in rng.sample(sorted(modules), min(12, len(modules))):
        for _, _, n in rng.sample(modules[mod], min(8, len(modules[mod]))):
            queries['%s:%s' % (mod, n)] = expected(modules[mod], n)
            # unqualified: the kernel first, then the modules in list order
            if n not in counts:
                first = next(m for m in modules if expected(modules[m], n) is not None)
                queries[n] = expected(modules[first], n)
    for n in ('no_such_symbol_anywhere', 'vmlinux:no_such_symbol', 'no_such_module:init_task'):
        queries[n] = None
    # a qualified name first: dumpread reads the modules once one is asked
    names = sorted(queries, key=lambda n: (':' not in n, n))
    out = subprocess.run([dumpread, dump, 'symbol'] + names, capture_output=True, text=True)
    if out.returncode:
        print('dumpread failed: %s' % out.stderr[-400:])
        return 1
    got = dict(line.split() for line in out.stdout.splitlines())
    bad = 0
    for n in names:
        want = 'missing' if queries[n] is None else '0x%x' % queries[n]
        if got.get(n) != want:
            print('%s: %s, the guest says %s' % (n, got.get(n), want))
            bad += 1
    if not bad:
        print('ok %d names' % len(names))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
