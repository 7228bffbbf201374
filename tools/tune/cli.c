// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line helpers shared by aicc-tune and aicc-train: fatal errors
 * and output that goes to stdout and to the run's log.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tune.h"

const char *tune_prog = "aicc-tune";
FILE *tune_log;

void tune_die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", tune_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(code);
}

void tune_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (tune_log) {
		va_start(ap, fmt);
		vfprintf(tune_log, fmt, ap);
		va_end(ap);
		fflush(tune_log);
	}
	fflush(stdout);
}
