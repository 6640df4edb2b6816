// inject: saxpy (y = a*x + y) with a controllable, known slowdown, for the
// separate-process experiments of docs/verdicts.md.
//
// EXTRA_PCT (set with -DEXTRA_PCT=N by the .perfgate.yml of each variant) adds
// a second saxpy over the first N% of the elements of two other buffers
// (x2, y2), so the kernel moves (100+N)% of the bytes of plain saxpy. At the
// DRAM-bound sizes used there its time grows by about N%. y, the checked
// output, is the same in every variant.
#ifndef EXTRA_PCT
#define EXTRA_PCT 0
#endif

extern "C" __global__ void inject(const float* __restrict__ x, float* __restrict__ y,
                                  const float* __restrict__ x2, float* __restrict__ y2, float a, int n)
{
    const long long extra = (long long)n * EXTRA_PCT / 100;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        y[i] = a * x[i] + y[i];
        if (i < extra) {
            y2[i] = a * x2[i] + y2[i];
        }
    }
}

// inject_ref is plain saxpy: the reference every variant's y must match.
extern "C" __global__ void inject_ref(const float* __restrict__ x, float* __restrict__ y,
                                      const float* __restrict__ x2, float* __restrict__ y2, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
