/*
 * sem_async.c -- st.async and red.async (PTX ISA 8.1, sm_90): a store or a
 * reduction into the shared memory of a CTA of the cluster, whose
 * completion is a complete-tx on an mbarrier in that CTA.
 *
 *   st.async{.weak}{.cluster}.shared::cluster.mbarrier::complete_tx::bytes{.v2,.v4}.type [a], b, [mbar]
 *   red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], b, [mbar]
 *
 * Both addresses are .shared::cluster ones (from mapa, or the CTA's own;
 * with no state space named, .shared::cluster is meant; st.async may name
 * .shared::cta, the CTA's own, which ptxas refuses for red.async); the
 * ISA wants the mbarrier in the same CTA as a.  The store (sem_mem.c's
 * st) or reduction (its red, one atomic operation a lane) is done at once,
 * then the complete-tx of the bytes it wrote: a consumer waiting on the
 * mbarrier for the expected bytes sees the data when its phase completes,
 * which is all the ISA promises.  The parser keeps the pair of modifiers
 * .async ... .mbarrier::complete_tx::bytes as one mode (mods.def).
 */
#include "isa_int.h"

ptx_status isa_async_complete(isa_warp *w, const isa_inst *in, uint32_t mask, unsigned bytes)
{
    ptx_status st;
    LANES(mask, {
        if ((st = isa_mbar_complete_tx(w, ISA_SPACE_SHARED, isa_lane_address(w, &in->opd[2], l), bytes, l)) !=
            PTX_OK)
            return st;
    });
    return PTX_OK;
}

/* The types red.async reduces with each operation. */
static bool red_async_type(uint8_t aop, uint8_t type)
{
    switch (aop) {
    case ISA_AOP_INC: case ISA_AOP_DEC: return type == ISA_TYPE_U32;
    case ISA_AOP_MIN: case ISA_AOP_MAX: return type == ISA_TYPE_U32 || type == ISA_TYPE_S32;
    case ISA_AOP_AND: case ISA_AOP_OR: case ISA_AOP_XOR: return type == ISA_TYPE_B32;
    case ISA_AOP_ADD:
        return type == ISA_TYPE_U32 || type == ISA_TYPE_S32 || type == ISA_TYPE_U64 || type == ISA_TYPE_S64;
    default: return false;
    }
}

const char *isa_async_form_error(const isa_inst *in)
{
    bool red = in->op == ISA_OP_RED;
    if (in->mode != ISA_MODE_ASYNC_MBAR)
        return red ? "red's only mode is .async, with .mbarrier::complete_tx::bytes (red.async)"
                   : "st's only mode is .async, with .mbarrier::complete_tx::bytes (st.async)";
    if (in->space != ISA_SPACE_SHARED)
        return "st.async and red.async write shared memory (.shared::cluster, or .shared::cta)";
    if (in->nopd != 3 || in->opd[0].kind != ISA_OPD_ADDR || in->opd[2].kind != ISA_OPD_ADDR)
        return "st.async and red.async take [a], b, [mbar]";
    if (red) {
        if (in->order != ISA_ORDER_RELAXED || in->scope != ISA_SCOPE_CLUSTER)
            return "red.async is .relaxed.cluster";
        if (!(in->flags & ISA_MOD_FLAG(SHCLUSTER)))
            return "red.async writes .shared::cluster memory (st.async may name .shared::cta)";
        if (in->vec > 1)
            return "red.async reduces one value, not a vector";
        if (!red_async_type(in->aop, in->type))
            return "red.async takes .add .u32/.s32/.u64/.s64, .min/.max .u32/.s32, .inc/.dec .u32, .and/.or/.xor .b32";
        return NULL;
    }
    /* ptxas: "Modifier '.weak' cannot be combined with modifier '.cluster'". */
    if ((in->order && in->order != ISA_ORDER_WEAK) || (in->scope && in->scope != ISA_SCOPE_CLUSTER) ||
        (in->order && in->scope))
        return "st.async is .weak or .cluster (not both)";
    if (in->aop)
        return "st.async stores; red.async reduces";
    switch (in->type) {
    case ISA_TYPE_B32: case ISA_TYPE_U32: case ISA_TYPE_S32: case ISA_TYPE_F32:
        break;
    case ISA_TYPE_B64: case ISA_TYPE_U64: case ISA_TYPE_S64: case ISA_TYPE_F64:
        if (in->vec > 2)
            return "st.async stores .v4 of 32-bit types only";
        break;
    default:
        return "st.async stores .b32, .b64, .u32, .s32, .u64, .s64, .f32 or .f64";
    }
    return NULL;
}
