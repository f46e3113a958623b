/*
 * image.c -- texture and surface objects: the table that turns the handle a
 * kernel passes to tex, tld4, suld or sust into the isa_image describing the
 * texels.
 *
 * Handles count up from 1 and are never reused, so a kernel holding a
 * destroyed object's handle is told so instead of reading whatever object
 * took its place.
 */
#include "exec_int.h"

#include <stdlib.h>

struct exec_images {
    isa_image *items;           /* items[handle - 1] */
    bool *live;
    uint64_t n, cap;
};

static exec_images *images_of(exec_memory *m)
{
    exec_images **slot = exec_memory_images(m);
    if (!*slot)
        *slot = calloc(1, sizeof **slot);
    return *slot;
}

ptx_status exec_image_create(exec_memory *m, const isa_image *img, uint64_t *handle)
{
    exec_images *t = images_of(m);
    if (!t)
        return PTX_E_NOMEM;
    if (t->n == t->cap) {
        uint64_t nc = t->cap ? t->cap * 2 : 16;
        isa_image *items = realloc(t->items, nc * sizeof *items);
        if (!items)
            return PTX_E_NOMEM;
        t->items = items;
        bool *live = realloc(t->live, nc * sizeof *live);
        if (!live)
            return PTX_E_NOMEM;
        t->live = live;
        t->cap = nc;
    }
    t->items[t->n] = *img;
    t->live[t->n] = true;
    *handle = ++t->n;
    return PTX_OK;
}

ptx_status exec_image_destroy(exec_memory *m, uint64_t handle)
{
    exec_images *t = *exec_memory_images(m);
    if (!t || handle == 0 || handle > t->n || !t->live[handle - 1])
        return PTX_E_INVALID_VALUE;
    t->live[handle - 1] = false;
    return PTX_OK;
}

const isa_image *exec_image_get(const void *mem, uint64_t handle)
{
    const exec_images *t = *exec_memory_images((exec_memory *)mem);
    if (!t || handle == 0 || handle > t->n || !t->live[handle - 1])
        return NULL;
    return &t->items[handle - 1];
}

void exec_images_free(exec_images *t)
{
    if (!t)
        return;
    free(t->items);
    free(t->live);
    free(t);
}
