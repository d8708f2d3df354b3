#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The C compiler's own answers about types, in makedumpfile --dump-type's form.

Usage: ctypes_oracle.py HEADER WORKDIR < SPECS

Each line of SPECS is KIND|C TYPE|SPEC[|SIZE]:
  size|struct page|page              -> "page size=N"               (sizeof)
  member|struct page|page.lru.next   -> "page.lru.next offset=O size=S bitfield=0"
                                        (offsetof, sizeof of the member)
  bitfield|struct shapes|shapes.bf_mid|4
                                     -> "... offset=O size=4 bitfield=B bit_offset=N"
                                        (the bits the member sets in a zeroed object;
                                        SIZE is its declared type's, which C cannot tell)
  enum||pageflags.PG_lru             -> "pageflags.PG_lru=V" (the constant after the last dot)
A program that #includes HEADER is written to WORKDIR, compiled with cc and
run; its output, one line per spec in order, is printed.
"""
import os
import subprocess
import sys


def member_path(spec):
    return spec.split(".", 1)[1]


def statement(kind, ctype, spec, size):
    if kind == "size":
        return f'printf("%s size=%zu\\n", "{spec}", sizeof({ctype}));'
    if kind == "member":
        path = member_path(spec)
        return (f'printf("%s offset=%zu size=%zu bitfield=0\\n", "{spec}", '
                f'offsetof({ctype}, {path}), sizeof((({ctype} *)0)->{path}));')
    if kind == "bitfield":
        path = member_path(spec)
        return f"""{{
	union {{ {ctype} object; unsigned char bytes[sizeof({ctype})]; }} u;
	int low = -1, high = -1;
	memset(&u, 0, sizeof(u));
	u.object.{path} = -1;
	for (size_t i = 0; i < 8 * sizeof(u.bytes); i++)
		if (u.bytes[i / 8] >> (i % 8) & 1) {{
			if (low < 0)
				low = (int)i;
			high = (int)i;
		}}
	printf("%s offset=%d size={size} bitfield=%d bit_offset=%d\\n", "{spec}", low / 8, high - low + 1, low);
}}"""
    if kind == "enum":
        constant = spec.rsplit(".", 1)[-1]
        return f'printf("%s=%lld\\n", "{spec}", (long long){constant});'
    raise SystemExit(f"ctypes_oracle.py: unknown kind {kind!r}")


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    header, work = sys.argv[1], sys.argv[2]
    body = []
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split("|")
        kind, ctype, spec = fields[0], fields[1], fields[2]
        size = fields[3] if len(fields) > 3 else ""
        body.append(statement(kind, ctype, spec, size))
    source = os.path.join(work, "ctypes_oracle.c")
    binary = os.path.join(work, "ctypes_oracle")
    with open(source, "w") as f:
        f.write("#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n")
        f.write(f'#include "{os.path.abspath(header)}"\n\nint main(void)\n{{\n')
        for s in body:
            f.write("\t" + s.replace("\n", "\n\t") + "\n")
        f.write("\treturn 0;\n}\n")
    subprocess.run(["cc", "-std=gnu11", "-w", "-o", binary, source], check=True)
    sys.stdout.flush()
    subprocess.run([binary], check=True)


if __name__ == "__main__":
    main()
