#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aicc-tune command-line tests (KTAP): the profile file it writes is
# accepted by the aicc tool's own parser ('aicc profile load') and lands in
# a fake sysfs tree (AICC_SYSFS, built by aicc-mkfake) with the same values;
# the defaults header it writes compiles against the core's headers; runs
# repeat for a seed; bad input is refused with one line and nothing written.
#
# Environment: AICC_TUNE, AICC, AICC_MKFAKE (default: build/...).

set -u
cd "$(dirname "$0")/../.." || exit 1
TUNE=${AICC_TUNE:-$PWD/build/aicc-tune}
AICC=${AICC:-$PWD/build/aicc}
MKFAKE=${AICC_MKFAKE:-$PWD/build/aicc-mkfake}
CC=${CC:-cc}

TMP=$(mktemp -d /tmp/aicc-tune-load.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export AICC_SYSFS=$TMP/sys

. tools/tune/testlib.sh

# a short run from a non-default start, so the file differs from defaults
printf 'aicc_lat.target = 400   # start here\naicc_lat.ai = 2000\n' \
	> "$TMP/start.conf"
NR_KNOBS=$(nr_knobs)
SMALL="--profile aicc_lat --quick --generations 1 --lambda 4 --no-baselines"

tune_writes_profile() {
	"$TUNE" $SMALL --start "$TMP/start.conf" -o "$TMP/p.conf" \
		--log "$TMP/p.log" >/dev/null 2>"$TMP/err" ||
		fail "$(cat "$TMP/err")" || return 1
	[ "$(grep -c '^aicc_lat\.' "$TMP/p.conf")" = "$NR_KNOBS" ] ||
		fail "expected $NR_KNOBS knob lines" || return 1
	grep -q '^start: train objective' "$TMP/p.log" ||
		fail "log lacks the starting objective"
}

tool_loads_profile() {
	local line k v got
	"$MKFAKE" "$AICC_SYSFS" || return 1
	"$AICC" profile load -n "$TMP/p.conf" >/dev/null ||
		fail "aicc profile load -n refused the file" || return 1
	"$AICC" profile load "$TMP/p.conf" >/dev/null ||
		fail "aicc profile load failed" || return 1
	while read -r line; do
		line=${line%%#*}
		[ -n "${line// /}" ] || continue
		k=${line%%=*}; k=${k// /}; v=${line#*=}; v=${v// /}
		got=$(cat "$AICC_SYSFS/${k%%.*}/${k#*.}") ||
			fail "no sysfs file for $k" || return 1
		[ "$got" = "$v" ] || fail "$k: file $v, sysfs $got" || return 1
	done < "$TMP/p.conf"
}

# the header gives the command line on one comment line: a long one is cut
# (with a marker) and a control character escaped, so that 'aicc profile
# load' (lines of at most 1023 characters) reads the file
header_stays_loadable() {
	local -a many=()
	local nl="$TMP/a
b.log"
	while [ ${#many[@]} -lt 250 ]; do many+=(--seed 1); done
	"$TUNE" $SMALL --generations 0 "${many[@]}" -o "$TMP/long.conf" \
		>/dev/null 2>"$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	grep -q '^# aicc profile aicc_lat from aicc-tune --profile .* \.\.\.(cut)$' \
		"$TMP/long.conf" || fail "the long command line is not cut" ||
		return 1
	"$AICC" profile load -n "$TMP/long.conf" >/dev/null 2>"$TMP/err" ||
		fail "long command line: $(cat "$TMP/err")" || return 1
	"$TUNE" $SMALL --generations 0 --log "$nl" -o "$TMP/nl.conf" \
		>/dev/null 2>"$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	grep -qF -- "--log $TMP/a\x0ab.log -o" "$TMP/nl.conf" ||
		fail "the newline is not escaped" || return 1
	"$AICC" profile load -n "$TMP/nl.conf" >/dev/null 2>"$TMP/err" ||
		fail "newline in --log: $(cat "$TMP/err")"
}

defaults_h_compiles() {
	"$TUNE" --defaults-h "$TMP/defaults.h" --source "test" "$TMP/p.conf" ||
		return 1
	cat > "$TMP/d.c" <<'EOC'
#include "aicc_types.h"
#include "aicc.h"
#include "defaults.h"
int main(void) { return (int)aicc_default_knobs[AICC_PROF_LAT][AICC_K_AI]; }
EOC
	$CC -Wall -Wextra -Werror -fsyntax-only -Imodule/core -Iuapi \
		-I"$TMP" "$TMP/d.c" || fail "defaults.h does not compile" ||
		return 1
	# the aicc_lat row holds the file's values in knob order
	local want
	want=$(grep '^aicc_lat\.' "$TMP/p.conf" | sed 's/#.*//; s/.*= *//' |
		tr -d ' ' | paste -sd, -)
	got=$(sed -n '/\[AICC_PROF_LAT\] = {/,/},/p' "$TMP/defaults.h" |
		sed '1d;$d' | tr -d ' \t\n' | sed 's/,$//')
	[ "$want" = "$got" ] || fail "row '$got' != '$want'"
}

same_seed_same_file() {
	"$TUNE" $SMALL --start "$TMP/start.conf" -o "$TMP/q.conf" \
		>/dev/null 2>&1 || return 1
	diff <(grep -v '^#' "$TMP/p.conf") <(grep -v '^#' "$TMP/q.conf") \
		>/dev/null || fail "two runs with seed 1 differ"
}

# --eval FILE: the mixed RPC cases run the other profiles at FILE's knobs
# where it sets them (else at --start's): a file with aicc_lat's and
# aicc_bulk's lines scores as its aicc_lat lines with the aicc_bulk ones
# as --start, and not as its aicc_lat lines alone
held_out_of() {
	"$TUNE" $SMALL --generations 0 "$@" -o "$TMP/e.conf" >/dev/null \
		2>"$TMP/err" || { fail "$*: $(cat "$TMP/err")"; return 1; }
	sed -n 's/.*held-out [0-9.]* -> \([0-9.]*\).*/\1/p' "$TMP/e.conf"
}

eval_runs_files_other_profiles() {
	local both split alone
	grep '^aicc_lat\.' "$TMP/p.conf" > "$TMP/lat.conf"
	printf 'aicc_bulk.target = 2000\naicc_bulk.ai = 10\n' > "$TMP/bulk.conf"
	cat "$TMP/lat.conf" "$TMP/bulk.conf" > "$TMP/both.conf"
	both=$(held_out_of --eval "$TMP/both.conf") || return 1
	split=$(held_out_of --start "$TMP/bulk.conf" --eval "$TMP/lat.conf") ||
		return 1
	alone=$(held_out_of --eval "$TMP/lat.conf") || return 1
	echo "# held-out, tuned: both $both, split $split, aicc_lat alone $alone"
	[ -n "$both" ] && [ "$both" = "$split" ] ||
		fail "FILE's aicc_bulk lines not used" || return 1
	[ "$both" != "$alone" ] || fail "aicc_bulk's knobs change nothing"
}

# refuses: exit code, one line on stderr, no output file, an existing log
# file left as it was (REFUSE_OUT=0: the arguments name no -o and --log)
refuses() {
	local want=$1 io=()
	shift
	rm -f "$TMP/bad.conf"
	echo 'an earlier log' > "$TMP/bad.log"
	[ "${REFUSE_OUT:-1}" = 0 ] ||
		io=(--log "$TMP/bad.log" -o "$TMP/bad.conf")
	"$TUNE" "$@" "${io[@]}" >/dev/null 2>"$TMP/err"
	local rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, want $want" || return 1
	[ "$(wc -l < "$TMP/err")" = 1 ] || fail "$*: stderr not one line" ||
		return 1
	[ ! -e "$TMP/bad.conf" ] || fail "$*: wrote output" || return 1
	[ "$(cat "$TMP/bad.log")" = 'an earlier log' ] ||
		fail "$*: changed the log"
}

# --held-out-gate: with no generation the search has only its start, which
# is not better than itself, so the start is written back; from a bad
# start two generations do better on the held-out set (and as fair on its
# testbed cases) and their table is written.  The log says which, with
# the scores of the held-out set's four draws (--gate-draws) and their
# means; --gate-draws 1 compares the set's own scores alone.
held_out_gate() {
	local start tuned
	"$TUNE" $SMALL --generations 0 --held-out-gate --start "$TMP/start.conf" \
		-o "$TMP/g0.conf" --log "$TMP/g0.log" >/dev/null 2>"$TMP/err" ||
		fail "$(cat "$TMP/err")" || return 1
	grep -q '^held-out gate, means: .*the result is the start' "$TMP/g0.log" ||
		fail "gen 0: the log does not keep the start" || return 1
	# four draws, the same knobs: equal scores per draw, and the means
	local n='[0-9]+\.[0-9]{4}'
	grep -Eq "^held-out gate over 4 draws \(scenario seeds shifted by \+0\.\.\+3\): tuned ($n) ($n) ($n) ($n), start \1 \2 \3 \4\$" \
		"$TMP/g0.log" ||
		fail "gen 0: the log has no four equal draws" || return 1
	# and the draws are other seeds: their scores differ
	[ "$(sed -n 's/^held-out gate over 4 draws ([^)]*): tuned \(.*\), start .*/\1/p' \
		"$TMP/g0.log" | tr ' ' '\n' | sort -u | wc -l)" -gt 1 ] ||
		fail "gen 0: the four draws scored the same" || return 1
	# the held-out set has the testbed cases: their Jain, equal here
	grep -Eq "^held-out gate, means: .*; testbed cases' Jain tuned ([0-9.]+), start \1:" \
		"$TMP/g0.log" ||
		fail "gen 0: the gate's line has no equal testbed Jains" ||
		return 1
	grep -q 'held-out .* (not better: the start kept)' "$TMP/g0.conf" ||
		fail "gen 0: the file's header does not say so" || return 1
	start=$(awk '$1 == "aicc_lat.target" { print $3 }' "$TMP/g0.conf")
	[ "$start" = 400 ] ||
		fail "gen 0: target $start, not the start's 400" || return 1
	"$TUNE" $SMALL --generations 2 --held-out-gate --start "$TMP/start.conf" \
		-o "$TMP/g2.conf" --log "$TMP/g2.log" >/dev/null 2>"$TMP/err" ||
		fail "$(cat "$TMP/err")" || return 1
	grep -q '^held-out gate, means: .*the result is the tuned table' "$TMP/g2.log" ||
		fail "gen 2: the log does not take the tuned table" || return 1
	tuned=$(awk '$1 == "aicc_lat.target" { print $3 }' "$TMP/g2.conf")
	[ -n "$tuned" ] && [ "$tuned" != 400 ] ||
		fail "gen 2: target '$tuned', the start's written" || return 1
	"$TUNE" $SMALL --generations 0 --held-out-gate --gate-draws 1 \
		--start "$TMP/start.conf" -o "$TMP/g1.conf" --log "$TMP/g1.log" \
		>/dev/null 2>"$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	grep -q '^held-out gate: .*the result is the start' "$TMP/g1.log" &&
		! grep -q '^held-out gate over' "$TMP/g1.log" ||
		fail "--gate-draws 1: not the set's own scores alone"
}

bad_input_refused() {
	printf 'incast = x\n' > "$TMP/mix.conf"
	printf 'aicc.target = 99999\n' > "$TMP/badstart.conf"
	# a pair 'aicc profile load' refuses; a file without aicc's lines
	printf 'aicc.target_min_us = 100\naicc.target_max_us = 50\n' \
		> "$TMP/pair.conf"
	refuses 2 --profile nosuch &&
	refuses 2 --profile aicc --ecn-kb 2000 --buffer-kb 1000 &&
	refuses 2 --profile aicc --rate-gbit 0 &&
	refuses 2 --profile aicc --ts-tick-us 1000001 &&
	refuses 2 --roce --ts-tick-us 1 &&
	refuses 2 --roce --tlp &&
	refuses 2 --profile aicc --draws 0 &&
	refuses 2 --profile aicc --draws 5 &&
	refuses 2 --profile aicc --case-seed -1 &&
	refuses 2 --roce --draws 2 &&
	refuses 2 --roce --case-seed 7 &&
	refuses 2 --profile aicc --generations x &&
	refuses 2 --profile aicc --held-out-gate --eval "$TMP/p.conf" &&
	refuses 2 --roce --held-out-gate &&
	refuses 2 --profile aicc --gate-draws 2 &&
	refuses 2 --profile aicc --held-out-gate --gate-draws 0 &&
	refuses 2 --profile aicc --held-out-gate --gate-draws 9 &&
	refuses 2 --roce --gate-draws 2 &&
	refuses 2 &&
	refuses 1 --profile aicc --workload "$TMP/nonexistent" &&
	refuses 1 --profile aicc --workload "$TMP/mix.conf" &&
	refuses 1 --profile aicc --start "$TMP/badstart.conf" &&
	refuses 1 --profile aicc --quick --eval "$TMP/pair.conf" &&
	refuses 1 --profile aicc --quick --eval "$TMP/start.conf" &&
	refuses 2 --profile aicc --source text &&
	refuses 2 --profile aicc --rate-gbit 401 &&
	rate_and_rpc_load_limits &&
	unwritable_output_refused_first &&
	defaults_h_refuses -o "$TMP/x.conf" &&
	defaults_h_refuses --log "$TMP/x.log" &&
	defaults_h_refuses --profile aicc &&
	defaults_h_refuses --generations 3 &&
	defaults_h_refuses --held-out-gate &&
	defaults_h_refuses --eval "$TMP/p.conf" &&
	defaults_h_refuses --start "$TMP/p.conf" &&
	defaults_h_refuses --source 'two
lines'
}

# an -o that cannot be written is refused before the run (the log left as
# it was), not after it: a missing directory, a directory
unwritable_output_refused_first() {
	local o

	for o in "$TMP/nodir/x.conf" "$TMP"; do
		REFUSE_OUT=0 refuses 1 $SMALL --generations 1 \
			--log "$TMP/bad.log" -o "$o" || return 1
		grep -qF "$o" "$TMP/err" ||
			fail "-o $o: not named: $(cat "$TMP/err")" || return 1
		REFUSE_OUT=0 refuses 1 --roce --quick --generations 1 \
			--log "$TMP/bad.log" -o "$o" || return 1
	done
	# an empty name or one ending in '/': bad input, refused at once
	for o in "" "$TMP/sub/"; do
		REFUSE_OUT=0 refuses 2 $SMALL --generations 1 -o "$o" ||
			return 1
		grep -q "names no file" "$TMP/err" ||
			fail "-o '$o': $(cat "$TMP/err")" || return 1
	done
	unwritable_log_fails_the_run
}

# a log that cannot be written (a full disk) fails the run, and the
# profile is not written: the log is the run's record
unwritable_log_fails_the_run() {
	local a

	for a in "$SMALL" "--roce --quick"; do
		rm -f "$TMP/full.conf"
		# shellcheck disable=SC2086
		"$TUNE" $a --generations 0 --log /dev/full \
			-o "$TMP/full.conf" >/dev/null 2>"$TMP/err"
		[ $? = 1 ] && [ ! -e "$TMP/full.conf" ] &&
			grep -q "write error; nothing written" "$TMP/err" ||
			fail "$a, --log /dev/full: $(cat "$TMP/err")" ||
			return 1
	done
}

# the sets run cases at 4 times --rate-gbit and at up to 3 times (aicc_lat)
# the mix's rpc_load: 400 and 33 run, 34 is refused naming its line
rate_and_rpc_load_limits() {
	printf '# aicc_lat: 3 x 33 %%\nrpc_load = 33\n' > "$TMP/rpc33.conf"
	printf '# aicc_lat: 3 x 34 %%\nrpc_load = 34\n' > "$TMP/rpc34.conf"
	"$TUNE" $SMALL --generations 0 --rate-gbit 400 \
		--workload "$TMP/rpc33.conf" >/dev/null 2>"$TMP/err" ||
		fail "400 Gbit/s, rpc_load 33: $(cat "$TMP/err")" || return 1
	refuses 1 $SMALL --workload "$TMP/rpc34.conf" || return 1
	grep -q "rpc34.conf:2: rpc_load 34: .*at most 33" "$TMP/err" ||
		fail "not named: $(cat "$TMP/err")"
}

# --defaults-h merges files: a run's options are refused, not ignored, and
# so is a --source the header's string cannot hold (bad.conf: the header)
defaults_h_refuses() {
	REFUSE_OUT=0 refuses 2 --defaults-h "$TMP/bad.conf" "$@" "$TMP/p.conf"
}

echo "TAP version 13"
echo "1..8"
t tune_writes_profile tune_writes_profile
t aicc_tool_loads_tuned_profile tool_loads_profile
t header_long_or_control_command_line_loads header_stays_loadable
t defaults_h_compiles_with_file_values defaults_h_compiles
t same_seed_same_profile same_seed_same_file
t held_out_gate_keeps_the_start_unless_better held_out_gate
t eval_runs_the_files_other_profiles eval_runs_files_other_profiles
t bad_input_refused_one_line bad_input_refused
t_done
