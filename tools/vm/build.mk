# SPDX-License-Identifier: GPL-2.0
#
# tools/vm: the QEMU rig (aicc-vm) and the demo.  Included by the top-level
# Makefile.
#
#   make demo    install dependencies if needed, build, boot the stock
#                6.1 kernel in a VM, load aicc and compare it with cubic
#                and dctcp through the bottleneck (tools/vm/demo.sh)

.PHONY: demo

demo:
	bash tools/vm/demo.sh
