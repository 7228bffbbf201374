/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc tracepoints: aicc:aicc_update fires on every window/rate decision
 * (each round end, cut, RTO and idle restart), for perf and trace-cmd.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM aicc

#if !defined(_AICC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _AICC_TRACE_H

#include <linux/tracepoint.h>
#include <net/sock.h>

#include "core/aicc_core.h"

TRACE_EVENT(aicc_update,
	    TP_PROTO(const struct sock *sk, const struct aicc_flow *f,
		     unsigned int events, u32 inflight),
	    TP_ARGS(sk, f, events, inflight),
	    TP_STRUCT__entry(__field(const void *, skaddr)
			     __field(__u16, sport)
			     __field(__u16, dport)
			     __field(__u8, profile)
			     __field(__u8, mode)
			     __field(__u32, events)
			     __field(__u64, cwnd_x16)
			     __field(__u64, rate)
			     __field(__u32, base_rtt_us)
			     __field(__u32, target_us)
			     __field(__u32, qdelay_us)
			     __field(__u16, alpha)
			     __field(__u32, inflight)),
	    TP_fast_assign(__entry->skaddr = sk;
			   __entry->sport = sk->sk_num;
			   __entry->dport = ntohs(sk->sk_dport);
			   __entry->profile = f->profile;
			   __entry->mode = f->mode;
			   __entry->events = events;
			   __entry->cwnd_x16 = f->cwnd >> 12;
			   __entry->rate = f->rate;
			   __entry->base_rtt_us = f->base_rtt / NSEC_PER_USEC;
			   __entry->target_us = f->target / NSEC_PER_USEC;
			   __entry->qdelay_us = f->qdelay / NSEC_PER_USEC;
			   __entry->alpha = f->alpha >> 5;
			   __entry->inflight = inflight;),
	    TP_printk("sk=%p sport=%u dport=%u profile=%u mode=%u ev=%#x cwnd_x16=%llu rate=%llu base_rtt_us=%u target_us=%u qdelay_us=%u alpha=%u inflight=%u",
		      __entry->skaddr, __entry->sport, __entry->dport,
		      __entry->profile, __entry->mode, __entry->events,
		      __entry->cwnd_x16, __entry->rate, __entry->base_rtt_us,
		      __entry->target_us, __entry->qdelay_us, __entry->alpha,
		      __entry->inflight)
);

#endif /* _AICC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE aicc_trace
#include <trace/define_trace.h>
