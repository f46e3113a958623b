/*
 * cudart_entry.h -- the entry points that compiler-generated host code
 * calls (nvcc's and clang's kernel stubs and module constructors), which
 * no CUDA header declares for C: crt/host_runtime.h declares them for C++
 * only, with the same signatures.  Declared once here so that a definition
 * in cudart_register.c or cudart_launch.c that drifts from them fails to
 * compile.
 */
#ifndef PTXSIM_CUDART_ENTRY_H
#define PTXSIM_CUDART_ENTRY_H

#include <cuda_runtime_api.h>
#include <stddef.h>

/* Modules and their kernels and variables, registered before main(). */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
char __cudaInitModule(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global);

/* `<<<>>>` launches: the call configuration, and CUDA 13's kernel handles. */
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, void *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream);

#endif /* PTXSIM_CUDART_ENTRY_H */
