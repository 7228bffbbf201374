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
		57, 3, 50000, 364, 424, 53, 2000, 0, 739, 631, 277, 523, 381,
		1000, 1741, 100, 0, 4764, 10000, 10000, 1,
	},
	[AICC_PROF_LAT] = {
		214, 1, 30000, 745, 146, 836, 2000, 63, 455, 689, 229, 226, 585,
		1000, 1122, 100, 0, 2013, 10000, 10000, 0,
	},
	[AICC_PROF_BULK] = {
		25, 1, 20000, 1211, 209, 81, 958, 12, 633, 307, 367, 677, 781,
		19, 1809, 100, 0, 688, 10000, 10000, 0,
	},
};

#endif /* _AICC_DEFAULTS_H */
