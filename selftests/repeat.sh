#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run one VM selftest many times in a row and summarise how its results and
# measured values spread -- the evidence behind a behavioural test's
# margins ("passes 20 times in a row"):
#
#   selftests/repeat.sh [--kernel 6.1] [-n 20] [--out DIR] TEST
#   make check-repeat TEST=net/test_aicc_behaviour N=20 KERNEL=6.1
#
# TEST is <group>/<name> as selftests/run-in-vm.sh names it.  One VM boots
# and runs the test N times (AICC_REPEAT), each run cleaned up like in
# make check.  The summary lists, per result, how many runs passed, failed
# or missed a target ("# TODO"), and per measured value (the "# NAME: VALUE
# (want LO..HI)" lines of ktap_expect_range) its minimum, median and
# maximum over the runs.  Exit status 0 when every run passed: a run that
# skipped (exit 4) or reported fewer results than its plan did not, nor
# did any run of a VM that hung, died or logged a kernel warning.
#
# Timing-sensitive: run it on an otherwise idle machine.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2

kernel=6.1 n=20 out=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?}; shift 2 ;;
	-n) n=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	-h|--help) sed -n '4,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "repeat: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ] || [[ ! $n =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ]; then
	echo "usage: selftests/repeat.sh [--kernel K] [-n N] [--out DIR] GROUP/TEST" >&2
	exit 2
fi
test=${1%.sh}
test=${test#selftests/}
[ -f "selftests/$test.sh" ] || { echo "repeat: no selftests/$test.sh" >&2; exit 2; }
out=${out:-$top/build/repeat/$(echo "$test" | tr / -)-$kernel}
rm -rf "$out"
mkdir -p "$out"

echo "== $test x $n on $kernel (console: $out/console.log)"
start=$(date +%s)
tools/vm/aicc-vm --kernel "$kernel" --quiet --timeout $((n * 600 + 120)) \
	--out "$out" -- env AICC_TESTS="$test" AICC_REPEAT="$n" \
	bash selftests/run-in-vm.sh > /dev/null 2>&1
vrc=$?
echo "== $(($(date +%s) - start)) s, aicc-vm exit $vrc"

# run-in-vm.sh names the runs TEST@R.ktap, or TEST.ktap for a single one
runs=$(find "$out/results" \( -name "$(basename "$test")@*.ktap" -o \
	-name "$(basename "$test").ktap" \) 2>/dev/null | wc -l)
[ "$runs" -gt 0 ] || { echo "repeat: no results (see $out/console.log)" >&2; exit 1; }

# results: NAME  passed/failed/todo;  values: NAME  min median max
for f in "$out/results/$test"@*.ktap "$out/results/$test.ktap"; do
	[ -f "$f" ] || continue
	echo "rc $(cat "${f%.ktap}.rc" 2>/dev/null || echo 125)"
	sed -E -n \
		-e 's/^1\.\.([0-9]+).*/plan \1/p' \
		-e 's/^not ok [0-9]+ (.*) # TODO.*/todo \1/p' \
		-e 's/^not ok [0-9]+ (.*)/fail \1/p' \
		-e 's/^ok [0-9]+ (.*) # SKIP.*/skip \1/p' \
		-e 's/^ok [0-9]+ (.*)/pass \1/p' \
		-e "s/^# (.+): got '([-0-9.]+)'.*/value \1\t\2/p" \
		-e 's/^# (.+): ([-0-9.]+)[^ ]* \(want .*/value \1\t\2/p' "$f"
done | awk -v n="$runs" '
	# a run that skipped (exit 4) or gave fewer results than its plan
	# did not pass either
	function run_end() { if (plan > got) short++; plan = got = 0 }
	$1 == "rc" {
		run_end()
		if ($2 == 4) skipped++
		else if ($2 != 0) bad++
		next
	}
	$1 == "plan" { plan = $2; next }
	$1 == "value" {
		sub(/^value /, ""); split($0, kv, "\t")
		if (!(kv[1] in nv)) vorder[++nvals] = kv[1]
		vals[kv[1], ++nv[kv[1]]] = kv[2] + 0
		next
	}
	{
		got++
		st = $1; sub(/^[a-z]+ /, "")
		if (!($0 in seen)) { order[++nres] = $0; seen[$0] = 1 }
		cnt[$0, st]++
	}
	END {
		run_end()
		printf "%d runs; %d exited with a failure, %d skipped, %d with fewer results than planned\n\n", n, bad, skipped, short
		printf "%-58s %5s %5s %5s %5s\n", "result", "pass", "fail", "skip", "todo"
		for (i = 1; i <= nres; i++) {
			k = order[i]
			printf "%-58s %5d %5d %5d %5d\n", substr(k, 1, 58), cnt[k, "pass"], cnt[k, "fail"], cnt[k, "skip"], cnt[k, "todo"]
		}
		printf "\n%-50s %9s %9s %9s %4s\n", "value", "min", "median", "max", "n"
		for (i = 1; i <= nvals; i++) {
			k = vorder[i]; m = nv[k]
			for (a = 1; a <= m; a++) v[a] = vals[k, a]
			for (a = 2; a <= m; a++) for (b = a; b > 1 && v[b-1] > v[b]; b--) { t = v[b]; v[b] = v[b-1]; v[b-1] = t }
			med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
			printf "%-50s %9.3f %9.3f %9.3f %4d\n", substr(k, 1, 50), v[1], med, v[m], m
		}
		exit (bad + skipped + short > 0)
	}' | tee "$out/summary.txt"
rc=${PIPESTATUS[1]}
[ "$runs" -eq "$n" ] || { echo "repeat: only $runs of $n runs reported"; rc=1; }
# The VM run itself: 0 or 1 is the runner's own verdict on the runs counted
# above; anything else (the guest hung, died or logged a kernel warning,
# see tools/vm/aicc-vm; the runner killed or aborted) fails however the
# runs went.
if [ "$vrc" -gt 1 ]; then
	echo "repeat: the VM run failed (aicc-vm exit $vrc, see $out/console.log)"
	rc=1
fi
exit "$rc"
