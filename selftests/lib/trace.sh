# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# trace.sh: record aicc's tracepoints in a selftest (source it after
# topo.sh; run as root inside the VM rig).
#
#   trace_have EVENT           is aicc:EVENT there (tracefs mounted here)?
#   trace_start EVENT...       clear the ring buffer (16 MB), order it by
#                              the counter clock and record the events;
#                              everything is put back at topo_cleanup
#   trace_stop FILE            stop recording and copy the trace to FILE
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
		topo_atexit "echo 0 > $TRACE_FS/events/aicc/$ev/enable"
		echo 1 > "$TRACE_FS/events/aicc/$ev/enable"
	done
	echo 1 > $TRACE_FS/tracing_on
}

trace_stop()
{
	local ev

	for ev in "${TRACE_EVENTS[@]}"; do
		echo 0 > "$TRACE_FS/events/aicc/$ev/enable"
	done
	cp $TRACE_FS/trace "$1"
	echo > $TRACE_FS/trace
	trace_buf_restore
}
