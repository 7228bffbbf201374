/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One line of a text file, for the tools' readers of profile and knob
 * files (tools/aicc, tools/tune/kvfile.c).  fgets() stops its string at
 * a NUL byte, so a line holding one read as a line without its newline:
 * "too long", or, skipped to the newline as such, the next line with it.
 */
#ifndef _AICC_TOOLS_READ_LINE_H
#define _AICC_TOOLS_READ_LINE_H

#include <stdio.h>

/*
 * One line of the text file @f into @buf (@size bytes, the newline left
 * out), the whole line consumed whatever it holds.  LINE_EOF: none left.
 * LINE_NUL: the line has a NUL byte, at column *@col (from 1; fgets()
 * would stop the string there).  LINE_LONG: more than @size - 1
 * characters, @buf has the first ones.  A read error ends it as LINE_EOF
 * would; ferror(@f) tells.
 */
enum { LINE_OK, LINE_EOF, LINE_NUL, LINE_LONG };

static inline int read_line(FILE *f, char *buf, size_t size, size_t *col)
{
	size_t n = 0, len = 0;
	int c;

	*col = 0;
	while ((c = getc(f)) != EOF && c != '\n') {
		len++;
		if (!c && !*col)
			*col = len;
		if (n + 1 < size)
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
	if (c == EOF && !len)
		return LINE_EOF;
	if (*col)
		return LINE_NUL;
	return len > n ? LINE_LONG : LINE_OK;
}

#endif
