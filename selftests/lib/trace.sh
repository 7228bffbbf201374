# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# trace.sh: switch and record aicc's tracepoints in a selftest (run as root
# inside the VM rig).  Source it after module.sh or topo.sh (it needs
# ktap.sh and wait.sh, which both bring); trace_start and trace_stop need
# topo.sh.
#
#   trace_have EVENT           is aicc:EVENT there (tracefs mounted here)?
#   trace_switch EVENT 0|1     switch aicc:EVENT off or on, once no
#                              socket runs aicc's code (see below)
#   trace_start EVENT...       clear the ring buffer (16 MB), order it by
#                              the counter clock and record the events;
#                              everything is put back at topo_cleanup
#   trace_stop FILE            stop recording and copy the trace to FILE
#
# Switching a tracepoint rewrites the code at its call sites while other CPUs
# may run it (int3 first, then the new bytes, text_poke_bp()).  Under QEMU's
# multi-threaded TCG a vCPU that runs a site while it is rewritten can later
# execute the stale int3 and the guest kernel dies (6.12, test_module: see
# "The VM rig" in Documentation/testing.rst).  So the tests switch aicc's
# events only while no socket runs aicc: each profile's open flows at 0.
# (The rig, run-in-vm.sh, turns tracefs's record-cmd option off, so that
# the first event switched on does not hook the scheduler's tracepoints
# too.)  Real hardware needs neither.
#
# One socket's calls may run on different CPUs (softirq ACKs, the sending
# task): the records are ordered by the counter clock, one atomic count
# across CPUs.  The global clock is not enough: two calls on two CPUs can
# get the same stamp, and the merged trace then lists them in CPU order
# (seen on the debug kernel: a round ended one ACK early in the replay).

TRACE_FS=/sys/kernel/tracing
TRACE_EVENTS=()
[ -d $TRACE_FS/events ] || mount -t tracefs nodev $TRACE_FS 2>/dev/null

trace_have()
{
	[ -d "$TRACE_FS/events/aicc/$1" ]
}

trace_switch()
{
	local on

	read -r on < "$TRACE_FS/events/aicc/$1/enable" || return 1
	[ "${on%\*}" = "$2" ] && return 0
	mod_wait_idle 30 || ktap_info "aicc:$1 switched with aicc flows running"
	echo "$2" > "$TRACE_FS/events/aicc/$1/enable"
}

# trace_buf_kb FILE: the size in KB to write back to a buffer_size_kb
# FILE.  It reads "N", or "N (expanded: M)" while the ring buffer has never
# been used: any write expands it, so M, the size its first use would have
# given, is the one to restore; the global file reads "X" when the CPUs'
# sizes differ (no size: each CPU's own file is saved then).
trace_buf_kb()
{
	local v

	read -r v < "$1" || return 1
	case $v in
	*"(expanded: "*)
		v=${v#*"(expanded: "}
		v=${v%)}
		;;
	esac
	[[ $v =~ ^[0-9]+$ ]] && [ "$v" -gt 0 ] && echo "$v"
}

declare -A trace_buf_saved	# buffer_size_kb file -> KB

trace_buf_restore()
{
	local f

	for f in "${!trace_buf_saved[@]}"; do
		echo "${trace_buf_saved[$f]}" > "$f"
	done
}

trace_start()
{
	local clock ev f kb

	echo 0 > $TRACE_FS/tracing_on
	clock=$(cat $TRACE_FS/trace_clock)
	clock=${clock#*[}
	clock=${clock%%]*}
	echo counter > $TRACE_FS/trace_clock
	topo_atexit "echo $clock > $TRACE_FS/trace_clock"
	if kb=$(trace_buf_kb $TRACE_FS/buffer_size_kb); then
		trace_buf_saved[$TRACE_FS/buffer_size_kb]=$kb
	else
		for f in "$TRACE_FS"/per_cpu/cpu*/buffer_size_kb; do
			kb=$(trace_buf_kb "$f") && trace_buf_saved[$f]=$kb
		done
	fi
	[ ${#trace_buf_saved[@]} -gt 0 ] ||
		ktap_info "buffer_size_kb reads '$(cat $TRACE_FS/buffer_size_kb)': its size is not restored"
	topo_atexit trace_buf_restore
	echo 16384 > $TRACE_FS/buffer_size_kb
	echo > $TRACE_FS/trace
	TRACE_EVENTS=("$@")
	for ev in "$@"; do
		topo_atexit "trace_switch $ev 0"
		trace_switch "$ev" 1
	done
	echo 1 > $TRACE_FS/tracing_on
}

trace_stop()
{
	local ev

	# the recording ends here; the events go off once the flows have
	# closed (trace_switch)
	echo 0 > $TRACE_FS/tracing_on
	for ev in "${TRACE_EVENTS[@]}"; do
		trace_switch "$ev" 0
	done
	cp $TRACE_FS/trace "$1"
	echo > $TRACE_FS/trace
	echo 1 > $TRACE_FS/tracing_on
	trace_buf_restore
}
