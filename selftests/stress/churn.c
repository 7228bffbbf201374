// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-churn: many short TCP connections, for selftests/stress/test_stress.sh.
 *
 *   aicc-churn server -p PORT[,PORT...] [--cc NAME[,NAME...]]
 *		       [--bytes B]
 *	one listener per port, the i-th with the i-th congestion control
 *	(accepted sockets inherit it); reads each connection to its end,
 *	checking every byte against the pattern the client sends (and, with
 *	--bytes, the count), then closes it -- with a reset if anything was
 *	missing, extra or out of place, which the client sees as a failure.
 *	Runs until killed.
 *
 *   aicc-churn client -c HOST[,HOST...] -p PORT[,PORT...] -n N
 *		       [-P PARALLEL] [--cc NAME[,NAME...]] [--bytes B]
 *	opens N connections, PARALLEL at a time: connection i goes to port
 *	i mod #ports of host (i / #ports) mod #hosts, with congestion control
 *	(i / #ports) mod #names set before connect(); sends B bytes (default
 *	4096) of a position-dependent pattern, shuts down its side and reads
 *	until the server closes.  Prints
 *	"ok N failed M" and, per name, "cc NAME K"; exits 1 if any failed.
 *
 *   aicc-churn model FILE [--bad SEED]
 *	writes a valid learned-policy blob (neutral: every output 0) built
 *	with the core's own writer, or with --bad one corrupted from it in a
 *	way the parser must reject.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "aicc_core.h"
#include "aicc_policy.h"

#define MAX_LIST	64	/* ports, algorithms */
#define MAX_HOSTS	512	/* peers: STRESS_LONG fills the cache from 256 */

static _Noreturn void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "aicc-churn: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

/* Split a comma list of at most max items in place; returns the count. */
static int split(char *s, char **out, int max)
{
	int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max) {
			char msg[160];

			snprintf(msg, sizeof(msg),
				 "too many items in a list (max %d): '%.100s'",
				 max, tok);
			die("%s", msg);
		}
		out[n++] = tok;
	}
	return n;
}

static long number(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		die("bad %s", what);
	return v;
}

/* The byte at offset @k of every connection's stream. */
static unsigned char pattern(unsigned long long k)
{
	return (unsigned char)(k * 131 + (k >> 8) * 7 + 1);
}

/* ---- server ---- */

#define MAX_FD		65536

static unsigned long long rx_off[MAX_FD];
static unsigned char rx_bad[MAX_FD];
static long bytes;

static int server(int nports, char **ports, int ncc, char **ccs)
{
	struct epoll_event ev, evs[64];
	int ep, i, n, one = 1;
	static unsigned char buf[65536];

	signal(SIGPIPE, SIG_IGN);
	ep = epoll_create1(0);
	if (ep < 0)
		die("epoll_create1: %s", strerror(errno));
	for (i = 0; i < nports; i++) {
		struct sockaddr_in6 a = { .sin6_family = AF_INET6 };
		int s = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK, 0);
		int v6only = 0;

		if (s < 0)
			die("socket: %s", strerror(errno));
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
		if (ncc && setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, ccs[i % ncc],
				      strlen(ccs[i % ncc])))
			die("TCP_CONGESTION on the listener: %s", strerror(errno));
		a.sin6_port = htons(number(ports[i], 1, 65535, "port"));
		a.sin6_addr = in6addr_any;
		if (bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 4096))
			die("bind/listen: %s", strerror(errno));
		ev.events = EPOLLIN;
		ev.data.u64 = (1ULL << 32) | (unsigned int)s;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, s, &ev))
			die("epoll_ctl: %s", strerror(errno));
	}
	printf("listening\n");
	fflush(stdout);
	for (;;) {
		n = epoll_wait(ep, evs, 64, -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("epoll_wait: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			int fd = (int)(evs[i].data.u64 & 0xffffffffU);
			ssize_t r;

			if (evs[i].data.u64 >> 32) {
				int c;

				while ((c = accept4(fd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
					if (c >= MAX_FD) {
						close(c);
						continue;
					}
					rx_off[c] = 0;
					rx_bad[c] = 0;
					ev.events = EPOLLIN | EPOLLRDHUP;
					ev.data.u64 = (unsigned int)c;
					if (epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev))
						close(c);
				}
				continue;
			}
			while ((r = read(fd, buf, sizeof(buf))) > 0) {
				ssize_t k;

				for (k = 0; k < r; k++)
					if (buf[k] != pattern(rx_off[fd] + k))
						rx_bad[fd] = 1;
				rx_off[fd] += r;
			}
			if (r == 0 || (r < 0 && errno != EAGAIN)) {
				epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
				if (rx_bad[fd] ||
				    (bytes && rx_off[fd] != (unsigned long long)bytes)) {
					struct linger rst = { .l_onoff = 1 };

					fprintf(stderr, "aicc-churn: bad stream: %llu bytes%s\n",
						rx_off[fd], rx_bad[fd] ? ", wrong data" : "");
					setsockopt(fd, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst));
				}
				close(fd);
			}
		}
	}
}

/* ---- client ---- */

struct target {
	struct sockaddr_storage addr;
	socklen_t len;
};

static struct target targets[MAX_HOSTS * MAX_LIST];
static int ntargets, nhosts, nports, nccs;
static char *ccs[MAX_LIST];
static long total;
static long next_conn;
static long nr_ok, nr_failed, per_cc[MAX_LIST];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char first_err[256];

static void note_failure(long i, const char *what, int e)
{
	pthread_mutex_lock(&lock);
	nr_failed++;
	if (!first_err[0])
		snprintf(first_err, sizeof(first_err), "connection %ld: %s: %s",
			 i, what, strerror(e));
	pthread_mutex_unlock(&lock);
}

static int one_conn(long i, char *buf)
{
	const struct target *t = &targets[i % ntargets];
	int cc = nccs ? (int)((i / nports) % nccs) : -1;
	struct timeval tmo = { .tv_sec = 20 };
	long left = bytes, k, chunk;
	unsigned long long sent = 0;
	char rbuf[512];
	ssize_t r;
	int s;

	s = socket(t->addr.ss_family, SOCK_STREAM, 0);
	if (s < 0) {
		note_failure(i, "socket", errno);
		return -1;
	}
	setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tmo, sizeof(tmo));
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
	if (cc >= 0 && setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, ccs[cc],
				  strlen(ccs[cc]))) {
		note_failure(i, "TCP_CONGESTION", errno);
		goto fail;
	}
	if (connect(s, (const struct sockaddr *)&t->addr, t->len)) {
		note_failure(i, "connect", errno);
		goto fail;
	}
	while (left > 0) {
		chunk = left > 65536 ? 65536 : left;
		for (k = 0; k < chunk; k++)
			buf[k] = (char)pattern(sent + k);
		r = write(s, buf, chunk);
		if (r <= 0) {
			note_failure(i, "write", r < 0 ? errno : EPIPE);
			goto fail;
		}
		left -= r;
		sent += r;
	}
	shutdown(s, SHUT_WR);
	while ((r = read(s, rbuf, sizeof(rbuf))) > 0)
		;
	if (r < 0) {
		note_failure(i, "read", errno);
		goto fail;
	}
	close(s);
	pthread_mutex_lock(&lock);
	nr_ok++;
	if (cc >= 0)
		per_cc[cc]++;
	pthread_mutex_unlock(&lock);
	return 0;
fail:
	close(s);
	return -1;
}

static void *worker(void *arg)
{
	char *buf = calloc(1, 65536);
	long i;

	(void)arg;
	if (!buf)
		return NULL;
	for (;;) {
		pthread_mutex_lock(&lock);
		i = next_conn++;
		pthread_mutex_unlock(&lock);
		if (i >= total)
			break;
		one_conn(i, buf);
	}
	free(buf);
	return NULL;
}

static int client(char **hosts, char **ports, int parallel)
{
	pthread_t th[256];
	int h, p, i;

	signal(SIGPIPE, SIG_IGN);
	/* target order: port varies fastest, then host */
	for (h = 0; h < nhosts; h++) {
		for (p = 0; p < nports; p++) {
			struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
						  .ai_flags = AI_NUMERICHOST |
							      AI_NUMERICSERV };
			struct addrinfo *ai;
			struct target *t = &targets[h * nports + p];

			number(ports[p], 1, 65535, "port");
			if (getaddrinfo(hosts[h], ports[p], &hints, &ai))
				die("bad address '%s' (numeric IPv4 or IPv6)",
				    hosts[h]);
			memcpy(&t->addr, ai->ai_addr, ai->ai_addrlen);
			t->len = ai->ai_addrlen;
			freeaddrinfo(ai);
		}
	}
	ntargets = nhosts * nports;
	for (i = 0; i < parallel; i++)
		if (pthread_create(&th[i], NULL, worker, NULL))
			die("pthread_create: %s", strerror(errno));
	for (i = 0; i < parallel; i++)
		pthread_join(th[i], NULL);
	printf("ok %ld failed %ld\n", nr_ok, nr_failed);
	for (i = 0; i < nccs; i++)
		printf("cc %s %ld\n", ccs[i], per_cc[i]);
	if (first_err[0])
		printf("first error: %s\n", first_err);
	return nr_failed ? 1 : 0;
}

/* ---- model blobs ---- */

static int model(const char *file, long bad_seed)
{
	static struct aicc_model m, check;
	static u8 blob[AICC_MODEL_MAX_LEN];
	const char *why = NULL;
	u32 len;
	FILE *f;
	int i;

	m.n_hidden = 4;
	m.shift1 = 4;
	m.shift2 = 4;
	m.profiles = (1U << AICC_NR_PROFILES) - 1;
	snprintf(m.name, sizeof(m.name), "stress-neutral");
	for (i = 0; i < AICC_MODEL_NR_IN; i++) {
		m.in_gain[i] = 4096;
		m.in_min[i] = -32768;
		m.in_max[i] = 32767;
	}
	len = aicc_model_write(&m, blob, sizeof(blob));
	if (!len)
		die("%s", "aicc_model_write failed");
	if (aicc_model_parse(blob, len, &check, &why))
		die("the core rejects its own blob: %s", why ? why : "?");
	if (bad_seed >= 0) {
		/* a wrong checksum, length, magic or a truncation */
		switch (bad_seed % 4) {
		case 0:
			blob[len - 1] ^= 0x5a;
			break;
		case 1:
			blob[AICC_MODEL_OFF_LEN] ^= 4;
			break;
		case 2:
			blob[AICC_MODEL_OFF_MAGIC] ^= 1;
			break;
		default:
			len /= 2;
			break;
		}
		if (!aicc_model_parse(blob, len, &check, &why))
			die("%s", "a corrupted blob parses");
	}
	f = fopen(file, "wb");
	if (!f || fwrite(blob, 1, len, f) != len || fclose(f))
		die("cannot write '%s'", file);
	return 0;
}

static _Noreturn void print_usage(void)
{
	fprintf(stderr,
		"usage: aicc-churn server -p PORT[,PORT...] [--cc NAME[,...]] [--bytes B]\n"
		"       aicc-churn client -c HOST[,...] -p PORT[,...] -n N [-P PAR]\n"
		"                         [--cc NAME[,...]] [--bytes B]\n"
		"       aicc-churn model FILE [--bad SEED]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char *hosts[MAX_HOSTS], *ports[MAX_LIST];
	long parallel = 8, bad = -1;
	int i;

	if (argc < 2)
		print_usage();
	if (!strcmp(argv[1], "model")) {
		if (argc != 3 && !(argc == 5 && !strcmp(argv[3], "--bad")))
			print_usage();
		if (argc == 5)
			bad = number(argv[4], 0, 1000000, "--bad seed");
		return model(argv[2], bad);
	}
	for (i = 2; i < argc; i++) {
		const char *o = argv[i];

		if (i + 1 >= argc)
			die("option '%s' needs a value", o);
		if (!strcmp(o, "-c"))
			nhosts = split(argv[++i], hosts, MAX_HOSTS);
		else if (!strcmp(o, "-p"))
			nports = split(argv[++i], ports, MAX_LIST);
		else if (!strcmp(o, "--cc"))
			nccs = split(argv[++i], ccs, MAX_LIST);
		else if (!strcmp(o, "-n"))
			total = number(argv[++i], 1, 100000000, "-n");
		else if (!strcmp(o, "-P"))
			parallel = number(argv[++i], 1, 256, "-P");
		else if (!strcmp(o, "--bytes"))
			bytes = number(argv[++i], 0, 1L << 30, "--bytes");
		else
			die("unknown option '%s'", o);
	}
	if (!nports)
		die("%s", "missing -p PORT");
	if (!strcmp(argv[1], "server"))
		return server(nports, ports, nccs, ccs);
	if (!bytes)
		bytes = 4096;
	if (strcmp(argv[1], "client"))
		print_usage();
	if (!nhosts || !total)
		die("%s", "client needs -c HOST and -n N");
	return client(hosts, ports, (int)parallel);
}
