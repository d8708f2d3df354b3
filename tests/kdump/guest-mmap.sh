			# SPDX-License-Identifier: GPL-2.0-or-later
			# make check-kdump (tests/kdump/guest-mmap.sh): the -d 31 run
			# read through mmap windows, with the debug message that says so,
			# then with --non-mmap (read(2) only); each stream's md5 and time.
			for how in mmap non-mmap; do
				if [ "$how" = mmap ]; then opts="--message-level 15"; else opts="--message-level 7 --non-mmap"; fi
				log "makedumpfile -F -l -d 31 --no-extensions $opts /proc/vmcore | md5sum"
				time -v makedumpfile -F -l -d 31 --no-extensions $opts /proc/vmcore \
					2> /tmp/crashlog/crash-$how.log | md5sum > /tmp/crashlog/crash-$how.md5
			done
