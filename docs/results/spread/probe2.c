// probe2.c: which piece of a process's state fixes the per-launch rate of
// stream launches queued behind the blocking kernel (probe.c found: not the
// buffers, the module or the stream; contexts draw independently). Lanes,
// all on the primary context's first stream, interleaved sample by sample:
//   E0..E7  the timing events: a pair of their own each (E0 created first)
//   K0..K7  E0's events, k dummy event records enqueued before each sample
//           (moves where the sample's commands land in the push buffer)
//   G       a CUDA graph of the 450 launches, replayed (reference)
// Quantities: b4k (450 4K adds) and m4k (450 launches alternating add4 and
// mul4, two kernels), µs per launch, median of ROUNDS samples.
// Build: nvcc -cubin -arch=sm_90 probe.cu && gcc -O2 probe2.c -lcuda -o probe2
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorName(r_, &s_); \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(3); } } while (0)

enum { ROUNDS = 15, NL = 17, N4K = 4096, NB = 450 };
static CUstream s; static CUfunction add, mul, blk; static CUdeviceptr a, b, o, dflags; static int* hflags;
static CUevent dummy;

static void launches(int two, int n) {
    long long cnt = N4K; void* p[4] = {&a, &b, &o, &cnt};
    for (int i = 0; i < n; i++) CK(cuLaunchKernel(two && (i & 1) ? mul : add, 4, 1, 1, 256, 1, 1, 0, s, p, NULL));
}

static float sample(CUevent e0, CUevent e1, int k, CUgraphExec g, int two) {
    for (int i = 0; i < k; i++) CK(cuEventRecord(dummy, s));
    __atomic_store_n(&hflags[0], 0, __ATOMIC_SEQ_CST); __atomic_store_n(&hflags[1], 0, __ATOMIC_SEQ_CST);
    CUdeviceptr rel = dflags, to = dflags + 4; unsigned long long max_ns = 50000000ull;
    void* p[3] = {&rel, &to, &max_ns};
    CK(cuLaunchKernel(blk, 1, 1, 1, 1, 1, 1, 0, s, p, NULL));
    CK(cuEventRecord(e0, s));
    if (g) CK(cuGraphLaunch(g, s)); else launches(two, NB);
    CK(cuEventRecord(e1, s));
    __atomic_store_n(&hflags[0], 1, __ATOMIC_SEQ_CST);
    CK(cuEventSynchronize(e1));
    if (__atomic_load_n(&hflags[1], __ATOMIC_SEQ_CST)) return -1;
    float ms; CK(cuEventElapsedTime(&ms, e0, e1));
    return ms * 1000.0f / NB;
}

static int cmpf(const void* x, const void* y) { float u = *(const float*)x, v = *(const float*)y; return (u > v) - (u < v); }

int main(int argc, char** argv) {
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUevent e0[8], e1[8];
    for (int i = 0; i < 8; i++) { CK(cuEventCreate(&e0[i], 0)); CK(cuEventCreate(&e1[i], 0)); }
    CK(cuEventCreate(&dummy, CU_EVENT_DISABLE_TIMING));
    CUmodule m; CK(cuModuleLoad(&m, argc > 1 ? argv[1] : "probe.cubin"));
    CK(cuModuleGetFunction(&add, m, "add4")); CK(cuModuleGetFunction(&mul, m, "mul4")); CK(cuModuleGetFunction(&blk, m, "pg_block"));
    CK(cuMemAlloc(&a, N4K * 4)); CK(cuMemAlloc(&b, N4K * 4)); CK(cuMemAlloc(&o, N4K * 4));
    CK(cuMemsetD32(a, 0x3f800000, N4K)); CK(cuMemsetD32(b, 0x3f800000, N4K));
    CK(cuMemHostAlloc((void**)&hflags, 8, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    CK(cuMemHostGetDevicePointer(&dflags, hflags, 0));
    CUgraph gr; CUgraphExec g;
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)); launches(0, NB); CK(cuStreamEndCapture(s, &gr));
    CK(cuGraphInstantiateWithFlags(&g, gr, 0));
    float v[2][NL][ROUNDS];
    for (int w = 0; w < 3; w++) for (int l = 0; l < NL; l++) sample(e0[0], e1[0], 0, 0, 0);
    for (int r = 0; r < ROUNDS; r++)
        for (int q = 0; q < 2; q++)
            for (int l = 0; l < NL; l++) {
                float x;
                do {
                    if (l < 8) x = sample(e0[l], e1[l], 0, 0, q);
                    else if (l < 16) x = sample(e0[0], e1[0], l - 8, 0, q);
                    else x = sample(e0[0], e1[0], 0, g, 0);
                } while (x < 0);
                v[q][l][r] = x;
            }
    struct rusage ru; getrusage(RUSAGE_SELF, &ru);
    printf("{\"pid\":%d,\"maxrss_mib\":%ld", getpid(), ru.ru_maxrss / 1024);
    const char* qn[2] = {"b4k", "m4k"};
    for (int q = 0; q < 2; q++) {
        printf(",\"%s\":[", qn[q]);
        for (int l = 0; l < NL; l++) { qsort(v[q][l], ROUNDS, sizeof(float), cmpf); printf("%s%.4f", l ? "," : "", v[q][l][ROUNDS / 2]); }
        printf("]");
    }
    printf("}\n");
    return 0;
}
