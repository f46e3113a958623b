/*
 * cache.c -- a set-associative, sectored cache with LRU replacement,
 * lines reserved for pending fills (allocate on miss), MSHRs that merge
 * requests to the same line, and a choice of set-index function.
 *
 * Lines are tagged with the whole line address, so every index function
 * maps an address to exactly one line however it folds the bits.
 */
#include "tm_int.h"

#include <stdlib.h>
#include <string.h>

/* Irreducible polynomials over GF(2) by degree, for the polynomial-modulus
 * (PRIC / IPOLY) index: bit i is the coefficient of x^i. */
static const uint32_t irreducible[] = {
    [1] = 0x3, [2] = 0x7, [3] = 0xB, [4] = 0x13, [5] = 0x25, [6] = 0x43, [7] = 0x83,
    [8] = 0x11D, [9] = 0x211, [10] = 0x409, [11] = 0x805, [12] = 0x1053, [13] = 0x201B,
    [14] = 0x4443, [15] = 0x8003, [16] = 0x1100B,
};

static uint32_t log2u(uint64_t x)
{
    uint32_t n = 0;
    while ((1ull << n) < x)
        n++;
    return n;
}

static uint32_t largest_prime_at_most(uint32_t n)
{
    for (uint32_t p = n; p > 2; p--) {
        bool prime = true;
        for (uint32_t d = 2; d * d <= p && prime; d++)
            prime = p % d != 0;
        if (prime)
            return p;
    }
    return n < 2 ? 1 : 2;
}

uint32_t tm_cache_set(const tm_cache *c, uint64_t line)
{
    uint32_t bits = log2u(c->sets);
    switch (c->index_fn) {
    case TM_INDEX_XOR: {
        /* Fold every group of index-width bits onto the index. */
        uint64_t idx = 0;
        for (uint64_t x = line; x; x >>= bits)
            idx ^= x & (c->sets - 1);
        return (uint32_t)idx;
    }
    case TM_INDEX_PRIC: {
        /* The line address as a polynomial over GF(2), modulo an irreducible
         * polynomial of the index's degree. */
        if (bits == 0 || bits >= sizeof irreducible / sizeof irreducible[0])
            return (uint32_t)(line % c->sets);
        uint64_t poly = irreducible[bits], r = line;
        for (int b = 63; b >= (int)bits; b--)
            if (r >> b & 1)
                r ^= poly << (b - bits);
        return (uint32_t)r;
    }
    case TM_INDEX_PRIME:
        return (uint32_t)(line % largest_prime_at_most(c->sets));
    default:
        return (uint32_t)(line % c->sets);
    }
}

bool tm_cache_init(tm_cache *c, const char *name, uint32_t sets, uint32_t assoc, uint32_t line,
                   uint32_t sector, uint32_t index_fn, uint32_t nmshr, uint32_t merge,
                   tm_cache_stats *stats)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    c->sets = sets;
    c->assoc = assoc;
    c->line_bytes = line;
    c->sector_bytes = sector;
    c->index_fn = index_fn;
    c->line_shift = log2u(line);
    c->sectors_per_line = line / sector;
    c->nmshr = nmshr;
    c->merge_limit = merge;
    c->stats = stats;
    c->lines = calloc((size_t)sets * assoc, sizeof *c->lines);
    c->mshr = calloc(nmshr, sizeof *c->mshr);
    return c->lines && c->mshr;
}

void tm_cache_free(tm_cache *c)
{
    free(c->lines);
    free(c->mshr);
    memset(c, 0, sizeof *c);
}

void tm_cache_flush(tm_cache *c)
{
    for (size_t i = 0; i < (size_t)c->sets * c->assoc; i++)
        if (c->lines[i].state == LINE_VALID)
            c->lines[i].state = LINE_INVALID;
}

uint32_t tm_sector_mask(const tm_cache *c, uint64_t addr, uint32_t bytes)
{
    uint64_t off = addr & (c->line_bytes - 1);
    uint64_t first = off / c->sector_bytes, last = (off + (bytes ? bytes : 1) - 1) / c->sector_bytes;
    if (last >= c->sectors_per_line)
        last = c->sectors_per_line - 1;
    uint32_t m = 0;
    for (uint64_t s = first; s <= last; s++)
        m |= 1u << s;
    return m;
}

tm_probe tm_cache_probe(tm_cache *c, uint64_t addr, uint32_t sectors, tm_line **out)
{
    uint64_t line = addr >> c->line_shift;
    tm_line *set = &c->lines[(size_t)tm_cache_set(c, line) * c->assoc];
    for (uint32_t w = 0; w < c->assoc; w++) {
        tm_line *l = &set[w];
        if (l->state == LINE_INVALID || l->tag != line)
            continue;
        *out = l;
        if (l->state == LINE_VALID && (l->sectors & sectors) == sectors) {
            l->last_use = ++c->stamp;
            return PROBE_HIT;
        }
        return PROBE_SECTOR_MISS;
    }
    *out = NULL;
    return PROBE_MISS;
}

tm_line *tm_cache_victim(tm_cache *c, uint64_t addr, bool *victim_dirty, uint64_t *victim_tag,
                         uint32_t *victim_sectors)
{
    uint64_t line = addr >> c->line_shift;
    tm_line *set = &c->lines[(size_t)tm_cache_set(c, line) * c->assoc], *best = NULL;
    for (uint32_t w = 0; w < c->assoc; w++) {
        tm_line *l = &set[w];
        if (l->state == LINE_INVALID) {
            best = l;
            break;
        }
        if (l->state == LINE_VALID && (!best || l->last_use < best->last_use))
            best = l;
    }
    *victim_dirty = false;
    if (!best)
        return NULL;
    if (best->state == LINE_VALID && best->dirty) {
        *victim_dirty = true;
        *victim_tag = best->tag;
        *victim_sectors = best->dirty;
    }
    return best;
}

tm_mshr *tm_mshr_find(tm_cache *c, uint64_t line)
{
    for (uint32_t i = 0; i < c->nmshr; i++)
        if (c->mshr[i].used && c->mshr[i].line == line)
            return &c->mshr[i];
    return NULL;
}

tm_mshr *tm_mshr_alloc(tm_cache *c, uint64_t line)
{
    if (c->mshr_used == c->nmshr)
        return NULL;
    for (uint32_t i = 0; i < c->nmshr; i++)
        if (!c->mshr[i].used) {
            tm_mshr *m = &c->mshr[i];
            memset(m, 0, sizeof *m);
            m->used = true;
            m->line = line;
            c->mshr_used++;
            return m;
        }
    return NULL;
}

void tm_mshr_release(tm_cache *c, tm_mshr *m)
{
    m->used = false;
    m->waiters = NULL;
    c->mshr_used--;
}
