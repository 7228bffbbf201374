/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc: shared declarations of the kernel glue (aicc_main.c, aicc_sysfs.c).
 */
#ifndef _AICC_MOD_H
#define _AICC_MOD_H

#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/kobject.h>

#include "core/aicc_core.h"

/* Parameters are replaced as a whole and freed after a grace period. */
struct aicc_params_rcu {
	struct rcu_head rcu;
	struct aicc_params p;
};

struct aicc_stats {
	s64 v[AICC_NR_STATS];
};

struct aicc_profile {
	const char *name;
	struct aicc_params_rcu __rcu *params;
	struct aicc_stats __percpu *stats;
	struct kobject *kobj;
	struct kobject *stats_kobj;
};

/* The per-peer rate cache, published with RCU. */
struct aicc_mem_tab {
	struct aicc_mem mem;
	struct aicc_mem_entry e[];
};

extern struct aicc_profile aicc_profiles[AICC_NR_PROFILES];
extern struct aicc_mem_tab __rcu *aicc_mem_cur;
extern bool aicc_mem_enabled;

static inline void aicc_stat_add(unsigned int profile, unsigned int id, s64 n)
{
	this_cpu_add(aicc_profiles[profile].stats->v[id], n);
}

s64 aicc_stat_sum(unsigned int profile, unsigned int id);
u32 aicc_mem_life_hi(void);

int aicc_sysfs_init(void);
void aicc_sysfs_exit(void);
int aicc_params_init(void);
void aicc_params_exit(void);
int aicc_mem_resize(u32 entries);
void aicc_mem_free(void);

#endif /* _AICC_MOD_H */
