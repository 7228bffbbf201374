// SPDX-License-Identifier: GPL-2.0
/*
 * aicc_roce: knob names, units, ranges and defaults, and counter names --
 * the one definition of the vocabulary declared in uapi/aicc_roce.h,
 * linked into the module, the aicc tool and the simulator.
 *
 * The rp_* and np_* knobs use mlx5's cc_params names and units.  Their
 * defaults are not the ConnectX firmware's (which assume microsecond
 * round trips at 100 Gbit/s); they were chosen by measurement on the
 * Soft-RoCE testbed (Documentation/rdma.rst gives both).
 */
#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stddef.h>
#else
#include <stddef.h>
#endif
#include "../../uapi/aicc_roce.h"

#define RK(id, n, u, lo, hi, d, text) \
	[id] = { .name = n, .unit = u, .min = lo, .max = hi, .def = d, \
		 .desc = text }

const struct aicc_roce_knob_desc aicc_roce_knob_desc[AICC_ROCE_NR_KNOBS] = {
	RK(AICC_RK_CC_ALGO, "cc_algo", AICC_RU_ENUM, 0, 2, 1,
	   "rate law: 0 off (telemetry only), 1 DCQCN, 2 aicc core"),
	RK(AICC_RK_NP_ENABLE, "np_enable", AICC_RU_BOOL, 0, 1, 1,
	   "notification point: answer CE-marked packets with CNPs"),
	RK(AICC_RK_ECN_MARK, "ecn_mark", AICC_RU_BOOL, 0, 1, 1,
	   "mark outgoing not-ECT RoCEv2 packets ECT(0)"),
	RK(AICC_RK_ICRC_CHECK, "icrc_check", AICC_RU_BOOL, 0, 1, 0,
	   "verify the ICRC of every received RoCEv2 packet (counters)"),
	RK(AICC_RK_FLOW_TIMEOUT, "flow_timeout_ms", AICC_RU_MS, 100, 3600000, 10000,
	   "a flow idle this long may be evicted"),
	RK(AICC_RK_AICC_PROFILE, "aicc_profile", AICC_RU_ENUM, 0, 2, 1,
	   "aicc law: profile whose default parameters it uses"),
	RK(AICC_RK_RP_MAX_RATE, "rp_max_rate", AICC_RU_MBPS, 0, 400000, 0,
	   "highest rate, 0 = line rate (100 Gbit/s for software devices)"),
	RK(AICC_RK_RP_MIN_RATE, "rp_min_rate", AICC_RU_MBPS, 1, 400000, 1,
	   "lowest rate a flow is cut to"),
	RK(AICC_RK_RP_AI_RATE, "rp_ai_rate", AICC_RU_MBPS, 1, 100000, 1,
	   "additive increase of the target rate per stage"),
	RK(AICC_RK_RP_HAI_RATE, "rp_hai_rate", AICC_RU_MBPS, 1, 100000, 5,
	   "hyper increase of the target rate per stage"),
	RK(AICC_RK_RP_TIME_RESET, "rp_time_reset", AICC_RU_US, 1, 10000000, 4000,
	   "time between rate-increase stages without CNP"),
	RK(AICC_RK_RP_BYTE_RESET, "rp_byte_reset", AICC_RU_BYTES, 0, 1000000000, 0,
	   "bytes sent between increase stages, 0 = off"),
	RK(AICC_RK_RP_THRESHOLD, "rp_threshold", AICC_RU_COUNT, 1, 31, 5,
	   "stages of fast recovery before additive increase"),
	RK(AICC_RK_RP_MIN_DEC_FAC, "rp_min_dec_fac", AICC_RU_PERCENT, 1, 100, 50,
	   "one cut keeps at least this percentage of the rate"),
	RK(AICC_RK_RP_RATE_FIRST_CNP, "rp_rate_to_set_on_first_cnp", AICC_RU_MBPS, 0, 400000, 0,
	   "rate set by a flow's first CNP, 0 = cut as usual"),
	RK(AICC_RK_RP_GD, "rp_gd", AICC_RU_COUNT, 1, 15, 11,
	   "cut = rate * alpha / 2^rp_gd (alpha in 1/1024; 11: halve at 1)"),
	RK(AICC_RK_RP_DCE_TCP_G, "rp_dce_tcp_g", AICC_RU_Q10, 0, 1023, 1019,
	   "alpha keeps g/1024 of itself per period (CNP: + (1-g/1024))"),
	RK(AICC_RK_RP_DCE_TCP_RTT, "rp_dce_tcp_rtt", AICC_RU_US, 1, 1000000, 2000,
	   "alpha update period"),
	RK(AICC_RK_RP_REDUCE_PERIOD, "rp_rate_reduce_monitor_period", AICC_RU_US, 0, 1000000, 4000,
	   "least time between two cuts"),
	RK(AICC_RK_RP_INITIAL_ALPHA, "rp_initial_alpha_value", AICC_RU_Q10, 0, 1023, 1023,
	   "alpha of a flow at its first CNP"),
	RK(AICC_RK_NP_MIN_TIME_CNPS, "np_min_time_between_cnps", AICC_RU_US, 0, 1000000, 1000,
	   "least time between two CNPs of one flow"),
	RK(AICC_RK_NP_CNP_DSCP, "np_cnp_dscp", AICC_RU_COUNT, 0, 63, 48,
	   "DSCP of the CNPs sent"),
	RK(AICC_RK_NP_CNP_PRIO, "np_cnp_prio", AICC_RU_COUNT, 0, 7, 6,
	   "802.1p priority of CNPs (exported only; no VLAN here)"),
};

const struct aicc_roce_name_desc aicc_roce_stat_desc[AICC_ROCE_NR_STATS] = {
	[AICC_RS_RX_PKTS] = { "rx_pkts", "RoCEv2 packets received" },
	[AICC_RS_TX_PKTS] = { "tx_pkts", "RoCEv2 packets sent" },
	[AICC_RS_CE_SEEN] = { "ce_seen", "received packets marked CE" },
	[AICC_RS_CNP_SENT] = { "cnp_sent", "CNPs sent (notification point)" },
	[AICC_RS_CNP_RCVD] = { "cnp_rcvd", "valid CNPs received" },
	[AICC_RS_CNP_BAD] = { "cnp_bad", "CNPs ignored (length, ICRC, QP)" },
	[AICC_RS_MALFORMED] = { "malformed", "port 4791 packets not parsed" },
	[AICC_RS_CUTS] = { "cuts", "rate decreases" },
	[AICC_RS_PACED] = { "paced", "packets given a departure time" },
	[AICC_RS_ECT_MARKED] = { "ect_marked", "packets marked ECT(0)" },
	[AICC_RS_NO_FQ] = { "no_fq", "paced packets on a device without fq" },
	[AICC_RS_FLOWS] = { "flows", "flows created" },
	[AICC_RS_EVICTED] = { "evicted", "flows evicted (idle, or never sent on by rxe)" },
	[AICC_RS_TABLE_FULL] = { "table_full", "packets without a flow slot" },
	[AICC_RS_ICRC_OK] = { "icrc_ok", "icrc_check: ICRC correct" },
	[AICC_RS_ICRC_BAD] = { "icrc_bad", "icrc_check: ICRC wrong" },
	[AICC_RS_HOLD_CAPPED] = { "hold_capped", "departures capped 100 ms ahead" },
	[AICC_RS_NAK_SEQ] = { "nak_seq", "PSN sequence error NAKs received" },
	[AICC_RS_CNP_FAILED] = { "cnp_failed", "CNPs that could not be sent" },
};

const char *const aicc_roce_algo_name[AICC_ROCE_NR_ALGOS] = {
	[AICC_ROCE_ALGO_OFF] = "off",
	[AICC_ROCE_ALGO_DCQCN] = "dcqcn",
	[AICC_ROCE_ALGO_AICC] = "aicc",
};
