/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc-sim: a deterministic packet-level simulator of an AI-cluster fabric.
 *
 * One call runs one scenario to completion and fills a result:
 *
 *	struct sim_config c;
 *	struct sim_result r;
 *
 *	sim_config_defaults(&c);
 *	c.scenario = SIM_SC_INCAST;
 *	c.flows = 256;
 *	if (sim_run(&c, &r))
 *		fprintf(stderr, "%s\n", r.err);
 *
 * sim_run() keeps no global state: a tuner may call it thousands of times
 * in one process.  The same configuration and seed always give the same
 * result (wall-clock time excepted).
 */
#ifndef _AICC_SIM_H
#define _AICC_SIM_H

#include "aicc_core.h"

enum sim_scenario {
	SIM_SC_LONG,		/* N long flows -> 1 receiver, start together */
	SIM_SC_STAGGER,		/* N long flows join, then leave, one by one */
	SIM_SC_INCAST,		/* N -> 1 bursts after idle gaps (iterations) */
	SIM_SC_ALLTOALL,	/* MoE all-to-all among N hosts (iterations) */
	SIM_SC_ALLREDUCE,	/* ring all-reduce among N hosts (iterations) */
	SIM_SC_RPC,		/* small RPCs to 1 receiver under bulk flows */
	SIM_SC_PIPELINE,	/* pipeline-parallel stages, point to point */
	/* N long flows -> 1 host, and its own long flow out, whose ACKs
	 * cross their queue
	 */
	SIM_SC_REVERSE,
	SIM_NR_SC
};

enum sim_cc {
	SIM_CC_AICC,
	SIM_CC_DCTCP,
	SIM_CC_SWIFT,
	SIM_CC_RENO,
	SIM_NR_CC
};

enum sim_topo {
	SIM_TOPO_AUTO,		/* the scenario's choice */
	SIM_TOPO_STAR,		/* every host on one switch */
	SIM_TOPO_LEAFSPINE,	/* two tiers, ECMP by flow hash */
};

struct sim_config {
	enum sim_scenario scenario;
	enum sim_cc cc;
	int profile;		/* aicc profile of every flow, -1: scenario's */
	/* Per-profile knob values (units of uapi/aicc.h), NULL: defaults. */
	const u32 *knobs[AICC_NR_PROFILES];
	enum sim_topo topo;
	u32 flows;		/* senders, or hosts (alltoall, allreduce, pipeline) */
	double rate_gbit;	/* every link */
	double rtt_us;		/* base RTT of the longest path (propagation) */
	u32 buffer_kb;		/* per switch output port */
	u32 ecn_kb;		/* step marking threshold, 0: no marking */
	double time_ms;		/* simulated time */
	double warmup_ms;	/* start of the measurement window, <0: auto */
	u64 seed;
	u32 mtu;		/* IP packet size; payload is mtu - 52 */
	u32 delack;		/* ACK every delack packets (1..4) */
	u32 delack_us;		/* delayed-ACK timeout */
	u32 min_rto_us;
	u32 init_cwnd;		/* packets */
	u32 max_cwnd;		/* packets (receive window) */
	u32 msg_kb;		/* per flow per iteration; allreduce: buffer */
	u32 gap_us;		/* idle gap between iterations */
	/* incast/alltoall: senders start up to this late (uniform) per iteration */
	u32 jitter_us;
	u32 leaf_hosts;		/* hosts per leaf (leaf-spine) */
	u32 spines;		/* spine switches (leaf-spine), 0: leaf_hosts */
	u32 rpc_load;		/* RPC load in percent of the line rate */
	u32 bulk_flows;		/* rpc scenario: bulk senders */
	u32 microbatches;	/* pipeline: microbatches per iteration */
	/*
	 * TCP timestamp clock tick (1000: a stock kernel's milliseconds,
	 * 1: tcp_usec_ts), 0: no timestamps
	 */
	u32 ts_tick_us;
	u32 ts_drift_ppm;	/* receivers' timestamp clocks this much slow */
	bool ss_after_idle;	/* reno/dctcp/swift: Linux cwnd restart */
	/*
	 * every connection opened at time 0 (persistent connections, as an
	 * AI job's and the VM bench's): a flow that starts later keeps the
	 * handshake's RTT of the empty path instead of the queue it joins
	 */
	bool preconnect;
	/*
	 * pace as Linux does (tcp_update_skb_after_send()): the first ten
	 * segments of a connection unpaced, and a packet sent from an idle
	 * pacer takes up to half a packet time off the next gap; aicc then
	 * holds the packet after a resume back as the module does
	 * (aicc_resume_hold_ns()).  Off: every packet spaced by a full
	 * packet time, no hold.
	 */
	bool kernel_pacing;
	/*
	 * loss detection by the dupthresh rule alone (SIM_DUPTHRESH packets
	 * sent later delivered); default: also RACK's time rule, as Linux
	 * with net.ipv4.tcp_recovery=1 (Documentation/simulator.rst)
	 */
	bool no_rack;
	/*
	 * tail-loss probes as Linux sends them (net.ipv4.tcp_early_retrans=3,
	 * its default); off: a lost tail waits for the RTO.  Off by default
	 * until a recorded tuning run has them (Documentation/simulator.rst)
	 */
	bool tlp;
	/*
	 * stagger: flows join this far apart and leave in reverse order as
	 * far apart, measured over the whole interval where all are active
	 * (aiccgen bulk --stagger --leave); 0: time_ms / (2 flows) apart,
	 * measured over the second half of that interval
	 */
	double stagger_ms;
	/*
	 * each connection's handshake RTT is up to this much too high
	 * (uniform, per flow and seed): host delays while connecting, which
	 * the base RTT keeps when no later sample is lower (the VM bench's
	 * flows: 0.06-0.56 ms above the path's)
	 */
	u32 connect_jitter_us;
	/*
	 * each ACK reaches the sender's congestion control up to this much
	 * late (uniform, per ACK, in order): host scheduling noise, which
	 * batches ACKs as an emulated CPU does (0: off)
	 */
	u32 ack_jitter_us;
	/*
	 * debugging: every trace_us, one line of sums (bottleneck ports,
	 * busy flows), then one per flow for the first trace_flows (8)
	 */
	void *trace;		/* FILE *, NULL: off */
	u32 trace_us;
	u32 trace_flows;
	/* tests: a struct sim_cc_ops to use instead of cc's, NULL: none */
	const void *cc_ops;
	/* aicc: the learned policy (module/core/aicc_policy.h), NULL: none */
	const struct aicc_model *model;
};

/* FCT size classes (payload bytes): [0,10K) [10K,100K) [100K,1M) [1M,inf) */
#define SIM_NR_FCT	4

struct sim_fct_class {
	u64 lo, hi;		/* size range, bytes */
	u32 count;		/* completed messages */
	double fct_p50_us, fct_p99_us;
	double sd_p50, sd_p99;	/* slowdown: FCT / unloaded FCT */
};

struct sim_result {
	/* run */
	u64 events;
	double sim_ms;
	u32 hosts, nflows;
	double base_rtt_us;	/* propagation RTT of the longest path */
	double window_ms[2];	/* measurement window */
	/* network */
	double util;		/* bottleneck ports, measurement window */
	double rev_util;	/* reverse: the outgoing flow's port, ditto */
	double goodput_gbit;	/* payload received, measurement window */
	double q_p50_kb, q_p99_kb, q_max_kb;	/* data enqueues, all switches */
	double q_p99_us, q_max_us;	/* the same as time at line rate */
	u64 drops, ecn_marks;	/* data packets at switches */
	u64 drops_win;		/* ... of which in the measurement window */
	/*
	 * ... of those, the ones after the first collective iteration ended
	 * (the cold start's excluded); the same as drops_win for the
	 * scenarios without iterations
	 */
	u64 drops_warm;
	/* byte accounting over every switch port, at the end of the run */
	u64 port_in, port_out, port_drop, port_queued;
	u64 ack_drops;
	u64 pkts_sent, retrans, rtos;
	u64 rtos_win;		/* ... of which in the measurement window */
	u64 rtos_warm;		/* ... and after the first iteration */
	u64 reo_timeouts;	/* RACK's timer found losses (not in rtos) */
	u64 tlps;		/* tail-loss probes sent (not in rtos) */
	u64 tlp_losses;		/* ... that repaired a loss */
	u64 cc_tlp_losses;	/* ... aicc: reported to the law */
	u64 acks_sent;
	/* flows */
	struct sim_fct_class fct[SIM_NR_FCT];
	u32 msgs_done, msgs_open;
	/* collectives */
	u32 iters;
	double cct_ideal_us;
	double cct_mean_us, cct_p50_us, cct_p99_us, cct_max_us;
	/* fairness (long, stagger) */
	double jain;		/* over the window where all flows are active */
	double conv_us;		/* time to Jain >= 0.95 and stay, <0: never */
	/* controller events (aicc: AICC_EV_*, others: their own cuts) */
	u64 cc_delay_cuts, cc_ecn_cuts, cc_loss_cuts, cc_start_exits;
	u64 cc_idle_resumes, cc_idle_resets;	/* aicc only */
	/* aicc: policy rounds, and rounds it fell back to the classic law */
	u64 cc_pol_evals, cc_pol_classic;
	char err[160];
};

void sim_config_defaults(struct sim_config *c);
int sim_run(const struct sim_config *c, struct sim_result *r);
int sim_config_check(const struct sim_config *c, char *err, size_t n);

/* Names, for the CLI and reports; parse functions return -1 if unknown. */
const char *sim_scenario_name(int sc);
const char *sim_cc_name(int cc);
int sim_parse_scenario(const char *s);
int sim_parse_cc(const char *s);
int sim_parse_profile(const char *s);

#endif /* _AICC_SIM_H */
