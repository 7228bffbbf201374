# SPDX-License-Identifier: GPL-2.0
#
# tools/bench: the benchmark (Documentation/benchmark.rst).  Included by
# the top-level Makefile.
#
#   make bench             testbed (stock 6.1 kernel in QEMU, all
#                          algorithms, five scenarios, 3 repetitions),
#                          simulator and CPU cost; report, JSON, CSV and
#                          plots in build/bench/ (about 20 minutes)
#   make bench QUICK=1     one repetition of three scenarios (~5 minutes)
#   make bench BENCH_ARGS="--kernel both --docs"   more options: bench.sh -h
#   make check-bench       the report generator on canned results (unit)

.PHONY: bench check-bench

$(BUILD)/aicc-ackcost: tools/bench/ackcost.c $(CORE_SRCS) $(CORE_HDRS) \
		tools/bench/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ tools/bench/ackcost.c $(CORE_SRCS)

bench:
	bash tools/bench/bench.sh $(if $(filter 1,$(QUICK)),--quick) $(BENCH_ARGS)

check-bench: $(BUILD)/aicc-ackcost
	bash tools/bench/test.sh $(BUILD)/aicc-ackcost

CHECK_UNIT += check-bench
