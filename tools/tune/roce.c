// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-tune --roce: learn aicc_roce's rate-law knobs (the mlx5-named rp_*
 * and np_* knobs and the law choice cc_algo) in the RoCE model of the
 * simulator (tools/sim/roce.c), with the same CMA-ES, seeds and
 * determinism as the TCP profiles (Documentation/tuning.rst).
 *
 * The objective of a knob set is the weighted mean of
 * sim_roce_case_score() over a scenario set (higher is better, 1 ideal),
 * less ROCE_FLOOR_W per unit of goodput a case falls below the set's
 * goodput floor (0, the default, leaves sim_roce_case_score() alone);
 * CMA-ES minimises its negation.  The training set is incasts of 2 to 16
 * QPs, a larger MTU with a short send window, and one long-RTT QP; the
 * held-out set has other QP counts, rates, RTTs, MTUs and ECN thresholds,
 * and the optimiser never sees it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

/*
 * Search ranges, in knob units (rates Mbit/s, times us).  The scenarios
 * run at Soft-RoCE scale (20 to 50 Mbit/s, 0.5 to 4 ms), so rate steps
 * are searched up to a few bottlenecks' worth.  Not searched: np_enable,
 * ecn_mark, icrc_check, flow_timeout_ms (switches, not laws), rp_max_rate
 * (a cap), rp_byte_reset (the time trigger covers it),
 * rp_rate_to_set_on_first_cnp (a fixed rate cannot suit every fabric), the
 * CNP's DSCP and priority (the model has one class).
 */
const struct tune_dim roce_dims[] = {
	{ AICC_RK_CC_ALGO,		1,	2,	false },
	{ AICC_RK_AICC_PROFILE,		0,	2,	false },
	{ AICC_RK_RP_MIN_RATE,		1,	10,	true },
	{ AICC_RK_RP_AI_RATE,		1,	20,	true },
	{ AICC_RK_RP_HAI_RATE,		1,	100,	true },
	{ AICC_RK_RP_TIME_RESET,	100,	50000,	true },
	{ AICC_RK_RP_THRESHOLD,		1,	15,	false },
	{ AICC_RK_RP_MIN_DEC_FAC,	10,	90,	false },
	{ AICC_RK_RP_GD,		7,	13,	false },
	{ AICC_RK_RP_DCE_TCP_G,		768,	1023,	false },
	{ AICC_RK_RP_DCE_TCP_RTT,	100,	50000,	true },
	{ AICC_RK_RP_REDUCE_PERIOD,	100,	50000,	true },
	{ AICC_RK_RP_INITIAL_ALPHA,	128,	1023,	false },
	{ AICC_RK_NP_MIN_TIME_CNPS,	50,	50000,	true },
};

const int roce_nr_dims = TUNE_NR(roce_dims);

/* One scenario: QPs, Mbit/s, base RTT us, payload, window, ECN and buffer KB */
struct roce_scen {
	const char *name;
	u32 flows;
	double rate, rtt;
	u32 payload, window, ecn_kb, buffer_kb;
	double weight;
};

static const struct roce_scen roce_train[] = {
	{ "incast-2qp",		2,  20, 2000, 1024, 128, 30, 400, 1 },
	{ "incast-4qp",		4,  20, 2000, 1024, 128, 30, 400, 1 },
	{ "incast-8qp",		8,  20, 2000, 1024, 128, 30, 400, 1 },
	{ "incast-16qp-50M",	16, 50, 1000, 1024, 128, 50, 600, 1 },
	{ "mtu4k-win32-4qp",	4,  20, 2000, 4096, 32,  30, 400, 1 },
	{ "single-50M-4ms",	1,  50, 4000, 1024, 128, 30, 400, 0.5 },
};

static const struct roce_scen roce_held[] = {
	{ "incast-3qp-30M-3ms",	3,  30, 3000, 1024, 128, 40, 400, 1 },
	{ "incast-6qp-40M-mtu2k", 6, 40, 1500, 2048, 64,  40, 500, 1 },
	{ "incast-12qp-25M-ecn20", 12, 25, 500, 1024, 128, 20, 200, 1 },
	{ "mtu2k-win64-2qp-35M", 2, 35, 2500, 2048, 64,  30, 400, 1 },
};

static void add_cases(struct roce_set *set, const struct roce_scen *sc,
		      int n, bool quick)
{
	int i;

	for (i = 0; i < n && set->n < TUNE_MAX_CASES; i++) {
		struct roce_case *c = &set->c[set->n];

		snprintf(c->name, sizeof(c->name), "%s", sc[i].name);
		c->weight = sc[i].weight;
		sim_roce_defaults(&c->cfg);
		c->cfg.flows = sc[i].flows;
		c->cfg.rate_mbit = sc[i].rate;
		c->cfg.rtt_us = sc[i].rtt;
		c->cfg.payload = sc[i].payload;
		c->cfg.window = sc[i].window;
		c->cfg.ecn_kb = sc[i].ecn_kb;
		c->cfg.buffer_kb = sc[i].buffer_kb;
		/* flows start 1 ms apart: leave each enough time after that */
		c->cfg.time_ms = (quick ? 600 : 1500) + sc[i].flows;
		c->cfg.seed = 1 + set->n;
		set->n++;
	}
}

void roce_build_set(struct roce_set *set, bool held_out, bool quick,
		    double floor)
{
	memset(set, 0, sizeof(*set));
	set->goodput_floor = floor;
	if (held_out)
		add_cases(set, roce_held, TUNE_NR(roce_held), quick);
	else
		add_cases(set, roce_train, TUNE_NR(roce_train), quick);
}

int roce_evaluate(const struct roce_set *set, const u32 *knobs,
		  struct roce_eval *ev)
{
	double sum = 0, wsum = 0;
	int i;

	memset(ev, 0, sizeof(*ev));
	for (i = 0; i < set->n; i++) {
		struct sim_roce_config c = set->c[i].cfg;

		memcpy(c.knobs, knobs, sizeof(c.knobs));
		if (sim_roce_run(&c, &ev->r[i])) {
			if (!ev->errors++)
				snprintf(ev->err, sizeof(ev->err), "%s: %s",
					 set->c[i].name, ev->r[i].err);
			ev->cscore[i] = ROCE_FAIL_SCORE;
		} else {
			double gap = set->goodput_floor - ev->r[i].goodput;

			ev->cscore[i] = sim_roce_case_score(&c, &ev->r[i]);
			if (gap > 0)
				ev->cscore[i] -= ROCE_FLOOR_W * gap;
		}
		sum += set->c[i].weight * ev->cscore[i];
		wsum += set->c[i].weight;
	}
	ev->score = wsum > 0 ? sum / wsum : ROCE_FAIL_SCORE;
	return ev->errors ? -1 : 0;
}

/* x in the unit box (may lie outside) -> all knobs; returns the penalty */
double roce_to_knobs(const u32 *base, const double *x,
		     u32 knobs[AICC_ROCE_NR_KNOBS])
{
	double pen = 0;
	int i;

	memcpy(knobs, base, sizeof(u32) * AICC_ROCE_NR_KNOBS);
	for (i = 0; i < roce_nr_dims; i++) {
		double c = x[i] < 0 ? 0 : x[i] > 1 ? 1 : x[i];

		pen += (x[i] - c) * (x[i] - c);
		knobs[roce_dims[i].knob] = (u32)space_value(&roce_dims[i], c);
	}
	return pen;
}

void roce_from_knobs(const u32 *knobs, double *x)
{
	int i;

	for (i = 0; i < roce_nr_dims; i++)
		x[i] = space_to_unit(&roce_dims[i], knobs[roce_dims[i].knob]);
}

bool roce_searched(int knob)
{
	return space_has_knob(roce_dims, roce_nr_dims, knob);
}

int roce_knobs_valid(const u32 knobs[AICC_ROCE_NR_KNOBS], char *why,
		     size_t len)
{
	int i;

	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		const struct aicc_roce_knob_desc *k = &aicc_roce_knob_desc[i];

		if (roce_knob_check((unsigned int)i, knobs[i])) {
			snprintf(why, len, "%s = %u outside %u..%u", k->name,
				 knobs[i], k->min, k->max);
			return -1;
		}
	}
	return 0;
}

struct roce_file {
	u32 knobs[AICC_ROCE_NR_KNOBS];
	bool have[AICC_ROCE_NR_KNOBS];	/* seen in the file */
};

/* One KNOB = VALUE line of read_roce_file(). */
static int roce_line(void *ctx, const struct tune_kv_pos *at, char *name,
		     char *val)
{
	struct roce_file *rf = ctx;
	int k;

	for (k = 0; k < AICC_ROCE_NR_KNOBS; k++)
		if (!strcmp(name, aicc_roce_knob_desc[k].name))
			break;
	if (k == AICC_ROCE_NR_KNOBS) {
		snprintf(at->why, at->len, "%s:%d: unknown RoCE knob '%s'",
			 at->file, at->ln, name);
		return -1;
	}
	return tune_kv_knob(at, name, val, roce_knob_check, (unsigned int)k,
			    aicc_roce_knob_desc[k].min,
			    aicc_roce_knob_desc[k].max, &rf->have[k],
			    &rf->knobs[k]);
}

int read_roce_file(const char *file, u32 knobs[AICC_ROCE_NR_KNOBS],
		   char *why, size_t len)
{
	struct roce_file rf;

	memcpy(rf.knobs, knobs, sizeof(rf.knobs));
	memset(rf.have, 0, sizeof(rf.have));
	if (tune_kv_file(file, "KNOB = VALUE", roce_line, &rf, why, len))
		return -1;
	memcpy(knobs, rf.knobs, sizeof(rf.knobs));
	return 0;
}

int write_roce_file(const char *file, const u32 knobs[AICC_ROCE_NR_KNOBS],
		    const char *header, char *why, size_t len)
{
	const char *name[AICC_ROCE_NR_KNOBS], *desc[AICC_ROCE_NR_KNOBS];
	u32 val[AICC_ROCE_NR_KNOBS], dcqcn[AICC_ROCE_NR_KNOBS];
	int i, n = 0;

	if (roce_knobs_valid(knobs, why, len))
		return -1;
	roce_params_defaults(dcqcn);
	/*
	 * The searched knobs, then every other one off DCQCN's default (a
	 * --start file's): the run scored them, so the file applies them.
	 */
	for (i = 0; i < roce_nr_dims + AICC_ROCE_NR_KNOBS; i++) {
		int kn = i < roce_nr_dims ? roce_dims[i].knob :
			 i - roce_nr_dims;

		if (i >= roce_nr_dims &&
		    (roce_searched(kn) || knobs[kn] == dcqcn[kn]))
			continue;
		name[n] = aicc_roce_knob_desc[kn].name;
		desc[n] = aicc_roce_knob_desc[kn].desc;
		val[n++] = knobs[kn];
	}
	return tune_write_knobs(file, header, "", n, name, val, desc, 40, why,
				len);
}

/* ev[n]: one set under n labelled knob sets */
void roce_print_table(FILE *f, const struct roce_set *set,
		      const struct roce_eval *ev, const char *const *label,
		      int n)
{
	const char *name[TUNE_MAX_CASES];
	double w[TUNE_MAX_CASES], v[TUNE_MAX_LABELS][TUNE_MAX_CASES + 1];
	int i, j;

	if (n > TUNE_MAX_LABELS)
		n = TUNE_MAX_LABELS;
	for (i = 0; i < set->n; i++) {
		name[i] = set->c[i].name;
		w[i] = set->c[i].weight;
		for (j = 0; j < n; j++)
			v[j][i] = ev[j].cscore[i];
	}
	for (j = 0; j < n; j++)
		v[j][set->n] = ev[j].score;
	print_scores(f, "case (score, higher is better)", set->n, name, w, n,
		     label, v);
	fprintf(f, "\nper case: goodput (of the bottleneck), queue delay "
		"p99 / base RTT, Jain, drops, go-back-N timeouts, CNPs\n");
	for (i = 0; i < set->n; i++) {
		fprintf(f, "  %s\n", set->c[i].name);
		for (j = 0; j < n; j++) {
			const struct sim_roce_result *r = &ev[j].r[i];

			fprintf(f, "    %-8s  goodput %.3f  q99 %6.2f RTT  "
				"jain %.3f  drops %llu  timeouts %llu  cnps %llu\n",
				label[j], r->goodput,
				r->qdelay_p99_us / set->c[i].cfg.rtt_us, r->jain,
				(unsigned long long)r->drops,
				(unsigned long long)r->timeouts,
				(unsigned long long)r->cnps);
		}
	}
}
