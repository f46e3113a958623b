/*
 * lock_calls.cu -- a spin lock taken in a function, as a -G build makes
 * every function a call: the lane that gets the lock returns to the kernel
 * while its warp-mates spin inside lock(), and runs apart from them, in a
 * lane group of its own (exec/warp_groups.c).  Compiled with
 * `nvcc -G -ptx -arch=sm_75 lock_calls.cu -o lock_calls.ptx`; keep the
 * line numbers stable (the transcript names them).
 */
__device__ void lock(int *l)
{
    while (atomicCAS(l, 0, 1) != 0)
        ;
}

__device__ void unlock(int *l)
{
    atomicExch(l, 0);
}

/* Each thread takes a ticket under the lock: out[t] is its place in line. */
__global__ void take_tickets(int *out)
{
    __shared__ int l, next;
    lock(&l);
    int mine = next;
    next = mine + 1;
    unlock(&l);
    out[threadIdx.x] = mine;
}
