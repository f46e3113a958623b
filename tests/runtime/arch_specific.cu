// A program built with nvcc -arch=sm_90a carries PTX for compute_90 and
// for compute_90a (with the architecture's own features) and sm_90a
// machine code.  An sm_90 GPU runs the sm_90a code, so the kernel sees the
// feature macro; an emulator of that GPU must choose the compute_90a PTX.
#include <cstdio>

__global__ void which(int *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    *out = 1;
#else
    *out = 2;
#endif
}

int main()
{
    int *d, h = 0;
    if (cudaMalloc(&d, sizeof h) != cudaSuccess)
        return 1;
    which<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s arch_specific (the kernel ran the %s code)\n", h == 1 ? "PASS" : "FAIL",
           h == 1 ? "sm_90a" : h == 2 ? "plain compute_90" : "no");
    return h == 1 ? 0 : 1;
}
