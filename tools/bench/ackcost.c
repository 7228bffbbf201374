// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-ackcost: the CPU cost of the core's per-ACK path.
 *
 * One flow runs through a modelled bottleneck (a FIFO served at a fixed
 * packet rate, a propagation delay, step CE marking above a queue length):
 * each packet leaves the sender when the window and the pacing rate allow,
 * leaves the bottleneck one service time after the previous one, and is
 * acknowledged half a propagation delay later.  Every ACK becomes an
 * aicc_sample as the kernel glue builds it (RTT of the packet, smoothed
 * RTT, cumulative delivered and CE counts, the delivered count when the
 * packet left, packets in flight) and goes through aicc_on_ack(), whose
 * window and rate drive the next transmissions.  The samples are therefore
 * those of a real closed loop: slow start, rounds with and without queueing
 * delay and CE marks.  Every ACK carries a TCP timestamp in microseconds
 * (the route feature tcp_usec_ts, with which the correction is live on
 * this path) and its RTT sample goes through aicc_fwd_rtt() first, as the
 * glue does for every ACK with a timestamp.
 *
 * The samples are recorded; replay() then feeds the same samples to a
 * freshly initialised flow, which follows the same trajectory, and times
 * the loop.  Under callgrind (--toggle-collect=aicc_on_ack
 * --toggle-collect=aicc_fwd_rtt) the instruction count divided by the
 * number of ACKs printed here ("calls") is the core's instructions per ACK.
 *
 *   aicc-ackcost [-n ACKS] [-p PROFILE] [--no-replay]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aicc_core.h"

#define MSS		1448U
#define WIRE		1514U	/* bytes per packet on the wire */
#define LINK_BPS	25000000000ULL	/* 25 Gbit/s */
#define PROP_NS		20000ULL	/* propagation RTT */
#define CE_QLEN		40U		/* step marking above this many */
#define RING		65536U		/* packets in flight, at most */
#define TS_TICK_NS	1000U		/* tcp_usec_ts */
#define TS_OFF		0x9e3779b9U	/* the peer's timestamp offset */

#ifndef noinline
#define noinline	__attribute__((noinline))
#endif

struct pkt {
	u64 sent;	/* departure from the sender */
	u64 acked;	/* arrival of its ACK */
	u32 prior;	/* 'delivered' when it left */
	u8 ce;
};

static struct pkt ring[RING];

/* What the glue passes aicc_fwd_rtt() besides the sample: both clocks. */
struct ts {
	u32 now, tsval;
};

static u64 nr_calls;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One ACK as the glue handles it: the reverse-path correction, the law. */
static unsigned int ack(struct aicc_flow *f, struct aicc_owd *o, u8 *os,
			const struct aicc_params *p, struct aicc_sample *s,
			const struct ts *t)
{
	s->rtt_ns = aicc_fwd_rtt(o, os, f, p, s->rtt_ns, t->now, t->tsval,
				 TS_TICK_NS);
	return aicc_on_ack(f, p, s);
}

/* Feed recorded samples to a fresh flow; returns the number of rounds. */
static noinline unsigned long replay(struct aicc_flow *f,
				     const struct aicc_params *p,
				     struct aicc_sample *s,
				     const struct ts *t, size_t n)
{
	struct aicc_owd o = { 0 };
	unsigned long rounds = 0;
	u8 os = 0;
	size_t i;

	for (i = 0; i < n; i++)
		rounds += ack(f, &o, &os, p, &s[i], &t[i]) & AICC_EV_ROUND;
	nr_calls += n;
	return rounds;
}

static void print_usage(void)
{
	fputs("usage: aicc-ackcost [-n ACKS] [-p aicc|aicc_lat|aicc_bulk] [--no-replay]\n",
	      stderr);
}

int main(int argc, char **argv)
{
	u64 svc_ns = (u64)WIRE * 8 * 1000000000ULL / LINK_BPS;
	u64 t0 = 1000000000ULL, now, next_tx, last_dep = 0, srtt = 0;
	u32 knob[AICC_NR_KNOBS];
	struct aicc_params p;
	struct aicc_flow f;
	struct aicc_sample *rec;
	struct aicc_owd owd = { 0 };
	struct ts *tsr;
	u8 owd_state = 0;
	unsigned long n = 200000, i, rounds = 0, ce = 0, rr;
	u32 head = 0, tail = 0, delivered = 0, delivered_ce = 0;
	unsigned int prof = AICC_PROF_COLL;
	int replay_on = 1, a;
	double rtt_sum = 0, t;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-n") && a + 1 < argc) {
			char *e;

			n = strtoul(argv[++a], &e, 10);
			if (*e || n < 1000 || n > 10000000) {
				fprintf(stderr, "aicc-ackcost: -n must be 1000..10000000\n");
				return 2;
			}
		} else if (!strcmp(argv[a], "-p") && a + 1 < argc) {
			const char *name = argv[++a];

			for (prof = 0; prof < AICC_NR_PROFILES; prof++)
				if (!strcmp(aicc_profile_desc[prof].name, name))
					break;
			if (prof == AICC_NR_PROFILES) {
				fprintf(stderr, "aicc-ackcost: unknown profile '%s'\n", name);
				return 2;
			}
		} else if (!strcmp(argv[a], "--no-replay")) {
			replay_on = 0;
		} else {
			print_usage();
			return 2;
		}
	}

	rec = calloc(n, sizeof(*rec));
	tsr = calloc(n, sizeof(*tsr));
	if (!rec || !tsr) {
		fprintf(stderr, "aicc-ackcost: out of memory\n");
		return 1;
	}
	aicc_params_defaults(knob, prof);
	aicc_params_set(&p, knob);
	aicc_flow_init(&f, &p, 10, MSS, t0, 0, 0, NULL);
	aicc_flow_seed_rtt(&f, &p, PROP_NS + svc_ns, t0);

	now = t0;
	next_tx = t0;
	for (i = 0; i < n; i++) {
		struct aicc_sample *s = &rec[i];
		struct pkt *k;
		u64 rtt, gap;
		u32 cwnd = aicc_cwnd_pkts(&f);

		/* Transmit what the window allows, paced at flow->rate. */
		while (head - tail < cwnd && head - tail < RING) {
			u64 arr, qlen;

			k = &ring[head % RING];
			k->sent = next_tx > now ? next_tx : now;
			k->prior = delivered;
			arr = k->sent + PROP_NS / 2;
			qlen = last_dep > arr ? (last_dep - arr) / svc_ns : 0;
			k->ce = qlen > CE_QLEN;
			last_dep = (last_dep > arr ? last_dep : arr) + svc_ns;
			k->acked = last_dep + PROP_NS / 2;
			gap = f.rate ? (u64)MSS * 1000000000ULL / f.rate : 0;
			next_tx = k->sent + gap;
			head++;
		}
		/* The oldest packet's ACK is the next event. */
		k = &ring[tail % RING];
		tail++;
		now = k->acked;
		rtt = now - k->sent;
		srtt = srtt ? (7 * srtt + rtt) / 8 : rtt;
		delivered++;
		delivered_ce += k->ce;
		ce += k->ce;
		rtt_sum += rtt;

		memset(s, 0, sizeof(*s));
		s->now_ns = now;
		s->rtt_ns = rtt;
		s->srtt_ns = srtt;
		s->delivered = delivered;
		s->delivered_ce = delivered_ce;
		s->prior_delivered = k->prior;
		s->acked = 1;
		s->inflight = head - tail;
		s->mss = MSS;
		/* the receiver stamped the ACK as it left, half a path ago */
		tsr[i].now = (u32)(now / TS_TICK_NS);
		tsr[i].tsval = (u32)((now - PROP_NS / 2) / TS_TICK_NS) + TS_OFF;
		rounds += ack(&f, &owd, &owd_state, &p, s, &tsr[i]) &
			  AICC_EV_ROUND;
		/* replay starts from the sample the glue built */
		s->rtt_ns = rtt;
		nr_calls++;
	}
	printf("profile %s: %lu ACKs, %lu rounds, final cwnd %u pkts, ",
	       aicc_profile_desc[prof].name, n, rounds, aicc_cwnd_pkts(&f));
	printf("base RTT %u ns, mean RTT %.0f ns, CE fraction %.3f\n",
	       f.base_rtt, rtt_sum / n, (double)ce / n);

	if (replay_on) {
		aicc_flow_init(&f, &p, 10, MSS, t0, 0, 0, NULL);
		aicc_flow_seed_rtt(&f, &p, PROP_NS + svc_ns, t0);
		t = now_s();
		rr = replay(&f, &p, rec, tsr, n);
		t = now_s() - t;
		printf("replay: %lu rounds (%s), %.1f ns per call (userspace, this CPU)\n",
		       rr, rr == rounds ? "same trajectory" : "DIFFERENT trajectory",
		       t * 1e9 / n);
	}
	printf("calls %llu\n", (unsigned long long)nr_calls);
	free(rec);
	free(tsr);
	return 0;
}
