"""Taichi on ptxsim: kernels Taichi's own LLVM compiles to PTX and loads
through the driver (its runtime module, memory pool and random states
first), over fields and ndarrays -- elementwise work, atomics, a reduction,
small matrices, integer widths, a struct-for and a sparse (pointer) field,
whose activation takes a lock per cell that lanes of one warp contend for
(independent thread scheduling) -- each checked against NumPy on the host."""

import numpy as np
from checks import check, finish

import taichi as ti

ti.init(arch=ti.cuda, fast_math=False, log_level=ti.WARN)

n = 1000
rng = np.random.default_rng(11)

x = ti.field(ti.f32, shape=n)
y = ti.field(ti.f32, shape=n)


@ti.kernel
def saxpy(a: ti.f32):
    for i in x:
        y[i] = a * x[i] + y[i]


xs = rng.standard_normal(n).astype(np.float32)
ys = rng.standard_normal(n).astype(np.float32)
x.from_numpy(xs)
y.from_numpy(ys)
saxpy(1.5)
# Taichi's CUDA code contracts a*x+y into an fma: compare with a tolerance.
check("saxpy", y.to_numpy(), np.float32(1.5) * xs + ys, rtol=1e-6, atol=1e-6)

bins = ti.field(ti.i32, shape=16)
total = ti.field(ti.f64, shape=())


@ti.kernel
def histogram(keys: ti.types.ndarray(), vals: ti.types.ndarray()):
    for i in range(keys.shape[0]):
        ti.atomic_add(bins[keys[i] % 16], 1)
        total[None] += vals[i]


keys = rng.integers(0, 1 << 20, n).astype(np.int32)
vals = rng.standard_normal(n)
histogram(keys, vals)
check("atomic histogram", bins.to_numpy(), np.bincount(keys % 16, minlength=16), rtol=0, atol=0)
check("f64 atomic sum", total[None], vals.sum(), rtol=1e-12, atol=1e-12)

m = ti.Matrix.field(3, 3, ti.f32, shape=n)
det = ti.field(ti.f32, shape=n)


@ti.kernel
def inverses():
    for i in m:
        det[i] = m[i].determinant()
        m[i] = m[i].inverse()


mats = rng.standard_normal((n, 3, 3)).astype(np.float32) + 3 * np.eye(3, dtype=np.float32)
m.from_numpy(mats)
inverses()
check("3x3 determinants", det.to_numpy(), np.linalg.det(mats.astype(np.float64)), rtol=1e-4, atol=1e-4)
check("3x3 inverses", m.to_numpy(), np.linalg.inv(mats.astype(np.float64)), rtol=1e-3, atol=1e-4)

wide = ti.field(ti.i64, shape=n)
narrow = ti.field(ti.u8, shape=n)


@ti.kernel
def integers(a: ti.types.ndarray()):
    for i in range(a.shape[0]):
        v = ti.cast(a[i], ti.i64)
        wide[i] = (v * ti.i64(2654435761)) // 7 - (v << 33) % 1000003
        narrow[i] = ti.cast(a[i] * 37 + 11, ti.u8)


ints = rng.integers(-(1 << 30), 1 << 30, n).astype(np.int32)
integers(ints)
v = ints.astype(np.int64)
# Taichi's integer // and % round toward negative infinity, as Python's.
check("i64 arithmetic", wide.to_numpy(), v * 2654435761 // 7 - ((v << 33) % 1000003), rtol=0, atol=0)
check("u8 wraparound", narrow.to_numpy(), (ints.astype(np.int64) * 37 + 11).astype(np.uint8), rtol=0, atol=0)

grid = ti.field(ti.f32, shape=(64, 64))


@ti.kernel
def smooth():
    for i, j in grid:
        if 0 < i < 63 and 0 < j < 63:
            grid[i, j] = 0.25 * (ti.cast(i, ti.f32) + ti.cast(j, ti.f32))


smooth()
ii, jj = np.meshgrid(np.arange(64), np.arange(64), indexing="ij")
inner = (ii > 0) & (ii < 63) & (jj > 0) & (jj < 63)
check("2-D struct-for", grid.to_numpy(), np.where(inner, 0.25 * (ii + jj), 0).astype(np.float32), rtol=0, atol=0)

# A pointer field activated by every thread at once: Taichi's runtime takes
# a lock per cell, a warp's leader holds it while its warp-mates wait at
# bar.warp.sync, and building the list of active cells appends under a lock
# the lanes of a warp contend for.
sparse = ti.field(ti.i32)
ti.root.pointer(ti.i, 16).dense(ti.i, 256).place(sparse)


@ti.kernel
def activate():
    for i in range(4096):
        if i % 3 != 0:
            sparse[i] = i


@ti.kernel
def sparse_sum() -> ti.i64:
    s = ti.i64(0)
    for i in sparse:
        s += sparse[i]
    return s


activate()
idx = np.arange(4096)
check("pointer field: activation and struct-for", sparse_sum(), idx[idx % 3 != 0].sum(), rtol=0, atol=0)
check("pointer field: values", sparse.to_numpy(), np.where(idx % 3 != 0, idx, 0), rtol=0, atol=0)

finish()
