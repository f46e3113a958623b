/*
 * sem_tensor.c -- tensor copies: boxes of a tensor between global and
 * shared memory through a tensor map (PTX ISA 9.7.9.25.5, the "TMA").
 *
 *   cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes
 *       [dst], [tmap, {c0, ..}], [mbar] {, ctaMask} {, policy}
 *   cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [tmap, {c0, ..}], [src] {, policy}
 *   cp.reduce.async.bulk.tensor.Nd.global.shared::cta.op.tile.bulk_group [tmap, {..}], [src]
 *   cp.async.bulk.prefetch.tensor.Nd.L2.global.tile [tmap, {..}]
 *
 * The coordinates c_i (signed, in elements) are where the box starts in
 * each dimension; the box takes box_i elements from there, every
 * traverse_i-th one (dimension 0 always every one).  In shared memory the
 * box is packed, dimension 0 innermost, then swizzled: in each 16-byte
 * chunk's address, the chunk's index within its 32-, 64- or 128-byte span
 * is XORed with the address's 128-byte row index (bits 7 and up), so the
 * pattern repeats every 256, 512 or 1024 bytes -- the layout wgmma's
 * swizzled shared-memory operands expect.  An element outside the tensor
 * (a coordinate below 0 or past the dimension) reads as zero, or for a
 * float tensor encoded with the NaN fill as the OOB NaN fma.oob recognises
 * (0x7FF7 in every 16 bits), and is not written back.  A copy into shared
 * memory then completes the whole box's bytes on the mbarrier; with
 * .multicast::cluster it lands, and completes, at the same offsets in
 * every CTA of the cluster whose bit ctaMask sets.  As with the other bulk
 * copies, ptxsim performs the copy at once, which the ISA allows.
 */
#include "isa_int.h"
#include "mem_int.h"

#include <string.h>

/* ---- the tensor map's 128 bytes ------------------------------------------------ */

/* "PTXSIM T" and a layout version: a map whose bytes are anything else was
 * not made by cuTensorMapEncodeTiled. */
static const uint8_t map_magic[8] = { 'P', 'T', 'X', 'S', 'I', 'M', 'T', 1 };

typedef struct packed_map {
    uint8_t magic[8];
    uint64_t base;
    uint64_t dims[ISA_TENSORMAP_MAX_RANK - 1 + 1];
    uint64_t strides[ISA_TENSORMAP_MAX_RANK - 1];   /* dimensions 1 .. rank-1 */
    uint16_t box[ISA_TENSORMAP_MAX_RANK];
    uint8_t traverse[ISA_TENSORMAP_MAX_RANK];
    uint8_t rank, elem_bytes, dtype, swizzle, nan_fill;
} packed_map;
_Static_assert(sizeof(packed_map) <= ISA_TENSORMAP_BYTES, "a tensor map fits CUtensorMap");

void isa_tensormap_pack(const isa_tensormap *t, uint8_t out[ISA_TENSORMAP_BYTES])
{
    packed_map p;
    memset(&p, 0, sizeof p);
    memcpy(p.magic, map_magic, sizeof p.magic);
    p.base = t->base;
    for (unsigned d = 0; d < ISA_TENSORMAP_MAX_RANK; d++) {
        p.dims[d] = t->dims[d];
        p.box[d] = (uint16_t)t->box[d];
        p.traverse[d] = (uint8_t)t->traverse[d];
        if (d)
            p.strides[d - 1] = t->strides[d];
    }
    p.rank = t->rank;
    p.elem_bytes = t->elem_bytes;
    p.dtype = t->dtype;
    p.swizzle = t->swizzle;
    p.nan_fill = t->nan_fill;
    memset(out, 0, ISA_TENSORMAP_BYTES);
    memcpy(out, &p, sizeof p);
}

bool isa_tensormap_unpack(const uint8_t in[ISA_TENSORMAP_BYTES], isa_tensormap *t)
{
    packed_map p;
    memcpy(&p, in, sizeof p);
    if (memcmp(p.magic, map_magic, sizeof p.magic) || p.rank < 1 || p.rank > ISA_TENSORMAP_MAX_RANK ||
        (p.elem_bytes != 1 && p.elem_bytes != 2 && p.elem_bytes != 4 && p.elem_bytes != 8) ||
        p.swizzle > ISA_SWIZZLE_128B)
        return false;
    memset(t, 0, sizeof *t);
    t->base = p.base;
    t->rank = p.rank;
    t->elem_bytes = p.elem_bytes;
    t->dtype = p.dtype;
    t->swizzle = p.swizzle;
    t->nan_fill = p.nan_fill;
    for (unsigned d = 0; d < ISA_TENSORMAP_MAX_RANK; d++) {
        bool used = d < p.rank;
        t->dims[d] = used ? p.dims[d] : 1;
        t->box[d] = used ? p.box[d] : 1;
        t->traverse[d] = used && d ? p.traverse[d] : 1;
        t->strides[d] = d ? p.strides[d - 1] : p.elem_bytes;
        if (used && (!t->dims[d] || !t->box[d] || !t->traverse[d]))
            return false;
    }
    return true;
}

uint32_t isa_tensormap_box_elems(const isa_tensormap *t, unsigned d)
{
    return (t->box[d] + t->traverse[d] - 1) / t->traverse[d];
}

uint64_t isa_tensormap_box_bytes(const isa_tensormap *t)
{
    uint64_t n = t->elem_bytes;
    for (unsigned d = 0; d < t->rank; d++)
        n *= isa_tensormap_box_elems(t, d);
    return n;
}

/* ---- element types ------------------------------------------------------------- */

/* CUtensorMapDataType's values (the driver API's numbering). */
enum {
    TMAP_U8, TMAP_U16, TMAP_U32, TMAP_S32, TMAP_U64, TMAP_S64, TMAP_F16, TMAP_F32, TMAP_F64, TMAP_BF16,
    TMAP_F32_FTZ, TMAP_TF32, TMAP_TF32_FTZ
};

static bool dtype_float(uint8_t d) { return d >= TMAP_F16 && d <= TMAP_TF32_FTZ; }

/* The element type a reduction works on, by the map's type (0: none). */
static uint8_t reduce_type(uint8_t dtype)
{
    switch (dtype) {
    case TMAP_F16: return ISA_TYPE_F16;
    case TMAP_BF16: return ISA_TYPE_BF16;
    case TMAP_F32: case TMAP_F32_FTZ: case TMAP_TF32: case TMAP_TF32_FTZ: return ISA_TYPE_F32;
    case TMAP_U32: return ISA_TYPE_U32;
    case TMAP_S32: return ISA_TYPE_S32;
    case TMAP_U64: return ISA_TYPE_U64;
    case TMAP_S64: return ISA_TYPE_S64;
    default: return 0;
    }
}

/* ---- one copy ------------------------------------------------------------------ */

/* The map at generic address a for lane l: in global memory (a kernel
 * parameter, a __constant__ or __device__ variable) or shared memory.  A
 * parameter's address may come straight from mov, not from cvta.param. */
static ptx_status read_map(isa_warp *w, uint64_t a, unsigned l, isa_tensormap *t)
{
    const isa_mem *m = w->mem;
    const uint8_t *p = NULL;
    a = isa_param_at(m, a);
    if (a - m->shared_win < ISA_WINDOW_BYTES)
        p = isa_shared_at(m, a - m->shared_win, ISA_TENSORMAP_BYTES);
    else if (a >= m->global_lo && a + ISA_TENSORMAP_BYTES <= m->global_hi)
        p = (const uint8_t *)(uintptr_t)a;
    w->fault.addr = a;
    w->fault.lane = l;
    w->fault.bytes = ISA_TENSORMAP_BYTES;
    w->fault.space = ISA_SPACE_GENERIC;
    if (!p)
        return PTX_E_ILLEGAL_ADDRESS;
    if (a & 63)
        return PTX_E_MISALIGNED;
    w->fault.why = NULL;
    if (!isa_tensormap_unpack(p, t))
        return PTX_E_ILLEGAL_INSTRUCTION;       /* not a map cuTensorMapEncodeTiled made */
    return PTX_OK;
}

typedef struct box_copy {
    isa_warp *w;
    const isa_tensormap *t;
    int64_t start[ISA_TENSORMAP_MAX_RANK];      /* the coordinates */
    uint32_t n[ISA_TENSORMAP_MAX_RANK];         /* elements of the box in each dimension */
    uint32_t smem;                              /* the box's shared address (one CTA's) */
    bool to_shared;
    uint8_t aop;                                /* cp.reduce's operation, else NONE */
    unsigned lane;
} box_copy;

/* Global address of the element at box index idx, or false outside the
 * tensor. */
static bool element_at(const box_copy *b, const uint32_t idx[ISA_TENSORMAP_MAX_RANK], uint64_t *addr)
{
    const isa_tensormap *t = b->t;
    uint64_t a = t->base;
    for (unsigned d = 0; d < t->rank; d++) {
        int64_t c = b->start[d] + (int64_t)idx[d] * t->traverse[d];
        if (c < 0 || (uint64_t)c >= t->dims[d])
            return false;
        a += (uint64_t)c * t->strides[d];
    }
    *addr = a;
    return true;
}

static ptx_status fault(isa_warp *w, uint8_t space, uint64_t addr, unsigned bytes, unsigned l, ptx_status st)
{
    w->fault.addr = addr;
    w->fault.lane = l;
    w->fault.bytes = bytes;
    w->fault.space = space;
    return st;
}

/* Every element of the box, between the global tensor and the shared
 * memory at b->smem + (rank slot) for one CTA (slot: 0 for the CTA's own,
 * r + 1 for rank r of the cluster). */
static ptx_status copy_box(const box_copy *b, uint32_t slot_base)
{
    const isa_tensormap *t = b->t;
    const isa_mem *m = b->w->mem;
    unsigned e = t->elem_bytes;
    uint64_t total = 1;
    for (unsigned d = 0; d < t->rank; d++)
        total *= b->n[d];
    uint32_t idx[ISA_TENSORMAP_MAX_RANK] = {0};
    unsigned span = t->swizzle ? 16u << t->swizzle : 0;     /* ISA_SWIZZLE_32B .. 128B: 32 .. 128 bytes */
    for (uint64_t k = 0; k < total; k++) {
        uint32_t off = (uint32_t)isa_swizzle_addr(b->smem + (uint32_t)(k * e), span, 0);
        uint8_t *s = isa_shared_at(m, slot_base + off, e);
        if (!s)
            return fault(b->w, ISA_SPACE_SHARED, slot_base + off, e, b->lane, PTX_E_ILLEGAL_ADDRESS);
        uint64_t g;
        bool inside = element_at(b, idx, &g);
        if (inside && (g + e > m->global_hi || g < m->global_lo || (m->check && !m->check(m->check_ctx, g, e))))
            return fault(b->w, ISA_SPACE_GLOBAL, g, e, b->lane, PTX_E_ILLEGAL_ADDRESS);
        if (b->to_shared) {
            if (inside)
                memcpy(s, (const void *)(uintptr_t)g, e);
            else if (t->nan_fill && dtype_float(t->dtype))
                for (unsigned i = 0; i < e; i += 2)
                    memcpy(s + i, &(uint16_t){ 0x7FF7u }, 2);
            else
                memset(s, 0, e);
        } else if (inside) {
            uint8_t *gp = (uint8_t *)(uintptr_t)g;
            if (b->aop == ISA_AOP_NONE)
                memcpy(gp, s, e);
            else if (!reduce_type(t->dtype) ||
                     !isa_reduce_elem(b->w, ISA_SPACE_GLOBAL, reduce_type(t->dtype), b->aop, gp, s))
                return PTX_E_UNSUPPORTED;
        }
        for (unsigned d = 0; d < t->rank && ++idx[d] == b->n[d]; d++)
            idx[d] = 0;
    }
    return PTX_OK;
}

ptx_status isa_cp_tensor(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    unsigned rank = isa_tensor_rank(in);
    bool to_shared = in->mode == ISA_MODE_ASYNC_BULK_TENSOR_MBAR;
    bool prefetch = in->mode == ISA_MODE_ASYNC_BULK_PREFETCH_TENSOR_L2;
    bool reduce = in->mode == ISA_MODE_REDUCE_BULK_TENSOR_GROUP;
    if (!to_shared && !prefetch && !reduce && in->mode != ISA_MODE_ASYNC_BULK_TENSOR_GROUP)
        return PTX_E_UNSUPPORTED;
    /* Operands: [dst], tmap, {coords}, [mbar] {, ctaMask}; tmap, {coords},
     * [src]; tmap, {coords} for a prefetch. */
    unsigned map_at = to_shared ? 1 : 0, smem_at = to_shared ? 0 : 2;
    if (in->nopd < map_at + 2 + !prefetch)
        return PTX_E_UNSUPPORTED;
    uint16_t coord_regs[ISA_MAX_VEC];
    if (isa_opd_regs(&in->opd[map_at + 1], w->lists, coord_regs) != rank)
        return PTX_E_UNSUPPORTED;
    for (unsigned d = 0; d < rank; d++)
        if (coord_regs[d] == ISA_NOREG)
            return PTX_E_UNSUPPORTED;
    bool multicast = to_shared && (in->layout & ISA_CP_MULTICAST);
    if (multicast && in->nopd < 5)
        return PTX_E_UNSUPPORTED;
    const uint64_t *map_reg = isa_src(w, in, map_at);
    const uint64_t *mask_reg = multicast ? isa_src(w, in, 4) : NULL;
    ptx_status st = PTX_OK;
    LANES(mask, {
        isa_tensormap t;
        if ((st = read_map(w, map_reg[l], l, &t)) != PTX_OK)
            return st;
        if (t.rank != rank)
            return fault(w, ISA_SPACE_GENERIC, map_reg[l], ISA_TENSORMAP_BYTES, l, PTX_E_ILLEGAL_INSTRUCTION);
        if (prefetch)
            continue;                   /* a hint, once the map is known to be one */
        box_copy b = { .w = w, .t = &t, .to_shared = to_shared, .aop = reduce ? in->aop : ISA_AOP_NONE,
                       .lane = l };
        for (unsigned d = 0; d < rank; d++) {
            b.start[d] = (int32_t)w->r[(size_t)coord_regs[d] * ISA_WARP_SIZE + l];
            b.n[d] = isa_tensormap_box_elems(&t, d);
        }
        /* The box moves in 16-byte units of its rows: an H200 refuses, as
         * an illegal instruction, a tile whose innermost start is not on
         * one (f32 boxes at x = 5, -3, 33; x = 0, 36, -8 copy). */
        if ((b.start[0] * (int64_t)t.elem_bytes) % 16 != 0) {
            w->fault.why = "a tensor copy's box must start on a 16-byte boundary of its rows: the innermost "
                           "coordinate times the element size must be a multiple of 16";
            return fault(w, ISA_SPACE_GLOBAL, (uint64_t)b.start[0], t.elem_bytes, l, PTX_E_ILLEGAL_INSTRUCTION);
        }
        uint64_t smem = isa_lane_address(w, &in->opd[smem_at], l);
        if (smem & 127)
            return fault(w, ISA_SPACE_SHARED, smem, (unsigned)isa_tensormap_box_bytes(&t), l, PTX_E_MISALIGNED);
        b.smem = (uint32_t)smem % ISA_CLUSTER_SLOT;
        uint32_t slot_base = (uint32_t)smem - b.smem;
        uint32_t bytes = (uint32_t)isa_tensormap_box_bytes(&t);
        uint64_t mbar = to_shared ? isa_lane_address(w, &in->opd[3], l) : 0;
        if (!multicast) {
            if ((st = copy_box(&b, slot_base)) != PTX_OK)
                return st;
            if (to_shared && (st = isa_mbar_complete_tx(w, ISA_SPACE_SHARED, mbar, bytes, l)) != PTX_OK)
                return st;
            continue;
        }
        /* Every CTA the mask names, at the same offsets in its slot. */
        uint32_t ctas = (uint16_t)mask_reg[l];
        uint32_t mbar_off = (uint32_t)mbar % ISA_CLUSTER_SLOT;
        for (uint32_t r = 0; ctas; r++, ctas >>= 1) {
            if (!(ctas & 1))
                continue;
            uint32_t base = (r + 1) * ISA_CLUSTER_SLOT;
            if ((st = copy_box(&b, base)) != PTX_OK)
                return st;
            if ((st = isa_mbar_complete_tx(w, ISA_SPACE_SHARED, base + mbar_off, bytes, l)) != PTX_OK)
                return st;
        }
    });
    return PTX_OK;
}

/* ---- tensormap.replace and tensormap.cp_fenceproxy ----------------------------- */

unsigned isa_tensormap_dtype_bytes(uint8_t dtype)
{
    switch (dtype) {
    case TMAP_U8: return 1;
    case TMAP_U16: case TMAP_F16: case TMAP_BF16: return 2;
    case TMAP_U32: case TMAP_S32: case TMAP_F32: case TMAP_F32_FTZ: case TMAP_TF32: case TMAP_TF32_FTZ: return 4;
    case TMAP_U64: case TMAP_S64: case TMAP_F64: return 8;
    default: return 0;
    }
}

/* .elemtype's new value is the ISA's numbering, which is the driver's but
 * for three: 8 .f32.ftz, 9 .f64, 10 .bf16 (the driver's 10, 8 and 9). */
static uint8_t dtype_of_elemtype(uint64_t v)
{
    switch (v) {
    case 8: return TMAP_F32_FTZ;
    case 9: return TMAP_F64;
    case 10: return TMAP_BF16;
    default: return v < 13 ? (uint8_t)v : 0xFF;
    }
}

/* Whether the field is one of a dimension's (an ordinal names which). */
static bool per_dim(uint8_t mode)
{
    return mode == ISA_MODE_TM_BOX_DIM || mode == ISA_MODE_TM_GLOBAL_DIM || mode == ISA_MODE_TM_GLOBAL_STRIDE ||
           mode == ISA_MODE_TM_ELEMENT_STRIDE;
}

/* One field of p by tensormap.replace's new value v (ordinal ord), or why
 * ptxsim cannot.  The sizes are in the units cuTensorMapEncodeTiled takes:
 * rank less one, dimensions and box extents in elements, strides in bytes. */
static const char *replace_field(packed_map *p, uint8_t mode, uint64_t ord, uint64_t v)
{
    if (per_dim(mode) && ord >= (mode == ISA_MODE_TM_GLOBAL_STRIDE ? ISA_TENSORMAP_MAX_RANK - 1u : ISA_TENSORMAP_MAX_RANK))
        return "tensormap.replace: an ordinal past the tensor's dimensions (0 .. 4; 0 .. 3 for global_stride)";
    switch (mode) {
    case ISA_MODE_TM_GLOBAL_ADDRESS: p->base = v; return NULL;
    case ISA_MODE_TM_RANK: p->rank = (uint8_t)(v + 1); return NULL;
    case ISA_MODE_TM_BOX_DIM: p->box[ord] = (uint16_t)v; return NULL;
    case ISA_MODE_TM_GLOBAL_DIM: p->dims[ord] = (uint32_t)v; return NULL;
    case ISA_MODE_TM_GLOBAL_STRIDE: p->strides[ord] = v; return NULL;
    case ISA_MODE_TM_ELEMENT_STRIDE: p->traverse[ord] = (uint8_t)v; return NULL;
    case ISA_MODE_TM_ELEMTYPE:
        p->dtype = dtype_of_elemtype(v);
        p->elem_bytes = (uint8_t)isa_tensormap_dtype_bytes(p->dtype);
        return p->elem_bytes ? NULL : "tensormap.replace: an element type ptxsim's tensor copies do not take "
                                      "(13 .. 15, the packed 4- and 6-bit types, or past them)";
    case ISA_MODE_TM_INTERLEAVE:
        return v ? "tensormap.replace: an interleaved layout (16B, 32B), which ptxsim's tensor copies do not take" : NULL;
    case ISA_MODE_TM_SWIZZLE_MODE:
        if (v > ISA_SWIZZLE_128B)
            return "tensormap.replace: a swizzle mode past 128B (the sm_100 ones), which ptxsim does not take";
        p->swizzle = (uint8_t)v;
        return NULL;
    case ISA_MODE_TM_SWIZZLE_ATOMICITY:
        return v ? "tensormap.replace: a swizzle atomicity other than 16B (the sm_100 ones)" : NULL;
    case ISA_MODE_TM_FILL_MODE: p->nan_fill = v != 0; return NULL;
    default: return "tensormap.replace: no field";
    }
}

/* The 128 bytes of a map at address a of lane l, in shared or global
 * memory (64-byte aligned), or NULL with the fault noted. */
static uint8_t *map_bytes(isa_warp *w, uint8_t space, uint64_t a, unsigned l)
{
    uint8_t actual = space;
    uint8_t *p = locate(w, space, a, 64, l, &actual), *q = p ? locate(w, space, a + 64, 64, l, &actual) : NULL;
    return q == p + 64 ? p : NULL;
}

/* tensormap.replace.tile.field{.space}.b1024.type [addr]{, ord}, new_val:
 * one field of the tensor map at addr, read, changed and written back.  A
 * map whose other bytes no encode wrote (Triton zeroes 128 bytes of shared
 * memory and replaces every field) becomes one of ptxsim's. */
static ptx_status replace(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *addr = address(w, in, 0), *ord = in->nopd > 2 ? SRC(1) : NULL, *v = SRC(in->nopd - 1);
    LANES(mask, {
        uint8_t *bytes = map_bytes(w, in->space, addr[l], l);
        if (!bytes)
            return fault_status(w, w->fault.addr, 64);
        packed_map p;
        memcpy(&p, bytes, sizeof p);
        memcpy(p.magic, map_magic, sizeof p.magic);
        if ((w->fault.why = replace_field(&p, in->mode, ord ? ord[l] : 0, v[l])) != NULL)
            return fault(w, in->space, addr[l], ISA_TENSORMAP_BYTES, l, PTX_E_UNSUPPORTED);
        memcpy(bytes, &p, sizeof p);
    });
    if (w->access)
        record(w, in, addr, mask, ISA_TENSORMAP_BYTES, in->space, true, false);
    return PTX_OK;
}

/* tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope
 * .sync.aligned [dst], [src], 128: a map from shared to global memory, the
 * fence with it (ptxsim's copies read memory as it is). */
static ptx_status cp_fenceproxy(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    LANES(mask, {
        /* (address() would cut the global one to the source's 32 bits) */
        uint64_t dst = isa_lane_address(w, &in->opd[0], l), src = (uint32_t)isa_lane_address(w, &in->opd[1], l);
        uint8_t *from = map_bytes(w, ISA_SPACE_SHARED, src, l);
        if (!from)
            return fault_status(w, w->fault.addr, 64);
        uint8_t *to = map_bytes(w, ISA_SPACE_GLOBAL, dst, l);
        if (!to)
            return fault_status(w, w->fault.addr, 64);
        memmove(to, from, ISA_TENSORMAP_BYTES);
    });
    return PTX_OK;
}

const char *isa_tensormap_form_error(const isa_inst *in)
{
    if (in->mode == ISA_MODE_TM_CP_FENCEPROXY_GENERIC)
        return in->nopd == 3 && in->opd[0].kind == ISA_OPD_ADDR && in->opd[1].kind == ISA_OPD_ADDR &&
                       in->opd[2].kind == ISA_OPD_IMM && in->opd[2].imm == ISA_TENSORMAP_BYTES
                   ? NULL : "expected tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope"
                            ".sync.aligned [dst], [src], 128";
    bool by_dim = per_dim(in->mode);
    bool wide = in->mode == ISA_MODE_TM_GLOBAL_ADDRESS || in->mode == ISA_MODE_TM_GLOBAL_STRIDE;
    if (in->mode < ISA_MODE_TM_GLOBAL_ADDRESS || in->mode > ISA_MODE_TM_FILL_MODE)
        return "expected tensormap.replace.tile.field or tensormap.cp_fenceproxy";
    if (in->type != (wide ? ISA_TYPE_B64 : ISA_TYPE_B32))
        return wide ? "global_address and global_stride take .b64" : "this field takes .b32";
    if (in->space && in->space != ISA_SPACE_GLOBAL && in->space != ISA_SPACE_SHARED)
        return "a tensor map is in .global or .shared::cta memory";
    if (in->nopd != (by_dim ? 3 : 2) || in->opd[0].kind != ISA_OPD_ADDR ||
        (by_dim && in->opd[1].kind != ISA_OPD_IMM))
        return by_dim ? "expected [addr], ord (a constant), new_val" : "expected [addr], new_val";
    return NULL;
}

ptx_status isa_sem_tensormap(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    return in->mode == ISA_MODE_TM_CP_FENCEPROXY_GENERIC ? cp_fenceproxy(w, in, mask) : replace(w, in, mask);
}
