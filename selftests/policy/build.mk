# SPDX-License-Identifier: GPL-2.0
#
# The learned policy (issue 6): its unit tests (selftests/core/test_policy.c)
# join `make check-unit`; its sources are in the top-level CORE_SRCS.

CHECK_UNIT += check-policy

$(BUILD)/test_policy: selftests/core/test_policy.c selftests/core/ktap.h \
		selftests/core/drv.h \
		$(CORE_SRCS) $(CORE_HDRS) uapi/aicc_model.h \
		selftests/policy/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ selftests/core/test_policy.c $(CORE_SRCS) \
		-lm

.PHONY: check-policy
check-policy: $(BUILD)/test_policy
	$(BUILD)/test_policy
