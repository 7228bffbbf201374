// SPDX-License-Identifier: GPL-2.0
/*
 * aicc(8): the sysfs side -- status, show, set, profile save/load.
 *
 * Every change goes through apply_changes(): the previous values are read
 * first, the new ones written in order, and on the first failure the ones
 * already written are put back, so a command either takes effect as a
 * whole or not at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "aicc_tool.h"
#include "aicc_types.h"
#include "aicc_defaults.h"

#define PROC_CC_AVAIL	"/proc/sys/net/ipv4/tcp_available_congestion_control"
#define PROC_CC_ALLOWED	"/proc/sys/net/ipv4/tcp_allowed_congestion_control"

const char *sysfs_root(void)
{
	const char *r = getenv("AICC_SYSFS");

	return r && *r ? r : AICC_SYSFS_DIR;
}

static bool module_loaded(void)
{
	struct stat st;

	return !stat(sysfs_root(), &st) && S_ISDIR(st.st_mode);
}

int require_module(void)
{
	if (module_loaded())
		return 0;
	err("aicc module not loaded (no %s; try 'modprobe tcp_aicc')",
	    sysfs_root());
	return -1;
}

int profile_index(const char *name)
{
	int i;

	if (!strcmp(name, GLOBAL_PROFILE))
		return -1;
	for (i = 0; i < AICC_NR_PROFILES; i++)
		if (!strcmp(profile_table[i].name, name))
			return i;
	return -2;
}

static const char *profile_name(int p)
{
	return p < 0 ? GLOBAL_PROFILE : profile_table[p].name;
}

static void err_unknown_profile(const char *name)
{
	err("unknown profile '%s' (profiles: aicc, aicc_lat, aicc_bulk, global)",
	    name);
}

const struct aicc_knob_desc *find_knob(int profile, const char *name, int *idx)
{
	const struct aicc_knob_desc *tab = profile < 0 ? global_knob_table : knob_table;
	int n = profile < 0 ? NR_GLOBAL_KNOBS : AICC_NR_KNOBS;
	int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(tab[i].name, name)) {
			*idx = i;
			return &tab[i];
		}
	}
	return NULL;
}

static const struct aicc_knob_desc *knob_of(int profile, int idx)
{
	return profile < 0 ? &global_knob_table[idx] : &knob_table[idx];
}

static int nr_knobs(int profile)
{
	return profile < 0 ? NR_GLOBAL_KNOBS : AICC_NR_KNOBS;
}

int knob_path(char *buf, size_t len, int profile, int idx)
{
	int n;

	if (profile < 0)
		n = snprintf(buf, len, "%s/%s", sysfs_root(),
			     global_knob_table[idx].name);
	else
		n = snprintf(buf, len, "%s/%s/%s", sysfs_root(),
			     profile_table[profile].name,
			     knob_table[idx].name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int read_text_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int read_u64_file(const char *path, uint64_t *v)
{
	char buf[64], *end;
	unsigned long long x;
	int ret;

	ret = read_text_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	if (buf[0] < '0' || buf[0] > '9')
		return -EBADMSG;
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EBADMSG;
	*v = x;
	return 0;
}

int write_u64_file(const char *path, uint64_t v)
{
	char buf[32];
	ssize_t n;
	int fd, len, e = 0;

	/* O_TRUNC is harmless on sysfs and needed on a fake tree. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	n = write(fd, buf, len);
	if (n < 0)
		e = errno;
	else if (n != len)
		e = EIO;
	if (close(fd) && !e)
		e = errno;
	return -e;
}

bool profile_present(int profile)
{
	char path[PATH_MAX];
	struct stat st;

	if (profile < 0)
		return module_loaded();
	snprintf(path, sizeof(path), "%s/%s", sysfs_root(),
		 profile_table[profile].name);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int read_knob(int profile, int idx, uint64_t *v)
{
	char path[PATH_MAX];
	int ret = knob_path(path, sizeof(path), profile, idx);

	return ret ? ret : read_u64_file(path, v);
}

int read_stat(int profile, int idx, uint64_t *v)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s/%s", sysfs_root(),
		 profile_table[profile].name, AICC_STATS_DIR,
		 stat_table[idx].name);
	return read_u64_file(path, v);
}

static const char *read_err(int ret)
{
	return ret == -EBADMSG ? "not a decimal number" : errno_words(-ret);
}

/* ---- all-or-nothing changes ---- */

static uint64_t merged(struct change *ch, size_t n, int profile, int idx,
		       uint64_t cur)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ch[i].profile == profile && ch[i].idx == idx)
			return ch[i].new;
	return cur;
}

/*
 * Knobs that bound each other must stay ordered once the whole change is
 * applied; the kernel checks each knob alone.  The knobs a change leaves
 * alone count with their present values, or with the built-in defaults
 * when @defaults (profile load -n without the module).
 */
#define AT_DEFAULTS	" (knobs not in the file at their built-in defaults)"

int check_consistency(struct change *ch, size_t n, bool defaults)
{
	static const struct { int lo, hi; uint64_t hi_mult; bool zero_ok; }
	pairs[] = {
		{ AICC_K_TARGET_MIN, AICC_K_TARGET_MAX, 1, false },
		{ AICC_K_PACING_MIN, AICC_K_PACING_MAX, 1, true },
		{ AICC_K_FS_MIN_CWND, AICC_K_FS_MAX_CWND, 1000, false },
	};
	int p;
	size_t i, j;

	if (unchecked())
		return 0;
	for (p = 0; p < AICC_NR_PROFILES; p++) {
		bool touched = false;

		for (j = 0; j < n; j++)
			touched |= ch[j].profile == p;
		if (!touched)
			continue;
		for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			int k[2] = { pairs[i].lo, pairs[i].hi };
			char h[2][48];
			uint64_t v[2];
			int e, ret;

			for (e = 0; e < 2; e++) {
				if (defaults) {
					v[e] = aicc_default_knobs[p][k[e]];
				} else {
					ret = read_knob(p, k[e], &v[e]);
					if (ret) {
						err("cannot read %s.%s: %s",
						    profile_name(p),
						    knob_table[k[e]].name,
						    read_err(ret));
						return -1;
					}
				}
				v[e] = merged(ch, n, p, k[e], v[e]);
				format_human(knob_table[k[e]].unit, v[e], h[e],
					     sizeof(h[e]));
			}
			if (pairs[i].zero_ok && v[1] == 0)
				continue;
			if (v[0] > v[1] * pairs[i].hi_mult) {
				err("%s: %s (%llu, %s) would exceed %s (%llu, %s)%s; nothing changed",
				    profile_name(p), knob_table[k[0]].name,
				    (unsigned long long)v[0], h[0],
				    knob_table[k[1]].name,
				    (unsigned long long)v[1], h[1],
				    defaults ? AT_DEFAULTS : "");
				return -1;
			}
		}
	}
	return 0;
}

/*
 * Writing rate_memory_entries empties the rate cache, even with the
 * present size: it goes last, so that a failure never has to write it
 * back.  Stable otherwise: the changes keep their order.
 */
static void entries_last(struct change *ch, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		struct change c = ch[i];

		if (c.profile >= 0 || c.idx != AICC_GK_RATE_MEMORY_ENTRIES)
			continue;
		memmove(&ch[i], &ch[i + 1], (n - i - 1) * sizeof(*ch));
		ch[n - 1] = c;
		return;
	}
}

int apply_changes(struct change *ch, size_t n)
{
	char path[PATH_MAX];
	size_t i, j;
	int ret;

	entries_last(ch, n);
	for (i = 0; i < n; i++) {
		if (ch[i].old == ch[i].new)
			continue;
		knob_path(path, sizeof(path), ch[i].profile, ch[i].idx);
		ret = write_u64_file(path, ch[i].new);
		if (!ret)
			continue;

		/* Put back what was already written, newest first. */
		int bad = 0;

		for (j = i; j-- > 0;) {
			char p2[PATH_MAX];
			int r2;

			if (ch[j].old == ch[j].new)
				continue;
			knob_path(p2, sizeof(p2), ch[j].profile, ch[j].idx);
			r2 = write_u64_file(p2, ch[j].old);
			if (r2) {
				err("rollback of %s.%s to %llu failed: %s",
				    profile_name(ch[j].profile),
				    knob_of(ch[j].profile, ch[j].idx)->name,
				    (unsigned long long)ch[j].old,
				    errno_words(-r2));
				bad++;
			}
		}
		err("%s.%s = %llu: %s; %s", profile_name(ch[i].profile),
		    knob_of(ch[i].profile, ch[i].idx)->name,
		    (unsigned long long)ch[i].new, errno_words(-ret),
		    bad ? "ROLLBACK INCOMPLETE, check 'aicc show'" :
		    i ? "earlier changes rolled back, nothing changed" :
		    "nothing changed");
		return -1;
	}
	return 0;
}

/* Fill ch->old from sysfs for every change. */
static int read_old_values(struct change *ch, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = read_knob(ch[i].profile, ch[i].idx, &ch[i].old);
		if (ret) {
			err("cannot read %s.%s: %s; nothing changed",
			    profile_name(ch[i].profile),
			    knob_of(ch[i].profile, ch[i].idx)->name,
			    read_err(ret));
			return -1;
		}
	}
	return 0;
}

/* ---- status ---- */

int read_default_cc(char *buf, size_t len)
{
	return read_text_file("/proc/sys/net/ipv4/tcp_congestion_control",
			      buf, len);
}

static bool word_in(const char *list, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') &&
		    (p[wl] == '\0' || p[wl] == ' '))
			return true;
		p += wl;
	}
	return false;
}

static void status_usage(FILE *f)
{
	fprintf(f,
		"Usage: aicc [-j] status\n"
		"  Module state and version, kernel, profiles, the system default\n"
		"  congestion control and every per-profile counter.\n"
		"  Exits 1 when the module is not loaded.\n");
}

int cmd_status(int argc, char **argv)
{
	char ver[64] = "", def[64] = "", avail[512] = "", allowed[512] = "";
	char path[PATH_MAX];
	bool loaded = module_loaded();
	struct utsname u;
	uint64_t g[3] = { 0 };
	bool have_g[3] = { false };
	static const char *const gname[3] = {
		AICC_G_RATE_MEMORY, AICC_G_RATE_MEMORY_ENTRIES,
		AICC_G_RATE_MEMORY_USED
	};
	int p, s, i;

	if (argc > 1) {
		if (is_help(argv[1])) {
			status_usage(stdout);
			return 0;
		}
		err("status: unexpected argument '%s'", argv[1]);
		return EXIT_USAGE;
	}
	uname(&u);
	read_default_cc(def, sizeof(def));
	read_text_file(PROC_CC_AVAIL, avail, sizeof(avail));
	read_text_file(PROC_CC_ALLOWED, allowed, sizeof(allowed));
	if (loaded) {
		snprintf(path, sizeof(path), "%s/%s", sysfs_root(),
			 AICC_G_VERSION);
		read_text_file(path, ver, sizeof(ver));
		for (i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/%s", sysfs_root(),
				 gname[i]);
			have_g[i] = !read_u64_file(path, &g[i]);
		}
	}

	if (opt_json) {
		json_open_obj(NULL);
		json_bool("loaded", loaded);
		json_str("sysfs", sysfs_root());
		json_str("version", loaded ? ver : NULL);
		json_str("tool_version", AICC_TOOL_VERSION);
		json_str("kernel", u.release);
		json_str("default", def);
		json_open_obj("rate_memory");
		for (i = 0; i < 3; i++) {
			if (have_g[i])
				json_u64(gname[i], g[i]);
			else
				json_null(gname[i]);
		}
		json_close_obj();
		json_open_arr("profiles");
		for (p = 0; p < AICC_NR_PROFILES; p++) {
			bool present = loaded && profile_present(p);

			json_open_obj(NULL);
			json_str("name", profile_table[p].name);
			json_str("description", profile_table[p].desc);
			json_bool("present", present);
			json_bool("registered",
				  word_in(avail, profile_table[p].name));
			json_bool("allowed",
				  word_in(allowed, profile_table[p].name));
			json_bool("default", !strcmp(def, profile_table[p].name));
			json_open_obj("stats");
			for (s = 0; present && s < AICC_NR_STATS; s++) {
				uint64_t v;

				if (!read_stat(p, s, &v))
					json_u64(stat_table[s].name, v);
				else
					json_null(stat_table[s].name);
			}
			json_close_obj();
			json_close_obj();
		}
		json_close_arr();
		json_close_obj();
		json_end();
	} else {
		printf("module:      %s\n", loaded ? "loaded" : "not loaded");
		if (loaded)
			printf("version:     %s\n", *ver ? ver : "?");
		printf("kernel:      %s\n", u.release);
		printf("sysfs:       %s\n", sysfs_root());
		printf("default:     %s\n", *def ? def : "?");
		if (loaded && have_g[0])
			printf("rate memory: %s, %llu entries, %llu in use\n",
			       g[0] ? "on" : "off", (unsigned long long)g[1],
			       (unsigned long long)g[2]);
		printf("profiles:\n");
		for (p = 0; p < AICC_NR_PROFILES; p++)
			printf("  %-10s %-8s %-14s %-11s %s\n",
			       profile_table[p].name,
			       loaded && profile_present(p) ? "present" : "absent",
			       word_in(avail, profile_table[p].name) ?
			       "registered" : "unregistered",
			       word_in(allowed, profile_table[p].name) ?
			       "allowed" : "not-allowed",
			       profile_table[p].desc);
		if (loaded) {
			printf("counters:\n  %-16s", "");
			for (p = 0; p < AICC_NR_PROFILES; p++)
				printf(" %14s", profile_table[p].name);
			putchar('\n');
			for (s = 0; s < AICC_NR_STATS; s++) {
				printf("  %-16s", stat_table[s].name);
				for (p = 0; p < AICC_NR_PROFILES; p++) {
					uint64_t v;

					if (profile_present(p) &&
					    !read_stat(p, s, &v))
						printf(" %14llu",
						       (unsigned long long)v);
					else
						printf(" %14s", "-");
				}
				putchar('\n');
			}
		}
	}
	if (!loaded) {
		require_module();
		return 1;
	}
	return 0;
}

/* ---- show ---- */

static void show_usage(FILE *f)
{
	fprintf(f,
		"Usage: aicc [-j] show [-d] [PROFILE|global]\n"
		"  Print every knob of PROFILE (aicc, aicc_lat, aicc_bulk), of the\n"
		"  global settings, or of all of them: raw value in the sysfs unit\n"
		"  and the same value in a readable unit.  -d adds descriptions.\n");
}

static int show_one(int p, bool details, bool dry)
{
	uint64_t val[AICC_NR_KNOBS];
	char human[48];
	int i, ret, n = nr_knobs(p);
	uint64_t v;

	if (!profile_present(p)) {
		err("profile %s is not registered by the module",
		    profile_name(p));
		return -1;
	}
	/* Read everything first: print nothing if any knob is unreadable. */
	for (i = 0; i < n; i++) {
		ret = read_knob(p, i, &val[i]);
		if (ret) {
			err("cannot read %s.%s: %s", profile_name(p),
			    knob_of(p, i)->name, read_err(ret));
			return -1;
		}
	}
	if (dry)
		return 0;
	if (opt_json)
		json_open_obj(profile_name(p));
	else
		printf("%s%s%s\n", profile_name(p), p < 0 ? "" : ": ",
		       p < 0 ? "" : profile_table[p].desc);
	for (i = 0; i < n; i++) {
		const struct aicc_knob_desc *k = knob_of(p, i);

		v = val[i];
		format_human(k->unit, v, human, sizeof(human));
		if (opt_json) {
			json_open_obj(k->name);
			json_u64("value", v);
			json_str("unit", unit_name(k->unit));
			json_str("human", human);
			json_u64("min", k->min);
			json_u64("max", k->max);
			if (details)
				json_str("description", k->desc);
			json_close_obj();
		} else {
			printf("  %-18s %12llu %-9s %s", k->name,
			       (unsigned long long)v, unit_name(k->unit), human);
			if (details) {
				char range[48];

				snprintf(range, sizeof(range), "[%llu..%llu]",
					 (unsigned long long)k->min,
					 (unsigned long long)k->max);
				printf("%*s %-22s %s", 12 - (int)strlen(human),
				       "", range, k->desc);
			}
			putchar('\n');
		}
	}
	if (p < 0) {
		char path[PATH_MAX], ver[64];

		snprintf(path, sizeof(path), "%s/%s", sysfs_root(),
			 AICC_G_RATE_MEMORY_USED);
		ret = read_u64_file(path, &v);
		snprintf(path, sizeof(path), "%s/%s", sysfs_root(),
			 AICC_G_VERSION);
		if (read_text_file(path, ver, sizeof(ver)))
			snprintf(ver, sizeof(ver), "?");
		if (opt_json) {
			if (!ret)
				json_u64(AICC_G_RATE_MEMORY_USED, v);
			json_str(AICC_G_VERSION, ver);
		} else {
			if (!ret)
				printf("  %-18s %12llu (read-only)\n",
				       AICC_G_RATE_MEMORY_USED,
				       (unsigned long long)v);
			printf("  %-18s %12s (read-only)\n", AICC_G_VERSION,
			       ver);
		}
	}
	if (opt_json)
		json_close_obj();
	return 0;
}

int cmd_show(int argc, char **argv)
{
	bool details = false;
	int i, p = -3, ret = 0;

	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			show_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-d") ||
			   !strcmp(argv[i], "--details")) {
			details = true;
		} else if (p == -3) {
			p = profile_index(argv[i]);
			if (p == -2) {
				err_unknown_profile(argv[i]);
				return EXIT_USAGE;
			}
		} else {
			err("show: unexpected argument '%s'", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (require_module())
		return 1;
	/* Check that everything is readable before printing anything. */
	if (p != -3) {
		ret = show_one(p, details, true);
	} else {
		for (i = 0; i < AICC_NR_PROFILES && !ret; i++)
			if (profile_present(i))
				ret = show_one(i, details, true);
		if (!ret)
			ret = show_one(-1, details, true);
	}
	if (ret)
		return 1;
	/*
	 * The knobs are read again to print them: one that became unreadable
	 * in between (the module unloaded) ends the output with an error.
	 */
	if (opt_json)
		json_open_obj(NULL);
	if (p != -3) {
		ret = show_one(p, details, false);
	} else {
		for (i = 0; i < AICC_NR_PROFILES && !ret; i++) {
			if (!profile_present(i))
				continue;
			ret = show_one(i, details, false);
			if (!opt_json)
				putchar('\n');
		}
		if (!ret)
			ret = show_one(-1, details, false);
	}
	if (ret)
		return 1;
	if (opt_json) {
		json_close_obj();
		json_end();
	}
	return 0;
}

/* ---- set ---- */

static void set_usage(FILE *f)
{
	fprintf(f,
		"Usage: aicc set PROFILE|global KNOB=VALUE [KNOB=VALUE ...]\n"
		"  Change knobs of one profile, all of them or none.  VALUE is a\n"
		"  bare integer in the knob's sysfs unit or carries a unit:\n"
		"    time:   25us 1ms 1.5s        rate:  500mbit 10gbit\n"
		"    ratio:  0.8 80%% 1.25x        packets: 1.5pkt\n"
		"    bool:   on off yes no 1 0\n"
		"  'aicc show -d PROFILE' lists knobs, units and ranges.\n");
}

int cmd_set(int argc, char **argv)
{
	struct change ch[AICC_NR_KNOBS];
	char why[256];
	size_t n = 0, j;
	int i, p;

	if (argc < 2 || is_help(argv[1])) {
		set_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	p = profile_index(argv[1]);
	if (p == -2) {
		err_unknown_profile(argv[1]);
		return EXIT_USAGE;
	}
	if (argc < 3) {
		err("set: no KNOB=VALUE given");
		return EXIT_USAGE;
	}
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const struct aicc_knob_desc *k;
		int idx;

		if (is_help(argv[i])) {
			set_usage(stdout);
			return 0;
		}
		if (!eq) {
			err("set: '%s' is not KNOB=VALUE", argv[i]);
			return EXIT_USAGE;
		}
		*eq = '\0';
		k = find_knob(p, argv[i], &idx);
		if (!k) {
			err("unknown knob '%s' for %s (see 'aicc show %s')",
			    argv[i], profile_name(p), profile_name(p));
			return EXIT_USAGE;
		}
		for (j = 0; j < n; j++) {
			if (ch[j].idx == idx) {
				err("knob %s given twice", k->name);
				return EXIT_USAGE;
			}
		}
		if (parse_knob_value(k, eq + 1, &ch[n].new, why, sizeof(why)) ||
		    check_knob_value(p, idx, ch[n].new, why, sizeof(why))) {
			err("%s.%s: %s; nothing changed", profile_name(p),
			    k->name, why);
			return EXIT_USAGE;
		}
		ch[n].profile = p;
		ch[n].idx = idx;
		ch[n].line = 0;
		n++;
	}
	if (require_module())
		return 1;
	if (!profile_present(p)) {
		err("profile %s is not registered by the module",
		    profile_name(p));
		return 1;
	}
	if (read_old_values(ch, n) || check_consistency(ch, n, false) ||
	    apply_changes(ch, n))
		return 1;
	return 0;
}

/* ---- profile save / load ---- */

static void profile_usage(FILE *f)
{
	fprintf(f,
		"Usage: aicc profile save FILE\n"
		"       aicc profile load [-n] FILE\n"
		"  FILE ('-' for stdout/stdin) holds one setting per line:\n"
		"    # comment\n"
		"    aicc.target = 250\n"
		"    aicc_lat.target_max_us = 30ms\n"
		"    global.rate_memory = 1\n"
		"  load checks the whole file (names, values, ranges) before it\n"
		"  writes anything, then applies every line or none.  -n: only check.\n");
}

/*
 * Every knob is read, and the whole text built, before anything is
 * written: a knob that cannot be read leaves FILE as it was and prints
 * nothing on stdout.  A write error on stdout is reported at exit (main).
 */
static int profile_save(const char *file)
{
	char tmp[PATH_MAX], human[48], when[64];
	struct utsname u;
	time_t now = time(NULL);
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int p, i, ret;

	if (require_module())
		return 1;
	f = open_memstream(&text, &len);
	if (!f) {
		err("profile save: %s", strerror(errno));
		return 1;
	}
	uname(&u);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "# aicc profile, saved %s on %s (kernel %s)\n", when,
		u.nodename, u.release);
	fprintf(f, "# format: PROFILE.KNOB = VALUE, one per line; load with\n"
		   "# 'aicc profile load FILE'.  Values are in the sysfs unit.\n");
	for (p = -1; p < AICC_NR_PROFILES; p++) {
		if (!profile_present(p))
			continue;
		fprintf(f, "\n");
		for (i = 0; i < nr_knobs(p); i++) {
			const struct aicc_knob_desc *k = knob_of(p, i);
			uint64_t v;

			ret = read_knob(p, i, &v);
			if (ret) {
				err("cannot read %s.%s: %s; nothing saved",
				    profile_name(p), k->name, read_err(ret));
				fclose(f);
				free(text);
				return 1;
			}
			format_human(k->unit, v, human, sizeof(human));
			fprintf(f, "%s.%s = %llu\t# %s\n", profile_name(p),
				k->name, (unsigned long long)v, human);
		}
	}
	if (ferror(f) | fclose(f)) {
		err("profile save: %s; nothing saved", strerror(errno));
		free(text);
		return 1;
	}
	if (!strcmp(file, "-")) {
		fwrite(text, 1, len, stdout);
		free(text);
		return 0;
	}
	f = replace_open("profile save", file, tmp);
	if (f)
		fwrite(text, 1, len, f);
	free(text);
	return f ? replace_close("profile save", f, tmp, file) : 1;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
			 e[-1] == '\r'))
		*--e = '\0';
	return s;
}

#define MAX_LOAD	((AICC_NR_PROFILES * AICC_NR_KNOBS) + NR_GLOBAL_KNOBS)
#define MAX_REPORTED	20

static int profile_load(const char *file, bool dry)
{
	struct change ch[MAX_LOAD];
	char line[1024], why[256];
	int lineno = 0, bad = 0, r;
	size_t n = 0, j, col;
	FILE *f;

	if (!strcmp(file, "-")) {
		f = stdin;
	} else {
		f = fopen(file, "r");
		if (!f) {
			err("cannot read %s: %s", file, strerror(errno));
			return 1;
		}
	}

#define BAD(...) do {							\
		if (++bad <= MAX_REPORTED) {				\
			char _m[320];					\
			snprintf(_m, sizeof(_m), __VA_ARGS__);		\
			err("%s:%d: %s", file, lineno, _m);		\
		}							\
	} while (0)

	while ((r = read_line(f, line, sizeof(line), &col)) != LINE_EOF) {
		char *s, *eq, *dot, *key, *val, *hash;
		const struct aicc_knob_desc *k;
		uint64_t v;
		int p, idx;

		lineno++;
		if (r == LINE_NUL) {
			BAD("NUL byte at column %zu", col);
			continue;
		}
		if (r == LINE_LONG) {
			BAD("line too long");
			continue;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		s = trim(line);
		if (!*s)
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			BAD("expected 'PROFILE.KNOB = VALUE'");
			continue;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		dot = strchr(key, '.');
		if (!dot || strchr(dot + 1, '.') || dot == key || !dot[1] ||
		    strpbrk(key, " \t")) {
			BAD("'%s' is not PROFILE.KNOB", key);
			continue;
		}
		*dot = '\0';
		p = profile_index(key);
		if (p == -2) {
			BAD("unknown profile '%s'", key);
			continue;
		}
		k = find_knob(p, dot + 1, &idx);
		if (!k) {
			BAD("unknown knob '%s' for %s", dot + 1, key);
			continue;
		}
		if (!*val || strpbrk(val, " \t")) {
			BAD("%s.%s: expected a single value", key, k->name);
			continue;
		}
		/* Into a local: ch[n] exists only while n < MAX_LOAD. */
		if (parse_knob_value(k, val, &v, why, sizeof(why)) ||
		    check_knob_value(p, idx, v, why, sizeof(why))) {
			BAD("%s.%s: %s", key, k->name, why);
			continue;
		}
		for (j = 0; j < n; j++)
			if (ch[j].profile == p && ch[j].idx == idx)
				break;
		if (j < n) {
			BAD("%s.%s set again (first on line %d)", key, k->name,
			    ch[j].line);
			continue;
		}
		if (n >= MAX_LOAD) {
			BAD("too many settings");
			continue;
		}
		ch[n].profile = p;
		ch[n].idx = idx;
		ch[n].new = v;
		ch[n].line = lineno;
		n++;
	}
#undef BAD
	/*
	 * A file that cannot be read is a runtime error (exit 1); a file
	 * with bad lines or none at all is bad input, exit 2 like a
	 * malformed value of 'aicc set' or a bad line of 'rdma set --file'.
	 */
	if (ferror(f)) {
		err("cannot read %s: %s; nothing applied", file,
		    strerror(errno));
		if (f != stdin)
			fclose(f);
		return 1;
	}
	if (f != stdin)
		fclose(f);
	if (bad) {
		if (bad > MAX_REPORTED)
			err("%s: %d more errors not shown", file,
			    bad - MAX_REPORTED);
		err("%s: %d error%s, nothing applied", file, bad,
		    bad == 1 ? "" : "s");
		return EXIT_USAGE;
	}
	if (!n) {
		err("%s: no settings found, nothing applied", file);
		return EXIT_USAGE;
	}
	if (dry && !module_loaded()) {
		if (check_consistency(ch, n, true))
			return 1;
		warn("module not loaded: %s checked against the built-in defaults, not the running values; profiles not checked for presence",
		     file);
		return 0;
	}
	if (require_module())
		return 1;
	for (j = 0; j < n; j++) {
		if (!profile_present(ch[j].profile)) {
			err("%s:%d: profile %s is not registered by the module; nothing applied",
			    file, ch[j].line, profile_name(ch[j].profile));
			return 1;
		}
	}
	if (read_old_values(ch, n) || check_consistency(ch, n, false))
		return 1;
	if (dry)
		return 0;
	return apply_changes(ch, n) ? 1 : 0;
}

int cmd_profile(int argc, char **argv)
{
	bool dry = false;
	int i = 2;

	if (argc < 2 || is_help(argv[1])) {
		profile_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (argc > 2 && is_help(argv[2])) {
		profile_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "load") && argc > 2 && !strcmp(argv[2], "-n")) {
		dry = true;
		i++;
	}
	if (strcmp(argv[1], "save") && strcmp(argv[1], "load")) {
		err("profile: unknown command '%s' (save or load)", argv[1]);
		return EXIT_USAGE;
	}
	if (argc != i + 1) {
		err("profile %s: expected one FILE", argv[1]);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "save"))
		return profile_save(argv[i]);
	return profile_load(argv[i], dry);
}
