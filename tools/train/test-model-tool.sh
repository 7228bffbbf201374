#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the learned policy's userspace side: aicc-train writes valid,
# reproducible blobs; 'aicc model' checks a blob with the kernel's parser
# before writing it, shows it, unloads, and rejects bad files and bad
# arguments with one clear line and a non-zero exit -- against a fake sysfs
# tree (aicc-mkfake), so no module is needed.
#
# Environment: AICC_TRAIN, AICC, AICC_MKFAKE (default: build/...).

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
TRAIN=${AICC_TRAIN:-$top/build/aicc-train}
AICC=${AICC:-$top/build/aicc}
MKFAKE=${AICC_MKFAKE:-$top/build/aicc-mkfake}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export AICC_SYSFS=$tmp/sys
"$MKFAKE" "$AICC_SYSFS" >/dev/null || exit 1
: > "$AICC_SYSFS/model"
: > "$AICC_SYSFS/model_unload"
echo 0 > "$AICC_SYSFS/model_loads"
echo 0 > "$AICC_SYSFS/model_rejects"

ktap_plan 17

"$TRAIN" --identity -o "$tmp/id.model"
ktap_check "identity model written and shown" \
	bash -c "'$AICC' model show '$tmp/id.model' | grep -q 'name: *identity'"

# a flipped byte in the weights, a truncated file, not a model at all
cp "$tmp/id.model" "$tmp/bad.model"
printf '\x55' | dd of="$tmp/bad.model" bs=1 seek=120 conv=notrunc 2>/dev/null
head -c 100 "$tmp/id.model" > "$tmp/short.model"
echo "hello" > "$tmp/text.model"
for f in bad:checksum short:truncated text:truncated; do
	out=$("$AICC" model load "$tmp/${f%%:*}.model" 2>&1) && rc=0 || rc=$?
	if [ "$rc" = 1 ] && [ "$(wc -l <<< "$out")" = 1 ] &&
	   grep -q "${f#*:}" <<< "$out" && [ ! -s "$AICC_SYSFS/model" ]; then
		ktap_pass "load ${f%%:*} model: rejected, nothing written"
	else
		ktap_fail "load ${f%%:*} model: rejected, nothing written" \
			"exit $rc: $out"
	fi
done

ktap_check "load a valid model" "$AICC" model load "$tmp/id.model"
ktap_expect "the blob reached the model file" \
	"$(cmp -s "$tmp/id.model" "$AICC_SYSFS/model" && echo y) = y"
out=$("$AICC" model show 2>&1)
ktap_expect "show: the loaded model and the policy counters" \
	"$(grep -c 'identity\|aicc policy_evals 0' <<< "$out") -eq 2" "$out"
ktap_check "show -j: valid JSON" \
	bash -c "'$AICC' -j model show | python3 -m json.tool >/dev/null"
ktap_check "unload writes 1" \
	bash -c "'$AICC' model unload >/dev/null && grep -qx 1 '$AICC_SYSFS/model_unload'"

# A load between two reads of the live blob: the first read joins two
# blobs, which fails the checksum as bad.model does; the next one serves
# the model in use.  A FIFO stands for the sysfs file, each open giving
# the next content; then the same bad blob twice.
cp "$tmp/bad.model" "$tmp/torn"
mv "$AICC_SYSFS/model" "$tmp/model.file"
mkfifo "$AICC_SYSFS/model"
# serve FILE...: each open of the FIFO reads the next FILE
serve() {
	local f

	for f in "$@"; do
		cat "$f" > "$AICC_SYSFS/model"
	done
}
show_served() {
	local pid

	serve "$@" &
	pid=$!
	out=$(timeout 10 "$AICC" model show 2>&1) && rc=0 || rc=$?
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# release a writer still waiting for a reader (an open O_RDWR of a
	# FIFO does not block), so that no cat outlives the test
	exec 3<>"$AICC_SYSFS/model"
	exec 3<&-
}
show_served "$tmp/torn" "$tmp/id.model"
ktap_expect "show: a blob torn by a load is read again" \
	"$rc = 0 -a $(grep -c 'name: *identity' <<< "$out") = 1" "exit $rc: $out"
show_served "$tmp/torn" "$tmp/torn"
ktap_expect "show: the same bad blob twice is reported invalid" \
	"$rc = 1 -a $(grep -c 'invalid model: checksum' <<< "$out") = 1" \
	"exit $rc: $out"
rm "$AICC_SYSFS/model"
mv "$tmp/model.file" "$AICC_SYSFS/model"

rc=0
"$AICC" model >/dev/null 2>&1 || rc=$?
"$AICC" model frob >/dev/null 2>&1 || rc=$((rc * 10 + $?))
"$AICC" model load >/dev/null 2>&1 || rc=$((rc * 10 + $?))
ktap_expect "usage errors exit 2" "$rc = 222"

# the trainer: same seed, same model, byte for byte
for i in 1 2; do
	nice -n 19 "$TRAIN" --quick --generations 1 --lambda 4 --seed 3 \
		-o "$tmp/t$i.model" >/dev/null 2>&1
done
ktap_expect "training is reproducible" \
	"$(cmp -s "$tmp/t1.model" "$tmp/t2.model" && echo y) = y"
rc=0
"$TRAIN" --hidden 0 -o "$tmp/x" >/dev/null 2>&1 || rc=$?
ktap_expect "trainer: bad argument exits 2" "$rc = 2"
# a number with trailing junk is refused, not read as its prefix
rc=0
"$TRAIN" --identity --sigma 0.1x -o "$tmp/sigma.model" >/dev/null 2>&1 || rc=$?
ktap_expect "trainer: --sigma 0.1x exits 2, nothing written" \
	"$rc = 2 -a ! -e $tmp/sigma.model" "exit $rc"
# a name the parser would refuse: refused before training, nothing written
# (a short training, should a regression train first)
rc=0
out=$(nice -n 19 "$TRAIN" --quick --generations 1 --lambda 4 \
	--name $'a\tb' -o "$tmp/name.model" 2>&1) || rc=$?
ktap_expect "trainer: a non-printable --name exits 2, nothing written" \
	"$rc = 2 -a ! -e $tmp/name.model -a $(grep -c 'name.*printable' <<< "$out") = 1" \
	"exit $rc: $out"

# the copy compiled into the module is the committed trained model
h=$(grep -o '0x[0-9a-f][0-9a-f]' "$top/module/aicc_model_builtin.h" |
	sed 's/0x//' | tr -d '\n')
m=$(od -An -v -tx1 "$top/tools/train/results/aicc.model" | tr -d ' \n')
ktap_expect "module/aicc_model_builtin.h is tools/train/results/aicc.model" \
	"-n $m -a $h = $m" "regenerate it: make train-builtin"

ktap_finish
