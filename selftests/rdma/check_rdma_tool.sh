#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `aicc rdma` against a fake /sys/kernel/aicc/roce tree (AICC_SYSFS): show,
# set (all or none, bad input refused), flows (text and JSON, from
# synthetic binary records), export --format mlx5.  Host check, part of
# make check-unit.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
aicc=${AICC:-$top/build/aicc}
[ -x "$aicc" ] || ktap_skip_all "no $aicc (make tools)"
command -v python3 > /dev/null || ktap_skip_all "python3 not installed"

tmp=$(mktemp -d /tmp/aicc-rdma-tool.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export AICC_SYSFS=$tmp/sys
r=$AICC_SYSFS/roce
mkdir -p "$r/stats"

# knob names and defaults from the one table
tr '\n\t' '  ' < "$top/module/roce/roce_tables.c" | tr -s ' ' |
	grep -o 'RK(AICC_RK_[A-Z0-9_]*, *"[a-z0-9_]*", *AICC_RU_[A-Z0-9]*, *[0-9]*, *[0-9]*, *[0-9]*' |
	sed 's/.*"\([a-z0-9_]*\)".*, *\([0-9]*\)$/\1 \2/' > "$tmp/knobs"
while read -r k v; do
	echo "$v" > "$r/$k"
done < "$tmp/knobs"
for s in rx_pkts tx_pkts cnp_sent; do
	echo 7 > "$r/stats/$s"
done

ktap_plan 10

n=$(wc -l < "$tmp/knobs")
out=$("$aicc" rdma show 2>&1)
shown=$(echo "$out" | grep -cE '^(cc_algo|np_|rp_|ecn_|icrc_|flow_|aicc_)')
ktap_expect "show lists all $n knobs" "$shown -eq $n -a $n -ge 20" "shown $shown: $out"

"$aicc" rdma set rp_ai_rate=3 np_cnp_dscp=26 > /dev/null 2>&1
ktap_expect "set writes every assignment" \
	"$(cat "$r/rp_ai_rate") -eq 3 -a $(cat "$r/np_cnp_dscp") -eq 26"

bad=0
for a in rp_gd=99 rp_ai_rate=0 rp_ai_rate=x rp_ai_rate=-1 nosuch=1 rp_ai_rate; do
	if "$aicc" rdma set rp_ai_rate=9 "$a" > /dev/null 2> "$tmp/err"; then
		bad=1
	else
		[ $? -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || bad=1
	fi
done
ktap_expect "bad assignments refused, nothing written" \
	"$bad -eq 0 -a $(cat "$r/rp_ai_rate") -eq 3"

"$aicc" rdma export --format mlx5 -o "$tmp/mlx5.sh" > /dev/null 2>&1
lines=$(grep -c '^echo [0-9]* > "\$cc/\(rp_\|np_\)' "$tmp/mlx5.sh" 2>/dev/null)
ktap_expect "export --format mlx5 writes 17 knobs" "${lines:-0} -eq 17"
c1=$(grep -c 'echo 3 > "$cc/rp_ai_rate"' "$tmp/mlx5.sh")
c2=$(grep -c 'np_enable\|cc_algo' "$tmp/mlx5.sh")
ktap_expect "export uses the current values" "${c1:-0} -eq 1 -a ${c2:-1} -eq 0"
sh -n "$tmp/mlx5.sh" && ok=0 || ok=1
AICC_SYSFS=$tmp/none "$aicc" rdma export --format mlx5 --defaults -o "$tmp/d.sh" && ok2=0 || ok2=1
ktap_expect "export is valid sh; --defaults works without the module" "$ok -eq 0 -a $ok2 -eq 0"
"$aicc" rdma export --format cx7 > /dev/null 2>&1
rc1=$?
"$aicc" rdma export --format mlx5 -o /nonexistent/dir/x > /dev/null 2>&1
rc2=$?
ktap_expect "export: unknown format 2, unwritable file 1" "$rc1 -eq 2 -a $rc2 -eq 1"

# two flows, one empty slot
python3 - "$r/flows" << 'EOF'
import struct, sys
fmt = '<BBBBHHII16s16s10QIIII'
v4 = lambda a: bytes(10) + b'\xff\xff' + bytes(int(x) for x in a.split('.'))
recs = [
    (1, 4, 1, 0, 49441, 0, 17, 18, v4('10.88.1.1'), v4('10.88.2.1'),
     1000, 1100000, 20, 1000, 0, 0, 12, 3, 19000000, 20000000, 512, 5, 0, 0),
    (0,) + (0,) * 7 + (bytes(16), bytes(16)) + (0,) * 14,
    (1, 6, 2, 0, 50000, 0, 5, 6, bytes.fromhex('fd880001' + '0' * 23 + '1'),
     bytes.fromhex('fd880002' + '0' * 23 + '1'),
     10, 11000, 2, 100, 1, 1, 0, 0, 100000000000, 100000000000, 1023, 9, 1500, 0),
]
with open(sys.argv[1], 'wb') as f:
    for r in recs:
        f.write(struct.pack(fmt, *r))
EOF
out=$("$aicc" rdma flows)
ktap_expect "flows: two records, addresses decoded" \
	"$(echo "$out" | grep -c '^10.88.1.1 \|^fd88:1::1 ') -eq 2" "$out"
"$aicc" -j rdma flows | python3 -c '
import json, sys
f = json.load(sys.stdin)
assert len(f) == 2 and f[0]["cuts"] == 3 and f[1]["family"] == 6, f
assert f[0]["algo"] == "dcqcn" and f[1]["rtt_us"] == 1500, f' 2> "$tmp/err"
ktap_expect "flows -j: valid JSON with the record fields" "$? -eq 0" "$(cat "$tmp/err")"

AICC_SYSFS=$tmp/none "$aicc" rdma show > /dev/null 2> "$tmp/err"
ktap_expect "no module: exit 1 with a message" \
	"$? -eq 1 -a $(grep -c 'aicc_roce module not loaded' "$tmp/err") -eq 1"
ktap_finish
