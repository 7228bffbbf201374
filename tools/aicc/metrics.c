// SPDX-License-Identifier: GPL-2.0
/*
 * aicc(8): 'metrics' (Prometheus text exposition format, for
 * node_exporter's textfile collector) and 'watch' (a refreshing view with
 * per-profile rates computed from counter deltas).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aicc_tool.h"

/* ---- metrics ---- */

static void family(const char *name, const char *type, const char *help)
{
	printf("# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void label_escaped(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			putchar('\\');
		if (*s == '\n') {
			fputs("\\n", stdout);
			continue;
		}
		putchar(*s);
	}
}

/* "flows_total" stays, "rounds" becomes "rounds_total". */
static void counter_name(char *buf, size_t len, const char *stat)
{
	size_t n = strlen(stat);

	if (n > 6 && !strcmp(stat + n - 6, "_total"))
		snprintf(buf, len, "aicc_%s", stat);
	else
		snprintf(buf, len, "aicc_%s_total", stat);
}

struct flow_sum {
	unsigned int n, with_info;
	double rtt_sum, rtt_max, qd_sum, qd_max, cwnd_sum, pacing_sum;
	unsigned long long retrans;
	unsigned int modes[4];
};

static void summarise(const struct flow *fl, size_t n,
		      struct flow_sum sum[AICC_NR_PROFILES])
{
	size_t i;

	memset(sum, 0, sizeof(*sum) * AICC_NR_PROFILES);
	for (i = 0; i < n; i++) {
		const struct flow *f = &fl[i];
		struct flow_sum *s;
		double rtt;

		if (f->profile < 0)
			continue;
		s = &sum[f->profile];
		s->n++;
		if (f->have_tcpi) {
			rtt = f->tcpi.tcpi_rtt / 1e6;
			s->rtt_sum += rtt;
			if (rtt > s->rtt_max)
				s->rtt_max = rtt;
			s->cwnd_sum += f->tcpi.tcpi_snd_cwnd;
			if (f->tcpi.tcpi_pacing_rate != ~0ULL)
				s->pacing_sum += f->tcpi.tcpi_pacing_rate * 8.0;
			s->retrans += f->tcpi.tcpi_total_retrans;
		}
		if (f->have_aicc) {
			double qd = f->ai.aicc_qdelay_us / 1e6;

			s->with_info++;
			s->qd_sum += qd;
			if (qd > s->qd_max)
				s->qd_max = qd;
			if (f->ai.aicc_mode < 4)
				s->modes[f->ai.aicc_mode]++;
		}
	}
}

static void sum_line(const char *name, int p, double v)
{
	printf("%s{profile=\"%s\"} %.9g\n", name, profile_table[p].name, v);
}

int cmd_metrics(int argc, char **argv)
{
	struct flow_sum sum[AICC_NR_PROFILES];
	struct flow_filter ff;
	struct flow *fl = NULL;
	char name[96], path[512], ver[64];
	size_t nfl = 0;
	uint64_t v;
	int p, i, ret;
	static const char *const gname[3] = {
		AICC_G_RATE_MEMORY, AICC_G_RATE_MEMORY_ENTRIES,
		AICC_G_RATE_MEMORY_USED
	};
	static const char *const ghelp[3] = {
		"1 if per-peer rates are remembered",
		"size of the per-peer rate cache",
		"entries of the rate cache holding a fresh rate",
	};

	if (argc > 1) {
		if (is_help(argv[1])) {
			printf("Usage: aicc metrics\n"
			       "  Counters, knobs and flow summaries in the Prometheus text\n"
			       "  exposition format, e.g. for node_exporter's textfile\n"
			       "  collector:  aicc metrics > DIR/aicc.prom.$$ && mv DIR/aicc.prom.$$ DIR/aicc.prom\n"
			       "  Without the module it prints aicc_up 0 and exits 0.\n");
			return 0;
		}
		err("metrics: unexpected argument '%s'", argv[1]);
		return EXIT_USAGE;
	}

	family("aicc_up", "gauge", "1 if the aicc module is loaded, else 0");
	if (!profile_present(-1)) {
		printf("aicc_up 0\n");
		return 0;
	}
	printf("aicc_up 1\n");
	snprintf(path, sizeof(path), "%s/%s", sysfs_root(), AICC_G_VERSION);
	if (read_text_file(path, ver, sizeof(ver)))
		snprintf(ver, sizeof(ver), "unknown");
	family("aicc_info", "gauge", "aicc module version, always 1");
	printf("aicc_info{version=\"");
	label_escaped(ver);
	printf("\"} 1\n");

	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", sysfs_root(), gname[i]);
		if (read_u64_file(path, &v))
			continue;
		snprintf(name, sizeof(name), "aicc_%s", gname[i]);
		family(name, "gauge", ghelp[i]);
		printf("%s %llu\n", name, (unsigned long long)v);
	}

	for (i = 0; i < AICC_NR_STATS; i++) {
		bool gauge = i == AICC_S_FLOWS;

		if (gauge)
			snprintf(name, sizeof(name), "aicc_%s",
				 stat_table[i].name);
		else
			counter_name(name, sizeof(name), stat_table[i].name);
		family(name, gauge ? "gauge" : "counter", stat_table[i].desc);
		for (p = 0; p < AICC_NR_PROFILES; p++) {
			if (!profile_present(p) || read_stat(p, i, &v))
				continue;
			printf("%s{profile=\"%s\"} %llu\n", name,
			       profile_table[p].name, (unsigned long long)v);
		}
	}

	for (i = 0; i < AICC_NR_KNOBS; i++) {
		char help[256];

		snprintf(name, sizeof(name), "aicc_knob_%s", knob_table[i].name);
		snprintf(help, sizeof(help), "knob: %s (%s)", knob_table[i].desc,
			 unit_name(knob_table[i].unit));
		family(name, "gauge", help);
		for (p = 0; p < AICC_NR_PROFILES; p++) {
			if (!profile_present(p) || read_knob(p, i, &v))
				continue;
			printf("%s{profile=\"%s\"} %llu\n", name,
			       profile_table[p].name, (unsigned long long)v);
		}
	}

	flow_filter_init(&ff);
	ret = flows_collect(&ff, &fl, &nfl);
	if (ret) {
		printf("# flow summaries unavailable: sock_diag: %s\n",
		       strerror(-ret));
		return 0;
	}
	summarise(fl, nfl, sum);
	free(fl);

	family("aicc_sockets", "gauge",
	       "TCP sockets using the profile, as seen by sock_diag");
	for (p = 0; p < AICC_NR_PROFILES; p++)
		sum_line("aicc_sockets", p, sum[p].n);
	family("aicc_socket_rtt_seconds_avg", "gauge",
	       "mean smoothed RTT of the profile's sockets");
	for (p = 0; p < AICC_NR_PROFILES; p++)
		if (sum[p].n)
			sum_line("aicc_socket_rtt_seconds_avg", p,
				 sum[p].rtt_sum / sum[p].n);
	family("aicc_socket_rtt_seconds_max", "gauge",
	       "largest smoothed RTT of the profile's sockets");
	for (p = 0; p < AICC_NR_PROFILES; p++)
		if (sum[p].n)
			sum_line("aicc_socket_rtt_seconds_max", p,
				 sum[p].rtt_max);
	family("aicc_socket_queue_delay_seconds_avg", "gauge",
	       "mean queueing delay of the last round, from aicc_info");
	for (p = 0; p < AICC_NR_PROFILES; p++)
		if (sum[p].with_info)
			sum_line("aicc_socket_queue_delay_seconds_avg", p,
				 sum[p].qd_sum / sum[p].with_info);
	family("aicc_socket_queue_delay_seconds_max", "gauge",
	       "largest queueing delay of the last round, from aicc_info");
	for (p = 0; p < AICC_NR_PROFILES; p++)
		if (sum[p].with_info)
			sum_line("aicc_socket_queue_delay_seconds_max", p,
				 sum[p].qd_max);
	family("aicc_socket_cwnd_packets_avg", "gauge",
	       "mean congestion window in packets");
	for (p = 0; p < AICC_NR_PROFILES; p++)
		if (sum[p].n)
			sum_line("aicc_socket_cwnd_packets_avg", p,
				 sum[p].cwnd_sum / sum[p].n);
	family("aicc_socket_pacing_rate_bits_per_second", "gauge",
	       "sum of the pacing rates of the profile's sockets");
	for (p = 0; p < AICC_NR_PROFILES; p++)
		sum_line("aicc_socket_pacing_rate_bits_per_second", p,
			 sum[p].pacing_sum);
	family("aicc_socket_retransmits", "gauge",
	       "retransmissions summed over the profile's open sockets");
	for (p = 0; p < AICC_NR_PROFILES; p++)
		sum_line("aicc_socket_retransmits", p, (double)sum[p].retrans);
	family("aicc_socket_mode", "gauge",
	       "sockets of the profile per controller mode");
	for (p = 0; p < AICC_NR_PROFILES; p++)
		for (i = 0; i < 4; i++)
			printf("aicc_socket_mode{profile=\"%s\",mode=\"%s\"} %u\n",
			       profile_table[p].name, mode_name(i),
			       sum[p].modes[i]);
	return 0;
}

/* ---- watch ---- */

/*
 * Per-second rate; NAN if the counter went backwards (module reloaded).
 * watch prints a NAN, like a rate without a previous value, as null in
 * JSON and "-" in text.
 */
static double rate(uint64_t cur, uint64_t prev, double dt)
{
	return cur >= prev ? (double)(cur - prev) / dt : NAN;
}

static void watch_usage(FILE *f)
{
	fprintf(f,
		"Usage: aicc [-j] watch [-i SECONDS] [-n COUNT] [FLOW FILTERS]\n"
		"  Every SECONDS (default 1, 0.05 to 86400) print per-profile\n"
		"  counters with their rates per second since the last refresh,\n"
		"  then the flows (same filters as 'aicc flows').  COUNT (a positive\n"
		"  integer) refreshes, default until ^C.\n"
		"  With -j, one JSON object per refresh, one per line.\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The refresh interval's limits: below 0.05 s watch would spin reading
 * sysfs and sock_diag; above a day it is not watching.
 */
#define WATCH_MIN_INTERVAL	0.05
#define WATCH_MAX_INTERVAL	86400

/* -i SECONDS; -1 after the error message. */
static int parse_interval(const char *s, double *out)
{
	/* a decimal number: strtod() would take hex, "inf", space, a sign */
	bool dec = s[strspn(s, "0123456789.")] == '\0';
	char *end;
	double d;

	errno = 0;
	d = dec ? strtod(s, &end) : 0;
	if (!dec || errno || *end || end == s || !(d >= WATCH_MIN_INTERVAL) ||
	    d > WATCH_MAX_INTERVAL) {
		err("watch: interval '%s' is not a number of seconds in [%g, %d]",
		    s, WATCH_MIN_INTERVAL, WATCH_MAX_INTERVAL);
		return -1;
	}
	*out = d;
	return 0;
}

/* -n COUNT: decimal digits only, 1 to LONG_MAX; -1 after the message. */
static int parse_count(const char *s, long *out)
{
	char *end;
	long n = 0;

	errno = 0;
	if (*s >= '0' && *s <= '9')
		n = strtol(s, &end, 10);
	if (n < 1 || errno || *end) {
		err("watch: count '%s' is not a positive integer", s);
		return -1;
	}
	*out = n;
	return 0;
}

int cmd_watch(int argc, char **argv)
{
	/*
	 * have[][]: cur[][] holds this refresh's value of the counter;
	 * had[][]: prev[][] holds the previous refresh's.  A rate needs both.
	 */
	uint64_t prev[AICC_NR_PROFILES][AICC_NR_STATS] = { { 0 } };
	uint64_t cur[AICC_NR_PROFILES][AICC_NR_STATS];
	bool have[AICC_NR_PROFILES][AICC_NR_STATS];
	bool had[AICC_NR_PROFILES][AICC_NR_STATS] = { { false } };
	struct flow_filter ff;
	double interval = 1, t_prev = 0;
	long count = -1, iter;
	bool tty = isatty(STDOUT_FILENO);
	int i, p, s, ret;

	flow_filter_init(&ff);
	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			watch_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-i") || !strcmp(argv[i], "-n")) {
			if (i + 1 >= argc) {
				err("watch: '%s' needs a value", argv[i]);
				return EXIT_USAGE;
			}
			if (argv[i][1] == 'i' ?
			    parse_interval(argv[i + 1], &interval) :
			    parse_count(argv[i + 1], &count))
				return EXIT_USAGE;
			i++;
		} else {
			ret = parse_flow_filter(&ff, argc, argv, &i);
			if (ret < 0)
				return EXIT_USAGE;
			if (ret > 0) {
				err("watch: unknown argument '%s' (try 'aicc watch -h')",
				    argv[i]);
				return EXIT_USAGE;
			}
		}
	}
	if (require_module())
		return 1;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	for (iter = 0; count < 0 || iter < count; iter++) {
		struct flow *fl = NULL;
		size_t nfl = 0;
		double t = now_s(), dt = t - t_prev;
		bool rates = iter > 0 && dt > 0;
		time_t wall = time(NULL);
		char when[32];

		if (iter > 0) {
			struct timespec ts;
			double left = interval - (now_s() - t_prev);

			if (left > 0) {
				ts.tv_sec = (time_t)left;
				ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
				nanosleep(&ts, NULL);
			}
			t = now_s();
			dt = t - t_prev;
			wall = time(NULL);
		}
		if (!profile_present(-1)) {
			err("aicc module not loaded (it went away)");
			return 1;
		}
		for (p = 0; p < AICC_NR_PROFILES; p++) {
			for (s = 0; s < AICC_NR_STATS; s++) {
				have[p][s] = profile_present(p) &&
					     !read_stat(p, s, &cur[p][s]);
				if (!have[p][s])
					cur[p][s] = 0;
			}
		}
		ret = flows_collect(&ff, &fl, &nfl);
		if (ret) {
			err("watch: sock_diag failed: %s", errno_words(-ret));
			return 1;
		}
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S",
			 localtime(&wall));

		if (opt_json) {
			json_open_obj(NULL);
			json_str("time", when);
			if (rates)
				json_double("interval", dt);
			else
				json_null("interval");
			json_open_obj("profiles");
			for (p = 0; p < AICC_NR_PROFILES; p++) {
				if (!profile_present(p))
					continue;
				json_open_obj(profile_table[p].name);
				json_open_obj("counters");
				for (s = 0; s < AICC_NR_STATS; s++)
					if (have[p][s])
						json_u64(stat_table[s].name,
							 cur[p][s]);
				json_close_obj();
				json_open_obj("rates");
				for (s = 0; s < AICC_NR_STATS; s++) {
					if (!have[p][s] || s == AICC_S_FLOWS)
						continue;
					if (rates && had[p][s])
						json_double(stat_table[s].name,
							    rate(cur[p][s], prev[p][s], dt));
					else
						json_null(stat_table[s].name);
				}
				json_close_obj();
				json_close_obj();
			}
			json_close_obj();
			flows_json("flows", fl, nfl);
			json_close_obj();
			json_end();
		} else {
			if (tty)
				fputs("\033[H\033[2J", stdout);
			else if (iter)
				putchar('\n');
			printf("aicc watch  %s  every %gs%s\n\n", when, interval,
			       rates ? "" : "  (rates from the next refresh)");
			printf("%-16s", "counter");
			for (p = 0; p < AICC_NR_PROFILES; p++)
				printf(" %22s", profile_table[p].name);
			putchar('\n');
			for (s = 0; s < AICC_NR_STATS; s++) {
				printf("%-16s", stat_table[s].name);
				for (p = 0; p < AICC_NR_PROFILES; p++) {
					double r = NAN;
					char cell[40];

					if (rates && had[p][s] && have[p][s])
						r = rate(cur[p][s], prev[p][s], dt);
					if (!have[p][s])
						snprintf(cell, sizeof(cell), "-");
					else if (rates && s != AICC_S_FLOWS &&
						 isfinite(r))
						snprintf(cell, sizeof(cell),
							 "%llu %9.1f/s",
							 (unsigned long long)cur[p][s],
							 r);
					else if (rates && s != AICC_S_FLOWS)
						snprintf(cell, sizeof(cell),
							 "%llu %9s/s",
							 (unsigned long long)cur[p][s],
							 "-");
					else
						snprintf(cell, sizeof(cell), "%llu",
							 (unsigned long long)cur[p][s]);
					printf(" %22s", cell);
				}
				putchar('\n');
			}
			printf("\n%zu flow%s\n", nfl, nfl == 1 ? "" : "s");
			flows_print(fl, nfl);
		}
		free(fl);
		/* stdout gone or full: stop; main reports it */
		if (flush_stdout() || ferror(stdout))
			return 1;
		memcpy(prev, cur, sizeof(prev));
		memcpy(had, have, sizeof(had));
		t_prev = t;
	}
	return 0;
}
