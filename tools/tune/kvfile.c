// SPDX-License-Identifier: GPL-2.0
/*
 * Profile files, the aicc tool's format ("profile.knob = value", '#'
 * comments), and the KEY = VALUE reader under them: shared by aicc-tune,
 * aicc-train and aicc-sim (--profile-file), with the module's own knob
 * checks.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvfile.h"
#include "../lib/read_line.h"

char *tune_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

int tune_kv_line(char *line, char **key, char **val)
{
	char *s = strchr(line, '#'), *eq;

	if (s)
		*s = 0;
	s = tune_trim(line);
	if (!*s)
		return 0;
	eq = strchr(s, '=');
	if (!eq)
		return -1;
	*eq = 0;
	*key = tune_trim(s);
	*val = tune_trim(eq + 1);
	return 1;
}

int tune_kv_file(const char *file, const char *syntax,
		 int (*fn)(void *ctx, const struct tune_kv_pos *at, char *key,
			   char *val),
		 void *ctx, char *why, size_t len)
{
	struct tune_kv_pos at = { .file = file, .why = why, .len = len };
	char line[1024];
	size_t col = 0;
	int ret = 0, r;
	FILE *f = fopen(file, "r");

	if (!f) {
		snprintf(why, len, "%s: %s", file, strerror(errno));
		return -1;
	}
	while (!ret && (r = read_line(f, line, sizeof(line), &col)) != LINE_EOF) {
		char *key, *val;

		at.ln++;
		/*
		 * A NUL byte is an error wherever it is; a line longer than
		 * the buffer only when it is no comment (a run's header
		 * line carries its command line).
		 */
		if (r == LINE_NUL) {
			ret = 3;
			break;
		}
		if (r == LINE_LONG && *tune_trim(line) != '#') {
			ret = 2;
			break;
		}
		ret = tune_kv_line(line, &key, &val);
		ret = ret < 0 ? 1 : ret ? fn(ctx, &at, key, val) : 0;
	}
	if (ret == 3)
		snprintf(why, len, "%s:%d: NUL byte at column %zu", file, at.ln,
			 col);
	else if (ret == 2)
		snprintf(why, len, "%s:%d: line longer than %zu characters",
			 file, at.ln, sizeof(line) - 1);
	else if (ret > 0)
		snprintf(why, len, "%s:%d: expected %s", file, at.ln, syntax);
	else if (!ret && ferror(f))
		snprintf(why, len, "%s: read error", file);
	ret = ret || ferror(f) ? -1 : 0;
	fclose(f);
	return ret;
}

struct profile_ctx {
	u32 (*knobs)[AICC_NR_KNOBS];
	bool (*have)[AICC_NR_KNOBS];
};

int tune_kv_knob(const struct tune_kv_pos *at, const char *name,
		 const char *val, int (*check)(unsigned int id, u64 v),
		 unsigned int id, u32 min, u32 max, bool *have, u32 *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(val, &end, 10);
	if (!isdigit((unsigned char)*val) || *end || errno) {
		snprintf(at->why, at->len, "%s:%d: %s: '%s' is not a plain integer",
			 at->file, at->ln, name, val);
		return -1;
	}
	if (check(id, v)) {
		snprintf(at->why, at->len, "%s:%d: %s = %llu outside %u..%u",
			 at->file, at->ln, name, v, min, max);
		return -1;
	}
	if (*have) {
		snprintf(at->why, at->len, "%s:%d: %s set twice", at->file,
			 at->ln, name);
		return -1;
	}
	*out = (u32)v;
	*have = true;
	return 0;
}

/* One PROFILE.KNOB = VALUE line of read_profile(). */
static int profile_line(void *ctx, const struct tune_kv_pos *at, char *name,
			char *val)
{
	struct profile_ctx *pc = ctx;
	char *dot = strchr(name, '.');
	int p, k;

	if (!dot)
		return 1;
	*dot = 0;
	if (!strcmp(name, "global"))
		return 0;	/* the tool's global knobs: not ours */
	for (p = 0; p < AICC_NR_PROFILES; p++)
		if (!strcmp(name, aicc_profile_desc[p].name))
			break;
	for (k = 0; k < AICC_NR_KNOBS; k++)
		if (!strcmp(dot + 1, aicc_knob_desc[k].name))
			break;
	if (p == AICC_NR_PROFILES || k == AICC_NR_KNOBS) {
		snprintf(at->why, at->len, "%s:%d: unknown knob %s.%s",
			 at->file, at->ln, name, dot + 1);
		return -1;
	}
	*dot = '.';
	return tune_kv_knob(at, name, val, aicc_knob_check, (unsigned int)k,
			    aicc_knob_desc[k].min, aicc_knob_desc[k].max,
			    &pc->have[p][k], &pc->knobs[p][k]);
}

int read_profile(const char *file, u32 knobs[AICC_NR_PROFILES][AICC_NR_KNOBS],
		 bool have[AICC_NR_PROFILES][AICC_NR_KNOBS], char *why,
		 size_t len)
{
	struct profile_ctx pc = { knobs, have };

	return tune_kv_file(file, "PROFILE.KNOB = VALUE", profile_line, &pc,
			    why, len);
}
