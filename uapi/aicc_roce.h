/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * aicc_roce: congestion control for RoCEv2 (Soft-RoCE, rdma_rxe) --
 * user-visible ABI of aicc_roce.ko.
 *
 * Sysfs layout (all under AICC_ROCE_SYSFS_DIR, i.e. next to tcp_aicc's):
 *
 *   <knob>            one file per knob below, 0644, decimal; a value
 *                     outside [min, max] is refused with -EINVAL and the
 *                     old value stays
 *   stats/<counter>   read-only global counters (aicc_roce_stat_desc[])
 *   flows             read-only binary file: one struct aicc_roce_flow_rec
 *                     per slot of the flow table (valid == 0: empty slot);
 *                     its size is flow_slots * sizeof(rec)
 *   flow_slots        read-only: number of slots of the flow table
 *
 * The rp_* and np_* knobs carry the names, units and meaning of the
 * mlx5 driver's cc_params (ConnectX DCQCN) so that a tuned set can be
 * exported for hardware NICs; rates are in Mbit/s, times in microseconds.
 * Hardware NICs run congestion control in firmware: aicc_roce steers only
 * the software RoCE data path of this host.
 */
#ifndef _UAPI_LINUX_AICC_ROCE_H
#define _UAPI_LINUX_AICC_ROCE_H

#include <linux/types.h>

#define AICC_ROCE_SYSFS_DIR	"/sys/kernel/aicc/roce"
#define AICC_ROCE_FLOWS_FILE	"flows"
#define AICC_ROCE_SLOTS_FILE	"flow_slots"
#define AICC_ROCE_UDP_PORT	4791
#define AICC_ROCE_OPCODE_CNP	0x81

/* Rate laws (knob cc_algo). */
enum aicc_roce_algo {
	AICC_ROCE_ALGO_OFF = 0,		/* no rate control (telemetry only) */
	AICC_ROCE_ALGO_DCQCN = 1,	/* DCQCN reaction point */
	AICC_ROCE_ALGO_AICC = 2,	/* aicc core, driven by ACKs and CNPs */
	AICC_ROCE_NR_ALGOS
};

/* Units of knob values. */
enum aicc_roce_unit {
	AICC_RU_BOOL,		/* 0 or 1 */
	AICC_RU_ENUM,		/* a small number with a documented meaning */
	AICC_RU_MBPS,		/* Mbit/s */
	AICC_RU_US,		/* microseconds */
	AICC_RU_MS,		/* milliseconds */
	AICC_RU_BYTES,		/* bytes */
	AICC_RU_PERCENT,	/* percent */
	AICC_RU_Q10,		/* 1/1024 */
	AICC_RU_COUNT,		/* a plain number */
};

enum aicc_roce_knob_id {
	AICC_RK_CC_ALGO,		/* enum aicc_roce_algo */
	AICC_RK_NP_ENABLE,		/* notification point: send CNPs */
	AICC_RK_ECN_MARK,		/* mark outgoing RoCEv2 ECT(0) */
	AICC_RK_ICRC_CHECK,		/* verify the ICRC of received packets */
	AICC_RK_FLOW_TIMEOUT,		/* idle flows age out after this */
	AICC_RK_AICC_PROFILE,		/* aicc law: enum aicc_profile_id */
	/* reaction point (mlx5 cc_params names) */
	AICC_RK_RP_MAX_RATE,
	AICC_RK_RP_MIN_RATE,
	AICC_RK_RP_AI_RATE,
	AICC_RK_RP_HAI_RATE,
	AICC_RK_RP_TIME_RESET,
	AICC_RK_RP_BYTE_RESET,
	AICC_RK_RP_THRESHOLD,
	AICC_RK_RP_MIN_DEC_FAC,
	AICC_RK_RP_RATE_FIRST_CNP,
	AICC_RK_RP_GD,
	AICC_RK_RP_DCE_TCP_G,
	AICC_RK_RP_DCE_TCP_RTT,
	AICC_RK_RP_REDUCE_PERIOD,
	AICC_RK_RP_INITIAL_ALPHA,
	/* notification point */
	AICC_RK_NP_MIN_TIME_CNPS,
	AICC_RK_NP_CNP_DSCP,
	AICC_RK_NP_CNP_PRIO,
	AICC_ROCE_NR_KNOBS
};

/* Global counters in stats/. */
enum aicc_roce_stat_id {
	AICC_RS_RX_PKTS,	/* RoCEv2 packets received (LOCAL_IN) */
	AICC_RS_TX_PKTS,	/* RoCEv2 packets sent (LOCAL_OUT) */
	AICC_RS_CE_SEEN,	/* received with CE */
	AICC_RS_CNP_SENT,
	AICC_RS_CNP_RCVD,	/* valid CNPs acted on */
	AICC_RS_CNP_BAD,	/* CNPs ignored: short, bad ICRC, unknown flow/QP */
	AICC_RS_MALFORMED,	/* port-4791 packets too short to parse */
	AICC_RS_CUTS,		/* rate decreases */
	AICC_RS_PACED,		/* packets stamped with a departure time */
	AICC_RS_ECT_MARKED,	/* packets set to ECT(0) */
	AICC_RS_NO_FQ,		/* paced packets whose device has no fq root */
	AICC_RS_FLOWS,		/* flows created */
	AICC_RS_EVICTED,	/* flows replaced: idle, or never sent on */
	AICC_RS_TABLE_FULL,	/* packets of flows that found no slot */
	AICC_RS_ICRC_OK,	/* icrc_check: good ICRC */
	AICC_RS_ICRC_BAD,	/* icrc_check: bad ICRC */
	AICC_RS_HOLD_CAPPED,	/* departure times capped at 100 ms ahead */
	AICC_RS_NAK_SEQ,	/* PSN sequence error NAKs received */
	AICC_RS_CNP_FAILED,	/* CNPs built but not sent (dropped on the way) */
	AICC_ROCE_NR_STATS
};

/* One record of the flows file (little-endian host order). */
struct aicc_roce_flow_rec {
	__u8	valid;		/* 0: empty slot, ignore the rest */
	__u8	family;		/* 4 or 6 */
	__u8	algo;		/* enum aicc_roce_algo the flow runs */
	__u8	pad0;
	__u16	sport;		/* UDP source port (host order) */
	__u16	pad1;
	__u32	local_qpn;	/* learned from received packets, 0: unknown */
	__u32	peer_qpn;	/* learned from sent packets, 0: unknown */
	__u8	laddr[16];	/* IPv6, or IPv4-mapped IPv6 */
	__u8	raddr[16];
	__u64	tx_pkts;
	__u64	tx_bytes;
	__u64	rx_pkts;
	__u64	rx_bytes;
	__u64	ce_seen;	/* received CE-marked packets (as NP) */
	__u64	cnp_sent;	/* as NP, handed to IP and not dropped */
	__u64	cnp_rcvd;	/* as RP */
	__u64	cuts;		/* rate decreases (as RP) */
	__u64	rate_bps;	/* current rate, bit/s */
	__u64	target_bps;	/* target rate, bit/s */
	__u32	alpha;		/* DCQCN alpha (or aicc CE EWMA), 1/1024 */
	__u32	idle_ms;	/* since the last packet */
	__u32	rtt_us;		/* last RTT sample (aicc law), 0: none */
	__u32	pad2;
};

struct aicc_roce_knob_desc {
	const char *name;
	__u32 unit;		/* enum aicc_roce_unit */
	__u32 min;
	__u32 max;
	__u32 def;		/* default */
	const char *desc;
};

struct aicc_roce_name_desc {
	const char *name;
	const char *desc;
};

/* Defined once in module/roce/roce_tables.c (module, tool, simulator). */
extern const struct aicc_roce_knob_desc aicc_roce_knob_desc[AICC_ROCE_NR_KNOBS];
extern const struct aicc_roce_name_desc aicc_roce_stat_desc[AICC_ROCE_NR_STATS];
extern const char *const aicc_roce_algo_name[AICC_ROCE_NR_ALGOS];

#endif /* _UAPI_LINUX_AICC_ROCE_H */
