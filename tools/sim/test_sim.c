// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-sim unit and behavioural tests, KTAP output.
 *
 * Engine: event order with ties, byte conservation at ports, exact ECN
 * threshold, determinism per seed.  Baselines: one flow reaches line rate
 * (reno, dctcp), DCTCP holds the queue near K.  aicc (the shared core):
 * single-flow utilisation with a low queue, a bounded incast queue without
 * drops where DCTCP drops, fairness of four long flows.  Margins are wide:
 * the simulator is deterministic, but the controllers will be re-tuned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

static int n_test, n_fail;

#define NR_TESTS	44

static void report(bool ok, const char *name)
{
	n_test++;
	if (!ok)
		n_fail++;
	printf("%sok %d %s\n", ok ? "" : "not ", n_test, name);
	fflush(stdout);
}

/*
 * A requirement aicc does not meet yet: the test runs and reports, and a
 * failure is marked "# TODO" (an expected failure in TAP) instead of
 * failing the run.  The open issue says what is left.
 */
static void report_todo(bool ok, const char *name, const char *why)
{
	n_test++;
	if (ok)
		printf("ok %d %s\n", n_test, name);
	else
		printf("not ok %d %s # TODO %s\n", n_test, name, why);
	fflush(stdout);
}

/* diagnostics go to KTAP comment lines */
#define diag(...) do { printf("# "); printf(__VA_ARGS__); printf("\n"); } \
	while (0)

static void test_heap_order(void)
{
	struct sim_heap h;
	struct sim_rng r;
	struct sim_ev e, prev = { 0 };
	u32 i, n = 20000, got = 0;
	bool ok = true;
	u32 *order;

	rng_seed(&r, 7);
	order = calloc(n, sizeof(*order));
	if (heap_init(&h, 4) || !order) {
		report(false, "heap_order_with_ties");
		return;
	}
	/* few distinct times: many ties; arg = insertion index */
	for (i = 0; i < n; i++)
		ok &= !heap_push(&h, rng_next(&r) % 50, 0, i);
	for (i = 0; heap_pop(&h, &e); i++) {
		if (i && (e.t < prev.t ||
			  (e.t == prev.t && e.arg < prev.arg))) {
			ok = false;
			diag("event %u (t %llu, #%u) after (t %llu, #%u)", i,
			     (unsigned long long)e.t, e.arg,
			     (unsigned long long)prev.t, prev.arg);
			break;
		}
		if (e.arg < n)
			order[e.arg]++;
		prev = e;
		got++;
		/* interleave pushes while popping */
		if (i % 7 == 0 && i < n / 2) {
			ok &= !heap_push(&h, e.t + rng_next(&r) % 3, 0,
					 n + i);
		}
	}
	for (i = 0; i < n; i++)
		ok &= order[i] == 1;
	heap_free(&h);
	free(order);
	report(ok && got > n, "heap_order_with_ties");
}

static void test_port_conservation(void)
{
	struct port p;
	struct sim_rng r;
	u64 now = 0, dep;
	bool ok = true;
	u32 i, drops = 0;

	rng_seed(&r, 3);
	port_setup(&p, 100000000000ULL, 0, 64 * 1024, 0);
	for (i = 0; i < 200000 && ok; i++) {
		u32 len = 64 + rng_next(&r) % 1500;
		int v;

		/* bursts faster than the line, then gaps */
		now += rng_next(&r) % (i % 1000 < 500 ? 60000 : 200000);
		v = port_offer(&p, now, len, false, &dep);
		drops += v == PORT_DROP;
		ok &= v != PORT_NOMEM;
		ok &= p.in_bytes == p.out_bytes + p.drop_bytes + p.qbytes;
		ok &= p.qbytes <= p.buffer;
	}
	port_drain(&p, ~0ULL);
	ok &= p.qbytes == 0 && p.in_bytes == p.out_bytes + p.drop_bytes;
	if (!ok || !drops)
		diag("in %llu out %llu drop %llu q %u drops %u",
		     (unsigned long long)p.in_bytes,
		     (unsigned long long)p.out_bytes,
		     (unsigned long long)p.drop_bytes, p.qbytes, drops);
	port_free(&p);
	report(ok && drops, "port_bytes_conserved");
}

static void test_ecn_threshold(void)
{
	struct port p;
	u64 dep, last = 0;
	bool ok = true;
	u32 i;

	/* 1000-byte packets arriving at once: packet i finds i*1000 bytes */
	port_setup(&p, 10000000000ULL, 0, 100000, 10000);
	for (i = 0; i < 50; i++) {
		int v = port_offer(&p, 0, 1000, true, &dep);
		bool want = i * 1000 > 10000;
		bool ce = v == PORT_OK_CE;

		if (ce != want) {
			diag("packet %u (queue %u bytes): verdict %d", i,
			     i * 1000, v);
			ok = false;
		}
		ok &= dep > last;	/* FIFO departures */
		last = dep;
	}
	/* non-ECT packets are never marked */
	ok &= port_offer(&p, 0, 1000, false, &dep) == PORT_OK;
	ok &= p.marks == 50 - 11;
	port_free(&p);
	report(ok, "ecn_marks_exactly_above_threshold");
}

/* What a test changes of the simulator's defaults: the fields not 0. */
struct over {
	u32 buffer_kb, ecn_kb, msg_kb, min_rto_us, leaf_hosts, rpc_load;
	bool no_ecn;		/* ecn_kb 0: no marking */
	double warmup_ms;
	const struct sim_cc_ops *cc_ops;
};

/*
 * The defaults, with a scenario, a congestion control, its senders, the
 * simulated time and the changes in s (NULL: none).
 */
static void setup(struct sim_config *c, enum sim_scenario sc, enum sim_cc cc,
		  u32 flows, double time_ms, const struct over *s)
{
	sim_config_defaults(c);
	c->scenario = sc;
	c->cc = cc;
	c->flows = flows;
	c->time_ms = time_ms;
	if (!s)
		return;
	if (s->buffer_kb)
		c->buffer_kb = s->buffer_kb;
	if (s->ecn_kb)
		c->ecn_kb = s->ecn_kb;
	if (s->msg_kb)
		c->msg_kb = s->msg_kb;
	if (s->min_rto_us)
		c->min_rto_us = s->min_rto_us;
	if (s->leaf_hosts)
		c->leaf_hosts = s->leaf_hosts;
	if (s->rpc_load)
		c->rpc_load = s->rpc_load;
	if (s->warmup_ms)
		c->warmup_ms = s->warmup_ms;
	if (s->cc_ops)
		c->cc_ops = s->cc_ops;
	if (s->no_ecn)
		c->ecn_kb = 0;
}

static int run(struct sim_config *c, struct sim_result *r, const char *what)
{
	int ret = sim_run(c, r);

	if (ret)
		diag("%s: %s", what, r->err);
	else
		diag("%s: util %.3f q p50 %.1f p99 %.1f max %.1f KB drops %llu"
		     " (window %llu) rtos %llu (window %llu) jain %.4f"
		     " cct %.1f/%.1f us",
		     what, r->util, r->q_p50_kb, r->q_p99_kb, r->q_max_kb,
		     (unsigned long long)r->drops,
		     (unsigned long long)r->drops_win,
		     (unsigned long long)r->rtos,
		     (unsigned long long)r->rtos_win, r->jain, r->cct_mean_us,
		     r->cct_ideal_us);
	return ret;
}

static void test_sim_conservation(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	setup(&c, SIM_SC_INCAST, SIM_CC_RENO, 64, 2,
	      &(struct over){ .buffer_kb = 128 });
	ok = !run(&c, &r, "reno incast 64, 128 KB buffer");
	ok = ok && r.drops > 0 && r.port_in == r.port_out + r.port_drop +
		r.port_queued;
	report(ok, "sim_bytes_conserved_with_drops");
}

static void test_determinism(void)
{
	struct sim_config c;
	struct sim_result a, b, d;
	bool ok;

	setup(&c, SIM_SC_RPC, SIM_CC_DCTCP, 16, 3,
	      &(struct over){ .rpc_load = 40 });
	c.seed = 42;
	ok = !sim_run(&c, &a) && !sim_run(&c, &b);
	ok = ok && !memcmp(&a, &b, sizeof(a)) && a.msgs_done > 50;
	c.seed = 43;
	ok = ok && !sim_run(&c, &d) && a.events != d.events;
	if (!ok)
		diag("events %llu %llu (seed 43: %llu), msgs %u",
		     (unsigned long long)a.events,
		     (unsigned long long)b.events,
		     (unsigned long long)d.events, a.msgs_done);
	report(ok, "deterministic_per_seed");
}

/*
 * Queue percentiles: a pipeline's packets mostly find the bottleneck
 * empty, so its median is the empty bin and reads 0 (it read one bin,
 * 0.06 KB, before 3 December 2026), while its p99 is not.
 */
static void test_queue_median_empty(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	setup(&c, SIM_SC_PIPELINE, SIM_CC_AICC, 4, 5, NULL);
	ok = !run(&c, &r, "aicc pipeline 4");
	report(ok && r.q_p50_kb == 0 && r.q_p99_kb > 0 &&
	       r.q_p99_kb <= r.q_max_kb, "queue_median_in_empty_bin_reads_zero");
}

static void test_line_rate(enum sim_cc cc, const char *name)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	setup(&c, SIM_SC_LONG, cc, 1, 5, NULL);
	ok = !run(&c, &r, name);
	report(ok && r.util > 0.95 && r.drops == 0, name);
}

static void test_dctcp_queue(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	setup(&c, SIM_SC_LONG, SIM_CC_DCTCP, 8, 10, NULL);
	ok = !run(&c, &r, "dctcp 8 long flows, K 100 KB");
	/* the queue hovers around K = 100 KB: median within [K/2, 2K] */
	ok = ok && r.util > 0.95 && r.drops == 0 && r.q_p50_kb >= 50 &&
		r.q_p50_kb <= 200 && r.q_p99_kb < 400;
	report(ok, "dctcp_queue_near_k");
}

static void test_leafspine_alltoall(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	setup(&c, SIM_SC_ALLTOALL, SIM_CC_DCTCP, 16, 3,
	      &(struct over){ .leaf_hosts = 4, .msg_kb = 32 });
	ok = !run(&c, &r, "dctcp alltoall 16 hosts, 4 leaves");
	/* every iteration completes, within 10x of the ideal */
	ok = ok && r.iters >= 3 && r.cct_mean_us < 10 * r.cct_ideal_us &&
		r.cct_mean_us >= r.cct_ideal_us * 0.99;
	report(ok, "leafspine_alltoall_completes");
}

/*
 * A pipeline's ideal on a leaf-spine fills the pipeline over every stage's
 * own path: with 4 hosts per leaf, three of the 15 stages cross leaves;
 * with 8, one.  (Until 4 December 2026 every stage took the first one's
 * path, one leaf, and both ideals were the same.)  The ideal stays a lower
 * bound of the mean.
 */
static void test_leafspine_pipeline_ideal(void)
{
	struct sim_config c;
	struct sim_result four, eight;
	bool ok;

	setup(&c, SIM_SC_PIPELINE, SIM_CC_DCTCP, 16, 3,
	      &(struct over){ .leaf_hosts = 4 });
	c.topo = SIM_TOPO_LEAFSPINE;
	ok = !run(&c, &four, "dctcp pipeline 16 stages, 4 hosts per leaf");
	c.leaf_hosts = 8;
	c.spines = 0;
	ok = !run(&c, &eight, "dctcp pipeline 16 stages, 8 hosts per leaf") &&
		ok;
	diag("ideal %.1f us with 4 hosts per leaf, %.1f with 8",
	     four.cct_ideal_us, eight.cct_ideal_us);
	report(ok && four.iters >= 3 && eight.iters >= 3 &&
	       four.cct_ideal_us > eight.cct_ideal_us &&
	       four.cct_mean_us >= four.cct_ideal_us &&
	       eight.cct_mean_us >= eight.cct_ideal_us,
	       "leafspine_pipeline_ideal_over_each_stage_path");
}

static void test_aicc_single(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	setup(&c, SIM_SC_LONG, SIM_CC_AICC, 1, 5, NULL);
	ok = !run(&c, &r, "aicc 1 long flow");
	ok = ok && r.util > 0.95 && r.drops == 0 && r.q_p99_kb < c.ecn_kb;
	report(ok, "aicc_single_flow_line_rate_low_queue");
}

static void test_aicc_four(void)
{
	struct sim_config c;
	struct sim_result r, d;
	bool ok;

	setup(&c, SIM_SC_LONG, SIM_CC_AICC, 4, 10, NULL);
	ok = !run(&c, &r, "aicc 4 long flows");
	c.cc = SIM_CC_DCTCP;
	ok = ok && !run(&c, &d, "dctcp 4 long flows");
	/* line rate with a queue below DCTCP's (which sits at K) */
	report(ok && r.util > 0.95 && r.drops == 0 &&
	       r.q_p50_kb < d.q_p50_kb, "aicc_four_flows_util_queue_below_dctcp");
	report(ok && r.jain >= 0.99, "aicc_four_flows_fair");
}

/*
 * Eight aicc flows joining and leaving one by one at 100 Gbit/s, 10 us
 * (the bench's simulator stagger lines).  With persistent connections
 * every base RTT is the path's and the shares are fair at once.  With each
 * connection opened as its flow joins, a late joiner's handshake and first
 * rounds measure the others' queue into its base RTT; it is fair once a
 * dip of the queue to empty has given it the true base, which takes about
 * 1.3 ms (the 20 ms run, joins 1.25 ms apart, gives the last joiner too
 * little: Jain 0.985, Documentation/benchmark.rst).
 */
static void test_aicc_stagger(void)
{
	struct sim_config c;
	struct sim_result p, l;
	bool ok;

	setup(&c, SIM_SC_STAGGER, SIM_CC_AICC, 8, 20, NULL);
	c.preconnect = true;
	ok = !run(&c, &p, "aicc stagger 8, persistent connections");
	ok = ok && p.util > 0.95 && p.drops == 0;
	report(ok && p.jain >= 0.99, "aicc_stagger8_persistent_fair");

	setup(&c, SIM_SC_STAGGER, SIM_CC_AICC, 8, 80, NULL);
	ok = !run(&c, &l, "aicc stagger 8, connections opened 5 ms apart");
	ok = ok && l.util > 0.95 && l.drops == 0;
	report(ok && l.jain >= 0.99, "aicc_stagger8_late_handshakes_fair_in_5ms");
}

/*
 * The measurement window holds what completes in it: with a warm-up, the
 * first iterations of an incast (the cold start, its slowest) and the
 * RPCs answered before it are left out of the completion times and the
 * FCTs, as the drops are.  Until 6 December 2026 they counted.
 */
static void test_window_completions(void)
{
	struct sim_config c;
	struct sim_result a, w;
	bool ok;

	setup(&c, SIM_SC_INCAST, SIM_CC_DCTCP, 64, 5,
	      &(struct over){ .buffer_kb = 256 });
	ok = !run(&c, &a, "dctcp incast 64, 256 KB, whole run");
	c.warmup_ms = 2;
	ok = !run(&c, &w, "dctcp incast 64, 256 KB, from 2 ms") && ok;
	report(ok && w.iters > 0 && w.iters < a.iters &&
	       w.cct_max_us < a.cct_max_us,
	       "window_completions_leave_out_the_warmup");
	setup(&c, SIM_SC_RPC, SIM_CC_DCTCP, 8, 5, NULL);
	ok = !run(&c, &a, "dctcp rpc 8, whole run");
	c.warmup_ms = 2.5;
	ok = !run(&c, &w, "dctcp rpc 8, from 2.5 ms") && ok;
	report(ok && w.fct[0].count > 0 && w.fct[0].count < a.fct[0].count,
	       "window_fcts_leave_out_the_warmup");
}

static void test_aicc_incast(void)
{
	struct sim_config c;
	struct sim_result a, d;
	bool ok;

	/*
	 * 256 persistent connections, 64 KB each per iteration, 100 us
	 * gaps; measured after the first 2 ms (the cold start).  DCTCP's
	 * floor of 2 packets per flow (770 KB) overflows a 512 KB buffer.
	 */
	setup(&c, SIM_SC_INCAST, SIM_CC_DCTCP, 256, 10,
	      &(struct over){ .buffer_kb = 512, .warmup_ms = 2 });
	ok = !run(&c, &d, "dctcp incast 256, 512 KB");
	/* the cold start's losses are counted, but not in the window */
	report(ok && d.rtos > d.rtos_win && d.drops > d.drops_win &&
	       d.drops_win > 0,
	       "window_loss_counts_leave_out_the_warmup");
	c.cc = SIM_CC_AICC;
	ok = ok && !run(&c, &a, "aicc incast 256, 512 KB");
	ok = ok && d.drops_win > 0 && a.drops_win == 0 && a.rtos_win == 0 &&
		a.iters >= 3 && a.q_p99_kb < c.buffer_kb / 2;
	/*
	 * Out of reach of the shipped table whatever the law does: its
	 * min_cwnd is one packet, and 256 of them in flight are the BDP
	 * (125 KB) plus 259 KB, over the bound of half the buffer.  A
	 * smaller min_cwnd alone is not enough either: make tune's table of
	 * 2 December (rerun-d59efd5) at 0.3 packets drops nothing in the
	 * window but has a q99 of 455 KB (the first packets of 256 flows
	 * after each gap are 384 KB) and takes 1.44 times ideal, its last
	 * flows regrowing additively from sub-packet windows while the link
	 * idles.  The bound itself is reachable: test_oracle_incast meets it
	 * with rates held at the fair share and phases spread at each
	 * resume, which the law does not do (Documentation/algorithm.rst).
	 * Adding the oracle's random hold to the law was tried and made it
	 * worse: its rates do not sum to the line rate (Documentation/
	 * tuning.rst, "Spreading the senders' phases at each resume").
	 * Swift's increase below one packet and resuming at the rate of
	 * the busy period's first half, each re-tuned, miss it too: q99
	 * 383-434 and 290-342 KB, at 1.3 and 1.8 times ideal.  With
	 * fabric-256.conf every flow sits at the floor, all marked (alpha
	 * 1): one packet per base + target (10 + 20 us) each, 98 Gbit/s
	 * together, so the queue the resumes build drains at 2 % of the
	 * line rate and stands at 300-450 KB.  Below the floor, deciding a
	 * sub-packet round on its own ACK's sample (no held round, no
	 * two-round minimum), mi per round trip of time and a random hold
	 * at each resume were tuned together with min_cwnd up to 0.4
	 * (7 December): the search ends at 0.4 each time, its objective
	 * worse than the table's at one packet (0.99-1.01 against 0.80).
	 */
	report_todo(ok, "aicc_incast_256_bounded_no_drops_where_dctcp_drops",
		    "min_cwnd 1 packet: 256 in flight = BDP + 259 KB > 256 KB; "
		    "fabric-256.conf: no drop, q99 467 KB");
}

/*
 * gain_min_cwnd (Documentation/algorithm.rst, "Control law"): in a 64-way
 * incast into 1 MB the fair share is 1.3 packets.  With the shipped one
 * packet, windows of one to two packets keep TCP's two in flight, 128
 * against a bandwidth-delay product of 83: a standing queue of 68 KB,
 * and the ACK clock serves the flows in turn, so they finish together
 * (1.05 times ideal).  With 2000, the law before 5 December 2026, each is
 * paced at its own rate and they finish hundreds of microseconds apart
 * (1.14).
 */
static void test_aicc_incast_ack_clock(void)
{
	struct sim_config c;
	struct sim_result one, two;
	u32 k[AICC_NR_KNOBS];
	bool ok;

	setup(&c, SIM_SC_INCAST, SIM_CC_AICC, 64, 10, NULL);
	ok = !run(&c, &one, "aicc incast 64, gain from one packet");
	aicc_params_defaults(k, AICC_PROF_COLL);
	k[AICC_K_GAIN_MIN_CWND] = 2000;
	c.knobs[AICC_PROF_COLL] = k;
	ok = !run(&c, &two, "aicc incast 64, gain from two packets") && ok;
	report(ok && one.drops == 0 && two.drops == 0 && one.iters >= 3 &&
	       one.cct_mean_us < 1.10 * one.cct_ideal_us &&
	       one.cct_mean_us < 0.95 * two.cct_mean_us,
	       "aicc_incast64_ack_clock_from_one_packet");
}

/*
 * An oracle for test_aicc_incast's scenario: every flow paced at exactly
 * its share of the line rate from the start, never changed, and resuming
 * after each gap as a kernel sender does (the first packet at once, the
 * next ones paced).  With oracle_hold, each resume also holds the second
 * packet back by a random part of a packet time (what a module could add
 * to tcp_wstamp_ns at CA_EVENT_TX_START).
 */
static bool oracle_hold;

static void oracle_init(struct sim *s, struct flow *f)
{
	u64 mss = f->mss;

	/* wire bytes summed over the flows = the line rate */
	f->cwnd = 2;
	f->pacing = (u64)(s->c->rate_gbit * 1e9 / 8 / s->nflows *
			  (mss + SIM_HDR_IP) / (mss + SIM_HDR_IP + SIM_HDR_ETH));
}

static void oracle_ack(struct sim *s, struct flow *f,
		       const struct aicc_sample *smp)
{
	(void)s;
	(void)f;
	(void)smp;
}

static void oracle_rto(struct sim *s, struct flow *f)
{
	(void)s;
	(void)f;
}

static void oracle_tx_start(struct sim *s, struct flow *f, u64 idle_ns)
{
	u64 pkt_ps = (u64)(f->mss + SIM_HDR_IP) * 1000000000000ULL /
		f->pacing;

	(void)idle_ns;
	if (oracle_hold)
		f->hold_ps = rng_next(&s->rng) % pkt_ps;
}

static const struct sim_cc_ops oracle_ops = {
	.name = "oracle",
	.init = oracle_init,
	.on_ack = oracle_ack,
	.on_rto = oracle_rto,
	.on_tx_start = oracle_tx_start,
};

/* test_aicc_incast's 256-way scenario with the oracle's senders */
static void setup_oracle_incast(struct sim_config *c, u32 buffer_kb)
{
	setup(c, SIM_SC_INCAST, SIM_CC_AICC, 256, 10,
	      &(struct over){ .buffer_kb = buffer_kb, .warmup_ms = 2,
			      .cc_ops = &oracle_ops });
}

/*
 * --kernel-pacing models Linux's idle-pacer credit: the oracle (which
 * takes no hold) resumes with every flow's second packet half a packet
 * time after its first, so each resume puts 1.5 packets per flow into
 * the port within one packet time instead of one (queue max 575 against
 * 383 KB into 1 MB).
 */
static void test_kernel_pacing_credit(void)
{
	struct sim_config c;
	struct sim_result k, n;
	bool ok;

	setup_oracle_incast(&c, 1024);
	oracle_hold = false;
	ok = !run(&c, &n, "oracle incast 256, 1 MB");
	c.kernel_pacing = true;
	ok = !run(&c, &k, "oracle incast 256, 1 MB, kernel pacing") && ok;
	report(ok && k.q_max_kb > n.q_max_kb * 1.4 && k.q_p99_kb > n.q_p99_kb,
	       "kernel_pacing_second_packet_early_after_idle");
}

/*
 * The bound of aicc_incast_256_bounded_no_drops_where_dctcp_drops is
 * within a sender's reach, though not of the present law.  The oracle
 * meets it with the hold: the first packets after each gap still arrive
 * together (384 KB), but that queue drains within about 30 us of a
 * 1.4 ms iteration.  Without the hold it misses, because equal rates
 * keep the phases the first packets set, and all 256 flows send within
 * the same few microseconds of every packet time.
 */
static void test_oracle_incast(void)
{
	struct sim_config c;
	struct sim_result h, n;
	bool ok;

	setup_oracle_incast(&c, 512);
	oracle_hold = true;
	ok = !run(&c, &h, "oracle incast 256, 512 KB, hold");
	oracle_hold = false;
	ok = !run(&c, &n, "oracle incast 256, 512 KB, no hold") && ok;
	report(ok && h.drops == 0 && h.iters >= 3 &&
	       h.cct_mean_us < 1.05 * h.cct_ideal_us &&
	       h.q_p99_kb < c.buffer_kb / 2,
	       "oracle_fair_rates_with_resume_hold_meet_incast_256_bound");
	report(ok && n.drops == 0 && n.q_p99_kb > c.buffer_kb / 2 &&
	       n.q_p50_kb > 4 * h.q_p50_kb,
	       "oracle_fair_rates_in_phase_miss_incast_256_bound");
}

/*
 * Reverse-path queueing: two bulk flows into host 0 hold a queue at its
 * port, which the ACKs of host 0's own flow out (to host 1, a path with
 * no other traffic) cross.  Without timestamps aicc takes that queue for
 * its own and cuts the outgoing flow; with microsecond timestamps
 * aicc_fwd_rtt() takes it out of the RTT samples, as in the module (the
 * VM's net/test_reverse_path).  Millisecond ticks on a 10 us path are
 * too coarse to correct anything: the run is the one without timestamps.
 */
static void test_reverse_path(void)
{
	struct sim_config c;
	struct sim_result off, ms, us;
	bool ok;

	setup(&c, SIM_SC_REVERSE, SIM_CC_AICC, 2, 5, NULL);
	c.ts_tick_us = 0;
	ok = !run(&c, &off, "aicc reverse, no timestamps");
	diag("outgoing flow: %.3f of line rate", off.rev_util);
	c.ts_tick_us = 1000;
	ok = ok && !run(&c, &ms, "aicc reverse, ms timestamps");
	c.ts_tick_us = 1;
	ok = ok && !run(&c, &us, "aicc reverse, us timestamps");
	diag("outgoing flow: %.3f of line rate", us.rev_util);
	report(ok && off.rev_util < 0.7 && us.rev_util > 0.85 &&
	       us.util > 0.85 && us.drops == 0,
	       "aicc_reverse_path_queue_not_own_with_timestamps");
	report(ok && ms.rev_util == off.rev_util &&
	       ms.pkts_sent == off.pkts_sent && ms.events == off.events,
	       "aicc_reverse_path_coarse_ticks_correct_nothing");
}

/*
 * The receivers' microsecond timestamp clocks 100 ppm slow (a crystal's
 * tolerance), four flows sharing a port, delay alone (no ECN): with the
 * one-way minimum fixed where it was taken, the drift grows into a
 * "reverse-path queue" that hides the flows' own, 20 us of it after 200
 * ms, and the queue p99 grew from 45 to 252 KB.  aicc_fwd_rtt() follows
 * the drift, and the run is the one without it.
 */
static void test_reverse_path_clock_drift(void)
{
	struct sim_config c;
	struct sim_result r0, rd;
	bool ok;

	setup(&c, SIM_SC_LONG, SIM_CC_AICC, 4, 200,
	      &(struct over){ .no_ecn = true });
	c.ts_tick_us = 1;
	ok = !run(&c, &r0, "aicc 4 long flows, us timestamps");
	c.ts_drift_ppm = 100;
	ok = ok && !run(&c, &rd, "aicc 4 long flows, us timestamps 100 ppm slow");
	report(ok && r0.q_p99_kb > 0 && rd.q_p99_kb < 1.2 * r0.q_p99_kb + 3 &&
	       rd.util > 0.97,
	       "aicc_reverse_path_follows_peer_clock_drift");
}

/*
 * The loss counts past the cold start (what the tuner's loss term uses):
 * with no warm-up, DCTCP's 256-way incast into 512 KB loses packets and
 * times out while every flow starts at the initial window, and its
 * two-packet floor keeps losing packets, without timeouts, after the
 * first iteration.
 */
static void test_cold_start_loss(void)
{
	struct sim_config c;
	struct sim_result d;
	bool ok;

	setup(&c, SIM_SC_INCAST, SIM_CC_DCTCP, 256, 6,
	      &(struct over){ .buffer_kb = 512 });
	ok = !run(&c, &d, "dctcp incast 256, 512 KB, no warm-up");
	diag("past the first iteration: %llu drops, %llu timeouts",
	     (unsigned long long)d.drops_warm,
	     (unsigned long long)d.rtos_warm);
	report(ok && d.drops_win == d.drops && d.iters >= 2 &&
	       d.drops_warm > 0 && d.drops_warm < d.drops_win &&
	       d.rtos_warm < d.rtos_win / 4,
	       "loss_past_cold_start_leaves_out_the_first_iteration");
}

/* A Reno that checks every sample it is given, as the kernel would fill it. */
static struct {
	u64 samples, bad, app_limited, rtt, ce, delayed;
	u32 last_delivered[1024];
	u64 acked_sum[1024];
} probe;

static void probe_ack(struct sim *s, struct flow *f,
		      const struct aicc_sample *smp)
{
	u32 id = f->id;

	probe.samples++;
	if (smp->prior_delivered > smp->delivered ||
	    smp->delivered_ce > smp->delivered ||
	    smp->delivered < probe.last_delivered[id] ||
	    smp->delivered - probe.last_delivered[id] != smp->acked ||
	    smp->inflight > f->snd_nxt - f->snd_una ||
	    smp->mss != f->mss || smp->now_ns != s->now / PS_PER_NS ||
	    /* the module's rule: one packet ACKed, alone in flight */
	    smp->ack_delayed != (smp->acked == 1 &&
				 smp->inflight + smp->losses == 0) ||
	    (smp->rtt_ns >= 0 && (smp->rtt_ns < 10000 || !smp->srtt_ns))) {
		if (probe.bad++ < 3)
			diag("bad sample: flow %u delivered %u (was %u) acked "
			     "%u prior %u ce %u inflight %u rtt %lld", id,
			     smp->delivered, probe.last_delivered[id],
			     smp->acked, smp->prior_delivered,
			     smp->delivered_ce, smp->inflight,
			     (long long)smp->rtt_ns);
	}
	probe.last_delivered[id] = smp->delivered;
	probe.acked_sum[id] += smp->acked;
	probe.app_limited += smp->app_limited;
	probe.rtt += smp->rtt_ns >= 0;
	probe.delayed += smp->ack_delayed;
	probe.ce = smp->delivered_ce > probe.ce ? smp->delivered_ce : probe.ce;
	sim_cc_reno.on_ack(s, f, smp);
}

static const struct sim_cc_ops probe_ops = {
	.name = "probe",
	.init = NULL,		/* set from Reno's below */
};

static void test_samples(void)
{
	struct sim_cc_ops ops = sim_cc_reno;
	struct sim_config c;
	struct sim_result r;
	bool ok;

	(void)probe_ops;
	ops.on_ack = probe_ack;
	memset(&probe, 0, sizeof(probe));
	/* c.cc is not used: cc_ops overrides it */
	setup(&c, SIM_SC_INCAST, SIM_CC_AICC, 32, 3,
	      &(struct over){ .buffer_kb = 256, .ecn_kb = 30, .cc_ops = &ops });
	ok = !run(&c, &r, "probe (reno) incast 32, 256 KB, K 30 KB");
	diag("samples %llu bad %llu app-limited %llu with rtt %llu max ce %llu "
	     "delayed %llu", (unsigned long long)probe.samples,
	     (unsigned long long)probe.bad,
	     (unsigned long long)probe.app_limited,
	     (unsigned long long)probe.rtt, (unsigned long long)probe.ce,
	     (unsigned long long)probe.delayed);
	/* bursts after idle gaps: some samples are app-limited, not all */
	/* every ACK that arrived made one sample (some are still flying) */
	ok = ok && !probe.bad && probe.samples <= r.acks_sent - r.ack_drops &&
		probe.samples * 100 >= (r.acks_sent - r.ack_drops) * 95 &&
		probe.app_limited > 0 && probe.app_limited < probe.samples / 2 &&
		probe.rtt > probe.samples / 2 && probe.ce > 0 &&
		probe.delayed > 0 && probe.delayed < probe.samples / 8;
	report(ok, "rate_samples_consistent");
}

static void test_loss_recovery(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	/* drops recovered mostly by SACK-style detection, not timeouts */
	setup(&c, SIM_SC_INCAST, SIM_CC_RENO, 8, 5,
	      &(struct over){ .buffer_kb = 48, .no_ecn = true, .msg_kb = 512 });
	ok = !run(&c, &r, "reno incast 8, 48 KB, no ECN");
	ok = ok && r.drops > 20 && r.retrans >= r.drops &&
		r.rtos * 4 < r.drops && r.iters >= 3 && r.ecn_marks == 0;
	report(ok, "loss_recovery_without_timeouts");
}

/*
 * 64 Reno senders whose windows never exceed three packets, into a 64 KB
 * drop-tail buffer: three later packets are never delivered after a lost
 * one, so the dupthresh rule alone leaves every loss to the RTO; RACK's
 * time rule finds them from the ACKs of the packets sent after (or, when
 * those left within the reordering window, with its own timer, which is
 * no timeout: no backoff).
 */
static void test_rack(void)
{
	struct sim_config c;
	struct sim_result r, d;
	bool ok;

	setup(&c, SIM_SC_LONG, SIM_CC_RENO, 64, 5,
	      &(struct over){ .buffer_kb = 64, .no_ecn = true });
	c.max_cwnd = 3;
	ok = !run(&c, &r, "reno 64 long flows, window 3, 64 KB");
	c.no_rack = true;
	ok = ok && !run(&c, &d, "reno 64 long flows, window 3, 64 KB, no RACK");
	diag("RACK: %llu retransmissions, %llu RTOs, %llu by its timer; "
	     "dupthresh only: %llu, %llu, %llu",
	     (unsigned long long)r.retrans, (unsigned long long)r.rtos,
	     (unsigned long long)r.reo_timeouts,
	     (unsigned long long)d.retrans, (unsigned long long)d.rtos,
	     (unsigned long long)d.reo_timeouts);
	report(ok && d.rtos * 10 > d.retrans * 7 && d.reo_timeouts == 0 &&
	       r.retrans > 4 * d.retrans && r.rtos * 20 < r.retrans &&
	       r.util > d.util && r.tlps == 0 && d.tlps == 0,
	       "rack_finds_losses_below_dupthresh_without_timeouts");
}

/*
 * aicc's glue, wrapped: each ACK's losses beyond its rate sample's (the
 * packets RACK's timer marked since the last ACK), and whether the law
 * cut for them where nothing else would have.
 */
static struct {
	u64 acks, pkts;		/* ACKs carrying such losses, and packets */
	u64 alone, cut;		/* ... none of their own; a loss cut on one */
	bool synced;		/* the snapshot follows the count */
} rack_glue;

static void rack_glue_init(struct sim *s, struct flow *f)
{
	sim_cc_aicc.init(s, f);
}

static void rack_glue_ack(struct sim *s, struct flow *f,
			  const struct aicc_sample *smp)
{
	u16 seen = f->lost_seen;	/* the glue's own count, on a copy */
	u32 unrep = aicc_losses_unreported(&seen, f->lost, smp->losses);
	u64 cuts = s->r->cc_loss_cuts;

	sim_cc_aicc.on_ack(s, f, smp);
	rack_glue.synced &= f->lost_seen == (u16)f->lost;
	if (!unrep)
		return;
	rack_glue.acks++;
	rack_glue.pkts += unrep;
	if (!smp->losses) {
		rack_glue.alone++;
		rack_glue.cut += s->r->cc_loss_cuts > cuts;
	}
}

static void rack_glue_rto(struct sim *s, struct flow *f)
{
	sim_cc_aicc.on_rto(s, f);
	rack_glue.synced &= f->lost_seen == (u16)f->lost;
}

static void rack_glue_tx_start(struct sim *s, struct flow *f, u64 idle_ns)
{
	sim_cc_aicc.on_tx_start(s, f, idle_ns);
}

static const struct sim_cc_ops rack_glue_ops = {
	.name = "aicc",
	.init = rack_glue_init,
	.on_ack = rack_glue_ack,
	.on_rto = rack_glue_rto,
	.on_tx_start = rack_glue_tx_start,
};

/*
 * The packets RACK's reordering timer marks lost are in no rate sample
 * (tcp_rack_reo_timeout() runs outside an ACK); aicc's glue finds them
 * in the stack's count of lost packets and hands them to the law with
 * the next ACK (aicc_losses_unreported()), as the module does.  128 aicc
 * flows into a 128 KB drop-tail port without ECN: the timer fires, each
 * such loss reaches the law once, and ACKs that mark no loss of their
 * own, which the law could not have cut for before, make it cut (once
 * per round: not every one).
 */
static void test_rack_losses_reach_aicc(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	setup(&c, SIM_SC_LONG, SIM_CC_AICC, 128, 10,
	      &(struct over){ .buffer_kb = 128, .no_ecn = true,
			      .cc_ops = &rack_glue_ops });
	memset(&rack_glue, 0, sizeof(rack_glue));
	rack_glue.synced = true;
	ok = !run(&c, &r, "aicc 128 long flows, 128 KB, no ECN");
	diag("RACK's timer fired %llu times; %llu ACKs carried %llu packets "
	     "it marked; %llu with no loss of their own, %llu loss cuts",
	     (unsigned long long)r.reo_timeouts,
	     (unsigned long long)rack_glue.acks,
	     (unsigned long long)rack_glue.pkts,
	     (unsigned long long)rack_glue.alone,
	     (unsigned long long)rack_glue.cut);
	report(ok && rack_glue.synced && r.reo_timeouts > 0 &&
	       rack_glue.acks > 0 && rack_glue.acks <= r.reo_timeouts &&
	       rack_glue.pkts >= rack_glue.acks && rack_glue.cut > 0,
	       "aicc_takes_the_losses_of_racks_timer");
}

/*
 * 64 Reno senders of three-packet messages into a 64 KB drop-tail
 * buffer: a message whose last packets are lost has nothing sent after
 * them for RACK to go by, and without probes each waits for the RTO.
 * With --tlp the probe exposes the earlier losses to RACK or, when it was
 * the only one lost, repairs it (and Reno halves its window, as the
 * kernel's CWR reduction does).
 */
static void test_tlp(void)
{
	struct sim_config c;
	struct sim_result t, n;
	bool ok;

	setup(&c, SIM_SC_INCAST, SIM_CC_RENO, 64, 10,
	      &(struct over){ .buffer_kb = 64, .no_ecn = true, .msg_kb = 4 });
	c.tlp = true;
	ok = !run(&c, &t, "reno incast 64, 4 KB messages, 64 KB, TLP");
	c.tlp = false;
	ok = ok && !run(&c, &n, "reno incast 64, 4 KB messages, 64 KB");
	diag("probes %llu, %llu repaired a loss; RTOs %llu against %llu",
	     (unsigned long long)t.tlps, (unsigned long long)t.tlp_losses,
	     (unsigned long long)t.rtos, (unsigned long long)n.rtos);
	report(ok && t.tlps > 0 && t.tlp_losses > 0 &&
	       t.tlp_losses < t.tlps && t.rtos * 10 < n.rtos &&
	       n.tlps == 0 && t.iters >= 3 && n.iters >= 3,
	       "tail_loss_probes_leave_few_timeouts");
}

/*
 * aicc's glue, wrapped: the ACKs whose sample carries a loss that a
 * probe repaired, and whether the law cut on one that had no other loss.
 */
static struct {
	u64 acks, alone, cut;
} tlp_glue;

static void tlp_glue_ack(struct sim *s, struct flow *f,
			 const struct aicc_sample *smp)
{
	u16 seen = f->lost_seen;
	bool repaired = f->tlp_repaired;
	bool other = smp->losses ||
		     aicc_losses_unreported(&seen, f->lost, smp->losses);
	u64 cuts = s->r->cc_loss_cuts;

	sim_cc_aicc.on_ack(s, f, smp);
	if (!repaired)
		return;
	tlp_glue.acks++;
	if (!other) {
		tlp_glue.alone++;
		tlp_glue.cut += s->r->cc_loss_cuts > cuts;
	}
}

static void tlp_glue_cwnd_reduction(struct sim *s, struct flow *f,
				    bool recovery)
{
	sim_cc_aicc.on_cwnd_reduction(s, f, recovery);
}

static const struct sim_cc_ops tlp_glue_ops = {
	.name = "aicc",
	.init = rack_glue_init,
	.on_ack = tlp_glue_ack,
	.on_rto = rack_glue_rto,
	.on_tx_start = rack_glue_tx_start,
	.on_cwnd_reduction = tlp_glue_cwnd_reduction,
};

/*
 * aicc's glue, wrapped: at each resume, the place in its connection of
 * the packet the start sends (tx_order + 1), and whether the packet after
 * it is held back.
 */
static struct {
	u64 n[3], held[3];	/* before the tenth packet, the tenth, after */
} hold_glue;

static void hold_glue_ack(struct sim *s, struct flow *f,
			  const struct aicc_sample *smp)
{
	sim_cc_aicc.on_ack(s, f, smp);
}

static void hold_glue_tx_start(struct sim *s, struct flow *f, u64 idle_ns)
{
	u64 resumes = s->r->cc_idle_resumes, hold = f->hold_ps;
	u32 pkt = f->tx_order + 1;
	int i = pkt < AICC_PACED_FROM_SEG ? 0 :
		pkt == AICC_PACED_FROM_SEG ? 1 : 2;

	sim_cc_aicc.on_tx_start(s, f, idle_ns);
	if (s->r->cc_idle_resumes == resumes)
		return;
	hold_glue.n[i]++;
	hold_glue.held[i] += f->hold_ps > hold;
}

static const struct sim_cc_ops hold_glue_ops = {
	.name = "aicc",
	.init = rack_glue_init,
	.on_ack = hold_glue_ack,
	.on_rto = rack_glue_rto,
	.on_tx_start = hold_glue_tx_start,
};

/*
 * The resume hold (aicc_resume_hold_ns()) goes where Linux paces: from
 * the packet that makes data_segs_out ten, counted with the packet
 * itself, as tcp_update_skb_after_send() does after the transmit.  64
 * flows of nine-packet iterations (12 KB) with --kernel-pacing: the
 * first resume of a flow whose fast start ended in the first iteration
 * sends its tenth packet, which Linux paces, so the next one is held;
 * later resumes are held too.
 */
static void test_resume_hold_from_tenth(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	setup(&c, SIM_SC_INCAST, SIM_CC_AICC, 64, 5,
	      &(struct over){ .msg_kb = 12, .cc_ops = &hold_glue_ops });
	c.kernel_pacing = true;
	memset(&hold_glue, 0, sizeof(hold_glue));
	ok = !run(&c, &r, "aicc incast 64, 12 KB, kernel pacing");
	diag("resumes sending packet <10: %llu (%llu held), 10: %llu "
	     "(%llu held), >10: %llu (%llu held)",
	     (unsigned long long)hold_glue.n[0],
	     (unsigned long long)hold_glue.held[0],
	     (unsigned long long)hold_glue.n[1],
	     (unsigned long long)hold_glue.held[1],
	     (unsigned long long)hold_glue.n[2],
	     (unsigned long long)hold_glue.held[2]);
	report(ok && hold_glue.n[1] > 0 && hold_glue.n[2] > 0 &&
	       hold_glue.held[0] == 0 &&
	       hold_glue.held[1] == hold_glue.n[1] &&
	       hold_glue.held[2] == hold_glue.n[2],
	       "resume_hold_from_the_tenth_packet");
}

/*
 * A loss that a tail-loss probe repaired was never marked lost, so no
 * rate sample has it; aicc's glue reports it in the sample of the ACK
 * that found it, as the module does (aicc_in_ack_event(),
 * aicc_set_state()).  64 aicc senders of 16 KB messages into a 128 KB
 * drop-tail port without ECN (so no ACK echoes a mark): every repair
 * reaches the law once, and the law cuts for some that came alone.
 */
static void test_tlp_aicc(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	setup(&c, SIM_SC_INCAST, SIM_CC_AICC, 64, 10,
	      &(struct over){ .buffer_kb = 128, .no_ecn = true, .msg_kb = 16,
			      .cc_ops = &tlp_glue_ops });
	c.tlp = true;
	memset(&tlp_glue, 0, sizeof(tlp_glue));
	ok = !run(&c, &r, "aicc incast 64, 16 KB messages, 128 KB, TLP");
	diag("probes %llu, %llu repaired a loss, %llu reached the law in "
	     "%llu ACKs; %llu alone, the law cut for %llu",
	     (unsigned long long)r.tlps, (unsigned long long)r.tlp_losses,
	     (unsigned long long)r.cc_tlp_losses,
	     (unsigned long long)tlp_glue.acks,
	     (unsigned long long)tlp_glue.alone,
	     (unsigned long long)tlp_glue.cut);
	report(ok && r.tlp_losses > 0 && r.cc_tlp_losses == r.tlp_losses &&
	       tlp_glue.acks == r.tlp_losses && tlp_glue.cut > 0,
	       "aicc_takes_the_loss_a_probe_repaired");
}

static void test_delack(void)
{
	struct sim_config c;
	struct sim_result a, b;
	bool ok;

	setup(&c, SIM_SC_LONG, SIM_CC_DCTCP, 2, 2, NULL);
	ok = !sim_run(&c, &a);
	c.delack = 2;
	ok = ok && !sim_run(&c, &b);
	diag("ACKs per packet: delack 1 %.3f, delack 2 %.3f",
	     (double)a.acks_sent / a.pkts_sent,
	     (double)b.acks_sent / b.pkts_sent);
	ok = ok && a.acks_sent * 100 > a.pkts_sent * 98 &&
		a.acks_sent <= a.pkts_sent &&
		b.acks_sent * 100 > b.pkts_sent * 45 &&
		b.acks_sent * 100 < b.pkts_sent * 60 && b.util > 0.95;
	report(ok, "delayed_ack_every_second_packet");
}

static void test_rto(void)
{
	struct sim_config c;
	struct sim_result r;
	bool ok;

	/*
	 * 64 senders, initial window 10, into a 32 KB buffer: whole windows
	 * are lost and only the retransmission timer recovers them, with the
	 * configured minimum; every iteration still completes.
	 */
	setup(&c, SIM_SC_INCAST, SIM_CC_RENO, 64, 10,
	      &(struct over){ .buffer_kb = 32, .no_ecn = true, .msg_kb = 16,
			      .min_rto_us = 100 });
	ok = !run(&c, &r, "reno incast 64, 32 KB buffer");
	ok = ok && r.rtos > 0 && r.iters >= 2 &&
		r.cct_p50_us > c.min_rto_us;
	report(ok, "rto_recovers_whole_window_loss");
}

/*
 * The backoff doubles the timeout up to 200 ms, or up to a larger minimum
 * (--min-rto-us 1000000, RFC 6298's): until 7 December 2026 that minimum
 * was cut to 200 ms.
 */
static void test_rto_cap(void)
{
	static struct sim s;
	static struct flow f;
	struct sim_config c;
	u64 ms = 1000 * PS_PER_US;
	bool ok;

	sim_config_defaults(&c);
	s.c = &c;
	f.srtt_ps = 10 * PS_PER_US;
	f.rttvar_ps = 5 * PS_PER_US;
	c.min_rto_us = 200;
	f.backoff = 0;
	ok = sim_rto_ps(&s, &f) == 210 * PS_PER_US;
	f.backoff = 3;
	ok = ok && sim_rto_ps(&s, &f) == 8 * 210 * PS_PER_US;
	f.backoff = 16;
	ok = ok && sim_rto_ps(&s, &f) == 200 * ms;
	c.min_rto_us = 1000000;
	f.backoff = 0;
	ok = ok && sim_rto_ps(&s, &f) == 1000 * ms;
	f.backoff = 2;
	ok = ok && sim_rto_ps(&s, &f) == 1000 * ms;
	report(ok, "rto_backoff_capped_min_rto_kept");
}

/*
 * Reno's and DCTCP's timeout takes a new ssthresh as tcp_enter_loss()
 * does: not for a second timeout before the first made progress (its
 * window of one packet would halve ssthresh to 2), nor for one inside
 * a window fast recovery already cut; again once the retransmissions
 * have moved snd_una.
 */
static void test_rto_ssthresh(void)
{
	static struct sim s;
	static struct flow f;
	struct cc_reno *r = &f.cc.reno;
	bool ok;

	f.cwnd = 40;
	f.snd_una = 100;
	f.snd_nxt = 140;
	sim_cc_dctcp.on_rto(&s, &f);
	ok = r->ssthresh == 20 && f.cwnd == 1;
	f.cwnd = 2;		/* retransmitted, nothing acknowledged */
	sim_cc_dctcp.on_rto(&s, &f);
	ok = ok && r->ssthresh == 20 && f.cwnd == 1;
	f.snd_una = 101;	/* progress, then a timeout again */
	f.cwnd = 6;
	sim_cc_reno.on_rto(&s, &f);
	ok = ok && r->ssthresh == 3 && f.cwnd == 1;
	/* fast recovery's cut, and a timeout before snd_una passes it */
	f.cwnd = 20;
	f.snd_nxt = 230;
	r->in_loss = false;
	r->high_seq = 230;
	r->ssthresh = 10;
	f.snd_una = 210;
	sim_cc_reno.on_rto(&s, &f);
	ok = ok && r->ssthresh == 10 && f.cwnd == 1;
	report(ok, "rto_halves_ssthresh_once_per_episode");
}

/* the RTT each flow's handshake gave its controller, in ps */
static u64 seed_rtt[8];

static void seed_init(struct sim *s, struct flow *f)
{
	if (f->id < 8)
		seed_rtt[f->id] = f->srtt_ps;
	sim_cc_aicc.init(s, f);
}

/*
 * Four staggered flows: a connection opened when its flow joins measures
 * the others' queue in its handshake; with --preconnect every handshake
 * happened at time 0, on empty queues, as the bench's persistent
 * connections' did (traced in the VM: 0.06-0.56 ms of queue).
 */
static void test_preconnect(void)
{
	struct sim_cc_ops ops = sim_cc_aicc;
	struct sim_config c;
	struct sim_result a, b;
	u64 late[2];
	bool ok;
	int k;

	ops.init = seed_init;
	for (k = 0; k < 2; k++) {
		setup(&c, SIM_SC_STAGGER, SIM_CC_AICC, 4, 2400,
		      &(struct over){ .buffer_kb = 204, .ecn_kb = 20,
				      .min_rto_us = 200000,
				      .cc_ops = &ops });
		c.rate_gbit = 0.02;
		c.rtt_us = 10000;
		c.preconnect = k;
		memset(seed_rtt, 0, sizeof(seed_rtt));
		ok = !run(&c, k ? &b : &a, k ? "stagger 4, preconnect" :
			  "stagger 4, connections opened late");
		late[k] = seed_rtt[3] > seed_rtt[0] ?
			  seed_rtt[3] - seed_rtt[0] : 0;
		diag("last flow's handshake: %.2f ms above the first's",
		     late[k] / 1e9);
		if (!ok)
			break;
	}
	/* late: a millisecond of queue or more; preconnected: none */
	ok = ok && seed_rtt[0] && late[0] > 1000000000ULL && late[1] == 0 &&
		a.util > 0.9 && b.util > 0.9 && a.jain > 0 && b.jain > 0;
	report(ok, "preconnect_handshakes_on_empty_queues");
}

/*
 * Four staggered aicc flows on the VM bench's path (tools/bench/testbed.sh:
 * 20 Mbit/s, 5.2 ms, RED marking at 29 of 390 KB, Linux's 200 ms minimum
 * RTO), their connections persistent, through @ops.
 */
static void setup_bench_stagger(struct sim_config *c, double time_ms,
				const struct sim_cc_ops *ops)
{
	setup(c, SIM_SC_STAGGER, SIM_CC_AICC, 4, time_ms,
	      &(struct over){ .buffer_kb = 390, .ecn_kb = 29,
			      .min_rto_us = 200000, .cc_ops = ops });
	c->rate_gbit = 0.02;
	c->rtt_us = 5200;
	c->preconnect = true;
}

/* first and last ACK per flow, and the measurement window */
static u64 ack_first[8], ack_last[8], win[2];

static void span_ack(struct sim *s, struct flow *f,
		     const struct aicc_sample *smp)
{
	if (f->id < 8) {
		if (!ack_first[f->id])
			ack_first[f->id] = s->now;
		ack_last[f->id] = s->now;
	}
	win[0] = s->w0;
	win[1] = s->w1;
	sim_cc_aicc.on_ack(s, f, smp);
}

/*
 * --stagger-ms: aiccgen bulk --stagger S --leave's schedule (flow i sends
 * from i * S to T - i * S) and window (the whole interval where all four
 * are active: 3 to 7 s of 10); a schedule that leaves no such interval,
 * or a step for another scenario, is refused.
 */
static void test_stagger_step(void)
{
	struct sim_cc_ops ops = sim_cc_aicc;
	struct sim_config c;
	struct sim_result r;
	const u64 ms = 1000000000ULL;
	bool ok;
	int i;

	ops.on_ack = span_ack;
	setup_bench_stagger(&c, 10000, &ops);
	c.stagger_ms = 1000;
	ok = !run(&c, &r, "stagger 4, 1000 ms apart");
	for (i = 0; i < 4 && ok; i++) {
		diag("flow %d: ACKs from %.1f to %.1f ms", i,
		     (double)ack_first[i] / ms, (double)ack_last[i] / ms);
		/* the first ACK one RTT after the join, the last by the leave */
		ok = ack_first[i] > i * 1000 * ms &&
		     ack_first[i] < (i * 1000 + 20) * ms &&
		     (i == 0 || (ack_last[i] > (10000 - i * 1000 - 20) * ms &&
				 ack_last[i] < (10000 - i * 1000 + 20) * ms));
	}
	ok = ok && win[0] == 3000 * ms && win[1] == 7000 * ms &&
		r.util > 0.9 && r.jain > 0;
	c.stagger_ms = 1700;	/* 2 * 3 * 1.7 s > 10 s */
	ok = ok && sim_run(&c, &r) && strstr(r.err, "stagger");
	c.stagger_ms = 1000;
	c.scenario = SIM_SC_INCAST;
	ok = ok && sim_run(&c, &r) && strstr(r.err, "stagger");
	report(ok, "stagger_step_is_aiccgens_schedule_and_window");
}

/*
 * --ack-jitter-us: each ACK reaches the sender's congestion control up to
 * that much late, never before the ACK before it.  Two flows on the
 * bench's path (20 Mbit/s, 5.2 ms; one flow would queue in its own
 * sender, whose NIC sends at the link's rate): with 2 ms of host noise
 * their delivered counts still only grow, nothing is retransmitted, the
 * link stays full, and the switch's queue tail rises (9.0 -> 13.5 KB of
 * p99 for aicc_bulk), as the testbed's does over the simulator's
 * (Documentation/benchmark.rst, "Where the single flow's queue tail
 * comes from").
 */
static u32 jit_delivered[2], jit_backwards;

static void order_ack(struct sim *s, struct flow *f,
		      const struct aicc_sample *smp)
{
	if (f->id < 2) {
		if (smp->delivered < jit_delivered[f->id])
			jit_backwards++;
		jit_delivered[f->id] = smp->delivered;
	}
	sim_cc_aicc.on_ack(s, f, smp);
}

static void test_ack_jitter(void)
{
	struct sim_cc_ops ops = sim_cc_aicc;
	struct sim_config c;
	struct sim_result n, j;
	bool ok;

	ops.on_ack = order_ack;
	setup(&c, SIM_SC_LONG, SIM_CC_AICC, 2, 8000,
	      &(struct over){ .buffer_kb = 390, .ecn_kb = 29,
			      .min_rto_us = 200000, .cc_ops = &ops });
	c.rate_gbit = 0.02;
	c.rtt_us = 5200;
	c.profile = AICC_PROF_BULK;
	c.kernel_pacing = true;
	c.delack = 2;
	c.delack_us = 40000;
	ok = !run(&c, &n, "long 2, aicc_bulk, bench path");
	memset(jit_delivered, 0, sizeof(jit_delivered));
	jit_backwards = 0;
	c.ack_jitter_us = 2000;
	ok = !run(&c, &j, "long 2, aicc_bulk, bench path, ACKs up to 2 ms late") &&
		ok;
	diag("queue p99 %.1f -> %.1f KB, utilisation %.3f -> %.3f, "
	     "delivered counts gone backwards %u", n.q_p99_kb, j.q_p99_kb,
	     n.util, j.util, jit_backwards);
	report(ok && !jit_backwards && jit_delivered[0] && jit_delivered[1] &&
	       !n.retrans && !j.retrans && j.util > 0.97 &&
	       j.q_p99_kb > 1.3 * n.q_p99_kb,
	       "ack_jitter_in_order_raises_the_queue_tail");
}

/*
 * --connect-jitter-us: every handshake RTT (which seeds aicc's base RTT)
 * up to that much above the path's, different per flow, the same for
 * the same seed, none without it.
 */
static void test_connect_jitter(void)
{
	struct sim_cc_ops ops = sim_cc_aicc;
	struct sim_config c;
	struct sim_result r;
	u64 j1[4], path = 0;
	bool ok = true, differ = false;
	int k, i;

	ops.init = seed_init;
	for (k = 0; k < 3 && ok; k++) {
		setup_bench_stagger(&c, 2000, &ops);
		c.connect_jitter_us = k == 2 ? 0 : 500;
		memset(seed_rtt, 0, sizeof(seed_rtt));
		ok = !run(&c, &r, k == 2 ? "stagger 4, no connect jitter" :
			  "stagger 4, connect jitter 500 us");
		for (i = 0; i < 4 && ok; i++) {
			if (k == 0)
				j1[i] = seed_rtt[i];
			else if (k == 1)
				ok = seed_rtt[i] == j1[i];
			else
				path = seed_rtt[i];
			if (k == 0 && i && seed_rtt[i] != seed_rtt[0])
				differ = true;
		}
		if (k == 0)
			diag("handshakes: %.3f %.3f %.3f %.3f ms",
			     j1[0] / 1e9, j1[1] / 1e9, j1[2] / 1e9,
			     j1[3] / 1e9);
	}
	for (i = 0; i < 4 && ok; i++)
		ok = j1[i] >= path && j1[i] < path + 500 * 1000000ULL;
	ok = ok && differ && seed_rtt[0] == path && path > 5000000000ULL;
	report(ok, "connect_jitter_raises_each_handshake_rtt_by_a_seeded_draw");
}

int main(void)
{
	printf("TAP version 13\n1..%d\n", NR_TESTS);
	test_heap_order();
	test_port_conservation();
	test_ecn_threshold();
	test_sim_conservation();
	test_determinism();
	test_queue_median_empty();
	test_samples();
	test_loss_recovery();
	test_rack();
	test_rack_losses_reach_aicc();
	test_tlp();
	test_tlp_aicc();
	test_delack();
	test_rto();
	test_rto_cap();
	test_rto_ssthresh();
	test_preconnect();
	test_stagger_step();
	test_connect_jitter();
	test_ack_jitter();
	test_line_rate(SIM_CC_RENO, "reno_single_flow_line_rate");
	test_line_rate(SIM_CC_DCTCP, "dctcp_single_flow_line_rate");
	test_dctcp_queue();
	test_leafspine_alltoall();
	test_leafspine_pipeline_ideal();
	test_aicc_single();
	test_aicc_four();
	test_aicc_stagger();
	test_window_completions();
	test_aicc_incast();
	test_aicc_incast_ack_clock();
	test_oracle_incast();
	test_kernel_pacing_credit();
	test_resume_hold_from_tenth();
	test_cold_start_loss();
	test_reverse_path();
	test_reverse_path_clock_drift();
	test_line_rate(SIM_CC_SWIFT, "swift_single_flow_runs");
	if (n_test != NR_TESTS)
		printf("# planned %d tests, ran %d\n", NR_TESTS, n_test);
	printf("# %d of %d failed\n", n_fail, n_test);
	return n_fail || n_test != NR_TESTS;
}
