"""Numba-CUDA on ptxsim: @cuda.jit kernels with shared memory, atomics and
local arrays, each checked against NumPy on the host."""

import numpy as np
from checks import check, finish
from numba import cuda, float32, int32



TPB = 64


@cuda.jit
def block_sums(x, out, total):
    """Each block sums its slice in shared memory (a tree with barriers),
    writes its sum and adds it to a global total atomically."""
    s = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]
        cuda.atomic.add(total, 0, s[0])


@cuda.jit
def histogram(keys, bins):
    i = cuda.grid(1)
    if i < keys.size:
        cuda.atomic.add(bins, keys[i], 1)


@cuda.jit
def sorted_windows(x, out):
    """Each thread sorts a window of 8 values in a local array and writes
    the window's median pair sum."""
    i = cuda.grid(1)
    if i + 8 > x.size:
        return
    w = cuda.local.array(8, dtype=int32)
    for k in range(8):
        w[k] = x[i + k]
    for a in range(1, 8):
        v = w[a]
        b = a - 1
        while b >= 0 and w[b] > v:
            w[b + 1] = w[b]
            b -= 1
        w[b + 1] = v
    out[i] = w[3] + w[4]


rng = np.random.default_rng(11)
n = TPB * 8
x = rng.standard_normal(n).astype(np.float32)
out = np.zeros(n // TPB, dtype=np.float32)
total = np.zeros(1, dtype=np.float32)
d_out, d_total = cuda.to_device(out), cuda.to_device(total)
block_sums[n // TPB, TPB](cuda.to_device(x), d_out, d_total)
want = x.reshape(-1, TPB).astype(np.float64).sum(axis=1)
check("shared-memory block sums", d_out.copy_to_host(), want, rtol=1e-4, atol=1e-5)
check("atomic total", d_total.copy_to_host()[0], want.sum(), rtol=1e-4, atol=1e-4)

keys = rng.integers(0, 16, 1000).astype(np.int32)
d_bins = cuda.to_device(np.zeros(16, dtype=np.int32))
histogram[(keys.size + 127) // 128, 128](cuda.to_device(keys), d_bins)
check("atomic histogram", d_bins.copy_to_host(), np.bincount(keys, minlength=16))

v = rng.integers(-50, 50, 200).astype(np.int32)
d_med = cuda.to_device(np.zeros(v.size - 7, dtype=np.int32))
sorted_windows[(v.size + 63) // 64, 64](cuda.to_device(v), d_med)
win = np.sort(np.lib.stride_tricks.sliding_window_view(v, 8), axis=1)
check("local-array sort", d_med.copy_to_host(), win[:, 3] + win[:, 4])

# Host memory the kernel reaches directly (mapped: cuMemHostAlloc,
# cuMemHostGetDevicePointer) and registered host memory (cuMemHostRegister).
m = cuda.mapped_array(300, dtype=np.int32)
m[:] = np.arange(300)
d_bins2 = cuda.to_device(np.zeros(300, dtype=np.int32))
histogram[3, 128](m, d_bins2)   # reads m in place
check("kernel reading mapped memory", d_bins2.copy_to_host(), np.ones(300))
block_sums[1, TPB](cuda.to_device(np.ones(TPB, dtype=np.float32)), cuda.mapped_array(1, dtype=np.float32),
                   m_total := cuda.mapped_array(1, dtype=np.float32))
cuda.synchronize()
check("mapped host memory", float(m_total[0]), float(TPB))
h = np.arange(256, dtype=np.float32)
with cuda.pinned(h):
    d_h = cuda.to_device(h)
    d_out2, d_total2 = cuda.to_device(np.zeros(4, dtype=np.float32)), cuda.to_device(np.zeros(1, dtype=np.float32))
    block_sums[4, TPB](d_h, d_out2, d_total2)
    check("registered host memory", d_total2.copy_to_host()[0], h.sum())

finish()
