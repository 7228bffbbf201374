# SPDX-License-Identifier: GPL-2.0
#
# selftests: included by the top-level Makefile after each group's own
# selftests/<group>/build.mk, which may append to CHECK_UNIT (userspace
# unit tests, run on the host by `make check-unit`) and to VM_TESTS_C (C
# tests that run inside the VM: selftests/<group>/test_x.c is built to
# $(BUILD)/selftests/<group>/test_x and run by run-in-vm.sh).
#
#   make selftests    build the VM C tests
#   make check        everything (selftests/run-all.sh)

VM_TESTS_BIN := $(patsubst selftests/%.c,$(BUILD)/selftests/%,$(VM_TESTS_C))

.PHONY: selftests

# helper programs the VM tests call (selftests/lib/*.c, not tests)
VM_HELPERS_BIN := $(BUILD)/selftests/lib/qmon

selftests: $(VM_TESTS_BIN) $(VM_HELPERS_BIN)

$(BUILD)/selftests/%: selftests/%.c $(wildcard selftests/lib/*.h) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iselftests/lib -o $@ $< -lpthread -lm

# make check-repeat TEST=net/test_aicc_behaviour [N=20] [KERNEL=6.1]: one VM
# runs TEST N times; prints pass counts and the spread of measured values
# (selftests/repeat.sh).  Timing-sensitive: run it on an idle machine.
.PHONY: check-repeat
check-repeat: kmods tools selftests
	@[ -n "$(TEST)" ] || { echo "usage: make check-repeat TEST=group/test_name [N=20] [KERNEL=6.1]" >&2; exit 2; }
	bash selftests/repeat.sh --kernel $(or $(KERNEL),6.1) -n $(or $(N),20) $(TEST)
