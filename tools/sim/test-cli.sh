#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aicc-sim command-line tests, KTAP output: bad input is refused with a
# one-line error and a non-zero exit; JSON output is well formed and the
# same for the same seed.
set -u
SIM=${AICC_SIM:-build/aicc-sim}
n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fail=$((fail + 1))
	fi
}

# refuse(name, args...): exit status 1 or 2, exactly one line on stderr
refuse() {
	local name=$1 err rc
	shift
	err=$("$SIM" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 0 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
	   [ -n "$err" ]; then
		ok 0 "$name"
	else
		echo "# rc $rc stderr: $err"
		ok 1 "$name"
	fi
}

echo "TAP version 13"
echo "1..30"
refuse rejects_unknown_scenario nosuch
refuse rejects_unknown_cc incast --cc cubic
refuse rejects_bad_number incast --flows 12x
refuse rejects_negative incast --flows -3
refuse rejects_zero_flows incast --flows 0
refuse rejects_ecn_above_buffer incast --buffer-kb 100 --ecn-kb 200
refuse rejects_unknown_knob incast --knob nosuch=1
refuse rejects_bad_knob_value incast --knob beta=5000
refuse rejects_knob_for_dctcp incast --cc dctcp --knob beta=500
refuse rejects_timestamp_tick_above_1s reverse --ts-tick-us 1000001
refuse rejects_timestamp_drift_above_10_percent reverse --ts-drift-ppm 100001
refuse rejects_stagger_step_too_long stagger --flows 4 --time-ms 100 --stagger-ms 20
refuse rejects_stagger_step_elsewhere incast --stagger-ms 1
refuse rejects_connect_jitter_above_1s stagger --connect-jitter-us 1000001
refuse rejects_ack_jitter_above_1s long --ack-jitter-us 1000001
refuse rejects_negative_seed incast --seed -5
# the default topology of alltoall is a leaf-spine: its sizes are checked
refuse rejects_empty_leaf alltoall --flows 4 --leaf-hosts 0
refuse roce_rejects_nan roce --time-ms nan
refuse roce_rejects_fractional_flows roce --flows 1.9
refuse roce_rejects_flows_past_u32 roce --flows 4294967297

# --profile-file: the aicc tool's profile format, read with the tuner's
# reader (tools/tune/kvfile.c) and the module's knob checks
tmp=$(mktemp -d /tmp/aicc-sim-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf 'aicc.nosuch = 1\n' > "$tmp/unknown.conf"
printf 'aicc.beta = 5000\n' > "$tmp/range.conf"
printf '# only a global knob\nglobal.rate_memory = 1\n' > "$tmp/none.conf"
printf 'aicc.beta = 500   # comment\naicc.ai = 150\n' > "$tmp/good.conf"
refuse rejects_profile_file_unknown_knob incast --profile-file "$tmp/unknown.conf"
refuse rejects_profile_file_out_of_range incast --profile-file "$tmp/range.conf"
refuse rejects_profile_file_without_aicc_knobs incast --profile-file "$tmp/none.conf"
refuse rejects_profile_file_missing incast --profile-file "$tmp/nosuch.conf"
# the file's knobs are the --knob ones; --knob on top overrides the file
run() { "$SIM" incast --flows 16 --time-ms 1 -j "$@" 2>&1 | strip; }
strip() { sed -e 's/"wall_s": [0-9.]*,//'; }
f=$(run --profile-file "$tmp/good.conf")
k=$(run --knob beta=500 --knob ai=150)
o=$(run --profile-file "$tmp/good.conf" --knob ai=900)
ko=$(run --knob beta=500 --knob ai=900)
d=$(run)
if [ -n "$f" ] && [ "$f" = "$k" ] && [ "$o" = "$ko" ] && [ "$f" != "$d" ] &&
   [ "$o" != "$f" ]; then
	ok 0 profile_file_same_as_knobs
else
	ok 1 profile_file_same_as_knobs
fi

a=$("$SIM" rpc --cc dctcp --flows 8 --time-ms 1 --seed 5 -j 2>&1)
rc=$?
b=$("$SIM" rpc --cc dctcp --flows 8 --time-ms 1 --seed 5 -j 2>&1)
if [ $rc = 0 ] && [ "$(printf '%s' "$a" | strip)" = "$(printf '%s' "$b" | strip)" ]; then
	ok 0 json_same_for_same_seed
else
	ok 1 json_same_for_same_seed
fi
if printf '%s' "$a" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["flows"] == 10 and d["fct"][0]["count"] > 0' 2>/dev/null; then
	ok 0 json_parses
else
	echo "# $a" | head -5
	ok 1 json_parses
fi
r=$("$SIM" reverse --flows 2 --time-ms 1 --ts-tick-us 1 -j 2>&1)
if printf '%s' "$r" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["scenario"] == "reverse" and d["hosts"] == 4 and d["flows"] == 3 and 0 < d["reverse_util"] <= 1' 2>/dev/null; then
	ok 0 json_reverse_scenario
else
	echo "# $r" | head -5
	ok 1 json_reverse_scenario
fi
# --trace-us: the sums line of each interval adds up to the run's totals
# (drops and marks happen only at the bottleneck here; the bottleneck's
# bytes over the whole run are the utilisation); all 64 flows are busy
# at an iteration's start and none in the idle gaps, and only busy flows
# add to the window; --trace-flows N prints N flow lines after each sums
# line (0: none)
trace_adds_up() {	# FLOWS_PER_LINE
	"$SIM" incast --flows 64 --buffer-kb 128 --ecn-kb 50 --time-ms 2 \
		--warmup-ms 0 --trace-us 100 --trace-flows "$1" -j \
		> "$tmp/trace.json" 2> "$tmp/trace.err" || return 1
	python3 - "$tmp/trace.json" "$tmp/trace.err" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sums, flows = [], 0
for line in open(sys.argv[2]):
    w = line.split()
    if w[1] == "all":
        sums.append(dict(zip(w[2::2], map(float, w[3::2]))))
    elif w[1] == "flow":
        flows += 1
    else:
        sys.exit("unexpected trace line: " + line.strip())
n = len(sums)
sent = sum(x["sent_gbit"] for x in sums) / n
offered = sum(x["offered_gbit"] for x in sums) / n
ok = (n == 20 and flows == n * int(sys.argv[3]) and d["drops"] > 0 and
      sum(x["drops"] for x in sums) == d["drops"] and
      sum(x["marks"] for x in sums) == d["ecn_marks"] and
      abs(sent - d["util"] * d["rate_gbit"]) < 0.01 * d["rate_gbit"] and
      offered > sent and
      all(x["busy"] <= 64 and (x["cwnd"] > 0) == (x["busy"] > 0)
          for x in sums) and
      max(x["busy"] for x in sums) == 64 and
      min(x["busy"] for x in sums) == 0)
print("# %d lines, %d flow lines, sent %.2f Gbit/s (util %.4f), "
      "offered %.2f, drops %d" % (n, flows, sent, d["util"], offered,
                                  d["drops"]))
sys.exit(0 if ok else 1)
PY
}
trace_adds_up 2
ok $? trace_sums_add_up_to_the_run
trace_adds_up 0
ok $? trace_flows_zero_prints_sums_only

echo "# $fail of $n failed"
[ $fail = 0 ]
