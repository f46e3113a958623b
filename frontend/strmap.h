/*
 * strmap.h -- a small open-addressing map from byte strings to uint32
 * (internal to frontend/).  Keys are borrowed: they must outlive the map
 * (they point into the PTX text or the module arena).
 */
#ifndef PTXSIM_FE_STRMAP_H
#define PTXSIM_FE_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fe_strmap_slot {
    const char *key;
    uint32_t len;
    uint32_t val;
} fe_strmap_slot;

typedef struct fe_strmap {
    fe_strmap_slot *slots;
    uint32_t cap, count;        /* cap is a power of two */
} fe_strmap;

void fe_strmap_free(fe_strmap *m);
void fe_strmap_clear(fe_strmap *m);
/* Insert or overwrite; false on allocation failure. */
bool fe_strmap_put(fe_strmap *m, const char *key, size_t len, uint32_t val);
/* The value for key, or false when absent. */
bool fe_strmap_get(const fe_strmap *m, const char *key, size_t len, uint32_t *out);

#endif /* PTXSIM_FE_STRMAP_H */
