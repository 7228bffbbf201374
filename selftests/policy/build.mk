# SPDX-License-Identifier: GPL-2.0
#
# The learned policy (issue 6): its core sources join every userspace build
# of the core, and its unit tests (selftests/core/test_policy.c) join
# `make check-unit`.
#
# The two sources belong in the top-level Makefile's CORE_SRCS; until they
# are there, they are appended here.  This file sorts before every
# tools/*/build.mk, so their rules all see them.

ifeq ($(filter module/core/aicc_policy.c,$(CORE_SRCS)),)
CORE_SRCS += module/core/aicc_policy.c module/core/aicc_model.c
endif

CHECK_UNIT += check-policy

$(BUILD)/test_policy: selftests/core/test_policy.c selftests/core/ktap.h \
		$(CORE_SRCS) $(CORE_HDRS) uapi/aicc_model.h \
		selftests/policy/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ selftests/core/test_policy.c $(CORE_SRCS) \
		-lm

.PHONY: check-policy
check-policy: $(BUILD)/test_policy
	$(BUILD)/test_policy
