#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs, with apt-get, what the build, the tests and the benchmarks need
# on Debian 12.  Run as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential clang libclang-rt-14-dev pkg-config ca-certificates python3 \
	libelf-dev libdw-dev libbpf-dev zlib1g-dev libdeflate-dev libisal-dev libbz2-dev liblzo2-dev libsnappy-dev libzstd-dev \
	zstd makedumpfile python3-libkdumpfile man-db \
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user file
