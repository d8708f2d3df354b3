			# SPDX-License-Identifier: GPL-2.0-or-later
			# make check-kdump (tests/kdump/guest-bench.sh): ours against
			# upstream's development head (/opt/upstream-head, when the
			# initramfs has it) on /proc/vmcore, in the crash kernel's one
			# CPU: -F -d 31 with no codec, -l, -z and -c, the two programs
			# in turn, KDUMP_BENCH_ROUNDS rounds; each run's time -v figures.
			if [ -x /opt/upstream-head/makedumpfile ]; then
				for round in $(seq 1 @ROUNDS@); do for codec in none l z c; do
					opt=; [ "$codec" = none ] || opt=-$codec
					log "bench round $round: makedumpfile -F $opt -d 31, ours and upstream's head"
					time -v -o /tmp/crashlog/bench-ours-$codec-$round.txt \
						makedumpfile -F $opt -d 31 --no-extensions /proc/vmcore \
						> /dev/null 2> /tmp/crashlog/bench-ours-$codec-$round.log
					echo "rc=$?" >> /tmp/crashlog/bench-ours-$codec-$round.txt
					time -v -o /tmp/crashlog/bench-head-$codec-$round.txt \
						/opt/upstream-head/makedumpfile -F $opt -d 31 /proc/vmcore \
						> /dev/null 2> /tmp/crashlog/bench-head-$codec-$round.log
					echo "rc=$?" >> /tmp/crashlog/bench-head-$codec-$round.txt
				done; done
			fi
