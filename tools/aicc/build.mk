# SPDX-License-Identifier: GPL-2.0
#
# The aicc command-line tool: build/aicc, its man page, its unit tests.
# Included by the top-level Makefile.

AICC_TOOL_SRCS := tools/aicc/main.c tools/aicc/json.c tools/aicc/units.c \
		  tools/aicc/knobs.c tools/aicc/flows.c tools/aicc/select.c \
		  tools/aicc/metrics.c tools/aicc/tune.c tools/aicc/model.c \
		  module/core/aicc_model.c
# aicc rdma (issue 7): the RoCE knob table is defined once, in the module
AICC_TOOL_SRCS += tools/aicc/rdma.c module/roce/roce_tables.c
AICC_TOOL_HDRS := tools/aicc/aicc_tool.h tools/aicc/utf8.h tools/lib/read_line.h \
		  uapi/aicc.h uapi/aicc_model.h \
		  module/core/aicc_policy.h uapi/aicc_roce.h
# The names, units and ranges of uapi/aicc.h are defined once, here:
AICC_TOOL_TABLES := module/core/aicc_tables.c

TOOLS_TARGETS += $(BUILD)/aicc
CHECK_UNIT += check-aicc-tool
INSTALL_TARGETS += install-aicc-tool

.PHONY: check-aicc-tool install-aicc-tool

$(BUILD)/aicc: $(AICC_TOOL_SRCS) $(AICC_TOOL_TABLES) $(AICC_TOOL_HDRS) \
		tools/aicc/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $(AICC_TOOL_SRCS) $(AICC_TOOL_TABLES) -lm

# Test helper: a fake sysfs tree built from the uapi tables and defaults.
$(BUILD)/aicc-mkfake: tools/aicc/mkfake.c $(AICC_TOOL_TABLES) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ tools/aicc/mkfake.c $(AICC_TOOL_TABLES)

check-aicc-tool: $(BUILD)/aicc $(BUILD)/aicc-mkfake $(BUILD)/aicc-tune
	AICC=$(BUILD)/aicc AICC_MKFAKE=$(BUILD)/aicc-mkfake \
		bash tools/aicc/test-unit.sh

install-aicc-tool: $(BUILD)/aicc
	install -D -m 0755 $(BUILD)/aicc $(DESTDIR)$(PREFIX)/sbin/aicc
	install -D -m 0644 tools/aicc/aicc.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/aicc.8
