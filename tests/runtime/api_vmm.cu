/*
 * api_vmm -- the driver's virtual memory management, as growable buffers
 * and allocators use it: address ranges reserved, physical allocations
 * made and mapped into them side by side, access set, a kernel over the
 * whole range; one allocation mapped at two addresses (the same memory),
 * contents kept across unmap and map, handles retained from an address and
 * released before unmapping; and misuse: unaligned or overlapping maps,
 * partial unmaps, copies from unmapped addresses, cudaFree of a range.
 */
#include "rt_test.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

#define CU_EXPECT(call, want)                                                                   \
    do {                                                                                        \
        CUresult got_ = (call), want_ = (want);                                                 \
        if (got_ != want_) {                                                                    \
            std::printf("FAIL %s: %s:%d: %s returned %d, expected %d\n", test_name, __FILE__,   \
                        __LINE__, #call, (int)got_, (int)want_);                                \
            test_failures++;                                                                    \
        }                                                                                       \
    } while (0)
#define CU_OK(call) CU_EXPECT(call, CUDA_SUCCESS)

__global__ void fill(unsigned *p, size_t n, unsigned base)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = base + (unsigned)i;
}

static CUmemAllocationProp device_prop(void)
{
    CUmemAllocationProp p = {};
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    return p;
}

static void set_rw(CUdeviceptr at, size_t bytes)
{
    CUmemAccessDesc a = {};
    a.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    a.location.id = 0;
    a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CU_OK(cuMemSetAccess(at, bytes, &a, 1));
}

static bool holds(CUdeviceptr at, size_t words, unsigned base)
{
    std::vector<unsigned> h(words);
    if (cudaMemcpy(h.data(), (void *)at, words * 4, cudaMemcpyDeviceToHost) != cudaSuccess)
        return false;
    for (size_t i = 0; i < words; i++)
        if (h[i] != base + (unsigned)i)
            return false;
    return true;
}

__global__ void read_one(const unsigned *p, unsigned *out)
{
    *out = *p;
}

/* Run with --check memory: a kernel reading reserved addresses with
 * nothing mapped there faults, as on a GPU. */
static int unmapped_read(void)
{
    OK(cudaFree(0));                    /* the runtime's context, current */
    CUmemAllocationProp prop = device_prop();
    size_t g = 0;
    CU_OK(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUdeviceptr va;
    CU_OK(cuMemAddressReserve(&va, g, 0, 0, 0));
    unsigned *out;
    OK(cudaMalloc(&out, sizeof *out));
    read_one<<<1, 1>>>((const unsigned *)va, out);
    EXPECT(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    return finish();
}

int main(int argc, char **argv)
{
    test_name = "api_vmm";
    if (argc > 1 && std::strcmp(argv[1], "unmapped-read") == 0)
        return unmapped_read();
    OK(cudaFree(0));                    /* the runtime's context, current */
    CUdevice dev;
    CU_OK(cuDeviceGet(&dev, 0));
    int vmm = 0;
    CU_OK(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
    EXPECT(vmm == 1);
    CUmemAllocationProp prop = device_prop();
    size_t g = 0;
    CU_OK(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    EXPECT(g >= 4096 && (g & (g - 1)) == 0);

    /* A range of three granules backed by two allocations side by side. */
    CUdeviceptr va;
    CU_OK(cuMemAddressReserve(&va, 3 * g, 0, 0, 0));
    EXPECT(va % g == 0);
    CUmemGenericAllocationHandle a, b;
    CU_OK(cuMemCreate(&a, g, &prop, 0));
    CU_OK(cuMemCreate(&b, 2 * g, &prop, 0));
    CU_OK(cuMemMap(va, g, 0, a, 0));
    CU_OK(cuMemMap(va + g, 2 * g, 0, b, 0));
    set_rw(va, 3 * g);
    unsigned long long flags = 0;
    CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    CU_OK(cuMemGetAccess(&flags, &loc, va + g + 64));
    EXPECT(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    size_t words = 3 * g / 4;
    fill<<<64, 256>>>((unsigned *)va, words, 7);
    OK(cudaDeviceSynchronize());
    EXPECT(holds(va, words, 7));

    /* Allocation a mapped again elsewhere: the same memory. */
    CUdeviceptr alias;
    CU_OK(cuMemAddressReserve(&alias, g, 0, 0, 0));
    CU_OK(cuMemMap(alias, g, 0, a, 0));
    set_rw(alias, g);
    EXPECT(holds(alias, g / 4, 7));
    fill<<<16, 256>>>((unsigned *)alias, g / 4, 1000);
    OK(cudaDeviceSynchronize());
    EXPECT(holds(va, g / 4, 1000));

    /* The handle, from an address; released, the memory stays mapped. */
    CUmemGenericAllocationHandle back;
    CU_OK(cuMemRetainAllocationHandle(&back, (void *)(va + g + 8)));
    EXPECT(back == b);
    CU_OK(cuMemRelease(back));
    CUmemAllocationProp got = {};
    CU_OK(cuMemGetAllocationPropertiesFromHandle(&got, b));
    EXPECT(got.type == CU_MEM_ALLOCATION_TYPE_PINNED && got.location.id == 0);
    CU_OK(cuMemRelease(b));
    EXPECT(holds(va + g, 2 * g / 4, 7 + (unsigned)(g / 4)));

    /* Misuse. */
    CU_EXPECT(cuMemMap(va + 4096, g, 0, a, 0), CUDA_ERROR_INVALID_VALUE);        /* unaligned */
    CU_EXPECT(cuMemMap(va, g, 0, a, 0), CUDA_ERROR_INVALID_VALUE);               /* mapped already */
    CU_EXPECT(cuMemUnmap(va + g, g), CUDA_ERROR_INVALID_VALUE);                  /* half of b's mapping */
    CU_EXPECT(cuMemAddressFree(va, g), CUDA_ERROR_INVALID_VALUE);                /* not the reserved size */
    EXPECT_MISUSE(cudaFree((void *)va), cudaErrorInvalidValue);                 /* not cudaMalloc's */
    CUmemAllocationProp shared = device_prop();
    shared.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUmemGenericAllocationHandle c;
    CU_EXPECT(cuMemCreate(&c, g, &shared, 0), CUDA_ERROR_NOT_SUPPORTED);
    CU_EXPECT(cuMemCreate(&c, g + 1, &prop, 0), CUDA_ERROR_INVALID_VALUE);

    /* Unmapped, the range holds nothing; a's contents wait for a new map. */
    CU_OK(cuMemUnmap(va, 3 * g));
    std::vector<unsigned> h(4);
    EXPECT_MISUSE(cudaMemcpy(h.data(), (void *)va, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    CU_OK(cuMemUnmap(alias, g));
    CU_OK(cuMemMap(va + 2 * g, g, 0, a, 0));
    set_rw(va + 2 * g, g);
    EXPECT(holds(va + 2 * g, g / 4, 1000));
    CU_OK(cuMemRelease(a));
    CU_OK(cuMemUnmap(va + 2 * g, g));
    CU_EXPECT(cuMemRelease(a), CUDA_ERROR_INVALID_VALUE);                       /* gone */
    CU_OK(cuMemAddressFree(alias, g));
    CU_OK(cuMemAddressFree(va, 3 * g));
    return finish();
}
