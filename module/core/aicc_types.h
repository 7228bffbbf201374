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

#define aicc_read_once(x)		READ_ONCE(x)
#define aicc_write_once(x, v)		WRITE_ONCE(x, v)
#define aicc_load_acquire(p)		smp_load_acquire(p)
#define aicc_store_release(p, v)	smp_store_release(p, v)
#define aicc_cmpxchg(p, o, n)		cmpxchg(p, o, n)
#define aicc_smp_rmb()			smp_rmb()
#define aicc_smp_wmb()			smp_wmb()
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

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
#define aicc_smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define aicc_smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#endif

#endif /* _AICC_TYPES_H */
