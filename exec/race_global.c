/*
 * race_global.c -- the global-memory race check (--check race-global):
 * accesses to the same global byte by two threads of one launch with
 * nothing ordering them, at least one of them a write.
 *
 * What orders two accesses (the rules docs/checking.md gives users):
 *   - one thread's accesses are ordered;
 *   - in one block, a barrier between them, or a __syncwarp between two
 *     lanes of one warp -- the same rules as the shared check (race.c),
 *     whose barrier epochs and warp-sync counts this file reads;
 *   - between blocks, nothing but the memory model's strong operations: two
 *     atomics, volatile or .relaxed/.acquire/.release accesses never race
 *     with each other; and a weak (plain) access is published by a fence
 *     at GPU or system scope (membar.gl, __threadfence()) or a release that
 *     its block executes after it, and seen by another block once that
 *     block executes an atomic, a fence or an acquire after the
 *     publication.  This is the fence-then-flag idiom (threadfence
 *     reduction, producer and consumer); a plain flag, or one without the
 *     fence, is reported.
 *
 * Fences and acquires are tracked per block, not per thread, and only a
 * block's latest release is remembered: a simplification that can miss a
 * hazard (a fence by another thread of the block counts) and, where blocks
 * run side by side (cooperative launches, the timing mode), may report one
 * when a later fence of the earlier block hides the one that ordered the
 * accesses.  In the functional mode's one-block-at-a-time schedule the
 * earlier block has finished, so its latest release is the one that counts.
 *
 * The shadow lives as long as the launch, so hazards between blocks that
 * never ran at the same time are found: verdicts do not depend on the
 * schedule, only on what each block did.  It is kept per 4-byte word (a
 * byte mask tells the bytes apart), in 4 KiB pages made on first access
 * and found through a hash table, so a large allocation costs nothing
 * until it is touched; then 72 bytes of shadow per word.  Each word keeps
 * its last writer and last two readers of distinct threads: a hazard with
 * an older reader, or with the writer of another byte of the same word,
 * can go unseen, but a reported one is always real.
 *
 * Cost, only with the check on: hotspot at size small took 2.56 s of user
 * time against 1.65 s with no check and 2.48 s with the shared one alone;
 * histogram, whose blocks all read one input, 2.42 s against 1.66 s and
 * 1.75 s (the least of three runs each, on a loaded machine).  With it
 * off, nothing in the interpreter loop changed.
 */
#include "exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One recorded access; mask 0 is "none". */
typedef struct gaccess {
    uint32_t cta;               /* linear block number (its low 32 bits) */
    uint32_t pc;
    uint32_t epoch;             /* the block's barrier epoch */
    uint32_t wsync;             /* the warp's bar.warp.sync count */
    uint32_t clock;             /* the launch's sync clock */
    uint16_t thread;            /* linear thread index in the block */
    uint8_t mask;               /* bytes of the word: bit b is byte b */
    uint8_t strong;             /* atomic, volatile, relaxed, acquire or release */
} gaccess;

typedef struct gcell {
    gaccess w, r1, r2;          /* last writer; last two readers of distinct threads */
} gcell;

#define PAGE_SHIFT 12
#define PAGE_WORDS (1u << (PAGE_SHIFT - 2))

typedef struct gslot {
    uint64_t key;               /* page number + 1; 0 is an empty slot */
    gcell *cells;
} gslot;

struct exec_race_global {
    gslot *slots;               /* open addressing, linear probing */
    uint64_t cap, used;
    uint64_t last_key;          /* the page of the previous access */
    gcell *last_cells;
    uint32_t *released;         /* per block: the sync clock at its latest release */
    uint64_t nreleased;
    uint32_t clock;             /* counts fences, atomics and acquires */
};

exec_race_global *exec_race_global_new(uint64_t nctas)
{
    exec_race_global *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    /* calloc of a large array maps zero pages lazily: a big grid pays for
     * the blocks that fence. */
    s->nreleased = nctas < (1ull << 32) ? nctas : 1ull << 32;
    s->released = calloc(s->nreleased, sizeof *s->released);
    s->cap = 1024;
    s->slots = calloc(s->cap, sizeof *s->slots);
    if (!s->released || !s->slots) {
        exec_race_global_free(s);
        return NULL;
    }
    return s;
}

void exec_race_global_free(exec_race_global *s)
{
    if (!s)
        return;
    if (s->slots)
        for (uint64_t i = 0; i < s->cap; i++)
            free(s->slots[i].cells);
    free(s->slots);
    free(s->released);
    free(s);
}

static inline uint64_t hash_key(uint64_t key, uint64_t cap)
{
    return (key * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
}

static bool grow(exec_race_global *s)
{
    uint64_t cap = s->cap * 2;
    gslot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (uint64_t i = 0; i < s->cap; i++) {
        if (!s->slots[i].key)
            continue;
        uint64_t h = hash_key(s->slots[i].key, cap);
        while (slots[h].key)
            h = (h + 1) & (cap - 1);
        slots[h] = s->slots[i];
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return true;
}

/* The shadow page of address addr, made on first use; NULL when memory is
 * short (the access then goes unchecked). */
static gcell *page_of(exec_race_global *s, uint64_t addr)
{
    uint64_t key = (addr >> PAGE_SHIFT) + 1;
    if (key == s->last_key)
        return s->last_cells;
    uint64_t h = hash_key(key, s->cap);
    while (s->slots[h].key && s->slots[h].key != key)
        h = (h + 1) & (s->cap - 1);
    if (!s->slots[h].key) {
        if (2 * (s->used + 1) > s->cap) {
            if (!grow(s))
                return NULL;
            return page_of(s, addr);
        }
        gcell *cells = calloc(PAGE_WORDS, sizeof *cells);
        if (!cells)
            return NULL;
        s->slots[h] = (gslot){ key, cells };
        s->used++;
    }
    s->last_key = key;
    s->last_cells = s->slots[h].cells;
    return s->last_cells;
}

/* Block c publishes its accesses so far (a fence or a release)... */
static void release(exec_race_global *s, const exec_cta *c)
{
    s->released[c->linear % s->nreleased] = ++s->clock;
}

/* ...and sees what other blocks published before now (a fence, an
 * atomic or an acquire). */
static void acquire(exec_race_global *s, exec_cta *c)
{
    c->acquired = ++s->clock;
}

void exec_race_global_fence(isa_warp *v, const isa_inst *in, uint32_t mask)
{
    (void)mask;
    if (in->scope == ISA_SCOPE_CTA)
        return;                 /* orders nothing between blocks */
    exec_warp *w = v->ctx;
    exec_race_global *s = w->cta->grid->race_global;
    release(s, w->cta);
    acquire(s, w->cta);
}

/* Is the recorded access a ordered before the access now by block c? */
static bool ordered(const exec_race_global *s, const exec_cta *c, const gaccess *a, const gaccess *now)
{
    if (!(a->mask & now->mask) || (a->strong && now->strong))
        return true;
    if (a->cta == now->cta) {
        if (a->thread == now->thread || a->epoch != now->epoch)
            return true;
        /* Same epoch: lanes of one warp are ordered by a __syncwarp since
         * (now->wsync is that warp's count today). */
        return a->thread / ISA_WARP_SIZE == now->thread / ISA_WARP_SIZE && a->wsync != now->wsync;
    }
    uint32_t rel = s->released[a->cta % s->nreleased];
    return a->clock < rel && rel < c->acquired;
}

static void block_xyz(const exec_grid *g, uint64_t linear, uint32_t out[3])
{
    out[0] = (uint32_t)(linear % g->l.grid[0]);
    out[1] = (uint32_t)(linear / g->l.grid[0] % g->l.grid[1]);
    out[2] = (uint32_t)(linear / ((uint64_t)g->l.grid[0] * g->l.grid[1]));
}

static void thread_xyz(const exec_cta *c, uint32_t t, uint32_t out[3])
{
    out[0] = t % c->ntid[0];
    out[1] = t / c->ntid[0] % c->ntid[1];
    out[2] = t / (c->ntid[0] * c->ntid[1]);
}

/* A hazard between the recorded access a and the access now, of `bytes`
 * bytes at addr (cold path).  The first of each (pc, pc, kind) in a launch
 * is reported; the rest are counted. */
static void hazard(exec_cta *c, const gaccess *a, const gaccess *now, uint8_t kind, uint64_t addr,
                   unsigned bytes)
{
    exec_grid *g = c->grid;
    g->race_hits++;
    /* Kinds 3 to 5 keep these apart from shared hazards at the same pcs
     * (generic accesses). */
    if (exec_race_seen(g, a->pc, now->pc, (uint8_t)(kind + 3)))
        return;
    g->races++;
    exec_race_report rep;
    memset(&rep, 0, sizeof rep);
    rep.kernel = c->k->info.name;
    rep.kind = exec_race_kind_names[kind];
    rep.global = true;
    block_xyz(g, a->cta, rep.ctaid[0]);
    memcpy(rep.ctaid[1], c->ctaid, sizeof rep.ctaid[1]);
    rep.addr = addr;
    rep.pc[0] = a->pc;
    rep.pc[1] = now->pc;
    thread_xyz(c, a->thread, rep.tid[0]);
    thread_xyz(c, now->thread, rep.tid[1]);
    char at0[200], at1[200];
    exec_program_where_text(c->prog, a->pc, at0, sizeof at0);
    exec_program_where_text(c->prog, now->pc, at1, sizeof at1);
    char in_alloc[300] = "";
    exec_alloc_info al;
    if (exec_memory_find(c->prog->mem, addr, &al) && addr >= al.addr && addr < al.addr + al.bytes) {
        snprintf(in_alloc, sizeof in_alloc, ", %llu bytes into the %llu-byte allocation at 0x%llx",
                 (unsigned long long)(addr - al.addr), (unsigned long long)al.bytes,
                 (unsigned long long)al.addr);
        exec_name_variable(c->prog, al.addr, in_alloc, sizeof in_alloc);
    }
    const char *why;
    if (a->cta != now->cta)
        why = "nothing ordering the two blocks (that takes a fence such as __threadfence() after the "
              "first access, then an atomic or fence in the second block before its access; or "
              "atomics or volatile accesses on both sides)";
    else if (a->thread / ISA_WARP_SIZE == now->thread / ISA_WARP_SIZE)
        why = "no __syncwarp() or barrier between them (the threads share a warp)";
    else
        why = "no barrier between them";
    snprintf(rep.msg, sizeof rep.msg,
             "race: %s hazard on global memory in kernel '%s' at global address 0x%llx%s: block "
             "(%u,%u,%u) thread (%u,%u,%u) %s %u bytes at %s after block (%u,%u,%u) thread (%u,%u,%u) "
             "%s it at %s, with %s",
             rep.kind, rep.kernel, (unsigned long long)addr, in_alloc, rep.ctaid[1][0], rep.ctaid[1][1],
             rep.ctaid[1][2], rep.tid[1][0], rep.tid[1][1], rep.tid[1][2], kind == EXEC_RACE_RAW ? "read" : "wrote",
             bytes, at1, rep.ctaid[0][0], rep.ctaid[0][1], rep.ctaid[0][2], rep.tid[0][0], rep.tid[0][1],
             rep.tid[0][2], kind == EXEC_RACE_WAR ? "read" : "wrote", at0, why);
    if (g->l.on_race)
        g->l.on_race(g->l.race_ctx, &rep);
}

/* Check and record one lane's access of `bytes` bytes at addr.  Stops
 * reporting at the lane's first hazard: one report per access is enough. */
static void access_words(exec_race_global *s, exec_cta *c, gaccess now, uint64_t addr, unsigned bytes,
                         bool write)
{
    bool reported = false;
    for (uint64_t a = addr & ~3ull; a < addr + bytes; a += 4) {
        gcell *page = page_of(s, a);
        if (!page)
            return;
        gcell *cell = &page[(a >> 2) & (PAGE_WORDS - 1)];
        uint64_t lo = addr > a ? addr - a : 0, hi = addr + bytes < a + 4 ? addr + bytes - a : 4;
        now.mask = (uint8_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
        if (write) {
            if (!reported) {
                const gaccess *prior = !ordered(s, c, &cell->w, &now) ? &cell->w
                                     : !ordered(s, c, &cell->r1, &now) ? &cell->r1
                                     : !ordered(s, c, &cell->r2, &now) ? &cell->r2 : NULL;
                if (prior) {
                    hazard(c, prior, &now, prior == &cell->w ? EXEC_RACE_WAW : EXEC_RACE_WAR, addr, bytes);
                    reported = true;
                }
            }
            cell->w = now;
        } else {
            if (!reported && !ordered(s, c, &cell->w, &now)) {
                hazard(c, &cell->w, &now, EXEC_RACE_RAW, addr, bytes);
                reported = true;
            }
            if (cell->r1.mask && !(cell->r1.cta == now.cta && cell->r1.thread == now.thread))
                cell->r2 = cell->r1;
            cell->r1 = now;
        }
    }
}

void exec_race_global_access(exec_warp *w, const isa_inst *in, uint32_t pc)
{
    if (!isa_op_lane_access(in->op))
        return;                 /* prefetches touch nothing; cp.async is not checked */
    unsigned fl = isa_ops[in->op].flags;
    bool write = (fl & ISA_F_STORE) != 0, atomic = (fl & ISA_F_ATOMIC) != 0;
    if (in->space != ISA_SPACE_GLOBAL && in->space != ISA_SPACE_GENERIC)
        return;
    exec_cta *c = w->cta;
    exec_race_global *s = c->grid->race_global;
    bool releases = in->order == ISA_ORDER_RELEASE || in->order == ISA_ORDER_ACQ_REL || in->order == ISA_ORDER_SC;
    bool acquires = in->order == ISA_ORDER_ACQUIRE || in->order == ISA_ORDER_ACQ_REL || in->order == ISA_ORDER_SC;
    bool strong = atomic || (in->flags & ISA_MOD_FLAG(VOLATILE)) || in->order == ISA_ORDER_RELAXED ||
                  releases || acquires;
    /* A release orders what came before it, not itself. */
    if (releases && in->scope != ISA_SCOPE_CTA)
        release(s, c);
    const isa_access *acc = &w->acc;
    gaccess now = { (uint32_t)c->linear, pc, exec_race_epoch_of(c->race),
                    exec_race_wsync_of(c->race, w->index), s->clock, 0, 0, strong };
    for (uint32_t rest = acc->lanes; rest;) {
        unsigned l = (unsigned)__builtin_ctz(rest);
        rest &= rest - 1;
        uint64_t addr = acc->addr[l];
        if (in->space == ISA_SPACE_GENERIC &&
            (addr - w->mem.shared_win < ISA_WINDOW_BYTES || addr - w->mem.local_win < ISA_WINDOW_BYTES))
            continue;
        now.thread = (uint16_t)(w->index * ISA_WARP_SIZE + l);
        access_words(s, c, now, addr, acc->bytes, write);
    }
    /* An atomic that returns its old value, or an acquire, sees what other
     * blocks published. */
    if (((atomic && (fl & ISA_F_LOAD)) || acquires) && in->scope != ISA_SCOPE_CTA)
        acquire(s, c);
}
