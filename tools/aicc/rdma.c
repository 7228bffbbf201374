// SPDX-License-Identifier: GPL-2.0
/*
 * aicc rdma: the RoCEv2 congestion control of aicc_roce.ko.
 *
 *   aicc rdma show                 knobs (value, unit, range) and counters
 *   aicc rdma set [--file FILE] [KNOB=VALUE ...]
 *                                  all of them or none (checked first);
 *                                  FILE holds "KNOB = VALUE" lines (the
 *                                  output of aicc-tune --roce)
 *   aicc rdma flows                per-flow telemetry (the flows file)
 *   aicc rdma export --format mlx5 [-o FILE] [--defaults | --file F]
 *                                  the rp_ and np_ knobs as a script for a
 *                                  ConnectX NIC's debugfs cc_params; only
 *                                  written, never applied
 *
 * Sysfs: $AICC_SYSFS/roce (default /sys/kernel/aicc/roce).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "aicc_tool.h"
#include "aicc_roce.h"

static const char *const roce_unit_name[] = {
	[AICC_RU_BOOL] = "bool",
	[AICC_RU_ENUM] = "enum",
	[AICC_RU_MBPS] = "Mbit/s",
	[AICC_RU_US] = "us",
	[AICC_RU_MS] = "ms",
	[AICC_RU_BYTES] = "bytes",
	[AICC_RU_PERCENT] = "%",
	[AICC_RU_Q10] = "1/1024",
	[AICC_RU_COUNT] = "",
};

static void roce_dir(char *buf, size_t len)
{
	snprintf(buf, len, "%s/roce", sysfs_root());
}

static int roce_require(void)
{
	char d[512];
	struct stat st;

	roce_dir(d, sizeof(d));
	if (!stat(d, &st) && S_ISDIR(st.st_mode))
		return 0;
	err("aicc_roce module not loaded (no %s; try 'modprobe aicc_roce')", d);
	return -1;
}

/* Reads knob i (or, with stat set, counter i) from sysfs; -errno. */
static int roce_read(int i, bool stat, uint64_t *v)
{
	char p[600], d[512];

	roce_dir(d, sizeof(d));
	snprintf(p, sizeof(p), "%s/%s%s", d, stat ? "stats/" : "",
		 stat ? aicc_roce_stat_desc[i].name : aicc_roce_knob_desc[i].name);
	return read_u64_file(p, v);
}

/*
 * The start of a verb that takes no argument and needs the module: 0 with
 * the sysfs directory in d, else the exit status.
 */
static int roce_verb_start(const char *verb, int argc, char **argv, char *d,
			   size_t len)
{
	if (argc > 1) {
		err("rdma %s: unexpected argument '%s'", verb, argv[1]);
		return EXIT_USAGE;
	}
	if (roce_require())
		return 1;
	roce_dir(d, len);
	return 0;
}

/* Every knob is read before anything is printed: all of it or an error. */
static int rdma_show(int argc, char **argv)
{
	uint64_t kv[AICC_ROCE_NR_KNOBS], sv[AICC_ROCE_NR_STATS];
	bool have_s[AICC_ROCE_NR_STATS];
	char d[512];
	int i, r = roce_verb_start("show", argc, argv, d, sizeof(d));

	if (r)
		return r;
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		r = roce_read(i, false, &kv[i]);
		if (r) {
			err("cannot read %s/%s: %s", d, aicc_roce_knob_desc[i].name,
			    errno_words(-r));
			return 1;
		}
	}
	/* a counter that cannot be read is left out, as before */
	for (i = 0; i < AICC_ROCE_NR_STATS; i++)
		have_s[i] = !roce_read(i, true, &sv[i]);
	if (opt_json) {
		json_open_obj(NULL);
		json_open_obj("knobs");
	} else {
		printf("%-30s %12s  %-7s %s\n", "knob", "value", "unit", "range");
	}
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		const struct aicc_roce_knob_desc *k = &aicc_roce_knob_desc[i];

		if (opt_json)
			json_u64(k->name, kv[i]);
		else
			printf("%-30s %12llu  %-7s %u..%u\n", k->name,
			       (unsigned long long)kv[i], roce_unit_name[k->unit],
			       k->min, k->max);
	}
	if (opt_json) {
		json_close_obj();
		json_open_obj("stats");
	} else {
		printf("\ncounters:\n");
	}
	for (i = 0; i < AICC_ROCE_NR_STATS; i++) {
		if (!have_s[i])
			continue;
		if (opt_json)
			json_u64(aicc_roce_stat_desc[i].name, sv[i]);
		else
			printf("  %-14s %llu\n", aicc_roce_stat_desc[i].name,
			       (unsigned long long)sv[i]);
	}
	if (opt_json) {
		json_close_obj();
		json_close_obj();
		json_end();
	}
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	/* digits only: strtoull() would skip white space and take a sign */
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/*
 * Checks one assignment NAME=VAL and stores it in v[]/have[]; where names
 * the source for the error ("rdma set" or "FILE:LINE").  A knob already
 * in seen[] is refused: given twice in one file, or twice on the command
 * line (where an argument may override the file's value).
 */
static int check_assign(const char *where, const char *name, const char *val,
			bool *seen, uint64_t *v, bool *have)
{
	const struct aicc_roce_knob_desc *k;
	uint64_t x;
	int i;

	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++)
		if (!strcmp(aicc_roce_knob_desc[i].name, name))
			break;
	if (i == AICC_ROCE_NR_KNOBS) {
		err("%s: unknown knob '%s' (see 'aicc rdma show')", where, name);
		return -1;
	}
	k = &aicc_roce_knob_desc[i];
	if (parse_u64(val, &x) || x < k->min || x > k->max) {
		err("%s: %s=%s: must be an integer in %u..%u%s%s", where, name,
		    val, k->min, k->max, *roce_unit_name[k->unit] ? " " : "",
		    roce_unit_name[k->unit]);
		return -1;
	}
	if (seen[i]) {
		err("%s: %s set twice", where, name);
		return -1;
	}
	v[i] = x;
	have[i] = true;
	seen[i] = true;
	return 0;
}

/*
 * A knob file: "KNOB = VALUE" per line, '#' starts a comment.  Any bad
 * line rejects the whole file: EXIT_USAGE after one error line, as for a
 * bad KNOB=VALUE argument; 1 if the file cannot be read (a runtime error,
 * as for 'aicc profile load').
 */
static int load_file(const char *file, uint64_t *v, bool *have)
{
	char line[512], where[600];	/* 511 characters and the NUL */
	bool any = false;
	int ln = 0, rc = EXIT_USAGE, r;
	size_t col;
	FILE *f = fopen(file, "r");

	if (!f) {
		err("cannot open %s: %s", file, errno_words(errno));
		return 1;
	}
	while ((r = read_line(f, line, sizeof(line), &col)) != LINE_EOF) {
		char name[64], val[64], *hash = strchr(line, '#');
		int end = 0;

		snprintf(where, sizeof(where), "%s:%d", file, ++ln);
		if (r == LINE_NUL) {
			err("%s: NUL byte at column %zu", where, col);
			goto out;
		}
		if (r == LINE_LONG) {
			err("%s: line too long", where);
			goto out;
		}
		if (hash)
			*hash = 0;
		if (!line[strspn(line, " \t\r\n")])
			continue;	/* blank or a comment */
		if (sscanf(line, " %63[^= \t] = %63s %n", name, val, &end) != 2 ||
		    line[end]) {
			err("%s: expected 'KNOB = VALUE'", where);
			goto out;
		}
		if (check_assign(where, name, val, have, v, have))
			goto out;
		any = true;
	}
	if (ferror(f)) {
		err("cannot read %s: %s", file, errno_words(errno));
		rc = 1;
	} else if (!any) {
		err("%s: no knob assignments", file);
	} else {
		rc = 0;
	}
out:
	fclose(f);
	return rc;
}

static int rdma_set(int argc, char **argv)
{
	uint64_t val[AICC_ROCE_NR_KNOBS], old[AICC_ROCE_NR_KNOBS];
	bool have[AICC_ROCE_NR_KNOBS] = { false };
	bool arg[AICC_ROCE_NR_KNOBS] = { false };
	const char *file = NULL;
	char d[512], p[600];
	int i, j, r, n = 0, bad = 0, written = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--file")) {
			if (i + 1 >= argc || file) {
				err("rdma set: --file takes one FILE, once");
				return EXIT_USAGE;
			}
			file = argv[++i];
		}
	}
	/* check everything before writing anything; arguments override FILE */
	r = file ? load_file(file, val, have) : 0;
	if (r)
		return r;
	for (i = 1; i < argc; i++) {
		char name[64];
		const char *eq = strchr(argv[i], '=');
		size_t l;

		if (!strcmp(argv[i], "--file")) {
			i++;
			continue;
		}
		if (!eq) {
			err("rdma set: '%s' is not KNOB=VALUE", argv[i]);
			return EXIT_USAGE;
		}
		l = (size_t)(eq - argv[i]);
		if (l >= sizeof(name)) {
			err("rdma set: unknown knob '%.*s' (see 'aicc rdma show')",
			    (int)l, argv[i]);
			return EXIT_USAGE;
		}
		memcpy(name, argv[i], l);
		name[l] = 0;
		if (check_assign("rdma set", name, eq + 1, arg, val, have))
			return EXIT_USAGE;
	}
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++)
		n += have[i];
	if (!n) {
		err("rdma set: expected --file FILE or KNOB=VALUE ...");
		return EXIT_USAGE;
	}
	if (roce_require())
		return 1;
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		r = have[i] ? roce_read(i, false, &old[i]) : 0;
		if (r) {
			err("cannot read knob %s: %s", aicc_roce_knob_desc[i].name,
			    errno_words(-r));
			return 1;
		}
	}
	roce_dir(d, sizeof(d));
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		if (!have[i])
			continue;
		snprintf(p, sizeof(p), "%s/%s", d, aicc_roce_knob_desc[i].name);
		r = write_u64_file(p, val[i]);
		if (!r)
			continue;
		/* put back what was written, newest first, as 'aicc set' does */
		for (j = i; j-- > 0;) {
			char p2[600];
			int r2;

			if (!have[j])
				continue;
			snprintf(p2, sizeof(p2), "%s/%s", d,
				 aicc_roce_knob_desc[j].name);
			r2 = write_u64_file(p2, old[j]);
			if (r2) {
				err("rollback of %s to %llu failed: %s",
				    aicc_roce_knob_desc[j].name,
				    (unsigned long long)old[j],
				    errno_words(-r2));
				bad++;
			}
			written++;
		}
		err("cannot write %s: %s; %s", p, errno_words(-r),
		    bad ? "ROLLBACK INCOMPLETE, check 'aicc rdma show'" :
		    written ? "earlier knobs restored, nothing changed" :
		    "nothing changed");
		return 1;
	}
	return 0;
}

/*
 * Every knob's current value as a knob file.  All values are read and
 * checked against the tool's ranges first (a value 'set --file' would
 * refuse means the tool and the module disagree), then the file is
 * written to FILE.tmp.PID in FILE's directory and renamed over FILE, so
 * a failure leaves FILE as it was.
 */
static int rdma_save(int argc, char **argv)
{
	uint64_t v[AICC_ROCE_NR_KNOBS];
	const char *out = NULL;
	char tmp[PATH_MAX], d[512];
	struct utsname u;
	FILE *f = stdout;
	int i, r;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o")) {
			err("rdma save: unexpected argument '%s'", argv[i]);
			return EXIT_USAGE;
		}
		if (i + 1 >= argc || out) {
			err("rdma save: -o takes one FILE, once");
			return EXIT_USAGE;
		}
		out = argv[++i];
	}
	if (out && !*out) {
		err("rdma save: -o: empty file name");
		return EXIT_USAGE;
	}
	if (roce_require())
		return 1;
	roce_dir(d, sizeof(d));
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		const struct aicc_roce_knob_desc *k = &aicc_roce_knob_desc[i];

		r = roce_read(i, false, &v[i]);
		if (r) {
			err("cannot read %s/%s: %s; nothing saved", d, k->name,
			    errno_words(-r));
			return 1;
		}
		if (v[i] < k->min || v[i] > k->max) {
			/* set --file would refuse it: another module version */
			err("%s/%s = %llu, outside the tool's %u..%u; nothing saved",
			    d, k->name, (unsigned long long)v[i], k->min, k->max);
			return 1;
		}
	}
	if (out) {
		f = replace_open("rdma save", out, tmp);
		if (!f)
			return 1;
	}
	if (uname(&u))
		strcpy(u.release, "?");
	fprintf(f, "# aicc_roce knobs (aicc %s, kernel %s); load: aicc rdma set --file F\n",
		AICC_VERSION, u.release);
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++)
		fprintf(f, "%s = %llu\n", aicc_roce_knob_desc[i].name,
			(unsigned long long)v[i]);
	if (!out)
		return 0;	/* a write error on stdout is reported at exit */
	return replace_close("rdma save", f, tmp, out);
}

static void fmt_addr(const uint8_t *a, int family, char *buf, size_t len)
{
	if (family == 4)
		inet_ntop(AF_INET, a + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, a, buf, (socklen_t)len);
}

static int rdma_flows(int argc, char **argv)
{
	struct aicc_roce_flow_rec rec;
	char d[512], p[600], la[64], ra[64];
	unsigned int n = 0;
	int r = roce_verb_start("flows", argc, argv, d, sizeof(d));
	size_t got;
	FILE *f;
	int e;

	if (r)
		return r;
	snprintf(p, sizeof(p), "%s/%s", d, AICC_ROCE_FLOWS_FILE);
	f = fopen(p, "rb");
	if (!f) {
		err("cannot open %s: %s", p, errno_words(errno));
		return 1;
	}
	if (opt_json)
		json_open_arr(NULL);
	else
		printf("%-15s %-15s %5s %6s %6s %7s %7s %8s %8s %5s %5s %5s %10s %10s %5s\n",
		       "local", "remote", "sport", "lqp", "pqp", "algo", "tx",
		       "rx", "ce", "cnp_s", "cnp_r", "cuts", "rate", "target",
		       "alpha");
	while ((got = fread(&rec, 1, sizeof(rec), f)) == sizeof(rec)) {
		char r1[32], r2[32];

		if (!rec.valid)
			continue;
		n++;
		fmt_addr(rec.laddr, rec.family, la, sizeof(la));
		fmt_addr(rec.raddr, rec.family, ra, sizeof(ra));
		if (opt_json) {
			json_open_obj(NULL);
			json_str("local", la);
			json_str("remote", ra);
			json_u64("family", rec.family);
			json_u64("sport", rec.sport);
			json_u64("local_qpn", rec.local_qpn);
			json_u64("peer_qpn", rec.peer_qpn);
			json_str("algo", rec.algo < AICC_ROCE_NR_ALGOS ?
				 aicc_roce_algo_name[rec.algo] : "?");
			json_u64("tx_pkts", rec.tx_pkts);
			json_u64("tx_bytes", rec.tx_bytes);
			json_u64("rx_pkts", rec.rx_pkts);
			json_u64("rx_bytes", rec.rx_bytes);
			json_u64("ce_seen", rec.ce_seen);
			json_u64("cnp_sent", rec.cnp_sent);
			json_u64("cnp_rcvd", rec.cnp_rcvd);
			json_u64("cuts", rec.cuts);
			json_u64("rate_bps", rec.rate_bps);
			json_u64("target_bps", rec.target_bps);
			json_u64("alpha", rec.alpha);
			json_u64("rtt_us", rec.rtt_us);
			json_u64("idle_ms", rec.idle_ms);
			json_close_obj();
		} else {
			format_rate_bps((double)rec.rate_bps, r1, sizeof(r1));
			format_rate_bps((double)rec.target_bps, r2, sizeof(r2));
			printf("%-15s %-15s %5u %6u %6u %7s ", la, ra, rec.sport,
			       rec.local_qpn, rec.peer_qpn,
			       rec.algo < AICC_ROCE_NR_ALGOS ?
			       aicc_roce_algo_name[rec.algo] : "?");
			printf("%7llu %8llu %8llu %5llu %5llu %5llu %10s %10s %5u\n",
			       (unsigned long long)rec.tx_pkts,
			       (unsigned long long)rec.rx_pkts,
			       (unsigned long long)rec.ce_seen,
			       (unsigned long long)rec.cnp_sent,
			       (unsigned long long)rec.cnp_rcvd,
			       (unsigned long long)rec.cuts, r1, r2, rec.alpha);
		}
	}
	/* the module returns whole records: anything else is an error */
	e = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (e || got) {
		if (e)
			err("cannot read %s: %s", p, errno_words(e));
		else
			err("%s: %zu bytes past the last whole record of %zu: the module and the tool disagree on the record",
			    p, got, sizeof(rec));
		return 1;
	}
	if (opt_json) {
		json_close_arr();
		json_end();
	} else if (!n) {
		printf("(no flows)\n");
	}
	return 0;
}

/* The knobs that exist in mlx5's cc_params, under the same names. */
static bool is_mlx5_knob(const char *name)
{
	return !strncmp(name, "rp_", 3) ||
	       !strcmp(name, "np_min_time_between_cnps") ||
	       !strcmp(name, "np_cnp_dscp") || !strcmp(name, "np_cnp_prio");
}

static int rdma_export(int argc, char **argv)
{
	const char *fmt = NULL, *out = NULL, *file = NULL;
	uint64_t v[AICC_ROCE_NR_KNOBS];
	bool have[AICC_ROCE_NR_KNOBS] = { false };
	bool defaults = false;
	char tmp[PATH_MAX];
	FILE *f = stdout;
	int i, r;

	/* each option once, with its value, as rdma save takes -o */
	for (i = 1; i < argc; i++) {
		const char **val;

		if (!strcmp(argv[i], "--defaults")) {
			defaults = true;
			continue;
		}
		if (!strcmp(argv[i], "--format")) {
			val = &fmt;
		} else if (!strcmp(argv[i], "-o")) {
			val = &out;
		} else if (!strcmp(argv[i], "--file")) {
			val = &file;
		} else {
			err("rdma export: unexpected argument '%s'", argv[i]);
			return EXIT_USAGE;
		}
		if (i + 1 >= argc || *val) {
			err("rdma export: %s takes one %s, once", argv[i],
			    val == &fmt ? "FORMAT" : "FILE");
			return EXIT_USAGE;
		}
		*val = argv[++i];
	}
	if (out && !*out) {
		err("rdma export: -o: empty file name");
		return EXIT_USAGE;
	}
	if (!fmt) {
		err("rdma export: missing --format (only 'mlx5' is known)");
		return EXIT_USAGE;
	}
	if (strcmp(fmt, "mlx5")) {
		err("rdma export: unknown format '%s' (only 'mlx5' is known)", fmt);
		return EXIT_USAGE;
	}
	if (defaults && file) {
		err("rdma export: --defaults and --file exclude each other");
		return EXIT_USAGE;
	}
	/* FILE's knobs over the built-in defaults, no module needed */
	r = file ? load_file(file, v, have) : 0;
	if (r)
		return r;
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		if (defaults || file) {
			if (!have[i])
				v[i] = aicc_roce_knob_desc[i].def;
			continue;
		}
		if (i == 0 && roce_require()) {
			err("(or use --defaults or --file to export without the module)");
			return 1;
		}
		r = roce_read(i, false, &v[i]);
		if (r) {
			err("cannot read knob %s: %s", aicc_roce_knob_desc[i].name,
			    errno_words(-r));
			return 1;
		}
	}
	if (out) {
		f = replace_open("rdma export", out, tmp);
		if (!f)
			return 1;
	}
	fprintf(f, "#!/bin/sh\n"
		"# mlx5 DCQCN parameters exported by 'aicc rdma export --format mlx5'\n"
		"# (aicc %s, %s).  Nothing has been applied: ConnectX NICs run\n"
		"# congestion control in firmware; review this file, then run it\n"
		"# as root with the NIC's debugfs cc_params directory, e.g.\n"
		"#   sh FILE /sys/kernel/debug/mlx5/0000:03:00.0/cc_params\n"
		"# Units as in mlx5: rates Mbit/s, times microseconds.\n"
		"set -e\n"
		"cc=${1:?usage: $0 /sys/kernel/debug/mlx5/<pci>/cc_params}\n",
		AICC_VERSION, file ? "values of the knob file" :
		defaults ? "built-in defaults" : "current values");
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++) {
		const char *n = aicc_roce_knob_desc[i].name;

		if (!is_mlx5_knob(n))
			continue;
		fprintf(f, "echo %llu > \"$cc/%s\"\n", (unsigned long long)v[i], n);
	}
	if (!out)
		return 0;	/* a write error on stdout is reported at exit */
	return replace_close("rdma export", f, tmp, out);
}

static const struct cmd rdma_cmds[] = {
	{ "show", rdma_show, "", "knobs and counters of aicc_roce" },
	{ "set", rdma_set, "[--file FILE] [KNOB=VALUE ...]",
	  "change knobs, all or none (FILE: 'KNOB = VALUE' lines)" },
	{ "save", rdma_save, "[-o FILE]",
	  "every knob's current value as a knob file for 'set --file'" },
	{ "flows", rdma_flows, "", "per-flow telemetry" },
	{ "export", rdma_export,
	  "--format mlx5 [-o OUT] [--defaults | --file FILE]",
	  "write the rp_/np_ knobs as a mlx5 cc_params script (not applied)" },
	{ NULL, NULL, NULL, NULL }
};

int cmd_rdma(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2 || is_help(argv[1])) {
		for (c = rdma_cmds; c->name; c++)
			print_cmd_usage(argc < 2 ? stderr : stdout, c, "rdma");
		return argc < 2 ? EXIT_USAGE : 0;
	}
	return run_cmd_table(rdma_cmds, "rdma", argc - 1, argv + 1);
}
