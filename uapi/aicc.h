/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * aicc: congestion control for AI-cluster traffic -- user-visible ABI.
 *
 * Everything here is shared by the kernel module, the aicc tool, the
 * simulator and the tests: profile names, sysfs layout, knob names with
 * their units and ranges, and the congestion-control info structure
 * returned by getsockopt(TCP_CC_INFO) and inet_diag.
 *
 * Sysfs layout (all under AICC_SYSFS_DIR):
 *
 *   version                     module version (read-only)
 *   rate_memory                 0/1: remember per-peer rates (global)
 *   rate_memory_entries         size of the per-peer rate cache (global)
 *   rate_memory_used            entries currently holding a fresh rate (ro)
 *   <profile>/<knob>            one file per knob below, 0644
 *   <profile>/stats/<counter>   read-only counters
 *
 * <profile> is the congestion-control name: "aicc", "aicc_lat", "aicc_bulk".
 */
#ifndef _UAPI_LINUX_AICC_H
#define _UAPI_LINUX_AICC_H

#include <linux/types.h>

#define AICC_VERSION		"0.1.0"
#define AICC_SYSFS_DIR		"/sys/kernel/aicc"
#define AICC_STATS_DIR		"stats"

/* Profiles: X(id, congestion-control name, short description). */
#define AICC_PROFILES(X)						\
	X(AICC_PROF_COLL, "aicc", "collectives: all-reduce, all-to-all bursts") \
	X(AICC_PROF_LAT, "aicc_lat", "latency: inference RPCs")		\
	X(AICC_PROF_BULK, "aicc_bulk", "background: bulk/checkpoint, yields")

#define AICC_ENUM_ID(id, ...)	id,
enum aicc_profile_id {
	AICC_PROFILES(AICC_ENUM_ID)
	AICC_NR_PROFILES
};

/* Units of knob values, as written to and read from sysfs (decimal). */
enum aicc_unit {
	AICC_UNIT_PERMILLE,	/* 1/1000 of a ratio */
	AICC_UNIT_US,		/* microseconds */
	AICC_UNIT_MS,		/* milliseconds */
	AICC_UNIT_MPKT,		/* 1/1000 of a packet (segment) */
	AICC_UNIT_PKT,		/* packets (segments) */
	AICC_UNIT_KBPS,		/* kilobits per second, 0 = no limit */
	AICC_UNIT_BOOL,		/* 0 or 1 */
	AICC_UNIT_COUNT,	/* a plain number */
};

/*
 * Per-profile knobs: X(id, name, unit, min, max, description).
 * Default values live with the algorithm (module/core/aicc_defaults.h).
 */
#define AICC_KNOBS(X)							\
	X(AICC_K_TARGET, "target", AICC_UNIT_PERMILLE, 0, 10000,	\
	  "queueing-delay target as a fraction of the base RTT")	\
	X(AICC_K_TARGET_MIN, "target_min_us", AICC_UNIT_US, 0, 1000000,	\
	  "lower bound of the queueing-delay target")			\
	X(AICC_K_TARGET_MAX, "target_max_us", AICC_UNIT_US, 1, 10000000, \
	  "upper bound of the queueing-delay target")			\
	X(AICC_K_FS_RANGE, "fs_range", AICC_UNIT_PERMILLE, 0, 10000,	\
	  "flow-scaling target range as a fraction of the base RTT")	\
	X(AICC_K_FS_MIN_CWND, "fs_min_cwnd", AICC_UNIT_MPKT, 1, 1000000, \
	  "window at and below which the full flow-scaling range applies") \
	X(AICC_K_FS_MAX_CWND, "fs_max_cwnd", AICC_UNIT_PKT, 1, 1000000,	\
	  "window at and above which flow scaling adds nothing")	\
	X(AICC_K_AI, "ai", AICC_UNIT_MPKT, 1, 10000000,		\
	  "additive increase per RTT below target")			\
	X(AICC_K_MI, "mi", AICC_UNIT_PERMILLE, 0, 1000,			\
	  "proportional increase gain per RTT far below target")	\
	X(AICC_K_BETA, "beta", AICC_UNIT_PERMILLE, 0, 1000,		\
	  "delay decrease gain: cut = beta*(delay-target)/delay")	\
	X(AICC_K_MAX_MDF, "max_mdf", AICC_UNIT_PERMILLE, 1, 990,	\
	  "largest multiplicative decrease in one RTT")			\
	X(AICC_K_ECN_G, "ecn_g", AICC_UNIT_PERMILLE, 1, 1000,		\
	  "EWMA gain of the CE-marked fraction (alpha)")		\
	X(AICC_K_ECN_BETA, "ecn_beta", AICC_UNIT_PERMILLE, 0, 1000,	\
	  "ECN decrease: cut = ecn_beta*alpha per marked RTT")		\
	X(AICC_K_LOSS_BETA, "loss_beta", AICC_UNIT_PERMILLE, 1, 990,	\
	  "decrease on packet loss (once per RTT)")			\
	X(AICC_K_MIN_CWND, "min_cwnd", AICC_UNIT_MPKT, 1, 2000,	\
	  "smallest window; below 2 packets the rate is paced")		\
	X(AICC_K_PACING_GAIN, "pacing_gain", AICC_UNIT_PERMILLE, 1000, 4000, \
	  "pacing rate as a multiple of cwnd/RTT")			\
	X(AICC_K_PACING_MIN, "pacing_min_kbps", AICC_UNIT_KBPS, 0, 4000000000U, \
	  "lowest pacing rate")						\
	X(AICC_K_PACING_MAX, "pacing_max_kbps", AICC_UNIT_KBPS, 0, 4000000000U, \
	  "highest pacing rate, 0 for none")				\
	X(AICC_K_START_EXIT, "start_exit", AICC_UNIT_PERMILLE, 0, 10000, \
	  "fast start ends when queueing delay exceeds this part of target") \
	X(AICC_K_MEM_LIFE, "rate_memory_ms", AICC_UNIT_MS, 0, 3600000,	\
	  "how long a remembered rate stays valid (per peer and idle gap)") \
	X(AICC_K_RTT_WIN, "min_rtt_win_ms", AICC_UNIT_MS, 100, 600000,	\
	  "window of the base (minimum) RTT filter")			\
	X(AICC_K_IDLE_RESTART, "idle_restart", AICC_UNIT_BOOL, 0, 1,	\
	  "after idle, resume at the remembered rate instead of probing")

enum aicc_knob_id {
	AICC_KNOBS(AICC_ENUM_ID)
	AICC_NR_KNOBS
};

/* Global knobs directly under AICC_SYSFS_DIR. */
#define AICC_G_RATE_MEMORY		"rate_memory"
#define AICC_G_RATE_MEMORY_ENTRIES	"rate_memory_entries"
#define AICC_G_RATE_MEMORY_USED		"rate_memory_used"
#define AICC_G_VERSION			"version"
#define AICC_MEM_ENTRIES_MIN		16
#define AICC_MEM_ENTRIES_MAX		16384	/* power of two; <= 1 MiB */

/* Per-profile counters in <profile>/stats/: X(id, name, description). */
#define AICC_STATS(X)							\
	X(AICC_S_FLOWS, "flows", "sockets currently using the profile")	\
	X(AICC_S_INITS, "flows_total", "sockets that ever used the profile") \
	X(AICC_S_ROUNDS, "rounds", "round trips processed")		\
	X(AICC_S_DECREASES, "decreases", "delay-driven decreases")	\
	X(AICC_S_ECN_CUTS, "ecn_reductions", "ECN-driven decreases")	\
	X(AICC_S_LOSS_CUTS, "loss_reductions", "loss-driven decreases")	\
	X(AICC_S_RTO, "rto_resets", "retransmission timeouts")		\
	X(AICC_S_START_EXITS, "start_exits", "fast starts that ended")	\
	X(AICC_S_IDLE_RESTARTS, "idle_restarts", "resumes after idle at the remembered rate") \
	X(AICC_S_MEM_HITS, "mem_hits", "new flows started from a remembered rate") \
	X(AICC_S_MEM_MISSES, "mem_misses", "new flows with no fresh remembered rate")

enum aicc_stat_id {
	AICC_STATS(AICC_ENUM_ID)
	AICC_NR_STATS
};

/* Controller modes, as reported in struct aicc_info. */
enum aicc_mode {
	AICC_MODE_START = 0,	/* fast start: doubling until delay rises */
	AICC_MODE_TRACK = 1,	/* holding queueing delay at target */
	AICC_MODE_LOSS = 2,	/* recovering after a retransmission timeout */
	AICC_MODE_RESUME = 3,	/* first round after idle, at remembered rate */
};

/*
 * Congestion-control info.  getsockopt(TCP_CC_INFO) returns it, and an
 * inet_diag request carrying INET_DIAG_INFO but not INET_DIAG_VEGASINFO
 * returns it as attribute AICC_DIAG_ATTR.  A request with
 * INET_DIAG_VEGASINFO (as `ss -i` sends) gets struct tcp_dctcp_info instead.
 * The kernel's buffer for this is 20 bytes: do not grow this struct.
 */
#define AICC_DIAG_ATTR		0x0a1c
struct aicc_info {
	__u32	aicc_cwnd_x16;	/* congestion window, 1/16 packets */
	__u32	aicc_base_rtt_us; /* base (windowed minimum) RTT */
	__u32	aicc_target_us;	/* current queueing-delay target */
	__u32	aicc_qdelay_us;	/* queueing delay of the last round */
	__u16	aicc_alpha;	/* CE-marked fraction EWMA, 1/1024 */
	__u8	aicc_profile;	/* enum aicc_profile_id */
	__u8	aicc_mode;	/* enum aicc_mode */
};

#endif /* _UAPI_LINUX_AICC_H */
