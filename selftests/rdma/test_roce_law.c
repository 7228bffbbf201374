// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit tests of aicc_roce's rate laws (module/roce/roce_law.c)
 * and knob table (module/roce/roce_tables.c), built from the module's own
 * sources.  KTAP output.
 */
#include <stdio.h>
#include <string.h>

#include "../core/ktap.h"
#include "../../module/roce/roce_law.h"
#include "../../tools/sim/sim_roce.h"

#define MS	1000000ULL
#define MBPS	1000000ULL

static struct roce_params P;

static void params(unsigned int algo)
{
	u32 k[AICC_ROCE_NR_KNOBS];

	roce_params_defaults(k);
	k[AICC_RK_CC_ALGO] = algo;
	roce_params_set(&P, k);
}

KTAP_CASE(knob_table)
{
	unsigned int i, j;

	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		const struct aicc_roce_knob_desc *k = &aicc_roce_knob_desc[i];

		ktap_expect(k->name && k->desc, "knob %u has no name", i);
		ktap_expect(k->min <= k->def && k->def <= k->max,
			    "%s: default %u outside %u..%u", k->name, k->def,
			    k->min, k->max);
		ktap_expect(roce_knob_check(i, k->def) == 0, "%s default", k->name);
		if (k->max < 0xffffffffU)
			ktap_expect(roce_knob_check(i, (u64)k->max + 1) < 0,
				    "%s accepts max+1", k->name);
		if (k->min)
			ktap_expect(roce_knob_check(i, k->min - 1) < 0,
				    "%s accepts min-1", k->name);
		for (j = 0; j < i; j++)
			ktap_expect(strcmp(k->name, aicc_roce_knob_desc[j].name),
				    "duplicate knob %s", k->name);
	}
	for (i = 0; i < AICC_ROCE_NR_STATS; i++)
		ktap_expect(aicc_roce_stat_desc[i].name, "stat %u unnamed", i);
	ktap_expect(roce_knob_check(AICC_ROCE_NR_KNOBS, 0) < 0, "bad id");
}

KTAP_CASE(tx_time)
{
	ktap_expect(roce_tx_time_ns(8 * MBPS, 1000) == 1000000,
		    "1000 B at 8 Mbit/s: %llu ns",
		    (unsigned long long)roce_tx_time_ns(8 * MBPS, 1000));
	ktap_expect(roce_tx_time_ns(0, 1) > 0, "rate 0 must not divide by 0");
}

KTAP_CASE(dcqcn_cut_and_floor)
{
	struct roce_rp r;
	u64 t = 1000 * MS, before;

	params(AICC_ROCE_ALGO_DCQCN);
	roce_rp_init(&r, &P, t);
	ktap_expect(r.rc == ROCE_LINE_RATE_BPS, "starts at line rate");
	/* first CNP: alpha = initial (1023/1024), cut about in half */
	ktap_expect(roce_rp_on_cnp(&r, &P, t) & ROCE_EV_CUT, "first CNP cuts");
	ktap_expect(r.rc >= ROCE_LINE_RATE_BPS / 2 &&
		    r.rc < ROCE_LINE_RATE_BPS / 2 + ROCE_LINE_RATE_BPS / 512,
		    "rc %llu after the first cut", (unsigned long long)r.rc);
	ktap_expect(r.rt == ROCE_LINE_RATE_BPS, "target keeps the old rate");
	/* within rp_rate_reduce_monitor_period: no second cut */
	before = r.rc;
	ktap_expect(!(roce_rp_on_cnp(&r, &P, t + MS) & ROCE_EV_CUT),
		    "cut inside the monitor period");
	ktap_expect(r.rc == before, "rate changed without a cut");
	/* many CNPs, one per period: down to rp_min_rate, never below */
	for (int i = 1; i < 200; i++)
		roce_rp_on_cnp(&r, &P, t + (u64)i * 5 * MS);
	ktap_expect(r.rc == P.k[AICC_RK_RP_MIN_RATE] * MBPS,
		    "floor: rc %llu", (unsigned long long)r.rc);
}

KTAP_CASE(dcqcn_min_dec_fac)
{
	struct roce_rp r;
	u32 k[AICC_ROCE_NR_KNOBS];

	roce_params_defaults(k);
	k[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_DCQCN;
	k[AICC_RK_RP_GD] = 10;			/* cut = alpha: ~all of it */
	k[AICC_RK_RP_MIN_DEC_FAC] = 80;		/* keep at least 80 % */
	roce_params_set(&P, k);
	roce_rp_init(&r, &P, 0);
	roce_rp_on_cnp(&r, &P, 0);
	ktap_expect(r.rc == ROCE_LINE_RATE_BPS / 100 * 80,
		    "min_dec_fac bound: %llu", (unsigned long long)r.rc);
}

KTAP_CASE(dcqcn_recovery)
{
	struct roce_rp r;
	u64 t = 0, per;
	u64 rt0;
	int i;

	params(AICC_ROCE_ALGO_DCQCN);
	per = (u64)P.k[AICC_RK_RP_TIME_RESET] * 1000;
	roce_rp_init(&r, &P, t);
	for (i = 0; i < 12; i++) {
		t += 5 * MS;
		roce_rp_on_cnp(&r, &P, t);
	}
	rt0 = r.rt;
	ktap_expect(r.rc < rt0, "cut below the target");
	/* fast recovery: rp_threshold stages halve the gap, target fixed */
	for (i = 0; i < (int)P.k[AICC_RK_RP_THRESHOLD]; i++) {
		u64 gap = r.rt - r.rc;

		t += per;
		ktap_expect(roce_rp_on_tx(&r, &P, t, t, 1000, 0, false) &
			    ROCE_EV_INCREASE, "stage %d", i);
		ktap_expect(r.rt == rt0, "target moved in fast recovery");
		ktap_expect(r.rt - r.rc <= gap / 2 + 1, "gap not halved");
	}
	/* then additive increase: target + rp_ai_rate per stage */
	t += per;
	roce_rp_on_tx(&r, &P, t, t, 1000, 0, false);
	ktap_expect(r.rt == rt0 + P.k[AICC_RK_RP_AI_RATE] * MBPS,
		    "additive increase: rt %llu rt0 %llu",
		    (unsigned long long)r.rt, (unsigned long long)rt0);
	/* a long idle gap does not loop forever and stays bounded */
	roce_rp_on_tx(&r, &P, t + 3600000 * MS, t + 3600000 * MS, 1000, 0, false);
	ktap_expect(r.rc <= roce_max_rate(&P), "bounded by the max rate");
}

/*
 * DCQCN's byte counter and hyper increase: with rp_byte_reset set, a stage
 * of the timer and one of the byte counter per step.  Past rp_threshold
 * on one counter the target gains rp_ai_rate, on both (min(T, B) -
 * rp_threshold) * rp_hai_rate.
 */
KTAP_CASE(dcqcn_byte_counter_hyper_increase)
{
	static const u64 gain[] = { 0, 0, 10 + 100, 100 + 200 };
	u32 k[AICC_ROCE_NR_KNOBS];
	struct roce_rp r;
	u64 t = 0, per, rt;
	unsigned int i;

	roce_params_defaults(k);
	k[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_DCQCN;
	k[AICC_RK_RP_BYTE_RESET] = 10000;
	k[AICC_RK_RP_THRESHOLD] = 2;
	k[AICC_RK_RP_AI_RATE] = 10;
	k[AICC_RK_RP_HAI_RATE] = 100;
	roce_params_set(&P, k);
	per = (u64)k[AICC_RK_RP_TIME_RESET] * 1000;
	roce_rp_init(&r, &P, t);
	for (i = 0; i < 12; i++) {
		t += 5 * MS;
		roce_rp_on_cnp(&r, &P, t);
	}
	rt = r.rt;
	/* half a counter's bytes: no stage */
	ktap_expect(!roce_rp_on_tx(&r, &P, t, t, 5000, 0, false) &&
		    r.b_stage == 0 && r.t_stage == 0, "a stage at 5000 bytes");
	for (i = 0; i < 4; i++) {
		t += per;
		roce_rp_on_tx(&r, &P, t, t, 10000, 0, false);
		rt += gain[i] * MBPS;
		ktap_expect(r.t_stage == i + 1 && r.b_stage == i + 1 &&
			    r.rt == rt,
			    "step %u: stages %u/%u, target %llu, want %llu", i + 1,
			    r.t_stage, r.b_stage, (unsigned long long)r.rt,
			    (unsigned long long)rt);
	}
}

/*
 * A flow that recovers to the line rate is no longer cut: its next CNP is
 * a first one again (rp_rate_to_set_on_first_cnp, rp_initial_alpha_value).
 */
KTAP_CASE(dcqcn_back_at_line_rate_first_cnp_again)
{
	u32 k[AICC_ROCE_NR_KNOBS];
	struct roce_rp r;
	u64 t = MS, per;
	int i;

	roce_params_defaults(k);
	k[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_DCQCN;
	k[AICC_RK_RP_MAX_RATE] = 1000;
	k[AICC_RK_RP_RATE_FIRST_CNP] = 40;
	k[AICC_RK_RP_AI_RATE] = 1000;
	k[AICC_RK_RP_THRESHOLD] = 1;
	roce_params_set(&P, k);
	per = (u64)k[AICC_RK_RP_TIME_RESET] * 1000;
	roce_rp_init(&r, &P, 0);
	roce_rp_on_cnp(&r, &P, t);
	ktap_expect(r.cut && r.rc == 40 * MBPS, "first CNP: %llu",
		    (unsigned long long)r.rc);
	for (i = 0; i < 16 && r.cut; i++) {
		t += per;
		roce_rp_on_tx(&r, &P, t, t, 1000, 0, false);
	}
	ktap_expect(!r.cut && r.rc == 1000 * MBPS,
		    "not back at the cap after %d stages: %llu", i,
		    (unsigned long long)r.rc);
	r.alpha = 100;
	t += 10 * MS;
	roce_rp_on_cnp(&r, &P, t);
	ktap_expect(r.rc == 40 * MBPS &&
		    r.alpha == k[AICC_RK_RP_INITIAL_ALPHA],
		    "CNP at the cap is no first: rc %llu alpha %u",
		    (unsigned long long)r.rc, r.alpha);
}

/*
 * After a long idle gap a transmit catches up at most 64 stages, and the
 * timer restarts from then: the next transmit is no stage.
 */
KTAP_CASE(dcqcn_idle_catch_up_bounded)
{
	struct roce_rp r;
	u64 t = 0, rc;
	int i;

	params(AICC_ROCE_ALGO_DCQCN);
	roce_rp_init(&r, &P, t);
	for (i = 0; i < 30; i++) {
		t += 5 * MS;
		roce_rp_on_cnp(&r, &P, t);
	}
	t += 3600000 * MS;
	ktap_expect(roce_rp_on_tx(&r, &P, t, t, 1000, 0, false) &
		    ROCE_EV_INCREASE, "no increase after an hour");
	ktap_expect(r.cut && r.t_stage == 64, "stages %u, cut %u", r.t_stage,
		    r.cut);
	rc = r.rc;
	ktap_expect(!(roce_rp_on_tx(&r, &P, t + 1, t + 1, 1000, 0, false) &
		      ROCE_EV_INCREASE) && r.rc == rc && r.t_stage == 64,
		    "a transmit 1 ns later: stages %u, rate %llu -> %llu",
		    r.t_stage, (unsigned long long)rc,
		    (unsigned long long)r.rc);
}

/*
 * rp_max_rate and rp_min_rate bind the flows already running: a flow
 * never cut used to keep the cap of the moment it started (a cap lifted
 * left it at the old one, a cap lowered left it at the line rate), and a
 * cut flow kept a rate above a lowered cap until its next CNP.
 */
KTAP_CASE(rate_bounds_apply_to_running_flows)
{
	u32 k[AICC_ROCE_NR_KNOBS];
	unsigned int algo;
	struct roce_rp r;

	for (algo = AICC_ROCE_ALGO_DCQCN; algo <= AICC_ROCE_ALGO_AICC;
	     algo++) {
		roce_params_defaults(k);
		k[AICC_RK_CC_ALGO] = algo;
		k[AICC_RK_RP_MAX_RATE] = 1000;
		roce_params_set(&P, k);
		roce_rp_init(&r, &P, 0);
		roce_rp_on_tx(&r, &P, MS, MS, 1000, 0, false);
		ktap_expect(r.rc == 1000 * MBPS, "algo %u: at the cap: %llu",
			    algo, (unsigned long long)r.rc);
		k[AICC_RK_RP_MAX_RATE] = 0;
		roce_params_set(&P, k);
		roce_rp_on_tx(&r, &P, 2 * MS, 2 * MS, 1000, 1, false);
		ktap_expect(r.rc == ROCE_LINE_RATE_BPS,
			    "algo %u: cap lifted, still %llu", algo,
			    (unsigned long long)r.rc);
		k[AICC_RK_RP_MAX_RATE] = 500;
		roce_params_set(&P, k);
		roce_rp_on_tx(&r, &P, 3 * MS, 3 * MS, 1000, 2, false);
		ktap_expect(r.rc == 500 * MBPS && r.rt == 500 * MBPS,
			    "algo %u: cap lowered, still %llu", algo,
			    (unsigned long long)r.rc);
	}

	params(AICC_ROCE_ALGO_DCQCN);
	roce_rp_init(&r, &P, 0);
	roce_rp_on_cnp(&r, &P, MS);
	ktap_expect(r.cut && r.rc > 2000 * MBPS, "cut to %llu",
		    (unsigned long long)r.rc);
	roce_params_defaults(k);
	k[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_DCQCN;
	k[AICC_RK_RP_MAX_RATE] = 2000;
	roce_params_set(&P, k);
	roce_rp_on_tx(&r, &P, MS + 1, MS + 1, 1000, 0, false);
	ktap_expect(r.rc == 2000 * MBPS && r.rt == 2000 * MBPS,
		    "cut flow above a lowered cap: rc %llu rt %llu",
		    (unsigned long long)r.rc, (unsigned long long)r.rt);
	k[AICC_RK_RP_MAX_RATE] = 0;
	k[AICC_RK_RP_MIN_RATE] = 3000;
	roce_params_set(&P, k);
	roce_rp_on_tx(&r, &P, MS + 2, MS + 2, 1000, 1, false);
	ktap_expect(r.rc == 3000 * MBPS, "below a raised floor: %llu",
		    (unsigned long long)r.rc);
}

/*
 * The module reads the clock before it takes the flow's lock, so a
 * transmit can arrive with a time a little before the last CNP's: it is
 * no time after the cut, not 2^64 ns after it.
 */
KTAP_CASE(dcqcn_clock_behind_the_last_cut)
{
	struct roce_rp r;
	u64 t = 1000 * MS, rc;

	params(AICC_ROCE_ALGO_DCQCN);
	roce_rp_init(&r, &P, 0);
	ktap_expect(roce_rp_on_cnp(&r, &P, t) & ROCE_EV_CUT, "first CNP cuts");
	rc = r.rc;
	ktap_expect(!(roce_rp_on_tx(&r, &P, t - 50, t - 50, 1000, 0, false) &
		      ROCE_EV_INCREASE) && r.rc == rc && r.t_stage == 0,
		    "a transmit 50 ns before the cut raised the rate: rc %llu -> %llu, stage %u",
		    (unsigned long long)rc, (unsigned long long)r.rc,
		    r.t_stage);
	ktap_expect(!(roce_rp_on_cnp(&r, &P, t - 50) & ROCE_EV_CUT) &&
		    r.rc == rc, "a CNP 50 ns before the last cut made a second one");
}

KTAP_CASE(dcqcn_alpha)
{
	struct roce_rp r;
	u64 per;
	u32 a;

	params(AICC_ROCE_ALGO_DCQCN);
	per = (u64)P.k[AICC_RK_RP_DCE_TCP_RTT] * 1000;
	roce_rp_init(&r, &P, 0);
	roce_rp_on_cnp(&r, &P, 0);
	a = r.alpha;
	ktap_expect(a == P.k[AICC_RK_RP_INITIAL_ALPHA], "initial alpha %u", a);
	/* its first period, then 199 quiet ones: alpha *= (g/1024)^199 */
	roce_rp_on_cnp(&r, &P, 200 * per);
	ktap_expect(r.alpha < a / 2, "alpha did not decay: %u", r.alpha);
	ktap_expect(r.alpha > 0, "alpha decayed to 0 too fast");
}

/*
 * DCQCN's alpha takes one update per rp_dce_tcp_rtt: g/1024 of itself
 * kept, plus 1 - g/1024 in a period with a CNP.  The period whose CNP had
 * that update used to be decayed once more at the next CNP, so under a
 * CNP in every period alpha sank to 412 (DCQCN's tends to 1: a cut of
 * about half at rp_gd 11, not a fifth).
 */
KTAP_CASE(dcqcn_alpha_cnp_every_period)
{
	u32 k[AICC_ROCE_NR_KNOBS];
	struct roce_rp r;
	u64 per, t = MS;
	int i;

	params(AICC_ROCE_ALGO_DCQCN);
	per = (u64)P.k[AICC_RK_RP_DCE_TCP_RTT] * 1000;
	roce_rp_init(&r, &P, 0);
	for (i = 0; i < 500; i++, t += per)
		roce_rp_on_cnp(&r, &P, t);
	ktap_expect(r.alpha >= 1000, "alpha %u after 500 periods with a CNP",
		    r.alpha);

	/* exactly: alpha 512, g 960 (60/1024 of the gap per CNP period) */
	roce_params_defaults(k);
	k[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_DCQCN;
	k[AICC_RK_RP_INITIAL_ALPHA] = 512;
	k[AICC_RK_RP_DCE_TCP_G] = 960;
	roce_params_set(&P, k);
	roce_rp_init(&r, &P, 0);
	roce_rp_on_cnp(&r, &P, 0);
	/* the next period: 512 + (1024 - 512) * 64 / 1024 */
	roce_rp_on_cnp(&r, &P, per + 1);
	ktap_expect(r.alpha == 544, "CNP in the next period: alpha %u, want 544",
		    r.alpha);
	/* a quiet period, then a CNP: 544 * 960 / 1024 = 510, + 32 */
	roce_rp_on_cnp(&r, &P, 3 * per + 1);
	ktap_expect(r.alpha == 542,
		    "CNP after a quiet period: alpha %u, want 542", r.alpha);
}

KTAP_CASE(first_cnp_rate)
{
	struct roce_rp r;
	u32 k[AICC_ROCE_NR_KNOBS];

	roce_params_defaults(k);
	k[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_DCQCN;
	k[AICC_RK_RP_RATE_FIRST_CNP] = 40;
	roce_params_set(&P, k);
	roce_rp_init(&r, &P, 0);
	roce_rp_on_cnp(&r, &P, 0);
	ktap_expect(r.rc == 40 * MBPS, "rate on first CNP: %llu",
		    (unsigned long long)r.rc);
}

KTAP_CASE(off_does_nothing)
{
	struct roce_rp r;

	params(AICC_ROCE_ALGO_OFF);
	roce_rp_init(&r, &P, 0);
	ktap_expect(!roce_rp_on_cnp(&r, &P, 0), "off reacted to a CNP");
	ktap_expect(r.rc == ROCE_LINE_RATE_BPS, "off changed the rate");
}

/*
 * One window of 16 packets sent at @t and acknowledged @rtt later, after a
 * CNP if @cnp.  Returns the time of the ACK.
 */
static u64 window(struct roce_rp *r, u64 t, u32 rtt, u32 *psn, bool cnp)
{
	int j;

	for (j = 0; j < 16; j++)
		roce_rp_on_tx(r, &P, t, t, 1024, *psn + j, j == 15);
	t += rtt;
	if (cnp)
		roce_rp_on_cnp(r, &P, t);
	roce_rp_on_ack(r, &P, t, *psn + 15, ROCE_ACK);
	*psn += 16;
	return t;
}

/*
 * The aicc law from its start at time 0: 100 windows at a 1 ms RTT, then
 * @more windows whose RTT grows by @ramp_ns each, CNP-marked if @cnp.
 * Returns the rate after the first 100; *@t is the time at the end.
 */
static u64 aicc_law_run(struct roce_rp *r, u64 *t, u32 *psn, int more,
			u32 ramp_ns, bool cnp)
{
	u64 rc;
	int i;

	params(AICC_ROCE_ALGO_AICC);
	*t = 0;
	roce_rp_init(r, &P, *t);
	for (i = 0; i < 100; i++)
		*t = window(r, *t, 1000000, psn, false);
	rc = r->rc;
	for (i = 0; i < more; i++)
		*t = window(r, *t, 1000000 + (u32)i * ramp_ns, psn, cnp);
	return rc;
}

/* aicc law: a growing RTT (a queue) brings the rate down. */
KTAP_CASE(aicc_law_delay)
{
	struct roce_rp r;
	u64 t, peak;
	u32 psn = 100;

	peak = aicc_law_run(&r, &t, &psn, 300, 100000, false);
	ktap_expect(peak > 0 && r.rc < peak / 2,
		    "rate %llu at 31 ms RTT, %llu at 1 ms",
		    (unsigned long long)r.rc, (unsigned long long)peak);
	ktap_expect(r.rtt_us >= 30000, "rtt sample %u us", r.rtt_us);
	ktap_expect(r.rc >= P.k[AICC_RK_RP_MIN_RATE] * MBPS, "below min rate");
}

/* aicc law: CNPs are CE marks. */
KTAP_CASE(aicc_law_cnp)
{
	struct roce_rp r;
	u64 t, before;
	u32 psn = 0, del;

	before = aicc_law_run(&r, &t, &psn, 100, 0, true);
	ktap_expect(r.rc < before, "CNPs did not cut: %llu -> %llu",
		    (unsigned long long)before, (unsigned long long)r.rc);
	/*
	 * stale and future ACKs are ignored: neither moves the flow's
	 * sequence or its delivered count (the rate alone need not show it)
	 */
	before = r.rc;
	del = r.delivered;
	ktap_expect(r.una_psn == psn && r.nxt_psn == psn,
		    "una %u nxt %u after the windows, want %u", r.una_psn,
		    r.nxt_psn, psn);
	roce_rp_on_ack(&r, &P, t + 1, psn - 100, ROCE_ACK);
	ktap_expect(r.una_psn == psn && r.delivered == del,
		    "stale ACK: una %u (want %u), delivered +%u", r.una_psn,
		    psn, r.delivered - del);
	roce_rp_on_ack(&r, &P, t + 2, psn + 5000, ROCE_ACK);
	ktap_expect(r.una_psn == psn && r.delivered == del,
		    "ACK beyond anything sent: una %u (want %u), delivered +%u",
		    r.una_psn, psn, r.delivered - del);
	ktap_expect(r.rc == before, "stale/future ACK changed the rate");
}

/*
 * aicc law: a NAK's PSN is the packet the responder expected next.  A
 * sequence error acknowledges the packets before it and is a loss, so it
 * cuts even when it acknowledges nothing new; an RNR NAK acknowledges the
 * packets before it and does not cut.
 */
KTAP_CASE(aicc_law_nak)
{
	struct roce_rp r;
	u64 t, before;
	u32 psn = 0;
	int j;

	aicc_law_run(&r, &t, &psn, 0, 0, false);
	for (j = 0; j < 16; j++)
		roce_rp_on_tx(&r, &P, t, t, 1024, psn + j, j == 15);
	before = r.rc;
	ktap_expect(roce_rp_on_ack(&r, &P, t + 1000000, psn + 4,
				   ROCE_NAK_RNR) == 0,
		    "RNR NAK cut the rate");
	ktap_expect(r.una_psn == psn + 4 && r.rc >= before,
		    "RNR NAK: una %u (want %u), rate %llu -> %llu", r.una_psn,
		    psn + 4, (unsigned long long)before,
		    (unsigned long long)r.rc);
	/* the same PSN again: nothing acknowledged, but a sequence error */
	ktap_expect(roce_rp_on_ack(&r, &P, t + 1000001, psn + 4,
				   ROCE_NAK_SEQ) & ROCE_EV_CUT,
		    "sequence error NAK did not cut");
	ktap_expect(r.una_psn == psn + 4 && r.rc < before,
		    "NAK: una %u (want %u), rate %llu -> %llu", r.una_psn,
		    psn + 4, (unsigned long long)before,
		    (unsigned long long)r.rc);
	/* a NAK for a packet long acknowledged is stale */
	before = r.rc;
	ktap_expect(roce_rp_on_ack(&r, &P, t + 1000002, psn - 3,
				   ROCE_NAK_SEQ) == 0 && r.rc == before &&
		    r.una_psn == psn + 4, "stale NAK acted on");
}

/*
 * aicc law: a queue pair that sends both ways carries, beside this host's
 * requests, its responses to the peer's (ACKs, read responses) with the
 * PSNs of the peer's sequence.  The module sends those with ROCE_PSN_NONE,
 * and they are no part of the flow's sequence, not even as the flow's
 * first packet (a responder ACKs before it sends a request of its own):
 * a response's PSN taken for a request's put the acknowledged and sent
 * marks in the other sequence, and an ACK of 16 requests counted 1017
 * packets delivered (or, the other sequence ahead, nothing ever again).
 */
KTAP_CASE(aicc_law_responses_outside_the_sequence)
{
	struct roce_rp r;
	u32 psn = 1000;
	int j;

	params(AICC_ROCE_ALGO_AICC);
	roce_rp_init(&r, &P, 0);
	roce_rp_on_tx(&r, &P, 0, 0, 60, ROCE_PSN_NONE, false);
	for (j = 0; j < 16; j++) {
		roce_rp_on_tx(&r, &P, MS, MS, 1024, psn + j, j == 15);
		roce_rp_on_tx(&r, &P, MS, MS, 1084, ROCE_PSN_NONE, false);
	}
	roce_rp_on_ack(&r, &P, 2 * MS, psn + 15, ROCE_ACK);
	ktap_expect(r.delivered == 16 && r.una_psn == psn + 16 &&
		    r.nxt_psn == psn + 16 && r.rtt_us == 1000 &&
		    r.mss == 1024,
		    "delivered %u una %u nxt %u rtt %u us mss %u: want 16, %u, %u, 1000, 1024",
		    r.delivered, r.una_psn, r.nxt_psn, r.rtt_us, r.mss,
		    psn + 16, psn + 16);
}

/*
 * aicc law: each profile's parameters, but at pacing gain 1 -- a RoCE
 * sender has no window to cap what a gain above 1 puts in flight.
 */
KTAP_CASE(aicc_law_profile_gain_one)
{
	u32 k[AICC_ROCE_NR_KNOBS], ak[AICC_NR_KNOBS];
	unsigned int prof, i;

	for (prof = 0; prof < AICC_NR_PROFILES; prof++) {
		roce_params_defaults(k);
		k[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_AICC;
		k[AICC_RK_AICC_PROFILE] = prof;
		roce_params_set(&P, k);
		aicc_params_defaults(ak, prof);
		ktap_expect(P.ap.knob[AICC_K_PACING_GAIN] == 1000 &&
			    P.ap.pacing_gain_q16 == 1U << 16,
			    "profile %u: pacing gain %u", prof,
			    P.ap.knob[AICC_K_PACING_GAIN]);
		for (i = 0; i < AICC_NR_KNOBS; i++)
			if (i != AICC_K_PACING_GAIN)
				ktap_expect(P.ap.knob[i] == ak[i],
					    "profile %u knob %u: %u, not %u",
					    prof, i, P.ap.knob[i], ak[i]);
	}
}

/* The simulator's RoCE model: rate control empties the queue. */
KTAP_CASE(sim_on_vs_off)
{
	struct sim_roce_config c;
	struct sim_roce_result off, on, ai, again;

	sim_roce_defaults(&c);
	c.knobs[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_OFF;
	ktap_expect(!sim_roce_run(&c, &off), "off: %s", off.err);
	c.knobs[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_DCQCN;
	ktap_expect(!sim_roce_run(&c, &on), "dcqcn: %s", on.err);
	ktap_expect(!sim_roce_run(&c, &again), "dcqcn again: %s", again.err);
	c.knobs[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_AICC;
	ktap_expect(!sim_roce_run(&c, &ai), "aicc: %s", ai.err);
	printf("# sim off: goodput %.3f qdelay %.0f us; dcqcn: %.3f %.0f us; aicc: %.3f %.0f us\n",
	       off.goodput, off.qdelay_mean_us, on.goodput, on.qdelay_mean_us,
	       ai.goodput, ai.qdelay_mean_us);
	ktap_expect(off.goodput > 0.9 && off.cuts == 0, "off: goodput %.3f",
		    off.goodput);
	ktap_expect(on.qdelay_mean_us * 3 < off.qdelay_mean_us,
		    "dcqcn queue %.0f us vs off %.0f us", on.qdelay_mean_us,
		    off.qdelay_mean_us);
	ktap_expect(on.goodput > 0.6 && on.cnps > 0 && on.cuts > 0,
		    "dcqcn goodput %.3f", on.goodput);
	ktap_expect(ai.qdelay_mean_us * 3 < off.qdelay_mean_us && ai.goodput > 0.5,
		    "aicc queue %.0f us goodput %.3f", ai.qdelay_mean_us,
		    ai.goodput);
	ktap_expect(on.jain > 0.9, "dcqcn Jain %.3f", on.jain);
	ktap_expect(again.goodput == on.goodput && again.cnps == on.cnps,
		    "not deterministic");
	c.flows = 0;
	ktap_expect(sim_roce_run(&c, &on) < 0, "flows=0 accepted");
}

int main(void)
{
	return ktap_run();
}
