// probe4.c: does a cold 4K add's time depend on where its buffers lie? One
// process times a cold single launch (L2 flushed, a captured graph of the
// launch behind the blocking kernel, as perfgate does) on P buffer sets at
// random 4 KiB-aligned places of a 4 GiB pool, interleaved sample by
// sample; prints each set's median (SAMPLES samples).
// Build: nvcc -cubin -arch=sm_90 probe.cu && gcc -O2 probe4.c -lcuda -o probe4
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorName(r_, &s_); \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(3); } } while (0)

enum { SAMPLES = 60, P = 16, N4K = 4096 };
static CUstream s; static CUfunction add, blk; static CUdeviceptr flush, dflags; static int* hflags;
static size_t flushWords = (100u << 20) / 4;
static CUevent e0, e1;

static float held(CUgraphExec g) {
    static unsigned v = 0;
    CK(cuMemsetD32Async(flush, ++v, flushWords, s));
    __atomic_store_n(&hflags[0], 0, __ATOMIC_SEQ_CST); __atomic_store_n(&hflags[1], 0, __ATOMIC_SEQ_CST);
    CUdeviceptr rel = dflags, to = dflags + 4; unsigned long long max_ns = 50000000ull;
    void* p[3] = {&rel, &to, &max_ns};
    CK(cuLaunchKernel(blk, 1, 1, 1, 1, 1, 1, 0, s, p, NULL));
    CK(cuEventRecord(e0, s)); CK(cuGraphLaunch(g, s)); CK(cuEventRecord(e1, s));
    __atomic_store_n(&hflags[0], 1, __ATOMIC_SEQ_CST);
    CK(cuEventSynchronize(e1));
    float ms; CK(cuEventElapsedTime(&ms, e0, e1));
    return ms * 1000;
}
static int cmpf(const void* x, const void* y) { float u = *(const float*)x, w = *(const float*)y; return (u > w) - (u < w); }

int main(int argc, char** argv) {
    srand((unsigned)(time(NULL) ^ getpid()));
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
    CUmodule m; CK(cuModuleLoad(&m, argc > 1 ? argv[1] : "probe.cubin"));
    CK(cuModuleGetFunction(&add, m, "add4")); CK(cuModuleGetFunction(&blk, m, "pg_block"));
    CK(cuMemAlloc(&flush, flushWords * 4));
    CUdeviceptr pool; size_t poolBytes = 4ull << 30; CK(cuMemAlloc(&pool, poolBytes));
    CK(cuMemsetD32(pool, 0x3f800000, poolBytes / 4));
    CK(cuMemHostAlloc((void**)&hflags, 8, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    CK(cuMemHostGetDevicePointer(&dflags, hflags, 0));
    CUgraphExec g[P];
    for (int i = 0; i < P; i++) {
        size_t off = (((size_t)rand() << 16) ^ (size_t)rand()) % (poolBytes / 4096 - 16) * 4096;
        CUdeviceptr a = pool + off, b = a + N4K * 4, o = b + N4K * 4; long long cnt = N4K;
        void* p[4] = {&a, &b, &o, &cnt};
        CUgraph gr;
        CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
        CK(cuLaunchKernel(add, 4, 1, 1, 256, 1, 1, 0, s, p, NULL));
        CK(cuStreamEndCapture(s, &gr)); CK(cuGraphInstantiateWithFlags(&g[i], gr, 0)); CK(cuGraphDestroy(gr));
    }
    float v[P][SAMPLES];
    for (int w = 0; w < 5; w++) for (int i = 0; i < P; i++) held(g[i]);
    for (int r = 0; r < SAMPLES; r++) for (int i = 0; i < P; i++) v[i][r] = held(g[i]);
    printf("{\"pid\":%d,\"sets\":[", getpid());
    for (int i = 0; i < P; i++) { qsort(v[i], SAMPLES, sizeof(float), cmpf); printf("%s%.4f", i ? "," : "", v[i][SAMPLES / 2]); }
    printf("]}\n");
    return 0;
}
