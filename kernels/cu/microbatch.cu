// microbatch.cu: many small fp32 adds, launched one by one (add_small) or by
// one persistent kernel that walks a table of op descriptors.
struct AddOp { const float* a; const float* b; float* o; i64 n; };

extern "C" __global__ void add_small(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, i64 n) {
    i64 stride = (i64)gridDim.x * blockDim.x;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) o[i] = a[i] + b[i];
}

// Each block takes ops blockIdx.x, blockIdx.x + gridDim.x, ...; its threads
// stride over the op's elements with float4 loads (n is a multiple of 4).
extern "C" __global__ void add_persistent(const AddOp* __restrict__ ops, int count) {
    for (int k = blockIdx.x; k < count; k += gridDim.x) {
        AddOp op = ops[k];
        const v16* a = (const v16*)op.a;
        const v16* b = (const v16*)op.b;
        v16* o = (v16*)op.o;
        i64 n4 = op.n / 4;
        for (i64 i = threadIdx.x; i < n4; i += blockDim.x) {
            v16 x = a[i], y = b[i], r;
            r.x = __float_as_uint(__uint_as_float(x.x) + __uint_as_float(y.x));
            r.y = __float_as_uint(__uint_as_float(x.y) + __uint_as_float(y.y));
            r.z = __float_as_uint(__uint_as_float(x.z) + __uint_as_float(y.z));
            r.w = __float_as_uint(__uint_as_float(x.w) + __uint_as_float(y.w));
            o[i] = r;
        }
    }
}
