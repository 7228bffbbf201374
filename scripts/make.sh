#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make, on a machine that may not have it yet: the README's first two
# commands.  A fresh Debian 12 need not have make (it is not part of a
# standard installation); this installs it from the archive when it is
# missing, then runs make in the repository with the arguments given.
# The targets install everything else they need (scripts/install-deps.sh).
#
#   sudo bash scripts/make.sh demo
#   sudo bash scripts/make.sh check

set -eu

if ! command -v make > /dev/null; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "make.sh: make is not installed; run as root (sudo) to install it" >&2
		exit 2
	fi
	echo "make.sh: installing make (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends make
fi
cd "$(dirname "$0")/.."
exec make "$@"
