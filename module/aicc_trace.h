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
#include <net/inet_sock.h>
#include <net/sock.h>

#include "core/aicc_core.h"
#include "core/aicc_replay.h"

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
			   __entry->sport = ntohs(inet_sk(sk)->inet_sport);
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

#ifndef _AICC_TRACE_HELPERS
#define _AICC_TRACE_HELPERS
static inline void aicc_trace_copy_in(u8 *dst, const void *in,
				      unsigned int len)
{
	memset(dst, 0, AICC_TRACE_IN_LEN);
	if (in && len <= AICC_TRACE_IN_LEN)
		memcpy(dst, in, len);
}
#endif

/*
 * aicc:aicc_core records every call into the core with its inputs and the
 * flow's state afterwards (see core/aicc_replay.h), so that tools/replay
 * can check the userspace build of the core makes the same decisions.
 * A flow is named by its network namespace cookie, local port, peer
 * address and port.
 * One event per ACK: enable it for debugging and tests, not in production.
 */
TRACE_EVENT(aicc_core,
	    TP_PROTO(const struct sock *sk, const struct aicc_peer *peer,
		     unsigned int call, const u64 *arg, const void *in,
		     unsigned int in_len, unsigned int ret,
		     const struct aicc_flow *f),
	    TP_ARGS(sk, peer, call, arg, in, in_len, ret, f),
	    TP_STRUCT__entry(__field(__u64, net)
			     __array(__u8, daddr, 16)
			     __field(__u16, sport)
			     __field(__u16, dport)
			     __field(__u8, call)
			     __field(__u8, in_len)
			     __field(__u32, ret)
			     __array(__u64, arg, AICC_TRACE_ARGS)
			     __array(__u8, in, AICC_TRACE_IN_LEN)
			     __array(__u8, out, AICC_TRACE_OUT_LEN)),
	    TP_fast_assign(__entry->net = peer->net;
			   memcpy(__entry->daddr, peer->addr,
				  sizeof(__entry->daddr));
			   /*
			    * inet_sport, not sk_num: closing the socket
			    * clears sk_num before release() records its
			    * last call, and the flow's key must not change.
			    */
			   __entry->sport = ntohs(inet_sk(sk)->inet_sport);
			   __entry->dport = ntohs(sk->sk_dport);
			   __entry->call = call;
			   __entry->in_len = in_len;
			   __entry->ret = ret;
			   memcpy(__entry->arg, arg,
				  sizeof(__entry->arg));
			   aicc_trace_copy_in(__entry->in, in, in_len);
			   memcpy(__entry->out, f, sizeof(__entry->out));),
	    TP_printk("sk=%llx/%u/%pI6c/%u call=%u ret=%#x arg=%llx,%llx,%llx,%llx in=%s out=%s",
		      __entry->net, __entry->sport, __entry->daddr,
		      __entry->dport, __entry->call, __entry->ret,
		      __entry->arg[0], __entry->arg[1], __entry->arg[2],
		      __entry->arg[3],
		      __print_hex_str(__entry->in, __entry->in_len),
		      __print_hex_str(__entry->out, AICC_TRACE_OUT_LEN))
);

#endif /* _AICC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE aicc_trace
#include <trace/define_trace.h>
