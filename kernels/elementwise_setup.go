package kernels

import (
	"fmt"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
)

// prepareMemory sets up a 1 GiB device-to-device copy: cuMemcpyDtoDAsync or
// the float4 copy kernel.
func prepareMemory(d device.GPU, c suite.Case) (*prepared, error) {
	m, err := d.Module("memory")
	if err != nil {
		return nil, err
	}
	bytes := c.N * 4
	s := &setup{gpu: d}
	fail := func(err error) (*prepared, error) { s.free(); return nil, err }
	src, err := s.alloc(bytes)
	if err != nil {
		return fail(err)
	}
	dst, err := s.alloc(bytes)
	if err != nil {
		return fail(err)
	}
	if err := s.fill(m, src, "fp32", c.N, seedA, -2, 2); err != nil {
		return fail(err)
	}
	p := &prepared{ops: 1, meta: suite.WorkMeta{Bytes: 2 * float64(bytes), PTXHash: m.Hash("copy_float4")}}
	var k device.Kernel
	switch c.Op {
	case "memcpy_dtod":
		p.work = func(n int) error {
			for range n {
				if err := d.CopyDtoD(dst, src, bytes); err != nil {
					return err
				}
			}
			return nil
		}
		p.meta.PTXHash = ""
	case "copy_float4":
		fn, err := m.Func("copy_float4")
		if err != nil {
			return fail(err)
		}
		k = d.Kernel(device.Launch{Func: fn, Grid: [3]uint32{grid1D(bytes / 16), 1, 1}, Block: [3]uint32{256, 1, 1},
			Args: []uint64{uint64(src), uint64(dst), uint64(bytes / 16)}})
		p.work = k.Enqueue
	default:
		return fail(fmt.Errorf("memory suite has no benchmark %q", c.Op))
	}
	p.cleanup = func() {
		if k != nil {
			k.Free()
		}
		s.free()
	}
	if err := s.checkOnce(p, dst, bytes, func() error {
		return s.verify(dst, "fp32", c.N, checkIndices(c.N), tolerance{}, func(i int64) float32 { return randValue(seedA, i, -2, 2) })
	}); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}

// prepareElementwise sets up one elementwise op at one dtype and size, and
// checks its output against the CPU reference.
func prepareElementwise(d device.GPU, c suite.Case) (*prepared, error) {
	m, err := d.Module("elementwise")
	if err != nil {
		return nil, err
	}
	fn, err := m.Func(c.Op + "_" + c.DType)
	if err != nil {
		return nil, err
	}
	es := elemSize(c.DType)
	bytes := c.N * es
	s := &setup{gpu: d}
	fail := func(err error) (*prepared, error) { s.free(); return nil, err }
	var ptr [3]device.Ptr
	for i := range ptr {
		if ptr[i], err = s.alloc(bytes); err != nil {
			return fail(err)
		}
	}
	alo, ahi := inputRange(c.Op, 0)
	blo, bhi := inputRange(c.Op, 1)
	if err := s.fill(m, ptr[0], c.DType, c.N, seedA, alo, ahi); err != nil {
		return fail(err)
	}
	if err := s.fill(m, ptr[1], c.DType, c.N, seedB, blo, bhi); err != nil {
		return fail(err)
	}
	k := d.Kernel(device.Launch{Func: fn, Grid: [3]uint32{grid1D((c.N + 16/es - 1) / (16 / es)), 1, 1}, Block: [3]uint32{256, 1, 1},
		Args: []uint64{uint64(ptr[0]), uint64(ptr[1]), uint64(ptr[2]), uint64(c.N)}})
	inputs := 1.0
	if binaryOp(c.Op) {
		inputs = 2
	}
	p := &prepared{work: k.Enqueue, ops: 1, cleanup: func() { k.Free(); s.free() },
		meta: suite.WorkMeta{Bytes: (inputs + 1) * float64(bytes), PTXHash: m.Hash(c.Op + "_" + c.DType)}}
	want := func(i int64) float32 {
		a := roundTo(c.DType, randValue(seedA, i, alo, ahi))
		b := roundTo(c.DType, randValue(seedB, i, blo, bhi))
		return cpuOp(c.Op, a, b)
	}
	if err := s.checkOnce(p, ptr[2], bytes, func() error {
		return s.verify(ptr[2], c.DType, c.N, checkIndices(c.N), toleranceFor(c.DType), want)
	}); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}
