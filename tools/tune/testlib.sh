# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# KTAP helpers of the aicc-tune shell tests (sourced):
#   t NAME CMD...   runs CMD, prints "ok N NAME" or "not ok N NAME"
#   fail MSG        prints "# MSG" and returns 1 (for CMD || fail ...)
#   t_done          prints the totals; its status is 0 when all passed
#   nr_knobs        prints the number of aicc knobs (uapi/aicc.h's enum)

N=0
FAILED=0
fail() { echo "# $*"; return 1; }
t() {
	local name=$1
	shift
	N=$((N + 1))
	if "$@"; then
		echo "ok $N $name"
	else
		echo "not ok $N $name"
		FAILED=$((FAILED + 1))
	fi
}
t_done() {
	echo "# $N tests, $FAILED failed"
	[ "$FAILED" = 0 ]
}

nr_knobs() {
	grep -c $'^\tAICC_K_' uapi/aicc.h
}
