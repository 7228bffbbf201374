// SPDX-License-Identifier: GPL-2.0
/*
 * aiccgen: wire encoding, message queues, time, errors, argument parsing,
 * statistics and the JSON writer.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "aiccgen.h"
#include "tools/aicc/utf8.h"

uint8_t gen_zero[GEN_IOBUF];
uint8_t gen_scratch[GEN_IOBUF];
volatile sig_atomic_t gen_stop;
int gen_stop_fd = -1;
static int stop_wfd = -1;
const char *gen_mode;
int gen_stdout_errno;

/* ---- byte order helpers ---- */

static void put16(uint8_t *b, uint16_t v)
{
	b[0] = v >> 8;
	b[1] = v;
}

static void put32(uint8_t *b, uint32_t v)
{
	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static void put64(uint8_t *b, uint64_t v)
{
	put32(b, v >> 32);
	put32(b + 4, (uint32_t)v);
}

static uint16_t get16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static uint32_t get32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static uint64_t get64(const uint8_t *b)
{
	return (uint64_t)get32(b) << 32 | get32(b + 4);
}

static void put_name(uint8_t *b, const char *s)
{
	memset(b, 0, GEN_CC_LEN);
	if (s)
		memcpy(b, s, strnlen(s, GEN_CC_LEN - 1));
}

static void get_name(char *s, const uint8_t *b)
{
	memcpy(s, b, GEN_CC_LEN);
	s[GEN_CC_LEN - 1] = '\0';
}

/*
 * Session: magic(4) version(1) mode(1) flags(2) conn_id(4) reserved(4)
 * cc(16).  Hello: magic(4) version(1) status(1) reserved(10) cc(16).
 * Message: magic(4) seq(4) kind(2) flags(2) resp_len(4) len(8).
 * Session and hello share magic, version, byte 5 and the name at 16.
 */
static void put_head(uint8_t *b, unsigned int len, uint8_t b5, const char *cc)
{
	memset(b, 0, len);
	put32(b, WIRE_MAGIC);
	b[4] = WIRE_VERSION;
	b[5] = b5;
	put_name(b + 16, cc);
}

/* -1: not ours (magic), -2: another protocol version. */
static int get_head(const uint8_t *b, uint8_t *b5, char *cc)
{
	if (get32(b) != WIRE_MAGIC)
		return -1;
	if (b[4] != WIRE_VERSION)
		return -2;
	*b5 = b[5];
	get_name(cc, b + 16);
	return 0;
}

void wire_put_session(uint8_t *b, const struct wire_session *s)
{
	put_head(b, WIRE_SESSION_LEN, s->mode, s->cc);
	put32(b + 8, s->conn_id);
}

int wire_get_session(const uint8_t *b, struct wire_session *s)
{
	int e = get_head(b, &s->mode, s->cc);

	if (e)
		return e;
	s->conn_id = get32(b + 8);
	return 0;
}

void wire_put_hello(uint8_t *b, const struct wire_hello *h)
{
	put_head(b, WIRE_HELLO_LEN, h->status, h->cc);
}

int wire_get_hello(const uint8_t *b, struct wire_hello *h)
{
	return get_head(b, &h->status, h->cc);
}

void wire_put_msg(uint8_t *b, const struct wire_msg *m)
{
	put32(b, WIRE_MSG_MAGIC);
	put32(b + 4, m->seq);
	put16(b + 8, m->kind);
	put16(b + 10, m->flags);
	put32(b + 12, m->resp_len);
	put64(b + 16, m->len);
}

int wire_get_msg(const uint8_t *b, struct wire_msg *m)
{
	if (get32(b) != WIRE_MSG_MAGIC)
		return -1;
	m->seq = get32(b + 4);
	m->kind = get16(b + 8);
	m->flags = get16(b + 10);
	m->resp_len = get32(b + 12);
	m->len = get64(b + 16);
	if (m->kind < MSG_REQ || m->kind > MSG_ACK)
		return -1;
	return 0;
}

/* ---- transmit queue ---- */

void txq_set_raw(struct txq *q, const uint8_t *b, unsigned int len)
{
	if (len > sizeof(q->raw))
		len = sizeof(q->raw);
	memcpy(q->raw, b, len);
	q->raw_len = len;
	q->raw_off = 0;
}

int txq_push(struct txq *q, const struct wire_msg *m)
{
	struct txq_item *it;

	if (q->count == q->cap) {
		unsigned int ncap = q->cap ? q->cap * 2 : 16;
		struct txq_item *n = malloc(ncap * sizeof(*n));
		unsigned int i;

		if (!n)
			return -ENOMEM;
		for (i = 0; i < q->count; i++)
			n[i] = q->items[(q->head + i) % q->cap];
		free(q->items);
		q->items = n;
		q->cap = ncap;
		q->head = 0;
	}
	it = &q->items[(q->head + q->count) % q->cap];
	wire_put_msg(it->hdr, m);
	it->len = m->len;
	q->count++;
	return 0;
}

bool txq_empty(const struct txq *q)
{
	return q->raw_off >= q->raw_len && q->count == 0;
}

/*
 * Write as much as the socket takes, at most "limit" bytes when limit is
 * non-zero.  Returns the number of bytes written (0 when the socket is
 * full) or -errno.
 */
ssize_t txq_flush_limit(struct txq *q, int fd, size_t limit)
{
	size_t total = 0;

	for (;;) {
		struct iovec iov[2];
		struct msghdr mh = { .msg_iov = iov };
		size_t want = 0, h;
		ssize_t r;

		if (limit && total >= limit)
			break;
		if (q->raw_off < q->raw_len) {
			iov[0].iov_base = q->raw + q->raw_off;
			iov[0].iov_len = q->raw_len - q->raw_off;
			mh.msg_iovlen = 1;
		} else if (q->count) {
			struct txq_item *it = &q->items[q->head];

			if (q->hoff < WIRE_MSG_LEN) {
				iov[0].iov_base = it->hdr + q->hoff;
				iov[0].iov_len = WIRE_MSG_LEN - q->hoff;
				mh.msg_iovlen = 1;
			}
			if (q->poff < it->len) {
				uint64_t rem = it->len - q->poff;

				/* Honour the limit so that slices interleave. */
				if (limit && rem > limit - total)
					rem = limit - total;
				iov[mh.msg_iovlen].iov_base = gen_zero;
				iov[mh.msg_iovlen].iov_len =
					rem < GEN_IOBUF ? rem : GEN_IOBUF;
				mh.msg_iovlen++;
			}
		} else {
			break;
		}
		if (mh.msg_iovlen == 0) {
			/* Empty payload and header already out: pop. */
			goto pop;
		}
		for (unsigned int i = 0; i < mh.msg_iovlen; i++)
			want += iov[i].iov_len;
		r = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return -errno;
		}
		total += r;
		q->bytes += r;
		if (q->raw_off < q->raw_len) {
			q->raw_off += r;
			continue;
		}
		h = WIRE_MSG_LEN - q->hoff;
		if ((size_t)r < h)
			h = r;
		q->hoff += h;
		q->poff += r - h;
		if (q->hoff < WIRE_MSG_LEN || q->poff < q->items[q->head].len) {
			if ((size_t)r < want)
				break;	/* short write: socket full */
			continue;
		}
pop:
		q->head = (q->head + 1) % q->cap;
		q->count--;
		q->hoff = 0;
		q->poff = 0;
	}
	return total;
}

int txq_flush(struct txq *q, int fd)
{
	ssize_t r = txq_flush_limit(q, fd, 0);

	return r < 0 ? (int)r : 0;
}

void txq_free(struct txq *q)
{
	free(q->items);
	q->items = NULL;
	q->cap = 0;
	q->count = 0;
	q->head = 0;
}

/* ---- receive parser ---- */

int rxp_feed(struct rxp *p, const uint8_t *buf, size_t n,
	     const struct rxp_ops *ops, void *ctx)
{
	int r;

	p->bytes += n;
	while (n) {
		if (!p->in_payload) {
			size_t take = WIRE_MSG_LEN - p->hoff;

			if (take > n)
				take = n;
			memcpy(p->hb + p->hoff, buf, take);
			p->hoff += take;
			buf += take;
			n -= take;
			if (p->hoff < WIRE_MSG_LEN)
				break;
			p->hoff = 0;
			if (wire_get_msg(p->hb, &p->cur))
				return -EPROTO;
			if (ops->hdr) {
				r = ops->hdr(ctx, &p->cur);
				if (r)
					return r;
			}
			p->left = p->cur.len;
			p->in_payload = true;
		}
		if (p->in_payload) {
			uint64_t take = p->left < n ? p->left : n;

			p->left -= take;
			buf += take;
			n -= take;
			if (p->left == 0) {
				p->in_payload = false;
				if (ops->done) {
					r = ops->done(ctx, &p->cur);
					if (r)
						return r;
				}
			}
		}
	}
	return 0;
}

/* ---- time, signals, messages ---- */

/*
 * now + secs in nanoseconds, computed in double: a deadline past 2^63 ns
 * (292 years; a product of the largest options can reach 1.8e20 ns,
 * beyond uint64_t, where the conversion is undefined) is UINT64_MAX,
 * which never passes.  secs is not negative.
 */
uint64_t ns_after(uint64_t now, double secs)
{
	double ns = secs * 1e9;

	if (!(ns < 9e18))
		return UINT64_MAX;
	return now + (uint64_t)ns;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * A signal may come after a loop looked at gen_stop and before it sleeps
 * in epoll_wait(): the byte written here makes gen_stop_fd readable, and
 * every loop's epoll set (loop_init()) wakes up on it.  It is never read:
 * a stop, once asked for, stays.
 */
static void on_signal(int sig)
{
	int e = errno;
	ssize_t r;

	gen_stop = 1;
	/* a full pipe (signals before) is readable already */
	r = write(stop_wfd, "", 1);
	(void)r;
	errno = e;
}

void gen_signals(void)
{
	struct sigaction sa;
	int p[2];

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0) {
		gen_err("pipe: %s", strerror(errno));
		exit(GEN_EXIT_RUN);
	}
	gen_stop_fd = p[0];
	stop_wfd = p[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

static void vmsg(const char *fmt, va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (gen_mode)
		fprintf(stderr, "%s: %s: %s\n", GEN_NAME, gen_mode, buf);
	else
		fprintf(stderr, "%s: %s\n", GEN_NAME, buf);
}

void gen_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void gen_usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(GEN_EXIT_USAGE);
}

/*
 * Whether getopt's error is about the long option in arg ("--name" or
 * "--name=value"): one it does not know (optopt 0), or, with a value, one
 * that takes none (optopt is its val).  Otherwise it is about the short
 * option optopt, and arg may be the argument before its group (-xj: getopt
 * stops at x before it moves past the group).
 */
static bool bad_opt_is_long(const char *arg, const struct option *lo)
{
	const char *eq;

	if (strncmp(arg, "--", 2))
		return false;
	if (!optopt)
		return true;
	eq = strchr(arg, '=');
	if (!eq)
		return false;
	for (; lo->name; lo++)
		if (lo->val == optopt && lo->has_arg == no_argument &&
		    strlen(lo->name) == (size_t)(eq - arg - 2) &&
		    !strncmp(lo->name, arg + 2, eq - arg - 2))
			return true;
	return false;
}

/*
 * The catch-all of a mode's option switch: opt is ':' (an option without
 * its argument) or an option getopt did not know; lo the long options.
 */
void gen_bad_opt(int opt, char **argv, const struct option *lo)
{
	const char *arg = argv[optind - 1];
	char name[3] = { '-', (char)optopt, '\0' };

	/* an option missing its argument is the last one: arg */
	if (opt == ':')
		gen_usage_err("option '%s' needs an argument",
			      strncmp(arg, "--", 2) ? name : arg);
	gen_usage_err("unknown option '%s' (try '%s %s -h')",
		      bad_opt_is_long(arg, lo) ? arg : name, GEN_NAME,
		      gen_mode);
}

void gen_flush(FILE *f)
{
	if (fflush(f) && f == stdout && !gen_stdout_errno)
		gen_stdout_errno = errno ? errno : EIO;
}

/* After a mode's options: no operands may follow. */
void gen_no_operands(int argc, char **argv)
{
	if (optind < argc)
		gen_usage_err("unexpected argument '%s'", argv[optind]);
}

/* ---- argument parsing ---- */

uint64_t parse_uint(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!s || !isdigit((unsigned char)*s))
		goto bad;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		goto bad;
	return v;
bad:
	gen_usage_err("%s: expected an integer in %llu..%llu, got '%s'", opt,
		      (unsigned long long)min, (unsigned long long)max,
		      s ? s : "");
}

uint64_t parse_size(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	unsigned long long v, mul = 1;
	char *end;

	errno = 0;
	if (!s || !isdigit((unsigned char)*s))
		goto bad;
	v = strtoull(s, &end, 10);
	if (errno)
		goto bad;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		mul = 1ull << 10;
		break;
	case 'm': case 'M':
		mul = 1ull << 20;
		break;
	case 'g': case 'G':
		mul = 1ull << 30;
		break;
	default:
		goto bad;
	}
	if (*end && end[1])
		goto bad;
	if (v > max / mul || v * mul < min || v * mul > max)
		goto bad;
	return v * mul;
bad:
	gen_usage_err("%s: expected a size in bytes (suffix K, M, G) in %llu..%llu, got '%s'",
		      opt, (unsigned long long)min, (unsigned long long)max,
		      s ? s : "");
}

/*
 * A decimal number: digits and a point, an exponent allowed.  strtod()
 * alone would also take a sign ('-0' for a value that cannot be
 * negative), hexadecimal ('0x10' for 16) and leading white space.
 */
double parse_double(const char *opt, const char *s, double min, double max)
{
	double v;
	char *end;

	errno = 0;
	if (!s || !(isdigit((unsigned char)*s) || *s == '.') ||
	    s[strspn(s, "0123456789.eE+-")])
		goto bad;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		goto bad;
	return v;
bad:
	gen_usage_err("%s: expected a number in %g..%g, got '%s'", opt, min,
		      max, s ? s : "");
}

const char *parse_cc(const char *opt, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n == 0 || n >= GEN_CC_LEN)
		gen_usage_err("%s: congestion control name must be 1..%d characters, got '%s'",
			      opt, GEN_CC_LEN - 1, s ? s : "");
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			gen_usage_err("%s: invalid congestion control name '%s'",
				      opt, s);
	return s;
}

/* ---- statistics ---- */

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Nearest-rank percentile of a sorted array (n > 0), p to 1/100 of a
 * percent: the rank ceil(p * n / 100) in integers, since in doubles 99.9 /
 * 100 * 1000 is 999.0000000000001 and took the maximum for p99.9.
 */
uint64_t pct_sorted(const uint64_t *v, size_t n, double p)
{
	uint64_t bp = (uint64_t)llround(p < 0 ? 0 : p * 100);
	uint64_t r = (bp * n + 9999) / 10000;
	size_t i = r < 1 ? 0 : (size_t)r - 1;

	if (i >= n)
		i = n - 1;
	return v[i];
}

double jain_index(const double *x, int n)
{
	double s = 0, sq = 0;

	for (int i = 0; i < n; i++) {
		s += x[i];
		sq += x[i] * x[i];
	}
	if (n == 0 || sq == 0)
		return 0;
	return s * s / (n * sq);
}

/* A state of 0 would stay 0: it is taken for the constant below. */
uint64_t prng_next(uint64_t *s)
{
	uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

double prng_unit(uint64_t *s)
{
	return ((prng_next(s) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* ---- JSON writer ---- */

static void jw_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c >= 0x80) {
			s += utf8_put(f, (const unsigned char *)s) - 1;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void jw_sep(struct jw *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->f);
		w->first[w->depth] = false;
	}
	if (key) {
		jw_string(w->f, key);
		fputc(':', w->f);
	}
}

void jw_init(struct jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void jw_open(struct jw *w, const char *key, char c)
{
	jw_sep(w, key);
	fputc(c, w->f);
	if (w->depth < 31)
		w->depth++;
	w->first[w->depth] = true;
}

void jw_obj(struct jw *w, const char *key)
{
	jw_open(w, key, '{');
}

void jw_obj_end(struct jw *w)
{
	fputc('}', w->f);
	w->depth--;
}

void jw_arr(struct jw *w, const char *key)
{
	jw_open(w, key, '[');
}

void jw_arr_end(struct jw *w)
{
	fputc(']', w->f);
	w->depth--;
}

void jw_str(struct jw *w, const char *key, const char *v)
{
	if (!v) {
		jw_null(w, key);
		return;
	}
	jw_sep(w, key);
	jw_string(w->f, v);
}

void jw_int(struct jw *w, const char *key, long long v)
{
	jw_sep(w, key);
	fprintf(w->f, "%lld", v);
}

void jw_uint(struct jw *w, const char *key, unsigned long long v)
{
	jw_sep(w, key);
	fprintf(w->f, "%llu", v);
}

void jw_num(struct jw *w, const char *key, double v)
{
	jw_sep(w, key);
	if (isfinite(v))
		fprintf(w->f, "%.10g", v);
	else
		fputs("null", w->f);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_sep(w, key);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
	jw_sep(w, key);
	fputs("null", w->f);
}

void jw_end(struct jw *w)
{
	fputc('\n', w->f);
	gen_flush(w->f);
}
