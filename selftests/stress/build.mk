# SPDX-License-Identifier: GPL-2.0
#
# selftests/stress: the connection churner used by test_stress.sh, built
# with `make tools` (the VM test itself is a shell script).

TOOLS_TARGETS += $(BUILD)/selftests/stress/aicc-churn

$(BUILD)/selftests/stress/aicc-churn: selftests/stress/churn.c $(CORE_SRCS) \
		$(CORE_HDRS) selftests/stress/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ selftests/stress/churn.c $(CORE_SRCS) \
		-lpthread
