/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc-tune: learn a profile's knobs in the simulator with CMA-ES.
 *
 *   cmaes.c      the optimiser (own PRNG, own eigensolver)
 *   space.c      normalised [0,1]^d <-> knob values of one profile
 *   objective.c  training and held-out scenario sets, the objective
 *   output.c     writing profile files, defaults.h, the comparison table
 *   kvfile.c     reading KEY = VALUE and profile files (also aicc-sim's)
 *   roce.c       aicc_roce's knobs (--roce): space, scenario sets, file
 *   cli.c        errors and logged output (shared with aicc-train)
 *   main.c       the command line
 *
 * Everything is deterministic given the seed and the core's code.
 */
#ifndef _AICC_TUNE_H
#define _AICC_TUNE_H

#include <stdbool.h>
#include <stdio.h>

#include "sim.h"
#include "sim_int.h"
#include "sim_roce.h"
#include "kvfile.h"

/* ---- command-line helpers (cli.c), also used by aicc-train ---- */

extern const char *tune_prog;	/* prefix of error messages */
extern FILE *tune_log;		/* tune_out() copies to it, if set */

void tune_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* to stdout and tune_log, both flushed */
void tune_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- PRNG and CMA-ES (cmaes.c) ---- */

struct tune_rng {
	struct sim_rng r;
};

void tune_rng_seed(struct tune_rng *r, u64 seed);
u64 tune_rng_next(struct tune_rng *r);
double tune_rng_unit(struct tune_rng *r);	/* [0, 1) */
double tune_rng_normal(struct tune_rng *r);	/* N(0, 1) */

#define CMA_MAX_D	32
#define CMA_MAX_LAMBDA	256

struct cmaes {
	int d, lambda, mu, gen;
	double w[CMA_MAX_LAMBDA];	/* recombination weights, sum 1 */
	double mueff, cc, cs, c1, cmu, damps, chin;
	double sigma;
	double m[CMA_MAX_D];
	double pc[CMA_MAX_D], ps[CMA_MAX_D];
	double C[CMA_MAX_D][CMA_MAX_D];
	double B[CMA_MAX_D][CMA_MAX_D];	/* eigenvectors of C (columns) */
	double D[CMA_MAX_D];		/* sqrt of eigenvalues */
	double y[CMA_MAX_LAMBDA][CMA_MAX_D];	/* B D z of each sample */
	double x[CMA_MAX_LAMBDA][CMA_MAX_D];	/* the population */
	double best_x[CMA_MAX_D];
	double best_f;
	long evals;
	struct tune_rng rng;
};

/* lambda <= 0: the default 4 + 3 ln d.  Returns -1 on bad arguments. */
int cmaes_init(struct cmaes *es, int d, const double *x0, double sigma0,
	       int lambda, u64 seed);
void cmaes_ask(struct cmaes *es);			/* fills es->x */
void cmaes_tell(struct cmaes *es, const double *f);	/* f[lambda] */
double cmaes_cond(const struct cmaes *es);	/* axis ratio max D / min D */

/* Jacobi eigensolver for a symmetric n x n matrix (in CMA_MAX_D arrays). */
void tune_eigen(int n, double a[CMA_MAX_D][CMA_MAX_D],
		double vec[CMA_MAX_D][CMA_MAX_D], double *val);

/* ---- search space (space.c) ---- */

struct tune_dim {
	int knob;		/* enum aicc_knob_id */
	double lo, hi;		/* search range, knob units, inside min..max */
	bool log;		/* log scale (range spans decades) */
};

struct tune_space {
	int profile;
	int d;
	struct tune_dim dim[AICC_NR_KNOBS];
	u32 base[AICC_NR_KNOBS];	/* values of the knobs not searched */
};

/* The number of elements of array @a */
#define TUNE_NR(a)	((int)(sizeof(a) / sizeof((a)[0])))

/* The searched knobs; every other knob stays at base[] (the defaults). */
extern const struct tune_dim tune_dims[];
extern const int tune_nr_dims;
/* Whether @knob is one of the @n searched in @dims */
bool space_has_knob(const struct tune_dim *dims, int n, int knob);

void space_init(struct tune_space *sp, int profile, const u32 *base);
double space_to_unit(const struct tune_dim *dm, u32 v);
/* u in [0,1] -> a whole number in lo..hi (log or linear) */
double space_value(const struct tune_dim *dm, double u);
u32 space_from_unit(const struct tune_dim *dm, double u);
/*
 * x (may lie outside [0,1]) -> all knobs; returns the squared distance
 * by which x lay outside the box.
 */
double space_to_knobs(const struct tune_space *sp, const double *x,
		      u32 knobs[AICC_NR_KNOBS]);
void space_from_knobs(const struct tune_space *sp,
		      const u32 knobs[AICC_NR_KNOBS], double *x);
void space_repair(u32 knobs[AICC_NR_KNOBS]);
/*
 * 0 if every knob is in its aicc_knob_desc[] range and the ordered pairs
 * the aicc tool checks hold; else -1 with the reason in why.
 */
int knobs_valid(const u32 knobs[AICC_NR_KNOBS], char *why, size_t len);

/* ---- objective (objective.c) ---- */

enum tune_kind {
	TK_INCAST, TK_ALLTOALL, TK_ALLREDUCE, TK_STAGGER, TK_RPC, TK_LONG,
	TK_PIPELINE, TK_START, TK_NR
};

extern const char *const tune_kind_name[TK_NR];

struct tune_fabric {
	double rate_gbit, rtt_us;
	u32 hops, buffer_kb, ecn_kb, fan_in;
	u32 min_rto_us;
	u32 ts_tick_us;		/* TCP timestamp tick, 0: none */
	bool kernel_pacing;	/* sim_config.kernel_pacing */
	bool tlp;		/* sim_config.tlp: tail-loss probes */
};

/*
 * --rate-gbit's most: every profile's sets run a case at 4 times the link
 * rate (build_set()), and the simulator runs links up to 1600 Gbit/s.
 */
#define TUNE_MAX_RATE_GBIT	400

struct tune_mix {
	double weight[TK_NR];	/* multiplier per scenario kind, default 1 */
	u32 msg_kb, gap_us, rpc_load, bulk_flows, hosts;
	int rpc_load_ln;	/* the workload file's rpc_load line, or 0 */
	double time_scale;	/* simulated time multiplier */
	u32 seed_off;		/* added to every case's seed (--case-seed) */
	u32 draws;		/* training cases run at this many seeds */
};

/* Terms of the objective, all dimensionless, lower is better. */
enum tune_term { TT_SHORT, TT_QUEUE, TT_SLOW, TT_UNFAIR, TT_LOSS, TT_NR };
extern const char *const tune_term_name[TT_NR];

/* the largest set (aicc's training set, 14 cases) at TUNE_MAX_DRAWS */
#define TUNE_MAX_CASES	64
#define TUNE_MAX_DRAWS	4

struct tune_case {
	char name[64];
	int kind;
	double weight;
	bool testbed;		/* the bench's path (add_testbed()) */
	struct sim_config cfg;
};

struct tune_set {
	int profile;
	double term_w[TT_NR];
	int n;
	struct tune_case c[TUNE_MAX_CASES];
};

struct tune_eval {
	double obj;			/* weighted mean over the cases */
	double cobj[TUNE_MAX_CASES];	/* per case */
	double term[TUNE_MAX_CASES][TT_NR];
	double util[TUNE_MAX_CASES], q99_rtt[TUNE_MAX_CASES];
	double slow[TUNE_MAX_CASES], jain[TUNE_MAX_CASES];
	u64 drops[TUNE_MAX_CASES], rtos[TUNE_MAX_CASES];
	long sim_events;
	int errors;
	char err[200];
};

void fabric_defaults(struct tune_fabric *fb);
/* gain_min_cwnd for @fb: 1000 or 2000 (space.c) */
u32 space_gain_min_cwnd(const struct tune_fabric *fb);
void mix_defaults(struct tune_mix *mx);
int mix_load(struct tune_mix *mx, const char *file, char *why, size_t len);
int fabric_check(const struct tune_fabric *fb, char *why, size_t len);

/* held_out: the set the optimiser never sees; quick: smaller and shorter */
void build_set(struct tune_set *set, int profile,
	       const struct tune_fabric *fb, const struct tune_mix *mx,
	       bool held_out, bool quick);
/* cc: SIM_CC_*; knobs: this profile's values (NULL: defaults). */
int evaluate(const struct tune_set *set, int cc, const u32 *knobs,
	     struct tune_eval *ev);
double case_objective(const struct tune_set *set, int i,
		      const struct sim_result *r, double *term);
/* weighted mean Jain's index of @set's testbed cases; -1 if it has none */
double testbed_jain(const struct tune_set *set, const struct tune_eval *ev);
/*
 * --held-out-gate's rule on one draw of the held-out set: the tuned knobs
 * replace the start if they do better on the objective without sharing
 * the testbed cases' link less fairly (TUNE_GATE_JAIN_SLACK).  aicc-tune
 * applies it to the means over --gate-draws draws
 * (gate_takes_tuned_draws(), below).
 */
#define TUNE_GATE_JAIN_SLACK	0.005
bool gate_takes_tuned(const struct tune_set *held,
		      const struct tune_eval *start,
		      const struct tune_eval *tuned);

/*
 * The gate over draws of the held-out set (--gate-draws): each draw is
 * the set with its scenario seeds shifted by one more (draw 0 is the set
 * itself), and the gate compares the means over the draws.  One draw's
 * held-out score moves by a few per cent from seed to seed, as much as a
 * refinement gains (Documentation/tuning.rst, "The gate over draws").
 */
#define TUNE_GATE_DRAWS		4	/* the default */
#define TUNE_MAX_GATE_DRAWS	8
struct tune_gate_draw {
	double obj[2];		/* [0] the start, [1] the tuned knobs */
	double jain[2];		/* testbed_jain() of each, -1 if none */
};

/* one draw: @start's and @tuned's evaluations of the held-out set @held */
struct tune_gate_draw gate_draw(const struct tune_set *held,
				const struct tune_eval *start,
				const struct tune_eval *tuned);
/* @mean_obj[2], @mean_jain[2]: the means compared (NULL: not wanted) */
bool gate_takes_tuned_draws(const struct tune_gate_draw *d, int n,
			    double *mean_obj, double *mean_jain);

/* ---- output (output.c; reading files: kvfile.h) ---- */

/*
 * Files are written to FILE.tmpPID (starting with header, if any), then
 * renamed over FILE by tune_finish().
 */
FILE *tune_open_tmp(const char *file, char *tmp, size_t tlen,
		    const char *header, char *why, size_t len);
int tune_finish(FILE *f, const char *tmp, const char *file, char *why,
		size_t len);
/*
 * Whether FILE can be written the way tune_finish() writes it (its
 * temporary file made and removed; not a directory): checked before a
 * run, not after it.  0, or -1 with why set.
 */
int tune_probe_out(const char *file, char *why, size_t len);

/* n lines "PREFIXNAME = VALUE", padded to width, then "# DESC" */
int tune_write_knobs(const char *file, const char *header, const char *prefix,
		     int n, const char *const *name, const u32 *val,
		     const char *const *desc, int width, char *why, size_t len);
int write_profile(const char *file, int profile,
		  const u32 knobs[AICC_NR_KNOBS], const char *header,
		  char *why, size_t len);
int write_defaults_h(const char *file,
		     const u32 knobs[AICC_NR_PROFILES][AICC_NR_KNOBS],
		     const char *source, char *why, size_t len);
#define TUNE_MAX_LABELS	8	/* columns of a comparison table */

/*
 * A comparison table: nc cases (name, weight) by n labelled columns,
 * v[column][case], v[column][nc] the weighted mean.
 */
void print_scores(FILE *f, const char *title, int nc, const char *const *name,
		  const double *w, int n, const char *const *label,
		  const double v[][TUNE_MAX_CASES + 1]);
void print_table(FILE *f, const struct tune_set *set,
		 const struct tune_eval *ev, const char *const *label, int n);

/* ---- RoCE knobs (roce.c): aicc-tune --roce ---- */

/* tune_dim.knob holds an enum aicc_roce_knob_id here */
extern const struct tune_dim roce_dims[];
extern const int roce_nr_dims;

#define ROCE_FAIL_SCORE	(-100.0)	/* a run that failed */

struct roce_case {
	char name[48];
	double weight;
	struct sim_roce_config cfg;	/* knobs[] replaced per evaluation */
};

#define ROCE_FLOOR_W	20.0	/* score lost per unit below the floor */

struct roce_set {
	double goodput_floor;		/* fraction of the bottleneck, 0: none */
	int n;
	struct roce_case c[TUNE_MAX_CASES];
};

struct roce_eval {
	double score;			/* weighted mean, higher is better */
	double cscore[TUNE_MAX_CASES];	/* sim_roce_case_score() per case */
	struct sim_roce_result r[TUNE_MAX_CASES];
	int errors;
	char err[200];
};

void roce_build_set(struct roce_set *set, bool held_out, bool quick,
		    double floor);
int roce_evaluate(const struct roce_set *set, const u32 *knobs,
		  struct roce_eval *ev);
double roce_to_knobs(const u32 *base, const double *x,
		     u32 knobs[AICC_ROCE_NR_KNOBS]);
void roce_from_knobs(const u32 *knobs, double *x);
bool roce_searched(int knob);
void roce_print_table(FILE *f, const struct roce_set *set,
		      const struct roce_eval *ev, const char *const *label,
		      int n);
/*
 * The KNOB = VALUE lines of a RoCE knob file (write_roce_file()'s format,
 * any subset of aicc_roce's knobs) over @knobs: 0, or -1 with why set and
 * @knobs untouched (unknown knob, not a plain integer, out of range, set
 * twice).
 */
int read_roce_file(const char *file, u32 knobs[AICC_ROCE_NR_KNOBS],
		   char *why, size_t len);
/* 0 if every knob is inside its aicc_roce_knob_desc[] range */
int roce_knobs_valid(const u32 knobs[AICC_ROCE_NR_KNOBS], char *why,
		     size_t len);
/*
 * A file for 'aicc rdma set --file' and 'aicc rdma export --file': one
 * "KNOB = VALUE" line per searched knob, in roce_dims[] order.
 */
int write_roce_file(const char *file, const u32 knobs[AICC_ROCE_NR_KNOBS],
		    const char *header, char *why, size_t len);

#endif /* _AICC_TUNE_H */
