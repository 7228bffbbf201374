/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * aicc: the learned-policy model blob -- a versioned binary format.
 *
 * A model is loaded by writing one whole blob to AICC_SYSFS_DIR/model
 * (`aicc model load FILE`), read back from the same file, and removed by
 * writing 1 to AICC_SYSFS_DIR/model_unload.  The kernel validates every
 * byte before it publishes the model; a blob that fails any check is
 * rejected whole (-EINVAL) and the model already loaded stays in use.
 *
 * All fields are little-endian and naturally aligned.  Layout, version 1:
 *
 *   offset  size        field
 *   0       4           magic "AICM" (AICC_MODEL_MAGIC read as le32)
 *   4       2           version (AICC_MODEL_VERSION)
 *   6       2           header length (AICC_MODEL_HDR_LEN)
 *   8       4           total length of the blob, checksum included
 *   12      1           n_in: inputs, must be AICC_MODEL_NR_IN
 *   13      1           n_hidden: hidden units, 1..AICC_MODEL_MAX_HIDDEN
 *   14      1           n_out: outputs, must be AICC_MODEL_NR_OUT
 *   15      1           activation: AICC_MODEL_ACT_HARDTANH
 *   16      1           shift1: layer-1 weight scale, weight = w1 / 2^shift1
 *   17      1           shift2: layer-2 weight scale, weight = w2 / 2^shift2
 *   18      1           profiles: bit p set = applies to profile p
 *   19      1           reserved, 0
 *   20      4           reserved, 0
 *   24      24          name: printable ASCII, NUL-padded (optional)
 *   48      2 * n_in    in_off[]:  s16, Q12, subtracted from each input
 *           2 * n_in    in_gain[]: s16, Q12, then multiplied
 *           2 * n_in    in_min[]:  s16, Q12, trained range of each input
 *           2 * n_in    in_max[]:  s16, Q12 (raw input, before off/gain)
 *           n_hidden * n_in        w1[j][i]: s8
 *           0..3        zero padding to a multiple of 4
 *           4 * n_hidden           b1[j]: s32, in units of 2^-(12+shift1)
 *           n_out * n_hidden       w2[k][j]: s8
 *           0..3        zero padding to a multiple of 4
 *           4 * n_out   b2[k]: s32, in units of 2^-(12+shift2)
 *           4           CRC-32 (IEEE 802.3, as zlib's crc32()) of every
 *                       byte before it
 *
 * Inference (module/core/aicc_policy.c), integers only, Q12 = 1/4096:
 *
 *   n_i = sat16(((x_i - in_off_i) * in_gain_i) >> 12)
 *   h_j = clamp((b1_j + sum_i w1[j][i] * n_i) >> shift1, -4096, 4096)
 *   y_k = clamp((b2_k + sum_j w2[k][j] * h_j) >> shift2, -4096, 4096)
 *   scale_k = 1 + y_k / 4096 for y_k >= 0, 1 + y_k / 8192 below: 0.5 .. 2
 *
 * Output 0 scales the queueing-delay target, output 1 the increase per
 * round; see Documentation/learned-policy.rst for the inputs (features),
 * the envelope and the watchdog.
 */
#ifndef _UAPI_LINUX_AICC_MODEL_H
#define _UAPI_LINUX_AICC_MODEL_H

#define AICC_MODEL_MAGIC	0x4d434941U	/* "AICM" */
#define AICC_MODEL_VERSION	1
#define AICC_MODEL_HDR_LEN	48
#define AICC_MODEL_NAME_LEN	24
#define AICC_MODEL_NR_IN	8
#define AICC_MODEL_MAX_HIDDEN	32
#define AICC_MODEL_NR_OUT	2
#define AICC_MODEL_ACT_HARDTANH	0
#define AICC_MODEL_MAX_SHIFT	15
#define AICC_MODEL_MAX_BIAS	0x1000000	/* |b1|, |b2| at most 2^24 */
#define AICC_MODEL_MAX_LEN	4096		/* any valid blob is smaller */
#define AICC_MODEL_Q		12		/* inputs and activations */

/* Header field offsets. */
#define AICC_MODEL_OFF_MAGIC	0
#define AICC_MODEL_OFF_VERSION	4
#define AICC_MODEL_OFF_HDR_LEN	6
#define AICC_MODEL_OFF_LEN	8
#define AICC_MODEL_OFF_N_IN	12
#define AICC_MODEL_OFF_N_HIDDEN	13
#define AICC_MODEL_OFF_N_OUT	14
#define AICC_MODEL_OFF_ACT	15
#define AICC_MODEL_OFF_SHIFT1	16
#define AICC_MODEL_OFF_SHIFT2	17
#define AICC_MODEL_OFF_PROFILES	18
#define AICC_MODEL_OFF_NAME	24

/* Inputs, in order (Documentation/learned-policy.rst defines them). */
enum aicc_model_input {
	AICC_MI_QDELAY,		/* queueing delay / classic target */
	AICC_MI_GRADIENT,	/* RTT change over the round / base RTT */
	AICC_MI_ALPHA,		/* CE-marked fraction EWMA */
	AICC_MI_DELIVERY,	/* delivered this round / recent maximum */
	AICC_MI_WIN_BDP,	/* window / estimated BDP */
	AICC_MI_BUSY,		/* base RTTs since idle / 8 */
	AICC_MI_WINDOW,		/* log2(window in packets) / 4: fan-in */
	AICC_MI_CE_FRAC,	/* CE-marked fraction of this round */
};

/* Outputs. */
enum aicc_model_output {
	AICC_MO_TARGET,		/* scales the queueing-delay target */
	AICC_MO_GAIN,		/* scales the increase per round */
};

/* Global sysfs files of the model (under AICC_SYSFS_DIR). */
#define AICC_G_MODEL		"model"		/* binary, 0644, root writes */
#define AICC_G_MODEL_UNLOAD	"model_unload"	/* write 1, 0200 */
#define AICC_G_MODEL_LOADS	"model_loads"	/* blobs accepted, ro */
#define AICC_G_MODEL_REJECTS	"model_rejects"	/* blobs rejected, ro */

#endif /* _UAPI_LINUX_AICC_MODEL_H */
