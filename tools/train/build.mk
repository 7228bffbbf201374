# SPDX-License-Identifier: GPL-2.0
#
# aicc-train: trains the learned policy's model in the simulator
# (tools/train, Documentation/learned-policy.rst).  Included by the
# top-level Makefile.
#
#   make train           the recorded training run: writes
#                        tools/train/results/aicc.model and train.log
#   make train QUICK=1   a smoke run into build/train-quick/
#   make check-train     host test of the trainer and of 'aicc model'
#                        on a fake sysfs tree

TRAIN_SRCS := tools/train/train.c tools/tune/cmaes.c tools/tune/space.c \
	      tools/tune/objective.c tools/tune/output.c tools/sim/sim.c \
	      tools/sim/net.c tools/sim/cc.c
TRAIN_CFLAGS := $(USER_CFLAGS) -Itools/sim -Itools/tune

TOOLS_TARGETS += $(BUILD)/aicc-train
CHECK_UNIT += check-train

.PHONY: train check-train

$(BUILD)/aicc-train: $(TRAIN_SRCS) $(CORE_SRCS) $(CORE_HDRS) \
		tools/tune/tune.h tools/sim/sim.h tools/sim/sim_int.h \
		uapi/aicc_model.h tools/train/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(TRAIN_CFLAGS) -o $@ $(TRAIN_SRCS) $(CORE_SRCS) -lm

# The recorded run: profile aicc on top of its tuned knobs.
TRAIN_GENS ?= 60
TRAIN_LAMBDA ?= 16
TRAIN_SEED ?= 1
TRAIN_HIDDEN ?= 8
ifeq ($(QUICK),1)
TRAIN_OUT := $(BUILD)/train-quick
TRAIN_ARGS := --quick --generations 3 --lambda 8
else
TRAIN_OUT := tools/train/results
TRAIN_ARGS := --generations $(TRAIN_GENS) --lambda $(TRAIN_LAMBDA)
endif

train: $(BUILD)/aicc-train
	@mkdir -p $(TRAIN_OUT)
	nice -n 19 $(BUILD)/aicc-train --profile aicc --hidden $(TRAIN_HIDDEN) \
		--seed $(TRAIN_SEED) $(TRAIN_ARGS) \
		--log $(TRAIN_OUT)/train.log -o $(TRAIN_OUT)/aicc.model

check-train: $(BUILD)/aicc-train $(BUILD)/aicc $(BUILD)/aicc-mkfake
	AICC_TRAIN=$(BUILD)/aicc-train AICC=$(BUILD)/aicc \
	AICC_MKFAKE=$(BUILD)/aicc-mkfake bash tools/train/test-model-tool.sh

# The model-blob parser under libFuzzer (tools/fuzz/fuzz_model.c), run by
# tools/fuzz/run.sh like the other harnesses; FUZZ_CC, FUZZ_CFLAGS and
# FUZZ_TIME come from tools/fuzz/build.mk.
CHECK_UNIT += check-fuzz-model

.PHONY: check-fuzz-model

$(BUILD)/fuzz/fuzz_model: tools/fuzz/fuzz_model.c module/core/aicc_model.c \
		module/core/aicc_policy.c module/core/aicc_core.c $(CORE_HDRS) \
		uapi/aicc_model.h tools/train/build.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tools/fuzz/fuzz_model.c \
		module/core/aicc_model.c module/core/aicc_policy.c \
		module/core/aicc_core.c module/core/aicc_tables.c

check-fuzz-model:
	@if bash tools/fuzz/run.sh --probe $(FUZZ_CC); then \
		$(MAKE) -s $(BUILD)/fuzz/fuzz_model && \
		bash tools/fuzz/run.sh --build $(BUILD) --time $(FUZZ_TIME) \
			fuzz_model; \
	else \
		echo "TAP version 13"; \
		echo "1..0 # SKIP $(FUZZ_CC) with libFuzzer not installed (scripts/install-deps.sh)"; \
	fi
