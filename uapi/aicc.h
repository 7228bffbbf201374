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
 *   model                       the learned policy's blob (uapi/aicc_model.h)
 *   model_unload                write 1: no model
 *   model_loads, model_rejects  blobs taken and refused (ro)
 *   <profile>/<knob>            one file per knob below, 0644
 *   <profile>/stats/<counter>   read-only counters
 *   roce/...                    aicc_roce's knobs, counters and flow table
 *                               (uapi/aicc_roce.h)
 *
 * Every file, with its mode, range and default, has its entry in
 * Documentation/ABI/testing/sysfs-kernel-aicc.
 *
 * <profile> is the congestion-control name: "aicc", "aicc_lat", "aicc_bulk".
 */
#ifndef _UAPI_LINUX_AICC_H
#define _UAPI_LINUX_AICC_H

#include <linux/types.h>

#define AICC_VERSION		"0.1.0"
#define AICC_SYSFS_DIR		"/sys/kernel/aicc"
#define AICC_STATS_DIR		"stats"

/* Profiles; aicc_profile_desc[] has their (congestion-control) names. */
enum aicc_profile_id {
	AICC_PROF_COLL,
	AICC_PROF_LAT,
	AICC_PROF_BULK,
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
 * Per-profile knobs; aicc_knob_desc[] has their names, units and ranges.
 * Default values live with the algorithm (module/core/aicc_defaults.h).
 */
enum aicc_knob_id {
	AICC_K_TARGET,
	AICC_K_TARGET_MIN,
	AICC_K_TARGET_MAX,
	AICC_K_FS_RANGE,
	AICC_K_FS_MIN_CWND,
	AICC_K_FS_MAX_CWND,
	AICC_K_AI,
	AICC_K_MI,
	AICC_K_BETA,
	AICC_K_MAX_MDF,
	AICC_K_ECN_G,
	AICC_K_ECN_BETA,
	AICC_K_LOSS_BETA,
	AICC_K_MIN_CWND,
	AICC_K_PACING_GAIN,
	AICC_K_PACING_MIN,
	AICC_K_PACING_MAX,
	AICC_K_START_EXIT,
	AICC_K_MEM_LIFE,
	AICC_K_RTT_WIN,
	AICC_K_IDLE_RESTART,
	AICC_K_GAIN_MIN_CWND,
	AICC_NR_KNOBS
};

/* Global knobs directly under AICC_SYSFS_DIR. */
#define AICC_G_RATE_MEMORY		"rate_memory"
#define AICC_G_RATE_MEMORY_ENTRIES	"rate_memory_entries"
#define AICC_G_RATE_MEMORY_USED		"rate_memory_used"
#define AICC_G_VERSION			"version"
#define AICC_MEM_ENTRIES_MIN		16
#define AICC_MEM_ENTRIES_MAX		16384	/* power of two; <= 1 MiB */

/* Per-profile counters in <profile>/stats/; names in aicc_stat_desc[]. */
enum aicc_stat_id {
	AICC_S_FLOWS,
	AICC_S_INITS,
	AICC_S_ROUNDS,
	AICC_S_DECREASES,
	AICC_S_ECN_CUTS,
	AICC_S_LOSS_CUTS,
	AICC_S_RTO,
	AICC_S_START_EXITS,
	AICC_S_IDLE_RESTARTS,
	AICC_S_MEM_HITS,
	AICC_S_MEM_MISSES,
	AICC_S_POL_EVALS,	/* the learned policy: rounds it scaled */
	AICC_S_POL_RANGE,	/* ... inputs out of its range: classic */
	AICC_S_POL_WATCHDOG,	/* ... watchdog trips */
	AICC_S_POL_HOLD,	/* ... classic rounds after a trip */
	AICC_S_TIMER_LOSSES,	/* losses no ACK reported (RACK's timer) */
	AICC_S_UNDOS,		/* spurious cuts undone */
	AICC_S_NOCONG_LOSSES,	/* losses not from congestion (path MTU) */
	AICC_S_TLP_LOSSES,	/* losses a tail-loss probe repaired */
	AICC_S_NO_ECN,		/* flows started without ECN negotiated */
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

struct aicc_name_desc {
	const char *name;
	const char *desc;
};

struct aicc_knob_desc {
	const char *name;
	__u32 unit;		/* enum aicc_unit */
	__u32 min;
	__u32 max;
	const char *desc;
};

/*
 * Names, units and ranges, defined once in module/core/aicc_tables.c, which
 * the module and every userspace program built from this tree link in.
 */
extern const struct aicc_name_desc aicc_profile_desc[AICC_NR_PROFILES];
extern const struct aicc_knob_desc aicc_knob_desc[AICC_NR_KNOBS];
extern const struct aicc_name_desc aicc_stat_desc[AICC_NR_STATS];

#endif /* _UAPI_LINUX_AICC_H */
