/*
 * cudart_device.c -- the device, synchronisation and errors.
 *
 * ptxsim shows one device.  Every operation completes before its call
 * returns, so synchronisation only reports the sticky error.
 */
#include "rt_int.h"

#include <stdio.h>
#include <string.h>

static const struct { cudaError_t code; const char *name, *message; } error_table[] = {
#define RT_ERROR(name, msg) { name, #name, msg },
#include "errors.def"
#undef RT_ERROR
};

const char *cudaGetErrorString(cudaError_t error)
{
    for (size_t i = 0; i < sizeof error_table / sizeof error_table[0]; i++)
        if (error_table[i].code == error)
            return error_table[i].message;
    return "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t error)
{
    for (size_t i = 0; i < sizeof error_table / sizeof error_table[0]; i++)
        if (error_table[i].code == error)
            return error_table[i].name;
    return "cudaErrorUnknown";
}

cudaError_t cudaGetLastError(void)
{
    rt_lock();
    cudaError_t e = rt_last_error(true);
    rt_unlock();
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    rt_lock();
    cudaError_t e = rt_last_error(false);
    rt_unlock();
    return e;
}

cudaError_t cudaDeviceSynchronize(void)
{
    rt_lock();
    cudaError_t e = rt.sticky;
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return rt_set_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return rt_set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : rt_set_error(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceReset(void)
{
    rt_lock();
    rt.sticky = cudaSuccess;
    rt_unlock();
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return rt_set_error(cudaErrorInvalidValue);
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return rt_set_error(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}
