// SPDX-License-Identifier: GPL-2.0
/*
 * aicc: per-peer rate memory.
 *
 * A fixed-size, set-associative table (AICC_MEM_WAYS entries per set) maps a
 * peer -- network namespace cookie and IPv6 (or IPv4-mapped) address -- to
 * the rate and base RTT a flow to that peer last converged to, so the next
 * connection (the next collective) starts at that speed.
 *
 * Concurrency: any number of readers and writers, no locks.  Each entry
 * carries a sequence number; a writer claims an entry by moving the number
 * from even to odd with compare-and-exchange (and simply gives up if another
 * writer holds it: this is a cache), writes the fields, and releases it with
 * the next even number.  Readers copy the fields between two reads of the
 * sequence number and discard the copy if it changed or was odd.  A writer
 * that finds its peer nowhere in the set while an entry of it is held
 * gives up too: the held entry may be that peer's, and storing it in
 * another way would leave the peer in two.  Should a peer still be in two
 * (writers racing for different ways), a lookup takes the younger.  The
 * table itself is owned by the caller (the module publishes it with RCU).
 */
#include "aicc_core.h"

static u32 peer_hash(const struct aicc_peer *k)
{
	u64 h = k->net * 0x9e3779b97f4a7c15ULL;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		h ^= k->addr[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 33;
	}
	return (u32)(h ^ (h >> 29));
}

static bool peer_eq(const struct aicc_peer *k, u64 net, const u32 *addr)
{
	return k->net == net && k->addr[0] == addr[0] &&
	       k->addr[1] == addr[1] && k->addr[2] == addr[2] &&
	       k->addr[3] == addr[3];
}

/* Consistent copy of @e into @c; false if a writer got in the way. */
static bool entry_read(const struct aicc_mem_entry *e,
		       struct aicc_mem_entry *c)
{
	u32 seq = aicc_load_acquire(&e->seq);
	unsigned int i;

	if (seq & 1)
		return false;
	c->stamp = aicc_read_once(e->stamp);
	c->net = aicc_read_once(e->net);
	for (i = 0; i < 4; i++)
		c->addr[i] = aicc_read_once(e->addr[i]);
	c->rate = aicc_read_once(e->rate);
	c->base_rtt = aicc_read_once(e->base_rtt);
	c->mss = aicc_read_once(e->mss);
	c->base_stamp = aicc_read_once(e->base_stamp);
	aicc_smp_rmb();
	return aicc_read_once(e->seq) == seq;
}

/*
 * Age of an entry, in 2^20 ns.  The stamps are 64 bits (32 would wrap
 * after 52 days, and an entry untouched that long would look fresh
 * again); one a little ahead of @now was stored by another CPU after @now
 * was read, so it is fresh.
 */
static inline u64 age_of(const struct aicc_mem_entry *c, u64 now)
{
	return (s64)(now - c->stamp) > 0 ? now - c->stamp : 0;
}

/*
 * Younger than @life (rate_memory_ms in 2^20 ns, rounded up): 0 keeps
 * nothing, as rate_memory_ms 0 says; "at most", it kept what was stored
 * within the same 2^20 ns.
 */
static inline bool fresh(const struct aicc_mem_entry *c, u64 now, u32 life)
{
	return c->rate && age_of(c, now) < life;
}

bool aicc_mem_lookup(const struct aicc_mem *m, const struct aicc_peer *key,
		     u64 now_ns, u32 life_hi, struct aicc_memval *out)
{
	u64 now = now_ns >> 20;
	struct aicc_mem_entry c;
	u64 best_age = ~0ULL;
	unsigned int i;
	u32 set;

	if (!m->tab)
		return false;
	set = peer_hash(key) & m->mask & ~(AICC_MEM_WAYS - 1);
	for (i = 0; i < AICC_MEM_WAYS; i++) {
		u64 age;

		if (!entry_read(&m->tab[set + i], &c))
			continue;
		age = age_of(&c, now);
		if (!peer_eq(key, c.net, c.addr) || !fresh(&c, now, life_hi) ||
		    age >= best_age)
			continue;
		best_age = age;
		out->rate = c.rate;
		out->base_rtt = c.base_rtt;
		out->mss = c.mss;
		out->base_stamp = c.base_stamp;
	}
	return best_age != ~0ULL;
}

bool aicc_mem_store(struct aicc_mem *m, const struct aicc_peer *key,
		    u64 now_ns, const struct aicc_memval *val)
{
	struct aicc_mem_entry *e, *victim = NULL;
	u64 now = now_ns >> 20, oldest_age = 0;
	bool held = false, found = false;
	u32 set, seq;
	unsigned int i;

	if (!m->tab || !val->rate)
		return false;
	set = peer_hash(key) & m->mask & ~(AICC_MEM_WAYS - 1);
	for (i = 0; i < AICC_MEM_WAYS; i++) {
		struct aicc_mem_entry c;
		u64 age;

		e = &m->tab[set + i];
		if (!entry_read(e, &c)) {
			held = true;
			continue;
		}
		if (peer_eq(key, c.net, c.addr)) {
			victim = e;
			found = true;
			break;
		}
		age = c.rate ? age_of(&c, now) : ~0ULL;
		if (!victim || age > oldest_age) {
			victim = e;
			oldest_age = age;
		}
	}
	/* a held entry may be this peer's: no second copy elsewhere */
	if (!victim || (held && !found))
		return false;

	e = victim;
	seq = aicc_read_once(e->seq);
	if ((seq & 1) || aicc_cmpxchg(&e->seq, seq, seq + 1) != seq)
		return false;	/* another writer has it; skip */
	/*
	 * The odd number before any field: the kernel's cmpxchg() orders
	 * that already, the C library's acquire-release exchange does not
	 * keep later relaxed stores behind its own on every machine.
	 */
	aicc_smp_wmb();
	aicc_write_once(e->stamp, now);
	aicc_write_once(e->net, key->net);
	for (i = 0; i < 4; i++)
		aicc_write_once(e->addr[i], key->addr[i]);
	aicc_write_once(e->rate, val->rate);
	aicc_write_once(e->base_rtt, val->base_rtt);
	aicc_write_once(e->mss, val->mss);
	aicc_write_once(e->base_stamp, val->base_stamp);
	aicc_store_release(&e->seq, seq + 2);
	return true;
}

u32 aicc_mem_count(const struct aicc_mem *m, u64 now_ns, u32 life_hi)
{
	u64 now = now_ns >> 20;
	u32 i, n = 0;
	struct aicc_mem_entry c;

	if (!m->tab)
		return 0;
	for (i = 0; i <= m->mask; i++)
		if (entry_read(&m->tab[i], &c) && fresh(&c, now, life_hi))
			n++;
	return n;
}
