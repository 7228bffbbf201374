/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc_roce rate laws: the reaction point of one RoCEv2 flow, as plain C
 * compiled into aicc_roce.ko and into the simulator (tools/sim/roce.c).
 *
 * The caller feeds it four events and reads back one output, the rate in
 * bit/s (r->rc) at which the flow's packets are paced:
 *
 *   roce_rp_init()    a flow appears (its rate starts at the line rate)
 *   roce_rp_on_tx()   a packet leaves at @depart (timer and byte-counter
 *                     recovery; the aicc law times ACK-requesting packets
 *                     from their departure, not from the pacing wait, and
 *                     tracks the PSNs of requests only: a response is sent
 *                     with ROCE_PSN_NONE)
 *   roce_rp_on_ack()  an RC acknowledgment or NAK arrives (aicc law only)
 *   roce_rp_on_cnp()  a CNP arrives for the flow
 *
 * DCQCN (Zhu et al., SIGCOMM 2015), with mlx5's parameter names: on a CNP,
 * at most once per rp_rate_reduce_monitor_period, the target becomes the
 * current rate and the current rate drops by alpha / 2^(rp_gd - 10); alpha
 * (Q10) keeps rp_dce_tcp_g / 1024 of itself every rp_dce_tcp_rtt and gains
 * the rest in a period that saw a CNP.  Every rp_time_reset (and every
 * rp_byte_reset bytes) without a cut is a stage: the first rp_threshold
 * stages only move the current rate halfway to the target (fast
 * recovery), later ones also raise the target by rp_ai_rate, and once
 * both counters pass the threshold by rp_hai_rate per stage.
 *
 * aicc: the TCP controller of module/core, driven by samples built from
 * the RoCE flow: an RTT sample per acknowledged ACK-requesting packet,
 * delivered packets from the acknowledged PSNs, and CE marks from CNPs
 * (the packets an ACK covers count as marked when a CNP came since the
 * previous ACK).  The rate is the core's pacing rate.
 */
#ifndef _AICC_ROCE_LAW_H
#define _AICC_ROCE_LAW_H

#include "../core/aicc_core.h"
#include "../../uapi/aicc_roce.h"

#define ROCE_LINE_RATE_BPS	100000000000ULL	/* rp_max_rate 0 */
#define ROCE_PSN_MASK		0xffffffU
/*
 * roce_rp_on_tx()'s PSN for a packet outside the flow's own sequence: a
 * response this host sends as the responder (an ACK, a read response)
 * carries the PSN of the peer's request, from the peer's sequence.
 */
#define ROCE_PSN_NONE		0xffffffffU

struct roce_params {
	u32 k[AICC_ROCE_NR_KNOBS];
	struct aicc_params ap;		/* aicc law, from k[AICC_PROFILE] */
};

struct roce_rp {
	u64 rc;			/* current rate, bit/s */
	u64 rt;			/* target rate, bit/s */
	u64 alpha_ts;		/* start of the current alpha period, ns */
	u64 last_cut;		/* ns */
	u64 last_inc;		/* last increase stage, ns */
	u64 bytes;		/* bytes since the last byte stage */
	u32 alpha;		/* Q10 */
	u16 t_stage;
	u16 b_stage;
	u8 algo;		/* enum aicc_roce_algo this state runs */
	u8 cut;			/* below line rate since a CNP */
	u8 cnp_period;		/* the current alpha period saw a CNP */
	u8 timing;		/* aicc: a packet's RTT is being timed */
	/* aicc law */
	u32 nxt_psn;		/* highest PSN sent + 1 */
	u32 una_psn;		/* lowest PSN not acknowledged */
	u32 timed_psn;
	u32 delivered;
	u32 delivered_ce;
	u32 timed_del;		/* delivered when timed_psn left */
	u32 rtt_us;		/* last sample */
	u8 cnp_pending;
	u8 have_psn;
	u16 mss;
	u64 timed_ns;
	struct aicc_flow af;
};

/*
 * What an RC acknowledgment says of its PSN.  A NAK's PSN is the packet the
 * responder expected next: the ones before it arrived, it did not.
 */
enum roce_ack_kind {
	ROCE_ACK,	/* delivered up to and including the PSN */
	ROCE_NAK_SEQ,	/* PSN sequence error: the PSN was lost */
	ROCE_NAK_RNR,	/* receiver not ready: the PSN was refused */
};

/* Events returned, for counters. */
#define ROCE_EV_CUT		0x1
#define ROCE_EV_INCREASE	0x2

void roce_params_defaults(u32 k[AICC_ROCE_NR_KNOBS]);
int roce_knob_check(unsigned int id, u64 v);
void roce_params_set(struct roce_params *p, const u32 k[AICC_ROCE_NR_KNOBS]);

void roce_rp_init(struct roce_rp *r, const struct roce_params *p, u64 now);
unsigned int roce_rp_on_tx(struct roce_rp *r, const struct roce_params *p,
			   u64 now, u64 depart, u32 bytes, u32 psn,
			   bool ackreq);
unsigned int roce_rp_on_ack(struct roce_rp *r, const struct roce_params *p,
			    u64 now, u32 psn, enum roce_ack_kind kind);
unsigned int roce_rp_on_cnp(struct roce_rp *r, const struct roce_params *p,
			    u64 now);
u64 roce_max_rate(const struct roce_params *p);

/* ns a packet of @bytes occupies at @rate_bps (at least 1 bit/s). */
u64 roce_tx_time_ns(u64 rate_bps, u32 bytes);

#endif /* _AICC_ROCE_LAW_H */
