# SPDX-License-Identifier: GPL-2.0
#
# aicc top-level Makefile.
#
#   make                 build tcp_aicc.ko for KDIR and the userspace tools
#   make module          only the module, for KDIR
#   make kmods           the module for every installed Debian kernel's
#                        headers, into build/<kernel-release>/
#   make tools           userspace: the aicc tool, generator, simulator
#   make check           every test: unit tests, then the VM selftests on
#                        both kernels (see selftests/ and tools/vm/)
#   make check-style     checkpatch --strict, shellcheck, W=1 and sparse
#                        (part of make check-unit)
#   make install         install the module (depmod) and the tool
#   make deps            install build/test dependencies (Debian, root)

KVER	?= $(shell uname -r)
# The running kernel's headers, or none: building for another kernel is
# asked for with KDIR (a guess built and installed for the wrong one).
KDIR	?= $(wildcard /lib/modules/$(KVER)/build)
BUILD	?= $(CURDIR)/build
PREFIX	?= /usr/local
DESTDIR	?=
CC	?= cc

# Userspace flags shared by every tool and test built from this tree.
USER_CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -std=gnu11 \
	       -I$(CURDIR)/module/core -I$(CURDIR)/uapi -I$(CURDIR)
CORE_SRCS := module/core/aicc_core.c module/core/aicc_mem.c \
	     module/core/aicc_tables.c module/core/aicc_policy.c \
	     module/core/aicc_model.c
CORE_HDRS := $(wildcard module/core/*.h) uapi/aicc.h uapi/aicc_model.h

# Sub-projects add themselves to these lists from their build.mk.
TOOLS_TARGETS :=
CHECK_UNIT :=
INSTALL_TARGETS :=

.PHONY: all module kmods tools check check-unit check-style install deps clean help

all: module tools

module:
	@if [ -z "$(KDIR)" ] || [ ! -d "$(KDIR)" ]; then \
		echo "aicc: no headers for the running kernel $(KVER): install them" \
			"('make deps' installs Debian's), or set" \
			"KDIR=/usr/src/linux-headers-<release>; 'make kmods' builds for" \
			"every installed kernel" >&2; \
		exit 1; fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# One out-of-tree build per installed kernel.  Kbuild writes objects next to
# the sources, so each kernel gets its own copy of the module sources.
KMOD_HDRS := $(sort $(wildcard /usr/src/linux-headers-*-amd64))
kmods:
	@set -e; for h in $(KMOD_HDRS); do \
		v=$${h#/usr/src/linux-headers-}; d=$(BUILD)/$$v; \
		mkdir -p $$d; \
		cp -a Kbuild $$d/; rm -rf $$d/module $$d/uapi; \
		cp -a module uapi $$d/; \
		echo "  KMOD    $$v"; \
		$(MAKE) -s -C $$h M=$$d modules W=$(W) C=$(C) > $$d/build.log 2>&1 || \
			{ cat $$d/build.log; exit 1; }; \
		rm -rf $$d/nametaker; cp -a selftests/module/kmod $$d/nametaker; \
		$(MAKE) -s -C $$h M=$$d/nametaker modules W=$(W) C=$(C) \
			>> $$d/build.log 2>&1 || { cat $$d/build.log; exit 1; }; \
		grep -E 'warning|error' $$d/build.log || true; \
	done

# $(call module_params,FILES): the module parameters the module_param()
# lines of FILES declare, comma-separated (check-abi-doc, check-roce-abi-doc)
module_params = $(shell sed -n 's/^module_param.\([a-z0-9_]*\),.*/\1/p' \
	$(1) | paste -sd, -)

# $(call sysfs_files,FILES): the files the attributes of FILES name
# (__ATTR(), __ATTR_RO(), __BIN_ATTR(), or .name = a uapi macro),
# comma-separated (check-abi-doc, check-roce-abi-doc)
sysfs_files = ${shell { sed -n \
	's/.*__\(BIN_\)\{0,1\}ATTR\(_RO\)\{0,1\}(\([a-z0-9_]*\).*/\3/p' $(1); \
	for m in $$(sed -n 's/.*\.name = \(AICC_[A-Z0-9_]*\).*/\1/p' $(1)); do \
		sed -n "s/^\#define $$m[[:space:]]*\"\(.*\)\"/\1/p" uapi/*.h; \
	done; } | paste -sd, -}

include $(sort $(wildcard tools/*/build.mk selftests/*/build.mk)) \
	$(wildcard selftests/build.mk)

# The coding standard: checkpatch --strict, shellcheck, and W=1 + sparse on
# every installed kernel's headers (scripts/check-style.sh).
CHECK_UNIT += check-style
check-style:
	BUILD=$(BUILD) bash scripts/check-style.sh

tools: $(TOOLS_TARGETS)

check-unit: $(CHECK_UNIT)

check:
	bash selftests/run-all.sh

install: module $(INSTALL_TARGETS)
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install
	depmod -a $$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' \
		$(KDIR)/include/generated/utsrelease.h)

deps:
	bash scripts/install-deps.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf $(BUILD)

help:
	@sed -n '3,16p' Makefile
