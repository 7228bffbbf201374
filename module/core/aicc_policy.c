// SPDX-License-Identifier: GPL-2.0
/*
 * aicc core: the learned policy, evaluated once per round inside the
 * classic controller's envelope.
 *
 * At the end of every round in which the classic controller would decide
 * (TRACK or RESUME), end_round() asks aicc_policy_round() for two
 * multipliers, 0.5 .. 2 each: one for the round's queueing-delay target,
 * one for its increase.  The classic law then runs as always with them,
 * and every classic bound still applies after: target_min/target_max,
 * max_mdf, min_cwnd, the loss and ECN cuts.  The multipliers are 1 -- the
 * classic controller alone -- when
 *
 *   - no model is loaded (or the model does not cover the flow's profile),
 *   - any input lies outside the range the model was trained on,
 *   - the watchdog tripped: AICC_POL_WD_ROUNDS of the last eight rounds
 *     under the model each saw a loss or a queueing delay above
 *     AICC_POL_WD_DELAY_X times the classic target; the flow then stays
 *     classic for AICC_POL_HOLD_ROUNDS rounds that the model would have
 *     driven (fast start and LOSS rounds do not count) before it tries
 *     the model again.
 *
 * Each case is an event (AICC_EV_POL_*) that the glue counts in sysfs.
 *
 * Integers only; the divisions (aicc_udiv64, no hardware divide) happen
 * here, once per round, never per ACK.  Per-flow state: del_max (2 bytes),
 * pol_hist and pol_hold (1 byte each), flag bits AICC_F_POLICY and
 * AICC_F_POL_LOSS.
 */
#include "aicc_core.h"
#include "aicc_policy.h"

static s16 sat16(s64 v)
{
	if (v > 32767)
		return 32767;
	if (v < -32768)
		return -32768;
	return (s16)v;
}

static s32 clamp_one(s32 v)
{
	if (v > AICC_POL_ONE)
		return AICC_POL_ONE;
	if (v < -AICC_POL_ONE)
		return -AICC_POL_ONE;
	return v;
}

bool aicc_model_eval(const struct aicc_model *m, const s16 *x, s16 *y)
{
	s32 n[AICC_MODEL_NR_IN], h[AICC_MODEL_MAX_HIDDEN];
	unsigned int i, j, k;
	bool in_range = true;

	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		if (x[i] < m->in_min[i] || x[i] > m->in_max[i])
			in_range = false;
		n[i] = sat16(((s64)x[i] - m->in_off[i]) * m->in_gain[i] >>
			     AICC_MODEL_Q);
	}
	for (j = 0; j < m->n_hidden; j++) {
		s32 acc = m->b1[j];

		for (i = 0; i < AICC_MODEL_NR_IN; i++)
			acc += (s32)m->w1[j][i] * n[i];
		h[j] = clamp_one(acc >> m->shift1);
	}
	for (k = 0; k < AICC_MODEL_NR_OUT; k++) {
		s32 acc = m->b2[k];

		for (j = 0; j < m->n_hidden; j++)
			acc += (s32)m->w2[k][j] * h[j];
		y[k] = (s16)clamp_one(acc >> m->shift2);
	}
	return in_range;
}

/* ------------------------------------------------------------------ */
/* Features                                                             */

/* del_max is a 16-bit float: 11-bit mantissa, 5-bit exponent. */
static u32 dm_decode(u16 c)
{
	return (u32)(c & 2047) << (c >> 11);
}

static u16 dm_encode(u32 v)
{
	unsigned int e = 0;

	while (v >= 2048) {
		v >>= 1;
		e++;
	}
	return (u16)(e << 11 | v);
}

/* x << 12 / d for d > 0, saturating at 32767 */
static s16 ratio_q12(u64 x, u64 d)
{
	if (!d)
		return x ? 32767 : 0;
	while (x >> 50) {
		x >>= 1;
		d >>= 1;
	}
	if (!d || (x >> 3) >= d)
		return 32767;
	return (s16)aicc_udiv64(x << AICC_MODEL_Q, d);
}

/* log2(v) for v > 0, Q12, with a linear fraction */
static s32 log2_q12(u64 v)
{
	int msb = 63 - __builtin_clzll(v);
	u64 frac = msb >= 12 ? (v >> (msb - 12)) & 4095 :
			       (v << (12 - msb)) & 4095;

	return msb * AICC_POL_ONE + (s32)frac;
}

void aicc_policy_features(const struct aicc_flow *f,
			  const struct aicc_pol_in *in, s16 *x)
{
	u32 base = f->base_rtt;
	u32 rtt = in->rtt ? in->rtt : base;
	u32 busy;
	s64 g;

	x[AICC_MI_QDELAY] = ratio_q12(f->qdelay, in->target);

	g = 0;
	if (in->rtt && in->prev_rtt && base) {
		u64 d = in->rtt > in->prev_rtt ? in->rtt - in->prev_rtt :
						 in->prev_rtt - in->rtt;

		g = ratio_q12(d, base);
		if (in->rtt < in->prev_rtt)
			g = -g;
	}
	x[AICC_MI_GRADIENT] = (s16)g;
	x[AICC_MI_ALPHA] = (s16)(f->alpha >> 3);
	x[AICC_MI_DELIVERY] = ratio_q12(in->del, dm_decode(f->del_max));
	x[AICC_MI_WIN_BDP] = ratio_q12(aicc_mul_shr(f->cwnd, rtt, 16),
				       (u64)in->del * base);
	busy = aicc_busy_span(f, in->now_ns);	/* ~us */
	x[AICC_MI_BUSY] = ratio_q12((u64)busy << 10, (u64)base * 8);
	x[AICC_MI_WINDOW] = sat16((log2_q12(f->cwnd ? f->cwnd : 1) -
				   16 * AICC_POL_ONE) / 4);
	x[AICC_MI_CE_FRAC] = ratio_q12(in->ce < in->del ? in->ce : in->del,
				       in->del);
}

/* ------------------------------------------------------------------ */
/* Envelope and watchdog                                                */

/* the number of bits set in a byte */
static unsigned int bits8(u8 v)
{
	v = v - ((v >> 1) & 0x55);
	v = (v & 0x33) + ((v >> 2) & 0x33);
	return (v + (v >> 4)) & 0x0f;
}

#ifndef __KERNEL__
void (*aicc_policy_observer)(const s16 *x);
#endif

unsigned int aicc_policy_round(struct aicc_flow *f,
			       const struct aicc_model *m,
			       const struct aicc_pol_in *in,
			       u32 *tscale, u32 *gscale)
{
	unsigned int ev = 0;
	s16 x[AICC_MODEL_NR_IN], y[AICC_MODEL_NR_OUT];
	u32 dm = dm_decode(f->del_max);
	bool bad;

	*tscale = AICC_ONE;
	*gscale = AICC_ONE;

	/* the recent maximum of the delivery per round, decaying 1/8 */
	dm -= dm >> 3;
	f->del_max = dm_encode(in->del > dm ? in->del : dm);

	/*
	 * Watchdog: judge the round that the model drove, into a history of
	 * the model's last eight rounds.  Counting bad rounds among the last
	 * eight, not bad rounds in a row, also catches a flow that is bad
	 * every other round: under heavy random loss a round of a few
	 * packets often passes without a loss.
	 */
	bad = (f->flags & AICC_F_POL_LOSS) ||
	      (u64)f->qdelay > (u64)in->target * AICC_POL_WD_DELAY_X;
	if (m && (f->flags & AICC_F_POLICY)) {
		f->pol_hist = (u8)(f->pol_hist << 1) | bad;
		if (bits8(f->pol_hist) >= AICC_POL_WD_ROUNDS) {
			f->pol_hist = 0;
			f->pol_hold = AICC_POL_HOLD_ROUNDS;
			ev |= AICC_EV_POL_WATCHDOG;
		}
	}
	f->flags &= ~(AICC_F_POLICY | AICC_F_POL_LOSS);
	if (!m) {
		/*
		 * Unloaded (or not for this profile): nothing is counted, a
		 * round the old model drove is not judged, and a model
		 * loaded later starts with a clean history and no hold.
		 */
		f->pol_hist = 0;
		f->pol_hold = 0;
		return ev;
	}

	/*
	 * Fast start and a timeout's LOSS round are no decision rounds:
	 * classic anyway, neither counted as held nor taken off the hold.
	 */
	if (f->mode != AICC_MODE_TRACK && f->mode != AICC_MODE_RESUME)
		return ev;
	if (f->pol_hold) {
		f->pol_hold--;
		return ev | AICC_EV_POL_HOLD;
	}

	aicc_policy_features(f, in, x);
#ifndef __KERNEL__
	if (aicc_policy_observer)
		aicc_policy_observer(x);
#endif
	if (!aicc_model_eval(m, x, y))
		return ev | AICC_EV_POL_RANGE;
	*tscale = aicc_pol_scale_q16(y[AICC_MO_TARGET]);
	*gscale = aicc_pol_scale_q16(y[AICC_MO_GAIN]);
	f->flags |= AICC_F_POLICY;
	return ev | AICC_EV_POL_EVAL;
}
