// SPDX-License-Identifier: GPL-2.0
/*
 * aiccgen rpc: open-loop request/response over one or a few persistent
 * connections.  Requests are issued at scheduled times (Poisson arrivals or
 * fixed spacing) whether or not earlier ones were answered, and latency is
 * measured from the scheduled time to the arrival of the last response
 * byte, so a stalled connection shows up in the tail instead of slowing
 * the sender down.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "aiccgen.h"

#define RPC_MAX_REQS	20000000ull

enum {
	OPT_REQ = OPT_MODE_BASE,
	OPT_RESP,
	OPT_RATE,
	OPT_CONNS,
	OPT_SPACING,
	OPT_SEED,
	OPT_DRAIN,
	OPT_START_DELAY,
};

struct rpc {
	struct copts o;
	struct mclient m;		/* m.n: the connections */
	uint64_t req, resp;
	double rate, secs, drain, start_delay;
	bool fixed;
	uint64_t seed;

	uint64_t t0, t_end;
	uint64_t t_stop;		/* when the run's loop ended */
	uint64_t *sched;		/* scheduled send time per request */
	bool *answered;			/* per request: its ACK has come */
	size_t issued, cap;
	uint64_t *lat;
	size_t nlat;
	uint64_t outstanding;
	int rr;
};

static void rpc_help(FILE *f)
{
	fprintf(f,
		"usage: %s rpc -c HOST [-p PORT] [--req BYTES] [--resp BYTES]\n"
		"                   [--rate PER_S] [-t SEC] [--conns K]\n"
		"                   [--spacing poisson|fixed] [--start-delay SEC]\n"
		"                   [--cc NAME] [-j]\n\n"
		"Open-loop request/response over persistent connections.  Latency is\n"
		"measured from each request's scheduled time to its complete response,\n"
		"and reported as min/mean/p50/p90/p99/p99.9/max in microseconds.\n\n"
		"  --req BYTES          request size (default 64)\n"
		"  --resp BYTES         response size (default 64)\n"
		"  --rate PER_S         requests per second, all connections (default 1000)\n"
		"  -t, --time SEC       issuing period (default 10)\n"
		"  --conns K            connections, used round-robin (default 1)\n"
		"  --spacing S          poisson (exponential gaps, default) or fixed\n"
		"  --seed N             seed for the Poisson arrivals, 1 or more\n"
		"                       (default 1)\n"
		"  --drain SEC          wait this long for late responses (default 2)\n"
		"  --start-delay SEC    connect, then wait this long before the first\n"
		"                       request (connections set up before a load)\n",
		GEN_NAME);
	copts_help(f);
}

/*
 * An ACK's header: it must answer a request that was sent and not yet
 * answered.  It counts as the answer from here on (another connection's
 * ACK for the same request may arrive before this one's payload), so a
 * second ACK for a request is refused whichever connection it comes on.
 */
static int rpc_hdr(void *ctx, const struct wire_msg *m)
{
	struct rpc *r = ctx;
	const char *why;

	if (m->kind != MSG_ACK)
		why = "came with a message that is not an answer";
	else if (m->seq >= r->issued)
		why = "was never sent";
	else if (r->answered[m->seq])
		why = "answered twice";
	else
		why = NULL;
	if (why) {
		mc_fail(&r->m, "connection %d: protocol error from the server: request %u %s",
			r->m.cur, m->seq, why);
		return -EPROTO;
	}
	r->answered[m->seq] = true;
	return 0;
}

static int rpc_done(void *ctx, const struct wire_msg *m)
{
	struct rpc *r = ctx;
	uint64_t now = now_ns();

	r->lat[r->nlat++] = now > r->sched[m->seq] ? now - r->sched[m->seq] : 0;
	r->outstanding--;
	return 0;
}

static const struct rxp_ops rpc_ops = { .hdr = rpc_hdr, .done = rpc_done };

static uint64_t rpc_gap(struct rpc *r)
{
	double g = r->fixed ? 1.0 / r->rate : -log(prng_unit(&r->seed)) / r->rate;

	return (uint64_t)(g * 1e9);
}

static int rpc_issue(struct rpc *r, uint64_t when)
{
	struct cconn *c = &r->m.c[r->rr];
	struct wire_msg m = {
		.kind = MSG_REQ, .len = r->req, .resp_len = r->resp,
	};

	r->rr = (r->rr + 1) % r->m.n;
	if (r->issued == r->cap) {
		size_t ncap = r->cap * 2;
		uint64_t *s = realloc(r->sched, ncap * sizeof(*s));
		uint64_t *l = realloc(r->lat, ncap * sizeof(*l));
		bool *a = realloc(r->answered, ncap * sizeof(*a));

		if (s)
			r->sched = s;
		if (l)
			r->lat = l;
		if (a)
			r->answered = a;
		if (!s || !l || !a) {
			mc_fail(&r->m, "out of memory");
			return -1;
		}
		memset(a + r->cap, 0, (ncap - r->cap) * sizeof(*a));
		r->cap = ncap;
	}
	m.seq = r->issued;
	r->sched[r->issued++] = when;
	r->outstanding++;
	if (txq_push(&c->tx, &m) < 0) {
		mc_fail(&r->m, "out of memory");
		return -1;
	}
	return 0;
}

/*
 * --start-delay: the connections are up; stay idle until the first
 * request, so that they were set up before whatever load starts meanwhile.
 * Not past the run's deadline: rpc_run() then reports it.  The wait is the
 * run's own event loop (mc_poll()), which a stop signal wakes at once and
 * which notices a connection the server closes meanwhile.
 */
static void rpc_start_delay(struct rpc *r, uint64_t deadline)
{
	uint64_t end = ns_after(now_ns(), r->start_delay);

	if (end > deadline)
		end = deadline;
	while (!gen_stop && !r->m.error[0] && now_ns() < end)
		if (mc_poll(&r->m, end, deadline) < 0)
			return;
}

static int rpc_run(struct rpc *r, uint64_t deadline)
{
	uint64_t next, drain_end;
	bool issuing = true;

	r->t0 = now_ns();
	r->t_end = r->t0 + (uint64_t)(r->secs * 1e9);
	drain_end = r->t_end + (uint64_t)(r->drain * 1e9);
	next = r->t0 + rpc_gap(r);
	while (!r->m.error[0]) {
		uint64_t now = now_ns(), wake;

		if (gen_stop) {
			mc_fail(&r->m, "interrupted");
			break;
		}
		while (issuing && next <= now) {
			if (next >= r->t_end) {
				issuing = false;
				break;
			}
			if (rpc_issue(r, next) < 0)
				break;
			next += rpc_gap(r);
		}
		if (issuing && next >= r->t_end && now >= r->t_end)
			issuing = false;
		for (int i = 0; i < r->m.n; i++) {
			struct cconn *c = &r->m.c[i];
			int e;

			if (c->fd < 0 || txq_empty(&c->tx))
				continue;
			e = txq_flush(&c->tx, c->fd);
			if (e < 0) {
				mc_conn_fail(&r->m, c, "send", -e);
				break;
			}
			mc_events(&r->m, c);
		}
		if (r->m.error[0])
			break;
		if (!issuing && (r->outstanding == 0 || now >= drain_end))
			break;
		if (now >= deadline) {
			mc_fail(&r->m, "run deadline exceeded");
			break;
		}
		wake = issuing ? (next < r->t_end ? next : r->t_end) : drain_end;
		if (mc_poll(&r->m, wake, deadline) < 0)
			break;
	}
	r->t_stop = now_ns();
	return mc_close(&r->m);
}

/* How much of the -t period was run: less if the run stopped early. */
static double rpc_elapsed(const struct rpc *r)
{
	return r->t_stop < r->t_end ? ns_to_s(r->t_stop - r->t0) : r->secs;
}

static void rpc_report(struct rpc *r, const struct netns_counters *na,
		       const struct netns_counters *nb)
{
	static const struct { const char *key, *label; double p; } pcts[] = {
		{ "p50_us", "p50", 50 }, { "p90_us", "p90", 90 },
		{ "p99_us", "p99", 99 }, { "p999_us", "p99.9", 99.9 },
	};
	size_t n = r->nlat;
	double mean = 0, elapsed = rpc_elapsed(r);
	struct jw w;
	size_t i;

	for (i = 0; i < n; i++)
		mean += r->lat[i];
	if (n) {
		mean /= n;
		qsort(r->lat, n, sizeof(uint64_t), cmp_u64);
	}

	if (r->o.json) {
		jw_init(&w, stdout);
		jw_obj(&w, NULL);
		jw_str(&w, "mode", "rpc");
		/* the first host: what "host" was before the list */
		jw_str(&w, "host", r->o.hosts[0]);
		copts_hosts_json(&w, &r->o);
		jw_int(&w, "port", r->o.port);
		jw_int(&w, "nconns", r->m.n);
		jw_uint(&w, "req_bytes", r->req);
		jw_uint(&w, "resp_bytes", r->resp);
		jw_num(&w, "rate", r->rate);
		jw_str(&w, "spacing", r->fixed ? "fixed" : "poisson");
		jw_num(&w, "duration_s", r->secs);
		jw_num(&w, "start_delay_s", r->start_delay);
		jw_str(&w, "cc_requested", r->o.cc);
		jw_str(&w, "server_cc_requested", r->o.server_cc);
		jw_uint(&w, "sent", r->issued);
		jw_uint(&w, "completed", n);
		jw_uint(&w, "lost", r->outstanding);
		jw_num(&w, "elapsed_s", elapsed);
		jw_num(&w, "achieved_rate", elapsed > 0 ? n / elapsed : 0);
		jw_obj(&w, "latency");
		if (n) {
			jw_num(&w, "min_us", ns_to_us(r->lat[0]));
			jw_num(&w, "mean_us", mean / 1e3);
			for (i = 0; i < 4; i++)
				jw_num(&w, pcts[i].key,
				       ns_to_us(pct_sorted(r->lat, n, pcts[i].p)));
			jw_num(&w, "max_us", ns_to_us(r->lat[n - 1]));
		}
		jw_obj_end(&w);
		mc_report_end(&r->m, &w, na, nb);
		return;
	}

	printf("%s rpc: %d connection%s to %s port %d, %llu/%llu bytes, %g req/s %s, %g s, cc %s\n",
	       GEN_NAME, r->m.n, r->m.n > 1 ? "s" : "", r->o.hosts_arg,
	       r->o.port, (unsigned long long)r->req,
	       (unsigned long long)r->resp, r->rate,
	       r->fixed ? "fixed" : "poisson", r->secs,
	       r->o.cc ? r->o.cc : "default");
	printf("requests: %zu sent, %zu completed, %llu lost; %.1f completed/s over %.3f s\n",
	       r->issued, n, (unsigned long long)r->outstanding,
	       elapsed > 0 ? n / elapsed : 0, elapsed);
	if (n) {
		printf("latency us: min %.1f mean %.1f", ns_to_us(r->lat[0]),
		       mean / 1e3);
		for (i = 0; i < 4; i++)
			printf(" %s %.1f", pcts[i].label,
			       ns_to_us(pct_sorted(r->lat, n, pcts[i].p)));
		printf(" max %.1f\n", ns_to_us(r->lat[n - 1]));
	}
	mc_report_end(&r->m, NULL, na, nb);
}

int cmd_rpc(int argc, char **argv)
{
	static const struct option mode_lo[] = {
		GEN_LO_ARG("req", OPT_REQ),
		GEN_LO_ARG("resp", OPT_RESP),
		GEN_LO_ARG("rate", OPT_RATE),
		GEN_LO_ARG("time", 't'),
		GEN_LO_ARG("conns", OPT_CONNS),
		GEN_LO_ARG("spacing", OPT_SPACING),
		GEN_LO_ARG("seed", OPT_SEED),
		GEN_LO_ARG("drain", OPT_DRAIN),
		GEN_LO_ARG("start-delay", OPT_START_DELAY),
		{ NULL, 0, NULL, 0 },
	};
	struct rpc r = {
		.m.n = 1, .m.ops = &rpc_ops, .m.ctx = &r, .req = 64, .resp = 64,
		.rate = 1000, .secs = 10, .drain = 2, .seed = 1,
	};
	struct netns_counters na, nb;
	struct option *lo;
	uint64_t deadline;
	double expect;
	int opt;
	bool failed = false;

	lo = copts_start(&r.o, mode_lo, rpc_help);
	while ((opt = copts_next(&r.o, argc, argv, "t:", lo)) != -1) {
		switch (opt) {
		case OPT_REQ:
			r.req = parse_size("--req", optarg, 0, 1ull << 30);
			break;
		case OPT_RESP:
			r.resp = parse_size("--resp", optarg, 0, 1ull << 30);
			break;
		case OPT_RATE:
			r.rate = parse_double("--rate", optarg, 0.01, 1e6);
			break;
		case 't':
			r.secs = parse_double("-t", optarg, 0.01, 86400);
			break;
		case OPT_CONNS:
			r.m.n = parse_uint("--conns", optarg, 1, GEN_MAX_CONNS);
			break;
		case OPT_SPACING:
			if (!strcmp(optarg, "fixed"))
				r.fixed = true;
			else if (strcmp(optarg, "poisson"))
				gen_usage_err("--spacing: expected poisson or fixed, got '%s'",
					      optarg);
			break;
		case OPT_SEED:
			/*
			 * Not 0: the generator's state cannot be 0, and
			 * prng_next() replaces it with a constant, which
			 * is another seed's stream.
			 */
			r.seed = parse_uint("--seed", optarg, 1, UINT64_MAX);
			break;
		case OPT_DRAIN:
			r.drain = parse_double("--drain", optarg, 0, 3600);
			break;
		case OPT_START_DELAY:
			r.start_delay = parse_double("--start-delay", optarg, 0,
						     3600);
			break;
		}
	}
	expect = r.rate * r.secs;
	if (expect > RPC_MAX_REQS)
		gen_usage_err("--rate %g for %g s is %.0f requests, more than %llu",
			      r.rate, r.secs, expect, RPC_MAX_REQS);
	if (r.o.cc && check_cc(r.o.cc) < 0)
		return GEN_EXIT_RUN;

	r.cap = (size_t)(expect * 1.2) + 1024;
	r.sched = malloc(r.cap * sizeof(*r.sched));
	r.lat = malloc(r.cap * sizeof(*r.lat));
	r.answered = calloc(r.cap, sizeof(*r.answered));
	r.m.c = calloc(r.m.n, sizeof(*r.m.c));
	if (!r.sched || !r.lat || !r.answered || !r.m.c) {
		gen_err("out of memory");
		return GEN_EXIT_RUN;
	}
	/* Wake up on time: timer slack would add to every latency. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	if (loop_init(&r.m.l) < 0)
		return GEN_EXIT_RUN;
	deadline = ns_after(now_ns(), r.o.timeout > 0 ? r.o.timeout :
			    r.o.connect_timeout + r.start_delay + r.secs +
			    r.drain + 10);
	netns_counters_read(&na);
	if (mc_open(&r.m, &r.o, deadline) < 0)
		return GEN_EXIT_RUN;
	rpc_start_delay(&r, deadline);
	failed = rpc_run(&r, deadline) < 0;
	netns_counters_read(&nb);
	rpc_report(&r, &na, &nb);
	loop_free(&r.m.l);
	return failed ? GEN_EXIT_RUN : 0;
}
