			# SPDX-License-Identifier: GPL-2.0-or-later
			# make check-kdump (tests/kdump/guest-mmap.sh): the -d 31 run
			# read through mmap windows, with the debug message that says so,
			# and with --non-mmap (read(2) only), three times each in turn;
			# each stream's md5 and time.
			for i in 1 2 3; do for how in mmap non-mmap; do
				if [ "$how" = mmap ]; then opts="--message-level 15"; else opts="--message-level 7 --non-mmap"; fi
				log "makedumpfile -F -l -d 31 --no-extensions $opts /proc/vmcore | md5sum ($i)"
				time -v makedumpfile -F -l -d 31 --no-extensions $opts /proc/vmcore \
					2> /tmp/crashlog/crash-$how-$i.log | md5sum > /tmp/crashlog/crash-$how-$i.md5
			done; done
