/*
 * mech.h -- timing mechanisms as plug-ins (internal to timing/).
 *
 * A mechanism (replay, hazard prediction, diverge on miss, P-mode, a
 * prefetcher, cache bypassing, warp throttling) is a table of hooks plus
 * the sizes of the state it keeps.  The core -- schedulers, collector
 * units, the memory stage, the memory system and the main loop -- calls
 * the hooks of the mechanisms the configuration turns on, at the fixed
 * points described below, and never asks which mechanisms exist.  Every
 * hook may be NULL.  mechs.def is the registry; docs/extending.md shows a
 * mechanism written from scratch.
 *
 * State.  The core keeps zeroed blocks of the sizes a table asks for: one
 * per model (tm_mech_gpu), one per SM (tm_mech_sm), one per warp slot,
 * cleared when a warp takes the slot (tm_mech_warp), one per memory
 * instruction, cleared when it is made (tm_mech_minst), and one of
 * statistics, cleared at each launch and printed by stats_json
 * (tm_mech_stats).  What a block points to is the mechanism's to allocate
 * (init, or on demand) and free (fini, warp_end).
 *
 * Cost.  tm_new lists, per hook, the enabled mechanisms that have it
 * (g->on); a hook point with none costs one load and a test.
 */
#ifndef PTXSIM_TM_MECH_H
#define PTXSIM_TM_MECH_H

#include "timing.h"

typedef struct tm_sm tm_sm;
typedef struct tm_warp tm_warp;
typedef struct tm_minst tm_minst;
typedef struct tm_oc tm_oc;
typedef struct tm_load tm_load;
typedef struct tm_cache tm_cache;
typedef struct tm_mshr tm_mshr;
typedef struct tm_acc tm_acc;
typedef struct tm_pending tm_pending;

/* The mechanisms' numbers, from the registry. */
enum {
#define TM_MECH(ID, name) TM_MECH_##ID,
#include "mechs.def"
#undef TM_MECH
    TM_MECH_COUNT
};

/* A hook that may answer with a scheduler reason (TM_SLOT_*) has no
 * opinion when it returns this. */
#define TM_MECH_PASS (-1)

typedef struct tm_mech {
    const char *name;                       /* the key of its own statistics (stats_json) in the JSON */
    bool (*enabled)(const tm_config *c);    /* does the configuration turn it on? */
    uint32_t gpu_bytes, sm_bytes, warp_bytes, minst_bytes, stats_bytes;   /* its state blocks */
    /* Its state changes what a warp can do without telling the schedulers
     * (tm_sm_look_warp/_all), so every scheduler looks at every warp every
     * cycle instead of sleeping until something it waits on changes. */
    bool always_look;

    /* ---- lifetime --------------------------------------------------------- */
    /* tm_new: allocate what the state blocks point to; false when out of
     * memory (fini is called all the same). */
    bool (*init)(tm_gpu *g);
    void (*fini)(tm_gpu *g);
    /* A launch begins (g->st is its statistics, g->now its first cycle):
     * reset what does not carry over from one kernel to the next. */
    void (*launch)(tm_gpu *g);
    /* Every launch, for every registered mechanism whether on or off: the
     * values its fields of tm_stats show when nothing happens (all other
     * fields start at zero). */
    void (*stats_reset)(const tm_config *c, tm_stats *st);
    /* The launch ended, normally or not: final statistics. */
    void (*finish)(tm_gpu *g);
    /* Every period(c) core cycles from the launch's first cycle, at the
     * first step of the main loop at or after that time: a decision over
     * the period just ended (DBSA, DWT-CS). */
    uint64_t (*period)(const tm_config *c);
    void (*decide)(tm_gpu *g);
    /* Every step of the main loop, for every SM with work, before the SM's
     * cycle (whether or not it runs one then). */
    void (*sm_visit)(tm_gpu *g, tm_sm *sm);
    /* w's CTA retires: give back what w's block holds. */
    void (*warp_end)(tm_gpu *g, tm_sm *sm, tm_warp *w);

    /* ---- the scheduler's look at a warp, in this order -------------------- */
    /* An instruction the mechanism holds for w and wants issued before w's
     * next one (replay: its oldest squashed memory instruction), or NULL.
     * It is one of w's instruction buffer (w->retained): held is asked only
     * while that is not empty, first at every look and again at the issue,
     * and must not change anything.  A held instruction needs a memory collector unit, then the
     * can_issue hooks' consent (with again = it); at issue, the mem_issue
     * hooks see it (again = true) and it goes to a collector. */
    tm_minst *(*held)(tm_gpu *g, tm_warp *w);
    /* w is running (not at a barrier, not finished) and its next
     * instruction is about to be decoded.  The mechanism may change which
     * lanes run (exec_warp_rejoin, exec_warp_swap; then it clears
     * w->regs_valid) or hold w: a TM_SLOT_* reason, lowering *ready_at to
     * the time that may change, else TM_MECH_PASS. */
    int (*before_decode)(tm_gpu *g, tm_sm *sm, tm_warp *w, uint64_t *ready_at);
    /* The next instruction's (w->regs) registers were looked up in the
     * scoreboard: blocker is the pending write that holds it back, or NULL.
     * An observer (P-mode enters and leaves pre-execution here): w is held
     * for blocker afterwards, whatever the hook does. */
    void (*registers)(tm_gpu *g, tm_sm *sm, tm_warp *w, const tm_pending *blocker);
    /* Nothing in the core holds the instruction back: its registers are
     * free and, for a memory instruction, so is a collector unit.  again:
     * the held instruction being re-issued, or NULL for w's next one
     * (w->regs).  A TM_SLOT_* reason to hold it, TM_SLOT_ISSUE to issue it
     * without the core's functional-unit check (P-mode: a reused result
     * needs no unit), or TM_MECH_PASS; the first answer wins.  Asked again
     * before a second issue to the same warp in one cycle. */
    int (*can_issue)(tm_gpu *g, tm_sm *sm, tm_warp *w, const tm_minst *again, uint64_t *ready_at);
    /* Scheduler sched issued nothing this cycle: the mechanism may use the
     * slot (P-mode: a pre-executing warp).  1 if it issued (the cycle is
     * charged to TM_SLOT_PRE), 0 if it has work for the next cycle,
     * TM_MECH_PASS if none; asked in order until one issues. */
    int (*idle)(tm_gpu *g, tm_sm *sm, uint32_t sched);

    /* ---- issue ------------------------------------------------------------ */
    /* w is about to execute its next instruction (exec_warp_step). */
    void (*before_step)(tm_gpu *g, tm_sm *sm, tm_warp *w);
    /* A memory instruction goes to a collector unit: just executed and
     * made by tm_minst_new (again = false), or held and issued again
     * (again = true).  The mechanism may keep it (replay), split its load
     * (diverge on miss), learn from it (prefetchers), or take a resource
     * for it (credits). */
    void (*mem_issue)(tm_gpu *g, tm_sm *sm, tm_warp *w, tm_minst *m, bool again);
    /* w just executed a non-memory instruction, rec: true if the mechanism
     * has its result already (P-mode's P-queue) and has marked rec's
     * destinations (tm_mark), so it takes no collector or unit.  Asked in
     * order until one says true. */
    bool (*reuse)(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *rec);
    /* An instruction this mechanism put into a collector unit (o->by) leaves
     * for its functional unit; its results are written by `ready`. */
    void (*written)(tm_gpu *g, tm_oc *o, uint64_t ready);

    /* ---- the memory stage and the memory system ------------------------------ */
    /* The memory stage could not finish m this cycle: hazard TM_HZ_* says
     * why (more transactions or passes to go, or an access refused).  Every
     * mechanism is told; true from one means it took m out of the stage
     * (replay squashes it, setting sm->lsu to NULL); otherwise the stage
     * keeps m and counts a hazard cycle. */
    bool (*refused)(tm_gpu *g, tm_sm *sm, tm_minst *m, uint8_t hazard);
    /* The memory stage has no instruction this cycle: the mechanism may
     * send one access of its own to the L1 (a prefetch: a pre-load
     * tm_load through tm_l1_access).  True if it did; asked in order until
     * one does. */
    bool (*lsu_idle)(tm_gpu *g, tm_sm *sm);
    /* Transaction txn of m, a demand load (not a pre-load, not through a
     * read-only L1), reached the L1D: acc is a hit, a miss or a refusal. */
    void (*l1_access)(tm_gpu *g, tm_sm *sm, tm_minst *m, uint32_t txn, const tm_acc *acc);
    /* A fill for MSHR mshr of sm's L1 cache c arrived; the loads waiting on
     * it are complete, and the MSHR is released after this. */
    void (*l1_fill)(tm_gpu *g, tm_sm *sm, tm_cache *c, tm_mshr *mshr);
    /* A load this mechanism made (ld->owner) has all its data, by
     * ld->done: in place of marking its registers ready. */
    void (*load_done)(tm_gpu *g, tm_load *ld);
    /* A data access was accepted by cache level `level` (0: the L1D of SM
     * `where`; 1: the L2 slice of partition `where`): a hit or a miss. */
    void (*cache_access)(tm_gpu *g, int level, uint32_t where, uint64_t addr, bool hit);

    /* ---- statistics ------------------------------------------------------- */
    /* Its statistics block as a JSON object (the core writes "name": before
     * it); only mechanisms that are on have one. */
    void (*stats_json)(FILE *out, const tm_config *c, const void *stats);
    /* What each member of that object means, for docs/statistics.md:
     * { name, unit, meaning } rows ending with a row of NULLs. */
    const struct tm_stat_doc {
        const char *name, *unit, *meaning;
    } *stats_doc;
} tm_mech;

/* The hook tables, by number. */
extern const tm_mech *const tm_mechs[TM_MECH_COUNT];
#define TM_MECH(ID, name) extern const tm_mech tm_mech_##name;
#include "mechs.def"
#undef TM_MECH

/* The hooks the core calls on every enabled mechanism that has them; each
 * gets a NULL-terminated list in g->on. */
#define TM_MECH_HOOKS(X)                                                                            \
    X(init) X(fini) X(launch) X(finish) X(decide) X(sm_visit) X(warp_end) X(held) X(before_decode) \
    X(registers) X(can_issue) X(idle) X(before_step) X(mem_issue) X(reuse) X(refused) X(lsu_idle)  \
    X(l1_access) X(l1_fill) X(cache_access)

typedef struct tm_mech_on {
#define TM_MECH_LIST(hook) const tm_mech *hook[TM_MECH_COUNT + 1];
    TM_MECH_HOOKS(TM_MECH_LIST)
#undef TM_MECH_LIST
} tm_mech_on;

/* Each enabled mechanism (a const tm_mech *const *) that has this hook, in
 * registry order. */
#define TM_EACH(g, hook, m) for (const tm_mech *const *m = (g)->on.hook; *m; m++)

/* Where one mechanism's state is in a model (mech.c lays it out). */
typedef struct tm_mech_state {
    void *gpu, *stats;
    uint32_t sm_off, warp_off, minst_off;   /* in each SM's, warp's, memory instruction's area */
    bool on;
} tm_mech_state;

/* mech.c: lay out and allocate the enabled mechanisms' state and list
 * their hooks (tm_new), and free it (tm_free). */
bool tm_mech_new(tm_gpu *g);
void tm_mech_free(tm_gpu *g);

#endif /* PTXSIM_TM_MECH_H */
