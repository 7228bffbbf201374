# SPDX-License-Identifier: GPL-2.0
#
# tools/vm: the QEMU rig (aicc-vm) and the demo.  Included by the top-level
# Makefile.
#
#   make demo    install dependencies if needed, build, boot the stock
#                6.1 kernel in a VM, load aicc and compare it with cubic
#                and dctcp through the bottleneck (tools/vm/demo.sh)
#   make check-vm-rig  the rig's own contract: statuses, and one more boot
#                only for a guest that died before its command
#                (tools/vm/test.sh; part of make check-unit)

CHECK_UNIT += check-vm-rig

.PHONY: demo check-vm-rig

demo:
	bash tools/vm/demo.sh

# exit 4 is a skip (no root, no 6.1 kernel), which make check counts as one
check-vm-rig:
	@bash tools/vm/test.sh; rc=$$?; [ $$rc -eq 4 ] && rc=0; exit $$rc
