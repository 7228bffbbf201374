// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-sim congestion controllers.
 *
 *   reno   NewReno-style: slow start, +1 packet per window, halve once per
 *          window on loss or ECN echo (RFC 5681, RFC 3168).
 *   dctcp  RFC 8257: alpha <- (1 - g) alpha + g F per window (g = 1/16,
 *          alpha starts at 1), cut W <- W (1 - alpha/2) once per window when
 *          marks arrive, halve on loss; otherwise Reno.
 *   swift  Kumar et al., SIGCOMM 2020: delay target = base RTT + per-hop
 *          term + flow-scaling term; below it +ai/cwnd per ACK, above it
 *          cwnd *= max(1 - beta (d - t)/d, 1 - max_mdf) at most once per
 *          RTT; fractional cwnd below one packet is paced.
 *   aicc   the shared core (module/core), exactly as the kernel glue
 *          drives it.
 *
 * Each sets f->cwnd (whole packets the sender may have in flight) and
 * f->pacing (bytes/s, 0 for unpaced).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim_int.h"
#include "aicc_policy.h"

/* ---- Reno and DCTCP ---- */

static void reno_init(struct sim *s, struct flow *f)
{
	struct cc_reno *r = &f->cc.reno;

	memset(r, 0, sizeof(*r));
	r->ssthresh = 0x7fffffff;
	r->alpha = 1024;
	f->cwnd = s->c->init_cwnd;
	f->pacing = 0;
}

static void reno_grow(struct sim *s, struct flow *f,
		      const struct aicc_sample *smp)
{
	struct cc_reno *r = &f->cc.reno;
	u32 acked = smp->acked, before = smp->inflight + smp->acked +
		smp->losses;

	if (!acked)
		return;
	if (f->cwnd < r->ssthresh) {
		u32 room;

		if (before * 2 < f->cwnd)
			return;		/* not window-limited */
		room = r->ssthresh - f->cwnd;
		if (acked <= room) {
			f->cwnd += acked;
			acked = 0;
		} else {
			f->cwnd = r->ssthresh;
			acked -= room;
		}
	}
	if (acked && before >= f->cwnd) {
		r->cnt += acked;
		if (r->cnt >= f->cwnd) {
			u32 inc = r->cnt / f->cwnd;

			r->cnt -= inc * f->cwnd;
			f->cwnd += inc;
		}
	}
	if (f->cwnd > s->c->max_cwnd)
		f->cwnd = s->c->max_cwnd;
}

static void reno_cut(struct sim *s, struct flow *f, u32 ssthresh)
{
	struct cc_reno *r = &f->cc.reno;

	r->ssthresh = ssthresh < 2 ? 2 : ssthresh;
	f->cwnd = r->ssthresh;
	r->cnt = 0;
	r->high_seq = f->snd_nxt;
	r->in_loss = false;
}

/* dctcp_ssthresh(): cwnd less alpha / 2 of it */
static u32 dctcp_ssthresh(const struct flow *f)
{
	return f->cwnd - (u32)(((u64)f->cwnd * f->cc.reno.alpha) >> 11);
}

static void reno_ack_common(struct sim *s, struct flow *f,
			    const struct aicc_sample *smp, bool dctcp)
{
	struct cc_reno *r = &f->cc.reno;
	bool ce = smp->delivered_ce != r->last_ce;
	bool can_cut = f->snd_una >= r->high_seq;

	if (dctcp && f->snd_una >= r->win_end) {
		u32 d = smp->delivered - r->win_del0;
		u32 m = smp->delivered_ce - r->win_ce0;

		if (d) {
			r->alpha = r->alpha - (r->alpha >> 4) +
				((m << 10) / d >> 4);
			if (r->alpha > 1024)
				r->alpha = 1024;
		}
		r->win_end = f->snd_nxt;
		r->win_del0 = smp->delivered;
		r->win_ce0 = smp->delivered_ce;
	}
	r->last_ce = smp->delivered_ce;
	if (smp->losses && can_cut) {
		reno_cut(s, f, f->cwnd / 2);
		s->r->cc_loss_cuts++;
	} else if (ce && can_cut) {
		if (dctcp)
			reno_cut(s, f, dctcp_ssthresh(f));
		else
			reno_cut(s, f, f->cwnd / 2);
		s->r->cc_ecn_cuts++;
	} else if (can_cut) {
		reno_grow(s, f, smp);
	}
}

static void reno_on_ack(struct sim *s, struct flow *f,
			const struct aicc_sample *smp)
{
	reno_ack_common(s, f, smp, false);
}

static void dctcp_on_ack(struct sim *s, struct flow *f,
			 const struct aicc_sample *smp)
{
	reno_ack_common(s, f, smp, true);
}

/*
 * tcp_enter_loss(): a new ssthresh only outside a window already cut (a
 * recovery or CWR episode, snd_una before high_seq), or after a timeout
 * whose retransmissions have since made progress; a second timeout
 * without progress, or one during fast recovery, keeps the one it has.
 */
static void reno_on_rto(struct sim *s, struct flow *f)
{
	struct cc_reno *r = &f->cc.reno;

	if (f->snd_una >= r->high_seq ||
	    (r->in_loss && f->snd_una != r->loss_una))
		r->ssthresh = f->cwnd / 2 < 2 ? 2 : f->cwnd / 2;
	f->cwnd = 1;
	r->cnt = 0;
	r->high_seq = f->snd_nxt;
	r->loss_una = f->snd_una;
	r->in_loss = true;
}

/*
 * Losses no sample reported: the window goes to ssthresh(), at once as
 * this model cuts on a loss (tcp_reno_ssthresh(): half; DCTCP halves
 * on entering recovery, dctcp_react_to_loss(), and a probe's CWR
 * reduction takes dctcp_ssthresh()).
 */
static void reno_on_cwnd_reduction(struct sim *s, struct flow *f,
				   bool recovery)
{
	(void)recovery;
	reno_cut(s, f, f->cwnd / 2);
	s->r->cc_loss_cuts++;
}

static void dctcp_on_cwnd_reduction(struct sim *s, struct flow *f,
				    bool recovery)
{
	reno_cut(s, f, recovery ? f->cwnd / 2 : dctcp_ssthresh(f));
	s->r->cc_loss_cuts++;
}

/* Linux tcp_cwnd_restart(): halve per RTO of idle, down to the IW. */
static void reno_on_tx_start(struct sim *s, struct flow *f, u64 idle_ns)
{
	struct cc_reno *r = &f->cc.reno;
	u64 rto_ns = sim_rto_ps(s, f) / PS_PER_NS;
	u32 restart = s->c->init_cwnd < f->cwnd ? s->c->init_cwnd : f->cwnd;
	u32 t = f->cwnd - (f->cwnd >> 2);

	if (!s->c->ss_after_idle || idle_ns < rto_ns)
		return;
	if (t > r->ssthresh)
		r->ssthresh = t;
	for (; idle_ns >= rto_ns && f->cwnd > restart; idle_ns -= rto_ns)
		f->cwnd >>= 1;
	if (f->cwnd < restart)
		f->cwnd = restart;
}

const struct sim_cc_ops sim_cc_reno = {
	.name = "reno",
	.init = reno_init,
	.on_ack = reno_on_ack,
	.on_rto = reno_on_rto,
	.on_tx_start = reno_on_tx_start,
	.on_cwnd_reduction = reno_on_cwnd_reduction,
};

const struct sim_cc_ops sim_cc_dctcp = {
	.name = "dctcp",
	.init = reno_init,
	.on_ack = dctcp_on_ack,
	.on_rto = reno_on_rto,
	.on_tx_start = reno_on_tx_start,
	.on_cwnd_reduction = dctcp_on_cwnd_reduction,
};

/* ---- Swift ---- */

#define SWIFT_AI		1.0	/* packets per RTT */
#define SWIFT_BETA		0.8
#define SWIFT_MAX_MDF		0.5
#define SWIFT_MIN_CWND		0.001
#define SWIFT_HOP_NS		1000.0	/* per-hop target term */
#define SWIFT_FS_RANGE		2.0	/* flow-scaling range, x base RTT */
#define SWIFT_FS_MIN_CWND	0.1
#define SWIFT_FS_MAX_CWND	100.0
#define SWIFT_RETX_RESET	5

static void swift_apply(struct sim *s, struct flow *f)
{
	struct cc_swift *w = &f->cc.swift;
	double srtt = (double)f->srtt_ps / PS_PER_NS;

	if (w->cwnd < SWIFT_MIN_CWND)
		w->cwnd = SWIFT_MIN_CWND;
	if (w->cwnd > s->c->max_cwnd)
		w->cwnd = s->c->max_cwnd;
	if (w->cwnd >= 1) {
		f->cwnd = (u32)w->cwnd;
		f->pacing = 0;
	} else {
		/* one packet per srtt/cwnd */
		f->cwnd = 1;
		f->pacing = (u64)(w->cwnd * (f->mss + SIM_HDR_IP) * 1e9 /
				  (srtt > 1 ? srtt : 1));
		if (!f->pacing)
			f->pacing = 1;
	}
}

static void swift_init(struct sim *s, struct flow *f)
{
	struct cc_swift *w = &f->cc.swift;

	memset(w, 0, sizeof(*w));
	w->cwnd = s->c->init_cwnd;
	/*
	 * Swift's base target is configured for the fabric: the path's
	 * unloaded RTT here, not a measured minimum (which a late flow
	 * would take with the standing queue in it).
	 */
	w->base_rtt_ns = (u32)(f->path_rtt_ps / PS_PER_NS);
	swift_apply(s, f);
}

static double swift_target(struct sim *s, struct flow *f)
{
	struct cc_swift *w = &f->cc.swift;
	double range = SWIFT_FS_RANGE * w->base_rtt_ns;
	double a = range / (1 / sqrt(SWIFT_FS_MIN_CWND) -
			    1 / sqrt(SWIFT_FS_MAX_CWND));
	double b = -a / sqrt(SWIFT_FS_MAX_CWND);
	double fs = a / sqrt(w->cwnd) + b;

	if (fs < 0)
		fs = 0;
	if (fs > range)
		fs = range;
	return w->base_rtt_ns + f->nhops[0] * SWIFT_HOP_NS + fs;
}

static void swift_on_ack(struct sim *s, struct flow *f,
			 const struct aicc_sample *smp)
{
	struct cc_swift *w = &f->cc.swift;
	bool can_dec = smp->now_ns - w->t_last_dec >= smp->srtt_ns;

	if (smp->acked)
		w->retx_cnt = 0;
	if (smp->rtt_ns >= 0) {
		double d = (double)smp->rtt_ns, t;

		t = swift_target(s, f);
		if (d < t) {
			if (w->cwnd >= 1)
				w->cwnd += SWIFT_AI * smp->acked / w->cwnd;
			else
				w->cwnd += SWIFT_AI * smp->acked;
		} else if (can_dec) {
			double m = 1 - SWIFT_BETA * (d - t) / d;

			if (m < 1 - SWIFT_MAX_MDF)
				m = 1 - SWIFT_MAX_MDF;
			w->cwnd *= m;
			w->t_last_dec = smp->now_ns;
			can_dec = false;
			s->r->cc_delay_cuts++;
		}
	}
	if (smp->losses && can_dec) {
		w->cwnd *= 1 - SWIFT_MAX_MDF;
		w->t_last_dec = smp->now_ns;
		s->r->cc_loss_cuts++;
	}
	swift_apply(s, f);
}

static void swift_on_rto(struct sim *s, struct flow *f)
{
	struct cc_swift *w = &f->cc.swift;

	if (++w->retx_cnt >= SWIFT_RETX_RESET)
		w->cwnd = SWIFT_MIN_CWND;
	else
		w->cwnd *= 1 - SWIFT_MAX_MDF;
	w->t_last_dec = s->now / PS_PER_NS;
	swift_apply(s, f);
}

const struct sim_cc_ops sim_cc_swift = {
	.name = "swift",
	.init = swift_init,
	.on_ack = swift_on_ack,
	.on_rto = swift_on_rto,
	.on_tx_start = NULL,
};

/* ---- aicc, through the shared core ---- */

int sim_aicc_params(struct aicc_params *p, const struct sim_config *c,
		    char *err, size_t n)
{
	int prof, k;

	for (prof = 0; prof < AICC_NR_PROFILES; prof++) {
		u32 knob[AICC_NR_KNOBS];

		aicc_params_defaults(knob, prof);
		if (c->knobs[prof]) {
			for (k = 0; k < AICC_NR_KNOBS; k++) {
				if (aicc_knob_check(k, c->knobs[prof][k])) {
					snprintf(err, n,
						 "profile %d knob %d: value %u invalid",
						 prof, k, c->knobs[prof][k]);
					return -1;
				}
			}
			memcpy(knob, c->knobs[prof], sizeof(knob));
		}
		aicc_params_set(&p[prof], knob);
	}
	return 0;
}

static void aicc_count(struct sim *s, unsigned int ev)
{
	if (ev & AICC_EV_DELAY_CUT)
		s->r->cc_delay_cuts++;
	if (ev & AICC_EV_ECN_CUT)
		s->r->cc_ecn_cuts++;
	if (ev & AICC_EV_LOSS_CUT)
		s->r->cc_loss_cuts++;
	if (ev & AICC_EV_START_EXIT)
		s->r->cc_start_exits++;
	if (ev & AICC_EV_IDLE_RESUME)
		s->r->cc_idle_resumes++;
	if (ev & AICC_EV_IDLE_RESET)
		s->r->cc_idle_resets++;
	if (ev & AICC_EV_POL_EVAL)
		s->r->cc_pol_evals++;
	if (ev & (AICC_EV_POL_RANGE | AICC_EV_POL_HOLD))
		s->r->cc_pol_classic++;
}

static void aicc_out(struct sim *s, struct flow *f)
{
	f->cwnd = aicc_cwnd_pkts(&f->cc.aicc);
	f->pacing = f->cc.aicc.rate;
}

static void aicc_sim_init(struct sim *s, struct flow *f)
{
	const struct aicc_params *p = &s->params[f->profile];

	aicc_count(s, aicc_flow_init(&f->cc.aicc, p, s->c->init_cwnd, f->mss,
				     s->now / PS_PER_NS, f->delivered,
				     f->delivered_ce, NULL));
	/* the handshake's RTT, as the kernel glue passes it */
	aicc_flow_seed_rtt(&f->cc.aicc, p, (u32)(f->srtt_ps / PS_PER_NS),
			   s->now / PS_PER_NS);
	f->lost_seen = (u16)f->lost;
	aicc_out(s, f);
}

static void aicc_sim_ack(struct sim *s, struct flow *f,
			 const struct aicc_sample *smp)
{
	const struct aicc_params *p = &s->params[f->profile];
	const struct aicc_model *m = s->c->model;
	struct aicc_sample ms = *smp;

	/* as the glue does: the model of the flow's profile */
	if (m && (m->profiles & (1U << f->profile)))
		ms.model = m;
	/* the losses RACK's timer found since the last ACK */
	ms.losses += aicc_losses_unreported(&f->lost_seen, f->lost, ms.losses);
	/* and the one a probe repaired, found in this ACK */
	if (f->tlp_repaired) {
		f->tlp_repaired = false;
		ms.losses++;
		s->r->cc_tlp_losses++;
	}
	/* and an RTT sample less the queueing its ACK met on the way back */
	if (f->ack_tsval)
		ms.rtt_ns = aicc_fwd_rtt(&f->owd, &f->owd_state, &f->cc.aicc,
					 p, ms.rtt_ns, f->ts_now, f->ack_tsval,
					 s->c->ts_tick_us * 1000);
	aicc_count(s, aicc_on_ack(&f->cc.aicc, p, &ms));
	aicc_out(s, f);
}

static void aicc_sim_rto(struct sim *s, struct flow *f)
{
	f->lost_seen = (u16)f->lost;	/* the timeout's own losses */
	aicc_count(s, aicc_on_rto(&f->cc.aicc, &s->params[f->profile],
				  f->delivered, f->delivered_ce));
	aicc_out(s, f);
}

/*
 * As the module (aicc_in_ack_event(), aicc_set_state()): a loss that a
 * retransmitted tail-loss probe repaired reaches the law as a loss of the
 * ACK that found it, unless that ACK echoes a mark; a recovery's losses
 * are in the samples already.
 */
static void aicc_sim_cwnd_reduction(struct sim *s, struct flow *f,
				    bool recovery)
{
	(void)s;
	if (!recovery && !f->ack_ece)
		f->tlp_repaired = true;
}

static void aicc_sim_tx_start(struct sim *s, struct flow *f, u64 idle_ns)
{
	unsigned int ev;

	aicc_owd_idle(&f->owd_state, &s->params[f->profile], idle_ns);
	ev = aicc_on_tx_start(&f->cc.aicc, &s->params[f->profile],
			      s->now / PS_PER_NS, idle_ns, f->delivered,
			      f->delivered_ce);
	aicc_count(s, ev);
	aicc_out(s, f);
	/*
	 * As the module: tcp_wstamp_ns moved on when the packet this start
	 * sends (tx_order + 1, as the kernel counts it) is paced.
	 */
	if (s->c->kernel_pacing && (ev & AICC_EV_IDLE_RESUME) &&
	    f->tx_order + 1 >= AICC_PACED_FROM_SEG)
		f->hold_ps += aicc_resume_hold_ns(&f->cc.aicc, idle_ns,
						  f->mss) * PS_PER_NS;
}

const struct sim_cc_ops sim_cc_aicc = {
	.name = "aicc",
	.init = aicc_sim_init,
	.on_ack = aicc_sim_ack,
	.on_rto = aicc_sim_rto,
	.on_tx_start = aicc_sim_tx_start,
	.on_cwnd_reduction = aicc_sim_cwnd_reduction,
};
