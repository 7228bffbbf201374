# SPDX-License-Identifier: GPL-2.0
#
# aiccgen: the traffic generator (tools/aiccgen), included by the top-level
# Makefile.  Builds $(BUILD)/aiccgen (libc and libm only) and hooks its
# loopback test into check-unit.

AICCGEN_SRCS := $(addprefix tools/aiccgen/,main.c util.c net.c server.c \
		  bulk.c burst.c rpc.c)
AICCGEN_HDRS := tools/aiccgen/aiccgen.h

$(BUILD)/aiccgen: $(AICCGEN_SRCS) $(AICCGEN_HDRS) tools/aiccgen/build.mk
	@mkdir -p $(BUILD)
	$(CC) $(USER_CFLAGS) -o $@ $(AICCGEN_SRCS) -lm

.PHONY: check-aiccgen install-aiccgen

check-aiccgen: $(BUILD)/aiccgen
	bash tools/aiccgen/test.sh $(BUILD)/aiccgen

install-aiccgen: $(BUILD)/aiccgen
	install -D -m 0755 $(BUILD)/aiccgen $(DESTDIR)$(PREFIX)/bin/aiccgen

TOOLS_TARGETS += $(BUILD)/aiccgen
CHECK_UNIT += check-aiccgen
INSTALL_TARGETS += install-aiccgen
