// SPDX-License-Identifier: GPL-2.0
/*
 * aicc: names, units and ranges of profiles, knobs and counters -- the one
 * definition of the sysfs vocabulary declared in uapi/aicc.h.
 */
#include "aicc_core.h"

const struct aicc_name_desc aicc_profile_desc[AICC_NR_PROFILES] = {
	[AICC_PROF_COLL] = { "aicc", "collectives: all-reduce, all-to-all bursts" },
	[AICC_PROF_LAT] = { "aicc_lat", "latency: inference RPCs" },
	[AICC_PROF_BULK] = { "aicc_bulk", "background: bulk/checkpoint, yields" },
};

const struct aicc_knob_desc aicc_knob_desc[AICC_NR_KNOBS] = {
	[AICC_K_TARGET] = {
		"target", AICC_UNIT_PERMILLE, 0, 10000,
		"queueing-delay target as a fraction of the base RTT",
	},
	[AICC_K_TARGET_MIN] = {
		"target_min_us", AICC_UNIT_US, 0, 1000000,
		"lower bound of the queueing-delay target",
	},
	[AICC_K_TARGET_MAX] = {
		"target_max_us", AICC_UNIT_US, 1, 4000000,
		"upper bound of the queueing-delay target",
	},
	[AICC_K_FS_RANGE] = {
		"fs_range", AICC_UNIT_PERMILLE, 0, 10000,
		"flow-scaling target range as a fraction of the base RTT",
	},
	[AICC_K_FS_MIN_CWND] = {
		"fs_min_cwnd", AICC_UNIT_MPKT, 1, 1000000,
		"window at and below which the full flow-scaling range applies",
	},
	[AICC_K_FS_MAX_CWND] = {
		"fs_max_cwnd", AICC_UNIT_PKT, 1, 1000000,
		"window at and above which flow scaling adds nothing",
	},
	[AICC_K_AI] = {
		"ai", AICC_UNIT_MPKT, 1, 10000000,
		"additive increase per RTT below target",
	},
	[AICC_K_MI] = {
		"mi", AICC_UNIT_PERMILLE, 0, 1000,
		"proportional increase gain per RTT far below target",
	},
	[AICC_K_BETA] = {
		"beta", AICC_UNIT_PERMILLE, 0, 1000,
		"delay decrease gain: cut = beta*(delay-target)/delay",
	},
	[AICC_K_MAX_MDF] = {
		"max_mdf", AICC_UNIT_PERMILLE, 1, 990,
		"largest multiplicative decrease in one RTT",
	},
	[AICC_K_ECN_G] = {
		"ecn_g", AICC_UNIT_PERMILLE, 1, 1000,
		"EWMA gain of the CE-marked fraction (alpha)",
	},
	[AICC_K_ECN_BETA] = {
		"ecn_beta", AICC_UNIT_PERMILLE, 0, 1000,
		"ECN decrease: cut = ecn_beta*alpha per marked RTT",
	},
	[AICC_K_LOSS_BETA] = {
		"loss_beta", AICC_UNIT_PERMILLE, 1, 990,
		"decrease on packet loss (once per RTT)",
	},
	[AICC_K_MIN_CWND] = {
		"min_cwnd", AICC_UNIT_MPKT, 1, 2000,
		"smallest window; below 2 packets the rate is paced",
	},
	[AICC_K_PACING_GAIN] = {
		"pacing_gain", AICC_UNIT_PERMILLE, 1000, 4000,
		"pacing rate as a multiple of cwnd/RTT",
	},
	[AICC_K_PACING_MIN] = {
		"pacing_min_kbps", AICC_UNIT_KBPS, 0, 4000000000U,
		"lowest pacing rate",
	},
	[AICC_K_PACING_MAX] = {
		"pacing_max_kbps", AICC_UNIT_KBPS, 0, 4000000000U,
		"highest pacing rate, 0 for none",
	},
	[AICC_K_START_EXIT] = {
		"start_exit", AICC_UNIT_PERMILLE, 0, 10000,
		"fast start ends when queueing delay exceeds this part of target",
	},
	[AICC_K_MEM_LIFE] = {
		"rate_memory_ms", AICC_UNIT_MS, 0, 3600000,
		"how long a remembered rate stays valid (per peer and idle gap)",
	},
	[AICC_K_RTT_WIN] = {
		"min_rtt_win_ms", AICC_UNIT_MS, 100, 600000,
		"window of the base (minimum) RTT filter",
	},
	[AICC_K_IDLE_RESTART] = {
		"idle_restart", AICC_UNIT_BOOL, 0, 1,
		"after idle, resume at the remembered rate instead of probing",
	},
	[AICC_K_GAIN_MIN_CWND] = {
		"gain_min_cwnd", AICC_UNIT_MPKT, 0, 2000,
		"window from which pacing_gain applies; below it gain 1",
	},
};

const struct aicc_name_desc aicc_stat_desc[AICC_NR_STATS] = {
	[AICC_S_FLOWS] = { "flows", "sockets currently using the profile" },
	[AICC_S_INITS] = { "flows_total", "sockets that ever used the profile" },
	[AICC_S_ROUNDS] = { "rounds", "round trips processed" },
	[AICC_S_DECREASES] = { "decreases", "delay-driven decreases" },
	[AICC_S_ECN_CUTS] = { "ecn_reductions", "ECN-driven decreases" },
	[AICC_S_LOSS_CUTS] = { "loss_reductions", "loss-driven decreases" },
	[AICC_S_RTO] = { "rto_resets", "retransmission timeouts" },
	[AICC_S_START_EXITS] = { "start_exits", "fast starts that ended" },
	[AICC_S_IDLE_RESTARTS] = { "idle_restarts", "resumes after idle at the remembered rate" },
	[AICC_S_MEM_HITS] = { "mem_hits", "new flows started from a remembered rate" },
	[AICC_S_MEM_MISSES] = { "mem_misses", "new flows with no fresh remembered rate" },
	[AICC_S_POL_EVALS] = { "policy_evals", "rounds the learned policy scaled" },
	[AICC_S_POL_RANGE] = { "policy_out_of_range", "rounds classic: model inputs out of range" },
	[AICC_S_POL_WATCHDOG] = { "policy_watchdog_trips",
				  "flows the watchdog returned to classic" },
	[AICC_S_POL_HOLD] = { "policy_held_rounds", "rounds classic after a watchdog trip" },
	[AICC_S_TIMER_LOSSES] = { "timer_losses",
				  "packets marked lost outside an ACK (RACK's timer)" },
	[AICC_S_UNDOS] = { "undos",
			   "loss recoveries and timeouts found spurious, cut undone" },
	[AICC_S_NOCONG_LOSSES] = { "nocong_losses",
				   "packets lost to the path MTU or refused Fast Open data" },
	[AICC_S_TLP_LOSSES] = { "tlp_losses",
				"losses a tail-loss probe repaired, reported to the law" },
	[AICC_S_NO_ECN] = { "no_ecn_inits",
			    "flows started without ECN negotiated: no ECT, delay and loss alone" },
};
