// elementwise.cu: the elementwise suite. Each thread moves 16 bytes per input
// per step (float4 for fp32, 8 halves for fp16/bf16), grid-stride, with a
// scalar tail. ADD_VECTOR_LOADS switches add to one scalar load per element
// (the variant the README demo's pull request uses as its regression).
#define ADD_VECTOR_LOADS 1

struct Add     { static __device__ __forceinline__ float f(float a, float b) { return a + b; } };
struct Mul     { static __device__ __forceinline__ float f(float a, float b) { return a * b; } };
struct Div     { static __device__ __forceinline__ float f(float a, float b) { return a / b; } };
struct Relu    { static __device__ __forceinline__ float f(float a, float) { return a > 0.0f ? a : 0.0f; } };
struct Sigmoid { static __device__ __forceinline__ float f(float a, float) { return 1.0f / (1.0f + expf(-a)); } };
struct Gelu    { static __device__ __forceinline__ float f(float a, float) {
    return 0.5f * a * (1.0f + tanhf(0.7978845608028654f * (a + 0.044715f * a * a * a))); } };
struct Swish   { static __device__ __forceinline__ float f(float a, float) { return a / (1.0f + expf(-a)); } };

template <class T> union Lanes {
    v16 v;
    T e[16 / sizeof(T)];
};

template <class T, class Op, bool Binary, bool Vector>
__device__ __forceinline__ void ew(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ o, i64 n) {
    constexpr int V = 16 / sizeof(T);
    i64 tid = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    i64 stride = (i64)gridDim.x * blockDim.x;
    i64 done = 0;
    if (Vector) {
        i64 nv = n / V;
        const v16* av = (const v16*)a;
        const v16* bv = (const v16*)b;
        v16* ov = (v16*)o;
        for (i64 i = tid; i < nv; i += stride) {
            Lanes<T> x, y;
            x.v = av[i];
            if (Binary) y.v = bv[i];
            float r[V];
#pragma unroll
            for (int k = 0; k < V; k++) r[k] = Op::f(to_f(x.e[k]), Binary ? to_f(y.e[k]) : 0.0f);
            ov[i] = pack_v16<T>(r);
        }
        done = nv * V;
    }
    for (i64 i = done + tid; i < n; i += stride)
        o[i] = from_f<T>(Op::f(to_f(a[i]), Binary ? to_f(b[i]) : 0.0f));
}

#define EW(name, Op, Binary, Vector)                                                                   \
    extern "C" __global__ void name##_fp32(const float* a, const float* b, float* o, i64 n) { ew<float, Op, Binary, Vector>(a, b, o, n); } \
    extern "C" __global__ void name##_fp16(const f16* a, const f16* b, f16* o, i64 n) { ew<f16, Op, Binary, Vector>(a, b, o, n); }       \
    extern "C" __global__ void name##_bf16(const bf16* a, const bf16* b, bf16* o, i64 n) { ew<bf16, Op, Binary, Vector>(a, b, o, n); }

EW(add, Add, true, ADD_VECTOR_LOADS)
EW(mul, Mul, true, true)
EW(div, Div, true, true)
EW(relu, Relu, false, true)
EW(sigmoid, Sigmoid, false, true)
EW(gelu, Gelu, false, true)
EW(swish, Swish, false, true)
