// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: `aicc profile load FILE`, the profile-file parser of
 * tools/aicc (knobs.c, units.c), compiled from the tool's own sources.
 *
 * The tool talks to a fake sysfs tree (AICC_SYSFS, a private directory in
 * /dev/shm or $TMPDIR) holding the shipped defaults.  Each input is loaded
 * for real (`profile load FILE`), through an in-memory file.  Beyond the
 * sanitizers the harness checks the tool's promises and aborts (a libFuzzer
 * crash) when one breaks:
 *
 *   - a load that fails writes no file at all ("nothing applied": on
 *     this tree no write can fail, so the tool has no write to roll
 *     back, and a write put back afterwards would still have been seen
 *     by the module in between);
 *   - a load that succeeds leaves every knob inside its documented range
 *     (the global files too: rate_memory 0 or 1, rate_memory_entries a
 *     power of two in range) and each bounding pair ordered
 *     (target_min_us <= target_max_us, ...);
 *   - `profile load -n` (check only) succeeds exactly when the real load
 *     does, and never changes anything.
 *
 * After a successful load the tree is reset to the defaults, so every
 * input starts from the same state.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/aicc/aicc_tool.h"
#include "aicc_types.h"
#include "aicc_defaults.h"

/* ---- what tools/aicc/main.c provides to the rest of the tool ---- */

bool opt_json;
bool opt_pretty;
static unsigned long nr_errors;

void err(const char *fmt, ...)
{
	nr_errors++;	/* the message itself is not interesting here */
	(void)fmt;
}

void warn(const char *fmt, ...)
{
	(void)fmt;
}

const char *errno_words(int e)
{
	return strerror(e);
}

/* profile save (the only writer of files here) is not fuzzed */
FILE *replace_open(const char *what, const char *file, char *tmp)
{
	(void)what;
	(void)file;
	(void)tmp;
	return NULL;
}

int replace_close(const char *what, FILE *f, const char *tmp,
		  const char *file)
{
	(void)what;
	(void)tmp;
	(void)file;
	fclose(f);
	return 1;
}

bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help") ||
	       !strcmp(arg, "help");
}

void print_cmd_usage(FILE *f, const struct cmd *c, const char *prefix)
{
	(void)f;
	(void)c;
	(void)prefix;
}

/* ---- the fake sysfs tree ---- */

static char root[PATH_MAX];
static int memfd = -1;
static char memfd_path[64];
static int watch_fd = -1;	/* inotify on the tree: any write shows */

static void die(const char *what)
{
	fprintf(stderr, "fuzz_profile: %s: %s\n", what, strerror(errno));
	abort();
}

static void violated(const char *what)
{
	fprintf(stderr, "fuzz_profile: promise broken: %s\n", what);
	abort();
}

/* Whether anything in the tree was written since the last call. */
static bool tree_written(void)
{
	union {
		struct inotify_event ev;
		char bytes[4096];
	} buf;
	bool any = false;

	while (read(watch_fd, &buf, sizeof(buf)) > 0)
		any = true;
	return any;
}

/*
 * Plain open/read/write with stack buffers: stdio's buffers, filled by
 * ASan on every fopen(), would make each input ten times slower.
 */
static void put(const char *path, unsigned long long v)
{
	char buf[32];
	int fd, len;

	len = snprintf(buf, sizeof(buf), "%llu\n", v);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, buf, len) != len || close(fd))
		die(path);
}

/* The contents of @path into @buf (NUL-terminated); the length. */
static size_t slurp(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(path);
	n = read(fd, buf, len - 1);
	if (n < 0)
		die(path);
	close(fd);
	buf[n] = '\0';
	return n;
}

static unsigned long long number(const char *path)
{
	char buf[64], *end;
	unsigned long long v;

	slurp(path, buf, sizeof(buf));
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		violated("a file does not hold a decimal value");
	return v;
}

static void reset_tree(void)
{
	char path[PATH_MAX];
	int p, k;

	snprintf(path, sizeof(path), "%s/%s", root, AICC_G_RATE_MEMORY);
	put(path, 1);
	snprintf(path, sizeof(path), "%s/%s", root, AICC_G_RATE_MEMORY_ENTRIES);
	put(path, 1024);
	for (p = 0; p < AICC_NR_PROFILES; p++)
		for (k = 0; k < AICC_NR_KNOBS; k++) {
			snprintf(path, sizeof(path), "%s/%s/%s", root,
				 aicc_profile_desc[p].name,
				 aicc_knob_desc[k].name);
			put(path, aicc_default_knobs[p][k]);
		}
}

static unsigned long long get(int p, int k)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", root,
		 aicc_profile_desc[p].name, aicc_knob_desc[k].name);
	return number(path);
}

static void check_sane(void)
{
	unsigned long long v, lo, hi;
	char path[PATH_MAX];
	int p, k;

	for (p = 0; p < AICC_NR_PROFILES; p++) {
		for (k = 0; k < AICC_NR_KNOBS; k++) {
			v = get(p, k);
			if (v < aicc_knob_desc[k].min || v > aicc_knob_desc[k].max)
				violated("a knob outside its range after a load");
		}
		if (get(p, AICC_K_TARGET_MIN) > get(p, AICC_K_TARGET_MAX))
			violated("target_min_us > target_max_us after a load");
		lo = get(p, AICC_K_PACING_MIN);
		hi = get(p, AICC_K_PACING_MAX);
		if (hi && lo > hi)
			violated("pacing_min > pacing_max after a load");
		if (get(p, AICC_K_FS_MIN_CWND) > get(p, AICC_K_FS_MAX_CWND) * 1000)
			violated("fs_min_cwnd > fs_max_cwnd after a load");
	}
	snprintf(path, sizeof(path), "%s/%s", root, AICC_G_RATE_MEMORY);
	if (number(path) > 1)
		violated("rate_memory not 0 or 1 after a load");
	snprintf(path, sizeof(path), "%s/%s", root, AICC_G_RATE_MEMORY_ENTRIES);
	v = number(path);
	if (v < AICC_MEM_ENTRIES_MIN || v > AICC_MEM_ENTRIES_MAX || (v & (v - 1)))
		violated("rate_memory_entries invalid after a load");
}

static void cleanup(void)
{
	char cmd[PATH_MAX + 16];

	if (root[0] && strstr(root, "/aicc-fuzz-profile.")) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			fprintf(stderr, "fuzz_profile: could not remove %s\n", root);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = access("/dev/shm", W_OK) ? getenv("TMPDIR") : "/dev/shm";
	char path[PATH_MAX];
	int p;

	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/aicc-fuzz-profile.XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(root))
		die(root);
	atexit(cleanup);
	for (p = 0; p < AICC_NR_PROFILES; p++) {
		snprintf(path, sizeof(path), "%s/%s", root,
			 aicc_profile_desc[p].name);
		if (mkdir(path, 0755))
			die(path);
	}
	reset_tree();
	watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (watch_fd < 0)
		die("inotify_init1");
	for (p = -1; p < AICC_NR_PROFILES; p++) {
		if (p < 0)
			snprintf(path, sizeof(path), "%s", root);
		else
			snprintf(path, sizeof(path), "%s/%s", root,
				 aicc_profile_desc[p].name);
		if (inotify_add_watch(watch_fd, path, IN_MODIFY | IN_ATTRIB |
				      IN_CREATE | IN_DELETE | IN_MOVED_FROM |
				      IN_MOVED_TO) < 0)
			die(path);
	}
	setenv("AICC_SYSFS", root, 1);
	unsetenv("AICC_UNCHECKED");
	memfd = memfd_create("aicc-fuzz-profile", 0);
	if (memfd < 0)
		die("memfd_create");
	snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
	return 0;
}

static int load(bool dry)
{
	char *argv[5];
	int argc = 0;

	argv[argc++] = "profile";
	argv[argc++] = "load";
	if (dry)
		argv[argc++] = "-n";
	argv[argc++] = memfd_path;
	argv[argc] = NULL;
	return cmd_profile(argc, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int dry_rc, rc;

	if (ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		die("memfd");

	dry_rc = load(true);
	if (tree_written())
		violated("profile load -n wrote to a file");

	rc = load(false);
	if (!rc != !dry_rc)
		violated("profile load -n and profile load disagree");
	if (rc) {
		if (tree_written())
			violated("a failed profile load wrote to a file");
		return 0;
	}
	check_sane();
	if (tree_written()) {
		reset_tree();
		tree_written();
	}
	return 0;
}
