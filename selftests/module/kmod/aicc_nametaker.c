// SPDX-License-Identifier: GPL-2.0
/*
 * aicc_nametaker: a test helper, not part of aicc.  It registers Reno
 * under each congestion control name of its "names" parameter, so that
 * selftests/module/test_name_taken.sh can load tcp_aicc with some of its
 * profile names already taken, as another module or a BPF congestion
 * control could take them.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <net/tcp.h>

#define NT_MAX_NAMES	4

static char *names = "aicc_bulk";
module_param(names, charp, 0444);
MODULE_PARM_DESC(names, "comma-separated congestion control names to take");

static struct tcp_congestion_ops nt_ops[NT_MAX_NAMES];
static int nt_count;

static void nt_unregister(void)
{
	while (nt_count > 0)
		tcp_unregister_congestion_control(&nt_ops[--nt_count]);
}

static int __init nt_init(void)
{
	char buf[NT_MAX_NAMES * TCP_CA_NAME_MAX];
	char *s = buf, *n;
	int ret;

	if (strscpy(buf, names, sizeof(buf)) < 0)
		return -E2BIG;
	while ((n = strsep(&s, ",")) != NULL) {
		struct tcp_congestion_ops *o;

		if (!*n)
			continue;
		if (nt_count == NT_MAX_NAMES || strlen(n) >= TCP_CA_NAME_MAX) {
			ret = -E2BIG;
			goto err;
		}
		o = &nt_ops[nt_count];
		o->ssthresh = tcp_reno_ssthresh;
		o->cong_avoid = tcp_reno_cong_avoid;
		o->undo_cwnd = tcp_reno_undo_cwnd;
		o->owner = THIS_MODULE;
		strscpy(o->name, n, sizeof(o->name));
		ret = tcp_register_congestion_control(o);
		if (ret)
			goto err;
		nt_count++;
	}
	return 0;
err:
	nt_unregister();
	return ret;
}

static void __exit nt_exit(void)
{
	nt_unregister();
}

module_init(nt_init);
module_exit(nt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("aicc test helper: takes congestion control names");
