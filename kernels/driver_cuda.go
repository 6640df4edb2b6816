//go:build cuda

package kernels

/*
// The toolkit's usual place, after CGO_CFLAGS/CGO_LDFLAGS (which go puts
// first): go build -tags cuda works on a host with a CUDA 11.8 to 13.x
// toolkit and nothing set. These flags are the kernels package's alone, so a
// whole CUDA 13 include folder here does not reach go-nvml's build.
#cgo linux CFLAGS: -I/usr/local/cuda/include
#cgo linux LDFLAGS: -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs
#cgo LDFLAGS: -lcuda
#include <cuda.h>
#include <stdlib.h>

// Launching in a C loop keeps cgo's per-call cost out of launch-bound timings:
// a C++ framework pays only cuLaunchKernel, and so do we.
static CUresult pg_launch_n(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
		unsigned bx, unsigned by, unsigned bz, unsigned shmem, CUstream s, void** params, int n) {
	for (int i = 0; i < n; i++) {
		CUresult r = cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, s, params, NULL);
		if (r != CUDA_SUCCESS) return r;
	}
	return CUDA_SUCCESS;
}

// pg_launch_ops launches f(a[i], b[i], o[i], n) for i < count: one launch per op.
static CUresult pg_launch_ops(CUfunction f, unsigned grid, unsigned block, CUstream s,
		const CUdeviceptr* a, const CUdeviceptr* b, const CUdeviceptr* o, long long n, int count) {
	for (int i = 0; i < count; i++) {
		void* p[4] = {(void*)&a[i], (void*)&b[i], (void*)&o[i], (void*)&n};
		CUresult r = cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, s, p, NULL);
		if (r != CUDA_SUCCESS) return r;
	}
	return CUDA_SUCCESS;
}

static CUresult pg_graph_launch_n(CUgraphExec e, CUstream s, int n) {
	for (int i = 0; i < n; i++) {
		CUresult r = cuGraphLaunch(e, s);
		if (r != CUDA_SUCCESS) return r;
	}
	return CUDA_SUCCESS;
}

// A pg_step is one launch of a fixed sequence (mixedops' iteration).
typedef struct { CUfunction f; unsigned grid, block; void** params; } pg_step;

static CUresult pg_launch_seq(const pg_step* steps, int n, int reps, CUstream s) {
	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < n; i++) {
			CUresult e = cuLaunchKernel(steps[i].f, steps[i].grid, 1, 1, steps[i].block, 1, 1, 0, s, steps[i].params, NULL);
			if (e != CUDA_SUCCESS) return e;
		}
	}
	return CUDA_SUCCESS;
}

static const char* pg_error_name(CUresult r) {
	const char* s = NULL;
	if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == NULL) return "CUDA_ERROR_UNKNOWN_CODE";
	return s;
}
static const char* pg_error_string(CUresult r) {
	const char* s = NULL;
	if (cuGetErrorString(r, &s) != CUDA_SUCCESS || s == NULL) return "";
	return s;
}
// The blocking kernel's flags live in pinned host memory mapped into the GPU.
static CUresult pg_host_flags(int** host, CUdeviceptr* dev) {
	CUresult r = cuMemHostAlloc((void**)host, 2 * sizeof(int), CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
	if (r != CUDA_SUCCESS) return r;
	(*host)[0] = 0;
	(*host)[1] = 0;
	return cuMemHostGetDevicePointer(dev, *host, 0);
}
static void pg_store(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
static int pg_load(int* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
static void pg_host_free(int* p) { cuMemFreeHost(p); }

// pg_capture_begin and pg_capture_end record what is enqueued on s between
// them into an instantiated CUDA graph. pg_capture_end always ends the
// capture, also when it failed.
static CUresult pg_capture_begin(CUstream s) { return cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL); }
static CUresult pg_capture_end(CUstream s, CUgraphExec* exec) {
	CUgraph g;
	CUresult r = cuStreamEndCapture(s, &g);
	if (r != CUDA_SUCCESS) return r;
	r = cuGraphInstantiateWithFlags(exec, g, 0);
	cuGraphDestroy(g);
	return r;
}

static int pg_header_version(void) { return CUDA_VERSION; }
*/
import "C"

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"gorgonia.org/cu"
)

// A cudaError is a failed CUDA driver call: what perfgate was doing, and the
// driver's error name and text.
type cudaError struct {
	Op   string
	Code int
	Name string
	Msg  string
}

func (e *cudaError) Error() string {
	return fmt.Sprintf("%s: %s (%s, %d)", e.Op, e.Msg, e.Name, e.Code)
}

// check turns a CUresult into an error naming op.
func check(op string, r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	return &cudaError{Op: op, Code: int(r), Name: C.GoString(C.pg_error_name(r)), Msg: C.GoString(C.pg_error_string(r))}
}

// wrap adds op to an error from gorgonia.org/cu. A driver result code
// becomes a cudaError with the driver's own name and text
// (CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered).
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if t := reflect.TypeOf(err); t.PkgPath() == "gorgonia.org/cu" && t.Kind() == reflect.Int {
		return check(op, C.CUresult(reflect.ValueOf(err).Int()))
	}
	return fmt.Errorf("%s: %w", op, err)
}

// cuHeaderVersion is the CUDA_VERSION of the cuda.h this binary was compiled against.
func cuHeaderVersion() int { return int(C.pg_header_version()) }

// The cu types wrap the driver handles in one-field structs; these views
// reinterpret them for our own calls.
func cFunc(f cu.Function) C.CUfunction { return *(*C.CUfunction)(unsafe.Pointer(&f)) }
func cStream(s cu.Stream) C.CUstream   { return *(*C.CUstream)(unsafe.Pointer(&s)) }

// A cparams is a kernel's argument block in C memory: one 8-byte slot per
// argument (little-endian, so a 4-byte argument reads its low half) and the
// array of pointers to the slots that cuLaunchKernel takes.
type cparams struct {
	slots unsafe.Pointer
	ptrs  unsafe.Pointer
	n     int
}

func newParams(vals ...uint64) *cparams {
	n := max(len(vals), 1)
	p := &cparams{slots: C.calloc(C.size_t(n), 8), ptrs: C.calloc(C.size_t(n), 8), n: len(vals)}
	slots := unsafe.Slice((*uint64)(p.slots), n)
	ptrs := unsafe.Slice((*unsafe.Pointer)(p.ptrs), n)
	for i, v := range vals {
		slots[i] = v
		ptrs[i] = unsafe.Add(p.slots, 8*i)
	}
	return p
}

func (p *cparams) free() {
	C.free(p.slots)
	C.free(p.ptrs)
}

// A launch is one kernel with its configuration and arguments.
type launch struct {
	fn          cu.Function
	grid, block [3]uint32
	shared      uint32
	params      *cparams
}

// enqueue issues n back-to-back launches on stream.
func (l *launch) enqueue(stream cu.Stream, n int) error {
	return check("cuLaunchKernel", C.pg_launch_n(cFunc(l.fn),
		C.uint(l.grid[0]), C.uint(l.grid[1]), C.uint(l.grid[2]),
		C.uint(l.block[0]), C.uint(l.block[1]), C.uint(l.block[2]),
		C.uint(l.shared), cStream(stream), (*unsafe.Pointer)(l.params.ptrs), C.int(n)))
}

// setArg overwrites argument i of l.
func setArg(l *launch, i int, v uint64) {
	*(*uint64)(unsafe.Add(l.params.slots, 8*i)) = v
}

// allowShared lets fn (named name) use bytes of dynamic shared memory,
// beyond the default 48 KiB.
func allowShared(fn cu.Function, name string, bytes int) error {
	return check("cuFuncSetAttribute "+name, C.cuFuncSetAttribute(cFunc(fn),
		C.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, C.int(bytes)))
}

// An opTable is a list of (a, b, out) device pointers of many small adds, in C memory.
type opTable struct {
	a, b, o unsafe.Pointer
	count   int
	n       int64
}

func newOpTable(a, b, o []cu.DevicePtr, n int64) *opTable {
	t := &opTable{count: len(a), n: n}
	for _, x := range []struct {
		dst *unsafe.Pointer
		src []cu.DevicePtr
	}{{&t.a, a}, {&t.b, b}, {&t.o, o}} {
		*x.dst = C.calloc(C.size_t(len(x.src)), 8)
		copy(unsafe.Slice((*cu.DevicePtr)(*x.dst), len(x.src)), x.src)
	}
	return t
}

func (t *opTable) free() { C.free(t.a); C.free(t.b); C.free(t.o) }

// launchOps issues one launch of fn per op.
func (t *opTable) launchOps(fn cu.Function, grid, block uint32, stream cu.Stream) error {
	return t.launchRange(fn, grid, block, stream, 0, t.count)
}

// launchRange issues one launch of fn for each of the ops [from, from+count).
func (t *opTable) launchRange(fn cu.Function, grid, block uint32, stream cu.Stream, from, count int) error {
	at := func(p unsafe.Pointer) *C.CUdeviceptr { return (*C.CUdeviceptr)(unsafe.Add(p, 8*from)) }
	return check("cuLaunchKernel", C.pg_launch_ops(cFunc(fn), C.uint(grid), C.uint(block), cStream(stream),
		at(t.a), at(t.b), at(t.o), C.longlong(t.n), C.int(count)))
}

// A graph is an instantiated CUDA graph.
type graph struct{ exec C.CUgraphExec }

// captureOps records t's launches, one per op, into a CUDA graph.
func (t *opTable) captureOps(fn cu.Function, grid, block uint32, stream cu.Stream) (*graph, error) {
	return capture(func(s cu.Stream, _ int) error { return t.launchOps(fn, grid, block, s) }, 1, stream)
}

func (g *graph) enqueue(stream cu.Stream, n int) error {
	return check("cuGraphLaunch", C.pg_graph_launch_n(g.exec, cStream(stream), C.int(n)))
}

func (g *graph) destroy() { C.cuGraphExecDestroy(g.exec) }

// capture records n repetitions of w, as enqueued on stream, into a graph.
func capture(w workFunc, n int, stream cu.Stream) (*graph, error) {
	if err := check("cuStreamBeginCapture", C.pg_capture_begin(cStream(stream))); err != nil {
		return nil, err
	}
	werr := w(stream, n)
	gr := &graph{}
	if err := check("capture a CUDA graph", C.pg_capture_end(cStream(stream), &gr.exec)); err != nil {
		return nil, errors.Join(werr, err)
	}
	if werr != nil {
		gr.destroy()
		return nil, werr
	}
	return gr, nil
}

// A sequence is a fixed list of launches issued reps times in one C call.
type sequence struct {
	steps  unsafe.Pointer
	n      int
	params []*cparams
}

// newSequence builds a sequence from launches (1-D grids only).
func newSequence(ls []*launch) *sequence {
	q := &sequence{steps: C.calloc(C.size_t(len(ls)), C.sizeof_pg_step), n: len(ls)}
	steps := unsafe.Slice((*C.pg_step)(q.steps), len(ls))
	for i, l := range ls {
		steps[i] = C.pg_step{f: cFunc(l.fn), grid: C.uint(l.grid[0]), block: C.uint(l.block[0]),
			params: (*unsafe.Pointer)(l.params.ptrs)}
		q.params = append(q.params, l.params)
	}
	return q
}

func (q *sequence) enqueue(stream cu.Stream, reps int) error {
	return check("cuLaunchKernel", C.pg_launch_seq((*C.pg_step)(q.steps), C.int(q.n), C.int(reps), cStream(stream)))
}

func (q *sequence) free() {
	for _, p := range q.params {
		p.free()
	}
	C.free(q.steps)
}

// hostFlags are the blocking kernel's release and timed-out flags.
type hostFlags struct {
	host *C.int
	dev  cu.DevicePtr
}

func newHostFlags() (*hostFlags, error) {
	f := &hostFlags{}
	var dev C.CUdeviceptr
	if err := check("cuMemHostAlloc (blocking kernel flags)", C.pg_host_flags(&f.host, &dev)); err != nil {
		return nil, err
	}
	f.dev = cu.DevicePtr(dev)
	return f, nil
}

func (f *hostFlags) flag(i int) *C.int { return (*C.int)(unsafe.Add(unsafe.Pointer(f.host), 4*i)) }

// arm clears both flags before the blocking kernel is enqueued.
func (f *hostFlags) arm() { C.pg_store(f.flag(0), 0); C.pg_store(f.flag(1), 0) }

// release lets the blocking kernel return.
func (f *hostFlags) release() { C.pg_store(f.flag(0), 1) }

// timedOut reports whether the blocking kernel gave up before the release.
func (f *hostFlags) timedOut() bool { return C.pg_load(f.flag(1)) != 0 }

func (f *hostFlags) free() { C.pg_host_free(f.host) }

// ctxHealthy synchronizes the context: an error here means it is lost (a
// sticky fault such as an illegal address), and every later call would fail.
func ctxHealthy() error { return check("cuCtxSynchronize", C.cuCtxSynchronize()) }
