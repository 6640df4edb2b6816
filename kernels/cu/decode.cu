// decode.cu: token-by-token attention decode. B·H sequences, each with a
// query per step and a K/V cache of L positions, [B·H, L, D]. Step t attends
// the query of step t to cache positions 0 … t and writes O[t]; the query is
// Q[t] + O[t-1] (rounded to T), so each step depends on the previous one's
// output, as a generated token does. One block of 256 threads per sequence;
// within a step each warp takes a contiguous share of the keys and computes
// its scores, softmax and P·V on its own (flash-decoding's split, inside one
// block), and one barrier merges the eight partial results.
// decode_step runs one step per launch; decode_loop is the persistent
// kernel: one launch runs all L steps, forming each step's query from the
// previous output in shared memory, and keeping the first ls positions of its sequence's K and V too (copied once at the
// start: what a kernel that lives across steps can do and one launch per
// step cannot). At L ≤ 256 a block's K/V stay in L1 without it; it pays at
// L = 512 and in cold runs, where the steps would otherwise fetch the cache
// row by row from DRAM. K rows are stored with their 16-byte chunks swizzled
// (chunk c of row j at c ^ (j & 7)) so the eight lanes of a quarter warp,
// each reading its own row, hit distinct banks.

#define NEG_INF __uint_as_float(0xff800000u)
#define DEC_THREADS 256
#define DEC_WARPS (DEC_THREADS / 32)
#define DEC_MAXL 4096

template <int D>
struct DecShared {
    float q[D];
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
// (threads tid < D), loaded by the caller. With persistent, the query of a
// step t > 0 is already in sh.q: the previous step formed it from qnext
// (Q[t+1][tid]) and its own output, which saves a block barrier a step.
template <class T, int D>
__device__ __forceinline__ void decode_step(float qt, const T* K, const T* V, T* O, int t, int L, float scale_log2,
                                            DecShared<D>& sh, bool persistent, const T* Ks, const T* Vs, int ls,
                                            float qnext) {
    i64 base = (i64)blockIdx.x * L * D;
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    if (!persistent || t == 0) {
        if (tid < D) {
            float x = qt;
            if (t > 0) x += to_f(O[base + (i64)(t - 1) * D + tid]);
            sh.q[tid] = to_f(from_f<T>(x));
        }
        __syncthreads();
    }
    int n = t + 1, share = (n + DEC_WARPS - 1) / DEC_WARPS;
    int k0 = warp * share, k1 = min(n, k0 + share);
    float mx = NEG_INF;
    const float4* q4 = (const float4*)sh.q;
    for (int j = k0 + lane; j < k1; j += 32) {
        const v16* kr = j < ls ? (const v16*)(Ks + (i64)j * D) : (const v16*)(K + base + (i64)j * D);
        int sw = j < ls ? (j & 7) : 0;
        float dot[4] = {0.f, 0.f, 0.f, 0.f}; // four independent FMA chains, not one of D
#pragma unroll
        for (int c = 0; c < D / 8; c++) {
            v16 w = kr[c ^ sw];
            unsigned u[4] = {w.x, w.y, w.z, w.w};
            float4 qa = q4[2 * c], qb = q4[2 * c + 1];
            float qv[8] = {qa.x, qa.y, qa.z, qa.w, qb.x, qb.y, qb.z, qb.w};
#pragma unroll
            for (int e = 0; e < 8; e++) {
                T h;
                h.v = (u16)(u[e / 2] >> (16 * (e & 1)));
                dot[e & 3] = fmaf(to_f(h), qv[e], dot[e & 3]);
            }
        }
        sh.sc[j] = ((dot[0] + dot[1]) + (dot[2] + dot[3])) * scale_log2;
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
    const T* vs = Vs + lane * PER;
    int j = k0;
    for (; j + 8 <= k1; j += 8) { // eight rows in flight
        float f[8][4];
#pragma unroll
        for (int u = 0; u < 8; u++) load4(j + u < ls ? vs + (j + u) * D : vb + (i64)(j + u) * D, f[u]);
#pragma unroll
        for (int u = 0; u < 8; u++) {
            float p = sh.sc[j + u];
#pragma unroll
            for (int e = 0; e < PER; e++) a[u & 3][e] = fmaf(p, f[u][e], a[u & 3][e]);
        }
    }
    for (; j < k1; j++) {
        float p = sh.sc[j], f[4];
        load4(j < ls ? vs + j * D : vb + (i64)j * D, f);
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
        // Every warp is past its reads of sh.q (the barrier above).
        if (persistent) sh.q[tid] = to_f(from_f<T>(qnext + to_f(r)));
    }
    __syncthreads(); // the next step reuses the shared arrays
}

// stage_kv copies positions 0 … ls-1 of this block's K (swizzled) and V into
// shared memory.
template <class T, int D>
__device__ __forceinline__ void stage_kv(const T* K, const T* V, int L, T* Ks, T* Vs, int ls) {
    constexpr int C = D / 8; // 16-byte chunks a row
    i64 base = (i64)blockIdx.x * L * D;
    const v16* kg = (const v16*)(K + base);
    const v16* vg = (const v16*)(V + base);
    for (int i = threadIdx.x; i < ls * C; i += blockDim.x) {
        int j = i / C, c = i % C;
        ((v16*)Ks)[j * C + (c ^ (j & 7))] = kg[i];
        ((v16*)Vs)[i] = vg[i];
    }
    __syncthreads();
}

#define DEC_ENTRIES(T, NAME, D)                                                                              \
    extern "C" __global__ void __launch_bounds__(DEC_THREADS) decode_step_##NAME##_d##D(                  \
        const T* q, const T* k, const T* v, T* o, int t, int l, float sl) {                                 \
        __shared__ DecShared<D> sh;                                                                          \
        float qt = threadIdx.x < D ? to_f(q[(i64)blockIdx.x * l * D + (i64)t * D + threadIdx.x]) : 0.f;     \
        decode_step<T, D>(qt, k, v, o, t, l, sl, sh, false, (const T*)0, (const T*)0, 0, 0.f);                   \
    }                                                                                                        \
    /* ls: positions of K/V kept in dynamic shared memory (2 · ls · D elements). */                        \
    extern "C" __global__ void __launch_bounds__(DEC_THREADS) decode_loop_##NAME##_d##D(                  \
        const T* q, const T* k, const T* v, T* o, int l, float sl, int ls) {                                \
        __shared__ DecShared<D> sh;                                                                          \
        extern __shared__ __align__(16) unsigned char dec_kv[];                                              \
        T* ks = (T*)dec_kv;                                                                                  \
        T* vs = ks + (i64)ls * D;                                                                            \
        const T* qb = q + (i64)blockIdx.x * l * D + threadIdx.x;                                             \
        float qt = threadIdx.x < D ? to_f(qb[0]) : 0.f;                                                      \
        stage_kv<T, D>(k, v, l, ks, vs, ls);                                                                 \
        for (int t = 0; t < l; t++) {                                                                        \
            /* The next step's Q row does not depend on this step: load it now. */                          \
            float qn = (threadIdx.x < D && t + 1 < l) ? to_f(qb[(i64)(t + 1) * D]) : 0.f;                    \
            decode_step<T, D>(qt, k, v, o, t, l, sl, sh, true, ks, vs, ls, qn);                               \
        }                                                                                                    \
    }

DEC_ENTRIES(f16, fp16, 128)
DEC_ENTRIES(bf16, bf16, 128)
