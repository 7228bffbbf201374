// SPDX-License-Identifier: GPL-2.0
/*
 * aicc: TCP congestion control for AI-cluster traffic -- kernel glue.
 *
 * The control law lives in core/aicc_core.c (see its header comment); this
 * file adapts it to struct tcp_congestion_ops.  aicc takes over the window
 * and the pacing rate completely through cong_control(), like BBR, so the
 * kernel's slow-start-after-idle and PRR do not interfere.
 *
 * Three congestion-control names come from this module, one per profile,
 * each with its own knobs under /sys/kernel/aicc/<name>/:
 *
 *   aicc       collectives: all-reduce and all-to-all bursts
 *   aicc_lat   latency: inference RPCs
 *   aicc_bulk  background: bulk and checkpoint traffic that yields
 *
 * aicc needs ECN (TCP_CONG_NEEDS_ECN) and, on the receiving side, echoes CE
 * marks per packet the way RFC 8257 describes for DCTCP, so the sender's
 * delivered_ce counts marked packets precisely.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/inet_diag.h>
#include <net/tcp.h>

#include "aicc_compat.h"
#include "aicc_mod.h"
#include "aicc_model_sysfs.h"

#define CREATE_TRACE_POINTS
#include "aicc_trace.h"

struct aicc_sock {
	struct aicc_flow f;
	u32 last_ack_us;	/* tcp_mstamp of the last ACK, for idle gaps */
	u32 prior_rcv_nxt;	/* receiver: rcv_nxt before the last segment */
	u32 last_rx_us;		/* receiver: arrival of the last segment */
	struct aicc_owd owd;	/* the ACKs' one-way delay, for aicc_fwd_rtt() */
	u8 owd_state;		/* AICC_OWD_* */
	u8 mem_rounds:4,	/* rounds since the peer's entry was refreshed */
	   ce_state:1,		/* receiver: last segment was CE-marked */
	   inited:1,		/* init() ran (release() may come without) */
	   tlp_armed:1,		/* this ACK may close a resent loss probe */
	   tlp_repaired:1;	/* ... and did: a loss for cong_control */
	u16 lost_seen;		/* tp->lost at the last ACK or timeout */
};

/*
 * One congestion control per profile, registered, and after them its twin
 * without TCP_CONG_NEEDS_ECN, never registered: a connection that did not
 * negotiate ECN moves to the twin in aicc_init(), as DCTCP's moves to its
 * Reno, so that tcp_init_congestion_control() clears the ECT that the SYN
 * (and tcp_assign_congestion_control()) set on the socket.  Otherwise
 * every packet would leave ECN-capable to a receiver that ignores CE, and
 * the switches would mark where they should drop.  The twin runs the same
 * law, on delay and loss.
 */
#define AICC_NR_OPS	(2 * AICC_NR_PROFILES)
static struct tcp_congestion_ops aicc_ops[AICC_NR_OPS] __read_mostly;

/*
 * A running flow refreshes its peer's rate-memory entry this often: every
 * time its round counter, of as many values, wraps.
 */
#define AICC_MEM_REFRESH_ROUNDS	16

static inline unsigned int aicc_profile_of(const struct sock *sk)
{
	return (inet_csk(sk)->icsk_ca_ops - aicc_ops) % AICC_NR_PROFILES;
}

static inline const struct aicc_params *aicc_params_of(unsigned int profile)
{
	return &rcu_dereference(aicc_profiles[profile].params)->p;
}

/* Events of the core, counted per profile. */
static const struct {
	unsigned int ev, stat;
} aicc_ev_stats[] = {
	{ AICC_EV_ROUND, AICC_S_ROUNDS },
	{ AICC_EV_DELAY_CUT, AICC_S_DECREASES },
	{ AICC_EV_ECN_CUT, AICC_S_ECN_CUTS },
	{ AICC_EV_LOSS_CUT, AICC_S_LOSS_CUTS },
	{ AICC_EV_RTO, AICC_S_RTO },
	{ AICC_EV_START_EXIT, AICC_S_START_EXITS },
	{ AICC_EV_IDLE_RESUME, AICC_S_IDLE_RESTARTS },
	{ AICC_EV_MEM_HIT, AICC_S_MEM_HITS },
	{ AICC_EV_MEM_MISS, AICC_S_MEM_MISSES },
	{ AICC_EV_POL_EVAL, AICC_S_POL_EVALS },
	{ AICC_EV_POL_RANGE, AICC_S_POL_RANGE },
	{ AICC_EV_POL_WATCHDOG, AICC_S_POL_WATCHDOG },
	{ AICC_EV_POL_HOLD, AICC_S_POL_HOLD },
	{ AICC_EV_UNDO, AICC_S_UNDOS },
};

static void aicc_count(struct sock *sk, unsigned int ev)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aicc_ev_stats); i++)
		if (ev & aicc_ev_stats[i].ev)
			aicc_stat_add(ca->f.profile, aicc_ev_stats[i].stat, 1);
	trace_aicc_update(sk, &ca->f, ev, tcp_packets_in_flight(tcp_sk(sk)));
}

/* Hand the core's window and rate to TCP. */
static void aicc_apply(struct sock *sk)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	tcp_snd_cwnd_set(tp, min(aicc_cwnd_pkts(&ca->f), tp->snd_cwnd_clamp));
	if (ca->f.rate)
		WRITE_ONCE(sk->sk_pacing_rate,
			   min_t(u64, ca->f.rate,
				 READ_ONCE(sk->sk_max_pacing_rate)));
}

static void aicc_peer_key(const struct sock *sk, struct aicc_peer *key)
{
	key->net = sock_net(sk)->net_cookie;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		memcpy(key->addr, &sk->sk_v6_daddr, sizeof(key->addr));
		return;
	}
#endif
	key->addr[0] = 0;
	key->addr[1] = 0;
	key->addr[2] = (__force u32)htonl(0x0000ffff);
	key->addr[3] = (__force u32)sk->sk_daddr;
}

/*
 * Record a call into the core and the state it left (aicc:aicc_core), for
 * tools/replay.  __aicc_trace_core() is for callers that already tested
 * trace_aicc_core_enabled(); aicc_trace_core() costs a static branch while
 * the event is off.
 */
static void __aicc_trace_core(struct sock *sk, unsigned int call,
			      u64 a0, u64 a1, u64 a2, u64 a3,
			      const void *in, unsigned int in_len,
			      unsigned int ret)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	u64 arg[AICC_TRACE_ARGS] = { a0, a1, a2, a3 };
	struct aicc_peer peer;

	aicc_peer_key(sk, &peer);
	trace_aicc_core(sk, &peer, call, arg, in, in_len, ret, &ca->f);
}

static inline void aicc_trace_core(struct sock *sk, unsigned int call,
				   u64 a0, u64 a1, u64 a2, u64 a3,
				   const void *in, unsigned int in_len,
				   unsigned int ret)
{
	if (trace_aicc_core_enabled())
		__aicc_trace_core(sk, call, a0, a1, a2, a3, in, in_len, ret);
}

/*
 * Trace one ACK's sample.  Only here, with the event on, are the sample's
 * padding bytes cleared (the trace must carry no stack bytes), and the
 * model pointer replaced by a flag in arg 0.
 */
static void aicc_trace_ack(struct sock *sk, struct aicc_sample *s,
			   unsigned int ev)
{
	const size_t pad = offsetof(struct aicc_sample, model) -
			   offsetofend(struct aicc_sample, ack_delayed);
	u64 model = !!s->model;

	/* the only padding: between ack_delayed and model (see aicc_core.h) */
	BUILD_BUG_ON(offsetofend(struct aicc_sample, ack_delayed) !=
		     2 * sizeof(u64) + 8 * sizeof(u32) + 2 * sizeof(u8));
	BUILD_BUG_ON(offsetofend(struct aicc_sample, model) !=
		     sizeof(struct aicc_sample));
	memset((u8 *)s + offsetofend(struct aicc_sample, ack_delayed), 0, pad);
	s->model = NULL;
	__aicc_trace_core(sk, AICC_TC_ACK, model, 0, 0, 0, s, sizeof(*s), ev);
}

#define AICC_MEM_ADOPT	0x1	/* take a lower base RTT from the entry */
#define AICC_MEM_STORE	0x2	/* refresh the entry with this flow's state */

/*
 * The peer's entry in the rate memory: take a lower base RTT from it if a
 * flow to the same peer saw one (@what has AICC_MEM_ADOPT), and refresh it
 * with this flow's state (AICC_MEM_STORE).  The entry is stamped with the
 * time of the store: the caller stores only a state younger than
 * rate_memory_ms (aicc_mem_fresh()).
 */
static void aicc_remember(struct sock *sk, const struct aicc_params *p,
			  unsigned int what)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	struct aicc_memval val, old;
	struct aicc_mem_tab *tab;
	struct aicc_peer key;
	u64 now;

	if (!READ_ONCE(aicc_mem_enabled))
		return;
	tab = rcu_dereference(aicc_mem_cur);
	if (!tab)
		return;
	aicc_peer_key(sk, &key);
	now = tcp_clock_ns();
	if ((what & AICC_MEM_ADOPT) &&
	    aicc_mem_lookup(&tab->mem, &key, now, p->mem_life_ns_hi, &old)) {
		aicc_flow_adopt_base(&ca->f, p, &old, now);
		aicc_trace_core(sk, AICC_TC_ADOPT, old.base_rtt,
				old.base_stamp, now, 0, NULL, 0, 0);
	}
	if ((what & AICC_MEM_STORE) && aicc_flow_memval(&ca->f, &val))
		aicc_mem_store(&tab->mem, &key, now, &val);
}

static void aicc_init(struct sock *sk)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	unsigned int profile = aicc_profile_of(sk);
	const struct aicc_params *p;
	struct aicc_memval val, *mem = NULL;
	/*
	 * The ACKs' clock (tcp_mstamp: tcp_clock_ns() to the microsecond),
	 * so that no ACK handled within the same microsecond (one queued in
	 * the socket's backlog while setsockopt() switched to aicc) looks
	 * older than the state the flow starts from.
	 */
	u64 now = tcp_clock_us() * NSEC_PER_USEC;
	unsigned int ev = 0, init_ev;

	/* no ECN negotiated: the twin without ECT (aicc_ops above) */
	if (!(tp->ecn_flags & TCP_ECN_OK) &&
	    !((1 << sk->sk_state) & (TCPF_LISTEN | TCPF_CLOSE))) {
		inet_csk(sk)->icsk_ca_ops =
			&aicc_ops[AICC_NR_PROFILES + profile];
		aicc_stat_add(profile, AICC_S_NO_ECN, 1);
	}

	BUILD_BUG_ON(sizeof(struct aicc_sock) > ICSK_CA_PRIV_SIZE);
	/* the refresh counter's mask and its four bits */
	BUILD_BUG_ON_NOT_POWER_OF_2(AICC_MEM_REFRESH_ROUNDS);
	BUILD_BUG_ON(AICC_MEM_REFRESH_ROUNDS > 16);
	BUILD_BUG_ON(sizeof(struct aicc_info) > sizeof(union tcp_cc_info));
	/* the entry size Documentation/ABI gives for rate_memory_entries */
	BUILD_BUG_ON(sizeof(struct aicc_mem_entry) != 56);

	/* the trace copies it whole: no stack bytes in its padding */
	memset(&val, 0, sizeof(val));
	rcu_read_lock();
	p = aicc_params_of(profile);
	if (READ_ONCE(aicc_mem_enabled)) {
		struct aicc_mem_tab *tab = rcu_dereference(aicc_mem_cur);
		struct aicc_peer key;

		aicc_peer_key(sk, &key);
		if (tab && aicc_mem_lookup(&tab->mem, &key, now,
					   p->mem_life_ns_hi, &val))
			mem = &val;
		else
			ev |= AICC_EV_MEM_MISS;
	}
	init_ev = aicc_flow_init(&ca->f, p, tcp_snd_cwnd(tp), tp->mss_cache,
				 now, tp->delivered, tp->delivered_ce, mem);
	ev |= init_ev;
	ca->f.profile = profile;
	aicc_trace_core(sk, AICC_TC_INIT, tcp_snd_cwnd(tp),
			tp->mss_cache | (u64)tp->delivered_ce << 32, now,
			profile | (u64)tp->delivered << 32, mem,
			mem ? sizeof(*mem) : 0, init_ev);
	if (tp->srtt_us) {
		u64 srtt = min_t(u64, (u64)(tp->srtt_us >> 3) * NSEC_PER_USEC,
				 U32_MAX);

		aicc_flow_seed_rtt(&ca->f, p, srtt, now);
		aicc_trace_core(sk, AICC_TC_SEED, srtt, now, 0, 0, NULL, 0, 0);
	}
	rcu_read_unlock();

	ca->last_ack_us = (u32)tp->tcp_mstamp;
	ca->prior_rcv_nxt = tp->rcv_nxt;
	ca->ce_state = 0;
	ca->owd_state = 0;
	ca->lost_seen = (u16)tp->lost;
	ca->tlp_armed = 0;
	ca->tlp_repaired = 0;
	ca->inited = 1;

	/* aicc paces every flow: let TCP pace when no fq qdisc does. */
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
	aicc_apply(sk);
	aicc_stat_add(profile, AICC_S_FLOWS, 1);
	aicc_stat_add(profile, AICC_S_INITS, 1);
	aicc_count(sk, ev);
}

/*
 * The last data sent (lsndtime, in jiffies) is older than any state worth
 * keeping: AICC_IDLE_LONG_MS is past the longest rate_memory_ms (an hour)
 * and short of 2^32 us (71.6 minutes), where jiffies_to_usecs() and so
 * jiffies_to_nsecs() wrap.
 */
#define AICC_IDLE_LONG_MS	(65 * 60 * MSEC_PER_SEC)

static bool aicc_sent_long_ago(const struct tcp_sock *tp)
{
	return tcp_jiffies32 - tp->lsndtime > msecs_to_jiffies(AICC_IDLE_LONG_MS);
}

static void aicc_release(struct sock *sk)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct aicc_params *p;

	if (!ca->inited)
		return;
	rcu_read_lock();
	p = aicc_params_of(ca->f.profile);
	/*
	 * The state is as old as the last data sent: a connection that sat
	 * idle longer than rate_memory_ms before it closed holds a rate
	 * too old to hand on, though its last ACK (of the FIN) is recent.
	 */
	if (!aicc_sent_long_ago(tp) &&
	    aicc_mem_fresh(p, jiffies_to_nsecs(tcp_jiffies32 - tp->lsndtime)))
		aicc_remember(sk, p, AICC_MEM_STORE);
	rcu_read_unlock();
	aicc_stat_add(ca->f.profile, AICC_S_FLOWS, -1);
	ca->inited = 0;
}

static void aicc_cong_control(AICC_CONG_CONTROL_ARGS)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	const struct aicc_params *p;
	struct aicc_sample s;
	unsigned int ev;
	u32 unreported;

	/*
	 * An active open's SYN-ACK is ACK-processed (tcp_ack()) before the
	 * connection is set up and init() runs: nothing to control yet.
	 * (A setsockopt(TCP_CONGESTION) in SYN_SENT runs init() early; the
	 * SYN-ACK's sample is then the flow's first, as any other, and the
	 * first transmission hands the window over again: aicc_cwnd_event().)
	 */
	if (!ca->inited)
		return;
	s.now_ns = tp->tcp_mstamp * NSEC_PER_USEC;
	s.rtt_ns = rs->rtt_us > 0 ? (s64)rs->rtt_us * NSEC_PER_USEC : -1;
	s.srtt_ns = min_t(u64, (u64)(tp->srtt_us >> 3) * NSEC_PER_USEC,
			  U32_MAX);
	s.delivered = tp->delivered;
	s.delivered_ce = tp->delivered_ce;
	s.prior_delivered = rs->prior_delivered;
	s.acked = rs->acked_sacked;
	s.losses = rs->losses > 0 ? rs->losses : 0;
	/* and those RACK's timer found since the last ACK */
	unreported = aicc_losses_unreported(&ca->lost_seen, tp->lost, s.losses);
	if (unreported) {
		s.losses += unreported;
		aicc_stat_add(ca->f.profile, AICC_S_TIMER_LOSSES, unreported);
	}
	/* and the one a tail-loss probe repaired (aicc_in_ack_event()) */
	ca->tlp_armed = 0;
	if (ca->tlp_repaired) {
		ca->tlp_repaired = 0;
		s.losses++;
		aicc_stat_add(ca->f.profile, AICC_S_TLP_LOSSES, 1);
	}
	s.inflight = tcp_packets_in_flight(tp);
	s.mss = tp->mss_cache;
	s.app_limited = rs->is_app_limited;
	s.ack_delayed = aicc_ack_maybe_delayed(rs->is_ack_delayed,
					       rs->acked_sacked,
					       rs->prior_in_flight);

	rcu_read_lock();
	p = aicc_params_of(ca->f.profile);
	/* an ACK that queued on its way back: not this flow's queue */
	if (tp->rx_opt.saw_tstamp)
		s.rtt_ns = aicc_fwd_rtt(&ca->owd, &ca->owd_state, &ca->f, p,
					s.rtt_ns, aicc_ts_now(tp),
					tp->rx_opt.rcv_tsval,
					aicc_ts_tick_ns(tp));
	s.model = aicc_model_get(ca->f.profile);
	ev = aicc_on_ack(&ca->f, p, &s);
	if (trace_aicc_core_enabled())
		aicc_trace_ack(sk, &s, ev);
	if (ev & AICC_EV_ROUND) {
		ca->mem_rounds = (ca->mem_rounds + 1) &
				 (AICC_MEM_REFRESH_ROUNDS - 1);
		if (!ca->mem_rounds)
			aicc_remember(sk, p, AICC_MEM_ADOPT | AICC_MEM_STORE);
	}
	rcu_read_unlock();

	ca->last_ack_us = (u32)tp->tcp_mstamp;
	aicc_apply(sk);
	if (ev)
		aicc_count(sk, ev);
}

/* ACKs echo ECE while TCP_ECN_DEMAND_CWR is set. */
static void aicc_set_ece(struct tcp_sock *tp, u8 ce)
{
	if (ce)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

/* Receiver side: per-packet CE echo (RFC 8257, section 3.2). */
static void aicc_ce_update(struct sock *sk, u8 ce)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	if (ca->ce_state != ce) {
		/*
		 * The marking changed: first acknowledge what came before
		 * the change, with the old ECE value, if an ACK is owed.
		 * The ECE flag is set again from the old state: a CWR on
		 * this segment has already cleared it
		 * (tcp_ecn_accept_cwr() runs before the CE event).
		 */
		if (inet_csk(sk)->icsk_ack.pending & ICSK_ACK_TIMER) {
			aicc_set_ece(tp, ca->ce_state);
			__tcp_send_ack(sk, ca->prior_rcv_nxt);
		}
		inet_csk(sk)->icsk_ack.pending |= ICSK_ACK_NOW;
		ca->ce_state = ce;
	}
	ca->prior_rcv_nxt = tp->rcv_nxt;
	aicc_set_ece(tp, ce);
}

/*
 * Receiver side: a segment that arrives alone, long after the previous
 * one, is ACKed at once instead of waiting for the delayed-ACK timer
 * (40 ms on Linux).  A slow flow (hundreds of senders into one port) would
 * otherwise see every RTT sample inflated by the timer and read it as
 * queueing delay.  At higher rates segments come in pairs and nothing
 * changes.
 */
#define AICC_LONE_GAP_US	500

static void aicc_rx_segment(struct sock *sk, u8 ce)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	u32 now = (u32)tcp_sk(sk)->tcp_mstamp;

	if (now - ca->last_rx_us > AICC_LONE_GAP_US)
		inet_csk(sk)->icsk_ack.pending |= ICSK_ACK_NOW;
	ca->last_rx_us = now;
	aicc_ce_update(sk, ce);
}

/*
 * After a resume: the first packet after the gap already has its
 * departure time (tcp_wstamp_ns, stamped before CA_EVENT_TX_START);
 * moving tcp_wstamp_ns on delays the next one, which the kernel would
 * send half of this packet's time early (aicc_resume_hold_ns()).  The
 * packet being sent is still the head of the write queue (tcp_write_xmit()
 * moves it on after the transmit); its length counts all its segments.
 * Like the kernel's pacing, only from the tenth segment on: the kernel
 * paces a packet once data_segs_out, with the packet's own segments added
 * after this event, is AICC_PACED_FROM_SEG (tcp_update_skb_after_send()).
 */
static void aicc_resume_hold(struct sock *sk, u64 idle_ns)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb = tcp_send_head(sk);
	u32 bytes = skb ? skb->len : tp->mss_cache;
	u32 segs = skb ? tcp_skb_pcount(skb) : 1;

	if (tp->data_segs_out + segs < AICC_PACED_FROM_SEG)
		return;
	tp->tcp_wstamp_ns += aicc_resume_hold_ns(&ca->f, idle_ns, bytes);
}

/*
 * Microseconds since the last ACK.  last_ack_us holds 32 bits of
 * tcp_mstamp, which wrap after 71.6 minutes, so a longer gap would look
 * short.  The last data sent (lsndtime) came before that ACK: when it is
 * older than AICC_IDLE_LONG_MS (aicc_sent_long_ago()), the gap is
 * reported as the longest there is.
 */
static u32 aicc_idle_us(const struct tcp_sock *tp, const struct aicc_sock *ca)
{
	if (aicc_sent_long_ago(tp))
		return U32_MAX;
	return (u32)tp->tcp_mstamp - ca->last_ack_us;
}

static void aicc_cwnd_event(struct sock *sk, enum tcp_ca_event event)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	const struct aicc_params *p;
	unsigned int ev;
	u64 idle_ns;
	bool idle;

	switch (event) {
	case CA_EVENT_ECN_IS_CE:
		aicc_rx_segment(sk, 1);
		break;
	case CA_EVENT_ECN_NO_CE:
		aicc_rx_segment(sk, 0);
		break;
	case CA_EVENT_TX_START:
		/*
		 * Nothing in flight but packets out: a timeout (or RACK)
		 * marked them all lost, and the first retransmission raises
		 * the event, but the connection was not idle, and the core
		 * has taken the loss (aicc_on_rto()).  A resume here would
		 * undo that cut with the rate of the busy period before it.
		 * Not the CA state: without SACK a connection stays in
		 * Recovery (or Loss) over an idle gap when the last ACK was
		 * of high_seq exactly (tcp_try_undo_recovery()), and its next
		 * burst is a resume all the same.  An idle start has none
		 * out: the packet being sent is counted after this event.
		 */
		if (!ca->inited || tp->packets_out)
			break;
		idle_ns = (u64)aicc_idle_us(tp, ca) * NSEC_PER_USEC;
		/*
		 * The pacer's wait between two packets of a burst is no
		 * idle period (the core ignores it too): no table probes
		 * for it, which come once per packet in that case.
		 */
		idle = aicc_idle_start(&ca->f, idle_ns);
		rcu_read_lock();
		p = aicc_params_of(ca->f.profile);
		aicc_owd_idle(&ca->owd_state, p, idle_ns);
		/*
		 * The state from before the gap, stamped now: only while it
		 * is younger than rate_memory_ms (the core resumes from it
		 * then; after a longer gap it starts afresh).
		 */
		if (idle && aicc_mem_fresh(p, idle_ns))
			aicc_remember(sk, p, AICC_MEM_STORE);
		ev = aicc_on_tx_start(&ca->f, p, tp->tcp_mstamp * NSEC_PER_USEC,
				      idle_ns, tp->delivered, tp->delivered_ce);
		aicc_trace_core(sk, AICC_TC_TX_START,
				tp->tcp_mstamp * NSEC_PER_USEC, idle_ns,
				tp->delivered, tp->delivered_ce, NULL, 0, ev);
		/*
		 * A lower base RTT that a flow to the same peer measured: after
		 * the core, which ages the flow's own base after a gap longer
		 * than min_rtt_win_ms and would age the adopted one with it.
		 */
		if (idle)
			aicc_remember(sk, p, AICC_MEM_ADOPT);
		rcu_read_unlock();
		/*
		 * Handed over even without an event: a setsockopt(
		 * TCP_CONGESTION) in SYN_SENT runs init() before the
		 * connection is up, and tcp_init_transfer() then resets the
		 * window to the initial one, a remembered rate's included.
		 * Otherwise TCP's window and rate are the core's already.
		 */
		aicc_apply(sk);
		if (ev)
			aicc_count(sk, ev);
		if (ev & AICC_EV_IDLE_RESUME)
			aicc_resume_hold(sk, idle_ns);
		break;
	default:
		break;
	}
}

/*
 * Loss without a timeout: a path MTU reduction (ICMP "fragmentation
 * needed"), an MTU probe that the path did not carry, or Fast Open data
 * that the peer did not take marks packets lost that no queue dropped;
 * tcp_non_congestion_loss_retransmit() sends them again, leaves the window
 * alone, and has just dropped the undo state -- never in the Loss state
 * (this is called before icsk_ca_state changes).  Timeouts come from the
 * retransmit timer, which clears icsk_pending before it calls
 * tcp_retransmit_timer(), or, backed off already (so in Loss), from an
 * ICMP unreachable's revert of the backoff (tcp_ld_RTO_revert()), with the
 * timer still pending; otherwise, with packets out, a timer is pending.
 */
static bool aicc_loss_is_timeout(const struct sock *sk)
{
	const struct inet_connection_sock *icsk = inet_csk(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	return !icsk->icsk_pending || icsk->icsk_ca_state == TCP_CA_Loss ||
	       tp->undo_marker || tp->prior_ssthresh;
}

/*
 * A tail-loss probe that sent the last packet again repaired a loss when
 * the ACKs pass what it sent with no D-SACK of the first copy; that copy
 * was never marked lost, so no rate sample counts it.  Linux finds it in
 * tcp_process_tlp_ack(), after in_ack_event() and before cong_control()
 * of the same ACK, and tells the congestion control only by entering CWR,
 * with tlp_high_seq cleared (tcp_init_cwnd_reduction()).  Only an ACK
 * that passes the probe can (snd_una is the ACK's by now), and such an
 * ACK always reaches cong_control(), which drops the note: an ACK with
 * nothing in flight does not, and a CWR entered later for a local qdisc's
 * drop (tcp_enter_cwr() from __tcp_transmit_skb()) must find no note.
 * The other entry into CWR while an ACK is processed is an ECN echo's
 * (tcp_enter_cwr() from tcp_try_to_open(), later in the same ACK, which
 * may also have found the probe's copy D-SACKed): an ACK with ECE is not
 * asked, and its marks reach the law as marks.
 */
static void aicc_in_ack_event(struct sock *sk, u32 flags)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	ca->tlp_armed = tp->tlp_high_seq && tp->tlp_retrans &&
			after(tp->snd_una, tp->tlp_high_seq) &&
			!(flags & CA_ACK_ECE);
}

static void aicc_set_state(struct sock *sk, u8 new_state)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	unsigned int ev;
	u16 marked;

	if (!ca->inited)
		return;
	if (new_state == TCP_CA_CWR && ca->tlp_armed && !tp->tlp_high_seq) {
		ca->tlp_armed = 0;
		ca->tlp_repaired = 1;
	}
	if (new_state != TCP_CA_Loss)
		return;
	/*
	 * The losses marked on the way here are the entry's own: a timeout's
	 * (tcp_timeout_mark_lost()), or the packets too large for the path,
	 * which are not the law's.
	 */
	marked = (u16)tp->lost - ca->lost_seen;
	ca->lost_seen = (u16)tp->lost;
	if (!aicc_loss_is_timeout(sk)) {
		aicc_stat_add(ca->f.profile, AICC_S_NOCONG_LOSSES, marked);
		return;
	}
	rcu_read_lock();
	ev = aicc_on_rto(&ca->f, aicc_params_of(ca->f.profile), tp->delivered,
			 tp->delivered_ce);
	aicc_trace_core(sk, AICC_TC_RTO, tp->delivered, tp->delivered_ce, 0, 0,
			NULL, 0, ev);
	rcu_read_unlock();
	aicc_apply(sk);
	aicc_count(sk, ev);
}

static u32 aicc_ssthresh(struct sock *sk)
{
	/* aicc keeps no slow-start threshold; cong_control owns cwnd. */
	return tcp_sk(sk)->snd_ssthresh;
}

/*
 * TCP found the recovery or timeout that began at tp->prior_cwnd spurious
 * (tcp_undo_cwnd_reduction(): only where it saved a prior ssthresh, so
 * never for an ECN-driven CWR, nor once an ECN echo withdrew the undo) and
 * sets the window to what this returns.  The window and pacing rate are
 * applied here: an undo on an old ACK, or with nothing in flight, is not
 * followed by cong_control.
 */
static u32 aicc_undo_cwnd(struct sock *sk)
{
	struct aicc_sock *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	unsigned int ev;

	if (!ca->inited)
		return tcp_snd_cwnd(tp);
	rcu_read_lock();
	ev = aicc_on_undo(&ca->f, aicc_params_of(ca->f.profile),
			  tp->prior_cwnd);
	aicc_trace_core(sk, AICC_TC_UNDO, tp->prior_cwnd, 0, 0, 0, NULL, 0, ev);
	rcu_read_unlock();
	aicc_apply(sk);
	aicc_count(sk, ev);
	return tcp_snd_cwnd(tp);
}

/* @pkts of @mss bytes, at most U32_MAX */
static u32 aicc_round_bytes(u32 pkts, u32 mss)
{
	return min_t(u64, (u64)pkts * mss, U32_MAX);
}

static size_t aicc_get_info(struct sock *sk, u32 ext, int *attr,
			    union tcp_cc_info *info)
{
	const struct aicc_sock *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	if (ext != ~0U &&
	    (ext & ((1 << (INET_DIAG_DCTCPINFO - 1)) |
		    (1 << (INET_DIAG_VEGASINFO - 1))))) {
		/* What stock ss(8) decodes: DCTCP's view of our ECN state. */
		memset(&info->dctcp, 0, sizeof(info->dctcp));
		info->dctcp.dctcp_enabled = 1;
		info->dctcp.dctcp_ce_state = ca->ce_state;
		info->dctcp.dctcp_alpha = ca->f.alpha >> 5;
		/* bytes of the round so far, as DCTCP's of its window */
		info->dctcp.dctcp_ab_ecn = aicc_round_bytes(tp->delivered_ce -
							    ca->f.round_ce0,
							    tp->mss_cache);
		info->dctcp.dctcp_ab_tot = aicc_round_bytes(tp->delivered -
							    ca->f.round_end,
							    tp->mss_cache);
		*attr = INET_DIAG_DCTCPINFO;
		return sizeof(info->dctcp);
	}
	if (ext == ~0U || (ext & (1 << (INET_DIAG_INFO - 1)))) {
		struct aicc_info ai;

		aicc_flow_info(&ca->f, &ai);
		memcpy(info, &ai, sizeof(ai));
		*attr = AICC_DIAG_ATTR;
		return sizeof(ai);
	}
	return 0;
}

static const struct tcp_congestion_ops aicc_ops_template = {
	.flags		= TCP_CONG_NEEDS_ECN,
	.init		= aicc_init,
	.release	= aicc_release,
	.ssthresh	= aicc_ssthresh,
	.cong_control	= aicc_cong_control,
	.undo_cwnd	= aicc_undo_cwnd,
	.cwnd_event	= aicc_cwnd_event,
	.in_ack_event	= aicc_in_ack_event,
	.set_state	= aicc_set_state,
	.get_info	= aicc_get_info,
	.owner		= THIS_MODULE,
};

/* the profiles whose congestion control registered (bit per profile) */
static unsigned long aicc_registered;

/*
 * A profile whose name is taken (another congestion control, a BPF one
 * for instance, registered it first) is left out and the others stay:
 * once one profile is registered, a socket or the sysctl default may
 * already use it (a module being initialised can be taken), and a failed
 * init frees the module under them.  Only when none registers does the
 * load fail.
 */
static int __init aicc_module_init(void)
{
	int i, ret, err = 0;

	ret = aicc_params_init();
	if (ret)
		return ret;
	ret = aicc_sysfs_init();
	if (ret)
		goto err_params;
	for (i = 0; i < AICC_NR_OPS; i++) {
		aicc_ops[i] = aicc_ops_template;
		strscpy(aicc_ops[i].name,
			aicc_profile_desc[i % AICC_NR_PROFILES].name,
			sizeof(aicc_ops[i].name));
	}
	for (i = AICC_NR_PROFILES; i < AICC_NR_OPS; i++)
		aicc_ops[i].flags &= ~TCP_CONG_NEEDS_ECN;
	for (i = 0; i < AICC_NR_PROFILES; i++) {
		ret = tcp_register_congestion_control(&aicc_ops[i]);
		if (ret) {
			pr_err("cannot register %s: %d\n", aicc_ops[i].name,
			       ret);
			err = ret;
			continue;
		}
		__set_bit(i, &aicc_registered);
	}
	if (!aicc_registered) {
		ret = err;
		goto err_sysfs;
	}
	pr_info("version " AICC_VERSION " registered\n");
	return 0;

err_sysfs:
	aicc_sysfs_exit();
err_params:
	aicc_params_exit();
	return ret;
}

static void __exit aicc_module_exit(void)
{
	int i;

	for (i = 0; i < AICC_NR_PROFILES; i++)
		if (test_bit(i, &aicc_registered))
			tcp_unregister_congestion_control(&aicc_ops[i]);
	aicc_sysfs_exit();
	aicc_params_exit();
}

module_init(aicc_module_init);
module_exit(aicc_module_exit);

MODULE_AUTHOR("The aicc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP congestion control for AI-cluster traffic");
MODULE_VERSION(AICC_VERSION);
MODULE_ALIAS("tcp_aicc_lat");
MODULE_ALIAS("tcp_aicc_bulk");
