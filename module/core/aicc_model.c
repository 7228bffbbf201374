// SPDX-License-Identifier: GPL-2.0
/*
 * aicc core: the model blob parser and writer (format: uapi/aicc_model.h).
 *
 * The parser is the one gate between bytes from userspace and the
 * datapath: it checks the length before reading anything, then every
 * field, every padding byte and the checksum, and fills the output only
 * when all of it holds.  Plain C, no allocation, no floating point: the
 * kernel module, the tools and the fuzzer compile this same file.
 */
#include "aicc_policy.h"

static u16 get16(const u8 *p)
{
	return (u16)(p[0] | (p[1] << 8));
}

static u32 get32(const u8 *p)
{
	return (u32)p[0] | ((u32)p[1] << 8) | ((u32)p[2] << 16) |
	       ((u32)p[3] << 24);
}

static void put16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

static void put32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

/* CRC-32, reflected polynomial 0xedb88320, as zlib's crc32(0, buf, len). */
u32 aicc_model_crc32(const u8 *buf, u32 len)
{
	u32 crc = 0xffffffffU;
	u32 i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= buf[i];
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320U & (0U - (crc & 1)));
	}
	return ~crc;
}

static u32 pad4(u32 n)
{
	return (n + 3) & ~3U;
}

/* Offsets of the body's arrays for @n_hidden units. */
struct model_layout {
	u32 in_off, in_gain, in_min, in_max, w1, w1_end, b1, w2, w2_end, b2,
	    crc, len;
};

static void layout(unsigned int n_hidden, struct model_layout *l)
{
	const u32 n_in = AICC_MODEL_NR_IN, n_out = AICC_MODEL_NR_OUT;

	l->in_off = AICC_MODEL_HDR_LEN;
	l->in_gain = l->in_off + 2 * n_in;
	l->in_min = l->in_gain + 2 * n_in;
	l->in_max = l->in_min + 2 * n_in;
	l->w1 = l->in_max + 2 * n_in;
	l->w1_end = l->w1 + n_hidden * n_in;
	l->b1 = pad4(l->w1_end);
	l->w2 = l->b1 + 4 * n_hidden;
	l->w2_end = l->w2 + n_out * n_hidden;
	l->b2 = pad4(l->w2_end);
	l->crc = l->b2 + 4 * n_out;
	l->len = l->crc + 4;
}

u32 aicc_model_blob_len(unsigned int n_hidden)
{
	struct model_layout l;

	layout(n_hidden, &l);
	return l.len;
}

static bool all_zero(const u8 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static bool bias_ok(s32 b)
{
	return b >= -AICC_MODEL_MAX_BIAS && b <= AICC_MODEL_MAX_BIAS;
}

/* The first problem of the blob, or NULL if it is valid. */
static const char *check_blob(const u8 *b, u32 len, struct model_layout *l)
{
	unsigned int i, j, nh;

	if (!b || len < AICC_MODEL_HDR_LEN)
		return "truncated: shorter than the header";
	if (get32(b + AICC_MODEL_OFF_MAGIC) != AICC_MODEL_MAGIC)
		return "bad magic (not an aicc model)";
	if (get16(b + AICC_MODEL_OFF_VERSION) != AICC_MODEL_VERSION)
		return "unsupported version";
	if (get16(b + AICC_MODEL_OFF_HDR_LEN) != AICC_MODEL_HDR_LEN)
		return "bad header length";
	if (b[AICC_MODEL_OFF_N_IN] != AICC_MODEL_NR_IN)
		return "bad dimensions: inputs";
	nh = b[AICC_MODEL_OFF_N_HIDDEN];
	if (nh < 1 || nh > AICC_MODEL_MAX_HIDDEN)
		return "bad dimensions: hidden units";
	if (b[AICC_MODEL_OFF_N_OUT] != AICC_MODEL_NR_OUT)
		return "bad dimensions: outputs";
	layout(nh, l);
	if (get32(b + AICC_MODEL_OFF_LEN) != l->len)
		return "length field does not match the dimensions";
	if (len < l->len)
		return "truncated: shorter than its length field";
	if (len > l->len)
		return "trailing bytes after the checksum";
	if (get32(b + l->crc) != aicc_model_crc32(b, l->crc))
		return "checksum mismatch";
	if (b[AICC_MODEL_OFF_ACT] != AICC_MODEL_ACT_HARDTANH)
		return "unknown activation";
	if (b[AICC_MODEL_OFF_SHIFT1] > AICC_MODEL_MAX_SHIFT ||
	    b[AICC_MODEL_OFF_SHIFT2] > AICC_MODEL_MAX_SHIFT)
		return "weight scale (shift) out of range";
	if (!b[AICC_MODEL_OFF_PROFILES] || b[AICC_MODEL_OFF_PROFILES] >> 3)
		return "bad profile mask";
	if (!all_zero(b + 19, 5))
		return "reserved header bytes not zero";
	for (i = 0; i < AICC_MODEL_NAME_LEN; i++) {
		u8 c = b[AICC_MODEL_OFF_NAME + i];

		if (!c)
			break;
		if (c < 0x20 || c > 0x7e)
			return "name is not printable ASCII";
	}
	if (!all_zero(b + AICC_MODEL_OFF_NAME + i, AICC_MODEL_NAME_LEN - i))
		return "name not NUL-padded";
	for (i = 0; i < AICC_MODEL_NR_IN; i++)
		if ((s16)get16(b + l->in_min + 2 * i) >
		    (s16)get16(b + l->in_max + 2 * i))
			return "input range empty (min above max)";
	if (!all_zero(b + l->w1_end, l->b1 - l->w1_end) ||
	    !all_zero(b + l->w2_end, l->b2 - l->w2_end))
		return "padding not zero";
	for (j = 0; j < nh; j++)
		if (!bias_ok((s32)get32(b + l->b1 + 4 * j)))
			return "layer-1 bias out of range";
	for (j = 0; j < AICC_MODEL_NR_OUT; j++)
		if (!bias_ok((s32)get32(b + l->b2 + 4 * j)))
			return "layer-2 bias out of range";
	return NULL;
}

/*
 * Check the whole blob and fill @m.  Returns 0, or -1 with *@why naming
 * the first problem found (and @m untouched).
 */
int aicc_model_parse(const void *blob, u32 len, struct aicc_model *m,
		     const char **why)
{
	const u8 *b = blob;
	struct model_layout l;
	unsigned int i, j, nh;
	const char *bad = check_blob(b, len, &l);

	if (bad) {
		if (why)
			*why = bad;
		return -1;
	}
	nh = b[AICC_MODEL_OFF_N_HIDDEN];

	/* Everything holds: fill the output. */
	*m = (struct aicc_model){ 0 };
	m->n_in = AICC_MODEL_NR_IN;
	m->n_hidden = (u8)nh;
	m->n_out = AICC_MODEL_NR_OUT;
	m->shift1 = b[AICC_MODEL_OFF_SHIFT1];
	m->shift2 = b[AICC_MODEL_OFF_SHIFT2];
	m->profiles = b[AICC_MODEL_OFF_PROFILES];
	for (i = 0; i < AICC_MODEL_NAME_LEN; i++)
		m->name[i] = (char)b[AICC_MODEL_OFF_NAME + i];
	m->len = l.len;
	m->crc = get32(b + l.crc);
	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		m->in_off[i] = (s16)get16(b + l.in_off + 2 * i);
		m->in_gain[i] = (s16)get16(b + l.in_gain + 2 * i);
		m->in_min[i] = (s16)get16(b + l.in_min + 2 * i);
		m->in_max[i] = (s16)get16(b + l.in_max + 2 * i);
	}
	for (j = 0; j < nh; j++) {
		for (i = 0; i < AICC_MODEL_NR_IN; i++)
			m->w1[j][i] = (s8)b[l.w1 + j * AICC_MODEL_NR_IN + i];
		m->b1[j] = (s32)get32(b + l.b1 + 4 * j);
	}
	for (i = 0; i < AICC_MODEL_NR_OUT; i++) {
		for (j = 0; j < nh; j++)
			m->w2[i][j] = (s8)b[l.w2 + i * nh + j];
		m->b2[i] = (s32)get32(b + l.b2 + 4 * i);
	}
	return 0;
}

/*
 * Serialise @m (dimensions from m->n_hidden) into @buf with a fresh
 * checksum.  Returns the blob length, or 0 if @size is too small or the
 * dimensions are invalid.  Used by the trainer and the tests.
 */
u32 aicc_model_write(const struct aicc_model *m, u8 *buf, u32 size)
{
	struct model_layout l;
	unsigned int i, j, nh = m->n_hidden;

	if (nh < 1 || nh > AICC_MODEL_MAX_HIDDEN)
		return 0;
	layout(nh, &l);
	if (size < l.len)
		return 0;
	for (i = 0; i < l.len; i++)
		buf[i] = 0;
	put32(buf + AICC_MODEL_OFF_MAGIC, AICC_MODEL_MAGIC);
	put16(buf + AICC_MODEL_OFF_VERSION, AICC_MODEL_VERSION);
	put16(buf + AICC_MODEL_OFF_HDR_LEN, AICC_MODEL_HDR_LEN);
	put32(buf + AICC_MODEL_OFF_LEN, l.len);
	buf[AICC_MODEL_OFF_N_IN] = AICC_MODEL_NR_IN;
	buf[AICC_MODEL_OFF_N_HIDDEN] = (u8)nh;
	buf[AICC_MODEL_OFF_N_OUT] = AICC_MODEL_NR_OUT;
	buf[AICC_MODEL_OFF_ACT] = AICC_MODEL_ACT_HARDTANH;
	buf[AICC_MODEL_OFF_SHIFT1] = m->shift1;
	buf[AICC_MODEL_OFF_SHIFT2] = m->shift2;
	buf[AICC_MODEL_OFF_PROFILES] = m->profiles;
	for (i = 0; i < AICC_MODEL_NAME_LEN && m->name[i]; i++)
		buf[AICC_MODEL_OFF_NAME + i] = (u8)m->name[i];
	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		put16(buf + l.in_off + 2 * i, (u16)m->in_off[i]);
		put16(buf + l.in_gain + 2 * i, (u16)m->in_gain[i]);
		put16(buf + l.in_min + 2 * i, (u16)m->in_min[i]);
		put16(buf + l.in_max + 2 * i, (u16)m->in_max[i]);
	}
	for (j = 0; j < nh; j++) {
		for (i = 0; i < AICC_MODEL_NR_IN; i++)
			buf[l.w1 + j * AICC_MODEL_NR_IN + i] = (u8)m->w1[j][i];
		put32(buf + l.b1 + 4 * j, (u32)m->b1[j]);
	}
	for (i = 0; i < AICC_MODEL_NR_OUT; i++) {
		for (j = 0; j < nh; j++)
			buf[l.w2 + i * nh + j] = (u8)m->w2[i][j];
		put32(buf + l.b2 + 4 * i, (u32)m->b2[i]);
	}
	put32(buf + l.crc, aicc_model_crc32(buf, l.crc));
	return l.len;
}
