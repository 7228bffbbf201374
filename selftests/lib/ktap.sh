# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ktap.sh: KTAP output for aicc's shell selftests (source it).
#
#   . "$(dirname "$0")/../lib/ktap.sh"
#   ktap_plan 3                   # prints "TAP version 13" and "1..3"
#   ktap_pass "rate enforced"     # ok 1 rate enforced
#   ktap_fail "marks seen" "why"  # # why / not ok 2 marks seen
#   ktap_skip "ipv6" "no ipv6"    # ok 3 ipv6 # SKIP no ipv6
#   ktap_check NAME CMD...        # runs CMD: status 0 ok, 4 skip, else not ok
#   ktap_expect NAME "$a -ge 3"   # ok if the [ ... ] expression holds
#   ktap_expect_range NAME V LO HI  # ok if LO <= V <= HI (decimals fine)
#   ktap_target NAME V LO HI      # the same for a goal: a miss is
#                                 # "not ok 4 NAME # TODO ..." (a known gap,
#                                 # counted as skipped)
#   ktap_todo NAME "why"          # not ok 5 NAME # TODO why
#   ktap_expect_perf NAME V LO HI # ktap_expect_range for a timing or
#                                 # performance margin; a miss is a TODO
#                                 # on the debug kernel only
#   ktap_info "text"              # "# text" diagnostic
#   ktap_finish                   # exit 0 (all passed or some skipped),
#                                 # 1 (any failed, or fewer results than
#                                 # planned), 4 (everything skipped)
#   ktap_skip_all "reason"        # "1..0 # SKIP reason", exit 4
#
# Test names must not contain '#'.  Results go to stdout, diagnostics too
# (prefixed "# "), so the whole document can be parsed from one stream.

KTAP_PLANNED=
KTAP_NUM=0
KTAP_PASSED=0
KTAP_FAILED=0
KTAP_SKIPPED=0
KTAP_HEADER_DONE=0

ktap_header()
{
	if [ "$KTAP_HEADER_DONE" -eq 0 ]; then
		echo "TAP version 13"
		KTAP_HEADER_DONE=1
	fi
}

ktap_plan()
{
	ktap_header
	KTAP_PLANNED=$1
	echo "1..$1"
}

ktap_info()
{
	local line

	while IFS= read -r line; do
		echo "# $line"
	done <<< "$*"
}

ktap_pass()
{
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_PASSED=$((KTAP_PASSED + 1))
	echo "ok $KTAP_NUM ${1//#/}"
}

ktap_fail()
{
	[ -n "${2:-}" ] && ktap_info "$2"
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_FAILED=$((KTAP_FAILED + 1))
	echo "not ok $KTAP_NUM ${1//#/}"
}

ktap_skip()
{
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_SKIPPED=$((KTAP_SKIPPED + 1))
	echo "ok $KTAP_NUM ${1//#/} # SKIP ${2:-}"
}

# ktap_result NAME STATUS [REASON]: 0 = pass, 4 = skip, anything else fails.
ktap_result()
{
	case $2 in
	0) ktap_pass "$1" ;;
	4) ktap_skip "$1" "${3:-}" ;;
	*) ktap_fail "$1" "${3:-exit status $2}" ;;
	esac
}

# ktap_check NAME CMD...: run CMD, its output becomes diagnostics.
ktap_check()
{
	local name=$1 out rc
	shift
	out=$("$@" 2>&1) && rc=0 || rc=$?
	[ -n "$out" ] && ktap_info "$out"
	ktap_result "$name" "$rc"
}

# ktap_expect NAME EXPR [DETAIL]: EXPR is evaluated by test(1), e.g.
# "$got -ge 10"; DETAIL is printed when the expectation fails.
ktap_expect()
{
	local name=$1 expr=$2

	# shellcheck disable=SC2086
	if [ $expr ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "${3:-expected: $expr}"
	fi
}

# ktap_in_range VALUE LO HI: true when VALUE is a number in LO..HI.
ktap_in_range()
{
	awk -v v="$1" -v lo="$2" -v hi="$3" \
		'BEGIN { exit !(v != "" && v + 0 == v && v >= lo + 0 && v <= hi + 0) }'
}

# ktap_expect_range NAME VALUE LO HI [UNIT]: LO <= VALUE <= HI, decimals
# allowed; the value and bounds are printed either way.
ktap_expect_range()
{
	local name=$1 v=$2 lo=$3 hi=$4 unit=${5:-}

	if ktap_in_range "$v" "$lo" "$hi"; then
		ktap_info "$name: $v$unit (want $lo..$hi$unit)"
		ktap_pass "$name"
	else
		ktap_fail "$name" "$name: got '$v'$unit, want $lo..$hi$unit"
	fi
}

# ktap_todo NAME REASON: a known gap, "not ok N NAME # TODO REASON";
# KTAP counts it as skipped, not failed.
ktap_todo()
{
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_SKIPPED=$((KTAP_SKIPPED + 1))
	echo "not ok $KTAP_NUM ${1//#/} # TODO ${2:-}"
}

# ktap_target NAME VALUE LO HI: an issue's target for a metric, checked like
# ktap_expect_range; a miss is a TODO (ktap_todo), while the hard checks
# next to it keep wide margins against regressions.
ktap_target()
{
	if ktap_in_range "$2" "$3" "$4"; then
		ktap_info "$1: $2 (target $3..$4)"
		ktap_pass "$1"
	else
		ktap_todo "$1" "got $2, target $3..$4"
	fi
}

# ktap_expect_perf NAME VALUE LO HI [UNIT]: ktap_expect_range for a timing
# or performance margin (throughput, queueing delay, fairness), set for the
# stock kernels.  With AICC_DEBUG_KERNEL=1 (tools/debugkernel: KASAN and
# lockdep under emulation run several times slower) a number out of range
# is a TODO, so only functional checks fail there (no number at all, i.e.
# no traffic, still fails); elsewhere it is ktap_expect_range.
ktap_expect_perf()
{
	if [ "${AICC_DEBUG_KERNEL:-0}" = 1 ] && ktap_in_range "$2" "$2" "$2" &&
	   ! ktap_in_range "$2" "$3" "$4"; then
		ktap_todo "$1" "debug kernel, margin informational: got '$2'${5:-}, want $3..$4${5:-}"
		return
	fi
	ktap_expect_range "$@"
}

ktap_skip_all()
{
	ktap_header
	echo "1..0 # SKIP $*"
	exit 4
}

ktap_finish()
{
	local missing=0

	if [ -n "$KTAP_PLANNED" ] && [ "$KTAP_NUM" -ne "$KTAP_PLANNED" ]; then
		ktap_info "planned $KTAP_PLANNED tests but ran $KTAP_NUM"
		missing=1
	fi
	ktap_info "totals: $KTAP_PASSED passed, $KTAP_FAILED failed, $KTAP_SKIPPED skipped"
	if [ "$KTAP_FAILED" -gt 0 ] || [ $missing -ne 0 ]; then
		exit 1
	fi
	if [ "$KTAP_PASSED" -eq 0 ] && [ "$KTAP_SKIPPED" -gt 0 ]; then
		exit 4
	fi
	exit 0
}

# ktap_require CMD...: skip the whole test unless every command exists.
ktap_require()
{
	local c

	for c in "$@"; do
		command -v "$c" > /dev/null 2>&1 || ktap_skip_all "'$c' not installed"
	done
}

# ktap_require_root: skip the whole test unless running as root.
ktap_require_root()
{
	[ "$(id -u)" -eq 0 ] || ktap_skip_all "needs root"
}
