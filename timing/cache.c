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

/* The memo starts empty: no line address has every bit set. */
static void memo_clear(tm_set_memo *m)
{
    if (m)
        memset(m->line, 0xff, sizeof m->line);
}

/* A lookup finds a line's set two or three times (accounting, probe,
 * victim), and a hashed index or a partitioned slice costs divisions and
 * a loop each time: the sets of the last lines looked up are kept, by the
 * line's low bits. */
uint32_t tm_cache_set(const tm_cache *c, uint64_t line)
{
    tm_set_memo *m = c->memo;
    uint32_t k = (uint32_t)(line % TM_SET_MEMO);
    if (m && m->line[k] == line)
        return m->set[k];
    /* A slice of a partitioned cache sees only its partition's lines:
     * index it by the address within the partition (the interleave field
     * removed, as a GPU's address mapping does), or most of its sets would
     * never be used. */
    uint64_t local = line;
    if (c->nslices > 1)
        local = line / ((uint64_t)c->slice_lines * c->nslices) * c->slice_lines + line % c->slice_lines;
    uint32_t set = tm_index(local, c->sets, c->index_fn, c->poly, c->hi_bit, c->line_shift);
    if (m) {
        m->line[k] = line;
        m->set[k] = set;
    }
    return set;
}

uint32_t tm_l2_slice_lines(const tm_config *c)
{
    return c->partition_stride >= c->l2_line ? (uint32_t)(c->partition_stride / c->l2_line) : 0;
}

void tm_cache_set_slices(tm_cache *c, uint32_t slice_lines, uint32_t nslices)
{
    c->slice_lines = slice_lines;
    c->nslices = slice_lines ? nslices : 1;
    memo_clear(c->memo);
}

uint32_t tm_index(uint64_t line, uint32_t sets, uint32_t fn, uint32_t poly_bits, uint32_t hi_bit,
                  uint32_t line_shift)
{
    /* The hashes see the line address up to hi_bit of the byte address. */
    if (hi_bit && (fn == TM_INDEX_XOR || fn == TM_INDEX_PRIC) && hi_bit >= line_shift &&
        hi_bit - line_shift + 1 < 64)
        line &= (1ull << (hi_bit - line_shift + 1)) - 1;
    /* A set count that is not a power of two is odd * 2^k (H100's 2560
     * sets: 5 * 512): the line's remainder modulo the odd factor picks a
     * group, and the hash of the quotient a set in the group.  Consecutive
     * lines still fill every set once before any set twice, as a hash of a
     * power-of-two count does; for a power of two (odd factor 1) this is
     * the hash alone. */
    if (sets && (fn == TM_INDEX_XOR || fn == TM_INDEX_PRIC) && (sets & (sets - 1))) {
        uint32_t odd = sets >> __builtin_ctz(sets);
        return (uint32_t)(line % odd) + odd * tm_index(line / odd, sets / odd, fn, poly_bits, 0, line_shift);
    }
    uint32_t bits = log2u(sets);
    switch (fn) {
    case TM_INDEX_XOR: {
        /* Fold every group of index-width bits onto the index. */
        uint64_t idx = 0;
        if (!bits)
            return 0;
        for (uint64_t x = line; x; x >>= bits)
            idx ^= x & (sets - 1);
        return (uint32_t)idx;
    }
    case TM_INDEX_PRIC: {
        /* The line address as a polynomial over GF(2), modulo an irreducible
         * polynomial of the index's degree. */
        uint64_t poly = poly_bits;
        if (!poly && bits && bits < sizeof irreducible / sizeof irreducible[0])
            poly = irreducible[bits];
        if (!poly || bits == 0)
            return (uint32_t)(line % sets);
        uint64_t r = line;
        for (int b = 63; b >= (int)bits; b--)
            if (r >> b & 1)
                r ^= poly << (b - bits);
        return (uint32_t)r;
    }
    case TM_INDEX_PRIME:
        return (uint32_t)(line % largest_prime_at_most(sets));
    default:
        return (uint32_t)(line % sets);
    }
}

void tm_cache_set_hash(tm_cache *c, uint32_t poly, uint32_t hi_bit, uint32_t hit_extra)
{
    c->poly = poly;
    c->hi_bit = hi_bit;
    c->hit_extra = c->index_fn == TM_INDEX_LINEAR ? 0 : hit_extra;
    memo_clear(c->memo);
}

/* ---- the fully associative shadow ------------------------------------------------ */

bool tm_shadow_init(tm_shadow *s, uint32_t lines)
{
    memset(s, 0, sizeof *s);
    s->nnodes = lines;
    s->nslots = 1;
    while (s->nslots < 2 * lines)
        s->nslots *= 2;
    s->key = tm_alloc_lines(s->nslots, sizeof *s->key);
    s->slot_node = tm_alloc_lines(s->nslots, sizeof *s->slot_node);
    s->prev = tm_alloc_lines(lines, sizeof *s->prev);
    s->next = tm_alloc_lines(lines, sizeof *s->next);
    s->node_key = tm_alloc_lines(lines, sizeof *s->node_key);
    s->head = s->tail = UINT32_MAX;
    return s->key && s->slot_node && s->prev && s->next && s->node_key;
}

void tm_shadow_free(tm_shadow *s)
{
    free(s->key);
    free(s->slot_node);
    free(s->prev);
    free(s->next);
    free(s->node_key);
    memset(s, 0, sizeof *s);
}

static uint32_t slot_of(const tm_shadow *s, uint64_t key)
{
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (s->nslots - 1);
    while (s->key[h] && s->key[h] != key)
        h = (h + 1) & (s->nslots - 1);
    return h;
}

static void unlink_node(tm_shadow *s, uint32_t n)
{
    if (s->prev[n] != UINT32_MAX)
        s->next[s->prev[n]] = s->next[n];
    else
        s->head = s->next[n];
    if (s->next[n] != UINT32_MAX)
        s->prev[s->next[n]] = s->prev[n];
    else
        s->tail = s->prev[n];
}

static void push_front(tm_shadow *s, uint32_t n)
{
    s->prev[n] = UINT32_MAX;
    s->next[n] = s->head;
    if (s->head != UINT32_MAX)
        s->prev[s->head] = n;
    s->head = n;
    if (s->tail == UINT32_MAX)
        s->tail = n;
}

/* Remove a key from the open-addressing table (backward-shift deletion). */
static void erase_key(tm_shadow *s, uint64_t key)
{
    uint32_t h = slot_of(s, key);
    if (!s->key[h])
        return;
    s->key[h] = 0;
    for (uint32_t j = (h + 1) & (s->nslots - 1); s->key[j]; j = (j + 1) & (s->nslots - 1)) {
        uint64_t k = s->key[j];
        uint32_t n = s->slot_node[j];
        s->key[j] = 0;
        uint32_t t = slot_of(s, k);
        s->key[t] = k;
        s->slot_node[t] = n;
    }
}

bool tm_shadow_access(tm_shadow *s, uint64_t line)
{
    if (!s->nnodes)
        return false;
    uint64_t key = line + 1;
    uint32_t h = slot_of(s, key);
    if (s->key[h]) {
        uint32_t n = s->slot_node[h];
        unlink_node(s, n);
        push_front(s, n);
        return true;
    }
    uint32_t n;
    if (s->used < s->nnodes) {
        n = s->used++;
    } else {
        n = s->tail;
        unlink_node(s, n);
        erase_key(s, s->node_key[n]);
        h = slot_of(s, key);
    }
    s->node_key[n] = key;
    s->key[h] = key;
    s->slot_node[h] = n;
    push_front(s, n);
    return false;
}

void tm_cache_account(tm_cache *c, uint64_t line, bool hit)
{
    c->stats->accesses++;
    uint32_t set = tm_cache_set(c, line);
    if (c->set_accesses)
        c->set_accesses[set]++;
    bool fa_hit = tm_shadow_access(&c->fa, line);
    if (hit) {
        c->stats->hits++;
        return;
    }
    c->stats->misses++;
    if (c->set_misses)
        c->set_misses[set]++;
    if (fa_hit)
        c->stats->conflict_misses++;
    else
        c->stats->capacity_misses++;
}

bool tm_cache_touch_tags(tm_cache *d, uint64_t addr)
{
    tm_line *l;
    if (tm_cache_probe(d, addr, 1u, &l) != PROBE_MISS)
        return true;
    bool dirty;
    uint64_t vt;
    uint32_t vs;
    l = tm_cache_victim(d, addr, &dirty, &vt, &vs);
    if (l) {
        l->tag = addr >> d->line_shift;
        l->state = LINE_VALID;
        l->sectors = 1;
        l->dirty = 0;
        l->last_use = ++d->stamp;
    }
    return false;
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
    c->lines = tm_alloc_lines((size_t)sets * assoc, sizeof *c->lines);
    c->mshr = tm_alloc_lines(nmshr ? nmshr : 1, sizeof *c->mshr);
    uint32_t slots = 2;
    while (slots < 2 * nmshr)
        slots *= 2;
    c->mshr_mask = slots - 1;
    c->mshr_table = tm_alloc_lines(slots, sizeof *c->mshr_table);
    size_t words = (nmshr + 63) / 64;
    c->mshr_free = tm_alloc_lines(words ? words : 1, sizeof *c->mshr_free);
    c->memo = tm_alloc_lines(1, sizeof *c->memo);
    if (!c->lines || !c->mshr || !c->mshr_table || !c->mshr_free || !c->memo)
        return false;
    memo_clear(c->memo);
    for (uint32_t i = 0; i < nmshr; i++)
        c->mshr_free[i / 64] |= 1ull << (i % 64);
    return tm_shadow_init(&c->fa, sets * assoc);
}

void tm_cache_free(tm_cache *c)
{
    free(c->lines);
    free(c->mshr);
    free(c->mshr_table);
    free(c->mshr_free);
    free(c->memo);
    tm_shadow_free(&c->fa);
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

bool tm_cache_present(const tm_cache *c, uint64_t addr, uint32_t sectors)
{
    uint64_t line = addr >> c->line_shift;
    const tm_line *set = &c->lines[(size_t)tm_cache_set(c, line) * c->assoc];
    for (uint32_t w = 0; w < c->assoc; w++)
        if (set[w].state == LINE_VALID && set[w].tag == line)
            return (set[w].sectors & sectors) == sectors;
    return false;
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

/* MSHR lookup is a hash of the line (open addressing, linear probing):
 * machines with thousands of entries (the diverge-on-miss machine has
 * 4096 a cache) spent nearly all their time scanning them. */
static uint32_t mshr_slot(const tm_cache *c, uint64_t line)
{
    return (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 32) & c->mshr_mask;
}

tm_mshr *tm_mshr_find(tm_cache *c, uint64_t line)
{
    for (uint32_t i = mshr_slot(c, line); c->mshr_table[i]; i = (i + 1) & c->mshr_mask)
        if (c->mshr[c->mshr_table[i] - 1].line == line)
            return &c->mshr[c->mshr_table[i] - 1];
    return NULL;
}

tm_mshr *tm_mshr_alloc(tm_cache *c, uint64_t line)
{
    if (c->mshr_used == c->nmshr)
        return NULL;
    uint32_t w = 0;
    while (!c->mshr_free[w])
        w++;
    uint32_t idx = w * 64 + (uint32_t)__builtin_ctzll(c->mshr_free[w]);
    c->mshr_free[w] &= c->mshr_free[w] - 1;
    tm_mshr *m = &c->mshr[idx];
    memset(m, 0, sizeof *m);
    m->used = true;
    m->line = line;
    c->mshr_used++;
    uint32_t i = mshr_slot(c, line);
    while (c->mshr_table[i])
        i = (i + 1) & c->mshr_mask;
    c->mshr_table[i] = idx + 1;
    return m;
}

/* Take entry idx + 1 out of the table: the entries after it in its probe
 * run move back into the hole when their own slot allows, so that no
 * lookup stops early at an empty slot. */
static void mshr_unhash(tm_cache *c, uint64_t line, uint32_t idx)
{
    uint32_t hole = mshr_slot(c, line);
    while (c->mshr_table[hole] != idx + 1)
        hole = (hole + 1) & c->mshr_mask;
    for (uint32_t k = hole;;) {
        c->mshr_table[hole] = 0;
        for (;;) {
            k = (k + 1) & c->mshr_mask;
            uint32_t e = c->mshr_table[k];
            if (!e)
                return;
            /* Entry e may fill the hole unless its home slot lies
             * cyclically in (hole, k]. */
            uint32_t home = mshr_slot(c, c->mshr[e - 1].line);
            bool stays = hole <= k ? home > hole && home <= k : home > hole || home <= k;
            if (!stays) {
                c->mshr_table[hole] = e;
                hole = k;
                break;
            }
        }
    }
}

void tm_mshr_release(tm_cache *c, tm_mshr *m)
{
    uint32_t idx = (uint32_t)(m - c->mshr);
    mshr_unhash(c, m->line, idx);
    c->mshr_free[idx / 64] |= 1ull << (idx % 64);
    m->used = false;
    m->waiters = NULL;
    c->mshr_used--;
}
