#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: run libFuzzer harnesses for a fixed time each, KTAP on stdout.
#
#   tools/fuzz/run.sh [--time S] [--build DIR] NAME...
#   tools/fuzz/run.sh --probe CC      exit 0 if CC links -fsanitize=fuzzer
#
# NAME is a harness built as DIR/fuzz/NAME (DIR defaults to build/).  Its
# seeds are tools/fuzz/corpus/<NAME without "fuzz_">/ (read only); what it
# finds goes to DIR/fuzz/corpus/NAME/, kept between runs, so a longer run
# continues where the last stopped.  The harnesses run at once, each under
# nice -n 19 for S seconds (default 30), and each passes when libFuzzer ends
# without a crash,
# leak, timeout (10 s per input) or memory blow-up (2 GiB); a failing input
# is kept as DIR/fuzz/artifacts/NAME-crash-... and its report is printed.
# Reproduce one with: DIR/fuzz/NAME ARTIFACT.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/selftests/lib/ktap.sh"

secs=30
build=${BUILD:-$top/build}
while [ $# -gt 0 ]; do
	case $1 in
	--time)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --time needs seconds" >&2; exit 2; }
		secs=$2; shift 2 ;;
	--build)
		[ -n "${2:-}" ] || { echo "run.sh: --build needs a directory" >&2; exit 2; }
		build=$2; shift 2 ;;
	--probe)
		[ -n "${2:-}" ] || { echo "run.sh: --probe needs a compiler" >&2; exit 2; }
		command -v "$2" > /dev/null 2>&1 || exit 1
		t=$(mktemp -d) || exit 2
		printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
			'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
			'{ return d && n > 1 && d[0] == 1; }' > "$t/p.c"
		"$2" -fsanitize=fuzzer,address,undefined -o "$t/p" "$t/p.c" > /dev/null 2>&1
		rc=$?
		rm -rf "$t"
		exit $rc ;;
	-h|--help) sed -n '4,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "run.sh: no harness named (see --help)" >&2; exit 2; }

ktap_plan $#
# Every harness at once (the run is time-bound: two of them on two cores
# take the time of one), then the results in order.
declare -A pid
for name in "$@"; do
	bin=$build/fuzz/$name
	seeds=$here/corpus/${name#fuzz_}
	work=$build/fuzz/corpus/$name
	arts=$build/fuzz/artifacts
	[ -x "$bin" ] || continue
	mkdir -p "$work" "$arts"
	args=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048
	      -print_final_stats=1 -artifact_prefix="$arts/$name-" "$work")
	[ -d "$seeds" ] && args+=("$seeds")
	# The harness's own timer ends the run; the outer one catches a hang
	# of libFuzzer itself.
	timeout -k 10 $((secs * 2 + 60)) nice -n 19 "$bin" "${args[@]}" \
		> "$build/fuzz/$name.log" 2>&1 &
	pid[$name]=$!
done
for name in "$@"; do
	bin=$build/fuzz/$name
	work=$build/fuzz/corpus/$name
	log=$build/fuzz/$name.log
	if [ -z "${pid[$name]:-}" ]; then
		ktap_fail "$name: ${secs} s of fuzzing" "no harness $bin (make fuzz)"
		continue
	fi
	wait "${pid[$name]}"
	rc=$?
	runs=$(sed -n 's/^Done \([0-9]*\) runs in.*/\1/p' "$log" | tail -n 1)
	cov=$(sed -n 's/^stat::new_units_added:[[:space:]]*//p' "$log" | tail -n 1)
	if [ $rc -eq 0 ] && [ -n "$runs" ]; then
		ktap_info "$name: ${runs} inputs in ${secs} s, corpus $(ls "$work" | wc -l) files (+${cov:-0} new)"
		ktap_pass "$name: ${secs} s of fuzzing"
	else
		art=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | tail -n 1)
		ktap_info "$(grep -E 'ERROR:|runtime error:|promise broken|fuzz_[a-z]+:|SUMMARY:' "$log" | head -n 8)"
		ktap_fail "$name: ${secs} s of fuzzing" \
			"exit $rc; input kept as ${art:-?}; full log $log"
	fi
done
ktap_finish
