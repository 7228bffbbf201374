// SPDX-License-Identifier: GPL-2.0
/*
 * aicc: knobs, counters and the rate cache, under /sys/kernel/aicc.
 *
 * Each profile's parameters are one RCU-published block.  A knob write is
 * parsed strictly, range-checked, and applied by copying the block,
 * changing the one value, re-deriving the fixed-point parameters and
 * publishing the copy: readers on the ACK path see either the old or the
 * new block, never a mix, and running flows use new values from their next
 * ACK.  A rejected write returns -EINVAL and changes nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>
#include <net/tcp.h>

#include "aicc_mod.h"
#include "aicc_model_sysfs.h"

struct aicc_profile aicc_profiles[AICC_NR_PROFILES];

struct aicc_mem_tab __rcu *aicc_mem_cur;
bool aicc_mem_enabled = true;

static DEFINE_MUTEX(aicc_cfg_lock);	/* serialises all writers */
static struct kobject *aicc_kobj;

s64 aicc_stat_sum(unsigned int profile, unsigned int id)
{
	s64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(aicc_profiles[profile].stats, cpu)->v[id];
	return sum;
}

static int aicc_profile_of_kobj(struct kobject *kobj, bool stats)
{
	int i;

	for (i = 0; i < AICC_NR_PROFILES; i++)
		if (kobj == (stats ? aicc_profiles[i].stats_kobj :
				     aicc_profiles[i].kobj))
			return i;
	return -ENOENT;
}

/* ------------------------------------------------------------------ */
/* Parameters                                                           */

int aicc_params_init(void)
{
	struct aicc_params_rcu *pr;
	u32 knob[AICC_NR_KNOBS];
	int i, ret;

	for (i = 0; i < AICC_NR_PROFILES; i++) {
		pr = kzalloc(sizeof(*pr), GFP_KERNEL);
		aicc_profiles[i].stats = alloc_percpu(struct aicc_stats);
		if (!pr || !aicc_profiles[i].stats) {
			kfree(pr);
			aicc_params_exit();
			return -ENOMEM;
		}
		aicc_params_defaults(knob, i);
		aicc_params_set(&pr->p, knob);
		rcu_assign_pointer(aicc_profiles[i].params, pr);
	}
	ret = aicc_mem_resize(1024);
	if (ret)
		aicc_params_exit();
	return ret;
}

void aicc_params_exit(void)
{
	int i;

	for (i = 0; i < AICC_NR_PROFILES; i++) {
		kfree(rcu_replace_pointer(aicc_profiles[i].params, NULL, true));
		free_percpu(aicc_profiles[i].stats);
		aicc_profiles[i].stats = NULL;
	}
	aicc_mem_free();
}

static ssize_t knob_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf);
static ssize_t knob_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count);

struct aicc_knob_attr {
	struct kobj_attribute attr;
	unsigned int id;
};

#define to_knob_attr(a) container_of(a, struct aicc_knob_attr, attr)

static struct aicc_knob_attr aicc_knob_attrs[AICC_NR_KNOBS];
static struct attribute *aicc_knob_attr_ptrs[AICC_NR_KNOBS + 1];
static const struct attribute_group aicc_knob_group = {
	.attrs = aicc_knob_attr_ptrs,
};

static ssize_t knob_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	int prof = aicc_profile_of_kobj(kobj, false);
	u32 v;

	if (prof < 0)
		return prof;
	rcu_read_lock();
	v = rcu_dereference(aicc_profiles[prof].params)->p.knob[to_knob_attr(attr)->id];
	rcu_read_unlock();
	return sysfs_emit(buf, "%u\n", v);
}

static ssize_t knob_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	unsigned int id = to_knob_attr(attr)->id;
	int prof = aicc_profile_of_kobj(kobj, false);
	struct aicc_params_rcu *old, *new;
	u32 v;

	if (prof < 0)
		return prof;
	/* the parser is plain C in the core, shared with tools/fuzz */
	if (aicc_knob_parse(id, buf, &v))
		return -EINVAL;

	new = kmalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	mutex_lock(&aicc_cfg_lock);
	old = rcu_dereference_protected(aicc_profiles[prof].params,
					lockdep_is_held(&aicc_cfg_lock));
	memcpy(new->p.knob, old->p.knob, sizeof(new->p.knob));
	new->p.knob[id] = v;
	aicc_params_set(&new->p, new->p.knob);
	rcu_assign_pointer(aicc_profiles[prof].params, new);
	mutex_unlock(&aicc_cfg_lock);
	kfree_rcu(old, rcu);
	return count;
}

/* ------------------------------------------------------------------ */
/* Counters                                                             */

struct aicc_stat_attr {
	struct kobj_attribute attr;
	unsigned int id;
};

static struct aicc_stat_attr aicc_stat_attrs[AICC_NR_STATS];
static struct attribute *aicc_stat_attr_ptrs[AICC_NR_STATS + 1];
static const struct attribute_group aicc_stat_group = {
	.attrs = aicc_stat_attr_ptrs,
};

static ssize_t stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	int prof = aicc_profile_of_kobj(kobj, true);
	s64 v;

	if (prof < 0)
		return prof;
	v = aicc_stat_sum(prof, container_of(attr, struct aicc_stat_attr,
					     attr)->id);
	return sysfs_emit(buf, "%lld\n", v < 0 ? 0 : v);
}

/* ------------------------------------------------------------------ */
/* Rate memory                                                          */

/* Publish @tab (or none) as the rate cache; free the old one after readers. */
static void aicc_mem_publish(struct aicc_mem_tab *tab)
{
	struct aicc_mem_tab *old = rcu_replace_pointer(aicc_mem_cur, tab, true);

	if (old) {
		synchronize_rcu();
		kvfree(old);
	}
}

int aicc_mem_resize(u32 entries)
{
	struct aicc_mem_tab *tab;

	if (aicc_mem_entries_check(entries))
		return -EINVAL;
	tab = kvzalloc(struct_size(tab, e, entries), GFP_KERNEL);
	if (!tab)
		return -ENOMEM;
	tab->mem.tab = tab->e;
	tab->mem.mask = entries - 1;
	aicc_mem_publish(tab);
	return 0;
}

void aicc_mem_free(void)
{
	aicc_mem_publish(NULL);
}

u32 aicc_mem_life_hi(void)
{
	u32 life;

	rcu_read_lock();
	life = rcu_dereference(aicc_profiles[AICC_PROF_COLL].params)->p.mem_life_ns_hi;
	rcu_read_unlock();
	return life;
}

static ssize_t rate_memory_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(aicc_mem_enabled) ? 1 : 0);
}

static ssize_t rate_memory_store(struct kobject *kobj,
				 struct kobj_attribute *attr,
				 const char *buf, size_t count)
{
	u32 v;

	if (aicc_parse_u32_range(buf, 0, 1, &v))
		return -EINVAL;
	WRITE_ONCE(aicc_mem_enabled, v);
	return count;
}

static ssize_t rate_memory_entries_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	u32 n;

	rcu_read_lock();
	n = rcu_dereference(aicc_mem_cur)->mem.mask + 1;
	rcu_read_unlock();
	return sysfs_emit(buf, "%u\n", n);
}

static ssize_t rate_memory_entries_store(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 const char *buf, size_t count)
{
	u32 v;
	int ret;

	if (aicc_parse_u32_range(buf, 0, ~0U, &v))
		return -EINVAL;
	mutex_lock(&aicc_cfg_lock);
	ret = aicc_mem_resize(v);
	mutex_unlock(&aicc_cfg_lock);
	return ret ? ret : count;
}

static ssize_t rate_memory_used_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	u32 n;

	rcu_read_lock();
	n = aicc_mem_count(&rcu_dereference(aicc_mem_cur)->mem, tcp_clock_ns(),
			   aicc_mem_life_hi());
	rcu_read_unlock();
	return sysfs_emit(buf, "%u\n", n);
}

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", AICC_VERSION);
}

static struct kobj_attribute aicc_attr_rate_memory =
	__ATTR(rate_memory, 0644, rate_memory_show, rate_memory_store);
static struct kobj_attribute aicc_attr_rate_memory_entries =
	__ATTR(rate_memory_entries, 0644, rate_memory_entries_show,
	       rate_memory_entries_store);
static struct kobj_attribute aicc_attr_rate_memory_used =
	__ATTR_RO(rate_memory_used);
static struct kobj_attribute aicc_attr_version = __ATTR_RO(version);

static struct attribute *aicc_global_attrs[] = {
	&aicc_attr_rate_memory.attr,
	&aicc_attr_rate_memory_entries.attr,
	&aicc_attr_rate_memory_used.attr,
	&aicc_attr_version.attr,
	NULL,
};

static const struct attribute_group aicc_global_group = {
	.attrs = aicc_global_attrs,
};

/* ------------------------------------------------------------------ */

int aicc_sysfs_init(void)
{
	int i, ret;

	for (i = 0; i < AICC_NR_KNOBS; i++) {
		struct aicc_knob_attr *ka = &aicc_knob_attrs[i];

		sysfs_attr_init(&ka->attr.attr);
		ka->attr.attr.name = aicc_knob_desc[i].name;
		ka->attr.attr.mode = 0644;
		ka->attr.show = knob_show;
		ka->attr.store = knob_store;
		ka->id = i;
		aicc_knob_attr_ptrs[i] = &ka->attr.attr;
	}
	for (i = 0; i < AICC_NR_STATS; i++) {
		struct aicc_stat_attr *sa = &aicc_stat_attrs[i];

		sysfs_attr_init(&sa->attr.attr);
		sa->attr.attr.name = aicc_stat_desc[i].name;
		sa->attr.attr.mode = 0444;
		sa->attr.show = stat_show;
		sa->id = i;
		aicc_stat_attr_ptrs[i] = &sa->attr.attr;
	}

	aicc_kobj = kobject_create_and_add("aicc", kernel_kobj);
	if (!aicc_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(aicc_kobj, &aicc_global_group);
	if (ret)
		goto err;
	ret = aicc_model_sysfs_init(aicc_kobj);
	if (ret)
		goto err;
	for (i = 0; i < AICC_NR_PROFILES; i++) {
		struct aicc_profile *pf = &aicc_profiles[i];

		pf->name = aicc_profile_desc[i].name;
		pf->kobj = kobject_create_and_add(pf->name, aicc_kobj);
		if (!pf->kobj) {
			ret = -ENOMEM;
			goto err;
		}
		ret = sysfs_create_group(pf->kobj, &aicc_knob_group);
		if (ret)
			goto err;
		pf->stats_kobj = kobject_create_and_add(AICC_STATS_DIR,
							pf->kobj);
		if (!pf->stats_kobj) {
			ret = -ENOMEM;
			goto err;
		}
		ret = sysfs_create_group(pf->stats_kobj, &aicc_stat_group);
		if (ret)
			goto err;
	}
	return 0;
err:
	aicc_sysfs_exit();
	return ret;
}

void aicc_sysfs_exit(void)
{
	int i;

	for (i = 0; i < AICC_NR_PROFILES; i++) {
		kobject_put(aicc_profiles[i].stats_kobj);
		aicc_profiles[i].stats_kobj = NULL;
		kobject_put(aicc_profiles[i].kobj);
		aicc_profiles[i].kobj = NULL;
	}
	aicc_model_sysfs_exit(aicc_kobj);
	kobject_put(aicc_kobj);
	aicc_kobj = NULL;
}
