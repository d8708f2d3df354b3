	# SPDX-License-Identifier: GPL-2.0-or-later
	# make check-kdump (tests/kdump/initramfs-upstream-head.sh): upstream's
	# development head (env MDF_UPSTREAM_HEAD) in /opt/upstream-head with the
	# libbpf beside it, which its RUNPATH ($ORIGIN) finds, and the system
	# libraries it needs, for the crash kernel's comparison runs.
	if [ -n "${MDF_UPSTREAM_HEAD:-}" ]; then
		mkdir -p "$R/opt/upstream-head"
		install -m 0755 "$MDF_UPSTREAM_HEAD" "$R/opt/upstream-head/makedumpfile"
		for lib in $(ldd "$MDF_UPSTREAM_HEAD" | grep -o '/[^ ]*'); do
			case $lib in
			"$(dirname "$MDF_UPSTREAM_HEAD")"/*) cp -L "$lib" "$R/opt/upstream-head/" ;;
			*) mkdir -p "$R$(dirname "$lib")"; [ -e "$R$lib" ] || cp -L "$lib" "$R$lib" ;;
			esac
		done
		echo "upstream's head: $MDF_UPSTREAM_HEAD -> /opt/upstream-head/makedumpfile"
	fi
