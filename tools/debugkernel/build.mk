# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel and the run on it.  Included by the top-level Makefile.
#
#   make debugkernel   build (or find in build/debugkernel/) a 6.1 kernel
#                      with KASAN, UBSAN, KMEMLEAK, PROVE_LOCKING and
#                      DEBUG_ATOMIC_SLEEP (tools/debugkernel/build.sh)
#   make check-debug   boot it with panic_on_warn=1: the whole selftest
#                      suite, the long stress test, a kmemleak scan
#                      (tools/debugkernel/check-debug.sh).  Not part of
#                      `make check`: see Documentation/reliability.rst.

.PHONY: debugkernel check-debug

debugkernel:
	bash tools/debugkernel/build.sh

check-debug:
	bash tools/debugkernel/check-debug.sh
