// probe7.c: what would it cost to draw the per-process launch states several
// times in one process, and does the kernel's code placement matter?
// Lanes are interleaved sample by sample, as in probe6.c. Environment:
//   CTX=k   the primary context and k-1 created ones (each with its own
//           stream, module, buffers, flush buffer, events and flags)
//   ROT=1   created contexts live one at a time: create, set up, measure
//           SAMPLES samples, destroy; the primary context is measured
//           between them (peak RSS of a rotation instead of k at once)
//   MODS=m  the primary context loads the module m times and rotates the
//           cold launch over the m copies of the kernel (code placement)
// Quantities as in probe6.c: cold (a graph of one 4K add behind the
// blocking kernel, L2 flushed first, µs) and b4k (450 held stream launches,
// µs a launch); medians of SAMPLES samples, plus peak RSS (MiB) after each
// lane's set-up and at the end. CUDA_DEVICE_MAX_CONNECTIONS is the driver's.
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorName(r_, &s_); \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(3); } } while (0)

enum { SAMPLES = 40, MAXL = 16, N4K = 4096, NB = 450 };
static const size_t flushWords = (100u << 20) / 4;

typedef struct {
    CUcontext ctx; CUstream s; CUmodule mod[MAXL]; CUfunction add[MAXL], blk; CUevent e0, e1;
    CUdeviceptr a, b, o, flush, dflags; int* hflags; CUgraphExec g[MAXL]; int nmod;
    float cold[SAMPLES * MAXL], b4k[SAMPLES * MAXL]; int nc, nb; long rss;
} lane;

static const char* cubin;
static long peak(void) { struct rusage ru; getrusage(RUSAGE_SELF, &ru); return ru.ru_maxrss / 1024; }

static void launch(lane* l, CUfunction f, int n) {
    long long cnt = N4K; void* p[4] = {&l->a, &l->b, &l->o, &cnt};
    for (int i = 0; i < n; i++) CK(cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, l->s, p, NULL));
}
static float held(lane* l, int cold, int m) {
    static unsigned v = 0;
    if (cold) CK(cuMemsetD32Async(l->flush, ++v, flushWords, l->s));
    __atomic_store_n(&l->hflags[0], 0, __ATOMIC_SEQ_CST); __atomic_store_n(&l->hflags[1], 0, __ATOMIC_SEQ_CST);
    CUdeviceptr rel = l->dflags, to = l->dflags + 4; unsigned long long max_ns = 50000000ull;
    void* p[3] = {&rel, &to, &max_ns};
    CK(cuLaunchKernel(l->blk, 1, 1, 1, 1, 1, 1, 0, l->s, p, NULL));
    CK(cuEventRecord(l->e0, l->s));
    if (cold) CK(cuGraphLaunch(l->g[m], l->s)); else launch(l, l->add[0], NB);
    CK(cuEventRecord(l->e1, l->s));
    __atomic_store_n(&l->hflags[0], 1, __ATOMIC_SEQ_CST);
    CK(cuEventSynchronize(l->e1));
    float ms; CK(cuEventElapsedTime(&ms, l->e0, l->e1));
    return ms * 1000 / (cold ? 1 : NB);
}
static void setup(lane* l, CUdevice dev, int primary, int nmod) {
    if (primary) { CK(cuDevicePrimaryCtxRetain(&l->ctx, dev)); CK(cuCtxSetCurrent(l->ctx)); }
    else {
#if CUDA_VERSION >= 13000
        CK(cuCtxCreate(&l->ctx, NULL, 0, dev));
#else
        CK(cuCtxCreate(&l->ctx, 0, dev));
#endif
    }
    l->nmod = nmod; l->nc = l->nb = 0;
    CK(cuStreamCreate(&l->s, CU_STREAM_NON_BLOCKING));
    CK(cuEventCreate(&l->e0, 0)); CK(cuEventCreate(&l->e1, 0));
    CK(cuMemAlloc(&l->a, N4K * 4)); CK(cuMemAlloc(&l->b, N4K * 4)); CK(cuMemAlloc(&l->o, N4K * 4));
    CK(cuMemAlloc(&l->flush, flushWords * 4));
    CK(cuMemsetD32(l->a, 0x3f800000, N4K)); CK(cuMemsetD32(l->b, 0x3f800000, N4K));
    CK(cuMemHostAlloc((void**)&l->hflags, 8, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    CK(cuMemHostGetDevicePointer(&l->dflags, l->hflags, 0));
    for (int m = 0; m < nmod; m++) {
        CK(cuModuleLoad(&l->mod[m], cubin));
        CK(cuModuleGetFunction(&l->add[m], l->mod[m], "add4"));
        if (m == 0) CK(cuModuleGetFunction(&l->blk, l->mod[m], "pg_block"));
        CUgraph gr;
        CK(cuStreamBeginCapture(l->s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)); launch(l, l->add[m], 1); CK(cuStreamEndCapture(l->s, &gr));
        CK(cuGraphInstantiateWithFlags(&l->g[m], gr, 0)); CK(cuGraphDestroy(gr));
    }
    for (int w = 0; w < 10; w++) for (int m = 0; m < nmod; m++) { held(l, 1, m); held(l, 0, m); }
    l->rss = peak();
}
static void teardown(lane* l) {
    CK(cuCtxSetCurrent(l->ctx));
    CK(cuCtxSynchronize());
    CK(cuMemFreeHost(l->hflags));
    CK(cuCtxDestroy(l->ctx));
}
static void sample(lane* l, int r) {
    CK(cuCtxSetCurrent(l->ctx));
    l->cold[l->nc++] = held(l, 1, r % l->nmod);
    l->b4k[l->nb++] = held(l, 0, 0);
}
static int cmpf(const void* x, const void* y) { float u = *(const float*)x, w = *(const float*)y; return (u > w) - (u < w); }
static float med(float* v, int n) { qsort(v, n, sizeof(float), cmpf); return v[n / 2]; }

int main(int argc, char** argv) {
    cubin = argc > 1 ? argv[1] : "probe.cubin";
    int ctx = getenv("CTX") ? atoi(getenv("CTX")) : 1, rot = getenv("ROT") ? atoi(getenv("ROT")) : 0;
    int mods = getenv("MODS") ? atoi(getenv("MODS")) : 1;
    if (ctx < 1 || ctx > MAXL || mods < 1 || mods > MAXL) { fprintf(stderr, "CTX, MODS in 1..%d\n", MAXL); return 2; }
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    long rss0 = peak();
    static lane L[MAXL];
    setup(&L[0], dev, 1, mods);
    if (!rot) {
        for (int i = 1; i < ctx; i++) setup(&L[i], dev, 0, 1);
        for (int r = 0; r < SAMPLES * mods; r++) for (int i = 0; i < ctx; i++) if (i == 0 || r < SAMPLES) sample(&L[i], r);
    } else {
        for (int i = 1; i < ctx; i++) {
            setup(&L[i], dev, 0, 1);
            for (int r = 0; r < SAMPLES; r++) { sample(&L[i], r); if (i == 1) sample(&L[0], r); }
            teardown(&L[i]);
        }
        if (ctx == 1) for (int r = 0; r < SAMPLES * mods; r++) sample(&L[0], r);
    }
    printf("{\"pid\":%d,\"rss_start\":%ld,\"rss_end\":%ld", getpid(), rss0, peak());
    for (int i = 0; i < ctx; i++)
        printf(",\"X%d\":{\"cold\":%.4f,\"b4k\":%.4f,\"rss_mib\":%ld}", i, med(L[i].cold, L[i].nc), med(L[i].b4k, L[i].nb), L[i].rss);
    printf("}\n");
    return 0;
}
