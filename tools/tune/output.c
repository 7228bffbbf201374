// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-tune: writing profile files (the aicc tool's format: "profile.knob =
 * value"; kvfile.c reads them), a defaults header laid out like
 * module/core/aicc_defaults.h, and the comparison table.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

/* FILE.tmpPID into @tmp; -1 with why set if it does not fit */
static int tmp_name(const char *file, char *tmp, size_t tlen, char *why,
		    size_t len)
{
	if ((size_t)snprintf(tmp, tlen, "%s.tmp%d", file, (int)getpid()) >= tlen) {
		snprintf(why, len, "%s: name too long", file);
		return -1;
	}
	return 0;
}

FILE *tune_open_tmp(const char *file, char *tmp, size_t tlen,
		    const char *header, char *why, size_t len)
{
	FILE *f;

	if (tmp_name(file, tmp, tlen, why, len))
		return NULL;
	f = fopen(tmp, "w");
	if (!f)
		snprintf(why, len, "%s: %s", tmp, strerror(errno));
	else if (header)
		fputs(header, f);
	return f;
}

int tune_probe_out(const char *file, char *why, size_t len)
{
	char tmp[4200];
	struct stat st;
	FILE *f;

	if (!stat(file, &st) && S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s: is a directory", file);
		return -1;
	}
	if (tmp_name(file, tmp, sizeof(tmp), why, len))
		return -1;
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, len, "%s: cannot be written: %s", file,
			 strerror(errno));
		return -1;
	}
	fclose(f);
	unlink(tmp);
	return 0;
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
