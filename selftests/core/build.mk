# SPDX-License-Identifier: GPL-2.0
#
# Userspace unit tests of the algorithm core (module/core), built from the
# same sources as the kernel module.

CHECK_UNIT += check-core check-abi-doc

$(BUILD)/test_core: selftests/core/test_core.c selftests/core/ktap.h \
		$(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ selftests/core/test_core.c $(CORE_SRCS) \
		-lm -lpthread

.PHONY: check-core
check-core: $(BUILD)/test_core
	$(BUILD)/test_core

.PHONY: check-abi-doc
check-abi-doc:
	bash selftests/core/check_abi_doc.sh
