// saxpy: y = a*x + y, the user-kernel example of perfgate's kernel suites
// (see .perfgate.yml next to this file and docs/config.md).
//
// UNROLL (set with -DUNROLL=N, swept in .perfgate.yml) makes each thread
// handle N elements, blockDim.x apart so that loads stay coalesced; the grid
// shrinks by the same factor.
#ifndef UNROLL
#define UNROLL 1
#endif

extern "C" __global__ void saxpy(const float* __restrict__ x, float* __restrict__ y, float a, int n)
{
    int base = blockIdx.x * blockDim.x * UNROLL + threadIdx.x;
#pragma unroll
    for (int u = 0; u < UNROLL; u++) {
        int i = base + u * blockDim.x;
        if (i < n) {
            y[i] = a * x[i] + y[i];
        }
    }
}

// saxpy_ref is the reference: a plain grid-stride loop, correct for any launch
// geometry, so perfgate can run it with saxpy's grid and compare y.
extern "C" __global__ void saxpy_ref(const float* __restrict__ x, float* __restrict__ y, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
