//go:build cuda

package kernels

import (
	"unsafe"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
)

// g is the device the suites' setups run on (setup): its memory, built-in
// modules and launches on its stream.
var _ device.GPU = (*gpu)(nil)

// Alloc allocates bytes (at least 16) of device memory.
func (g *gpu) Alloc(bytes int64) (device.Ptr, error) {
	p, err := cu.MemAlloc(max(bytes, 16))
	if err != nil {
		return 0, wrap("cuMemAlloc "+suite.SizeLabel(bytes)+"B", err)
	}
	return device.Ptr(p), nil
}

// Free frees memory from Alloc.
func (g *gpu) Free(p device.Ptr) { cu.MemFree(cu.DevicePtr(p)) }

// Memset8 enqueues setting bytes bytes from p to v on g's stream.
func (g *gpu) Memset8(p device.Ptr, v byte, bytes int64) error {
	return wrap("cuMemsetD8Async", cu.MemsetD8Async(cu.DevicePtr(p), v, bytes, g.stream))
}

// CopyHtoD copies src to dst and waits for the context (see device.Memory).
func (g *gpu) CopyHtoD(dst device.Ptr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	if err := wrap("cuMemcpyHtoD", cu.MemcpyHtoD(cu.DevicePtr(dst), unsafe.Pointer(&src[0]), int64(len(src)))); err != nil {
		return err
	}
	return wrap("cuCtxSynchronize after upload", cu.Synchronize())
}

// CopyDtoD enqueues a device-to-device copy on g's stream.
func (g *gpu) CopyDtoD(dst, src device.Ptr, bytes int64) error {
	return wrap("cuMemcpyDtoDAsync", cu.MemcpyDtoDAsync(cu.DevicePtr(dst), cu.DevicePtr(src), bytes, g.stream))
}

// Read waits for g's stream and copies len(host) bytes from p into host.
func (g *gpu) Read(host []byte, p device.Ptr) error {
	if err := wrap("cuStreamSynchronize", g.stream.Synchronize()); err != nil {
		return err
	}
	if len(host) == 0 {
		return nil
	}
	return wrap("cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&host[0]), cu.DevicePtr(p), int64(len(host))))
}

// Module returns the built-in module name (loadBuiltin).
func (g *gpu) Module(name string) (device.Module, error) {
	m, err := g.loadBuiltin(name)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Compile compiles and loads a user's source (load).
func (g *gpu) Compile(file, source string, options []string) (device.Module, error) {
	m, err := g.load(file, source, options)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Kernel copies l's arguments into C memory for launches on g's stream.
// l.Func must be one of g's modules' (a cudaFunc).
func (g *gpu) Kernel(l device.Launch) device.Kernel {
	return streamLaunch{&launch{fn: l.Func.(cudaFunc).fn, grid: l.Grid, block: l.Block, shared: l.Shared,
		params: newParams(l.Args...)}, g.stream}
}

// SMCount is the device's multiprocessor count.
func (g *gpu) SMCount() int { return g.smCount }

// A cudaFunc is a kernel entry point of a loaded module, and its name.
type cudaFunc struct {
	fn   cu.Function
	name string
}

// MaxActiveBlocks is cuOccupancyMaxActiveBlocksPerMultiprocessor without
// dynamic shared memory.
func (f cudaFunc) MaxActiveBlocks(block int) (int, error) {
	per, err := f.fn.MaxActiveBlocksPerMultiProcessor(block, 0)
	if err != nil {
		return 0, wrap("cuOccupancyMaxActiveBlocksPerMultiprocessor", err)
	}
	return per, nil
}

// AllowShared sets the kernel's most dynamic shared memory (allowShared).
func (f cudaFunc) AllowShared(bytes int) error { return allowShared(f.fn, f.name, bytes) }

// A streamLaunch is a launch bound to the stream it is enqueued on.
type streamLaunch struct {
	l      *launch
	stream cu.Stream
}

func (s streamLaunch) Enqueue(n int) error    { return s.l.enqueue(s.stream, n) }
func (s streamLaunch) SetArg(i int, v uint64) { setArg(s.l, i, v) }
func (s streamLaunch) Free()                  { s.l.params.free() }

// buffers allocates device memory and frees all of it at once, for the
// setups not yet on the device seam (setup.alloc is theirs).
type buffers struct{ ptrs []cu.DevicePtr }

func (b *buffers) alloc(bytes int64) (cu.DevicePtr, error) {
	p, err := cu.MemAlloc(max(bytes, 16))
	if err != nil {
		return 0, wrap("cuMemAlloc "+suite.SizeLabel(bytes)+"B", err)
	}
	b.ptrs = append(b.ptrs, p)
	return p, nil
}

func (b *buffers) free() {
	for _, p := range b.ptrs {
		cu.MemFree(p)
	}
	b.ptrs = nil
}

// The setup steps for the setups not yet on the device seam: each is
// setup's, on g, with driver pointers.

func (g *gpu) fill(m *module, p cu.DevicePtr, dtype string, n int64, seed uint32, lo, hi float32) error {
	return (&setup{gpu: g}).fill(m, device.Ptr(p), dtype, n, seed, lo, hi)
}

func (g *gpu) readback(p cu.DevicePtr, bytes int64) ([]byte, error) {
	return (&setup{gpu: g}).readback(device.Ptr(p), bytes)
}

func (g *gpu) upload(p cu.DevicePtr, data []byte) error { return g.CopyHtoD(device.Ptr(p), data) }

func (g *gpu) checkOnce(p *prepared, out cu.DevicePtr, bytes int64, check func() error) error {
	return (&setup{gpu: g}).checkOnce(p, device.Ptr(out), bytes, check)
}

func (g *gpu) verify(p cu.DevicePtr, dtype string, n int64, idx []int64, tol tolerance, want func(i int64) float32) error {
	return (&setup{gpu: g}).verify(device.Ptr(p), dtype, n, idx, tol, want)
}
