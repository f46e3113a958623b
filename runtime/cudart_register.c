/*
 * cudart_register.c -- the entry points compiler-generated host code calls
 * before main() to register a program's fat binaries, kernels and variables
 * (crt/host_runtime.h documents them).  The records live in the core
 * (rt_module.c); the handle host code keeps is the module record itself.
 */
#include "cudart_entry.h"
#include "rt_int.h"

void **__cudaRegisterFatBinary(void *fatCubin)
{
    return (void **)rt_module_register(fatCubin);
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    rt_module_register_end((rt_module *)fatCubinHandle);
}

void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    /* Modules stay loaded until the process ends: kernels registered from
     * other modules may still be launched by destructors. */
    (void)fatCubinHandle;
}

char __cudaInitModule(void **fatCubinHandle)
{
    /* nvcc's host code calls this before it first touches a __managed__
     * variable, which then reads the pointer set here. */
    return rt_module_init((rt_module *)fatCubinHandle) ? 1 : 0;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun; (void)thread_limit; (void)tid; (void)bid; (void)bDim; (void)gDim; (void)wSize;
    rt_func_register((rt_module *)fatCubinHandle, hostFun, deviceName);
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress; (void)ext; (void)constant; (void)global;
    rt_var_register((rt_module *)fatCubinHandle, hostVar, deviceName, size, NULL);
}

void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress; (void)ext; (void)constant; (void)global;
    /* Host code reaches a __managed__ variable through *hostVarPtrAddress,
     * which loading the module points at the variable's device storage. */
    rt_var_register((rt_module *)fatCubinHandle, hostVarPtrAddress, deviceName, size,
                    hostVarPtrAddress);
}
