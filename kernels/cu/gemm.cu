// gemm.cu: perfgate's own GEMM kernels, C (M×N) = A (M×K) · B (K×N), all
// row-major. fp16/bf16: a 128×BN×BK block tile (BN 128 or 256: 8 warps of
// 64×32 or 64×64, the wider warp tile issuing 4 mma per ldmatrix instead of
// 2.7; BK 32 or 64), tensor cores through mma.sync.m16n8k16 (fp32 accumulation) fed by ldmatrix from
// shared memory that cp.async fills STAGES tiles ahead (4; 3 for the 64-deep tile); rows padded by
// 16 bytes so ldmatrix is free of bank conflicts. Blocks are rasterised in
// groups of 8 tile rows so neighbouring blocks share A and B in L2. fp32: a
// 128×128×8 FFMA tile, 8×8 outputs per thread. M, N multiples of 128 and K
// of 32 (the suite's shapes are).
#define GEMM_BM 128

// tile_of maps a 1-D block index to a (tile row, tile column), grouped by 8 tile rows.
__device__ __forceinline__ void tile_of(int bid, int tiles_m, int tiles_n, int& tm, int& tn) {
    const int group = 8;
    int in_group = group * tiles_n;
    int first = (bid / in_group) * group;
    int size = min(tiles_m - first, group);
    tm = first + (bid % in_group) % size;
    tn = (bid % in_group) / size;
}

template <class T, int BN, int BK>
__device__ __forceinline__ void load_tile(T* as, T* bs, const T* __restrict__ A, const T* __restrict__ B,
                                          int K, int N, int row0, int col0, int k0) {
    constexpr int APAD = BK + 8, BPAD = BN + 8;
    int tid = threadIdx.x;
#pragma unroll
    for (int i = 0; i < GEMM_BM * BK / 2048; i++) {
        int id = tid + i * 256;
        int r = id / (BK / 8), c = (id % (BK / 8)) * 8;
        cp_async16(as + r * APAD + c, A + (i64)(row0 + r) * K + k0 + c);
    }
#pragma unroll
    for (int i = 0; i < BK * BN / 2048; i++) {
        int id = tid + i * 256;
        int br = id / (BN / 8), bc = (id % (BN / 8)) * 8;
        cp_async16(bs + br * BPAD + bc, B + (i64)(k0 + br) * N + col0 + bc);
    }
}

template <class T, int BN, int BK, int STAGES>
__device__ void gemm_mma(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K) {
    constexpr int APAD = BK + 8, BPAD = BN + 8, WN = BN / 4, NI = WN / 8;
    extern __shared__ __align__(16) unsigned char smem[];
    T* as = (T*)smem;
    T* bs = as + STAGES * GEMM_BM * APAD;
    int tm, tn;
    tile_of(blockIdx.x, M / GEMM_BM, N / BN, tm, tn);
    int row0 = tm * GEMM_BM, col0 = tn * BN;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wm = (warp / 4) * 64, wn = (warp % 4) * WN;
    float acc[4][NI][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < NI; j++)
#pragma unroll
            for (int k = 0; k < 4; k++) acc[i][j][k] = 0.0f;
    int ktiles = K / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < ktiles)
            load_tile<T, BN, BK>(as + s * GEMM_BM * APAD, bs + s * BK * BPAD, A, B, K, N, row0, col0, s * BK);
        cp_async_commit();
    }
    for (int kt = 0; kt < ktiles; kt++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        int nt = kt + STAGES - 1;
        if (nt < ktiles) {
            int s = nt % STAGES;
            load_tile<T, BN, BK>(as + s * GEMM_BM * APAD, bs + s * BK * BPAD, A, B, K, N, row0, col0, nt * BK);
        }
        cp_async_commit();
        const T* at = as + (kt % STAGES) * GEMM_BM * APAD;
        const T* bt = bs + (kt % STAGES) * BK * BPAD;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            unsigned af[4][4], bfr[NI][2];
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
                ldsm4(af[mi], at + (wm + mi * 16 + lane % 16) * APAD + kk + (lane / 16) * 8);
#pragma unroll
            for (int nj = 0; nj < NI / 2; nj++) {
                unsigned r[4];
                ldsm4t(r, bt + (kk + lane % 16) * BPAD + wn + nj * 16 + (lane / 16) * 8);
                bfr[2 * nj][0] = r[0]; bfr[2 * nj][1] = r[1];
                bfr[2 * nj + 1][0] = r[2]; bfr[2 * nj + 1][1] = r[3];
            }
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
#pragma unroll
                for (int ni = 0; ni < NI; ni++) mma<T>(acc[mi][ni], af[mi], bfr[ni][0], bfr[ni][1]);
        }
    }
    cp_async_wait<0>();
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int ni = 0; ni < NI; ni++) {
            int r = row0 + wm + mi * 16 + lane / 4, c = col0 + wn + ni * 8 + (lane % 4) * 2;
#pragma unroll
            for (int h = 0; h < 2; h++) {
                *(unsigned*)(C + (i64)(r + 8 * h) * N + c) = pack2<T>(acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
            }
        }
}

// Entries: gemm_tiled_<T> (128×128×32), gemm_tiled256_<T> (128×256×32) and
// gemm_tiled256k64_<T> (128×256×64: half the barriers per K);
// suite_gemm_cuda.go (gemmTile) picks one per shape.
#define GEMM_ENTRY(NAME, BN, BK, ST)                                                                                       \
    extern "C" __global__ void __launch_bounds__(256, 1) NAME##_fp16(const f16* A, const f16* B, f16* C, int M, int N, int K) { \
        gemm_mma<f16, BN, BK, ST>(A, B, C, M, N, K);                                                                        \
    }                                                                                                                   \
    extern "C" __global__ void __launch_bounds__(256, 1) NAME##_bf16(const bf16* A, const bf16* B, bf16* C, int M, int N, int K) { \
        gemm_mma<bf16, BN, BK, ST>(A, B, C, M, N, K);                                                                       \
    }
GEMM_ENTRY(gemm_tiled, 128, 32, 4)
GEMM_ENTRY(gemm_tiled256, 256, 32, 4)
GEMM_ENTRY(gemm_tiled256k64, 256, 64, 3)

// gemm_tiled_fp32: FFMA, 128×128×8 tiles, each thread 8×8 outputs in two
// 4-wide strips per dimension (conflict-free float4 shared-memory reads).
extern "C" __global__ void __launch_bounds__(256) gemm_tiled_fp32(const float* __restrict__ A, const float* __restrict__ B,
                                                                   float* __restrict__ C, int M, int N, int K) {
    __shared__ __align__(16) float as[2][8][128];
    __shared__ __align__(16) float bs[2][8][128];
    int tm, tn;
    tile_of(blockIdx.x, M / 128, N / 128, tm, tn);
    int row0 = tm * 128, col0 = tn * 128;
    int tid = threadIdx.x, ty = tid / 16, tx = tid % 16;
    int ar = tid / 2, ac = (tid % 2) * 4, br = tid / 32, bc = (tid % 32) * 4;
    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] = 0.0f;
    float4 pa = *(const float4*)(A + (i64)(row0 + ar) * K + ac);
    float4 pb = *(const float4*)(B + (i64)br * N + col0 + bc);
    int ktiles = K / 8;
    for (int kt = 0; kt < ktiles; kt++) {
        int s = kt & 1;
        as[s][ac + 0][ar] = pa.x; as[s][ac + 1][ar] = pa.y; as[s][ac + 2][ar] = pa.z; as[s][ac + 3][ar] = pa.w;
        *(float4*)&bs[s][br][bc] = pb;
        __syncthreads();
        if (kt + 1 < ktiles) { // the next tile's loads overlap this tile's math
            pa = *(const float4*)(A + (i64)(row0 + ar) * K + (kt + 1) * 8 + ac);
            pb = *(const float4*)(B + (i64)((kt + 1) * 8 + br) * N + col0 + bc);
        }
#pragma unroll
        for (int k = 0; k < 8; k++) {
            float a[8], b[8];
            *(float4*)&a[0] = *(const float4*)&as[s][k][ty * 4];
            *(float4*)&a[4] = *(const float4*)&as[s][k][64 + ty * 4];
            *(float4*)&b[0] = *(const float4*)&bs[s][k][tx * 4];
            *(float4*)&b[4] = *(const float4*)&bs[s][k][64 + tx * 4];
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int r = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
        *(float4*)(C + (i64)r * N + col0 + tx * 4) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *(float4*)(C + (i64)r * N + col0 + 64 + tx * 4) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}
