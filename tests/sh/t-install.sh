#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make install into a DESTDIR: the binary, the extensions directory, the
# extension header and its pkg-config file, upstream's API headers and
# linker script with theirs, the erasing extensions of
# eppic_scripts/ and their README, the man pages (which man -l shows) and
# the sample filter config; a third-party extension, one that erases too,
# builds against the installed header with pkg-config alone, and so does
# one written for upstream's API; make uninstall.
. "$(dirname "$0")/../lib.sh" || exit 2

root=$WORK/root
rm -rf "$root"
if ! make -s -C "$PROJECT" install DESTDIR="$root" PREFIX=/usr SANITIZE="${MDF_SANITIZE:-}" \
	>"$WORK/install.log" 2>&1; then
	fail install "$(tail -n 5 "$WORK/install.log")"
	exit 0
fi
for f in usr/sbin/makedumpfile usr/include/makedumpfile-extension.h \
	usr/lib/pkgconfig/makedumpfile-extension.pc; do
	[ -s "$root/$f" ] && pass "install-$(basename "$f")" || fail "install-$(basename "$f")" "no $root/$f"
done
[ -d "$root/usr/lib64/makedumpfile/extensions" ] && pass install-extension-dir ||
	fail install-extension-dir "no extensions directory"
for f in usr/lib64/makedumpfile/eppic_scripts/proc_names.so usr/lib64/makedumpfile/eppic_scripts/dir_names.so \
	usr/lib64/makedumpfile/eppic_scripts/keyring.so usr/lib64/makedumpfile/eppic_scripts/socket_buffers.so \
	usr/share/makedumpfile/eppic_scripts/README usr/share/makedumpfile/makedumpfile.conf.sample \
	usr/share/man/man8/makedumpfile.8 usr/share/man/man5/makedumpfile.conf.5; do
	[ -s "$root/$f" ] && pass "install-$(basename "$f")" || fail "install-$(basename "$f")" "no $root/$f"
done
# The erasing extensions stay out of the directory every run loads.
[ -z "$(ls "$root/usr/lib64/makedumpfile/extensions" | grep -E 'proc_names|dir_names|keyring|socket_buffers')" ] &&
	pass install-erasers-not-default || fail install-erasers-not-default "an erasing extension loads by default"
if command -v man >/dev/null; then
	for page in man8/makedumpfile.8 man5/makedumpfile.conf.5; do
		name=man-$(basename "$page")
		if MANWIDTH=80 man -l "$root/usr/share/man/$page" >"$WORK/$name.txt" 2>"$WORK/$name.err" &&
			grep -q '^NAME' "$WORK/$name.txt" && grep -q '^SYNOPSIS' "$WORK/$name.txt" &&
			[ ! -s "$WORK/$name.err" ]; then
			pass "$name"
		else
			fail "$name" "$(head -c 300 "$WORK/$name.err")"
		fi
	done
	# Every option of makedumpfile -h is in the man page.
	missing=$("$MDF" -h | grep -oE '(^| )--?[a-zA-Z][-a-zA-Z]*' | sort -u | tr -d ' ' |
		while read -r opt; do grep -qe "${opt//-/\\\\-}" "$root/usr/share/man/man8/makedumpfile.8" ||
			echo "$opt"; done)
	[ -z "$missing" ] && pass man-lists-every-option || fail man-lists-every-option "not in the man page: $(echo $missing)"
else
	skip man-pages "no man command"
fi

# A third party's extension, away from the source tree.
mkdir -p "$WORK/third-party"
cp "$PROJECT/tests/extensions/labprobe_anon.c" "$PROJECT/tests/extensions/erase_api.c" "$WORK/third-party/"
cflags=$(PKG_CONFIG_PATH=$root/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root \
	pkg-config --cflags makedumpfile-extension 2>"$WORK/pkg.err")
if [ -n "$cflags" ] && (cd "$WORK/third-party" &&
	cc -shared -fPIC -Wall -Werror $cflags -o ext.so labprobe_anon.c &&
	cc -shared -fPIC -Wall -Werror $cflags -o erase.so erase_api.c) >"$WORK/cc.log" 2>&1; then
	pass install-third-party-extension-builds
else
	fail install-third-party-extension-builds "cflags '$cflags': $(cat "$WORK/pkg.err" "$WORK/cc.log" | tail -n 3)"
fi

# One written for upstream's API, built the way its extensions/Makefile
# builds, with makedumpfile.pc in place of the source tree.
cflags=$(PKG_CONFIG_PATH=$root/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root \
	pkg-config --cflags makedumpfile 2>"$WORK/pkg.err")
script=$(PKG_CONFIG_PATH=$root/usr/lib/pkgconfig pkg-config --variable=linkerscript makedumpfile 2>>"$WORK/pkg.err")
cp "$PROJECT/tests/upstream_api/sample_values.c" "$WORK/third-party/"
if [ -n "$cflags" ] && [ -n "$script" ] && (cd "$WORK/third-party" &&
	cc -O2 -g -fPIC -shared $cflags -Wl,-T,"$root$script" -o upstream.so sample_values.c &&
	nm -D upstream.so | grep -q ' __start_init_ktypes$') >"$WORK/cc.log" 2>&1; then
	pass install-upstream-api-extension-builds
else
	fail install-upstream-api-extension-builds "cflags '$cflags', script '$script': $(cat "$WORK/pkg.err" "$WORK/cc.log" | tail -n 3)"
fi

# The rpm spec states the extension API it provides by hand (its Provides
# are read before the sources are unpacked); the deb takes it from the
# header at build time.  Caught here, a raised API cannot ship unprovided.
api=$(sed -n 's/^#define MDF_EXTENSION_API_VERSION \([0-9]*\)$/\1/p' "$PROJECT/include/makedumpfile-extension.h")
spec_api=$(sed -n 's/^%global extension_api \([0-9]*\)$/\1/p' "$PROJECT/packaging/rpm/makedumpfile.spec")
[ -n "$api" ] && [ "$api" = "$spec_api" ] && pass rpm-spec-extension-api ||
	fail rpm-spec-extension-api "header says API '$api', packaging/rpm/makedumpfile.spec says '$spec_api'"

make -s -C "$PROJECT" uninstall DESTDIR="$root" PREFIX=/usr SANITIZE="${MDF_SANITIZE:-}" >/dev/null 2>&1
left=$(find "$root" -type f | wc -l)
[ "$left" -eq 0 ] && pass uninstall || fail uninstall "$left files left: $(find "$root" -type f | head -n 3)"
