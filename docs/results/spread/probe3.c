// probe3.c: a cold single launch (L2 flushed first), timed three ways, to
// find one whose median does not move between processes:
//   A  stream launch behind the blocking kernel (perfgate before)
//   B  a captured graph of the one launch, behind the blocking kernel
//   C  a captured graph of K samples: flush memset -> start event node ->
//      launch -> stop event node, each sample timed by its own event pair
//      recorded inside the graph (cuEventRecordWithFlags, EXTERNAL)
// µs of the 4K fp32 add, median of SAMPLES samples; one JSON line.
// Build: nvcc -cubin -arch=sm_90 probe.cu && gcc -O2 probe3.c -lcuda -o probe3
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorName(r_, &s_); \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(3); } } while (0)

enum { SAMPLES = 100, K = 20, N4K = 4096 };
static CUstream s; static CUfunction add, blk; static CUdeviceptr a, b, o, flush, dflags; static int* hflags;
static size_t flushWords = (100u << 20) / 4;
static CUevent e0, e1, gs[K], ge[K];

static void launch(void) {
    long long cnt = N4K; void* p[4] = {&a, &b, &o, &cnt};
    CK(cuLaunchKernel(add, 4, 1, 1, 256, 1, 1, 0, s, p, NULL));
}
static void block(void) {
    __atomic_store_n(&hflags[0], 0, __ATOMIC_SEQ_CST); __atomic_store_n(&hflags[1], 0, __ATOMIC_SEQ_CST);
    CUdeviceptr rel = dflags, to = dflags + 4; unsigned long long max_ns = 50000000ull;
    void* p[3] = {&rel, &to, &max_ns};
    CK(cuLaunchKernel(blk, 1, 1, 1, 1, 1, 1, 0, s, p, NULL));
}
static float held(CUgraphExec g) {
    static unsigned v = 0;
    CK(cuMemsetD32Async(flush, ++v, flushWords, s));
    block();
    CK(cuEventRecord(e0, s));
    if (g) CK(cuGraphLaunch(g, s)); else launch();
    CK(cuEventRecord(e1, s));
    __atomic_store_n(&hflags[0], 1, __ATOMIC_SEQ_CST);
    CK(cuEventSynchronize(e1));
    float ms; CK(cuEventElapsedTime(&ms, e0, e1));
    return ms * 1000;
}
static int cmpf(const void* x, const void* y) { float u = *(const float*)x, w = *(const float*)y; return (u > w) - (u < w); }
static float med(float* v, int n) { qsort(v, n, sizeof(float), cmpf); return v[n / 2]; }

int main(int argc, char** argv) {
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
    for (int i = 0; i < K; i++) { CK(cuEventCreate(&gs[i], 0)); CK(cuEventCreate(&ge[i], 0)); }
    CUmodule m; CK(cuModuleLoad(&m, argc > 1 ? argv[1] : "probe.cubin"));
    CK(cuModuleGetFunction(&add, m, "add4")); CK(cuModuleGetFunction(&blk, m, "pg_block"));
    CK(cuMemAlloc(&a, N4K * 4)); CK(cuMemAlloc(&b, N4K * 4)); CK(cuMemAlloc(&o, N4K * 4)); CK(cuMemAlloc(&flush, flushWords * 4));
    CK(cuMemsetD32(a, 0x3f800000, N4K)); CK(cuMemsetD32(b, 0x3f800000, N4K));
    CK(cuMemHostAlloc((void**)&hflags, 8, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    CK(cuMemHostGetDevicePointer(&dflags, hflags, 0));
    CUgraph g; CUgraphExec g1, gk;
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)); launch(); CK(cuStreamEndCapture(s, &g));
    CK(cuGraphInstantiateWithFlags(&g1, g, 0)); CK(cuGraphDestroy(g));
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    for (int i = 0; i < K; i++) {
        CK(cuMemsetD32Async(flush, i + 1, flushWords, s));
        CK(cuEventRecordWithFlags(gs[i], s, CU_EVENT_RECORD_EXTERNAL));
        launch();
        CK(cuEventRecordWithFlags(ge[i], s, CU_EVENT_RECORD_EXTERNAL));
    }
    CK(cuStreamEndCapture(s, &g)); CK(cuGraphInstantiateWithFlags(&gk, g, 0)); CK(cuGraphDestroy(g));
    float A[SAMPLES], B[SAMPLES], C[SAMPLES];
    for (int w = 0; w < 20; w++) { held(0); held(g1); }
    CK(cuGraphLaunch(gk, s)); CK(cuStreamSynchronize(s));
    for (int r = 0; r < SAMPLES / K; r++) {
        for (int i = 0; i < K; i++) { A[r * K + i] = held(0); B[r * K + i] = held(g1); }
        CK(cuGraphLaunch(gk, s)); CK(cuStreamSynchronize(s));
        for (int i = 0; i < K; i++) { float ms; CK(cuEventElapsedTime(&ms, gs[i], ge[i])); C[r * K + i] = ms * 1000; }
    }
    printf("{\"pid\":%d,\"A\":%.4f,\"B\":%.4f,\"C\":%.4f}\n", getpid(), med(A, SAMPLES), med(B, SAMPLES), med(C, SAMPLES));
    return 0;
}
