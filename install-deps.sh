#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs, with apt-get, what the build, the tests and the benchmarks need
# on Debian 12 (with make check-kdump's QEMU and initramfs tools, which
# fetches its kernel package itself, make check-distro's package builders,
# lintian and mmdebstrap, and make check-cross's cross compilers and
# qemu-user: it fetches each architecture's libraries itself; the python3
# codecs are for ../shared/tools/kdumpset.py).  As root (a container's shell, which has no
# sudo), or as a user who may sudo: it then runs itself again through sudo.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "install-deps.sh: run it as root (there is no sudo)" >&2; exit 1; }
	exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential clang libclang-rt-14-dev pkg-config ca-certificates python3 \
	libelf-dev libdw-dev libbpf-dev zlib1g-dev libdeflate-dev libbz2-dev liblzo2-dev libsnappy-dev libzstd-dev \
	zstd makedumpfile python3-libkdumpfile python3-lzo python3-snappy python3-zstandard man-db valgrind strace \
	gcc-aarch64-linux-gnu gcc-powerpc64le-linux-gnu gcc-s390x-linux-gnu gcc-riscv64-linux-gnu qemu-user file \
	qemu-system-x86 kexec-tools busybox-static cpio kmod time \
	debhelper fakeroot lintian rpm mmdebstrap e2fsprogs
