//go:build cuda

package kernels

import (
	"fmt"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/suite"
)

// prepareMemory sets up a 1 GiB device-to-device copy: cuMemcpyDtoDAsync or
// the float4 copy kernel.
func prepareMemory(g *gpu, c suite.Case) (*prepared, error) {
	m, err := g.loadBuiltin("memory")
	if err != nil {
		return nil, err
	}
	bytes := c.N * 4
	var bufs buffers
	fail := func(err error) (*prepared, error) { bufs.free(); return nil, err }
	src, err := bufs.alloc(bytes)
	if err != nil {
		return fail(err)
	}
	dst, err := bufs.alloc(bytes)
	if err != nil {
		return fail(err)
	}
	if err := g.fill(m, src, "fp32", c.N, seedA, -2, 2); err != nil {
		return fail(err)
	}
	p := &prepared{ops: 1, meta: suite.WorkMeta{Bytes: 2 * float64(bytes), PTXHash: m.hash("copy_float4")}}
	var l *launch
	switch c.Op {
	case "memcpy_dtod":
		p.work = func(s cu.Stream, n int) error {
			for range n {
				if err := wrap("cuMemcpyDtoDAsync", cu.MemcpyDtoDAsync(dst, src, bytes, s)); err != nil {
					return err
				}
			}
			return nil
		}
		p.meta.PTXHash = ""
	case "copy_float4":
		fn, err := m.fn("copy_float4")
		if err != nil {
			return fail(err)
		}
		l = &launch{fn: fn, grid: [3]uint32{grid1D(bytes / 16), 1, 1}, block: [3]uint32{256, 1, 1},
			params: newParams(uint64(src), uint64(dst), uint64(bytes/16))}
		p.work = l.enqueue
	default:
		return fail(fmt.Errorf("memory suite has no benchmark %q", c.Op))
	}
	p.cleanup = func() {
		if l != nil {
			l.params.free()
		}
		bufs.free()
	}
	if err := g.checkOnce(p, dst, bytes, func() error {
		return g.verify(dst, "fp32", c.N, checkIndices(c.N), tolerance{}, func(i int64) float32 { return randValue(seedA, i, -2, 2) })
	}); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}

// checkOnce poisons the output, runs the work once and runs check.
func (g *gpu) checkOnce(p *prepared, out cu.DevicePtr, bytes int64, check func() error) error {
	if err := g.poison(out, bytes); err != nil {
		return err
	}
	if err := p.work(g.stream, 1); err != nil {
		return err
	}
	return check()
}

// prepareElementwise sets up one elementwise op at one dtype and size, and
// checks its output against the CPU reference.
func prepareElementwise(g *gpu, c suite.Case) (*prepared, error) {
	m, err := g.loadBuiltin("elementwise")
	if err != nil {
		return nil, err
	}
	fn, err := m.fn(c.Op + "_" + c.DType)
	if err != nil {
		return nil, err
	}
	es := elemSize(c.DType)
	bytes := c.N * es
	var bufs buffers
	fail := func(err error) (*prepared, error) { bufs.free(); return nil, err }
	var ptr [3]cu.DevicePtr
	for i := range ptr {
		if ptr[i], err = bufs.alloc(bytes); err != nil {
			return fail(err)
		}
	}
	alo, ahi := inputRange(c.Op, 0)
	blo, bhi := inputRange(c.Op, 1)
	if err := g.fill(m, ptr[0], c.DType, c.N, seedA, alo, ahi); err != nil {
		return fail(err)
	}
	if err := g.fill(m, ptr[1], c.DType, c.N, seedB, blo, bhi); err != nil {
		return fail(err)
	}
	l := &launch{fn: fn, grid: [3]uint32{grid1D((c.N + 16/es - 1) / (16 / es)), 1, 1}, block: [3]uint32{256, 1, 1},
		params: newParams(uint64(ptr[0]), uint64(ptr[1]), uint64(ptr[2]), uint64(c.N))}
	inputs := 1.0
	if binaryOp(c.Op) {
		inputs = 2
	}
	p := &prepared{work: l.enqueue, ops: 1, cleanup: func() { l.params.free(); bufs.free() },
		meta: suite.WorkMeta{Bytes: (inputs + 1) * float64(bytes), PTXHash: m.hash(c.Op + "_" + c.DType)}}
	want := func(i int64) float32 {
		a := roundTo(c.DType, randValue(seedA, i, alo, ahi))
		b := roundTo(c.DType, randValue(seedB, i, blo, bhi))
		return cpuOp(c.Op, a, b)
	}
	if err := g.checkOnce(p, ptr[2], bytes, func() error {
		return g.verify(ptr[2], c.DType, c.N, checkIndices(c.N), toleranceFor(c.DType), want)
	}); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}
