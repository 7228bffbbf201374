#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Least privilege: only root changes aicc.
#
#   1. every writable file under /sys/kernel/aicc is writable by its owner
#      root only (knobs and the model 0644, model_unload 0200, counters
#      0444), and nothing is group- or world-writable;
#   2. an unprivileged user (nobody) cannot write any knob, global file or
#      the model -- not even a valid value -- and `aicc set` and
#      `aicc profile load` fail for it with nothing changed;
#   3. root of an unprivileged user namespace with its own network
#      namespace (a rootless container) cannot write them either, through
#      the host's /sys or a sysfs it mounts itself, and cannot change
#      tcp_allowed_congestion_control;
#   4. in that namespace, a process without CAP_NET_ADMIN may select aicc
#      with setsockopt(TCP_CONGESTION) only while aicc is in
#      tcp_allowed_congestion_control; the namespace's root, administrator
#      of its own network namespace, may select any loaded algorithm (the
#      kernel's rule for every congestion control).
#
# (Never tested: making aicc the default inside a child namespace.  When
# that fails with EPERM the kernel keeps the module reference it took, and
# tcp_aicc could never be unloaded again.)

set -u
# shellcheck source-path=SCRIPTDIR source=../lib/module.sh
. "$(dirname "$0")/../lib/module.sh"

ktap_require setpriv unshare python3 stat
tool=$top/build/aicc
mod_require "$tool"
if [ "${AICC_VM:-}" != 1 ]; then
	ktap_skip_all "loads tcp_aicc and changes sysctls: VM rig only"
fi

ktap_plan 8

work=$(mktemp -d /tmp/aicc-priv.XXXXXX)
chmod 755 "$work"
mod_tmp=$work
allowed0=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
mod_restore()
{
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed0"
}
mod_load_or_skip

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# Every value under $sys that can be read, in one string, to show that
# nothing changed.
state()
{
	local f v out=

	for f in "$sys"/*/* "$sys"/rate_memory "$sys"/rate_memory_entries; do
		[ -f "$f" ] || continue
		read -r v < "$f" 2>/dev/null || continue
		out="$out ${f#"$sys"/}=$v"
	done
	echo "$out"
}

# The writable files, each with a valid value different from its current
# one (so that a refusal can only be about who writes).
writes=()
while read -r name lo hi; do
	for p in aicc aicc_lat aicc_bulk; do
		read -r cur < "$sys/$p/$name"
		if [ "$cur" != "$lo" ]; then v=$lo; else v=$hi; fi
		writes+=("$sys/$p/$name=$v")
	done
done < <(awk '/^\t\t"[a-z_]+", AICC_UNIT_/ { gsub(/[",U]/, ""); print $1, $3, $4 }' \
	"$top/module/core/aicc_tables.c")
writes+=("$sys/rate_memory=0" "$sys/rate_memory_entries=2048")
[ -e $sys/model_unload ] && writes+=("$sys/model_unload=1")
printf '%s\n' "${writes[@]}" > "$work/writes"
chmod 644 "$work/writes"

# A script that tries every write and prints the ones that succeeded.
cat > "$work/try.sh" <<'EOF'
while IFS= read -r w; do
	f=${w%=*}
	v=${w##*=}
	if { echo "$v" > "$f"; } 2>/dev/null; then
		echo "accepted: $f=$v"
	fi
done < "$1"
EOF
chmod 644 "$work/try.sh"
"$top/build/selftests/stress/aicc-churn" model "$work/model.blob" 2>/dev/null ||
	printf 'AICM' > "$work/model.blob"
chmod 644 "$work/model.blob"

# ---- 1: modes -----------------------------------------------------------
bad=
while IFS= read -r f; do
	m=$(stat -c '%a %U' "$f")
	case ${f#"$sys"/} in
	*/stats/*|version|rate_memory_used|model_loads|model_rejects)
		want="444 root" ;;
	model) want="644 root" ;;
	model_unload) want="200 root" ;;
	*) want="644 root" ;;
	esac
	[ "$m" = "$want" ] || bad="$bad ${f#"$sys"/}:$m(want $want)"
done < <(find "$sys" -type f)
ww=$(find "$sys" -type f -perm /022)
[ -z "$ww" ] || bad="$bad group/world-writable:$ww"
if [ -z "$bad" ]; then
	ktap_pass "sysfs modes: root writes, others at most read"
else
	ktap_fail "sysfs modes: root writes, others at most read" "$bad"
fi

# ---- 2..3: an unprivileged user -----------------------------------------
# Control: the same script as root, writing every file's current value,
# gets every write through (so a refusal below is about the writer).
while IFS= read -r w; do
	f=${w%=*}
	case $f in */model_unload) continue ;; esac
	read -r v < "$f"
	echo "$f=$v"
done < "$work/writes" > "$work/same"
nsame=$(wc -l < "$work/same")
nroot=$(bash "$work/try.sh" "$work/same" | grep -c '^accepted')
before=$(state)
acc=$(as_nobody bash "$work/try.sh" "$work/writes" 2>&1)
[ "$nroot" -eq "$nsame" ] || acc="$acc (control: root got $nroot of $nsame writes through)"
if [ -e $sys/model ] && as_nobody sh -c "cat '$work/model.blob' > $sys/model" 2>/dev/null; then
	acc="$acc model-accepted"
fi
after=$(state)
[ "$before" = "$after" ] || acc="$acc (values changed)"
if [ -z "$acc" ]; then
	ktap_pass "nobody cannot write any knob, global file or the model"
else
	ktap_fail "nobody cannot write any knob, global file or the model" "$acc"
fi
out=$(as_nobody "$tool" set aicc target=300 2>&1)
rc1=$?
printf 'aicc.target = 300\n' > "$work/p.prof"
chmod 644 "$work/p.prof"
out2=$(as_nobody "$tool" profile load "$work/p.prof" 2>&1)
rc2=$?
after=$(state)
if [ $rc1 -ne 0 ] && [ $rc2 -ne 0 ] && [ "$before" = "$after" ]; then
	ktap_info "aicc set as nobody: $out"
	ktap_pass "aicc set and profile load fail for nobody, nothing changed"
else
	ktap_fail "aicc set and profile load fail for nobody, nothing changed" \
		"set rc $rc1 ($out); load rc $rc2 ($out2)"
fi

# ---- 4..6: root of an unprivileged user + network namespace --------------
if ! as_nobody unshare --user --map-root-user --net true 2>/dev/null; then
	ktap_skip "container root cannot write through /sys" "no unprivileged user namespaces"
	ktap_skip "container root cannot write through its own sysfs" "no unprivileged user namespaces"
	ktap_skip "container root cannot change tcp_allowed_congestion_control" "no unprivileged user namespaces"
else
	before=$(state)
	acc=$(as_nobody unshare --user --map-root-user --net \
		bash "$work/try.sh" "$work/writes" 2>&1)
	[ "$(state)" = "$before" ] || acc="$acc (values changed)"
	if [ -z "$acc" ]; then
		ktap_pass "container root cannot write through /sys"
	else
		ktap_fail "container root cannot write through /sys" "$acc"
	fi

	# its own sysfs, mounted over /sys in its own mount namespace
	acc=$(as_nobody unshare --user --map-root-user --net --mount bash -c '
		mount -t sysfs sysfs /sys || { echo "no-mount"; exit; }
		[ -d /sys/kernel/aicc ] || { echo "no-aicc-dir"; exit; }
		bash "$1" "$2"' sh "$work/try.sh" "$work/writes" 2>&1)
	[ "$(state)" = "$before" ] || acc="$acc (values changed)"
	case $acc in
	no-mount*|no-aicc-dir*)
		ktap_skip "container root cannot write through its own sysfs" "$acc" ;;
	"")	ktap_pass "container root cannot write through its own sysfs" ;;
	*)	ktap_fail "container root cannot write through its own sysfs" "$acc" ;;
	esac

	out=$(as_nobody unshare --user --map-root-user --net sh -c \
		'echo "reno cubic aicc" > /proc/sys/net/ipv4/tcp_allowed_congestion_control && echo accepted' 2>&1)
	now=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
	if [[ $out != *accepted* ]] && [ "$now" = "$allowed0" ]; then
		ktap_pass "container root cannot change tcp_allowed_congestion_control"
	else
		ktap_fail "container root cannot change tcp_allowed_congestion_control" \
			"'$out', now '$now'"
	fi
fi

# ---- 7..8: selection from the child namespace ---------------------------
cat > "$work/sel.py" <<'EOF'
import socket
s = socket.socket()
try:
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"aicc")
    print("ok")
except OSError as e:
    print(e.strerror)
EOF
chmod 644 "$work/sel.py"
# in_ns [--nocap]: the namespace's root, or with --nocap a process there
# without capabilities (empty bounding set: none after exec)
in_ns()
{
	local drop=()

	[ "${1:-}" = --nocap ] && drop=(setpriv --bounding-set=-all --inh-caps=-all)
	as_nobody unshare --user --map-root-user --net "${drop[@]}" \
		python3 "$work/sel.py" 2>&1
}
if ! as_nobody unshare --user --map-root-user --net true 2>/dev/null; then
	ktap_skip "child netns: selection follows tcp_allowed_congestion_control" "no unprivileged user namespaces"
	ktap_skip "child netns: its administrator may select aicc" "no unprivileged user namespaces"
else
	e0=
	base=$(echo "$allowed0" | tr ' ' '\n' | grep -vx 'aicc\|aicc_lat\|aicc_bulk' | paste -sd' ')
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$base" || e0="cannot set '$base'"
	e1=$(in_ns --nocap)
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$base aicc" || e0="cannot add aicc"
	e2=$(in_ns --nocap)
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$base" || e0="cannot set '$base'"
	e3=$(in_ns)
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed0"
	if [[ $e1 == *"not permitted"* ]] && [ "$e2" = ok ]; then
		ktap_pass "child netns: selection follows tcp_allowed_congestion_control"
	else
		ktap_fail "child netns: selection follows tcp_allowed_congestion_control" \
			"not allowed: '$e1'; allowed: '$e2' ${e0:-}"
	fi
	if [ "$e3" = ok ]; then
		ktap_pass "child netns: its administrator may select aicc"
	else
		ktap_fail "child netns: its administrator may select aicc" \
			"namespace root: '$e3'"
	fi
fi

ktap_finish
