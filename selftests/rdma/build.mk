# SPDX-License-Identifier: GPL-2.0
#
# aicc_roce (issue 7): userspace unit tests of the rate laws and the knob
# table, built from the module's own sources, `aicc rdma` on a fake sysfs
# tree, and the check that every sysfs file of aicc_roce is documented.  The VM tests are
# selftests/rdma/test_*.sh (run by selftests/run-in-vm.sh).

ROCE_LAW_SRCS := module/roce/roce_law.c module/roce/roce_tables.c \
		 tools/sim/roce.c \
		 $(sort $(CORE_SRCS) $(wildcard module/core/aicc_policy.c \
					     module/core/aicc_model.c))
ROCE_LAW_HDRS := module/roce/roce_law.h uapi/aicc_roce.h tools/sim/sim_roce.h \
		 $(CORE_HDRS)

CHECK_UNIT += check-roce-law check-roce-abi-doc check-rdma-tool

$(BUILD)/test_roce_law: selftests/rdma/test_roce_law.c selftests/core/ktap.h \
		$(ROCE_LAW_SRCS) $(ROCE_LAW_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ selftests/rdma/test_roce_law.c \
		$(ROCE_LAW_SRCS) -lm

.PHONY: check-roce-law check-roce-abi-doc check-rdma-tool
check-roce-law: $(BUILD)/test_roce_law
	$(BUILD)/test_roce_law

# every sysfs file of aicc_roce.ko has its Documentation/ABI entry, and
# every entry in its directories names one of them: each knob and counter
# of module/roce/roce_tables.c, the files of roce_sysfs.c's attributes
# (flows and flow_slots), and every module parameter (from the
# module_param() lines)
check-roce-abi-doc:
	bash selftests/lib/check_abi_doc.sh -t module/roce/roce_tables.c -l RoCE \
		-d Documentation/ABI/testing/sysfs-kernel-aicc \
		"knobs=/aicc/roce/" "stats=/aicc/roce/stats/" \
		"ranges=/aicc/roce/" "units=/aicc/roce/" \
		"files=/aicc/roce/:flows and flow_slots:$(call sysfs_files,module/roce/roce_sysfs.c)" \
		"files=/aicc_roce/parameters/:module parameters:$(call module_params,module/roce/*.c)" \
		stale

check-rdma-tool: $(BUILD)/aicc
	@AICC=$(BUILD)/aicc bash selftests/rdma/check_rdma_tool.sh; rc=$$?; \
	[ $$rc -eq 4 ] && rc=0; exit $$rc
