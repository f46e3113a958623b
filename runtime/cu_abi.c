/*
 * cu_abi.c -- older ABIs of driver entry points whose arguments did not
 * change, under their old exported names.  cuGetProcAddress hands them to
 * callers that ask for an older CUDA version (cu_proc.c): NVIDIA's static
 * runtime asks for cuDeviceGetUuid at 9020 (cuDeviceGetUuid, not _v2) and
 * cuEventElapsedTime at 2000.  cuda.h maps each old name to the new one,
 * so each is undefined here first and declared as cudaTypedefs.h gives
 * its PFN type for the old version.
 */
#include "cu_int.h"

#undef cuDeviceGetUuid
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    return cuDeviceGetUuid_v2(uuid, dev);
}

#undef cuDevicePrimaryCtxRelease
CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    return cuDevicePrimaryCtxRelease_v2(dev);
}

#undef cuDevicePrimaryCtxReset
CUresult cuDevicePrimaryCtxReset(CUdevice dev);
CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
    return cuDevicePrimaryCtxReset_v2(dev);
}

#undef cuDevicePrimaryCtxSetFlags
CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

/* CUDA 12.8's _v2 differs only in what it accepts (events recorded with
 * flags), which ptxsim takes either way. */
#undef cuEventElapsedTime
CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}

#undef cuCtxCreate_v2
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return cuCtxCreate_v4(pctx, NULL, flags, dev);
}
