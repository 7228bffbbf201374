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
		64, 1, 50000, 986, 3250, 37, 2248, 0, 298, 588, 404, 0, 569, 8,
		2688, 100, 0, 4062, 10000, 10000, 1,
	},
	[AICC_PROF_LAT] = {
		102, 1, 30000, 128, 6289, 12, 4532, 0, 326, 94, 12, 892, 414, 1,
		1502, 100, 0, 50, 10000, 10000, 1,
	},
	[AICC_PROF_BULK] = {
		30, 1, 20000, 953, 423, 431, 410, 0, 825, 256, 81, 816, 900, 83,
		1274, 100, 0, 281, 10000, 10000, 1,
	},
};

#endif /* _AICC_DEFAULTS_H */
