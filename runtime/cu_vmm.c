/*
 * cu_vmm.c -- the driver's virtual memory management: address ranges
 * reserved (cuMemAddressReserve), physical allocations made apart from
 * any address (cuMemCreate), mapped into a range and out of it (cuMemMap,
 * cuMemUnmap), with access set per range (cuMemSetAccess).
 *
 * A device address is a host address in ptxsim (exec/memory.c), so this
 * is the host's own virtual memory: a reservation is a block of device
 * memory aligned to the granularity, a physical allocation is a memory file
 * (memfd), and mapping one maps the file's pages over the reservation's
 * (MAP_SHARED | MAP_FIXED).  The same allocation mapped at two addresses
 * is the same memory at both, and keeps its contents while unmapped, as
 * on a GPU.  Unmapped, a range gets fresh zero pages back, and is invalid
 * to copies and to --check memory (exec_memory_map); a kernel run without
 * the check reads the zeros.  The access flags are kept and reported but
 * not enforced.  IPC handles (cuMemExportToShareableHandle) are not
 * implemented: a handle type other than none is refused.
 */
#define _GNU_SOURCE
#include "cu_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The granularity of reservations, allocations and mappings: a GPU's 2 MiB. */
#define VMM_GRANULE (2ull << 20)

enum { PHYS_MAGIC = 0x50687973 };

/* A physical allocation (cuMemCreate): its pages, and who holds it. */
typedef struct phys {
    uint32_t magic;             /* PHYS_MAGIC while live */
    int fd;                     /* the memory file */
    size_t bytes;
    CUmemAllocationProp prop;
    uint32_t refs;              /* its handle until cuMemRelease, each mapping, each retained handle */
} phys;

/* One mapping of a physical allocation into a reservation. */
typedef struct mapping {
    uint64_t addr;
    size_t bytes;
    phys *p;
    unsigned long long access;  /* CUmemAccess_flags for the device (cuMemSetAccess) */
} mapping;

/* A reserved range and its mappings. */
typedef struct reservation {
    uint64_t addr;
    size_t bytes;
    mapping *maps;
    uint32_t nmaps, cap;
} reservation;

static rt_ptrmap physs;         /* live allocation handles */
static reservation *resv;       /* the reservations */
static uint32_t nresv, capresv;

/* Room for one more of n elements of `size` bytes in *arr. */
static bool grow(void **arr, uint32_t *cap, uint32_t n, size_t size)
{
    if (n < *cap)
        return true;
    uint32_t nc = *cap ? *cap * 2 : 8;
    void *a = realloc(*arr, nc * size);
    if (!a)
        return false;
    *arr = a;
    *cap = nc;
    return true;
}

static phys *phys_live(CUmemGenericAllocationHandle h)
{
    phys *p = h ? rt_ptrmap_get(&physs, (const void *)(uintptr_t)h) : NULL;
    return p && p->magic == PHYS_MAGIC ? p : NULL;
}

static void phys_drop(phys *p)
{
    if (--p->refs)
        return;
    rt_ptrmap_del(&physs, p);
    close(p->fd);
    p->magic = 0;
    free(p);
}

/* The reservation holding [addr, addr + bytes), if one does. */
static reservation *reservation_of(uint64_t addr, size_t bytes)
{
    for (uint32_t i = 0; i < nresv; i++)
        if (addr >= resv[i].addr && addr - resv[i].addr < resv[i].bytes && bytes <= resv[i].bytes - (addr - resv[i].addr))
            return &resv[i];
    return NULL;
}

/* Fresh private zero pages over [addr, addr + bytes): unmapped again. */
static bool anonymous(uint64_t addr, size_t bytes)
{
    return mmap((void *)(uintptr_t)addr, bytes, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) != MAP_FAILED;
}

static bool granular(uint64_t v)
{
    return v % VMM_GRANULE == 0;
}

static CUresult check_prop(const CUmemAllocationProp *prop)
{
    if (!prop || prop->type != CU_MEM_ALLOCATION_TYPE_PINNED || prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    if (prop->location.id != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (prop->requestedHandleTypes != CU_MEM_HANDLE_TYPE_NONE) {
        rt_say("cuMemCreate: shareable handles (for IPC) are not implemented by ptxsim");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                       CUmemAllocationGranularity_flags option)
{
    CU_ENTER(false);
    if (!granularity || (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = check_prop(prop);
    if (r == CUDA_SUCCESS)
        *granularity = VMM_GRANULE;
    return r;
}

CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                             unsigned long long flags)
{
    CU_ENTER(true);
    /* (addr is a hint, which ptxsim's allocator does not take.) */
    (void)addr;
    if (!ptr || !size || !granular(size) || flags || (alignment & (alignment - 1)))
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t at = 0;
    cudaError_t e = rt_mem_reserve(size, alignment > VMM_GRANULE ? alignment : VMM_GRANULE, &at);
    if (e != cudaSuccess)
        return rt_cu_result(e);
    rt_lock();
    bool ok = grow((void **)&resv, &capresv, nresv, sizeof *resv);
    if (ok)
        resv[nresv++] = (reservation){ .addr = at, .bytes = size };
    rt_unlock();
    if (!ok) {
        rt_mem_free((void *)(uintptr_t)at, RT_KIND(RT_MEM_VMM));
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *ptr = (CUdeviceptr)at;
    return CUDA_SUCCESS;
}

CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    CU_ENTER(true);
    rt_lock();
    reservation *r = reservation_of(ptr, size);
    if (!r || r->addr != ptr || r->bytes != size) {
        rt_unlock();
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* What is still mapped goes with the range. */
    for (uint32_t i = 0; i < r->nmaps; i++) {
        exec_memory_map(rt.mem, r->maps[i].addr, r->maps[i].bytes, false);
        phys_drop(r->maps[i].p);
    }
    free(r->maps);
    bool ok = anonymous(r->addr, r->bytes);
    *r = resv[--nresv];
    rt_unlock();
    cudaError_t e = rt_mem_free((void *)(uintptr_t)ptr, RT_KIND(RT_MEM_VMM));
    return ok ? rt_cu_result(e) : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                     unsigned long long flags)
{
    CU_ENTER(true);
    if (!handle || !size || !granular(size) || flags)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = check_prop(prop);
    if (r != CUDA_SUCCESS)
        return r;
    phys *p = calloc(1, sizeof *p);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    p->fd = memfd_create("ptxsim-device-memory", MFD_CLOEXEC);
    if (p->fd < 0 || ftruncate(p->fd, (off_t)size) != 0) {
        if (p->fd >= 0)
            close(p->fd);
        free(p);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    p->magic = PHYS_MAGIC;
    p->bytes = size;
    p->prop = *prop;
    p->refs = 1;
    rt_lock();
    bool ok = rt_ptrmap_put(&physs, p, p);
    rt_unlock();
    if (!ok) {
        close(p->fd);
        free(p);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
    CU_ENTER(false);
    rt_lock();
    phys *p = phys_live(handle);
    if (p)
        phys_drop(p);           /* its pages stay while mapped */
    rt_unlock();
    return p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                  unsigned long long flags)
{
    CU_ENTER(true);
    if (!size || !granular(ptr) || !granular(size) || offset || flags)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    phys *p = phys_live(handle);
    reservation *r = reservation_of(ptr, size);
    CUresult res = p && r && size <= p->bytes ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    /* Only where nothing is mapped yet. */
    for (uint32_t i = 0; res == CUDA_SUCCESS && i < r->nmaps; i++)
        if (ptr < r->maps[i].addr + r->maps[i].bytes && r->maps[i].addr < ptr + size)
            res = CUDA_ERROR_INVALID_VALUE;
    if (res == CUDA_SUCCESS && !grow((void **)&r->maps, &r->cap, r->nmaps, sizeof *r->maps))
        res = CUDA_ERROR_OUT_OF_MEMORY;
    if (res == CUDA_SUCCESS && mmap((void *)(uintptr_t)ptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                                    p->fd, 0) == MAP_FAILED)
        res = CUDA_ERROR_OUT_OF_MEMORY;
    if (res == CUDA_SUCCESS && exec_memory_map(rt.mem, ptr, size, true) != PTX_OK)
        res = CUDA_ERROR_OUT_OF_MEMORY;
    if (res == CUDA_SUCCESS) {
        r->maps[r->nmaps++] = (mapping){ ptr, size, p, 0 };
        p->refs++;
    }
    rt_unlock();
    return res;
}

CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    CU_ENTER(true);
    rt_lock();
    reservation *r = size ? reservation_of(ptr, size) : NULL;
    CUresult res = r ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    /* Whole mappings only, and the range made of them. */
    size_t covered = 0;
    for (uint32_t i = 0; res == CUDA_SUCCESS && i < r->nmaps; i++) {
        const mapping *m = &r->maps[i];
        if (ptr < m->addr + m->bytes && m->addr < ptr + size) {
            if (m->addr < ptr || m->addr + m->bytes > ptr + size)
                res = CUDA_ERROR_INVALID_VALUE;
            covered += m->bytes;
        }
    }
    if (res == CUDA_SUCCESS && covered != size)
        res = CUDA_ERROR_INVALID_VALUE;
    if (res == CUDA_SUCCESS && !anonymous(ptr, size))
        res = CUDA_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; res == CUDA_SUCCESS && i < r->nmaps;) {
        if (r->maps[i].addr >= ptr && r->maps[i].addr < ptr + size) {
            exec_memory_map(rt.mem, r->maps[i].addr, r->maps[i].bytes, false);
            phys_drop(r->maps[i].p);
            r->maps[i] = r->maps[--r->nmaps];
        } else {
            i++;
        }
    }
    rt_unlock();
    return res;
}

CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
    CU_ENTER(true);
    if (!size || !desc || !count)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned long long flags = 0;
    for (size_t i = 0; i < count; i++) {
        if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
            (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
             desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE))
            return CUDA_ERROR_INVALID_VALUE;
        if (desc[i].location.id != 0)
            return CUDA_ERROR_INVALID_DEVICE;
        flags = desc[i].flags;
    }
    rt_lock();
    reservation *r = reservation_of(ptr, size);
    /* Every byte mapped: valid memory to the engine (exec_memory_map). */
    CUresult res = r && exec_memory_valid(rt.mem, ptr, size) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    for (uint32_t i = 0; res == CUDA_SUCCESS && i < r->nmaps; i++)
        if (ptr < r->maps[i].addr + r->maps[i].bytes && r->maps[i].addr < ptr + size)
            r->maps[i].access = flags;
    rt_unlock();
    return res;
}

/* The mapping holding addr (the lock held). */
static mapping *mapping_at(uint64_t addr)
{
    reservation *r = reservation_of(addr, 1);
    for (uint32_t i = 0; r && i < r->nmaps; i++)
        if (addr >= r->maps[i].addr && addr - r->maps[i].addr < r->maps[i].bytes)
            return &r->maps[i];
    return NULL;
}

CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr)
{
    CU_ENTER(true);
    if (!flags || !location || location->type != CU_MEM_LOCATION_TYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    if (location->id != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    rt_lock();
    mapping *m = mapping_at(ptr);
    if (m)
        *flags = m->access;
    rt_unlock();
    return m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
    CU_ENTER(true);
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    mapping *m = mapping_at((uint64_t)(uintptr_t)addr);
    if (m) {
        m->p->refs++;           /* released by the caller's cuMemRelease */
        *handle = (CUmemGenericAllocationHandle)(uintptr_t)m->p;
    }
    rt_unlock();
    return m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
    CU_ENTER(false);
    if (!prop)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    phys *p = phys_live(handle);
    if (p)
        *prop = p->prop;
    rt_unlock();
    return p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

void rt_vmm_reset(void)
{
    rt_lock();
    for (uint32_t i = 0; i < nresv; i++) {
        for (uint32_t k = 0; k < resv[i].nmaps; k++) {
            exec_memory_map(rt.mem, resv[i].maps[k].addr, resv[i].maps[k].bytes, false);
            phys_drop(resv[i].maps[k].p);
        }
        free(resv[i].maps);
        anonymous(resv[i].addr, resv[i].bytes);
    }
    nresv = 0;
    /* Handles the program never released. */
    for (uint32_t i = 0; i < physs.cap; i++) {
        phys *p = rt_ptrmap_slot(&physs, i);
        if (p) {
            close(p->fd);
            p->magic = 0;
            free(p);
        }
    }
    rt_ptrmap_free(&physs);
    rt_unlock();
}
