/*
 * nvrtc -- a kernel compiled at run time: NVRTC turns CUDA source into PTX
 * (for compute_75), the driver API loads it (cuModuleLoadDataEx), looks the
 * kernel up by its lowered name and launches it with cuLaunchKernel.  Then
 * the same source compiled for a real architecture (sm_90) to a cubin
 * (nvrtcGetCUBIN), loaded with cuModuleLoadData, as NVIDIA's samples do:
 * under ptxsim the "cubin" is the program's PTX (runtime/nvrtc_cubin.c).
 * Checks both results against the host.
 */
#include "sample.h"

#include <cuda.h>
#include <nvrtc.h>
#include <string>
#include <vector>

static const char source[] =
    "template <typename T>\n"
    "__global__ void saxpy(T a, const T *x, T *y, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        y[i] = a * x[i] + y[i];\n"
    "}\n";

#define CHECK_CU(call)                                                                   \
    do {                                                                                 \
        CUresult r_ = (call);                                                            \
        if (r_ != CUDA_SUCCESS) {                                                        \
            const char *s_ = "?";                                                        \
            cuGetErrorName(r_, &s_);                                                     \
            std::printf("FAIL %s: %s at %s:%d: %s\n", sample_name, #call, __FILE__, __LINE__, s_); \
            std::exit(1);                                                                \
        }                                                                                \
    } while (0)

#define CHECK_RTC(call)                                                                  \
    do {                                                                                 \
        nvrtcResult r_ = (call);                                                         \
        if (r_ != NVRTC_SUCCESS) {                                                       \
            std::printf("FAIL %s: %s at %s:%d: %s\n", sample_name, #call, __FILE__, __LINE__, \
                        nvrtcGetErrorString(r_));                                        \
            std::exit(1);                                                                \
        }                                                                                \
    } while (0)

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "nvrtc");
    int n = size == SIZE_TINY ? 3000 : size == SIZE_SMALL ? (1 << 20) : (1 << 24);

    nvrtcProgram prog;
    CHECK_RTC(nvrtcCreateProgram(&prog, source, "saxpy.cu", 0, NULL, NULL));
    CHECK_RTC(nvrtcAddNameExpression(prog, "saxpy<float>"));
    const char *opts[] = { "--gpu-architecture=compute_75" };
    nvrtcResult built = nvrtcCompileProgram(prog, 1, opts);
    if (built != NVRTC_SUCCESS) {
        size_t log_size = 0;
        nvrtcGetProgramLogSize(prog, &log_size);
        std::vector<char> log(log_size + 1);
        nvrtcGetProgramLog(prog, log.data());
        std::printf("FAIL nvrtc: compilation failed:\n%s\n", log.data());
        return 1;
    }
    const char *lowered = NULL;
    CHECK_RTC(nvrtcGetLoweredName(prog, "saxpy<float>", &lowered));
    std::string kernel_name = lowered;
    size_t ptx_size = 0;
    CHECK_RTC(nvrtcGetPTXSize(prog, &ptx_size));
    std::vector<char> ptx(ptx_size);
    CHECK_RTC(nvrtcGetPTX(prog, ptx.data()));
    CHECK_RTC(nvrtcDestroyProgram(&prog));

    /* For sm_90, machine code: saxpy<double>, named by a name expression. */
    nvrtcProgram sass;
    CHECK_RTC(nvrtcCreateProgram(&sass, source, "saxpy.cu", 0, NULL, NULL));
    CHECK_RTC(nvrtcAddNameExpression(sass, "saxpy<double>"));
    const char *sass_opts[] = { "-arch", "sm_90", "--std=c++17" };
    CHECK_RTC(nvrtcCompileProgram(sass, 3, sass_opts));
    CHECK_RTC(nvrtcGetLoweredName(sass, "saxpy<double>", &lowered));
    std::string double_name = lowered;
    size_t cubin_size = 0;
    CHECK_RTC(nvrtcGetCUBINSize(sass, &cubin_size));
    std::vector<char> cubin(cubin_size);
    CHECK_RTC(nvrtcGetCUBIN(sass, cubin.data()));
    CHECK_RTC(nvrtcDestroyProgram(&sass));

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CHECK_CU(cuInit(0));
    CHECK_CU(cuDeviceGet(&dev, 0));
    CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK_CU(cuCtxSetCurrent(ctx));
    CHECK_CU(cuModuleLoadDataEx(&mod, ptx.data(), 0, NULL, NULL));
    CHECK_CU(cuModuleGetFunction(&fn, mod, kernel_name.c_str()));

    std::vector<float> x(n), y(n), out(n);
    lcg rng(9);
    for (int i = 0; i < n; i++) {
        x[i] = rng.uniform(-4.0f, 4.0f);
        y[i] = rng.uniform(-4.0f, 4.0f);
    }
    CUdeviceptr dx, dy;
    CHECK_CU(cuMemAlloc(&dx, n * sizeof(float)));
    CHECK_CU(cuMemAlloc(&dy, n * sizeof(float)));
    CHECK_CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
    CHECK_CU(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));
    float a = 1.5f;
    void *args[] = { &a, &dx, &dy, &n };
    CHECK_CU(cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    CHECK_CU(cuCtxSynchronize());
    CHECK_CU(cuMemcpyDtoH(out.data(), dy, n * sizeof(float)));
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += std::fabs(out[i] - (a * x[i] + y[i])) > 1e-6f * (1.0f + std::fabs(out[i]));
    CHECK_CU(cuMemFree(dx));
    CHECK_CU(cuMemFree(dy));
    CHECK_CU(cuModuleUnload(mod));

    CUmodule sass_mod;
    CUfunction dfn;
    CHECK_CU(cuModuleLoadData(&sass_mod, cubin.data()));
    CHECK_CU(cuModuleGetFunction(&dfn, sass_mod, double_name.c_str()));
    std::vector<double> dxh(n), dyh(n), dout(n);
    for (int i = 0; i < n; i++) {
        dxh[i] = x[i] * 0.25;
        dyh[i] = y[i] - 1.0;
    }
    CHECK_CU(cuMemAlloc(&dx, n * sizeof(double)));
    CHECK_CU(cuMemAlloc(&dy, n * sizeof(double)));
    CHECK_CU(cuMemcpyHtoD(dx, dxh.data(), n * sizeof(double)));
    CHECK_CU(cuMemcpyHtoD(dy, dyh.data(), n * sizeof(double)));
    double da = -2.5;
    void *dargs[] = { &da, &dx, &dy, &n };
    CHECK_CU(cuLaunchKernel(dfn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, dargs, NULL));
    CHECK_CU(cuCtxSynchronize());
    CHECK_CU(cuMemcpyDtoH(dout.data(), dy, n * sizeof(double)));
    for (int i = 0; i < n; i++)
        wrong += dout[i] != std::fma(da, dxh[i], dyh[i]) && dout[i] != da * dxh[i] + dyh[i];
    CHECK_CU(cuMemFree(dx));
    CHECK_CU(cuMemFree(dy));
    CHECK_CU(cuModuleUnload(sass_mod));
    CHECK_CU(cuDevicePrimaryCtxRelease(dev));
    char detail[300];
    std::snprintf(detail, sizeof detail, "size=%s n=%d kernels=%s,%s ptx=%zu bytes mismatches=%d (tolerance: 1e-6 relative; double exact)",
                  size_name(size), n, kernel_name.c_str(), double_name.c_str(), ptx_size, wrong);
    return report(wrong == 0, detail);
}
