/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A very small KTAP producer for aicc's C tests.
 *
 *   KTAP_CASE(name) { ... ktap_expect(cond, "fmt", ...); ... }
 *   int main(void) { return ktap_run(); }
 *
 * Each case prints "ok N name" or "not ok N name"; a failed expectation
 * prints a "# " diagnostic line with file, line and message.  The exit
 * status is 0 when every case passed, 1 otherwise.
 */
#ifndef _AICC_KTAP_H
#define _AICC_KTAP_H

#include <stdarg.h>
#include <stdio.h>

/*
 * The cases form a list, in the order their constructors run (the order of
 * the source): each case brings its own node, so there is no limit to
 * their number and nothing to allocate.
 */
struct ktap_case {
	const char *name;
	void (*fn)(void);
	struct ktap_case *next;
};

static struct ktap_case *ktap_cases;
static struct ktap_case **ktap_cases_tail = &ktap_cases;
static int ktap_ncases;
static int ktap_case_failed;

static void ktap_register(struct ktap_case *c)
{
	c->next = NULL;
	*ktap_cases_tail = c;
	ktap_cases_tail = &c->next;
	ktap_ncases++;
}

#define KTAP_CASE(n)							\
	static void ktap_fn_##n(void);					\
	static struct ktap_case ktap_case_##n = {			\
		.name = #n, .fn = ktap_fn_##n,				\
	};								\
	static void __attribute__((constructor)) ktap_reg_##n(void)	\
	{								\
		ktap_register(&ktap_case_##n);				\
	}								\
	static void ktap_fn_##n(void)

static void __attribute__((format(printf, 4, 5)))
ktap_check(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return;
	ktap_case_failed = 1;
	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define ktap_expect(cond, ...) \
	ktap_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

static int ktap_run(void)
{
	struct ktap_case *c;
	int i = 0, failed = 0;

	printf("TAP version 13\n1..%d\n", ktap_ncases);
	for (c = ktap_cases; c; c = c->next) {
		ktap_case_failed = 0;
		c->fn();
		printf("%sok %d %s\n", ktap_case_failed ? "not " : "", ++i,
		       c->name);
		failed += ktap_case_failed;
	}
	fflush(stdout);
	return failed ? 1 : 0;
}

#endif /* _AICC_KTAP_H */
