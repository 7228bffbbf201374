# SPDX-License-Identifier: GPL-2.0
#
# Packaging: DKMS, module signing, Debian packages.  Included by the
# top-level Makefile.
#
#   make dkms-install   copy the module sources to /usr/src/tcp-aicc-<ver>/,
#                       dkms add, build and install for DKMS_KERNELS
#                       (default: the running kernel, KVER); root
#   make dkms-remove    dkms remove --all and delete the DKMS source tree
#   make dkms-src DKMS_SRCDIR=DIR
#                       only copy what DKMS builds from (Kbuild, module/
#                       with core/ and roce/, uapi/, dkms.conf) to DIR
#                       (used by debian/rules)
#   make sign           sign tcp_aicc.ko and aicc_roce.ko (built by
#                       `make module` for KDIR)
#                       with the DKMS MOK key, for Secure Boot
#   make deb            build the Debian packages from the committed tree
#                       (git archive HEAD) into $(BUILD)/pkg/
#   make check-pkg      selftests/pkg/test_pkg.sh: build, inspect, install
#                       and remove the packages (root; part of check-unit)
#   make check-version  the version is AICC_VERSION wherever it is written
#                       (part of check-unit)

AICC_PKG_VERSION := $(shell sed -n \
	's/^.define[[:space:]]*AICC_VERSION[[:space:]]*"\(.*\)"/\1/p' uapi/aicc.h)
DKMS_NAME	:= tcp-aicc
DKMS_KERNELS	?= $(KVER)
DKMS_SRCDIR	?= /usr/src/$(DKMS_NAME)-$(AICC_PKG_VERSION)

# Signing: the key pair DKMS generates (and that users enrol with
# `mokutil --import /var/lib/dkms/mok.pub`), the hash the kernel uses,
# the kernel's own sign-file from its headers.
SIGN_KEY	?= /var/lib/dkms/mok.key
SIGN_CERT	?= /var/lib/dkms/mok.pub
SIGN_HASH	?= $(or $(shell sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"/\1/p' \
			$(KDIR)/.config 2>/dev/null),sha256)
SIGN_FILE	?= $(KDIR)/scripts/sign-file
SIGN_MODULE	?= $(CURDIR)/tcp_aicc.ko
# aicc_roce.ko is signed too when it was built next to it.
SIGN_EXTRA	?= $(wildcard $(dir $(SIGN_MODULE))aicc_roce.ko)

CHECK_UNIT += check-pkg check-version

.PHONY: dkms-src dkms-install dkms-remove sign deb check-pkg check-version

# every file that carries the version carries AICC_VERSION; first proves
# that another version fails it
check-version:
	@if bash tools/pkg/check-version.sh 0.0.0-not-this > /dev/null; then \
		echo "check-version: a wrong version passed" >&2; exit 1; fi
	@bash tools/pkg/check-version.sh

dkms-src:
	@v=$$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf); \
	if [ "$$v" != "$(AICC_PKG_VERSION)" ]; then \
		echo "dkms.conf: PACKAGE_VERSION '$$v' differs from" \
			"AICC_VERSION '$(AICC_PKG_VERSION)' (uapi/aicc.h)" >&2; \
		exit 1; fi
	install -d $(DKMS_SRCDIR)/module/core $(DKMS_SRCDIR)/module/roce \
		$(DKMS_SRCDIR)/uapi
	install -m 0644 Kbuild dkms.conf $(DKMS_SRCDIR)/
	install -m 0644 $(wildcard module/*.c module/*.h) $(DKMS_SRCDIR)/module/
	install -m 0644 $(wildcard module/core/*.c module/core/*.h) \
		$(DKMS_SRCDIR)/module/core/
	install -m 0644 $(wildcard module/roce/*.c module/roce/*.h) \
		$(DKMS_SRCDIR)/module/roce/
	install -m 0644 $(wildcard uapi/*.h) $(DKMS_SRCDIR)/uapi/

# Refuse to touch a tree that belongs to the Debian package.
aicc_pkg_owned = dpkg-query -W -f='$${db:Status-Abbrev}' $(DKMS_NAME)-dkms \
	2>/dev/null | grep -q '^.i'

dkms-install:
	@[ "$$(id -u)" -eq 0 ] || { echo "dkms-install: must run as root" >&2; exit 1; }
	@command -v dkms > /dev/null || \
		{ echo "dkms-install: dkms not installed (apt-get install dkms)" >&2; exit 1; }
	@if $(aicc_pkg_owned); then \
		echo "dkms-install: the $(DKMS_NAME)-dkms package is installed;" \
			"remove it first" >&2; \
		exit 1; fi
	@if [ -n "$$(dkms status -m $(DKMS_NAME) -v $(AICC_PKG_VERSION))" ]; then \
		dkms remove -m $(DKMS_NAME) -v $(AICC_PKG_VERSION) --all; fi
	rm -rf $(DKMS_SRCDIR)
	$(MAKE) --no-print-directory dkms-src DKMS_SRCDIR=$(DKMS_SRCDIR)
	dkms add -m $(DKMS_NAME) -v $(AICC_PKG_VERSION)
	@set -e; for k in $(DKMS_KERNELS); do \
		echo "dkms install -m $(DKMS_NAME) -v $(AICC_PKG_VERSION) -k $$k"; \
		dkms install -m $(DKMS_NAME) -v $(AICC_PKG_VERSION) -k $$k; \
	done

dkms-remove:
	@[ "$$(id -u)" -eq 0 ] || { echo "dkms-remove: must run as root" >&2; exit 1; }
	@if $(aicc_pkg_owned); then \
		echo "dkms-remove: installed by the $(DKMS_NAME)-dkms package;" \
			"use 'apt-get remove $(DKMS_NAME)-dkms'" >&2; \
		exit 1; fi
	@if command -v dkms > /dev/null && \
	    [ -n "$$(dkms status -m $(DKMS_NAME) -v $(AICC_PKG_VERSION))" ]; then \
		echo "dkms remove -m $(DKMS_NAME) -v $(AICC_PKG_VERSION) --all"; \
		dkms remove -m $(DKMS_NAME) -v $(AICC_PKG_VERSION) --all; fi
	rm -rf $(DKMS_SRCDIR)

aicc_sign_die = { echo "sign: $(1)" >&2; exit 1; }

sign:
	@[ -x "$(SIGN_FILE)" ] || \
		$(call aicc_sign_die,no $(SIGN_FILE) (kernel headers of KDIR=$(KDIR)))
	@[ -r "$(SIGN_KEY)" ] || \
		$(call aicc_sign_die,cannot read the key $(SIGN_KEY) (set SIGN_KEY= and SIGN_CERT=))
	@[ -r "$(SIGN_CERT)" ] || \
		$(call aicc_sign_die,cannot read the certificate $(SIGN_CERT) (set SIGN_CERT=))
	@[ -f "$(SIGN_MODULE)" ] || \
		$(call aicc_sign_die,no module $(SIGN_MODULE) (run make module first))
	@set -e; for m in $(SIGN_MODULE) $(SIGN_EXTRA); do \
		echo "  SIGN    $$m"; \
		$(SIGN_FILE) $(SIGN_HASH) $(SIGN_KEY) $(SIGN_CERT) $$m; \
		modinfo -F signer $$m | sed 's/^/  signer: /'; \
	done

# Release-style packages from the last commit (a clean tree).
deb:
	@command -v dpkg-buildpackage > /dev/null || { echo "deb: dpkg-buildpackage not" \
		"installed (apt-get install dpkg-dev debhelper dh-dkms)" >&2; exit 1; }
	rm -rf $(BUILD)/pkg && mkdir -p $(BUILD)/pkg/src
	git archive --format=tar HEAD | tar -x -C $(BUILD)/pkg/src
	cd $(BUILD)/pkg/src && dpkg-buildpackage -us -uc -b
	@ls -1 $(BUILD)/pkg/*.deb

# A skip (exit 4: not root, tools missing) is not a failure of check-unit.
check-pkg: $(BUILD)/aicc-mkfake
	@AICC_MKFAKE=$(BUILD)/aicc-mkfake bash selftests/pkg/test_pkg.sh; \
	rc=$$?; if [ $$rc -eq 4 ]; then \
		echo "ok 1 selftests/pkg/test_pkg.sh # SKIP"; rc=0; fi; \
	exit $$rc
