#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# roce-vm-compare.sh's argument checks on the host (KTAP), no VM needed:
# no FILE, a FILE that cannot be read, -r or -s out of range or without a
# value, an unknown option each exit 2 with one line naming the problem;
# valid arguments outside the VM rig exit 4 (skip) before touching
# anything.  Knob files the module refuses are caught inside the VM (the
# script applies each FILE once before measuring).

set -u
cd "$(dirname "$0")/../.." || exit 1
CMP=tools/tune/roce-vm-compare.sh
CONF=tools/tune/results/roce.conf

TMP=$(mktemp -d /tmp/aicc-tune-compare.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

. tools/tune/testlib.sh

# refused WORDS ARGS...: exit 2, one stderr line matching WORDS, no stdout
refused() {
	local words=$1 rc
	shift
	env -u AICC_VM bash "$CMP" "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$TMP/out" ] &&
		[ "$(wc -l < "$TMP/err")" = 1 ] && grep -q -- "$words" "$TMP/err" ||
		fail "$*: exit $rc, stderr '$(cat "$TMP/err")', want '$words'"
}

no_file() { refused "no knob FILE given" -r 1; }
missing_file() { refused "cannot read knob file $TMP/nosuch" "$TMP/nosuch"; }
directory_file() { refused "cannot read knob file $TMP" "$CONF" "$TMP"; }
reps_zero() { refused "-r must be 1..99" -r 0 "$CONF"; }
reps_word() { refused "-r must be 1..99" -r x "$CONF"; }
secs_five() { refused "-s must be 6..99" -s 5 "$CONF"; }
secs_no_value() { refused "-s needs a value" -r 1 -s; }
unknown_option() { refused "unknown option -x" -x "$CONF"; }

outside_vm_skips() {
	local rc
	[ -r "$CONF" ] || fail "no $CONF" || return 1
	env -u AICC_VM bash "$CMP" -r 1 -s 6 "$CONF" > /dev/null 2> "$TMP/err"
	rc=$?
	[ $rc = 4 ] && grep -q "inside the VM rig only" "$TMP/err" ||
		fail "valid arguments on the host: exit $rc, $(cat "$TMP/err")"
}

echo "TAP version 13"
echo "1..9"
t compare_without_file_refused no_file
t compare_missing_file_refused missing_file
t compare_directory_refused directory_file
t compare_reps_zero_refused reps_zero
t compare_reps_word_refused reps_word
t compare_secs_five_refused secs_five
t compare_secs_without_value_refused secs_no_value
t compare_unknown_option_refused unknown_option
t compare_outside_vm_exits_4 outside_vm_skips
t_done
