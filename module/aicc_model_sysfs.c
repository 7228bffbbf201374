// SPDX-License-Identifier: GPL-2.0
/*
 * aicc: the learned-policy model under /sys/kernel/aicc.
 *
 *   model          (binary, 0644) write: load one whole blob
 *                  (uapi/aicc_model.h) in a single write at offset 0;
 *                  read: the blob in use, empty when none
 *   model_unload   (0200) write 1: no model, every flow classic
 *   model_loads    (0444) blobs accepted since the module was loaded
 *   model_rejects  (0444) blobs rejected
 *
 * A written blob is parsed and checked completely (core/aicc_model.c, the
 * same code the tools and the fuzzer run) into a private copy before
 * anything is published; a blob failing any check returns -EINVAL and the
 * model in use stays.  The new model replaces the old with
 * rcu_replace_pointer() and the old one is freed after a grace period: a
 * flow evaluating the old model in softirq finishes with it, and every
 * flow uses the new one from its next round.
 *
 * No model is loaded at module load unless the module parameter
 * builtin_model=1 asks for the trained model compiled in
 * (aicc_model_builtin.h, from tools/train/results/aicc.model).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>
#include <linux/rcupdate.h>
#include <linux/atomic.h>

#include "aicc_model_sysfs.h"
#include "core/aicc_policy.h"
#include "aicc_model_builtin.h"

struct aicc_model_rcu {
	struct rcu_head rcu;
	struct aicc_model m;
	u32 len;
	u8 blob[];
};

static struct aicc_model_rcu __rcu *aicc_model_cur;
static DEFINE_MUTEX(aicc_model_lock);	/* serialises publishers */
static atomic_long_t aicc_model_loads = ATOMIC_LONG_INIT(0);
static atomic_long_t aicc_model_rejects = ATOMIC_LONG_INIT(0);

static bool builtin_model;
module_param(builtin_model, bool, 0444);
MODULE_PARM_DESC(builtin_model,
		 "load the built-in trained policy model at module load (default 0: no model)");

const struct aicc_model *aicc_model_get(unsigned int profile)
{
	struct aicc_model_rcu *mr = rcu_dereference(aicc_model_cur);

	if (!mr || !(mr->m.profiles & (1U << profile)))
		return NULL;
	return &mr->m;
}

/* Publish @mr (or none); the old model is freed after a grace period. */
static void aicc_model_publish(struct aicc_model_rcu *mr)
{
	struct aicc_model_rcu *old;

	mutex_lock(&aicc_model_lock);
	old = rcu_replace_pointer(aicc_model_cur, mr,
				  lockdep_is_held(&aicc_model_lock));
	mutex_unlock(&aicc_model_lock);
	if (old)
		kfree_rcu(old, rcu);
}

/* Check @blob completely, then publish it; -EINVAL if it is malformed. */
static int aicc_model_load(const void *blob, size_t len)
{
	struct aicc_model_rcu *mr;
	const char *why = "larger than any model";

	if (len > AICC_MODEL_MAX_LEN)
		goto reject;
	mr = kmalloc(struct_size(mr, blob, len), GFP_KERNEL);
	if (!mr)
		return -ENOMEM;
	if (aicc_model_parse(blob, (u32)len, &mr->m, &why)) {
		kfree(mr);
		goto reject;
	}
	memcpy(mr->blob, blob, len);
	mr->len = (u32)len;
	/*
	 * Before publishing: once published, another write can replace and
	 * free @mr at any time.
	 */
	pr_info("model '%s' loaded: %u-%u-%u, crc32 %08x\n", mr->m.name,
		mr->m.n_in, mr->m.n_hidden, mr->m.n_out, mr->m.crc);
	aicc_model_publish(mr);
	atomic_long_inc(&aicc_model_loads);
	return 0;

reject:
	atomic_long_inc(&aicc_model_rejects);
	pr_warn_ratelimited("model rejected: %s\n", why);
	return -EINVAL;
}

static ssize_t model_write(struct file *file, struct kobject *kobj,
			   struct bin_attribute *attr, char *buf, loff_t off,
			   size_t count)
{
	int ret;

	if (off) {
		atomic_long_inc(&aicc_model_rejects);
		pr_warn_ratelimited("model rejected: not written at offset 0 in one write\n");
		return -EINVAL;
	}
	ret = aicc_model_load(buf, count);
	return ret ? ret : count;
}

static ssize_t model_read(struct file *file, struct kobject *kobj,
			  struct bin_attribute *attr, char *buf, loff_t off,
			  size_t count)
{
	struct aicc_model_rcu *mr;
	size_t n = 0;

	rcu_read_lock();
	mr = rcu_dereference(aicc_model_cur);
	if (mr && off >= 0 && off < mr->len) {
		n = min_t(size_t, count, mr->len - off);
		memcpy(buf, mr->blob + off, n);
	}
	rcu_read_unlock();
	return n;
}

static ssize_t model_unload_store(struct kobject *kobj,
				  struct kobj_attribute *attr,
				  const char *buf, size_t count)
{
	unsigned int v;

	if (kstrtouint(buf, 10, &v) || v != 1)
		return -EINVAL;
	aicc_model_publish(NULL);
	return count;
}

static ssize_t model_loads_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&aicc_model_loads));
}

static ssize_t model_rejects_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&aicc_model_rejects));
}

static struct bin_attribute aicc_attr_model =
	__BIN_ATTR(model, 0644, model_read, model_write, AICC_MODEL_MAX_LEN);
static struct kobj_attribute aicc_attr_model_unload =
	__ATTR(model_unload, 0200, NULL, model_unload_store);
static struct kobj_attribute aicc_attr_model_loads = __ATTR_RO(model_loads);
static struct kobj_attribute aicc_attr_model_rejects =
	__ATTR_RO(model_rejects);

static struct attribute *aicc_model_attrs[] = {
	&aicc_attr_model_unload.attr,
	&aicc_attr_model_loads.attr,
	&aicc_attr_model_rejects.attr,
	NULL,
};

static struct bin_attribute *aicc_model_bin_attrs[] = {
	&aicc_attr_model,
	NULL,
};

static const struct attribute_group aicc_model_group = {
	.attrs = aicc_model_attrs,
	.bin_attrs = aicc_model_bin_attrs,
};

int aicc_model_sysfs_init(struct kobject *parent)
{
	int ret = sysfs_create_group(parent, &aicc_model_group);

	if (!ret && builtin_model) {
		ret = aicc_model_load(aicc_model_builtin,
				      sizeof(aicc_model_builtin));
		if (ret)
			sysfs_remove_group(parent, &aicc_model_group);
	}
	return ret;
}

void aicc_model_sysfs_exit(struct kobject *parent)
{
	struct aicc_model_rcu *old;

	if (parent)
		sysfs_remove_group(parent, &aicc_model_group);
	mutex_lock(&aicc_model_lock);
	old = rcu_replace_pointer(aicc_model_cur, NULL,
				  lockdep_is_held(&aicc_model_lock));
	mutex_unlock(&aicc_model_lock);
	if (old) {
		synchronize_rcu();
		kfree(old);
	}
}
