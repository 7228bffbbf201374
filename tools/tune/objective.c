// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-tune: scenario sets and the objective (Documentation/tuning.rst).
 *
 * A set is a list of simulator runs, each with a weight.  Each run's
 * result becomes five dimensionless terms (utilisation shortfall, p99
 * queueing delay over the base RTT, log slowdown, unfairness, loss), the
 * profile weights them, and the set's objective is the weighted mean over
 * its runs.  Lower is better; 0 is an ideal network.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

const char *const tune_kind_name[TK_NR] = {
	[TK_INCAST] = "incast", [TK_ALLTOALL] = "alltoall",
	[TK_ALLREDUCE] = "allreduce", [TK_STAGGER] = "stagger",
	[TK_RPC] = "rpc", [TK_LONG] = "long", [TK_PIPELINE] = "pipeline",
	[TK_START] = "start",
};

static const int kind_sc[TK_NR] = {
	[TK_INCAST] = SIM_SC_INCAST, [TK_ALLTOALL] = SIM_SC_ALLTOALL,
	[TK_ALLREDUCE] = SIM_SC_ALLREDUCE, [TK_STAGGER] = SIM_SC_STAGGER,
	[TK_RPC] = SIM_SC_RPC, [TK_LONG] = SIM_SC_LONG,
	[TK_PIPELINE] = SIM_SC_PIPELINE, [TK_START] = SIM_SC_LONG,
};

const char *const tune_term_name[TT_NR] = {
	[TT_SHORT] = "short", [TT_QUEUE] = "queue", [TT_SLOW] = "slow",
	[TT_UNFAIR] = "unfair", [TT_LOSS] = "loss",
};

/*
 * Term weights per profile: short, queue, slow, unfair, loss.  Unfairness
 * weighs 10: Jain's index 0.99 (the benchmark's target) then costs what
 * 0.5 base RTTs of p99 queue cost aicc; at 1 the optimiser traded the
 * testbed's fairness away for a few per cent of queue.
 */
static const double profile_term_w[AICC_NR_PROFILES][TT_NR] = {
	[AICC_PROF_COLL] = { 2.0, 0.2, 2.0, 10.0, 5.0 },
	[AICC_PROF_LAT] = { 1.5, 0.5, 2.0, 10.0, 5.0 },
	[AICC_PROF_BULK] = { 2.0, 0.2, 1.5, 10.0, 5.0 },
};

/* A failed run counts as this (far worse than any real run). */
#define FAIL_OBJ	100.0
#define SLOW_NONE	5.0	/* no completed iteration/message: e^5 x */

void fabric_defaults(struct tune_fabric *fb)
{
	memset(fb, 0, sizeof(*fb));
	fb->rate_gbit = 100;
	fb->rtt_us = 10;
	fb->hops = 2;
	fb->buffer_kb = 1024;
	fb->ecn_kb = 100;
	fb->fan_in = 32;
	fb->min_rto_us = 200;
	fb->ts_tick_us = 1000;
}

void mix_defaults(struct tune_mix *mx)
{
	int i;

	memset(mx, 0, sizeof(*mx));
	for (i = 0; i < TK_NR; i++)
		mx->weight[i] = 1;
	mx->msg_kb = 64;
	mx->gap_us = 100;
	mx->rpc_load = 20;
	mx->bulk_flows = 2;
	mx->hosts = 8;
	mx->time_scale = 1;
	mx->draws = 1;
}

int fabric_check(const struct tune_fabric *fb, char *why, size_t len)
{
	/* the sets run cases at up to 4 times it, the simulator to 1600 */
	if (!(fb->rate_gbit >= 1 && fb->rate_gbit <= TUNE_MAX_RATE_GBIT))
		snprintf(why, len,
			 "--rate-gbit %g outside 1..%d (the scenarios run at up to 4 times the link rate, the simulator up to 1600 Gbit/s)",
			 fb->rate_gbit, TUNE_MAX_RATE_GBIT);
	else if (!(fb->rtt_us >= 1 && fb->rtt_us <= 1000))
		snprintf(why, len, "--rtt-us %g outside 1..1000", fb->rtt_us);
	else if (fb->hops < 1 || fb->hops > 8)
		snprintf(why, len, "--hops %u outside 1..8", fb->hops);
	else if (fb->buffer_kb < 16 || fb->buffer_kb > 1048576)
		snprintf(why, len, "--buffer-kb %u outside 16..1048576",
			 fb->buffer_kb);
	else if (fb->ecn_kb > fb->buffer_kb)
		snprintf(why, len, "--ecn-kb %u above --buffer-kb %u",
			 fb->ecn_kb, fb->buffer_kb);
	else if (fb->fan_in < 2 || fb->fan_in > 512)
		snprintf(why, len, "--fan-in %u outside 2..512", fb->fan_in);
	else if (fb->min_rto_us < 10 || fb->min_rto_us > 1000000)
		snprintf(why, len, "--min-rto-us %u outside 10..1000000",
			 fb->min_rto_us);
	else if (fb->ts_tick_us > 1000000)
		snprintf(why, len, "--ts-tick-us %u outside 0..1000000",
			 fb->ts_tick_us);
	else
		return 0;
	return -1;
}

static int parse_num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

/*
 * Workload mix: "KEY = VALUE" per line, '#' starts a comment.  KEY is a
 * scenario kind (its weight multiplier, 0 drops it) or one of msg_kb,
 * gap_us, rpc_load, bulk_flows, hosts, time_scale.
 */
struct mix_ctx {
	struct tune_mix *m;
	u32 seen;	/* bit per key given: kinds, then mix_line()'s par[] */
};

/* A key given twice is refused, as in a profile file: which would win? */
static int mix_once(struct mix_ctx *mc, const struct tune_kv_pos *at,
		    const char *key, int bit)
{
	if (mc->seen & (1U << bit)) {
		snprintf(at->why, at->len, "%s:%d: %s given twice", at->file,
			 at->ln, key);
		return -1;
	}
	mc->seen |= 1U << bit;
	return 0;
}

/* One KEY = VALUE line of a workload file (mix_load()) into @ctx. */
static int mix_line(void *ctx, const struct tune_kv_pos *at, char *key,
		    char *val)
{
	static const struct { const char *key; double lo, hi; } par[] = {
		{ "msg_kb", 1, 65536 }, { "gap_us", 0, 100000 },
		{ "rpc_load", 1, 95 }, { "bulk_flows", 1, 64 },
		{ "hosts", 4, 32 }, { "time_scale", 0.1, 10 },
	};
	struct mix_ctx *mc = ctx;
	struct tune_mix *m = mc->m;
	double v;
	int i;

	_Static_assert(TK_NR + TUNE_NR(par) <= 32, "mix_ctx.seen: one bit per key");
	for (i = 0; i < TK_NR; i++) {
		if (strcmp(key, tune_kind_name[i]))
			continue;
		if (mix_once(mc, at, key, i))
			return -1;
		if (parse_num(val, 0, 1000, &v)) {
			snprintf(at->why, at->len,
				 "%s:%d: weight of %s must be 0..1000",
				 at->file, at->ln, key);
			return -1;
		}
		m->weight[i] = v;
		return 0;
	}
	for (i = 0; i < TUNE_NR(par); i++) {
		if (strcmp(key, par[i].key))
			continue;
		if (mix_once(mc, at, key, TK_NR + i))
			return -1;
		if (parse_num(val, par[i].lo, par[i].hi, &v)) {
			snprintf(at->why, at->len, "%s:%d: %s must be %g..%g",
				 at->file, at->ln, key, par[i].lo, par[i].hi);
			return -1;
		}
		if (!strcmp(key, "time_scale")) {
			m->time_scale = v;
			return 0;
		}
		if (v != floor(v)) {
			snprintf(at->why, at->len,
				 "%s:%d: %s must be a whole number",
				 at->file, at->ln, key);
			return -1;
		}
		if (!strcmp(key, "msg_kb"))
			m->msg_kb = (u32)v;
		else if (!strcmp(key, "gap_us"))
			m->gap_us = (u32)v;
		else if (!strcmp(key, "rpc_load"))
			m->rpc_load = (u32)v;
		else if (!strcmp(key, "bulk_flows"))
			m->bulk_flows = (u32)v;
		else
			m->hosts = (u32)v;
		if (!strcmp(key, "rpc_load"))
			m->rpc_load_ln = at->ln;
		return 0;
	}
	snprintf(at->why, at->len, "%s:%d: unknown key '%s'", at->file, at->ln,
		 key);
	return -1;
}

int mix_load(struct tune_mix *mx, const char *file, char *why, size_t len)
{
	struct tune_mix m = *mx;
	struct mix_ctx mc = { .m = &m };
	double any = 0;
	int i;

	if (tune_kv_file(file, "KEY = VALUE", mix_line, &mc, why, len))
		return -1;
	for (i = 0; i < TK_NR; i++)
		any += m.weight[i];
	if (any <= 0) {
		snprintf(why, len, "%s: every scenario weight is 0", file);
		return -1;
	}
	*mx = m;
	return 0;
}

/* ---- building sets ---- */

struct builder {
	struct tune_set *set;
	const struct tune_fabric *fb;
	const struct tune_mix *mx;
	bool quick;
};

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * One case.  rs, ts: rate and RTT scale against the user's fabric; flows:
 * senders or hosts; prof: profile forced on every flow, -1 the scenario's
 * own choice (rpc: bulk senders aicc_bulk, clients aicc_lat).
 */
static void add(struct builder *b, int kind, double w, double rs, double ts,
		u32 flows, u32 msg_kb, int prof, u64 seed, u32 rpc_load,
		u32 bulk)
{
	const struct tune_fabric *fb = b->fb;
	const struct tune_mix *mx = b->mx;
	struct tune_case *tc;
	struct sim_config *c;
	double rate, rtt, iter_us, t;

	if (mx->weight[kind] <= 0 || b->set->n >= TUNE_MAX_CASES)
		return;
	tc = &b->set->c[b->set->n++];
	memset(tc, 0, sizeof(*tc));
	tc->kind = kind;
	tc->weight = w * mx->weight[kind];
	c = &tc->cfg;
	sim_config_defaults(c);
	rate = fb->rate_gbit * rs;
	rtt = fb->rtt_us * ts;
	c->scenario = kind_sc[kind];
	c->profile = prof;
	c->rate_gbit = rate;
	c->rtt_us = rtt;
	c->buffer_kb = fb->buffer_kb;
	c->ecn_kb = fb->ecn_kb;
	c->min_rto_us = fb->min_rto_us;
	c->ts_tick_us = fb->ts_tick_us;
	c->kernel_pacing = fb->kernel_pacing;
	c->tlp = fb->tlp;
	c->seed = seed + b->mx->seed_off;
	c->flows = flows;
	c->msg_kb = msg_kb;
	c->gap_us = mx->gap_us;
	c->rpc_load = rpc_load;
	c->bulk_flows = bulk;
	if (fb->hops > 2 && kind != TK_PIPELINE)
		c->topo = SIM_TOPO_LEAFSPINE;
	if (kind == TK_ALLTOALL) {
		c->topo = SIM_TOPO_LEAFSPINE;
		c->leaf_hosts = flows >= 8 ? flows / 2 : flows;
		if (c->leaf_hosts > 8)
			c->leaf_hosts = 8;
	} else if (c->topo == SIM_TOPO_LEAFSPINE) {
		c->leaf_hosts = 8;
	}
	if (kind == TK_INCAST || kind == TK_ALLTOALL)
		c->jitter_us = 2;

	/*
	 * Simulated time: about 10 iterations of a collective, else a
	 * fixed number of RTTs, bounded to keep a run cheap.
	 */
	switch (kind) {
	case TK_INCAST:
		iter_us = flows * msg_kb * 8.192 / rate + rtt + mx->gap_us;
		t = clampd(10 * iter_us / 1000, 1.0, 6.0);
		break;
	case TK_ALLTOALL:
		iter_us = (flows - 1) * msg_kb * 8.192 / rate + rtt +
			mx->gap_us;
		t = clampd(8 * iter_us / 1000, 1.0, 4.0);
		break;
	case TK_ALLREDUCE:
		iter_us = 2.0 * (flows - 1) *
			(msg_kb * 8.192 / flows / rate + rtt) + mx->gap_us;
		t = clampd(8 * iter_us / 1000, 1.0, 4.0);
		break;
	case TK_PIPELINE:
		iter_us = (flows + 8) * (msg_kb * 8.192 / rate + rtt) +
			mx->gap_us;
		t = clampd(8 * iter_us / 1000, 1.0, 4.0);
		break;
	case TK_STAGGER:
		t = clampd(flows * 60 * rtt / 1000, 2.0, 5.0);
		break;
	case TK_RPC:
		t = clampd(400 * rtt / 1000, 3.0, 5.0);
		break;
	case TK_START:
		/* fast start and what follows it, measured from time 0 */
		c->warmup_ms = 0;
		t = clampd(60 * rtt / 1000, 0.5, 2.0);
		break;
	default:
		t = clampd(150 * rtt / 1000, 1.0, 3.0);
		break;
	}
	/* faster links carry more packets per ms: keep events bounded */
	if (rate > 100)
		t = fmax(1.0, t * sqrt(100 / rate));
	t *= mx->time_scale * (b->quick ? 0.5 : 1);
	c->time_ms = fmax(0.5, t);

	if (kind == TK_RPC)
		snprintf(tc->name, sizeof(tc->name), "rpc-%u+%ub@%u%%/%s %gG/%gus",
			 flows, bulk, rpc_load,
			 prof >= 0 ? aicc_profile_desc[prof].name : "mixed",
			 rate, rtt);
	else
		snprintf(tc->name, sizeof(tc->name), "%s-%u/%s %gG/%gus",
			 tune_kind_name[kind], flows,
			 prof >= 0 ? aicc_profile_desc[prof].name : "mixed",
			 rate, rtt);
}

/*
 * The bench's stagger scenario on the VM testbed's own path
 * (tools/bench/testbed.sh), whatever the fabric: 20 Mbit/s, a base RTT
 * of 5.2 ms as measured there, RED marking at 30000 B in 400000 B, the
 * kernel's 200 ms minimum RTO; flows joining and leaving on aiccgen's
 * schedule (bulk -t 10 --stagger 1000 --leave for four flows: 10 s, the
 * flows 3 s / (flows - 1) apart) and Jain's index over the whole
 * interval where all are active, as aiccgen measures it.  A few flows
 * there share windows of a few packets, where the flow-scaling term is at
 * its largest; the fabric cases, with windows of tens of packets, never
 * pay for what that does to their sharing.  The connections are
 * persistent, as the bench's are: every handshake at time 0, so a late
 * flow does not take the others' queue for its base RTT.  Each
 * connection's handshake is up to 0.5 ms slow (uniform per flow), which
 * its base RTT keeps: the bench's traces (aicc:aicc_update) showed its
 * flows' base RTTs 0.06-0.56 ms above the path's for the whole run, set
 * while connecting.  How a table shares the link depends on that draw,
 * so the case runs at TB_DRAWS seeds, each weighing 1/TB_DRAWS.
 *
 * Before, the case ran a path scaled from the fabric (1/5000 of its
 * rate, 1000 times its RTT) for 60 base RTTs per flow and measured Jain
 * over 30 of them: the phase of the flows' few-packet sawtooths, 0.889
 * or 0.969 for the same table on the bench's path with 2 ms more
 * simulated time.  This case puts the tables the bench measured in the
 * bench's order (Documentation/tuning.rst, "The testbed case is the
 * bench").
 */
#define TB_RATE_GBIT	0.02
#define TB_RTT_US	5200
#define TB_BUFFER_KB	390
#define TB_ECN_KB	29
#define TB_MIN_RTO_US	200000
#define TB_TIME_MS	10000.0
#define TB_SPAN		0.3	/* of the time: the last flow's join */
#define TB_CONNECT_JITTER_US	500
#define TB_DRAWS	4
#define TB_SEED_STEP	1000

static void add_testbed(struct builder *b, int kind, double w, u32 flows,
			u32 msg_kb, int prof, u64 seed)
{
	struct tune_case *tc;
	struct sim_config *c;
	int n = b->set->n;
	u32 k;

	for (k = 0; k < TB_DRAWS; k++, n = b->set->n) {
		add(b, kind, w / TB_DRAWS, 1, 1, flows, msg_kb, prof,
		    seed + k * TB_SEED_STEP, 0, 0);
		if (b->set->n == n)
			return;
		tc = &b->set->c[n];
		c = &tc->cfg;
		c->topo = SIM_TOPO_STAR;
		c->rate_gbit = TB_RATE_GBIT;
		c->rtt_us = TB_RTT_US;
		c->buffer_kb = TB_BUFFER_KB;
		c->ecn_kb = TB_ECN_KB;
		c->min_rto_us = TB_MIN_RTO_US;
		c->ts_tick_us = 1000;	/* a stock kernel's millisecond clock */
		c->time_ms = TB_TIME_MS * b->mx->time_scale *
			     (b->quick ? 0.5 : 1);
		if (kind == TK_STAGGER && flows > 1)
			c->stagger_ms = c->time_ms * TB_SPAN / (flows - 1);
		c->preconnect = true;
		c->connect_jitter_us = TB_CONNECT_JITTER_US;
		tc->testbed = true;
		snprintf(tc->name, sizeof(tc->name), "%s-%u/%s testbed %u",
			 tune_kind_name[kind], flows,
			 prof >= 0 ? aicc_profile_desc[prof].name : "mixed",
			 k + 1);
	}
}

/*
 * Each training case again at other seeds (--draws): other jitter,
 * arrivals and start times, so that the optimiser fits the cases rather
 * than one draw of them.  The seeds step far past every set's own.  The
 * senders' start jitter (incast, all-to-all) changes its spread as well:
 * half, twice and one and a half times the case's own in the second to
 * fourth draw.  Another seed alone redraws starts that are just as close
 * together, and a 256-way re-tune that saw only those lost packets when
 * the starts were closer or further apart (Documentation/tuning.rst,
 * "Re-tuning for a fabric").
 */
#define DRAW_SEED_STEP	100000
static const u32 draw_jitter_pct[TUNE_MAX_DRAWS] = { 100, 50, 200, 150 };

static void add_draws(struct tune_set *set, u32 draws)
{
	int n = set->n, i;
	u32 k;

	for (k = 1; k < draws; k++) {
		for (i = 0; i < n && set->n < TUNE_MAX_CASES; i++) {
			struct tune_case *tc = &set->c[set->n++];
			size_t len;

			*tc = set->c[i];
			tc->cfg.seed += (u64)k * DRAW_SEED_STEP;
			tc->cfg.jitter_us = tc->cfg.jitter_us *
					    draw_jitter_pct[k] / 100;
			len = strlen(tc->name);
			snprintf(tc->name + len, sizeof(tc->name) - len,
				 " #%u", k + 1);
		}
	}
}

void build_set(struct tune_set *set, int profile,
	       const struct tune_fabric *fb, const struct tune_mix *mx,
	       bool held_out, bool quick)
{
	struct builder b = { set, fb, mx, quick };
	u32 F = fb->fan_in, M = mx->msg_kb, H = mx->hosts, L = mx->rpc_load;
	u32 BF = mx->bulk_flows;
	int P = profile;

	memset(set, 0, sizeof(*set));
	set->profile = profile;
	memcpy(set->term_w, profile_term_w[profile], sizeof(set->term_w));
	if (quick) {
		F = F > 16 ? 16 : F;
		H = H > 8 ? 8 : H;
	}

#define U(x)	((u32)(x) < 2 ? 2 : (u32)(x))
	switch (profile * 2 + held_out) {
	case AICC_PROF_COLL * 2:
		add(&b, TK_INCAST, 2, 1, 1, F, M, P, 1, L, BF);
		add(&b, TK_INCAST, 1, 1, 1, U(F / 4), M * 4, P, 2, L, BF);
		add(&b, TK_INCAST, 1, 2, 2, F, M, P, 3, L, BF);
		add(&b, TK_ALLTOALL, 2, 1, 1, H, U(M / 2), P, 4, L, BF);
		add(&b, TK_ALLREDUCE, 1, 1, 1, H, M * 8, P, 5, L, BF);
		add(&b, TK_STAGGER, 1, 1, 1, 4, M, P, 6, L, BF);
		add(&b, TK_LONG, 1, 1, 1, 1, M, P, 7, L, BF);
		add(&b, TK_LONG, 0.5, 4, 0.5, 1, M, P, 8, L, BF);
		add(&b, TK_RPC, 0.5, 1, 1, 8, M, P, 9, L, BF);
		add(&b, TK_START, 1, 1, 1, 2, M, P, 10, L, BF);
		add_testbed(&b, TK_STAGGER, 1, 4, M, P, 11);
		break;
	case AICC_PROF_COLL * 2 + 1:
		add(&b, TK_INCAST, 2, 1, 2, U(F * 3 / 2), U(M / 2), P, 101, L, BF);
		add(&b, TK_INCAST, 1, 2, 1, U(F / 2), M, P, 102, L, BF);
		add(&b, TK_ALLTOALL, 2, 1, 1, H + H / 2, U(M / 2), P, 103, L, BF);
		add(&b, TK_ALLREDUCE, 1, 1, 2, U(H * 3 / 4), M * 4, P, 104, L, BF);
		add(&b, TK_PIPELINE, 1, 1, 1, 4, M * 2, P, 105, L, BF);
		add(&b, TK_STAGGER, 1, 2, 1.5, 8, M, P, 106, L, BF);
		add(&b, TK_LONG, 1, 1, 1.5, 2, M, P, 107, L, BF);
		add(&b, TK_RPC, 0.5, 1, 1, 8, M, P, 108, L * 2, BF);
		add(&b, TK_START, 1, 2, 1.5, 2, M, P, 109, L, BF);
		add_testbed(&b, TK_STAGGER, 1, 6, M, P, 110);
		break;
	case AICC_PROF_LAT * 2:
		add(&b, TK_RPC, 3, 1, 1, 8, M, -1, 11, L, BF);
		add(&b, TK_RPC, 1, 1, 1, 8, M, P, 12, L * 2, BF);
		add(&b, TK_RPC, 1, 2, 2, 8, M, -1, 13, L, BF);
		add(&b, TK_INCAST, 1, 1, 1, F, U(M / 4), P, 14, L, BF);
		add(&b, TK_STAGGER, 1, 1, 1, 4, M, P, 15, L, BF);
		add(&b, TK_LONG, 1, 1, 1, 1, M, P, 16, L, BF);
		add(&b, TK_START, 1, 1, 1, 2, M, P, 17, L, BF);
		add_testbed(&b, TK_STAGGER, 1, 4, M, P, 18);
		break;
	case AICC_PROF_LAT * 2 + 1:
		add(&b, TK_RPC, 3, 1, 1, 16, M, -1, 201, L * 3 / 2, BF + 1);
		add(&b, TK_RPC, 1, 4, 0.5, 8, M, -1, 202, L, BF);
		add(&b, TK_RPC, 1, 1, 1.5, 8, M, P, 203, L * 3, BF);
		add(&b, TK_INCAST, 1, 1, 1, 2 * F, U(M / 8), P, 204, L, BF);
		add(&b, TK_STAGGER, 1, 2, 1, 6, M, P, 205, L, BF);
		add(&b, TK_LONG, 1, 1, 2, 2, M, P, 206, L, BF);
		add(&b, TK_START, 1, 2, 1.5, 2, M, P, 207, L, BF);
		add_testbed(&b, TK_STAGGER, 1, 6, M, P, 208);
		break;
	case AICC_PROF_BULK * 2:
		add(&b, TK_RPC, 3, 1, 1, 8, M, -1, 21, L, BF);
		add(&b, TK_RPC, 1, 1, 1, 8, M, -1, 22, L * 2, BF * 2);
		add(&b, TK_RPC, 1, 2, 2, 8, M, -1, 23, L, BF);
		add(&b, TK_LONG, 1, 1, 1, 1, M, P, 24, L, BF);
		add(&b, TK_STAGGER, 1, 1, 1, 4, M, P, 25, L, BF);
		add(&b, TK_LONG, 1, 2, 2, 4, M, P, 26, L, BF);
		add(&b, TK_START, 1, 1, 1, 2, M, P, 27, L, BF);
		add(&b, TK_INCAST, 1, 1, 1, U(F / 4), M * 4, P, 29, L, BF);
		add_testbed(&b, TK_STAGGER, 1, 4, M, P, 28);
		break;
	default:
		add(&b, TK_RPC, 3, 1, 1, 16, M, -1, 301, L * 3 / 2, BF + 1);
		add(&b, TK_RPC, 1, 4, 0.5, 8, M, -1, 302, L, BF);
		add(&b, TK_RPC, 1, 1, 1, 8, M, -1, 303, L * 5 / 2, 1);
		add(&b, TK_STAGGER, 1, 2, 1, 8, M, P, 304, L, BF);
		add(&b, TK_LONG, 1, 1, 1.5, 2, M, P, 305, L, BF);
		add(&b, TK_START, 1, 2, 1.5, 2, M, P, 306, L, BF);
		add(&b, TK_INCAST, 1, 1, 1.5, U(F / 2), M * 2, P, 308, L, BF);
		add_testbed(&b, TK_STAGGER, 1, 6, M, P, 307);
		break;
	}
#undef U
	if (!held_out && mx->draws > 1)
		add_draws(set, mx->draws);
}

/* ---- the objective ---- */

static double log_ratio(double v, double ideal)
{
	if (!(ideal > 0) || !(v > 0))
		return SLOW_NONE;
	return v > ideal ? log(v / ideal) : 0;
}

double case_objective(const struct tune_set *set, int i,
		      const struct sim_result *r, double *term)
{
	const struct tune_case *tc = &set->c[i];
	double t[TT_NR] = { 0 }, j = 0;
	int k, n;

	switch (tc->kind) {
	case TK_LONG:
	case TK_STAGGER:
	case TK_RPC:
	case TK_START:
		t[TT_SHORT] = r->util < 1 ? 1 - r->util : 0;
		break;
	default:
		break;
	}
	/*
	 * start: the peak, not the p99 -- fast start's overshoot is what the
	 * case is for, and in a few tens of RTTs the p99 is nearly the peak.
	 */
	t[TT_QUEUE] = r->base_rtt_us > 0 ?
		(tc->kind == TK_START ? r->q_max_us : r->q_p99_us) /
		r->base_rtt_us : 0;
	switch (tc->kind) {
	case TK_INCAST:
	case TK_ALLTOALL:
	case TK_ALLREDUCE:
	case TK_PIPELINE:
		if (!r->iters)
			t[TT_SLOW] = SLOW_NONE;
		else
			t[TT_SLOW] = 0.5 * log_ratio(r->cct_mean_us,
						     r->cct_ideal_us) +
				0.5 * log_ratio(r->cct_p99_us, r->cct_ideal_us);
		break;
	case TK_RPC:
		/*
		 * RPC size classes below 1 MB; bulk flows never complete.
		 * A class holds tens of RPCs, so p99 is nearly the maximum:
		 * the median steadies it.
		 */
		for (k = 0, n = 0; k < SIM_NR_FCT - 1; k++) {
			if (r->fct[k].count < 3)
				continue;
			t[TT_SLOW] += 0.5 * log_ratio(r->fct[k].sd_p50, 1) +
				0.5 * log_ratio(r->fct[k].sd_p99, 1);
			n++;
		}
		t[TT_SLOW] = n ? t[TT_SLOW] / n : SLOW_NONE;
		break;
	default:
		break;
	}
	if (tc->kind == TK_STAGGER || (tc->kind == TK_LONG &&
				       tc->cfg.flows > 1))
		t[TT_UNFAIR] = r->jain < 1 ? 1 - r->jain : 0;
	/*
	 * Losses past the cold start only (the measurement window and, for
	 * the collectives, after their first iteration): hundreds of flows
	 * starting at the initial window overflow any buffer whatever the
	 * knobs, and counting that would leave the term the same for every
	 * candidate of a high fan-in case.
	 */
	if (r->drops_warm || r->rtos_warm)
		t[TT_LOSS] = 1 + 0.25 * log2(1.0 + r->drops_warm) +
			0.5 * log2(1.0 + r->rtos_warm);
	for (k = 0; k < TT_NR; k++) {
		if (term)
			term[k] = t[k];
		j += set->term_w[k] * t[k];
	}
	return j;
}

double testbed_jain(const struct tune_set *set, const struct tune_eval *ev)
{
	double sw = 0, sj = 0;
	int i;

	for (i = 0; i < set->n; i++) {
		if (!set->c[i].testbed)
			continue;
		sw += set->c[i].weight;
		sj += set->c[i].weight * ev->jain[i];	/* a failed run: 0 */
	}
	return sw > 0 ? sj / sw : -1;
}

/*
 * The testbed cases are the simulator's copy of the bench's stagger
 * scenario, which orders tables as the bench does (Documentation/
 * tuning.rst, "The testbed case is the bench").  make tune's refinements
 * that gained on the objective by sharing them less fairly lost more in
 * the bench: aicc_lat on 6 December 2026, held-out 3.008 -> 2.993 with
 * the cases' Jain 0.999 -> 0.984, ten stagger-ab runs 0.994 -> 0.966.
 */
struct tune_gate_draw gate_draw(const struct tune_set *held,
				const struct tune_eval *start,
				const struct tune_eval *tuned)
{
	struct tune_gate_draw d = {
		{ start->obj, tuned->obj },
		{ testbed_jain(held, start), testbed_jain(held, tuned) },
	};

	return d;
}

bool gate_takes_tuned(const struct tune_set *held,
		      const struct tune_eval *start,
		      const struct tune_eval *tuned)
{
	struct tune_gate_draw d = gate_draw(held, start, tuned);

	return gate_takes_tuned_draws(&d, 1, NULL, NULL);
}

bool gate_takes_tuned_draws(const struct tune_gate_draw *d, int n,
			    double *mean_obj, double *mean_jain)
{
	double mo[2] = { 0, 0 }, mj[2] = { 0, 0 };
	bool jain = n > 0;
	int k, t;

	for (k = 0; k < n; k++) {
		for (t = 0; t < 2; t++) {
			mo[t] += d[k].obj[t] / n;
			mj[t] += d[k].jain[t] / n;
		}
		/* the same set at other seeds: testbed cases in all or none */
		if (d[k].jain[0] < 0 || d[k].jain[1] < 0)
			jain = false;
	}
	if (!jain) {
		mj[0] = -1;
		mj[1] = -1;
	}
	if (mean_obj)
		memcpy(mean_obj, mo, sizeof(mo));
	if (mean_jain)
		memcpy(mean_jain, mj, sizeof(mj));
	if (n < 1 || !(mo[1] < mo[0]))
		return false;
	return !jain || mj[1] >= mj[0] - TUNE_GATE_JAIN_SLACK;
}

int evaluate(const struct tune_set *set, int cc, const u32 *knobs,
	     struct tune_eval *ev)
{
	double sw = 0, sj = 0;
	int i, k;

	memset(ev, 0, sizeof(*ev));
	for (i = 0; i < set->n; i++) {
		const struct tune_case *tc = &set->c[i];
		struct sim_config c = tc->cfg;
		struct sim_result r;
		double j;

		c.cc = cc;
		if (cc == SIM_CC_AICC)
			c.knobs[set->profile] = knobs;
		else	/* a baseline: no aicc knobs at all */
			memset(c.knobs, 0, sizeof(c.knobs));
		memset(&r, 0, sizeof(r));
		if (sim_run(&c, &r)) {
			if (!ev->errors)
				snprintf(ev->err, sizeof(ev->err), "%s: %s",
					 tc->name, r.err);
			ev->errors++;
			j = FAIL_OBJ;
			for (k = 0; k < TT_NR; k++)
				ev->term[i][k] = NAN;
		} else {
			j = case_objective(set, i, &r, ev->term[i]);
			ev->util[i] = r.util;
			ev->q99_rtt[i] = ev->term[i][TT_QUEUE];
			ev->slow[i] = ev->term[i][TT_SLOW];
			ev->jain[i] = r.jain;
			ev->drops[i] = r.drops_warm;
			ev->rtos[i] = r.rtos_warm;
			ev->sim_events += r.events;
		}
		ev->cobj[i] = j;
		sw += tc->weight;
		sj += tc->weight * j;
	}
	ev->obj = sw > 0 ? sj / sw : FAIL_OBJ;
	return ev->errors ? -1 : 0;
}
