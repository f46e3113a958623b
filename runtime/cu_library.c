/*
 * cu_library.c -- the driver API's context-independent libraries
 * (cuLibrary*, cuKernel*), as CUDA 12's and 13's runtimes load a program's
 * fat binaries with them: a CUlibrary is a driver-loaded module, and a
 * CUkernel is the same kernel record a CUfunction is, so each works where
 * the other is expected (cuLaunchKernel takes a CUkernel cast to
 * CUfunction, as CUDA allows).
 */
#include "cu_int.h"

CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                           void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions,
                           void **libraryOptionValues, unsigned int numLibraryOptions)
{
    CU_ENTER(false);
    /* JIT options tune ptxas, which ptxsim does not run; the library
     * options ask for the code to be kept or not, which it always is.
     * CU_LIBRARY_BINARY_IS_PRESERVED takes no value: cuBLASLt passes it
     * with no array of values. */
    if (!library || !code || (numJitOptions && (!jitOptions || !jitOptionsValues)) ||
        (numLibraryOptions && !libraryOptions))
        return CUDA_ERROR_INVALID_VALUE;
    rt_module *m = NULL;
    cudaError_t e = rt_module_load_image(code, __builtin_return_address(0), &m);
    if (e == cudaSuccess)
        *library = (CUlibrary)m;
    rt_cu_jit_outputs(numJitOptions, jitOptions, jitOptionsValues, e == cudaSuccess ? NULL : rt_module_load_log());
    return rt_cu_result(e);
}

CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                               void **jitOptionsValues, unsigned int numJitOptions,
                               CUlibraryOption *libraryOptions, void **libraryOptionValues,
                               unsigned int numLibraryOptions)
{
    CU_ENTER(false);
    if (!library || !fileName || (numJitOptions && (!jitOptions || !jitOptionsValues)) ||
        (numLibraryOptions && !libraryOptions))
        return CUDA_ERROR_INVALID_VALUE;
    rt_module *m = NULL;
    cudaError_t e = rt_module_load_file(fileName, &m);
    if (e == cudaSuccess)
        *library = (CUlibrary)m;
    return rt_cu_result(e);
}

CUresult cuLibraryUnload(CUlibrary library)
{
    CU_ENTER(false);
    return rt_cu_result(rt_module_unload((rt_module *)library));
}

CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    CU_ENTER(true);
    if (!pMod)
        return CUDA_ERROR_INVALID_VALUE;
    if (!rt_module_valid((rt_module *)library))
        return CUDA_ERROR_INVALID_HANDLE;
    *pMod = (CUmodule)library;
    return CUDA_SUCCESS;
}

CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    CU_ENTER(false);
    if (!pKernel || !name)
        return CUDA_ERROR_INVALID_VALUE;
    rt_func *f = NULL;
    cudaError_t e = rt_module_function((rt_module *)library, name, &f);
    if (e == cudaSuccess)
        *pKernel = (CUkernel)f;
    return rt_cu_result(e);
}

CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
    CU_ENTER(false);
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    if (!rt_module_valid((rt_module *)lib))
        return CUDA_ERROR_INVALID_HANDLE;
    *count = ((rt_module *)lib)->nfuncs;
    return CUDA_SUCCESS;
}

CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib)
{
    CU_ENTER(false);
    rt_module *m = (rt_module *)lib;
    if (!kernels)
        return CUDA_ERROR_INVALID_VALUE;
    if (!rt_module_valid(m))
        return CUDA_ERROR_INVALID_HANDLE;
    if (numKernels != m->nfuncs)
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < numKernels; i++) {
        rt_func *f = NULL;
        cudaError_t e = rt_module_function(m, exec_program_kernel_info(m->prog, (int)i)->name, &f);
        if (e != cudaSuccess)
            return rt_cu_result(e);
        kernels[i] = (CUkernel)f;
    }
    return CUDA_SUCCESS;
}

CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    CU_ENTER(false);
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t addr = 0;
    size_t n = 0;
    cudaError_t e = rt_module_global((rt_module *)library, name, &addr, &n);
    if (e == cudaSuccess) {
        if (dptr)
            *dptr = (CUdeviceptr)addr;
        if (bytes)
            *bytes = n;
    }
    return rt_cu_result(e);
}

/* A __managed__ variable lives in device memory, which the host reaches at
 * the same address, so it is looked up as any global. */
CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    return cuLibraryGetGlobal(dptr, bytes, library, name);
}

CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    CU_ENTER(true);
    if (!pFunc)
        return CUDA_ERROR_INVALID_VALUE;
    if (!rt_cu_func(kernel))
        return CUDA_ERROR_INVALID_HANDLE;
    *pFunc = (CUfunction)kernel;
    return CUDA_SUCCESS;
}

CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    CU_ENTER(false);
    if (!pLib)
        return CUDA_ERROR_INVALID_VALUE;
    rt_func *f = rt_cu_func(kernel);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    *pLib = (CUlibrary)f->mod;
    return CUDA_SUCCESS;
}

CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
    return cuFuncGetName(name, (CUfunction)hfunc);
}

/* One device: the attribute calls take dev only to check it. */
CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncGetAttribute(pi, attrib, (CUfunction)kernel);
}

CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetAttribute((CUfunction)kernel, attrib, val);
}

CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetCacheConfig((CUfunction)kernel, config);
}

CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    return cuFuncGetParamInfo((CUfunction)kernel, paramIndex, paramOffset, paramSize);
}
