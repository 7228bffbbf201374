/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc core: the learned policy -- a small fixed-point MLP inside the
 * classic controller's envelope (see aicc_policy.c and
 * Documentation/learned-policy.rst).
 *
 * The blob format is uapi/aicc_model.h; aicc_model_parse() (aicc_model.c)
 * turns a blob into a struct aicc_model, checking every byte.  The same
 * parser runs in the kernel, in the aicc tool, in the simulator, in the
 * trainer and under the fuzzer.
 */
#ifndef _AICC_POLICY_H
#define _AICC_POLICY_H

#include "aicc_types.h"
#include "../../uapi/aicc_model.h"

/* A validated model, ready for inference (native byte order). */
struct aicc_model {
	u8 n_in;
	u8 n_hidden;
	u8 n_out;
	u8 shift1;
	u8 shift2;
	u8 profiles;		/* bit p: profile p uses the model */
	char name[AICC_MODEL_NAME_LEN + 1];
	u32 len;		/* blob length */
	u32 crc;		/* the blob's checksum */
	s16 in_off[AICC_MODEL_NR_IN];
	s16 in_gain[AICC_MODEL_NR_IN];
	s16 in_min[AICC_MODEL_NR_IN];
	s16 in_max[AICC_MODEL_NR_IN];
	s8 w1[AICC_MODEL_MAX_HIDDEN][AICC_MODEL_NR_IN];
	s32 b1[AICC_MODEL_MAX_HIDDEN];
	s8 w2[AICC_MODEL_NR_OUT][AICC_MODEL_MAX_HIDDEN];
	s32 b2[AICC_MODEL_NR_OUT];
};

/* Blob parsing (aicc_model.c). */
u32 aicc_model_crc32(const u8 *buf, u32 len);
u32 aicc_model_blob_len(unsigned int n_hidden);
int aicc_model_parse(const void *blob, u32 len, struct aicc_model *m,
		     const char **why);
u32 aicc_model_write(const struct aicc_model *m, u8 *buf, u32 size);

/* Q12 fixed point */
#define AICC_POL_ONE		4096

/*
 * Inference: x[] are the raw inputs (Q12).  Fills y[] (Q12, -1 .. 1) and
 * returns true if every input lies in the model's trained range; out of
 * range, y[] is still computed (for tests) but must not be used.
 */
bool aicc_model_eval(const struct aicc_model *m, const s16 *x, s16 *y);

/* An output y (Q12, -1 .. 1) as a multiplier in Q16: 0.5 .. 2. */
static inline u32 aicc_pol_scale_q16(s32 y)
{
	if (y > AICC_POL_ONE)
		y = AICC_POL_ONE;
	if (y < -AICC_POL_ONE)
		y = -AICC_POL_ONE;
	return y >= 0 ? 65536U + (u32)y * 16 : 65536U - (u32)(-y) * 8;
}

struct aicc_flow;

/* What end_round() knows about the round, for the features. */
struct aicc_pol_in {
	u64 now_ns;
	u32 target;		/* the classic target, ns */
	u32 rtt;		/* smallest RTT sample of the round, 0: none */
	u32 prev_rtt;		/* ... of the previous round, 0: none */
	u32 del;		/* packets delivered in the round */
	u32 ce;			/* ... of which CE-marked */
};

/* The inputs of the model (enum aicc_model_input), Q12. */
void aicc_policy_features(const struct aicc_flow *f,
			  const struct aicc_pol_in *in, s16 *x);

/*
 * Once per round: update the policy's per-flow state, run the watchdog,
 * and, if @m may drive this round, set *@tscale (target) and *@gscale
 * (increase) to its multipliers, Q16; otherwise both are 1.0.  Returns
 * AICC_EV_POL_* events.
 */
unsigned int aicc_policy_round(struct aicc_flow *f,
			       const struct aicc_model *m,
			       const struct aicc_pol_in *in,
			       u32 *tscale, u32 *gscale);

#ifndef __KERNEL__
/*
 * Userspace builds only (the trainer): called with the inputs of every
 * round a model is about to evaluate, to learn their range.
 */
extern void (*aicc_policy_observer)(const s16 *x);
#endif

/* Watchdog: bad rounds among the model's last 8 that trip it ... */
#define AICC_POL_WD_ROUNDS	4
/* ... and how many TRACK/RESUME rounds the flow then stays classic. */
#define AICC_POL_HOLD_ROUNDS	200
/* A round is bad with a loss, or queueing delay above this x target. */
#define AICC_POL_WD_DELAY_X	4

#endif /* _AICC_POLICY_H */
