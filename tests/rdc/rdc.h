/*
 * rdc.h -- what the two translation units of the rdc test share: device
 * functions, variables and a class one defines and the other uses.
 */
#ifndef PTXSIM_TEST_RDC_H
#define PTXSIM_TEST_RDC_H

#include <cstdio>
#include <new>

typedef int (*rdc_fn)(int);

/* Defined in rdc_lib.cu. */
extern __device__ rdc_fn rdc_table[3];
extern __device__ int rdc_counter;
extern __device__ int rdc_scale;            /* set by the host with cudaMemcpyToSymbol */
__device__ int rdc_lib_fn(int x);
struct rdc_shape {
    __device__ virtual int area(int x) const { return 0; }
};
__device__ rdc_shape *rdc_make_square(void *at);
__global__ void rdc_lib_kernel(int *out);

/* Defined in rdc_main.cu. */
__device__ int rdc_main_fn(int x);

/* In both: one definition at link time. */
template <typename T> __device__ __noinline__ T rdc_twice(T x) { return x + x; }

#endif
