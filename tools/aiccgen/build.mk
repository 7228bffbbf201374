# SPDX-License-Identifier: GPL-2.0
#
# aiccgen: the traffic generator (tools/aiccgen), included by the top-level
# Makefile.  Builds $(BUILD)/aiccgen (libc and libm only) and hooks its
# loopback test, with its LD_PRELOAD helper, into check-unit.

AICCGEN_SRCS := $(addprefix tools/aiccgen/,main.c util.c net.c server.c \
		  bulk.c burst.c rpc.c)
AICCGEN_HDRS := tools/aiccgen/aiccgen.h tools/aicc/utf8.h

$(BUILD)/aiccgen: $(AICCGEN_SRCS) $(AICCGEN_HDRS) tools/aiccgen/build.mk
	@mkdir -p $(BUILD)
	$(CC) $(USER_CFLAGS) -o $@ $(AICCGEN_SRCS) -lm

.PHONY: check-aiccgen check-aiccgen-vm install-aiccgen

# Test helper (LD_PRELOAD): a SIGTERM raised just before an epoll_wait().
$(BUILD)/aiccgen-sigrace.so: tools/aiccgen/sigrace.c tools/aiccgen/build.mk
	@mkdir -p $(BUILD)
	$(CC) $(USER_CFLAGS) -shared -fPIC -o $@ tools/aiccgen/sigrace.c -ldl

check-aiccgen: $(BUILD)/aiccgen $(BUILD)/aiccgen-sigrace.so
	bash tools/aiccgen/test.sh $(BUILD)/aiccgen $(BUILD)/aiccgen-sigrace.so

# Through a real bottleneck between namespaces, in the VM, on both kernels.
# The guest's stdout is its serial console: take the KTAP lines from there.
check-aiccgen-vm: $(BUILD)/aiccgen
	@set -e; for k in 6.1 6.12; do \
		o=$(BUILD)/vm/aiccgen-$$k; rc=0; \
		tools/vm/aicc-vm --kernel $$k --timeout 300 --quiet --out $$o -- \
			bash tools/aiccgen/vm-test.sh || rc=$$?; \
		tr -d '\r' < $$o/console.log | \
			grep -a -E '^(TAP version|1\.\.|ok |not ok |# )' || true; \
		[ $$rc -eq 0 ] || { echo "aiccgen vm-test on $$k: exit $$rc"; exit 1; }; \
	done

install-aiccgen: $(BUILD)/aiccgen
	install -D -m 0755 $(BUILD)/aiccgen $(DESTDIR)$(PREFIX)/bin/aiccgen

TOOLS_TARGETS += $(BUILD)/aiccgen
CHECK_UNIT += check-aiccgen
INSTALL_TARGETS += install-aiccgen
