// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the learned policy (module/core/aicc_policy.c and
 * aicc_model.c): the blob parser rejects every malformed blob whole, the
 * fixed-point inference matches a floating-point reference within a
 * stated bound, and the envelope's every fallback path -- no model, inputs
 * out of range, the watchdog -- hands the round to the classic law.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aicc_core.h"
#include "aicc_policy.h"
#include "ktap.h"
#include "drv.h"

/* ---------------------------------------------------------------- */
/* Models                                                             */

static u64 rng_next(u64 *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static int rng_range(u64 *s, int lo, int hi)
{
	return lo + (int)(rng_next(s) % (u64)(hi - lo + 1));
}

/* A model whose outputs are the constants y0, y1 (Q12) for any input. */
static void model_const(struct aicc_model *m, s32 y0, s32 y1)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->n_in = AICC_MODEL_NR_IN;
	m->n_hidden = 4;
	m->n_out = AICC_MODEL_NR_OUT;
	m->profiles = 7;
	strcpy(m->name, "const");
	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		m->in_gain[i] = AICC_POL_ONE;
		m->in_min[i] = -32768;
		m->in_max[i] = 32767;
	}
	m->b2[0] = y0;
	m->b2[1] = y1;
}

static void model_random(struct aicc_model *m, u64 *seed, int nh)
{
	int i, j;

	memset(m, 0, sizeof(*m));
	m->n_in = AICC_MODEL_NR_IN;
	m->n_hidden = (u8)nh;
	m->n_out = AICC_MODEL_NR_OUT;
	m->shift1 = (u8)rng_range(seed, 4, 8);
	m->shift2 = (u8)rng_range(seed, 4, 8);
	m->profiles = 1;
	snprintf(m->name, sizeof(m->name), "rand%d", nh);
	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		m->in_off[i] = (s16)rng_range(seed, -2000, 2000);
		m->in_gain[i] = (s16)rng_range(seed, -8000, 8000);
		m->in_min[i] = (s16)rng_range(seed, -32768, 0);
		m->in_max[i] = (s16)rng_range(seed, 0, 32767);
	}
	for (j = 0; j < nh; j++) {
		for (i = 0; i < AICC_MODEL_NR_IN; i++)
			m->w1[j][i] = (s8)rng_range(seed, -128, 127);
		m->b1[j] = rng_range(seed, -(4096 << m->shift1),
				     4096 << m->shift1);
		m->w2[0][j] = (s8)rng_range(seed, -128, 127);
		m->w2[1][j] = (s8)rng_range(seed, -128, 127);
	}
	m->b2[0] = rng_range(seed, -(2048 << m->shift2), 2048 << m->shift2);
	m->b2[1] = rng_range(seed, -(2048 << m->shift2), 2048 << m->shift2);
}

static u8 blob[AICC_MODEL_MAX_LEN];

/* ---------------------------------------------------------------- */
/* Format                                                             */

KTAP_CASE(model_roundtrip)
{
	struct aicc_model m, back;
	u64 seed = 1;
	const char *why = NULL;
	int nh;

	for (nh = 1; nh <= AICC_MODEL_MAX_HIDDEN; nh++) {
		u32 len;

		model_random(&m, &seed, nh);
		len = aicc_model_write(&m, blob, sizeof(blob));
		ktap_expect(len == aicc_model_blob_len(nh) && len < 4096,
			    "nh %d: length %u", nh, len);
		ktap_expect(!aicc_model_parse(blob, len, &back, &why),
			    "nh %d: valid blob rejected: %s", nh, why);
		m.len = len;
		m.crc = back.crc;
		ktap_expect(!memcmp(&m, &back, sizeof(m)),
			    "nh %d: parsed model differs from the written one",
			    nh);
	}
	/* 8-16-2: the documented size */
	ktap_expect(aicc_model_blob_len(16) == 48 + 64 + 128 + 64 + 32 + 8 + 4,
		    "8-16-2 blob is %u bytes", aicc_model_blob_len(16));
}

KTAP_CASE(model_crc_known_value)
{
	/* the standard check value of CRC-32/ISO-HDLC */
	u32 c = aicc_model_crc32((const u8 *)"123456789", 9);

	ktap_expect(c == 0xcbf43926U, "crc32 check value %08x", c);
}

/* Re-seal a hand-edited blob with a correct checksum. */
static void reseal(u8 *b, u32 len)
{
	u32 c = aicc_model_crc32(b, len - 4);

	b[len - 4] = (u8)c;
	b[len - 3] = (u8)(c >> 8);
	b[len - 2] = (u8)(c >> 16);
	b[len - 1] = (u8)(c >> 24);
}

/* The parser must fail and leave the output exactly as it was. */
static void expect_reject(const u8 *b, u32 len, const char *what,
			  const char *want)
{
	struct aicc_model m;
	static const struct aicc_model zero;
	const char *why = NULL;
	int ret;

	memset(&m, 0xa5, sizeof(m));
	ret = aicc_model_parse(b, len, &m, &why);
	ktap_expect(ret < 0, "%s: accepted", what);
	ktap_expect(why && (!want || strstr(why, want)),
		    "%s: reason '%s', wanted '%s'", what, why ? why : "(none)",
		    want);
	{
		struct aicc_model fill;

		memset(&fill, 0xa5, sizeof(fill));
		ktap_expect(!memcmp(&m, &fill, sizeof(m)) &&
			    memcmp(&m, &zero, sizeof(m)),
			    "%s: output changed by a rejected blob", what);
	}
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Header faults of one byte: the byte at @off becomes @val, re-sealed. */
static const struct byte_fault {
	const char *what, *want;
	u16 off;
	u8 val;
} byte_faults[] = {
	{ "version 2", "version", 4, 2 },
	{ "version 0", "version", 4, 0 },
	{ "header length", "header", 6, 40 },
	{ "7 inputs", "inputs", 12, 7 },
	{ "0 hidden", "hidden", 13, 0 },
	{ "33 hidden", "hidden", 13, 33 },
	{ "hidden vs length", "length", 13, 15 },
	{ "3 outputs", "outputs", 14, 3 },
	{ "activation", "activation", 15, 1 },
	{ "shift1 16", "scale", 16, 16 },
	{ "shift2 255", "scale", 17, 255 },
	{ "no profile", "profile", 18, 0 },
	{ "profile 3", "profile", 18, 8 },
	{ "reserved", "reserved", 19, 1 },
	{ "reserved 2", "reserved", 23, 1 },
	{ "name control char", "name", 24, '\n' },
	{ "name DEL", "name", 24, 0x7f },
	{ "name byte 0x80", "name", 24, 0x80 },
	{ "name after NUL", "name", 47, 'x' },
};

KTAP_CASE(model_malformed_rejected_whole)
{
	struct aicc_model m;
	u8 b[AICC_MODEL_MAX_LEN];
	u64 seed = 7;
	u32 len, i;

	model_random(&m, &seed, 16);
	len = aicc_model_write(&m, blob, sizeof(blob));

#define MUTATE(what, want, stmt) do {				\
		memcpy(b, blob, len);				\
		stmt;						\
		expect_reject(b, len, what, want);		\
	} while (0)

	MUTATE("bad magic", "magic", b[0] = 'X');
	for (i = 0; i < ARRAY_SIZE(byte_faults); i++) {
		const struct byte_fault *f = &byte_faults[i];

		MUTATE(f->what, f->want, (b[f->off] = f->val, reseal(b, len)));
	}
	MUTATE("length field", "length", (b[8]++, reseal(b, len)));
	/* in_min[0] (offset 80) above in_max[0] (offset 96) */
	MUTATE("empty range", "range",
	       (b[80] = 0xff, b[81] = 0x7f, b[96] = 0, b[97] = 0x80,
		reseal(b, len)));
	/* 16 hidden: b1 at 112 + 128, b1[0] = 2^24 + 1 */
	MUTATE("bias 1", "bias",
	       (b[240] = 1, b[241] = 0, b[242] = 0, b[243] = 1,
		reseal(b, len)));
	/* b2 at 240 + 64 + 32 */
	MUTATE("bias 2", "bias",
	       (b[336] = 0, b[337] = 0, b[338] = 0, b[339] = 0x80,
		reseal(b, len)));

	/* truncated anywhere, trailing bytes */
	for (i = 0; i < len; i++) {
		memcpy(b, blob, len);
		expect_reject(b, i, "truncated", NULL);
	}
	memcpy(b, blob, len);
	b[len] = 0;
	expect_reject(b, len + 1, "trailing byte", "trailing");
	expect_reject(NULL, 0, "null", "truncated");

	/* any single bit flipped anywhere: checksum (or an earlier check) */
	for (i = 0; i < len * 8; i++) {
		memcpy(b, blob, len);
		b[i / 8] ^= (u8)(1 << (i % 8));
		expect_reject(b, len, "bit flip", NULL);
	}

	/* odd hidden count: padding after w2 must be zero */
	model_random(&m, &seed, 3);
	len = aicc_model_write(&m, blob, sizeof(blob));
	/* w1 at 112, 24 bytes; b1 at 136, 12; w2 at 148, 6 bytes; pad 154 */
	MUTATE("padding", "padding", (b[154] = 1, reseal(b, len)));
#undef MUTATE
}

/* ---------------------------------------------------------------- */
/* Inference                                                          */

/*
 * The float reference: the same network on real numbers.  Returns the
 * outputs as real values in -1 .. 1.
 */
static void ref_eval(const struct aicc_model *m, const s16 *x, double *y)
{
	double n[AICC_MODEL_NR_IN], h[AICC_MODEL_MAX_HIDDEN];
	int i, j, k;

	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		n[i] = (x[i] - m->in_off[i]) / 4096.0 * (m->in_gain[i] / 4096.0);
		if (n[i] > 32767 / 4096.0)
			n[i] = 32767 / 4096.0;
		if (n[i] < -8)
			n[i] = -8;
	}
	for (j = 0; j < m->n_hidden; j++) {
		double a = m->b1[j] / 4096.0 / (1 << m->shift1);

		for (i = 0; i < AICC_MODEL_NR_IN; i++)
			a += m->w1[j][i] / (double)(1 << m->shift1) * n[i];
		h[j] = a > 1 ? 1 : a < -1 ? -1 : a;
	}
	for (k = 0; k < AICC_MODEL_NR_OUT; k++) {
		double a = m->b2[k] / 4096.0 / (1 << m->shift2);

		for (j = 0; j < m->n_hidden; j++)
			a += m->w2[k][j] / (double)(1 << m->shift2) * h[j];
		y[k] = a > 1 ? 1 : a < -1 ? -1 : a;
	}
}

/*
 * The stated bound, in Q12 units (1/4096) of an output: every rounding
 * (floor) of the fixed-point path costs at most one unit where it happens;
 * an input's unit error reaches a hidden unit through |w1| / 2^shift1, a
 * hidden unit's through |w2| / 2^shift2:
 *
 *   |y - y_ref| <= 1 + sum_j |w2_kj| / 2^s2 * (1 + sum_i |w1_ji| / 2^s1)
 *
 * The clamps (hard tanh) are 1-Lipschitz and do not add to it.
 */
static double stated_bound(const struct aicc_model *m, int k)
{
	double b = 1;
	int i, j;

	for (j = 0; j < m->n_hidden; j++) {
		double hj = 1;

		for (i = 0; i < AICC_MODEL_NR_IN; i++)
			hj += fabs((double)m->w1[j][i]) / (1 << m->shift1);
		b += fabs((double)m->w2[k][j]) / (1 << m->shift2) * hj;
	}
	return b;
}

KTAP_CASE(inference_matches_float_reference)
{
	struct aicc_model m;
	u64 seed = 12345;
	double worst = 0, worst_ratio = 0, sum = 0;
	int t, c, k, i, n = 0;

	for (t = 0; t < 200; t++) {
		model_random(&m, &seed, rng_range(&seed, 1, 32));
		for (c = 0; c < 200; c++) {
			s16 x[AICC_MODEL_NR_IN], y[AICC_MODEL_NR_OUT];
			double yr[AICC_MODEL_NR_OUT];

			for (i = 0; i < AICC_MODEL_NR_IN; i++)
				x[i] = (s16)rng_range(&seed, -12000, 12000);
			aicc_model_eval(&m, x, y);
			ref_eval(&m, x, yr);
			for (k = 0; k < AICC_MODEL_NR_OUT; k++) {
				double e = fabs(y[k] - yr[k] * 4096);
				double b = stated_bound(&m, k);

				ktap_expect(e <= b,
					    "model %d case %d out %d: error %.2f > bound %.2f",
					    t, c, k, e, b);
				if (e > worst)
					worst = e;
				if (e / b > worst_ratio)
					worst_ratio = e / b;
				sum += e;
				n++;
			}
		}
	}
	printf("# fixed vs float: %d outputs, mean error %.3f/4096, ", n,
	       sum / n);
	printf("worst %.1f/4096 (%.0f%% of its bound)\n", worst,
	       worst_ratio * 100);
}

/* The shipped model, on inputs drawn from its trained range. */
KTAP_CASE(inference_shipped_model)
{
	static u8 buf[AICC_MODEL_MAX_LEN + 1];
	struct aicc_model m;
	const char *why = "";
	double worst = 0, bound[AICC_MODEL_NR_OUT];
	u64 seed = 99;
	size_t n;
	int c, i, k;
	FILE *f = fopen("tools/train/results/aicc.model", "rb");

	/* run from the top of the tree, as make does */
	ktap_expect(f, "cannot open tools/train/results/aicc.model");
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	ktap_expect(!aicc_model_parse(buf, (u32)n, &m, &why),
		    "shipped model rejected: %s", why);
	if (*why)
		return;
	for (k = 0; k < AICC_MODEL_NR_OUT; k++)
		bound[k] = stated_bound(&m, k);
	for (c = 0; c < 100000; c++) {
		s16 x[AICC_MODEL_NR_IN], y[AICC_MODEL_NR_OUT];
		double yr[AICC_MODEL_NR_OUT];

		for (i = 0; i < AICC_MODEL_NR_IN; i++)
			x[i] = (s16)rng_range(&seed, m.in_min[i], m.in_max[i]);
		ktap_expect(aicc_model_eval(&m, x, y), "in range: rejected");
		ref_eval(&m, x, yr);
		for (k = 0; k < AICC_MODEL_NR_OUT; k++) {
			double e = fabs(y[k] - yr[k] * 4096);

			ktap_expect(e <= bound[k], "error %.2f > bound %.2f",
				    e, bound[k]);
			if (e > worst)
				worst = e;
		}
	}
	printf("# shipped model: worst error %.2f/4096 over 100000 inputs; ",
	       worst);
	printf("stated bound %.1f/4096 (target), %.1f/4096 (gain)\n",
	       bound[0], bound[1]);
}

KTAP_CASE(inference_range_and_scale)
{
	struct aicc_model m;
	s16 x[AICC_MODEL_NR_IN] = { 0 }, y[AICC_MODEL_NR_OUT];

	model_const(&m, 4096, -4096);
	ktap_expect(aicc_model_eval(&m, x, y), "all-range model: out of range");
	ktap_expect(y[0] == 4096 && y[1] == -4096, "y %d %d", y[0], y[1]);
	ktap_expect(aicc_pol_scale_q16(4096) == 2 * 65536 &&
		    aicc_pol_scale_q16(0) == 65536 &&
		    aicc_pol_scale_q16(-4096) == 32768 &&
		    aicc_pol_scale_q16(100000) == 2 * 65536 &&
		    aicc_pol_scale_q16(-100000) == 32768,
		    "scale mapping");
	/* each input's range is checked on its own, bounds inclusive */
	m.in_min[3] = -10;
	m.in_max[3] = 10;
	x[3] = 10;
	ktap_expect(aicc_model_eval(&m, x, y), "x == max is in range");
	x[3] = 11;
	ktap_expect(!aicc_model_eval(&m, x, y), "x > max accepted");
	x[3] = -11;
	ktap_expect(!aicc_model_eval(&m, x, y), "x < min accepted");
}

KTAP_CASE(flow_state_budget)
{
	/* aicc_sock = flow + 15 bytes of glue must fit ICSK_CA_PRIV_SIZE */
	ktap_expect(sizeof(struct aicc_flow) <= 88, "struct aicc_flow is %zu",
		    sizeof(struct aicc_flow));
}

/* ---------------------------------------------------------------- */
/* A synthetic path for the envelope tests.                           */

static void path_init(struct drv *w, const struct aicc_model *m)
{
	u32 knob[AICC_NR_KNOBS];

	memset(w, 0, sizeof(*w));
	aicc_params_defaults(knob, AICC_PROF_COLL);
	aicc_params_set(&w->p, knob);
	w->model = m;
	w->mss = 1448;
	w->now = 5000000000ULL;
	aicc_flow_init(&w->f, &w->p, 10, w->mss, w->now, 0, 0, NULL);
}

/*
 * One round: the window goes out together and its ACKs return over
 * @rtt_ns, each with that RTT; @ce of them CE-marked, a loss on the first
 * if @lost.  Returns the OR of the events.
 */
static unsigned int path_round(struct drv *w, u32 rtt_ns, u32 ce, u32 lost)
{
	u32 n = aicc_cwnd_pkts(&w->f), prior = w->delivered, i;
	unsigned int ev = 0;

	for (i = 0; i < n; i++)
		ev |= drv_ack(w, rtt_ns / n, rtt_ns, prior, i < ce,
			      i == 0 ? lost : 0, 0);
	return ev;
}

#define BASE_NS		20000	/* 20 us */

/* fast start, then tracking at a small queue */
static void path_to_track(struct drv *w)
{
	int i;

	path_round(w, BASE_NS, 0, 0);
	for (i = 0; i < 40 && w->f.mode == AICC_MODE_START; i++)
		path_round(w, BASE_NS * 3, 0, 0);
	for (i = 0; i < 4; i++)
		path_round(w, BASE_NS, 0, 0);
}

/* a flow with model @m (NULL: none) tracking at a small queue */
static void path_tracking(struct drv *w, const struct aicc_model *m)
{
	path_init(w, m);
	path_to_track(w);
}

KTAP_CASE(no_model_is_classic)
{
	struct drv a, b;
	struct aicc_model m;
	unsigned int eva = 0, evb = 0;
	int i;

	/* a model whose outputs are 0 scales by exactly 1 */
	model_const(&m, 0, 0);
	path_tracking(&a, NULL);
	path_tracking(&b, &m);
	for (i = 0; i < 60; i++) {
		u32 rtt = BASE_NS + (i % 7) * 3000;

		eva |= path_round(&a, rtt, i % 5 == 0 ? 2 : 0, i == 30);
		evb |= path_round(&b, rtt, i % 5 == 0 ? 2 : 0, i == 30);
	}
	ktap_expect(!(eva & (AICC_EV_POL_EVAL | AICC_EV_POL_RANGE |
			     AICC_EV_POL_WATCHDOG | AICC_EV_POL_HOLD)),
		    "no model: policy events %x", eva);
	ktap_expect(evb & AICC_EV_POL_EVAL, "identity model never evaluated");
	ktap_expect(a.f.cwnd == b.f.cwnd && a.f.target == b.f.target &&
		    a.f.rate == b.f.rate,
		    "identity model changed the flow: cwnd %llu vs %llu",
		    (unsigned long long)a.f.cwnd,
		    (unsigned long long)b.f.cwnd);
}

KTAP_CASE(model_scales_target_within_bounds)
{
	struct drv a, b, c;
	struct aicc_model up, down;
	unsigned int ev;

	model_const(&up, 4096, 0);	/* target x2 */
	model_const(&down, -4096, 0);	/* target x0.5 */
	path_init(&a, NULL);
	path_init(&b, &up);
	path_init(&c, &down);
	/*
	 * No flow scaling: the classic target then does not depend on the
	 * window, which the scaled targets make differ from the classic's.
	 */
	drv_knob(&a, AICC_K_FS_RANGE, 0);
	drv_knob(&b, AICC_K_FS_RANGE, 0);
	drv_knob(&c, AICC_K_FS_RANGE, 0);
	path_to_track(&a);
	path_to_track(&b);
	path_to_track(&c);
	path_round(&a, BASE_NS, 0, 0);
	ev = path_round(&b, BASE_NS, 0, 0);
	path_round(&c, BASE_NS, 0, 0);
	ktap_expect(ev & AICC_EV_POL_EVAL, "not evaluated: %x", ev);
	/* classic target: max(target * base, target_min) */
	ktap_expect(b.f.target == 2 * a.f.target ||
		    b.f.target == a.p.target_max_ns,
		    "x2: %u vs classic %u", b.f.target, a.f.target);
	ktap_expect(c.f.target >= a.p.target_min_ns &&
		    (c.f.target == a.f.target / 2 ||
		     c.f.target == a.p.target_min_ns),
		    "x0.5: %u vs classic %u (min %u)", c.f.target, a.f.target,
		    a.p.target_min_ns);

	/* the classic bounds apply after the model */
	path_init(&b, &up);
	b.p.target_max_ns = a.f.target + 1;
	path_to_track(&b);
	path_round(&b, BASE_NS, 0, 0);
	ktap_expect(b.f.target <= a.f.target + 1,
		    "target_max not applied after the model: %u", b.f.target);

	/* ... and so does target_min: x0.5 of a target just above it */
	path_init(&c, &down);
	drv_knob(&c, AICC_K_FS_RANGE, 0);
	c.p.target_min_ns = a.f.target - 1;
	path_to_track(&c);
	ev = path_round(&c, BASE_NS, 0, 0);
	ktap_expect(ev & AICC_EV_POL_EVAL, "x0.5, target_min: not evaluated");
	ktap_expect(c.f.target >= c.p.target_min_ns,
		    "target_min not applied after the model: %u < %u",
		    c.f.target, c.p.target_min_ns);
}

KTAP_CASE(model_scales_increase)
{
	struct drv a, b, c;
	struct aicc_model fast, slow;
	u64 w0;

	model_const(&fast, 0, 4096);	/* increase x2 */
	model_const(&slow, 0, -4096);	/* increase x0.5 */
	path_init(&a, NULL);
	path_to_track(&a);
	path_round(&a, BASE_NS, 0, 0);
	/* the same flow, three ways, from the same state */
	b = a;
	b.model = &fast;
	c = a;
	c.model = &slow;
	w0 = a.f.cwnd;
	path_round(&a, BASE_NS, 0, 0);
	path_round(&b, BASE_NS, 0, 0);
	path_round(&c, BASE_NS, 0, 0);
	ktap_expect(a.f.cwnd > w0, "classic did not grow");
	ktap_expect(llabs((long long)(b.f.cwnd - w0) -
			  2 * (long long)(a.f.cwnd - w0)) <= 2,
		    "x2 increase: %lld vs classic %lld",
		    (long long)(b.f.cwnd - w0), (long long)(a.f.cwnd - w0));
	ktap_expect(llabs(2 * (long long)(c.f.cwnd - w0) -
			  (long long)(a.f.cwnd - w0)) <= 2,
		    "x0.5 increase: %lld vs classic %lld",
		    (long long)(c.f.cwnd - w0), (long long)(a.f.cwnd - w0));
}

KTAP_CASE(fallback_out_of_range)
{
	struct drv a, b;
	struct aicc_model m;
	unsigned int ev;
	u32 t;

	model_const(&m, 4096, 4096);
	/* trained only on queueing delays below 0.5 x target */
	m.in_min[AICC_MI_QDELAY] = 0;
	m.in_max[AICC_MI_QDELAY] = 2048;
	path_init(&a, NULL);
	path_to_track(&a);
	/*
	 * A standing queue at the classic target: input 1.0, out of range.
	 * Two rounds of it make the (two-round minimum) queueing delay; the
	 * third round's first ACK ends the second.
	 */
	t = a.f.target;
	b = a;
	b.model = &m;
	path_round(&b, BASE_NS + t, 0, 0);
	path_round(&b, BASE_NS + t, 0, 0);
	/* from here, the same flow with and without the model */
	a = b;
	a.model = NULL;
	path_round(&a, BASE_NS + t, 0, 0);
	ev = path_round(&b, BASE_NS + t, 0, 0);
	ktap_expect(ev & AICC_EV_POL_RANGE, "out of range not reported: %x",
		    ev);
	ktap_expect(!(ev & AICC_EV_POL_EVAL), "evaluated out of range");
	ktap_expect(a.f.target == b.f.target && a.f.cwnd == b.f.cwnd,
		    "out of range: not the classic law");
	/* back in range: the model drives again */
	ev = path_round(&b, BASE_NS, 0, 0);
	ev |= path_round(&b, BASE_NS, 0, 0);
	ktap_expect(ev & AICC_EV_POL_EVAL, "not back in range: %x", ev);
}

/*
 * path_round(), ACK by ACK: returns the OR of the events of the ACKs that
 * came while the flow was in @mode, and adds the rounds they ended to
 * *@ends.
 */
/* N quiet rounds at the base RTT; the events of all of them */
static unsigned int quiet_rounds(struct drv *w, int n)
{
	unsigned int ev = 0;

	while (n-- > 0)
		ev |= path_round(w, BASE_NS, 0, 0);
	return ev;
}

static unsigned int round_in_mode(struct drv *w, u32 rtt_ns, u8 mode,
				  int *ends)
{
	u32 n = aicc_cwnd_pkts(&w->f), prior = w->delivered, i;
	unsigned int ev = 0;

	for (i = 0; i < n; i++) {
		bool in = w->f.mode == mode;
		unsigned int e = drv_ack(w, rtt_ns / n, rtt_ns, prior, 0, 0, 0);

		if (in) {
			ev |= e;
			*ends += !!(e & AICC_EV_ROUND);
		}
	}
	return ev;
}

/*
 * The model drives only TRACK and RESUME rounds: not fast start, nor the
 * round after a timeout (LOSS), with a model loaded from the flow's start.
 */
KTAP_CASE(model_off_in_start_and_loss)
{
	const unsigned int pol = AICC_EV_POL_EVAL | AICC_EV_POL_RANGE;
	unsigned int ev_start, ev_loss, ev;
	struct aicc_model m;
	int start_ends = 0, loss_ends = 0, i;
	struct drv w;

	model_const(&m, 4096, 4096);
	path_init(&w, &m);
	ev_start = round_in_mode(&w, BASE_NS, AICC_MODE_START, &start_ends);
	for (i = 0; i < 40 && w.f.mode == AICC_MODE_START; i++)
		ev_start |= round_in_mode(&w, BASE_NS * 3, AICC_MODE_START,
					  &start_ends);
	ktap_expect(w.f.mode != AICC_MODE_START && start_ends >= 2,
		    "fast start: mode %u after %d round ends", w.f.mode,
		    start_ends);
	ktap_expect(!(ev_start & pol), "policy events in fast start: %x",
		    ev_start);
	/* tracking: the model drives */
	ev = quiet_rounds(&w, 4);
	ktap_expect(ev & AICC_EV_POL_EVAL, "not evaluated in TRACK: %x", ev);
	/* a timeout: its LOSS round is the classic law's */
	aicc_on_rto(&w.f, &w.p, w.delivered, w.ce);
	ev_loss = 0;
	for (i = 0; i < 4 && w.f.mode == AICC_MODE_LOSS; i++)
		ev_loss |= round_in_mode(&w, BASE_NS, AICC_MODE_LOSS,
					 &loss_ends);
	ktap_expect(w.f.mode == AICC_MODE_TRACK && loss_ends >= 1,
		    "LOSS: mode %u after %d round ends", w.f.mode, loss_ends);
	ktap_expect(!(ev_loss & pol), "policy events in a LOSS round: %x",
		    ev_loss);
	ev = quiet_rounds(&w, 4);
	ktap_expect(ev & AICC_EV_POL_EVAL, "not back after LOSS: %x", ev);
}

static unsigned int count_rounds(struct drv *w, int n, u32 rtt, u32 lost,
				 unsigned int ev_bit, int *hits)
{
	unsigned int all = 0;
	int i;

	*hits = 0;
	for (i = 0; i < n; i++) {
		unsigned int ev = path_round(w, rtt, 0, lost);

		all |= ev;
		*hits += !!(ev & ev_bit);
	}
	return all;
}

KTAP_CASE(fallback_watchdog_delay)
{
	struct drv w;
	struct aicc_model m;
	unsigned int ev;
	int hits, i;

	model_const(&m, 4096, 4096);
	path_tracking(&w, &m);
	ktap_expect(path_round(&w, BASE_NS, 0, 0) & AICC_EV_POL_EVAL,
		    "model not driving");
	/* delay far beyond target (10 x), round after round */
	for (i = 0, ev = 0; i < AICC_POL_WD_ROUNDS + 3 &&
	     !(ev & AICC_EV_POL_WATCHDOG); i++)
		ev = path_round(&w, BASE_NS + 10 * w.f.target + 200000, 0, 0);
	ktap_expect(ev & AICC_EV_POL_WATCHDOG, "watchdog did not trip");
	ktap_expect(i >= AICC_POL_WD_ROUNDS - 1 && i <= AICC_POL_WD_ROUNDS + 2,
		    "tripped after %d rounds", i);
	/* held with the classic law, then the model again */
	ev = count_rounds(&w, AICC_POL_HOLD_ROUNDS - 1, BASE_NS, 0,
			  AICC_EV_POL_HOLD, &hits);
	ktap_expect(hits == AICC_POL_HOLD_ROUNDS - 1 &&
		    !(ev & AICC_EV_POL_EVAL),
		    "hold: %d rounds, events %x", hits, ev);
	ev = count_rounds(&w, 4, BASE_NS, 0, AICC_EV_POL_EVAL, &hits);
	ktap_expect(hits >= 2 && !(ev & AICC_EV_POL_HOLD),
		    "model not back after the hold: %d", hits);
}

/*
 * The delay threshold, AICC_POL_WD_DELAY_X (4) times the classic target:
 * queueing delay at 3.5 x never trips the watchdog, at 4.5 x it does in
 * about AICC_POL_WD_ROUNDS rounds.  target_min = target_max pins the
 * classic target, which otherwise moves with the window the delay cuts;
 * an identity model leaves it as it is.
 */
#define WD_TARGET_US	10

KTAP_CASE(fallback_watchdog_delay_threshold)
{
	const u32 t = WD_TARGET_US * 1000;
	struct aicc_model m;
	unsigned int ev = 0;
	struct drv w;
	int i;

	model_const(&m, 0, 0);
	path_tracking(&w, &m);
	drv_knob(&w, AICC_K_TARGET_MIN, WD_TARGET_US);
	drv_knob(&w, AICC_K_TARGET_MAX, WD_TARGET_US);
	for (i = 0; i < 40; i++)
		ev |= path_round(&w, BASE_NS + t * 7 / 2, 0, 0);
	ktap_expect(w.f.target == t, "target %u, not pinned at %u", w.f.target,
		    t);
	ktap_expect(ev & AICC_EV_POL_EVAL, "model not driving: %x", ev);
	ktap_expect(!(ev & (AICC_EV_POL_WATCHDOG | AICC_EV_POL_HOLD)),
		    "3.5 x target tripped the watchdog: %x", ev);
	for (i = 0, ev = 0; i < AICC_POL_WD_ROUNDS + 3 &&
	     !(ev & AICC_EV_POL_WATCHDOG); i++)
		ev = path_round(&w, BASE_NS + t * 9 / 2, 0, 0);
	ktap_expect(ev & AICC_EV_POL_WATCHDOG,
		    "4.5 x target did not trip the watchdog in %d rounds", i);
	ktap_expect(!(ev & AICC_EV_POL_WATCHDOG) ||
		    (i >= AICC_POL_WD_ROUNDS - 1 && i <= AICC_POL_WD_ROUNDS + 2),
		    "4.5 x target: tripped after %d rounds", i);
}

/* A loss in every round until the watchdog trips; the last round's events */
static unsigned int trip_by_losses(struct drv *w)
{
	unsigned int ev = 0;
	int i;

	for (i = 0; i < 3 * AICC_POL_WD_ROUNDS &&
	     !(ev & AICC_EV_POL_WATCHDOG); i++)
		ev = path_round(w, BASE_NS, 0, 1);
	return ev;
}

KTAP_CASE(fallback_watchdog_loss)
{
	struct drv w;
	struct aicc_model m;
	unsigned int ev = 0;
	int i;

	model_const(&m, 4096, 4096);
	path_tracking(&w, &m);
	ev = trip_by_losses(&w);
	ktap_expect(ev & AICC_EV_POL_WATCHDOG,
		    "losses in every round did not trip the watchdog");
	/* a single bad round does not */
	path_tracking(&w, &m);
	ev = 0;
	for (i = 0; i < 40; i++)
		ev |= path_round(&w, BASE_NS, 0, i % AICC_POL_WD_ROUNDS == 0);
	ktap_expect(!(ev & AICC_EV_POL_WATCHDOG),
		    "isolated losses tripped the watchdog");
	/* a loss every other round (heavy random loss, small rounds) does */
	path_tracking(&w, &m);
	ev = 0;
	for (i = 0; i < 2 * AICC_POL_WD_ROUNDS + 1 &&
	     !(ev & AICC_EV_POL_WATCHDOG); i++)
		ev = path_round(&w, BASE_NS, 0, i % 2 == 0);
	ktap_expect(ev & AICC_EV_POL_WATCHDOG,
		    "a loss every other round did not trip the watchdog");
	/*
	 * nor only the losses of rounds that no cut began: a round of
	 * marks (an ECN cut at its end), then one with a loss, repeated
	 */
	path_tracking(&w, &m);
	ev = 0;
	for (i = 0; i < 4 * AICC_POL_WD_ROUNDS &&
	     !(ev & AICC_EV_POL_WATCHDOG); i++) {
		ev = path_round(&w, BASE_NS, aicc_cwnd_pkts(&w.f), 0);
		ev |= path_round(&w, BASE_NS, 0, 1);
	}
	ktap_expect(ev & AICC_EV_POL_WATCHDOG,
		    "losses in the rounds after ECN cuts did not trip the watchdog");
	/* timeouts count as losses: a model round, then an RTO, repeated */
	path_tracking(&w, &m);
	ev = 0;
	for (i = 0; i < 4 * AICC_POL_WD_ROUNDS &&
	     !(ev & AICC_EV_POL_WATCHDOG); i++) {
		ev = path_round(&w, BASE_NS, 0, 0);
		aicc_on_rto(&w.f, &w.p, w.delivered, w.ce);
		ev |= path_round(&w, BASE_NS, 0, 0);
	}
	ktap_expect(ev & AICC_EV_POL_WATCHDOG,
		    "retransmission timeouts did not trip the watchdog");
}

/*
 * A loss the stack undoes (DSACKs: reordering, not congestion) is no bad
 * round: losses undone within their round, round after round, never trip
 * the watchdog; the same losses kept do.
 */
KTAP_CASE(watchdog_ignores_undone_loss)
{
	struct aicc_model m;
	unsigned int ev = 0;
	struct drv w;
	int i;

	model_const(&m, 0, 0);
	path_tracking(&w, &m);
	for (i = 0; i < 4 * AICC_POL_WD_ROUNDS; i++) {
		u32 n = aicc_cwnd_pkts(&w.f), prior = w.delivered, k;

		for (k = 0; k < n; k++) {
			ev |= drv_ack(&w, BASE_NS / n, BASE_NS, prior, 0,
				      k == 0, 0);
			if (k == 0)
				ev |= aicc_on_undo(&w.f, &w.p, n);
		}
	}
	ktap_expect((ev & AICC_EV_POL_EVAL) && (ev & AICC_EV_UNDO) &&
		    !(ev & (AICC_EV_POL_WATCHDOG | AICC_EV_POL_HOLD)),
		    "undone losses: events %x", ev);
	path_tracking(&w, &m);
	ev = count_rounds(&w, 4 * AICC_POL_WD_ROUNDS, BASE_NS, 1,
			  AICC_EV_POL_WATCHDOG, &i);
	ktap_expect(i > 0, "the same losses kept did not trip: %x", ev);
}

/*
 * Unloading the model ends the watchdog's judgement: the round the old
 * model drove is not judged after the unload (nothing is counted without
 * a model), and a model loaded again starts with a clean history.  Three
 * bad model rounds, one short of a trip, then the unload before the next
 * round end.
 */
KTAP_CASE(watchdog_quiet_after_unload)
{
	const unsigned int pol = AICC_EV_POL_EVAL | AICC_EV_POL_RANGE |
		AICC_EV_POL_WATCHDOG | AICC_EV_POL_HOLD;
	struct aicc_model m;
	unsigned int ev = 0;
	struct drv w;
	int i;

	model_const(&m, 4096, 4096);
	path_tracking(&w, &m);
	for (i = 0; i < 2 * AICC_POL_WD_ROUNDS &&
	     (w.f.pol_hist & 7) != 7; i++)
		ev |= path_round(&w, BASE_NS, 0, 1);
	ktap_expect((w.f.pol_hist & 7) == 7 && !(ev & AICC_EV_POL_WATCHDOG),
		    "three bad model rounds: history %x, events %x",
		    w.f.pol_hist, ev);
	/* the model drives the next round, which loses too; then unload */
	ktap_expect(w.f.flags & AICC_F_POLICY, "model not driving");
	w.model = NULL;
	ev = path_round(&w, BASE_NS, 0, 1);
	ev |= count_rounds(&w, 2 * AICC_POL_WD_ROUNDS, BASE_NS, 1, 0, &i);
	ktap_expect(!(ev & pol), "policy events without a model: %x", ev);
	/* loaded again: evaluated at once, and one bad round is no trip */
	w.model = &m;
	ev = path_round(&w, BASE_NS, 0, 1);
	ev |= path_round(&w, BASE_NS, 0, 1);
	ktap_expect((ev & AICC_EV_POL_EVAL) &&
		    !(ev & (AICC_EV_POL_WATCHDOG | AICC_EV_POL_HOLD)),
		    "model loaded again: events %x", ev);
}

/*
 * The hold after a trip is counted in rounds the model would have driven.
 * Fast start and a timeout's LOSS round are no decision rounds: classic
 * anyway and not counted (learned-policy.rst, "Envelope, fallbacks and
 * counters"), so they neither report a held round nor shorten the hold.
 */
KTAP_CASE(watchdog_hold_skips_start_and_loss)
{
	const u64 gap = 20000000000ULL;	/* beyond rate_memory_ms: START */
	struct aicc_model m;
	unsigned int ev = 0;
	struct drv w;
	int i, ends = 0;
	u8 hold;

	model_const(&m, 4096, 4096);
	path_tracking(&w, &m);
	ev = trip_by_losses(&w);
	ktap_expect(ev & AICC_EV_POL_WATCHDOG, "the watchdog did not trip");
	quiet_rounds(&w, 2);
	hold = w.f.pol_hold;
	/* a timeout: its LOSS round */
	aicc_on_rto(&w.f, &w.p, w.delivered, w.ce);
	ev = 0;
	for (i = 0; i < 4 && w.f.mode == AICC_MODE_LOSS; i++)
		ev |= round_in_mode(&w, BASE_NS, AICC_MODE_LOSS, &ends);
	/* an idle gap longer than rate_memory_ms: fast start again */
	w.now += gap;
	aicc_on_tx_start(&w.f, &w.p, w.now, gap, w.delivered, w.ce);
	ktap_expect(w.f.mode == AICC_MODE_START, "mode %u after the gap",
		    w.f.mode);
	ev |= round_in_mode(&w, BASE_NS, AICC_MODE_START, &ends);
	for (i = 0; i < 40 && w.f.mode == AICC_MODE_START; i++)
		ev |= round_in_mode(&w, BASE_NS * 3, AICC_MODE_START, &ends);
	ktap_expect(ends >= 3 && w.f.mode == AICC_MODE_TRACK,
		    "%d LOSS and START round ends, mode %u", ends, w.f.mode);
	ktap_expect(!(ev & AICC_EV_POL_HOLD) && w.f.pol_hold == hold,
		    "LOSS and START rounds held: events %x, hold %u (was %u)",
		    ev, w.f.pol_hold, hold);
}

/*
 * A flow busy for 73 minutes: its busy input stays saturated past the
 * point where the busy period's 32-bit start (2^10 ns units) would wrap,
 * and does not start over as if the flow had just resumed.  A round's end
 * halves a period of 2^31 units (36.6 minutes), so a period is never
 * longer at a round's end: the flow is taken just short of that, and its
 * rounds cross it.  (A span past 3 * 2^30 units is a start after the ACK,
 * counted from the round: test_core's busy_start_after_ack_counts_from_
 * the_round.)
 */
KTAP_CASE(busy_input_never_wraps)
{
	struct aicc_pol_in in = { 0 };
	s16 x[AICC_MODEL_NR_IN];
	struct aicc_model m;
	struct drv w;

	model_const(&m, 0, 0);
	path_tracking(&w, &m);
	/* busy for 2^31 units less 10 (36.6 minutes), then two rounds */
	w.f.busy_start = (u32)(w.now >> 10) - ((1U << 31) - 10);
	path_round(&w, BASE_NS, 0, 0);
	path_round(&w, BASE_NS, 0, 0);
	ktap_expect(aicc_busy_span(&w.f, w.now) < 1U << 31 &&
		    aicc_busy_span(&w.f, w.now) > 1U << 29,
		    "busy span %u units: halved once, not restarted",
		    aicc_busy_span(&w.f, w.now));
	in.now_ns = w.now;
	in.target = w.f.target;
	aicc_policy_features(&w.f, &in, x);
	ktap_expect(x[AICC_MI_BUSY] == 32767, "busy input %d after 73 min",
		    x[AICC_MI_BUSY]);
}

KTAP_CASE(features_known_state)
{
	struct aicc_flow f;
	struct aicc_pol_in in = { 0 };
	s16 x[AICC_MODEL_NR_IN];

	memset(&f, 0, sizeof(f));
	f.base_rtt = 100000;
	f.qdelay = 25000;
	f.alpha = 16384;		/* 0.5 */
	f.cwnd = 64ULL << 16;		/* 64 packets */
	f.busy_start = 0;
	f.del_max = 100;		/* small: exact encoding */
	in.now_ns = 1600000ULL << 0;	/* 16 base RTTs */
	in.target = 50000;
	in.rtt = 120000;
	in.prev_rtt = 110000;
	in.del = 50;
	in.ce = 10;
	aicc_policy_features(&f, &in, x);
	ktap_expect(x[AICC_MI_QDELAY] == 2048, "qdelay/T %d", x[0]);
	ktap_expect(x[AICC_MI_GRADIENT] == 409, "gradient %d", x[1]);
	ktap_expect(x[AICC_MI_ALPHA] == 2048, "alpha %d", x[2]);
	ktap_expect(x[AICC_MI_DELIVERY] == 2048, "delivery %d", x[3]);
	/* 64 * 1.2 / 50 = 1.536 */
	ktap_expect(abs(x[AICC_MI_WIN_BDP] - 6291) <= 1, "win/bdp %d", x[4]);
	/* busy time is counted in 1024-ns units: 1562 * 1024 / 800000 */
	ktap_expect(abs(x[AICC_MI_BUSY] - 8189) <= 8, "busy %d", x[5]);
	ktap_expect(x[AICC_MI_WINDOW] == 6144, "log2 window / 4: %d", x[6]);
	ktap_expect(x[AICC_MI_CE_FRAC] == 819, "ce fraction %d", x[7]);
	in.rtt = 100000;
	aicc_policy_features(&f, &in, x);
	ktap_expect(x[AICC_MI_GRADIENT] == -409, "negative gradient %d", x[1]);
	in.del = 0;
	aicc_policy_features(&f, &in, x);
	ktap_expect(x[AICC_MI_WIN_BDP] == 32767 && x[AICC_MI_CE_FRAC] == 0,
		    "nothing delivered: %d %d", x[4], x[7]);
}

int main(void)
{
	return ktap_run();
}
