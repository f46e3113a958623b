/*
 * module.c -- the module IR's builder: an arena that owns every allocation of
 * a module, and the functions that grow its tables.
 */
#include "isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chunks grow from 2 KiB to 64 KiB; a module is freed all at once. */
typedef struct isa_chunk {
    struct isa_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} isa_chunk;

struct isa_arena {
    isa_chunk *head;
    size_t chunk;           /* size of the next chunk: small modules stay small */
    void **big;             /* separately allocated growable arrays */
    size_t *big_bytes;
    size_t nbig, capbig;
};

size_t isa_module_bytes(const isa_module *m)
{
    size_t n = sizeof *m + sizeof *m->arena;
    for (const isa_chunk *c = m->arena->head; c; c = c->next)
        n += sizeof *c + c->cap;
    for (size_t i = 0; i < m->arena->nbig; i++)
        n += m->arena->big_bytes[i];
    return n;
}

void *isa_alloc(isa_module *m, size_t bytes)
{
    struct isa_arena *a = m->arena;
    bytes = (bytes + 15) & ~(size_t)15;
    if (!a->head || a->head->cap - a->head->used < bytes) {
        a->chunk = a->chunk ? (a->chunk < 65536 ? a->chunk * 2 : 65536) : 2048;
        size_t cap = bytes > a->chunk ? bytes : a->chunk;
        isa_chunk *c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = a->head;
        c->used = 0;
        c->cap = cap;
        a->head = c;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += bytes;
    memset(p, 0, bytes);
    return p;
}

const char *isa_strdup(isa_module *m, const char *s, size_t n)
{
    char *p = isa_alloc(m, n + 1);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* Growable arrays (code, vars, funcs) live outside the chunks so they can be
 * realloc'd; the arena remembers them for isa_module_free. */
static void *grow(isa_module *m, void *old, size_t *cap, size_t elem, size_t want)
{
    if (want <= *cap)
        return old;
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < want)
        ncap *= 2;
    void *p = realloc(old, ncap * elem);
    if (!p)
        return NULL;
    memset((char *)p + *cap * elem, 0, (ncap - *cap) * elem);
    struct isa_arena *a = m->arena;
    size_t i = 0;
    if (old)
        for (; i < a->nbig && a->big[i] != old; i++) {}
    if (!old || i == a->nbig) {
        if (a->nbig == a->capbig) {
            size_t nb = a->capbig ? a->capbig * 2 : 16;
            void **b = realloc(a->big, nb * sizeof *b);
            size_t *bb = b ? realloc(a->big_bytes, nb * sizeof *bb) : NULL;
            if (!b || !bb) {
                if (b)
                    a->big = b;
                free(p);
                return NULL;
            }
            a->big = b;
            a->big_bytes = bb;
            a->capbig = nb;
        }
        i = a->nbig++;
    }
    a->big[i] = p;
    a->big_bytes[i] = ncap * elem;
    *cap = ncap;
    return p;
}

isa_module *isa_module_new(void)
{
    isa_module *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->arena = calloc(1, sizeof *m->arena);
    if (!m->arena) {
        free(m);
        return NULL;
    }
    m->address_size = 64;
    return m;
}

void isa_module_free(isa_module *m)
{
    if (!m)
        return;
    struct isa_arena *a = m->arena;
    for (isa_chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    for (size_t i = 0; i < a->nbig; i++)
        free(a->big[i]);
    free(a->big);
    free(a->big_bytes);
    free(a);
    free(m);
}

isa_var *isa_add_var(isa_module *m, uint32_t *out_index)
{
    size_t cap = m->cap_vars;
    isa_var *v = grow(m, m->vars, &cap, sizeof *v, m->nvars + 1);
    if (!v)
        return NULL;
    m->vars = v;
    m->cap_vars = (uint32_t)cap;
    if (out_index)
        *out_index = m->nvars;
    isa_var *nv = &m->vars[m->nvars++];
    nv->func = -1;
    nv->align = 1;
    return nv;
}

isa_func *isa_add_func(isa_module *m, uint32_t *out_index)
{
    size_t cap = m->cap_funcs;
    isa_func *f = grow(m, m->funcs, &cap, sizeof *f, m->nfuncs + 1);
    if (!f)
        return NULL;
    m->funcs = f;
    m->cap_funcs = (uint32_t)cap;
    if (out_index)
        *out_index = m->nfuncs;
    return &m->funcs[m->nfuncs++];
}

isa_inst *isa_add_inst(isa_module *m, isa_func *f)
{
    size_t cap = f->cap_code;
    isa_inst *c = grow(m, f->code, &cap, sizeof *c, f->ncode + 1);
    if (!c)
        return NULL;
    if (c != f->code || cap != f->cap_code) {
        size_t scap = f->cap_code;
        isa_srcpos *s = grow(m, f->src, &scap, sizeof *s, cap);
        if (!s)
            return NULL;
        f->src = s;
    }
    f->code = c;
    f->cap_code = (uint32_t)cap;
    isa_inst *in = &f->code[f->ncode++];
    memset(in, 0, sizeof *in);      /* (a slot given back after a parse error is reused) */
    in->guard = ISA_NOREG;
    in->vec = 1;
    in->rpc = ISA_PC_EXIT;
    return in;
}

int isa_find_func(const isa_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

int isa_find_var(const isa_module *m, const char *name, int32_t func)
{
    /* Innermost scope first: the function's own, then the module's. */
    int found = -1;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const isa_var *v = &m->vars[i];
        if (strcmp(v->name, name) != 0)
            continue;
        if (v->func == func && func >= 0)
            return (int)i;
        if (v->func < 0)
            found = (int)i;
    }
    return found;
}

uint8_t isa_opd_type(const isa_inst *in, unsigned i)
{
    if (i == 0)
        return in->type;
    switch (in->op) {
    case ISA_OP_CVT:
        return in->type2 ? in->type2 : in->type;
    case ISA_OP_SHL: case ISA_OP_SHR:
        return i == 2 ? ISA_TYPE_U32 : in->type;
    case ISA_OP_SET:                 /* set.dtype.stype d, a, b */
        return in->type2 ? in->type2 : in->type;
    case ISA_OP_SLCT:                /* slct.dtype.stype d, a, b, c: c is stype */
        return i == 3 && in->type2 ? in->type2 : in->type;
    case ISA_OP_WMMA_LOAD:           /* wmma.load d, [a], stride: a stride in */
    case ISA_OP_WMMA_STORE:          /* elements, an integer whatever the type */
        return i == 2 ? ISA_TYPE_U32 : in->type;
    case ISA_OP_WGMMA_MMA_ASYNC:     /* wgmma d, a-desc, b-desc, scale-d: not of D's type */
        return ISA_TYPE_B64;
    case ISA_OP_MMA:                 /* mma.sp d, a, b, c, e, f: metadata and selector */
        return i >= 4 ? ISA_TYPE_B32 : in->type;
    case ISA_OP_CP:                  /* cp.reduce.async.bulk.op.type [d], [a], size: bytes */
        return ISA_TYPE_U32;
    case ISA_OP_REDUX:               /* redux.sync.op.type d, a, membermask */
    case ISA_OP_MATCH:               /* match.mode.sync.type d, a, membermask */
        return i == 2 ? ISA_TYPE_B32 : in->type;
    default:
        return in->type;
    }
}

unsigned isa_signed_result_bytes(const isa_inst *in)
{
    if (isa_types[in->type].kind != ISA_KIND_S || (isa_ops[in->op].flags & (ISA_F_CTRL | ISA_F_PDST)))
        return 0;
    /* bfind.s32/.s64 gives an unsigned bit position; cvt.pack packs several
     * saturated values into one .b32; a matrix fragment register holds
     * several elements of the type; so does an s16x2. */
    if (in->op == ISA_OP_BFIND || in->mode == ISA_MODE_PACK || in->shape != ISA_SHAPE_NONE ||
        in->type == ISA_TYPE_S16X2)
        return 0;
    unsigned n = isa_types[in->type].bytes;
    return in->flags & ISA_MOD_FLAG(WIDE) ? 2 * n : n;
}

bool isa_mark_wide_dsts(isa_func *f, const uint16_t *lists)
{
    if (!f->nregs)
        return true;
    uint8_t *bytes = calloc(f->nregs, 1);
    if (!bytes)
        return false;
    for (uint32_t i = 0; i < f->nregdecls; i++) {
        const isa_regdecl *d = &f->regs[i];
        if (d->type == ISA_TYPE_PRED)
            continue;
        for (uint32_t k = 0; k < (d->count ? d->count : 1) * isa_reg_slots(d->type) && d->base + k < f->nregs; k++)
            bytes[d->base + k] = isa_types[d->type].bytes;
    }
    for (uint32_t pc = 0; pc < f->ncode; pc++) {
        isa_inst *in = &f->code[pc];
        isa_opd *o = &in->opd[0];
        unsigned n = in->nopd ? isa_signed_result_bytes(in) : 0;
        if (!n || (o->kind != ISA_OPD_REG && o->kind != ISA_OPD_VEC && o->kind != ISA_OPD_LIST))
            continue;
        /* A vector's registers are all of one width in practice; the
         * narrowest decides, so none is written past its width. */
        unsigned wide = 0;
        uint16_t regs[ISA_MAX_LIST];
        unsigned nr = isa_opd_regs(o, lists, regs);
        for (unsigned k = 0; k < nr; k++) {
            uint16_t r = regs[k];
            if (r == ISA_NOREG || r >= f->nregs)
                continue;
            wide = !wide || bytes[r] < wide ? bytes[r] : wide;
        }
        o->ext = (uint8_t)(wide > n ? wide : 0);
    }
    /* st.f32 from 64-bit registers: the value stored is the register
     * converted from an unsigned 64-bit integer (isa_sem_st), marked in the
     * source operand's ext. */
    for (uint32_t pc = 0; pc < f->ncode; pc++) {
        isa_inst *in = &f->code[pc];
        isa_opd *o = &in->opd[1];
        if (in->op != ISA_OP_ST || in->type != ISA_TYPE_F32 || in->nopd < 2 ||
            (o->kind != ISA_OPD_REG && o->kind != ISA_OPD_VEC && o->kind != ISA_OPD_LIST))
            continue;
        uint16_t regs[ISA_MAX_LIST];
        unsigned nr = isa_opd_regs(o, lists, regs), wide = 0;
        for (unsigned k = 0; k < nr; k++)
            if (regs[k] != ISA_NOREG && regs[k] < f->nregs && bytes[regs[k]] == 8)
                wide = 8;
        o->ext = (uint8_t)wide;
    }
    free(bytes);
    return true;
}

/* Single register `name` is one of range r's names (prefix + index < count). */
static bool in_range(const char *name, const isa_regdecl *r)
{
    size_t n = strlen(r->name);
    if (!r->count || strncmp(name, r->name, n) != 0 || !name[n])
        return false;
    char *end;
    unsigned long k = strtoul(name + n, &end, 10);
    return !*end && k < r->count && (name[n] != '0' || !name[n + 1]);
}

/* Two declarations (of different { } scopes) would print a name alike. */
static bool decls_collide(const isa_regdecl *a, const isa_regdecl *b)
{
    if (strcmp(a->name, b->name) == 0)
        return true;
    return (!a->count && in_range(a->name, b)) || (!b->count && in_range(b->name, a));
}

const char *isa_regdecl_name(const isa_func *f, uint32_t i, char *buf, size_t n)
{
    const isa_regdecl *d = &f->regs[i];
    for (uint32_t j = 0; j < i; j++)
        if (decls_collide(&f->regs[j], d)) {
            snprintf(buf, n, d->count ? "%s__%u_" : "%s__%u", d->name, i);
            return buf;
        }
    return d->name;
}

const char *isa_reg_name(const isa_func *f, unsigned reg, bool pred, char *buf, size_t n)
{
    for (uint32_t i = 0; i < f->nregdecls; i++) {
        const isa_regdecl *d = &f->regs[i];
        bool is_pred = d->type == ISA_TYPE_PRED;
        if (is_pred != pred)
            continue;
        unsigned slots = is_pred ? 1 : isa_reg_slots(d->type);
        uint32_t count = (d->count ? d->count : 1) * slots;
        if (reg >= d->base && reg < d->base + count) {
            char name[256];
            const char *base = isa_regdecl_name(f, i, name, sizeof name);
            if (d->count)
                snprintf(buf, n, "%s%u", base, (reg - d->base) / slots);
            else
                snprintf(buf, n, "%s", base);
            return buf;
        }
    }
    snprintf(buf, n, pred ? "%%p?%u" : "%%r?%u", reg);
    return buf;
}

uint32_t isa_add_list(isa_module *m, const uint16_t *regs, unsigned n)
{
    size_t cap = m->cap_lists;
    uint16_t *l = grow(m, m->lists, &cap, sizeof *l, (size_t)m->nlists + n);
    if (!l)
        return UINT32_MAX;
    m->lists = l;
    m->cap_lists = (uint32_t)cap;
    memcpy(l + m->nlists, regs, n * sizeof *regs);
    m->nlists += n;
    return m->nlists - n;
}

unsigned isa_opd_regs(const isa_opd *o, const uint16_t *lists, uint16_t *regs)
{
    switch (o->kind) {
    case ISA_OPD_VEC:
        memcpy(regs, o->vec, o->nvec * sizeof *regs);
        return o->nvec;
    case ISA_OPD_LIST:
        memcpy(regs, lists + o->imm, o->nvec * sizeof *regs);
        return o->nvec;
    default:
        regs[0] = o->kind == ISA_OPD_REG ? o->reg : ISA_NOREG;
        return 1;
    }
}

uint32_t isa_func_successors(const isa_func *f, uint32_t i, uint32_t *out)
{
    const isa_inst *in = &f->code[i];
    uint32_t n = 0, exit = f->ncode;
    bool falls = true;              /* to i + 1, or out when i is last */
    if (isa_inst_is_jump(in)) {
        out[n++] = in->target < exit ? in->target : exit;
        falls = in->guard != ISA_NOREG;
    } else if (isa_inst_is_table_jump(in)) {
        uint32_t t = (uint32_t)in->opd[1].imm;
        if (t < f->nbrx)
            for (uint32_t k = 0; k < f->brx_counts[t]; k++)
                out[n++] = f->brx_targets[t][k] < exit ? f->brx_targets[t][k] : exit;
        falls = in->guard != ISA_NOREG;
    } else if (isa_inst_leaves_function(in)) {
        out[n++] = exit;
        falls = in->guard != ISA_NOREG;
    }
    if (falls)
        out[n++] = i + 1 < exit ? i + 1 : exit;
    return n;
}

uint32_t isa_func_max_successors(const isa_func *f)
{
    uint32_t m = 2;
    for (uint32_t t = 0; t < f->nbrx; t++)
        if (f->brx_counts[t] + 1 > m)
            m = f->brx_counts[t] + 1;
    return m;
}
