// probe6.c: does a CUDA context of its own redraw the per-process states
// that probe2.c-probe5.c found? One process, lanes interleaved sample by
// sample: the primary context (X0) and CTX contexts of their own (X1..),
// each with its own stream, module, buffers, flush buffer, events and flags.
// Quantities: cold (a captured graph of one 4K add behind the blocking
// kernel, L2 flushed first, µs) and b4k (450 held stream launches, µs a
// launch); medians of SAMPLES samples, and the process's peak RSS after
// each context was set up (MiB).
// Build: nvcc -cubin -arch=sm_90 probe.cu && gcc -O2 probe6.c -lcuda -o probe6
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorName(r_, &s_); \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(3); } } while (0)

enum { SAMPLES = 40, CTX = 4, N4K = 4096, NB = 450 };
static const size_t flushWords = (100u << 20) / 4;

typedef struct {
    CUcontext ctx; CUstream s; CUfunction add, blk; CUevent e0, e1;
    CUdeviceptr a, b, o, flush, dflags; int* hflags; CUgraphExec g;
    float cold[SAMPLES], b4k[SAMPLES]; long rss;
} lane;

static void launch(lane* l, int n) {
    long long cnt = N4K; void* p[4] = {&l->a, &l->b, &l->o, &cnt};
    for (int i = 0; i < n; i++) CK(cuLaunchKernel(l->add, 4, 1, 1, 256, 1, 1, 0, l->s, p, NULL));
}
static float held(lane* l, int cold) {
    static unsigned v = 0;
    if (cold) CK(cuMemsetD32Async(l->flush, ++v, flushWords, l->s));
    __atomic_store_n(&l->hflags[0], 0, __ATOMIC_SEQ_CST); __atomic_store_n(&l->hflags[1], 0, __ATOMIC_SEQ_CST);
    CUdeviceptr rel = l->dflags, to = l->dflags + 4; unsigned long long max_ns = 50000000ull;
    void* p[3] = {&rel, &to, &max_ns};
    CK(cuLaunchKernel(l->blk, 1, 1, 1, 1, 1, 1, 0, l->s, p, NULL));
    CK(cuEventRecord(l->e0, l->s));
    if (cold) CK(cuGraphLaunch(l->g, l->s)); else launch(l, NB);
    CK(cuEventRecord(l->e1, l->s));
    __atomic_store_n(&l->hflags[0], 1, __ATOMIC_SEQ_CST);
    CK(cuEventSynchronize(l->e1));
    float ms; CK(cuEventElapsedTime(&ms, l->e0, l->e1));
    return ms * 1000 / (cold ? 1 : NB);
}
static int cmpf(const void* x, const void* y) { float u = *(const float*)x, w = *(const float*)y; return (u > w) - (u < w); }
static float med(float* v) { qsort(v, SAMPLES, sizeof(float), cmpf); return v[SAMPLES / 2]; }

int main(int argc, char** argv) {
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    lane L[CTX];
    for (int i = 0; i < CTX; i++) {
        lane* l = &L[i];
        if (i == 0) { CK(cuDevicePrimaryCtxRetain(&l->ctx, dev)); CK(cuCtxSetCurrent(l->ctx)); }
        else {
#if CUDA_VERSION >= 13000
            CK(cuCtxCreate(&l->ctx, NULL, 0, dev));
#else
            CK(cuCtxCreate(&l->ctx, 0, dev));
#endif
        }
        CK(cuStreamCreate(&l->s, CU_STREAM_NON_BLOCKING));
        CK(cuEventCreate(&l->e0, 0)); CK(cuEventCreate(&l->e1, 0));
        CUmodule m; CK(cuModuleLoad(&m, argc > 1 ? argv[1] : "probe.cubin"));
        CK(cuModuleGetFunction(&l->add, m, "add4")); CK(cuModuleGetFunction(&l->blk, m, "pg_block"));
        CK(cuMemAlloc(&l->a, N4K * 4)); CK(cuMemAlloc(&l->b, N4K * 4)); CK(cuMemAlloc(&l->o, N4K * 4));
        CK(cuMemAlloc(&l->flush, flushWords * 4));
        CK(cuMemsetD32(l->a, 0x3f800000, N4K)); CK(cuMemsetD32(l->b, 0x3f800000, N4K));
        CK(cuMemHostAlloc((void**)&l->hflags, 8, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
        CK(cuMemHostGetDevicePointer(&l->dflags, l->hflags, 0));
        CUgraph gr;
        CK(cuStreamBeginCapture(l->s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)); launch(l, 1); CK(cuStreamEndCapture(l->s, &gr));
        CK(cuGraphInstantiateWithFlags(&l->g, gr, 0)); CK(cuGraphDestroy(gr));
        for (int w = 0; w < 10; w++) { held(l, 1); held(l, 0); }
        struct rusage ru; getrusage(RUSAGE_SELF, &ru); l->rss = ru.ru_maxrss / 1024;
    }
    for (int r = 0; r < SAMPLES; r++)
        for (int i = 0; i < CTX; i++) { CK(cuCtxSetCurrent(L[i].ctx)); L[i].cold[r] = held(&L[i], 1); L[i].b4k[r] = held(&L[i], 0); }
    printf("{\"pid\":%d", getpid());
    for (int i = 0; i < CTX; i++) printf(",\"X%d\":{\"cold\":%.4f,\"b4k\":%.4f,\"rss_mib\":%ld}", i, med(L[i].cold), med(L[i].b4k), L[i].rss);
    printf("}\n");
    return 0;
}
