#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_pkg.sh: the Debian packages and DKMS, end to end, on the HOST (run
# by `make check-pkg`, part of `make check-unit`; needs root, changes the
# host's package set and removes everything again):
#
#   1. copies the tracked files of the tree (git ls-files; the working
#      tree's contents) to build/pkgtest/src and runs
#      `dpkg-buildpackage -us -uc -b` there;
#   2. checks the packages with dpkg-deb: tcp-aicc-dkms holds exactly
#      Kbuild, dkms.conf, module/ and uapi/ under /usr/src/tcp-aicc-<ver>/,
#      aicc-tools the tool, aicc-tune, its man page, the unit and the examples; runs
#      lintian (no errors or warnings) when it is installed;
#   3. installs both with dpkg -i: DKMS must build and install the module
#      for every kernel in /lib/modules that has headers and is inside
#      dkms.conf's BUILD_EXCLUSIVE_KERNEL (only for the running and the
#      newest kernel when the running one is installed, as DKMS's postinst
#      does); checks `dkms status`, the .ko
#      files under /lib/modules/<kver>/updates/dkms/ (version, vermagic),
#      the installed tool and the example profile;
#   4. boots each such kernel in the VM rig (tools/vm/aicc-vm) running
#      selftests/pkg/test_dkms_load.sh: the DKMS-built module loads there
#      (AICC_PKG_VM=0 skips this);
#   5. purges both packages and checks that nothing is left;
#   6. `make dkms-install` / `make dkms-remove` from the copy, for one
#      kernel, the same way.
#
# Idempotent: a previous run that died half-way (marker file
# /var/tmp/aicc-pkg-test.installed) is cleaned up first; packages or a
# DKMS registration that this test did not install are never touched (the
# test skips instead).  Exit 4 (skip) when not root, inside the VM, or
# when dpkg-buildpackage, debhelper, dh-dkms or dkms are missing.
# Environment: AICC_PKG_VM=0 (no VM boots), AICC_MKFAKE (default
# build/aicc-mkfake, for the example profile check), AICC_PKG_UNTRACKED=1 (also
# copy untracked, not ignored files: for testing uncommitted packaging).

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"

[ "${AICC_VM:-}" != 1 ] || ktap_skip_all "host test (make check-pkg), not for the VM"
ktap_require_root
ktap_require dpkg-buildpackage dpkg-deb dpkg-query dh dh_dkms dkms git
[ -f /usr/share/perl5/Debian/Debhelper/Sequence/dkms.pm ] ||
	ktap_skip_all "dh-dkms not installed"

name=tcp-aicc
pkgs=(tcp-aicc-dkms aicc-tools)
ver=$(sed -n 's/^#define[[:space:]]*AICC_VERSION[[:space:]]*"\(.*\)"/\1/p' \
	"$top/uapi/aicc.h")
[ -n "$ver" ] || ktap_skip_all "no AICC_VERSION in uapi/aicc.h"
marker=/var/tmp/aicc-pkg-test.installed
work=$top/build/pkgtest
src=$work/src
srcdir=/usr/src/$name-$ver

pkg_installed()	# PKG: installed or half-installed (anything but absent)
{
	local st

	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) || return 1
	case $st in un*|pn*|"") return 1 ;; esac
	return 0
}

dkms_registered()
{
	[ -n "$(dkms status -m "$name" -v "$ver" 2>/dev/null)" ] || [ -d "/var/lib/dkms/$name" ]
}

# Undo whatever an earlier (or this) run installed.
cleanup()
{
	local p

	[ -f "$marker" ] || return 0
	for p in "${pkgs[@]}"; do
		pkg_installed "$p" && dpkg --purge "$p" > "$work/cleanup.log" 2>&1
	done
	if dkms_registered; then
		dkms remove -m "$name" -v "$ver" --all >> "$work/cleanup.log" 2>&1
	fi
	rm -rf "$srcdir" "/var/lib/dkms/$name"
	rm -f "$marker"
}

# result NAME STATUS DETAIL: pass if STATUS is 0, else fail with DETAIL.
result()
{
	if [ "$2" -eq 0 ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "$3"
	fi
}

mkdir -p "$work"
cleanup
for p in "${pkgs[@]}"; do
	pkg_installed "$p" &&
		ktap_skip_all "$p is installed (not by this test); remove it to run the test"
done
dkms_registered &&
	ktap_skip_all "$name/$ver is registered with DKMS (make dkms-install?); run make dkms-remove first"
[ ! -e "$srcdir" ] || ktap_skip_all "$srcdir exists (not from this test)"

trap 'rc=$?; cleanup; exit $rc' EXIT

# Kernels DKMS must serve: headers installed, inside BUILD_EXCLUSIVE_KERNEL.
excl=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"/\1/p' "$top/dkms.conf")
kernels=()
keep=()
for d in /lib/modules/*; do
	k=${d##*/}
	[ -e "$d/build/Makefile" ] || continue
	[[ $k =~ $excl ]] || continue
	kernels+=("$k")
done
# The package's postinst (DKMS's common.postinst) builds for every kernel
# only when the running one is not installed (a chroot, a container, this
# build machine); otherwise for the running and the newest kernel only.
cur=$(uname -r)
if [ -e "/lib/modules/$cur" ]; then
	newest=$(find /boot -maxdepth 1 -name 'config-*' -printf '%f\n' |
		sed 's/^config-//' | sort -V | tail -n 1)
	for k in "${kernels[@]}"; do
		[ "$k" = "$cur" ] || [ "$k" = "$newest" ] && keep+=("$k")
	done
	kernels=("${keep[@]}")
fi
[ ${#kernels[@]} -gt 0 ] || ktap_skip_all "no kernel with headers in /lib/modules matches '$excl'"

vm=1
[ "${AICC_PKG_VM:-1}" != 0 ] || vm=0
command -v qemu-system-x86_64 > /dev/null || vm=0

nk=${#kernels[@]}
ktap_plan $((17 + 4 * nk))
ktap_info "version $ver; kernels: ${kernels[*]}"

# ---- 1. build ---------------------------------------------------------------

rm -rf "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$src"
mkdir -p "$src"
(
	cd "$top" || exit 1
	{
		git ls-files -z
		[ "${AICC_PKG_UNTRACKED:-0}" = 1 ] && git ls-files -z --others --exclude-standard
	} | while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -xf - -C "$src"
) || { ktap_fail "copy the tracked files" "git ls-files | tar failed"; ktap_finish; }

t0=$(date +%s)
if (cd "$src" && nice dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1; then
	ktap_pass "dpkg-buildpackage -us -uc -b ($(($(date +%s) - t0)) s)"
else
	ktap_fail "dpkg-buildpackage -us -uc -b" "$(tail -n 20 "$work/build.log")"
	ktap_finish
fi
deb_dkms=$work/tcp-aicc-dkms_${ver}_all.deb
deb_tools=$(ls "$work"/aicc-tools_"${ver}"_*.deb 2>/dev/null | head -n 1)
[ -f "$deb_dkms" ] && [ -f "$deb_tools" ]
result "both packages built" $? \
	"want tcp-aicc-dkms_${ver}_all.deb and aicc-tools_${ver}_<arch>.deb in $work"
[ -f "$deb_dkms" ] && [ -f "$deb_tools" ] || ktap_finish

# ---- 2. contents ------------------------------------------------------------

# Exactly the module's sources, nothing from the build.
want=$( {
	echo Kbuild
	echo dkms.conf
	(cd "$src" && ls module/*.[ch] module/core/*.[ch] module/roce/*.[ch] \
		uapi/*.h)
} | sort)
got=$(dpkg-deb -c "$deb_dkms" | awk '$1 !~ /^d/ { print $6 }' |
	sed -n "s|^\./usr/src/$name-$ver/||p" | sort)
[ "$want" = "$got" ]
result "tcp-aicc-dkms: /usr/src/$name-$ver = Kbuild, dkms.conf, module/, uapi/" $? \
	"$(diff <(echo "$want") <(echo "$got") | sed -n 's/^[<>]/&/p' | head -n 10)"

x=$work/x-dkms
rm -rf "$x" && dpkg-deb -x "$deb_dkms" "$x"
conf=$x/usr/src/$name-$ver/dkms.conf
ok=1
grep -qx "PACKAGE_NAME=\"$name\"" "$conf" || ok=0
grep -qx "PACKAGE_VERSION=\"$ver\"" "$conf" || ok=0
grep -qx 'BUILT_MODULE_NAME\[0\]="tcp_aicc"' "$conf" || ok=0
grep -qx 'AUTOINSTALL="yes"' "$conf" || ok=0
[ $ok -eq 1 ]
result "dkms.conf: name $name, version $ver, tcp_aicc, autoinstall" $? \
	"$(grep -E '^[A-Z_]+(\[0\])?=' "$conf" 2>/dev/null)"

deps=$(dpkg-deb -f "$deb_dkms" Depends)
[[ $deps == *dkms* ]]
result "tcp-aicc-dkms depends on dkms" $? "Depends: $deps"

list=$(dpkg-deb -c "$deb_tools" | awk '{ print $6 }')
miss=
for f in ./usr/sbin/aicc ./usr/sbin/aicc-tune ./usr/share/man/man8/aicc.8.gz \
	 ./usr/share/man/man8/aicc-tune.8.gz \
	 ./lib/systemd/system/aicc-profile.service \
	 ./usr/share/doc/aicc-tools/examples/modules-load.d/aicc.conf \
	 ./usr/share/doc/aicc-tools/examples/sysctl.d/60-aicc.conf \
	 ./usr/share/doc/aicc-tools/examples/aicc/profile.conf \
	 ./usr/share/doc/aicc-tools/examples/systemd/aicc-profile.service; do
	grep -qxF "$f" <<< "$list" || miss="$miss $f"
done
[ -z "$miss" ]
result "aicc-tools: tool, aicc-tune, man pages, unit, examples" $? "missing:$miss"

if command -v lintian > /dev/null; then
	out=$(cd "$work" && nice lintian --fail-on error,warning \
		tcp-aicc_"${ver}"_*.changes 2>&1)
	rc=$?
	bad=$(grep -E '^[EW]: ' <<< "$out")
	if [ $rc -eq 0 ] && [ -z "$bad" ]; then
		ktap_pass "lintian: no errors or warnings"
	else
		ktap_fail "lintian: no errors or warnings" "$(head -n 20 <<< "$out")"
	fi
else
	ktap_skip "lintian: no errors or warnings" "lintian not installed"
fi

# ---- 3. install -------------------------------------------------------------

: > "$marker"
t0=$(date +%s)
if nice dpkg -i "$deb_dkms" "$deb_tools" > "$work/install.log" 2>&1; then
	ktap_pass "dpkg -i tcp-aicc-dkms aicc-tools ($(($(date +%s) - t0)) s)"
else
	ktap_fail "dpkg -i tcp-aicc-dkms aicc-tools" "$(tail -n 20 "$work/install.log")"
fi

status=$(dkms status -m "$name" -v "$ver" 2>/dev/null)
ktap_info "$status"
for k in "${kernels[@]}"; do
	line=$(grep -F ", $k," <<< "$status")
	[[ $line == *": installed"* ]]
	result "dkms status: installed for $k" $? \
		"dkms status for $k: '${line:-none}'"
	ko=
	for f in /lib/modules/"$k"/updates/dkms/tcp_aicc.ko*; do
		[ -f "$f" ] && ko=$f
	done
	roce=
	for f in /lib/modules/"$k"/updates/dkms/aicc_roce.ko*; do
		[ -f "$f" ] && roce=$f
	done
	[ -n "$ko" ] && [ -n "$roce" ]
	result "$k: updates/dkms/tcp_aicc.ko* and aicc_roce.ko* exist" $? \
		"tcp_aicc: '${ko:-not found}', aicc_roce: '${roce:-not found}'"
	if [ -n "$ko" ]; then
		v=$(modinfo -F version "$ko" 2>/dev/null)
		vm_k=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
		res=$(modinfo -k "$k" -n tcp_aicc 2>/dev/null)
		[ "$v/$vm_k/$res" = "$ver/$k/$ko" ]
		result "$k: module version $ver, vermagic $k, found by modprobe" $? \
			"version '$v', vermagic '$vm_k', modinfo -k $k -n tcp_aicc: '$res'"
	else
		ktap_fail "$k: module version $ver, vermagic $k, found by modprobe" "no module"
	fi
done

v=$(/usr/sbin/aicc -V 2>&1)
[[ $v == *"$ver"* ]]
result "/usr/sbin/aicc -V reports $ver" $? "aicc -V: '$v'"

# 'aicc tune' runs the aicc-tune installed next to the tool.
v=$(/usr/sbin/aicc tune --help 2>&1)
[[ $v == "usage: aicc-tune "* ]]
result "/usr/sbin/aicc tune finds the installed aicc-tune" $? "aicc tune --help: '$v'"

# The shipped example profile is valid for the installed tool.
AICC_MKFAKE=${AICC_MKFAKE:-$top/build/aicc-mkfake}
if [ -x "$AICC_MKFAKE" ]; then
	fake=$work/fake-sysfs
	rm -rf "$fake"
	out=$("$AICC_MKFAKE" "$fake" 2>&1 &&
	      AICC_SYSFS=$fake /usr/sbin/aicc profile load -n \
		/usr/share/doc/aicc-tools/examples/aicc/profile.conf 2>&1)
	ktap_result "example profile passes 'aicc profile load -n'" $? "$out"
	rm -rf "$fake"
else
	ktap_skip "example profile passes 'aicc profile load -n'" "no AICC_MKFAKE"
fi

# ---- 4. the DKMS-built module loads in each kernel ---------------------------

for k in "${kernels[@]}"; do
	tname="$k: DKMS-built module loads in the VM (test_dkms_load.sh)"
	if [ $vm -eq 0 ]; then
		ktap_skip "$tname" "AICC_PKG_VM=0 or no qemu"
		continue
	fi
	out=$work/vm-$k
	rm -rf "$out"
	mkdir -p "$out"
	"$top/tools/vm/aicc-vm" --kernel "$k" --quiet --timeout 300 --out "$out" \
		-- bash selftests/pkg/test_dkms_load.sh > "$out/aicc-vm.log" 2>&1
	rc=$?
	lines=$(tr -d '\r' < "$out/console.log" 2>/dev/null | grep -aE '^(ok|not ok) ')
	[ -z "$lines" ] || ktap_info "$(sed 's/^/guest: /' <<< "$lines")"
	case $rc in
	0) ktap_pass "$tname" ;;
	# the module was just installed for this kernel: a guest that finds
	# none to load is a failure, not a skip
	4) ktap_fail "$tname" "skipped in the guest: $(tail -n 3 "$out/aicc-vm.log")" ;;
	*) ktap_fail "$tname" "aicc-vm exit $rc: $(tail -n 5 "$out/aicc-vm.log")" ;;
	esac
done

# ---- 5. remove --------------------------------------------------------------

t0=$(date +%s)
if nice dpkg --purge "${pkgs[@]}" > "$work/purge.log" 2>&1; then
	ktap_pass "dpkg --purge tcp-aicc-dkms aicc-tools ($(($(date +%s) - t0)) s)"
else
	ktap_fail "dpkg --purge tcp-aicc-dkms aicc-tools" "$(tail -n 20 "$work/purge.log")"
fi

left=
pkg_installed tcp-aicc-dkms && left="$left tcp-aicc-dkms"
pkg_installed aicc-tools && left="$left aicc-tools"
dkms_registered && left="$left dkms:$name"
[ -e "$srcdir" ] && left="$left $srcdir"
for f in /lib/modules/*/updates/dkms/tcp_aicc.ko* \
	 /lib/modules/*/updates/dkms/aicc_roce.ko* /usr/sbin/aicc /usr/sbin/aicc-tune \
	 /lib/systemd/system/aicc-profile.service \
	 /etc/systemd/system/multi-user.target.wants/aicc-profile.service; do
	[ -e "$f" ] || [ -L "$f" ] && left="$left $f"
done
for k in "${kernels[@]}"; do
	modinfo -k "$k" -n tcp_aicc > /dev/null 2>&1 && left="$left modules.dep($k)"
done
[ -z "$left" ]
result "purge leaves nothing behind" $? "left:$left"
[ -n "$left" ] || rm -f "$marker"

# ---- 6. make dkms-install / dkms-remove ---------------------------------------

k=${kernels[${#kernels[@]} - 1]}
: > "$marker"
t0=$(date +%s)
if nice make -C "$src" --no-print-directory dkms-install DKMS_KERNELS="$k" \
	> "$work/dkms-install.log" 2>&1; then
	ktap_pass "make dkms-install DKMS_KERNELS=$k ($(($(date +%s) - t0)) s)"
else
	ktap_fail "make dkms-install DKMS_KERNELS=$k" "$(tail -n 20 "$work/dkms-install.log")"
fi
line=$(dkms status -m "$name" -v "$ver" -k "$k" 2>/dev/null)
ko=
for f in /lib/modules/"$k"/updates/dkms/tcp_aicc.ko*; do
	[ -f "$f" ] && ko=$f
done
[ -n "$ko" ] && [[ $line == *": installed"* ]]
result "make dkms-install: installed for $k, module in updates/dkms" $? \
	"dkms status: '$line', module: '$ko'"

if make -C "$src" --no-print-directory dkms-remove > "$work/dkms-remove.log" 2>&1; then
	ktap_pass "make dkms-remove"
else
	ktap_fail "make dkms-remove" "$(tail -n 20 "$work/dkms-remove.log")"
fi
left=
dkms_registered && left="$left dkms:$name"
[ -e "$srcdir" ] && left="$left $srcdir"
for f in /lib/modules/*/updates/dkms/tcp_aicc.ko* \
	 /lib/modules/*/updates/dkms/aicc_roce.ko*; do
	[ -e "$f" ] && left="$left $f"
done
[ -z "$left" ]
result "make dkms-remove leaves nothing behind" $? "left:$left"
[ -n "$left" ] || rm -f "$marker"

ktap_finish
