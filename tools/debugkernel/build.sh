#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh: build (or find in the cache) aicc's debug kernel.
#
#   tools/debugkernel/build.sh [--print-dir] [--jobs N] [--force]
#
# A small x86_64 kernel from Debian's linux-source-6.1 tarball with KASAN,
# UBSAN, KMEMLEAK, PROVE_LOCKING and DEBUG_ATOMIC_SLEEP, plus everything
# the VM rig needs built in (aicc-debug.config next to this script):
#
#   1. the tarball is extracted once into build/debugkernel/src-<sha>/;
#   2. `make tinyconfig`, then scripts/kconfig/merge_config.sh merges the
#      fragment and `make olddefconfig` resolves it; every option the
#      fragment asks for is checked in the result (a Kconfig dependency
#      that silently dropped one fails the build);
#   3. `nice -n 19 make -j2` builds vmlinux and bzImage in
#      build/debugkernel/<key>/obj, where <key> hashes the fragment, this
#      script, the tarball and the compiler version.  That obj directory is
#      also the kernel build tree for out-of-tree modules:
#      make -C <dir>/obj M=... modules.
#
# When <key>/done exists, nothing is rebuilt.  Prints the cache directory
# (bzImage, vmlinux, kernelrelease, obj/) on the last line of its output,
# or only that with --print-dir (which never builds; exit 1 if not built).
# Takes 15-25 minutes on two cores; the log is <key>/build.log.

set -euo pipefail
prog=debugkernel
die() { echo "$prog: $*" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
tarball=${AICC_KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
fragment=$here/aicc-debug.config
jobs=2
print_only=0
force=0

while [ $# -gt 0 ]; do
	case $1 in
	--print-dir) print_only=1; shift ;;
	--force) force=1; shift ;;
	--jobs)
		[ $# -ge 2 ] || die "--jobs needs a value"
		[[ $2 =~ ^[1-9][0-9]*$ ]] || die "bad --jobs '$2' (a positive number)"
		jobs=$2; shift 2 ;;
	-h|--help) sed -n '4,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done

[ -r "$tarball" ] || die "no kernel source $tarball (apt-get install linux-source-6.1)"
[ -r "$fragment" ] || die "missing config fragment $fragment"

# The cache key: whatever changes the kernel that comes out.
tar_id=$(stat -c '%s %Y' "$tarball")
tar_sum_file=$build/debugkernel/tarball.sha256
if [ -f "$tar_sum_file" ] && [ "$(sed -n 1p "$tar_sum_file")" = "$tar_id" ]; then
	tar_sha=$(sed -n 2p "$tar_sum_file")
else
	tar_sha=$(sha256sum "$tarball" | cut -d' ' -f1)
	mkdir -p "$build/debugkernel"
	printf '%s\n%s\n' "$tar_id" "$tar_sha" > "$tar_sum_file"
fi
key=$( {
	cat "$fragment"
	echo "$tar_sha"
	sed -n '/^# ---- key ----/,$p' "$0"
	gcc --version | head -n 1
} | sha256sum | cut -c1-16)
dir=$build/debugkernel/$key

if [ $print_only -eq 1 ]; then
	[ -f "$dir/done" ] || { echo "$prog: not built yet ($dir)" >&2; exit 1; }
	echo "$dir"
	exit 0
fi
if [ -f "$dir/done" ] && [ $force -eq 0 ]; then
	echo "$prog: cached: $(cat "$dir/kernelrelease")"
	echo "$dir"
	exit 0
fi

# ---- key ----  (everything below is part of the cache key)

for t in make gcc bc flex bison perl xz; do
	command -v "$t" > /dev/null || die "'$t' not found (run scripts/install-deps.sh)"
done
[ -e /usr/include/libelf.h ] || die "libelf headers missing (apt-get install libelf-dev)"
[ -e /usr/include/openssl/opensslv.h ] || die "openssl headers missing (apt-get install libssl-dev)"

src=$build/debugkernel/src-${tar_sha:0:16}
if [ ! -f "$src/.aicc-extracted" ]; then
	echo "$prog: extracting $tarball"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	nice -n 19 tar -xJf "$tarball" -C "$src.tmp"
	top_dir=$(find "$src.tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	[ -f "$top_dir/Makefile" ] || die "no kernel tree in $tarball"
	mv "$top_dir" "$src"
	rm -rf "$src.tmp"
	touch "$src/.aicc-extracted"
fi

obj=$dir/obj
mkdir -p "$obj"
rm -f "$dir/done"
log=$dir/build.log
: > "$log"
kmake() {
	nice -n 19 make -s -C "$src" O="$obj" ARCH=x86_64 "$@" >> "$log" 2>&1 ||
		{ tail -n 40 "$log" >&2; die "make $* failed (log: $log)"; }
}

echo "$prog: configuring (tinyconfig + $(basename "$fragment")) in $obj"
kmake tinyconfig
(cd "$obj" && ARCH=x86_64 "$src/scripts/kconfig/merge_config.sh" -m \
	.config "$fragment" >> "$log" 2>&1) || die "merge_config.sh failed (log: $log)"
kmake olddefconfig

# Every option the fragment sets must have survived olddefconfig.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		if ! grep -qxF -- "$line" "$obj/.config"; then
			echo "$prog: wanted $line, got:" \
				"$(grep -E "^(# )?${line%%=*}[= ]" "$obj/.config" || echo unset)" >&2
			bad=1
		fi ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		if grep -qE "^$opt=" "$obj/.config"; then
			echo "$prog: wanted $opt off, got: $(grep -E "^$opt=" "$obj/.config")" >&2
			bad=1
		fi ;;
	esac
done < "$fragment"
[ $bad -eq 0 ] || die "the configuration lost options (see above; log: $log)"

echo "$prog: building with make -j$jobs under nice -n 19 (log: $log)"
start=$(date +%s)
kmake -j"$jobs" bzImage vmlinux modules
end=$(date +%s)

rel=$(cat "$obj/include/config/kernel.release")
cp "$obj/arch/x86/boot/bzImage" "$dir/bzImage"
ln -sf obj/vmlinux "$dir/vmlinux"
echo "$rel" > "$dir/kernelrelease"
echo "$((end - start))" > "$dir/build-seconds"
touch "$dir/done"
echo "$prog: built $rel in $((end - start)) s"
echo "$dir"
