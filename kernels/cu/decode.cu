// decode.cu: token-by-token attention decode. B·H sequences, each with a
// query per step and a K/V cache of L positions, [B·H, L, D], D = 128. Step t
// attends the query of step t to cache positions 0 … t and writes O[t]; the
// query is Q[t] + O[t-1] (rounded to T), so each step depends on the previous
// one's output, as a generated token does.
//
// One block of W warps per sequence, on tensor cores. The query lives in
// registers as an mma B fragment (its 8 columns all q), so the scores of 16
// keys are one m16n8k16 per 16 dimensions with K as the A operand; the keys
// go in tiles of 16, tile i to warp i % W, and each warp keeps an online
// softmax and P·V (Vᵀ as A, p as B: 8 mmas a tile) in registers. Each warp
// leaves its unnormalised output, max and sum in a slot (two sets,
// alternating by step, so one barrier a step suffices); after the barrier
// every lane merges the W slots for its 4 output dimensions, stores them and
// forms its part of the next query, which shuffles spread to every lane.
// P is rounded to T for the P·V product, as FlashAttention does.
//
// decode_step_wW runs one step a launch, reading K/V tiles from global
// memory through a per-warp scratch tile (one ahead). decode_chip_wW is the
// persistent kernel for a sequence that fits on chip: one launch runs all L
// steps, its first ls positions copied once into shared memory, the
// remaining tiles (at most one a warp) into registers, so the steps touch
// global memory only for Q[t+1] and O[t]. decode_loop_wW is the persistent
// kernel when it does not fit (L = 4096): ls positions staged, the rest read
// as decode_step does. K/V rows sit in shared memory with a stride of D + 8
// elements, which makes ldmatrix conflict-free.

#define NEG_INF __uint_as_float(0xff800000u)

#define DM_D 128
#define DM_CHAINS 2 // accumulators of a tile's scores (2, 4 and 8 measured the same)
#define DM_PAD (DM_D + 8) // row stride in shared memory, elements

// dm_add2 rounds (a + b) elementwise for two pairs of T packed in words.
template <class T> __device__ __forceinline__ unsigned dm_add2(unsigned a, unsigned b) {
    T a0, a1, b0, b1;
    a0.v = (u16)a; a1.v = (u16)(a >> 16); b0.v = (u16)b; b1.v = (u16)(b >> 16);
    return pack2<T>(to_f(a0) + to_f(b0), to_f(a1) + to_f(b1));
}

// DmShared carves a decode block's dynamic shared memory: the merge
// slots, nscr scratch tiles (K and V, 16 rows each), then ls staged rows of K and of V.
template <int W> struct DmShared {
    float* mo; // [2][W][D]: each warp's unnormalised output
    float* mm; // [2][W]: each warp's running max (log2 units)
    float* ml; // [2][W]: each warp's sum
    u16* scr;  // [W][2][16][DM_PAD]
    u16* ks;   // [ls][DM_PAD]
    u16* vs;   // [ls][DM_PAD]
    __device__ DmShared(unsigned char* p, int ls, int nscr) {
        mo = (float*)p;
        mm = mo + 2 * W * DM_D;
        ml = mm + 2 * W;
        scr = (u16*)(ml + 2 * W);
        ks = scr + nscr * 2 * 16 * DM_PAD;
        vs = ks + ls * DM_PAD;
    }
};

// dm_fetch loads rows 16i … 16i+15 of K and V (8 16-byte chunks a lane each).
__device__ __forceinline__ void dm_fetch(const u16* K, const u16* V, int i, v16 pk[8], v16 pv[8], int lane) {
#pragma unroll
    for (int u = 0; u < 8; u++) {
        int q = lane + 32 * u, r = q >> 4, ch = q & 15;
        pk[u] = *(const v16*)(K + (i64)(16 * i + r) * DM_D + ch * 8);
        pv[u] = *(const v16*)(V + (i64)(16 * i + r) * DM_D + ch * 8);
    }
}
__device__ __forceinline__ void dm_put(u16* sk, u16* sv, const v16 pk[8], const v16 pv[8], int lane) {
#pragma unroll
    for (int u = 0; u < 8; u++) {
        int q = lane + 32 * u, r = q >> 4, ch = q & 15;
        *(v16*)(sk + r * DM_PAD + ch * 8) = pk[u];
        *(v16*)(sv + r * DM_PAD + ch * 8) = pv[u];
    }
}

#ifdef DM_PROF // the bench's phase timer: cycles of block 0, warp 0, summed over steps
__device__ unsigned long long dm_prof[8];
#define DM_MARK(i)                                                                                          \
    do {                                                                                                   \
        unsigned now_ = clock();                                                                           \
        if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&dm_prof[i], (unsigned long long)(now_ - prof_)); \
        prof_ = now_;                                                                                      \
    } while (0)
#define DM_PROF_START unsigned prof_ = clock()
#else
#define DM_MARK(i)
#define DM_PROF_START
#endif

// dm_scores computes a tile's scores of keys g (x[0]) and g + 8 (x[1]),
// g = lane / 4, from K rows at kt in shared memory or, with REG, from the
// tile's A fragments kr in registers.
template <class T, bool REG>
__device__ __forceinline__ void dm_scores(float x[2], const u16* kt, const unsigned kr[8][4], const unsigned qw[8][2],
                                          int lane) {
    int m = lane >> 3;
    float s[DM_CHAINS][4]; // independent accumulators: the mma latency is paid 8 / DM_CHAINS times, not 8
#pragma unroll
    for (int h = 0; h < DM_CHAINS; h++) s[h][0] = s[h][1] = s[h][2] = s[h][3] = 0.f;
#pragma unroll
    for (int kk = 0; kk < 8; kk++) {
        if constexpr (REG) {
            mma<T>(s[kk % DM_CHAINS], kr[kk], qw[kk][0], qw[kk][1]);
        } else {
            unsigned a[4];
            ldsm4(a, kt + ((m & 1) * 8 + (lane & 7)) * DM_PAD + kk * 16 + (m >> 1) * 8);
            mma<T>(s[kk % DM_CHAINS], a, qw[kk][0], qw[kk][1]);
        }
    }
#pragma unroll
    for (int w = DM_CHAINS / 2; w > 0; w /= 2)
#pragma unroll
        for (int h = 0; h < w; h++) {
            s[h][0] += s[h + w][0];
            s[h][2] += s[h + w][2];
        }
    x[0] = s[0][0];
    x[1] = s[0][2];
}

// dm_pv adds P·V of a tile to acc (acc[mi][0] is dimension 16mi + g,
// acc[mi][2] dimension 16mi + g + 8): p0, p1 are this lane's
// probabilities of keys g and g + 8; V rows at vt, or with REG the tile's
// Vᵀ A fragments vr.
template <class T, bool REG>
__device__ __forceinline__ void dm_pv(float acc[8][4], const u16* vt, const unsigned vr[8][4], float p0, float p1, int lane) {
    int m = lane >> 3, c = lane & 3;
    // p as the B fragment: keys 2c, 2c+1 (b0) and 2c+8, 2c+9 (b1), held by lanes 8c and 8c+4.
    unsigned b0 = pack2<T>(__shfl_sync(0xffffffffu, p0, 8 * c), __shfl_sync(0xffffffffu, p0, 8 * c + 4));
    unsigned b1 = pack2<T>(__shfl_sync(0xffffffffu, p1, 8 * c), __shfl_sync(0xffffffffu, p1, 8 * c + 4));
#pragma unroll
    for (int mi = 0; mi < 8; mi++) {
        if constexpr (REG) {
            mma<T>(acc[mi], vr[mi], b0, b1);
        } else {
            unsigned a[4];
            ldsm4t(a, vt + ((m >> 1) * 8 + (lane & 7)) * DM_PAD + mi * 16 + (m & 1) * 8);
            mma<T>(acc[mi], a, b0, b1);
        }
    }
}

// dm_exp2 is 2^x without exp2f's scaling for denormal results (tiny
// probabilities flush to 0); 2^-inf = 0.
__device__ __forceinline__ float dm_exp2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

__device__ __forceinline__ float dm_quad_max(float v) { // over the 8 lanes of a column (lanes c, c+4, …)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 4));
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 8));
    return fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 16));
}
__device__ __forceinline__ float dm_quad_sum(float v) {
    v += __shfl_xor_sync(0xffffffffu, v, 4);
    v += __shfl_xor_sync(0xffffffffu, v, 8);
    return v + __shfl_xor_sync(0xffffffffu, v, 16);
}

// dm_tile adds keys key0 … key0+15 (those below n) to a warp's online
// softmax (mrun; lrun: this lane's keys) and output acc; the tile's K and V
// rows are at kt, vt in shared memory, or with REG in registers (kr, vr).
template <class T, bool REG>
__device__ __forceinline__ void dm_tile(const u16* kt, const u16* vt, const unsigned kr[8][4], const unsigned vr[8][4],
                                        int key0, int n, float sl, const unsigned qw[8][2], float acc[8][4], float& mrun,
                                        float& lrun, int lane) {
    int g = lane >> 2;
    float x[2];
    dm_scores<T, REG>(x, kt, kr, qw, lane);
    x[0] = key0 + g < n ? x[0] * sl : NEG_INF;
    x[1] = key0 + g + 8 < n ? x[1] * sl : NEG_INF;
    float tm = dm_quad_max(fmaxf(x[0], x[1]));
    if (mrun == NEG_INF) { // the warp's first tile (the same in every lane): acc and lrun are 0
        mrun = tm;
    } else if (tm > mrun) {
        float al = dm_exp2(mrun - tm);
        lrun *= al;
#pragma unroll
        for (int mi = 0; mi < 8; mi++) {
            acc[mi][0] *= al;
            acc[mi][2] *= al;
        }
        mrun = tm;
    }
    float p0 = dm_exp2(x[0] - mrun), p1 = dm_exp2(x[1] - mrun);
    lrun += p0 + p1;
    dm_pv<T, REG>(acc, vt, vr, p0, p1, lane);
}

// dm_gather spreads the query words qv (lane (g, c) holds dimensions
// 16g + 2c, +1 and 16g + 8 + 2c, +1) to every lane as B fragments.
__device__ __forceinline__ void dm_gather(unsigned qw[8][2], const unsigned qv[2], int c) {
#pragma unroll
    for (int kk = 0; kk < 8; kk++) {
        qw[kk][0] = __shfl_sync(0xffffffffu, qv[0], 4 * kk + c);
        qw[kk][1] = __shfl_sync(0xffffffffu, qv[1], 4 * kk + c);
    }
}

// dm_merge ends step t: each warp leaves its (acc, mrun, lrun) in a slot,
// and after the barrier every lane (g, c) merges the W slots for dimensions
// 16g + 2c, +1 and 16g + 8 + 2c, +1, stores them in O[t] and, with next,
// forms its words of the next query from qn (Q[t+1] there) and spreads them
// to qw.
template <class T, int W>
__device__ __forceinline__ void dm_merge(const float acc[8][4], float mrun, float lrun, T* O, const unsigned qn[2],
                                         bool next, int t, DmShared<W>& sm, unsigned qw[8][2]) {
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, c = lane & 3;
    int slot = (t & 1) * W;
    if (c == 0) {
        float* mo = sm.mo + (slot + warp) * DM_D;
#pragma unroll
        for (int mi = 0; mi < 8; mi++) {
            mo[16 * mi + g] = acc[mi][0];
            mo[16 * mi + g + 8] = acc[mi][2];
        }
    }
    if (lane == 0) {
        sm.mm[slot + warp] = mrun; // NEG_INF for a warp with no keys: its weight below is 0
        sm.ml[slot + warp] = lrun;
    }
    if (W > 1) __syncthreads();
    else __syncwarp();
    float mx = sm.mm[slot];
#pragma unroll
    for (int w = 1; w < W; w++) mx = fmaxf(mx, sm.mm[slot + w]);
    float o[4] = {0.f, 0.f, 0.f, 0.f}, l = 0.f;
#pragma unroll
    for (int w = 0; w < W; w++) {
        float cw = dm_exp2(sm.mm[slot + w] - mx);
        l = fmaf(cw, sm.ml[slot + w], l);
        const float* mo = sm.mo + (slot + w) * DM_D + 16 * g + 2 * c;
        float2 a = *(const float2*)mo, b = *(const float2*)(mo + 8);
        o[0] = fmaf(cw, a.x, o[0]);
        o[1] = fmaf(cw, a.y, o[1]);
        o[2] = fmaf(cw, b.x, o[2]);
        o[3] = fmaf(cw, b.y, o[3]);
    }
    l = 1.f / l; // one division, not four: on the step's critical path
    unsigned r[2] = {pack2<T>(o[0] * l, o[1] * l), pack2<T>(o[2] * l, o[3] * l)};
    unsigned* orow = (unsigned*)(O + (i64)t * DM_D + 16 * g + 2 * c);
    orow[0] = r[0];
    orow[4] = r[1];
    if (next) {
        unsigned qv[2] = {dm_add2<T>(r[0], qn[0]), dm_add2<T>(r[1], qn[1])};
        dm_gather(qw, qv, c);
    }
}

// dm_step computes step t of this block's sequence (K, V, O at its base)
// from the query qw, tile by tile with an online softmax. Tiles below ts are
// staged in shared memory, the others go through the warp's scratch tile.
template <class T, int W>
__device__ __forceinline__ void dm_step(unsigned qw[8][2], const u16* K, const u16* V, T* O, const unsigned qn[2], bool next,
                                        int t, float sl, DmShared<W>& sm, int ts) {
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int n = t + 1, nt = (n + 15) >> 4;
    float acc[8][4];
#pragma unroll
    for (int mi = 0; mi < 8; mi++) acc[mi][0] = acc[mi][1] = acc[mi][2] = acc[mi][3] = 0.f;
    float mrun = NEG_INF, lrun = 0.f;
    u16* sk = sm.scr + warp * 2 * 16 * DM_PAD;
    u16* sv = sk + 16 * DM_PAD;
    v16 pk[8], pv[8];
    int iu = warp < ts ? warp + (ts - warp + W - 1) / W * W : warp; // this warp's first unstaged tile
    if (iu < nt) dm_fetch(K, V, iu, pk, pv, lane);
    for (int i = warp; i < nt; i += W) {
        const u16 *kt = sk, *vt = sv;
        if (i < ts) {
            kt = sm.ks + i * 16 * DM_PAD;
            vt = sm.vs + i * 16 * DM_PAD;
        } else {
            __syncwarp();
            dm_put(sk, sv, pk, pv, lane);
            __syncwarp();
            if (i + W < nt) dm_fetch(K, V, i + W, pk, pv, lane);
        }
        dm_tile<T, false>(kt, vt, nullptr, nullptr, 16 * i, n, sl, qw, acc, mrun, lrun, lane);
    }
    dm_merge<T, W>(acc, mrun, dm_quad_sum(lrun), O, qn, next, t, sm, qw);
}

// dm_step_chip is dm_step for a sequence held on chip: tiles below ts in
// shared memory, the warp's tile at or above ts (at most one) in its
// registers (kr, vr).
template <class T, int W>
__device__ __forceinline__ void dm_step_chip(unsigned qw[8][2], const unsigned kr[8][4], const unsigned vr[8][4], T* O,
                                         const unsigned qn[2], bool next, int t, float sl, DmShared<W>& sm, int ts) {
    DM_PROF_START;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int n = t + 1, nt = (n + 15) >> 4;
    float acc[8][4];
#pragma unroll
    for (int mi = 0; mi < 8; mi++) acc[mi][0] = acc[mi][1] = acc[mi][2] = acc[mi][3] = 0.f;
    float mrun = NEG_INF, lrun = 0.f;
    for (int i = warp; i < nt; i += W) {
        if (i < ts) dm_tile<T, false>(sm.ks + i * 16 * DM_PAD, sm.vs + i * 16 * DM_PAD, kr, vr, 16 * i, n, sl, qw, acc, mrun, lrun, lane);
        else dm_tile<T, true>(nullptr, nullptr, kr, vr, 16 * i, n, sl, qw, acc, mrun, lrun, lane);
    }
    DM_MARK(0);
    dm_merge<T, W>(acc, mrun, dm_quad_sum(lrun), O, qn, next, t, sm, qw);
    DM_MARK(1);
}

// dm_lane_q reads this lane's two query words of row t of a [L, D] matrix.
__device__ __forceinline__ void dm_lane_q(unsigned w[2], const void* m, int t) {
    int lane = threadIdx.x & 31;
    const unsigned* p = (const unsigned*)((const u16*)m + (i64)t * DM_D + 16 * (lane >> 2) + 2 * (lane & 3));
    w[0] = p[0];
    w[1] = p[4];
}

// dm_shared_bytes is the dynamic shared memory of a decode_mma block with
// nscr scratch tiles and ls staged positions.
__host__ __device__ constexpr int dm_shared_bytes(int w, int nscr, int ls) {
    return 2 * w * (DM_D + 2) * 4 + nscr * 2 * 16 * DM_PAD * 2 + 2 * ls * DM_PAD * 2;
}

// dm_step_kernel is one step a launch: grid B·H blocks of 32·W threads,
// dm_shared_bytes(W, W, 0) of dynamic shared memory.
template <class T, int W>
__device__ __forceinline__ void dm_step_kernel(const T* Q, const T* K, const T* V, T* O, int t, int L, float sl) {
    extern __shared__ __align__(16) unsigned char dm_smem[];
    DmShared<W> sm(dm_smem, 0, W);
    i64 base = (i64)blockIdx.x * L * DM_D;
    unsigned qv[2], qw[8][2];
    dm_lane_q(qv, Q + base, t);
    if (t > 0) {
        unsigned ov[2];
        dm_lane_q(ov, O + base, t - 1);
        qv[0] = dm_add2<T>(qv[0], ov[0]);
        qv[1] = dm_add2<T>(qv[1], ov[1]);
    }
    dm_gather(qw, qv, threadIdx.x & 3);
    dm_step<T, W>(qw, (const u16*)(K + base), (const u16*)(V + base), O + base, qv, false, t, sl, sm, 0);
}

// dm_loop runs all L steps in one launch: grid B·H blocks of 32·W threads,
// dm_shared_bytes(W, W, ls) of dynamic shared memory; ls a multiple of 16.
template <class T, int W>
__device__ __forceinline__ void dm_loop(const T* Q, const T* K, const T* V, T* O, int L, float sl, int ls) {
    extern __shared__ __align__(16) unsigned char dm_smem[];
    DmShared<W> sm(dm_smem, ls, W);
    i64 base = (i64)blockIdx.x * L * DM_D;
    const u16* k = (const u16*)(K + base);
    const u16* v = (const u16*)(V + base);
    for (int i = threadIdx.x; i < ls * (DM_D / 8); i += 32 * W) {
        int r = i / (DM_D / 8), ch = i % (DM_D / 8);
        *(v16*)(sm.ks + r * DM_PAD + ch * 8) = *(const v16*)(k + (i64)r * DM_D + ch * 8);
        *(v16*)(sm.vs + r * DM_PAD + ch * 8) = *(const v16*)(v + (i64)r * DM_D + ch * 8);
    }
    unsigned qv[2], qw[8][2], qn[2] = {0u, 0u};
    dm_lane_q(qv, Q + base, 0);
    dm_gather(qw, qv, threadIdx.x & 3);
    __syncthreads();
    for (int t = 0; t < L; t++) {
        bool more = t + 1 < L;
        if (more) dm_lane_q(qn, Q + base, t + 1); // independent of this step: in flight during it
        dm_step<T, W>(qw, k, v, O + base, qn, more, t, sl, sm, ls / 16);
    }
}

// dm_chip runs all L steps with the whole sequence on chip (dm_step_chip):
// ls positions in shared memory (dm_shared_bytes(W, 0, ls)), the last L - ls
// (at most 16·W) in registers; ls a multiple of 16 and at least 16·W.
template <class T, int W>
__device__ __forceinline__ void dm_chip(const T* Q, const T* K, const T* V, T* O, int L, float sl, int ls) {
    extern __shared__ __align__(16) unsigned char dm_smem[];
    DmShared<W> sm(dm_smem, ls, 0);
    i64 base = (i64)blockIdx.x * L * DM_D;
    const u16* k = (const u16*)(K + base);
    const u16* v = (const u16*)(V + base);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, m = lane >> 3, ts = ls / 16;
    unsigned kr[8][4], vr[8][4];
    int ir = ts + ((warp - ts) % W + W) % W; // this warp's tile in registers (tile i is warp i % W's), if below L / 16
    if (ir < L / 16) { // through 32 rows of the staging area, not yet staged: ls >= 16·W
        u16* sk = sm.ks + warp * 2 * 16 * DM_PAD;
        u16* sv = sk + 16 * DM_PAD;
        v16 pk[8], pv[8];
        dm_fetch(k, v, ir, pk, pv, lane);
        dm_put(sk, sv, pk, pv, lane);
        __syncwarp();
#pragma unroll
        for (int kk = 0; kk < 8; kk++) {
            ldsm4(kr[kk], sk + ((m & 1) * 8 + (lane & 7)) * DM_PAD + kk * 16 + (m >> 1) * 8);
            ldsm4t(vr[kk], sv + ((m >> 1) * 8 + (lane & 7)) * DM_PAD + kk * 16 + (m & 1) * 8);
        }
    } else {
#pragma unroll
        for (int kk = 0; kk < 8; kk++) kr[kk][0] = kr[kk][1] = kr[kk][2] = kr[kk][3] = vr[kk][0] = vr[kk][1] = vr[kk][2] = vr[kk][3] = 0u;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < ls * (DM_D / 8); i += 32 * W) {
        int r = i / (DM_D / 8), ch = i % (DM_D / 8);
        *(v16*)(sm.ks + r * DM_PAD + ch * 8) = *(const v16*)(k + (i64)r * DM_D + ch * 8);
        *(v16*)(sm.vs + r * DM_PAD + ch * 8) = *(const v16*)(v + (i64)r * DM_D + ch * 8);
    }
    unsigned qv[2], qw[8][2], qn[2] = {0u, 0u};
    dm_lane_q(qv, Q + base, 0);
    dm_gather(qw, qv, threadIdx.x & 3);
    __syncthreads();
#ifdef DM_PROF
    unsigned long long c0 = clock64(), g0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
#endif
    for (int t = 0; t < L; t++) {
        bool more = t + 1 < L;
        if (more) dm_lane_q(qn, Q + base, t + 1); // independent of this step: in flight during it
        dm_step_chip<T, W>(qw, kr, vr, O + base, qn, more, t, sl, sm, ts);
    }
#ifdef DM_PROF
    unsigned long long c1 = clock64(), g1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        atomicAdd(&dm_prof[6], c1 - c0);
        atomicAdd(&dm_prof[7], g1 - g0);
    }
#endif
}

#define DM_ENTRIES(T, NAME, W)                                                                             \
    extern "C" __global__ void __launch_bounds__(32 * W) decode_step_w##W##_##NAME##_d128(                \
        const T* q, const T* k, const T* v, T* o, int t, int l, float sl) {                                \
        dm_step_kernel<T, W>(q, k, v, o, t, l, sl);                                                        \
    }                                                                                                      \
    extern "C" __global__ void __launch_bounds__(32 * W) decode_loop_w##W##_##NAME##_d128(                \
        const T* q, const T* k, const T* v, T* o, int l, float sl, int ls) {                               \
        dm_loop<T, W>(q, k, v, o, l, sl, ls);                                                              \
    }                                                                                                      \
    extern "C" __global__ void __launch_bounds__(32 * W) decode_chip_w##W##_##NAME##_d128(                \
        const T* q, const T* k, const T* v, T* o, int l, float sl, int ls) {                               \
        dm_chip<T, W>(q, k, v, o, l, sl, ls);                                                              \
    }

DM_ENTRIES(f16, fp16, 4)
DM_ENTRIES(f16, fp16, 8)
DM_ENTRIES(bf16, bf16, 4)
DM_ENTRIES(bf16, bf16, 8)
