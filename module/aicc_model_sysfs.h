/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc: the learned-policy model under /sys/kernel/aicc (aicc_model_sysfs.c).
 */
#ifndef _AICC_MODEL_SYSFS_H
#define _AICC_MODEL_SYSFS_H

#include <linux/kobject.h>

struct aicc_model;

/* The model for @profile's flows, or NULL; call under rcu_read_lock(). */
const struct aicc_model *aicc_model_get(unsigned int profile);

int aicc_model_sysfs_init(struct kobject *parent);
void aicc_model_sysfs_exit(struct kobject *parent);

#endif /* _AICC_MODEL_SYSFS_H */
