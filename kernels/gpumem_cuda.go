//go:build cuda

package kernels

import (
	"math"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/suite"
)

// buffers allocates device memory and frees all of it at once.
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

// f32bits puts a float32 into a kernel argument slot.
func f32bits(f float32) uint64 { return uint64(math.Float32bits(f)) }

// grid1D returns the number of 256-thread blocks that cover threads threads.
func grid1D(threads int64) uint32 {
	return uint32(min(max((threads+255)/256, 1), math.MaxInt32))
}

// fill writes the random stream seed, in [lo, hi), into n elements of dtype
// at p, with the module's pg_fill kernel (common.cu).
func (g *gpu) fill(m *module, p cu.DevicePtr, dtype string, n int64, seed uint32, lo, hi float32) error {
	fn, err := m.fn("pg_fill_" + dtype)
	if err != nil {
		return err
	}
	l := &launch{fn: fn, grid: [3]uint32{uint32(min(int64(g.smCount)*32, int64(grid1D(n)))), 1, 1}, block: [3]uint32{256, 1, 1},
		params: newParams(uint64(p), uint64(n), uint64(seed), f32bits(lo), f32bits(hi))}
	defer l.params.free()
	return l.enqueue(g.stream, 1)
}

// poison sets every byte of an output to 0xFF (NaN in every float type), so
// an element the kernel forgets to write fails the check.
func (g *gpu) poison(p cu.DevicePtr, bytes int64) error {
	return wrap("poison output (cuMemsetD8Async)", cu.MemsetD8Async(p, 0xff, bytes, g.stream))
}

// readback waits for the stream and copies bytes from p to the host.
func (g *gpu) readback(p cu.DevicePtr, bytes int64) ([]byte, error) {
	host := make([]byte, bytes)
	return host, g.readInto(host, p)
}

// readInto waits for the stream and copies len(host) bytes from p into host.
func (g *gpu) readInto(host []byte, p cu.DevicePtr) error {
	if err := wrap("cuStreamSynchronize", g.stream.Synchronize()); err != nil {
		return err
	}
	if len(host) == 0 {
		return nil
	}
	return wrap("cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&host[0]), p, int64(len(host))))
}

// verifyChunk is the most output verify copies to the host at once. Read in
// one piece, the two 1 GiB copies of the copy-ceiling measurement (every
// suite but memory runs it first) took `perfgate run --suite S --size ci` to
// a peak RSS of 2.2–2.3 GiB on the H100; in pieces, 359–463 MiB.
const verifyChunk = 64 << 20

// verify compares the elements idx of an n-element dtype output at p with
// want(i), rounded to dtype, within tol. It reads the output back in pieces
// of at most verifyChunk bytes (one pass when idx is ascending, as
// checkIndices and sampleIndices make it).
func (g *gpu) verify(p cu.DevicePtr, dtype string, n int64, idx []int64, tol tolerance, want func(i int64) float32) error {
	es := elemSize(dtype)
	per := max(verifyChunk/es, 1)
	got := make([]float32, len(idx))
	exp := make([]float32, len(idx))
	buf := make([]byte, min(per, n)*es)
	var raw []byte
	first := int64(-1) // the element raw starts at
	for k, i := range idx {
		if first < 0 || i < first || i >= first+int64(len(raw))/es {
			first = i / per * per
			raw = buf[:min(per, n-first)*es]
			if err := g.readInto(raw, p+cu.DevicePtr(first*es)); err != nil {
				return err
			}
		}
		got[k] = decodeElem(dtype, raw, i-first)
		exp[k] = roundTo(dtype, want(i))
	}
	return checkClose(got, exp, idx, tol)
}
