/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shipped default knob values per profile, in the units of uapi/aicc.h.
 *
 * Order follows AICC_KNOBS: target, target_min_us, target_max_us, fs_range,
 * fs_min_cwnd, fs_max_cwnd, ai, mi, beta, max_mdf, ecn_g, ecn_beta,
 * loss_beta, min_cwnd, pacing_gain, pacing_min_kbps, pacing_max_kbps,
 * start_exit, rate_memory_ms, min_rtt_win_ms, idle_restart.
 *
 * These are hand-set starting points until a recorded tuning run replaces
 * them (see Documentation/algorithm.rst).
 */
#ifndef _AICC_DEFAULTS_H
#define _AICC_DEFAULTS_H

#define AICC_DEFAULTS_SOURCE	"hand-set"

static const u32 aicc_default_knobs[AICC_NR_PROFILES][AICC_NR_KNOBS] = {
	[AICC_PROF_COLL] = {
		250, 5, 50000, 500, 100, 100, 1000, 50, 800, 500, 63, 500,
		300, 300, 1200, 100, 0, 500, 10000, 10000, 1,
	},
	[AICC_PROF_LAT] = {
		150, 5, 30000, 500, 100, 100, 1000, 100, 800, 500, 63, 500,
		300, 300, 1250, 100, 0, 300, 10000, 10000, 1,
	},
	[AICC_PROF_BULK] = {
		100, 5, 20000, 200, 100, 100, 250, 0, 900, 600, 63, 700,
		400, 300, 1100, 100, 0, 250, 10000, 10000, 1,
	},
};

#endif /* _AICC_DEFAULTS_H */
