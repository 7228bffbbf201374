// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-train: train the learned policy's model in the simulator.
 *
 *   aicc-train [options] -o MODEL      train, write the blob, compare
 *   aicc-train --eval MODEL [options]  only the comparison (ablation)
 *   aicc-train --identity -o MODEL     a model whose outputs are all 0:
 *                                      it scales nothing (tests)
 *   aicc-train --identity --out-of-range -o MODEL
 *                                      ... trained on no input at all:
 *                                      every round falls back (tests)
 *
 * Method: evolution strategy over the network's weights -- an isotropic
 * (mu/mu_w, lambda)-ES with antithetic sampling and cumulative step-size
 * adaptation -- with aicc-tune's objective on aicc-tune's training set
 * (tools/tune/objective.c), the classic knobs fixed at the tuned profile.
 * Every candidate is quantised to the blob format first and run through
 * the kernel's own inference code (module/core/aicc_policy.c) inside the
 * simulator: what is scored is exactly what ships.  The search starts at
 * the classic controller (all outputs 0, every scale 1).  Deterministic
 * given the seed.
 *
 * The trained range of each input, which the kernel enforces, is what the
 * final model saw on the training set, widened by an eighth of its span on
 * each side.  The comparison runs tuned classic and tuned + model on the
 * held-out set, which training never sees.  See
 * Documentation/learned-policy.rst.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tune.h"
#include "aicc_policy.h"

#define PROG		"aicc-train"
#define MAX_DIM		(AICC_MODEL_MAX_HIDDEN * (AICC_MODEL_NR_IN + 3) + 2)
#define MAX_LAMBDA	64

/* errors and logged output: tools/tune/cli.c */
#define die		tune_die
#define out		tune_out
#define logf_		tune_log

/* ---- the network <-> the blob ---- */

/* Fixed input normalisation (Q12): inputs centred and scaled to ~[-1, 1]. */
static const s16 norm_off[AICC_MODEL_NR_IN] = {
	4096, 0, 2048, 2048, 6144, 8192, 4096, 2048,
};

static const s16 norm_gain[AICC_MODEL_NR_IN] = {
	4096, 16384, 8192, 8192, 4096, 2048, 2048, 8192,
};

static int nr_dim(int nh)
{
	return nh * AICC_MODEL_NR_IN + nh + AICC_MODEL_NR_OUT * nh +
	       AICC_MODEL_NR_OUT;
}

/* the largest shift (<= 15) at which weights and biases fit */
static int pick_shift(double wmax, double bmax)
{
	int s;

	for (s = AICC_MODEL_MAX_SHIFT; s > 0; s--)
		if (wmax * (1 << s) <= 127 &&
		    bmax * 4096.0 * (1 << s) <= AICC_MODEL_MAX_BIAS)
			break;
	return s;
}

static s32 qbias(double b, int shift)
{
	double v = nearbyint(b * 4096.0 * (1 << shift));

	if (v > AICC_MODEL_MAX_BIAS)
		v = AICC_MODEL_MAX_BIAS;
	if (v < -AICC_MODEL_MAX_BIAS)
		v = -AICC_MODEL_MAX_BIAS;
	return (s32)v;
}

static s8 qweight(double w, int shift)
{
	double v = nearbyint(w * (1 << shift));

	return (s8)(v > 127 ? 127 : v < -127 ? -127 : v);
}

/* theta: w1[nh][8], b1[nh], w2[2][nh], b2[2] */
static void quantise(const double *th, int nh, int profile,
		     struct aicc_model *m)
{
	const double *w1 = th, *b1 = w1 + nh * AICC_MODEL_NR_IN;
	const double *w2 = b1 + nh, *b2 = w2 + AICC_MODEL_NR_OUT * nh;
	double wm1 = 0, bm1 = 0, wm2 = 0, bm2 = 0;
	int i, j;

	memset(m, 0, sizeof(*m));
	m->n_in = AICC_MODEL_NR_IN;
	m->n_hidden = (u8)nh;
	m->n_out = AICC_MODEL_NR_OUT;
	m->profiles = (u8)(1 << profile);
	for (i = 0; i < nh * AICC_MODEL_NR_IN; i++)
		wm1 = fmax(wm1, fabs(w1[i]));
	for (i = 0; i < nh; i++)
		bm1 = fmax(bm1, fabs(b1[i]));
	for (i = 0; i < AICC_MODEL_NR_OUT * nh; i++)
		wm2 = fmax(wm2, fabs(w2[i]));
	for (i = 0; i < AICC_MODEL_NR_OUT; i++)
		bm2 = fmax(bm2, fabs(b2[i]));
	m->shift1 = (u8)pick_shift(wm1, bm1);
	m->shift2 = (u8)pick_shift(wm2, bm2);
	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		m->in_off[i] = norm_off[i];
		m->in_gain[i] = norm_gain[i];
		m->in_min[i] = -32768;
		m->in_max[i] = 32767;
	}
	for (j = 0; j < nh; j++) {
		for (i = 0; i < AICC_MODEL_NR_IN; i++)
			m->w1[j][i] = qweight(w1[j * AICC_MODEL_NR_IN + i],
					      m->shift1);
		m->b1[j] = qbias(b1[j], m->shift1);
		for (i = 0; i < AICC_MODEL_NR_OUT; i++)
			m->w2[i][j] = qweight(w2[i * nh + j], m->shift2);
	}
	for (i = 0; i < AICC_MODEL_NR_OUT; i++)
		m->b2[i] = qbias(b2[i], m->shift2);
}

static void write_model(const struct aicc_model *m, const char *file)
{
	u8 buf[AICC_MODEL_MAX_LEN];
	struct aicc_model back;
	const char *why = "";
	u32 len = aicc_model_write(m, buf, sizeof(buf));
	FILE *f;

	if (!len || aicc_model_parse(buf, len, &back, &why))
		die(1, "internal error: the model does not validate: %s", why);
	f = fopen(file, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die(1, "%s: %s", file, strerror(errno));
}

static void read_model(const char *file, struct aicc_model *m)
{
	u8 buf[AICC_MODEL_MAX_LEN + 1];
	const char *why = "";
	size_t n;
	FILE *f = fopen(file, "rb");

	if (!f)
		die(1, "%s: %s", file, strerror(errno));
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n > AICC_MODEL_MAX_LEN || aicc_model_parse(buf, (u32)n, m, &why))
		die(1, "%s: invalid model: %s",
		    file, n > AICC_MODEL_MAX_LEN ? "too large" : why);
}

/* ---- evaluation ---- */

struct run {
	struct tune_eval ev;
	u64 pol_evals, pol_classic, rounds;
};

static struct tune_set *set_with_model(const struct tune_set *set,
				       const struct aicc_model *m)
{
	static struct tune_set s;
	int i;

	s = *set;
	for (i = 0; i < s.n; i++)
		s.c[i].cfg.model = m;
	return &s;
}

static double run_set(const struct tune_set *set, const u32 *knobs,
		      const struct aicc_model *m, struct run *r)
{
	memset(r, 0, sizeof(*r));
	if (evaluate(set_with_model(set, m), SIM_CC_AICC, knobs, &r->ev))
		die(1, "simulation failed: %s", r->ev.err);
	return r->ev.obj;
}

/*
 * Per-case policy counters: one run per case (for the report only).
 * Returns false if the model had no round to decide.
 */
static bool case_policy(const struct tune_set *set, int i, const u32 *knobs,
			const struct aicc_model *m, double *share,
			double *fallback)
{
	struct sim_config c = set->c[i].cfg;
	struct sim_result r;
	u32 kn[AICC_NR_PROFILES][AICC_NR_KNOBS];
	int p;

	for (p = 0; p < AICC_NR_PROFILES; p++) {
		aicc_params_defaults(kn[p], p);
		c.knobs[p] = NULL;
	}
	memcpy(kn[set->profile], knobs, sizeof(kn[0]));
	c.knobs[set->profile] = kn[set->profile];
	c.cc = SIM_CC_AICC;
	c.model = m;
	memset(&r, 0, sizeof(r));
	*share = *fallback = 0;
	if (sim_run(&c, &r) || !(r.cc_pol_evals + r.cc_pol_classic))
		return false;
	*share = (double)r.cc_pol_evals /
		 (double)(r.cc_pol_evals + r.cc_pol_classic);
	*fallback = 1 - *share;
	return true;
}

/* ---- input range ---- */

static s16 obs_min[AICC_MODEL_NR_IN], obs_max[AICC_MODEL_NR_IN];
static long obs_n;

static void observe(const s16 *x)
{
	int i;

	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		if (x[i] < obs_min[i])
			obs_min[i] = x[i];
		if (x[i] > obs_max[i])
			obs_max[i] = x[i];
	}
	obs_n++;
}

static void learn_range(const struct tune_set *set, const u32 *knobs,
			struct aicc_model *m)
{
	struct run r;
	int i;

	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		obs_min[i] = 32767;
		obs_max[i] = -32768;
	}
	obs_n = 0;
	aicc_policy_observer = observe;
	run_set(set, knobs, m, &r);
	aicc_policy_observer = NULL;
	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		long span = (long)obs_max[i] - obs_min[i];
		long lo = obs_min[i] - span / 8, hi = obs_max[i] + span / 8;

		if (!obs_n) {
			lo = 0;
			hi = 0;
		}
		m->in_min[i] = (s16)(lo < -32768 ? -32768 : lo);
		m->in_max[i] = (s16)(hi > 32767 ? 32767 : hi);
	}
}

/* ---- the search ---- */

struct es {
	int d, lambda, mu;
	double w[MAX_LAMBDA], mueff, cs, ds, chin, sigma;
	double m[MAX_DIM], ps[MAX_DIM];
	double z[MAX_LAMBDA][MAX_DIM];
	struct tune_rng rng;
};

static void es_init(struct es *es, int d, int lambda, double sigma,
		    u64 seed)
{
	double sum = 0, sq = 0;
	int i;

	memset(es, 0, sizeof(*es));
	es->d = d;
	es->lambda = lambda;
	es->mu = lambda / 2;
	for (i = 0; i < es->mu; i++) {
		es->w[i] = log(es->mu + 0.5) - log(i + 1.0);
		sum += es->w[i];
	}
	for (i = 0; i < es->mu; i++) {
		es->w[i] /= sum;
		sq += es->w[i] * es->w[i];
	}
	es->mueff = 1 / sq;
	es->cs = (es->mueff + 2) / (d + es->mueff + 5);
	es->ds = 1 + 2 * fmax(0, sqrt((es->mueff - 1) / (d + 1)) - 1) +
		 es->cs;
	es->chin = sqrt(d) * (1 - 1.0 / (4 * d) + 1.0 / (21.0 * d * d));
	es->sigma = sigma;
	tune_rng_seed(&es->rng, seed);
}

static void es_sample(struct es *es)
{
	int k, i;

	for (k = 0; k < es->lambda; k += 2)
		for (i = 0; i < es->d; i++) {
			es->z[k][i] = tune_rng_normal(&es->rng);
			if (k + 1 < es->lambda)
				es->z[k + 1][i] = -es->z[k][i];
		}
}

static void es_point(const struct es *es, int k, double *x)
{
	int i;

	for (i = 0; i < es->d; i++)
		x[i] = es->m[i] + es->sigma * es->z[k][i];
}

static void es_update(struct es *es, const double *f)
{
	int idx[MAX_LAMBDA], i, j, k;
	double zw[MAX_DIM] = { 0 }, n2 = 0, c;

	for (k = 0; k < es->lambda; k++)
		idx[k] = k;
	for (i = 1; i < es->lambda; i++)	/* insertion sort, stable */
		for (j = i; j > 0 && f[idx[j]] < f[idx[j - 1]]; j--) {
			k = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = k;
		}
	for (k = 0; k < es->mu; k++)
		for (i = 0; i < es->d; i++)
			zw[i] += es->w[k] * es->z[idx[k]][i];
	c = sqrt(es->cs * (2 - es->cs) * es->mueff);
	for (i = 0; i < es->d; i++) {
		es->m[i] += es->sigma * zw[i];
		es->ps[i] = (1 - es->cs) * es->ps[i] + c * zw[i];
		n2 += es->ps[i] * es->ps[i];
	}
	es->sigma *= exp(es->cs / es->ds * (sqrt(n2) / es->chin - 1));
}

/* ---- the report ---- */

static void compare(const struct tune_set *set, const char *title,
		    const u32 *knobs, const struct aicc_model *m,
		    double *classic_obj, double *model_obj, int *worse)
{
	struct run rc, rm;
	int i;

	run_set(set, knobs, NULL, &rc);
	run_set(set, knobs, m, &rm);
	*worse = 0;
	out("\n== %s ==\n", title);
	out("%-34s %5s %9s %9s %7s %8s\n", "case (objective, lower is better)",
	    "w", "classic", "+model", "policy", "fallback");
	for (i = 0; i < set->n; i++) {
		double share, fb;

		char ps[16] = "-", fs[16] = "-";

		/* '-': the model had no round to decide (not tracking) */
		if (case_policy(set, i, knobs, m, &share, &fb)) {
			snprintf(ps, sizeof(ps), "%.0f%%", share * 100);
			snprintf(fs, sizeof(fs), "%.0f%%", fb * 100);
		}
		out("%-34s %5.3g %9.3f %9.3f %7s %8s\n",
		    set->c[i].name, set->c[i].weight, rc.ev.cobj[i],
		    rm.ev.cobj[i], ps, fs);
		if (rm.ev.cobj[i] > rc.ev.cobj[i] * 1.05 + 0.01)
			(*worse)++;
	}
	out("%-34s %5s %9.3f %9.3f\n", "weighted mean", "", rc.ev.obj,
	    rm.ev.obj);
	*classic_obj = rc.ev.obj;
	*model_obj = rm.ev.obj;
}

static void ablation(const struct tune_set *train, const struct tune_set *held,
		     const u32 *tuned, const u32 *defaults,
		     const struct aicc_model *m, const char *tuned_src)
{
	double c, mo, c2, mo2, c3, mo3;
	int w, w2, w3;
	bool wins;

	out("\nAblation: the classic controller alone vs the same knobs with the model.\n");
	out("'policy': share of the model's decision rounds it drove; 'fallback':\n");
	out("share it handed to the classic law (inputs out of range, watchdog).\n");
	compare(train, "training set, tuned knobs", tuned, m, &c, &mo, &w);
	compare(held, "held-out set, tuned knobs", tuned, m, &c2, &mo2, &w2);
	compare(held, "held-out set, shipped default knobs", defaults, m,
		&c3, &mo3, &w3);
	wins = mo2 < c2 * 0.98 && w2 <= 1 && mo3 <= c3;
	out("\nheld-out, tuned knobs (%s): classic %.3f, with model %.3f ",
	    tuned_src, c2, mo2);
	out("(%+.1f%%), %d case(s) worse by >5%% and >0.01\n", (mo2 / c2 - 1) * 100, w2);
	out("held-out, default knobs: classic %.3f, with model %.3f ", c3, mo3);
	out("(%+.1f%%), %d case(s) worse by >5%% and >0.01\n", (mo3 / c3 - 1) * 100, w3);
	out("verdict: %s\n", wins ?
	    "the model wins (>= 2% better on held-out, at most one case worse)" :
	    "the model does not win: ship it off (no model loaded by default)");
}

/* ---- main ---- */

static void print_usage(void)
{
	printf("usage: " PROG " [options] -o MODEL\n"
	       "       " PROG " --eval MODEL [options]\n"
	       "       " PROG " --identity [--out-of-range] -o MODEL\n"
	       "  --profile NAME      profile to train for (aicc)\n"
	       "  --knobs FILE        classic knobs (aicc-tune profile file;\n"
	       "                      default tools/tune/results/PROFILE.conf)\n"
	       "  --hidden N          hidden units, 1..32 (8)\n"
	       "  --generations G     (60)   --lambda L (16)   --sigma S (0.1)\n"
	       "  --seed S            (1)    --quick (small, short scenarios)\n"
	       "  --log FILE          the training log\n"
	       "  --name TEXT         the model's name, at most 24 printable ASCII\n"
	       "                      characters (<profile>-s<seed>)\n"
	       "  --note TEXT         a line for the log\n"
	       "See Documentation/learned-policy.rst.\n");
}

static long num(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi)
		die(2, "%s: '%s' is not a number in %ld..%ld", opt, s, lo, hi);
	return v;
}

/* a number in (@lo, @hi), all of @s: "0.1x" is refused, not read as 0.1 */
static double real(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !(v > lo && v < hi))
		die(2, "%s: '%s' is not a number in (%g, %g)", opt, s, lo, hi);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "profile", 1, NULL, 'P' }, { "knobs", 1, NULL, 'k' },
		{ "hidden", 1, NULL, 'H' }, { "generations", 1, NULL, 'g' },
		{ "lambda", 1, NULL, 'l' }, { "sigma", 1, NULL, 's' },
		{ "seed", 1, NULL, 'S' }, { "quick", 0, NULL, 'q' },
		{ "log", 1, NULL, 'L' }, { "name", 1, NULL, 'n' },
		{ "eval", 1, NULL, 'e' }, { "identity", 0, NULL, 'I' },
		{ "out-of-range", 0, NULL, 'R' }, { "note", 1, NULL, 'N' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *profile_name = "aicc", *knobs_file = NULL, *outf = NULL;
	const char *logfile = NULL, *name = NULL, *evalf = NULL, *note = NULL;
	int nh = 8, gens = 60, lambda = 16, profile, o, g, k, d;
	double sigma0 = 0.1, f[MAX_LAMBDA], best_f, x[MAX_DIM];
	double best_x[MAX_DIM];
	bool quick = false, identity = false, oor = false;
	u64 seed = 1;
	u32 knobs[AICC_NR_PROFILES][AICC_NR_KNOBS], defaults[AICC_NR_KNOBS];
	bool have[AICC_NR_PROFILES][AICC_NR_KNOBS];
	struct tune_fabric fb;
	struct tune_mix mx;
	static struct tune_set train, held;
	struct aicc_model m;
	struct es *es;
	char why[200], path[256], kname[AICC_MODEL_NAME_LEN + 1];
	clock_t t0 = clock();
	long evals = 0;

	tune_prog = PROG;
	while ((o = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (o) {
		case 'P':
			profile_name = optarg;
			break;
		case 'k':
			knobs_file = optarg;
			break;
		case 'H':
			nh = (int)num("--hidden", optarg, 1,
				      AICC_MODEL_MAX_HIDDEN);
			break;
		case 'g':
			gens = (int)num("--generations", optarg, 0, 100000);
			break;
		case 'l':
			lambda = (int)num("--lambda", optarg, 4, MAX_LAMBDA);
			break;
		case 's':
			sigma0 = real("--sigma", optarg, 0, 10);
			break;
		case 'S':
			seed = (u64)num("--seed", optarg, 0, 1L << 30);
			break;
		case 'q':
			quick = true;
			break;
		case 'L':
			logfile = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 'e':
			evalf = optarg;
			break;
		case 'I':
			identity = true;
			break;
		case 'R':
			oor = true;
			break;
		case 'N':
			note = optarg;
			break;
		case 'o':
			outf = optarg;
			break;
		case 'h':
			print_usage();
			return 0;
		default:
			print_usage();
			return 2;
		}
	}
	if (optind < argc)
		die(2, "unexpected argument '%s' (try --help)", argv[optind]);
	profile = sim_parse_profile(profile_name);
	if (profile < 0)
		die(2, "--profile: unknown profile '%s'", profile_name);
	if (lambda % 2)
		die(2, "--lambda: must be even (antithetic pairs)");
	if (name && strlen(name) > AICC_MODEL_NAME_LEN)
		die(2, "--name: longer than %d characters", AICC_MODEL_NAME_LEN);
	/* what the parser (aicc_model.c) takes: here, not after training */
	for (k = 0; name && name[k]; k++)
		if ((u8)name[k] < 0x20 || (u8)name[k] > 0x7e)
			die(2, "--name: byte 0x%02x at %d is not printable ASCII",
			    (u8)name[k], k);
	if (!evalf && !outf)
		die(2, "no output: give -o MODEL (or --eval MODEL)");
	d = nr_dim(nh);

	if (identity) {
		memset(x, 0, sizeof(x));
		quantise(x, nh, profile, &m);
		m.profiles = 7;
		strcpy(m.name, oor ? "out-of-range" : "identity");
		if (oor) {
			/* queueing delay is never below -8 x target */
			m.in_min[AICC_MI_QDELAY] = -32768;
			m.in_max[AICC_MI_QDELAY] = -32768;
		}
		write_model(&m, outf);
		return 0;
	}

	if (!knobs_file) {
		snprintf(path, sizeof(path), "tools/tune/results/%s.conf",
			 profile_name);
		knobs_file = path;
	}
	if (read_profile(knobs_file, knobs, have, why, sizeof(why)))
		die(1, "%s: %s", knobs_file, why);
	aicc_params_defaults(defaults, profile);
	for (k = 0; k < AICC_NR_KNOBS; k++)
		if (!have[profile][k])
			knobs[profile][k] = defaults[k];
	fabric_defaults(&fb);
	mix_defaults(&mx);
	build_set(&train, profile, &fb, &mx, false, quick);
	build_set(&held, profile, &fb, &mx, true, quick);

	if (logfile) {
		logf_ = fopen(logfile, "w");
		if (!logf_)
			die(1, "%s: %s", logfile, strerror(errno));
	}

	if (evalf) {
		read_model(evalf, &m);
		out("# " PROG " --eval %s (profile %s, knobs %s%s)\n", evalf,
		    profile_name, knobs_file, quick ? ", quick" : "");
		ablation(&train, &held, knobs[profile], defaults, &m,
			 knobs_file);
		return 0;
	}

	out("# " PROG " --profile %s --hidden %d --generations %d", profile_name,
	    nh, gens);
	out(" --lambda %d --sigma %g --seed %llu%s\n", lambda, sigma0,
	    (unsigned long long)seed, quick ? " --quick" : "");
	if (note)
		out("# %s\n", note);
	out("# classic knobs: %s; %d weights; ES (mu/mu_w, lambda) with CSA, antithetic\n",
	    knobs_file, d);
	out("# training set: %d cases; held-out: %d cases (never used in training)\n",
	    train.n, held.n);

	es = calloc(1, sizeof(*es));
	if (!es)
		die(1, "out of memory");
	es_init(es, d, lambda, sigma0, seed);
	/*
	 * Start: hidden weights random (distinct features), outputs zero --
	 * the classic controller exactly.
	 */
	for (k = 0; k < nh * AICC_MODEL_NR_IN; k++)
		es->m[k] = 0.5 * tune_rng_normal(&es->rng);
	memcpy(best_x, es->m, sizeof(best_x));
	{
		struct run r;

		quantise(es->m, nh, profile, &m);
		best_f = run_set(&train, knobs[profile], &m, &r);
		evals++;
		out("start (the classic controller): train objective %.4f\n",
		    best_f);
	}
	for (g = 1; g <= gens; g++) {
		double mean = 0, gbest = 1e300;

		es_sample(es);
		for (k = 0; k < lambda; k++) {
			struct run r;

			es_point(es, k, x);
			quantise(x, nh, profile, &m);
			f[k] = run_set(&train, knobs[profile], &m, &r);
			evals++;
			mean += f[k] / lambda;
			if (f[k] < gbest)
				gbest = f[k];
			if (f[k] < best_f) {
				best_f = f[k];
				memcpy(best_x, x, sizeof(best_x));
			}
		}
		es_update(es, f);
		out("gen %3d evals %5ld  best %.4f  mean %.4f  sigma %.4f  best-so-far %.4f\n",
		    g, evals, gbest, mean, es->sigma, best_f);
	}
	/* the mean of the final distribution may beat every sample */
	{
		struct run r;
		double fm;

		quantise(es->m, nh, profile, &m);
		fm = run_set(&train, knobs[profile], &m, &r);
		evals++;
		out("final mean: train objective %.4f\n", fm);
		if (fm < best_f) {
			best_f = fm;
			memcpy(best_x, es->m, sizeof(best_x));
		}
	}
	quantise(best_x, nh, profile, &m);
	if (!name) {
		snprintf(kname, sizeof(kname), "%s-s%llu", profile_name,
			 (unsigned long long)seed);
		name = kname;
	}
	snprintf(m.name, sizeof(m.name), "%s", name);
	learn_range(&train, knobs[profile], &m);
	out("model '%s': %d-%d-%d, shifts %u/%u; training objective %.4f\n",
	    m.name, AICC_MODEL_NR_IN, nh, AICC_MODEL_NR_OUT, m.shift1,
	    m.shift2, best_f);
	out("trained input ranges (Q12, from %ld rounds, widened by 1/8 span):", obs_n);
	for (k = 0; k < AICC_MODEL_NR_IN; k++)
		out(" [%d,%d]", m.in_min[k], m.in_max[k]);
	out("\n");
	write_model(&m, outf);
	{
		u8 buf[AICC_MODEL_MAX_LEN];
		u32 len = aicc_model_write(&m, buf, sizeof(buf));

		out("wrote %s: %u bytes, crc32 %08x\n", outf, len,
		    aicc_model_crc32(buf, len - 4));
	}
	ablation(&train, &held, knobs[profile], defaults, &m, knobs_file);
	out("\n# %ld training evaluations; %.0f s CPU\n", evals,
	    (double)(clock() - t0) / CLOCKS_PER_SEC);
	free(es);
	if (logf_)
		fclose(logf_);
	return 0;
}
