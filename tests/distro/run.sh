#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make check-distro: the packages, the kdump initramfs, and Debian 12's own
# kdump-tools running our makedumpfile end to end.
#
# 1. Packages, built from a copy of the tree (git's files, committed or
#    not) in build/distro/src: dpkg-buildpackage -us -uc -b (debian/) and
#    rpmbuild -bb --nodeps (packaging/rpm; --nodeps: Debian's rpm has no
#    database of the Fedora packages the spec builds with).  Checked:
#    Build-Depends name the package of every header the program
#    includes; lintian reports no error; each package holds what it must, where
#    Debian's and Fedora's makedumpfile put it; the .deb's Depends name
#    the Debian package of every library the binary links with (dpkg -S
#    of what ldd finds), and libsnappy1v5, which it opens at run time; its
#    version is newer than Debian's makedumpfile; the -dev package builds
#    an extension with pkg-config alone.
# 2. A test package (makedumpfile-distro-test, built here) puts two broken
#    extensions into the packaged directory, one that crashes and one that
#    needs a library the system lacks, and a unit that, in the crash
#    kernel, measures each makedumpfile process from outside
#    (tests/distro/observer.c: elapsed time, peak RSS).
# 3. Debian's kdump-tools, unmodified, in a VM: ../shared/lab/debian-kdump-vm.sh
#    (mmdebstrap root file system cached in build/distro/vm, QEMU TCG,
#    crashkernel=256M, labprobe's marker pages, sysrq-c) with both .debs in
#    EXTRA_DEBS.  The host then checks, with readers of its own: the dump
#    and dmesg kdump-tools saved exist and kdump-tools did not fall back to
#    cp; the flattened dump reassembles with the package's makedumpfile -R,
#    its makedumpfile-R.pl and Debian's makedumpfile 1.7.2, all three into
#    one file, complete, that libkdumpfile reads (tests/distro/dumpcheck.py)
#    with the kernel's pages and without labprobe's anonymous, page-cache
#    and vgem marker pages; the shipped drm_shmem_filter ran in the crash
#    kernel, and the two broken extensions failed there alone; the saved
#    dmesg is what Debian's makedumpfile --dump-dmesg reads from the
#    reassembled dump, and holds the first kernel's own dmesg; the image
#    ran the package's makedumpfile (its version in dpkg's database, its
#    binary's digest, its lines in kdump-tools' log).
# 4. The kdump initramfs (tests/distro/images.sh, in a chroot of the VM's
#    cached root file system with the packages installed): dracut and
#    mkinitramfs images, listed with lsinitrd and lsinitramfs.
# It prints the figures of the run (boot to crash kernel loaded, the crash
# kernel's save, dump size, makedumpfile's elapsed time and peak RSS there)
# and ends with "N passed, N failed".
#
# Needs root (chroots, mmdebstrap), QEMU, debhelper, lintian, rpm and
# mmdebstrap (apt-get installs what is missing; install-deps.sh has them)
# and the Debian mirror of the host's apt sources; what cannot run says
# SKIP and why.  Downloads are kept under build/distro: the root file
# system (about 0.7 GB), apt's lists and archives for the chroot.
#
# usage: MDF=BIN TOOLS=DIR tests/distro/run.sh   (make check-distro)
set -u
PROJECT=$(cd "$(dirname "$0")/../.." && pwd)
: "${MDF:?MDF must name the makedumpfile binary (make check-distro sets it)}"
: "${TOOLS:?TOOLS must name the directory of the built test tools (make check-distro sets it)}"
DISTRO=$PROJECT/build/distro
export WORK=$DISTRO/run
export RESULTS=$WORK/results
rm -rf "$WORK" && mkdir -p "$WORK"
: >"$RESULTS"
. "$PROJECT/tests/lib.sh" || exit 2
export DISTRO
# Debian's makedumpfile (1.7.2), which install-deps.sh installs: an oracle.
UPSTREAM=$(PATH=/usr/bin command -v makedumpfile)
VERSION=$(sed -n 's/^#define MDF_VERSION "\(.*\)"$/\1/p' "$PROJECT/util/version.h")
API=$(sed -n 's/^#define MDF_EXTENSION_API_VERSION \([0-9]*\)$/\1/p' "$PROJECT/include/makedumpfile-extension.h")
START=$(date +%s)

elapsed() { echo "$(($(date +%s) - $1)) s"; }

# need COMMAND:PACKAGE...: install the packages of the missing commands
# (as root); status 1 with the reason in $WHY when they cannot be had.
need() {
	local missing=() packages=() entry
	for entry in "$@"; do
		PATH=$PATH:/sbin:/usr/sbin command -v "${entry%%:*}" >/dev/null ||
			{ missing+=("${entry%%:*}"); packages+=("${entry#*:}"); }
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		WHY="no ${missing[*]} (${packages[*]}), and not root to install them"
		return 1
	fi
	echo "installing ${packages[*]} (for ${missing[*]})"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		$(printf '%s\n' "${packages[@]}" | sort -u) >>"$WORK/apt-install.log" 2>&1 && return 0
	WHY="cannot install ${packages[*]}: $(tail -n 1 "$WORK/apt-install.log")"
	return 1
}

# has_paths LISTING PATH...: each PATH (a grep -x pattern) is a line of LISTING.
has_paths() {
	local listing=$1 path missing=()
	shift
	for path in "$@"; do
		grep -qx -- "$path" "$listing" || missing+=("$path")
	done
	[ ${#missing[@]} -eq 0 ] || { echo "missing: ${missing[*]}"; return 1; }
}

# ------------------------------------------------------------ packages --
SRC=$DISTRO/src
TREE=$SRC/makedumpfile-$VERSION
DEBVERSION=$(cd "$PROJECT" && dpkg-parsechangelog -S Version 2>/dev/null)
DEB_FILE_VERSION=${DEBVERSION#*:}
DEB=$SRC/makedumpfile_${DEB_FILE_VERSION}_amd64.deb
DEVDEB=$SRC/makedumpfile-dev_${DEB_FILE_VERSION}_all.deb
RPMTOP=$DISTRO/rpm

# The versions the packages carry are the program's and the header's.
upstream_part=${DEBVERSION#*:}
check distro-version-debian test "${upstream_part%-*}" = "$VERSION"
check distro-version-rpm grep -qx "Version: *$VERSION" "$PROJECT/packaging/rpm/makedumpfile.spec"
check distro-extension-api-rpm grep -qx "%global extension_api $API" "$PROJECT/packaging/rpm/makedumpfile.spec"

# Build-Depends: the package of each header the program includes (where cc
# finds it, as dpkg -S names it) is listed, unless build-essential has it.
build_depends_cover_headers() {
	local depends header path package missing=()
	depends=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$PROJECT/debian/control" |
		sed 's/^Build-Depends://; /^[A-Z]/d' | tr ',' '\n' | sed 's/^ *//; s/[ (].*//' | grep .)
	for header in $(cd "$PROJECT" && git ls-files -co --exclude-standard -- '*.[ch]' ':!tests' ':!bench' |
		xargs sed -n 's/^#include <\([^>]*\)>.*/\1/p' | sort -u); do
		path=$(echo "#include <$header>" | cc -D_GNU_SOURCE -E -H -x c - 2>&1 >/dev/null | sed -n '1s/^\. //p')
		package=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | cut -d: -f1 | head -n 1)
		case $package in
		libc6-dev | linux-libc-dev | libgcc-*-dev) ;;
		*) grep -qx -- "$package" <<<"$depends" || missing+=("<$header> (${package:-no package})") ;;
		esac
	done
	[ ${#missing[@]} -eq 0 ] || { echo "not in Build-Depends: ${missing[*]}"; return 1; }
}
check deb-build-depends-headers build_depends_cover_headers

# The tree as git has it (with changes not yet committed), as a packager's
# source tarball would hold it.
rm -rf "$SRC" "$RPMTOP" && mkdir -p "$TREE" "$RPMTOP/SOURCES"
(cd "$PROJECT" && git ls-files -co --exclude-standard -z | tar -c --null -T -) | tar -x -C "$TREE"
tar -czf "$RPMTOP/SOURCES/makedumpfile-$VERSION.tar.gz" -C "$SRC" "makedumpfile-$VERSION"

debs_built=
if need dpkg-buildpackage:dpkg-dev dh:debhelper fakeroot:fakeroot; then
	t0=$(date +%s)
	if (cd "$TREE" && DEB_BUILD_OPTIONS=parallel=2 dpkg-buildpackage -us -uc -b) >"$WORK/dpkg-buildpackage.log" 2>&1 &&
		[ -s "$DEB" ] && [ -s "$DEVDEB" ]; then
		pass deb-build
		debs_built=1
	else
		fail deb-build "$(tail -n 5 "$WORK/dpkg-buildpackage.log")"
	fi
	echo "dpkg-buildpackage: $(elapsed "$t0")"
else
	skip deb-build "$WHY"
fi

if [ -n "$debs_built" ]; then
	if need lintian:lintian; then
		lintian --fail-on error "$SRC"/makedumpfile_"${DEB_FILE_VERSION}"_amd64.changes >"$WORK/lintian.log" 2>&1
		status=$?
		if [ $status -eq 0 ] && ! grep -q '^E: ' "$WORK/lintian.log"; then
			pass deb-lintian-no-errors
		else
			fail deb-lintian-no-errors "status $status: $(grep '^E: ' "$WORK/lintian.log" | head -n 3)"
		fi
		echo "lintian: $(grep -c '^E: ' "$WORK/lintian.log") errors, $(grep -c '^W: ' "$WORK/lintian.log") warnings" \
			"(overridden: see debian/*.lintian-overrides)"
	else
		skip deb-lintian-no-errors "$WHY"
	fi

	dpkg-deb -c "$DEB" | awk '{ print $6 }' | sed 's|^\./|/|' >"$WORK/deb-files.txt"
	check deb-files has_paths "$WORK/deb-files.txt" /usr/bin/makedumpfile /usr/bin/makedumpfile-R.pl \
		/usr/share/man/man8/makedumpfile.8.gz /usr/share/man/man8/makedumpfile-R.pl.8.gz \
		/usr/share/man/man5/makedumpfile.conf.5.gz /usr/share/makedumpfile/makedumpfile.conf.sample \
		/usr/lib64/makedumpfile/extensions/amdgpu_filter.so /usr/lib64/makedumpfile/extensions/drm_shmem_filter.so \
		/usr/lib64/makedumpfile/extensions/user_stack_keep.so \
		/usr/lib64/makedumpfile/eppic_scripts/proc_names.so /usr/lib64/makedumpfile/eppic_scripts/dir_names.so \
		/usr/lib64/makedumpfile/eppic_scripts/keyring.so /usr/lib64/makedumpfile/eppic_scripts/socket_buffers.so \
		/usr/share/makedumpfile/eppic_scripts/README \
		/usr/lib/dracut/modules.d/99makedumpfile-extensions/module-setup.sh \
		/usr/share/initramfs-tools/hooks/makedumpfile
	dpkg-deb -c "$DEVDEB" | awk '{ print $6 }' | sed 's|^\./|/|' >"$WORK/dev-files.txt"
	check deb-dev-files has_paths "$WORK/dev-files.txt" /usr/include/makedumpfile-extension.h \
		/usr/include/makedumpfile/makedumpfile.h /usr/include/makedumpfile/kallsyms.h \
		/usr/include/makedumpfile/btf_info.h /usr/include/makedumpfile/extension.h \
		/usr/include/makedumpfile/erase_info.h /usr/include/makedumpfile/makedumpfile.ld \
		/usr/share/pkgconfig/makedumpfile-extension.pc /usr/share/pkgconfig/makedumpfile.pc \
		'/usr/share/doc/makedumpfile-dev/extension-guide.md\(.gz\)\?'

	# Newer than the archive's makedumpfile, which it replaces.
	archive=$(apt-cache show makedumpfile 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n 1)
	if [ -n "$archive" ]; then
		check deb-newer-than-debian dpkg --compare-versions "$(dpkg-deb -f "$DEB" Version)" gt "$archive"
	else
		skip deb-newer-than-debian "apt knows no makedumpfile package"
	fi
	check deb-provides-extension-api test "$(dpkg-deb -f "$DEB" Provides)" = "makedumpfile-extension-api (= $API)"

	# Depends: the package of each library the binary links with (its
	# DT_NEEDED), as dpkg -S names the file ldd finds for it
	# (dpkg-shlibdeps' job, checked another way), and libsnappy1v5 for dlopen.
	DEBROOT=$WORK/deb-root
	rm -rf "$DEBROOT" && dpkg-deb -x "$DEB" "$DEBROOT" && dpkg-deb -x "$DEVDEB" "$DEBROOT"
	depends=$(dpkg-deb -f "$DEB" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' | sort -u)
	needed=$(readelf -d "$DEBROOT/usr/bin/makedumpfile" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' |
		while read -r soname; do
			lib=$(ldd "$DEBROOT/usr/bin/makedumpfile" | sed -n "s/^[[:space:]]*$soname => \\(\\/[^ ]*\\) .*/\\1/p")
			dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "$lib"
		done | sed 's/:.*//' | sort -u)
	{ echo "Depends: $depends"; echo "libraries' packages: $needed"; } >"$WORK/deb-depends.txt"
	check deb-depends-libraries test -n "$needed" -a -z "$(comm -13 <(echo "$depends") <(echo "$needed"))"
	check deb-depends-libsnappy grep -qx libsnappy1v5 <<<"$depends"
	check deb-binary-version grep -q "^makedumpfile: version $VERSION " <("$DEBROOT/usr/bin/makedumpfile" -v)

	# The -dev package alone builds an extension (pkg-config, the header).
	cflags=$(PKG_CONFIG_PATH=$DEBROOT/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$DEBROOT \
		pkg-config --cflags makedumpfile-extension 2>&1)
	check deb-dev-builds-extension cc -shared -fPIC -Wall -Werror $cflags -o "$WORK/third-party.so" \
		"$PROJECT/tests/extensions/labprobe_anon.c"
fi

if need rpmbuild:rpm; then
	t0=$(date +%s)
	if rpmbuild -bb --nodeps --define "_topdir $RPMTOP" "$TREE/packaging/rpm/makedumpfile.spec" \
		>"$WORK/rpmbuild.log" 2>&1; then
		pass rpm-build
		echo "rpmbuild: $(elapsed "$t0")"
		rpm=$(ls "$RPMTOP"/RPMS/x86_64/makedumpfile-"$VERSION"-*.x86_64.rpm)
		devel=$(ls "$RPMTOP"/RPMS/noarch/makedumpfile-devel-"$VERSION"-*.noarch.rpm)
		rpm -qpl "$rpm" >"$WORK/rpm-files.txt" 2>&1
		rpm -qpl "$devel" >"$WORK/rpm-devel-files.txt" 2>&1
		# Where Fedora's makedumpfile has its files: the binary in
		# /usr/sbin, the sample configuration in /etc, the eppic scripts'
		# directory in /usr/share/makedumpfile (man pages compressed or not,
		# as the rpm configuration does).
		check rpm-files has_paths "$WORK/rpm-files.txt" /usr/sbin/makedumpfile /usr/sbin/makedumpfile-R.pl \
			'/usr/share/man/man8/makedumpfile.8\(.gz\)\?' '/usr/share/man/man8/makedumpfile-R.pl.8\(.gz\)\?' \
			'/usr/share/man/man5/makedumpfile.conf.5\(.gz\)\?' /etc/makedumpfile.conf.sample \
			/usr/share/makedumpfile/eppic_scripts/README \
			/usr/lib64/makedumpfile/extensions/amdgpu_filter.so /usr/lib64/makedumpfile/extensions/drm_shmem_filter.so \
			/usr/lib64/makedumpfile/extensions/user_stack_keep.so /usr/lib64/makedumpfile/eppic_scripts/proc_names.so \
			/usr/lib/dracut/modules.d/99makedumpfile-extensions/module-setup.sh
		check rpm-no-initramfs-tools test -z "$(grep initramfs-tools "$WORK/rpm-files.txt")"
		check rpm-devel-files has_paths "$WORK/rpm-devel-files.txt" /usr/include/makedumpfile-extension.h \
			/usr/include/makedumpfile/makedumpfile.h /usr/include/makedumpfile/makedumpfile.ld \
			/usr/share/pkgconfig/makedumpfile-extension.pc /usr/share/pkgconfig/makedumpfile.pc \
			'/usr/share/doc/makedumpfile-devel[^/]*/extension-guide.md'
		rpm -qp --requires "$rpm" >"$WORK/rpm-requires.txt" 2>&1
		check rpm-requires has_paths "$WORK/rpm-requires.txt" 'libbpf.so.1()(64bit)' 'libdeflate.so.0()(64bit)' \
			'libsnappy.so.1()(64bit)'
		check rpm-provides-extension-api grep -qx "makedumpfile-extension-api = $API" <(rpm -qp --provides "$rpm")
	else
		fail rpm-build "$(tail -n 5 "$WORK/rpmbuild.log")"
	fi
else
	skip rpm-build "$WHY"
fi

# ------------------------------------------------- the test package --
# Two broken extensions in the packaged directory and the observer, as a
# package of their own installed beside ours.
TESTDEB=$DISTRO/makedumpfile-distro-test_1_amd64.deb
build_test_deb() {
	local root=$DISTRO/testdeb lib=$DISTRO/testdeb-lib ext
	rm -rf "$root" "$lib" "$TESTDEB"
	ext=$root/usr/lib64/makedumpfile/extensions
	mkdir -p "$ext" "$lib" "$root/usr/lib/mdf-distro-test" "$root/lib/systemd/system/kdump-tools-dump.service.wants" \
		"$root/DEBIAN"
	cc -shared -fPIC -Wall -Werror -I"$PROJECT/include" -o "$ext/distro_crash.so" "$PROJECT/tests/extensions/crash.c" &&
	# libmdfabsent.so.1 is built to link with, and shipped nowhere.
	echo 'int mdf_absent_function(void) { return 0; }' >"$lib/absent.c" &&
	cc -shared -fPIC -Wl,-soname,libmdfabsent.so.1 -o "$lib/libmdfabsent.so" "$lib/absent.c" &&
	cc -shared -fPIC -Wall -Werror -I"$PROJECT/include" -o "$ext/distro_absent_lib.so" \
		"$PROJECT/tests/distro/absent_lib.c" -L"$lib" -lmdfabsent &&
	chmod 0644 "$ext"/*.so &&
	gcc -O2 -static -Wall -Wextra -Werror -o "$root/usr/lib/mdf-distro-test/mdf-observer" \
		"$PROJECT/tests/distro/observer.c" || return 1
	cat >"$root/lib/systemd/system/mdf-distro-observer.service" <<-'EOF'
		[Unit]
		Description=make check-distro: time and peak memory of each makedumpfile kdump-tools runs
		ConditionPathExists=/proc/vmcore
		DefaultDependencies=no
		After=local-fs.target
		Before=kdump-tools-dump.service

		[Service]
		Type=simple
		ExecStartPre=/bin/mkdir -p /var/lib/lab
		ExecStart=/usr/lib/mdf-distro-test/mdf-observer /var/lib/lab/mdf-observer.txt
		StandardOutput=journal+console
	EOF
	ln -s ../mdf-distro-observer.service "$root/lib/systemd/system/kdump-tools-dump.service.wants/"
	cat >"$root/DEBIAN/control" <<-EOF
		Package: makedumpfile-distro-test
		Version: 1
		Architecture: amd64
		Maintainer: make check-distro <root@localhost>
		Depends: makedumpfile (>= $DEBVERSION)
		Description: make check-distro's broken extensions and crash-kernel observer
		 Not for use: two extensions that fail (a crash, a missing library) and
		 a unit that measures makedumpfile in the kdump crash kernel.
	EOF
	dpkg-deb --root-owner-group --build "$root" "$TESTDEB" >/dev/null
}
if [ -n "$debs_built" ]; then
	check distro-test-package build_test_deb
fi

# ---------------------------------------------- kdump-tools in a VM --
VMCACHE=$DISTRO/vm
VMOUT=$WORK/vm
vm_skip=
if [ -z "$debs_built" ] || [ ! -s "$TESTDEB" ]; then
	vm_skip="no packages to install (see deb-build)"
elif [ "$(id -u)" -ne 0 ]; then
	vm_skip="not root (mmdebstrap, chroot, dpkg into the image)"
elif ! need qemu-system-x86_64:qemu-system-x86 mmdebstrap:mmdebstrap mkfs.ext4:e2fsprogs debugfs:e2fsprogs \
	gcc:gcc; then
	vm_skip=$WHY
elif [ ! -x "$SHARED/lab/debian-kdump-vm.sh" ]; then
	vm_skip="no $SHARED/lab/debian-kdump-vm.sh (the shared lab)"
elif ! $PYTHON -c 'import kdumpfile' 2>/dev/null; then
	vm_skip="no libkdumpfile for $PYTHON (python3-libkdumpfile): ./install-deps.sh installs it"
elif [ -z "$UPSTREAM" ]; then
	vm_skip="no Debian makedumpfile in /usr/bin (the oracle): ./install-deps.sh installs it"
else
	mirror_probe() {
		local uri
		uri=$(apt-get -q --print-uris download makedumpfile 2>/dev/null | sed -n "s/^'\([^']*\)'.*/\1/p" | head -n 1)
		[ -n "$uri" ] && $PYTHON -c 'import sys, urllib.request; urllib.request.urlopen(
			urllib.request.Request(sys.argv[1], method="HEAD"), timeout=20)' "$uri" 2>/dev/null
	}
	mirror_probe || vm_skip="no package access: the Debian mirror of the host's apt sources does not answer"
fi

VM_RAN=
if [ -n "$vm_skip" ]; then
	skip vm "$vm_skip"
else
	t0=$(date +%s)
	echo "vm: Debian 12, kdump-tools, our .deb: ../shared/lab/debian-kdump-vm.sh (log: $WORK/vm.log)"
	EXTRA_DEBS="$DEB $TESTDEB" "$SHARED/lab/debian-kdump-vm.sh" -c "$VMCACHE" -o "$VMOUT" >"$WORK/vm.log" 2>&1
	vm_status=$?
	VM_SECONDS=$(($(date +%s) - t0))
	echo "vm: $VM_SECONDS s ($(grep -m1 -o 'rootfs: [a-z]*' "$WORK/vm.log"))"
	VM_RAN=1
fi

if [ -n "$VM_RAN" ]; then
	# The lab's own verdict: makedumpfile completed, the markers as -d 31 says.
	check vm-lab-run test "$vm_status" -eq 0
	crashlog=$VMOUT/console-crash.txt
	dump=$(find "$VMOUT/var-crash" -name 'dump.*' -type f 2>/dev/null | head -n 1)
	stampdir=$(dirname "${dump:-/nonexistent/x}")
	stamp=${dump##*.}
	check vm-dump-saved test -s "${dump:-/nonexistent}"
	check vm-dmesg-saved test -s "$stampdir/dmesg.$stamp"
	check vm-saved-no-cp-fallback test -n "$(grep -a 'saved vmcore in' "$crashlog")" \
		-a -z "$(grep -a "falling back to 'cp'" "$crashlog")" \
		-a -z "$(find "$VMOUT/var-crash" -name 'vmcore.*' 2>/dev/null)"
	# The image ran our package: its version and binary, its own lines.
	check vm-package-version grep -qx "makedumpfile"$'\t'"$DEBVERSION" "$VMOUT/packages.txt"
	check vm-package-binary grep -qx "makedumpfile-sha256 $(sha256sum <"$DEBROOT/usr/bin/makedumpfile" | cut -d' ' -f1)" \
		"$VMOUT/packages.txt"
	check vm-log-our-extensions grep -aq \
		'kdump-tools\[[0-9]*\]: Loaded extension: /usr/lib64/makedumpfile/extensions/drm_shmem_filter.so' "$crashlog"
	check vm-drm-shmem-filter-ran grep -aEq 'kdump-tools\[[0-9]+\]: drm_shmem_filter: .*discarding [1-9][0-9]* pages' \
		"$crashlog"
	# Broken extensions cost only themselves: both said, the dump complete.
	check vm-broken-crash-alone grep -aq \
		'extension /usr/lib64/makedumpfile/extensions/distro_crash.so failed: crashed (signal 11' "$crashlog"
	check vm-broken-absent-library-alone grep -aq \
		'extension /usr/lib64/makedumpfile/extensions/distro_absent_lib.so failed: cannot load it: libmdfabsent.so.1' \
		"$crashlog"

	if [ -s "${dump:-}" ]; then
		# Reassembled three ways into one file.
		R=$WORK/reassembled
		mkdir -p "$R"
		check vm-reassemble "$DEBROOT/usr/bin/makedumpfile" -R "$R/dump.kdump" <"$dump"
		check vm-reassemble-R.pl "$DEBROOT/usr/bin/makedumpfile-R.pl" "$R/dump-Rpl.kdump" <"$dump"
		check vm-reassemble-R.pl-same cmp "$R/dump.kdump" "$R/dump-Rpl.kdump"
		"$UPSTREAM" -R "$R/dump-upstream.kdump" <"$dump" >"$WORK/upstream-R.log" 2>&1
		check vm-reassemble-upstream-same cmp "$R/dump.kdump" "$R/dump-upstream.kdump"
		$PYTHON "$SHARED/tools/kdumpset.py" info "$R/dump.kdump" >"$WORK/dump-info.txt" 2>&1
		check vm-dump-complete grep -q 'dump_level=31 .*incomplete=False' "$WORK/dump-info.txt"
		# libkdumpfile's view: kernel pages there, user and cache markers gone.
		$PYTHON "$PROJECT/tests/distro/dumpcheck.py" "$R/dump.kdump" "$VMOUT/guest/labprobe-pfns.txt" \
			>"$WORK/dumpcheck.txt" 2>&1
		value() { sed -n "s/^$1=//p" "$WORK/dumpcheck.txt"; }
		check vm-libkdumpfile-reads test "$(value pages)" -gt 0
		check vm-kernel-pages test "$(value kernel-release)" = ok -a "$(value kernel-text)" = ok
		anon_listed=$(value labprobe-anon)
		check vm-anon-markers-gone test "$(value marker-anon)" = 0 -a "${anon_listed%/*}" = 0 -a "${anon_listed#*/}" -gt 0
		check vm-pagecache-markers-gone test "$(value marker-pagecache)" = 0
		# (At -d 31 the page-cache rule drops the vgem buffer's shmem pages
		# too: vm-drm-shmem-filter-ran above is what shows the extension at work.)
		check vm-vgem-markers-gone test "$(value marker-vgem)" = 0 -a -n "$(grep -a 'LABPROBE-READY' "$VMOUT/guest/labprobe.log")"
		# The dmesg kdump-tools saved: Debian's makedumpfile's --dump-dmesg
		# of the same dump, and the first kernel's own lines.
		"$UPSTREAM" --dump-dmesg "$R/dump.kdump" "$R/dmesg-upstream.txt" >"$WORK/upstream-dmesg.log" 2>&1
		check vm-dmesg-equals-dump-dmesg cmp "$stampdir/dmesg.$stamp" "$R/dmesg-upstream.txt"
		# (util-linux's dmesg, as the guest ran it, keeps a record's
		# continuation lines indented as makedumpfile does: line for line.)
		check vm-dmesg-holds-first-kernel awk 'NR == FNR { if (length($0)) want[++n] = $0; next }
			i < n && $0 == want[i + 1] { i++ }
			END { print i " of the first kernel'"'"'s " n " lines, in order"; exit i < n }' \
			"$VMOUT/guest/dmesg.txt" "$stampdir/dmesg.$stamp"
	fi

	# The figures of the run.
	observed=$VMOUT/guest/mdf-observer.txt
	# The run kdump-tools started, not an extension's child (same command
	# line, its parent among the observed).
	dumpline=$(awk '{ pid[$2] = 1 } / cmd=makedumpfile -F -c -d 31 \/proc\/vmcore$/ { line[$3] = $0 }
		END { for (p in line) { q = p; sub(/^ppid/, "pid", q); if (!(q in pid)) print line[p] } }' \
		"$observed" 2>/dev/null | head -n 1)
	dmesgline=$(grep -a ' cmd=makedumpfile --dump-dmesg ' "$observed" 2>/dev/null | head -n 1)
	check vm-observed-makedumpfile test -n "$dumpline"
	field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
	children=$(grep -a "ppid=$(field pid "$dumpline") " "$observed" 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^vmhwm_kb=/) { sub(/vmhwm_kb=/, "", $i); if ($i > m) m = $i } }
			END { print m + 0 }')
	summary=$VMOUT/summary.txt
	{
		echo "figures of this run (TCG, 2 vCPUs, 1 GiB, crashkernel=256M; the crash kernel has nr_cpus=1):"
		echo "  boot to crash kernel loaded: $(sed -n 's/^kdump-loaded //p' "$VMOUT/timeline.txt") s from QEMU's start" \
			"($(sed -n 's/^first kernel (guest clock): //p' "$summary"))"
		echo "  crash kernel's save: $(sed -n 's/^host, from the panic: //p' "$summary")"
		echo "    (guest clock) $(sed -n 's/^crash kernel (guest clock): //p' "$summary")"
		echo "  dump: $(stat -c %s "${dump:-/nonexistent}" 2>/dev/null) bytes ($(basename "${dump:-none}")," \
			"$(sed -n 's/^pages=//p' "$WORK/dumpcheck.txt" 2>/dev/null) pages), dmesg $(stat -c %s "$stampdir/dmesg.$stamp" 2>/dev/null) bytes"
		echo "  makedumpfile -F -c -d 31 in the crash kernel: elapsed $(field elapsed "$dumpline") s," \
			"max RSS $(field vmhwm_kb "$dumpline") kB (its extensions' processes: at most $children kB each)"
		echo "  makedumpfile --dump-dmesg: elapsed $(field elapsed "$dmesgline") s, max RSS $(field vmhwm_kb "$dmesgline") kB"
		echo "  VM run in all: $VM_SECONDS s ($(grep -m1 -o 'rootfs: [a-z]*' "$WORK/vm.log"))"
	} | tee "$WORK/figures.txt"
fi

# -------------------------------------------------- kdump initramfs --
if [ -n "$VM_RAN" ] && [ -d "$VMCACHE/rootfs/boot" ]; then
	t0=$(date +%s)
	echo "images: dracut and mkinitramfs in a chroot of the VM's root file system (log: $WORK/images.log)"
	DEB=$DEB TESTDEB=$TESTDEB ROOTFS=$VMCACHE/rootfs VERSION=$VERSION \
		unshare --mount --fork bash "$PROJECT/tests/distro/images.sh" 2>&1 | tee "$WORK/images.log" | grep -E '^  (PASS|FAIL|SKIP)'
	echo "images: $(elapsed "$t0")"
elif [ -n "$vm_skip" ]; then
	skip images "$vm_skip"
else
	skip images "no cached root file system in $VMCACHE (the VM run did not build one)"
fi

echo "check-distro: $(elapsed "$START"); files: $WORK"
summarize_results
