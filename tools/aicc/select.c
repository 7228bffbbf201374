// SPDX-License-Identifier: GPL-2.0
/*
 * aicc(8): choosing which connections use aicc.
 *
 *   select default [NAME]      net.ipv4.tcp_congestion_control
 *   select route ...           per-route congctl (RTAX_CC_ALGO) through
 *                              rtnetlink, like 'ip route ... congctl'
 *   select get ADDR            what a new connection to ADDR would use
 *
 * 'route add' on a prefix that already has a route in the main table
 * replaces that route with an identical one (same nexthops, priority,
 * metrics, protocol) that also carries congctl; without such a route it
 * creates one, marked 'proto 172' (AICC_RTPROT), whose nexthop comes from
 * 'via'/'dev' or from the kernel's current route to the prefix.  'via' or
 * 'dev' on a prefix that has a route replace it only if aicc created it:
 * any other route would lose its other attributes (gateway, mtu, ...), so
 * that is refused.
 * 'route del' deletes a route aicc created and only strips congctl from any
 * other route, so removing a selection never removes connectivity.
 * 'route add ... usec-ts' also sets the route feature tcp_usec_ts (6.7+:
 * TCP timestamps in microseconds, which aicc's reverse-path correction
 * needs on paths shorter than 4 ms); 'route del' leaves it on a route it
 * did not create.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "aicc_tool.h"

#define AICC_RTPROT	172	/* routes created by 'aicc select route add' */
#ifndef RTAX_FEATURE_TCP_USEC_TS	/* uapi headers before 6.7 */
#define RTAX_FEATURE_TCP_USEC_TS	(1 << 4)
#endif
#define PROC_CC		"/proc/sys/net/ipv4/tcp_congestion_control"
#define NLBUF		32768

/* ---- netlink plumbing ---- */

struct nlreq {
	struct nlmsghdr h;
	struct rtmsg r;
	char attrs[2048];
};

static int nl_open(void)
{
	int fd, one = 1;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	/* Ask for the kernel's error message; harmless if unsupported. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return fd;
}

static struct rtattr *add_attr(struct nlmsghdr *h, size_t max, int type,
			       const void *data, size_t len)
{
	size_t alen = RTA_LENGTH(len);
	struct rtattr *a;

	if (NLMSG_ALIGN(h->nlmsg_len) + RTA_ALIGN(alen) > max)
		return NULL;
	a = (struct rtattr *)((char *)h + NLMSG_ALIGN(h->nlmsg_len));
	a->rta_type = (unsigned short)type;
	a->rta_len = (unsigned short)alen;
	if (len)
		memcpy(RTA_DATA(a), data, len);
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + RTA_ALIGN(alen);
	return a;
}

static void end_nest(struct nlmsghdr *h, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)((char *)h + h->nlmsg_len -
					 (char *)nest);
}

static char nl_errmsg[256];

/* Kernel's extended-ack message, if the error carried one. */
static void grab_ext_ack(struct nlmsghdr *h)
{
	struct nlmsgerr *e = NLMSG_DATA(h);
	struct rtattr *a;
	size_t off;
	int len;

	nl_errmsg[0] = '\0';
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	off = sizeof(*e);
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(off);
	if (len <= 0)
		return;
	for (a = (struct rtattr *)((char *)e + NLMSG_ALIGN(off));
	     RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == NLMSGERR_ATTR_MSG)
			snprintf(nl_errmsg, sizeof(nl_errmsg), "%.*s",
				 (int)RTA_PAYLOAD(a), (char *)RTA_DATA(a));
	}
}

/*
 * Send @h and read the answer.  @cb sees every data message; returns 0,
 * or -errno from the kernel (message in nl_errmsg).
 */
static int nl_talk(int fd, struct nlmsghdr *h,
		   int (*cb)(struct nlmsghdr *, void *), void *arg)
{
	static unsigned int seq;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char *buf;
	int ret = 0;

	h->nlmsg_seq = ++seq;
	/* NLM_F_REPLACE shares its bit with NLM_F_ROOT: look at the type. */
	if (h->nlmsg_type != RTM_GETROUTE ||
	    (h->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
		h->nlmsg_flags |= NLM_F_ACK;
	if (sendto(fd, h, h->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	buf = malloc(NLBUF);
	if (!buf)
		return -ENOMEM;
	nl_errmsg[0] = '\0';
	for (;;) {
		struct nlmsghdr *m;
		ssize_t n = recv(fd, buf, NLBUF, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		for (m = (struct nlmsghdr *)buf; NLMSG_OK(m, (size_t)n);
		     m = NLMSG_NEXT(m, n)) {
			if (m->nlmsg_seq != seq)
				continue;
			if (m->nlmsg_type == NLMSG_DONE)
				goto out;
			if (m->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(m);

				ret = e->error;
				if (ret)
					grab_ext_ack(m);
				goto out;
			}
			if (cb && !ret)
				ret = cb(m, arg);
		}
	}
out:
	free(buf);
	return ret;
}

static const char *nl_words(int ret)
{
	static char buf[400];

	if (nl_errmsg[0])
		snprintf(buf, sizeof(buf), "%s: %s", errno_words(-ret),
			 nl_errmsg);
	else
		snprintf(buf, sizeof(buf), "%s", errno_words(-ret));
	return buf;
}

/* ---- routes ---- */

struct route {
	bool found;
	struct rtmsg r;
	uint32_t table, priority, oif;
	bool have_prio, have_gw, have_oif;
	union addr dst, gw;
	char cc[16];
	uint32_t features;	/* RTAX_FEATURES */
	char *raw;		/* copy of the whole message */
	size_t rawlen;
};

static void route_free(struct route *rt)
{
	free(rt->raw);
	rt->raw = NULL;
}

static void parse_route(struct nlmsghdr *h, struct route *rt)
{
	struct rtmsg *r = NLMSG_DATA(h);
	int len = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*r));
	struct rtattr *a;

	memset(rt, 0, sizeof(*rt));
	rt->r = *r;
	rt->table = r->rtm_table;
	for (a = RTM_RTA(r); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		size_t pl = RTA_PAYLOAD(a);

		switch (a->rta_type) {
		case RTA_TABLE:
			if (pl >= 4)
				memcpy(&rt->table, RTA_DATA(a), 4);
			break;
		case RTA_DST:
			memcpy(rt->dst.b, RTA_DATA(a), pl > 16 ? 16 : pl);
			break;
		case RTA_GATEWAY:
			memcpy(rt->gw.b, RTA_DATA(a), pl > 16 ? 16 : pl);
			rt->have_gw = true;
			break;
		case RTA_OIF:
			if (pl >= 4) {
				memcpy(&rt->oif, RTA_DATA(a), 4);
				rt->have_oif = true;
			}
			break;
		case RTA_PRIORITY:
			if (pl >= 4) {
				memcpy(&rt->priority, RTA_DATA(a), 4);
				rt->have_prio = true;
			}
			break;
		case RTA_METRICS: {
			int ml = (int)pl;
			struct rtattr *m;

			for (m = RTA_DATA(a); RTA_OK(m, ml);
			     m = RTA_NEXT(m, ml)) {
				if (m->rta_type == RTAX_CC_ALGO)
					snprintf(rt->cc, sizeof(rt->cc), "%.*s",
						 (int)RTA_PAYLOAD(m),
						 (char *)RTA_DATA(m));
				else if (m->rta_type == RTAX_FEATURES &&
					 RTA_PAYLOAD(m) >= 4)
					memcpy(&rt->features, RTA_DATA(m), 4);
			}
			break;
		}
		default:
			break;
		}
	}
}

struct find_ctx {
	int family;
	union addr dst;
	int plen;
	struct route best;
};

static int find_cb(struct nlmsghdr *h, void *arg)
{
	struct find_ctx *c = arg;
	struct route rt;

	if (h->nlmsg_type != RTM_NEWROUTE)
		return 0;
	parse_route(h, &rt);
	if (rt.r.rtm_family != c->family || rt.r.rtm_dst_len != c->plen ||
	    rt.table != RT_TABLE_MAIN || rt.r.rtm_tos ||
	    rt.r.rtm_type != RTN_UNICAST ||
	    memcmp(rt.dst.b, c->dst.b, c->family == AF_INET ? 4 : 16))
		return 0;
	if (c->best.found && c->best.priority <= rt.priority)
		return 0;
	route_free(&c->best);
	rt.raw = malloc(h->nlmsg_len);
	if (!rt.raw)
		return -ENOMEM;
	memcpy(rt.raw, h, h->nlmsg_len);
	rt.rawlen = h->nlmsg_len;
	rt.found = true;
	c->best = rt;
	return 0;
}

/* The main-table route for exactly @p, if any (lowest priority wins). */
static int find_route(int fd, const struct prefix *p, struct route *out)
{
	struct nlreq req;
	struct find_ctx c;
	int ret;

	memset(&req, 0, sizeof(req));
	memset(&c, 0, sizeof(c));
	c.family = p->family;
	c.dst = p->a;
	c.plen = p->plen;
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.h.nlmsg_type = RTM_GETROUTE;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.r.rtm_family = (unsigned char)p->family;
	ret = nl_talk(fd, &req.h, find_cb, &c);
	if (ret) {
		route_free(&c.best);
		return ret;
	}
	*out = c.best;
	return 0;
}

static int get_cb(struct nlmsghdr *h, void *arg)
{
	struct route *rt = arg;

	if (h->nlmsg_type != RTM_NEWROUTE)
		return 0;
	parse_route(h, rt);
	rt->found = true;
	return 0;
}

/* RTM_GETROUTE for one address; @fib_match returns the FIB entry. */
static int lookup_route(int fd, int family, const union addr *a,
			bool fib_match, struct route *rt)
{
	struct nlreq req;
	int ret;

	memset(&req, 0, sizeof(req));
	memset(rt, 0, sizeof(*rt));
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.h.nlmsg_type = RTM_GETROUTE;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.r.rtm_family = (unsigned char)family;
	req.r.rtm_dst_len = family == AF_INET ? 32 : 128;
	if (fib_match)
		req.r.rtm_flags = RTM_F_FIB_MATCH;
	add_attr(&req.h, sizeof(req), RTA_DST, a->b, family == AF_INET ? 4 : 16);
	ret = nl_talk(fd, &req.h, get_cb, rt);
	/* nl_talk saw an ACK with error 0 only after the data. */
	return ret;
}

/*
 * Build RTM_NEWROUTE (replace) for @old (may be a copy of an existing
 * route) with metrics changed: congctl set to @cc, or removed if @cc NULL,
 * and the RTAX_FEATURES bits @feat added.
 */
static int copy_route_with_cc(struct nlreq *req, const struct route *old,
			      const char *cc, uint32_t feat)
{
	static const int keep[] = {
		RTA_DST, RTA_GATEWAY, RTA_OIF, RTA_PRIORITY, RTA_PREFSRC,
		RTA_TABLE, RTA_MULTIPATH, RTA_PREF, RTA_FLOW, RTA_ENCAP_TYPE,
		RTA_ENCAP, RTA_VIA, RTA_NH_ID,
	};
	struct nlmsghdr *h = (struct nlmsghdr *)old->raw;
	struct rtmsg *r = NLMSG_DATA(h);
	int len = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*r));
	struct rtattr *a, *nest;
	size_t i;

	memset(req, 0, sizeof(*req));
	req->h.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req->h.nlmsg_type = RTM_NEWROUTE;
	req->h.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE;
	req->r = *r;
	req->r.rtm_flags &= RTNH_F_ONLINK;

	nest = add_attr(&req->h, sizeof(*req), RTA_METRICS, NULL, 0);
	if (!nest)
		return -E2BIG;
	for (a = RTM_RTA(r); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == RTA_METRICS) {
			int ml = (int)RTA_PAYLOAD(a);
			struct rtattr *m;

			for (m = RTA_DATA(a); RTA_OK(m, ml); m = RTA_NEXT(m, ml)) {
				if (m->rta_type == RTAX_CC_ALGO ||
				    (m->rta_type == RTAX_FEATURES && feat))
					continue;
				if (!add_attr(&req->h, sizeof(*req), m->rta_type,
					      RTA_DATA(m), RTA_PAYLOAD(m)))
					return -E2BIG;
			}
		}
	}
	if (cc && !add_attr(&req->h, sizeof(*req), RTAX_CC_ALGO, cc,
			    strlen(cc) + 1))
		return -E2BIG;
	feat |= feat ? old->features : 0;
	if (feat && !add_attr(&req->h, sizeof(*req), RTAX_FEATURES, &feat, 4))
		return -E2BIG;
	end_nest(&req->h, nest);
	if (nest->rta_len == RTA_LENGTH(0))	/* no metrics at all */
		req->h.nlmsg_len -= RTA_ALIGN(nest->rta_len);

	len = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*r));
	for (a = RTM_RTA(r); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
			if (a->rta_type == keep[i])
				break;
		if (i == sizeof(keep) / sizeof(keep[0]))
			continue;
		if (!add_attr(&req->h, sizeof(*req), a->rta_type, RTA_DATA(a),
			      RTA_PAYLOAD(a)))
			return -E2BIG;
	}
	return 0;
}

static bool valid_cc_name(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n >= 16)
		return false;
	for (i = 0; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) ||
		      s[i] == '_' || s[i] == '-'))
			return false;
	return true;
}

static const char *table_name(uint32_t t, char *buf, size_t len)
{
	switch (t) {
	case RT_TABLE_MAIN:
		return "main";
	case RT_TABLE_LOCAL:
		return "local";
	case RT_TABLE_DEFAULT:
		return "default";
	}
	snprintf(buf, len, "%u", t);
	return buf;
}

static void fmt_prefix(char *buf, size_t len, int family,
		       const union addr *a, int plen)
{
	char ab[INET6_ADDRSTRLEN];

	inet_ntop(family, a->b, ab, sizeof(ab));
	snprintf(buf, len, "%s/%d", ab, plen);
}

static void route_usage(FILE *f)
{
	fprintf(f,
		"Usage: aicc select route add PREFIX [via GW] [dev DEV] [usec-ts] PROFILE\n"
		"       aicc select route del PREFIX [PROFILE]\n"
		"       aicc [-j] select route list\n"
		"  add: give the main-table route for PREFIX 'congctl PROFILE'.  An\n"
		"       existing route keeps everything else; via/dev may replace\n"
		"       only a route aicc created.  Without a route, one is created\n"
		"       (proto 172) through GW/DEV or the current nexthop.\n"
		"       usec-ts: TCP timestamps in microseconds (tcp_usec_ts, 6.7+).\n"
		"  del: remove congctl; a route aicc created is deleted.\n"
		"  list: routes that carry a congctl.  Needs CAP_NET_ADMIN.\n");
}

/* The main-table route for @p (its text in @pfx); 1 after an error. */
static int route_lookup(int fd, const struct prefix *p, struct route *old,
			char pfx[64])
{
	int ret;

	fmt_prefix(pfx, 64, p->family, &p->a, p->plen);
	ret = find_route(fd, p, old);
	if (ret) {
		err("select route: cannot read routes: %s", nl_words(ret));
		return 1;
	}
	return 0;
}

static const char *proto_name(unsigned int proto, char *buf, size_t len)
{
	switch (proto) {
	case RTPROT_KERNEL:
		return "kernel";
	case RTPROT_BOOT:
		return "boot";
	case RTPROT_STATIC:
		return "static";
	case RTPROT_DHCP:
		return "dhcp";
	}
	snprintf(buf, len, "%u", proto);
	return buf;
}

/*
 * @old: the main-table route for @p, if any (route_lookup()); @via: the
 * gateway (checked by cmd_route()) or NULL.
 */
static int route_add(int fd, const struct prefix *p, struct route *old,
		     const char *pfx, const struct prefix *via,
		     const char *dev, const char *cc, uint32_t feat)
{
	struct nlreq req;
	int ret;

	/*
	 * A route built from via/dev has only those and congctl: replacing
	 * someone else's route with it would drop its gateway, mtu, other
	 * metrics and protocol.  Only aicc's own route may be replaced so.
	 */
	if (old->found && (via || dev) &&
	    old->r.rtm_protocol != AICC_RTPROT) {
		char pb[16];

		err("select route add: %s already has a route (protocol %s); %s: %s",
		    pfx, proto_name(old->r.rtm_protocol, pb, sizeof(pb)),
		    "via/dev would replace it, dropping its other attributes",
		    "leave them out to add congctl to it, or delete it first");
		route_free(old);
		return 1;
	}
	if (old->found && !via && !dev) {
		ret = copy_route_with_cc(&req, old, cc, feat);
		route_free(old);
		if (ret) {
			err("select route: route %s too large to copy", pfx);
			return 1;
		}
	} else {
		union addr gw;
		uint32_t oif = 0;
		bool have_gw = false;

		memset(&req, 0, sizeof(req));
		req.h.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
		req.h.nlmsg_type = RTM_NEWROUTE;
		req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE;
		req.r.rtm_family = (unsigned char)p->family;
		req.r.rtm_dst_len = (unsigned char)p->plen;
		req.r.rtm_table = RT_TABLE_MAIN;
		req.r.rtm_type = RTN_UNICAST;
		req.r.rtm_protocol = AICC_RTPROT;
		if (old->found && old->have_prio)
			add_attr(&req.h, sizeof(req), RTA_PRIORITY,
				 &old->priority, 4);
		route_free(old);
		if (via) {
			gw = via->a;
			have_gw = true;
		}
		if (dev) {
			oif = if_nametoindex(dev);
			if (!oif) {
				err("select route: no device '%s'", dev);
				return 1;
			}
		}
		if (!via && !dev) {
			struct route cur;

			ret = lookup_route(fd, p->family, &p->a, false, &cur);
			if (ret || !cur.found || cur.r.rtm_type != RTN_UNICAST) {
				err("select route: no unicast route to %s to take a nexthop from; give 'via GW' or 'dev DEV'",
				    pfx);
				return 1;
			}
			have_gw = cur.have_gw;
			gw = cur.gw;
			oif = cur.oif;
		}
		req.r.rtm_scope = have_gw ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK;
		add_attr(&req.h, sizeof(req), RTA_DST, p->a.b,
			 p->family == AF_INET ? 4 : 16);
		if (have_gw)
			add_attr(&req.h, sizeof(req), RTA_GATEWAY, gw.b,
				 p->family == AF_INET ? 4 : 16);
		if (oif)
			add_attr(&req.h, sizeof(req), RTA_OIF, &oif, 4);
		{
			struct rtattr *nest = add_attr(&req.h, sizeof(req),
						       RTA_METRICS, NULL, 0);

			add_attr(&req.h, sizeof(req), RTAX_CC_ALGO, cc,
				 strlen(cc) + 1);
			if (feat)
				add_attr(&req.h, sizeof(req), RTAX_FEATURES,
					 &feat, 4);
			end_nest(&req.h, nest);
		}
	}
	ret = nl_talk(fd, &req.h, NULL, NULL);
	if (ret) {
		err("select route add %s congctl %s%s: %s%s", pfx, cc,
		    feat ? " features tcp_usec_ts" : "", nl_words(ret),
		    ret == -ENOENT ? " (is the congestion control loaded?)" :
		    ret == -EINVAL && feat ?
		    " (tcp_usec_ts needs Linux 6.7 or later)" : "");
		return 1;
	}
	return 0;
}

static int route_del(int fd, struct route *old, const char *pfx,
		     const char *cc)
{
	struct nlreq req;
	int ret;

	if (!old->found || !old->cc[0]) {
		err("select route del: no main-table route %s with a congctl",
		    pfx);
		route_free(old);
		return 1;
	}
	if (cc && strcmp(cc, old->cc)) {
		err("select route del: route %s uses congctl %s, not %s", pfx,
		    old->cc, cc);
		route_free(old);
		return 1;
	}
	if (old->r.rtm_protocol == AICC_RTPROT) {
		/*
		 * A route aicc added goes: its key alone (prefix, table,
		 * metric, protocol) names it.  The whole dumped message may
		 * not fit the request (a route of a hundred nexthops).
		 */
		int alen = old->r.rtm_family == AF_INET ? 4 : 16;

		memset(&req, 0, sizeof(req));
		req.h.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
		req.h.nlmsg_type = RTM_DELROUTE;
		req.h.nlmsg_flags = NLM_F_REQUEST;
		req.r = old->r;
		req.r.rtm_flags = 0;
		ret = add_attr(&req.h, sizeof(req), RTA_TABLE, &old->table,
			       4) ? 0 : -E2BIG;
		if (!ret && old->r.rtm_dst_len &&
		    !add_attr(&req.h, sizeof(req), RTA_DST, old->dst.b, alen))
			ret = -E2BIG;
		if (!ret && old->have_prio &&
		    !add_attr(&req.h, sizeof(req), RTA_PRIORITY,
			      &old->priority, 4))
			ret = -E2BIG;
	} else {
		ret = copy_route_with_cc(&req, old, NULL, 0);
	}
	route_free(old);
	if (ret) {
		err("select route: route %s too large to copy", pfx);
		return 1;
	}
	ret = nl_talk(fd, &req.h, NULL, NULL);
	if (ret) {
		err("select route del %s: %s", pfx, nl_words(ret));
		return 1;
	}
	return 0;
}

struct list_ctx {
	int n;
};

static int list_cb(struct nlmsghdr *h, void *arg)
{
	struct list_ctx *c = arg;
	char pfx[64], gw[INET6_ADDRSTRLEN], dev[IF_NAMESIZE] = "";
	struct route rt;

	if (h->nlmsg_type != RTM_NEWROUTE)
		return 0;
	parse_route(h, &rt);
	if (!rt.cc[0])
		return 0;
	fmt_prefix(pfx, sizeof(pfx), rt.r.rtm_family, &rt.dst, rt.r.rtm_dst_len);
	if (rt.have_gw)
		inet_ntop(rt.r.rtm_family, rt.gw.b, gw, sizeof(gw));
	if (rt.have_oif && !if_indextoname(rt.oif, dev))
		dev[0] = '\0';
	if (opt_json) {
		json_open_obj(NULL);
		json_str("prefix", pfx);
		json_str("via", rt.have_gw ? gw : NULL);
		json_str("dev", dev[0] ? dev : NULL);
		json_u64("table", rt.table);
		json_str("congctl", rt.cc);
		json_bool("usec_ts", rt.features & RTAX_FEATURE_TCP_USEC_TS);
		json_bool("created_by_aicc", rt.r.rtm_protocol == AICC_RTPROT);
		json_close_obj();
	} else {
		char tb[16];

		printf("%-24s %-10s%s%s%s%s table %s%s%s\n", pfx, rt.cc,
		       rt.have_gw ? " via " : "", rt.have_gw ? gw : "",
		       dev[0] ? " dev " : "", dev,
		       table_name(rt.table, tb, sizeof(tb)),
		       rt.features & RTAX_FEATURE_TCP_USEC_TS ?
		       " features tcp_usec_ts" : "",
		       rt.r.rtm_protocol == AICC_RTPROT ? " (created by aicc)" : "");
	}
	c->n++;
	return 0;
}

static int route_list(int fd)
{
	struct list_ctx c = { 0 };
	struct nlreq req;
	int fam, ret;

	if (opt_json)
		json_open_arr(NULL);
	for (fam = 0; fam < 2; fam++) {
		memset(&req, 0, sizeof(req));
		req.h.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
		req.h.nlmsg_type = RTM_GETROUTE;
		req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		req.r.rtm_family = fam ? AF_INET6 : AF_INET;
		ret = nl_talk(fd, &req.h, list_cb, &c);
		if (ret && !(fam && ret == -EAFNOSUPPORT)) {
			if (opt_json) {
				json_close_arr();
				json_end();
			}
			err("select route list: %s", nl_words(ret));
			return 1;
		}
	}
	if (opt_json) {
		json_close_arr();
		json_end();
	}
	return 0;
}

static int cmd_route(int argc, char **argv)
{
	const char *via = NULL, *dev = NULL, *cc = NULL;
	uint32_t feat = 0;
	struct route old;
	struct prefix p, gw;
	char pfx[64];
	bool add;
	int i, fd, ret;

	if (argc < 2 || is_help(argv[1])) {
		route_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "list") || !strcmp(argv[1], "show")) {
		if (argc > 2) {
			err("select route list: unexpected argument '%s'",
			    argv[2]);
			return EXIT_USAGE;
		}
		fd = nl_open();
		if (fd < 0) {
			err("select route: netlink: %s", errno_words(-fd));
			return 1;
		}
		ret = route_list(fd);
		close(fd);
		return ret;
	}
	if (strcmp(argv[1], "add") && strcmp(argv[1], "del")) {
		err("select route: unknown command '%s' (add, del, list)",
		    argv[1]);
		return EXIT_USAGE;
	}
	add = !strcmp(argv[1], "add");
	if (argc < 3) {
		err("select route %s: PREFIX missing", argv[1]);
		return EXIT_USAGE;
	}
	if (parse_prefix(argv[2], &p)) {
		err("select route: '%s' is not an address or ADDR/PREFIXLEN",
		    argv[2]);
		return EXIT_USAGE;
	}
	/* Host bits must be clear, as the kernel wants them. */
	{
		int b;

		for (b = p.plen; b < (p.family == AF_INET ? 32 : 128); b++) {
			if (p.a.b[b / 8] & (0x80 >> (b % 8))) {
				err("select route: '%s' has host bits set beyond /%d",
				    argv[2], p.plen);
				return EXIT_USAGE;
			}
		}
	}
	for (i = 3; i < argc; i++) {
		if (is_help(argv[i])) {
			route_usage(stdout);
			return 0;
		}
		if ((!strcmp(argv[i], "via") || !strcmp(argv[i], "dev")) &&
		    add) {
			if (i + 1 >= argc) {
				err("select route: '%s' needs a value", argv[i]);
				return EXIT_USAGE;
			}
			if (argv[i][0] == 'v')
				via = argv[++i];
			else
				dev = argv[++i];
		} else if (!strcmp(argv[i], "usec-ts") && add) {
			feat |= RTAX_FEATURE_TCP_USEC_TS;
		} else if (!strcmp(argv[i], "via") || !strcmp(argv[i], "dev") ||
			   !strcmp(argv[i], "usec-ts")) {
			/* not a PROFILE named 'usec-ts' */
			err("select route del: '%s' is for 'route add' only",
			    argv[i]);
			return EXIT_USAGE;
		} else if (!cc) {
			cc = argv[i];
		} else {
			err("select route: unexpected argument '%s'", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (add && !cc) {
		err("select route add: PROFILE missing (e.g. aicc)");
		return EXIT_USAGE;
	}
	if (cc && !valid_cc_name(cc)) {
		err("select route: '%s' is not a congestion control name", cc);
		return EXIT_USAGE;
	}
	if (dev && strlen(dev) >= IF_NAMESIZE) {
		err("select route: device name '%s' too long", dev);
		return EXIT_USAGE;
	}
	/* bad input is refused before the routes are read, whatever they are */
	if (via && (parse_prefix(via, &gw) || strchr(via, '/') ||
		    gw.family != p.family)) {
		err("select route: 'via %s' is not an address of the prefix's family",
		    via);
		return EXIT_USAGE;
	}
	fd = nl_open();
	if (fd < 0) {
		err("select route: netlink: %s", errno_words(-fd));
		return 1;
	}
	if (route_lookup(fd, &p, &old, pfx))
		ret = 1;
	else if (add)
		ret = route_add(fd, &p, &old, pfx, via ? &gw : NULL, dev, cc,
				feat);
	else
		ret = route_del(fd, &old, pfx, cc);
	close(fd);
	return ret;
}

/* ---- get ---- */

static int cmd_get(int argc, char **argv)
{
	char def[64] = "", pfx[64], gw[INET6_ADDRSTRLEN] = "";
	char dev[IF_NAMESIZE] = "";
	struct prefix p;
	struct route rt;
	const char *eff;
	int fd, ret;

	if (argc < 2 || is_help(argv[1])) {
		fprintf(argc < 2 ? stderr : stdout,
			"Usage: aicc [-j] select get ADDR\n"
			"  The congestion control a new connection to ADDR gets: the\n"
			"  route's congctl, else the system default (a socket's own\n"
			"  TCP_CONGESTION setting overrides both).\n");
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (argc > 2) {
		err("select get: unexpected argument '%s'", argv[2]);
		return EXIT_USAGE;
	}
	if (parse_prefix(argv[1], &p) || strchr(argv[1], '/')) {
		err("select get: '%s' is not an IPv4 or IPv6 address", argv[1]);
		return EXIT_USAGE;
	}
	fd = nl_open();
	if (fd < 0) {
		err("select get: netlink: %s", errno_words(-fd));
		return 1;
	}
	ret = lookup_route(fd, p.family, &p.a, true, &rt);
	if (ret == -EOPNOTSUPP || ret == -EINVAL)	/* old kernel */
		ret = lookup_route(fd, p.family, &p.a, false, &rt);
	close(fd);
	if (ret || !rt.found) {
		err("select get %s: %s", argv[1],
		    ret ? nl_words(ret) : "no route");
		return 1;
	}
	read_default_cc(def, sizeof(def));
	fmt_prefix(pfx, sizeof(pfx), p.family, &rt.dst, rt.r.rtm_dst_len);
	if (rt.have_gw)
		inet_ntop(p.family, rt.gw.b, gw, sizeof(gw));
	if (rt.have_oif && !if_indextoname(rt.oif, dev))
		dev[0] = '\0';
	eff = rt.cc[0] ? rt.cc : def;
	if (opt_json) {
		json_open_obj(NULL);
		json_str("address", argv[1]);
		json_str("congctl", eff);
		json_str("source", rt.cc[0] ? "route" : "default");
		json_open_obj("route");
		json_str("prefix", pfx);
		json_str("via", gw[0] ? gw : NULL);
		json_str("dev", dev[0] ? dev : NULL);
		json_u64("table", rt.table);
		json_str("congctl", rt.cc[0] ? rt.cc : NULL);
		json_bool("local", rt.r.rtm_type == RTN_LOCAL);
		json_close_obj();
		json_str("default", def);
		json_close_obj();
		json_end();
	} else {
		char tb[16];

		printf("%s: %s (%s; %sroute %s%s%s%s%s table %s)\n", argv[1],
		       eff, rt.cc[0] ? "route congctl" : "system default",
		       rt.r.rtm_type == RTN_LOCAL ? "local " : "", pfx,
		       gw[0] ? " via " : "", gw, dev[0] ? " dev " : "", dev,
		       table_name(rt.table, tb, sizeof(tb)));
	}
	return 0;
}

/* ---- default ---- */

static int cmd_default(int argc, char **argv)
{
	char cur[64] = "";
	FILE *f;
	int ret;

	if (argc > 1 && is_help(argv[1])) {
		printf("Usage: aicc [-j] select default [NAME]\n"
		       "  Show or set net.ipv4.tcp_congestion_control (per network\n"
		       "  namespace); NAME is a profile (aicc, aicc_lat, aicc_bulk)\n"
		       "  or any other algorithm (cubic, ...).\n");
		return 0;
	}
	if (argc > 2) {
		err("select default: unexpected argument '%s'", argv[2]);
		return EXIT_USAGE;
	}
	if (argc == 1) {
		ret = read_default_cc(cur, sizeof(cur));
		if (ret) {
			err("select default: cannot read %s: %s", PROC_CC,
			    errno_words(-ret));
			return 1;
		}
		if (opt_json) {
			json_open_obj(NULL);
			json_str("default", cur);
			json_close_obj();
			json_end();
		} else {
			printf("%s\n", cur);
		}
		return 0;
	}
	if (!valid_cc_name(argv[1])) {
		err("select default: '%s' is not a congestion control name",
		    argv[1]);
		return EXIT_USAGE;
	}
	f = fopen(PROC_CC, "w");
	if (!f) {
		err("select default: cannot open %s: %s", PROC_CC,
		    errno_words(errno));
		return 1;
	}
	fprintf(f, "%s\n", argv[1]);
	ret = fflush(f) ? errno : 0;
	if (fclose(f) && !ret)
		ret = errno;
	if (ret) {
		err("select default %s: %s%s", argv[1], errno_words(ret),
		    ret == ENOENT ? " (no such congestion control; module not loaded?)" :
		    ret == EPERM ?
		    " (not allowed in this network namespace; see tcp_allowed_congestion_control)" :
		    "");
		return 1;
	}
	return 0;
}

static const struct cmd select_cmds[] = {
	{ "default", cmd_default, "[NAME]", "show or set the system default" },
	{ "route", cmd_route,
	  "add|del PREFIX [via GW] [dev DEV] [PROFILE] [usec-ts] | list",
	  "per-route congctl" },
	{ "get", cmd_get, "ADDR", "what a connection to ADDR would use" },
	{ NULL, NULL, NULL, NULL }
};

int cmd_select(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2 || is_help(argv[1])) {
		FILE *f = argc < 2 ? stderr : stdout;

		fprintf(f, "Usage: aicc select COMMAND\n");
		for (c = select_cmds; c->name; c++)
			fprintf(f, "  %s %s\n      %s\n", c->name, c->args,
				c->summary);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	return run_cmd_table(select_cmds, "select", argc - 1, argv + 1);
}
