//go:build cuda

package kernels

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>

// cuBLAS is loaded at run time with dlopen and bound through the few
// prototypes below, declared here rather than taken from cublas_v2.h: the
// CUDA 13 cublas_v2.h does not compile beside the CUDA 12.x cuda.h that
// gorgonia.org/cu needs (vector_functions.h clashes), while these functions'
// ABI is the same in cuBLAS 11, 12 and 13 (handles are pointers, enums are
// ints, streams are CUstream). Without libcublas the binary still runs and
// only the cuBLAS benchmarks fail, saying so.
typedef int (*pg_cublasCreate_t)(void**);
typedef int (*pg_cublasDestroy_t)(void*);
typedef int (*pg_cublasSetStream_t)(void*, void*);
typedef int (*pg_cublasSetMathMode_t)(void*, int);
typedef int (*pg_cublasGetVersion_t)(void*, int*);
typedef int (*pg_cublasGemmEx_t)(void*, int, int, int, int, int, const void*, const void*, int, int,
	const void*, int, int, const void*, void*, int, int, int, int);

typedef struct {
	void* lib;
	pg_cublasCreate_t create;
	pg_cublasDestroy_t destroy;
	pg_cublasSetStream_t setStream;
	pg_cublasSetMathMode_t setMathMode;
	pg_cublasGetVersion_t getVersion;
	pg_cublasGemmEx_t gemmEx;
} pg_cublas;

static int pg_cublas_open(pg_cublas* b, const char* name) {
	b->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!b->lib) return 1;
	b->create = (pg_cublasCreate_t)dlsym(b->lib, "cublasCreate_v2");
	b->destroy = (pg_cublasDestroy_t)dlsym(b->lib, "cublasDestroy_v2");
	b->setStream = (pg_cublasSetStream_t)dlsym(b->lib, "cublasSetStream_v2");
	b->setMathMode = (pg_cublasSetMathMode_t)dlsym(b->lib, "cublasSetMathMode");
	b->getVersion = (pg_cublasGetVersion_t)dlsym(b->lib, "cublasGetVersion_v2");
	b->gemmEx = (pg_cublasGemmEx_t)dlsym(b->lib, "cublasGemmEx");
	if (!b->create || !b->destroy || !b->setStream || !b->setMathMode || !b->getVersion || !b->gemmEx) return 2;
	return 0;
}
static const char* pg_dlerror(void) { const char* e = dlerror(); return e ? e : "unknown dlopen error"; }

static int pg_cublas_create(pg_cublas* b, void** h) { return b->create(h); }
static int pg_cublas_destroy(pg_cublas* b, void* h) { return b->destroy(h); }
static int pg_cublas_set_stream(pg_cublas* b, void* h, void* s) { return b->setStream(h, s); }
static int pg_cublas_set_math(pg_cublas* b, void* h, int mode) { return b->setMathMode(h, mode); }
static int pg_cublas_version(pg_cublas* b, void* h, int* v) { return b->getVersion(h, v); }

// pg_gemm_n issues n row-major C = A·B as column-major C' = B'·A' (no transposes).
static int pg_gemm_n(pg_cublas* b, void* h, int m, int n, int k, unsigned long long a, unsigned long long bm,
		unsigned long long c, int dtype, int compute, int n_reps) {
	const void* A = (const void*)a;
	const void* B = (const void*)bm;
	void* C = (void*)c;
	float alpha = 1.0f, beta = 0.0f;
	for (int i = 0; i < n_reps; i++) {
		int r = b->gemmEx(h, 0, 0, n, m, k, &alpha, B, dtype, n, A, dtype, k, &beta, C, dtype, n, compute, -1);
		if (r != 0) return r;
	}
	return 0;
}
*/
import "C"

import (
	"fmt"
	"strconv"
	"unsafe"

	"gorgonia.org/cu"
)

// cublasLibs are the names tried, newest first; the CUDA toolkit's lib64
// is tried by path too, for machines that do not list it in ld.so.conf.
var cublasLibs = []string{
	"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so",
	"/usr/local/cuda/lib64/libcublas.so.13", "/usr/local/cuda/lib64/libcublas.so.12", "/usr/local/cuda/lib64/libcublas.so",
}

// cuBLAS and CUDA enum values (cublas_api.h, library_types.h): stable across versions.
const (
	cudaR32F  = 0
	cudaR16F  = 2
	cudaR16BF = 14

	cublasCompute32F         = 68
	cublasCompute32FFastTF32 = 77

	// cublasDefaultMath is CUBLAS_DEFAULT_MATH, as PyTorch sets it: fp32
	// uses TF32 only when the compute type asks for it.
	cublasDefaultMath = 0
)

// A cublas is a loaded libcublas and one handle bound to the session's stream.
type cublas struct {
	b       C.pg_cublas
	h       unsafe.Pointer
	lib     string
	version int
}

// A cublasError is a failed cuBLAS call with its status code.
type cublasError struct {
	Op     string
	Status int
}

func (e *cublasError) Error() string { return fmt.Sprintf("%s: cuBLAS status %d", e.Op, e.Status) }

// openCublas loads libcublas and creates a handle on stream (the context
// must be current on this thread: cuBLAS uses the primary context).
func openCublas(stream cu.Stream) (*cublas, error) {
	lb := &cublas{}
	var tried []string
	for _, name := range cublasLibs {
		cs := C.CString(name)
		r := C.pg_cublas_open(&lb.b, cs)
		C.free(unsafe.Pointer(cs))
		if r == 0 {
			lb.lib = name
			break
		}
		tried = append(tried, name+": "+C.GoString(C.pg_dlerror()))
	}
	if lb.lib == "" {
		return nil, fmt.Errorf("cannot load cuBLAS (tried %q)", tried)
	}
	if r := C.pg_cublas_create(&lb.b, &lb.h); r != 0 {
		return nil, &cublasError{"cublasCreate", int(r)}
	}
	if r := C.pg_cublas_set_stream(&lb.b, lb.h, unsafe.Pointer(cStream(stream))); r != 0 {
		return nil, &cublasError{"cublasSetStream", int(r)}
	}
	if r := C.pg_cublas_set_math(&lb.b, lb.h, cublasDefaultMath); r != 0 {
		return nil, &cublasError{"cublasSetMathMode", int(r)}
	}
	var v C.int
	if r := C.pg_cublas_version(&lb.b, lb.h, &v); r == 0 {
		lb.version = int(v)
	}
	return lb, nil
}

// describe is the library's provenance for a benchmark's info.
func (lb *cublas) describe() string { return lb.lib + " version " + strconv.Itoa(lb.version) }

// gemm enqueues reps row-major C = A·B of dtype (fp32 with or without TF32,
// fp16, bf16; fp32 accumulation).
func (lb *cublas) gemm(m, n, k int64, a, b, c cu.DevicePtr, dtype string, tf32 bool, reps int) error {
	dt, compute := cudaR32F, cublasCompute32F
	switch {
	case dtype == "fp16":
		dt = cudaR16F
	case dtype == "bf16":
		dt = cudaR16BF
	case tf32:
		compute = cublasCompute32FFastTF32
	}
	r := C.pg_gemm_n(&lb.b, lb.h, C.int(m), C.int(n), C.int(k), C.ulonglong(a), C.ulonglong(b), C.ulonglong(c),
		C.int(dt), C.int(compute), C.int(reps))
	if r != 0 {
		return &cublasError{"cublasGemmEx", int(r)}
	}
	return nil
}

func (lb *cublas) close() {
	if lb.h != nil {
		C.pg_cublas_destroy(&lb.b, lb.h)
	}
}
