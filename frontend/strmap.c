/*
 * strmap.c -- byte-string to uint32 map with linear probing, kept at most
 * half full so probes stay short.
 */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

void fe_strmap_free(fe_strmap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

void fe_strmap_clear(fe_strmap *m)
{
    if (m->slots)
        memset(m->slots, 0, m->cap * sizeof *m->slots);
    m->count = 0;
}

static bool grow(fe_strmap *m)
{
    uint32_t ncap = m->cap ? m->cap * 2 : 64;
    fe_strmap_slot *s = calloc(ncap, sizeof *s);
    if (!s)
        return false;
    for (uint32_t i = 0; i < m->cap; i++) {
        fe_strmap_slot *o = &m->slots[i];
        if (!o->key)
            continue;
        uint32_t h = hash(o->key, o->len) & (ncap - 1);
        while (s[h].key)
            h = (h + 1) & (ncap - 1);
        s[h] = *o;
    }
    free(m->slots);
    m->slots = s;
    m->cap = ncap;
    return true;
}

bool fe_strmap_put(fe_strmap *m, const char *key, size_t len, uint32_t val)
{
    if ((m->count + 1) * 2 > m->cap && !grow(m))
        return false;
    uint32_t h = hash(key, len) & (m->cap - 1);
    while (m->slots[h].key) {
        fe_strmap_slot *s = &m->slots[h];
        if (s->len == len && memcmp(s->key, key, len) == 0) {
            s->val = val;
            return true;
        }
        h = (h + 1) & (m->cap - 1);
    }
    m->slots[h] = (fe_strmap_slot){ key, (uint32_t)len, val };
    m->count++;
    return true;
}

bool fe_strmap_get(const fe_strmap *m, const char *key, size_t len, uint32_t *out)
{
    if (!m->cap)
        return false;
    uint32_t h = hash(key, len) & (m->cap - 1);
    while (m->slots[h].key) {
        const fe_strmap_slot *s = &m->slots[h];
        if (s->len == len && memcmp(s->key, key, len) == 0) {
            *out = s->val;
            return true;
        }
        h = (h + 1) & (m->cap - 1);
    }
    return false;
}
