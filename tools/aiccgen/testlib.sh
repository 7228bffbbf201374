# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# testlib.sh: what aiccgen's two test scripts share (source it): test.sh on
# loopback and vm-test.sh through a bottleneck in the VM.  KTAP output.
#
#   tmp=...; TESTS=("name t_func" ...)   # set by the script
#   json FILE PYTHON-EXPR...   # load FILE as "d", assert every expression
#   run_tests REASON [COMMENT] # the plan, then every test of TESTS; when
#                              # the first fails, the rest are reported
#                              # "not ok N name # REASON"; exit 0 when all
#                              # passed, else 1
#
# A test function's output is shown (as "# " lines, at most 20) only when
# it fails; what it writes to $tmp/info is shown when it passes.
# AICCGEN_TEST_TIME=1 adds each passing test's run time in seconds.

num=0
fails=0

json()
{
	local file=$1
	shift
	python3 - "$file" "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for expr in sys.argv[2:]:
    if not eval(expr):
        print("assertion failed: " + expr)
        sys.exit(1)
EOF
}

# shellcheck disable=SC2154 # tmp is the sourcing script's
run_test()
{
	local name=$1 t0=$SECONDS
	shift
	num=$((num + 1))
	rm -f "$tmp/info"
	if "$@" >"$tmp/log" 2>&1; then
		echo "ok $num $name"
		[ -s "$tmp/info" ] && sed 's/^/# /' "$tmp/info"
		[ -n "${AICCGEN_TEST_TIME:-}" ] && echo "# $((SECONDS - t0)) s"
	else
		echo "not ok $num $name"
		sed 's/^/# /' "$tmp/log" | head -20
		fails=$((fails + 1))
	fi
}

run_tests()
{
	local reason=$1 t i

	echo "TAP version 13"
	echo "1..${#TESTS[@]}"
	[ -n "${2:-}" ] && echo "# $2"
	for t in "${TESTS[@]}"; do
		# shellcheck disable=SC2086
		run_test $t
		if [ "$num" -eq 1 ] && [ "$fails" -ne 0 ]; then
			echo "# $reason, skipping the rest" >&2
			for ((i = 2; i <= ${#TESTS[@]}; i++)); do
				# shellcheck disable=SC2086
				set -- ${TESTS[$((i - 1))]}
				echo "not ok $i $1 # $reason"
			done
			exit 1
		fi
	done
	echo "# $((num - fails)) passed, $fails failed"
	[ "$fails" -eq 0 ] || exit 1
	exit 0
}
