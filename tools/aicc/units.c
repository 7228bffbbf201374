// SPDX-License-Identifier: GPL-2.0
/*
 * aicc(8): knob, counter and profile tables (generated from the X-macros
 * of uapi/aicc.h) and the parsing and printing of values with units.
 *
 * A value given on the command line or in a profile file is either a bare
 * integer in the knob's sysfs unit, or a number with a unit suffix that is
 * converted exactly; anything that does not convert to a whole number of
 * the knob's unit is refused rather than rounded.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "aicc_tool.h"

const struct aicc_knob_desc *const knob_table = aicc_knob_desc;
const struct aicc_name_desc *const stat_table = aicc_stat_desc;
const struct aicc_name_desc *const profile_table = aicc_profile_desc;

const struct aicc_knob_desc global_knob_table[NR_GLOBAL_KNOBS] = {
	[AICC_GK_RATE_MEMORY] = {
		AICC_G_RATE_MEMORY, AICC_UNIT_BOOL, 0, 1,
		"remember per-peer rates (all profiles)" },
	[AICC_GK_RATE_MEMORY_ENTRIES] = {
		AICC_G_RATE_MEMORY_ENTRIES, AICC_UNIT_COUNT,
		AICC_MEM_ENTRIES_MIN, AICC_MEM_ENTRIES_MAX,
		"size of the per-peer rate cache, a power of two" },
};

/*
 * AICC_UNCHECKED=1 (a testing aid) skips the tool's own range and
 * consistency checks, so that tests can reach the kernel's -EINVAL and the
 * rollback behind it with the real module.
 */
bool unchecked(void)
{
	const char *e = getenv("AICC_UNCHECKED");

	return e && *e && strcmp(e, "0");
}

/* Checks beyond the range that the kernel also makes. */
int check_knob_value(int profile, int idx, uint64_t v, char *why,
		     size_t whylen)
{
	if (unchecked())
		return 0;
	if (profile < 0 && idx == AICC_GK_RATE_MEMORY_ENTRIES &&
	    (v & (v - 1))) {
		snprintf(why, whylen, "%llu is not a power of two",
			 (unsigned long long)v);
		return -1;
	}
	return 0;
}

const char *unit_name(enum aicc_unit u)
{
	switch (u) {
	case AICC_UNIT_PERMILLE:
		return "permille";
	case AICC_UNIT_US:
		return "us";
	case AICC_UNIT_MS:
		return "ms";
	case AICC_UNIT_MPKT:
		return "mpkt";
	case AICC_UNIT_PKT:
		return "pkt";
	case AICC_UNIT_KBPS:
		return "kbit/s";
	case AICC_UNIT_BOOL:
		return "bool";
	case AICC_UNIT_COUNT:
		return "count";
	}
	return "?";
}

/*
 * Suffixes per dimension.  @scale is the suffix's size in the dimension's
 * base; each unit has its own size in the same base (unit_scale()).
 * Time base: ns.  Ratio base: 1e-5.  Packet base: 1/1000 packet.
 * Rate base: bit/s.
 */
struct suffix {
	const char *name;
	unsigned long long scale;
};

static const struct suffix time_sfx[] = {
	{ "ns", 1 }, { "nsec", 1 },
	{ "us", 1000 }, { "usec", 1000 },
	{ "ms", 1000000 }, { "msec", 1000000 },
	{ "s", 1000000000ULL }, { "sec", 1000000000ULL },
	{ NULL, 0 }
};

static const struct suffix ratio_sfx[] = {
	{ "%", 1000 }, { "x", 100000 }, { "permille", 100 },
	{ NULL, 0 }
};

static const struct suffix pkt_sfx[] = {
	{ "pkt", 1000 }, { "pkts", 1000 }, { "packets", 1000 },
	{ "mpkt", 1 },
	{ NULL, 0 }
};

static const struct suffix rate_sfx[] = {
	{ "bit", 1 }, { "kbit", 1000 }, { "mbit", 1000000 },
	{ "gbit", 1000000000ULL }, { "tbit", 1000000000000ULL },
	{ NULL, 0 }
};

static const struct suffix *unit_suffixes(enum aicc_unit u,
					  unsigned long long *unit_scale)
{
	switch (u) {
	case AICC_UNIT_PERMILLE:
		*unit_scale = 100;
		return ratio_sfx;
	case AICC_UNIT_US:
		*unit_scale = 1000;
		return time_sfx;
	case AICC_UNIT_MS:
		*unit_scale = 1000000;
		return time_sfx;
	case AICC_UNIT_MPKT:
		*unit_scale = 1;
		return pkt_sfx;
	case AICC_UNIT_PKT:
		*unit_scale = 1000;
		return pkt_sfx;
	case AICC_UNIT_KBPS:
		*unit_scale = 1000;
		return rate_sfx;
	default:
		*unit_scale = 1;
		return NULL;
	}
}

static int parse_bool(const char *s, uint64_t *out)
{
	static const char *const yes[] = { "1", "on", "yes", "true", NULL };
	static const char *const no[] = { "0", "off", "no", "false", NULL };
	int i;

	for (i = 0; yes[i]; i++)
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
	for (i = 0; no[i]; i++)
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	return -1;
}

/*
 * Parse @s for knob @k into the knob's sysfs unit.  Returns 0, or -1 with
 * a reason in @why (without the knob name).
 */
int parse_knob_value(const struct aicc_knob_desc *k, const char *s,
		     uint64_t *out, char *why, size_t whylen)
{
	unsigned long long mant = 0, unit_scale, sfx_scale = 0;
	__uint128_t num, den = 1;
	const struct suffix *sfx, *x;
	int ndigits = 0, frac = 0;
	bool dot = false;
	const char *p = s;
	uint64_t v;

	if (!*s) {
		snprintf(why, whylen, "empty value");
		return -1;
	}
	if (k->unit == AICC_UNIT_BOOL) {
		if (parse_bool(s, &v)) {
			snprintf(why, whylen,
				 "'%s' is not a boolean (0/1, on/off, yes/no, true/false)",
				 s);
			return -1;
		}
		*out = v;
		return 0;
	}
	if (*p == '-') {
		snprintf(why, whylen, "'%s': negative values are not allowed",
			 s);
		return -1;
	}
	if (*p == '+')
		p++;
	for (; *p; p++) {
		if (isdigit((unsigned char)*p)) {
			/*
			 * Leading zeros after the point count too: each one
			 * multiplies the denominator by 10, and 10^39 and up
			 * no longer fit its 128 bits.
			 */
			if (ndigits >= 18 || frac >= 18) {
				snprintf(why, whylen, "'%s' has too many digits",
					 s);
				return -1;
			}
			mant = mant * 10 + (unsigned int)(*p - '0');
			if (mant)
				ndigits++;
			if (dot)
				frac++;
		} else if (*p == '.' && !dot) {
			dot = true;
		} else {
			break;
		}
	}
	if (p == s || (dot && p == s + 1) || !isdigit((unsigned char)p[-1])) {
		snprintf(why, whylen, "'%s' is not a number", s);
		return -1;
	}

	sfx = unit_suffixes(k->unit, &unit_scale);
	if (*p) {
		for (x = sfx; x && x->name; x++)
			if (!strcasecmp(p, x->name))
				break;
		if (!x || !x->name) {
			if (k->unit == AICC_UNIT_KBPS &&
			    strlen(p) > 3 && !strcasecmp(p + strlen(p) - 3, "bps"))
				snprintf(why, whylen,
					 "'%s': ambiguous unit '%s', write bit, kbit, mbit, gbit or tbit",
					 s, p);
			else
				snprintf(why, whylen,
					 "'%s': unknown unit '%s' for a %s knob",
					 s, p, unit_name(k->unit));
			return -1;
		}
		sfx_scale = x->scale;
	} else if (dot) {
		/* A bare decimal: a ratio for permille knobs, else unclear. */
		if (k->unit != AICC_UNIT_PERMILLE) {
			snprintf(why, whylen,
				 "'%s': a fraction needs a unit (the knob's unit is %s)",
				 s, unit_name(k->unit));
			return -1;
		}
		sfx_scale = 100000;
	} else {
		sfx_scale = unit_scale;		/* raw, in the sysfs unit */
	}

	num = (__uint128_t)mant * sfx_scale;
	while (frac--)
		den *= 10;
	den *= unit_scale;
	if (num % den) {
		snprintf(why, whylen, "'%s' is not a whole number of %s", s,
			 unit_name(k->unit));
		return -1;
	}
	num /= den;
	if (unchecked() && num <= 0xffffffffffffffffULL) {
		*out = (uint64_t)num;
		return 0;
	}
	if (num < k->min || num > k->max) {
		char lo[32], hi[32];

		format_human(k->unit, k->min, lo, sizeof(lo));
		format_human(k->unit, k->max, hi, sizeof(hi));
		if (num > 0xffffffffffffffffULL)
			snprintf(why, whylen, "'%s' is out of range [%s, %s]",
				 s, lo, hi);
		else
			snprintf(why, whylen,
				 "%s = %llu %s is out of range [%llu, %llu] (%s .. %s)%s",
				 s, (unsigned long long)num, unit_name(k->unit),
				 (unsigned long long)k->min,
				 (unsigned long long)k->max, lo, hi,
				 (k->unit == AICC_UNIT_PERMILLE && !dot && !*p &&
				  num * 1000 >= k->min && num * 1000 <= k->max) ?
				 "; a bare integer is in permille, write e.g. 1.0 for a ratio" :
				 "");
		return -1;
	}
	*out = (uint64_t)num;
	return 0;
}

/* v / div with up to @digits decimals, trailing zeros removed. */
static void fmt_fixed(char *buf, size_t len, uint64_t v, uint64_t div,
		      int digits, const char *suffix)
{
	unsigned long long ip = v / div, fp = v % div;
	char frac[24];
	int n;

	if (!fp || digits == 0) {
		snprintf(buf, len, "%llu%s", ip, suffix);
		return;
	}
	n = snprintf(frac, sizeof(frac), "%0*llu", digits, fp);
	while (n > 0 && frac[n - 1] == '0')
		frac[--n] = '\0';
	snprintf(buf, len, "%llu.%s%s", ip, frac, suffix);
}

static int ndigits(uint64_t div)
{
	int n = 0;

	while (div > 1) {
		div /= 10;
		n++;
	}
	return n;
}

void format_us(uint64_t us, char *buf, size_t len)
{
	if (us >= 1000000)
		fmt_fixed(buf, len, us, 1000000, 6, "s");
	else if (us >= 1000)
		fmt_fixed(buf, len, us, 1000, 3, "ms");
	else
		snprintf(buf, len, "%lluus", (unsigned long long)us);
}

void format_rate_bps(double bps, char *buf, size_t len)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%.3ggbit", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, len, "%.3gmbit", bps / 1e6);
	else if (bps >= 1e3)
		snprintf(buf, len, "%.3gkbit", bps / 1e3);
	else
		snprintf(buf, len, "%.0fbit", bps);
}

/* The value in the unit a person would use; parse_knob_value() reads it. */
void format_human(enum aicc_unit u, uint64_t v, char *buf, size_t len)
{
	static const uint64_t rdiv[] = { 1000000000, 1000000, 1000 };
	static const char *const rname[] = { "tbit", "gbit", "mbit" };
	int i;

	switch (u) {
	case AICC_UNIT_PERMILLE:
		fmt_fixed(buf, len, v, 1000, 3, "");
		if (!strchr(buf, '.'))
			strncat(buf, ".0", len - strlen(buf) - 1);
		break;
	case AICC_UNIT_US:
		format_us(v, buf, len);
		break;
	case AICC_UNIT_MS:
		if (v >= 1000)
			fmt_fixed(buf, len, v, 1000, 3, "s");
		else
			snprintf(buf, len, "%llums", (unsigned long long)v);
		break;
	case AICC_UNIT_MPKT:
		fmt_fixed(buf, len, v, 1000, 3, "pkt");
		break;
	case AICC_UNIT_PKT:
		snprintf(buf, len, "%llupkt", (unsigned long long)v);
		break;
	case AICC_UNIT_KBPS:
		if (!v) {
			snprintf(buf, len, "0");
			break;
		}
		for (i = 0; i < 3; i++) {
			if (v >= rdiv[i]) {
				fmt_fixed(buf, len, v, rdiv[i], ndigits(rdiv[i]),
					  rname[i]);
				return;
			}
		}
		snprintf(buf, len, "%llukbit", (unsigned long long)v);
		break;
	case AICC_UNIT_BOOL:
		snprintf(buf, len, "%s", v ? "on" : "off");
		break;
	default:
		snprintf(buf, len, "%llu", (unsigned long long)v);
		break;
	}
}
