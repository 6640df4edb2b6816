// decode.cu: token-by-token attention decode. B·H sequences, each with a
// query per step and a K/V cache of L positions, [B·H, L, D]. Step t attends
// the query of step t to cache positions 0 … t and writes O[t]; the query is
// Q[t] + O[t-1] (rounded to T), so each step depends on the previous one's
// output, as a generated token does. One block of 256 threads per sequence;
// within a step each warp takes a contiguous share of the keys and computes
// its scores, softmax and P·V on its own (flash-decoding's split, inside one
// block), and one barrier merges the eight partial results.
// decode_step runs one step per launch; decode_loop is the persistent
// kernel: one launch runs all L steps, keeping O[t-1] in shared memory.

#define NEG_INF __uint_as_float(0xff800000u)
#define DEC_THREADS 256
#define DEC_WARPS (DEC_THREADS / 32)
#define DEC_MAXL 4096

template <int D>
struct DecShared {
    float q[D];
    float prev[D];         // O[t-1] (persistent kernel)
    float sc[DEC_MAXL];    // scores, then probabilities, of the step's keys
    float po[DEC_WARPS][D]; // each warp's unnormalised P·V
    float pm[DEC_WARPS], pl[DEC_WARPS]; // each warp's max and sum
};

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// load4 reads four consecutive elements (8 bytes, aligned) as floats.
template <class T>
__device__ __forceinline__ void load4(const T* p, float f[4]) {
    uint2 w = *(const uint2*)p;
    unsigned u[2] = {w.x, w.y};
#pragma unroll
    for (int e = 0; e < 4; e++) {
        T h;
        h.v = (u16)(u[e / 2] >> (16 * (e & 1)));
        f[e] = to_f(h);
    }
}

// decode_step computes step t of this block's sequence. qt is Q[t][tid]
// (threads tid < D), loaded by the caller; with persistent, O[t-1] is read
// from shared memory instead of global memory.
template <class T, int D>
__device__ __forceinline__ void decode_step(float qt, const T* K, const T* V, T* O, int t, int L, float scale_log2,
                                            DecShared<D>& sh, bool persistent) {
    i64 base = (i64)blockIdx.x * L * D;
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    if (tid < D) {
        float x = qt;
        if (t > 0) x += persistent ? sh.prev[tid] : to_f(O[base + (i64)(t - 1) * D + tid]);
        sh.q[tid] = to_f(from_f<T>(x));
    }
    __syncthreads();
    int n = t + 1, share = (n + DEC_WARPS - 1) / DEC_WARPS;
    int k0 = warp * share, k1 = min(n, k0 + share);
    float mx = NEG_INF;
    for (int j = k0 + lane; j < k1; j += 32) {
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
    mx = warp_max(mx);
    float sum = 0.f;
    for (int j = k0 + lane; j < k1; j += 32) {
        float p = exp2f(sh.sc[j] - mx);
        sh.sc[j] = p;
        sum += p;
    }
    sum = warp_sum(sum);
    __syncwarp();
    constexpr int PER = D / 32;
    static_assert(PER == 4, "each lane owns four of the D = 128 dimensions");
    float a[4][PER];
#pragma unroll
    for (int u = 0; u < 4; u++)
#pragma unroll
        for (int e = 0; e < PER; e++) a[u][e] = 0.f;
    const T* vb = V + base + lane * PER;
    int j = k0;
    for (; j + 4 <= k1; j += 4) { // four rows in flight
#pragma unroll
        for (int u = 0; u < 4; u++) {
            float p = sh.sc[j + u], f[4];
            load4(vb + (i64)(j + u) * D, f);
#pragma unroll
            for (int e = 0; e < PER; e++) a[u][e] = fmaf(p, f[e], a[u][e]);
        }
    }
    for (; j < k1; j++) {
        float p = sh.sc[j], f[4];
        load4(vb + (i64)j * D, f);
#pragma unroll
        for (int e = 0; e < PER; e++) a[0][e] = fmaf(p, f[e], a[0][e]);
    }
#pragma unroll
    for (int e = 0; e < PER; e++) sh.po[warp][lane * PER + e] = a[0][e] + a[1][e] + a[2][e] + a[3][e];
    if (lane == 0) {
        sh.pm[warp] = mx; // NEG_INF for a warp with no keys: its weight below is 0
        sh.pl[warp] = sum;
    }
    __syncthreads();
    if (tid < D) {
        float m = sh.pm[0];
#pragma unroll
        for (int w = 1; w < DEC_WARPS; w++) m = fmaxf(m, sh.pm[w]);
        float o = 0.f, l = 0.f;
#pragma unroll
        for (int w = 0; w < DEC_WARPS; w++) {
            float c = exp2f(sh.pm[w] - m);
            o = fmaf(c, sh.po[w][tid], o);
            l = fmaf(c, sh.pl[w], l);
        }
        T r = from_f<T>(o / l);
        O[base + (i64)t * D + tid] = r;
        sh.prev[tid] = to_f(r);
    }
    __syncthreads(); // the next step reuses the shared arrays
}

#define DEC_ENTRIES(T, NAME, D)                                                                              \
    extern "C" __global__ void __launch_bounds__(DEC_THREADS) decode_step_##NAME##_d##D(                  \
        const T* q, const T* k, const T* v, T* o, int t, int l, float sl) {                                 \
        __shared__ DecShared<D> sh;                                                                          \
        float qt = threadIdx.x < D ? to_f(q[(i64)blockIdx.x * l * D + (i64)t * D + threadIdx.x]) : 0.f;     \
        decode_step<T, D>(qt, k, v, o, t, l, sl, sh, false);                                                 \
    }                                                                                                        \
    extern "C" __global__ void __launch_bounds__(DEC_THREADS) decode_loop_##NAME##_d##D(                  \
        const T* q, const T* k, const T* v, T* o, int l, float sl) {                                        \
        __shared__ DecShared<D> sh;                                                                          \
        const T* qb = q + (i64)blockIdx.x * l * D + threadIdx.x;                                             \
        float qt = threadIdx.x < D ? to_f(qb[0]) : 0.f;                                                      \
        for (int t = 0; t < l; t++) {                                                                        \
            /* The next step's Q row does not depend on this step: load it now. */                          \
            float qn = (threadIdx.x < D && t + 1 < l) ? to_f(qb[(i64)(t + 1) * D]) : 0.f;                    \
            decode_step<T, D>(qt, k, v, o, t, l, sl, sh, true);                                              \
            qt = qn;                                                                                         \
        }                                                                                                    \
    }

DEC_ENTRIES(f16, fp16, 128)
DEC_ENTRIES(bf16, bf16, 128)
