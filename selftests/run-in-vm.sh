#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs every VM selftest, in order, inside the guest that tools/vm/aicc-vm
# booted (selftests/run-all.sh starts it once per kernel):
#
#   selftests/<group>/test_*.sh            shell tests (KTAP on stdout)
#   build/selftests/<group>/test_*         C tests listed in VM_TESTS_C
#
# Each test's output goes to the console and to
# $AICC_OUT/results/<group>/<test>.ktap, its exit status to <test>.rc and
# its run time in seconds to <test>.time, and the list of tests it is about
# to run to $AICC_OUT/plan; run-all.sh counts the results from there.
# After each test, leftover network namespaces are deleted and tcp_aicc is
# unloaded (with a warning), so every test starts clean.
# AICC_TESTS="net/ module/test_x" runs only the tests whose <group>/<name>
# contains one of the words; AICC_TEST_TIMEOUT (seconds, default 600)
# bounds each test.  AICC_REPEAT=N runs each selected test N times in a
# row, as <test>@1 ... <test>@N (selftests/repeat.sh).  Prints its own KTAP
# summary, one line per test run, and exits 1 if any failed.

set -u

if [ "${AICC_VM:-}" != 1 ]; then
	echo "run-in-vm: runs inside the test VM only (see selftests/run-all.sh)" >&2
	exit 2
fi

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
. selftests/lib/module.sh

res=${AICC_OUT:?}/results
mkdir -p "$res" || exit 2
tmo=${AICC_TEST_TIMEOUT:-600}

tests=()
for t in selftests/*/test_*.sh build/selftests/*/test_*; do
	[ -f "$t" ] || continue
	case $t in *.c|*.o|*.d) continue ;; esac
	[ "${t%.sh}" != "$t" ] || [ -x "$t" ] || continue
	name=${t#build/}
	name=${name#selftests/}
	name=${name%.sh}
	if [ -n "${AICC_TESTS:-}" ]; then
		keep=0
		for w in $AICC_TESTS; do
			case $name in *"$w"*) keep=1 ;; esac
		done
		[ $keep -eq 1 ] || continue
	fi
	if [ "${AICC_REPEAT:-1}" -gt 1 ]; then
		for r in $(seq "$AICC_REPEAT"); do
			tests+=("$name@$r=$t")
		done
	else
		tests+=("$name=$t")
	fi
done

# The plan, one name a line, for run-all.sh: a test without results there
# (the VM killed, or this runner aborted, before it ran) is a failure.
printf '%s\n' "${tests[@]%%=*}" | sed '/^$/d' > "$AICC_OUT/plan"
ktap_plan ${#tests[@]}
ktap_info "aicc selftests on $(uname -r): ${#tests[@]} test programs"

# Hold on, for the whole run, every static key the tests switch on and
# off.  Each first-on and last-off of a key patches the kernel's text, and
# under QEMU's multi-threaded TCG a vCPU can run into the patch's int3
# after it is gone: the guest panics ("Oops: int3" at the netstamp site of
# __netif_receive_skb_core, seen on 6.12 with Soft-RoCE traffic).  With a
# holder a key's count never drops to zero, so the tests never patch it.
#  - netstamp_needed_key: every ping turns socket timestamps on and off.
#    Python's socket module lacks SO_TIMESTAMP, hence its number (29 on
#    x86 and the generic ABI); the holder says "held" once it is set.
#  - rps_needed: the RoCE testbed sets rps_cpus on its veths, and deleting
#    them drops the key; a down veth pair with RPS set holds it.
#  - the scheduler's tracepoints (sched_switch, sched_wakeup,
#    sched_wakeup_new): enabling any trace event starts ftrace's
#    command-line recording, which hooks them ("Oops: int3" in __schedule
#    on 6.12 when test_module enabled aicc:aicc_update).  Holding them on
#    costs every context switch a probe (utilisation fell from 0.95 to
#    0.79 in one behaviour run), so the rig turns the recording off
#    instead (option record-cmd): the trace shows no task names, which no
#    test reads.
key_holder()
{
	exec python3 -u -c '
import socket, sys, time
so_timestamp = getattr(socket, "SO_TIMESTAMP", 29)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, so_timestamp, 1)
if not s.getsockopt(socket.SOL_SOCKET, so_timestamp):
	sys.exit("SO_TIMESTAMP did not stick")
print("held")
time.sleep(1 << 30)
'
}
coproc TSTAMP { key_holder; }
tstamp_pid=$TSTAMP_PID
read -r -t 30 held <&"${TSTAMP[0]}"
[ "$held" = held ] ||
	echo "# warning: no socket-timestamp holder: text patching may race"
trap 'kill $tstamp_pid 2> /dev/null' EXIT
if ip link add aicc-khold0 type veth peer name aicc-khold1 2> /dev/null; then
	for d in aicc-khold0 aicc-khold1; do
		echo 1 > /sys/class/net/$d/queues/rx-0/rps_cpus 2> /dev/null ||
			echo "# warning: no RPS holder on $d"
	done
fi
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr 2> /dev/null
echo 0 > $tr/options/record-cmd 2> /dev/null ||
	echo "# warning: record-cmd stays on: the scheduler's tracepoints may be patched"
for entry in "${tests[@]}"; do
	name=${entry%%=*}
	t=${entry#*=}
	mkdir -p "$res/$(dirname "$name")"
	echo "# ---- $name"
	start=$(cut -d' ' -f1 /proc/uptime)
	case $t in
	*.sh) cmd=(bash "$t") ;;
	*) cmd=("./$t") ;;
	esac
	timeout -k 10 "$tmo" "${cmd[@]}" < /dev/null 2>&1 | tee "$res/$name.ktap"
	rc=${PIPESTATUS[0]}
	end=$(cut -d' ' -f1 /proc/uptime)
	echo "$rc" > "$res/$name.rc"
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f\n", b - a }' > "$res/$name.time"
	# Each test starts from a clean guest: no namespaces, no aicc module.
	left=$(ip netns list 2>/dev/null | awk '{ print $1 }')
	if [ -n "$left" ]; then
		echo "# warning: $name left network namespaces: $(echo $left)"
		for ns in $left; do
			ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
			ip netns del "$ns" 2>/dev/null
		done
	fi
	# aicc_roce holds a reference on tcp_aicc (its sysfs directory
	# lives under /sys/kernel/aicc): it goes first.
	if [ -d /sys/module/aicc_roce ]; then
		echo "# warning: $name left aicc_roce loaded; unloading it"
		rmmod aicc_roce 2>/dev/null
	fi
	if [ -d /sys/module/tcp_aicc ]; then
		echo "# warning: $name left tcp_aicc loaded ($(mod_busy_info)); unloading it"
		mod_unload || echo "# warning: tcp_aicc still in use after 30 s: $(mod_busy_info)"
	fi
	case $rc in
	124|137) ktap_fail "$name" "timed out after ${tmo}s" ;;
	*) ktap_result "$name" "$rc" ;;
	esac
done
ktap_finish
