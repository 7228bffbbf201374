// SPDX-License-Identifier: GPL-2.0
/*
 * aicc_roce.ko: congestion control for RoCEv2 traffic of the software
 * RoCE driver (rdma_rxe), from netfilter hooks in the initial network
 * namespace on UDP port 4791.
 *
 *   LOCAL_OUT  every RoCEv2 packet this host sends: learn the peer's QP
 *              number, mark ECT(0) (ecn_mark), and stamp the packet with
 *              an earliest departure time from its flow's rate (an fq
 *              root qdisc on the device enforces it; without fq the
 *              stamps are ignored, which the no_fq counter and a warning
 *              report).  Every packet of a flow is stamped, in order:
 *              mixing stamped and unstamped packets would let fq reorder
 *              a queue pair, and RC go-back-N would see loss.  No packet
 *              is stamped more than 100 ms ahead: rxe holds a QP
 *              reference per skb, and its timers and QP teardown must
 *              not wait on our pacing.
 *   LOCAL_IN   notification point: a CE-marked packet makes the flow
 *              answer with a CNP (BTH opcode 0x81, BECN, the sender's QP,
 *              a correct ICRC), at most one per np_min_time_between_cnps;
 *              reaction point: a valid CNP cuts the flow's rate (DCQCN or
 *              the aicc core, roce_law.c) and is consumed; RC ACKs feed
 *              the aicc law.
 *
 * A flow is (local address, remote address, UDP source port): rxe derives
 * the source port from both QP numbers, so both directions of a QP pair
 * share it.  The flow table is a fixed array of RCU-published entries
 * with bounded linear probing; lookups take no lock, a new flow takes the
 * insert lock, and idle flows (flow_timeout_ms) are replaced when a probe
 * window is full; a flow that rxe sends on (from its queue pair's kernel
 * socket) may also replace one that only ever received, or only carried
 * packets of user sockets: made-up packets cannot keep it out.  Each flow
 * has its own spinlock for its state.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/jhash.h>
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <linux/skbuff.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/timekeeping.h>
#include <linux/random.h>
#ifdef AICC_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>	/* 6.12 */
#else
#include <asm/unaligned.h>
#endif
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/sch_generic.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>
#include "roce.h"

#define ROCE_BTH_LEN		12
#define ROCE_CNP_PAYLOAD	(ROCE_BTH_LEN + 16 + 4)
#define ROCE_ICRC_LEN		4
#define ROCE_AETH_LEN		4
#define ROCE_OP_ACK		0x11	/* RC ACKNOWLEDGE: BTH, AETH */
#define ROCE_AETH_NAK_SEQ	0x60	/* AETH syndrome: PSN sequence error */
#define ROCE_PROBE		8
#define ROCE_BTH_BECN		0x40
#define ROCE_BTH_ACKREQ		0x80
#define ROCE_MAX_HOLD_NS	(100 * NSEC_PER_MSEC)

static unsigned int flow_entries = 1024;
module_param(flow_entries, uint, 0444);
MODULE_PARM_DESC(flow_entries,
		 "flow table slots, a power of two 64..65536 (default 1024)");

unsigned int roce_slots;
static struct roce_flow __rcu **roce_tab;
static DEFINE_SPINLOCK(roce_ins_lock);
static u32 roce_hash_seed;

struct roce_pset __rcu *roce_pset;
DEFINE_MUTEX(roce_param_mutex);	/* serialises knob writers */
DEFINE_PER_CPU(u64 [AICC_ROCE_NR_STATS], roce_stats);

u64 roce_stat_sum(unsigned int id)
{
	u64 s = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		s += per_cpu(roce_stats, cpu)[id];
	return s;
}

/* ---- packets ---------------------------------------------------------- */

struct roce_pkt {
	struct roce_key key;	/* from this host's point of view */
	unsigned int nhoff;	/* network header, from skb->data */
	unsigned int l4off;	/* UDP header, from skb->data */
	unsigned int ulen;	/* UDP length (header included) */
	u8 ecn;
	u8 opcode;
	u8 b1, b4, b8;
	u32 dqpn;
	u32 psn;
	u8 syndrome;	/* ACKNOWLEDGE's AETH */
};

static void key_v4(struct in6_addr *a, __be32 v4)
{
	ipv6_addr_set_v4mapped(v4, a);
}

/*
 * Parse a RoCEv2 packet; @out: the local address is the source (LOCAL_OUT)
 * or the destination (LOCAL_IN).  Returns 1 for RoCEv2, 0 for anything
 * else, -1 for a port-4791 packet too short to carry a BTH.
 */
static int roce_parse(struct sk_buff *skb, bool out, struct roce_pkt *pk)
{
	struct udphdr _uh, *uh;
	u8 _bth[ROCE_BTH_LEN], *bth;
	unsigned int len;

	memset(pk, 0, sizeof(*pk));
	pk->nhoff = skb_network_offset(skb);
	if (skb->protocol == htons(ETH_P_IP)) {
		struct iphdr _ih, *ih;

		ih = skb_header_pointer(skb, pk->nhoff, sizeof(_ih), &_ih);
		if (!ih || ih->protocol != IPPROTO_UDP || ih->ihl != 5 ||
		    (ih->frag_off & htons(IP_MF | IP_OFFSET)))
			return 0;
		pk->key.family = 4;
		key_v4(&pk->key.laddr, out ? ih->saddr : ih->daddr);
		key_v4(&pk->key.raddr, out ? ih->daddr : ih->saddr);
		pk->ecn = ih->tos & INET_ECN_MASK;
		pk->l4off = pk->nhoff + sizeof(*ih);
		len = ntohs(ih->tot_len);
		if (len < sizeof(*ih))
			return 0;
		len -= sizeof(*ih);
	} else if (skb->protocol == htons(ETH_P_IPV6)) {
		struct ipv6hdr _ih, *ih;

		ih = skb_header_pointer(skb, pk->nhoff, sizeof(_ih), &_ih);
		if (!ih || ih->nexthdr != IPPROTO_UDP)
			return 0;
		pk->key.family = 6;
		pk->key.laddr = out ? ih->saddr : ih->daddr;
		pk->key.raddr = out ? ih->daddr : ih->saddr;
		pk->ecn = ipv6_get_dsfield(ih) & INET_ECN_MASK;
		pk->l4off = pk->nhoff + sizeof(*ih);
		len = ntohs(ih->payload_len);
	} else {
		return 0;
	}
	uh = skb_header_pointer(skb, pk->l4off, sizeof(_uh), &_uh);
	if (!uh || uh->dest != htons(AICC_ROCE_UDP_PORT))
		return 0;
	pk->key.sport = uh->source;
	pk->ulen = ntohs(uh->len);
	if (pk->ulen > len)
		pk->ulen = len;
	if (pk->ulen < sizeof(*uh) + ROCE_BTH_LEN + ROCE_ICRC_LEN ||
	    skb->len < pk->l4off + pk->ulen)
		return -1;
	bth = skb_header_pointer(skb, pk->l4off + sizeof(*uh), ROCE_BTH_LEN,
				 _bth);
	if (!bth)
		return -1;
	pk->opcode = bth[0];
	pk->b1 = bth[1];
	pk->b4 = bth[4];
	pk->dqpn = (bth[5] << 16) | (bth[6] << 8) | bth[7];
	pk->b8 = bth[8];
	pk->psn = (bth[9] << 16) | (bth[10] << 8) | bth[11];
	if (pk->opcode == ROCE_OP_ACK) {
		u8 _aeth, *aeth;

		if (pk->ulen < sizeof(*uh) + ROCE_BTH_LEN + ROCE_AETH_LEN +
		    ROCE_ICRC_LEN)
			return -1;
		aeth = skb_header_pointer(skb, pk->l4off + sizeof(*uh) +
					  ROCE_BTH_LEN, 1, &_aeth);
		if (!aeth)
			return -1;
		pk->syndrome = *aeth;
	}
	return 1;
}

/*
 * The RoCEv2 ICRC: CRC32 over 8 bytes of 0xff (the absent LRH), the IP,
 * UDP and BTH headers with their variant fields set to ones (IPv4 TOS,
 * TTL and checksum; IPv6 traffic class, flow label and hop limit; UDP
 * checksum; BTH resv8a), then the rest of the packet up to the ICRC.
 * 0xdebb20e3 is the CRC state after the eight 0xff bytes.
 */
static u32 roce_icrc(const struct sk_buff *skb, const struct roce_pkt *pk)
{
	u8 hdr[sizeof(struct ipv6hdr) + sizeof(struct udphdr) + ROCE_BTH_LEN];
	unsigned int iplen = pk->l4off - pk->nhoff, hlen, off, end;
	struct udphdr *uh;
	u8 buf[256];
	u32 crc;

	hlen = iplen + sizeof(struct udphdr) + ROCE_BTH_LEN;
	if (hlen > sizeof(hdr) ||
	    skb_copy_bits(skb, pk->nhoff, hdr, hlen))
		return 0;
	if (pk->key.family == 4) {
		struct iphdr *ih = (struct iphdr *)hdr;

		ih->tos = 0xff;
		ih->ttl = 0xff;
		ih->check = CSUM_MANGLED_0;
	} else {
		struct ipv6hdr *ih = (struct ipv6hdr *)hdr;

		ih->priority = 0xf;
		memset(ih->flow_lbl, 0xff, sizeof(ih->flow_lbl));
		ih->hop_limit = 0xff;
	}
	uh = (struct udphdr *)(hdr + iplen);
	uh->check = CSUM_MANGLED_0;
	hdr[iplen + sizeof(*uh) + 4] = 0xff;	/* BTH resv8a */
	crc = crc32_le(0xdebb20e3, hdr, hlen);

	off = pk->nhoff + hlen;
	end = pk->l4off + pk->ulen - ROCE_ICRC_LEN;
	while (off < end) {
		unsigned int n = min_t(unsigned int, end - off, sizeof(buf));

		if (skb_copy_bits(skb, off, buf, n))
			return 0;
		crc = crc32_le(crc, buf, n);
		off += n;
	}
	return ~crc;
}

static bool roce_icrc_ok(const struct sk_buff *skb, const struct roce_pkt *pk)
{
	u8 got[ROCE_ICRC_LEN];

	if (skb_copy_bits(skb, pk->l4off + pk->ulen - ROCE_ICRC_LEN, got,
			  sizeof(got)))
		return false;
	return get_unaligned_le32(got) == roce_icrc(skb, pk);
}

/* ---- flow table ------------------------------------------------------- */

static u32 roce_key_hash(const struct roce_key *k)
{
	return jhash2((const u32 *)k, sizeof(*k) / sizeof(u32), roce_hash_seed);
}

static bool roce_key_eq(const struct roce_key *a, const struct roce_key *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static struct roce_flow *roce_lookup(const struct roce_key *k, u32 h)
{
	unsigned int i;

	for (i = 0; i < ROCE_PROBE; i++) {
		struct roce_flow *f;

		f = rcu_dereference(roce_tab[(h + i) & (roce_slots - 1)]);
		if (f && roce_key_eq(&f->key, k))
			return f;
	}
	return NULL;
}

/* How roce_flow_get() may make room for a flow it does not find. */
enum roce_create {
	ROCE_FIND,	/* not at all */
	ROCE_RX,	/* an empty slot or an idle flow's */
	ROCE_TX,	/* that, or else a flow rxe never sent on */
};

/*
 * Receive creates flows too (the NP's counters and the QP it learns), but
 * anyone can send a UDP packet to port 4791 from any source port, and
 * any local user can send one from a socket of their own.  So a flow
 * that rxe never sent on is the first to go when rxe sends on a new one:
 * a flood of made-up packets can fill the table, but it cannot keep a
 * queue pair's flow out of it (and a flow that never sent has no peer
 * QP, so it could not have sent a CNP either).
 */
static struct roce_flow *roce_flow_get(const struct roce_key *k,
				       enum roce_create create,
				       const struct roce_params *p, u64 now)
{
	u64 tmo = (u64)p->k[AICC_RK_FLOW_TIMEOUT] * NSEC_PER_MSEC;
	u32 h = roce_key_hash(k);
	struct roce_flow *f, *old = NULL;
	u64 seen, old_seen = 0;
	int i, slot = -1, rank = 0;

	f = roce_lookup(k, h);
	if (f || create == ROCE_FIND)
		return f;

	spin_lock_bh(&roce_ins_lock);
	f = roce_lookup(k, h);
	if (f)
		goto out;
	for (i = 0; i < ROCE_PROBE; i++) {
		unsigned int s = (h + i) & (roce_slots - 1);
		struct roce_flow *o;
		int r;

		o = rcu_dereference_protected(roce_tab[s],
					      lockdep_is_held(&roce_ins_lock));
		if (!o) {
			slot = s;
			old = NULL;
			break;
		}
		/*
		 * Rank 2: idle (signed: another CPU may have stamped the
		 * flow after @now was read, and such a flow is anything but
		 * idle).  Rank 1, for a sender only: never sent on.  The
		 * oldest of the best rank goes.
		 */
		seen = READ_ONCE(o->last_seen);
		if ((s64)(now - seen) > (s64)tmo)
			r = 2;
		else if (create == ROCE_TX && !READ_ONCE(o->sent))
			r = 1;
		else
			continue;
		if (r > rank || (r == rank && (s64)(seen - old_seen) < 0)) {
			slot = s;
			old = o;
			old_seen = seen;
			rank = r;
		}
	}
	if (slot < 0) {
		roce_count(AICC_RS_TABLE_FULL);
		goto out;
	}
	f = kzalloc(sizeof(*f), GFP_ATOMIC);
	if (!f)
		goto out;
	spin_lock_init(&f->lock);
	f->key = *k;
	f->last_seen = now;
	roce_rp_init(&f->rp, p, now);
	rcu_assign_pointer(roce_tab[slot], f);
	roce_count(AICC_RS_FLOWS);
	if (old) {
		roce_count(AICC_RS_EVICTED);
		kfree_rcu(old, rcu);
	}
out:
	spin_unlock_bh(&roce_ins_lock);
	return f;
}

void roce_flow_record(unsigned int slot, struct aicc_roce_flow_rec *rec)
{
	struct roce_flow *f;
	u64 now = ktime_get_ns();
	u64 seen;

	memset(rec, 0, sizeof(*rec));
	rcu_read_lock();
	f = slot < roce_slots ? rcu_dereference(roce_tab[slot]) : NULL;
	if (f) {
		spin_lock_bh(&f->lock);
		rec->valid = 1;
		rec->family = f->key.family;
		rec->algo = f->rp.algo;
		rec->sport = ntohs(f->key.sport);
		rec->local_qpn = f->local_qpn;
		rec->peer_qpn = f->peer_qpn;
		memcpy(rec->laddr, &f->key.laddr, 16);
		memcpy(rec->raddr, &f->key.raddr, 16);
		rec->tx_pkts = f->tx_pkts;
		rec->tx_bytes = f->tx_bytes;
		rec->rx_pkts = f->rx_pkts;
		rec->rx_bytes = f->rx_bytes;
		rec->ce_seen = f->ce_seen;
		rec->cnp_sent = f->cnp_sent;
		rec->cnp_rcvd = f->cnp_rcvd;
		rec->cuts = f->cuts;
		rec->rate_bps = f->rp.rc;
		rec->target_bps = f->rp.rt;
		rec->alpha = f->rp.alpha;
		rec->rtt_us = f->rp.rtt_us;
		seen = READ_ONCE(f->last_seen);
		/* stamped after @now was read: not idle */
		rec->idle_ms = (s64)(now - seen) <= 0 ? 0 :
			(u32)min_t(u64, (now - seen) / NSEC_PER_MSEC, U32_MAX);
		spin_unlock_bh(&f->lock);
	}
	rcu_read_unlock();
}

/* ---- notification point: CNPs ------------------------------------------ */

static void roce_cnp_fill(u8 *bth, u32 qpn)
{
	memset(bth, 0, ROCE_CNP_PAYLOAD);
	bth[0] = AICC_ROCE_OPCODE_CNP;
	bth[2] = 0xff;			/* default P_Key */
	bth[3] = 0xff;
	bth[4] = ROCE_BTH_BECN;
	bth[5] = qpn >> 16;
	bth[6] = qpn >> 8;
	bth[7] = qpn;
}

/*
 * The CNP for @in, which arrived on @iif.  A link-local peer (RoCEv2 GIDs
 * from fe80:: addresses are common) is only reachable through the device
 * the packet came in on, which the route lookup must be told.
 */
static bool roce_send_cnp(struct net *net, const struct roce_pkt *in,
			  int iif, u32 qpn, const struct roce_params *p)
{
	unsigned int ulen = sizeof(struct udphdr) + ROCE_CNP_PAYLOAD;
	u8 tos = p->k[AICC_RK_NP_CNP_DSCP] << 2;
	struct roce_pkt pk = { .key = in->key, .ulen = ulen };
	struct sk_buff *skb;
	struct udphdr *uh;
	u32 icrc;
	int err;

	skb = alloc_skb(LL_MAX_HEADER + sizeof(struct ipv6hdr) + ulen,
			GFP_ATOMIC);
	if (!skb)
		goto failed;
	skb_reserve(skb, LL_MAX_HEADER + sizeof(struct ipv6hdr));
	uh = skb_put(skb, ulen);
	uh->source = in->key.sport;
	uh->dest = htons(AICC_ROCE_UDP_PORT);
	uh->len = htons(ulen);
	uh->check = 0;
	roce_cnp_fill((u8 *)(uh + 1), qpn);
	skb_reset_transport_header(skb);

	if (in->key.family == 4) {
		__be32 saddr = in->key.laddr.s6_addr32[3];
		__be32 daddr = in->key.raddr.s6_addr32[3];
		struct flowi4 fl4 = {
			.daddr = daddr,
			.saddr = saddr,
			.flowi4_oif = ipv4_is_linklocal_169(daddr) ? iif : 0,
			.flowi4_proto = IPPROTO_UDP,
		};
		struct rtable *rt;
		struct iphdr *ih;

		rt = ip_route_output_key(net, &fl4);
		if (IS_ERR(rt))
			goto drop;
		skb_dst_set(skb, &rt->dst);
		ih = skb_push(skb, sizeof(*ih));
		skb_reset_network_header(skb);
		memset(ih, 0, sizeof(*ih));
		ih->version = 4;
		ih->ihl = 5;
		ih->tos = tos;
		ih->tot_len = htons(skb->len);
		ih->frag_off = htons(IP_DF);
		ih->ttl = 64;
		ih->protocol = IPPROTO_UDP;
		ih->saddr = saddr;
		ih->daddr = daddr;
		skb->protocol = htons(ETH_P_IP);
		pk.l4off = sizeof(*ih);
		icrc = roce_icrc(skb, &pk);
		put_unaligned_le32(icrc, skb->data + pk.l4off + ulen - 4);
		ip_send_check(ih);
		err = ip_local_out(net, NULL, skb);
	} else {
		struct flowi6 fl6 = {
			.daddr = in->key.raddr,
			.saddr = in->key.laddr,
			.flowi6_oif = ipv6_addr_type(&in->key.raddr) &
				      IPV6_ADDR_LINKLOCAL ? iif : 0,
			.flowi6_proto = IPPROTO_UDP,
		};
		struct dst_entry *dst;
		struct ipv6hdr *ih;
		__wsum csum;

		dst = ip6_route_output(net, NULL, &fl6);
		if (dst->error) {
			dst_release(dst);
			goto drop;
		}
		skb_dst_set(skb, dst);
		ih = skb_push(skb, sizeof(*ih));
		skb_reset_network_header(skb);
		ip6_flow_hdr(ih, tos, 0);
		ih->payload_len = htons(ulen);
		ih->nexthdr = IPPROTO_UDP;
		ih->hop_limit = 64;
		ih->saddr = in->key.laddr;
		ih->daddr = in->key.raddr;
		skb->protocol = htons(ETH_P_IPV6);
		pk.l4off = sizeof(*ih);
		icrc = roce_icrc(skb, &pk);
		put_unaligned_le32(icrc, skb->data + pk.l4off + ulen - 4);
		csum = csum_partial(uh, ulen, 0);
		uh->check = csum_ipv6_magic(&ih->saddr, &ih->daddr, ulen,
					    IPPROTO_UDP, csum);
		if (!uh->check)
			uh->check = CSUM_MANGLED_0;
		err = ip6_local_out(net, NULL, skb);
	}
	/* a qdisc's drop is positive (NET_XMIT_DROP); net_xmit_eval()
	 * evaluates its argument twice
	 */
	if (net_xmit_eval(err))
		goto failed;
	roce_count(AICC_RS_CNP_SENT);
	return true;
drop:
	kfree_skb(skb);
failed:
	roce_count(AICC_RS_CNP_FAILED);
	return false;
}

/* ---- hooks ------------------------------------------------------------- */

static bool roce_is_ack(u8 opcode)
{
	/* RC: RDMA READ response first..only, ACKNOWLEDGE, ATOMIC ACK */
	return opcode >= 0x0d && opcode <= 0x12;
}

/*
 * An RC request: its PSN is of the sender's own sequence.  A response (a
 * read response, ACK or atomic ACK) carries the PSN of the request it
 * answers, from the peer's sequence; UC and UD packets have no ACKs.
 */
static bool roce_is_request(u8 opcode)
{
	return opcode < 0x20 && !roce_is_ack(opcode);
}

/*
 * What an acknowledgment says of its PSN: from the AETH's syndrome for
 * ACKNOWLEDGE (0x00-0x1f ACK, 0x20-0x3f RNR NAK, 0x60 PSN sequence error
 * NAK); the read responses and atomic ACKs that carry one are ACKs.  False
 * for the fatal NAKs (invalid request, access or operational error): the
 * queue pair goes to the error state.
 */
static bool roce_ack_kind(const struct roce_pkt *pk, enum roce_ack_kind *kind)
{
	if (pk->opcode != ROCE_OP_ACK || pk->syndrome < 0x20) {
		*kind = ROCE_ACK;
		return true;
	}
	if ((pk->syndrome & 0xe0) == 0x20) {
		*kind = ROCE_NAK_RNR;
		return true;
	}
	*kind = ROCE_NAK_SEQ;
	return pk->syndrome == ROCE_AETH_NAK_SEQ;
}

static unsigned int roce_in_cnp(struct sk_buff *skb, struct roce_pkt *pk,
				const struct roce_params *p, u64 now)
{
	struct roce_flow *f;
	unsigned int ev;

	if (pk->ulen < sizeof(struct udphdr) + ROCE_CNP_PAYLOAD ||
	    !roce_icrc_ok(skb, pk))
		goto bad;
	f = roce_flow_get(&pk->key, ROCE_FIND, p, now);
	if (!f)
		goto bad;
	spin_lock_bh(&f->lock);
	if (f->local_qpn && f->local_qpn != pk->dqpn) {
		spin_unlock_bh(&f->lock);
		goto bad;
	}
	WRITE_ONCE(f->last_seen, now);
	f->cnp_rcvd++;
	if (f->rp.algo != p->k[AICC_RK_CC_ALGO])
		roce_rp_init(&f->rp, p, now);
	ev = roce_rp_on_cnp(&f->rp, p, now);
	if (ev & ROCE_EV_CUT) {
		f->cuts++;
		roce_count(AICC_RS_CUTS);
	}
	spin_unlock_bh(&f->lock);
	roce_count(AICC_RS_CNP_RCVD);
	consume_skb(skb);
	return NF_STOLEN;
bad:
	roce_count(AICC_RS_CNP_BAD);
	return NF_ACCEPT;
}

static unsigned int roce_local_in(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	const struct roce_params *p;
	enum roce_ack_kind kind = ROCE_ACK;
	struct roce_pkt pk;
	struct roce_flow *f;
	bool send_cnp = false, ack;
	u32 qpn = 0;
	u64 now;
	int r;

	r = roce_parse(skb, false, &pk);
	if (r <= 0) {
		if (r < 0)
			roce_count(AICC_RS_MALFORMED);
		return NF_ACCEPT;
	}
	roce_count(AICC_RS_RX_PKTS);
	p = &rcu_dereference(roce_pset)->p;
	now = ktime_get_ns();
	if (pk.opcode == AICC_ROCE_OPCODE_CNP)
		return roce_in_cnp(skb, &pk, p, now);
	if (p->k[AICC_RK_ICRC_CHECK])
		roce_count(roce_icrc_ok(skb, &pk) ? AICC_RS_ICRC_OK :
			   AICC_RS_ICRC_BAD);
	if (pk.ecn == INET_ECN_CE)
		roce_count(AICC_RS_CE_SEEN);
	/* what an acknowledgment says, for the aicc law and nak_seq */
	ack = roce_is_ack(pk.opcode) && roce_ack_kind(&pk, &kind);
	if (ack && kind == ROCE_NAK_SEQ)
		roce_count(AICC_RS_NAK_SEQ);

	f = roce_flow_get(&pk.key, ROCE_RX, p, now);
	if (!f)
		return NF_ACCEPT;
	spin_lock_bh(&f->lock);
	WRITE_ONCE(f->last_seen, now);
	f->rx_pkts++;
	f->rx_bytes += skb->len;
	f->local_qpn = pk.dqpn;
	if (pk.ecn == INET_ECN_CE) {
		f->ce_seen++;
		if (p->k[AICC_RK_NP_ENABLE] && f->peer_qpn &&
		    (!f->last_cnp || (s64)(now - f->last_cnp) >=
		     (s64)p->k[AICC_RK_NP_MIN_TIME_CNPS] * NSEC_PER_USEC)) {
			f->last_cnp = now;
			f->cnp_sent++;
			qpn = f->peer_qpn;
			send_cnp = true;
		}
	}
	if (ack && f->rp.algo == AICC_ROCE_ALGO_AICC &&
	    f->rp.algo == p->k[AICC_RK_CC_ALGO]) {
		if (roce_rp_on_ack(&f->rp, p, now, pk.psn, kind) &
		    ROCE_EV_CUT) {
			f->cuts++;
			roce_count(AICC_RS_CUTS);
		}
	}
	spin_unlock_bh(&f->lock);
	/*
	 * The flow's count is of CNPs handed to IP, as the global one is.  One
	 * that could not go out keeps its last_cnp: the next CE waits out
	 * np_min_time_between_cnps as after a sent one, so a path that drops
	 * CNPs costs one attempt per interval, not one per CE packet.  A
	 * flow evicted meanwhile is still valid memory (freed after RCU's
	 * grace period; the hook runs under rcu_read_lock()).
	 */
	if (send_cnp && !roce_send_cnp(state->net, &pk,
				       state->in ? state->in->ifindex : 0,
				       qpn, p)) {
		spin_lock_bh(&f->lock);
		f->cnp_sent--;
		spin_unlock_bh(&f->lock);
	}
	return NF_ACCEPT;
}

static bool roce_is_fq(const struct Qdisc *q)
{
	return q && q->ops && !strcmp(q->ops->id, "fq");
}

/*
 * Whether @dev honours departure times: fq at the root, or fq on every
 * transmit queue under an mq root (what net.core.default_qdisc=fq gives a
 * multi-queue NIC).  The packet's queue is not chosen yet at LOCAL_OUT.
 */
static bool roce_dev_paces(struct net_device *dev)
{
	struct Qdisc *q = rcu_dereference(dev->qdisc);
	unsigned int i;

	if (roce_is_fq(q))
		return true;
	if (!q || !q->ops || strcmp(q->ops->id, "mq"))
		return false;
	for (i = 0; i < dev->real_num_tx_queues; i++)
		if (!roce_is_fq(rcu_dereference(netdev_get_tx_queue(dev, i)->qdisc_sleeping)))
			return false;
	return true;
}

/*
 * Count a paced packet whose device ignores departure times.  The device's
 * qdiscs are looked at once a second per flow (an mq root means a look at
 * every queue), and the kernel log told once per flow.
 */
static void roce_check_fq(struct roce_flow *f, struct sk_buff *skb, u64 now)
{
	struct net_device *dev = skb_dst(skb) ? skb_dst(skb)->dev : NULL;

	if (!dev)
		return;
	if ((s64)(now - f->fq_next) >= 0) {
		f->fq_ok = roce_dev_paces(dev);
		f->fq_next = now + NSEC_PER_SEC;
	}
	if (f->fq_ok)
		return;
	roce_count(AICC_RS_NO_FQ);
	if (!f->fq_checked) {
		f->fq_checked = true;
		pr_warn_ratelimited("aicc_roce: %s has no fq qdisc (root, or under mq on every queue): departure times are ignored, RoCE flows are not paced\n",
				    dev->name);
	}
}

static unsigned int roce_local_out(void *priv, struct sk_buff *skb,
				   const struct nf_hook_state *state)
{
	const struct roce_params *p;
	struct roce_pkt pk;
	struct roce_flow *f;
	bool pace, kern;
	u64 now, t = 0;
	int r;

	r = roce_parse(skb, true, &pk);
	if (r <= 0)
		return NF_ACCEPT;
	roce_count(AICC_RS_TX_PKTS);
	if (pk.opcode == AICC_ROCE_OPCODE_CNP)
		return NF_ACCEPT;
	p = &rcu_dereference(roce_pset)->p;
	now = ktime_get_ns();

	/* a packet that cannot be written goes unmarked, paced all the same */
	if (p->k[AICC_RK_ECN_MARK] && pk.ecn == INET_ECN_NOT_ECT &&
	    !skb_ensure_writable(skb, pk.l4off)) {
		if (pk.key.family == 4)
			ipv4_change_dsfield(ip_hdr(skb), (u8)~INET_ECN_MASK,
					    INET_ECN_ECT_0);
		else
			ipv6_change_dsfield(ipv6_hdr(skb), (u8)~INET_ECN_MASK,
					    INET_ECN_ECT_0);
		roce_count(AICC_RS_ECT_MARKED);
	}

	/*
	 * rxe sends from a kernel socket of the queue pair's own; any local
	 * user can send UDP to port 4791 too, and that must not take slots
	 * the way this host's queue pairs do (roce_flow_get()).
	 */
	kern = skb->sk && sk_fullsock(skb->sk) && skb->sk->sk_kern_sock;
	f = roce_flow_get(&pk.key, kern ? ROCE_TX : ROCE_RX, p, now);
	if (!f)
		return NF_ACCEPT;
	pace = p->k[AICC_RK_CC_ALGO] != AICC_ROCE_ALGO_OFF;
	spin_lock_bh(&f->lock);
	WRITE_ONCE(f->last_seen, now);
	f->tx_pkts++;
	f->tx_bytes += skb->len;
	f->peer_qpn = pk.dqpn;
	if (kern && !f->sent)
		WRITE_ONCE(f->sent, true);
	if (f->rp.algo != p->k[AICC_RK_CC_ALGO])
		roce_rp_init(&f->rp, p, now);
	if (pace) {
		t = max(now, f->next_tx);
		/*
		 * rxe holds a QP reference per skb until it is freed: never
		 * keep a packet in fq longer than ROCE_MAX_HOLD_NS (a QP
		 * timeout, or QP teardown, must not wait on our pacing).
		 */
		if (t > now + ROCE_MAX_HOLD_NS) {
			t = now + ROCE_MAX_HOLD_NS;
			roce_count(AICC_RS_HOLD_CAPPED);
		}
		roce_rp_on_tx(&f->rp, p, now, t, skb->len,
			      roce_is_request(pk.opcode) ? pk.psn :
			      ROCE_PSN_NONE, pk.b8 & ROCE_BTH_ACKREQ);
		f->next_tx = t + roce_tx_time_ns(f->rp.rc, skb->len);
		roce_check_fq(f, skb, now);
	} else if ((s64)(f->next_tx - now) > 0) {
		/*
		 * Pacing was switched off while this flow's paced packets
		 * may still wait in fq: one without a departure time would
		 * pass them, and RC would take the reordering for loss.  It
		 * leaves with the last of them instead, held no longer than
		 * ROCE_MAX_HOLD_NS either: next_tx is the last one's stamp
		 * (at most now + ROCE_MAX_HOLD_NS) plus its transmit time.
		 */
		t = min_t(u64, f->next_tx, now + ROCE_MAX_HOLD_NS);
	}
	spin_unlock_bh(&f->lock);
	if (t) {
#ifdef SKB_MONO_DELIVERY_TIME_MASK
		skb_set_delivery_time(skb, ns_to_ktime(t), true);
#else
		skb_set_delivery_time(skb, ns_to_ktime(t), SKB_CLOCK_MONOTONIC);
#endif
		if (pace)
			roce_count(AICC_RS_PACED);
	}
	return NF_ACCEPT;
}

#define ROCE_HOOK(fn, family, point, prio) \
	{ .hook = fn, .pf = family, .hooknum = point, .priority = prio }

static const struct nf_hook_ops roce_hooks[] = {
	ROCE_HOOK(roce_local_in, NFPROTO_IPV4, NF_INET_LOCAL_IN,
		  NF_IP_PRI_LAST - 1),
	ROCE_HOOK(roce_local_out, NFPROTO_IPV4, NF_INET_LOCAL_OUT,
		  NF_IP_PRI_LAST - 1),
	ROCE_HOOK(roce_local_in, NFPROTO_IPV6, NF_INET_LOCAL_IN,
		  NF_IP6_PRI_LAST - 1),
	ROCE_HOOK(roce_local_out, NFPROTO_IPV6, NF_INET_LOCAL_OUT,
		  NF_IP6_PRI_LAST - 1),
};

static void roce_tab_free(void)
{
	unsigned int i;

	for (i = 0; i < roce_slots; i++) {
		struct roce_flow *f = rcu_dereference_protected(roce_tab[i], 1);

		kfree(f);
	}
	kfree(roce_tab);
	roce_tab = NULL;
}

static int __init roce_init(void)
{
	struct roce_pset *ps;
	u32 k[AICC_ROCE_NR_KNOBS];
	int ret;

	if (flow_entries < 64 || flow_entries > 65536 ||
	    !is_power_of_2(flow_entries)) {
		pr_err("aicc_roce: flow_entries=%u: must be a power of two in 64..65536\n",
		       flow_entries);
		return -EINVAL;
	}
	roce_slots = flow_entries;
	roce_hash_seed = get_random_u32();
	roce_tab = kcalloc(roce_slots, sizeof(*roce_tab), GFP_KERNEL);
	ps = kzalloc(sizeof(*ps), GFP_KERNEL);
	if (!roce_tab || !ps) {
		kfree(ps);
		kfree(roce_tab);
		return -ENOMEM;
	}
	roce_params_defaults(k);
	roce_params_set(&ps->p, k);
	RCU_INIT_POINTER(roce_pset, ps);

	ret = roce_sysfs_init();
	if (ret)
		goto err;
	ret = nf_register_net_hooks(&init_net, roce_hooks,
				    ARRAY_SIZE(roce_hooks));
	if (ret) {
		roce_sysfs_exit();
		goto err;
	}
	pr_info("aicc_roce: RoCEv2 congestion control on UDP %u, %u flow slots\n",
		AICC_ROCE_UDP_PORT, roce_slots);
	return 0;
err:
	/*
	 * nf_register_net_hooks() makes each hook live as it registers it:
	 * packets may have made flows before a later one failed.
	 */
	synchronize_net();
	rcu_barrier();
	roce_tab_free();
	kfree(rcu_dereference_protected(roce_pset, 1));
	return ret;
}

static void __exit roce_exit(void)
{
	nf_unregister_net_hooks(&init_net, roce_hooks, ARRAY_SIZE(roce_hooks));
	roce_sysfs_exit();
	synchronize_net();
	rcu_barrier();
	roce_tab_free();
	kfree(rcu_dereference_protected(roce_pset, 1));
}

module_init(roce_init);
module_exit(roce_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("aicc congestion control for RoCEv2 (Soft-RoCE)");
MODULE_VERSION(AICC_VERSION);
MODULE_SOFTDEP("pre: tcp_aicc");
