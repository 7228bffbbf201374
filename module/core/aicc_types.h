/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aicc core: the only file of the core that knows where it is compiled.
 *
 * The algorithm (aicc_core.c, aicc_mem.c) is plain C: no kernel API, no
 * allocation, no floating point.  It is compiled into the kernel module and
 * into userspace (unit tests, simulator, tuner).  This header maps the few
 * primitives it needs -- fixed-width types and the memory-ordering helpers
 * used by the lock-free rate cache -- onto the kernel's or the C library's.
 */
#ifndef _AICC_TYPES_H
#define _AICC_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <asm/barrier.h>

/*
 * Ordering for the rate cache's per-entry sequence numbers (aicc_mem.c):
 * acquire on the reader's first sequence load pairs with the writer's
 * release store; smp_rmb() orders the reader's field loads before its
 * second sequence load; the writer claims an entry with cmpxchg(), a full
 * barrier.
 */
#define aicc_read_once(x)		READ_ONCE(x)
#define aicc_write_once(x, v)		WRITE_ONCE(x, v)
#define aicc_load_acquire(p)		smp_load_acquire(p)	/* see above */
#define aicc_store_release(p, v)	smp_store_release(p, v)	/* see above */
#define aicc_cmpxchg(p, o, n)		cmpxchg(p, o, n)
#define aicc_smp_rmb()			smp_rmb()	/* see above */
#define aicc_smp_wmb()			smp_wmb()	/* see above */
#else
#include <stdbool.h>
#include <stddef.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;

#define aicc_read_once(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define aicc_write_once(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define aicc_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define aicc_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
static inline u32 aicc_cmpxchg_u32(u32 *p, u32 o, u32 n)
{
	__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_RELAXED);
	return o;
}

#define aicc_cmpxchg(p, o, n)	aicc_cmpxchg_u32(p, o, n)

#ifndef fallthrough
#define fallthrough		__attribute__((__fallthrough__))
#endif
/* the kernel's attribute macros the core uses, for the C library build */
#define aicc_attr(a)		__attribute__((a))
#ifndef noinline
#define noinline		aicc_attr(__noinline__)
#endif
#define aicc_smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define aicc_smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#endif

#endif /* _AICC_TYPES_H */
