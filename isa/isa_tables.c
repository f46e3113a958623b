/*
 * isa_tables.c -- the tables derived from the .def lists, and look-ups by
 * spelling for the parser.  Every table here comes from including a .def
 * file under another macro; none is typed by hand.
 */
#include "isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const isa_op_info isa_ops[ISA_OP_COUNT] = {
#define PTX_OP(E, id, fam, lat, pm, fl) \
    [ISA_OP_##E] = { #id, ISA_FAM_##fam, ISA_LAT_##lat, ISA_PM_##pm, (fl) },
#include "opcodes.def"
#undef PTX_OP
};

const isa_type_info isa_types[ISA_TYPE_COUNT] = {
#define ISA_TYPE(E, s, bytes, kind) [ISA_TYPE_##E] = { #s, bytes, ISA_KIND_##kind },
#include "types.def"
#undef ISA_TYPE
};

const char *const isa_sreg_names[ISA_SREG_COUNT] = {
#define ISA_SREG(E, s) [ISA_SREG_##E] = #s,
#include "sregs.def"
#undef ISA_SREG
};

#define STR_(s) #s
const char *const isa_space_names[ISA_SPACE_COUNT] = {
#define ISA_SPACE(E, s) [ISA_SPACE_##E] = STR_(s),
#include "mods.def"
};
const char *const isa_cmp_names[ISA_CMP_COUNT] = {
#define ISA_CMP(E, s) [ISA_CMP_##E] = STR_(s),
#include "mods.def"
};
const char *const isa_rnd_names[ISA_RND_COUNT] = {
#define ISA_RND(E, s) [ISA_RND_##E] = STR_(s),
#include "mods.def"
};
const char *const isa_mode_names[ISA_MODE_COUNT] = {
#define ISA_MODE(E, s) [ISA_MODE_##E] = STR_(s),
#include "mods.def"
};
const char *const isa_geom_names[ISA_GEOM_COUNT] = {
#define ISA_GEOM(E, s) [ISA_GEOM_##E] = STR_(s),
#include "mods.def"
};
const char *const isa_shape_names[ISA_SHAPE_COUNT] = {
#define ISA_SHAPE(E, s) [ISA_SHAPE_##E] = STR_(s),
#include "mods.def"
};
const char *const isa_aop_names[ISA_AOP_COUNT] = {
#define ISA_AOP(E, s) [ISA_AOP_##E] = STR_(s),
#include "mods.def"
};
const char *const isa_order_names[ISA_ORDER_COUNT] = {
#define ISA_ORDER(E, s) [ISA_ORDER_##E] = STR_(s),
#include "mods.def"
};
const char *const isa_scope_names[ISA_SCOPE_COUNT] = {
#define ISA_SCOPE(E, s) [ISA_SCOPE_##E] = STR_(s),
#include "mods.def"
};
const char *const isa_flag_names[ISA_FLAGBIT_COUNT] = {
#define ISA_FLAG(E, s) [ISA_FLAGBIT_##E] = STR_(s),
#include "mods.def"
};

static const char *const status_names[PTX_STATUS_COUNT] = {
#define ISA_STATUS(E, msg) [PTX_##E] = "PTX_" #E,
#include "status.def"
#undef ISA_STATUS
};
static const char *const status_messages[PTX_STATUS_COUNT] = {
#define ISA_STATUS(E, msg) [PTX_##E] = msg,
#include "status.def"
#undef ISA_STATUS
};

const char *ptx_status_name(ptx_status st)
{
    return (unsigned)st < PTX_STATUS_COUNT ? status_names[st] : "PTX_?";
}

const char *ptx_status_message(ptx_status st)
{
    return (unsigned)st < PTX_STATUS_COUNT ? status_messages[st] : "unknown status";
}

ptx_status ptx_error(ptx_diag *d, ptx_status st, const char *file, uint32_t line,
                     uint32_t col, const char *fmt, ...)
{
    if (!d)
        return st;
    ptx_diag one = { .st = st, .file = file, .line = line, .col = col };
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(one.msg, sizeof one.msg, fmt, ap);
    va_end(ap);
    if (d->count++ == 0) {
        d->st = st;
        d->file = file;
        d->line = line;
        d->col = col;
        memcpy(d->msg, one.msg, sizeof d->msg);
    }
    if (d->sink)
        d->sink(d->sink_ctx, &one);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Spelling look-ups.  The parser calls these once per mnemonic part, so a
 * small open-addressing hash per table keeps parsing well above 50 MB/s
 * (a linear scan of ~80 opcodes cost about 1 us per instruction). */

typedef struct {
    const char *const *names;   /* names[i] for value i, or NULL */
    unsigned count;
    uint16_t slot[ISA_NAME_SLOTS]; /* value + 1, 0 = empty */
} name_index;

/* A search ends at an empty slot, so every table must leave one free; at
 * most half full keeps the probe sequences short (tests/opcodes_test.c). */
_Static_assert(ISA_OP_COUNT < ISA_NAME_SLOTS && ISA_TYPE_COUNT < ISA_NAME_SLOTS &&
               ISA_SREG_COUNT < ISA_NAME_SLOTS && ISA_SPACE_COUNT < ISA_NAME_SLOTS &&
               ISA_CMP_COUNT < ISA_NAME_SLOTS && ISA_RND_COUNT < ISA_NAME_SLOTS &&
               ISA_MODE_COUNT < ISA_NAME_SLOTS && ISA_AOP_COUNT < ISA_NAME_SLOTS &&
               ISA_ORDER_COUNT < ISA_NAME_SLOTS && ISA_SCOPE_COUNT < ISA_NAME_SLOTS &&
               ISA_FLAGBIT_COUNT < ISA_NAME_SLOTS && ISA_GEOM_COUNT < ISA_NAME_SLOTS &&
               ISA_SHAPE_COUNT < ISA_NAME_SLOTS, "every name index has a free slot");

static uint32_t hash_name(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static void index_build(name_index *ix)
{
    for (unsigned v = 0; v < ix->count; v++) {
        const char *s = ix->names[v];
        if (!s || !*s)
            continue;
        uint32_t h = hash_name(s, strlen(s)) & (ISA_NAME_SLOTS - 1);
        while (ix->slot[h])
            h = (h + 1) & (ISA_NAME_SLOTS - 1);
        ix->slot[h] = (uint16_t)(v + 1);
    }
}

static int index_find(const name_index *ix, const char *s, size_t n)
{
    uint32_t h = hash_name(s, n) & (ISA_NAME_SLOTS - 1);
    while (ix->slot[h]) {
        const char *name = ix->names[ix->slot[h] - 1];
        if (strncmp(name, s, n) == 0 && name[n] == '\0')
            return ix->slot[h] - 1;
        h = (h + 1) & (ISA_NAME_SLOTS - 1);
    }
    return -1;
}

static const char *op_names[ISA_OP_COUNT] = {
#define PTX_OP(E, id, fam, lat, pm, fl) [ISA_OP_##E] = #id,
#include "opcodes.def"
#undef PTX_OP
};
static const char *type_names[ISA_TYPE_COUNT] = {
#define ISA_TYPE(E, s, bytes, kind) [ISA_TYPE_##E] = #s,
#include "types.def"
#undef ISA_TYPE
};

static name_index op_index = { op_names, ISA_OP_COUNT, {0} };
static name_index type_index = { type_names, ISA_TYPE_COUNT, {0} };
static name_index sreg_index = { isa_sreg_names, ISA_SREG_COUNT, {0} };
static name_index mod_index[ISA_MODCAT_COUNT] = {
    [ISA_MODCAT_SPACE] = { isa_space_names, ISA_SPACE_COUNT, {0} },
    [ISA_MODCAT_CMP]   = { isa_cmp_names, ISA_CMP_COUNT, {0} },
    [ISA_MODCAT_RND]   = { isa_rnd_names, ISA_RND_COUNT, {0} },
    [ISA_MODCAT_MODE]  = { isa_mode_names, ISA_MODE_COUNT, {0} },
    [ISA_MODCAT_AOP]   = { isa_aop_names, ISA_AOP_COUNT, {0} },
    [ISA_MODCAT_ORDER] = { isa_order_names, ISA_ORDER_COUNT, {0} },
    [ISA_MODCAT_SCOPE] = { isa_scope_names, ISA_SCOPE_COUNT, {0} },
    [ISA_MODCAT_FLAG]  = { isa_flag_names, ISA_FLAGBIT_COUNT, {0} },
    [ISA_MODCAT_GEOM]  = { isa_geom_names, ISA_GEOM_COUNT, {0} },
    [ISA_MODCAT_SHAPE] = { isa_shape_names, ISA_SHAPE_COUNT, {0} },
};

/* The indexes are built once when the library loads, before any thread can
 * look a name up; after that they are read-only. */
__attribute__((constructor)) static void build_indexes(void)
{
    index_build(&op_index);
    index_build(&type_index);
    index_build(&sreg_index);
    for (int c = 0; c < ISA_MODCAT_COUNT; c++)
        index_build(&mod_index[c]);
}

int isa_lookup_op(const char *s, size_t n) { return index_find(&op_index, s, n); }

bool isa_mnemonic_unimplemented(const char *s, size_t n)
{
    /* The PTX ISA 9.0's instructions missing from opcodes.def. */
    static const char *const missing[] = { "tcgen05", "multimem", "clusterlaunchcontrol", "istypep" };
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++)
        if (strlen(missing[i]) == n && memcmp(missing[i], s, n) == 0)
            return true;
    return false;
}
int isa_lookup_type(const char *s, size_t n) { return index_find(&type_index, s, n); }
int isa_lookup_sreg(const char *s, size_t n) { return index_find(&sreg_index, s, n); }

int isa_lookup_mod(isa_modcat cat, const char *s, size_t n)
{
    return (unsigned)cat < ISA_MODCAT_COUNT ? index_find(&mod_index[cat], s, n) : -1;
}

void isa_shape_dims(uint8_t shape, unsigned *m, unsigned *n, unsigned *k)
{
    *m = *n = *k = 0;
    if (shape > ISA_SHAPE_NONE && shape < ISA_SHAPE_COUNT)
        sscanf(isa_shape_names[shape], "m%un%uk%u", m, n, k);
}
