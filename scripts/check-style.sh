#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-style.sh: the coding standard, as a KTAP test (`make check-style`,
# part of `make check-unit`).
#
#   1. checkpatch.pl --strict on the kernel code (module/, uapi/): clean,
#      except CamelCase on the kernel's own type names (struct Qdisc);
#   2. checkpatch.pl --strict on the userspace C (tools/, selftests/), less
#      the rules that only make sense inside the kernel (USER_IGNORE below);
#   3. shellcheck on the shell scripts (*.sh and files with a sh or bash
#      shebang): no finding of severity warning or error, the sourced
#      libraries followed (-x) so that their callers' variables count;
#   4. per installed kernel's headers: the module built with W=1 and
#      sparse on every file (C=2), with no warning at all.
#
# checkpatch.pl comes from Debian's linux-source-6.1 package, unpacked by
# scripts/install-deps.sh (CHECKPATCH= overrides the path); the other two
# tools come from the sparse and shellcheck packages.  What is missing is
# reported as a skip, not a pass.  Files are the ones git tracks (all *.c
# and *.h, or *.sh, when not in a git tree).

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2

checkpatch=${CHECKPATCH:-/usr/src/linux-source-6.1-aicc/scripts/checkpatch.pl}
out=${BUILD:-$top/build}/style
mkdir -p "$out"

# Kernel-only rules, not applied to userspace: the kernel's helper macros
# (__printf, ARRAY_SIZE, BIT) do not exist there; usage and error texts
# are split at line ends on purpose (SPLIT_STRING, LONG_LINE_STRING); the
# C11 keywords and libFuzzer's entry points are CamelCase by definition;
# benchmark sinks are volatile; test-table macros name a field twice
# (MACRO_ARG_REUSE); "usage" in a usage message is not a function name;
# argv-style arrays are built at run time (STATIC_CONST_CHAR_ARRAY); and
# the tuner writes the SPDX line of the C header it generates.
USER_IGNORE=PREFER_DEFINED_ATTRIBUTE_MACRO,ARRAY_SIZE,BIT_MACRO,SPLIT_STRING
USER_IGNORE=$USER_IGNORE,LONG_LINE_STRING,CAMELCASE,VOLATILE,MACRO_ARG_REUSE
USER_IGNORE=$USER_IGNORE,EMBEDDED_FUNCTION_NAME,STATIC_CONST_CHAR_ARRAY
USER_IGNORE=$USER_IGNORE,SPDX_LICENSE_TAG

# The kernel's own CamelCase type names that aicc's glue has to use.
KERNEL_CAMEL='<(Qdisc)>'

c_files()
{
	if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		git ls-files -- "$@" | grep -E '\.[ch]$'
	else
		find "$@" -name '*.[ch]' | sort
	fi
}

# checkpatch takes the minus of a floating-point exponent (1e-9) for an
# operator: drop that finding where the line has such a number and no
# other minus between two names or numbers.
sci_float_ok()
{
	local line f l src rest

	while IFS= read -r line; do
		case $line in
		*"CHECK:SPACING: spaces preferred around that '-' (ctx:VxV)")
			f=${line%%:*}
			l=${line#*:}
			l=${l%%:*}
			src=$(sed -n "${l}p" "$f" | sed -E 's/"([^"\\]|\\.)*"//g')
			rest=$(echo "$src" | sed -E 's/[0-9.][eE]-[0-9]//g')
			if [ "$rest" != "$src" ] &&
			   ! echo "$rest" | grep -qE '[[:alnum:]_)]-[[:alnum:]_(]'; then
				continue
			fi
			;;
		esac
		echo "$line"
	done
}

# out_dir LOG: an empty LOG, and LOG.d/ for the outputs of one check run
# file by file, each named after its file with '/' as '%'
out_dir()
{
	: > "$1" && rm -rf "$1.d" && mkdir -p "$1.d"
}

# gather LOG FILE...: the outputs of LOG.d/ appended to LOG in FILE order
gather()
{
	local log=$1 f

	shift
	for f in "$@"; do
		cat "$log.d/$(echo "$f" | tr / %)" >> "$log"
	done
}

# run_checkpatch LOG [checkpatch options] -- DIR...: prints the number of
# findings; the findings go to LOG.
run_checkpatch()
{
	local log=$1 opts=() files
	shift
	while [ "$1" != "--" ]; do
		opts+=("$1")
		shift
	done
	shift
	mapfile -t files < <(c_files "$@")
	out_dir "$log" || return 1
	# one checkpatch per file, two at a time, each into a file of its own
	# shellcheck disable=SC2016 # expanded by the inner sh
	printf '%s\n' "${files[@]}" | xargs -r -P 2 -I {} sh -c \
		'f=$1 d=$2; shift 2
		 perl "$0" --no-tree --strict --terse --show-types \
			--no-summary "$@" -f "$f" > "$d/$(echo "$f" | tr / %)" 2>&1' \
		"$checkpatch" {} "$log.d" "${opts[@]}"
	gather "$log" "${files[@]}"
	grep -vE "CAMELCASE: Avoid CamelCase: $KERNEL_CAMEL\$" "$log" |
		grep -E ': (ERROR|WARNING|CHECK):' | sci_float_ok > "$log.findings"
	wc -l < "$log.findings"
}

# The shell scripts: *.sh, and any other file whose first line is a sh or
# bash shebang (tools/vm/aicc-vm, .ci/run).
sh_files()
{
	local f

	if ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		find . -name '*.sh' | sed 's|^\./||' | sort
		return
	fi
	git ls-files | while IFS= read -r f; do
		case $f in
		*.sh) echo "$f" ;;
		*)	head -n 1 "$f" 2> /dev/null |
				grep -qE '^#! ?(/usr)?/bin/(env )?(ba)?sh\b' &&
				echo "$f" ;;
		esac
	done
}

# run_shellcheck LOG FILE...: prints the number of findings; they go to
# LOG.  Each script is checked from its own directory, where the source=
# directives and the relative paths of its '.' lines resolve.
run_shellcheck()
{
	local log=$1

	shift
	out_dir "$log" || return 1
	# two at a time, each into a file of its own, then in order
	# shellcheck disable=SC2016 # expanded by the inner sh
	printf '%s\n' "$@" | xargs -r -P 2 -I {} sh -c \
		'cd "$(dirname "$1")" &&
		 shellcheck -x -S warning -f gcc "$(basename "$1")" |
			sed "s|^|$(dirname "$1")/|" > "$2/$(echo "$1" | tr / %)"' \
		sh {} "$(cd "$log.d" && pwd)"
	gather "$log" "$@"
	grep -c ': \(warning\|error\):' "$log"
}

# report WHAT FILES FINDINGS LOG: result $n, a pass without findings, else
# a failure listing the first 40 lines of LOG.
report()
{
	echo "# $1: $2 files, $3 findings"
	if [ "$3" -eq 0 ]; then
		echo "ok $n $1"
	else
		sed 's/^/#   /' "$4" | head -n 40
		echo "not ok $n $1"
		fail=1
	fi
}

# the headers `make kmods` builds for (its KMOD_HDRS)
hdrs=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort)
n_hdrs=$(echo "$hdrs" | grep -c .)

fail=0
echo "TAP version 13"
echo "1..$((3 + (n_hdrs > 0 ? n_hdrs : 1)))"

n=0
for part in kernel user; do
	n=$((n + 1))
	if [ "$part" = kernel ]; then
		what="checkpatch --strict: kernel code (module/, uapi/, selftests/module/kmod/)"
		dirs=(module uapi selftests/module/kmod)
		opts=()
	else
		what="checkpatch --strict: userspace (tools/, selftests/)"
		dirs=(tools selftests)
		opts=(--ignore "$USER_IGNORE")
	fi
	if [ ! -f "$checkpatch" ]; then
		echo "ok $n $what # SKIP no $checkpatch (linux-source-6.1)"
		continue
	fi
	bad=$(run_checkpatch "$out/checkpatch-$part.log" "${opts[@]}" -- "${dirs[@]}")
	report "$what" "$(c_files "${dirs[@]}" | wc -l)" "$bad" \
		"$out/checkpatch-$part.log.findings"
done

n=$((n + 1))
what="shellcheck: shell scripts"
if ! command -v shellcheck > /dev/null; then
	echo "ok $n $what # SKIP shellcheck is not installed"
else
	mapfile -t scripts < <(sh_files)
	bad=$(run_shellcheck "$out/shellcheck.log" "${scripts[@]}")
	report "$what" "${#scripts[@]}" "$bad" "$out/shellcheck.log"
fi

if [ "$n_hdrs" -eq 0 ]; then
	echo "ok 4 W=1 and sparse build # SKIP no /usr/src/linux-headers-*-amd64"
	exit $fail
fi
# One build per kernel by the Makefile's own `make kmods` (into
# $out/kmod/<release>/, each with its build.log), which stops at the first
# kernel whose build fails.
if command -v sparse > /dev/null; then
	rm -rf "$out/kmod"
	make -s -j"$(nproc)" kmods W=1 C=2 BUILD="$out/kmod" > "$out/kmods.log" 2>&1
fi
for h in $hdrs; do
	n=$((n + 1))
	v=${h#/usr/src/linux-headers-}
	what="W=1 C=2 (sparse) build for $v: no warnings"
	d=$out/kmod/$v
	if ! command -v sparse > /dev/null; then
		echo "ok $n $what # SKIP sparse is not installed"
		continue
	fi
	if [ ! -f "$d/tcp_aicc.ko" ]; then
		tail -n 20 "$out/kmods.log" | sed 's/^/#   /'
		echo "not ok $n $what (the build failed, or an earlier one did)"
		fail=1
		continue
	fi
	# compiler and sparse diagnostics name a file:line, modpost's do not
	grep -iE '^[^ ]+:[0-9]+(:[0-9]+)?: |warning|error' "$d/build.log" \
		> "$d/warnings"
	if [ -s "$d/warnings" ]; then
		sed 's/^/#   /' "$d/warnings" | head -n 40
		echo "not ok $n $what"
		fail=1
	else
		echo "ok $n $what"
	fi
done
exit $fail
