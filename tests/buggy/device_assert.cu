// A device-side assert that fails: each block's threads 2..5 break the
// invariant.  Every thread of the warp that reaches the failing assert
// prints its message, as on a GPU, and the program gets cudaErrorAssert.
#include <cassert>

#include "buggy.h"

__global__ void check_slots(int slots)
{
    assert(threadIdx.x < slots);                // BUG: launched with more threads than slots
}

int main()
{
    check_slots<<<2, 6>>>(2);
    return expect_fault("device_assert", cudaErrorAssert);
}
