// SPDX-License-Identifier: GPL-2.0
/*
 * aicc(8): per-socket state through NETLINK_SOCK_DIAG.
 *
 * One inet_diag_req_v2 dump per address family asks for INET_DIAG_INFO
 * (struct tcp_info) and INET_DIAG_CONG (the algorithm's name) and, by not
 * setting INET_DIAG_VEGASINFO, makes aicc answer with struct aicc_info in
 * attribute AICC_DIAG_ATTR.  Filters are applied here, in userspace.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>

#include "aicc_tool.h"

#define NR_TCP_STATES	12	/* names for 1 (ESTAB) to 11 (CLOSING) */

static const char *const tcp_states[NR_TCP_STATES] = {
	[1] = "ESTAB", [2] = "SYN-SENT", [3] = "SYN-RECV", [4] = "FIN-WAIT-1",
	[5] = "FIN-WAIT-2", [6] = "TIME-WAIT", [7] = "CLOSE", [8] = "CLOSE-WAIT",
	[9] = "LAST-ACK", [10] = "LISTEN", [11] = "CLOSING",
};

/*
 * Every state a socket with a congestion controller can be in: the ones
 * 'aicc flows' lists (its -h names them from here).
 */
#define FLOW_STATES	((1U << 1) | (1U << 2) | (1U << 4) | (1U << 5) | \
			 (1U << 8) | (1U << 9) | (1U << 11))

const char *mode_name(unsigned int mode)
{
	switch (mode) {
	case AICC_MODE_START:
		return "start";
	case AICC_MODE_TRACK:
		return "track";
	case AICC_MODE_LOSS:
		return "loss";
	case AICC_MODE_RESUME:
		return "resume";
	}
	return "?";
}

void flow_filter_init(struct flow_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->sport = -1;
	f->dport = -1;
	f->profile = -1;
}

int parse_prefix(const char *s, struct prefix *p)
{
	char buf[INET6_ADDRSTRLEN + 8], *slash, *end;
	long plen;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	if (inet_pton(AF_INET, buf, &p->a.v4) == 1) {
		p->family = AF_INET;
		p->plen = 32;
	} else if (inet_pton(AF_INET6, buf, &p->a.v6) == 1) {
		p->family = AF_INET6;
		p->plen = 128;
	} else {
		return -1;
	}
	if (slash) {
		errno = 0;
		plen = isdigit((unsigned char)slash[1]) ?
		       strtol(slash + 1, &end, 10) : -1;
		if (plen < 0 || errno || *end || plen > p->plen)
			return -1;
		p->plen = (int)plen;
	}
	return 0;
}

static bool prefix_match(const struct prefix *p, int family,
			 const union addr *a)
{
	static const uint8_t v4mapped[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};
	int full = p->plen / 8, rest = p->plen % 8;
	const uint8_t *b = a->b;

	if (!p->family)
		return true;
	/*
	 * An IPv4 prefix also matches an IPv6 socket's IPv4-mapped address
	 * (::ffff:a.b.c.d): a dual-stack listener's IPv4 clients.
	 */
	if (p->family == AF_INET && family == AF_INET6 &&
	    !memcmp(b, v4mapped, sizeof(v4mapped)))
		b += sizeof(v4mapped);
	else if (p->family != family)
		return false;
	if (memcmp(p->a.b, b, full))
		return false;
	if (rest) {
		uint8_t mask = (uint8_t)(0xff << (8 - rest));

		if ((p->a.b[full] ^ b[full]) & mask)
			return false;
	}
	return true;
}

static bool filter_match(const struct flow_filter *f, const struct flow *fl)
{
	if (!f->all && fl->profile < 0)
		return false;
	if (f->profile >= 0 && fl->profile != f->profile)
		return false;
	if (f->sport >= 0 && fl->sport != f->sport)
		return false;
	if (f->dport >= 0 && fl->dport != f->dport)
		return false;
	return prefix_match(&f->src, fl->family, &fl->src) &&
	       prefix_match(&f->dst, fl->family, &fl->dst);
}

static int cong_profile(const char *name)
{
	int i;

	for (i = 0; i < AICC_NR_PROFILES; i++)
		if (!strcmp(profile_table[i].name, name))
			return i;
	return -1;
}

struct flow_vec {
	struct flow *v;
	size_t n, cap;
};

static int parse_one(struct nlmsghdr *h, const struct flow_filter *f,
		     struct flow_vec *fv)
{
	struct inet_diag_msg *m = NLMSG_DATA(h);
	int len = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*m));
	struct rtattr *a;
	struct flow fl;

	if (len < 0)
		return -EBADMSG;
	memset(&fl, 0, sizeof(fl));
	fl.family = m->idiag_family;
	fl.state = m->idiag_state;
	fl.sport = ntohs(m->id.idiag_sport);
	fl.dport = ntohs(m->id.idiag_dport);
	memcpy(fl.src.b, m->id.idiag_src, 16);
	memcpy(fl.dst.b, m->id.idiag_dst, 16);
	fl.profile = -1;

	for (a = (struct rtattr *)(m + 1); RTA_OK(a, len);
	     a = RTA_NEXT(a, len)) {
		size_t plen = RTA_PAYLOAD(a);

		switch (a->rta_type) {
		case INET_DIAG_CONG:
			snprintf(fl.cong, sizeof(fl.cong), "%.*s",
				 (int)plen, (char *)RTA_DATA(a));
			break;
		case INET_DIAG_INFO:
			memcpy(&fl.tcpi, RTA_DATA(a),
			       plen < sizeof(fl.tcpi) ? plen : sizeof(fl.tcpi));
			fl.have_tcpi = true;
			break;
		case AICC_DIAG_ATTR:
			if (plen >= sizeof(fl.ai)) {
				memcpy(&fl.ai, RTA_DATA(a), sizeof(fl.ai));
				fl.have_aicc = true;
			}
			break;
		default:
			break;
		}
	}
	fl.profile = cong_profile(fl.cong);
	if (fl.profile < 0 && fl.have_aicc &&
	    fl.ai.aicc_profile < AICC_NR_PROFILES)
		fl.profile = fl.ai.aicc_profile;
	if (!filter_match(f, &fl))
		return 0;
	if (fv->n == fv->cap) {
		size_t cap = fv->cap ? fv->cap * 2 : 64;
		struct flow *nv = realloc(fv->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		fv->v = nv;
		fv->cap = cap;
	}
	fv->v[fv->n++] = fl;
	return 0;
}

static int dump_family(int fd, int family, const struct flow_filter *f,
		       struct flow_vec *fv)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	static char buf[65536];
	static unsigned int seq;
	int ret;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nlh.nlmsg_seq = ++seq;
	req.r.sdiag_family = (uint8_t)family;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = FLOW_STATES;
	req.r.idiag_ext = (1 << (INET_DIAG_INFO - 1)) |
			  (1 << (INET_DIAG_CONG - 1));

	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *h;
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EPIPE;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				return e->error ? e->error : -EPROTO;
			}
			if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
				continue;
			ret = parse_one(h, f, fv);
			if (ret)
				return ret;
		}
	}
}

int flows_collect(const struct flow_filter *f, struct flow **out, size_t *n)
{
	struct flow_vec fv = { NULL, 0, 0 };
	int fd, ret = 0, fam;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -errno;
	for (fam = 0; fam < 2 && !ret; fam++) {
		int family = fam ? AF_INET6 : AF_INET;

		/* IPv6 sockets may carry IPv4-mapped addresses */
		if (family == AF_INET && (f->src.family == AF_INET6 ||
					  f->dst.family == AF_INET6))
			continue;
		ret = dump_family(fd, family, f, &fv);
		/* A kernel without IPv6 answers ENOENT for AF_INET6. */
		if (ret == -ENOENT && family == AF_INET6)
			ret = 0;
	}
	close(fd);
	if (ret) {
		free(fv.v);
		return ret;
	}
	*out = fv.v;
	*n = fv.n;
	return 0;
}

static void fmt_endpoint(char *buf, size_t len, int family,
			 const union addr *a, unsigned int port)
{
	char ab[INET6_ADDRSTRLEN];

	inet_ntop(family, a->b, ab, sizeof(ab));
	if (family == AF_INET6)
		snprintf(buf, len, "[%s]:%u", ab, port);
	else
		snprintf(buf, len, "%s:%u", ab, port);
}

static const char *state_name(unsigned int s)
{
	return s < sizeof(tcp_states) / sizeof(tcp_states[0]) && tcp_states[s] ?
	       tcp_states[s] : "?";
}

/* cwnd in packets: aicc's own 1/16 packet value when available. */
static double flow_cwnd(const struct flow *fl)
{
	if (fl->have_aicc)
		return fl->ai.aicc_cwnd_x16 / 16.0;
	return fl->have_tcpi ? fl->tcpi.tcpi_snd_cwnd : 0;
}

void flows_print(const struct flow *fl, size_t n)
{
	size_t i;

	printf("%-10s %-10s %-24s %-24s %7s %8s %8s %8s %8s %6s %-6s %9s %5s\n",
	       "PROFILE", "STATE", "LOCAL", "PEER", "CWND", "RTT", "MINRTT",
	       "QDELAY", "TARGET", "ALPHA", "MODE", "PACING", "RETR");
	for (i = 0; i < n; i++) {
		const struct flow *f = &fl[i];
		char loc[64], peer[64], rtt[16] = "-", minrtt[16] = "-";
		char qd[16] = "-", tg[16] = "-", alpha[16] = "-";
		char pace[16] = "-", retr[16] = "-";

		fmt_endpoint(loc, sizeof(loc), f->family, &f->src, f->sport);
		fmt_endpoint(peer, sizeof(peer), f->family, &f->dst, f->dport);
		if (f->have_tcpi) {
			format_us(f->tcpi.tcpi_rtt, rtt, sizeof(rtt));
			format_us(f->tcpi.tcpi_min_rtt, minrtt, sizeof(minrtt));
			if (f->tcpi.tcpi_pacing_rate != ~0ULL)
				format_rate_bps(f->tcpi.tcpi_pacing_rate * 8.0,
						pace, sizeof(pace));
			else
				snprintf(pace, sizeof(pace), "none");
			snprintf(retr, sizeof(retr), "%u",
				 f->tcpi.tcpi_total_retrans);
		}
		if (f->have_aicc) {
			format_us(f->ai.aicc_qdelay_us, qd, sizeof(qd));
			format_us(f->ai.aicc_target_us, tg, sizeof(tg));
			snprintf(alpha, sizeof(alpha), "%.3f",
				 f->ai.aicc_alpha / 1024.0);
		}
		printf("%-10s %-10s %-24s %-24s %7.2f %8s %8s %8s %8s %6s %-6s %9s %5s\n",
		       *f->cong ? f->cong : "?", state_name(f->state), loc,
		       peer, flow_cwnd(f), rtt, minrtt, qd, tg, alpha,
		       f->have_aicc ? mode_name(f->ai.aicc_mode) : "-", pace,
		       retr);
	}
}

void flows_json(const char *key, const struct flow *fl, size_t n)
{
	char ab[INET6_ADDRSTRLEN];
	size_t i;

	json_open_arr(key);
	for (i = 0; i < n; i++) {
		const struct flow *f = &fl[i];

		json_open_obj(NULL);
		json_str("profile", *f->cong ? f->cong : NULL);
		json_bool("aicc", f->profile >= 0);
		json_str("state", state_name(f->state));
		json_str("family", f->family == AF_INET6 ? "inet6" : "inet");
		inet_ntop(f->family, f->src.b, ab, sizeof(ab));
		json_str("src", ab);
		json_u64("sport", f->sport);
		inet_ntop(f->family, f->dst.b, ab, sizeof(ab));
		json_str("dst", ab);
		json_u64("dport", f->dport);
		json_double("cwnd", flow_cwnd(f));
		if (f->have_tcpi) {
			json_u64("snd_cwnd", f->tcpi.tcpi_snd_cwnd);
			json_u64("rtt_us", f->tcpi.tcpi_rtt);
			json_u64("rttvar_us", f->tcpi.tcpi_rttvar);
			json_u64("min_rtt_us", f->tcpi.tcpi_min_rtt);
			if (f->tcpi.tcpi_pacing_rate != ~0ULL)
				json_u64("pacing_rate_bps",
					 f->tcpi.tcpi_pacing_rate * 8);
			else
				json_null("pacing_rate_bps");
			json_u64("delivery_rate_bps",
				 f->tcpi.tcpi_delivery_rate * 8);
			json_u64("retrans", f->tcpi.tcpi_retrans);
			json_u64("total_retrans", f->tcpi.tcpi_total_retrans);
			json_u64("bytes_acked", f->tcpi.tcpi_bytes_acked);
		}
		if (f->have_aicc) {
			json_open_obj("aicc_info");
			json_double("cwnd", f->ai.aicc_cwnd_x16 / 16.0);
			json_u64("base_rtt_us", f->ai.aicc_base_rtt_us);
			json_u64("target_us", f->ai.aicc_target_us);
			json_u64("qdelay_us", f->ai.aicc_qdelay_us);
			json_double("alpha", f->ai.aicc_alpha / 1024.0);
			json_str("mode", mode_name(f->ai.aicc_mode));
			json_close_obj();
		}
		json_close_obj();
	}
	json_close_arr();
}

/* The names of the states FLOW_STATES has (in) or has not, on one line. */
static void print_states(FILE *f, bool in)
{
	const char *sep = "    ";
	size_t s;

	for (s = 0; s < NR_TCP_STATES; s++) {
		if (!tcp_states[s] || !(FLOW_STATES & 1U << s) != !in)
			continue;
		fprintf(f, "%s%s", sep, tcp_states[s]);
		sep = " ";
	}
	fputc('\n', f);
}

static void flows_usage(FILE *f)
{
	fprintf(f,
		"Usage: aicc [-j] flows [-a|--all] [src PREFIX] [dst PREFIX]\n"
		"                       [sport PORT] [dport PORT] [profile NAME]\n"
		"  TCP sockets using an aicc profile, read through sock_diag:\n"
		"  cwnd, RTT, min RTT, queueing delay and target, ECN alpha,\n"
		"  mode, pacing rate, retransmissions.  src/dst are the local\n"
		"  and the remote end.  -a also lists sockets using any other\n"
		"  congestion control (their aicc columns are empty).\n"
		"  With -a too, only sockets in these states are listed:\n");
	print_states(f, true);
	fprintf(f,
		"  never these (a handshake's server side, TIME-WAIT, closed\n"
		"  or only bound, listening):\n");
	print_states(f, false);
}

/*
 * Parse one flow filter at argv[*i]; returns 1 if argv[*i] is not a
 * filter word, 0 when one was consumed, -1 on error (reported).
 */
int parse_flow_filter(struct flow_filter *f, int argc, char **argv, int *i)
{
	const char *w = argv[*i];
	const char *v;
	char *end;
	long port;

	if (!strcmp(w, "-a") || !strcmp(w, "--all")) {
		f->all = true;
		return 0;
	}
	if (strcmp(w, "src") && strcmp(w, "dst") && strcmp(w, "sport") &&
	    strcmp(w, "dport") && strcmp(w, "profile"))
		return 1;
	if (*i + 1 >= argc) {
		err("flows: '%s' needs a value", w);
		return -1;
	}
	v = argv[++*i];
	if (!strcmp(w, "src") || !strcmp(w, "dst")) {
		struct prefix *p = w[0] == 's' ? &f->src : &f->dst;

		if (parse_prefix(v, p)) {
			err("flows: '%s' is not an address or ADDR/PREFIXLEN", v);
			return -1;
		}
		return 0;
	}
	if (!strcmp(w, "profile")) {
		f->profile = cong_profile(v);
		if (f->profile < 0) {
			err("flows: unknown profile '%s' (aicc, aicc_lat, aicc_bulk)",
			    v);
			return -1;
		}
		return 0;
	}
	errno = 0;
	port = isdigit((unsigned char)*v) ? strtol(v, &end, 10) : -1;
	if (port < 0 || errno || *end || port > 65535) {
		err("flows: '%s' is not a port number", v);
		return -1;
	}
	if (!strcmp(w, "sport"))
		f->sport = (int)port;
	else
		f->dport = (int)port;
	return 0;
}

int cmd_flows(int argc, char **argv)
{
	struct flow_filter f;
	struct flow *fl = NULL;
	size_t n = 0;
	int i, ret;

	flow_filter_init(&f);
	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			flows_usage(stdout);
			return 0;
		}
		ret = parse_flow_filter(&f, argc, argv, &i);
		if (ret < 0)
			return EXIT_USAGE;
		if (ret > 0) {
			err("flows: unknown filter '%s' (try 'aicc flows -h')",
			    argv[i]);
			return EXIT_USAGE;
		}
	}
	ret = flows_collect(&f, &fl, &n);
	if (ret) {
		err("flows: sock_diag failed: %s", errno_words(-ret));
		return 1;
	}
	if (opt_json) {
		flows_json(NULL, fl, n);
		json_end();
	} else {
		flows_print(fl, n);
	}
	free(fl);
	return 0;
}
