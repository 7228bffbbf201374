// SPDX-License-Identifier: GPL-2.0
/*
 * aicc(8) model: load, show and unload the learned policy's model.
 *
 *   aicc model load FILE     check FILE with the kernel's own parser
 *                            (module/core/aicc_model.c), then write it to
 *                            /sys/kernel/aicc/model in one write
 *   aicc model show [FILE]   the model in use (or FILE), its inputs'
 *                            trained ranges and the policy counters
 *   aicc model unload        back to the classic controller
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aicc_tool.h"
#include "aicc_model.h"
#include "aicc_policy.h"

static const char *const input_names[AICC_MODEL_NR_IN] = {
	[AICC_MI_QDELAY] = "qdelay/target",
	[AICC_MI_GRADIENT] = "rtt_gradient",
	[AICC_MI_ALPHA] = "ecn_alpha",
	[AICC_MI_DELIVERY] = "delivery/max",
	[AICC_MI_WIN_BDP] = "window/bdp",
	[AICC_MI_BUSY] = "busy_rtts/8",
	[AICC_MI_WINDOW] = "log2_window/4",
	[AICC_MI_CE_FRAC] = "ce_fraction",
};

static const char *const policy_stats[] = {
	"policy_evals", "policy_out_of_range", "policy_watchdog_trips",
	"policy_held_rounds",
};

/* Read a whole file of at most @size bytes; -1 (reported) on error. */
static long read_blob(const char *path, unsigned char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		err("%s: %s", path, errno_words(errno));
		return -1;
	}
	while (n < size) {
		r = read(fd, buf + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err("%s: %s", path, errno_words(errno));
			close(fd);
			return -1;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	return (long)n;
}

static void model_path(char *buf, size_t len, const char *file)
{
	snprintf(buf, len, "%s/%s", sysfs_root(), file);
}

static void print_model(const struct aicc_model *m, const char *src)
{
	int i;

	if (opt_json) {
		json_open_obj("model");
		json_str("source", src);
		json_str("name", m->name);
		json_u64("inputs", m->n_in);
		json_u64("hidden", m->n_hidden);
		json_u64("outputs", m->n_out);
		json_u64("bytes", m->len);
		{
			char crc[16];

			snprintf(crc, sizeof(crc), "%08x", m->crc);
			json_str("crc32", crc);
		}
		json_open_arr("profiles");
		for (i = 0; i < AICC_NR_PROFILES; i++)
			if (m->profiles & (1 << i))
				json_str(NULL, profile_table[i].name);
		json_close_arr();
		json_open_arr("input_range");
		for (i = 0; i < AICC_MODEL_NR_IN; i++) {
			json_open_obj(NULL);
			json_str("input", input_names[i]);
			json_double("min", m->in_min[i] / 4096.0);
			json_double("max", m->in_max[i] / 4096.0);
			json_close_obj();
		}
		json_close_arr();
		json_close_obj();
		return;
	}
	printf("model:    %s\n", src);
	printf("name:     %s\n", m->name[0] ? m->name : "(none)");
	printf("network:  %u inputs, %u hidden (hard tanh), %u outputs; %u bytes, crc32 %08x\n",
	       m->n_in, m->n_hidden, m->n_out, m->len, m->crc);
	printf("profiles:");
	for (i = 0; i < AICC_NR_PROFILES; i++)
		if (m->profiles & (1 << i))
			printf(" %s", profile_table[i].name);
	printf("\ninputs (trained range):\n");
	for (i = 0; i < AICC_MODEL_NR_IN; i++)
		printf("  %-14s %8.3f .. %8.3f\n", input_names[i],
		       m->in_min[i] / 4096.0, m->in_max[i] / 4096.0);
}

static void print_counters(void)
{
	char path[512];
	uint64_t v;
	int p, i;

	if (opt_json)
		json_open_obj("counters");
	else
		printf("counters:\n");
	model_path(path, sizeof(path), AICC_G_MODEL_LOADS);
	if (!read_u64_file(path, &v))
		opt_json ? json_u64("model_loads", v) :
			   (void)printf("  model_loads %llu\n",
					(unsigned long long)v);
	model_path(path, sizeof(path), AICC_G_MODEL_REJECTS);
	if (!read_u64_file(path, &v))
		opt_json ? json_u64("model_rejects", v) :
			   (void)printf("  model_rejects %llu\n",
					(unsigned long long)v);
	for (p = 0; p < AICC_NR_PROFILES; p++) {
		if (opt_json)
			json_open_obj(profile_table[p].name);
		for (i = 0; i < (int)(sizeof(policy_stats) /
				      sizeof(policy_stats[0])); i++) {
			snprintf(path, sizeof(path), "%s/%s/%s/%s",
				 sysfs_root(), profile_table[p].name,
				 AICC_STATS_DIR, policy_stats[i]);
			if (read_u64_file(path, &v))
				continue;
			if (opt_json)
				json_u64(policy_stats[i], v);
			else
				printf("  %s %s %llu\n", profile_table[p].name,
				       policy_stats[i], (unsigned long long)v);
		}
		if (opt_json)
			json_close_obj();
	}
	if (opt_json)
		json_close_obj();
}

/* Parse a blob read from @src; prints the problem and returns -1. */
static int parse_or_complain(const unsigned char *buf, long n,
			     const char *src, struct aicc_model *m)
{
	const char *why = "";

	if (n > AICC_MODEL_MAX_LEN) {
		err("%s: not a model: larger than %d bytes", src,
		    AICC_MODEL_MAX_LEN);
		return -1;
	}
	if (aicc_model_parse(buf, (u32)n, m, &why)) {
		err("%s: invalid model: %s", src, why);
		return -1;
	}
	return 0;
}

static int model_load(const char *file)
{
	unsigned char buf[AICC_MODEL_MAX_LEN + 1];
	struct aicc_model m;
	char path[512];
	long n = read_blob(file, buf, sizeof(buf));
	ssize_t w;
	int fd;

	if (n < 0 || parse_or_complain(buf, n, file, &m))
		return 1;
	if (require_module())
		return 1;
	model_path(path, sizeof(path), AICC_G_MODEL);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err("%s: %s", path, errno_words(errno));
		return 1;
	}
	do {
		w = write(fd, buf, (size_t)n);
	} while (w < 0 && errno == EINTR);
	if (w != n) {
		err("%s: %s", path, w < 0 ? errno_words(errno) : "short write");
		close(fd);
		return 1;
	}
	if (close(fd)) {
		err("%s: %s", path, errno_words(errno));
		return 1;
	}
	if (opt_json) {
		json_open_obj(NULL);
		json_str("loaded", file);
		json_str("name", m.name);
		json_close_obj();
		json_end();
	} else {
		printf("loaded %s: '%s', %u-%u-%u, crc32 %08x\n", file, m.name,
		       m.n_in, m.n_hidden, m.n_out, m.crc);
	}
	return 0;
}

/*
 * The model in use, read from sysfs.  Each read() returns the blob of that
 * moment, so a load between two of them could join two blobs, which would
 * not parse.  A blob that does not parse is read again: one that parses
 * then was torn, one read twice the same is what the kernel serves.
 * Returns its length (0: none), or -1 (reported) on error.
 */
static long read_live_model(const char *path,
			    unsigned char buf[AICC_MODEL_MAX_LEN + 1],
			    struct aicc_model *m)
{
	static unsigned char prev[AICC_MODEL_MAX_LEN + 1];
	const char *why;
	long n, pn = -1;
	int i;

	for (i = 0; i < 8; i++) {
		n = read_blob(path, buf, sizeof(prev));
		if (n <= 0)
			return n;
		if (n <= AICC_MODEL_MAX_LEN &&
		    !aicc_model_parse(buf, (u32)n, m, &why))
			return n;
		if (n == pn && !memcmp(prev, buf, (size_t)n))
			break;
		pn = n;
		memcpy(prev, buf, (size_t)n);
	}
	return parse_or_complain(buf, n, path, m) ? -1 : n;
}

static int model_show(const char *file)
{
	unsigned char buf[AICC_MODEL_MAX_LEN + 1];
	struct aicc_model m;
	char path[512];
	long n;

	if (file) {
		n = read_blob(file, buf, sizeof(buf));
		if (n < 0 || parse_or_complain(buf, n, file, &m))
			return 1;
		if (opt_json)
			json_open_obj(NULL);
		print_model(&m, file);
		if (opt_json) {
			json_close_obj();
			json_end();
		}
		return 0;
	}
	if (require_module())
		return 1;
	model_path(path, sizeof(path), AICC_G_MODEL);
	n = read_live_model(path, buf, &m);
	if (n < 0)
		return 1;
	if (opt_json) {
		json_open_obj(NULL);
		if (n)
			print_model(&m, path);
		else
			json_null("model");
	} else if (n) {
		print_model(&m, path);
	} else {
		printf("model:    none (every flow uses the classic controller)\n");
	}
	print_counters();
	if (opt_json) {
		json_close_obj();
		json_end();
	}
	return 0;
}

static int model_unload(void)
{
	char path[512];
	int ret;

	if (require_module())
		return 1;
	model_path(path, sizeof(path), AICC_G_MODEL_UNLOAD);
	/* a short write is EIO, a failed close its own errno */
	ret = write_u64_file(path, 1);
	if (ret) {
		err("%s: %s", path, errno_words(-ret));
		return 1;
	}
	if (opt_json) {
		json_open_obj(NULL);
		json_bool("unloaded", true);
		json_close_obj();
		json_end();
	} else {
		printf("model unloaded: every flow uses the classic controller\n");
	}
	return 0;
}

static void model_usage(FILE *f)
{
	fprintf(f,
		"Usage: aicc [-j] model load FILE | show [FILE] | unload\n"
		"  load FILE    check FILE and load it as the learned policy\n"
		"               (root; the model in use stays if FILE is rejected)\n"
		"  show [FILE]  the model in use (or FILE) and the policy counters\n"
		"  unload       remove the model: the classic controller alone\n");
}

int cmd_model(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub || is_help(sub) || (argc > 2 && is_help_flag(argv[argc - 1]))) {
		model_usage(sub ? stdout : stderr);
		return sub ? 0 : EXIT_USAGE;
	}
	if (!strcmp(sub, "load") && argc == 3)
		return model_load(argv[2]);
	if (!strcmp(sub, "show") && argc <= 3)
		return model_show(argc == 3 ? argv[2] : NULL);
	if (!strcmp(sub, "unload") && argc == 2)
		return model_unload();
	if (strcmp(sub, "load") && strcmp(sub, "show") && strcmp(sub, "unload"))
		err("model: unknown command '%s' (try 'aicc model -h')", sub);
	else
		err("model %s: wrong arguments (try 'aicc model -h')", sub);
	return EXIT_USAGE;
}
