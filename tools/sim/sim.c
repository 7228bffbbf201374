// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-sim engine: topology, TCP-like endpoints, workloads, metrics.
 *
 * Hosts send through a NIC that serves pure ACKs first, then the flows that
 * may send (window open, pacing time reached) in round robin.  A switch
 * output port is a FIFO whose departure times are known on arrival, so a
 * packet costs one event per hop.  Senders keep a per-packet scoreboard as
 * Linux does (send time, 'delivered' at send, app-limited) and detect loss
 * when SIM_DUPTHRESH packets sent later have been delivered, or, as RACK, a
 * packet sent later was delivered and this one is older than that one's RTT
 * plus a reordering window; receivers ACK
 * every 'delack' packets (or on timeout, or at once when out of order) and
 * echo the CE count of the packets they acknowledge.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

enum {
	EV_ARRIVE,	/* arg: packet */
	EV_NIC,		/* arg: host; the NIC finished a packet */
	EV_PACE,	/* arg: flow */
	EV_RTO,		/* arg: flow */
	EV_DELACK,	/* arg: flow */
	EV_ITER,	/* a collective iteration starts */
	EV_START,	/* arg: flow; a long flow starts */
	EV_STOP,	/* arg: flow; a long flow stops writing */
	EV_RPC,		/* arg: flow; an RPC is issued */
	EV_BIN,		/* fairness sampling */
	EV_WIN0,	/* measurement window opens */
	EV_WIN1,	/* measurement window closes */
	EV_TRACE,	/* debugging output */
	EV_POST,	/* arg: flow; a late sender writes its message */
};

#define BULK_END	0x7fffffffU
#define RPC_MIN		1024.0
#define RPC_MAX		1048576.0

static const char *const sc_names[SIM_NR_SC] = {
	[SIM_SC_LONG] = "long",
	[SIM_SC_STAGGER] = "stagger",
	[SIM_SC_INCAST] = "incast",
	[SIM_SC_ALLTOALL] = "alltoall",
	[SIM_SC_ALLREDUCE] = "allreduce",
	[SIM_SC_RPC] = "rpc",
	[SIM_SC_PIPELINE] = "pipeline",
	[SIM_SC_REVERSE] = "reverse",
};

static const char *const cc_names[SIM_NR_CC] = {
	[SIM_CC_AICC] = "aicc",
	[SIM_CC_DCTCP] = "dctcp",
	[SIM_CC_SWIFT] = "swift",
	[SIM_CC_RENO] = "reno",
};

const char *sim_scenario_name(int sc)
{
	return sc >= 0 && sc < SIM_NR_SC ? sc_names[sc] : "?";
}

const char *sim_cc_name(int cc)
{
	return cc >= 0 && cc < SIM_NR_CC ? cc_names[cc] : "?";
}

int sim_parse_scenario(const char *s)
{
	int i;

	for (i = 0; i < SIM_NR_SC; i++)
		if (!strcmp(s, sc_names[i]))
			return i;
	return -1;
}

int sim_parse_cc(const char *s)
{
	int i;

	for (i = 0; i < SIM_NR_CC; i++)
		if (!strcmp(s, cc_names[i]))
			return i;
	return -1;
}

int sim_parse_profile(const char *s)
{
	int i;

	for (i = 0; i < AICC_NR_PROFILES; i++)
		if (!strcmp(s, aicc_profile_desc[i].name))
			return i;
	return -1;
}

void sim_config_defaults(struct sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->scenario = SIM_SC_INCAST;
	c->cc = SIM_CC_AICC;
	c->profile = -1;
	c->topo = SIM_TOPO_AUTO;
	c->flows = 16;
	c->rate_gbit = 100;
	c->rtt_us = 10;
	c->buffer_kb = 1024;
	c->ecn_kb = 100;
	c->time_ms = 10;
	c->warmup_ms = -1;
	c->seed = 1;
	c->mtu = 1500;
	c->delack = 1;
	c->delack_us = 40;
	c->min_rto_us = 200;
	c->init_cwnd = 10;
	c->max_cwnd = 4096;
	c->msg_kb = 64;
	c->gap_us = 100;
	c->leaf_hosts = 8;
	c->spines = 0;
	c->rpc_load = 20;
	c->bulk_flows = 2;
	c->microbatches = 8;
	c->ts_tick_us = 1000;
	c->trace_flows = 8;
	c->ss_after_idle = true;
}

/* ---- small helpers ---- */

static inline void sim_push(struct sim *s, u64 t, u32 kind, u32 arg)
{
	if (heap_push(&s->heap, t, kind, arg))
		s->oom = true;
}

static int qring_push(struct qring *q, u64 v)
{
	if (q->tail - q->head > q->mask || !q->a) {
		u32 n = q->tail - q->head;
		u32 cap = q->a ? (q->mask + 1) * 2 : 16, i;
		u64 *a = malloc(sizeof(*a) * cap);

		if (!a)
			return -1;
		for (i = 0; i < n; i++)
			a[i] = q->a[(q->head + i) & q->mask];
		free(q->a);
		q->a = a;
		q->head = 0;
		q->tail = n;
		q->mask = cap - 1;
	}
	q->a[q->tail++ & q->mask] = v;
	return 0;
}

static inline bool qring_empty(const struct qring *q)
{
	return q->head == q->tail;
}

static inline u64 qring_front(const struct qring *q)
{
	return q->a[q->head & q->mask];
}

static inline u64 qring_pop(struct qring *q)
{
	return q->a[q->head++ & q->mask];
}

static u32 pkt_alloc(struct sim *s)
{
	u32 i;

	if (s->pk_free != SIM_NONE) {
		i = s->pk_free;
		s->pk_free = s->pk[i].next;
		return i;
	}
	if (s->pk_used == s->pk_cap) {
		u32 cap = s->pk_cap * 2;
		struct pkt *a = realloc(s->pk, sizeof(*a) * cap);

		if (!a) {
			s->oom = true;
			return SIM_NONE;
		}
		s->pk = a;
		s->pk_cap = cap;
	}
	return s->pk_used++;
}

static inline void pkt_free(struct sim *s, u32 i)
{
	s->pk[i].next = s->pk_free;
	s->pk_free = i;
}

static inline struct seg *seg_of(struct flow *f, u32 seq)
{
	return &f->sb[seq & f->sb_mask];
}

u64 sim_rto_ps(const struct sim *s, const struct flow *f)
{
	u64 var = 4 * f->rttvar_ps, min = s->c->min_rto_us * PS_PER_US;
	u64 rto = f->srtt_ps + (var > min ? var : min);
	u64 cap = 200000 * PS_PER_US;

	/* doubled up to 200 ms, or up to a min_rto_us above that */
	if (cap < min)
		cap = min;
	rto <<= f->backoff;
	return rto > cap ? cap : rto;
}

/*
 * The flow's one retransmission timer (the RTO, RACK's or a probe's), due
 * at deadline; the queue holds an event at the earliest time pushed, which
 * re-pushes itself when the deadline has moved later.
 */
static void xmit_timer_set(struct sim *s, struct flow *f, u64 deadline,
			   bool reo, bool tlp)
{
	f->rto_deadline = deadline;
	f->rto_armed = true;
	f->reo_pending = reo;
	f->tlp_pending = tlp;
	if (!f->rto_ev || f->rto_ev > deadline) {
		f->rto_ev = deadline;
		sim_push(s, f->rto_ev, EV_RTO, f->id);
	}
}

/* as tcp_reset_xmit_timer(): the pacing delay already queued */
static u64 pacing_delay(const struct sim *s, const struct flow *f)
{
	return f->next_tx_ps > s->now ? f->next_tx_ps - s->now : 0;
}

static void rto_arm(struct sim *s, struct flow *f)
{
	xmit_timer_set(s, f, s->now + sim_rto_ps(s, f) + pacing_delay(s, f),
		       false, false);
}

/* usecs_to_jiffies() at HZ=250, back in ps: up to whole 4 ms */
static u64 jiffies_ps(u64 ps)
{
	const u64 j = 4000 * PS_PER_US;

	return (ps + j - 1) / j * j;
}

/* TCP_TIMEOUT_MIN_US: the slack of RACK's and the probe's timers */
#define TIMEOUT_MIN_PS	(2000 * PS_PER_US)

/*
 * tcp_rearm_rto() when the timer that fired was RACK's or a probe's that
 * sent nothing: the RTO counts from when the oldest packet out was sent.
 */
static void rto_arm_head(struct sim *s, struct flow *f)
{
	u64 rto = sim_rto_ps(s, f);
	u64 t = seg_of(f, f->snd_una)->tx_ps + rto;
	u64 late = s->now + rto + pacing_delay(s, f);

	xmit_timer_set(s, f, t < s->now ? s->now : t < late ? t : late,
		       false, false);
}

/*
 * After an ACK or new data sent (tcp_set_xmit_timer(),
 * tcp_schedule_loss_probe()): with --tlp and outside a recovery, the
 * timer is a tail-loss probe's, due in twice srtt plus 2 ms (plus the
 * minimum RTO instead, a delayed ACK's allowance, with one packet out),
 * in whole jiffies, 1 s with no RTT yet, or when the RTO would be if that
 * is sooner; otherwise the RTO's, counted from the oldest packet's
 * transmission if head (a RACK or probe timer was pending).
 */
static void xmit_timer_arm(struct sim *s, struct flow *f, bool head)
{
	u64 pto, rto;

	if (!s->c->tlp || f->in_recov) {
		if (head)
			rto_arm_head(s, f);
		else
			rto_arm(s, f);
		return;
	}
	rto = sim_rto_ps(s, f);
	if (!f->srtt_ps)
		pto = 1000000 * PS_PER_US;
	else
		pto = jiffies_ps(2 * f->srtt_ps +
				 (f->snd_nxt - f->snd_una == 1 ?
				  s->c->min_rto_us * PS_PER_US :
				  TIMEOUT_MIN_PS));
	xmit_timer_set(s, f, s->now + (pto < rto ? pto : rto) +
		       pacing_delay(s, f), false, true);
}

/*
 * RACK's reordering timer in the RTO's place (tcp_rack_mark_lost()): in
 * left plus 2 ms, in whole jiffies, never later than the RTO.
 */
static void reo_arm(struct sim *s, struct flow *f, u64 left)
{
	u64 rto = sim_rto_ps(s, f);

	left = jiffies_ps(left + TIMEOUT_MIN_PS);
	xmit_timer_set(s, f, s->now + (left < rto ? left : rto), true, false);
}

/* ---- NIC and sending ---- */

static void nic_kick(struct sim *s, u32 hid);

static void rq_clean(struct flow *f)
{
	while (!qring_empty(&f->rq)) {
		u32 seq = (u32)qring_front(&f->rq);

		if (seq >= f->snd_una && seq < f->snd_nxt &&
		    seg_of(f, seq)->state == SEG_LOST)
			break;
		qring_pop(&f->rq);
	}
}

static bool has_data(struct sim *s, struct flow *f)
{
	rq_clean(f);
	if (!qring_empty(&f->rq))
		return true;
	return f->snd_nxt < f->app_end &&
	       f->snd_nxt - f->snd_una < s->c->max_cwnd;
}

static void flow_sched(struct sim *s, struct flow *f)
{
	struct host *h;
	u64 edt;

	if (f->in_rr || f->pace_ev || qring_empty(&f->hq))
		return;
	edt = s->pk[qring_front(&f->hq)].edt;
	if (edt > s->now) {
		f->pace_ev = edt;
		sim_push(s, f->pace_ev, EV_PACE, f->id);
		return;
	}
	h = &s->hosts[f->src];
	if (qring_push(&h->rr, f->id)) {
		s->oom = true;
		return;
	}
	f->in_rr = true;
	if (!h->nic_busy)
		nic_kick(s, f->src);
}

static u32 flow_send(struct sim *s, struct flow *f);

/*
 * TCP hands every packet the window allows to the host at once, stamped
 * with its earliest departure time (EDT, as Linux does with fq); the host
 * releases them at that time.  Packets waiting in the host are in flight.
 */
static void flow_fill(struct sim *s, struct flow *f)
{
	while (f->inflight < f->cwnd) {
		u32 pi;

		if (!has_data(s, f)) {
			/* a bubble: samples until it drains are app-limited */
			if (qring_empty(&f->hq))
				f->app_limited = (f->delivered + f->inflight) ?: 1;
			break;
		}
		pi = flow_send(s, f);
		if (pi == SIM_NONE || qring_push(&f->hq, pi)) {
			s->oom = true;
			return;
		}
	}
	flow_sched(s, f);
}

static int sb_grow(struct flow *f)
{
	u32 cap = (f->sb_mask + 1) * 2, seq;
	struct seg *sb = calloc(cap, sizeof(*sb));

	if (!sb)
		return -1;
	for (seq = f->snd_una; seq < f->snd_nxt; seq++)
		sb[seq & (cap - 1)] = *seg_of(f, seq);
	free(f->sb);
	f->sb = sb;
	f->sb_mask = cap - 1;
	return 0;
}

static u16 msg_len_of(struct flow *f, u32 seq)
{
	struct msg *m;

	if (f->tx_msg < f->rx_msg)
		f->tx_msg = f->rx_msg;
	for (;;) {
		m = &f->msgs[f->tx_msg & (f->msg_cap - 1)];
		if (seq < m->end_seq || f->tx_msg + 1 >= f->msg_n)
			break;
		f->tx_msg++;
	}
	return seq == m->end_seq - 1 ? m->last_len : f->mss;
}

/* Put the flow's next packet on the NIC; returns the packet or SIM_NONE. */
static u32 flow_send(struct sim *s, struct flow *f)
{
	bool retx = false;
	struct seg *g;
	u32 seq, i;
	struct pkt *p;
	u64 edt, prior;

	if (!f->inflight && f->snd_una == f->snd_nxt && s->ops->on_tx_start) {
		/*
		 * Idle since the last ACK, as the kernel glue measures it; the
		 * kernel reports the first data packet too (CA_EVENT_TX_START
		 * whenever nothing is in flight).
		 */
		u64 last = f->last_ack_ps ? f->last_ack_ps : f->last_tx_ps;

		s->ops->on_tx_start(s, f, (s->now - last) / PS_PER_NS);
	}
	rq_clean(f);
	if (!qring_empty(&f->rq)) {
		seq = (u32)qring_pop(&f->rq);
		retx = true;
		g = seg_of(f, seq);
	} else {
		if (f->snd_nxt - f->snd_una > f->sb_mask && sb_grow(f)) {
			s->oom = true;
			return SIM_NONE;
		}
		seq = f->snd_nxt++;
		g = seg_of(f, seq);
		g->len = msg_len_of(f, seq);
	}
	i = pkt_alloc(s);
	if (i == SIM_NONE)
		return SIM_NONE;
	prior = f->next_tx_ps;
	edt = prior > s->now ? prior : s->now;
	g->tx_ps = edt;
	g->del_at_send = f->delivered;
	g->tx_order = ++f->tx_order;
	g->state = SEG_OUT;
	g->flags = (retx ? SEGF_RETX : 0) | (f->app_limited ? SEGF_APPLTD : 0);
	f->inflight++;
	if (qring_push(&f->txq, (u64)g->tx_order << 32 | seq))
		s->oom = true;
	if (!f->rto_armed)
		xmit_timer_arm(s, f, false);
	p = &s->pk[i];
	p->flow = f->id;
	p->seq = seq;
	p->len = g->len;
	p->wire = g->len + SIM_HDR_IP + SIM_HDR_ETH;
	p->hop = 1;
	p->flags = P_ECT | (retx ? P_RETX : 0);
	p->nsack = 0;
	p->ce = 0;
	p->edt = edt;
	f->next_tx_ps = edt;
	if (f->pacing &&
	    (!s->c->kernel_pacing || f->tx_order >= AICC_PACED_FROM_SEG)) {
		u64 len_ps = (u64)(g->len + SIM_HDR_IP) * 1000000000000ULL /
			     f->pacing;
		u64 credit = edt - prior;

		/* Linux: the idle pacer's time, up to half a packet's */
		if (s->c->kernel_pacing)
			len_ps -= credit < len_ps / 2 ? credit : len_ps / 2;
		f->next_tx_ps += len_ps;
	}
	f->next_tx_ps += f->hold_ps;
	f->hold_ps = 0;
	f->last_tx_ps = s->now;
	f->ever_sent = true;
	s->r->pkts_sent++;
	if (retx)
		s->r->retrans++;
	return i;
}

static void nic_put(struct sim *s, u32 hid, u32 pi)
{
	struct host *h = &s->hosts[hid];
	u64 ser = ser_ps(s->pk[pi].wire, h->nic_rate);

	h->nic_busy = true;
	sim_push(s, s->now + ser, EV_NIC, hid);
	sim_push(s, s->now + ser + h->nic_prop, EV_ARRIVE, pi);
}

static void nic_kick(struct sim *s, u32 hid)
{
	struct host *h = &s->hosts[hid];

	if (h->nic_busy)
		return;
	if (h->ack_head != SIM_NONE) {
		u32 pi = h->ack_head;

		h->ack_head = s->pk[pi].next;
		if (h->ack_head == SIM_NONE)
			h->ack_tail = SIM_NONE;
		nic_put(s, hid, pi);
		return;
	}
	while (!qring_empty(&h->rr)) {
		struct flow *f = &s->flows[qring_pop(&h->rr)];

		f->in_rr = false;
		if (!qring_empty(&f->hq) &&
		    s->pk[qring_front(&f->hq)].edt <= s->now) {
			nic_put(s, hid, (u32)qring_pop(&f->hq));
			flow_sched(s, f);
			return;
		}
		flow_sched(s, f);
	}
}

/* ---- receiver ---- */

static int rcv_grow(struct flow *f, u32 need)
{
	u32 cap = f->rcv_mask + 1, i;
	u8 *a;

	while (cap <= need)
		cap *= 2;
	a = calloc(cap, 1);
	if (!a)
		return -1;
	for (i = 0; i <= f->rcv_mask; i++) {
		u32 seq = f->rcv_nxt + i;

		a[seq & (cap - 1)] = f->rcv_have[seq & f->rcv_mask];
	}
	free(f->rcv_have);
	f->rcv_have = a;
	f->rcv_mask = cap - 1;
	return 0;
}

/*
 * The TCP timestamp clock, in ticks of ts_tick_us; 0 without timestamps.
 * The sender's clock needs no offset of its own: aicc_fwd_rtt() compares
 * differences, in which any constant cancels.  A receiver's clock runs
 * ts_drift_ppm slower than the sender's (@peer).
 */
static u32 ts_clock(const struct sim *s, bool peer)
{
	u64 t = s->now;

	if (!s->c->ts_tick_us)
		return 0;
	if (peer)
		t -= t / 1000000 * s->c->ts_drift_ppm;
	return (u32)(t / (s->c->ts_tick_us * PS_PER_US));
}

static void send_ack(struct sim *s, struct flow *f)
{
	u32 pi = pkt_alloc(s);
	struct host *h = &s->hosts[f->dst];
	struct pkt *p;

	if (pi == SIM_NONE)
		return;
	p = &s->pk[pi];
	p->flow = f->id;
	p->seq = f->rcv_nxt;
	p->wire = SIM_ACK_WIRE;
	p->len = 0;
	p->hop = 1;
	p->flags = P_ACK | (f->rcv_dsack ? P_DSACK : 0);
	f->rcv_dsack = false;
	p->nsack = f->nsack;
	memcpy(p->sack, f->sack, sizeof(p->sack));
	p->ce = f->ack_ce;
	p->tsval = ts_clock(s, true) + f->ts_off;
	p->next = SIM_NONE;
	s->r->acks_sent++;
	f->ack_pending = 0;
	f->ack_ce = 0;
	f->nsack = 0;
	f->delack_ev = 0;
	if (h->ack_tail == SIM_NONE)
		h->ack_head = pi;
	else
		s->pk[h->ack_tail].next = pi;
	h->ack_tail = pi;
	nic_kick(s, f->dst);
}

static void wl_msg_done(struct sim *s, struct flow *f, const struct msg *m);

/* Is it now inside the measurement window? */
static inline bool in_window(const struct sim *s)
{
	return s->now >= s->w0 && s->now <= s->w1;
}

static void msg_check_done(struct sim *s, struct flow *f)
{
	while (f->rx_msg < f->msg_n) {
		struct msg m = f->msgs[f->rx_msg & (f->msg_cap - 1)];
		double fct, ideal;
		u64 npk, wire;
		int k;

		if (m.end_seq > f->rcv_nxt)
			break;
		f->rx_msg++;
		fct = (double)(s->now - m.start_ps);
		npk = m.end_seq - m.start_seq;
		wire = m.bytes + npk * (SIM_HDR_IP + SIM_HDR_ETH);
		ideal = (double)(ser_ps(wire, s->hosts[f->src].nic_rate) +
				 f->ideal_hop_ps);
		k = m.bytes < 10000 ? 0 : m.bytes < 100000 ? 1 :
			m.bytes < 1000000 ? 2 : 3;
		/* a message counts in the window it completes in */
		if (in_window(s) &&
		    (sim_dist_add(&s->fct[k], fct / PS_PER_US) ||
		     sim_dist_add(&s->sd[k], fct / ideal)))
			s->oom = true;
		s->r->msgs_done++;
		wl_msg_done(s, f, &m);
	}
}

static void on_data(struct sim *s, struct flow *f, struct pkt *p)
{
	u32 seq = p->seq, old = f->rcv_nxt;
	bool now_ack = false;

	if (seq < f->rcv_nxt || (seq - f->rcv_nxt <= f->rcv_mask &&
				 f->rcv_have[seq & f->rcv_mask])) {
		now_ack = true;		/* duplicate */
		f->rcv_dsack = true;
	} else {
		if (seq - f->rcv_nxt > f->rcv_mask &&
		    rcv_grow(f, seq - f->rcv_nxt)) {
			s->oom = true;
			return;
		}
		if (seq != f->rcv_nxt)
			now_ack = true;	/* out of order */
		f->rcv_have[seq & f->rcv_mask] = 1;
		if (p->flags & P_CE)
			f->ack_ce++;
		f->rx_bytes += p->len;
		if (f->nsack < SIM_MAX_SACK)
			f->sack[f->nsack++] = seq;
		if (seq == f->rcv_nxt) {
			while (f->rcv_have[f->rcv_nxt & f->rcv_mask]) {
				f->rcv_have[f->rcv_nxt & f->rcv_mask] = 0;
				f->rcv_nxt++;
			}
			if (f->rcv_nxt - old > 1)
				now_ack = true;	/* filled a hole */
			msg_check_done(s, f);
		}
	}
	/* the aicc glue ACKs a segment arriving alone (>500 us gap) at once */
	if (s->c->cc == SIM_CC_AICC && s->now - f->last_rx_ps > 500 * PS_PER_US)
		now_ack = true;
	f->last_rx_ps = s->now;
	f->ack_pending++;
	if (now_ack || f->ack_pending >= s->c->delack ||
	    f->nsack == SIM_MAX_SACK) {
		send_ack(s, f);
	} else if (!f->delack_ev) {
		f->delack_ev = s->now + s->c->delack_us * PS_PER_US;
		sim_push(s, f->delack_ev, EV_DELACK, f->id);
	}
}

/* ---- sender: ACK processing ---- */

struct ack_scan {
	u64 now;
	u32 acked;
	u64 best_tx;		/* newest newly delivered packet */
	struct seg *best;
	u64 rtt_tx;		/* newest newly delivered, never retransmitted */
};

static void deliver(struct flow *f, struct seg *g, struct ack_scan *a)
{
	if (g->state == SEG_OUT)
		f->inflight--;
	g->state = SEG_DELIVERED;
	f->delivered++;
	a->acked++;
	if (g->tx_order > f->max_del_order)
		f->max_del_order = g->tx_order;
	/*
	 * tcp_rack_advance(): a retransmission delivered sooner than the
	 * minimum RTT may be the original's delivery, and does not count
	 */
	if (!(g->flags & SEGF_RETX) ||
	    (f->min_rtt_ps && a->now - g->tx_ps >= f->min_rtt_ps)) {
		f->rack_rtt_ps = a->now - g->tx_ps;
		if (g->tx_order > f->rack_order)
			f->rack_order = g->tx_order;
	}
	if (!a->best || g->tx_ps >= a->best_tx) {
		a->best = g;
		a->best_tx = g->tx_ps;
	}
	if (!(g->flags & SEGF_RETX) && g->tx_ps + 1 > a->rtt_tx)
		a->rtt_tx = g->tx_ps + 1;
}

static void rtt_update(struct flow *f, u64 rtt)
{
	if (!f->srtt_ps) {
		f->srtt_ps = rtt;
		f->rttvar_ps = rtt / 2;
		return;
	}
	{
		u64 d = rtt > f->srtt_ps ? rtt - f->srtt_ps : f->srtt_ps - rtt;

		f->rttvar_ps = (3 * f->rttvar_ps + d) / 4;
		f->srtt_ps = (7 * f->srtt_ps + rtt) / 8;
	}
}

/*
 * The packet of a txq entry (ord<<32|seq) if that transmission is still
 * out: not acknowledged, delivered, marked lost or sent again since.
 */
static struct seg *txq_seg(struct flow *f, u64 e)
{
	u32 seq = (u32)e, ord = (u32)(e >> 32);
	struct seg *g;

	if (seq < f->snd_una)
		return NULL;
	g = seg_of(f, seq);
	return g->state == SEG_OUT && g->tx_order == ord ? g : NULL;
}

/*
 * tcp_rack_detect_loss()'s timeout: how long until the newest packet that
 * RACK waits for (sent before the one delivered last) is overdue.
 */
static u64 rack_wait(struct flow *f, u64 now, u64 reo)
{
	u64 left = 0;
	u32 i;

	for (i = f->txq.head; i != f->txq.tail; i++) {
		u64 e = f->txq.a[i & f->txq.mask], due;
		struct seg *g;

		if ((u32)(e >> 32) >= f->rack_order)
			break;
		g = txq_seg(f, e);
		if (!g)
			continue;
		due = g->tx_ps + f->rack_rtt_ps + reo;
		if (due > now + left)
			left = due - now;
	}
	return left;
}

/*
 * Mark the packets lost that SIM_DUPTHRESH packets sent later, or RACK's
 * time rule (tcp_rack_detect_loss()), say are, oldest first; they go to
 * the retransmission queue.  *left: how long until the newest packet that
 * RACK waits for is lost, 0 if none.
 */
static u32 mark_lost(struct sim *s, struct flow *f, u64 *left)
{
	u64 reo = 0;
	u32 losses = 0;

	/*
	 * tcp_rack_reo_wnd() with no reordering seen: none in recovery,
	 * else a quarter of the minimum RTT, at most srtt
	 */
	if (!f->in_recov) {
		reo = f->min_rtt_ps / 4;
		if (reo > f->srtt_ps)
			reo = f->srtt_ps;
	}
	*left = 0;
	while (!qring_empty(&f->txq)) {
		u64 e = qring_front(&f->txq);
		u32 seq = (u32)e, ord = (u32)(e >> 32);
		struct seg *g = txq_seg(f, e);

		if (!g) {
			qring_pop(&f->txq);
			continue;
		}
		if (ord + SIM_DUPTHRESH > f->max_del_order) {
			if (s->c->no_rack || ord >= f->rack_order)
				break;
			if (g->tx_ps + f->rack_rtt_ps + reo > s->now) {
				*left = rack_wait(f, s->now, reo);
				break;
			}
		}
		g->state = SEG_LOST;
		f->inflight--;
		f->lost++;
		losses++;
		qring_pop(&f->txq);
		if (qring_push(&f->rq, seq))
			s->oom = true;
	}
	if (losses && !f->in_recov) {
		/* tcp_init_cwnd_reduction(): no probe outstanding */
		f->in_recov = true;
		f->recov_end = f->snd_nxt;
		f->tlp_out = false;
	}
	return losses;
}

/*
 * RACK's reordering timer (tcp_rack_reo_timeout()): the packets now
 * overdue are lost and retransmitted, without the congestion control
 * hearing of it (the next ACK's rate sample counts only the losses that
 * ACK marks) and without a timeout's backoff; then the RTO is armed from
 * the oldest packet's (re)transmission.
 */
static void on_reo(struct sim *s, struct flow *f)
{
	bool open = !f->in_recov;
	u64 left;

	f->reo_pending = false;
	if (mark_lost(s, f, &left)) {
		s->r->reo_timeouts++;
		/* tcp_enter_recovery(): ssthresh(), PRR for all but aicc's */
		if (open && s->ops->on_cwnd_reduction)
			s->ops->on_cwnd_reduction(s, f, true);
	}
	flow_fill(s, f);
	rto_arm_head(s, f);
}

/*
 * The tail-loss probe (tcp_send_loss_probe()): one new packet if there is
 * one, whatever the window, else the last packet sent and not delivered
 * again, unless it is still in the host; not marked lost, no backoff, the
 * congestion control not told (a loss it repairs is never marked: RACK
 * finds the losses before it from its ACK).  Then the RTO is armed.
 */
static void on_tlp(struct sim *s, struct flow *f)
{
	u32 seq, pi;

	f->tlp_pending = false;
	rq_clean(f);
	if (f->tlp_out || !qring_empty(&f->rq)) {
		/* one probe at a time, and none in a recovery */
		rto_arm_head(s, f);
		return;
	}
	f->tlp_retrans = false;
	if (has_data(s, f)) {
		pi = flow_send(s, f);
	} else if (qring_empty(&f->hq)) {
		for (seq = f->snd_nxt; seq != f->snd_una; seq--)
			if (seg_of(f, seq - 1)->state == SEG_OUT)
				break;
		if (seq == f->snd_una) {
			rto_arm_head(s, f);
			return;
		}
		seq--;
		/* sent again: in flight once, as the kernel counts it */
		seg_of(f, seq)->state = SEG_LOST;
		f->inflight--;
		if (qring_push(&f->rq, seq))
			s->oom = true;
		pi = flow_send(s, f);
		f->tlp_retrans = true;
	} else {
		rto_arm_head(s, f);
		return;
	}
	if (pi == SIM_NONE || qring_push(&f->hq, pi)) {
		s->oom = true;
		return;
	}
	s->r->tlps++;
	f->tlp_out = true;
	f->tlp_high = f->snd_nxt;
	rto_arm(s, f);
	flow_sched(s, f);
}

/*
 * tcp_process_tlp_ack(): once the ACK reaches what was sent by the probe,
 * the probe of new data is done; a retransmitted one too if the receiver
 * reported a duplicate (the original had arrived) or nothing advanced;
 * an ACK past it without either means the probe repaired a loss.
 */
static void tlp_ack(struct sim *s, struct flow *f, const struct pkt *p,
		    bool progress)
{
	if (!f->tlp_out || f->snd_una < f->tlp_high)
		return;
	if (!f->tlp_retrans || (p->flags & P_DSACK)) {
		f->tlp_out = false;
	} else if (f->snd_una > f->tlp_high) {
		f->tlp_out = false;
		s->r->tlp_losses++;
		if (s->ops->on_cwnd_reduction)
			s->ops->on_cwnd_reduction(s, f, false);
	} else if (!progress) {
		f->tlp_out = false;
	}
}

static void on_ack(struct sim *s, struct flow *f, struct pkt *p)
{
	struct ack_scan a = { .now = s->now };
	struct aicc_sample smp;
	u32 losses, i, una0 = f->snd_una, prior_inflight = f->inflight;
	u64 reo_left, rtt = 0;

	if (p->seq > f->snd_nxt)
		return;		/* cannot happen; be safe */
	for (; f->snd_una < p->seq; f->snd_una++) {
		struct seg *g = seg_of(f, f->snd_una);

		if (g->state != SEG_DELIVERED)
			deliver(f, g, &a);
	}
	for (i = 0; i < p->nsack; i++) {
		u32 seq = p->sack[i];
		struct seg *g;

		if (seq < f->snd_una || seq >= f->snd_nxt)
			continue;
		g = seg_of(f, seq);
		if (g->state != SEG_DELIVERED)
			deliver(f, g, &a);
	}
	f->delivered_ce += p->ce;
	f->ack_ece = p->ce != 0;
	if (f->app_limited && f->delivered > f->app_limited)
		f->app_limited = 0;
	if (f->in_recov && f->snd_una >= f->recov_end) {
		/* tcp_time_to_recover(): lost packets left, in again */
		rq_clean(f);
		if (qring_empty(&f->rq))
			f->in_recov = false;
		else
			f->recov_end = f->snd_nxt;
	}
	tlp_ack(s, f, p, f->snd_una != una0 || a.acked);
	if (a.rtt_tx) {
		rtt = s->now - (a.rtt_tx - 1);
		if (!f->min_rtt_ps || rtt < f->min_rtt_ps)
			f->min_rtt_ps = rtt;
	}
	losses = mark_lost(s, f, &reo_left);

	memset(&smp, 0, sizeof(smp));
	smp.now_ns = s->now / PS_PER_NS;
	smp.rtt_ns = -1;
	if (rtt) {
		rtt_update(f, rtt);
		smp.rtt_ns = (s64)(rtt / PS_PER_NS);
	}
	smp.srtt_ns = (u32)(f->srtt_ps / PS_PER_NS);
	smp.delivered = f->delivered;
	smp.delivered_ce = f->delivered_ce;
	smp.prior_delivered = a.best ? a.best->del_at_send : f->delivered;
	smp.acked = a.acked;
	smp.losses = losses;
	smp.inflight = f->inflight;
	smp.mss = f->mss;
	smp.app_limited = a.best ? !!(a.best->flags & SEGF_APPLTD) : 0;
	/* as the module decides it: the receiver is not asked */
	smp.ack_delayed = aicc_ack_maybe_delayed(false, a.acked,
						 prior_inflight);
	f->ack_tsval = s->c->ts_tick_us ? p->tsval : 0;
	f->ts_now = ts_clock(s, false);
	s->ops->on_ack(s, f, &smp);
	f->last_ack_ps = s->now;

	if (f->snd_una != una0 || a.acked) {
		f->backoff = 0;
		if (f->snd_una >= f->snd_nxt)
			f->rto_armed = false;
		else if (reo_left)
			reo_arm(s, f, reo_left);
		else
			xmit_timer_arm(s, f, f->reo_pending ||
				       f->tlp_pending);
	}
	flow_fill(s, f);
}

/*
 * Past the cold start: for the collectives, once their first iteration
 * has ended (every flow then has a window and a rate learned from the
 * fabric, not the initial window); the other scenarios have none.
 */
static bool past_cold_start(const struct sim *s)
{
	switch (s->c->scenario) {
	case SIM_SC_INCAST:
	case SIM_SC_ALLTOALL:
	case SIM_SC_ALLREDUCE:
	case SIM_SC_PIPELINE:
		return s->iter > 0;
	default:
		return true;
	}
}

static void on_rto(struct sim *s, struct flow *f)
{
	u32 seq;

	if (f->snd_una == f->snd_nxt) {
		f->rto_armed = false;
		return;
	}
	s->r->rtos++;
	if (in_window(s)) {
		s->r->rtos_win++;
		if (past_cold_start(s))
			s->r->rtos_warm++;
	}
	f->in_recov = true;
	f->recov_end = f->snd_nxt;
	f->tlp_out = false;	/* tcp_enter_loss() */
	f->rq.head = 0;
	f->rq.tail = 0;
	f->txq.head = 0;
	f->txq.tail = 0;
	for (seq = f->snd_una; seq < f->snd_nxt; seq++) {
		struct seg *g = seg_of(f, seq);

		if (g->state == SEG_DELIVERED)
			continue;
		if (g->state == SEG_OUT) {
			f->inflight--;
			f->lost++;	/* tcp_timeout_mark_lost() */
		}
		g->state = SEG_LOST;
		if (qring_push(&f->rq, seq))
			s->oom = true;
	}
	s->ops->on_rto(s, f);
	if (f->backoff < 16)
		f->backoff++;
	f->next_tx_ps = s->now;
	rto_arm(s, f);
	flow_fill(s, f);
}

/* ---- workloads ---- */

static void post_msg(struct sim *s, struct flow *f, u64 bytes, u32 tag)
{
	struct msg *m;
	u64 npk;

	if (f->msg_n - f->rx_msg >= f->msg_cap) {
		u32 cap = f->msg_cap * 2, i;
		struct msg *a = malloc(sizeof(*a) * cap);

		if (!a) {
			s->oom = true;
			return;
		}
		for (i = f->rx_msg; i < f->msg_n; i++)
			a[i & (cap - 1)] = f->msgs[i & (f->msg_cap - 1)];
		free(f->msgs);
		f->msgs = a;
		f->msg_cap = cap;
	}
	m = &f->msgs[f->msg_n++ & (f->msg_cap - 1)];
	m->start_ps = s->now;
	m->tag = tag;
	m->start_seq = f->app_end;
	if (!bytes) {		/* bulk: never ends */
		m->end_seq = BULK_END;
		m->bytes = 0;
		m->last_len = f->mss;
		f->bulk = true;
	} else {
		npk = (bytes + f->mss - 1) / f->mss;
		m->end_seq = f->app_end + (u32)npk;
		m->bytes = bytes;
		m->last_len = (u16)(bytes - (npk - 1) * f->mss);
	}
	f->app_end = m->end_seq;
	flow_fill(s, f);
}

static u64 msg_bytes(const struct sim *s)
{
	return (u64)s->c->msg_kb * 1024;
}

static void iter_start(struct sim *s)
{
	u32 i;

	s->iter_start = s->now;
	switch (s->c->scenario) {
	case SIM_SC_INCAST:
	case SIM_SC_ALLTOALL:
		s->iter_open = s->nflows;
		for (i = 0; i < s->nflows; i++) {
			u64 late = (u64)(rng_unit(&s->rng) *
					 s->c->jitter_us * PS_PER_US);

			if (late)
				sim_push(s, s->now + late, EV_POST, i);
			else
				post_msg(s, &s->flows[i], msg_bytes(s),
					 s->iter);
		}
		break;
	case SIM_SC_ALLREDUCE:
		s->iter_open = s->nflows * s->ar_steps;
		for (i = 0; i < s->nflows; i++)
			post_msg(s, &s->flows[i], msg_bytes(s) / s->nflows,
				 0);
		break;
	case SIM_SC_PIPELINE:
		/* stage 0 emits every microbatch; the others forward */
		s->iter_open = s->nflows * s->c->microbatches;
		for (i = 0; i < s->c->microbatches; i++)
			post_msg(s, &s->flows[0], msg_bytes(s), i);
		break;
	default:
		break;
	}
}

static void wl_msg_done(struct sim *s, struct flow *f, const struct msg *m)
{
	switch (s->c->scenario) {
	case SIM_SC_ALLREDUCE:
		/* host f->dst got chunk m->tag; it forwards the next one */
		if (m->tag + 1 < s->ar_steps)
			post_msg(s, &s->flows[f->dst], msg_bytes(s) / s->nflows,
				 m->tag + 1);
		fallthrough;
	case SIM_SC_PIPELINE:
		if (s->c->scenario == SIM_SC_PIPELINE && f->id + 1 < s->nflows)
			post_msg(s, &s->flows[f->id + 1], msg_bytes(s), m->tag);
		fallthrough;
	case SIM_SC_INCAST:
	case SIM_SC_ALLTOALL:
		if (--s->iter_open)
			return;
		/* an iteration counts in the window it completes in */
		if (in_window(s) &&
		    sim_dist_add(&s->cct, (double)(s->now - s->iter_start) /
				 PS_PER_US))
			s->oom = true;
		s->iter++;
		if (s->now + s->c->gap_us * PS_PER_US < s->end_ps)
			sim_push(s, s->now + s->c->gap_us * PS_PER_US,
				 EV_ITER, 0);
		break;
	default:
		break;
	}
}

static double jain_of(const double *x, u32 n)
{
	double sum = 0, sq = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	return sq > 0 ? sum * sum / (n * sq) : 1.0;
}

static void on_bin(struct sim *s)
{
	u64 t = s->now, b0 = t - s->bin_ps;
	double *x = malloc(sizeof(*x) * s->nflows);
	u32 i;

	if (!x) {
		s->oom = true;
		return;
	}
	for (i = 0; i < s->nflows; i++) {
		x[i] = (double)(s->flows[i].rx_bytes - s->flows[i].rx_mark);
		s->flows[i].rx_mark = s->flows[i].rx_bytes;
	}
	/* bins wholly inside the interval where every flow is active */
	if (t >= s->last_join + s->bin_ps && b0 >= s->last_join &&
	    t <= s->first_leave) {
		bool bad = jain_of(x, s->nflows) < 0.95;

		if (!s->conv_any) {
			s->conv_any = true;
			s->conv_first = b0;
		}
		if (bad)
			s->conv_bad_end = (s64)t;
		s->conv_last_bad = bad;
	}
	free(x);
	if (t + s->bin_ps <= s->end_ps)
		sim_push(s, t + s->bin_ps, EV_BIN, 0);
}

/* A flow's window in 1/16 packets, as the info struct gives aicc's. */
static u32 flow_cwnd_x16(const struct sim *s, const struct flow *f)
{
	struct aicc_info ai;

	if (s->c->cc != SIM_CC_AICC)
		return f->cwnd * 16;
	aicc_flow_info(&f->cc.aicc, &ai);
	return ai.aicc_cwnd_x16;
}

/*
 * The trace's first line per interval sums what sets the bottleneck
 * queue: the bytes offered to the bottleneck ports (accepted or dropped)
 * and sent by them over the interval, as rates; their marks and drops;
 * and, over the flows with data not yet acknowledged, the pacing rates
 * and windows.  Offered above line rate with the pacing sum below it
 * means bursts (flows sending in step); both above it, the law.  Returns
 * the largest bottleneck queue, for the per-flow lines.
 */
static u32 trace_sum(struct sim *s, FILE *out, u64 iv)
{
	u64 in = 0, sent = 0, marks = 0, drops = 0, pacing = 0, cwnd16 = 0;
	double secs = (double)iv / 1e12;
	u32 i, busy = 0, q = 0;

	for (i = 0; i < s->nports; i++) {
		struct port *pt = &s->ports[i];

		if (!pt->bottleneck)
			continue;
		port_drain(pt, s->now);
		if (pt->qbytes > q)
			q = pt->qbytes;
		in += pt->in_bytes;
		sent += pt->out_bytes;
		marks += pt->marks;
		drops += pt->drops;
	}
	for (i = 0; i < s->nflows; i++) {
		const struct flow *f = &s->flows[i];

		if (!f->bulk && f->snd_una >= f->app_end)
			continue;
		busy++;
		pacing += f->pacing;
		cwnd16 += flow_cwnd_x16(s, f);
	}
	fprintf(out, "%.1f all busy %u offered_gbit %.2f sent_gbit %.2f "
		"q_kb %.1f marks %llu drops %llu pacing_gbit %.2f cwnd %.2f\n",
		(double)s->now / PS_PER_US, busy,
		(double)(in - s->tr_in) * 8 / secs / 1e9,
		(double)(sent - s->tr_out) * 8 / secs / 1e9, q / 1024.0,
		(unsigned long long)(marks - s->tr_marks),
		(unsigned long long)(drops - s->tr_drops),
		(double)pacing * 8 / 1e9, cwnd16 / 16.0);
	s->tr_in = in;
	s->tr_out = sent;
	s->tr_marks = marks;
	s->tr_drops = drops;
	return q;
}

static void on_trace(struct sim *s)
{
	FILE *out = s->c->trace;
	u64 iv = s->c->trace_us * PS_PER_US;
	u32 i, n = s->c->trace_flows;
	u32 q = trace_sum(s, out, iv);	/* also drains the bottleneck ports */

	for (i = 0; i < s->nflows && i < n; i++) {
		struct flow *f = &s->flows[i];

		fprintf(out, "%.1f flow %u gbit %.2f cwnd %u pacing_gbit %.2f "
			"inflight %u srtt_us %.2f q_kb %.1f una %u nxt %u "
			"end %u rto %d/%u",
			(double)s->now / PS_PER_US, i,
			(double)(f->rx_bytes - f->rx_trace) * 8 /
			((double)iv / 1e12) / 1e9, f->cwnd,
			(double)f->pacing * 8 / 1e9, f->inflight,
			(double)f->srtt_ps / PS_PER_US, q / 1024.0,
			f->snd_una, f->snd_nxt, f->app_end, f->rto_armed,
			f->backoff);
		if (s->c->cc == SIM_CC_AICC) {
			struct aicc_info ai;

			aicc_flow_info(&f->cc.aicc, &ai);
			fprintf(out, " mode %u cwnd_x16 %u base_us %u target_us "
				"%u qdelay_us %u alpha %u", ai.aicc_mode,
				ai.aicc_cwnd_x16, ai.aicc_base_rtt_us,
				ai.aicc_target_us, ai.aicc_qdelay_us,
				ai.aicc_alpha);
		} else if (s->c->cc != SIM_CC_SWIFT) {
			fprintf(out, " ssthresh %u alpha %u",
				f->cc.reno.ssthresh, f->cc.reno.alpha);
		}
		fputc('\n', out);
		f->rx_trace = f->rx_bytes;
	}
	if (s->now + iv <= s->end_ps)
		sim_push(s, s->now + iv, EV_TRACE, 0);
}

static void wl_rpc(struct sim *s, struct flow *f)
{
	double u = rng_unit(&s->rng);
	u64 bytes = (u64)(RPC_MIN * pow(RPC_MAX / RPC_MIN, u));
	double gap = -log(1.0 - rng_unit(&s->rng)) * s->rpc_mean_gap_ps;

	post_msg(s, f, bytes, 0);
	if (s->now + (u64)gap < s->end_ps)
		sim_push(s, s->now + (u64)gap + 1, EV_RPC, f->id);
}

/* ---- topology and setup ---- */

static int flow_setup(struct sim *s, struct flow *f, u32 id, u32 src,
		      u32 dst, int prof)
{
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->src = src;
	f->dst = dst;
	f->mss = s->mss;
	f->profile = prof;
	f->sb = calloc(64, sizeof(*f->sb));
	f->sb_mask = 63;
	f->rcv_have = calloc(64, 1);
	f->rcv_mask = 63;
	f->msg_cap = 4;
	f->msgs = calloc(f->msg_cap, sizeof(*f->msgs));
	f->cwnd = s->c->init_cwnd;
	/* not from the run's PRNG: timestamps change no other draw */
	f->ts_off = (u32)sim_hash64(s->c->seed * 0x10001ULL + id);
	if (!f->sb || !f->rcv_have || !f->msgs)
		return -1;
	return 0;
}

/* The ports a packet from host a to host b crosses after a's NIC. */
static u32 route(struct sim *s, u32 a, u32 b, u64 hash, u32 *path)
{
	u32 H = s->nhosts, n = 0;

	path[n++] = a;			/* NIC port, index = host */
	if (s->c->topo != SIM_TOPO_LEAFSPINE) {
		path[n++] = H + b;
		return n;
	}
	{
		u32 k = s->c->leaf_hosts, S = s->c->spines;
		u32 L = (H + k - 1) / k, la = a / k, lb = b / k;
		u32 sp = (u32)(hash % S);

		if (la != lb) {
			path[n++] = 2 * H + la * S + sp;
			path[n++] = 2 * H + L * S + sp * L + lb;
		}
		path[n++] = H + b;
	}
	return n;
}

static int topo_setup(struct sim *s)
{
	const struct sim_config *c = s->c;
	u64 rate = (u64)(c->rate_gbit * 1e9);
	u32 H = s->nhosts, i, np;
	u64 prop;

	s->hops_max = 2;
	np = 2 * H;
	if (c->topo == SIM_TOPO_LEAFSPINE) {
		u32 L = (H + c->leaf_hosts - 1) / c->leaf_hosts;

		s->hops_max = 4;
		np += 2 * L * c->spines;
	}
	prop = (u64)(c->rtt_us * PS_PER_US) / (2 * s->hops_max);
	s->base_rtt_ps = prop * 2 * s->hops_max;
	s->nports = np;
	s->ports = calloc(np, sizeof(*s->ports));
	s->hosts = calloc(H, sizeof(*s->hosts));
	if (!s->ports || !s->hosts)
		return -1;
	for (i = 0; i < np; i++)
		port_setup(&s->ports[i], rate, prop, c->buffer_kb * 1024,
			   c->ecn_kb * 1024);
	for (i = 0; i < H; i++) {
		s->hosts[i].nic_rate = rate;
		s->hosts[i].nic_prop = prop;
		s->hosts[i].ack_head = SIM_NONE;
		s->hosts[i].ack_tail = SIM_NONE;
	}
	return 0;
}

static int flows_setup(struct sim *s)
{
	const struct sim_config *c = s->c;
	u32 N = c->flows, i, j, n = 0;
	int pdef = c->profile >= 0 ? c->profile : AICC_PROF_COLL;

	switch (c->scenario) {
	case SIM_SC_LONG:
	case SIM_SC_STAGGER:
	case SIM_SC_INCAST:
		s->nhosts = N + 1;
		s->nflows = N;
		break;
	case SIM_SC_ALLTOALL:
		s->nhosts = N;
		s->nflows = N * (N - 1);
		break;
	case SIM_SC_ALLREDUCE:
		s->nhosts = N;
		s->nflows = N;
		s->ar_steps = 2 * (N - 1);
		break;
	case SIM_SC_RPC:
		s->nhosts = N + c->bulk_flows + 1;
		s->nflows = N + c->bulk_flows;
		break;
	case SIM_SC_PIPELINE:
		s->nhosts = N;
		s->nflows = N - 1;
		break;
	case SIM_SC_REVERSE:
		/* host 0 receives from hosts 2.., and sends to host 1 */
		s->nhosts = N + 2;
		s->nflows = N + 1;
		break;
	default:
		return -1;
	}
	if (topo_setup(s))
		return -1;
	s->flows = calloc(s->nflows, sizeof(*s->flows));
	s->rx_w0 = calloc(s->nflows, sizeof(*s->rx_w0));
	if (!s->flows || !s->rx_w0)
		return -1;
	for (i = 0; i < s->nhosts && n < s->nflows; i++) {
		switch (c->scenario) {
		case SIM_SC_ALLTOALL:
			for (j = 0; j < s->nhosts; j++)
				if (j != i && flow_setup(s, &s->flows[n], n,
							 i, j, pdef) == 0)
					n++;
				else if (j != i)
					return -1;
			continue;
		case SIM_SC_ALLREDUCE:
		case SIM_SC_PIPELINE:
			if (flow_setup(s, &s->flows[n], n, i,
				       (i + 1) % s->nhosts, pdef))
				return -1;
			break;
		case SIM_SC_REVERSE:
			if (i == 1)
				continue;
			if (flow_setup(s, &s->flows[n], n, i, i ? 0 : 1, pdef))
				return -1;
			break;
		case SIM_SC_RPC:
			if (i == 0)
				continue;
			if (flow_setup(s, &s->flows[n], n, i, 0,
				       c->profile >= 0 ? c->profile :
				       i <= c->bulk_flows ? AICC_PROF_BULK :
				       AICC_PROF_LAT))
				return -1;
			break;
		default:
			if (i == 0)
				continue;
			if (flow_setup(s, &s->flows[n], n, i, 0, pdef))
				return -1;
			break;
		}
		n++;
	}
	for (i = 0; i < s->nflows; i++) {
		struct flow *f = &s->flows[i];
		u64 h = sim_hash64(c->seed ^ ((u64)i << 20));
		u32 k, hop;
		u64 one_way = 0;

		f->nhops[0] = route(s, f->src, f->dst, h, f->path[0]);
		f->nhops[1] = route(s, f->dst, f->src, h >> 32, f->path[1]);
		s->ports[f->path[0][f->nhops[0] - 1]].bottleneck = true;
		for (k = 0; k < 2; k++)
			for (hop = 0; hop < f->nhops[k]; hop++)
				one_way += s->ports[f->path[k][hop]].prop_ps;
		/* handshake RTT: propagation plus one packet per hop */
		f->path_rtt_ps = one_way +
			ser_ps((u64)s->data_wire + SIM_ACK_WIRE,
			       s->hosts[0].nic_rate) * f->nhops[0];
		if (c->connect_jitter_us)
			f->hs_extra_ps = (u64)(u64_unit(sim_hash64(h ^
				0x5bd1e995ULL)) * c->connect_jitter_us *
				PS_PER_US);
		f->srtt_ps = f->path_rtt_ps + f->hs_extra_ps;
		f->rttvar_ps = f->srtt_ps / 2;
		f->ideal_hop_ps = f->nhops[0] * s->ports[f->src].prop_ps +
			(f->nhops[0] - 1) * ser_ps(s->data_wire,
						   s->hosts[0].nic_rate);
		s->ops->init(s, f);
	}
	return 0;
}

/*
 * The flows' one-way delays for an ideal completion time, which must stay
 * a lower bound: the shortest (an incast's first bytes arrive over it, and
 * the receiver's link is busy from then on; each of a ring's steps, as a
 * chain of steps may cross few of the slow links), the longest (an
 * all-to-all ends with its slowest transfer) or their sum (a pipeline's
 * first microbatch passes every stage in turn).  On a star they are all
 * the same; on a leaf-spine, flow 0's alone (host 0 to host 1, one leaf)
 * made a pipeline's ideal too short.
 */
enum one_way_of { OW_MIN, OW_MAX, OW_SUM };

static u64 flows_one_way(const struct sim *s, enum one_way_of how)
{
	u64 ow = how == OW_MIN ? ~0ULL : 0;
	u32 i;

	for (i = 0; i < s->nflows; i++) {
		u64 d = s->flows[i].ideal_hop_ps;

		if (how == OW_SUM)
			ow += d;
		else if (how == OW_MAX ? d > ow : d < ow)
			ow = d;
	}
	return ow;
}

static void schedule_workload(struct sim *s)
{
	const struct sim_config *c = s->c;
	u32 N = s->nflows, i;
	u64 T = s->end_ps;
	u64 rate = s->hosts[0].nic_rate;

	switch (c->scenario) {
	case SIM_SC_LONG:
	case SIM_SC_REVERSE:
		for (i = 0; i < N; i++) {
			struct flow *f = &s->flows[i];

			f->start_ps = (u64)(rng_unit(&s->rng) * PS_PER_US);
			if (f->start_ps > s->last_join)
				s->last_join = f->start_ps;
			sim_push(s, f->start_ps, EV_START, i);
		}
		s->first_leave = T;
		break;
	case SIM_SC_STAGGER: {
		u64 step = s->c->stagger_ms > 0 ?
			(u64)(s->c->stagger_ms * 1e9) : T / (2 * N);

		for (i = 0; i < N; i++) {
			struct flow *f = &s->flows[i];

			f->start_ps = i * step;
			f->stop_ps = T - i * step;
			sim_push(s, f->start_ps, EV_START, i);
			if (i)
				sim_push(s, f->stop_ps, EV_STOP, i);
		}
		s->last_join = (N - 1) * step;
		s->first_leave = T - (N - 1) * step;
		break;
	}
	case SIM_SC_INCAST:
		s->r->cct_ideal_us = (double)(ser_ps(N * (msg_bytes(s) +
			((msg_bytes(s) + s->mss - 1) / s->mss) *
			(SIM_HDR_IP + SIM_HDR_ETH)), rate) +
			flows_one_way(s, OW_MIN)) / PS_PER_US;
		sim_push(s, 0, EV_ITER, 0);
		break;
	case SIM_SC_ALLTOALL: {
		u32 H = s->nhosts;
		u64 w = msg_bytes(s) + ((msg_bytes(s) + s->mss - 1) / s->mss) *
			(SIM_HDR_IP + SIM_HDR_ETH);
		u64 ow = flows_one_way(s, OW_MAX);

		/*
		 * The busier of a host's NIC and (leaf-spine) a leaf's
		 * uplinks, with perfect balancing over the spines.
		 */
		u64 units = H - 1;

		if (c->topo == SIM_TOPO_LEAFSPINE && c->leaf_hosts < H) {
			u64 k = c->leaf_hosts, up = k * (H - k);

			if (up > units * c->spines)
				units = (up + c->spines - 1) / c->spines;
		}
		s->r->cct_ideal_us = (double)(ser_ps(units * w, rate) + ow) /
			PS_PER_US;
		sim_push(s, 0, EV_ITER, 0);
		break;
	}
	case SIM_SC_ALLREDUCE: {
		u64 b = msg_bytes(s) / N;
		u64 w = b + ((b + s->mss - 1) / s->mss) *
			(SIM_HDR_IP + SIM_HDR_ETH);

		s->r->cct_ideal_us = (double)(s->ar_steps *
			(ser_ps(w, rate) + flows_one_way(s, OW_MIN))) /
			PS_PER_US;
		sim_push(s, 0, EV_ITER, 0);
		break;
	}
	case SIM_SC_PIPELINE: {
		u64 b = msg_bytes(s);
		u64 w = b + ((b + s->mss - 1) / s->mss) *
			(SIM_HDR_IP + SIM_HDR_ETH);

		/* fill the pipeline, then one microbatch per transfer time */
		s->r->cct_ideal_us = (double)(N * ser_ps(w, rate) +
			flows_one_way(s, OW_SUM) +
			(c->microbatches - 1) * ser_ps(w, rate)) / PS_PER_US;
		sim_push(s, 0, EV_ITER, 0);
		break;
	}
	case SIM_SC_RPC: {
		double mean = (RPC_MAX - RPC_MIN) / log(RPC_MAX / RPC_MIN);
		double lambda = c->rpc_load / 100.0 * c->rate_gbit * 1e9 / 8 /
			mean;	/* RPCs per second, all clients */
		u32 nrpc = N - c->bulk_flows;

		s->rpc_mean_gap_ps = nrpc / lambda * 1e12;
		for (i = 0; i < N; i++) {
			if (i < c->bulk_flows)
				sim_push(s, 0, EV_START, i);
			else
				sim_push(s, (u64)(rng_unit(&s->rng) *
						  s->rpc_mean_gap_ps),
					 EV_RPC, i);
		}
		break;
	}
	default:
		break;
	}
	if (c->scenario == SIM_SC_LONG || c->scenario == SIM_SC_STAGGER) {
		s->bin_ps = 20 * s->base_rtt_ps;
		if (s->bin_ps < 20 * PS_PER_US)
			s->bin_ps = 20 * PS_PER_US;
		/* the first bin only takes the byte counts */
		sim_push(s, s->last_join, EV_BIN, 0);
	}
}

/* ---- the event loop ---- */

static void on_arrive(struct sim *s, u32 pi)
{
	struct pkt *p = &s->pk[pi];
	struct flow *f = &s->flows[p->flow];
	int dir = p->flags & P_ACK ? 1 : 0;

	if (p->hop < f->nhops[dir]) {
		struct port *pt = &s->ports[f->path[dir][p->hop]];
		u64 dep = 0;
		int v;

		if (!dir && in_window(s)) {
			u32 q, b;

			port_drain(pt, s->now);
			q = pt->qbytes;
			b = q / SIM_QBIN;
			s->qhist[b < s->qbins ? b : s->qbins - 1]++;
			if (q > s->qmax)
				s->qmax = q;
		}
		v = port_offer(pt, s->now, p->wire, p->flags & P_ECT, &dep);
		if (v == PORT_NOMEM) {
			s->oom = true;
			return;
		}
		if (v == PORT_DROP) {
			if (dir) {
				s->r->ack_drops++;
			} else {
				s->r->drops++;
				if (in_window(s)) {
					s->r->drops_win++;
					if (past_cold_start(s))
						s->r->drops_warm++;
				}
			}
			pkt_free(s, pi);
			return;
		}
		if (v == PORT_OK_CE) {
			p->flags |= P_CE;
			s->r->ecn_marks++;
		}
		if (!dir && pt->bottleneck && dep > s->w0 && dep <= s->w1)
			pt->win_bytes += p->wire;
		p->hop++;
		sim_push(s, dep + pt->prop_ps, EV_ARRIVE, pi);
		return;
	}
	if (dir && s->c->ack_jitter_us && !(p->flags & P_HELD)) {
		/* host noise: later, but never before the ACK before it */
		u64 t = s->now + (u64)(rng_unit(&s->rng) *
				       s->c->ack_jitter_us * PS_PER_US);

		if (t < f->ack_held_ps)
			t = f->ack_held_ps;
		f->ack_held_ps = t;
		p->flags |= P_HELD;
		sim_push(s, t, EV_ARRIVE, pi);
		return;
	}
	{
		struct pkt pc = *p;	/* handlers may grow the pool */

		pkt_free(s, pi);
		if (dir)
			on_ack(s, f, &pc);
		else
			on_data(s, f, &pc);
	}
}

/* The RTT a SYN and its SYN-ACK would see now: queues included. */
static u64 handshake_rtt(struct sim *s, struct flow *f)
{
	u64 rtt = f->path_rtt_ps;
	u32 k, hop;

	for (k = 0; k < 2; k++) {
		for (hop = 1; hop < f->nhops[k]; hop++) {
			struct port *p = &s->ports[f->path[k][hop]];

			port_drain(p, s->now);
			rtt += ser_ps(p->qbytes, p->rate_bps);
		}
	}
	return rtt;
}

static void dispatch(struct sim *s, const struct sim_ev *e)
{
	struct flow *f;
	u32 i;

	switch (e->kind) {
	case EV_ARRIVE:
		on_arrive(s, e->arg);
		break;
	case EV_NIC:
		s->hosts[e->arg].nic_busy = false;
		nic_kick(s, e->arg);
		break;
	case EV_PACE:
		f = &s->flows[e->arg];
		if (f->pace_ev != e->t)
			break;
		f->pace_ev = 0;
		flow_sched(s, f);
		break;
	case EV_RTO:
		f = &s->flows[e->arg];
		if (f->rto_ev != e->t)
			break;
		f->rto_ev = 0;
		if (!f->rto_armed)
			break;
		if (f->rto_deadline > s->now) {
			f->rto_ev = f->rto_deadline;
			sim_push(s, f->rto_ev, EV_RTO, f->id);
			break;
		}
		if (f->reo_pending)
			on_reo(s, f);
		else if (f->tlp_pending)
			on_tlp(s, f);
		else
			on_rto(s, f);
		break;
	case EV_DELACK:
		f = &s->flows[e->arg];
		if (f->delack_ev != e->t)
			break;
		f->delack_ev = 0;
		if (f->ack_pending)
			send_ack(s, f);
		break;
	case EV_ITER:
		iter_start(s);
		break;
	case EV_START:
		f = &s->flows[e->arg];
		f->active = true;
		if (s->now && !s->c->preconnect) {
			/* a late connection: its handshake sees the queues */
			f->srtt_ps = handshake_rtt(s, f) + f->hs_extra_ps;
			f->rttvar_ps = f->srtt_ps / 2;
			/*
			 * The handshake's ACK has just come: the first send
			 * is no resume after idle (the kernel glue stamps
			 * its last ACK at init too).
			 */
			f->last_ack_ps = s->now;
			s->ops->init(s, f);
		}
		post_msg(s, f, 0, 0);
		break;
	case EV_STOP:
		f = &s->flows[e->arg];
		f->active = false;
		f->app_end = f->snd_nxt;
		break;
	case EV_RPC:
		wl_rpc(s, &s->flows[e->arg]);
		break;
	case EV_BIN:
		on_bin(s);
		break;
	case EV_WIN0:
		for (i = 0; i < s->nflows; i++)
			s->rx_w0[i] = s->flows[i].rx_bytes;
		break;
	case EV_WIN1:
		for (i = 0; i < s->nflows; i++)
			s->rx_w0[i] = s->flows[i].rx_bytes - s->rx_w0[i];
		break;
	case EV_TRACE:
		on_trace(s);
		break;
	case EV_POST:
		post_msg(s, &s->flows[e->arg], msg_bytes(s), s->iter);
		break;
	}
}

/* ---- results ---- */

/*
 * The pct-th percentile of the data enqueues' queue sizes, in KB (the
 * lower edge of the bin it falls in); 0 when nothing was enqueued.
 */
static double qhist_pct(const struct sim *s, u32 pct)
{
	u64 n = 0, acc = 0, k;

	for (k = 0; k < s->qbins; k++)
		n += s->qhist[k];
	for (k = 0; k < s->qbins && n; k++) {
		acc += s->qhist[k];
		if (acc * 100 >= n * pct)
			return (k * SIM_QBIN) / 1024.0;
	}
	return 0;
}

static void finish(struct sim *s)
{
	struct sim_result *r = s->r;
	double win = (double)(s->w1 - s->w0);
	double rate = s->c->rate_gbit * 1e9, sum = 0;
	u64 bbytes = 0;
	double *x;
	u32 i, nb = 0;
	static const u64 lim[SIM_NR_FCT + 1] = { 0, 10000, 100000, 1000000,
						 ~0ULL };

	for (i = 0; i < s->nports; i++) {
		struct port *p = &s->ports[i];

		port_drain(p, s->end_ps);
		r->port_in += p->in_bytes;
		r->port_out += p->out_bytes;
		r->port_drop += p->drop_bytes;
		r->port_queued += p->qbytes;
		if (s->ports[i].bottleneck) {
			nb++;
			bbytes += s->ports[i].win_bytes;
		}
	}
	r->util = nb && win > 0 ? bbytes * 8.0 / (rate * win / 1e12 * nb) : 0;
	if (s->c->scenario == SIM_SC_REVERSE && win > 0) {
		const struct flow *f = &s->flows[0];

		r->rev_util = s->ports[f->path[0][f->nhops[0] - 1]].win_bytes *
			8.0 / (rate * win / 1e12);
	}
	x = malloc(sizeof(*x) * s->nflows);
	for (i = 0; i < s->nflows; i++) {
		sum += (double)s->rx_w0[i];
		if (x)
			x[i] = (double)s->rx_w0[i];
	}
	r->goodput_gbit = win > 0 ? sum * 8 / (win / 1e12) / 1e9 : 0;
	r->jain = -1;
	r->conv_us = -1;
	if (s->c->scenario == SIM_SC_LONG || s->c->scenario == SIM_SC_STAGGER) {
		if (x)
			r->jain = jain_of(x, s->nflows);
		if (s->conv_any && !s->conv_last_bad)
			r->conv_us = (double)((s->conv_bad_end >= 0 ?
					       (u64)s->conv_bad_end :
					       s->conv_first) - s->last_join) /
				PS_PER_US;
	}
	free(x);

	r->q_p50_kb = qhist_pct(s, 50);
	r->q_p99_kb = qhist_pct(s, 99);
	r->q_max_kb = s->qmax / 1024.0;
	r->q_p99_us = r->q_p99_kb * 1024 * 8 / rate * 1e6;
	r->q_max_us = r->q_max_kb * 1024 * 8 / rate * 1e6;

	for (i = 0; i < SIM_NR_FCT; i++) {
		struct sim_fct_class *fc = &r->fct[i];

		fc->lo = lim[i];
		fc->hi = lim[i + 1];
		fc->count = s->fct[i].n;
		fc->fct_p50_us = sim_dist_pct(&s->fct[i], 50);
		fc->fct_p99_us = sim_dist_pct(&s->fct[i], 99);
		fc->sd_p50 = sim_dist_pct(&s->sd[i], 50);
		fc->sd_p99 = sim_dist_pct(&s->sd[i], 99);
	}
	for (i = 0; i < s->nflows; i++) {
		struct flow *f = &s->flows[i];
		u32 m;

		for (m = f->rx_msg; m < f->msg_n; m++)
			if (f->msgs[m & (f->msg_cap - 1)].bytes)
				r->msgs_open++;
	}
	r->iters = s->cct.n;
	if (s->cct.n) {
		double t = 0;

		for (i = 0; i < s->cct.n; i++)
			t += s->cct.v[i];
		r->cct_mean_us = t / s->cct.n;
		r->cct_p50_us = sim_dist_pct(&s->cct, 50);
		r->cct_p99_us = sim_dist_pct(&s->cct, 99);
		r->cct_max_us = sim_dist_pct(&s->cct, 100);
	}
}

static void sim_free(struct sim *s)
{
	u32 i;

	if (s->flows) {
		for (i = 0; i < s->nflows; i++) {
			struct flow *f = &s->flows[i];

			free(f->sb);
			free(f->txq.a);
			free(f->rq.a);
			free(f->hq.a);
			free(f->rcv_have);
			free(f->msgs);
		}
	}
	if (s->ports)
		for (i = 0; i < s->nports; i++)
			port_free(&s->ports[i]);
	if (s->hosts)
		for (i = 0; i < s->nhosts; i++)
			free(s->hosts[i].rr.a);
	free(s->flows);
	free(s->ports);
	free(s->hosts);
	free(s->pk);
	free(s->qhist);
	free(s->rx_w0);
	free(s->cct.v);
	for (i = 0; i < SIM_NR_FCT; i++) {
		free(s->fct[i].v);
		free(s->sd[i].v);
	}
	heap_free(&s->heap);
}

/* Writes the reason for rejecting a configuration; returns -EINVAL. */
static int __attribute__((format(printf, 3, 4)))
bad(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int check_config(const struct sim_config *c, char *err, size_t n)
{
	u32 minf = c->scenario == SIM_SC_ALLTOALL ||
		c->scenario == SIM_SC_ALLREDUCE ||
		c->scenario == SIM_SC_PIPELINE ? 2 : 1;
	int i;

	if ((unsigned int)c->scenario >= SIM_NR_SC)
		return bad(err, n, "unknown scenario %d", c->scenario);
	if ((unsigned int)c->cc >= SIM_NR_CC)
		return bad(err, n, "unknown congestion control %d", c->cc);
	if (c->profile >= AICC_NR_PROFILES || c->profile < -1)
		return bad(err, n, "profile %d out of range", c->profile);
	if (c->flows < minf || c->flows > 4096)
		return bad(err, n, "flows %u out of range [%u, 4096]", c->flows,
			   minf);
	if (c->scenario == SIM_SC_ALLTOALL && c->flows > 128)
		return bad(err, n, "alltoall: at most 128 hosts (%u flows)",
			   128 * 127);
	if (!(c->rate_gbit >= 0.001 && c->rate_gbit <= 1600))
		return bad(err, n, "rate %g Gbit/s out of range [0.001, 1600]",
			   c->rate_gbit);
	if (!(c->rtt_us >= 0.1 && c->rtt_us <= 100000))
		return bad(err, n, "rtt %g us out of range [0.1, 100000]",
			   c->rtt_us);
	if (!(c->time_ms > 0 && c->time_ms <= 60000))
		return bad(err, n, "time %g ms out of range (0, 60000]",
			   c->time_ms);
	if (c->warmup_ms >= c->time_ms)
		return bad(err, n, "warmup %g ms not below time %g ms",
			   c->warmup_ms, c->time_ms);
	if (c->mtu < 256 || c->mtu > 9000)
		return bad(err, n, "mtu %u out of range [256, 9000]", c->mtu);
	if (c->buffer_kb < (c->mtu + 1023) / 1024 + 1 ||
	    c->buffer_kb > 1024 * 1024)
		return bad(err, n, "buffer %u KB out of range [%u, 1048576]",
			   c->buffer_kb, (c->mtu + 1023) / 1024 + 1);
	if (c->ecn_kb > c->buffer_kb)
		return bad(err, n, "ecn threshold %u KB above buffer %u KB",
			   c->ecn_kb, c->buffer_kb);
	if (c->delack < 1 || c->delack > SIM_MAX_SACK)
		return bad(err, n, "delack %u out of range [1, %d]", c->delack,
			   SIM_MAX_SACK);
	if (c->delack_us < 1 || c->delack_us > 1000000)
		return bad(err, n, "delack timeout %u us out of range",
			   c->delack_us);
	if (c->min_rto_us < 1 || c->min_rto_us > 10000000)
		return bad(err, n, "min rto %u us out of range", c->min_rto_us);
	if (c->init_cwnd < 1 || c->init_cwnd > 1000)
		return bad(err, n, "init cwnd %u out of range [1, 1000]",
			   c->init_cwnd);
	if (c->max_cwnd < 2 || c->max_cwnd > (1U << 24))
		return bad(err, n, "max cwnd %u out of range", c->max_cwnd);
	if (c->msg_kb < 1 || c->msg_kb > 4 * 1024 * 1024)
		return bad(err, n, "message %u KB out of range", c->msg_kb);
	if (c->scenario == SIM_SC_ALLREDUCE &&
	    (u64)c->msg_kb * 1024 < c->flows)
		return bad(err, n,
			   "allreduce: message smaller than one byte per host");
	if (c->topo == SIM_TOPO_LEAFSPINE &&
	    (c->leaf_hosts < 1 || c->leaf_hosts > 1024 || c->spines > 1024))
		return bad(err, n,
			   "leaf-spine: bad leaf size %u or spine count %u",
			   c->leaf_hosts, c->spines);
	if (c->scenario == SIM_SC_RPC &&
	    (c->rpc_load < 1 || c->rpc_load > 100))
		return bad(err, n, "rpc load %u%% out of range [1, 100]",
			   c->rpc_load);
	if (c->jitter_us > 1000000 || c->gap_us > 10000000)
		return bad(err, n, "jitter %u us or gap %u us out of range",
			   c->jitter_us, c->gap_us);
	if (c->scenario == SIM_SC_PIPELINE &&
	    (c->microbatches < 1 || c->microbatches > 1024))
		return bad(err, n, "microbatches %u out of range [1, 1024]",
			   c->microbatches);
	if (c->ts_tick_us > 1000000)
		return bad(err, n,
			   "timestamp tick %u us out of range [0, 1000000]",
			   c->ts_tick_us);
	if (c->ts_drift_ppm > 100000)
		return bad(err, n,
			   "timestamp drift %u ppm out of range [0, 100000]",
			   c->ts_drift_ppm);
	if (c->ack_jitter_us > 1000000)
		return bad(err, n, "ACK jitter %u us out of range [0, 1000000]",
			   c->ack_jitter_us);
	if (c->connect_jitter_us > 1000000)
		return bad(err, n,
			   "connect jitter %u us out of range [0, 1000000]",
			   c->connect_jitter_us);
	if (c->stagger_ms != 0 && c->scenario != SIM_SC_STAGGER)
		return bad(err, n,
			   "a stagger step is for the stagger scenario only");
	if (c->scenario == SIM_SC_STAGGER &&
	    (c->stagger_ms < 0 || c->stagger_ms > 60000 ||
	     2.0 * (c->flows - 1) * c->stagger_ms >= c->time_ms))
		return bad(err, n,
			   "stagger %g ms: %u flows joining and leaving need %g ms",
			   c->stagger_ms, c->flows,
			   2.0 * (c->flows - 1) * c->stagger_ms);
	if (c->scenario == SIM_SC_RPC && c->bulk_flows > 1024)
		return bad(err, n, "bulk flows %u out of range", c->bulk_flows);
	for (i = 0; i < AICC_NR_PROFILES; i++)
		if (c->knobs[i] && c->cc != SIM_CC_AICC)
			return bad(err, n,
				   "knobs given for congestion control %s",
				   cc_names[c->cc]);
	return 0;
}

/* SIM_TOPO_AUTO: leaf-spine for all-to-all, else a star. */
static void resolve_topo(struct sim_config *c)
{
	if (c->topo == SIM_TOPO_AUTO)
		c->topo = c->scenario == SIM_SC_ALLTOALL ?
			SIM_TOPO_LEAFSPINE : SIM_TOPO_STAR;
}

/* What sim_run() would refuse @cin for: 0, or -1 with the reason in @err. */
int sim_config_check(const struct sim_config *cin, char *err, size_t n)
{
	struct sim_config c = *cin;

	resolve_topo(&c);
	return check_config(&c, err, n);
}

int sim_run(const struct sim_config *cin, struct sim_result *r)
{
	static const struct sim_cc_ops *const ops[SIM_NR_CC] = {
		[SIM_CC_AICC] = &sim_cc_aicc,
		[SIM_CC_DCTCP] = &sim_cc_dctcp,
		[SIM_CC_SWIFT] = &sim_cc_swift,
		[SIM_CC_RENO] = &sim_cc_reno,
	};
	struct sim_config c = *cin;
	struct sim_ev e;
	struct sim s;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(&s, 0, sizeof(s));
	/* before the checks: they check a leaf-spine's sizes */
	resolve_topo(&c);
	ret = check_config(&c, r->err, sizeof(r->err));
	if (ret)
		return ret;
	if (!c.spines)
		c.spines = c.leaf_hosts;
	s.c = &c;
	s.r = r;
	s.ops = c.cc_ops ? c.cc_ops : ops[c.cc];
	s.mss = c.mtu - SIM_HDR_IP;
	s.data_wire = c.mtu + SIM_HDR_ETH;
	s.end_ps = (u64)(c.time_ms * 1e9);
	rng_seed(&s.rng, c.seed);
	s.pk_free = SIM_NONE;
	s.pk_cap = 4096;
	s.pk = malloc(sizeof(*s.pk) * s.pk_cap);
	s.qbins = c.buffer_kb * 1024 / SIM_QBIN + 2;
	s.qhist = calloc(s.qbins, sizeof(*s.qhist));
	if (c.cc == SIM_CC_AICC) {
		ret = sim_aicc_params(s.params, &c, r->err, sizeof(r->err));
		if (ret)
			goto out_err;
	}
	ret = -ENOMEM;
	if (!s.pk || !s.qhist || heap_init(&s.heap, 1024) || flows_setup(&s))
		goto out;
	if (c.warmup_ms >= 0)
		s.w0 = (u64)(c.warmup_ms * 1e9);
	else if (c.scenario == SIM_SC_LONG || c.scenario == SIM_SC_REVERSE)
		s.w0 = s.end_ps / 5;
	s.w1 = s.end_ps;
	s.conv_bad_end = -1;
	schedule_workload(&s);
	if (c.scenario == SIM_SC_STAGGER && c.warmup_ms < 0) {
		/*
		 * the second half of the interval where every flow is
		 * active; with a given stagger all of it, as aiccgen's
		 */
		s.w0 = c.stagger_ms > 0 ? s.last_join :
			(s.last_join + s.first_leave) / 2;
		s.w1 = s.first_leave;
	}
	if (c.trace && c.trace_us)
		sim_push(&s, c.trace_us * PS_PER_US, EV_TRACE, 0);
	if (s.w0 > 0)
		sim_push(&s, s.w0, EV_WIN0, 0);
	sim_push(&s, s.w1, EV_WIN1, 0);
	while (!s.oom && heap_pop(&s.heap, &e)) {
		if (e.t > s.end_ps)
			break;
		s.now = e.t;
		r->events++;
		dispatch(&s, &e);
	}
	if (s.oom)
		goto out;
	s.now = s.end_ps;
	r->sim_ms = c.time_ms;
	r->hosts = s.nhosts;
	r->nflows = s.nflows;
	r->base_rtt_us = (double)s.base_rtt_ps / PS_PER_US;
	r->window_ms[0] = (double)s.w0 / 1e9;
	r->window_ms[1] = (double)s.w1 / 1e9;
	finish(&s);
	ret = 0;
out:
	if (ret)
		snprintf(r->err, sizeof(r->err), "out of memory");
out_err:
	sim_free(&s);
	return ret;
}
