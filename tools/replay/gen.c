// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-replay-gen: write a trace in the format of the module's
 * aicc:aicc_core tracepoint from a small fluid model driving the
 * userspace core (a bottleneck queue, ECN marks above a threshold, a loss,
 * idle gaps), for aicc-replay's own tests.
 *
 *   aicc-replay-gen [FLOWS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aicc_core.h"
#include "aicc_replay.h"

#define RATE_PPS	2000ULL		/* bottleneck, packets per second */
#define BASE_NS		4000000ULL	/* base RTT */
#define MARK_PKTS	8		/* step-ECN threshold, packets */
#define ACK_NS		(1000000000ULL / RATE_PPS)

struct gflow {
	struct aicc_flow f;
	unsigned int profile;
	u32 delivered, delivered_ce, sent;
};

static void hex(const char *name, const void *buf, size_t len)
{
	const unsigned char *b = buf;
	size_t i;

	printf(" %s=", name);
	for (i = 0; i < len; i++)
		printf("%02x", b[i]);
}

static void emit(unsigned int id, unsigned int call, unsigned int ret,
		 u64 a0, u64 a1, u64 a2, u64 a3, const void *in, size_t in_len,
		 const struct aicc_flow *f)
{
	printf("  gen-1 [000] ..s1. 1.000000: aicc_core: sk=1/%u/::1/1 call=%u",
	       1000 + id, call);
	printf(" ret=%#x arg=%llx,%llx,%llx,%llx", ret, (unsigned long long)a0,
	       (unsigned long long)a1, (unsigned long long)a2,
	       (unsigned long long)a3);
	hex("in", in, in_len);
	hex("out", f, sizeof(*f));
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct aicc_params params[AICC_NR_PROFILES];
	unsigned int nflows = argc > 1 ? atoi(argv[1]) : 2, i, step;
	u32 knob[AICC_NR_KNOBS];
	struct gflow *g;
	u64 now = 1000000000ULL;
	u64 queue = 0;		/* packets */

	if (nflows < 1 || nflows > 64) {
		fprintf(stderr, "aicc-replay-gen: FLOWS must be 1..64\n");
		return 2;
	}
	for (i = 0; i < AICC_NR_PROFILES; i++) {
		aicc_params_defaults(knob, i);
		aicc_params_set(&params[i], knob);
	}
	g = calloc(nflows, sizeof(*g));
	if (!g)
		return 2;
	for (i = 0; i < nflows; i++) {
		unsigned int ev;

		g[i].profile = i % AICC_NR_PROFILES;
		ev = aicc_flow_init(&g[i].f, &params[g[i].profile], 10, 1448,
				    now, 0, 0, NULL);
		g[i].f.profile = (u8)g[i].profile;
		emit(i, AICC_TC_INIT, ev, 10, 1448, now, g[i].profile, NULL, 0,
		     &g[i].f);
		aicc_flow_seed_rtt(&g[i].f, &params[g[i].profile], BASE_NS,
				   now);
		emit(i, AICC_TC_SEED, 0, BASE_NS, now, 0, 0, NULL, 0, &g[i].f);
	}
	/* Three busy periods separated by idle gaps; one ACK per step. */
	for (step = 0; step < 3 * 6000; step++) {
		struct gflow *x = &g[step % nflows];
		const struct aicc_params *p = &params[x->profile];
		u64 inflight = 0, win;
		u32 prior;
		struct aicc_sample s;
		unsigned int ev;

		if (step % 6000 == 0 && step) {
			u64 idle = 200000000ULL;	/* a compute phase */

			now += idle;
			queue = 0;
			for (i = 0; i < nflows; i++) {
				ev = aicc_on_tx_start(&g[i].f,
						      &params[g[i].profile],
						      now, idle,
						      g[i].delivered,
						      g[i].delivered_ce);
				emit(i, AICC_TC_TX_START, ev, now, idle,
				     g[i].delivered, g[i].delivered_ce, NULL,
				     0, &g[i].f);
			}
		}
		now += ACK_NS;
		for (i = 0; i < nflows; i++)
			inflight += g[i].f.cwnd >> 16;
		win = RATE_PPS * BASE_NS / 1000000000ULL;
		queue = inflight > win ? inflight - win : 0;

		memset(&s, 0, sizeof(s));
		x->delivered++;
		if (queue > MARK_PKTS)
			x->delivered_ce++;
		s.now_ns = now;
		s.rtt_ns = BASE_NS + queue * ACK_NS;
		s.srtt_ns = (u32)s.rtt_ns;
		s.delivered = x->delivered;
		s.delivered_ce = x->delivered_ce;
		s.prior_delivered = x->delivered > (x->f.cwnd >> 16) ?
				    x->delivered - (u32)(x->f.cwnd >> 16) : 0;
		s.acked = 1;
		s.losses = (step == 4000) ? 3 : 0;
		s.inflight = (u32)(x->f.cwnd >> 16);
		s.mss = 1448;
		/* the window before this ACK's loss cut, for the undo below */
		prior = (u32)(x->f.cwnd >> 16);
		ev = aicc_on_ack(&x->f, p, &s);
		emit(x - g, AICC_TC_ACK, ev, 0, 0, 0, 0, &s, sizeof(s), &x->f);
		if (step == 4000 || step == 9000) {
			/* a timeout, then (at 4000) TCP finds it all spurious */
			ev = aicc_on_rto(&x->f, p, x->delivered,
					 x->delivered_ce);
			emit(x - g, AICC_TC_RTO, ev, x->delivered,
			     x->delivered_ce, 0, 0, NULL, 0, &x->f);
			if (step == 4000) {
				ev = aicc_on_undo(&x->f, p, prior);
				emit(x - g, AICC_TC_UNDO, ev, prior, 0, 0, 0,
				     NULL, 0, &x->f);
				continue;
			}
			struct aicc_memval mv = {
				.base_rtt = BASE_NS - 1000,
				.base_stamp = (u32)(s.now_ns >> 20),
			};

			aicc_flow_adopt_base(&x->f, p, &mv, s.now_ns);
			emit(x - g, AICC_TC_ADOPT, 0, mv.base_rtt,
			     mv.base_stamp, s.now_ns, 0, NULL, 0, &x->f);
		}
	}
	free(g);
	return 0;
}
