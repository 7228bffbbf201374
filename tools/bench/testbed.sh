# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# testbed.sh: the bench's path and its bulk, stagger and incast scenarios,
# sourced (after selftests/lib/topo.sh) by tools/bench/guest.sh and by
# tools/bench/stagger-ab-guest.sh, so that stagger-ab measures exactly the
# scenarios `make bench` reports.  Inside the test VM only.
#
#   RATE_MBIT DELAY_MS ECN_K QUEUE_LIMIT   the bottleneck: htb rate, netem
#                          delay, RED step-marking threshold and limit (B)
#   STAGGER_SECS STAGGER_MS                the stagger scenario's timing
#   INCAST_CONNS INCAST_SIZE INCAST_GAP    the incast scenario: connections,
#                          bytes each per iteration, idle gap (ms)
#   testbed_setup N        topo_setup with N senders on that path, fq on
#                          every sender
#   snd_list N             the first N sender namespaces, comma-separated
#   testbed_stagger PORT CC
#                          sets the array STAGGER_CMD: the aiccgen command
#                          line of the stagger scenario (four flows from
#                          the first four senders, joining and leaving
#                          STAGGER_MS apart) against the server on PORT
#   testbed_incast PORT CC ITERS
#                          sets the array INCAST_CMD: the incast scenario
#                          (INCAST_CONNS connections from the first eight
#                          senders, ITERS bursts after two warm-up ones)
#   testbed_bulk PORT CC SECS
#                          sets the array BULK_CMD: one bulk flow from the
#                          first sender for SECS seconds
#   testbed_qs_start FILE [DELAY_S]
#   testbed_qs_stop        the bottleneck's backlog sampled every 20 ms
#                          into FILE (tc -s output), from DELAY_S seconds
#                          on, until testbed_qs_stop (or the exit: the
#                          first start adds that to topo_cleanup)

# shellcheck disable=SC2034
RATE_MBIT=20 DELAY_MS=5 ECN_K=30000 QUEUE_LIMIT=400000
# shellcheck disable=SC2034
STAGGER_SECS=10 STAGGER_MS=1000
# The single flow's queue is sampled from this many seconds in, as its
# goodput (tools/bench/report.py skips the same first second): the start's
# overshoot (a stock slow start's 100 KB) is 1-2 % of the samples and set
# the stock algorithms' p99 in some runs and not in others.
# shellcheck disable=SC2034
BULK_QS_DELAY_S=1
# shellcheck disable=SC2034
INCAST_CONNS=16 INCAST_SIZE=32K INCAST_GAP=200

testbed_setup()
{
	# shellcheck disable=SC2034
	TOPO_SENDERS=$1 TOPO_RATE=${RATE_MBIT}mbit TOPO_DELAY=${DELAY_MS}ms
	# shellcheck disable=SC2034
	TOPO_AQM=red TOPO_ECN_K=$ECN_K TOPO_LIMIT=$QUEUE_LIMIT
	# shellcheck disable=SC2034
	TOPO_SENDER_QDISC=fq
	topo_setup
}

snd_list()
{
	local i s=

	for ((i = 1; i <= $1; i++)); do
		s=$s${s:+,}${TOPO_NS_SND[i]}
	done
	echo "$s"
}

testbed_stagger()
{
	# shellcheck disable=SC2034
	STAGGER_CMD=("$TOPO_AICCGEN" bulk -j -c "$TOPO_RCV_ADDR" -p "$1"
		--netns "$(snd_list 4)" --cc "$2" -n 4 -t "$STAGGER_SECS"
		--stagger "$STAGGER_MS" --leave --interval 250)
}

testbed_incast()
{
	# shellcheck disable=SC2034
	INCAST_CMD=("$TOPO_AICCGEN" incast -j -c "$TOPO_RCV_ADDR" -p "$1"
		--netns "$(snd_list 8)" --cc "$2" -n "$INCAST_CONNS"
		--size "$INCAST_SIZE" --iters "$3" --warmup 2 --gap "$INCAST_GAP"
		--rate-mbit "$RATE_MBIT" --base-rtt $((DELAY_MS * 1000)))
}

testbed_bulk()
{
	# shellcheck disable=SC2034
	BULK_CMD=("$TOPO_AICCGEN" bulk -j -c "$TOPO_RCV_ADDR" -p "$1"
		--netns "${TOPO_NS_SND[1]}" --cc "$2" -n 1 -t "$3"
		--interval 500)
}

# One long-lived tc reading "qdisc show" commands from a pipe every 20 ms
# (a fork per sample would load the emulated CPUs), stopped through a flag
# file so that tc exits normally and flushes its output.
# The first start also stops any sampler still running at exit.
testbed_qs_pid=
testbed_qs_armed=
testbed_qs_start()
{
	if [ -z "$testbed_qs_armed" ]; then
		topo_atexit 'touch "$TOPO_TMP/qs.stop"'
		testbed_qs_armed=1
	fi
	rm -f "$TOPO_TMP/qs.stop"
	{
		exec {fd}<> <(:)
		sleep "${2:-0}"
		while [ ! -e "$TOPO_TMP/qs.stop" ]; do
			echo "qdisc show dev r0"
			read -r -t 0.02 -u "$fd"
		done
	} | topo_rtr tc -s -batch - > "$1" 2>/dev/null &
	testbed_qs_pid=$!
}

testbed_qs_stop()
{
	[ -n "$testbed_qs_pid" ] || return 0
	touch "$TOPO_TMP/qs.stop"
	wait "$testbed_qs_pid" 2>/dev/null
	testbed_qs_pid=
}
