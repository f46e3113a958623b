/*
 * memsys.c -- the memory system below the load/store unit: the L1 data
 * cache with its MSHRs and miss queue, the interconnect, the memory
 * partitions (an L2 slice each) and their DRAM channels, driven by events.
 *
 *   SM: LSU -> L1 (hit: fixed latency; miss: MSHR + reserved line + miss
 *       queue, or a reservation failure the LSU retries) -> request port
 *   interconnect: per-port serialisation (bytes / flit width) + latency
 *   partition: one request per L2 cycle, in order; L2 hit: latency; miss:
 *       MSHR (merging), victim (dirty victims are written to DRAM), DRAM
 *   back: response port -> interconnect -> L1 fill -> waiting loads
 *
 * Global stores write through to the L2 (no write-allocate in L1, and an
 * L1 copy is evicted); the L2 is write-back and write-allocate, and a store
 * is taken to cover the sectors it touches (no DRAM read for a write miss).
 */
#include "dram.h"
#include "sm.h"

#include <stdlib.h>
#include <string.h>

/* ---- requests -------------------------------------------------------------------- */

static tm_req *new_req(tm_gpu *g, uint64_t now, uint64_t addr, uint32_t bytes, uint8_t kind, uint16_t sm,
                       tm_load *load)
{
    tm_req *r = tm_req_alloc();
    if (!r) {
        tm_out_of_memory(g);
        return NULL;
    }
    r->addr = addr;
    r->bytes = bytes;
    r->kind = kind;
    r->sm = sm;
    r->load = load;
    r->issued = now;
    r->partition = tm_partition_of(g, addr);
    return r;
}

uint32_t tm_partition_of(const tm_gpu *g, uint64_t addr)
{
    const tm_config *c = &g->c;
    if (c->partition_index == TM_INDEX_LINEAR)
        return (uint32_t)(addr / c->partition_stride % c->n_partitions);
    uint32_t shift = (uint32_t)__builtin_ctzll(c->partition_stride);
    return tm_index(addr >> shift, (uint32_t)c->n_partitions, c->partition_index, 0, (uint32_t)c->index_hi_bit,
                    shift);
}

void tm_load_complete(tm_gpu *g, tm_load *ld, uint64_t when)
{
    if (when > ld->done)
        ld->done = when;
    if (--ld->outstanding)
        return;
    if (ld->preload) {              /* the line is in the L1: nobody waits */
        tm_load_free(ld);
        return;
    }
    tm_warp *w = ld->warp;
    if (ld->fetch) {                /* its instructions are in: it may issue again */
        w->fetched = ld->fetch_line + 1;
        w->fetching = false;
        w->loads_in_flight--;
        w->not_before = 0;
        tm_sm_look_warp(w);
        if (w->cta->sm->wake > ld->done)
            w->cta->sm->wake = ld->done;
        tm_load_free(ld);
        return;
    }
    if (ld->async_group)
        w->async_pending[ld->async_group - 1]--;
    if (ld->owner)                  /* a mechanism's load (diverge on miss: parked lanes') */
        ld->owner->load_done(g, ld);
    for (uint32_t i = 0; i < w->npend && !ld->owner; i++)
        for (uint8_t k = 0; k < ld->nregs; k++)
            if (w->pend[i].reg == ld->regs[k] && w->pend[i].pred == ld->pred && w->pend[i].ready == TM_NEVER &&
                (w->pend[i].lanes & ld->lanes))
                w->pend[i].ready = ld->done;
    w->loads_in_flight--;
    w->not_before = 0;          /* its registers may be ready: look again */
    tm_sm *sm = w->cta->sm;
    if (!ld->constant) {
        uint64_t lat = (ld->done - ld->issued) / g->core_ps;
        unsigned bucket = 0;
        while (bucket + 1 < TM_LAT_BUCKETS && (2ull << bucket) <= lat)
            bucket++;
        sm->st->load_latency[bucket]++;
        sm->st->load_latency_sum += lat;
        sm->st->loads++;
    }
    /* The SM may now have a warp to issue. */
    tm_sm_look_warp(w);
    if (sm->wake > ld->done)
        sm->wake = ld->done;
    tm_load_free(ld);
}

/* ---- L1 -------------------------------------------------------------------------- */

static bool missq_push(tm_sm *sm, tm_req *r)
{
    r->next = NULL;
    if (sm->missq_tail)
        sm->missq_tail->next = r;
    else
        sm->missq = r;
    sm->missq_tail = r;
    sm->missq_len++;
    sm->sent_bytes += r->bytes;
    return true;
}

static tm_acc fail(tm_cache *c, int cause, uint8_t hazard)
{
    c->stats->fail[cause]++;
    return (tm_acc){ ACC_FAIL, hazard, NULL };
}

static const tm_acc acc_hit = { ACC_HIT, 0, NULL }, acc_miss = { ACC_MISS, 0, NULL };

/* Load ld waits on the fill of MSHR m. */
static void wait_on(tm_gpu *g, tm_sm *sm, tm_mshr *m, uint64_t addr, tm_load *ld)
{
    tm_req *w = new_req(g, sm->now, addr, 0, REQ_READ, (uint16_t)sm->id, ld);
    if (!w)
        return;
    w->next = m->waiters;
    m->waiters = w;
    m->merged++;
}

/* An accepted access at cache level `lv` (0: the L1D of SM `where`; 1: the
 * L2 slice of partition `where`): statistics, and the mechanisms that
 * watch accesses (DBSA). */
static void note(tm_gpu *g, int lv, uint32_t where, tm_cache *c, uint64_t addr, bool hit)
{
    tm_cache_account(c, addr >> c->line_shift, hit);
    TM_EACH(g, cache_access, mech)
        (*mech)->cache_access(g, lv, where, addr, hit);
}

tm_acc tm_l1_access(tm_gpu *g, tm_sm *sm, uint64_t line_addr, uint32_t sectors, uint8_t kind,
                    uint32_t bytes, tm_load *load)
{
    tm_cache *l1 = &sm->l1;
    const tm_config *c = &g->c;
    bool queue_full = sm->missq_len >= c->l1_miss_queue;
    uint64_t addr = line_addr << l1->line_shift;
    if (kind == REQ_WRITE || kind == REQ_ATOMIC) {
        if (queue_full)
            return fail(l1, TM_FAIL_QUEUE, TM_HZ_COMQ);
        tm_line *l;
        if (tm_cache_probe(l1, addr, sectors, &l) != PROBE_MISS && l->state == LINE_VALID)
            l->state = LINE_INVALID;        /* write-evict: the L2 has the new data */
        tm_req *r = new_req(g, sm->now, addr + (uint64_t)__builtin_ctz(sectors) * l1->sector_bytes, bytes, kind,
                            (uint16_t)sm->id, load);
        if (r)
            missq_push(sm, r);
        return acc_miss;
    }
    bool uncached = c->l1_global == 1;
    tm_line *l = NULL;
    tm_probe pr = uncached ? PROBE_MISS : tm_cache_probe(l1, addr, sectors, &l);
    if (pr == PROBE_HIT) {
        note(g, 0, sm->id, l1, addr, true);
        tm_load_complete(g, load, sm->now + (c->l1_latency + l1->hit_extra) * g->core_ps);
        return acc_hit;
    }
    /* Not cached (ld.cg-style configuration), or DBSA has stopped the L1
     * allocating: straight to the interconnect, no line, no MSHR. */
    if (uncached || l1->bypass) {
        if (queue_full)
            return fail(l1, TM_FAIL_QUEUE, TM_HZ_COMQ);
        note(g, 0, sm->id, l1, addr, false);
        sm->st->l1_bypassed += !uncached;
        tm_req *r = new_req(g, sm->now, addr, (uint32_t)__builtin_popcount(sectors) * l1->sector_bytes, REQ_READ,
                            (uint16_t)sm->id, load);
        if (r) {
            r->sectors = sectors;
            missq_push(sm, r);
        }
        return acc_miss;
    }
    tm_mshr *m = tm_mshr_find(l1, line_addr);
    if (m && (m->sectors & sectors) == sectors) {
        if (m->merged >= l1->merge_limit)
            return fail(l1, TM_FAIL_MERGE, TM_HZ_MERGE);
        wait_on(g, sm, m, addr, load);
        l1->stats->merges++;
        note(g, 0, sm->id, l1, addr, false);
        return acc_miss;
    }
    if (m)                          /* a fill is on its way without these sectors */
        return fail(l1, TM_FAIL_MERGE, TM_HZ_MERGE);
    /* Hazards in the order Turner's thesis checks them: an MSHR entry, room
     * in the miss queue (COMQ), then a line to reserve (RSV). */
    if (l1->mshr_used == l1->nmshr)
        return fail(l1, TM_FAIL_MSHR, TM_HZ_MSHR);
    if (queue_full)
        return fail(l1, TM_FAIL_QUEUE, TM_HZ_COMQ);
    tm_line *slot = l;
    if (!slot) {
        bool dirty;
        uint64_t vtag;
        uint32_t vsec;
        slot = tm_cache_victim(l1, addr, &dirty, &vtag, &vsec);
        if (!slot)
            return fail(l1, TM_FAIL_LINE, TM_HZ_RSV);
    }
    note(g, 0, sm->id, l1, addr, false);
    m = tm_mshr_alloc(l1, line_addr);
    uint32_t want = pr == PROBE_SECTOR_MISS ? sectors : sectors;
    m->sectors = want;
    m->line_slot = slot;
    if (slot->state != LINE_VALID || slot->tag != line_addr)
        slot->sectors = 0;
    slot->tag = line_addr;
    slot->state = LINE_RESERVED;
    slot->dirty = 0;
    wait_on(g, sm, m, addr, load);
    tm_req *r = new_req(g, sm->now, addr, (uint32_t)__builtin_popcount(want) * l1->sector_bytes, REQ_READ,
                        (uint16_t)sm->id, NULL);
    if (!r)
        return acc_miss;
    r->l1_mshr = m;
    r->sectors = want;
    missq_push(sm, r);
    return (tm_acc){ ACC_MISS, 0, m };
}

/* ---- read-only L1s: instructions, constants, textures ------------------------------ */

bool tm_ro_hit(tm_cache *c, uint64_t line_addr)
{
    tm_line *l;
    bool hit = tm_cache_probe(c, line_addr << c->line_shift, 1, &l) == PROBE_HIT;
    if (hit)
        tm_cache_account(c, line_addr, true);
    return hit;
}

tm_acc tm_ro_miss(tm_gpu *g, tm_sm *sm, tm_cache *c, uint64_t line_addr, tm_load *ld)
{
    uint64_t addr = line_addr << c->line_shift;
    bool queue_full = sm->missq_len >= g->c.l1_miss_queue;
    tm_mshr *m = tm_mshr_find(c, line_addr);
    if (!ld && m)
        return acc_miss;            /* a prefetch of a line on its way */
    if (!ld && (c->mshr_used == c->nmshr || queue_full))
        return (tm_acc){ ACC_FAIL, 0, NULL };  /* a prefetch waits for room: not a failure */
    if (m && m->merged >= c->merge_limit)
        return fail(c, TM_FAIL_MERGE, TM_HZ_MERGE);
    if (!m) {
        if (c->mshr_used == c->nmshr)
            return fail(c, TM_FAIL_MSHR, TM_HZ_MSHR);
        if (queue_full)
            return fail(c, TM_FAIL_QUEUE, TM_HZ_COMQ);      /* before RSV, as the L1D */
        bool dirty;
        uint64_t vtag;
        uint32_t vsec;
        tm_line *slot = tm_cache_victim(c, addr, &dirty, &vtag, &vsec);
        if (!slot)
            return fail(c, TM_FAIL_LINE, TM_HZ_RSV);
        tm_req *r = new_req(g, sm->now, addr, c->line_bytes, REQ_READ, (uint16_t)sm->id, NULL);
        if (!r)
            return acc_miss;
        m = tm_mshr_alloc(c, line_addr);
        m->sectors = 1;
        m->line_slot = slot;
        slot->tag = line_addr;
        slot->sectors = 0;
        slot->dirty = 0;
        slot->state = LINE_RESERVED;
        r->l1_mshr = m;
        r->ro = c;
        r->sectors = 1;
        missq_push(sm, r);
    } else {
        c->stats->merges++;
    }
    if (!ld)
        return (tm_acc){ ACC_MISS, 0, m };
    tm_cache_account(c, line_addr, false);
    wait_on(g, sm, m, addr, ld);
    return (tm_acc){ ACC_MISS, 0, m };
}

/* ---- interconnect ------------------------------------------------------------------ */

static uint64_t flits(const tm_gpu *g, uint32_t payload)
{
    uint64_t bytes = 8 + payload;           /* header plus data */
    return (bytes + g->c.icnt_flit_bytes - 1) / g->c.icnt_flit_bytes;
}

void tm_sm_inject(tm_gpu *g, tm_sm *sm)
{
    while (sm->missq && sm->up_free <= sm->now) {
        tm_req *r = sm->missq;
        sm->missq = r->next;
        if (!sm->missq)
            sm->missq_tail = NULL;
        sm->missq_len--;
        r->next = NULL;
        uint32_t payload = r->kind == REQ_READ ? 0 : r->bytes;
        uint64_t depart = sm->up_free > sm->now ? sm->up_free : sm->now;
        sm->up_free = depart + flits(g, payload) * g->icnt_ps;
        sm->st->icnt_up_bytes += 8 + payload;
        /* The L2's pipeline latency is paid before the tag lookup but for
         * its return part, paid by every reply (respond), so hits and
         * misses both see the whole of it. */
        tm_sm_push_event(g, sm, sm->up_free + g->c.icnt_latency * g->icnt_ps +
                                    (g->c.l2_latency - g->c.l2_return_latency) * g->l2_ps,
                      EV_L2_ARRIVE, r->partition, r);
    }
    if (sm->missq && sm->wake > sm->up_free)
        sm->wake = sm->up_free;
}

static void respond(tm_gpu *g, tm_partition *p, tm_req *r, uint64_t when)
{
    uint32_t payload = r->kind == REQ_READ || r->kind == REQ_ATOMIC ? r->bytes : 0;
    when += g->c.l2_return_latency * g->l2_ps;
    uint64_t depart = p->down_free > when ? p->down_free : when;
    p->down_free = depart + flits(g, payload) * g->icnt_ps;
    p->st->icnt_down_bytes += 8 + payload;
    tm_part_reply(g, p, p->down_free + g->c.icnt_latency * g->icnt_ps, r->sm, r);
}

/* ---- memory partitions ------------------------------------------------------------- */

static void kick_slice(tm_gpu *g, uint32_t part, uint64_t when)
{
    tm_partition *p = &g->parts[part];
    if (p->scheduled)
        return;
    p->scheduled = true;
    tm_part_event(g, part, when > p->busy_until ? when : p->busy_until, EV_L2_TICK, NULL);
}

/* Write a dirty victim back to DRAM. */
static void writeback(tm_gpu *g, uint32_t part, uint64_t tag, uint32_t sectors)
{
    tm_cache *l2 = &g->parts[part].l2;
    tm_req *wb = new_req(g, g->parts[part].now, tag << l2->line_shift, (uint32_t)__builtin_popcount(sectors) * l2->sector_bytes,
                         REQ_WRITE, 0, NULL);
    if (!wb)
        return;
    l2->stats->writebacks++;
    tm_dram_enqueue(g, part, wb);
}

/* Handle the request at the head of the partition's queue; false if it
 * must wait (no MSHR, no line, DRAM queue full). */
static bool l2_handle(tm_gpu *g, uint32_t part, tm_req *r)
{
    tm_partition *p = &g->parts[part];
    tm_cache *l2 = &p->l2;
    const tm_config *c = &g->c;
    uint64_t line = r->addr >> l2->line_shift;
    uint32_t sectors = tm_sector_mask(l2, r->addr, r->bytes ? r->bytes : 1);
    uint64_t hit_time = p->now + (1 + l2->hit_extra) * g->l2_ps;
    tm_line *l;
    tm_probe pr = tm_cache_probe(l2, r->addr, sectors, &l);
    if (r->kind == REQ_WRITE && !c->l2_allocate && pr == PROBE_MISS) {
        /* A machine without an L2: the write goes on to DRAM. */
        if (tm_dram_full(g, &p->dram)) {
            l2->stats->fail[TM_FAIL_QUEUE]++;
            return false;
        }
        note(g, 1, part, l2, r->addr, false);
        p->st->l2_bypassed++;
        r->next = NULL;
        tm_dram_enqueue(g, part, r);
        return true;
    }
    if (r->kind == REQ_WRITE) {
        if (pr == PROBE_MISS || (l && l->state == LINE_RESERVED)) {
            if (!l) {
                bool dirty;
                uint64_t vtag;
                uint32_t vsec;
                l = tm_cache_victim(l2, r->addr, &dirty, &vtag, &vsec);
                if (!l) {
                    l2->stats->fail[TM_FAIL_LINE]++;
                    return false;
                }
                if (dirty)
                    writeback(g, part, vtag, vsec);
                l->tag = line;
                l->sectors = 0;
                l->dirty = 0;
                l->state = LINE_VALID;
            }
            note(g, 1, part, l2, r->addr, false);
        } else {
            note(g, 1, part, l2, r->addr, true);
        }
        l->sectors |= sectors;
        l->dirty |= sectors;
        l->last_use = ++l2->stamp;
        tm_req_free(r);
        return true;
    }
    if (pr == PROBE_HIT) {
        note(g, 1, part, l2, r->addr, true);
        if (r->kind == REQ_ATOMIC) {
            l->dirty |= sectors;
            hit_time += c->atomic_latency * g->core_ps;
        }
        respond(g, p, r, hit_time);
        return true;
    }
    tm_mshr *m = tm_mshr_find(l2, line);
    if (m) {
        if (m->merged >= l2->merge_limit) {
            l2->stats->fail[TM_FAIL_MERGE]++;
            return false;
        }
        note(g, 1, part, l2, r->addr, false);
        l2->stats->merges++;
        m->sectors |= sectors;
        r->next = m->waiters;
        m->waiters = r;
        m->merged++;
        return true;
    }
    if (l2->mshr_used == l2->nmshr) {
        l2->stats->fail[TM_FAIL_MSHR]++;
        return false;
    }
    if (tm_dram_full(g, &p->dram)) {
        l2->stats->fail[TM_FAIL_QUEUE]++;
        return false;
    }
    /* DBSA bypassing the L2, or a machine without one: the data goes past
     * it; lines (and their dirty data) already there stay, and keep serving
     * hits.  Atomics are resolved in a line all the same. */
    bool allocate = (!l2->bypass && c->l2_allocate) || r->kind == REQ_ATOMIC;
    tm_line *slot = allocate ? l : NULL;
    if (allocate && !slot) {
        bool dirty;
        uint64_t vtag;
        uint32_t vsec;
        slot = tm_cache_victim(l2, r->addr, &dirty, &vtag, &vsec);
        if (!slot) {
            l2->stats->fail[TM_FAIL_LINE]++;
            return false;
        }
        if (dirty)
            writeback(g, part, vtag, vsec);
        slot->sectors = 0;
        slot->dirty = 0;
    }
    note(g, 1, part, l2, r->addr, false);
    if (slot) {
        slot->tag = line;
        slot->state = LINE_RESERVED;
    } else {
        p->st->l2_bypassed++;
    }
    m = tm_mshr_alloc(l2, line);
    m->sectors = sectors;
    m->line_slot = slot;
    m->waiters = r;
    r->next = NULL;
    m->merged = 1;
    tm_req *fill = new_req(g, g->parts[part].now, line << l2->line_shift, (uint32_t)__builtin_popcount(sectors) * l2->sector_bytes,
                           REQ_READ, 0, NULL);
    if (!fill)
        return true;
    fill->l2_mshr = m;
    tm_dram_enqueue(g, part, fill);
    return true;
}

static void l2_tick(tm_gpu *g, uint32_t part)
{
    tm_partition *p = &g->parts[part];
    p->scheduled = false;
    tm_req *r = p->inq;
    if (!r)
        return;
    tm_req *next = r->next;         /* l2_handle may relink or free r */
    p->busy_until = p->now + g->l2_ps;
    if (!l2_handle(g, part, r)) {
        /* Blocked: try again next L2 cycle (a DRAM completion frees room). */
        kick_slice(g, part, p->busy_until);
        return;
    }
    p->inq = next;
    if (!next)
        p->inq_tail = NULL;
    if (p->inq)
        kick_slice(g, part, p->busy_until);
}

/* ---- event dispatch ---------------------------------------------------------------- */

static void l1_fill(tm_gpu *g, tm_sm *sm, tm_req *r)
{
    tm_mshr *m = r->l1_mshr;
    tm_cache *c = r->ro ? r->ro : &sm->l1;
    tm_line *l = m->line_slot;
    l->state = LINE_VALID;
    l->sectors |= m->sectors;
    l->last_use = ++c->stamp;
    for (tm_req *w = m->waiters, *n; w; w = n) {
        n = w->next;
        tm_load_complete(g, w->load, sm->now);
        tm_req_free(w);
    }
    TM_EACH(g, l1_fill, mech)
        (*mech)->l1_fill(g, sm, c, m);
    tm_mshr_release(c, m);
    tm_req_free(r);
}

void tm_dispatch_event(tm_gpu *g, const tm_event *e)
{
    switch (e->kind) {
    case EV_L2_ARRIVE: {
        tm_partition *p = &g->parts[e->where];
        tm_req *r = e->ptr;
        r->next = NULL;
        if (p->inq_tail && p->inq)
            p->inq_tail->next = r;
        else
            p->inq = r;
        p->inq_tail = r;
        kick_slice(g, e->where, p->now);
        break;
    }
    case EV_L2_TICK:
        l2_tick(g, e->where);
        break;
    case EV_DRAM_TICK:
        tm_dram_tick(g, e->where);
        break;
    case EV_DRAM_DONE: {
        tm_req *r = e->ptr;
        tm_partition *p = &g->parts[e->where];
        if (r->l2_mshr) {
            tm_mshr *m = r->l2_mshr;
            tm_line *l = m->line_slot;         /* NULL: the fill bypasses the L2 */
            if (l) {
                l->state = LINE_VALID;
                l->sectors |= m->sectors;
                l->last_use = ++p->l2.stamp;
            }
            uint64_t when = p->now + g->l2_ps;
            for (tm_req *w = m->waiters, *n; w; w = n) {
                n = w->next;
                w->next = NULL;
                if (w->kind == REQ_ATOMIC) {
                    if (l)
                        l->dirty |= tm_sector_mask(&p->l2, w->addr, w->bytes ? w->bytes : 1);
                    respond(g, p, w, when + g->c.atomic_latency * g->core_ps);
                } else {
                    respond(g, p, w, when);
                }
            }
            tm_mshr_release(&p->l2, m);
            if (p->inq)
                kick_slice(g, e->where, p->now);
        }
        tm_req_free(r);
        break;
    }
    case EV_SM_ARRIVE: {
        tm_req *r = e->ptr;
        tm_sm *sm = &g->sms[e->where];
        if (r->l1_mshr) {
            l1_fill(g, sm, r);
        } else {
            if (r->load)
                tm_load_complete(g, r->load, sm->now);
            tm_req_free(r);
        }
        break;
    }
    default:
        break;
    }
}

/* ---- teardown ------------------------------------------------------------------- */

typedef struct ptr_set {
    void **v;
    size_t n, cap;
} ptr_set;

static void ptr_add(ptr_set *s, void *p)
{
    if (!p)
        return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        void **v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return;             /* out of memory while freeing: leave the rest */
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = p;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
    return x < y ? -1 : x > y;
}

/* Free each distinct pointer once. */
static void ptr_free_all(ptr_set *s)
{
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, cmp_ptr);
    for (size_t i = 0; i < s->n; i++)
        if (!i || s->v[i] != s->v[i - 1])
            free(s->v[i]);
    free(s->v);
}

static void add_list(ptr_set *reqs, tm_req *r)
{
    for (; r; r = r->next)
        ptr_add(reqs, r);
}

/* The requests that events carry. */
static void add_events(ptr_set *reqs, const tm_event *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i].kind == EV_L2_ARRIVE || v[i].kind == EV_DRAM_DONE || v[i].kind == EV_SM_ARRIVE)
            ptr_add(reqs, v[i].ptr);
}

static void add_waiters(ptr_set *reqs, const tm_cache *c)
{
    for (uint32_t i = 0; c->mshr && i < c->nmshr; i++)
        if (c->mshr[i].used)
            add_list(reqs, c->mshr[i].waiters);
}

void tm_memsys_free(tm_gpu *g)
{
    /* Requests a launch does not wait for (stores, write-backs, prefetches)
     * drain during the next launch; those still in flight when the model
     * is freed are freed here, with the prefetches' loads they complete. */
    ptr_set reqs = { 0 }, loads = { 0 };
    for (uint32_t p = 0; g->parts && p < g->c.n_partitions; p++) {
        add_events(&reqs, g->parts[p].events.v, g->parts[p].events.n);
        add_list(&reqs, g->parts[p].inq);
        add_list(&reqs, g->parts[p].dram.queue);
        add_waiters(&reqs, &g->parts[p].l2);
    }
    for (uint32_t i = 0; g->sms && i < g->c.n_sm; i++) {
        tm_sm *sm = &g->sms[i];
        add_events(&reqs, sm->inbox.v, sm->inbox.n);
        add_list(&reqs, sm->missq);
        add_waiters(&reqs, &sm->l1);
        add_waiters(&reqs, &sm->l1i);
        add_waiters(&reqs, &sm->l1c);
        add_waiters(&reqs, &sm->l1t);
    }
    for (size_t i = 0; i < reqs.n; i++)
        ptr_add(&loads, ((tm_req *)reqs.v[i])->load);
    ptr_free_all(&loads);
    ptr_free_all(&reqs);
}
