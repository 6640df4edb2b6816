// probe.c: where does a process's launch-path time come from? One process
// measures perfgate's launch-bound paths on several "lanes" that differ in one
// piece of state each, interleaved sample by sample:
//   S0..S7  streams of the primary context (same module, same buffers)
//   P1..P3  stream S0, buffers at random offsets of a 1 GiB pool
//   M1      stream S0, the module loaded a second time
//   C1..C3  contexts of their own (cuCtxCreate): stream, module, buffers, flags
// Quantities (µs per launch, median of ROUNDS samples):
//   b4k  450 launches of a 4K fp32 add queued behind the blocking kernel
//   b1m  250 launches of a 1M fp32 add queued behind the blocking kernel
//   q4k  2,000 launches of the 4K add timed as issued (no blocking kernel)
//   g4k  a CUDA graph of 450 4K adds, replayed behind the blocking kernel
// Build: nvcc -cubin -arch=sm_90 probe.cu && gcc -O2 probe.c -lcuda -o probe
// Run:   ./probe probe.cubin   (prints one JSON line)
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorName(r_, &s_); \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(3); } } while (0)

enum { NQ = 4, ROUNDS = 15, MAXL = 16, N4K = 4096, N1M = 1 << 20 };
static const char* qname[NQ] = {"b4k", "b1m", "q4k", "g4k"};

typedef struct {
    char name[8];
    CUcontext ctx;
    CUstream s;
    CUfunction add, block;
    CUdeviceptr a4, b4, o4, a1, b1, o1;
    int* hflags; CUdeviceptr dflags;
    CUevent e0, e1;
    CUgraphExec g;
    float v[NQ][ROUNDS];
} lane;

static CUmodule load(const char* path, lane* l) {
    CUmodule m;
    CK(cuModuleLoad(&m, path));
    CK(cuModuleGetFunction(&l->add, m, "add4"));
    CK(cuModuleGetFunction(&l->block, m, "pg_block"));
    return m;
}

static void own_buffers(lane* l) {
    CK(cuMemAlloc(&l->a4, N4K * 4)); CK(cuMemAlloc(&l->b4, N4K * 4)); CK(cuMemAlloc(&l->o4, N4K * 4));
    CK(cuMemAlloc(&l->a1, N1M * 4)); CK(cuMemAlloc(&l->b1, N1M * 4)); CK(cuMemAlloc(&l->o1, N1M * 4));
}

static void per_ctx(lane* l) {
    CK(cuStreamCreate(&l->s, CU_STREAM_NON_BLOCKING));
    CK(cuEventCreate(&l->e0, CU_EVENT_DEFAULT)); CK(cuEventCreate(&l->e1, CU_EVENT_DEFAULT));
    CK(cuMemHostAlloc((void**)&l->hflags, 8, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    CK(cuMemHostGetDevicePointer(&l->dflags, l->hflags, 0));
}

static void launch_add(lane* l, int big, int n) {
    CUdeviceptr a = big ? l->a1 : l->a4, b = big ? l->b1 : l->b4, o = big ? l->o1 : l->o4;
    long long cnt = big ? N1M : N4K;
    void* p[4] = {&a, &b, &o, &cnt};
    unsigned grid = (unsigned)((cnt / 4 + 255) / 256);
    for (int i = 0; i < n; i++) CK(cuLaunchKernel(l->add, grid, 1, 1, 256, 1, 1, 0, l->s, p, NULL));
}

static void capture(lane* l) {
    CUgraph g;
    CK(cuStreamBeginCapture(l->s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    launch_add(l, 0, 450);
    CK(cuStreamEndCapture(l->s, &g));
    CK(cuGraphInstantiateWithFlags(&l->g, g, 0));
    CK(cuGraphDestroy(g));
}

// sample times quantity q once on lane l and returns µs per launch.
static float sample(lane* l, int q) {
    int blocked = q != 2;
    if (blocked) {
        __atomic_store_n(&l->hflags[0], 0, __ATOMIC_SEQ_CST); __atomic_store_n(&l->hflags[1], 0, __ATOMIC_SEQ_CST);
        CUdeviceptr rel = l->dflags, to = l->dflags + 4; unsigned long long max_ns = 50000000ull;
        void* p[3] = {&rel, &to, &max_ns};
        CK(cuLaunchKernel(l->block, 1, 1, 1, 1, 1, 1, 0, l->s, p, NULL));
    }
    CK(cuEventRecord(l->e0, l->s));
    int n = q == 0 ? 450 : q == 1 ? 250 : q == 2 ? 2000 : 1;
    if (q == 3) CK(cuGraphLaunch(l->g, l->s)); else launch_add(l, q == 1, n);
    CK(cuEventRecord(l->e1, l->s));
    if (blocked) __atomic_store_n(&l->hflags[0], 1, __ATOMIC_SEQ_CST);
    CK(cuEventSynchronize(l->e1));
    if (blocked && __atomic_load_n(&l->hflags[1], __ATOMIC_SEQ_CST)) return -1;
    float ms; CK(cuEventElapsedTime(&ms, l->e0, l->e1));
    return ms * 1000.0f / (q == 3 ? 450 : n);
}

static int cmpf(const void* a, const void* b) { float x = *(const float*)a, y = *(const float*)b; return (x > y) - (x < y); }

int main(int argc, char** argv) {
    const char* cubin = argc > 1 ? argv[1] : "probe.cubin";
    srand((unsigned)(time(NULL) ^ getpid()));
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    CUcontext prim; CK(cuDevicePrimaryCtxRetain(&prim, dev)); CK(cuCtxSetCurrent(prim));
    lane L[MAXL]; memset(L, 0, sizeof L); int nl = 0;
    // S0..S7
    for (int i = 0; i < 8; i++, nl++) {
        lane* l = &L[nl]; snprintf(l->name, 8, "S%d", i); l->ctx = prim;
        if (i == 0) { load(cubin, l); own_buffers(l); }
        else { l->add = L[0].add; l->block = L[0].block; l->a4 = L[0].a4; l->b4 = L[0].b4; l->o4 = L[0].o4;
               l->a1 = L[0].a1; l->b1 = L[0].b1; l->o1 = L[0].o1; }
        per_ctx(l);
    }
    // P1..P3: S0's stream, buffers at random places in a 1 GiB pool.
    CUdeviceptr pool; CK(cuMemAlloc(&pool, 1ull << 30));
    for (int i = 1; i <= 3; i++, nl++) {
        lane* l = &L[nl]; *l = L[0]; snprintf(l->name, 8, "P%d", i);
        CK(cuEventCreate(&l->e0, 0)); CK(cuEventCreate(&l->e1, 0));
        size_t span = (1ull << 30) - 3ull * N1M * 4 - 3 * N4K * 4;
        size_t off = ((size_t)rand() * 4096 + (size_t)rand()) % span & ~(size_t)255;
        l->a4 = pool + off; l->b4 = l->a4 + N4K * 4; l->o4 = l->b4 + N4K * 4;
        l->a1 = l->o4 + N4K * 4; l->b1 = l->a1 + N1M * 4; l->o1 = l->b1 + N1M * 4;
    }
    // M1: S0's stream and buffers, module loaded again.
    { lane* l = &L[nl++]; *l = L[0]; snprintf(l->name, 8, "M1"); load(cubin, l);
      CK(cuEventCreate(&l->e0, 0)); CK(cuEventCreate(&l->e1, 0)); }
    // C1..C3: contexts of their own.
    for (int i = 1; i <= 3; i++, nl++) {
        lane* l = &L[nl]; snprintf(l->name, 8, "C%d", i);
#if CUDA_VERSION >= 13000
        CK(cuCtxCreate(&l->ctx, NULL, 0, dev));
#else
        CK(cuCtxCreate(&l->ctx, 0, dev));
#endif
        CK(cuCtxSetCurrent(l->ctx)); load(cubin, l); own_buffers(l); per_ctx(l);
    }
    for (int i = 0; i < nl; i++) {
        CK(cuCtxSetCurrent(L[i].ctx));
        capture(&L[i]);
        CK(cuMemsetD32(L[i].a4, 0x3f800000, N4K)); CK(cuMemsetD32(L[i].b4, 0x3f800000, N4K));
        CK(cuMemsetD32(L[i].a1, 0x3f800000, N1M)); CK(cuMemsetD32(L[i].b1, 0x3f800000, N1M));
        for (int q = 0; q < NQ; q++) for (int w = 0; w < 3; w++) sample(&L[i], q);
    }
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < nl; i++) {
            CK(cuCtxSetCurrent(L[i].ctx));
            for (int q = 0; q < NQ; q++) { float v; do v = sample(&L[i], q); while (v < 0); L[i].v[q][r] = v; }
        }
    printf("{\"pid\":%d", getpid());
    for (int i = 0; i < nl; i++) {
        printf(",\"%s\":{", L[i].name);
        for (int q = 0; q < NQ; q++) {
            qsort(L[i].v[q], ROUNDS, sizeof(float), cmpf);
            printf("%s\"%s\":%.4f", q ? "," : "", qname[q], L[i].v[q][ROUNDS / 2]);
        }
        printf("}");
    }
    printf("}\n");
    return 0;
}
