// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the module's sysfs write parsers.
 *
 * knob_store(), rate_memory_store() and rate_memory_entries_store() in
 * module/aicc_sysfs.c hand the written buffer to plain-C functions of the
 * core (aicc_knob_parse(), aicc_parse_u32_range(), aicc_mem_entries_check()
 * in module/core/aicc_core.c); this harness compiles that same file.
 *
 * Input: the first byte picks the file (a per-profile knob by id, or one of
 * the two writable global files), the rest is what a writer sends.  Like
 * sysfs, the harness passes the bytes NUL-terminated.  Besides the
 * sanitizers, every result is checked against an independent model of the
 * documented rules (uapi/aicc.h: decimal, the knob's [min, max]; the
 * rules of kstrtou64): accepted exactly when the model accepts, with the
 * same value, always inside the range, and the output untouched on
 * rejection.  A mismatch aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aicc_core.h"

#define NR_TARGETS	(AICC_NR_KNOBS + 2)
#define T_RATE_MEMORY	AICC_NR_KNOBS
#define T_MEM_ENTRIES	(AICC_NR_KNOBS + 1)
#define UNTOUCHED	0xa5a5a5a5U

static void fail(const char *what, const char *in)
{
	fprintf(stderr, "fuzz_knob: %s (input \"", what);
	for (; *in; in++)
		if (*in >= 0x20 && *in < 0x7f && *in != '"' && *in != '\\')
			fputc(*in, stderr);
		else
			fprintf(stderr, "\\x%02x", (unsigned char)*in);
	fprintf(stderr, "\")\n");
	abort();
}

/*
 * The model: walk the string once, keeping the value as two 32-bit halves
 * (so no 64-bit overflow trick is shared with the code under test).
 */
static int model_parse(const char *s, uint64_t *out)
{
	uint64_t hi = 0, lo = 0;	/* value = hi * 2^32 + lo */
	size_t i = 0, digits = 0;

	if (s[i] == '+')
		i++;
	for (; s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		lo = lo * 10 + (uint64_t)(s[i] - '0');
		hi = hi * 10 + (lo >> 32);
		lo &= 0xffffffffULL;
		if (hi > 0xffffffffULL)
			return -1;
	}
	if (!digits)
		return -1;
	if (s[i] == '\n')
		i++;
	if (s[i] != '\0')
		return -1;
	*out = (hi << 32) | lo;
	return 0;
}

static int model_accepts(unsigned int t, uint64_t v)
{
	if (t < AICC_NR_KNOBS)
		return v >= aicc_knob_desc[t].min && v <= aicc_knob_desc[t].max;
	if (t == T_RATE_MEMORY)
		return v <= 1;
	/* rate_memory_entries: a power of two in range */
	if (v < AICC_MEM_ENTRIES_MIN || v > AICC_MEM_ENTRIES_MAX)
		return 0;
	while (v > 1) {
		if (v % 2)
			return 0;
		v /= 2;
	}
	return 1;
}

/* Runs the module's parser for target @t, as the store functions do. */
static int module_parse(unsigned int t, const char *buf, uint32_t *out)
{
	if (t < AICC_NR_KNOBS)
		return aicc_knob_parse(t, buf, out);
	if (t == T_RATE_MEMORY)
		return aicc_parse_u32_range(buf, 0, 1, out);
	if (aicc_parse_u32_range(buf, 0, ~0U, out))
		return -1;
	return aicc_mem_entries_check(*out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int t;
	uint32_t got = UNTOUCHED;
	uint64_t want = 0;
	u64 any;
	int rc, mrc;
	char *buf;

	if (size < 1)
		return 0;
	t = data[0] % NR_TARGETS;
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';

	rc = module_parse(t, buf, &got);
	mrc = model_parse(buf, &want) == 0 && model_accepts(t, want) ? 0 : -1;
	if (!rc != !mrc)
		fail(rc ? "rejected a valid value" : "accepted an invalid value",
		     buf);
	if (rc == 0 && got != want)
		fail("parsed to a different value", buf);
	if (rc != 0 && t < T_MEM_ENTRIES && got != UNTOUCHED)
		fail("changed the output of a rejected write", buf);
	if (rc == 0 && t < AICC_NR_KNOBS &&
	    (got < aicc_knob_desc[t].min || got > aicc_knob_desc[t].max))
		fail("accepted a value outside the knob's range", buf);

	/* the bare number parser agrees with the model on every input */
	rc = aicc_parse_u64(buf, &any);
	mrc = model_parse(buf, &want);
	if (!rc != !mrc || (!rc && any != want))
		fail("aicc_parse_u64 disagrees with the model", buf);

	free(buf);
	return 0;
}
