// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-sim roce: a RoCEv2 model -- rate-based senders (the reaction
 * points of aicc_roce.ko, running the module's own rate laws from
 * module/roce/roce_law.c), one bottleneck with step ECN marking, and
 * receivers acting as notification points (one CNP per flow per
 * np_min_time_between_cnps when a CE-marked packet arrives).
 *
 *   aicc-sim roce [--flows N] [--rate-mbit R] [--rtt-us T] [--ecn-kb K]
 *                 [--buffer-kb B] [--time-ms T] [--algo off|dcqcn|aicc]
 *                 [--window PKTS] [--ack-every N] [--seed S] [-j]
 *                 [--score] [KNOB=VALUE ...]
 *
 * Each sender always has data (an RDMA WRITE stream), paced at its rate
 * and limited to --window unacknowledged packets (rxe allows 128); the
 * receiver acknowledges every --ack-every packets.  Flows start 1 ms
 * apart.  The model is deterministic for a given seed.  Output: goodput
 * as a fraction of the bottleneck, queue delay (mean, p99), Jain's
 * fairness index, CNPs, drops; with -j one JSON object.  --score prints
 * sim_roce_score() of the knob set instead: the objective a tuner can
 * maximise (see sim_roce.h).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_roce.h"

#define EV_SEND		0
#define EV_DEPART	1
#define EV_ARRIVE	2	/* a data packet reaches the receiver */
#define EV_CNP		3	/* a CNP reaches the sender */
#define EV_ACK		4	/* an ACK reaches the sender */
#define EV_TIMEOUT	5	/* RC retransmission timer (go-back-N) */

struct ev {
	u64 t;
	u32 seq;		/* tie-break: insertion order */
	u8 type;
	u16 flow;
	u32 psn;
	u8 ce;
};

struct heap {
	struct ev *v;
	u32 n, cap, seq;
};

static int heap_push(struct heap *h, struct ev e)
{
	u32 i;

	if (h->n == h->cap) {
		u32 cap = h->cap ? h->cap * 2 : 1024;
		struct ev *v = realloc(h->v, cap * sizeof(*v));

		if (!v)
			return -1;
		h->v = v;
		h->cap = cap;
	}
	e.seq = h->seq++;
	i = h->n++;
	while (i) {
		u32 p = (i - 1) / 2;

		if (h->v[p].t < e.t || (h->v[p].t == e.t && h->v[p].seq < e.seq))
			break;
		h->v[i] = h->v[p];
		i = p;
	}
	h->v[i] = e;
	return 0;
}

static struct ev heap_pop(struct heap *h)
{
	struct ev top = h->v[0], last = h->v[--h->n];
	u32 i = 0;

	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && (h->v[c + 1].t < h->v[c].t ||
				     (h->v[c + 1].t == h->v[c].t &&
				      h->v[c + 1].seq < h->v[c].seq)))
			c++;
		if (last.t < h->v[c].t || (last.t == h->v[c].t && last.seq < h->v[c].seq))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	h->v[i] = last;
	return top;
}

static int push(struct heap *h, u64 t, u8 type, u32 flow, u32 psn, u8 ce)
{
	struct ev e = { 0 };

	e.t = t;
	e.type = type;
	e.flow = (u16)flow;
	e.psn = psn;
	e.ce = ce;
	return heap_push(h, e);
}

/* Append one queue-delay sample. */
static int qd_add(u64 **qd, u64 *n, u64 *cap, u64 d)
{
	if (*n == *cap) {
		u64 nc = *cap ? *cap * 2 : 4096;
		u64 *nq = realloc(*qd, nc * sizeof(*nq));

		if (!nq)
			return -1;
		*qd = nq;
		*cap = nc;
	}
	(*qd)[(*n)++] = d;
	return 0;
}

struct rflow {
	struct roce_rp rp;
	u64 next_tx;
	u64 last_cnp;
	u32 nxt;		/* next PSN to send */
	u32 una;		/* oldest unacknowledged */
	u32 expect;		/* receiver: next in-order PSN */
	u64 rx_bytes;		/* in the measurement window */
	u8 blocked;		/* window full: wait for an ACK */
	u8 cnp_any;
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

void sim_roce_defaults(struct sim_roce_config *c)
{
	static const struct sim_roce_config def = {
		.flows = 2, .rate_mbit = 20, .rtt_us = 2000, .ecn_kb = 30,
		.buffer_kb = 400, .time_ms = 3000, .window = 128,
		.ack_every = 16, .payload = 1024, .seed = 1,
	};

	*c = def;
	roce_params_defaults(c->knobs);
}

int sim_roce_run(const struct sim_roce_config *c, struct sim_roce_result *r)
{
	const u32 wire = c->payload + 58;	/* IP, UDP, BTH, ICRC */
	u64 tx_ns, rto, end, warm, now = 0, q_bytes = 0, link_free = 0;
	u64 qd_sum = 0, qd_n = 0, *qd = NULL, qd_cap = 0;
	struct roce_params p;
	struct rflow *f;
	struct heap h = { 0 };
	u32 i;

	memset(r, 0, sizeof(*r));
	/* written so that NaN fails too */
	if (!c->flows || c->flows > 1024 ||
	    !(c->rate_mbit > 0 && c->rate_mbit <= 1e6) ||
	    !(c->time_ms > 0 && c->time_ms <= 600000) ||
	    !(c->rtt_us >= 0 && c->rtt_us <= 1e6) ||
	    !c->window || !c->ack_every || c->payload < 64) {
		snprintf(r->err, sizeof(r->err), "bad configuration");
		return -1;
	}
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		if (roce_knob_check(i, c->knobs[i])) {
			snprintf(r->err, sizeof(r->err), "%s=%u out of range",
				 aicc_roce_knob_desc[i].name, c->knobs[i]);
			return -1;
		}
	}
	roce_params_set(&p, c->knobs);
	f = calloc(c->flows, sizeof(*f));
	if (!f)
		goto nomem;
	tx_ns = (u64)(wire * 8.0 * 1000.0 / c->rate_mbit);
	/* RC timeout: well above the base RTT plus a full buffer */
	rto = (u64)(4 * c->rtt_us * 1000 +
		    2 * c->buffer_kb * 8e6 / c->rate_mbit) + 10 * 1000000ULL;
	end = (u64)(c->time_ms * 1e6);
	warm = end / 3;
	for (i = 0; i < c->flows; i++) {
		u64 t0 = (u64)i * 1000000 + (c->seed % 97) * 1000;

		roce_rp_init(&f[i].rp, &p, t0);
		f[i].next_tx = t0;
		if (push(&h, t0, EV_SEND, i, 0, 0))
			goto nomem;
	}
	while (h.n) {
		struct ev e = heap_pop(&h);
		struct rflow *fl = &f[e.flow];
		u64 half = (u64)(c->rtt_us * 500.0);

		now = e.t;
		if (now >= end)
			break;
		switch (e.type) {
		case EV_SEND: {
			u64 depart;
			u8 ce;

			if (fl->nxt - fl->una >= c->window) {
				fl->blocked = 1;
				if (push(&h, now + rto, EV_TIMEOUT, e.flow, fl->una, 0))
					goto nomem;
				break;
			}
			roce_rp_on_tx(&fl->rp, &p, now, now, wire, fl->nxt,
				      (fl->nxt + 1) % c->ack_every == 0);
			fl->next_tx = now + roce_tx_time_ns(fl->rp.rc, wire);
			r->sent++;
			if (q_bytes + wire > (u64)c->buffer_kb * 1000) {
				r->drops++;	/* RC would retransmit: count it */
			} else {
				ce = c->ecn_kb && q_bytes > (u64)c->ecn_kb * 1000;
				q_bytes += wire;
				depart = (link_free > now ? link_free : now) + tx_ns;
				link_free = depart;
				if (now >= warm) {
					qd_sum += depart - now;
					if (qd_add(&qd, &qd_n, &qd_cap, depart - now))
						goto nomem;
				}
				if (push(&h, depart, EV_DEPART, e.flow, fl->nxt, ce))
					goto nomem;
			}
			fl->nxt++;
			if (push(&h, fl->next_tx > now ? fl->next_tx : now + 1,
				 EV_SEND, e.flow, 0, 0))
				goto nomem;
			break;
		}
		case EV_DEPART:
			q_bytes -= wire;
			if (push(&h, now + half, EV_ARRIVE, e.flow, e.psn, e.ce))
				goto nomem;
			break;
		case EV_ARRIVE:
			if (e.ce) {
				r->ce++;
				if (p.k[AICC_RK_NP_ENABLE] &&
				    (!fl->cnp_any || now - fl->last_cnp >=
				     (u64)p.k[AICC_RK_NP_MIN_TIME_CNPS] * 1000)) {
					fl->cnp_any = 1;
					fl->last_cnp = now;
					r->cnps++;
					if (push(&h, now + half, EV_CNP, e.flow, 0, 0))
						goto nomem;
				}
			}
			if (e.psn != fl->expect) {
				r->out_of_seq++;	/* RC drops it: go-back-N */
				break;
			}
			fl->expect++;
			if (now >= warm)
				fl->rx_bytes += c->payload;
			if ((e.psn + 1) % c->ack_every == 0 &&
			    push(&h, now + half, EV_ACK, e.flow, e.psn, 0))
				goto nomem;
			break;
		case EV_TIMEOUT:
			if (!fl->blocked || fl->una != e.psn)
				break;
			r->timeouts++;
			fl->nxt = fl->una;	/* resend from the oldest */
			fl->blocked = 0;
			if (push(&h, now, EV_SEND, e.flow, 0, 0))
				goto nomem;
			break;
		case EV_CNP:
			if (roce_rp_on_cnp(&fl->rp, &p, now) & ROCE_EV_CUT)
				r->cuts++;
			break;
		case EV_ACK:
			if (roce_rp_on_ack(&fl->rp, &p, now, e.psn, ROCE_ACK) &
			    ROCE_EV_CUT)
				r->cuts++;
			if ((s32)(e.psn + 1 - fl->una) > 0)
				fl->una = e.psn + 1;
			if (fl->blocked) {
				fl->blocked = 0;
				if (push(&h, fl->next_tx > now ? fl->next_tx : now,
					 EV_SEND, e.flow, 0, 0))
					goto nomem;
			}
			break;
		}
	}
	{
		double tot = 0, sq = 0, secs = (end - warm) / 1e9;

		for (i = 0; i < c->flows; i++) {
			double b = (double)f[i].rx_bytes;

			tot += b;
			sq += b * b;
		}
		r->goodput = tot * 8 / secs / (c->rate_mbit * 1e6);
		r->jain = sq > 0 ? tot * tot / (c->flows * sq) : 0;
	}
	if (qd_n) {
		u64 k = qd_n * 99 / 100;

		r->qdelay_mean_us = qd_sum / 1000.0 / qd_n;
		qsort(qd, qd_n, sizeof(*qd), cmp_u64);
		r->qdelay_p99_us = qd[k < qd_n ? k : qd_n - 1] / 1000.0;
	}
	free(qd);
	free(h.v);
	free(f);
	return 0;
nomem:
	free(qd);
	free(h.v);
	free(f);
	snprintf(r->err, sizeof(r->err), "out of memory");
	return -1;
}

double sim_roce_case_score(const struct sim_roce_config *c,
			   const struct sim_roce_result *r)
{
	return r->goodput - r->qdelay_p99_us / (4 * c->rtt_us) - (1 - r->jain);
}

/*
 * The tuner's objective for a RoCE knob set: a fixed set of scenarios
 * (1, 2 and 4 flows; 20 and 50 Mbit/s; 1 and 4 ms base RTT), each scored
 * by sim_roce_case_score(); the mean is returned (higher is better), -1e9
 * for an invalid knob set.
 */
double sim_roce_score(const u32 knobs[AICC_ROCE_NR_KNOBS])
{
	static const u32 nflows[] = { 1, 2, 4 };
	static const double rate[] = { 20, 50 }, rtt[] = { 1000, 4000 };
	struct sim_roce_config c;
	struct sim_roce_result r;
	double sum = 0;
	unsigned int a, b, d, n = 0;

	for (a = 0; a < 3; a++) {
		for (b = 0; b < 2; b++) {
			for (d = 0; d < 2; d++) {
				sim_roce_defaults(&c);
				memcpy(c.knobs, knobs, sizeof(c.knobs));
				c.flows = nflows[a];
				c.rate_mbit = rate[b];
				c.rtt_us = rtt[d];
				c.time_ms = 2000;
				if (sim_roce_run(&c, &r))
					return -1e9;
				sum += sim_roce_case_score(&c, &r);
				n++;
			}
		}
	}
	return sum / n;
}

/* The numeric options of aicc-sim roce: where each goes in the config. */
struct num_opt {
	const char *name;
	size_t off;
	char type;		/* 'u' u32, 'U' u64, 'd' double */
};

/*
 * A finite value, not negative; a whole one that fits for an integer
 * option (a cast of anything else is undefined, and 1.9 flows is not 1).
 */
static int opt_val(int argc, char **argv, int *i, const struct num_opt *o,
		   double *v)
{
	double max = o->type == 'u' ? 4294967295.0 : 9007199254740992.0;
	const char *s;
	char *end;

	if (*i + 1 >= argc) {
		fprintf(stderr, "aicc-sim roce: %s needs a value\n", argv[*i]);
		return -1;
	}
	s = argv[++*i];
	*v = strtod(s, &end);
	if (end == s || *end || !isfinite(*v) || *v < 0 ||
	    (o->type != 'd' && (*v != floor(*v) || *v > max))) {
		fprintf(stderr, "aicc-sim roce: bad value '%s' for %s\n",
			argv[*i], argv[*i - 1]);
		return -1;
	}
	return 0;
}

#define NUM_OPT(n, field, t) { n, offsetof(struct sim_roce_config, field), t }

static const struct num_opt num_opts[] = {
	NUM_OPT("--flows", flows, 'u'), NUM_OPT("--rate-mbit", rate_mbit, 'd'),
	NUM_OPT("--rtt-us", rtt_us, 'd'), NUM_OPT("--ecn-kb", ecn_kb, 'u'),
	NUM_OPT("--buffer-kb", buffer_kb, 'u'),
	NUM_OPT("--time-ms", time_ms, 'd'), NUM_OPT("--window", window, 'u'),
	NUM_OPT("--ack-every", ack_every, 'u'), NUM_OPT("--seed", seed, 'U'),
};

#define NR_NUM_OPTS	((int)(sizeof(num_opts) / sizeof(num_opts[0])))

static void set_num(struct sim_roce_config *c, const struct num_opt *o,
		    double v)
{
	char *p = (char *)c + o->off;

	if (o->type == 'u')
		*(u32 *)p = (u32)v;
	else if (o->type == 'U')
		*(u64 *)p = (u64)v;
	else
		*(double *)p = v;
}

int sim_roce_main(int argc, char **argv)
{
	struct sim_roce_config c;
	struct sim_roce_result r;
	bool json = false, score = false;
	int i, k;
	double v;

	sim_roce_defaults(&c);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');

		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--score")) {
			score = true;
		} else if (!strcmp(a, "--algo") && i + 1 < argc) {
			for (k = 0; k < AICC_ROCE_NR_ALGOS; k++)
				if (!strcmp(argv[i + 1], aicc_roce_algo_name[k]))
					break;
			if (k == AICC_ROCE_NR_ALGOS) {
				fprintf(stderr,
					"aicc-sim roce: unknown algo '%s' (off, dcqcn, aicc)\n",
					argv[i + 1]);
				return 2;
			}
			c.knobs[AICC_RK_CC_ALGO] = (u32)k;
			i++;
		} else if (a[0] == '-') {
			for (k = 0; k < NR_NUM_OPTS; k++)
				if (!strcmp(a, num_opts[k].name))
					break;
			if (k == NR_NUM_OPTS) {
				fprintf(stderr, "aicc-sim roce: unknown option '%s'\n", a);
				return 2;
			}
			if (opt_val(argc, argv, &i, &num_opts[k], &v))
				return 2;
			set_num(&c, &num_opts[k], v);
		} else if (eq) {
			char name[64];
			size_t l = (size_t)(eq - a);
			char *end;
			unsigned long long x;

			if (l >= sizeof(name))
				l = sizeof(name) - 1;
			memcpy(name, a, l);
			name[l] = 0;
			for (k = 0; k < AICC_ROCE_NR_KNOBS; k++)
				if (!strcmp(aicc_roce_knob_desc[k].name, name))
					break;
			errno = 0;
			x = strtoull(eq + 1, &end, 10);
			if (k == AICC_ROCE_NR_KNOBS || errno || *end || !eq[1] ||
			    roce_knob_check((unsigned int)k, x)) {
				fprintf(stderr, "aicc-sim roce: bad knob setting '%s'\n", a);
				return 2;
			}
			c.knobs[k] = (u32)x;
		} else {
			fprintf(stderr, "aicc-sim roce: unexpected argument '%s'\n", a);
			return 2;
		}
	}
	if (score) {
		printf("%.4f\n", sim_roce_score(c.knobs));
		return 0;
	}
	if (sim_roce_run(&c, &r)) {
		fprintf(stderr, "aicc-sim roce: %s\n", r.err);
		return 1;
	}
	if (json) {
		printf("{\"algo\": \"%s\", \"flows\": %u, ",
		       aicc_roce_algo_name[c.knobs[AICC_RK_CC_ALGO]], c.flows);
		printf("\"goodput\": %.4f, \"qdelay_mean_us\": %.1f, ",
		       r.goodput, r.qdelay_mean_us);
		printf("\"qdelay_p99_us\": %.1f, \"jain\": %.4f, ",
		       r.qdelay_p99_us, r.jain);
		printf("\"cnps\": %llu, \"cuts\": %llu, \"ce\": %llu, ",
		       (unsigned long long)r.cnps, (unsigned long long)r.cuts,
		       (unsigned long long)r.ce);
		printf("\"drops\": %llu, \"sent\": %llu, ",
		       (unsigned long long)r.drops, (unsigned long long)r.sent);
		printf("\"timeouts\": %llu}\n", (unsigned long long)r.timeouts);
		return 0;
	}
	printf("algo %s flows %u: goodput %.3f of the bottleneck, ",
	       aicc_roce_algo_name[c.knobs[AICC_RK_CC_ALGO]], c.flows, r.goodput);
	printf("queue delay mean %.0f us p99 %.0f us, Jain %.3f, ",
	       r.qdelay_mean_us, r.qdelay_p99_us, r.jain);
	printf("CNPs %llu, cuts %llu, CE %llu, drops %llu, timeouts %llu\n",
	       (unsigned long long)r.cnps, (unsigned long long)r.cuts,
	       (unsigned long long)r.ce, (unsigned long long)r.drops,
	       (unsigned long long)r.timeouts);
	return 0;
}
