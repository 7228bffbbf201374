# SPDX-License-Identifier: GPL-2.0
#
# libFuzzer harnesses (clang -fsanitize=fuzzer,address,undefined) for the
# parsers that take user input, built from the same sources as the module
# and the tool.  Included by the top-level Makefile.
#
#   make fuzz                  build $(BUILD)/fuzz/fuzz_*
#   make check-fuzz            run fuzz_knob and fuzz_profile for FUZZ_TIME
#                              seconds (default 30); part of `make check-unit`
#   make check-fuzz FUZZ_TIME=1800   the longer run (Documentation/reliability.rst)
#
# The model-blob fuzzer (fuzz_model) has its build rule and its run,
# `make check-fuzz-model`, in tools/train/build.mk; `make fuzz` builds it
# too.

FUZZ_CC ?= clang
FUZZ_TIME ?= 30
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	       -fno-sanitize-recover=all -Wall -Wextra -Wno-unused-parameter \
	       -std=gnu11 -I$(CURDIR)/module/core -I$(CURDIR)/uapi -I$(CURDIR)

# fuzz_knob: the module's sysfs write parsers (module/core/aicc_core.c).
# fuzz_profile: `aicc profile load` (tools/aicc/knobs.c, units.c).
FUZZERS := fuzz_knob fuzz_profile
FUZZ_TOOL_SRCS := tools/aicc/knobs.c tools/aicc/units.c tools/aicc/json.c \
		  module/core/aicc_tables.c

CHECK_UNIT += check-fuzz

.PHONY: fuzz check-fuzz

fuzz: $(addprefix $(BUILD)/fuzz/,$(FUZZERS))

$(BUILD)/fuzz/fuzz_knob: tools/fuzz/fuzz_knob.c $(CORE_SRCS) $(CORE_HDRS) \
		tools/fuzz/build.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tools/fuzz/fuzz_knob.c $(CORE_SRCS)

$(BUILD)/fuzz/fuzz_profile: tools/fuzz/fuzz_profile.c $(FUZZ_TOOL_SRCS) \
		tools/aicc/aicc_tool.h tools/lib/read_line.h $(CORE_HDRS) \
		tools/fuzz/build.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tools/fuzz/fuzz_profile.c \
		$(FUZZ_TOOL_SRCS) -lm

# Without clang's libFuzzer the harnesses cannot be built: one skipped
# result says so (scripts/install-deps.sh installs clang).
check-fuzz:
	@if bash tools/fuzz/run.sh --probe $(FUZZ_CC); then \
		$(MAKE) -s fuzz && \
		bash tools/fuzz/run.sh --build $(BUILD) --time $(FUZZ_TIME) \
			$(FUZZERS); \
	else \
		echo "TAP version 13"; \
		echo "1..0 # SKIP $(FUZZ_CC) with libFuzzer not installed (scripts/install-deps.sh)"; \
	fi
