/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc-sim internals, shared by the engine, the congestion controllers and
 * the unit tests.  Time is in picoseconds (u64: 213 days).
 */
#ifndef _AICC_SIM_INT_H
#define _AICC_SIM_INT_H

#include "sim.h"

#define PS_PER_US	1000000ULL
#define PS_PER_NS	1000ULL
#define SIM_HDR_IP	52	/* IP + TCP (with timestamps) */
#define SIM_HDR_ETH	38	/* Ethernet header, FCS, preamble, gap */
#define SIM_ACK_WIRE	84	/* a pure ACK on the wire */
#define SIM_MAX_SACK	4
#define SIM_MAX_HOPS	4
#define SIM_DUPTHRESH	3
#define SIM_NONE	0xffffffffU

#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif

/* ---- PRNG: xoshiro256** seeded by splitmix64 ---- */
struct sim_rng {
	u64 s[4];
};

void rng_seed(struct sim_rng *r, u64 seed);
u64 rng_next(struct sim_rng *r);
double rng_unit(struct sim_rng *r);	/* [0, 1) */
double u64_unit(u64 x);			/* x's top 53 bits: [0, 1) */
u64 sim_hash64(u64 x);

/* ---- event queue: binary heap, ties broken by insertion order ---- */
struct sim_ev {
	u64 t;
	u64 seq;
	u32 arg;
	u32 kind;
};

struct sim_heap {
	struct sim_ev *a;
	u32 n, cap;
	u64 seq;
};

int heap_init(struct sim_heap *h, u32 cap);
void heap_free(struct sim_heap *h);
int heap_push(struct sim_heap *h, u64 t, u32 kind, u32 arg);
bool heap_pop(struct sim_heap *h, struct sim_ev *out);

/* ---- switch output port: FIFO, drop-tail, step ECN ---- */
struct port {
	u64 rate_bps;
	u64 prop_ps;
	u64 busy_until;		/* departure time of the last packet */
	u32 buffer;		/* bytes */
	u32 ecn_k;		/* bytes, 0: never mark */
	u32 qbytes;		/* bytes buffered (incl. the one on the wire) */
	u32 qmax;
	/* departure ring: packets still in the buffer */
	u64 *dep;
	u32 *len;
	u32 head, tail, mask;
	/* accounting */
	u64 in_bytes, out_bytes, drop_bytes;
	u64 drops, marks;
	u64 win_bytes;		/* data bytes leaving in the window */
	bool bottleneck;
};

enum port_verdict { PORT_DROP, PORT_OK, PORT_OK_CE, PORT_NOMEM };

void port_setup(struct port *p, u64 rate_bps, u64 prop_ps, u32 buffer,
		u32 ecn_k);
void port_free(struct port *p);
void port_drain(struct port *p, u64 now);
int port_offer(struct port *p, u64 now, u32 wire, bool ect, u64 *depart);
u64 ser_ps(u64 bytes, u64 rate_bps);

/* ---- packets ---- */
#define P_ACK		0x01
#define P_CE		0x02
#define P_ECT		0x04
#define P_RETX		0x08
#define P_DSACK		0x10	/* ACK: a duplicate arrived (D-SACK) */
#define P_HELD		0x20	/* ACK: its host delay (ack_jitter_us) done */

struct pkt {
	u64 edt;		/* earliest departure time from the host */
	u32 flow;
	u32 seq;		/* data: sequence; ACK: cumulative ACK */
	u32 next;		/* free list, NIC ACK FIFO */
	u32 wire;		/* bytes on the wire */
	u16 len;		/* payload */
	u8 hop;
	u8 flags;
	u8 nsack, ce;		/* ACK: SACKed packets, how many had CE */
	u32 tsval;		/* ACK: the receiver's clock when sent */
	u32 sack[SIM_MAX_SACK];
};

/* ---- sender scoreboard ---- */
enum { SEG_OUT = 1, SEG_LOST, SEG_DELIVERED };

struct seg {
	u64 tx_ps;
	u32 del_at_send;	/* 'delivered' when sent */
	u32 tx_order;
	u16 len;
	u8 state;
	u8 flags;		/* SEGF_* */
};

#define SEGF_RETX	0x01
#define SEGF_APPLTD	0x02

struct msg {
	u32 start_seq, end_seq;
	u64 bytes;
	u64 start_ps;
	u32 tag;		/* workload's */
	u16 last_len;
};

/* A growable FIFO of u64. */
struct qring {
	u64 *a;
	u32 head, tail, mask;
};

struct sim;
struct flow;

struct sim_cc_ops {
	const char *name;
	void (*init)(struct sim *s, struct flow *f);
	void (*on_ack)(struct sim *s, struct flow *f,
		       const struct aicc_sample *smp);
	void (*on_rto)(struct sim *s, struct flow *f);
	/* sending resumes with nothing in flight, after idle_ns */
	void (*on_tx_start)(struct sim *s, struct flow *f, u64 idle_ns);
	/*
	 * losses no rate sample reports: RACK's timer opened a recovery
	 * (tcp_rack_reo_timeout(), tcp_enter_recovery()), or a tail-loss
	 * probe repaired one (tcp_process_tlp_ack(), a CWR reduction); the
	 * kernel's window reduction to ssthresh(); NULL: nothing.  aicc's
	 * glue, which uses cong_control, finds the timer's losses in f->lost
	 * at the next ACK (aicc_losses_unreported()) and reports a probe's
	 * repair in the same ACK's sample.
	 */
	void (*on_cwnd_reduction)(struct sim *s, struct flow *f,
				  bool recovery);
};

extern const struct sim_cc_ops sim_cc_reno, sim_cc_dctcp, sim_cc_swift,
	sim_cc_aicc;

struct cc_reno {
	u32 ssthresh, cnt, high_seq;
	u32 loss_una;		/* snd_una at the last timeout */
	bool in_loss;		/* the cut window is a timeout's */
	u32 alpha;		/* dctcp: Q10 */
	u32 win_end, win_del0, win_ce0;
	u32 last_ce;		/* delivered_ce at the previous ACK */
};

struct cc_swift {
	double cwnd;
	u64 t_last_dec;
	u32 retx_cnt;
	u32 base_rtt_ns;
};

struct flow {
	u32 id, src, dst;
	u8 nhops[2];		/* [0] data path, [1] ACK path */
	u32 path[2][SIM_MAX_HOPS];
	u16 mss, profile;
	/* application */
	u32 app_end;		/* seq limit of written data */
	struct msg *msgs;
	u32 msg_cap, msg_n;	/* ring of messages: [rx_msg, msg_n) live */
	u32 tx_msg, rx_msg;
	bool bulk;		/* infinite data */
	bool active;
	/* sender */
	u32 snd_una, snd_nxt;
	struct seg *sb;
	u32 sb_mask;
	struct qring txq;	/* transmissions in send order: ord<<32|seq */
	struct qring rq;	/* retransmission queue: seq */
	struct qring hq;	/* packets handed to the host (fq), by EDT */
	u32 tx_order, max_del_order;
	/*
	 * RACK (tcp_rack_advance()): the send order and RTT of the packet
	 * delivered last, the path's minimum RTT (0: none yet), and the
	 * recovery that a loss or timeout opened, until snd_una passes
	 * recov_end (reo_wnd is 0 in it); reo_pending: the timer armed is
	 * RACK's reordering timer, not the RTO
	 */
	u32 rack_order, recov_end;
	u64 rack_rtt_ps, min_rtt_ps;
	bool in_recov, reo_pending;
	/*
	 * tail-loss probe: the timer armed is the probe's; snd_nxt when the
	 * last probe went (no other until snd_una passes it)
	 */
	bool tlp_pending, tlp_out, tlp_retrans;
	u32 tlp_high;
	/*
	 * aicc's glue: the ACK being processed echoes a mark (ECE), and a
	 * probe that repaired a loss waits for its rate sample
	 */
	bool ack_ece, tlp_repaired;
	u32 inflight, delivered, delivered_ce, app_limited;
	u32 lost;		/* packets marked lost, ever (tp->lost) */
	u64 next_tx_ps, last_tx_ps;
	u64 last_ack_ps;	/* when the last ACK was processed */
	bool in_rr, ever_sent;
	u64 pace_ev, rto_ev, rto_deadline;
	bool rto_armed;
	u32 backoff;
	u64 srtt_ps, rttvar_ps;
	/*
	 * TCP timestamps, in ticks of ts_tick_us: the receiver's offset
	 * (random per connection, as Linux's), and the TSval of the ACK
	 * being processed with the sender's clock at its arrival.
	 */
	u32 ts_off, ack_tsval, ts_now;
	struct aicc_owd owd;
	u8 owd_state;
	u16 lost_seen;		/* aicc's glue: lost at the last ACK or RTO */
	/* congestion control output */
	u32 cwnd;		/* packets */
	u64 pacing;		/* bytes/s, 0: unpaced */
	/*
	 * added once to the departure time after the next packet's (what a
	 * kernel module could add to tcp_wstamp_ns at CA_EVENT_TX_START,
	 * raised after the first packet's departure was stamped)
	 */
	u64 hold_ps;
	union {
		struct cc_reno reno;
		struct cc_swift swift;
		struct aicc_flow aicc;
	} cc;
	/* receiver */
	u32 rcv_nxt;
	u8 *rcv_have;
	u32 rcv_mask;
	u32 ack_pending;
	bool rcv_dsack;		/* the next ACK reports a duplicate */
	u8 ack_ce;
	u8 nsack;
	u32 sack[SIM_MAX_SACK];
	u64 delack_ev;
	u64 last_rx_ps;		/* arrival of the previous data packet */
	/* statistics */
	u64 rx_bytes;		/* payload newly received */
	u64 rx_mark;		/* rx_bytes at the last sample */
	u64 rx_trace;		/* rx_bytes at the last trace line */
	u64 start_ps, stop_ps;
	u64 ideal_hop_ps;	/* one-way propagation + store-and-forward */
	u64 path_rtt_ps;	/* unloaded RTT: propagation + serialisation */
	u64 hs_extra_ps;	/* host delay in its handshake (connect_jitter_us) */
	u64 ack_held_ps;	/* the last ACK held by ack_jitter_us, until */
};

struct host {
	u64 nic_rate;
	u64 nic_prop;
	bool nic_busy;
	u32 ack_head, ack_tail;	/* FIFO of ACK packets (linked) */
	struct qring rr;	/* round robin of flows ready to send */
};

/* One histogram of queue occupancy, in bins of SIM_QBIN bytes. */
#define SIM_QBIN	64

struct sim_dist {
	double *v;
	u32 n, cap;
};

struct sim {
	const struct sim_config *c;
	struct sim_result *r;
	const struct sim_cc_ops *ops;
	struct aicc_params params[AICC_NR_PROFILES];
	struct sim_heap heap;
	struct sim_rng rng;
	u64 now, end_ps, w0, w1;
	bool stop, oom;
	u32 nhosts, nports, nflows;
	struct host *hosts;
	struct port *ports;
	struct flow *flows;
	struct pkt *pk;
	u32 pk_cap, pk_free, pk_used;
	u32 mss, data_wire;
	u64 base_rtt_ps;
	u32 hops_max;
	/* queue histogram */
	u64 *qhist;
	u32 qbins;
	u32 qmax;
	/* workload */
	u32 iter, iter_open;
	u64 iter_start;
	u32 ar_steps;
	struct sim_dist cct;
	struct sim_dist fct[SIM_NR_FCT], sd[SIM_NR_FCT];
	u64 bin_ps;
	u64 last_join, first_leave;
	s64 conv_bad_end;	/* end of the last bin with Jain < 0.95 */
	u64 conv_first;		/* start of the first bin counted */
	bool conv_any, conv_last_bad;
	double rpc_mean_gap_ps;
	/* window snapshots */
	u64 *rx_w0;
	/* --trace-us: the bottleneck ports' counters at the last line */
	u64 tr_in, tr_out, tr_marks, tr_drops;
};

u64 sim_rto_ps(const struct sim *s, const struct flow *f);
int sim_aicc_params(struct aicc_params *p, const struct sim_config *c,
		    char *err, size_t n);
int sim_dist_add(struct sim_dist *d, double v);
double sim_dist_pct(struct sim_dist *d, double pct);

#endif /* _AICC_SIM_INT_H */
