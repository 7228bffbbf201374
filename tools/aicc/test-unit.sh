#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host unit tests of the aicc tool (KTAP output).  The file-based verbs run
# against a fake sysfs tree (AICC_SYSFS) built by aicc-mkfake from the same
# tables and defaults as the module; flows and 'select get' use the host's
# loopback; 'select route' runs in a private network namespace (unshare -n)
# with the built-in reno algorithm, and is skipped if that is not possible.
#
# Write failures are emulated without a kernel: as root, DAC permissions do
# not stop writes, so the tool runs as user nobody (setpriv) on a tree whose
# files are 0666, with the one file that must fail made 0444 (read-only) or
# 0000 (unreadable).  The kernel's own EINVAL path is exercised by the VM
# test (selftests/tool/test_tool.sh).
#
# Environment: AICC (the tool), AICC_MKFAKE (the tree builder).

set -u
cd "$(dirname "$0")/../.." || exit 1
AICC=${AICC:-$PWD/build/aicc}
MKFAKE=${AICC_MKFAKE:-$PWD/build/aicc-mkfake}

TMP=$(mktemp -d /tmp/aicc-unit.XXXXXX)
chmod 0755 "$TMP"
trap 'kill $SRV_PID 2>/dev/null; rm -rf "$TMP"' EXIT
SRV_PID=
export AICC_SYSFS=$TMP/sys

fresh_tree() {
	rm -rf "$AICC_SYSFS"
	"$MKFAKE" "$AICC_SYSFS" || return 1
	find "$AICC_SYSFS" -type f -exec chmod 0666 {} +
	find "$AICC_SYSFS" -type d -exec chmod 0777 {} +
}

tree_sum() {
	(cd "$AICC_SYSFS" && find . -type f | sort | xargs cat) | md5sum
}

# Run the tool as an unprivileged user so that file modes apply.
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	else
		"$@"
	fi
}

knob() { cat "$AICC_SYSFS/$1"; }
# A failed check fails its test even where the function goes on and its
# last command succeeds (FAILED is read by the runner below).
FAILED=0
fail() { echo "# $*"; FAILED=1; return 1; }

# run CMD...: stdout in $OUT, stderr in $ERR, exit code in $RC
run() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	OUT=$(cat "$TMP/out")
	ERR=$(cat "$TMP/err")
}

is_json() { python3 -m json.tool >/dev/null 2>&1; }

# wait_file FILE: until a helper process has written FILE (5 s at most)
wait_file() {
	for _ in $(seq 50); do
		[ -s "$1" ] && return
		sleep 0.1
	done
}

# ---- tests ----

t_help() {
	local v
	run "$AICC" -h; [ $RC = 0 ] || fail "aicc -h: $RC"
	for v in status show set profile flows watch select metrics version \
		 help; do
		run "$AICC" $v -h
		[ $RC = 0 ] && [ -n "$OUT" ] || fail "aicc $v -h: rc $RC"
	done
	# help on itself, as on any verb; a second verb is not ignored
	v=help
	run "$AICC" $v $v
	[ $RC = 0 ] && [[ $OUT == "Usage: aicc [-j] help [VERB]"* ]] ||
		fail "aicc help on help: rc $RC '$OUT' '$ERR'"
	run "$AICC" help show set
	[ $RC = 2 ] && [ -z "$OUT" ] &&
		echo "$ERR" | grep -q "help: unexpected argument 'set'" ||
		fail "aicc help show set: rc $RC '$ERR'"
	# and after a sub-command, wherever -h comes (aicc(8))
	for v in "rdma show" "rdma set" "rdma save" "rdma flows" \
		 "rdma export" "model show" "model load" "model load F" \
		 "select route list" "select route add 10.0.0.0/8" \
		 "select get" "select default" "profile load"; do
		run "$AICC" $v -h
		[ $RC = 0 ] && [[ $OUT == Usage:* ]] && [ -z "$ERR" ] ||
			fail "aicc $v -h: rc $RC '$ERR'"
	done
	run "$AICC" frobnicate
	[ $RC = 2 ] || fail "unknown verb rc $RC"
	[ "$(echo "$ERR" | wc -l)" = 1 ] || fail "unknown verb: not one line: $ERR"
	echo "$ERR" | grep -q "unknown verb 'frobnicate'" || fail "$ERR"
}

t_module_absent() {
	local v
	for v in "show" "set aicc target=300" "profile save $TMP/x" "watch -n 1" \
		 "status"; do
		AICC_SYSFS=$TMP/none run "$AICC" $v
		[ $RC = 1 ] || fail "$v: rc $RC" || return 1
		echo "$ERR" | grep -q "aicc module not loaded" ||
			fail "$v: stderr '$ERR'" || return 1
	done
	AICC_SYSFS=$TMP/none run "$AICC" metrics
	[ $RC = 0 ] && echo "$OUT" | grep -qx "aicc_up 0" || fail "metrics: $OUT"
}

# profile load -n without the module: the bounds that must stay ordered
# are checked against the built-in defaults (with a warning that says so),
# not skipped; with the module the same file is refused the same way.
t_profile_check_absent() {
	printf 'aicc.target_min_us = 60ms\naicc.target_max_us = 30ms\n' \
		>"$TMP/order.conf"
	AICC_SYSFS=$TMP/none run "$AICC" profile load -n "$TMP/order.conf"
	[ $RC = 1 ] && echo "$ERR" | grep -q "aicc: target_min_us (60000, 60ms) would exceed target_max_us (30000, 30ms) (knobs not in the file at their built-in defaults); nothing changed" ||
		fail "absent: rc $RC '$ERR'" || return 1
	# one bound alone, against the other's default: fs_max_cwnd is 41
	# packets in aicc_defaults.h, so 50 packets of fs_min_cwnd is refused
	printf 'aicc.fs_min_cwnd = 50pkt\n' >"$TMP/order2.conf"
	AICC_SYSFS=$TMP/none run "$AICC" profile load -n "$TMP/order2.conf"
	[ $RC = 1 ] && echo "$ERR" | grep -q "fs_min_cwnd (50000, 50pkt) would exceed fs_max_cwnd (41, 41pkt)" ||
		fail "absent, default bound: rc $RC '$ERR'" || return 1
	printf 'aicc.target_max_us = 30ms\n' >"$TMP/fine.conf"
	AICC_SYSFS=$TMP/none run "$AICC" profile load -n "$TMP/fine.conf"
	[ $RC = 0 ] && echo "$ERR" | grep -q "warning: module not loaded: .*fine.conf checked against the built-in defaults" ||
		fail "absent, fine: rc $RC '$ERR'" || return 1
	fresh_tree || return 1
	run "$AICC" profile load -n "$TMP/order.conf"
	[ $RC = 1 ] && echo "$ERR" | grep -q "target_min_us (60000, 60ms) would exceed target_max_us (30000, 30ms); nothing changed" ||
		fail "present: rc $RC '$ERR'"
}

# The consistency check names the knob it could not read; an over-long
# AICC_SYSFS is refused before any path is built from it.
t_consistency_read_error() {
	local long
	fresh_tree || return 1
	chmod 0000 "$AICC_SYSFS/aicc/pacing_max_kbps"
	run as_user "$AICC" set aicc target=100
	[ $RC = 1 ] && echo "$ERR" | grep -q "cannot read aicc.pacing_max_kbps: " ||
		fail "rc $RC '$ERR'" || return 1
	long=$TMP/$(printf 'd%.0s' {1..260})
	AICC_SYSFS=$long run "$AICC" model unload
	[ $RC = 2 ] && echo "$ERR" | grep -q "AICC_SYSFS: directory name longer than 256 characters" ||
		fail "long AICC_SYSFS: rc $RC '$ERR'"
}

# model unload writes 1 to model_unload (a short write or a failed close
# is an error too) and with -j answers in JSON.
t_model_unload() {
	fresh_tree || return 1
	: >"$AICC_SYSFS/model_unload"
	run "$AICC" -j model unload
	[ $RC = 0 ] && [ "$(cat "$AICC_SYSFS/model_unload")" = 1 ] &&
		echo "$OUT" | is_json && echo "$OUT" | grep -q '"unloaded": *true' ||
		fail "json: rc $RC '$OUT' '$ERR'" || return 1
	run "$AICC" model unload
	[ $RC = 0 ] && echo "$OUT" | grep -q "^model unloaded" ||
		fail "text: rc $RC '$OUT' '$ERR'" || return 1
	chmod 0444 "$AICC_SYSFS/model_unload"
	run as_user "$AICC" model unload
	[ $RC = 1 ] && echo "$ERR" | grep -q "model_unload: Permission denied" &&
		[ -z "$OUT" ] || fail "refused: rc $RC '$OUT' '$ERR'"
}

# rate_memory_entries empties the rate cache when written, even with its
# present size: a change that fails elsewhere must not have written it, so
# it is written last, whatever its place in the command.
t_entries_last() {
	local sum
	fresh_tree || return 1
	chmod 0444 "$AICC_SYSFS/rate_memory"
	sum=$(tree_sum)
	run as_user "$AICC" set global rate_memory_entries=4096 rate_memory=0
	[ $RC = 1 ] && echo "$ERR" | grep -q "global.rate_memory = 0: .*; nothing changed" &&
		! echo "$ERR" | grep -q "rolled back" ||
		fail "rc $RC '$ERR'" || return 1
	[ "$(tree_sum)" = "$sum" ] || fail "tree changed"
}

t_show_text() {
	fresh_tree || return 1
	# a value of our own: the formatting is under test, not the default
	echo 250 >"$AICC_SYSFS/aicc/target"
	run "$AICC" show aicc
	[ $RC = 0 ] || fail "rc $RC $ERR" || return 1
	echo "$OUT" | grep -Eq '^  target +250 permille +0\.25$' || fail "$OUT" || return 1
	echo "$OUT" | grep -Eq '^  target_max_us +50000 us +50ms$' || fail "$OUT" || return 1
	run "$AICC" show
	echo "$OUT" | grep -q '^aicc_bulk: ' && echo "$OUT" | grep -q '^global' ||
		fail "show all: $OUT" || return 1
	# -d adds each knob's range and description
	run "$AICC" show -d aicc
	echo "$OUT" | grep -Eq '^  target +250 permille +0\.25 +\[0\.\.10000\] +queueing-delay target' ||
		fail "show -d: $OUT"
}

t_json_valid() {
	local v
	fresh_tree || return 1
	for v in "show" "show aicc_lat" "show global" "status" "version" \
		 "select default"; do
		run "$AICC" -j $v
		echo "$OUT" | is_json || fail "-j $v: invalid JSON: $OUT" || return 1
	done
	for v in "-jp show" "-j -p status" "-jp flows -a" "-jp metrics"; do
		run "$AICC" $v
		if [ "$v" = "-jp metrics" ]; then
			# -j does not apply to the Prometheus format
			echo "$OUT" | grep -q '^# TYPE aicc_up gauge' || fail "$v" || return 1
			continue
		fi
		echo "$OUT" | is_json || fail "$v: invalid JSON" || return 1
	done
	run "$AICC" -j show aicc_lat
	[ "$(echo "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["aicc_lat"]["target"]["value"])')" = "$(knob aicc_lat/target)" ] ||
		fail "aicc_lat target: $OUT"
}

# Bytes that are not UTF-8 (in the module's version text and in the path
# of the tree) come out as valid UTF-8 JSON: U+FFFD for each ill-formed
# part, as Python's decoder replaces them; valid characters stay.
t_json_non_utf8() {
	local bytes=76c3a9ffe282782fc0afeda080f09f9880 link
	fresh_tree || return 1
	python3 -c 'import sys; open(sys.argv[1], "wb").write(bytes.fromhex(sys.argv[2]) + b"\n")' \
		"$AICC_SYSFS/version" "$bytes" || return 1
	link=$TMP/$'s\xe9\xff'
	ln -s "$AICC_SYSFS" "$link" || return 1
	AICC_SYSFS=$link run "$AICC" -j status
	[ $RC = 0 ] || fail "rc $RC $ERR" || return 1
	python3 - "$TMP/out" "$bytes" "$link" <<-'EOF' || fail "$OUT"
	import json, os, sys
	d = json.loads(open(sys.argv[1], 'rb').read().decode('utf-8'))
	want = bytes.fromhex(sys.argv[2]).decode('utf-8', 'replace')
	assert d['version'] == want, (d['version'], want)
	link = os.fsencode(sys.argv[3]).decode('utf-8', 'replace')
	assert d['sysfs'] == link, (d['sysfs'], link)
	EOF
}

t_set_units() {
	fresh_tree || return 1
	run "$AICC" set aicc target_min_us=25us target_max_us=1.5s \
		rate_memory_ms=1s pacing_max_kbps=10gbit pacing_min_kbps=500mbit \
		target=80% beta=0.8 mi=0.125 min_cwnd=1.5pkt idle_restart=off \
		pacing_gain=1.25x ai=2pkt
	[ $RC = 0 ] || fail "rc $RC: $ERR" || return 1
	local want="target_min_us=25 target_max_us=1500000 rate_memory_ms=1000
		pacing_max_kbps=10000000 pacing_min_kbps=500000 target=800
		beta=800 mi=125 min_cwnd=1500 idle_restart=0 pacing_gain=1250
		ai=2000" kv
	for kv in $want; do
		[ "$(knob aicc/${kv%=*})" = "${kv#*=}" ] ||
			fail "${kv%=*} = $(knob aicc/${kv%=*}), want ${kv#*=}" || return 1
	done
	run "$AICC" set global rate_memory=0 rate_memory_entries=4096
	[ $RC = 0 ] && [ "$(knob rate_memory)" = 0 ] &&
		[ "$(knob rate_memory_entries)" = 4096 ] || fail "global: $ERR"
}

t_bad_values() {
	local a sum
	fresh_tree || return 1
	sum=$(tree_sum)
	for a in "aicc target_min_us=1.5us" "aicc rate_memory_ms=1500us" \
		 "aicc pacing_max_kbps=10mbps" "aicc target=-1" "aicc target=abc" \
		 "aicc idle_restart=maybe" "aicc min_cwnd=1.5" "aicc mi=" \
		 "aicc nosuch=1" "nosuch target=1" "aicc target" \
		 "global rate_memory_entries=1000" "aicc target=1 target=2" \
		 "aicc target_min_us=20ms target_max_us=10ms"; do
		run "$AICC" set $a
		[ $RC != 0 ] || fail "set $a: accepted" || return 1
		[ "$(echo "$ERR" | wc -l)" = 1 ] || fail "set $a: '$ERR'" || return 1
	done
	[ "$(tree_sum)" = "$sum" ] || fail "tree changed"
	run "$AICC" set aicc nosuch=1
	echo "$ERR" | grep -q "unknown knob 'nosuch'" || fail "$ERR" || return 1
	# 40 zeros after the point: refused, not divided by an overflowed 0
	run "$AICC" set aicc "target=.$(printf '0%.0s' {1..40})"
	[ $RC != 0 ] && echo "$ERR" | grep -q "too many digits" || fail "$ERR"
	[ "$(tree_sum)" = "$sum" ] || fail "tree changed"
}

t_out_of_range() {
	local sum
	fresh_tree || return 1
	sum=$(tree_sum)
	# The first knob is fine, the second out of range: nothing written.
	run "$AICC" set aicc target=300 mi=1001
	[ $RC != 0 ] || fail "accepted" || return 1
	echo "$ERR" | grep -q "out of range \[0, 1000\]" || fail "$ERR" || return 1
	echo "$ERR" | grep -q "nothing changed" || fail "$ERR" || return 1
	[ "$(tree_sum)" = "$sum" ] || fail "tree changed"
	run "$AICC" set aicc pacing_gain=2
	echo "$ERR" | grep -q "write e.g. 1.0 for a ratio" || fail "no hint: $ERR"
}

t_rollback() {
	local sum
	fresh_tree || return 1
	printf '250\n' >"$AICC_SYSFS/aicc/target"
	printf '800\n' >"$AICC_SYSFS/aicc/beta"
	printf '50\n' >"$AICC_SYSFS/aicc/mi"
	sum=$(tree_sum)
	chmod 0444 "$AICC_SYSFS/aicc/pacing_gain"
	run as_user "$AICC" set aicc target=300 beta=0.5 pacing_gain=2.0 mi=0.2
	[ $RC = 1 ] || fail "rc $RC: $ERR" || return 1
	echo "$ERR" | grep -q "pacing_gain = 2000: Permission denied" ||
		fail "$ERR" || return 1
	echo "$ERR" | grep -q "rolled back" || fail "$ERR" || return 1
	[ "$(knob aicc/target)" = 250 ] && [ "$(knob aicc/beta)" = 800 ] &&
		[ "$(knob aicc/mi)" = 50 ] && [ "$(tree_sum)" = "$sum" ] ||
		fail "not rolled back: target $(knob aicc/target) beta $(knob aicc/beta)"
}

t_unreadable() {
	local sum
	fresh_tree || return 1
	chmod 0000 "$AICC_SYSFS/aicc/beta"
	sum=$(tree_sum)
	run as_user "$AICC" show aicc
	[ $RC = 1 ] && echo "$ERR" | grep -q "cannot read aicc.beta: Permission denied" ||
		fail "show: $RC $ERR" || return 1
	run as_user "$AICC" set aicc target=300 beta=0.5
	[ $RC = 1 ] && echo "$ERR" | grep -q "nothing changed" || fail "set: $ERR" || return 1
	[ "$(tree_sum)" = "$sum" ] || fail "tree changed"
}

t_profile_roundtrip() {
	local orig
	fresh_tree || return 1
	echo 250 >"$AICC_SYSFS/aicc/target"
	echo 1 >"$AICC_SYSFS/aicc_bulk/idle_restart"
	orig=$(tree_sum)
	run "$AICC" profile save "$TMP/p.conf"
	[ $RC = 0 ] || fail "save: $ERR" || return 1
	grep -qx 'aicc\.target = 250	# 0\.25' "$TMP/p.conf" &&
		grep -q '^global\.rate_memory_entries = 1024' "$TMP/p.conf" &&
		grep -q '^aicc_bulk\.idle_restart = 1' "$TMP/p.conf" ||
		fail "content: $(head -8 "$TMP/p.conf")" || return 1
	"$AICC" set aicc target=0.5 pacing_max_kbps=1gbit &&
		"$AICC" set aicc_bulk ai=3pkt && "$AICC" set global rate_memory=0 ||
		return 1
	[ "$(tree_sum)" != "$orig" ] || fail "set changed nothing" || return 1
	run "$AICC" profile load "$TMP/p.conf"
	[ $RC = 0 ] || fail "load: $ERR" || return 1
	[ "$(tree_sum)" = "$orig" ] || fail "not restored"
}

t_profile_malformed() {
	local sum
	fresh_tree || return 1
	sum=$(tree_sum)
	cat >"$TMP/bad.conf" <<-'EOF'
	# a comment
	aicc.target = 300
	aicc.nosuch = 1
	aicc_lat.beta = 0.5   # trailing comment
	aicc_lat.mi = 2000
	just garbage
	aicc.target = 310
	EOF
	# a malformed file is bad input, exit 2 like a malformed value of
	# 'aicc set'; a file that cannot be read is a runtime error, exit 1
	run "$AICC" profile load "$TMP/bad.conf"
	[ $RC = 2 ] || fail "rc $RC" || return 1
	echo "$ERR" | grep -q "bad.conf:3: unknown knob 'nosuch' for aicc" &&
		echo "$ERR" | grep -q "bad.conf:5: aicc_lat.mi: .*out of range" &&
		echo "$ERR" | grep -q "bad.conf:6: expected 'PROFILE.KNOB = VALUE'" &&
		echo "$ERR" | grep -q "bad.conf:7: aicc.target set again (first on line 2)" &&
		echo "$ERR" | grep -q "4 errors, nothing applied" ||
		fail "$ERR" || return 1
	[ "$(tree_sum)" = "$sum" ] || fail "tree changed" || return 1
	run "$AICC" profile load -n "$TMP/bad.conf"
	[ $RC = 2 ] || fail "-n: rc $RC" || return 1
	printf '# nothing\n\n' >"$TMP/empty.conf"
	run "$AICC" profile load "$TMP/empty.conf"
	[ $RC = 2 ] && echo "$ERR" | grep -q "no settings found" ||
		fail "empty: rc $RC $ERR" || return 1
	run "$AICC" profile load "$TMP/no-such.conf"
	[ $RC = 1 ] && echo "$ERR" | grep -q "cannot read .*no-such.conf: No such file" ||
		fail "missing: rc $RC $ERR" || return 1
	run "$AICC" profile load "$TMP"
	[ $RC = 1 ] && echo "$ERR" | grep -q "Is a directory" ||
		fail "directory: rc $RC $ERR" || return 1
	# Valid lines alone apply; -n only checks.
	grep -v -e nosuch -e garbage -e 2000 -e 310 "$TMP/bad.conf" >"$TMP/ok.conf"
	run "$AICC" profile load -n "$TMP/ok.conf"
	[ $RC = 0 ] && [ "$(tree_sum)" = "$sum" ] || fail "-n: $RC $ERR" || return 1
	run "$AICC" profile load "$TMP/ok.conf"
	[ $RC = 0 ] && [ "$(knob aicc_lat/beta)" = 500 ] || fail "ok.conf: $ERR"
}

# A file that sets every knob and then one of them again: the repeat is
# reported, not parsed into a slot past the end of the list of changes (a
# stack overflow that a sanitizer build, AICC=<-fsanitize=address build>,
# shows; the plain build may survive it).
t_profile_full_dup() {
	local sum n
	fresh_tree || return 1
	sum=$(tree_sum)
	run "$AICC" profile save "$TMP/full.conf"
	[ $RC = 0 ] || fail "save: $ERR" || return 1
	n=$(wc -l <"$TMP/full.conf")
	cp "$TMP/full.conf" "$TMP/dup.conf"
	printf 'aicc.target = 66\naicc.target = 67\nglobal.rate_memory = 0\n' \
		>>"$TMP/dup.conf"
	run "$AICC" profile load -n "$TMP/dup.conf"
	[ $RC = 2 ] || fail "rc $RC: $ERR" || return 1
	echo "$ERR" | grep -q "dup.conf:$((n + 1)): aicc.target set again" &&
		echo "$ERR" | grep -q "dup.conf:$((n + 3)): global.rate_memory set again" &&
		echo "$ERR" | grep -q "3 errors, nothing applied" &&
		[ "$(echo "$ERR" | wc -l)" = 4 ] || fail "$ERR" || return 1
	run "$AICC" profile load "$TMP/dup.conf"
	[ $RC = 2 ] && [ "$(tree_sum)" = "$sum" ] || fail "applied: $ERR" || return 1
	run "$AICC" profile load -n "$TMP/full.conf"
	[ $RC = 0 ] || fail "the saved file: $ERR"
}

t_profile_rollback() {
	local t0 t1 sum
	fresh_tree || return 1
	t0=$(knob aicc/target)
	t1=$(knob aicc_lat/target)
	sum=$(tree_sum)
	chmod 0444 "$AICC_SYSFS/aicc_bulk/target"
	printf 'aicc.target = 300\naicc_lat.target = 200\naicc_bulk.target = 150\n' \
		>"$TMP/rb.conf"
	run as_user "$AICC" profile load "$TMP/rb.conf"
	[ $RC = 1 ] && echo "$ERR" | grep -q "rolled back" || fail "$RC $ERR" || return 1
	[ "$(knob aicc/target)" = "$t0" ] && [ "$(knob aicc_lat/target)" = "$t1" ] &&
		[ "$(tree_sum)" = "$sum" ] || fail "not rolled back"
}

t_metrics() {
	fresh_tree || return 1
	echo 42 >"$AICC_SYSFS/aicc_lat/stats/rounds"
	echo 100 >"$AICC_SYSFS/aicc_bulk/target"
	run "$AICC" metrics
	[ $RC = 0 ] || fail "rc $RC $ERR" || return 1
	echo "$OUT" >"$TMP/m.prom"
	python3 - "$TMP/m.prom" <<-'EOF' || return 1
	import re, sys
	types, helps, seen = {}, set(), set()
	sample = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-z_]+="[^"\\]*"(,[a-z_]+="[^"\\]*")*\})? (-?[0-9.]+(e[+-]?[0-9]+)?|NaN)$')
	for n, line in enumerate(open(sys.argv[1]), 1):
	    line = line.rstrip('\n')
	    if line.startswith('# HELP '):
	        helps.add(line.split()[2]); continue
	    if line.startswith('# TYPE '):
	        _, _, name, t = line.split()
	        assert t in ('counter', 'gauge'), line
	        assert name not in types, 'TYPE twice: ' + name
	        types[name] = t; continue
	    if line.startswith('#'):
	        continue
	    m = sample.match(line)
	    if not m:
	        sys.exit('# line %d malformed: %s' % (n, line))
	    name = m.group(1)
	    if name not in types or name not in helps:
	        sys.exit('# line %d: %s without HELP/TYPE' % (n, name))
	    if types[name] == 'counter' and not name.endswith('_total'):
	        sys.exit('# counter %s lacks _total' % name)
	    seen.add(name)
	for want in ('aicc_up', 'aicc_rounds_total', 'aicc_flows',
	             'aicc_knob_target', 'aicc_sockets'):
	    if want not in seen:
	        sys.exit('# missing ' + want)
	EOF
	grep -qx 'aicc_rounds_total{profile="aicc_lat"} 42' "$TMP/m.prom" &&
		grep -qx 'aicc_knob_target{profile="aicc_bulk"} 100' "$TMP/m.prom" &&
		grep -qx '# TYPE aicc_rounds_total counter' "$TMP/m.prom" &&
		grep -qx '# TYPE aicc_knob_target gauge' "$TMP/m.prom" ||
		fail "samples: $(head -20 "$TMP/m.prom")"
}

# A loopback TCP connection kept open by a helper; prints its ports.
start_conn() {
	python3 - "$TMP/ports" <<-'EOF' &
	import socket, sys, time
	s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(1)
	c = socket.create_connection(('127.0.0.1', s.getsockname()[1]))
	a, _ = s.accept()
	for _ in range(20):
	    c.sendall(b'x' * 65536); a.recv(1 << 20)
	    a.sendall(b'y' * 100); c.recv(100)
	p6 = 0
	try:
	    s6 = socket.socket(socket.AF_INET6); s6.bind(('::1', 0)); s6.listen(1)
	    c6 = socket.create_connection(('::1', s6.getsockname()[1]))
	    a6, _ = s6.accept(); c6.sendall(b'z' * 1000); a6.recv(1000)
	    p6 = s6.getsockname()[1]
	except OSError:
	    pass
	pm = 0
	try:
	    # a dual-stack listener: its IPv4 client is an IPv6 socket, ::ffff:127.0.0.1
	    sm = socket.socket(socket.AF_INET6); sm.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
	    sm.bind(('::', 0)); sm.listen(1)
	    cm = socket.create_connection(('127.0.0.1', sm.getsockname()[1]))
	    am, _ = sm.accept(); cm.sendall(b'm' * 1000); am.recv(1000)
	    pm = sm.getsockname()[1]
	except OSError:
	    pass
	open(sys.argv[1], 'w').write('%d %d %d %d\n' % (s.getsockname()[1], c.getsockname()[1], p6, pm))
	time.sleep(30)
	EOF
	SRV_PID=$!
	wait_file "$TMP/ports"
	read -r SPORT CPORT PORT6 PORTM <"$TMP/ports"
}

t_flows_loopback() {
	[ -n "$SRV_PID" ] || start_conn
	[ -n "${SPORT:-}" ] || fail "no connection" || return 1
	run "$AICC" flows -a dport "$SPORT"
	[ $RC = 0 ] || fail "rc $RC $ERR" || return 1
	echo "$OUT" | grep -q "127.0.0.1:$CPORT  *127.0.0.1:$SPORT" ||
		fail "not listed: $OUT" || return 1
	run "$AICC" -j flows --all sport "$CPORT" dst 127.0.0.0/8
	echo "$OUT" | python3 -c '
import json, sys
f = json.load(sys.stdin)
assert len(f) == 1, f
f = f[0]
assert f["state"] == "ESTAB" and f["dport"] == '"$SPORT"', f
assert 0 < f["rtt_us"] < 1000000, f
assert 0 < f["min_rtt_us"] <= f["rtt_us"] * 10, f
assert f["cwnd"] >= 1 and f["snd_cwnd"] >= 1, f
assert f["aicc"] in (True, False)
' || fail "json: $OUT" || return 1
	# Without -a only aicc sockets: this one uses the host default.
	if ! grep -q '^aicc' /proc/sys/net/ipv4/tcp_congestion_control; then
		run "$AICC" -j flows sport "$CPORT"
		[ "$OUT" = "[]" ] || fail "non-aicc socket listed: $OUT"
	fi
}

t_flows_filters() {
	[ -n "$SRV_PID" ] || start_conn
	run "$AICC" -j flows -a dst 10.0.0.0/8 sport "$CPORT"
	[ "$OUT" = "[]" ] || fail "dst filter: $OUT" || return 1
	run "$AICC" -j flows -a src 127.0.0.1/32 dst ::1 sport "$CPORT"
	[ "$OUT" = "[]" ] || fail "family filter: $OUT" || return 1
	run "$AICC" flows dst 300.1.2.3
	[ $RC = 2 ] && echo "$ERR" | grep -q "not an address" || fail "$ERR" || return 1
	run "$AICC" flows profile cubic
	[ $RC = 2 ] || fail "profile cubic accepted" || return 1
	run "$AICC" flows sport 70000
	[ $RC = 2 ] || fail "port 70000 accepted" || return 1
	for a in "sport ' 80'" "sport +80" "dport -1" "dport 0x50" \
		 "dst 10.0.0.0/+8" "dst '10.0.0.0/ 8'"; do
		eval "run \"\$AICC\" flows $a"
		[ $RC = 2 ] || fail "flows $a accepted" || return 1
	done
	if [ "${PORT6:-0}" != 0 ]; then
		run "$AICC" -j flows -a dst ::1/128 dport "$PORT6"
		echo "$OUT" | python3 -c '
import json, sys
f = json.load(sys.stdin)
assert len(f) == 1 and f[0]["family"] == "inet6" and f[0]["src"] == "::1", f
assert 0 < f[0]["rtt_us"] < 1000000, f' || fail "ipv6: $OUT"
	else
		echo "# no IPv6 loopback, IPv6 flow not checked"
	fi
	# an IPv4 filter finds a dual-stack listener's IPv4 client, whose
	# socket is IPv6 (::ffff:127.0.0.1); an IPv6 one does not
	if [ "${PORTM:-0}" != 0 ]; then
		run "$AICC" -j flows -a src 127.0.0.0/8 sport "$PORTM"
		echo "$OUT" | python3 -c '
import json, sys
f = json.load(sys.stdin)
assert len(f) == 1 and f[0]["family"] == "inet6", f
assert f[0]["dst"] == "::ffff:127.0.0.1", f' || fail "v4-mapped: $OUT" || return 1
		run "$AICC" -j flows -a src 10.0.0.0/8 sport "$PORTM"
		[ "$OUT" = "[]" ] || fail "v4-mapped, other prefix: $OUT" || return 1
		run "$AICC" -j flows -a src ::1 sport "$PORTM"
		[ "$OUT" = "[]" ] || fail "v4-mapped, IPv6 filter: $OUT"
	else
		echo "# no dual-stack loopback, IPv4-mapped flow not checked"
	fi
}

# Which sockets 'flows' lists, with -a too: a listener and a TIME-WAIT
# socket are not; the states listed and left out are named by 'flows -h'
# (from the tool's own mask), and aicc(8) and aicc-tool.rst name them all.
t_flows_states() {
	local pid port shown left st doc
	python3 - "$TMP/tw" <<-'EOF' &
	import socket, sys, time
	s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(1)
	c = socket.create_connection(('127.0.0.1', s.getsockname()[1]))
	a, _ = s.accept()
	c.close(); time.sleep(0.2); a.close()   # c closes first: TIME-WAIT
	open(sys.argv[1], 'w').write('%d\n' % s.getsockname()[1])
	time.sleep(30)
	EOF
	pid=$!
	wait_file "$TMP/tw"
	port=$(cat "$TMP/tw")
	ss -Htln "( sport = :$port )" | grep -q . &&
		ss -Htn state time-wait "( dport = :$port )" | grep -q . ||
		fail "no listener and TIME-WAIT socket on port $port"
	run "$AICC" -j flows -a sport "$port"
	[ "$OUT" = "[]" ] || fail "listener listed: $OUT"
	run "$AICC" -j flows -a dport "$port"
	[ "$OUT" = "[]" ] || fail "TIME-WAIT socket listed: $OUT"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	run "$AICC" flows -h
	shown=$(echo "$OUT" | sed -n '/states are listed/{n;p}')
	left=$(echo "$OUT" | sed -n '/never these/{n;n;p}')
	[[ $shown == *ESTAB* ]] && [[ $left == *LISTEN* ]] &&
		[[ $left == *TIME-WAIT* ]] && [[ $left == *SYN-RECV* ]] ||
		fail "flows -h: '$OUT'" || return 1
	for doc in tools/aicc/aicc.8 Documentation/aicc-tool.rst; do
		for st in $shown $left; do
			grep -q -- "$st" "$doc" || fail "$doc does not name $st"
		done
		! grep -q "every TCP socket" "$doc" ||
			fail "$doc: 'every TCP socket'"
	done
}

t_select_get() {
	local def
	def=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
	run "$AICC" select get 127.0.0.1
	[ $RC = 0 ] || fail "rc $RC $ERR" || return 1
	echo "$OUT" | grep -q "^127.0.0.1: $def (system default; local route" ||
		fail "$OUT" || return 1
	run "$AICC" -j select get 127.0.0.1
	echo "$OUT" | is_json && echo "$OUT" | grep -q "\"congctl\":\"$def\"" ||
		fail "$OUT" || return 1
	run "$AICC" select get not-an-address
	[ $RC = 2 ] || fail "bad address accepted"
}

t_select_route_netns() {
	if ! unshare -n true 2>/dev/null; then
		echo "# SKIP cannot create a network namespace"
		return 4
	fi
	unshare -n bash -c '
		set -e
		A='"$AICC"'
		ip link set lo up
		ip link add t0 type veth peer name t1
		ip link set t0 up; ip link set t1 up
		ip addr add 10.99.0.1/24 dev t0
		$A select route add 10.98.0.0/16 via 10.99.0.2 reno
		ip route show 10.98.0.0/16 | grep -q "proto 172 .*congctl reno"
		$A select get 10.98.3.4 | grep -q "^10.98.3.4: reno (route congctl"
		# An existing route keeps its nexthop and protocol.
		$A select route add 10.99.0.0/24 cubic
		ip route show 10.99.0.0/24 | grep -q "dev t0 proto kernel scope link src 10.99.0.1 congctl cubic"
		$A -j select route list | python3 -c "import json,sys; assert len(json.load(sys.stdin)) == 2"
		# del strips congctl from a route it did not create ...
		$A select route del 10.99.0.0/24 cubic
		ip route show 10.99.0.0/24 | grep -q "proto kernel" 
		ip route show 10.99.0.0/24 | grep -q congctl && exit 1
		# ... and deletes the one it created.
		$A select route del 10.98.0.0/16 cubic 2>/dev/null && exit 1
		$A select route del 10.98.0.0/16
		[ -z "$(ip route show 10.98.0.0/16)" ]
		$A select route add 10.97.0.0/16 dev t0 no_such_cc 2>/dev/null && exit 1
		[ -z "$(ip route show 10.97.0.0/16)" ]
		# via/dev on a route aicc did not create: refused, the route
		# (gateway, mtu, protocol) stays; without them congctl is added
		# to it as it is.
		ip route add 10.96.0.0/16 via 10.99.0.2 mtu 1400
		r0=$(ip route show 10.96.0.0/16)
		for a in "dev t0" "via 10.99.0.3" "via 10.99.0.3 dev t0"; do
			e=$($A select route add 10.96.0.0/16 $a reno 2>&1) && exit 1
			echo "$e" | grep -q "^aicc: select route add: 10.96.0.0/16 already has a route (protocol boot); via/dev would replace it" || { echo "$e"; exit 1; }
			[ "$(ip route show 10.96.0.0/16)" = "$r0" ]
		done
		# A malformed gateway is bad input (exit 2) whether the
		# prefix has a route or not, and del takes no word of add.
		for pf in 10.96.0.0/16 10.95.0.0/16; do
			rc=0
			e=$($A select route add $pf via bogus reno 2>&1) || rc=$?
			[ $rc = 2 ] && echo "$e" | grep -q "via bogus. is not an address" ||
				{ echo "$pf via bogus: rc $rc: $e"; exit 1; }
		done
		[ "$(ip route show 10.96.0.0/16)" = "$r0" ]
		[ -z "$(ip route show 10.95.0.0/16)" ]
		rc=0
		e=$($A select route del 10.96.0.0/16 usec-ts 2>&1) || rc=$?
		[ $rc = 2 ] && echo "$e" | grep -q "is for .route add. only" ||
			{ echo "del usec-ts: rc $rc: $e"; exit 1; }
		$A select route add 10.96.0.0/16 reno
		ip route show 10.96.0.0/16 | grep -q "via 10.99.0.2 dev t0 .*mtu 1400 congctl reno"
		# ... and on one it created: replaced, still protocol 172
		$A select route add 10.98.0.0/16 via 10.99.0.2 reno
		$A select route add 10.98.0.0/16 dev t0 cubic
		ip route show 10.98.0.0/16 | grep -q "^10.98.0.0/16 dev t0 proto 172 .*congctl cubic"
		ip route show 10.98.0.0/16 | grep -q via && exit 1
		$A select route del 10.98.0.0/16
		[ -z "$(ip route show 10.98.0.0/16)" ]
		$A select route add 10.97.0.1/16 dev t0 reno 2>/dev/null && exit 1
		ip -6 addr add fd99::1/64 dev t0 nodad
		$A select route add fd98::/64 via fd99::2 reno
		ip -6 route show fd98::/64 | grep -q "congctl reno"
		$A select route del fd98::/64
		[ -z "$(ip -6 route show fd98::/64)" ]
		echo done
	' 2>&1 | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

t_watch() {
	fresh_tree || return 1
	( sleep 0.2; echo 100 >"$AICC_SYSFS/aicc/stats/rounds" ) &
	run "$AICC" -j watch -i 1 -n 2
	wait
	[ $RC = 0 ] || fail "rc $RC $ERR" || return 1
	[ "$(echo "$OUT" | wc -l)" = 2 ] || fail "frames: $OUT" || return 1
	echo "$OUT" | tail -1 | python3 -c '
import json, sys
f = json.load(sys.stdin)
r = f["profiles"]["aicc"]["rates"]["rounds"]
assert 20 < r <= 100, r
assert f["profiles"]["aicc"]["counters"]["rounds"] == 100
assert f["profiles"]["aicc_lat"]["rates"]["rounds"] == 0
' || fail "rates: $OUT" || return 1
	run "$AICC" watch -i 0.1 -n 2
	[ $RC = 0 ] && echo "$OUT" | grep -q "^rounds " || fail "text: $OUT" || return 1
	run "$AICC" watch -i 0 -n 1
	[ $RC = 2 ] || fail "interval 0 accepted"
}

# A counter that cannot be read in the first refresh and can in the next
# two: no rate (null, "-") in the second, whose previous value is unknown,
# a rate in the third; the counters that were always there have theirs.
t_watch_missing_counter() {
	local rounds=$AICC_SYSFS/aicc/stats/rounds
	fresh_tree || return 1
	echo 500 >"$rounds"
	chmod 0000 "$rounds"
	( sleep 0.5; chmod 0666 "$rounds" ) &
	run as_user "$AICC" -j watch -i 1 -n 3
	wait
	[ $RC = 0 ] || fail "rc $RC $ERR" || return 1
	echo "$OUT" | python3 -c '
import json, sys
f = [json.loads(l) for l in sys.stdin]
assert len(f) == 3, len(f)
a = [x["profiles"]["aicc"] for x in f]
assert "rounds" not in a[0]["counters"] and "rounds" not in a[0]["rates"], a[0]
assert a[1]["counters"]["rounds"] == 500, a[1]
assert a[1]["rates"]["rounds"] is None, a[1]
assert a[2]["rates"]["rounds"] == 0, a[2]
assert a[1]["rates"]["flows_total"] == 0, a[1]
assert f[0]["profiles"]["aicc_lat"]["rates"]["rounds"] is None, f[0]
' || fail "frames: $OUT" || return 1
	fresh_tree || return 1
	chmod 0000 "$AICC_SYSFS/aicc/stats/rounds"
	( sleep 0.3; chmod 0666 "$AICC_SYSFS/aicc/stats/rounds" ) &
	run as_user "$AICC" watch -i 0.6 -n 2
	wait
	[ $RC = 0 ] || fail "text: rc $RC $ERR" || return 1
	# the first refresh: no value; the second: a value, no rate
	echo "$OUT" | grep -Eq '^rounds +- +0 +0$' &&
		echo "$OUT" | grep -Eq '^rounds +0 +-/s +0 +0\.0/s +0 +0\.0/s$' ||
		fail "text: $OUT"
}

# watch -n takes any positive integer, -i a number of seconds in
# [0.05, 86400]; anything else is a usage error naming the value.
t_watch_args() {
	local a
	fresh_tree || return 1
	timeout 1 "$AICC" -j watch -i 0.05 -n 100000 >"$TMP/out" 2>"$TMP/err"
	RC=$?
	[ $RC = 124 ] && [ "$(wc -l <"$TMP/out")" -ge 2 ] ||
		fail "-n 100000: rc $RC $(cat "$TMP/err")" || return 1
	run "$AICC" watch -i 0.05 -n 1
	[ $RC = 0 ] || fail "-i 0.05: rc $RC $ERR" || return 1
	for a in "-n 0" "-n -1" "-n 1.5" "-n 1e3" "-n abc" "-n ''" "-n +3" \
		 "-n 99999999999999999999999" "-i 1e-9" "-i 0.049" "-i 0" \
		 "-i 86401" "-i nan" "-i inf" "-i -1" "-i ''" "-i 0x1" \
		 "-i ' 1'" "-i +1" "-i 1e0"; do
		eval "run \"\$AICC\" watch $a"
		[ $RC = 2 ] && [ "$(echo "$ERR" | wc -l)" = 1 ] ||
			fail "watch $a: rc $RC '$ERR'" || return 1
		case $a in
		-n*) echo "$ERR" | grep -q "count '.*' is not a positive integer" ;;
		-i*) echo "$ERR" | grep -q "interval '.*' is not a number of seconds in \[0.05, 86400\]" ;;
		esac || fail "watch $a: '$ERR'" || return 1
	done
}

# Output that cannot be written (/dev/full) fails the command with one
# message, whatever the verb; watch stops at the first refresh.
t_stdout_write_error() {
	local v
	[ -w /dev/full ] || { echo "# SKIP no /dev/full"; return 4; }
	roce_tree || return 1
	for v in "show" "-j show" "-jp show aicc" "status" "metrics" "version" \
		 "-h" "help" "profile save -" "select default" "rdma show" \
		 "-j rdma show" "rdma save" "rdma export --format mlx5" \
		 "watch -i 0.05 -n 2" "-j watch -i 0.05"; do
		timeout 10 "$AICC" $v >/dev/full 2>"$TMP/err"
		RC=$?
		ERR=$(cat "$TMP/err")
		[ $RC = 1 ] && [ "$ERR" = \
		  "aicc: write error on standard output: No space left on device" ] ||
			fail "$v: rc $RC, '$ERR'" || return 1
	done
	# an error of the verb's own is reported, and its exit status kept
	"$AICC" show nosuch >/dev/full 2>"$TMP/err"
	RC=$?
	[ $RC = 2 ] && grep -q "unknown profile 'nosuch'" "$TMP/err" ||
		fail "show nosuch: rc $RC $(cat "$TMP/err")"
}

# profile save to stdout with a knob it cannot read: nothing printed.
t_profile_save_unreadable() {
	fresh_tree || return 1
	chmod 0000 "$AICC_SYSFS/aicc_bulk/beta"
	run as_user "$AICC" profile save -
	[ $RC = 1 ] && [ -z "$OUT" ] &&
		[ "$ERR" = "aicc: cannot read aicc_bulk.beta: Permission denied (needs root); nothing saved" ] ||
		fail "stdout: rc $RC, out '$(echo "$OUT" | head -3)', err '$ERR'" ||
		return 1
	chmod 0777 "$TMP"
	run as_user "$AICC" profile save "$TMP/unr.conf"
	[ $RC = 1 ] && [ ! -e "$TMP/unr.conf" ] &&
		[ -z "$(find "$TMP" -maxdepth 1 -name 'unr.conf*')" ] ||
		fail "file: rc $RC $ERR"
	chmod 0755 "$TMP"
}

# profile save never writes through a file already at its temporary
# name (a symlink planted in a shared directory): it refuses, and the
# symlink's target keeps its content.
t_profile_save_symlink() {
	fresh_tree || return 1
	echo precious >"$TMP/victim"
	rm -f "$TMP/sym.conf"
	run bash -c 'ln -s "$1" "$2.tmp.$$" && exec "$3" profile save "$2"' \
		- "$TMP/victim" "$TMP/sym.conf" "$AICC"
	[ $RC = 1 ] && [ "$(cat "$TMP/victim")" = precious ] &&
		[ ! -e "$TMP/sym.conf" ] &&
		echo "$ERR" | grep -q "cannot create $TMP/sym.conf: File exists (writing $TMP/sym.conf.tmp.[0-9]*)" ||
		fail "rc $RC, victim '$(head -c 40 "$TMP/victim")', err '$ERR'" ||
		return 1
	rm -f "$TMP/victim" "$TMP"/sym.conf*
}

# ---- aicc rdma save ----

# fresh_tree plus a fake aicc_roce tree: the knob names of the module's
# table, each at the lower end of the range 'aicc rdma show' prints for
# it; then a few knobs moved off it with 'rdma set'.  RK is the tree.
RK=
roce_tree() {
	local k lo
	fresh_tree || return 1
	RK=$AICC_SYSFS/roce
	mkdir -p "$RK/stats" && chmod 0777 "$RK" "$RK/stats" || return 1
	for k in $(sed -n 's/^\s*RK(AICC_RK_[A-Z0-9_]*, *"\([a-z0-9_]*\)".*/\1/p' \
		   module/roce/roce_tables.c); do
		echo 0 >"$RK/$k" && chmod 0666 "$RK/$k" || return 1
	done
	"$AICC" rdma show | sed -n 's/^\([a-z0-9_]*\) .* \([0-9]*\)\.\.[0-9]*$/\1 \2/p' |
		while read -r k lo; do echo "$lo" >"$RK/$k"; done
	"$AICC" rdma set cc_algo=2 rp_ai_rate=7 flow_timeout_ms=1234 \
		np_cnp_dscp=26 >/dev/null
}

# The knob lines of a saved file, without the header.
knob_lines() { grep -v '^#' "$1"; }

# save, change every knob (to its upper bound), set --file: the tree is
# back as it was, and every knob has a line.
t_rdma_save_roundtrip() {
	local orig n args
	roce_tree || return 1
	orig=$(tree_sum)
	n=$(find "$RK" -maxdepth 1 -type f | wc -l)
	[ "$n" -ge 20 ] || fail "only $n knobs in the fake tree" || return 1
	run "$AICC" rdma save -o "$TMP/roce.conf"
	[ $RC = 0 ] && [ -z "$ERR$OUT" ] || fail "save: rc $RC: $ERR" || return 1
	[ "$(head -1 "$TMP/roce.conf" | cut -c1)" = "#" ] &&
		[ "$(grep -c '^#' "$TMP/roce.conf")" = 1 ] &&
		[ "$(knob_lines "$TMP/roce.conf" | wc -l)" = "$n" ] &&
		knob_lines "$TMP/roce.conf" | grep -qx 'rp_ai_rate = 7' &&
		knob_lines "$TMP/roce.conf" | grep -qx 'flow_timeout_ms = 1234' ||
		fail "content: $(cat "$TMP/roce.conf")" || return 1
	[ -z "$(find "$TMP" -maxdepth 1 -name 'roce.conf.*')" ] ||
		fail "temporary file left" || return 1
	run "$AICC" rdma save
	[ $RC = 0 ] && [ "$OUT" = "$(cat "$TMP/roce.conf")" ] ||
		fail "stdout differs from -o: $OUT" || return 1
	args=$("$AICC" rdma show |
		sed -n 's/^\([a-z0-9_]*\) .*\.\.\([0-9]*\)$/\1=\2/p')
	# shellcheck disable=SC2086
	"$AICC" rdma set $args >/dev/null || return 1
	[ "$(tree_sum)" != "$orig" ] || fail "set changed nothing" || return 1
	run "$AICC" rdma set --file "$TMP/roce.conf"
	[ $RC = 0 ] || fail "set --file: $ERR" || return 1
	[ "$(tree_sum)" = "$orig" ] || fail "not restored"
}

# save_refused RC WORDS CMD...: exits RC with one stderr line matching
# WORDS, and $TMP/keep.conf (if any) is unchanged with no temporary
# file next to it.
save_refused() {
	local rc=$1 words=$2 sum
	shift 2
	sum=$(cat "$TMP"/w/keep.conf 2>/dev/null | md5sum)
	run "$@"
	[ "$RC" = "$rc" ] || fail "$*: rc $RC, want $rc: $ERR" || return 1
	[ "$(echo "$ERR" | wc -l)" = 1 ] && echo "$ERR" | grep -q -- "$words" ||
		fail "$*: stderr '$ERR', want '$words'" || return 1
	[ "$(cat "$TMP"/w/keep.conf 2>/dev/null | md5sum)" = "$sum" ] ||
		fail "$*: keep.conf changed" || return 1
	[ -z "$(find "$TMP"/w -name '*.tmp.*' 2>/dev/null)" ] ||
		fail "$*: temporary file left" || return 1
}

t_rdma_save_errors() {
	local W=$TMP/w
	roce_tree || return 1
	rm -rf "$W" && mkdir -p "$W" && chmod 0777 "$W" || return 1
	echo "# an older file" >"$W/keep.conf"
	chmod 0666 "$W/keep.conf"
	save_refused 2 "unexpected argument 'bogus'" "$AICC" rdma save bogus &&
	save_refused 2 "-o takes one FILE" "$AICC" rdma save -o &&
	save_refused 2 "-o takes one FILE" "$AICC" rdma save -o "$W/keep.conf" \
		-o "$W/b" &&
	save_refused 2 "empty file name" "$AICC" rdma save -o "" &&
	AICC_SYSFS=$TMP/none save_refused 1 "aicc_roce module not loaded" \
		"$AICC" rdma save -o "$W/keep.conf" &&
	save_refused 1 "cannot create $TMP/nodir/x: No such file" \
		"$AICC" rdma save -o "$TMP/nodir/x" &&
	save_refused 1 "cannot write $W: " "$AICC" rdma save -o "$W" || return 1
	[ ! -e "$TMP/nodir" ] || fail "nodir created" || return 1
	# a directory the user cannot write to: FILE there stays as it was
	chmod 0555 "$W"
	save_refused 1 "cannot create $W/keep.conf: Permission denied" \
		as_user "$AICC" rdma save -o "$W/keep.conf" || return 1
	chmod 0777 "$W"
	# a knob that cannot be read, one the tool would refuse: nothing saved
	chmod 0000 "$RK/rp_gd"
	save_refused 1 "cannot read $RK/rp_gd: .*nothing saved" \
		as_user "$AICC" rdma save -o "$W/keep.conf" || return 1
	chmod 0666 "$RK/rp_gd"
	echo 99 >"$RK/rp_gd"
	save_refused 1 "$RK/rp_gd = 99, outside the tool's 1..15; nothing saved" \
		"$AICC" rdma save -o "$W/keep.conf" || return 1
	[ "$(cat "$W/keep.conf")" = "# an older file" ] ||
		fail "keep.conf: $(cat "$W/keep.conf")"
}

# rdma export takes each option once and with its value, as rdma save
# takes -o: a second -o (the last one won), a missing value (reported as
# an unexpected argument) or an empty file name is a usage error that
# names the option, and nothing is written.
t_rdma_export_args() {
	local W=$TMP/w
	roce_tree || return 1
	rm -rf "$W" && mkdir -p "$W" && echo "# an older file" >"$W/keep.conf" ||
		return 1
	save_refused 2 "rdma export: -o takes one FILE, once" "$AICC" rdma \
		export --format mlx5 --defaults -o "$W/keep.conf" -o "$W/b" &&
	save_refused 2 "rdma export: -o takes one FILE, once" "$AICC" rdma \
		export --format mlx5 --defaults -o &&
	save_refused 2 "rdma export: --format takes one FORMAT, once" "$AICC" \
		rdma export --defaults --format &&
	save_refused 2 "rdma export: --format takes one FORMAT, once" "$AICC" \
		rdma export --format mlx5 --format mlx5 --defaults &&
	save_refused 2 "rdma export: --file takes one FILE, once" "$AICC" \
		rdma export --format mlx5 --file "$W/keep.conf" --file "$W/b" &&
	save_refused 2 "rdma export: -o: empty file name" "$AICC" rdma \
		export --format mlx5 --defaults -o "" || return 1
	[ ! -e "$W/b" ] || fail "$W/b written"
}

# rdma show with a knob it cannot read: an error and no output at all
# (no half a table, no truncated JSON).
t_rdma_show_unreadable() {
	local j
	roce_tree || return 1
	chmod 0000 "$RK/rp_gd"
	for j in "" "-j"; do
		run as_user "$AICC" $j rdma show
		[ $RC = 1 ] && [ -z "$OUT" ] &&
			[ "$ERR" = "aicc: cannot read $RK/rp_gd: Permission denied (needs root)" ] ||
			fail "$j rdma show: rc $RC, out '$(echo "$OUT" | head -2)', err '$ERR'" ||
			return 1
	done
	chmod 0666 "$RK/rp_gd"
	run "$AICC" -j rdma show
	[ $RC = 0 ] && echo "$OUT" | is_json || fail "-j rdma show: $OUT"
}

# with_fsize BYTES CMD...: CMD with files limited to BYTES (a longer
# write is cut short: the tool sees EIO); stdout and stderr through pipes.
with_fsize() {
	python3 -c '
import resource, signal, subprocess, sys
def limit():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    n = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
p = subprocess.run(sys.argv[2:], preexec_fn=limit, restore_signals=False,
                   capture_output=True)
sys.stdout.buffer.write(p.stdout)
sys.stderr.buffer.write(p.stderr)
sys.exit(p.returncode)' "$@"
}

# rdma set: a write fails, the earlier knobs are put back; when putting one
# back fails too, that is reported and not called a rollback.
t_rdma_set_rollback() {
	local sum
	roce_tree || return 1
	sum=$(tree_sum)
	chmod 0444 "$RK/rp_ai_rate"
	run as_user "$AICC" rdma set flow_timeout_ms=100 np_enable=0 rp_ai_rate=9
	[ $RC = 1 ] &&
		[ "$ERR" = "aicc: cannot write $RK/rp_ai_rate: Permission denied (needs root); earlier knobs restored, nothing changed" ] &&
		[ "$(tree_sum)" = "$sum" ] || fail "restored: rc $RC, '$ERR'" ||
		return 1
	chmod 0666 "$RK/rp_ai_rate"
	# flow_timeout_ms 1234 -> 100 fits in 4 bytes, rp_ai_rate=12345 and
	# the way back to 1234 do not.
	run with_fsize 4 "$AICC" rdma set flow_timeout_ms=100 rp_ai_rate=12345
	[ $RC = 1 ] || fail "rc $RC: $ERR" || return 1
	[ "$(echo "$ERR" | wc -l)" = 2 ] &&
		echo "$ERR" | head -1 | grep -qx "aicc: rollback of flow_timeout_ms to 1234 failed: Input/output error" &&
		echo "$ERR" | tail -1 | grep -qx "aicc: cannot write $RK/rp_ai_rate: Input/output error; ROLLBACK INCOMPLETE, check 'aicc rdma show'" ||
		fail "incomplete: '$ERR'"
}

# A knob file that cannot be read is a runtime error (1), a bad one bad
# input (2), for rdma set and rdma export alike.
t_rdma_file_errors() {
	local v
	roce_tree || return 1
	printf 'rp_ai_rate = 9\nrp_hai_rate = 2x\n' >"$TMP/bad-roce.conf"
	for v in set "export --format mlx5"; do
		run "$AICC" rdma $v --file "$TMP/no-such.conf"
		[ $RC = 1 ] && echo "$ERR" | grep -q "cannot open .*: No such file" ||
			fail "$v: missing file: rc $RC $ERR" || return 1
		run "$AICC" rdma $v --file "$TMP"
		[ $RC = 1 ] && echo "$ERR" | grep -q "cannot read .*: Is a directory" ||
			fail "$v: directory: rc $RC $ERR" || return 1
		run "$AICC" rdma $v --file "$TMP/bad-roce.conf"
		[ $RC = 2 ] && echo "$ERR" | grep -q "bad-roce.conf:2: rp_hai_rate=2x" ||
			fail "$v: bad file: rc $RC $ERR" || return 1
	done
	# a line of 511 characters is read, one of 512 is too long
	printf 'rp_ai_rate = 9 #%495s\n' "" >"$TMP/long.conf"
	[ "$(head -1 "$TMP/long.conf" | wc -c)" = 512 ] || fail "511 + newline" || return 1
	run "$AICC" rdma export --format mlx5 --file "$TMP/long.conf"
	[ $RC = 0 ] && echo "$OUT" | grep -q 'echo 9 > "$cc/rp_ai_rate"' ||
		fail "511 characters: rc $RC $ERR" || return 1
	printf 'rp_ai_rate = 9 #%496s\n' "" >"$TMP/long.conf"
	run "$AICC" rdma export --format mlx5 --file "$TMP/long.conf"
	[ $RC = 2 ] && echo "$ERR" | grep -q "long.conf:1: line too long" ||
		fail "512 characters: rc $RC $ERR" || return 1
	# a knob twice on the command line is refused, as by 'aicc set'; an
	# argument may still override the file's value
	run "$AICC" rdma set np_enable=1 np_enable=0
	[ $RC = 2 ] && echo "$ERR" | grep -q "rdma set: np_enable set twice" ||
		fail "twice: rc $RC $ERR" || return 1
	printf 'rp_ai_rate = 9\n' >"$TMP/ai9.conf"
	run "$AICC" rdma set --file "$TMP/ai9.conf" rp_ai_rate=11
	[ $RC = 0 ] && [ "$(cat "$RK/rp_ai_rate")" = 11 ] ||
		fail "override: rc $RC $ERR" || return 1
	# a value is digits only: no white space, no sign
	for v in "rp_ai_rate= 9" $'rp_ai_rate=\t9' $'rp_ai_rate=\n9' "rp_ai_rate=+9"; do
		run "$AICC" rdma set "$v"
		[ $RC = 2 ] && echo "$ERR" | grep -q "must be an integer" ||
			fail "rdma set '$v': rc $RC $ERR" || return 1
	done
}

# A NUL byte in a profile or knob file is reported as such, with its line
# and column, not as a line too long; the line after it is still read
# (and checked) as a line of its own, and counted.
t_file_nul_byte() {
	local sum
	fresh_tree || return 1
	sum=$(tree_sum)
	printf 'aicc.target = 300\naicc.mi\0 = 2\naicc.nosuch = 1\naicc_lat.beta = 0.5\n' \
		>"$TMP/nul.conf"
	run "$AICC" profile load "$TMP/nul.conf"
	[ $RC = 2 ] || fail "rc $RC: $ERR" || return 1
	echo "$ERR" | grep -q "nul.conf:2: NUL byte at column 8" &&
		echo "$ERR" | grep -q "nul.conf:3: unknown knob 'nosuch' for aicc" &&
		echo "$ERR" | grep -q "2 errors, nothing applied" &&
		[ "$(echo "$ERR" | wc -l)" = 3 ] || fail "$ERR" || return 1
	[ "$(tree_sum)" = "$sum" ] || fail "tree changed" || return 1
	# the last line, without its newline, hid the rest of the line
	printf 'aicc.target = 300\naicc_lat.beta = 0.5\0 junk' >"$TMP/nul.conf"
	run "$AICC" profile load -n "$TMP/nul.conf"
	[ $RC = 2 ] && echo "$ERR" | grep -q "nul.conf:2: NUL byte at column 20" ||
		fail "last line: rc $RC: $ERR" || return 1
	roce_tree || return 1
	printf 'rp_ai_rate = 9\nrp_hai\0_rate = 2\n' >"$TMP/nul-roce.conf"
	run "$AICC" rdma set --file "$TMP/nul-roce.conf"
	[ $RC = 2 ] && [ "$ERR" = "aicc: $TMP/nul-roce.conf:2: NUL byte at column 7" ] ||
		fail "rdma set: rc $RC: $ERR"
}

# rdma export -o F that fails leaves F as it was (written whole or not at
# all, as rdma save and profile save are).
t_rdma_export_atomic() {
	roce_tree || return 1
	echo "# an older script" >"$TMP/old.sh"
	# a file-size limit of 700 bytes stops the write halfway (EFBIG)
	run python3 -c 'import os, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (700, 700))
os.execvp(sys.argv[1], sys.argv[1:])' "$AICC" rdma export \
		--format mlx5 --defaults -o "$TMP/old.sh"
	[ $RC = 1 ] && [ "$(cat "$TMP/old.sh")" = "# an older script" ] &&
		[ -z "$(ls "$TMP"/old.sh.tmp.* 2>/dev/null)" ] ||
		fail "rc $RC, file now '$(head -c 60 "$TMP/old.sh")', err '$ERR'" ||
		return 1
	run "$AICC" rdma export --format mlx5 --defaults -o "$TMP/old.sh"
	[ $RC = 0 ] && head -1 "$TMP/old.sh" | grep -q '^#!/bin/sh' ||
		fail "rc $RC $ERR"
	rm -f "$TMP/old.sh"
}

t_man_page() {
	local out
	command -v groff >/dev/null || { echo "# SKIP no groff"; return 4; }
	out=$(groff -man -ww -z tools/aicc/aicc.8 2>&1)
	[ -z "$out" ] || fail "groff: $out" || return 1
	# every verb of the command table is documented
	local v
	for v in status show set profile flows watch select metrics model rdma tune; do
		grep -q "^\.B.* $v\b\|^\.B $v\|^\.BR* \"*$v" tools/aicc/aicc.8 ||
			fail "verb $v not in the man page" || return 1
	done
	# every rdma command is in the SYNOPSIS and in main.c's verb table
	local syn tab
	syn=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' tools/aicc/aicc.8)
	tab=$(sed -n '/{ "rdma", cmd_rdma,/,/}/p' tools/aicc/main.c)
	for v in $("$AICC" rdma -h | sed -n 's/^Usage: aicc \[-j\] rdma \([a-z]*\).*/\1/p'); do
		echo "$syn" | grep -q "^\.B \(aicc rdma \)\?$v\b" ||
			fail "rdma $v not in the SYNOPSIS" || return 1
		echo "$tab" | grep -q "[\"|] $v\b\|\"$v\b" ||
			fail "rdma $v not in main.c's verb table" || return 1
	done
}

# 'aicc tune' runs aicc-tune from next to the tool (or $AICC_TUNE) with
# the arguments unchanged; its profile file passes 'aicc profile load -n'.
t_tune() {
	local tune
	tune=$(dirname "$AICC")/aicc-tune
	[ -x "$tune" ] || return 4
	fresh_tree || return 1
	run "$AICC" tune --profile aicc --quick --generations 1 --lambda 4 \
		-o "$TMP/tuned.conf"
	[ $RC = 0 ] || fail "tune: $ERR" || return 1
	grep -q '^aicc\.target = ' "$TMP/tuned.conf" ||
		fail "no profile file: $(head -3 "$TMP/tuned.conf")" || return 1
	run "$AICC" profile load -n "$TMP/tuned.conf"
	[ $RC = 0 ] || fail "the tuned file does not load: $ERR" || return 1
	run "$AICC" tune --profile nosuch
	[ $RC != 0 ] && echo "$ERR" | grep -q "nosuch" ||
		fail "bad profile: rc $RC, $ERR" || return 1
	AICC_TUNE=$TMP/none run "$AICC" tune --profile aicc
	[ $RC = 1 ] && echo "$ERR" | grep -q "aicc: tune: .*none" ||
		fail "missing aicc-tune: rc $RC, $ERR" || return 1
}

# rdma flows: a read error, or bytes past the last whole record (a tool
# and a module that disagree on the record), is an error, not a short
# table; an empty file is a table with no flows.
t_rdma_flows_read_errors() {
	roce_tree || return 1
	: >"$RK/flows"
	run "$AICC" rdma flows
	[ $RC = 0 ] && echo "$OUT" | grep -qx '(no flows)' ||
		fail "empty: rc $RC, '$OUT' '$ERR'" || return 1
	head -c 7 /dev/zero >"$RK/flows"
	run "$AICC" -j rdma flows
	[ $RC = 1 ] && echo "$ERR" | grep -q "7 bytes past the last whole record" ||
		fail "partial record: rc $RC, '$ERR'" || return 1
	rm -f "$RK/flows" && mkdir "$RK/flows"
	run "$AICC" rdma flows
	[ $RC = 1 ] && echo "$ERR" | grep -q "cannot read $RK/flows: " ||
		fail "read error: rc $RC, '$ERR'"
}

TESTS=(help module_absent profile_check_absent consistency_read_error
       entries_last model_unload show_text json_valid json_non_utf8 set_units
       bad_values out_of_range rollback unreadable profile_roundtrip
       profile_malformed profile_full_dup profile_rollback metrics
       flows_loopback flows_filters flows_states select_get
       select_route_netns watch
       watch_missing_counter watch_args stdout_write_error
       profile_save_unreadable profile_save_symlink tune rdma_save_roundtrip
       rdma_save_errors rdma_show_unreadable rdma_set_rollback
       rdma_file_errors file_nul_byte rdma_export_atomic rdma_export_args
       rdma_flows_read_errors man_page)

echo "TAP version 13"
echo "1..${#TESTS[@]}"
n=0
failed=0
for t in "${TESTS[@]}"; do
	n=$((n + 1))
	FAILED=0
	"t_$t"
	rc=$?
	[ $rc = 0 ] && [ $FAILED = 1 ] && rc=1
	if [ $rc = 0 ]; then
		echo "ok $n $t"
	elif [ $rc = 4 ]; then
		echo "ok $n $t # SKIP"
	else
		echo "not ok $n $t"
		failed=$((failed + 1))
	fi
done
echo "# $((n - failed))/$n passed"
[ $failed = 0 ]
