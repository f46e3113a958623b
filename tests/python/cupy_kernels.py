"""CuPy on ptxsim: an elementwise kernel, array arithmetic, reductions (CUB),
sorting (Thrust), a RawKernel and stream-ordered allocation, each checked
against NumPy on the host."""

import numpy as np
from checks import check, finish
import cupy as cp

N = 1000


rng = np.random.default_rng(7)
a = rng.standard_normal(N).astype(np.float32)
b = rng.standard_normal(N).astype(np.float32)
da, db = cp.asarray(a), cp.asarray(b)

# Elementwise: a user kernel and plain array arithmetic (CuPy's own kernels).
axpy = cp.ElementwiseKernel("float32 x, float32 y, float32 s", "float32 z", "z = s * x + y", "axpy")
check("ElementwiseKernel", cp.asnumpy(axpy(da, db, np.float32(2.5))), 2.5 * a + b, rtol=1e-5, atol=1e-6)
check("arithmetic", cp.asnumpy(da * db - 3 * da), a * b - 3 * a, rtol=1e-5, atol=1e-6)

# Reductions: cupy.sum and a ReductionKernel (sum of squares).
check("cupy.sum", float(cp.sum(da)), float(np.sum(a, dtype=np.float64)), rtol=1e-4)
sumsq = cp.ReductionKernel("float32 x", "float32 y", "x * x", "a + b", "y = a", "0", "sumsq")
check("ReductionKernel", float(sumsq(da)), float(np.sum(a.astype(np.float64) ** 2)), rtol=1e-4)
m = rng.integers(0, 100, (8, 32)).astype(np.int32)
check("cupy.max axis=1", cp.asnumpy(cp.asarray(m).max(axis=1)), m.max(axis=1))

# Sorting: Thrust's radix sort, from the Thrust CuPy ships (a module of
# some 900 kernels, with programmatic dependent launch in its PTX).
check("cupy.sort", cp.asnumpy(cp.sort(da)), np.sort(a))
check("cupy.argsort", a[cp.asnumpy(cp.argsort(da))], np.sort(a))

# A RawKernel: each thread reverses its block's slice through shared memory.
reverse = cp.RawKernel(r'''
extern "C" __global__ void reverse_blocks(const int *in, int *out, int n) {
    __shared__ int s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : -1;
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - threadIdx.x);
    if (j < n)
        out[j] = s[threadIdx.x];
}
''', "reverse_blocks")
n = 128 * 4
x = np.arange(n, dtype=np.int32)
dout = cp.zeros(n, dtype=cp.int32)
reverse((4,), (128,), (cp.asarray(x), dout, np.int32(n)))
check("RawKernel", cp.asnumpy(dout), x.reshape(4, 128)[:, ::-1].reshape(-1))

# Stream-ordered allocation from the device's memory pool
# (cuDeviceGetMemPool, cuMemAllocFromPoolAsync, cuMemFreeAsync).
pool = cp.cuda.MemoryAsyncPool()
with cp.cuda.using_allocator(pool.malloc):
    w = cp.arange(1000, dtype=cp.int64) * 3
    check("MemoryAsyncPool", int(w.sum()), 3 * 999 * 1000 // 2)
    del w

finish()
