#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make check-distro, step 4 (run by tests/distro/run.sh in a mount namespace
# of its own, as root): the kdump initramfs.  An overlay of the VM's cached
# Debian 12 root file system ($ROOTFS, left unchanged) becomes a chroot
# where apt installs our package, the test package (its two broken
# extensions) and Debian's dracut-core; there:
#  - mkinitramfs (MODULES=list, quick) builds an ordinary image, one with
#    MAKEDUMPFILE=y, one where another hook copied makedumpfile, and one
#    with the extensions directory writable by others;
#  - dracut (no kernel modules, quick) builds an ordinary image, one with
#    kdumpbase (a stand-in for kdump-utils' module: it installs
#    makedumpfile, as the real one does), one that adds
#    makedumpfile-extensions, and one with kdumpbase and the directory
#    writable by others.
# lsinitramfs and lsinitrd list each image.  In every image that holds
# makedumpfile: the extensions, root-owned and not writable by group or
# others, and the directories above them; unpacked, the image's own loader
# (ld.so --list, what ldd does) finds every library of makedumpfile and of
# each shipped extension, makedumpfile runs there, and (with the shared 6.1
# kdump dump) loads the shipped extensions while the two broken ones fail
# alone.  Ordinary images hold none of it; the untrusted directory is
# refused with a message and the image still built.
#
# env: DEB TESTDEB (the packages), ROOTFS, DISTRO (caches: apt-lists,
# apt-archives), VERSION, and what tests/lib.sh needs.
set -u
. "$(dirname "$0")/../lib.sh" || exit 2
: "${DEB:?}" "${TESTDEB:?}" "${ROOTFS:?}" "${DISTRO:?}" "${VERSION:?}"

I=$WORK/images
M=$I/root
EXT=/usr/lib64/makedumpfile/extensions
SHIPPED="amdgpu_filter drm_shmem_filter user_stack_keep"
rm -rf "$I" && mkdir -p "$I/upper" "$I/work" "$M"
mount -t overlay overlay -o "lowerdir=$ROOTFS,upperdir=$I/upper,workdir=$I/work" "$M" || {
	fail images-chroot "cannot mount an overlay of $ROOTFS"
	exit 0
}
mount -t proc proc "$M/proc"
mount --bind /dev "$M/dev"
mount -t sysfs sysfs "$M/sys"
# apt's lists and downloads persist in build/distro between runs.
mkdir -p "$DISTRO/apt-lists/partial" "$DISTRO/apt-archives/partial"
mount --bind "$DISTRO/apt-lists" "$M/var/lib/apt/lists"
mount --bind "$DISTRO/apt-archives" "$M/var/cache/apt/archives"
cp /etc/resolv.conf "$M/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$M/usr/sbin/policy-rc.d" && chmod 755 "$M/usr/sbin/policy-rc.d"
# Our package activates update-initramfs (it ships a hook): no images of the
# chroot's kernel are wanted here but the ones below.
sed -i 's/^update_initramfs=.*/update_initramfs=no/' "$M/etc/initramfs-tools/update-initramfs.conf"
mkdir -p "$M/tmp/debs" && cp "$DEB" "$TESTDEB" "$M/tmp/debs/"

in_root() {
	chroot "$M" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive "$@"
}
install_packages() {
	in_root apt-get install -y -q --no-install-recommends "/tmp/debs/${DEB##*/}" "/tmp/debs/${TESTDEB##*/}" dracut-core
}
if ! install_packages >"$I/apt.log" 2>&1; then
	in_root apt-get update -q >>"$I/apt.log" 2>&1
	install_packages >>"$I/apt.log" 2>&1
fi
if [ "$(in_root dpkg-query -W -f '${Version}' makedumpfile)" != "$(dpkg-deb -f "$DEB" Version)" ] ||
	! in_root sh -c 'command -v dracut && command -v mkinitramfs' >/dev/null; then
	fail images-chroot "apt could not install the packages and dracut-core: $(tail -n 3 "$I/apt.log")"
	exit 0
fi
pass images-chroot
KVER=$(basename "$(ls -d "$M"/lib/modules/* | sort -V | tail -n 1)")

# listing_trusted LISTING: the extensions directory, the directories above
# it and its .so files, as an "ls -l" listing of the image shows them
# (lsinitrd's, lsinitramfs -l's): owned by root, writable by neither group
# nor others (symbolic links, such as lib64 -> usr/lib64, have no mode).
listing_trusted() {
	awk -v ext="${EXT#/}" '
		/^l/ { next }
		{ path = $NF; sub(/^\.\//, "", path) }
		path == "usr" || path == "usr/lib64" || path == "usr/lib64/makedumpfile" || path == ext ||
		index(path, ext "/") == 1 {
			seen++
			if ($3 != "root" || substr($1, 6, 1) == "w" || substr($1, 9, 1) == "w") { print "untrusted: " $0; bad++ }
		}
		END { if (!seen) print "no such entries"; exit !(seen && !bad) }' "$1"
}

# holds LISTING NAME...: the listing has makedumpfile and each extension NAME.
holds() {
	local listing=$1 name missing=()
	shift
	grep -Eq ' (\./)?usr/s?bin/makedumpfile$' "$listing" || missing+=(makedumpfile)
	for name in "$@"; do
		grep -Eq " (\./)?${EXT#/}/$name\.so$" "$listing" || missing+=("$name.so")
	done
	[ ${#missing[@]} -eq 0 ] || { echo "not in the image: ${missing[*]}"; return 1; }
}

# unpacked_checks NAME DIR: the unpacked image DIR (a path inside $M)
# has its libraries (its own loader resolves them), runs makedumpfile, and
# runs it with the extensions on the shared dump.
unpacked_checks() {
	local name=$1 dir=$M$2 loader so mdf dump
	loader=$(cd "$dir" && find . -name 'ld-linux-x86-64.so.2' | head -n 1)
	mdf=$(cd "$dir" && ls usr/sbin/makedumpfile usr/bin/makedumpfile 2>/dev/null | head -n 1)
	if [ -z "$loader" ] || [ -z "$mdf" ]; then
		fail "$name-unpacked" "no loader or makedumpfile in the unpacked image"
		return
	fi
	{
		echo "== /$mdf"
		chroot "$dir" "${loader#.}" --list "/$mdf"
		for so in $SHIPPED distro_absent_lib; do
			echo "== $EXT/$so.so"
			chroot "$dir" "${loader#.}" --list "$EXT/$so.so"
		done
	} >"$I/$name-ldd.txt" 2>&1
	check "$name-libraries-found" test -z "$(sed '/== .*distro_absent_lib/,$d' "$I/$name-ldd.txt" | grep 'not found')" \
		-a "$(grep -c '^== ' "$I/$name-ldd.txt")" -eq 5
	check "$name-absent-library-seen" grep -Eq 'libmdfabsent.so.1(: cannot open shared object file| => not found)' \
		"$I/$name-ldd.txt"
	check "$name-runs-makedumpfile" grep -q "^makedumpfile: version $VERSION " <(chroot "$dir" "/$mdf" -v 2>&1)
	if dump=$(fixture 6.1-kdump.elf); then
		# /proc and /dev as a running initramfs has them.
		mkdir -p "$dir/proc" "$dir/dev" && touch "$dir/vmcore"
		mount -t proc proc "$dir/proc" && mount --bind /dev "$dir/dev" && mount --bind "$dump" "$dir/vmcore"
		chroot "$dir" "/$mdf" -F -c -d 31 /vmcore 2>"$I/$name-run.log" >/dev/null
		umount "$dir/vmcore" "$dir/dev" "$dir/proc"
		local missing=()
		for so in $SHIPPED; do
			grep -q "^Loaded extension: $EXT/$so.so$" "$I/$name-run.log" || missing+=("$so")
		done
		check "$name-extensions-load" test ${#missing[@]} -eq 0 \
			-a -n "$(grep "$EXT/distro_crash.so failed: crashed" "$I/$name-run.log")" \
			-a -n "$(grep "$EXT/distro_absent_lib.so failed: cannot load it" "$I/$name-run.log")" \
			-a -n "$(grep '^makedumpfile Completed.' "$I/$name-run.log")"
	else
		skip "$name-extensions-load" "no $VMCORES/6.1-kdump"
	fi
}

# -------------------------------------------------------- initramfs-tools --
conf=/tmp/initramfs-conf
in_root cp -a /etc/initramfs-tools "$conf"
sed -i 's/^MODULES=.*/MODULES=list/' "$M$conf/initramfs.conf"
mkinitramfs_image() {
	in_root mkinitramfs -d "$conf" -o "/tmp/$1.img" "$KVER" >"$I/$1.log" 2>&1
}
mkinitramfs_listing() {
	in_root lsinitramfs -l "/tmp/$1.img" >"$I/$1.list" 2>&1
}

check it-plain-builds mkinitramfs_image it-plain
mkinitramfs_listing it-plain
check it-plain-without-makedumpfile test -z "$(grep makedumpfile "$I/it-plain.list")"

echo MAKEDUMPFILE=y >"$M$conf/conf.d/makedumpfile"
check it-configured-builds mkinitramfs_image it-configured
mkinitramfs_listing it-configured
check it-configured-holds holds "$I/it-configured.list" $SHIPPED distro_crash distro_absent_lib
check it-configured-trusted listing_trusted "$I/it-configured.list"
check it-configured-says-absent-library grep -q "distro_absent_lib.so needs libmdfabsent.so.1" "$I/it-configured.log"
in_root unmkinitramfs /tmp/it-configured.img /tmp/it-configured >"$I/unmkinitramfs.log" 2>&1
if [ -d "$M/tmp/it-configured/main" ]; then
	unpacked_checks it-configured /tmp/it-configured/main
else
	unpacked_checks it-configured /tmp/it-configured
fi
rm "$M$conf/conf.d/makedumpfile"

# Another hook (sorted before ours) puts makedumpfile in.
cat >"$M/usr/share/initramfs-tools/hooks/a-distro-test" <<'EOF'
#!/bin/sh
[ "${1:-}" = prereqs ] && exit 0
. /usr/share/initramfs-tools/hook-functions
copy_exec /usr/bin/makedumpfile
EOF
chmod 755 "$M/usr/share/initramfs-tools/hooks/a-distro-test"
check it-other-hook-builds mkinitramfs_image it-other-hook
mkinitramfs_listing it-other-hook
check it-other-hook-holds holds "$I/it-other-hook.list" $SHIPPED
rm "$M/usr/share/initramfs-tools/hooks/a-distro-test"

# Writable by others: refused, said, the image built without it.
echo MAKEDUMPFILE=y >"$M$conf/conf.d/makedumpfile"
chmod o+w "$M$EXT"
check it-untrusted-builds mkinitramfs_image it-untrusted
mkinitramfs_listing it-untrusted
check it-untrusted-refused grep -q "W: makedumpfile: not copying $EXT into the initramfs: $EXT is writable by others" \
	"$I/it-untrusted.log"
check it-untrusted-not-copied test -n "$(grep -E ' usr/s?bin/makedumpfile$' "$I/it-untrusted.list")" \
	-a -z "$(grep "${EXT#/}/" "$I/it-untrusted.list")"
chmod o-w "$M$EXT"
rm "$M$conf/conf.d/makedumpfile"

# ------------------------------------------------------------------ dracut --
# A stand-in for kdump-utils' kdumpbase (RHEL, Fedora): not in Debian.
mkdir -p "$M/usr/lib/dracut/modules.d/99kdumpbase"
cat >"$M/usr/lib/dracut/modules.d/99kdumpbase/module-setup.sh" <<'EOF'
#!/bin/bash
# check-distro's stand-in for kdump-utils' kdumpbase: only when asked for,
# and it installs makedumpfile, as the real one does.
check() { return 255; }
depends() { return 0; }
install() { inst_multiple makedumpfile; }
EOF
dracut_image() {
	local name=$1
	shift
	in_root dracut --no-hostonly --no-kernel --force "$@" "/tmp/$name.img" "$KVER" >"$I/$name.log" 2>&1
}
lsinitrd_listing() {
	in_root lsinitrd "/tmp/$1.img" >"$I/$1.list" 2>&1
}

check dracut-plain-builds dracut_image dracut-plain
lsinitrd_listing dracut-plain
check dracut-plain-without-makedumpfile test -z "$(grep makedumpfile "$I/dracut-plain.list")"

for how in kdumpbase makedumpfile-extensions; do
	name=dracut-$how
	check "$name-builds" dracut_image "$name" --add "$how"
	lsinitrd_listing "$name"
	check "$name-holds" holds "$I/$name.list" $SHIPPED distro_crash distro_absent_lib
	check "$name-trusted" listing_trusted "$I/$name.list"
	check "$name-says-absent-library" grep -q "distro_absent_lib.so needs libmdfabsent.so.1, which this system lacks" \
		"$I/$name.log"
done
mkdir -p "$M/tmp/dracut-kdumpbase"
(cd "$M/tmp/dracut-kdumpbase" && chroot "$M" sh -c 'cd /tmp/dracut-kdumpbase && lsinitrd --unpack /tmp/dracut-kdumpbase.img') \
	>"$I/lsinitrd-unpack.log" 2>&1
unpacked_checks dracut-kdumpbase /tmp/dracut-kdumpbase

chmod o+w "$M$EXT"
check dracut-untrusted-builds dracut_image dracut-untrusted --add kdumpbase
lsinitrd_listing dracut-untrusted
check dracut-untrusted-refused grep -q "makedumpfile-extensions: not copying $EXT into the initramfs: $EXT is writable by others" \
	"$I/dracut-untrusted.log"
check dracut-untrusted-not-copied test -n "$(grep -E ' usr/s?bin/makedumpfile$' "$I/dracut-untrusted.list")" \
	-a -z "$(grep "${EXT#/}/" "$I/dracut-untrusted.list")"
chmod o-w "$M$EXT"

umount -R "$M" 2>/dev/null || umount -l "$M"
