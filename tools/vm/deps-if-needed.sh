#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps-if-needed.sh [KERNEL...]: checks that everything the VM rig, the
# builds and the tests need is installed (commands, a static busybox, the
# kernel images and headers of each KERNEL, default "6.1 6.12"); if not,
# runs scripts/install-deps.sh (as root) and checks again.  Exit 0 when all
# is there, 2 otherwise.  Used by selftests/run-all.sh and tools/vm/demo.sh.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
kernels=${*:-6.1 6.12}

# generic PREFIX: PREFIX itself, or a PREFIX.*-amd64 of the generic flavour
# (not -cloud-amd64 or -rt-amd64, which a cloud machine may run)
generic()
{
	local f

	[ -e "$1" ] && return 0
	for f in "$1".*-amd64; do
		case $f in
		*-cloud-amd64|*-rt-amd64) ;;
		*) [ -e "$f" ] && return 0 ;;
		esac
	done
	return 1
}

missing()
{
	local c k miss=()

	for c in qemu-system-x86_64 cpio xz zstd readelf make gcc sparse \
		 shellcheck ip tc ethtool ping ss iperf3 python3 insmod depmod \
		 timeout setpriv dkms dh_dkms dpkg-buildpackage lintian git clang \
		 valgrind gnuplot ib_write_bw rping; do
		command -v "$c" > /dev/null 2>&1 || miss+=("$c")
	done
	{ [ -x /bin/busybox ] && ! ldd /bin/busybox > /dev/null 2>&1; } ||
		miss+=(busybox-static)
	[ -f /usr/include/libelf.h ] || miss+=(libelf-dev)
	compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" \
		> /dev/null || miss+=(libclang-rt-dev)
	[ -x /opt/aicc-iproute2/bin/ip ] || miss+=(backports-iproute2)
	for k in $kernels; do
		generic "/boot/vmlinuz-$k" || miss+=("kernel-$k")
		generic "/usr/src/linux-headers-$k" || miss+=("headers-$k")
	done
	echo "${miss[*]}"
}

need=$(missing)
[ -z "$need" ] && exit 0
echo "deps-if-needed: missing: $need"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps-if-needed: missing dependencies ($need); run as root (sudo) or 'sudo make deps'" >&2
	exit 2
fi
log=$top/build/install-deps.log
mkdir -p "$top/build"
echo "deps-if-needed: running scripts/install-deps.sh (log: build/install-deps.log)"
if ! bash "$top/scripts/install-deps.sh" > "$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "deps-if-needed: scripts/install-deps.sh failed (log: $log)" >&2
	exit 2
fi
need=$(missing)
if [ -n "$need" ]; then
	echo "deps-if-needed: still missing after install-deps: $need" >&2
	exit 2
fi
echo "deps-if-needed: done"
