#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: `make bench` -- aicc side by side with the stock algorithms.
#
#   tools/bench/bench.sh [--quick] [--kernel 6.1|6.12|both] [--reps N]
#                        [--algos "aicc cubic ..."] [--no-vm] [--no-sim]
#                        [--no-cpu] [--no-build] [--docs]
#
# 1. Testbed: boots each kernel in QEMU (tools/vm/aicc-vm, serialised with
#    flock on $AICC_VM_LOCK, default /tmp/aicc-vm.lock) and runs
#    tools/bench/guest.sh there: aicc, aicc_lat, aicc_bulk, cubic, dctcp,
#    bbr and nv through the same netns bottleneck, five scenarios, 3
#    repetitions (--quick: three scenarios, once); full runs then add the
#    learned policy's ablation (tools/train/vm-ablation.sh).  Raw results
#    in build/bench/vm-<kernel>/raw/.
# 2. Simulator: aicc-sim at datacenter scale (100 Gbit/s, 10 us, up to
#    256-way incast), the aicc profiles against DCTCP, Swift and Reno (and
#    the 256-way incast with tools/tune/results/fabric-256.conf), three
#    seeds (--quick: one), JSON in build/bench/sim/; and the learned
#    policy's ablation on the held-out set (aicc-train --eval).
# 3. CPU: instructions per ACK of aicc_fwd_rtt() and aicc_on_ack() under
#    callgrind, and native ns per ACK, from build/aicc-ackcost
#    (tools/bench/ackcost.c), into build/bench/cpu.txt.
# 4. Report (tools/bench/report.py): build/bench/report.txt (also printed),
#    results.json, results.csv and PNG plots.  --docs copies the report and
#    the plots to Documentation/bench/.  A report holds this run's results
#    only: the last run's are removed first (--kernel 6.12 after a 6.1 run
#    would otherwise report the 6.1 numbers under this run's commit).
#
# Full run: about 20 minutes of testbed on this project's 2-core machine;
# --quick about 5.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
build=${BUILD:-$top/build}
out=$build/bench

die() { echo "bench: $*" >&2; exit 2; }

quick=0 kernels=6.1 reps='' algos='' vm=1 sim=1 cpu=1 docs=0 bld=1
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--kernel) [ $# -ge 2 ] || die "--kernel needs a value"
		case $2 in
		6.1|6.12) kernels=$2 ;;
		both) kernels="6.1 6.12" ;;
		*) die "--kernel must be 6.1, 6.12 or both, not '$2'" ;;
		esac
		shift 2 ;;
	--reps) [ $# -ge 2 ] || die "--reps needs a value"
		[[ $2 =~ ^[1-9]$ ]] || die "--reps must be 1..9, not '$2'"
		reps=$2; shift 2 ;;
	--algos) [ $# -ge 2 ] || die "--algos needs a value"
		[[ $2 =~ ^[a-z0-9_\ ]+$ ]] || die "bad --algos '$2'"
		# each once (a second run would overwrite the first's
		# files), and at least one
		seen=' '
		for a in $2; do
			[[ $seen == *" $a "* ]] && die "--algos names '$a' twice"
			seen="$seen$a "
		done
		[ "$seen" != ' ' ] || die "--algos names no algorithm"
		algos=$2; shift 2 ;;
	--no-vm) vm=0; shift ;;
	--no-sim) sim=0; shift ;;
	--no-cpu) cpu=0; shift ;;
	--no-build) bld=0; shift ;;
	--docs) docs=1; shift ;;
	-h|--help) sed -n '4,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[ -n "$reps" ] || { [ $quick -eq 1 ] && reps=1 || reps=3; }

mkdir -p "$out" || exit 1
rm -rf "$out"/vm-* "$out/sim" "$out/cpu.txt" "$out"/callgrind-* "$out/plots" \
	"$out"/*.png "$out"/[0-9]*/*.png "$out/report.txt" "$out/results.json" \
	"$out/results.csv"
if [ $bld -eq 1 ]; then
	# selftests: the testbed helpers (qmon, for the learned policy's
	# ablation: tools/train/vm-ablation.sh)
	echo "bench: building (make kmods tools selftests aicc-ackcost; log: $out/build.log)"
	if ! make -s -j2 kmods tools selftests "$build/aicc-ackcost" \
		> "$out/build.log" 2>&1; then
		tail -n 20 "$out/build.log" >&2
		die "build failed"
	fi
fi
# What was measured: the commit, and whether the algorithm's sources differ
# from it.  An unpacked archive (no .git of its own) names its commit in
# BENCH_COMMIT.
{
	if [ -n "${BENCH_COMMIT:-}" ]; then
		echo "commit $BENCH_COMMIT"
		echo "module as committed (unpacked archive)"
	elif [ "$(git rev-parse --show-toplevel 2> /dev/null)" != "$top" ]; then
		echo "commit unknown (not a git checkout)"
		echo "module unknown"
	else
		echo "commit $(git rev-parse --short HEAD)"
		if git diff --quiet HEAD -- module uapi &&
		   [ -z "$(git status --porcelain -- module uapi)" ]; then
			echo "module clean"
		else
			echo "module modified"
		fi
	fi
} > "$out/source.txt"

rc=0

# ---- 1. testbed ----------------------------------------------------------
if [ $vm -eq 1 ]; then
	lock=${AICC_VM_LOCK:-/tmp/aicc-vm.lock}
	gargs=(--reps "$reps")
	[ $quick -eq 1 ] && gargs+=(--quick)
	[ -n "$algos" ] && gargs+=(--algos "$algos")
	# a full repetition took 4.7-6.3 min here, a quick one 3.2; the
	# ablation (full runs) 1.5 and boot and build 1
	tmo=$((quick ? 300 + reps * 360 : 900 + reps * 600))
	for k in $kernels; do
		bash tools/vm/deps-if-needed.sh "$k" || exit 2
		echo "bench: testbed on the stock $k kernel (QEMU; full run ~20 min," \
			"quick ~5); console: $out/vm-$k/console.log"
		rm -rf "$out/vm-$k"
		vmcmd=(tools/vm/aicc-vm --kernel "$k" --timeout "$tmo" --quiet
		       --out "$out/vm-$k" -- bash tools/bench/guest.sh "${gargs[@]}")
		if command -v flock > /dev/null; then
			flock "$lock" "${vmcmd[@]}" &
		else
			"${vmcmd[@]}" &
		fi
		vpid=$!
		# progress: the guest's "bench:" lines from the console
		seen=0 lstart='?' lmax='?'
		while kill -0 "$vpid" 2> /dev/null; do
			sleep 5
			if [ -f "$out/vm-$k/console.log" ]; then
				n=$(tr -d '\r' < "$out/vm-$k/console.log" | grep -a -c '^bench: ')
				if [ "$n" -gt "$seen" ]; then
					# the host's 1-minute load while the guest runs
					l=$(cut -d' ' -f1 /proc/loadavg)
					[ $seen -eq 0 ] && lstart=$l lmax=$l
					lmax=$(awk -v a="$l" -v b="$lmax" 'BEGIN { print (a > b) ? a : b }')
					tr -d '\r' < "$out/vm-$k/console.log" | grep -a '^bench: ' |
						tail -n $((n - seen))
					seen=$n
				fi
			fi
		done
		wait "$vpid"
		vrc=$?
		echo "load $k: $lstart at start, $lmax at most, $(cut -d' ' -f1 /proc/loadavg) at end" \
			>> "$out/source.txt"
		if [ $vrc -ne 0 ]; then
			echo "bench: the $k testbed run failed (exit $vrc); console:" \
				"$out/vm-$k/console.log" >&2
			rc=1
		fi
	done
fi

# ---- 2. simulator ----------------------------------------------------------
if [ $sim -eq 1 ]; then
	echo "bench: simulator runs (aicc-sim)"
	sd=$out/sim
	rm -rf "$sd"
	mkdir -p "$sd"
	if [ $quick -eq 1 ]; then
		seeds="1"
		scen=("long: 4 flows|long --flows 4"
		      "incast: 64-way|incast --flows 64"
		      "rpc: 16 clients at 30 % load, 2 bulk flows|rpc --flows 16 --rpc-load 30")
	else
		seeds="1 2 3"
		scen=("long: 4 flows|long --flows 4"
		      "stagger: 8 flows join and leave|stagger --flows 8 --time-ms 20"
		      "stagger: 8 persistent connections join and leave|stagger --flows 8 --time-ms 20 --preconnect"
		      "incast: 64-way|incast --flows 64"
		      "incast: 256-way, 512 KB buffer|incast --flows 256 --buffer-kb 512"
		      "incast: 64-way, 25 Gbit/s, 20 us|incast --flows 64 --rate-gbit 25 --rtt-us 20 --buffer-kb 512 --ecn-kb 32"
		      "rpc: 16 clients at 30 % load, 2 bulk flows|rpc --flows 16 --rpc-load 30"
		      "allreduce: ring of 8, 4 MB|allreduce --flows 8 --msg-kb 4096"
		      "alltoall: 16 hosts, leaf-spine|alltoall --flows 16 --leaf-hosts 4 --msg-kb 32")
	fi
	# the learned policy's ablation on the held-out set (under a second)
	if ! nice -n 19 "$build/aicc-train" --eval tools/train/results/aicc.model \
			> "$sd/ablation.txt" 2>&1; then
		echo "bench: aicc-train --eval failed: $(tail -n 1 "$sd/ablation.txt")" >&2
		rc=1
	fi
	ccs=("aicc|--cc aicc" "aicc_lat|--cc aicc --profile aicc_lat"
	     "aicc_bulk|--cc aicc --profile aicc_bulk"
	     "dctcp|--cc dctcp" "swift|--cc swift" "reno|--cc reno")
	# the 256-way incast also with the knobs re-tuned for that fabric
	# (make tune-fabric, Documentation/tuning.rst)
	fabric=tools/tune/results/fabric-256.conf
	n=0
	for s in "${scen[@]}"; do
		label=${s%%|*}
		cs=("${ccs[@]}")
		case $label in
		"incast: 256-way"*)
			[ -f "$fabric" ] &&
				cs+=("aicc-fabric256|--cc aicc --profile-file $fabric") ;;
		esac
		for c in "${cs[@]}"; do
			for seed in $seeds; do
				n=$((n + 1))
				f=run$n.json
				# shellcheck disable=SC2086
				if nice -n 19 "$build/aicc-sim" ${s#*|} ${c#*|} --seed "$seed" -j \
						> "$sd/$f" 2> "$sd/run$n.err"; then
					echo "$label|${c%%|*}|$seed|$f" >> "$sd/manifest.txt"
					rm -f "$sd/run$n.err"
				else
					echo "bench: aicc-sim ${s#*|} ${c#*|} failed:" \
						"$(head -c 200 "$sd/run$n.err")" >&2
					rc=1
				fi
			done
		done
	done
fi

# ---- 3. CPU cost -----------------------------------------------------------
if [ $cpu -eq 1 ]; then
	echo "bench: CPU cost of aicc_fwd_rtt() and aicc_on_ack() (callgrind)"
	c=$out/cpu.txt
	model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	echo "cpu ${model:-unknown}" > "$c"
	if ! command -v valgrind > /dev/null; then
		echo "bench: no valgrind (make deps): instructions per ACK not measured" >&2
		rc=1
	fi
	for p in aicc aicc_lat aicc_bulk; do
		if command -v valgrind > /dev/null; then
			log=$out/callgrind-$p.log
			valgrind --tool=callgrind --toggle-collect=aicc_on_ack \
				--toggle-collect=aicc_fwd_rtt \
				--callgrind-out-file="$out/callgrind-$p.out" \
				"$build/aicc-ackcost" -n 100000 -p "$p" > "$log" 2>&1
			ir=$(awk '/Collected :/ { print $NF }' "$log")
			calls=$(awk '/^calls / { print $2 }' "$log")
			if [ -n "$ir" ] && [ -n "$calls" ] && [ "$calls" -gt 0 ]; then
				awk -v p="$p" -v i="$ir" -v c="$calls" \
					'BEGIN { printf "ir_per_ack %s %.1f\n", p, i / c }' >> "$c"
			else
				echo "bench: callgrind run for $p failed (log: $log)" >&2
				rc=1
			fi
		fi
		# native timing: the fastest of three runs
		best=
		for _ in 1 2 3; do
			t=$("$build/aicc-ackcost" -n 200000 -p "$p" |
				awk '/^replay:/ { for (i = 1; i < NF; i++)
					if ($(i + 1) == "ns") print $i }')
			[ -n "$t" ] || continue
			if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
				best=$t
			fi
		done
		if [ -n "$best" ]; then
			echo "ns_per_ack $p $best" >> "$c"
		else
			echo "bench: native timing of $p failed ($build/aicc-ackcost -n 200000 -p $p)" >&2
			rc=1
		fi
	done
fi

# ---- 4. report -------------------------------------------------------------
echo
python3 tools/bench/report.py --png "$out" || exit 1
echo "bench: report $out/report.txt, $out/results.json, $out/results.csv," \
	"plots $out/*.png"

if [ $docs -eq 1 ]; then
	mkdir -p Documentation/bench
	# The documentation shows one kernel's plots: with two, report.py
	# put each kernel's under its release; take the oldest kernel's.
	src=$out
	if ! compgen -G "$out/*.png" > /dev/null; then
		src=$(find "$out" -mindepth 2 -maxdepth 2 -name '*.png' \
			-path "$out/[0-9]*" -printf '%h\n' | sort -uV | head -n 1)
	fi
	if [ -z "$src" ] || ! cp "$src"/*.png Documentation/bench/; then
		echo "bench: no plots to copy to Documentation/bench/" >&2
		exit 1
	fi
	cp "$out/report.txt" Documentation/bench/report.txt
	echo "bench: copied the report and plots to Documentation/bench/"
fi
exit $rc
