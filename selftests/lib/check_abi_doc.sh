#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check_abi_doc.sh: every sysfs file a module creates has its
# Documentation/ABI entry (a host check, part of make check-unit; not a VM
# selftest).  KTAP, one result per CHECK, in the order given.
#
#   check_abi_doc.sh -t TABLES.c [-l LABEL] -d ABI_DOC [-d ABI_DOC...] CHECK...
#
#   TABLES.c   the C file whose tables name the knobs and counters: knob
#              rows '"name", AICC_UNIT_...' or 'RK(AICC_RK_X, "name"', counter
#              rows '[AICC_S_X] = { "name"' or '[AICC_RS_X] = { "name"'
#   LABEL      a word put before "knobs" and "counters" in the test names
#   ABI_DOC    the ABI file(s) whose "What:" lines are searched
#   CHECK      knobs=PATH            every knob has "What: ...PATH<knob>",
#                                    its entry saying "(RW)" or "(RW, ..."
#                                    (and there are at least 20)
#              stats=PATH            every counter likewise, "(RO" (at
#                                    least 10)
#              ranges=PATH           every knob's entry gives the table's
#                                    range and (RK rows) default: "Range: LO
#                                    to HI", or "range LO..HI; default D"
#              units=PATH            every knob's entry names the table's
#                                    unit: "Unit: WORDS" (unit_words())
#              files=PATH:NAME:F,... each listed file F, as test NAME
#              stale                 every "What:" line of the documents
#                                    whose last directory is a PATH of
#                                    this run's knobs, stats and files
#                                    checks names one of their files
#                                    (a file the module no longer makes)
#              defaults=PATH:DEFAULTS.h:UAPI.h
#                                    every knob's entry gives its default
#                                    for each profile as the defaults
#                                    header has it: "Defaults: aicc 66;
#                                    aicc_lat 50; aicc_bulk 30" (knobs and
#                                    profiles by their enums in UAPI.h)
#
# make check-abi-doc and make check-roce-abi-doc run it
# (selftests/core/build.mk, selftests/rdma/build.mk).

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"

die()
{
	echo "check_abi_doc: $*" >&2
	exit 2
}

tables=
label=
docs=()
while getopts "t:l:d:" o; do
	case $o in
	t) tables=$OPTARG ;;
	l) label="$OPTARG " ;;
	d) docs+=("$OPTARG") ;;
	*) die "usage: check_abi_doc.sh -t TABLES.c [-l LABEL] -d ABI_DOC... CHECK..." ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$tables" ] || die "no tables file (-t)"
[ -r "$tables" ] || die "cannot read tables file '$tables'"
[ ${#docs[@]} -gt 0 ] || die "no ABI document (-d)"
for d in "${docs[@]}"; do
	[ -r "$d" ] || die "cannot read ABI document '$d'"
done
[ $# -gt 0 ] || die "no CHECK given (knobs=PATH, stats=PATH, files=PATH:NAME:F,...)"
for c in "$@"; do
	case $c in
	knobs=?*|stats=?*|ranges=?*|units=?*|stale) ;;
	files=?*:?*:?*) ;;
	defaults=?*:?*:?*)
		IFS=: read -r _ dh uh <<< "${c#defaults=}"
		[ -r "$dh" ] || die "cannot read defaults header '$dh'"
		[ -r "$uh" ] || die "cannot read uapi header '$uh'" ;;
	*) die "bad CHECK '$c' (knobs=PATH, stats=PATH, ranges=PATH, units=PATH, files=PATH:NAME:F,... or defaults=PATH:DEFAULTS.h:UAPI.h)" ;;
	esac
done

mapfile -t knobs < <(tr '\n\t' '  ' < "$tables" | tr -s ' ' |
	grep -oE '( "[a-z0-9_]+", AICC_UNIT_|RK\(AICC_RK_[A-Z0-9_]*, *"[a-z0-9_]+")' |
	sed 's/[^"]*"\([a-z0-9_]*\)".*/\1/')
# "name UNIT_ENUM lo hi [default]" of each knob row (U suffixes dropped)
mapfile -t bounds < <(tr '\n\t' '  ' < "$tables" | tr -s ' ' |
	grep -oE '( "[a-z0-9_]+", AICC_UNIT_[A-Z0-9_]+, *[0-9]+U?, *[0-9]+U?,|RK\(AICC_RK_[A-Z0-9_]*, *"[a-z0-9_]+", *[A-Z0-9_]+, *[0-9]+U?, *[0-9]+U?, *[0-9]+U?,)' |
	sed -E 's/^RK\([^,]*, *//; s/"//g; s/, *(AICC_[A-Z0-9_]+), */ \1 /; s/U?, */ /g; s/ *$//')
mapfile -t stats < <(sed -n \
	's/^\t\[AICC_R\{0,1\}S_[A-Z_]*\] = { "\([a-z_]*\)".*/\1/p' "$tables")

# documented PATH NAME...: the names without a "What:" line, on stdout
documented()
{
	local path=$1 n
	shift

	for n in "$@"; do
		grep -qx "What:.*$path$n" "${docs[@]}" || printf ' %s' "$n"
	done
}

# the paths of this run's knobs, stats and files checks, and PATH/NAME of
# each file they list (stale)
paths=()
declare -A listed
for c in "$@"; do
	case $c in
	knobs=*) p=${c#knobs=}; l=("${knobs[@]}") ;;
	stats=*) p=${c#stats=}; l=("${stats[@]}") ;;
	files=*)
		IFS=: read -r p _ list <<< "${c#files=}"
		IFS=, read -ra l <<< "$list" ;;
	*) continue ;;
	esac
	paths+=("$p")
	for n in "${l[@]}"; do
		listed["$p${n// /}"]=1
	done
done

# stale: the "What:" lines in this run's paths that name no listed file
stale()
{
	local w dir p bad="" n=0

	while read -r _ w; do
		dir=${w%/*}/
		for p in "${paths[@]}"; do
			[[ $dir == *"$p" ]] || continue
			n=$((n + 1))
			[ -n "${listed["$p${w##*/}"]:-}" ] || bad="$bad $w"
			break
		done
	done < <(grep -h '^What:' "${docs[@]}")
	if [ "$n" -gt 0 ] && [ -z "$bad" ]; then
		ktap_pass "all $n $label""entries name a file the module makes"
	else
		ktap_fail "all $label""entries name a file the module makes" \
			"$n in this run's paths; stale:$bad"
	fi
}

# all_of KIND MIN MODE PATH NAME...: every NAME documented, its entry
# saying "(MODE)" or "(MODE, ..." (RW: the module makes knobs 0644; RO:
# counters 0444, which test_module.sh checks in the VM), and at least MIN
all_of()
{
	local kind=$1 min=$2 mode=$3 path=$4 missing n wrong=
	shift 4

	missing=$(documented "$path" "$@")
	for n in "$@"; do
		case $(entry "$path" "$n") in
		*"($mode)"*|*"($mode, "*|"") ;;
		*) wrong="$wrong $n" ;;
		esac
	done
	if [ $# -ge "$min" ] && [ -z "$missing$wrong" ]; then
		ktap_pass "all $# $label$kind documented, $mode"
	else
		ktap_fail "all $label$kind documented, $mode" \
			"found $#, missing:$missing; not ($mode):$wrong"
	fi
}

# entry PATH NAME: the description of "What: ...PATH<NAME>", on one line
entry()
{
	awk -v w="$1$2" '
		/^What:/ { on = (length($0) >= length(w) &&
				 substr($0, length($0) - length(w) + 1) == w); next }
		on { printf " %s", $0 }' "${docs[@]}" | tr -s ' \t' '  '
}

# ranges PATH: every knob's entry states the table's range (and default)
ranges()
{
	local path=$1 b name lo hi def text want bad=

	for b in "${bounds[@]}"; do
		read -r name _ lo hi def <<< "$b"
		text=$(entry "$path" "$name")
		if [ -n "$def" ]; then
			want="range $lo..$hi; default $def"
		else
			want="Range: $lo to $hi"
		fi
		case $text in
		*"$want"*) ;;
		*) bad="$bad $name (wants '$want')" ;;
		esac
	done
	if [ ${#bounds[@]} -ge 20 ] && [ -z "$bad" ]; then
		ktap_pass "all ${#bounds[@]} $label""knob ranges documented as in the table"
	else
		ktap_fail "all $label""knob ranges documented as in the table" \
			"found ${#bounds[@]}, wrong:$bad"
	fi
}

# the words an entry uses for a unit of the tables (uapi/aicc.h's
# enum aicc_unit, uapi/aicc_roce.h's enum aicc_roce_unit)
unit_words()
{
	case $1 in
	AICC_UNIT_PERMILLE) echo "per mille (1/1000)" ;;
	AICC_UNIT_US|AICC_RU_US) echo "microseconds" ;;
	AICC_UNIT_MS|AICC_RU_MS) echo "milliseconds" ;;
	AICC_UNIT_MPKT) echo "1/1000 packet (segment)" ;;
	AICC_UNIT_PKT) echo "packets (segments)" ;;
	AICC_UNIT_KBPS) echo "kbit/s (0: no limit)" ;;
	AICC_UNIT_BOOL|AICC_RU_BOOL) echo "0 or 1" ;;
	AICC_UNIT_COUNT|AICC_RU_COUNT|AICC_RU_ENUM) echo "a number" ;;
	AICC_RU_MBPS) echo "Mbit/s" ;;
	AICC_RU_BYTES) echo "bytes" ;;
	AICC_RU_PERCENT) echo "percent" ;;
	AICC_RU_Q10) echo "1/1024" ;;
	esac
}

# units PATH: every knob's entry names the table's unit ("Unit: WORDS")
units()
{
	local path=$1 b name enum want bad=

	for b in "${bounds[@]}"; do
		read -r name enum _ <<< "$b"
		want=$(unit_words "$enum")
		if [ -z "$want" ]; then
			bad="$bad $name (unit $enum unknown to this script)"
			continue
		fi
		case $(entry "$path" "$name") in
		*"Unit: $want"[\ .\;,]*) ;;
		*) bad="$bad $name (wants 'Unit: $want')" ;;
		esac
	done
	if [ ${#bounds[@]} -ge 20 ] && [ -z "$bad" ]; then
		ktap_pass "all ${#bounds[@]} $label""knob units documented as in the table"
	else
		ktap_fail "all $label""knob units documented as in the table" \
			"found ${#bounds[@]}, wrong:$bad"
	fi
}

# defaults PATH DEFAULTS.h UAPI.h: every knob's entry gives each profile's
# default as the header's table does
defaults()
{
	local path=$1 name want text n=0 bad=

	while IFS='|' read -r name want; do
		n=$((n + 1))
		text=$(entry "$path" "$name")
		case $text in
		*"$want"*) ;;
		*) bad="$bad $name (wants '$want')" ;;
		esac
	done < <(awk '
		# the enums give each designator its index
		FILENAME == ARGV[1] && /^enum aicc_(knob|profile)_id/ {
			en = ($2 == "aicc_knob_id") ? "k" : "p"; i = 0; next }
		FILENAME == ARGV[1] && en != "" && /^};/ { en = ""; next }
		FILENAME == ARGV[1] && en != "" &&
			match($1, /^AICC_(K|PROF)_[A-Z0-9_]+/) {
			idx[substr($1, RSTART, RLENGTH)] = i++; next }
		# the tables give the names
		FILENAME == ARGV[2] && match($0, /\[AICC_(K|PROF)_[A-Z0-9_]+\]/) {
			d = substr($0, RSTART + 1, RLENGTH - 2); pend = d }
		FILENAME == ARGV[2] && pend != "" && match($0, /"[a-z0-9_]+"/) {
			nm = substr($0, RSTART + 1, RLENGTH - 2)
			if (pend ~ /^AICC_K_/) kname[idx[pend]] = nm
			else pname[idx[pend]] = nm
			pend = ""; next }
		# the defaults header gives the values, a row per profile
		FILENAME == ARGV[3] && match($0, /\[AICC_PROF_[A-Z0-9_]+\]/) {
			row = idx[substr($0, RSTART + 1, RLENGTH - 2)]; k = 0
			inrow = 1; next }
		FILENAME == ARGV[3] && inrow && /^[ \t]*},/ { inrow = 0; next }
		FILENAME == ARGV[3] && inrow {
			gsub(/[ \t]/, ""); nf = split($0, v, ",")
			for (j = 1; j <= nf; j++)
				if (v[j] != "") val[row, k++] = v[j]
			nk = k }
		END {
			for (i = 0; i < nk; i++) {
				w = "Defaults:"
				for (r = 0; (r in pname); r++)
					w = w (r ? ";" : "") " " pname[r] " " val[r, i]
				print kname[i] "|" w
			}
		}' "$3" "$tables" "$2")
	if [ "$n" -ge 20 ] && [ -z "$bad" ]; then
		ktap_pass "all $n $label""knob defaults documented as in the header"
	else
		ktap_fail "all $label""knob defaults documented as in the header" \
			"found $n, wrong:$bad"
	fi
}

ktap_plan $#
for c in "$@"; do
	case $c in
	knobs=*) all_of knobs 20 RW "${c#knobs=}" "${knobs[@]}" ;;
	stats=*) all_of counters 10 RO "${c#stats=}" "${stats[@]}" ;;
	ranges=*) ranges "${c#ranges=}" ;;
	units=*) units "${c#units=}" ;;
	stale) stale ;;
	defaults=*)
		IFS=: read -r path dh uh <<< "${c#defaults=}"
		defaults "$path" "$dh" "$uh"
		;;
	files=*)
		IFS=: read -r path name list <<< "${c#files=}"
		missing=$(documented "$path" ${list//,/ })
		ktap_expect "$name documented" "-z ${missing// /_}" "missing:$missing"
		;;
	esac
done
ktap_finish
