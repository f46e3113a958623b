/*
 * memory.c -- device memory: one reservation of the host address space.
 *
 *   [base, base + W)             shared window of the generic space (never mapped)
 *   [base + W, base + 2W)        local window (never mapped)
 *   [base + 2W, heap_lo)         the runtime's own device memory (RUNTIME_AREA)
 *   [heap_lo, base + cap)        the device heap: allocations, first fit
 *
 * The heap is reserved PROT_NONE and made read-write up to a high-water
 * mark as allocations need it, in steps of the GPU's 2 MiB mapping
 * granularity; the engine's bounds check is against that mark, so a wild
 * device pointer is reported, never a host SIGSEGV.  As on a GPU, an access
 * faults only outside mapped device memory: a read a little before the
 * first allocation lands in the runtime's own memory, an overrun past the
 * last one in the rest of its 2 MiB page (--check memory reports both).
 * Freed blocks stay in the table (marked dead) so a use after free can be
 * named.
 *
 * Kernels' malloc and free take from the device heap, one block of the
 * program's cudaLimitMallocHeapSize made at the first launch that may call
 * them -- before its warps start, so that what it maps is theirs to reach
 * -- and kept, as on a GPU.  Its own blocks (16-byte aligned, first fit)
 * are a second table of the same kind, which --check memory reads as it
 * reads the first.
 */
#include "exec_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HEAP_ALIGN 256          /* cudaMalloc's alignment */
/* A GPU maps device memory in 2 MiB pages, and its runtime allocates its
 * own buffers there before the program's first allocation: programs that
 * read a row before their first array run on a GPU. */
#define MAP_GRANULE (2ull << 20)
#define RUNTIME_AREA (2ull << 20)
#define DEVICE_BASE 0x200000000000ull   /* where device memory is reserved, if free */

/* A table of blocks, sorted by address; live and freed. */
typedef struct block_table {
    exec_alloc_info *v;
    uint32_t n, cap;
    /* Where first fit may start: no gap before block `hint` holds a request
     * of at least hint_bytes at alignment hint_align (in hint_skip's mode),
     * as the last fit found; a free clears it.  A module's 100,000
     * variables are as many allocations, each first fit from the start
     * otherwise. */
    uint32_t hint;
    uint64_t hint_bytes, hint_align;
    bool hint_skip;
} block_table;

struct exec_memory {
    uint8_t *base;
    uint64_t capacity;          /* bytes reserved, windows included */
    uint64_t heap_lo;           /* first heap address */
    uint64_t committed;         /* heap is read-write below this address */
    uint64_t in_use;
    bool keep_freed;            /* freed blocks' addresses are not reused */
    uint64_t serial;            /* the last block's (exec_alloc_info.serial) */
    block_table blocks;         /* the allocations */
    block_table reserved;       /* blocks of reserved addresses (the driver's cuMemAddressReserve) */
    block_table mapped;         /* ranges of reserved blocks mapped (cuMemMap): the only valid parts */
    /* The device heap: [heap_at, + heap_bytes) when made (heap_bytes > 0),
     * its blocks, and the bytes they hold. */
    uint64_t heap_at, heap_bytes, heap_used;
    block_table heap;
    isa_mem windows;
    exec_images *images;        /* texture and surface objects (image.c) */
};

exec_memory *exec_memory_new(uint64_t capacity)
{
    exec_memory *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    capacity = (capacity + 2 * ISA_WINDOW_BYTES + RUNTIME_AREA + 0xFFFF) & ~0xFFFFull;
    /* At the same address in every run where the kernel lets us, so device
     * addresses -- which the timing model's cache sets, partitions and DRAM
     * banks are computed from, and which programs print -- do not change
     * with address-space randomisation (two runs of histogram in timing
     * mode differed by 5 cycles in 4,671 without this).  32 TiB is above
     * AddressSanitizer's shadow and below where Linux puts mappings and
     * position-independent programs.  Elsewhere if that range is taken. */
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    void *p = MAP_FAILED;
#ifdef MAP_FIXED_NOREPLACE
    /* Reserved RUNTIME_AREA lower than DEVICE_BASE, so that the program's
     * allocations keep the addresses they had before the area existed. */
    uint64_t at = DEVICE_BASE - RUNTIME_AREA;
    p = mmap((void *)(uintptr_t)at, capacity, PROT_NONE, flags | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != MAP_FAILED && p != (void *)(uintptr_t)at) {
        munmap(p, capacity);    /* a kernel before 4.17 took it as a hint */
        p = MAP_FAILED;
    }
#endif
    if (p == MAP_FAILED)
        p = mmap(NULL, capacity, PROT_NONE, flags, -1, 0);
    if (p == MAP_FAILED) {
        free(m);
        return NULL;
    }
    m->base = p;
    m->capacity = capacity;
    uint64_t runtime_area = (uint64_t)(uintptr_t)p + 2 * ISA_WINDOW_BYTES;
    m->heap_lo = runtime_area + RUNTIME_AREA;
    if (mprotect((void *)(uintptr_t)runtime_area, RUNTIME_AREA, PROT_READ | PROT_WRITE) != 0) {
        munmap(p, capacity);
        free(m);
        return NULL;
    }
    m->committed = m->heap_lo;
    m->windows.shared_win = (uint64_t)(uintptr_t)p;
    m->windows.local_win = (uint64_t)(uintptr_t)p + ISA_WINDOW_BYTES;
    m->windows.global_lo = runtime_area;
    m->windows.global_hi = m->heap_lo;
    m->windows.image = exec_image_get;
    m->windows.image_ctx = m;
    return m;
}

void exec_memory_free(exec_memory *m)
{
    if (!m)
        return;
    munmap(m->base, m->capacity);
    exec_images_free(m->images);
    free(m->blocks.v);
    free(m->heap.v);
    free(m->reserved.v);
    free(m->mapped.v);
    free(m);
}

uint64_t exec_memory_capacity(const exec_memory *m)
{
    return m->capacity - 2 * ISA_WINDOW_BYTES - RUNTIME_AREA;
}
uint64_t exec_memory_end(const exec_memory *m) { return (uint64_t)(uintptr_t)m->base + m->capacity; }
uint64_t exec_memory_in_use(const exec_memory *m) { return m->in_use; }
const isa_mem *exec_memory_windows(const exec_memory *m) { return &m->windows; }
exec_images **exec_memory_images(exec_memory *m) { return &m->images; }

static bool commit_to(exec_memory *m, uint64_t end)
{
    if (end <= m->committed)
        return true;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t to = (end + page - 1) & ~(page - 1);
    /* Commit in the GPU's mapping granularity, which also keeps mprotect
     * calls rare. */
    to = (to + MAP_GRANULE - 1) & ~(MAP_GRANULE - 1);
    if (to > (uint64_t)(uintptr_t)m->base + m->capacity)
        to = (uint64_t)(uintptr_t)m->base + m->capacity;
    if (mprotect((void *)(uintptr_t)m->committed, to - m->committed, PROT_READ | PROT_WRITE) != 0)
        return false;
    m->committed = to;
    m->windows.global_hi = to;
    return true;
}

static bool insert_block(block_table *t, uint32_t at, exec_alloc_info b)
{
    if (t->n == t->cap) {
        uint32_t nc = t->cap ? t->cap * 2 : 64;
        exec_alloc_info *nb = realloc(t->v, nc * sizeof *nb);
        if (!nb)
            return false;
        t->v = nb;
        t->cap = nc;
    }
    memmove(&t->v[at + 1], &t->v[at], (t->n - at) * sizeof *t->v);
    t->v[at] = b;
    t->n++;
    return true;
}

void exec_memory_keep_freed(exec_memory *m, bool on) { m->keep_freed = on; }

/* First fit in table t among the gaps between its blocks in [lo, hi):
 * live ones only, or freed ones too (`skip_freed` false), so a freed block
 * keeps its address for as long as other space lasts.  The device's own
 * allocations (t is m->blocks) are mapped as they are made. */
static ptx_status fit(exec_memory *m, block_table *t, uint64_t lo, uint64_t hi, uint64_t bytes, uint64_t align,
                      bool skip_freed, uint64_t *out_addr)
{
    uint64_t want = bytes ? bytes : 1;
    uint64_t cursor = lo;
    uint32_t i = 0;
    int64_t last = -1;          /* the block cursor ends (the gap's left side), -1: lo */
    if (t->hint && t->hint <= t->n && t->hint_skip == skip_freed && want >= t->hint_bytes &&
        align >= t->hint_align && align % t->hint_align == 0) {
        i = t->hint;
        last = (int64_t)i - 1;
        uint64_t end = t->v[last].addr + (t->v[last].bytes ? t->v[last].bytes : 1);
        cursor = end > lo ? end : lo;
    }
    for (;; i++) {
        while (skip_freed && i < t->n && !t->v[i].live)
            i++;
        uint64_t gap_end = i < t->n ? t->v[i].addr : hi;
        uint64_t start = (cursor + align - 1) & ~(align - 1);
        if (start + want <= gap_end && start + want >= start) {
            if (t == &m->blocks && !commit_to(m, start + want))
                return PTX_E_OUT_OF_DEVICE_MEMORY;
            /* Drop the records of freed blocks this one overlaps: they lie
             * in the gap, between block `last` and block i. */
            uint32_t first = (uint32_t)(last + 1), k = first;
            for (uint32_t j = first; j < i; j++) {
                exec_alloc_info *f = &t->v[j];
                bool overlaps = !f->live && f->addr < start + want && start < f->addr + (f->bytes ? f->bytes : 1);
                if (!overlaps)
                    t->v[k++] = *f;
            }
            if (k < i) {
                memmove(&t->v[k], &t->v[i], (t->n - i) * sizeof *t->v);
                t->n -= i - k;
            }
            uint32_t at = first;
            while (at < t->n && t->v[at].addr < start)
                at++;
            if (!insert_block(t, at, (exec_alloc_info){ start, bytes, ++m->serial, true }))
                return PTX_E_NOMEM;
            t->hint = at + 1;
            t->hint_bytes = want;
            t->hint_align = align;
            t->hint_skip = skip_freed;
            *out_addr = start;
            return PTX_OK;
        }
        if (i >= t->n)
            return PTX_E_OUT_OF_DEVICE_MEMORY;
        uint64_t end = t->v[i].addr + (t->v[i].bytes ? t->v[i].bytes : 1);
        if (end > cursor) {
            cursor = end;
            last = i;
        }
    }
}

/* Freed blocks are only remembered, so their space is reused and their
 * record dropped -- unless a checker wants them kept to name a use after
 * free, and there is still room elsewhere. */
static ptx_status fit_keeping(exec_memory *m, block_table *t, uint64_t lo, uint64_t hi, uint64_t bytes,
                              uint64_t align, uint64_t *out_addr)
{
    if (m->keep_freed && fit(m, t, lo, hi, bytes, align, false, out_addr) == PTX_OK)
        return PTX_OK;
    return fit(m, t, lo, hi, bytes, align, true, out_addr);
}

ptx_status exec_malloc(exec_memory *m, uint64_t bytes, uint64_t align, uint64_t *out_addr)
{
    if (align < HEAP_ALIGN)
        align = HEAP_ALIGN;
    ptx_status st = fit_keeping(m, &m->blocks, m->heap_lo, (uint64_t)(uintptr_t)m->base + m->capacity, bytes,
                                align, out_addr);
    if (st != PTX_OK)
        return st;
    /* Fresh device memory reads as zero, as after a GPU reset. */
    memset((void *)(uintptr_t)*out_addr, 0, bytes ? bytes : 1);
    m->in_use += bytes;
    return PTX_OK;
}

/* The live block of t at addr, or NULL. */
static exec_alloc_info *live_at(block_table *t, uint64_t addr)
{
    /* The table is in address order: the first block at addr or after. */
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t i = lo; i < t->n && t->v[i].addr == addr; i++)
        if (t->v[i].live)
            return &t->v[i];
    return NULL;
}

static bool is_heap(const exec_memory *m, const exec_alloc_info *b)
{
    return m->heap_bytes && b->addr == m->heap_at && b->bytes == m->heap_bytes;
}

ptx_status exec_free(exec_memory *m, uint64_t addr)
{
    exec_alloc_info *b = live_at(&m->blocks, addr);
    if (!b || is_heap(m, b))    /* (the device heap is kept: its first block has its address) */
        return PTX_E_INVALID_VALUE;
    b->live = false;
    m->blocks.hint = 0;         /* (a gap opens) */
    m->in_use -= b->bytes;
    return PTX_OK;
}

/* ---- the device heap ------------------------------------------------------ */

ptx_status exec_heap_ready(exec_memory *m, uint64_t bytes)
{
    if (m->heap_bytes)
        return PTX_OK;
    uint64_t at;
    ptx_status st = exec_malloc(m, bytes ? bytes : 1, HEAP_ALIGN, &at);
    if (st != PTX_OK)
        return st;
    m->heap_at = at;
    m->heap_bytes = bytes ? bytes : 1;
    return PTX_OK;
}

bool exec_heap_made(const exec_memory *m) { return m->heap_bytes != 0; }

uint64_t exec_heap_malloc(exec_memory *m, uint64_t bytes)
{
    uint64_t at = 0;
    if (!m->heap_bytes || bytes > m->heap_bytes - m->heap_used ||
        fit_keeping(m, &m->heap, m->heap_at, m->heap_at + m->heap_bytes, bytes ? bytes : 1, 16, &at) != PTX_OK)
        return 0;
    m->heap_used += bytes;
    return at;
}

ptx_status exec_heap_free(exec_memory *m, uint64_t addr)
{
    exec_alloc_info *b = live_at(&m->heap, addr);
    if (!b)
        return PTX_E_INVALID_VALUE;
    b->live = false;
    m->heap.hint = 0;
    m->heap_used -= b->bytes;
    return PTX_OK;
}

/* ---- looking an address up ------------------------------------------------- */

/* The block of t holding addr (a live one first), or else the live block
 * nearest to it; false when t has none. */
static bool find_in(const block_table *t, uint64_t addr, exec_alloc_info *out)
{
    const exec_alloc_info *best = NULL;
    uint64_t best_dist = UINT64_MAX;
    for (uint32_t i = 0; i < t->n; i++) {
        const exec_alloc_info *b = &t->v[i];
        uint64_t end = b->addr + b->bytes;
        if (addr >= b->addr && addr < end && (b->live || !best)) {
            *out = *b;
            if (b->live)
                return true;
            best = b;
            best_dist = 0;
            continue;
        }
        uint64_t dist = addr < b->addr ? b->addr - addr : addr - end;
        if (dist < best_dist && b->live) {
            best = b;
            best_dist = dist;
        }
    }
    if (best)
        *out = *best;
    return best != NULL;
}

bool exec_memory_find(const exec_memory *m, uint64_t addr, exec_alloc_info *out)
{
    if (!find_in(&m->blocks, addr, out))
        return false;
    /* Inside the device heap: malloc's block there, if any. */
    exec_alloc_info in_heap;
    if (is_heap(m, out) && addr >= out->addr && addr < out->addr + out->bytes && find_in(&m->heap, addr, &in_heap))
        *out = in_heap;
    return true;
}

/* Whether [addr, addr + bytes) lies in one live block of t (binary search
 * on the sorted table); *in: that block. */
static bool valid_in(const block_table *t, uint64_t addr, uint64_t bytes, const exec_alloc_info **in)
{
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (t->v[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t i = lo; i-- > 0;) {
        const exec_alloc_info *b = &t->v[i];
        if (b->live) {
            *in = b;
            return addr + bytes <= b->addr + b->bytes && addr + bytes >= addr;
        }
        if (b->addr + b->bytes <= addr)
            break;
    }
    return false;
}

/* The index of table t's entry at addr, or t->n. */
static uint32_t entry_at(const block_table *t, uint64_t addr)
{
    uint32_t i = 0;
    while (i < t->n && t->v[i].addr != addr)
        i++;
    return i;
}

/* Add [addr, addr + bytes) to table t, in address order, or take it out. */
static ptx_status table_set(block_table *t, uint64_t addr, uint64_t bytes, bool on)
{
    uint32_t i = entry_at(t, addr);
    if (!on) {
        if (i == t->n)
            return PTX_E_INVALID_VALUE;
        memmove(&t->v[i], &t->v[i + 1], (t->n - i - 1) * sizeof *t->v);
        t->n--;
        return PTX_OK;
    }
    uint32_t at = 0;
    while (at < t->n && t->v[at].addr < addr)
        at++;
    return insert_block(t, at, (exec_alloc_info){ addr, bytes, 0, true }) ? PTX_OK : PTX_E_NOMEM;
}

/* Whether [addr, addr + bytes) lies in the ranges of t (in address order),
 * one ending where the next begins. */
static bool mapped_span(const block_table *t, uint64_t addr, uint64_t bytes)
{
    uint64_t end = addr + (bytes ? bytes : 1);
    for (uint32_t i = 0; i < t->n; i++) {
        const exec_alloc_info *r = &t->v[i];
        if (addr < r->addr || addr >= r->addr + r->bytes)
            continue;
        uint64_t reach = r->addr + r->bytes;
        for (uint32_t k = i + 1; reach < end && k < t->n && t->v[k].addr == reach; k++)
            reach += t->v[k].bytes;
        return end <= reach && end > addr;
    }
    return false;
}

ptx_status exec_memory_reserve(exec_memory *m, uint64_t addr, bool on)
{
    const exec_alloc_info *b = live_at(&m->blocks, addr);
    if (on && !b)
        return PTX_E_INVALID_VALUE;
    return table_set(&m->reserved, addr, b ? b->bytes : 0, on);
}

ptx_status exec_memory_map(exec_memory *m, uint64_t addr, uint64_t bytes, bool on)
{
    return table_set(&m->mapped, addr, bytes, on);
}

bool exec_memory_valid(const exec_memory *m, uint64_t addr, uint64_t bytes)
{
    const exec_alloc_info *b;
    if (!valid_in(&m->blocks, addr, bytes, &b))
        return false;
    /* Reserved addresses: valid where mapped, across mappings side by side. */
    if (m->reserved.n && entry_at(&m->reserved, b->addr) < m->reserved.n)
        return mapped_span(&m->mapped, addr, bytes);
    return !is_heap(m, b) || valid_in(&m->heap, addr, bytes, &b);    /* in the heap: in malloc's block */
}

bool exec_memory_check(const void *m, uint64_t addr, uint64_t bytes)
{
    return exec_memory_valid(m, addr, bytes);
}
