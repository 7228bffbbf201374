# SPDX-License-Identifier: GPL-2.0
#
# Userspace unit tests of the algorithm core (module/core), built from the
# same sources as the kernel module.

CHECK_UNIT += check-core check-ktap check-abi-doc check-docs

$(BUILD)/test_core: selftests/core/test_core.c selftests/core/ktap.h \
		selftests/core/drv.h \
		$(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ selftests/core/test_core.c $(CORE_SRCS) \
		-lm -lpthread

.PHONY: check-core
check-core: $(BUILD)/test_core
	$(BUILD)/test_core

# The harness itself (ktap.h) with more cases than its old table of 128
# held, generated: the same line 200 times makes no readable source.
KTAP_TEST_CASES := 200

$(BUILD)/test_ktap_cases.h: selftests/core/build.mk
	@mkdir -p $(dir $@)
	awk 'BEGIN { for (i = 0; i < $(KTAP_TEST_CASES); i++) \
		printf "KTAP_CASE(n%03d) { count(%d); }\n", i, i }' > $@

$(BUILD)/test_ktap: selftests/core/test_ktap.c selftests/core/ktap.h \
		$(BUILD)/test_ktap_cases.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(BUILD) -DNR_COUNTED=$(KTAP_TEST_CASES) \
		-o $@ selftests/core/test_ktap.c

.PHONY: check-ktap
check-ktap: $(BUILD)/test_ktap
	$(BUILD)/test_ktap

# every sysfs file of tcp_aicc.ko has its Documentation/ABI entry, and
# every entry in its directories names one of them: the global files (the
# attributes of module/aicc*_sysfs.c), every module parameter, each knob
# and counter of module/core/aicc_tables.c, their ranges and defaults.
# The check first fails a copy of the document with a stale entry planted.
AICC_ABI_CHECKS = -t module/core/aicc_tables.c \
	"files=/aicc/:global files:$(call sysfs_files,module/aicc_sysfs.c module/aicc_model_sysfs.c)" \
	"files=/tcp_aicc/parameters/:module parameters:$(call module_params,module/*.c)" \
	"knobs=/<profile>/" "stats=/<profile>/stats/" \
	"ranges=/<profile>/" "units=/<profile>/" \
	"defaults=/<profile>/:module/core/aicc_defaults.h:uapi/aicc.h" stale

.PHONY: check-abi-doc
check-abi-doc:
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	for w in /sys/kernel/aicc/stale_global /sys/kernel/aicc/\<profile\>/old_knob; do \
		{ cat Documentation/ABI/testing/sysfs-kernel-aicc; \
		  printf '\nWhat:\t\t%s\n' "$$w"; } > "$$d/abi"; \
		if bash selftests/lib/check_abi_doc.sh -d "$$d/abi" \
			$(AICC_ABI_CHECKS) > "$$d/out" 2>&1; then \
			echo "check-abi-doc: a planted entry $$w passed:"; \
			cat "$$d/out"; exit 1; \
		fi; \
	done
	bash selftests/lib/check_abi_doc.sh \
		-d Documentation/ABI/testing/sysfs-kernel-aicc $(AICC_ABI_CHECKS)

# every rst file of Documentation/ parses without a docutils warning, and
# its :doc: references, images and includes exist; the checker first
# proves on broken files of its own that it fails them (without docutils
# both report a skip, exit 4, which is not a failure here)
.PHONY: check-docs
check-docs:
	@python3 selftests/lib/check_docs.py --self-test; rc=$$?; \
	[ $$rc -eq 0 ] && { python3 selftests/lib/check_docs.py Documentation; \
		rc=$$?; }; [ $$rc -eq 4 ] && rc=0; exit $$rc
