#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stress of tcp_aicc.ko in the VM rig: short connections opened and closed
# across all three profiles (both ends use aicc: the client by setsockopt,
# the server through its listeners), while
#
#   - every knob is rewritten continuously with valid values (accepted)
#     and invalid ones (rejected with EINVAL);
#   - `aicc profile load` applies whole profiles (and refuses a bad one);
#   - learned-policy models are loaded, corrupt ones refused, and unloaded
#     (when the module has the model file);
#   - rmmod is attempted and refused;
#
# then the rate memory is shrunk to its minimum and filled from many peers
# (one address each), past its bound.  Afterwards: no connection failed,
# every counter adds up (flows back to 0, flows_total grew by exactly two
# per connection), the cache holds at most its bound, every write got the
# answer it deserved, and the module unloads.
#
# Every connection's bytes are checked by the server (pattern and count):
# aicc only paces, it never loses or reorders data.
#
# Short by default (about a minute under emulation: 1500 connections);
# STRESS_LONG=1 (make check-debug) opens 10,000 and fills 256 peers.

set -u
# shellcheck source-path=SCRIPTDIR source=../lib/module.sh
. "$(dirname "$0")/../lib/module.sh"

ktap_require ip
churn=$top/build/selftests/stress/aicc-churn
tool=$top/build/aicc
mod_require "$churn" "$tool"
if [ "${AICC_VM:-}" != 1 ]; then
	ktap_skip_all "loads and unloads tcp_aicc: VM rig only"
fi

if [ "${STRESS_LONG:-0}" = 1 ]; then
	conns=10000
	peers=256
else
	conns=1500
	peers=48
fi
profiles=(aicc aicc_lat aicc_bulk)

ktap_plan 12

ns=aicc-st-$$
port=5501
work=$(mktemp -d /tmp/aicc-stress.XXXXXX)
bg=()
srv=
mod_tmp=$work
mod_netns=("$ns-a" "$ns-b")
mod_settle=0.5
if ! mod_load; then
	ktap_fail "insmod"
	ktap_finish
fi

# Knob names and ranges from the table the module uses.
mapfile -t knobs < <(awk '/^\t\t"[a-z_]+", AICC_UNIT_/ {
	gsub(/[",U]/, ""); print $1, $3, $4 }' "$top/module/core/aicc_tables.c")
declare -A dflt
for p in "${profiles[@]}"; do
	for k in "${knobs[@]}"; do
		set -- $k
		read -r "dflt[$p/$1]" < "$sys/$p/$1"
	done
done

# ---- the network: a (clients) -- veth -- b (servers, many addresses) ----
ip netns add "$ns-a" && ip netns add "$ns-b" &&
	ip link add va netns "$ns-a" type veth peer name vb netns "$ns-b" &&
	ip -n "$ns-a" addr add 10.77.0.1/16 dev va &&
	ip -n "$ns-b" addr add 10.77.0.2/16 dev vb &&
	ip -n "$ns-a" addr add fd77::1/64 dev va nodad &&
	ip -n "$ns-b" addr add fd77::2/64 dev vb nodad &&
	ip -n "$ns-a" link set va up && ip -n "$ns-b" link set vb up &&
	ip -n "$ns-a" link set lo up && ip -n "$ns-b" link set lo up ||
	{ ktap_fail "network namespaces"; ktap_finish; }
{
	for i in $(seq 1 "$peers"); do
		echo "address add 10.77.$((1 + i / 250)).$((1 + i % 250))/16 dev vb"
	done
} | ip -n "$ns-b" -batch - || { ktap_fail "peer addresses"; ktap_finish; }
# client side: many TIME_WAIT sockets are fine, reuse them
ip netns exec "$ns-a" sysctl -qw net.ipv4.tcp_tw_reuse=1 \
	net.ipv4.ip_local_port_range="10000 65000"

# one listener per profile: accepted sockets inherit it
# (and one for the rate-memory phase, with longer connections); they check
# every byte and the count, and reset a connection that lost or reordered
# anything
ip netns exec "$ns-b" "$churn" server -p $port,$((port + 1)),$((port + 2)) \
	--cc aicc,aicc_lat,aicc_bulk --bytes 4096 > "$work/server.log" 2>&1 &
srv=$!
mod_pids+=($!)
ip netns exec "$ns-b" "$churn" server -p $((port + 3)) --cc aicc \
	--bytes 65536 > "$work/server2.log" 2>&1 &
srv="$srv $!"
mod_pids+=($!)
for _ in $(seq 100); do
	grep -q listening "$work/server.log" 2>/dev/null &&
		grep -q listening "$work/server2.log" 2>/dev/null && break
	sleep 0.1
done
grep -q listening "$work/server.log" && grep -q listening "$work/server2.log" ||
	{ ktap_fail "churn servers" "$(cat "$work/server.log" "$work/server2.log")"; ktap_finish; }

stat_sum()	# COUNTER -> sum over the three profiles
{
	local p v s=0

	for p in "${profiles[@]}"; do
		read -r v < "$sys/$p/stats/$1"
		s=$((s + v))
	done
	echo "$s"
}
total0=$(stat_sum flows_total)

stat_is()	# COUNTER -gt|-eq VALUE: the sum compares so with VALUE
{
	test "$(stat_sum "$1")" "$2" "$3"
}

# ---- background writers, each logging its surprises to a file ----------

# Valid values: the knob's default, minimum or maximum, except where the
# extreme would stall the traffic (pacing caps, tiny windows): there only
# the default and values near it.
knob_writer()
{
	local bad=0 ok=0 rej=0 i=0 p k name lo hi d f val
	local -a vals

	while [ ! -e "$work/stop" ]; do
		for k in "${knobs[@]}"; do
			set -- $k
			name=$1 lo=$2 hi=$3
			p=${profiles[$((i % 3))]}
			i=$((i + 1))
			f=$sys/$p/$name
			d=${dflt[$p/$name]}
			case $name in
			pacing_*|min_cwnd|fs_*|target_min_us|target_max_us|rate_memory_ms|min_rtt_win_ms)
				vals=("$d") ;;
			*)	vals=("$d" "$lo" "$hi" "$d") ;;
			esac
			for val in "${vals[@]}"; do
				if echo "$val" > "$f" 2>/dev/null; then
					ok=$((ok + 1))
				else
					bad=$((bad + 1))
					echo "valid $p/$name=$val refused" >> "$work/knob.err"
				fi
			done
			for val in $((hi + 1)) -1 abc "1 2" 0x10 99999999999999999999 "+" "7 "; do
				if [ "$lo" -gt 0 ] && [ "$val" = "-1" ]; then
					val=$((lo - 1))
				fi
				if printf '%s' "$val" > "$f" 2>/dev/null; then
					bad=$((bad + 1))
					echo "invalid $p/$name='$val' accepted" >> "$work/knob.err"
				else
					rej=$((rej + 1))
				fi
			done
		done
		# global files, valid and not
		echo 1 > $sys/rate_memory 2>/dev/null || bad=$((bad + 1))
		printf 2 > $sys/rate_memory 2>/dev/null && bad=$((bad + 1))
		printf 1000 > $sys/rate_memory_entries 2>/dev/null && bad=$((bad + 1))
	done
	echo "$ok $rej $bad" > "$work/knob.res"
}

# Whole profiles, as an administrator would load them; a bad file (one
# knob out of range) must be refused with nothing applied.  Each good file
# must load: they touch no bounding pair (target_min_us/target_max_us,
# pacing_*, fs_*), which the knob writer keeps at their defaults, so the
# consistency check has nothing to refuse.  The bad file's first line
# sets aicc.start_exit to 400, a value no other writer uses (the knob
# writer writes its default, minimum and maximum): 400 there after a
# refused load means the tool applied part of it.
profile_loader()
{
	local n=0 bad=0 f v
	local -A applied=([a]=0 [b]=0 [saved]=0)

	"$tool" profile save "$work/saved.prof" > /dev/null 2>&1 ||
		echo "profile save failed" >> "$work/profile.err"
	{
		echo "aicc.target = 300"
		echo "aicc_lat.ai = 1500"
		echo "aicc_bulk.beta = 850"
	} > "$work/a.prof"
	{
		echo "aicc.target = 200"
		echo "aicc_lat.ai = 500"
		echo "aicc_bulk.beta = 700"
	} > "$work/b.prof"
	{
		echo "aicc.start_exit = 400"
		echo "aicc_lat.target = 999999999"
	} > "$work/bad.prof"
	while [ ! -e "$work/stop" ]; do
		for f in a b saved; do
			if "$tool" profile load "$work/$f.prof" > /dev/null 2>> "$work/profile.log"; then
				applied[$f]=$((applied[$f] + 1))
			else
				echo "load $f refused" >> "$work/profile.log"
			fi
			n=$((n + 1))
		done
		if "$tool" profile load "$work/bad.prof" > /dev/null 2>&1; then
			bad=$((bad + 1))
			echo "bad profile accepted" >> "$work/profile.err"
		elif read -r v < "$sys/aicc/start_exit" && [ "$v" = 400 ]; then
			bad=$((bad + 1))
			echo "bad profile refused but aicc.start_exit = 400 applied" >> "$work/profile.err"
		fi
	done
	echo "$n $bad ${applied[a]} ${applied[b]} ${applied[saved]}" > "$work/profile.res"
}

# Models: a neutral valid blob loads, corrupt ones are refused (EINVAL),
# model_unload removes it.
model_loader()
{
	local ok=0 rej=0 bad=0 s=0

	"$churn" model "$work/good.blob" || { echo "no blob" >> "$work/model.err"; return; }
	while [ ! -e "$work/stop" ]; do
		if cat "$work/good.blob" > $sys/model 2>/dev/null; then
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
			echo "valid model refused" >> "$work/model.err"
		fi
		# a refusal counts only for a corrupt blob that exists: without
		# the check, a missing file (aicc-churn refuses to write a blob
		# the parser would accept) failed the cat and counted as one
		rm -f "$work/bad.blob"
		if ! "$churn" model "$work/bad.blob" --bad $s 2>> "$work/model.err"; then
			bad=$((bad + 1))
			echo "no corrupt blob $s to write" >> "$work/model.err"
		elif cat "$work/bad.blob" > $sys/model 2>/dev/null; then
			bad=$((bad + 1))
			echo "corrupt model ($s) accepted" >> "$work/model.err"
		else
			rej=$((rej + 1))
		fi
		s=$((s + 1))
		echo 1 > $sys/model_unload 2>/dev/null ||
			{ bad=$((bad + 1)); echo "model_unload refused" >> "$work/model.err"; }
		sleep 0.2
	done
	echo "$ok $rej $bad" > "$work/model.res"
}

rmmod_tries()
{
	local n=0 bad=0

	while [ ! -e "$work/stop" ]; do
		if rmmod tcp_aicc 2>/dev/null; then
			bad=$((bad + 1))
			echo "rmmod succeeded during traffic" >> "$work/rmmod.err"
			break
		fi
		n=$((n + 1))
		sleep 0.5
	done
	echo "$n $bad" > "$work/rmmod.res"
}

have_model=0
[ -e $sys/model ] && [ -e $sys/model_unload ] && have_model=1

# ---- 1..2: the churn, with everything else running --------------------
start=$SECONDS
knob_writer & bg+=($!)
profile_loader & bg+=($!)
[ $have_model -eq 1 ] && { model_loader & bg+=($!); }
# the first connections must be up before rmmod is tried
ip netns exec "$ns-a" "$churn" client -c 10.77.0.2,fd77::2 \
	-p $port,$((port + 1)),$((port + 2)) -n "$conns" -P 8 \
	--cc aicc,aicc_lat,aicc_bulk > "$work/client.log" 2>&1 &
cpid=$!
mod_wait_until 20 "aicc connection" stat_is flows_total -gt "$total0" ||
	ktap_info "rmmod tries start anyway"
rmmod_tries & bg+=($!)
mod_pids+=("${bg[@]}")
wait $cpid
crc=$?
touch "$work/stop"
wait "${bg[@]}" 2>/dev/null
bg=()
elapsed=$((SECONDS - start))
ok=$(sed -n 's/^ok \([0-9]*\) failed.*/\1/p' "$work/client.log")
ktap_info "$conns connections in ${elapsed} s: $(tr '\n' ' ' < "$work/client.log")"
ktap_expect "$conns connections over three profiles, every byte delivered in order" \
	"$crc -eq 0 -a ${ok:-0} -eq $conns" "client exit $crc"
bad=
for p in "${profiles[@]}"; do
	c=$(sed -n "s/^cc $p //p" "$work/client.log")
	[ $((${c:-0} * 30)) -ge $((conns * 9)) ] || bad="$bad $p:${c:-0}"
done
if [ -z "$bad" ]; then
	ktap_pass "every profile carried about a third of them"
else
	ktap_fail "every profile carried about a third of them" "per profile:$bad"
fi

# ---- 3..6: what the writers saw ----------------------------------------
read -r kok krej kbad < "$work/knob.res" 2>/dev/null || kbad=x
ktap_info "knob writes: ${kok:-?} valid accepted, ${krej:-?} invalid refused"
ktap_expect "knobs: valid writes accepted, invalid refused, during traffic" \
	"${kbad:-x} = 0 -a ${krej:-0} -gt 0" \
	"$(head -n 5 "$work/knob.err" 2>/dev/null)"
read -r pn pbad pa pb ps < "$work/profile.res" 2>/dev/null || pbad=x
ktap_info "profile loads: ${pn:-?}, applied a ${pa:-?}, b ${pb:-?}, saved ${ps:-?} ($(grep -c refused "$work/profile.log" 2>/dev/null) refused)"
ktap_expect "profile loads during traffic, bad profile refused" \
	"${pbad:-x} = 0 -a ${pa:-0} -gt 0 -a ${pb:-0} -gt 0 -a ${ps:-0} -gt 0 -a ! -s $work/profile.err" \
	"$(head -n 5 "$work/profile.err" "$work/profile.log" 2>/dev/null)"
if [ $have_model -eq 1 ]; then
	read -r mok mrej mbad < "$work/model.res" 2>/dev/null || mbad=x
	ktap_info "models: ${mok:-?} loaded, ${mrej:-?} corrupt refused"
	ktap_expect "model loads during traffic, corrupt models refused" \
		"${mbad:-x} = 0 -a ${mok:-0} -gt 0 -a ${mrej:-0} -gt 0" \
		"$(head -n 5 "$work/model.err" 2>/dev/null)"
else
	ktap_skip "model loads during traffic" "the module has no $sys/model"
fi
read -r rn rbad < "$work/rmmod.res" 2>/dev/null || rbad=x
ktap_expect "rmmod refused during traffic ($rn tries)" \
	"${rbad:-x} = 0 -a ${rn:-0} -gt 0 -a -d /sys/module/tcp_aicc" \
	"$(cat "$work/rmmod.err" 2>/dev/null)"

# ---- 7..8: counters ------------------------------------------------------
# back to the shipped values, then the counters
for p in "${profiles[@]}"; do
	for k in "${knobs[@]}"; do
		set -- $k
		echo "${dflt[$p/$1]}" > "$sys/$p/$1" 2>/dev/null
	done
done
# the last sockets release their state as they close
mod_wait_idle 10
flows=$(stat_sum flows)
total1=$(stat_sum flows_total)
ktap_expect "flows back to 0 on every profile" "$flows -eq 0" "flows $flows"
ktap_expect "flows_total grew by two per connection" \
	"$((total1 - total0)) -eq $((2 * ${ok:-0}))" \
	"flows_total +$((total1 - total0)), connections ${ok:-0}"

# ---- 9..10: the rate memory past its bound --------------------------------
echo 1 > $sys/rate_memory
echo 16 > $sys/rate_memory_entries
addrs=
for i in $(seq 1 "$peers"); do
	addrs="$addrs${addrs:+,}10.77.$((1 + i / 250)).$((1 + i % 250))"
done
# 64 KB each, so that every flow measures a rate to remember
ip netns exec "$ns-a" "$churn" client -c "$addrs" -p $((port + 3)) -n "$peers" -P 4 \
	--cc aicc --bytes 65536 > "$work/mem.log" 2>&1
mrc=$?
used=$(cat $sys/rate_memory_used)
entries=$(cat $sys/rate_memory_entries)
ktap_expect "$peers peers through a 16-entry cache" "$mrc -eq 0" \
	"$(tr '\n' ' ' < "$work/mem.log")"
ktap_expect "the cache holds at most its bound and some entries" \
	"$used -le $entries -a $used -ge 1 -a $entries -eq 16" \
	"used $used of $entries"
echo 1024 > $sys/rate_memory_entries

# ---- 11..12: unload ------------------------------------------------------
kill $srv 2>/dev/null
wait $srv 2>/dev/null
srv=
ktap_info "servers: $(cat "$work/server.log" "$work/server2.log" | grep -c 'bad stream') bad streams"
ip netns del "$ns-a"
ip netns del "$ns-b"
flows=$(stat_sum flows)
# rc 1 also when the module was already gone: this rmmod must be the one
[ -d /sys/module/tcp_aicc ] && mod_unload 30
rc=$?
ktap_expect "no socket left on aicc after the servers stop" "$flows -eq 0" "flows $flows"
ktap_expect "rmmod after the traffic succeeds" \
	"$rc -eq 0 -a ! -d /sys/module/tcp_aicc -a ! -d $sys" \
	"refcnt $(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
ktap_finish
