// SPDX-License-Identifier: GPL-2.0
/*
 * qmon: sample one qdisc's backlog at a fixed interval, for the traffic
 * tests' queueing-delay percentiles (selftests/lib/topo.sh).
 *
 *   qmon DEV HANDLE [INTERVAL_US]
 *
 * HANDLE is the qdisc's handle as tc prints it ("10:").  Every
 * INTERVAL_US microseconds (default 5000) qmon asks the kernel for the
 * qdisc statistics over rtnetlink and prints the backlog in bytes, one
 * line per sample, until SIGTERM or SIGINT (then exits 0).  One process and one netlink
 * round trip per sample: unlike a `tc -s qdisc` loop, which forks twice a
 * sample and under emulation samples only every few hundred
 * milliseconds, it takes thousands of samples in a ten-second run, so a
 * 99th percentile means something.  A sample the kernel did not answer
 * is left out, never printed as zero.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

static unsigned long long ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

static int parse_handle(const char *s, unsigned int *handle)
{
	unsigned long maj;
	char *end;

	errno = 0;
	maj = strtoul(s, &end, 16);
	if (errno || end == s || maj > 0xffff || strcmp(end, ":") != 0)
		return -1;
	*handle = maj << 16;
	return 0;
}

/* The backlog in a TCA_STATS2 nest (gnet_stats_queue), or TCA_STATS. */
static int backlog_of(struct rtattr *rta, int len, unsigned long long *out)
{
	int found = 0;

	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type == TCA_STATS2) {
			struct rtattr *in = RTA_DATA(rta);
			int ilen = RTA_PAYLOAD(rta);

			for (; RTA_OK(in, ilen); in = RTA_NEXT(in, ilen)) {
				struct gnet_stats_queue q;

				if (in->rta_type != TCA_STATS_QUEUE ||
				    RTA_PAYLOAD(in) < sizeof(q))
					continue;
				memcpy(&q, RTA_DATA(in), sizeof(q));
				*out = q.backlog;
				return 1;
			}
		} else if (rta->rta_type == TCA_STATS &&
			   RTA_PAYLOAD(rta) >= sizeof(struct tc_stats)) {
			struct tc_stats st;

			memcpy(&st, RTA_DATA(rta), sizeof(st));
			*out = st.backlog;
			found = 1;
		}
	}
	return found;
}

/*
 * One dump of the device's qdiscs: 1 and the backlog when the handle was
 * found, 0 when not, -1 on a socket error.
 */
static int sample(int fd, int ifindex, unsigned int handle, unsigned int seq,
		  unsigned long long *backlog)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg tc;
	} req = {
		.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)),
		.nh.nlmsg_type = RTM_GETQDISC,
		.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		.nh.nlmsg_seq = seq,
		.tc.tcm_family = AF_UNSPEC,
		.tc.tcm_ifindex = ifindex,
	};
	static char buf[65536];
	int found = 0;

	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0)
		return -1;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh = (struct nlmsghdr *)buf;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
			struct tcmsg *tc = NLMSG_DATA(nh);

			if (nh->nlmsg_seq != seq)
				continue;
			if (nh->nlmsg_type == NLMSG_DONE)
				return found;
			if (nh->nlmsg_type == NLMSG_ERROR)
				return -1;
			if (nh->nlmsg_type != RTM_NEWQDISC || found ||
			    tc->tcm_ifindex != ifindex ||
			    tc->tcm_handle != handle)
				continue;
			found = backlog_of(TCA_RTA(tc), TCA_PAYLOAD(nh),
					   backlog);
		}
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	unsigned long long backlog;
	unsigned long interval = 5000;
	sigset_t sigs;
	unsigned int handle, seq = 0;
	struct timespec next, now;
	int fd, ifindex, misses = 0, rc = 0;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: qmon DEV HANDLE [INTERVAL_US]\n");
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		fprintf(stderr, "qmon: no device '%s'\n", argv[1]);
		return 2;
	}
	if (parse_handle(argv[2], &handle)) {
		fprintf(stderr, "qmon: bad handle '%s' (want e.g. 10:)\n",
			argv[2]);
		return 2;
	}
	if (argc == 4) {
		char *end;

		errno = 0;
		interval = strtoul(argv[3], &end, 10);
		if (errno || *end || interval < 100 || interval > 10000000) {
			fprintf(stderr, "qmon: bad interval '%s' (100..10000000 us)\n",
				argv[3]);
			return 2;
		}
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("qmon: netlink socket");
		return 1;
	}
	/* the signals that end the run are waited for, between samples */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigprocmask(SIG_BLOCK, &sigs, NULL);

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		int r = sample(fd, ifindex, handle, ++seq, &backlog);
		struct timespec wait = { 0, 0 };
		unsigned long long t;

		if (r < 0) {
			perror("qmon: qdisc dump");
			rc = 1;
			break;
		}
		if (r)
			printf("%llu\n", backlog);
		else if (++misses == 1)
			fprintf(stderr, "qmon: no qdisc %s on %s (yet)\n",
				argv[2], argv[1]);
		next.tv_nsec += interval * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		/*
		 * Behind by a whole interval (the emulated CPU stalled): go on
		 * from now, rather than taking a burst of catch-up samples
		 * that would all see the same queue.
		 */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ts_ns(&now) > ts_ns(&next) + interval * 1000ULL)
			next = now;
		if (ts_ns(&next) > ts_ns(&now)) {
			t = ts_ns(&next) - ts_ns(&now);
			wait.tv_sec = t / 1000000000;
			wait.tv_nsec = t % 1000000000;
		}
		if (sigtimedwait(&sigs, NULL, &wait) >= 0)
			break;
	}
	fflush(stdout);
	close(fd);
	return rc;
}
