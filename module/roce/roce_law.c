// SPDX-License-Identifier: GPL-2.0
/*
 * aicc_roce rate laws (see roce_law.h): DCQCN and the aicc core, for one
 * RoCEv2 flow.  Plain C: compiled into the module and the simulator.
 * Divisions happen per event (CNP, increase stage, ACK), never per byte.
 */
#include "roce_law.h"

#define MBPS		1000000ULL
#define Q10		1024U
#define MAX_STAGES_PER_TX	64	/* catch-up after an idle gap */

static inline u64 rmin(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 rmax(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* PSN distance a - b in the 24-bit sequence space, sign-extended. */
static inline s32 psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

void roce_params_defaults(u32 k[AICC_ROCE_NR_KNOBS])
{
	unsigned int i;

	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++)
		k[i] = aicc_roce_knob_desc[i].def;
}

int roce_knob_check(unsigned int id, u64 v)
{
	if (id >= AICC_ROCE_NR_KNOBS)
		return -1;
	if (v < aicc_roce_knob_desc[id].min || v > aicc_roce_knob_desc[id].max)
		return -1;
	return 0;
}

void roce_params_set(struct roce_params *p, const u32 k[AICC_ROCE_NR_KNOBS])
{
	u32 ak[AICC_NR_KNOBS];
	unsigned int i;

	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++)
		p->k[i] = k[i];
	aicc_params_defaults(ak, k[AICC_RK_AICC_PROFILE] % AICC_NR_PROFILES);
	/*
	 * A RoCE sender has no congestion window: the core's pacing rate is
	 * all that limits it.  A TCP profile's pacing gain above one is
	 * headroom under a window that caps what is in flight; here it would
	 * put that many times the window on the path, which the next rounds'
	 * delay and marks then cut back from, and the rate swings.
	 */
	ak[AICC_K_PACING_GAIN] = 1000;
	aicc_params_set(&p->ap, ak);
}

u64 roce_max_rate(const struct roce_params *p)
{
	u32 m = p->k[AICC_RK_RP_MAX_RATE];

	return m ? m * MBPS : ROCE_LINE_RATE_BPS;
}

static u64 min_rate(const struct roce_params *p)
{
	return rmin((u64)p->k[AICC_RK_RP_MIN_RATE] * MBPS, roce_max_rate(p));
}

u64 roce_tx_time_ns(u64 rate_bps, u32 bytes)
{
	if (!rate_bps)
		rate_bps = 1;
	/* bytes * 8e9 / rate; a packet's bytes (< 2^31) keep it in 64 bits */
	return aicc_udiv64((u64)bytes * 8000000000ULL, rate_bps);
}

void roce_rp_init(struct roce_rp *r, const struct roce_params *p, u64 now)
{
	*r = (struct roce_rp){ 0 };
	r->algo = (u8)p->k[AICC_RK_CC_ALGO];
	r->rc = roce_max_rate(p);
	r->rt = r->rc;
	r->alpha = p->k[AICC_RK_RP_INITIAL_ALPHA];
	r->alpha_ts = now;
	r->last_inc = now;
	r->mss = 1024;
	if (r->algo == AICC_ROCE_ALGO_AICC)
		aicc_flow_init(&r->af, &p->ap, 10, r->mss, now, 0, 0, NULL);
}

/* x * (g/1024)^n, Q10, by repeated squaring. */
static u32 alpha_decay(u32 x, u32 g, u64 n)
{
	u64 f = g, acc = Q10;

	if (n >= 4096)
		return 0;
	while (n) {
		if (n & 1)
			acc = (acc * f) >> 10;
		f = (f * f) >> 10;
		n >>= 1;
	}
	return (u32)((x * acc) >> 10);
}

/* Bring alpha up to @now: periods without CNP decay it. */
static void alpha_advance(struct roce_rp *r, const struct roce_params *p,
			  u64 now)
{
	u64 per = (u64)p->k[AICC_RK_RP_DCE_TCP_RTT] * 1000;
	u64 n;

	if (now <= r->alpha_ts || !per)
		return;
	n = aicc_udiv64(now - r->alpha_ts, per);
	if (!n)
		return;
	/*
	 * One update per period: g/1024 of alpha kept, plus the rest of 1
	 * times (1 - g/1024) in a period with a CNP.  The first period that
	 * ended had that update at its CNP already (dcqcn_on_cnp()), keep
	 * factor and all: decaying it once more kept alpha near 0.4 under a
	 * CNP in every period, where DCQCN's tends to 1.
	 */
	r->alpha = alpha_decay(r->alpha, p->k[AICC_RK_RP_DCE_TCP_G],
			       n - r->cnp_period);
	r->alpha_ts += n * per;
	r->cnp_period = 0;
}

static void dcqcn_increase(struct roce_rp *r, const struct roce_params *p)
{
	u32 thr = p->k[AICC_RK_RP_THRESHOLD];
	u64 maxr = roce_max_rate(p);
	u32 t = r->t_stage, b = r->b_stage;

	if (!p->k[AICC_RK_RP_BYTE_RESET])
		b = 0;		/* no byte counter: never hyper increase */
	if (t > thr && b > thr)
		r->rt += (rmin(t, b) - thr) * p->k[AICC_RK_RP_HAI_RATE] * MBPS;
	else if (t > thr || b > thr)
		r->rt += (u64)p->k[AICC_RK_RP_AI_RATE] * MBPS;
	r->rt = rmin(r->rt, maxr);
	r->rc = (r->rc + r->rt + 1) / 2;
	if (r->rc >= maxr - maxr / 1024) {
		r->rc = maxr;
		r->rt = maxr;
		r->cut = 0;	/* back at line rate: next CNP is a first */
	}
}

static unsigned int dcqcn_on_tx(struct roce_rp *r, const struct roce_params *p,
				u64 now, u32 bytes)
{
	u64 per = (u64)p->k[AICC_RK_RP_TIME_RESET] * 1000;
	u32 breset = p->k[AICC_RK_RP_BYTE_RESET];
	unsigned int ev = 0, n = 0;

	if (!r->cut)
		return 0;
	/*
	 * Signed: the caller's clock was read before the flow's lock, and a
	 * CNP handled in between may have stamped last_inc after @now.
	 */
	while (r->cut && (s64)(now - r->last_inc) >= (s64)per &&
	       n < MAX_STAGES_PER_TX) {
		r->last_inc += per;
		if (r->t_stage < 0xffff)
			r->t_stage++;
		dcqcn_increase(r, p);
		ev |= ROCE_EV_INCREASE;
		n++;
	}
	if (n == MAX_STAGES_PER_TX)
		r->last_inc = now;
	if (r->cut && breset) {
		r->bytes += bytes;
		if (r->bytes >= breset) {
			r->bytes = 0;
			if (r->b_stage < 0xffff)
				r->b_stage++;
			dcqcn_increase(r, p);
			ev |= ROCE_EV_INCREASE;
		}
	}
	return ev;
}

static unsigned int dcqcn_on_cnp(struct roce_rp *r, const struct roce_params *p,
				 u64 now)
{
	u64 maxr = roce_max_rate(p), minr = min_rate(p), floor, dec;
	u32 g = p->k[AICC_RK_RP_DCE_TCP_G];

	alpha_advance(r, p, now);
	if (!r->cut) {
		/* first CNP since line rate */
		u32 first = p->k[AICC_RK_RP_RATE_FIRST_CNP];

		r->alpha = p->k[AICC_RK_RP_INITIAL_ALPHA];
		r->alpha_ts = now;
		r->cnp_period = 1;
		r->cut = 1;
		if (first) {
			r->rt = rmin((u64)first * MBPS, maxr);
			r->rc = rmax(r->rt, minr);
			goto cut_done;
		}
	} else {
		if (!r->cnp_period) {
			r->alpha += (u32)(((u64)(Q10 - r->alpha) * (Q10 - g)) >> 10);
			if (r->alpha > Q10 - 1)
				r->alpha = Q10 - 1;
			r->cnp_period = 1;
		}
		if ((s64)(now - r->last_cut) <
		    (s64)p->k[AICC_RK_RP_REDUCE_PERIOD] * 1000)
			return 0;
	}
	r->rt = r->rc;
	dec = (r->rc * r->alpha) >> p->k[AICC_RK_RP_GD];
	floor = aicc_udiv64(r->rc * p->k[AICC_RK_RP_MIN_DEC_FAC], 100);
	r->rc = rmax(r->rc - rmin(dec, r->rc), floor);
	r->rc = rmax(r->rc, minr);
cut_done:
	r->last_cut = now;
	r->last_inc = now;
	r->t_stage = 0;
	r->b_stage = 0;
	r->bytes = 0;
	return ROCE_EV_CUT;
}

/* The aicc law's rate: the core's pacing rate, within the rp_ bounds. */
static void aicc_rate(struct roce_rp *r, const struct roce_params *p)
{
	u64 maxr = roce_max_rate(p);

	if (!r->af.rate) {
		r->rc = maxr;
	} else {
		r->rc = rmin(rmax(r->af.rate * 8, min_rate(p)), maxr);
		r->cut = r->rc < maxr;
	}
	r->rt = r->rc;
	r->alpha = (u32)r->af.alpha >> 5;	/* Q15 -> Q10 */
}

/*
 * The rate bounds as they are now: rp_max_rate and rp_min_rate apply to
 * the flows already running too, not only to the next ones.  A flow not
 * cut since it started runs at the cap, whatever the cap is now.
 */
static void clamp_rates(struct roce_rp *r, const struct roce_params *p)
{
	u64 maxr = roce_max_rate(p), minr = min_rate(p);

	if (!r->cut) {
		r->rc = maxr;
		r->rt = maxr;
		return;
	}
	r->rc = rmin(rmax(r->rc, minr), maxr);
	r->rt = rmin(rmax(r->rt, r->rc), maxr);
}

unsigned int roce_rp_on_tx(struct roce_rp *r, const struct roce_params *p,
			   u64 now, u64 depart, u32 bytes, u32 psn, bool ackreq)
{
	if (r->algo == AICC_ROCE_ALGO_DCQCN || r->algo == AICC_ROCE_ALGO_AICC)
		clamp_rates(r, p);
	if (r->algo == AICC_ROCE_ALGO_DCQCN)
		return dcqcn_on_tx(r, p, now, bytes);
	if (r->algo != AICC_ROCE_ALGO_AICC || psn == ROCE_PSN_NONE)
		return 0;
	psn &= ROCE_PSN_MASK;
	if (!r->have_psn) {
		r->una_psn = psn;
		r->nxt_psn = psn;
		r->have_psn = 1;
	}
	if (psn_diff(psn + 1, r->nxt_psn) > 0)
		r->nxt_psn = (psn + 1) & ROCE_PSN_MASK;
	if (bytes > r->mss && bytes < 0xffff)
		r->mss = (u16)bytes;
	if (ackreq && !r->timing) {
		r->timing = 1;
		r->timed_psn = psn;
		r->timed_ns = depart;	/* our own pacing delay is no RTT */
		r->timed_del = r->delivered;
	}
	return 0;
}

unsigned int roce_rp_on_ack(struct roce_rp *r, const struct roce_params *p,
			    u64 now, u32 psn, enum roce_ack_kind kind)
{
	struct aicc_sample s = { 0 };
	unsigned int ev;
	s32 acked;

	if (r->algo != AICC_ROCE_ALGO_AICC || !r->have_psn)
		return 0;
	/* a NAK acknowledges the packets before its PSN */
	psn = (kind == ROCE_ACK ? psn : psn - 1) & ROCE_PSN_MASK;
	acked = psn_diff(psn + 1, r->una_psn);
	if (acked < 0 || psn_diff(psn, r->nxt_psn) >= 0)
		return 0;	/* stale, or beyond anything sent */
	/* a sequence error is news even when it acknowledges nothing */
	if (!acked && kind != ROCE_NAK_SEQ)
		return 0;
	r->una_psn = (psn + 1) & ROCE_PSN_MASK;
	r->delivered += acked;
	if (r->cnp_pending) {
		r->delivered_ce += acked;
		r->cnp_pending = 0;
	}
	s.now_ns = now;
	s.rtt_ns = -1;
	s.prior_delivered = r->delivered - acked;
	if (r->timing && psn_diff(psn, r->timed_psn) >= 0) {
		/* 0 or less (a clock read before the send's): no sample */
		s.rtt_ns = (s64)(now - r->timed_ns);
		if (s.rtt_ns <= 0)
			s.rtt_ns = -1;
		s.prior_delivered = r->timed_del;
		if (s.rtt_ns > 0)
			r->rtt_us = (u32)rmin((u64)s.rtt_ns / 1000,
					      0xffffffffULL);
		r->timing = 0;
	}
	s.delivered = r->delivered;
	s.delivered_ce = r->delivered_ce;
	s.acked = (u32)acked;
	s.losses = kind == ROCE_NAK_SEQ;
	s.inflight = (u32)rmax(psn_diff(r->nxt_psn, r->una_psn), 0);
	s.mss = r->mss;
	ev = aicc_on_ack(&r->af, &p->ap, &s);
	aicc_rate(r, p);
	return (ev & (AICC_EV_DELAY_CUT | AICC_EV_ECN_CUT | AICC_EV_LOSS_CUT)) ?
	       ROCE_EV_CUT : 0;
}

unsigned int roce_rp_on_cnp(struct roce_rp *r, const struct roce_params *p,
			    u64 now)
{
	if (r->algo == AICC_ROCE_ALGO_DCQCN)
		return dcqcn_on_cnp(r, p, now);
	if (r->algo == AICC_ROCE_ALGO_AICC)
		r->cnp_pending = 1;
	return 0;
}
