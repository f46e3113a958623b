/*
 * virtual_calls -- calls whose target is known only at run time:
 *   - a C++ class hierarchy with virtual functions, whose objects a kernel
 *     constructs with placement new (so their vtable pointers point at the
 *     device's vtables), called from another kernel where the lanes of one
 *     warp hold objects of different classes;
 *   - objects whose virtual functions call other objects' virtual functions
 *     (a chain of chains), so virtual calls nest four deep;
 *   - a table of device function pointers in a __device__ array initialised
 *     statically, indexed by data, so lanes call different functions;
 *   - a class template (Scale<K>) in the hierarchy, and a function template
 *     (fold<F>) over the operation;
 *   - a recursive device function with two recursive calls per level.
 * Shared memory and __syncthreads() after the calls check that each warp
 * came back together.  Integer arithmetic, checked exactly against the same
 * code run on the host (host objects with host vtables, a host table).
 */
#include "sample.h"

#include <new>

#define BLOCK 128
#define NOBJ 12
#define SLOT 64         /* bytes per object in the pool (the largest is 24) */

/* Not abstract: clang's vtable for a pure virtual function holds
 * __cxa_pure_virtual, which no device library defines. */
struct Op {
    __host__ __device__ virtual unsigned apply(unsigned x) const { return x; }
    __host__ __device__ virtual unsigned weight() const { return 1; }
};

struct Add : Op {
    unsigned k;
    __host__ __device__ explicit Add(unsigned k) : k(k) {}
    __host__ __device__ unsigned apply(unsigned x) const override { return x + k; }
};

struct Mul : Op {
    unsigned k;
    __host__ __device__ explicit Mul(unsigned k) : k(k) {}
    __host__ __device__ unsigned apply(unsigned x) const override { return (x * k) | 1u; }
    __host__ __device__ unsigned weight() const override { return 2; }
};

struct Rot : Op {
    unsigned r;         /* 1 to 31 */
    __host__ __device__ explicit Rot(unsigned r) : r(r) {}
    __host__ __device__ unsigned apply(unsigned x) const override { return (x << r) | (x >> (32 - r)); }
    __host__ __device__ unsigned weight() const override { return r; }
};

template <unsigned K>
struct Scale : Op {
    __host__ __device__ unsigned apply(unsigned x) const override { return x * K + K; }
    __host__ __device__ unsigned weight() const override { return K; }
};

/* b(a(x)): virtual calls inside a virtual call, to objects that may be
 * chains themselves. */
struct Chain : Op {
    const Op *a, *b;
    __host__ __device__ Chain(const Op *a, const Op *b) : a(a), b(b) {}
    __host__ __device__ unsigned apply(unsigned x) const override { return b->apply(a->apply(x)); }
    __host__ __device__ unsigned weight() const override { return a->weight() + 3 * b->weight(); }
};

__host__ __device__ static const Op *object(const unsigned char *pool, int i)
{
    return reinterpret_cast<const Op *>(pool + i * SLOT);
}

/* Object i of the pool, built in place (on the device by a kernel, on the
 * host for the reference).  Chains only hold their parts' addresses, so the
 * objects may be built in any order. */
__host__ __device__ static void make(unsigned char *pool, int i)
{
    void *at = pool + i * SLOT;
    switch (i) {
    case 0: new (at) Add(7); break;
    case 1: new (at) Add(0x1000); break;
    case 2: new (at) Mul(3); break;
    case 3: new (at) Mul(0x9E3779B1u); break;
    case 4: new (at) Rot(5); break;
    case 5: new (at) Rot(19); break;
    case 6: new (at) Scale<3>(); break;
    case 7: new (at) Scale<11>(); break;
    case 8: new (at) Chain(object(pool, 1), object(pool, 3)); break;
    case 9: new (at) Chain(object(pool, 8), object(pool, 5)); break;
    case 10: new (at) Chain(object(pool, 9), object(pool, 6)); break;
    default: new (at) Chain(object(pool, 10), object(pool, 7)); break;
    }
}

/* Recursive, two calls per level: 2^depth - 1 calls below the first. */
__host__ __device__ __noinline__ unsigned tree(unsigned x, unsigned depth)
{
    if (depth == 0)
        return x;
    return tree(x * 3 + 1, depth - 1) ^ (tree(x >> 1, depth - 1) + depth);
}

/* A function template: n applications of F, called directly. */
template <typename F>
__host__ __device__ unsigned fold(const F &f, unsigned x, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        x = f.apply(x) ^ i;
    return x;
}

__host__ __device__ static unsigned f_mix(unsigned x)
{
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    return x ^ (x >> 12);
}
__host__ __device__ static unsigned f_tree(unsigned x) { return tree(x, x % 6); }
__host__ __device__ static unsigned f_square(unsigned x) { return x * x + 17; }
__host__ __device__ static unsigned f_fold(unsigned x) { return fold(Scale<5>(), x, x % 4 + 1); }

typedef unsigned (*op_fn)(unsigned);
__device__ op_fn d_table[4] = {f_mix, f_tree, f_square, f_fold};
static const op_fn h_table[4] = {f_mix, f_tree, f_square, f_fold};

struct result {
    unsigned virt, weight, table, after_sync;
};

__global__ void build(unsigned char *pool)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NOBJ)
        make(pool, i);
}

__host__ __device__ static const Op *pick(const unsigned char *pool, unsigned x)
{
    return object(pool, (int)(x % NOBJ));
}

__host__ __device__ static unsigned table_index(unsigned x) { return (x >> 5) % 4; }

__global__ void dispatch(const unsigned char *pool, const unsigned *in, result *out, int n)
{
    __shared__ unsigned s[BLOCK];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = t < n ? in[t] : (unsigned)t;
    const Op *o = pick(pool, x);
    unsigned v = o->apply(x);               /* lanes of a warp: different classes */
    unsigned w = o->weight();
    unsigned f = d_table[table_index(x)](x); /* and different functions */
    s[threadIdx.x] = v ^ f;
    __syncthreads();
    if (t >= n)
        return;
    out[t] = result{v, w, f, s[(threadIdx.x + 1) % BLOCK] + s[(threadIdx.x + BLOCK - 1) % BLOCK]};
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "virtual_calls");
    int n = size == SIZE_TINY ? 1000 : size == SIZE_SMALL ? 200000 : 2000000;
    unsigned *in = (unsigned *)std::malloc(sizeof(unsigned) * n);
    result *out = (result *)std::malloc(sizeof(result) * n);
    lcg rng(29);
    for (int i = 0; i < n; i++)
        in[i] = rng.next() ^ (rng.next() << 16);
    unsigned char *dpool;
    unsigned *din;
    result *dout;
    CHECK(cudaMalloc(&dpool, NOBJ * SLOT));
    CHECK(cudaMalloc(&din, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dout, sizeof(result) * n));
    CHECK(cudaMemcpy(din, in, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0, sizeof(result) * n));
    build<<<1, 32>>>(dpool);
    CHECK(cudaGetLastError());
    int grid = (n + BLOCK - 1) / BLOCK;
    dispatch<<<grid, BLOCK>>>(dpool, din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof(result) * n, cudaMemcpyDeviceToHost));
    /* The table as the device holds it: four distinct non-null functions. */
    op_fn dev_table[4];
    CHECK(cudaMemcpyFromSymbol(dev_table, d_table, sizeof dev_table));
    bool table_ok = true;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            table_ok = table_ok && dev_table[i] && (i == j || dev_table[i] != dev_table[j]);

    alignas(16) static unsigned char pool[NOBJ * SLOT];
    for (int i = 0; i < NOBJ; i++)
        make(pool, i);
    const char *names[4] = {"virtual", "weight", "table", "after_sync"};
    long wrong[4] = {0};
    for (int b = 0; b < grid; b++) {
        unsigned s[BLOCK];
        for (int l = 0; l < BLOCK; l++) {
            int t = b * BLOCK + l;
            unsigned x = t < n ? in[t] : (unsigned)t;
            s[l] = pick(pool, x)->apply(x) ^ h_table[table_index(x)](x);
        }
        for (int l = 0; l < BLOCK && b * BLOCK + l < n; l++) {
            int t = b * BLOCK + l;
            unsigned x = in[t];
            const Op *o = pick(pool, x);
            const result &r = out[t];
            wrong[0] += r.virt != o->apply(x);
            wrong[1] += r.weight != o->weight();
            wrong[2] += r.table != h_table[table_index(x)](x);
            wrong[3] += r.after_sync != s[(l + 1) % BLOCK] + s[(l + BLOCK - 1) % BLOCK];
        }
    }
    char detail[300];
    int len = std::snprintf(detail, sizeof detail, "size=%s n=%d objects=%d mismatches:", size_name(size), n,
                            NOBJ);
    long total = 0;
    for (int i = 0; i < 4; i++) {
        total += wrong[i];
        if (wrong[i])
            len += std::snprintf(detail + len, sizeof detail - len, " %s=%ld", names[i], wrong[i]);
    }
    if (!table_ok)
        len += std::snprintf(detail + len, sizeof detail - len, " device_table=not-distinct");
    std::snprintf(detail + len, sizeof detail - len, "%s (tolerance: exact)", total || !table_ok ? "" : " 0");
    CHECK(cudaFree(dpool));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    std::free(in);
    std::free(out);
    return report(total == 0 && table_ok, detail);
}
