/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc-sim roce: RoCEv2 rate-based senders running aicc_roce's rate laws
 * (module/roce/roce_law.c) through one ECN-marking bottleneck.  See
 * tools/sim/roce.c; sim_roce_run() keeps no global state, so a tuner may
 * call it many times with different knobs.
 */
#ifndef _AICC_SIM_ROCE_H
#define _AICC_SIM_ROCE_H

#include <stdbool.h>
#include "../../module/roce/roce_law.h"

struct sim_roce_config {
	u32 flows;		/* senders, all to one receiver */
	double rate_mbit;	/* bottleneck */
	double rtt_us;		/* base RTT */
	u32 ecn_kb;		/* step marking threshold, 0: none */
	u32 buffer_kb;		/* bottleneck buffer */
	double time_ms;		/* simulated; the last 2/3 are measured */
	u32 window;		/* unacknowledged packets per QP */
	u32 ack_every;		/* packets per ACK */
	u32 payload;		/* bytes per packet (path MTU) */
	u64 seed;
	u32 knobs[AICC_ROCE_NR_KNOBS];	/* uapi/aicc_roce.h units */
};

struct sim_roce_result {
	double goodput;		/* fraction of the bottleneck */
	double qdelay_mean_us;
	double qdelay_p99_us;
	double jain;
	u64 sent, drops, ce, cnps, cuts;
	u64 out_of_seq;		/* arrivals the receiver discarded */
	u64 timeouts;		/* go-back-N retransmission timeouts */
	char err[96];
};

void sim_roce_defaults(struct sim_roce_config *c);
int sim_roce_run(const struct sim_roce_config *c, struct sim_roce_result *r);
/*
 * One run's score, higher is better (1 is ideal): goodput - queue delay
 * p99 / (4 * base RTT) - (1 - Jain).  sim_roce_score() is its mean over a
 * fixed scenario set; aicc-tune --roce uses it over its own sets.
 */
double sim_roce_case_score(const struct sim_roce_config *c,
			   const struct sim_roce_result *r);
double sim_roce_score(const u32 knobs[AICC_ROCE_NR_KNOBS]);
int sim_roce_main(int argc, char **argv);

#endif /* _AICC_SIM_ROCE_H */
