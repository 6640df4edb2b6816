// decode_bench.cu: a standalone comparison of the decode suite's kernels
// (kernels/cu/decode.cu) on the device, for exploring designs in one call:
//   nvcc -arch=sm_90 -std=c++17 -O3 -I kernels/cu -o /tmp/db docs/results/decode_bench.cu && /tmp/db [reps]
// (-DDM_PROF adds decode_chip's cycles per step by phase; DB_ONLY=substring
// picks variants, DB_MAXL=512 skips L = 4096).
// For B·H = 64 sequences, d = 128, fp16/bf16, L = 128, 256, 512, 4096 it times
// one launch per step (decode_step_wW) and one launch for all steps
// (decode_loop_wW, decode_chip_wW), reporting µs per step
// (median of reps), and checks every step of 4 sequences (64 spread steps at
// L = 4096) against an fp64 reference built from the kernel's own O[t-1].
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "common.cu"
#include "decode.cu"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(3); } } while (0)

static float h2f(bool bf, unsigned short v) {
    if (bf) { unsigned u = (unsigned)v << 16; float f; memcpy(&f, &u, 4); return f; }
    __half_raw r; r.x = v; return __half2float(__half(r));
}
static unsigned short f2h(bool bf, float f) {
    if (bf) { __nv_bfloat16 b = __float2bfloat16_rn(f); return *(unsigned short*)&b; }
    __half h = __float2half_rn(f); return *(unsigned short*)&h;
}

typedef void (*stepfn)(const void*, const void*, const void*, void*, int, int, float);
typedef void (*loopfn)(const void*, const void*, const void*, void*, int, float, int);

struct Variant { std::string name; bool loop; void* fn; int threads; int w; bool chip; };

static int optin;

static double check(bool bf, int L, const std::vector<unsigned short>& q, const std::vector<unsigned short>& k,
                    const std::vector<unsigned short>& v, const std::vector<unsigned short>& o, int* bad) {
    const int D = 128;
    double tolA = bf ? 1e-2 : 2e-3, tolR = bf ? 2e-2 : 1e-2, maxe = 0;
    std::vector<int> steps;
    if (L <= 512) for (int t = 0; t < L; t++) steps.push_back(t);
    else for (int i = 0; i < 64; i++) steps.push_back(i * (L - 1) / 63);
    std::vector<double> qq(D), s(L), out(D);
    for (int h : {0, 17, 42, 63}) {
        size_t base = (size_t)h * L * D;
        for (int t : steps) {
            for (int c = 0; c < D; c++) {
                float x = h2f(bf, q[base + (size_t)t * D + c]);
                if (t > 0) x += h2f(bf, o[base + (size_t)(t - 1) * D + c]);
                qq[c] = h2f(bf, f2h(bf, x));
            }
            double mx = -1e300;
            for (int j = 0; j <= t; j++) {
                double d = 0;
                for (int c = 0; c < D; c++) d += qq[c] * h2f(bf, k[base + (size_t)j * D + c]);
                s[j] = d / sqrt((double)D);
                mx = std::max(mx, s[j]);
            }
            double l = 0;
            std::fill(out.begin(), out.end(), 0.0);
            for (int j = 0; j <= t; j++) {
                double p = exp(s[j] - mx);
                l += p;
                for (int c = 0; c < D; c++) out[c] += p * h2f(bf, v[base + (size_t)j * D + c]);
            }
            for (int c = 0; c < D; c++) {
                double want = out[c] / l, got = h2f(bf, o[base + (size_t)t * D + c]), e = fabs(got - want);
                maxe = std::max(maxe, e);
                if (!(e <= tolA + tolR * fabs(want))) (*bad)++;
            }
        }
    }
    return maxe;
}

int main(int argc, char** argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 15;
    const char* only = getenv("DB_ONLY"); // substring filter on variant names
    CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    printf("device %s, %d SMs, opt-in shared %d B\n", pr.name, pr.multiProcessorCount, optin);
    const int S = 64, D = 128;
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("dtype L variant | us/step median min | ls | maxerr bad\n");
    for (int bfi = 0; bfi < 2; bfi++) {
        bool bf = bfi == 1;
        const char* dt = bf ? "bf16" : "fp16";
        std::vector<Variant> vs;
#define V(T, NAME)                                                                                                  \
        vs.push_back({"step_w4", false, (void*)decode_step_w4_##NAME##_d128, 128, 4});                              \
        vs.push_back({"step_w8", false, (void*)decode_step_w8_##NAME##_d128, 256, 8});                              \
        vs.push_back({"loop_w4", true, (void*)decode_loop_w4_##NAME##_d128, 128, 4});                               \
        vs.push_back({"loop_w8", true, (void*)decode_loop_w8_##NAME##_d128, 256, 8});                               \
        vs.push_back({"chip_w4", true, (void*)decode_chip_w4_##NAME##_d128, 128, 4, true});                         \
        vs.push_back({"chip_w8", true, (void*)decode_chip_w8_##NAME##_d128, 256, 8, true});
        if (bf) { V(bf16, bf16) } else { V(f16, fp16) }
        for (int L : {128, 256, 512, 4096}) {
            if (getenv("DB_MAXL") && L > atoi(getenv("DB_MAXL"))) continue;
            size_t n = (size_t)S * L * D;
            void *q, *k, *v, *o;
            CK(cudaMalloc(&q, n * 2)); CK(cudaMalloc(&k, n * 2)); CK(cudaMalloc(&v, n * 2)); CK(cudaMalloc(&o, n * 2));
            if (bf) {
                pg_fill_bf16<<<512, 256>>>((bf16*)q, n, 1, -2, 2); pg_fill_bf16<<<512, 256>>>((bf16*)k, n, 2, -2, 2); pg_fill_bf16<<<512, 256>>>((bf16*)v, n, 3, -2, 2);
            } else {
                pg_fill_fp16<<<512, 256>>>((f16*)q, n, 1, -2, 2); pg_fill_fp16<<<512, 256>>>((f16*)k, n, 2, -2, 2); pg_fill_fp16<<<512, 256>>>((f16*)v, n, 3, -2, 2);
            }
            CK(cudaDeviceSynchronize());
            std::vector<unsigned short> hq(n), hk(n), hv(n), ho(n);
            CK(cudaMemcpy(hq.data(), q, n * 2, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hk.data(), k, n * 2, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hv.data(), v, n * 2, cudaMemcpyDeviceToHost));
            float sl = (float)(1.4426950408889634 / sqrt((double)D));
            for (auto& va : vs) {
                if (only && !strstr(va.name.c_str(), only)) continue;
                int ls = 0, shared = 0;
                if (va.chip) {
                    int fixed = dm_shared_bytes(va.w, 0, 0);
                    ls = std::min(L, (optin - fixed - 1024) / (2 * DM_PAD * 2) / 16 * 16);
                    if ((L - ls) / 16 > va.w || ls < 16 * va.w) continue;
                    shared = dm_shared_bytes(va.w, 0, ls);
                } else if (va.w > 0) {
                    int fixed = dm_shared_bytes(va.w, va.w, 0);
                    if (va.loop) ls = std::min(L, (optin - fixed - 1024) / (2 * DM_PAD * 2) / 16 * 16);
                    shared = dm_shared_bytes(va.w, va.w, ls);
                }
                if (shared > 48 * 1024) CK(cudaFuncSetAttribute(va.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
                auto run = [&]() {
                    if (va.loop) {
                        int l = L; float s2 = sl; int ls2 = ls;
                        void* args[] = {&q, &k, &v, &o, &l, &s2, &ls2};
                        CK(cudaLaunchKernel(va.fn, dim3(S), dim3(va.threads), args, shared, st));
                    } else {
                        for (int t = 0; t < L; t++) {
                            int l = L; float s2 = sl; int tt = t;
                            void* args[] = {&q, &k, &v, &o, &tt, &l, &s2};
                            CK(cudaLaunchKernel(va.fn, dim3(S), dim3(va.threads), args, shared, st));
                        }
                    }
                };
                CK(cudaMemsetAsync(o, 0, n * 2, st));
#ifdef DM_PROF
                unsigned long long z[8] = {0};
                CK(cudaMemcpyToSymbol(dm_prof, z, sizeof z));
#endif
                run();
                CK(cudaStreamSynchronize(st));
                CK(cudaGetLastError());
                CK(cudaMemcpy(ho.data(), o, n * 2, cudaMemcpyDeviceToHost));
                int bad = 0;
                double maxe = check(bf, L, hq, hk, hv, ho, &bad);
                int r = L >= 4096 ? std::max(3, reps / 5) : reps;
                std::vector<float> ts;
                for (int i = 0; i < r; i++) {
                    CK(cudaEventRecord(e0, st));
                    run();
                    CK(cudaEventRecord(e1, st));
                    CK(cudaEventSynchronize(e1));
                    float ms;
                    CK(cudaEventElapsedTime(&ms, e0, e1));
                    ts.push_back(ms * 1000 / L);
                }
                std::sort(ts.begin(), ts.end());
                printf("%s %d %s | %.3f %.3f | %d | %.2e %d\n", dt, L, va.name.c_str(), ts[ts.size() / 2], ts[0], ls, maxe, bad);
#ifdef DM_PROF
                if (va.chip) {
                    CK(cudaMemcpyFromSymbol(z, dm_prof, sizeof z));
                    printf("  cycles/step (block 0, warp 0): tiles %.0f, merge+store+next q %.0f; whole loop %.0f cycles/step, %.3f GHz\n",
                           (double)z[0] / L / (r + 1), (double)z[1] / L / (r + 1),
                           (double)z[6] / L / (r + 1), (double)z[6] / z[7]);
                }
#endif
                fflush(stdout);
            }
            CK(cudaFree(q)); CK(cudaFree(k)); CK(cudaFree(v)); CK(cudaFree(o));
        }
    }
    return 0;
}
