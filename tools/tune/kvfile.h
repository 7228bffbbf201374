/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KEY = VALUE files and aicc profile files (kvfile.c): read by aicc-tune,
 * aicc-train and aicc-sim --profile-file, with the module's knob checks.
 */
#ifndef _AICC_KVFILE_H
#define _AICC_KVFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "aicc_core.h"

/* s without leading and trailing white space (in place) */
char *tune_trim(char *s);
/*
 * One line of a "KEY = VALUE" file, '#' starting a comment: 0 for a blank
 * line, 1 with key and val trimmed (in place), -1 if there is no '='.
 */
int tune_kv_line(char *line, char **key, char **val);
/* Where tune_kv_file() is: the file, the line, the caller's message buffer */
struct tune_kv_pos {
	const char *file;
	int ln;
	char *why;
	size_t len;
};

/*
 * Hands each KEY = VALUE line of @file to @fn with @ctx (blank lines and
 * comments skipped).  @fn returns 0 to go on, -1 after writing at->why, or
 * 1 for a syntax error, as is a line without '=': "FILE:N: expected
 * @syntax".  Returns 0, or -1 with why set (the file is closed either way).
 */
int tune_kv_file(const char *file, const char *syntax,
		 int (*fn)(void *ctx, const struct tune_kv_pos *at, char *key,
			   char *val),
		 void *ctx, char *why, size_t len);
/*
 * The value @val of knob @name on a KEY = VALUE line: a plain decimal
 * integer that the module's own @check accepts for knob @id (its range
 * is @min..@max, for the message), and *@have not yet set.  0 with *@out
 * and *@have set, or -1 with at->why naming the file, line, knob and
 * problem.
 */
int tune_kv_knob(const struct tune_kv_pos *at, const char *name,
		 const char *val, int (*check)(unsigned int id, u64 v),
		 unsigned int id, u32 min, u32 max, bool *have, u32 *out);
/* Reads a profile file; knobs[p][k] set where have[p][k]. */
int read_profile(const char *file, u32 knobs[AICC_NR_PROFILES][AICC_NR_KNOBS],
		 bool have[AICC_NR_PROFILES][AICC_NR_KNOBS], char *why,
		 size_t len);

#endif /* _AICC_KVFILE_H */
