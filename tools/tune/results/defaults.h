/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shipped default knob values per profile, in the units of uapi/aicc.h.
 *
 * Order follows AICC_KNOBS: target, target_min_us, target_max_us, fs_range,
 * fs_min_cwnd, fs_max_cwnd, ai, mi, beta,
 * max_mdf, ecn_g, ecn_beta, loss_beta, min_cwnd,
 * pacing_gain, pacing_min_kbps, pacing_max_kbps, start_exit, rate_memory_ms,
 * min_rtt_win_ms, idle_restart.
 *
 * Written by aicc-tune (make tune, tools/tune/); see
 * Documentation/tuning.rst and tools/tune/results/.
 */
#ifndef _AICC_DEFAULTS_H
#define _AICC_DEFAULTS_H

#define AICC_DEFAULTS_SOURCE	"aicc-tune: make tune, refine-start.conf refined, 60 generations x 12, sigma 0.1, seed 1"

static const u32 aicc_default_knobs[AICC_NR_PROFILES][AICC_NR_KNOBS] = {
	[AICC_PROF_COLL] = {
		65, 1, 50000, 943, 7782, 33, 2000, 10, 909, 170, 34, 844, 235,
		1000, 2410, 100, 0, 1000, 10000, 10000, 1,
	},
	[AICC_PROF_LAT] = {
		73, 2, 30000, 459, 10000, 91, 2000, 42, 1000, 649, 236, 636,
		900, 1000, 2192, 100, 0, 867, 10000, 10000, 1,
	},
	[AICC_PROF_BULK] = {
		67, 1, 20000, 1054, 3524, 4, 794, 2, 466, 467, 14, 1000, 50,
		719, 2271, 100, 0, 216, 10000, 10000, 1,
	},
};

#endif /* _AICC_DEFAULTS_H */
