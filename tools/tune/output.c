// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-tune: profile files (the aicc tool's format: "profile.knob = value",
 * '#' comments), a defaults header laid out like module/core/aicc_defaults.h,
 * and the comparison table.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune.h"

int tune_finish(FILE *f, const char *tmp, const char *file, char *why,
		  size_t len)
{
	int bad = ferror(f);

	if (fclose(f) || bad) {
		snprintf(why, len, "%s: write error", tmp);
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, file)) {
		snprintf(why, len, "%s: %s", file, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

FILE *tune_open_tmp(const char *file, char *tmp, size_t tlen,
		    const char *header, char *why, size_t len)
{
	FILE *f;

	if ((size_t)snprintf(tmp, tlen, "%s.tmp%d", file, (int)getpid()) >= tlen) {
		snprintf(why, len, "%s: name too long", file);
		return NULL;
	}
	f = fopen(tmp, "w");
	if (!f)
		snprintf(why, len, "%s: %s", tmp, strerror(errno));
	else if (header)
		fputs(header, f);
	return f;
}

int tune_write_knobs(const char *file, const char *header, const char *prefix,
		     int n, const char *const *name, const u32 *val,
		     const char *const *desc, int width, char *why, size_t len)
{
	char tmp[4200], lhs[96];
	FILE *f = tune_open_tmp(file, tmp, sizeof(tmp), header, why, len);
	int i;

	if (!f)
		return -1;
	for (i = 0; i < n; i++) {
		snprintf(lhs, sizeof(lhs), "%s%s = %u", prefix, name[i], val[i]);
		fprintf(f, "%-*s # %s\n", width, lhs, desc[i]);
	}
	return tune_finish(f, tmp, file, why, len);
}

int write_profile(const char *file, int profile,
		  const u32 knobs[AICC_NR_KNOBS], const char *header,
		  char *why, size_t len)
{
	const char *name[AICC_NR_KNOBS], *desc[AICC_NR_KNOBS];
	char prefix[40];
	int i;

	if (knobs_valid(knobs, why, len))
		return -1;
	for (i = 0; i < AICC_NR_KNOBS; i++) {
		name[i] = aicc_knob_desc[i].name;
		desc[i] = aicc_knob_desc[i].desc;
	}
	snprintf(prefix, sizeof(prefix), "%s.", aicc_profile_desc[profile].name);
	return tune_write_knobs(file, header, prefix, AICC_NR_KNOBS, name, knobs,
				desc, 36, why, len);
}

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
	int ret = 0;
	FILE *f = fopen(file, "r");

	if (!f) {
		snprintf(why, len, "%s: %s", file, strerror(errno));
		return -1;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		char *key, *val;

		at.ln++;
		ret = tune_kv_line(line, &key, &val);
		ret = ret < 0 ? 1 : ret ? fn(ctx, &at, key, val) : 0;
	}
	if (ret > 0)
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

static const char *const prof_enum[AICC_NR_PROFILES] = {
	"AICC_PROF_COLL", "AICC_PROF_LAT", "AICC_PROF_BULK",
};

int write_defaults_h(const char *file,
		     const u32 knobs[AICC_NR_PROFILES][AICC_NR_KNOBS],
		     const char *source, char *why, size_t len)
{
	char tmp[4200];
	FILE *f;
	int p, i;

	for (p = 0; p < AICC_NR_PROFILES; p++)
		if (knobs_valid(knobs[p], why, len))
			return -1;
	f = tune_open_tmp(file, tmp, sizeof(tmp), NULL, why, len);
	if (!f)
		return -1;
	fprintf(f, "/* SPDX-License-Identifier: GPL-2.0 */\n/*\n"
		" * Shipped default knob values per profile, in the units of uapi/aicc.h.\n"
		" *\n * Order follows AICC_KNOBS:");
	for (i = 0; i < AICC_NR_KNOBS; i++) {
		const char *n = aicc_knob_desc[i].name;

		fprintf(f, "%s%s%s", i % 5 == 4 ? "\n *" : "", " ", n);
		fputc(i == AICC_NR_KNOBS - 1 ? '.' : ',', f);
	}
	fprintf(f, "\n *\n * Written by aicc-tune (make tune, tools/tune/); see\n"
		" * Documentation/tuning.rst and tools/tune/results/.\n */\n"
		"#ifndef _AICC_DEFAULTS_H\n#define _AICC_DEFAULTS_H\n\n"
		"#define AICC_DEFAULTS_SOURCE\t\"%s\"\n\n"
		"static const u32 aicc_default_knobs[AICC_NR_PROFILES][AICC_NR_KNOBS] = {\n",
		source);
	for (p = 0; p < AICC_NR_PROFILES; p++) {
		int col = 16;

		fprintf(f, "\t[%s] = {\n\t\t", prof_enum[p]);
		for (i = 0; i < AICC_NR_KNOBS; i++) {
			char num[16];
			int w = snprintf(num, sizeof(num), "%u,", knobs[p][i]);

			if (col + w + 1 > 80) {
				fprintf(f, "\n\t\t");
				col = 16;
			} else if (col > 16) {
				fputc(' ', f);
				col++;
			}
			fputs(num, f);
			col += w;
		}
		fprintf(f, "\n\t},\n");
	}
	fprintf(f, "};\n\n#endif /* _AICC_DEFAULTS_H */\n");
	return tune_finish(f, tmp, file, why, len);
}

void print_scores(FILE *f, const char *title, int nc, const char *const *name,
		  const double *w, int n, const char *const *label,
		  const double v[][TUNE_MAX_CASES + 1])
{
	int i, j;

	if (n > TUNE_MAX_LABELS)
		n = TUNE_MAX_LABELS;
	fprintf(f, "%-34s %5s", title, "w");
	for (j = 0; j < n; j++)
		fprintf(f, " %9s", label[j]);
	for (i = 0; i <= nc; i++) {
		if (i < nc)
			fprintf(f, "\n%-34s %5.2g", name[i], w[i]);
		else
			fprintf(f, "\n%-34s %5s", "weighted mean", "");
		for (j = 0; j < n; j++)
			fprintf(f, " %9.3f", v[j][i]);
	}
	fprintf(f, "\n");
}

/* ev[n]: evaluations of one set under n labelled controllers/knobs. */
void print_table(FILE *f, const struct tune_set *set,
		 const struct tune_eval *ev, const char *const *label, int n)
{
	const char *name[TUNE_MAX_CASES];
	double w[TUNE_MAX_CASES], v[TUNE_MAX_LABELS][TUNE_MAX_CASES + 1];
	int i, j;

	for (i = 0; i < set->n; i++) {
		name[i] = set->c[i].name;
		w[i] = set->c[i].weight;
		for (j = 0; j < n && j < TUNE_MAX_LABELS; j++)
			v[j][i] = ev[j].cobj[i];
	}
	for (j = 0; j < n && j < TUNE_MAX_LABELS; j++)
		v[j][set->n] = ev[j].obj;
	print_scores(f, "case (objective, lower is better)", set->n, name, w,
		     n, label, v);
	fprintf(f, "\nper case and controller: util, p99 queue (start: "
		"peak) / base RTT, slow (log slowdown or CCT/ideal), Jain, "
		"drops, RTOs\n");
	for (i = 0; i < set->n; i++) {
		fprintf(f, "  %s\n", set->c[i].name);
		for (j = 0; j < n; j++) {
			char jain[16];

			if (isnan(ev[j].term[i][TT_QUEUE])) {
				fprintf(f, "    %-8s  (run failed)\n", label[j]);
				continue;
			}
			if (ev[j].jain[i] >= 0)
				snprintf(jain, sizeof(jain), "%.3f",
					 ev[j].jain[i]);
			else
				snprintf(jain, sizeof(jain), "-");
			/* the start case's queue term is the peak */
			fprintf(f, "    %-8s  util %.3f  %s %6.2f RTT  slow %.3f"
				"  jain %-5s  drops %llu  rtos %llu\n",
				label[j], ev[j].util[i],
				set->c[i].kind == TK_START ? "qmax" : "q99",
				ev[j].q99_rtt[i],
				ev[j].slow[i], jain,
				(unsigned long long)ev[j].drops[i],
				(unsigned long long)ev[j].rtos[i]);
		}
	}
}
