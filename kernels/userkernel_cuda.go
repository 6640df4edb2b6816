//go:build cuda

package kernels

import (
	"context"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// RunUserKernel compiles a user's kernel with NVRTC and measures every case
// with the same harness as the built-in suites (correctness first when a
// reference is given, then the cold and batch timings, adaptive sampling, clock
// filtering). A case that fails becomes an error benchmark.
func (s *Session) RunUserKernel(ctx context.Context, k UserKernel, o Options) ([]model.Benchmark, error) {
	for i, uc := range k.Cases {
		if err := validateUserCase(k, i, uc); err != nil {
			return nil, &model.InputError{File: k.File, Msg: err.Error()}
		}
	}
	var out []model.Benchmark
	var pend []*pendingDraw
	for _, uc := range k.Cases {
		c := userCase(k, uc)
		var wanted []string
		for _, m := range suite.Timings {
			if o.Filter == nil || o.Filter.MatchString(c.Suite+"/"+c.Name(m)) {
				wanted = append(wanted, m)
			}
		}
		if len(wanted) == 0 {
			continue
		}
		prep := func(d device.GPU, _ suite.Case) (*prepared, error) { return onGPU(d).prepareUser(k, uc) }
		bs, ps, err := s.runCase(ctx, c, wanted, o, prep)
		for _, pd := range ps {
			pd.at += len(out)
		}
		out, pend = append(out, bs...), append(pend, ps...)
		if err != nil {
			return dropPending(out, pend), err
		}
	}
	if err := s.draw(ctx, out, pend, o); err != nil {
		return dropPending(out, pend), err
	}
	return out, nil
}

// prepareUser compiles the kernel (and reference), fills the buffers, runs
// the reference check, and returns the launch to time.
func (g *gpu) prepareUser(k UserKernel, uc UserCase) (*prepared, error) {
	m, err := g.load(k.File, k.Source, k.Options)
	if err != nil {
		return nil, err
	}
	fn, err := m.fn(k.Entry)
	if err != nil {
		return nil, err
	}
	var bufs buffers
	ptrs, err := g.userBuffers(&bufs, uc.Buffers)
	if err != nil {
		bufs.free()
		return nil, err
	}
	l := &launch{fn: fn, grid: uc.Grid, block: uc.Block, shared: uc.SharedBytes, params: newParams(userArgs(uc, ptrs)...)}
	p := &prepared{work: g.on(l.enqueue), ops: 1, cleanup: func() { l.params.free(); bufs.free() },
		meta: suite.WorkMeta{Bytes: uc.Bytes, FLOPs: uc.FLOPs, PTXHash: m.Hash(k.Entry), Info: map[string]string{"entry": k.Entry, "file": k.File}}}
	if uc.Reference != nil {
		if err := g.checkUserReference(k, uc, l, ptrs, &bufs); err != nil {
			p.cleanup()
			return nil, err
		}
		p.meta.Info["checked_against"] = uc.Reference.Entry
	}
	return p, nil
}

// userBuffers allocates and initialises the case's buffers.
func (g *gpu) userBuffers(bufs *buffers, bs []UserBuffer) ([]cu.DevicePtr, error) {
	ptrs := make([]cu.DevicePtr, len(bs))
	for i, b := range bs {
		bytes := b.Len * elemSize(b.DType)
		p, err := bufs.alloc(bytes)
		if err != nil {
			return nil, err
		}
		ptrs[i] = p
		if err := g.upload(p, userBufferData(b, uint32(0x5005+i))); err != nil {
			return nil, err
		}
	}
	return ptrs, nil
}

func (g *gpu) upload(p cu.DevicePtr, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if err := wrap("cuMemcpyHtoD", cu.MemcpyHtoD(p, unsafe.Pointer(&data[0]), int64(len(data)))); err != nil {
		return err
	}
	// A copy from pageable memory may return before its DMA lands, and
	// nothing orders it before kernels on the non-blocking timing stream.
	return wrap("cuCtxSynchronize after upload", cu.Synchronize())
}

// userArgs builds the kernel argument slots: buffer pointers and scalars.
func userArgs(uc UserCase, ptrs []cu.DevicePtr) []uint64 {
	vals := make([]uint64, len(uc.Args))
	for i, a := range uc.Args {
		if a.Buffer >= 0 {
			vals[i] = uint64(ptrs[a.Buffer])
		} else {
			vals[i] = scalarBits(a.DType, a.Value)
		}
	}
	return vals
}

// checkUserReference runs the reference kernel with its outputs redirected
// to copies, runs the timed kernel on poisoned outputs, and compares.
func (g *gpu) checkUserReference(k UserKernel, uc UserCase, l *launch, ptrs []cu.DevicePtr, bufs *buffers) error {
	ref := uc.Reference
	src := ref.Source
	if src == "" {
		src = k.Source
	}
	rm, err := g.load(k.File+" (reference)", src, k.Options)
	if err != nil {
		return err
	}
	rfn, err := rm.fn(ref.Entry)
	if err != nil {
		return err
	}
	refPtrs := append([]cu.DevicePtr(nil), ptrs...)
	for i, b := range uc.Buffers {
		if !b.Output {
			continue
		}
		if refPtrs[i], err = bufs.alloc(b.Len * elemSize(b.DType)); err != nil {
			return err
		}
		if err := g.upload(refPtrs[i], userBufferData(b, uint32(0x5005+i))); err != nil {
			return err
		}
		if pureOutput(b) { // an in-out buffer keeps its initial contents: the kernel reads them
			if err := g.poison(ptrs[i], b.Len*elemSize(b.DType)); err != nil {
				return err
			}
		}
	}
	rl := &launch{fn: rfn, grid: uc.Grid, block: uc.Block, shared: uc.SharedBytes, params: newParams(userArgs(uc, refPtrs)...)}
	defer rl.params.free()
	if err := rl.enqueue(g.stream, 1); err != nil {
		return fmt.Errorf("reference %s: %w", ref.Entry, err)
	}
	if err := l.enqueue(g.stream, 1); err != nil {
		return err
	}
	return g.compareOutputs(uc, ptrs, refPtrs)
}

func (g *gpu) compareOutputs(uc UserCase, ptrs, refPtrs []cu.DevicePtr) error {
	for i, b := range uc.Buffers {
		if !b.Output {
			continue
		}
		raw, err := g.readback(refPtrs[i], b.Len*elemSize(b.DType))
		if err != nil {
			return err
		}
		tol := toleranceFor(b.DType)
		if uc.Reference.Tolerance > 0 {
			tol = tolerance{Rel: uc.Reference.Tolerance, Abs: uc.Reference.Tolerance}
		}
		idx := checkIndices(b.Len)
		err = g.verify(ptrs[i], b.DType, b.Len, idx, tol, func(j int64) float32 { return decodeElem(b.DType, raw, j) })
		if err != nil {
			return fmt.Errorf("output %q differs from the reference %s: %w", b.Name, uc.Reference.Entry, err)
		}
	}
	return nil
}
