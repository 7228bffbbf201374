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
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>

#include "aiccgen.h"

#define RPC_MAX_REQS	20000000ull
#define RPC_READS	4

enum {
	OPT_REQ = OPT_MODE_BASE,
	OPT_RESP,
	OPT_RATE,
	OPT_CONNS,
	OPT_SPACING,
	OPT_SEED,
	OPT_DRAIN,
};

struct rpc {
	struct copts o;
	struct loop l;
	struct cconn *c;
	int nconns;
	uint64_t req, resp;
	double rate, secs, drain;
	bool fixed;
	uint64_t seed;

	uint64_t t0, t_end;
	uint64_t *sched;		/* scheduled send time per request */
	size_t issued, cap;
	uint64_t *lat;
	size_t nlat;
	uint64_t outstanding;
	int rr;
	char error[256];
};

static void rpc_help(FILE *f)
{
	fprintf(f,
		"usage: %s rpc -c HOST [-p PORT] [--req BYTES] [--resp BYTES]\n"
		"                   [--rate PER_S] [-t SEC] [--conns K]\n"
		"                   [--spacing poisson|fixed] [--cc NAME] [-j]\n\n"
		"Open-loop request/response over persistent connections.  Latency is\n"
		"measured from each request's scheduled time to its complete response,\n"
		"and reported as min/mean/p50/p90/p99/p99.9/max in microseconds.\n\n"
		"  --req BYTES          request size (default 64)\n"
		"  --resp BYTES         response size (default 64)\n"
		"  --rate PER_S         requests per second, all connections (default 1000)\n"
		"  -t, --time SEC       issuing period (default 10)\n"
		"  --conns K            connections, used round-robin (default 1)\n"
		"  --spacing S          poisson (exponential gaps, default) or fixed\n"
		"  --seed N             seed for the Poisson arrivals (default 1)\n"
		"  --drain SEC          wait this long for late responses (default 2)\n",
		GEN_NAME);
	copts_help(f);
}

static void rpc_fail(struct rpc *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void rpc_fail(struct rpc *r, const char *fmt, ...)
{
	va_list ap;

	if (r->error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
}

static int rpc_hdr(void *ctx, const struct wire_msg *m)
{
	struct rpc *r = ctx;

	if (m->kind != MSG_ACK || m->seq >= r->issued)
		return -EPROTO;
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

static void conn_events(struct rpc *r, struct cconn *c)
{
	if (c->fd >= 0)
		cconn_set_events(&r->l, c, txq_empty(&c->tx) ?
				 EPOLLIN : EPOLLIN | EPOLLOUT);
}

static void conn_error(struct rpc *r, struct cconn *c, const char *what,
		       int err)
{
	cconn_fail(&r->l, c, "%s: %s", what,
		   err ? strerror(err) : "connection closed by the server");
	rpc_fail(r, "connection %d: %s", c->id, c->err);
}

static void conn_input(struct rpc *r, struct cconn *c)
{
	for (int k = 0; k < RPC_READS && c->fd >= 0; k++) {
		ssize_t n = read_some(c->fd, gen_scratch, GEN_IOBUF);

		if (n == 0) {
			conn_error(r, c, "receive", 0);
			return;
		}
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				conn_error(r, c, "receive", errno);
			return;
		}
		if (rxp_feed(&c->rx, gen_scratch, n, &rpc_ops, r)) {
			cconn_fail(&r->l, c, "protocol error from the server");
			rpc_fail(r, "connection %d: %s", c->id, c->err);
			return;
		}
		if (n < GEN_IOBUF)
			return;
	}
}

static uint64_t rpc_gap(struct rpc *r)
{
	double g = r->fixed ? 1.0 / r->rate : -log(prng_unit(&r->seed)) / r->rate;

	return (uint64_t)(g * 1e9);
}

static int rpc_issue(struct rpc *r, uint64_t when)
{
	struct cconn *c = &r->c[r->rr];
	struct wire_msg m = {
		.kind = MSG_REQ, .len = r->req, .resp_len = r->resp,
	};

	r->rr = (r->rr + 1) % r->nconns;
	if (r->issued == r->cap) {
		size_t ncap = r->cap * 2;
		uint64_t *s = realloc(r->sched, ncap * sizeof(*s));
		uint64_t *l = realloc(r->lat, ncap * sizeof(*l));

		if (s)
			r->sched = s;
		if (l)
			r->lat = l;
		if (!s || !l) {
			rpc_fail(r, "out of memory");
			return -1;
		}
		r->cap = ncap;
	}
	m.seq = r->issued;
	r->sched[r->issued++] = when;
	r->outstanding++;
	if (txq_push(&c->tx, &m) < 0) {
		rpc_fail(r, "out of memory");
		return -1;
	}
	return 0;
}

static int rpc_run(struct rpc *r, uint64_t deadline)
{
	struct epoll_event ev[64];
	uint64_t next, drain_end;
	bool issuing = true;

	r->t0 = now_ns();
	r->t_end = r->t0 + (uint64_t)(r->secs * 1e9);
	drain_end = r->t_end + (uint64_t)(r->drain * 1e9);
	next = r->t0 + rpc_gap(r);
	while (!r->error[0]) {
		uint64_t now = now_ns(), wake;
		int k;

		if (gen_stop) {
			rpc_fail(r, "interrupted");
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
		for (int i = 0; i < r->nconns; i++) {
			struct cconn *c = &r->c[i];
			int e;

			if (c->fd < 0 || txq_empty(&c->tx))
				continue;
			e = txq_flush(&c->tx, c->fd);
			if (e < 0) {
				conn_error(r, c, "send", -e);
				break;
			}
			conn_events(r, c);
		}
		if (r->error[0])
			break;
		if (!issuing && (r->outstanding == 0 || now >= drain_end))
			break;
		if (now >= deadline) {
			rpc_fail(r, "run deadline exceeded");
			break;
		}
		wake = issuing ? (next < r->t_end ? next : r->t_end) : drain_end;
		loop_arm(&r->l, wake < deadline ? wake : deadline);
		k = loop_wait(&r->l, ev, 64);
		if (k < 0) {
			rpc_fail(r, "epoll_wait: %s", strerror(errno));
			break;
		}
		for (int j = 0; j < k && !r->error[0]; j++) {
			struct cconn *c = ev[j].data.ptr;

			if (c == LOOP_TIMER || c->fd < 0)
				continue;
			if (ev[j].events & EPOLLOUT) {
				int e = txq_flush(&c->tx, c->fd);

				if (e < 0) {
					conn_error(r, c, "send", -e);
					continue;
				}
				conn_events(r, c);
			}
			if (ev[j].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				conn_input(r, c);
		}
	}
	for (int i = 0; i < r->nconns; i++)
		cconn_close(&r->l, &r->c[i]);
	return r->error[0] ? -1 : 0;
}

static void rpc_report(struct rpc *r, const struct netns_counters *na,
		       const struct netns_counters *nb)
{
	static const struct { const char *key, *label; double p; } pcts[] = {
		{ "p50_us", "p50", 50 }, { "p90_us", "p90", 90 },
		{ "p99_us", "p99", 99 }, { "p999_us", "p99.9", 99.9 },
	};
	size_t n = r->nlat;
	double mean = 0;
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
		jw_str(&w, "host", r->o.hosts[0]);
		jw_int(&w, "port", r->o.port);
		jw_int(&w, "nconns", r->nconns);
		jw_uint(&w, "req_bytes", r->req);
		jw_uint(&w, "resp_bytes", r->resp);
		jw_num(&w, "rate", r->rate);
		jw_str(&w, "spacing", r->fixed ? "fixed" : "poisson");
		jw_num(&w, "duration_s", r->secs);
		jw_str(&w, "cc_requested", r->o.cc);
		jw_str(&w, "server_cc_requested", r->o.server_cc);
		jw_uint(&w, "sent", r->issued);
		jw_uint(&w, "completed", n);
		jw_uint(&w, "lost", r->outstanding);
		jw_num(&w, "achieved_rate", n / r->secs);
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
		jw_arr(&w, "conns");
		for (int k = 0; k < r->nconns; k++) {
			jw_obj(&w, NULL);
			cconn_json(&w, &r->c[k]);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		netns_counters_json(&w, na, nb);
		jw_str(&w, "error", r->error[0] ? r->error : NULL);
		jw_obj_end(&w);
		jw_end(&w);
		return;
	}

	printf("%s rpc: %d connection%s to %s port %d, %llu/%llu bytes, %g req/s %s, %g s, cc %s\n",
	       GEN_NAME, r->nconns, r->nconns > 1 ? "s" : "", r->o.hosts[0],
	       r->o.port, (unsigned long long)r->req,
	       (unsigned long long)r->resp, r->rate,
	       r->fixed ? "fixed" : "poisson", r->secs,
	       r->o.cc ? r->o.cc : "default");
	printf("requests: %zu sent, %zu completed, %llu lost\n", r->issued, n,
	       (unsigned long long)r->outstanding);
	if (n) {
		printf("latency us: min %.1f mean %.1f", ns_to_us(r->lat[0]),
		       mean / 1e3);
		for (i = 0; i < 4; i++)
			printf(" %s %.1f", pcts[i].label,
			       ns_to_us(pct_sorted(r->lat, n, pcts[i].p)));
		printf(" max %.1f\n", ns_to_us(r->lat[n - 1]));
	}
	for (int k = 0; k < r->nconns; k++)
		cconn_text(stdout, &r->c[k]);
	netns_counters_text(stdout, na, nb);
	if (r->error[0])
		printf("error: %s\n", r->error);
}

int cmd_rpc(int argc, char **argv)
{
	static const struct option mode_lo[] = {
		{ "req", required_argument, NULL, OPT_REQ },
		{ "resp", required_argument, NULL, OPT_RESP },
		{ "rate", required_argument, NULL, OPT_RATE },
		{ "time", required_argument, NULL, 't' },
		{ "conns", required_argument, NULL, OPT_CONNS },
		{ "spacing", required_argument, NULL, OPT_SPACING },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "drain", required_argument, NULL, OPT_DRAIN },
		{ NULL, 0, NULL, 0 },
	};
	struct rpc r = {
		.nconns = 1, .req = 64, .resp = 64, .rate = 1000, .secs = 10,
		.drain = 2, .seed = 1,
	};
	struct netns_counters na, nb;
	struct option *lo;
	uint64_t deadline;
	double expect;
	int opt, ready, i;
	bool failed = false;

	lo = copts_longopts(mode_lo);
	copts_init(&r.o);
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":" COPTS_SHORTOPTS "t:", lo,
				  NULL)) != -1) {
		if (copts_parse(&r.o, opt, optarg))
			continue;
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
			r.nconns = parse_uint("--conns", optarg, 1, GEN_MAX_CONNS);
			break;
		case OPT_SPACING:
			if (!strcmp(optarg, "fixed"))
				r.fixed = true;
			else if (strcmp(optarg, "poisson"))
				gen_usage_err("--spacing: expected poisson or fixed, got '%s'",
					      optarg);
			break;
		case OPT_SEED:
			r.seed = parse_uint("--seed", optarg, 0, UINT64_MAX);
			break;
		case OPT_DRAIN:
			r.drain = parse_double("--drain", optarg, 0, 3600);
			break;
		case 'h':
			rpc_help(stdout);
			return 0;
		case ':':
			gen_usage_err("option '%s' needs an argument",
				      argv[optind - 1]);
		default:
			gen_usage_err("unknown option '%s' (try '%s rpc -h')",
				      argv[optind - 1], GEN_NAME);
		}
	}
	if (optind < argc)
		gen_usage_err("unexpected argument '%s'", argv[optind]);
	copts_finish(&r.o, true);
	expect = r.rate * r.secs;
	if (expect > RPC_MAX_REQS)
		gen_usage_err("--rate %g for %g s is %.0f requests, more than %llu",
			      r.rate, r.secs, expect, RPC_MAX_REQS);
	if (r.o.cc && check_cc(r.o.cc) < 0)
		return GEN_EXIT_RUN;

	r.cap = (size_t)(expect * 1.2) + 1024;
	r.sched = malloc(r.cap * sizeof(*r.sched));
	r.lat = malloc(r.cap * sizeof(*r.lat));
	r.c = calloc(r.nconns, sizeof(*r.c));
	if (!r.sched || !r.lat || !r.c) {
		gen_err("out of memory");
		return GEN_EXIT_RUN;
	}
	/* Wake up on time: timer slack would add to every latency. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	if (loop_init(&r.l) < 0)
		return GEN_EXIT_RUN;
	deadline = now_ns() + (uint64_t)((r.o.timeout > 0 ? r.o.timeout :
		r.o.connect_timeout + r.secs + r.drain + 10) * 1e9);
	netns_counters_read(&na);
	ready = clients_open(&r.l, r.c, r.nconns, &r.o, WIRE_MSG,
			     now_ns() + (uint64_t)(r.o.connect_timeout * 1e9));
	if (ready < 0)
		return GEN_EXIT_RUN;
	for (i = 0; i < r.nconns; i++) {
		if (r.c[i].state != CS_READY) {
			gen_err("connection %d: %s", i, r.c[i].err);
			failed = true;
		}
	}
	if (failed) {
		for (i = 0; i < r.nconns; i++)
			cconn_close(&r.l, &r.c[i]);
		return GEN_EXIT_RUN;
	}
	if (rpc_run(&r, deadline) < 0) {
		gen_err("%s", r.error);
		failed = true;
	}
	netns_counters_read(&nb);
	rpc_report(&r, &na, &nb);
	loop_free(&r.l);
	return failed ? GEN_EXIT_RUN : 0;
}
