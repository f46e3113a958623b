"""cuda.core on ptxsim: a kernel compiled by NVRTC (Program -> ObjectCode),
launched on a stream, and checked against NumPy on the host; then the same
PTX linked by cuda.core's Linker."""

import numpy as np
from checks import check, finish
from cuda.core import (Device, LaunchConfig, LegacyPinnedMemoryResource, Linker, LinkerOptions, Program,
                       ProgramOptions, launch)

SOURCE = r'''
template <typename T>
__global__ void saxpy(T a, const T *x, const T *y, T *out, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = a * x[i] + y[i];
}

__device__ int counter;

extern "C" __global__ void count_odd(const int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (v[i] & 1))
        atomicAdd(&counter, 1);
}
'''



dev = Device()
dev.set_current()
stream = dev.create_stream()
arch = "".join(str(i) for i in dev.compute_capability)

# NVRTC to PTX: ptxsim runs PTX (a cubin from NVRTC holds machine code only).
prog = Program(SOURCE, code_type="c++", options=ProgramOptions(std="c++17", arch=f"compute_{arch}"))
obj = prog.compile("ptx", name_expressions=("saxpy<float>",))
saxpy = obj.get_kernel("saxpy<float>")

n = 1000
rng = np.random.default_rng(3)
x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
pinned = LegacyPinnedMemoryResource()


def to_device(a):
    """A device buffer holding a copy of NumPy array a (through pinned host memory)."""
    h = pinned.allocate(a.nbytes, stream=stream)
    np.from_dlpack(h).view(a.dtype)[:] = a.ravel()
    d = dev.memory_resource.allocate(a.nbytes, stream=stream)
    d.copy_from(h, stream=stream)
    return d


def to_host(d, dtype):
    h = pinned.allocate(d.size, stream=stream)
    h.copy_from(d, stream=stream)
    stream.sync()
    return np.from_dlpack(h).view(dtype).copy()


dx, dy = to_device(x), to_device(y)
dout = dev.memory_resource.allocate(n * 4, stream=stream)
launch(stream, LaunchConfig(grid=4, block=128), saxpy, np.float32(1.5), dx, dy, dout, np.uint64(n))
check("NVRTC saxpy<float>", to_host(dout, np.float32), 1.5 * x + y, rtol=1e-5, atol=1e-6)

# A __device__ variable reached by atomics, reset and read through the
# module's global (cuLibraryGetGlobal / cuModuleGetGlobal).
count_odd = obj.get_kernel("count_odd")
v = rng.integers(0, 1000, 777).astype(np.int32)
launch(stream, LaunchConfig(grid=7, block=128), count_odd, to_device(v), np.int32(v.size))
stream.sync()
from cuda.bindings import driver  # noqa: E402  (the global's address is a driver-level query)
err, lib_mod = driver.cuLibraryGetModule(obj.handle)
err, ptr, size = driver.cuModuleGetGlobal(lib_mod, b"counter")
assert err == driver.CUresult.CUDA_SUCCESS and size == 4, (err, size)
h = pinned.allocate(4, stream=stream)
driver.cuMemcpyDtoH(int(h.handle), ptr, 4)
check("atomicAdd on a __device__ counter", int(np.from_dlpack(h).view(np.int32)[0]), int((v & 1).sum()))

# What cuda.core asks of a kernel and a stream: the parameter layout
# (cuKernelGetParamInfo), the block-size calculator and the context.
check("parameter layout", [(a.offset, a.size) for a in count_odd.arguments_info], [(0, 8), (8, 4)])
best = count_odd.occupancy.max_potential_block_size(0, 0)
check("max potential block size", best.max_block_size % 32 == 0 and best.min_grid_size > 0, True)
check("stream context", stream.context is not None, True)

# PTX through cuda.core's Linker (nvJitLink), whose image loads and runs.
SCALE = r'''
extern "C" __global__ void scale(float *v, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= s;
}
'''
ptx = Program(SCALE, code_type="c++", options=ProgramOptions(arch=f"compute_{arch}")).compile("ptx")
linked = Linker(ptx, options=LinkerOptions(arch=f"sm_{arch}")).link("cubin")
dv = to_device(x)
launch(stream, LaunchConfig(grid=8, block=128), linked.get_kernel("scale"), dv, np.float32(-2.0), np.int32(n))
check("Linker image", to_host(dv, np.float32), -2.0 * x)

# Two separately compiled PTX units (-rdc) linked by the driver's linker
# (cuLinkCreate / cuLinkAddData / cuLinkComplete), the image loaded by
# cuda.core: an extern device function resolved across the units.
rdc = ProgramOptions(arch=f"compute_{arch}", relocatable_device_code=True)
unit_a = Program(r'''
extern __device__ float twice_plus_one(float x);
extern "C" __global__ void apply(float *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = twice_plus_one(v[i]);
}
''', code_type="c++", options=rdc).compile("ptx")
unit_b = Program("__device__ float twice_plus_one(float x) { return 2.0f * x + 1.0f; }", code_type="c++",
                 options=rdc).compile("ptx")
err, state = driver.cuLinkCreate(0, [], [])
assert err == driver.CUresult.CUDA_SUCCESS, err
for unit, name in ((unit_a, b"a.ptx"), (unit_b, b"b.ptx")):
    code = unit.code
    err, = driver.cuLinkAddData(state, driver.CUjitInputType.CU_JIT_INPUT_PTX, code, len(code), name, 0, [], [])
    assert err == driver.CUresult.CUDA_SUCCESS, err
# A cubin holds machine code only: the linker refuses it by name.
elf = b"\x7fELF" + bytes(60)
err, = driver.cuLinkAddData(state, driver.CUjitInputType.CU_JIT_INPUT_CUBIN, elf, len(elf), b"k.cubin", 0, [], [])
check("cuLinkAddData refuses a cubin", int(err), int(driver.CUresult.CUDA_ERROR_NOT_SUPPORTED))
err, image_ptr, image_size = driver.cuLinkComplete(state)
assert err == driver.CUresult.CUDA_SUCCESS, err
import ctypes  # noqa: E402
image = ctypes.string_at(image_ptr, image_size)
driver.cuLinkDestroy(state)
from cuda.core import ObjectCode  # noqa: E402
dv = to_device(x)
launch(stream, LaunchConfig(grid=8, block=128), ObjectCode.from_cubin(image).get_kernel("apply"), dv,
       np.int32(n))
check("cuLink of two PTX units", to_host(dv, np.float32), 2.0 * x + 1.0, rtol=1e-6)

# The same two units through cuda.core's Linker (nvJitLink).
both = Linker(unit_a, unit_b, options=LinkerOptions(arch=f"sm_{arch}")).link("cubin")
dv = to_device(x)
launch(stream, LaunchConfig(grid=8, block=128), both.get_kernel("apply"), dv, np.int32(n))
check("Linker of two PTX units", to_host(dv, np.float32), 2.0 * x + 1.0, rtol=1e-6)

finish()
