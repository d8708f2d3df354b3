			# SPDX-License-Identifier: GPL-2.0-or-later
			# make check-kdump (tests/kdump/guest-check-params.sh): first, as
			# RHEL's mkdumprd checks a core collector's options, the same
			# options with --check-params; it must exit 0 and write nothing.
			makedumpfile --check-params -F -l --message-level 7 -d 31 /proc/vmcore \
				> /tmp/crashlog/crash-check-params.out 2> /tmp/crashlog/crash-check-params.err
			CPRC=$?
			echo "rc=$CPRC stdout-bytes=$(stat -c %s /tmp/crashlog/crash-check-params.out)" \
				> /tmp/crashlog/crash-check-params-rc.txt
			log "makedumpfile --check-params: $(cat /tmp/crashlog/crash-check-params-rc.txt)"
