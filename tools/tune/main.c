// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-tune: learn one aicc profile's knobs for a fabric, in the simulator.
 *
 *   aicc-tune --profile aicc [fabric and budget options] -o profile.conf
 *   aicc-tune --defaults-h OUT.h [--source TEXT] FILE.conf ...
 *   aicc-tune --roce [budget options] -o roce.conf
 *
 * See Documentation/tuning.rst.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tune.h"

#define PROG	"aicc-tune"

#define die(...)	tune_die(1, __VA_ARGS__)
#define out		tune_out
#define logf_		tune_log

static void die_usage(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tune_die(2, "%s (try --help)", msg);
}

/* One line per CMA-ES generation (best, mean and best so far). */
static void log_gen(const struct cmaes *es, int g, double gbest, double mean,
		    double best)
{
	out("gen %3d evals %5ld  best %.4f  mean %.4f  sigma %.4f  "
	    "cond %.1f  best-so-far %.4f\n", g + 1, es->evals, gbest, mean,
	    es->sigma, cmaes_cond(es), best);
}

static void usage(void)
{
	printf("usage: " PROG " --profile NAME [options] [-o FILE]\n"
	       "       " PROG " --defaults-h OUT.h [--source TEXT] FILE.conf...\n"
	       "       " PROG " --roce [budget and output options] [-o FILE]\n"
	       "         [--goodput-floor F] (aicc_roce's knobs; FILE is for\n"
	       "         'aicc rdma set --file' and 'aicc rdma export --file')\n"
	       "fabric:  --rate-gbit R (100)  --rtt-us U (10)  --hops N (2)\n"
	       "         --buffer-kb B (1024)  --ecn-kb K (100)  --fan-in N (32)\n"
	       "         --min-rto-us U (200)  --ts-tick-us U (1000)\n"
	       "         --kernel-pacing (the simulator paces as Linux does)\n"
	       "         --tlp (the simulator sends tail-loss probes)\n"
	       "         --workload MIX.conf\n"
	       "budget:  --generations G (30)  --lambda L (12)  --sigma S (0.2)\n"
	       "         --seed S (1)  --quick (smaller, shorter scenarios)\n"
	       "         --case-seed N (0: shift every scenario's seed by N)\n"
	       "         --draws N (1: run each training case at N seeds)\n"
	       "         --held-out-gate (the result is the start unless the\n"
	       "         tuned knobs do better on the held-out set and share\n"
	       "         its testbed cases as fairly)\n"
	       "         --gate-draws N (4, 1..8; with --held-out-gate: the\n"
	       "         held-out set at N seeds, the means compared)\n"
	       "start:   --start FILE (profile file, with --roce a RoCE knob file;\n"
	       "         default: built-in defaults, with --roce DCQCN's)\n"
	       "output:  -o FILE (profile file)  --log FILE  --no-baselines\n"
	       "         --note TEXT (a line for the log and the file)\n"
	       "compare: --eval FILE (no search: FILE's knobs as 'tuned')\n"
	       "See Documentation/tuning.rst.\n");
}

static double num_arg(const char *opt, const char *s, double lo, double hi,
		      bool whole)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi) ||
	    (whole && v != floor(v)))
		die_usage("%s: '%s' is not a %s in %g..%g", opt, s,
			  whole ? "whole number" : "number", lo, hi);
	return v;
}

/*
 * A numeric option: its range, whether it takes only whole numbers, and
 * where its value goes (one of d, u, i, q).
 */
struct num_opt {
	int opt;
	double lo, hi;
	bool whole;
	double *d;
	u32 *u;
	int *i;
	u64 *q;
};

/*
 * If @opt is one of the @n numeric options in @no, parses optarg into its
 * variable (exits on a bad value) and returns true.
 */
static bool num_opt_set(const struct num_opt *no, int n, int opt,
			const char *name)
{
	char flag[64];
	double v;

	for (; n && no->opt != opt; n--)
		no++;
	if (!n)
		return false;
	snprintf(flag, sizeof(flag), "--%s", name);
	v = num_arg(flag, optarg, no->lo, no->hi, no->whole);
	if (no->d)
		*no->d = v;
	else if (no->u)
		*no->u = (u32)v;
	else if (no->i)
		*no->i = (int)v;
	else
		*no->q = (u64)v;
	return true;
}

/*
 * The command line as the log's and the output file's header give it, on
 * one comment line: control characters as \xHH (a newline would end the
 * comment), cut at CMDLINE_MAX characters with a marker so that the line
 * stays within what 'aicc profile load' (1023 characters) and 'aicc rdma
 * set --file' (511) read.
 */
#define CMDLINE_MAX	400

/* Appends @s to @buf (@n characters used) if it fits in @room. */
static bool put_str(char *buf, size_t *n, size_t room, const char *s)
{
	size_t l = strlen(s);

	if (*n + l > room)
		return false;
	memcpy(buf + *n, s, l + 1);
	*n += l;
	return true;
}

static void cmdline_text(char buf[CMDLINE_MAX + 1], int argc, char **argv)
{
	static const char cut[] = " ...(cut)";
	size_t n = 0;
	const char *s;
	char c[8];
	int i;

	buf[0] = '\0';
	for (i = 1; i < argc; i++) {
		if (i > 1 && !put_str(buf, &n, CMDLINE_MAX, " "))
			goto cut;
		for (s = argv[i]; *s; s++) {
			unsigned char u = (unsigned char)*s;

			if (u < 0x20 || u == 0x7f)
				snprintf(c, sizeof(c), "\\x%02x", u);
			else
				snprintf(c, sizeof(c), "%c", u);
			if (!put_str(buf, &n, CMDLINE_MAX, c))
				goto cut;
		}
	}
	return;
cut:
	n = n < CMDLINE_MAX - strlen(cut) ? n : CMDLINE_MAX - strlen(cut);
	/* not half a UTF-8 character */
	while (n && ((unsigned char)buf[n - 1] & 0x80))
		n--;
	strcpy(buf + n, cut);
}

/*
 * Once the inputs are known good, before any work: the log opened and the
 * output file found writable (either NULL: none).
 */
static void open_outputs(const char *file, const char *outf)
{
	char why[4400];

	if (outf && tune_probe_out(outf, why, sizeof(why)))
		die("%s", why);
	if (!file)
		return;
	logf_ = fopen(file, "w");
	if (!logf_)
		die("%s: %s", file, strerror(errno));
}

static double cpu_s(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

static int defaults_h_main(const char *outf, const char *source, int nf,
			   char **files)
{
	u32 kn[AICC_NR_PROFILES][AICC_NR_KNOBS];
	bool have[AICC_NR_PROFILES][AICC_NR_KNOBS];
	char why[300];
	int p, i;

	memset(have, 0, sizeof(have));
	for (p = 0; p < AICC_NR_PROFILES; p++)
		aicc_params_defaults(kn[p], p);
	for (i = 0; i < nf; i++) {
		bool h[AICC_NR_PROFILES][AICC_NR_KNOBS];
		int k;

		memset(h, 0, sizeof(h));
		if (read_profile(files[i], kn, h, why, sizeof(why)))
			die("%s", why);
		for (p = 0; p < AICC_NR_PROFILES; p++)
			for (k = 0; k < AICC_NR_KNOBS; k++) {
				if (h[p][k] && have[p][k])
					die("%s: %s.%s also set by an earlier file",
					    files[i], aicc_profile_desc[p].name,
					    aicc_knob_desc[k].name);
				have[p][k] |= h[p][k];
			}
	}
	if (write_defaults_h(outf, (const u32 (*)[AICC_NR_KNOBS])kn, source,
			     why, sizeof(why)))
		die("%s", why);
	return 0;
}

/*
 * One profile's knobs from a profile file (others' lines are checked too);
 * with @all, every knob the file sets replaces @all's (the other profiles'
 * knobs for the mixed scenarios: --start's over the built-in ones, then
 * --eval's over those).  A start's inconsistent pairs are repaired as the search's are; with
 * @eval the file is scored as it is: one that sets none of the profile's
 * knobs, or a pair 'aicc profile load' refuses, is an error.
 */
static void load_knobs(const char *file, int profile, u32 *out,
		       u32 (*all)[AICC_NR_KNOBS], bool eval)
{
	u32 kn[AICC_NR_PROFILES][AICC_NR_KNOBS];
	bool have[AICC_NR_PROFILES][AICC_NR_KNOBS];
	char why[300];
	int i, k;

	memset(have, 0, sizeof(have));
	for (i = 0; i < AICC_NR_PROFILES; i++)
		aicc_params_defaults(kn[i], i);
	if (read_profile(file, kn, have, why, sizeof(why)))
		die("%s", why);
	if (eval && !memchr(have[profile], true, sizeof(have[profile])))
		die("%s: no %s.* line: nothing of profile %s to evaluate",
		    file, aicc_profile_desc[profile].name,
		    aicc_profile_desc[profile].name);
	for (i = 0; all && i < AICC_NR_PROFILES; i++)
		for (k = 0; k < AICC_NR_KNOBS; k++)
			if (have[i][k])
				all[i][k] = kn[i][k];
	/* what 'aicc profile load' refuses of the file's other profiles */
	for (i = 0; eval && i < AICC_NR_PROFILES; i++)
		if (i != profile &&
		    memchr(have[i], true, sizeof(have[i])) &&
		    knobs_valid(kn[i], why, sizeof(why)))
			die("%s: %s.%s", file, aicc_profile_desc[i].name, why);
	memcpy(out, kn[profile], sizeof(kn[profile]));
	if (!eval)
		space_repair(out);
	if (knobs_valid(out, why, sizeof(why)))
		die("%s: %s.%s", file, aicc_profile_desc[profile].name, why);
}

/*
 * The knobs the profiles other than the tuned one run with, in scenarios
 * that mix profiles: --start's, so that a run from a recorded start file
 * does not depend on the table the module ships (the run's own result);
 * with --eval, FILE's where it sets them.
 */
static u32 start_all[AICC_NR_PROFILES][AICC_NR_KNOBS];

/*
 * Every case as the fabric and the mix scaled it must be one the
 * simulator runs (the cases run at multiples of the link rate, the RPC
 * load, the time): a bad option is an error before any work, naming the
 * case, not after the cases before it ran.
 */
static void check_set(const struct tune_set *set)
{
	char why[256];
	int i;

	for (i = 0; i < set->n; i++)
		if (sim_config_check(&set->c[i].cfg, why, sizeof(why)))
			tune_die(2, "case %s: %s (the fabric or the workload mix is out of the simulator's range)",
				 set->c[i].name, why);
}

/*
 * The RPC cases run at multiples of the mix's rpc_load (up to 3 times for
 * aicc_lat), the simulator up to 100 %: the largest rpc_load whose cases
 * all stay within it, for @profile's two sets.
 */
static u32 rpc_load_max(int profile, const struct tune_fabric *fb,
			const struct tune_mix *mx, bool quick)
{
	struct tune_set *set = calloc(1, sizeof(*set));
	struct tune_mix m = *mx;
	bool ok = false;
	int i, s;

	if (!set)
		die("out of memory");
	for (m.rpc_load = 95; m.rpc_load > 1 && !ok; m.rpc_load -= !ok) {
		ok = true;
		for (s = 0; s < 2; s++) {
			build_set(set, profile, fb, &m, s, quick);
			for (i = 0; i < set->n; i++)
				ok &= set->c[i].cfg.rpc_load <= 100;
		}
	}
	free(set);
	return m.rpc_load;
}

static void others_from(struct tune_set *set, int profile,
			const u32 (*all)[AICC_NR_KNOBS])
{
	int i, p;

	for (i = 0; i < set->n; i++)
		for (p = 0; p < AICC_NR_PROFILES; p++)
			if (p != profile)
				set->c[i].cfg.knobs[p] = all[p];
}

/*
 * --held-out-gate's draws 1 .. @n - 1 (draw 0, the held-out set itself,
 * is in @gd already): the held-out set with its scenario seeds shifted by
 * the draw, each evaluated for the start (@def) and the tuned knobs
 * (@best), into @ev[0] and @ev[1].
 */
static void gate_draws_eval(struct tune_gate_draw *gd, u32 n, int profile,
			    const struct tune_fabric *fb,
			    const struct tune_mix *mx, bool quick,
			    const u32 *def, const u32 *best,
			    struct tune_eval *ev)
{
	struct tune_set *set = calloc(1, sizeof(*set));
	struct tune_mix m = *mx;
	u32 k;

	if (!set)
		die("out of memory");
	for (k = 1; k < n; k++) {
		m.seed_off = mx->seed_off + k;
		build_set(set, profile, fb, &m, true, quick);
		check_set(set);
		others_from(set, profile, start_all);
		if (evaluate(set, SIM_CC_AICC, def, &ev[0]))
			die("gate draw %u: %s", k, ev[0].err);
		if (evaluate(set, SIM_CC_AICC, best, &ev[1]))
			die("gate draw %u: %s", k, ev[1].err);
		gd[k] = gate_draw(set, &ev[0], &ev[1]);
	}
	free(set);
}

enum {
	O_PROFILE = 256, O_RATE, O_RTT, O_HOPS, O_BUF, O_ECN, O_FANIN, O_RTO,
	O_WORK, O_GEN, O_LAMBDA, O_SIGMA, O_SEED, O_QUICK, O_START, O_LOG,
	O_DEFH, O_SOURCE, O_NOBASE, O_NOTE, O_EVAL, O_ROCE, O_FLOOR, O_TSTICK, O_KPACE, O_TLP,
	O_CSEED, O_DRAWS, O_GATE, O_GDRAWS,
};

static const struct option longopts[] = {
	{ "profile", 1, NULL, O_PROFILE }, { "rate-gbit", 1, NULL, O_RATE },
	{ "rtt-us", 1, NULL, O_RTT }, { "hops", 1, NULL, O_HOPS },
	{ "buffer-kb", 1, NULL, O_BUF }, { "ecn-kb", 1, NULL, O_ECN },
	{ "fan-in", 1, NULL, O_FANIN }, { "min-rto-us", 1, NULL, O_RTO },
	{ "ts-tick-us", 1, NULL, O_TSTICK },
	{ "kernel-pacing", 0, NULL, O_KPACE },
	{ "tlp", 0, NULL, O_TLP },
	{ "workload", 1, NULL, O_WORK }, { "generations", 1, NULL, O_GEN },
	{ "lambda", 1, NULL, O_LAMBDA }, { "sigma", 1, NULL, O_SIGMA },
	{ "seed", 1, NULL, O_SEED }, { "quick", 0, NULL, O_QUICK },
	{ "case-seed", 1, NULL, O_CSEED }, { "draws", 1, NULL, O_DRAWS },
	{ "held-out-gate", 0, NULL, O_GATE },
	{ "gate-draws", 1, NULL, O_GDRAWS },
	{ "start", 1, NULL, O_START }, { "log", 1, NULL, O_LOG },
	{ "defaults-h", 1, NULL, O_DEFH }, { "source", 1, NULL, O_SOURCE },
	{ "no-baselines", 0, NULL, O_NOBASE }, { "output", 1, NULL, 'o' },
	{ "note", 1, NULL, O_NOTE }, { "eval", 1, NULL, O_EVAL },
	{ "roce", 0, NULL, O_ROCE }, { "goodput-floor", 1, NULL, O_FLOOR },
	{ "help", 0, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void print_knob_diff(const u32 *def, const u32 *best)
{
	int i;

	out("%-18s %12s %12s  %s\n", "knob", "default", "tuned", "unit");
	for (i = 0; i < AICC_NR_KNOBS; i++) {
		static const char *const units[] = {
			"permille", "us", "ms", "mpkt", "pkt", "kbit/s",
			"bool", "count",
		};
		bool searched = space_has_knob(tune_dims, tune_nr_dims, i);

		out("%-18s %12u %12u  %s%s\n", aicc_knob_desc[i].name, def[i],
		    best[i], units[aicc_knob_desc[i].unit],
		    searched ? "" : " (not searched)");
	}
}

struct budget {
	int gens, lambda;
	double sigma, floor;
	u64 seed;
	bool quick, baselines;
	const char *outf, *note, *cmdline, *logfile;
	const char *start, *evalf;	/* RoCE knob files, or NULL */
};

/* A RoCE knob file over @knobs, or exit 1 naming the problem. */
static void load_roce(const char *file, u32 *knobs)
{
	char why[300];

	if (read_roce_file(file, knobs, why, sizeof(why)))
		die("%s", why);
}

/*
 * --roce: aicc_roce's knobs from the DCQCN defaults (or --start's file),
 * scored by sim_roce_case_score() (higher is better; CMA-ES minimises
 * -score).  --eval: no search, the file's knobs as 'tuned'.
 */
static int roce_main(const struct budget *b)
{
	const char *lab[] = { b->start ? "start" : "dcqcn", "tuned", "aicc-law" };
	const char *from = b->start ? "start" : "DCQCN defaults";
	struct roce_set *set[2];
	struct roce_eval *ev;
	struct cmaes *es;
	u32 def[AICC_ROCE_NR_KNOBS], best[AICC_ROCE_NR_KNOBS];
	u32 law[AICC_ROCE_NR_KNOBS];
	double x0[CMA_MAX_D], f[CMA_MAX_LAMBDA], best_s, t0 = cpu_s();
	char why[300], train_line[128], header[2048];
	int g, i, s, n = b->baselines ? 3 : 2, gens = b->evalf ? 0 : b->gens;

	set[0] = calloc(1, sizeof(*set[0]));
	set[1] = calloc(1, sizeof(*set[1]));
	ev = calloc(3, sizeof(*ev));
	es = calloc(1, sizeof(*es));
	if (!set[0] || !set[1] || !ev || !es)
		die("out of memory");
	roce_build_set(set[0], false, b->quick, b->floor);
	roce_build_set(set[1], true, b->quick, b->floor);
	roce_params_defaults(def);
	/* the aicc-law column: DCQCN's defaults with the aicc law */
	memcpy(law, def, sizeof(law));
	law[AICC_RK_CC_ALGO] = AICC_ROCE_ALGO_AICC;
	if (b->start)
		load_roce(b->start, def);
	memcpy(best, def, sizeof(best));
	if (b->evalf)
		load_roce(b->evalf, best);
	/* only now: a refused file leaves an existing log as it was */
	open_outputs(b->logfile, b->outf);

	out("# aicc-tune %s\n", b->cmdline);
	if (b->note)
		out("# %s\n", b->note);
	out("# RoCE knobs of aicc_roce from %s; CMA-ES: %d "
	    "searched knobs, lambda %d, %d generations, sigma0 %g, seed %llu%s\n",
	    b->start ? b->start : "the DCQCN defaults", roce_nr_dims,
	    b->lambda, gens, b->sigma,
	    (unsigned long long)b->seed, b->quick ? ", quick" : "");
	out("# objective: mean sim_roce_case_score() (higher is better)%s",
	    b->floor > 0 ? "" : "\n");
	if (b->floor > 0)
		out(", less %g per unit of goodput below %g\n", ROCE_FLOOR_W,
		    b->floor);
	for (s = 0; s < 2; s++) {
		out("# %s set (%d cases):", s ? "held-out" : "training",
		    set[s]->n);
		for (i = 0; i < set[s]->n; i++)
			out("%s %s x%g", i ? ";" : "", set[s]->c[i].name,
			    set[s]->c[i].weight);
		out("\n");
	}
	if (roce_evaluate(set[0], def, &ev[0]) ||
	    roce_evaluate(set[1], def, &ev[1]))
		die("%s", ev[0].errors ? ev[0].err : ev[1].err);
	out("start: train score %.4f, held-out %.4f\n", ev[0].score,
	    ev[1].score);

	roce_from_knobs(def, x0);
	if (cmaes_init(es, roce_nr_dims, x0, b->sigma, b->lambda, b->seed))
		die("bad CMA-ES parameters");
	best_s = ev[0].score;
	for (g = 0; g < gens; g++) {
		double mean = 0, gbest = -INFINITY;

		cmaes_ask(es);
		for (i = 0; i < es->lambda; i++) {
			u32 kn[AICC_ROCE_NR_KNOBS];
			double pen = roce_to_knobs(def, es->x[i], kn);

			roce_evaluate(set[0], kn, &ev[2]);
			f[i] = -ev[2].score + pen;
			mean += ev[2].score / es->lambda;
			if (ev[2].score > gbest)
				gbest = ev[2].score;
			if (ev[2].score > best_s) {
				best_s = ev[2].score;
				memcpy(best, kn, sizeof(best));
			}
		}
		cmaes_tell(es, f);
		log_gen(es, g, gbest, mean, best_s);
	}

	for (s = 0; s < 2; s++) {
		int k, bad = 0;

		bad |= roce_evaluate(set[s], def, &ev[0]);
		bad |= roce_evaluate(set[s], best, &ev[1]);
		bad |= roce_evaluate(set[s], law, &ev[2]);
		for (k = 0; bad && k < 3; k++)
			if (ev[k].errors)
				die("%s set, %s: %s; nothing written",
				    s ? "held-out" : "training", lab[k],
				    ev[k].err);
		out("\n== %s set ==\n", s ? "held-out" : "training");
		roce_print_table(stdout, set[s], ev, lab, n);
		if (logf_)
			roce_print_table(logf_, set[s], ev, lab, n);
		if (!s)
			snprintf(train_line, sizeof(train_line),
				 "train %.4f -> %.4f", ev[0].score, ev[1].score);
	}
	snprintf(header, sizeof(header),
		 "# aicc_roce knobs from aicc-tune %s\n%s%s%s"
		 "# score (higher is better, %s -> tuned): %s, "
		 "held-out %.4f -> %.4f\n"
		 "# apply: aicc rdma set --file FILE; for a ConnectX NIC: "
		 "aicc rdma export --format mlx5 --file FILE\n",
		 b->cmdline, b->note ? "# " : "", b->note ? b->note : "",
		 b->note ? "\n" : "", from, train_line, ev[0].score,
		 ev[1].score);
	out("\nheld-out score: %s %.4f, tuned %.4f\n\n",
	    b->start ? "start" : "dcqcn defaults", ev[0].score, ev[1].score);
	out("%-30s %10s %10s  %s\n", "knob", b->start ? "start" : "default",
	    "tuned", "unit");
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++)
		out("%-30s %10u %10u%s\n", aicc_roce_knob_desc[i].name, def[i],
		    best[i], roce_searched(i) ? "" : "  (not searched)");
	out("\n# %ld evaluations of %d training cases\n", es->evals,
	    set[0]->n);
	fprintf(stderr, PROG ": %.1f s CPU\n", cpu_s() - t0);
	if (logf_ && (fflush(logf_) | ferror(logf_)))
		die("log: write error; nothing written");
	if (b->outf && write_roce_file(b->outf, best, header, why, sizeof(why)))
		die("%s", why);
	if (logf_ && fclose(logf_))
		die("log: write error");
	free(set[0]);
	free(set[1]);
	free(ev);
	free(es);
	return 0;
}

int main(int argc, char **argv)
{
	struct tune_fabric fb;
	struct tune_mix mx;
	struct tune_set *train, *held;
	struct tune_eval *ev;
	struct tune_space sp;
	struct cmaes *es;
	const char *outf = NULL, *logfile = NULL, *work = NULL, *start = NULL;
	const char *defh = NULL, *source = "tuned (make tune)", *note = NULL;
	const char *evalf = NULL;
	int profile = -1, gens = 30, lambda = 12, opt, g, i, li = 0;
	double sigma = 0.2, t0, f_def, best_f, floor_ = -1;
	u64 seed = 1;
	bool quick = false, baselines = true, roce = false, gate = false;
	bool keep_start = false;	/* --held-out-gate found no gain */
	double held_obj[2] = { 0, 0 };	/* start, tuned: means of draws */
	double held_jain[2] = { -1, -1 };	/* the testbed cases' Jain */
	struct tune_gate_draw gd[TUNE_MAX_GATE_DRAWS];
	u32 gate_draws = 0;	/* --gate-draws, or TUNE_GATE_DRAWS */
	const char *tcp_opt = NULL;	/* an option --roce does not take */
	const char *run_opt = NULL;	/* one --defaults-h does not take */
	bool source_set = false;
	u32 def[AICC_NR_KNOBS], best[AICC_NR_KNOBS];
	double x0[CMA_MAX_D], f[CMA_MAX_LAMBDA];
	char why[300], header[2048], cmdline[CMDLINE_MAX + 1], means[80];
	const struct num_opt nums[] = {
		{ O_FLOOR, 0, 0.95, false, .d = &floor_ },
		{ O_RATE, 1, TUNE_MAX_RATE_GBIT, false, .d = &fb.rate_gbit },
		{ O_RTT, 1, 1000, false, .d = &fb.rtt_us },
		{ O_HOPS, 1, 8, true, .u = &fb.hops },
		{ O_BUF, 16, 1048576, true, .u = &fb.buffer_kb },
		{ O_ECN, 0, 1048576, true, .u = &fb.ecn_kb },
		{ O_FANIN, 2, 512, true, .u = &fb.fan_in },
		{ O_RTO, 10, 1000000, true, .u = &fb.min_rto_us },
		{ O_TSTICK, 0, 1000000, true, .u = &fb.ts_tick_us },
		{ O_GEN, 0, 10000, true, .i = &gens },
		{ O_LAMBDA, 4, CMA_MAX_LAMBDA, true, .i = &lambda },
		{ O_SIGMA, 0.001, 1, false, .d = &sigma },
		{ O_SEED, 0, 4294967295.0, true, .q = &seed },
		{ O_CSEED, 0, 1000000000, true, .u = &mx.seed_off },
		{ O_DRAWS, 1, TUNE_MAX_DRAWS, true, .u = &mx.draws },
		{ O_GDRAWS, 1, TUNE_MAX_GATE_DRAWS, true, .u = &gate_draws },
	};

	fabric_defaults(&fb);
	mix_defaults(&mx);
	cmdline_text(cmdline, argc, argv);
	while ((opt = getopt_long(argc, argv, "o:h", longopts, &li)) != -1) {
		if (!tcp_opt && ((opt >= O_PROFILE && opt <= O_WORK) ||
				 opt == O_DEFH || opt == O_SOURCE ||
				 opt == O_TSTICK || opt == O_KPACE ||
				 opt == O_TLP || opt == O_CSEED ||
				 opt == O_DRAWS || opt == O_GATE ||
				 opt == O_GDRAWS))
			tcp_opt = longopts[li].name;
		if (!run_opt && opt != O_DEFH && opt != O_SOURCE && opt != 'h')
			run_opt = opt == 'o' ? "-o" : longopts[li].name;
		if (num_opt_set(nums, TUNE_NR(nums), opt, longopts[li].name))
			continue;
		switch (opt) {
		case O_ROCE:
			roce = true;
			break;
		case O_KPACE:
			fb.kernel_pacing = true;
			break;
		case O_TLP:
			fb.tlp = true;
			break;
		case O_PROFILE:
			profile = sim_parse_profile(optarg);
			if (profile < 0)
				die_usage("unknown profile '%s' (aicc, aicc_lat, aicc_bulk)",
					  optarg);
			break;
		case O_WORK:
			work = optarg;
			break;
		case O_QUICK:
			quick = true;
			break;
		case O_START:
			start = optarg;
			break;
		case O_LOG:
			logfile = optarg;
			break;
		case O_DEFH:
			defh = optarg;
			break;
		case O_SOURCE:
			source = optarg;
			source_set = true;
			for (i = 0; source[i]; i++)
				if (source[i] == '"' || source[i] == '\\' ||
				    iscntrl((unsigned char)source[i]))
					break;
			if (source[i] || i > 200)
				die_usage("--source: no quotes, backslashes or control characters, %s",
					  "at most 200 characters");
			break;
		case O_NOBASE:
			baselines = false;
			break;
		case O_GATE:
			gate = true;
			break;
		case O_EVAL:
			evalf = optarg;
			break;
		case O_NOTE:
			note = optarg;
			if (strchr(note, '\n') || strlen(note) > 200)
				die_usage("--note: one line, at most 200 characters");
			break;
		case 'o':
			outf = optarg;
			/* refused now, not after the whole search */
			if (!*outf || outf[strlen(outf) - 1] == '/')
				die_usage("-o: '%s' names no file", outf);
			break;
		case 'h':
			usage();
			return 0;
		default:
			exit(2);
		}
	}
	if (roce) {
		struct budget b = {
			.gens = gens, .lambda = lambda, .sigma = sigma,
			.seed = seed, .quick = quick, .baselines = baselines,
			.floor = floor_ < 0 ? 0 : floor_,
			.outf = outf, .note = note, .cmdline = cmdline,
			.start = start, .evalf = evalf, .logfile = logfile,
		};

		if (tcp_opt)
			die_usage("--%s does not apply to --roce", tcp_opt);
		if (optind < argc)
			die_usage("unexpected argument '%s'", argv[optind]);
		return roce_main(&b);
	}
	if (floor_ >= 0)
		die_usage("--goodput-floor applies only to --roce");
	if (defh) {
		/* it merges files: a run's options would be ignored */
		if (run_opt)
			die_usage("%s%s does not apply to --defaults-h",
				  strcmp(run_opt, "-o") ? "--" : "", run_opt);
		if (optind >= argc)
			die_usage("--defaults-h needs at least one profile file");
		return defaults_h_main(defh, source, argc - optind, argv + optind);
	}
	if (source_set)
		die_usage("--source applies only to --defaults-h");
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (profile < 0)
		die_usage("--profile is required");
	if (fabric_check(&fb, why, sizeof(why)))
		die_usage("%s", why);
	if (work && mix_load(&mx, work, why, sizeof(why)))
		die("%s", why);
	if (work && mx.rpc_load_ln) {
		u32 most = rpc_load_max(profile, &fb, &mx, quick);

		if (mx.rpc_load > most)
			die("%s:%d: rpc_load %u: profile %s's RPC cases run at multiples of it, the simulator up to 100 %%: at most %u",
			    work, mx.rpc_load_ln, mx.rpc_load,
			    aicc_profile_desc[profile].name, most);
	}

	aicc_params_defaults(def, profile);
	for (i = 0; i < AICC_NR_PROFILES; i++)
		aicc_params_defaults(start_all[i], i);
	if (start)
		load_knobs(start, profile, def, start_all, false);
	/*
	 * Not searched: the fabric sets it (space.c), for every profile of
	 * the run -- the other profiles run in the mixed scenarios.
	 */
	if (!evalf) {
		def[AICC_K_GAIN_MIN_CWND] = space_gain_min_cwnd(&fb);
		for (i = 0; i < AICC_NR_PROFILES; i++)
			start_all[i][AICC_K_GAIN_MIN_CWND] =
				def[AICC_K_GAIN_MIN_CWND];
	}
	if (gate && evalf)
		die_usage("--held-out-gate does not apply to --eval");
	if (gate_draws && !gate)
		die_usage("--gate-draws is for --held-out-gate");
	if (!gate_draws)
		gate_draws = TUNE_GATE_DRAWS;
	if (evalf) {
		load_knobs(evalf, profile, best, start_all, true);
		gens = 0;
	}

	train = calloc(1, sizeof(*train));
	held = calloc(1, sizeof(*held));
	ev = calloc(8, sizeof(*ev));
	es = calloc(1, sizeof(*es));
	if (!train || !held || !ev || !es)
		die("out of memory");
	build_set(train, profile, &fb, &mx, false, quick);
	build_set(held, profile, &fb, &mx, true, quick);
	if (!train->n || !held->n)
		die("the workload mix leaves no %s scenario for profile %s",
		    !train->n ? "training" : "held-out",
		    aicc_profile_desc[profile].name);
	/* the fabric and mix scale the cases: refuse before any work */
	check_set(train);
	check_set(held);
	/*
	 * Mixed scenarios run the other profiles at the start file's knobs
	 * (or the shipped ones), with the fabric's gain_min_cwnd; with
	 * --eval, at FILE's where it sets them, as every column's neighbours.
	 */
	others_from(train, profile, start_all);
	others_from(held, profile, start_all);
	open_outputs(logfile, outf);

	t0 = cpu_s();
	out("# aicc-tune %s\n", cmdline);
	if (note)
		out("# %s\n", note);
	out("# profile %s; fabric %g Gbit/s, %g us, %u hops, buffer %u KB, "
	    "ECN %u KB, fan-in %u, min RTO %u us\n",
	    aicc_profile_desc[profile].name, fb.rate_gbit, fb.rtt_us, fb.hops,
	    fb.buffer_kb, fb.ecn_kb, fb.fan_in, fb.min_rto_us);
	/* the default (a stock kernel's) is not printed: logs stay comparable */
	if (fb.ts_tick_us != 1000)
		out("# TCP timestamps every %u us (0: none)\n", fb.ts_tick_us);
	if (fb.kernel_pacing)
		out("# the simulator paces as Linux does (--kernel-pacing)\n");
	if (fb.tlp)
		out("# the simulator sends tail-loss probes as Linux does (--tlp)\n");
	if (mx.seed_off)
		out("# scenario seeds shifted by %u (--case-seed)\n", mx.seed_off);
	if (mx.draws > 1)
		out("# each training case at %u seeds (--draws)\n", mx.draws);
	if (!evalf)
		out("# gain_min_cwnd %u, from the fabric (not searched)\n",
		    def[AICC_K_GAIN_MIN_CWND]);
	out("# CMA-ES: %d searched knobs, lambda %d, %d generations, sigma0 "
	    "%g, seed %llu%s\n", tune_nr_dims, lambda, gens, sigma,
	    (unsigned long long)seed, quick ? ", quick" : "");
	out("# term weights:");
	for (i = 0; i < TT_NR; i++)
		out(" %s %g", tune_term_name[i], train->term_w[i]);
	out("\n# training set (%d cases):", train->n);
	for (i = 0; i < train->n; i++)
		out("%s %s x%g", i ? ";" : "", train->c[i].name,
		    train->c[i].weight);
	out("\n# held-out set (%d cases):", held->n);
	for (i = 0; i < held->n; i++)
		out("%s %s x%g", i ? ";" : "", held->c[i].name,
		    held->c[i].weight);
	out("\n");

	/* the starting point; also validates every scenario */
	if (evaluate(train, SIM_CC_AICC, def, &ev[0]))
		die("%s", ev[0].err);
	if (evaluate(held, SIM_CC_AICC, def, &ev[1]))
		die("%s", ev[1].err);
	f_def = ev[0].obj;
	out("start: train objective %.4f, held-out %.4f\n", f_def, ev[1].obj);

	space_init(&sp, profile, def);
	space_from_knobs(&sp, def, x0);
	if (cmaes_init(es, sp.d, x0, sigma, lambda, seed))
		die("bad CMA-ES parameters");
	if (!evalf)
		memcpy(best, def, sizeof(best));
	best_f = f_def;
	for (g = 0; g < gens; g++) {
		double mean = 0, gbest = INFINITY;

		cmaes_ask(es);
		for (i = 0; i < es->lambda; i++) {
			u32 kn[AICC_NR_KNOBS];
			double pen = space_to_knobs(&sp, es->x[i], kn);

			evaluate(train, SIM_CC_AICC, kn, &ev[2]);
			f[i] = ev[2].obj + pen;
			mean += f[i] / es->lambda;
			if (ev[2].obj < gbest)
				gbest = ev[2].obj;
			/*
			 * Clipped knobs are valid: the penalty only steers
			 * the search back into the box.
			 */
			if (ev[2].obj < best_f) {
				best_f = ev[2].obj;
				memcpy(best, kn, sizeof(best));
			}
		}
		cmaes_tell(es, f);
		log_gen(es, g, gbest, mean, best_f);
		if (!logfile)
			continue;
		fprintf(stderr, "\r" PROG ": generation %d/%d, best %.4f",
			g + 1, gens, best_f);
		if (g + 1 == gens)
			fprintf(stderr, "\n");
	}

	/* tuned vs default (vs baselines) on both sets */
	{
		static const char *const lab[] = {
			"default", "tuned", "dctcp", "swift"
		};
		struct tune_set *sets[2] = { train, held };
		int s, n = baselines ? 4 : 2;

		for (s = 0; s < 2; s++) {
			int k, bad = 0;

			/*
			 * The search takes a failed run as a bad candidate;
			 * here one would put a meaningless objective in the
			 * file's header: nothing is written.
			 */
			bad |= evaluate(sets[s], SIM_CC_AICC, def, &ev[0]);
			bad |= evaluate(sets[s], SIM_CC_AICC, best, &ev[1]);
			if (baselines) {
				bad |= evaluate(sets[s], SIM_CC_DCTCP, NULL,
						&ev[2]);
				bad |= evaluate(sets[s], SIM_CC_SWIFT, NULL,
						&ev[3]);
			}
			for (k = 0; bad && k < n; k++)
				if (ev[k].errors)
					die("%s set, %s: %s; nothing written",
					    s ? "held-out" : "training",
					    lab[k], ev[k].err);
			out("\n== %s set ==\n", s ? "held-out" : "training");
			print_table(stdout, sets[s], ev, lab, n);
			if (logf_)
				print_table(logf_, sets[s], ev, lab, n);
			if (s == 0) {
				snprintf(why, sizeof(why), "train %.4f -> %.4f",
					 ev[0].obj, ev[1].obj);
				continue;
			}
			gd[0] = gate_draw(held, &ev[0], &ev[1]);
			if (gate)
				gate_draws_eval(gd, gate_draws, profile, &fb,
						&mx, quick, def, best, &ev[4]);
			keep_start = gate &&
				     !gate_takes_tuned_draws(gd, gate_draws,
							     held_obj,
							     held_jain);
			means[0] = '\0';
			if (gate && gate_draws > 1)
				snprintf(means, sizeof(means),
					 ", means of %u draws %.4f -> %.4f",
					 gate_draws, held_obj[0],
					 held_obj[1]);
			snprintf(header, sizeof(header),
				 "# aicc profile %s from aicc-tune %s\n"
				 "%s%s%s"
				 "# objective (lower is better): %s, "
				 "held-out %.4f -> %.4f%s%s\n",
				 aicc_profile_desc[profile].name,
				 cmdline, note ? "# " : "",
				 note ? note : "", note ? "\n" : "",
				 why, ev[0].obj, ev[1].obj, means,
				 !keep_start ? "" : held_obj[1] < held_obj[0] ?
				 " (less fair on the testbed cases: the start "
				 "kept)" : " (not better: the start kept)");
		}
	}
	out("\n");
	/*
	 * --held-out-gate: a refinement of a shipped table replaces it only
	 * if it generalises better and shares the testbed cases' link as
	 * fairly, on the means over --gate-draws draws of the held-out set
	 * (gate_takes_tuned_draws()).  The held-out set then decides a
	 * choice of two, and its score is no longer a pure estimate for the
	 * result.
	 */
	if (gate) {
		if (gate_draws > 1) {
			out("held-out gate over %u draws (scenario seeds "
			    "shifted by +0..+%u): tuned", gate_draws,
			    gate_draws - 1);
			for (i = 0; i < (int)gate_draws; i++)
				out(" %.4f", gd[i].obj[1]);
			out(", start");
			for (i = 0; i < (int)gate_draws; i++)
				out(" %.4f", gd[i].obj[0]);
			out("\nheld-out gate, means: ");
		} else {
			out("held-out gate: ");
		}
		out("tuned %.4f, start %.4f", held_obj[1], held_obj[0]);
		if (held_jain[0] >= 0)
			out("; testbed cases' Jain tuned %.4f, start %.4f",
			    held_jain[1], held_jain[0]);
		out(": the result is the %s\n\n",
		    keep_start ? "start" : "tuned table");
	}
	if (keep_start)
		memcpy(best, def, sizeof(best));
	print_knob_diff(def, best);
	out("\n# %ld evaluations of %d training cases\n", es->evals, train->n);
	fprintf(stderr, PROG ": %.1f s CPU\n", cpu_s() - t0);
	/* a log cut short (a full disk) fails the run before the file */
	if (logf_ && (fflush(logf_) | ferror(logf_)))
		die("%s: write error; nothing written", logfile);
	if (outf && write_profile(outf, profile, best, header, why, sizeof(why)))
		die("%s", why);
	if (logf_ && fclose(logf_))
		die("%s: write error", logfile);
	return 0;
}
