/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc: the one place where kernel API differences are handled.
 *
 * Kbuild probes the headers we build against (see Kbuild) and defines
 * AICC_HAVE_* accordingly; nothing else in aicc looks at kernel versions.
 */
#ifndef _AICC_COMPAT_H
#define _AICC_COMPAT_H

#include <net/tcp.h>

/*
 * cong_control() gained the ACK sequence and the ACK flags in 6.10.  aicc
 * needs neither; AICC_CONG_CONTROL_ARGS declares the callback either way.
 */
#ifdef AICC_HAVE_CONG_CONTROL_ACK_FLAG
#define AICC_CONG_CONTROL_ARGS \
	struct sock *sk, u32 ack, int flag, const struct rate_sample *rs
#else
#define AICC_CONG_CONTROL_ARGS \
	struct sock *sk, const struct rate_sample *rs
#endif

#endif /* _AICC_COMPAT_H */
