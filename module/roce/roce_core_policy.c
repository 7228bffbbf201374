// SPDX-License-Identifier: GPL-2.0
/*
 * The shared algorithm core (module/core/aicc_policy.c), compiled once more
 * into aicc_roce.ko: a module-private copy, so no symbol is exported or
 * shared with tcp_aicc.
 */
#include "../core/aicc_policy.c"
