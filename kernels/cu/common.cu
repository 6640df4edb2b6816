// common.cu is prepended to every built-in suite's source: element types,
// conversions and the random fill that the CPU reference replays exactly
// (kernels/numeric.go). No #include: NVRTC compiles it as is.

typedef unsigned short u16;
typedef long long i64;

// f16 and bf16 are storage types; arithmetic happens in fp32.
struct f16 { u16 v; };
struct bf16 { u16 v; };

// v16 is one 16-byte vector load or store.
struct alignas(16) v16 { unsigned x, y, z, w; };

__device__ __forceinline__ float to_f(float x) { return x; }
__device__ __forceinline__ float to_f(f16 x) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(x.v));
    return f;
}
__device__ __forceinline__ float to_f(bf16 x) { return __uint_as_float(((unsigned)x.v) << 16); }

template <class T> __device__ __forceinline__ T from_f(float f);
template <> __device__ __forceinline__ float from_f<float>(float f) { return f; }
template <> __device__ __forceinline__ f16 from_f<f16>(float f) {
    f16 r;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r.v) : "f"(f));
    return r;
}
// bf16 rounding is one cvt on sm_80+ (the software path costs five integer
// instructions an element, which made bf16 kernels slower than their fp16 twins).
template <> __device__ __forceinline__ bf16 from_f<bf16>(float f) {
    bf16 r;
#if __CUDA_ARCH__ >= 800
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r.v) : "f"(f));
#else
    unsigned u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) { r.v = 0x7fc0; return r; }
    u += 0x7fffu + ((u >> 16) & 1u);
    r.v = (u16)(u >> 16);
#endif
    return r;
}

// pack2 rounds two floats to a pair of 2-byte values in one register (lo in
// the low half): one cvt for both on sm_80+.
template <class T> __device__ __forceinline__ unsigned pack2(float lo, float hi);
template <> __device__ __forceinline__ unsigned pack2<f16>(float lo, float hi) {
    unsigned r;
#if __CUDA_ARCH__ >= 800
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
#else
    r = (unsigned)from_f<f16>(lo).v | ((unsigned)from_f<f16>(hi).v << 16);
#endif
    return r;
}
template <> __device__ __forceinline__ unsigned pack2<bf16>(float lo, float hi) {
    unsigned r;
#if __CUDA_ARCH__ >= 800
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
#else
    r = (unsigned)from_f<bf16>(lo).v | ((unsigned)from_f<bf16>(hi).v << 16);
#endif
    return r;
}

// pack_v16 rounds the 16 / sizeof(T) floats of f into one 16-byte vector.
template <class T> __device__ __forceinline__ v16 pack_v16(const float* f) {
    v16 r;
    if constexpr (sizeof(T) == 4) {
        r.x = __float_as_uint(f[0]); r.y = __float_as_uint(f[1]);
        r.z = __float_as_uint(f[2]); r.w = __float_as_uint(f[3]);
    } else {
        r.x = pack2<T>(f[0], f[1]); r.y = pack2<T>(f[2], f[3]);
        r.z = pack2<T>(f[4], f[5]); r.w = pack2<T>(f[6], f[7]);
    }
    return r;
}

__device__ __forceinline__ unsigned fmix32(unsigned h) {
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    return h;
}

// rand_value must match numeric.go's randValue bit for bit.
__device__ __forceinline__ float rand_value(unsigned seed, i64 i, float lo, float hi) {
    unsigned h = fmix32((unsigned)i ^ fmix32((unsigned)((unsigned long long)i >> 32) + seed));
    float u = (float)(h >> 8) * (1.0f / 16777216.0f);
    float x = __fadd_rn(__fmul_rn(u, hi - lo), lo);
    return x == 0.0f ? 0.25f : x;
}

template <class T>
__device__ void fill(T* p, i64 n, unsigned seed, float lo, float hi) {
    i64 stride = (i64)gridDim.x * blockDim.x;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = from_f<T>(rand_value(seed, i, lo, hi));
}

extern "C" __global__ void pg_fill_fp32(float* p, i64 n, unsigned seed, float lo, float hi) { fill(p, n, seed, lo, hi); }
extern "C" __global__ void pg_fill_fp16(f16* p, i64 n, unsigned seed, float lo, float hi) { fill(p, n, seed, lo, hi); }
extern "C" __global__ void pg_fill_bf16(bf16* p, i64 n, unsigned seed, float lo, float hi) { fill(p, n, seed, lo, hi); }

// Shared memory, cp.async and tensor cores (sm_80 and later), for the
// suites that tile through shared memory (gemm, attention, decode).
// smem_addr is p's address in the shared window, as the PTX operands take it.
__device__ __forceinline__ unsigned smem_addr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

// cp_async16 copies 16 bytes from global src to shared dst asynchronously;
// cp_async_commit closes a group of copies, cp_async_wait<N> waits until at
// most N groups are in flight.
__device__ __forceinline__ void cp_async16(void* dst, const void* src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(dst)), "l"(src));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;"); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N)); }

// ldsm4 loads four 8×8 b16 matrices; lane l gives the address of row l%8 of
// matrix l/8. ldsm4t loads them transposed.
__device__ __forceinline__ void ldsm4(unsigned r[4], const void* p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldsm4t(unsigned r[4], const void* p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
}

// mma: c (16×8, fp32) += a (16×16, row) · b (16×8, col), b as two words.
template <class T> __device__ __forceinline__ void mma(float c[4], const unsigned a[4], unsigned b0, unsigned b1);
template <> __device__ __forceinline__ void mma<f16>(float c[4], const unsigned a[4], unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
template <> __device__ __forceinline__ void mma<bf16>(float c[4], const unsigned a[4], unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
