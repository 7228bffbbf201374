// SPDX-License-Identifier: GPL-2.0
/*
 * aicc: congestion control for AI-cluster traffic -- the control law.
 *
 * AI training and inference traffic is many long-lived connections that burst
 * in lock-step (all-reduce, all-to-all incast), go idle while GPUs compute,
 * and burst again; the slowest flow sets the step time.  aicc keeps the
 * bottleneck queue near-empty while holding line rate, shares fairly within a
 * few round trips, and resumes at the converged rate after idle gaps.
 *
 * Signals, per round trip (a "round" ends when a packet sent after the round
 * began is acknowledged):
 *
 *   base   = windowed minimum RTT                       (min_rtt_win_ms)
 *   d      = min RTT sample of this and the previous round - base
 *            (queueing delay; a spike of host or scheduling noise has to
 *            last two rounds to count)
 *   d1     = min RTT sample of this round alone - base (stops growth a
 *            round before d can confirm a cut)
 *   F      = CE-marked / delivered packets of the round
 *   alpha <- alpha + ecn_g * (F - alpha)                 as DCTCP's alpha
 *
 * Target queueing delay, scale-free (relative to the base RTT), plus a
 * flow-scaling term that grows as the window shrinks so that hundreds of
 * small flows in an incast converge fairly instead of starving (Swift):
 *
 *   T = clamp(target * base + fs(cwnd), target_min, target_max)
 *   fs(w) = fs_range * base * clamp((1/sqrt(w) - 1/sqrt(fs_max)) /
 *                                   (1/sqrt(fs_min) - 1/sqrt(fs_max)), 0, 1)
 *
 * Window update at the end of each round (at most one decrease per round):
 *
 *   loss seen:      w <- w * (1 - loss_beta)         (immediately, per ACK)
 *   d > T:          w <- w * (1 - min(beta * (d - T) / d, max_mdf))
 *                   (not in app-limited rounds)
 *   CE seen:        w <- w * (1 - min(ecn_beta * alpha, max_mdf))
 *                   (the larger of the two cuts)
 *   d1 > T:         w unchanged (d1: this round's delay alone)
 *   w * min(1, gain * (base + d1) / (base + T)) > 1.25 * delivered + 2:
 *                   w unchanged (the round did not use its window)
 *   otherwise:      w <- w + ai * max(1, 1/w) + mi * w * (T - d) / T
 *                   (not in app-limited rounds)
 *   RTO:            w <- min(w, packets delivered in the last round)
 *
 * The round after a cut is held -- neither cut nor grown -- because its
 * delay and marks belong to packets sent before the cut.  A window below
 * one packet sends one packet per several round trips, so its additive
 * increase is scaled by 1/w (up to 16x) to stay ai per round trip of time.
 *
 * The window is kept in 1/65536 packets and may fall below one packet
 * (down to min_cwnd: one packet in every shipped profile, aicc_defaults.h,
 * and 0.001 packet at the knob's lowest; a window of w packets takes about
 * 1/w round trips to notice spare capacity, so much smaller windows leave
 * the last flows of a collective crawling after the others finished).
 * The kernel is given at least two whole packets and the pacing rate
 * carries the fractional window:
 *
 *   rate = gain * w * mss / (base + T),  gain = pacing_gain (2 in fast
 *                                        start, 1 when w < gain_min_cwnd)
 *
 * From gain_min_cwnd (one packet shipped) up, the rate runs ahead of the
 * window and TCP's two packets bind (pacing_gain() below).
 *
 * Pacing uses the RTT the flow aims for, base + T, not the smoothed RTT: an
 * RTT inflated by a queue (or by a receiver's delayed ACKs at low rates)
 * must not slow the pacing down further, which would feed on itself.
 *
 * States (enum aicc_mode):
 *
 *   START   fast start: the window grows by the ACKed packets (doubling per
 *           round, to at most 4 times what the last round delivered) until
 *           the queueing delay exceeds start_exit * T (the round's minimum,
 *           or one ACK's sample and the smoothed RTT both), a CE mark
 *           arrives or a packet is lost.  A flow that finds a remembered
 *           rate for its peer skips START and begins in TRACK at that rate.
 *   TRACK   the control law above.
 *   LOSS    one round after a retransmission timeout; the window restarts
 *           from what the path actually delivered, not from one packet.
 *   RESUME  the first round after an idle gap shorter than rate_memory_ms:
 *           the flow resumes at the rate it delivered over its last busy
 *           period (its window that rate times base + T, paced at gain 1)
 *           -- in an N-to-1 collective, its fair share -- not at its last
 *           window, which grew as other flows of the collective finished;
 *           so the next collective starts at the right speed.  Only a busy
 *           period that met congestion (a mark, a loss, a round's queue
 *           above target) measured the path; after one that met none, the
 *           window stays.  Longer gaps fall back to START.
 *
 * Arithmetic is fixed point, no floating point, no allocation.  The per-ACK
 * path uses additions, multiplications and shifts only; the few quotients
 * needed once per round go through aicc_udiv64(), a shift-subtract division
 * that uses no hardware divide and gives identical results in the kernel
 * and in userspace.
 */
#include "aicc_core.h"
#include "aicc_defaults.h"
#include "aicc_policy.h"

#define NSEC_PER_SEC_U32	1000000000U
#define ALPHA_ONE		32768U		/* alpha is Q15 */
#define AICC_SUBPKT_AI_MAX	16	/* sub-packet AI boost, at most */
#define AICC_TARGET_PKTS	2	/* target floor, packet times */
#define AICC_START_MUL		4	/* fast start: at most 4 * last round */
#define AICC_START_SLACK	16	/* ... + 16 packets */

/* ------------------------------------------------------------------ */
/* Fixed-point helpers                                                  */

/* floor(n / d) without a hardware divide; d == 0 gives the maximum. */
u64 aicc_udiv64(u64 n, u64 d)
{
	u64 q = 0;
	int sh;

	if (!d)
		return ~0ULL;
	if (n < d)
		return 0;
	sh = __builtin_clzll(d) - __builtin_clzll(n);
	d <<= sh;
	for (; sh >= 0; sh--) {
		q <<= 1;
		if (n >= d) {
			n -= d;
			q |= 1;
		}
		d >>= 1;
	}
	return q;
}

/*
 * aicc_mul_shr() for compilers without a 128-bit type: the product from
 * four 32x32 multiplications.  Also built where __int128 exists, so the
 * unit tests compare the two.
 */
u64 aicc_mul_shr_portable(u64 a, u64 b, unsigned int shift)
{
	u64 al = (u32)a, ah = a >> 32, bl = (u32)b, bh = b >> 32;
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;
	u64 lo = (mid << 32) | (u32)ll;
	u64 hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);

	if (shift >= 64)
		return shift >= 128 ? 0 : hi >> (shift - 64);
	if (!shift)
		return hi ? ~0ULL : lo;
	if (hi >> shift)
		return ~0ULL;
	return (hi << (64 - shift)) | (lo >> shift);
}

/* floor(sqrt(x)) */
u32 aicc_isqrt64(u64 x)
{
	u64 r = 0, bit;

	if (!x)
		return 0;
	/* the highest power of four not above x */
	bit = 1ULL << ((63 - __builtin_clzll(x)) & ~1);
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (u32)r;
}

static inline u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* value in 1/1000 -> Q16 */
static u32 permille_q16(u32 v)
{
	return (u32)aicc_udiv64((u64)v << 16, 1000);
}

/* 1/sqrt(x / 1000) in Q16, for x in 1/1000 packets */
static u32 inv_sqrt_mpkt_q16(u64 mpkt)
{
	/* sqrt(mpkt / 1000) in Q16 = sqrt(mpkt * 2^32 / 1000) */
	u32 s = aicc_isqrt64(aicc_udiv64(mpkt << 32, 1000));

	return s ? (u32)min_u64(aicc_udiv64(1ULL << 32, s), 0xffffffffULL) :
		   0xffffffffU;
}

/*
 * 2^32 * 1e9 / rtt_ns: converts bytes per RTT into bytes per second.  64
 * bits: base + target can pass 2^32 ns (each is up to AICC_RTT_MAX_NS).
 */
static u64 inv_rtt_of(u64 rtt_ns)
{
	return aicc_udiv64((u64)NSEC_PER_SEC_U32 << 32, rtt_ns ? rtt_ns : 1);
}

/*
 * inv_rtt for base + target, once a round: most rounds change neither, and
 * two multiplications confirm that the quotient already held is exact
 * (q * d <= n < (q + 1) * d) at a fraction of a division's cost.
 */
static void refresh_inv_rtt(struct aicc_flow *f)
{
	u64 rt = (u64)f->base_rtt + f->target;
	u64 n = (u64)NSEC_PER_SEC_U32 << 32;
	u64 qd;

	if (!rt)
		rt = 1;
	qd = aicc_mul_shr(f->inv_rtt, rt, 0);
	if (!f->inv_rtt || qd > n || n - qd >= rt)
		f->inv_rtt = inv_rtt_of(rt);
}

/* bytes/s * ns / 1e9 (1e9 = 2^9 * 1953125) */
static u64 bytes_in(u64 rate, u64 ns)
{
	return aicc_udiv64(aicc_mul_shr(rate, ns, 9), 1953125);
}

static inline u32 clamp_rtt(s64 rtt)
{
	if (rtt <= 0)
		return 1;
	return rtt > AICC_RTT_MAX_NS ? AICC_RTT_MAX_NS : (u32)rtt;
}

/* Coarse clock for ages and windows: units of 2^20 ns (about 1 ms). */
static inline u32 coarse(u64 now_ns)
{
	return (u32)(now_ns >> 20);
}

/* ------------------------------------------------------------------ */
/* Parameters                                                           */

void aicc_params_defaults(u32 knob[AICC_NR_KNOBS], unsigned int profile)
{
	unsigned int i;

	if (profile >= AICC_NR_PROFILES)
		profile = AICC_PROF_COLL;
	for (i = 0; i < AICC_NR_KNOBS; i++)
		knob[i] = aicc_default_knobs[profile][i];
}

/* 0 if @value is acceptable for knob @id, -1 otherwise. */
int aicc_knob_check(unsigned int id, u64 value)
{
	if (id >= AICC_NR_KNOBS)
		return -1;
	if (value < aicc_knob_desc[id].min || value > aicc_knob_desc[id].max)
		return -1;
	return 0;
}

/*
 * Parse a value written to a sysfs file, by the rules of the kernel's
 * kstrtou64(buf, 10, ...): an optional '+', one or more decimal digits, at
 * most one newline, then the end of the string; the value must fit in 64
 * bits.  0 and *out set, or -1 and *out untouched.  Plain C so that the
 * fuzzer (tools/fuzz) runs the module's own parser.
 */
int aicc_parse_u64(const char *buf, u64 *out)
{
	const char *s = buf;
	u64 v = 0;
	unsigned int d;

	if (*s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		d = *s - '0';
		if (v > (~0ULL - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (*s == '\n')
		s++;
	if (*s)
		return -1;
	*out = v;
	return 0;
}

/* A write to knob file @id: aicc_parse_u64() and aicc_knob_check(). */
int aicc_knob_parse(unsigned int id, const char *buf, u32 *out)
{
	u64 v;

	if (aicc_parse_u64(buf, &v) || aicc_knob_check(id, v))
		return -1;
	*out = (u32)v;
	return 0;
}

/* A write of a value in [@min, @max] to a global file such as rate_memory. */
int aicc_parse_u32_range(const char *buf, u32 min, u32 max, u32 *out)
{
	u64 v;

	if (aicc_parse_u64(buf, &v) || v < min || v > max)
		return -1;
	*out = (u32)v;
	return 0;
}

/* 0 if @n is a valid rate_memory_entries (a power of two in range). */
int aicc_mem_entries_check(u64 n)
{
	if (n < AICC_MEM_ENTRIES_MIN || n > AICC_MEM_ENTRIES_MAX ||
	    (n & (n - 1)))
		return -1;
	return 0;
}

void aicc_params_set(struct aicc_params *p, const u32 knob[AICC_NR_KNOBS])
{
	u64 v;
	unsigned int i;

	for (i = 0; i < AICC_NR_KNOBS; i++)
		p->knob[i] = knob[i];

	p->target_q16 = permille_q16(knob[AICC_K_TARGET]);
	p->target_min_ns = (u32)min_u64((u64)knob[AICC_K_TARGET_MIN] * 1000,
					AICC_RTT_MAX_NS);
	p->target_max_ns = (u32)min_u64((u64)knob[AICC_K_TARGET_MAX] * 1000,
					AICC_RTT_MAX_NS);
	if (p->target_max_ns < p->target_min_ns)
		p->target_max_ns = p->target_min_ns;

	p->fs_range_q16 = permille_q16(knob[AICC_K_FS_RANGE]);
	p->fs_isq_min = inv_sqrt_mpkt_q16(knob[AICC_K_FS_MIN_CWND]);
	p->fs_isq_max = inv_sqrt_mpkt_q16((u64)knob[AICC_K_FS_MAX_CWND] * 1000);
	if (p->fs_isq_min > p->fs_isq_max)
		p->fs_norm = (u32)min_u64(aicc_udiv64(1ULL << 32,
					p->fs_isq_min - p->fs_isq_max),
					0xffffffffULL);
	else
		p->fs_norm = 0;	/* empty range: a step (flow_scaling()) */

	p->ai_q16 = (u32)aicc_udiv64((u64)knob[AICC_K_AI] << 16, 1000);
	p->mi_q16 = permille_q16(knob[AICC_K_MI]);
	p->beta_q16 = permille_q16(knob[AICC_K_BETA]);
	p->max_mdf_q16 = permille_q16(knob[AICC_K_MAX_MDF]);
	p->ecn_g_q16 = permille_q16(knob[AICC_K_ECN_G]);
	p->ecn_beta_q16 = permille_q16(knob[AICC_K_ECN_BETA]);
	p->loss_beta_q16 = permille_q16(knob[AICC_K_LOSS_BETA]);
	p->min_cwnd_q16 = (u32)aicc_udiv64((u64)knob[AICC_K_MIN_CWND] << 16,
					   1000);
	if (!p->min_cwnd_q16)
		p->min_cwnd_q16 = 1;
	p->pacing_gain_q16 = permille_q16(knob[AICC_K_PACING_GAIN]);
	p->gain_min_cwnd_q16 = permille_q16(knob[AICC_K_GAIN_MIN_CWND]);
	p->start_exit_q16 = permille_q16(knob[AICC_K_START_EXIT]);

	/* rounded up: an entry is fresh while younger (aicc_mem.c) */
	v = (u64)knob[AICC_K_MEM_LIFE] * 1000000;
	p->mem_life_ns_hi = (u32)((v + (1 << 20) - 1) >> 20);
	v = (u64)knob[AICC_K_RTT_WIN] * 1000000;
	p->rtt_win_ns_hi = (u32)(v >> 20);

	p->pacing_min = (u64)knob[AICC_K_PACING_MIN] * 125;
	p->pacing_max = (u64)knob[AICC_K_PACING_MAX] * 125;
	if (p->pacing_max && p->pacing_max < p->pacing_min)
		p->pacing_max = p->pacing_min;
}

/* ------------------------------------------------------------------ */
/* The controller                                                       */

static void clamp_cwnd(struct aicc_flow *f, const struct aicc_params *p)
{
	if (f->cwnd < p->min_cwnd_q16)
		f->cwnd = p->min_cwnd_q16;
	else if (f->cwnd > AICC_CWND_MAX)
		f->cwnd = AICC_CWND_MAX;
}

/*
 * The pacing gain (Q16) of the flow's mode and window.  Below
 * gain_min_cwnd the rate alone carries the window (gain 1): for windows
 * under TCP's floor of two packets that is what makes them sub-packet or
 * fractional, which a fan-in of hundreds needs.  From gain_min_cwnd up the
 * rate runs ahead of the window and the window (at least two packets)
 * binds: the ACK clock serves the flows of a shared queue in turn.
 */
static u64 pacing_gain(const struct aicc_flow *f, const struct aicc_params *p)
{
	if (f->mode == AICC_MODE_START)
		return 2 * AICC_ONE;
	if (f->mode == AICC_MODE_RESUME || f->cwnd < p->gain_min_cwnd_q16)
		return AICC_ONE;
	return p->pacing_gain_q16;
}

/* Pacing rate from the window; multiplications only. */
static inline void update_rate(struct aicc_flow *f,
			       const struct aicc_params *p)
{
	u64 gain, rate;

	if (!f->inv_rtt) {
		f->rate = 0;	/* no RTT yet: leave pacing to the caller */
		return;
	}
	gain = pacing_gain(f, p);

	/* cwnd(Q16) * mss -> bytes per RTT (Q16) -> bytes/s */
	rate = aicc_mul_shr(f->cwnd * f->mss, f->inv_rtt, 48);
	rate = aicc_mul_shr(rate, gain, 16);
	if (rate < p->pacing_min)
		rate = p->pacing_min;
	if (p->pacing_max && rate > p->pacing_max)
		rate = p->pacing_max;
	f->rate = rate ? rate : 1;
}

/* Flow-scaling addition to the target, in ns. */
static u64 flow_scaling(const struct aicc_flow *f, const struct aicc_params *p)
{
	u64 sq, isq, g;

	if (!p->fs_range_q16)
		return 0;
	sq = aicc_isqrt64(f->cwnd << 16);	/* sqrt(packets), Q16 */
	isq = sq ? aicc_udiv64(1ULL << 32, sq) : ~0ULL;
	if (isq <= p->fs_isq_max)
		return 0;
	/*
	 * At or below fs_min_cwnd, all of it; with fs_min_cwnd at (or
	 * above) fs_max_cwnd the range is a step there (fs_norm 0).
	 */
	if (isq >= p->fs_isq_min || !p->fs_norm)
		g = AICC_ONE;
	else
		g = aicc_mul_shr(isq - p->fs_isq_max, p->fs_norm, 16);
	if (g > AICC_ONE)
		g = AICC_ONE;
	return aicc_mul_shr(aicc_mul_shr(f->base_rtt, p->fs_range_q16, 16), g,
			    16);
}

static u32 compute_target(const struct aicc_flow *f,
			  const struct aicc_params *p)
{
	u64 t = aicc_mul_shr(f->base_rtt, p->target_q16, 16) +
		flow_scaling(f, p);

	/*
	 * Never below AICC_TARGET_PKTS packet times at the flow's own rate
	 * (base / w): with delayed ACKs a sample carries up to a packet of
	 * ACK delay and a packet of queue behind its pair even when no queue
	 * stands, so a smaller target is under the noise, and the flow cuts
	 * on it and leaves the link idle.  That happens on small-BDP paths
	 * (a 20 Mbit/s, 5 ms path: 8 packets, 0.6 ms each) with a target of
	 * a few per cent of the base RTT.  Only while the floor is at most
	 * half a base RTT (w >= 2 * AICC_TARGET_PKTS): at windows of a few
	 * packets flow scaling sets the target, and a floor there leaves a
	 * standing queue that latecomers measure into their base RTT.
	 */
	if (f->cwnd >= (u64)(2 * AICC_TARGET_PKTS) << 16) {
		u64 pkts = aicc_udiv64((u64)f->base_rtt * AICC_TARGET_PKTS << 16,
				       f->cwnd);

		if (t < pkts)
			t = pkts;
	}
	if (t < p->target_min_ns)
		t = p->target_min_ns;
	if (t > p->target_max_ns)
		t = p->target_max_ns;
	return (u32)t;
}

static void new_round(struct aicc_flow *f, const struct aicc_sample *s)
{
	f->round_end = s->delivered;
	f->round_ce0 = s->delivered_ce;
	f->flags &= ~(AICC_F_APP_LIMITED | AICC_F_HAVE_RTT | AICC_F_DELAYED);
}

/*
 * Multiply the window by (1 - cut), cut in Q16 and below 1.  A cut that
 * is not 0 takes at least 1/65536 packet: below one packet (min_cwnd
 * reaches 0.001) a small cut times the window rounds to nothing, and the
 * round would report a cut and hold the next one with the window as it
 * was.  From one packet up the product is at least the cut itself.
 */
static void cut_cwnd(struct aicc_flow *f, u64 cut)
{
	u64 d = aicc_mul_shr(f->cwnd, cut, 16);

	if (!d && cut)
		d = 1;
	f->cwnd -= min_u64(d, f->cwnd);
}

/* A busy period begins: the next resume measures the rate over it. */
static void busy_begin(struct aicc_flow *f, u64 now_ns, u32 delivered)
{
	f->busy_start = (u32)(now_ns >> 10);
	f->busy_del0 = delivered;
	f->xflags = 0;	/* and no cut of fast start before it is undone */
}

/* The window (Q16 packets) that carries @rate over @rt_ns. */
static u64 window_of(const struct aicc_flow *f, u64 rate, u64 rt_ns)
{
	u64 bytes = bytes_in(rate, rt_ns);

	return aicc_udiv64(min_u64(bytes, 1ULL << 46) << 16, f->mss);
}

/*
 * A connection starts.  @delivered and @delivered_ce are the socket's
 * counters now: a connection that switches to aicc midway has delivered
 * packets already, and its first round counts from here.
 */
unsigned int aicc_flow_init(struct aicc_flow *f, const struct aicc_params *p,
			    u32 init_cwnd, u32 mss, u64 now_ns, u32 delivered,
			    u32 delivered_ce, const struct aicc_memval *mem)
{
	unsigned int ev = 0;

	*f = (struct aicc_flow){ 0 };
	f->mss = (u16)(mss ? min_u64(mss, 0xffff) : 1);
	f->cwnd = (u64)(init_cwnd ? init_cwnd : 10) << 16;
	f->mode = AICC_MODE_START;
	f->alpha = 0;
	f->round_end = delivered;
	f->round_ce0 = delivered_ce;
	busy_begin(f, now_ns, delivered);

	if (mem && mem->rate && mem->base_rtt) {
		/*
		 * The base keeps the age it had (aicc_flow_adopt_base()).
		 * The remembered rate is a window's over base + T
		 * (aicc_flow_memval()): the window is that rate over base +
		 * T again, T the target of about that window.
		 */
		f->base_rtt = mem->base_rtt;
		f->base_stamp = mem->base_stamp;
		f->flags |= AICC_F_HAVE_BASE;
		f->cwnd = window_of(f, mem->rate, mem->base_rtt);
		clamp_cwnd(f, p);
		f->target = compute_target(f, p);
		f->cwnd = window_of(f, mem->rate,
				    (u64)mem->base_rtt + f->target);
		f->mode = AICC_MODE_TRACK;
		ev |= AICC_EV_MEM_HIT;
	}
	clamp_cwnd(f, p);
	if (f->flags & AICC_F_HAVE_BASE) {
		f->target = compute_target(f, p);
		refresh_inv_rtt(f);
	}
	update_rate(f, p);
	return ev;
}

/* A first RTT estimate (the handshake's) before any ACK of data. */
void aicc_flow_seed_rtt(struct aicc_flow *f, const struct aicc_params *p,
			u32 rtt_ns, u64 now_ns)
{
	if ((f->flags & AICC_F_HAVE_BASE) || !rtt_ns)
		return;
	f->base_rtt = clamp_rtt(rtt_ns);
	f->base_stamp = coarse(now_ns);
	f->flags |= AICC_F_HAVE_BASE;
	f->target = compute_target(f, p);
	refresh_inv_rtt(f);
	update_rate(f, p);
}

/*
 * Growth for one round below target: ai packets per round trip of time
 * (a window below one packet spans several round trips per round), plus
 * mi * w * (T - d) / T when the queue is well below target.
 */
static u64 increase(const struct aicc_flow *f, const struct aicc_params *p,
		    u32 gscale)
{
	u64 inc = p->ai_q16;

	if (f->cwnd < AICC_ONE)
		inc = aicc_udiv64(inc << 16,
				  max_u64(f->cwnd, AICC_ONE / AICC_SUBPKT_AI_MAX));
	if (p->mi_q16 && f->target > f->qdelay)
		inc += aicc_mul_shr(aicc_mul_shr(f->cwnd, p->mi_q16, 16),
				    aicc_udiv64((u64)(f->target - f->qdelay) << 16,
						f->target), 16);
	if (gscale != AICC_ONE)
		inc = aicc_mul_shr(inc, gscale, 16);
	return inc;
}

/*
 * Fast start overshot: the queue it built holds about what the last round
 * delivered beyond one base RTT's worth.  Leave with the window the path
 * carries without a queue, last_del * base / RTT of the round, so the
 * queue drains now rather than over several cut-and-hold rounds.  Rare:
 * once per connection or idle restart.
 */
static noinline void start_exit(struct aicc_flow *f)
{
	u64 w = (u64)f->last_del << 16;

	f->mode = AICC_MODE_TRACK;
	/*
	 * An application-limited round (requests, responses) measured the
	 * application, not the path, and did not build the queue: keep the
	 * window, as end_round() does not cut such a round on delay.  Both
	 * the round that last_del measured and this one so far.
	 */
	if (!w || (f->flags & AICC_F_APP_LIMITED) ||
	    (f->xflags & AICC_X_LAST_APP))
		return;
	/*
	 * A round whose first packets saw no queue (its minimum is the base,
	 * or set it) still leaves with last_del: the delay exit then came
	 * from later samples of the round, while the window kept doubling.
	 */
	if ((f->flags & AICC_F_HAVE_RTT) && f->round_rtt > f->base_rtt)
		w = aicc_mul_shr(w, aicc_udiv64((u64)f->base_rtt << 32,
						f->round_rtt), 32);
	if (w < f->cwnd)
		f->cwnd = w;
}

/*
 * Fast start's delay exit, checked on every ACK: the queueing delay is
 * above start_exit * T by the round's smallest sample so far, or by this
 * ACK's sample and the smoothed RTT both.  The round's minimum comes from
 * its first packets; while the window doubles, the queue builds behind
 * them, inside the round -- and a bottleneck that lets a burst through
 * before it queues (a token bucket) hides it from the first packets
 * altogether.  Requiring the smoothed RTT too keeps one noisy sample from
 * ending fast start.  The window to leave with still comes from the
 * round's minimum (start_exit()): a later sample of the round holds the
 * queue the doubling itself built, and sizing by it leaves too little.
 */
static noinline bool start_delay(const struct aicc_flow *f,
				 const struct aicc_params *p,
				 const struct aicc_sample *s, u32 rtt)
{
	u64 lim = aicc_mul_shr(f->target, p->start_exit_q16, 16);
	u32 r;

	if ((f->flags & AICC_F_HAVE_RTT) &&
	    f->round_rtt - min_u64(f->round_rtt, f->base_rtt) > lim)
		return true;
	if (!rtt || s->ack_delayed || !s->srtt_ns)
		return false;
	r = (u32)min_u64(rtt, s->srtt_ns);
	return r - min_u64(r, f->base_rtt) > lim;
}

/*
 * Is the window in use?  A window-limited flow delivers about its window
 * each round trip -- or, paced at gain * w / (base + T) over a round of
 * base + d1, that share of it when the queue is below target.  A window
 * more than a quarter (and two packets) above that is not in use: the
 * flow is held back by something else (the host, the receiver, a shaper
 * whose burst allowance lets it send more than the rate for a while).
 * Once per round: the division is allowed here.
 */
static bool window_unused(const struct aicc_flow *f,
			  const struct aicc_params *p, u32 del, u32 d1)
{
	u64 pace = aicc_udiv64(((u64)f->base_rtt + d1) << 16,
			       (u64)f->base_rtt + f->target);
	u64 w = f->cwnd;

	/* end_round() asks in TRACK: the gain the round was paced at */
	pace = aicc_mul_shr(pace, pacing_gain(f, p), 16);
	if (pace < AICC_ONE)
		w = aicc_mul_shr(w, pace, 16);
	return w > ((u64)del + (del >> 2) + 2) << 16;
}

/*
 * Once per round: signals, target, and the window decision.  Not inlined:
 * the per-ACK path that calls it once a round stays small.
 */
static noinline unsigned int end_round(struct aicc_flow *f,
				       const struct aicc_params *p,
				       const struct aicc_sample *s)
{
	u32 del = s->delivered - f->round_end;
	u32 ce = s->delivered_ce - f->round_ce0;
	bool held = f->flags & AICC_F_CUT;
	unsigned int ev = AICC_EV_ROUND;
	struct aicc_pol_in pin = { .now_ns = s->now_ns, .del = del, .ce = ce };
	u32 tscale, gscale;
	u32 d1 = 0;	/* this round's own queueing delay */
	u64 cut = 0;
	/* The round had samples (the one a resume restarts has none). */
	bool sampled = f->flags & (AICC_F_HAVE_RTT | AICC_F_DELAYED);
	/* None of its samples was application-limited: the window limited. */
	bool wnd_round = sampled && !(f->flags & AICC_F_APP_LIMITED);
	/*
	 * The window limited it at some point: so, or it delivered at least
	 * the window (requests queued behind it, and that queue drained
	 * before the round ended).  The delay decisions, cut and growth
	 * alike, are for such rounds only.
	 */
	bool used = wnd_round || (sampled && ((u64)del << 16) >= f->cwnd);

	/*
	 * What a timeout restarts from (aicc_on_rto()).  Not the empty round
	 * a resume restarts, which one ACK ends with its one or two packets.
	 */
	if (sampled || f->mode != AICC_MODE_RESUME)
		f->last_del = del;
	if (f->flags & AICC_F_APP_LIMITED)
		f->xflags |= AICC_X_LAST_APP;
	else
		f->xflags &= ~AICC_X_LAST_APP;
	/* the busy period's rate is the path's (resume_window()) */
	if (wnd_round)
		f->xflags |= AICC_X_BUSY_WND;
	if (f->flags & AICC_F_HAVE_RTT) {
		pin.rtt = f->round_rtt;
		if (f->flags & AICC_F_HAVE_PREV)
			pin.prev_rtt = f->prev_rtt;
	}
	if (f->flags & AICC_F_HAVE_RTT) {
		u32 rtt = f->round_rtt;

		d1 = rtt > f->base_rtt ? rtt - f->base_rtt : 0;
		/* Two-round minimum: a delay spike must last two rounds. */
		if ((f->flags & AICC_F_HAVE_PREV) && f->prev_rtt < rtt)
			rtt = f->prev_rtt;
		f->prev_rtt = f->round_rtt;
		f->flags |= AICC_F_HAVE_PREV;
		f->qdelay = rtt > f->base_rtt ? rtt - f->base_rtt : 0;
	}
	if (del) {
		/* most rounds carry no mark: no division for them */
		u64 frac = ce ? aicc_udiv64(min_u64(ce, del) << 15, del) : 0;
		u64 a = f->alpha;

		if (frac > a)
			a += max_u64(aicc_mul_shr(frac - a, p->ecn_g_q16, 16), 1);
		else if (frac < a)
			a -= max_u64(aicc_mul_shr(a - frac, p->ecn_g_q16, 16), 1);
		f->alpha = (u16)min_u64(a, ALPHA_ONE);
	}
	f->target = compute_target(f, p);
	/* the busy period met congestion: its rate was the path's */
	if (ce || ((f->flags & AICC_F_HAVE_RTT) && d1 > f->target))
		f->xflags |= AICC_X_BUSY_CONG;
	/*
	 * The busy period's start (32 bits of 2^10 ns, which wrap after 73
	 * minutes) and its packets delivered (2^32 packets pass in 9 minutes
	 * at 100 Gbit/s): once either is half way to wrapping, the period
	 * keeps only its second half, both counts halved, so that its rate
	 * stays what it was.  At the wraps the learned policy's busy input
	 * fell back to 0, and the resume took a wrong rate (a window cut to a
	 * seventh after 600 s busy at 100 Gbit/s).
	 */
	{
		u32 dur = (u32)(s->now_ns >> 10) - f->busy_start;
		u32 bdel = s->delivered - f->busy_del0;

		/* a start "after" now (aicc_busy_span()) starts now */
		if (dur > AICC_BUSY_SPAN_MAX) {
			f->busy_start = (u32)(s->now_ns >> 10);
			dur = 0;
		}
		if (dur >= 1U << 31 || bdel >= 1U << 31) {
			f->busy_start += dur >> 1;
			f->busy_del0 += bdel >> 1;
		}
	}
	/*
	 * The learned policy may scale the target and the increase, 0.5 to
	 * 2 times; the classic bounds apply after it (aicc_policy.c).
	 */
	pin.target = f->target;
	ev |= aicc_policy_round(f, s->model, &pin, &tscale, &gscale);
	if (tscale != AICC_ONE) {
		u64 t = aicc_mul_shr(f->target, tscale, 16);

		if (t < p->target_min_ns)
			t = p->target_min_ns;
		f->target = (u32)min_u64(t, p->target_max_ns);
	}
	refresh_inv_rtt(f);
	f->flags &= ~AICC_F_CUT;

	switch (f->mode) {
	case AICC_MODE_LOSS:
		f->mode = AICC_MODE_TRACK;
		break;
	case AICC_MODE_RESUME:
		f->mode = AICC_MODE_TRACK;
		fallthrough;
	case AICC_MODE_TRACK:
		/*
		 * The round after a cut carries the signals of packets sent
		 * before it: act on neither its delay nor its marks.
		 */
		if (held)
			break;
		/*
		 * An undo comes within about a round trip of the spurious
		 * cut (DSACKs, or at once with timestamps): past the held
		 * round, one no longer brings fast start back.
		 */
		f->xflags &= ~AICC_X_START_CUT;
		/*
		 * Delay cuts only in rounds the window limited (used).  An
		 * app-limited flow (requests, responses) that leaves its
		 * window unfilled is not what holds the queue, and its
		 * samples carry the peer's delayed ACKs and think time: cut
		 * on them while it never grows (it does not use its window),
		 * and it ratchets down to min_cwnd and paces its requests
		 * out seconds late.  Marks and losses still cut it.  Once
		 * requests queue behind its window, its rounds fill the
		 * window: those decide like a bulk flow's, and grow below
		 * target, or a few marked rounds would leave it smaller than
		 * its requests for good.
		 */
		if ((f->flags & AICC_F_HAVE_RTT) && f->qdelay > f->target &&
		    used) {
			cut = aicc_mul_shr(p->beta_q16,
					   aicc_udiv64((u64)(f->qdelay - f->target)
						       << 16, f->qdelay), 16);
			/* none with beta 0, or an excess under q / 2^16 */
			if (cut)
				ev |= AICC_EV_DELAY_CUT;
		}
		if (ce) {
			u64 ecut = aicc_mul_shr((u64)f->alpha << 1,
						p->ecn_beta_q16, 16);

			if (ecut > cut) {
				cut = ecut;
				ev = (ev & ~AICC_EV_DELAY_CUT) | AICC_EV_ECN_CUT;
			}
		}
		if (cut) {
			cut_cwnd(f, min_u64(cut, p->max_mdf_q16));
			f->flags |= AICC_F_CUT;
		} else if ((f->flags & AICC_F_HAVE_RTT) && d1 > f->target) {
			/*
			 * This round alone saw the queue above target: too
			 * little to cut on (noise must last two rounds) but
			 * no reason to grow into a queue that is building.
			 */
		} else if (window_unused(f, p, del, d1)) {
			/*
			 * The round delivered far less than the window: the
			 * flow is not using it.  Growing it anyway builds a
			 * window the delay signal never tested, which a burst
			 * of ACKs later releases into the queue all at once.
			 */
		} else if (used) {
			/*
			 * A round whose every ACK was delayed by the receiver
			 * (a window under two packets, a receiver without
			 * quick ACKs) tells nothing about the queue: grow, so
			 * that two segments travel together again.  ECN and
			 * loss still cut.
			 */
			f->cwnd += increase(f, p, gscale);
			ev |= AICC_EV_INCREASE;
		}
		break;
	default:
		break;
	}
	new_round(f, s);
	return ev;
}

unsigned int aicc_on_ack(struct aicc_flow *f, const struct aicc_params *p,
			 const struct aicc_sample *s)
{
	bool ce_seen = s->delivered_ce != f->round_ce0;
	unsigned int ev = 0;
	bool upd = false;	/* window, mode, MSS or 1/RTT changed */
	u32 rtt = 0;

	if (s->mss && s->mss != f->mss) {
		f->mss = (u16)min_u64(s->mss, 0xffff);
		upd = true;
	}

	if (s->rtt_ns > 0) {
		u32 now = coarse(s->now_ns);

		rtt = clamp_rtt(s->rtt_ns);
		/*
		 * An expired base restarts from the next sample, but not from
		 * one the receiver may have delayed: that holds its timer, not
		 * the path, and would become the round trip the flow paces
		 * over and sets its target by.  Such a sample still lowers
		 * the base, or measures it again.
		 */
		if (!(f->flags & AICC_F_HAVE_BASE) || rtt <= f->base_rtt ||
		    (!s->ack_delayed &&
		     now - f->base_stamp > p->rtt_win_ns_hi)) {
			f->base_rtt = rtt;
			f->base_stamp = now;
			if (!(f->flags & AICC_F_HAVE_BASE)) {
				f->flags |= AICC_F_HAVE_BASE;
				f->target = compute_target(f, p);
				/*
				 * A round that ended before this took 1/RTT
				 * from target_min alone: a rate 10^4 times
				 * the path's, which the rate memory kept.
				 */
				f->inv_rtt = 0;
			}
		} else if (rtt - f->base_rtt <= f->target >> 1) {
			/*
			 * Within half the target of the base: the path is
			 * still as long, so the base is measured again.  Left
			 * to expire, it restarts from whatever queue stands
			 * then, and that flow takes the link from the others
			 * (Documentation/algorithm.rst, "Signals").
			 */
			f->base_stamp = now;
		}
		if (!f->inv_rtt) {
			refresh_inv_rtt(f);
			upd = true;
		}
	}

	/*
	 * The ACK of a packet sent after the round began ends the round; its
	 * own sample already belongs to the next one.  An ACK that delivered
	 * nothing has no prior_delivered (Linux leaves it 0).
	 */
	if (s->acked && (s32)(s->prior_delivered - f->round_end) >= 0) {
		ev |= end_round(f, p, s);
		upd = true;
	}

	if (rtt && s->ack_delayed) {
		/* Not path delay; remember only that the round had ACKs. */
		f->flags |= AICC_F_DELAYED;
	} else if (rtt) {
		if (!(f->flags & AICC_F_HAVE_RTT) || rtt < f->round_rtt)
			f->round_rtt = rtt;
		f->flags |= AICC_F_HAVE_RTT;
	}
	if (s->app_limited)
		f->flags |= AICC_F_APP_LIMITED;

	/*
	 * The learned policy's watchdog sees every round with a loss, also
	 * one that a delay or ECN cut began: an overflow that the cut came
	 * too late for is found about a round after it.
	 */
	if (s->losses)
		f->flags |= AICC_F_POL_LOSS;
	if (s->losses && !(f->flags & AICC_F_CUT)) {
		/* Loss: cut now, once per round, and restart the round so
		 * the next decision sees only the effect of this one.
		 */
		cut_cwnd(f, p->loss_beta_q16);
		f->flags |= AICC_F_CUT;
		f->xflags |= AICC_X_BUSY_CONG;
		ev |= AICC_EV_LOSS_CUT;
		/* an undo (aicc_on_undo()) resumes fast start */
		f->xflags &= ~AICC_X_START_CUT;
		if (f->mode == AICC_MODE_START) {
			f->mode = AICC_MODE_TRACK;
			f->xflags |= AICC_X_START_CUT;
			ev |= AICC_EV_START_EXIT;
		}
		new_round(f, s);
		upd = true;
	} else if (f->mode == AICC_MODE_START) {
		/*
		 * Grow only while the window, not the application or the
		 * receiver's window, limits: to at most AICC_START_MUL
		 * times what the last round delivered (doubling needs two),
		 * plus a few packets.  A flow the receiver holds to 20
		 * packets a round otherwise grows its window without end,
		 * and the rate memory keeps that window's rate for the next
		 * connection.  Twice (plus 4) was tried: rounds that a ring
		 * or a pipeline left short then stall fast start, and the
		 * simulator's all-reduce and pipeline completions suffer.
		 */
		if (!s->app_limited &&
		    (!f->last_del ||
		     f->cwnd < ((u64)f->last_del * AICC_START_MUL +
				AICC_START_SLACK) << 16))
			f->cwnd += (u64)s->acked << 16;
		if (ce_seen || start_delay(f, p, s, rtt)) {
			start_exit(f);
			ev |= AICC_EV_START_EXIT;
		}
		upd = true;
	}

	/*
	 * Past slow start, most ACKs change none of the rate's inputs: the
	 * window moves once a round.  A knob write (min_cwnd, pacing_*)
	 * reaches the window and the rate at the end of the current round.
	 */
	if (upd) {
		clamp_cwnd(f, p);
		update_rate(f, p);
	}
	return ev;
}

unsigned int aicc_on_rto(struct aicc_flow *f, const struct aicc_params *p,
			 u32 delivered, u32 delivered_ce)
{
	u64 w = (u64)f->last_del << 16;

	if (w < f->cwnd)
		f->cwnd = w;
	clamp_cwnd(f, p);
	/* a timeout of fast start; a backed-off one keeps the first's */
	if (f->mode == AICC_MODE_START)
		f->xflags |= AICC_X_START_CUT;
	else if (f->mode != AICC_MODE_LOSS)
		f->xflags &= ~AICC_X_START_CUT;
	f->mode = AICC_MODE_LOSS;
	/*
	 * A loss for the policy's watchdog too: under heavy loss, windows of
	 * a packet or two lose their packets to timeouts, not to the
	 * duplicate ACKs that aicc_on_ack() sees.
	 */
	f->flags |= AICC_F_CUT | AICC_F_POL_LOSS;
	f->flags &= ~(AICC_F_APP_LIMITED | AICC_F_HAVE_RTT | AICC_F_DELAYED);
	f->xflags |= AICC_X_BUSY_CONG;
	/* the LOSS round counts the marks delivered from here, not before */
	f->round_end = delivered;
	f->round_ce0 = delivered_ce;
	update_rate(f, p);
	return AICC_EV_RTO;
}

/*
 * The stack found its last loss recovery or timeout spurious -- DSACKs
 * for every packet it sent again, or timestamps showing that the first
 * copies arrived: reordering (adaptive routing, packet spraying) or a
 * delay spike, not congestion -- and undoes its cut.  @prior_pkts is the
 * window when the recovery or timeout began (Linux's tp->prior_cwnd, in
 * whole packets), and the window goes back to at least that, as Reno's
 * undo does.  A window the kernel held at its floor of two packets was
 * carried by the pacer, and that floor says nothing of it: it stays.  A
 * timeout's LOSS mode ends: there was no timeout to recover from; a loss
 * or timeout that ended fast start resumes it, as Reno's undo brings slow
 * start back with the old ssthresh, if the undo comes before the end of
 * the first round that decides after the cut.  A delay cut since the
 * recovery began is given back as well, and a later round cuts again if
 * the queue is real (a mark in the meantime never gets here: its ECN echo
 * withdraws the undo in the stack).  A window given
 * back is no longer "cut this round": a loss that the same ACK reports
 * (TCP undoes, then enters a new recovery) cuts it.  Rare: divisions are
 * allowed (none are needed).
 */
unsigned int aicc_on_undo(struct aicc_flow *f, const struct aicc_params *p,
			  u32 prior_pkts)
{
	u64 w = (u64)prior_pkts << 16;

	if (f->xflags & AICC_X_START_CUT)
		f->mode = AICC_MODE_START;
	else if (f->mode == AICC_MODE_LOSS)
		f->mode = AICC_MODE_TRACK;
	f->xflags &= ~AICC_X_START_CUT;
	/* nor does the learned policy's watchdog count the loss */
	f->flags &= ~AICC_F_POL_LOSS;
	if (prior_pkts > AICC_CWND_FLOOR_PKTS && w > f->cwnd) {
		f->cwnd = w;
		f->flags &= ~AICC_F_CUT;
	}
	clamp_cwnd(f, p);
	update_rate(f, p);
	return AICC_EV_UNDO;
}

/*
 * The window to resume with after idle: the rate the flow actually
 * delivered over its last busy period (one collective's burst), times
 * base + T, the round trip the window is paced over -- so that the pacing
 * rate is that rate itself.  In an N-to-1 burst that is the fair share
 * C/N, whatever the window was when the flow's own part ended -- windows
 * of flows that finish last grow as the others leave.  (Times the base
 * RTT alone, the flows of a collective resumed at base / (base + T) of
 * their share: 0.7 of it with the target of a sub-packet window.)  Never
 * more than the current window, and only when the busy period met
 * congestion and its window limited it for a round at least: otherwise
 * its rate was the application's (an RPC client's requests), not the
 * path's, and the window it left unused stays -- cut to the mean request
 * rate, Poisson arrivals wait a round trip whenever two come close.  An
 * RPC client whose requests cross a queue that bulk flows hold meets
 * congestion in every busy period, and every one of them is
 * application-limited.
 */
static void resume_window(struct aicc_flow *f, u64 busy_end_ns, u32 delivered)
{
	u32 dur = aicc_busy_span(f, busy_end_ns);	/* ~us */
	u32 del = delivered - f->busy_del0;
	u64 rt = (u64)f->base_rtt + f->target;
	u64 q, w;

	if (!del || (u64)dur << 10 < f->base_rtt ||
	    (~f->xflags & (AICC_X_BUSY_CONG | AICC_X_BUSY_WND)))
		return;
	/*
	 * del * rt / (dur << 10), in Q16 packets: rt is in ns, dur in 2^10
	 * ns.  del * rt (below 2^65: del < 2^32, rt < 2^33) times 2^6 fits
	 * 64 bits while it is below 2^58; beyond (base + target above about
	 * 134 ms with 2^31 packets delivered) the division comes first, to
	 * 1/512 packet, instead of saturating to a window too small.
	 */
	q = aicc_mul_shr(del, rt, 0);
	if (q < 1ULL << 58)
		w = aicc_udiv64(q << 6, dur);
	else
		w = aicc_mul_shr(aicc_udiv64(aicc_mul_shr(del, rt, 1), dur),
				 128, 0);
	if (w < f->cwnd)
		f->cwnd = w;
}

/* A gap longer than min_rtt_win_ms: what was measured before it aged out. */
static bool past_rtt_window(const struct aicc_params *p, u64 gap_ns)
{
	return (gap_ns >> 20) > p->rtt_win_ns_hi;
}

/*
 * A flow's state @age_ns old is still worth remembering: younger than
 * rate_memory_ms, the life of a remembered rate.
 */
bool aicc_mem_fresh(const struct aicc_params *p, u64 age_ns)
{
	return age_ns < (u64)p->knob[AICC_K_MEM_LIFE] * 1000000;
}

/*
 * A gap after which the flow resumes at its rate: shorter than
 * rate_memory_ms, to the nanosecond.  (In 2^20 ns units, rounded down, a
 * rate_memory_ms of 0 resumed after every gap under 1.05 ms, and 10 ms
 * after gaps up to 10.49 ms.)
 */
static bool resumes(const struct aicc_params *p, u64 idle_ns)
{
	return p->knob[AICC_K_IDLE_RESTART] && aicc_mem_fresh(p, idle_ns);
}

/*
 * Is a transmit start @idle_ns after the last ACK an idle period?  Not
 * when shorter than a round trip, nor when shorter than two packet times
 * at the flow's rate: Linux raises the event whenever nothing is in
 * flight, and a flow paced slower than its ACKs return (TCP's own pacing,
 * without fq, which holds a packet in the stack until its time) empties
 * the pipe between two packets of one burst.  Each such start was a
 * resume: the round restarted with its samples, the window neither grew
 * nor took a delay cut, and the next packet was held back.  Two packet
 * times: the kernel's smallest GSO packet is two segments, and its pacing
 * timer fires late by some slack.  Before the first RTT sample every start
 * counts (the busy period begins there).
 */
bool aicc_idle_start(const struct aicc_flow *f, u64 idle_ns)
{
	if (!(f->flags & AICC_F_HAVE_BASE))
		return true;
	if (idle_ns < f->base_rtt)
		return false;
	return !f->rate || aicc_mul_shr(idle_ns, f->rate, 1) >=
		(u64)f->mss * 1000000000ULL;
}

unsigned int aicc_on_tx_start(struct aicc_flow *f,
			      const struct aicc_params *p, u64 now_ns,
			      u64 idle_ns, u32 delivered, u32 delivered_ce)
{
	unsigned int ev;
	bool resume;

	if (!aicc_idle_start(f, idle_ns))
		return 0;
	/*
	 * A base RTT older than its window gives way to the next sample.
	 * After a longer gap, age it here: its 32-bit stamp (2^20 ns
	 * units) wraps every 52 days, and a gap close to a multiple of that
	 * would make it look fresh.  (The glue reports gaps above 65 minutes
	 * as 71.6, longer than any window.)
	 */
	if (past_rtt_window(p, idle_ns))
		f->base_stamp = coarse(now_ns) - p->rtt_win_ns_hi - 1;
	resume = resumes(p, idle_ns);
	/*
	 * Nothing to resume before the first RTT sample or in fast start,
	 * but a busy period begins here: the next resume must measure the
	 * rate over it, not over the time since the connection opened (an
	 * RPC connection may wait seconds before its first request).
	 */
	if (!(f->flags & AICC_F_HAVE_BASE) ||
	    (f->mode == AICC_MODE_START && resume)) {
		busy_begin(f, now_ns, delivered);
		return 0;
	}

	if (resume) {
		resume_window(f, now_ns - idle_ns, delivered);
		clamp_cwnd(f, p);
		f->mode = AICC_MODE_RESUME;
		ev = AICC_EV_IDLE_RESUME;
	} else {
		if (f->cwnd > (10ULL << 16))
			f->cwnd = 10ULL << 16;
		f->mode = AICC_MODE_START;
		ev = AICC_EV_IDLE_RESET;
	}
	busy_begin(f, now_ns, delivered);
	/*
	 * The round restarts with the first packet sent after the gap, and
	 * counts the marks delivered from here: those of the unfinished
	 * round before the gap would make its first ACK a marked round (an
	 * ECN cut, or fast start's exit, on an unmarked ACK).
	 */
	f->round_end = delivered;
	f->round_ce0 = delivered_ce;
	f->flags &= ~(AICC_F_APP_LIMITED | AICC_F_HAVE_RTT | AICC_F_CUT |
		      AICC_F_DELAYED);
	update_rate(f, p);
	return ev;
}

/*
 * Linux sends the packet after one that left an idle pacer early: in
 * tcp_update_skb_after_send() the time the pacer sat idle is a credit
 * ("OS jitter") that takes up to half of the sent packet's time off the
 * next gap.  After an idle gap every flow of a collective takes that
 * credit at once, so the second packets follow the first ones (which all
 * leave together) at twice the resumed rate, 1.5 packets per flow within
 * one packet time.  The caller holds the next packet back by what this
 * returns after a resume (AICC_EV_IDLE_RESUME): half the time of the
 * packet being sent (bytes: the skb's length, several segments with
 * GSO) at the resumed rate, which cancels the credit; 0 when the gap was
 * too short for the whole credit (1.5 packet times) or there is no rate.
 * Once per resume, so the division is allowed.
 */
u64 aicc_resume_hold_ns(const struct aicc_flow *f, u64 idle_ns, u32 bytes)
{
	u64 pkt_ns;

	if (f->mode != AICC_MODE_RESUME || !f->rate || !bytes)
		return 0;
	pkt_ns = aicc_udiv64((u64)bytes * 1000000000ULL, f->rate);
	if (idle_ns < pkt_ns + pkt_ns / 2)
		return 0;
	return pkt_ns / 2;
}

/*
 * Another flow to the same peer measured a lower base RTT: take it.  A flow
 * that joined while a queue stood measured that queue into its base and
 * would otherwise keep it there, at the expense of the flows before it.
 * The base comes with the time it was measured and keeps it: flows that
 * pass a base on to each other must not keep it young, or a base from
 * before the path got longer would outlive min_rtt_win_ms forever.
 */
void aicc_flow_adopt_base(struct aicc_flow *f, const struct aicc_params *p,
			  const struct aicc_memval *mv, u64 now_ns)
{
	if (!mv->base_rtt || !(f->flags & AICC_F_HAVE_BASE) ||
	    mv->base_rtt > f->base_rtt ||
	    coarse(now_ns) - mv->base_stamp > p->rtt_win_ns_hi)
		return;
	if (mv->base_rtt == f->base_rtt) {
		/* measured again since: the same base, younger */
		if ((s32)(mv->base_stamp - f->base_stamp) > 0)
			f->base_stamp = mv->base_stamp;
		return;
	}
	f->base_rtt = mv->base_rtt;
	f->base_stamp = mv->base_stamp;
	f->target = compute_target(f, p);
	refresh_inv_rtt(f);
	update_rate(f, p);
}

/*
 * What to remember about this flow's peer; false if nothing worth it.  A
 * flow still in fast start has not found the path's rate: its window is
 * what it has grown to so far -- the initial window for one that only
 * receives (a server, whose base RTT the handshake gave) or has just begun
 * to send.  Stored, that would replace what a flow to the same peer
 * learned, and the next connection would skip fast start at it.
 */
bool aicc_flow_memval(const struct aicc_flow *f, struct aicc_memval *out)
{
	if (!(f->flags & AICC_F_HAVE_BASE) || !f->inv_rtt ||
	    f->mode == AICC_MODE_START)
		return false;
	/* The window's rate over base + target, without any pacing gain. */
	out->rate = aicc_mul_shr(f->cwnd * f->mss, f->inv_rtt, 48);
	out->base_rtt = f->base_rtt;
	out->base_stamp = f->base_stamp;
	out->mss = f->mss;
	return out->rate != 0;
}

void aicc_flow_info(const struct aicc_flow *f, struct aicc_info *info)
{
	u64 c = f->cwnd >> 12;

	info->aicc_cwnd_x16 = c > 0xffffffffULL ? 0xffffffffU : (u32)c;
	info->aicc_base_rtt_us = (u32)aicc_udiv64(f->base_rtt, 1000);
	info->aicc_target_us = (u32)aicc_udiv64(f->target, 1000);
	info->aicc_qdelay_us = (u32)aicc_udiv64(f->qdelay, 1000);
	info->aicc_alpha = f->alpha >> 5;	/* Q15 -> Q10 */
	info->aicc_profile = f->profile;
	info->aicc_mode = f->mode;
}

/*
 * aicc_fwd_rtt() once the way back holds @rq ns (above a tick's rounding):
 * out of line, so that the ACKs that find no queue there, most of them,
 * take the short path without this one's registers.
 */
static noinline s64 fwd_rtt_queued(struct aicc_owd *o, u8 *state,
				   const struct aicc_flow *f, s64 rtt_ns,
				   u32 now, u64 rq)
{
	u64 q;

	if (rq >= (u64)rtt_ns) {
		*state |= AICC_OWD_OFF;
		return rtt_ns;
	}
	/* the sample's own queueing: at least the way back's (rq > 0) */
	q = rtt_ns > f->base_rtt ? (u64)rtt_ns - f->base_rtt : 0;
	if (rq <= q)
		return rtt_ns - (s64)rq;
	if ((s32)(now - o->stamp) >= AICC_OWD_SLEW_TICKS) {
		o->min++;
		o->stamp += AICC_OWD_SLEW_TICKS;
	}
	return q ? f->base_rtt : rtt_ns;
}

/*
 * An RTT sample less the queueing its ACK met on the way back (see
 * aicc_core.h).  now and tsval are in the same ticks of tick_ns each: the
 * local clock the peer's timestamps are compared with, and the peer's
 * TSval of this ACK.  The minimum of now - tsval is windowed like the base
 * RTT.  The timestamps have one tick of resolution on each side, so a
 * difference of one tick is not counted, and a tick longer than a quarter
 * of the base RTT (millisecond timestamps on a path of microseconds)
 * corrects nothing.  The sample never goes below the base RTT: a new
 * minimum RTT is taken as it comes.
 *
 * A peer whose clock ticks slower than ours (RFC 7323 allows 1 ms to 1 s)
 * makes now - tsval grow without a queue; once that growth exceeds the
 * whole RTT sample, which no queue on the way back can, the estimate is
 * switched off for the connection.  A faster clock only lowers the minimum
 * on every ACK, which corrects nothing.
 *
 * Two clocks of the same nominal rate drift apart too: crystals are a few
 * to a hundred ppm off, and with microsecond timestamps (tcp_usec_ts) 12
 * ppm slower is 120 us of "reverse queue" ten seconds after the minimum
 * was taken, which hides the flow's own queue well before it reaches the
 * whole sample.  A queue on the way back is part of the RTT sample, so it
 * can never exceed the sample's own queueing (sample - base): an estimate
 * above that is drift, and the minimum moves up by a tick.  At most one
 * tick per AICC_OWD_SLEW_TICKS ticks of the local clock since the minimum
 * was taken (under 0.1 %: any crystal's drift, not a clock of another
 * rate), each charged to the minimum's stamp, which then ages that much
 * later.  Drift gathered while the flow's own queue stood is taken out
 * at once when the queue drains, within that budget.
 */
s64 aicc_fwd_rtt(struct aicc_owd *o, u8 *state, const struct aicc_flow *f,
		 const struct aicc_params *p, s64 rtt_ns, u32 now, u32 tsval,
		 u32 tick_ns)
{
	u32 owd = now - tsval;

	if ((*state & AICC_OWD_OFF) || !tsval || !tick_ns)
		return rtt_ns;
	if (!(*state & AICC_OWD_VALID) || (s32)(owd - o->min) < 0 ||
	    past_rtt_window(p, (u64)(now - o->stamp) * tick_ns)) {
		o->min = owd;
		o->stamp = now;
		*state |= AICC_OWD_VALID;
		return rtt_ns;
	}
	/* no base RTT yet (0) fails the tick test too */
	if (owd - o->min <= 1 || rtt_ns <= 0 ||
	    (u64)tick_ns * AICC_OWD_TICKS_PER_BASE > f->base_rtt)
		return rtt_ns;
	return fwd_rtt_queued(o, state, f, rtt_ns, now,
			      (u64)(owd - o->min - 1) * tick_ns);
}

/*
 * A gap in the traffic (the glue's CA_EVENT_TX_START) longer than the
 * window: the one-way minimum is past it.  aicc_fwd_rtt() cannot tell:
 * its clocks are 32-bit ticks, which wrap after 71.6 minutes of
 * microseconds, so a gap close to a multiple of that would keep a minimum
 * from before it, and a peer's clock that drifted slower meanwhile would
 * switch the estimate off for the connection.
 */
void aicc_owd_idle(u8 *state, const struct aicc_params *p, u64 idle_ns)
{
	if (past_rtt_window(p, idle_ns))
		*state &= ~AICC_OWD_VALID;
}
