			# SPDX-License-Identifier: GPL-2.0-or-later
			# make check-kdump (tests/kdump/guest-level1.sh): a dump that keeps
			# user and page-cache pages (-d 1), where labprobe's markers must
			# be, less the GPU buffers that drm_shmem_filter leaves out; a
			# flattened stream at 256 MiB of the same disk.
			log "makedumpfile -F -l --message-level 7 -d 1 /proc/vmcore | dd of=$MDFDISK seek=256M"
			{
				makedumpfile -F -l --message-level 7 -d 1 /proc/vmcore 2> /tmp/crashlog/crash-mdf-d1.log
				echo "rc=$?" > /tmp/crashlog/crash-mdf-d1-rc.txt
			} | dd of="$MDFDISK" bs=1M seek=256 conv=fsync 2> /tmp/crashlog/crash-mdf-d1-dd.log
			sync
			log "makedumpfile -d 1: $(cat /tmp/crashlog/crash-mdf-d1-rc.txt)"
