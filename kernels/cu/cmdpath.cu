// cmdpath.cu: the GPU side of the cmdpath and sharing suites.

// A launch command's 128 bytes of parameters, passed by value.
struct pg_params128 { unsigned int w[32]; };

// pg_cmd is the work of one submitted "launch" command: one warp folds the
// parameters into out, so that the launch cannot be elided.
extern "C" __global__ void pg_cmd(pg_params128 p, unsigned int* out) {
    unsigned int v = p.w[threadIdx.x & 31];
    if (threadIdx.x == 0) out[blockIdx.x] = v + p.w[0];
}

// pg_read_host copies n 16-byte words from mapped (zero-copy) host memory
// into device memory: the GPU reads the host's pages over the bus.
extern "C" __global__ void pg_read_host(const float4* __restrict__ src, float4* __restrict__ dst, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

// pg_fma_work is the sharing suite's small kernel: each thread runs iters
// dependent FMAs, so its time is compute latency on the SMs its few blocks
// occupy, and out depends on every step.
extern "C" __global__ void pg_fma_work(float* out, int iters) {
    float a = threadIdx.x * 1e-3f, b = 0.999f, c = 1e-4f;
    for (int i = 0; i < iters; i++) a = fmaf(a, b, c);
    out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
