//go:build cuda

package kernels

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

// NVRTC is loaded at run time with dlopen, like cuBLAS, and bound through the
// prototypes below rather than nvrtc.h: the binary then links libcuda.so.1
// alone (a soname every driver since CUDA 5 provides) and uses whichever
// libnvrtc.so.{13,12,11.2} the host has, so one build runs on CUDA 12 and 13
// hosts. These functions' ABI is the same in NVRTC 11.2 to 13.
typedef int (*pg_nvrtcCreateProgram_t)(void**, const char*, const char*, int, const char* const*, const char* const*);
typedef int (*pg_nvrtcDestroyProgram_t)(void**);
typedef int (*pg_nvrtcCompileProgram_t)(void*, int, const char* const*);
typedef int (*pg_nvrtcSize_t)(void*, size_t*);
typedef int (*pg_nvrtcGet_t)(void*, char*);
typedef int (*pg_nvrtcVersion_t)(int*, int*);
typedef const char* (*pg_nvrtcGetErrorString_t)(int);

typedef struct {
	void* lib;
	pg_nvrtcCreateProgram_t create;
	pg_nvrtcDestroyProgram_t destroy;
	pg_nvrtcCompileProgram_t compile;
	pg_nvrtcSize_t ptxSize, logSize;
	pg_nvrtcGet_t ptx, log;
	pg_nvrtcVersion_t version;
	pg_nvrtcGetErrorString_t errstr;
} pg_nvrtc;

static int pg_nvrtc_open(pg_nvrtc* b, const char* name) {
	b->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!b->lib) return 1;
	b->create = (pg_nvrtcCreateProgram_t)dlsym(b->lib, "nvrtcCreateProgram");
	b->destroy = (pg_nvrtcDestroyProgram_t)dlsym(b->lib, "nvrtcDestroyProgram");
	b->compile = (pg_nvrtcCompileProgram_t)dlsym(b->lib, "nvrtcCompileProgram");
	b->ptxSize = (pg_nvrtcSize_t)dlsym(b->lib, "nvrtcGetPTXSize");
	b->ptx = (pg_nvrtcGet_t)dlsym(b->lib, "nvrtcGetPTX");
	b->logSize = (pg_nvrtcSize_t)dlsym(b->lib, "nvrtcGetProgramLogSize");
	b->log = (pg_nvrtcGet_t)dlsym(b->lib, "nvrtcGetProgramLog");
	b->version = (pg_nvrtcVersion_t)dlsym(b->lib, "nvrtcVersion");
	b->errstr = (pg_nvrtcGetErrorString_t)dlsym(b->lib, "nvrtcGetErrorString");
	if (!b->create || !b->destroy || !b->compile || !b->ptxSize || !b->ptx || !b->logSize || !b->log ||
		!b->version || !b->errstr) {
		dlclose(b->lib);
		b->lib = NULL;
		return 2;
	}
	return 0;
}
static const char* pg_nvrtc_dlerror(void) { const char* e = dlerror(); return e ? e : "a function is missing"; }

// pg_nvrtc_path is the file the dynamic loader resolved the library to.
static const char* pg_nvrtc_path(pg_nvrtc* b) {
	Dl_info info;
	if (dladdr((void*)b->version, &info) && info.dli_fname) return info.dli_fname;
	return "";
}

static int pg_nvrtc_create(pg_nvrtc* b, void** p, const char* src, const char* name) { return b->create(p, src, name, 0, NULL, NULL); }
static int pg_nvrtc_destroy(pg_nvrtc* b, void** p) { return b->destroy(p); }
static int pg_nvrtc_compile(pg_nvrtc* b, void* p, int n, char** opts) { return b->compile(p, n, (const char* const*)opts); }
static int pg_nvrtc_ptx_size(pg_nvrtc* b, void* p, size_t* n) { return b->ptxSize(p, n); }
static int pg_nvrtc_ptx(pg_nvrtc* b, void* p, char* out) { return b->ptx(p, out); }
static int pg_nvrtc_log_size(pg_nvrtc* b, void* p, size_t* n) { return b->logSize(p, n); }
static int pg_nvrtc_log(pg_nvrtc* b, void* p, char* out) { return b->log(p, out); }
static int pg_nvrtc_version(pg_nvrtc* b, int* maj, int* min) { return b->version(maj, min); }
static const char* pg_nvrtc_errstr(pg_nvrtc* b, int r) { return b->errstr(r); }
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"gorgonia.org/cu"
)

// An nvrtcLib is the loaded libnvrtc: its file and version.
type nvrtcLib struct {
	b       C.pg_nvrtc
	path    string // as the dynamic loader resolved it
	version string // "13.0"
}

var (
	nvrtcOnce sync.Once
	nvrtcLoad *nvrtcLib
	nvrtcErr  error
)

// loadNVRTC loads the newest libnvrtc this driver runs, once per process.
func loadNVRTC() (*nvrtcLib, error) {
	nvrtcOnce.Do(func() {
		driver := cu.Version() // -1 when unknown: no limit
		lb := &nvrtcLib{}
		cands := nvrtcCandidates(driver, nvrtcDirs(os.Getenv, filepath.Glob))
		_, err := loadFirst("libnvrtc", cands, func(name string) error {
			cs := C.CString(name)
			defer C.free(unsafe.Pointer(cs))
			if C.pg_nvrtc_open(&lb.b, cs) != 0 {
				return errors.New(C.GoString(C.pg_nvrtc_dlerror()))
			}
			return nil
		})
		if err != nil {
			nvrtcErr = err
			return
		}
		lb.path = C.GoString(C.pg_nvrtc_path(&lb.b))
		var maj, min C.int
		if r := C.pg_nvrtc_version(&lb.b, &maj, &min); r != 0 {
			nvrtcErr = lb.err("nvrtcVersion", r)
			return
		}
		lb.version = fmt.Sprintf("%d.%d", maj, min)
		nvrtcLoad = lb
	})
	return nvrtcLoad, nvrtcErr
}

// An nvrtcError is a failed NVRTC call with its result code and message.
type nvrtcError struct {
	Op   string
	Code int
	Msg  string
}

func (e *nvrtcError) Error() string {
	return fmt.Sprintf("%s: %s (NVRTC result %d)", e.Op, e.Msg, e.Code)
}

func (lb *nvrtcLib) err(op string, r C.int) error {
	return &nvrtcError{Op: op, Code: int(r), Msg: C.GoString(C.pg_nvrtc_errstr(&lb.b, r))}
}

// compilePTX compiles source (named file in messages) to PTX. On a refused
// compilation it returns NVRTC's log beside the error.
func (lb *nvrtcLib) compilePTX(file, source string, opts []string) (ptx, log string, err error) {
	csrc, cname := C.CString(source), C.CString(file)
	defer C.free(unsafe.Pointer(csrc))
	defer C.free(unsafe.Pointer(cname))
	var prog unsafe.Pointer
	if r := C.pg_nvrtc_create(&lb.b, &prog, csrc, cname); r != 0 {
		return "", "", lb.err("nvrtcCreateProgram "+file, r)
	}
	defer C.pg_nvrtc_destroy(&lb.b, &prog)
	copts := make([]*C.char, len(opts)+1) // +1: never a nil slice's address
	for i, o := range opts {
		copts[i] = C.CString(o)
		defer C.free(unsafe.Pointer(copts[i]))
	}
	if r := C.pg_nvrtc_compile(&lb.b, prog, C.int(len(opts)), &copts[0]); r != 0 {
		return "", lb.read(prog, true), lb.err("nvrtcCompileProgram", r)
	}
	return lb.read(prog, false), "", nil
}

// read returns the program's PTX or log ("" when NVRTC gives none).
func (lb *nvrtcLib) read(prog unsafe.Pointer, log bool) string {
	var n C.size_t
	var r C.int
	if log {
		r = C.pg_nvrtc_log_size(&lb.b, prog, &n)
	} else {
		r = C.pg_nvrtc_ptx_size(&lb.b, prog, &n)
	}
	if r != 0 || n == 0 {
		return ""
	}
	buf := (*C.char)(C.malloc(n))
	defer C.free(unsafe.Pointer(buf))
	if log {
		r = C.pg_nvrtc_log(&lb.b, prog, buf)
	} else {
		r = C.pg_nvrtc_ptx(&lb.b, prog, buf)
	}
	if r != 0 {
		return ""
	}
	return C.GoStringN(buf, C.int(n))
}
