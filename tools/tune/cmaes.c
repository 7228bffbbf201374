// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-tune: CMA-ES, (mu/mu_w, lambda) with cumulative step-size adaptation,
 * rank-one and rank-mu covariance updates, following the equations of
 * N. Hansen, "The CMA Evolution Strategy: A Tutorial" (arXiv:1604.00772),
 * with the default strategy parameters given there.  The PRNG (the
 * simulator's) and the eigensolver (cyclic Jacobi) are our own, so a run is
 * a function of its seed alone.
 */
#include <math.h>
#include <string.h>

#include "tune.h"

/* ---- PRNG: the simulator's (xoshiro256** seeded by splitmix64) ---- */

void tune_rng_seed(struct tune_rng *r, u64 seed)
{
	rng_seed(&r->r, seed);
}

u64 tune_rng_next(struct tune_rng *r)
{
	return rng_next(&r->r);
}

double tune_rng_unit(struct tune_rng *r)
{
	return rng_unit(&r->r);
}

/* Box-Muller; one value per call keeps the stream simple to reason about */
double tune_rng_normal(struct tune_rng *r)
{
	double u1 = 1.0 - tune_rng_unit(r);	/* (0, 1] */
	double u2 = tune_rng_unit(r);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* ---- symmetric eigendecomposition (cyclic Jacobi rotations) ---- */

void tune_eigen(int n, double a[CMA_MAX_D][CMA_MAX_D],
		double vec[CMA_MAX_D][CMA_MAX_D], double *val)
{
	int i, j, k, sweep;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			vec[i][j] = i == j;
	for (sweep = 0; sweep < 100; sweep++) {
		double off = 0, tot = 0;

		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				tot += a[i][j] * a[i][j];
				if (i != j)
					off += a[i][j] * a[i][j];
			}
		if (off <= 1e-30 * tot || off == 0)
			break;
		for (i = 0; i < n - 1; i++) {
			for (j = i + 1; j < n; j++) {
				double th, t, c, s, aij = a[i][j];

				if (fabs(aij) < 1e-300)
					continue;
				th = (a[j][j] - a[i][i]) / (2 * aij);
				t = (th >= 0 ? 1 : -1) /
					(fabs(th) + sqrt(th * th + 1));
				c = 1 / sqrt(t * t + 1);
				s = t * c;
				for (k = 0; k < n; k++) {
					double aki = a[k][i], akj = a[k][j];

					a[k][i] = c * aki - s * akj;
					a[k][j] = s * aki + c * akj;
				}
				for (k = 0; k < n; k++) {
					double aik = a[i][k], ajk = a[j][k];

					a[i][k] = c * aik - s * ajk;
					a[j][k] = s * aik + c * ajk;
				}
				for (k = 0; k < n; k++) {
					double vki = vec[k][i], vkj = vec[k][j];

					vec[k][i] = c * vki - s * vkj;
					vec[k][j] = s * vki + c * vkj;
				}
			}
		}
	}
	for (i = 0; i < n; i++)
		val[i] = a[i][i];
}

/* ---- CMA-ES ---- */

static void decompose(struct cmaes *es)
{
	static const double floor_ev = 1e-20;
	double a[CMA_MAX_D][CMA_MAX_D], ev[CMA_MAX_D];
	int i, j, d = es->d;

	/* enforce symmetry, then decompose a copy */
	for (i = 0; i < d; i++)
		for (j = 0; j <= i; j++) {
			double v = 0.5 * (es->C[i][j] + es->C[j][i]);

			es->C[i][j] = v;
			es->C[j][i] = v;
			a[i][j] = v;
			a[j][i] = v;
		}
	tune_eigen(d, a, es->B, ev);
	for (i = 0; i < d; i++)
		es->D[i] = sqrt(ev[i] > floor_ev ? ev[i] : floor_ev);
}

int cmaes_init(struct cmaes *es, int d, const double *x0, double sigma0,
	       int lambda, u64 seed)
{
	double sw = 0, sw2 = 0;
	int i;

	if (d < 1 || d > CMA_MAX_D || !(sigma0 > 0))
		return -1;
	if (lambda <= 0)
		lambda = 4 + (int)floor(3 * log(d));
	if (lambda < 2 || lambda > CMA_MAX_LAMBDA)
		return -1;
	memset(es, 0, sizeof(*es));
	es->d = d;
	es->lambda = lambda;
	es->mu = lambda / 2;
	for (i = 0; i < es->mu; i++) {
		es->w[i] = log(lambda / 2.0 + 0.5) - log(i + 1.0);
		sw += es->w[i];
	}
	for (i = 0; i < es->mu; i++) {
		es->w[i] /= sw;
		sw2 += es->w[i] * es->w[i];
	}
	es->mueff = 1 / sw2;
	es->cc = (4 + es->mueff / d) / (d + 4 + 2 * es->mueff / d);
	es->cs = (es->mueff + 2) / (d + es->mueff + 5);
	es->c1 = 2 / ((d + 1.3) * (d + 1.3) + es->mueff);
	es->cmu = 2 * (es->mueff - 2 + 1 / es->mueff) /
		((d + 2) * (d + 2) + es->mueff);
	if (es->cmu > 1 - es->c1)
		es->cmu = 1 - es->c1;
	es->damps = 1 + es->cs +
		2 * fmax(0, sqrt((es->mueff - 1) / (d + 1)) - 1);
	es->chin = sqrt(d) * (1 - 1 / (4.0 * d) + 1 / (21.0 * d * d));
	es->sigma = sigma0;
	for (i = 0; i < d; i++) {
		es->m[i] = x0[i];
		es->C[i][i] = 1;
		es->B[i][i] = 1;
		es->D[i] = 1;
	}
	es->best_f = INFINITY;
	memcpy(es->best_x, x0, d * sizeof(*x0));
	tune_rng_seed(&es->rng, seed);
	return 0;
}

void cmaes_ask(struct cmaes *es)
{
	double z[CMA_MAX_D];
	int k, i, j, d = es->d;

	for (k = 0; k < es->lambda; k++) {
		for (i = 0; i < d; i++)
			z[i] = es->D[i] * tune_rng_normal(&es->rng);
		for (i = 0; i < d; i++) {
			double s = 0;

			for (j = 0; j < d; j++)
				s += es->B[i][j] * z[j];
			es->y[k][i] = s;
			es->x[k][i] = es->m[i] + es->sigma * s;
		}
	}
}

void cmaes_tell(struct cmaes *es, const double *f)
{
	int idx[CMA_MAX_LAMBDA];
	double yw[CMA_MAX_D], t[CMA_MAX_D], old[CMA_MAX_D];
	double nps = 0, hsig, c1a, len;
	int d = es->d, lam = es->lambda, i, j, k;

	/* rank by fitness; ties keep sample order (insertion sort, stable) */
	for (k = 0; k < lam; k++) {
		int p = k;

		while (p > 0 && f[idx[p - 1]] > f[k]) {
			idx[p] = idx[p - 1];
			p--;
		}
		idx[p] = k;
	}
	es->evals += lam;
	es->gen++;
	if (f[idx[0]] < es->best_f) {
		es->best_f = f[idx[0]];
		memcpy(es->best_x, es->x[idx[0]], d * sizeof(double));
	}

	/* mean: weighted recombination of the mu best */
	memcpy(old, es->m, d * sizeof(double));
	for (i = 0; i < d; i++) {
		double s = 0;

		for (k = 0; k < es->mu; k++)
			s += es->w[k] * es->y[idx[k]][i];
		yw[i] = s;
		es->m[i] = old[i] + es->sigma * s;
	}

	/* C^-1/2 yw = B D^-1 B^T yw */
	for (j = 0; j < d; j++) {
		double s = 0;

		for (i = 0; i < d; i++)
			s += es->B[i][j] * yw[i];
		t[j] = s / es->D[j];
	}
	for (i = 0; i < d; i++) {
		double s = 0;

		for (j = 0; j < d; j++)
			s += es->B[i][j] * t[j];
		es->ps[i] = (1 - es->cs) * es->ps[i] +
			sqrt(es->cs * (2 - es->cs) * es->mueff) * s;
		nps += es->ps[i] * es->ps[i];
	}
	nps = sqrt(nps);
	len = 1 - pow(1 - es->cs, 2.0 * es->gen);
	hsig = nps / sqrt(len > 0 ? len : 1e-300) / es->chin <
		1.4 + 2.0 / (d + 1) ? 1 : 0;
	for (i = 0; i < d; i++)
		es->pc[i] = (1 - es->cc) * es->pc[i] +
			hsig * sqrt(es->cc * (2 - es->cc) * es->mueff) * yw[i];

	/* covariance: rank-one and rank-mu updates */
	c1a = es->c1 * (1 - (1 - hsig) * es->cc * (2 - es->cc));
	for (i = 0; i < d; i++) {
		for (j = 0; j <= i; j++) {
			double rmu = 0;

			for (k = 0; k < es->mu; k++)
				rmu += es->w[k] * es->y[idx[k]][i] *
					es->y[idx[k]][j];
			es->C[i][j] = (1 - c1a - es->cmu) * es->C[i][j] +
				es->c1 * es->pc[i] * es->pc[j] +
				es->cmu * rmu;
			es->C[j][i] = es->C[i][j];
		}
	}

	/* step size: cumulative path length control */
	es->sigma *= exp((es->cs / es->damps) * (nps / es->chin - 1));
	if (es->sigma > 1e6)
		es->sigma = 1e6;
	decompose(es);
}

double cmaes_cond(const struct cmaes *es)
{
	double lo = INFINITY, hi = 0;
	int i;

	for (i = 0; i < es->d; i++) {
		lo = fmin(lo, es->D[i]);
		hi = fmax(hi, es->D[i]);
	}
	return lo > 0 ? hi / lo : INFINITY;
}
