// SPDX-License-Identifier: GPL-2.0
/*
 * aiccgen bulk: N long-running flows towards a sink, optionally joining
 * one by one (flow i starts at i * stagger) and leaving in reverse order
 * (flow i stops at T - i * stagger).  Throughput is what the receiver
 * acknowledged (tcpi_bytes_acked), sampled per interval; Jain's fairness
 * index is computed over the window in which every flow was active.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "aiccgen.h"

#define BULK_WRITES	8		/* sends per wake-up, for fairness */
#define BULK_DRAIN_NS	2000000000ull	/* wait for the sink after stop */

enum {
	OPT_STAGGER = OPT_MODE_BASE,
	OPT_LEAVE,
	OPT_INTERVAL,
	OPT_LOWAT,
};

struct flow {
	uint64_t start_at, stop_at;	/* relative to t0 */
	bool started, stopped, done;
	uint64_t t_start, t_stop;	/* absolute */
	uint64_t base, at_stop, prev, written;
	double prev_mbps;		/* the rate since the sample before */
	uint32_t prev_retr;		/* tcpi_total_retrans at last sample */
	uint64_t win_a, win_b;
};

struct bulk {
	struct copts o;
	struct loop l;
	struct cconn *c;
	struct flow *f;
	int n;
	double secs, stagger_ms, interval_ms;
	bool leave;
	uint64_t lowat;
	uint64_t t0, dur, iv, win_a, win_b;
	bool win_a_done, win_b_done;
	int nint, next_iv;
	uint64_t last_sample;
	uint64_t t_end;			/* when the run actually ended */
	bool interrupted;		/* stopped early: signal or deadline */
	double *iv_mbps;		/* nint x n, NAN: flow inactive */
	int64_t *iv_retr;		/* nint x n, -1: flow inactive */
	uint32_t *iv_rtt, *iv_cwnd;	/* nint x n, at the end of the interval */
	int errors;
};

static void bulk_help(FILE *f)
{
	fprintf(f,
		"usage: %s bulk -c HOST [-p PORT] [-n FLOWS] [-t SEC] [--stagger MS]\n"
		"                    [--leave] [--interval MS] [--notsent-lowat BYTES]\n"
		"                    [--cc NAME] [-j]\n\n"
		"N long flows to the server's sink.  Flow i starts at i*stagger; with\n"
		"--leave it stops at SEC - i*stagger (last in, first out), otherwise\n"
		"at SEC.  Reports per-flow throughput per interval (bytes acknowledged\n"
		"by the receiver), totals, and Jain's fairness index over the window\n"
		"where all flows were active.\n\n"
		"  -n, --flows N            number of flows (default 1, max %d)\n"
		"  -t, --time SEC           run length (default 10)\n"
		"  --stagger MS             delay between flow starts (default 0)\n"
		"  --leave                  stop flows in reverse order, stagger apart\n"
		"  --interval MS            reporting interval (default 1000)\n"
		"  --notsent-lowat BYTES    TCP_NOTSENT_LOWAT, keeps the unsent backlog\n"
		"                           small so that a stopped flow leaves at once\n"
		"                           (default 256K, 0: kernel default)\n",
		GEN_NAME, GEN_MAX_CONNS);
	copts_help(f);
}

static uint64_t flow_acked(struct bulk *b, int i)
{
	struct cconn *c = &b->c[i];
	struct flow *f = &b->f[i];

	if (f->stopped || c->fd < 0)
		return f->stopped ? f->at_stop : f->prev;
	if (tcpinfo_get(c->fd, &c->ti) == 0 && TI_HAS(&c->ti, bytes_acked))
		return c->ti.ti.bytes_acked;
	return f->written;
}

static void flow_error(struct bulk *b, int i, const char *what, int err)
{
	struct flow *f = &b->f[i];

	if (!f->stopped) {
		f->at_stop = flow_acked(b, i);
		f->t_stop = now_ns();
		f->stopped = true;
	}
	f->done = true;
	cconn_fail(&b->l, &b->c[i], "%s: %s", what,
		   err ? strerror(err) : "connection closed by the server");
	b->errors++;
}

static void flow_write(struct bulk *b, int i)
{
	struct cconn *c = &b->c[i];
	struct flow *f = &b->f[i];

	for (int k = 0; k < BULK_WRITES; k++) {
		ssize_t r = send(c->fd, gen_zero, GEN_IOBUF,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			flow_error(b, i, "send", errno);
			return;
		}
		f->written += r;
		if (r < GEN_IOBUF)
			return;
	}
}

static void flow_read(struct bulk *b, int i)
{
	struct flow *f = &b->f[i];
	ssize_t r = read_some(b->c[i].fd, gen_scratch, GEN_IOBUF);

	if (r > 0)
		return;		/* the sink never talks; ignore */
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (r == 0 && f->stopped) {
		f->done = true;
		cconn_close(&b->l, &b->c[i]);
		return;
	}
	flow_error(b, i, "receive", r < 0 ? errno : 0);
}

static void bulk_sample(struct bulk *b, int k, uint64_t now)
{
	uint64_t e = b->t0 + (uint64_t)(k + 1) * b->iv;
	double dt = ns_to_s(now - b->last_sample);

	if (e > b->t0 + b->dur)
		e = b->t0 + b->dur;
	for (int i = 0; i < b->n; i++) {
		struct flow *f = &b->f[i];
		double *m = &b->iv_mbps[k * b->n + i];
		uint64_t cur;

		/*
		 * Not active at all in the interval (it ends at e): no value.
		 * A flow that stopped by the previous sample, taken at or
		 * after this interval's start, had its last bytes in that
		 * one: a flow leaving at an interval's end stops in the tick
		 * that sampled it, just after the sample.
		 */
		if (!f->started || f->t_start >= e ||
		    (f->stopped && f->t_stop <= b->last_sample)) {
			*m = NAN;
			b->iv_retr[k * b->n + i] = -1;
			continue;
		}
		cur = flow_acked(b, i);
		/*
		 * Intervals the loop came to late are sampled together, at
		 * the same moment: the first has the bytes of all, over all
		 * their time, and the others the same rate.
		 */
		if (dt > 0)
			f->prev_mbps = (cur - f->prev) * 8.0 / dt / 1e6;
		*m = f->prev_mbps;
		f->prev = cur;
		b->iv_retr[k * b->n + i] = b->c[i].ti.ti.total_retrans -
					   f->prev_retr;
		b->iv_rtt[k * b->n + i] = b->c[i].ti.ti.rtt;
		b->iv_cwnd[k * b->n + i] = b->c[i].ti.ti.snd_cwnd;
		f->prev_retr = b->c[i].ti.ti.total_retrans;
	}
	b->last_sample = now;
}

static void bulk_stop(struct bulk *b, int i, uint64_t now)
{
	struct flow *f = &b->f[i];
	struct cconn *c = &b->c[i];

	f->at_stop = flow_acked(b, i);
	f->t_stop = now;
	f->stopped = true;
	if (c->fd >= 0) {
		shutdown(c->fd, SHUT_WR);
		cconn_set_events(&b->l, c, EPOLLIN);
	}
}

/* Process everything due at "now"; return the next wake-up (absolute). */
static uint64_t bulk_tick(struct bulk *b, uint64_t now)
{
	uint64_t rel = now - b->t0, next = UINT64_MAX;
	int i;

	for (i = 0; i < b->n; i++) {
		struct flow *f = &b->f[i];

		if (f->started || f->done)
			continue;
		if (rel >= f->start_at) {
			f->started = true;
			f->t_start = now;
			f->base = flow_acked(b, i);
			f->prev = f->base;
			f->prev_retr = b->c[i].ti.ti.total_retrans;
			f->written = 0;
			cconn_set_events(&b->l, &b->c[i], EPOLLIN | EPOLLOUT);
			flow_write(b, i);
		} else if (b->t0 + f->start_at < next) {
			next = b->t0 + f->start_at;
		}
	}
	if (!b->win_a_done) {
		if (rel >= b->win_a) {
			for (i = 0; i < b->n; i++)
				b->f[i].win_a = flow_acked(b, i);
			b->win_a_done = true;
		} else if (b->t0 + b->win_a < next) {
			next = b->t0 + b->win_a;
		}
	}
	while (b->next_iv < b->nint) {
		uint64_t end = (uint64_t)(b->next_iv + 1) * b->iv;

		if (end > b->dur)
			end = b->dur;
		if (rel < end) {
			if (b->t0 + end < next)
				next = b->t0 + end;
			break;
		}
		bulk_sample(b, b->next_iv++, now);
	}
	if (!b->win_b_done) {
		if (rel >= b->win_b) {
			for (i = 0; i < b->n; i++)
				b->f[i].win_b = flow_acked(b, i);
			b->win_b_done = true;
		} else if (b->t0 + b->win_b < next) {
			next = b->t0 + b->win_b;
		}
	}
	for (i = 0; i < b->n; i++) {
		struct flow *f = &b->f[i];

		if (!f->started || f->stopped)
			continue;
		if (rel >= f->stop_at)
			bulk_stop(b, i, now);
		else if (b->t0 + f->stop_at < next)
			next = b->t0 + f->stop_at;
	}
	return next;
}

static bool bulk_all_done(struct bulk *b)
{
	for (int i = 0; i < b->n; i++)
		if (!b->f[i].done)
			return false;
	return true;
}

static int bulk_run(struct bulk *b, uint64_t deadline)
{
	struct epoll_event ev[64];
	uint64_t drain_until = 0;
	int ret = 0;

	b->t0 = now_ns();
	b->last_sample = b->t0;
	for (;;) {
		uint64_t now = now_ns(), next;
		bool all_stopped = true;
		int k;

		if (gen_stop) {
			gen_err("interrupted");
			ret = -1;
			break;
		}
		if (now >= deadline) {
			gen_err("run deadline exceeded");
			ret = -1;
			break;
		}
		next = bulk_tick(b, now);
		for (int i = 0; i < b->n; i++)
			if (!b->f[i].stopped)
				all_stopped = false;
		if (all_stopped) {
			if (!drain_until)
				drain_until = now + BULK_DRAIN_NS;
			if (bulk_all_done(b) || now >= drain_until)
				break;
			next = drain_until;
		}
		if (next > deadline)
			next = deadline;
		loop_arm(&b->l, next);
		k = loop_wait(&b->l, ev, 64);
		if (k < 0) {
			gen_err("epoll_wait: %s", strerror(errno));
			ret = -1;
			break;
		}
		for (int j = 0; j < k; j++) {
			struct cconn *c = ev[j].data.ptr;
			int i;

			if (c == LOOP_TIMER || c->fd < 0)
				continue;
			i = c->id;
			if (ev[j].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				flow_read(b, i);
			if (c->fd >= 0 && (ev[j].events & EPOLLOUT) &&
			    b->f[i].started && !b->f[i].stopped)
				flow_write(b, i);
		}
	}
	/* a run that ended early (a signal, the deadline, every flow failed) */
	b->t_end = b->t0 + b->dur;
	if (ret < 0)
		b->interrupted = true;
	if ((ret < 0 || b->errors) && now_ns() < b->t_end)
		b->t_end = now_ns();
	/* Whatever is still open: final numbers, then close. */
	for (int i = 0; i < b->n; i++) {
		struct flow *f = &b->f[i];

		if (f->started && !f->stopped)
			bulk_stop(b, i, now_ns());
		if (b->c[i].fd >= 0)
			cconn_close(&b->l, &b->c[i]);
	}
	return ret;
}

/* "N flows failed; flow I: WHY", the first failure's reason */
static const char *bulk_first_error(const struct bulk *b, char *buf,
				    size_t len)
{
	int i;

	for (i = 0; i < b->n; i++)
		if (b->c[i].state == CS_FAILED)
			break;
	snprintf(buf, len, "%d flow%s failed; flow %d: %s", b->errors,
		 b->errors > 1 ? "s" : "", i, i < b->n ? b->c[i].err : "?");
	return buf;
}

static void bulk_report(struct bulk *b, const struct netns_counters *na,
			const struct netns_counters *nb)
{
	double wsecs = ns_to_s(b->win_b - b->win_a);
	double elapsed = ns_to_s(b->t_end - b->t0);
	double *wr = calloc((unsigned int)b->n, sizeof(double));
	double wtotal = 0, jain = NAN;
	uint64_t total_bytes = 0;
	char ebuf[256];
	struct jw w;
	int i, k;

	for (i = 0; i < b->n; i++) {
		struct flow *f = &b->f[i];

		if (f->started)
			total_bytes += f->at_stop - f->base;
		if (wr && b->win_a_done && b->win_b_done && wsecs > 0) {
			wr[i] = (f->win_b - f->win_a) * 8.0 / wsecs / 1e6;
			wtotal += wr[i];
		}
	}
	if (wr && b->win_a_done && b->win_b_done && wsecs > 0)
		jain = jain_index(wr, b->n);

	if (b->o.json) {
		jw_init(&w, stdout);
		jw_obj(&w, NULL);
		jw_str(&w, "mode", "bulk");
		/* the first host: what "host" was before the list */
		jw_str(&w, "host", b->o.hosts[0]);
		copts_hosts_json(&w, &b->o);
		jw_int(&w, "port", b->o.port);
		jw_int(&w, "nflows", b->n);
		jw_num(&w, "duration_s", b->secs);
		jw_num(&w, "stagger_ms", b->stagger_ms);
		jw_bool(&w, "leave", b->leave);
		jw_num(&w, "interval_ms", b->interval_ms);
		jw_str(&w, "cc_requested", b->o.cc);
		jw_str(&w, "server_cc_requested", b->o.server_cc);
		jw_arr(&w, "intervals");
		for (k = 0; k < b->next_iv; k++) {
			double sum = 0;
			uint64_t end = (uint64_t)(k + 1) * b->iv;

			jw_obj(&w, NULL);
			jw_num(&w, "start_s", ns_to_s((uint64_t)k * b->iv));
			jw_num(&w, "end_s", ns_to_s(end < b->dur ? end : b->dur));
			jw_arr(&w, "mbps");
			for (i = 0; i < b->n; i++) {
				double m = b->iv_mbps[k * b->n + i];

				jw_num(&w, NULL, m);
				if (isfinite(m))
					sum += m;
			}
			jw_arr_end(&w);
			jw_arr(&w, "retrans");
			for (i = 0; i < b->n; i++) {
				int64_t r = b->iv_retr[k * b->n + i];

				if (r < 0)
					jw_null(&w, NULL);
				else
					jw_int(&w, NULL, r);
			}
			jw_arr_end(&w);
			jw_arr(&w, "rtt_us");
			for (i = 0; i < b->n; i++) {
				if (b->iv_retr[k * b->n + i] < 0)
					jw_null(&w, NULL);
				else
					jw_uint(&w, NULL, b->iv_rtt[k * b->n + i]);
			}
			jw_arr_end(&w);
			jw_arr(&w, "cwnd");
			for (i = 0; i < b->n; i++) {
				if (b->iv_retr[k * b->n + i] < 0)
					jw_null(&w, NULL);
				else
					jw_uint(&w, NULL, b->iv_cwnd[k * b->n + i]);
			}
			jw_arr_end(&w);
			jw_num(&w, "total_mbps", sum);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_arr(&w, "flows");
		for (i = 0; i < b->n; i++) {
			struct flow *f = &b->f[i];
			double secs = f->started ? ns_to_s(f->t_stop - f->t_start) : 0;
			uint64_t by = f->started ? f->at_stop - f->base : 0;

			jw_obj(&w, NULL);
			cconn_json(&w, &b->c[i]);
			jw_num(&w, "start_s", f->started ?
			       ns_to_s(f->t_start - b->t0) : NAN);
			jw_num(&w, "stop_s", f->started ?
			       ns_to_s(f->t_stop - b->t0) : NAN);
			jw_uint(&w, "bytes", by);
			jw_num(&w, "mbps", secs > 0 ? by * 8.0 / secs / 1e6 : 0);
			jw_num(&w, "window_mbps", wr && isfinite(jain) ? wr[i] : NAN);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_uint(&w, "total_bytes", total_bytes);
		jw_num(&w, "elapsed_s", elapsed);
		jw_num(&w, "total_mbps", elapsed > 0 ?
		       total_bytes * 8 / elapsed / 1e6 : 0);
		jw_obj(&w, "fairness");
		jw_num(&w, "window_start_s", ns_to_s(b->win_a));
		jw_num(&w, "window_end_s", ns_to_s(b->win_b));
		jw_num(&w, "window_total_mbps", isfinite(jain) ? wtotal : NAN);
		jw_num(&w, "jain", jain);
		jw_obj_end(&w);
		netns_counters_json(&w, na, nb);
		jw_int(&w, "errors", b->errors);
		jw_str(&w, "error", b->interrupted ? "run stopped early" :
		       b->errors ? bulk_first_error(b, ebuf, sizeof(ebuf)) :
		       NULL);
		jw_obj_end(&w);
		jw_end(&w);
		free(wr);
		return;
	}

	printf("%s bulk: %d flow%s to %s port %d, %.3g s, stagger %g ms%s, cc %s\n",
	       GEN_NAME, b->n, b->n > 1 ? "s" : "", b->o.hosts_arg, b->o.port,
	       b->secs, b->stagger_ms, b->leave ? " (join and leave)" : "",
	       b->o.cc ? b->o.cc : "default");
	printf("%-15s", "interval s");
	for (i = 0; i < b->n; i++)
		printf(" %8s%-3d", "flow", i);
	printf(" %11s  Mbit/s\n", "total");
	for (k = 0; k < b->next_iv; k++) {
		uint64_t end = (uint64_t)(k + 1) * b->iv;
		double sum = 0;

		printf("%6.2f-%-8.2f", ns_to_s((uint64_t)k * b->iv),
		       ns_to_s(end < b->dur ? end : b->dur));
		for (i = 0; i < b->n; i++) {
			double m = b->iv_mbps[k * b->n + i];

			if (isfinite(m)) {
				printf(" %11.2f", m);
				sum += m;
			} else {
				printf(" %11s", "-");
			}
		}
		printf(" %11.2f\n", sum);
	}
	for (i = 0; i < b->n; i++) {
		struct flow *f = &b->f[i];
		double secs = f->started ? ns_to_s(f->t_stop - f->t_start) : 0;
		uint64_t by = f->started ? f->at_stop - f->base : 0;

		printf("flow %d: %.3f-%.3f s, %llu bytes, %.2f Mbit/s\n", i,
		       f->started ? ns_to_s(f->t_start - b->t0) : 0,
		       f->started ? ns_to_s(f->t_stop - b->t0) : 0,
		       (unsigned long long)by,
		       secs > 0 ? by * 8.0 / secs / 1e6 : 0);
		cconn_text(stdout, &b->c[i]);
	}
	printf("total: %llu bytes in %.3f s, %.2f Mbit/s",
	       (unsigned long long)total_bytes, elapsed,
	       elapsed > 0 ? total_bytes * 8 / elapsed / 1e6 : 0);
	if (isfinite(jain))
		printf("; all-active window %.2f-%.2f s: %.2f Mbit/s, Jain's index %.4f",
		       ns_to_s(b->win_a), ns_to_s(b->win_b), wtotal, jain);
	printf("\n");
	netns_counters_text(stdout, na, nb);
	if (b->errors)
		printf("errors: %d flow%s failed\n", b->errors,
		       b->errors > 1 ? "s" : "");
	if (b->interrupted)
		printf("error: run stopped early\n");
	free(wr);
}

int cmd_bulk(int argc, char **argv)
{
	static const struct option mode_lo[] = {
		GEN_LO_ARG("flows", 'n'),
		GEN_LO_ARG("time", 't'),
		GEN_LO_ARG("stagger", OPT_STAGGER),
		GEN_LO_FLAG("leave", OPT_LEAVE),
		GEN_LO_ARG("interval", OPT_INTERVAL),
		GEN_LO_ARG("notsent-lowat", OPT_LOWAT),
		{ NULL, 0, NULL, 0 },
	};
	struct bulk b = {
		.n = 1, .secs = 10, .interval_ms = 1000, .lowat = 256 * 1024,
	};
	struct netns_counters na, nb;
	struct option *lo;
	uint64_t deadline, span;
	int opt, ready, i;

	lo = copts_start(&b.o, mode_lo, bulk_help);
	while ((opt = copts_next(&b.o, argc, argv, "n:t:", lo)) != -1) {
		switch (opt) {
		case 'n':
			b.n = parse_uint("-n", optarg, 1, GEN_MAX_CONNS);
			break;
		case 't':
			b.secs = parse_double("-t", optarg, 0.01, 86400);
			break;
		case OPT_STAGGER:
			b.stagger_ms = parse_double("--stagger", optarg, 0, 3600000);
			break;
		case OPT_LEAVE:
			b.leave = true;
			break;
		case OPT_INTERVAL:
			b.interval_ms = parse_double("--interval", optarg, 1, 3600000);
			break;
		case OPT_LOWAT:
			b.lowat = parse_size("--notsent-lowat", optarg, 0,
					     1ull << 30);
			break;
		}
	}

	b.dur = (uint64_t)(b.secs * 1e9);
	b.iv = (uint64_t)(b.interval_ms * 1e6);
	span = (uint64_t)((b.n - 1) * b.stagger_ms * 1e6);
	if (span >= b.dur || (b.leave && 2 * span >= b.dur))
		gen_usage_err("-t %g s is too short for %d flows staggered by %g ms%s",
			      b.secs, b.n, b.stagger_ms,
			      b.leave ? " that also leave staggered" : "");
	b.nint = (int)((b.dur + b.iv - 1) / b.iv);
	if ((uint64_t)b.nint * b.n > 5000000)
		gen_usage_err("--interval %g ms: too many intervals for this run",
			      b.interval_ms);
	if (b.o.cc && check_cc(b.o.cc) < 0)
		return GEN_EXIT_RUN;

	b.c = calloc(b.n, sizeof(*b.c));
	b.f = calloc(b.n, sizeof(*b.f));
	b.iv_mbps = calloc((size_t)b.nint * b.n, sizeof(double));
	b.iv_retr = calloc((size_t)b.nint * b.n, sizeof(int64_t));
	b.iv_rtt = calloc((size_t)b.nint * b.n, sizeof(uint32_t));
	b.iv_cwnd = calloc((size_t)b.nint * b.n, sizeof(uint32_t));
	if (!b.c || !b.f || !b.iv_mbps || !b.iv_retr || !b.iv_rtt ||
	    !b.iv_cwnd) {
		gen_err("out of memory");
		return GEN_EXIT_RUN;
	}
	for (i = 0; i < b.n; i++) {
		b.f[i].start_at = (uint64_t)(i * b.stagger_ms * 1e6);
		b.f[i].stop_at = b.leave ? b.dur - b.f[i].start_at : b.dur;
	}
	b.win_a = span;
	b.win_b = b.leave ? b.dur - span : b.dur;

	if (loop_init(&b.l) < 0)
		return GEN_EXIT_RUN;
	deadline = ns_after(now_ns(), b.o.timeout > 0 ? b.o.timeout :
			    b.o.connect_timeout + b.secs + 10);
	netns_counters_read(&na);
	ready = clients_open(&b.l, b.c, b.n, &b.o, WIRE_SINK, deadline);
	if (ready < 0)
		return GEN_EXIT_RUN;
	for (i = 0; i < b.n; i++) {
		if (b.c[i].state != CS_READY) {
			b.f[i].done = true;
			b.f[i].stopped = true;
			b.errors++;
			gen_err("flow %d: %s", i, b.c[i].err);
		} else if (b.lowat) {
			int v = (int)b.lowat;

			setsockopt(b.c[i].fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT,
				   &v, sizeof(v));
		}
	}
	if (ready == 0)
		return GEN_EXIT_RUN;
	bulk_run(&b, deadline);
	netns_counters_read(&nb);
	for (i = 0; i < b.n; i++)
		if (b.c[i].state == CS_FAILED && b.f[i].started)
			gen_err("flow %d: %s", i, b.c[i].err);
	bulk_report(&b, &na, &nb);
	loop_free(&b.l);
	return b.errors || b.interrupted ? GEN_EXIT_RUN : 0;
}
