// SPDX-License-Identifier: GPL-2.0
/*
 * aiccgen: sockets, TCP_INFO, namespace counters, the event loop and the
 * client connection setup shared by every client mode.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "aiccgen.h"

/*
 * struct gen_tcpinfo mirrors the kernel's struct tcp_info field by field;
 * check the part that glibc also describes and the total size of the
 * layout as of Linux 6.7 (total_rto_time is the last field read).
 */
_Static_assert(offsetof(struct gen_tcpinfo, rto) ==
	       offsetof(struct tcp_info, tcpi_rto), "tcp_info layout");
_Static_assert(offsetof(struct gen_tcpinfo, rtt) ==
	       offsetof(struct tcp_info, tcpi_rtt), "tcp_info layout");
_Static_assert(offsetof(struct gen_tcpinfo, total_retrans) ==
	       offsetof(struct tcp_info, tcpi_total_retrans), "tcp_info layout");
_Static_assert(offsetof(struct gen_tcpinfo, pacing_rate) == 104,
	       "tcp_info layout");
_Static_assert(offsetof(struct gen_tcpinfo, delivered) == 192,
	       "tcp_info layout");
_Static_assert(offsetof(struct gen_tcpinfo, total_rto) == 240,
	       "tcp_info layout");
_Static_assert(sizeof(struct gen_tcpinfo) == 248, "tcp_info layout");

/* ---- sockets ---- */

int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return 0;
}

ssize_t read_some(int fd, void *buf, size_t n)
{
	ssize_t r;

	do {
		r = recv(fd, buf, n, MSG_DONTWAIT);
	} while (r < 0 && errno == EINTR);
	return r;
}

int sock_set_cc(int fd, const char *cc, char *err, size_t errlen)
{
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc)) == 0)
		return 0;
	if (errno == ENOENT)
		snprintf(err, errlen,
			 "congestion control '%s' is not available (see net.ipv4.tcp_available_congestion_control; is tcp_%s loaded?)",
			 cc, cc);
	else if (errno == EPERM)
		snprintf(err, errlen,
			 "congestion control '%s' is not permitted (not in net.ipv4.tcp_allowed_congestion_control and no CAP_NET_ADMIN)",
			 cc);
	else
		snprintf(err, errlen, "congestion control '%s': %s", cc,
			 strerror(errno));
	return -1;
}

int sock_get_cc(int fd, char *out)
{
	socklen_t len = GEN_CC_LEN;

	memset(out, 0, GEN_CC_LEN);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, out, &len) < 0) {
		out[0] = '\0';
		return -1;
	}
	out[GEN_CC_LEN - 1] = '\0';
	return 0;
}

/* Fail early, before any connection, if the algorithm cannot be used. */
int check_cc(const char *cc)
{
	char err[256];
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		gen_err("socket: %s", strerror(errno));
		return -1;
	}
	if (sock_set_cc(fd, cc, err, sizeof(err)) < 0) {
		gen_err("--cc: %s", err);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* ---- TCP_INFO ---- */

int tcpinfo_get(int fd, struct tcpinfo_snap *s)
{
	socklen_t len = sizeof(s->ti);

	memset(&s->ti, 0, sizeof(s->ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &s->ti, &len) < 0) {
		s->valid = false;
		return -1;
	}
	s->len = len;
	s->valid = true;
	sock_get_cc(fd, s->cc);
	return 0;
}

static const char *ca_state_name(unsigned int st)
{
	static const char * const names[] = {
		"open", "disorder", "cwr", "recovery", "loss",
	};

	return st < 5 ? names[st] : "unknown";
}

#define TI_U(w, s, key, field)					\
	do {							\
		if (TI_HAS(s, field))				\
			jw_uint(w, key, (s)->ti.field);		\
		else						\
			jw_null(w, key);			\
	} while (0)

void tcpinfo_json(struct jw *w, const char *key, const struct tcpinfo_snap *s)
{
	if (!s->valid) {
		jw_null(w, key);
		return;
	}
	jw_obj(w, key);
	jw_str(w, "cc", s->cc);
	jw_str(w, "ca_state", ca_state_name(s->ti.ca_state));
	/* TCPI_OPT_ECN: negotiated; TCPI_OPT_ECN_SEEN: a CE mark arrived. */
	jw_bool(w, "ecn", s->ti.options & 0x08);
	jw_bool(w, "ecn_seen", s->ti.options & 0x10);
	TI_U(w, s, "retransmits", retransmits);
	TI_U(w, s, "backoff", backoff);
	TI_U(w, s, "rto_us", rto);
	TI_U(w, s, "rtt_us", rtt);
	TI_U(w, s, "rttvar_us", rttvar);
	TI_U(w, s, "min_rtt_us", min_rtt);
	TI_U(w, s, "snd_cwnd", snd_cwnd);
	TI_U(w, s, "snd_ssthresh", snd_ssthresh);
	TI_U(w, s, "snd_mss", snd_mss);
	TI_U(w, s, "unacked", unacked);
	TI_U(w, s, "lost", lost);
	TI_U(w, s, "retrans", retrans);
	TI_U(w, s, "total_retrans", total_retrans);
	TI_U(w, s, "bytes_sent", bytes_sent);
	TI_U(w, s, "bytes_acked", bytes_acked);
	TI_U(w, s, "bytes_retrans", bytes_retrans);
	TI_U(w, s, "bytes_received", bytes_received);
	TI_U(w, s, "delivered", delivered);
	TI_U(w, s, "delivered_ce", delivered_ce);
	TI_U(w, s, "delivery_rate_Bps", delivery_rate);
	TI_U(w, s, "pacing_rate_Bps", pacing_rate);
	/* RTO counters exist from Linux 6.7 on; null before. */
	TI_U(w, s, "total_rto", total_rto);
	TI_U(w, s, "total_rto_recoveries", total_rto_recoveries);
	TI_U(w, s, "total_rto_time_ms", total_rto_time);
	jw_obj_end(w);
}

void tcpinfo_text(FILE *f, const struct tcpinfo_snap *s)
{
	if (!s->valid) {
		fprintf(f, "tcp_info unavailable");
		return;
	}
	fprintf(f, "cc %s rtt %.3f/%.3f ms min_rtt %.3f ms cwnd %u retrans %u/%u",
		s->cc, s->ti.rtt / 1e3, s->ti.rttvar / 1e3,
		TI_HAS(s, min_rtt) ? s->ti.min_rtt / 1e3 : 0.0,
		s->ti.snd_cwnd, s->ti.retrans, s->ti.total_retrans);
	if (TI_HAS(s, total_rto))
		fprintf(f, " rto_events %u", s->ti.total_rto);
	if (TI_HAS(s, delivered_ce))
		fprintf(f, " ce %u", s->ti.delivered_ce);
	fprintf(f, " ecn %s", s->ti.options & 0x08 ? "on" : "off");
	fprintf(f, " state %s", ca_state_name(s->ti.ca_state));
}

/* ---- network namespaces ---- */

/*
 * --netns: connections are created in other network namespaces (setns
 * around socket(); a socket stays in the namespace it was created in), so
 * one process can drive synchronized bursts from several sender
 * namespaces.  Descriptors of those namespaces, and of our own.
 */
static int ns_fds[GEN_MAX_HOSTS];
static int ns_count;
static int ns_self = -1;
static const char * const *ns_names;

static void netns_open(const struct copts *o)
{
	char path[4096];

	if (!o->nnetns)
		return;
	ns_self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns_self < 0)
		gen_usage_err("--netns: cannot open /proc/self/ns/net: %s",
			      strerror(errno));
	for (int i = 0; i < o->nnetns; i++) {
		const char *n = o->netns[i];

		snprintf(path, sizeof(path), "%s%s",
			 strchr(n, '/') ? "" : "/run/netns/", n);
		ns_fds[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (ns_fds[i] < 0)
			gen_usage_err("--netns: cannot open %s: %s", path,
				      strerror(errno));
	}
	ns_count = o->nnetns;
	ns_names = o->netns;
}

static int netns_enter(int i, char *err, size_t errlen)
{
	if (setns(ns_fds[i % ns_count], CLONE_NEWNET) < 0) {
		snprintf(err, errlen, "setns: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void netns_leave(void)
{
	if (setns(ns_self, CLONE_NEWNET) < 0) {
		gen_err("setns back to the own namespace: %s", strerror(errno));
		exit(GEN_EXIT_RUN);
	}
}

/* ---- per-namespace counters ---- */

/* A counter of /proc/net/snmp or /proc/net/netstat, added to *out. */
struct proc_field {
	const char *name;
	uint64_t *out;
};

/*
 * /proc/net/snmp and /proc/net/netstat hold pairs of lines: "Prefix: names"
 * then "Prefix: values".  One pass adds every field's value to its *out;
 * returns how many of the fields were found.
 */
static size_t proc_lookup(const char *path, const char *prefix,
			  const struct proc_field *fld, size_t nfld)
{
	char names[8192], vals[8192];
	size_t plen = strlen(prefix);
	FILE *f = fopen(path, "r");
	size_t found = 0;

	if (!f)
		return 0;
	while (fgets(names, sizeof(names), f)) {
		char *sn, *sv, *n, *v;

		if (!fgets(vals, sizeof(vals), f))
			break;
		if (strncmp(names, prefix, plen) || strncmp(vals, prefix, plen))
			continue;
		n = strtok_r(names + plen, "\n ", &sn);
		v = strtok_r(vals + plen, "\n ", &sv);
		while (n && v) {
			for (size_t i = 0; i < nfld; i++) {
				if (strcmp(n, fld[i].name))
					continue;
				*fld[i].out += strtoull(v, NULL, 10);
				found++;
			}
			n = strtok_r(NULL, "\n ", &sn);
			v = strtok_r(NULL, "\n ", &sv);
		}
	}
	fclose(f);
	return found;
}

static void counters_here(struct netns_counters *c)
{
	const struct proc_field snmp[] = {
		{ "RetransSegs", &c->retrans_segs },
	};
	const struct proc_field ext[] = {
		{ "TCPTimeouts", &c->timeouts },
		{ "TCPLossProbes", &c->loss_probes },
		{ "TCPSpuriousRTOs", &c->spurious_rtos },
		/* undone recoveries: each one tcp_undo_cwnd_reduction() */
		{ "TCPFullUndo", &c->undos },
		{ "TCPPartialUndo", &c->undos },
		{ "TCPDSACKUndo", &c->undos },
		{ "TCPLossUndo", &c->undos },
		{ "TCPSackRecovery", &c->sack_recoveries },
		{ "TCPLossProbeRecovery", &c->tlp_recoveries },
	};

	memset(c, 0, sizeof(*c));
	/* /proc/self/net follows the namespace the thread is in now. */
	c->valid = proc_lookup("/proc/self/net/snmp", "Tcp:", snmp,
			       sizeof(snmp) / sizeof(snmp[0])) == 1;
	proc_lookup("/proc/self/net/netstat", "TcpExt:", ext,
		    sizeof(ext) / sizeof(ext[0]));
}

static int ns_first_index(const char * const *names, int i)
{
	for (int j = 0; j < i; j++)
		if (!strcmp(names[j], names[i]))
			return j;
	return i;
}

/* Our namespace, or the sum over the distinct --netns namespaces. */
void netns_counters_read(struct netns_counters *c)
{
	char err[128];

	if (!ns_count) {
		counters_here(c);
		return;
	}
	memset(c, 0, sizeof(*c));
	c->valid = true;
	for (int i = 0; i < ns_count; i++) {
		struct netns_counters k;

		if (ns_first_index(ns_names, i) != i)
			continue;
		if (netns_enter(i, err, sizeof(err)) < 0) {
			c->valid = false;
			continue;
		}
		counters_here(&k);
		netns_leave();
		c->valid = c->valid && k.valid;
		c->retrans_segs += k.retrans_segs;
		c->timeouts += k.timeouts;
		c->loss_probes += k.loss_probes;
		c->spurious_rtos += k.spurious_rtos;
		c->undos += k.undos;
		c->sack_recoveries += k.sack_recoveries;
		c->tlp_recoveries += k.tlp_recoveries;
	}
}

void netns_counters_json(struct jw *w, const struct netns_counters *a,
			 const struct netns_counters *b)
{
	if (!a->valid || !b->valid) {
		jw_null(w, "netns");
		return;
	}
	jw_obj(w, "netns");
	jw_uint(w, "retrans_segs", b->retrans_segs - a->retrans_segs);
	jw_uint(w, "rto_timeouts", b->timeouts - a->timeouts);
	jw_uint(w, "loss_probes", b->loss_probes - a->loss_probes);
	jw_uint(w, "spurious_rtos", b->spurious_rtos - a->spurious_rtos);
	jw_uint(w, "undos", b->undos - a->undos);
	jw_uint(w, "sack_recoveries", b->sack_recoveries - a->sack_recoveries);
	jw_uint(w, "tlp_recoveries", b->tlp_recoveries - a->tlp_recoveries);
	jw_obj_end(w);
}

void netns_counters_text(FILE *f, const struct netns_counters *a,
			 const struct netns_counters *b)
{
	if (!a->valid || !b->valid)
		return;
	fprintf(f,
		"netns: retrans_segs %llu rto_timeouts %llu loss_probes %llu spurious_rtos %llu undos %llu sack_recoveries %llu tlp_recoveries %llu\n",
		(unsigned long long)(b->retrans_segs - a->retrans_segs),
		(unsigned long long)(b->timeouts - a->timeouts),
		(unsigned long long)(b->loss_probes - a->loss_probes),
		(unsigned long long)(b->spurious_rtos - a->spurious_rtos),
		(unsigned long long)(b->undos - a->undos),
		(unsigned long long)(b->sack_recoveries - a->sack_recoveries),
		(unsigned long long)(b->tlp_recoveries - a->tlp_recoveries));
}

/* ---- event loop ---- */

int loop_init(struct loop *l)
{
	l->ep = epoll_create1(EPOLL_CLOEXEC);
	l->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (l->ep < 0 || l->tfd < 0) {
		gen_err("epoll/timerfd: %s", strerror(errno));
		return -1;
	}
	if (gen_stop_fd >= 0 &&
	    loop_add(l, gen_stop_fd, EPOLLIN, LOOP_STOP) < 0) {
		gen_err("epoll: %s", strerror(errno));
		return -1;
	}
	return loop_add(l, l->tfd, EPOLLIN, LOOP_TIMER);
}

void loop_free(struct loop *l)
{
	if (l->tfd >= 0)
		close(l->tfd);
	if (l->ep >= 0)
		close(l->ep);
	l->ep = -1;
	l->tfd = -1;
}

int loop_add(struct loop *l, int fd, uint32_t events, void *ptr)
{
	struct epoll_event ev = { .events = events, .data.ptr = ptr };

	return epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &ev);
}

int loop_mod(struct loop *l, int fd, uint32_t events, void *ptr)
{
	struct epoll_event ev = { .events = events, .data.ptr = ptr };

	return epoll_ctl(l->ep, EPOLL_CTL_MOD, fd, &ev);
}

void loop_del(struct loop *l, int fd)
{
	epoll_ctl(l->ep, EPOLL_CTL_DEL, fd, NULL);
}

void loop_arm(struct loop *l, uint64_t abs_ns)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	if (abs_ns) {
		its.it_value.tv_sec = abs_ns / 1000000000ull;
		its.it_value.tv_nsec = abs_ns % 1000000000ull;
	}
	timerfd_settime(l->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/*
 * Wait for events; the timer is drained here and a stop signal's event
 * left out (the caller sees gen_stop).  0 on EINTR.
 */
int loop_wait(struct loop *l, void *events, int max)
{
	struct epoll_event *ev = events;
	int n = epoll_wait(l->ep, ev, max, -1), k = 0;

	if (n < 0)
		return errno == EINTR ? 0 : -1;
	for (int i = 0; i < n; i++) {
		if (ev[i].data.ptr == LOOP_STOP)
			continue;
		if (ev[i].data.ptr == LOOP_TIMER) {
			uint64_t x;

			if (read(l->tfd, &x, sizeof(x)) < 0 && errno != EAGAIN)
				return -1;
		}
		ev[k++] = ev[i];
	}
	return k;
}

/* ---- client options ---- */

static void copts_init(struct copts *o)
{
	memset(o, 0, sizeof(*o));
	o->port = GEN_DEFAULT_PORT;
	o->connect_timeout = 10;
	o->json = gen_json_global;
}

static const struct option common_lo[] = {
	GEN_LO_ARG("host", 'c'),
	GEN_LO_ARG("port", 'p'),
	GEN_LO_FLAG("json", 'j'),
	GEN_LO_FLAG("verbose", 'v'),
	GEN_LO_FLAG("help", 'h'),
	GEN_LO_ARG("cc", OPT_CC),
	GEN_LO_ARG("server-cc", OPT_SERVER_CC),
	GEN_LO_ARG("timeout", OPT_TIMEOUT),
	GEN_LO_ARG("connect-timeout", OPT_CONNECT_TIMEOUT),
	GEN_LO_ARG("netns", OPT_NETNS),
};

static struct option *copts_longopts(const struct option *mode)
{
	size_t nc = sizeof(common_lo) / sizeof(common_lo[0]), nm = 0;
	struct option *o;

	while (mode[nm].name)
		nm++;
	o = calloc(nc + nm + 1, sizeof(*o));
	if (!o)
		gen_usage_err("out of memory");
	memcpy(o, common_lo, sizeof(common_lo));
	memcpy(o + nc, mode, nm * sizeof(*o));
	return o;
}

/* Split a comma-separated list into at most GEN_MAX_HOSTS names. */
static int split_list(const char *opt, const char *what, const char *arg,
		      char **buf, const char **out)
{
	char *s, *save;
	int n = 0;

	free(*buf);
	*buf = strdup(arg);
	if (!*buf)
		gen_usage_err("out of memory");
	if (!*arg || arg[0] == ',' || arg[strlen(arg) - 1] == ',' ||
	    strstr(arg, ",,"))
		gen_usage_err("%s: empty %s in '%s'", opt, what, arg);
	for (s = strtok_r(*buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (n == GEN_MAX_HOSTS)
			gen_usage_err("%s: at most %d names", opt, GEN_MAX_HOSTS);
		out[n++] = s;
	}
	return n;
}

static int copts_parse(struct copts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'c':
		o->nhosts = split_list("-c", "host name", arg, &o->hosts_buf,
				       o->hosts);
		o->hosts_arg = arg;
		return 1;
	case OPT_NETNS:
		o->nnetns = split_list("--netns", "namespace name", arg,
				       &o->netns_buf, o->netns);
		return 1;
	case 'p':
		o->port = parse_uint("-p", arg, 1, 65535);
		return 1;
	case 'j':
		o->json = true;
		return 1;
	case 'v':
		o->verbose = true;
		return 1;
	case OPT_CC:
		o->cc = parse_cc("--cc", arg);
		return 1;
	case OPT_SERVER_CC:
		o->server_cc = parse_cc("--server-cc", arg);
		return 1;
	case OPT_TIMEOUT:
		o->timeout = parse_double("--timeout", arg, 0.1, 86400);
		return 1;
	case OPT_CONNECT_TIMEOUT:
		o->connect_timeout = parse_double("--connect-timeout", arg,
						  0.1, 3600);
		return 1;
	}
	return 0;
}

static void copts_finish(struct copts *o)
{
	if (o->nhosts == 0)
		gen_usage_err("-c HOST is required");
	netns_open(o);
}

struct option *copts_start(struct copts *o, const struct option *mode,
			   void (*help)(FILE *f))
{
	copts_init(o);
	o->help = help;
	opterr = 0;
	optind = 1;
	return copts_longopts(mode);
}

int copts_next(struct copts *o, int argc, char **argv, const char *mode_short,
	       const struct option *lo)
{
	char so[64];
	int opt;

	snprintf(so, sizeof(so), ":%s%s", COPTS_SHORTOPTS, mode_short);
	while ((opt = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (copts_parse(o, opt, optarg))
			continue;
		if (opt == 'h') {
			o->help(stdout);
			exit(0);
		}
		if (opt == ':' || opt == '?')
			gen_bad_opt(opt, argv, lo);
		return opt;
	}
	gen_no_operands(argc, argv);
	copts_finish(o);
	return -1;
}

void copts_help(FILE *f)
{
	fprintf(f,
		"\ncommon client options:\n"
		"  -c, --host HOST[,HOST...]  server address(es); connections are spread\n"
		"                             round-robin over the list\n"
		"  --netns NS[,NS...]         create the connections in these network\n"
		"                             namespaces (names in /run/netns or paths),\n"
		"                             round-robin; needs CAP_SYS_ADMIN\n"
		"  -p, --port PORT            server port (default %d)\n"
		"  --cc NAME                  TCP_CONGESTION for the client sockets\n"
		"  --server-cc NAME           ask the server to use NAME on its side\n"
		"  --timeout SEC              overall deadline for the run, its setup\n"
		"                             included (default: derived from the\n"
		"                             run's parameters)\n"
		"  --connect-timeout SEC      connection setup deadline (default 10)\n"
		"  -j, --json                 one JSON object on stdout\n"
		"  -v, --verbose              more detail in text output\n"
		"  -h, --help                 this help\n", GEN_DEFAULT_PORT);
}

void copts_hosts_json(struct jw *w, const struct copts *o)
{
	jw_arr(w, "hosts");
	for (int i = 0; i < o->nhosts; i++)
		jw_str(w, NULL, o->hosts[i]);
	jw_arr_end(w);
}

/* ---- client connections ---- */

void cconn_fail(struct loop *l, struct cconn *c, const char *fmt, ...)
{
	va_list ap;

	if (c->state != CS_FAILED) {
		va_start(ap, fmt);
		vsnprintf(c->err, sizeof(c->err), fmt, ap);
		va_end(ap);
	}
	if (c->fd >= 0) {
		tcpinfo_get(c->fd, &c->ti);
		loop_del(l, c->fd);
		close(c->fd);
		c->fd = -1;
	}
	c->state = CS_FAILED;
}

void cconn_close(struct loop *l, struct cconn *c)
{
	if (c->fd >= 0) {
		tcpinfo_get(c->fd, &c->ti);
		loop_del(l, c->fd);
		close(c->fd);
		c->fd = -1;
	}
	if (c->state != CS_FAILED)
		c->state = CS_CLOSED;
}

int cconn_set_events(struct loop *l, struct cconn *c, uint32_t ev)
{
	if (c->fd < 0 || ev == c->ev)
		return 0;
	c->ev = ev;
	return loop_mod(l, c->fd, ev, c);
}

void cconn_json(struct jw *w, const struct cconn *c)
{
	jw_int(w, "id", c->id);
	jw_str(w, "host", c->host);
	jw_str(w, "netns", c->netns);
	jw_str(w, "cc", c->cc[0] ? c->cc : NULL);
	jw_str(w, "server_cc", c->server_cc[0] ? c->server_cc : NULL);
	jw_str(w, "error", c->state == CS_FAILED ? c->err : NULL);
	tcpinfo_json(w, "tcp_info", &c->ti);
}

void cconn_text(FILE *f, const struct cconn *c)
{
	fprintf(f, "  conn %d %s: ", c->id, c->host);
	if (c->state == CS_FAILED)
		fprintf(f, "ERROR %s; ", c->err);
	tcpinfo_text(f, &c->ti);
	if (c->server_cc[0])
		fprintf(f, " server_cc %s", c->server_cc);
	fputc('\n', f);
}

static const char *hello_status(unsigned int st)
{
	switch (st) {
	case HELLO_BAD_VERSION:
		return "protocol version mismatch";
	case HELLO_BAD_MODE:
		return "unsupported mode";
	case HELLO_BAD_CC:
		return "requested --server-cc is not available on the server";
	}
	return "unknown status";
}

static void cconn_handshake(struct loop *l, struct cconn *c, uint32_t ev,
			    int port)
{
	struct wire_hello h;
	ssize_t r;
	int e;

	if (c->state == CS_CONNECTING) {
		int err = 0;
		socklen_t len = sizeof(err);

		if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			err = errno;
		if (err) {
			cconn_fail(l, c, "connect to %s port %d: %s", c->host,
				   port, strerror(err));
			return;
		}
		if (!(ev & (EPOLLOUT | EPOLLIN)))
			return;
		c->state = CS_HELLO;
	}
	if (c->state != CS_HELLO)
		return;
	r = txq_flush(&c->tx, c->fd);
	if (r < 0) {
		cconn_fail(l, c, "send to %s: %s", c->host, strerror(-r));
		return;
	}
	cconn_set_events(l, c, txq_empty(&c->tx) ? EPOLLIN : EPOLLIN | EPOLLOUT);
	if (!(ev & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		return;
	r = read_some(c->fd, c->hello + c->hello_off,
		      WIRE_HELLO_LEN - c->hello_off);
	if (r == 0) {
		cconn_fail(l, c, "%s closed the connection during the handshake",
			   c->host);
		return;
	}
	if (r < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			cconn_fail(l, c, "receive from %s: %s", c->host,
				   strerror(errno));
		return;
	}
	c->hello_off += r;
	if (c->hello_off < WIRE_HELLO_LEN)
		return;
	e = wire_get_hello(c->hello, &h);
	if (e == -2) {
		/* a server of another version says so in its own */
		cconn_fail(l, c, "server refused the connection: %s (server %u, client %u)",
			   hello_status(HELLO_BAD_VERSION), c->hello[4],
			   WIRE_VERSION);
		return;
	}
	if (e) {
		cconn_fail(l, c, "unexpected reply from %s port %d (not an aiccgen server?)",
			   c->host, port);
		return;
	}
	if (h.status != HELLO_OK) {
		cconn_fail(l, c, "server refused the connection: %s",
			   hello_status(h.status));
		return;
	}
	memcpy(c->server_cc, h.cc, GEN_CC_LEN);
	sock_get_cc(c->fd, c->cc);
	c->state = CS_READY;
	cconn_set_events(l, c, EPOLLIN);
}

int clients_open(struct loop *l, struct cconn *c, int n,
		 const struct copts *o, int wire_mode, uint64_t run_deadline)
{
	uint64_t deadline = now_ns() + (uint64_t)(o->connect_timeout * 1e9);
	/* --timeout bounds the whole run, its connection setup included */
	bool run_bound = run_deadline < deadline;
	struct addrinfo *res[GEN_MAX_HOSTS] = { NULL };
	struct epoll_event ev[64];
	char port[16], err[256];
	int i, pending = 0, ready = 0, ret = -1;

	if (run_bound)
		deadline = run_deadline;
	snprintf(port, sizeof(port), "%d", o->port);
	for (i = 0; i < o->nhosts; i++) {
		struct addrinfo hints = {
			.ai_socktype = SOCK_STREAM,
			.ai_flags = AI_NUMERICSERV,
		};
		int e = getaddrinfo(o->hosts[i], port, &hints, &res[i]);

		if (e) {
			gen_err("cannot resolve '%s': %s", o->hosts[i],
				gai_strerror(e));
			goto out;
		}
	}

	for (i = 0; i < n; i++) {
		struct addrinfo *ai = res[i % o->nhosts];
		struct wire_session s = { .mode = wire_mode, .conn_id = i };
		uint8_t sb[WIRE_SESSION_LEN];
		int one = 1;

		memset(&c[i], 0, sizeof(c[i]));
		c[i].id = i;
		c[i].fd = -1;
		c[i].host = o->hosts[i % o->nhosts];
		if (ns_count) {
			c[i].netns = o->netns[i % ns_count];
			if (netns_enter(i, err, sizeof(err)) < 0) {
				cconn_fail(l, &c[i], "--netns %s: %s",
					   c[i].netns, err);
				continue;
			}
		}
		c[i].fd = socket(ai->ai_family,
				 SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (ns_count)
			netns_leave();
		if (c[i].fd < 0) {
			cconn_fail(l, &c[i], "socket: %s", strerror(errno));
			continue;
		}
		setsockopt(c[i].fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (o->cc && sock_set_cc(c[i].fd, o->cc, err, sizeof(err)) < 0) {
			cconn_fail(l, &c[i], "%s", err);
			continue;
		}
		if (o->server_cc)
			strncpy(s.cc, o->server_cc, GEN_CC_LEN - 1);
		wire_put_session(sb, &s);
		txq_set_raw(&c[i].tx, sb, sizeof(sb));
		if (connect(c[i].fd, ai->ai_addr, ai->ai_addrlen) < 0 &&
		    errno != EINPROGRESS) {
			cconn_fail(l, &c[i], "connect to %s port %d: %s",
				   c[i].host, o->port, strerror(errno));
			continue;
		}
		c[i].state = CS_CONNECTING;
		c[i].ev = EPOLLOUT;
		if (loop_add(l, c[i].fd, EPOLLOUT, &c[i]) < 0) {
			cconn_fail(l, &c[i], "epoll: %s", strerror(errno));
			continue;
		}
		pending++;
	}

	while (pending > 0 && !gen_stop) {
		int k;

		if (now_ns() >= deadline)
			break;
		loop_arm(l, deadline);
		k = loop_wait(l, ev, 64);
		if (k < 0) {
			gen_err("epoll_wait: %s", strerror(errno));
			break;
		}
		for (int j = 0; j < k; j++) {
			struct cconn *cc = ev[j].data.ptr;

			if (cc == LOOP_TIMER)
				continue;
			if (cc->state != CS_CONNECTING && cc->state != CS_HELLO)
				continue;
			cconn_handshake(l, cc, ev[j].events, o->port);
			if (cc->state == CS_READY || cc->state == CS_FAILED)
				pending--;
		}
	}
	for (i = 0; i < n; i++) {
		/* still setting up: the loop ended on a stop or a deadline */
		if (c[i].state == CS_CONNECTING || c[i].state == CS_HELLO) {
			if (gen_stop)
				cconn_fail(l, &c[i], "interrupted");
			else if (run_bound)
				cconn_fail(l, &c[i],
					   "run deadline exceeded in the connection setup to %s port %d",
					   c[i].host, o->port);
			else
				cconn_fail(l, &c[i],
					   "connection setup to %s port %d timed out",
					   c[i].host, o->port);
		}
		if (c[i].state == CS_READY)
			ready++;
	}
	loop_arm(l, 0);
	ret = ready;
out:
	for (i = 0; i < o->nhosts; i++)
		if (res[i])
			freeaddrinfo(res[i]);
	return ret;
}

/* ---- message-mode client runs (incast, rpc) ---- */

int mc_open(struct mclient *m, const struct copts *o, uint64_t run_deadline)
{
	bool failed = false;
	int i;

	if (clients_open(&m->l, m->c, m->n, o, WIRE_MSG, run_deadline) < 0)
		return -1;
	for (i = 0; i < m->n; i++) {
		if (m->c[i].state != CS_READY) {
			gen_err("connection %d: %s", i, m->c[i].err);
			failed = true;
		}
	}
	if (!failed)
		return 0;
	for (i = 0; i < m->n; i++)
		cconn_close(&m->l, &m->c[i]);
	return -1;
}

void mc_fail(struct mclient *m, const char *fmt, ...)
{
	va_list ap;

	if (m->error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(m->error, sizeof(m->error), fmt, ap);
	va_end(ap);
}

void mc_conn_fail(struct mclient *m, struct cconn *c, const char *what,
		  int err)
{
	cconn_fail(&m->l, c, "%s: %s", what,
		   err ? strerror(err) : "connection closed by the server");
	mc_fail(m, "connection %d: %s", c->id, c->err);
}

void mc_events(struct mclient *m, struct cconn *c)
{
	if (c->fd >= 0)
		cconn_set_events(&m->l, c, txq_empty(&c->tx) ?
				 EPOLLIN : EPOLLIN | EPOLLOUT);
}

/* A few reads at most, so that one busy connection cannot starve others. */
static void mc_input(struct mclient *m, struct cconn *c)
{
	for (int k = 0; k < MC_READS && c->fd >= 0; k++) {
		ssize_t r = read_some(c->fd, gen_scratch, GEN_IOBUF);

		if (r == 0) {
			mc_conn_fail(m, c, "receive", 0);
			return;
		}
		if (r < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				mc_conn_fail(m, c, "receive", errno);
			return;
		}
		m->cur = c->id;
		if (rxp_feed(&c->rx, gen_scratch, r, m->ops, m->ctx)) {
			cconn_fail(&m->l, c, "protocol error from the server");
			mc_fail(m, "connection %d: %s", c->id, c->err);
			return;
		}
		if (r < GEN_IOBUF)
			return;
	}
}

int mc_poll(struct mclient *m, uint64_t wake, uint64_t deadline)
{
	struct epoll_event ev[64];
	int k;

	loop_arm(&m->l, wake < deadline ? wake : deadline);
	k = loop_wait(&m->l, ev, 64);
	if (k < 0) {
		mc_fail(m, "epoll_wait: %s", strerror(errno));
		return -1;
	}
	for (int j = 0; j < k && !m->error[0]; j++) {
		struct cconn *c = ev[j].data.ptr;

		if (c == LOOP_TIMER || c->fd < 0)
			continue;
		if (ev[j].events & EPOLLOUT) {
			/* level-triggered: the rest on the next turn */
			ssize_t e = txq_flush_limit(&c->tx, c->fd, GEN_SLICE);

			if (e < 0) {
				mc_conn_fail(m, c, "send", (int)-e);
				continue;
			}
			mc_events(m, c);
		}
		if (ev[j].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
			mc_input(m, c);
	}
	return 0;
}

int mc_close(struct mclient *m)
{
	for (int i = 0; i < m->n; i++)
		cconn_close(&m->l, &m->c[i]);
	if (!m->error[0])
		return 0;
	gen_err("%s", m->error);
	return -1;
}

void mc_report_end(const struct mclient *m, struct jw *w,
		   const struct netns_counters *na,
		   const struct netns_counters *nb)
{
	int i;

	if (!w) {
		for (i = 0; i < m->n; i++)
			cconn_text(stdout, &m->c[i]);
		netns_counters_text(stdout, na, nb);
		if (m->error[0])
			printf("error: %s\n", m->error);
		return;
	}
	jw_arr(w, "conns");
	for (i = 0; i < m->n; i++) {
		jw_obj(w, NULL);
		cconn_json(w, &m->c[i]);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	netns_counters_json(w, na, nb);
	jw_str(w, "error", m->error[0] ? m->error : NULL);
	jw_obj_end(w);
	jw_end(w);
}
