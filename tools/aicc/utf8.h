/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UTF-8 checking for the JSON writers of the aicc tool (tools/aicc/json.c)
 * and aiccgen (tools/aiccgen/util.c).  JSON text must be UTF-8, and some of
 * what they print comes from outside (file and interface names, the
 * module's texts, host names, a peer's congestion control name).  Valid
 * UTF-8 passes through; each ill-formed part is replaced by U+FFFD (the
 * escape \ufffd), one per maximal subpart as Unicode recommends and
 * Python's decoder does: a stray byte, a sequence cut short, an overlong
 * form, a surrogate, a code point past U+10FFFF.  The raw bytes are not
 * kept (an escape \u00XX would read as a different, valid character).
 *
 * utf8_len() returns the length of the valid sequence at s (1 to 4), or
 * minus the length of the maximal subpart of an ill-formed one.  A NUL
 * ends any sequence, so it never reads past the string.
 */
#ifndef _AICC_UTF8_H
#define _AICC_UTF8_H

#include <stdio.h>

static inline int utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return -1;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (s[0] == 0xe0)
		lo = 0xa0;	/* no overlong 3-byte form */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* no surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* no overlong 4-byte form */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* nothing past U+10FFFF */
	for (i = 1; i < n; i++) {
		if (s[i] < lo || s[i] > hi)
			return -i;
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

/*
 * Write the sequence at s (its first byte 0x80 or above) to f as it is,
 * or \ufffd for an ill-formed part; returns the bytes it took.
 */
static inline int utf8_put(FILE *f, const unsigned char *s)
{
	int n = utf8_len(s);

	if (n > 0) {
		fwrite(s, 1, n, f);
		return n;
	}
	fputs("\\ufffd", f);
	return -n;
}

#endif /* _AICC_UTF8_H */
