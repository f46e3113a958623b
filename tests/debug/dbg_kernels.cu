/*
 * dbg_kernels.cu -- kernels the debugger's tests stop in.  Compiled with
 * `nvcc -G -ptx -arch=sm_75 dbg_kernels.cu -o dbg_kernels.ptx` so the PTX
 * carries line information; keep the line numbers stable (the transcripts
 * name them).
 */

/* Steps of the Collatz sequence from n to 1: a loop in a device function. */
__device__ __noinline__ int collatz_steps(int n)
{
    int steps = 0;
    while (n != 1) {
        n = (n % 2) ? 3 * n + 1 : n / 2;
        steps++;
    }
    return steps;
}

/* Even threads take one path, odd threads call a function: divergence. */
__global__ void diverge(int *out)
{
    int t = threadIdx.x;
    int v;
    if (t % 2 == 0) {
        v = t * 10;
    } else {
        v = collatz_steps(t);
    }
    out[blockIdx.x * blockDim.x + t] = v;
}

/* Each block reverses its slice of data through shared memory. */
__global__ void reverse_shared(int *data)
{
    __shared__ int buf[64];
    int t = threadIdx.x;
    buf[t] = data[blockIdx.x * blockDim.x + t] + 1;
    __syncthreads();
    data[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t];
}

/* Writes out[2 * i]: threads past n / 2 write out of bounds. */
__global__ void scatter(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i * 2] = i;
}

/* Only some threads reach the barrier: a deadlock. */
__global__ void stuck(int *out)
{
    int t = threadIdx.x;
    if (t < 40)
        __syncthreads();
    out[t] = t;
}

/* Never ends while *flag is 0: a kernel to interrupt. */
__global__ void spin(volatile int *flag, int *out)
{
    int n = 0;
    while (!*flag)
        n++;
    out[threadIdx.x] = n;
}
