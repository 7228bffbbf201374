#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aicc-vm stage 2: PID 1 of the guest, started by the initramfs's /init
# after switch_root into the host's root (read-only 9p).  Runs the job the
# host wrote into the result share, then reports its exit status and the
# kernel log through that share and reboots (QEMU runs with -no-reboot, so
# the reboot ends it).  Not meant to be run by hand.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=dumb LANG=C.UTF-8 LC_ALL=C.UTF-8
export AICC_VM=1 AICC_OUT=/run/aicc

out=/run/aicc

finish() {
	sync
	umount "$out" 2>/dev/null
	echo 1 > /proc/sys/kernel/printk
	/bin/busybox reboot -f 2>/dev/null
	echo b > /proc/sysrq-trigger
	sleep 10
}

echo aicc-vm > /proc/sys/kernel/hostname
ip link set lo up 2>/dev/null

if [ ! -f "$out/job.sh" ]; then
	echo "aicc-vm guest: no job in $out" >&2
	finish
fi

# The host tells a boot failure (retried) from the job's own failure by this.
: > "$out/started"
bash "$out/job.sh" < /dev/null
st=$?

dmesg > "$out/dmesg.txt" 2>&1
echo "$st" > "$out/status.tmp" && mv "$out/status.tmp" "$out/status"
finish
