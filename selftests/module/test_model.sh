#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The learned policy's model in the kernel (Documentation/learned-policy.rst):
# no model at load; 'aicc model load|show|unload' through
# /sys/kernel/aicc/model; malformed blobs (checksum, truncated, bad magic)
# and non-root writes are rejected with the old model kept; a second write
# on the same open file (not at offset 0) is rejected, the first loads;
# models swapped and unloaded many times while a flow runs; the
# fallback counters: rounds out of the trained range, watchdog trips under
# heavy loss; builtin_model=1 loads the compiled-in trained model.

set -u
# shellcheck source-path=SCRIPTDIR source=../lib/module.sh
. "$(dirname "$0")/../lib/module.sh"

ktap_require ip ss tc setpriv cmp
gen=$top/build/aiccgen
aicc=$top/build/aicc
train=$top/build/aicc-train
trained=$top/tools/train/results/aicc.model
mod_require "$gen" "$aicc" "$train"
[ -f "$trained" ] || ktap_skip_all "no trained model ($trained)"

ktap_plan 15
ns=aicc-model-$$
port=5402
srv=
tmp=$(mktemp -d)
mod_tmp=$tmp
mod_netns=("$ns-a" "$ns-b")
mod_settle=1
mod_load_or_skip

"$train" --identity -o "$tmp/id.model" || exit 1
"$train" --identity --out-of-range -o "$tmp/oor.model" || exit 1
stat_() { cat "$sys/aicc/stats/$1"; }

# ---- the interface, no traffic

modes=$(stat -c '%a' $sys/model $sys/model_unload)
n=$(wc -c < $sys/model)
ktap_expect "no model at load; model 0644, model_unload 0200" \
	"$n-$(echo $modes | tr ' ' -) = 0-644-200" "bytes $n, modes $modes"

"$aicc" model load "$trained" > /dev/null
# (read through a pipe: the file's size is the attribute's, 4096)
same() { cat $sys/model | cmp -s "$1" - && echo y; }
ktap_expect "load: read back byte for byte, model_loads 1" \
	"$(same "$trained")-$(cat $sys/model_loads) = y-1"

# malformed blobs written straight to the kernel (the tool would refuse)
cp "$tmp/id.model" "$tmp/crc.model"
printf '\x55' | dd of="$tmp/crc.model" bs=1 seek=130 conv=notrunc 2>/dev/null
head -c 150 "$tmp/id.model" > "$tmp/short.model"
cp "$tmp/id.model" "$tmp/magic.model"
printf 'XXXX' | dd of="$tmp/magic.model" bs=1 seek=0 conv=notrunc 2>/dev/null
bad=0
# the kernel log from here on (an earlier run's lines do not count)
klog0=$(dmesg | wc -l)
for f in crc short magic; do
	cat "$tmp/$f.model" > $sys/model 2>/dev/null && bad=$((bad + 1))
done
rej=$(cat $sys/model_rejects)
ktap_expect "malformed blobs rejected, counted in model_rejects" \
	"$bad-$rej = 0-3" "accepted $bad, model_rejects $rej"
ktap_expect "the old model stays after rejected blobs" \
	"$(same "$trained")-$(cat $sys/model_loads) = y-1"
dmesg | tail -n +$((klog0 + 1)) | grep -q 'model rejected: checksum mismatch'
ktap_expect "the kernel log names the problem" "$? -eq 0"

# the blob on stdin, opened by root: only the write to sysfs is the user's
setpriv --reuid 65534 --regid 65534 --clear-groups \
	sh -c "cat > $sys/model" < "$tmp/id.model" 2>/dev/null
rc=$?
ktap_expect "a non-root user cannot load a model" \
	"$rc -ne 0 -a $(cat $sys/model_loads) -eq 1" "exit $rc"

out=$("$aicc" model show 2>&1)
ktap_expect "aicc model show names the model" \
	"$(grep -c "name: *aicc-s" <<< "$out") -eq 1" "$out"

# One open file, a valid blob written twice: the first write (offset 0)
# loads it, the second (at the blob's length) is refused with -EINVAL and
# counted, the model stays (the ABI: one whole blob in one write at
# offset 0).
len=$(wc -c < "$tmp/id.model")
l0=$(cat $sys/model_loads)
r0=$(cat $sys/model_rejects)
klog0=$(dmesg | wc -l)
rc1=0
rc2=0
exec 3> $sys/model
dd if="$tmp/id.model" bs=4096 2>/dev/null >&3 || rc1=$?
pos=$(awk '/^pos:/ { print $2 }' /proc/$$/fdinfo/3)
err=$(LC_ALL=C dd if="$tmp/id.model" bs=4096 2>&1 >&3) || rc2=$?
exec 3>&-
grep -q 'Invalid argument' <<< "$err" && einval=y || einval=n
dmesg | tail -n +$((klog0 + 1)) | grep -q 'model rejected: not written at offset 0' &&
	logged=y || logged=n
l1=$(cat $sys/model_loads)
r1=$(cat $sys/model_rejects)
got="$rc1-$pos-$rc2-$einval-$logged-$((l1 - l0))-$((r1 - r0))-$(same "$tmp/id.model")"
ktap_expect "second write on one open file: -EINVAL, the first loaded" \
	"$got = 0-$len-1-y-y-1-1-y" \
	"write 1 exit $rc1, offset $pos, write 2 exit $rc2 ($err), logged $logged, loads $l0 -> $l1, rejects $r0 -> $r1"

"$aicc" model unload > /dev/null
n=$(wc -c < $sys/model)
ktap_expect "unload: no model" "$n -eq 0"

# ---- traffic: a -> b over veth, 2 ms RTT
ip netns add "$ns-a" && ip netns add "$ns-b"
ip link add va netns "$ns-a" type veth peer name vb netns "$ns-b"
ip -n "$ns-a" addr add 10.97.0.1/24 dev va
ip -n "$ns-b" addr add 10.97.0.2/24 dev vb
for l in "a va" "b vb"; do
	set -- $l
	ip -n "$ns-$1" link set lo up
	ip -n "$ns-$1" link set "$2" up
done
tc -n "$ns-b" qdisc add dev vb root netem delay 2ms
ip netns exec "$ns-b" "$gen" server -p $port > /dev/null 2>&1 &
srv=$!
mod_pids+=("$srv")
mod_wait_listen "$ns-b" $port

flow()	# SECONDS
{
	ip netns exec "$ns-a" timeout 40 "$gen" bulk -c 10.97.0.2 -p $port \
		-n 1 -t "$1" --cc aicc > /dev/null 2>&1
}

e0=$(stat_ policy_evals)
flow 2
frc=$?
e1=$(stat_ policy_evals)
ktap_expect "no model: the policy never runs (the flow ran)" \
	"$frc -eq 0 -a $e1 -eq $e0" "flow exit $frc, evals $e0 -> $e1"

# swap models (and unload) every 50 ms while a 5 s flow runs (under TCG
# each swap takes far longer than that)
flow 5 &
fpid=$!
swaps=0
while kill -0 $fpid 2>/dev/null; do
	case $((swaps % 3)) in
	0) cat "$trained" > $sys/model ;;
	1) cat "$tmp/id.model" > $sys/model ;;
	2) echo 1 > $sys/model_unload ;;
	esac
	swaps=$((swaps + 1))
	sleep 0.05
done
wait $fpid
frc=$?
e2=$(stat_ policy_evals)
ktap_expect "models swapped $swaps times under traffic; the flow completes" \
	"$frc -eq 0 -a $swaps -ge 4" "flow exit $frc, $swaps swaps"
ktap_expect "the policy drove rounds" "$e2 -gt $e1" "evals $e1 -> $e2"

cat "$tmp/oor.model" > $sys/model
r0=$(stat_ policy_out_of_range)
e3=$(stat_ policy_evals)
flow 2 || ktap_info "out-of-range flow: exit $?"
r1=$(stat_ policy_out_of_range)
e4=$(stat_ policy_evals)
ktap_expect "inputs out of range: classic rounds counted, none evaluated" \
	"$r1 -gt $r0 -a $e4 -eq $e3" "out_of_range $r0 -> $r1, evals $e3 -> $e4"

# heavy loss under the model: the watchdog hands flows back to classic.
# The loss is on the data path (a's egress): vb's netem carries the ACKs,
# and 20% ACK loss loses no data.
cat "$tmp/id.model" > $sys/model
tc -n "$ns-a" qdisc add dev va root netem loss 20%
w0=$(stat_ policy_watchdog_trips)
h0=$(stat_ policy_held_rounds)
e5=$(stat_ policy_evals)
flow 3
w1=$(stat_ policy_watchdog_trips)
h1=$(stat_ policy_held_rounds)
e6=$(stat_ policy_evals)
# Under emulation the watchdog may already have tripped during the swaps
# (delay spikes); what must hold here is that it hands rounds back to the
# classic law under heavy loss and has tripped at least once since load.
ktap_info "watchdog: trips $w0 -> $w1, held rounds $h0 -> $h1, model rounds $e5 -> $e6"
# The trip itself is proven deterministically by make check-policy
# (selftests/core/test_policy.c); here, under emulation, a CI run has seen
# the 20%-loss phase end without four bad rounds in a row.  A miss is a
# known gap, reported "# TODO" (counted as skipped), not a pass.
if [ "$w1" -ge 1 ] && [ "$h1" -gt "$h0" ]; then
	ktap_pass "20% loss: the watchdog holds flows classic (trips >= 1)"
else
	ktap_todo "20% loss: the watchdog holds flows classic" \
		"trips $w0 -> $w1, held $h0 -> $h1"
fi
tc -n "$ns-a" qdisc del dev va root
echo 1 > $sys/model_unload

# the trained model compiled in, loaded by the module parameter
kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null
srv=
# The loss phase's connection may still be closing (its FIN retransmitted
# after 20% loss): let it finish while its peer is there.  A socket left
# in a deleted namespace held tcp_aicc past mod_unload's 30 s on 6.12
# (one CI run), and the reload below was skipped.  A wait that runs out
# is said, and the reload below decides.
mod_wait_idle 10 || true
ip netns del "$ns-a"
ip netns del "$ns-b"
# (a failed load is a failure: module init fails when the built-in model
# does not load; only a module that cannot be unloaded is a skip)
if ! mod_unload; then
	ktap_skip "builtin_model=1: the trained model at load" \
		"cannot reload: $(mod_busy_info)"
elif insmod "$ko" builtin_model=1; then
	ktap_expect "builtin_model=1: the trained model at load" \
		"$(same "$trained")-$(cat $sys/model_loads) = y-1"
else
	ktap_fail "builtin_model=1: the trained model at load" \
		"insmod builtin_model=1 failed: $(dmesg | tail -n 3)"
fi

ktap_finish
