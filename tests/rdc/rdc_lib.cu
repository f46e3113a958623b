/*
 * rdc_lib.cu -- the library half of the rdc test (see rdc_main.cu).
 */
#include "rdc.h"

/* The same name as rdc_main.cu's: each unit calls its own. */
static __device__ __noinline__ int helper(int x) { return x + 1; }

__device__ int rdc_scale;
__device__ int rdc_counter = 42;
__device__ int rdc_lib_fn(int x) { return (x * 3 + 1) * rdc_scale; }
/* Addresses of functions of both units in one initialiser. */
__device__ rdc_fn rdc_table[3] = {rdc_main_fn, rdc_lib_fn, rdc_twice<int>};

struct square : rdc_shape {
    __device__ int area(int x) const override { return x * x; }
};
__device__ rdc_shape *rdc_make_square(void *at) { return new (at) square(); }

__global__ void rdc_lib_kernel(int *out)
{
    int i = threadIdx.x;
    out[i] = helper(i) * 2 + rdc_twice(i);
    if (i == 1)
        printf("lib: %d\n", out[1]);
}
