// SPDX-License-Identifier: GPL-2.0
/*
 * aiccgen incast: synchronized bursts over persistent connections, like the
 * communication phase of a training iteration, separated by idle "compute"
 * gaps.  All connections are opened once, before the first iteration.
 *
 * Patterns, with one server standing for the remote rank(s):
 *
 *  incast    every connection sends SIZE bytes at once (N -> 1); the server
 *            acknowledges each burst with a tiny message.
 *  alltoall  every connection sends SIZE bytes and receives SIZE bytes at
 *            the same time: the server starts its reply as soon as the
 *            request header arrives, so both directions of the bottleneck
 *            carry N*SIZE bytes concurrently.
 *  ring      ring all-reduce: 2(N-1) dependent steps; in each step every
 *            connection exchanges a SIZE/N chunk in both directions, and
 *            the next step starts when all connections finished this one.
 *  p2p       pipeline point-to-point: the connections take turns, each
 *            sending SIZE bytes alone, one after the other.
 *
 * An iteration's completion time runs from the moment its first burst is
 * handed to the sockets to the last acknowledgment of its last step.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aiccgen.h"

enum pattern { PAT_INCAST, PAT_ALLTOALL, PAT_RING, PAT_P2P };

static const char * const pattern_names[] = {
	"incast", "alltoall", "ring", "p2p",
};

enum {
	OPT_SIZE = OPT_MODE_BASE,
	OPT_ITERS,
	OPT_GAP,
	OPT_PATTERN,
	OPT_RATE,
	OPT_BASE_RTT,
	OPT_WARMUP,
	OPT_ITER_TIMEOUT,
};

struct iter_res {
	uint64_t start;		/* relative to t0 */
	uint64_t ct;
	uint64_t fmin, fmax;
	uint64_t retrans;	/* sum of tcpi_total_retrans deltas */
	int64_t rto;		/* sum of tcpi_total_rto deltas, -1: n/a */
	int64_t netns_rto;	/* TcpExt TCPTimeouts delta, -1: n/a */
};

struct counters {
	uint64_t retrans, rto;
	bool rto_ok;
	struct netns_counters ns;
};

struct burst {
	struct copts o;
	struct mclient m;		/* m.n: the connections */
	enum pattern pat;
	uint64_t size, chunk;
	int iters, warmup, nphases;
	double gap_ms, rate_mbit, base_rtt_us, iter_timeout;
	double ideal_us;
	uint64_t bytes_per_iter;	/* per direction, whole iteration */

	/* run state */
	uint64_t t0, t_iter;
	int iter, phase, pending;
	uint32_t seq;
	uint64_t *done_at;
	bool *busy;
	struct iter_res *res;
	int nres;
	struct counters cnt;		/* at the end of the last iteration */
};

static void burst_help(FILE *f)
{
	fprintf(f,
		"usage: %s incast -c HOST[,HOST...] [-n SENDERS] [--size BYTES]\n"
		"                      [--iters K] [--gap MS] [--pattern P]\n"
		"                      [--rate-mbit R] [--base-rtt US] [--cc NAME] [-j]\n\n"
		"Synchronized bursts over N persistent connections (opened once), one\n"
		"burst per iteration, with an idle gap between iterations.  Reports\n"
		"each iteration's completion time (first byte handed to the sockets to\n"
		"the last acknowledgment) and p50/p99/max, and the ratio to the ideal\n"
		"time when the bottleneck rate is given.\n\n"
		"  -n, --senders N      connections (default 4, max %d)\n"
		"  --size BYTES         bytes per connection per burst (default 256K;\n"
		"                       suffixes K, M, G are powers of 1024)\n"
		"  --iters K            measured iterations (default 10)\n"
		"  --warmup K           extra iterations run first, not counted\n"
		"  --gap MS             idle time between iterations (default 100)\n"
		"  --pattern P          incast (N->1 bursts, default), alltoall (both\n"
		"                       directions at once), ring (all-reduce: 2(N-1)\n"
		"                       steps of SIZE/N chunks), p2p (one connection\n"
		"                       at a time)\n"
		"  --rate-mbit R        bottleneck rate; adds ideal time and ratios\n"
		"  --base-rtt US        base RTT added once per dependent step to the\n"
		"                       ideal time (default 0)\n"
		"  --iter-timeout SEC   fail an iteration after SEC (default 10)\n",
		GEN_NAME, GEN_MAX_CONNS);
	copts_help(f);
}

static bool phase_uses(const struct burst *b, int phase, int i)
{
	return b->pat != PAT_P2P || phase == i;
}

static void phase_msg(const struct burst *b, struct wire_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->seq = b->seq;
	m->kind = MSG_REQ;
	switch (b->pat) {
	case PAT_INCAST:
	case PAT_P2P:
		m->len = b->size;
		break;
	case PAT_ALLTOALL:
		m->len = b->size;
		m->resp_len = b->size;
		m->flags = MSG_F_EARLY;
		break;
	case PAT_RING:
		m->len = b->chunk;
		m->resp_len = b->chunk;
		m->flags = MSG_F_EARLY;
		break;
	}
}

static void start_phase(struct burst *b)
{
	struct wire_msg m;
	int i;

	b->seq++;
	phase_msg(b, &m);
	for (i = 0; i < b->m.n; i++) {
		if (!phase_uses(b, b->phase, i))
			continue;
		if (txq_push(&b->m.c[i].tx, &m) < 0) {
			mc_fail(&b->m, "out of memory");
			return;
		}
		b->busy[i] = true;
		b->pending++;
	}
	/*
	 * Hand each burst's first slice to the kernel in turn so that they
	 * start together; mc_poll() sends the rest a slice at a time, reading
	 * acknowledgements and watching the deadlines in between (a loop
	 * here until every socket was full never ended while the receiver
	 * kept up).
	 */
	for (i = 0; i < b->m.n; i++) {
		struct cconn *c = &b->m.c[i];
		ssize_t r;

		if (!b->busy[i] || c->fd < 0 || txq_empty(&c->tx))
			continue;
		r = txq_flush_limit(&c->tx, c->fd, GEN_SLICE);
		if (r < 0) {
			mc_conn_fail(&b->m, c, "send", (int)-r);
			return;
		}
	}
	for (i = 0; i < b->m.n; i++)
		if (b->busy[i])
			mc_events(&b->m, &b->m.c[i]);
}

static int cl_hdr(void *ctx, const struct wire_msg *m)
{
	struct burst *b = ctx;

	if (m->kind == MSG_REQ || m->seq != b->seq || !b->busy[b->m.cur])
		return -EPROTO;
	return 0;
}

static int cl_done(void *ctx, const struct wire_msg *m)
{
	struct burst *b = ctx;
	int i = b->m.cur;

	if (m->kind != MSG_ACK)
		return 0;
	b->busy[i] = false;
	b->done_at[i] = now_ns();
	b->pending--;
	return 0;
}

static const struct rxp_ops cl_ops = { .hdr = cl_hdr, .done = cl_done };

/* Retransmission and RTO counters summed over the connections. */
static void read_counters(struct burst *b, struct counters *k)
{
	memset(k, 0, sizeof(*k));
	k->rto_ok = true;
	for (int i = 0; i < b->m.n; i++) {
		struct cconn *c = &b->m.c[i];

		if (c->fd < 0 || tcpinfo_get(c->fd, &c->ti) < 0)
			continue;
		k->retrans += c->ti.ti.total_retrans;
		if (TI_HAS(&c->ti, total_rto))
			k->rto += c->ti.ti.total_rto;
		else
			k->rto_ok = false;
	}
	netns_counters_read(&k->ns);
}

static void finish_iteration(struct burst *b, uint64_t now)
{
	struct counters k;

	struct iter_res *r = &b->res[b->nres++];

	r->start = b->t_iter - b->t0;
	r->ct = now - b->t_iter;
	r->fmin = UINT64_MAX;
	r->fmax = 0;
	for (int i = 0; i < b->m.n; i++) {
		uint64_t d = b->done_at[i] - b->t_iter;

		if (d < r->fmin)
			r->fmin = d;
		if (d > r->fmax)
			r->fmax = d;
	}
	/* The last acknowledgment is the iteration's end. */
	r->ct = r->fmax;

	/* Counters are read after the clock stopped, during the gap. */
	read_counters(b, &k);
	r->retrans = k.retrans - b->cnt.retrans;
	r->rto = k.rto_ok ? (int64_t)(k.rto - b->cnt.rto) : -1;
	r->netns_rto = k.ns.valid && b->cnt.ns.valid ?
		       (int64_t)(k.ns.timeouts - b->cnt.ns.timeouts) : -1;
	b->cnt = k;
}

static int burst_run(struct burst *b, uint64_t deadline)
{
	uint64_t next_start, gap = (uint64_t)(b->gap_ms * 1e6);
	uint64_t it_to = (uint64_t)(b->iter_timeout * 1e9);
	int total = b->iters + b->warmup;
	bool running = false;

	b->m.ctx = b;
	read_counters(b, &b->cnt);
	b->t0 = now_ns();
	next_start = b->t0;
	while (!b->m.error[0]) {
		uint64_t now = now_ns(), wake;

		if (gen_stop) {
			mc_fail(&b->m, "interrupted");
			break;
		}
		if (running && b->pending == 0) {
			if (++b->phase < b->nphases) {
				start_phase(b);
				continue;
			}
			finish_iteration(b, now);
			running = false;
			if (++b->iter == total)
				break;
			/*
			 * The counters finish_iteration() read took time: the
			 * gap, and with --gap 0 the next iteration's start
			 * (t_iter), count from after them.
			 */
			now = now_ns();
			next_start = now + gap;
		}
		if (!running && now >= next_start) {
			b->t_iter = now;
			b->phase = 0;
			running = true;
			start_phase(b);
			continue;
		}
		if (now >= deadline) {
			mc_fail(&b->m, "run deadline exceeded in iteration %d",
				b->iter);
			break;
		}
		if (running && now >= b->t_iter + it_to) {
			mc_fail(&b->m,
				"iteration %d timed out after %g s (step %d of %d, %d connection%s still waiting)",
				b->iter, b->iter_timeout, b->phase + 1,
				b->nphases, b->pending,
				b->pending == 1 ? "" : "s");
			break;
		}
		wake = running ? b->t_iter + it_to : next_start;
		if (mc_poll(&b->m, wake, deadline) < 0)
			break;
	}
	return mc_close(&b->m);
}

static void burst_report(struct burst *b, const struct netns_counters *na,
			 const struct netns_counters *nb)
{
	int cnt = b->nres > b->warmup ? b->nres - b->warmup : 0;
	uint64_t *v = calloc(cnt ? cnt : 1, sizeof(uint64_t));
	bool ideal = b->ideal_us > 0, rto_ok = true, nrto_ok = true;
	uint64_t retrans = 0;
	int64_t rto = 0, nrto = 0;
	double mean = 0;
	struct jw w;
	int i;

	for (i = 0; i < cnt && v; i++) {
		struct iter_res *r = &b->res[b->warmup + i];

		v[i] = r->ct;
		mean += v[i];
		retrans += r->retrans;
		if (r->rto < 0)
			rto_ok = false;
		else
			rto += r->rto;
		if (r->netns_rto < 0)
			nrto_ok = false;
		else
			nrto += r->netns_rto;
	}
	if (cnt && v) {
		mean /= cnt;
		qsort(v, cnt, sizeof(uint64_t), cmp_u64);
	}
	if (!v)
		cnt = 0;

	if (b->o.json) {
		jw_init(&w, stdout);
		jw_obj(&w, NULL);
		jw_str(&w, "mode", "incast");
		jw_str(&w, "pattern", pattern_names[b->pat]);
		copts_hosts_json(&w, &b->o);
		jw_int(&w, "port", b->o.port);
		jw_int(&w, "nconns", b->m.n);
		jw_uint(&w, "size", b->size);
		if (b->pat == PAT_RING)
			jw_uint(&w, "chunk", b->chunk);
		jw_int(&w, "steps", b->nphases);
		jw_uint(&w, "bytes_per_iter", b->bytes_per_iter);
		jw_int(&w, "iters", b->iters);
		jw_int(&w, "warmup", b->warmup);
		jw_num(&w, "gap_ms", b->gap_ms);
		jw_str(&w, "cc_requested", b->o.cc);
		jw_str(&w, "server_cc_requested", b->o.server_cc);
		jw_num(&w, "rate_mbit", ideal ? b->rate_mbit : NAN);
		jw_num(&w, "base_rtt_us", b->base_rtt_us);
		jw_num(&w, "ideal_us", ideal ? b->ideal_us : NAN);
		jw_arr(&w, "iterations");
		for (i = 0; i < b->nres; i++) {
			struct iter_res *r = &b->res[i];

			jw_obj(&w, NULL);
			jw_int(&w, "iter", i - b->warmup);
			jw_bool(&w, "warmup", i < b->warmup);
			jw_num(&w, "start_s", ns_to_s(r->start));
			jw_num(&w, "ct_us", ns_to_us(r->ct));
			jw_num(&w, "flow_min_us", ns_to_us(r->fmin));
			jw_num(&w, "flow_max_us", ns_to_us(r->fmax));
			jw_num(&w, "ratio", ideal ? ns_to_us(r->ct) / b->ideal_us : NAN);
			jw_uint(&w, "retrans", r->retrans);
			if (r->rto < 0)
				jw_null(&w, "rto");
			else
				jw_int(&w, "rto", r->rto);
			if (r->netns_rto < 0)
				jw_null(&w, "netns_rto");
			else
				jw_int(&w, "netns_rto", r->netns_rto);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_obj(&w, "summary");
		jw_int(&w, "count", cnt);
		if (cnt) {
			double p50 = ns_to_us(pct_sorted(v, cnt, 50));
			double p99 = ns_to_us(pct_sorted(v, cnt, 99));
			double mx = ns_to_us(v[cnt - 1]);

			jw_num(&w, "min_us", ns_to_us(v[0]));
			jw_num(&w, "mean_us", mean / 1e3);
			jw_num(&w, "p50_us", p50);
			jw_num(&w, "p99_us", p99);
			jw_num(&w, "max_us", mx);
			jw_num(&w, "ratio_p50", ideal ? p50 / b->ideal_us : NAN);
			jw_num(&w, "ratio_p99", ideal ? p99 / b->ideal_us : NAN);
			jw_num(&w, "ratio_max", ideal ? mx / b->ideal_us : NAN);
		}
		jw_uint(&w, "retrans", retrans);
		if (rto_ok)
			jw_int(&w, "rto", rto);
		else
			jw_null(&w, "rto");
		if (nrto_ok)
			jw_int(&w, "netns_rto", nrto);
		else
			jw_null(&w, "netns_rto");
		jw_obj_end(&w);
		mc_report_end(&b->m, &w, na, nb);
		free(v);
		return;
	}

	printf("%s incast: pattern %s, %d connection%s to %s port %d, cc %s\n",
	       GEN_NAME, pattern_names[b->pat], b->m.n, b->m.n > 1 ? "s" : "",
	       b->o.hosts_arg, b->o.port, b->o.cc ? b->o.cc : "default");
	printf("%llu bytes each, %d step%s, %d iterations (+%d warmup), gap %g ms\n",
	       (unsigned long long)b->size, b->nphases,
	       b->nphases > 1 ? "s" : "", b->iters, b->warmup, b->gap_ms);
	printf("%5s %10s %12s %12s %12s %7s %5s%s\n", "iter", "start_s", "ct_us",
	       "flow_min_us", "flow_max_us", "retrans", "rto",
	       ideal ? "   ratio" : "");
	for (i = 0; i < b->nres; i++) {
		struct iter_res *r = &b->res[i];

		printf("%5d %10.3f %12.1f %12.1f %12.1f %7llu", i - b->warmup,
		       ns_to_s(r->start), ns_to_us(r->ct), ns_to_us(r->fmin),
		       ns_to_us(r->fmax), (unsigned long long)r->retrans);
		if (r->rto >= 0 || r->netns_rto >= 0)
			printf(" %5lld", (long long)(r->rto >= 0 ? r->rto :
						     r->netns_rto));
		else
			printf(" %5s", "-");
		if (ideal)
			printf(" %7.3fx", ns_to_us(r->ct) / b->ideal_us);
		printf("%s\n", i < b->warmup ? "  (warmup)" : "");
	}
	if (cnt) {
		double p50 = ns_to_us(pct_sorted(v, cnt, 50));
		double p99 = ns_to_us(pct_sorted(v, cnt, 99));
		double mx = ns_to_us(v[cnt - 1]);

		printf("completion over %d iterations, us: ", cnt);
		printf("min %.1f mean %.1f p50 %.1f p99 %.1f max %.1f\n",
		       ns_to_us(v[0]), mean / 1e3, p50, p99, mx);
		printf("retransmissions %llu, RTOs %s%lld\n",
		       (unsigned long long)retrans,
		       rto_ok ? "" : nrto_ok ? "(netns) " : "n/a ",
		       (long long)(rto_ok ? rto : nrto_ok ? nrto : 0));
		if (ideal)
			printf("ideal %.1f us at %g Mbit/s: p50 %.3fx p99 %.3fx max %.3fx\n",
			       b->ideal_us, b->rate_mbit, p50 / b->ideal_us,
			       p99 / b->ideal_us, mx / b->ideal_us);
	}
	mc_report_end(&b->m, NULL, na, nb);
	free(v);
}

int cmd_incast(int argc, char **argv)
{
	static const struct option mode_lo[] = {
		GEN_LO_ARG("senders", 'n'),
		GEN_LO_ARG("size", OPT_SIZE),
		GEN_LO_ARG("iters", OPT_ITERS),
		GEN_LO_ARG("gap", OPT_GAP),
		GEN_LO_ARG("pattern", OPT_PATTERN),
		GEN_LO_ARG("rate-mbit", OPT_RATE),
		GEN_LO_ARG("base-rtt", OPT_BASE_RTT),
		GEN_LO_ARG("warmup", OPT_WARMUP),
		GEN_LO_ARG("iter-timeout", OPT_ITER_TIMEOUT),
		{ NULL, 0, NULL, 0 },
	};
	struct burst b = {
		.m.n = 4, .m.ops = &cl_ops, .size = 256 * 1024, .iters = 10, .gap_ms = 100,
		.iter_timeout = 10,
	};
	struct netns_counters na, nb;
	struct option *lo;
	uint64_t deadline;
	int opt, i, total;
	bool failed = false;

	lo = copts_start(&b.o, mode_lo, burst_help);
	while ((opt = copts_next(&b.o, argc, argv, "n:", lo)) != -1) {
		switch (opt) {
		case 'n':
			b.m.n = parse_uint("-n", optarg, 1, GEN_MAX_CONNS);
			break;
		case OPT_SIZE:
			b.size = parse_size("--size", optarg, 1, 1ull << 30);
			break;
		case OPT_ITERS:
			b.iters = parse_uint("--iters", optarg, 1, 1000000);
			break;
		case OPT_WARMUP:
			b.warmup = parse_uint("--warmup", optarg, 0, 1000000);
			break;
		case OPT_GAP:
			b.gap_ms = parse_double("--gap", optarg, 0, 3600000);
			break;
		case OPT_PATTERN:
			for (i = 0; i < 4; i++)
				if (!strcmp(optarg, pattern_names[i]))
					break;
			if (i == 4)
				gen_usage_err("--pattern: expected incast, alltoall, ring or p2p, got '%s'",
					      optarg);
			b.pat = i;
			break;
		case OPT_RATE:
			b.rate_mbit = parse_double("--rate-mbit", optarg, 0.001,
						   1e7);
			break;
		case OPT_BASE_RTT:
			b.base_rtt_us = parse_double("--base-rtt", optarg, 0, 1e7);
			break;
		case OPT_ITER_TIMEOUT:
			b.iter_timeout = parse_double("--iter-timeout", optarg,
						      0.01, 86400);
			break;
		}
	}

	switch (b.pat) {
	case PAT_INCAST:
	case PAT_ALLTOALL:
		b.nphases = 1;
		b.bytes_per_iter = b.m.n * b.size;
		break;
	case PAT_RING:
		if (b.m.n < 2)
			gen_usage_err("--pattern ring needs at least 2 senders");
		if (b.size < (uint64_t)b.m.n)
			gen_usage_err("--size %llu is smaller than the number of senders",
				      (unsigned long long)b.size);
		b.chunk = b.size / b.m.n;
		b.nphases = 2 * (b.m.n - 1);
		b.bytes_per_iter = (uint64_t)b.nphases * b.m.n * b.chunk;
		break;
	case PAT_P2P:
		b.nphases = b.m.n;
		b.bytes_per_iter = b.m.n * b.size;
		break;
	}
	if (b.rate_mbit > 0)
		b.ideal_us = b.bytes_per_iter * 8.0 / b.rate_mbit +
			     b.nphases * b.base_rtt_us;
	if (b.o.cc && check_cc(b.o.cc) < 0)
		return GEN_EXIT_RUN;

	total = b.iters + b.warmup;
	b.m.c = calloc(b.m.n, sizeof(*b.m.c));
	b.done_at = calloc(b.m.n, sizeof(*b.done_at));
	b.busy = calloc(b.m.n, sizeof(*b.busy));
	b.res = calloc(total, sizeof(*b.res));
	if (!b.m.c || !b.done_at || !b.busy || !b.res) {
		gen_err("out of memory");
		return GEN_EXIT_RUN;
	}
	if (loop_init(&b.m.l) < 0)
		return GEN_EXIT_RUN;
	deadline = ns_after(now_ns(), b.o.timeout > 0 ? b.o.timeout :
			    b.o.connect_timeout + 5 +
			    total * (b.gap_ms / 1e3 + b.iter_timeout));
	netns_counters_read(&na);
	/* A collective needs every rank: do not run with fewer. */
	if (mc_open(&b.m, &b.o, deadline) < 0)
		return GEN_EXIT_RUN;
	failed = burst_run(&b, deadline) < 0;
	netns_counters_read(&nb);
	burst_report(&b, &na, &nb);
	loop_free(&b.m.l);
	return failed ? GEN_EXIT_RUN : 0;
}
