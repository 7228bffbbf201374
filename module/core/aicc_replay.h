/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of one call into the core, as the module's aicc:aicc_core
 * tracepoint writes it: which entry point, its scalar arguments, the
 * structure it was given (an ACK's sample, or the rate memory's value at
 * init) and the flow's state after the call.  tools/replay feeds the same
 * calls to the userspace build of the core and compares the states byte
 * for byte: one algorithm, one source, the same decisions.
 */
#ifndef _AICC_REPLAY_H
#define _AICC_REPLAY_H

#include "aicc_core.h"

enum aicc_trace_call {
	/*
	 * init_cwnd, mss | delivered_ce << 32, now_ns,
	 * profile | delivered << 32; in: memval
	 */
	AICC_TC_INIT,
	AICC_TC_SEED,		/* rtt_ns, now_ns */
	AICC_TC_ACK,		/* in: struct aicc_sample */
	AICC_TC_ADOPT,		/* base_rtt_ns, base_stamp, now_ns */
	AICC_TC_TX_START,	/* now_ns, idle_ns, delivered, delivered_ce */
	AICC_TC_RTO,		/* delivered, delivered_ce */
	AICC_TC_UNDO,		/* prior_pkts */
	AICC_NR_TC
};

#define AICC_TRACE_ARGS		4
#define AICC_TRACE_IN_LEN	sizeof(struct aicc_sample)
#define AICC_TRACE_OUT_LEN	sizeof(struct aicc_flow)

#endif /* _AICC_REPLAY_H */
