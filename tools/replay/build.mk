# SPDX-License-Identifier: GPL-2.0
#
# aicc-replay: checks that the userspace build of the core makes the
# module's decisions, on a trace of the aicc:aicc_core tracepoint
# (Documentation/testing.rst).  aicc-replay-gen writes synthetic traces in
# the same format for its unit test.

REPLAY_HDRS := module/core/aicc_replay.h $(CORE_HDRS)

TOOLS_TARGETS += $(BUILD)/aicc-replay
CHECK_UNIT += check-replay

.PHONY: check-replay

$(BUILD)/aicc-replay: tools/replay/replay.c $(CORE_SRCS) $(REPLAY_HDRS) \
		tools/replay/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ tools/replay/replay.c $(CORE_SRCS)

$(BUILD)/aicc-replay-gen: tools/replay/gen.c $(CORE_SRCS) $(REPLAY_HDRS) \
		tools/replay/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ tools/replay/gen.c $(CORE_SRCS)

check-replay: $(BUILD)/aicc-replay $(BUILD)/aicc-replay-gen
	AICC_REPLAY=$(BUILD)/aicc-replay AICC_REPLAY_GEN=$(BUILD)/aicc-replay-gen \
		bash tools/replay/test.sh
