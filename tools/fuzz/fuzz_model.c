// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the learned policy's model-blob parser
 * (module/core/aicc_model.c), the code the kernel runs on every write to
 * /sys/kernel/aicc/model, and the inference on whatever it accepts.
 *
 * Input: byte 0 is a control byte, the rest is the blob.  With bit 0 of
 * the control byte set, the harness first writes a correct CRC-32 into the
 * blob's last four bytes, so that the fuzzer also reaches the checks
 * behind the checksum.
 *
 * Properties checked besides the sanitizers (a failure aborts, which
 * libFuzzer reports as a crash):
 *   - rejected: an error message, and the output structure untouched;
 *   - accepted: the blob is canonical -- serialising the parsed model
 *     gives back exactly the input bytes, so no byte went unchecked --
 *     its checksum matches an independent CRC-32, its length is the one
 *     its dimensions give, the values the format bounds are within their
 *     bounds (uapi/aicc_model.h: shifts at most 15, a profile mask of
 *     known profiles, min <= max for every input, biases within 2^24, a
 *     printable name), and inference on inputs taken from the blob stays
 *     within -1 .. 1 (UBSan checks the integer arithmetic).  Being
 *     canonical alone says every byte was read, not that it was checked:
 *     a parser that took an empty input range or shift 20 would still
 *     write the same bytes back.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aicc_core.h"
#include "aicc_policy.h"

/* CRC-32 again, table-driven, as an independent reference. */
static uint32_t ref_crc(const uint8_t *p, size_t n)
{
	static uint32_t tab[256];
	uint32_t c = 0xffffffffU;
	size_t i;

	if (!tab[1]) {
		for (i = 0; i < 256; i++) {
			uint32_t v = (uint32_t)i;
			int k;

			for (k = 0; k < 8; k++)
				v = v & 1 ? 0xedb88320U ^ (v >> 1) : v >> 1;
			tab[i] = v;
		}
	}
	for (i = 0; i < n; i++)
		c = tab[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz_model: %s\n", #cond);	\
			abort();					\
		}							\
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t blob[AICC_MODEL_MAX_LEN + 64];
	static uint8_t again[AICC_MODEL_MAX_LEN];
	struct aicc_model m, fill;
	const char *why = NULL;
	size_t n;
	int rc, i;

	if (size < 1 || size - 1 > sizeof(blob))
		return 0;
	n = size - 1;
	memcpy(blob, data + 1, n);
	if ((data[0] & 1) && n >= 4) {
		uint32_t c = ref_crc(blob, n - 4);

		blob[n - 4] = (uint8_t)c;
		blob[n - 3] = (uint8_t)(c >> 8);
		blob[n - 2] = (uint8_t)(c >> 16);
		blob[n - 1] = (uint8_t)(c >> 24);
	}

	memset(&m, 0x5a, sizeof(m));
	memcpy(&fill, &m, sizeof(m));
	rc = aicc_model_parse(blob, (uint32_t)n, &m, &why);
	if (rc) {
		CHECK(rc == -1 && why && *why);
		CHECK(!memcmp(&m, &fill, sizeof(m)));
		return 0;
	}

	CHECK(n == aicc_model_blob_len(m.n_hidden) && n <= AICC_MODEL_MAX_LEN);
	CHECK(m.len == n);
	CHECK(ref_crc(blob, n - 4) == m.crc);
	CHECK(aicc_model_write(&m, again, sizeof(again)) == n);
	CHECK(!memcmp(again, blob, n));

	/* the bounds of uapi/aicc_model.h, on what was accepted */
	CHECK(m.shift1 <= AICC_MODEL_MAX_SHIFT && m.shift2 <= AICC_MODEL_MAX_SHIFT);
	CHECK(m.profiles && m.profiles < 1U << AICC_NR_PROFILES);
	for (i = 0; i < AICC_MODEL_NR_IN; i++)
		CHECK(m.in_min[i] <= m.in_max[i]);
	for (i = 0; i < m.n_hidden; i++)
		CHECK(m.b1[i] >= -AICC_MODEL_MAX_BIAS && m.b1[i] <= AICC_MODEL_MAX_BIAS);
	for (i = 0; i < AICC_MODEL_NR_OUT; i++)
		CHECK(m.b2[i] >= -AICC_MODEL_MAX_BIAS && m.b2[i] <= AICC_MODEL_MAX_BIAS);
	for (i = 0; i < AICC_MODEL_NAME_LEN && m.name[i]; i++)
		CHECK(m.name[i] >= 0x20 && m.name[i] <= 0x7e);

	for (i = 0; i < 4; i++) {
		s16 x[AICC_MODEL_NR_IN], y[AICC_MODEL_NR_OUT];
		int k;

		for (k = 0; k < AICC_MODEL_NR_IN; k++) {
			size_t at = (size_t)(i * 16 + 2 * k) % (n - 1);

			x[k] = (s16)(blob[at] | blob[at + 1] << 8);
		}
		aicc_model_eval(&m, x, y);
		for (k = 0; k < AICC_MODEL_NR_OUT; k++)
			CHECK(y[k] >= -AICC_POL_ONE && y[k] <= AICC_POL_ONE);
	}
	return 0;
}
