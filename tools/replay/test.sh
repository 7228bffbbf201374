#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host unit tests of aicc-replay (KTAP): a synthetic trace written by
# aicc-replay-gen in the tracepoint's format replays with no difference;
# a changed state byte or event set is found and named; malformed lines,
# lost events, one socket's calls out of order (a trace clock that does
# not order CPUs), records made with a learned-policy model (the replay
# runs without one) and unreadable files are rejected (exit 2); flows whose
# init was not recorded are skipped.  The real check, on a trace recorded
# from the module, is selftests/net/test_same_decisions.sh.

set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/lib/ktap.sh
REPLAY=${AICC_REPLAY:-$PWD/build/aicc-replay}
GEN=${AICC_REPLAY_GEN:-$PWD/build/aicc-replay-gen}
TMP=$(mktemp -d /tmp/aicc-replay.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# run FILE: sets rc and out
run()
{
	out=$("$REPLAY" "$1" 2>&1) && rc=0 || rc=$?
}

ktap_plan 13

"$GEN" 3 > "$TMP/t" || { ktap_fail "generate"; ktap_finish; }
run "$TMP/t"
summary=$(echo "$out" | tail -1)
ktap_info "$summary"
# the four counts become $1-$4
# shellcheck disable=SC2046
set -- $(echo "$summary" | sed -E 's/.*; ([0-9]+) rounds, ([0-9]+) cuts, ([0-9]+) idle restarts;.* ([0-9]+) mismatches/\1 \2 \3 \4/')
ktap_expect "identical decisions on a generated trace" \
	"$rc -eq 0 -a ${4:-1} -eq 0"
undo=$(echo "$summary" | grep -oE 'undo [0-9]+' | cut -d' ' -f2)
ktap_expect "the trace has rounds, cuts, idle restarts and an undo" \
	"${1:-0} -gt 100 -a ${2:-0} -gt 10 -a ${3:-0} -ge 3 -a ${undo:-0} -ge 1"

# Line 2000 is an ACK of the middle flow: change the first byte of its
# recorded state (the low byte of cwnd).
awk 'NR == 2000 { sub(/ out=../, " out=ff") } { print }' "$TMP/t" > "$TMP/m"
run "$TMP/m"
ktap_expect "a changed window is found and named" \
	"$rc -eq 1 -a $(echo "$out" | grep -c 'line 2000: ack .* cwnd') -eq 1"

# ... and its last byte (xflags, the last member of struct aicc_flow)
awk 'NR == 2000 {
	i = index($0, " out=") + 5 + 158
	b = substr($0, i, 2) == "ff" ? "00" : "ff"
	$0 = substr($0, 1, i - 1) b substr($0, i + 2)
} { print }' "$TMP/t" > "$TMP/m"
run "$TMP/m"
ktap_expect "a changed last byte is found and named" \
	"$rc -eq 1 -a $(echo "$out" | grep -c 'line 2000: ack .* xflags [0-9]* (kernel') -eq 1"

awk 'NR == 2000 { sub(/ ret=[0-9a-fx]+/, " ret=0x4000") } { print }' \
	"$TMP/t" > "$TMP/m"
run "$TMP/m"
ktap_expect "a changed event set is found" \
	"$rc -eq 1 -a $(echo "$out" | grep -c 'line 2000: .*events') -eq 1"

awk 'NR == 50 { $0 = substr($0, 1, length($0) - 4) } { print }' \
	"$TMP/t" > "$TMP/m"
run "$TMP/m"
ktap_expect "a truncated record is rejected" \
	"$rc -eq 2 -a $(echo "$out" | grep -c 'line 50: malformed') -eq 1"

{ head -100 "$TMP/t"; echo "CPU:0 [LOST 12 EVENTS]"; tail -n +101 "$TMP/t"; } \
	> "$TMP/m"
run "$TMP/m"
ktap_expect "lost events are reported" \
	"$rc -eq 2 -a $(echo "$out" | grep -c 'lost events') -eq 1"

# the trace file's header: a buffer that wrapped overwrote the oldest
# events (no LOST marker in 'trace'), one that did not replays as before
n=$(wc -l < "$TMP/t")
hdr() { printf '# tracer: nop\n#\n# entries-in-buffer/entries-written: %s   #P:2\n#\n' "$1"; }
{ hdr "$((n - 40))/$n"; cat "$TMP/t"; } > "$TMP/m"
run "$TMP/m"
ktap_expect "an overwritten ring buffer is reported" \
	"$rc -eq 2 -a $(echo "$out" | grep -c 'line 3: .*overwrote 40 of') -eq 1" \
	"exit $rc: $out"
{ hdr "$n/$n"; cat "$TMP/t"; } > "$TMP/m"
run "$TMP/m"
same=$([ "$(echo "$out" | tail -1)" = "$summary" ] && echo 1)
ktap_expect "a whole trace with its header replays" \
	"$rc -eq 0 -a ${same:-0} -eq 1" "exit $rc: $out"

awk 'NR == 3000 { sub(/ arg=0,/, " arg=1,") } { print }' "$TMP/t" > "$TMP/m"
run "$TMP/m"
ktap_expect "a record made with a model loaded is refused" \
	"$rc -eq 2 -a $(echo "$out" | grep -c 'line 3000: .*learned-policy') -eq 1"

# Line 2000 swapped with the next ACK of its socket: the replay sees that
# socket's clock step back and names the trace's order, not a decision.
awk 'NR == FNR {
	if (FNR == 2000) { split($0, f, " call="); key = f[1]; sub(/.* sk=/, "", key) }
	else if (key != "" && !swap && index($0, " sk=" key " call=2 ")) swap = FNR
	next
}
FNR == 2000 { held = $0; next }
FNR == swap { print; print held; next }
{ print }' "$TMP/t" "$TMP/t" > "$TMP/m"
run "$TMP/m"
ktap_expect "two calls of one socket out of order are reported" \
	"$rc -eq 2 -a $(echo "$out" | grep -c 'out of order') -eq 1"

run "$TMP/missing"
ktap_expect "a missing file is an error" "$rc -eq 2"

# Without its init (the first two lines), flow 0 is skipped, not wrong.
{ echo "# tracer: nop"; tail -n +3 "$TMP/t"; } > "$TMP/m"
run "$TMP/m"
ktap_expect "flows without a recorded init are skipped" \
	"$rc -eq 0 -a $(echo "$out" | grep -cE '; [1-9][0-9]* skipped; 0 mismatches') -eq 1"

ktap_finish
