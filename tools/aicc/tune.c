// SPDX-License-Identifier: GPL-2.0
/*
 * aicc tune: re-tune the knobs for a fabric with the simulator-driven
 * optimiser (aicc-tune, tools/tune).  The verb runs the aicc-tune program
 * installed next to this one (or named by $AICC_TUNE), passing every
 * argument on: its output is a profile file for 'aicc profile load', or,
 * with --roce, a knob file for 'aicc rdma set --file'.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aicc_tool.h"

/* Path of the aicc-tune program: $AICC_TUNE, else next to this binary. */
static int tune_path(char *buf, size_t len)
{
	const char *env = getenv("AICC_TUNE");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		if (snprintf(buf, len, "%s", env) >= (int)len)
			return -ENAMETOOLONG;
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -errno;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	if (snprintf(buf, len, "%s/aicc-tune", self) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int cmd_tune(int argc, char **argv)
{
	char path[PATH_MAX];
	int rc;

	rc = tune_path(path, sizeof(path));
	if (rc) {
		err("tune: cannot locate aicc-tune: %s", strerror(-rc));
		return 1;
	}
	if (access(path, X_OK)) {
		err("tune: %s: %s (install aicc-tune, or set AICC_TUNE)", path,
		    strerror(errno));
		return 1;
	}
	/* argv[0] is the verb; aicc-tune gets its own name and the rest. */
	argv[0] = path;
	fflush(NULL);
	execv(path, argv);
	err("tune: cannot run %s: %s", path, strerror(errno));
	return 1;
}
