// SPDX-License-Identifier: GPL-2.0
/*
 * aicc(8): inspect and configure the aicc TCP congestion control.
 *
 * The command table below is the only place that knows the verbs; a new
 * verb (tune, model, rdma, ...) is one function and one line here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aicc_tool.h"

bool opt_json;
bool opt_pretty;

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct cmd commands[] = {
	{ "status", cmd_status, "",
	  "module, version, kernel, profiles, default, counters" },
	{ "show", cmd_show, "[PROFILE|global]",
	  "show the knobs of one or every profile" },
	{ "set", cmd_set, "PROFILE|global KNOB=VALUE ...",
	  "change knobs, all of them or none" },
	{ "profile", cmd_profile, "save FILE | load [-n] FILE",
	  "save or restore every knob as a text file" },
	{ "flows", cmd_flows,
	  "[-a] [src PREFIX] [dst PREFIX] [sport PORT] [dport PORT] [profile NAME]",
	  "sockets using aicc, with their live state" },
	{ "watch", cmd_watch, "[-i SECONDS] [-n COUNT] [FLOW FILTERS]",
	  "refreshing view: per-profile rates and flows" },
	{ "select", cmd_select,
	  "default [NAME] | route add|del PREFIX [via GW] [dev DEV] [PROFILE] | get ADDR",
	  "choose which connections use aicc" },
	{ "metrics", cmd_metrics, "",
	  "counters, knobs and flow summaries for Prometheus" },
	{ "model", cmd_model, "load FILE | show [FILE] | unload",
	  "the learned policy's model" },
	{ "rdma", cmd_rdma,
	  "show | set [--file FILE] [KNOB=VALUE ...] | save [-o FILE] | flows | export ...",
	  "RoCEv2 congestion control (aicc_roce)" },
	{ "tune", cmd_tune, "--profile NAME [FABRIC] [BUDGET] [-o FILE]",
	  "learn knobs for a fabric in the simulator (aicc-tune)" },
	{ "version", cmd_version, "", "print the tool version" },
	{ "help", cmd_help, "[VERB]", "this text, or help on one verb" },
	{ NULL, NULL, NULL, NULL }
};

#define ARRAY_LEN	(sizeof(commands) / sizeof(commands[0]))

/* The reason of the first failed flush of stdout, for the check at exit. */
static int stdout_errno;

int flush_stdout(void)
{
	if (!fflush(stdout))
		return 0;
	if (!stdout_errno)
		stdout_errno = errno ? errno : EIO;
	return -1;
}

/*
 * Whatever a verb printed must have reached stdout: a write error (a full
 * disk, a closed pipe, >&-) fails the command, with one message, even if
 * the verb itself succeeded.  glibc drops the buffer after a failed flush,
 * so the reason comes from the first failure flush_stdout() saw.
 */
static int check_stdout(int ret)
{
	if (!flush_stdout() && !ferror(stdout))
		return ret;
	err("write error on standard output: %s",
	    strerror(stdout_errno ? stdout_errno : EIO));
	return ret ? ret : 1;
}

void err(const char *fmt, ...)
{
	va_list ap;

	flush_stdout();
	fputs("aicc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	flush_stdout();
	fputs("aicc: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The kernel's answer in words, with what it usually means for aicc. */
const char *errno_words(int e)
{
	static char buf[160];
	const char *hint = NULL;

	switch (e) {
	case EINVAL:
		hint = "value rejected by the kernel";
		break;
	case EACCES:
	case EPERM:
		hint = "needs root";
		break;
	case ENOENT:
		hint = NULL;
		break;
	default:
		break;
	}
	if (hint)
		snprintf(buf, sizeof(buf), "%s (%s)", strerror(e), hint);
	else
		snprintf(buf, sizeof(buf), "%s", strerror(e));
	return buf;
}

FILE *replace_open(const char *what, const char *file, char *tmp)
{
	FILE *f;
	int fd;

	if ((size_t)snprintf(tmp, PATH_MAX, "%s.tmp.%d", file,
			     (int)getpid()) >= PATH_MAX) {
		err("%s: %s: file name too long; nothing written", what, file);
		return NULL;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		err("%s: cannot create %s: %s (writing %s)", what, file,
		    errno_words(errno), tmp);
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
	}
	return f;
}

int replace_close(const char *what, FILE *f, const char *tmp,
		  const char *file)
{
	int e = ferror(f) ? (errno ? errno : EIO) : 0;

	if (fclose(f) && !e)
		e = errno;
	if (!e && rename(tmp, file))
		e = errno;
	if (e) {
		err("%s: cannot write %s: %s; nothing written", what, file,
		    errno_words(e));
		unlink(tmp);
		return 1;
	}
	return 0;
}

bool is_help_flag(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

bool is_help(const char *arg)
{
	return is_help_flag(arg) || !strcmp(arg, "help");
}

void print_cmd_usage(FILE *f, const struct cmd *c, const char *prefix)
{
	fprintf(f, "Usage: aicc [-j] %s%s%s%s%s\n  %s\n",
		prefix ? prefix : "", prefix ? " " : "", c->name,
		*c->args ? " " : "", c->args, c->summary);
}

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f,
		"Usage: aicc [OPTIONS] VERB [ARGS]\n"
		"Options:\n"
		"  -j, --json     JSON output\n"
		"  -p, --pretty   indented JSON\n"
		"  -h, --help     this text; 'aicc VERB -h' for one verb\n"
		"  -V, --version  print the version\n"
		"Verbs:\n");
	for (c = commands; c->name; c++)
		fprintf(f, "  %-8s %s\n", c->name, c->summary);
	fprintf(f, "Environment: AICC_SYSFS overrides %s (testing aid).\n",
		AICC_SYSFS_DIR);
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd *c;
	int i;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	/* 'aicc help -h' (and help on help) as for every verb */
	for (i = 1; i < argc; i++) {
		if (is_help_flag(argv[i])) {
			print_cmd_usage(stdout, &commands[ARRAY_LEN - 2], NULL);
			return 0;
		}
	}
	if (argc > 2) {
		err("help: unexpected argument '%s'", argv[2]);
		return EXIT_USAGE;
	}
	for (c = commands; c->name; c++) {
		if (!strcmp(c->name, argv[1])) {
			char *hargv[] = { argv[1], "-h", NULL };

			return c->fn(2, hargv);
		}
	}
	err("unknown verb '%s' (try 'aicc help')", argv[1]);
	return EXIT_USAGE;
}

static int cmd_version(int argc, char **argv)
{
	if (argc > 1) {
		if (is_help(argv[1])) {
			print_cmd_usage(stdout, &commands[ARRAY_LEN - 3], NULL);
			return 0;
		}
		err("version: unexpected argument '%s'", argv[1]);
		return EXIT_USAGE;
	}
	if (opt_json) {
		json_open_obj(NULL);
		json_str("version", AICC_TOOL_VERSION);
		json_close_obj();
		json_end();
	} else {
		printf("aicc tool %s\n", AICC_TOOL_VERSION);
	}
	return 0;
}

/*
 * Dispatch argv[0] through @tab.  'aicc VERB -h' is handled here for
 * verbs whose functions want it; every function also accepts it itself.
 */
int run_cmd_table(const struct cmd *tab, const char *prefix,
		  int argc, char **argv)
{
	const struct cmd *c;
	int i;

	for (c = tab; c->name; c++) {
		if (strcmp(c->name, argv[0]))
			continue;
		/* a sub-command answers -h wherever it comes (aicc(8)) */
		for (i = 1; prefix && i < argc; i++) {
			if (is_help_flag(argv[i])) {
				print_cmd_usage(stdout, c, prefix);
				return 0;
			}
		}
		return c->fn(argc, argv);
	}
	if (prefix)
		err("%s: unknown command '%s' (try 'aicc %s -h')", prefix,
		    argv[0], prefix);
	else
		err("unknown verb '%s' (try 'aicc help')", argv[0]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i];

		if (is_help_flag(o)) {
			usage(stdout);
			return check_stdout(0);
		}
		if (!strcmp(o, "-V") || !strcmp(o, "--version"))
			return check_stdout(cmd_version(1, argv + i));
		if (!strcmp(o, "-j") || !strcmp(o, "--json")) {
			opt_json = true;
		} else if (!strcmp(o, "-p") || !strcmp(o, "--pretty")) {
			opt_pretty = true;
		} else if (!strcmp(o, "-jp") || !strcmp(o, "-pj")) {
			opt_json = true;
			opt_pretty = true;
		} else {
			err("unknown option '%s' (try 'aicc -h')", o);
			return EXIT_USAGE;
		}
	}
	if (i == argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strlen(sysfs_root()) > AICC_SYSFS_ROOT_MAX) {
		err("AICC_SYSFS: directory name longer than %d characters",
		    AICC_SYSFS_ROOT_MAX);
		return EXIT_USAGE;
	}
	return check_stdout(run_cmd_table(commands, NULL, argc - i, argv + i));
}
