#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything aicc needs to build, boot its test VMs and run its
# tests on a Debian 12 (bookworm) machine: both test kernels (bookworm 6.1
# and bookworm-backports 6.12) with their headers, QEMU, busybox and the
# networking tools used inside the guests.  Safe to run repeatedly.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: must run as root (apt-get)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
if [ "$codename" != "bookworm" ]; then
	echo "install-deps: warning: tested on Debian bookworm, this is '$codename'" >&2
fi

bpo=/etc/apt/sources.list.d/aicc-bookworm-backports.list
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "deb http://deb.debian.org/debian bookworm-backports main" > "$bpo"
fi

apt_opts=(-y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold
	  --no-install-recommends)

apt-get update -q

# Tools for building, checking and running the VM rig.
apt-get install "${apt_opts[@]}" \
	build-essential make gcc libc6-dev sparse shellcheck bc flex bison \
	qemu-system-x86 qemu-utils busybox-static kmod cpio xz-utils zstd \
	iproute2 iputils-ping ethtool procps coreutils util-linux iperf3 \
	initramfs-tools python3 python3-docutils gnuplot-nox linux-source-6.1

# RDMA over Soft-RoCE (rdma_rxe) for the RoCE selftests (selftests/rdma).
apt-get install "${apt_opts[@]}" rdma-core ibverbs-providers ibverbs-utils \
	perftest rdmacm-utils

# Packaging: DKMS and the Debian package build and check (make check-pkg;
# git lists the tracked files its source package is made of).
apt-get install "${apt_opts[@]}" dkms dh-dkms debhelper dpkg-dev lintian git

# The benchmark's CPU cost (make bench): callgrind.
apt-get install "${apt_opts[@]}" valgrind

# Debug kernel (make check-debug) and fuzzers (tools/fuzz): kernel build
# dependencies and clang with libFuzzer (libclang_rt.fuzzer is in
# libclang-rt-14-dev, only a Recommends of clang's, which apt_opts leave
# out: without it the fuzz tests skip).
apt-get install "${apt_opts[@]}" libelf-dev libssl-dev clang libclang-rt-14-dev

# Kernel images and headers: bookworm's 6.1 and bookworm-backports' 6.12.
apt-get install "${apt_opts[@]}" linux-image-amd64 linux-headers-amd64
apt-get install "${apt_opts[@]}" -t bookworm-backports \
	linux-image-amd64 linux-headers-amd64

# bookworm-backports' iproute2, unpacked beside the system's, not installed:
# its ip sets the route feature tcp_usec_ts (6.7 and later), which
# bookworm's cannot (selftests/net/test_usec_ts.sh).
ipr=/opt/aicc-iproute2
if [ ! -x "$ipr/bin/ip" ]; then
	tmp=$(mktemp -d)
	chown _apt "$tmp" 2>/dev/null || true
	# (a failure inside an && list does not stop set -e: checked here)
	if ! (cd "$tmp" && apt-get download -q iproute2/bookworm-backports) ||
	   ! mkdir -p "$ipr" || ! dpkg-deb -x "$tmp"/iproute2_*.deb "$ipr"; then
		rm -rf "$tmp"
		echo "install-deps: cannot unpack bookworm-backports' iproute2 into $ipr" >&2
		exit 1
	fi
	rm -rf "$tmp"
fi

# kselftest headers, checkpatch and its data files come from linux-source.
src=/usr/src/linux-source-6.1.tar.xz
dst=/usr/src/linux-source-6.1-aicc
if [ -f "$src" ] && [ ! -f "$dst/scripts/checkpatch.pl" ]; then
	mkdir -p "$dst"
	tar -C "$dst" --strip-components=1 -xJf "$src" \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch \
		linux-source-6.1/tools/testing/selftests/kselftest.h \
		linux-source-6.1/tools/testing/selftests/kselftest_harness.h
fi
echo "install-deps: done"
