# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# wait.sh: bounded waits for what a selftest started, instead of sleeping a
# fixed time.  module.sh (the module selftests) and topo.sh (the network
# selftests, make bench, make demo) both source it; it keeps no state.
#
#   mod_wait_until SECONDS WHAT CMD...
#                          # run CMD every 0.1 s until it succeeds, for at
#                          # most SECONDS; status 1 and "no WHAT after
#                          # SECONDS s" (a KTAP comment when ktap.sh is
#                          # loaded, else on stderr) if it never does
#   mod_wait_listen NS PORT [SECONDS]
#                          # a TCP listener on PORT in network namespace
#                          # NS ("" for the caller's own), up to SECONDS (10)
#   mod_wait_conn NS PORT [SECONDS]
#                          # an established connection to PORT
#   mod_wait_ss NS SECONDS WHAT SS-ARGS...
#                          # any socket that ss(8) SS-ARGS lists
#   mod_wait_idle [SECONDS]
#                          # no socket running aicc: every profile's open
#                          # flows back to 0, up to SECONDS (20)

# mod_wait_until SECONDS WHAT CMD...: run CMD every 0.1 s until it
# succeeds, for at most SECONDS of elapsed time (one ss takes seconds on a
# debug kernel, so not a number of tries); status 1 and "no WHAT after
# SECONDS s" if it never does.
mod_wait_until()
{
	local secs=$1 what=$2 end

	shift 2
	end=$((SECONDS + secs))
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			if declare -F ktap_info > /dev/null; then
				ktap_info "no $what after $secs s"
			else
				echo "no $what after $secs s" >&2
			fi
			return 1
		fi
		sleep 0.1
	done
}

# mod_ss_lists NS SS-ARGS...: ss(8) in network namespace NS ("" for the
# test's own) lists a socket
mod_ss_lists()
{
	local ns=$1 in=()

	shift
	[ -n "$ns" ] && in=(ip netns exec "$ns")
	"${in[@]}" ss -H "$@" 2>/dev/null | grep -q .
}

# mod_wait_ss NS SECONDS WHAT SS-ARGS...: wait until ss lists a socket
mod_wait_ss()
{
	local ns=$1 secs=$2 what=$3

	shift 3
	mod_wait_until "$secs" "$what${ns:+ in $ns}" mod_ss_lists "$ns" "$@"
}

# mod_wait_listen NS PORT [SECONDS]: wait for a TCP listener on PORT instead
# of sleeping a fixed time after starting a server (under emulation a server
# can take seconds to get there).
mod_wait_listen()
{
	mod_wait_ss "$1" "${3:-10}" "TCP listener on port $2" -ltn "sport = :$2"
}

# mod_wait_conn NS PORT [SECONDS]: wait for an established TCP connection to
# PORT, instead of sleeping a fixed time after starting a client whose flow
# the next check needs.
mod_wait_conn()
{
	mod_wait_ss "$1" "${3:-10}" "connection to TCP port $2" \
		-tn state established "dport = :$2"
}

# mod_flows_zero: no profile of tcp_aicc has an open flow (true when the
# module is not loaded)
mod_flows_zero()
{
	local f n

	for f in /sys/kernel/aicc/*/stats/flows; do
		[ -r "$f" ] || continue
		read -r n < "$f" || return 1
		[ "$n" = 0 ] || return 1
	done
}

# mod_wait_idle [SECONDS]: wait until no socket runs aicc's code, every
# profile's open flows back to 0 (the sockets of a finished test close in
# the background), up to SECONDS (20).  A listener is not a flow.
mod_wait_idle()
{
	mod_wait_until "${1:-20}" "return of aicc's open flows to 0" mod_flows_zero
}
