# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# testbed.sh: the bench's path and its stagger and incast scenarios,
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

# shellcheck disable=SC2034
RATE_MBIT=20 DELAY_MS=5 ECN_K=30000 QUEUE_LIMIT=400000
# shellcheck disable=SC2034
STAGGER_SECS=10 STAGGER_MS=1000
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
