/*
 * cu_peer.c -- the driver API's peer and PCI queries for ptxsim's one
 * device: libraries ask them while setting up (CuPy's and Numba's device
 * objects, cuda.core's Device) even with a single GPU.
 *
 * There is no other device, so no pair of devices can access each other:
 * a device is never its own peer (cuDeviceCanAccessPeer answers 0, as
 * CUDA does for dev == peerDev), enabling access to a context's own
 * device is CUDA_ERROR_INVALID_DEVICE, and P2P attributes, which need two
 * different devices, are CUDA_ERROR_INVALID_DEVICE.  The PCI address is
 * the one cudaDevAttrPci*Id report (domain, bus and device 0).
 */
#include "cu_int.h"

#include <stdio.h>

CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    CU_ENTER(false);
    if (!canAccessPeer)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0 || peerDev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *canAccessPeer = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice, CUdevice dstDevice)
{
    CU_ENTER(false);
    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    /* Both must be devices and differ: with one device, no pair does. */
    return CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
    CU_ENTER(true);
    if (Flags)
        return CUDA_ERROR_INVALID_VALUE;
    if (!peerContext || !rt_ctx_valid((rt_ctx *)peerContext))
        return CUDA_ERROR_INVALID_CONTEXT;
    return CUDA_ERROR_INVALID_DEVICE;   /* the peer's device is this one */
}

CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
{
    CU_ENTER(true);
    if (!peerContext || !rt_ctx_valid((rt_ctx *)peerContext))
        return CUDA_ERROR_INVALID_CONTEXT;
    return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

static void pci_address(int *domain, int *bus, int *device)
{
    rt_device_attribute(cudaDevAttrPciDomainId, domain);
    rt_device_attribute(cudaDevAttrPciBusId, bus);
    rt_device_attribute(cudaDevAttrPciDeviceId, device);
}

/* "domain:bus:device.function" in hexadecimal, as CUDA writes it. */
CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    CU_ENTER(false);
    if (!pciBusId || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    int domain = 0, bus = 0, device = 0;
    pci_address(&domain, &bus, &device);
    snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", (unsigned)domain, (unsigned)bus, (unsigned)device);
    return CUDA_SUCCESS;
}

/* Accepts "domain:bus:device.function", "domain:bus:device" and
 * "bus:device.function", as cuda.h documents. */
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    CU_ENTER(false);
    if (!dev || !pciBusId)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned d = 0, b = 0, s = 0, f = 0;
    int n = 0;
    bool ok = (sscanf(pciBusId, "%x:%x:%x.%x%n", &d, &b, &s, &f, &n) == 4 && !pciBusId[n]) ||
              (n = 0, sscanf(pciBusId, "%x:%x:%x%n", &d, &b, &s, &n) == 3 && !pciBusId[n]) ||
              (n = 0, d = 0, sscanf(pciBusId, "%x:%x.%x%n", &b, &s, &f, &n) == 3 && !pciBusId[n]);
    if (!ok)
        return CUDA_ERROR_INVALID_VALUE;
    int domain = 0, bus = 0, device = 0;
    pci_address(&domain, &bus, &device);
    if (d != (unsigned)domain || b != (unsigned)bus || s != (unsigned)device)
        return CUDA_ERROR_INVALID_DEVICE;
    *dev = 0;
    return CUDA_SUCCESS;
}
