// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-mkfake DIR: build a fake /sys/kernel/aicc under DIR for the aicc
 * tool's unit tests, from the same tables the module uses: one file per
 * knob holding its shipped default, stats/ with zero counters, the global
 * files.  Test-only; not installed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "aicc_types.h"
#include "aicc.h"
#include "aicc_defaults.h"

static int put(const char *dir, const char *name, const char *val)
{
	char path[8400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%s\n", val) < 0 || fclose(f)) {
		fprintf(stderr, "aicc-mkfake: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int mkdir_p(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST) {
		fprintf(stderr, "aicc-mkfake: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char dir[4096], sdir[4200], val[32];
	unsigned int p, k, s;

	if (argc != 2) {
		fprintf(stderr, "usage: aicc-mkfake DIR\n");
		return 2;
	}
	if (mkdir_p(argv[1]) ||
	    put(argv[1], AICC_G_VERSION, AICC_VERSION) ||
	    put(argv[1], AICC_G_RATE_MEMORY, "1") ||
	    put(argv[1], AICC_G_RATE_MEMORY_ENTRIES, "1024") ||
	    put(argv[1], AICC_G_RATE_MEMORY_USED, "0"))
		return 1;
	for (p = 0; p < AICC_NR_PROFILES; p++) {
		snprintf(dir, sizeof(dir), "%s/%s", argv[1], aicc_profile_desc[p].name);
		snprintf(sdir, sizeof(sdir), "%s/%s", dir, AICC_STATS_DIR);
		if (mkdir_p(dir) || mkdir_p(sdir))
			return 1;
		for (k = 0; k < AICC_NR_KNOBS; k++) {
			snprintf(val, sizeof(val), "%u", aicc_default_knobs[p][k]);
			if (put(dir, aicc_knob_desc[k].name, val))
				return 1;
		}
		for (s = 0; s < AICC_NR_STATS; s++)
			if (put(sdir, aicc_stat_desc[s].name, "0"))
				return 1;
	}
	return 0;
}
