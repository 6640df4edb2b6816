//go:build cuda

package kernels

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
#include <stdlib.h>
#include <string.h>

// pg_launch_p128 launches f<<<1, 32>>>(params, out) with 128 bytes of
// parameters copied from p.
static CUresult pg_launch_p128(CUfunction f, CUstream s, void* arg, const void* p, CUdeviceptr* out) {
	memcpy(arg, p, 128);
	void* params[2] = {arg, out};
	return cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL);
}

static CUresult pg_launch_read_host(CUfunction f, CUstream s, unsigned grid, CUdeviceptr src, CUdeviceptr dst, long long n) {
	void* params[3] = {&src, &dst, &n};
	return cuLaunchKernel(f, grid, 1, 1, 256, 1, 1, 0, s, params, NULL);
}

// pg_pool_keep makes the device's default memory pool keep freed memory
// (release threshold: unlimited) instead of returning it at each sync.
static CUresult pg_pool_keep(CUdevice d) {
	CUmemoryPool pool;
	CUresult r = cuDeviceGetDefaultMemPool(&pool, d);
	if (r != CUDA_SUCCESS) return r;
	cuuint64_t t = ~(cuuint64_t)0;
	return cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &t);
}

static CUresult pg_alloc_async(CUdeviceptr* p, size_t n, CUstream s) { return cuMemAllocAsync(p, n, s); }
static CUresult pg_free_async(CUdeviceptr p, CUstream s) { return cuMemFreeAsync(p, s); }
static CUresult pg_alloc(CUdeviceptr* p, size_t n) { return cuMemAlloc(p, n); }
static CUresult pg_free(CUdeviceptr p) { return cuMemFree(p); }
static CUresult pg_host_alloc(void** p, size_t n, unsigned flags) { return cuMemHostAlloc(p, n, flags); }
static CUresult pg_host_dev(CUdeviceptr* d, void* p) { return cuMemHostGetDevicePointer(d, p, 0); }
static CUresult pg_htod(CUdeviceptr d, const void* p, size_t n, CUstream s) { return cuMemcpyHtoDAsync(d, p, n, s); }
static CUresult pg_sync(CUstream s) { return cuStreamSynchronize(s); }
*/
import "C"

import (
	"context"
	"fmt"
	"strconv"
	"time"
	"unsafe"

	"github.com/perfgate/perfgate/kernels/cmdpath"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// runCmdpath runs the host benchmarks of cmdpath (as RunHost does; the
// options are valid) and then, on the GPU goroutine, the GPU ones.
func runCmdpath(s *Session, ctx context.Context, o Options) ([]model.Benchmark, error) {
	out, err := cmdpath.Suite.RunHost(ctx, suite.Select(cmdpath.Suite, o), o)
	if err != nil {
		return out, err
	}
	for _, sel := range suite.Select(cmdpath.Suite, o) {
		if sel.Mode != cmdpath.OnGPU {
			continue
		}
		var b model.Benchmark
		err := s.do(func(g *gpu) error {
			g.cacheDir = o.CacheDir
			if err := g.ready(); err != nil {
				b = suite.ErrorBenchmark(sel.Case, cmdpath.OnGPU, err)
				return nil
			}
			hb, err := g.cmdpathBench(sel.Case)
			if err != nil {
				g.afterFault()
				b = suite.ErrorBenchmark(sel.Case, cmdpath.OnGPU, err)
				return nil
			}
			b = cmdpath.Sample(ctx, sel.Case, cmdpath.OnGPU, hb, o)
			if b.Error != "" {
				g.afterFault()
			}
			return nil
		})
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return out, err
		}
		if o.Progress != nil {
			o.Progress(suite.ProgressLine(b))
		}
		out = append(out, b)
	}
	cmdpath.Finish(out)
	return out, nil
}

// A firstErr keeps the first error of a GPU benchmark's run.
type firstErr struct{ err error }

func (f *firstErr) set(err error) {
	if f.err == nil && err != nil {
		f.err = err
	}
}
func (f *firstErr) get() error { return f.err }

// cmdpathBench builds the GPU benchmark of case c. It runs on the GPU goroutine.
func (g *gpu) cmdpathBench(c suite.Case) (cmdpath.Bench, error) {
	m, err := g.loadBuiltin("cmdpath")
	if err != nil {
		return cmdpath.Bench{}, err
	}
	switch c.Op {
	case "submit":
		commands, _ := strconv.Atoi(c.Param("commands"))
		return g.submitBench(m, c.Param("work"), c.Param("via"), commands)
	case "devpool":
		return g.devpoolBench(cmdpath.ParseSize(c.Param("bytes")), c.Param("impl") == "cuMemAllocAsync")
	case "htod":
		return g.htodBench(m, cmdpath.ParseSize(c.Param("bytes")), c.Param("host"))
	}
	return cmdpath.Bench{}, fmt.Errorf("cmdpath: no GPU benchmark %q", c.Op)
}

// submitBench sends commands to the GPU goroutine, which submits each: a
// launch with its 128 bytes of parameters, or a 64 KiB cuMemcpyHtoDAsync from
// pinned memory. via=direct submits with no queue in between. One op is
// commands submissions and a cuStreamSynchronize.
func (g *gpu) submitBench(m *module, work, via string, commands int) (cmdpath.Bench, error) {
	fn, err := m.fn("pg_cmd")
	if err != nil {
		return cmdpath.Bench{}, err
	}
	const copyBytes = 64 * kb
	var fe firstErr
	hb := cmdpath.Bench{Op: fmt.Sprintf("%d %s commands submitted via %s, then cuStreamSynchronize", commands, work, via),
		Cmds: float64(commands), Failed: fe.get}
	hb.Start = func() (func(int) time.Duration, func()) {
		var bufs buffers
		out, err := bufs.alloc(4)
		fe.set(err)
		var host unsafe.Pointer
		fe.set(check("cuMemHostAlloc", C.pg_host_alloc(&host, copyBytes, 0)))
		dst, err := bufs.alloc(copyBytes)
		fe.set(err)
		arg, outSlot := C.malloc(128), (*C.CUdeviceptr)(C.malloc(8))
		*outSlot = C.CUdeviceptr(out)
		stream := cStream(g.stream)
		submit := func(params *[128]byte) {
			if work == "launch" {
				fe.set(check("cuLaunchKernel", C.pg_launch_p128(cFunc(fn), stream, arg, unsafe.Pointer(&params[0]), outSlot)))
			} else {
				fe.set(check("cuMemcpyHtoDAsync", C.pg_htod(C.CUdeviceptr(dst), host, copyBytes, stream)))
			}
		}
		run := func(n int) time.Duration {
			t0 := time.Now()
			for k := 0; k < n && fe.err == nil; k++ {
				cmdpath.SubmitAll(via, commands, submit)
				fe.set(check("cuStreamSynchronize", C.pg_sync(stream)))
			}
			return time.Since(t0)
		}
		return run, func() {
			C.free(arg)
			C.free(unsafe.Pointer(outSlot))
			C.cuMemFreeHost(host)
			bufs.free()
		}
	}
	return hb, nil
}

// devpoolBench allocates and frees one device buffer per op: cuMemAlloc and
// cuMemFree, or cuMemAllocAsync and cuMemFreeAsync from the device's default
// pool (kept, not trimmed) with one cuStreamSynchronize per sample.
func (g *gpu) devpoolBench(n int, async bool) (cmdpath.Bench, error) {
	var fe firstErr
	hb := cmdpath.Bench{Op: "allocate and free one device buffer (cuMemAlloc/cuMemFree)", Failed: fe.get}
	if async {
		hb.Op = "cuMemAllocAsync + cuMemFreeAsync on the stream, default pool kept (release threshold max); one stream sync per sample"
		fe.set(check("cuMemPoolSetAttribute (release threshold)", C.pg_pool_keep(C.CUdevice(g.dev))))
	}
	stream := cStream(g.stream)
	hb.Start = func() (func(int) time.Duration, func()) {
		return func(k int) time.Duration {
			t0 := time.Now()
			var p C.CUdeviceptr
			for i := 0; i < k && fe.err == nil; i++ {
				if async {
					fe.set(check("cuMemAllocAsync", C.pg_alloc_async(&p, C.size_t(n), stream)))
					fe.set(check("cuMemFreeAsync", C.pg_free_async(p, stream)))
				} else {
					fe.set(check("cuMemAlloc", C.pg_alloc(&p, C.size_t(n))))
					fe.set(check("cuMemFree", C.pg_free(p)))
				}
			}
			if async {
				fe.set(check("cuStreamSynchronize", C.pg_sync(stream)))
			}
			return time.Since(t0)
		}, func() {}
	}
	return hb, nil
}

// htodBench moves n bytes from host to device per op and waits for it:
// cuMemcpyHtoDAsync from pageable (malloc) or pinned (cuMemHostAlloc)
// memory, or a kernel reading mapped pinned memory in place (zero-copy).
func (g *gpu) htodBench(m *module, n int, kind string) (cmdpath.Bench, error) {
	fn, err := m.fn("pg_read_host")
	if err != nil {
		return cmdpath.Bench{}, err
	}
	var fe firstErr
	hb := cmdpath.Bench{Op: "copy " + suite.SizeLabel(int64(n)) + "B host→device from " + kind + " memory and wait",
		Bytes: float64(n), Failed: fe.get}
	stream := cStream(g.stream)
	hb.Start = func() (func(int) time.Duration, func()) {
		var host unsafe.Pointer
		switch kind {
		case "pageable":
			host = C.malloc(C.size_t(n))
			C.memset(host, 1, C.size_t(n))
		case "pinned":
			fe.set(check("cuMemHostAlloc", C.pg_host_alloc(&host, C.size_t(n), 0)))
		default:
			fe.set(check("cuMemHostAlloc (mapped)", C.pg_host_alloc(&host, C.size_t(n), C.CU_MEMHOSTALLOC_DEVICEMAP)))
		}
		var bufs buffers
		dst, err := bufs.alloc(int64(n))
		fe.set(err)
		var mapped C.CUdeviceptr
		if kind == "mapped" && fe.err == nil {
			fe.set(check("cuMemHostGetDevicePointer", C.pg_host_dev(&mapped, host)))
		}
		run := func(k int) time.Duration {
			t0 := time.Now()
			for i := 0; i < k && fe.err == nil; i++ {
				if kind == "mapped" {
					fe.set(check("cuLaunchKernel", C.pg_launch_read_host(cFunc(fn), stream, C.uint(2*g.smCount), mapped, C.CUdeviceptr(dst), C.longlong(n/16))))
				} else {
					fe.set(check("cuMemcpyHtoDAsync", C.pg_htod(C.CUdeviceptr(dst), host, C.size_t(n), stream)))
				}
				fe.set(check("cuStreamSynchronize", C.pg_sync(stream)))
			}
			return time.Since(t0)
		}
		return run, func() {
			if kind == "pageable" {
				C.free(host)
			} else if host != nil {
				C.cuMemFreeHost(host)
			}
			bufs.free()
		}
	}
	return hb, nil
}
