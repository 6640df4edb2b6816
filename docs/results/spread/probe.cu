// probe.cu: the kernels of probe.c (docs/gpu.md, "Where the between-process
// spread lives"): perfgate's 16-byte-vector fp32 add and its blocking kernel.
typedef long long i64;
extern "C" __global__ void add4(const float* a, const float* b, float* o, i64 n) {
    i64 n4 = n / 4, stride = (i64)gridDim.x * blockDim.x;
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 x = ((const float4*)a)[i], y = ((const float4*)b)[i];
        ((float4*)o)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}
extern "C" __global__ void pg_block(volatile int* release, volatile int* timed_out, unsigned long long max_ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    while (*release == 0) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > max_ns) { *timed_out = 1; return; }
    }
}
extern "C" __global__ void mul4(const float* a, const float* b, float* o, i64 n) {
    i64 n4 = n / 4, stride = (i64)gridDim.x * blockDim.x;
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 x = ((const float4*)a)[i], y = ((const float4*)b)[i];
        ((float4*)o)[i] = make_float4(x.x * y.x, x.y * y.y, x.z * y.z, x.w * y.w);
    }
}
