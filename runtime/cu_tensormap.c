/*
 * cu_tensormap.c -- tensor maps (CUtensorMap): the descriptions of a tensor
 * in global memory that the tensor copies (cp.async.bulk.tensor, the
 * "TMA") take.
 *
 * cuTensorMapEncodeTiled checks its arguments as the driver API documents
 * (a violated requirement is CUDA_ERROR_INVALID_VALUE, said once on stderr
 * with the requirement) and packs the map into the 128 opaque bytes
 * (isa_tensormap_pack), which the program hands to kernels by value or
 * copies to device memory; the copies unpack it (isa/sem_tensor.c).
 * Interleaved layouts, the sm_100 swizzles and the sub-byte types are
 * refused by name (CUDA_ERROR_NOT_SUPPORTED), as is the im2col form.
 */
#include "cu_int.h"

#include <stdarg.h>
#include <string.h>

/* Each type's element size in bytes; 0 for those ptxsim does not copy. */
static unsigned elem_bytes(CUtensorMapDataType t) { return (unsigned)t > 255 ? 0 : isa_tensormap_dtype_bytes((uint8_t)t); }

static bool is_float(CUtensorMapDataType t)
{
    return t >= CU_TENSOR_MAP_DATA_TYPE_FLOAT16 && t <= CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ;
}

static CUresult refuse(CUresult r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static CUresult refuse(CUresult r, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    rt_say("cuTensorMapEncodeTiled: %s", why);
    return r;
}
#define INVALID(...) refuse(CUDA_ERROR_INVALID_VALUE, __VA_ARGS__)

CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                                void *globalAddress, const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
                                const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
                                CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill)
{
    CU_ENTER(false);
    if (!tensorMap || !globalDim || !boxDim || !elementStrides || (tensorRank > 1 && !globalStrides))
        return INVALID("a NULL pointer argument");
    if ((uintptr_t)tensorMap & 63)
        return INVALID("the tensor map at %p is not 64-byte aligned", (void *)tensorMap);
    unsigned e = elem_bytes(tensorDataType);
    if (tensorDataType >= CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B && tensorDataType <= CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B)
        return refuse(CUDA_ERROR_NOT_SUPPORTED, "the packed 4- and 6-bit types are not implemented");
    if (!e)
        return INVALID("data type %d is none of CUtensorMapDataType's", (int)tensorDataType);
    if (tensorRank < 1 || tensorRank > ISA_TENSORMAP_MAX_RANK)
        return INVALID("rank %u: it must be 1 to 5", tensorRank);
    if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
        return refuse(CUDA_ERROR_NOT_SUPPORTED, "interleaved layouts are not implemented");
    if (swizzle > CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)
        return INVALID("swizzle %d is none of CUtensorMapSwizzle's", (int)swizzle);
    if (swizzle > CU_TENSOR_MAP_SWIZZLE_128B)
        return refuse(CUDA_ERROR_NOT_SUPPORTED, "the 128-byte swizzles of 32- and 64-byte atoms are not implemented");
    if (l2Promotion > CU_TENSOR_MAP_L2_PROMOTION_L2_256B)
        return INVALID("L2 promotion %d is none of CUtensorMapL2promotion's", (int)l2Promotion);
    if (oobFill > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
        return INVALID("OOB fill %d is none of CUtensorMapFloatOOBfill's", (int)oobFill);
    if (oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && !is_float(tensorDataType))
        return INVALID("the NaN fill needs a floating-point data type");
    if ((uintptr_t)globalAddress & 15)
        return INVALID("the global address %p is not 16-byte aligned", globalAddress);
    isa_tensormap t = { .base = (uint64_t)(uintptr_t)globalAddress, .rank = (uint8_t)tensorRank,
                        .elem_bytes = (uint8_t)e, .dtype = (uint8_t)tensorDataType,
                        .nan_fill = oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA };
    for (unsigned d = 0; d < tensorRank; d++) {
        if (!globalDim[d] || globalDim[d] > (1ull << 32))
            return INVALID("globalDim[%u] = %llu: it must be 1 to 2^32", d, (unsigned long long)globalDim[d]);
        if (!boxDim[d] || boxDim[d] > 256)
            return INVALID("boxDim[%u] = %u: it must be 1 to 256", d, boxDim[d]);
        if (!elementStrides[d] || elementStrides[d] > 8)
            return INVALID("elementStrides[%u] = %u: it must be 1 to 8", d, elementStrides[d]);
        t.dims[d] = globalDim[d];
        t.box[d] = boxDim[d];
        t.traverse[d] = d ? elementStrides[d] : 1;  /* ignored in dimension 0 without interleave */
        t.strides[d] = d ? globalStrides[d - 1] : e;
        if (d && (globalStrides[d - 1] % 16 || globalStrides[d - 1] >= (1ull << 40)))
            return INVALID("globalStrides[%u] = %llu: it must be a multiple of 16 below 2^40", d - 1,
                           (unsigned long long)globalStrides[d - 1]);
    }
    if ((boxDim[0] * e) % 16)
        return INVALID("the box's inner dimension, boxDim[0] * %u = %u bytes, is not a multiple of 16", e,
                       boxDim[0] * e);
    static const unsigned span[] = { 0, 32, 64, 128 };
    if (swizzle != CU_TENSOR_MAP_SWIZZLE_NONE && boxDim[0] * e > span[swizzle])
        return INVALID("the box's inner dimension, %u bytes, is more than the %u-byte swizzle", boxDim[0] * e,
                       span[swizzle]);
    t.swizzle = (uint8_t)swizzle;   /* CU_TENSOR_MAP_SWIZZLE_32B .. 128B are isa_swizzle's 1 .. 3 */
    isa_tensormap_pack(&t, (uint8_t *)tensorMap);
    return CUDA_SUCCESS;
}

CUresult cuTensorMapReplaceAddress(CUtensorMap *tensorMap, void *globalAddress)
{
    CU_ENTER(false);
    isa_tensormap t;
    if (!tensorMap || ((uintptr_t)tensorMap & 63) || ((uintptr_t)globalAddress & 15) ||
        !isa_tensormap_unpack((const uint8_t *)tensorMap, &t))
        return CUDA_ERROR_INVALID_VALUE;
    t.base = (uint64_t)(uintptr_t)globalAddress;
    isa_tensormap_pack(&t, (uint8_t *)tensorMap);
    return CUDA_SUCCESS;
}
