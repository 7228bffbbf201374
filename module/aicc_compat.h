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

/*
 * The local clock in the ticks of this connection's TCP timestamps, to
 * compare with the peer's TSval (aicc_fwd_rtt()).  6.7 added timestamps in
 * microseconds (the route feature tcp_usec_ts); before, they are in
 * milliseconds.
 */
#ifdef AICC_HAVE_TCP_TIME_STAMP_TS
static inline u32 aicc_ts_now(const struct tcp_sock *tp)
{
	return tcp_time_stamp_ts(tp);
}

static inline u32 aicc_ts_tick_ns(const struct tcp_sock *tp)
{
	return tp->tcp_usec_ts ? NSEC_PER_USEC : NSEC_PER_MSEC;
}
#else
static inline u32 aicc_ts_now(const struct tcp_sock *tp)
{
	return tcp_time_stamp(tp);
}

static inline u32 aicc_ts_tick_ns(const struct tcp_sock *tp)
{
	return NSEC_PER_MSEC;
}
#endif

#endif /* _AICC_COMPAT_H */
