// decode.cu: token-by-token attention decode. B·H sequences, each with a
// query per step and a K/V cache of L positions, [B·H, L, D]. Step t attends
// the query of step t to cache positions 0 … t and writes O[t]; the query is
// Q[t] + O[t-1] (rounded to T), so each step depends on the previous one's
// output, as a generated token does. One block of 256 threads per sequence.
// decode_step runs one step per launch; decode_loop is the persistent
// kernel: one launch runs all L steps.

#ifndef NEG_INF
#define NEG_INF __uint_as_float(0xff800000u)
#endif
#define DEC_THREADS 256
#define DEC_WARPS (DEC_THREADS / 32)
#define DEC_MAXL 4096

__device__ __forceinline__ float dec_max(float v, float* red) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    float r = red[0];
#pragma unroll
    for (int w = 1; w < DEC_WARPS; w++) r = fmaxf(r, red[w]);
    __syncthreads();
    return r;
}

__device__ __forceinline__ float dec_sum(float v, float* red) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    float r = red[0];
#pragma unroll
    for (int w = 1; w < DEC_WARPS; w++) r += red[w];
    __syncthreads();
    return r;
}

template <class T, int D>
struct DecShared {
    float q[D];
    float sc[DEC_MAXL];
    float part[DEC_WARPS][D];
    float red[DEC_WARPS];
};

template <class T, int D>
__device__ __forceinline__ void decode_step(const T* Q, const T* K, const T* V, T* O, int t, int L, float scale_log2,
                                            DecShared<T, D>& sh) {
    i64 base = (i64)blockIdx.x * L * D;
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    for (int c = tid; c < D; c += DEC_THREADS) {
        float x = to_f(Q[base + (i64)t * D + c]);
        if (t > 0) x += to_f(O[base + (i64)(t - 1) * D + c]);
        sh.q[c] = to_f(from_f<T>(x));
    }
    __syncthreads();
    float mx = NEG_INF;
    for (int j = tid; j <= t; j += DEC_THREADS) {
        const v16* kr = (const v16*)(K + base + (i64)j * D);
        float dot = 0.f;
#pragma unroll
        for (int c = 0; c < D / 8; c++) {
            v16 w = kr[c];
            unsigned u[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
            for (int e = 0; e < 8; e++) {
                T h;
                h.v = (u16)(u[e / 2] >> (16 * (e & 1)));
                dot = fmaf(to_f(h), sh.q[c * 8 + e], dot);
            }
        }
        sh.sc[j] = dot * scale_log2;
        mx = fmaxf(mx, sh.sc[j]);
    }
    mx = dec_max(mx, sh.red);
    float sum = 0.f;
    for (int j = tid; j <= t; j += DEC_THREADS) {
        float p = exp2f(sh.sc[j] - mx);
        sh.sc[j] = p;
        sum += p;
    }
    sum = dec_sum(sum, sh.red); // its barrier also publishes sc
    constexpr int PER = D / 32;
    float a[PER];
#pragma unroll
    for (int e = 0; e < PER; e++) a[e] = 0.f;
    for (int j = warp; j <= t; j += DEC_WARPS) {
        float p = sh.sc[j];
        const T* vr = V + base + (i64)j * D + lane * PER;
#pragma unroll
        for (int e = 0; e < PER; e++) a[e] = fmaf(p, to_f(vr[e]), a[e]);
    }
#pragma unroll
    for (int e = 0; e < PER; e++) sh.part[warp][lane * PER + e] = a[e];
    __syncthreads();
    float r = 1.f / sum;
    for (int c = tid; c < D; c += DEC_THREADS) {
        float o = 0.f;
#pragma unroll
        for (int w = 0; w < DEC_WARPS; w++) o += sh.part[w][c];
        O[base + (i64)t * D + c] = from_f<T>(o * r);
    }
    __syncthreads(); // the next step reuses the shared arrays
}

#define DEC_ENTRIES(T, NAME, D)                                                                                      \
    extern "C" __global__ void __launch_bounds__(DEC_THREADS) decode_step_##NAME##_d##D(                          \
        const T* q, const T* k, const T* v, T* o, int t, int l, float sl) {                                         \
        __shared__ DecShared<T, D> sh;                                                                               \
        decode_step<T, D>(q, k, v, o, t, l, sl, sh);                                                                 \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(DEC_THREADS) decode_loop_##NAME##_d##D(                          \
        const T* q, const T* k, const T* v, T* o, int l, float sl) {                                                \
        __shared__ DecShared<T, D> sh;                                                                               \
        for (int t = 0; t < l; t++) decode_step<T, D>(q, k, v, o, t, l, sl, sh);                                     \
    }

DEC_ENTRIES(f16, fp16, 128)
DEC_ENTRIES(bf16, bf16, 128)
