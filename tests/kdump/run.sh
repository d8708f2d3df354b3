#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make check-kdump: our makedumpfile where the distributions run it, inside
# a real kdump crash kernel, booted under QEMU (TCG) by the shared lab
# (../shared/lab/mkvmcore-kdump.sh with MDF_BIN and MDF_EXTDIR): a Debian
# kernel panics with sysrq-c, and its crash kernel runs, from an initramfs
# holding this binary and the shipped extensions in
# /usr/lib64/makedumpfile/extensions:
#   makedumpfile --check-params -F -l --message-level 7 -d 31 /proc/vmcore
#   makedumpfile -F -l --message-level 7 -d 31 /proc/vmcore > DISK  (under time -v)
#   makedumpfile --dump-dmesg /proc/vmcore LOG
#   makedumpfile -F -l --message-level 7 -d 1 /proc/vmcore | dd of=DISK seek=256M
#   makedumpfile -F -l -d 31 --no-extensions [--non-mmap] /proc/vmcore | md5sum
# then copies /proc/vmcore raw with dd.  On the host it checks:
#  - the -d 31 and -d 1 dumps written in the crash kernel (streams
#    reassembled with our -R) equal, byte for byte, a host run of this binary
#    on the raw copy with the same options and extensions; upstream 1.7.2's
#    -R reassembles the same -d 31 file; without the extensions the host
#    run writes what upstream 1.7.2 writes;
#  - --check-params exited 0 and wrote nothing;
#  - /proc/vmcore is read through mmap windows, and each of three streams
#    so read, and of three with --non-mmap (read(2)), is the host's;
#  - --dump-dmesg in the crash kernel wrote what upstream 1.7.2 writes from
#    the raw copy, and holds the first kernel's own dmesg;
#  - labprobe's marker pages (its page list, from the first kernel) are in
#    the raw copy and in the -d 1 dump, and the vgem buffer's pages, which
#    drm_shmem_filter leaves out, are in the first and not the second.
# It prints the crash kernel's `time -v` figures of the -d 31 run (elapsed,
# maximum RSS) beside the host's, and, where ../shared/oracles has
# upstream's development head, the CPU of ours and of the head on
# /proc/vmcore with each codec, run in turn KDUMP_BENCH_ROUNDS times (3;
# 0 leaves the head out).  It ends with "N passed, N failed".
#
# Needs root, qemu-system-x86, kexec-tools, busybox-static, cpio, kmod
# (installed with apt-get when missing; install-deps.sh has them) and a
# Debian kernel package, fetched with `apt-get download` and unpacked into
# build/kdump/kernels, where later runs find it: by default the kernel of
# ../shared/vmcores/6.1-kdump when apt has it, else the one that
# linux-image-amd64 depends on; KDUMP_KERNEL_PKG=linux-image-... chooses.
# Where any of it cannot be had, it says SKIP and why, and exits 0.
#
# usage: MDF=BIN EXTDIR=DIR TOOLS=DIR tests/kdump/run.sh   (make check-kdump)
set -u
PROJECT=$(cd "$(dirname "$0")/../.." && pwd)
: "${MDF:?MDF must name the makedumpfile binary under test (make check-kdump sets it)}"
: "${EXTDIR:?EXTDIR must name the directory of the shipped extensions (make check-kdump sets it)}"
: "${TOOLS:?TOOLS must name the directory of the built test tools (make check-kdump sets it)}"
KDUMP=$PROJECT/build/kdump
KERNELS=$KDUMP/kernels
export WORK=$KDUMP/run
export RESULTS=$WORK/results
rm -rf "$WORK" && mkdir -p "$WORK"
: >"$RESULTS"
. "$PROJECT/tests/lib.sh" || exit 2
LAB=$WORK/lab
CAPTURE=$WORK/capture
HOST=$WORK/host
# Debian's makedumpfile package (1.7.2) installs it in /usr/bin.
UPSTREAM=$(PATH=/usr/bin:/usr/sbin command -v makedumpfile)
# Upstream's development head, timed beside ours in the crash kernel.
UPSTREAM_HEAD=$SHARED/oracles/upstream-head/makedumpfile

skip_all() {
	skip kdump "$1"
	summarize_results
	exit 0
}

# ---- the host's tools: each command with the Debian package that has it ----
need_tools() {
	local missing=() packages=() entry
	for entry in qemu-system-x86_64:qemu-system-x86 kexec:kexec-tools cpio:cpio \
		modprobe:kmod depmod:kmod dpkg-deb:dpkg file:file readelf:binutils zstd:zstd; do
		PATH=$PATH:/sbin:/usr/sbin command -v "${entry%%:*}" >/dev/null ||
			{ missing+=("${entry%%:*}"); packages+=("${entry#*:}"); }
	done
	# mkinitramfs.sh copies /bin/busybox into the initramfs: it must be static.
	file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' ||
		{ missing+=("a static /bin/busybox"); packages+=(busybox-static); }
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "installing ${packages[*]} (for ${missing[*]})"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		$(printf '%s\n' "${packages[@]}" | sort -u) >"$WORK/apt-install.log" 2>&1 ||
		skip_all "cannot install ${packages[*]} with apt-get: $(tail -n 1 "$WORK/apt-install.log")"
}

# ---- the kernel: a Debian package, unpacked once into $KERNELS/PACKAGE ----
kernel_package() {
	local release cached
	if [ -n "${KDUMP_KERNEL_PKG:-}" ]; then
		echo "$KDUMP_KERNEL_PKG"
		return
	fi
	release=$(sed -n 's/^OSRELEASE=//p' "$VMCORES/6.1-kdump/vmcoreinfo.txt" 2>/dev/null)
	if [ -n "$release" ] && [ -e "$KERNELS/linux-image-$release/.complete" ]; then
		echo "linux-image-$release"
		return
	fi
	cached=$(ls -d "$KERNELS"/linux-image-*/.complete 2>/dev/null | sort -V | tail -n 1)
	if [ -n "$cached" ]; then
		basename "$(dirname "$cached")"
	elif [ -n "$release" ] && apt-cache show "linux-image-$release" >/dev/null 2>&1; then
		echo "linux-image-$release"
	else
		apt-cache depends linux-image-amd64 2>/dev/null |
			sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1
	fi
}

# fetch_kernel PACKAGE RELEASE: $KERNELS/PACKAGE with the kernel image and
# its modules (depmod run), or status 1 with the reason in $WORK/kernel.log.
fetch_kernel() {
	local dir=$KERNELS/$1 download=$KERNELS/download status
	[ -e "$dir/.complete" ] && return 0
	rm -rf "$dir" "$download" && mkdir -p "$download"
	unpack_kernel "$@" >"$WORK/kernel.log" 2>&1
	status=$?
	rm -rf "$download"
	[ $status -eq 0 ] && touch "$dir/.complete"
}

unpack_kernel() {
	local package=$1 release=$2 dir=$KERNELS/$1 download=$KERNELS/download
	# apt-get download writes to the current directory, where _apt may not write.
	(cd "$download" && apt-get -q -o APT::Sandbox::User=root download "$package") || return 1
	dpkg-deb -x "$download"/*.deb "$dir" || return 1
	# A merged-/usr package has its modules under usr/lib: depmod -b wants lib/.
	if [ ! -d "$dir/lib/modules/$release" ] && [ -d "$dir/usr/lib/modules/$release" ]; then
		mkdir -p "$dir/lib/modules" && ln -s "../../usr/lib/modules/$release" "$dir/lib/modules/$release"
	fi
	PATH=$PATH:/sbin:/usr/sbin depmod -b "$dir" "$release" || return 1
	[ -f "$dir/boot/vmlinuz-$release" ] || { echo "$package has no boot/vmlinuz-$release"; return 1; }
}

# ---- the lab: a copy of ../shared/lab whose guest also runs our extra steps ----
# patch_lab FILE PATTERN SNIPPET: insert SNIPPET after the one line of the
# lab's copied FILE that matches PATTERN (a sed BRE); fail where it is not
# one line.
patch_lab() {
	local file=$LAB/$1 pattern=$2 snippet=$3
	[ "$(grep -c -- "$pattern" "$file")" -eq 1 ] || return 1
	sed -i -e "\\|$pattern|r $snippet" "$file"
}

# time_figure FILE LABEL: the value of a `time -v` line (GNU's and busybox's form)
time_figure() {
	sed -n "s/^[[:space:]]*$2.*: //p" "$1" 2>/dev/null | tail -n 1
}

# labprobe_pages KIND [all]: how many pages of KIND labprobe filled and
# found present in its page tables (with "all", also those it could not
# see there: the vgem buffer's, a PFN mapping)
labprobe_pages() {
	awk -v kind="$1" -v all="${2:-}" '$1 == kind && (all != "" || $3 !~ /^notpresent/) { n++ }
		END { print n + 0 }' "$CAPTURE/guest/labprobe-pfns.txt"
}

# ------------------------------------------------------------------ main --
# The crash kernel's makedumpfile trusts only root-owned extensions, and
# the lab's mkinitramfs.sh installs them so (install -o root).
[ "$(id -u)" -eq 0 ] || skip_all "not root: the crash initramfs needs root-owned extensions (mkinitramfs.sh)"
[ -d "$SHARED/lab" ] || skip_all "no $SHARED/lab (the shared lab scripts)"
[ -n "$UPSTREAM" ] || skip_all "no upstream makedumpfile (the oracle): ./install-deps.sh installs it"
$PYTHON -c 'import kdumpfile' 2>/dev/null ||
	skip_all "no libkdumpfile for $PYTHON (python3-libkdumpfile): ./install-deps.sh installs it"
compgen -G "$EXTDIR/*.so" >/dev/null || skip_all "no extensions in $EXTDIR (make extensions)"
need_tools

package=$(kernel_package)
[ -n "$package" ] || skip_all "no Debian kernel package known to apt (apt-get update?)"
release=${package#linux-image-}
echo "kernel: $package"
fetch_kernel "$package" "$release" ||
	skip_all "cannot get $package (no network?): $(tail -n 1 "$WORK/kernel.log")"
kdir=$KERNELS/$package
moddir=$kdir/lib/modules/$release

cp -r "$SHARED/lab" "$LAB" && chmod -R u+w "$LAB"
if ! patch_lab guest-init.sh '^[[:space:]]*if \[ -n "\$MDFDISK" \] && \[ -x /usr/sbin/makedumpfile \]; then$' \
		"$PROJECT/tests/kdump/guest-check-params.sh" ||
	! patch_lab guest-init.sh '^[[:space:]]*tail -n 5 /tmp/crashlog/crash-mdf-dump-dmesg.log$' \
		"$PROJECT/tests/kdump/guest-level1.sh" ||
	! patch_lab guest-init.sh '^[[:space:]]*tail -n 5 /tmp/crashlog/crash-mdf-dump-dmesg.log$' \
		"$PROJECT/tests/kdump/guest-mmap.sh"; then
	fail kdump-lab "$SHARED/lab/guest-init.sh changed: tests/kdump/run.sh cannot add its steps to it"
	summarize_results
	exit 1
fi
# Upstream's head beside ours in the crash kernel, where it is there.
bench_rounds=${KDUMP_BENCH_ROUNDS:-3}
head_bin=
if [ -x "$UPSTREAM_HEAD" ] && [ "$bench_rounds" -gt 0 ]; then
	head_bin=$(readlink -f "$UPSTREAM_HEAD")
	sed "s/@ROUNDS@/$bench_rounds/" "$PROJECT/tests/kdump/guest-bench.sh" >"$WORK/guest-bench.sh"
	if ! patch_lab mkinitramfs.sh '^[[:space:]]*ldd "\$MDF_BIN" . sed .s/^/  /.$' \
			"$PROJECT/tests/kdump/initramfs-upstream-head.sh" ||
		! patch_lab guest-init.sh '^[[:space:]]*tail -n 5 /tmp/crashlog/crash-mdf-dump-dmesg.log$' \
			"$WORK/guest-bench.sh"; then
		fail kdump-lab "$SHARED/lab/mkinitramfs.sh or guest-init.sh changed: tests/kdump/run.sh cannot add upstream's head"
		summarize_results
		exit 1
	fi
else
	echo "upstream's head: no $UPSTREAM_HEAD (or KDUMP_BENCH_ROUNDS=0): the crash kernel runs ours alone"
fi

# The shipped extensions as an install lays them out (0644 in a 0755 directory).
extensions=$(extension_dir extensions "$EXTDIR" $(cd "$EXTDIR" && ls *.so | sed 's/\.so$//'))

echo "capture: booting $release under QEMU (TCG), kdump, crash kernel runs $MDF"
start=$(date +%s)
MDF_BIN=$MDF MDF_EXTDIR=$extensions MDF_UPSTREAM_HEAD=$head_bin MDF_DISK_MB=1024 BOOT_TIMEOUT=${KDUMP_TIMEOUT:-900} \
	"$LAB/mkvmcore-kdump.sh" -k "$kdir/boot/vmlinuz-$release" -m "$moddir" -o "$CAPTURE" \
	>"$WORK/capture.log" 2>&1
status=$?
echo "capture: $(($(date +%s) - start)) s (boot, panic, crash kernel, copy of /proc/vmcore)"
if [ $status -ne 0 ] || [ ! -s "$CAPTURE/vmcore.elf" ]; then
	fail kdump-capture "mkvmcore-kdump.sh exit status $status: $(tail -n 5 "$WORK/capture.log")"
	summarize_results
	exit 1
fi
pass kdump-capture
crash=$CAPTURE/crash
vmcore=$CAPTURE/vmcore.elf
mkdir -p "$HOST"

# --check-params, first, with the run's options: exit 0, nothing written.
check kdump-check-params grep -qx 'rc=0 stdout-bytes=0' "$crash/crash-check-params-rc.txt"

# The -d 31 run as RHEL's kdump makes it, every shipped extension loaded
# from the compiled-in directory.
check kdump-guest-run grep -qx 'rc=0 .*' "$crash/crash-mdf-rc.txt"
for so in "$extensions"/*.so; do
	check "kdump-guest-loaded-$(basename "$so" .so)" \
		grep -qx "Loaded extension: /usr/lib64/makedumpfile/extensions/$(basename "$so")" "$crash/crash-mdf.log"
done

# host_run NAME OPTION...: this binary on the raw copy into $HOST/NAME.kdump
# (time -v figures in NAME.time where GNU time is there).
host_run() {
	local name=$1 timer=()
	shift
	[ -x /usr/bin/time ] && timer=(/usr/bin/time -v -o "$HOST/$name.time")
	"${timer[@]}" "$MDF" "$@" "$vmcore" "$HOST/$name.kdump" >"$HOST/$name.log" 2>&1
}

# (a) The crash kernel's dumps, reassembled, are the host's runs of them.
"$MDF" -R "$HOST/guest-d31.kdump" <"$CAPTURE/labmdf.img" >"$HOST/guest-d31-R.log" 2>&1
check kdump-d31-reassembled test -s "$HOST/guest-d31.kdump"
host_run host-d31 -l --message-level 7 -d 31 --extension-dir "$extensions"
check kdump-d31-equals-host cmp "$HOST/guest-d31.kdump" "$HOST/host-d31.kdump"
"$UPSTREAM" -R "$HOST/upstream-R-d31.kdump" <"$CAPTURE/labmdf.img" >"$HOST/upstream-R-d31.log" 2>&1
check kdump-d31-upstream-reassembles cmp "$HOST/guest-d31.kdump" "$HOST/upstream-R-d31.kdump"
host_run host-d31-noext -l --message-level 7 -d 31 --no-extensions
"$UPSTREAM" -l --message-level 7 -d 31 "$vmcore" "$HOST/upstream-d31.kdump" >"$HOST/upstream-d31.log" 2>&1
check kdump-d31-noext-equals-upstream cmp "$HOST/host-d31-noext.kdump" "$HOST/upstream-d31.kdump"

check kdump-d1-guest-run grep -qx 'rc=0' "$crash/crash-mdf-d1-rc.txt"
dd if="$CAPTURE/labmdf.img" bs=1M skip=256 status=none |
	"$MDF" -R "$HOST/guest-d1.kdump" >"$HOST/guest-d1-R.log" 2>&1
host_run host-d1 -l --message-level 7 -d 1 --extension-dir "$extensions"
check kdump-d1-equals-host cmp "$HOST/guest-d1.kdump" "$HOST/host-d1.kdump"

# (c) /proc/vmcore read through mmap windows (the default, which the
# debug message confirms) and with --non-mmap (read(2)): one stream, the
# host's stream of the raw copy.
check kdump-mmap-used grep -q 'read through mmap(2) windows' "$crash/crash-mmap-1.log"
"$MDF" -F -l -d 31 --no-extensions "$vmcore" 2>/dev/null | md5sum >"$HOST/host-stream.md5"
for i in 1 2 3; do
	check "kdump-mmap-equals-host-$i" cmp "$crash/crash-mmap-$i.md5" "$HOST/host-stream.md5"
	check "kdump-non-mmap-equals-host-$i" cmp "$crash/crash-non-mmap-$i.md5" "$HOST/host-stream.md5"
done

# (b) --dump-dmesg in the crash kernel: upstream's, and the first kernel's own log.
"$UPSTREAM" --dump-dmesg "$vmcore" "$HOST/upstream-dmesg.txt" >"$HOST/upstream-dmesg.log" 2>&1
check kdump-dmesg-upstream cmp "$crash/crash-mdf-dmesg.txt" "$HOST/upstream-dmesg.txt"
check kdump-dmesg-guest-lines $PYTHON "$PROJECT/tests/py/dmesgcheck.py" "$crash/crash-mdf-dmesg.txt" \
	"$CAPTURE/guest/dmesg.txt"

# (d) labprobe's markers: in the raw copy; in the -d 1 dump but for the
# vgem buffer's, which drm_shmem_filter leaves out (a host run without
# the extensions keeps them); in the -d 31 dump, none (user and cache pages go).
anon=$(labprobe_pages anon)
pagecache=$(labprobe_pages pagecache)
vgem=$(labprobe_pages vgem all)
check kdump-labprobe-pages test "$anon" -gt 0 -a "$pagecache" -gt 0 -a "$vgem" -gt 0
python3 "$LAB/vmcore-inspect.py" markers "$vmcore" "$CAPTURE/guest/labprobe-pfns.txt" >"$HOST/markers-raw.txt" 2>&1
$PYTHON "$LAB/e2e-pfnset.py" markers "$HOST/guest-d1.kdump" "$CAPTURE/guest/labprobe-pfns.txt" \
	>"$HOST/markers-d1.txt" 2>&1
$PYTHON "$LAB/e2e-pfnset.py" markers "$HOST/guest-d31.kdump" >"$HOST/markers-d31.txt" 2>&1
host_run host-d1-noext -l --message-level 7 -d 1 --no-extensions
$PYTHON "$LAB/e2e-pfnset.py" markers "$HOST/host-d1-noext.kdump" >"$HOST/markers-d1-noext.txt" 2>&1
raw_vgem=$(sed -n 's/^vgem .* page-start=\([0-9]*\).*/\1/p' "$HOST/markers-raw.txt")
check kdump-markers-raw grep -q "^anon .*labprobe-pages-present=$anon/$anon$" "$HOST/markers-raw.txt"
check kdump-markers-raw-pagecache grep -q "^pagecache .*labprobe-pages-present=$pagecache/$pagecache$" \
	"$HOST/markers-raw.txt"
check kdump-markers-raw-vgem test "${raw_vgem:-0}" -ge "$vgem"
check kdump-markers-d1-anon grep -Eq "^ *anon .*labprobe-pages-present=$anon/$anon$" "$HOST/markers-d1.txt"
check kdump-markers-d1-pagecache grep -Eq "^ *pagecache .*labprobe-pages-present=$pagecache/$pagecache$" \
	"$HOST/markers-d1.txt"
check kdump-markers-d1-no-vgem grep -Eq '^ *vgem .* page-start-pfns=0 ' "$HOST/markers-d1.txt"
check kdump-markers-d1-noext-vgem grep -Eq "^ *vgem .* page-start-pfns=$vgem " "$HOST/markers-d1-noext.txt"
check kdump-markers-d31-none test "$(grep -Ec ' page-start-pfns=0 ' "$HOST/markers-d31.txt")" -eq 3

# The run's time and memory, printed, never asserted.  The crash kernel
# measures with busybox's time (the lab's initramfs has no other), which
# takes ru_maxrss for a count of pages and multiplies it by the page size
# in kB: its "Maximum resident set size" is 4 times the real one on
# x86_64 (busybox time -v and GNU time -v of one command on the host
# print 6656 and 1664), so the true figure is printed beside it.
t=$crash/crash-mdf-time.txt
busybox_rss=$(time_figure "$t" 'Maximum resident set size')
echo "crash kernel (MemTotal $(sed -n 's/^MemTotal: *//p' "$crash/crash-mdf-env.txt" | head -n 1)):" \
	"makedumpfile -F -l --message-level 7 -d 31 /proc/vmcore: elapsed $(time_figure "$t" Elapsed)," \
	"max RSS $((${busybox_rss:-0} / ($(getconf PAGESIZE) / 1024))) kB (busybox time says $busybox_rss)," \
	"user $(time_figure "$t" 'User time') s, system $(time_figure "$t" 'System time') s"
t=$HOST/host-d31.time
[ -f "$t" ] && echo "host: the same run on the raw copy: elapsed $(time_figure "$t" Elapsed)," \
	"max RSS $(time_figure "$t" 'Maximum resident set size') kB," \
	"user $(time_figure "$t" 'User time') s, system $(time_figure "$t" 'System time') s"
for how in mmap non-mmap; do
	read_how="through mmap windows"
	[ "$how" = mmap ] || read_how="with read(2) (--non-mmap)"
	figures=
	for i in 1 2 3; do
		t=$crash/crash-$how-$i.log
		figures="$figures $(time_figure "$t" Elapsed | sed 's/^0m //') ($(time_figure "$t" 'User time') +"
		figures="$figures $(time_figure "$t" 'System time'));"
	done
	echo "crash kernel, -d 31 --no-extensions, /proc/vmcore read $read_how, elapsed (user + system):$figures"
done
# cpu_seconds FILE: user + system seconds of one busybox `time -v` file
cpu_seconds() {
	awk -F': ' '/User time|System time/ { t += $2 } END { printf "%.2f", t }' "$1"
}

# median VALUE...: the middle one of the values (the lower middle of an even count)
median() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# Ours against upstream's head in the crash kernel: each codec's median CPU
# (user + system) over the rounds, and ours/head of the medians.  Ours must
# have run; upstream's head failing is reported, not ours to fail.
if [ -n "$head_bin" ]; then
	echo "crash kernel, -F -d 31 /proc/vmcore > /dev/null (ours with --no-extensions), CPU seconds, median of $bench_rounds rounds:"
	for codec in none l z c; do
		ours=() head=() head_failed=0
		for round in $(seq 1 "$bench_rounds"); do
			t=$crash/bench-ours-$codec-$round.txt
			check "kdump-bench-ours-$codec-$round" grep -qx 'rc=0' "$t"
			ours+=("$(cpu_seconds "$t")")
			t=$crash/bench-head-$codec-$round.txt
			grep -qx 'rc=0' "$t" 2>/dev/null || head_failed=1
			head+=("$(cpu_seconds "$t")")
		done
		ours_median=$(median "${ours[@]}")
		head_median=$(median "${head[@]}")
		ratio=$(awk -v o="$ours_median" -v h="$head_median" 'BEGIN { if (h > 0) printf "%.2f", o / h; else print "-" }')
		printf '  %-8s ours %6s s (%s)  head %6s s (%s)  ours/head %s%s\n' "${codec/#none/no codec}" \
			"$ours_median" "${ours[*]}" "$head_median" "${head[*]}" "$ratio" \
			"$([ $head_failed -eq 0 ] || echo "  (upstream's head failed: $crash/bench-head-$codec-*.log)")"
	done
fi
echo "files: $WORK"
summarize_results
