/*
 * program.c -- a module laid out for execution.
 *
 * Loading does, once per module (never per launch):
 *   - module-scope .global and .const variables get device memory, with
 *     their initialisers and the addresses of other symbols written in;
 *   - .shared variables get offsets in the CTA's shared memory (dynamic
 *     `.extern .shared` arrays start after the static ones);
 *   - each function's .local variables and .param variables (its formals,
 *     its return values, the argument blocks of its call sites) get offsets
 *     in its local-memory frame;
 *   - each kernel's parameters get offsets in a buffer in device memory;
 *   - all code is concatenated and every symbol operand becomes a plain
 *     address, so the interpreter never looks a name up.
 */
#include "exec_int.h"

#include <stdlib.h>
#include <string.h>

#define RECURSION_REG_DEPTH 64          /* initial register windows for recursion */

static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

static bool frame_var(const isa_var *v)
{
    return v->func >= 0 && (v->space == ISA_SPACE_LOCAL ||
                            (v->space == ISA_SPACE_PARAM && v->role != ISA_VAR_KPARAM));
}

void exec_program_free(exec_program *p)
{
    if (!p)
        return;
    exec_program_free_regions(p);      /* first: a compile in flight reads the code */
    for (uint32_t i = 0; i < p->nglobal_allocs; i++)
        exec_free(p->mem, p->global_allocs[i]);
    for (uint32_t i = 0; i < p->nbrx; i++)
        free(p->brx[i]);
    free(p->brx);
    free(p->brx_counts);
    if (p->kernels)
        for (uint32_t k = 0; k < p->nkernels; k++) {
            free((void *)p->kernels[k].info.params);
            free(p->kernels[k].shared_map);
            free(p->kernels[k].vars_used);
        }
    free(p->kernels);
    free(p->global_allocs);
    free(p->var_addr);
    for (uint32_t fi = 0; p->funcs && fi < p->m->nfuncs; fi++)
        free(p->funcs[fi].live_in);
    free(p->funcs);
    free(p->func_of);
    free(p->code);
    free(p->func_taken);
    free(p);
}

/* Functions whose address the module takes (a mov of the name, or an
 * initialiser): what an indirect call may reach.  NULL when out of memory. */
static bool *address_taken(const isa_module *m)
{
    bool *taken = calloc(m->nfuncs + 1, sizeof *taken);
    if (!taken)
        return NULL;
    for (uint32_t g = 0; g < m->nfuncs; g++)
        for (uint32_t i = 0; i < m->funcs[g].ncode; i++)
            for (uint32_t k = 0; k < m->funcs[g].code[i].nopd; k++)
                if (m->funcs[g].code[i].opd[k].kind == ISA_OPD_FUNC)
                    taken[m->funcs[g].code[i].opd[k].reg] = true;
    for (uint32_t v = 0; v < m->nvars; v++)
        for (uint32_t r = 0; r < m->vars[v].nrelocs; r++)
            if (m->vars[v].relocs[r].func)
                taken[m->vars[v].relocs[r].var] = true;
    return taken;
}

/* Mark function fi and everything it may call: its direct callees and,
 * when it calls through a register, every function whose address is taken. */
static void mark_reachable(const isa_module *m, uint32_t fi, bool *seen, const bool *taken)
{
    if (seen[fi])
        return;
    seen[fi] = true;
    const isa_func *f = &m->funcs[fi];
    for (uint32_t c = 0; c < f->ncalls; c++) {
        if (f->calls[c].callee >= 0) {
            mark_reachable(m, (uint32_t)f->calls[c].callee, seen, taken);
            continue;
        }
        for (uint32_t g = 0; g < m->nfuncs; g++)
            if (taken[g])
                mark_reachable(m, g, seen, taken);
    }
}

bool *exec_program_reachable(exec_program *p, uint32_t fi)
{
    if (!p->func_taken)
        p->func_taken = address_taken(p->m);
    bool *seen = calloc(p->m->nfuncs + 1, sizeof *seen);
    if (!seen || !p->func_taken) {
        free(seen);
        return NULL;
    }
    mark_reachable(p->m, fi, seen, p->func_taken);
    return seen;
}

/* Which functions without a body kernel fi (or anything it may call)
 * calls: *print for vprintf, *serial for malloc, free or __assertfail (and
 * anything else), *heap for malloc or free; all when out of memory. */
static void kernel_calls_builtins(exec_program *p, uint32_t fi, bool *serial, bool *print, bool *heap)
{
    const isa_module *m = p->m;
    *serial = *print = *heap = false;
    if (!p->func_taken)
        p->func_taken = address_taken(m);
    bool *seen = calloc(m->nfuncs + 1, sizeof *seen);
    if (!seen || !p->func_taken) {
        free(seen);
        *serial = *print = *heap = true;
        return;
    }
    mark_reachable(m, fi, seen, p->func_taken);
    for (uint32_t g = 0; g < m->nfuncs; g++) {
        if (!seen[g] || m->funcs[g].ncode)
            continue;
        if (strcmp(m->funcs[g].name, "vprintf") == 0)
            *print = true;
        else
            *serial = true;
        if (strcmp(m->funcs[g].name, "malloc") == 0 || strcmp(m->funcs[g].name, "free") == 0)
            *heap = true;
    }
    free(seen);
}

/* Which module variables kernel fi (and its callees) name, in used[]
 * (nvars entries); false when out of memory. */
static bool kernel_vars(exec_program *p, uint32_t fi, bool *used)
{
    const isa_module *m = p->m;
    /* Found once per program: a scan of all the code, which per kernel
     * made loading a module of 900 kernels (CuPy's Thrust) take 6 s. */
    if (!p->func_taken)
        p->func_taken = address_taken(m);
    bool *seen = calloc(m->nfuncs + 1, sizeof *seen);
    const bool *taken = p->func_taken;
    if (!seen || !taken) {
        free(seen);
        return false;
    }
    mark_reachable(m, fi, seen, taken);
    for (uint32_t g = 0; g < m->nfuncs; g++)
        if (seen[g])
            for (uint32_t i = 0; i < m->funcs[g].ncode; i++) {
                const isa_inst *in = &m->funcs[g].code[i];
                for (uint32_t k = 0; k < in->nopd; k++)
                    if ((in->opd[k].kind == ISA_OPD_SYM || in->opd[k].kind == ISA_OPD_ADDR_SYM) &&
                        isa_opd_var(&in->opd[k]) < m->nvars)
                        used[isa_opd_var(&in->opd[k])] = true;
            }
    free(seen);
    return true;
}

/* The static shared memory kernel fi uses: the .shared variables its code
 * (and its callees') names, laid out as the module lays them out.  The
 * module's layout holds every kernel's variables; occupancy and
 * cudaFuncGetAttributes must see one kernel's. */
static uint32_t kernel_shared_bytes(exec_program *p, uint32_t fi, bool **out_used)
{
    const isa_module *m = p->m;
    bool *used = calloc(m->nvars + 1, sizeof *used);
    *out_used = NULL;
    if (!used || !kernel_vars(p, fi, used)) {
        free(used);
        return p->static_shared;        /* the safe over-estimate */
    }
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (used[i] && m->vars[i].space == ISA_SPACE_SHARED && m->vars[i].size)
            bytes = align_up(bytes, m->vars[i].align) + m->vars[i].size;
    *out_used = used;
    return (uint32_t)bytes;
}

const uint8_t *exec_kernel_shared_map(exec_program *p, exec_kernel *k)
{
    if (k->shared_map || !p->dynamic_base)
        return k->shared_map;
    const isa_module *m = p->m;
    bool *used = calloc(m->nvars + 1, sizeof *used);
    uint8_t *map = calloc(p->dynamic_base, 1);
    if (!used || !map || !kernel_vars(p, k->func, used)) {
        free(used);
        free(map);
        return NULL;
    }
    for (uint32_t i = 0; i < m->nvars; i++)
        if (used[i] && m->vars[i].space == ISA_SPACE_SHARED && m->vars[i].size)
            memset(map + p->var_addr[i], 1, m->vars[i].size);
    free(used);
    k->shared_map = map;
    return map;
}

/* The module-wide layout gives every static .shared variable an address of
 * its own, the same in every kernel.  A module of hundreds of kernels (the
 * CUB and Thrust that CuPy ships: 33 KB of temp_storage each) needs more
 * than a CTA's shared memory that way, so past what one kernel may declare
 * statically (48 KB) the variables are packed instead: each goes at the
 * lowest offset where it overlaps no variable that some kernel uses
 * together with it.  A variable named in an initialiser may be used by any
 * kernel.  Returns the end of the highest variable, or 0 when out of
 * memory (the module-wide layout stays). */
#define SHARED_STATIC_LIMIT (48u * 1024)
/* Bytes of a kernel's parameters: 32764 since CUDA 12.1 on sm_70 and
 * newer (4 KiB before); ptxas refuses more. */
#define PARAM_LIMIT 32764u

static uint64_t pack_shared(exec_program *p)
{
    const isa_module *m = p->m;
    uint32_t nk = 0;
    for (uint32_t g = 0; g < m->nfuncs; g++)
        nk += m->funcs[g].is_entry;
    /* kernels_of[v]: the kernels that use v (all of them: every[v]). */
    uint32_t *nkern = calloc(m->nvars + 1, sizeof *nkern), **kern = calloc(m->nvars + 1, sizeof *kern);
    bool *every = calloc(m->nvars + 1, sizeof *every), *used = calloc(m->nvars + 1, sizeof *used);
    uint32_t **vars_of = calloc(nk + 1, sizeof *vars_of), *nvars_of = calloc(nk + 1, sizeof *nvars_of);
    bool *placed = calloc(m->nvars + 1, sizeof *placed);
    uint64_t end = 0;
    bool ok = nkern && kern && every && used && vars_of && nvars_of && placed;
    for (uint32_t v = 0; ok && v < m->nvars; v++)
        for (uint32_t r = 0; r < m->vars[v].nrelocs; r++)
            if (!m->vars[v].relocs[r].func && m->vars[v].relocs[r].var < m->nvars)
                every[m->vars[v].relocs[r].var] = true;
    for (uint32_t g = 0, k = 0; ok && g < m->nfuncs; g++) {
        if (!m->funcs[g].is_entry)
            continue;
        memset(used, 0, (m->nvars + 1) * sizeof *used);
        ok = kernel_vars(p, g, used);
        for (uint32_t v = 0; ok && v < m->nvars; v++) {
            if (!used[v] || m->vars[v].space != ISA_SPACE_SHARED || !m->vars[v].size)
                continue;
            uint32_t *a = realloc(vars_of[k], (nvars_of[k] + 1) * sizeof *a);
            uint32_t *b = a ? realloc(kern[v], (nkern[v] + 1) * sizeof *b) : NULL;
            if (a)
                vars_of[k] = a;
            if (!b) {
                ok = false;
                break;
            }
            kern[v] = b;
            vars_of[k][nvars_of[k]++] = v;
            kern[v][nkern[v]++] = k;
        }
        k++;
    }
    for (uint32_t v = 0; ok && v < m->nvars; v++) {
        const isa_var *x = &m->vars[v];
        if (x->space != ISA_SPACE_SHARED || !x->size)
            continue;
        uint64_t off = 0;
        for (bool moved = true; moved;) {
            moved = false;
            /* Against every placed variable some kernel of v also uses (or
             * every placed one, for a variable any kernel may use). */
            for (uint32_t u = 0; u < m->nvars && !moved; u++) {
                if (!placed[u])
                    continue;
                bool together = every[v] || every[u];
                for (uint32_t i = 0; !together && i < nkern[v]; i++)
                    for (uint32_t j = 0; !together && j < nkern[u]; j++)
                        together = kern[v][i] == kern[u][j];
                uint64_t ub = p->var_addr[u], ue = ub + m->vars[u].size;
                if (together && off < ue && ub < off + x->size) {
                    off = align_up(ue, x->align);
                    moved = true;
                }
            }
        }
        p->var_addr[v] = off;
        placed[v] = true;
        if (off + x->size > end)
            end = off + x->size;
    }
    for (uint32_t v = 0; kern && v < m->nvars; v++)
        free(kern[v]);
    for (uint32_t k = 0; vars_of && k < nk; k++)
        free(vars_of[k]);
    free(nkern);
    free(kern);
    free(every);
    free(used);
    free(vars_of);
    free(nvars_of);
    free(placed);
    return ok ? end : 0;
}

static ptx_status place_globals(exec_program *p, ptx_diag *diag)
{
    const isa_module *m = p->m;
    /* One allocation per variable and per kernel's parameters, and the
     * functions' addresses. */
    p->global_allocs = calloc(m->nvars + m->nfuncs + 2, sizeof *p->global_allocs);
    if (!p->global_allocs)
        return PTX_E_NOMEM;
    ptx_status fst = exec_malloc(p->mem, (m->nfuncs ? m->nfuncs : 1) * (uint64_t)EXEC_FUNC_BYTES, 256,
                                 &p->func_base);
    if (fst != PTX_OK)
        return ptx_error(diag, fst, m->source_name, 0, 0, "no device memory for the addresses of %u functions",
                         m->nfuncs);
    p->global_allocs[p->nglobal_allocs++] = p->func_base;
    uint32_t dyn_align = 16;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const isa_var *v = &m->vars[i];
        if (v->space == ISA_SPACE_SHARED) {
            if (v->size == 0) {
                dyn_align = v->align > dyn_align ? v->align : dyn_align;
                continue;
            }
            p->var_addr[i] = align_up(p->static_shared, v->align);
            p->static_shared = (uint32_t)(p->var_addr[i] + v->size);
            continue;
        }
        if (v->func >= 0 || v->space == ISA_SPACE_PARAM)
            continue;
        if (v->space == ISA_SPACE_LOCAL)
            return ptx_error(diag, PTX_E_UNSUPPORTED, m->source_name, v->line, 0,
                             "unsupported PTX construct: module-scope .local variable '%s'", v->name);
        if (v->linkage == ISA_LINK_EXTERN && v->size == 0)
            return ptx_error(diag, PTX_E_UNDEFINED, m->source_name, v->line, 0,
                             "external variable '%s' is never defined", v->name);
        uint64_t addr;
        ptx_status st = exec_malloc(p->mem, v->size ? v->size : 1, v->align, &addr);
        if (st != PTX_OK)
            return ptx_error(diag, st, m->source_name, v->line, 0,
                             "no device memory for variable '%s' (%llu bytes)", v->name,
                             (unsigned long long)v->size);
        p->global_allocs[p->nglobal_allocs++] = addr;
        p->var_addr[i] = addr;
        if (v->init)
            memcpy((void *)(uintptr_t)addr, v->init, v->size);
    }
    if (p->static_shared > SHARED_STATIC_LIMIT) {
        uint64_t packed = pack_shared(p);
        if (packed) {
            p->static_shared = (uint32_t)packed;
        } else {
            /* Out of memory: the module-wide layout again. */
            p->static_shared = 0;
            for (uint32_t i = 0; i < m->nvars; i++)
                if (m->vars[i].space == ISA_SPACE_SHARED && m->vars[i].size) {
                    p->var_addr[i] = align_up(p->static_shared, m->vars[i].align);
                    p->static_shared = (uint32_t)(p->var_addr[i] + m->vars[i].size);
                }
        }
    }
    /* Every dynamic shared array starts where the static ones end. */
    uint64_t dyn = align_up(p->static_shared, dyn_align);
    p->dynamic_base = (uint32_t)dyn;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].space == ISA_SPACE_SHARED && m->vars[i].size == 0)
            p->var_addr[i] = dyn;
    /* Addresses of symbols inside initialisers. */
    const isa_mem *win = exec_memory_windows(p->mem);
    for (uint32_t i = 0; i < m->nvars; i++) {
        const isa_var *v = &m->vars[i];
        if (!v->nrelocs || !p->var_addr[i] || v->space == ISA_SPACE_SHARED)
            continue;
        for (uint32_t r = 0; r < v->nrelocs; r++) {
            const isa_reloc *rl = &v->relocs[r];
            uint64_t a;
            if (rl->func) {
                a = exec_func_address(p, rl->var);
            } else {
                a = p->var_addr[rl->var];
                if (rl->generic && m->vars[rl->var].space == ISA_SPACE_SHARED)
                    a += win->shared_win;
            }
            a += (uint64_t)rl->addend;
            if (rl->masked)
                a = (a >> rl->shift) & 0xFF;
            if (rl->at + rl->bytes <= v->size)      /* little-endian, as the device is */
                memcpy((void *)(uintptr_t)(p->var_addr[i] + rl->at), &a, rl->bytes);
        }
    }
    return PTX_OK;
}

/* Frames and kernel parameter layouts. */
static ptx_status place_frames(exec_program *p)
{
    const isa_module *m = p->m;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const isa_var *v = &m->vars[i];
        if (v->func < 0)
            continue;
        exec_func *f = &p->funcs[v->func];
        if (v->role == ISA_VAR_KPARAM)
            continue;                   /* laid out per kernel below */
        if (frame_var(v)) {
            uint64_t off = align_up(f->frame_bytes, v->align);
            if (off + v->size > UINT32_MAX)
                return PTX_E_UNSUPPORTED;
            p->var_addr[i] = off;
            f->frame_bytes = (uint32_t)(off + v->size);
        }
    }
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
        p->funcs[fi].frame_bytes = (uint32_t)align_up(p->funcs[fi].frame_bytes, 16);
    return PTX_OK;
}

/* Resolve one operand of instruction `in` in function fi. */
static void resolve_operand(exec_program *p, isa_inst *in, isa_opd *o)
{
    const isa_module *m = p->m;
    if (o->kind == ISA_OPD_SYM || o->kind == ISA_OPD_ADDR_SYM) {
        uint32_t var = isa_opd_var(o);
        const isa_var *v = &m->vars[var];
        bool addr = o->kind == ISA_OPD_ADDR_SYM;
        int64_t off = o->off + (int64_t)p->var_addr[var];
        if (frame_var(v)) {
            o->kind = addr ? ISA_OPD_ADDR_LOCAL : ISA_OPD_LOCAL;
            if (addr && in->space == ISA_SPACE_PARAM)
                in->space = ISA_SPACE_LOCAL;
        } else {
            o->kind = addr ? ISA_OPD_ADDR : ISA_OPD_IMM;
        }
        o->reg = o->reg2 = ISA_NOREG;
        o->off = off;
    } else if (o->kind == ISA_OPD_LABEL) {
        o->imm += p->funcs[p->func_of[in - p->code]].start;
    } else if (o->kind == ISA_OPD_FUNC) {
        o->kind = ISA_OPD_IMM;
        o->imm = exec_func_address(p, o->reg);
        o->reg = ISA_NOREG;
    }
}

static ptx_status decode_code(exec_program *p)
{
    const isa_module *m = p->m;
    uint32_t total = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        p->funcs[fi].start = total;
        total += m->funcs[fi].ncode;
        p->funcs[fi].end = total;
    }
    p->ncode = total;
    p->code = malloc((total + 1) * sizeof *p->code);
    p->func_of = malloc((total + 1) * sizeof *p->func_of);
    if (!p->code || !p->func_of)
        return PTX_E_NOMEM;
    /* brx tables, relocated. */
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
        p->nbrx += m->funcs[fi].nbrx;
    p->brx = calloc(p->nbrx + 1, sizeof *p->brx);
    p->brx_counts = calloc(p->nbrx + 1, sizeof *p->brx_counts);
    if (!p->brx || !p->brx_counts)
        return PTX_E_NOMEM;
    uint32_t t = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const isa_func *f = &m->funcs[fi];
        uint32_t base = p->funcs[fi].start, tbase = t;
        for (uint32_t k = 0; k < f->nbrx; k++, t++) {
            p->brx[t] = malloc((f->brx_counts[k] + 1) * sizeof **p->brx);
            if (!p->brx[t])
                return PTX_E_NOMEM;
            p->brx_counts[t] = f->brx_counts[k];
            for (uint32_t j = 0; j < f->brx_counts[k]; j++)
                p->brx[t][j] = f->brx_targets[k][j] + base;
        }
        for (uint32_t i = 0; i < f->ncode; i++) {
            isa_inst *in = &p->code[base + i];
            *in = f->code[i];
            p->func_of[base + i] = fi;
            in->target += base;
            if (in->rpc != ISA_PC_EXIT)
                in->rpc += base;
            if (isa_ops[in->op].flags & ISA_F_TABLE)
                in->opd[1].imm += tbase;
            if (isa_ops[in->op].flags & ISA_F_CALL) {
                /* opd[1] names the calling function, so the engine can find
                 * the call site's argument lists. */
                in->opd[1].kind = ISA_OPD_IMM;
                in->opd[1].imm = fi;
            }
        }
        for (uint32_t i = 0; i < f->ncode; i++) {
            isa_inst *in = &p->code[base + i];
            if (isa_ops[in->op].flags & ISA_F_CALL)
                continue;
            for (unsigned k = 0; k < in->nopd; k++)
                resolve_operand(p, in, &in->opd[k]);
        }
    }
    return PTX_OK;
}

/* Whether any function of the module allocates on the stack (alloca): its
 * kernels get a stack as recursive ones do. */
static bool module_allocas(const isa_module *m)
{
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t pc = 0; pc < m->funcs[f].ncode; pc++)
            if (m->funcs[f].code[pc].op == ISA_OP_ALLOCA)
                return true;
    return false;
}

/* What a call of a function needs, its callees' deepest path included. */
typedef struct call_need {
    uint32_t regs, preds, frame;
    uint8_t state;              /* 0 not yet visited, 1 on the path being walked, 2 known */
    bool recursive;             /* a cycle of calls is reachable from it */
} call_need;

static void take_deeper(call_need *acc, const call_need *n)
{
    acc->regs = n->regs > acc->regs ? n->regs : acc->regs;
    acc->preds = n->preds > acc->preds ? n->preds : acc->preds;
    acc->frame = n->frame > acc->frame ? n->frame : acc->frame;
    acc->recursive |= n->recursive;
}

/* Deepest register, predicate and frame use over the call graph from f,
 * each function's once (a runtime library's call graph, GCC's libgomp for
 * one, with indirect calls that may reach every function, is far too
 * large to walk path by path).  A call back into the path being walked
 * makes every function on that path recursive; their figures then count
 * one trip round the cycle, and recursive kernels get a stack. */
static const call_need *call_depth(exec_program *p, uint32_t f, call_need *need)
{
    static const call_need cycle = { .recursive = true };
    call_need *n = &need[f];
    if (n->state == 2)
        return n;
    if (n->state == 1)
        return &cycle;
    n->state = 1;
    const isa_module *m = p->m;
    const isa_func *irf = &m->funcs[f];
    call_need deepest = {0};
    for (uint32_t c = 0; c < irf->ncalls; c++) {
        int32_t callee = irf->calls[c].callee;
        if (callee >= 0) {
            take_deeper(&deepest, call_depth(p, (uint32_t)callee, need));
            continue;
        }
        /* Indirect: any function whose address is taken may be called. */
        for (uint32_t g = 0; g < m->nfuncs; g++)
            if (!m->funcs[g].is_entry && m->funcs[g].ncode)
                take_deeper(&deepest, call_depth(p, g, need));
    }
    n->regs = p->funcs[f].nregs + deepest.regs;
    n->preds = p->funcs[f].npreds + deepest.preds;
    n->frame = p->funcs[f].frame_bytes + deepest.frame;
    n->recursive = deepest.recursive;
    n->state = 2;
    return n;
}

static ptx_status build_kernels(exec_program *p, ptx_diag *diag)
{
    const isa_module *m = p->m;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
        p->nkernels += m->funcs[fi].is_entry && m->funcs[fi].ncode;
    p->kernels = calloc(p->nkernels + 1, sizeof *p->kernels);
    call_need *need = calloc(m->nfuncs + 1, sizeof *need);
    if (!p->kernels || !need) {
        free(need);
        return PTX_E_NOMEM;
    }
    uint32_t k = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const isa_func *f = &m->funcs[fi];
        if (!f->is_entry || !f->ncode)
            continue;
        exec_kernel *kk = &p->kernels[k++];
        kk->func = fi;
        exec_param_info *params = calloc(f->nparams + 1, sizeof *params);
        if (!params) {
            free(need);
            return PTX_E_NOMEM;
        }
        uint64_t off = 0;
        for (uint32_t i = 0; i < f->nparams; i++) {
            const isa_var *v = &m->vars[f->params[i]];
            off = align_up(off, v->align);
            params[i].offset = (uint32_t)off;
            params[i].bytes = (uint32_t)v->size;
            p->var_addr[f->params[i]] = off;
            off += v->size;
        }
        kk->info.name = f->name;
        kk->info.sm = f->sm ? f->sm : m->sm;
        kk->info.nparams = f->nparams;
        kk->info.params = params;
        if (off > PARAM_LIMIT) {             /* params are the kernel's now: freed with it */
            free(need);
            return ptx_error(diag, PTX_E_SYNTAX, m->source_name, f->line, 0,
                             "kernel %s takes %llu bytes of parameters; at most %u are allowed", f->name,
                             (unsigned long long)off, PARAM_LIMIT);
        }
        kk->info.param_bytes = (uint32_t)off;
        kk->info.static_shared = kernel_shared_bytes(p, fi, &kk->vars_used);
        memcpy(kk->info.maxntid, f->maxntid, sizeof f->maxntid);
        memcpy(kk->info.reqntid, f->reqntid, sizeof f->reqntid);
        memcpy(kk->info.cluster, f->reqnctapercluster, sizeof f->reqnctapercluster);
        kk->info.maxclusterrank = f->maxclusterrank;
        kk->info.explicit_cluster = f->explicitcluster;
        /* Room for EXEC_PARAM_SLOTS launches of the kernel at once, one
         * after the other (exec/grid.c). */
        kk->param_stride = (uint32_t)align_up(off ? off : 1, 16);
        ptx_status st = exec_malloc(p->mem, (uint64_t)kk->param_stride * EXEC_PARAM_SLOTS, 16, &kk->param_addr);
        if (st != PTX_OK) {
            free(need);
            return ptx_error(diag, st, m->source_name, f->line, 0,
                             "no device memory for the parameters of '%s'", f->name);
        }
        p->global_allocs[p->nglobal_allocs++] = kk->param_addr;
        for (uint32_t i = 0; i < f->nparams; i++)
            p->var_addr[f->params[i]] += kk->param_addr;
        const call_need *n = call_depth(p, fi, need);
        uint32_t regs = n->regs, preds = n->preds, frame = n->frame;
        bool recursive = n->recursive;
        kk->recursive = recursive;
        kernel_calls_builtins(p, fi, &kk->calls_serial, &kk->calls_print, &kk->calls_heap);
        kk->max_regs = recursive ? regs * RECURSION_REG_DEPTH : regs;
        kk->max_preds = recursive ? preds * RECURSION_REG_DEPTH : preds;
        kk->info.regs = regs;
        kk->frame_bytes = frame;
        /* alloca's stack needs room as recursion does (the same limit). */
        kk->recursive = recursive = recursive || module_allocas(m);
        kk->info.local_bytes = recursive ? frame + EXEC_RECURSION_STACK_BYTES : frame;
    }
    free(need);
    return PTX_OK;
}

ptx_status exec_program_load(exec_memory *mem, const isa_module *m, exec_program **out,
                             ptx_diag *diag)
{
    *out = NULL;
    exec_program *p = calloc(1, sizeof *p);
    if (!p)
        return ptx_error(diag, PTX_E_NOMEM, NULL, 0, 0, "out of memory loading a module");
    p->mem = mem;
    p->m = m;
    pthread_mutex_init(&p->jit_lock, NULL);
    pthread_cond_init(&p->jit_idle, NULL);
    p->var_addr = calloc(m->nvars + 1, sizeof *p->var_addr);
    p->funcs = calloc(m->nfuncs + 1, sizeof *p->funcs);
    ptx_status st = PTX_E_NOMEM;
    if (!p->var_addr || !p->funcs)
        goto fail;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const isa_func *f = &m->funcs[fi];
        p->funcs[fi].ir = f;
        p->funcs[fi].nregs = f->nregs;
        p->funcs[fi].npreds = f->npreds;
        for (uint32_t c = 0; c < f->ncalls; c++) {
            int32_t callee = f->calls[c].callee;
            if (callee >= 0 && !m->funcs[callee].ncode && !exec_is_builtin(m->funcs[callee].name)) {
                st = ptx_error(diag, PTX_E_UNDEFINED, m->source_name, f->line, 0,
                               "'%s' calls '%s', which this module declares but does not define "
                               "(ptxsim itself provides vprintf, malloc, free, __assertfail and the device runtime's entry points)",
                               f->name, m->funcs[callee].name);
                goto fail;
            }
        }
    }
    if ((st = place_globals(p, diag)) != PTX_OK)
        goto fail;
    if ((st = place_frames(p)) != PTX_OK)
        goto fail;
    /* Kernels before code: kernel parameters' addresses feed the operands. */
    if ((st = build_kernels(p, diag)) != PTX_OK)
        goto fail;
    if ((st = decode_code(p)) != PTX_OK)
        goto fail;
    exec_program_live_in(p);
    *out = p;
    return PTX_OK;
fail:
    if (st == PTX_E_NOMEM && diag && diag->count == 0)
        ptx_error(diag, st, m->source_name, 0, 0, "out of memory loading the module");
    exec_program_free(p);
    return st;
}

const isa_module *exec_program_module(const exec_program *p) { return p->m; }

int exec_program_kernel(const exec_program *p, const char *name)
{
    for (uint32_t k = 0; k < p->nkernels; k++)
        if (strcmp(p->kernels[k].info.name, name) == 0)
            return (int)k;
    return -1;
}

const exec_kernel_info *exec_program_kernel_info(const exec_program *p, int kernel)
{
    return kernel >= 0 && (uint32_t)kernel < p->nkernels ? &p->kernels[kernel].info : NULL;
}

void exec_program_set_machine_regs(exec_program *p, int kernel, uint32_t regs, const char *from)
{
    if (kernel < 0 || (uint32_t)kernel >= p->nkernels)
        return;
    p->kernels[kernel].info.machine_regs = regs;
    p->kernels[kernel].info.machine_regs_from = from;
}

bool exec_program_symbol(const exec_program *p, const char *name, uint64_t *addr, uint64_t *bytes)
{
    int v = isa_find_var(p->m, name, -1);
    if (v < 0)
        return false;
    const isa_var *var = &p->m->vars[v];
    if (var->func >= 0 || (var->space != ISA_SPACE_GLOBAL && var->space != ISA_SPACE_CONST))
        return false;
    *addr = p->var_addr[v];
    *bytes = var->size;
    return true;
}
