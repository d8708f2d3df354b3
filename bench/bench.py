#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run our makedumpfile and upstream's side by side on the same dumps.

bench.py --ours BIN [--upstream NAME=BIN]... [--runs N] [--workdir DIR]
         [--pin CPU] [--results FILE --table NAME] [--caveat NAME@DUMP=TEXT]...
         --dump NAME=PATH... --job LABEL=ARGS... [--job LABEL@PROGRAM=ARGS...]

For every dump and job, runs the programs in rounds, N rounds, one run of
each program per round, the order rotating from round to round, writing
to DIR (output removed after each run).  Prints one table per job: for each
dump, the median wall time, user+sys time, max RSS and output size of each
program; for ours, the throughput in GB/s of input memory (the pages the
dump holds) and of kept pages (what the report calls remaining), taken
from our report; for each other program, ratios ours/it, each the median
of the N ratios of the runs of one round (paired, so that a slow moment of
the machine weighs on both sides).  Before its first job, each dump is
read once by a run that is not counted, so that every program finds it in
the page cache.

--job LABEL=ARGS runs every program with ARGS; --job LABEL@PROGRAM=ARGS
(PROGRAM: ours or an upstream's NAME) gives one program its own
arguments, and a job given that way runs only on the programs it names.
A job whose ARGS name an option an upstream lacks (-p, -z on Debian)
runs without that upstream.  --pin CPU runs every program under taskset
-c CPU.  --caveat NAME@DUMP=TEXT marks that upstream's ratios on that dump
with a footnote.  --results FILE appends one JSON line per dump, job and
program, with the medians and the table's NAME, for summary.py and
scaling.py.  --stages adds, under ours, the CPU seconds of each stage
(setup, classify, read, compress, write) and the anonymous memory
(RssAnon; the rss column is all memory, mapped page cache included), as
ours measures them itself, in runs of their own.
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time


STAGE_LINE = re.compile(r'^stage CPU seconds: (.*); RssAnon peak (\d+) KiB, VmHWM (\d+) KiB$', re.M)


def run_once(argv, out_path, env=None):
    """Wall, user+sys seconds, max RSS (KiB), output size and the report's
    original and remaining pages of one run.  The run goes through
    /usr/bin/time for its max RSS (%M): a Python child would report the
    interpreter's RSS from before exec as its maximum.  Wall and CPU
    times are taken here, to the microsecond (time's %e, %U and %S are
    to the hundredth, too coarse for runs of 0.2 s): CPU from wait4(),
    which takes in the processes time waited for, the program and the
    children it waited for (the extensions' processes).  Max RSS, by the
    same rule, is the largest of those processes, not their sum."""
    stats = out_path + '.time'
    with open(out_path + '.stdout', 'w+b') as report, open(out_path + '.stderr', 'w+b') as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(['/usr/bin/time', '-f', '%M', '-o', stats] + argv, stdout=report, stderr=errors,
                                env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        report.seek(0)
        errors.seek(0)
        text, err = report.read().decode(errors='replace'), errors.read().decode(errors='replace')
    os.unlink(out_path + '.stdout')
    os.unlink(out_path + '.stderr')
    if proc.returncode != 0:
        raise RuntimeError('%s failed: %s' % (' '.join(argv), err[-500:]))
    rss = int(open(stats).read().split()[-1])
    os.unlink(stats)
    size = os.path.getsize(out_path) if os.path.exists(out_path) else 0
    if os.path.exists(out_path):
        os.unlink(out_path)
    pages = [int(m.group(1), 16) if m else 0 for m in
             (re.search(label + r'\s*:\s*0x([0-9a-f]+)', text) for label in ('Original pages', 'Remaining pages'))]
    stages = STAGE_LINE.search(err)
    if stages:
        words = stages.group(1).split()
        stages = dict((words[i], float(words[i + 1])) for i in range(0, len(words) - 1, 2))
        stages['RssAnon MiB'] = int(STAGE_LINE.search(err).group(2)) / 1024
    return wall, usage.ru_utime + usage.ru_stime, rss, size, pages[0], pages[1], stages


def stage_line(binary_argv, out, runs, pin):
    """Ours again, each stage's CPU seconds and its anonymous memory as it
    measures them itself (MAKEDUMPFILE_STAGE_TIMES), medians of @runs runs
    apart from the paired ones, so that the clock's cost stays out of those."""
    env = dict(os.environ, MAKEDUMPFILE_STAGE_TIMES='1')
    samples = [run_once(pin + binary_argv + [out], out, env)[6] for _ in range(runs)]
    samples = [s for s in samples if s]
    if not samples:
        return None
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def supports(binary, args):
    """Debian's upstream is built without snappy and zstd."""
    flags = subprocess.run([binary, '-v'], capture_output=True, text=True).stdout
    for opt, lib in (('-p', 'snappy'), ('-z', 'zstd')):
        if opt in args and ('%s\tdisabled' % lib) in flags:
            return False
    return True


def parse_jobs(specs, programs):
    """[(label, {program: args})], in the order first given."""
    jobs = {}
    for spec in specs:
        label, args = spec.split('=', 1)
        label, _, only = label.partition('@')
        if only and only not in programs:
            raise SystemExit('--job %s: no program %s' % (spec, only))
        argv = shlex.split(args)
        entry = jobs.setdefault(label, {})
        for name in ([only] if only else programs):
            entry[name] = argv
    return list(jobs.items())


def ratio(ours, theirs):
    return statistics.median(o / t for o, t in zip(ours, theirs) if t) if any(theirs) else None


def fmt_ratio(r, mark=''):
    return ('%5.2f' % r if r is not None else '    -') + (mark or ' ')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ours', required=True)
    ap.add_argument('--upstream', action='append', default=[], metavar='NAME=BIN')
    ap.add_argument('--runs', type=int, default=7)
    ap.add_argument('--workdir', default='/tmp')
    ap.add_argument('--pin', metavar='CPU')
    ap.add_argument('--results')
    ap.add_argument('--table', default='')
    ap.add_argument('--caveat', action='append', default=[], metavar='NAME@DUMP=TEXT')
    ap.add_argument('--dump', action='append', default=[])
    ap.add_argument('--job', action='append', default=[])
    ap.add_argument('--stages', action='store_true',
                    help="after each dump's rounds, ours' own figures per stage and its RssAnon")
    a = ap.parse_args()

    binaries = {'ours': a.ours}
    for spec in a.upstream:
        name, binary = spec.split('=', 1)
        binaries[name] = binary
    programs = list(binaries)
    jobs = parse_jobs(a.job, programs)
    caveats = {}
    for spec in a.caveat:
        where, text = spec.split('=', 1)
        caveats[tuple(where.split('@', 1))] = text
    footnotes = []
    pin = ['taskset', '-c', a.pin] if a.pin else []
    results = open(a.results, 'a') if a.results else None
    warm = set()

    for label, per_program in jobs:
        print('\n%s%s' % (label, ', pinned to CPU %s' % a.pin if a.pin else ''))
        print('%-18s %-6s %7s %7s %7s %8s | %s' % ('dump', '', 'wall s', 'cpu s', 'rss MiB', 'size MB',
                                                  'ours/it: wall   cpu   rss'))
        for dump in a.dump:
            dname, dpath = dump.split('=', 1)
            progs = [p for p in programs if p in per_program and supports(binaries[p], per_program[p])]
            samples = {p: [] for p in progs}
            if dname not in warm:
                out = os.path.join(a.workdir, 'bench-warm-up.out')
                run_once(pin + [binaries[progs[0]], '-f'] + per_program[progs[0]] + [dpath, out], out)
                warm.add(dname)
            for i in range(a.runs):
                for p in progs[i % len(progs):] + progs[:i % len(progs)]:
                    out = os.path.join(a.workdir, 'bench-%s.out' % p)
                    argv = pin + [binaries[p], '-f', '--message-level', '23'] + per_program[p] + [dpath, out]
                    samples[p].append(run_once(argv, out))
            cols = {p: list(zip(*[r[:6] for r in samples[p]])) for p in progs}
            med = {p: [statistics.median(c) for c in cols[p]] for p in progs}
            for p in progs:
                m = med[p]
                ratios = {}
                line = '%-18s %-6s %7.3f %7.3f %7.1f %8.1f | ' % (
                    dname if p == progs[0] else '', p, m[0], m[1], m[2] / 1024, m[3] / 1e6)
                if p == 'ours':
                    gbps = lambda pages: pages * 4096 / 1e9 / m[0] if m[0] else 0.0
                    line += 'GB/s in %.2f, kept %.2f' % (gbps(m[4]), gbps(m[5]))
                elif 'ours' in med:
                    mark = ''
                    if (p, dname) in caveats:
                        if caveats[(p, dname)] not in footnotes:
                            footnotes.append(caveats[(p, dname)])
                        mark = '*' * (footnotes.index(caveats[(p, dname)]) + 1)
                    ratios = {key: ratio(cols['ours'][col], cols[p][col])
                              for key, col in (('wall', 0), ('cpu', 1), ('rss', 2))}
                    line += '        %s %s %s' % (fmt_ratio(ratios['wall'], mark), fmt_ratio(ratios['cpu'], mark),
                                                  fmt_ratio(ratios['rss'], mark))
                print(line.rstrip(), flush=True)
                stages = None
                if p == 'ours' and a.stages:
                    out = os.path.join(a.workdir, 'bench-ours.out')
                    stages = stage_line([binaries[p], '-f'] + per_program[p] + [dpath], out, a.runs, pin)
                    if stages:
                        print('%-25s %s' % ('', '  '.join('%s %.3f' % (k, v) if 'MiB' not in k else
                                                          '%s %.1f' % (k, v) for k, v in stages.items())))
                if results:
                    results.write(json.dumps({
                        'table': a.table, 'dump': dname, 'job': label, 'program': p, 'pin': a.pin, 'runs': a.runs,
                        'wall': m[0], 'cpu': m[1], 'rss_kib': m[2], 'size': m[3],
                        'input_gib': m[4] * 4096 / 2**30, 'ratios': ratios, 'stages': stages}) + '\n')
                    results.flush()
    for i, text in enumerate(footnotes):
        print('%s %s' % ('*' * (i + 1), text))
    return 0


if __name__ == '__main__':
    sys.exit(main())
