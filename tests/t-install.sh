#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make install into a DESTDIR: the binary, the extensions directory, the
# extension header and its pkg-config file; a third-party extension builds
# against the installed header with pkg-config alone; make uninstall.
. "$PROJECT/tests/lib.sh"

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

# A third party's extension, away from the source tree.
mkdir -p "$WORK/third-party"
cp "$PROJECT/tests/extensions/labprobe_anon.c" "$WORK/third-party/"
cflags=$(PKG_CONFIG_PATH=$root/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root \
	pkg-config --cflags makedumpfile-extension 2>"$WORK/pkg.err")
if [ -n "$cflags" ] && (cd "$WORK/third-party" &&
	cc -shared -fPIC -Wall -Werror $cflags -o ext.so labprobe_anon.c) >"$WORK/cc.log" 2>&1; then
	pass install-third-party-extension-builds
else
	fail install-third-party-extension-builds "cflags '$cflags': $(cat "$WORK/pkg.err" "$WORK/cc.log" | tail -n 3)"
fi

make -s -C "$PROJECT" uninstall DESTDIR="$root" PREFIX=/usr SANITIZE="${MDF_SANITIZE:-}" >/dev/null 2>&1
left=$(find "$root" -type f | wc -l)
[ "$left" -eq 0 ] && pass uninstall || fail uninstall "$left files left: $(find "$root" -type f | head -n 3)"
