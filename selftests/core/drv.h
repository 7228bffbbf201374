/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A synthetic flow for the core's unit tests (test_core.c, test_policy.c):
 * the controller, its parameters and a clock, fed one ACK at a time.
 */
#ifndef _AICC_TEST_DRV_H
#define _AICC_TEST_DRV_H

#include <string.h>

#include "aicc_core.h"

struct drv {
	struct aicc_flow f;
	struct aicc_params p;
	const struct aicc_model *model;	/* handed to every sample */
	u64 now;
	u32 delivered;
	u32 ce;
	u32 mss;
	u8 app_limited;	/* every sample says: the application limited */
	u32 inflight_cap; /* the receiver's window in packets, 0: none */
};

/*
 * One ACK of one packet: time advances by @dt_ns, the packet was sent when
 * 'delivered' was @prior, its RTT is @rtt_ns; @ce: it was CE-marked,
 * @lost: packets newly marked lost, @delayed: a delayed ACK.
 */
static inline unsigned int drv_ack(struct drv *d, u64 dt_ns, u32 rtt_ns,
				   u32 prior, u32 ce, u32 lost, u8 delayed)
{
	struct aicc_sample s = { 0 };

	d->now += dt_ns;
	d->delivered++;
	d->ce += ce;
	s.now_ns = d->now;
	s.rtt_ns = rtt_ns;
	s.srtt_ns = rtt_ns;
	s.delivered = d->delivered;
	s.delivered_ce = d->ce;
	s.prior_delivered = prior;
	s.acked = 1;
	/* what was in flight before this ACK: the window, unless capped */
	s.inflight = d->inflight_cap && d->inflight_cap < aicc_cwnd_pkts(&d->f) ?
		     d->inflight_cap : aicc_cwnd_pkts(&d->f);
	s.losses = lost;
	s.mss = d->mss;
	s.ack_delayed = delayed;
	s.app_limited = d->app_limited;
	s.model = d->model;
	return aicc_on_ack(&d->f, &d->p, &s);
}

/* Set one knob of the flow's parameters, the others as they are. */
static inline void drv_knob(struct drv *d, unsigned int id, u32 v)
{
	u32 knob[AICC_NR_KNOBS];

	memcpy(knob, d->p.knob, sizeof(knob));
	knob[id] = v;
	aicc_params_set(&d->p, knob);
}

#endif /* _AICC_TEST_DRV_H */
