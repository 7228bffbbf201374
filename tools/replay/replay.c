// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-replay: feed the calls the kernel module made into its core, as
 * recorded by the aicc:aicc_core tracepoint, to the userspace build of
 * the same core, and check that every call leaves the same flow state
 * and reports the same events, byte for byte.
 *
 *   echo counter > /sys/kernel/tracing/trace_clock
 *   echo 1 > /sys/kernel/tracing/events/aicc/aicc_core/enable
 *   ... traffic ...
 *   aicc-replay /sys/kernel/tracing/trace
 *
 * The replay uses each profile's default knobs: record with the module's
 * knobs untouched.  Flows whose init was not recorded are skipped.  After
 * a mismatch the flow continues from the recorded state, so one
 * difference is reported once, not for every later call.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aicc_core.h"
#include "aicc_replay.h"

#define MAX_FLOWS	65536	/* power of two */
#define KEY_LEN		96

struct rflow {
	char key[KEY_LEN];	/* the socket's (hashed) address */
	struct aicc_flow f;
	u64 last_now;		/* the last ACK's clock: never goes back */
	unsigned int profile;
	int used;
};

struct record {
	char key[KEY_LEN];
	unsigned int call;
	unsigned int ret;
	unsigned long long arg[AICC_TRACE_ARGS];
	unsigned char in[AICC_TRACE_IN_LEN];
	size_t in_len;
	unsigned char out[AICC_TRACE_OUT_LEN];
};

struct counts {
	unsigned long calls, per_call[AICC_NR_TC], flows, skipped;
	unsigned long rounds, cuts, restarts, mismatches, with_model;
};

static struct rflow flows[MAX_FLOWS];
static struct aicc_params params[AICC_NR_PROFILES];
static int verbose;

static const char *const call_name[AICC_NR_TC] = {
	[AICC_TC_INIT] = "init",
	[AICC_TC_SEED] = "seed_rtt",
	[AICC_TC_ACK] = "ack",
	[AICC_TC_ADOPT] = "adopt_base",
	[AICC_TC_TX_START] = "tx_start",
	[AICC_TC_RTO] = "rto",
	[AICC_TC_UNDO] = "undo",
};

/*
 * Field names for mismatch reports, every member of struct aicc_flow in
 * order: fields_cover_flow() refuses to run if one is left out.
 */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define FIELD(f)	{ #f, offsetof(struct aicc_flow, f),		\
			  sizeof(((struct aicc_flow *)0)->f) }
static const struct {
	const char *name;
	size_t off, len;
} fields[] = {
	FIELD(cwnd), FIELD(rate), FIELD(inv_rtt), FIELD(base_rtt),
	FIELD(base_stamp), FIELD(round_end), FIELD(round_ce0),
	FIELD(round_rtt), FIELD(prev_rtt), FIELD(last_del), FIELD(target),
	FIELD(qdelay), FIELD(busy_start), FIELD(busy_del0), FIELD(mss),
	FIELD(alpha), FIELD(mode), FIELD(flags), FIELD(profile),
	FIELD(pol_hist), FIELD(del_max), FIELD(pol_hold), FIELD(xflags),
};

/* The fields follow each other to the struct's end, no byte unnamed. */
static int fields_cover_flow(void)
{
	size_t i, end = 0;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (fields[i].off != end)
			return 0;
		end += fields[i].len;
	}
	return end == sizeof(struct aicc_flow);
}

static unsigned long hash_key(const char *s)
{
	unsigned long h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* The flow slot for a key; a new one only when 'create'. */
static struct rflow *flow_slot(const char *key, int create)
{
	unsigned long i = hash_key(key) & (MAX_FLOWS - 1);
	unsigned long n;

	for (n = 0; n < MAX_FLOWS; n++, i = (i + 1) & (MAX_FLOWS - 1)) {
		if (!flows[i].used) {
			if (!create)
				return NULL;
			flows[i].used = 1;
			snprintf(flows[i].key, KEY_LEN, "%s", key);
			return &flows[i];
		}
		if (!strcmp(flows[i].key, key))
			return &flows[i];
	}
	return NULL;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode "name=HEX" at *p into buf; returns the byte count or -1. */
static long parse_hex(const char **p, const char *name, unsigned char *buf,
		      size_t max)
{
	size_t n = strlen(name), len = 0;
	const char *s = *p;

	if (strncmp(s, name, n) || s[n] != '=')
		return -1;
	s += n + 1;
	while (hexval(s[0]) >= 0) {
		if (hexval(s[1]) < 0 || len == max)
			return -1;
		buf[len++] = (unsigned char)(hexval(s[0]) << 4 | hexval(s[1]));
		s += 2;
	}
	while (*s == ' ')
		s++;
	*p = s;
	return (long)len;
}

/*
 * Parse one trace line.  Returns 1 for a record, 0 for a line that is not
 * an aicc_core event, -1 for a malformed one.
 */
static int parse_line(const char *line, struct record *r)
{
	const char *p = strstr(line, "aicc_core: ");
	char *end;
	long n;
	int i;

	if (!p)
		return 0;
	p += strlen("aicc_core: ");
	if (strncmp(p, "sk=", 3))
		return -1;
	p += 3;
	n = strcspn(p, " ");
	if (n == 0 || n >= KEY_LEN)
		return -1;
	memcpy(r->key, p, n);
	r->key[n] = '\0';
	p += n;
	if (strncmp(p, " call=", 6))
		return -1;
	r->call = strtoul(p + 6, &end, 10);
	if (end == p + 6 || r->call >= AICC_NR_TC)
		return -1;
	p = end;
	if (strncmp(p, " ret=", 5))
		return -1;
	r->ret = strtoul(p + 5, &end, 0);
	if (end == p + 5)
		return -1;
	p = end;
	if (strncmp(p, " arg=", 5))
		return -1;
	p += 5;
	for (i = 0; i < AICC_TRACE_ARGS; i++) {
		errno = 0;
		r->arg[i] = strtoull(p, &end, 16);
		if (end == p || errno)
			return -1;
		p = end;
		if (i < AICC_TRACE_ARGS - 1 && *p++ != ',')
			return -1;
	}
	if (*p++ != ' ')
		return -1;
	n = parse_hex(&p, "in", r->in, sizeof(r->in));
	if (n < 0)
		return -1;
	r->in_len = n;
	n = parse_hex(&p, "out", r->out, sizeof(r->out));
	if (n != (long)sizeof(r->out))
		return -1;
	return 1;
}

static void report(unsigned long lineno, const struct record *r,
		   const struct aicc_flow *got, unsigned int ev)
{
	const unsigned char *a = (const void *)got;
	size_t i;

	printf("line %lu: %s on sk=%s differs:", lineno, call_name[r->call],
	       r->key);
	if (ev != r->ret)
		printf(" events 0x%x (kernel 0x%x)", ev, r->ret);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		size_t off = fields[i].off, len = fields[i].len;
		unsigned long long x = 0, y = 0;

		if (!memcmp(a + off, r->out + off, len))
			continue;
		memcpy(&x, a + off, len > sizeof(x) ? sizeof(x) : len);
		memcpy(&y, r->out + off, len > sizeof(y) ? sizeof(y) : len);
		printf(" %s %llu (kernel %llu)", fields[i].name, x, y);
	}
	putchar('\n');
}

static int replay(const struct record *r, struct counts *c,
		  unsigned long lineno)
{
	struct aicc_sample s;
	struct aicc_memval mem;
	struct rflow *fl;
	const struct aicc_params *p;
	unsigned int ev = 0;

	fl = flow_slot(r->key, r->call == AICC_TC_INIT);
	if (!fl && r->call == AICC_TC_INIT)
		return -1;		/* table full */
	if (!fl) {
		/* began before the recording: name the first few */
		if (++c->skipped <= 5)
			printf("line %lu: %s on sk=%s skipped: no init recorded\n",
			       lineno, call_name[r->call], r->key);
		return 0;
	}
	switch (r->call) {
	case AICC_TC_INIT:
		/* arg 1: mss | delivered_ce << 32, arg 3: profile | delivered << 32 */
		if ((u32)r->arg[3] >= AICC_NR_PROFILES ||
		    (r->in_len && r->in_len != sizeof(mem)))
			return -1;
		fl->profile = (u32)r->arg[3];
		p = &params[fl->profile];
		if (r->in_len)
			memcpy(&mem, r->in, sizeof(mem));
		ev = aicc_flow_init(&fl->f, p, (u32)r->arg[0], (u32)r->arg[1],
				    r->arg[2], (u32)(r->arg[3] >> 32),
				    (u32)(r->arg[1] >> 32),
				    r->in_len ? &mem : NULL);
		fl->f.profile = (u8)fl->profile;
		fl->last_now = 0;
		c->flows++;
		break;
	case AICC_TC_SEED:
		aicc_flow_seed_rtt(&fl->f, &params[fl->profile],
				   (u32)r->arg[0], r->arg[1]);
		break;
	case AICC_TC_ACK:
		if (r->in_len != sizeof(s))
			return -1;
		if (r->arg[0]) {
			c->with_model++;
			return -1;
		}
		memcpy(&s, r->in, sizeof(s));
		s.model = NULL;
		/*
		 * One socket's ACKs are serialised by its lock, so their
		 * clock (the socket's tcp_mstamp) only grows.  A step back
		 * means the trace listed two calls out of order: a trace
		 * clock not ordered across CPUs (use "counter").
		 */
		if (s.now_ns < fl->last_now)
			return -3;
		fl->last_now = s.now_ns;
		ev = aicc_on_ack(&fl->f, &params[fl->profile], &s);
		break;
	case AICC_TC_ADOPT:
		mem.base_rtt = (u32)r->arg[0];
		mem.base_stamp = (u32)r->arg[1];
		aicc_flow_adopt_base(&fl->f, &params[fl->profile], &mem,
				     r->arg[2]);
		break;
	case AICC_TC_TX_START:
		ev = aicc_on_tx_start(&fl->f, &params[fl->profile], r->arg[0],
				      r->arg[1], (u32)r->arg[2],
				      (u32)r->arg[3]);
		break;
	case AICC_TC_RTO:
		ev = aicc_on_rto(&fl->f, &params[fl->profile], (u32)r->arg[0],
				 (u32)r->arg[1]);
		break;
	case AICC_TC_UNDO:
		ev = aicc_on_undo(&fl->f, &params[fl->profile],
				  (u32)r->arg[0]);
		break;
	}
	c->calls++;
	c->per_call[r->call]++;
	if (ev & AICC_EV_ROUND)
		c->rounds++;
	if (ev & (AICC_EV_DELAY_CUT | AICC_EV_ECN_CUT | AICC_EV_LOSS_CUT))
		c->cuts++;
	/* either way out of an idle gap, whichever the profile's knob picks */
	if (ev & (AICC_EV_IDLE_RESUME | AICC_EV_IDLE_RESET))
		c->restarts++;
	if (ev != r->ret || memcmp(&fl->f, r->out, sizeof(fl->f))) {
		c->mismatches++;
		if (verbose || c->mismatches <= 20)
			report(lineno, r, &fl->f, ev);
		/* Go on from the kernel's state. */
		memcpy(&fl->f, r->out, sizeof(fl->f));
		return 1;
	}
	return 0;
}

static void help(FILE *f)
{
	fputs("usage: aicc-replay [-v] [TRACE]\n"
	      "Replay the aicc:aicc_core events of a trace (default: standard\n"
	      "input) through the userspace core and compare every decision.\n"
	      "Exit status: 0 all identical, 1 a decision differs, 2 bad input.\n",
	      f);
}

/*
 * The trace file's header line "# entries-in-buffer/entries-written: N/M":
 * fewer in the buffer than written means the ring buffer overwrote the
 * oldest M - N, so some flows' calls are missing from their middle (one
 * CPU's buffer wraps before another's), not only from before their init.
 */
static bool trace_overwritten(const char *line, unsigned long long *lost)
{
	static const char tag[] = "# entries-in-buffer/entries-written:";
	unsigned long long in_buf, written;

	if (strncmp(line, tag, sizeof(tag) - 1) ||
	    sscanf(line + sizeof(tag) - 1, "%llu/%llu", &in_buf, &written) != 2 ||
	    in_buf >= written)
		return false;
	*lost = written - in_buf;
	return true;
}

int main(int argc, char **argv)
{
	unsigned long long lost;
	unsigned long lineno = 0;
	struct counts c = { 0 };
	u32 knob[AICC_NR_KNOBS];
	const char *path = NULL;
	struct record r;
	char line[4096];
	unsigned int i;
	FILE *in;
	int rc;

	if (!fields_cover_flow()) {
		fprintf(stderr, "aicc-replay: internal error: its field table misses a member of struct aicc_flow\n");
		return 2;
	}
	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			help(stdout);
			return 0;
		} else if (!path && argv[i][0] != '-') {
			path = argv[i];
		} else {
			help(stderr);
			return 2;
		}
	}
	for (i = 0; i < AICC_NR_PROFILES; i++) {
		aicc_params_defaults(knob, i);
		aicc_params_set(&params[i], knob);
	}
	in = path ? fopen(path, "r") : stdin;
	if (!in) {
		fprintf(stderr, "aicc-replay: %s: %s\n", path, strerror(errno));
		return 2;
	}
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(in)) {
			fprintf(stderr, "aicc-replay: line %lu: too long\n",
				lineno);
			return 2;
		}
		if (trace_overwritten(line, &lost)) {
			fprintf(stderr,
				"aicc-replay: line %lu: the ring buffer overwrote %llu of the trace's events (enlarge buffer_size_kb)\n",
				lineno, lost);
			return 2;
		}
		if (strstr(line, "LOST") && strstr(line, "EVENTS")) {
			fprintf(stderr,
				"aicc-replay: line %lu: the trace lost events (enlarge buffer_size_kb)\n",
				lineno);
			return 2;
		}
		rc = parse_line(line, &r);
		if (rc == 0)
			continue;
		if (rc > 0)
			rc = replay(&r, &c, lineno);
		if (rc == -3) {
			fprintf(stderr,
				"aicc-replay: line %lu: this socket's calls are out of order (record with trace_clock counter)\n",
				lineno);
			return 2;
		}
		if (rc < 0) {
			fprintf(stderr, "aicc-replay: line %lu: %s\n", lineno,
				c.with_model ?
				"recorded with a learned-policy model loaded (replay needs none)" :
				"malformed aicc_core record");
			return 2;
		}
	}
	if (path)
		fclose(in);
	printf("aicc-replay: %lu calls on %lu flows (", c.calls, c.flows);
	for (i = 0; i < AICC_NR_TC; i++)
		printf("%s%s %lu", i ? ", " : "", call_name[i], c.per_call[i]);
	printf("); %lu rounds, %lu cuts, %lu idle restarts; %lu skipped; %lu mismatches\n",
	       c.rounds, c.cuts, c.restarts, c.skipped, c.mismatches);
	return c.mismatches ? 1 : 0;
}
