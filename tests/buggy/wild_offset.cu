// An index computed in the wrong units: a byte offset used as an element
// index lands a gigabyte past the array, beyond every allocation of the
// program.  The nearest allocation is the copy of the kernel's parameters
// ptxsim keeps, not anything the program allocated, so the report names
// none and says no allocation of the program is near.
#include "buggy.h"

__global__ void store_at(int *p, long offset_bytes)
{
    p[offset_bytes] = 1;                        // BUG: should be p[offset_bytes / sizeof(int)]
}

int main()
{
    int *d;
    cudaMalloc(&d, 4096);
    store_at<<<1, 1>>>(d, 1L << 30);
    return expect_fault("wild_offset", cudaErrorIllegalAddress);
}
