# SPDX-License-Identifier: GPL-2.0
#
# Userspace unit tests of the algorithm core (module/core), built from the
# same sources as the kernel module.

CHECK_UNIT += check-core check-abi-doc

$(BUILD)/test_core: selftests/core/test_core.c selftests/core/ktap.h \
		selftests/core/drv.h \
		$(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ selftests/core/test_core.c $(CORE_SRCS) \
		-lm -lpthread

.PHONY: check-core
check-core: $(BUILD)/test_core
	$(BUILD)/test_core

# every sysfs file of tcp_aicc.ko has its Documentation/ABI entry: the
# global files, each knob and counter of module/core/aicc_tables.c
AICC_GLOBAL_FILES := version,rate_memory,rate_memory_entries,rate_memory_used, \
	model,model_unload,model_loads,model_rejects

.PHONY: check-abi-doc
check-abi-doc:
	bash selftests/lib/check_abi_doc.sh -t module/core/aicc_tables.c \
		-d Documentation/ABI/testing/sysfs-kernel-aicc \
		"files=/aicc/:global files:$(AICC_GLOBAL_FILES)" \
		"knobs=/<profile>/" "stats=/<profile>/stats/" \
		"ranges=/<profile>/"
