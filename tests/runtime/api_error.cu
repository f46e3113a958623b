/*
 * api_error -- error names and messages, the last error (read and peek),
 * sticky faults, and entry points ptxsim does not implement: each is
 * exported, warns once by name and returns cudaErrorNotSupported.
 */
#include "rt_test.h"

#include <cuda_runtime.h>

__global__ void misaligned(char *p)
{
    *(int *)(p + 1) = 1;
}

int main()
{
    test_name = "api_error";
    EXPECT(std::strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") == 0);
    EXPECT(std::strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0);
    EXPECT(std::strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") == 0);
    EXPECT(std::strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory") == 0);
    EXPECT(std::strcmp(cudaGetErrorName(cudaErrorStreamCaptureUnsupported), "cudaErrorStreamCaptureUnsupported") == 0);
    EXPECT(std::strcmp(cudaGetErrorName(cudaErrorInvalidResourceConfiguration),
                       "cudaErrorInvalidResourceConfiguration") == 0);
    EXPECT(std::strcmp(cudaGetErrorString((cudaError_t)12345), "unrecognized error code") == 0);

    /* The last error: peek leaves it, get clears it; success does not
     * overwrite it. */
    OK(cudaGetLastError());
    EXPECT_ERR(cudaSetDevice(5), cudaErrorInvalidDevice);
    int n;
    OK(cudaGetDeviceCount(&n));
    EXPECT_ERR(cudaPeekAtLastError(), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaPeekAtLastError(), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
    OK(cudaGetLastError());
    OK(cudaPeekAtLastError());

    /* Unimplemented: exported, named once on stderr, never pretends. */
    cudaIpcMemHandle_t ipc;
    EXPECT_MISUSE(cudaIpcGetMemHandle(&ipc, NULL), cudaErrorNotSupported);
    EXPECT_MISUSE(cudaIpcGetMemHandle(&ipc, NULL), cudaErrorNotSupported);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    EXPECT(fd.x == 32 && fd.f == cudaChannelFormatKindFloat);
    cudaExternalMemory_t ext;
    cudaExternalMemoryHandleDesc ed = {};
    EXPECT_MISUSE(cudaImportExternalMemory(&ext, &ed), cudaErrorNotSupported);

    /* A fault in a kernel surfaces, as on a GPU, at the next call that
     * waits for the kernel, not at the launch: the launch and the error
     * checks right after it see success, and work issued before the wait
     * does not run.  From then on the fault is sticky until cudaDeviceReset. */
    char *d = NULL;
    OK(cudaMalloc(&d, 64));
    misaligned<<<1, 1>>>(d);
    OK(cudaGetLastError());
    OK(cudaPeekAtLastError());
    misaligned<<<1, 1>>>(d);
    OK(cudaGetLastError());
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorMisalignedAddress);
    EXPECT_ERR(cudaGetLastError(), cudaErrorMisalignedAddress);
    EXPECT_ERR(cudaPeekAtLastError(), cudaErrorMisalignedAddress);
    EXPECT_ERR(cudaMemset(d, 0, 64), cudaErrorMisalignedAddress);
    EXPECT_ERR(cudaGetLastError(), cudaErrorMisalignedAddress);
    OK(cudaDeviceReset());
    OK(cudaGetLastError());
    OK(cudaMalloc(&d, 64));
    OK(cudaMemset(d, 0, 64));
    /* A blocking copy waits for the kernel before it too. */
    misaligned<<<1, 1>>>(d);
    char h[64];
    OK(cudaGetLastError());
    EXPECT_ERR(cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost), cudaErrorMisalignedAddress);
    EXPECT_ERR(cudaGetLastError(), cudaErrorMisalignedAddress);
    EXPECT_ERR(cudaMalloc(&d, 64), cudaErrorMisalignedAddress);
    OK(cudaDeviceReset());
    OK(cudaMalloc(&d, 64));
    OK(cudaFree(d));
    return finish();
}
