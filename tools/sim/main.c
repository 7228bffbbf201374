// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-sim: command-line front end of the simulator (see sim.h and
 * Documentation/simulator.rst).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"
#include "sim_roce.h"
#include "kvfile.h"	/* read_profile(), tools/tune/kvfile.c */

static const char usage[] =
"usage: aicc-sim SCENARIO [options]\n"
"scenarios: long stagger incast alltoall allreduce rpc pipeline reverse\n"
"  --cc NAME          aicc (default), dctcp, swift, reno\n"
"  --profile NAME     aicc profile of every flow: aicc, aicc_lat, aicc_bulk\n"
"  --knob NAME=VAL    override an aicc knob of the chosen profile (repeat)\n"
"  --profile-file F   knobs from an aicc profile file (aicc-tune -o, aicc\n"
"                     profile save): they replace their profiles' defaults,\n"
"                     --knob applies on top\n"
"  --flows N          senders (long/stagger/incast/rpc) or hosts\n"
"                     (alltoall/allreduce/pipeline)\n"
"  --rate-gbit R      link rate (100)\n"
"  --rtt-us U         base RTT of the longest path (10)\n"
"  --buffer-kb B      buffer per switch port (1024)\n"
"  --ecn-kb K         ECN marking threshold, 0 = off (100)\n"
"  --time-ms T        simulated time (10)\n"
"  --warmup-ms W      start of the measurement window (auto)\n"
"  --seed S           PRNG seed (1)\n"
"  --topo T           star or leafspine (alltoall: leafspine)\n"
"  --leaf-hosts N     hosts per leaf (8); --spines N (= leaf-hosts)\n"
"  --mtu M            IP packet size (1500)\n"
"  --delack N         ACK every N packets (1); --delack-us U (40)\n"
"  --min-rto-us U     minimum RTO (200)\n"
"  --init-cwnd N      initial window (10); --max-cwnd N (4096)\n"
"  --msg-kb K         message per flow per iteration (64)\n"
"  --gap-us U         idle gap between iterations (100)\n"
"  --jitter-us U      incast/alltoall: senders start up to U us late (0)\n"
"  --rpc-load P       RPC load, percent of line rate (20)\n"
"  --bulk N           bulk flows in the rpc scenario (2)\n"
"  --microbatches N   pipeline: microbatches per iteration (8)\n"
"  --no-idle-restart  reno/dctcp: keep cwnd across idle periods\n"
"  --preconnect       open every connection at time 0, its handshake on\n"
"                     empty queues; late flows only start sending later\n"
"  --kernel-pacing    pace as Linux does: the first ten segments unpaced,\n"
"                     the packet after an idle pacer up to half a packet\n"
"                     time early (and aicc's hold after a resume)\n"
"  --no-rack          detect loss by three later packets delivered only,\n"
"                     not also by RACK's time rule\n"
"  --tlp              send tail-loss probes as Linux does (off: a lost tail\n"
"                     waits for the RTO)\n"
"  --stagger-ms S     stagger: flows join S ms apart and leave in reverse\n"
"                     order S ms apart, measured over the whole interval\n"
"                     where all are active (aiccgen bulk --stagger S\n"
"                     --leave); default: time / (2 flows) apart, measured\n"
"                     over the second half of that interval\n"
"  --connect-jitter-us U  each connection's handshake RTT up to U us too\n"
"                     high (per flow and seed): host delays at connect\n"
"  --ack-jitter-us U  each ACK reaches the sender up to U us late, in\n"
"                     order (per ACK): host scheduling noise\n"
"  --ts-tick-us U     TCP timestamp clock tick: 1000 (ms, a stock kernel;\n"
"                     default), 1 (tcp_usec_ts), 0 (no timestamps)\n"
"  --ts-drift-ppm P   the receivers' timestamp clocks run P ppm slow (0)\n"
"  --trace-us U       every U us print the sums (bottleneck, busy flows)\n"
"                     and per-flow state to stderr\n"
"  --trace-flows N    ... per-flow for the first N flows (8; 0: sums only)\n"
"  -j, --json         print JSON instead of a table\n";

enum {
	O_CC = 256, O_PROFILE, O_KNOB, O_FLOWS, O_RATE, O_RTT, O_BUF, O_ECN,
	O_TIME, O_WARM, O_SEED, O_TOPO, O_LEAF, O_SPINES, O_MTU, O_DELACK,
	O_DELACK_US, O_RTO, O_ICW, O_MCW, O_MSG, O_GAP, O_LOAD, O_BULK,
	O_NOIDLE, O_TRACE, O_TRACE_N, O_MICRO, O_JITTER, O_PFILE,
	O_TS_TICK, O_TS_DRIFT, O_PRECONN, O_KPACE, O_NORACK, O_TLP, O_STAGGER, O_CJIT, O_AJIT,
};

static const struct option opts[] = {
	{ "cc", required_argument, NULL, O_CC },
	{ "profile", required_argument, NULL, O_PROFILE },
	{ "knob", required_argument, NULL, O_KNOB },
	{ "profile-file", required_argument, NULL, O_PFILE },
	{ "flows", required_argument, NULL, O_FLOWS },
	{ "rate-gbit", required_argument, NULL, O_RATE },
	{ "rtt-us", required_argument, NULL, O_RTT },
	{ "buffer-kb", required_argument, NULL, O_BUF },
	{ "ecn-kb", required_argument, NULL, O_ECN },
	{ "time-ms", required_argument, NULL, O_TIME },
	{ "warmup-ms", required_argument, NULL, O_WARM },
	{ "seed", required_argument, NULL, O_SEED },
	{ "topo", required_argument, NULL, O_TOPO },
	{ "leaf-hosts", required_argument, NULL, O_LEAF },
	{ "spines", required_argument, NULL, O_SPINES },
	{ "mtu", required_argument, NULL, O_MTU },
	{ "delack", required_argument, NULL, O_DELACK },
	{ "delack-us", required_argument, NULL, O_DELACK_US },
	{ "min-rto-us", required_argument, NULL, O_RTO },
	{ "init-cwnd", required_argument, NULL, O_ICW },
	{ "max-cwnd", required_argument, NULL, O_MCW },
	{ "msg-kb", required_argument, NULL, O_MSG },
	{ "gap-us", required_argument, NULL, O_GAP },
	{ "rpc-load", required_argument, NULL, O_LOAD },
	{ "bulk", required_argument, NULL, O_BULK },
	{ "microbatches", required_argument, NULL, O_MICRO },
	{ "jitter-us", required_argument, NULL, O_JITTER },
	{ "no-idle-restart", no_argument, NULL, O_NOIDLE },
	{ "preconnect", no_argument, NULL, O_PRECONN },
	{ "kernel-pacing", no_argument, NULL, O_KPACE },
	{ "no-rack", no_argument, NULL, O_NORACK },
	{ "tlp", no_argument, NULL, O_TLP },
	{ "ts-tick-us", required_argument, NULL, O_TS_TICK },
	{ "ts-drift-ppm", required_argument, NULL, O_TS_DRIFT },
	{ "stagger-ms", required_argument, NULL, O_STAGGER },
	{ "connect-jitter-us", required_argument, NULL, O_CJIT },
	{ "ack-jitter-us", required_argument, NULL, O_AJIT },
	{ "trace-us", required_argument, NULL, O_TRACE },
	{ "trace-flows", required_argument, NULL, O_TRACE_N },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "aicc-sim: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(2);
}

static const char *opt_name(int id)
{
	const struct option *o;

	for (o = opts; o->name; o++)
		if (o->val == id)
			return o->name;
	return "?";
}

static double num(int id, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v != v)
		die("--%s: '%s' is not a number", opt_name(id), s);
	return v;
}

static u32 unum(int id, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v > 0xffffffffULL)
		die("--%s: '%s' is not a non-negative integer", opt_name(id), s);
	return (u32)v;
}

/*
 * The controller's event counters, in the same order for both outputs:
 * delay, ECN and loss cuts, start exits, idle resumes, idle resets.
 */
static void __attribute__((format(printf, 2, 0)))
print_cc_events(const struct sim_result *r, const char *fmt)
{
	printf(fmt, (unsigned long long)r->cc_delay_cuts,
	       (unsigned long long)r->cc_ecn_cuts,
	       (unsigned long long)r->cc_loss_cuts,
	       (unsigned long long)r->cc_start_exits,
	       (unsigned long long)r->cc_idle_resumes,
	       (unsigned long long)r->cc_idle_resets);
}

static void print_json(const struct sim_config *c, const struct sim_result *r,
		       double wall)
{
	int i;

	printf("{\n  \"scenario\": \"%s\", \"cc\": \"%s\", \"seed\": %llu,\n",
	       sim_scenario_name(c->scenario), sim_cc_name(c->cc),
	       (unsigned long long)c->seed);
	printf("  \"hosts\": %u, \"flows\": %u, \"rate_gbit\": %g, "
	       "\"base_rtt_us\": %.3f, \"time_ms\": %g,\n",
	       r->hosts, r->nflows, c->rate_gbit, r->base_rtt_us, r->sim_ms);
	printf("  \"window_ms\": [%.3f, %.3f], \"events\": %llu, "
	       "\"wall_s\": %.3f,\n", r->window_ms[0], r->window_ms[1],
	       (unsigned long long)r->events, wall);
	printf("  \"util\": %.4f, \"goodput_gbit\": %.3f,\n", r->util,
	       r->goodput_gbit);
	if (c->scenario == SIM_SC_REVERSE)
		printf("  \"reverse_util\": %.4f,\n", r->rev_util);
	printf("  \"queue_kb\": {\"p50\": %.2f, \"p99\": %.2f, \"max\": %.2f},"
	       " \"queue_us\": {\"p99\": %.3f, \"max\": %.3f},\n",
	       r->q_p50_kb, r->q_p99_kb, r->q_max_kb, r->q_p99_us,
	       r->q_max_us);
	printf("  \"drops\": %llu, \"ack_drops\": %llu, \"ecn_marks\": %llu, "
	       "\"pkts_sent\": %llu, \"retrans\": %llu, \"rtos\": %llu, "
	       "\"rtos_window\": %llu,\n",
	       (unsigned long long)r->drops, (unsigned long long)r->ack_drops,
	       (unsigned long long)r->ecn_marks,
	       (unsigned long long)r->pkts_sent,
	       (unsigned long long)r->retrans, (unsigned long long)r->rtos,
	       (unsigned long long)r->rtos_win);
	print_cc_events(r, "  \"cc_cuts\": {\"delay\": %llu, \"ecn\": %llu, "
			"\"loss\": %llu, \"start_exits\": %llu, "
			"\"idle_resumes\": %llu, \"idle_resets\": %llu},\n");
	printf("  \"drops_window\": %llu, \"drops_warm\": %llu, "
	       "\"rtos_warm\": %llu, \"rack_timer\": %llu, \"tlps\": %llu, "
	       "\"tlp_repairs\": %llu, \"tlp_repairs_law\": %llu,\n",
	       (unsigned long long)r->drops_win,
	       (unsigned long long)r->drops_warm,
	       (unsigned long long)r->rtos_warm,
	       (unsigned long long)r->reo_timeouts,
	       (unsigned long long)r->tlps,
	       (unsigned long long)r->tlp_losses,
	       (unsigned long long)r->cc_tlp_losses);
	printf("  \"fct\": [");
	for (i = 0; i < SIM_NR_FCT; i++) {
		const struct sim_fct_class *f = &r->fct[i];

		printf("%s\n    {\"min_bytes\": %llu, \"count\": %u, "
		       "\"fct_p50_us\": %.3f, \"fct_p99_us\": %.3f, "
		       "\"slowdown_p50\": %.3f, \"slowdown_p99\": %.3f}",
		       i ? "," : "", (unsigned long long)f->lo, f->count,
		       f->fct_p50_us, f->fct_p99_us, f->sd_p50, f->sd_p99);
	}
	printf("\n  ],\n  \"msgs_done\": %u, \"msgs_open\": %u,\n",
	       r->msgs_done, r->msgs_open);
	printf("  \"iterations\": %u, \"cct_ideal_us\": %.3f, "
	       "\"cct_us\": {\"mean\": %.3f, \"p50\": %.3f, \"p99\": %.3f, "
	       "\"max\": %.3f},\n", r->iters, r->cct_ideal_us, r->cct_mean_us,
	       r->cct_p50_us, r->cct_p99_us, r->cct_max_us);
	printf("  \"jain\": %.4f, \"convergence_us\": %.1f\n}\n", r->jain,
	       r->conv_us);
}

static void print_table(const struct sim_config *c,
			const struct sim_result *r, double wall)
{
	int i;

	printf("scenario      %s, cc %s, %u hosts, %u flows, seed %llu\n",
	       sim_scenario_name(c->scenario), sim_cc_name(c->cc), r->hosts,
	       r->nflows, (unsigned long long)c->seed);
	printf("fabric        %g Gbit/s, base RTT %.2f us, buffer %u KB, "
	       "ECN at %u KB\n", c->rate_gbit, r->base_rtt_us, c->buffer_kb,
	       c->ecn_kb);
	printf("run           %g ms simulated, %llu events, %.3f s, "
	       "%.2f M events/s\n", r->sim_ms,
	       (unsigned long long)r->events, wall,
	       wall > 0 ? r->events / wall / 1e6 : 0);
	printf("window        %.3f .. %.3f ms\n", r->window_ms[0],
	       r->window_ms[1]);
	printf("utilisation   %.4f (goodput %.2f Gbit/s)\n", r->util,
	       r->goodput_gbit);
	if (c->scenario == SIM_SC_REVERSE)
		printf("reverse flow  utilisation %.4f (host 0 -> host 1)\n",
		       r->rev_util);
	printf("queue         p50 %.1f KB, p99 %.1f KB (%.2f us), "
	       "max %.1f KB (%.2f us)\n", r->q_p50_kb, r->q_p99_kb,
	       r->q_p99_us, r->q_max_kb, r->q_max_us);
	printf("packets       %llu sent, %llu retransmitted, %llu dropped "
	       "(%llu in window), %llu ECN-marked, %llu ACKs dropped\n",
	       (unsigned long long)r->pkts_sent,
	       (unsigned long long)r->retrans, (unsigned long long)r->drops,
	       (unsigned long long)r->drops_win,
	       (unsigned long long)r->ecn_marks,
	       (unsigned long long)r->ack_drops);
	printf("timeouts      %llu (%llu in window); RACK's timer found "
	       "losses %llu times; %llu tail-loss probes, %llu repaired a "
	       "loss\n",
	       (unsigned long long)r->rtos, (unsigned long long)r->rtos_win,
	       (unsigned long long)r->reo_timeouts,
	       (unsigned long long)r->tlps, (unsigned long long)r->tlp_losses);
	if (r->drops_warm != r->drops_win || r->rtos_warm != r->rtos_win)
		printf("past cold start %llu dropped, %llu timeouts (after the "
		       "first iteration)\n",
		       (unsigned long long)r->drops_warm,
		       (unsigned long long)r->rtos_warm);
	print_cc_events(r, "cc events     cuts: delay %llu, ecn %llu, loss %llu; "
			"start exits %llu; idle resumes %llu, resets %llu\n");
	if (r->msgs_done || r->msgs_open) {
		printf("messages      %u done, %u unfinished\n", r->msgs_done,
		       r->msgs_open);
		printf("  size class      count   FCT p50 us   FCT p99 us  "
		       "slowdown p50  slowdown p99\n");
		for (i = 0; i < SIM_NR_FCT; i++) {
			const struct sim_fct_class *f = &r->fct[i];
			char lo[24];

			if (!f->count)
				continue;
			snprintf(lo, sizeof(lo), ">=%lluK",
				 (unsigned long long)f->lo / 1000);
			printf("  %-12s %8u %12.2f %12.2f %13.2f %13.2f\n", lo,
			       f->count, f->fct_p50_us, f->fct_p99_us,
			       f->sd_p50, f->sd_p99);
		}
	}
	if (r->iters)
		printf("collective    %u iterations, ideal %.1f us, mean %.1f, "
		       "p50 %.1f, p99 %.1f, max %.1f us (mean %.2fx ideal)\n",
		       r->iters, r->cct_ideal_us, r->cct_mean_us,
		       r->cct_p50_us, r->cct_p99_us, r->cct_max_us,
		       r->cct_ideal_us > 0 ? r->cct_mean_us / r->cct_ideal_us
		       : 0);
	if (r->jain >= 0) {
		printf("fairness      Jain %.4f, convergence ", r->jain);
		if (r->conv_us >= 0)
			printf("%.1f us\n", r->conv_us);
		else
			printf("not reached\n");
	}
}

int main(int argc, char **argv)
{
	static u32 knobs[AICC_NR_KNOBS];
	static u32 fknobs[AICC_NR_PROFILES][AICC_NR_KNOBS];
	const char *pfile = NULL;
	struct sim_config c;
	struct sim_result r;
	struct timespec t0, t1;
	bool json = false, have_knobs = false;
	const char *knob_args[64];
	int nknob = 0, o, sc, i;
	double wall;

	if (argc > 1 && !strcmp(argv[1], "roce"))	/* roce.c */
		return sim_roce_main(argc - 1, argv + 1);
	sim_config_defaults(&c);
	while ((o = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (o) {
		case O_CC:
			c.cc = sim_parse_cc(optarg);
			if ((int)c.cc < 0)
				die("unknown congestion control '%s'%s", optarg,
				    " (aicc, dctcp, swift, reno)");
			break;
		case O_PROFILE:
			c.profile = sim_parse_profile(optarg);
			if (c.profile < 0)
				die("unknown profile '%s'%s", optarg,
				    " (aicc, aicc_lat, aicc_bulk)");
			break;
		case O_PFILE:
			pfile = optarg;
			break;
		case O_KNOB:
			if (nknob == 64)
				die("too many --knob options%s%s", "", "");
			knob_args[nknob++] = optarg;
			break;
		case O_FLOWS:
			c.flows = unum(o, optarg);
			break;
		case O_RATE:
			c.rate_gbit = num(o, optarg);
			break;
		case O_RTT:
			c.rtt_us = num(o, optarg);
			break;
		case O_BUF:
			c.buffer_kb = unum(o, optarg);
			break;
		case O_ECN:
			c.ecn_kb = unum(o, optarg);
			break;
		case O_TIME:
			c.time_ms = num(o, optarg);
			break;
		case O_WARM:
			c.warmup_ms = num(o, optarg);
			break;
		case O_SEED: {
			char *end;

			errno = 0;
			c.seed = strtoull(optarg, &end, 0);
			/* strtoull takes "-5" as 2^64 - 5 */
			if (errno || end == optarg || *end ||
			    strchr(optarg, '-'))
				die("--seed: '%s' is not a non-negative integer%s",
				    optarg, "");
			break;
		}
		case O_TOPO:
			if (!strcmp(optarg, "star"))
				c.topo = SIM_TOPO_STAR;
			else if (!strcmp(optarg, "leafspine"))
				c.topo = SIM_TOPO_LEAFSPINE;
			else
				die("unknown topology '%s'%s", optarg,
				    " (star, leafspine)");
			break;
		case O_LEAF:
			c.leaf_hosts = unum(o, optarg);
			break;
		case O_SPINES:
			c.spines = unum(o, optarg);
			break;
		case O_MTU:
			c.mtu = unum(o, optarg);
			break;
		case O_DELACK:
			c.delack = unum(o, optarg);
			break;
		case O_DELACK_US:
			c.delack_us = unum(o, optarg);
			break;
		case O_RTO:
			c.min_rto_us = unum(o, optarg);
			break;
		case O_ICW:
			c.init_cwnd = unum(o, optarg);
			break;
		case O_MCW:
			c.max_cwnd = unum(o, optarg);
			break;
		case O_MSG:
			c.msg_kb = unum(o, optarg);
			break;
		case O_GAP:
			c.gap_us = unum(o, optarg);
			break;
		case O_LOAD:
			c.rpc_load = unum(o, optarg);
			break;
		case O_BULK:
			c.bulk_flows = unum(o, optarg);
			break;
		case O_JITTER:
			c.jitter_us = unum(o, optarg);
			break;
		case O_MICRO:
			c.microbatches = unum(o, optarg);
			break;
		case O_NOIDLE:
			c.ss_after_idle = false;
			break;
		case O_PRECONN:
			c.preconnect = true;
			break;
		case O_KPACE:
			c.kernel_pacing = true;
			break;
		case O_NORACK:
			c.no_rack = true;
			break;
		case O_TLP:
			c.tlp = true;
			break;
		case O_STAGGER:
			/* fractional, as the tuner's testbed case has it */
			c.stagger_ms = num(o, optarg);
			break;
		case O_CJIT:
			c.connect_jitter_us = unum(o, optarg);
			break;
		case O_AJIT:
			c.ack_jitter_us = unum(o, optarg);
			break;
		case O_TS_TICK:
			c.ts_tick_us = unum(o, optarg);
			break;
		case O_TS_DRIFT:
			c.ts_drift_ppm = unum(o, optarg);
			break;
		case O_TRACE:
			c.trace_us = unum(o, optarg);
			c.trace = stderr;
			break;
		case O_TRACE_N:
			c.trace_flows = unum(o, optarg);
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		die("expected exactly one scenario%s%s", "", "");
	}
	sc = sim_parse_scenario(argv[optind]);
	if (sc < 0)
		die("unknown scenario '%s'%s", argv[optind],
		    " (long, stagger, incast, alltoall, allreduce, rpc, pipeline,"
		    " reverse)");
	c.scenario = sc;

	if (pfile) {
		static bool have[AICC_NR_PROFILES][AICC_NR_KNOBS];
		char why[400];
		int p, k, n = 0;

		if (c.cc != SIM_CC_AICC)
			die("--profile-file applies to --cc aicc only%s%s", "",
			    "");
		if (read_profile(pfile, fknobs, have, why, sizeof(why)))
			die("--profile-file: %s%s", why, "");
		for (p = 0; p < AICC_NR_PROFILES; p++) {
			u32 def[AICC_NR_KNOBS];
			bool any = false;

			aicc_params_defaults(def, p);
			for (k = 0; k < AICC_NR_KNOBS; k++) {
				any |= have[p][k];
				if (!have[p][k])
					fknobs[p][k] = def[k];
			}
			if (any) {
				c.knobs[p] = fknobs[p];
				n++;
			}
		}
		if (!n)
			die("--profile-file: %s sets no aicc knob%s", pfile, "");
	}
	if (nknob) {
		int prof = c.profile >= 0 ? c.profile : AICC_PROF_COLL;

		if (c.cc != SIM_CC_AICC)
			die("--knob applies to --cc aicc only%s%s", "", "");
		if (c.knobs[prof])	/* from --profile-file */
			memcpy(knobs, c.knobs[prof], sizeof(knobs));
		else
			aicc_params_defaults(knobs, prof);
		for (i = 0; i < nknob; i++) {
			const char *eq = strchr(knob_args[i], '=');
			char name[64], *end;
			unsigned long long v;
			int k;

			if (!eq || eq == knob_args[i] ||
			    (size_t)(eq - knob_args[i]) >= sizeof(name))
				die("--knob: '%s' is not NAME=VALUE%s",
				    knob_args[i], "");
			memcpy(name, knob_args[i], eq - knob_args[i]);
			name[eq - knob_args[i]] = 0;
			for (k = 0; k < AICC_NR_KNOBS; k++)
				if (!strcmp(name, aicc_knob_desc[k].name))
					break;
			if (k == AICC_NR_KNOBS)
				die("--knob: unknown knob '%s'%s", name, "");
			errno = 0;
			v = strtoull(eq + 1, &end, 10);
			if (errno || end == eq + 1 || *end || eq[1] == '-' ||
			    aicc_knob_check(k, v))
				die("--knob: bad value '%s' for %s", eq + 1,
				    name);
			knobs[k] = (u32)v;
		}
		have_knobs = true;
		c.knobs[prof] = knobs;
		if (c.profile < 0 && c.scenario == SIM_SC_RPC)
			die("--knob with the rpc scenario needs --profile%s%s",
			    "", "");
	}
	(void)have_knobs;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (sim_run(&c, &r)) {
		fprintf(stderr, "aicc-sim: %s\n", r.err);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (json)
		print_json(&c, &r, wall);
	else
		print_table(&c, &r, wall);
	return 0;
}
