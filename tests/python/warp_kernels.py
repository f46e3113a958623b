"""NVIDIA Warp on ptxsim: kernels Warp compiles with its own NVRTC (newer
than the toolkit: the driver's version decides that it hands over PTX), its
atomics, vector math, radix sort, and a graph captured with an allocation
inside and replayed -- each checked against NumPy on the host."""

import numpy as np
from checks import check, finish

import warp as wp

wp.config.quiet = True
wp.init()
DEV = "cuda:0"


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.kernel
def histogram(keys: wp.array(dtype=int), bins: wp.array(dtype=int)):
    i = wp.tid()
    wp.atomic_add(bins, keys[i] % 16, 1)


@wp.kernel
def frames(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3),
           dots: wp.array(dtype=float)):
    i = wp.tid()
    n = wp.normalize(wp.cross(a[i], b[i]))
    out[i] = n
    dots[i] = wp.dot(a[i], b[i])


@wp.kernel
def scale(x: wp.array(dtype=float), s: float):
    i = wp.tid()
    x[i] = x[i] * s


n = 1000
rng = np.random.default_rng(7)

x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
dy = wp.array(y, device=DEV)
wp.launch(saxpy, dim=n, inputs=[2.5, wp.array(x, device=DEV), dy], device=DEV)
check("saxpy", dy.numpy(), np.float32(2.5) * x + y, rtol=0, atol=1e-6)

keys = rng.integers(0, 1 << 20, n).astype(np.int32)
bins = wp.zeros(16, dtype=int, device=DEV)
wp.launch(histogram, dim=n, inputs=[wp.array(keys, device=DEV), bins], device=DEV)
check("atomic histogram", bins.numpy(), np.bincount(keys % 16, minlength=16), rtol=0, atol=0)

a = rng.standard_normal((n, 3)).astype(np.float32)
b = rng.standard_normal((n, 3)).astype(np.float32)
out = wp.zeros(n, dtype=wp.vec3, device=DEV)
dots = wp.zeros(n, dtype=float, device=DEV)
wp.launch(frames, dim=n, inputs=[wp.array(a, dtype=wp.vec3, device=DEV), wp.array(b, dtype=wp.vec3, device=DEV),
                                 out, dots], device=DEV)
c = np.cross(a, b)
check("normalize(cross)", out.numpy(), c / np.linalg.norm(c, axis=1, keepdims=True), rtol=1e-5, atol=1e-6)
check("dot", dots.numpy(), np.sum(a * b, axis=1), rtol=1e-5, atol=1e-5)

k = rng.integers(0, 1 << 30, n).astype(np.int32)
keys2 = wp.array(np.concatenate([k, np.zeros(n, np.int32)]), dtype=int, device=DEV)
vals2 = wp.array(np.concatenate([np.arange(n, dtype=np.int32), np.zeros(n, np.int32)]), dtype=int, device=DEV)
wp.utils.radix_sort_pairs(keys2, vals2, n)
order = np.argsort(k, kind="stable")
check("radix_sort_pairs keys", keys2.numpy()[:n], k[order], rtol=0, atol=0)
check("radix_sort_pairs values", vals2.numpy()[:n], order, rtol=0, atol=0)

# A capture that allocates (a graph memory node) and is replayed three times.
buf = wp.array(np.ones(n, dtype=np.float32), device=DEV)
with wp.ScopedCapture(device=DEV) as cap:
    tmp = wp.zeros(n, dtype=float, device=DEV)
    wp.launch(scale, dim=n, inputs=[buf, 2.0], device=DEV)
    wp.copy(tmp, buf)
for _ in range(3):
    wp.capture_launch(cap.graph)
wp.synchronize_device(DEV)
check("captured graph replayed 3 times", buf.numpy(), np.full(n, 8.0, np.float32), rtol=0, atol=0)


# A spin lock every thread takes: lanes of one warp contend for it, which
# needs independent thread scheduling (a warp in lockstep livelocks).
@wp.kernel
def locked_order(lock: wp.array(dtype=wp.int32), count: wp.array(dtype=wp.int32), order: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    while wp.atomic_cas(lock, 0, 0, 1) != 0:
        pass
    c = count[0]
    order[c] = tid
    count[0] = c + 1
    wp.atomic_exch(lock, 0, 0)


lock = wp.zeros(1, dtype=wp.int32, device=DEV)
count = wp.zeros(1, dtype=wp.int32, device=DEV)
order = wp.full(n, -1, dtype=wp.int32, device=DEV)
wp.launch(locked_order, dim=n, inputs=[lock, count, order], device=DEV)
check("spin lock: every thread counted once", np.sort(order.numpy()), np.arange(n), rtol=0, atol=0)

finish()
