// mixedops.cu: x = div(sigmoid(relu(mul(add(x, a), b))), c), one kernel per
// step (unfused) or all five steps in one kernel (fused).
#define GRID_STRIDE(i, n) for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)gridDim.x * blockDim.x)

__device__ __forceinline__ float sigm(float v) { return 1.0f / (1.0f + expf(-v)); }

extern "C" __global__ void mx_add(const float* __restrict__ x, const float* __restrict__ a, float* __restrict__ y, i64 n) { GRID_STRIDE(i, n) y[i] = x[i] + a[i]; }
extern "C" __global__ void mx_mul(const float* __restrict__ x, const float* __restrict__ b, float* __restrict__ y, i64 n) { GRID_STRIDE(i, n) y[i] = x[i] * b[i]; }
extern "C" __global__ void mx_relu(const float* __restrict__ x, float* __restrict__ y, i64 n) { GRID_STRIDE(i, n) y[i] = x[i] > 0.0f ? x[i] : 0.0f; }
extern "C" __global__ void mx_sigmoid(const float* __restrict__ x, float* __restrict__ y, i64 n) { GRID_STRIDE(i, n) y[i] = sigm(x[i]); }
extern "C" __global__ void mx_div(const float* __restrict__ x, const float* __restrict__ c, float* __restrict__ y, i64 n) { GRID_STRIDE(i, n) y[i] = x[i] / c[i]; }

extern "C" __global__ void mx_fused(const float* __restrict__ x, const float* __restrict__ a, const float* __restrict__ b,
                                    const float* __restrict__ c, float* __restrict__ y, i64 n) {
    GRID_STRIDE(i, n) {
        float t = __fmul_rn(x[i] + a[i], b[i]);
        t = t > 0.0f ? t : 0.0f;
        y[i] = sigm(t) / c[i];
    }
}
