# SPDX-License-Identifier: GPL-2.0
#
# aicc-sim: the packet-level simulator (tools/sim), included by the
# top-level Makefile.  Builds $(BUILD)/aicc-sim and the unit-test binary
# $(BUILD)/aicc-sim-test (KTAP output), both linking the shared core.

SIM_SRCS := tools/sim/sim.c tools/sim/net.c tools/sim/cc.c
SIM_HDRS := tools/sim/sim.h tools/sim/sim_int.h $(CORE_HDRS)
SIM_CFLAGS := $(USER_CFLAGS) -Itools/sim

TOOLS_TARGETS += $(BUILD)/aicc-sim
CHECK_UNIT += check-sim

.PHONY: check-sim

# aicc-sim roce (issue 7): RoCE senders running aicc_roce's rate laws
SIM_ROCE_SRCS := tools/sim/roce.c module/roce/roce_law.c \
		 module/roce/roce_tables.c
SIM_ROCE_HDRS := tools/sim/sim_roce.h module/roce/roce_law.h uapi/aicc_roce.h

# --profile-file reads profile files with aicc-tune's reader (kvfile.c)
SIM_MAIN_SRCS := tools/sim/main.c tools/tune/kvfile.c

$(BUILD)/aicc-sim: $(SIM_MAIN_SRCS) $(SIM_SRCS) $(CORE_SRCS) $(SIM_HDRS) \
		$(SIM_ROCE_SRCS) $(SIM_ROCE_HDRS) tools/tune/kvfile.h \
		tools/lib/read_line.h \
		tools/sim/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(SIM_CFLAGS) -Itools/tune -o $@ $(SIM_MAIN_SRCS) $(SIM_SRCS) \
		$(CORE_SRCS) $(SIM_ROCE_SRCS) -lm

$(BUILD)/aicc-sim-test: tools/sim/test_sim.c $(SIM_SRCS) $(CORE_SRCS) \
		$(SIM_HDRS) tools/sim/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(SIM_CFLAGS) -o $@ tools/sim/test_sim.c $(SIM_SRCS) \
		$(CORE_SRCS) -lm

# Both suites always run; the target fails if either has a failure.
check-sim: $(BUILD)/aicc-sim-test $(BUILD)/aicc-sim
	@r=0; $(BUILD)/aicc-sim-test || r=1; \
	AICC_SIM=$(BUILD)/aicc-sim bash tools/sim/test-cli.sh || r=1; \
	exit $$r
