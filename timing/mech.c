/*
 * mech.c -- the registry of timing mechanisms and the layout of their
 * state in a model (mech.h).
 */
#include "tm_int.h"

#include <stdlib.h>

const tm_mech *const tm_mechs[TM_MECH_COUNT] = {
#define TM_MECH(ID, name) [TM_MECH_##ID] = &tm_mech_##name,
#include "mechs.def"
#undef TM_MECH
};

/* Blocks start on 8-byte boundaries. */
static uint32_t round8(uint32_t n) { return (n + 7) & ~7u; }

bool tm_mech_new(tm_gpu *g)
{
    const tm_config *c = &g->c;
    g->quiet = true;
    for (int id = 0; id < TM_MECH_COUNT; id++) {
        const tm_mech *m = tm_mechs[id];
        tm_mech_state *s = &g->mech[id];
        if (!m->enabled(c))
            continue;
        s->on = true;
        s->sm_off = g->mech_sm_bytes;
        s->warp_off = g->mech_warp_bytes;
        s->minst_off = g->mech_minst_bytes;
        g->mech_sm_bytes += round8(m->sm_bytes);
        g->mech_warp_bytes += round8(m->warp_bytes);
        g->mech_minst_bytes += round8(m->minst_bytes);
        if ((m->gpu_bytes && !(s->gpu = calloc(1, m->gpu_bytes))) ||
            (m->stats_bytes && !(s->stats = calloc(1, m->stats_bytes))))
            return false;
        g->mech_stats[id] = s->stats;
        g->quiet = g->quiet && !m->always_look;
    }
    for (uint32_t i = 0; i < c->n_sm; i++) {
        tm_sm *sm = &g->sms[i];
        if ((g->mech_sm_bytes && !(sm->mech = calloc(1, g->mech_sm_bytes))) ||
            (g->mech_warp_bytes && !(sm->mech_warps = calloc(sm->nslots, g->mech_warp_bytes))))
            return false;
    }
    /* Every hook's list, in registry order, NULL-terminated; only once
     * every block is there (fini may then look at them). */
#define TM_MECH_LIST(hook)                                          \
    {                                                               \
        uint32_t n = 0;                                             \
        for (int id = 0; id < TM_MECH_COUNT; id++)                  \
            if (g->mech[id].on && tm_mechs[id]->hook)               \
                g->on.hook[n++] = tm_mechs[id];                     \
        g->on.hook[n] = NULL;                                       \
    }
    TM_MECH_HOOKS(TM_MECH_LIST)
#undef TM_MECH_LIST
    bool ok = true;
    TM_EACH(g, init, m)
        ok = (*m)->init(g) && ok;
    return ok;
}

void tm_mech_free(tm_gpu *g)
{
    TM_EACH(g, fini, m)
        (*m)->fini(g);
    for (uint32_t i = 0; g->sms && i < g->c.n_sm; i++) {
        free(g->sms[i].mech);
        free(g->sms[i].mech_warps);
    }
    for (int id = 0; id < TM_MECH_COUNT; id++) {
        free(g->mech[id].gpu);
        free(g->mech[id].stats);
    }
}
