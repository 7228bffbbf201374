/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc_roce.ko internals: flow table, parameters, counters.
 */
#ifndef _AICC_ROCE_H
#define _AICC_ROCE_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/rcupdate.h>
#include <linux/percpu.h>
#include <linux/in6.h>
#include "roce_law.h"

/* Parameters as published to the packet path (RCU). */
struct roce_pset {
	struct rcu_head rcu;
	struct roce_params p;
};

struct roce_key {
	struct in6_addr laddr;	/* IPv4 as ::ffff:a.b.c.d */
	struct in6_addr raddr;
	__be16 sport;
	u8 family;		/* 4 or 6 */
	u8 pad;
};

struct roce_flow {
	struct rcu_head rcu;
	spinlock_t lock;	/* everything below the key */
	struct roce_key key;
	u64 last_seen;		/* ns, READ_ONCE/WRITE_ONCE */
	u64 next_tx;		/* earliest departure of the next packet, ns */
	u64 last_cnp;		/* ns, as NP: the last CNP tried; 0: none */
	u32 local_qpn;
	u32 peer_qpn;
	u64 tx_pkts, tx_bytes, rx_pkts, rx_bytes;
	u64 ce_seen, cnp_sent, cnp_rcvd, cuts;
	u64 fq_next;		/* next look at the device's qdiscs, ns */
	bool fq_ok;		/* its device paces (roce_dev_paces()) */
	bool fq_checked;	/* told the kernel log it does not */
	bool sent;		/* rxe sent on it (a kernel socket); READ_ONCE */
	struct roce_rp rp;
};

extern struct roce_pset __rcu *roce_pset;
extern struct mutex roce_param_mutex;
extern unsigned int roce_slots;

DECLARE_PER_CPU(u64 [AICC_ROCE_NR_STATS], roce_stats);

static inline void roce_count(unsigned int id)
{
	this_cpu_inc(roce_stats[id]);
}

u64 roce_stat_sum(unsigned int id);
void roce_flow_record(unsigned int slot, struct aicc_roce_flow_rec *rec);

int roce_sysfs_init(void);
void roce_sysfs_exit(void);

#endif /* _AICC_ROCE_H */
