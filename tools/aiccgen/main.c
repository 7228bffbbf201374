// SPDX-License-Identifier: GPL-2.0
/*
 * aiccgen: traffic generator replaying AI-cluster communication patterns
 * over real TCP sockets.  Command dispatch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "aiccgen.h"

bool gen_json_global;

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *what;
} cmds[] = {
	{ "server", cmd_server, "accept connections and serve every client mode" },
	{ "bulk", cmd_bulk, "N long flows, staggered join/leave, Jain's index" },
	{ "incast", cmd_incast, "synchronized bursts: incast, all-to-all, ring, p2p" },
	{ "rpc", cmd_rpc, "request/response latency percentiles" },
};

#define NCMDS ((int)(sizeof(cmds) / sizeof(cmds[0])))

static void print_usage(FILE *f)
{
	fprintf(f, "usage: %s [-j] MODE [OPTIONS]\n"
		"       %s MODE -h\n\n"
		"modes (unique prefixes are accepted):\n", GEN_NAME, GEN_NAME);
	for (int i = 0; i < NCMDS; i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].what);
	fprintf(f, "\nglobal options:\n"
		"  -j, --json     JSON output (also accepted after MODE)\n"
		"  -V, --version  print the version\n"
		"  -h, --help     this help\n");
}

/* Up to GEN_MAX_CONNS sockets plus a few: lift the soft descriptor limit. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * What was printed must have reached stdout: a write error (a full disk, a
 * closed pipe) fails the run, exit 1 with one message, instead of leaving
 * an empty or cut report behind a success.  Run at exit, before stdio's
 * own flush, so that every way out (a mode's end, -h) is covered.
 */
static void check_stdout(void)
{
	int e;

	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return;
	e = gen_stdout_errno ? gen_stdout_errno : errno ? errno : EIO;
	gen_err("write error on standard output: %s", strerror(e));
	_exit(GEN_EXIT_RUN);
}

int main(int argc, char **argv)
{
	int i = 1, match = -1;

	atexit(check_stdout);

	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			gen_json_global = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_usage(stdout);
			return 0;
		}
		if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("%s protocol %d\n", GEN_NAME, WIRE_VERSION);
			return 0;
		}
		gen_usage_err("unknown global option '%s' (try '%s -h')", a,
			      GEN_NAME);
	}
	if (i >= argc)
		gen_usage_err("no mode given (try '%s -h')", GEN_NAME);
	for (int k = 0; k < NCMDS; k++) {
		if (!strcmp(argv[i], cmds[k].name)) {
			match = k;
			break;
		}
		if (!strncmp(argv[i], cmds[k].name, strlen(argv[i]))) {
			if (match >= 0)
				gen_usage_err("ambiguous mode '%s'", argv[i]);
			match = k;
		}
	}
	if (match < 0)
		gen_usage_err("unknown mode '%s' (try '%s -h')", argv[i],
			      GEN_NAME);
	gen_mode = cmds[match].name;
	gen_signals();
	raise_fd_limit();
	return cmds[match].fn(argc - i, argv + i);
}
