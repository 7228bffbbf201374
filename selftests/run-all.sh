#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-all.sh: every aicc test, on the host (this is what `make check` runs).
#
#   selftests/run-all.sh [--kernels "6.1 6.12"] [--no-deps] [--no-unit]
#                        [--timeout S] [TEST...]
#
#   1. deps-if-needed: installs the Debian packages (scripts/install-deps.sh,
#      needs root) when something the tests need is missing;
#   2. unit tests: `make check-unit` (userspace, KTAP);
#   3. builds: `make kmods` (tcp_aicc.ko for every installed kernel),
#      `make tools`, `make selftests` (C tests that run in the VM);
#   4. for each kernel, one VM (tools/vm/aicc-vm) running
#      selftests/run-in-vm.sh, which runs every selftests/*/test_*.sh;
#   5. counts every KTAP result line ("ok", "not ok", "# SKIP") of all of
#      it, prints the results per kernel and ends with the line
#      "N passed, N failed, N skipped".  Exit status 1 if anything failed.
#
# TEST words restrict the VM tests to names containing them (e.g. "net/").
# A test that exits non-zero without a "not ok" line, reports fewer
# results than it planned (one failure, "incomplete"), or times out counts
# as a failure; so does each test of the runner's plan that left no
# results, and a VM run that exits other than 0, 1 or 4: one that hangs,
# panics or logs a kernel WARNING/BUG (see tools/vm/aicc-vm), is killed or
# cannot start the runner.
# Logs: build/check/.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2

kernels=${AICC_KERNELS:-"6.1 6.12"}
deps=1
unit=1
vm_tmo=${AICC_VM_TIMEOUT:-1200}
words=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernels) [ $# -ge 2 ] || { echo "run-all: --kernels needs a value" >&2; exit 2; }
		kernels=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || { echo "run-all: --timeout needs a value" >&2; exit 2; }
		vm_tmo=$2; shift 2 ;;
	--no-deps) deps=0; shift ;;
	--no-unit) unit=0; shift ;;
	-h|--help) sed -n '4,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "run-all: unknown option '$1'" >&2; exit 2 ;;
	*) words+=("$1"); shift ;;
	esac
done

res=$top/build/check
rm -rf "$res"
mkdir -p "$res"
t_start=$(date +%s)

tot_pass=0
tot_fail=0
tot_skip=0
failures=()

# count_ktap FILE RC: sets c_pass c_fail c_skip from the top-level result
# lines of one KTAP document (or several concatenated), then applies the
# exit status rules above.
count_ktap()
{
	local f=$1 rc=$2 plan

	read -r c_pass c_fail c_skip plan < <(awk '
		/^ok [0-9]+/ || /^not ok [0-9]+/ {
			# SKIP, and TODO (a known, reported gap), count as
			# skipped: neither passed nor failed.
			if ($0 ~ /# *([Ss][Kk][Ii][Pp]|TODO)/) s++;
			else if ($0 ~ /^ok/) p++;
			else f++;
		}
		/^1\.\.[0-9]+/ { n = $0; sub(/^1\.\./, "", n); sub(/[^0-9].*/, "", n); pl += n }
		END { printf "%d %d %d %d\n", p, f, s, pl }' "$f" 2>/dev/null || echo "0 0 0 0")
	if [ "$rc" -eq 4 ] && [ $((c_pass + c_fail + c_skip)) -eq 0 ]; then
		c_skip=1
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$c_fail" -eq 0 ]; then
		c_fail=1
	elif [ $((c_pass + c_fail + c_skip)) -eq 0 ]; then
		c_fail=1
	fi
	# results missing from the plan: one more failure ("incomplete")
	if [ "$plan" -gt $((c_pass + c_fail + c_skip)) ]; then
		c_fail=$((c_fail + 1))
	fi
}

# add NAME: adds c_* to the totals and prints one result line.
add()
{
	local name=$1 extra=${2:-} st=ok

	tot_pass=$((tot_pass + c_pass))
	tot_fail=$((tot_fail + c_fail))
	tot_skip=$((tot_skip + c_skip))
	if [ "$c_fail" -gt 0 ]; then
		st=FAIL
		failures+=("$name")
	elif [ "$c_pass" -eq 0 ] && [ "$c_skip" -gt 0 ]; then
		st=skip
	fi
	printf '  %-4s  %-34s %3d passed, %d failed, %d skipped%s\n' \
		"$st" "$name" "$c_pass" "$c_fail" "$c_skip" "$extra"
}

# ---- 1. dependencies ------------------------------------------------------

if [ $deps -eq 1 ]; then
	echo "== deps-if-needed"
	bash tools/vm/deps-if-needed.sh $kernels || exit 2
fi

# ---- 2. unit tests --------------------------------------------------------

jobs=$(nproc 2>/dev/null || echo 2)
if [ $unit -eq 1 ]; then
	echo "== unit tests (make check-unit)"
	make -k check-unit > "$res/unit.log" 2>&1
	rc=$?
	count_ktap "$res/unit.log" "$rc"
	[ "$c_fail" -eq 0 ] || grep -E '^not ok|^# ' "$res/unit.log" | grep -B3 -A0 '^not ok' | head -n 40
	add "unit tests" "  (log: build/check/unit.log)"
fi

# ---- 3. builds ------------------------------------------------------------

echo "== builds"
{
	echo "TAP version 13"
	echo "1..3"
	n=0
	for target in kmods tools selftests; do
		n=$((n + 1))
		if make -j"$jobs" "$target" > "$res/build-$target.log" 2>&1; then
			echo "ok $n make $target"
		else
			tail -n 20 "$res/build-$target.log" | sed 's/^/# /'
			echo "not ok $n make $target"
		fi
	done
} > "$res/build.ktap"
count_ktap "$res/build.ktap" 0
grep -E '^not ok|^# ' "$res/build.ktap"
add "make kmods, tools, selftests" "  (logs: build/check/build-*.log)"

# ---- 4. VM tests, one VM per kernel ---------------------------------------

for k in $kernels; do
	out=$res/vm-$k
	mkdir -p "$out"
	echo "== kernel $k: booting the VM (console: build/check/vm-$k/console.log)"
	vstart=$(date +%s)
	AICC_TESTS="${words[*]:-}" tools/vm/aicc-vm --kernel "$k" --timeout "$vm_tmo" \
		--out "$out" -- env AICC_TESTS="${words[*]:-}" \
		bash selftests/run-in-vm.sh 2>&1 | tee "$res/vm-$k.log" |
		grep --line-buffered -E '^# ---- |^(not )?ok [0-9]' |
		sed -u -e 's/^# ---- \(.*\)/   -- \1/; t' -e 's/^/      /'
	vrc=${PIPESTATUS[0]}
	vend=$(date +%s)
	rel=$(sed -n 's/.*aicc selftests on \([^:]*\):.*/\1/p' "$res/vm-$k.log" | head -n 1)
	echo "== kernel ${rel:-$k}: $((vend - vstart)) s"
	# Without a module for the kernel that booted (its headers missing:
	# a cloud or rt image, say), every module test would only skip.
	if [ -n "$rel" ] && [ ! -f "$top/build/$rel/tcp_aicc.ko" ]; then
		c_pass=0 c_fail=1 c_skip=0
		add "$k: a module built for the booted $rel" \
			"  (no build/$rel/tcp_aicc.ko: are its headers installed?)"
	fi
	if [ -d "$out/results" ]; then
		while IFS= read -r f; do
			name=${f#"$out/results/"}
			name=${name%.ktap}
			rc=$(cat "$out/results/$name.rc" 2>/dev/null || echo 125)
			secs=$(cat "$out/results/$name.time" 2>/dev/null || echo "?")
			count_ktap "$f" "$rc"
			add "$k: $name" "  (${secs} s)"
			if [ "$c_fail" -gt 0 ]; then
				grep -E '^not ok' -B4 "$f" | sed 's/^/        /' | head -n 30
			fi
		done < <(find "$out/results" -name '*.ktap' | sort)
	fi
	# The runner's plan (the tests it set out to run, one a line): each
	# one without results did not run, the VM run having ended first.
	if [ -f "$out/plan" ]; then
		while IFS= read -r name; do
			[ -n "$name" ] && [ ! -f "$out/results/$name.ktap" ] || continue
			c_pass=0 c_fail=1 c_skip=0
			add "$k: $name" "  (no results: the VM run ended before it ran)"
		done < "$out/plan"
	fi
	case $vrc in
	0|1|4)
		# the runner's own status: its tests' failures are counted above
		if [ ! -f "$out/plan" ]; then
			c_pass=0 c_fail=1 c_skip=0
			add "$k: VM run" "  (exit $vrc but no test plan from run-in-vm.sh)"
		fi
		;;
	124|125|126)
		# the VM itself failed: hung, died, or kernel warnings
		c_pass=0 c_fail=1 c_skip=0
		add "$k: VM run" "  (aicc-vm exit $vrc, see build/check/vm-$k.log)"
		grep -E '^aicc-vm:' -A 20 "$res/vm-$k.log" | head -n 25 | sed 's/^/        /'
		;;
	*)
		# anything else ended the run early (killed, 137/143; the
		# command not found, 127; the runner's own error, 2)
		c_pass=0 c_fail=1 c_skip=0
		add "$k: VM run" "  (exit $vrc, see build/check/vm-$k.log)"
		;;
	esac
done

t_end=$(date +%s)
echo
echo "== total time $((t_end - t_start)) s; logs in build/check/"
if [ ${#failures[@]} -gt 0 ]; then
	echo "== failed: ${failures[*]}"
fi
echo "$tot_pass passed, $tot_fail failed, $tot_skip skipped"
[ "$tot_fail" -eq 0 ]
