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

#define AICC_DEFAULTS_SOURCE	"aicc-tune: make tune, 60 generations x 12, seed 1"

static const u32 aicc_default_knobs[AICC_NR_PROFILES][AICC_NR_KNOBS] = {
	[AICC_PROF_COLL] = {
		49, 1, 50000, 749, 10000, 36, 1480, 0, 472, 277, 52, 806, 666,
		1000, 2380, 100, 0, 1000, 10000, 10000, 1,
	},
	[AICC_PROF_LAT] = {
		255, 1, 30000, 1563, 55, 722, 2000, 31, 815, 444, 52, 545, 454,
		1000, 1365, 100, 0, 199, 10000, 10000, 1,
	},
	[AICC_PROF_BULK] = {
		42, 1, 20000, 189, 808, 15, 1102, 0, 781, 311, 8, 575, 734, 25,
		1296, 100, 0, 325, 10000, 10000, 1,
	},
};

#endif /* _AICC_DEFAULTS_H */
