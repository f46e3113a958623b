/*
 * hang.c -- the loop watch: telling a launch that can never finish from one
 * that is only slow, without waiting for the instruction budget.
 *
 * The engine is deterministic, so a warp's next turn depends only on its
 * own state (pc, SIMT stack, frames, registers, predicates) and on memory.
 * While no instruction of the launch may have written memory and no warp
 * has arrived at, waited at or left a barrier, memory is constant; a warp
 * whose state at the end of a turn equals its state at the end of an
 * earlier turn will then repeat those turns forever.  When every warp that
 * has not finished either waits at a barrier or repeats itself so, nothing
 * can ever change: the launch is hung, and it is reported at once.
 *
 * That is a proof, not a guess: a loop that counts, reads the clock or
 * writes anything changes state and is never reported (it still meets the
 * instruction budget if it never ends).  The watch starts only after
 * QUIET_START warp-instructions in which nothing changed, so ordinary
 * kernels never pay for it; then each warp's state is hashed once a turn,
 * and Brent's cycle search finds a repetition within twice the loop's
 * period in turns.
 *
 * A timing model steps warps one instruction at a time, as its schedulers
 * choose, so a "turn" there has no fixed length.  exec_warp_step samples a
 * stepped warp's state every STEP_STRIDE of its own instructions instead
 * (a warp repeating a loop of P instructions repeats its samples with a
 * period of at most P), and the model asks exec_hang_check every so many
 * instructions whether anything changed and whether every running warp
 * has been seen to repeat.  Any exact repeat of a warp's state while
 * memory stays constant is a proof whatever the sampling, so the model's
 * timing can delay the verdict but never make it wrong.
 *
 * A timing model may also never step some running warps: a scheduler that
 * lets only a few warps issue (throttling) while those spin waiting for
 * the others.  The launch could finish, but the model will not let it --
 * a livelock of the model, not of the kernel.  A running warp that has not
 * stepped once in STARVED_AFTER warp-instructions in which nothing changed
 * (far beyond any memory latency) counts as starved: when every other
 * running warp repeats a loop, the watch reports the looping warp with
 * exec_hang_watch.starved set, and the report blames the schedule.
 *
 * With CTAs on several host threads (grid.c) each worker watches its own
 * CTAs, and the writes it sees are every worker's.  Its proof then holds
 * only if no other worker can write either: the launch is declared hung
 * once every worker still working has proved its CTAs loop at the same
 * count of writes (exec_hang_watch.proven) and that count has not moved.
 * A worker whose CTAs wait for a CTA not yet taken is never idle, so it
 * holds the declaration off until that CTA runs.
 *
 * Memory is constant only if nothing outside the launch writes it: a host
 * running beside the kernel may (a latch in pinned memory the kernel polls
 * until the host sets it).  Such a launch has exec_launch.settled, and a
 * proof stands only once that says the host can no longer write (it waits
 * for the device) and no other work can run beside the launch (another
 * stream's, which it may wait for: runtime/rt_queue.c runs it from there);
 * until then the worker sleeps in it or runs that work, and starts over.
 *
 * A proof is also where independent thread scheduling (Volta on) comes in.
 * A warp's lanes run on one reconvergence stack, its top entry first; a
 * spin lock taken by one lane of a warp has its holder wait at the loop's
 * reconvergence point for warp-mates that spin on the lock it holds, which
 * a GPU that schedules threads independently never lets happen.  So when
 * every running warp is proved to loop, each looping warp's other lanes
 * that could run (paths not yet run, lanes waiting to reconverge) go above
 * its looping lanes (exec_warp_run_others), and the watch starts over,
 * sooner than the first time (QUIET_AGAIN): only a launch that has needed
 * it pays for that.  The launch is hung only when no warp has such lanes,
 * or after RUN_OTHERS_MAX such rounds with nothing changed in between.
 * With exec_launch.lockstep (GPUs before Volta) the first proof stands.
 * (A spin on a lock, whose atomics keep failing, needs no proof: the warp
 * lets its other lanes run after ISA_ATOMIC_SPINS of them; warp.c.)
 */
#include "exec_int.h"
#include "warp.h"

#include <string.h>

/* Warp-instructions with nothing changed before the watch hashes states:
 * about a millisecond of interpretation. */
#define QUIET_START (1u << 18)

/* ... and once the watch has run a looping warp's other lanes in this
 * launch: lock handoffs within a warp each need a proof. */
#define QUIET_AGAIN (1u << 12)

/* Rounds of running other lanes with nothing changed in between (no
 * write, no lane ended or reached a barrier) before the launch is hung:
 * a warp's paths that all loop take one round each to be tried. */
#define RUN_OTHERS_MAX 64u

/* Warp-instructions in which nothing changed and a running warp never
 * stepped before it counts as starved by the timing model. */
#define STARVED_AFTER (4u * QUIET_START)

/* A stepped warp's state is hashed every this many of its instructions
 * (a power of two): hashing a warp's registers costs about as much as a
 * few dozen instructions. */
#define STEP_STRIDE 16u

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_words(uint64_t h, const void *p, size_t bytes)
{
    const uint8_t *b = p;
    for (; bytes >= 8; b += 8, bytes -= 8) {
        uint64_t v;
        memcpy(&v, b, 8);
        h = mix(h, v);
    }
    for (; bytes; b++, bytes--)
        h = mix(h, *b);
    return h;
}

/* Everything of the warp that its next turn depends on besides memory. */
static uint64_t warp_state(const exec_warp *w)
{
    uint64_t h = mix(w->exited, w->valid);
    h = hash_words(h, w->stack, (size_t)w->sp * sizeof *w->stack);
    h = hash_words(h, w->frames, (size_t)w->nframes * sizeof *w->frames);
    h = mix(mix(h, w->func), ((uint64_t)w->reg_off << 32) | w->pred_off);
    h = hash_words(h, w->regs, (size_t)w->regs_cap * ISA_WARP_SIZE * sizeof *w->regs);
    return hash_words(h, w->preds, (size_t)w->preds_cap * sizeof *w->preds);
}

/* A part of the warp's state that costs nothing to take (where it stands
 * and with which lanes): two states can be equal only if their keys are,
 * so most samples are told apart without hashing the registers. */
static uint64_t warp_key(const exec_warp *w)
{
    const exec_simt *top = w->sp ? &w->stack[w->sp - 1] : NULL;
    return mix(mix(w->sp, top ? top->pc : 0), top ? top->mask : 0);
}

/* ... and one that costs a 32nd of the whole: lane 0's registers.  A warp
 * sampled at the pcs of a loop that is no loop (a counter moves) has equal
 * keys again and again; gemm's warps in timing mode, sampled every 16
 * instructions, spent 5% of the run hashing whole register files so. */
static uint64_t lane0_key(const exec_warp *w)
{
    uint64_t h = 0;
    for (size_t r = 0; r < w->regs_cap; r++)
        h = mix(h, w->regs[r * ISA_WARP_SIZE]);
    return h;
}

static void keep(exec_warp *w, uint64_t key)
{
    w->loop_key = key;
    w->loop_lane0 = lane0_key(w);
    w->loop_hash = warp_state(w);
}

/* A digest of which warps wait, run or are done: a change is progress. */
static uint64_t warp_states(exec_cta *const *ctas, uint64_t n)
{
    uint64_t h = 0;
    for (uint64_t i = 0; i < n; i++) {
        h = mix(h, ctas[i]->mbar_ops);      /* mbarrier changes are writes too */
        for (uint32_t k = 0; k < ctas[i]->nwarps; k++) {
            const exec_warp *w = &ctas[i]->warps[k];
            h = mix(h, ((uint64_t)w->state << 40) | ((uint64_t)w->bar_id << 32) | w->exited);
            h = mix(h, w->cl_arrived);
        }
    }
    return h;
}

static void forget(exec_cta *const *ctas, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < ctas[i]->nwarps; k++) {
            exec_warp *w = &ctas[i]->warps[k];
            w->loop_turns = w->loop_power = 0;
            w->looping = false;
            w->quiet_insts = w->insts;
        }
}

/* Several workers: this one's CTAs loop with `writes` writes made; true
 * when every other worker's do too, or it is done, and nothing was
 * written since (or the launch was declared hung already). */
static bool all_workers_loop(exec_grid *g, exec_hang_watch *hw, uint64_t writes)
{
    __atomic_store_n(&hw->proven, writes + 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&g->hung, __ATOMIC_SEQ_CST))
        return true;
    for (uint32_t i = 0; i < g->nwatches; i++) {
        exec_hang_watch *o = g->watches[i];
        if (o != hw && !__atomic_load_n(&o->idle, __ATOMIC_SEQ_CST) &&
            __atomic_load_n(&o->proven, __ATOMIC_SEQ_CST) != writes + 1)
            return false;
    }
    return __atomic_load_n(g->writes, __ATOMIC_SEQ_CST) == writes;
}

/* Every worker proved its CTAs loop at `writes`, and nothing outside can
 * change that: the launch is hung, if the count has not moved meanwhile. */
static bool declare_hung(exec_grid *g, uint64_t writes)
{
    if (__atomic_load_n(&g->hung, __ATOMIC_SEQ_CST))
        return true;
    if (__atomic_load_n(g->writes, __ATOMIC_SEQ_CST) != writes)
        return false;
    __atomic_store_n(&g->hung, true, __ATOMIC_SEQ_CST);
    return true;
}

/* One sample of the warp's state in Brent's search: the warp is looping
 * once a sample equals the one kept. */
static void sample(exec_warp *w)
{
    uint64_t key = warp_key(w);
    if (!w->loop_power) {                   /* the first state since forget() */
        keep(w, key);
        w->loop_power = 1;
    } else if (key == w->loop_key && lane0_key(w) == w->loop_lane0 && warp_state(w) == w->loop_hash) {
        w->looping = true;
    } else if (++w->loop_turns == w->loop_power) {
        keep(w, key);
        w->loop_power *= 2;
        w->loop_turns = 0;
    }
}

/* Warp-instructions with nothing changed before the watch hashes states. */
static uint64_t quiet_start(const exec_hang_watch *hw)
{
    return hw->ran_others ? QUIET_AGAIN : QUIET_START;
}

void exec_hang_watch_step(exec_warp *w)
{
    if (w->cta->hang->quiet >= quiet_start(w->cta->hang) && !(w->insts & (STEP_STRIDE - 1)))
        sample(w);
}

/* Each looping warp's other lanes that could run go above its looping
 * ones; true if any warp had such lanes. */
static bool run_others(exec_cta *const *ctas, uint64_t n)
{
    bool moved = false;
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < ctas[i]->nwarps; k++) {
            exec_warp *w = &ctas[i]->warps[k];
            if (w->state == EXEC_WARP_RUNNING && w->looping && exec_warp_run_others(w))
                moved = true;
        }
    return moved;
}

/* A round of the watch; with `sampling`, each running warp's state is
 * sampled now (functional mode's turns), else the samples are the ones
 * exec_hang_watch_step took. */
static exec_warp *watch(exec_grid *g, exec_hang_watch *hw, exec_cta *const *ctas, uint64_t n, uint64_t insts,
                        bool sampling)
{
    /* The writes these CTAs made since the last round join the launch's
     * count (a host atomic once a round, not once a store). */
    uint64_t mine = 0;
    for (uint64_t i = 0; i < n; i++) {
        mine += ctas[i]->writes;
        ctas[i]->writes = 0;
    }
    if (mine)
        __atomic_fetch_add(g->writes, mine, __ATOMIC_RELAXED);
    uint64_t states = warp_states(ctas, n);
    uint64_t writes = __atomic_load_n(g->writes, __ATOMIC_RELAXED);
    if (writes != hw->writes || states != hw->states) {
        if (hw->proven)
            __atomic_store_n(&hw->proven, 0, __ATOMIC_SEQ_CST);
        hw->writes = writes;
        hw->states = states;
        if (hw->quiet >= quiet_start(hw))
            forget(ctas, n);
        hw->quiet = 0;
        hw->fruitless = 0;
        return NULL;
    }
    bool was_quiet = hw->quiet >= quiet_start(hw);
    hw->quiet += insts;
    if (hw->quiet < quiet_start(hw))
        return NULL;
    if (!was_quiet)
        forget(ctas, n);
    exec_warp *spinner = NULL;
    bool all = true;
    uint32_t starved = 0;
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < ctas[i]->nwarps; k++) {
            exec_warp *w = &ctas[i]->warps[k];
            if (w->state != EXEC_WARP_RUNNING)
                continue;
            if (sampling)
                sample(w);
            else if (w->insts == w->quiet_insts && hw->quiet >= STARVED_AFTER) {
                starved++;
                continue;
            }
            /* The report names a divergent looping warp where there is
             * one: its hint says what the looping lanes may wait for. */
            if (!w->looping)
                all = false;
            else if (!spinner || (w->sp > 1 && spinner->sp <= 1))
                spinner = w;
        }
    if (!all || !spinner) {
        if (hw->proven)
            __atomic_store_n(&hw->proven, 0, __ATOMIC_SEQ_CST);
        return NULL;
    }
    if (!g->l.lockstep && hw->fruitless < RUN_OTHERS_MAX && run_others(ctas, n)) {
        if (hw->proven)
            __atomic_store_n(&hw->proven, 0, __ATOMIC_SEQ_CST);
        hw->fruitless++;
        hw->ran_others++;
        forget(ctas, n);
        hw->quiet = 0;
        return NULL;
    }
    /* The launch's own proof first -- every worker's -- then what is
     * outside it, which settled may run meanwhile (so the launch is
     * stuck as a whole when other work looks at it: rt_queue.c). */
    if (g->nwatches > 1 && !all_workers_loop(g, hw, writes))
        return NULL;
    if (g->l.settled && !__atomic_load_n(&g->hung, __ATOMIC_SEQ_CST) && !g->l.settled(g->l.watch_ctx, writes)) {
        /* Someone outside may have written meanwhile: prove it again. */
        if (hw->proven)
            __atomic_store_n(&hw->proven, 0, __ATOMIC_SEQ_CST);
        forget(ctas, n);
        hw->quiet = 0;
        return NULL;
    }
    if (g->nwatches > 1 && !declare_hung(g, writes))
        return NULL;
    hw->found = true;
    hw->starved = starved;
    hw->pc = exec_warp_pc(spinner);
    return spinner;
}

exec_warp *exec_hang_watch_round(exec_grid *g, exec_hang_watch *hw, exec_cta *const *ctas, uint64_t n,
                                 uint64_t insts)
{
    return watch(g, hw, ctas, n, insts, true);
}

/* A timing model runs a launch on one thread: the grid's own watch. */
exec_warp *exec_hang_check(exec_grid *g, exec_cta *const *ctas, uint64_t n, uint64_t insts, bool *moved)
{
    uint64_t before = g->hang.ran_others;
    exec_warp *w = watch(g, &g->hang, ctas, n, insts, false);
    *moved = g->hang.ran_others != before;
    return w;
}
