// rowwise.cu: the rowwise suite. LayerNorm, RMSNorm and softmax keep a whole
// row in registers (K 16-byte vectors per thread, tpr threads per row), so x
// is read from memory once and y written once; gamma/beta stay in registers
// across the rows a block walks (grid-stride over row groups). Cross-entropy
// streams each row once with an online log-sum-exp; MSE is a grid-stride
// reduction. Both reductions end in one launch: every block writes a
// partial, and the last block to finish sums them in a fixed order (so the
// result is deterministic) and resets the counter. Dropout uses Philox4x32-10
// keyed by (seed, element / 4), which the CPU replays (numeric_rowwise.go).
// RW_K(T, Kind) 16-byte vectors of a row per thread: 4 for fp32 and
// softmax, 2 for LayerNorm and RMSNorm of the 2-byte types (as many elements
// a thread as fp32 holds, half the registers); rowVectors in
// suite_rowwise_cuda.go must agree. Measured on the H100 at 16×2048×4096:
// LayerNorm bf16 at 4 vectors 79.7% of the copy ceiling, at 2 87.0%;
// softmax fp16 at 4 91.5%, at 2 79.7%.
#define RW_K(T, Kind) (sizeof(T) == 4 || Kind == 2 ? 4 : 2)
#define LOG2E 1.4426950408889634f

template <class T> union RLanes {
    v16 v;
    T e[16 / sizeof(T)];
};

// group_sum / group_max reduce v over the tpr threads of a row group (tpr a
// power of two, groups aligned). Every thread of the block must call them.
__device__ __forceinline__ float warp_sum(float v, int width) {
    for (int o = width / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__device__ __forceinline__ float warp_max(float v, int width) {
    for (int o = width / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ float group_sum(float v, int tpr, float* red) {
    v = warp_sum(v, tpr < 32 ? tpr : 32);
    if (tpr <= 32) return v;
    int nw = tpr / 32, first = (threadIdx.x / tpr) * nw;
    __syncthreads();
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = v;
    __syncthreads();
    float s = 0.0f;
    for (int i = 0; i < nw; i++) s += red[first + i];
    return s;
}

__device__ __forceinline__ float group_max(float v, int tpr, float* red) {
    v = warp_max(v, tpr < 32 ? tpr : 32);
    if (tpr <= 32) return v;
    int nw = tpr / 32, first = (threadIdx.x / tpr) * nw;
    __syncthreads();
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = v;
    __syncthreads();
    float m = __int_as_float(0xff800000);
    for (int i = 0; i < nw; i++) m = fmaxf(m, red[first + i]);
    return m;
}

// load_row reads this thread's vectors of row r into f (zeros past the row).
template <class T, int K>
__device__ __forceinline__ void load_vecs(const T* __restrict__ p, int nv, int lane, int tpr, bool active,
                                          float f[K][16 / sizeof(T)]) {
    constexpr int V = 16 / sizeof(T);
    const v16* pv = (const v16*)p;
#pragma unroll
    for (int j = 0; j < K; j++) {
        int i = lane + j * tpr;
        RLanes<T> x;
        if (active && i < nv) x.v = pv[i]; else x.v = v16{0u, 0u, 0u, 0u};
#pragma unroll
        for (int k = 0; k < V; k++) f[j][k] = to_f(x.e[k]);
    }
}

template <class T, int K>
__device__ __forceinline__ void store_vecs(T* __restrict__ p, int nv, int lane, int tpr, bool active,
                                           const float f[K][16 / sizeof(T)]) {
    v16* pv = (v16*)p;
#pragma unroll
    for (int j = 0; j < K; j++) {
        int i = lane + j * tpr;
        if (!active || i >= nv) continue;
        pv[i] = pack_v16<T>(f[j]);
    }
}

// Kind selects the row op: 0 LayerNorm (affine), 1 RMSNorm (weight), 2 softmax.
template <class T, int Kind>
__device__ void row_norm(const T* __restrict__ x, const T* __restrict__ gamma, const T* __restrict__ beta,
                         T* __restrict__ y, i64 rows, int d, int tpr, float eps) {
    constexpr int V = 16 / sizeof(T), K = RW_K(T, Kind);
    __shared__ float red[32];
    int nv = d / V, lane = threadIdx.x % tpr, gpb = blockDim.x / tpr;
    // gamma and beta stay packed in registers (converted on use): fewer registers, more blocks per SM.
    RLanes<T> g[K], b[K];
#pragma unroll
    for (int j = 0; j < K; j++) {
        int i = lane + j * tpr;
        g[j].v = b[j].v = v16{0u, 0u, 0u, 0u};
        if (Kind != 2 && i < nv) g[j].v = ((const v16*)gamma)[i];
        if (Kind == 0 && i < nv) b[j].v = ((const v16*)beta)[i];
    }
    float inv_d = 1.0f / (float)d;
    for (i64 base = (i64)blockIdx.x * gpb; base < rows; base += (i64)gridDim.x * gpb) {
        i64 row = base + threadIdx.x / tpr;
        bool active = row < rows;
        float f[K][V];
        load_vecs<T, K>(x + row * d, nv, lane, tpr, active, f);
        if (Kind == 0) {
            float s = 0.0f;
#pragma unroll
            for (int j = 0; j < K; j++)
#pragma unroll
                for (int k = 0; k < V; k++) s += f[j][k];
            float mean = group_sum(s, tpr, red) * inv_d;
            float q = 0.0f;
#pragma unroll
            for (int j = 0; j < K; j++)
#pragma unroll
                for (int k = 0; k < V; k++) {
                    float c = (lane + j * tpr < nv) ? f[j][k] - mean : 0.0f;
                    q += c * c;
                }
            float rstd = rsqrtf(group_sum(q, tpr, red) * inv_d + eps);
#pragma unroll
            for (int j = 0; j < K; j++)
#pragma unroll
                for (int k = 0; k < V; k++) f[j][k] = fmaf((f[j][k] - mean) * rstd, to_f(g[j].e[k]), to_f(b[j].e[k]));
        } else if (Kind == 1) {
            float q = 0.0f;
#pragma unroll
            for (int j = 0; j < K; j++)
#pragma unroll
                for (int k = 0; k < V; k++) q += f[j][k] * f[j][k];
            float rrms = rsqrtf(group_sum(q, tpr, red) * inv_d + eps);
#pragma unroll
            for (int j = 0; j < K; j++)
#pragma unroll
                for (int k = 0; k < V; k++) f[j][k] = f[j][k] * rrms * to_f(g[j].e[k]);
        } else {
            float m = __int_as_float(0xff800000);
#pragma unroll
            for (int j = 0; j < K; j++)
#pragma unroll
                for (int k = 0; k < V; k++)
                    if (lane + j * tpr < nv) m = fmaxf(m, f[j][k]);
            m = group_max(m, tpr, red) * LOG2E;
            float s = 0.0f;
#pragma unroll
            for (int j = 0; j < K; j++)
#pragma unroll
                for (int k = 0; k < V; k++) {
                    float e = (lane + j * tpr < nv) ? exp2f(fmaf(f[j][k], LOG2E, -m)) : 0.0f;
                    f[j][k] = e;
                    s += e;
                }
            float inv = 1.0f / group_sum(s, tpr, red);
#pragma unroll
            for (int j = 0; j < K; j++)
#pragma unroll
                for (int k = 0; k < V; k++) f[j][k] *= inv;
        }
        store_vecs<T, K>(y + row * d, nv, lane, tpr, active, f);
    }
}

// RW_BOUNDS caps the 2-byte row kernels at 64 registers a thread (no spills):
// four 256-thread blocks per SM, and a 1024-thread block fits.
#define RW_BOUNDS __launch_bounds__(1024)
#define ROWNORM(name, Kind)                                                                                          \
    extern "C" __global__ void name##_fp32(const float* x, const float* g, const float* b, float* y, i64 rows, int d, int tpr, float eps) { row_norm<float, Kind>(x, g, b, y, rows, d, tpr, eps); } \
    extern "C" __global__ void RW_BOUNDS name##_fp16(const f16* x, const f16* g, const f16* b, f16* y, i64 rows, int d, int tpr, float eps) { row_norm<f16, Kind>(x, g, b, y, rows, d, tpr, eps); }           \
    extern "C" __global__ void RW_BOUNDS name##_bf16(const bf16* x, const bf16* g, const bf16* b, bf16* y, i64 rows, int d, int tpr, float eps) { row_norm<bf16, Kind>(x, g, b, y, rows, d, tpr, eps); }

ROWNORM(layernorm, 0)
ROWNORM(rmsnorm, 1)
ROWNORM(softmax, 2)

// block_sum reduces v over the whole block (blockDim.x a multiple of 32, ≤ 1024).
__device__ __forceinline__ float block_sum(float v, float* red) {
    v = warp_sum(v, 32);
    __syncthreads();
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = v;
    __syncthreads();
    float s = 0.0f;
    int nw = blockDim.x / 32;
    for (int i = 0; i < nw; i++) s += red[i];
    return s;
}

// finish_mean: each block hands in its partial; the last block sums the
// partials in index order and writes total * scale to *out.
__device__ void finish_mean(float part, float* partials, unsigned* counter, float* out, float scale, float* red) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = part;
        __threadfence();
        last = atomicAdd(counter, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    float s = 0.0f;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) s += __ldcg(partials + i);
    s = block_sum(s, red);
    if (threadIdx.x == 0) {
        *out = s * scale;
        *counter = 0u;
    }
}

// MSE: mean((a - b)^2) over n elements, fp32 accumulation.
template <class T>
__device__ void mse(const T* __restrict__ a, const T* __restrict__ b, float* out, float* partials, unsigned* counter, i64 n) {
    constexpr int V = 16 / sizeof(T);
    __shared__ float red[32];
    i64 tid = (i64)blockIdx.x * blockDim.x + threadIdx.x, stride = (i64)gridDim.x * blockDim.x;
    const v16* av = (const v16*)a;
    const v16* bv = (const v16*)b;
    float s0 = 0.0f, s1 = 0.0f;
    i64 nv = n / V, i = tid;
    for (; i + stride < nv; i += 2 * stride) {
        RLanes<T> x0, y0, x1, y1;
        x0.v = av[i]; y0.v = bv[i]; x1.v = av[i + stride]; y1.v = bv[i + stride];
#pragma unroll
        for (int k = 0; k < V; k++) {
            float d0 = to_f(x0.e[k]) - to_f(y0.e[k]), d1 = to_f(x1.e[k]) - to_f(y1.e[k]);
            s0 = fmaf(d0, d0, s0);
            s1 = fmaf(d1, d1, s1);
        }
    }
    for (; i < nv; i += stride) {
        RLanes<T> x0, y0;
        x0.v = av[i]; y0.v = bv[i];
#pragma unroll
        for (int k = 0; k < V; k++) { float d0 = to_f(x0.e[k]) - to_f(y0.e[k]); s0 = fmaf(d0, d0, s0); }
    }
    for (i64 t = nv * V + tid; t < n; t += stride) { float d0 = to_f(a[t]) - to_f(b[t]); s0 = fmaf(d0, d0, s0); }
    finish_mean(block_sum(s0 + s1, red), partials, counter, out, 1.0f / (float)n, red);
}

extern "C" __global__ void mse_fp32(const float* a, const float* b, float* o, float* p, unsigned* c, i64 n) { mse(a, b, o, p, c, n); }
extern "C" __global__ void mse_fp16(const f16* a, const f16* b, float* o, float* p, unsigned* c, i64 n) { mse(a, b, o, p, c, n); }
extern "C" __global__ void mse_bf16(const bf16* a, const bf16* b, float* o, float* p, unsigned* c, i64 n) { mse(a, b, o, p, c, n); }

// Cross-entropy, mean over rows: loss_r = logsumexp(x_r) - x_r[target_r].
// Each row is read once: every thread keeps a running (max, sum of exp).
template <class T>
__device__ void cross_entropy(const T* __restrict__ x, const i64* __restrict__ target, float* out, float* partials,
                              unsigned* counter, i64 rows, int classes, int tpr) {
    constexpr int V = 16 / sizeof(T);
    __shared__ float red[32];
    int nv = classes / V, lane = threadIdx.x % tpr, gpb = blockDim.x / tpr;
    float acc = 0.0f; // the group leader's sum of its rows' losses
    for (i64 base = (i64)blockIdx.x * gpb; base < rows; base += (i64)gridDim.x * gpb) {
        i64 row = base + threadIdx.x / tpr;
        bool active = row < rows;
        const v16* xv = (const v16*)(x + (active ? row : 0) * classes);
        float m = __int_as_float(0xff800000), s = 0.0f;
        // Four independent 16-byte loads in flight per thread, then the online update.
        for (int i0 = lane; active && i0 < nv; i0 += 4 * tpr) {
            RLanes<T> v[4];
#pragma unroll
            for (int u = 0; u < 4; u++) {
                int i = i0 + u * tpr;
                v[u].v = i < nv ? xv[i] : xv[i0];
            }
            float vm = m;
#pragma unroll
            for (int u = 0; u < 4; u++)
#pragma unroll
                for (int k = 0; k < V; k++) vm = fmaxf(vm, to_f(v[u].e[k]));
            s *= exp2f((m - vm) * LOG2E); // first pass: m = -inf, so s = 0 * 0
            m = vm;
#pragma unroll
            for (int u = 0; u < 4; u++)
                if (i0 + u * tpr < nv)
#pragma unroll
                    for (int k = 0; k < V; k++) s += exp2f((to_f(v[u].e[k]) - m) * LOG2E);
        }
        float gm = group_max(m, tpr, red);
        float gs = group_sum(s > 0.0f ? s * exp2f((m - gm) * LOG2E) : 0.0f, tpr, red);
        if (active && lane == 0) acc += logf(gs) + gm - to_f(x[row * classes + target[row]]);
    }
    finish_mean(block_sum(acc, red), partials, counter, out, 1.0f / (float)rows, red);
}

extern "C" __global__ void cross_entropy_fp32(const float* x, const i64* t, float* o, float* p, unsigned* c, i64 rows, int classes, int tpr) { cross_entropy(x, t, o, p, c, rows, classes, tpr); }
extern "C" __global__ void cross_entropy_fp16(const f16* x, const i64* t, float* o, float* p, unsigned* c, i64 rows, int classes, int tpr) { cross_entropy(x, t, o, p, c, rows, classes, tpr); }
extern "C" __global__ void cross_entropy_bf16(const bf16* x, const i64* t, float* o, float* p, unsigned* c, i64 rows, int classes, int tpr) { cross_entropy(x, t, o, p, c, rows, classes, tpr); }

// rw_fill_targets writes class indices: fmix32(i ^ seed) % classes (numeric_rowwise.go replays it).
extern "C" __global__ void rw_fill_targets(i64* t, i64 rows, unsigned seed, int classes) {
    i64 stride = (i64)gridDim.x * blockDim.x;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += stride)
        t[i] = (i64)(fmix32((unsigned)i ^ seed) % (unsigned)classes);
}

// Philox4x32-10 (Salmon et al., SC'11), as in cuRAND and PyTorch.
__device__ __forceinline__ uint4 philox(unsigned c0, unsigned c1, unsigned k0, unsigned k1) {
    unsigned c2 = 0u, c3 = 0u;
#pragma unroll
    for (int r = 0; r < 10; r++) {
        unsigned hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
        unsigned hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
        unsigned n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0; c1 = lo1; c2 = n2; c3 = lo0;
        k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
    }
    return make_uint4(c0, c1, c2, c3);
}

// Dropout: element i is kept when word i%4 of philox(i/4, seed) < threshold
// (keep probability · 2^32), and scaled by 1/keep.
template <class T>
__device__ void dropout(const T* __restrict__ x, T* __restrict__ y, i64 n, unsigned long long seed, unsigned threshold, float scale) {
    constexpr int V = 16 / sizeof(T);
    i64 tid = (i64)blockIdx.x * blockDim.x + threadIdx.x, stride = (i64)gridDim.x * blockDim.x;
    unsigned k0 = (unsigned)seed, k1 = (unsigned)(seed >> 32);
    const v16* xv = (const v16*)x;
    v16* yv = (v16*)y;
    i64 nv = n / V;
    for (i64 i = tid; i < nv; i += stride) {
        RLanes<T> a;
        float r[V];
        a.v = xv[i];
#pragma unroll
        for (int q = 0; q < V / 4; q++) {
            unsigned long long c = (unsigned long long)i * (V / 4) + q;
            uint4 w = philox((unsigned)c, (unsigned)(c >> 32), k0, k1);
            unsigned ws[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
            for (int k = 0; k < 4; k++)
                r[q * 4 + k] = ws[k] < threshold ? __fmul_rn(to_f(a.e[q * 4 + k]), scale) : 0.0f;
        }
        yv[i] = pack_v16<T>(r);
    }
    for (i64 t = nv * V + tid; t < n; t += stride) {
        uint4 w = philox((unsigned)(t / 4), (unsigned)((unsigned long long)(t / 4) >> 32), k0, k1);
        unsigned ws[4] = {w.x, w.y, w.z, w.w};
        y[t] = from_f<T>(ws[t % 4] < threshold ? __fmul_rn(to_f(x[t]), scale) : 0.0f);
    }
}

extern "C" __global__ void dropout_fp32(const float* x, float* y, i64 n, unsigned long long s, unsigned t, float sc) { dropout(x, y, n, s, t, sc); }
extern "C" __global__ void dropout_fp16(const f16* x, f16* y, i64 n, unsigned long long s, unsigned t, float sc) { dropout(x, y, n, s, t, sc); }
extern "C" __global__ void dropout_bf16(const bf16* x, bf16* y, i64 n, unsigned long long s, unsigned t, float sc) { dropout(x, y, n, s, t, sc); }
