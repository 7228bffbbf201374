// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-tune: the search space.  Each searched knob gets a coordinate in
 * [0, 1], mapped linearly or logarithmically onto a search range that lies
 * inside the knob's min..max from aicc_knob_desc[], then rounded to an
 * integer.  Knobs not listed here keep their current default.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tune.h"

/*
 * Search ranges, in knob units.  Narrower than the full ABI ranges where
 * the ends make no sense for a datacenter (a target of 10 base RTTs, an
 * additive increase of 10000 packets per RTT), and ecn_beta starts at 200
 * so a tuned profile never ignores ECN: the simulated fabrics mark only
 * above a deep threshold, a real one may mark early.  ai stops at two
 * packets per RTT: it is the one knob in packets, not relative to the base
 * RTT, and a value right for a 100-packet window (the simulated fabrics)
 * nearly doubles the 8-packet window of a slow path (the selftests' 20
 * Mbit/s, 5 ms testbed) every round.  min_cwnd stops at one packet:
 * the training set's fan-in of 32 never needs a smaller window, but 256
 * senders at one port do, and a floor of two packets each would fill a
 * 512 KB buffer by itself.  start_exit stops at the target itself: a
 * run with the old limit (5 times the target) chose the top together
 * with a target of 0.4-0.5 base RTTs, and fast start then left the
 * selftests' testbed at about two base RTTs of queue, on top of what its
 * token-bucket shaper hides; the start case sees that overshoot only in
 * part, since the simulator has no shaper.  Not searched:
 * target_max_us, pacing_min_kbps and pacing_max_kbps (safety bounds the
 * simulated fabrics never reach), rate_memory_ms (the simulator keeps
 * connections and has no rate cache), min_rtt_win_ms (runs are shorter
 * than any window), and gain_min_cwnd, which the fabric sets
 * (space_gain_min_cwnd()).
 */
const struct tune_dim tune_dims[] = {
	{ AICC_K_TARGET,	20,	2000,	true },
	{ AICC_K_TARGET_MIN,	1,	50,	true },
	{ AICC_K_FS_RANGE,	0,	3000,	false },
	{ AICC_K_FS_MIN_CWND,	10,	10000,	true },
	{ AICC_K_FS_MAX_CWND,	1,	1000,	true },
	{ AICC_K_AI,		10,	2000,	true },
	{ AICC_K_MI,		0,	500,	false },
	{ AICC_K_BETA,		50,	1000,	false },
	{ AICC_K_MAX_MDF,	50,	900,	false },
	{ AICC_K_ECN_G,		8,	500,	true },
	{ AICC_K_ECN_BETA,	200,	1000,	false },
	{ AICC_K_LOSS_BETA,	50,	900,	false },
	{ AICC_K_MIN_CWND,	1,	1000,	true },
	{ AICC_K_PACING_GAIN,	1000,	3000,	false },
	{ AICC_K_START_EXIT,	50,	1000,	true },
	{ AICC_K_IDLE_RESTART,	0,	1,	false },
};

const int tune_nr_dims = TUNE_NR(tune_dims);

/*
 * gain_min_cwnd from the fabric, not from the search.  At one packet
 * (1000), windows of one to two packets keep TCP's two in flight on the
 * ACK clock, which finishes an incast's flows together -- if two packets
 * from every sender of the fan-in fit in the bandwidth-delay product and
 * three quarters of the buffer (the rest for the packets that every sender
 * sends at once when a collective resumes).  If they do not, the floor of
 * two packets alone overflows the port, and every window under two
 * packets must be paced at its own rate (2000).  With the shipped aicc
 * table into 512 KB at 100 Gbit/s and 10 us, 1000 completes 64- to
 * 160-way incasts 8-10 % sooner than 2000, the two tie at 192, and at 256
 * 1000 overflows the port.  A search over the knob for that 256-way
 * fabric ended at 1848 and lost packets (Documentation/tuning.rst): a
 * value between the two only moves the step.
 */
u32 space_gain_min_cwnd(const struct tune_fabric *fb)
{
	double bdp = fb->rate_gbit * 1e9 / 8 * fb->rtt_us * 1e-6;
	double room = bdp + fb->buffer_kb * 1024.0 * 3 / 4;
	struct sim_config c;

	sim_config_defaults(&c);	/* every TCP case runs at its MTU */
	return 2.0 * fb->fan_in * c.mtu <= room ? 1000 : 2000;
}

bool space_has_knob(const struct tune_dim *dims, int n, int knob)
{
	int i;

	for (i = 0; i < n; i++)
		if (dims[i].knob == knob)
			return true;
	return false;
}

void space_init(struct tune_space *sp, int profile, const u32 *base)
{
	int i;

	memset(sp, 0, sizeof(*sp));
	sp->profile = profile;
	if (base)
		memcpy(sp->base, base, sizeof(sp->base));
	else
		aicc_params_defaults(sp->base, profile);
	sp->d = tune_nr_dims;
	for (i = 0; i < tune_nr_dims; i++)
		sp->dim[i] = tune_dims[i];
}

static double clamp01(double u)
{
	return u < 0 ? 0 : u > 1 ? 1 : u;
}

double space_to_unit(const struct tune_dim *dm, u32 v)
{
	double x = v;

	if (dm->hi <= dm->lo)
		return 0;
	if (dm->log) {
		if (x < dm->lo)
			x = dm->lo;
		return clamp01((log(x) - log(dm->lo)) /
			       (log(dm->hi) - log(dm->lo)));
	}
	return clamp01((x - dm->lo) / (dm->hi - dm->lo));
}

double space_value(const struct tune_dim *dm, double u)
{
	double v;

	u = clamp01(u);
	if (dm->log)
		v = exp(log(dm->lo) + u * (log(dm->hi) - log(dm->lo)));
	else
		v = dm->lo + u * (dm->hi - dm->lo);
	v = floor(v + 0.5);
	return v < dm->lo ? dm->lo : v > dm->hi ? dm->hi : v;
}

u32 space_from_unit(const struct tune_dim *dm, double u)
{
	const struct aicc_knob_desc *k = &aicc_knob_desc[dm->knob];
	double v = space_value(dm, u);

	if (v < k->min)
		v = k->min;
	if (v > k->max)
		v = k->max;
	return (u32)v;
}

/* Keep the pairs the aicc tool checks ordered (it refuses them otherwise). */
void space_repair(u32 kn[AICC_NR_KNOBS])
{
	if (kn[AICC_K_TARGET_MIN] > kn[AICC_K_TARGET_MAX])
		kn[AICC_K_TARGET_MAX] = kn[AICC_K_TARGET_MIN];
	if ((u64)kn[AICC_K_FS_MIN_CWND] > (u64)kn[AICC_K_FS_MAX_CWND] * 1000)
		kn[AICC_K_FS_MAX_CWND] = (kn[AICC_K_FS_MIN_CWND] + 999) / 1000;
	if (kn[AICC_K_PACING_MAX] &&
	    kn[AICC_K_PACING_MIN] > kn[AICC_K_PACING_MAX])
		kn[AICC_K_PACING_MAX] = kn[AICC_K_PACING_MIN];
}

double space_to_knobs(const struct tune_space *sp, const double *x,
		      u32 knobs[AICC_NR_KNOBS])
{
	double out = 0;
	int i;

	memcpy(knobs, sp->base, sizeof(sp->base));
	for (i = 0; i < sp->d; i++) {
		double c = clamp01(x[i]);

		out += (x[i] - c) * (x[i] - c);
		knobs[sp->dim[i].knob] = space_from_unit(&sp->dim[i], c);
	}
	space_repair(knobs);
	return out;
}

void space_from_knobs(const struct tune_space *sp,
		      const u32 knobs[AICC_NR_KNOBS], double *x)
{
	int i;

	for (i = 0; i < sp->d; i++)
		x[i] = space_to_unit(&sp->dim[i], knobs[sp->dim[i].knob]);
}

int knobs_valid(const u32 kn[AICC_NR_KNOBS], char *why, size_t len)
{
	int i;

	for (i = 0; i < AICC_NR_KNOBS; i++)
		if (aicc_knob_check(i, kn[i])) {
			snprintf(why, len, "%s = %u outside %u..%u",
				 aicc_knob_desc[i].name, kn[i],
				 aicc_knob_desc[i].min, aicc_knob_desc[i].max);
			return -1;
		}
	if (kn[AICC_K_TARGET_MIN] > kn[AICC_K_TARGET_MAX]) {
		snprintf(why, len, "target_min_us above target_max_us");
		return -1;
	}
	if ((u64)kn[AICC_K_FS_MIN_CWND] > (u64)kn[AICC_K_FS_MAX_CWND] * 1000) {
		snprintf(why, len, "fs_min_cwnd above fs_max_cwnd");
		return -1;
	}
	if (kn[AICC_K_PACING_MAX] &&
	    kn[AICC_K_PACING_MIN] > kn[AICC_K_PACING_MAX]) {
		snprintf(why, len, "pacing_min_kbps above pacing_max_kbps");
		return -1;
	}
	return 0;
}
