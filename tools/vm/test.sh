#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test.sh: the QEMU rig's own contract (make check-vm-rig, part of make
# check-unit), with the 6.1 kernel: aicc-vm returns the command's status;
# a guest that dies in the command is reported as 125 and not booted again;
# a guest that dies before the command (a kernel that cannot find its init
# here, AICC_VM_APPEND) is booted once more, then reported as 125; the
# console copied to stdout carries no terminal control sequence.
# Skips (exit 4) without root or without the kernel.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tools/vm/aicc-vm
out=$top/build/vm-rig-test
. "$top/selftests/lib/ktap.sh"

ktap_require_root
ls /boot/vmlinuz-6.1.* > /dev/null 2>&1 || ktap_skip_all "needs the 6.1 kernel"
ktap_plan 4
mkdir -p "$top/build"

# vm ARGS... -- CMD: aicc-vm's status in $rc, its stderr in $err, its
# stdout in $text
vm()
{
	rm -rf "$out"
	err=$(flock /tmp/aicc-vm.lock "$vm" --kernel 6.1 --timeout 120 --out "$out" \
		"$@" 2>&1 > "$out.stdout")
	rc=$?
	text=$(cat "$out.stdout")
	rm -f "$out.stdout"
}

vm --quiet -- sh -c 'exit 3'
[ $rc -eq 3 ] && ! grep -q 'once more' <<< "$err"
ktap_result "the command's status is aicc-vm's (3)" $? "rc $rc: $err"

vm --quiet -- sh -c 'echo c > /proc/sysrq-trigger; sleep 10'
[ $rc -eq 125 ] && ! grep -q 'once more' <<< "$err" &&
	[ ! -e "$out/console-boot1.log" ]
ktap_result "a guest that dies in the command: 125, not booted again" $? \
	"rc $rc: $err"

AICC_VM_APPEND="rdinit=/nonexistent" vm --quiet -- true
[ $rc -eq 125 ] && [ "$(grep -c 'once more' <<< "$err")" -eq 1 ] &&
	[ -s "$out/console-boot1.log" ] && [ -s "$out/console.log" ]
ktap_result "a guest that dies before the command: booted twice, then 125" $? \
	"rc $rc: $err"

# Without --quiet the console reaches stdout, less the firmware's and the
# guest's escape sequences (SeaBIOS sends ESC c and ESC [?7l, which would
# leave the user's terminal without line wrapping), the firmware's banner
# and CRs: the command's output is the first line.
vm -- printf 'one\033[2Jtwo\033[?7lthree\n'
esc=$'\033'
[ $rc -eq 0 ] && [ "$(head -n 1 <<< "$text")" = onetwothree ] &&
	! grep -q "$esc" <<< "$text" && ! grep -q $'\r' <<< "$text" &&
	grep -qa "one${esc}\[2Jtwo" "$out/console.log"
ktap_result "the console on stdout is text, console.log as it came" $? \
	"rc $rc: $(grep -c "$esc" <<< "$text") lines with ESC on stdout: $err"

rm -rf "$out"
ktap_finish
