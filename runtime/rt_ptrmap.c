/*
 * rt_ptrmap.c -- a hash map keyed by pointers, with linear probing and
 * backward-shift deletion (no tombstones, so lookups stay short however
 * many handles come and go).
 *
 * Handles (streams, events, kernels, contexts) are checked against these
 * maps before use, so a stale or made-up handle gets
 * cudaErrorInvalidResourceHandle instead of a crash.
 */
#include "rt_int.h"

#include <stdlib.h>

static uint32_t slot_of(uintptr_t k, uint32_t cap)
{
    /* Pointers are aligned: mix the high bits down (Fibonacci hashing). */
    return (uint32_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static bool resize(rt_ptrmap *m, uint32_t cap)
{
    uintptr_t *keys = calloc(cap, sizeof *keys);
    void **vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return false;
    }
    for (uint32_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        uint32_t j = slot_of(m->keys[i], cap);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return true;
}

bool rt_ptrmap_put(rt_ptrmap *m, const void *key, void *val)
{
    uintptr_t k = (uintptr_t)key;
    if (!k)
        return false;
    if ((m->n + 1) * 4 >= m->cap * 3 && !resize(m, m->cap ? m->cap * 2 : 64))
        return false;
    uint32_t i = slot_of(k, m->cap);
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i])
        m->n++;
    m->keys[i] = k;
    m->vals[i] = val;
    return true;
}

void *rt_ptrmap_get(const rt_ptrmap *m, const void *key)
{
    uintptr_t k = (uintptr_t)key;
    if (!m->cap || !k)
        return NULL;
    for (uint32_t i = slot_of(k, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == k)
            return m->vals[i];
    return NULL;
}

void rt_ptrmap_del(rt_ptrmap *m, const void *key)
{
    uintptr_t k = (uintptr_t)key;
    if (!m->cap || !k)
        return;
    uint32_t i = slot_of(k, m->cap);
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i])
        return;
    /* Shift later members of the probe run back into the hole. */
    uint32_t hole = i;
    for (uint32_t j = (i + 1) & (m->cap - 1); m->keys[j]; j = (j + 1) & (m->cap - 1)) {
        uint32_t home = slot_of(m->keys[j], m->cap);
        bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
        if (movable) {
            m->keys[hole] = m->keys[j];
            m->vals[hole] = m->vals[j];
            hole = j;
        }
    }
    m->keys[hole] = 0;
    m->vals[hole] = NULL;
    m->n--;
}

void *rt_ptrmap_slot(const rt_ptrmap *m, uint32_t i)
{
    return i < m->cap && m->keys[i] ? m->vals[i] : NULL;
}

void rt_ptrmap_free(rt_ptrmap *m)
{
    free(m->keys);
    free(m->vals);
    *m = (rt_ptrmap){0};
}
