/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc(8): shared declarations of the command-line tool.
 */
#ifndef _AICC_TOOL_H
#define _AICC_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>
#include <linux/tcp.h>

#include "aicc.h"	/* uapi/aicc.h, found through -Iuapi */
#include "../lib/read_line.h"

#define AICC_TOOL_VERSION	AICC_VERSION

/* Exit codes: 0 success, 1 runtime error, 2 usage error. */
#define EXIT_USAGE		2

/* ---- commands (main.c) ---- */

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is the verb */
	const char *args;			/* synopsis after the verb */
	const char *summary;			/* one line */
};

int run_cmd_table(const struct cmd *tab, const char *prefix,
		  int argc, char **argv);
void print_cmd_usage(FILE *f, const struct cmd *c, const char *prefix);
bool is_help(const char *arg);		/* -h, --help or help */
bool is_help_flag(const char *arg);	/* -h or --help */

extern bool opt_json;
extern bool opt_pretty;

void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int flush_stdout(void);	/* fflush(stdout), remembering why it failed */
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *errno_words(int e);
/*
 * FILE written whole or not at all: replace_open() creates FILE.tmp.PID
 * (never through something already there: a symlink planted in /tmp) and
 * replace_close() renames it over FILE once every byte is written, or
 * removes it.  Both report their errors, naming @what; replace_close()
 * returns 0 or 1.  @tmp has room for PATH_MAX bytes.
 */
FILE *replace_open(const char *what, const char *file, char *tmp);
int replace_close(const char *what, FILE *f, const char *tmp,
		  const char *file);

/* ---- JSON writer (json.c) ---- */

void json_open_obj(const char *key);
void json_close_obj(void);
void json_open_arr(const char *key);
void json_close_arr(void);
void json_str(const char *key, const char *val);
void json_u64(const char *key, uint64_t v);
void json_s64(const char *key, int64_t v);
void json_double(const char *key, double v);
void json_bool(const char *key, bool v);
void json_null(const char *key);
void json_end(void);	/* newline after the top-level value */

/* ---- knobs, units, sysfs (knobs.c, units.c) ---- */

enum knob_scope { KS_PROFILE, KS_GLOBAL };

/*
 * The tables of uapi/aicc.h (AICC_WANT_TABLES), exported by units.c, plus
 * the two writable global knobs in the same form.
 */
#define GLOBAL_PROFILE	"global"
#define NR_GLOBAL_KNOBS	2
enum { AICC_GK_RATE_MEMORY, AICC_GK_RATE_MEMORY_ENTRIES };	/* their order */

extern const struct aicc_knob_desc *const knob_table;	/* [AICC_NR_KNOBS] */
extern const struct aicc_knob_desc global_knob_table[NR_GLOBAL_KNOBS];
extern const struct aicc_name_desc *const stat_table;	/* [AICC_NR_STATS] */
extern const struct aicc_name_desc *const profile_table; /* [AICC_NR_PROFILES] */

const char *unit_name(enum aicc_unit u);
bool unchecked(void);
int check_knob_value(int profile, int idx, uint64_t v, char *why,
		     size_t whylen);
int parse_knob_value(const struct aicc_knob_desc *k, const char *s,
		     uint64_t *out, char *why, size_t whylen);
void format_human(enum aicc_unit u, uint64_t v, char *buf, size_t len);
void format_rate_bps(double bits_per_s, char *buf, size_t len);
void format_us(uint64_t us, char *buf, size_t len);

/*
 * The sysfs directory ($AICC_SYSFS, a testing aid, or AICC_SYSFS_DIR).
 * main() refuses a longer one, so that every path the tool builds under it
 * (at most a profile, "stats" and a name: well under 256 more characters)
 * fits the 512-byte and PATH_MAX buffers it is built in.
 */
#define AICC_SYSFS_ROOT_MAX	256
const char *sysfs_root(void);
int require_module(void);			/* 0 or prints error, -1 */
int profile_index(const char *name);		/* -1 unknown */
const struct aicc_knob_desc *find_knob(int profile, const char *name, int *idx);
int knob_path(char *buf, size_t len, int profile, int idx);
int read_u64_file(const char *path, uint64_t *v);	/* -errno */
int read_text_file(const char *path, char *buf, size_t len);
int write_u64_file(const char *path, uint64_t v);	/* -errno */
bool profile_present(int profile);
int read_knob(int profile, int idx, uint64_t *v);
int read_stat(int profile, int idx, uint64_t *v);

/* A planned change: apply all or roll everything back. */
struct change {
	int profile;		/* -1: global */
	int idx;
	uint64_t old, new;
	int line;		/* source line for profile files, 0 if none */
};

int apply_changes(struct change *ch, size_t n);
int check_consistency(struct change *ch, size_t n, bool defaults);

int cmd_status(int argc, char **argv);
int cmd_model(int argc, char **argv);	/* model.c */
int cmd_rdma(int argc, char **argv);	/* rdma.c */
int cmd_tune(int argc, char **argv);	/* tune.c */
int cmd_show(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
int cmd_watch(int argc, char **argv);

/* ---- sock_diag (flows.c) ---- */

union addr {
	struct in_addr v4;
	struct in6_addr v6;
	uint8_t b[16];
};

struct prefix {
	int family;		/* 0: unset */
	union addr a;
	int plen;
};

struct flow_filter {
	struct prefix src, dst;
	int sport, dport;	/* -1: any */
	int profile;		/* -1: any aicc profile */
	bool all;		/* include sockets not using aicc */
};

struct flow {
	int family;
	uint8_t state;
	union addr src, dst;
	uint16_t sport, dport;
	char cong[16];
	int profile;		/* index into profile_table or -1 */
	bool have_tcpi;
	struct tcp_info tcpi;
	bool have_aicc;
	struct aicc_info ai;
};

int parse_prefix(const char *s, struct prefix *p);
void flow_filter_init(struct flow_filter *f);
int flows_collect(const struct flow_filter *f, struct flow **out, size_t *n);
void flows_print(const struct flow *fl, size_t n);
void flows_json(const char *key, const struct flow *fl, size_t n);
const char *mode_name(unsigned int mode);
int parse_flow_filter(struct flow_filter *f, int argc, char **argv, int *i);
int cmd_flows(int argc, char **argv);

/* ---- rtnetlink and sysctl (select.c) ---- */

int cmd_select(int argc, char **argv);
int read_default_cc(char *buf, size_t len);

#endif /* _AICC_TOOL_H */
