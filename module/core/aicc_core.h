/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc core: the congestion-control algorithm, independent of where it runs.
 *
 * The kernel module and the simulator both drive a flow through the same
 * five entry points:
 *
 *   aicc_flow_init()      a connection starts (optionally from a remembered
 *                         rate for its peer); aicc_flow_seed_rtt() hands it
 *                         the handshake RTT when there is one
 *   aicc_on_ack()         every ACK, with an aicc_sample built from the
 *                         kernel's struct rate_sample (or the simulator's)
 *   aicc_on_rto()         a retransmission timeout
 *   aicc_on_tx_start()    sending resumes after the pipe went empty
 *   aicc_on_undo()        the stack found a loss recovery or a timeout
 *                         spurious and undoes its cut
 *
 * and read back two outputs: aicc_cwnd_pkts() and flow->rate (bytes/s),
 * plus, after a resume, aicc_resume_hold_ns(): how long to hold the next
 * packet back.
 * Time is in nanoseconds; windows are Q16 packets (1/65536 segment).
 * Nothing here divides on the per-ACK path: divisions happen at most once
 * per round trip, in aicc_udiv64(), which uses multiplications only.
 */
#ifndef _AICC_CORE_H
#define _AICC_CORE_H

#include "aicc_types.h"
#include "../../uapi/aicc.h"

#define AICC_ONE		65536U		/* 1.0 in Q16 */
#define AICC_CWND_MAX		((u64)1 << 46)	/* 2^30 packets, Q16 */
#define AICC_CWND_FLOOR_PKTS	2		/* smallest kernel cwnd */
#define AICC_PACED_FROM_SEG	10		/* Linux paces from segment 10 */
#define AICC_RTT_MAX_NS		4000000000U	/* larger samples are clamped */

/* Derived, per-profile parameters.  Written only by aicc_params_set(). */
struct aicc_params {
	u32 knob[AICC_NR_KNOBS];	/* raw values as configured */
	/* derived from knob[] */
	u32 target_q16;		/* target / base RTT */
	u32 target_min_ns;
	u32 target_max_ns;
	u32 fs_range_q16;	/* flow-scaling range / base RTT */
	u32 fs_isq_min;		/* 1/sqrt(fs_min_cwnd), Q16 */
	u32 fs_isq_max;		/* 1/sqrt(fs_max_cwnd), Q16 */
	u32 fs_norm;		/* 2^32 / (fs_isq_min - fs_isq_max), Q16 */
	u32 ai_q16;		/* packets per RTT */
	u32 mi_q16;
	u32 beta_q16;
	u32 max_mdf_q16;
	u32 ecn_g_q16;
	u32 ecn_beta_q16;
	u32 loss_beta_q16;
	u32 min_cwnd_q16;
	u32 pacing_gain_q16;
	u32 gain_min_cwnd_q16;	/* window from which pacing_gain_q16 applies */
	u32 start_exit_q16;
	u32 mem_life_ns_hi;	/* lifetime, units of 2^20 ns, rounded up */
	u32 rtt_win_ns_hi;	/* base-RTT window, units of 2^20 ns */
	u64 pacing_min;		/* bytes/s */
	u64 pacing_max;		/* bytes/s, 0 = none */
};

struct aicc_model;	/* the learned policy, aicc_policy.h */

/* Everything one ACK tells the controller. */
struct aicc_sample {
	u64 now_ns;		/* monotonic clock */
	s64 rtt_ns;		/* RTT of the newest (S)ACKed packet, <0: none */
	u32 srtt_ns;		/* smoothed RTT, 0 if unknown */
	u32 delivered;		/* cumulative packets delivered */
	u32 delivered_ce;	/* cumulative CE-marked packets delivered */
	u32 prior_delivered;	/* 'delivered' when the acked packet left */
	u32 acked;		/* packets newly (S)ACKed by this ACK */
	u32 losses;		/* packets newly marked lost by this ACK */
	u32 inflight;		/* packets in flight after this ACK */
	u32 mss;		/* bytes per packet */
	u8 app_limited;		/* the sample's interval had idle time */
	/* the receiver's delayed-ACK timer likely held this ACK back */
	u8 ack_delayed;
	/*
	 * the learned policy to consult at a round's end, NULL: none (the
	 * module's tracing clears the padding before it; keep it last)
	 */
	const struct aicc_model *model;
};

/* Per-flow state: fits (with the module's few bytes) ICSK_CA_PRIV_SIZE. */
struct aicc_flow {
	u64 cwnd;		/* Q16 packets */
	u64 rate;		/* pacing rate, bytes/s */
	u64 inv_rtt;		/* 2^32 * 1e9 / (base + target), pacing */
	u32 base_rtt;		/* windowed minimum RTT, ns */
	u32 base_stamp;		/* base_rtt set or measured again, 2^20 ns */
	u32 round_end;		/* round ends once prior_delivered reaches it */
	u32 round_ce0;		/* delivered_ce at round start */
	u32 round_rtt;		/* smallest RTT sample this round, ns */
	u32 prev_rtt;		/* smallest RTT sample of the previous round */
	u32 last_del;		/* packets delivered in the last full round */
	u32 target;		/* current queueing-delay target, ns */
	u32 qdelay;		/* queueing delay of the last round, ns */
	u32 busy_start;		/* start of the busy period, 2^10 ns units */
	u32 busy_del0;		/* 'delivered' when it started */
	u16 mss;
	u16 alpha;		/* CE fraction EWMA, Q15 */
	u8 mode;		/* enum aicc_mode */
	u8 flags;		/* AICC_F_* */
	u8 profile;		/* enum aicc_profile_id, for the glue */
	u8 pol_hist;		/* policy: the model's last 8 rounds, 1: bad */
	u16 del_max;		/* policy: recent max delivered per round */
	u8 pol_hold;		/* policy: rounds left with the classic law */
	u8 xflags;		/* AICC_X_* */
};

#define AICC_F_CUT		0x01	/* decreased during this round */
#define AICC_F_APP_LIMITED	0x02	/* round had an app-limited sample */
#define AICC_F_HAVE_RTT		0x04	/* round_rtt holds a sample */
#define AICC_F_HAVE_BASE	0x08	/* base_rtt is valid */
#define AICC_F_HAVE_PREV	0x10	/* prev_rtt is valid */
#define AICC_F_DELAYED		0x20	/* round saw only delayed-ACK samples */
#define AICC_F_POLICY		0x40	/* the model drove the last round */
#define AICC_F_POL_LOSS		0x80	/* a loss since the last round's end */

#define AICC_X_BUSY_CONG	0x01	/* the busy period saw a mark, loss or queue */
#define AICC_X_START_CUT	0x02	/* a loss or timeout ended fast start */
#define AICC_X_LAST_APP		0x04	/* last_del's round was app-limited */
#define AICC_X_BUSY_WND		0x08	/* the busy period had a window-limited round */

/* Events reported to the caller, for counters and tracing. */
#define AICC_EV_ROUND		0x0001
#define AICC_EV_DELAY_CUT	0x0002
#define AICC_EV_ECN_CUT		0x0004
#define AICC_EV_LOSS_CUT	0x0008
#define AICC_EV_START_EXIT	0x0010
#define AICC_EV_INCREASE	0x0020
#define AICC_EV_RTO		0x0040
#define AICC_EV_IDLE_RESUME	0x0080
#define AICC_EV_IDLE_RESET	0x0100
#define AICC_EV_MEM_HIT		0x0200
#define AICC_EV_MEM_MISS	0x0400
#define AICC_EV_POL_EVAL	0x0800	/* the model scaled this round */
#define AICC_EV_POL_RANGE	0x1000	/* inputs out of range: classic */
#define AICC_EV_POL_WATCHDOG	0x2000	/* the watchdog tripped */
#define AICC_EV_POL_HOLD	0x4000	/* classic: watchdog hold-off */
#define AICC_EV_UNDO		0x8000	/* a spurious cut was undone */

/* A remembered per-peer rate (the rate cache's value). */
struct aicc_memval {
	u64 rate;		/* bytes/s */
	u32 base_rtt;		/* ns */
	u32 mss;
	u32 base_stamp;		/* when base_rtt was measured, 2^20 ns units */
};

/* Parameters. */
void aicc_params_defaults(u32 knob[AICC_NR_KNOBS], unsigned int profile);
int aicc_knob_check(unsigned int id, u64 value);
int aicc_parse_u64(const char *buf, u64 *out);
int aicc_knob_parse(unsigned int id, const char *buf, u32 *out);
int aicc_parse_u32_range(const char *buf, u32 min, u32 max, u32 *out);
int aicc_mem_entries_check(u64 n);
void aicc_params_set(struct aicc_params *p, const u32 knob[AICC_NR_KNOBS]);

/* The controller. */
unsigned int aicc_flow_init(struct aicc_flow *f, const struct aicc_params *p,
			    u32 init_cwnd, u32 mss, u64 now_ns, u32 delivered,
			    u32 delivered_ce, const struct aicc_memval *mem);
void aicc_flow_seed_rtt(struct aicc_flow *f, const struct aicc_params *p,
			u32 rtt_ns, u64 now_ns);
unsigned int aicc_on_ack(struct aicc_flow *f, const struct aicc_params *p,
			 const struct aicc_sample *s);
unsigned int aicc_on_rto(struct aicc_flow *f, const struct aicc_params *p,
			 u32 delivered, u32 delivered_ce);
unsigned int aicc_on_tx_start(struct aicc_flow *f,
			      const struct aicc_params *p, u64 now_ns,
			      u64 idle_ns, u32 delivered, u32 delivered_ce);
unsigned int aicc_on_undo(struct aicc_flow *f, const struct aicc_params *p,
			  u32 prior_pkts);
u64 aicc_resume_hold_ns(const struct aicc_flow *f, u64 idle_ns, u32 bytes);
bool aicc_idle_start(const struct aicc_flow *f, u64 idle_ns);
bool aicc_flow_memval(const struct aicc_flow *f, struct aicc_memval *out);
/*
 * The busy period's length at @now_ns, in 2^10 ns (about microseconds).
 * end_round() keeps it under 2^31 of them, so a span above 3 * 2^30 is a
 * start after @now_ns, a clock read that went backwards (a glue that
 * stamped the start with a finer clock than its ACKs), and counts as none.
 */
#define AICC_BUSY_SPAN_MAX	(3U << 30)

static inline u32 aicc_busy_span(const struct aicc_flow *f, u64 now_ns)
{
	u32 dur = (u32)(now_ns >> 10) - f->busy_start;

	return dur > AICC_BUSY_SPAN_MAX ? 0 : dur;
}

bool aicc_mem_fresh(const struct aicc_params *p, u64 age_ns);
void aicc_flow_adopt_base(struct aicc_flow *f, const struct aicc_params *p,
			  const struct aicc_memval *mv, u64 now_ns);
void aicc_flow_info(const struct aicc_flow *f, struct aicc_info *info);

/*
 * Reverse-path queueing from the peer's TCP timestamps.  An ACK that waits
 * in a queue on its way back (the data of the other direction, in an
 * all-to-all or an RPC's request path) lengthens the RTT although this
 * flow's own path holds no queue.  The peer stamps each ACK (TSval) when
 * it sends it, so the local clock at arrival minus TSval is the ACK's
 * one-way delay plus a constant clock offset; above its windowed minimum,
 * it is queueing on the way back.  aicc_fwd_rtt() removes that from an
 * RTT sample.  The caller keeps the state, zeroed at connection start.
 */
struct aicc_owd {
	u32 min;		/* smallest local clock - TSval, ticks */
	u32 stamp;		/* local clock when min was taken, ticks */
};

#define AICC_OWD_VALID		0x01	/* min holds a value */
#define AICC_OWD_OFF		0x02	/* the peer's clock does not fit */
#define AICC_OWD_TICKS_PER_BASE	4	/* a tick at most base RTT / 4 */
#define AICC_OWD_SLEW_TICKS	1024	/* drift followed: a tick per 1024 */

s64 aicc_fwd_rtt(struct aicc_owd *o, u8 *state, const struct aicc_flow *f,
		 const struct aicc_params *p, s64 rtt_ns, u32 now, u32 tsval,
		 u32 tick_ns);
void aicc_owd_idle(u8 *state, const struct aicc_params *p, u64 idle_ns);

/*
 * aicc_sample.ack_delayed for an ACK: the stack's own guess (@flagged:
 * Linux's FLAG_ACK_MAYBE_DELAYED, a lone runt), or one segment ACKed while
 * it was alone in flight (@prior_in_flight): a receiver that delays ACKs
 * (Linux does, outside quick-ACK mode) held this ACK for its timer, so its
 * RTT sample is not path delay.  The module and the simulator both ask
 * here, so that the law gets the same samples from both; behind a receiver
 * that ACKs every packet at once these samples are lost for nothing
 * (Documentation/algorithm.rst, "Signals").
 */
static inline u8 aicc_ack_maybe_delayed(bool flagged, u32 acked,
					u32 prior_in_flight)
{
	return flagged || (acked == 1 && prior_in_flight <= 1);
}

/*
 * Losses that no rate sample reports.  The stack counts every packet it
 * marks lost (Linux's tp->lost, @lost_total), but a rate sample's losses
 * are only the packets marked during that ACK's processing; packets that
 * RACK's reordering timer marks (tcp_rack_reo_timeout()), or an old ACK's
 * SACK blocks, are never in one.  The caller keeps the low 16 bits of
 * @lost_total in *@seen (updated here on every ACK, and at a timeout,
 * whose own losses the timeout reports): the packets marked since the last
 * ACK beyond the @rs_losses this one reports, modulo 2^16, which the law
 * needs only as "some" or "none" (an ACK that reports 2^16 or more is
 * compared modulo 2^16 too).  The module and the simulator both ask
 * here (Documentation/algorithm.rst, "Signals").
 */
static inline u32 aicc_losses_unreported(u16 *seen, u32 lost_total,
					 u32 rs_losses)
{
	u16 marked = (u16)lost_total - *seen;

	*seen = (u16)lost_total;
	/*
	 * Fewer than the ACK reports: the count was taken again during
	 * this ACK (Linux enters Loss inside tcp_ack() when an MTU probe
	 * fails, after the ACK marked its losses).
	 */
	if (marked < (u16)rs_losses)
		return 0;
	return (u16)(marked - (u16)rs_losses);
}

/* Kernel-visible window: at least AICC_CWND_FLOOR_PKTS whole packets. */
static inline u32 aicc_cwnd_pkts(const struct aicc_flow *f)
{
	u64 c = f->cwnd >> 16;

	if (c < AICC_CWND_FLOOR_PKTS)
		return AICC_CWND_FLOOR_PKTS;
	return c > 0xffffffffULL ? 0xffffffffU : (u32)c;
}

/* Fixed-point helpers (exported for the tests and the simulator). */
u64 aicc_udiv64(u64 n, u64 d);
u32 aicc_isqrt64(u64 x);
u64 aicc_mul_shr_portable(u64 a, u64 b, unsigned int shift);

/*
 * (a * b) >> shift with a 128-bit intermediate, saturating at 2^64 - 1.
 * Inline: it is most of the per-ACK arithmetic, and with a constant shift
 * on a 64-bit target it is one multiplication and a double shift.
 */
static inline u64 aicc_mul_shr(u64 a, u64 b, unsigned int shift)
{
#ifdef __SIZEOF_INT128__
	__uint128_t m = (__uint128_t)a * b;

	if (shift >= 128)
		return 0;
	m >>= shift;
	return m >> 64 ? ~0ULL : (u64)m;
#else
	return aicc_mul_shr_portable(a, b, shift);
#endif
}

/* The per-peer rate cache (aicc_mem.c). */
struct aicc_peer {
	u64 net;		/* network namespace cookie */
	u32 addr[4];		/* IPv6, or IPv4-mapped IPv6 */
};

struct aicc_mem_entry {
	u32 seq;		/* odd while a writer owns the entry */
	u32 base_stamp;
	u64 stamp;		/* store time, units of 2^20 ns: never wraps */
	u64 net;
	u32 addr[4];
	u64 rate;
	u32 base_rtt;
	u32 mss;
};

struct aicc_mem {
	struct aicc_mem_entry *tab;
	u32 mask;		/* entries - 1; entries is a power of two */
};

#define AICC_MEM_WAYS		4
bool aicc_mem_lookup(const struct aicc_mem *m, const struct aicc_peer *key,
		     u64 now_ns, u32 life_hi, struct aicc_memval *out);
bool aicc_mem_store(struct aicc_mem *m, const struct aicc_peer *key,
		    u64 now_ns, const struct aicc_memval *val);
u32 aicc_mem_count(const struct aicc_mem *m, u64 now_ns, u32 life_hi);

#endif /* _AICC_CORE_H */
