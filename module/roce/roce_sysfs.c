// SPDX-License-Identifier: GPL-2.0
/*
 * aicc_roce sysfs: /sys/kernel/aicc/roce/ (uapi/aicc_roce.h).
 *
 * The directory lives inside tcp_aicc's /sys/kernel/aicc.  That kobject
 * belongs to tcp_aicc, so aicc_roce pins tcp_aicc (a module reference,
 * taken through /sys/module/tcp_aicc) for as long as its own directory
 * exists: tcp_aicc cannot be unloaded under it.  modprobe loads tcp_aicc
 * first (softdep); without it, loading aicc_roce fails with -ENOENT.
 */
#include <linux/module.h>
#include <linux/kobject.h>
#include <linux/kernfs.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include "roce.h"

static struct kobject *roce_kobj, *roce_stats_kobj, *roce_parent;
static struct module *roce_tcp_mod;

struct roce_kattr {
	struct kobj_attribute attr;
	unsigned int id;
};

static struct roce_kattr roce_knob_attrs[AICC_ROCE_NR_KNOBS];
static struct attribute *roce_knob_ptrs[AICC_ROCE_NR_KNOBS + 2];
static struct roce_kattr roce_stat_attrs[AICC_ROCE_NR_STATS];
static struct attribute *roce_stat_ptrs[AICC_ROCE_NR_STATS + 1];

static ssize_t knob_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	unsigned int id = container_of(attr, struct roce_kattr, attr)->id;
	u32 v;

	rcu_read_lock();
	v = rcu_dereference(roce_pset)->p.k[id];
	rcu_read_unlock();
	return sysfs_emit(buf, "%u\n", v);
}

static ssize_t knob_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t len)
{
	unsigned int id = container_of(attr, struct roce_kattr, attr)->id;
	const struct aicc_roce_knob_desc *d = &aicc_roce_knob_desc[id];
	u32 k[AICC_ROCE_NR_KNOBS];
	struct roce_pset *old, *nps;
	u32 v;

	/* tcp_aicc's parser (the core's, shared with tools/fuzz) */
	if (aicc_parse_u32_range(buf, d->min, d->max, &v))
		return -EINVAL;
	nps = kzalloc(sizeof(*nps), GFP_KERNEL);
	if (!nps)
		return -ENOMEM;
	mutex_lock(&roce_param_mutex);
	old = rcu_dereference_protected(roce_pset,
					lockdep_is_held(&roce_param_mutex));
	memcpy(k, old->p.k, sizeof(k));
	k[id] = v;
	roce_params_set(&nps->p, k);
	rcu_assign_pointer(roce_pset, nps);
	mutex_unlock(&roce_param_mutex);
	kfree_rcu(old, rcu);
	return len;
}

static ssize_t stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	unsigned int id = container_of(attr, struct roce_kattr, attr)->id;

	return sysfs_emit(buf, "%llu\n", roce_stat_sum(id));
}

static ssize_t flow_slots_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", roce_slots);
}

static struct kobj_attribute roce_slots_attr =
	__ATTR(flow_slots, 0444, flow_slots_show, NULL);

static ssize_t flows_read(struct file *file, struct kobject *kobj,
			  struct bin_attribute *attr, char *buf, loff_t off,
			  size_t count)
{
	const size_t rs = sizeof(struct aicc_roce_flow_rec);
	struct aicc_roce_flow_rec rec;
	size_t done = 0;

	while (done < count) {
		loff_t pos = off + done;
		unsigned int slot = (unsigned int)(pos / rs);
		size_t in = pos % rs, n;

		if (slot >= roce_slots)
			break;
		/*
		 * Whole records only after the first: every read() takes a
		 * new snapshot, and a record split between two would mix
		 * two flows if the slot changed in between.
		 */
		if (done && count - done < rs)
			break;
		roce_flow_record(slot, &rec);
		n = min(rs - in, count - done);
		memcpy(buf + done, (u8 *)&rec + in, n);
		done += n;
	}
	return done;
}

static struct bin_attribute roce_flows_attr = {
	.attr = { .name = AICC_ROCE_FLOWS_FILE, .mode = 0444 },
	.read = flows_read,
};

static const struct attribute_group roce_knob_group = {
	.attrs = roce_knob_ptrs,
};

static const struct attribute_group roce_stat_group = {
	.attrs = roce_stat_ptrs,
};

/* /sys/kernel/aicc, owned by tcp_aicc, pinned with its module. */
static int roce_find_parent(void)
{
	struct kset *mods = THIS_MODULE->mkobj.kobj.kset;
	struct kernfs_node *kn;
	struct kobject *mk;

	if (!mods)
		return -ENOENT;
	mk = kset_find_obj(mods, "tcp_aicc");
	if (!mk)
		return -ENOENT;
	roce_tcp_mod = container_of(mk, struct module_kobject, kobj)->mod;
	if (!roce_tcp_mod || !try_module_get(roce_tcp_mod)) {
		roce_tcp_mod = NULL;
		kobject_put(mk);
		return -ENOENT;
	}
	kobject_put(mk);
	kn = kernfs_find_and_get(kernel_kobj->sd, "aicc");
	if (!kn)
		goto fail;
	if (kernfs_type(kn) != KERNFS_DIR || !kn->priv) {
		kernfs_put(kn);
		goto fail;
	}
	roce_parent = kobject_get(kn->priv);
	kernfs_put(kn);
	return 0;
fail:
	module_put(roce_tcp_mod);
	roce_tcp_mod = NULL;
	return -ENOENT;
}

/* Attribute @id of a table: a knob or a counter. */
static struct attribute *
roce_kattr_init(struct roce_kattr *a, unsigned int id, const char *name,
		umode_t mode,
		ssize_t (*show)(struct kobject *, struct kobj_attribute *,
				char *),
		ssize_t (*store)(struct kobject *, struct kobj_attribute *,
				 const char *, size_t))
{
	sysfs_attr_init(&a->attr.attr);
	a->attr.attr.name = name;
	a->attr.attr.mode = mode;
	a->attr.show = show;
	a->attr.store = store;
	a->id = id;
	return &a->attr.attr;
}

/* Directory @name in @parent holding the files of @grp. */
static int roce_dir_add(struct kobject **kobj, const char *name,
			struct kobject *parent,
			const struct attribute_group *grp)
{
	*kobj = kobject_create_and_add(name, parent);
	if (!*kobj)
		return -ENOMEM;
	return sysfs_create_group(*kobj, grp);
}

int roce_sysfs_init(void)
{
	unsigned int i;
	int ret;

	ret = roce_find_parent();
	if (ret) {
		pr_err("aicc_roce: /sys/kernel/aicc not found: load tcp_aicc first\n");
		return ret;
	}
	for (i = 0; i < AICC_ROCE_NR_KNOBS; i++)
		roce_knob_ptrs[i] = roce_kattr_init(&roce_knob_attrs[i], i,
						    aicc_roce_knob_desc[i].name,
						    0644, knob_show, knob_store);
	roce_knob_ptrs[i] = &roce_slots_attr.attr;
	for (i = 0; i < AICC_ROCE_NR_STATS; i++)
		roce_stat_ptrs[i] = roce_kattr_init(&roce_stat_attrs[i], i,
						    aicc_roce_stat_desc[i].name,
						    0444, stat_show, NULL);

	ret = roce_dir_add(&roce_kobj, "roce", roce_parent, &roce_knob_group);
	if (ret)
		goto err;
	roce_flows_attr.size = (loff_t)roce_slots *
			       sizeof(struct aicc_roce_flow_rec);
	sysfs_bin_attr_init(&roce_flows_attr);
	ret = sysfs_create_bin_file(roce_kobj, &roce_flows_attr);
	if (ret)
		goto err;
	ret = roce_dir_add(&roce_stats_kobj, "stats", roce_kobj,
			   &roce_stat_group);
	if (ret)
		goto err;
	return 0;
err:
	roce_sysfs_exit();
	return ret;
}

void roce_sysfs_exit(void)
{
	kobject_put(roce_stats_kobj);
	roce_stats_kobj = NULL;
	kobject_put(roce_kobj);
	roce_kobj = NULL;
	kobject_put(roce_parent);
	roce_parent = NULL;
	if (roce_tcp_mod)
		module_put(roce_tcp_mod);
	roce_tcp_mod = NULL;
}
