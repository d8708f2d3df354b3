#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What an executable exports to extensions, against what the headers declare.

exportcheck.py [--without NAME]... BINARY PROJECT HEADER...

The names a header declares (its functions and its extern variables) are
read from the preprocessed header, PROJECT's top and include/ on the
include path: the lines the preprocessor attributes to the header itself,
with struct, enum and initializer bodies and attributes dropped, split into
declarations.  --without drops a name from that set, for a test to show
that a name the headers do not declare is caught.

The executable's dynamic symbols (readelf --dyn-syms) that it defines must
be exactly those names, each the default definition of the version
extension/exports.map gives it: MDF_1.0 for the first API, a later node
(MDF_1.1, ...) for a name added since (name@@MDF_1.1).  The only other definitions allowed are the variables of
shared libraries that the executable holds by copy relocation (the C
library's stdout and optarg, the sanitizer runtime's options): a copy
relocation names a definition another object makes.  Prints what differs;
exit status 1 when anything does.
"""
import re
import subprocess
import sys

VERSION = 'MDF_1.0'


def version_nodes(project):
    """{name: node} of extension/exports.map's global names; a name unlisted there is MDF_1.0's."""
    text = re.sub(r'/\*.*?\*/', ' ', open(project + '/extension/exports.map').read(), flags=re.S)
    nodes = {}
    for node, body in re.findall(r'(MDF_[0-9.]+)\s*\{(.*?)\}', text, flags=re.S):
        exported = body.split('local:')[0].replace('global:', ' ')
        for name in re.findall(r'(\w+)\s*;', exported):
            nodes[name] = node
    return nodes


def preprocessed(project, header):
    source = '#include "%s"\n' % header
    return subprocess.run(['cc', '-E', '-D_GNU_SOURCE', '-I', project, '-I', project + '/include', '-x', 'c', '-'],
                          input=source, check=True, capture_output=True, text=True, cwd=project).stdout


def own_text(text, header):
    """The lines of the preprocessor's output that come from @header itself."""
    keep, own = [], False
    for line in text.splitlines():
        marker = re.match(r'# \d+ "([^"]*)"', line)
        if marker:
            own = marker.group(1).endswith('/' + header) or marker.group(1) == header
        elif own:
            keep.append(line)
    return ' '.join(keep)


def group_end(text, i):
    """The index past the balanced group that opens at text[i], a '(' or a '{'."""
    opening, closing = text[i], {'(': ')', '{': '}'}[text[i]]
    depth = 0
    while i < len(text):
        depth += (text[i] == opening) - (text[i] == closing)
        i += 1
        if depth == 0:
            break
    return i


def without_attributes(text):
    """@text without its __attribute__((...)): a format() holds parentheses of its own."""
    out, i = [], 0
    while True:
        at = text.find('__attribute__', i)
        if at < 0:
            return ''.join(out) + text[i:]
        out.append(text[i:at])
        i = text.index('(', at)
        i = group_end(text, i)


def without_bodies(text):
    """@text with each { } group (a struct's, an enum's, a function's body) left empty."""
    out, i = [], 0
    while True:
        at = text.find('{', i)
        if at < 0:
            return ''.join(out) + text[i:]
        out.append(text[i:at] + ' {} ')
        i = group_end(text, at)


def declared(text):
    """The functions and extern variables declared in @text, a header's own lines."""
    text = without_bodies(without_attributes(text))
    names = set()
    # A function's body ends its definition as a ';' ends a declaration.
    for decl in re.split(r';|\{\}', text):
        decl = ' '.join(decl.split())
        if not decl or re.match(r'(typedef|static|enum|struct \w+$|union \w+$)', decl):
            continue
        call = decl.find('(')
        if call > 0:
            name = re.search(r'(\w+)\s*$', decl[:call])
            if name and not decl.startswith('#'):
                names.add(name.group(1))
        elif decl.startswith('extern '):
            names.add(re.search(r'(\w+)\s*(\[[^]]*\])?$', decl).group(1))
    return names


def dynamic_definitions(binary):
    """{name: version or ''} of the symbols @binary defines, and the names it copies."""
    out = subprocess.run(['readelf', '--dyn-syms', '-W', binary], check=True, capture_output=True,
                         text=True).stdout
    defined = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 8 or not fields[0][:-1].isdigit() or fields[6] == 'UND':
            continue
        name, _, version = fields[7].partition('@')
        defined[name] = version
    relocs = subprocess.run(['readelf', '-r', '-W', binary], check=True, capture_output=True, text=True).stdout
    copied = {m.group(1).split('@')[0] for m in re.finditer(r'R_\w+_COPY\s+\S+\s+(\S+)', relocs)}
    return defined, copied


def main():
    args, without = sys.argv[1:], set()
    while args and args[0] == '--without':
        without.add(args[1])
        args = args[2:]
    binary, project, headers = args[0], args[1], args[2:]
    api = set()
    for header in headers:
        api |= declared(own_text(preprocessed(project, header), header))
    api -= without
    defined, copied = dynamic_definitions(binary)
    nodes = version_nodes(project)
    problems = []
    for name, version in sorted(defined.items()):
        shown = name + ('@' + version if version else ' (no version)')
        if name in set(nodes.values()) | {VERSION} and version == '':
            continue
        if name in api:
            want = nodes.get(name, VERSION)
            if version != '@' + want:
                problems.append('%s is exported as %s, not %s@@%s' % (name, shown, name, want))
        elif name in copied:
            continue
        else:
            problems.append('%s is exported but no public header declares it' % shown)
    for name in sorted(api - set(defined)):
        problems.append('%s is declared by a public header but not exported' % name)
    for line in problems:
        print(line)
    print('%d names declared, %d exported as %s or a later version, %d copied from libraries' %
          (len(api), sum(1 for v in defined.values() if v.startswith('@MDF_')), VERSION,
           len([n for n in defined if n in copied])))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
