// SPDX-License-Identifier: GPL-2.0
/*
 * aicc-sim building blocks: PRNG, event heap, switch output port, sample
 * distributions.  No global state.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

/* ---- PRNG ---- */

static u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u64 sim_hash64(u64 x)
{
	return splitmix64(&x);
}

void rng_seed(struct sim_rng *r, u64 seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline u64 rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

u64 rng_next(struct sim_rng *r)
{
	u64 *s = r->s;
	u64 out = rotl(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double u64_unit(u64 x)
{
	return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

double rng_unit(struct sim_rng *r)
{
	return u64_unit(rng_next(r));
}

/* ---- event heap ---- */

int heap_init(struct sim_heap *h, u32 cap)
{
	memset(h, 0, sizeof(*h));
	h->a = malloc(sizeof(*h->a) * cap);
	if (!h->a)
		return -1;
	h->cap = cap;
	return 0;
}

void heap_free(struct sim_heap *h)
{
	free(h->a);
	memset(h, 0, sizeof(*h));
}

static inline bool ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int heap_push(struct sim_heap *h, u64 t, u32 kind, u32 arg)
{
	struct sim_ev e = { .t = t, .seq = h->seq++, .arg = arg, .kind = kind };
	u32 i;

	if (h->n == h->cap) {
		u32 cap = h->cap ? h->cap * 2 : 64;
		struct sim_ev *a = realloc(h->a, sizeof(*a) * cap);

		if (!a)
			return -1;
		h->a = a;
		h->cap = cap;
	}
	i = h->n++;
	while (i) {
		u32 up = (i - 1) / 2;

		if (!ev_before(&e, &h->a[up]))
			break;
		h->a[i] = h->a[up];
		i = up;
	}
	h->a[i] = e;
	return 0;
}

bool heap_pop(struct sim_heap *h, struct sim_ev *out)
{
	struct sim_ev last;
	u32 i = 0, n;

	if (!h->n)
		return false;
	*out = h->a[0];
	n = --h->n;
	if (!n)
		return true;
	last = h->a[n];
	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_before(&h->a[c + 1], &h->a[c]))
			c++;
		if (!ev_before(&h->a[c], &last))
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	h->a[i] = last;
	return true;
}

/* ---- switch output port ---- */

u64 ser_ps(u64 bytes, u64 rate_bps)
{
	return (u64)((__uint128_t)bytes * 8000000000000ULL / rate_bps);
}

void port_setup(struct port *p, u64 rate_bps, u64 prop_ps, u32 buffer,
		u32 ecn_k)
{
	memset(p, 0, sizeof(*p));
	p->rate_bps = rate_bps;
	p->prop_ps = prop_ps;
	p->buffer = buffer;
	p->ecn_k = ecn_k;
}

void port_free(struct port *p)
{
	free(p->dep);
	free(p->len);
	p->dep = NULL;
	p->len = NULL;
}

/* Release every packet whose last bit has left by 'now'. */
void port_drain(struct port *p, u64 now)
{
	while (p->head != p->tail && p->dep[p->head & p->mask] <= now) {
		u32 l = p->len[p->head & p->mask];

		p->qbytes -= l;
		p->out_bytes += l;
		p->head++;
	}
}

static int port_grow(struct port *p)
{
	u32 n = p->tail - p->head, cap = p->mask ? (p->mask + 1) * 2 : 64, i;
	u64 *dep = malloc(sizeof(*dep) * cap);
	u32 *len = malloc(sizeof(*len) * cap);

	if (!dep || !len) {
		free(dep);
		free(len);
		return -1;
	}
	for (i = 0; i < n; i++) {
		dep[i] = p->dep[(p->head + i) & p->mask];
		len[i] = p->len[(p->head + i) & p->mask];
	}
	free(p->dep);
	free(p->len);
	p->dep = dep;
	p->len = len;
	p->head = 0;
	p->tail = n;
	p->mask = cap - 1;
	return 0;
}

/*
 * A packet of 'wire' bytes arrives at the port at 'now'.  Drop-tail if it
 * does not fit; CE if ECN-capable and the queue it finds holds more than
 * ecn_k bytes.  On success, *depart is when its last bit leaves.
 */
int port_offer(struct port *p, u64 now, u32 wire, bool ect, u64 *depart)
{
	int v = PORT_OK;
	u64 start;

	port_drain(p, now);
	p->in_bytes += wire;
	if (p->qbytes + wire > p->buffer) {
		p->drop_bytes += wire;
		p->drops++;
		return PORT_DROP;
	}
	if ((!p->dep || p->tail - p->head > p->mask) && port_grow(p)) {
		p->in_bytes -= wire;
		return PORT_NOMEM;
	}
	if (ect && p->ecn_k && p->qbytes > p->ecn_k) {
		p->marks++;
		v = PORT_OK_CE;
	}
	start = p->busy_until > now ? p->busy_until : now;
	p->busy_until = start + ser_ps(wire, p->rate_bps);
	p->dep[p->tail & p->mask] = p->busy_until;
	p->len[p->tail & p->mask] = wire;
	p->tail++;
	p->qbytes += wire;
	if (p->qbytes > p->qmax)
		p->qmax = p->qbytes;
	*depart = p->busy_until;
	return v;
}

/* ---- sample distributions ---- */

int sim_dist_add(struct sim_dist *d, double v)
{
	if (d->n == d->cap) {
		u32 cap = d->cap ? d->cap * 2 : 256;
		double *a = realloc(d->v, sizeof(*a) * cap);

		if (!a)
			return -1;
		d->v = a;
		d->cap = cap;
	}
	d->v[d->n++] = v;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile; sorts the samples. 0 if empty. */
double sim_dist_pct(struct sim_dist *d, double pct)
{
	u32 k;

	if (!d->n)
		return 0;
	qsort(d->v, d->n, sizeof(*d->v), cmp_double);
	k = (u32)(pct / 100.0 * d->n + 0.999999);
	if (k < 1)
		k = 1;
	if (k > d->n)
		k = d->n;
	return d->v[k - 1];
}
