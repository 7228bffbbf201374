// SPDX-License-Identifier: GPL-2.0
/*
 * aicc(8): a minimal streaming JSON writer to stdout.
 *
 * Callers open and close objects and arrays and emit members; the writer
 * takes care of commas, string escaping and (with -p) indentation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aicc_tool.h"
#include "utf8.h"

#define JSON_MAX_DEPTH	32

static int depth;
static bool first[JSON_MAX_DEPTH] = { true };

static void indent(void)
{
	int i;

	if (!opt_pretty)
		return;
	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("  ", stdout);
}

static void put_string(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x80) {
			p += utf8_put(stdout, p) - 1;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		case '\r':
			fputs("\\r", stdout);
			break;
		default:
			if (*p < 0x20)
				printf("\\u%04x", *p);
			else
				putchar(*p);
		}
	}
	putchar('"');
}

/* Comma, indentation and "key": before a value. */
static void member(const char *key)
{
	if (depth > 0) {
		if (!first[depth])
			putchar(',');
		first[depth] = false;
		indent();
	}
	if (key) {
		put_string(key);
		putchar(':');
		if (opt_pretty)
			putchar(' ');
	}
}

void json_open_obj(const char *key)
{
	member(key);
	putchar('{');
	if (depth < JSON_MAX_DEPTH - 1)
		depth++;
	first[depth] = true;
}

void json_close_obj(void)
{
	bool empty = first[depth];

	if (depth > 0)
		depth--;
	if (!empty)
		indent();
	putchar('}');
}

void json_open_arr(const char *key)
{
	member(key);
	putchar('[');
	if (depth < JSON_MAX_DEPTH - 1)
		depth++;
	first[depth] = true;
}

void json_close_arr(void)
{
	bool empty = first[depth];

	if (depth > 0)
		depth--;
	if (!empty)
		indent();
	putchar(']');
}

void json_str(const char *key, const char *val)
{
	member(key);
	if (val)
		put_string(val);
	else
		fputs("null", stdout);
}

void json_u64(const char *key, uint64_t v)
{
	member(key);
	printf("%llu", (unsigned long long)v);
}

void json_s64(const char *key, int64_t v)
{
	member(key);
	printf("%lld", (long long)v);
}

void json_double(const char *key, double v)
{
	member(key);
	if (isfinite(v))
		printf("%.6g", v);
	else
		fputs("null", stdout);
}

void json_bool(const char *key, bool v)
{
	member(key);
	fputs(v ? "true" : "false", stdout);
}

void json_null(const char *key)
{
	member(key);
	fputs("null", stdout);
}

void json_end(void)
{
	putchar('\n');
	depth = 0;
	first[0] = true;
}
