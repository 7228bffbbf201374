/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shipped default knob values per profile, in the units of uapi/aicc.h.
 *
 * Order follows AICC_KNOBS: target, target_min_us, target_max_us, fs_range,
 * fs_min_cwnd, fs_max_cwnd, ai, mi, beta,
 * max_mdf, ecn_g, ecn_beta, loss_beta, min_cwnd,
 * pacing_gain, pacing_min_kbps, pacing_max_kbps, start_exit, rate_memory_ms,
 * min_rtt_win_ms, idle_restart, gain_min_cwnd.
 *
 * Written by aicc-tune (make tune, tools/tune/); see
 * Documentation/tuning.rst and tools/tune/results/.
 */
#ifndef _AICC_DEFAULTS_H
#define _AICC_DEFAULTS_H

#define AICC_DEFAULTS_SOURCE	"aicc-tune: make tune, refine-start.conf refined, 60 generations x 12, sigma 0.1, seed 1"

static const u32 aicc_default_knobs[AICC_NR_PROFILES][AICC_NR_KNOBS] = {
	[AICC_PROF_COLL] = {
		66, 1, 50000, 967, 6646, 41, 1198, 0, 904, 458, 62, 910, 319,
		1000, 2431, 100, 0, 921, 10000, 10000, 1, 1000,
	},
	[AICC_PROF_LAT] = {
		61, 1, 30000, 480, 7696, 230, 1738, 55, 860, 746, 440, 742, 777,
		1000, 2216, 100, 0, 730, 10000, 10000, 1, 1000,
	},
	[AICC_PROF_BULK] = {
		24, 1, 20000, 630, 3406, 23, 1110, 0, 615, 498, 111, 912, 227,
		1000, 2090, 100, 0, 50, 10000, 10000, 1, 1000,
	},
};

#endif /* _AICC_DEFAULTS_H */
