#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dracut module "makedumpfile-extensions": into an initramfs that holds
# makedumpfile, the extensions directory /usr/lib64/makedumpfile/extensions,
# the libraries its .so files need, and the directory's trust.  It joins
# every image that has kdump-utils' kdumpbase (RHEL, Fedora) or SUSE's kdump
# module, and any image that asks for it (dracut --add
# makedumpfile-extensions, which also installs makedumpfile); it stays out
# of ordinary images.
#
# Why it is needed: makedumpfile opens its extensions with dlopen() at run
# time, so they are not among the libraries of its binary that kdumpbase
# copies; without this module the crash kernel's makedumpfile runs none,
# and nothing says so.
#
# makedumpfile runs only extensions it trusts: a directory owned by root
# and writable by neither its group nor others, below directories owned by
# root and not writable by others (unless sticky), holding files owned by
# root and writable by neither.  A directory that fails this on the host is
# not copied, since its copy would look trusted in the image; a file that
# fails it is left out.  Each refusal is said in dracut's log, and the image
# is still built.

mdf_extension_dir=/usr/lib64/makedumpfile/extensions

# shellcheck disable=SC2317  # dracut calls these functions
check() {
    if dracut_module_included kdumpbase || dracut_module_included kdump; then
        require_binaries makedumpfile || return 1
        return 0
    fi
    return 255
}

# shellcheck disable=SC2317
depends() {
    return 0
}

# mdf_distrust PATH: why makedumpfile, run as root, would not trust the
# directory or file PATH itself (nothing when it would).
mdf_distrust() {
    local owner mode
    read -r owner mode < <(stat -L -c '%u %a' "${dracutsysrootdir-}$1")
    if [[ $owner != 0 ]]; then
        echo "$1 is owned by uid $owner, not root"
    elif ((8#$mode & 8#002)); then
        echo "$1 is writable by others (mode $mode)"
    elif ((8#$mode & 8#020)); then
        echo "$1 is writable by its group (mode $mode)"
    fi
}

# mdf_distrust_directory DIR: the same for DIR and the directories above it.
mdf_distrust_directory() {
    local path=$1 owner mode why
    why=$(mdf_distrust "$path")
    [[ $why ]] && { echo "$why"; return; }
    while [[ $path == /* && $path != / ]]; do
        path=${path%/*}
        path=${path:-/}
        read -r owner mode < <(stat -L -c '%u %a' "${dracutsysrootdir-}$path")
        if [[ $owner != 0 ]]; then
            echo "$path above it is owned by uid $owner, not root"
            return
        elif ((8#$mode & 8#002)) && ! ((8#$mode & 8#1000)); then
            echo "$path above it is writable by others (mode $mode)"
            return
        fi
    done
}

# shellcheck disable=SC2317
install() {
    local so why

    inst_multiple makedumpfile
    [[ -d ${dracutsysrootdir-}$mdf_extension_dir ]] || return 0
    why=$(mdf_distrust_directory "$mdf_extension_dir")
    if [[ $why ]]; then
        dwarn "makedumpfile-extensions: not copying $mdf_extension_dir into the initramfs: $why; makedumpfile runs there without extensions"
        return 0
    fi
    inst_dir "$mdf_extension_dir"
    for so in "${dracutsysrootdir-}$mdf_extension_dir"/*.so; do
        [[ -e $so ]] || continue
        so=${so#"${dracutsysrootdir-}"}
        why=$(mdf_distrust "$so")
        if [[ $why ]]; then
            dwarn "makedumpfile-extensions: leaving $so out of the initramfs: $why"
            continue
        fi
        # The extension and, resolved like a program's, the libraries it
        # needs; dracut-install passes over one it cannot find: say it.
        inst_library "$so" ||
            dwarn "makedumpfile-extensions: $so or a library it needs is not in the initramfs: it will fail to load there, and only it"
        [[ ${dracutsysrootdir-} ]] && continue
        ldd "$so" 2>/dev/null | while read -r lib arrow rest; do
            [[ $arrow == "=>" && $rest == "not found" ]] &&
                dwarn "makedumpfile-extensions: $so needs $lib, which this system lacks: it will fail to load in the initramfs, and only it"
        done
    done
}
