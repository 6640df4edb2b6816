package kernels

import (
	"fmt"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
)

// prepareUser compiles the kernel (and reference), fills the buffers, runs
// the reference check, and returns the launch to time.
func prepareUser(d device.GPU, k UserKernel, uc UserCase) (*prepared, error) {
	m, err := d.Compile(k.File, k.Source, k.Options)
	if err != nil {
		return nil, err
	}
	fn, err := m.Func(k.Entry)
	if err != nil {
		return nil, err
	}
	s := &setup{gpu: d}
	ptrs, err := s.userBuffers(uc.Buffers)
	if err != nil {
		s.free()
		return nil, err
	}
	l := d.Kernel(device.Launch{Func: fn, Grid: uc.Grid, Block: uc.Block, Shared: uc.SharedBytes, Args: userArgs(uc, ptrs)})
	p := &prepared{work: l.Enqueue, ops: 1, cleanup: func() { l.Free(); s.free() },
		meta: suite.WorkMeta{Bytes: uc.Bytes, FLOPs: uc.FLOPs, PTXHash: m.Hash(k.Entry), Info: map[string]string{"entry": k.Entry, "file": k.File}}}
	if uc.Reference != nil {
		if err := s.checkUserReference(k, uc, l, ptrs); err != nil {
			p.cleanup()
			return nil, err
		}
		p.meta.Info["checked_against"] = uc.Reference.Entry
	}
	return p, nil
}

// userBuffers allocates and initialises the case's buffers.
func (s *setup) userBuffers(bs []UserBuffer) ([]device.Ptr, error) {
	ptrs := make([]device.Ptr, len(bs))
	for i, b := range bs {
		bytes := b.Len * elemSize(b.DType)
		p, err := s.alloc(bytes)
		if err != nil {
			return nil, err
		}
		ptrs[i] = p
		if err := s.gpu.CopyHtoD(p, userBufferData(b, uint32(0x5005+i))); err != nil {
			return nil, err
		}
	}
	return ptrs, nil
}

// userArgs builds the kernel argument slots: buffer pointers and scalars.
func userArgs(uc UserCase, ptrs []device.Ptr) []uint64 {
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
func (s *setup) checkUserReference(k UserKernel, uc UserCase, l device.Kernel, ptrs []device.Ptr) error {
	ref := uc.Reference
	src := ref.Source
	if src == "" {
		src = k.Source
	}
	rm, err := s.gpu.Compile(k.File+" (reference)", src, k.Options)
	if err != nil {
		return err
	}
	rfn, err := rm.Func(ref.Entry)
	if err != nil {
		return err
	}
	refPtrs := append([]device.Ptr(nil), ptrs...)
	for i, b := range uc.Buffers {
		if !b.Output {
			continue
		}
		if refPtrs[i], err = s.alloc(b.Len * elemSize(b.DType)); err != nil {
			return err
		}
		if err := s.gpu.CopyHtoD(refPtrs[i], userBufferData(b, uint32(0x5005+i))); err != nil {
			return err
		}
		if pureOutput(b) { // an in-out buffer keeps its initial contents: the kernel reads them
			if err := s.poison(ptrs[i], b.Len*elemSize(b.DType)); err != nil {
				return err
			}
		}
	}
	rl := s.gpu.Kernel(device.Launch{Func: rfn, Grid: uc.Grid, Block: uc.Block, Shared: uc.SharedBytes, Args: userArgs(uc, refPtrs)})
	defer rl.Free()
	if err := rl.Enqueue(1); err != nil {
		return fmt.Errorf("reference %s: %w", ref.Entry, err)
	}
	if err := l.Enqueue(1); err != nil {
		return err
	}
	return s.compareUserOutputs(uc, ptrs, refPtrs)
}

// compareUserOutputs compares each output buffer with the reference's.
func (s *setup) compareUserOutputs(uc UserCase, ptrs, refPtrs []device.Ptr) error {
	for i, b := range uc.Buffers {
		if !b.Output {
			continue
		}
		raw, err := s.readback(refPtrs[i], b.Len*elemSize(b.DType))
		if err != nil {
			return err
		}
		tol := toleranceFor(b.DType)
		if uc.Reference.Tolerance > 0 {
			tol = tolerance{Rel: uc.Reference.Tolerance, Abs: uc.Reference.Tolerance}
		}
		idx := checkIndices(b.Len)
		err = s.verify(ptrs[i], b.DType, b.Len, idx, tol, func(j int64) float32 { return decodeElem(b.DType, raw, j) })
		if err != nil {
			return fmt.Errorf("output %q differs from the reference %s: %w", b.Name, uc.Reference.Entry, err)
		}
	}
	return nil
}
