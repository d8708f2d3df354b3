#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# makedumpfile-R.pl DUMPFILE < STREAM: upstream's reassembler of a flattened
# stream (makedumpfile -F) into a dump file, by its name and with its
# command line, so that the scripts that call it (and SUSE's kdump
# initramfs, which copies it) find it.  Upstream's is a Perl script that
# does what "makedumpfile -R" does, overwriting DUMPFILE; this one lets
# makedumpfile -f -R do it, which also checks the stream and marks the
# dump file of a cut one incomplete.
set -eu
if [ $# -ne 1 ] || [ -z "$1" ]; then
	echo "usage: ${0##*/} DUMPFILE < flattened-stream" >&2
	exit 2
fi
# The makedumpfile installed beside this script, else the one on PATH.
mdf=${0%/*}/makedumpfile
[ -x "$mdf" ] || mdf=makedumpfile
exec "$mdf" -f -R "$1"
