#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aicc-tune --roce (KTAP): a short deterministic run beats the DCQCN
# defaults on the training set and reports the held-out score; its file is
# applied by 'aicc rdma set --file' to a fake /sys/kernel/aicc/roce tree
# (AICC_SYSFS) and exported by 'aicc rdma export --format mlx5 --file';
# malformed files are rejected whole with one line and nothing written;
# 'aicc tune --roce' passes the mode on; --eval scores a file as the run
# that wrote it, --start searches from one, and a malformed one is refused.
#
# Environment: AICC_TUNE, AICC (default: build/...).

set -u
cd "$(dirname "$0")/../.." || exit 1
TUNE=${AICC_TUNE:-$PWD/build/aicc-tune}
AICC=${AICC:-$PWD/build/aicc}

TMP=$(mktemp -d /tmp/aicc-tune-roce.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export AICC_SYSFS=$TMP/sys
R=$AICC_SYSFS/roce

. tools/tune/testlib.sh

RUN="--roce --quick --generations 4 --lambda 8 --seed 3"

tune_improves() {
	local a b h
	"$TUNE" $RUN -o "$TMP/r.conf" --log "$TMP/r.log" > "$TMP/out" \
		2> "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	read -r a b < <(sed -n 's/.*: train \([-0-9.]*\) -> \([-0-9.]*\),.*/\1 \2/p' \
		"$TMP/r.conf")
	h=$(sed -n 's/^held-out score: dcqcn defaults \([-0-9.]*\), tuned \([-0-9.]*\)$/\1 \2/p' \
		"$TMP/r.log")
	echo "# training score: DCQCN defaults $a, tuned $b; held-out (defaults, tuned): $h"
	[ -n "$a" ] && [ -n "$b" ] && [ -n "$h" ] ||
		fail "no scores in the file header or the log" || return 1
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > a + 0.05) }' ||
		fail "tuned $b does not beat the defaults $a"
}

tune_repeats() {
	"$TUNE" $RUN -o "$TMP/r2.conf" > /dev/null 2>&1 || return 1
	cmp -s <(grep -v '^#' "$TMP/r.conf") <(grep -v '^#' "$TMP/r2.conf") ||
		fail "two runs with one seed differ"
}

# a fake aicc_roce tree: every knob the file names, at 0
fake_tree() {
	local k
	rm -rf "$AICC_SYSFS"
	mkdir -p "$R/stats"
	for k in $(grep -v '^#' "$TMP/r.conf" | sed 's/ *=.*//') rp_ai_rate; do
		echo 0 > "$R/$k"
	done
}

snapshot() { grep -r . "$R" | sort; }

set_applies_file() {
	local k v n=0
	fake_tree
	"$AICC" rdma set --file "$TMP/r.conf" 2> "$TMP/err" ||
		fail "rdma set --file: $(cat "$TMP/err")" || return 1
	while read -r k v; do
		[ "$(cat "$R/$k")" = "$v" ] || fail "$k: $(cat "$R/$k"), file $v" ||
			return 1
		n=$((n + 1))
	done < <(grep -v '^#' "$TMP/r.conf" | sed 's/ *= */ /; s/ *#.*//')
	[ "$n" -ge 10 ] || fail "only $n knobs in the file"
}

set_args_override_file() {
	fake_tree
	"$AICC" rdma set --file "$TMP/r.conf" rp_ai_rate=7 2> /dev/null &&
		[ "$(cat "$R/rp_ai_rate")" = 7 ] || fail "rp_ai_rate=7 not applied"
}

export_from_file() {
	local k v
	AICC_SYSFS=$TMP/none "$AICC" rdma export --format mlx5 \
		--file "$TMP/r.conf" -o "$TMP/mlx5.sh" 2> "$TMP/err" ||
		fail "export --file: $(cat "$TMP/err")" || return 1
	sh -n "$TMP/mlx5.sh" || fail "not valid sh" || return 1
	while read -r k v; do
		case $k in rp_*|np_*) ;; *) continue ;; esac
		grep -qx "echo $v > \"\$cc/$k\"" "$TMP/mlx5.sh" ||
			fail "export lacks $k = $v" || return 1
	done < <(grep -v '^#' "$TMP/r.conf" | sed 's/ *= */ /; s/ *#.*//')
	grep -q 'cc_algo\|aicc_profile' "$TMP/mlx5.sh" &&
		fail "export names a knob mlx5 lacks"
	return 0
}

bad_files_rejected() {
	local before rc case bad=0
	fake_tree
	"$AICC" rdma set --file "$TMP/r.conf" 2> /dev/null || return 1
	before=$(snapshot)
	for case in unknown range word negative noeq twice empty tcpfile long; do
		case $case in
		unknown) printf 'rp_ai_rate = 9\nnosuch_knob = 1\n' ;;
		range) printf 'rp_ai_rate = 9\nrp_gd = 99\n' ;;
		word) printf 'rp_ai_rate = 9\nrp_hai_rate = 2x\n' ;;
		negative) printf 'rp_ai_rate = 9\nrp_hai_rate = -1\n' ;;
		noeq) printf 'rp_ai_rate = 9\nrp_hai_rate 4\n' ;;
		twice) printf 'rp_ai_rate = 9\nrp_ai_rate = 8\n' ;;
		empty) printf '# only a comment\n\n' ;;
		tcpfile) printf 'aicc.target = 100\n' ;;
		long) printf 'rp_ai_rate = 9\nrp_hai_rate = %0600d\n' 1 ;;
		esac > "$TMP/bad.conf"
		"$AICC" rdma set --file "$TMP/bad.conf" > /dev/null 2> "$TMP/err"
		rc=$?
		if [ $rc -ne 2 ] || [ "$(wc -l < "$TMP/err")" -ne 1 ]; then
			echo "# $case: exit $rc, stderr: $(cat "$TMP/err")"
			bad=1
		fi
		"$AICC" rdma export --format mlx5 --file "$TMP/bad.conf" \
			> /dev/null 2>&1 && { echo "# export took $case"; bad=1; }
	done
	[ "$(snapshot)" = "$before" ] || fail "a rejected file changed sysfs" ||
		return 1
	[ $bad -eq 0 ]
}

# a long command line is cut in the header, a control character escaped:
# 'aicc rdma export --file' (lines of at most 511 characters) reads it
header_stays_loadable() {
	local -a many=()
	while [ ${#many[@]} -lt 120 ]; do many+=(--seed 3); done
	"$TUNE" --roce --quick --generations 1 --lambda 4 --log "$TMP/a
b.log" "${many[@]}" -o "$TMP/long.conf" > /dev/null 2> "$TMP/err" ||
		fail "$(cat "$TMP/err")" || return 1
	grep -q '^# aicc_roce knobs from aicc-tune .*a\\x0ab\.log.* \.\.\.(cut)$' \
		"$TMP/long.conf" || fail "the header is not escaped and cut" ||
		return 1
	AICC_SYSFS=$TMP/none "$AICC" rdma export --format mlx5 \
		--file "$TMP/long.conf" -o "$TMP/long.sh" 2> "$TMP/err" ||
		fail "export --file: $(cat "$TMP/err")"
}

verb_passes_roce() {
	AICC_TUNE=$TUNE "$AICC" tune --roce --quick --generations 1 \
		--lambda 4 -o "$TMP/v.conf" > /dev/null 2>&1 &&
		grep -q '^rp_ai_rate = ' "$TMP/v.conf" ||
		fail "aicc tune --roce wrote no RoCE file"
}

tcp_options_refused() {
	local o rc
	for o in "--profile aicc" "--rate-gbit 25" "--workload x.conf"; do
		"$TUNE" --roce $o -o "$TMP/x.conf" > /dev/null 2> "$TMP/err"
		rc=$?
		[ $rc -eq 2 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
			[ ! -e "$TMP/x.conf" ] ||
			fail "--roce $o: exit $rc: $(cat "$TMP/err")" || return 1
	done
}

# --eval FILE: no search; FILE's knobs score as the run that wrote it
eval_repeats_score() {
	local h e
	"$TUNE" --roce --quick --eval "$TMP/r.conf" --log "$TMP/e.log" \
		> /dev/null 2> "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	h=$(sed -n 's/^held-out score: dcqcn defaults [-0-9.]*, tuned //p' "$TMP/r.log")
	e=$(sed -n 's/^held-out score: dcqcn defaults [-0-9.]*, tuned //p' "$TMP/e.log")
	echo "# held-out score of r.conf: tuning run $h, --eval $e"
	[ -n "$h" ] && [ "$h" = "$e" ] || fail "--eval scored '$e', the run '$h'"
}

# --start FILE: the search starts from FILE's knobs (its 'start' score is
# the tuned score of the run that wrote FILE)
start_from_file() {
	local b s
	"$TUNE" --roce --quick --start "$TMP/r.conf" --generations 1 \
		--lambda 4 --log "$TMP/s.log" -o "$TMP/s.conf" > /dev/null \
		2> "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	b=$(sed -n 's/.*: train [-0-9.]* -> \([-0-9.]*\),.*/\1/p' "$TMP/r.conf")
	s=$(sed -n 's/^start: train score \([-0-9.]*\),.*/\1/p' "$TMP/s.log")
	echo "# r.conf: tuned train score $b; --start r.conf: start score $s"
	[ -n "$b" ] && [ "$b" = "$s" ] || fail "start score '$s', want '$b'" ||
		return 1
	grep -q '^# score (higher is better, start -> tuned)' "$TMP/s.conf" ||
		fail "s.conf's header does not name the start"
}

# a knob --start sets that the search does not move is in -o's file: the
# file alone (--eval without --start) scores as the run, and the aicc tool
# reads it
start_knob_written() {
	local h e
	printf 'rp_rate_to_set_on_first_cnp = 5000\n' > "$TMP/ns.conf"
	"$TUNE" --roce --quick --start "$TMP/ns.conf" --generations 1 \
		--lambda 4 --log "$TMP/ns.log" -o "$TMP/nso.conf" > /dev/null \
		2> "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	grep -q '^rp_rate_to_set_on_first_cnp = 5000 ' "$TMP/nso.conf" ||
		fail "the start's knob is not in the file" || return 1
	"$TUNE" --roce --quick --eval "$TMP/nso.conf" --log "$TMP/nse.log" \
		> /dev/null 2> "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	h=$(sed -n 's/^held-out score: start [-0-9.]*, tuned //p' "$TMP/ns.log")
	e=$(sed -n 's/^held-out score: dcqcn defaults [-0-9.]*, tuned //p' \
		"$TMP/nse.log")
	echo "# held-out score: run from the start $h, --eval of its file $e"
	[ -n "$h" ] && [ "$h" = "$e" ] || fail "--eval scored '$e', the run '$h'" ||
		return 1
	AICC_SYSFS=$TMP/none "$AICC" rdma export --format mlx5 \
		--file "$TMP/nso.conf" -o "$TMP/nso.sh" 2> "$TMP/err" ||
		fail "export --file: $(cat "$TMP/err")"
}

# a malformed --start or --eval file: one line naming it, exit 1, no -o,
# and an existing --log file left as it was
bad_start_eval_refused() {
	local c o rc bad=0
	for c in 'rp_bogus = 1' 'rp_ai_rate = 5x' 'rp_gd = 99' \
		 'rp_ai_rate = 5\nrp_ai_rate = 6' 'no equals sign'; do
		printf "$c\n" > "$TMP/bad.conf"
		for o in --start --eval; do
			rm -f "$TMP/o.conf"
			echo 'an earlier log' > "$TMP/o.log"
			"$TUNE" --roce --quick $o "$TMP/bad.conf" \
				--log "$TMP/o.log" -o "$TMP/o.conf" \
				> /dev/null 2> "$TMP/err"
			rc=$?
			if [ $rc -ne 1 ] || [ "$(wc -l < "$TMP/err")" -ne 1 ] ||
			   ! grep -q "bad.conf:[12]: " "$TMP/err" ||
			   [ -e "$TMP/o.conf" ] ||
			   [ "$(cat "$TMP/o.log")" != 'an earlier log' ]; then
				fail "$o '$c': exit $rc: $(cat "$TMP/err")"
				bad=$((bad + 1))
			fi
		done
	done
	[ $bad -eq 0 ]
}

echo "TAP version 13"
echo "1..13"
t roce_tune_beats_dcqcn_defaults tune_improves
t roce_tune_repeats_for_a_seed tune_repeats
t rdma_set_file_applies_every_knob set_applies_file
t rdma_set_arguments_override_file set_args_override_file
t rdma_export_mlx5_from_file export_from_file
t bad_knob_files_rejected_whole bad_files_rejected
t roce_header_long_or_control_command_line_loads header_stays_loadable
t aicc_tune_verb_passes_roce verb_passes_roce
t roce_refuses_tcp_options tcp_options_refused
t roce_eval_repeats_the_tuned_score eval_repeats_score
t roce_start_from_a_knob_file start_from_file
t roce_start_knobs_written_and_scored_alike start_knob_written
t roce_bad_start_or_eval_file_refused bad_start_eval_refused
t_done
