#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-version.sh [VERSION]: every place that carries aicc's version
# carries AICC_VERSION of uapi/aicc.h (or VERSION, which make check-version
# gives to prove a mismatch fails): dkms.conf, debian/changelog's latest
# entry, the man pages' .TH lines and a CHANGELOG.md heading.  KTAP.

cd "$(dirname "$0")/../.." || exit 2
. selftests/lib/ktap.sh

want=${1:-$(sed -n 's/^#define[[:space:]]*AICC_VERSION[[:space:]]*"\(.*\)"/\1/p' uapi/aicc.h)}
mans=(tools/aicc/aicc.8 tools/tune/aicc-tune.8)

ktap_plan $((3 + ${#mans[@]}))
[ -n "$want" ] || { ktap_fail "AICC_VERSION read from uapi/aicc.h"; ktap_finish; }
got=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
ktap_expect "dkms.conf's PACKAGE_VERSION is $want" "'$got' = '$want'" "it is '$got'"
got=$(sed -n '1s/^[a-z0-9.+-]* (\([^)]*\)).*/\1/p' debian/changelog)
ktap_expect "debian/changelog's latest entry is $want" "'$got' = '$want'" "it is '$got'"
for m in "${mans[@]}"; do
	got=$(sed -n 's/^\.TH .* "aicc \([^"]*\)" .*/\1/p' "$m")
	ktap_expect "$m says aicc $want" "'$got' = '$want'" "it says '$got'"
done
n=$(grep -cF "## [$want]" CHANGELOG.md)
ktap_expect "CHANGELOG.md has a section for $want" "$n -eq 1" "$n headings"
ktap_finish
